//! The display controller: a framebuffer in DRAM scanned out by a raster beam whose timing
//! comes from `[display]` (pixel clock relative to the core clock, lines, blanking).
//!
//! Registers (on the device bus, [`REGS`]): `base` (byte address, read again at every row the
//! beam fetches, so a write during the visible part moves the rows after it — a raster
//! effect — and a write during vblank swaps buffers without tearing), and `width`, `height`,
//! `format`, latched when the beam starts a frame (line 0). A framebuffer of `height` rows is
//! spread over the `visible_lines` lines: display line L shows row ⌊L·height/visible_lines⌋,
//! and a row is fetched whole into the line buffer at the first cycle of the first line
//! that shows it, reading memory as it is at that cycle. That is what a raster-chase program
//! races: a store that executes before the fetch is in the picture, one after is not.
//!
//! At the first cycle of vblank (line `visible_lines`) the frame is complete: it goes to the
//! frame sink, and every core with at least one started warp counts it in `display_frames`.
//! The controller advances through [`Display::event`] at the cycles [`Display::next_event`]
//! names; the bus calls it from `Machine::begin_cycle` (catching up over cycles a driver
//! skipped), so the functional run loop and the timing model drive it the same way.

use crate::{Access, BusDevice, Ctx, Reg};
use serde::{Deserialize, Serialize};
use weft_fb::Framebuffer;
use weft_mem::Memory;

/// Display timing model that drives `scanline` and `display_frames`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DisplayConfig {
    /// Core cycles per scan line (800 pixel clocks at 640×480, one pixel per cycle).
    pub cycles_per_line: u32,
    /// Lines per frame, including blanking (525 at 640×480@60).
    pub lines_per_frame: u32,
    /// Visible lines; vblank starts at this line and is when `display_frames` counts (480).
    pub visible_lines: u32,
    /// Pixel clocks per line, blanking included (800 at 640×480@60). With
    /// `cycles_per_line` it fixes the pixel clock relative to the core clock
    /// (`pixels_per_line / cycles_per_line` pixels per core cycle).
    pub pixels_per_line: u32,
    /// Visible pixels per line (640); hblank is the rest of the line.
    pub visible_pixels: u32,
    /// The pixel clock in Hz (25 175 000 for 640×480@60): only used to give written
    /// animations their real frame rate.
    pub pixel_clock_hz: u32,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            cycles_per_line: 800,
            lines_per_frame: 525,
            visible_lines: 480,
            pixels_per_line: 800,
            visible_pixels: 640,
            pixel_clock_hz: 25_175_000,
        }
    }
}

impl DisplayConfig {
    /// Cycles per frame, blanking included.
    pub fn cycles_per_frame(&self) -> u64 {
        self.cycles_per_line as u64 * self.lines_per_frame as u64
    }

    /// Frames per second at the configured pixel clock.
    pub fn frame_rate(&self) -> f64 {
        self.pixel_clock_hz as f64 / (self.pixels_per_line as f64 * self.lines_per_frame as f64)
    }
}

/// Pixel formats (`format` register).
pub mod format {
    /// The display is off: nothing is fetched or captured (vblanks still count).
    pub const OFF: u32 = 0;
    /// 32-bit pixels, bytes R, G, B, A in memory order (`0xAABBGGRR` as a word).
    pub const RGBA8888: u32 = 1;
    /// 16-bit pixels, `RRRRRGGGGGGBBBBB`.
    pub const RGB565: u32 = 2;
}

/// Bytes per pixel of a format (0 for `OFF` or an unknown one).
pub fn bytes_per_pixel(f: u32) -> u32 {
    match f {
        format::RGBA8888 => 4,
        format::RGB565 => 2,
        _ => 0,
    }
}

