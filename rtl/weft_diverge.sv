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
// The reconvergence table is a RAM of RT_WORDS 18-bit words, one per instruction word from
// the loader's base (a side table of the code, like predecode bits): {offset[15:0],
// kind[1:0]}, kind 0 none, 1 At(pc + 4 * offset) (offset signed), 2 AtExit, 3 a point this
// RTL cannot reach (a compressed instruction: a split there is unsupported); words past the
// loader's length read as none. It is written through the load port (rc_we) by the testbench
// or the board's loader and read with the issuing pc while the core fetches. 16384 words
// (the default) cover 64 KiB of code in 16 ECP5 block RAMs.
//
// The core gives at most one command per cycle for warp `w` (split, arrive, retire, sched,
// and call or ret with a split); clear starts warp cw_clear with empty stacks.
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
    // arrive: cur reaches entry ak's point at pc, to resume at resume_pc; retire: cur halts
    input  logic             arrive,
    input  logic             retire,
    input  logic [EB-1:0]    ak,
    input  logic [LANES-1:0] cur,
    input  logic [31:0]      resume_pc,
    // one step of scheduling the top entry: a group to run (sc_go), or none left (sc_empty),
    // or neither (an empty entry was dropped: step again)
    input  logic             sched,
    output logic             sc_go,
    output logic             sc_empty,
    output logic [LANES-1:0] sc_mask,
    output logic [31:0]      sc_pc,
    // activations
    input  logic             call,
    input  logic             ret,
    input  logic             clear,
    input  logic [WB-1:0]    cw_clear,
    // the reconvergence table: mode (0: converge mode, every lookup is none), window, load
    // port, and the lookup of the pc being fetched (t_kind, t_point valid from the cycle after
    // lookup until the next lookup)
    input  logic             rc_mode,
    input  logic [31:0]      rc_base,
    input  logic [31:0]      rc_len,
    input  logic             rc_we,
    input  logic [15:0]      rc_wa,
    input  logic [17:0]      rc_wd,
    input  logic             lookup,
    output logic [1:0]       t_kind,
    output logic [31:0]      t_point
);
  localparam int CB = (CDEPTH > 1) ? $clog2(CDEPTH) : 1;
  localparam int SB = (WAITS > 1) ? $clog2(WAITS) : 1;
  localparam int TB = (RT_WORDS > 1) ? $clog2(RT_WORDS) : 1;

  logic [LANES-1:0] saved [WARPS][DEPTH], park [WARPS][DEPTH];
  logic [LANES-1:0] wm [WARPS][DEPTH][WAITS];
  logic [31:0]      wp [WARPS][DEPTH][WAITS];
  logic [31:0]      rpc [WARPS][DEPTH], src [WARPS][DEPTH], pt [WARPS][DEPTH];
  logic [1:0]       knd [WARPS][DEPTH];
  logic [CB-1:0]    dep [WARPS][DEPTH];
  logic [AB-1:0]    fid [WARPS][DEPTH];
  logic [AB-1:0]    chain [WARPS][DEPTH][CDEPTH];
  logic [DB-1:0]    len [WARPS];
  logic [15:0]      cdep [WARPS];
  logic [AB-1:0]    cs [WARPS][CDEPTH];
  logic [AB-1:0]    nid [WARPS];

  assign len_w = len[w];
  assign len_x = len[xw];

  // ---- the current activation and the searches -------------------------------------------
  wire          cur_ok = cdep[w] < 16'(CDEPTH);
  wire [CB-1:0] cd = CB'(cdep[w]);
  wire [AB-1:0] cur_id = cs[w][cd];
  logic [DEPTH-1:0] in_act;
  logic         jn_hit;
  logic [EB-1:0] jn_k;
  always_comb begin
    conv_hit = 1'b0; conv_k = '0;
    at_hit = 1'b0; at_k = '0;
    exit_hit = 1'b0; exit_k = '0;
    jn_hit = 1'b0; jn_k = '0;
    for (int e = 0; e < DEPTH; e++) begin
      in_act[e] = e < int'(len[w]) && cur_ok && dep[w][e] == cd && fid[w][e] == cur_id;
      if (in_act[e] && src[w][e] == key) begin
        conv_hit = 1'b1; conv_k = EB'(e);
      end
      if (in_act[e] && knd[w][e] == 2'd1 && pt[w][e] == pc) begin
        at_hit = 1'b1; at_k = EB'(e);
      end
      if (in_act[e] && knd[w][e] == 2'd2) begin
        exit_hit = 1'b1; exit_k = EB'(e);
      end
      if (in_act[e] && !push_only && knd[w][e] == kind &&
          (kind == 2'd0 ? src[w][e] == key : kind == 2'd2 || pt[w][e] == point)) begin
        jn_hit = 1'b1; jn_k = EB'(e);
      end
    end
  end

  // ---- split: join entry jn_k, or push; the second group parks at once at the point -------
  wire          parks = kind == 2'd1 && point == sec_pc;
  logic         sl_hit;
  logic [SB-1:0] sl_k;
  int           nxt;   // the slot after the highest waiting group of jn_k
  always_comb begin
    sl_hit = 1'b0;
    sl_k = '0;
    nxt = 0;
    for (int s = 0; s < WAITS; s++) begin
      if (wm[w][jn_k][s] != '0 && wp[w][jn_k][s] == sec_pc) begin
        sl_hit = 1'b1; sl_k = SB'(s);
      end
      if (wm[w][jn_k][s] != '0) nxt = s + 1;
    end
  end
  assign sp_full = split && !jn_hit && int'(len[w]) >= DEPTH;
  assign sp_unsup = split && (kind == 2'd3 ||
                              (jn_hit ? !parks && !sl_hit && nxt >= WAITS : !sp_full && !cur_ok));
  assign sp_why = kind == 2'd3 ? 2'd3 : jn_hit ? 2'd1 : 2'd2;
  wire          sp_ok = split && !sp_full && !sp_unsup;
  wire [EB-1:0] pu = EB'(len[w]);

  // ---- schedule: the top entry's highest waiting group, or its parked lanes ---------------
  wire [EB-1:0] top = EB'(len[w] - DB'(1));
  logic         wany;
  logic [SB-1:0] wj;
  always_comb begin
    wany = 1'b0;
    wj = '0;
    for (int s = 0; s < WAITS; s++)
      if (wm[w][top][s] != '0) begin
        wany = 1'b1; wj = SB'(s);
      end
    sc_empty = len[w] == '0;
    sc_go = !sc_empty && (wany || park[w][top] != '0);
    sc_mask = wany ? wm[w][top][wj] : park[w][top];
    sc_pc = wany ? wp[w][top][wj] : rpc[w][top];
  end

  // ---- the reconvergence table ---------------------------------------------------------------
  logic [17:0] rt [RT_WORDS];
  logic [17:0] rt_q;
  logic        rt_v;
  wire  [31:0] roff = pc - rc_base;
  wire  [31:0] ridx = {2'b00, roff[31:2]};
  always_ff @(posedge clk) begin
    if (rc_we && int'(rc_wa) < RT_WORDS) rt[TB'(rc_wa)] <= rc_wd;
    if (lookup) begin
      rt_q <= rt[TB'(ridx)];
      rt_v <= rc_mode && roff[1:0] == 2'd0 && ridx < rc_len && ridx < 32'(RT_WORDS);
    end
  end
  assign t_kind = rt_v ? rt_q[1:0] : 2'd0;
  assign t_point = pc + {{14{rt_q[17]}}, rt_q[17:2], 2'b00};   // the pc looked up

  // ---- state ------------------------------------------------------------------------------------
  always_ff @(posedge clk) begin
    if (rst) begin
      for (int v = 0; v < WARPS; v++) begin
        len[v] <= '0;
        cdep[v] <= 16'd0;
        nid[v] <= AB'(1);
        for (int c = 0; c < CDEPTH; c++) cs[v][c] <= '0;   // the root activation is id 0
      end
    end else begin
      if (sp_ok && jn_hit) begin
        // join: the second group leaves the entries above (it will not reach them)
        for (int e = 0; e < DEPTH; e++)
          if (e > int'(jn_k)) saved[w][e] <= saved[w][e] & ~sec_m;
        if (parks) begin
          park[w][jn_k] <= park[w][jn_k] | sec_m;
          rpc[w][jn_k] <= sec_pc;
        end else if (sl_hit) wm[w][jn_k][sl_k] <= wm[w][jn_k][sl_k] | sec_m;
        else begin
          wm[w][jn_k][SB'(nxt)] <= sec_m;
          wp[w][jn_k][SB'(nxt)] <= sec_pc;
        end
      end else if (sp_ok) begin
        saved[w][pu] <= act;
        for (int s = 0; s < WAITS; s++) wm[w][pu][s] <= '0;
        if (parks) begin
          park[w][pu] <= sec_m;
          rpc[w][pu] <= sec_pc;
        end else begin
          park[w][pu] <= '0;
          rpc[w][pu] <= 32'd0;
`ifdef WEFT_PLANTED_BUG
          // Planted bug (crates/rtl-lockstep/tests/lockstep.rs): the waiting group of a new
          // entry loses its lowest lane, which then never runs its path.
          wm[w][pu][0] <= sec_m & (sec_m - LANES'(1));
`else
          wm[w][pu][0] <= sec_m;
`endif
          wp[w][pu][0] <= sec_pc;
        end
        src[w][pu] <= key;
        knd[w][pu] <= kind;
        pt[w][pu] <= point;
        dep[w][pu] <= cd;
        fid[w][pu] <= cur_id;
        for (int c = 0; c < CDEPTH; c++) chain[w][pu][c] <= cs[w][c];
        len[w] <= len[w] + DB'(1);
      end
      if (arrive) begin
        // cur parks at entry ak (groups waiting at this pc park with it) and leaves the
        // entries above
        logic [LANES-1:0] also;
        also = '0;
        for (int s = 0; s < WAITS; s++)
          if (wp[w][ak][s] == pc) begin
            also = also | wm[w][ak][s];
            wm[w][ak][s] <= '0;
          end
        for (int e = 0; e < DEPTH; e++)
          if (e > int'(ak)) saved[w][e] <= saved[w][e] & ~cur;
        park[w][ak] <= park[w][ak] | cur | also;
        rpc[w][ak] <= resume_pc;
      end
      if (retire)
        for (int e = 0; e < DEPTH; e++) begin
          saved[w][e] <= saved[w][e] & ~cur;
          park[w][e] <= park[w][e] & ~cur;
          for (int s = 0; s < WAITS; s++) wm[w][e][s] <= wm[w][e][s] & ~cur;
        end
      if (sched && !sc_empty) begin
        if (wany) begin
          wm[w][top][wj] <= '0;
          if (saved[w][top] == wm[w][top][wj]) len[w] <= len[w] - DB'(1);
        end else len[w] <= len[w] - DB'(1);
        if (sc_go) begin
          // the group runs in the entry's activation
          cdep[w] <= 16'(dep[w][top]);
          for (int c = 0; c < CDEPTH; c++) cs[w][c] <= chain[w][top][c];
        end
      end
      if (call) begin
        cdep[w] <= cdep[w] + 16'd1;
        if (cdep[w] + 16'd1 < 16'(CDEPTH)) cs[w][CB'(cdep[w] + 16'd1)] <= nid[w];
        nid[w] <= nid[w] + AB'(1);
      end
      if (ret && cdep[w] != 16'd0) cdep[w] <= cdep[w] - 16'd1;
      if (clear) begin
        len[cw_clear] <= '0;
        cdep[cw_clear] <= 16'd0;
      end
    end
  end
endmodule
