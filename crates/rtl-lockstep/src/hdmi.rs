//! The board's picture: the HDMI symbols the simulated board sends (`tb_board --video`)
//! decoded back into frames as a monitor would see them, and compared pixel for pixel with the
//! functional model's frames of the same program.
//!
//! The board is built for a [`VideoMode`] (the real 640×480 or a small one that simulates
//! quickly) and a [`Time`]: on the board the beam moves at the pixel clock; in model time it
//! moves one pixel per issue slot of the core, as the model's beam moves one pixel per cycle,
//! so that every frame of any program is the model's (docs/rtl.md, "The board's display").
//! [`decode_frames`] checks the stream as well as decoding it: every symbol must be the one a
//! reference TMDS encoder ([`crate::tmds::Encoder`]) gives for what it decodes to (so the
//! RTL's DC balance is exact), the channels must agree on blanking, and every frame must have
//! the mode's timing (its lines, its visible pixels, its total of pixel clocks).

use crate::board::{build_board, frames, run_board, BoardEnd, Decoder, DRAM_BYTES};
use crate::tmds::{decode, Encoder, Symbol};
use crate::{model_config, Error, ReconvMode, Shape};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use weft_simt::{Config, DisplayConfig, Frame, FrameSink, Machine, Program, RunEnd};

/// A video mode: visible pixels and lines and the blanking around them (front porch, sync,
/// back porch), in pixel clocks and lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VideoMode {
    pub h_vis: u32,
    pub h_fp: u32,
    pub h_sync: u32,
    pub h_bp: u32,
    pub v_vis: u32,
    pub v_fp: u32,
    pub v_sync: u32,
    pub v_bp: u32,
}

impl VideoMode {
    /// 640×480 at 60 Hz (the board's; 800 × 525 pixel clocks).
    pub const VGA: VideoMode = VideoMode {
        h_vis: 640,
        h_fp: 16,
        h_sync: 96,
        h_bp: 48,
        v_vis: 480,
        v_fp: 10,
        v_sync: 2,
        v_bp: 33,
    };

    /// The simulations' small mode: 64 × 32 visible, lines of 400 pixel clocks (800 core
    /// clocks on the board: time for a warp racing the beam), 40 lines.
    pub const SMALL: VideoMode = VideoMode {
        h_vis: 64,
        h_fp: 8,
        h_sync: 16,
        h_bp: 312,
        v_vis: 32,
        v_fp: 2,
        v_sync: 2,
        v_bp: 4,
    };

    /// Pixel clocks per line.
    pub fn h_total(&self) -> u32 {
        self.h_vis + self.h_fp + self.h_sync + self.h_bp
    }

    /// Lines per frame.
    pub fn v_total(&self) -> u32 {
        self.v_vis + self.v_fp + self.v_sync + self.v_bp
    }

    /// The model's display with this mode and one pixel per cycle (the board in model time).
    pub fn display_config(&self) -> DisplayConfig {
        DisplayConfig {
            cycles_per_line: self.h_total(),
            lines_per_frame: self.v_total(),
            visible_lines: self.v_vis,
            pixels_per_line: self.h_total(),
            visible_pixels: self.h_vis,
            pixel_clock_hz: 25_000_000,
        }
    }

    fn params(&self) -> Vec<(&'static str, usize)> {
        [
            ("H_VIS", self.h_vis),
            ("H_FP", self.h_fp),
            ("H_SYNC", self.h_sync),
            ("H_BP", self.h_bp),
            ("V_VIS", self.v_vis),
            ("V_FP", self.v_fp),
            ("V_SYNC", self.v_sync),
            ("V_BP", self.v_bp),
        ]
        .into_iter()
        .map(|(k, v)| (k, v as usize))
        .collect()
    }
}

/// How the simulated board's devices are timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Time {
    /// As on the board: the beam at the pixel clock (half the core's clock), the DMA engine
    /// every clock.
    Real,
    /// One beam pixel and one DMA step per issue slot of the core, as in the model.
    Model,
}

/// Build (or reuse) the simulated board with video mode `mode`, timed by `time`.
pub fn build(shape: Shape, mode: &VideoMode, time: Time) -> Result<PathBuf, Error> {
    let mut p = mode.params();
    p.push(("MODEL_TIME", (time == Time::Model) as usize));
    let tag = format!(
        "-{}x{}-{}",
        mode.h_total(),
        mode.v_total(),
        if time == Time::Model { "mt" } else { "rt" }
    );
    build_board(shape, &p, &tag)
}

