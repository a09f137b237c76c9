//! `format=markdown`: the same segments as the text, with the structure they had in the page.
//!
//! The segmentation walk tells [`Context`] about every element it enters and leaves; each segment
//! records its [`Block`] (heading level, list item, table cell, code, quotation) and its text
//! as inline Markdown (links, bold and italics kept, the characters Markdown would read as
//! syntax escaped).
//! [`render`] writes the kept segments. Only the writing differs from `format=text`: the
//! choice of segments is the same, so both formats hold the same words.

use html5ever::local_name;

use crate::html::dom::{Element, NodeId};

/// A list item's marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    Bullet,
    Number(u32),
}

impl Marker {
    fn text(self) -> String {
        match self {
            Marker::Bullet => "- ".to_owned(),
            Marker::Number(n) => format!("{n}. "),
        }
    }
}

/// Where a table cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cell {
    pub table: NodeId,
    pub row: NodeId,
    pub cell: NodeId,
    /// The segment is the cell's own text, not that of a block inside it (a table whose
    /// cells hold paragraphs, lists or headings lays out a page and is not written as a table).
    pub direct: bool,
}

/// What a segment is in the page's structure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Block {
    /// 1–6 inside `<h1>`–`<h6>`, else 0.
    pub heading: u8,
    /// Columns of indentation of the list item's text (0 outside lists).
    pub indent: u32,
    /// The item's marker when the segment begins a list item; `None` outside lists and for the
    /// item's later segments.
    pub marker: Option<Marker>,
    pub in_list: bool,
    pub cell: Option<Cell>,
    pub pre: bool,
    /// Nesting of `<blockquote>`.
    pub quote: u32,
}

/// A list being walked.
struct List {
    ordered: bool,
    next_number: u32,
    /// Column of its items' markers.
    indent: u32,
}

/// The structure around the walk's position.
#[derive(Default)]
pub(super) struct Context {
    headings: Vec<u8>,
    lists: Vec<List>,
    /// Per open `<li>`: the column of its text, and whether its marker is still to be written.
    items: Vec<(u32, Option<Marker>)>,
    /// Open tables, rows and cells: (table, row, cell, the block element the cell's text is in).
    tables: Vec<(NodeId, NodeId, NodeId)>,
    pre: u32,
    quote: u32,
}

impl Context {
    /// Enters the element `id` (after the walk has ended the segment before it).
    pub fn enter(&mut self, id: NodeId, element: &Element) {
        match element.name {
            local_name!("h1") => self.headings.push(1),
            local_name!("h2") => self.headings.push(2),
            local_name!("h3") => self.headings.push(3),
            local_name!("h4") => self.headings.push(4),
            local_name!("h5") => self.headings.push(5),
            local_name!("h6") => self.headings.push(6),
            local_name!("ul") | local_name!("ol") => {
                // Past MAX_NESTING, a list's items stand at its parent list's level.
                let indent = if self.lists.len() >= MAX_NESTING {
                    self.lists.last().map_or(0, |l| l.indent)
                } else {
                    self.items.last().map_or(0, |&(column, _)| column)
                };
                self.lists.push(List {
                    ordered: element.name == local_name!("ol"),
                    next_number: 1,
                    indent,
                });
            }
            local_name!("li") => {
                let (marker, column) = match self.lists.last_mut() {
                    Some(list) => {
                        let marker = if list.ordered {
                            list.next_number = list.next_number.saturating_add(1);
                            Marker::Number(list.next_number - 1)
                        } else {
                            Marker::Bullet
                        };
                        (marker, list.indent + marker.text().len() as u32)
                    }
                    None => (Marker::Bullet, 2),
                };
                self.items.push((column, Some(marker)));
            }
            local_name!("table") => self.tables.push((id, NONE_ID, NONE_ID)),
            local_name!("tr") => {
                if let Some(t) = self.tables.last_mut() {
                    t.1 = id;
                    t.2 = NONE_ID;
                }
            }
            local_name!("td") | local_name!("th") => {
                if let Some(t) = self.tables.last_mut() {
                    t.2 = id;
                }
            }
            local_name!("pre") => self.pre += 1,
            local_name!("blockquote") => self.quote += 1,
            _ => {}
        }
    }

