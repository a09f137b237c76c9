//! `htmlprocessing.py`: the tree's cleaning (`tree_cleaning`, `prune_html`), the conversion of
//! HTML names to trafilatura's (`convert_tags`), the link-density tests, and the two text
//! probes every handler calls (`handle_textnode`, `process_node`).

use std::sync::LazyLock;

use regex::Regex;

use std::collections::HashMap;

use super::pystr::{TrimStats, has_non_space, is_space, lines, trim};
use super::tag::Tag;
use super::tree::{Id, LxIter, NIL, Res, Tree};
use super::xpaths::{ALTTEXT, CLASS, DISPLAY, ENCODING, HREF, REND, ROLE, TARGET};
use super::{Ctx, Focus};

/// `MANUALLY_CLEANED` without `form` (forms are handled apart), in its order.
const CLEANED: [Tag; 50] = [
    Tag::Aside,
    Tag::Embed,
    Tag::Fencedframe,
    Tag::Footer,
    Tag::Head,
    Tag::Iframe,
    Tag::Menu,
    Tag::Object,
    Tag::Script,
    Tag::Applet,
    Tag::Audio,
    Tag::Canvas,
    Tag::Figure,
    Tag::Map,
    Tag::Picture,
    Tag::Svg,
    Tag::Video,
    Tag::Area,
    Tag::Blink,
    Tag::Button,
    Tag::Datalist,
    Tag::Dialog,
    Tag::Frame,
    Tag::Frameset,
    Tag::Fieldset,
    Tag::Link,
    Tag::Input,
    Tag::Label,
    Tag::Legend,
    Tag::Marquee,
    Tag::Math,
    Tag::Menuitem,
    Tag::Nav,
    Tag::Noindex,
    Tag::Noscript,
    Tag::Optgroup,
    Tag::Option,
    Tag::Output,
    Tag::Param,
    Tag::Progress,
    Tag::Rp,
    Tag::Rt,
    Tag::Rtc,
    Tag::Select,
    Tag::Source,
    Tag::Style,
    Tag::Track,
    Tag::Textarea,
    Tag::Time,
    Tag::Use,
];

/// The elements `tree_cleaning` deletes, in order: `MANUALLY_CLEANED` less `form`, and the
/// table elements when tables are off.
fn cleaning_list(tables: bool) -> Vec<Tag> {
    let mut list: Vec<Tag> = CLEANED.to_vec();
    if !tables {
        list.extend([Tag::Table, Tag::Td, Tag::Th, Tag::Tr]);
    }
    list
}

/// `MANUALLY_STRIPPED`.
fn is_stripped(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Abbr
            | Tag::Acronym
            | Tag::Address
            | Tag::Bdi
            | Tag::Bdo
            | Tag::Big
            | Tag::Cite
            | Tag::Data
            | Tag::Dfn
            | Tag::Font
            | Tag::Hgroup
            | Tag::Img
            | Tag::Ins
            | Tag::Mark
            | Tag::Meta
            | Tag::Nobr
            | Tag::Ruby
            | Tag::Small
            | Tag::Tbody
            | Tag::Template
            | Tag::Tfoot
            | Tag::Thead
            | Tag::Wbr
    )
}

/// `CUT_EMPTY_ELEMS`.
fn is_cut_when_empty(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Article
            | Tag::B
            | Tag::Blockquote
            | Tag::Dd
            | Tag::Div
            | Tag::Dt
            | Tag::Em
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::I
            | Tag::Li
            | Tag::Main
            | Tag::P
            | Tag::Pre
            | Tag::Q
            | Tag::Section
            | Tag::Span
            | Tag::Strong
    )
}

