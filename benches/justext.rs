//! Criterion benches: the parse (the crate's tokenizer and html5ever's, into the same tree), the
//! plain jusText call on the bundled pages, the SQL function's array entry point over a batch of
//! them, and boilerpipe on the same pages.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use datafusion::arrow::array::{ArrayRef, BinaryViewArray};
use datafusion::arrow::datatypes::{DataType, Field};
use datafusion::common::ScalarValue;
use datafusion::common::config::ConfigOptions;
use datafusion::logical_expr::{ColumnarValue, ScalarFunctionArgs};
use datafusion_webtext::html::{Limits, Page};
use datafusion_webtext::justext::{Params, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;

fn pages() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("edge"))
        .unwrap()
        .chain(std::fs::read_dir(&dir).unwrap())
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

fn parse(c: &mut Criterion) {
    let texts: Vec<String> = pages()
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let limits = Limits::default();
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("crate tokenizer + libxml2 tree builder (jusText)", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(Page::parse_as_libxml2(t, &limits));
            }
        })
    });
    group.bench_function("crate tokenizer + html5ever tree builder", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(Page::parse_with(t, &limits));
            }
        })
    });
    group.bench_function("html5ever tokenizer + tree builder", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(Page::parse_with_html5ever_tokenizer(t, &limits));
            }
        })
    });
    group.finish();
}

fn plain(c: &mut Criterion) {
    let pages = pages();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let english = Stoplist::by_name("English").unwrap();
    let params = Params::default();
    let mut group = c.benchmark_group("justext_bytes");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("bundled pages", |b| {
        b.iter(|| {
            for p in &pages {
                let _ = black_box(justext_bytes(p, english, &params));
            }
        })
    });
    group.finish();
}

fn sql_function(c: &mut Criterion) {
    let pages = pages();
    let rows: Vec<&[u8]> = pages.iter().cycle().take(1024).map(Vec::as_slice).collect();
    let bytes: usize = rows.iter().map(|r| r.len()).sum();
    let array: ArrayRef = Arc::new(BinaryViewArray::from(rows));
    let udf = datafusion_webtext::udf::justext_udf();
    let mut group = c.benchmark_group("justext_udf");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("1024 rows BinaryView", |b| {
        b.iter(|| {
            let args = ScalarFunctionArgs {
                args: vec![
                    ColumnarValue::Array(array.clone()),
                    ColumnarValue::Scalar(ScalarValue::Utf8(Some("English".into()))),
                ],
                arg_fields: vec![
                    Arc::new(Field::new("html", DataType::BinaryView, true)),
                    Arc::new(Field::new("l", DataType::Utf8, false)),
                ],
                number_rows: 1024,
                return_field: Arc::new(Field::new("justext", DataType::Utf8, true)),
                config_options: Arc::new(ConfigOptions::default()),
            };
            black_box(udf.invoke_with_args(args).unwrap())
        })
    });
    group.finish();
}

/// boilerpipe on the same pages: segmentation alone (from a parsed page) and each extractor's
/// whole call (decode, parse, segment, filters).
fn boilerpipe(c: &mut Criterion) {
    use datafusion_webtext::boilerpipe::{Extractor, TextDocument, extract};
    use datafusion_webtext::html::Page;
    let pages = pages();
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let decoded: Vec<String> = pages
        .iter()
        .map(|p| {
            datafusion_webtext::justext::decode_for_justext(p)
                .map(|t| t.into_owned())
                .unwrap_or_default()
        })
        .collect();
    let parsed: Vec<Page> = decoded.iter().map(|t| Page::parse(t)).collect();
    let mut group = c.benchmark_group("boilerpipe");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("segmentation of parsed pages", |b| {
        b.iter(|| {
            for p in &parsed {
                black_box(TextDocument::of(p));
            }
        })
    });
    for e in [Extractor::Article, Extractor::Default] {
        group.bench_function(format!("{} (parse included)", e.name()), |b| {
            b.iter(|| {
                for t in &decoded {
                    black_box(extract(&Page::parse(t), e));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse, plain, sql_function, boilerpipe);
criterion_main!(benches);
