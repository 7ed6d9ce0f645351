//! The overview's histogram of growth classes, drawn with plotters' SVG backend (its texts are
//! escaped by plotters; the labels are growth classes jresa writes, never input text).

use plotters::prelude::*;

/// A bar chart of `(label, count)`, in the given order.
pub fn histogram_svg(bars: &[(String, usize)]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let width = (120 + 90 * bars.len() as u32).clamp(360, 900);
        let root = SVGBackend::with_string(&mut svg, (width, 320)).into_drawing_area();
        let fail = |e: &dyn std::fmt::Display| format!("cannot draw the histogram: {e}");
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let highest = bars.iter().map(|(_, count)| *count).max().unwrap_or(0).max(1);
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(
                (0..bars.len().saturating_sub(1)).into_segmented(),
                0..highest + highest / 10 + 1,
            )
            .map_err(|e| fail(&e))?;
        let label = |value: &SegmentValue<usize>| match value {
            SegmentValue::CenterOf(k) | SegmentValue::Exact(k) => {
                bars.get(*k).map(|(l, _)| l.clone()).unwrap_or_default()
            }
            SegmentValue::Last => String::new(),
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len().max(1))
            .x_label_formatter(&label)
            .x_label_style(("sans-serif", 14))
            .y_label_style(("sans-serif", 13))
            .x_desc("growth class (every parameter of size n)")
            .y_desc("bounded methods")
            .draw()
            .map_err(|e| fail(&e))?;
        // Bars drawn one by one, in order, so the same data gives the same SVG.
        let style = RGBColor(46, 125, 50).filled();
        chart
            .draw_series(bars.iter().enumerate().map(|(k, (_, count))| {
                let mut bar = Rectangle::new(
                    [(SegmentValue::Exact(k), 0), (SegmentValue::Exact(k + 1), *count)],
                    style,
                );
                bar.set_margin(0, 0, 12, 12);
                bar
            }))
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}
