//! `baseline.py`: the rescue when the cascade found little (not in precision mode), and
//! `html2txt`, the page's whole text, which the recall escalation measures against.

use std::sync::LazyLock;

use regex::Regex;

use super::fallback::basic_cleaning;
use super::json::{Value, loads};
use super::load::parse_into;
use super::pystr::{html_unescape, remove_control_characters, strip, trim};
use super::tag::Tag;
use super::tree::{Id, NIL, NotXmlCompatible, Res, Tree};
use super::xpaths::{DATA_PRELOADED, ID, TYPE};
use crate::html::Limits;

/// `_MIN_CONTENT_LENGTH`.
const MIN_CONTENT_LENGTH: usize = 100;
/// `MIN_DUPLICATE_LENGTH`.
const MIN_DUPLICATE_LENGTH: usize = 50;
/// `DEDUPE_SCAN_CAP`.
const DEDUPE_SCAN_CAP: usize = 200_000;

const HTML_TAG_NAMES: &str = "a|abbr|address|article|aside|b|blockquote|body|br|caption|cite|code|dd|del|div|dl|dt|em|figcaption|figure|footer|h[1-6]|head|header|hr|html|i|img|ins|kbd|li|main|mark|nav|ol|p|pre|q|quote|s|section|small|span|strong|sub|summary|sup|table|tbody|td|tfoot|th|thead|time|title|tr|u|ul";

/// `_HTML_MARKUP`: real tags, not comparison operators in prose.
static HTML_MARKUP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)</(?:{HTML_TAG_NAMES})>|<(?:{HTML_TAG_NAMES})(?:[\s\x1c-\x1f][^<>]*=[^<>]*)?/?>"
    ))
    .expect("valid")
});

/// `_JSON_HOOKS_RE`.
static JSON_HOOKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"articleBody|reviewBody|recipeInstructions|acceptedAnswer|"Product"|"VideoObject"|"HowTo""#)
        .expect("valid")
});

/// `_BLOCK_ELEMS`: their boundaries separate text runs.
fn is_block(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Address
            | Tag::Article
            | Tag::Aside
            | Tag::Blockquote
            | Tag::Br
            | Tag::Dd
            | Tag::Div
            | Tag::Dl
            | Tag::Dt
            | Tag::Figcaption
            | Tag::Figure
            | Tag::Footer
            | Tag::Form
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::Header
            | Tag::Hr
            | Tag::Li
            | Tag::Main
            | Tag::Nav
            | Tag::Ol
            | Tag::P
            | Tag::Pre
            | Tag::Section
            | Tag::Summary
            | Tag::Table
            | Tag::Td
            | Tag::Th
            | Tag::Tr
            | Tag::Ul
    )
}

/// `_spaced_text`: a space around the text and tail of every block element (changing the tree
/// under `id`), then the text with its whitespace runs made single spaces.
fn spaced_text(t: &mut Tree, id: Id) -> Res<String> {
    space_blocks(t, id)?;
    Ok(t.trimmed_join(id, false))
}

/// The changes [`spaced_text`] makes to the tree: a space before every block's text and tail.
fn space_blocks(t: &mut Tree, id: Id) -> Res<()> {
    for block in t.iter_where(id, is_block) {
        let text = match t.text(block).filter(|s| !s.is_empty()) {
            Some(s) => format!(" {}", remove_control_characters(s)),
            None => " ".to_owned(),
        };
        t.set_text(block, Some(text))?;
        let tail = match t.tail(block).filter(|s| !s.is_empty()) {
            Some(s) => format!(" {}", remove_control_characters(s)),
            None => " ".to_owned(),
        };
        t.set_tail(block, Some(tail))?;
    }
    Ok(())
}

/// `block_text`: [`spaced_text`] of a copy.
fn block_text(t: &mut Tree, id: Id) -> Res<String> {
    let copy = t.deep_copy(id);
    spaced_text(t, copy)
}

/// `_render_text`: text from an embedded JSON value, which may hold (escaped) HTML.
fn render_text(t: &mut Tree, raw: &str, limits: &Limits) -> Res<String> {
    let raw = remove_control_characters(&html_unescape(raw));
    if HTML_MARKUP.is_match(&raw)
        && let Some(div) = fragment_in_div(t, &raw, limits)
    {
        return block_text(t, div);
    }
    Ok(trim(&raw))
}

