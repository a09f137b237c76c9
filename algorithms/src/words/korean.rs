//! Korean words as datatrove 0.10.1's `KiwiTokenizer` gives them: kiwipiepy 0.21.0's
//! `Kiwi(model_type="sbg").tokenize(text)` over the text without its runs of twenty or more digits
//! and commas, each token's span sliced from the original text, then `strip_strings`.
//!
//! Kiwi is a C++ morphological analyser (LGPL-2.1) with no Rust port, so its C API is loaded at
//! run time from a shared library the user provides, with kiwipiepy's model files:
//! `WEBTEXT_KIWI_LIBRARY` names the library (`libkiwi.so`, built from the Kiwi sources that
//! kiwipiepy 0.21.0's source distribution holds) and `WEBTEXT_KIWI_MODEL` the folder of
//! kiwipiepy_model 0.21.0's files. Nothing of Kiwi is linked into the crate.
//!
//! Kiwi is set up as kiwipiepy sets it up: every dictionary, allomorphs integrated, no typo
//! correction (typo cost threshold 2.5), its search settings, and `tokenize`'s match options (URLs,
//! e-mails, hashtags, mentions, serials and emoji kept whole, codas after endings split off).
//! Its spans are counted in UTF-16 units; kiwipiepy turns them into character positions by
//! subtracting the surrogate pairs of the forms of the tokens before (not of the text), and so
//! does this module. A text is handed over with its length, so a NUL inside it does not end it.

use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;
use std::sync::{LazyLock, OnceLock};

use libloading::Library;
use regex::Regex;

use super::dictionary::Chars;
use super::is_python_space;
use super::loaded::{self, symbol, text_of};

/// The environment variable naming Kiwi's C library.
pub const LIBRARY_VARIABLE: &str = "WEBTEXT_KIWI_LIBRARY";
/// The environment variable naming the folder of Kiwi's model files.
pub const MODEL_VARIABLE: &str = "WEBTEXT_KIWI_MODEL";

/// capi.h: every dictionary (default, typo, multi-word) and allomorphs integrated, as kiwipiepy's
/// `Kiwi()` builds it, and the skip-bigram language model (`model_type="sbg"`).
const BUILD_OPTIONS: c_int = 15 | 0x0300;
/// kiwipiepy's default typo cost threshold (no typo transformer is given, so it is not used).
const TYPO_COST_THRESHOLD: f32 = 2.5;
/// kiwipiepy's `Match.ALL` (URL, e-mail, hashtag, mention, serial, emoji) with `z_coda=True`.
const MATCH_OPTIONS: c_int = 0b11_1111 | (1 << 23);
/// The settings of kiwipiepy's Kiwi once built. `Kiwi._on_build` sets them, but names the unknown
/// forms' score scale and bias `_unk_form_score_*` where its C++ type has `_unk_score_*`: those two
/// stay at Kiwi's own defaults (5 and 5, not the 3 and 5 the Python code writes).
const INT_SETTINGS: [(c_int, c_int); 3] = [
    (1, 1),      // KIWI_BUILD_INTEGRATE_ALLOMORPH
    (0x8002, 6), // KIWI_MAX_UNK_FORM_SIZE
    (0x8003, 0), // KIWI_SPACE_TOLERANCE
];
const FLOAT_SETTINGS: [(c_int, f32); 5] = [
    (0x9001, 8.0), // KIWI_CUT_OFF_THRESHOLD
    (0x9002, 5.0), // KIWI_UNK_FORM_SCORE_SCALE
    (0x9003, 5.0), // KIWI_UNK_FORM_SCORE_BIAS
    (0x9004, 7.0), // KIWI_SPACE_PENALTY
    (0x9005, 6.0), // KIWI_TYPO_COST_WEIGHT
];

/// capi.h's `kiwi_token_info_t`.
#[repr(C)]
struct TokenInfo {
    chr_position: u32,
    word_position: u32,
    sent_position: u32,
    line_number: u32,
    length: u16,
    tag: u8,
    sense_or_script: u8,
    score: f32,
    typo_cost: f32,
    typo_form_id: u32,
    paired_token: u32,
    sub_sent_position: u32,
}

type Reader = unsafe extern "C" fn(c_int, *mut u16, *mut c_void) -> c_int;
type Receiver = unsafe extern "C" fn(c_int, *mut c_void, *mut c_void) -> c_int;