/// A frame as the HDMI port sent it, at the display's resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The display was on at its line 0 (the board's debug output; an off frame is black).
    pub on: bool,
    /// Visible pixels per line.
    pub width: u32,
    /// Visible lines.
    pub height: u32,
    /// Pixels `0x00RRGGBB`, line by line.
    pub pixels: Vec<u32>,
}

/// A run of the simulated board with its picture.
#[derive(Debug)]
pub struct Run {
    /// Console and end, from the serial line.
    pub board: Decoder,
    /// Every complete frame the HDMI port sent, from the board's reset.
    pub frames: Vec<Picture>,
    /// The DMA engine's word moves (`tb_board --dma`), when asked for.
    pub dma_log: Option<String>,
    /// Clock cycles simulated.
    pub clocks: u64,
}

/// Run `prog` on the simulated board `bin` (from [`build`] with `mode`) for at most
/// `max_cycles` clocks, and decode its HDMI stream; with `dma`, also log the DMA engine's
/// word moves.
pub fn run(
    bin: &Path,
    prog: &Program,
    mode: &VideoMode,
    max_cycles: u64,
    dma: bool,
) -> Result<Run, Error> {
    let dir = bin.parent().unwrap_or(Path::new("."));
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let video = dir.join(format!("video-{}-{n}.bin", std::process::id()));
    let dma_file = dir.join(format!("dma-{}-{n}.txt", std::process::id()));
    let mut args = vec!["--video".into(), video.clone().into_os_string()];
    if dma {
        args.push("--dma".into());
        args.push(dma_file.clone().into_os_string());
    }
    let board = run_board(bin, &frames(prog, DRAM_BYTES)?, max_cycles, &args);
    let bytes = std::fs::read(&video);
    let dma_log = dma.then(|| std::fs::read_to_string(&dma_file).unwrap_or_default());
    let _ = std::fs::remove_file(&video);
    let _ = std::fs::remove_file(&dma_file);
    let (board, clocks) = board?;
    let bytes = bytes.map_err(|e| Error::Tool(format!("{}: {e}", video.display())))?;
    let symbols: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let frames = decode_frames(&symbols, mode).map_err(Error::Tool)?;
    Ok(Run {
        board,
        frames,
        dma_log,
        clocks,
    })
}

/// Decode a stream of symbol triples (`{red, green, blue}` in bits 29:0, bit 30 the board's
/// "frame on" flag) into the complete frames it holds, checking the TMDS encoding of every
/// symbol and the timing of every frame. A frame starts at the start of the stream (the beam
/// starts at the top of a frame) and at each vsync; it is complete once all its visible lines
/// have come.
pub fn decode_frames(symbols: &[u32], mode: &VideoMode) -> Result<Vec<Picture>, String> {
    let mut enc = [Encoder::default(), Encoder::default(), Encoder::default()];
    let mut frames = Vec::new();
    let mut cur = Picture {
        on: false,
        width: mode.h_vis,
        height: mode.v_vis,
        pixels: Vec::new(),
    };
    let (mut run, mut lines, mut first) = (0u32, 0u32, true);
    let mut vsync_prev = false;
    let mut last_vsync: Option<usize> = None;
    for (i, &w) in symbols.iter().enumerate() {
        let s = [(w >> 20) & 0x3ff, (w >> 10) & 0x3ff, w & 0x3ff];
        let d = s.map(|x| decode(x as u16));
        // the reference encoder must give the same symbol for the same input
        let (de, c) = match d[2] {
            Symbol::Data(_) => (true, 0),
            Symbol::Control(c) => (false, c),
        };
        for ch in 0..3 {
            let (byte, c0, c1) = match d[ch] {
                Symbol::Data(b) => (b, false, false),
                Symbol::Control(c) => (0, c & 1 != 0, c & 2 != 0),
            };
            if matches!(d[ch], Symbol::Data(_)) != de {
                return Err(format!(
                    "symbol {i}: the channels disagree on blanking ({:?})",
                    d
                ));
            }
            let want = enc[ch].encode(de, byte, c0, c1);
            if want as u32 != s[ch] {
                return Err(format!(
                    "symbol {i}, channel {ch}: {:#05x} is not the TMDS encoding of {:?} \
                     ({want:#05x} at this disparity)",
                    s[ch], d[ch]
                ));
            }
        }
        if !de
            && (matches!(d[0], Symbol::Control(x) if x != 0)
                || matches!(d[1], Symbol::Control(x) if x != 0))
        {
            return Err(format!(
                "symbol {i}: control bits on the red or green channel"
            ));
        }
        // vsync (active low: c1 = 0 during the pulse) starts a frame
        let vsync = !de && c & 2 == 0;
        if vsync && !vsync_prev {
            if let Some(p) = last_vsync {
                let total = (mode.h_total() * mode.v_total()) as usize;
                if i - p != total {
                    return Err(format!(
                        "symbol {i}: {} pixel clocks from the last vsync, the mode has {total}",
                        i - p
                    ));
                }
            }
            last_vsync = Some(i);
            cur.pixels.clear();
            lines = 0;
            first = true;
        }
        vsync_prev = vsync;
        if de {
            if run == 0 && lines == 0 && first {
                cur.on = w >> 30 & 1 != 0;
                first = false;
            }
            let rgb = d.map(|x| match x {
                Symbol::Data(b) => b as u32,
                Symbol::Control(_) => 0,
            });
            cur.pixels.push(rgb[0] << 16 | rgb[1] << 8 | rgb[2]);
            run += 1;
        } else if run > 0 {
            if run != mode.h_vis {
                return Err(format!(
                    "symbol {i}: a line of {run} visible pixels, the mode has {}",
                    mode.h_vis
                ));
            }
            run = 0;
            lines += 1;
            if lines == mode.v_vis {
                frames.push(cur.clone());
                cur.pixels.clear();
            } else if lines > mode.v_vis {
                return Err(format!(
                    "symbol {i}: more than {} visible lines",
                    mode.v_vis
                ));
            }
        }
    }
    Ok(frames)
}

