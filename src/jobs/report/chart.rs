//! The report's charts as inline SVG: stacked bar histograms with threshold lines, and a heat map.
//!
//! Hand-written rather than drawn with a plotting crate: the report needs two kinds of chart, and
//! plotters' SVG backend measures text with a font backend (font-kit and the system's fonts), a
//! build dependency out of proportion to a few rectangles and labels. The SVG uses the page's
//! font, so the file opens offline and looks the same everywhere.

use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 46.0;

/// How bar heights grow with the count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    Linear,
    /// Heights proportional to the square root of the count: a bin of 16,000 and one of 50 both
    /// stay readable.
    Sqrt,
}

impl Scale {
    fn apply(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Sqrt => v.max(0.0).sqrt(),
        }
    }
}

/// One stacked layer of a bar chart: a value per bin.
pub struct Series {
    pub name: &'static str,
    pub colour: &'static str,
    pub values: Vec<f64>,
}

/// A vertical line at `at` on the bin axis (bin `i` spans `[i, i + 1)`), labelled.
pub struct Marker {
    pub at: f64,
    pub label: String,
}

/// A histogram of stacked series over `bins` bins.
pub struct BarChart {
    pub id: &'static str,
    pub title: String,
    pub x_label: String,
    pub y_label: &'static str,
    pub scale: Scale,
    /// The label of bin `i`'s left edge, drawn every `tick_every` bins.
    pub tick_labels: Vec<String>,
    pub tick_every: usize,
    pub series: Vec<Series>,
    pub markers: Vec<Marker>,
}

impl BarChart {
    fn bins(&self) -> usize {
        self.series
            .iter()
            .map(|s| s.values.len())
            .max()
            .unwrap_or(0)
    }

    fn bin_total(&self, bin: usize) -> f64 {
        self.series
            .iter()
            .map(|s| s.values.get(bin).copied().unwrap_or(0.0))
            .sum()
    }

    pub fn svg(&self) -> String {
        let bins = self.bins().max(1);
        let max = (0..bins).map(|b| self.bin_total(b)).fold(0.0, f64::max);
        let ticks = match self.scale {
            Scale::Linear => nice_ticks(max),
            Scale::Sqrt => sqrt_ticks(max),
        };
        let top = ticks.last().copied().unwrap_or(1.0).max(1.0);
        let plot = Plot {
            bin_width: (WIDTH - LEFT - RIGHT) / bins as f64,
            scale: self.scale,
            top: self.scale.apply(top),
        };
        let mut svg = open_svg(self.id, &self.title);
        write_y_axis(&mut svg, &plot, &ticks, self.y_label);
        self.write_bars(&mut svg, &plot, bins);
        self.write_x_axis(&mut svg, &plot, bins);
        self.write_markers(&mut svg, &plot);
        self.write_legend(&mut svg);
        svg.push_str("</svg>");
        svg
    }

    fn write_bars(&self, svg: &mut String, plot: &Plot, bins: usize) {
        for bin in 0..bins {
            let mut below = 0.0;
            for series in &self.series {
                let value = series.values.get(bin).copied().unwrap_or(0.0);
                if value <= 0.0 {
                    continue;
                }
                let (y0, y1) = (plot.y(below), plot.y(below + value));
                let _ = write!(
                    svg,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                    plot.x(bin as f64) + 0.5,
                    y1,
                    (plot.bin_width - 1.0).max(0.5),
                    (y0 - y1).max(0.5),
                    series.colour,
                    escape(series.name),
                    format_count(value)
                );
                below += value;
            }
        }
    }

