//! The results of `sql/report.sql`, read into plain numbers for the page.

use datafusion::arrow::array::{Array, ArrayRef, AsArray, RecordBatch, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};

use crate::jobs::{JobError, Result};

/// jusText's thresholds, drawn on the histograms of its features.
#[derive(Clone, Debug, PartialEq)]
pub struct Thresholds {
    pub length_low: f64,
    pub length_high: f64,
    pub stopwords_low: f64,
    pub stopwords_high: f64,
    pub max_link_density: f64,
}

/// What the report was asked for.
pub struct Settings {
    pub input: String,
    pub language: String,
    pub options: String,
    pub dedup: bool,
    /// The URL filter's options of FineWeb's chain, when it runs.
    pub filters: Option<String>,
    pub thresholds: Thresholds,
}

#[derive(Debug, Default, PartialEq)]
pub struct Headline {
    pub pages: i64,
    pub html_bytes: i64,
    pub failed_pages: i64,
    pub pages_with_text: i64,
    pub kept_chars: i64,
    pub total_chars: i64,
    pub paragraphs: i64,
    pub good_paragraphs: i64,
    pub exact_duplicate_pages: i64,
    pub near_duplicate_pages: i64,
}

/// A histogram of paragraphs by final class: counts per bin.
#[derive(Debug, Default)]
pub struct ByClass {
    pub good: Vec<f64>,
    pub bad: Vec<f64>,
}

pub struct ClassCount {
    pub context_free_class: String,
    pub class: String,
    pub paragraphs: i64,
    pub chars: i64,
}

#[derive(Debug, Default)]
pub struct Fragmentation {
    pub documents: i64,
    pub documents_with_text: i64,
    pub fragments: i64,
    pub avg_fragment_chars: Option<f64>,
    pub median_fragment_chars: Option<f64>,
    pub fragments_per_document: Option<f64>,
}

pub struct Site {
    pub site: String,
    pub pages: i64,
    pub pages_with_text: i64,
    pub kept_chars: i64,
    pub total_chars: i64,
    pub paragraphs: i64,
    pub exact_duplicate_pages: i64,
    pub near_duplicate_pages: i64,
}

pub struct SampleParagraph {
    pub text: String,
    pub class: String,
    pub context_free_class: String,
    pub heading: bool,
    pub length: i64,
    pub stopword_density: f64,
    pub link_density: f64,
}

pub struct SamplePage {
    pub url: String,
    pub paragraphs: Vec<SampleParagraph>,
}

/// Every number the page shows.
pub struct ReportData {
    pub settings: Settings,
    pub headline: Headline,
    /// Pages by kept share, bins of 0.05; bin 20 holds a share of exactly 1.
    pub kept_share: Vec<f64>,
    /// Paragraph length: bin k holds [2^k, 2^(k+1)) characters.
    pub lengths: ByClass,
    /// Stopword density in steps of 0.02.
    pub stopwords: ByClass,
    /// Link density in steps of 0.05; bin 20 holds 1 and more.
    pub links: ByClass,
    pub classes: Vec<ClassCount>,
    pub fragmentation: Fragmentation,
    pub sites: Vec<Site>,
    pub samples: Vec<SamplePage>,
    /// FineWeb's filter chain over the pages, when asked for.
    pub filters: Option<Filters>,
    /// datatrove's statistics of the kept texts, by measure (empty unless asked for).
    pub text_stats: Vec<TextStat>,
    pub seconds: f64,
}

/// A step of FineWeb's chain: the pages it saw, removed and passed on.
pub struct FilterStep {
    pub step: String,
    pub documents_in: i64,
    pub removed: i64,
    pub kept: i64,
}

/// The pages a step removed for one reason (for the language step, the language it found).
pub struct FilterReason {
    pub step: String,
    pub reason: String,
    pub documents: i64,
}

pub struct Filters {
    pub steps: Vec<FilterStep>,
    /// Most frequent first within each step.
    pub reasons: Vec<FilterReason>,
}

