//! Helpers shared by the integration tests: reading Python jusText's recorded output.
#![allow(dead_code)]

pub mod hostile;
pub mod http;
pub mod s3;
mod shared;
pub mod warc;

pub use shared::shared_dir;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use datafusion::arrow::array::{
    ArrayRef, BinaryArray, BinaryViewArray, DictionaryArray, LargeBinaryArray, LargeStringArray,
    StringArray, StringViewArray,
};
use datafusion::arrow::datatypes::Int32Type;
use serde_json::Value;

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// One page of a recorded jusText run: its id, error (if jusText raised) and paragraphs.
pub struct OraclePage {
    pub id: String,
    pub error: Option<String>,
    pub paragraphs: Vec<Value>,
}

pub fn read_oracle(path: &Path) -> Vec<OraclePage> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(&line.expect("line")).expect("json");
            OraclePage {
                id: v["id"].as_str().expect("id").to_owned(),
                error: v["error"].as_str().map(str::to_owned),
                paragraphs: v["paragraphs"].as_array().cloned().unwrap_or_default(),
            }
        })
        .collect()
}

/// The text Python jusText keeps: good paragraphs joined by '\n'.
pub fn oracle_kept_text(page: &OraclePage) -> String {
    page.paragraphs
        .iter()
        .filter(|p| p["class_type"] == "good")
        .map(|p| p["text"].as_str().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The page, a NULL and an empty page in every Arrow type a user's table can hold.
pub fn columns_of_every_type(html: &[u8]) -> Vec<(&'static str, ArrayRef)> {
    let text = std::str::from_utf8(html).unwrap();
    let strings = [Some(text), None, Some("")];
    let bytes = [Some(html), None, Some(&b""[..])];
    let dict: DictionaryArray<Int32Type> = strings.iter().copied().collect();
    vec![
        ("Utf8", Arc::new(StringArray::from(strings.to_vec()))),
        (
            "LargeUtf8",
            Arc::new(LargeStringArray::from(strings.to_vec())),
        ),
        (
            "Utf8View",
            Arc::new(StringViewArray::from(strings.to_vec())),
        ),
        ("Binary", Arc::new(BinaryArray::from(bytes.to_vec()))),
        (
            "LargeBinary",
            Arc::new(LargeBinaryArray::from(bytes.to_vec())),
        ),
        (
            "BinaryView",
            Arc::new(BinaryViewArray::from(bytes.to_vec())),
        ),
        ("Dictionary(Int32, Utf8)", Arc::new(dict)),
    ]
}

/// A session as `datafusion_webtext::configure` sets it up, with every function registered.
pub fn webtext_context() -> datafusion::prelude::SessionContext {
    webtext_context_of(datafusion::prelude::SessionConfig::new())
}

/// A session as [`webtext_context`] gives it, in batches of `rows` rows, so that a few rows
/// already span several batches.
pub fn webtext_context_in_batches_of(rows: usize) -> datafusion::prelude::SessionContext {
    webtext_context_of(datafusion::prelude::SessionConfig::new().with_batch_size(rows))
}

fn webtext_context_of(
    config: datafusion::prelude::SessionConfig,
) -> datafusion::prelude::SessionContext {
    let mut ctx =
        datafusion::prelude::SessionContext::new_with_config(datafusion_webtext::configure(config));
    datafusion_webtext::register_all(&mut ctx).unwrap();
    ctx
}

/// A session as [`webtext_context`] gives it, with a table `pages` of one column, `html`.
pub fn context_with_pages(html: ArrayRef) -> datafusion::prelude::SessionContext {
    use datafusion::arrow::array::RecordBatch;
    use datafusion::arrow::datatypes::{Field, Schema};
    let ctx = webtext_context();
    let schema = Arc::new(Schema::new(vec![Field::new(
        "html",
        html.data_type().clone(),
        true,
    )]));
    ctx.register_batch("pages", RecordBatch::try_new(schema, vec![html]).unwrap())
        .unwrap();
    ctx
}

/// The first column of a query's result, a Utf8 column, row by row (None for NULL).
pub async fn first_column(
    ctx: &datafusion::prelude::SessionContext,
    sql: &str,
) -> Vec<Option<String>> {
    use datafusion::arrow::array::{Array, AsArray};
    let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column(0).as_string::<i32>();
            (0..c.len())
                .map(|i| c.is_valid(i).then(|| c.value(i).to_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every cell of a query's result as the CLI shows it ("NULL" for NULL), row by row.
pub async fn cells(
    ctx: &datafusion::prelude::SessionContext,
    sql: &str,
) -> datafusion::error::Result<Vec<Vec<String>>> {
    use datafusion::arrow::array::Array;
    use datafusion::arrow::util::display::array_value_to_string;
    let batches = ctx.sql(sql).await?.collect().await?;
    let mut out = Vec::new();
    for batch in &batches {
        for row in 0..batch.num_rows() {
            let mut cells = Vec::with_capacity(batch.num_columns());
            for column in batch.columns() {
                cells.push(if column.is_null(row) {
                    "NULL".to_owned()
                } else {
                    array_value_to_string(column, row)?
                });
            }
            out.push(cells);
        }
    }
    Ok(out)
}

/// The one row of a query's result.
pub async fn one_row(ctx: &datafusion::prelude::SessionContext, sql: &str) -> Vec<String> {
    let mut all = cells(ctx, sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    assert_eq!(all.len(), 1, "{sql}");
    all.remove(0)
}

/// The error a query fails with, planning or execution; panics when it succeeds.
pub async fn error_of(ctx: &datafusion::prelude::SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Err(e) => e.strip_backtrace(),
        Ok(df) => match df.collect().await {
            Err(e) => e.strip_backtrace(),
            Ok(_) => panic!("{sql}: no error"),
        },
    }
}

/// The values as each string type a text function takes: Utf8, LargeUtf8, Utf8View, a dictionary.
pub fn string_columns(values: &[Option<&str>]) -> Vec<(&'static str, ArrayRef)> {
    let dictionary: DictionaryArray<Int32Type> = values.iter().copied().collect();
    vec![
        ("utf8", Arc::new(StringArray::from(values.to_vec()))),
        (
            "large_utf8",
            Arc::new(LargeStringArray::from(values.to_vec())),
        ),
        (
            "utf8_view",
            Arc::new(StringViewArray::from(values.to_vec())),
        ),
        ("dictionary", Arc::new(dictionary)),
    ]
}

/// `webtext ARGS`, the binary of this build, its output collected.
pub fn webtext(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_webtext"))
        .args(args)
        .output()
        .expect("webtext runs")
}

/// What a run printed on stderr.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names of the entries of `dir`, sorted.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
