use super::*;

fn value(stats: &Stats, name: &str) -> Stat {
    stats
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| panic!("no stat {name} in {stats:?}"))
}

#[test]
fn doc_stats_count_characters_as_python_does() {
    // 15 code points: one space; '.', '.', '.', ' ', '!' neither letters nor digits; 'H', 'W'
    // upper case; one "..."; four characters of datatrove's PUNCTUATION.
    let stats = doc_stats("Hello... World!");
    let names: Vec<&str> = stats.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "length",
            "white_space_ratio",
            "non_alpha_digit_ratio",
            "digit_ratio",
            "uppercase_ratio",
            "elipsis_ratio",
            "punctuation_ratio"
        ]
    );
    assert_eq!(value(&stats, "length"), Stat::Int(15));
    assert_eq!(value(&stats, "white_space_ratio"), Stat::Float(1.0 / 15.0));
    assert_eq!(
        value(&stats, "non_alpha_digit_ratio"),
        Stat::Float(5.0 / 15.0)
    );
    assert_eq!(value(&stats, "digit_ratio"), Stat::Float(0.0));
    assert_eq!(value(&stats, "uppercase_ratio"), Stat::Float(2.0 / 15.0));
    assert_eq!(value(&stats, "elipsis_ratio"), Stat::Float(3.0 / 15.0));
    assert_eq!(value(&stats, "punctuation_ratio"), Stat::Float(4.0 / 15.0));
    // An empty text divides by nothing: 0.0 everywhere, length 0.
    assert!(
        doc_stats("")
            .iter()
            .skip(1)
            .all(|(_, v)| *v == Stat::Float(0.0))
    );
}

#[test]
fn line_and_paragraph_stats_split_as_datatrove_does() {
    let params = StatsParams::default();
    // Lines at "\n" (the empty one counts), paragraphs at "\n\n" (blank ones left out).
    let text = "- one.\n\n- one.\nthe last line";
    let lines = line_stats(text, &params);
    assert_eq!(value(&lines, "n_lines"), Stat::Int(4));
    assert_eq!(value(&lines, "avg_line_length"), Stat::Float(25.0 / 4.0));
    assert_eq!(
        value(&lines, "short_line_ratio_chars_10"),
        Stat::Float(0.75)
    );
    assert_eq!(
        value(&lines, "lines_ending_with_terminal_mark_ratio"),
        Stat::Float(0.5)
    );
    assert_eq!(value(&lines, "bullet_point_lines_ratio"), Stat::Float(0.5));
    assert_eq!(value(&lines, "line_duplicates"), Stat::Float(0.25));
    assert_eq!(
        value(&lines, "line_char_duplicates"),
        Stat::Float(6.0 / 25.0)
    );
    let paragraphs = paragraph_stats(text, &params);
    assert_eq!(value(&paragraphs, "n_paragraphs"), Stat::Int(2));
    assert_eq!(
        value(&paragraphs, "avg_paragraph_length"),
        Stat::Float(13.0)
    );
    assert_eq!(value(&paragraphs, "paragraph_duplicates"), Stat::Float(0.0));
}

#[test]
fn word_and_sentence_stats_use_datatroves_english_tokenizer() {
    let params = StatsParams::default();
    let words = word_stats("The CAT and the Dog.\nOf", &params);
    // spaCy: The, CAT, and, the, Dog, ., Of
    assert_eq!(value(&words, "n_words"), Stat::Int(7));
    assert_eq!(value(&words, "avg_words_per_line"), Stat::Float(3.5));
    assert_eq!(value(&words, "type_token_ratio"), Stat::Float(1.0));
    assert_eq!(
        value(&words, "uppercase_word_ratio"),
        Stat::Float(1.0 / 7.0)
    );
    // The, Dog, Of
    assert_eq!(
        value(&words, "capitalized_word_ratio"),
        Stat::Float(3.0 / 7.0)
    );
    // Exact, case-sensitive stop words: "and", "the".
    assert_eq!(value(&words, "stop_word_ratio"), Stat::Float(2.0 / 7.0));
    assert_eq!(
        crate::words::sentences("Hello world. This is it.  \n\nNext"),
        ["Hello world.", "This is it.", "Next"]
    );
    let sentences = sentence_stats("Hello world. This is it.  \n\nNext", &params);
    assert_eq!(value(&sentences, "n_sentences"), Stat::Int(3));
    assert_eq!(
        value(&sentences, "short_sentence_ratio_20"),
        Stat::Float(1.0)
    );
}

