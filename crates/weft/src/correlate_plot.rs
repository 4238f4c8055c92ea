//! The correlation plot of `weft correlate`, as Accel-Sim draws its: each kernel a point at
//! (reference cycles, weft cycles) on log–log axes, the line y = x where they agree, and
//! dashed lines at ±25 %; SVG and PNG, with the font embedded in the binary (as `weft
//! sweep`'s charts).

use crate::correlate_ref::Row;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    reference: &str,
    rows: &[Row],
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let all = rows
        .iter()
        .flat_map(|r| [r.weft_cycles, r.ref_cycles])
        .map(|c| c.max(1) as f64);
    let (lo, hi) = all.fold((f64::MAX, 1f64), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = (lo / 2.0, hi * 2.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(format!("{reference} cycles"))
        .y_desc("weft cycles")
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(err)?;
    let line = |k: f64| {
        let n = 64;
        (0..=n)
            .map(|i| {
                let x = lo * (hi / lo).powf(i as f64 / n as f64);
                (x, x * k)
            })
            .collect::<Vec<_>>()
    };
    chart
        .draw_series(LineSeries::new(line(1.0), BLACK.stroke_width(2)))
        .map_err(err)?
        .label("y = x")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    let grey = RGBColor(150, 150, 150);
    for k in [0.75, 1.25] {
        let pts = line(k);
        // Dashes: every other segment of the line.
        chart
            .draw_series(
                pts.windows(2)
                    .step_by(2)
                    .map(|w| PathElement::new(vec![w[0], w[1]], grey.stroke_width(1))),
            )
            .map_err(err)?;
    }
    let blue = RGBColor(31, 119, 180);
    chart
        .draw_series(rows.iter().map(|r| {
            Circle::new(
                (r.ref_cycles.max(1) as f64, r.weft_cycles.max(1) as f64),
                5,
                blue.filled(),
            )
        }))
        .map_err(err)?
        .label("kernel")
        .legend(move |(x, y)| Circle::new((x + 10, y), 5, blue.filled()));
    chart
        .draw_series(rows.iter().map(|r| {
            Text::new(
                r.kernel.clone(),
                (
                    r.ref_cycles.max(1) as f64 * 1.06,
                    r.weft_cycles.max(1) as f64,
                ),
                ("sans-serif", 11),
            )
        }))
        .map_err(err)?;
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Write `NAME.svg` and `NAME.png` into `out`.
pub fn scatter(
    out: &Path,
    name: &str,
    title: &str,
    reference: &str,
    rows: &[Row],
) -> Result<(), String> {
    crate::sweep_chart::register_font()?;
    let svg = out.join(format!("{name}.svg"));
    let png = out.join(format!("{name}.png"));
    draw(
        SVGBackend::new(&svg, (900, 860)).into_drawing_area(),
        title,
        reference,
        rows,
    )
    .map_err(|e| format!("{}: {e}", svg.display()))?;
    draw(
        BitMapBackend::new(&png, (900, 860)).into_drawing_area(),
        title,
        reference,
        rows,
    )
    .map_err(|e| format!("{}: {e}", png.display()))
}
