// weft_csr.sv -- the CSR bank of a weft core (docs/isa.md §4, §8; docs/rtl.md): the per-warp
// machine CSRs (mstatus, mtvec, mscratch, mepc, mcause, mtval, mie, mip, medeleg, mideleg),
// the per-lane float CSRs (fflags, frm, fcsr), warp-core's registers (spawn_pc, spawn_args,
// the fault record, xwarp and the cross-warp window, launch, watchdog, watchdog_limit,
// break_pc, the cycle_hi latch), the counters (cycle/mcycle, instret/minstret, the issue slots,
// mhpmcounter3..20) and the display timing model behind scanline and display_frames.
//
// The read is registered: `rd_en` (the core's decode cycle) samples the CSR the instruction
// names, for warp `w`, into `rdata` (with `ok`, `ro`) and each lane's value into `lrdata`
// (the per-lane CSRs: fflags, frm, fcsr, thread_id, mhartid; every other CSR gives `rdata` on
// every lane). Nothing the read sees changes between decode and execute. The warp state the
// core keeps (pc, thread mask, warp_active, warp_done, divergence-stack depths) comes in to
// be read; the cross-warp window reads warp `xw`'s without side effects. (`call_depth` is
// the divergence unit's: read here, written there.)
//
// Writes: the CSR instruction's write-back (`wb_en`) with the new value; a trap to mtvec
// (`trap`: mepc, mcause, mtval of w); a fault record (`flt`: fault_code, fault_pc,
// fault_addr of w); a breakpoint stop (`bpt`: fault_code 8 and fault_pc); a SOFT watchdog
// expiry (`wd_expire`); a float instruction's flags (`fl_we`: each lane of fl_mask ORs its
// five bits of fl_bits into its fflags) and its use of the float state (`fs_dirty`:
// mstatus.FS becomes Dirty). `tick` is a pick (an issue slot: the cycle counts it, the
// display's beam moves), `retire` a retired instruction (`retire_mask` its lanes). `frm` is
// every lane's dynamic rounding mode, for warp w. With EXT_DISPLAY (the board: a display
// controller, rtl/board/weft_display.sv) scanline reads its line and display_frames counts
// its vblanks instead of the timing model's.
module weft_csr #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int BARRIERS = 16,
    parameter logic [31:0] LOCAL_BASE = 32'hff00_0000,
    parameter int CYCLES_PER_LINE = 800,
    parameter int LINES_PER_FRAME = 525,
    parameter int VISIBLE_LINES = 480,
    parameter bit EXT_DISPLAY = 1'b0,         // scanline/display_frames from ext_line/ext_vbl
    parameter int DB = 4,                     // divergence-stack depth bits
    parameter int WB = (WARPS > 1) ? $clog2(WARPS) : 1
) (
    input  logic                 clk,
    input  logic                 rst,
    input  logic [31:0]          entry_pc,    // spawn_pc after reset
    input  logic [WB-1:0]        w,           // the warp being issued
    input  logic                 tick,        // the scheduler picks a warp this cycle
    input  logic                 retire,      // an instruction retires (instret)
    input  logic [15:0]          ext_line,    // with EXT_DISPLAY: the display's line, and
    input  logic                 ext_vbl,     // a pulse as its vblank begins
    input  logic [LANES-1:0]     retire_mask, // its thread mask (mhpmcounter3 counts lanes)
    // the warp state kept by the core, read through the CSRs
    input  logic [31:0]          pc,          // pc of w
    input  logic [LANES-1:0]     mask,        // thread mask of w
    input  logic [31:0]          xpc,         // pc of xw
    input  logic [LANES-1:0]     xmask,       // thread mask of xw
    input  logic [WARPS-1:0]     run,         // warp_active
    input  logic [WARPS-1:0]     done,        // warp_done
    input  logic [DB-1:0]        len_w,       // divergence-stack depth of w
    input  logic [DB-1:0]        len_x,       // ... of xw
    input  logic [15:0]          cdep_w,      // call depth of w (call_depth; the divergence
                                              // unit takes its writes)
    // the read, sampled when rd_en
    input  logic                 rd_en,
    input  logic [11:0]          csr,
    output logic [31:0]          rdata,
    output logic [LANES*32-1:0]  lrdata,
    output logic                 ok,          // the CSR exists
    output logic                 ro,          // it is read-only
    // the write-back of a CSR instruction of w: writes (csrrw, or rs1/uimm != 0), reads
    // (rd != x0 or not csrrw), the new value, and for the per-lane float CSRs each lane's
    // operand (bits 7:0 of rs1, or the uimm) and the operation (f3[1:0])
    input  logic                 wb_en,
    input  logic                 writes,
    input  logic                 reads,
    input  logic [31:0]          wdata,
    input  logic [1:0]           op,
    input  logic [LANES*8-1:0]   lopnd,
    // a float instruction of w: FS becomes Dirty; its lanes' flags accrue
    input  logic                 fs_dirty,
    input  logic                 fl_we,
    input  logic [LANES-1:0]     fl_mask,
    input  logic [LANES*5-1:0]   fl_bits,
    output logic [LANES*3-1:0]   frm,
    // a trap to mtvec, a fault record, a breakpoint stop, a SOFT watchdog expiry (of w)
    input  logic                 trap,
    input  logic [31:0]          trap_cause,
    input  logic [31:0]          trap_epc,
    input  logic [31:0]          trap_tval,
    input  logic                 trap_tval_we, // (a SOFT watchdog trap leaves mtval)
    input  logic                 flt,
    input  logic [4:0]           flt_code,
    input  logic [31:0]          flt_pc,
    input  logic [31:0]          flt_addr,
    input  logic                 bpt,
    input  logic                 wd_expire,
    // what the core needs of w
    output logic [WB-1:0]        xw,          // xwarp
    output logic [31:0]          mtvec,
    output logic [31:0]          mepc,
    output logic                 fs_off,      // mstatus.FS = Off
    output logic [31:0]          bpc,         // break_pc
    output logic                 wd_fire,     // the watchdog expires at w's check (registered)
    output logic                 wd_hard,     // in HARD mode (else SOFT)
    output logic                 wd_trap,     // mie bit 16: a SOFT expiry traps
    output logic [31:0]          spawn_pc,
    output logic [31:0]          spawn_args
);
  logic [31:0] mstatus_q [WARPS], mscratch_q [WARPS], mtvec_q [WARPS];
  logic [31:0] mepc_q [WARPS], mcause_q [WARPS], mtval_q [WARPS];
  logic [31:0] fcode_q [WARPS], fpc_q [WARPS], faddr_q [WARPS];
  logic [31:0] mie_q [WARPS], mip_q [WARPS], medeleg_q [WARPS], mideleg_q [WARPS];
  logic [WB-1:0] xwarp_q [WARPS];
  // {frm, fflags} of every lane (the lockstep testbench reads the flags after each retire)
  logic [7:0]  fcsr_q [WARPS][LANES] /*verilator public_flat_rd*/;
  logic [31:0] spawn_pc_q, spawn_args_q;
  logic [31:0] launch_q;                   // launches begun (the launch CSR, 0x813)
  // watchdog (docs/isa.md §4.5), breakpoints (§4.4), the cycle_hi latch (§4.7)
  logic [31:0] wdog_q [WARPS], wlim_q [WARPS], bpc_q [WARPS], chi_q [WARPS];
  logic [63:0] kick_q [WARPS];
  // counters: issue slots (+1 per pick, the model's cycle + 1), the cycle the current warp
  // issued in, what mcycle writes added (cycle_lo, the watchdog and the display model count
  // the plain cycle), retired instructions
  logic [63:0] slots_q, cyc_now, cyc_off_q, instret_q;
  // retired thread-instructions (mhpmcounter3: each retired instruction counts its active
  // lanes; the other counters count the timing model's events and read 0, as in the
  // functional model)
  logic [63:0] tinst_q;
  logic [5:0]  retire_n;                     // (LANES <= 32)
  always_comb begin
    retire_n = 6'd0;
    for (int l = 0; l < LANES; l++) retire_n = retire_n + 6'(retire_mask[l]);
  end
  wire  [63:0] mcyc = cyc_now + cyc_off_q;
  // the beam at cycle slots_q (position in the line, line), the line of the current cycle,
  // and the vblanks counted while a warp was started
  logic [15:0] bx_q, by_q, line_q;
  logic [31:0] frames_q;

  assign xw = xwarp_q[w];
  assign mtvec = mtvec_q[w];
  assign mepc = mepc_q[w];
  assign fs_off = mstatus_q[w][14:13] == 2'b00;
  assign bpc = bpc_q[w];
  assign wd_hard = wdog_q[w][1:0] == 2'd1;
  assign wd_trap = mie_q[w][16];
  always_comb for (int l = 0; l < LANES; l++) frm[l*3 +: 3] = fcsr_q[w][l][7:5];
  assign spawn_pc = spawn_pc_q;
  assign spawn_args = spawn_args_q;

  // ---- the read ------------------------------------------------------------------------------
  logic [31:0] old;
  logic        old_ok, old_ro;
  wire         is_fp = csr == 12'h001 || csr == 12'h002 || csr == 12'h003;
  always_comb begin
    old = 32'd0;
    old_ok = 1'b1;
    old_ro = 1'b0;
    case (csr)
      12'h001, 12'h002, 12'h003: ;                            // per lane, below
      12'hcc0, 12'hf14: old_ro = 1'b1;                        // per lane, below
      12'h180, 12'h3a0, 12'h3b0, 12'h7a0, 12'h7a1, 12'h7a2, 12'h7a3: ;  // read 0
      12'h300: old = mstatus_q[w] | 32'h1800 |
                     ((mstatus_q[w][14:13] == 2'b11) ? 32'h8000_0000 : 32'd0);
      12'h301: old = 32'h4000_1125;                           // misa RV32IMAFC (+A,F: the ISA's)
      12'h302: old = medeleg_q[w];
      12'h303: old = mideleg_q[w];
      12'h304: old = mie_q[w];
      12'h305: old = mtvec_q[w];
      12'h340: old = mscratch_q[w];
      12'h341: old = mepc_q[w];
      12'h342: old = mcause_q[w];
      12'h343: old = mtval_q[w];
      12'h344: old = mip_q[w];
      12'h800, 12'hcc3: old = 32'(run);
      12'h801: old = 32'(done);
      12'h802: old = spawn_pc_q;
      12'h803: old = spawn_args_q;
      12'h804: old = 32'(mask);
      12'h805: old = BARRIERS;
      12'h806: old = wdog_q[w];
      12'h807: old = wlim_q[w];
      12'h808: old = bpc_q[w];
      12'h809: begin old = fcode_q[w]; old_ro = 1'b1; end
      12'h80a: begin old = fpc_q[w]; old_ro = 1'b1; end
      12'h80b: begin old = faddr_q[w]; old_ro = 1'b1; end
      12'h80c: begin old = 32'(line_q); old_ro = 1'b1; end
      12'h80d: begin old = frames_q; old_ro = 1'b1; end
      12'h80e: begin old = cyc_now[31:0]; old_ro = 1'b1; end
      12'h80f: begin old = chi_q[w]; old_ro = 1'b1; end
      12'h810: old = 32'(xw);
      12'h811: begin old = pc; old_ro = 1'b1; end
      12'h812: begin old = 32'(len_w); old_ro = 1'b1; end
      12'h813: old = launch_q;
      12'h814: old = 32'(cdep_w);
      // the cross-warp window: warp xw's, without side effects
      12'h840: begin old = 32'(run); old_ro = 1'b1; end
      12'h841: begin old = 32'(done); old_ro = 1'b1; end
      12'h844: begin old = 32'(xmask); old_ro = 1'b1; end
      12'h846: begin old = wdog_q[xw]; old_ro = 1'b1; end
      12'h848: old = bpc_q[xw];
      12'h849: begin old = fcode_q[xw]; old_ro = 1'b1; end
      12'h84a: begin old = fpc_q[xw]; old_ro = 1'b1; end
      12'h84b: begin old = faddr_q[xw]; old_ro = 1'b1; end
      12'h84e: begin old = cyc_now[31:0]; old_ro = 1'b1; end
      12'h84f: begin old = chi_q[xw]; old_ro = 1'b1; end
      12'h851: begin old = xpc; old_ro = 1'b1; end
      12'h852: begin old = 32'(len_x); old_ro = 1'b1; end
      // cycle: the issue slots before this one (docs/rtl.md); instret: retired before it
      12'hb00, 12'hc00, 12'hc01: begin old = mcyc[31:0]; old_ro = csr[11:8] == 4'hc; end
      12'hb80, 12'hc80, 12'hc81: begin old = mcyc[63:32]; old_ro = csr[11:8] == 4'hc; end
      12'hb02, 12'hc02: begin old = instret_q[31:0]; old_ro = csr[11:8] == 4'hc; end
      12'hb82, 12'hc82: begin old = instret_q[63:32]; old_ro = csr[11:8] == 4'hc; end
      12'hcc1: begin old = 32'(w); old_ro = 1'b1; end
      12'hcc2: old_ro = 1'b1;
      12'hcc4: begin old = 32'(mask); old_ro = 1'b1; end
      12'hf11: old_ro = 1'b1;
      12'hf12: begin old = 32'h7765_6674; old_ro = 1'b1; end
      12'hf13: begin old = 32'd1; old_ro = 1'b1; end
      12'hfc0: begin old = LANES; old_ro = 1'b1; end
      12'hfc1: begin old = WARPS; old_ro = 1'b1; end
      12'hfc2: begin old = 32'd1; old_ro = 1'b1; end
      12'hfc3: begin old = LOCAL_BASE; old_ro = 1'b1; end
      12'hfc4: begin old = BARRIERS; old_ro = 1'b1; end
      // mhpmcounter3..20, hpmcounter3..20 and their high halves (docs/isa.md §4)
      default:
        if ((csr[11:8] == 4'hb || csr[11:8] == 4'hc) && csr[6:5] == 2'b00 &&
            csr[4:0] >= 5'd3 && csr[4:0] <= 5'd20) begin
          old = (csr[4:0] != 5'd3) ? 32'd0 : csr[7] ? tinst_q[63:32] : tinst_q[31:0];
          old_ro = 1'b1;
        end else old_ok = 1'b0;
    endcase
  end

  always_ff @(posedge clk)
    if (rd_en) begin
      rdata <= old;
      ok <= old_ok;
      ro <= old_ro;
      for (int l = 0; l < LANES; l++)
        case (csr)
          12'h001: lrdata[l*32 +: 32] <= {27'd0, fcsr_q[w][l][4:0]};
          12'h002: lrdata[l*32 +: 32] <= {29'd0, fcsr_q[w][l][7:5]};
          12'h003: lrdata[l*32 +: 32] <= {24'd0, fcsr_q[w][l]};
          12'hcc0: lrdata[l*32 +: 32] <= 32'(l);
          12'hf14: lrdata[l*32 +: 32] <= 32'(int'(w) * LANES + l);
          default: lrdata[l*32 +: 32] <= old;
        endcase
    end

  // per-lane float CSRs (fflags, frm, fcsr): each lane combines its own operand
  logic [7:0] fcsr_nx [LANES];
  always_comb
    for (int l = 0; l < LANES; l++) begin
      logic [7:0] o, v, n;
      o = (csr == 12'h001) ? {3'd0, fcsr_q[w][l][4:0]} :
          (csr == 12'h002) ? {5'd0, fcsr_q[w][l][7:5]} : fcsr_q[w][l];
      v = lopnd[l*8 +: 8];
      case (op)
        2'd1: n = v;
        2'd2: n = o | v;
        default: n = o & ~v;
      endcase
      fcsr_nx[l] = (csr == 12'h001) ? {fcsr_q[w][l][7:5], n[4:0]} :
                   (csr == 12'h002) ? {n[2:0], fcsr_q[w][l][4:0]} : n;
    end

  // ---- the watchdog check, registered: valid the cycle after w's check before issue ------
  // (crates/simt exec.rs pre_issue: mode HARD or SOFT, a limit, not expired yet, more than
  // `limit` cycles since the last kick, at the cycle w issues in). The core reads it in
  // S_CHKD, after S_CHECK, where w and cyc_now are the issuing warp's and nothing writes them.
  always_ff @(posedge clk)
    wd_fire <= (wdog_q[w][1:0] == 2'd1 || wdog_q[w][1:0] == 2'd2) && wlim_q[w] != 32'd0 &&
               !wdog_q[w][31] && cyc_now - kick_q[w] > {32'd0, wlim_q[w]};

  // ---- the writes ----------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      spawn_pc_q <= entry_pc;
      spawn_args_q <= 32'd0;
      launch_q <= 32'd0;
      instret_q <= 64'd0;
      tinst_q <= 64'd0;
      slots_q <= 64'd0;
      cyc_now <= '1;
      cyc_off_q <= 64'd0;
      bx_q <= 16'd0;
      by_q <= 16'd0;
      line_q <= 16'd0;
      frames_q <= 32'd0;
      for (int i = 0; i < WARPS; i++) begin
        mstatus_q[i] <= 32'h2000;            // FS = Initial
        mscratch_q[i] <= 32'd0;
        mtvec_q[i] <= 32'd0;
        mepc_q[i] <= 32'd0;
        mcause_q[i] <= 32'd0;
        mtval_q[i] <= 32'd0;
        fcode_q[i] <= 32'd0;
        fpc_q[i] <= 32'd0;
        faddr_q[i] <= 32'd0;
        xwarp_q[i] <= '0;
        wdog_q[i] <= 32'd0;
        wlim_q[i] <= 32'd0;
        bpc_q[i] <= 32'd0;
        chi_q[i] <= 32'd0;
        kick_q[i] <= 64'd0;
        mie_q[i] <= 32'd0;
        mip_q[i] <= 32'd0;
        medeleg_q[i] <= 32'd0;
        mideleg_q[i] <= 32'd0;
        for (int l = 0; l < LANES; l++) fcsr_q[i][l] <= 8'd0;
      end
    end else begin
      if (tick) begin
        slots_q <= slots_q + 64'd1;
        cyc_now <= slots_q;
        // the display model's event at this cycle: a vblank counts if a warp is started
        if (!EXT_DISPLAY) line_q <= by_q;
        if (bx_q == 16'(CYCLES_PER_LINE - 1)) begin
          bx_q <= 16'd0;
          by_q <= (by_q == 16'(LINES_PER_FRAME - 1)) ? 16'd0 : by_q + 16'd1;
        end else bx_q <= bx_q + 16'd1;
        if (!EXT_DISPLAY && bx_q == 16'd0 && by_q == 16'(VISIBLE_LINES) && run != '0)
          frames_q <= frames_q + 32'd1;
      end
      // a display controller's beam instead (the board's): its line, and its vblanks
      if (EXT_DISPLAY) begin
        line_q <= ext_line;
        if (ext_vbl && run != '0) frames_q <= frames_q + 32'd1;
      end
      if (retire) begin
        instret_q <= instret_q + 64'd1;
        tinst_q <= tinst_q + 64'(retire_n);
      end
      if (fs_dirty) mstatus_q[w][14:13] <= 2'b11;
      if (fl_we)
        for (int l = 0; l < LANES; l++)
          if (fl_mask[l]) fcsr_q[w][l][4:0] <= fcsr_q[w][l][4:0] | fl_bits[l*5 +: 5];
      if (trap) begin
        mepc_q[w] <= trap_epc;
        mcause_q[w] <= trap_cause;
        if (trap_tval_we) mtval_q[w] <= trap_tval;
      end
      if (flt) begin
        fcode_q[w] <= 32'(flt_code);
        fpc_q[w] <= flt_pc;
        faddr_q[w] <= flt_addr;
      end
      if (bpt) begin
        fcode_q[w] <= 32'd8;
        fpc_q[w] <= pc;
      end
      if (wd_expire) wdog_q[w][31] <= 1'b1;
      if (wb_en) begin
        if (csr == 12'h80e && reads) chi_q[w] <= cyc_now[63:32];   // cycle_lo latches
        if (is_fp) begin
          mstatus_q[w][14:13] <= 2'b11;
          for (int l = 0; l < LANES; l++)
            if (mask[l] && writes) fcsr_q[w][l] <= fcsr_nx[l];
        end else if (writes) begin
          case (csr)
            12'h300: mstatus_q[w] <= wdata & 32'h0000_6088;
            12'h302: medeleg_q[w] <= wdata;
            12'h303: mideleg_q[w] <= wdata;
            12'h304: mie_q[w] <= wdata;
            12'h305: mtvec_q[w] <= wdata & ~32'd3;
            12'h340: mscratch_q[w] <= wdata;
            12'h341: mepc_q[w] <= wdata & ~32'd1;
            12'h342: mcause_q[w] <= wdata;
            12'h343: mtval_q[w] <= wdata;
            12'h344: mip_q[w] <= wdata;
            12'h802: spawn_pc_q <= wdata;
            12'h803: spawn_args_q <= wdata;
            12'h806: begin
              wdog_q[w] <= wdata & 32'h8000_0003;   // a kick
              kick_q[w] <= cyc_now;
            end
            12'h807: wlim_q[w] <= wdata;
            12'h808: bpc_q[w] <= wdata;
            12'h810: if (wdata < WARPS) xwarp_q[w] <= WB'(wdata);   // else the core faults
            // launch: a kernel's address begins a launch, 0 ends it; the CSR reads the
            // launches begun (each launch's statistics are the models', not kept here)
            12'h813: if (wdata != 32'd0) launch_q <= launch_q + 32'd1;
            12'h848: bpc_q[xw] <= wdata;   // the one cross-warp write
            // mcycle/minstret (and high halves): the next instruction sees the value written
            // (the writing one is not counted: retiring adds 1 to instret)
            12'hb00: cyc_off_q <= {mcyc[63:32], wdata} - cyc_now;
            12'hb80: cyc_off_q <= {wdata, mcyc[31:0]} - cyc_now;
            12'hb02: instret_q <= {instret_q[63:32], wdata} - 64'd1;
            12'hb82: instret_q <= {wdata, instret_q[31:0]} - 64'd1;
            default: ;   // warp_active, warp_done, tmask, barrier: the core's
          endcase
        end
      end
    end
  end
endmodule