/// The model's end of a run, as the board reports it.
pub fn board_end(end: &RunEnd) -> Result<BoardEnd, String> {
    match end {
        RunEnd::Exit(c) => Ok(BoardEnd::Exit(*c)),
        RunEnd::AllHalted => Ok(BoardEnd::Halt),
        RunEnd::Fault(f) => Ok(BoardEnd::Fault {
            code: f.code.code() as u8,
            pc: f.pc,
        }),
        e => Err(format!("the model ended with {e:?}")),
    }
}

/// The model's run of a program on the board's machine: console, end and every frame.
pub struct ModelRun {
    pub console: Vec<u8>,
    pub end: BoardEnd,
    pub frames: Vec<Frame>,
    /// Cycles the model ran.
    pub cycles: u64,
}

/// The functional model's configuration for the board at `shape` with `mode`: one pixel per
/// cycle (the board in model time), the board's 32 MB of DRAM, table mode.
pub fn model_config_for(shape: Shape, mode: &VideoMode, max_cycles: u64) -> Config {
    Config {
        display: mode.display_config(),
        dram_size: DRAM_BYTES,
        ..model_config(shape, ReconvMode::Table, max_cycles)
    }
}

struct Keep(Rc<RefCell<Vec<Frame>>>);

impl FrameSink for Keep {
    fn frame(&mut self, f: &Frame) -> bool {
        self.0.borrow_mut().push(f.clone());
        true
    }
}

/// Run `prog` on the functional model with `cfg`, keeping every frame.
pub fn model_run(prog: &Program, cfg: Config) -> Result<ModelRun, String> {
    let mut m = Machine::new(cfg, prog).map_err(|e| e.to_string())?;
    let keep = Rc::new(RefCell::new(Vec::new()));
    m.set_frame_sink(Box::new(Keep(keep.clone())));
    let end = m.run();
    let end = board_end(&end)?;
    let frames = keep.borrow().clone();
    Ok(ModelRun {
        console: m.console().to_vec(),
        end,
        frames,
        cycles: m.cycle,
    })
}

/// Compare an HDMI frame with the model's frame pixel for pixel: display line `l` shows
/// framebuffer row `l * height / visible lines` (the model's rule) and display pixel `x` row
/// pixel `x * width / visible pixels`. The first difference is the error.
pub fn compare(rtl: &Picture, model: &Frame) -> Result<(), String> {
    if !rtl.on {
        return Err(format!(
            "frame {}: the model shows it, the board's display was off",
            model.index
        ));
    }
    let (w, h) = (model.picture.width(), model.picture.height());
    let px = model.picture.pixels();
    for l in 0..rtl.height {
        let r = (l as u64 * h as u64 / rtl.height as u64) as u32;
        for x in 0..rtl.width {
            let c = (x as u64 * w as u64 / rtl.width as u64) as u32;
            let want = px[(r * w + c) as usize];
            let got = rtl.pixels[(l * rtl.width + x) as usize];
            if got != want {
                return Err(format!(
                    "frame {}: framebuffer pixel ({c}, {r}) is #{want:06x} in the model, the \
                     HDMI port sent #{got:06x} (display pixel {x} of line {l})",
                    model.index
                ));
            }
        }
    }
    Ok(())
}

