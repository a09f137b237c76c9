//! `main_extractor.py`'s handlers: each element of a frame turned into the element the output
//! keeps (titles, formatting, lists, code, quotes, paragraphs, tables and the rest), or nothing.

use std::collections::HashSet;

use super::cleaning::{
    handle_textnode, is_inline_carried, process_node, separates_inline, text_chars,
};
use super::pystr::strip;
use super::tag::Tag;
use super::tree::{Id, LxIter, NIL, NotXmlCompatible, Res, Tree};
use super::xpaths::{ALT, CLASS, COLSPAN, LANG, REND, ROLE, ROWSPAN, SRC, TARGET, TITLE};
use super::{Ctx, Focus};

/// `_MAX_SPAN`.
const MAX_SPAN: usize = 100;

/// The set `potential_tags`: `TAG_CATALOG` and what the options and the frames add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PotentialTags {
    pub tables: bool,
    pub links: bool,
    pub div: bool,
}

impl PotentialTags {
    pub(super) fn new(ctx: &Ctx) -> Self {
        PotentialTags {
            tables: ctx.opts.include_tables,
            links: ctx.opts.include_links,
            div: false,
        }
    }

    /// `TAG_CATALOG` alone.
    pub(super) const CATALOG: PotentialTags = PotentialTags {
        tables: false,
        links: false,
        div: false,
    };

    /// `_QUOTE_TAGS`: `TAG_CATALOG` with `ref` (and `graphic`).
    pub(super) const QUOTE: PotentialTags = PotentialTags {
        tables: false,
        links: true,
        div: false,
    };

    pub fn contains(&self, tag: &Tag) -> bool {
        match tag {
            Tag::Code
            | Tag::Del
            | Tag::Head
            | Tag::Hi
            | Tag::Lb
            | Tag::List
            | Tag::P
            | Tag::Quote => true,
            Tag::Table | Tag::Td | Tag::Th | Tag::Tr => self.tables,
            Tag::Ref => self.links,
            Tag::Div => self.div,
            _ => false,
        }
    }

    pub(super) fn with_div(mut self) -> Self {
        self.div = true;
        self
    }
}

/// `INLINE_CONSUMING`.
fn is_inline_consuming(tag: &Tag) -> bool {
    matches!(tag, Tag::Hi | Tag::Ref | Tag::Del)
}

/// `FORMATTING_PROTECTED`.
fn is_formatting_protected(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Cell | Tag::Head | Tag::Hi | Tag::Item | Tag::P | Tag::Quote | Tag::Ref | Tag::Td
    )
}

/// `is_text_element`.
fn is_text_element(t: &Tree, id: Option<Id>) -> bool {
    id.is_some_and(|id| {
        let mut found = false;
        t.itertext(id, |s| found |= super::pystr::has_non_space(Some(s)));
        found
    })
}

/// `_wraps_inline`.
fn wraps_inline(t: &Tree, id: Id) -> bool {
    t.has_children(id)
        && (t.is(id, &Tag::Ref) || t.children(id).any(|c| is_inline_carried(t.tag(c))))
}

/// `KEEP_ATTRS`, copied from `source` to `target` (`_copy_attrs`).
fn copy_attrs(t: &mut Tree, source: Id, target: Id) -> Res<()> {
    let keep = [&*REND, &*ROLE, &*TARGET, &*SRC, &*ALT, &*TITLE];
    let attrs: Vec<_> = t
        .attrs(source)
        .iter()
        .filter(|(name, _)| keep.contains(&name))
        .cloned()
        .collect();
    for (name, value) in attrs {
        t.set(target, &name, &value)?;
    }
    Ok(())
}

/// `update_elem_rendition`.
fn copy_rendition(t: &mut Tree, from: Id, to: Id) -> Res<()> {
    match t
        .get(from, &REND)
        .filter(|r| !r.is_empty())
        .map(str::to_owned)
    {
        Some(rend) => t.set(to, &REND, &rend),
        None => Ok(()),
    }
}

/// `SubElement(parent, tag)`.
fn sub_element(t: &mut Tree, parent: Id, tag: Tag) -> Id {
    let id = t.new_element(tag);
    t.append(parent, id);
    id
}