/// `recover_math`: a formula's TeX source (its `annotation` with `encoding="application/x-tex"`,
/// else its `alttext`) is put before its tail, so it survives the deletion of `math`.
fn recover_math(t: &mut Tree, root: Id) -> Res<()> {
    for math in t.iter_where(root, |tag| *tag == Tag::Math) {
        let annotation = t.find_descendant(math, |t, id| {
            t.is(id, &Tag::Annotation) && t.get(id, &ENCODING) == Some("application/x-tex")
        });
        let latex = if annotation != NIL {
            trim(t.text(annotation).unwrap_or(""))
        } else {
            trim(t.get(math, &ALTTEXT).unwrap_or(""))
        };
        if latex.is_empty() {
            continue;
        }
        let (open, close) = if t.get(math, &DISPLAY) == Some("block") {
            ("\\[", "\\]")
        } else {
            ("\\(", "\\)")
        };
        let tail = format!("{open}{latex}{close}{}", t.tail(math).unwrap_or(""));
        t.set_tail(math, Some(tail))?;
    }
    Ok(())
}

/// `_handle_forms`: a form holding more than half of the page's text is a layout wrapper (kept
/// as a `div`); any other form is deleted.
fn handle_forms(t: &mut Tree, root: Id) -> Res<()> {
    let forms = t.iter_where(root, |tag| *tag == Tag::Form);
    if forms.is_empty() {
        return Ok(());
    }
    let total = t.text_content_len(root);
    for form in forms {
        if total > 0 && t.text_content_len(form) as f64 > total as f64 / 2.0 {
            t.set_tag(form, Tag::Div);
        } else {
            t.delete_element(form, true)?;
        }
    }
    Ok(())
}

/// `tree_cleaning`: returns the root of the cleaned tree (in recall mode, a copy taken before
/// the deletions when they would leave no paragraph).
pub fn tree_cleaning(t: &mut Tree, root: Id, ctx: &Ctx) -> Res<Id> {
    recover_math(t, root)?;
    let cleaning = cleaning_list(ctx.opts.include_tables);
    if ctx.opts.include_tables {
        let mut it = LxIter::new(t, root, true, |tag| matches!(tag, Tag::Figure | Tag::Table));
        while let Some(id) = it.next(t) {
            let layout = if t.is(id, &Tag::Figure) {
                t.has_descendant(id, &Tag::Table)
            } else {
                matches!(t.get(id, &ROLE), Some("presentation" | "none"))
            };
            if layout {
                t.set_tag(id, Tag::Div);
            }
        }
    }
    t.strip_tags(root, is_stripped);
    let mut backup = NIL;
    if ctx.focus() == Focus::Recall
        && t.has_descendant(root, &Tag::P)
        && t.iter_where(root, |tag| *tag == Tag::P)
            .into_iter()
            .all(|p| {
                // The nearest ancestor to be deleted, the root standing in when there is none.
                let nearest = t
                    .ancestors(p)
                    .find(|&a| cleaning.contains(t.tag(a)))
                    .unwrap_or(root);
                nearest != root
            })
    {
        backup = t.deep_copy(root);
    }
    delete_in_order(t, root, &cleaning)?;
    let root = if backup != NIL && !t.has_descendant(root, &Tag::P) {
        backup
    } else {
        root
    };
    handle_forms(t, root)?;
    prune_html(t, root, ctx.focus())?;
    Ok(root)
}

/// `for tag in tags: for element in tree.iter(tag): delete_element(element)`, in one walk of
/// the tree: the elements of each tag are found first, then deleted tag by tag in document order,
/// as lxml's walk reaches them. An element deleted while it holds another of its tag ends its
/// tag's walk there: lxml's iterator had already stepped into it and goes on in the detached
/// subtree, so the later elements of that tag stay.
fn delete_in_order(t: &mut Tree, root: Id, tags: &[Tag]) -> Res<()> {
    let mut found: Vec<Vec<Id>> = vec![Vec::new(); tags.len()];
    for id in t.iter_where(root, |tag| tags.contains(tag)) {
        if let Some(i) = tags.iter().position(|tag| t.is(id, tag)) {
            found[i].push(id);
        }
    }
    for (tag, elements) in tags.iter().zip(found) {
        for id in elements {
            // Inside an element deleted before: the walk of the tree does not reach it.
            if id != root && t.root_of(id) != root {
                continue;
            }
            let detached = t.parent(id) != NIL;
            t.delete_element(id, true)?;
            if detached && t.has_descendant(id, tag) {
                break;
            }
        }
    }
    Ok(())
}

