// weft_tmds_ser.sv -- the TMDS serializer for the HDMI (GPDI) port: the display's symbol
// triples (weft_display.sv: red, green, blue; one per pixel clock on average, made in the
// core's clock domain) cross into the shift clock's domain (5 x the pixel clock: 125 MHz for
// 25 MHz pixels) through an asynchronous FIFO, and each is shifted out two bits per shift
// clock, bit 0 first, for a DDR output register per channel (ECP5 ODDRX1F in ulx3s_top.sv:
// d0 goes out in the first half of the clock, d1 in the second); channel 3 is the TMDS clock,
// five bits high and five low per symbol.
//
// The FIFO: DEPTH entries, Gray-coded pointers, each synchronised through two flip-flops
// into the other domain. Both sides run at exactly the pixel rate (the clocks come from one
// PLL), so once the reader starts (when the FIFO holds half its entries) it stays half full;
// should it ever run dry it sends the last symbols again and starts over, and a write into a
// full FIFO is dropped (`lost` counts both, for the simulation).
module weft_tmds_ser #(
    parameter int DEPTH = 8
) (
    // the core's domain
    input  logic        clk,
    input  logic        rst,
    input  logic [29:0] sym,
    input  logic        sym_valid,
    // the shift clock's domain
    input  logic        clk_sh,
    input  logic        rst_sh,
    output logic [3:0]  d0,
    output logic [3:0]  d1,
    output logic [7:0]  lost
);
  localparam int AB = $clog2(DEPTH);
  function automatic logic [AB:0] gray(input logic [AB:0] b);
    gray = b ^ (b >> 1);
  endfunction
  function automatic logic [AB:0] bin(input logic [AB:0] g);
    logic [AB:0] b;
    b[AB] = g[AB];
    for (int i = AB - 1; i >= 0; i--) b[i] = b[i+1] ^ g[i];
    bin = b;
  endfunction

  logic [29:0] mem [DEPTH];
  // write side
  logic [AB:0] wp, wg, rg_s1, rg_s2;
  wire  [AB:0] rp_w = bin(rg_s2);
  wire         full = (wp - rp_w) == (AB+1)'(DEPTH);
  logic        wlost;
  always_ff @(posedge clk) begin
    rg_s1 <= rg_q;
    rg_s2 <= rg_s1;
    wlost <= 1'b0;
    if (rst) begin
      wp <= '0;
      wg <= '0;
    end else if (sym_valid) begin
      if (!full) begin
        mem[wp[AB-1:0]] <= sym;
        wp <= wp + 1'b1;
        wg <= gray(wp + 1'b1);
      end else wlost <= 1'b1;
    end
  end

  // read side
  logic [AB:0] rp, rg_q, wg_s1, wg_s2;
  wire  [AB:0] wp_r = bin(wg_s2);
  wire  [AB:0] level = wp_r - rp;
  logic [2:0]  ph;                          // the shift clock within a symbol
  logic        run;                         // the reader has started
  logic [9:0]  sh [4];
  logic        wlost_s1, wlost_s2, wlost_s3;
  always_ff @(posedge clk_sh) begin
    wg_s1 <= wg;
    wg_s2 <= wg_s1;
    {wlost_s3, wlost_s2, wlost_s1} <= {wlost_s2, wlost_s1, wlost};
    if (rst_sh) begin
      rp <= '0;
      rg_q <= '0;
      ph <= 3'd0;
      run <= 1'b0;
      lost <= 8'd0;
      for (int c = 0; c < 4; c++) sh[c] <= 10'd0;
    end else begin
      if (wlost_s2 && !wlost_s3) lost <= lost + 8'd1;
      ph <= (ph == 3'd4) ? 3'd0 : ph + 3'd1;
      for (int c = 0; c < 4; c++) sh[c] <= {2'b00, sh[c][9:2]};
      if (ph == 3'd4) begin
        // the next symbol, sent from the next clock on
        if (!run && level >= (AB+1)'(DEPTH / 2)) run <= 1'b1;
        if (run && level == '0) begin
          run <= 1'b0;                      // ran dry: start again when half full
          lost <= lost + 8'd1;
        end
        if (run && level != '0) begin
          {sh[2], sh[1], sh[0]} <= mem[rp[AB-1:0]];
          rp <= rp + 1'b1;
          rg_q <= gray(rp + 1'b1);
        end else if (!run) begin
          for (int c = 0; c < 3; c++) sh[c] <= 10'b1101010100;   // blanking until started
        end else {sh[2], sh[1], sh[0]} <= mem[(AB)'(rp[AB-1:0] - 1'b1)];
        sh[3] <= 10'b0000011111;
      end
    end
  end
  always_comb
    for (int c = 0; c < 4; c++) begin
      d0[c] = sh[c][0];
      d1[c] = sh[c][1];
    end
endmodule
