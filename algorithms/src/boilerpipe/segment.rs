//! boilerpipe 1.2.0's segmentation: the SAX content handler (`BoilerpipeHTMLContentHandler` with
//! the default tag actions) driven by events generated from the html5ever tree, and the block
//! counters of `flushBlock` with `UnicodeTokenizer` (spec §2–§4, §8).

use html5ever::{LocalName, local_name};

use super::block::{Label, TextBlock};
use crate::html::dom::{DOCUMENT, NodeId, NodeKind, Page};
use crate::unicode::{LETTER_OR_DIGIT, LETTER_OR_NUMBER, NON_SPACING_MARK};

const ANCHOR_START: &str = "$\u{E00A}<";
const ANCHOR_END: &str = ">\u{E00A}$";
const MAX_LINE_LENGTH: i64 = 80;

/// The boilerpipe version whose tag actions (and, in [`super::filters`], filters) apply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Version {
    /// 1.2.0's `DefaultTagActionMap`: no tag labels its blocks.
    #[default]
    Release1_2_0,
    /// The repository head's map: `LI` labels its blocks LI, `H1`–`H3` their level and HEADING
    /// (spec, appendix A).
    Head,
}

/// What a tag does to the handler (1.2.0's `DefaultTagActionMap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagAction {
    /// STYLE SCRIPT OPTION OBJECT EMBED APPLET LINK NOSCRIPT: content ignored, flushes.
    Ignorable,
    Anchor,
    Body,
    /// Inline, no whitespace added (B, I, SPAN, ...).
    InlineNoWhitespace,
    /// Inline with whitespace on both sides (ABBR, ACRONYM).
    InlineWhitespace,
    /// Every other tag: flushes and changes the tag level.
    Unknown,
    /// The head's `BlockTagLabelAction`: as `Unknown`, and every block flushed while the element
    /// is open gets these labels.
    BlockLabels(&'static [Label]),
}

fn action_of(name: &LocalName, version: Version) -> TagAction {
    if version == Version::Head {
        let labels: &'static [Label] = match *name {
            local_name!("li") => &[Label::Li],
            local_name!("h1") => &[Label::H1, Label::Heading],
            local_name!("h2") => &[Label::H2, Label::Heading],
            local_name!("h3") => &[Label::H3, Label::Heading],
            _ => &[],
        };
        if !labels.is_empty() {
            return TagAction::BlockLabels(labels);
        }
    }
    // Names are atoms: each arm is an integer comparison.
    match *name {
        local_name!("style")
        | local_name!("script")
        | local_name!("option")
        | local_name!("object")
        | local_name!("embed")
        | local_name!("applet")
        | local_name!("link")
        | local_name!("noscript") => TagAction::Ignorable,
        local_name!("a") => TagAction::Anchor,
        local_name!("body") => TagAction::Body,
        local_name!("strike")
        | local_name!("u")
        | local_name!("b")
        | local_name!("i")
        | local_name!("em")
        | local_name!("strong")
        | local_name!("span")
        | local_name!("sup")
        | local_name!("code")
        | local_name!("tt")
        | local_name!("sub")
        | local_name!("var")
        | local_name!("font") => TagAction::InlineNoWhitespace,
        local_name!("abbr") | local_name!("acronym") => TagAction::InlineWhitespace,
        _ => TagAction::Unknown,
    }
}

/// Java's `Character.isWhitespace`.
fn is_java_whitespace(c: char) -> bool {
    matches!(c, '\u{9}'..='\u{d}' | '\u{1c}'..='\u{20}' | '\u{1680}' | '\u{2000}'..='\u{2006}'
        | '\u{2008}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{205f}' | '\u{3000}')
}

/// Appends `text` with every Java whitespace character as ' ' (runs kept).
fn push_mapped(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let (mut run_start, mut i) = (0, 0);
    while i < bytes.len() {
        // Java whitespace other than ' ' is an ASCII control or a three-byte character led by
        // 0xE1-0xE3 (U+1680, U+2000-U+205F, U+3000); those bytes never continue a character.
        let width = match bytes[i] {
            0x09..=0x0d | 0x1c..=0x1f => 1,
            0xe1..=0xe3 if text[i..].chars().next().is_some_and(is_java_whitespace) => 3,
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&text[run_start..i]);
        out.push(' ');
        i += width;
        run_start = i;
    }
    out.push_str(&text[run_start..]);
}

