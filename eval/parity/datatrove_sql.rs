//! The filters as SQL functions against the oracle: per filter, the share of texts whose
//! decision, reason and every statistic of the function's struct equal datatrove's (ratios to
//! 1e-9, recomputed from the oracle's counts; C4's passed-on text by its SHA-256 prefix).

use std::collections::HashMap;
use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch, StringArray, StructArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::prelude::*;

use super::{COLUMNS, sha16_of};

/// The SQL calls, and the name of each in the floors file and the report.
pub const CALLS: [(&str, &str); 5] = [
    ("gopher_repetition", "gopher_repetition(text)"),
    ("gopher_quality", "gopher_quality(text)"),
    ("c4_quality", "c4_quality(text)"),
    (
        "c4_quality_fineweb",
        "c4_quality(text, 'filter_no_terminal_punct=false')",
    ),
    ("fineweb_quality", "fineweb_quality(text)"),
];

/// A struct field's value, as compared.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Number(f64),
    Text(String),
}

impl Value {
    fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => (a - b).abs() <= 1e-9,
            _ => self == other,
        }
    }
}

fn field(row: &StructArray, name: &str, i: usize) -> Value {
    let Some(column) = row.column_by_name(name) else {
        return Value::Text(format!("no field {name}"));
    };
    if column.is_null(i) {
        return Value::Null;
    }
    match column.data_type() {
        DataType::Boolean => Value::Bool(column.as_boolean().value(i)),
        DataType::Int64 => Value::Int(
            column
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(i),
        ),
        DataType::Float64 => Value::Number(
            column
                .as_primitive::<datafusion::arrow::datatypes::Float64Type>()
                .value(i),
        ),
        _ => match cast(column, &DataType::Utf8) {
            Ok(text) => Value::Text(text.as_string::<i32>().value(i).to_owned()),
            Err(e) => Value::Text(e.to_string()),
        },
    }
}

/// The oracle's row of one text, by column name.
struct Oracle<'a>(&'a [String]);

impl Oracle<'_> {
    fn text(&self, column: &str) -> &str {
        COLUMNS
            .iter()
            .position(|c| *c == column)
            .map_or("", |i| self.0[i].as_str())
    }

    fn count(&self, column: &str) -> Option<usize> {
        self.text(column).parse().ok()
    }

    fn int(&self, column: &str) -> Value {
        self.count(column)
            .map_or(Value::Null, |v| Value::Int(v as i64))
    }

    fn passed(&self, prefix: &str) -> Value {
        Value::Bool(self.text(&format!("{prefix}_passed")) == "true")
    }

    fn reason(&self, prefix: &str) -> Value {
        match self.text(&format!("{prefix}_reason")) {
            "" => Value::Null,
            reason => Value::Text(reason.to_owned()),
        }
    }

    /// `a / b` of two count columns (or a count over `b`), NULL where the function gives NULL.
    fn share(&self, a: &str, b: Option<usize>) -> Value {
        match (self.count(a), b) {
            (Some(a), Some(b)) if b != 0 => Value::Number(a as f64 / b as f64),
            _ => Value::Null,
        }
    }
}

