//! The other half of `eval/parity/libxml2_tree.py`, which compares the trees
//! `Page::parse_as_libxml2` builds with lxml's (libxml2 2.14.6):
//!
//!     libxml2_tree_dump --docs FILE       the tree of each document of FILE (UTF-8, separated
//!                                         by NUL bytes), a line each: `index<TAB>tree`
//!     libxml2_tree_dump --decode SHARED   the evaluation pages decoded as jusText decodes them
//!
//! A tree lists elements as `<name>...</name>`, comments as `<!>` and text as a JSON string.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use datafusion_webtext::html::dom::DOCUMENT;
use datafusion_webtext::html::{Limits, NodeId, NodeKind, Page};

#[path = "eval_pages.rs"]
mod eval_pages;

use eval_pages::{for_each_decoded_page, pages_dir};

/// `json.dumps(text, ensure_ascii=False)`.
fn json_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn dump(page: &Page, node: NodeId, out: &mut String) {
    for child in page.children(node) {
        match &page.node(child).kind {
            NodeKind::Element(e) => {
                let _ = write!(out, "<{}>", &*e.name);
                dump(page, child, out);
                let _ = write!(out, "</{}>", &*e.name);
            }
            NodeKind::Text(t) => json_string(t, out),
            NodeKind::Comment => out.push_str("<!>"),
            NodeKind::Document | NodeKind::Other => {}
        }
    }
}

fn tree_line(page: &Page) -> String {
    let mut line = String::new();
    dump(page, DOCUMENT, &mut line);
    line
}

fn dump_documents(file: &str) -> ExitCode {
    let Ok(text) = std::fs::read_to_string(file) else {
        eprintln!("cannot read {file}");
        return ExitCode::from(2);
    };
    for (i, doc) in text.split('\0').enumerate() {
        let page = Page::parse_as_libxml2(doc, &Limits::default());
        println!("{i}\t{}", tree_line(&page));
    }
    ExitCode::SUCCESS
}

/// Writes every evaluation page, decoded as jusText decodes it, to stdout as `set/file<TAB>text`
/// records separated by NUL bytes (a NUL in a page becomes U+FFFD first, as both parsers do).
fn decode_pages(shared: &str, pages: Option<&str>) -> ExitCode {
    let pages = match pages_dir(Path::new(shared), pages) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let walked = for_each_decoded_page(&pages, |set, file, text| {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        let text = text.replace('\0', "\u{FFFD}");
        let record = format!("{set}/{}\t{text}\0", name.unwrap_or_default());
        out.write_all(record.as_bytes())
            .map_err(|e| format!("writing: {e}"))
    });
    match walked {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    match (arg(1), arg(2)) {
        (Some("--docs"), Some(file)) => dump_documents(file),
        (Some("--decode"), Some(shared)) => decode_pages(shared, arg(3)),
        _ => {
            eprintln!("usage: libxml2_tree_dump --docs FILE | --decode SHARED [PAGES_DIR]");
            ExitCode::from(2)
        }
    }
}
