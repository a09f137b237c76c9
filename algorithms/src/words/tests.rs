use super::*;

fn words_of(text: &str) -> Vec<&str> {
    words(text)
}

/// The spec's verified examples (§2.2).
#[test]
fn the_specs_examples() {
    assert_eq!(words_of("Don't"), ["Do", "n't"]);
    assert_eq!(words_of("e.g."), ["e.g."]);
    assert_eq!(words_of("10km"), ["10", "km"]);
    assert_eq!(words_of("U.S."), ["U.S."]);
    assert_eq!(words_of("cannot"), ["can", "not"]);
    assert_eq!(words_of("dont"), ["do", "nt"]);
    assert_eq!(words_of("gonna"), ["gon", "na"]);
    assert_eq!(words_of("http://x.com/a?b=1"), ["http://x.com/a?b=1"]);
    assert_eq!(words_of("9am"), ["9", "am"]);
    assert_eq!(words_of("foo:-)"), ["foo:-", ")"]);
    // The phrase pass (step 5).
    assert_eq!(words_of("x:)"), ["x", ":)"]);
}

#[test]
fn whitespace_is_never_a_word_but_is_a_token() {
    assert_eq!(
        words_of("  Hello,\n\tworld!  "),
        ["Hello", ",", "world", "!"]
    );
    let tokens = tokens("a  b");
    assert_eq!(tokens.len(), 3);
    assert!(tokens[0].space_after && tokens[1].is_space && !tokens[2].is_space);
    assert!(words_of("").is_empty());
    assert!(words_of(" \u{1c}\u{a0}").is_empty());
}

/// The spec's sentence examples (§2.3).
#[test]
fn sentences_as_the_sentencizer_counts_them() {
    assert_eq!(sentence_count("Hello. World"), 2);
    assert_eq!(sentence_count("e.g. this"), 1);
    assert_eq!(sentence_count("Stop...\" Next"), 1);
    assert_eq!(sentence_count("Hi!\" Next"), 2);
    assert_eq!(sentence_count(""), 1);
}

/// A run's tokens come from the cache the second time: the same slices of the new text.
#[test]
fn cached_runs_give_the_same_tokens() {
    let text = "Don't stop, e.g. at 9am... Don't stop, e.g. at 9am...";
    let words = words_of(text);
    assert_eq!(words[..words.len() / 2], words[words.len() / 2..]);
    assert_eq!(words[..3], ["Do", "n't", "stop"]);
    let long = "a".repeat(100) + "!";
    assert_eq!(words_of(&long), [&long[..100], "!"]);
}

/// The words datatrove 0.10.1's tokenizers give for the languages the FineWeb-2 oracle does not
/// cover (`tests/data/words_reference.json.gz`, written by `tools/reference_words.py`: the
/// Universal Declaration of Human Rights paragraph by paragraph and whole, and hand-made texts
/// that mix scripts, digits, spaces and controls).
#[test]
fn words_are_datatroves_in_the_languages_outside_the_oracle() {
    use std::io::Read;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/words_reference.json.gz"
    );
    let mut json = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut json)
        .unwrap();
    let reference: serde_json::Value = serde_json::from_str(&json).unwrap();
    let configs = reference.as_object().unwrap();
    assert!(configs.len() >= 2, "{:?}", configs.keys());
    for (config, expected) in configs {
        let language = crate::datatrove::filters::fineweb2::fineweb2_language(config).unwrap();
        let tokenizer = language.tokenizer().unwrap();
        assert_eq!(tokenizer.name(), expected["tokenizer"].as_str().unwrap());
        let cases = expected["cases"].as_array().unwrap();
        let mut same = 0;
        let mut shown = 0;
        for case in cases {
            let text = case[0].as_str().unwrap();
            let want: Vec<&str> = (case[1].as_array().unwrap().iter())
                .map(|w| w.as_str().unwrap())
                .collect();
            let got = words_in(tokenizer, text);
            if got == want {
                same += 1;
            } else if shown < 5 {
                shown += 1;
                eprintln!("{config}: {text:?}\n  got  {got:?}\n  want {want:?}");
            }
        }
        eprintln!("{config}: {same} of {} texts", cases.len());
        assert_eq!(same, cases.len(), "{config}");
    }
}
