//! `xml.xmltotxt`: the result body written as text, or as Markdown when formatting is kept
//! (`process_element` and the rewriting of a copy before it: math, escaping, emphasis).

use std::sync::LazyLock;

use super::pystr::{has_non_space, html_unescape, remove_control_characters, splitlines, strip};
use super::tag::Tag;
use super::tree::{Id, NIL, Res, Tree};
use super::xpaths::{REND, ROLE, TARGET};
use crate::html::text::is_py_space;

/// `NEWLINE_ELEMS`.
fn is_newline_elem(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Graphic
            | Tag::Head
            | Tag::Lb
            | Tag::List
            | Tag::P
            | Tag::Quote
            | Tag::Row
            | Tag::Table
    )
}

/// `SPECIAL_FORMATTING`.
fn is_special_formatting(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Code | Tag::Del | Tag::Head | Tag::Hi | Tag::Ref | Tag::Item | Tag::Cell
    )
}

/// `INLINE_FORMATTABLE`.
fn is_inline_formattable(tag: &Tag) -> bool {
    matches!(tag, Tag::Hi | Tag::Ref | Tag::Del | Tag::Code)
}

/// `INLINE_CARRIED`.
fn is_inline_carried(tag: &Tag) -> bool {
    is_inline_formattable(tag) || *tag == Tag::Graphic
}

/// `HI_FORMATTING`.
fn hi_marker(rend: &str) -> Option<&'static str> {
    match rend {
        "#b" => Some("**"),
        "#i" => Some("*"),
        "#t" => Some("`"),
        _ => None,
    }
}

/// `HI_HTML_TAGS`.
fn hi_html_tag(rend: &str) -> Option<&'static str> {
    match rend {
        "#sup" => Some("sup"),
        "#sub" => Some("sub"),
        "#u" => Some("u"),
        _ => None,
    }
}

/// The list of strings `process_element` builds, kept as one string and the last piece's last
/// character (`_last_char`: nothing after an empty piece).
#[derive(Default)]
struct Out {
    buf: String,
    last: Option<char>,
}

impl Out {
    fn push(&mut self, s: &str) {
        self.buf.push_str(s);
        self.last = s.chars().last();
    }

    /// `_last_char(...) in SEPARATORS`.
    fn after_separator(&self) -> bool {
        matches!(self.last, None | Some(' ' | '\n' | '|'))
    }

    /// `_append_spaced`.
    fn push_spaced(&mut self, text: &str) {
        let text = if text.starts_with(' ') && self.after_separator() {
            &text[1..]
        } else {
            text
        };
        if !text.is_empty() {
            self.push(text);
        }
    }
}

/// `_escape_cell`.
fn escape_cell(text: String, in_cell: bool) -> String {
    if in_cell {
        text.replace('|', "\\|").replace('\n', " ")
    } else {
        text
    }
}

/// `_code_fence`: the shortest run of backticks, at least `min_len`, longer than any in `text`.
fn code_fence(text: &str, min_len: usize) -> String {
    let mut fence = min_len;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            if run >= fence {
                fence = run + 1;
            }
        } else {
            run = 0;
        }
    }
    "`".repeat(fence)
}

