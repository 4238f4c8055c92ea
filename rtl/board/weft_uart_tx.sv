// weft_uart_tx.sv -- the board's serial transmitter (8N1, CLKS_PER_BIT cycles per bit): sends
// `data` when `send` is high and `busy` is low.

module weft_uart_tx #(
    parameter int CLKS_PER_BIT = 217
) (
    input  logic       clk,
    input  logic       rst,
    input  logic       send,
    input  logic [7:0] data,
    output logic       busy,
    output logic       tx
);
  localparam int CB = $clog2(CLKS_PER_BIT + 1);
  logic [CB-1:0] cnt;
  logic [3:0]    bitn;
  logic [9:0]    frame;         // stop, data, start: shifted out from bit 0

  always_ff @(posedge clk) begin
    if (rst) begin
      busy <= 1'b0;
      tx <= 1'b1;
      cnt <= '0;
      bitn <= '0;
    end else if (!busy) begin
      tx <= 1'b1;
      if (send) begin
        busy <= 1'b1;
        frame <= {1'b1, data, 1'b0};
        bitn <= '0;
        cnt <= '0;
      end
    end else if (cnt != '0) begin
      cnt <= cnt - CB'(1);
    end else if (bitn == 4'd10) begin
      busy <= 1'b0;
    end else begin
      tx <= frame[0];
      frame <= {1'b1, frame[9:1]};
      bitn <= bitn + 4'd1;
      cnt <= CB'(CLKS_PER_BIT - 1);
    end
  end
endmodule
