// weft_tmds.sv -- one channel of a DVI/HDMI TMDS encoder (DVI 1.0 §3.2): while `de`, the
// byte `d` becomes a 10-bit transition-minimised, DC-balanced symbol (the running disparity
// `cnt` chooses whether to invert it); in blanking, {c1, c0} become one of the four control
// symbols and the disparity restarts from 0. One symbol per `en`, registered: `q` is the
// symbol of the inputs at the last `en`. Bit 0 of `q` goes out first.
module weft_tmds (
    input  logic       clk,
    input  logic       rst,
    input  logic       en,
    input  logic       de,
    input  logic [7:0] d,
    input  logic       c0,
    input  logic       c1,
    output logic [9:0] q
);
  // stage 1: transition minimising (XOR or XNOR chain, whichever has fewer transitions)
  logic [3:0] n1d;
  always_comb begin
    n1d = 4'd0;
    for (int i = 0; i < 8; i++) n1d = n1d + 4'(d[i]);
  end
  wire use_xnor = n1d > 4'd4 || (n1d == 4'd4 && !d[0]);
  logic [8:0] qm;
  always_comb begin
    logic b;
    b = d[0];
    qm = {!use_xnor, 7'd0, d[0]};
    for (int i = 1; i < 8; i++) begin
      b = use_xnor ? ~(b ^ d[i]) : (b ^ d[i]);
      qm[i] = b;
    end
  end
  // stage 2: DC balance against the running disparity (ones minus zeros sent so far)
  logic [3:0] n1;
  always_comb begin
    n1 = 4'd0;
    for (int i = 0; i < 8; i++) n1 = n1 + 4'(qm[i]);
  end
  wire signed [5:0] diff = 6'sd2 * $signed({2'b00, n1}) - 6'sd8;   // ones - zeros of qm[7:0]
  logic signed [5:0] cnt;
  always_ff @(posedge clk) begin
    if (rst) begin
      cnt <= 6'sd0;
      q <= 10'b1101010100;
    end else if (en) begin
      if (!de) begin
        cnt <= 6'sd0;
        case ({c1, c0})
          2'b00: q <= 10'b1101010100;
          2'b01: q <= 10'b0010101011;
          2'b10: q <= 10'b0101010100;
          default: q <= 10'b1010101011;
        endcase
      end else if (cnt == 6'sd0 || diff == 6'sd0) begin
        q <= {~qm[8], qm[8], qm[8] ? qm[7:0] : ~qm[7:0]};
        cnt <= qm[8] ? cnt + diff : cnt - diff;
      end else if ((cnt > 6'sd0 && diff > 6'sd0) || (cnt < 6'sd0 && diff < 6'sd0)) begin
        q <= {1'b1, qm[8], ~qm[7:0]};
        cnt <= cnt + (qm[8] ? 6'sd2 : 6'sd0) - diff;
      end else begin
        q <= {1'b0, qm[8], qm[7:0]};
        cnt <= cnt - (qm[8] ? 6'sd0 : 6'sd2) + diff;
      end
    end
  end
endmodule
