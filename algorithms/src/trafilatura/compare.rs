//! `external.compare_extraction`: the main extractor's result against readability's, then
//! jusText's when the chosen one is unclean or short, and the conversion of readability's tree
//! when it wins (`sanitize_tree`).

use super::cleaning::{convert_tags, tree_cleaning};
use super::extractor::MIN_EXTRACTED_SIZE;
use super::fallback::justext_rescue;
use super::pystr::Trimmed;
use super::readability::try_readability;
use super::tag::Tag;
use super::tree::{Id, NIL, Res, Tree};
use super::xpaths::{self, ROLE};
use super::{Ctx, Focus};

/// `JUSTEXT_OVERRIDE_RATIO`.
const JUSTEXT_OVERRIDE_RATIO: usize = 3;

/// `body.xpath(".//p//text()")` is empty: no paragraph below `body` holds a text node.
fn has_no_paragraph_text(t: &Tree, body: Id) -> bool {
    t.descendants_where(body, |tag| *tag == Tag::P)
        .into_iter()
        .all(|p| {
            t.text(p).is_none()
                && t.descendants_where(p, |_| true)
                    .into_iter()
                    .all(|d| t.text(d).is_none() && t.tail(d).is_none())
        })
}

/// `_prefer_readability`.
fn prefer_readability(
    t: &Tree,
    body: Id,
    algo: Option<Id>,
    algo_text: &str,
    len_text: usize,
    len_algo: usize,
    ctx: &Ctx,
) -> bool {
    if len_algo == 0 || len_algo == len_text || len_text > 2 * len_algo {
        return false;
    }
    let recall = ctx.focus() == Focus::Recall;
    let json_like = algo_text.starts_with('{');
    len_text == 0
        || (len_algo > 2 * len_text && !json_like)
        || (len_algo > MIN_EXTRACTED_SIZE * 2
            && (has_no_paragraph_text(t, body)
                || t.descendants_where(body, |tag| *tag == Tag::Table).len()
                    > t.descendants_where(body, |tag| *tag == Tag::P).len()))
        || (recall && len_algo as f64 > 1.5 * len_text as f64 && !json_like)
        || (recall
            && !t.has_descendant(body, &Tag::Head)
            && algo.is_some_and(|a| {
                !t.iter_where(a, |tag| matches!(tag, Tag::H2 | Tag::H3 | Tag::H4))
                    .is_empty()
            })
            && len_algo > len_text)
}

/// `compare_extraction(cleaned_tree, raw_tree, body, text)`: `cleaned` is the cleaned tree before
/// conversion (jusText reads it), `raw` a copy of the pruned page (readability reads it).
pub fn compare_extraction(
    t: &mut Tree,
    cleaned: Id,
    raw: Id,
    body: Id,
    text: String,
    ctx: &mut Ctx,
) -> Res<(Id, String)> {
    let mut len_text = text.chars().count();
    if ctx.focus() == Focus::Recall && len_text > MIN_EXTRACTED_SIZE * 10 {
        return Ok((body, text));
    }
    if ctx.precision() {
        xpaths::prune(
            t,
            raw,
            &[
                &xpaths::overall_discard_blocks,
                &xpaths::overall_discard_hidden,
            ],
        )?;
    }
    let algo = try_readability(t, raw, &ctx.opts.limits);
    let algo_text = match algo {
        Some(a) => {
            let mut s = Trimmed::default();
            t.itertext(a, |piece| s.feed(piece));
            s.feed(t.tail(a).unwrap_or(""));
            s.finish()
        }
        None => String::new(),
    };
    let len_algo = algo_text.chars().count();
    let (mut body, mut text) = (body, text);
    let mut use_readability =
        prefer_readability(t, body, algo, &algo_text, len_text, len_algo, ctx);
    if use_readability && let Some(a) = algo {
        (body, text, len_text) = (a, algo_text, len_algo);
    }
    let unclean = t.find_descendant(body, |t, id| xpaths::is_unclean(t.tag(id))) != NIL;
    if unclean || len_text < MIN_EXTRACTED_SIZE {
        let (body2, text2) = justext_rescue(t, cleaned)?;
        let len_text2 = text2.chars().count();
        // Images are never kept by this port, so an unclean result only needs to be at most
        // three times longer.
        let accept = if unclean {
            len_text <= JUSTEXT_OVERRIDE_RATIO * len_text2
        } else {
            len_text < len_text2
        };
        if !text2.is_empty() && accept {
            (body, text) = (body2, text2);
            use_readability = false;
        }
    }
    if use_readability {
        return sanitize_tree(t, body, ctx);
    }
    Ok((body, text))
}

/// `sanitize_tree`: readability's tree cleaned, converted, its tables as rows and cells, and
/// every element outside trafilatura's vocabulary stripped.
fn sanitize_tree(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<(Id, String)> {
    let cleaned = tree_cleaning(t, tree, ctx)?;
    let links = ctx.opts.include_links;
    t.strip_tags(cleaned, |tag| {
        *tag == Tag::Span || (!links && *tag == Tag::A)
    });
    convert_tags(t, cleaned, ctx)?;
    let mut heads_done: Vec<Id> = Vec::new();
    for tr in t.iter_where(cleaned, |tag| *tag == Tag::Tr) {
        let parent = t.parent(tr);
        let has_th = t.children(tr).any(|c| t.is(c, &Tag::Th));
        if !heads_done.contains(&parent) && has_th {
            heads_done.push(parent);
            for th in t.child_list(tr) {
                if t.is(th, &Tag::Th) {
                    t.set(th, &ROLE, "head")?;
                }
            }
        }
    }
    for id in t.iter_where(cleaned, |tag| matches!(tag, Tag::Td | Tag::Th | Tag::Tr)) {
        let renamed = if t.is(id, &Tag::Tr) {
            Tag::Row
        } else {
            Tag::Cell
        };
        t.set_tag(id, renamed);
    }
    t.strip_tags(cleaned, |tag| !is_tei_valid(tag));
    let text = t.trimmed_join(cleaned, true);
    Ok((cleaned, text))
}

/// `TEI_VALID_TAGS`.
fn is_tei_valid(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Ab
            | Tag::Body
            | Tag::Cell
            | Tag::Code
            | Tag::Del
            | Tag::Div
            | Tag::Graphic
            | Tag::Head
            | Tag::Hi
            | Tag::Item
            | Tag::Lb
            | Tag::List
            | Tag::P
            | Tag::Quote
            | Tag::Ref
            | Tag::Row
            | Tag::Table
    )
}
