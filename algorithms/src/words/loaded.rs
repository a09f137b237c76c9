//! Word tokenizers webtext loads at run time from libraries the user installs (Kiwi for Korean,
//! Sudachi for Japanese): each is loaded once per process, on first use, from what the
//! environment names, and a process without it gets a planning error that says how to install
//! it.

use std::ffi::{CStr, OsString, c_char};
use std::sync::OnceLock;

use libloading::Library;

/// The process's tokenizer in `cell`, loaded on first use, or why it is not there: a phrase
/// completing "'kor_Hang' is not …", for `tokenizer` (datatrove's name) and `needs` (what it
/// runs).
pub(super) fn once<T>(
    cell: &'static OnceLock<Result<T, String>>,
    load: fn() -> Result<T, String>,
    tokenizer: &str,
    needs: &str,
) -> Result<&'static T, &'static str> {
    let loaded = cell.get_or_init(|| {
        load().map_err(|why| {
            format!(
                "a language this process can tokenize: datatrove's {tokenizer} needs {needs} \
                 ({why}; the book's chapter on languages says how to install it)"
            )
        })
    });
    match loaded {
        Ok(tokenizer) => Ok(tokenizer),
        Err(why) => Err(why.as_str()),
    }
}

/// The value of the environment variable `name`, or that it is not set.
pub(super) fn variable(name: &str) -> Result<OsString, String> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("{name} is not set"))
}

/// A symbol of the library as a function pointer of type `T`.
///
/// # Safety
/// `T` must be the function's type as the library declares it.
pub(crate) unsafe fn symbol<T: Copy>(library: &Library, name: &str) -> Result<T, String> {
    // SAFETY: the caller gives the declared type; the library outlives every use (the tokenizer
    // holds it).
    unsafe { library.get::<T>(name.as_bytes()) }
        .map(|f| *f)
        .map_err(|e| format!("{name}: {e}"))
}

/// A C string of the library as text (empty for null).
///
/// # Safety
/// `text` is null or a NUL-terminated string.
pub(crate) unsafe fn text_of(text: *const c_char) -> String {
    if text.is_null() {
        return String::new();
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

/// For tests: the tokenizer when the environment provides it; without it the tests pass
/// vacuously, unless `require` (a `WEBTEXT_REQUIRE_*` variable, as CI sets once it has installed
/// the tokenizer) is set.
#[cfg(test)]
pub(super) fn installed<T>(
    loaded: Result<&'static T, &'static str>,
    require: &str,
) -> Option<&'static T> {
    match loaded {
        Ok(tokenizer) => Some(tokenizer),
        Err(why) if std::env::var_os(require).is_some() => {
            panic!("{require} is set, but '{why}'")
        }
        Err(_) => None,
    }
}

/// For tests: a tokenizer survives hostile texts (its words are slices of them), and four threads
/// at once get the words one thread gets (DataFusion's threads share the one instance).
#[cfg(test)]
pub(super) fn check_hostile_texts_on_threads<'t>(
    texts: &[&'t str],
    words: impl Fn(&'t str) -> Vec<&'t str> + Sync,
) {
    let alone: Vec<Vec<&str>> = texts.iter().map(|t| words(t)).collect();
    for (text, words) in texts.iter().zip(&alone) {
        for word in words {
            assert!(text.contains(word), "{word:?} of {text:?}");
        }
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| texts.iter().map(|t| words(t)).collect::<Vec<_>>()))
            .collect();
        for handle in handles {
            assert_eq!(handle.join().unwrap(), alone);
        }
    });
}