/// Java's `String.trim()`: strips characters up to U+0020.
pub(crate) fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// UTF-16 length, which Java's `String.length()` counts.
pub(crate) fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char::len_utf16).sum()
}

/// The handler's state while the events of one page are replayed.
#[derive(Debug, Default)]
struct Handler {
    token_buffer: String,
    text_buffer: String,
    in_body: i32,
    in_anchor: i32,
    in_ignorable: i32,
    tag_level: i32,
    block_tag_level: i32,
    last_was_whitespace: bool,
    flush: bool,
    offset_blocks: usize,
    in_anchor_text: bool,
    /// Bytes at the start of `token_buffer` already tokenized without a token, ending in a space.
    counted_prefix: usize,
    last_start_tag: LocalName,
    title: Option<String>,
    blocks: Vec<TextBlock>,
    version: Version,
    /// The labels of each open element (`labelStacks`), innermost last.
    open_labels: Vec<&'static [Label]>,
}

impl Handler {
    fn new(version: Version) -> Self {
        Handler {
            block_tag_level: -1,
            version,
            ..Default::default()
        }
    }

    fn add_whitespace_if_necessary(&mut self) {
        if !self.last_was_whitespace {
            self.token_buffer.push(' ');
            self.text_buffer.push(' ');
            self.last_was_whitespace = true;
        }
    }

    fn anchor_start(&mut self) {
        let before = self.in_anchor;
        self.in_anchor += 1;
        if before > 0 {
            // Nested-<a> recovery: end the open anchor first.
            self.anchor_end();
        }
        if self.in_ignorable == 0 {
            self.add_whitespace_if_necessary();
            self.token_buffer.push_str(ANCHOR_START);
            self.token_buffer.push(' ');
            self.last_was_whitespace = true;
        }
    }

    fn anchor_end(&mut self) {
        self.in_anchor -= 1;
        if self.in_anchor == 0 && self.in_ignorable == 0 {
            self.add_whitespace_if_necessary();
            self.token_buffer.push_str(ANCHOR_END);
            self.token_buffer.push(' ');
            self.last_was_whitespace = true;
        }
    }

    fn start_element(&mut self, name: &LocalName) {
        let action = action_of(name, self.version);
        self.open_labels.push(match action {
            TagAction::BlockLabels(labels) => labels,
            _ => &[],
        });
        match action {
            TagAction::Ignorable => {
                self.tag_level += 1;
                self.in_ignorable += 1;
                self.flush = true;
            }
            TagAction::Anchor => {
                self.tag_level += 1;
                self.anchor_start();
            }
            TagAction::Body => {
                self.tag_level += 1;
                self.flush_block();
                self.in_body += 1;
            }
            TagAction::InlineNoWhitespace => {}
            TagAction::InlineWhitespace => self.add_whitespace_if_necessary(),
            TagAction::Unknown | TagAction::BlockLabels(_) => {
                self.tag_level += 1;
                self.flush = true;
            }
        }
        self.last_start_tag = name.clone();
    }

    fn end_element(&mut self, name: &LocalName) {
        let changes_level = match action_of(name, self.version) {
            TagAction::Ignorable => {
                self.in_ignorable -= 1;
                self.flush = true;
                true
            }
            TagAction::Anchor => {
                self.anchor_end();
                true
            }
            TagAction::Body => {
                self.flush_block();
                self.in_body -= 1;
                true
            }
            TagAction::InlineNoWhitespace => false,
            TagAction::InlineWhitespace => {
                self.add_whitespace_if_necessary();
                false
            }
            TagAction::Unknown | TagAction::BlockLabels(_) => {
                self.flush = true;
                true
            }
        };
        if changes_level {
            self.tag_level -= 1;
        }
        // `flush` is not reset here (1.2.0).
        if self.flush {
            self.flush_block();
        }
        self.open_labels.pop();
    }

