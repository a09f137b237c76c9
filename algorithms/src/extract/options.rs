//! The extractor's parameters: their defaults and their `'key=value'` names.

use super::class_names::DroppedNames;
use crate::options::{
    Keys, OptionKey, choice, count, count_or_none, flag, key, number, number_or_none,
};

/// The weight of link-heavy characters against good ones in the text-mass choice.
pub(super) const DEFAULT_MASS_ALPHA: f64 = 2.0;

/// The extractor's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Characters a segment needs to score its containers.
    pub min_scoring_chars: usize,
    /// Segments with more of their characters in links are dropped from the text.
    pub max_link_density: f64,
    /// Siblings of the best candidate scoring at least this share of its score are kept too...
    pub sibling_share: f64,
    /// ... and at least this score.
    pub sibling_min_score: f64,
    /// Choose the container by text mass (see [`select_by_mass`](super::select::select_by_mass)): the weight of link-heavy
    /// characters against good ones; `None` for Readability's choice alone.
    pub mass_alpha: Option<f64>,
    /// With `mass_alpha`: keep Readability's choice when it holds at least this share of the
    /// text-mass choice's good characters.
    pub keep_dense_share: Option<f64>,
    /// With `keep_dense_share`: Readability's choice still gives way to the text-mass choice
    /// around it when the text that adds holds at most this many link-heavy characters per good
    /// one and does not repeat Readability's; `None`: never.
    pub widen_link_heavy_share: Option<f64>,
    /// Added to a candidate's score when its class or id names text, taken away when they name
    /// boilerplate (see [`class_names`](super::class_names)).
    pub class_weight: f64,
    /// Leave out elements whose class or id names boilerplate and not text.
    pub drop_boilerplate_names: bool,
    /// The names that leave an element out, instead of the measured list (`None`).
    pub dropped_names: Option<DroppedNames>,
    /// Plain text or Markdown.
    pub format: Format,
    /// When the text is shorter than this many characters, the page is read again as a listing
    /// (see [`as_listing`](super::as_listing)). `None`: never.
    pub listing_below_chars: Option<usize>,
    /// The segments with a title a listing needs.
    pub listing_min_titles: usize,
    /// The characters a link needs to be a title in a listing.
    pub title_link_chars: usize,
}

/// How the text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Segments joined by `'\n'`.
    #[default]
    Text,
    /// Headings, lists, tables, code, quotations, links, bold and italics as Markdown (GitHub's
    /// tables).
    Markdown,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            min_scoring_chars: 25,
            max_link_density: 0.5,
            sibling_share: 0.2,
            sibling_min_score: 10.0,
            mass_alpha: Some(DEFAULT_MASS_ALPHA),
            keep_dense_share: Some(0.4),
            widen_link_heavy_share: Some(0.05),
            class_weight: 25.0,
            drop_boilerplate_names: true,
            dropped_names: None,
            format: Format::Text,
            listing_below_chars: Some(250),
            listing_min_titles: 3,
            title_link_chars: 20,
        }
    }
}

/// The extractor's parameters as options, for [`crate::options::parse`]. `none` turns off the
/// steps that can be off.
pub const EXTRACT_KEYS: Keys<Params> = &[
    key!(
        "mass_alpha",
        [mass_alpha],
        number_or_none,
        "the weight of link-heavy characters against good ones when the container is chosen by \
         text mass; none: Readability's choice alone"
    ),
    key!(
        "keep_dense_share",
        [keep_dense_share],
        number_or_none,
        "Readability's choice is kept when it holds this share of the text-mass choice's good \
         characters; none: the text-mass choice alone"
    ),
    key!(
        "widen_link_heavy_share",
        [widen_link_heavy_share],
        number_or_none,
        "Readability's choice gives way to the text-mass choice around it when the text that \
         adds has at most this many link-heavy characters per good one and does not repeat it; \
         none: never"
    ),
    key!(
        "max_link_density",
        [max_link_density],
        number,
        "segments with more of their characters in links are dropped"
    ),
    key!("drop_boilerplate_names", [drop_boilerplate_names], flag, ""),
    OptionKey {
        name: "dropped_names",
        about: "the measured list; or names separated by spaces, =name for a whole word: \
                'dropped_names=comment footer =tags'",
        show: |p| match &p.dropped_names {
            None => "default".to_owned(),
            Some(_) => "a list".to_owned(),
        },
        set: |p, v| {
            p.dropped_names = if v.eq_ignore_ascii_case("default") {
                None
            } else {
                Some(DroppedNames::parse(v).ok_or(
                    "default, or names of ASCII letters and digits separated by spaces \
                     (=name: whole word)",
                )?)
            };
            Ok(())
        },
        preset: false,
    },
    OptionKey {
        name: "format",
        about: "or markdown",
        show: |p| {
            match p.format {
                Format::Text => "text",
                Format::Markdown => "markdown",
            }
            .to_owned()
        },
        set: |p, v| {
            let formats = [("text", Format::Text), ("markdown", Format::Markdown)];
            p.format = choice(v, &formats, "text or markdown")?;
            Ok(())
        },
        preset: false,
    },
    key!("class_weight", [class_weight], number, ""),
    key!("min_scoring_chars", [min_scoring_chars], count, ""),
    key!("sibling_share", [sibling_share], number, ""),
    key!("sibling_min_score", [sibling_min_score], number, ""),
    key!(
        "listing_below_chars",
        [listing_below_chars],
        count_or_none,
        "a shorter text is read again as a listing of linked titles; none: never"
    ),
    key!("listing_min_titles", [listing_min_titles], count, ""),
    key!(
        "title_link_chars",
        [title_link_chars],
        count,
        "the characters of a title link"
    ),
];
