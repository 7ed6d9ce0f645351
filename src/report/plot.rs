//! SVG plots of validations (`jresa validate --plot DIR`): per method, the largest measured cost and
//! the largest value of the bound at each instance size, as two lines over the sizes, drawn with
//! plotters' SVG backend (no fonts or system libraries needed).
//!
//! **One file per method with judged instances, named after the method with characters outside
//! `[A-Za-z0-9._-]` replaced by `_` (overloads differ by their descriptors), so names are stable
//! across runs.**

use crate::validate::{MethodValidation, SizeRow, ValidationReport};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// The file name of a method's plot.
pub fn plot_file_name(m: &MethodValidation) -> String {
    let text = format!("{}.{}{}", m.class, m.name, m.descriptor);
    let safe: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.svg")
}

/// The SVG of one method's measured costs and bound by size.
pub fn method_svg(m: &MethodValidation) -> Result<String, String> {
    let caption = format!("{}.{} ({})", m.class, m.name, m.bound.as_deref().unwrap_or("no bound"));
    sizes_svg(Some(&caption), &m.by_size, (720, 480))
}

/// The SVG of measured costs and bound values by size, with an optional caption.
pub fn sizes_svg(caption: Option<&str>, by_size: &[SizeRow], (width, height): (u32, u32)) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let fail = |e: &dyn std::fmt::Display| format!("cannot draw the plot: {e}");
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let largest_size = by_size.iter().map(|r| r.size).max().unwrap_or(0) as f64;
        let largest_cost = by_size
            .iter()
            .map(|r| (r.max_measured as f64).max(r.max_bound))
            .fold(1.0, f64::max);
        let mut builder = ChartBuilder::on(&root);
        if let Some(caption) = caption {
            builder.caption(caption, ("sans-serif", 16));
        }
        let mut chart = builder
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..largest_size.max(1.0), 0f64..largest_cost * 1.05)
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_desc("instance size (largest parameter measure)")
            .y_desc("cost")
            .draw()
            .map_err(|e| fail(&e))?;
        let bound: Vec<(f64, f64)> = by_size.iter().map(|r| (r.size as f64, r.max_bound)).collect();
        let measured: Vec<(f64, f64)> = by_size.iter().map(|r| (r.size as f64, r.max_measured as f64)).collect();
        chart
            .draw_series(LineSeries::new(bound.clone(), &BLUE))
            .map_err(|e| fail(&e))?
            .label("largest bound value")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
        chart
            .draw_series(bound.iter().map(|&point| Circle::new(point, 3, BLUE.filled())))
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(LineSeries::new(measured.clone(), &RED))
            .map_err(|e| fail(&e))?
            .label("largest measured cost")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
        chart
            .draw_series(measured.iter().map(|&point| Cross::new(point, 4, RED)))
            .map_err(|e| fail(&e))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
    }
    Ok(svg)
}

/// Writes a plot per method with judged instances into `dir` (created if needed); returns the
/// files written.
pub fn write_plots(report: &ValidationReport, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for m in report.methods.iter().filter(|m| !m.by_size.is_empty()) {
        let path = dir.join(plot_file_name(m));
        let svg = method_svg(m)?;
        std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}
