//! Every page and text SQL function's array entry point with random Arrow input: each string and
//! binary type, dictionaries, views, NULLs and empty rows, and random constant options.
#![no_main]

use std::sync::Arc;

use arbitrary::Arbitrary;
use datafusion::arrow::array::{
    ArrayRef, BinaryArray, BinaryViewArray, DictionaryArray, LargeBinaryArray, LargeStringArray,
    StringArray, StringViewArray,
};
use datafusion::arrow::datatypes::{Field, Int32Type};
use datafusion::common::ScalarValue;
use datafusion::config::ConfigOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    kind: u8,
    function: u8,
    options: Option<String>,
    rows: Vec<Option<Vec<u8>>>,
}

fn column(kind: u8, rows: &[Option<Vec<u8>>]) -> ArrayRef {
    let bytes: Vec<Option<&[u8]>> = rows.iter().map(|r| r.as_deref()).collect();
    let texts: Vec<Option<String>> = rows
        .iter()
        .map(|r| {
            r.as_deref()
                .map(|b| String::from_utf8_lossy(b).into_owned())
        })
        .collect();
    let texts: Vec<Option<&str>> = texts.iter().map(|t| t.as_deref()).collect();
    match kind % 7 {
        0 => Arc::new(StringArray::from(texts)),
        1 => Arc::new(LargeStringArray::from(texts)),
        2 => Arc::new(StringViewArray::from(texts)),
        3 => Arc::new(BinaryArray::from(bytes)),
        4 => Arc::new(LargeBinaryArray::from(bytes)),
        5 => Arc::new(BinaryViewArray::from(bytes)),
        _ => Arc::new(texts.into_iter().collect::<DictionaryArray<Int32Type>>()),
    }
}

fuzz_target!(|input: Input| {
    // duplicate_positions and duplicate_fraction read a file: the ngram_hashes target and the
    // SQL tests cover them.
    let functions: Vec<_> = datafusion_webtext::all_scalar()
        .into_iter()
        .filter(|f| !f.name().starts_with("duplicate_"))
        .collect();
    let udf = &functions[usize::from(input.function) % functions.len()];
    let data = column(input.kind, &input.rows);
    let mut args = vec![ColumnarValue::Array(data.clone())];
    let mut types = vec![data.data_type().clone()];
    // A second constant (language, extractor, n) and the options, as SQL gives them.
    let second = match udf.name() {
        "ngram_hashes" => Some(ScalarValue::Int64(Some(i64::from(input.kind % 9)))),
        "justext" | "justext_extract" | "justext_paragraphs" | "stopword_density" => {
            Some(ScalarValue::Utf8(Some("English".into())))
        }
        "boilerpipe" | "boilerpipe_blocks" => Some(ScalarValue::Utf8(Some("article".into()))),
        _ => None,
    };
    if let Some(second) = second {
        types.push(second.data_type());
        args.push(ColumnarValue::Scalar(second));
    }
    if let Some(options) = input.options {
        if udf.name() != "stopword_density" {
            types.push(datafusion::arrow::datatypes::DataType::Utf8);
            args.push(ColumnarValue::Scalar(ScalarValue::Utf8(Some(options))));
        }
    }
    // A bad argument is a planning error, never a panic.
    let Ok(types) = udf.coerce_types(&types) else {
        return;
    };
    let Ok(return_type) = udf.return_type(&types) else {
        return;
    };
    let arg_fields = types
        .iter()
        .map(|t| Arc::new(Field::new("a", t.clone(), true)))
        .collect();
    let result = udf.invoke_with_args(ScalarFunctionArgs {
        args,
        arg_fields,
        number_rows: input.rows.len(),
        return_field: Arc::new(Field::new("out", return_type, true)),
        config_options: Arc::new(ConfigOptions::default()),
    });
    if let Ok(ColumnarValue::Array(out)) = result {
        assert_eq!(out.len(), input.rows.len());
    }
});
