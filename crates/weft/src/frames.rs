//! Writing scanned frames: `--frames DIR` (one PNG per written frame), `--gif FILE` (one
//! animation), `--frames-every N` (write every Nth scanned frame) and `--max-frames N` (end
//! the run once N frames are written). The machine's display hands each frame to a
//! [`FrameWriter`]; what it wrote, and the first write error, are read back through
//! [`FramesOut`] after the run.

use std::cell::RefCell;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use weft_simt::{Frame, FrameSink};

/// What to write.
#[derive(Clone, Debug, Default)]
pub struct FrameOptions {
    /// A spinner that shows the frames scanned so far (`weft demo`).
    pub progress: Option<indicatif::ProgressBar>,
    /// PNG directory.
    pub dir: Option<PathBuf>,
    /// GIF file.
    pub gif: Option<PathBuf>,
    /// Write every Nth frame (≥ 1).
    pub every: u64,
    /// End the run after this many written frames.
    pub max: Option<u64>,
    /// Display frames per second (for the GIF's delays).
    pub fps: f64,
}

impl FrameOptions {
    /// Is anything to be written?
    pub fn any(&self) -> bool {
        self.dir.is_some() || self.gif.is_some()
    }
}

/// What was written, shared with the caller.
#[derive(Default)]
pub struct FramesOut {
    /// Frames the display scanned with the display on.
    pub scanned: u64,
    /// Frames written.
    pub written: u64,
    /// PNG files written.
    pub pngs: Vec<PathBuf>,
    /// The first error (writing stops there and the run ends).
    pub error: Option<String>,
    /// The run ended because `--max-frames` was reached.
    pub limit_reached: bool,
    /// The size of the last frame written (the framebuffer's, not the video mode's).
    pub size: Option<(u32, u32)>,
    /// The GIF being written, and its size.
    gif: Option<(gif::Encoder<BufWriter<File>>, u32, u32)>,
}

impl FramesOut {
    /// Finish the GIF (its trailer) and flush it.
    pub fn finish(&mut self) -> Result<(), String> {
        if let Some((enc, _, _)) = self.gif.take() {
            let w = enc
                .into_inner()
                .map_err(|e| format!("writing the GIF: {e}"))?;
            w.into_inner()
                .map_err(|e| format!("writing the GIF: {}", e.error()))?;
        }
        Ok(())
    }
}

/// The frame sink.
pub struct FrameWriter {
    opts: FrameOptions,
    /// Time (in display frames) of the last frame put in the GIF, and the centiseconds
    /// given so far, so that rounding does not drift.
    gif_clock: (u64, u64),
    first_index: Option<u64>,
    out: Rc<RefCell<FramesOut>>,
}

impl FrameWriter {
    /// Check the options and open the outputs: the directory is created, the GIF file
    /// created (its size is set by the first frame).
    pub fn new(opts: FrameOptions) -> Result<(FrameWriter, Rc<RefCell<FramesOut>>), String> {
        if opts.every == 0 {
            return Err("--frames-every must be at least 1".into());
        }
        if opts.max == Some(0) {
            return Err("--max-frames must be at least 1".into());
        }
        if let Some(d) = &opts.dir {
            std::fs::create_dir_all(d)
                .map_err(|e| format!("cannot create the frames directory {}: {e}", d.display()))?;
        }
        if let Some(g) = &opts.gif {
            // Fail now rather than after the run: the file must be creatable.
            File::create(g).map_err(|e| format!("cannot create {}: {e}", g.display()))?;
        }
        let out = Rc::new(RefCell::new(FramesOut::default()));
        Ok((
            FrameWriter {
                opts,
                gif_clock: (0, 0),
                first_index: None,
                out: out.clone(),
            },
            out,
        ))
    }

    fn write(&mut self, f: &Frame) -> Result<(), String> {
        let n = self.out.borrow().written;
        self.out.borrow_mut().size = Some((f.picture.width(), f.picture.height()));
        if let Some(d) = &self.opts.dir {
            let path = d.join(format!("frame{n:05}.png"));
            f.picture.write_png(&path).map_err(|e| e.to_string())?;
            self.out.borrow_mut().pngs.push(path);
        }
        if let Some(g) = self.opts.gif.clone() {
            self.gif_frame(&g, f)?;
        }
        Ok(())
    }

