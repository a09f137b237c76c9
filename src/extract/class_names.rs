//! What an element's `class` and `id` say about it. Templates name their parts: `comments`,
//! `sidebar`, `related-posts`, `share-buttons` around what is not the page's text, `article-body`,
//! `entry-content`, `post` around what is. Those names are the strongest signal a page gives
//! that its text length and link density cannot: a comment thread is long, link-poor prose.

/// A list of names: parts are found inside a word, words must be the whole word.
struct Names {
    parts: &'static [&'static str],
    words: &'static [&'static str],
}

impl Names {
    fn name(&self, word: &str) -> bool {
        self.words.contains(&word) || self.parts.iter().any(|p| word.contains(p))
    }

    /// Whether any of the names is in `text` at all: one search each, before words are split.
    fn may_be_in(&self, text: &str) -> bool {
        self.parts
            .iter()
            .chain(self.words)
            .any(|p| text.contains(p))
    }
}

/// The names whose elements are left out (`drop_boilerplate_names`): each of them, alone,
/// raised the mean F1 over the six shared sets (`tools/extract_quality.sh`), while `sidebar`,
/// `widget`, `menu`, `nav`, `ad`, `share` and `hidden` lowered it: page builders put those on
/// wrappers of the text too (`elementor-widget-text-editor`, `has-sidebar`, `visually-hidden`).
const DROPPED: Names = Names {
    parts: &[
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
    ],
    words: &["tags"],
};

/// Names of boilerplate, for the class weight.
const BOILERPLATE: Names = Names {
    parts: &[
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
    ],
    words: &[
        "ad", "ads", "nav", "tags", "share", "shares", "aside", "hidden", "toolbar", "tools",
        "foot",
    ],
};

/// Names of a page's text.
const CONTENT: Names = Names {
    parts: &[
        "article", "content", "entry", "main", "post", "story", "blog", "text", "body",
    ],
    words: &[],
};

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

/// What `class_and_id` (lower case, as the tree keeps it) says by the names of `boilerplate`
/// and of text.
fn classify(class_and_id: &str, boilerplate: &Names) -> ClassHint {
    let mut hint = ClassHint::default();
    for word in class_and_id
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        hint.boilerplate |= boilerplate.name(word);
        hint.content |= CONTENT.name(word);
    }
    hint
}

/// The hint the class weight reads.
pub(super) fn hint(class_and_id: &str) -> ClassHint {
    classify(class_and_id, &BOILERPLATE)
}

/// Whether the drop rule (`drop_boilerplate_names`) leaves the element out: a dropped name and
/// no name of text. Runs for every element with a class or id, and most hold none of the
/// dropped names, which one search each rules out.
pub(super) fn is_dropped(class_and_id: &str) -> bool {
    if !DROPPED.may_be_in(class_and_id) {
        return false;
    }
    let hint = classify(class_and_id, &DROPPED);
    hint.boilerplate && !hint.content
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
