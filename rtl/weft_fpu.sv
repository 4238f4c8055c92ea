// weft_fpu.sv -- the core's floating-point unit: RV32F single precision, bit for bit as
// crates/sem/src/fpu defines it (every rounding mode, the canonical NaN 0x7fc0_0000 for every
// NaN result, tininess after rounding, no flush of subnormals, the five exception flags).
// With FLEN = 32 there is no NaN boxing: every 32-bit pattern is a value.
//
// One unit per core, shared by the lanes: the core feeds it one lane per cycle (`in_v`, the
// lane in `in_tag`) and takes each lane's result and flags `LAT` cycles later (`out_v`,
// `out_tag`). A pipeline of nine registered steps:
//   0 the operands (add/sub are a * 1.0 + b; mul has no addend), the op, the rounding mode;
//   1 unpack: classes, subnormals normalised (24-bit significands with the hidden bit at
//     bit 23, unbounded exponents), the results that need no arithmetic (NaN, infinities,
//     the sign-injection, min/max, compare, class and move ops) decided;
//   1b the product's exponent and the addend's shift against it;
//   2 the significands' product (DSPs) and the addend aligned against it (a sticky bit for
//     what falls below the 76-bit window); float -> integer: the shift and its round bits;
//   3 the exact sum or difference in the window (its sign); integer -> float enters here as
//     the integer's magnitude, and so do the divider's quotient and root (weft_fdiv.sv);
//   4 leading zeros of the sum;  5 normalised (most significant bit at bit 75), the
//     exponent and the subnormal shift;
//   6 the rounding position: the 24 bits, guard and sticky (fewer for a subnormal result);
//   7 rounded per the mode, overflow and tininess decided, packed; the output register.
// fdiv and fsqrt go from step 1 into the iterative unit (27 or 28 cycles per lane) and come
// back at step 3; `ready` is low while one is in flight, so the core feeds the next lane
// after it. Step numbers name the registers each step writes.
module weft_fpu #(
    parameter int TW = 3          // tag bits (the lane)
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          in_v,
    input  logic [4:0]    in_op,  // FOP_* below
    input  logic [2:0]    in_rm,  // a resolved rounding mode, 0..4
    input  logic [31:0]   in_a,
    input  logic [31:0]   in_b,
    input  logic [31:0]   in_c,
    input  logic [TW-1:0] in_tag,
    output logic          ready,  // in_v is taken this cycle (no fdiv/fsqrt in flight)
    output logic          out_v,
    output logic [TW-1:0] out_tag,
    output logic [31:0]   out_y,
    output logic [4:0]    out_fl  // fflags: NV DZ OF UF NX
);
  // operations (weft_decode.sv's fop)
  localparam logic [4:0] FADD = 5'd0, FSUB = 5'd1, FMUL = 5'd2, FDIV = 5'd3, FSQRT = 5'd4,
      FMADD = 5'd5, FMSUB = 5'd6, FNMSUB = 5'd7, FNMADD = 5'd8, FSGNJ = 5'd9, FSGNJN = 5'd10,
      FSGNJX = 5'd11, FMIN = 5'd12, FMAX = 5'd13, FEQ = 5'd14, FLT = 5'd15, FLE = 5'd16,
      FCLASS = 5'd17, FMV = 5'd18, FCVTWS = 5'd19, FCVTWUS = 5'd20, FCVTSW = 5'd21,
      FCVTSWU = 5'd22;
  localparam logic [2:0] RNE = 3'd0, RTZ = 3'd1, RDN = 3'd2, RUP = 3'd3, RMM = 3'd4;
  localparam logic [31:0] QNAN = 32'h7fc0_0000;
  localparam logic [4:0] NV = 5'h10, DZ = 5'h08, OF = 5'h04, UF = 5'h02, NX = 5'h01;

  // whether a value at the rounding position rounds away from zero: lsb, guard, sticky
  function automatic logic round_up(input logic [2:0] rm, input logic neg, input logic lsb,
                                    input logic g, input logic st);
    case (rm)
      RNE: round_up = g && (st || lsb);
      RDN: round_up = neg && (g || st);
      RUP: round_up = !neg && (g || st);
      RMM: round_up = g;
      default: round_up = 1'b0;   // RTZ
    endcase
  endfunction

  // leading zeros of a 24-bit value (24 for zero)
  function automatic logic [4:0] lzc24(input logic [23:0] x);
    lzc24 = 5'd24;
    for (int i = 0; i < 24; i++) if (x[i]) lzc24 = 5'(23 - i);
  endfunction

  // ---- step 0: the operands ----------------------------------------------------------------
  logic          v0;
  logic [4:0]    op0;
  logic [2:0]    rm0;
  logic [31:0]   x0, y0, z0;          // multiplicands and addend (a, b / 1.0, c / b)
  logic          negp0, negz0, noadd0;
  logic [TW-1:0] tag0;
  wire in_add = in_op == FADD || in_op == FSUB;
  logic          dv_busy;             // an fdiv/fsqrt is in flight (steps 0, 1, the divider)
  assign ready = !dv_busy;
  always_ff @(posedge clk) begin
    v0 <= in_v && ready;
    op0 <= in_op;
    rm0 <= in_rm;
    x0 <= in_a;
    y0 <= in_add ? 32'h3f80_0000 : in_b;
    z0 <= in_add ? in_b : in_c;
    negp0 <= in_op == FNMSUB || in_op == FNMADD;
    negz0 <= in_op == FSUB || in_op == FMSUB || in_op == FNMADD;
    noadd0 <= in_op == FMUL;
    tag0 <= in_tag;
  end

  // ---- step 1: unpack ------------------------------------------------------------------------
  // per operand: sign, class, the significand normalised to bit 23 and its exponent (that of
  // bit 23: value = m * 2^(e - 23)); zero has m = 0
  logic        xs, ys, zs, xz, yz, zz, xi, yi, zi, xn, yn, zn, xsn, ysn, zsn;
  logic [23:0] xm, ym, zm;
  logic signed [11:0] xe, ye, ze;
  always_comb begin
    logic [4:0] l;
    {xs, ys, zs} = {x0[31], y0[31] ^ negp0, z0[31] ^ negz0};
    xz = x0[30:0] == '0;
    yz = y0[30:0] == '0;
    zz = z0[30:0] == '0;
    xi = x0[30:23] == 8'hff && x0[22:0] == '0;
    yi = y0[30:23] == 8'hff && y0[22:0] == '0;
    zi = z0[30:23] == 8'hff && z0[22:0] == '0;
    xn = x0[30:23] == 8'hff && x0[22:0] != '0;
    yn = y0[30:23] == 8'hff && y0[22:0] != '0;
    zn = z0[30:23] == 8'hff && z0[22:0] != '0;
    xsn = xn && !x0[22];
    ysn = yn && !y0[22];
    zsn = zn && !z0[22];
    l = lzc24({x0[30:23] != '0, x0[22:0]});
    xm = {x0[30:23] != '0, x0[22:0]} << l;
    xe = (x0[30:23] == '0 ? -12'sd126 : 12'($signed({4'd0, x0[30:23]})) - 12'sd127) - 12'(l);
    l = lzc24({y0[30:23] != '0, y0[22:0]});
    ym = {y0[30:23] != '0, y0[22:0]} << l;
    ye = (y0[30:23] == '0 ? -12'sd126 : 12'($signed({4'd0, y0[30:23]})) - 12'sd127) - 12'(l);
    l = lzc24({z0[30:23] != '0, z0[22:0]});
    zm = {z0[30:23] != '0, z0[22:0]} << l;
    ze = (z0[30:23] == '0 ? -12'sd126 : 12'($signed({4'd0, z0[30:23]})) - 12'sd127) - 12'(l);
  end
  // results without arithmetic: the bypass (bp), its value and flags
  logic        bp_c;
  logic [31:0] bpy_c;
  logic [4:0]  bpf_c;
  wire sp_c = xs ^ ys;                                 // the product's sign
  // comparisons of non-NaN a = x0 and b = y0 (sem's fpu/cmp.rs): -0 = +0
  wire both0 = xz && yz;
  wire mag_lt = x0[30:0] < y0[30:0];
  wire a_lt_b = !both0 && ((x0[31] && !y0[31]) || (!x0[31] && !y0[31] && mag_lt) ||
                           (x0[31] && y0[31] && y0[30:0] < x0[30:0]));
  wire a_eq_b = x0 == y0 || both0;
  // minimumNumber's order: -0 below +0
  wire key_lt = (x0[31] && !y0[31]) || (!x0[31] && !y0[31] && mag_lt) ||
                (x0[31] && y0[31] && y0[30:0] < x0[30:0]);
  always_comb begin
    bp_c = 1'b1;
    bpy_c = QNAN;
    bpf_c = '0;
    case (op0)
      FADD, FSUB, FMUL, FMADD, FMSUB, FNMSUB, FNMADD: begin
        // (add: y0 = 1.0; mul: no addend)
        if (xn || yn || (!noadd0 && zn)) begin
          bpf_c = (xsn || ysn || (!noadd0 && zsn) || (xi && yz) || (xz && yi)) ? NV : '0;
        end else if ((xi && yz) || (xz && yi)) bpf_c = NV;
        else if ((xi || yi) && !noadd0 && zi && sp_c != zs) bpf_c = NV;
        else if (xi || yi) bpy_c = {sp_c, 31'h7f80_0000};
        else if (!noadd0 && zi) bpy_c = {zs, 31'h7f80_0000};
        else bp_c = 1'b0;
      end
      FDIV: begin
        if (xn || yn) bpf_c = (xsn || ysn) ? NV : '0;
        else if ((xz && yz) || (xi && yi)) bpf_c = NV;
        else if (xi) bpy_c = {sp_c, 31'h7f80_0000};    // inf / finite, inf / 0: exact
        else if (yz) begin                            // finite nonzero / 0
          bpy_c = {sp_c, 31'h7f80_0000};
          bpf_c = DZ;
        end
        else if (yi || xz) bpy_c = {sp_c, 31'd0};
        else bp_c = 1'b0;
      end
      FSQRT: begin
        if (xn) bpf_c = xsn ? NV : '0;
        else if (xz) bpy_c = x0;                       // sqrt(-0) = -0
        else if (xs) bpf_c = NV;                       // negative, -inf included
        else if (xi) bpy_c = x0;
        else bp_c = 1'b0;
      end
      FSGNJ: bpy_c = {y0[31], x0[30:0]};
      FSGNJN: bpy_c = {!y0[31], x0[30:0]};
      FSGNJX: bpy_c = {x0[31] ^ y0[31], x0[30:0]};
      FMIN, FMAX: begin
        bpf_c = (xsn || ysn) ? NV : '0;
        if (xn && yn) bpy_c = QNAN;
        else if (xn) bpy_c = y0;
        else if (yn) bpy_c = x0;
        else bpy_c = (key_lt == (op0 == FMIN)) ? x0 : y0;
        if (!xn && !yn && x0 == y0) bpy_c = x0;
      end
      FEQ: begin
        bpy_c = {31'd0, !xn && !yn && a_eq_b};
        bpf_c = (xsn || ysn) ? NV : '0;
      end
      FLT, FLE: begin
        bpy_c = {31'd0, !xn && !yn && (a_lt_b || (op0 == FLE && a_eq_b))};
        bpf_c = (xn || yn) ? NV : '0;
      end
      FCLASS: begin
        bpy_c = '0;
        if (xn) bpy_c[xsn ? 8 : 9] = 1'b1;
        else if (xi) bpy_c[x0[31] ? 0 : 7] = 1'b1;
        else if (xz) bpy_c[x0[31] ? 3 : 4] = 1'b1;
        else if (x0[30:23] == '0) bpy_c[x0[31] ? 2 : 5] = 1'b1;
        else bpy_c[x0[31] ? 1 : 6] = 1'b1;
      end
      FMV: bpy_c = x0;
      default: bp_c = 1'b0;   // the conversions: steps 2 and 3
    endcase
  end

  // the addend's alignment: its LSB sits k = ze - (xe + ye) + 23 places above the product's
  // LSB; the window puts the product's LSB at bit 1 and the addend, unshifted (k = 50), at
  // bits 74:51, so the right shift is 50 - k = 27 - ze + xe + ye. A negative shift means the
  // product lies wholly below the addend's guard bit: it counts only as a sticky bit, and
  // the window's exponent is then the addend's.
  logic          v1, bp1, noadd1, sp1, zs1, isdv1, dsq1, pz1, zz1;
  logic [4:0]    op1;
  logic [2:0]    rm1;
  logic [TW-1:0] tag1;
  logic [23:0]   xm1, ym1, zm1;
  logic signed [11:0] ze1, xe1, ye1;
  logic [31:0]   bpy1, x1;
  logic [4:0]    bpf1;
  always_ff @(posedge clk) begin
    v1 <= v0;
    op1 <= op0;
    rm1 <= rm0;
    tag1 <= tag0;
    bp1 <= bp_c;
    bpy1 <= bpy_c;
    bpf1 <= bpf_c;
    xm1 <= xm;
    ym1 <= ym;
    zm1 <= (noadd0 || zz) ? 24'd0 : zm;
    xe1 <= xe;
    ye1 <= ye;
    ze1 <= ze;
    sp1 <= sp_c;
    zs1 <= zs;
    noadd1 <= noadd0;
    pz1 <= xz || yz;
    zz1 <= zz;
    isdv1 <= v0 && !bp_c && (op0 == FDIV || op0 == FSQRT);
    dsq1 <= op0 == FSQRT;
    x1 <= x0;
  end

  // ---- step 1b: the product's exponent and the addend's alignment ---------------------------
  // (A zero product has no exponent to align with: the addend then stays unshifted too.)
  wire signed [11:0] ep_c = xe1 + ye1;
  wire signed [11:0] sh_c = 12'sd27 - ze1 + ep_c;
  wire psticky_c = !noadd1 && !zz1 && (sh_c < 12'sd0 || pz1);
  logic          v1b, bp1b, s1_psticky, noadd1b, sp1b, zs1b;
  logic [4:0]    op1b;
  logic [2:0]    rm1b;
  logic [TW-1:0] tag1b;
  logic [23:0]   xm1b, ym1b, zm1b;
  logic signed [11:0] ep1b, ze1b, xe1b;
  logic [6:0]    sh1b;
  logic [31:0]   bpy1b, x1b;
  logic [4:0]    bpf1b;
  always_ff @(posedge clk) begin
    v1b <= v1 && !isdv1;
    op1b <= op1;
    rm1b <= rm1;
    tag1b <= tag1;
    bp1b <= bp1;
    bpy1b <= bpy1;
    bpf1b <= bpf1;
    xm1b <= xm1;
    ym1b <= ym1;
    zm1b <= zm1;
    xe1b <= xe1;
    ze1b <= ze1;
    ep1b <= ep_c;
    sp1b <= sp1;
    zs1b <= zs1;
    noadd1b <= noadd1;
    s1_psticky <= psticky_c;
    sh1b <= psticky_c ? 7'd0 : (sh_c > 12'sd76) ? 7'd76 : 7'(sh_c);
    x1b <= x1;
  end

  // ---- the divider (fdiv, fsqrt): from step 1's operands back into step 3 (the sum's) -------------------
  logic          dv_done;
  logic [75:0]   dv_s;
  logic signed [11:0] dv_ew;
  weft_fdiv fdiv (
      .clk, .rst, .start(v1 && isdv1), .sqrt(dsq1), .xm(xm1), .ym(ym1), .xe(xe1), .ye(ye1),
      .done(dv_done), .s(dv_s), .ew(dv_ew));
  // metadata of the operation in the divider
  logic [2:0]    dv_rm;
  logic          dv_sign;
  logic [TW-1:0] dv_tag;
  always_ff @(posedge clk) begin
    if (rst) dv_busy <= 1'b0;
    else if (in_v && ready && (in_op == FDIV || in_op == FSQRT)) dv_busy <= 1'b1;
    else if (dv_done || (v1 && (op1 == FDIV || op1 == FSQRT) && !isdv1)) dv_busy <= 1'b0;
    if (v1 && isdv1) begin
      dv_rm <= rm1;
      dv_sign <= dsq1 ? 1'b0 : sp1;
      dv_tag <= tag1;
    end
  end

  // ---- step 2: the product and the aligned addend; float -> integer's shift ----------------
  logic [47:0] prod2;
  logic [75:0] al2;                   // the addend in the window (bit 0: sticky)
  wire  [75:0] al_full = {1'b0, zm1b, 51'd0} >> sh1b;
  // bits of zm1b shifted out below bit 0: those under position sh1b - 51
  logic        al_st;
  always_comb begin
    logic [23:0] lowm;
    lowm = '0;
    for (int i = 0; i < 24; i++) lowm[i] = 7'(i + 51) < sh1b;
    al_st = (zm1b & lowm) != '0;
  end
  // float -> integer (fcvt.w.s, fcvt.wu.s) of x: the integer part, guard and sticky
  logic [31:0] ci_mag;
  logic        ci_g, ci_st, ci_big;
  always_comb begin
    logic [4:0]  r;
    logic [49:0] t;
    ci_big = xe1b >= 12'sd32;
    // x = xm1b * 2^(xe1b - 23): shifted left (exact) from 2^23 up, else right by r = 23 - xe1b
    // (1 .. 26: from 26 on every bit is below the guard) out of a fixed point with 26
    // fraction bits
    r = (xe1b < -12'sd3) ? 5'd26 : 5'(12'sd23 - xe1b);
    t = {xm1b, 26'd0} >> r;
    if (xe1b >= 12'sd23) begin
      ci_mag = 32'(xm1b) << 5'(xe1b - 12'sd23);
      ci_g = 1'b0;
      ci_st = 1'b0;
    end else begin
      ci_mag = 32'(t[49:26]);
      ci_g = t[25];
      ci_st = t[24:0] != '0;
    end
  end
  logic          v2, bp2, s2_psticky, noadd2, sp2, zs2, ci_g2, ci_st2, ci_big2, xs2;
  logic [4:0]    op2;
  logic [2:0]    rm2;
  logic [TW-1:0] tag2;
  logic [31:0]   bpy2, ci_mag2, x2;
  logic [4:0]    bpf2;
  logic signed [11:0] ew2;
  always_ff @(posedge clk) begin
    v2 <= v1b;
    op2 <= op1b;
    rm2 <= rm1b;
    tag2 <= tag1b;
    bp2 <= bp1b;
    bpy2 <= bpy1b;
    bpf2 <= bpf1b;
    prod2 <= xm1b * ym1b;
    al2 <= {al_full[75:1], al_full[0] | al_st};
    s2_psticky <= s1_psticky;
    noadd2 <= noadd1b;
    sp2 <= sp1b;
    zs2 <= zs1b;
    ew2 <= s1_psticky ? ze1b - 12'sd74 : ep1b - 12'sd47;
    ci_mag2 <= ci_mag;
    ci_g2 <= ci_g;
    ci_st2 <= ci_st;
    ci_big2 <= ci_big;
    xs2 <= x1b[31];
    x2 <= x1b;
  end

  // ---- step 3: the exact sum in the window; float <-> integer ------------------------------
  wire [75:0] pw = s2_psticky ? {75'd0, prod2 != '0} : {27'd0, prod2, 1'b0};
  wire [76:0] d_pa = {1'b0, pw} - {1'b0, al2};
  wire [75:0] d_ap = al2 - pw;
  wire [75:0] s_add = pw + al2;
  // float -> integer: rounded, saturated (sem's fpu/cvt.rs)
  logic [31:0] cw_y;
  logic [4:0]  cw_f;
  always_comb begin
    logic [32:0] r;
    logic        inx, uns;
    uns = op2 == FCVTWUS;
    inx = ci_g2 || ci_st2;
    r = {1'b0, ci_mag2} + 33'(round_up(rm2, xs2, ci_mag2[0], ci_g2, ci_st2));
    cw_f = inx ? NX : '0;
    cw_y = xs2 ? -r[31:0] : r[31:0];
    if (x2[30:23] == 8'hff && x2[22:0] != '0) begin   // NaN: the largest value
      cw_y = uns ? 32'hffff_ffff : 32'h7fff_ffff;
      cw_f = NV;
    end else if (ci_big2) begin                       // |x| >= 2^32, or infinite
      cw_y = uns ? (xs2 ? 32'd0 : 32'hffff_ffff) : (xs2 ? 32'h8000_0000 : 32'h7fff_ffff);
      cw_f = NV;
    end else if (uns) begin
      if (!xs2 && r[32]) begin
        cw_y = 32'hffff_ffff;
        cw_f = NV;
      end else if (xs2 && r != '0) begin
        cw_y = 32'd0;
        cw_f = NV;
      end else if (xs2) cw_y = 32'd0;
    end else if (!xs2 && r > 33'h0_7fff_ffff) begin
      cw_y = 32'h7fff_ffff;
      cw_f = NV;
    end else if (xs2 && r > 33'h0_8000_0000) begin
      cw_y = 32'h8000_0000;
      cw_f = NV;
    end
  end
  logic          v3, bp3, sg3, noadd3, sp3, zs3;
  logic [2:0]    rm3;
  logic [TW-1:0] tag3;
  logic [75:0]   s3;
  logic signed [11:0] ew3;
  logic [31:0]   bpy3;
  logic [4:0]    bpf3;
  always_ff @(posedge clk) begin
    if (dv_done) begin
      // the divider's quotient or root comes back here (the pipeline is empty meanwhile)
      v3 <= 1'b1;
      bp3 <= 1'b0;
      rm3 <= dv_rm;
      tag3 <= dv_tag;
      s3 <= dv_s;
      ew3 <= dv_ew;
      sg3 <= dv_sign;
      noadd3 <= 1'b1;
      sp3 <= dv_sign;
    end else begin
      v3 <= v2;
      bp3 <= bp2 || op2 == FCVTWS || op2 == FCVTWUS;
      rm3 <= rm2;
      tag3 <= tag2;
      noadd3 <= noadd2;
      sp3 <= sp2;
      zs3 <= zs2;
      bpy3 <= (op2 == FCVTWS || op2 == FCVTWUS) ? cw_y : bpy2;
      bpf3 <= (op2 == FCVTWS || op2 == FCVTWUS) ? cw_f : bpf2;
      if (op2 == FCVTSW || op2 == FCVTSWU) begin
        // integer -> float: the magnitude at bits 31:0 (bit 0 weighs 1)
        sg3 <= op2 == FCVTSW && x2[31];
        s3 <= {44'd0, (op2 == FCVTSW && x2[31]) ? -x2 : x2};
        ew3 <= 12'sd0;
        noadd3 <= 1'b1;
        sp3 <= 1'b0;
      end else if (noadd2 || sp2 == zs2) begin
        s3 <= noadd2 ? pw : s_add;
        sg3 <= sp2;
        ew3 <= ew2;
      end else if (d_pa[76]) begin
        s3 <= d_ap;
        sg3 <= zs2;
        ew3 <= ew2;
      end else begin
        s3 <= d_pa[75:0];
        sg3 <= sp2;
        ew3 <= ew2;
      end
    end
  end

  // ---- step 4: leading zeros (a tree: eight-bit groups, then the first non-zero group) -----
  logic [6:0] lz_c;
  always_comb begin
    logic [79:0] p;
    logic [2:0]  gl [10];
    logic [9:0]  gnz;
    p = {s3, 4'd0};
    for (int g = 0; g < 10; g++) begin
      logic [7:0] b;
      b = p[79 - 8 * g -: 8];
      gnz[g] = b != '0;
      gl[g] = 3'd7;
      for (int i = 0; i < 8; i++) if (b[i]) gl[g] = 3'(7 - i);
    end
    lz_c = 7'd76;
    for (int g = 9; g >= 0; g--) if (gnz[g]) lz_c = 7'(8 * g) + 7'(gl[g]);
  end
  logic          v4, bp4, sg4, noadd4, sp4, zs4;
  logic [2:0]    rm4;
  logic [TW-1:0] tag4;
  logic [75:0]   s4;
  logic [6:0]    lz4;
  logic signed [11:0] ew4;
  logic [31:0]   bpy4;
  logic [4:0]    bpf4;
  always_ff @(posedge clk) begin
    v4 <= v3;
    bp4 <= bp3;
    sg4 <= sg3;
    noadd4 <= noadd3;
    sp4 <= sp3;
    zs4 <= zs3;
    rm4 <= rm3;
    tag4 <= tag3;
    s4 <= s3;
    lz4 <= lz_c;
    ew4 <= ew3;
    bpy4 <= bpy3;
    bpf4 <= bpf3;
  end

  // ---- step 5: normalise; an exact zero's sign (sem: -0 only from -0 + -0, or RDN) ----------
  // The result's exponent er = ew + 75 - lz, and from it (each with an adder of its own, from
  // the registers of step 4) what step 6 needs: a subnormal result is shifted right by
  // d = -126 - er (clamped to 0 .. 76), which puts the rounding position at bit 52 + d of the
  // normalised sum: its sticky bit is everything below k = 51 + d.
  logic          v5, bp5, sg5, zero5, sub5, er127_5;
  logic [2:0]    rm5;
  logic [TW-1:0] tag5;
  logic [75:0]   n5;
  logic signed [11:0] er5;
  logic [6:0]    k5;
  logic [9:0]    be5;
  logic [31:0]   bpy5;
  logic [4:0]    bpf5;
  wire signed [11:0] er_c = ew4 + 12'sd75 - 12'(lz4);
  wire signed [11:0] d_c = 12'(lz4) - ew4 - 12'sd201;        // -126 - er (> 0: subnormal)
  wire signed [11:0] k_c = 12'(lz4) - ew4 - 12'sd150;        // 51 + d
  wire signed [11:0] be_c = ew4 + 12'sd202 - 12'(lz4);       // er + 127
  always_ff @(posedge clk) begin
    v5 <= v4;
    bp5 <= bp4;
    rm5 <= rm4;
    tag5 <= tag4;
    n5 <= s4 << lz4;
    er5 <= er_c;
    sub5 <= d_c > 12'sd0;
    er127_5 <= d_c == 12'sd1;
    k5 <= (k_c <= 12'sd51) ? 7'd51 : (k_c > 12'sd127) ? 7'd127 : 7'(k_c);
    be5 <= (d_c > 12'sd0) ? 10'd0 : (be_c > 12'sd511) ? 10'd511 : 10'(be_c);
    zero5 <= lz4 == 7'd76;
    sg5 <= (lz4 != 7'd76) ? sg4 : noadd4 ? sp4 : (rm4 == RDN) ? (sp4 || zs4) : (sp4 && zs4);
    bpy5 <= bpy4;
    bpf5 <= bpf4;
  end

  // ---- step 6: the rounding position ------------------------------------------------------
  // a normal result keeps n5[75:52]; a subnormal one n5 shifted right by d first: the
  // bits from k5 = 51 + d up, the sticky bit from the rest
  logic [22:0] m_c;                   // (below the hidden bit, t[75])
  logic        g_c, st_c;
  always_comb begin
    logic [74:51] t;                  // (bit 75, the hidden bit, is the exponent's; below 51:
    logic [75:0] below;               // the sticky bit, from n5)
    t = 24'(n5 >> k5);
    for (int i = 0; i < 76; i++) below[i] = 7'(i) < k5;
    m_c = t[74:52];
    g_c = t[51];
    st_c = (n5 & below) != '0;
  end
  logic          v6, bp6, sg6, zero6, g6, st6, sub6, er127, tcarry6;
  logic [2:0]    rm6;
  logic [TW-1:0] tag6;
  logic [22:0]   m6;                 // (bit 23 is the exponent's: be6)
  logic [9:0]    be6;                 // the biased exponent (0: subnormal), before rounding
  logic signed [11:0] er6;
  logic [31:0]   bpy6;
  logic [4:0]    bpf6;
  always_ff @(posedge clk) begin
    v6 <= v5;
    bp6 <= bp5;
    rm6 <= rm5;
    tag6 <= tag5;
    sg6 <= sg5;
    zero6 <= zero5;
    m6 <= m_c;
    g6 <= g_c;
    st6 <= st_c;
    sub6 <= sub5;
    er6 <= er5;
    be6 <= be5;
    er127 <= er127_5;
    // tininess at er = -127: does rounding to 24 bits with an unbounded exponent carry
    // up to 2^-126? (sem's round.rs `tiny`)
    tcarry6 <= n5[75:52] == '1 && round_up(rm5, sg5, 1'b1, n5[51], n5[50:0] != '0);
    bpy6 <= bpy5;
    bpf6 <= bpf5;
  end

  // ---- step 7: round, pack, flags ----------------------------------------------------------
  always_ff @(posedge clk) begin
    logic [30:0] bits, mag;
    logic        inc, inx, ovf;
    bits = {be6[7:0], m6};
    inc = round_up(rm6, sg6, m6[0], g6, st6);
    mag = bits + 31'(inc);
    inx = g6 || st6;
    ovf = be6 >= 10'd255 || mag >= 31'h7f80_0000;
    out_v <= v6;
    out_tag <= tag6;
    if (bp6) begin
      out_y <= bpy6;
      out_fl <= bpf6;
    end else if (zero6) begin
      out_y <= {sg6, 31'd0};
      out_fl <= '0;
    end else if (ovf) begin
      // RNE, RMM: infinity; RTZ: the largest finite; RUP, RDN: by the sign
      out_y <= {sg6, (rm6 == RTZ || (rm6 == RUP && sg6) || (rm6 == RDN && !sg6)) ?
                     31'h7f7f_ffff : 31'h7f80_0000};
      out_fl <= OF | NX;
    end else begin
      out_y <= {sg6, mag};
      out_fl <= (inx ? NX : '0) |
                ((inx && (mag < 31'h0080_0000 ||
                          (mag == 31'h0080_0000 && sub6 &&
                           (er6 < -12'sd127 || (er127 && !tcarry6))))) ? UF : '0);
    end
    if (rst) out_v <= 1'b0;
  end
endmodule
