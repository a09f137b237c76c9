//! trafilatura's fork of readability-lxml (`readability_lxml.Document.summary`) and what
//! `external.try_readability` does with its result: the summary is serialised as XML and parsed
//! again as HTML, so the tree trafilatura compares is libxml2's reading of that text.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::load::parse_into;
use super::pystr::strip;
use super::tag::Tag;
use super::tree::{Id, NIL, NotXmlCompatible, Res, Tree};
use super::xpaths::{CLASS, ID, SRC, TYPE};
use crate::html::Limits;

/// `min_text_length` as trafilatura passes it.
const MIN_TEXT_LENGTH: usize = 25;

static UNLIKELY_CANDIDATES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("combx|comment|community|disqus|extra|foot|header|menu|remark|rss|shoutbox|sidebar|sponsor|ad-break|agegate|pagination|pager|popup|tweet|twitter").expect("valid")
});
static MAYBE_CANDIDATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new("and|article|body|column|content|main|shadow").expect("valid"));
static POSITIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("(?i)article|body|content|entry|hentry|main|page|pagination|post|text|blog|story")
        .expect("valid")
});
static NEGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("(?i)button|combx|comment|com-|contact|figure|foot|footer|footnote|form|input|masthead|media|meta|outbrain|promo|related|scroll|shoutbox|sidebar|sponsor|shopping|tags|tool|widget").expect("valid")
});
static VIDEO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)https?://(?:www\.)?(?:youtube|vimeo)\.com").expect("valid"));
/// `\.( |$)`, with Python's `$` (also before a final line feed).
static DOT_SPACE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\.(?: |\n?\z)").expect("valid"));

/// `TAG_SCORES`.
fn tag_score(tag: &Tag) -> f64 {
    match tag {
        Tag::Div | Tag::Article => 5.0,
        Tag::Pre | Tag::Td | Tag::Blockquote => 3.0,
        Tag::Address
        | Tag::Ol
        | Tag::Ul
        | Tag::Dl
        | Tag::Dd
        | Tag::Dt
        | Tag::Li
        | Tag::Form
        | Tag::Aside => -3.0,
        Tag::H1
        | Tag::H2
        | Tag::H3
        | Tag::H4
        | Tag::H5
        | Tag::H6
        | Tag::Th
        | Tag::Header
        | Tag::Footer
        | Tag::Nav => -5.0,
        _ => 0.0,
    }
}

/// lxml.html's `drop_tree`: like `delete_element`, but a root fails (an AssertionError, which
/// `try_readability` catches as any other).
fn drop_tree(t: &mut Tree, id: Id) -> Res<()> {
    if t.parent(id) == NIL {
        return Err(NotXmlCompatible);
    }
    t.delete_element(id, true)
}

/// `text_length`: code points of the trimmed text.
fn text_length(t: &Tree, id: Id) -> usize {
    t.trimmed_len(id)
}

/// `get_link_density`.
fn link_density(t: &Tree, id: Id) -> f64 {
    let total = text_length(t, id).max(1);
    let links: usize = t
        .descendants_where(id, |tag| *tag == Tag::A)
        .into_iter()
        .map(|a| text_length(t, a))
        .sum();
    links as f64 / total as f64
}

/// `class_weight`.
fn class_weight(t: &Tree, id: Id) -> f64 {
    let mut weight = 0.0;
    for name in [&*CLASS, &*ID] {
        let Some(value) = t.get(id, name).filter(|v| !v.is_empty()) else {
            continue;
        };
        if NEGATIVE.is_match(value) {
            weight -= 25.0;
        }
        if POSITIVE.is_match(value) {
            weight += 25.0;
        }
    }
    weight
}

struct Summary<'t> {
    t: &'t mut Tree,
    doc: Id,
}

/// Candidates in order of first scoring, with their scores.
#[derive(Default)]
struct Candidates {
    order: Vec<Id>,
    scores: HashMap<Id, f64>,
}

