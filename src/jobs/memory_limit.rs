//! A query stopped by `--memory-limit`, said in one line: which of the crate's functions held the
//! memory, and what to do about it.
//!
//! DataFusion's error names the operator whose allocation failed (`AggregateStream[0]`), not the
//! function; the functions come from the plans this process ran, which a no-op analyzer rule of
//! the command's sessions notes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::{TreeNode, TreeNodeRecursion};
use datafusion::error::DataFusionError;
use datafusion::logical_expr::{Expr, LogicalPlan};
use datafusion::optimizer::AnalyzerRule;

use crate::jobs::JobError;

/// The crate's aggregates and windows that hold their whole state in one task, which DataFusion
/// cannot spill, with what to do when it does not fit.
const HOLDERS: [(&str, &str); 5] = [
    (
        "duplicate_ngrams",
        "find the n-grams in P hash ranges, one pass each (duplicate_ngrams(hashes, 'r/P'); webtext \
         dedup --hash-ranges P)",
    ),
    (
        "minhash_clusters",
        "cluster with the pairs of sql/near_dedup.sql (minhash_union, then minhash_union_clusters), \
         which hold state for the clustered documents only, not about 300 bytes per document",
    ),
    (
        "minhash_union_clusters",
        "de-duplicate fewer documents at a time, e.g. each dump or language on its own (it holds 16 \
         bytes per clustered document)",
    ),
    (
        "minhash_union",
        "de-duplicate fewer documents at a time, e.g. each dump or language on its own (it holds \
         about 48 bytes per clustered document)",
    ),
    (
        "onion_keep",
        "give it the duplicate n-grams (its duplicates option; webtext dedup does), or split the \
         corpus with PARTITION BY (webtext dedup --partition-by)",
    ),
];

static PLANNED_HOLDERS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
static LIMIT: AtomicUsize = AtomicUsize::new(0);

/// Notes the limit of a session, for the message.
pub fn note_limit(bytes: usize) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// Notes which of the memory-holding functions each plan calls; changes nothing.
#[derive(Debug)]
pub struct NoteHolders;

impl AnalyzerRule for NoteHolders {
    fn analyze(
        &self,
        plan: LogicalPlan,
        _: &ConfigOptions,
    ) -> datafusion::error::Result<LogicalPlan> {
        plan.apply_with_subqueries(|node| {
            node.apply_expressions(|expr| {
                expr.apply(|e| {
                    match e {
                        Expr::AggregateFunction(call) => note_holder(call.func.name()),
                        Expr::WindowFunction(call) => note_holder(call.fun.name()),
                        _ => {}
                    }
                    Ok(TreeNodeRecursion::Continue)
                })
            })
        })?;
        Ok(plan)
    }

    fn name(&self) -> &str {
        "webtext_note_memory_holders"
    }
}

fn note_holder(name: &str) {
    let Some((holder, _)) = HOLDERS.iter().find(|(n, _)| *n == name) else {
        return;
    };
    if let Ok(mut planned) = PLANNED_HOLDERS.lock()
        && !planned.contains(holder)
    {
        planned.push(holder);
    }
}

/// The error said as the memory limit stopping the query, when it is that.
pub fn explain(error: &JobError) -> Option<String> {
    let JobError::DataFusion(e) = error else {
        return None;
    };
    let DataFusionError::ResourcesExhausted(description) = e.find_root() else {
        return None;
    };
    // DataFusion lists the largest consumers, then says which allocation failed.
    let failed = description
        .rsplit_once("Error: ")
        .map_or(description.as_str(), |(_, last)| last)
        .trim();
    let limit = crate::memory::format_size(LIMIT.load(Ordering::Relaxed));
    // A window's reservation carries its function's name; an aggregate's is its operator's.
    let reserved_by = HOLDERS
        .iter()
        .map(|(name, _)| *name)
        .find(|name| failed.contains(&format!(" for {name} ")));
    let planned = match reserved_by {
        Some(name) => vec![name],
        None => PLANNED_HOLDERS
            .lock()
            .map(|p| p.clone())
            .unwrap_or_default(),
    };
    let (place, advice): (String, Vec<&str>) = if planned.is_empty() {
        (String::new(), Vec::new())
    } else {
        let advice = HOLDERS
            .iter()
            .filter(|(name, _)| planned.contains(name))
            .map(|(_, advice)| *advice)
            .collect();
        (format!(" in {}", planned.join(", ")), advice)
    };
    let mut what_to_do = advice.join("; ");
    if !what_to_do.is_empty() {
        what_to_do.push_str(", or ");
    }
    what_to_do.push_str("raise --memory-limit");
    Some(format!(
        "memory limit reached{place} (--memory-limit {limit}): {failed}; {what_to_do}"
    ))
}
