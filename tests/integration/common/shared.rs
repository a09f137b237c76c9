//! Where the evaluation data is.

use std::path::PathBuf;

/// The evaluation data (real pages with gold text, third-party WARC files, the reference tools'
/// outputs), which is not part of the repository: the folder `WEBTEXT_SHARED` names (nothing is
/// assumed about the repository's surroundings). `None` when there is none: the caller returns, after
/// one line on stderr saying how to run it. With `WEBTEXT_REQUIRE_SHARED=1` (CI) a missing
/// folder fails the test instead.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("WEBTEXT_SHARED").map(PathBuf::from);
    if let Some(dir) = dir.as_ref().filter(|d| d.join("eval").is_dir()) {
        return Some(dir.clone());
    }
    let message = match dir {
        Some(dir) => format!(
            "{test}: skipped, no evaluation data at {} (WEBTEXT_SHARED names no folder with eval/)",
            dir.display()
        ),
        None => format!(
            "{test}: skipped, no evaluation data (set WEBTEXT_SHARED to its folder to run it)"
        ),
    };
    assert!(
        std::env::var_os("WEBTEXT_REQUIRE_SHARED").is_none(),
        "{message}"
    );
    // Written to stderr itself, not through eprintln!, which the test harness captures and
    // shows only for a failing test.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
    None
}
