//! `main_extractor.py`: the main extractor (frames chosen by `BODY_XPATH`, pruned, their
//! elements handed to one handler per kind), the recovery of wild text when that falls short,
//! and the extraction of comments.
//!
//! Where the Python loops walk the tree lazily while their handlers change it, this port walks
//! it with [`LxIter`](super::tree::LxIter) so that the walk goes where lxml's goes (a handler that strips the element
//! the walk was about to visit ends the walk, as it does in trafilatura).

use std::collections::HashSet;

use super::cleaning::{
    delete_by_link_density, handle_textnode, link_density_test_tables, link_measures, process_node,
    text_chars,
};
use super::handlers::{PotentialTags, handle_textelem};
use super::pystr::{Trimmed, strip};
use super::tag::Tag;
use super::tree::{Id, NIL, Res, Tree};
use super::xpaths::{self, CLASS};
use super::{Ctx, Focus};

/// `MIN_EXTRACTED_SIZE`.
pub const MIN_EXTRACTED_SIZE: usize = 250;
/// `MIN_DUPLICATE_LENGTH`.
const MIN_DUPLICATE_LENGTH: usize = 50;
/// `DEDUPE_SCAN_CAP`.
const DEDUPE_SCAN_CAP: usize = 200_000;

/// `_elem_text`: the element's text joined without separators, trimmed.
pub fn elem_text(t: &Tree, id: Id) -> String {
    t.trimmed_join(id, false)
}

/// `needle in haystack` for strings, by the vector search of the `memchr` crate.
fn holds(haystack: &str, needle: &str) -> bool {
    memchr::memmem::find(haystack.as_bytes(), needle.as_bytes()).is_some()
}

/// `prune_unwanted_nodes(tree, OVERALL_DISCARD_XPATH, with_backup=True)`: the outermost
/// matches are deleted, unless that would remove more than 6/7 of the text.
fn prune_with_backup(t: &mut Tree, root: Id) -> Res<()> {
    let mut matches = xpaths::select(t, root, xpaths::overall_discard_blocks);
    let seen: HashSet<Id> = matches.iter().copied().collect();
    matches.extend(
        xpaths::select(t, root, xpaths::overall_discard_hidden)
            .into_iter()
            .filter(|id| !seen.contains(id)),
    );
    let all: HashSet<Id> = matches.iter().copied().collect();
    let outer: Vec<Id> = matches
        .into_iter()
        .filter(|&id| !t.ancestors(id).any(|a| all.contains(&a)))
        .collect();
    let old_len = t.text_content_len(root);
    let removed: usize = outer.iter().map(|&id| t.text_content_len(id)).sum();
    if (old_len as f64 - removed as f64) > old_len as f64 / 7.0 {
        for id in outer {
            t.delete_element(id, true)?;
        }
    }
    Ok(())
}

/// `prune_unwanted_sections`.
pub fn prune_unwanted_sections(
    t: &mut Tree,
    root: Id,
    potential: PotentialTags,
    ctx: &Ctx,
    keep_teasers: bool,
) -> Res<()> {
    let precision = ctx.precision();
    prune_with_backup(t, root)?;
    xpaths::prune(t, root, &[&xpaths::discard_image_elements])?;
    if ctx.focus() != Focus::Recall {
        if !keep_teasers {
            xpaths::prune(t, root, &[&xpaths::teaser_discard])?;
        }
        if precision {
            xpaths::prune(
                t,
                root,
                &[
                    &|t: &Tree, id| t.is(id, &Tag::Header),
                    &xpaths::precision_discard,
                ],
            )?;
        }
    }
    for _ in 0..2 {
        delete_by_link_density(t, root, &Tag::Div, true, precision)?;
        delete_by_link_density(t, root, &Tag::List, false, precision)?;
        delete_by_link_density(t, root, &Tag::P, false, precision)?;
    }
    if potential.tables || precision {
        let measures = link_measures(t, root, |tag| *tag == Tag::Table);
        let tables: Vec<Id> = t
            .iter_where(root, |tag| *tag == Tag::Table)
            .into_iter()
            .filter(|id| measures.get(id).is_some_and(link_density_test_tables))
            .collect();
        for id in tables {
            t.delete_element(id, false)?;
        }
    }
    if precision {
        loop {
            let last = t.last_child(root);
            if last == NIL || !t.is(last, &Tag::Head) {
                break;
            }
            t.delete_element(last, false)?;
        }
        delete_by_link_density(t, root, &Tag::Head, false, true)?;
        delete_by_link_density(t, root, &Tag::Quote, false, true)?;
    }
    let links = potential.links;
    t.strip_tags(root, |tag| {
        *tag == Tag::Span || (!links && *tag == Tag::Ref)
    });
    Ok(())
}

