// weft_alu.sv -- one lane's integer datapath for the weft SIMT core: the RV32I ALU
// operations and the RV32M multiplies (one 33x33 signed product per lane, mapped to DSPs on
// the ECP5). Division is iterative, in weft_div.sv. Purely combinational; the core
// instantiates one per lane and chooses the operands (register, pc or immediate).
module weft_alu (
    input  logic [3:0]  op,   // see the ALU_* codes in weft_core.sv
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic [31:0] y
);
  logic signed [32:0] ma, mb;
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [65:0] prod;  // bits 65:64 only repeat the sign
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    // mulh: both signed; mulhsu: a signed, b unsigned; mulhu: both unsigned.
    ma = {(op == 4'd11 || op == 4'd12) ? a[31] : 1'b0, a};
    mb = {(op == 4'd11) ? b[31] : 1'b0, b};
    prod = ma * mb;
    case (op)
      4'd0:  y = a + b;                                  // add
      4'd1:  y = a - b;                                  // sub
      4'd2:  y = a << b[4:0];                            // sll
      4'd3:  y = {31'd0, $signed(a) < $signed(b)};       // slt
      4'd4:  y = {31'd0, a < b};                         // sltu
      4'd5:  y = a ^ b;                                  // xor
      4'd6:  y = a >> b[4:0];                            // srl
      4'd7:  y = $unsigned($signed(a) >>> b[4:0]);       // sra
      4'd8:  y = a | b;                                  // or
      4'd9:  y = a & b;                                  // and
      4'd10: y = prod[31:0];                             // mul
      4'd11: y = prod[63:32];                            // mulh
      4'd12: y = prod[63:32];                            // mulhsu
      4'd13: y = prod[63:32];                            // mulhu
      default: y = b;                                    // pass b (lui)
    endcase
  end
endmodule