/// `prune_html`: empty elements of `CUT_EMPTY_ELEMS` are deleted; in precision mode with their
/// tails.
pub fn prune_html(t: &mut Tree, root: Id, focus: Focus) -> Res<()> {
    let empty: Vec<Id> = t
        .descendants_where(root, is_cut_when_empty)
        .into_iter()
        .filter(|&id| t.text(id).is_none() && !t.has_children(id))
        .collect();
    for id in empty {
        t.delete_element(id, focus != Focus::Precision)?;
    }
    Ok(())
}

/// `REND_TAG_MAPPING`.
fn rendition(tag: &Tag) -> Option<&'static str> {
    Some(match tag {
        Tag::Em | Tag::I => "#i",
        Tag::B | Tag::Strong => "#b",
        Tag::U => "#u",
        Tag::Kbd | Tag::Samp | Tag::Tt | Tag::Var => "#t",
        Tag::Sub => "#sub",
        Tag::Sup => "#sup",
        _ => return None,
    })
}

/// The keys of `CONVERSIONS`.
fn is_converted(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Dl
            | Tag::Ol
            | Tag::Ul
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::Br
            | Tag::Hr
            | Tag::Blockquote
            | Tag::Pre
            | Tag::Q
            | Tag::Del
            | Tag::S
            | Tag::Strike
            | Tag::Details
    )
}

/// `convert_tags`: links, formatting, lists, headings, line breaks, quotes and code,
/// deletions and details become trafilatura's elements.
pub fn convert_tags(t: &mut Tree, root: Id, ctx: &Ctx) -> Res<()> {
    if !ctx.opts.include_links {
        let tables = ctx.opts.include_tables;
        let is_container = |tag: &Tag| {
            matches!(tag, Tag::Div | Tag::Li | Tag::P) || (tables && *tag == Tag::Table)
        };
        let mut it = LxIter::new(t, root, true, |tag| *tag == Tag::A);
        while let Some(a) = it.next(t) {
            let nearest = t
                .ancestors(a)
                .find(|&p| is_container(t.tag(p)))
                .unwrap_or(root);
            if nearest != root {
                t.set_tag(a, Tag::Ref);
            }
        }
        t.strip_tags(root, |tag| *tag == Tag::A);
    } else {
        for a in t.iter_where(root, |tag| matches!(tag, Tag::A | Tag::Ref)) {
            t.set_tag(a, Tag::Ref);
            let target = t.get(a, &HREF).map(str::to_owned);
            t.clear_attrs(a);
            if let Some(target) = target.filter(|s| !s.is_empty()) {
                t.set(a, &TARGET, &target)?;
            }
        }
    }
    for strong in t.iter_where(root, |tag| *tag == Tag::Strong) {
        if t.get_or_empty(strong, &CLASS)
            .contains("schema-faq-question")
        {
            t.clear_attrs(strong);
            t.set(strong, &REND, "h3")?;
            t.set_tag(strong, Tag::Head);
        }
    }
    let mut it = LxIter::new(t, root, true, |tag| matches!(tag, Tag::Sub | Tag::Sup));
    while let Some(id) = it.next(t) {
        if !t.has_text(id) && !t.has_children(id) {
            t.delete_element(id, true)?;
        }
    }
    if ctx.formatting() {
        let mut it = LxIter::new(t, root, true, |tag| rendition(tag).is_some());
        while let Some(id) = it.next(t) {
            let rend = rendition(t.tag(id)).unwrap_or("#i");
            t.clear_attrs(id);
            t.set(id, &REND, rend)?;
            t.set_tag(id, Tag::Hi);
        }
    } else {
        t.strip_tags(root, |tag| rendition(tag).is_some());
    }
    let mut it = LxIter::new(t, root, true, is_converted);
    while let Some(id) = it.next(t) {
        convert(t, id)?;
    }
    Ok(())
}

