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

/// The pages of each set in [`SETS`] (3,013 in the six evaluation sets): a checker compares
/// every one, so that a missing or truncated set cannot pass for agreement.
pub const PAGES: &[(&str, usize)] = &[
    ("cleaneval", 739),
    ("cleanportaleval", 71),
    ("dragnet", 1_381),
    ("readability", 130),
    ("scrapinghub", 181),
    ("wcxb-test", 511),
    ("edge", 31),
];

/// An error naming every set whose number of pages compared is not its number of pages.
#[allow(dead_code)]
pub fn check_page_counts<'a>(
    compared: impl IntoIterator<Item = (&'a str, usize)>,
) -> Result<(), String> {
    let wrong: Vec<String> = compared
        .into_iter()
        .filter_map(|(set, n)| {
            let expected = PAGES.iter().find(|(s, _)| *s == set).map(|&(_, n)| n);
            (expected != Some(n)).then(|| match expected {
                Some(expected) => format!("{set}: {n} pages compared of {expected}"),
                None => format!("{set}: not an evaluation set"),
            })
        })
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("not every page was compared: {}", wrong.join("; ")))
    }
}

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
/// jusText decodes it; fails on a page that cannot be read or decoded, and when a set does not
/// have all its pages ([`PAGES`]). Stops at `f`'s first error. (Not every checker including this
/// file uses it.)
#[allow(dead_code)]
pub fn for_each_decoded_page(
    pages: &Path,
    mut f: impl FnMut(&str, &Path, &str) -> Result<(), String>,
) -> Result<(), String> {
    let mut counts = Vec::new();
    for set in SETS {
        let dir = std::fs::read_dir(pages.join(set).join("html"))
            .map_err(|e| format!("{set}: no pages ({e})"))?;
        let mut files: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in &files {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let text = datafusion_webtext::justext::decode_for_justext(&bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            f(set, file, &text)?;
        }
        counts.push((*set, files.len()));
    }
    check_page_counts(counts)
}
