//! Japanese words as datatrove 0.10.1's `SpaCyTokenizer("ja")` gives them: its Japanese tokenizer
//! over Sudachi (SudachiPy 0.7.0, split mode A, sudachidict-core's system dictionary), the text cut
//! first into pieces of at most 40,000 UTF-8 bytes exactly where datatrove's
//! `chunk_text_on_bytes` cuts it, each piece analysed alone.
//!
//! Sudachi's morphemes are slices of the piece. spaCy's alignment then drops the ones that are
//! whitespace and fills every gap with whitespace, which `strip_strings` removes again, so the
//! words are the morphemes' surfaces that are not whitespace, stripped.
//!
//! SudachiPy is sudachi.rs, a Rust crate that is not published on crates.io, so webtext cannot
//! depend on it: tools/install_sudachi.sh builds a small C interface over the crate of SudachiPy's
//! source distribution (tools/sudachi_shim) and installs it with SudachiPy's settings and
//! resource files and the dictionary into one folder, which `WEBTEXT_SUDACHI` names; it is loaded
//! at run time.

use std::ffi::{CString, c_char, c_int, c_void};
use std::path::Path;
use std::sync::OnceLock;

use libloading::Library;

use super::dictionary::Chars;
use super::is_python_space;
use super::loaded::{self, symbol, text_of};

/// The environment variable naming the folder tools/install_sudachi.sh installs.
pub const VARIABLE: &str = "WEBTEXT_SUDACHI";

/// datatrove cuts a Japanese text into pieces of at most this many UTF-8 bytes.
const PIECE_BYTES: usize = 40_000;

/// The SudachiPy release whose morphemes the parity checks pin; the interface reports the one
/// it was built on, and a folder from another install is refused rather than silently differing.
const INTERFACE_VERSION: &str = "0.7.0";

type Morpheme = extern "C" fn(*mut c_void, usize, usize);
type Tokenize =
    unsafe extern "C" fn(*const c_void, *const u8, usize, *mut c_void, Morpheme) -> c_int;

/// Sudachi's dictionary, opened once for the life of the process.
pub struct Sudachi {
    handle: *mut c_void,
    tokenize: Tokenize,
    // Last: the function above points into it.
    _library: Library,
}

impl std::fmt::Debug for Sudachi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sudachi({INTERFACE_VERSION})")
    }
}

// SAFETY: the interface analyses each text with a tokenizer of its own over the shared,
// never modified dictionary (sudachi.rs's stateless tokenizer), so threads may call it at once.
unsafe impl Send for Sudachi {}
unsafe impl Sync for Sudachi {}

static SUDACHI: OnceLock<Result<Sudachi, String>> = OnceLock::new();

/// The process's Sudachi, loaded on first use from the folder `WEBTEXT_SUDACHI` names, or why it
/// is not there: a phrase completing "'jpn_Jpan' is not …".
pub fn sudachi() -> Result<&'static Sudachi, &'static str> {
    loaded::once(
        &SUDACHI,
        || Sudachi::load(Path::new(&loaded::variable(VARIABLE)?)),
        "SpaCyTokenizer(ja)",
        "Sudachi",
    )
}

impl Sudachi {
    /// Loads the interface of a folder tools/install_sudachi.sh installed and opens its
    /// dictionary as SudachiPy's `Dictionary()` does.
    pub fn load(folder: &Path) -> Result<Sudachi, String> {
        let library_path = folder.join("lib/libwebtext_sudachi.so");
        // SAFETY: loading runs the library's initialisers; the folder is tools/install_sudachi.sh's.
        let library = unsafe { Library::new(&library_path) }
            .map_err(|e| format!("{} could not be loaded: {e}", library_path.display()))?;
        let path = |relative: &str| {
            CString::new(folder.join(relative).to_string_lossy().as_bytes())
                .map_err(|_| "the folder's path holds a NUL".to_owned())
        };
        let (settings, resources, dictionary) = (
            path("resources/sudachi.json")?,
            path("resources")?,
            path("system.dic")?,
        );
        // SAFETY: each type below is the interface's declaration (tools/sudachi_shim/src/lib.rs).
        unsafe {
            let open: unsafe extern "C" fn(
                *const c_char,
                *const c_char,
                *const c_char,
                *mut *mut c_char,
            ) -> *mut c_void = symbol(&library, "webtext_sudachi_open")?;
            let free_error: unsafe extern "C" fn(*mut c_char) =
                symbol(&library, "webtext_sudachi_free_error")?;
            let tokenize: Tokenize = symbol(&library, "webtext_sudachi_tokenize")?;
            let version_of: unsafe extern "C" fn() -> *const c_char =
                symbol(&library, "webtext_sudachi_version")?;
            let version = text_of(version_of());
            if version != INTERFACE_VERSION {
                return Err(format!(
                    "{} is built on SudachiPy {version}, not {INTERFACE_VERSION}: \
                     rerun tools/install_sudachi.sh",
                    library_path.display()
                ));
            }
            let mut error = std::ptr::null_mut();
            let handle = open(
                settings.as_ptr(),
                resources.as_ptr(),
                dictionary.as_ptr(),
                &mut error,
            );
            if handle.is_null() {
                let why = text_of(error);
                free_error(error);
                return Err(format!("the dictionary in {}: {why}", folder.display()));
            }
            Ok(Sudachi {
                handle,
                tokenize,
                _library: library,
            })
        }
    }