/// A pixel as `0x00RRGGBB` from its raw value in format `f`.
pub fn to_rgb(f: u32, raw: u32) -> u32 {
    match f {
        format::RGB565 => {
            let (r, g, b) = ((raw >> 11) & 31, (raw >> 5) & 63, raw & 31);
            let (r, g, b) = (
                (r << 3) | (r >> 2),
                (g << 2) | (g >> 4),
                (b << 3) | (b >> 2),
            );
            r << 16 | g << 8 | b
        }
        _ => (raw & 0xff) << 16 | (raw & 0xff00) | (raw >> 16) & 0xff,
    }
}

/// One scanned frame, as the beam fetched it.
#[derive(Clone, Debug)]
pub struct Frame {
    /// Display frame number since reset (0 = the first frame the beam scanned).
    pub index: u64,
    /// The cycle its vblank began (when it was complete).
    pub cycle: u64,
    /// The picture at framebuffer resolution, pixels `0x00RRGGBB`.
    pub picture: Framebuffer,
}

/// Where scanned frames go. Return false to end the run after this frame (a frame limit).
pub trait FrameSink {
    /// A frame is complete.
    fn frame(&mut self, f: &Frame) -> bool;
}

/// The registers software sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DisplayRegs {
    /// Byte address of row 0.
    pub base: u32,
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Pixel format ([`format`]).
    pub format: u32,
}

/// Counters of the display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DisplayStats {
    /// Frames the beam completed (vblanks).
    pub frames_scanned: u64,
    /// Frames captured (the display was on).
    pub frames_captured: u64,
    /// Rows that could not be fetched (outside DRAM): shown black.
    pub bad_rows: u64,
}

/// The controller's state.
pub struct Display {
    cfg: DisplayConfig,
    /// What software wrote.
    pub regs: DisplayRegs,
    /// Geometry latched for the frame being scanned, and its picture.
    cur: Option<(DisplayRegs, Framebuffer)>,
    /// Cycle of the next event (line start) to process.
    next: u64,
    /// Per core: vblanks counted (`display_frames`).
    pub frames: Vec<u64>,
    /// Counters.
    pub stats: DisplayStats,
    /// Where frames go.
    pub sink: Option<Box<dyn FrameSink>>,
    /// The sink asked to stop.
    pub stop: bool,
}

impl Display {
    /// A display for `cores` cores, off, before the first line.
    pub fn new(cfg: DisplayConfig, cores: usize) -> Display {
        Display {
            cfg,
            regs: DisplayRegs::default(),
            cur: None,
            next: 0,
            frames: vec![0; cores],
            stats: DisplayStats::default(),
            sink: None,
            stop: false,
        }
    }

    /// The cycle of the next event.
    #[inline]
    pub fn next_event(&self) -> u64 {
        self.next
    }

    /// (line, cycle within the line) at `cycle`.
    pub fn beam(&self, cycle: u64) -> (u32, u32) {
        let cpl = self.cfg.cycles_per_line as u64;
        let line = (cycle / cpl) % self.cfg.lines_per_frame as u64;
        (line as u32, (cycle % cpl) as u32)
    }

    /// The pixel the beam is at within its line at `cycle` (≥ `visible_pixels` in hblank).
    pub fn beam_x(&self, cycle: u64) -> u32 {
        let (_, c) = self.beam(cycle);
        (c as u64 * self.cfg.pixels_per_line as u64 / self.cfg.cycles_per_line as u64) as u32
    }

    /// The status register: bit 0 vblank, bit 1 hblank, bits 16–31 the current line.
    pub fn status(&self, cycle: u64) -> u32 {
        let (line, _) = self.beam(cycle);
        let vblank = line >= self.cfg.visible_lines;
        let hblank = self.beam_x(cycle) >= self.cfg.visible_pixels;
        line << 16 | (hblank as u32) << 1 | vblank as u32
    }