/// Build `weft demo`'s kernel (examples/demo/demo.c) for the RTL, which has no F yet: clang
/// and lld with the device runtime (`device/`) and the flags `weft cc` uses, but for
/// `-march=rv32ima -mabi=ilp32`, floats in software (riscv gcc's rv32 libgcc); `defines` set
/// the demo's sizes (W, H, SKY, TW, TH, FRAMES, HOLD, VISIBLE, CX, CY) for a small display;
/// `stack` is the bytes of stack per lane (weft cc's `--stack-size`). The reconvergence table
/// is computed when the ELF is loaded. Returns the ELF's path in `dir`.
pub fn build_demo_rv32ima(
    dir: &Path,
    defines: &[(&str, &str)],
    stack: u32,
) -> Result<PathBuf, Error> {
    let root = crate::repo_root();
    let dev = root.join("device");
    std::fs::create_dir_all(dir).map_err(|e| Error::Tool(format!("{}: {e}", dir.display())))?;
    let tool = |cmd: &mut std::process::Command| -> Result<String, Error> {
        let out = cmd.output().map_err(|e| {
            Error::Tool(format!(
                "{cmd:?}: {e} (install clang, lld and gcc-riscv64-unknown-elf, as .ci/run does)"
            ))
        })?;
        if !out.status.success() {
            return Err(Error::Tool(format!(
                "{cmd:?}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let libgcc = tool(std::process::Command::new("riscv64-unknown-elf-gcc").args([
        "-march=rv32ima",
        "-mabi=ilp32",
        "-print-libgcc-file-name",
    ]))?;
    let clang = || {
        let mut c = std::process::Command::new("clang");
        c.args([
            "--target=riscv32-unknown-elf",
            "-march=rv32ima",
            "-mabi=ilp32",
            "-mno-relax",
            "-nostdlibinc",
            "-ffreestanding",
            "-mllvm",
            "-tail-dup-placement=false",
            "-mllvm",
            "-disable-early-taildup",
            "-mllvm",
            "-disable-tail-duplicate",
            "-I",
        ])
        .arg(dev.join("include"))
        .arg("-I")
        .arg(dev.join("include/libc"));
        c
    };
    let mut objs = Vec::new();
    // The device runtime as weft cc links it (crates/cc's RUNTIME_ASM and RUNTIME_SOURCES),
    // without math.c: the demo calls no libm function, and its float instructions are F's.
    for f in ["crt0", "fiber"] {
        let o = dir.join(format!("{f}_s.o"));
        tool(
            clang()
                .arg("-c")
                .arg(dev.join(format!("lib/{f}.S")))
                .arg("-o")
                .arg(&o),
        )?;
        objs.push(o);
    }
    for f in ["runtime", "fiber", "printf", "console", "string"] {
        let o = dir.join(format!("{f}.o"));
        tool(
            clang()
                .args(["-O2", "-fno-builtin", "-I"])
                .arg(dev.join("lib"))
                .arg("-c")
                .arg(dev.join(format!("lib/{f}.c")))
                .arg("-o")
                .arg(&o),
        )?;
        objs.push(o);
    }
    let demo = dir.join("demo.o");
    let mut c = clang();
    c.args(["-O2", "-finstrument-functions-after-inlining"]);
    for (k, v) in defines {
        c.arg(format!("-D{k}={v}"));
    }
    tool(
        c.arg("-c")
            .arg(root.join("examples/demo/demo.c"))
            .arg("-o")
            .arg(&demo),
    )?;
    objs.push(demo);
    let elf = dir.join("demo.elf");
    tool(
        std::process::Command::new("ld.lld")
            .arg("-T")
            .arg(dev.join("lib/link.ld"))
            .arg(format!("--defsym=__weft_stack_size={stack}"))
            .args(["--no-relax", "--strip-debug"])
            .args(&objs)
            .arg(&libgcc)
            .arg("-o")
            .arg(&elf),
    )?;
    Ok(elf)
}
