// weft_mul.sv -- one lane's RV32M multiplier: a registered 33x33 signed product (ECP5 DSPs),
// the operands taken at `start` and the product two cycles later (`done`): mul gives the low
// word, mulh/mulhsu/mulhu (f = 1/2/3: both signed, a signed, both unsigned) the high word.
// Registered on both sides so that the product does not sit on the ALU's one-cycle path.
module weft_mul (
    input  logic        clk,
    input  logic        start,
    input  logic [1:0]  f,        // funct3[1:0]: mul, mulh, mulhsu, mulhu
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic [31:0] y,
    output logic        done
);
  logic signed [32:0] ma, mb;
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [65:0] prod;  // bits 65:64 only repeat the sign
  /* verilator lint_on UNUSEDSIGNAL */
  logic        high;
  logic [1:0]  cnt;
  always_ff @(posedge clk) begin
    if (start) begin
      ma <= {(f == 2'd1 || f == 2'd2) ? a[31] : 1'b0, a};
      mb <= {(f == 2'd1) ? b[31] : 1'b0, b};
      high <= f != 2'd0;
      cnt <= 2'd2;
    end else if (cnt != 2'd0) begin
      prod <= ma * mb;
      cnt <= cnt - 2'd1;
    end
  end
  assign done = cnt == 2'd0;
  assign y = high ? prod[63:32] : prod[31:0];
endmodule
