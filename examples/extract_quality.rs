//! Runs the extractor of `extract_content` (`datafusion_webtext::extract`) over the six
//! shared evaluation sets and writes `OUT/<set>.jsonl` ({"id", "text"} per page) for
//! `shared/tools/score.py`; `eval/quality/extract_quality.sh` scores them.
//!
//! Usage: cargo run --release --example extract_quality -- SHARED_DIR OUT_DIR [--pages DIR]
//!        [--mass ALPHA (negative: Readability's choice alone)] [--keep-dense SHARE]
//!        [--class-weight W] [--drop-names true|false] [--set KEY=VALUE ...] [--check-markdown]
//!
//! `--set` sets any option of `extract_content` (`Params::set`), after the flags above.
//!
//! `--check-markdown` also writes each page as Markdown, reads it back with pulldown-cmark and
//! fails unless it holds the words of the text, on every page (the fuzz target's property).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[path = "../eval/parity/eval_pages.rs"]
mod eval_pages;

use datafusion_webtext::extract::{Format, Params, extract_text};
use datafusion_webtext::html::dom::Page;
use datafusion_webtext::options::RowKeys;

/// The words of Markdown as a CommonMark reader sees its text: blocks end words, the ends of
/// a link or an emphasis do not.
fn markdown_words(markdown: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut text = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::Start(Tag::Link { .. } | Tag::Strong | Tag::Emphasis)
            | Event::End(TagEnd::Link | TagEnd::Strong | TagEnd::Emphasis) => {}
            _ => text.push(' '),
        }
    }
    text.split_whitespace().map(str::to_owned).collect()
}

fn run(
    shared: &Path,
    out: &Path,
    pages: Option<&str>,
    params: Params,
    check_markdown: bool,
) -> Result<(), String> {
    let mut other_words: Vec<String> = Vec::new();
    let pages = eval_pages::pages_dir(shared, pages)?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut files: std::collections::HashMap<String, std::fs::File> = Default::default();
    let start = std::time::Instant::now();
    let mut n = 0usize;
    eval_pages::for_each_decoded_page(&pages, |set, file, html| {
        if set == "edge" {
            return Ok(());
        }
        let id = file
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: no id", file.display()))?;
        let page = Page::parse(html);
        let text = extract_text(&page, &params);
        if check_markdown {
            let markdown = extract_text(
                &page,
                &Params {
                    format: Format::Markdown,
                    ..params.clone()
                },
            );
            if markdown_words(&markdown) != text.split_whitespace().collect::<Vec<_>>() {
                other_words.push(format!("{set}/{id}"));
            }
        }
        let sink = match files.entry(set.to_owned()) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let path = out.join(format!("{set}.jsonl"));
                e.insert(
                    std::fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?,
                )
            }
        };
        let line = serde_json::json!({"id": id, "text": text});
        writeln!(sink, "{line}").map_err(|e| e.to_string())?;
        n += 1;
        Ok(())
    })?;
    eprintln!("{n} pages in {:.2} s", start.elapsed().as_secs_f64());
    if check_markdown {
        eprintln!(
            "Markdown read back with other words than the text: {} of {n} pages",
            other_words.len()
        );
        if !other_words.is_empty() {
            return Err(format!("Markdown differs on {}", other_words.join(", ")));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(shared), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: extract_quality SHARED_DIR OUT_DIR [--pages DIR]");
        return ExitCode::from(2);
    };
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    };
    let number = |flag: &str| value(flag).and_then(|v| v.parse::<f64>().ok());
    let defaults = Params::default();
    let mut params = Params {
        mass_alpha: number("--mass")
            .or(defaults.mass_alpha)
            .filter(|a| *a >= 0.0),
        keep_dense_share: number("--keep-dense").or(defaults.keep_dense_share),
        class_weight: number("--class-weight").unwrap_or(defaults.class_weight),
        drop_boilerplate_names: value("--drop-names")
            .map_or(defaults.drop_boilerplate_names, |v| v == "true"),
        ..defaults
    };
    for (flag, setting) in args.iter().zip(args.iter().skip(1)) {
        if flag != "--set" {
            continue;
        }
        let keys = [datafusion_webtext::extract::EXTRACT_KEYS];
        match datafusion_webtext::options::parse(setting, params, &keys, RowKeys::Page) {
            Ok((set, _)) => params = set,
            Err(e) => {
                eprintln!("extract_quality: --set {setting}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    match run(
        &PathBuf::from(shared),
        &PathBuf::from(out),
        value("--pages"),
        params,
        args.iter().any(|a| a == "--check-markdown"),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("extract_quality: {e}");
            ExitCode::FAILURE
        }
    }
}
