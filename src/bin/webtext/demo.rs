//! `webtext` with no command: clean the bundled sample crawl and show what came out.

use crate::clean::{self, CleanArgs};
use crate::session::{context, register_input};
use crate::sql::run_statements;
use crate::{CliError, Format, Result};

/// The sample crawl, built into the binary so the demo runs anywhere (see examples/data/README.md).
const SAMPLE_CRAWL: &[u8] = include_bytes!("../../../examples/data/sample_crawl.parquet");

/// The bundled sample crawl written to `webtext-demo-UID/sample_crawl.parquet` of the temporary
/// directory: one folder per user, overwritten by each run, so demos do not pile up there.
pub(crate) fn sample_crawl() -> Result<std::path::PathBuf> {
    let dir = demo_folder()?;
    let crawl = dir.join("sample_crawl.parquet");
    let (mut file, temporary) = crate::create_temporary_beside(&crawl)?;
    let written = std::io::Write::write_all(&mut file, SAMPLE_CRAWL)
        .map_err(CliError::io(format!("cannot write {}", crawl.display())))
        .and_then(|()| crate::commit_file(file, &temporary, &crawl));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written.map(|()| crawl)
}

/// The user's demo folder, private (mode 0700): made if missing; used again only if it is a
/// folder of this user that nobody else can write in (not a link another user planted).
fn demo_folder() -> Result<std::path::PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    // This process's user: the owner of a file it creates.
    let uid = tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map_err(CliError::io("cannot create a temporary file"))?
        .uid();
    let dir = std::env::temp_dir().join(format!("webtext-demo-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => return Ok(dir),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(CliError::io(format!("cannot create {}", dir.display()))(e)),
    }
    let found = std::fs::symlink_metadata(&dir)
        .map_err(CliError::io(format!("cannot read {}", dir.display())))?;
    if found.is_dir() && found.uid() == uid && found.permissions().mode() & 0o077 == 0 {
        Ok(dir)
    } else {
        Err(CliError::Usage(format!(
            "{} is not a private folder of this user (a link, or others can write in it): remove it",
            dir.display()
        )))
    }
}

pub(crate) async fn run() -> Result<()> {
    let crawl = sample_crawl()?;
    let cleaned = demo_folder()?.join("sample_clean.parquet");

    println!(
        "webtext demo: cleaning the bundled sample crawl (pages of the scrapinghub article benchmark)\n\
         with jusText, English stoplist: the same as\n\n    \
         webtext clean {} {}\n",
        crawl.display(),
        cleaned.display()
    );
    let summary = clean::run(CleanArgs::new(
        crawl.display().to_string(),
        cleaned.display().to_string(),
    ))
    .await?;
    println!(
        "\ncleaned {} pages ({:.1} MB of html) in {:.2} s: {:.0} pages/s with {} cleaning thread(s).\n",
        summary.pages,
        summary.html_bytes as f64 / 1e6,
        summary.seconds,
        summary.pages as f64 / summary.seconds.max(1e-9),
        summary.partitions
    );

    let ctx = context(None, Some(256), &Default::default())?;
    register_input(&ctx, "cleaned", &cleaned.display().to_string()).await?;
    let query = "SELECT count(*) AS pages, \
                        round(avg(kept_share), 3) AS mean_kept_share, \
                        sum(character_length(text)) AS kept_chars, \
                        sum(CASE WHEN text = '' THEN 1 ELSE 0 END) AS pages_without_text \
                 FROM cleaned;\n\
                 SELECT regexp_replace(url, '^https?://(www\\.)?([^/]+).*$', '\\2') AS site, \
                        round(kept_share, 2) AS kept_share, \
                        substr(regexp_replace(text, '\\s+', ' ', 'g'), 1, 70) AS text_starts \
                 FROM cleaned WHERE kept_share > 0 ORDER BY url LIMIT 8;";
    for statement in query.split_inclusive(';') {
        println!("{}\n", statement.trim());
        run_statements(&ctx, statement, Format::Table, None).await?;
        println!();
    }
    println!(
        "The cleaned table is {}.\n\
         Next: `webtext functions` lists the SQL functions; `webtext sql --table crawl={} \
         \"SELECT url, justext(html) FROM crawl LIMIT 3\"` runs your own query.",
        cleaned.display(),
        crawl.display()
    );
    Ok(())
}
