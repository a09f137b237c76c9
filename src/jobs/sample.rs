//! The sample crawl bundled with the crate (pages of the scrapinghub article benchmark): what the
//! demo cleans and the report describes when given no input.

use crate::jobs::{JobError, Result};

/// The sample crawl, built into the binary so the demo runs anywhere (see examples/data/README.md).
const SAMPLE_CRAWL: &[u8] = include_bytes!("../../examples/data/sample_crawl.parquet");

/// The bundled sample crawl written to `webtext-demo-UID/sample_crawl.parquet` of the temporary
/// directory: one folder per user, overwritten by each run, so demos do not pile up there.
pub fn sample_crawl() -> Result<std::path::PathBuf> {
    let dir = demo_folder()?;
    let crawl = dir.join("sample_crawl.parquet");
    let (mut file, temporary) = crate::jobs::create_temporary_beside(&crawl)?;
    let written = std::io::Write::write_all(&mut file, SAMPLE_CRAWL)
        .map_err(JobError::io(format!("cannot write {}", crawl.display())))
        .and_then(|()| crate::jobs::commit_file(file, &temporary, &crawl));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map(|()| crawl)
}

/// The user's demo folder, private (mode 0700): made if missing; used again only if it is a
/// folder of this user that nobody else can write in (not a link another user planted).
pub fn demo_folder() -> Result<std::path::PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    // This process's user: the owner of a file it creates.
    let uid = tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map_err(JobError::io("cannot create a temporary file"))?
        .uid();
    let dir = std::env::temp_dir().join(format!("webtext-demo-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => return Ok(dir),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(JobError::io(format!("cannot create {}", dir.display()))(e)),
    }
    let found = std::fs::symlink_metadata(&dir)
        .map_err(JobError::io(format!("cannot read {}", dir.display())))?;
    if found.is_dir() && found.uid() == uid && found.permissions().mode() & 0o077 == 0 {
        Ok(dir)
    } else {
        Err(JobError::Usage(format!(
            "{} is not a private folder of this user (a link, or others can write in it): remove it",
            dir.display()
        )))
    }
}
