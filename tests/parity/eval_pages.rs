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
