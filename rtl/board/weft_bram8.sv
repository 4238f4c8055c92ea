// weft_bram8.sv -- one byte-wide block RAM bank of the board's memories: synchronous write
// and read (a read in the cycle of a write sees the old byte). yosys maps it to ECP5 EBR.
module weft_bram8 #(
    parameter int ROWS = 16384
) (
    input  logic                      clk,
    input  logic                      we,
    input  logic [$clog2(ROWS)-1:0]   addr,
    input  logic [7:0]                d,
    output logic [7:0]                q
);
  logic [7:0] m [ROWS];
  always_ff @(posedge clk) begin
    if (we) m[addr] <= d;
    q <= m[addr];
  end
endmodule