    fn characters(&mut self, chunk: &str) {
        if self.flush {
            self.flush_block();
            self.flush = false;
        }
        if self.in_ignorable != 0 || chunk.is_empty() {
            return;
        }
        // Java maps every whitespace character to ' ', then trims spaces off both ends.
        let is_space = |c: char| is_java_whitespace(c);
        let trimmed = chunk.trim_matches(is_space);
        if trimmed.is_empty() {
            if !self.last_was_whitespace {
                self.token_buffer.push(' ');
                self.text_buffer.push(' ');
            }
            self.last_was_whitespace = true;
            return;
        }
        let start_ws = chunk.starts_with(is_space);
        let end_ws = chunk.ends_with(is_space);
        if start_ws && !self.last_was_whitespace {
            self.token_buffer.push(' ');
            self.text_buffer.push(' ');
        }
        if self.block_tag_level == -1 {
            self.block_tag_level = self.tag_level;
        }
        let start = self.token_buffer.len();
        push_mapped(&mut self.token_buffer, trimmed);
        self.text_buffer.push_str(&self.token_buffer[start..]);
        if end_ws {
            self.token_buffer.push(' ');
            self.text_buffer.push(' ');
        }
        self.last_was_whitespace = end_ws;
    }

    fn clear_buffers(&mut self) {
        self.token_buffer.clear();
        self.text_buffer.clear();
        self.counted_prefix = 0;
    }

    fn flush_block(&mut self) {
        if self.in_body == 0 {
            if self.last_start_tag == local_name!("title") {
                let title = java_trim(&self.token_buffer);
                if !title.is_empty() {
                    self.title = Some(title.to_owned());
                }
            }
            self.clear_buffers();
            return;
        }
        let mut chars = self.token_buffer.chars();
        match (chars.next(), chars.next()) {
            (None, _) => return,
            (Some(_), None) if self.last_was_whitespace => {
                self.clear_buffers();
                return;
            }
            _ => {}
        }
        let counts = count_tokens(
            &self.token_buffer[self.counted_prefix..],
            &mut self.in_anchor_text,
        );
        if counts.tokens == 0 {
            // The buffers are kept: stray markers and spaces carry into the next block. Java
            // tokenizes the whole buffer again at the next flush, quadratic over 100,000 anchors
            // without text; a token-free prefix ending in a space adds no token there and leaves
            // the anchor state as it is now, so the next count starts after it.
            if self.token_buffer.ends_with(' ') {
                self.counted_prefix = self.token_buffer.len();
            }
            return;
        }
        let (words_in_wrapped_lines, wrapped_lines) = if counts.wrapped_lines == 0 {
            (counts.words, 1)
        } else {
            (
                counts.words - counts.words_current_line,
                counts.wrapped_lines,
            )
        };
        let mut block = TextBlock::new(
            java_trim(&self.text_buffer).to_owned(),
            counts.words,
            counts.linked_words,
            words_in_wrapped_lines,
            wrapped_lines,
            self.offset_blocks,
        );
        self.offset_blocks += 1;
        self.clear_buffers();
        block.tag_level = self.block_tag_level;
        self.block_tag_level = -1;
        for label in self.open_labels.iter().copied().flatten() {
            block.add_label(*label);
        }
        self.blocks.push(block);
    }
}

#[derive(Debug, Default)]
struct Counts {
    tokens: u32,
    words: u32,
    linked_words: u32,
    words_current_line: u32,
    wrapped_lines: u32,
}

fn count_tokens(buffer: &str, in_anchor_text: &mut bool) -> Counts {
    let mut counts = Counts::default();
    let mut line_length: i64 = -1;
    for_each_token(buffer, |token| {
        if token == ANCHOR_START {
            *in_anchor_text = true;
        } else if token == ANCHOR_END {
            *in_anchor_text = false;
        } else if token.bytes().any(|b| b.is_ascii_alphanumeric())
            || (!token.is_ascii()
                && token
                    .chars()
                    .any(|c| !c.is_ascii() && LETTER_OR_NUMBER.contains(c)))
        {
            counts.tokens += 1;
            counts.words += 1;
            counts.words_current_line += 1;
            if *in_anchor_text {
                counts.linked_words += 1;
            }
            let len = utf16_len(token) as i64;
            line_length += len + 1;
            if line_length > MAX_LINE_LENGTH {
                counts.wrapped_lines += 1;
                line_length = len;
                counts.words_current_line = 1;
            }
        } else {
            counts.tokens += 1;
        }
    });
    counts
}