/// The C functions used, resolved once.
struct Api {
    error: unsafe extern "C" fn() -> *const c_char,
    clear_error: unsafe extern "C" fn(),
    analyze_mw: unsafe extern "C" fn(
        *mut c_void,
        Reader,
        Receiver,
        *mut c_void,
        c_int,
        c_int,
        *mut c_void,
    ) -> c_int,
    word_num: unsafe extern "C" fn(*mut c_void, c_int) -> c_int,
    token_info: unsafe extern "C" fn(*mut c_void, c_int, c_int) -> *const TokenInfo,
    form_w: unsafe extern "C" fn(*mut c_void, c_int, c_int) -> *const u16,
    close_result: unsafe extern "C" fn(*mut c_void) -> c_int,
}

/// A built Kiwi, kept for the life of the process.
pub struct Kiwi {
    api: Api,
    handle: *mut c_void,
    version: String,
    // Last: the functions above point into it.
    _library: Library,
}

impl std::fmt::Debug for Kiwi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kiwi({})", self.version)
    }
}

// SAFETY: Kiwi's analysis is a const method of a built, never modified instance (kiwipiepy runs
// it from many threads at once), and the C API keeps its last error per thread.
unsafe impl Send for Kiwi {}
unsafe impl Sync for Kiwi {}

static KIWI: OnceLock<Result<Kiwi, String>> = OnceLock::new();

/// The process's Kiwi, loaded on first use from the two environment variables, or why it is not
/// there: a phrase completing "'kor_Hang' is not …".
pub fn kiwi() -> Result<&'static Kiwi, &'static str> {
    loaded::once(
        &KIWI,
        || {
            let library = loaded::variable(LIBRARY_VARIABLE)?;
            let model = loaded::variable(MODEL_VARIABLE)?;
            Kiwi::load(Path::new(&library), Path::new(&model))
        },
        "KiwiTokenizer",
        "Kiwi 0.21",
    )
}

impl Kiwi {
    /// Loads Kiwi's C library and builds Kiwi over the model folder as kiwipiepy does.
    pub fn load(library: &Path, model: &Path) -> Result<Kiwi, String> {
        // SAFETY: loading runs the library's initialisers; the user names a Kiwi library.
        let library = unsafe { Library::new(library) }
            .map_err(|e| format!("{} could not be loaded: {e}", library.display()))?;
        let model_path = CString::new(model.to_string_lossy().as_bytes())
            .map_err(|_| "the model path holds a NUL".to_owned())?;
        // SAFETY: each type below is capi.h's declaration of the function.
        unsafe {
            let api = Api {
                error: symbol(&library, "kiwi_error")?,
                clear_error: symbol(&library, "kiwi_clear_error")?,
                analyze_mw: symbol(&library, "kiwi_analyze_mw")?,
                word_num: symbol(&library, "kiwi_res_word_num")?,
                token_info: symbol(&library, "kiwi_res_token_info")?,
                form_w: symbol(&library, "kiwi_res_form_w")?,
                close_result: symbol(&library, "kiwi_res_close")?,
            };
            let version_of: unsafe extern "C" fn() -> *const c_char =
                symbol(&library, "kiwi_version")?;
            let builder_init: unsafe extern "C" fn(*const c_char, c_int, c_int) -> *mut c_void =
                symbol(&library, "kiwi_builder_init")?;
            let builder_build: unsafe extern "C" fn(*mut c_void, *mut c_void, f32) -> *mut c_void =
                symbol(&library, "kiwi_builder_build")?;
            let builder_close: unsafe extern "C" fn(*mut c_void) -> c_int =
                symbol(&library, "kiwi_builder_close")?;
            let set_option: unsafe extern "C" fn(*mut c_void, c_int, c_int) =
                symbol(&library, "kiwi_set_option")?;
            let set_option_f: unsafe extern "C" fn(*mut c_void, c_int, f32) =
                symbol(&library, "kiwi_set_option_f")?;

            let version = text_of(version_of());
            if !version.starts_with("0.21.") {
                return Err(format!("the library is Kiwi {version}, not 0.21"));
            }
            let last_error = || text_of((api.error)());
            // One thread: a single text's analysis never uses Kiwi's pool.
            let builder = builder_init(model_path.as_ptr(), 1, BUILD_OPTIONS);
            if builder.is_null() {
                return Err(format!(
                    "the model in {}: {}",
                    model.display(),
                    last_error()
                ));
            }
            let handle = builder_build(builder, std::ptr::null_mut(), TYPO_COST_THRESHOLD);
            builder_close(builder);
            if handle.is_null() {
                return Err(format!("building Kiwi: {}", last_error()));
            }
            for (option, value) in INT_SETTINGS {
                set_option(handle, option, value);
            }
            for (option, value) in FLOAT_SETTINGS {
                set_option_f(handle, option, value);
            }
            Ok(Kiwi {
                api,
                handle,
                version,
                _library: library,
            })
        }
    }

