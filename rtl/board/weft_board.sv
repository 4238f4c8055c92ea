// weft_board.sv -- a weft core as a computer on its own: the core (weft_core), its DRAM and
// shared-memory window in block RAM, the console and exit devices, and a serial loader.
// It is everything of the ULX3S design except the pins and the PLL (ulx3s_top.sv), so the
// simulation (rtl/board/tb_board.cpp, crates/rtl-lockstep/tests/board.rs) runs it as built.
//
// Memory: DRAM at 0x8000_0000 (DRAM_BYTES) in four byte-wide banks, so an access of 1, 2 or 4
// bytes at any alignment takes one bank access (each bank holds at most one of its bytes).
// The banks' inputs (write enable, row, byte) are registered in the cycle the request is
// taken and the banks read or write in the next, so the answer comes two cycles after the
// request (the lockstep testbench's memory answers in one: the core waits for mem_ack).
// The shared-memory window at 0xFF00_0000 is inside the core (weft_smem.sv). The I/O page:
// a store to 0xFFFF_FF00 is a console byte, a word stored to 0xFFFF_FF04 ends the run with
// that exit code, loads read 0; a word stored to the HTIF `tohost` address (given by the
// loader; 0 = none) with bit 0 set ends the run with code value >> 1, as riscv-tests do.
//
// Serial protocol (8N1; docs/rtl.md "Load the board", rtl/board/weft-load.py):
//   host -> board  'I'                        identify: the board answers ESC 'I' W L K K
//                                             (warps, lanes, DRAM KiB as 16 bits LE)
//                  'W' addr[4] len[4] bytes   write `len` bytes from `addr` (while loading)
//                  'T' base[4] n[4] words     the reconvergence table: n words (4 bytes
//                                             each) for the core's table memory, word i
//                                             for the instruction at base + 4i, and table
//                                             mode (weft_diverge.sv); a table of more than
//                                             RT_WORDS words is refused: the next 'G'
//                                             answers ESC 'T' RT_WORDS[4] instead of running
//                  'G' entry[4] tohost[4]     start the core at `entry`
//                  'R'                        stop the core and go back to loading, in
//                                             converge mode until the next 'T'
//   board -> host  console bytes, ESC (0x1b) sent as ESC ESC; at the end of a run one of
//                  ESC 'X' code[4]            exit code
//                  ESC 'F' code pc[4]         a fault (code as in docs/isa.md)
//                  ESC 'U' pc[4]              an instruction this RTL does not implement
//                  ESC 'H'                    every warp halted without an exit
//                  ESC 'T' words[4]           (instead of a run) the table sent was larger
//                                             than the board's RT_WORDS words
// (numbers little-endian). LEDs: 0 heartbeat, 1 loading, 2 running, 3 ended,
// 7:4 the exit code's low bits (all on for a fault or an unsupported instruction).
module weft_board #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int DEPTH = 8,
    parameter int RT_WORDS = 16384,
    parameter int DRAM_BYTES = 65536,
    parameter int CLKS_PER_BIT = 217
) (
    input  logic       clk,
    input  logic       rst,
    input  logic       uart_rx,
    output logic       uart_tx,
    output logic [7:0] led
);
  localparam logic [7:0] ESC = 8'h1b;
  localparam int DR = $clog2(DRAM_BYTES / 4);

  // ---- the core --------------------------------------------------------------------------
  logic        core_rst;
  logic [31:0] entry_q, tohost_q;
  logic        mem_req, mem_we, mem_fetch, mem_ack, mem_err;
  logic [1:0]  mem_size;
  logic [31:0] mem_addr, mem_wdata, mem_rdata;
  logic        rt_valid, rt_unsupported, halted;
  logic [31:0] rt_pc;
  logic [4:0]  rt_fault;
  // the rest of the retire record is for the lockstep testbench, not the board
  /* verilator lint_off UNUSEDSIGNAL */
  logic [7:0]  mem_lane, rt_warp;
  logic        rt_wen, mem_amo, mem_local, deadlock;
  logic [31:0] rt_mask, rt_next_pc, rt_next_mask;
  logic [4:0]  rt_rd;
  logic [LANES*32-1:0] rt_vals;
  logic [31:0] rc_words;
  logic [1:0]  rt_unsup_why;
  /* verilator lint_on UNUSEDSIGNAL */
  // the reconvergence table's mode, window and load port (the loader's 'T')
  logic        rc_mode_q, rc_we_q, rc_over_q;
  logic [31:0] rc_base_q, rc_len_q;
  logic [17:0] rc_wd_q;
  logic [15:0] ld_word;                   // a table word's first two bytes
  logic [15:0] rc_wa_q;

  weft_core #(.WARPS(WARPS), .LANES(LANES), .DEPTH(DEPTH), .RT_WORDS(RT_WORDS)) core (
      .clk, .rst(core_rst), .entry_pc(entry_q),
      .rc_mode(rc_mode_q), .rc_base(rc_base_q), .rc_len(rc_len_q), .rc_we(rc_we_q),
      .rc_wa(rc_wa_q), .rc_wd(rc_wd_q), .rc_words,
      .mem_req, .mem_we, .mem_size, .mem_addr, .mem_wdata, .mem_lane, .mem_fetch, .mem_amo,
      .mem_local, .mem_ack, .mem_err, .mem_rdata,
      .rt_valid, .rt_warp, .rt_pc, .rt_mask, .rt_next_pc, .rt_next_mask, .rt_wen, .rt_rd,
      .rt_vals, .rt_fault, .rt_unsupported, .rt_unsup_why, .halted, .deadlock);

  // ---- serial line -----------------------------------------------------------------------
  logic       rx_valid, tx_busy, tx_send;
  logic [7:0] rx_data, tx_data;
  weft_uart_rx #(.CLKS_PER_BIT(CLKS_PER_BIT)) urx (.clk, .rst, .rx(uart_rx), .valid(rx_valid),
                                                   .data(rx_data));
  weft_uart_tx #(.CLKS_PER_BIT(CLKS_PER_BIT)) utx (.clk, .rst, .send(tx_send), .data(tx_data),
                                                   .busy(tx_busy), .tx(uart_tx));

  // transmit queue: up to two bytes pushed per cycle (a console ESC is doubled)
  logic [7:0] q [16];
  logic [4:0] q_head, q_tail;
  wire  [4:0] q_used = q_tail - q_head;
  wire        q_room2 = q_used <= 5'd14;
  logic [1:0] push_n;
  logic [7:0] push0, push1;
  assign tx_send = q_used != 5'd0 && !tx_busy;
  assign tx_data = q[q_head[3:0]];
  always_ff @(posedge clk) begin
    if (rst) begin
      q_head <= '0;
      q_tail <= '0;
    end else begin
      if (tx_send) q_head <= q_head + 5'd1;
      if (push_n != 2'd0) q[q_tail[3:0]] <= push0;
      if (push_n == 2'd2) q[q_tail[3:0] + 4'd1] <= push1;
      q_tail <= q_tail + 5'(push_n);
    end
  end

  // ---- memory: the DRAM's four byte banks ------------------------------------------------
  // One access per cycle from the core or (while loading) the loader: `acc_*`, decoded into
  // each bank's write enable, row and byte and registered (bk_*): no bank input depends on
  // the core's request in the same cycle (its address decode and the write enable's spread
  // to the banks' block RAMs were the board's longest path).
  logic        acc_go, acc_we;
  logic [31:0] acc_addr, acc_wdata;
  logic [2:0]  acc_n;                     // bytes: 1, 2 or 4
  wire  [32:0] acc_end = {1'b0, acc_addr} + 33'(acc_n);
  wire         in_dram = acc_addr >= 32'h8000_0000 && acc_end <= 33'h8000_0000 + 33'(DRAM_BYTES);
  wire  [31:0] off = acc_addr - 32'h8000_0000;
  logic [7:0]  dram_q [4];
  genvar gb;
  generate
    for (gb = 0; gb < 4; gb++) begin : bank
      // the byte of the access this bank holds, if any, and its row
      wire [1:0]  i = 2'(gb) - off[1:0];
      wire        use_b = 3'(i) < acc_n;
      /* verilator lint_off UNUSEDSIGNAL */
      wire [31:0] at = off + 32'(i);     // the byte's offset; its row is at >> 2
      /* verilator lint_on UNUSEDSIGNAL */
      logic          bk_we;
      logic [DR-1:0] bk_row;
      logic [7:0]    bk_d;
      always_ff @(posedge clk) begin
        bk_we <= acc_go && acc_we && in_dram && use_b;
        bk_row <= at[DR+1:2];
        bk_d <= acc_wdata[8*i +: 8];
      end
      weft_bram8 #(.ROWS(DRAM_BYTES / 4)) dram (
          .clk, .we(bk_we), .addr(bk_row), .d(bk_d), .q(dram_q[gb]));
    end
  endgenerate
  logic [1:0] rot_q;
  always_comb begin
    mem_rdata = 32'd0;
    for (int k = 0; k < 4; k++)
      mem_rdata[8*k +: 8] = io_zero ? 8'd0 : dram_q[2'(k) + rot_q];
  end

  // ---- run control -----------------------------------------------------------------------
  typedef enum logic [2:0] { B_LOAD, B_RUN, B_END } bstate_t;
  bstate_t bst;
  logic        bk_go, pend, perr, io_zero;   // bk_go: a request is in the banks' registers;
                                             // pend: it is answered (mem_ack)
  logic [31:0] exit_q, endpc_q;
  logic [7:0]  end_kind, fault_q;
  wire  [2:0]  core_n = 3'd1 << mem_size;
  wire         io = mem_addr >= 32'hffff_ff00;
  wire         is_console = mem_we && mem_addr == 32'hffff_ff00;
  wire         is_exit = mem_we && mem_addr == 32'hffff_ff04 && mem_size == 2'd2;
  wire         is_tohost = mem_we && tohost_q != 32'd0 && mem_addr == tohost_q &&
                           mem_size == 2'd2 && mem_wdata[0];
  // the core's request is taken this cycle (a console byte waits for room in the queue)
  wire         core_go = bst == B_RUN && mem_req && !bk_go && !pend && (!is_console || q_room2);
  assign mem_ack = pend;
  assign mem_err = perr;
  assign core_rst = bst != B_RUN;

  // loader
  logic [3:0]  ld_need;                   // header bytes still to come
  logic [7:0]  ld_cmd;
  logic [55:0] ld_hdr;                    // the first seven header bytes
  logic [31:0] ld_addr, ld_len;
  // a data byte of a 'W' (written only while loading)
  wire         ld_data = rx_valid && ld_need == 4'd0 && ld_cmd == "W" && ld_len != 32'd0;
  wire         ld_write = ld_data && bst == B_LOAD;
  // a byte of a 'T' table word
  wire         ld_tdata = rx_valid && ld_need == 4'd0 && ld_cmd == "T" && ld_len != 32'd0;

  always_comb begin
    acc_go = core_go || ld_write;
    acc_we = ld_write ? 1'b1 : mem_we;
    acc_addr = ld_write ? ld_addr : mem_addr;
    acc_wdata = ld_write ? {24'd0, rx_data} : mem_wdata;
    acc_n = ld_write ? 3'd1 : core_n;
  end

  // end-of-run message
  logic [7:0] msg [7];
  logic [2:0] msg_len, msg_i;

  always_comb begin
    push_n = 2'd0;
    push0 = 8'd0;
    push1 = 8'd0;
    if (core_go && is_console) begin
      push0 = mem_wdata[7:0];
      push1 = ESC;
      push_n = (mem_wdata[7:0] == ESC) ? 2'd2 : 2'd1;
    end else if (msg_i != msg_len && q_room2) begin
      push0 = msg[msg_i];
      push_n = 2'd1;
    end
  end

  logic [25:0] beat;
  always_ff @(posedge clk) begin
    beat <= beat + 26'd1;
    if (rst) begin
      bst <= B_LOAD;
      bk_go <= 1'b0;
      pend <= 1'b0;
      ld_need <= 4'd0;
      ld_cmd <= 8'd0;
      ld_len <= 32'd0;
      msg_len <= '0;
      msg_i <= '0;
      end_kind <= 8'd0;
      entry_q <= 32'h8000_0000;
      tohost_q <= 32'd0;
      rc_mode_q <= 1'b0;
      rc_len_q <= 32'd0;
      rc_we_q <= 1'b0;
      rc_over_q <= 1'b0;
    end else begin
      rc_we_q <= 1'b0;
      if (push_n != 2'd0 && !(core_go && is_console)) msg_i <= msg_i + 3'd1;
      // the loader: commands are taken in any state, 'R' stops a run
      if (rx_valid) begin
        if (ld_need != 4'd0) begin
          ld_hdr <= {rx_data, ld_hdr[55:8]};
          ld_need <= ld_need - 4'd1;
          if (ld_need == 4'd1 && ld_cmd == "W") begin
            ld_addr <= ld_hdr[31:0];
            ld_len <= {rx_data, ld_hdr[55:32]};
          end
          if (ld_need == 4'd1 && ld_cmd == "T" && bst == B_LOAD) begin
            rc_base_q <= ld_hdr[31:0];
            rc_len_q <= {rx_data, ld_hdr[55:32]};
            rc_mode_q <= 1'b1;
            rc_over_q <= {rx_data, ld_hdr[55:32]} > 32'(RT_WORDS);
            ld_len <= {rx_data[5:0], ld_hdr[55:32], 2'b00};   // bytes
            ld_addr <= 32'd0;
          end
          if (ld_need == 4'd1 && ld_cmd == "G" && bst == B_LOAD && rc_over_q) begin
            // the table did not fit: refuse to run, saying how many words fit
            bst <= B_END;
            msg[0] <= ESC;
            msg[1] <= "T";
            {msg[5], msg[4], msg[3], msg[2]} <= 32'(RT_WORDS);
            msg_len <= 3'd6;
            msg_i <= '0;
          end else if (ld_need == 4'd1 && ld_cmd == "G" && bst == B_LOAD) begin
            entry_q <= ld_hdr[31:0];
            tohost_q <= {rx_data, ld_hdr[55:32]};
            bst <= B_RUN;
            bk_go <= 1'b0;
            pend <= 1'b0;
          end
        end else if (ld_data) begin
          ld_addr <= ld_addr + 32'd1;
          ld_len <= ld_len - 32'd1;
        end else if (ld_tdata) begin
          // a word's bytes come low first; its third holds bits 17:16 (the fourth is 0), and
          // the third writes the 18-bit word into the table
          if (ld_addr[1:0] == 2'd0) ld_word[7:0] <= rx_data;
          if (ld_addr[1:0] == 2'd1) ld_word[15:8] <= rx_data;
          ld_addr <= ld_addr + 32'd1;
          ld_len <= ld_len - 32'd1;
          if (ld_addr[1:0] == 2'd2) begin
            rc_we_q <= bst == B_LOAD;
            rc_wa_q <= ld_addr[17:2];
            rc_wd_q <= {rx_data[1:0], ld_word};
          end
        end else begin
          ld_cmd <= rx_data;
          case (rx_data)
            "W", "G", "T": ld_need <= 4'd8;
            "R": begin
              bst <= B_LOAD;
              rc_mode_q <= 1'b0;
              rc_len_q <= 32'd0;
              rc_over_q <= 1'b0;
              end_kind <= 8'd0;
              msg_len <= '0;
              msg_i <= '0;
            end
            "I": if (bst == B_LOAD) begin
              msg[0] <= ESC;
              msg[1] <= "I";
              msg[2] <= 8'(WARPS);
              msg[3] <= 8'(LANES);
              msg[4] <= 8'(DRAM_BYTES / 1024);
              msg[5] <= 8'(DRAM_BYTES / 1024 / 256);
              msg_len <= 3'd6;
              msg_i <= '0;
            end
            default: ;
          endcase
        end
      end
      // the core's memory requests (what core_go registers here holds until the answer, two
      // cycles later: no request is taken while bk_go or pend, and the core holds mem_*
      // until mem_ack)
      if (bst == B_RUN) begin
        bk_go <= core_go;
        pend <= bk_go;
        if (core_go) begin
          rot_q <= acc_addr[1:0];
          io_zero <= io;
          perr <= io ? (mem_we ? !(is_console || is_exit) : (mem_fetch || acc_end > 33'h1_0000_0000))
                     : !in_dram;
          if (is_exit || is_tohost) begin
            exit_q <= is_exit ? mem_wdata : {1'b0, mem_wdata[31:1]};
            end_kind <= "X";
          end
        end
        if (rt_valid && rt_fault != 5'd0) begin
          end_kind <= "F";
          fault_q <= 8'(rt_fault);
          endpc_q <= rt_pc;
        end else if (rt_valid && rt_unsupported) begin
          end_kind <= "U";
          endpc_q <= rt_pc;
        end else if (halted && end_kind == 8'd0) end_kind <= "H";
        // the run ends (the core is held in reset) once an exit store has been answered
        if (end_kind != 8'd0 && (end_kind != "X" || pend)) begin
          bst <= B_END;
          msg[0] <= ESC;
          msg[1] <= end_kind;
          msg_i <= '0;
          case (end_kind)
            "X": begin
              {msg[5], msg[4], msg[3], msg[2]} <= exit_q;
              msg_len <= 3'd6;
            end
            "F": begin
              msg[2] <= fault_q;
              {msg[6], msg[5], msg[4], msg[3]} <= endpc_q;
              msg_len <= 3'd7;
            end
            "U": msg_len <= 3'd6;
            default: msg_len <= 3'd2;
          endcase
          if (end_kind == "U") {msg[5], msg[4], msg[3], msg[2]} <= endpc_q;
        end
      end
    end
  end
  assign led = {end_kind == "X" ? exit_q[3:0] : (end_kind == "F" || end_kind == "U") ? 4'hf : 4'h0,
                bst == B_END, bst == B_RUN, bst == B_LOAD, beat[25]};
endmodule
