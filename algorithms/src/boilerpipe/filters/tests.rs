use super::*;

fn block(text: &str, words: u32, linked: u32) -> TextBlock {
    TextBlock::new(text.to_owned(), words, linked, 0, 0, 0)
}

#[test]
fn java_split_of_titles() {
    assert_eq!(
        split_on_separators("A | B | C", &['|'], false),
        ["A", "B", "C"]
    );
    assert_eq!(split_on_separators("| A |", &['|'], false), ["", "A"]);
    assert_eq!(
        longest_part("Short | A much longer part | x.com", &['|', '»', ':']),
        Some("A much longer part".to_owned())
    );
    assert_eq!(longest_part("No separator here", &['|']), None);
}

#[test]
fn title_blocks_are_labelled_by_exact_match() {
    let mut blocks = vec![
        block("Site News", 2, 0),
        block("Big story", 2, 0),
        block("big story", 2, 0),
    ];
    document_title_match_classifier(&mut blocks, Some(" Big story | Site News "));
    let labelled: Vec<bool> = blocks.iter().map(|b| b.has_label(Label::Title)).collect();
    assert_eq!(labelled, [false, true, false]);
}

#[test]
fn terminating_blocks() {
    let mut blocks = vec![
        block("12 comments so far", 4, 0),
        block("Add your comment below", 4, 0),
        block("Comments", 1, 0),
        block("short", 1, 0),
    ];
    terminating_blocks_finder(&mut blocks);
    let labelled: Vec<bool> = blocks
        .iter()
        .map(|b| b.has_label(Label::IndicatesEndOfText))
        .collect();
    assert_eq!(labelled, [true, true, true, false]);
}

#[test]
fn clauses_need_five_words_before_a_delimiter() {
    assert_eq!(clause_delimiters("One two. Three"), [(7, 9)]);
    let mut blocks = vec![
        block("One two three four five, six", 6, 0),
        block("Too short. Really.", 3, 0),
    ];
    blocks.iter_mut().for_each(|b| b.is_content = true);
    min_clause_words(&mut blocks, 5, false);
    assert_eq!((blocks[0].is_content, blocks[1].is_content), (true, false));
}

fn titled(blocks: &[TextBlock]) -> Vec<bool> {
    blocks.iter().map(|b| b.has_label(Label::Title)).collect()
}

#[test]
fn java_counts_of_words_split_on_spaces_and_backspaces() {
    assert_eq!(java_word_count(""), 1);
    assert_eq!(java_word_count("a  b"), 2);
    assert_eq!(java_word_count(" a b"), 3);
    assert_eq!(java_word_count("a\u{8}b "), 2);
    assert_eq!(java_word_count("  "), 0);
}

#[test]
fn head_title_matching_normalises_and_labels_only_the_first_match() {
    // 1.2.0 would label both exact copies of "Big Storm Hits Town" and neither of the others.
    let mut blocks = vec![
        block("Big Storm Hits Town!", 4, 0),
        block("Big Storm Hits Town", 4, 0),
    ];
    let title = Some("Breaking: Big Storm Hits Town - Daily News");
    document_title_match_classifier_head(&mut blocks, title);
    assert_eq!(titled(&blocks), [true, false]);
    // The longest part of "[ ]*[|»:()-][ ]*" is "big storm hits town"; the candidates are
    // lower case, the blocks compared in lower case, without "'" and NBSP as a space.
    let mut blocks = vec![block("Don't\u{a0}PANIC", 2, 0)];
    document_title_match_classifier_head(&mut blocks, Some("Dont Panic"));
    assert_eq!(titled(&blocks), [true]);
}

