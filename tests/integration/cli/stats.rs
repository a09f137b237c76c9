//! `webtext stats`: datatrove's statistics files of a table of documents, written whole.

use super::*;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn stats_writes_datatroves_merged_files_and_a_summary_table() {
    let dir = scratch("stats");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    let o = webtext(&["stats", &documents, &out.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("webtext stats: 2 documents"),
        "{}",
        stderr(&o)
    );
    // Two documents of two lines each (the NULL text is no document): datatrove's to_dict of
    // n_lines after 2 and 2 (the count is written, differing from the total; the mean, not 1;
    // no spread; the unit of values added one by one).
    assert_eq!(
        read(&out.join("summary/n_lines/metric.json")),
        "{\"summary\": {\"total\": 4, \"n\": 2, \"mean\": 2.0, \"unit\": \"task\"}}"
    );
    // The histogram of n_lines: one bucket "2", counting documents and their characters.
    assert_eq!(
        read(&out.join("histogram/n_lines/metric.json")),
        "{\"2\": {\"total\": 2, \"unit\": \"task\"}}"
    );
    for group in ["summary", "histogram", "fqdn", "suffix"] {
        for stat in [
            "length",
            "n_words",
            "n_sentences",
            "n_paragraphs",
            "line_duplicates",
        ] {
            assert!(
                out.join(group).join(stat).join("metric.json").is_file(),
                "{group}/{stat}"
            );
        }
    }
    let table = sql_csv(
        &[format!("s={}", out.join("summary.parquet").display())],
        "SELECT n, total FROM s WHERE \"group\" = 'summary' AND stat = 'n_lines'",
    );
    assert_eq!(stdout(&table), "n,total\n2,4.0\n");
    // Nothing beside the folder: it was made under a temporary name and renamed.
    assert_eq!(files_in(&dir), ["docs.parquet", "stats"]);
}

#[test]
fn stats_refuses_to_replace_a_folder_and_names_unknown_blocks() {
    let dir = scratch("stats-refusals");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    std::fs::create_dir(&out).unwrap();
    let refused = webtext(&["stats", &documents, &out.display().to_string()]);
    assert_fails_naming(&refused, "--overwrite");
    let unknown = webtext(&["stats", &documents, "x", "--blocks", "doc,words"]);
    assert_fails_naming(&unknown, "no statistics block 'words'");
    let o = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--overwrite",
        "--blocks",
        "doc",
        "--group-by",
        "summary",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files_in(&out), ["summary", "summary.parquet"]);
    assert_eq!(files_in(&out.join("summary")).len(), 7);
}

#[test]
fn stats_takes_the_blocks_parameters_and_measures_contamination() {
    let dir = scratch("stats-options");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    let no_words = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--blocks",
        "contamination",
    ]);
    assert_fails_naming(&no_words, "contamination_words");
    let o = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--blocks",
        "line,contamination",
        "--group-by",
        "summary",
        "--options",
        "max_k_chars_per_line_tresholds=16, contamination_words=alpha|here",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Words: 8 + 7 and 8 + 3 (alpha and here once each in both): 2/15, then 2/11, summarised
    // as datatrove's MetricStats summarises them (its to_dict, computed with datatrove 0.10.1).
    assert_eq!(
        read(&out.join("summary/words_contamination_alpha/metric.json")),
        "{\"summary\": {\"total\": 0.3151515151515152, \"n\": 2, \"mean\": 0.1575757575757576, \
         \"variance\": 0.0011753902662993575, \"std_dev\": 0.03428396514843867, \"min\": \
         0.13333333333333333, \"max\": 0.18181818181818182, \"unit\": \"task\"}}"
    );
    // Lines of at most 16 characters: "short line here" (15) alone, in the second document of
    // two lines (datatrove's MetricStats of 0.0, then 0.5).
    assert_eq!(
        read(&out.join("summary/short_line_ratio_chars_16/metric.json")),
        "{\"summary\": {\"total\": 0.5, \"n\": 2, \"mean\": 0.25, \"variance\": 0.125, \
         \"std_dev\": 0.3535533905932738, \"min\": 0.0, \"max\": 0.5, \"unit\": \"task\"}}"
    );
    assert!(!out.join("summary/short_line_ratio_chars_10").exists());
}

#[test]
fn the_token_block_counts_as_token_count_does_with_its_tokenizer() {
    let dir = scratch("stats-tokens");
    let documents = small_documents(&dir);
    let tokenizer = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("eval/parity/exact_substrings_tokenizer.json")
        .display()
        .to_string();
    // token_count's counts are datatrove's TokensCounter's (its own parity check); TokenStats
    // counts the same encoding.
    let o = sql_csv(
        &[format!("d={documents}")],
        &format!(
            "SELECT count(*) AS n FROM d WHERE datatrove_stats(text, 'token', \
             'tokenizer_name_or_path={tokenizer}')['token_count'] = \
             token_count(text, 'tokenizer={tokenizer}') AND token_count(text, \
             'tokenizer={tokenizer}') > 0"
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "n\n2\n");
    let out = dir.join("stats");
    let missing = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--blocks",
        "token",
        "--options",
        "tokenizer_name_or_path=/nonexistent/tokenizer.json",
    ]);
    assert_fails_naming(&missing, "tokenizer_name_or_path");
    assert!(!out.exists());
}

#[test]
fn the_lang_block_needs_a_language_and_scores_english_text() {
    let dir = scratch("stats-lang");
    let documents = small_documents(&dir);
    let out = dir.join("stats");
    let o = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--blocks",
        "lang",
    ]);
    assert_fails_naming(&o, "language=en");
    let o = webtext(&[
        "stats",
        &documents,
        &out.display().to_string(),
        "--blocks",
        "lang",
        "--options",
        "language=en, lid_model=/nonexistent/lid.176.bin",
    ]);
    assert_fails_naming(&o, "lid_model");
    // fastText's probability of English: high for an English sentence, low for a French one.
    let o = sql_csv(
        &[],
        "SELECT datatrove_stats('The weather is very nice today and we are going to the park.', \
         'lang', 'language=en')['fasttext_en'] > 0.5 AS english, \
         datatrove_stats('Il fait très beau aujourd''hui et nous allons au parc.', 'lang', \
         'language=en')['fasttext_en'] < 0.5 AS french",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "english,french\ntrue,true\n");
}
