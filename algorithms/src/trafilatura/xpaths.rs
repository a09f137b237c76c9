//! trafilatura's XPath expressions (`xpaths.py`, `settings.BASIC_CLEAN_XPATH`,
//! `external.SANITIZED_XPATH`) as predicates over the tree, with XPath 1.0's semantics where
//! they show: a missing attribute is the empty string, and `@id|@class` given where a string is
//! expected is whichever of the two comes first in the start tag. `re:test` is EXSLT's regular
//! expression test, which lxml runs with Python's `re` (a search; flag `i` is IGNORECASE).

use std::sync::LazyLock;

use html5ever::LocalName;
use regex::Regex;

use super::tag::Tag;
use super::tree::{Id, NIL, Tree};

macro_rules! names {
    ($($ident:ident = $name:literal,)*) => {
        $(pub static $ident: LazyLock<LocalName> = LazyLock::new(|| LocalName::from($name));)*
    };
}

names! {
    CLASS = "class", ID = "id", STYLE = "style", ROLE = "role", ITEMPROP = "itemprop",
    HREF = "href", TYPE = "type", SRC = "src", ALT = "alt", TITLE = "title", LANG = "lang",
    COLSPAN = "colspan", ROWSPAN = "rowspan", REND = "rend", TARGET = "target",
    ARIA_HIDDEN = "aria-hidden", DATA_COMPONENT = "data-component",
    DATA_LP_REPLACEMENT = "data-lp-replacement-content", DATA_PRELOADED = "data-preloaded",
    ENCODING = "encoding", ALTTEXT = "alttext", DISPLAY = "display",
}

/// A Python `re` pattern without look-around, compiled by the regex crate, with its answer for
/// the empty string kept: most elements lack the attribute a pattern tests (the empty string
/// for XPath), and they are answered without a search.
struct Pattern {
    regex: Regex,
    matches_empty: bool,
}

impl Pattern {
    fn is_match(&self, s: &str) -> bool {
        if s.is_empty() {
            self.matches_empty
        } else {
            self.regex.is_match(s)
        }
    }
}

fn re(pattern: &str) -> Pattern {
    let regex = Regex::new(pattern).expect("trafilatura's patterns compile");
    Pattern {
        matches_empty: regex.is_match(""),
        regex,
    }
}

fn class(t: &Tree, id: Id) -> &str {
    t.get_or_empty(id, &CLASS)
}

fn id_attr(t: &Tree, id: Id) -> &str {
    t.get_or_empty(id, &ID)
}

/// `@id|@class` where a string is expected.
fn id_or_class(t: &Tree, id: Id) -> &str {
    t.first_of(id, &[&ID, &CLASS])
}

fn attr_is(t: &Tree, id: Id, name: &LocalName, value: &str) -> bool {
    t.get(id, name) == Some(value)
}

/// `contains(translate(@a, 'X', 'x'), needle)`: the attribute with one upper-case letter lowered.
fn contains_translated(value: &str, from: char, to: char, needle: &str) -> bool {
    if value.contains(from) {
        value.replace(from, &to.to_string()).contains(needle)
    } else {
        value.contains(needle)
    }
}

fn is_content_block(tag: &Tag) -> bool {
    matches!(tag, Tag::Article | Tag::Div | Tag::Main | Tag::Section)
}

/// The first descendant of `root` in document order that `test` accepts.
fn first(t: &Tree, root: Id, test: impl Fn(&Tree, Id) -> bool) -> Id {
    t.find_descendant(root, test)
}

// ---- BODY_XPATH ----

static ARTICLE_CONTENT_ID: LazyLock<Pattern> = LazyLock::new(|| {
    re("(?:entry|article|art)-content|article__content|article(?:-|__)?body|articleBody|body-text")
});
static ARTICLE_CONTENT_CLASS: LazyLock<Pattern> = LazyLock::new(|| {
    re(
        "post[-_]text|post-body|post-?entry|post[-_]?content|postContent|post_inner_wrapper|article-?text|articleText|(?:entry|page|text|article|art)-content|article__content|article(?:-|__)?body|articleBody|ArticleContent|body-text|article__container",
    )
});
static STORY_ID: LazyLock<Pattern> = LazyLock::new(|| re("^primary|story-body"));
static STORY_CLASS: LazyLock<Pattern> = LazyLock::new(|| {
    re(
        "^article |post-bodycopy|story-?content|(?:theme|blog|section|single)-content|single-post|main-column|wpb_text_column|story-body|field-body",
    )
});
static FULLTEXT: LazyLock<Pattern> = LazyLock::new(|| re("(?i)fulltext"));
static MAIN_CONTENT_ID: LazyLock<Pattern> =
    LazyLock::new(|| re("content-main|content-body|contentBody"));
