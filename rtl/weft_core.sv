// weft_core.sv -- one weft SIMT core: WARPS warps of LANES lanes, RV32IMAFC per lane, the
// CSR bank (weft_csr.sv: the warp-core subset listed in docs/rtl.md, the float CSRs, the
// counters), weft's divergence unit (weft_diverge.sv: auto-diverging branches, `diverge`,
// `converge`, divergent `jalr`, activations, and table reconvergence from the
// reconvergence-table memory; docs/isa.md §5-6), in table mode or converge mode (rc_mode),
// and Vortex's SIMT instructions (weft_vx.sv: tmc, wspawn, split/join with their IPDOM
// stacks, bar, pred, vote.*, shfl.*).
//
// The core is multi-cycle, not pipelined: a round-robin scheduler picks a running warp,
// checks it before issue (an At point of its activation, its breakpoint, its watchdog),
// fetches its instruction through the single memory port (and its reconvergence-table word),
// expands it if it is compressed (weft_rvc.sv), reads the per-lane register files (x and f,
// weft_regfile.sv), executes on every lane at once (one weft_alu, weft_div and weft_mul per
// lane), or lane by lane through the core's one FPU (weft_fpu.sv), walks the active lanes
// one by one for loads, stores and atomics, then writes back and updates the warp's pc,
// thread mask, divergence stack and activation. Each retired warp-instruction is reported
// on the rt_* outputs for one cycle (state S_RETIRE); the lockstep testbench prints it.
//
// Anything the RTL does not implement (bar.arrive/bar.wait, Vortex's packed loads and
// wgather, the divergence unit's WAITS and CDEPTH limits) raises rt_unsupported (with
// rt_unsup_why) instead of doing something else silently.
module weft_core #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int DEPTH = 8,                  // divergence stack entries per warp
    parameter int WAITS = 4,                  // waiting groups per stack entry
    parameter int CDEPTH = 16,                // call depths with activation ids (weft_diverge)
    parameter int RT_WORDS = 16384,           // reconvergence-table words (64 KiB of code)
    parameter logic [31:0] LOCAL_BASE = 32'hff00_0000,
    parameter int BARRIERS = 16,
    parameter int LOCAL_WORDS = 4096,         // shared memory: 16 KiB from LOCAL_BASE
    // the display timing model (docs/isa.md §4.6, the [display] defaults): scanline and
    // display_frames follow the cycle counter
    parameter int CYCLES_PER_LINE = 800,
    parameter int LINES_PER_FRAME = 525,
    parameter int VISIBLE_LINES = 480,
    // a display controller's beam for scanline and display_frames instead (the board's)
    parameter bit EXT_DISPLAY = 1'b0
) (
    input  logic                   clk,
    input  logic                   rst,
    input  logic [31:0]            entry_pc,
    // the reconvergence table (weft_diverge.sv): table mode (0: converge mode), the code
    // address of word 0 and the words in use, written through rc_we while the core is reset
    input  logic                   rc_mode,
    input  logic [31:0]            rc_base,
    input  logic [31:0]            rc_len,
    input  logic                   rc_we,
    input  logic [15:0]            rc_wa,
    input  logic [17:0]            rc_wd,     // {offset[15:0], kind[1:0]}
    output logic [31:0]            rc_words,  // RT_WORDS: a loader refuses a larger table
    // memory port: a request is held until mem_ack; mem_err = unmapped / read-only
    output logic                   mem_req,
    output logic                   mem_we,
    output logic [1:0]             mem_size,  // 0 byte, 1 half, 2 word
    output logic [31:0]            mem_addr,
    output logic [31:0]            mem_wdata,
    output logic [7:0]             mem_lane,
    output logic                   mem_fetch,
    output logic                   mem_amo,   // the write of an AMO or sc.w (for the trace)
    output logic                   mem_local, // mem_* is served by the shared memory this
                                              // cycle (mem_req low: the port is not used)
    input  logic                   mem_ack,
    input  logic                   mem_err,
    input  logic [31:0]            mem_rdata,
    // retired warp-instruction
    output logic                   rt_valid,
    output logic [7:0]             rt_warp,
    output logic [31:0]            rt_pc,
    output logic [31:0]            rt_mask,
    output logic [31:0]            rt_next_pc,
    output logic [31:0]            rt_next_mask,
    output logic                   rt_wen,
    output logic [4:0]             rt_rd,
    output logic [LANES*32-1:0]    rt_vals,
    output logic [4:0]             rt_fault,
    output logic                   rt_unsupported,
    output logic [1:0]             rt_unsup_why, // 0 not built; the divergence unit's limits:
                                                 // 1 WAITS, 2 CDEPTH, 3 a compressed point
    output logic                   halted,
    output logic                   deadlock,  // halted with warps waiting at a barrier
    // the board's devices (a testbench may leave them at 0): an issue slot (the scheduler
    // picks; the cycle counter counts it), the display's line and vblank (EXT_DISPLAY), and
    // the DMA engine's port into the shared memory (a word; its answer two cycles after en)
    output logic                   slot,
    input  logic [15:0]            disp_line,
    input  logic                   disp_vbl,
    input  logic                   dma_en,
    input  logic                   dma_we,
    input  logic [$clog2(LOCAL_WORDS)-1:0] dma_addr,
    input  logic [31:0]            dma_wdata,
    output logic [31:0]            dma_rdata
);
  localparam int WB = (WARPS > 1) ? $clog2(WARPS) : 1;
  localparam int LB = (LANES > 1) ? $clog2(LANES) : 1;
  localparam int DB = $clog2(DEPTH + 1);
  localparam int EB = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam logic [LANES-1:0] FULL = {LANES{1'b1}};
  localparam int BB = (BARRIERS > 1) ? $clog2(BARRIERS) : 1;
  localparam int SB = $clog2(LOCAL_WORDS);

  typedef enum logic [4:0] {
    S_PICK, S_CHECK, S_CHKD, S_TRAPPED, S_FETCH, S_DECODE, S_OPND, S_EXEC, S_JUMP, S_MEM, S_DIV,
    S_FPU, S_SHFL, S_WB, S_SPAWN,
    S_SCHED, S_LOST, S_RETQ, S_TRD, S_TRR, S_TRW, S_RETIRE, S_HALT, S_FAULT
  } state_t;
  state_t st;

  // ---- per-warp state (the CSRs are weft_csr.sv's) ----------------------------------------
  logic [31:0]      pc_q    [WARPS];
  logic [LANES-1:0] mask_q  [WARPS];
  logic [WARPS-1:0] run_q, done_q;
  logic [WARPS-1:0] bstop_q /*verilator public_flat_rd*/;   // stopped at its break_pc
  logic [WB-1:0]    cw /*verilator public_flat_rd*/;
  logic [WARPS-1:0] spawn_set;          // warps S_SPAWN still has to start
  logic             ws_q;               // ... for wspawn (else for a warp_active write)
  logic [31:0]      ir;                 // the instruction (expanded once decode has run)
  logic             cmp_q;              // it was compressed (2 bytes)
  logic             cill_q;             // a compressed halfword that does not expand
  logic             fh_q;               // the fetch is a halfword (a 4-byte one failed)
  logic [LANES-1:0] pend_q;             // lanes the memory walk has still to serve
  logic             rsil_q;             // retiring without a record (a silent trap)
  logic             pre_q;              // S_SCHED runs before issue (an At arrival)
  logic             retq;               // S_SCHED after a return reached an AtExit point
  logic [LANES-1:0] tdone_q;            // lanes an atomic or a float op finished before it
                                        // trapped
  logic             aph;                // an AMO's lane: 0 reads the word, 1 writes it back
  logic [31:0]      old_q;              // the word the AMO read
  // LR reservations: one word address per lane of every warp, valid where resv_v is set;
  // any store that touches the word breaks it (crates/simt exec_mem.rs)
  logic [29:0]      resv_a [WARPS][LANES];
  logic [LANES-1:0] resv_v [WARPS];
  // barriers (docs/isa.md §4.2): the warps that arrived at each, and who waits where
  logic [WARPS-1:0] barr_q [BARRIERS];
  logic [WARPS-1:0] bwait_q /*verilator public_flat_rd*/;
  logic [BB-1:0]    bid_q [WARPS];
  logic             lreq, lack;         // a shared-memory access is under way, answers
  logic             xph;                // the second word of an access across two words
  logic [31:0]      xlo_q;              // the first word it read
  logic [4:0]       fq_code;            // a fault (S_FAULT): its code and address, and
  logic [31:0]      fq_addr /*verilator public_flat_rd*/;
  logic [31:0]      fq_pc;              // its pc; whether it came from decode (a silent
  logic             fq_dec, fq_mem;     // trap) or from an atomic's walk, or a float op's
  logic             fq_fp;              // lanes (fp_fed: those before the trapping lane)

  wire [31:0]       pc   = pc_q[cw];
  // the issuing instruction's pc, registered in S_CHKD (S_TRAPPED): equal to pc from S_FETCH
  // through write-back, read there without pc's warp multiplexer (and in its record)
  logic [31:0]      rpc_q;
  wire [LANES-1:0]  amask = mask_q[cw];
  logic [DB-1:0]    cur_len /*verilator public_flat_rd*/;  // the divergence-stack depths
  logic [DB-1:0]    x_len;                                   // of cw and xwarp

  // ---- decode ----------------------------------------------------------------------------
  wire [4:0] rd = ir[11:7], rs1 = ir[19:15], rs2 = ir[24:20];
  wire [2:0] f3 = ir[14:12];
  wire [4:0] f5 = ir[31:27];
  wire [31:0] imm_i = {{20{ir[31]}}, ir[31:20]};
  wire [31:0] imm_s = {{20{ir[31]}}, ir[31:25], ir[11:7]};
  wire [31:0] imm_b = {{19{ir[31]}}, ir[31], ir[7], ir[30:25], ir[11:8], 1'b0};
  wire [31:0] imm_u = {ir[31:12], 12'd0};
  wire [31:0] imm_j = {{11{ir[31]}}, ir[31], ir[19:12], ir[20], ir[30:21], 1'b0};
  wire [4:0] rs3 = ir[31:27];
  // A compressed instruction is expanded in decode (S_DECODE's first cycle writes the
  // expansion into ir, the second decodes it).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] rvc_w;                 // (bits 1:0 are 11)
  /* verilator lint_on UNUSEDSIGNAL */
  logic        rvc_ill;
  weft_rvc rvc (.h(ir[15:0]), .w(rvc_w), .ill(rvc_ill));
  // decoded from ir in S_DECODE and registered (weft_decode.sv): valid from S_OPND
  logic is_lui, is_auipc, is_jal, is_jalr, is_br, is_load, is_store, is_op, is_mul,
        is_div, is_csr, is_ecall, is_ebreak, is_mret, is_conv, is_divg,
        is_lr, is_sc, is_amo, is_atom, is_fp, is_fmem, fp_rm, is_tmc, is_wspawn,
        is_split, is_join, is_bar, is_pred, is_vote, is_shfl, is_unsup, known, writes_rd,
        is_ret;
  logic       f1, f2;   // rs1, rs2 read the float file (decoded now, for the reads)
  // rd is a float register (the testbench reads it, for the retire record's " f<rd>=")
  logic       rd_f /*verilator public_flat_rd*/;
  logic [3:0] alu_op;
  logic [4:0] fop;
  weft_decode dec (
      .clk, .load(st == S_DECODE), .w(ir), .bad(cill_q), .f1, .f2,
      .is_lui, .is_auipc, .is_jal, .is_jalr, .is_br, .is_load, .is_store, .is_op, .is_mul,
      .is_div, .is_csr, .is_ecall, .is_ebreak, .is_mret, .is_conv, .is_divg, .is_lr, .is_sc,
      .is_amo, .is_atom, .is_fp, .is_fmem, .fp_rm, .rd_f, .fop, .is_tmc, .is_wspawn,
      .is_split, .is_join, .is_bar, .is_pred, .is_vote, .is_shfl, .is_unsup, .known,
      .writes_rd, .is_ret, .alu_op);
  // the instruction's length: pc + 2 after a compressed one
  wire [31:0] ilen = cmp_q ? 32'd2 : 32'd4;

  // ---- register files: one per lane, x and f of every warp, three read ports --------------
  // (weft_regfile.sv) A read takes two cycles: the block RAM's own read register (rr1, rr2,
  // rr3), whose data arrives late in the cycle, then flip-flops (rv1, rv2, rv3) that
  // everything else reads (S_DECODE reads, S_OPND registers, S_EXEC uses). Port 1 reads rs1
  // (or rd, for a trap's record), port 2 rs2, port 3 the float rs3 (fmadd and its kin).
  logic [31:0]      rr1 [LANES], rr2 [LANES], rr3 [LANES];
  logic [31:0]      rv1 [LANES], rv2 [LANES], rv3 [LANES], res_q [LANES], alu_y [LANES];
  logic [31:0]      dq [LANES], dr [LANES], mp [LANES];
  logic [LANES-1:0] ddone, mdone, rf_we, br_t;
  logic [WB+5:0]    rf_wa;
  logic [31:0]      rf_wd [LANES];
  logic             div_start, mul_start;
  // a trap reads rd back for its record (S_TRD), in rd's file
  wire  [5:0]       ra1 = (st == S_TRD) ? {rd_f, rd} : {f1, rs1};
  genvar gl;
  generate
    for (gl = 0; gl < LANES; gl++) begin : lane
      weft_regfile #(.AW(WB + 6)) rf (
          .clk, .we(rf_we[gl]), .wa(rf_wa), .wd(rf_wd[gl]), .ra1({cw, ra1}),
          .ra2({cw, f2, rs2}), .ra3({cw, 1'b1, rs3}), .rd1(rr1[gl]), .rd2(rr2[gl]),
          .rd3(rr3[gl]));
      always_ff @(posedge clk) begin
        rv1[gl] <= rr1[gl];
        rv2[gl] <= rr2[gl];
        rv3[gl] <= rr3[gl];
      end
      wire [31:0] opa = (is_auipc) ? rpc_q : rv1[gl];
      wire [31:0] opb = is_op ? rv2[gl] : (is_lui || is_auipc) ? imm_u : imm_i;
      weft_alu alu (.op(alu_op), .a(opa), .b(opb), .y(alu_y[gl]));
      weft_div div (.clk, .start(div_start), .a(rv1[gl]), .b(rv2[gl]), .sgn(!f3[0]),
                    .quot(dq[gl]), .rem(dr[gl]), .done(ddone[gl]));
      weft_mul mul (.clk, .start(mul_start), .f(f3[1:0]), .a(rv1[gl]), .b(rv2[gl]), .y(mp[gl]),
                    .done(mdone[gl]));
      always_comb begin
        case (f3)
          3'd0: br_t[gl] = rv1[gl] == rv2[gl];
          3'd1: br_t[gl] = rv1[gl] != rv2[gl];
          3'd4: br_t[gl] = $signed(rv1[gl]) < $signed(rv2[gl]);
          3'd5: br_t[gl] = $signed(rv1[gl]) >= $signed(rv2[gl]);
          3'd6: br_t[gl] = rv1[gl] < rv2[gl];
          default: br_t[gl] = rv1[gl] >= rv2[gl];
        endcase
      end
    end
  endgenerate

  // ---- lane helpers ------------------------------------------------------------------------
  // mem_l: the lowest lane the memory walk has still to serve (pend_q, loaded in execute);
  // the first and last active lanes, registered for execute (in decode, and in S_RETQ,
  // where a return goes on with the group scheduled just before)
  logic [LB-1:0] last_lane, first_lane, mem_l, last_q, first_q;
  wire           mem_any = pend_q != '0;
  logic [LANES-1:0] nz1;
  always_comb begin
    last_lane = '0;
    first_lane = '0;
    for (int l = 0; l < LANES; l++) if (amask[l]) last_lane = LB'(l);
    for (int l = LANES - 1; l >= 0; l--) if (amask[l]) first_lane = LB'(l);
    for (int l = 0; l < LANES; l++) nz1[l] = rv1[l] != 32'd0;
    mem_l = '0;
    for (int l = LANES - 1; l >= 0; l--) if (pend_q[l]) mem_l = LB'(l);
  end

  // ---- CSRs (weft_csr.sv: the bank, read in decode) ---------------------------------------
  wire [11:0] csr = ir[31:20];
  wire        csr_imm = f3[2];
  wire        csr_swap = f3[1:0] == 2'd1;
  wire        csr_writes = csr_swap || rs1 != 5'd0;
  wire        csr_reads = !(csr_swap && rd == 5'd0);
  wire [31:0] csr_opnd = csr_imm ? {27'd0, rs1} : rv1[last_q];
  wire        csr_fp = csr == 12'h001 || csr == 12'h002 || csr == 12'h003;
  logic [WB-1:0] xw;
  logic [31:0] csr_old, csr_new_c, mtvec, mepc, bpc, spawn_pc, spawn_args;
  logic [31:0] csr_new;   // csr_new_c registered in S_EXEC: what S_WB writes
  logic [LANES*32-1:0] csr_lanes;
  logic        csr_ok, csr_ro, fs_off, wd_fire, wd_hard, wd_trap;
  always_comb
    case (f3[1:0])
      2'd1: csr_new_c = csr_opnd;
      2'd2: csr_new_c = csr_old | csr_opnd;
      default: csr_new_c = csr_old & ~csr_opnd;
    endcase
  logic [LANES*8-1:0] fp_opnd;
  always_comb
    for (int l = 0; l < LANES; l++) fp_opnd[l*8 +: 8] = csr_imm ? {3'd0, rs1} : rv1[l][7:0];
  // a fault (S_FAULT) traps to mtvec if it is an exception of docs/isa.md §8.5 and mtvec is
  // set; else it is recorded and stops the warp
  wire        f_trap = mtvec != 32'd0 && (fq_code == 5'd1 || fq_code == 5'd3 ||
                       fq_code == 5'd4 || fq_code == 5'd8 || fq_code == 5'd10 ||
                       fq_code == 5'd11);
  logic [31:0] f_cause;
  always_comb
    case (fq_code)
      5'd1: f_cause = 32'd2;
      5'd8: f_cause = 32'd3;
      5'd3: f_cause = 32'd5;
      5'd10: f_cause = 32'd11;
      default: f_cause = 32'd7;   // STORE_FAULT, AMO_MISALIGNED
    endcase
  // before issue: a warp at its break_pc stops; an expired SOFT watchdog traps if mie bit 16
  // and mtvec are set. S_CHECK waits for the divergence unit's search (chk_go: below) and
  // registers what it finds (ck_*; the watchdog: weft_csr's wd_fire); S_CHKD acts on it, from
  // flip-flops.
  logic chk_go, chk_at, wb, dv_found;
  logic ck_at, ck_bpt;
  wire  chk_bpt = st == S_CHKD && !ck_at && ck_bpt;
  wire  chk_wd = st == S_CHKD && !ck_at && !ck_bpt && wd_fire;
  wire  wd_soft_trap = chk_wd && !wd_hard && mtvec != 32'd0 && wd_trap;
  // What a fault (S_FAULT), a breakpoint or the watchdog (S_CHKD) writes in the CSR bank
  // (mepc, mcause, mtval; the fault record; the watchdog's expiry), registered: the bank
  // writes it in the next cycle, from flip-flops, not from the state's decode. cw and the
  // fault's registers do not change in that cycle (S_RETIRE, S_TRD, S_TRAPPED, S_FETCH or
  // S_PICK follows), and the bank is read again only in a later decode.
  logic        tr_q, tr_tvwe, tr_flt, tr_bpt, tr_wdx;
  logic [31:0] tr_cause, tr_epc, tr_tval;
  logic [WB-1:0] pick;
  logic          pick_ok;
  wire           tick = st == S_PICK && pick_ok;   // an issue slot: the scheduler picks
  assign slot = tick && !rst;
  // float state: each lane's dynamic rounding mode (frm), the flags a float operation
  // accrues (fl_acc, written to fflags at write-back, or for the lanes done before a trap)
  logic [15:0] cur_cdep;                           // the call depth of cw (call_depth)
  logic [LANES*3-1:0] frm_l;
  logic [LANES*5-1:0] fl_acc;
  wire fl_we = (wb && is_fp) || (st == S_TRD && is_fp);
  wire [LANES-1:0] fl_mask = (st == S_TRD) ? tdone_q : amask;
  weft_csr #(.WARPS(WARPS), .LANES(LANES), .BARRIERS(BARRIERS), .LOCAL_BASE(LOCAL_BASE),
             .CYCLES_PER_LINE(CYCLES_PER_LINE), .LINES_PER_FRAME(LINES_PER_FRAME),
             .VISIBLE_LINES(VISIBLE_LINES), .EXT_DISPLAY(EXT_DISPLAY), .DB(DB)) csrs (
      .clk, .rst, .entry_pc, .w(cw), .tick, .retire(st == S_RETIRE && !rsil_q),
      .ext_line(disp_line), .ext_vbl(disp_vbl),
      .pc, .mask(amask), .xpc(pc_q[xw]), .xmask(mask_q[xw]), .run(run_q), .done(done_q),
      .len_w(cur_len), .len_x(x_len), .cdep_w(cur_cdep),
      .rd_en(st == S_DECODE), .csr, .rdata(csr_old), .lrdata(csr_lanes), .ok(csr_ok),
      .ro(csr_ro),
      .wb_en(wb && is_csr), .writes(csr_writes), .reads(csr_reads), .wdata(csr_new),
      .op(f3[1:0]), .lopnd(fp_opnd),
      .retire_mask(rmask_q), .fs_dirty(st == S_EXEC && (is_fp || is_fmem) && !fs_off),
      .fl_we, .fl_mask, .fl_bits(fl_acc), .frm(frm_l),
      .trap(tr_q), .trap_cause(tr_cause), .trap_epc(tr_epc), .trap_tval(tr_tval),
      .trap_tval_we(tr_tvwe), .flt(tr_flt), .flt_code(fq_code), .flt_pc(fq_pc),
      .flt_addr(fq_addr), .bpt(tr_bpt), .wd_expire(tr_wdx),
      .xw, .mtvec, .mepc, .fs_off, .bpc, .wd_fire, .wd_hard, .wd_trap, .spawn_pc,
      .spawn_args);

  // A barrier: the `barrier` CSR's write (count << 16 | id) or Vortex's `bar rs1, rs2` (id
  // rs1, bit 31 for a global barrier, count rs2; a global barrier of this one core completes
  // at once), registered in S_EXEC (b_*) for write-back; the arrivals including this warp.
  logic          b_bad, b_glob;
  logic [BB-1:0] bar_id;
  logic [31:0]   b_cnt;
  wire  [31:0]   vx_u1 = rv1[last_q], vx_u2 = rv2[last_q];   // Vortex's uniform operands
  wire           b_bad_c = is_bar ? (vx_u1[30:0] >= 31'(BARRIERS) || vx_u2 == 32'd0 ||
                                     vx_u2 > (vx_u1[31] ? 32'd1 : 32'(WARPS)))
                                  : (csr_new_c[15:0] >= 16'(BARRIERS) ||
                                     csr_new_c[31:16] == 16'd0 ||
                                     csr_new_c[31:16] > 16'(WARPS));
  wire [WARPS-1:0] bar_arr = barr_q[bar_id] | (WARPS'(1) << cw);
  logic [15:0]  bar_n;
  always_comb begin
    bar_n = 16'd0;
    for (int w = 0; w < WARPS; w++) bar_n = bar_n + 16'(bar_arr[w]);
  end

  // ---- branch / jump outcome ---------------------------------------------------------------
  // computed in S_EXEC from the register operands (a jalr's in S_JUMP, from res_q), registered
  // for S_WB (the *_c values)
  logic [LANES-1:0] taken, jgo, pred;
  logic [31:0] br_tgt, jalr_t0, jalr_other;
  logic        backward, jalr_agree;
  logic [31:0] pc4_q;   // pc + 4
  wire [31:0] br_tgt_c = rpc_q + (is_jal ? imm_j : imm_b);   // (a jal's target too)
  wire [LANES-1:0] ntaken = amask & ~taken;
  wire [LANES-1:0] first_m = backward ? taken : ntaken;
  wire [LANES-1:0] second_m = backward ? ntaken : taken;
  wire [31:0] first_pc = backward ? br_tgt : pc4_q;
  wire [31:0] second_pc = backward ? pc4_q : br_tgt;
  // (a jalr's targets: execute leaves each lane's rs1 + imm in res_q, S_JUMP compares them)
  wire [31:0] jalr_t0_c = res_q[first_q] & ~32'd1;
  logic jalr_agree_c;
  logic [31:0] jalr_other_c;
  always_comb begin
    jalr_agree_c = 1'b1;
    jalr_other_c = 32'd0;
    for (int l = LANES - 1; l >= 0; l--)
      if (amask[l] && (res_q[l] & ~32'd1) != jalr_t0_c) begin
        jalr_agree_c = 1'b0;
        jalr_other_c = res_q[l] & ~32'd1;
      end
  end
  // A divergent indirect jump that is neither a call nor a return (a `switch`): in converge
  // mode the lanes going where the lowest active lane goes run now, the rest wait at the
  // jalr and execute it again in their turn (docs/isa.md §6.2), pushed like a branch's.
  logic [LANES-1:0] jgo_c;
  always_comb
    for (int l = 0; l < LANES; l++)
      jgo_c[l] = amask[l] && (res_q[l] & ~32'd1) == jalr_t0_c;
  // A divergent call (per-lane function pointers) splits the same way; its entry
  // reconverges At(pc + 4), where the call returns, in the caller's activation: a group
  // about to issue there parks (S_CHECK), and only the running lanes link rd.
  wire jump_split = is_jalr && !jalr_agree && !is_ret;
  wire call_split = jump_split && rd != 5'd0;
  wire [LANES-1:0] sp_first = is_jalr ? jgo : first_m;
  wire [LANES-1:0] sp_second = is_jalr ? amask & ~jgo : second_m;
  wire [31:0] sp_first_pc = is_jalr ? jalr_t0 : first_pc;
  wire [31:0] sp_second_pc = is_jalr ? pc : second_pc;

  // Where write-back sends the warp: S_WB's first cycle registers the next pc and mask
  // (wn_*) from execute's registers; a later cycle, once the unit has searched (wb), writes
  // them. What depends on the search: a return reaching AtExit keeps its pc, a `diverge`
  // whose new entry has no room keeps its mask.
  logic [31:0] wn_pc_c, wn_pc;
  logic [LANES-1:0] wn_mask_c, wn_mask;
  logic wn_mw_c, wn_mw, wn_dv, wn_split, wb_in;
  wire  divg_c = is_divg && pred != '0 && pred != amask;   // a `diverge` that pushes
  wire  split_c = (is_br && taken != amask && taken != '0) || jump_split || divg_c;
  always_comb begin
    wn_pc_c = pc4_q;
    wn_mask_c = sp_first;
    wn_mw_c = 1'b0;
    if (is_jal) wn_pc_c = br_tgt;
    else if (is_jalr && !jump_split) begin
      if (jalr_agree) wn_pc_c = jalr_t0;     // (else the fault: lanes that disagree)
    end else if (is_br || is_jalr) begin
      if (is_br && taken == amask) wn_pc_c = br_tgt;
      else if (is_jalr || taken != '0) begin  // a split: the first group runs
        wn_pc_c = sp_first_pc;
        wn_mw_c = 1'b1;
      end
    end else if (is_divg) wn_mask_c = pred;   // (the other lanes wait: wn_dv)
    else if (is_mret) wn_pc_c = mepc;
    else if (is_tmc || is_pred || is_split || is_join) begin
      // Vortex's mask changes (weft_vx.sv), none when the instruction faults
      wn_mask_c = vx_mask;
      wn_mw_c = vx_mw && !vx_over && !vx_under;
      if (vx_pcw) wn_pc_c = vx_npc;           // join: the other group, from the split
    end
    else if (is_csr && !csr_fp && csr_writes && csr == 12'h804 && csr_new[LANES-1:0] != '0) begin
      wn_mask_c = csr_new[LANES-1:0];         // tmask
      wn_mw_c = 1'b1;
    end
  end

  // ---- the divergence unit (weft_diverge.sv): stacks, activations, reconvergence table --
  wire [31:0] key = is_conv ? br_tgt : pc;   // a converge names its branch (from S_EXEC on)
  logic [WB-1:0] sp_w;                           // the warp S_SPAWN starts
  logic          conv_hit, at_hit, exit_hit, sp_full, sp_unsup, sc_go, sc_empty, sc_ready, dv_busy;
  logic [EB-1:0] conv_k, at_k, exit_k;
  logic [LANES-1:0] sc_mask;
  logic [31:0]   sc_pc, t_point;
  logic [1:0]    t_kind, sp_why;
  // The unit searches the warp's stack one entry per cycle (weft_diverge.sv): from execute
  // (a jalr: from S_JUMP, where the kind of its split is settled) through write-back for the
  // write-back's commands, and in the check before issue; the core waits in S_CHECK and
  // S_WB until the results are there (dv_found). An empty stack has nothing to find before
  // issue. After an arrival, a join or a halt the unit takes the lanes out of the entries
  // above, one per cycle (dv_busy): S_SCHED waits for it.
  wire  dv_sreq = st == S_CHECK || (st == S_EXEC && !is_jalr) || st == S_JUMP ||
                  st == S_MEM || st == S_DIV || st == S_WB;
  assign chk_go = st == S_CHECK && (dv_found || cur_len == '0);
  assign chk_at = dv_found && at_hit;
  assign wb = st == S_WB && wb_in && dv_found;
  // where a split reconverges: a branch's table entry (none in converge mode); a divergent
  // call At(pc + 4); another divergent indirect jump its table entry, else AtExit (table
  // mode) or None (converge mode)
  wire [1:0]  sp_kind = call_split ? 2'd1 : (is_jalr && rc_mode && t_kind == 2'd0) ? 2'd2 :
                        is_divg ? 2'd0 : t_kind;
  wire [31:0] sp_point = call_split ? pc4_q : t_point;
  wire d_split = wb && wn_split;
  wire d_ret_exit = wb && is_jalr && is_ret && exit_hit;   // a return reaching AtExit
  wire d_arrive = (st == S_CHKD && ck_at) || (wb && is_conv && conv_hit) || d_ret_exit;
  wire d_retire = wb && ((is_csr && !csr_fp && csr_writes && csr == 12'h804 &&
                         csr_new[LANES-1:0] == '0) || ((is_tmc || is_pred) && vx_halt));
  wire d_call = wb && ((is_jal && rd != 5'd0) ||
                       (is_jalr && !jump_split && jalr_agree && rd != 5'd0) ||
                       (call_split && !sp_full && !sp_unsup));
  wire d_ret = wb && is_jalr && is_ret && !exit_hit && jalr_agree;
  // a write of call_depth (docs/isa.md §6.1: a context switch restores the depth it saved)
  wire d_cdep = wb && is_csr && !csr_fp && csr_writes && csr == 12'h814;
  weft_diverge #(.WARPS(WARPS), .LANES(LANES), .DEPTH(DEPTH), .WAITS(WAITS), .CDEPTH(CDEPTH),
                 .RT_WORDS(RT_WORDS)) dv (
      .clk, .rst, .w(cw), .xw, .pc, .key, .sreq(dv_sreq), .found(dv_found), .busy(dv_busy),
      .conv_hit, .conv_k, .at_hit, .at_k, .exit_hit, .exit_k, .len_w(cur_len), .len_x(x_len),
      .split(d_split), .push_only(is_divg), .act(amask),
      .sec_m(is_divg ? amask & ~pred : sp_second), .sec_pc(is_divg ? br_tgt : sp_second_pc),
      .kind(sp_kind), .point(sp_point), .sp_full, .sp_unsup, .sp_why,
      .arrive(d_arrive), .retire(d_retire), .ak(st == S_CHKD ? at_k : is_conv ? conv_k : exit_k),
      .cur(amask), .resume_pc((wb && is_conv) ? pc4_q : pc),
      .sched(st == S_SCHED && !dv_busy), .sc_ready, .sc_go, .sc_empty, .sc_mask, .sc_pc,
      .call(d_call), .ret(d_ret), .clear(st == S_SPAWN && spawn_set != '0), .cw_clear(sp_w),
      .cd_we(d_cdep), .cd_wd(csr_new[15:0]), .cdep_w(cur_cdep),
      .rc_mode, .rc_base, .rc_len, .rc_we, .rc_wa, .rc_wd, .lookup(st == S_FETCH),
      .lpc(rpc_q), .t_kind, .t_point);
  assign rc_words = 32'(RT_WORDS);

  // ---- what the testbench counts for its statistics (weft-rtl's RtlDevice) ---------------
  // the model's definitions (crates/simt stats): an issue slot (a pick); a divergence (a
  // split of the weft stack, pushed or joined, a `diverge` that pushes, a Vortex split that
  // divides the warp); a reconvergence (a group arriving at a point, a Vortex join popping);
  // a barrier arrival; the check before issue (cur_len: the stack's depth then); an
  // instruction that retires after trapping to mtvec (rtrap_q)
  wire ev_slot /*verilator public_flat_rd*/ = tick;
  wire ev_div /*verilator public_flat_rd*/ = (d_split && !sp_full && !sp_unsup) ||
                                             (wb && is_split && vx_mw && !vx_over);
  wire ev_rec /*verilator public_flat_rd*/ = d_arrive ||
                                             (wb && is_join && vx_mw && !vx_pcw && !vx_under);
  wire ev_bar /*verilator public_flat_rd*/ = wb && !b_bad && (is_bar || (is_csr && !csr_fp &&
                                             csr_writes && csr == 12'h805));
  wire ev_chk /*verilator public_flat_rd*/ = st == S_CHECK && chk_go;
  // a write of the launch CSR (a kernel's address starts a launch, 0 ends it) and its value:
  // the testbench keeps each launch's counters (docs/runtime.md)
  wire ev_launch /*verilator public_flat_rd*/ = wb && is_csr && !csr_fp && csr_writes &&
                                                csr == 12'h813;
  wire [31:0] ev_launch_v /*verilator public_flat_rd*/ = csr_new;
  logic rtrap_q /*verilator public_flat_rd*/;

  // ---- retire record -------------------------------------------------------------------------
  logic [LANES-1:0] rmask_q;
  logic        rwen_q, unsup_q;
  logic [1:0]  uwhy_q;
  logic [4:0]  rfault_q;
  assign rt_valid = st == S_RETIRE && !rsil_q;
  assign rt_warp = 8'(cw);
  assign rt_pc = rpc_q;
  assign rt_mask = 32'(rmask_q);
  assign rt_next_pc = pc_q[cw];
  assign rt_next_mask = 32'(mask_q[cw]);
  assign rt_wen = rwen_q;
  assign rt_rd = rd;
  assign rt_fault = rfault_q;
  assign rt_unsupported = unsup_q;
  assign rt_unsup_why = uwhy_q;
  assign halted = st == S_HALT;
  assign deadlock = st == S_HALT && (bwait_q | bstop_q) != '0;
  generate
    for (gl = 0; gl < LANES; gl++) begin : rtv
      assign rt_vals[gl*32 +: 32] = rmask_q[gl] ? res_q[gl] : 32'd0;
    end
  endgenerate

  // ---- the memory walk: one lane at a time, in four steps --------------------------------
  // mph 0: the lane's address (ma_q), store operand (sd_q) and the lane itself (ml_oh); 1:
  // what the request needs to know of them, registered (in the shared-memory window, across a
  // word boundary, AMO_MISALIGNED, sc.w's reservation, the reservations a store breaks, the
  // data to write: wd_q); 2: the request, until it is answered (the answer registered: rdq,
  // rerr_q); 3: the answer goes to the lane's result. An AMO's lane goes through them twice:
  // its read, then (from step 1, with the word it read in old_q) its write. Each step starts
  // from flip-flops.
  logic [31:0] ma_q, sd_q, wd_q, rdq;
  logic [LANES-1:0] ml_oh;                           // the lane served (mem_l), one-hot
  logic [1:0]  mph;
  logic        rerr_q;
  logic        win_q, cross_q, amis_q, scok_q;
  logic [SB-1:0] smw_q;                              // the word in the window
  logic [LANES-1:0] hit_q [WARPS];                   // reservations on the word(s)
  wire [1:0]  msz = is_atom ? 2'd2 : f3[1:0];
  wire        ma_cross = (msz == 2'd2 && ma_q[1:0] != 2'd0) ||
                         (msz == 2'd1 && ma_q[1:0] == 2'd3);
  wire [29:0] ma_endw = ma_q[31:2] + {29'd0, ma_cross};
  wire [31:0] loc_off = ma_q - LOCAL_BASE;
  wire        mem_go = !is_atom || (!amis_q && (!is_sc || scok_q));
  wire [31:0] amo_b = sd_q;
  logic [31:0] ld_v;                                 // the answer as the lane's result
  always_comb
    case (f3)
      3'd0: ld_v = {{24{rdq[7]}}, rdq[7:0]};
      3'd1: ld_v = {{16{rdq[15]}}, rdq[15:0]};
      3'd4: ld_v = {24'd0, rdq[7:0]};
      3'd5: ld_v = {16'd0, rdq[15:0]};
      default: ld_v = is_sc ? 32'd0 : rdq;
    endcase
  logic [31:0] amo_y;
  always_comb begin
    case (f5)
      5'b00001: amo_y = amo_b;
      5'b00100: amo_y = old_q ^ amo_b;
      5'b01100: amo_y = old_q & amo_b;
      5'b01000: amo_y = old_q | amo_b;
      5'b10000: amo_y = ($signed(old_q) < $signed(amo_b)) ? old_q : amo_b;
      5'b10100: amo_y = ($signed(old_q) < $signed(amo_b)) ? amo_b : old_q;
      5'b11000: amo_y = (old_q < amo_b) ? old_q : amo_b;
      5'b11100: amo_y = (old_q < amo_b) ? amo_b : old_q;
      default:  amo_y = old_q + amo_b;
    endcase
  end

  // ---- memory port -----------------------------------------------------------------------------
  wire [31:0] mem_off = is_store ? imm_s : is_atom ? 32'd0 : imm_i;
  logic m_req;
  always_comb begin
    m_req = 1'b0;
    mem_we = 1'b0;
    mem_size = 2'd2;
    mem_addr = rpc_q;   // (the fetch's pc, without the warps' pc multiplexer)
    mem_wdata = 32'd0;
    mem_lane = 8'd0;
    mem_fetch = 1'b0;
    mem_amo = 1'b0;
    if (st == S_FETCH && !rpc_q[0]) begin
      m_req = 1'b1;
      mem_fetch = 1'b1;
      mem_size = fh_q ? 2'd1 : 2'd2;
    end else if (st == S_MEM && mem_any && mph == 2'd2 && mem_go) begin
      m_req = 1'b1;
      mem_we = is_store || is_sc || (is_amo && aph);
      mem_size = msz;
      mem_addr = ma_q;
      mem_wdata = wd_q;
      mem_lane = 8'(mem_l);
      mem_amo = is_sc || is_amo;
    end
  end
  // The shared-memory window: accesses that fall in it are served by weft_smem (the answer
  // two cycles after the request, lack); the rest go out on the port. A misaligned
  // access across two words takes two bank accesses (xph 0, then 1); one that would run past
  // the window's last word goes out on the port and faults there (win_q is clear).
  wire        m_local = m_req && st == S_MEM && win_q;
  wire        sm_en = m_local && !lreq && !lack;
  assign mem_req = m_req && !m_local;
  assign mem_local = sm_en && !xph;
  logic [3:0]  sm_n;
  always_comb
    case (mem_size)
      2'd0: sm_n = 4'b0001;
      2'd1: sm_n = 4'b0011;
      default: sm_n = 4'b1111;
    endcase
  wire [7:0]  sm_be2 = {4'd0, sm_n} << loc_off[1:0];
  wire [63:0] sm_wd2 = {32'd0, mem_wdata} << {loc_off[1:0], 3'b000};
  logic [31:0] sm_rdata;
  weft_smem #(.LANES(LANES), .WORDS(LOCAL_WORDS)) smem (
      .clk, .en(sm_en), .we(mem_we), .be(xph ? sm_be2[7:4] : sm_be2[3:0]),
      .addr(smw_q + SB'(xph)), .wdata(xph ? sm_wd2[63:32] : sm_wd2[31:0]), .rdata(sm_rdata),
      .b_en(dma_en), .b_we(dma_we), .b_addr(dma_addr), .b_wdata(dma_wdata), .b_rdata(dma_rdata));
  /* verilator lint_off UNUSEDSIGNAL */
  wire [63:0] sm_rd2 = (xph ? {sm_rdata, xlo_q} : {32'd0, sm_rdata}) >> {loc_off[1:0], 3'b000};
  /* verilator lint_on UNUSEDSIGNAL */   // bits 63:32 fall off the access
  wire        m_ack = m_local ? lack : mem_ack;
  wire        m_err = m_local ? 1'b0 : mem_err;
  wire [31:0] m_rdata = m_local ? sm_rd2[31:0] : mem_rdata;

  // ---- register-file write port (write-back and warp start) -------------------------------
  always_comb begin
    sp_w = '0;
    for (int w = WARPS - 1; w >= 0; w--) if (spawn_set[w]) sp_w = WB'(w);
    rf_we = '0;
    rf_wa = {cw, rd_f, rd};
    for (int l = 0; l < LANES; l++) rf_wd[l] = res_q[l];
    if (wb && rwen_q && !call_split) rf_we = amask;
    if (st == S_TRD && rwen_q) rf_we = tdone_q;
    if (st == S_SPAWN && spawn_set != '0 && !ws_q) begin
      rf_we = FULL;
      rf_wa = {sp_w, 1'b0, 5'd10};
      for (int l = 0; l < LANES; l++) rf_wd[l] = spawn_args;
    end
    div_start = st == S_EXEC && is_div;
    mul_start = st == S_EXEC && is_mul;
  end

  // ---- the FPU (weft_fpu.sv): one lane per cycle ----------------------------------------------
  // fp_pend: lanes still to feed, fp_fed: fed, fp_wait: fed and not back yet; a lane's
  // rounding mode is the instruction's, or (7) its frm; an invalid one traps (fp_bad).
  logic [LANES-1:0] fp_pend, fp_fed, fp_wait, fp_badl;
  logic             fp_bad, fpu_rdy, fpu_ov;
  logic [LB-1:0]    fpu_tag, ftag;
  logic [31:0]      fpu_y, fa, fb, fc;
  logic [4:0]       fpu_fl;
  logic [2:0]       frm_sel;
  wire  [LANES-1:0] fp_low = fp_pend & ~(fp_pend - LANES'(1));
  wire              fpu_in = st == S_FPU && fp_pend != '0 && fpu_rdy;
  wire  [LANES-1:0] fpu_tag_oh = LANES'(1) << fpu_tag;
  always_comb begin
    fa = '0;
    fb = '0;
    fc = '0;
    frm_sel = '0;
    ftag = '0;
    for (int l = 0; l < LANES; l++) begin
      fp_badl[l] = is_fp && fp_rm && amask[l] && (f3 == 3'd7 ? frm_l[l*3 +: 3] : f3) > 3'd4;
      if (fp_low[l]) begin
        fa = fa | rv1[l];
        fb = fb | rv2[l];
        fc = fc | rv3[l];
        frm_sel = frm_sel | (f3 == 3'd7 ? frm_l[l*3 +: 3] : f3);
        ftag = ftag | LB'(l);
      end
    end
  end
  weft_fpu #(.TW(LB)) fpu (
      .clk, .rst, .in_v(fpu_in), .in_op(fop), .in_rm(frm_sel), .in_a(fa), .in_b(fb), .in_c(fc),
      .in_tag(ftag), .ready(fpu_rdy), .out_v(fpu_ov), .out_tag(fpu_tag), .out_y(fpu_y),
      .out_fl(fpu_fl));

  // ---- Vortex's SIMT instructions (weft_vx.sv) ---------------------------------------------
  logic             vx_mw, vx_halt, vx_pcw, vx_over, vx_under, lk_hit;
  logic [LANES-1:0] vx_mask, vx_use, lb_c;
  logic [31:0]      vx_npc, vx_val, vx_u1q, vx_u2q;   // (wspawn's count and target)
  logic [LANES*LB-1:0] vx_src;
  logic [LANES*18-1:0] ctl_c;
  logic [LANES*LANES-1:0] lm_c, vx_vl;
  logic             vx_sync;
  logic [LB:0]      ip_len;
  logic [LB-1:0]    lk_q;
  wire  [LANES-1:0] ml_low = pend_q & ~(pend_q - LANES'(1));   // shfl's lane
  always_comb
    for (int l = 0; l < LANES; l++) begin
      lb_c[l] = rv1[l][0];
      ctl_c[l*18 +: 18] = rv2[l][17:0];
      lm_c[l*LANES +: LANES] = rv2[l][LANES-1:0];
    end
  weft_vx #(.WARPS(WARPS), .LANES(LANES)) vx (
      .clk, .rst, .w(cw), .amask, .lb(lb_c), .ctl(ctl_c), .lm(lm_c), .u1(vx_u1),
      .u2(vx_u2[LANES-1:0]),
      .rd_z(rd == 5'd0), .rs2_z(rs2 == 5'd0), .f3(f3[1:0]), .pc(rpc_q), .is_tmc, .is_pred,
      .is_split, .is_join, .is_vote, .exec(st == S_EXEC), .mw(vx_mw), .mask(vx_mask),
      .halt(vx_halt), .pcw(vx_pcw), .npc(vx_npc), .val(vx_val), .vl(vx_vl), .sync(vx_sync),
      .over(vx_over),
      .under(vx_under), .sh_src(vx_src), .sh_use(vx_use), .wb(wb && (is_split || is_join)),
      .lk_on(st == S_LOST), .lk(lk_q), .lk_hit, .len_w(ip_len),
      .clear(st == S_SPAWN && spawn_set != '0), .clear_w(sp_w));

  // ---- the state machine -------------------------------------------------------------------
  weft_sched #(.WARPS(WARPS)) sched (
      .clk, .rst, .ready(run_q & ~bwait_q & ~bstop_q), .take(st == S_PICK), .pick, .pick_ok
  );

  // A fault ends the run: record it, stop the warp, report the instruction. With mtvec set,
  // the exceptions of docs/isa.md §8.5 trap instead: mepc, mcause, mtval, pc = mtvec, the
  // mask kept; the instruction retires with rd as it was (an atomic's lanes before the
  // trapping one keep what they wrote). A word that does not decode traps without a record
  // (the model's fetch refuses it before issue). The fault is registered here and taken in
  // S_FAULT, from flip-flops.
  // A barrier arrival in write-back (b_*: registered in execute): BARRIER_FAULT, a global
  // barrier (this core alone meets it), the last arrival releasing everyone waiting, or a
  // wait.
  task automatic barrier();
    if (b_bad) begin
      rwen_q <= 1'b0;
      do_fault(5'd15, 32'd0);   // BARRIER_FAULT
    end else if (b_glob) ;
    else if (32'(bar_n) >= b_cnt) begin
      barr_q[bar_id] <= '0;
      for (int w = 0; w < WARPS; w++)
        if (bid_q[w] == bar_id) bwait_q[w] <= 1'b0;
    end else begin
      barr_q[bar_id] <= bar_arr;
      bwait_q[cw] <= 1'b1;
      bid_q[cw] <= bar_id;
    end
  endtask

  // the warp halts: no group left to run
  task automatic halt_warp();
    mask_q[cw] <= '0;
    run_q[cw] <= 1'b0;
    done_q[cw] <= 1'b1;
    st <= S_RETIRE;
  endtask

  task automatic do_fault(input logic [4:0] code, input logic [31:0] addr);
    fq_code <= code;
    fq_addr <= addr;
    fq_pc <= pc;
    fq_dec <= st == S_OPND;
    fq_mem <= st == S_MEM && is_atom;
    fq_fp <= st == S_FPU;
    st <= S_FAULT;
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      st <= S_PICK;
      run_q <= '0;
      run_q[0] <= 1'b1;
      done_q <= '0;
      cw <= '0;
      bstop_q <= '0;
      spawn_set <= '0;
      rfault_q <= 5'd0;
      unsup_q <= 1'b0;
      uwhy_q <= 2'd0;
      rwen_q <= 1'b0;
      rsil_q <= 1'b0;
      pre_q <= 1'b0;
      retq <= 1'b0;
      aph <= 1'b0;
      xph <= 1'b0;
      ws_q <= 1'b0;
      tr_q <= 1'b0;
      tr_flt <= 1'b0;
      tr_bpt <= 1'b0;
      tr_wdx <= 1'b0;
      lreq <= 1'b0;
      lack <= 1'b0;
      bwait_q <= '0;
      for (int b = 0; b < BARRIERS; b++) barr_q[b] <= '0;
      for (int w = 0; w < WARPS; w++) begin
        resv_v[w] <= '0;
        pc_q[w] <= entry_pc;
        mask_q[w] <= (w == 0) ? LANES'(1) : '0;
      end
    end else begin
      case (st)
        S_PICK: if (pick_ok) begin
          cw <= pick;
          rtrap_q <= 1'b0;
          rfault_q <= 5'd0;
          unsup_q <= 1'b0;
          uwhy_q <= 2'd0;
          rwen_q <= 1'b0;
          rsil_q <= 1'b0;
          pre_q <= 1'b0;
          retq <= 1'b0;
          st <= S_CHECK;
        end else st <= S_HALT;
        S_CHECK: if (chk_go) begin
          // before issue: an At point, then the breakpoint, then the watchdog (crates/simt
          // exec.rs pre_issue), registered for S_CHKD
          ck_at <= chk_at;
          ck_bpt <= bpc != 32'd0 && bpc == pc;
          st <= S_CHKD;
        end
        S_CHKD: begin
          rpc_q <= pc;
          rmask_q <= amask;
          cmp_q <= 1'b0;
          cill_q <= 1'b0;
          fh_q <= 1'b0;
          st <= S_FETCH;
          pre_q <= 1'b0;   // the instruction issues: a later S_SCHED ends it as usual
          if (ck_at) begin
            // a group reaching an At point of its activation parks there (to resume at it;
            // weft_diverge), groups waiting there park too, and the next group is scheduled;
            // the check repeats for it in the same slot
            pre_q <= 1'b1;
            st <= S_SCHED;
          end else if (chk_bpt) begin
            bstop_q[cw] <= 1'b1;          // no instruction: the slot passes (bpt: the record)
            st <= S_PICK;
          end else if (chk_wd) begin
            if (wd_hard) do_fault(5'd7, 32'd0);   // HARD: WATCHDOG
            else if (wd_soft_trap) begin          // SOFT: expired (wd_expire), maybe a trap
              pc_q[cw] <= mtvec;
              st <= S_TRAPPED;
            end
          end
        end
        S_FAULT: if (f_trap) begin
          pc_q[cw] <= mtvec;
          rtrap_q <= 1'b1;
          rwen_q <= writes_rd;
          rsil_q <= fq_dec;
          tdone_q <= fq_mem ? amask & ~pend_q : fq_fp ? fp_fed : '0;
          st <= fq_dec ? S_RETIRE : S_TRD;
        end else begin
          rfault_q <= fq_code;
          run_q[cw] <= 1'b0;
          st <= S_RETIRE;
        end
        S_TRAPPED: begin
          // the SOFT watchdog trapped: the warp issues from mtvec in the same slot
          rpc_q <= pc;
          cmp_q <= 1'b0;
          cill_q <= 1'b0;
          fh_q <= 1'b0;
          st <= S_FETCH;
        end
        S_FETCH: begin
          // four bytes at pc (any halfword alignment: the memory reads them); if that fails,
          // the halfword alone (a compressed instruction at the end of memory), as the model
          // reads two bytes first
          if (rpc_q[0]) do_fault(5'd2, rpc_q);
          else if (mem_ack) begin
            if (mem_err) begin
              if (!fh_q) fh_q <= 1'b1;
              else do_fault(5'd2, rpc_q);
            end else if (fh_q && mem_rdata[1:0] == 2'b11) do_fault(5'd2, rpc_q);
            else begin
              ir <= mem_rdata;
              st <= S_DECODE;
            end
          end
        end
        S_DECODE: begin
          if (ir[1:0] != 2'b11) begin
            // compressed: expand it (weft_rvc), decode the expansion in the next cycle
            ir <= {rvc_w[31:2], 2'b11};
            cmp_q <= 1'b1;
            cill_q <= rvc_ill;
          end else begin
            first_q <= first_lane;
            last_q <= last_lane;
            st <= S_OPND;
          end
        end
        S_OPND: begin
          // the operands reach rv1/rv2/rv3, the decoded classes are registered
          if (is_unsup) begin
            unsup_q <= 1'b1;
            st <= S_RETIRE;
          end else if (!known) do_fault(5'd1, 32'd0);
          else st <= S_EXEC;
        end
        S_EXEC: begin
          for (int l = 0; l < LANES; l++) res_q[l] <= alu_y[l];
          csr_new <= csr_new_c;
          taken <= br_t & amask;
          br_tgt <= br_tgt_c;
          pc4_q <= rpc_q + ilen;
          backward <= br_tgt_c <= rpc_q;
          pred <= amask & nz1;
          rwen_q <= writes_rd;
          pend_q <= amask;
          mph <= 2'd0;
          vx_u1q <= vx_u1;
          vx_u2q <= vx_u2;
          b_bad <= b_bad_c;
          b_glob <= is_bar && vx_u1[31];
          bar_id <= is_bar ? BB'(vx_u1) : BB'(csr_new_c);
          b_cnt <= is_bar ? vx_u2 : {16'd0, csr_new_c[31:16]};
          // the float operation's lanes: all active ones, or those before the first whose
          // dynamic rounding mode (frm) is invalid, which then traps
          fp_pend <= amask & (fp_badl == '0 ? FULL : (fp_badl & ~(fp_badl - LANES'(1))) - LANES'(1));
          fp_fed <= '0;
          fp_bad <= fp_badl != '0;
          fp_wait <= '0;
          fl_acc <= '0;
          if ((is_fp || is_fmem) && fs_off) do_fault(5'd1, 32'd0);   // mstatus.FS = Off
          else if (is_load || is_store || is_atom) st <= S_MEM;
          else if (is_div || is_mul) st <= S_DIV;
          else if (is_fp) st <= S_FPU;
          else if (is_shfl) st <= S_SHFL;
          else if (is_jal) begin
            for (int l = 0; l < LANES; l++) res_q[l] <= rpc_q + ilen;
            st <= S_WB;
          end else if (is_jalr) st <= S_JUMP;   // res_q: each lane's rs1 + imm (the ALU's add)
          else if (is_csr) begin
            if (!csr_ok || (csr_writes && csr_ro)) do_fault(5'd1, 32'd0);
            else if (csr_fp && fs_off) do_fault(5'd1, 32'd0);
            else begin
              for (int l = 0; l < LANES; l++) res_q[l] <= csr_lanes[l*32 +: 32];
              st <= S_WB;
            end
          end else if (is_ecall) do_fault(5'd10, 32'd0);
          else if (is_ebreak) do_fault(5'd8, 32'd0);
          else st <= S_WB;
        end
        S_MEM: begin
          if (!mem_any) st <= S_WB;
          else if (mph == 2'd0) begin
            ma_q <= rv1[mem_l] + mem_off;   // the lane's address
            ml_oh <= pend_q & ~(pend_q - LANES'(1));
            sd_q <= rv2[mem_l];
            mph <= 2'd1;
          end else if (mph == 2'd1) begin
            // what the request needs to know of the address
            win_q <= loc_off < 32'(LOCAL_WORDS * 4) &&
                     !(ma_cross && loc_off[SB+1:2] == SB'(LOCAL_WORDS - 1));
            smw_q <= loc_off[SB+1:2];
            wd_q <= is_amo ? amo_y : sd_q;
            cross_q <= ma_cross;
            amis_q <= ma_q[1:0] != 2'd0;
            scok_q <= resv_v[cw][mem_l] && resv_a[cw][mem_l] == ma_q[31:2];
            for (int w = 0; w < WARPS; w++)
              for (int l = 0; l < LANES; l++)
                hit_q[w][l] <= resv_a[w][l] == ma_q[31:2] || resv_a[w][l] == ma_endw;
            mph <= 2'd2;
          end else if (mph == 2'd3) begin
            // the answer, from flip-flops (rdq, rerr_q)
            if (rerr_q) do_fault((is_store || is_sc || is_amo) ? 5'd4 : 5'd3, ma_q);
            else if (is_amo && !aph) begin
              old_q <= rdq;
              for (int l = 0; l < LANES; l++) if (ml_oh[l]) res_q[l] <= rdq;
              aph <= 1'b1;
              mph <= 2'd1;   // the write's data (wd_q) from old_q
            end else begin
              for (int l = 0; l < LANES; l++)
                if (ml_oh[l]) begin
                  if (!is_amo) res_q[l] <= ld_v;   // (an AMO's rd has the word it read)
                  if (is_lr) begin
                    resv_a[cw][l] <= ma_q[31:2];
                    resv_v[cw][l] <= 1'b1;
                  end
                  if (is_sc) resv_v[cw][l] <= 1'b0;
                end
              aph <= 1'b0;
              xph <= 1'b0;
              pend_q <= pend_q & ~ml_oh;
              mph <= 2'd0;
            end
          end else if (is_atom && amis_q) do_fault(5'd11, ma_q);
          else if (is_sc && !scok_q) begin
            // no reservation on this word: no store, rd = 1
            for (int l = 0; l < LANES; l++)
              if (ml_oh[l]) begin
                res_q[l] <= 32'd1;
                resv_v[cw][l] <= 1'b0;
              end
            pend_q <= pend_q & ~ml_oh;
            mph <= 2'd0;
          end else if (m_ack && m_local && cross_q && !xph) begin
            xlo_q <= sm_rdata;   // the first of two shared-memory words
            xph <= 1'b1;
          end else if (m_ack) begin
            rdq <= m_rdata;      // the answer: taken in mph 3
            rerr_q <= m_err;
            mph <= 2'd3;
          end
        end
        S_JUMP: begin
          // a jalr: do the lanes' targets agree (a divergent indirect jump splits by target)
          jalr_t0 <= jalr_t0_c;
          jalr_agree <= jalr_agree_c;
          jalr_other <= jalr_other_c;
          jgo <= jgo_c;
          for (int l = 0; l < LANES; l++) res_q[l] <= pc4_q;
          st <= S_WB;
        end
        S_DIV: if (is_mul ? &mdone : &ddone) begin
          for (int l = 0; l < LANES; l++) res_q[l] <= is_mul ? mp[l] : f3[1] ? dr[l] : dq[l];
          st <= S_WB;
        end
        S_FPU: begin
          // the lanes go through the FPU one per cycle (fp_pend -> fp_wait), their results
          // come back into res_q and fl_acc; then write-back, or the trap of the first lane
          // whose rounding mode is invalid (the lanes before it have done their part)
          if (fpu_in) begin
            fp_pend <= fp_pend & ~fp_low;
            fp_fed <= fp_fed | fp_low;
          end
          fp_wait <= (fp_wait | (fpu_in ? fp_low : '0)) & ~(fpu_ov ? fpu_tag_oh : '0);
          if (fpu_ov)
            for (int l = 0; l < LANES; l++)
              if (fpu_tag_oh[l]) begin
                res_q[l] <= fpu_y;
                fl_acc[l*5 +: 5] <= fpu_fl;
              end
          if (fp_pend == '0 && fp_wait == '0) begin
            if (fp_bad) do_fault(5'd1, 32'd0);
            else st <= S_WB;
          end
        end
        S_SHFL: begin
          // shfl: one lane per cycle takes rs1 of its source lane (weft_vx's sh_src, sh_use)
          if (!mem_any) st <= S_WB;
          else begin
            for (int l = 0; l < LANES; l++)
              if (ml_low[l]) res_q[l] <= vx_use[l] ? rv1[vx_src[l*LB +: LB]] : rv1[l];
            pend_q <= pend_q & ~ml_low;
          end
        end
        S_WB: if (!wb_in && (is_vote || is_split)) begin
          // (its first cycle) rd: vote's value, split's token, decided in execute; a vote
          // whose member masks fault (SYNC_MASK) writes no rd
          for (int l = 0; l < LANES; l++)
            res_q[l] <= is_vote ? 32'(vx_vl[l*LANES +: LANES]) : vx_val;
          if (is_vote && vx_sync) rwen_q <= 1'b0;
        end else if (wb) begin
          st <= S_RETIRE;
          if (!d_ret_exit) pc_q[cw] <= wn_pc;   // (a return reaching AtExit keeps it)
          if (wn_mw || (wn_dv && !sp_full && !sp_unsup)) mask_q[cw] <= wn_mask;
          if (d_ret_exit) begin
            // a return reaching the AtExit point of its activation arrives there (d_arrive)
            // and keeps its pc; if the group that runs next is back at this return (the
            // entry popped), the return goes on with it (S_SCHED -> S_RETQ -> S_EXEC -> S_WB)
            retq <= 1'b1;
            st <= S_SCHED;
          end else if (is_jalr && !jump_split) begin
            if (!jalr_agree) begin
              rwen_q <= 1'b0;
              do_fault(5'd6, jalr_other);   // a return whose lanes disagree
            end                             // (else a call (d_call), a return (d_ret), a jump)
          end else if (is_br || is_jalr) begin
            // a conditional branch, or a divergent indirect jump (its lanes split by target)
            if (d_split) begin
              // split: the first group runs (wn_*); join an open entry or push one
              if (sp_full) do_fault(5'd5, 32'd0);   // DIVERGE_OVERFLOW
              else if (sp_unsup) begin
                unsup_q <= 1'b1;
                uwhy_q <= sp_why;
              end
              if (call_split && !sp_full && !sp_unsup) begin
                // the call (d_call): the running lanes link rd and enter the callee; the
                // record shows the others' rd as it was (read back through S_TRD)
                tdone_q <= jgo;
                st <= S_TRD;
              end
            end
          end else if (is_divg) begin
            if (pred == '0) do_fault(5'd9, 32'd0);
            else if (pred != amask) begin
              // the other lanes wait at the label in a new entry (d_split, push only); the
              // mask becomes pred (wn_dv) unless the entry has no room
              if (sp_full) do_fault(5'd5, 32'd0);
              else if (sp_unsup) begin
                unsup_q <= 1'b1;
                uwhy_q <= sp_why;
              end
            end
          end else if (is_conv) begin
            // arrive (d_arrive): park here, leave the entries above, then schedule
            if (conv_hit) st <= S_SCHED;
          end else if (is_bar) barrier();
          else if (is_tmc || is_pred) begin
            if (vx_halt) st <= S_SCHED;     // the group halts (d_retire)
          end else if (is_split) begin
            if (vx_over) do_fault(5'd12, 32'd0);    // IPDOM_OVERFLOW
          end else if (is_join) begin
            if (vx_under) do_fault(5'd13, 32'd0);   // IPDOM_UNDERFLOW
          end else if (is_vote) begin
            if (vx_sync) do_fault(5'd18, 32'd0);    // SYNC_MASK
          end else if (is_wspawn) begin
            // warps 1 .. count - 1 that are not running start at the target, lane 0 only
            if (vx_u1q > 32'(WARPS)) do_fault(5'd14, 32'd0);   // SPAWN_FAULT
            else begin
              for (int w = 1; w < WARPS; w++)
                if (32'(w) < vx_u1q && !run_q[w]) begin
                  spawn_set[w] <= 1'b1;
                  done_q[w] <= 1'b0;
                end
              ws_q <= 1'b1;
              st <= S_SPAWN;
            end
          end else if (is_csr) begin
            // (the bank's own CSRs are written by weft_csr, from wb && is_csr)
            if (csr == 12'h801 && csr_reads) done_q <= '0;
            if (!csr_fp && csr_writes) begin
              case (csr)
                12'h801: done_q <= (csr_reads ? '0 : done_q) & ~csr_new[WARPS-1:0];
                12'h848: begin
                  // the one cross-warp write: a stopped target resumes if it moved away
                  if (bstop_q[xw] && pc_q[xw] != csr_new) bstop_q[xw] <= 1'b0;
                end
                12'h805: barrier();
                12'h810: if (csr_new >= WARPS) begin
                  rwen_q <= 1'b0;
                  do_fault(5'd1, 32'd0);
                end
                12'h804: if ((csr_new[LANES-1:0]) == '0) begin
                  // halt this group: its lanes leave every entry (d_retire); (else the
                  // mask is written: wn_*)
                  st <= S_SCHED;
                end
                12'h800: begin
                  for (int w = 0; w < WARPS; w++)
                    if (csr_new[w] && (!run_q[w] || w == int'(cw))) begin
                      spawn_set[w] <= 1'b1;
                      done_q[w] <= 1'b0;
                    end
                  st <= S_SPAWN;
                end
                default: ;
              endcase
            end
          end
        end
        S_SPAWN: begin
          // start one activated warp per cycle, its stacks empty: warp_active's at spawn_pc
          // with every lane and a0 = spawn_args, wspawn's (ws_q) at its target with lane 0
          if (spawn_set == '0) begin
            ws_q <= 1'b0;
            st <= S_RETIRE;
          end else begin
            spawn_set[sp_w] <= 1'b0;
            run_q[sp_w] <= 1'b1;
            pc_q[sp_w] <= ws_q ? vx_u2q : spawn_pc;
            mask_q[sp_w] <= ws_q ? LANES'(1) : FULL;
            resv_v[sp_w] <= '0;
          end
        end
        S_SCHED: if (!dv_busy && sc_ready) begin
          // the top entry has no running lanes: run its waiting group, or pop it (weft_diverge;
          // once the lanes that arrived or halted have left the entries); the warp halts when
          // none is left, unless lanes still wait in its IPDOM stack (S_LOST looks)
          if (sc_empty) begin
            if (ip_len != '0) begin
              lk_q <= '0;
              st <= S_LOST;
            end else halt_warp();
          end else if (sc_go) begin
            mask_q[cw] <= sc_mask;
            pc_q[cw] <= sc_pc;
            st <= pre_q ? S_CHECK : retq ? S_RETQ : S_RETIRE;
          end
        end
        // after a return reached its AtExit point: if the group now running is back at the
        // return, it goes on with the lanes together (executes it again from S_EXEC)
        S_RETQ: begin
          first_q <= first_lane;
          last_q <= last_lane;
          st <= (pc == rpc_q) ? S_EXEC : S_RETIRE;
        end
        // a halting group (tmc, pred, tmask): LANES_LOST if a split's other lanes have still
        // to run (an entry not fallen through with lanes outside the group); one entry per
        // cycle
        S_LOST: begin
          if (lk_hit) begin
            do_fault(5'd16, 32'd0);
            fq_pc <= rpc_q;
          end else if ((LB + 1)'(lk_q) + (LB + 1)'(1) >= ip_len) halt_warp();
          else lk_q <= lk_q + LB'(1);
        end
        S_TRD: st <= S_TRR;   // rr1 reads rd; the atomic's finished lanes are written
        S_TRR: st <= S_TRW;   // rd reaches rv1
        S_TRW: begin
          for (int l = 0; l < LANES; l++) if (!tdone_q[l]) res_q[l] <= rv1[l];
          st <= S_RETIRE;
        end
        S_RETIRE: begin
          st <= (rfault_q != 5'd0 || unsup_q) ? S_HALT : S_PICK;
        end
        default: ;  // S_HALT: the run is over
      endcase
      // write-back's next pc and mask (wb writes them from S_WB's second cycle on)
      wb_in <= st == S_WB;
      wn_pc <= wn_pc_c;
      wn_mask <= wn_mask_c;
      wn_mw <= wn_mw_c;
      wn_dv <= divg_c;
      wn_split <= split_c;
      tr_q <= (st == S_FAULT && f_trap) || wd_soft_trap;
      tr_cause <= st == S_FAULT ? f_cause : 32'h8000_0010;
      tr_epc <= st == S_FAULT ? fq_pc : pc;
      tr_tval <= (fq_code == 5'd3 || fq_code == 5'd4 || fq_code == 5'd11) ? fq_addr : 32'd0;
      tr_tvwe <= st == S_FAULT;
      tr_flt <= st == S_FAULT && !f_trap;
      tr_bpt <= chk_bpt;
      tr_wdx <= chk_wd && !wd_hard;
      lreq <= sm_en;   // (weft_smem answers two cycles after its request)
      lack <= lreq;
      // a store breaks every reservation on a word it touches (this lane's own included)
      if (m_req && mem_we && m_ack && !m_err)
        for (int w = 0; w < WARPS; w++)
          for (int l = 0; l < LANES; l++)
            if (hit_q[w][l]) resv_v[w][l] <= 1'b0;
    end
  end
endmodule
