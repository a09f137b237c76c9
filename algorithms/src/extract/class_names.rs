//! What an element's `class` and `id` say about it. Templates name their parts: `comments`,
//! `sidebar`, `related-posts`, `share-buttons` around what is not the page's text, `article-body`,
//! `entry-content`, `post` around what is. Those names are the strongest signal a page gives
//! that its text length and link density cannot: a comment thread is long, link-poor prose.

use std::sync::LazyLock;

/// A list of names (lower case ASCII letters and digits): parts are found inside a word, words
/// must be the whole word (between characters other than ASCII letters and digits).
#[derive(Debug, Clone, PartialEq)]
struct Names {
    parts: Vec<String>,
    words: Vec<String>,
    /// Every name with whether it is a whole word, grouped by its first byte...
    by_first_byte: Vec<(Box<[u8]>, bool)>,
    /// ... and the range of `by_first_byte` of each first byte: most positions of a class
    /// start no name, and the others one or two, so a pass over the class asks only those.
    ranges: [(u16, u16); 256],
}

impl Default for Names {
    fn default() -> Names {
        Names::new(Vec::new(), Vec::new())
    }
}

impl Names {
    fn new(parts: Vec<String>, words: Vec<String>) -> Names {
        let mut by_first_byte: Vec<(Box<[u8]>, bool)> = parts
            .iter()
            .map(|p| (p, false))
            .chain(words.iter().map(|w| (w, true)))
            .filter(|(name, _)| !name.is_empty())
            .map(|(name, whole)| (name.as_bytes().into(), whole))
            .collect();
        by_first_byte.sort_by_key(|(name, _)| name[0]);
        let mut ranges = [(0u16, 0u16); 256];
        for (i, (name, _)) in by_first_byte.iter().enumerate() {
            // A list longer than u16 can count is cut there: names are a few dozen.
            let Ok(i) = u16::try_from(i) else { break };
            let range = &mut ranges[usize::from(name[0])];
            if range.0 == range.1 {
                *range = (i, i);
            }
            range.1 = i + 1;
        }
        Names {
            parts,
            words,
            by_first_byte,
            ranges,
        }
    }

    fn of(parts: &[&str], words: &[&str]) -> Names {
        let owned = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        Names::new(owned(parts), owned(words))
    }

    /// Whether one of the names is in `class_and_id`. The same as asking each of its words,
    /// since a name has no character that separates words.
    fn in_text(&self, class_and_id: &str) -> bool {
        let bytes = class_and_id.as_bytes();
        let separates = |at: Option<&u8>| at.is_none_or(|b| !b.is_ascii_alphanumeric());
        // A byte loop: the names are short, and a call to memcmp per name cost more.
        let starts_with = |rest: &[u8], name: &[u8]| {
            rest.len() >= name.len() && rest.iter().zip(name).all(|(a, b)| a == b)
        };
        (0..bytes.len()).any(|at| {
            let (start, end) = self.ranges[usize::from(bytes[at])];
            let rest = &bytes[at..];
            self.by_first_byte[usize::from(start)..usize::from(end)]
                .iter()
                .any(|(name, whole)| {
                    starts_with(rest, name)
                        && (!whole
                            || (separates(rest.get(name.len()))
                                && separates(at.checked_sub(1).and_then(|b| bytes.get(b)))))
                })
        })
    }
}

/// The names to leave out given as an option (`dropped_names`) instead of the measured list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DroppedNames(Names);

impl DroppedNames {
    /// Names separated by spaces, `=name` for a whole word only (`comment footer =tags`); each
    /// of ASCII letters and digits. `None` for anything else.
    pub fn parse(list: &str) -> Option<DroppedNames> {
        let (mut parts, mut words) = (Vec::new(), Vec::new());
        for name in list.split_whitespace() {
            let (whole, name) = match name.strip_prefix('=') {
                Some(rest) => (true, rest),
                None => (false, name),
            };
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return None;
            }
            let name = name.to_ascii_lowercase();
            if whole {
                words.push(name);
            } else {
                parts.push(name);
            }
        }
        Some(DroppedNames(Names::new(parts, words)))
    }
}

/// The names whose elements are left out (`drop_boilerplate_names`): each of them, alone,
/// raised the mean F1 over the six shared sets by more than 0.00005 (`eval/quality/extract_loso.py`
/// runs the rule), while `sidebar`, `widget`, `menu`, `pager`, `navigation`, `ad`, `share` and
/// `hidden` lowered it: page builders put those on wrappers of the text too
/// (`elementor-widget-text-editor`, `has-sidebar`, `visually-hidden`).
static DROPPED: LazyLock<Names> = LazyLock::new(|| {
    Names::of(
        &[
            "comment",
            "footer",
            "masthead",
            "promo",
            "related",
            "banner",
            "newsletter",
            "popup",
            "modal",
            "disqus",
            "pagination",
        ],
        &["tags", "tools"],
    )
});