    /// Check a register value before it is written; `Err` says why it is refused.
    pub fn check_write(&self, reg: u32, v: u32) -> Result<(), String> {
        match reg {
            REG_BASE if !v.is_multiple_of(4) => {
                Err(format!("display base {v:#010x} is not word-aligned"))
            }
            REG_WIDTH if v == 0 || v > self.cfg.visible_pixels => Err(format!(
                "display width {v} is not 1..={} (visible pixels)",
                self.cfg.visible_pixels
            )),
            REG_HEIGHT if v == 0 || v > self.cfg.visible_lines => Err(format!(
                "display height {v} is not 1..={} (visible lines)",
                self.cfg.visible_lines
            )),
            REG_FORMAT if v > format::RGB565 => Err(format!(
                "display format {v} is not 0 (off), 1 (RGBA8888) or 2 (RGB565)"
            )),
            _ => Ok(()),
        }
    }

    /// The framebuffer row display line `line` shows, under geometry `g`.
    fn row_of(&self, g: &DisplayRegs, line: u32) -> u32 {
        (line as u64 * g.height as u64 / self.cfg.visible_lines as u64) as u32
    }

    /// Process the event at cycle `t` (= [`Display::next_event`]): a line start.
    /// `active(c)` says whether core `c` has a started warp.
    pub fn event(&mut self, t: u64, mem: &Memory, active: &dyn Fn(usize) -> bool) {
        let cpl = self.cfg.cycles_per_line as u64;
        let (line, _) = self.beam(t);
        let frame_no = t / self.cfg.cycles_per_frame();
        if line == 0 {
            let g = self.regs;
            self.cur = (g.format != format::OFF && g.width > 0 && g.height > 0)
                .then(|| Framebuffer::new(g.width, g.height).ok())
                .flatten()
                .map(|fb| (g, fb));
        }
        if line < self.cfg.visible_lines {
            if let Some((g, _)) = &self.cur {
                // Geometry as latched at line 0; the base as it is now.
                let g = DisplayRegs {
                    base: self.regs.base,
                    ..*g
                };
                let row = self.row_of(&g, line);
                if line == 0 || self.row_of(&g, line - 1) != row {
                    self.fetch_row(&g, row, mem);
                }
            }
        }
        if line == self.cfg.visible_lines {
            self.stats.frames_scanned += 1;
            for (c, n) in self.frames.iter_mut().enumerate() {
                if active(c) {
                    *n += 1;
                }
            }
            if let Some((_, picture)) = self.cur.take() {
                self.stats.frames_captured += 1;
                let f = Frame {
                    index: frame_no,
                    cycle: t,
                    picture,
                };
                if let Some(s) = &mut self.sink {
                    if !s.frame(&f) {
                        self.stop = true;
                    }
                }
            }
        }
        // Next: every line while a frame is captured, else the next vblank or frame start.
        let next_line = if self.cur.is_some() && line + 1 < self.cfg.visible_lines {
            line + 1
        } else if line < self.cfg.visible_lines {
            self.cfg.visible_lines
        } else {
            self.cfg.lines_per_frame
        };
        self.next = (frame_no * self.cfg.lines_per_frame as u64 + next_line as u64) * cpl;
    }

    /// Fetch framebuffer row `row` into the picture being captured.
    fn fetch_row(&mut self, g: &DisplayRegs, row: u32, mem: &Memory) {
        let Some((_, pic)) = &mut self.cur else {
            return;
        };
        let bpp = bytes_per_pixel(g.format);
        let pitch = g.width as u64 * bpp as u64;
        let start = g.base as u64 + row as u64 * pitch;
        let w = g.width as usize;
        let out = &mut pic.pixels_mut()[row as usize * w..(row as usize + 1) * w];
        let fits = start + pitch <= u32::MAX as u64 + 1
            && mem.is_dram(start as u32)
            && mem.is_dram((start + pitch - 1) as u32);
        if !fits {
            out.fill(0);
            self.stats.bad_rows += 1;
            return;
        }
        let start = start as u32;
        for (x, px) in out.iter_mut().enumerate() {
            let a = start + x as u32 * bpp;
            let raw = if bpp == 4 {
                mem.load_word_fast(a)
                    .or_else(|| mem.load(0, a, 4).ok())
                    .unwrap_or(0)
            } else {
                mem.load(0, a, 2).unwrap_or(0)
            };
            *px = to_rgb(g.format, raw);
        }
    }
}