/// `REBUILT_BLOCKS`.
fn is_rebuilt_block(tag: &Tag) -> bool {
    matches!(tag, Tag::Code | Tag::Quote | Tag::List | Tag::Table)
}

/// Code points of `//p//text()` in the document of `doc_root`: the text of every paragraph
/// not inside another.
fn paragraph_text_len(t: &Tree, doc_root: Id) -> usize {
    let mut total = 0;
    let mut id = if t.is(doc_root, &Tag::P) {
        doc_root
    } else {
        t.following(doc_root, doc_root)
    };
    while id != NIL {
        if t.is(id, &Tag::P) {
            total += t.text_content_len(id);
            id = t.following_skipping_children(id, doc_root);
        } else {
            id = t.following(id, doc_root);
        }
    }
    total
}

/// `_extract`: the main pass over the frames `BODY_XPATH` finds.
fn extract_frames(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<(Id, String, PotentialTags)> {
    let mut potential = PotentialTags::new(ctx);
    let body = t.new_element(Tag::Body);
    for expression in 0..xpaths::BODY_EXPRESSIONS {
        let frame = xpaths::body_candidate(t, tree, expression);
        if frame == NIL {
            continue;
        }
        prune_unwanted_sections(t, frame, potential, ctx, false)?;
        if !t.has_children(frame) {
            continue;
        }
        let factor = if ctx.precision() { 1 } else { 3 };
        if paragraph_text_len(t, tree) < MIN_EXTRACTED_SIZE * factor {
            potential.div = true;
        }
        let mut elements = t.descendants_where(frame, |_| true);
        let only_lb = !elements.is_empty() && elements.iter().all(|&e| t.is(e, &Tag::Lb));
        let inline_only = elements.iter().all(|&e| {
            matches!(
                t.tag(e),
                Tag::Hi | Tag::Ref | Tag::Del | Tag::Code | Tag::Lb
            )
        });
        if only_lb || (t.is(frame, &Tag::Div) && potential.div && inline_only) {
            elements = vec![frame];
        }
        let start = t.len(body);
        let mut lead = None;
        if elements != [frame] && text_chars(t.text(frame)) {
            let p = t.new_element(Tag::P);
            let text = t.text(frame).map(str::to_owned);
            t.set_text(p, text)?;
            lead = Some(process_node(t, p, ctx)?);
        }
        for elem in elements {
            if t.root_of(elem) == body {
                continue;
            }
            let (tag, tail) = (t.tag(elem).clone(), t.tail(elem).map(str::to_owned));
            let processed = handle_textelem(t, elem, potential, ctx)?;
            if let Some(processed) = processed {
                t.append(body, processed);
                if t.root_of(elem) != body {
                    t.set_tag(elem, Tag::Done);
                }
            }
            if is_rebuilt_block(&tag)
                && text_chars(tail.as_deref())
                && processed.is_none_or(|p| t.tail(p).is_none())
            {
                let p = t.new_element(Tag::P);
                t.set_text(p, tail)?;
                if process_node(t, p, ctx)?.is_some() {
                    t.append(body, p);
                }
            }
        }
        remove_trailing(t, body, |tag| matches!(tag, Tag::Head | Tag::Ref))?;
        if t.children(body)
            .filter(|&c| !t.is(c, &Tag::Graphic))
            .count()
            > 1
        {
            if let Some(Some(lead)) = lead {
                t.insert(body, start, lead);
            }
            break;
        }
    }
    let text = strip(&t.join_text(body, " ")).to_owned();
    Ok((body, text, potential))
}

/// Deletes the last children of `parent` (tails too) while `remove` accepts them.
fn remove_trailing(t: &mut Tree, parent: Id, remove: impl Fn(&Tag) -> bool) -> Res<()> {
    loop {
        let last = t.last_child(parent);
        if last == NIL || !remove(t.tag(last)) {
            return Ok(());
        }
        t.delete_element(last, false)?;
    }
}

/// `recover_wild_text`: paragraphs, code, quotes and tables anywhere in the page (recall: also
/// divs, line breaks, lists) that the main pass did not take.
fn recover_wild_text(
    t: &mut Tree,
    tree: Id,
    body: Id,
    potential: PotentialTags,
    consumed: &HashSet<Id>,
    ctx: &mut Ctx,
) -> Res<()> {
    let recall = ctx.focus() == Focus::Recall;
    let mut potential = potential;
    if recall {
        potential.div = true;
    }
    prune_unwanted_sections(t, tree, potential, ctx, ctx.opts.fast)?;
    let candidates = xpaths::select(t, tree, |t, id| match t.tag(id) {
        Tag::Code | Tag::P | Tag::Quote | Tag::Table => true,
        Tag::Div => recall || t.get_or_empty(id, &CLASS).contains("w3-code"),
        Tag::Lb | Tag::List => recall,
        _ => false,
    });
    let texts: Vec<String> = t.children(body).map(|c| elem_text(t, c)).collect();
    let mut existing = texts
        .iter()
        .filter(|s| !s.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let mut existing_chars = existing.chars().count();
    let mut existing_elems: HashSet<String> = texts.into_iter().collect();
    let mut handled: HashSet<Id> = HashSet::new();
    for candidate in candidates {
        if consumed.contains(&candidate) || t.ancestors(candidate).any(|a| handled.contains(&a)) {
            continue;
        }
        let Some(processed) = handle_textelem(t, candidate, potential, ctx)? else {
            continue;
        };
        if processed == candidate {
            handled.insert(candidate);
        }
        let text = elem_text(t, processed);
        let under_cap = existing_chars <= DEDUPE_SCAN_CAP;
        let fragment = if text_chars(t.tail(processed)) {
            let mut fragment = Trimmed::with_capacity(text.len());
            fragment.feed(&text);
            fragment.feed(t.tail(processed).unwrap_or(""));
            fragment.finish()
        } else {
            String::new()
        };
        if !text.is_empty()
            && (existing_elems.contains(&text)
                || (under_cap
                    && ((text.chars().count() > MIN_DUPLICATE_LENGTH && holds(&existing, &text))
                        || (!fragment.is_empty() && holds(&existing, &fragment)))))
        {
            continue;
        }
        t.append(body, processed);
        if under_cap {
            let added = if fragment.is_empty() {
                &text
            } else {
                &fragment
            };
            existing.push('\n');
            existing.push_str(added);
            existing_chars += 1 + added.chars().count();
        }
        existing_elems.insert(text);
    }
    Ok(())
}

/// `extract_content`: the main pass, the recovery when it falls short, and the final tidying of
/// the result. Returns the result body and its text.
pub fn extract_content(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<(Id, String)> {
    let backup = t.deep_copy(tree);
    let order = t.iter_where(tree, |_| true);
    let (body, mut text, potential) = extract_frames(t, tree, ctx)?;
    if !t.has_children(body) || text.chars().count() < MIN_EXTRACTED_SIZE {
        let twins = t.iter_where(backup, |_| true);
        let consumed: HashSet<Id> = order
            .iter()
            .zip(twins)
            .filter(|(original, _)| t.is(**original, &Tag::Done))
            .map(|(_, twin)| twin)
            .collect();
        recover_wild_text(t, backup, body, potential, &consumed, ctx)?;
        text = strip(&t.join_text(body, " ")).to_owned();
    }
    let mut previous: Option<String> = None;
    for child in t.child_list(body) {
        let current = elem_text(t, child);
        if !current.is_empty()
            && previous.as_deref() == Some(current.as_str())
            && current.chars().count() > MIN_DUPLICATE_LENGTH
        {
            t.delete_element(child, false)?;
        } else {
            previous = Some(current);
        }
    }
    t.strip_elements(body, |tag| *tag == Tag::Done);
    t.strip_tags(body, |tag| *tag == Tag::Div);
    for lb in t.iter_where(body, |tag| *tag == Tag::Lb) {
        if t.has_tail(lb)
            && !text_chars(t.tail(lb))
            && !t
                .ancestors(lb)
                .any(|a| matches!(t.tag(a), Tag::Code | Tag::Pre))
        {
            t.set_tail(lb, None)?;
        }
    }
    Ok((body, text))
}

/// `extract_comments`: the first comments section `COMMENTS_XPATH` finds that yields text,
/// which is then deleted from the tree. Returns the comments body and its text.
pub fn extract_comments(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<(Id, String)> {
    let body = t.new_element(Tag::Body);
    for expression in 0..xpaths::COMMENTS_EXPRESSIONS {
        let section = xpaths::comments_candidate(t, tree, expression);
        if section == NIL {
            continue;
        }
        for discard in 0..3 {
            for id in xpaths::select(t, section, |t, id| xpaths::comments_discard(t, id, discard)) {
                t.delete_element(id, true)?;
            }
        }
        t.strip_tags(section, |tag| matches!(tag, Tag::Ref | Tag::Span));
        for elem in t.descendants_where(section, |_| true) {
            if !PotentialTags::CATALOG.contains(t.tag(elem)) {
                continue;
            }
            if let Some(processed) = handle_textnode(t, elem, ctx, true, false)? {
                t.clear_attrs(processed);
                t.append(body, processed);
            }
        }
        if t.has_children(body) {
            t.delete_element(section, false)?;
            break;
        }
    }
    let text = strip(&t.join_text(body, " ")).to_owned();
    Ok((body, text))
}

/// `" ".join(body.itertext()).strip()`.
pub fn body_text(t: &Tree, body: Id) -> String {
    strip(&t.join_text(body, " ")).to_owned()
}
