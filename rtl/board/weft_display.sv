// weft_display.sv -- the display controller of docs/display.md in hardware: the framebuffer
// registers, a raster beam with the timing of a video mode (640x480 at 60 Hz by default),
// each framebuffer row fetched from DRAM into a line buffer as the beam reaches the first line
// that shows it, and the scan-out as TMDS symbols for the HDMI (GPDI) port.
//
// Registers (the I/O page, `io_*`; the board checks the access is an aligned word):
//   0 DISP_BASE    byte address of row 0, word-aligned; read again at every row fetched
//   1 DISP_WIDTH   pixels per row, 1..H_VIS; latched at line 0
//   2 DISP_HEIGHT  rows, 1..V_VIS; latched at line 0
//   3 DISP_FORMAT  0 off, 1 RGBA8888, 2 RGB565; latched at line 0
//   4 DISP_STATUS  (read-only) bit 0 vblank, bit 1 hblank, bits 31:16 the line
//   5 DISP_BEAM_X  (read-only) the beam's pixel within its line (>= H_VIS in hblank)
// A refused write (a value out of range, a read-only register) raises io_err: the board
// answers the store with an error, which the core takes as a STORE_FAULT, as the model does.
//
// The beam steps one pixel at every `pix_en`. On the board that is the pixel clock (25 MHz,
// a fraction of the core's clock); in "model time" (the board's MODEL_TIME, for the
// simulations that compare frames with the functional model) it is the core's issue slot, as
// the model's beam steps one pixel per cycle (pixels_per_line = cycles_per_line). Each step
// enters a position, and what happens at its first cycle happens then: at line 0 the
// geometry and format are latched (a frame that starts with the display off shows black); at
// the first line that shows a row (line L shows row L * height / V_VIS), the row is fetched
// from DISP_BASE as it is now, into one half of the line buffer (pixels widened to 24 bits);
// at line V_VIS (vblank) `vbl` pulses, which the core's display_frames counts. A row that is
// not inside DRAM is shown black (`bad_rows` counts them). `busy` is set while a fetch is
// under way: in model time the board holds the core's memory requests until it is done, so
// the fetch sees memory exactly as it is at the fetch's cycle, as in the model.
//
// The scan-out shows display line L while the beam is on line L + 1 (the fetch of a row has a
// whole line to finish, and the other half of the line buffer holds the row being shown):
// line L's pixel x is row pixel x * width / H_VIS. `sym` are the three channels' TMDS symbols
// ({red, green, blue}; blue carries hsync and vsync in blanking), new at each `sym_valid`,
// three beam steps after the position they show; sync pulses are negative (VGA's 640x480).
module weft_display #(
    parameter int H_VIS = 640,
    parameter int H_FP = 16,
    parameter int H_SYNC = 96,
    parameter int H_BP = 48,
    parameter int V_VIS = 480,
    parameter int V_FP = 10,
    parameter int V_SYNC = 2,
    parameter int V_BP = 33,
    parameter int AW = 23,                  // DRAM word address bits
    parameter logic [31:0] DRAM_BASE = 32'h8000_0000,
    parameter longint DRAM_BYTES = 32 << 20
) (
    input  logic            clk,
    input  logic            rst,            // the board's reset
    input  logic            beam_rst,       // restart the beam (model time: the core's reset)
    input  logic            reg_rst,        // the registers at 0 (while a program loads)
    input  logic            pix_en,
    // registers
    input  logic            io_en,
    input  logic            io_we,
    input  logic [2:0]      io_reg,
    input  logic [31:0]     io_wdata,
    output logic [31:0]     io_rdata,
    output logic            io_err,
    // the beam for the core's CSRs
    output logic [15:0]     line,
    output logic            vbl,
    output logic            busy,
    // DRAM reads (weft_memsys.sv)
    output logic            m_req,
    output logic [AW-1:0]   m_addr,
    output logic [5:0]      m_n,
    input  logic            m_ack,
    input  logic            m_rvalid,
    input  logic [31:0]     m_rdata,
    // the picture
    output logic [29:0]     sym,            // {red, green, blue} symbols
    output logic            sym_valid,
    output logic            frame_on,       // the frame being shown was latched on
    output logic [31:0]     bad_rows
);
  localparam int H_TOT = H_VIS + H_FP + H_SYNC + H_BP;
  localparam int V_TOT = V_VIS + V_FP + V_SYNC + V_BP;
  localparam int XB = $clog2(H_TOT);
  localparam int YB = $clog2(V_TOT);
  localparam int PB = $clog2(2 * H_VIS);     // line buffer index

  // ---- registers -------------------------------------------------------------------------
  logic [31:0] base_q, width_q, height_q, fmt_q;
  logic [XB-1:0] bx;
  logic [YB-1:0] by;
  logic          started;                   // the beam has entered its first position
  always_comb begin
    io_err = 1'b0;
    case (io_reg)
      3'd0: io_rdata = base_q;
      3'd1: io_rdata = width_q;
      3'd2: io_rdata = height_q;
      3'd3: io_rdata = fmt_q;
      3'd4: io_rdata = {16'(by), 14'd0, 32'(bx) >= 32'(H_VIS), 32'(by) >= 32'(V_VIS)};
      default: io_rdata = 32'(bx);
    endcase
    if (io_we)
      case (io_reg)
        3'd0: io_err = io_wdata[1:0] != 2'd0;
        3'd1: io_err = io_wdata == 32'd0 || io_wdata > 32'(H_VIS);
        3'd2: io_err = io_wdata == 32'd0 || io_wdata > 32'(V_VIS);
        3'd3: io_err = io_wdata > 32'd2;
        default: io_err = 1'b1;
      endcase
  end
  always_ff @(posedge clk) begin
    if (rst || reg_rst) begin
      base_q <= 32'd0;
      width_q <= 32'd0;
      height_q <= 32'd0;
      fmt_q <= 32'd0;
    end else if (io_en && io_we && !io_err)
      case (io_reg)
        3'd0: base_q <= io_wdata;
        3'd1: width_q <= io_wdata;
        3'd2: height_q <= io_wdata;
        default: fmt_q <= io_wdata;
      endcase
  end

  // ---- the beam and its events ------------------------------------------------------------
  // the frame's latched geometry; the row shown and its offset in the framebuffer (row *
  // pitch), and line * height - row * V_VIS (row = line * height / V_VIS); which half of the
  // line buffer the row fetched last is in (fh), which half the line the beam is on shows
  // (lh) and which half is being shown (oh); whether a half holds a black (bad) row
  logic        on_q;
  logic [15:0] w_q, h_q;
  logic [1:0]  f_q;
  logic [31:0] roff_q, pitch_q;
  logic [15:0] racc_q;
  logic        fh_q, lh_q, oh_q;
  logic [1:0]  black_q;
  wire  [XB-1:0] nbx = (bx == XB'(H_TOT - 1)) ? '0 : bx + XB'(1);
  wire  [YB-1:0] nby = (bx == XB'(H_TOT - 1)) ? ((by == YB'(V_TOT - 1)) ? '0 : by + YB'(1)) : by;
  // the position entered at this step
  wire  [XB-1:0] ex = started ? nbx : '0;
  wire  [YB-1:0] ey = started ? nby : '0;
  wire           step = pix_en;
  wire           line0 = step && ex == '0 && ey == '0;
  wire           vis_line = step && ex == '0 && ey < YB'(V_VIS);
  wire  [16:0]   rnext = {1'b0, racc_q} + {1'b0, h_q};
  wire           geo_on = fmt_q != 32'd0 && width_q != 32'd0 && height_q != 32'd0;
  // the fetch: start byte address (33 bits: base + offset may pass 4 GiB, which is not DRAM)
  logic        fetch_go;
  logic [32:0] fstart_q;
  logic        fetch_q;
  assign line = 16'(by);
  always_ff @(posedge clk) begin
    vbl <= 1'b0;
    fetch_go <= 1'b0;
    if (rst || beam_rst) begin
      started <= 1'b0;
      bx <= '0;
      by <= '0;
      on_q <= 1'b0;
      oh_q <= 1'b0;
      lh_q <= 1'b0;
      fh_q <= 1'b0;
    end else if (step) begin
      started <= 1'b1;
      bx <= ex;
      by <= ey;
      if (ex == '0) oh_q <= lh_q;            // the line just finished starts being shown
      if (ex == '0 && ey == YB'(V_VIS)) vbl <= 1'b1;
      if (line0) begin
        on_q <= geo_on;
        w_q <= 16'(width_q);
        h_q <= 16'(height_q);
        f_q <= 2'(fmt_q);
        pitch_q <= width_q << (fmt_q == 32'd1 ? 2 : 1);
        roff_q <= 32'd0;
        racc_q <= 16'd0;
        // line 0 shows row 0: fetch it
        if (geo_on) begin
          fetch_go <= 1'b1;
          fstart_q <= {1'b0, base_q};
          fh_q <= !fh_q;
          lh_q <= !fh_q;
        end
      end else if (vis_line && on_q) begin
        if (rnext >= 17'(V_VIS)) begin
          // a new row
          racc_q <= 16'(rnext - 17'(V_VIS));
          roff_q <= roff_q + pitch_q;
          fetch_go <= 1'b1;
          fstart_q <= {1'b0, base_q} + {1'b0, roff_q} + {1'b0, pitch_q};
          fh_q <= !fh_q;
          lh_q <= !fh_q;
        end else racc_q <= 16'(rnext);
      end
    end
  end

  // ---- the row fetch ------------------------------------------------------------------------
  // words [fw, fw + n) of DRAM hold the row, asked for in requests of up to 32 words that do
  // not cross 128 bytes (nor, so, an SDRAM row); each word's pixels (one RGBA8888, two
  // RGB565) are written to the line buffer one per clock as it arrives
  localparam int FB = PB + 1;
  logic [AW-1:0] fw_q;                       // next word to ask for
  logic [FB-1:0] fleft_q;                    // words still to ask for
  logic [FB-1:0] fget_q;                     // words still to come
  logic [PB-1:0] fpx_q;                      // next pixel to write
  logic [15:0]   fpix_left_q;                // pixels still to write
  logic          fskip_q;                    // an RGB565 row starting at a halfword
  wire  [32:0]   fend = fstart_q + {1'b0, pitch_q};
  wire           fin_dram = fstart_q >= {1'b0, DRAM_BASE} &&
                            fend <= {1'b0, DRAM_BASE} + 33'(DRAM_BYTES);
  /* verilator lint_off UNUSEDSIGNAL */
  wire  [31:0]   foff = fstart_q[31:0] - DRAM_BASE;          // (below 32 MB when fin_dram)
  wire  [31:0]   fwords = (32'(foff[1:0]) + pitch_q + 32'd3) >> 2;   // (at most H_VIS)
  /* verilator lint_on UNUSEDSIGNAL */
  wire  [5:0]    chunk_room = 6'd32 - {1'b0, fw_q[4:0]};
  assign m_n = (32'(fleft_q) < 32'(chunk_room)) ? 6'(fleft_q) : chunk_room;
  assign m_addr = fw_q;
  assign m_req = fetch_q && fleft_q != '0;
  assign busy = fetch_q || fetch_go;
  logic [31:0] up_w;                         // the word being unpacked
  logic [1:0]  up_n;                         // its pixel slots left
  logic        up_i;                         // the slot: 0 the low half, 1 the high half
  wire  [23:0] up_raw = (f_q == 2'd2 && up_i) ? {8'd0, up_w[31:16]} : up_w[23:0];
  wire         lb_we = up_n != 2'd0 && !fskip_q && fpix_left_q != 16'd0;
  wire  [PB-1:0] lb_wa = fpx_q;
  wire  [23:0] lb_wd = f_q == 2'd1 ? {up_raw[7:0], up_raw[15:8], up_raw[23:16]}
                                    : {up_raw[15:11], up_raw[15:13], up_raw[10:5], up_raw[10:9],
                                       up_raw[4:0], up_raw[4:2]};
  always_ff @(posedge clk) begin
    if (rst || beam_rst) begin
      fetch_q <= 1'b0;
      bad_rows <= 32'd0;
      black_q <= 2'b11;
      up_n <= 2'd0;
    end else begin
      if (fetch_go) begin
        if (!fin_dram) begin
          bad_rows <= bad_rows + 32'd1;
          black_q[fh_q] <= 1'b1;
        end else begin
          black_q[fh_q] <= 1'b0;
          fetch_q <= 1'b1;
          fw_q <= foff[AW+1:2];
          fleft_q <= FB'(fwords);
          fget_q <= FB'(fwords);
          fpx_q <= fh_q ? PB'(H_VIS) : '0;
          fpix_left_q <= w_q;
          fskip_q <= f_q == 2'd2 && foff[1];
        end
      end
      if (m_ack) begin
        fw_q <= fw_q + AW'(m_n);
        fleft_q <= fleft_q - FB'(m_n);
      end
      if (up_n != 2'd0) begin
        if (fskip_q) fskip_q <= 1'b0;
        else if (fpix_left_q != 16'd0) begin
          fpx_q <= fpx_q + PB'(1);
          fpix_left_q <= fpix_left_q - 16'd1;
        end
        up_n <= up_n - 2'd1;
        up_i <= 1'b1;
      end
      if (m_rvalid && fetch_q) begin
        fget_q <= fget_q - FB'(1);
        up_w <= m_rdata;
        up_n <= (f_q == 2'd1) ? 2'd1 : 2'd2;
        up_i <= 1'b0;
      end
      // the fetch is over once every word has come and been unpacked
      if (fetch_q && !fetch_go && fleft_q == '0 && fget_q == '0 && up_n == 2'd0 && !m_rvalid)
        fetch_q <= 1'b0;
    end
  end

  // the line buffer: two rows of H_VIS pixels
  logic [23:0] lb [2 * H_VIS];
  logic [PB-1:0] lb_ra;
  logic [23:0] lb_q;
  always_ff @(posedge clk) begin
    if (lb_we) lb[lb_wa] <= lb_wd;
    lb_q <= lb[lb_ra];
  end

  // ---- scan-out ---------------------------------------------------------------------------
  // the output line is the beam's line - 1; stage A (at a step, for the position the beam is
  // at): timing and the line buffer address; stage B (the next step): the pixel, which the
  // encoders take at the step after
  wire [YB-1:0] oy = (by == '0) ? YB'(V_TOT - 1) : by - YB'(1);
  wire          de_now = started && 32'(bx) < 32'(H_VIS) && 32'(oy) < 32'(V_VIS);
  wire          hs_now = 32'(bx) >= 32'(H_VIS + H_FP) && 32'(bx) < 32'(H_VIS + H_FP + H_SYNC);
  wire          vs_now = 32'(oy) >= 32'(V_VIS + V_FP) && 32'(oy) < 32'(V_VIS + V_FP + V_SYNC);
  // the row pixel x * width / H_VIS of the beam's x, and x * width - px * H_VIS, for the
  // position entered at each step
  logic [15:0] px_q, pacc_q;
  wire  [16:0] pnext = {1'b0, pacc_q} + {1'b0, w_q};
  always_ff @(posedge clk)
    if (step) begin
      if (ex == '0) begin
        px_q <= 16'd0;
        pacc_q <= 16'd0;
      end else if (pnext >= 17'(H_VIS)) begin
        px_q <= px_q + 16'd1;
        pacc_q <= 16'(pnext - 17'(H_VIS));
      end else pacc_q <= 16'(pnext);
    end
  logic        de_a, hs_a, vs_a, show_a, de_b, hs_b, vs_b;
  logic [23:0] pix_b;
  always_ff @(posedge clk) begin
    sym_valid <= 1'b0;
    if (rst) begin
      de_a <= 1'b0;
      de_b <= 1'b0;
      hs_a <= 1'b0;
      vs_a <= 1'b0;
      hs_b <= 1'b0;
      vs_b <= 1'b0;
      show_a <= 1'b0;
      frame_on <= 1'b0;
    end else if (step) begin
      de_a <= de_now;
      hs_a <= hs_now;
      vs_a <= vs_now;
      show_a <= de_now && on_q && !black_q[oh_q];
      lb_ra <= (oh_q ? PB'(H_VIS) : '0) + PB'(px_q);
      de_b <= de_a;
      hs_b <= hs_a;
      vs_b <= vs_a;
      pix_b <= show_a ? lb_q : 24'd0;
      sym_valid <= 1'b1;
      frame_on <= on_q;
    end
  end
  weft_tmds tr (.clk, .rst, .en(step), .de(de_b), .d(pix_b[23:16]), .c0(1'b0), .c1(1'b0),
                .q(sym[29:20]));
  weft_tmds tg (.clk, .rst, .en(step), .de(de_b), .d(pix_b[15:8]), .c0(1'b0), .c1(1'b0),
                .q(sym[19:10]));
  weft_tmds tb (.clk, .rst, .en(step), .de(de_b), .d(pix_b[7:0]), .c0(!hs_b), .c1(!vs_b),
                .q(sym[9:0]));
endmodule