fn convert(t: &mut Tree, id: Id) -> Res<()> {
    match t.tag(id).clone() {
        tag @ (Tag::Dl | Tag::Ol | Tag::Ul) => {
            t.set(id, &REND, tag.as_str())?;
            t.set_tag(id, Tag::List);
            let mut i = 1;
            for item in t.iter_where(id, |tag| matches!(tag, Tag::Dd | Tag::Dt | Tag::Li)) {
                let tag = t.tag(item).clone();
                if matches!(tag, Tag::Dd | Tag::Dt) {
                    t.set(item, &REND, &format!("{}-{i}", tag.as_str()))?;
                    if tag == Tag::Dd {
                        i += 1;
                    }
                }
                t.set_tag(item, Tag::Item);
            }
        }
        tag if tag.is_heading() => {
            t.clear_attrs(id);
            t.set(id, &REND, tag.as_str())?;
            t.set_tag(id, Tag::Head);
        }
        Tag::Br | Tag::Hr => t.set_tag(id, Tag::Lb),
        tag @ (Tag::Blockquote | Tag::Pre | Tag::Q) => {
            let hljs = if tag == Tag::Pre {
                t.descendants_matching(id, |t, s| {
                    t.is(s, &Tag::Span) && t.get_or_empty(s, &CLASS).starts_with("hljs")
                })
            } else {
                Vec::new()
            };
            for &span in &hljs {
                t.clear_attrs(span);
            }
            let first = t.first_child(id);
            let is_code = tag == Tag::Pre
                && ((first != NIL && t.next(first) == NIL && t.is(first, &Tag::Span))
                    || !hljs.is_empty()
                    || ["{", "(\"", "('", "\n    "]
                        .iter()
                        .any(|i| t.text(id).unwrap_or("").contains(i)));
            t.set_tag(id, if is_code { Tag::Code } else { Tag::Quote });
        }
        Tag::Del | Tag::S | Tag::Strike => {
            t.set_tag(id, Tag::Del);
            t.set(id, &REND, "overstrike")?;
        }
        Tag::Details => {
            t.set_tag(id, Tag::Div);
            for summary in t.iter_where(id, |tag| *tag == Tag::Summary) {
                t.set_tag(summary, Tag::Head);
            }
        }
        _ => {}
    }
    Ok(())
}

/// What the link-density tests read of an element, gathered for all elements of a subtree in
/// one walk ([`link_measures`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct LinkMeasures {
    /// The element's text (`trim(text_content())`).
    text: TrimStats,
    /// Its `ref` descendants, and of those (`collect_link_info`): the total trimmed length of
    /// their texts, how many are not empty, how many of those are shorter than 10.
    links: usize,
    link_len: usize,
    nonempty: usize,
    short: usize,
    /// A `graphic` descendant.
    graphic: bool,
    /// Links not alone in a `p` of their own (`is_paragraph_listing` holds when none is).
    outside_listing: usize,
    /// Its `ref` children.
    direct_links: usize,
}

/// The [`LinkMeasures`] of the elements under `root` (itself included) that `wanted` accepts.
/// An element's measures depend on its subtree only, so only the subtrees of the outermost
/// wanted elements are measured.
pub fn link_measures(
    t: &Tree,
    root: Id,
    wanted: impl Fn(&Tag) -> bool,
) -> HashMap<Id, LinkMeasures> {
    let mut out = HashMap::new();
    for top in t.outermost_where(root, &wanted) {
        measure_links(t, top, &wanted, &mut out);
    }
    out
}

/// [`link_measures`] of one subtree, added to `out`.
fn measure_links(
    t: &Tree,
    root: Id,
    wanted: &impl Fn(&Tag) -> bool,
    out: &mut HashMap<Id, LinkMeasures>,
) {
    t.fold_up(
        root,
        |id| LinkMeasures {
            text: t.text_stats(id, false),
            ..LinkMeasures::default()
        },
        |parent, child, m| {
            parent.text = parent.text.then(m.text).then(t.text_stats(child, true));
            parent.links += m.links;
            parent.link_len += m.link_len;
            parent.nonempty += m.nonempty;
            parent.short += m.short;
            parent.outside_listing += m.outside_listing + own_links_outside_listing(t, child, m);
            parent.graphic |= m.graphic || t.is(child, &Tag::Graphic);
            if t.is(child, &Tag::Ref) {
                let len = m.text.trimmed_len();
                parent.links += 1;
                parent.direct_links += 1;
                parent.link_len += len;
                parent.nonempty += usize::from(len > 0);
                parent.short += usize::from(len > 0 && len < 10);
            }
        },
        |id, m| {
            if wanted(t.tag(id)) {
                let mut m = *m;
                m.outside_listing += own_links_outside_listing(t, id, &m);
                out.insert(id, m);
            }
        },
    );
}