/// datatrove's value of every field of `name`'s struct for one text.
fn expected(name: &str, o: &Oracle, text: &str) -> Vec<(&'static str, Value)> {
    match name {
        "gopher_quality" => {
            let words = o.count("gq_n_words");
            let lines = o.count("gq_n_lines");
            vec![
                ("passed", o.passed("gq")),
                ("reason", o.reason("gq")),
                ("n_words", o.int("gq_n_words")),
                ("n_non_symbol_words", o.int("gq_n_non_symbol_words")),
                (
                    "avg_word_length",
                    o.share(
                        "gq_sum_non_symbol_word_len",
                        o.count("gq_n_non_symbol_words"),
                    ),
                ),
                ("hash_ratio", o.share("gq_hash_count", words)),
                ("ellipsis_ratio", o.share("gq_ellipsis_count", words)),
                ("bullet_lines_ratio", o.share("gq_bullet_lines", lines)),
                (
                    "ellipsis_lines_ratio",
                    o.share("gq_ellipsis_end_lines", lines),
                ),
                ("alpha_words_ratio", o.share("gq_alpha_words", words)),
                ("stop_words", o.int("gq_stop_words")),
            ]
        }
        "gopher_repetition" => {
            let chars = Some(text.chars().count());
            vec![
                ("passed", o.passed("gr")),
                ("reason", o.reason("gr")),
                (
                    "dup_para_frac",
                    o.share("gr_dup_paragraphs", o.count("gr_n_paragraphs")),
                ),
                (
                    "dup_para_char_frac",
                    o.share("gr_dup_paragraph_chars", chars),
                ),
                (
                    "dup_line_frac",
                    o.share("gr_dup_lines", o.count("gr_n_lines")),
                ),
                ("dup_line_char_frac", o.share("gr_dup_line_chars", chars)),
                ("top_2_gram", o.share("gr_top2_chars", chars)),
                ("top_3_gram", o.share("gr_top3_chars", chars)),
                ("top_4_gram", o.share("gr_top4_chars", chars)),
                ("duplicated_5_n_grams", o.share("gr_dup5_chars", chars)),
                ("duplicated_6_n_grams", o.share("gr_dup6_chars", chars)),
                ("duplicated_7_n_grams", o.share("gr_dup7_chars", chars)),
                ("duplicated_8_n_grams", o.share("gr_dup8_chars", chars)),
                ("duplicated_9_n_grams", o.share("gr_dup9_chars", chars)),
                ("duplicated_10_n_grams", o.share("gr_dup10_chars", chars)),
            ]
        }
        "c4_quality" | "c4_quality_fineweb" => {
            let p = if name == "c4_quality" { "c4" } else { "c4fw" };
            let codes = o.text(&format!("{p}_line_codes"));
            let out = o.text(&format!("{p}_out_sha16"));
            vec![
                ("passed", o.passed(p)),
                ("reason", o.reason(p)),
                (
                    "text",
                    if out.is_empty() {
                        Value::Null
                    } else {
                        Value::Text(out.to_owned())
                    },
                ),
                ("num_sentences", o.int(&format!("{p}_num_sentences"))),
                ("n_lines", Value::Int(codes.chars().count() as i64)),
                (
                    "kept_lines",
                    Value::Int(codes.chars().filter(|c| *c == 'K').count() as i64),
                ),
                ("line_codes", Value::Text(codes.to_owned())),
            ]
        }
        _ => {
            let lines = o.count("fw_n_lines");
            vec![
                ("passed", o.passed("fw")),
                ("reason", o.reason("fw")),
                ("line_punct_ratio", o.share("fw_punct_lines", lines)),
                ("short_line_ratio", o.share("fw_short_lines", lines)),
                (
                    "char_dup_ratio",
                    o.share("fw_dup_chars", o.count("fw_chars_no_newline")),
                ),
                ("list_ratio", o.share("fw_newlines", o.count("fw_n_words"))),
                ("n_lines", o.int("fw_n_lines")),
                ("n_words", o.int("fw_n_words")),
            ]
        }
    }
}

/// Per call of [`CALLS`]: (texts the same in every field, the differing fields with counts,
/// examples of differing texts).
pub type Agreement = Vec<(usize, HashMap<&'static str, usize>, Vec<String>)>;

/// Runs the SQL functions over the texts and compares them with the oracle.
pub async fn compare(
    texts: &[(String, String)],
    oracle: &HashMap<String, Vec<String>>,
) -> datafusion::error::Result<Agreement> {
    let keys = StringArray::from_iter_values(texts.iter().map(|(k, _)| k.as_str()));
    let values = StringArray::from_iter_values(texts.iter().map(|(_, t)| t.as_str()));
    let batch = RecordBatch::try_from_iter([
        ("key", Arc::new(keys) as _),
        ("text", Arc::new(values) as _),
    ])?;
    let mut ctx =
        SessionContext::new_with_config(datafusion_webtext::configure(SessionConfig::new()));
    datafusion_webtext::register_all(&mut ctx)?;
    ctx.register_batch("texts", batch)?;
    let calls: Vec<&str> = CALLS.iter().map(|(_, call)| *call).collect();
    let sql = format!("SELECT key, text, {} FROM texts", calls.join(", "));
    let batches = ctx.sql(&sql).await?.collect().await?;
    let mut agreement: Agreement = CALLS.iter().map(|_| Default::default()).collect();
    for batch in &batches {
        let keys = batch.column(0).as_string::<i32>();
        let texts = batch.column(1).as_string::<i32>();
        for i in 0..batch.num_rows() {
            let (key, text) = (keys.value(i), texts.value(i));
            let Some(row) = oracle.get(key) else { continue };
            for (c, (name, _)) in CALLS.iter().enumerate() {
                let ours = batch.column(c + 2).as_struct();
                let mut differing = Vec::new();
                for (field_name, want) in expected(name, &Oracle(row), text) {
                    let mut got = field(ours, field_name, i);
                    if field_name == "text"
                        && let Value::Text(t) = &got
                    {
                        got = Value::Text(sha16_of(t));
                    }
                    if !got.same(&want) {
                        differing.push(field_name);
                    }
                }
                let (same, by_field, examples) = &mut agreement[c];
                if differing.is_empty() {
                    *same += 1;
                } else {
                    for f in &differing {
                        *by_field.entry(*f).or_default() += 1;
                    }
                    if examples.len() < 10 {
                        examples.push(format!("{key}: {}", differing.join(", ")));
                    }
                }
            }
        }
    }
    Ok(agreement)
}
