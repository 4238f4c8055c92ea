// weft_fdiv.sv -- the iterative half of the FPU (weft_fpu.sv): the significand's quotient for
// fdiv.s and its square root for fsqrt.s, one bit per cycle by restoring recurrences, exact
// but for a sticky bit (the remainder is not zero). The operands come normalised (24-bit
// significands, the hidden bit at bit 23, unbounded exponents: value = m * 2^(e - 23)); the
// result goes back into the FPU's 76-bit window (`s`, bit 0 weighing 2^ew) to be normalised
// and rounded like a product or a sum.
//   fdiv:  q = floor(xm * 2^26 / ym), 27 bits (xm / ym lies in (1/2, 2)), 27 cycles;
//          s = {q, sticky, 48'b0}, ew = xe - ye - 75.
//   fsqrt: x = M * 2^t with t = xe - 23 made even (M = xm, or 2 xm and t - 1);
//          r = floor(sqrt(M * 2^30)), 28 bits, 28 cycles; s = {r, sticky, 47'b0},
//          ew = t / 2 - 63.
// `done` is high for one cycle with the result; start is ignored while busy.
module weft_fdiv (
    input  logic               clk,
    input  logic               rst,
    input  logic               start,
    input  logic               sqrt,
    input  logic [23:0]        xm,
    input  logic [23:0]        ym,
    input  logic signed [11:0] xe,
    input  logic signed [11:0] ye,
    output logic               done,
    output logic [75:0]        s,
    output logic signed [11:0] ew
);
  logic        busy, sq;
  logic [4:0]  n;                // iterations left
  logic [24:0] r, d;             // fdiv: partial remainder and divisor
  logic [29:0] rem;              // fsqrt: remainder
  logic [55:0] rad;              // fsqrt: radicand bits still to bring down
  logic [27:0] q;                // quotient or root bits so far
  logic signed [11:0] e_q;

  /* verilator lint_off UNUSEDSIGNAL */
  wire [25:0] r_sub = {1'b0, r} - {1'b0, d};   // (bit 24 is 0 when it is taken: r - d < d)
  /* verilator lint_on UNUSEDSIGNAL */
  wire [29:0] rem_n = {rem[27:0], rad[55:54]};
  wire [29:0] trial = {q[27:0], 2'b01};   // (the root's top bits are zero while it matters)
  wire [30:0] rem_sub = {1'b0, rem_n} - {1'b0, trial};
  wire signed [11:0] t = xe - 12'sd23;

  always_ff @(posedge clk) begin
    done <= 1'b0;
    if (rst) busy <= 1'b0;
    else if (!busy) begin
      if (start) begin
        busy <= 1'b1;
        sq <= sqrt;
        q <= '0;
        if (sqrt) begin
          n <= 5'd27;
          rem <= '0;
          // M * 2^30, M = xm or 2 xm (t odd)
          rad <= t[0] ? 56'({xm, 1'b0}) << 30 : 56'(xm) << 30;
          e_q <= ((t[0] ? t - 12'sd1 : t) >>> 1) - 12'sd63;
        end else begin
          n <= 5'd26;
          r <= {1'b0, xm};
          d <= {1'b0, ym};
          e_q <= xe - ye - 12'sd75;
        end
      end
    end else begin
      if (sq) begin
        if (!rem_sub[30]) begin
          rem <= rem_sub[29:0];
          q <= {q[26:0], 1'b1};
        end else begin
          rem <= rem_n;
          q <= {q[26:0], 1'b0};
        end
        rad <= {rad[53:0], 2'b00};
      end else begin
        if (!r_sub[25]) begin
          r <= {r_sub[23:0], 1'b0};
          q <= {q[26:0], 1'b1};
        end else begin
          r <= {r[23:0], 1'b0};
          q <= {q[26:0], 1'b0};
        end
      end
      n <= n - 5'd1;
      if (n == 5'd0) begin
        busy <= 1'b0;
        done <= 1'b1;
      end
    end
  end

  // the result, from the registers of the last step (valid with done)
  always_comb begin
    if (sq) s = {q, rem != '0, 47'd0};
    else s = {q[26:0], r != '0, 48'd0};
    ew = e_q;
  end
endmodule