/// An element's link children are alone in a paragraph only if it is a `p` holding no other
/// link: how many of them are not.
fn own_links_outside_listing(t: &Tree, id: Id, m: &LinkMeasures) -> usize {
    if t.is(id, &Tag::P) && m.links <= 1 {
        0
    } else {
        m.direct_links
    }
}

/// `link_density_test` from the element's measures: (boilerplate, short with links).
fn link_density_test(t: &Tree, id: Id, m: &LinkMeasures, precision: bool) -> (bool, bool) {
    if m.links == 0 || m.graphic {
        return (false, false);
    }
    let text_len = m.text.trimmed_len();
    if m.links == 1 {
        let threshold = if precision { 10 } else { 100 };
        // The one link's length: the total of the lengths.
        let link_len = m.link_len;
        if link_len > threshold && link_len as f64 > text_len as f64 * 0.9 {
            return (true, false);
        }
    }
    let last = t.next(id) == NIL;
    let limit = match (t.is(id, &Tag::P), last) {
        (true, true) => 60,
        (true, false) => 30,
        (false, true) => 300,
        (false, false) => 100,
    };
    if text_len < limit {
        if m.nonempty == 0 {
            return (true, false);
        }
        let boilerplate = m.link_len as f64 > text_len as f64 * 0.8
            || (m.nonempty > 1 && m.short as f64 / m.nonempty as f64 > 0.8);
        return (boilerplate, true);
    }
    if m.links > 4
        && m.link_len as f64 > text_len as f64 * 0.9
        && m.link_len < 100 * m.nonempty
        && m.outside_listing > 0
    {
        return (true, false);
    }
    (false, false)
}

/// `link_density_test_tables`.
pub fn link_density_test_tables(m: &LinkMeasures) -> bool {
    if m.links == 0 {
        return false;
    }
    let len = m.text.trimmed_len();
    if len < 200 {
        return false;
    }
    if len < 1000 {
        m.link_len as f64 > 0.8 * len as f64
    } else {
        m.link_len as f64 > 0.5 * len as f64
    }
}

/// `delete_by_link_density`.
pub fn delete_by_link_density(
    t: &mut Tree,
    subtree: Id,
    tag: &Tag,
    backtracking: bool,
    precision: bool,
) -> Res<()> {
    let (len_threshold, depth_threshold) = if precision { (200, 1) } else { (100, 3) };
    let measures = link_measures(t, subtree, |name| name == tag);
    let mut deletions = Vec::new();
    for id in t.iter_where(subtree, |name| name == tag) {
        let Some(m) = measures.get(&id) else {
            continue;
        };
        let (boilerplate, short_with_links) = link_density_test(t, id, m, precision);
        if boilerplate
            || (backtracking
                && short_with_links
                && t.len(id) >= depth_threshold
                && m.text.trimmed_len() < len_threshold)
        {
            let parent = t.parent(id);
            if *tag == Tag::P
                && parent != NIL
                && matches!(t.tag(parent), Tag::Item | Tag::Td | Tag::Th)
            {
                continue;
            }
            deletions.push(id);
        }
    }
    for id in deletions {
        t.delete_element(id, true)?;
    }
    Ok(())
}

/// `RE_FILTER`: a line that is only a share or print button's label.
static RE_FILTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^[^\p{L}\p{N}_]*(?:Drucken|E-?Mail|Facebook|Flipboard|Google|Instagram|Linkedin|Mail|PDF|Pinterest|Pocket|Print|QQ|Reddit|Twitter|WeChat|WeiBo|Whatsapp|Xing|Mehr zum Thema:?|More on this.{0,8})$",
    )
    .expect("valid")
});

