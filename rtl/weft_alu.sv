// weft_alu.sv -- one lane's integer datapath for the weft SIMT core: the RV32I ALU
// operations. Multiplies are registered, in weft_mul.sv; division is iterative, in
// weft_div.sv. Purely combinational; the core instantiates one per lane and chooses the
// operands (register, pc or immediate).
module weft_alu (
    input  logic [3:0]  op,   // see the ALU_* codes in weft_core.sv
    input  logic [31:0] a,
    input  logic [31:0] b,
    output logic [31:0] y
);
  always_comb begin
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
      default: y = b;                                    // pass b (lui)
    endcase
  end
endmodule
