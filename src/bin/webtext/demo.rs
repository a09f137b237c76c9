//! `webtext` with no command: clean the bundled sample crawl and show what came out.

use datafusion_webtext::jobs::clean::{self, CleanArgs};
use datafusion_webtext::jobs::sample::{demo_folder, sample_crawl};
use datafusion_webtext::jobs::session::{context, register_input};
use datafusion_webtext::jobs::sql::run_statements;
use datafusion_webtext::jobs::{Format, Result, options};

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
    let args: CleanArgs = options("clean", [&crawl, &cleaned])?;
    let summary = clean::run(args).await?;
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
