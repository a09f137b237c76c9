//! One tokenization per text and tokenizer for every filter function of a projection.
//!
//! `SELECT gopher_repetition(text), gopher_quality(text), fineweb_quality(text) FROM docs` is
//! evaluated one expression at a time over the whole batch, on one thread, and each of them needs
//! the text's words (spaCy's tokenizer, most of their time). The first to see a batch keeps each
//! row's text and its words' positions in a thread-local store; the functions after it take a
//! row's words from there when the row holds the very same text (compared byte for byte, so a
//! later batch can never be mistaken for it), as [`super::shared_parses`] does for pages. At most
//! [`KEPT_BYTES`] are kept per thread, and only where a later function will read them
//! ([`BatchReaders`]: not for a projection with one such function, after its first batch).

use std::borrow::Cow;
use std::cell::RefCell;

use datafusion::arrow::array::Array;

use super::thread_store::BatchReaders;
use crate::words::WordTokenizer;

/// What the kept texts and word positions of one thread may weigh.
const KEPT_BYTES: usize = 32 << 20;

/// A text and its words.
struct Kept {
    tokenizer: WordTokenizer,
    text: Box<str>,
    words: KeptWords,
}

/// Where a text's words are, as (start, length) in bytes, when each is a slice of it; the words
/// themselves when a tokenizer puts pieces together (pyidaungsu's and khmer-nltk's words across
/// spaces, Indic NLP's numbers).
enum KeptWords {
    Spans(Vec<(u32, u32)>),
    Owned(Vec<Box<str>>),
}

impl Kept {
    fn weight(&self) -> usize {
        self.text.len()
            + match &self.words {
                KeptWords::Spans(spans) => spans.len() * std::mem::size_of::<(u32, u32)>(),
                KeptWords::Owned(words) => (words.iter())
                    .map(|w| w.len() + std::mem::size_of::<Box<str>>())
                    .sum(),
            }
    }
}

#[derive(Default)]
struct Store {
    rows: Vec<Option<Kept>>,
    weight: usize,
    readers: BatchReaders,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

/// The words of the batch a filter function is computing, by row. Dropping it leaves them for the
/// next function of the batch.
pub(crate) struct SharedWords {
    store: Store,
}

impl SharedWords {
    /// The words kept on this thread, for a batch of `texts`.
    pub(crate) fn for_texts(texts: &dyn Array) -> SharedWords {
        let mut store = super::thread_store::take(&STORE);
        if store.readers.reading(texts) {
            store.rows.clear();
            store.weight = 0;
        }
        store.rows.resize_with(texts.len(), || None);
        SharedWords { store }
    }

    /// Row `row`'s words ([`crate::words::words_in`] `tokenizer` of `text`), or as an earlier
    /// function of the batch left them.
    pub(crate) fn words<'t>(
        &mut self,
        row: usize,
        text: &'t str,
        tokenizer: WordTokenizer,
    ) -> Vec<Cow<'t, str>> {
        if let Some(Some(kept)) = self.store.rows.get(row)
            && kept.tokenizer == tokenizer
            && *kept.text == *text
        {
            return match &kept.words {
                KeptWords::Spans(spans) => (spans.iter())
                    .map(|&(start, len)| {
                        Cow::Borrowed(&text[start as usize..start as usize + len as usize])
                    })
                    .collect(),
                KeptWords::Owned(words) => {
                    (words.iter()).map(|w| Cow::Owned(w.to_string())).collect()
                }
            };
        }
        let words = crate::words::words_in(tokenizer, text);
        self.keep(row, text, tokenizer, &words);
        words
    }

    /// Keeps the words: their positions when every word is a slice of the text, else the words.
    fn keep(&mut self, row: usize, text: &str, tokenizer: WordTokenizer, words: &[Cow<'_, str>]) {
        let Some(slot) = self.store.rows.get_mut(row) else {
            return;
        };
        if let Some(old) = slot.take() {
            self.store.weight -= old.weight();
        }
        // Positions are u32: a text of 4 GiB or more is not kept.
        let base = text.as_ptr() as usize;
        let spans: Option<Vec<(u32, u32)>> = words
            .iter()
            .map(|w| {
                let Cow::Borrowed(w) = w else { return None };
                let start = u32::try_from(w.as_ptr() as usize - base).ok()?;
                Some((start, u32::try_from(w.len()).ok()?))
            })
            .collect();
        let words = match spans {
            Some(spans) => KeptWords::Spans(spans),
            None => KeptWords::Owned(words.iter().map(|w| Box::from(w.as_ref())).collect()),
        };
        let kept = Kept {
            tokenizer,
            text: text.into(),
            words,
        };
        if self.store.readers.keeping() && self.store.weight + kept.weight() <= KEPT_BYTES {
            self.store.weight += kept.weight();
            *slot = Some(kept);
        }
    }
}

