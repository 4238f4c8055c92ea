// weft_sched.sv -- the core's warp scheduler: round-robin over the warps ready to issue
// (running, not waiting at a barrier, not stopped at a break_pc), as warp-core's scheduler
// picks (seed 002; docs/isa.md §5). The search starts at the warp after the last one issued,
// so every ready warp issues within WARPS picks. Combinational pick, one register (the
// round-robin pointer), which moves when the core takes the pick.
module weft_sched #(
    parameter int WARPS = 4
) (
    input  logic                  clk,
    input  logic                  rst,
    input  logic [WARPS-1:0]      ready,    // warps that may issue
    input  logic                  take,     // the core issues `pick` (if any) this cycle
    output logic [((WARPS > 1) ? $clog2(WARPS) : 1)-1:0] pick,  // first ready from the pointer
    output logic                  pick_ok   // some warp is ready
);
  localparam int WB = (WARPS > 1) ? $clog2(WARPS) : 1;
  logic [WB-1:0] rr_q;

  always_comb begin
    pick = '0;
    pick_ok = 1'b0;
    for (int k = WARPS - 1; k >= 0; k--) begin
      if (ready[WB'((int'(rr_q) + k) % WARPS)]) begin
        pick = WB'((int'(rr_q) + k) % WARPS);
        pick_ok = 1'b1;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) rr_q <= '0;
    else if (take && pick_ok) rr_q <= WB'((int'(pick) + 1) % WARPS);
  end
endmodule