/// `_code_span`.
fn code_span(text: &str) -> String {
    let fence = code_fence(text, 1);
    if text.starts_with('`') || text.ends_with('`') {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// `text` around its stripped core: (leading whitespace, core, trailing whitespace).
fn split_core(text: &str) -> (&str, &str, &str) {
    let core = strip(text);
    if core.is_empty() {
        return (text, "", "");
    }
    let start = text.len() - text.trim_start_matches(is_py_space).len();
    (&text[..start], core, &text[start + core.len()..])
}

/// `_md_wrap`.
fn md_wrap(text: &str, opening: &str, closing: &str) -> String {
    let (before, core, after) = split_core(text);
    if core.is_empty() {
        return text.to_owned();
    }
    format!("{before}{opening}{core}{closing}{after}")
}

/// `_md_code`.
fn md_code(text: &str) -> String {
    let (before, core, after) = split_core(text);
    if core.is_empty() {
        return text.to_owned();
    }
    format!("{before}{}{after}", code_span(core))
}

static UNESCAPED_BRACKET: LazyLock<fancy_regex::Regex> = LazyLock::new(|| {
    fancy_regex::Regex::new(r"(?s)((?<![\\`])(`+)(?!`).+?(?<!`)\2(?!`))|(?<!\\)([\[\]])")
        .expect("valid")
});

/// `_md_link`.
fn md_link(text: &str, url: Option<&str>) -> String {
    let mut esc = String::with_capacity(text.len() + 4);
    let mut last = 0;
    for m in UNESCAPED_BRACKET.captures_iter(text).flatten() {
        let whole = m.get(0).map_or(0..0, |g| g.range());
        esc.push_str(&text[last..whole.start]);
        match (m.get(1), m.get(3)) {
            (Some(code), _) => esc.push_str(code.as_str()),
            (None, Some(bracket)) => {
                esc.push('\\');
                esc.push_str(bracket.as_str());
            }
            _ => {}
        }
        last = whole.end;
    }
    esc.push_str(&text[last..]);
    let Some(url) = url else {
        return format!("[{esc}]");
    };
    if url.contains([' ', '<', '>', '(', ')']) {
        let inner = url
            .replace('\\', "\\\\")
            .replace('<', "\\<")
            .replace('>', "\\>");
        format!("[{esc}](<{inner}>)")
    } else {
        format!("[{esc}]({url})")
    }
}

/// `_escape_block_start`: a backslash before a leading heading, quote, bullet or number marker.
fn escape_block_start(text: &str) -> String {
    let spaces = text.bytes().take(3).take_while(|&b| b == b' ').count();
    let rest = &text[spaces..];
    // `(?=[ \t]|$)` after the marker, `$` also matching before a final line feed.
    let ends_marker =
        |after: &str| after.is_empty() || after.starts_with([' ', '\t']) || after == "\n";
    let hashes = rest.bytes().take_while(|&b| b == b'#').count();
    let at = if (1..=6).contains(&hashes) && ends_marker(&rest[hashes..]) {
        Some(spaces)
    } else if rest.starts_with('>') {
        Some(spaces)
    } else if rest.starts_with(['-', '+']) && ends_marker(&rest[1..]) {
        Some(spaces)
    } else {
        let digits: usize = rest
            .chars()
            .take_while(|&c| crate::unicode::DECIMAL_DIGIT.contains(c))
            .map(char::len_utf8)
            .sum();
        let count = rest[..digits].chars().count();
        let after = &rest[digits..];
        ((1..=9).contains(&count) && after.starts_with(['.', ')']) && ends_marker(&after[1..]))
            .then_some(spaces + digits)
    };
    match at {
        Some(pos) => format!("{}\\{}", &text[..pos], &text[pos..]),
        None => text.to_owned(),
    }
}

/// `_escape_inline_specials`: a backslash before each `* _ \` ~ [ ] <` (backslashes already in
/// front of one doubled), one character after the other.
fn escape_inline_specials(text: &str) -> String {
    const SPECIAL: [char; 7] = ['*', '_', '`', '~', '[', ']', '<'];
    if !text.contains(SPECIAL) {
        return text.to_owned();
    }
    let mut text = text.to_owned();
    for ch in SPECIAL {
        if !text.contains(ch) {
            continue;
        }
        let mut out = String::with_capacity(text.len() + 8);
        let mut backslashes = 0;
        for c in text.chars() {
            if c == '\\' {
                backslashes += 1;
                continue;
            }
            if c == ch {
                out.extend(std::iter::repeat_n('\\', 2 * backslashes + 1));
            } else {
                out.extend(std::iter::repeat_n('\\', backslashes));
            }
            backslashes = 0;
            out.push(c);
        }
        out.extend(std::iter::repeat_n('\\', backslashes));
        text = out;
    }
    text
}

static MATH_SPAN: LazyLock<fancy_regex::Regex> = LazyLock::new(|| {
    fancy_regex::Regex::new(r"((?s:(?<!\S)\\\[.+?\\\])|\\\(.+?\\\))").expect("valid")
});
static MATH_BLOCK: LazyLock<fancy_regex::Regex> =
    LazyLock::new(|| fancy_regex::Regex::new(r"(?s)(?<!\S)\\\[(.+?)\\\]").expect("valid"));
static MATH_INLINE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"\\\((.+?)\\\)").expect("valid"));