    /// Leaves the element (after the walk has ended the segment in it).
    pub fn leave(&mut self, element: &Element) {
        match element.name {
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                self.headings.pop();
            }
            local_name!("ul") | local_name!("ol") => {
                self.lists.pop();
            }
            local_name!("li") => {
                self.items.pop();
            }
            local_name!("table") => {
                self.tables.pop();
            }
            local_name!("td") | local_name!("th") => {
                if let Some(t) = self.tables.last_mut() {
                    t.2 = NONE_ID;
                }
            }
            local_name!("pre") => self.pre = self.pre.saturating_sub(1),
            local_name!("blockquote") => self.quote = self.quote.saturating_sub(1),
            _ => {}
        }
    }

    pub fn in_pre(&self) -> bool {
        self.pre > 0
    }

    /// Emphasis is not marked in code (it would be text) nor in headings (all of a heading is
    /// strong already).
    pub fn marks_emphasis(&self) -> bool {
        self.pre == 0 && self.headings.is_empty()
    }

    /// The block of a segment ending now in `container`; the first segment of a list item
    /// takes its marker.
    pub fn block(&mut self, container: NodeId) -> Block {
        let (indent, marker) = match self.items.last_mut() {
            Some((column, marker)) => (*column, marker.take()),
            None => (0, None),
        };
        let cell = self
            .tables
            .last()
            .filter(|t| t.2 != NONE_ID)
            .map(|&(table, row, cell)| Cell {
                table,
                row,
                cell,
                direct: container == cell,
            });
        Block {
            heading: self.headings.last().copied().unwrap_or(0),
            indent,
            marker,
            in_list: !self.items.is_empty(),
            cell,
            pre: self.pre > 0,
            quote: self.quote,
        }
    }
}

const NONE_ID: NodeId = crate::html::dom::NONE;

/// Lists and quotations deeper than this are written at this depth: each line repeats its
/// indentation or `> ` prefix, so a page of thousands of nested lists (within `max_depth`)
/// would otherwise give text quadratic in its size. The words stay the same.
const MAX_NESTING: usize = 8;

/// A segment's text as inline Markdown, gathered beside its plain text.
#[derive(Default)]
pub(super) struct Inline {
    pub text: String,
    /// The open link's target, and whether its `[` is written.
    link: Option<(Box<str>, bool)>,
    /// Links open: the HTML5 tree nests one in another when a block lies between them (a
    /// card's link around a paragraph with its own link); Markdown's do not nest, so the
    /// outermost holds.
    link_depth: u32,
    /// Position of an `&` just written, escaped if a character follows that would make it an
    /// entity.
    ampersand: Option<usize>,
    /// The outermost open `<strong>`/`<b>` or `<em>`/`<i>`, and how many are open.
    emphasis: Option<Emphasis>,
    emphasis_depth: u32,
    /// A closing marker written after punctuation, which CommonMark reads as a closing one only
    /// if a space, punctuation or the end follows: (opening marker's position, closing marker's
    /// position, marker length); both are taken out if a word character follows.
    closer_to_check: Option<(usize, usize, usize)>,
}

/// Bold (`**`) or italics (`*`) around part of a segment.
#[derive(Clone, Copy)]
struct Emphasis {
    marker: &'static str,
    /// It began inside the open link (its marker goes after the link's `[`).
    inside_link: bool,
    /// Where its opening marker is written (written before its first character, so that no
    /// space follows it); `None` until then.
    opened_at: Option<usize>,
    /// Its first character could not follow a marker that CommonMark reads as opening.
    unmarked: bool,
}

/// Characters CommonMark counts as punctuation for certain (its rule takes Unicode's
/// punctuation and symbols; the other characters that are not letters or digits are treated
/// as the uncertain case, in which no marker is written).
fn is_sure_punctuation(c: char) -> bool {
    c.is_ascii_punctuation()
}

