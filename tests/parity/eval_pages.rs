//! The shared evaluation pages, for the parity and evaluation examples (included with `#[path]`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The six evaluation sets, then `edge` (hand-made pages, each one quirk of jusText 3.0.2).
pub const SETS: &[&str] = &[
    "cleaneval",
    "cleanportaleval",
    "dragnet",
    "readability",
    "scrapinghub",
    "wcxb-test",
    "edge",
];

/// The folder of unpacked pages (`<set>/html/<id>.html`): `given`, else `$TMPDIR/webtext-eval`,
/// where `SHARED/eval/unpack.sh` unpacks them when they are not there yet.
pub fn pages_dir(shared: &Path, given: Option<&str>) -> Result<PathBuf, String> {
    if let Some(dir) = given {
        return Ok(PathBuf::from(dir));
    }
    let dest = std::env::temp_dir().join("webtext-eval");
    if SETS.iter().all(|set| dest.join(set).join("html").is_dir()) {
        return Ok(dest);
    }
    let status = Command::new("bash")
        .arg(shared.join("eval/unpack.sh"))
        .arg(&dest)
        .status()
        .map_err(|e| format!("running unpack.sh: {e}"))?;
    if !status.success() {
        return Err("unpack.sh failed".into());
    }
    Ok(dest)
}

/// Calls `f(set, file, text)` for every page of [`SETS`] under `pages`, in order, decoded as
/// jusText decodes it; pages that cannot be read or decoded are skipped. Stops at `f`'s first
/// error. (Not every checker including this file uses it.)
#[allow(dead_code)]
pub fn for_each_decoded_page(
    pages: &Path,
    mut f: impl FnMut(&str, &Path, &str) -> Result<(), String>,
) -> Result<(), String> {
    for set in SETS {
        let dir = std::fs::read_dir(pages.join(set).join("html"))
            .map_err(|e| format!("{set}: no pages ({e})"))?;
        let mut files: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files {
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            let Ok(text) = datafusion_webtext::justext::decode_for_justext(&bytes) else {
                continue;
            };
            f(set, &file, &text)?;
        }
    }
    Ok(())
}
