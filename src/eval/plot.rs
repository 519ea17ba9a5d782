//! The comparison plots, each drawn once as SVG and once as PNG with plotters: utility
//! kept against recall per strategy, and utility kept per document per strategy.
//!
//! Text is laid out with a compiled-in font (Noto Sans Regular from the `ttf-noto-sans`
//! crate, Apache-2.0) through plotters' `ab_glyph` path, so plots render the same on a
//! machine without system fonts. Legends sit in a strip of their own beside the charts so
//! they never cover a point or a bar. Both outputs are byte-identical for the same input.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::element::DynElement;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};

use crate::error::{Error, Result};
use crate::sanitize::Strategy;

/// The font family every text of the plots uses (registered on first use).
const FONT: &str = "sans-serif";

/// Legend strip width, in pixels.
const LEGEND_WIDTH: u32 = 360;

/// A plot in both formats.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub svg: String,
    pub png: Vec<u8>,
}

/// One run's point on a utility-against-recall chart.
#[derive(Debug, Clone)]
pub struct RecallPoint {
    /// Legend text ("S5 generalize both", or with the variant's name).
    pub label: String,
    pub strategy: Strategy,
    /// Index of the run's variant: picks the marker shape.
    pub variant: usize,
    pub recall: f64,
    pub utility: f64,
}

/// One chart of the utility-against-recall figure: which recall its x axis shows.
#[derive(Debug, Clone)]
pub struct RecallPanel {
    pub title: String,
    pub x_label: String,
    pub points: Vec<RecallPoint>,
}

/// One strategy's utility per document, in document order.
#[derive(Debug, Clone)]
pub struct DocumentSeries {
    pub strategy: Strategy,
    pub utilities: Vec<f64>,
}

/// The colour of a strategy in every plot (Okabe–Ito, readable by colour-blind readers).
fn strategy_color(strategy: Strategy) -> RGBColor {
    match strategy {
        Strategy::S1 => RGBColor(0xE6, 0x9F, 0x00),
        Strategy::S2 => RGBColor(0x56, 0xB4, 0xE9),
        Strategy::S3 => RGBColor(0x55, 0x55, 0x55),
        Strategy::S4 => RGBColor(0xCC, 0x79, 0xA7),
        Strategy::S5 => RGBColor(0x00, 0x9E, 0x73),
    }
}

/// What each strategy does, for legends.
pub fn strategy_description(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::S1 => "S1 remove sensitive",
        Strategy::S2 => "S2 generalize sensitive",
        Strategy::S3 => "S3 remove sensitive and correlated",
        Strategy::S4 => "S4 remove sensitive, generalize correlated",
        Strategy::S5 => "S5 generalize both",
    }
}

fn plot_error(what: &str, err: impl std::fmt::Display) -> Error {
    Error::Plot {
        what: what.to_string(),
        message: err.to_string(),
    }
}

/// Registers the compiled-in font once per process.
fn ensure_font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR).is_ok());
    if ok {
        Ok(())
    } else {
        Err(plot_error("any", "the compiled-in font could not be read"))
    }
}

/// A marker whose shape tells variants apart (circle, triangle, cross, repeating).
fn marker<DB: DrawingBackend, C: Clone + 'static>(
    variant: usize,
    at: C,
    style: ShapeStyle,
) -> DynElement<'static, DB, C> {
    match variant % 3 {
        0 => Circle::new(at, 7, style).into_dyn(),
        1 => TriangleMarker::new(at, 9, style).into_dyn(),
        _ => Cross::new(at, 7, style.stroke_width(3)).into_dyn(),
    }
}

