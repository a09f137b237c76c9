//! Our trafilatura over pages given on standard input, for a comparison with Python's on pages
//! of any origin (eval/parity/trafilatura_differential.py): the pages are NUL-separated text;
//! for each one the output is its text, or U+0001 alone where extract() gives None, also
//! NUL-separated. The configuration is the oracle's name of it (as in parity_trafilatura).
//!
//!     trafilatura_run CONFIG < PAGES > OUTPUTS

use std::io::{Read, Write};

use datafusion_webtext::trafilatura::{DedupCache, Options, OutputFormat, extract};

fn options(config: &str) -> Option<Options> {
    Some(match config {
        "fineweb" => Options {
            deduplicate: false,
            ..Options::fineweb()
        },
        "fineweb_dedup" => Options::fineweb(),
        "default" => Options::default(),
        "recall" => Options {
            favor_recall: true,
            ..Options::default()
        },
        "fast" => Options {
            fast: true,
            ..Options::default()
        },
        "markdown" => Options {
            output_format: OutputFormat::Markdown,
            include_formatting: Some(true),
            ..Options::default()
        },
        "links" => Options {
            include_links: true,
            output_format: OutputFormat::Markdown,
            ..Options::default()
        },
        "no_tables" => Options {
            include_tables: false,
            ..Options::default()
        },
        _ => return None,
    })
}

fn main() -> std::process::ExitCode {
    let config = std::env::args().nth(1).unwrap_or_default();
    let Some(opts) = options(&config) else {
        eprintln!(
            "usage: trafilatura_run fineweb|fineweb_dedup|default|recall|fast|markdown|links|no_tables < PAGES"
        );
        return std::process::ExitCode::from(2);
    };
    let mut input = String::new();
    if std::io::stdin().read_to_string(&mut input).is_err() {
        eprintln!("trafilatura_run: the pages are not UTF-8");
        return std::process::ExitCode::from(2);
    }
    let mut cache = DedupCache::default();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (i, page) in input.split('\0').enumerate() {
        if i > 0 {
            let _ = out.write_all(b"\0");
        }
        let text = extract(page, &opts, Some(&mut cache));
        let _ = out.write_all(text.as_deref().unwrap_or("\u{1}").as_bytes());
    }
    std::process::ExitCode::SUCCESS
}
