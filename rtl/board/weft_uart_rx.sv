// weft_uart_rx.sv -- the board's serial receiver: 8 data bits, no parity, one stop bit,
// least significant bit first, CLKS_PER_BIT clock cycles per bit (217 at 25 MHz = 115200
// baud). It samples the middle of each bit and pulses `valid` for one cycle with the byte.

module weft_uart_rx #(
    parameter int CLKS_PER_BIT = 217
) (
    input  logic       clk,
    input  logic       rst,
    input  logic       rx,
    output logic       valid,
    output logic [7:0] data
);
  localparam int CB = $clog2(CLKS_PER_BIT + 1);
  logic [1:0]    sync;          // two flip-flops against metastability
  logic [CB-1:0] cnt;
  logic [3:0]    bitn;          // 0 = start bit, 1..8 data, 9 stop
  logic          busy;
  logic [7:0]    sh;

  always_ff @(posedge clk) begin
    sync <= {sync[0], rx};
    valid <= 1'b0;
    if (rst) begin
      sync <= 2'b11;
      busy <= 1'b0;
      cnt <= '0;
      bitn <= '0;
    end else if (!busy) begin
      if (!sync[1]) begin       // start bit: sample in its middle
        busy <= 1'b1;
        cnt <= CB'(CLKS_PER_BIT / 2);
        bitn <= '0;
      end
    end else if (cnt != '0) begin
      cnt <= cnt - CB'(1);
    end else begin
      cnt <= CB'(CLKS_PER_BIT - 1);
      if (bitn == 4'd0) begin
        if (sync[1]) busy <= 1'b0;   // a glitch, not a start bit
        bitn <= 4'd1;
      end else if (bitn <= 4'd8) begin
        sh <= {sync[1], sh[7:1]};
        bitn <= bitn + 4'd1;
      end else begin
        busy <= 1'b0;
        if (sync[1]) begin          // a proper stop bit: the byte is good
          valid <= 1'b1;
          data <= sh;
        end
      end
    end
  end
endmodule
