// weft_rvc.sv -- the decompressor: a 16-bit RV32C/RV32FC instruction expanded into the 32-bit
// instruction it stands for (crates/isa/src/compressed.rs's table: c.addi -> addi, c.flw ->
// flw, ...), combinational. `ill` marks what the table rejects: the all-zero halfword,
// c.addi4spn, c.addi16sp and c.lui with a zero immediate, c.lwsp with rd = x0, c.jr with
// rs1 = x0, shift amounts with bit 5 set, RV64/RV128 and D encodings (c.ld, c.fld, c.subw,
// ...); HINTs (rd = x0, a zero immediate or shift amount) expand to the base instruction,
// which does nothing. The core expands in its decode step (weft_core.sv: a compressed
// instruction takes one cycle more there) and executes the expansion; the instruction's
// length (2) is the core's.
module weft_rvc (
    input  logic [15:0] h,
    output logic [31:0] w,
    output logic        ill
);
  // 32-bit encodings
  function automatic logic [31:0] enc_i(input logic [11:0] imm, input logic [4:0] rs1,
                                        input logic [2:0] f3, input logic [4:0] rd,
                                        input logic [6:0] opc);
    enc_i = {imm, rs1, f3, rd, opc};
  endfunction
  function automatic logic [31:0] enc_s(input logic [11:0] imm, input logic [4:0] rs2,
                                        input logic [4:0] rs1, input logic [2:0] f3,
                                        input logic [6:0] opc);
    enc_s = {imm[11:5], rs2, rs1, f3, imm[4:0], opc};
  endfunction
  function automatic logic [31:0] enc_r(input logic [6:0] f7, input logic [4:0] rs2,
                                        input logic [4:0] rs1, input logic [2:0] f3,
                                        input logic [4:0] rd);
    enc_r = {f7, rs2, rs1, f3, rd, 7'h33};
  endfunction
  // (branch and jump offsets are even: bit 0 is left out)
  function automatic logic [31:0] enc_b(input logic [12:1] off, input logic [4:0] rs1,
                                        input logic [2:0] f3);
    enc_b = {off[12], off[10:5], 5'd0, rs1, f3, off[4:1], off[11], 7'h63};
  endfunction
  function automatic logic [31:0] enc_j(input logic [20:1] off, input logic [4:0] rd);
    enc_j = {off[20], off[10:1], off[11], off[19:12], rd, 7'h6f};
  endfunction

  wire [2:0]  f3 = h[15:13];
  wire [4:0]  rd = h[11:7];               // also rs1 of the two-operand forms
  wire [4:0]  rs2 = h[6:2];
  wire [4:0]  rdp = {2'b01, h[4:2]};      // x8..x15 in bits 4:2
  wire [4:0]  rs1p = {2'b01, h[9:7]};     // x8..x15 in bits 9:7
  wire [11:0] ci = {{7{h[12]}}, h[6:2]};                                     // c.addi, c.li, c.andi
  wire [11:0] spn = {2'b00, h[10:7], h[12:11], h[5], h[6], 2'b00};           // c.addi4spn
  wire [11:0] wofs = {5'd0, h[5], h[12:10], h[6], 2'b00};                   // c.lw, c.sw
  wire [11:0] lsp = {4'd0, h[3:2], h[12], h[6:4], 2'b00};                   // c.lwsp
  wire [11:0] ssp = {4'd0, h[8:7], h[12:9], 2'b00};                         // c.swsp
  wire [11:0] sp16 = {{3{h[12]}}, h[4:3], h[5], h[2], h[6], 4'd0};          // c.addi16sp
  wire [20:1] jofs = {{10{h[12]}}, h[8], h[10:9], h[6], h[7], h[2], h[11], h[5:3]};
  wire [12:1] bofs = {{5{h[12]}}, h[6:5], h[2], h[11:10], h[4:3]};

  always_comb begin
    w = 32'd0;
    ill = 1'b0;
    case ({h[1:0], f3})
      // ---- quadrant 0 ----
      5'b00_000: begin ill = spn == '0; w = enc_i(spn, 5'd2, 3'd0, rdp, 7'h13); end  // c.addi4spn
      5'b00_010: w = enc_i(wofs, rs1p, 3'd2, rdp, 7'h03);                            // c.lw
      5'b00_011: w = enc_i(wofs, rs1p, 3'd2, rdp, 7'h07);                            // c.flw
      5'b00_110: w = enc_s(wofs, rdp, rs1p, 3'd2, 7'h23);                            // c.sw
      5'b00_111: w = enc_s(wofs, rdp, rs1p, 3'd2, 7'h27);                            // c.fsw
      // ---- quadrant 1 ----
      5'b01_000: w = enc_i(ci, rd, 3'd0, rd, 7'h13);                                 // c.addi, c.nop
      5'b01_001: w = enc_j(jofs, 5'd1);                                              // c.jal
      5'b01_010: w = enc_i(ci, 5'd0, 3'd0, rd, 7'h13);                               // c.li
      5'b01_011:
        if (rd == 5'd2) begin                                                        // c.addi16sp
          ill = sp16 == '0;
          w = enc_i(sp16, 5'd2, 3'd0, 5'd2, 7'h13);
        end else begin                                                               // c.lui
          ill = {h[12], h[6:2]} == '0;
          w = {{15{h[12]}}, h[6:2], rd, 7'h37};
        end
      5'b01_100:
        case (h[11:10])
          2'b00: begin ill = h[12]; w = {7'h00, h[6:2], rs1p, 3'd5, rs1p, 7'h13}; end  // c.srli
          2'b01: begin ill = h[12]; w = {7'h20, h[6:2], rs1p, 3'd5, rs1p, 7'h13}; end  // c.srai
          2'b10: w = enc_i(ci, rs1p, 3'd7, rs1p, 7'h13);                               // c.andi
          default: begin
            ill = h[12];                                                               // (RV64)
            case (h[6:5])
              2'b00: w = enc_r(7'h20, rdp, rs1p, 3'd0, rs1p);                          // c.sub
              2'b01: w = enc_r(7'h00, rdp, rs1p, 3'd4, rs1p);                          // c.xor
              2'b10: w = enc_r(7'h00, rdp, rs1p, 3'd6, rs1p);                          // c.or
              default: w = enc_r(7'h00, rdp, rs1p, 3'd7, rs1p);                        // c.and
            endcase
          end
        endcase
      5'b01_101: w = enc_j(jofs, 5'd0);                                              // c.j
      5'b01_110: w = enc_b(bofs, rs1p, 3'd0);                                        // c.beqz
      5'b01_111: w = enc_b(bofs, rs1p, 3'd1);                                        // c.bnez
      // ---- quadrant 2 ----
      5'b10_000: begin ill = h[12]; w = {7'h00, h[6:2], rd, 3'd1, rd, 7'h13}; end    // c.slli
      5'b10_010: begin ill = rd == '0; w = enc_i(lsp, 5'd2, 3'd2, rd, 7'h03); end    // c.lwsp
      5'b10_011: w = enc_i(lsp, 5'd2, 3'd2, rd, 7'h07);                              // c.flwsp
      5'b10_100:
        if (!h[12]) begin
          if (rs2 == '0) begin ill = rd == '0; w = enc_i(12'd0, rd, 3'd0, 5'd0, 7'h67); end  // c.jr
          else w = enc_r(7'h00, rs2, 5'd0, 3'd0, rd);                                       // c.mv
        end else if (rs2 == '0) begin
          if (rd == '0) w = 32'h0010_0073;                                                  // c.ebreak
          else w = enc_i(12'd0, rd, 3'd0, 5'd1, 7'h67);                                     // c.jalr
        end else w = enc_r(7'h00, rs2, rd, 3'd0, rd);                                       // c.add
      5'b10_110: w = enc_s(ssp, rs2, 5'd2, 3'd2, 7'h23);                             // c.swsp
      5'b10_111: w = enc_s(ssp, rs2, 5'd2, 3'd2, 7'h27);                             // c.fswsp
      default: ill = 1'b1;   // c.fld, c.fsd, c.fldsp, c.fsdsp, reserved; (11: not compressed)
    endcase
  end
endmodule
