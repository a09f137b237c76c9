//! A job's counts as JSON, for callers that are not Rust (the Python package): one object per
//! job, its fields named as the summaries' fields.

use datafusion::arrow::array::RecordBatch;
use serde_json::{Value, json};

use crate::jobs::clean::CleanSummary;
use crate::jobs::decont_index::DecontIndexCounts;
use crate::jobs::dedup::DecisionCounts;
use crate::jobs::dedup_index::DedupIndexCounts;
use crate::jobs::exact_dedup::ExactDedupSummary;
use crate::jobs::fineweb::FinewebSummary;
use crate::jobs::near_dedup::NearDedupSummary;
use crate::jobs::sentence_dedup::SentenceDedupSummary;
use crate::jobs::sql::SqlSummary;
use crate::jobs::stats::StatsCounts;
use crate::jobs::{JobError, Result, ShardsWritten};

/// A job's summary as a JSON object.
pub trait Counts {
    fn counts(&self) -> Result<Value>;
}

impl Counts for CleanSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "pages": self.pages,
            "html_bytes": self.html_bytes,
            "failed_pages": self.failed_pages,
            "seconds": self.seconds,
            "partitions": self.partitions,
        }))
    }
}

impl Counts for DecisionCounts {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "documents": self.documents,
            "paragraphs": self.paragraphs,
            "kept": self.kept,
        }))
    }
}

impl Counts for NearDedupSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "documents": self.documents,
            "clustered": self.clustered,
            "removed": self.removed,
            "rows": self.rows,
        }))
    }
}

impl Counts for ShardsWritten {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "written": self.written,
            "skipped": self.skipped,
            "rows": self.rows,
        }))
    }
}

impl Counts for SqlSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "rows_written": self.rows_written,
            "shards": self.shards.map(|s| s.counts()).transpose()?,
        }))
    }
}

impl Counts for FinewebSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "filtered": self.filtered.map(|s| s.counts()).transpose()?,
            "kept": self.kept,
            "steps": rows(&self.steps)?,
        }))
    }
}

/// FineWeb-2's tables of steps, per language.
impl Counts for Vec<(String, Vec<RecordBatch>)> {
    fn counts(&self) -> Result<Value> {
        let mut languages = serde_json::Map::new();
        for (language, steps) in self {
            languages.insert(language.clone(), rows(steps)?);
        }
        Ok(Value::Object(languages))
    }
}

impl Counts for StatsCounts {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "documents": self.documents,
            "files": self.files,
        }))
    }
}

impl Counts for DecontIndexCounts {
    fn counts(&self) -> Result<Value> {
        let tasks: serde_json::Map<String, Value> = self
            .tasks
            .iter()
            .map(|(task, n)| (task.clone(), json!(n)))
            .collect();
        Ok(json!({
            "examples": self.examples,
            "tasks": tasks,
        }))
    }
}

impl Counts for SentenceDedupSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "changed": self.changed,
            "removed_sentences": self.removed_sentences,
            "dropped": self.dropped,
            "rows": self.rows,
        }))
    }
}

impl Counts for ExactDedupSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "dropped": self.dropped,
            "kept_with_copies": self.kept_with_copies,
            "index_hashes": self.index_hashes,
            "rows": self.rows,
        }))
    }
}

impl Counts for DedupIndexCounts {
    fn counts(&self) -> Result<Value> {
        Ok(json!({ "hashes": self.hashes }))
    }
}

impl Counts for () {
    fn counts(&self) -> Result<Value> {
        Ok(json!({}))
    }
}

/// A table's rows as a JSON array of objects.
fn rows(batches: &[RecordBatch]) -> Result<Value> {
    let mut writer = datafusion::arrow::json::ArrayWriter::new(Vec::new());
    for batch in batches {
        writer.write(batch)?;
    }
    writer.finish()?;
    let bytes = writer.into_inner();
    if bytes.is_empty() {
        return Ok(json!([]));
    }
    serde_json::from_slice(&bytes).map_err(|e| JobError::Usage(format!("a table of counts: {e}")))
}

#[cfg(feature = "tokens")]
impl Counts for super::substring_dedup::SubstringDedupSummary {
    fn counts(&self) -> Result<Value> {
        Ok(json!({
            "sequence_bytes": self.sequence_bytes,
            "ranges": self.ranges,
            "changed": self.changed,
            "dropped": self.dropped,
            "rows": self.rows,
        }))
    }
}
