//! Dumps the tree `Page::parse_as_libxml2` builds for every evaluation page, one line per page,
//! in the format of `tests/parity/libxml2_tree.py`, which dumps lxml's tree (libxml2 2.14.6) for
//! the same pages and compares the two:
//!
//!     cargo run --release --example libxml2_tree_dump -- ../shared > /tmp/ours.txt
//!     python tests/parity/libxml2_tree.py ../shared /tmp/ours.txt
//!
//! Each page is decoded as jusText decodes it. A line is `set/file<TAB>tree`, where the tree lists
//! elements as `<name>...</name>`, comments as `<!>` and text as a JSON string.
//!
//! `libxml2_tree_dump --docs FILE` dumps instead the trees of the documents of FILE (UTF-8,
//! separated by NUL bytes), a line each as `index<TAB>tree`: `libxml2_tree.py --random N` uses it
//! to compare random tag soups.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use datafusion_webtext::html::dom::DOCUMENT;
use datafusion_webtext::html::{Limits, NodeId, NodeKind, Page};
use datafusion_webtext::justext::decode_for_justext;

#[path = "eval_pages.rs"]
mod eval_pages;

use eval_pages::{SETS, pages_dir};

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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--docs") {
        return dump_documents(args.get(2).map_or("", String::as_str));
    }
    let Some(shared) = args.get(1) else {
        eprintln!("usage: libxml2_tree_dump SHARED [PAGES_DIR]");
        return ExitCode::from(2);
    };
    let pages = match pages_dir(Path::new(shared), args.get(2).map(String::as_str)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let limits = Limits::default();
    for set in SETS {
        let Ok(dir) = std::fs::read_dir(pages.join(set).join("html")) else {
            eprintln!("{set}: no pages");
            return ExitCode::from(2);
        };
        let mut files: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files {
            let Ok(bytes) = std::fs::read(&file) else {
                continue;
            };
            let Ok(text) = decode_for_justext(&bytes) else {
                continue;
            };
            let line = tree_line(&Page::parse_as_libxml2(&text, &limits));
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
            println!("{set}/{}\t{line}", name.unwrap_or_default());
        }
    }
    ExitCode::SUCCESS
}