impl Summary<'_> {
    fn remove_unlikely_candidates(&mut self) -> Res<()> {
        let mut low = String::new();
        for id in self.t.descendants_where(self.doc, |_| true) {
            if matches!(self.t.tag(id), Tag::Html | Tag::Body) {
                continue;
            }
            // `" ".join(filter(None, (class, id))).lower()`.
            low.clear();
            let mut chars = 0;
            for name in [&*CLASS, &*ID] {
                if let Some(value) = self.t.get(id, name).filter(|v| !v.is_empty()) {
                    if !low.is_empty() {
                        low.push(' ');
                        chars += 1;
                    }
                    chars += value.chars().count();
                    if value.is_ascii() {
                        low.extend(value.bytes().map(|b| char::from(b.to_ascii_lowercase())));
                    } else {
                        low.push_str(&value.to_lowercase());
                    }
                }
            }
            if chars < 2 {
                continue;
            }
            if UNLIKELY_CANDIDATES.is_match(&low) && !MAYBE_CANDIDATE.is_match(&low) {
                drop_tree(self.t, id)?;
            }
        }
        Ok(())
    }

    fn transform_misused_divs_into_paragraphs(&mut self) -> Res<()> {
        const BLOCK_PREFIXES: [&str; 12] = [
            "address",
            "article",
            "aside",
            "audio",
            "blockquote",
            "dl",
            "div",
            "img",
            "ol",
            "p",
            "table",
            "ul",
        ];
        let t = &mut *self.t;
        let is_block = |tag: &Tag| BLOCK_PREFIXES.iter().any(|p| tag.as_str().starts_with(p));
        // A div's test reads only its descendants, which the loop renames after it (document
        // order), so every test can read the tree as it was before the loop: one walk gives
        // each div whether a descendant is a block and whether one is a link.
        let mut below: HashMap<Id, (bool, bool)> = HashMap::new();
        t.fold_up(
            self.doc,
            |_| (false, false),
            |(block, link), child, (child_block, child_link)| {
                *block |= *child_block || is_block(t.tag(child));
                *link |= *child_link || t.is(child, &Tag::A);
            },
            |id, &found| {
                if t.is(id, &Tag::Div) {
                    below.insert(id, found);
                }
            },
        );
        for div in t.descendants_where(self.doc, |tag| *tag == Tag::Div) {
            let (has_block, has_link) = below.get(&div).copied().unwrap_or_default();
            if has_block {
                continue;
            }
            if !has_link || has_loose_text(t, div) {
                t.set_tag(div, Tag::P);
            }
        }
        for div in t.descendants_where(self.doc, |tag| *tag == Tag::Div) {
            if t.text(div).is_some_and(|s| !strip(s).is_empty()) {
                let p = t.new_element(Tag::P);
                let text = t.take_text(div);
                t.set_text_tendril(p, text)?;
                t.insert(div, 0, p);
            }
            let children = t.child_list(div);
            for &child in children.iter().rev() {
                if t.tail(child).is_some_and(|s| !strip(s).is_empty()) {
                    let p = t.new_element(Tag::P);
                    let tail = t.take_tail(child);
                    t.set_text_tendril(p, tail)?;
                    let after = t.next(child);
                    if after == NIL {
                        t.append(div, p);
                    } else {
                        t.insert_before(after, p);
                    }
                }
                if t.is(child, &Tag::Br) {
                    drop_tree(t, child)?;
                }
            }
        }
        Ok(())
    }

    fn score_paragraphs(&mut self) -> Candidates {
        let t = &*self.t;
        let mut candidates = Candidates::default();
        for elem in t.iter_where(self.doc, |tag| matches!(tag, Tag::P | Tag::Pre | Tag::Td)) {
            let parent = t.parent(elem);
            if parent == NIL {
                continue;
            }
            let grand_parent = t.parent(parent);
            let len = t.trimmed_len(elem);
            if len < MIN_TEXT_LENGTH {
                continue;
            }
            for node in [parent, grand_parent] {
                if node != NIL && !candidates.scores.contains_key(&node) {
                    candidates.order.push(node);
                    candidates
                        .scores
                        .insert(node, class_weight(t, node) + tag_score(t.tag(node)));
                }
            }
            // `1 + len(text.split(",")) + min(len / 100, 3)`: trimming leaves the commas.
            let mut commas = 0;
            t.itertext(elem, |s| commas += s.bytes().filter(|&b| b == b',').count());
            let score = (2 + commas) as f64 + (len as f64 / 100.0).min(3.0);
            *candidates.scores.entry(parent).or_default() += score;
            if grand_parent != NIL {
                *candidates.scores.entry(grand_parent).or_default() += score / 2.0;
            }
        }
        let wanted = candidates.order.iter().copied().collect();
        let lengths = t.text_and_link_lengths(self.doc, &wanted, |tag| *tag == Tag::A);
        for &id in &candidates.order {
            // `get_link_density`; a candidate outside the document (none) measured alone.
            let density = match lengths.get(&id) {
                Some(&(text, links)) => links as f64 / text.max(1) as f64,
                None => link_density(t, id),
            };
            if let Some(score) = candidates.scores.get_mut(&id) {
                *score *= 1.0 - density;
            }
        }
        candidates
    }

    fn get_article(&mut self, candidates: &Candidates, best: Id) -> Id {
        let t = &mut *self.t;
        let best_score = candidates.scores[&best];
        let threshold = (best_score * 0.2).max(10.0);
        // `fragment_fromstring("<div/>")`: the div has a parent in a document of its own.
        let holder = t.new_element(Tag::Body);
        let output = t.new_element(Tag::Div);
        t.append(holder, output);
        let parent = t.parent(best);
        let siblings = if parent == NIL {
            vec![best]
        } else {
            t.child_list(parent)
        };
        for sibling in siblings {
            let append = if sibling == best
                || candidates
                    .scores
                    .get(&sibling)
                    .is_some_and(|&s| s >= threshold)
            {
                true
            } else if t.is(sibling, &Tag::P) {
                let density = link_density(t, sibling);
                let content = t.text(sibling).unwrap_or("");
                let len = content.chars().count();
                (len > 80 && density < 0.25)
                    || (len <= 80 && density == 0.0 && DOT_SPACE.is_match(content))
            } else {
                false
            };
            if append {
                t.append(output, sibling);
            }
        }
        output
    }

    fn sanitize(&mut self, node: Id, candidates: &Candidates) -> Res<()> {
        let t = &mut *self.t;
        for header in t.iter_where(node, Tag::is_heading) {
            if class_weight(t, header) < 0.0 || link_density(t, header) > 0.33 {
                drop_tree(t, header)?;
            }
        }
        for id in t.iter_where(node, |tag| matches!(tag, Tag::Form | Tag::Textarea)) {
            drop_tree(t, id)?;
        }
        for iframe in t.iter_where(node, |tag| *tag == Tag::Iframe) {
            if t.get(iframe, &SRC).is_some_and(|src| VIDEO.is_match(src)) {
                t.set_text(iframe, Some("VIDEO".to_owned()))?;
            } else {
                drop_tree(t, iframe)?;
            }
        }
        let conditional = t.iter_where(node, |tag| {
            matches!(
                tag,
                Tag::Table
                    | Tag::Ul
                    | Tag::Div
                    | Tag::Aside
                    | Tag::Header
                    | Tag::Footer
                    | Tag::Section
            )
        });
        for &elem in conditional.iter().rev() {
            if should_remove(t, elem, candidates) {
                drop_tree(t, elem)?;
            }
        }
        Ok(())
    }
}