#[test]
fn a_summary_groups_by_corpus_histogram_and_host() {
    let mut summary = StatsSummary::new(&Group::ALL, 3);
    for (text, url) in [
        ("ab", "https://www.example.com/a"),
        ("abcd", "https://example.co.uk/b"),
        ("ab", "https://www.example.com/c"),
    ] {
        let document = StatsDocument {
            text,
            url,
            token_count: None,
        };
        summary.add(
            document,
            &vec![("length".into(), Stat::Int(text.len() as i64))],
        );
    }
    let files = StatsSummary::merge_tasks(&[summary.task_files(DEFAULT_TOP_K)], DEFAULT_TOP_K);
    let json = |path: &str| files[path].to_json();
    assert_eq!(
        json("summary/length"),
        "{\"summary\": {\"total\": 8, \"n\": 3, \"mean\": 2.6666666666666665, \"variance\": \
         1.3333333333333333, \"std_dev\": 1.1547005383792515, \"min\": 2, \"max\": 4, \"unit\": \
         \"task\"}}"
    );
    assert_eq!(
        json("histogram/length"),
        "{\"2\": {\"total\": 2, \"unit\": \"task\"}, \"4\": {\"total\": 1, \"unit\": \"task\"}}"
    );
    assert_eq!(
        json("histogram/length__chars"),
        "{\"2\": {\"total\": 4, \"n\": 2, \"mean\": 2.0, \"unit\": \"task\"}, \"4\": {\"total\": 4, \
         \"mean\": 4.0, \"unit\": \"task\"}}"
    );
    let hosts: Vec<String> = files["fqdn/length"]
        .iter()
        .map(|(k, _)| k.to_owned())
        .collect();
    assert_eq!(hosts, ["www.example.com", "example.co.uk"]);
    assert_eq!(files["suffix/length"].len(), 2);
}

#[test]
fn contamination_counts_the_listed_words_among_the_simplified_words() {
    let params = StatsParams {
        contamination_words: vec!["the".into(), "of".into()],
        ..StatsParams::default()
    };
    // Simplified: "the cat of the hat 0" (case, punctuation and digits as datatrove's MinHash
    // sees them): 3 of 6 words listed.
    let stats = contamination_stats("The cat, OF the hat! 42", &params);
    assert_eq!(stats.len(), 1);
    assert_eq!(value(&stats, "words_contamination_the"), Stat::Float(0.5));
    assert_eq!(
        value(&contamination_stats("", &params), "words_contamination_the"),
        Stat::Float(0.0)
    );
}

#[test]
fn the_parameters_are_options_by_datatroves_names() {
    let (params, _) = crate::options::parse(
        "max_k_chars_per_line_tresholds=5|50, stop_words=a|an, contamination_words=x",
        StatsParams::default(),
        &[STATS_KEYS],
        crate::options::RowKeys::Text,
    )
    .expect("valid");
    assert_eq!(params.short_line_chars, [5, 50]);
    assert_eq!(params.stop_words, ["a", "an"]);
    assert_eq!(params.contamination_words, ["x"]);
    let lines = line_stats("a\nbbbbbbb", &params);
    assert_eq!(value(&lines, "short_line_ratio_chars_5"), Stat::Float(0.5));
    let error = crate::options::parse(
        "min_k_chars_per_line_thresholds=ten",
        StatsParams::default(),
        &[STATS_KEYS],
        crate::options::RowKeys::Text,
    )
    .expect_err("not a number");
    assert!(
        error.to_string().contains("whole numbers separated by |"),
        "{error}"
    );
}
