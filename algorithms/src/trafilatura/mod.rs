//! trafilatura 2.3.1's `extract()`, faithful to the Python original (see `specs/trafilatura.md`
//! of the shared references): the text it returns for a page, `None` where it returns None.
//!
//! ```
//! use webtext_algorithms::trafilatura::{Options, extract};
//!
//! let page = "<html><body><article><p>A first paragraph of the article, long enough to count.</p>\
//!             <p>A second one, which trafilatura keeps as well.</p></article></body></html>";
//! let text = extract(page, &Options::default(), None).unwrap();
//! assert!(text.starts_with("A first paragraph"));
//! ```
//!
//! The port follows the Python code step by step, on a tree that behaves as lxml's does
//! ([`tree`]), over the tree libxml2 builds (the crate's libxml2-faithful builder): loading
//! ([`load`]), cleaning and conversion ([`cleaning`]), the main extractor ([`extractor`]),
//! the comparison with readability ([`readability`]) and jusText ([`fallback`]), the baseline
//! ([`baseline`]), and the text and Markdown writers ([`writer`]).

pub mod baseline;
pub mod cleaning;
pub mod compare;
pub mod context;
pub mod dedup;
pub mod extractor;
pub mod fallback;
pub mod handlers;
mod json;
pub mod load;
pub mod options;
pub mod pystr;
pub mod readability;
pub mod tag;
pub mod tree;
pub mod writer;
pub mod xpaths;

pub use context::Ctx;
pub use dedup::DedupCache;
pub use options::{Focus, Options, OutputFormat, TRAFILATURA_KEYS};

use tag::Tag;
use tree::{Id, NIL, Res, Tree};

/// `_DISCUSSION_FORUM_POSTING_RE`.
static FORUM_POSTING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r#""@type"[\s\x1c-\x1f]*:[\s\x1c-\x1f]*"DiscussionForumPosting"|"@type"[\s\x1c-\x1f]*:[\s\x1c-\x1f]*\[[^\]]*"DiscussionForumPosting""#,
    )
    .expect("valid")
});

/// `_forum_thread_page`: JSON-LD says the page is a thread of forum posts.
fn is_forum_thread(t: &Tree, tree: Id) -> bool {
    xpaths::select(t, tree, |t, id| {
        t.is(id, &Tag::Script) && t.get(id, &xpaths::TYPE) == Some("application/ld+json")
    })
    .into_iter()
    .any(|s| t.text(s).is_some_and(|text| FORUM_POSTING.is_match(text)))
}

/// `_prepare_tree`: (converted, cleaned before conversion).
fn prepare_tree(t: &mut Tree, tree: Id, ctx: &Ctx) -> Res<(Id, Id)> {
    let copy = t.deep_copy(tree);
    let cleaned = cleaning::tree_cleaning(t, copy, ctx)?;
    let backup = t.deep_copy(cleaned);
    cleaning::convert_tags(t, cleaned, ctx)?;
    Ok((cleaned, backup))
}

/// `_extract_and_compare`: the main extractor, then (unless `fast`) the comparison.
fn extract_and_compare(
    t: &mut Tree,
    cleaned: Id,
    backup: Id,
    tree: Id,
    ctx: &mut Ctx,
) -> Res<(Id, String)> {
    let (body, text) = extractor::extract_content(t, cleaned, ctx)?;
    if ctx.opts.fast {
        return Ok((body, text));
    }
    let raw = t.deep_copy(tree);
    compare::compare_extraction(t, backup, raw, body, text, ctx)
}

/// The recall escalation's limits (`core.ESCALATION_*`).
const ESCALATION_MAX_LENGTH: usize = 3000;
const ESCALATION_PAGE_SHARE: f64 = 0.2;
const ESCALATION_ACCEPT_RATIO: f64 = 1.5;
const ESCALATION_JUSTEXT_RATIO: f64 = 2.0;

/// The bodies and texts `trafilatura_sequence` ends with.
struct Extraction {
    body: Id,
    text: String,
    comments: Id,
    comments_text: String,
}