/// `define_newelem`: a new child of `parent` with `processed`'s name, text, tail and kept
/// attributes, carrying its inline children with `keep_children`.
fn define_newelem(t: &mut Tree, processed: Option<Id>, parent: Id, keep_children: bool) -> Res<()> {
    let Some(processed) = processed else {
        return Ok(());
    };
    if !t.tag(processed).is_valid_xml_name() {
        // lxml refuses to create an element of a name the parser accepted (`<o:p>`, `<http:>`).
        return Err(NotXmlCompatible);
    }
    let child = sub_element(t, parent, t.tag(processed).clone());
    let (text, tail) = (
        t.text(processed).map(str::to_owned),
        t.tail(processed).map(str::to_owned),
    );
    t.set_text(child, text)?;
    t.set_tail(child, tail)?;
    copy_attrs(t, processed, child)?;
    if keep_children {
        for sub in t.child_list(processed) {
            if is_inline_carried(t.tag(sub)) || t.is(sub, &Tag::Lb) {
                define_newelem(t, Some(sub), child, true)?;
                for carried in t.iter_where(sub, |_| true) {
                    t.set_tag(carried, Tag::Done);
                }
            }
        }
    }
    Ok(())
}

/// `handle_titles`.
fn handle_titles(t: &mut Tree, id: Id, ctx: &mut Ctx) -> Res<Option<Id>> {
    let title = if !t.has_children(id) {
        process_node(t, id, ctx)?
    } else {
        let copy = t.deep_copy(id);
        t.strip_elements(copy, |tag| *tag == Tag::Done);
        for child in t.descendants_where(id, |_| true) {
            t.set_tag(child, Tag::Done);
        }
        Some(copy)
    };
    Ok(title.filter(|&title| is_text_element(t, Some(title))))
}

/// `handle_formatting`: formatting outside a paragraph is wrapped in one.
fn handle_formatting(t: &mut Tree, id: Id, ctx: &mut Ctx) -> Res<Option<Id>> {
    let Some(formatting) = process_node(t, id, ctx)? else {
        return Ok(None);
    };
    let parent = t.parent(id);
    if parent != NIL && is_formatting_protected(t.tag(parent)) {
        return Ok(Some(formatting));
    }
    let wrapper = t.new_element(Tag::P);
    t.append(wrapper, formatting);
    Ok(Some(wrapper))
}

/// `process_nested_elements`: rewires the descendants of `child` into `new`.
fn process_nested_elements(t: &mut Tree, child: Id, new: Id, ctx: &mut Ctx) -> Res<()> {
    let text = t.text(child).map(str::to_owned);
    t.set_text(new, text)?;
    let mut it = LxIter::new(t, child, false, |_| true);
    while let Some(sub) = it.next(t) {
        match t.tag(sub) {
            Tag::List => {
                let processed = handle_lists(t, sub, ctx)?;
                append_block(t, new, processed, sub)?;
            }
            Tag::P if t.has_children(sub) => {
                let processed = handle_paragraphs(t, sub, PotentialTags::QUOTE, ctx)?;
                append_block(t, new, processed, sub)?;
            }
            Tag::Graphic => append_block(t, new, None, sub)?,
            tag if is_inline_carried(tag) => define_newelem(t, Some(sub), new, true)?,
            _ => {
                if t.has_children(sub) && text_chars(t.tail(sub)) {
                    // The tail follows the children, which are appended after this element.
                    let last = t.last_child(sub);
                    let joined = format!(
                        "{}{}",
                        t.tail(last).unwrap_or(""),
                        t.tail(sub).unwrap_or("")
                    );
                    t.set_tail(last, Some(joined))?;
                    t.set_tail(sub, None)?;
                }
                let processed = handle_textnode(t, sub, ctx, false, false)?;
                define_newelem(t, processed, new, false)?;
            }
        }
        t.set_tag(sub, Tag::Done);
    }
    Ok(())
}

