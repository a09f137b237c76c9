//! Words of the Myanmar script as datatrove 0.10.1's `BurmeseTokenizer` gets them: pyidaungsu
//! 0.1.4's `tokenize(text, form="word")`. The text's spaces (U+0020 only) are taken out, a
//! conditional random field (a CRFsuite model over each character and the characters up to three
//! before and after it) labels each remaining character as beginning a word (`1`) or not, and the
//! words are the runs between the beginnings and the other whitespace (Python's `split()`). A word
//! is therefore not always a slice of the text: `Hello world` is one word, `Helloworld`.
//!
//! The model is pyidaungsu's (MIT), in `tokenizers/`.

use std::sync::LazyLock;

use super::crf::{self, ItemScores, StreamingCrf};
use super::is_python_space;

/// pyidaungsu 0.1.4's `model/tokenizer.crfsuite`, gzipped.
const MODEL_GZ: &[u8] =
    include_bytes!("../../../tokenizers/pyidaungsu_0.1.4_tokenizer.crfsuite.gz");

static CRF: LazyLock<StreamingCrf> = LazyLock::new(|| {
    StreamingCrf::new(
        crf::gunzip(MODEL_GZ, "pyidaungsu model"),
        "pyidaungsu model",
    )
});

/// The words of `text`, in order.
pub(super) fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().filter(|&c| c != ' ').collect();
    let labels = CRF.tag(chars.len(), |i, scores| features(&chars, i, scores));
    let begins = CRF.label("1");
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let space = is_python_space(c);
        if (space || labels.get(i).copied() == begins) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if !space {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// pyidaungsu's `create_char_features` for character `i`, in its order: the character, and the
/// characters and runs of characters up to three before and after it (`name=run`), with the flags
/// `bias`, `BOS` and `EOS`.
fn features(chars: &[char], i: usize, scores: &mut ItemScores<'_>) {
    let mut add = |name: &str, run: Option<(usize, usize)>| {
        scores.add(|feature| {
            feature.push_str(name);
            if let Some((from, to)) = run {
                feature.push('=');
                feature.extend(&chars[from..=to]);
            }
        })
    };
    add("bias", None);
    add("char", Some((i, i)));
    if i >= 1 {
        add("char-1", Some((i - 1, i - 1)));
        add("char-1:0", Some((i - 1, i)));
    } else {
        add("BOS", None);
    }
    if i >= 2 {
        add("char-2", Some((i - 2, i - 2)));
        add("char-2:0", Some((i - 2, i)));
        add("char-2:-1", Some((i - 2, i - 1)));
    }
    if i >= 3 {
        add("char-3:0", Some((i - 3, i)));
        add("char-3:-1", Some((i - 3, i - 1)));
    }
    let n = chars.len();
    if i + 1 < n {
        add("char+1", Some((i + 1, i + 1)));
        add("char:+1", Some((i, i + 1)));
    } else {
        add("EOS", None);
    }
    if i + 2 < n {
        add("char+2", Some((i + 2, i + 2)));
        add("char:+2", Some((i, i + 2)));
        add("char+1:+2", Some((i + 1, i + 2)));
    }
    if i + 3 < n {
        add("char:+3", Some((i, i + 3)));
        add("char+1:+3", Some((i + 1, i + 3)));
    }
}
