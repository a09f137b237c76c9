//! The report as one self-contained HTML page: inline CSS and SVG, no script, nothing fetched
//! (its Content-Security-Policy forbids it, so a slip would show as a console error).

use std::fmt::Write;

use super::chart::{BarChart, HeatMap, Marker, Scale, Series, escape, format_count};
use super::data::{ByClass, Filters, ReportData, SamplePage, Site, TextStat};

const GOOD: &str = "#2f855a";
const BAD: &str = "#c05621";
/// Paragraphs shown per sample page; the rest are counted.
const SAMPLE_PARAGRAPHS: usize = 150;
const CONTEXT_FREE_CLASSES: [&str; 4] = ["good", "neargood", "short", "bad"];

fn ratio(part: i64, whole: i64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

fn percent(share: Option<f64>) -> String {
    share.map_or("–".to_owned(), |s| format!("{:.1}%", 100.0 * s))
}

fn count(n: i64) -> String {
    format_count(n as f64)
}

pub fn render(data: &ReportData) -> String {
    let mut html = String::with_capacity(256 << 10);
    let title = format!("webtext report: {}", data.settings.input);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>",
        escape(&title)
    );
    write_header(&mut html, data);
    write_headline(&mut html, data);
    write_section(
        &mut html,
        "kept",
        "What each page keeps",
        &kept_share_chart(data).svg(),
        "The share of a page's paragraph characters that jusText keeps. Pages without any paragraph text are left out (the headline counts them).",
    );
    write_features(&mut html, data);
    write_section(
        &mut html,
        "classes",
        "Class distribution",
        &class_heat_map(data).svg(),
        "Each paragraph's context-free class (from its own length, stopword and link density) against its final class (after its neighbours are taken into account). Shading: share of paragraphs.",
    );
    write_fragmentation(&mut html, data);
    write_sites(&mut html, data);
    if let Some(filters) = &data.filters {
        write_filters(&mut html, filters);
    }
    if !data.text_stats.is_empty() {
        write_text_stats(&mut html, &data.text_stats);
    }
    write_samples(&mut html, data);
    let _ = write!(
        html,
        "<footer>Made by <code>webtext report</code> (datafusion-webtext {}) in {:.1} s; every number comes from the queries of <code>sql/report.sql</code>, which <code>webtext sql --table crawl=… --file sql/report.sql</code> prints as tables.</footer></body></html>\n",
        env!("CARGO_PKG_VERSION"),
        data.seconds
    );
    html
}

fn write_header(html: &mut String, data: &ReportData) {
    let s = &data.settings;
    let options = if s.options.is_empty() {
        "defaults".to_owned()
    } else {
        escape(&s.options)
    };
    let _ = write!(
        html,
        "<header><h1>Corpus report</h1><p class=\"input\">{}</p><p class=\"settings\">Extractor: jusText 3.0.2 · stoplist: {} · options: {} · de-duplication: {} · filters: {}</p></header>",
        escape(&s.input),
        escape(&s.language),
        options,
        if s.dedup {
            "exact and MinHash near duplicates of the kept text"
        } else {
            "not asked for (--dedup)"
        },
        match &s.filters {
            Some(url_filter) => format!("FineWeb's chain, url_filter {}", escape(url_filter)),
            None => "not asked for (--filters)".to_owned(),
        }
    );
}

fn tile(html: &mut String, name: &str, value: i64, shown: &str, label: &str, note: &str) {
    let _ = write!(
        html,
        "<div class=\"tile\" data-name=\"{name}\" data-value=\"{value}\"><div class=\"value\">{}</div><div class=\"label\">{}</div><div class=\"note\">{}</div></div>",
        escape(shown),
        escape(label),
        escape(note)
    );
}