static MAIN_CONTENT_CLASS: LazyLock<Pattern> =
    LazyLock::new(|| re("content[-_]main|content(?:-|__)body"));

fn article_content(t: &Tree, id: Id) -> bool {
    is_content_block(t.tag(id))
        && (attr_is(t, id, &CLASS, "post")
            || attr_is(t, id, &CLASS, "entry")
            || attr_is(t, id, &ITEMPROP, "articleBody")
            || attr_is(t, id, &ID, "articleContent")
            || ARTICLE_CONTENT_ID.is_match(id_attr(t, id))
            || ARTICLE_CONTENT_CLASS.is_match(class(t, id)))
}

fn story(t: &Tree, id: Id) -> bool {
    is_content_block(t.tag(id)) && {
        let c = class(t, id);
        attr_is(t, id, &ROLE, "article")
            || attr_is(t, id, &ID, "article")
            || attr_is(t, id, &ID, "story")
            || (t.has_attr(id, &CLASS)
                && matches!(
                    c,
                    "postarea" | "art-postcontent" | "text" | "cell" | "story"
                ))
            || STORY_ID.is_match(id_attr(t, id))
            || FULLTEXT.is_match(c)
            || STORY_CLASS.is_match(c)
    }
}

fn main_content(t: &Tree, id: Id) -> bool {
    is_content_block(t.tag(id)) && {
        let (i, c) = (id_attr(t, id), class(t, id));
        attr_is(t, id, &ID, "content")
            || attr_is(t, id, &CLASS, "content")
            || MAIN_CONTENT_ID.is_match(i)
            || MAIN_CONTENT_CLASS.is_match(c)
            || translated2(i, "main-content")
            || translated2(c, "main-content")
            || translated_cp(c)
    }
}

/// `contains(translate(v, 'CM', 'cm'), needle)`.
fn translated2(v: &str, needle: &str) -> bool {
    if v.contains(['C', 'M']) {
        v.replace('C', "c").replace('M', "m").contains(needle)
    } else {
        v.contains(needle)
    }
}

/// `contains(translate(@class, 'CP', 'cp'), 'page-content')`.
fn translated_cp(v: &str) -> bool {
    if v.contains(['C', 'P']) {
        v.replace('C', "c")
            .replace('P', "p")
            .contains("page-content")
    } else {
        v.contains("page-content")
    }
}

fn starts_main(t: &Tree, id: Id) -> bool {
    matches!(t.tag(id), Tag::Article | Tag::Div | Tag::Section)
        && (class(t, id).starts_with("main")
            || id_attr(t, id).starts_with("main")
            || t.get_or_empty(id, &ROLE).starts_with("main"))
}

/// The frame of each `BODY_XPATH` expression, in order: the first element it selects under
/// `root`, or [`NIL`].
pub fn body_candidate(t: &Tree, root: Id, expression: usize) -> Id {
    match expression {
        0 => first(t, root, article_content),
        1 => first(t, root, |t, id| t.is(id, &Tag::Article)),
        2 => first(t, root, story),
        3 => first(t, root, main_content),
        _ => first(t, root, |t, id| starts_main(t, id) || t.is(id, &Tag::Main)),
    }
}

/// How many expressions `BODY_XPATH` has.
pub const BODY_EXPRESSIONS: usize = 5;

// ---- comments ----

static COMMENT_LIST: LazyLock<Pattern> = LazyLock::new(|| re("comment-?list"));
static COMMENT_PAGE: LazyLock<Pattern> =
    LazyLock::new(|| re("comment-page|comments-content|post-comments"));
