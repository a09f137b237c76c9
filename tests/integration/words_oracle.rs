//! The English words of `datafusion_webtext::words` against datatrove 0.10.1's `split_into_words`
//! (spaCy 3.8.18) recorded in the evaluation data (`WEBTEXT_SHARED`): the full token lists of its
//! 252 sample texts.
//! Every text of both oracle corpora is compared by the `parity_datatrove` example (.ci/run).

use std::io::{BufRead, BufReader};

use crate::common;

fn jsonl_gz(path: &str) -> Vec<serde_json::Value> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect()
}

#[test]
fn the_words_of_the_sample_texts_are_datatroves() {
    let Some(shared) = common::shared_dir("the_words_of_the_sample_texts_are_datatroves") else {
        return;
    };
    let oracle = shared.join("oracle").display().to_string();
    let samples = jsonl_gz(&format!("{oracle}/datatrove/sample_texts.jsonl.gz"));
    assert_eq!(samples.len(), 252);
    let mut differing = Vec::new();
    for sample in &samples {
        let text = sample["text"].as_str().unwrap();
        let expected: Vec<&str> = sample["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap())
            .collect();
        if datafusion_webtext::words::words(text) != expected {
            differing.push(sample["id"].to_string());
        }
    }
    assert!(
        differing.is_empty(),
        "{} differ: {differing:?}",
        differing.len()
    );
}