fn write_headline(html: &mut String, data: &ReportData) {
    let h = &data.headline;
    html.push_str("<section id=\"headline\"><div class=\"tiles\">");
    tile(
        html,
        "pages",
        h.pages,
        &count(h.pages),
        "pages",
        &format!("{} could not be processed", count(h.failed_pages)),
    );
    tile(
        html,
        "html_bytes",
        h.html_bytes,
        &format!("{:.1} MB", h.html_bytes as f64 / 1e6),
        "of HTML",
        &format!("{} bytes", count(h.html_bytes)),
    );
    tile(
        html,
        "pages_with_text",
        h.pages_with_text,
        &count(h.pages_with_text),
        "pages with text",
        &format!(
            "{} of the pages",
            percent(ratio(h.pages_with_text, h.pages))
        ),
    );
    tile(
        html,
        "kept_chars",
        h.kept_chars,
        &count(h.kept_chars),
        "characters kept",
        &format!(
            "{} of {} paragraph characters",
            percent(ratio(h.kept_chars, h.total_chars)),
            count(h.total_chars)
        ),
    );
    tile(
        html,
        "paragraphs",
        h.paragraphs,
        &count(h.paragraphs),
        "paragraphs",
        &format!(
            "{} good ({})",
            count(h.good_paragraphs),
            percent(ratio(h.good_paragraphs, h.paragraphs))
        ),
    );
    if data.settings.dedup {
        tile(
            html,
            "exact_duplicate_pages",
            h.exact_duplicate_pages,
            &count(h.exact_duplicate_pages),
            "exact duplicates",
            "pages whose kept text another page has too",
        );
        tile(
            html,
            "near_duplicate_pages",
            h.near_duplicate_pages,
            &count(h.near_duplicate_pages),
            "near duplicates",
            "pages in a MinHash cluster (datatrove's defaults)",
        );
    }
    html.push_str("</div></section>");
}

fn write_section(html: &mut String, id: &str, title: &str, body: &str, caption: &str) {
    let _ = write!(
        html,
        "<section id=\"{id}\"><h2>{}</h2><p class=\"caption\">{}</p>{body}</section>",
        escape(title),
        escape(caption)
    );
}

fn kept_share_chart(data: &ReportData) -> BarChart {
    let mut labels: Vec<String> = (0..=20).map(|i| trim_float(i as f64 * 0.05)).collect();
    labels[20] = "=1".into();
    BarChart {
        id: "chart-kept-share",
        title: "Pages by kept share".into(),
        x_label: "kept characters / paragraph characters of the page".into(),
        y_label: "pages",
        scale: Scale::Linear,
        tick_labels: labels,
        tick_every: 4,
        series: vec![Series {
            name: "pages",
            colour: GOOD,
            values: data.kept_share.clone(),
        }],
        markers: Vec::new(),
    }
}