static COMMENTS_START: LazyLock<Pattern> = LazyLock::new(|| re("^comment[s-]"));
static COMMENTS_CLASS_START: LazyLock<Pattern> = LazyLock::new(|| re("^Comments|article-comments"));
static COMMENTS_ID_SERVICES: LazyLock<Pattern> =
    LazyLock::new(|| re("^(?:comol|disqus_thread|dsq-comments)"));

fn is_div_list_section(tag: &Tag) -> bool {
    matches!(tag, Tag::Div | Tag::List | Tag::Section)
}

/// The first element of each `COMMENTS_XPATH` expression under `root`, or [`NIL`].
pub fn comments_candidate(t: &Tree, root: Id, expression: usize) -> Id {
    match expression {
        0 => first(t, root, |t, id| {
            is_div_list_section(t.tag(id))
                && (COMMENT_LIST.is_match(id_or_class(t, id))
                    || COMMENT_PAGE.is_match(class(t, id)))
        }),
        1 => first(t, root, |t, id| {
            is_div_list_section(t.tag(id))
                && (COMMENTS_START.is_match(id_or_class(t, id))
                    || COMMENTS_CLASS_START.is_match(class(t, id)))
        }),
        2 => first(t, root, |t, id| {
            is_div_list_section(t.tag(id)) && COMMENTS_ID_SERVICES.is_match(id_attr(t, id))
        }),
        _ => first(t, root, |t, id| {
            matches!(t.tag(id), Tag::Div | Tag::Section)
                && (id_attr(t, id).starts_with("social") || class(t, id).contains("comment"))
        }),
    }
}

pub const COMMENTS_EXPRESSIONS: usize = 4;

/// `^[Cc]omment(?!ary)`.
fn starts_with_comment(s: &str) -> bool {
    (s.starts_with("Comment") || s.starts_with("comment")) && !s[7..].starts_with("ary")
}

/// `re:test(@id, '^(?:[Cc]omment(?!ary)|comol|disqus_thread|dsq-comments)')`, or without the
/// services' ids.
fn is_comments_id(id: &str, services: bool) -> bool {
    starts_with_comment(id)
        || id.starts_with("comol")
        || (services && (id.starts_with("disqus_thread") || id.starts_with("dsq-comments")))
}

/// `re:test(@class, '^[Cc]omment(?!ary)|(?:article|post)-comments')`.
fn is_comments_class(class: &str) -> bool {
    starts_with_comment(class)
        || class.contains("article-comments")
        || class.contains("post-comments")
}

/// `REMOVE_COMMENTS_XPATH`.
pub fn remove_comments(t: &Tree, id: Id) -> bool {
    matches!(
        t.tag(id),
        Tag::Div | Tag::List | Tag::Section | Tag::Details
    ) && (is_comments_id(id_attr(t, id), true) || is_comments_class(class(t, id)))
}

/// `REMOVE_COMMENTS_AND_LISTS_XPATH`: also `ol`/`ul` comment lists, without the services' ids.
pub fn remove_comments_and_lists(t: &Tree, id: Id) -> bool {
    match t.tag(id) {
        Tag::Ol | Tag::Ul => {
            is_comments_id(id_attr(t, id), false) || is_comments_class(class(t, id))
        }
        _ => remove_comments(t, id),
    }
}

// ---- the raw tree's prune ----

static INFINITE_SCROLL: LazyLock<Pattern> =
    LazyLock::new(|| re("mvp-post-add-(?:box|wrap)|infinite-?scroll"));
static MVP_POST_ADD: LazyLock<Pattern> = LazyLock::new(|| re("mvp-post-add-(?:box|wrap)"));

fn is_div_section_aside(tag: &Tag) -> bool {
    matches!(tag, Tag::Div | Tag::Section | Tag::Aside)
}

/// `RAW_TREE_PRUNE_XPATH`'s first expression (infinite-scroll containers).
pub fn raw_prune_scroll(t: &Tree, id: Id) -> bool {
    is_div_section_aside(t.tag(id))
        && (INFINITE_SCROLL.is_match(id_attr(t, id)) || INFINITE_SCROLL.is_match(class(t, id)))
        && (!t.has_descendant(id, &Tag::H1)
            || MVP_POST_ADD.is_match(id_attr(t, id))
            || MVP_POST_ADD.is_match(class(t, id)))
}

