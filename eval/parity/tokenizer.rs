//! The crate's tokenizer against html5ever's on every evaluation page: both feed the same tree
//! builder and sink, so the trees must be identical, node for node.
//!
//!     cargo run --release --example tokenizer_differential -- ../shared [PAGES_DIR]
//!
//! Each page is decoded as jusText decodes it (the parse every page function makes). Prints the
//! pages whose trees differ with their first differing node; exits 1 if any does.

use std::path::Path;
use std::process::ExitCode;

use datafusion_webtext::html::dom::Node;
use datafusion_webtext::html::{Limits, NodeKind, Page};

#[path = "eval_pages.rs"]
mod eval_pages;

use eval_pages::{for_each_decoded_page, pages_dir};

/// A node as text, its text compared by content (a tendril's Debug also shows its storage).
fn describe(node: &Node) -> String {
    let kind = match &node.kind {
        NodeKind::Text(text) => format!("Text({:?})", &**text),
        other => format!("{other:?}"),
    };
    format!(
        "parent {} prev {} next {} first {} last {} {kind}",
        node.parent, node.prev_sibling, node.next_sibling, node.first_child, node.last_child
    )
}

/// The first node where two trees differ, as a short description.
fn first_difference(ours: &Page, reference: &Page) -> Option<String> {
    if ours.explicit_head_tag != reference.explicit_head_tag {
        return Some("explicit_head_tag".into());
    }
    for (i, (a, b)) in ours.nodes.iter().zip(&reference.nodes).enumerate() {
        let (a, b) = (describe(a), describe(b));
        if a != b {
            let cut = |s: &str| s.chars().take(300).collect::<String>();
            return Some(format!(
                "node {i}:\n  ours: {}\n  html5ever: {}",
                cut(&a),
                cut(&b)
            ));
        }
    }
    (ours.nodes.len() != reference.nodes.len()).then(|| {
        format!(
            "{} nodes, html5ever {}",
            ours.nodes.len(),
            reference.nodes.len()
        )
    })
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(shared) = args.get(1) else {
        eprintln!("usage: tokenizer_differential SHARED [PAGES_DIR]");
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
    let (mut compared, mut differ) = (0usize, 0usize);
    let walked = for_each_decoded_page(&pages, |_, file, text| {
        compared += 1;
        let ours = Page::parse_with(text, &limits);
        let reference = Page::parse_with_html5ever_tokenizer(text, &limits);
        if let Some(difference) = first_difference(&ours, &reference) {
            differ += 1;
            println!("{}: {difference}", file.display());
        }
        Ok(())
    });
    if let Err(e) = walked {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    println!("{compared} pages compared, {differ} with a different tree");
    if differ == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
