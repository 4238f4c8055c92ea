// weft_smem.sv -- a core's shared (local) memory: WORDS 32-bit words, word-interleaved over
// LANES banks (word k lives in bank k mod LANES, row k / LANES), as docs/isa.md §8.1 says of
// the design. Each bank is a synchronous-read RAM with byte enables (one EBR per 512 words on
// the ECP5). The core serves one lane per cycle, so one bank is enabled at a time; the banks
// let a wider issue stage serve the lanes of a conflict-free access together later. The
// answer is registered once more after the bank's read (whose data arrives late in its
// cycle, 5.8 ns after the clock on the ECP5), so it comes two cycles after en, from
// flip-flops. A second port, of whole words, serves the board's DMA engine (two ports per
// bank: two EBRs per 512 words on the ECP5).
module weft_smem #(
    parameter int LANES = 8,
    parameter int WORDS = 4096
) (
    input  logic                     clk,
    input  logic                     en,
    input  logic                     we,
    input  logic [3:0]               be,      // byte enables (writes)
    input  logic [$clog2(WORDS)-1:0] addr,    // word index
    input  logic [31:0]              wdata,
    output logic [31:0]              rdata,   // the word at addr, two cycles after en
    // a second port (the board's DMA engine: rtl/board/weft_dma.sv), whole words, answered
    // in the same way; both ports may use the same bank in the same cycle
    input  logic                     b_en,
    input  logic                     b_we,
    input  logic [$clog2(WORDS)-1:0] b_addr,
    input  logic [31:0]              b_wdata,
    output logic [31:0]              b_rdata
);
  localparam int LB = $clog2(LANES);
  localparam int ROWS = WORDS / LANES;
  localparam int RB = (ROWS > 1) ? $clog2(ROWS) : 1;

  // LANES and WORDS are powers of two (LANES >= 2): the bank is the word index's low bits
  wire [LB-1:0] bank = addr[LB-1:0];
  wire [RB-1:0] row = addr[$clog2(WORDS)-1:LB];
  logic [LB-1:0] bank_q;
  logic [31:0]   rd [LANES];
  wire [LB-1:0] b_bank = b_addr[LB-1:0];
  wire [RB-1:0] b_row = b_addr[$clog2(WORDS)-1:LB];
  logic [LB-1:0] b_bank_q;
  logic [31:0]   b_rd [LANES];

  genvar b;
  generate
    for (b = 0; b < LANES; b++) begin : bk
      // no_rw_check: the two ports meeting at one word in one cycle (one of them writing) is
      // left undefined, as the ECP5's EBR leaves it; without it yosys cannot map a bank with
      // two ports to EBR and builds it of flip-flops (131 072 of them). Only a warp racing the
      // DMA engine on a word in flight can meet it (the simulation reads the old word)
      (* no_rw_check *) logic [31:0] m [ROWS];
      initial for (int i = 0; i < ROWS; i++) m[i] = 32'd0;
      wire sel = en && int'(bank) == b;
      always_ff @(posedge clk) begin
        if (sel && we) begin
          if (be[0]) m[row][7:0] <= wdata[7:0];
          if (be[1]) m[row][15:8] <= wdata[15:8];
          if (be[2]) m[row][23:16] <= wdata[23:16];
          if (be[3]) m[row][31:24] <= wdata[31:24];
        end
        if (sel) rd[b] <= m[row];
      end
      wire b_sel = b_en && int'(b_bank) == b;
      always_ff @(posedge clk) begin
        if (b_sel && b_we) m[b_row] <= b_wdata;
        if (b_sel) b_rd[b] <= m[b_row];
      end
    end
  endgenerate

  always_ff @(posedge clk) begin
    if (en) bank_q <= bank;
    rdata <= rd[bank_q];
    if (b_en) b_bank_q <= b_bank;
    b_rdata <= b_rd[b_bank_q];
  end
endmodule