/// `fragment_fromstring(raw, create_parent="div")`: the body's content (its text when not blank)
/// in a new `div`; None where lxml raises (an empty document, several bodies).
fn fragment_in_div(t: &mut Tree, raw: &str, limits: &Limits) -> Option<Id> {
    let wrapped;
    let html = if crate::justext::root::looks_like_full_html(raw) {
        raw
    } else {
        wrapped = format!("<html><body>{raw}</body></html>");
        &wrapped
    };
    let root = parse_into(t, html, limits)?;
    if !t.is(root, &Tag::Html) {
        return None;
    }
    let bodies: Vec<Id> = t.children(root).filter(|&c| t.is(c, &Tag::Body)).collect();
    let [body] = bodies[..] else {
        return None;
    };
    let div = t.new_element(Tag::Div);
    let text = t.take_text(body).filter(|s| !strip(s).is_empty());
    t.set_parsed_text(div, text, None);
    for child in t.child_list(body) {
        t.append(div, child);
    }
    Some(div)
}

/// `_build_body` and `_attempt`: one `p` per text (repeats of long texts dropped with
/// `dedupe`), accepted when the joined text is longer than 100 characters.
fn attempt(t: &mut Tree, texts: Vec<String>, dedupe: bool) -> Res<Option<(Id, String)>> {
    let body = t.new_element(Tag::Body);
    let mut joined = String::new();
    let mut joined_len = 0;
    for text in texts {
        let text = remove_control_characters(&text);
        let len = text.chars().count();
        if text.is_empty()
            || !(!dedupe
                || len <= MIN_DUPLICATE_LENGTH
                || joined_len > DEDUPE_SCAN_CAP
                || !joined.contains(&text))
        {
            continue;
        }
        let p = t.new_element(Tag::P);
        t.append(body, p);
        if !joined.is_empty() {
            joined.push('\n');
            joined_len += 1;
        }
        joined.push_str(&text);
        joined_len += len;
        t.set_text(p, Some(text))?;
    }
    Ok((joined_len > MIN_CONTENT_LENGTH).then_some((body, joined)))
}

