//! Words of the Myanmar script as datatrove 0.10.1's `BurmeseTokenizer` gets them: pyidaungsu
//! 0.1.4's `tokenize(text, form="word")`. The text's spaces (U+0020 only) are taken out, a
//! conditional random field (a CRFsuite model over each character and the characters up to three
//! before and after it) labels each remaining character as beginning a word (`1`) or not, and the
//! words are the runs between the beginnings and the other whitespace (Python's `split()`). A word
//! is therefore not always a slice of the text: `Hello world` is one word, `Helloworld`.
//!
//! The model is pyidaungsu's (MIT), in `tokenizers/`.

use std::sync::LazyLock;

use crfs::{Attribute, Tagger};

use super::crf::{self, attribute};
use super::is_python_space;

/// pyidaungsu 0.1.4's `model/tokenizer.crfsuite`, gzipped.
const MODEL_GZ: &[u8] = include_bytes!("../../tokenizers/pyidaungsu_0.1.4_tokenizer.crfsuite.gz");

static TAGGER: LazyLock<Tagger<'static>> = LazyLock::new(|| {
    crf::tagger(
        crf::gunzip(MODEL_GZ, "pyidaungsu model"),
        "pyidaungsu model",
    )
});

/// The words of `text`, in order.
pub(super) fn words(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().filter(|&c| c != ' ').collect();
    let features: Vec<Vec<Attribute>> = (0..chars.len()).map(|i| features(&chars, i)).collect();
    // Tagging fails only on a model that does not read, which the tests would catch.
    let labels = TAGGER.tag(&features).unwrap_or_default();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let space = is_python_space(c);
        if (space || labels.get(i) == Some(&"1")) && !word.is_empty() {
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
fn features(chars: &[char], i: usize) -> Vec<Attribute> {
    let run = |name: &str, from: usize, to: usize| {
        let mut feature = String::with_capacity(name.len() + 1 + 4 * (to + 1 - from));
        feature.push_str(name);
        feature.push('=');
        feature.extend(&chars[from..=to]);
        attribute(feature)
    };
    let flag = |name: &str| attribute(name.to_owned());
    let mut out = Vec::with_capacity(17);
    out.extend([flag("bias"), run("char", i, i)]);
    if i >= 1 {
        out.extend([run("char-1", i - 1, i - 1), run("char-1:0", i - 1, i)]);
    } else {
        out.push(flag("BOS"));
    }
    if i >= 2 {
        out.extend([
            run("char-2", i - 2, i - 2),
            run("char-2:0", i - 2, i),
            run("char-2:-1", i - 2, i - 1),
        ]);
    }
    if i >= 3 {
        out.extend([run("char-3:0", i - 3, i), run("char-3:-1", i - 3, i - 1)]);
    }
    let n = chars.len();
    if i + 1 < n {
        out.extend([run("char+1", i + 1, i + 1), run("char:+1", i, i + 1)]);
    } else {
        out.push(flag("EOS"));
    }
    if i + 2 < n {
        out.extend([
            run("char+2", i + 2, i + 2),
            run("char:+2", i, i + 2),
            run("char+1:+2", i + 1, i + 2),
        ]);
    }
    if i + 3 < n {
        out.extend([run("char:+3", i, i + 3), run("char+1:+3", i + 1, i + 3)]);
    }
    out
}
