//! The charts of `weft sweep`: speedup over 1 warp × 1 lane, and cycles (log scale), against
//! threads per warp with one line per warp count, as PNG and SVG (plotters). Text is drawn
//! with the DejaVu Sans font embedded in the binary (assets/fonts, Bitstream Vera licence),
//! so the charts need no fonts on the host.

use crate::sweep_job::JobResult;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

fn register_font() -> Result<(), String> {
    static DONE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
            .map_err(|_| "the embedded chart font does not load".to_string())
    })
    .clone()
}

/// One line of a chart: its name and (lanes, value) points.
struct Series {
    name: String,
    points: Vec<(usize, f64)>,
}

fn series(results: &[JobResult], value: fn(&JobResult) -> f64) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    let groups = {
        let mut g: Vec<_> = results.iter().map(|r| &r.spec.settings).collect();
        g.dedup();
        g.len()
    };
    for r in results {
        let mut name = format!(
            "{} warp{}",
            r.spec.warps,
            if r.spec.warps == 1 { "" } else { "s" }
        );
        if groups > 1 {
            let s: Vec<String> = r
                .spec
                .settings
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            name = format!("{name}, {}", s.join(" "));
        }
        match out.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push((r.spec.lanes, value(r))),
            None => out.push(Series {
                name,
                points: vec![(r.spec.lanes, value(r))],
            }),
        }
    }
    for s in &mut out {
        s.points.sort_by_key(|p| p.0);
    }
    out
}

/// An axis label: 1.5k, 250k, 2M, or the number itself below 1000.
fn short(y: f64) -> String {
    let (v, unit) = if y >= 1e6 {
        (y / 1e6, "M")
    } else if y >= 1e3 {
        (y / 1e3, "k")
    } else {
        (y, "")
    };
    let t = format!("{v:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    format!("{t}{unit}")
}

/// Labels for a log axis from `lo` to `hi`: 1, 2 and 5 times each power of ten in between,
/// so every decade the data spans is labelled.
fn log_keys(lo: f64, hi: f64) -> Vec<f64> {
    let mut keys = Vec::new();
    let mut p = 10f64.powi(lo.max(1.0).log10().floor() as i32);
    while p <= hi {
        for m in [1.0, 2.0, 5.0] {
            if (lo..=hi).contains(&(m * p)) {
                keys.push(m * p);
            }
        }
        p *= 10.0;
    }
    keys
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    y_desc: &str,
    lanes: &[usize],
    lines: &[Series],
    log: bool,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let x_of = |l: usize| lanes.iter().position(|&x| x == l).unwrap_or(0) as f64;
    let ys = lines.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = ys.fold((f64::MAX, 0f64), |(a, b), y| (a.min(y), b.max(y)));
    let xr = -0.2..(lanes.len().max(2) - 1) as f64 + 0.2;
    let mut cb = ChartBuilder::on(&root);
    cb.caption(title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(80);
    let lab = |x: &f64| {
        let k = x.round();
        if (x - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < lanes.len() {
            lanes[k as usize].to_string()
        } else {
            String::new()
        }
    };
    macro_rules! body {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_labels(lanes.len() * 4)
                .x_label_formatter(&lab)
                .x_desc("threads per warp")
                .y_desc(y_desc)
                .y_labels(12)
                .y_label_formatter(&|y: &f64| short(*y))
                .label_style(("sans-serif", 16))
                .draw()
                .map_err(err)?;
            for (k, s) in lines.iter().enumerate() {
                let color = Palette99::pick(k).to_rgba();
                let pts: Vec<(f64, f64)> = s.points.iter().map(|&(l, y)| (x_of(l), y)).collect();
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(err)?
                    .label(s.name.clone())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(pts.iter().map(|p| Circle::new(*p, 4, color.filled())))
                    .map_err(err)?;
            }
            chart
                .configure_series_labels()
                .label_font(("sans-serif", 16))
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                // Cycles fall and speedups rise from left to right: the legend goes where the
                // lines are not (the first points are the highest on the cycles chart).
                .position(if log {
                    SeriesLabelPosition::UpperRight
                } else {
                    SeriesLabelPosition::UpperLeft
                })
                .draw()
                .map_err(err)?;
        }};
    }
    if log {
        let yr = (lo.max(1.0) / 1.5)..(hi * 1.5);
        let keys = log_keys(yr.start, yr.end);
        body!(cb
            .build_cartesian_2d(xr, yr.log_scale().with_key_points(keys))
            .map_err(err)?);
    } else {
        body!(cb.build_cartesian_2d(xr, 0f64..hi * 1.1).map_err(err)?);
    }
    root.present().map_err(err)
}

/// A chart: file name, title, y-axis label, the value plotted, log scale.
type Chart<'a> = (
    &'static str,
    &'a str,
    &'static str,
    fn(&JobResult) -> f64,
    bool,
);

/// Write speedup.{png,svg} and cycles.{png,svg} into `out`.
pub fn charts(out: &Path, results: &[JobResult]) -> Result<(), String> {
    register_font()?;
    let mut lanes: Vec<usize> = results.iter().map(|r| r.spec.lanes).collect();
    lanes.sort();
    lanes.dedup();
    let one = results
        .iter()
        .any(|r| r.spec.warps == 1 && r.spec.lanes == 1);
    let charts: [Chart<'_>; 2] = [
        (
            "speedup",
            if one {
                "Speedup over 1 warp × 1 thread"
            } else {
                "Speedup over each group's first job (1 warp × 1 thread was not swept)"
            },
            "speedup",
            |r| r.speedup.unwrap_or(0.0),
            false,
        ),
        (
            "cycles",
            "Cycles",
            "cycles (log scale)",
            |r| r.measured() as f64,
            true,
        ),
    ];
    for (name, title, y, value, log) in charts {
        let lines = series(results, value);
        let svg = out.join(format!("{name}.svg"));
        let png = out.join(format!("{name}.png"));
        draw(
            SVGBackend::new(&svg, (960, 640)).into_drawing_area(),
            title,
            y,
            &lanes,
            &lines,
            log,
        )
        .map_err(|e| format!("{}: {e}", svg.display()))?;
        draw(
            BitMapBackend::new(&png, (960, 640)).into_drawing_area(),
            title,
            y,
            &lanes,
            &lines,
            log,
        )
        .map_err(|e| format!("{}: {e}", png.display()))?;
    }
    Ok(())
}
