// weft_vx.sv -- the Vortex SIMT instructions of a weft core (vortex-compat.md; crates/simt's
// exec.rs and ipdom.rs): every warp's IPDOM stack for split/join, and what tmc, pred, split,
// join, vote.* and shfl.* decide from their operands, registered in the core's execute cycle
// (`exec`) for its write-back. Warp-uniform operands (u1, u2) are the last active lane's.
//
//   tmc rs1:          the mask becomes rs1; 0 halts the group (`halt`).
//   pred rs1, rs2:    pass = the active lanes whose rs1 bit 0 is set (clear, if rd != x0); the
//                     mask becomes pass, else rs2, else the group halts.
//   split rd, rs1, rs2: then = the lanes whose rs1 bit 0 is set (clear, if rs2 != x0), else
//                     the others; rd = the stack depth (a token). When both are non-empty
//                     the entry {mask, pc + 4, not fallen through} is pushed (IPDOM_OVERFLOW
//                     at LANES - 1 entries) and the smaller group runs (then, on a tie).
//   join rs1:         a token equal to the depth: nothing; else the top entry: not fallen
//                     through yet, the other lanes run from its pc (and it is marked);
//                     fallen through, its mask comes back and it pops (IPDOM_UNDERFLOW on an
//                     empty stack).
//   vote.all/any/uni/ballot rd, rs1, rs2: of their rs1 bit 0, over the member lanes: the
//                     active ones (rs2 = x0), or each lane's own mask, its rs2's lane bits
//                     (a CUDA `_sync` mask), which must name the lane and only active lanes,
//                     else SYNC_MASK (`sync`); each lane's value (`vl`).
//   shfl.*:           each lane's source lane and whether it takes it (sh_src, sh_use); the
//                     core gathers rs1 one lane per cycle.
// The stacks are distributed RAM, one row {warp, entry} each, read at the top entry (or at
// entry lk while the core checks a halting group for lanes left waiting: LANES_LOST).
module weft_vx #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int WB = (WARPS > 1) ? $clog2(WARPS) : 1,
    parameter int LB = (LANES > 1) ? $clog2(LANES) : 1
) (
    input  logic                clk,
    input  logic                rst,
    input  logic [WB-1:0]       w,        // the issuing warp
    input  logic [LANES-1:0]    amask,    // its active lanes
    input  logic [LANES-1:0]    lb,       // each lane's rs1 bit 0
    input  logic [LANES*18-1:0] ctl,      // each lane's rs2[17:0] (shfl)
    input  logic [LANES*LANES-1:0] lm,    // each lane's rs2 lane bits (vote's member mask)
    input  logic [31:0]         u1,       // rs1, rs2 of the last active lane
    input  logic [LANES-1:0]    u2,       // (its lanes' bits: masks)
    input  logic                rd_z,     // rd = x0
    input  logic                rs2_z,    // rs2 = x0
    input  logic [1:0]          f3,       // funct3[1:0]: which vote or shfl
    input  logic [31:0]         pc,       // the instruction's pc
    input  logic                is_tmc,
    input  logic                is_pred,
    input  logic                is_split,
    input  logic                is_join,
    input  logic                is_vote,
    input  logic                exec,     // the core's execute cycle: decide and register
    // the decisions, valid from the cycle after exec
    output logic                mw,       // the mask changes to `mask`
    output logic [LANES-1:0]    mask,
    output logic                halt,     // the group halts
    output logic                pcw,      // the warp goes to `npc` (a join's other group)
    output logic [31:0]         npc,
    output logic [31:0]         val,      // rd: split's token
    output logic [LANES*LANES-1:0] vl,    // rd: each lane's vote value (bits past LANES: 0)
    output logic                sync,     // SYNC_MASK (vote with a member mask)
    output logic                over,     // IPDOM_OVERFLOW (split)
    output logic                under,    // IPDOM_UNDERFLOW (join)
    output logic [LANES*LB-1:0] sh_src,   // shfl: each lane's source lane
    output logic [LANES-1:0]    sh_use,   // ... and whether it takes it (else its own rs1)
    // the write-back of split and join (their stack change)
    input  logic                wb,
    // a halting group: is entry lk of warp w waiting with lanes outside amask?
    input  logic                lk_on,
    input  logic [LB-1:0]       lk,
    output logic                lk_hit,
    output logic [LB:0]         len_w,    // the stack depth of warp w
    // a warp starts: its stack empties
    input  logic                clear,
    input  logic [WB-1:0]       clear_w
);
  localparam logic [LANES-1:0] FULL = {LANES{1'b1}};
  localparam int RW = LANES + 33;       // a row: {fallen through, else pc, mask}

  logic [LB:0]    len [WARPS];
  logic [RW-1:0]  st_m [WARPS * LANES];
  assign len_w = len[w];
  wire  [LB-1:0]  top = LB'(len[w] - (LB + 1)'(1));
  wire  [RW-1:0]  row = st_m[{w, lk_on ? lk : top}];
  wire            t_ft = row[RW-1];
  wire  [31:0]    t_pc = row[LANES +: 32];
  wire  [LANES-1:0] t_mask = row[LANES-1:0];
  assign lk_hit = !t_ft && (t_mask & ~amask) != '0;

  function automatic logic [LB:0] popc(input logic [LANES-1:0] m);
    popc = '0;
    for (int l = 0; l < LANES; l++) popc = popc + (LB + 1)'(m[l]);
  endfunction

  // ---- decisions --------------------------------------------------------------------------
  wire [LANES-1:0] sp_then = amask & (lb ^ {LANES{!rs2_z}});
  wire [LANES-1:0] sp_else = amask & ~sp_then;
  wire             sp_div = sp_then != '0 && sp_else != '0;
  wire [LANES-1:0] pr_pass = amask & (lb ^ {LANES{!rd_z}});
  wire             j_uni = u1 == 32'(len[w]);
  // vote: each active lane's members and value (crates/simt exec.rs `vote`)
  logic [LANES*LANES-1:0] vl_c;
  logic                   sync_c;
  always_comb begin
    sync_c = 1'b0;
    for (int l = 0; l < LANES; l++) begin
      logic [LANES-1:0] mb, vp;
      mb = rs2_z ? amask : lm[l*LANES +: LANES];
      vp = mb & lb;
      if (amask[l] && !rs2_z && ((mb & ~amask) != '0 || !mb[l])) sync_c = 1'b1;
      case (f3)
        2'd0: vl_c[l*LANES +: LANES] = LANES'(vp == mb);
        2'd1: vl_c[l*LANES +: LANES] = LANES'(vp != '0);
        2'd2: vl_c[l*LANES +: LANES] = LANES'(vp == '0 || vp == mb);
        default: vl_c[l*LANES +: LANES] = vp;
      endcase
    end
  end
  // shfl (crates/simt exec.rs `shuffle`): lane l's control word b | c << 6 | seg << 12;
  // min = l & seg, max = min | (c & ~seg)
  logic [LANES*LB-1:0] src_c;
  logic [LANES-1:0]    use_c;
  always_comb
    for (int l = 0; l < LANES; l++) begin
      logic [5:0] b, c, sg;
      logic [7:0] mn, mx, s;
      logic       ok;
      {sg, c, b} = ctl[l*18 +: 18];
      mn = 8'(l) & {2'b00, sg};
      mx = mn | {2'b00, c & ~sg};
      case (f3)
        2'd0: begin s = 8'(l) - {2'b00, b}; ok = $signed(s) >= $signed(mn); end   // up
        2'd1: begin s = 8'(l) + {2'b00, b}; ok = s <= mx; end                     // down
        2'd2: begin s = 8'(l) ^ {2'b00, b}; ok = s <= mx; end                     // bfly
        default: begin s = mn | {2'b00, b & ~sg}; ok = s <= mx; end             // idx
      endcase
      src_c[l*LB +: LB] = LB'(s);
      use_c[l] = ok && !s[7] && s < 8'(LANES) && amask[LB'(s)];
    end

  always_ff @(posedge clk)
    if (exec) begin
      mw <= 1'b0;
      mask <= amask;
      halt <= 1'b0;
      pcw <= 1'b0;
      npc <= t_pc;
      over <= 1'b0;
      under <= 1'b0;
      val <= 32'(len[w]);
      vl <= vl_c;
      sync <= is_vote && sync_c;
      sh_src <= src_c;
      sh_use <= use_c;
      if (is_tmc) begin
        mw <= (u1[LANES-1:0] & FULL) != '0;
        mask <= u1[LANES-1:0];
        halt <= u1[LANES-1:0] == '0;
      end else if (is_pred) begin
        mw <= pr_pass != '0 || u2 != '0;
        mask <= (pr_pass != '0) ? pr_pass : u2;
        halt <= pr_pass == '0 && u2 == '0;
      end else if (is_split) begin
        mw <= sp_div;
        mask <= (popc(sp_else) < popc(sp_then)) ? sp_else : sp_then;
        over <= sp_div && int'(len[w]) >= LANES - 1;
      end else if (is_join && !j_uni) begin
        under <= len[w] == '0;
        mw <= 1'b1;
        mask <= t_ft ? t_mask : t_mask & ~amask;
        pcw <= !t_ft;
      end
    end

  // ---- the stacks -------------------------------------------------------------------------
  // (the registered decisions hold the operands' outcome; the top row still reads the same
  // in write-back: nothing writes the stack between exec and wb). A push writes the mask
  // before the split and pc + 4 (split is never compressed).
  logic          push_q;
  logic [31:0]   epc_q;
  logic [LANES-1:0] mask_pre;
  always_ff @(posedge clk)
    if (exec) begin
      push_q <= is_split && sp_div;
      epc_q <= pc + 32'd4;
      mask_pre <= amask;
    end
  always_ff @(posedge clk) begin
    if (wb && push_q && !over) st_m[{w, LB'(len[w])}] <= {1'b0, epc_q, mask_pre};
    else if (wb && is_join && pcw && !under) st_m[{w, top}] <= {1'b1, t_pc, t_mask};
  end
  always_ff @(posedge clk) begin
    if (rst) for (int v = 0; v < WARPS; v++) len[v] <= '0;
    else begin
      if (wb && push_q && !over) len[w] <= len[w] + (LB + 1)'(1);
      else if (wb && is_join && mw && !pcw && !under) len[w] <= len[w] - (LB + 1)'(1);
      if (clear) len[clear_w] <= '0;
    end
  end
endmodule
