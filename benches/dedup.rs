//! Criterion benches of the de-duplication path: n-gram hashing (tokens/s), duplicate-set lookups
//! and the sequential onion pass, on the shared de-duplication corpus when `../shared` is there
//! (its first 5,000 documents), else on generated text.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use datafusion::arrow::array::AsArray;
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::DataType;
use datafusion::parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use datafusion_webtext::dedup::hash::fmix64;
use datafusion_webtext::dedup::{
    DupSet, DuplicateCounter, NgramWindow, Onion, OnionParams, TokenOptions, for_each_ngram_hash,
};

fn documents() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/eval/dedup/documents.parquet");
    if let Ok(file) = std::fs::File::open(&path) {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let mut docs = Vec::new();
        for batch in reader {
            let batch = batch.unwrap();
            let text = cast(batch.column_by_name("text").unwrap(), &DataType::Utf8).unwrap();
            docs.extend(text.as_string::<i32>().iter().flatten().map(str::to_owned));
        }
        docs.truncate(5_000);
        return docs;
    }
    // Generated: 5,000 documents of 8 paragraphs drawn from 20,000 distinct ones.
    (0..5_000u64)
        .map(|d| {
            (0..8u64)
                .map(|p| {
                    let seed = fmix64(d * 8 + p) % 20_000;
                    (0..40u64)
                        .map(|w| format!("w{}", fmix64(seed * 64 + w) % 50_000))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

fn hashes_of(docs: &[String], n: usize) -> Vec<Vec<u64>> {
    let mut window = NgramWindow::new(n);
    let mut scratch = String::new();
    docs.iter()
        .map(|d| {
            let mut v = Vec::new();
            for_each_ngram_hash(
                d,
                &mut window,
                &TokenOptions::default(),
                false,
                &mut scratch,
                |h| v.push(h),
            );
            v
        })
        .collect()
}

fn dedup(c: &mut Criterion) {
    let docs = documents();
    let hashes = hashes_of(&docs, 7);
    let tokens: usize = hashes.iter().map(|h| h.len() + 6).sum();
    let mut counter = DuplicateCounter::default();
    hashes.iter().for_each(|h| counter.add_all(h));
    let duplicates = Arc::new(DupSet::from_hashes(counter.repeated()).unwrap());

    let mut group = c.benchmark_group("dedup");
    group.throughput(Throughput::Elements(tokens as u64));
    group.bench_function("ngram hashes (tokens)", |b| {
        let mut window = NgramWindow::new(7);
        let mut scratch = String::new();
        b.iter(|| {
            let mut sum = 0u64;
            for d in &docs {
                for_each_ngram_hash(
                    d,
                    &mut window,
                    &TokenOptions::default(),
                    false,
                    &mut scratch,
                    |h| sum = sum.wrapping_add(h),
                );
            }
            black_box(sum)
        })
    });
    group.bench_function("duplicate set lookups (one per n-gram)", |b| {
        b.iter(|| {
            let mut found = 0usize;
            for h in hashes.iter().flatten() {
                found += usize::from(duplicates.index_of(*h).is_some());
            }
            black_box(found)
        })
    });
    group.bench_function("onion pass with the duplicate set (tokens)", |b| {
        b.iter(|| {
            let mut onion = Onion::with_duplicates(
                OnionParams::default(),
                TokenOptions::default(),
                Arc::clone(&duplicates),
            );
            let mut kept = Vec::new();
            let mut total = 0usize;
            for d in &docs {
                onion.process(d, &mut kept);
                total += kept.iter().filter(|k| **k).count();
            }
            black_box(total)
        })
    });
    group.bench_function("duplicate n-grams by sorting (tokens)", |b| {
        b.iter(|| {
            let mut counter = DuplicateCounter::default();
            hashes.iter().for_each(|h| counter.add_all(h));
            black_box(counter.repeated().len())
        })
    });
    group.finish();
}

criterion_group!(benches, dedup);
criterion_main!(benches);
