//! The oracle columns of datatrove's Gopher repetition, FineWeb quality and Gopher quality filters,
//! and our values of them as the oracles write them: shared by the English checker
//! (`datatrove.rs`) and FineWeb-2's (`fineweb2.rs`).

use datafusion_webtext::datatrove::filters::{FineWebQuality, GopherQuality, GopherRepetition};

pub const REPETITION: [&str; 17] = [
    "gr_passed",
    "gr_reason",
    "gr_n_paragraphs",
    "gr_dup_paragraphs",
    "gr_dup_paragraph_chars",
    "gr_n_lines",
    "gr_dup_lines",
    "gr_dup_line_chars",
    "gr_top2_chars",
    "gr_top3_chars",
    "gr_top4_chars",
    "gr_dup5_chars",
    "gr_dup6_chars",
    "gr_dup7_chars",
    "gr_dup8_chars",
    "gr_dup9_chars",
    "gr_dup10_chars",
];

pub const QUALITY: [&str; 9] = [
    "fw_passed",
    "fw_reason",
    "fw_n_lines",
    "fw_punct_lines",
    "fw_short_lines",
    "fw_dup_chars",
    "fw_chars_no_newline",
    "fw_newlines",
    "fw_n_words",
];

pub const GOPHER: [&str; 12] = [
    "gq_passed",
    "gq_reason",
    "gq_n_words",
    "gq_n_non_symbol_words",
    "gq_sum_non_symbol_word_len",
    "gq_hash_count",
    "gq_ellipsis_count",
    "gq_n_lines",
    "gq_bullet_lines",
    "gq_ellipsis_end_lines",
    "gq_alpha_words",
    "gq_stop_words",
];

/// Our values of [`REPETITION`] for `text` (the oracles have no statistics for an empty text, only
/// its reason).
pub fn repetition_row(text: &str, gr: &GopherRepetition) -> Vec<String> {
    let stat = |v: Option<usize>| match v {
        Some(v) if !text.is_empty() => v.to_string(),
        _ => String::new(),
    };
    let counts = [
        gr.n_paragraphs,
        gr.dup_paragraphs,
        gr.dup_paragraph_chars,
        gr.n_lines,
        gr.dup_lines,
        gr.dup_line_chars,
    ];
    let statistics = (counts.into_iter().map(Some))
        .chain(gr.top_chars)
        .chain(gr.dup_chars.map(Some))
        .map(stat);
    decision_row(gr.reason.as_deref(), statistics)
}

/// A filter's decision (passed, reason) followed by its statistics.
fn decision_row(reason: Option<&str>, statistics: impl IntoIterator<Item = String>) -> Vec<String> {
    let decision = [
        reason.is_none().to_string(),
        reason.unwrap_or_default().to_owned(),
    ];
    decision.into_iter().chain(statistics).collect()
}

/// Our values of [`QUALITY`].
pub fn quality_row(fw: &FineWebQuality) -> Vec<String> {
    let statistics = [
        fw.n_lines,
        fw.punct_lines,
        fw.short_lines,
        fw.dup_chars,
        fw.chars_no_newline,
        fw.newlines,
        fw.n_words,
    ];
    decision_row(fw.reason, statistics.map(|v| v.to_string()))
}

/// Our values of [`GOPHER`].
pub fn gopher_row(gq: &GopherQuality) -> Vec<String> {
    let statistics = [
        gq.n_words,
        gq.n_non_symbol_words,
        gq.sum_non_symbol_word_len,
        gq.hash_count,
        gq.ellipsis_count,
        gq.n_lines,
        gq.bullet_lines,
        gq.ellipsis_end_lines,
        gq.alpha_words,
        gq.stop_words,
    ];
    decision_row(gq.reason, statistics.map(|v| v.to_string()))
}