/// `RAW_TREE_PRUNE_XPATH`'s second expression (Elementor's share buttons).
pub fn raw_prune_share(t: &Tree, id: Id) -> bool {
    is_div_section_aside(t.tag(id)) && class(t, id).contains("elementor-share-buttons")
}

// ---- OVERALL_DISCARD_XPATH and the other discard lists ----

fn is_discardable_block(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Div | Tag::Item | Tag::List | Tag::P | Tag::Section | Tag::Span
    )
}

const BOTH_TOKENS: &str =
    "^shar|social|viral|newsletter|syndication|tags|sidebar|banner|bread-?crumb|button|author";
static DISCARD_ID: LazyLock<Pattern> = LazyLock::new(|| {
    re(&format!(
        "{BOTH_TOKENS}|^(?:jp-|dpsp-content)|bmdh|footer|Footer|share|Share|nav|Nav|menu|related|message-container|premium|^ad-"
    ))
});
static DISCARD_CLASS: LazyLock<Pattern> = LazyLock::new(|| {
    re(&format!(
        "{BOTH_TOKENS}|^(?:nav|post-nav|ZendeskForm)|subnav|avigation|navbar|navbox|menu|bar| ad |-ad-|(?:^| )ad-|dfp[Aa]d|outbrain|taboola|criteo|paid-?content|widget|footer|Footer|byline|Byline|share-|sociable|embedded|embed|tag-list|consent|modal-content|permission|elated|next-|-stories|most-popular|more-on|meta|rating|attachment|timestamp|user-info|user-profile|-icon|article-infos|message-container|slide|viewport|overlay|options|expand|obfuscated|blurred|mol-factbox|yin|zlylin|nfoline"
    ))
});
static HIDDEN_CLASS: LazyLock<Pattern> = LazyLock::new(|| {
    re(
        "^hide-|comments-title|nocomments|-reply-|message|akismet|suggest-links|-hide-|hide-print| hidden| hide|noprint|notloaded",
    )
});
static READER_COMMENTS: LazyLock<Pattern> = LazyLock::new(|| re("reader-comments|akismet"));

/// `OVERALL_DISCARD_XPATH`'s first expression (navigation, sharing, ads, consent...).
pub fn overall_discard_blocks(t: &Tree, id: Id) -> bool {
    is_discardable_block(t.tag(id))
        && (t.has_attr(id, &DATA_LP_REPLACEMENT)
            || contains_translated(t.get_or_empty(id, &ROLE), 'N', 'n', "nav")
            || t.get_or_empty(id, &DATA_COMPONENT)
                .contains("MostPopularStories")
            || id_or_class(t, id).contains("cookie")
            || DISCARD_ID.is_match(id_attr(t, id))
            || DISCARD_CLASS.is_match(class(t, id)))
}

/// `OVERALL_DISCARD_XPATH`'s second expression (hidden elements, reply forms), any element.
pub fn overall_discard_hidden(t: &Tree, id: Id) -> bool {
    let style = t.get_or_empty(id, &STYLE);
    attr_is(t, id, &CLASS, "comments-title")
        || id_or_class(t, id).starts_with("reply-")
        || t.first_of(id, &[&ID, &STYLE]).contains("hidden")
        || style.contains("display:none")
        || style.contains("display: none")
        || READER_COMMENTS.is_match(id_attr(t, id))
        || HIDDEN_CLASS.is_match(class(t, id))
        || attr_is(t, id, &ARIA_HIDDEN, "true")
}

/// `TEASER_DISCARD_XPATH`.
pub fn teaser_discard(t: &Tree, id: Id) -> bool {
    is_discardable_block(t.tag(id))
        && (contains_translated(id_attr(t, id), 'T', 't', "teaser")
            || contains_translated(class(t, id), 'T', 't', "teaser"))
}

static BOTTOM: LazyLock<Pattern> =
    LazyLock::new(|| re(r"(?:^|[\s\x1c-\x1f])bottom|bottom(?:[\s\x1c-\x1f]|\z)"));
static LINK_TOKEN: LazyLock<Pattern> =
    LazyLock::new(|| re(r"(?:^|[\s\x1c-\x1f])link(?:[\s\x1c-\x1f]|\z)"));

