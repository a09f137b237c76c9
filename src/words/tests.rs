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
