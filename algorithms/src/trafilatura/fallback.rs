//! trafilatura's jusText fallback (`external.try_justext`, `justext_rescue`): jusText's
//! paragraph maker run over the tree as `lxml.sax.saxify` presents it (no jusText
//! preprocessing), classified with the stopwords of all languages and trafilatura's thresholds;
//! each paragraph jusText keeps becomes a `p`.

use super::tag::Tag;
use super::tree::{Id, NIL, Res, Tree};
use super::xpaths;
use crate::justext::segment::ParagraphMaker;
use crate::justext::{Params, classify};
use crate::stoplists::Stoplist;

/// `basic_cleaning`: deletes `BASIC_CLEAN_XPATH`'s matches (tails kept).
pub fn basic_cleaning(t: &mut Tree, root: Id) -> Res<()> {
    for id in xpaths::select(t, root, xpaths::basic_clean) {
        t.delete_element(id, true)?;
    }
    Ok(())
}

/// The parameters of trafilatura's call: `classify_paragraphs(paragraphs, stoplist, 50, 150, 0.1,
/// 0.2, 0.25, True)` and `revise_paragraph_classification(paragraphs, 150)`.
fn params() -> Params {
    Params {
        length_low: 50,
        length_high: 150,
        stopwords_low: 0.1,
        stopwords_high: 0.2,
        max_link_density: 0.25,
        max_heading_distance: 150,
        no_headings: true,
        ..Params::default()
    }
}

/// `ParagraphMaker.make_paragraphs(root)`: start and end events for every element, the text
/// and tails as characters (the root's tail too, as `saxify` emits it).
fn segments(t: &Tree, root: Id) -> Vec<crate::justext::Segment> {
    let mut maker = ParagraphMaker::begin();
    maker.start(t.tag(root).as_str());
    if let Some(text) = t.text(root).filter(|s| !s.is_empty()) {
        maker.characters(text);
    }
    let mut cur = t.first_child(root);
    if cur != NIL {
        'walk: loop {
            maker.start(t.tag(cur).as_str());
            if let Some(text) = t.text(cur).filter(|s| !s.is_empty()) {
                maker.characters(text);
            }
            let first = t.first_child(cur);
            if first != NIL {
                cur = first;
                continue;
            }
            loop {
                maker.end(t.tag(cur).as_str());
                if let Some(tail) = t.tail(cur).filter(|s| !s.is_empty()) {
                    maker.characters(tail);
                }
                let next = t.next(cur);
                if next != NIL {
                    cur = next;
                    continue 'walk;
                }
                cur = t.parent(cur);
                if cur == root {
                    break 'walk;
                }
            }
        }
    }
    maker.end(t.tag(root).as_str());
    if let Some(tail) = t.tail(root).filter(|s| !s.is_empty()) {
        maker.characters(tail);
    }
    maker.finish()
}

/// `justext_rescue`: jusText's kept paragraphs of the tree under `root` (which it cleans in
/// place first), as a `body` of `p`s, and their text.
pub fn justext_rescue(t: &mut Tree, root: Id) -> Res<(Id, String)> {
    basic_cleaning(t, root)?;
    let paragraphs = classify(segments(t, root), Stoplist::all_languages(), &params());
    let body = t.new_element(Tag::Body);
    for paragraph in paragraphs.into_iter().filter(|p| p.is_good()) {
        let p = t.new_element(Tag::P);
        t.append(body, p);
        t.set_text(p, Some(paragraph.text))?;
    }
    let text = t.trimmed_join(body, true);
    Ok((body, text))
}