/// `PRECISION_DISCARD_XPATH`'s second expression (page-bottom chrome, link boxes, borders).
pub fn precision_discard(t: &Tree, id: Id) -> bool {
    is_discardable_block(t.tag(id)) && {
        let first = id_or_class(t, id);
        BOTTOM.is_match(first)
            || LINK_TOKEN.is_match(first)
            || t.get_or_empty(id, &STYLE).contains("border")
    }
}

/// `DISCARD_IMAGE_ELEMENTS`.
pub fn discard_image_elements(t: &Tree, id: Id) -> bool {
    is_discardable_block(t.tag(id))
        && (id_attr(t, id).contains("caption") || class(t, id).contains("caption"))
}

static COMMENTS_DISCARD_CLASS: LazyLock<Pattern> =
    LazyLock::new(|| re("comments-title|nocomments|-reply-|message|signin"));
static REPLY_OR_AKISMET: LazyLock<Pattern> = LazyLock::new(|| re("^reply-|akismet"));

/// `COMMENTS_DISCARD_XPATH`, its three expressions.
pub fn comments_discard(t: &Tree, id: Id, expression: usize) -> bool {
    match expression {
        0 => matches!(t.tag(id), Tag::Div | Tag::Section) && id_attr(t, id).starts_with("respond"),
        1 => matches!(t.tag(id), Tag::Cite | Tag::Quote),
        _ => {
            attr_is(t, id, &CLASS, "comments-title")
                || t.get_or_empty(id, &STYLE).contains("display:none")
                || COMMENTS_DISCARD_CLASS.is_match(class(t, id))
                || REPLY_OR_AKISMET.is_match(id_or_class(t, id))
        }
    }
}

static COOKIE_CONSENT: LazyLock<Pattern> = LazyLock::new(|| {
    re(
        "(?i)cookie[-_]?(?:banner|bar|consent|law|notice|policy|description)|notice[-_]{0,2}cookie|consent[-_]?(?:banner|manager|sdk)|borlabs|cookiebot|cmplz|onetrust|moove[-_]?gdpr",
    )
});

/// `BASIC_CLEAN_XPATH`: asides, footers, scripts and styles, cookie banners.
pub fn basic_clean(t: &Tree, id: Id) -> bool {
    match t.tag(id) {
        Tag::Aside
        | Tag::Fencedframe
        | Tag::Footer
        | Tag::Script
        | Tag::Style
        | Tag::Svg
        | Tag::Template => true,
        Tag::Div if id_or_class(t, id).contains("footer") => true,
        _ => {
            t.get(id, &CLASS)
                .is_some_and(|c| COOKIE_CONSENT.is_match(c))
                || t.get(id, &ID).is_some_and(|i| COOKIE_CONSENT.is_match(i))
        }
    }
}

/// `SANITIZED_XPATH`: an element readability's or the own result should not hold.
pub fn is_unclean(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Aside
            | Tag::Audio
            | Tag::Button
            | Tag::Fencedframe
            | Tag::Fieldset
            | Tag::Figure
            | Tag::Footer
            | Tag::Iframe
            | Tag::Input
            | Tag::Label
            | Tag::Link
            | Tag::Nav
            | Tag::Noindex
            | Tag::Noscript
            | Tag::Object
            | Tag::Option
            | Tag::Select
            | Tag::Source
            | Tag::Svg
            | Tag::Time
    )
}

/// The elements under `root` (not itself) an expression selects, in document order.
pub fn select(t: &Tree, root: Id, test: impl Fn(&Tree, Id) -> bool) -> Vec<Id> {
    t.descendants_matching(root, test)
}

/// `prune_unwanted_nodes(tree, [expressions...])` without the backup guard: each expression
/// in turn, its matches deleted (tails kept).
pub fn prune(
    t: &mut Tree,
    root: Id,
    expressions: &[&dyn Fn(&Tree, Id) -> bool],
) -> super::tree::Res<()> {
    for expression in expressions {
        for id in select(t, root, expression) {
            t.delete_element(id, true)?;
        }
    }
    Ok(())
}

/// Whether `id` is not [`NIL`].
pub fn found(id: Id) -> bool {
    id != NIL
}
