// weft_regfile.sv -- one lane's registers: x0..x31 and f0..f31 of every warp, WARPS * 64
// words (one ECP5 block RAM up to 8 warps), with one write port and three synchronous read
// ports (rs1 or rd, rs2, rs3): three copies of the memory, written together. An address is
// {warp, file (1: float), register}; x0 reads as zero and is never written (the core does
// not). Each read is registered by the block RAM itself (its data arrives late in the
// cycle); the core registers it once more before using it.
module weft_regfile #(
    parameter int AW = 8          // address bits: warp bits + 6
) (
    input  logic          clk,
    input  logic          we,
    input  logic [AW-1:0] wa,
    input  logic [31:0]   wd,
    input  logic [AW-1:0] ra1,
    input  logic [AW-1:0] ra2,
    input  logic [AW-1:0] ra3,
    output logic [31:0]   rd1,
    output logic [31:0]   rd2,
    output logic [31:0]   rd3
);
  logic [31:0] m1 [1 << AW], m2 [1 << AW], m3 [1 << AW];
  initial
    for (int i = 0; i < (1 << AW); i++) begin
      m1[i] = 32'd0;
      m2[i] = 32'd0;
      m3[i] = 32'd0;
    end
  // x0: the integer file's register 0
  wire z1 = ra1[5:0] == 6'd0, z2 = ra2[5:0] == 6'd0;
  always_ff @(posedge clk) begin
    if (we) begin
      m1[wa] <= wd;
      m2[wa] <= wd;
      m3[wa] <= wd;
    end
    rd1 <= z1 ? 32'd0 : m1[ra1];
    rd2 <= z2 ? 32'd0 : m2[ra2];
    rd3 <= m3[ra3];   // (rs3 is always a float register)
  end
endmodule