impl Drop for SharedWords {
    fn drop(&mut self) {
        super::thread_store::put_back(&STORE, std::mem::take(&mut self.store));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use datafusion::arrow::array::StringArray;

    /// A batch of this thread read by two functions, after which the next batch's words are
    /// kept.
    fn read_twice_before() {
        let before = StringArray::from(vec!["before"]);
        for _ in 0..2 {
            SharedWords::for_texts(&before).words(0, "before", WordTokenizer::English);
        }
    }

    #[test]
    fn a_later_function_takes_the_words_of_the_same_text_only() {
        let english = WordTokenizer::English;
        let text = String::from("Don't stop, it's 10km.");
        let batch = StringArray::from(vec!["", text.as_str()]);
        read_twice_before();
        {
            let mut shared = SharedWords::for_texts(&batch);
            assert_eq!(shared.words(1, &text, english), crate::words::words(&text));
        }
        // Another copy of the same text: the kept positions, sliced from this copy.
        let copy = text.clone();
        let mut shared = SharedWords::for_texts(&batch);
        let words = shared.words(1, &copy, english);
        assert_eq!(words, crate::words::words(&text));
        assert_eq!(words[0].as_ptr(), copy.as_ptr());
        // Another tokenizer tokenizes anew (spaCy's German keeps "Don't" whole).
        let german = WordTokenizer::spacy("de").unwrap();
        assert_eq!(shared.words(1, &copy, german)[0], "Don't");
        assert_eq!(shared.words(1, &copy, english)[0], "Do");
        // Another text in the row is tokenized anew; a row past the batch's end is not kept.
        assert_eq!(shared.words(1, "a b", english), ["a", "b"]);
        assert_eq!(shared.words(5, "c", english), ["c"]);
    }

    /// Words that are not slices of the text (pyidaungsu's join across spaces) are kept too, so
    /// the filters after the first do not tokenize the text again.
    #[test]
    fn words_put_together_by_the_tokenizer_are_kept_too() {
        let burmese = WordTokenizer::Burmese;
        let text = "Hello world 123";
        let batch = StringArray::from(vec![text]);
        read_twice_before();
        let first = SharedWords::for_texts(&batch).words(0, text, burmese);
        assert_eq!(first, crate::words::words_in(burmese, text));
        assert!(first.iter().any(|w| matches!(w, Cow::Owned(_))));
        let mut shared = SharedWords::for_texts(&batch);
        assert!(matches!(
            &shared.store.rows[0],
            Some(Kept { words: KeptWords::Owned(words), .. }) if words.len() == first.len()
        ));
        assert_eq!(shared.words(0, text, burmese), first);
    }

    /// A batch read by one function leaves no words for the next.
    #[test]
    fn a_batch_read_by_one_function_keeps_no_words() {
        let (first, second) = (
            StringArray::from(vec!["a b"]),
            StringArray::from(vec!["c d"]),
        );
        SharedWords::for_texts(&first).words(0, "a b", WordTokenizer::English);
        let mut shared = SharedWords::for_texts(&second);
        shared.words(0, "c d", WordTokenizer::English);
        assert!(shared.store.rows[0].is_none());
        assert_eq!(shared.store.weight, 0);
    }
}