/// A word character for Java's (JDK ≤ 18) `\b`: letters, digits and '_'.
fn is_boundary_word(c: char) -> bool {
    c == '_' || c.is_ascii_alphanumeric() || (!c.is_ascii() && LETTER_OR_DIGIT.contains(c))
}

fn is_glue(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '.' | ',' | '!' | '@' | '-' | ':' | ';' | '$' | '?' | '(' | ')' | '/'
    )
}

/// `UnicodeTokenizer.tokenize`: split at spaces and at word boundaries, except where a glue
/// character (`" ' . , ! @ - : ; $ ? ( ) /`) touches the boundary. U+2063 counts as a space.
pub(crate) fn for_each_token<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    let bytes = text.as_bytes();
    let mut start: Option<usize> = None;
    // Whether the previous character is a glue character, and whether it counted as a word
    // character for `\b` (a non-spacing mark after a word character does).
    let mut prev: Option<(bool, bool)> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (width, is_space, word, glue) = if b.is_ascii() {
            let c = char::from(b);
            (1, b == b' ', is_boundary_word(c), is_glue(c))
        } else {
            let Some(c) = text[i..].chars().next() else {
                break;
            };
            let word = is_boundary_word(c)
                || (NON_SPACING_MARK.contains(c) && prev.is_some_and(|(_, w)| w));
            (c.len_utf8(), c == '\u{2063}', word, false)
        };
        if is_space {
            if let Some(s) = start.take() {
                f(&text[s..i]);
            }
            prev = None;
            i += width;
            continue;
        }
        if let Some((prev_glue, prev_word)) = prev
            && prev_word != word
            && !prev_glue
            && !glue
            && let Some(s) = start.take()
        {
            f(&text[s..i]);
        }
        start.get_or_insert(i);
        prev = Some((glue, word));
        i += width;
    }
    if let Some(s) = start {
        f(&text[s..]);
    }
}

/// The text blocks and title of a parsed page, segmented with `version`'s tag actions.
pub fn segment(page: &Page, version: Version) -> (Vec<TextBlock>, Option<String>) {
    let mut handler = Handler::new(version);
    // Iterative walk (no recursion on deep pages): (node, entered).
    let mut stack: Vec<(NodeId, bool)> = vec![(DOCUMENT, false)];
    while let Some((id, entered)) = stack.pop() {
        let node = page.node(id);
        match &node.kind {
            NodeKind::Element(e) if e.implied && &e.name == "tbody" => {
                push_children(page, id, &mut stack);
            }
            NodeKind::Element(e) => {
                let name = &e.name;
                if entered {
                    handler.end_element(name);
                    continue;
                }
                handler.start_element(name);
                stack.push((id, true));
                // Raw text of these elements is markup NekoHTML would parse; never count it as
                // words (spec §8: a known difference).
                if !matches!(
                    e.name,
                    local_name!("iframe") | local_name!("noembed") | local_name!("noframes")
                ) {
                    push_children(page, id, &mut stack);
                }
            }
            NodeKind::Text(t) => handler.characters(t),
            NodeKind::Document => push_children(page, id, &mut stack),
            NodeKind::Comment | NodeKind::Other => {}
        }
    }
    // endDocument() and toTextDocument() each flush once more.
    handler.flush_block();
    handler.flush_block();
    (handler.blocks, handler.title)
}