/// `_walk_json`.
fn walk_json(value: Option<&Value>, bodies: &mut Vec<String>, teasers: &mut Vec<String>) {
    for item in Value::as_list(value) {
        if !matches!(item, Value::Dict(_)) {
            continue;
        }
        for key in ["articleBody", "reviewBody"] {
            if let Some(s) = item
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
            {
                bodies.push(s.to_owned());
            }
        }
        for key in ["recipeInstructions", "step"] {
            for step in Value::as_list(item.get(key)) {
                match step {
                    Value::Str(s) => bodies.push(s.clone()),
                    Value::Dict(_) => {
                        let mut subs = vec![step];
                        subs.extend(Value::as_list(step.get("itemListElement")));
                        for sub in subs {
                            if let Some(text) = sub.get("text").and_then(Value::as_str) {
                                bodies.push(text.to_owned());
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Some(text) = item
            .get("acceptedAnswer")
            .and_then(|a| a.get("text"))
            .and_then(Value::as_str)
        {
            bodies.push(text.to_owned());
        }
        let typed = item
            .get("@type")
            .is_some_and(|t| t.mentions("Product") || t.mentions("VideoObject"));
        if typed && let Some(description) = item.get("description").and_then(Value::as_str) {
            teasers.push(description.to_owned());
        }
        for container in ["@graph", "mainEntity"] {
            walk_json(item.get(container), bodies, teasers);
        }
    }
}

/// `_discourse_texts`: posts a Discourse forum embeds as JSON in an attribute.
fn discourse_texts(t: &Tree, root: Id) -> Res<Vec<String>> {
    let node = t.find_descendant(root, |t, id| {
        t.is(id, &Tag::Div) && t.get(id, &ID) == Some("data-preloaded")
    });
    if node == NIL {
        return Ok(Vec::new());
    }
    let Some(Value::Dict(preloaded)) = loads(t.get(node, &DATA_PRELOADED).unwrap_or(""), true)
    else {
        return Ok(Vec::new());
    };
    let mut texts = Vec::new();
    for (key, value) in preloaded {
        if !key.starts_with("topic_") {
            continue;
        }
        let posts = value
            .as_str()
            .and_then(|s| loads(s, true))
            .and_then(|v| v.get("post_stream").and_then(|p| p.get("posts")).cloned());
        match posts {
            None => continue,
            Some(Value::List(posts)) => {
                for post in posts {
                    if let Some(cooked) = post.get("cooked").and_then(Value::as_str) {
                        texts.push(cooked.to_owned());
                    }
                }
            }
            // Iterating a string or a dict yields strings, which are skipped.
            Some(Value::Str(_) | Value::Dict(_)) => {}
            // A number, a boolean or null is not iterable: Python's TypeError ends the page.
            Some(_) => return Err(NotXmlCompatible),
        }
    }
    Ok(texts)
}

/// `_collect_json_content`: (full-text bodies, teaser descriptions).
fn collect_json_content(t: &Tree, root: Id) -> Res<(Vec<String>, Vec<String>)> {
    let mut bodies = Vec::new();
    let mut teasers = Vec::new();
    let scripts = t.descendants_matching(root, |t, id| {
        t.is(id, &Tag::Script) && t.get(id, &TYPE) == Some("application/ld+json")
    });
    for script in scripts {
        let Some(text) = t.text(script).filter(|s| !s.is_empty()) else {
            continue;
        };
        if !JSON_HOOKS.is_match(text) {
            continue;
        }
        if let Some(value) = loads(text, false) {
            walk_json(Some(&value), &mut bodies, &mut teasers);
        }
    }
    bodies.extend(discourse_texts(t, root)?);
    Ok((bodies, teasers))
}

/// `baseline(tree)` on a copy of the tree under `root`: the body, its text, and the text's
/// length in code points.
pub fn baseline(t: &mut Tree, root: Id, limits: &Limits) -> Res<(Id, String, usize)> {
    let tree = t.deep_copy(root);
    let (json_bodies, json_teasers) = collect_json_content(t, tree)?;
    let rendered = json_bodies
        .iter()
        .map(|raw| render_text(t, raw, limits))
        .collect::<Res<Vec<_>>>()?;
    if let Some((body, text)) = attempt(t, rendered, true)? {
        let len = text.chars().count();
        return Ok((body, text, len));
    }
    basic_cleaning(t, tree)?;
    let articles = t.descendants_matching(tree, |t, id| {
        t.is(id, &Tag::Article) && !t.ancestors(id).any(|a| t.is(a, &Tag::Article))
    });
    let mut article_texts = Vec::new();
    for article in articles {
        let text = block_text(t, article)?;
        if text.chars().count() > MIN_CONTENT_LENGTH {
            article_texts.push(text);
        }
    }
    if !article_texts.is_empty() {
        let longest = article_texts
            .iter()
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(0);
        let cutoff = longest as f64 / 5.0;
        let kept = article_texts
            .into_iter()
            .filter(|s| s.chars().count() as f64 >= cutoff)
            .collect();
        if let Some((body, text)) = attempt(t, kept, false)? {
            let len = text.chars().count();
            return Ok((body, text, len));
        }
    }
    let is_scraped = |tag: &Tag| {
        matches!(
            tag,
            Tag::Blockquote | Tag::Code | Tag::P | Tag::Pre | Tag::Q | Tag::Quote
        )
    };
    let mut paragraphs = Vec::new();
    for element in t.iter_where(tree, is_scraped) {
        if t.ancestors(element).any(|a| is_scraped(t.tag(a))) {
            continue;
        }
        paragraphs.push(block_text(t, element)?);
    }
    if let Some((body, text)) = attempt(t, paragraphs, true)? {
        let len = text.chars().count();
        return Ok((body, text, len));
    }
    let rendered = json_teasers
        .iter()
        .map(|raw| render_text(t, raw, limits))
        .collect::<Res<Vec<_>>>()?;
    let teaser = attempt(t, rendered, true)?;
    let postbody = t.new_element(Tag::Body);
    let body = t.find_descendant(tree, |t, id| t.is(id, &Tag::Body));
    if body != NIL {
        let mut lines = Vec::new();
        t.itertext(body, |s| {
            let s = trim(s);
            if !s.is_empty() {
                lines.push(s);
            }
        });
        let text = remove_control_characters(&lines.join("\n"));
        let len = text.chars().count();
        let p = t.new_element(Tag::P);
        t.append(postbody, p);
        t.set_text(p, Some(text.clone()))?;
        match &teaser {
            Some((_, teaser_text)) if len < teaser_text.chars().count() => {}
            _ => return Ok((postbody, text, len)),
        }
    }
    Ok(match teaser {
        Some((body, text)) => {
            let len = text.chars().count();
            (body, text, len)
        }
        None => (postbody, String::new(), 0),
    })
}

/// Code points of `html2txt(tree)`: the text of the page's `body` (of the whole tree without
/// one) after `basic_cleaning`, block boundaries spaced.
pub fn html2txt_len(t: &mut Tree, root: Id) -> Res<usize> {
    let tree = t.deep_copy(root);
    let body = t.find_descendant(tree, |t, id| t.is(id, &Tag::Body));
    let body = if body == NIL { tree } else { body };
    basic_cleaning(t, body)?;
    space_blocks(t, body)?;
    Ok(t.trimmed_len(body))
}