/// `_append_block`: a processed block with the source's tail, or the tail alone as text.
fn append_block(t: &mut Tree, parent: Id, processed: Option<Id>, source: Id) -> Res<()> {
    if let Some(processed) = processed {
        let tail = t.tail(source).map(str::to_owned);
        t.set_tail(processed, tail)?;
        t.append(parent, processed);
        return Ok(());
    }
    let Some(tail) = t
        .tail(source)
        .filter(|s| text_chars(Some(s)))
        .map(str::to_owned)
    else {
        return Ok(());
    };
    let last = t.last_child(parent);
    let before = if last == NIL {
        t.text(parent)
    } else {
        t.tail(last)
    }
    .unwrap_or("")
    .to_owned();
    let mut tail = tail;
    let before_ends_in_space = before
        .chars()
        .last()
        .is_some_and(crate::html::text::is_py_space);
    let tail_starts_with_space = tail
        .chars()
        .next()
        .is_some_and(crate::html::text::is_py_space);
    if !t.is(source, &Tag::Graphic)
        && (!before.is_empty() || last != NIL)
        && !before_ends_in_space
        && !tail_starts_with_space
    {
        tail.insert(0, ' ');
    }
    let joined = before + &tail;
    if last == NIL {
        t.set_text(parent, Some(joined))
    } else {
        t.set_tail(last, Some(joined))
    }
}

/// `handle_lists`.
fn handle_lists(t: &mut Tree, id: Id, ctx: &mut Ctx) -> Res<Option<Id>> {
    let processed = t.new_element(t.tag(id).clone());
    if text_chars(t.text(id)) {
        let item = sub_element(t, processed, Tag::Item);
        let text = t.text(id).map(str::to_owned);
        t.set_text(item, text)?;
    }
    let mut it = LxIter::new(t, id, false, |tag| *tag == Tag::Item);
    while let Some(child) = it.next(t) {
        // A nested list's first item was found before the recursive call renamed it.
        if t.is(child, &Tag::Done) {
            continue;
        }
        let new_item = t.new_element(Tag::Item);
        if !t.has_children(child) {
            if let Some(node) = process_node(t, child, ctx)? {
                let joined: Vec<&str> = [t.text(node), t.tail(node)]
                    .into_iter()
                    .flatten()
                    .filter(|s| !s.is_empty())
                    .collect();
                let joined = joined.join(" ");
                t.set_text(new_item, Some(joined))?;
            }
        } else {
            process_nested_elements(t, child, new_item, ctx)?;
            if text_chars(t.tail(child)) && t.has_children(new_item) {
                let last = t.last_child(new_item);
                let child_tail = t.tail(child).unwrap_or("").to_owned();
                let tail = if text_chars(t.tail(last)) {
                    format!("{} {child_tail}", t.tail(last).unwrap_or(""))
                } else {
                    child_tail
                };
                t.set_tail(last, Some(tail))?;
            }
        }
        if is_text_element(t, Some(new_item)) || t.has_descendant(new_item, &Tag::Graphic) {
            copy_rendition(t, child, new_item)?;
            t.append(processed, new_item);
        }
        t.set_tag(child, Tag::Done);
    }
    t.set_tag(id, Tag::Done);
    if is_text_element(t, Some(processed)) {
        copy_rendition(t, id, processed)?;
        return Ok(Some(processed));
    }
    Ok(None)
}

/// `is_code_block_element`.
fn is_code_block_element(t: &Tree, id: Id) -> bool {
    if t.get(id, &LANG).is_some_and(|l| !l.is_empty()) || t.is(id, &Tag::Code) {
        return true;
    }
    let parent = t.parent(id);
    if parent != NIL && t.get_or_empty(parent, &CLASS).contains("highlight") {
        return true;
    }
    let code = t.children(id).find(|&c| t.is(c, &Tag::Code));
    code.is_some_and(|code| {
        t.len(id) == 1
            && strip(t.text(id).unwrap_or("")).is_empty()
            && strip(t.tail(code).unwrap_or("")).is_empty()
    })
}

/// `handle_code_blocks`: a copy of the whole element as `code`, the source consumed.
fn handle_code_blocks(t: &mut Tree, id: Id) -> Id {
    let copy = t.deep_copy(id);
    for child in t.iter_where(id, |_| true) {
        t.set_tag(child, Tag::Done);
    }
    t.set_tag(copy, Tag::Code);
    copy
}

/// `handle_quotes`.
fn handle_quotes(t: &mut Tree, id: Id, ctx: &mut Ctx) -> Res<Option<Id>> {
    if is_code_block_element(t, id) {
        return Ok(Some(handle_code_blocks(t, id)));
    }
    let processed = t.new_element(t.tag(id).clone());
    process_nested_elements(t, id, processed, ctx)?;
    if is_text_element(t, Some(processed)) {
        t.strip_tags(processed, |tag| *tag == Tag::Quote);
        return Ok(Some(processed));
    }
    Ok(None)
}

