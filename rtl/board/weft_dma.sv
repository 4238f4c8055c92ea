// weft_dma.sv -- a core's DMA engine (docs/display.md "The DMA engine"; the model's
// crates/fb/src/dma.rs, after the Shader Processor v2a's): four slots, each a DMA_CMD (bits
// 15:0 the shared-memory word index, 27:16 the word count, 31 the direction: 1 = DRAM ->
// shared) and a DMA_ADDR (a word-aligned byte address in DRAM); writing n to DMA_STATUS
// latches slots 0..n-1 and runs them in order; reading it gives the slots not finished.
//
// Registers (`io_*`, index 0..8: CMD0, ADDR0, .. CMD3, ADDR3, STATUS). A trigger is refused
// (io_err: the core's store faults with STORE_FAULT, as in the model) while busy, for a count
// above 4, or when one of the slots it starts has a shared range past LOCAL_WORDS or a DRAM
// range that is misaligned or not inside DRAM (a slot of 0 words has no DRAM range); a
// refused trigger starts nothing. Rewriting the slot registers while busy affects only the
// next trigger.
//
// The engine works as the model's does, one step at a time: each slot spends SETUP steps,
// then moves one word per step (a word moved in the step its slot's last word moves
// finishes the slot too; a slot of 0 words finishes in the step after its setup). A step is a
// clock on the board, and an issue slot of the core in model time (`step`: the board's
// MODEL_TIME), when the engine's words move in the same cycles as the model's. A word move
// reads its source (the shared memory through the core's second port, two clocks; or DRAM
// through weft_memsys.sv) and writes its destination; `busy_o` is set while one is under way
// (in model time the board holds the core's memory requests until it is done, and the
// engine waits for the display's row fetch of the same cycle, `hold`: the model moves DMA
// words after the display's event in a cycle). Warps that touch a range in flight see what
// has moved so far, silently, as in the model and the seed.
module weft_dma #(
    parameter int SETUP = 8,
    parameter int LOCAL_WORDS = 4096,
    parameter int AW = 23,
    parameter logic [31:0] DRAM_BASE = 32'h8000_0000,
    parameter longint DRAM_BYTES = 32 << 20,
    localparam int LW = $clog2(LOCAL_WORDS)
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          step,
    input  logic          hold,
    // registers
    input  logic          io_en,
    input  logic          io_we,
    input  logic [3:0]    io_reg,
    input  logic [31:0]   io_wdata,
    output logic [31:0]   io_rdata,
    output logic          io_err,
    output logic          busy_o,
    // the shared memory (the core's DMA port)
    output logic          s_en,
    output logic          s_we,
    output logic [LW-1:0] s_addr,
    output logic [31:0]   s_wdata,
    input  logic [31:0]   s_rdata,
    // DRAM (weft_memsys.sv), one word at a time
    output logic          m_req,
    output logic          m_we,
    output logic [AW-1:0] m_addr,
    input  logic          m_ack,
    input  logic          m_wtake,
    input  logic          m_rvalid,
    input  logic [31:0]   m_rdata,
    output logic [31:0]   m_wdata,
    // for the simulations: a word moved (its slot, index and value)
    output logic          dbg_mv,
    output logic [1:0]    dbg_slot,
    output logic [11:0]   dbg_idx,
    output logic [31:0]   dbg_val
);
  logic [31:0] cmd_q [4], addr_q [4];
  // the latched batch: slots k_q .. last_q of it still to do
  logic [31:0] bcmd [4], baddr [4];
  logic [2:0]  k_q, n_q;                     // current slot, slots in the batch
  logic [4:0]  setup_q;
  logic [11:0] done_q;                       // words of the current slot moved
  wire         busy = k_q != n_q;
  // the slots' ranges, checked continuously; a trigger of n looks at the first n
  logic [3:0]  ok;
  always_comb
    for (int i = 0; i < 4; i++) begin
      logic [16:0] lend;
      logic [33:0] fend;
      lend = {1'b0, cmd_q[i][15:0]} + {5'd0, cmd_q[i][27:16]};
      fend = {2'b00, addr_q[i]} + {20'd0, cmd_q[i][27:16], 2'b00};
      ok[i] = lend <= 17'(LOCAL_WORDS) && addr_q[i][1:0] == 2'd0 &&
              (cmd_q[i][27:16] == 12'd0 ||
               (addr_q[i] >= DRAM_BASE && fend <= 34'(DRAM_BASE) + 34'(DRAM_BYTES)));
    end
  wire [3:0] need = io_wdata > 32'd4 ? 4'hf : 4'((5'd1 << io_wdata[2:0]) - 5'd1);
  always_comb begin
    io_rdata = io_reg == 4'd8 ? {29'd0, 3'(n_q - k_q)} : (io_reg[0] ? addr_q[io_reg[2:1]] : cmd_q[io_reg[2:1]]);
    io_err = io_we && io_reg == 4'd8 && (busy || io_wdata > 32'd4 || (need & ~ok) != 4'd0);
  end

  // the current slot, decoded
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0]   cmd = bcmd[k_q[1:0]];          // (bits 30:28 are ignored)
  /* verilator lint_on UNUSEDSIGNAL */
  wire [11:0]   count = cmd[27:16];
  wire          to_local = cmd[31];
  wire [LW-1:0] lword = LW'(cmd[15:0]) + LW'(done_q);
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0]   foff = baddr[k_q[1:0]] - DRAM_BASE + {18'd0, done_q, 2'b00};
  /* verilator lint_on UNUSEDSIGNAL */
  // a word move: M_RD reads the source, M_WR writes the destination
  typedef enum logic [2:0] { M_IDLE, M_HOLD, M_RD, M_RDW, M_WR } mst_t;
  mst_t mst;
  logic [1:0]  sw_q;                         // the shared memory's answer comes in two clocks
  logic [31:0] word_q;
  assign busy_o = mst != M_IDLE;
  assign dbg_mv = mst == M_WR && (to_local || m_wtake);
  assign dbg_slot = k_q[1:0];
  assign dbg_idx = done_q;
  assign dbg_val = word_q;
  assign m_addr = foff[AW+1:2];
  assign m_wdata = word_q;
  always_comb begin
    s_en = 1'b0;
    s_we = 1'b0;
    s_addr = lword;
    s_wdata = word_q;
    m_req = 1'b0;
    m_we = 1'b0;
    case (mst)
      M_RD: if (to_local) m_req = 1'b1; else s_en = 1'b1;
      M_WR: if (to_local) begin
        s_en = 1'b1;
        s_we = 1'b1;
      end else begin
        m_req = 1'b1;
        m_we = 1'b1;
      end
      default: ;
    endcase
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      k_q <= 3'd0;
      n_q <= 3'd0;
      mst <= M_IDLE;
      for (int i = 0; i < 4; i++) begin
        cmd_q[i] <= 32'd0;
        addr_q[i] <= 32'd0;
      end
    end else begin
      if (io_en && io_we && io_reg < 4'd8) begin
        if (io_reg[0]) addr_q[io_reg[2:1]] <= io_wdata;
        else cmd_q[io_reg[2:1]] <= io_wdata;
      end
      if (io_en && io_we && io_reg == 4'd8 && !io_err && io_wdata != 32'd0) begin
        for (int i = 0; i < 4; i++) begin
          bcmd[i] <= cmd_q[i];
          baddr[i] <= addr_q[i];
        end
        k_q <= 3'd0;
        n_q <= io_wdata[2:0];
        setup_q <= 5'(SETUP);
        done_q <= 12'd0;
      end
      case (mst)
        M_IDLE: if (busy && step) begin
          // one step of the engine
          if (setup_q != 5'd0) setup_q <= setup_q - 5'd1;
          else if (done_q < count) mst <= M_HOLD;
          else begin
            k_q <= k_q + 3'd1;               // a slot of 0 words
            setup_q <= 5'(SETUP);
          end
        end
        M_HOLD: if (!hold) begin
          mst <= M_RD;
          sw_q <= 2'd0;
        end
        M_RD: if (to_local) begin
          if (m_ack) mst <= M_RDW;
        end else begin
          mst <= M_RDW;                      // the shared memory took the read
        end
        M_RDW: if (to_local) begin
          if (m_rvalid) begin
            word_q <= m_rdata;
            mst <= M_WR;
          end
        end else begin
          sw_q <= sw_q + 2'd1;
          if (sw_q == 2'd1) begin
            word_q <= s_rdata;
            mst <= M_WR;
          end
        end
        M_WR: if (to_local || m_wtake) begin
          mst <= M_IDLE;
          if (done_q + 12'd1 >= count) begin
            k_q <= k_q + 3'd1;
            setup_q <= 5'(SETUP);
            done_q <= 12'd0;
          end else done_q <= done_q + 12'd1;
        end
        default: mst <= M_IDLE;
      endcase
    end
  end
endmodule