/// Register offsets within the display's block of the bus.
pub const REG_BASE: u32 = 0x0;
/// Width register offset.
pub const REG_WIDTH: u32 = 0x4;
/// Height register offset.
pub const REG_HEIGHT: u32 = 0x8;
/// Format register offset.
pub const REG_FORMAT: u32 = 0xc;
/// Status register offset (read-only).
pub const REG_STATUS: u32 = 0x10;
/// Beam x register offset (read-only).
pub const REG_BEAM_X: u32 = 0x14;

const RO: Access = Access::ReadOnly {
    what: "display status",
};

/// The display's registers (index = the order here).
pub const REGS: &[Reg] = &[
    Reg {
        name: "DISP_BASE",
        offset: REG_BASE,
        access: Access::ReadWrite,
        doc: "byte address of row 0 (read at every row fetch)",
    },
    Reg {
        name: "DISP_WIDTH",
        offset: REG_WIDTH,
        access: Access::ReadWrite,
        doc: "pixels per row, 1..=visible_pixels",
    },
    Reg {
        name: "DISP_HEIGHT",
        offset: REG_HEIGHT,
        access: Access::ReadWrite,
        doc: "rows, 1..=visible_lines",
    },
    Reg {
        name: "DISP_FORMAT",
        offset: REG_FORMAT,
        access: Access::ReadWrite,
        doc: "0 off, 1 RGBA8888, 2 RGB565",
    },
    Reg {
        name: "DISP_STATUS",
        offset: REG_STATUS,
        access: RO,
        doc: "bit 0 vblank, bit 1 hblank, bits 16-31 line",
    },
    Reg {
        name: "DISP_BEAM_X",
        offset: REG_BEAM_X,
        access: RO,
        doc: "the beam's pixel within its line",
    },
];

impl BusDevice for Display {
    fn name(&self) -> &'static str {
        "display"
    }

    fn regs(&self) -> &'static [Reg] {
        REGS
    }

    fn load(&self, now: u64, _core: usize, reg: usize) -> u32 {
        match REGS[reg].offset {
            REG_BASE => self.regs.base,
            REG_WIDTH => self.regs.width,
            REG_HEIGHT => self.regs.height,
            REG_FORMAT => self.regs.format,
            REG_STATUS => self.status(now),
            _ => self.beam_x(now),
        }
    }

    fn store(
        &mut self,
        _now: u64,
        _core: usize,
        reg: usize,
        v: u32,
        _mem: &Memory,
    ) -> Result<bool, String> {
        let off = REGS[reg].offset;
        self.check_write(off, v)?;
        match off {
            REG_BASE => self.regs.base = v,
            REG_WIDTH => self.regs.width = v,
            REG_HEIGHT => self.regs.height = v,
            _ => self.regs.format = v,
        }
        Ok(false)
    }

    fn next_event(&self) -> u64 {
        self.next
    }

    fn advance(&mut self, t: u64, ctx: &mut Ctx) {
        self.event(t, ctx.mem, ctx.active);
    }

    fn stop(&self) -> bool {
        self.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_formats_expand_to_rgb() {
        assert_eq!(to_rgb(format::RGBA8888, 0xff33_2211), 0x0011_2233);
        assert_eq!(to_rgb(format::RGB565, 0xf800), 0x00ff_0000);
        assert_eq!(to_rgb(format::RGB565, 0x07e0), 0x0000_ff00);
        assert_eq!(to_rgb(format::RGB565, 0x001f), 0x0000_00ff);
        assert_eq!(to_rgb(format::RGB565, 0x8410), 0x0084_8284);
    }
}