    /// The library's version (`0.21.0`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The spans of Kiwi's tokens of `text`, in characters as kiwipiepy counts them (start, end),
    /// or Kiwi's error.
    fn spans(&self, text: &str) -> Result<Vec<(usize, usize)>, String> {
        let mut call = Call {
            text: text.encode_utf16().collect(),
            results: Vec::new(),
        };
        if c_int::try_from(call.text.len()).is_err() {
            return Err("a text longer than Kiwi's C API takes".to_owned());
        }
        // SAFETY: `call` outlives the analysis, the callbacks read and write only through it, and
        // each result handle is closed once, after it has been read.
        unsafe {
            let status = (self.api.analyze_mw)(
                self.handle,
                read_text,
                receive_result,
                (&raw mut call).cast(),
                1,
                MATCH_OPTIONS,
                std::ptr::null_mut(),
            );
            let spans = if status < 0 {
                let error = text_of((self.api.error)());
                (self.api.clear_error)();
                Err(error)
            } else {
                Ok(call
                    .results
                    .iter()
                    .flat_map(|&result| self.result_spans(result))
                    .collect())
            };
            for &result in &call.results {
                (self.api.close_result)(result);
            }
            spans
        }
    }

    /// The spans of one result's best analysis: kiwipiepy's `start` is the UTF-16 position less
    /// the surrogate pairs of the forms before, its `len` the UTF-16 length less the form's own.
    ///
    /// # Safety
    /// `result` is a live result handle of this Kiwi.
    unsafe fn result_spans(&self, result: *mut c_void) -> Vec<(usize, usize)> {
        // SAFETY: the handle is live; indexes stay below the count the API gives, and the info and
        // form pointers it returns stay valid until the handle is closed.
        unsafe {
            let count = (self.api.word_num)(result, 0).max(0);
            let mut pairs_before = 0usize;
            let mut spans = Vec::with_capacity(count as usize);
            for index in 0..count {
                let info = (self.api.token_info)(result, 0, index);
                if info.is_null() {
                    break;
                }
                let pairs = surrogate_pairs((self.api.form_w)(result, 0, index));
                let start = ((*info).chr_position as usize).saturating_sub(pairs_before);
                let length = ((*info).length as usize).saturating_sub(pairs);
                pairs_before += pairs;
                spans.push((start, start + length));
            }
            spans
        }
    }
}

/// What `kiwi_analyze_mw` reads the text from and hands its results to.
struct Call {
    text: Vec<u16>,
    results: Vec<*mut c_void>,
}

/// capi.h's reader: the text as line 0, its length when asked without a buffer; no line 1.
unsafe extern "C" fn read_text(line: c_int, buffer: *mut u16, user_data: *mut c_void) -> c_int {
    // SAFETY: `user_data` is the `Call` of `Kiwi::spans`; a buffer is as long as the length given.
    unsafe {
        let call = &*(user_data as *const Call);
        if line > 0 {
            return 0;
        }
        if !buffer.is_null() {
            std::ptr::copy_nonoverlapping(call.text.as_ptr(), buffer, call.text.len());
        }
        call.text.len() as c_int
    }
}

/// capi.h's receiver: keeps the result to read once the analysis is over.
unsafe extern "C" fn receive_result(
    _line: c_int,
    result: *mut c_void,
    user_data: *mut c_void,
) -> c_int {
    // SAFETY: `user_data` is the `Call` of `Kiwi::spans`, not otherwise borrowed meanwhile.
    unsafe { (*(user_data as *mut Call)).results.push(result) };
    0
}

