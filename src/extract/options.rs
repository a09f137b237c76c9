//! The extractor's parameters: their defaults and their `'key=value'` names.

use super::class_names::DroppedNames;

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

/// The keys of [`Params::set`], for options strings and their error messages.
pub const OPTION_KEYS: &[&str] = &[
    "mass_alpha",
    "keep_dense_share",
    "widen_link_heavy_share",
    "max_link_density",
    "min_scoring_chars",
    "sibling_share",
    "sibling_min_score",
    "class_weight",
    "drop_boilerplate_names",
    "dropped_names",
    "format",
    "listing_below_chars",
    "listing_min_titles",
    "title_link_chars",
];

impl Params {
    /// Sets the parameter `key` from its text: `None` for a key that is not one of
    /// [`OPTION_KEYS`], else whether `value` was usable (the expected kind of value if not).
    /// `mass_alpha=none`, `keep_dense_share=none` and `widen_link_heavy_share=none` turn those
    /// steps off.
    pub fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        let number = || {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let whole = || value.trim().parse::<usize>().ok();
        let optional = || {
            if value.trim().eq_ignore_ascii_case("none") {
                Some(None)
            } else {
                number().map(Some)
            }
        };
        let result = match key {
            "mass_alpha" => optional().map(|v| self.mass_alpha = v),
            "keep_dense_share" => optional().map(|v| self.keep_dense_share = v),
            "widen_link_heavy_share" => optional().map(|v| self.widen_link_heavy_share = v),
            "max_link_density" => number().map(|v| self.max_link_density = v),
            "min_scoring_chars" => whole().map(|v| self.min_scoring_chars = v),
            "listing_below_chars" => if value.trim().eq_ignore_ascii_case("none") {
                Some(None)
            } else {
                whole().map(Some)
            }
            .map(|v| self.listing_below_chars = v),
            "listing_min_titles" => whole().map(|v| self.listing_min_titles = v),
            "title_link_chars" => whole().map(|v| self.title_link_chars = v),
            "sibling_share" => number().map(|v| self.sibling_share = v),
            "sibling_min_score" => number().map(|v| self.sibling_min_score = v),
            "class_weight" => number().map(|v| self.class_weight = v),
            "drop_boilerplate_names" => {
                crate::options::parse_bool(value).map(|v| self.drop_boilerplate_names = v)
            }
            "dropped_names" => if value.trim().eq_ignore_ascii_case("default") {
                Some(None)
            } else {
                DroppedNames::parse(value).map(Some)
            }
            .map(|v| self.dropped_names = v),
            "format" => match value.trim().to_ascii_lowercase().as_str() {
                "text" => Some(Format::Text),
                "markdown" => Some(Format::Markdown),
                _ => None,
            }
            .map(|v| self.format = v),
            _ => return None,
        };
        Some(result.ok_or(match key {
            "mass_alpha" | "keep_dense_share" | "widen_link_heavy_share" => {
                "a finite number >= 0 or none"
            }
            "min_scoring_chars" | "listing_min_titles" | "title_link_chars" => {
                "a whole number >= 0"
            }
            "listing_below_chars" => "a whole number >= 0 or none",
            "drop_boilerplate_names" => "true or false",
            "dropped_names" => {
                "default, or names of ASCII letters and digits separated by spaces (=name: whole word)"
            }
            "format" => "text or markdown",
            _ => "a finite number >= 0",
        }))
    }
}