/// `_convert_math`.
fn convert_math(text: &str) -> String {
    let block = MATH_BLOCK.replace_all(text, |c: &fancy_regex::Captures<str>| {
        format!("\n$$\n{}\n$$\n", strip(c.get(1).map_or("", |g| g.as_str())))
    });
    MATH_INLINE.replace_all(&block, "$$$1$$").into_owned()
}

/// `_escape_and_convert_math`: prose escaped, formulas rewritten.
fn escape_and_convert_math(text: &str) -> String {
    if !text.contains('\\') {
        return escape_inline_specials(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in MATH_SPAN.find_iter(text).flatten() {
        out.push_str(&escape_inline_specials(&text[last..m.start()]));
        out.push_str(&convert_math(m.as_str()));
        last = m.end();
    }
    out.push_str(&escape_inline_specials(&text[last..]));
    out
}

fn is_code_like(t: &Tree, id: Id) -> bool {
    t.is(id, &Tag::Code)
        || (t.is(id, &Tag::Hi) && hi_marker(t.get_or_empty(id, &REND)) == Some("`"))
}

/// `_escape_and_convert_math_tree`.
fn escape_tree(t: &mut Tree, id: Id) -> Res<()> {
    if is_code_like(t, id) {
        return Ok(());
    }
    if let Some(text) = t.text(id).filter(|s| !s.is_empty()) {
        let text = escape_and_convert_math(text);
        t.set_text(id, Some(text))?;
    }
    for child in t.child_list(id) {
        escape_tree(t, child)?;
        if let Some(tail) = t.tail(child).filter(|s| !s.is_empty()) {
            let tail = escape_and_convert_math(tail);
            t.set_tail(child, Some(tail))?;
        }
    }
    Ok(())
}

/// `_collapse_emphasis`.
fn collapse_emphasis(t: &mut Tree, id: Id, active: &[&'static str]) -> Res<()> {
    let mut active = active.to_vec();
    if t.is(id, &Tag::Hi) {
        if let Some(here) = hi_marker(t.get_or_empty(id, &REND)) {
            active.push(here);
        }
        loop {
            let child = t.first_child(id);
            let collapses = strip(t.text(id).unwrap_or("")).is_empty()
                && child != NIL
                && t.next(child) == NIL
                && t.is(child, &Tag::Hi)
                && strip(t.tail(child).unwrap_or("")).is_empty()
                && hi_marker(t.get_or_empty(child, &REND)).is_some_and(|m| active.contains(&m));
            if !collapses {
                break;
            }
            let text = format!(
                "{}{}",
                t.text(id).unwrap_or(""),
                t.text(child).unwrap_or("")
            );
            t.set_text(id, Some(text))?;
            for grandchild in t.child_list(child) {
                t.append(id, grandchild);
            }
            t.detach(child);
        }
    }
    for child in t.child_list(id) {
        collapse_emphasis(t, child, &active)?;
    }
    Ok(())
}

/// `_merge_adjacent_hi`.
fn merge_adjacent_hi(t: &mut Tree, id: Id) -> Res<()> {
    for child in t.child_list(id) {
        merge_adjacent_hi(t, child)?;
    }
    let children = t.child_list(id);
    for i in (0..children.len().saturating_sub(1)).rev() {
        let (curr, next) = (children[i], children[i + 1]);
        let rend = t.get(curr, &REND);
        let mergeable = t.is(curr, &Tag::Hi)
            && t.is(next, &Tag::Hi)
            && rend == t.get(next, &REND)
            && matches!(rend, Some("#b" | "#i" | "#t" | "#u"))
            && !t.has_children(curr)
            && !t.has_children(next)
            && strip(t.tail(curr).unwrap_or("")).is_empty();
        if mergeable {
            let text = format!(
                "{}{}{}",
                t.text(curr).unwrap_or(""),
                t.tail(curr).unwrap_or(""),
                t.text(next).unwrap_or("")
            );
            t.set_text(curr, Some(text))?;
            let tail = t.tail(next).map(str::to_owned);
            t.set_tail(curr, tail)?;
            t.detach(next);
        }
    }
    Ok(())
}

/// `_strip_block_whitespace`.
fn strip_block_whitespace(t: &mut Tree, id: Id) -> Res<()> {
    for p in t.iter_where(id, |tag| matches!(tag, Tag::P | Tag::Quote | Tag::Head)) {
        let has_children = t.has_children(p);
        if let Some(text) = t.text(p).filter(|s| !s.is_empty()) {
            let text = if has_children {
                text.trim_start_matches(is_py_space)
            } else {
                strip(text)
            }
            .to_owned();
            t.set_text(p, Some(text))?;
        }
        let last = t.last_child(p);
        if last != NIL
            && let Some(tail) = t.tail(last).filter(|s| !s.is_empty())
        {
            let tail = tail.trim_end_matches(is_py_space).to_owned();
            t.set_tail(last, Some(tail))?;
        }
    }
    Ok(())
}

struct Writer<'t> {
    t: &'t mut Tree,
    formatting: bool,
    out: Out,
}

impl Writer<'_> {
    /// `_heading_prefix`.
    fn heading_prefix(&self, id: Id) -> String {
        let rend = self.t.get_or_empty(id, &REND);
        let level = rend
            .chars()
            .nth(1)
            .filter(|c| ('1'..='6').contains(c))
            .and_then(|c| c.to_digit(10))
            .unwrap_or(2);
        "#".repeat(level as usize)
    }

    /// `_list_marker`.
    fn list_marker(&self, item: Id, formatting: bool) -> String {
        let t = &*self.t;
        let lists = t.ancestors(item).filter(|&a| t.is(a, &Tag::List)).count();
        let indent = "  ".repeat(lists.saturating_sub(1));
        let parent = t.parent(item);
        if formatting && parent != NIL && t.get(parent, &REND) == Some("ol") {
            let mut n = 1;
            let mut sibling = t.prev(item);
            while sibling != NIL {
                n += usize::from(t.is(sibling, &Tag::Item));
                sibling = t.prev(sibling);
            }
            return format!("{indent}{n}. ");
        }
        format!("{indent}- ")
    }

    /// `_collect_inline_text`.
    fn collect_inline_text(&mut self, id: Id) -> Res<String> {
        let mut out = self.t.text(id).unwrap_or("").to_owned();
        for child in self.t.child_list(id) {
            if self.t.is(child, &Tag::Lb) {
                out.push('\n');
            } else if is_inline_formattable(self.t.tag(child)) {
                out.push_str(&self.replace_element_text(child, false)?);
            } else if let Some(text) = self.t.text(child) {
                out.push_str(text);
            }
            if let Some(tail) = self.t.tail(child) {
                out.push_str(tail);
            }
        }
        Ok(out)
    }

    /// `replace_element_text`.
    fn replace_element_text(&mut self, id: Id, in_cell: bool) -> Res<String> {
        let tag = self.t.tag(id).clone();
        let mut text = if consumes_inline_children(self.t, id) {
            self.collect_inline_text(id)?
        } else {
            self.t.text(id).unwrap_or("").to_owned()
        };
        if self.formatting
            && !text.is_empty()
            && !in_cell
            && matches!(tag, Tag::P | Tag::Quote | Tag::Item)
        {
            text = escape_block_start(&text);
        }
        if self.formatting && !text.is_empty() {
            match &tag {
                Tag::Article | Tag::List | Tag::Table => text = strip(&text).to_owned(),
                Tag::Head if !in_cell => text = format!("{} {text}", self.heading_prefix(id)),
                Tag::Head => {}
                Tag::Del => text = md_wrap(&text, "~~", "~~"),
                Tag::Hi => {
                    let rend = self.t.get_or_empty(id, &REND);
                    match hi_marker(rend) {
                        Some("`") => text = md_code(&text),
                        Some(marker) => text = md_wrap(&text, marker, marker),
                        None => {
                            if let Some(html) = hi_html_tag(rend) {
                                text = md_wrap(&text, &format!("<{html}>"), &format!("</{html}>"));
                            }
                        }
                    }
                }
                Tag::Code => {
                    let lbs = self.t.descendants_where(id, |tag| *tag == Tag::Lb);
                    if text.contains('\n') || !lbs.is_empty() {
                        for lb in lbs {
                            text.push('\n');
                            text.push_str(self.t.tail(lb).unwrap_or(""));
                            self.t.detach(lb);
                        }
                        let fence = code_fence(&text, 3);
                        text = format!("{fence}\n{text}\n{fence}\n");
                    } else {
                        text = md_code(&text);
                    }
                }
                _ => {}
            }
        }
        if tag == Tag::Ref {
            let core = strip(&text);
            if !core.is_empty() {
                let target = self.t.get(id, &TARGET).filter(|s| !s.is_empty());
                let link = md_link(core, target);
                text = text.replacen(core, &link, 1);
            }
        }
        if tag == Tag::Cell {
            text = strip(&text).to_owned();
            if !text.is_empty() && self.t.has_children(id) {
                text.push(' ');
            }
        }
        Ok(text)
    }

    /// `_append_tail`.
    fn append_tail(&mut self, id: Id, in_cell: bool, in_item: bool, formatting: bool) {
        let Some(tail) = self.t.tail(id).filter(|s| !s.is_empty()).map(str::to_owned) else {
            return;
        };
        let t = &*self.t;
        let tag = t.tag(id).clone();
        let parent = t.parent(id);
        if formatting
            && tag == Tag::List
            && in_item
            && !in_cell
            && parent != NIL
            && !strip(&tail).is_empty()
        {
            let indent = " ".repeat(self.list_marker(parent, true).chars().count());
            self.out
                .push(&format!("\u{2424}\n{indent}{}", strip(&tail)));
            return;
        }
        if in_cell || in_item || tag == Tag::List {
            let mut core = strip(&tail).to_owned();
            let starts_space = tail.chars().next().is_some_and(is_py_space);
            if !core.is_empty() && (starts_space || !is_inline_formattable(&tag)) {
                core.insert(0, ' ');
            }
            let next = t.next(id);
            if tail.chars().last().is_some_and(is_py_space)
                && next != NIL
                && is_inline_carried(t.tag(next))
            {
                core.push(' ');
            }
            self.out.push_spaced(&escape_cell(core, in_cell));
            return;
        }
        if is_newline_elem(&tag) {
            self.out.push(tail.trim_start_matches(is_py_space));
        } else {
            self.out.push(&tail);
        }
    }

    /// `process_element`.
    fn process(&mut self, id: Id, in_cell: bool, in_item: bool) -> Res<()> {
        let tag = self.t.tag(id).clone();
        let in_cell = in_cell || tag == Tag::Cell;
        let in_item = in_item || tag == Tag::Item;
        if tag == Tag::Cell && self.t.prev(id) == NIL {
            self.out.push("| ");
        }
        let first = self.t.first_child(id);
        if is_newline_elem(&tag) && !in_cell && !in_item && !self.out.after_separator() {
            self.out.push("\n");
        } else if matches!(tag, Tag::Head | Tag::P | Tag::Quote | Tag::Table)
            && !self.out.last.is_some_and(is_py_space)
            && !self.out.after_separator()
            && (self.t.has_text(id) || first == NIL || !self.t.is(first, &Tag::Lb))
        {
            self.out.push(" ");
        }
        let consumes_children = consumes_inline_children(self.t, id);
        let renders_inline = self.t.has_text(id) || consumes_children;
        if tag == Tag::Item && !in_cell && item_needs_marker(self.t, id) {
            let marker = self.list_marker(id, self.formatting);
            self.out.push(&marker);
        }
        if renders_inline
            && (tag != Tag::Item || consumes_children || has_non_space(self.t.text(id)))
        {
            let text = self.replace_element_text(id, in_cell)?;
            self.out.push(&escape_cell(text, in_cell));
        } else if self.formatting && tag == Tag::Head && !in_cell && self.t.has_children(id) {
            let prefix = format!("{} ", self.heading_prefix(id));
            self.out.push(&prefix);
        }
        if tag == Tag::List && in_item && !matches!(self.out.last, None | Some('\n')) {
            self.out.push("\n");
        }
        if !consumes_children {
            for child in self.t.child_list(id) {
                self.process(child, in_cell, in_item)?;
            }
        }
        if !renders_inline {
            if is_newline_elem(&tag) {
                if tag == Tag::Row {
                    let cells: Vec<Id> = self
                        .t
                        .children(id)
                        .filter(|&c| self.t.is(c, &Tag::Cell))
                        .collect();
                    if cells.iter().any(|&c| self.t.get(c, &ROLE) == Some("head")) {
                        let line = format!("\n|{}\n", "---|".repeat(cells.len()));
                        self.out.push(&line);
                    }
                } else if !in_cell && !(tag == Tag::Lb && in_item && opens_item(self.t, id)) {
                    self.out.push("\n");
                }
            } else if !matches!(tag, Tag::Cell | Tag::Item) {
                if in_cell {
                    self.append_tail(id, in_cell, in_item, false);
                }
                return Ok(());
            }
        }
        let last_in_item = in_item && closes_container(self.t, id, &Tag::Item);
        let last_in_cell = in_cell && closes_container(self.t, id, &Tag::Cell);
        if is_newline_elem(&tag) && !in_cell && !in_item {
            self.out.push(if self.formatting && tag != Tag::Row {
                "\n\u{2424}\n"
            } else {
                "\n"
            });
        } else if tag == Tag::Cell {
            self.out.push(" | ");
        } else if matches!(tag, Tag::Head | Tag::Item) && in_cell && !last_in_cell {
            self.out.push_spaced(" ");
        } else if !is_special_formatting(&tag) && !last_in_item && !last_in_cell {
            self.out.push_spaced(" ");
        }
        self.append_tail(id, in_cell, in_item, self.formatting);
        if last_in_item && !in_cell {
            self.out.push("\n");
        }
        Ok(())
    }
}

/// `_consumes_inline_children`.
fn consumes_inline_children(t: &Tree, id: Id) -> bool {
    matches!(t.tag(id), Tag::Hi | Tag::Ref | Tag::Del) && t.has_children(id)
}

/// `_closes_container`.
fn closes_container(t: &Tree, id: Id, container: &Tag) -> bool {
    if t.is(id, container) {
        return !t.has_children(id);
    }
    let next = t.next(id);
    next == NIL || (*container == Tag::Item && t.is(next, &Tag::Item))
}

/// `_opens_item`.
fn opens_item(t: &Tree, mut id: Id) -> bool {
    while !t.is(id, &Tag::Item) {
        let parent = t.parent(id);
        if parent == NIL || t.prev(id) != NIL || has_non_space(t.text(parent)) {
            return false;
        }
        id = parent;
    }
    true
}

/// `_item_needs_marker`.
fn item_needs_marker(t: &Tree, item: Id) -> bool {
    if has_non_space(t.text(item)) {
        return true;
    }
    for child in t.children(item) {
        if t.is(child, &Tag::List) {
            return false;
        }
        let mut text = t.join_text(child, "");
        text.push_str(t.tail(child).unwrap_or(""));
        if has_non_space(Some(&text))
            || t.is(child, &Tag::Graphic)
            || t.has_descendant(child, &Tag::Graphic)
        {
            return true;
        }
    }
    false
}

/// `sanitize(text, preserve_space=True)`: lines without control characters, empty ones dropped.
fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in splitlines(text) {
        let line = line
            .replace("&#13;", "\r")
            .replace("&#10;", "\n")
            .replace("&nbsp;", "\u{a0}");
        let line = remove_control_characters(&line);
        if line.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&line);
    }
    out.replace('\u{2424}', "")
}

