// weft_decode.sv -- the weft core's instruction decoder: the instruction classes the core
// acts on and the ALU operation, decoded from the fetched word (the core's ir) in its decode
// cycle and registered (`load`), so that every later state of the core starts from
// flip-flops rather than from decoding logic (and the fetch's data, which arrives late from a
// block RAM, goes only into ir). RV32IMA, the SIMT instructions converge and diverge, and the
// encodings weft defines but this RTL does not build (is_unsup).
module weft_decode (
    input  logic        clk,
    input  logic        load,
    input  logic [31:0] w,
    output logic        is_lui,
    output logic        is_auipc,
    output logic        is_jal,
    output logic        is_jalr,
    output logic        is_br,
    output logic        is_load,
    output logic        is_store,
    output logic        is_op,
    output logic        is_mul,
    output logic        is_div,
    output logic        is_csr,
    output logic        is_ecall,
    output logic        is_ebreak,
    output logic        is_mret,
    output logic        is_conv,
    output logic        is_divg,
    output logic        is_lr,
    output logic        is_sc,
    output logic        is_amo,
    output logic        is_atom,
    output logic        is_unsup,
    output logic        known,
    output logic        writes_rd,
    output logic        is_ret,
    output logic [3:0]  alu_op
);
  wire [6:0] opc = w[6:0];
  wire [4:0] rd = w[11:7], rs1 = w[19:15], rs2 = w[24:20];
  wire [2:0] f3 = w[14:12];
  wire [6:0] f7 = w[31:25];
  wire [4:0] f5 = w[31:27];
  wire is_lui_n = opc == 7'h37, is_auipc_n = opc == 7'h17, is_jal_n = opc == 7'h6f;
  wire is_jalr_n = opc == 7'h67 && f3 == 3'd0;
  wire is_br_n = opc == 7'h63 && f3 != 3'd2 && f3 != 3'd3;
  wire is_load_n = opc == 7'h03 &&
                   (f3 == 3'd0 || f3 == 3'd1 || f3 == 3'd2 || f3 == 3'd4 || f3 == 3'd5);
  wire is_store_n = opc == 7'h23 && (f3 == 3'd0 || f3 == 3'd1 || f3 == 3'd2);
  wire shift_i = f3 == 3'd1 || f3 == 3'd5;
  wire is_opimm_n = opc == 7'h13 && (!shift_i || f7 == 7'h00 || (f3 == 3'd5 && f7 == 7'h20));
  wire is_op_n = opc == 7'h33 &&
                 (f7 == 7'h00 || f7 == 7'h01 || (f7 == 7'h20 && (f3 == 3'd0 || f3 == 3'd5)));
  wire is_mul_n = is_op_n && f7 == 7'h01 && !f3[2];
  wire is_div_n = is_op_n && f7 == 7'h01 && f3[2];
  wire is_fence_n = opc == 7'h0f && (f3 == 3'd0 || f3 == 3'd1);
  wire is_sys_n = opc == 7'h73;
  wire is_csr_n = is_sys_n && f3 != 3'd0 && f3 != 3'd4;
  wire is_ecall_n = is_sys_n && w == 32'h0000_0073;
  wire is_ebreak_n = is_sys_n && w == 32'h0010_0073;
  wire is_mret_n = is_sys_n && w == 32'h3020_0073;
  wire is_wfi_n = is_sys_n && w == 32'h1050_0073;
  wire is_conv_n = opc == 7'h5b && f3 == 3'd0 && rs1 == 5'd0 && rs2 == 5'd0;
  wire is_divg_n = opc == 7'h5b && f3 == 3'd1 && rs2 == 5'd0;
  // RV32A: lr.w, sc.w and the nine AMOs (aq/rl ignored: memory is sequentially consistent)
  wire is_aw_n = opc == 7'h2f && f3 == 3'd2;
  wire is_lr_n = is_aw_n && f5 == 5'b00010 && rs2 == 5'd0;
  wire is_sc_n = is_aw_n && f5 == 5'b00011;
  wire is_amo_n = is_aw_n && (f5 == 5'b00001 || f5 == 5'b00000 || f5 == 5'b00100 ||
                              f5 == 5'b01100 || f5 == 5'b01000 || f5 == 5'b10000 ||
                              f5 == 5'b10100 || f5 == 5'b11000 || f5 == 5'b11100);
  wire is_atom_n = is_lr_n || is_sc_n || is_amo_n;
  // Encodings weft defines that this RTL leaves out: F, Vortex, compressed.
  wire is_unsup_n = opc == 7'h07 || opc == 7'h27 || opc == 7'h43 || opc == 7'h47 ||
                    opc == 7'h4b || opc == 7'h4f || opc == 7'h53 || opc == 7'h0b;
  wire known_n = is_lui_n || is_auipc_n || is_jal_n || is_jalr_n || is_br_n || is_load_n ||
                 is_store_n || is_opimm_n || is_op_n || is_fence_n || is_csr_n || is_ecall_n ||
                 is_ebreak_n || is_mret_n || is_wfi_n || is_conv_n || is_divg_n || is_atom_n;
  wire writes_rd_n = rd != 5'd0 && (is_lui_n || is_auipc_n || is_jal_n || is_jalr_n ||
                                    is_load_n || is_opimm_n || is_op_n || is_csr_n || is_atom_n);
  wire is_ret_n = is_jalr_n && rd == 5'd0 && (rs1 == 5'd1 || rs1 == 5'd5);

  // ALU op
  logic [3:0] alu_op_n;
  always_comb begin
    alu_op_n = 4'd0;
    if (is_lui_n) alu_op_n = 4'd15;
    else if (is_op_n || is_opimm_n) begin
      case (f3)
        3'd0: alu_op_n = (is_op_n && f7[5]) ? 4'd1 : 4'd0;
        3'd1: alu_op_n = 4'd2;
        3'd2: alu_op_n = 4'd3;
        3'd3: alu_op_n = 4'd4;
        3'd4: alu_op_n = 4'd5;
        3'd5: alu_op_n = f7[5] ? 4'd7 : 4'd6;
        3'd6: alu_op_n = 4'd8;
        default: alu_op_n = 4'd9;
      endcase
    end
  end

  always_ff @(posedge clk) begin
    if (load) begin
      is_lui <= is_lui_n;
      is_auipc <= is_auipc_n;
      is_jal <= is_jal_n;
      is_jalr <= is_jalr_n;
      is_br <= is_br_n;
      is_load <= is_load_n;
      is_store <= is_store_n;
      is_op <= is_op_n;
      is_mul <= is_mul_n;
      is_div <= is_div_n;
      is_csr <= is_csr_n;
      is_ecall <= is_ecall_n;
      is_ebreak <= is_ebreak_n;
      is_mret <= is_mret_n;
      is_conv <= is_conv_n;
      is_divg <= is_divg_n;
      is_lr <= is_lr_n;
      is_sc <= is_sc_n;
      is_amo <= is_amo_n;
      is_atom <= is_atom_n;
      is_unsup <= is_unsup_n;
      known <= known_n;
      writes_rd <= writes_rd_n;
      is_ret <= is_ret_n;
      alu_op <= alu_op_n;
    end
  end
endmodule
