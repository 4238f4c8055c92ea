// weft_decode.sv -- the weft core's instruction decoder: the instruction classes the core
// acts on, the ALU operation and the FPU operation, decoded from the instruction register
// (the core's ir, a compressed instruction already expanded by weft_rvc.sv) in its decode
// cycle and registered (`load`), so that every later state of the core starts from
// flip-flops rather than from decoding logic (and the fetch's data, which arrives late from a
// block RAM, goes only into ir). RV32IMAF, Zicsr, the SIMT instructions converge and diverge,
// and Vortex's tmc, wspawn, split, join, bar, pred, wsync, vote.* and shfl.*; the Vortex
// encodings this RTL does not build (bar.arrive/bar.wait, packlb.f, packlh.f, wgather) are
// `is_unsup`. A word the instruction table does not have (or a float instruction with the
// reserved rounding mode 5 or 6, or a compressed halfword the table rejects: `bad`) is not
// `known`: the core traps it as the model's fetch refuses it.
//
// The register-file bits of rs1 and rs2 (f1, f2: integer or float file) are decoded without a
// register too: the core addresses its register files with them in the decode cycle.
module weft_decode (
    input  logic        clk,
    input  logic        load,
    input  logic [31:0] w,
    input  logic        bad,         // a reserved compressed encoding (weft_rvc's ill)
    output logic        f1,          // rs1 reads the float file (now, not registered)
    output logic        f2,          // rs2 reads the float file (now)
    output logic        is_lui,
    output logic        is_auipc,
    output logic        is_jal,
    output logic        is_jalr,
    output logic        is_br,
    output logic        is_load,     // lb .. lhu, flw
    output logic        is_store,    // sb, sh, sw, fsw
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
    output logic        is_fp,       // an FPU operation (fop)
    output logic        is_fmem,     // flw, fsw
    output logic        fp_rm,       // it has a rounding mode (static, or dynamic: frm)
    output logic        rd_f,        // rd is a float register
    output logic [4:0]  fop,
    output logic        is_tmc,
    output logic        is_wspawn,
    output logic        is_split,
    output logic        is_join,
    output logic        is_bar,
    output logic        is_pred,
    output logic        is_vote,
    output logic        is_shfl,
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
  wire is_iload_n = opc == 7'h03 &&
                    (f3 == 3'd0 || f3 == 3'd1 || f3 == 3'd2 || f3 == 3'd4 || f3 == 3'd5);
  wire is_istore_n = opc == 7'h23 && (f3 == 3'd0 || f3 == 3'd1 || f3 == 3'd2);
  wire is_flw_n = opc == 7'h07 && f3 == 3'd2;
  wire is_fsw_n = opc == 7'h27 && f3 == 3'd2;
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

  // ---- RV32F (crates/isa/src/table.rs): the FPU operation, files, rounding mode ----------
  // (weft_fpu.sv's FADD .. FCVTSWU)
  wire rm_ok = f3 != 3'd5 && f3 != 3'd6;            // 5, 6 are reserved (7: frm)
  wire is_fma_n = (opc == 7'h43 || opc == 7'h47 || opc == 7'h4b || opc == 7'h4f) &&
                  w[26:25] == 2'b00;
  wire ofp = opc == 7'h53;
  logic       fp_n, fprm_n, rdf_n;
  logic [4:0] fop_n;
  always_comb begin
    fp_n = 1'b1;
    fprm_n = 1'b0;
    rdf_n = 1'b1;
    fop_n = 5'd0;
    if (is_fma_n) begin
      fprm_n = 1'b1;
      fop_n = 5'd5 + 5'(opc[3:2]);                  // fmadd, fmsub, fnmsub, fnmadd
    end else if (!ofp) fp_n = 1'b0;
    else
      case (f7)
        7'h00, 7'h04, 7'h08, 7'h0c: begin fprm_n = 1'b1; fop_n = 5'(f7[3:2]); end
        7'h2c: begin fprm_n = 1'b1; fop_n = 5'd4; fp_n = rs2 == 5'd0; end       // fsqrt
        7'h10: begin fop_n = 5'd9 + 5'(f3[1:0]); fp_n = f3 <= 3'd2; end         // fsgnj*
        7'h14: begin fop_n = 5'd12 + 5'(f3[0]); fp_n = f3 <= 3'd1; end          // fmin, fmax
        7'h50: begin                                                           // fle, flt, feq
          fop_n = (f3 == 3'd2) ? 5'd14 : (f3 == 3'd1) ? 5'd15 : 5'd16;
          fp_n = f3 <= 3'd2;
          rdf_n = 1'b0;
        end
        7'h60: begin                                                           // fcvt.w(u).s
          fprm_n = 1'b1;
          fop_n = 5'd19 + 5'(rs2[0]);
          fp_n = rs2 <= 5'd1;
          rdf_n = 1'b0;
        end
        7'h68: begin                                                           // fcvt.s.w(u)
          fprm_n = 1'b1;
          fop_n = 5'd21 + 5'(rs2[0]);
          fp_n = rs2 <= 5'd1;
        end
        7'h70: begin                                                           // fmv.x.w, fclass
          fop_n = f3[0] ? 5'd17 : 5'd18;
          fp_n = rs2 == 5'd0 && f3 <= 3'd1;
          rdf_n = 1'b0;
        end
        7'h78: begin fop_n = 5'd18; fp_n = rs2 == 5'd0 && f3 == 3'd0; end       // fmv.w.x
        default: fp_n = 1'b0;
      endcase
  end
  wire fp_ok_n = fp_n && (!fprm_n || rm_ok);
  // the float file: rs1 of every float operation but the integer -> float ones; rs2 of
  // every float operation and of fsw
  assign f1 = is_fma_n || (ofp && f7 != 7'h68 && f7 != 7'h78);
  assign f2 = is_fma_n || ofp || opc == 7'h27;

  // ---- Vortex (custom-0, R-type; vortex-compat.md) -----------------------------------------
  wire vx0 = opc == 7'h0b && f7 == 7'h00;
  wire vx1 = opc == 7'h0b && f7 == 7'h01;
  wire is_tmc_n = vx0 && f3 == 3'd0 && rd == 5'd0 && rs2 == 5'd0;
  wire is_wspawn_n = vx0 && f3 == 3'd1 && rd == 5'd0;
  wire is_split_n = vx0 && f3 == 3'd2;
  wire is_join_n = vx0 && f3 == 3'd3 && rd == 5'd0 && rs2 == 5'd0;
  wire is_bar_n = vx0 && f3 == 3'd4 && rd == 5'd0;
  wire is_pred_n = vx0 && f3 == 3'd5;
  wire is_wsync_n = vx0 && f3 == 3'd7 && rd == 5'd0 && rs1 == 5'd0 && rs2 == 5'd0;
  wire is_vote_n = vx1 && !f3[2];
  wire is_shfl_n = vx1 && f3[2];
  // encodings weft defines that this RTL leaves out: bar.arrive/bar.wait, packlb.f,
  // packlh.f, wgather
  wire is_unsup_n = (vx0 && f3 == 3'd6) ||
                    (opc == 7'h0b && f7 == 7'h04 && (f3 == 3'd1 || f3 == 3'd2)) ||
                    (opc == 7'h2b && f3 == 3'd0);

  wire known_n = !bad && (is_lui_n || is_auipc_n || is_jal_n || is_jalr_n || is_br_n ||
                 is_iload_n || is_istore_n || is_opimm_n || is_op_n || is_fence_n ||
                 is_csr_n || is_ecall_n || is_ebreak_n || is_mret_n || is_wfi_n ||
                 is_conv_n || is_divg_n || is_atom_n || is_flw_n || is_fsw_n || fp_ok_n ||
                 is_tmc_n || is_wspawn_n || is_split_n || is_join_n || is_bar_n ||
                 is_pred_n || is_wsync_n || is_vote_n || is_shfl_n || is_unsup_n);
  wire rdf_any = is_flw_n || (fp_ok_n && rdf_n);    // rd is a float register
  wire writes_rd_n = rdf_any || (rd != 5'd0 && (is_lui_n || is_auipc_n || is_jal_n ||
                     is_jalr_n || is_iload_n || is_opimm_n || is_op_n || is_csr_n ||
                     is_atom_n || fp_ok_n || is_split_n || is_vote_n || is_shfl_n));
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
      is_load <= is_iload_n || is_flw_n;
      is_store <= is_istore_n || is_fsw_n;
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
      is_fp <= fp_ok_n;
      is_fmem <= is_flw_n || is_fsw_n;
      fp_rm <= fprm_n;
      rd_f <= rdf_any;
      fop <= fop_n;
      is_tmc <= is_tmc_n;
      is_wspawn <= is_wspawn_n;
      is_split <= is_split_n;
      is_join <= is_join_n;
      is_bar <= is_bar_n;
      is_pred <= is_pred_n;
      is_vote <= is_vote_n;
      is_shfl <= is_shfl_n;
      is_unsup <= is_unsup_n;
      known <= known_n;
      writes_rd <= writes_rd_n;
      is_ret <= is_ret_n;
      alu_op <= alu_op_n;
    end
  end
endmodule