    fn gif_frame(&mut self, path: &Path, f: &Frame) -> Result<(), String> {
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let (w, h) = (f.picture.width(), f.picture.height());
        if w > u16::MAX as u32 || h > u16::MAX as u32 {
            return Err(err(&"frame too large for a GIF"));
        }
        let mut out = self.out.borrow_mut();
        if out.gif.is_none() {
            let file = File::create(path).map_err(|e| err(&e))?;
            let mut enc = gif::Encoder::new(BufWriter::new(file), w as u16, h as u16, &[])
                .map_err(|e| err(&e))?;
            enc.set_repeat(gif::Repeat::Infinite).map_err(|e| err(&e))?;
            out.gif = Some((enc, w, h));
        }
        let Some((enc, gw, gh)) = &mut out.gif else {
            return Ok(());
        };
        // A frame of another size (the program changed the geometry) is scaled to the first.
        let (gw, gh) = (*gw, *gh);
        let mut rgb = f.picture.to_rgb8();
        if (w, h) != (gw, gh) {
            rgb = scale_rgb(&rgb, w, h, gw, gh);
        }
        let mut frame = gif::Frame::from_rgb_speed(gw as u16, gh as u16, &rgb, 10);
        // Real time: this frame shows until the next written one, `every` display frames on.
        let first = *self.first_index.get_or_insert(f.index);
        let t_end = f.index - first + self.opts.every;
        let cs_end = (t_end as f64 * 100.0 / self.opts.fps).round() as u64;
        let delay = cs_end.saturating_sub(self.gif_clock.1).max(2);
        self.gif_clock = (t_end, self.gif_clock.1 + delay);
        frame.delay = delay.min(u16::MAX as u64) as u16;
        enc.write_frame(&frame).map_err(|e| err(&e))
    }
}

/// Nearest-neighbour scaling of an RGB picture.
fn scale_rgb(rgb: &[u8], w: u32, h: u32, nw: u32, nh: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((nw * nh * 3) as usize);
    for y in 0..nh {
        let sy = (y as u64 * h as u64 / nh as u64) as usize;
        for x in 0..nw {
            let sx = (x as u64 * w as u64 / nw as u64) as usize;
            let i = (sy * w as usize + sx) * 3;
            out.extend_from_slice(&rgb[i..i + 3]);
        }
    }
    out
}

impl FrameSink for FrameWriter {
    fn frame(&mut self, f: &Frame) -> bool {
        let k = {
            let mut o = self.out.borrow_mut();
            o.scanned += 1;
            o.scanned - 1
        };
        if let Some(p) = &self.opts.progress {
            p.set_message(format!("{} frames scanned", k + 1));
        }
        if !k.is_multiple_of(self.opts.every) {
            return true;
        }
        if let Err(e) = self.write(f) {
            self.out.borrow_mut().error = Some(e);
            return false;
        }
        let mut o = self.out.borrow_mut();
        o.written += 1;
        if self.opts.max.is_some_and(|m| o.written >= m) {
            o.limit_reached = true;
            return false;
        }
        true
    }
}

/// Attach a [`FrameWriter`] to `m` if `opts` asks for output; the handle reads the results.
pub fn attach(
    m: &mut weft_simt::Machine,
    opts: FrameOptions,
) -> Result<Option<Rc<RefCell<FramesOut>>>, String> {
    if !opts.any() {
        return Ok(None);
    }
    let (w, out) = FrameWriter::new(opts)?;
    m.set_frame_sink(Box::new(w));
    Ok(Some(out))
}

/// After the run: finish the GIF, report a write error, name the files of `announce` (the
/// demo names its own), and turn the stop at `--max-frames` into a normal end.
pub fn finish(
    out: Option<&Rc<RefCell<FramesOut>>>,
    end: weft_simt::RunEnd,
    announce: Option<&FrameOptions>,
) -> Result<weft_simt::RunEnd, String> {
    let Some(out) = out else {
        return Ok(end);
    };
    let mut o = out.borrow_mut();
    o.finish()?;
    if let Some(e) = &o.error {
        return Err(e.clone());
    }
    if o.written == 0 {
        eprintln!(
            "weft: no frame was written: the display was never on for a whole frame \
             (docs/display.md)"
        );
    } else if let Some(opts) = announce {
        let frames = format!(
            "{} of {} scanned frame{}",
            o.written,
            o.scanned,
            if o.scanned == 1 { "" } else { "s" }
        );
        if let Some(d) = &opts.dir {
            crate::wrote::wrote(&d.join("frame*.png"), &frames);
        }
        if let Some(g) = &opts.gif {
            crate::wrote::wrote(g, &format!("animated GIF of {frames}"));
        }
    }
    Ok(match end {
        weft_simt::RunEnd::CycleLimit(_) if o.limit_reached => {
            eprintln!("weft: stopped after {} frames (--max-frames)", o.written);
            weft_simt::RunEnd::AllHalted
        }
        e => e,
    })
}
