//! datatrove 0.10.1's statistics (`datatrove/pipeline/stats/`): the per-document measures of its
//! `DocStats`, `LineStats`, `ParagraphStats`, `WordStats`, `SentenceStats` and
//! `WordsContaminationStats` blocks, and the
//! summaries its `StatsMerger` writes (`{group}/{stat}/metric.json`: count, mean, variance,
//! extremes and total per group value), with datatrove's arithmetic and its JSON, so that the
//! files are byte for byte the ones datatrove writes for the same documents in the same order.

mod blocks;
mod metric;
pub mod python_float;
mod summary;
mod values;

pub use blocks::{
    Block, Stats, contamination_stats, doc_stats, line_stats, measure, paragraph_stats,
    sentence_stats, word_stats,
};
pub use metric::{MetricStats, MetricStatsDict, Number, json_string};
pub use summary::{DEFAULT_TOP_K, Group, StatsDocument, StatsSummary};
pub use values::{STATS_KEYS, Stat, StatsParams};

#[cfg(test)]
mod tests;