fn classed(values: &ByClass) -> Vec<Series> {
    vec![
        Series {
            name: "good",
            colour: GOOD,
            values: values.good.clone(),
        },
        Series {
            name: "bad",
            colour: BAD,
            values: values.bad.clone(),
        },
    ]
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn write_features(html: &mut String, data: &ReportData) {
    let t = &data.settings.thresholds;
    let length_bins = data.lengths.good.len().max(data.lengths.bad.len()).max(12);
    let lengths = BarChart {
        id: "chart-length",
        title: "Paragraph length by final class".into(),
        x_label: "characters (bins of powers of two)".into(),
        y_label: "paragraphs (√ scale)",
        scale: Scale::Sqrt,
        tick_labels: (0..=length_bins)
            .map(|k| count(1i64 << k.min(62)))
            .collect(),
        tick_every: if length_bins > 12 { 2 } else { 1 },
        series: classed(&data.lengths),
        markers: vec![
            Marker {
                at: t.length_low.max(1.0).log2(),
                label: format!("length_low {}", t.length_low),
            },
            Marker {
                at: t.length_high.max(1.0).log2(),
                label: format!("length_high {}", t.length_high),
            },
        ],
    };
    let stopwords = BarChart {
        id: "chart-stopwords",
        title: "Stopword density by final class".into(),
        x_label: "stopwords / words".into(),
        y_label: "paragraphs (√ scale)",
        scale: Scale::Sqrt,
        // Bin 50 holds a density of exactly 1: no edge is drawn after it.
        tick_labels: (0..=50).map(|i| trim_float(i as f64 * 0.02)).collect(),
        tick_every: 5,
        series: classed(&data.stopwords),
        markers: vec![
            Marker {
                at: t.stopwords_low * 50.0,
                label: format!("stopwords_low {}", trim_float(t.stopwords_low)),
            },
            Marker {
                at: t.stopwords_high * 50.0,
                label: format!("stopwords_high {}", trim_float(t.stopwords_high)),
            },
        ],
    };
    let mut link_labels: Vec<String> = (0..=20).map(|i| trim_float(i as f64 * 0.05)).collect();
    link_labels[20] = "≥1".into();
    let links = BarChart {
        id: "chart-links",
        title: "Link density by final class".into(),
        x_label: "characters in links / characters".into(),
        y_label: "paragraphs (√ scale)",
        scale: Scale::Sqrt,
        tick_labels: link_labels,
        tick_every: 4,
        series: classed(&data.links),
        markers: vec![Marker {
            at: t.max_link_density * 20.0,
            label: format!("max_link_density {}", trim_float(t.max_link_density)),
        }],
    };
    let _ = write!(
        html,
        "<section id=\"features\"><h2>Why paragraphs go</h2><p class=\"caption\">{}</p>{}{}{}</section>",
        escape(
            "jusText classifies a paragraph by its length, its stopword density and its link density; the dashed lines are its thresholds. A paragraph with links over max_link_density is bad; one shorter than length_low is short; one with stopwords under stopwords_low is bad; a long one over stopwords_high is good, the rest near-good. Short and near-good paragraphs then take the class of their neighbours."
        ),
        lengths.svg(),
        stopwords.svg(),
        links.svg()
    );
}

fn class_heat_map(data: &ReportData) -> HeatMap {
    let total_paragraphs: i64 = data.classes.iter().map(|c| c.paragraphs).sum();
    let total_chars: i64 = data.classes.iter().map(|c| c.chars).sum();
    let cells = CONTEXT_FREE_CLASSES
        .iter()
        .map(|context_free| {
            ["good", "bad"]
                .iter()
                .map(|class| {
                    let found = data
                        .classes
                        .iter()
                        .find(|c| c.context_free_class == *context_free && c.class == *class);
                    let (n, chars) = found.map_or((0, 0), |c| (c.paragraphs, c.chars));
                    let lines = vec![
                        format!(
                            "{} paragraphs ({})",
                            count(n),
                            percent(ratio(n, total_paragraphs))
                        ),
                        format!(
                            "{} characters ({})",
                            count(chars),
                            percent(ratio(chars, total_chars))
                        ),
                    ];
                    (n as f64, lines)
                })
                .collect()
        })
        .collect();
    HeatMap {
        id: "chart-classes",
        title: "Context-free class × final class".into(),
        row_title: "context-free class",
        column_title: "final class",
        rows: CONTEXT_FREE_CLASSES.iter().map(|s| s.to_string()).collect(),
        columns: vec!["good (kept)".into(), "bad (removed)".into()],
        cells,
    }
}

fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map_or("–".to_owned(), |v| format!("{v:.decimals$}"))
}

fn write_fragmentation(html: &mut String, data: &ReportData) {
    let f = &data.fragmentation;
    let _ = write!(
        html,
        "<section id=\"fragmentation\"><h2>Fragmentation</h2><p class=\"caption\">{}</p><table class=\"numbers\">\
         <tr><th>documents</th><th>with text</th><th>fragments</th><th>average fragment (chars)</th><th>median fragment (chars)</th><th>fragments per document</th></tr>\
         <tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table></section>",
        escape(
            "As in Pomikálek's thesis, table 2.11: a fragment is a run of consecutive good paragraphs. Per document counts every page, including those that keep nothing."
        ),
        count(f.documents),
        count(f.documents_with_text),
        count(f.fragments),
        optional(f.avg_fragment_chars, 1),
        optional(f.median_fragment_chars, 1),
        optional(f.fragments_per_document, 2)
    );
}

fn site_row(html: &mut String, site: &Site, dedup: bool) {
    let share = ratio(site.kept_chars, site.total_chars);
    let bar = share.unwrap_or(0.0) * 100.0;
    let _ = write!(
        html,
        "<tr><td class=\"site\">{}</td><td>{}</td><td>{}</td><td class=\"share\"><span class=\"bar\" style=\"width:{bar:.1}px\"></span>{}</td><td>{}</td><td>{}</td>",
        escape(&site.site),
        count(site.pages),
        count(site.pages_with_text),
        percent(share),
        count(site.kept_chars),
        count(site.paragraphs)
    );
    if dedup {
        let _ = write!(
            html,
            "<td>{}</td><td>{}</td>",
            percent(ratio(site.exact_duplicate_pages, site.pages)),
            percent(ratio(site.near_duplicate_pages, site.pages))
        );
    }
    html.push_str("</tr>");
}

