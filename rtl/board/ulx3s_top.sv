// ulx3s_top.sv -- the weft board design on a ULX3S (Lattice ECP5-85F): the 25 MHz crystal
// through a PLL (weft_pll, written by rtl/synth.sh) to three clocks from one 500 MHz VCO —
// the core's (CLK_HZ, 50 MHz: the core, the SDRAM controller, the display and the DMA engine),
// the same a quarter period later for the SDRAM chip, and the 125 MHz TMDS shift clock (five
// times the 25 MHz pixel clock; the display's beam steps PIX_NUM pixels every PIX_DEN core
// clocks, exactly 25 MHz) — a reset held until the PLL locks and while the PWR button
// (btn[0], active low) is pressed, the FTDI serial line (ftdi_txd is the FPGA's input,
// ftdi_rxd its output) to the loader and the console, the eight LEDs, the SDRAM, and the HDMI
// (GPDI) port: each of its four pairs (blue, green, red, the TMDS clock) an ODDRX1F sending
// two bits per shift clock, the negative pin of each pair driven by the IO buffer
// (LVCMOS33D). Pins: rtl/board/ulx3s.lpf. Everything else: weft_board.sv.
module ulx3s_top #(
    parameter int WARPS = 4,
    parameter int LANES = 8,
    parameter int DEPTH = 8,
    parameter int CLK_HZ = 50_000_000,
    parameter int PIX_NUM = 1,
    parameter int PIX_DEN = 2,
    parameter int BAUD = 115200
) (
    input  logic        clk_25mhz,
    input  logic [6:0]  btn,
    input  logic        ftdi_txd,
    output logic        ftdi_rxd,
    output logic [7:0]  led,
    output logic        wifi_gpio0,
    output logic [3:0]  gpdi_dp,
    output logic        sdram_clk,
    output logic        sdram_cke,
    output logic        sdram_csn,
    output logic        sdram_rasn,
    output logic        sdram_casn,
    output logic        sdram_wen,
    output logic [1:0]  sdram_ba,
    output logic [12:0] sdram_a,
    output logic [1:0]  sdram_dqm,
    inout  wire  [15:0] sdram_d
);
  logic clk, clk_sd, clk_sh, locked;
  weft_pll pll (.clkin(clk_25mhz), .clkout0(clk_sh), .clkout1(clk), .clkout2(clk_sd), .locked);

  // reset: 128 cycles after the PLL locks and the button is released
  logic [7:0] por = 8'd0;
  always_ff @(posedge clk) begin
    if (!locked || !btn[0]) por <= 8'd0;
    else if (!por[7]) por <= por + 8'd1;
  end
  // the same reset in the shift clock's domain
  logic [1:0] rst_sh = 2'b11;
  always_ff @(posedge clk_sh) rst_sh <= {rst_sh[0], !por[7]};

  logic [15:0] sd_dq_o, sd_dq_i;
  logic        sd_dq_oe;
  logic [29:0] vid_sym;
  logic        vid_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        dbg_frame_on, dbg_slot, dbg_ready, dbg_dma_mv;
  logic [1:0]  dbg_dma_slot;
  logic [11:0] dbg_dma_idx;
  logic [31:0] dbg_dma_val;
  logic [7:0]  lost;
  /* verilator lint_on UNUSEDSIGNAL */
  weft_board #(
      .WARPS(WARPS), .LANES(LANES), .DEPTH(DEPTH),
      .CLKS_PER_BIT((CLK_HZ + BAUD / 2) / BAUD), .PIX_NUM(PIX_NUM), .PIX_DEN(PIX_DEN),
      // 200 us and 6 us of the core's clocks (the SDRAM's power-up wait, its refresh period)
      .SD_INIT_CLKS(CLK_HZ / 5000), .SD_REF_CLKS(CLK_HZ / 1000000 * 6)
  ) board (
      .clk, .rst(!por[7]), .uart_rx(ftdi_txd), .uart_tx(ftdi_rxd), .led,
      .sd_cke(sdram_cke), .sd_cs_n(sdram_csn), .sd_ras_n(sdram_rasn), .sd_cas_n(sdram_casn),
      .sd_we_n(sdram_wen), .sd_ba(sdram_ba), .sd_a(sdram_a), .sd_dqm(sdram_dqm), .sd_dq_o,
      .sd_dq_oe, .sd_dq_i, .vid_sym, .vid_valid, .dbg_frame_on, .dbg_slot, .dbg_ready,
      .dbg_dma_mv, .dbg_dma_slot, .dbg_dma_idx, .dbg_dma_val);

  // the SDRAM's data bus and clock
  assign sdram_d = sd_dq_oe ? sd_dq_o : 16'hzzzz;
  assign sd_dq_i = sdram_d;
  ODDRX1F sdclk (.SCLK(clk_sd), .RST(1'b0), .D0(1'b1), .D1(1'b0), .Q(sdram_clk));

  // HDMI
  logic [3:0] d0, d1;
  weft_tmds_ser ser (.clk, .rst(!por[7]), .sym(vid_sym), .sym_valid(vid_valid), .clk_sh,
                     .rst_sh(rst_sh[1]), .d0, .d1, .lost);
  genvar c;
  generate
    for (c = 0; c < 4; c++) begin : gpdi
      ODDRX1F ddr (.SCLK(clk_sh), .RST(1'b0), .D0(d0[c]), .D1(d1[c]), .Q(gpdi_dp[c]));
    end
  endgenerate

  assign wifi_gpio0 = 1'b1;   // keeps the ESP32 from resetting the board
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = &btn[6:1];
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
