// weft_board.sv -- a weft core as a computer on its own: the core (weft_core), its DRAM (the
// ULX3S's SDRAM, weft_memsys.sv), the display controller with its HDMI symbols
// (weft_display.sv), the core's DMA engine (weft_dma.sv), the console and exit devices, and a
// serial loader. It is everything of the ULX3S design except the pins, the PLL and the TMDS
// serializer (ulx3s_top.sv), so the simulations (rtl/board/tb_board.cpp,
// crates/rtl-lockstep/tests/board.rs, hdmi.rs, dma.rs) run it as built.
//
// Memory map (the model's, docs/display.md): DRAM at 0x8000_0000 (DRAM_BYTES of SDRAM; its
// first WIN_BYTES are also in block RAM, where the core's loads and fetches read them: two
// cycles, as before the SDRAM; everything else takes an SDRAM access, about ten), the
// shared-memory window at 0xFF00_0000 (inside the core, weft_smem.sv), the I/O page: a store
// to 0xFFFF_FF00 is a console byte, a word stored to 0xFFFF_FF04 ends the run with that exit
// code, the display's registers at 0xFFFF_FF40..57 and the DMA engine's at 0xFFFF_FF80..A3
// (aligned words only, else a LOAD_FAULT/STORE_FAULT; a refused value is a STORE_FAULT), other
// loads read 0; a word stored to the HTIF `tohost` address (given by the loader; 0 = none)
// with bit 0 set ends the run with code value >> 1, as riscv-tests do.
//
// Time: on the board the display's beam moves at the pixel clock, PIX_NUM / PIX_DEN pixels per
// clock (1/2: 25 MHz at 50 MHz), and the DMA engine steps every clock. With MODEL_TIME (for
// the simulations that compare pictures and DMA transfers with the functional model) both
// step once per issue slot of the core, as the model's beam and engine step once per cycle,
// and the board holds the core's memory requests while the display fetches a row or the
// engine moves a word, so that they happen between two issue slots as they do in the model:
// every frame and every word is then exactly the model's (and the HDMI symbols come one per
// issue slot instead of one per pixel clock).
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
    parameter int DRAM_BYTES = 32 << 20,
    parameter int WIN_BYTES = 65536,
    parameter int CLKS_PER_BIT = 434,
    parameter int MODEL_TIME = 0,           // 1: the devices step once per issue slot
    parameter int PIX_NUM = 1,              // beam pixels per clock: PIX_NUM / PIX_DEN
    parameter int PIX_DEN = 2,
    // the video mode (640x480 at 60 Hz)
    parameter int H_VIS = 640,
    parameter int H_FP = 16,
    parameter int H_SYNC = 96,
    parameter int H_BP = 48,
    parameter int V_VIS = 480,
    parameter int V_FP = 10,
    parameter int V_SYNC = 2,
    parameter int V_BP = 33,
    // the SDRAM's power-up wait and refresh period in clocks (200 us, 6 us at 50 MHz)
    parameter int SD_INIT_CLKS = 10000,
    parameter int SD_REF_CLKS = 300
) (
    input  logic        clk,
    input  logic        rst,
    input  logic        uart_rx,
    output logic        uart_tx,
    output logic [7:0]  led,
    // the SDRAM
    output logic        sd_cke,
    output logic        sd_cs_n,
    output logic        sd_ras_n,
    output logic        sd_cas_n,
    output logic        sd_we_n,
    output logic [1:0]  sd_ba,
    output logic [12:0] sd_a,
    output logic [1:0]  sd_dqm,
    output logic [15:0] sd_dq_o,
    output logic        sd_dq_oe,
    input  logic [15:0] sd_dq_i,
    // the picture: TMDS symbols {red, green, blue}, one per vid_valid (ulx3s_top.sv
    // serializes them)
    output logic [29:0] vid_sym,
    output logic        vid_valid,
    // for the simulations: the frame being shown was latched on; an issue slot; the DRAM is
    // initialised; a word the DMA engine moved (its slot, index and value)
    output logic        dbg_frame_on,
    output logic        dbg_slot,
    output logic        dbg_ready,
    output logic        dbg_dma_mv,
    output logic [1:0]  dbg_dma_slot,
    output logic [11:0] dbg_dma_idx,
    output logic [31:0] dbg_dma_val
);
  localparam logic [7:0] ESC = 8'h1b;
  localparam int AW = $clog2(DRAM_BYTES / 4);
  localparam int WR = $clog2(WIN_BYTES / 4);
  localparam int LOCAL_WORDS = 4096;
  localparam bit MT = MODEL_TIME != 0;

  // ---- the core --------------------------------------------------------------------------
  // the board loads (the core in reset; the display's registers at 0), runs, or has ended (the
  // core in reset; the display goes on showing what the program left)
  typedef enum logic [2:0] { B_LOAD, B_RUN, B_END } bstate_t;
  bstate_t     bst;
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
  // the devices' side of the core
  logic        slot, disp_vbl, dma_en, dma_we;
  logic [15:0] disp_line;
  logic [11:0] dma_addr;
  logic [31:0] dma_wdata, dma_rdata;

  weft_core #(.WARPS(WARPS), .LANES(LANES), .DEPTH(DEPTH), .RT_WORDS(RT_WORDS),
              .LOCAL_WORDS(LOCAL_WORDS), .EXT_DISPLAY(1'b1)) core (
      .clk, .rst(core_rst), .entry_pc(entry_q),
      .rc_mode(rc_mode_q), .rc_base(rc_base_q), .rc_len(rc_len_q), .rc_we(rc_we_q),
      .rc_wa(rc_wa_q), .rc_wd(rc_wd_q), .rc_words,
      .mem_req, .mem_we, .mem_size, .mem_addr, .mem_wdata, .mem_lane, .mem_fetch, .mem_amo,
      .mem_local, .mem_ack, .mem_err, .mem_rdata,
      .rt_valid, .rt_warp, .rt_pc, .rt_mask, .rt_next_pc, .rt_next_mask, .rt_wen, .rt_rd,
      .rt_vals, .rt_fault, .rt_unsupported, .rt_unsup_why, .halted, .deadlock,
      .slot, .disp_line, .disp_vbl, .dma_en, .dma_we, .dma_addr, .dma_wdata, .dma_rdata);
  assign dbg_slot = slot;

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

  // ---- DRAM: requesters 0 the display, 1 the DMA engine, 2 the loader, 3 the core ---------
  logic [3:0]         m_req, m_we, m_ack;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [3:0]         m_wtake, m_rvalid;  // (the display reads, the loader writes)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [3:0][AW-1:0] m_addr;
  logic [3:0][5:0]    m_n;
  logic [3:0][31:0]   m_wdata;
  logic [3:0][3:0]    m_be;
  logic [31:0]        m_rdata;
  logic [3:0][WR-1:0] win_row;
  logic [3:0][7:0]    win_q;
  weft_memsys #(.NM(4), .AW(AW), .WIN_BYTES(WIN_BYTES), .INIT_CLKS(SD_INIT_CLKS),
                .REF_CLKS(SD_REF_CLKS)) mem (
      .clk, .rst, .m_req, .m_we, .m_addr, .m_n, .m_wdata, .m_be, .m_ack, .m_wtake, .m_rvalid,
      .rdata(m_rdata), .ready(dbg_ready), .win_row, .win_q,
      .sd_cke, .sd_cs_n, .sd_ras_n, .sd_cas_n, .sd_we_n, .sd_ba, .sd_a, .sd_dqm, .sd_dq_o,
      .sd_dq_oe, .sd_dq_i);

  // ---- the display and the DMA engine ----------------------------------------------------
  logic        pix_en, disp_busy, dma_busy;
  logic [31:0] disp_rdata, dma_rdata_io;
  logic        disp_err, dma_err, io_en, io_we;
  logic [5:0]  io_reg;                    // word index in the I/O page from 0xFFFF_FF40
  logic [31:0] io_wdata;
  generate
    if (MT) begin : mt
      assign pix_en = slot;
    end else begin : rt
      // PIX_NUM pixels every PIX_DEN clocks, evenly
      logic [7:0] acc;
      always_ff @(posedge clk)
        if (rst) acc <= 8'd0;
        else acc <= (acc + 8'(PIX_NUM) >= 8'(PIX_DEN)) ? acc + 8'(PIX_NUM) - 8'(PIX_DEN)
                                                      : acc + 8'(PIX_NUM);
      assign pix_en = acc + 8'(PIX_NUM) >= 8'(PIX_DEN);
    end
  endgenerate
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] bad_rows;
  /* verilator lint_on UNUSEDSIGNAL */
  weft_display #(.H_VIS(H_VIS), .H_FP(H_FP), .H_SYNC(H_SYNC), .H_BP(H_BP), .V_VIS(V_VIS),
                 .V_FP(V_FP), .V_SYNC(V_SYNC), .V_BP(V_BP), .AW(AW),
                 .DRAM_BYTES(64'(DRAM_BYTES))) disp (
      .clk, .rst, .beam_rst(MT && core_rst), .reg_rst(bst == B_LOAD), .pix_en,
      .io_en(io_en && io_reg < 6'd6), .io_we, .io_reg(io_reg[2:0]), .io_wdata,
      .io_rdata(disp_rdata), .io_err(disp_err), .line(disp_line), .vbl(disp_vbl),
      .busy(disp_busy), .m_req(m_req[0]), .m_addr(m_addr[0]), .m_n(m_n[0]), .m_ack(m_ack[0]),
      .m_rvalid(m_rvalid[0]), .m_rdata, .sym(vid_sym), .sym_valid(vid_valid),
      .frame_on(dbg_frame_on), .bad_rows);
  assign m_we[0] = 1'b0;
  assign m_wdata[0] = 32'd0;
  assign m_be[0] = 4'd0;
  weft_dma #(.LOCAL_WORDS(LOCAL_WORDS), .AW(AW), .DRAM_BYTES(64'(DRAM_BYTES))) dma (
      .clk, .rst(core_rst), .step(MT ? slot : 1'b1), .hold(MT && disp_busy),
      .io_en(io_en && io_reg >= 6'd16), .io_we, .io_reg(4'(io_reg - 6'd16)), .io_wdata,
      .io_rdata(dma_rdata_io), .io_err(dma_err), .busy_o(dma_busy),
      .s_en(dma_en), .s_we(dma_we), .s_addr(dma_addr), .s_wdata(dma_wdata), .s_rdata(dma_rdata),
      .m_req(m_req[1]), .m_we(m_we[1]), .m_addr(m_addr[1]), .m_ack(m_ack[1]),
      .m_wtake(m_wtake[1]), .m_rvalid(m_rvalid[1]), .m_rdata, .m_wdata(m_wdata[1]),
      .dbg_mv(dbg_dma_mv), .dbg_slot(dbg_dma_slot), .dbg_idx(dbg_dma_idx),
      .dbg_val(dbg_dma_val));
  assign m_n[1] = 6'd1;
  assign m_be[1] = 4'hf;
  // in model time, the core's requests wait while the display or the engine works in its slot
  wire blk = MT && (disp_busy || dma_busy);

  // ---- run control -----------------------------------------------------------------------
  logic [31:0] exit_q, endpc_q;
  logic [7:0]  end_kind, fault_q;
  assign core_rst = bst != B_RUN;

  // ---- the core's requests ---------------------------------------------------------------
  // A_IDLE takes a request: an I/O-page access is answered in A_IO (a device register) or at
  // once; a load or fetch inside the window reads its block RAM (A_WIN); anything else in
  // DRAM is one or two SDRAM words (A_REQ: a misaligned access across a word boundary takes
  // two requests). A_ANS answers (mem_ack).
  typedef enum logic [2:0] { A_IDLE, A_IO, A_WIN, A_REQ, A_ANS } ast_t;
  ast_t ast;
  wire  [2:0]  core_n = 3'd1 << mem_size;
  wire  [32:0] core_end = {1'b0, mem_addr} + 33'(core_n);
  wire         in_dram = mem_addr >= 32'h8000_0000 &&
                         core_end <= 33'h8000_0000 + 33'(DRAM_BYTES);
  wire         in_win = mem_addr >= 32'h8000_0000 &&
                        core_end <= 33'h8000_0000 + 33'(WIN_BYTES);
  wire         io = mem_addr >= 32'hffff_ff00;
  wire         is_dev = (mem_addr >= 32'hffff_ff40 && mem_addr < 32'hffff_ff58) ||
                        (mem_addr >= 32'hffff_ff80 && mem_addr < 32'hffff_ffa4);
  wire         is_console = mem_we && mem_addr == 32'hffff_ff00;
  wire         is_exit = mem_we && mem_addr == 32'hffff_ff04 && mem_size == 2'd2;
  wire         is_tohost = mem_we && tohost_q != 32'd0 && mem_addr == tohost_q &&
                           mem_size == 2'd2 && mem_wdata[0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire  [31:0] off = mem_addr - 32'h8000_0000;   // (inside DRAM when used)
  /* verilator lint_on UNUSEDSIGNAL */
  logic        a_err, a_win, a_two, a_wi, a_acked;
  logic [31:0] a_rdata, a_r0;
  logic [AW-1:0] a_w0;
  logic [1:0]  a_o;
  logic [7:0]  a_be;
  logic [63:0] a_wd;
  logic [WR-1:0] a_row;                   // the window's word of the access
  // a new request is taken this cycle (a console byte waits for room in the queue)
  wire         core_go = bst == B_RUN && ast == A_IDLE && mem_req && !blk &&
                         (!is_console || q_room2);
  assign mem_ack = ast == A_ANS;
  assign mem_err = a_err;
  assign io_en = ast == A_IO;
  always_comb begin
    mem_rdata = a_rdata;
    if (a_win)
      for (int k = 0; k < 4; k++) mem_rdata[8*k +: 8] = win_q[2'(2'(k) + a_o)];
  end
  // the window's banks: bank b holds byte b of each word; the access's byte i is at a + i
  always_comb
    for (int b = 0; b < 4; b++) win_row[b] = a_row + WR'(2'(b) < a_o);
  assign m_req[3] = ast == A_REQ && !a_acked;
  assign m_we[3] = mem_we;
  assign m_addr[3] = a_w0 + AW'(a_wi);
  assign m_n[3] = 6'd1;
  assign m_wdata[3] = a_wi ? a_wd[63:32] : a_wd[31:0];
  assign m_be[3] = a_wi ? a_be[7:4] : a_be[3:0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire [63:0] a_rd2 = (a_wi ? {m_rdata, a_r0} : {32'd0, m_rdata}) >> {a_o, 3'b000};
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk) begin
    if (core_rst) begin
      ast <= A_IDLE;
      a_win <= 1'b0;
    end else
      case (ast)
        A_IDLE: if (core_go) begin
          a_err <= 1'b0;
          a_win <= 1'b0;
          a_rdata <= 32'd0;
          a_o <= mem_addr[1:0];
          a_row <= off[WR+1:2];
          a_w0 <= off[AW+1:2];
          a_two <= 3'(mem_addr[1:0]) + core_n > 3'd4;
          a_wi <= 1'b0;
          a_acked <= 1'b0;
          a_be <= {4'd0, 4'((5'd1 << core_n) - 5'd1)} << mem_addr[1:0];
          a_wd <= {32'd0, mem_wdata} << {mem_addr[1:0], 3'b000};
          if (io) begin
            if (is_dev) begin
              // device registers take aligned words only
              if (mem_size != 2'd2 || mem_addr[1:0] != 2'd0 || mem_fetch) begin
                a_err <= 1'b1;
                ast <= A_ANS;
              end else ast <= A_IO;
            end else begin
              a_err <= mem_we ? !(is_console || is_exit) : (mem_fetch || core_end > 33'h1_0000_0000);
              ast <= A_ANS;
            end
          end else if (!in_dram) begin
            a_err <= 1'b1;
            ast <= A_ANS;
          end else if (!mem_we && in_win) begin
            a_win <= 1'b1;
            ast <= A_WIN;
          end else ast <= A_REQ;
        end
        A_IO: begin
          a_rdata <= (mem_addr >= 32'hffff_ff80) ? dma_rdata_io : disp_rdata;
          a_err <= mem_we && ((mem_addr >= 32'hffff_ff80) ? dma_err : disp_err);
          ast <= A_ANS;
        end
        A_WIN: ast <= A_ANS;
        A_REQ: begin
          if (m_ack[3]) a_acked <= 1'b1;
          if ((mem_we && m_wtake[3]) || (!mem_we && m_rvalid[3])) begin
            a_acked <= 1'b0;
            if (!a_wi) a_r0 <= m_rdata;
            if (a_two && !a_wi) a_wi <= 1'b1;
            else begin
              a_rdata <= a_rd2[31:0];
              ast <= A_ANS;
            end
          end
        end
        default: ast <= A_IDLE;           // A_ANS
      endcase
  end
  assign io_we = mem_we;
  assign io_reg = mem_addr[7:2] - 6'h10;
  assign io_wdata = mem_wdata;

  // ---- the loader ------------------------------------------------------------------------
  logic [3:0]  ld_need;                   // header bytes still to come
  logic [7:0]  ld_cmd;
  logic [55:0] ld_hdr;                    // the first seven header bytes
  logic [31:0] ld_addr, ld_len;
  // a data byte of a 'W' (written only while loading)
  wire         ld_data = rx_valid && ld_need == 4'd0 && ld_cmd == "W" && ld_len != 32'd0;
  wire         ld_write = ld_data && bst == B_LOAD && ld_addr >= 32'h8000_0000 &&
                          ld_addr < 32'h8000_0000 + 32'(DRAM_BYTES);
  // a byte of a 'T' table word
  wire         ld_tdata = rx_valid && ld_need == 4'd0 && ld_cmd == "T" && ld_len != 32'd0;
  // the byte to write (one at a time: the next comes a serial frame later)
  logic        lw_pend;
  logic [AW-1:0] lw_word;
  logic [1:0]  lw_byte;
  logic [7:0]  lw_data;
  assign m_req[2] = lw_pend;
  assign m_we[2] = 1'b1;
  assign m_addr[2] = lw_word;
  assign m_n[2] = 6'd1;
  assign m_wdata[2] = {4{lw_data}};
  assign m_be[2] = 4'd1 << lw_byte;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] ld_off = ld_addr - 32'h8000_0000;   // (inside DRAM when written)
  /* verilator lint_on UNUSEDSIGNAL */

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
    if (m_ack[2]) lw_pend <= 1'b0;
    if (ld_write) begin
      lw_pend <= 1'b1;
      lw_word <= ld_off[AW+1:2];
      lw_byte <= ld_off[1:0];
      lw_data <= rx_data;
    end
    if (rst) begin
      bst <= B_LOAD;
      lw_pend <= 1'b0;
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
      if (bst == B_RUN) begin
        if (core_go && (is_exit || is_tohost)) begin
          exit_q <= is_exit ? mem_wdata : {1'b0, mem_wdata[31:1]};
          end_kind <= "X";
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
        if (end_kind != 8'd0 && (end_kind != "X" || ast == A_ANS)) begin
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