/// One measure of datatrove's statistics blocks over the pages' kept texts.
pub struct TextStat {
    pub stat: String,
    pub pages: i64,
    pub mean: Option<f64>,
    pub std_dev: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// The results of the report's queries, in the order of `sql/report.sql`.
pub const RESULTS: usize = 10;

impl ReportData {
    pub fn read(settings: Settings, results: &[Vec<RecordBatch>], seconds: f64) -> Result<Self> {
        let [
            headline,
            kept,
            lengths,
            stopwords,
            links,
            classes,
            fragments,
            sites,
            samples,
            text_stats,
        ] = results
        else {
            return Err(JobError::Usage(format!(
                "sql/report.sql gave {} results, not {RESULTS}",
                results.len()
            )));
        };
        let kept_bins = ints(kept, "bin")?;
        let kept_pages = ints(kept, "pages")?;
        Ok(ReportData {
            settings,
            headline: read_headline(headline)?,
            kept_share: binned(&kept_bins, &kept_pages, 21),
            lengths: by_class(lengths, 0)?,
            stopwords: by_class(stopwords, 51)?,
            links: by_class(links, 21)?,
            classes: read_classes(classes)?,
            fragmentation: read_fragmentation(fragments)?,
            sites: read_sites(sites)?,
            samples: read_samples(samples)?,
            filters: None,
            text_stats: read_text_stats(text_stats)?,
            seconds,
        })
    }
}

fn read_headline(batches: &[RecordBatch]) -> Result<Headline> {
    let one =
        |name: &str| -> Result<i64> { Ok(ints(batches, name)?.first().copied().unwrap_or(0)) };
    Ok(Headline {
        pages: one("pages")?,
        html_bytes: one("html_bytes")?,
        failed_pages: one("failed_pages")?,
        pages_with_text: one("pages_with_text")?,
        kept_chars: one("kept_chars")?,
        total_chars: one("total_chars")?,
        paragraphs: one("paragraphs")?,
        good_paragraphs: one("good_paragraphs")?,
        exact_duplicate_pages: one("exact_duplicate_pages")?,
        near_duplicate_pages: one("near_duplicate_pages")?,
    })
}

/// Counts by bin number, as a vector of at least `bins` bins (bins past the last are dropped
/// only if negative, which no query gives).
fn binned(bins: &[i64], counts: &[i64], at_least: usize) -> Vec<f64> {
    let last = bins.iter().copied().max().unwrap_or(-1);
    let len = at_least.max(usize::try_from(last + 1).unwrap_or(0));
    let mut out = vec![0.0; len];
    for (&bin, &count) in bins.iter().zip(counts) {
        if let Some(slot) = usize::try_from(bin).ok().and_then(|b| out.get_mut(b)) {
            *slot += count as f64;
        }
    }
    out
}

fn by_class(batches: &[RecordBatch], at_least: usize) -> Result<ByClass> {
    let bins = ints(batches, "bin")?;
    Ok(ByClass {
        good: binned(&bins, &ints(batches, "good")?, at_least),
        bad: binned(&bins, &ints(batches, "bad")?, at_least),
    })
}

fn read_classes(batches: &[RecordBatch]) -> Result<Vec<ClassCount>> {
    let context_free = strings(batches, "context_free_class")?;
    let class = strings(batches, "class")?;
    let paragraphs = ints(batches, "paragraphs")?;
    let chars = ints(batches, "chars")?;
    Ok((0..class.len())
        .map(|i| ClassCount {
            context_free_class: context_free[i].clone(),
            class: class[i].clone(),
            paragraphs: paragraphs[i],
            chars: chars[i],
        })
        .collect())
}

fn read_fragmentation(batches: &[RecordBatch]) -> Result<Fragmentation> {
    let int =
        |name: &str| -> Result<i64> { Ok(ints(batches, name)?.first().copied().unwrap_or(0)) };
    let float = |name: &str| -> Result<Option<f64>> {
        Ok(floats(batches, name)?.first().copied().flatten())
    };
    Ok(Fragmentation {
        documents: int("documents")?,
        documents_with_text: int("documents_with_text")?,
        fragments: int("fragments")?,
        avg_fragment_chars: float("avg_fragment_chars")?,
        median_fragment_chars: float("median_fragment_chars")?,
        fragments_per_document: float("fragments_per_document")?,
    })
}

fn read_text_stats(batches: &[RecordBatch]) -> Result<Vec<TextStat>> {
    let stat = strings(batches, "stat")?;
    let pages = ints(batches, "pages")?;
    let [mean, std_dev, min, max] = ["mean", "std_dev", "min", "max"].map(|c| floats(batches, c));
    let (mean, std_dev, min, max) = (mean?, std_dev?, min?, max?);
    Ok((0..stat.len())
        .map(|i| TextStat {
            stat: stat[i].clone(),
            pages: pages[i],
            mean: mean[i],
            std_dev: std_dev[i],
            min: min[i],
            max: max[i],
        })
        .collect())
}

fn read_sites(batches: &[RecordBatch]) -> Result<Vec<Site>> {
    let site = strings(batches, "site")?;
    let column = |name: &str| ints(batches, name);
    let (pages, with_text, kept, total, paragraphs, exact, near) = (
        column("pages")?,
        column("pages_with_text")?,
        column("kept_chars")?,
        column("total_chars")?,
        column("paragraphs")?,
        column("exact_duplicate_pages")?,
        column("near_duplicate_pages")?,
    );
    Ok((0..site.len())
        .map(|i| Site {
            site: site[i].clone(),
            pages: pages[i],
            pages_with_text: with_text[i],
            kept_chars: kept[i],
            total_chars: total[i],
            paragraphs: paragraphs[i],
            exact_duplicate_pages: exact[i],
            near_duplicate_pages: near[i],
        })
        .collect())
}

/// The two summaries of `sql/fineweb.sql`: per step, and per step and reason.
pub fn read_filters(steps: &[RecordBatch], reasons: &[RecordBatch]) -> Result<Filters> {
    let (step, documents_in, removed, kept) = (
        strings(steps, "step")?,
        ints(steps, "documents_in")?,
        ints(steps, "removed")?,
        ints(steps, "kept")?,
    );
    let (removed_by, reason, documents) = (
        strings(reasons, "removed_by")?,
        strings(reasons, "reason")?,
        ints(reasons, "documents")?,
    );
    Ok(Filters {
        steps: (0..step.len())
            .map(|i| FilterStep {
                step: step[i].clone(),
                documents_in: documents_in[i],
                removed: removed[i],
                kept: kept[i],
            })
            .collect(),
        reasons: (0..removed_by.len())
            .map(|i| FilterReason {
                step: removed_by[i].clone(),
                reason: reason[i].clone(),
                documents: documents[i],
            })
            .collect(),
    })
}

fn read_samples(batches: &[RecordBatch]) -> Result<Vec<SamplePage>> {
    let urls = strings(batches, "url")?;
    let mut lists = Vec::new();
    for batch in batches {
        let column = find(batch, "paragraphs")?;
        let list = column
            .as_list_opt::<i32>()
            .ok_or_else(|| shape("paragraphs", "a list"))?;
        for row in 0..list.len() {
            let paragraphs = if list.is_null(row) {
                Vec::new()
            } else {
                read_paragraphs(list.value(row).as_struct())?
            };
            lists.push(paragraphs);
        }
    }
    Ok(urls
        .into_iter()
        .zip(lists)
        .map(|(url, paragraphs)| SamplePage { url, paragraphs })
        .collect())
}

fn read_paragraphs(list: &StructArray) -> Result<Vec<SampleParagraph>> {
    let batch = RecordBatch::from(list.clone());
    let batches = std::slice::from_ref(&batch);
    let text = strings(batches, "text")?;
    let class = strings(batches, "class")?;
    let context_free = strings(batches, "context_free_class")?;
    let heading = strings(batches, "heading")?;
    let length = ints(batches, "length")?;
    let stopwords = floats(batches, "stopword_density")?;
    let links = floats(batches, "link_density")?;
    Ok((0..text.len())
        .map(|i| SampleParagraph {
            text: text[i].clone(),
            class: class[i].clone(),
            context_free_class: context_free[i].clone(),
            heading: heading[i] == "true",
            length: length[i],
            stopword_density: stopwords[i].unwrap_or(0.0),
            link_density: links[i].unwrap_or(0.0),
        })
        .collect())
}

fn shape(column: &str, expected: &str) -> JobError {
    JobError::Usage(format!(
        "sql/report.sql: column '{column}' is not {expected}"
    ))
}

fn find(batch: &RecordBatch, name: &str) -> Result<ArrayRef> {
    batch
        .column_by_name(name)
        .cloned()
        .ok_or_else(|| JobError::Usage(format!("sql/report.sql: a result lacks column '{name}'")))
}

/// A column of every batch cast to `to`.
fn cast_column(batches: &[RecordBatch], name: &str, to: &DataType) -> Result<Vec<ArrayRef>> {
    batches
        .iter()
        .map(|b| Ok(cast(&find(b, name)?, to)?))
        .collect()
}

/// An integer column, NULL read as 0.
fn ints(batches: &[RecordBatch], name: &str) -> Result<Vec<i64>> {
    let arrays = cast_column(batches, name, &DataType::Int64)?;
    Ok(arrays
        .iter()
        .flat_map(|a| {
            let a = a.as_primitive::<Int64Type>();
            (0..a.len()).map(move |i| if a.is_null(i) { 0 } else { a.value(i) })
        })
        .collect())
}

fn floats(batches: &[RecordBatch], name: &str) -> Result<Vec<Option<f64>>> {
    let arrays = cast_column(batches, name, &DataType::Float64)?;
    Ok(arrays
        .iter()
        .flat_map(|a| {
            let a = a.as_primitive::<Float64Type>();
            (0..a.len()).map(move |i| a.is_valid(i).then(|| a.value(i)))
        })
        .collect())
}

/// A column as text, NULL read as "".
fn strings(batches: &[RecordBatch], name: &str) -> Result<Vec<String>> {
    let arrays = cast_column(batches, name, &DataType::Utf8)?;
    Ok(arrays
        .iter()
        .flat_map(|a| {
            let a = a.as_string::<i32>();
            (0..a.len()).map(move |i| {
                if a.is_null(i) {
                    String::new()
                } else {
                    a.value(i).to_owned()
                }
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_land_in_their_slot_and_the_vector_has_at_least_the_asked_length() {
        assert_eq!(binned(&[0, 2], &[5, 7], 4), vec![5.0, 0.0, 7.0, 0.0]);
        assert_eq!(binned(&[3], &[1], 2), vec![0.0, 0.0, 0.0, 1.0]);
        assert_eq!(binned(&[], &[], 0), Vec::<f64>::new());
    }
}
