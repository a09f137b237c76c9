//! The parity checkers' own guards, so that no check can pass on nothing: the floors file is read
//! strictly and every set must be compared whole (eval/parity/floors.rs, eval_pages.rs).

#[path = "../../eval/parity/eval_pages.rs"]
#[allow(dead_code)]
mod eval_pages;
#[path = "../../eval/parity/floors.rs"]
mod floors;

use std::path::Path;

use eval_pages::{PAGES, SETS, check_page_counts};
use floors::Floors;

fn floors_file() -> Floors {
    Floors::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("eval/parity/floors.txt")).unwrap()
}

#[test]
fn the_floors_file_has_a_floor_for_every_check_ci_runs() {
    let floors = floors_file();
    let mut needed = vec!["pages_identical".to_owned(), "chars_agree".to_owned()];
    for setting in ["n7_t0.5", "n5_t0.5_m", "n10_t0.25"] {
        needed.push(format!("onion {setting}"));
    }
    for prefix in ["boilerpipe", "boilerpipe_bytes"] {
        for extractor in [
            "article",
            "default",
            "largest_content",
            "canola",
            "keep_everything",
            "num_words_rules",
            "article_sentences",
        ] {
            needed.push(format!("{prefix} {extractor}"));
        }
    }
    // eval/parity/datatrove.rs (datatrove_sql.rs's CALLS) and eval/parity/langid.rs.
    for function in [
        "gopher_repetition",
        "gopher_quality",
        "c4_quality",
        "c4_quality_fineweb",
        "fineweb_quality",
    ] {
        needed.push(format!("datatrove {function}"));
    }
    for kind in ["sentence", "word_pair", "single_word", "all"] {
        needed.push(format!("langid {kind}"));
    }
    // eval/parity/minhash.rs.
    for key in [
        "default",
        "default_signatures",
        "fineweb",
        "fineweb_signatures",
        "default_pairs",
        "default_pairs_clusters",
        "fineweb_pairs",
        "fineweb_pairs_clusters",
    ] {
        needed.push(format!("minhash {key}"));
    }
    // eval/parity/datatrove_blocks.rs.
    for key in [
        "url_filter",
        "url_filter_custom",
        "url_filter_tldextract",
        "pii_default",
        "pii_allips",
        "pii_custom",
        "pii_fresh",
        "c4_badwords",
        "c4_badwords_keep_fraction",
        "c4_badwords_lenient",
    ] {
        needed.push(format!("blocks {key}"));
    }
    // eval/parity/fasttext_predict.py.
    for model in ["softmax", "hs_quantized"] {
        needed.push(format!("fasttext_predict {model}"));
    }
    // eval/parity/token_count.py.
    for tokenizer in ["byte_level_bpe", "wordpiece", "unigram"] {
        needed.push(format!("token_count {tokenizer}"));
    }
    // eval/parity/fineweb2.rs: the oracle's languages whose tokenizer the crate has, Korean's
    // (Kiwi) and Japanese's (Sudachi) where the environment provides them, as CI's does.
    for language in [
        "arb_Arab", "ces_Latn", "cmn_Hani", "dan_Latn", "deu_Latn", "ell_Grek", "fas_Arab",
        "fra_Latn", "hin_Deva", "hun_Latn", "ind_Latn", "ita_Latn", "jpn_Jpan", "kor_Hang",
        "nld_Latn", "nob_Latn", "pol_Latn", "por_Latn", "rus_Cyrl", "spa_Latn", "swe_Latn",
        "tha_Thai", "tur_Latn", "ukr_Cyrl", "vie_Latn",
    ] {
        needed.push(format!("fineweb2 {language}"));
        needed.push(format!("fineweb2_minhash {language}"));
    }
    for formatter in [
        "ftfy",
        "symbol_lines",
        "pii",
        "final",
        "final_after_oracle_ftfy",
    ] {
        needed.push(format!("fineweb2_formatter {formatter}"));
    }
    for config in ["datatrove", "fix_text"] {
        needed.push(format!("ftfy_differential {config}"));
    }
    // eval/parity/cchardet.rs: charset::detect against cchardet, strict decoding against CPython.
    needed.push("cchardet guess".to_owned());
    needed.push("cchardet decode".to_owned());
    // eval/parity/trafilatura.rs.
    for config in [
        "fineweb",
        "fineweb_dedup",
        "default",
        "recall",
        "fast",
        "markdown",
    ] {
        needed.push(format!("trafilatura {config}"));
    }
    // eval/parity/fineweb.py: webtext fineweb against datatrove's FineWeb.
    for key in ["documents", "kept_text"] {
        needed.push(format!("fineweb {key}"));
        needed.push(format!("fineweb {key}_third_party"));
    }
    // eval/parity/stats.py, decont.py, sentence_dedup.py, bloom_filter.py, exact_dedup.py and
    // exact_substrings.py: datatrove's statistics, decontamination, sentence de-duplication,
    // Bloom filter, exact and exact-substring de-duplication.
    for key in [
        "stats files_identical",
        "stats values_1e-9",
        "stats options_files_identical",
        "stats options_values_1e-9",
        "stats tokens_files_identical",
        "stats tokens_values_1e-9",
        "stats lang_files_identical",
        "stats lang_values_1e-9",
        "decont index_tasks",
        "decont decisions",
        "sentence_dedup decisions",
        "sentence_dedup texts",
        "sentence_dedup sha1_32_decisions",
        "sentence_dedup sha1_32_texts",
        "sentence_dedup index_decisions",
        "sentence_dedup index_texts",
        "sentence_dedup index_all_decisions",
        "sentence_dedup index_all_texts",
        "sentence_dedup index_file",
        "bloom_filter k7_16m",
        "bloom_filter expected_5m",
        "exact_dedup default",
        "exact_dedup priority",
        "exact_dedup sha1_32",
        "exact_dedup index",
        "exact_dedup index_all",
        "exact_dedup index_file",
        "exact_substrings default",
        "exact_substrings spilled",
        "exact_substrings default_ranges",
        "exact_substrings spilled_ranges",
    ] {
        needed.push(key.to_owned());
    }
    for key in &needed {
        let floor = floors.get(key).unwrap();
        assert!(floor > 0.9, "{key}: {floor}");
    }
    assert_eq!(
        floors.keys().count(),
        needed.len(),
        "no floor that no checker reads"
    );
}