/// `xmltotxt(body, include_formatting)`.
pub fn xmltotxt(t: &mut Tree, body: Id, formatting: bool) -> Res<String> {
    let body = if formatting {
        let copy = t.deep_copy(body);
        escape_tree(t, copy)?;
        collapse_emphasis(t, copy, &[])?;
        merge_adjacent_hi(t, copy)?;
        strip_block_whitespace(t, copy)?;
        copy
    } else {
        body
    };
    let mut writer = Writer {
        t,
        formatting,
        out: Out::default(),
    };
    writer.process(body, false, false)?;
    Ok(html_unescape(&sanitize(&writer.out.buf)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escapes_as_trafilatura() {
        assert_eq!(
            escape_inline_specials("a*b \\*c [d]"),
            "a\\*b \\\\\\*c \\[d\\]"
        );
        assert_eq!(escape_block_start("# title"), "\\# title");
        assert_eq!(escape_block_start("   12. x"), "   12\\. x");
        assert_eq!(escape_block_start("####### x"), "####### x");
        assert_eq!(escape_block_start("-x"), "-x");
        assert_eq!(escape_block_start("+"), "\\+");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`a"), "`` `a ``");
        assert_eq!(md_wrap("  bold ", "**", "**"), "  **bold** ");
        assert_eq!(
            md_link("a [b]", Some("http://x/(y)")),
            "[a \\[b\\]](<http://x/(y)>)"
        );
        assert_eq!(convert_math("\\(x^2\\)"), "$x^2$");
        assert_eq!(sanitize("a\n\n b\u{2424}\nc\u{ad}"), "a\n b\nc");
    }
}