impl Inline {
    /// A link begins; `href` is None for one without a usable target (text only).
    pub fn open_link(&mut self, href: Option<&str>) {
        self.link_depth += 1;
        if self.link_depth > 1 {
            return;
        }
        self.link = href
            .map(str::trim)
            .filter(|h| {
                !h.is_empty()
                    && !h.starts_with('#')
                    && !h.to_ascii_lowercase().starts_with("javascript:")
            })
            .map(|h| (h.into(), false));
    }

    /// A `<strong>`/`<b>` (`strong`) or `<em>`/`<i>` begins; only the outermost is marked.
    pub fn open_emphasis(&mut self, strong: bool) {
        self.emphasis_depth += 1;
        if self.emphasis_depth == 1 {
            self.emphasis = Some(Emphasis {
                marker: if strong { "**" } else { "*" },
                inside_link: self.link.is_some(),
                opened_at: None,
                unmarked: false,
            });
        }
    }

    pub fn close_emphasis(&mut self) {
        self.emphasis_depth = self.emphasis_depth.saturating_sub(1);
        if self.emphasis_depth == 0
            && let Some(emphasis) = self.emphasis.take()
        {
            self.write_closer(emphasis);
        }
    }

    fn write_closer(&mut self, emphasis: Emphasis) {
        let Some(opened_at) = emphasis.opened_at else {
            return;
        };
        let last = self.text.chars().next_back();
        let at = self.text.len();
        self.text.push_str(emphasis.marker);
        if !last.is_some_and(char::is_alphanumeric) {
            self.closer_to_check = Some((opened_at, at, emphasis.marker.len()));
        }
    }

    /// What follows a closing marker written after punctuation: `None` for the end, a space or
    /// punctuation keep both markers, anything else takes them out.
    fn check_closer(&mut self, next: Option<char>) {
        let Some((opened_at, closed_at, len)) = self.closer_to_check.take() else {
            return;
        };
        if next.is_none_or(|c| c.is_whitespace() || is_sure_punctuation(c)) {
            return;
        }
        self.text.replace_range(closed_at..closed_at + len, "");
        self.text.replace_range(opened_at..opened_at + len, "");
        if let Some(amp) = &mut self.ampersand {
            *amp = amp.saturating_sub(len);
        }
    }

    /// Writes the opening marker before the character `c` (written as `first`), if CommonMark
    /// would read it as opening there: a letter or digit follows it, or it follows a space,
    /// punctuation or the start; never right after a `*` (the runs would merge).
    fn write_opener(&mut self, emphasis: &mut Emphasis, first: char) {
        let before = self.text.chars().next_back();
        let opens = before != Some('*')
            && (first.is_alphanumeric()
                || before.is_none_or(|b| b.is_whitespace() || is_sure_punctuation(b)));
        if opens {
            emphasis.opened_at = Some(self.text.len());
            self.text.push_str(emphasis.marker);
        } else {
            emphasis.unmarked = true;
        }
    }

    /// Writes the link's `[` and the emphasis's opening marker that wait for a first
    /// character, in the order they were opened.
    fn write_openers(&mut self, c: char, escaped: bool) {
        let first = if escaped { '\\' } else { c };
        let emphasis_waits = self
            .emphasis
            .is_some_and(|e| e.opened_at.is_none() && !e.unmarked);
        let link_waits = matches!(self.link, Some((_, false)));
        let emphasis_first = emphasis_waits && !self.emphasis.is_some_and(|e| e.inside_link);
        if emphasis_first && let Some(mut emphasis) = self.emphasis {
            self.write_opener(&mut emphasis, if link_waits { '[' } else { first });
            self.emphasis = Some(emphasis);
        }
        if let Some((_, opened @ false)) = &mut self.link {
            *opened = true;
            // `![` would open an image.
            if self.text.ends_with('!') {
                self.text.insert(self.text.len() - 1, '\\');
            }
            self.text.push('[');
        }
        if emphasis_waits
            && !emphasis_first
            && let Some(mut emphasis) = self.emphasis
        {
            self.write_opener(&mut emphasis, first);
            self.emphasis = Some(emphasis);
        }
    }