/// An entry of a legend strip: a marker (or a filled box) and its text.
struct LegendEntry {
    label: String,
    color: RGBColor,
    /// `Some(variant)` draws that variant's marker, `None` a filled box (bars).
    variant: Option<usize>,
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[LegendEntry],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let text = (FONT, 16).into_font().color(&BLACK);
    area.draw(&Text::new(
        title.to_string(),
        (10, 70),
        (FONT, 17).into_font(),
    ))?;
    for (i, entry) in entries.iter().enumerate() {
        let y = 104 + 28 * i as i32;
        let style = entry.color.filled();
        match entry.variant {
            Some(v) => area.draw(&marker(v, (22, y), style))?,
            None => area.draw(&Rectangle::new([(14, y - 8), (30, y + 8)], style))?,
        }
        area.draw(&Text::new(entry.label.clone(), (40, y - 6), text.clone()))?;
    }
    Ok(())
}

/// Draws a figure on both backends and encodes the bitmap as PNG.
fn render(
    what: &str,
    size: (u32, u32),
    draw_svg: impl Fn(
        DrawingArea<SVGBackend, Shift>,
    ) -> std::result::Result<
        (),
        DrawingAreaErrorKind<<SVGBackend as DrawingBackend>::ErrorType>,
    >,
    draw_bitmap: impl Fn(
        DrawingArea<BitMapBackend, Shift>,
    ) -> std::result::Result<
        (),
        DrawingAreaErrorKind<<BitMapBackend as DrawingBackend>::ErrorType>,
    >,
) -> Result<Rendered> {
    ensure_font()?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        draw_svg(root).map_err(|e| plot_error(what, e))?;
    }
    let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        draw_bitmap(root).map_err(|e| plot_error(what, e))?;
    }
    let mut png_bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png_bytes, size.0, size.1);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| plot_error(what, e))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| plot_error(what, e))?;
        writer.finish().map_err(|e| plot_error(what, e))?;
    }
    Ok(Rendered {
        svg,
        png: png_bytes,
    })
}

/// Utility kept (y) against a recall (x), one chart per panel, one point per run.
pub fn utility_against_recall(panels: &[RecallPanel]) -> Result<Rendered> {
    let width = 560 * panels.len().max(1) as u32 + LEGEND_WIDTH;
    let size = (width, 600);
    render(
        "utility against recall",
        size,
        |root| draw_recall(root, panels),
        |root| draw_recall(root, panels),
    )
}

fn draw_recall<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    panels: &[RecallPanel],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let root = root.titled(
        "Utility kept against recall, per strategy",
        (FONT, 26).into_font(),
    )?;
    let (charts, legend) = root.split_horizontally(root.dim_in_pixel().0 - LEGEND_WIDTH);
    let areas = charts.split_evenly((1, panels.len().max(1)));
    for (area, panel) in areas.iter().zip(panels) {
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, (FONT, 19).into_font())
            .margin(18)
            .x_label_area_size(56)
            .y_label_area_size(66)
            .build_cartesian_2d(-0.02..1.02, -0.02..1.02)?;
        chart
            .configure_mesh()
            .x_desc(panel.x_label.as_str())
            .y_desc("utility kept (eq. 21, mean over documents)")
            .axis_desc_style((FONT, 17).into_font())
            .label_style((FONT, 15).into_font())
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|v| format!("{v:.1}"))
            .y_label_formatter(&|v| format!("{v:.1}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        for p in &panel.points {
            let style = strategy_color(p.strategy).filled();
            chart.draw_series(std::iter::once(marker(
                p.variant,
                (p.recall, p.utility),
                style,
            )))?;
        }
    }
    let mut entries: Vec<LegendEntry> = Vec::new();
    if let Some(first) = panels.first() {
        for p in &first.points {
            entries.push(LegendEntry {
                label: p.label.clone(),
                color: strategy_color(p.strategy),
                variant: Some(p.variant),
            });
        }
    }
    draw_legend(&legend, "runs", &entries)?;
    root.present()
}

/// Utility kept per document (x: documents in input order), one bar per strategy.
pub fn utility_per_document(title: &str, series: &[DocumentSeries]) -> Result<Rendered> {
    let documents = series.iter().map(|s| s.utilities.len()).max().unwrap_or(0);
    let chart_width = (48 * documents as u32 * series.len().max(1) as u32 / 3).clamp(560, 2000);
    let size = (chart_width + LEGEND_WIDTH, 600);
    render(
        "utility per document",
        size,
        |root| draw_documents(root, title, series, documents),
        |root| draw_documents(root, title, series, documents),
    )
}

