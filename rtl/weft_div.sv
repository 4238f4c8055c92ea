// weft_div.sv -- one lane's RV32M divider: radix-2 restoring division on magnitudes, 32
// cycles after `start`, with RISC-V's results for division by zero (quotient -1, remainder
// the dividend) and overflow (INT_MIN / -1 = INT_MIN, remainder 0). The core starts every
// lane's divider together and waits for `done`.
module weft_div (
    input  logic        clk,
    input  logic        start,
    input  logic [31:0] a,
    input  logic [31:0] b,
    input  logic        sgn,     // div/rem (signed) rather than divu/remu
    output logic [31:0] quot,
    output logic [31:0] rem,
    output logic        done
);
  logic [31:0] q, d, ua, ub, rest;
  logic [31:0] r;
  logic [5:0]  cnt;
  logic        neg_q, neg_r, zero;
  logic [32:0] trial;
  always_comb begin
    ua = (sgn && a[31]) ? -a : a;
    ub = (sgn && b[31]) ? -b : b;
    trial = {r, q[31]} - {1'b0, d};
    rest = r;
  end
  always_ff @(posedge clk) begin
    if (start) begin
      q <= ua;
      d <= ub;
      r <= 32'd0;
      cnt <= 6'd32;
      neg_q <= sgn && (a[31] ^ b[31]);
      neg_r <= sgn && a[31];
      zero <= (b == 32'd0);
    end else if (cnt != 6'd0) begin
      cnt <= cnt - 6'd1;
      if (!trial[32]) begin
        r <= trial[31:0];
        q <= {q[30:0], 1'b1};
      end else begin
        r <= {r[30:0], q[31]};
        q <= {q[30:0], 1'b0};
      end
    end
  end
  assign done = (cnt == 6'd0);
  // Division by zero: the magnitudes give q = all ones and r = |a|; RISC-V wants q = -1
  // and r = a whatever the signs.
  assign quot = zero ? 32'hffff_ffff : (neg_q ? -q : q);
  assign rem  = neg_r ? -rest : rest;
endmodule