#[test]
fn head_title_candidates_include_parts_of_four_words_and_the_dash_cuts() {
    let candidates = head_title_candidates("a b c d | e f g h i");
    // "a b c d" is not the longest part; addPotentialTitles adds it for its four words.
    assert!(candidates.iter().any(|c| c == "a b c d"));
    let candidates = head_title_candidates("alpha beta - gamma delta - site");
    // replaceFirst(" - [^\\-]+$", "") and replaceFirst("^[^\\-]+ - ", "").
    assert!(candidates.iter().any(|c| c == "alpha beta - gamma delta"));
    assert!(candidates.iter().any(|c| c == "gamma delta - site"));
    let mut blocks = vec![block("Gamma Delta - Site", 3, 0)];
    document_title_match_classifier(&mut blocks, Some("Alpha Beta - Gamma Delta - Site"));
    assert_eq!(titled(&blocks), [false]);
}

#[test]
fn java_split_on_a_spaced_separator() {
    assert_eq!(split_on_separators("a | b |c", &['|'], true), ["a", "b |c"]);
    assert_eq!(split_on_separators("a | | b", &['|'], true), ["a", "| b"]);
    assert_eq!(
        split_on_separators("no separator", &['|'], true),
        ["no separator"]
    );
}

#[test]
fn head_ends_text_at_a_comment_link() {
    let mut blocks = vec![block("Comment", 1, 1), block("Comment", 1, 0)];
    terminating_blocks_finder_head(&mut blocks);
    let ends: Vec<bool> = blocks
        .iter()
        .map(|b| b.has_label(Label::IndicatesEndOfText))
        .collect();
    assert_eq!(ends, [true, false]);
    let mut release = vec![block("Comment", 1, 1)];
    terminating_blocks_finder(&mut release);
    assert!(!release[0].has_label(Label::IndicatesEndOfText));
}

fn leveled(level: i32, words: u32, content: bool) -> TextBlock {
    let mut b = block("x", words, 0);
    b.tag_level = level;
    b.is_content = content;
    b
}

fn contents(blocks: &[TextBlock]) -> Vec<bool> {
    blocks.iter().map(|b| b.is_content).collect()
}

#[test]
fn head_keeps_the_largest_block_and_blocks_of_150_words_at_its_level() {
    let mut blocks = vec![
        leveled(3, 200, false),
        leveled(3, 10, false),
        leveled(3, 300, true),
        leveled(4, 200, false),
        leveled(3, 160, false),
        leveled(2, 500, false),
        leveled(3, 400, false),
    ];
    keep_largest_block(&mut blocks, KeepLargest::HEAD_EXPAND_TO_SAME_TAG_LEVEL);
    // Backwards from the largest: 10 words too few, 200 kept. Forwards: the deeper block is
    // passed over, 160 kept, the shallower block stops the walk before the last.
    assert_eq!(
        contents(&blocks),
        [true, false, true, false, true, false, false]
    );
    assert!(blocks[2].has_label(Label::VeryLikelyContent));
    assert!(blocks[0].has_label(Label::MightBeContent));
}

#[test]
fn head_drops_trailing_headings_and_revives_lists_and_large_blocks() {
    let heading = |content| {
        let mut b = leveled(3, 3, content);
        b.add_label(Label::Heading);
        b
    };
    let mut blocks = vec![
        leveled(3, 9, true),
        heading(true),
        leveled(3, 9, false),
        heading(true),
    ];
    trailing_headline_to_boilerplate(&mut blocks);
    assert_eq!(contents(&blocks), [true, false, false, false]);

    let item = |level, linked| {
        let mut b = leveled(level, 4, false);
        b.num_words_in_anchor_text = linked;
        b.init_densities();
        b.add_label(Label::MightBeContent);
        b.add_label(Label::Li);
        b
    };
    let mut main = leveled(5, 300, true);
    main.add_label(Label::VeryLikelyContent);
    let mut blocks = vec![main.clone(), item(7, 0), item(6, 2), item(7, 0)];
    list_at_end(&mut blocks);
    // The linked item breaks the run: the next item is no longer after the content.
    assert_eq!(contents(&blocks), [true, true, false, false]);

    let mut blocks = vec![
        leveled(5, 120, false),
        main,
        leveled(5, 99, false),
        leveled(6, 200, false),
    ];
    large_block_same_tag_level_to_content(&mut blocks);
    assert_eq!(contents(&blocks), [true, true, false, false]);
}
