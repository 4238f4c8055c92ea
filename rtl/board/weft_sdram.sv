// weft_sdram.sv -- controller for the ULX3S's SDR SDRAM (a 16-bit chip: IS42S16160 32 MB, or
// AS4C32M16 64 MB of which the low 32 MB are used): 4 banks x 8192 rows x 512 columns x 16
// bits, CAS latency 2, burst length 2 (one 32-bit word per READ or WRITE command).
//
// One request at a time: `req` with the word address, the direction and the number of words
// `n` (1..32; a request must not cross a 1 KiB SDRAM row), held until `ack`. The request
// opens its row (ACTIVE), then issues one READ or WRITE per word, two clocks apart, the last
// with auto-precharge: every request leaves every bank precharged (a closed-page controller:
// simple timing, no row state to track). A write takes its words from `wdata`/`be` (byte
// enables) one at a time: `wtake` pulses in the cycle a word is taken, and the requester
// shows the next one from the following cycle. A read returns its words in order, one per
// `rvalid` pulse on `rdata`. `idle` is set when no request is under way (`ack` may then come
// in the cycle `req` is raised, after a due refresh).
//
// Refresh: one AUTO REFRESH every REF_CLKS clocks (7.8 us for 8192 rows in 64 ms at most;
// the default 300 at 50 MHz is 6 us, leaving room for the longest request). Initialisation
// after reset: INIT_CLKS clocks of NOP with CKE high (200 us), PRECHARGE ALL, 8 AUTO
// REFRESH, LOAD MODE REGISTER (CL 2, BL 2, sequential), then requests are taken.
//
// Timing in clocks (the defaults hold at 50 MHz for the -7 parts: tRCD, tRP 21 ns -> 2;
// tRC, tRFC 63 ns -> 4; tRAS 42 ns -> 3; tWR 14 ns -> 2; tMRD 14 ns -> 2). Every command,
// address, data and mask output is a register, so they reach the pins together; the SDRAM's
// clock is the controller's, delayed by a quarter period (ulx3s_top.sv's PLL): the chip
// samples a command a quarter cycle after it leaves the controller, and the read data of a
// READ issued at clock edge k is in the input register (dq_q) after edge k + CL + 1 (CAP),
// its second half one edge later. The behavioural model the simulations use
// (rtl/board/sdram_model.h) checks every one of these rules.
module weft_sdram #(
    parameter int INIT_CLKS = 10000,
    parameter int REF_CLKS = 300,
    parameter int T_RCD = 2,
    parameter int T_RP = 2,
    parameter int T_RFC = 4,
    parameter int T_MRD = 2,
    parameter int T_WR = 2,
    parameter int CAP = 3,                // clock edges from a READ to its first half in dq_q
    parameter int AW = 23                 // word address bits (23: 32 MB)
) (
    input  logic          clk,
    input  logic          rst,
    // requests
    input  logic          req,
    input  logic          we,
    input  logic [AW-1:0] addr,
    input  logic [5:0]    n,
    output logic          ack,
    input  logic [31:0]   wdata,
    input  logic [3:0]    be,
    output logic          wtake,
    output logic          rvalid,
    output logic [31:0]   rdata,
    output logic          idle,
    // the chip
    output logic          sd_cke,
    output logic          sd_cs_n,
    output logic          sd_ras_n,
    output logic          sd_cas_n,
    output logic          sd_we_n,
    output logic [1:0]    sd_ba,
    output logic [12:0]   sd_a,
    output logic [1:0]    sd_dqm,
    output logic [15:0]   sd_dq_o,
    output logic          sd_dq_oe,
    input  logic [15:0]   sd_dq_i
);
  // commands {cs_n, ras_n, cas_n, we_n}
  localparam logic [3:0] C_NOP = 4'b0111, C_ACT = 4'b0011, C_READ = 4'b0101,
                         C_WRITE = 4'b0100, C_PRE = 4'b0010, C_REF = 4'b0001, C_MRS = 4'b0000;
  // mode register: write burst = programmed burst, CL 2, sequential, BL 2
  localparam logic [12:0] MODE = 13'b000_0_00_010_0_001;

  typedef enum logic [2:0] { I_WAIT, I_PRE, I_REF, I_MRS, IDLE, ACT, RW, DONE } st_t;
  st_t st;
  logic [15:0] wait_q;                  // clocks before the next command (0: may issue)
  logic [3:0]  refs_q;                  // initialisation refreshes left
  logic [9:0]  ref_q;                   // clocks since the last refresh
  logic        ref_due;
  // the request being served
  logic          we_q;
  logic [5:0]    left_q;                // words still to issue
  logic [8:0]    col_q;                 // halfword column of the next word
  logic          hi_q;                  // a write's second half goes out in this cycle
  logic [15:0]   whi_q;
  logic [1:0]    whm_q;
  // reads in flight: a token per READ, shifted each clock; at stage CAP the first half is in
  // dq_q, at CAP + 1 the second
  logic [CAP+1:0] rd_pipe;
  logic [15:0]    dq_q, rlo_q;

  assign ref_due = ref_q >= 10'(REF_CLKS);
  assign idle = st == IDLE && !ref_due;

  always_comb begin
    ack = 1'b0;
    wtake = 1'b0;
    if (st == IDLE && !ref_due && wait_q == 16'd0 && req) ack = 1'b1;
    if (st == RW && wait_q == 16'd0 && we_q && !hi_q) wtake = 1'b1;
  end

  always_ff @(posedge clk) begin
    dq_q <= sd_dq_i;
    rd_pipe <= {rd_pipe[CAP:0], 1'b0};
    rvalid <= 1'b0;
    if (rd_pipe[CAP]) rlo_q <= dq_q;
    if (rd_pipe[CAP+1]) begin
      rdata <= {dq_q, rlo_q};
      rvalid <= 1'b1;
    end
    {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_NOP;
    sd_dq_oe <= 1'b0;
    sd_dqm <= 2'b00;
    if (wait_q != 16'd0) wait_q <= wait_q - 16'd1;
    if (st != I_WAIT && st != I_PRE && st != I_REF && st != I_MRS) ref_q <= ref_q + 10'd1;
    if (rst) begin
      st <= I_WAIT;
      wait_q <= 16'(INIT_CLKS);
      sd_cke <= 1'b1;
      rd_pipe <= '0;
      rvalid <= 1'b0;
      ref_q <= 10'd0;
      hi_q <= 1'b0;
    end else begin
      if (hi_q) begin
        // a write's second half, the clock after its WRITE
        hi_q <= 1'b0;
        sd_dq_o <= whi_q;
        sd_dqm <= whm_q;
        sd_dq_oe <= 1'b1;
      end
      case (st)
        I_WAIT: if (wait_q == 16'd0) st <= I_PRE;
        I_PRE: begin
          {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_PRE;
          sd_a <= 13'h400;                  // A10: all banks
          wait_q <= 16'(T_RP - 1);
          refs_q <= 4'd8;
          st <= I_REF;
        end
        I_REF: if (wait_q == 16'd0) begin
          if (refs_q != 4'd0) begin
            {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_REF;
            refs_q <= refs_q - 4'd1;
            wait_q <= 16'(T_RFC - 1);
          end else st <= I_MRS;
        end
        I_MRS: begin
          {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_MRS;
          sd_ba <= 2'b00;
          sd_a <= MODE;
          wait_q <= 16'(T_MRD - 1);
          ref_q <= 10'd0;
          st <= IDLE;
        end
        IDLE: if (wait_q == 16'd0) begin
          if (ref_due) begin
            {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_REF;
            ref_q <= 10'd0;
            wait_q <= 16'(T_RFC - 1);
          end else if (req) begin
            // halfword address {row, bank, column}: the word's first half
            {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= C_ACT;
            sd_a <= addr[AW-1:10];
            sd_ba <= addr[9:8];
            col_q <= {addr[7:0], 1'b0};
            we_q <= we;
            left_q <= n;
            wait_q <= 16'(T_RCD - 1);
            st <= RW;
          end
        end
        RW: begin
          if (wait_q == 16'd0 && !hi_q) begin
            {sd_cs_n, sd_ras_n, sd_cas_n, sd_we_n} <= we_q ? C_WRITE : C_READ;
            sd_a <= {2'b00, left_q == 6'd1, 1'b0, col_q};    // A10: auto-precharge on the last
            col_q <= col_q + 9'd2;
            left_q <= left_q - 6'd1;
            wait_q <= 16'd1;
            if (we_q) begin
              sd_dq_o <= wdata[15:0];
              sd_dqm <= ~be[1:0];
              sd_dq_oe <= 1'b1;
              whi_q <= wdata[31:16];
              whm_q <= ~be[3:2];
              hi_q <= 1'b1;
            end else rd_pipe[0] <= 1'b1;
            if (left_q == 6'd1) begin
              // the bank precharges after the burst: a read waits for its data (the bus is
              // free for a write, and tRP has passed), a write for tWR and tRP
              wait_q <= we_q ? 16'(1 + T_WR + T_RP) : 16'(CAP + 1);
              st <= DONE;
            end
          end
        end
        DONE: if (wait_q == 16'd0) st <= IDLE;
        default: st <= IDLE;
      endcase
    end
  end
endmodule