    /// The byte ranges of Sudachi's morphemes of `piece` in split mode A, or `None` if it failed.
    fn morphemes(&self, piece: &str) -> Option<Vec<(usize, usize)>> {
        extern "C" fn push(spans: *mut c_void, begin: usize, end: usize) {
            // SAFETY: `spans` is the vector of `morphemes`, borrowed by nothing else meanwhile.
            unsafe { (*(spans as *mut Vec<(usize, usize)>)).push((begin, end)) };
        }
        let mut spans: Vec<(usize, usize)> = Vec::new();
        // SAFETY: the handle is open for the life of the process; the text and the vector outlive
        // the call.
        let status = unsafe {
            (self.tokenize)(
                self.handle,
                piece.as_ptr(),
                piece.len(),
                (&raw mut spans).cast(),
                push,
            )
        };
        (status == 0).then_some(spans)
    }
}

/// datatrove's `chunk_text_on_bytes(text, limit)`: pieces of at most `limit` UTF-8 bytes, each cut
/// where datatrove cuts it (its guess of a piece's length in characters, from the text's share of
/// characters per byte, kept from one piece to the next, then moved ten characters at a time).
fn pieces(text: &str, limit: usize) -> Vec<&str> {
    let chars = Chars::new(text);
    let (offsets, characters) = (&chars.offsets, chars.len());
    let factor = if text.is_empty() {
        1.0
    } else {
        characters as f64 / text.len() as f64
    };
    let mut guess = (limit as f64 * factor - 10.0).max(1.0) as usize;
    let mut out = Vec::new();
    let mut start = 0;
    while start < characters {
        let remaining = characters - start;
        // The bytes of the first `n` characters of what remains (Python's slice clamps).
        let bytes = |n: usize| offsets[start + n.min(remaining)] - offsets[start];
        if bytes(guess) > limit {
            guess = guess.saturating_sub(10).max(1);
            continue;
        }
        let mut cut = guess;
        while bytes(cut) < limit && cut < remaining {
            cut = remaining.min(cut + 10);
        }
        if bytes(cut) > limit {
            cut -= 10;
        }
        let end = start + cut.min(remaining);
        out.push(chars.slice(start, end));
        start = end;
    }
    out
}

/// The words of `text`: in each piece, the surfaces of Sudachi's morphemes that are not
/// whitespace, stripped. A text Sudachi fails on has no words.
pub fn words<'a>(sudachi: &Sudachi, text: &'a str) -> Vec<&'a str> {
    let mut words = Vec::new();
    for piece in pieces(text, PIECE_BYTES) {
        let Some(spans) = sudachi.morphemes(piece) else {
            return Vec::new();
        };
        for (begin, end) in spans {
            let Some(surface) = piece.get(begin..end) else {
                continue;
            };
            let word = surface.trim_matches(is_python_space);
            if !word.is_empty() {
                words.push(word);
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed() -> Option<&'static Sudachi> {
        loaded::installed(sudachi(), "WEBTEXT_REQUIRE_SUDACHI")
    }

    /// datatrove's cuts, worked by hand from its algorithm: a text of 1-byte characters is cut
    /// every 40,000; of 3-byte ones (guess 13,323 characters, moved up by tens while under the
    /// limit, back ten once over) every 13,333 characters.
    #[test]
    fn pieces_are_cut_where_datatrove_cuts_them() {
        let ascii = "a".repeat(100_000);
        let lengths: Vec<usize> = pieces(&ascii, 40_000).iter().map(|p| p.len()).collect();
        assert_eq!(lengths, [40_000, 40_000, 20_000]);
        let kana = "あ".repeat(30_000);
        let lengths: Vec<usize> = pieces(&kana, 40_000)
            .iter()
            .map(|p| p.chars().count())
            .collect();
        assert_eq!(lengths, [13_333, 13_333, 3_334]);
        assert!(pieces("", 40_000).is_empty());
        let mixed = "aあ😀".repeat(20_000);
        let joined: String = pieces(&mixed, 40_000).concat();
        assert_eq!(joined, mixed);
        assert!(pieces(&mixed, 40_000).iter().all(|p| p.len() <= 40_000));
    }

    #[test]
    fn without_the_environment_the_error_names_the_variable_and_the_book() {
        if std::env::var_os(VARIABLE).is_some() {
            return;
        }
        let error = sudachi().err().unwrap();
        assert!(error.contains("WEBTEXT_SUDACHI is not set"), "{error}");
    }

    #[test]
    fn a_folder_that_is_not_there_is_an_error_not_a_panic() {
        let error = Sudachi::load(Path::new("/nonexistent")).err().unwrap();
        assert!(
            error.contains("/nonexistent/lib/libwebtext_sudachi.so"),
            "{error}"
        );
    }

    /// Expected values are SudachiPy 0.7.0's (split mode A, sudachidict-core 20261015) through
    /// datatrove: short units, whitespace gone, a URL and numbers as Sudachi joins them.
    #[test]
    fn sudachipys_words() {
        let Some(sudachi) = installed() else { return };
        assert_eq!(
            words(sudachi, "東京都に住んでいます。"),
            ["東京", "都", "に", "住ん", "で", "い", "ます", "。"]
        );
        assert_eq!(words(sudachi, "  今日は　晴れ \n"), ["今日", "は", "晴れ"]);
    }

    /// Text Sudachi may choke on: NUL, controls, lone marks, emoji, a text past one piece; on
    /// four threads at once too.
    #[test]
    fn hostile_texts_and_threads() {
        let Some(sudachi) = installed() else { return };
        let long = "日本語のテキスト".repeat(10_000);
        let texts = [
            "",
            "\0",
            "日本\0語",
            "😀😀 日本 😀",
            "\u{301}\u{302}",
            "\u{1b}[31m赤\u{7}",
            long.as_str(),
        ];
        loaded::check_hostile_texts_on_threads(&texts, |t| words(sudachi, t));
    }
}
