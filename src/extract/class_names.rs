//! What an element's `class` and `id` say about it. Templates name their parts: `comments`,
//! `sidebar`, `related-posts`, `share-buttons` around what is not the page's text, `article-body`,
//! `entry-content`, `post` around what is. Those names are the strongest signal a page gives
//! that its text length and link density cannot: a comment thread is long, link-poor prose.

/// The names whose elements are left out (`drop_boilerplate_names`): each of them, alone,
/// raised the mean F1 over the six shared sets (`tools/extract_quality.sh`), while `sidebar`,
/// `widget`, `menu`, `nav`, `ad`, `share` and `hidden` lowered it: page builders put those on
/// wrappers of the text too (`elementor-widget-text-editor`, `has-sidebar`, `visually-hidden`).
const DROPPED_PARTS: &[&str] = &[
    "comment",
    "footer",
    "masthead",
    "promo",
    "related",
    "banner",
    "newsletter",
    "popup",
    "cookie",
    "pagination",
];

/// Short names left out, matched whole.
const DROPPED_WORDS: &[&str] = &["tags"];

/// Words (or parts of words) naming boilerplate, for the class weight.
const BOILERPLATE_PARTS: &[&str] = &[
    "comment",
    "sidebar",
    "footer",
    "masthead",
    "promo",
    "related",
    "sharing",
    "social",
    "sponsor",
    "widget",
    "banner",
    "breadcrumb",
    "newsletter",
    "subscri",
    "popup",
    "modal",
    "cookie",
    "gdpr",
    "advert",
    "disqus",
    "outbrain",
    "taboola",
    "recommend",
    "navigation",
    "navbar",
    "menu",
    "pagination",
    "pager",
];

/// Short words naming boilerplate, matched whole, for the class weight.
const BOILERPLATE_WORDS: &[&str] = &[
    "ad", "ads", "nav", "tags", "share", "shares", "aside", "hidden", "toolbar", "tools", "foot",
];

/// Words (or parts of words) naming a page's text.
const CONTENT_PARTS: &[&str] = &[
    "article", "content", "entry", "main", "post", "story", "blog", "text", "body",
];

/// What the names of an element say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct ClassHint {
    pub boilerplate: bool,
    pub content: bool,
}

impl ClassHint {
    /// Readability's class weight: a name of boilerplate counts against, a name of content for.
    pub fn weight(self) -> f64 {
        f64::from(i8::from(self.content) - i8::from(self.boilerplate))
    }
}

/// The hint of `class_and_id` (lower case, as the tree keeps it).
pub(super) fn hint(class_and_id: &str) -> ClassHint {
    let mut hint = ClassHint::default();
    for word in words(class_and_id) {
        if BOILERPLATE_WORDS.contains(&word) || BOILERPLATE_PARTS.iter().any(|p| word.contains(p)) {
            hint.boilerplate = true;
        }
        if CONTENT_PARTS.iter().any(|p| word.contains(p)) {
            hint.content = true;
        }
    }
    hint
}

/// What `class` and `id` say of an element: the drop rule (`drop_boilerplate_names`) reads
/// [`DROPPED_PARTS`] and [`DROPPED_WORDS`]; the class weight reads all the lists.
pub(super) fn is_dropped(class_and_id: &str) -> bool {
    // Most names hold none of them: one search of the whole string each rules those out before
    // the words are looked at (this runs for every element with a class or id).
    if !DROPPED_PARTS
        .iter()
        .chain(DROPPED_WORDS)
        .any(|p| class_and_id.contains(p))
    {
        return false;
    }
    let mut dropped = false;
    for word in words(class_and_id) {
        if DROPPED_WORDS.contains(&word) || DROPPED_PARTS.iter().any(|p| word.contains(p)) {
            dropped = true;
        }
        if CONTENT_PARTS.iter().any(|p| word.contains(p)) {
            return false;
        }
    }
    dropped
}

fn words(class_and_id: &str) -> impl Iterator<Item = &str> {
    class_and_id
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_boilerplate_and_of_text() {
        assert_eq!(
            hint("comment-list"),
            ClassHint {
                boilerplate: true,
                content: false
            }
        );
        assert_eq!(
            hint("entry-content post-42"),
            ClassHint {
                boilerplate: false,
                content: true
            }
        );
        assert_eq!(
            hint("comment-body"),
            ClassHint {
                boilerplate: true,
                content: true
            }
        );
        // Whole words only for the short ones: "ad" is not "head", "nav" not "canvas".
        assert_eq!(hint("masthead-canvas"), hint("masthead"));
        assert_eq!(hint("head canvas"), ClassHint::default());
    }

    #[test]
    fn only_the_measured_names_are_dropped() {
        assert!(is_dropped("comment-list"));
        assert!(is_dropped("site-footer dark"));
        assert!(!is_dropped("post-tags"), "a name of text wins");
        assert!(is_dropped("tags"));
        assert!(!is_dropped("stage"), "tags whole only");
        assert!(!is_dropped("sidebar"), "weighed, not dropped");
        assert!(!is_dropped("comment-body"), "a name of text wins");
    }
}
