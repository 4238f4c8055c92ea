// weft_diverge.sv -- the divergence unit of a weft core (docs/isa.md §5-6, docs/rtl.md): every
// warp's divergence stack, its call stack of activations, and the core's reconvergence-table
// memory. It is the RTL of crates/simt/src/divergence.rs and the table half of control.rs.
//
// An entry holds: the region's lanes (saved), the lanes parked at its point and where they
// resume, up to WAITS waiting groups (mask and pc each; the next to run is the highest
// non-empty slot, a group at a pc already waiting joins that slot, a new group takes the
// slot after the highest non-empty one: slots emptied below it are not compacted), the
// source pc, where it reconverges (None: only `converge`; At(point); AtExit: a return from
// its activation), and its activation: the call depth, the activation id and the whole
// chain of ids below it (restored when one of its groups runs). Activation ids are AB-bit
// counters per warp, fresh for every call; an entry is "of the current activation" when its
// depth and id match the warp's. The chain is kept for the first CDEPTH call depths: calls
// deeper than that are counted, but a split there is reported as unsupported (sp_unsup), as
// is a new waiting group that finds no free slot; the model has neither limit.
//
// Storage: every field of every entry (the lane masks, its pcs, its kind, its activation
// and chain) is in distributed RAM, one row per entry of every warp, with one write port
// and one read port: the row the unit is looking at (the top entry while scheduling, the
// entry arrived at or joined), except the fields the searches compare, which have their own
// read port at the entry being searched. Both ports are addressed from registers: the main
// one's address (ra) is loaded a cycle ahead with the row the next cycle looks at. A rule
// that takes lanes out of many entries at once (a halt, an arrival, a join) walks them one
// row per cycle.
//
// The searches (a converge's branch, an At point before issue, an AtExit point at a return,
// the entry a split joins) look at one entry per clock cycle: while `sreq` is held the unit
// waits a cycle (unless the stack is empty), registers what the searches compare with (the
// warp's activation, pc, key, the split's kind and point), walks the warp's entries from the
// bottom in a copy of the fields they compare (its own read port, addressed by the entry
// counter alone), keeping the topmost hit of each, then addresses the entry a split would
// join and spends one cycle on what a join needs (a free waiting slot, the slot of a group
// at the same pc), and raises `found`; the
// results hold until `sreq` drops. The core holds `sreq` from its execute state through
// write-back, and in its check before issue, and gives a command that depends on a search
// only while `found` is set (the stack does not change meanwhile).
//
// The reconvergence table is a RAM of RT_WORDS 18-bit words, one per instruction slot from
// the loader's base (a side table of the code, like predecode bits): {offset[15:0],
// kind[1:0]}, kind 0 none, 1 At(pc + slot * offset) (offset signed), 2 AtExit, 3 a point this
// RTL cannot reach (a split there is unsupported); words past the loader's length read as
// none. A slot is 4 bytes of code, or 2 when the base's bit 0 is set (code with compressed
// instructions, whose branches and points can lie at halfword addresses); in word slots an
// instruction at a halfword address has no entry. It is written through the load port
// (rc_we) by the testbench or the board's loader and read with the issuing pc while the core
// fetches; the point is added up in the next cycle, from the block RAM's register, into
// registers of its own (the core uses them from execute). 16384 words (the default) cover
// 64 KiB of code in word slots (32 KiB in halfword slots) in 16 ECP5 block RAMs.
//
// The core gives at most one command per cycle for warp `w` (split, arrive, retire, sched,
// and call or ret with a split, or a write of the call depth, cd_we: the call_depth CSR);
// clear starts warp cw_clear with empty stacks.
module weft_diverge #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int DEPTH = 8,
    parameter int WAITS = 4,      // waiting groups per entry
    parameter int CDEPTH = 16,    // call depths whose activation ids are kept
    parameter int AB = 16,        // activation id bits
    parameter int RT_WORDS = 16384, // reconvergence-table words (instruction words covered)
    parameter int WB = (WARPS > 1) ? $clog2(WARPS) : 1,
    parameter int EB = (DEPTH > 1) ? $clog2(DEPTH) : 1,
    parameter int DB = $clog2(DEPTH + 1)
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WB-1:0]    w,          // the warp being issued
    input  logic [WB-1:0]    xw,         // the warp xw_dstack_depth reads
    input  logic [31:0]      pc,         // its pc (At(pc) arrivals; where an arrival is)
    input  logic [31:0]      key,        // a split's source pc, a converge's branch
    // the searches: held while the inputs they read (w, pc, key, kind, point, sec_pc,
    // push_only) are stable; found once the results below are valid
    input  logic             sreq,
    output logic             found,
    output logic             busy,       // lanes are leaving entries: no sched, no search
    output logic             conv_hit,   // the topmost entry of this activation made at key
    output logic [EB-1:0]    conv_k,
    output logic             at_hit,     // the topmost At(pc) entry of this activation
    output logic [EB-1:0]    at_k,
    output logic             exit_hit,   // the topmost AtExit entry of this activation
    output logic [EB-1:0]    exit_k,
    output logic [DB-1:0]    len_w,      // stack depths of w and xw
    output logic [DB-1:0]    len_x,
    // split: act splits at key, sec_m waits at sec_pc (parks, if that is the point); push_only
    // (`diverge`) never joins
    input  logic             split,
    input  logic             push_only,
    input  logic [LANES-1:0] act,
    input  logic [LANES-1:0] sec_m,
    input  logic [31:0]      sec_pc,
    input  logic [1:0]       kind,       // 0 None, 1 At(point), 2 AtExit (3: unsupported)
    input  logic [31:0]      point,
    output logic             sp_full,    // DIVERGE_OVERFLOW: nothing changes
    output logic             sp_unsup,   // beyond WAITS or CDEPTH: nothing changes
    output logic [1:0]       sp_why,     // why: 1 WAITS, 2 CDEPTH, 3 a point at a halfword
    // arrive: cur reaches entry ak's point at pc, to resume at resume_pc (registered: the
    // unit writes the entry in the next cycle, busy meanwhile); retire: cur halts
    input  logic             arrive,
    input  logic             retire,
    input  logic [EB-1:0]    ak,
    input  logic [LANES-1:0] cur,
    input  logic [31:0]      resume_pc,
    // one step of scheduling the top entry, in three cycles while `sched` is held: the unit
    // addresses the top entry, reads it and registers what it finds, then (sc_ready) takes
    // the step: a group to run (sc_go), or none left (sc_empty), or neither (an empty entry
    // was dropped: step again). The outputs hold while sc_ready.
    input  logic             sched,
    output logic             sc_ready,
    output logic             sc_go,
    output logic             sc_empty,
    output logic [LANES-1:0] sc_mask,
    output logic [31:0]      sc_pc,
    // activations
    input  logic             call,
    input  logic             ret,
    input  logic             clear,
    input  logic [WB-1:0]    cw_clear,
    // the call_depth CSR of w: a write of cd_wd (the activations up to the smaller depth
    // stay, the depths past the old one are fresh: they all take the next id, told apart by
    // their depths), and its value
    input  logic             cd_we,
    input  logic [15:0]      cd_wd,
    output logic [15:0]      cdep_w,
    // the reconvergence table: mode (0: converge mode, every lookup is none), window, load
    // port, and the lookup of the pc being fetched (t_kind, t_point valid from the second
    // cycle after the lookup until the cycle after the next one)
    input  logic             rc_mode,
    input  logic [31:0]      rc_base,
    input  logic [31:0]      rc_len,
    input  logic             rc_we,
    input  logic [15:0]      rc_wa,
    input  logic [17:0]      rc_wd,
    input  logic             lookup,
    input  logic [31:0]      lpc,        // the pc looked up (the core's fetch pc, rpc_q)
    output logic [1:0]       t_kind,
    output logic [31:0]      t_point
);
  localparam int CB = (CDEPTH > 1) ? $clog2(CDEPTH) : 1;
  localparam int SB = (WAITS > 1) ? $clog2(WAITS) : 1;
  localparam int TB = (RT_WORDS > 1) ? $clog2(RT_WORDS) : 1;
  localparam int RB = WB + EB;              // a row: {warp, entry}
  localparam int ROWS = 1 << RB;
  localparam int HW = (CDEPTH - 1) * AB;    // a chain: the ids of depths 1 .. CDEPTH-1
  localparam int MW = LANES * (2 + WAITS);  // an entry's masks: {waiting[WAITS], park, saved}

  // ---- flip-flops: depths and activation counters ------------------------------------------
  logic [DB-1:0]    len [WARPS];
  logic [15:0]      cdep [WARPS];
  logic [AB-1:0]    nid [WARPS];

  assign len_w = len[w];
  assign cdep_w = cdep[w];
  assign len_x = len[xw];

  // ---- the warp's call chain: one row per warp (the root's id, depth 0, is always 0) -------
  logic [HW-1:0] cs_m [WARPS];
  logic          cs_we;
  logic [HW-1:0] cs_wd;
  wire  [HW-1:0] cs_r = cs_m[w];
  always_ff @(posedge clk) if (cs_we) cs_m[w] <= cs_wd;
  wire          cur_ok = cdep[w] < 16'(CDEPTH);
  wire [CB-1:0] cd = CB'(cdep[w]);
  wire [AB-1:0] cur_id = cd == '0 ? '0 : cs_r[(int'(cd) - 1) * AB +: AB];
  wire [EB-1:0] top = EB'(len[w] - DB'(1));
  wire [EB-1:0] pu = EB'(len[w]);

  // ---- distributed RAM: one row per entry {w, e}, read at row ra ---------------------------
  logic          s_on, s_post, s_done;    // searching, the join's cycle, results valid
  logic          s_pa;                    // the row of the entry joined is addressed
  logic          s_arm;                   // the inputs settle: the search starts next cycle
  // what the searches compare with, registered when they start
  logic          s_ok, s_push;
  logic [CB-1:0] s_cd;
  logic [AB-1:0] s_id;
  logic [31:0]   s_pc, s_key, s_point;
  logic [1:0]    s_kind;
  logic [DB-1:0] s_i;                     // the entry being searched
  logic          jn_hit;
  logic [EB-1:0] jn_k;
  // the walk: after a join, an arrival or a halt, lanes leave entries lo .. len-1 one entry
  // per cycle (wk_all: a halt, from every mask; otherwise from the saved lanes only)
  logic          wk_on, wk_all;
  logic          wk_go;                   // a join's or a halt's walk starts next cycle
  logic [WB-1:0] wk_w;
  logic [DB-1:0] wk_e, wk_end;
  logic [LANES-1:0] wk_clr;
  // an arrival, registered (ar_on: the cycle that writes its entry, row {wk_w, ar_k}, with
  // the arriving lanes in wk_clr; then the walk from the entry above, if any: ar_wk)
  logic          ar_on, ar_wk;
  logic [EB-1:0] ar_k;
  logic [31:0]   ar_pc, ar_rpc;
  // The row read (ra) is a register, loaded with the row the next cycle looks at: the walk's
  // next entry, the arrival's entry, the top entry while scheduling (the step's first cycle
  // loads it), else the entry a split joins (s_pa loads it for the join's cycle, s_post).
  logic [RB-1:0] ra;
  always_ff @(posedge clk)
    if (wk_on && wk_e + DB'(1) < wk_end) ra <= {wk_w, EB'(wk_e + DB'(1))};
    else if (ar_on) ra <= {wk_w, EB'(wk_e)};     // the walk above the arrival, if any
    else if (wk_go) ra <= {wk_w, EB'(wk_e)};     // a join's or a halt's walk, from registers
    else if (arrive) ra <= {w, ak};
    else if (sched) ra <= {w, top};
    else ra <= {w, jn_k};

  // writes: a push writes the whole entry (row pu); a join a waiting slot or the parked
  // lanes' pc (row jn_k); an arrival the resume pc (row ar_k, the cycle after it came)
  logic          ent_we, rpc_we, m_we;
  logic [WAITS-1:0] wp_we;
  logic [RB-1:0] wa, m_wa;
  logic [MW-1:0] m_wd;
  logic [31:0]   rpc_wd;
  logic [31:0]   rpc_r;
  logic [CB-1:0] ent_r_dep;
  logic [HW-1:0] ent_r_chain;
  logic [MW-1:0] m_r;
  logic [31:0]   wp_r [WAITS];
  logic [HW+CB-1:0] ent_m [ROWS];   // the chain and call depth (the rest: sf_m, below)
  logic [31:0]   rpc_m [ROWS];
  logic [MW-1:0] msk_m [ROWS];
  always_ff @(posedge clk) begin
    if (ent_we) ent_m[wa] <= {cs_r, cd};   // a push: the activation's chain and depth
    if (rpc_we) rpc_m[wa] <= rpc_wd;
    if (m_we) msk_m[m_wa] <= m_wd;
  end
  assign {ent_r_chain, ent_r_dep} = ent_m[ra];
  assign rpc_r = rpc_m[ra];
  // the fields the searches compare (the source pc, point, kind, call depth and activation
  // id), read at the entry being searched: a read port of their own, addressed from
  // registers only (the call depth is in both memories)
  localparam int SW = 32 + 32 + 2 + CB + AB;
  logic [SW-1:0] sf_m [ROWS];
  logic [31:0]   sf_src, sf_pt;
  logic [1:0]    sf_knd;
  logic [CB-1:0] sf_dep;
  logic [AB-1:0] sf_fid;
  always_ff @(posedge clk) if (ent_we) sf_m[wa] <= {key, point, kind, cd, cur_id};
  assign {sf_src, sf_pt, sf_knd, sf_dep, sf_fid} = sf_m[{w, EB'(s_i)}];
  assign m_r = msk_m[ra];
  genvar gs;
  generate
    for (gs = 0; gs < WAITS; gs++) begin : slot
      logic [31:0] m [ROWS];
      always_ff @(posedge clk) if (wp_we[gs]) m[wa] <= sec_pc;
      assign wp_r[gs] = m[ra];
    end
  endgenerate
  // the masks of the row read
  logic [LANES-1:0] r_saved, r_park;
  logic [LANES-1:0] r_wm [WAITS];
  always_comb begin
    r_saved = m_r[0 +: LANES];
    r_park = m_r[LANES +: LANES];
    for (int s = 0; s < WAITS; s++) r_wm[s] = m_r[LANES * (2 + s) +: LANES];
  end

  // ---- the searches: one entry per cycle --------------------------------------------------
  wire in_act = s_ok && sf_dep == s_cd && sf_fid == s_id;
  wire conv_e = in_act && sf_src == s_key;
  wire at_e = in_act && sf_knd == 2'd1 && sf_pt == s_pc;
  wire exit_e = in_act && sf_knd == 2'd2;
  wire jn_e = in_act && !s_push && sf_knd == s_kind &&
              (s_kind == 2'd0 ? sf_src == s_key : s_kind == 2'd2 || sf_pt == s_point);
  // the join's cycle: the waiting slot of a group at sec_pc, the slot after the highest
  // waiting group (nxt), and whether the second group parks at once
  logic          sl_hit_c;
  logic [SB-1:0] sl_k_c;
  logic [SB:0]   nxt_c;
  always_comb begin
    sl_hit_c = 1'b0;
    sl_k_c = '0;
    nxt_c = '0;
    for (int s = 0; s < WAITS; s++) begin
      if (r_wm[s] != '0 && wp_r[s] == sec_pc) begin
        sl_hit_c = 1'b1; sl_k_c = SB'(s);
      end
      if (r_wm[s] != '0) nxt_c = (SB + 1)'(s + 1);
    end
  end
  wire          parks_c = kind == 2'd1 && point == sec_pc;
  wire          full_c = !jn_hit && int'(len[w]) >= DEPTH;
  logic         sl_hit, parks, full_q, unsup_q;
  logic [SB-1:0] sl_k;
  logic [SB-1:0] nxt;
  logic [1:0]   why_q;
  always_ff @(posedge clk) begin
    if (rst || !sreq) begin
      s_arm <= 1'b0;
      s_on <= 1'b0;
      s_pa <= 1'b0;
      s_post <= 1'b0;
      s_done <= 1'b0;
    end else if (!s_on && !s_pa && !s_post && !s_done && !busy && !s_arm && len[w] != '0) begin
      // wait a cycle while the core's execute registers what a split needs (an empty stack
      // has nothing to compare: no wait)
      s_arm <= 1'b1;
    end else if (!s_on && !s_pa && !s_post && !s_done && !busy) begin
      // start (once a walk is over): look at entries 0 .. len-1
      s_arm <= 1'b0;
      s_ok <= cur_ok;
      s_cd <= cd;
      s_id <= cur_id;
      s_pc <= pc;
      s_key <= key;
      s_kind <= kind;
      s_point <= point;
      s_push <= push_only;
      s_i <= '0;
      s_on <= len[w] != '0;
      s_post <= len[w] == '0;
      conv_hit <= 1'b0;
      at_hit <= 1'b0;
      exit_hit <= 1'b0;
      jn_hit <= 1'b0;
    end else if (s_on) begin
      if (conv_e) begin conv_hit <= 1'b1; conv_k <= EB'(s_i); end
      if (at_e) begin at_hit <= 1'b1; at_k <= EB'(s_i); end
      if (exit_e) begin exit_hit <= 1'b1; exit_k <= EB'(s_i); end
      if (jn_e) begin jn_hit <= 1'b1; jn_k <= EB'(s_i); end
      s_i <= s_i + DB'(1);
      if (s_i + DB'(1) == len[w]) begin
        s_on <= 1'b0;
        s_pa <= 1'b1;
      end
    end else if (s_pa) begin
      s_pa <= 1'b0;   // ra <= the entry joined (an empty stack joins none: no s_pa)
      s_post <= 1'b1;
    end else if (s_post) begin
      sl_hit <= sl_hit_c;
      sl_k <= sl_k_c;
      nxt <= SB'(nxt_c);
      parks <= parks_c;
      full_q <= full_c;
      unsup_q <= kind == 2'd3 ||
                 (jn_hit ? !parks_c && !sl_hit_c && int'(nxt_c) >= WAITS : !full_c && !cur_ok);
      why_q <= kind == 2'd3 ? 2'd3 : jn_hit ? 2'd1 : 2'd2;
      s_post <= 1'b0;
      s_done <= 1'b1;
    end
  end
  assign found = s_done;
  assign busy = wk_on || wk_go || ar_on;
  assign sp_full = split && full_q;
  assign sp_unsup = split && unsup_q;
  assign sp_why = why_q;
  wire sp_ok = split && !full_q && !unsup_q;

  // ---- schedule: the top entry's highest waiting group, or its parked lanes ---------------
  logic         wany, sc_empty_c, sc_go_c;
  logic [SB-1:0] wj;
  always_comb begin
    wany = 1'b0;
    wj = '0;
    for (int s = 0; s < WAITS; s++)
      if (r_wm[s] != '0) begin
        wany = 1'b1; wj = SB'(s);
      end
    sc_empty_c = len[w] == '0;
    sc_go_c = !sc_empty_c && (wany || r_park != '0);
  end
  // the step's three cycles: sc_ph 0 addresses the top entry (ra), 1 reads it and registers
  // what it finds, 2 takes the step (the core acts on the registered outputs; the unit's own
  // writes use the row read again)
  logic [1:0] sc_ph;
  wire  sc_step = sched && sc_ph == 2'd2;
  assign sc_ready = sc_step;
  // (and what the unit's own step needs of the row: the waiting slot to clear, whether the
  // entry pops, the activation the group runs in)
  logic          wany_q, pop_q;
  logic [SB-1:0] wj_q;
  logic [CB-1:0] dep_q;
  always_ff @(posedge clk) begin
    sc_ph <= (sched && sc_ph != 2'd2 && !rst) ? sc_ph + 2'd1 : 2'd0;
    if (sched && sc_ph == 2'd1) begin
      sc_empty <= sc_empty_c;
      sc_go <= sc_go_c;
      sc_mask <= wany ? r_wm[wj] : r_park;
      sc_pc <= wany ? wp_r[wj] : rpc_r;
      wany_q <= wany;
      wj_q <= wj;
      pop_q <= !wany || r_saved == r_wm[wj];
      dep_q <= ent_r_dep;
    end
  end

  // ---- RAM writes ---------------------------------------------------------------------------
  // an arrival: groups waiting at its pc park with the arriving lanes
  logic [LANES-1:0] also;
  always_comb begin
    also = '0;
    for (int s = 0; s < WAITS; s++) if (wp_r[s] == ar_pc) also = also | r_wm[s];
  end
  always_comb begin
    ent_we = sp_ok && !jn_hit;
    wa = ar_on ? {wk_w, ar_k} : {w, jn_hit ? jn_k : pu};
    rpc_we = ar_on || (sp_ok && (!jn_hit || parks));
    rpc_wd = ar_on ? ar_rpc : parks ? sec_pc : 32'd0;
    wp_we = '0;
    if (sp_ok && !parks) wp_we[jn_hit ? (sl_hit ? sl_k : nxt) : SB'(0)] = !(jn_hit && sl_hit);
    // the masks
    m_we = 1'b0;
    m_wa = ra;   // (the row read: every rule but a push rewrites the row it read)
    m_wd = m_r;
    if (wk_on) begin
      m_we = 1'b1;
      m_wd[0 +: LANES] = r_saved & ~wk_clr;
      if (wk_all) begin
        m_wd[LANES +: LANES] = r_park & ~wk_clr;
        for (int s = 0; s < WAITS; s++)
          m_wd[LANES * (2 + s) +: LANES] = r_wm[s] & ~wk_clr;
      end
    end else if (sp_ok && jn_hit) begin
      m_we = 1'b1;
      if (parks) m_wd[LANES +: LANES] = r_park | sec_m;
      else if (sl_hit) m_wd[LANES * (2 + int'(sl_k)) +: LANES] = r_wm[sl_k] | sec_m;
      else m_wd[LANES * (2 + int'(nxt)) +: LANES] = sec_m;
    end else if (sp_ok) begin
      m_we = 1'b1;
      m_wa = {w, pu};
      m_wd = '0;
      m_wd[0 +: LANES] = act;
      if (parks) m_wd[LANES +: LANES] = sec_m;
      else
`ifdef WEFT_PLANTED_BUG
        // Planted bug (crates/rtl-lockstep/tests/lockstep.rs): the waiting group of a new
        // entry loses its lowest lane, which then never runs its path.
        m_wd[2 * LANES +: LANES] = sec_m & (sec_m - LANES'(1));
`else
        m_wd[2 * LANES +: LANES] = sec_m;
`endif
    end else if (ar_on) begin
      m_we = 1'b1;
      for (int s = 0; s < WAITS; s++)
        if (wp_r[s] == ar_pc) m_wd[LANES * (2 + s) +: LANES] = '0;
      m_wd[LANES +: LANES] = r_park | wk_clr | also;
    end else if (sc_step && !sc_empty && wany_q) begin
      m_we = 1'b1;
      m_wd[LANES * (2 + int'(wj_q)) +: LANES] = '0;
    end
    // the chain: a group restores its entry's, a call adds the new id
    cs_we = 1'b0;
    cs_wd = cs_r;
    if (sc_step && sc_go) begin
      cs_we = 1'b1;
      cs_wd = ent_r_chain;
    end else if (call && cdep[w] + 16'd1 < 16'(CDEPTH)) begin
      cs_we = 1'b1;
      cs_wd[int'(cdep[w]) * AB +: AB] = nid[w];
    end else if (cd_we) begin
      cs_we = 1'b1;
      for (int j = 0; j < CDEPTH - 1; j++)   // (slot j: the id of depth j + 1)
        if (16'(j) >= cdep[w] && 16'(j) < cd_wd) cs_wd[j * AB +: AB] = nid[w];
    end
  end

  // ---- the reconvergence table ---------------------------------------------------------------
  logic [17:0] rt [RT_WORDS];
  logic [17:0] rt_q;
  logic        rt_v;
  wire         rhalf = rc_base[0];        // halfword slots
  /* verilator lint_off UNUSEDSIGNAL */
  wire  [31:0] roff = lpc - {rc_base[31:1], 1'b0};   // (bit 0: pcs are even)
  /* verilator lint_on UNUSEDSIGNAL */
  wire  [31:0] ridx = rhalf ? {1'b0, roff[31:1]} : {2'b00, roff[31:2]};
  // the word goes through two registers: the block RAM's (rt_q, whose data arrives late in
  // the cycle), then t_kind and t_point, computed from it in the cycle after the lookup
  logic        lk_d;
  always_ff @(posedge clk) begin
    if (rc_we && int'(rc_wa) < RT_WORDS) rt[TB'(rc_wa)] <= rc_wd;
    if (lookup) begin
      rt_q <= rt[TB'(ridx)];
      rt_v <= rc_mode && (rhalf || !roff[1]) && ridx < rc_len && ridx < 32'(RT_WORDS);
    end
    lk_d <= lookup;
    if (lk_d) begin
      t_kind <= rt_v ? rt_q[1:0] : 2'd0;
      t_point <= lpc + (rhalf ? {{15{rt_q[17]}}, rt_q[17:2], 1'b0}
                              : {{14{rt_q[17]}}, rt_q[17:2], 2'b00});   // (lpc is held)
    end
  end

  // ---- state ------------------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      wk_on <= 1'b0;
      wk_go <= 1'b0;
      ar_on <= 1'b0;
      for (int v = 0; v < WARPS; v++) begin
        len[v] <= '0;
        cdep[v] <= 16'd0;
        nid[v] <= AB'(1);
      end
    end else begin
      if (wk_on) begin
        wk_e <= wk_e + DB'(1);
        if (wk_e + DB'(1) >= wk_end) wk_on <= 1'b0;
      end
      // lanes that leave the entries above (a join, an arrival) or all of them (a halt)
      if ((sp_ok && jn_hit) || arrive || retire) begin
        wk_w <= w;
        wk_end <= len[w];
      end
      if (wk_go) begin
        wk_go <= 1'b0;
        wk_on <= 1'b1;
      end
      if (sp_ok && jn_hit) begin
        wk_go <= DB'(jn_k) + DB'(1) < len[w];
        wk_e <= DB'(jn_k) + DB'(1);
        wk_clr <= sec_m;
        wk_all <= 1'b0;
      end else if (sp_ok) len[w] <= len[w] + DB'(1);
      if (arrive) begin
        ar_on <= 1'b1;
        ar_k <= ak;
        ar_pc <= pc;
        ar_rpc <= resume_pc;
        ar_wk <= DB'(ak) + DB'(1) < len[w];
        wk_e <= DB'(ak) + DB'(1);
        wk_clr <= cur;
        wk_all <= 1'b0;
      end
      if (ar_on) begin
        ar_on <= 1'b0;
        wk_on <= ar_wk;
      end
      if (retire) begin
        wk_go <= len[w] != '0;
        wk_e <= '0;
        wk_clr <= cur;
        wk_all <= 1'b1;
      end
      if (sc_step && !sc_empty) begin
        if (pop_q) len[w] <= len[w] - DB'(1);
        if (sc_go) cdep[w] <= 16'(dep_q);   // the group runs in the entry's activation
      end
      if (call) begin
        cdep[w] <= cdep[w] + 16'd1;
        nid[w] <= nid[w] + AB'(1);
      end
      if (ret && cdep[w] != 16'd0) cdep[w] <= cdep[w] - 16'd1;
      if (cd_we) begin
        cdep[w] <= cd_wd;
        nid[w] <= nid[w] + AB'(1);
      end
      if (clear) begin
        len[cw_clear] <= '0;
        cdep[cw_clear] <= 16'd0;
      end
    end
  end
endmodule