    fn write_x_axis(&self, svg: &mut String, plot: &Plot, bins: usize) {
        let y = HEIGHT - BOTTOM;
        let _ = write!(
            svg,
            r##"<line x1="{LEFT}" y1="{y}" x2="{:.1}" y2="{y}" stroke="#444"/>"##,
            WIDTH - RIGHT
        );
        for (bin, label) in self.tick_labels.iter().enumerate().take(bins + 1) {
            if label.is_empty() || (bin % self.tick_every.max(1) != 0 && bin != bins) {
                continue;
            }
            let x = plot.x(bin as f64);
            // The right edge's label ends there, inside the drawing.
            let anchor = if bin == bins { "end" } else { "middle" };
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{y}" x2="{x:.1}" y2="{:.1}" stroke="#444"/><text x="{x:.1}" y="{:.1}" text-anchor="{anchor}" class="tick">{}</text>"##,
                y + 4.0,
                y + 16.0,
                escape(label)
            );
        }
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="axis">{}</text>"#,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 8.0,
            escape(&self.x_label)
        );
    }

    fn write_markers(&self, svg: &mut String, plot: &Plot) {
        for (i, marker) in self.markers.iter().enumerate() {
            let x = plot.x(marker.at);
            // Alternate label heights, so two close thresholds stay legible.
            let label_y = TOP + 10.0 + 13.0 * (i % 2) as f64;
            let _ = write!(
                svg,
                r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#222" stroke-dasharray="4 3"/><text x="{:.1}" y="{label_y:.1}" class="marker">{}</text>"##,
                HEIGHT - BOTTOM,
                x + 3.0,
                escape(&marker.label)
            );
        }
    }

    fn write_legend(&self, svg: &mut String) {
        let mut x = WIDTH - RIGHT - 110.0 * self.series.len() as f64;
        for series in &self.series {
            let _ = write!(
                svg,
                r#"<rect x="{x:.1}" y="8" width="12" height="12" fill="{}"/><text x="{:.1}" y="18" class="legend">{}</text>"#,
                series.colour,
                x + 16.0,
                escape(series.name)
            );
            x += 110.0;
        }
    }
}

/// Where bins and values land in the drawing.
struct Plot {
    bin_width: f64,
    scale: Scale,
    /// The scaled value at the top of the plot.
    top: f64,
}

impl Plot {
    fn x(&self, bin: f64) -> f64 {
        LEFT + bin * self.bin_width
    }

    fn y(&self, value: f64) -> f64 {
        let height = HEIGHT - TOP - BOTTOM;
        HEIGHT - BOTTOM - height * self.scale.apply(value) / self.top
    }
}

fn open_svg(id: &str, title: &str) -> String {
    format!(
        r#"<svg id="{id}" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{t}"><title>{t}</title>"#,
        t = escape(title)
    )
}

fn write_y_axis(svg: &mut String, plot: &Plot, ticks: &[f64], label: &str) {
    let _ = write!(
        svg,
        r##"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{:.1}" stroke="#444"/>"##,
        HEIGHT - BOTTOM
    );
    for &tick in ticks {
        let y = plot.y(tick);
        let _ = write!(
            svg,
            r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" class="tick">{}</text>"##,
            LEFT,
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            format_count(tick)
        );
    }
    let middle = (TOP + HEIGHT - BOTTOM) / 2.0;
    let _ = write!(
        svg,
        r#"<text x="14" y="{middle:.1}" text-anchor="middle" transform="rotate(-90 14 {middle:.1})" class="axis">{}</text>"#,
        escape(label)
    );
}

/// Round tick values from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten, about
/// five of them.
pub fn nice_ticks(max: f64) -> Vec<f64> {
    if !(max.is_finite() && max > 0.0) {
        return vec![0.0, 1.0];
    }
    let rough = max / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power)
        .max(1.0);
    let count = (max / step).ceil() as usize;
    (0..=count).map(|i| i as f64 * step).collect()
}

/// Ticks evenly spaced on a square-root axis: 0, then round values near a sixteenth, a quarter
/// and nine sixteenths of the top, and the top.
pub fn sqrt_ticks(max: f64) -> Vec<f64> {
    let top = nice_ticks(max).last().copied().unwrap_or(1.0);
    let mut ticks = vec![0.0];
    for i in 1..4 {
        let tick = round_to_one_digit(top * (i * i) as f64 / 16.0);
        if tick >= 1.0 && ticks.last().is_some_and(|&last| tick > last) {
            ticks.push(tick);
        }
    }
    ticks.push(top);
    ticks
}

fn round_to_one_digit(v: f64) -> f64 {
    let power = 10f64.powf(v.log10().floor());
    (v / power).round() * power
}