#[test]
fn a_missing_or_malformed_floors_file_is_an_error() {
    let missing = Floors::read(Path::new("/no/such/floors.txt")).unwrap_err();
    assert!(
        missing.contains("floors file /no/such/floors.txt"),
        "{missing}"
    );
    for (text, error) in [
        (
            "pages_identical = high",
            "f:1: 'pages_identical = high' is not",
        ),
        ("# c\nchars_agree 0.99", "f:2: 'chars_agree 0.99' is not"),
        ("onion n7 0.5 extra", "f:1: 'onion n7 0.5 extra' is not"),
        (
            "pages_identical = 1.5",
            "f:1: 'pages_identical = 1.5' is not",
        ),
        ("= 0.5", "f:1: '= 0.5' is not"),
        ("a = 0.5\na = 0.6", "f:2: a second floor for 'a'"),
    ] {
        let e = Floors::parse(text, "f").unwrap_err();
        assert!(e.starts_with(error), "{text}: {e}");
    }
    let floors = Floors::parse("# only a comment\n\npages_identical = 0.5\n", "f").unwrap();
    assert_eq!(floors.get("pages_identical"), Ok(0.5));
    assert_eq!(
        floors.get("chars_agree"),
        Err("f: no floor for 'chars_agree'".to_owned())
    );
    assert_eq!(
        Floors::parse("boilerpipe article 0.98", "f")
            .unwrap()
            .get("boilerpipe article"),
        Ok(0.98)
    );
}

#[test]
fn every_set_must_be_compared_whole() {
    assert_eq!(PAGES.len(), SETS.len());
    assert_eq!(
        PAGES.iter().take(6).map(|(_, n)| n).sum::<usize>(),
        3_013,
        "the six evaluation sets"
    );
    assert!(check_page_counts(PAGES.iter().copied()).is_ok());
    assert_eq!(
        check_page_counts([("cleaneval", 739), ("dragnet", 0), ("wcxb", 511)]),
        Err(
            "not every page was compared: dragnet: 0 pages compared of 1381; \
             wcxb: not an evaluation set"
                .to_owned()
        )
    );
}