    pub fn close_link(&mut self) {
        self.link_depth = self.link_depth.saturating_sub(1);
        if self.link_depth == 0 {
            self.end_link();
        }
    }

    /// Writes the open link's `](target)` if its `[` is written.
    fn end_link(&mut self) {
        if let Some((href, true)) = self.link.take() {
            self.check_closer(Some(']'));
            self.text.push_str("](");
            push_destination(&mut self.text, &href);
            self.text.push(')');
        }
    }

    /// A space between words.
    pub fn push_space(&mut self) {
        self.check_closer(Some(' '));
        self.text.push(' ');
        self.ampersand = None;
    }

    /// A visible character, escaped as Markdown needs (in code, as it is).
    pub fn push_char(&mut self, c: char, code: bool) {
        if code {
            self.text.push(c);
            return;
        }
        let escaped = matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~'
        );
        let link_waits = matches!(self.link, Some((_, false)));
        self.check_closer(Some(if link_waits { '[' } else { c }));
        if let Some(at) = self.ampersand.take()
            && (c.is_ascii_alphanumeric() || c == '#')
        {
            self.text.insert(at, '\\');
        }
        self.write_openers(c, escaped);
        if c == '&' {
            self.ampersand = Some(self.text.len());
        } else if escaped {
            self.text.push('\\');
        }
        self.text.push(c);
    }

    /// The segment ends: a link open across it is closed here and opens again in the next.
    pub fn take(&mut self) -> String {
        let emphasis = self.emphasis;
        let emphasis_inside = emphasis.is_some_and(|e| e.inside_link);
        if emphasis_inside && let Some(e) = emphasis {
            self.write_closer(e);
        }
        if let Some((href, true)) = &self.link {
            let href = href.clone();
            self.end_link();
            self.link = Some((href, false));
        }
        if !emphasis_inside && let Some(e) = emphasis {
            self.write_closer(e);
        }
        // The segment's end follows the closing marker; the emphasis goes on in the next.
        self.closer_to_check = None;
        self.emphasis = emphasis.map(|e| Emphasis {
            opened_at: None,
            unmarked: false,
            ..e
        });
        self.ampersand = None;
        std::mem::take(&mut self.text)
    }
}