/// `elem.xpath("text()[normalize-space()]")` is not empty: a text or tail directly in the
/// element with something besides XML whitespace.
fn has_loose_text(t: &Tree, id: Id) -> bool {
    let loose = |s: Option<&str>| {
        s.is_some_and(|s| s.chars().any(|c| !matches!(c, ' ' | '\t' | '\r' | '\n')))
    };
    loose(t.text(id)) || t.children(id).any(|c| loose(t.tail(c)))
}

/// The conditional cleaning of `sanitize`.
fn should_remove(t: &Tree, elem: Id, candidates: &Candidates) -> bool {
    let weight = class_weight(t, elem);
    let score = candidates.scores.get(&elem).copied().unwrap_or(0.0);
    if weight + score < 0.0 {
        return true;
    }
    let mut commas = 0;
    t.itertext(elem, |s| commas += s.bytes().filter(|&b| b == b',').count());
    if commas >= 10 {
        return false;
    }
    let (mut p, mut img, mut li, mut input, mut embed) = (0i64, 0i64, 0i64, 0i64, 0i64);
    for d in t.descendants_where(elem, |tag| {
        matches!(
            tag,
            Tag::P | Tag::Img | Tag::Li | Tag::A | Tag::Embed | Tag::Input
        )
    }) {
        match t.tag(d) {
            Tag::P => p += 1,
            Tag::Img => img += 1,
            Tag::Li => li += 1,
            Tag::Input => {
                input += 1;
                if t.get(d, &TYPE) == Some("hidden") {
                    input -= 1;
                }
            }
            Tag::Embed => embed += 1,
            _ => {}
        }
    }
    li -= 100;
    let content_length = text_length(t, elem);
    let density = link_density(t, elem);
    let short = content_length < MIN_TEXT_LENGTH;
    if p != 0 && img as f64 > 1.0 + p as f64 * 1.3 {
        true
    } else if li > p && !matches!(t.tag(elem), Tag::Ol | Tag::Ul) {
        true
    } else if input as f64 > p as f64 / 3.0 {
        true
    } else if short && img == 0 {
        true
    } else if short && img > 2 {
        true
    } else if density > if weight >= 25.0 { 0.5 } else { 0.2 } {
        true
    } else if (embed == 1 && content_length < 75) || embed > 1 {
        true
    } else if content_length == 0 {
        // Kept between long neighbours: the nearest non-empty sibling on each side.
        let nearest = |mut sibling: Id, step: fn(&Tree, Id) -> Id| {
            while sibling != NIL {
                let n = text_length(t, sibling);
                if n > 0 {
                    return n;
                }
                sibling = step(t, sibling);
            }
            0
        };
        nearest(t.next(elem), Tree::next) + nearest(t.prev(elem), Tree::prev) <= 1000
    } else {
        false
    }
}

