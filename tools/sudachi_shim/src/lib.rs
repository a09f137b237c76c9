//! A C interface to sudachi.rs (the Rust Sudachi that SudachiPy 0.7.0 binds) for webtext's
//! Japanese words: tools/install_sudachi.sh builds it against the sudachi crate of SudachiPy's
//! source distribution, and webtext loads it at run time (algorithms/src/words/japanese.rs). The crate is
//! not published on crates.io, so webtext cannot depend on it.
//!
//! The dictionary is opened as SudachiPy's `Dictionary()` opens it: SudachiPy's own settings file,
//! its resource folder for the files the settings name, and a system dictionary.

use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::path::PathBuf;
use std::sync::Arc;

use sudachi::analysis::stateless_tokenizer::StatelessTokenizer;
use sudachi::analysis::{Mode, Tokenize};
use sudachi::config::ConfigBuilder;
use sudachi::dic::dictionary::JapaneseDictionary;

/// An opened dictionary.
pub struct Sudachi {
    tokenizer: StatelessTokenizer<Arc<JapaneseDictionary>>,
}

/// A path from C, or why not.
unsafe fn path_of(path: *const c_char, what: &str) -> Result<PathBuf, String> {
    if path.is_null() {
        return Err(format!("no {what}"));
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let path = unsafe { CStr::from_ptr(path) };
    Ok(PathBuf::from(path.to_string_lossy().into_owned()))
}

fn open(settings: PathBuf, resources: PathBuf, system_dict: PathBuf) -> Result<Sudachi, String> {
    let config = ConfigBuilder::from_file(&settings)
        .map_err(|e| format!("{}: {e}", settings.display()))?
        .push_resolver_root(resources)
        .system_dict(system_dict)
        .build();
    let dictionary = JapaneseDictionary::from_cfg(&config).map_err(|e| e.to_string())?;
    Ok(Sudachi {
        tokenizer: StatelessTokenizer::new(Arc::new(dictionary)),
    })
}

/// Opens the dictionary; null on failure, with `*error` (if not null) a message that
/// `webtext_sudachi_free_error` frees.
///
/// # Safety
/// The three paths are NUL-terminated strings; `error` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn webtext_sudachi_open(
    settings: *const c_char,
    resources: *const c_char,
    system_dict: *const c_char,
    error: *mut *mut c_char,
) -> *mut Sudachi {
    // SAFETY: the caller's promise.
    let opened = unsafe {
        path_of(settings, "settings file").and_then(|s| {
            let r = path_of(resources, "resource folder")?;
            let d = path_of(system_dict, "system dictionary")?;
            open(s, r, d)
        })
    };
    match opened {
        Ok(sudachi) => Box::into_raw(Box::new(sudachi)),
        Err(message) => {
            if !error.is_null() {
                let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
                // SAFETY: the caller's promise.
                unsafe { *error = message.into_raw() };
            }
            std::ptr::null_mut()
        }
    }
}

/// Frees a message of `webtext_sudachi_open`.
///
/// # Safety
/// `error` is null or a message `webtext_sudachi_open` gave, freed once.
#[no_mangle]
pub unsafe extern "C" fn webtext_sudachi_free_error(error: *mut c_char) {
    if !error.is_null() {
        // SAFETY: the caller's promise.
        drop(unsafe { CString::from_raw(error) });
    }
}

/// Closes the dictionary.
///
/// # Safety
/// `sudachi` is null or a dictionary `webtext_sudachi_open` gave, closed once.
#[no_mangle]
pub unsafe extern "C" fn webtext_sudachi_close(sudachi: *mut Sudachi) {
    if !sudachi.is_null() {
        // SAFETY: the caller's promise.
        drop(unsafe { Box::from_raw(sudachi) });
    }
}

/// The interface's version: the SudachiPy release whose sudachi crate it is built on.
#[no_mangle]
pub extern "C" fn webtext_sudachi_version() -> *const c_char {
    c"0.7.0".as_ptr()
}

/// Calls `morpheme(user_data, begin, end)` for each morpheme of `text` (`length` bytes of UTF-8)
/// in split mode A, in order, with its byte range in `text`. 0, or -1 when the text is not UTF-8
/// or Sudachi fails. Any number of threads may call it at once on one dictionary.
///
/// # Safety
/// `sudachi` is an open dictionary; `text` points to `length` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn webtext_sudachi_tokenize(
    sudachi: *const Sudachi,
    text: *const u8,
    length: usize,
    user_data: *mut c_void,
    morpheme: extern "C" fn(*mut c_void, usize, usize),
) -> c_int {
    if sudachi.is_null() || (text.is_null() && length > 0) {
        return -1;
    }
    // SAFETY: the caller's promise.
    let (sudachi, bytes) = unsafe {
        (
            &*sudachi,
            if length == 0 {
                &[][..]
            } else {
                std::slice::from_raw_parts(text, length)
            },
        )
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return -1;
    };
    // A panic must not cross into webtext: the text counts as failed.
    let spans = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sudachi
            .tokenizer
            .tokenize(text, Mode::A, false)
            .map(|morphemes| {
                morphemes
                    .iter()
                    .map(|m| (m.begin(), m.end()))
                    .collect::<Vec<_>>()
            })
    }));
    match spans {
        Ok(Ok(spans)) => {
            for (begin, end) in spans {
                morpheme(user_data, begin, end);
            }
            0
        }
        _ => -1,
    }
}
