// weft_memsys.sv -- the board's DRAM: the SDRAM (weft_sdram.sv) shared by NM requesters, and
// a copy of its first WIN_BYTES in block RAM that the core reads from (the "window").
//
// Requesters (index 0 first: a fixed priority, the display's row fetch before the DMA engine
// before the loader before the core) ask for n words at a word address of DRAM with m_req,
// held until m_ack, exactly as weft_sdram.sv takes requests; writes give each word and its
// byte enables until m_wtake takes it, reads get their words on m_rvalid (rdata). A request
// is granted when the controller is idle; its words go to the requester it was granted to.
//
// The window: four byte-wide block-RAM banks (bank b holds byte b of every word of the
// first WIN_BYTES), written with every word any requester writes there (one clock after the
// controller takes it), so they always hold what the SDRAM holds; the core's loads and
// fetches from the window read them (win_row, win_q: one row per bank, so a misaligned
// access is one read of each bank, the answer one clock after the rows) instead of the
// SDRAM. The display and the DMA engine read the SDRAM.
module weft_memsys #(
    parameter int NM = 4,
    parameter int AW = 23,                 // DRAM word address bits (23: 32 MB)
    parameter int WIN_BYTES = 65536,
    parameter int INIT_CLKS = 10000,
    parameter int REF_CLKS = 300,
    localparam int WR = $clog2(WIN_BYTES / 4)
) (
    input  logic                  clk,
    input  logic                  rst,
    input  logic [NM-1:0]         m_req,
    input  logic [NM-1:0]         m_we,
    input  logic [NM-1:0][AW-1:0] m_addr,
    input  logic [NM-1:0][5:0]    m_n,
    input  logic [NM-1:0][31:0]   m_wdata,
    input  logic [NM-1:0][3:0]    m_be,
    output logic [NM-1:0]         m_ack,
    output logic [NM-1:0]         m_wtake,
    output logic [NM-1:0]         m_rvalid,
    output logic [31:0]           rdata,
    output logic                  ready,   // initialised (the first request can be taken)
    // the window's read port
    input  logic [3:0][WR-1:0]    win_row,
    output logic [3:0][7:0]       win_q,
    // the chip
    output logic                  sd_cke,
    output logic                  sd_cs_n,
    output logic                  sd_ras_n,
    output logic                  sd_cas_n,
    output logic                  sd_we_n,
    output logic [1:0]            sd_ba,
    output logic [12:0]           sd_a,
    output logic [1:0]            sd_dqm,
    output logic [15:0]           sd_dq_o,
    output logic                  sd_dq_oe,
    input  logic [15:0]           sd_dq_i
);
  localparam int MB = (NM > 1) ? $clog2(NM) : 1;
  // the requester picked now (the first one asking) and the one granted the request under way
  logic [MB-1:0] pick, sel_q;
  logic          any;
  always_comb begin
    pick = '0;
    any = 1'b0;
    for (int i = NM - 1; i >= 0; i--)
      if (m_req[i]) begin
        pick = MB'(i);
        any = 1'b1;
      end
  end

  logic ack, wtake, rvalid, idle;
  weft_sdram #(.INIT_CLKS(INIT_CLKS), .REF_CLKS(REF_CLKS), .AW(AW)) ctl (
      .clk, .rst, .req(any), .we(m_we[pick]), .addr(m_addr[pick]), .n(m_n[pick]), .ack,
      .wdata(m_wdata[sel_q]), .be(m_be[sel_q]), .wtake, .rvalid, .rdata, .idle,
      .sd_cke, .sd_cs_n, .sd_ras_n, .sd_cas_n, .sd_we_n, .sd_ba, .sd_a, .sd_dqm, .sd_dq_o,
      .sd_dq_oe, .sd_dq_i);

  always_comb begin
    m_ack = '0;
    m_wtake = '0;
    m_rvalid = '0;
    m_ack[pick] = ack;
    m_wtake[sel_q] = wtake;
    m_rvalid[sel_q] = rvalid;
  end

  // the word the next wtake writes
  logic [AW-1:0] cur_q;
  logic          ready_q;
  assign ready = ready_q;
  always_ff @(posedge clk) begin
    if (rst) ready_q <= 1'b0;
    else if (idle) ready_q <= 1'b1;
    if (ack) begin
      sel_q <= pick;
      cur_q <= m_addr[pick];
    end else if (wtake) cur_q <= cur_q + AW'(1);
  end

  // ---- the window: every word written to it, one clock later --------------------------------
  logic          ww_q;
  logic [3:0]    wbe_q;
  logic [WR-1:0] wrow_q;
  logic [31:0]   wd_q;
  always_ff @(posedge clk) begin
    ww_q <= wtake && cur_q < AW'(WIN_BYTES / 4);
    wbe_q <= m_be[sel_q];
    wrow_q <= cur_q[WR-1:0];
    wd_q <= m_wdata[sel_q];
  end
  genvar b;
  generate
    for (b = 0; b < 4; b++) begin : bank
      logic [7:0] m [WIN_BYTES / 4];
      always_ff @(posedge clk) begin
        if (ww_q && wbe_q[b]) m[wrow_q] <= wd_q[8*b +: 8];
        win_q[b] <= m[win_row[b]];
      end
    end
  endgenerate
endmodule