/// `handle_other_elements`: a `div` becomes a paragraph when `div` is a potential tag.
fn handle_other_elements(
    t: &mut Tree,
    id: Id,
    potential: PotentialTags,
    ctx: &mut Ctx,
) -> Res<Option<Id>> {
    if t.is(id, &Tag::Div) && t.get_or_empty(id, &CLASS).contains("w3-code") {
        return Ok(Some(handle_code_blocks(t, id)));
    }
    if !t.is(id, &Tag::Div) || !potential.div {
        return Ok(None);
    }
    let Some(processed) = handle_textnode(t, id, ctx, false, true)? else {
        return Ok(None);
    };
    if !text_chars(t.text(processed)) {
        return Ok(None);
    }
    t.clear_attrs(processed);
    t.set_tag(processed, Tag::P);
    Ok(Some(processed))
}

/// `handle_paragraphs`.
fn handle_paragraphs(
    t: &mut Tree,
    id: Id,
    potential: PotentialTags,
    ctx: &mut Ctx,
) -> Res<Option<Id>> {
    if !t.has_children(id) {
        return process_node(t, id, ctx);
    }
    let processed = t.new_element(t.tag(id).clone());
    t.strip_tags(id, |tag| !potential.contains(tag) && *tag != Tag::Done);
    let mut it = LxIter::new(t, id, true, |_| true);
    while let Some(child) = it.next(t) {
        if let Some(processed_child) = handle_textnode(t, child, ctx, false, true)? {
            if t.is(processed_child, &Tag::P) {
                let joined: Vec<&str> = [t.text(processed), t.text(processed_child)]
                    .into_iter()
                    .flatten()
                    .filter(|s| !s.is_empty())
                    .collect();
                let joined = joined.join(" ");
                t.set_text(processed, Some(joined))?;
                t.set_tag(child, Tag::Done);
                continue;
            }
            let newsub = t.new_element(t.tag(child).clone());
            if is_inline_consuming(t.tag(processed_child)) {
                if wraps_inline(t, processed_child) {
                    define_newelem(t, Some(processed_child), processed, true)?;
                    t.set_tag(child, Tag::Done);
                    continue;
                }
                for item in t.child_list(processed_child) {
                    if t.is(item, &Tag::Lb) && t.has_tail(item) {
                        let tail = format!(
                            " {}",
                            t.tail(item)
                                .unwrap_or("")
                                .trim_start_matches(crate::html::text::is_py_space)
                        );
                        t.set_tail(item, Some(tail))?;
                    } else if text_chars(t.text(item)) {
                        let text = format!(" {}", t.text(item).unwrap_or(""));
                        t.set_text(item, Some(text))?;
                    }
                }
                // By the names of the children, wherever those names are below.
                let names: Vec<Tag> = t
                    .children(processed_child)
                    .map(|c| t.tag(c).clone())
                    .collect();
                t.strip_tags(processed_child, |tag| names.contains(tag));
                copy_attrs(t, child, newsub)?;
            }
            let (text, tail) = (
                t.text(processed_child).map(str::to_owned),
                t.tail(processed_child).map(str::to_owned),
            );
            t.set_text(newsub, text)?;
            t.set_tail(newsub, tail)?;
            t.append(processed, newsub);
        }
        t.set_tag(child, Tag::Done);
    }
    if t.has_children(processed) {
        let last = t.last_child(processed);
        if t.is(last, &Tag::Lb) && t.tail(last).is_none() {
            t.delete_element(last, true)?;
        }
        return Ok(Some(processed));
    }
    if text_chars(t.text(processed)) {
        return Ok(Some(processed));
    }
    Ok(None)
}

/// `_span`: a cell's `colspan` or `rowspan`, 1 unless it is a decimal number, at most 100.
fn span(t: &Tree, cell: Id, name: &html5ever::LocalName) -> usize {
    let value = t.get(cell, name).unwrap_or("1");
    // `str.isdecimal()` then `int()`; digits of other scripts (rare in an attribute) count as 1.
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return 1;
    }
    value
        .bytes()
        .try_fold(0usize, |n, b| {
            n.checked_mul(10)?.checked_add(usize::from(b - b'0'))
        })
        .unwrap_or(usize::MAX)
        .min(MAX_SPAN)
}