/// `textfilter`: the text (the tail when there is no text) is empty, blank, or has a line that is
/// a share button's label.
pub fn textfilter(t: &Tree, id: Id) -> bool {
    let test = match t.text(id) {
        None => t.tail(id),
        text => text,
    };
    match test {
        None | Some("") => true,
        Some(s) => is_space(s) || lines(s).any(|line| RE_FILTER.is_match(line)),
    }
}

/// `separates_inline`: a line break before inline content.
pub fn separates_inline(t: &Tree, id: Id) -> bool {
    let next = t.next(id);
    t.is(id, &Tag::Lb) && next != NIL && is_inline_carried(t.tag(next))
}

/// `INLINE_CARRIED`.
pub fn is_inline_carried(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Hi | Tag::Ref | Tag::Del | Tag::Code | Tag::Graphic
    )
}

/// `trim(s) or None`.
fn trimmed(s: Option<&str>) -> Option<String> {
    s.map(trim).filter(|s| !s.is_empty())
}

/// `duplicate_test` when de-duplication is on.
pub fn is_duplicate(t: &Tree, id: Id, ctx: &mut Ctx) -> bool {
    match ctx.cache.as_deref_mut() {
        Some(cache) => cache.is_duplicate(&t.trimmed_join(id, true)),
        None => false,
    }
}

/// `handle_textnode`: the probe used inside paragraphs, lists, tables and comments.
pub fn handle_textnode(
    t: &mut Tree,
    id: Id,
    ctx: &mut Ctx,
    comments_fix: bool,
    preserve_spaces: bool,
) -> Res<Option<Id>> {
    if t.is(id, &Tag::Done)
        || (!t.has_children(id)
            && !t.has_text(id)
            && !t.has_tail(id)
            && (comments_fix || !separates_inline(t, id)))
    {
        return Ok(None);
    }
    if !comments_fix && t.is(id, &Tag::Lb) {
        if !preserve_spaces {
            let tail = trimmed(t.tail(id));
            t.set_tail(id, tail)?;
        }
        return Ok(Some(id));
    }
    if !t.has_text(id) && !t.has_children(id) {
        let tail = t.take_tail(id);
        t.set_text_tendril(id, tail)?;
        t.set_tail(id, Some(String::new()))?;
        if comments_fix && t.is(id, &Tag::Lb) {
            t.set_tag(id, Tag::P);
        }
    }
    if !preserve_spaces {
        let text = trimmed(t.text(id));
        t.set_text(id, text)?;
        if t.has_tail(id) {
            let tail = trimmed(t.tail(id));
            t.set_tail(id, tail)?;
        }
    }
    if (!t.has_text(id) && textfilter(t, id)) || is_duplicate(t, id, ctx) {
        return Ok(None);
    }
    Ok(Some(id))
}

/// `process_node`: the lighter probe.
pub fn process_node(t: &mut Tree, id: Id, ctx: &mut Ctx) -> Res<Option<Id>> {
    if t.is(id, &Tag::Done) || (!t.has_children(id) && !t.has_text(id) && !t.has_tail(id)) {
        return Ok(None);
    }
    let (text, tail) = (trimmed(t.text(id)), trimmed(t.tail(id)));
    t.set_text(id, text)?;
    t.set_tail(id, tail)?;
    if !t.is(id, &Tag::Lb) && !t.has_text(id) && t.has_tail(id) && !t.has_children(id) {
        let tail = t.take_tail(id);
        t.set_text_tendril(id, tail)?;
    }
    if (t.has_text(id) || t.has_tail(id)) && (textfilter(t, id) || is_duplicate(t, id, ctx)) {
        return Ok(None);
    }
    Ok(Some(id))
}

/// Whether `text` has a character that is not whitespace (`text_chars_test`).
pub fn text_chars(text: Option<&str>) -> bool {
    has_non_space(text)
}
