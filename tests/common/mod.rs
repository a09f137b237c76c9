//! Helpers shared by the integration tests: reading Python jusText's recorded output.
#![allow(dead_code)]

pub mod hostile;

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