/// `define_cell_type`.
fn new_cell(t: &mut Tree, header: bool) -> Res<Id> {
    let cell = t.new_element(Tag::Cell);
    if header {
        t.set(cell, &ROLE, "head")?;
    }
    Ok(cell)
}

/// `_flush_rowspan_phantoms`.
fn flush_rowspan(
    t: &mut Tree,
    rowspans: &mut std::collections::HashMap<usize, usize>,
    row: Id,
) -> Res<()> {
    loop {
        let col = t.len(row);
        let Some(left) = rowspans.get_mut(&col) else {
            return Ok(());
        };
        *left -= 1;
        if *left == 0 {
            rowspans.remove(&col);
        }
        let cell = new_cell(t, false)?;
        t.append(row, cell);
    }
}

/// `_finalize_row`.
fn finalize_row(
    t: &mut Tree,
    table: Id,
    row: Id,
    rowspans: &mut std::collections::HashMap<usize, usize>,
    max_cols: usize,
) -> Res<()> {
    flush_rowspan(t, rowspans, row)?;
    let mut len = t.len(row);
    while len < max_cols {
        let cell = new_cell(t, false)?;
        t.append(row, cell);
        len += 1;
    }
    if t.children(row).any(|c| t.has_text(c) || t.has_children(c)) {
        t.append(table, row);
    }
    Ok(())
}

/// `_fill_cell`.
fn fill_cell(
    t: &mut Tree,
    new: Id,
    cell: Id,
    nested: &HashSet<Id>,
    with_div: PotentialTags,
    ctx: &mut Ctx,
) -> Res<()> {
    if !t.has_children(cell) {
        if let Some(processed) = process_node(t, cell, ctx)? {
            let (text, tail) = (
                t.text(processed).map(str::to_owned),
                t.tail(processed).map(str::to_owned),
            );
            t.set_text(new, text)?;
            t.set_tail(new, tail)?;
        }
        return Ok(());
    }
    let (text, tail) = (
        t.text(cell).map(str::to_owned),
        t.tail(cell).map(str::to_owned),
    );
    t.set_text(new, text)?;
    t.set_tail(new, tail)?;
    t.set_tag(cell, Tag::Done);
    let mut it = LxIter::new(t, cell, false, |_| true);
    while let Some(child) = it.next(t) {
        if t.is(child, &Tag::Done) {
            continue;
        }
        if nested.contains(&child) {
            // Nested tables are left to the main loop; their tail goes to the cell holding them.
            if t.is(child, &Tag::Table) {
                let outer = t.ancestors(child).find(|&a| t.is(a, &Tag::Table));
                if outer.is_some_and(|o| !nested.contains(&o)) {
                    append_block(t, new, None, child)?;
                    t.set_tail(child, None)?;
                }
            }
            continue;
        }
        if separates_inline(t, child) && !text_chars(t.tail(child)) {
            let lb = t.new_element(Tag::Lb);
            t.append(new, lb);
            t.set_tag(child, Tag::Done);
            continue;
        }
        let processed = match t.tag(child) {
            Tag::Td | Tag::Th => {
                t.set_tag(child, Tag::Cell);
                handle_textnode(t, child, ctx, true, true)?
            }
            tag if is_inline_consuming(tag) => {
                let processed = handle_textnode(t, child, ctx, true, true)?;
                if processed.is_none() && t.has_children(child) {
                    Some(child)
                } else {
                    processed
                }
            }
            Tag::List => {
                let list = handle_lists(t, child, ctx)?;
                let list = list.filter(|_| ctx.focus() == Focus::Recall);
                append_block(t, new, list, child)?;
                continue;
            }
            _ => handle_textelem(t, child, with_div, ctx)?,
        };
        define_newelem(t, processed, new, true)?;
        t.set_tag(child, Tag::Done);
    }
    Ok(())
}