/// A link target: `<...>` around one with spaces or brackets, which would end it; control
/// characters and backslashes percent-encoded (a backslash escapes the `>` or `)` after it), and
/// pipes too: a table splits its rows into cells at every `|` before it reads links.
fn push_destination(out: &mut String, href: &str) {
    let bracketed = href.contains([' ', '(', ')', '<', '>', '\n', '\t']);
    if bracketed {
        out.push('<');
    }
    for c in href.chars() {
        match c {
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\n' | '\t' => out.push_str("%20"),
            '\\' => out.push_str("%5C"),
            '|' => out.push_str("%7C"),
            // No form of destination may hold the other ASCII controls: the link would be text.
            c if c.is_ascii_control() => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    if bracketed {
        out.push('>');
    }
}

/// A kept segment to write.
pub(super) struct Piece<'a> {
    pub block: Block,
    pub markdown: &'a str,
}

/// The Markdown of the kept segments, in order.
pub(super) fn render(pieces: &[Piece]) -> String {
    let mut out = String::new();
    let mut lists = ListLines::default();
    let mut i = 0;
    while i < pieces.len() {
        let piece = &pieces[i];
        let block = piece.block;
        if let Some(cell) = block.cell.filter(|c| is_data_table(pieces, i, c.table)) {
            let end = table_end(pieces, i, cell.table);
            separate(&mut out, false);
            write_table(&mut out, &pieces[i..end], block.quote);
            lists.clear();
            i = end;
            continue;
        }
        let indent = lists.item_indent(block);
        let tight = lists
            .above(block)
            .is_some_and(|l| !l.interrupted_by(block, indent));
        if block.pre {
            separate(&mut out, false);
            write_code(&mut out, piece);
            lists.clear();
        } else if tight && block.marker.is_none() {
            // A later segment of the item goes on with its text.
            out.push(' ');
            out.push_str(piece.markdown);
        } else {
            separate(&mut out, tight);
            let column = write_block(&mut out, piece, indent);
            lists.wrote(block, indent, column);
        }
        i += 1;
    }
    out
}

/// The list lines written since the last block that was not one, as CommonMark reads them.
#[derive(Default)]
struct ListLines {
    /// The last line written, if it was a list line.
    last: Option<ListLine>,
    /// The items open after it, outermost first: the column the page gives the item's marker
    /// (it only orders the items) and the column its text is written at.
    open: Vec<(usize, usize)>,
}

impl ListLines {
    fn clear(&mut self) {
        self.last = None;
        self.open.clear();
    }

    /// The line just above `block`, if `block` goes on from it: a list line in the same quotation.
    fn above(&self, block: Block) -> Option<ListLine> {
        self.last
            .filter(|l| block.in_list && l.quote == block.quote)
    }

    /// The columns before the marker of the list item `block`: the text column of the innermost
    /// open item whose marker the page puts before this one's (0 for none, and for a block
    /// that begins no item). Written anywhere
    /// else, with its parent items' own text left out, an item could read as the text of the
    /// one above, or as code: CommonMark finds an item's container by the columns of the lines
    /// as written, and a line indented past a container's text by four or more is no item.
    fn item_indent(&self, block: Block) -> usize {
        if block.marker.is_none() || self.above(block).is_none() {
            return 0;
        }
        let page = page_marker_column(block);
        self.open
            .iter()
            .rev()
            .find(|&&(marker, _)| marker < page)
            .map_or(0, |&(_, text)| text)
    }

    /// Records the block just written with its marker `indent` columns in and its text at
    /// `column`.
    fn wrote(&mut self, block: Block, indent: usize, column: usize) {
        if !block.in_list {
            self.clear();
            return;
        }
        if self.above(block).is_none() || block.marker.is_none() {
            // An item's later paragraph is written at the margin, which ends every item.
            self.open.clear();
        }
        if block.marker.is_some() {
            let page = page_marker_column(block);
            self.open.retain(|&(marker, _)| marker < page);
            self.open.push((page, column));
        }
        self.last = Some(ListLine {
            quote: block.quote,
            indent,
            marker: block.marker,
        });
    }
}

/// A list item's line as written.
#[derive(Clone, Copy)]
struct ListLine {
    quote: u32,
    /// Columns before its marker.
    indent: usize,
    marker: Option<Marker>,
}

impl ListLine {
    /// Whether the item `block`, its marker written `indent` columns in on the next line, would
    /// be read as this line's text: an ordered list that does not start at 1 cannot interrupt
    /// a paragraph, so an item numbered past 1 that does not go on from this line's list (an
    /// ordered one, at the same indentation) needs a blank line before it.
    fn interrupted_by(&self, block: Block, indent: usize) -> bool {
        let Some(Marker::Number(n)) = block.marker else {
            return false;
        };
        n != 1 && !(matches!(self.marker, Some(Marker::Number(_))) && indent == self.indent)
    }
}

/// The column of the list item `block`'s marker in the page's own nesting of lists.
fn page_marker_column(block: Block) -> usize {
    let marker = block.marker.map_or(0, |m| m.text().len());
    (block.indent as usize).saturating_sub(marker)
}

/// Ends the block before: a line break inside a list, else a blank line.
fn separate(out: &mut String, tight: bool) {
    if !out.is_empty() {
        out.push_str(if tight { "\n" } else { "\n\n" });
    }
}

fn quote_prefix(quote: u32) -> String {
    "> ".repeat((quote as usize).min(MAX_NESTING))
}

/// Writes a block, a list item's marker `indent` columns in; returns the column of a list
/// item's text (0 for other blocks).
fn write_block(out: &mut String, piece: &Piece, indent: usize) -> usize {
    let block = piece.block;
    out.push_str(&quote_prefix(block.quote));
    if block.heading > 0 && !block.in_list {
        out.push_str(&"#".repeat(block.heading as usize));
        out.push(' ');
        // A closing run of `#` after a space would be read as the heading's closing sequence.
        let text = piece.markdown;
        let kept = text.trim_end_matches('#');
        if kept.len() < text.len() && (kept.is_empty() || kept.ends_with(' ')) {
            out.push_str(kept);
            out.push('\\');
            out.push_str(&text[kept.len()..]);
        } else {
            out.push_str(text);
        }
        return 0;
    }
    // An item's later text after what ended the list's lines (a code block, or the item's
    // first text left out) is a paragraph of its own: indented, it could read as code.
    let mut column = 0;
    if let Some(marker) = block.marker.filter(|_| block.in_list) {
        let marker = marker.text();
        out.push_str(&" ".repeat(indent));
        out.push_str(&marker);
        column = indent + marker.len();
    }
    push_line_start_safe(out, piece.markdown);
    column
}

/// Text at the start of a line, with what would make it a heading, a list item, a thematic
/// break or a quotation escaped.
fn push_line_start_safe(out: &mut String, text: &str) {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if matches!(text.as_bytes().first(), Some(b'#' | b'-' | b'+' | b'=')) {
        out.push('\\');
        out.push_str(text);
    } else if digits > 0 && matches!(text.as_bytes().get(digits), Some(b'.' | b')')) {
        out.push_str(&text[..digits]);
        out.push('\\');
        out.push_str(&text[digits..]);
    } else {
        out.push_str(text);
    }
}

fn write_code(out: &mut String, piece: &Piece) {
    let code = piece.markdown.trim_matches('\n');
    let longest = longest_run(code, '`');
    let fence = "`".repeat(longest.max(2) + 1);
    let prefix = quote_prefix(piece.block.quote);
    out.push_str(&prefix);
    out.push_str(&fence);
    for line in code.split('\n') {
        out.push('\n');
        out.push_str(&prefix);
        out.push_str(line);
    }
    out.push('\n');
    out.push_str(&prefix);
    out.push_str(&fence);
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for x in text.chars() {
        run = if x == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// The end of the run of pieces from `start` in cells of `table`.
fn table_end(pieces: &[Piece], start: usize, table: NodeId) -> usize {
    start
        + pieces[start..]
            .iter()
            .take_while(|p| p.block.cell.is_some_and(|c| c.table == table))
            .count()
}

/// Whether the run of `table` from `start` is a table of data: every piece is its cell's own
/// text (not code), and there are at least two cells.
fn is_data_table(pieces: &[Piece], start: usize, table: NodeId) -> bool {
    let run = &pieces[start..table_end(pieces, start, table)];
    run.iter()
        .all(|p| p.block.cell.is_some_and(|c| c.direct) && !p.block.pre)
        && run
            .iter()
            .any(|p| p.block.cell.map(|c| c.cell) != run[0].block.cell.map(|c| c.cell))
}

/// A GitHub-flavoured table: the first row is the header; rows are padded to the widest.
fn write_table(out: &mut String, pieces: &[Piece], quote: u32) {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut last: Option<Cell> = None;
    for piece in pieces {
        let Some(cell) = piece.block.cell else {
            continue;
        };
        match last {
            Some(l) if l.row == cell.row && l.cell == cell.cell => {
                if let Some(text) = rows.last_mut().and_then(|r| r.last_mut()) {
                    text.push(' ');
                    text.push_str(piece.markdown);
                }
            }
            Some(l) if l.row == cell.row => {
                if let Some(row) = rows.last_mut() {
                    row.push(piece.markdown.to_owned());
                }
            }
            _ => rows.push(vec![piece.markdown.to_owned()]),
        }
        last = Some(cell);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let prefix = quote_prefix(quote);
    let write_row = |out: &mut String, cells: &[String]| {
        out.push_str(&prefix);
        out.push('|');
        for i in 0..width {
            out.push(' ');
            out.push_str(cells.get(i).map_or("", String::as_str));
            out.push_str(" |");
        }
    };
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_row(out, row);
        if i == 0 {
            out.push('\n');
            out.push_str(&prefix);
            out.push('|');
            out.push_str(&" --- |".repeat(width));
        }
    }
}