fn draw_documents<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    series: &[DocumentSeries],
    documents: usize,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let root = root.titled(title, (FONT, 26).into_font())?;
    let (chart_area, legend) = root.split_horizontally(root.dim_in_pixel().0 - LEGEND_WIDTH);
    let n = documents.max(1);
    let mut chart = ChartBuilder::on(&chart_area)
        .margin(18)
        .x_label_area_size(56)
        .y_label_area_size(66)
        .build_cartesian_2d(0.5..n as f64 + 0.5, 0.0..1.02)?;
    let integer_label = |v: &f64| {
        let rounded = v.round();
        if (v - rounded).abs() < 1e-6 && rounded >= 1.0 {
            format!("{rounded:.0}")
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("document (input order; ids in per_document.csv)")
        .y_desc("utility kept (eq. 21)")
        .axis_desc_style((FONT, 17).into_font())
        .label_style((FONT, 15).into_font())
        .x_labels(n.min(40) + 1)
        .y_labels(6)
        .x_label_formatter(&integer_label)
        .y_label_formatter(&|v| format!("{v:.1}"))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let group = 0.8;
    let bar = group / series.len().max(1) as f64;
    for (k, s) in series.iter().enumerate() {
        let style = strategy_color(s.strategy).filled();
        chart.draw_series(s.utilities.iter().enumerate().map(|(i, &u)| {
            let left = (i + 1) as f64 - group / 2.0 + k as f64 * bar;
            Rectangle::new([(left, 0.0), (left + bar * 0.9, u)], style)
        }))?;
    }
    let entries: Vec<LegendEntry> = series
        .iter()
        .map(|s| LegendEntry {
            label: strategy_description(s.strategy).to_string(),
            color: strategy_color(s.strategy),
            variant: None,
        })
        .collect();
    draw_legend(&legend, "strategies", &entries)?;
    root.present()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(points: Vec<RecallPoint>) -> RecallPanel {
        RecallPanel {
            title: "token recall".into(),
            x_label: "recall".into(),
            points,
        }
    }

    fn point(strategy: Strategy, recall: f64, utility: f64) -> RecallPoint {
        RecallPoint {
            label: strategy_description(strategy).into(),
            strategy,
            variant: 0,
            recall,
            utility,
        }
    }

    #[test]
    fn recall_plot_is_valid_svg_and_png_and_deterministic() {
        let panels = vec![panel(vec![
            point(Strategy::S1, 0.4, 0.7),
            point(Strategy::S5, 0.8, 0.5),
        ])];
        let a = utility_against_recall(&panels).expect("plot");
        let b = utility_against_recall(&panels).expect("plot");
        assert!(a.svg.starts_with("<svg"), "{}", &a.svg[..40]);
        assert!(a.svg.contains("S5 generalize both"));
        assert!(a.svg.contains("utility kept"));
        assert_eq!(&a.png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(a.svg, b.svg);
        assert_eq!(a.png, b.png);
    }

    #[test]
    fn document_plot_draws_one_bar_per_document_and_strategy() {
        let series = vec![
            DocumentSeries {
                strategy: Strategy::S1,
                utilities: vec![0.5, 0.25],
            },
            DocumentSeries {
                strategy: Strategy::S5,
                utilities: vec![0.75, 0.0],
            },
        ];
        let out = utility_per_document("Utility per document", &series).expect("plot");
        // Two documents × two strategies, plus the two legend boxes.
        assert_eq!(out.svg.matches("<rect").count() - 1, 4 + 2, "{}", out.svg);
        assert!(out.svg.contains("S1 remove sensitive"));
        assert_eq!(&out.png[..8], b"\x89PNG\r\n\x1a\n");
    }
}