/// `handle_table`.
fn handle_table(
    t: &mut Tree,
    table: Id,
    potential: PotentialTags,
    ctx: &mut Ctx,
) -> Res<Option<Id>> {
    let new_table = t.new_element(Tag::Table);
    let with_div = potential.with_div();
    t.strip_tags(table, |tag| {
        matches!(tag, Tag::Thead | Tag::Tbody | Tag::Tfoot)
    });
    let mut nested = HashSet::new();
    for inner in t.descendants_where(table, |tag| *tag == Tag::Table) {
        nested.extend(t.iter_where(inner, |_| true));
    }
    let mut rows: Vec<Vec<Id>> = vec![Vec::new()];
    let mut captions = Vec::new();
    let mut max_cols = 0;
    for elem in t.child_list(table) {
        match t.tag(elem) {
            Tag::Tr => {
                let cells: Vec<Id> = t
                    .children(elem)
                    .filter(|&c| matches!(t.tag(c), Tag::Td | Tag::Th))
                    .collect();
                max_cols = max_cols.max(cells.iter().map(|&c| span(t, c, &COLSPAN)).sum());
                rows.push(cells);
            }
            Tag::Td | Tag::Th => {
                if let Some(last) = rows.last_mut() {
                    last.push(elem);
                }
                continue;
            }
            Tag::Caption => {
                captions.push(strip(&t.join_text(elem, " ")).to_owned());
                for sub in t.descendants_where(elem, |_| true) {
                    if t.is(sub, &Tag::Graphic) {
                        t.set_tail(sub, None)?;
                    } else {
                        t.set_tag(sub, Tag::Done);
                    }
                }
            }
            Tag::Table => continue,
            _ => {}
        }
        t.set_tag(elem, Tag::Done);
    }
    let max_cols = max_cols.min(MAX_SPAN);
    let mut rowspans = std::collections::HashMap::new();
    for caption in captions.into_iter().filter(|c| !c.is_empty()) {
        let cell = new_cell(t, true)?;
        t.set_text(cell, Some(caption))?;
        let row = t.new_element(Tag::Row);
        t.append(row, cell);
        finalize_row(
            t,
            new_table,
            row,
            &mut std::collections::HashMap::new(),
            max_cols,
        )?;
    }
    let mut header_row_emitted = false;
    for cells in rows {
        let row = t.new_element(Tag::Row);
        let mut row_has_th = false;
        for cell in cells {
            let is_header = t.is(cell, &Tag::Th) && !header_row_emitted;
            row_has_th |= is_header;
            flush_rowspan(t, &mut rowspans, row)?;
            let new = new_cell(t, is_header)?;
            let colspan = span(t, cell, &COLSPAN);
            let rowspan = span(t, cell, &ROWSPAN);
            if rowspan > 1 {
                let len = t.len(row);
                for c in len..len + colspan {
                    rowspans.insert(c, rowspan - 1);
                }
            }
            fill_cell(t, new, cell, &nested, with_div, ctx)?;
            t.append(row, new);
            for _ in 1..colspan {
                let pad = new_cell(t, is_header)?;
                t.append(row, pad);
            }
            t.set_tag(cell, Tag::Done);
        }
        finalize_row(t, new_table, row, &mut rowspans, max_cols)?;
        header_row_emitted |= row_has_th;
    }
    Ok(t.has_children(new_table).then_some(new_table))
}

/// `handle_textelem`: one element of a frame, by kind.
pub fn handle_textelem(
    t: &mut Tree,
    id: Id,
    potential: PotentialTags,
    ctx: &mut Ctx,
) -> Res<Option<Id>> {
    match t.tag(id) {
        Tag::List => handle_lists(t, id, ctx),
        Tag::Code | Tag::Quote => handle_quotes(t, id, ctx),
        Tag::Head => handle_titles(t, id, ctx),
        Tag::P => handle_paragraphs(t, id, potential, ctx),
        Tag::Lb => {
            if !text_chars(t.tail(id)) {
                return Ok(None);
            }
            let Some(node) = process_node(t, id, ctx)? else {
                return Ok(None);
            };
            let p = t.new_element(Tag::P);
            let tail = t.tail(node).map(str::to_owned);
            t.set_text(p, tail)?;
            Ok(Some(p))
        }
        tag if is_inline_consuming(tag) => handle_formatting(t, id, ctx),
        Tag::Table if potential.tables => handle_table(t, id, potential, ctx),
        _ => handle_other_elements(t, id, potential, ctx),
    }
}