/// `Document(doc).summary()` on the tree under `doc` (changed in place): the article as XML.
fn summary(t: &mut Tree, doc: Id) -> Res<String> {
    for id in t.iter_where(doc, |tag| {
        matches!(tag, Tag::Script | Tag::Style | Tag::Fencedframe)
    }) {
        drop_tree(t, id)?;
    }
    let mut s = Summary { t, doc };
    s.remove_unlikely_candidates()?;
    s.transform_misused_divs_into_paragraphs()?;
    let candidates = s.score_paragraphs();
    let best = candidates
        .order
        .iter()
        .copied()
        .fold(None, |best: Option<Id>, id| match best {
            Some(b) if candidates.scores[&b] >= candidates.scores[&id] => Some(b),
            _ => Some(id),
        });
    let article = match best {
        Some(best) => s.get_article(&candidates, best),
        None => {
            let body = s.t.children(doc).find(|&c| s.t.is(c, &Tag::Body));
            body.unwrap_or(doc)
        }
    };
    s.sanitize(article, &candidates)?;
    Ok(serialize_xml(s.t, article))
}

/// `try_readability`: readability's article under `doc` (changed in place) parsed again into
/// `t`; None where trafilatura gets an empty element.
pub fn try_readability(t: &mut Tree, doc: Id, limits: &Limits) -> Option<Id> {
    let xml = summary(t, doc).ok()?;
    parse_into(t, &xml, limits)
}

/// `tostring(node, method="xml", encoding=str)`: libxml2's XML serialisation of the element, its
/// tail included.
pub fn serialize_xml(t: &Tree, id: Id) -> String {
    let mut out = String::new();
    write_element(t, id, &mut out);
    if let Some(tail) = t.tail(id) {
        escape_text(tail, &mut out);
    }
    out
}

fn write_element(t: &Tree, id: Id, out: &mut String) {
    out.push('<');
    out.push_str(t.tag(id).as_str());
    for (name, value) in t.attrs(id) {
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        escape_attribute(value, out);
        out.push('"');
    }
    if t.text(id).is_none() && !t.has_children(id) {
        out.push_str("/>");
        return;
    }
    out.push('>');
    if let Some(text) = t.text(id) {
        escape_text(text, out);
    }
    for child in t.children(id) {
        write_element(t, child, out);
        if let Some(tail) = t.tail(child) {
            escape_text(tail, out);
        }
    }
    out.push_str("</");
    out.push_str(t.tag(id).as_str());
    out.push('>');
}

fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => out.push_str("&#13;"),
            c => out.push(c),
        }
    }
}

fn escape_attribute(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\r' => out.push_str("&#13;"),
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_libxml2_writes_xml() {
        let mut t = Tree::new();
        let root = parse_into(
            &mut t,
            "<div class='a\"b'>x &amp; <br>y<p></p></div>",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(
            serialize_xml(&t, root),
            "<div class=\"a&quot;b\">x &amp; <br/>y<p/></div>"
        );
    }
}