fn write_sites(html: &mut String, data: &ReportData) {
    let dedup = data.settings.dedup;
    let _ = write!(
        html,
        "<section id=\"sites\"><h2>Sites</h2><p class=\"caption\">The {} sites with the most pages (a site is the URL's host without www.).</p><table class=\"numbers\"><tr><th>site</th><th>pages</th><th>with text</th><th>kept share</th><th>kept chars</th><th>paragraphs</th>{}</tr>",
        data.sites.len(),
        if dedup {
            "<th>exact duplicates</th><th>near duplicates</th>"
        } else {
            ""
        }
    );
    for site in &data.sites {
        site_row(html, site, dedup);
    }
    html.push_str("</table></section>");
}

/// Reasons shown per step of the filters' table; the rest are in the decisions' SQL.
const REASONS_PER_STEP: usize = 3;

fn write_filters(html: &mut String, filters: &Filters) {
    let _ = write!(
        html,
        "<section id=\"filters\"><h2>FineWeb's filters</h2><p class=\"caption\">{}</p><table class=\"numbers\"><tr><th>step</th><th>pages in</th><th>removed</th><th>removed share</th><th>kept</th><th>main reasons (pages)</th></tr>",
        escape(
            "The pages each step of FineWeb's chain removed, in datatrove's order (sql/fineweb.sql: its own extraction, jusText with the English stoplist; English over 0.65 by lid.176). Each step sees only the pages the steps before it kept; for the language step, the reasons are the languages found."
        )
    );
    for step in &filters.steps {
        let share = ratio(step.removed, step.documents_in);
        let bar = share.unwrap_or(0.0) * 100.0;
        let reasons: Vec<String> = filters
            .reasons
            .iter()
            .filter(|r| r.step == step.step)
            .take(REASONS_PER_STEP)
            .map(|r| format!("{} ({})", escape(&r.reason), count(r.documents)))
            .collect();
        let _ = write!(
            html,
            "<tr data-step=\"{}\" data-removed=\"{}\" data-kept=\"{}\"><td class=\"site\">{}</td><td>{}</td><td>{}</td><td class=\"share\"><span class=\"bar\" style=\"width:{bar:.1}px\"></span>{}</td><td>{}</td><td class=\"site\">{}</td></tr>",
            escape(&step.step),
            step.removed,
            step.kept,
            escape(&step.step),
            count(step.documents_in),
            count(step.removed),
            percent(share),
            count(step.kept),
            reasons.join(", ")
        );
    }
    html.push_str("</table></section>");
}

fn write_text_stats(html: &mut String, stats: &[TextStat]) {
    let _ = write!(
        html,
        "<section id=\"stats\"><h2>datatrove's statistics of the kept texts</h2><p class=\"caption\">{}</p><table class=\"numbers\"><tr><th>measure</th><th>pages</th><th>mean</th><th>std. dev.</th><th>min</th><th>max</th></tr>",
        escape(
            "The measures of datatrove's DocStats, LineStats, ParagraphStats, WordStats and SentenceStats (English) over the text jusText keeps of each page that keeps some, as datatrove_stats takes them: the pages measured, the mean, the standard deviation, the minimum and the maximum. webtext stats writes the same measures' summaries, per site and as histograms, as datatrove's files."
        )
    );
    let number = |x: Option<f64>| x.map_or_else(|| "–".to_owned(), |x| format!("{x:.4}"));
    for s in stats {
        let _ = write!(
            html,
            "<tr data-stat=\"{}\" data-mean=\"{}\"><td class=\"site\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&s.stat),
            s.mean.unwrap_or(f64::NAN),
            escape(&s.stat),
            count(s.pages),
            number(s.mean),
            number(s.std_dev),
            number(s.min),
            number(s.max)
        );
    }
    html.push_str("</table></section>");
}