/// A count with thousands separators; a fraction with two decimals.
pub fn format_count(value: f64) -> String {
    if value.fract() != 0.0 {
        return format!("{value:.2}");
    }
    let digits = format!("{:.0}", value.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if value < 0.0 { format!("-{out}") } else { out }
}

/// A grid of cells, each shaded by its share of the whole and labelled with its values.
pub struct HeatMap {
    pub id: &'static str,
    pub title: String,
    pub row_title: &'static str,
    pub column_title: &'static str,
    pub rows: Vec<String>,
    pub columns: Vec<String>,
    /// `cells[row][column]`: the value that shades the cell, and its label lines.
    pub cells: Vec<Vec<(f64, Vec<String>)>>,
}

impl HeatMap {
    pub fn svg(&self) -> String {
        const CELL_W: f64 = 200.0;
        const CELL_H: f64 = 54.0;
        const ROW_LABELS: f64 = 150.0;
        const HEAD: f64 = 56.0;
        let width = ROW_LABELS + CELL_W * self.columns.len() as f64 + 10.0;
        let height = HEAD + CELL_H * self.rows.len() as f64 + 10.0;
        let total: f64 = self.cells.iter().flatten().map(|(v, _)| *v).sum();
        let mut svg = format!(
            r#"<svg id="{}" class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" aria-label="{t}"><title>{t}</title>"#,
            self.id,
            t = escape(&self.title)
        );
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="16" text-anchor="middle" class="axis">{}</text><text x="4" y="44" class="axis">{}</text>"#,
            ROW_LABELS + CELL_W * self.columns.len() as f64 / 2.0,
            escape(self.column_title),
            escape(self.row_title)
        );
        for (c, column) in self.columns.iter().enumerate() {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="40" text-anchor="middle" class="legend">{}</text>"#,
                ROW_LABELS + CELL_W * (c as f64 + 0.5),
                escape(column)
            );
        }
        for (r, row) in self.rows.iter().enumerate() {
            let y = HEAD + CELL_H * r as f64;
            let _ = write!(
                svg,
                r#"<text x="4" y="{:.1}" class="legend">{}</text>"#,
                y + CELL_H / 2.0 + 4.0,
                escape(row)
            );
            for (c, (value, lines)) in self.cells.get(r).into_iter().flatten().enumerate() {
                let x = ROW_LABELS + CELL_W * c as f64;
                write_cell(
                    &mut svg,
                    x,
                    y,
                    (CELL_W, CELL_H),
                    share(*value, total),
                    lines,
                );
            }
        }
        svg.push_str("</svg>");
        svg
    }
}

fn share(value: f64, total: f64) -> f64 {
    if total > 0.0 { value / total } else { 0.0 }
}

fn write_cell(svg: &mut String, x: f64, y: f64, (w, h): (f64, f64), share: f64, lines: &[String]) {
    // A square root again: a cell of 2% of the paragraphs is still visibly tinted.
    let alpha = 0.06 + 0.94 * share.clamp(0.0, 1.0).sqrt();
    let text_class = if alpha > 0.55 { "cell dark" } else { "cell" };
    let _ = write!(
        svg,
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#2b6cb0" fill-opacity="{alpha:.3}" stroke="#fff" stroke-width="2"/>"##,
        x, y, w, h
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="{text_class}">{}</text>"#,
            x + w / 2.0,
            y + 22.0 + 16.0 * i as f64,
            escape(line)
        );
    }
}

/// `s` as text of an HTML or SVG element or attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_ticks_cover_the_maximum_in_round_steps() {
        assert_eq!(
            nice_ticks(16_628.0),
            vec![0.0, 5000.0, 10000.0, 15000.0, 20000.0]
        );
        assert_eq!(nice_ticks(7.0), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(nice_ticks(0.0), vec![0.0, 1.0]);
        assert_eq!(nice_ticks(1.0), vec![0.0, 1.0]);
        assert_eq!(
            sqrt_ticks(16_628.0),
            vec![0.0, 1000.0, 5000.0, 10000.0, 20000.0]
        );
        assert_eq!(sqrt_ticks(3.0), vec![0.0, 2.0, 3.0]);
    }

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(format_count(1_204_224.0), "1,204,224");
        assert_eq!(format_count(999.0), "999");
        assert_eq!(format_count(0.25), "0.25");
    }

    #[test]
    fn a_bar_chart_draws_one_rect_per_non_empty_value_and_its_markers() {
        let chart = BarChart {
            id: "t",
            title: "T <1>".into(),
            x_label: "x".into(),
            y_label: "y",
            scale: Scale::Sqrt,
            tick_labels: vec!["0".into(), "1".into(), "2".into()],
            tick_every: 1,
            series: vec![
                Series {
                    name: "good",
                    colour: "#0a0",
                    values: vec![1.0, 0.0],
                },
                Series {
                    name: "bad",
                    colour: "#a00",
                    values: vec![3.0, 4.0],
                },
            ],
            markers: vec![Marker {
                at: 1.5,
                label: "70".into(),
            }],
        };
        let svg = chart.svg();
        assert_eq!(svg.matches("<title>good: ").count(), 1);
        assert_eq!(svg.matches("<title>bad: ").count(), 2);
        assert!(svg.contains("stroke-dasharray") && svg.contains(">70</text>"));
        assert!(svg.contains("T &lt;1&gt;"), "titles are escaped");
        assert!(svg.ends_with("</svg>"));
    }
}