fn push_children(page: &Page, id: NodeId, stack: &mut Vec<(NodeId, bool)>) {
    let start = stack.len();
    stack.extend(page.children(id).map(|c| (c, false)));
    stack[start..].reverse();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<&str> {
        let mut v = Vec::new();
        for_each_token(s, |t| v.push(t));
        v
    }

    #[test]
    fn tokenizer_glues_punctuation_and_splits_other_symbols() {
        assert_eq!(
            tokens("U.S. don't e-mail $5 a,b"),
            ["U.S.", "don't", "e-mail", "$5", "a,b"]
        );
        assert_eq!(
            tokens("fish&chips 50% a+b"),
            ["fish", "&", "chips", "50", "%", "a", "+", "b"]
        );
        assert_eq!(tokens("“quoted” — Über"), ["“", "quoted", "”", "—", "Über"]);
        assert_eq!(tokens("  a\u{2063}b  "), ["a", "b"]);
    }

    fn blocks_of(html: &str) -> (Vec<TextBlock>, Option<String>) {
        segment(&Page::parse(html), Version::Release1_2_0)
    }

    #[test]
    fn anchors_separate_words_and_count_as_linked_inline_tags_do_not() {
        let (blocks, title) = blocks_of(
            "<html><head><title> My  title </title></head><body><p>foo<a href=x>bar</a>baz bold<i>x</i></p></body></html>",
        );
        assert_eq!(title.as_deref(), Some("My  title"));
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].text, "foo bar baz boldx");
        assert_eq!(
            (blocks[0].num_words, blocks[0].num_words_in_anchor_text),
            (4, 1)
        );
    }

    #[test]
    fn block_tags_cut_blocks_and_lines_wrap_at_80_columns() {
        let long: Vec<String> = (0..20).map(|i| format!("word{i:02}")).collect();
        let html = format!("<body><div>one two</div><p>{}</p>", long.join(" "));
        let (blocks, _) = blocks_of(&html);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].text, "one two");
        // 6-character words: 11 fit in 80 columns (11 × 7 − 1 = 76), the 12th wraps.
        assert_eq!(blocks[1].num_words, 20);
        assert_eq!(blocks[1].num_wrapped_lines, 1);
        assert_eq!(blocks[1].num_words_in_wrapped_lines, 11);
        assert_eq!(blocks[1].text_density, 11.0);
    }

    #[test]
    fn ignorable_elements_drop_their_text_and_deep_pages_do_not_overflow() {
        let (blocks, _) =
            blocks_of("<body><p>kept<script>var x = 1;</script> too</p><style>p{}</style>");
        let texts: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(texts, ["kept", "too"]);
        let deep = format!(
            "<body>{}deep{}",
            "<div>".repeat(5_000),
            "</div>".repeat(5_000)
        );
        let (blocks, _) = blocks_of(&deep);
        assert_eq!(blocks.len(), 1);
    }

    fn labels_of(html: &str) -> Vec<(String, Vec<Label>)> {
        let (blocks, _) = segment(&Page::parse(html), Version::Head);
        blocks.into_iter().map(|b| (b.text, b.labels)).collect()
    }

    #[test]
    fn head_labels_blocks_inside_list_items_and_headings() {
        let labels =
            labels_of("<body><ul><li>one two</li></ul><h2>A head</h2><h4>h4</h4><p>text</p>");
        let expected = [
            ("one two", vec![Label::Li]),
            ("A head", vec![Label::H2, Label::Heading]),
            ("h4", vec![]),
            ("text", vec![]),
        ];
        let expected: Vec<(String, Vec<Label>)> = expected
            .into_iter()
            .map(|(t, l)| (t.to_owned(), l))
            .collect();
        assert_eq!(labels, expected);
        let (release, _) = segment(
            &Page::parse("<body><ul><li>one two</li></ul>"),
            Version::Release1_2_0,
        );
        assert!(release[0].labels.is_empty());
    }

    #[test]
    fn head_labels_the_text_before_a_list_item_too() {
        // A start tag only sets `flush`: "intro" is flushed at the item's first text, while the
        // LI element is already open (spec §3).
        let labels = labels_of("<body><div>intro<li>item</li></div>");
        assert_eq!(labels[0], ("intro".to_owned(), vec![Label::Li]));
        assert_eq!(labels[1], ("item".to_owned(), vec![Label::Li]));
    }
}