/// The number of surrogate pairs (high surrogates) of a NUL-terminated UTF-16 string.
///
/// # Safety
/// `form` is null or points to a NUL-terminated UTF-16 string.
unsafe fn surrogate_pairs(mut form: *const u16) -> usize {
    let mut pairs = 0;
    if form.is_null() {
        return 0;
    }
    // SAFETY: read up to and including the terminating NUL.
    unsafe {
        while *form != 0 {
            pairs += usize::from(*form & 0xFC00 == 0xD800);
            form = form.add(1);
        }
    }
    pairs
}

/// datatrove's `preprocess`: every run of twenty or more ASCII digits and commas removed.
static LONG_NUMBERS: LazyLock<Regex> = LazyLock::new(|| Regex::new("[0-9,]{20,}").unwrap());

/// The words of `text`: Kiwi's token spans of the preprocessed text, sliced from `text` itself
/// as Python slices (so after a removed run every later word is shifted, as in datatrove),
/// stripped, without the empty ones. A text Kiwi fails on has no words.
pub fn words<'a>(kiwi: &Kiwi, text: &'a str) -> Vec<&'a str> {
    let preprocessed = LONG_NUMBERS.replace_all(text, "");
    let Ok(spans) = kiwi.spans(&preprocessed) else {
        return Vec::new();
    };
    let text = Chars::new(text);
    spans
        .into_iter()
        .map(|(start, end)| {
            let (start, end) = (start.min(text.len()), end.min(text.len()));
            if start >= end {
                ""
            } else {
                text.slice(start, end)
            }
        })
        .map(|w| w.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed() -> Option<&'static Kiwi> {
        loaded::installed(kiwi(), "WEBTEXT_REQUIRE_KIWI")
    }

    #[test]
    fn without_the_environment_the_error_names_both_variables_and_the_book() {
        if std::env::var_os(LIBRARY_VARIABLE).is_some() {
            return;
        }
        let error = kiwi().err().unwrap();
        assert!(error.contains("WEBTEXT_KIWI_LIBRARY is not set"), "{error}");
        assert!(error.contains("Kiwi 0.21"), "{error}");
    }

    #[test]
    fn a_library_that_is_not_there_is_an_error_not_a_panic() {
        let error = Kiwi::load(
            Path::new("/nonexistent/libkiwi.so"),
            Path::new("/nonexistent"),
        )
        .err()
        .unwrap();
        assert!(error.contains("/nonexistent/libkiwi.so"), "{error}");
    }

    /// datatrove's quirks, each expected value kiwipiepy 0.21.0's own: morpheme spans that overlap
    /// slice overlapping words (`만나요`: `만나` [0,2) and `어요` [1,3)); a removed run of digits
    /// shifts every later word; a hashtag stays whole; an emoji (two UTF-16 units) is one
    /// character.
    #[test]
    fn kiwipiepy_quirks() {
        let Some(kiwi) = installed() else { return };
        assert_eq!(words(kiwi, "만나요"), ["만나", "나요"]);
        assert_eq!(
            words(kiwi, "가격은 1234567890123456789012345 원입니다."),
            ["가격", "은", "2", "3", "345", "6"]
        );
        assert_eq!(
            words(kiwi, "오늘 #해시태그 좋아요"),
            ["오늘", "#해시태그", "좋", "아요"]
        );
        assert_eq!(
            words(kiwi, "😀😀 한국어 😀 텍스트"),
            ["😀", "😀", "한국어", "😀", "텍스트"]
        );
    }

    /// Text Kiwi may choke on: controls, a NUL, lone marks, emoji (surrogate pairs in UTF-16),
    /// long runs, sentences with hashtags; on four threads at once too.
    #[test]
    fn hostile_texts_and_threads() {
        let Some(kiwi) = installed() else { return };
        let long = "가".repeat(20_000);
        let sentences: Vec<String> = (0..40)
            .map(|i| format!("{i}번째 문장입니다. 오늘은 날씨가 좋아서 공원에 갔어요 #산책{i}"))
            .collect();
        let mut texts = vec![
            "",
            "\0",
            "안녕\0하세요",
            "😀😀 한국어 😀 텍스트",
            "\u{301}\u{302}",
            "\u{1b}[31m빨강\u{7}",
            long.as_str(),
            "1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9,0,1",
        ];
        texts.extend(sentences.iter().map(String::as_str));
        loaded::check_hostile_texts_on_threads(&texts, |t| words(kiwi, t));
    }
}