/// Names of boilerplate, for the class weight.
static BOILERPLATE: LazyLock<Names> = LazyLock::new(|| {
    Names::of(
        &[
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
        &[
            "ad", "ads", "nav", "tags", "share", "shares", "aside", "hidden", "toolbar", "tools",
            "foot",
        ],
    )
});

/// Names of a page's text.
static CONTENT: LazyLock<Names> = LazyLock::new(|| {
    Names::of(
        &[
            "article", "content", "entry", "main", "post", "story", "blog", "text", "body",
        ],
        &[],
    )
});

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

/// What `class_and_id` (lower case, as the tree keeps it) says by the names of boilerplate and
/// of text.
pub(super) fn hint(class_and_id: &str) -> ClassHint {
    ClassHint {
        boilerplate: BOILERPLATE.in_text(class_and_id),
        content: CONTENT.in_text(class_and_id),
    }
}

/// Whether the drop rule (`drop_boilerplate_names`) leaves the element out: a dropped name (of
/// `dropped`, or of the measured list) and no name of text. Runs for every element with a
/// class or id; most hold no dropped name, so the name of text is looked for only after one.
pub(super) fn is_dropped(class_and_id: &str, dropped: Option<&DroppedNames>) -> bool {
    let dropped = dropped.map_or(&*DROPPED, |list| &list.0);
    dropped.in_text(class_and_id) && !CONTENT.in_text(class_and_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_dropped_by_default(class_and_id: &str) -> bool {
        is_dropped(class_and_id, None)
    }

    #[test]
    fn a_list_given_as_an_option_replaces_the_measured_one() {
        let list = DroppedNames::parse("Sidebar =hidden").expect("a list");
        assert!(is_dropped("left-sidebar", Some(&list)));
        assert!(is_dropped("x hidden", Some(&list)));
        assert!(
            !is_dropped("visually-hidden2", Some(&list)),
            "hidden whole only"
        );
        assert!(!is_dropped("comments", Some(&list)), "not on the list");
        assert!(
            !is_dropped("sidebar-content", Some(&list)),
            "a name of text wins"
        );
        let empty = DroppedNames::parse("").expect("an empty list");
        assert!(!is_dropped("comments footer", Some(&empty)));
        for bad in ["side-bar", "=", "a,b", "é"] {
            assert_eq!(DroppedNames::parse(bad), None, "{bad}");
        }
    }

    /// The definition `in_text` stands for: the class split into words, each word asked.
    fn by_words(names: &Names, class_and_id: &str) -> bool {
        class_and_id
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| {
                names.words.iter().any(|w| w == word)
                    || names.parts.iter().any(|p| word.contains(p.as_str()))
            })
    }

    #[test]
    fn one_pass_over_the_class_finds_what_asking_each_word_finds() {
        let names = Names::of(&["comment", "ad2"], &["nav", "tags"]);
        let classes = [
            "",
            "nav",
            "a-nav-b",
            "canvas",
            "navx",
            "xnav",
            "nav_",
            "nav2",
            "é-nav",
            "navé",
            "nav é",
            "tags-nav",
            "stags",
            "comments",
            "showcomment",
            "comment",
            "commen",
            "x ad2",
            "bad2x",
            "ad",
            "nav nav",
            "tagsnav",
            "--tags--",
            "nnav",
            "navv nav",
        ];
        for class in classes {
            assert_eq!(names.in_text(class), by_words(&names, class), "{class:?}");
        }
        for (class, found) in [("a-nav-b", true), ("canvas", false), ("é-nav", true)] {
            assert_eq!(names.in_text(class), found, "{class:?}");
        }
    }

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
        assert!(is_dropped_by_default("comment-list"));
        assert!(is_dropped_by_default("site-footer dark"));
        assert!(!is_dropped_by_default("post-tags"), "a name of text wins");
        assert!(is_dropped_by_default("tags"));
        assert!(!is_dropped_by_default("stage"), "tags whole only");
        assert!(!is_dropped_by_default("sidebar"), "weighed, not dropped");
        assert!(!is_dropped_by_default("nav"), "weighed, not dropped");
        assert!(
            !is_dropped_by_default("comment-body"),
            "a name of text wins"
        );
    }
}