fn write_sample(html: &mut String, page: &SamplePage) {
    let _ = write!(
        html,
        "<article class=\"sample\"><h3>{}</h3><div class=\"paragraphs\">",
        escape(&page.url)
    );
    for p in page.paragraphs.iter().take(SAMPLE_PARAGRAPHS) {
        let tag = if p.heading { "h4" } else { "p" };
        let _ = write!(
            html,
            "<{tag} class=\"cf-{} final-{}\" title=\"{}\"><span class=\"why\">{} → {}</span>{}</{tag}>",
            escape(&p.context_free_class),
            escape(&p.class),
            escape(&format!(
                "length {}, stopword density {:.3}, link density {:.3}",
                p.length, p.stopword_density, p.link_density
            )),
            escape(&p.context_free_class),
            escape(&p.class),
            escape(&p.text)
        );
    }
    let more = page.paragraphs.len().saturating_sub(SAMPLE_PARAGRAPHS);
    if more > 0 {
        let _ = write!(html, "<p class=\"more\">… {more} more paragraphs</p>");
    }
    html.push_str("</div></article>");
}

fn write_samples(html: &mut String, data: &ReportData) {
    let _ = write!(
        html,
        "<section id=\"samples\"><h2>Sample pages</h2><p class=\"caption\">{}</p><p class=\"legend\">\
         <span class=\"cf-good\">good</span> <span class=\"cf-neargood\">near-good</span> <span class=\"cf-short\">short</span> <span class=\"cf-bad\">bad</span> \
         context-free class · <span class=\"final-good\">kept</span> <span class=\"final-bad\">removed</span> final class</p>",
        escape(
            "Pages that keep some paragraphs and lose others, chosen by a hash of their URL. Each paragraph is shaded by its context-free class; kept ones have a green bar, removed ones are greyed. Hover a paragraph for its measures."
        )
    );
    for page in &data.samples {
        write_sample(html, page);
    }
    html.push_str("</section>");
}

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:0 auto;max-width:1180px;padding:16px 24px;color:#1a202c;background:#fff}\
h1{margin:0 0 4px;font-size:26px}h2{font-size:19px;margin:28px 0 4px;border-bottom:1px solid #e2e8f0;padding-bottom:4px}h3{font-size:14px;margin:14px 0 6px;word-break:break-all}\
.input{font-family:ui-monospace,'DejaVu Sans Mono',monospace;margin:0;color:#2d3748}.settings,.caption,footer{color:#4a5568;font-size:13px}\
.tiles{display:flex;flex-wrap:wrap;gap:12px}.tile{border:1px solid #e2e8f0;border-radius:8px;padding:10px 14px;min-width:150px}\
.tile .value{font-size:24px;font-weight:600}.tile .label{font-size:13px}.tile .note{font-size:12px;color:#718096}\
#features svg{display:block;margin-bottom:10px}\
svg text{font-family:inherit;fill:#2d3748}svg .tick{font-size:11px}svg .axis{font-size:12px}svg .legend{font-size:12px}svg .marker{font-size:11px;fill:#1a202c}\
svg .cell{font-size:12px}svg .cell.dark{fill:#fff}\
table.numbers{border-collapse:collapse;font-size:13px}table.numbers th,table.numbers td{padding:4px 10px;border-bottom:1px solid #edf2f7;text-align:right}\
table.numbers th{background:#f7fafc}table.numbers th:first-child{text-align:left}table.numbers td.site{text-align:left}td.share{white-space:nowrap}\
.bar{display:inline-block;height:9px;background:#2f855a;margin-right:6px;vertical-align:middle}\
.sample .paragraphs{max-height:460px;overflow:auto;border:1px solid #e2e8f0;border-radius:6px;padding:6px}\
.sample p,.sample h4{margin:3px 0;padding:3px 6px 3px 8px;font-size:13px;border-left:4px solid transparent}.sample h4{font-weight:600}\
.why{float:right;font-size:11px;color:#4a5568;margin-left:8px}.more{color:#718096;font-style:italic}\
.cf-good{background:#c6f6d5}.cf-neargood{background:#fefcbf}.cf-short{background:#edf2f7}.cf-bad{background:#fed7d7}\
.final-good{border-left-color:#2f855a!important}.final-bad{color:#718096}\
p.legend{font-size:12px}.legend span{padding:1px 6px;border-left:4px solid transparent;font-size:12px}\
footer{margin-top:32px;border-top:1px solid #e2e8f0;padding-top:8px}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_makes_text_safe_in_elements_and_attributes() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn floats_lose_trailing_zeros() {
        assert_eq!(trim_float(0.30), "0.3");
        assert_eq!(trim_float(1.0), "1");
        assert_eq!(trim_float(0.05), "0.05");
    }
}
