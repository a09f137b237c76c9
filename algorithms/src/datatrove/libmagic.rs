//! libmagic, loaded at run time from the system's library as python-magic loads it, and asked
//! for a payload's MIME type as datatrove's WARC reader asks (`magic.from_buffer(payload,
//! mime=True)`: `MAGIC_MIME_TYPE`, the default database, `MAGIC_PARAM_NAME_MAX` 64 as
//! python-magic sets it). A process without libmagic gets an error saying so.

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use libloading::Library;

use crate::words::loaded::{symbol, text_of};

const MAGIC_MIME_TYPE: c_int = 0x10;
const MAGIC_PARAM_NAME_MAX: c_int = 1;
/// python-magic's `setparam(MAGIC_PARAM_NAME_MAX, 64)`.
const NAME_MAX: usize = 64;
/// The names the library goes by (Linux, then macOS).
const LIBRARY_NAMES: [&str; 4] = [
    "libmagic.so.1",
    "libmagic.so",
    "libmagic.1.dylib",
    "libmagic.dylib",
];

struct Libmagic {
    open: unsafe extern "C" fn(c_int) -> *mut c_void,
    close: unsafe extern "C" fn(*mut c_void),
    load: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    buffer: unsafe extern "C" fn(*mut c_void, *const c_void, usize) -> *const c_char,
    error: unsafe extern "C" fn(*mut c_void) -> *const c_char,
    setparam: unsafe extern "C" fn(*mut c_void, c_int, *const c_void) -> c_int,
    _library: Library,
}

fn libmagic() -> Result<&'static Libmagic, String> {
    static LIBMAGIC: OnceLock<Result<Libmagic, String>> = OnceLock::new();
    LIBMAGIC
        .get_or_init(load_library)
        .as_ref()
        .map_err(Clone::clone)
}

fn load_library() -> Result<Libmagic, String> {
    let library = LIBRARY_NAMES
        .iter()
        // SAFETY: loading libmagic runs no initialisation with requirements on the caller.
        .find_map(|&name| unsafe { Library::new(name) }.ok())
        .ok_or_else(|| {
            format!(
                "libmagic is not installed (none of {})",
                LIBRARY_NAMES.join(", ")
            )
        })?;
    // SAFETY: the types are the functions' as magic.h declares them.
    unsafe {
        Ok(Libmagic {
            open: symbol(&library, "magic_open")?,
            close: symbol(&library, "magic_close")?,
            load: symbol(&library, "magic_load")?,
            buffer: symbol(&library, "magic_buffer")?,
            error: symbol(&library, "magic_error")?,
            setparam: symbol(&library, "magic_setparam")?,
            _library: library,
        })
    }
}

/// One libmagic handle ("cookie"), used by one thread at a time as libmagic requires.
struct Cookie {
    libmagic: &'static Libmagic,
    handle: *mut c_void,
}

impl Cookie {
    fn open() -> Result<Cookie, String> {
        let libmagic = libmagic()?;
        // SAFETY: magic_open takes flags and returns a handle or null.
        let handle = unsafe { (libmagic.open)(MAGIC_MIME_TYPE) };
        if handle.is_null() {
            return Err("libmagic: magic_open failed".to_owned());
        }
        let cookie = Cookie { libmagic, handle };
        let name_max = NAME_MAX;
        // SAFETY: a live handle; null loads the default database; the parameter is a size_t.
        unsafe {
            if (libmagic.load)(handle, std::ptr::null()) != 0 {
                return Err(format!("libmagic's default database: {}", cookie.error()));
            }
            (libmagic.setparam)(handle, MAGIC_PARAM_NAME_MAX, (&raw const name_max).cast());
        }
        Ok(cookie)
    }

    fn error(&self) -> String {
        // SAFETY: a live handle; the message is NUL-terminated or null.
        unsafe { text_of((self.libmagic.error)(self.handle)) }
    }

    fn mime(&self, payload: &[u8]) -> Result<String, String> {
        // SAFETY: a live handle and a buffer of the length given; the answer, NUL-terminated or
        // null on an error, lives until the handle's next call, and is copied before it.
        let answer =
            unsafe { (self.libmagic.buffer)(self.handle, payload.as_ptr().cast(), payload.len()) };
        if answer.is_null() {
            return Err(format!("libmagic: {}", self.error()));
        }
        // SAFETY: as above.
        Ok(unsafe { text_of(answer) })
    }
}

impl Drop for Cookie {
    fn drop(&mut self) {
        // SAFETY: the handle is live and not used after this.
        unsafe { (self.libmagic.close)(self.handle) }
    }
}

/// The MIME type libmagic gives `payload` (`text/html`, `text/plain`, `application/x-empty`,
/// ...), or why there is none (no libmagic in this process, or libmagic's error). One handle per
/// thread.
pub fn libmagic_mime(payload: &[u8]) -> Result<String, String> {
    thread_local! {
        static COOKIE: Result<Cookie, String> = Cookie::open();
    }
    COOKIE.with(|cookie| match cookie {
        Ok(cookie) => cookie.mime(payload),
        Err(why) => Err(why.clone()),
    })
}

/// Whether this process can load libmagic.
pub fn libmagic_available() -> bool {
    libmagic().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values: python-magic 0.4.27 over libmagic 5.44 (Debian bookworm). Without
    /// libmagic the test passes vacuously, unless WEBTEXT_REQUIRE_LIBMAGIC is set (as CI does).
    #[test]
    fn answers_as_python_magic() {
        if !libmagic_available() {
            assert!(
                std::env::var_os("WEBTEXT_REQUIRE_LIBMAGIC").is_none(),
                "libmagic is required"
            );
            return;
        }
        assert_eq!(
            libmagic_mime(b"<!DOCTYPE html><html><body>x</body></html>").as_deref(),
            Ok("text/html")
        );
        assert_eq!(libmagic_mime(b"").as_deref(), Ok("application/x-empty"));
        assert_eq!(libmagic_mime(b"plain words").as_deref(), Ok("text/plain"));
    }
}