/// `trafilatura_sequence`.
fn sequence(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<Extraction> {
    let is_forum = is_forum_thread(t, tree);
    xpaths::prune(
        t,
        tree,
        &[&xpaths::raw_prune_scroll, &xpaths::raw_prune_share],
    )?;
    if !ctx.opts.include_comments && (ctx.precision() || !is_forum) {
        xpaths::prune(t, tree, &[&xpaths::remove_comments_and_lists])?;
    }
    let (mut cleaned, backup) = prepare_tree(t, tree, ctx)?;
    let mut comments = t.new_element(Tag::Body);
    let mut comments_text = String::new();
    let mut forum_posts = None;
    if ctx.opts.include_comments {
        (comments, comments_text) = extractor::extract_comments(t, cleaned, ctx)?;
        if !comments_text.is_empty() && is_forum {
            // The "comments" of a forum thread are its posts: they go to the body.
            forum_posts = Some(comments);
            comments = t.new_element(Tag::Body);
            comments_text.clear();
            cleaned = t.deep_copy(backup);
            cleaning::convert_tags(t, cleaned, ctx)?;
        }
    }
    if ctx.precision() && !is_forum {
        xpaths::prune(t, cleaned, &[&xpaths::remove_comments])?;
    }
    let (mut body, mut text) = extract_and_compare(t, cleaned, backup, tree, ctx)?;
    if text.chars().count() < extractor::MIN_EXTRACTED_SIZE && !ctx.precision() {
        let (b_body, b_text, b_len) = baseline::baseline(t, tree, &ctx.opts.limits)?;
        if b_len > text.chars().count() {
            (body, text) = (b_body, b_text);
            forum_posts = None;
        }
    }
    let len_text = text.chars().count();
    if ctx.focus() == Focus::Balanced
        && 0 < len_text
        && len_text < ESCALATION_MAX_LENGTH
        && (len_text as f64) < ESCALATION_PAGE_SHARE * baseline::html2txt_len(t, tree)? as f64
    {
        let esc_tree = if is_forum || !ctx.opts.include_comments {
            tree
        } else {
            let copy = t.deep_copy(tree);
            if comments_text.is_empty() {
                xpaths::prune(t, copy, &[&xpaths::remove_comments])?;
            } else {
                xpaths::prune(t, copy, &[&xpaths::remove_comments_and_lists])?;
            }
            copy
        };
        ctx.set_focus(Focus::Recall);
        let retry = prepare_tree(t, esc_tree, ctx)
            .and_then(|(cleaned, backup)| extract_and_compare(t, cleaned, backup, esc_tree, ctx));
        ctx.set_focus(Focus::Balanced);
        let (r_body, r_text) = retry.unwrap_or((NIL, String::new()));
        let (j_body, j_text) = if ctx.opts.fast {
            (NIL, String::new())
        } else {
            let copy = t.deep_copy(esc_tree);
            fallback::justext_rescue(t, copy).unwrap_or((NIL, String::new()))
        };
        let (r_len, j_len) = (r_text.chars().count(), j_text.chars().count());
        if j_len > r_len && j_len as f64 > ESCALATION_JUSTEXT_RATIO * len_text as f64 {
            (body, text, forum_posts) = (j_body, j_text, None);
        } else if r_len >= extractor::MIN_EXTRACTED_SIZE
            && r_len as f64 > ESCALATION_ACCEPT_RATIO * len_text as f64
        {
            (body, text, forum_posts) = (r_body, r_text, None);
        }
    }
    if let Some(posts) = forum_posts {
        let existing = t
            .children(body)
            .map(|c| extractor::elem_text(t, c))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        let salvaged: Vec<Id> = t
            .children(posts)
            .filter(|&p| {
                let text = extractor::elem_text(t, p);
                !text.is_empty() && !existing.contains(&text)
            })
            .collect();
        if !salvaged.is_empty() {
            for post in salvaged {
                t.append(body, post);
            }
            text = extractor::body_text(t, body);
        }
    }
    Ok(Extraction {
        body,
        text,
        comments,
        comments_text,
    })
}

/// `bare_extraction` and `determine_returnstring` for a tree: None where trafilatura returns
/// None.
fn extract_tree(t: &mut Tree, tree: Id, ctx: &mut Ctx) -> Res<Option<String>> {
    let e = sequence(t, tree, ctx)?;
    if e.text.is_empty() && e.comments_text.is_empty() {
        return Ok(None);
    }
    if let Some(cache) = ctx.cache.as_deref_mut()
        && cache.is_duplicate(&t.trimmed_join(e.body, true))
    {
        return Ok(None);
    }
    let formatting = ctx.formatting();
    let mut out = writer::xmltotxt(t, e.body, formatting)?;
    out.push('\n');
    out.push_str(&writer::xmltotxt(t, e.comments, formatting)?);
    Ok(Some(pystr::nfc(pystr::strip(&out))))
}

/// The text trafilatura 2.3.1's `extract(html, ...)` returns for a page given as a string, None
/// where it returns None. `cache` holds what de-duplication has seen (only read with
/// `options.dedup`); trafilatura's own is one per process.
pub fn extract(html: &str, options: &Options, cache: Option<&mut DedupCache>) -> Option<String> {
    let (mut t, tree) = load::load_html(html, &options.limits)?;
    let mut ctx = Ctx::new(options, cache);
    extract_tree(&mut t, tree, &mut ctx).ok().flatten()
}

/// The body `trafilatura_sequence` ends with, serialised as XML: for comparing a page's result
/// tree with Python's (`tostring(body)`) when the texts differ.
#[doc(hidden)]
pub fn result_tree_xml(html: &str, options: &Options) -> Option<String> {
    let (mut t, tree) = load::load_html(html, &options.limits)?;
    let mut cache = DedupCache::default();
    let mut ctx = Ctx::new(options, Some(&mut cache));
    let e = sequence(&mut t, tree, &mut ctx).ok()?;
    Some(readability::serialize_xml(&t, e.body))
}
