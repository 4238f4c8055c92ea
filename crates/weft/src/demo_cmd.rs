//! `weft demo`: the README's first command. Runs the built-in demo kernel
//! (`examples/demo/demo.c`, shipped prebuilt as `crates/weft/demo/demo.elf`, so nothing but
//! Rust is needed) on the default machine and display: a Mandelbrot zoom rendered through
//! shared memory and the DMA engine, over a lake drawn only by racing the beam. Writes the
//! scanned frames as PNGs and a GIF, and prints where they are and the statistics.

use clap::Args;
use std::path::PathBuf;
use std::time::Instant;
use weft_simt::{Config, Machine, RunEnd};

/// Bytes kept 8-byte aligned, as the ELF reader wants its headers.
#[repr(C, align(8))]
struct Aligned<T: ?Sized>(T);

static DEMO: &Aligned<[u8]> = &Aligned(*include_bytes!("../demo/demo.elf"));

/// The demo kernel, built by `weft cc examples/demo/demo.c -o crates/weft/demo/demo.elf`
/// (a test checks that it is current).
pub const DEMO_ELF: &[u8] = &DEMO.0;

/// Flags of `weft demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Directory for the frames (frameNNNNN.png) and demo.gif.
    #[arg(long, short = 'o', value_name = "DIR", default_value = "weft-demo")]
    pub out: PathBuf,
    /// Write every Nth scanned frame (the display runs at 60 Hz; 3 gives a 20 fps GIF).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub frames_every: u64,
    /// Run the cycle-level timing model instead of the functional one.
    #[arg(long)]
    pub timing: bool,
    /// Check every warp access against the DMA transfers in flight (slower).
    #[arg(long)]
    pub check_races: bool,
}

/// Run `weft demo`; returns the exit status.
pub fn demo(a: &DemoArgs) -> Result<i32, String> {
    let cfg = Config {
        timing: a.timing,
        ..Config::default()
    };
    let (prog, _) = weft_simt::load::program_from_elf(DEMO_ELF)
        .map_err(|e| format!("the built-in demo kernel: {e}"))?;
    let mut m = Machine::new(cfg.clone(), &prog).map_err(|e| format!("demo: {e}"))?;
    m.set_console(Box::new(std::io::stdout()));
    let gif = a.out.join("demo.gif");
    let spinner = crate::progress::spinner("weft demo:");
    let frames = crate::frames::attach(
        &mut m,
        crate::frames::FrameOptions {
            dir: Some(a.out.clone()),
            gif: Some(gif.clone()),
            every: a.frames_every,
            max: None,
            progress: Some(spinner.clone()),
            fps: cfg.display.frame_rate(),
        },
    )?;
    let races = a.check_races.then(|| {
        let (checker, log) = weft_simt::RaceChecker::new();
        m.add_observer(Box::new(checker));
        log
    });
    let d = cfg.display;
    println!(
        "weft demo: a Mandelbrot zoom over a rippling lake on {} core × {} warps × {} lanes, \
         {}×{} video timing at {:.2} Hz ({} model)",
        cfg.cores,
        cfg.warps,
        cfg.lanes,
        d.visible_pixels,
        d.visible_lines,
        d.frame_rate(),
        if a.timing { "timing" } else { "functional" }
    );
    let start = Instant::now();
    let mut timing = a.timing.then(|| weft_timing::TimingModel::new(&m.cfg));
    let end = match &mut timing {
        Some(t) => t.run(&mut m, u64::MAX),
        None => m.run(),
    };
    let secs = start.elapsed().as_secs_f64();
    spinner.finish_and_clear();
    let end = crate::frames::finish(frames.as_ref(), end, None)?;
    crate::report::report_end(&end, "the demo should end by itself");
    let r = m.report();
    let written = frames.as_ref().map_or(0, |f| f.borrow().written);
    let (w, h) = frames
        .as_ref()
        .and_then(|f| f.borrow().size)
        .unwrap_or((0, 0));
    println!(
        "  frames: {written} PNGs of the {w}×{h} framebuffer in {}/ (every {} of {} scanned) and {}",
        a.out.display(),
        ordinal(a.frames_every),
        r.display.frames_captured,
        gif.display()
    );
    println!(
        "  simulated: {} cycles = {:.2} s of display time; {} warp-instructions, {} \
         thread-instructions, SIMD efficiency {:.1}%",
        r.cycles,
        r.cycles as f64 / d.cycles_per_frame() as f64 / d.frame_rate(),
        r.warp_instructions,
        r.thread_instructions,
        100.0 * r.simd_efficiency
    );
    println!(
        "  DMA: {} triggers, {} slots, {} words to the framebuffer, {} from it; \
         {} rows the beam could not fetch",
        r.dma.triggers, r.dma.transfers, r.dma.words_out, r.dma.words_in, r.display.bad_rows
    );
    println!(
        "  took {secs:.1} s ({:.1} M warp-instructions/s); the kernel: examples/demo/demo.c, \
         the display: docs/display.md",
        r.warp_instructions as f64 / secs.max(1e-9) / 1e6
    );
    if let Some(log) = &races {
        let log = log.borrow();
        for race in log.iter() {
            eprintln!("weft: {race}");
        }
        println!("  --check-races: {} overlaps", log.len());
    }
    if let Some(t) = &timing {
        eprint!("{}", t.report(&m).table());
    }
    Ok(match end {
        RunEnd::Exit(_) | RunEnd::AllHalted => end.exit_status(),
        e => e.exit_status().max(1),
    })
}

fn ordinal(n: u64) -> String {
    match n {
        1 => "each".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}
