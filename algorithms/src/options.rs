//! The `'key=value, key=value'` strings the SQL functions take as options, parsed once for all of
//! them. Each algorithm lists its keys in a table of [`OptionKey`]s (name, description, how its
//! value is read and shown); [`parse`] applies a string to the algorithm's parameters and to the
//! row policy every function takes ([`RowKeys`]), and [`describe`] writes the keys' documentation
//! with their defaults read from the parameters' `Default`, so the documented defaults are the
//! code's.

use crate::html::limits::Limits;

/// One key of an options string: its name, what it does, and how its value is read and shown.
pub struct OptionKey<P: 'static> {
    pub name: &'static str,
    /// What the key does, after its default in the documentation; empty when the name says it.
    pub about: &'static str,
    /// The value in `params`, as an options string spells it (the documented default is the
    /// value in the parameters' `Default`).
    pub show: fn(&P) -> String,
    /// Sets the value from its text; the error says what a valid value is.
    pub set: fn(&mut P, &str) -> Result<(), &'static str>,
    /// Applied before the other keys wherever it appears: a preset that the others refine.
    pub preset: bool,
}

/// A table of keys, in the order the documentation and error messages list them.
pub type Keys<P> = &'static [OptionKey<P>];

/// One key of a table: `key!("name", field.path, parser, "about")` reads the value with `parser`
/// (one of this module's, or any `fn(&str) -> Result<T, &'static str>`) into `params.field.path`
/// and shows it with [`ShowValue`].
#[doc(hidden)]
#[macro_export]
macro_rules! option_key {
    ($name:literal, [$($field:tt)+], $parse:expr, $about:expr) => {
        $crate::options::OptionKey {
            name: $name,
            about: $about,
            show: |p| $crate::options::ShowValue::show(&p.$($field)+),
            set: |p, v| {
                p.$($field)+ = $parse(v)?;
                Ok(())
            },
            preset: false,
        }
    };
}
// Exported (for the SQL layer's own options) at the crate's root, as macros are, and named here.
#[doc(inline)]
pub use crate::option_key as key;

/// A value as an options string spells it.
pub trait ShowValue {
    fn show(&self) -> String;
}

macro_rules! show_by_display {
    ($($t:ty),*) => {$(
        impl ShowValue for $t {
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
show_by_display!(usize, u32, f64, bool, String);

/// A list of numbers, separated by `|`.
impl ShowValue for Vec<usize> {
    fn show(&self) -> String {
        self.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join("|")
    }
}

/// A list of entries, separated by `|`.
impl ShowValue for Vec<String> {
    fn show(&self) -> String {
        self.join("|")
    }
}

/// `none` for a step that is off.
impl<T: ShowValue> ShowValue for Option<T> {
    fn show(&self) -> String {
        self.as_ref().map_or_else(|| "none".to_owned(), T::show)
    }
}

/// A malformed options string or a value a key does not take.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OptionError {
    #[error("'{0}' is not of the form key=value")]
    NotKeyValue(String),
    #[error("unknown option '{key}'; known: {known}")]
    UnknownKey { key: String, known: String },
    #[error("option {key}: '{value}' is not {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
    /// Values that are each valid but not together, or a resource an option names that cannot be
    /// used.
    #[error("{0}")]
    Invalid(String),
}

/// How a function treats each row: the limits it processes a page within, and whether a row it
/// cannot process (a page over `max_bytes`, one the original tool raises on, or a bug of ours that
/// panicked) gives NULL, the default, or fails the query (`on_error=fail`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RowPolicy {
    pub limits: Limits,
    pub fail: bool,
}

impl RowPolicy {
    /// The policy of a text function: no size limit, NULL or a failed query.
    pub fn for_text(fail: bool) -> Self {
        RowPolicy {
            limits: Limits {
                max_bytes: 0,
                ..Limits::default()
            },
            fail,
        }
    }
}

/// The row-policy keys a function takes besides its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKeys {
    /// A page function's: the limits and `on_error`.
    Page,
    /// A text function's: `on_error` alone.
    Text,
}

impl RowKeys {
    fn keys(self) -> Keys<RowPolicy> {
        match self {
            RowKeys::Page => PAGE_ROW_KEYS,
            RowKeys::Text => TEXT_ROW_KEYS,
        }
    }

    fn start(self) -> RowPolicy {
        match self {
            RowKeys::Page => RowPolicy::default(),
            RowKeys::Text => RowPolicy::for_text(false),
        }
    }
}

/// The option that chooses between NULL and a failed query for a row that cannot be processed.
pub const ON_ERROR_KEY: &str = "on_error";

fn show_on_error(policy: &RowPolicy) -> String {
    if policy.fail { "fail" } else { "null" }.to_owned()
}

fn set_on_error(policy: &mut RowPolicy, value: &str) -> Result<(), &'static str> {
    policy.fail = choice(value, &[("null", false), ("fail", true)], "null or fail")?;
    Ok(())
}

const PAGE_ROW_KEYS: Keys<RowPolicy> = &[
    key!(
        "max_bytes",
        [limits.max_bytes],
        bytes,
        "a longer page, counted in stored bytes, is not processed and gives NULL; 0 = no limit"
    ),
    key!(
        "max_depth",
        [limits.max_depth],
        depth,
        "elements opened deeper are closed at once and their content joins their parent, as \
         browsers do"
    ),
    key!(
        "max_attributes",
        [limits.max_attributes],
        count,
        "a tag's further attributes are ignored"
    ),
    OptionKey {
        name: ON_ERROR_KEY,
        about: "a page that cannot be processed gives NULL; fail: the query fails with the reason",
        show: show_on_error,
        set: set_on_error,
        preset: false,
    },
];

const TEXT_ROW_KEYS: Keys<RowPolicy> = &[OptionKey {
    name: ON_ERROR_KEY,
    about: "a text that cannot be processed, which only a bug of ours can cause and \
            datafusion_webtext::row_panics() counts, gives NULL; fail: the query fails with the \
            reason",
    show: show_on_error,
    set: set_on_error,
    preset: false,
}];

/// Applies `options` to `params` through the keys of `tables`, and to the row policy through the
/// keys of `rows`: keys are case-insensitive, whitespace around keys and values is ignored, empty
/// items are skipped, and a preset key is applied before the others wherever it appears.
pub fn parse<P>(
    options: &str,
    mut params: P,
    tables: &[Keys<P>],
    rows: RowKeys,
) -> Result<(P, RowPolicy), OptionError> {
    let items = key_values(options)
        .map(|item| item.map_err(|item| OptionError::NotKeyValue(item.to_owned())))
        .collect::<Result<Vec<_>, _>>()?;
    let own = |name: &str| {
        tables
            .iter()
            .flat_map(|t| t.iter())
            .find(|k| k.name == name)
    };
    let is_preset = |name: &str| own(name).is_some_and(|k| k.preset);
    let presets = items.iter().filter(|(key, _)| is_preset(key));
    let others = items.iter().filter(|(key, _)| !is_preset(key));
    let mut policy = rows.start();
    for (key, value) in presets.chain(others) {
        let set = if let Some(k) = own(key) {
            (k.set)(&mut params, value)
        } else if let Some(k) = rows.keys().iter().find(|k| k.name == key) {
            (k.set)(&mut policy, value)
        } else {
            return Err(OptionError::UnknownKey {
                key: key.clone(),
                known: key_names(tables, rows),
            });
        };
        set.map_err(|expected| OptionError::BadValue {
            key: key.clone(),
            value: (*value).to_owned(),
            expected,
        })?;
    }
    Ok((params, policy))
}

/// The names of the keys, comma-separated: the function's own, then the row policy's.
fn key_names<P>(tables: &[Keys<P>], rows: RowKeys) -> String {
    let own = tables.iter().flat_map(|t| t.iter()).map(|k| k.name);
    let row = rows.keys().iter().map(|k| k.name);
    own.chain(row).collect::<Vec<_>>().join(", ")
}

/// The documentation of keys: `name (default; about), ...` with the defaults of `defaults`.
pub fn describe<P>(tables: &[Keys<P>], defaults: &P) -> String {
    tables
        .iter()
        .flat_map(|t| t.iter())
        .map(|k| describe_key(k, defaults))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The documentation of the row-policy keys.
pub fn describe_rows(rows: RowKeys) -> String {
    describe(&[rows.keys()], &rows.start())
}

fn describe_key<P>(key: &OptionKey<P>, defaults: &P) -> String {
    let default = (key.show)(defaults);
    if key.about.is_empty() {
        format!("{} ({default})", key.name)
    } else {
        format!("{} ({default}; {})", key.name, key.about)
    }
}

/// The items of an options string: keys lower-cased, keys and values trimmed, empty items skipped;
/// `Err(item)` for an item without `=`.
pub fn key_values(options: &str) -> impl Iterator<Item = Result<(String, &str), &str>> {
    options
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim()))
                .ok_or(item)
        })
}

/// A switch's value: true, 1, yes, on or false, 0, no, off (any case).
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

// The value readers of the tables; each error is what a valid value is.

/// A whole number >= 0.
pub fn count(value: &str) -> Result<usize, &'static str> {
    value.parse().map_err(|_| "a whole number >= 0")
}

/// A finite number >= 0.
pub fn number(value: &str) -> Result<f64, &'static str> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or("a finite number >= 0")
}

/// A finite number >= 0, or `none` for a step that is off.
pub fn number_or_none(value: &str) -> Result<Option<f64>, &'static str> {
    if is_none(value) {
        return Ok(None);
    }
    number(value)
        .map(Some)
        .map_err(|_| "a finite number >= 0 or none")
}

/// A whole number >= 0, or `none` for a step that is off.
pub fn count_or_none(value: &str) -> Result<Option<usize>, &'static str> {
    if is_none(value) {
        return Ok(None);
    }
    count(value)
        .map(Some)
        .map_err(|_| "a whole number >= 0 or none")
}

/// A switch: see [`parse_bool`].
/// Whole numbers separated by `|` (`10|30`); empty for none.
pub fn counts(value: &str) -> Result<Vec<usize>, &'static str> {
    value
        .split('|')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| v.parse().map_err(|_| "whole numbers separated by |"))
        .collect()
}

/// Words separated by `|` (`the|be|to`), kept as written; empty for none.
pub fn word_list(value: &str) -> Result<Vec<String>, &'static str> {
    Ok(value
        .split('|')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect())
}

/// A tokenizer's name (token_count's `tokenizer`, TokenStats' `tokenizer_name_or_path`): not
/// empty.
pub fn tokenizer_name(value: &str) -> Result<String, &'static str> {
    if value.is_empty() {
        return Err("a tokenizer.json, a folder holding one, or a Hub model in the local cache");
    }
    Ok(value.to_owned())
}

/// A name or path that cannot be empty.
pub fn non_empty(value: &str) -> Result<String, &'static str> {
    if value.is_empty() {
        return Err("a value, not empty");
    }
    Ok(value.to_owned())
}

pub fn flag(value: &str) -> Result<bool, &'static str> {
    parse_bool(value).ok_or("true or false")
}

/// A size in bytes.
fn bytes(value: &str) -> Result<usize, &'static str> {
    value
        .parse::<u64>()
        .ok()
        .and_then(|v| usize::try_from(v).ok())
        .ok_or("a whole number of bytes >= 0 (0: no limit)")
}

fn depth(value: &str) -> Result<u32, &'static str> {
    value
        .parse::<u32>()
        .ok()
        .filter(|v| *v >= 1)
        .ok_or("a whole number from 1 to 4294967295")
}

/// Whether a value is `none` (any case).
pub fn is_none(value: &str) -> bool {
    value.eq_ignore_ascii_case("none")
}

/// One of named values (any case); `expected` lists the names.
pub fn choice<T: Copy>(
    value: &str,
    names: &[(&str, T)],
    expected: &'static str,
) -> Result<T, &'static str> {
    names
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(value))
        .map(|(_, v)| *v)
        .ok_or(expected)
}

/// A function's options documented in one sentence: its own keys then the row policy's.
pub fn describe_all<P>(tables: &[Keys<P>], defaults: &P, rows: RowKeys) -> String {
    let own = describe(tables, defaults);
    let row = describe_rows(rows);
    if own.is_empty() {
        row
    } else {
        format!("{own}, {row}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Default, PartialEq)]
    struct Example {
        n: usize,
        share: Option<f64>,
        on: bool,
        preset_n: usize,
    }

    const EXAMPLE_KEYS: Keys<Example> = &[
        key!("n", [n], count, ""),
        key!("share", [share], number_or_none, "none: off"),
        key!("on", [on], flag, ""),
        OptionKey {
            name: "preset",
            about: "",
            show: |_| "plain".to_owned(),
            set: |p, v| {
                p.n = choice(v, &[("big", 100), ("plain", 0)], "big or plain")?;
                p.preset_n = p.n;
                Ok(())
            },
            preset: true,
        },
    ];

    fn parsed(options: &str, rows: RowKeys) -> Result<(Example, RowPolicy), OptionError> {
        parse(options, Example::default(), &[EXAMPLE_KEYS], rows)
    }

    #[test]
    fn items_are_trimmed_lower_cased_and_checked() {
        let items: Vec<_> = key_values(" Length_Low = 5 ,, n=7,bad").collect();
        assert_eq!(
            items,
            [
                Ok(("length_low".to_owned(), "5")),
                Ok(("n".to_owned(), "7")),
                Err("bad")
            ]
        );
    }

    #[test]
    fn keys_set_the_parameters_and_the_row_policy() {
        let (p, policy) =
            parsed(" N = 3, share=none, ON=yes, on_error=FAIL", RowKeys::Text).expect("valid");
        assert_eq!((p.n, p.share, p.on), (3, None, true));
        assert!(policy.fail);
        assert_eq!(
            policy.limits.max_bytes, 0,
            "a text function has no size limit"
        );
        let (_, policy) = parsed("max_bytes=10", RowKeys::Page).expect("valid");
        assert_eq!(policy.limits.max_bytes, 10);
        assert!(!policy.fail);
    }

    #[test]
    fn a_preset_is_applied_first_wherever_it_appears() {
        let (p, _) = parsed("n=5, preset=big", RowKeys::Text).expect("valid");
        assert_eq!((p.n, p.preset_n), (5, 100));
    }

    #[test]
    fn errors_name_the_key_the_value_and_what_is_valid() {
        let message = |options, rows| parsed(options, rows).unwrap_err().to_string();
        assert_eq!(
            message("max_bytes=1", RowKeys::Text),
            "unknown option 'max_bytes'; known: n, share, on, preset, on_error"
        );
        assert_eq!(
            message("share=-1", RowKeys::Text),
            "option share: '-1' is not a finite number >= 0 or none"
        );
        assert_eq!(
            message("max_depth=0", RowKeys::Page),
            "option max_depth: '0' is not a whole number from 1 to 4294967295"
        );
        assert_eq!(
            message("on_error=maybe", RowKeys::Page),
            "option on_error: 'maybe' is not null or fail"
        );
        assert_eq!(
            message("n", RowKeys::Text),
            "'n' is not of the form key=value"
        );
    }

    #[test]
    fn the_documentation_shows_the_defaults_of_the_code() {
        let defaults = Example {
            share: Some(0.25),
            ..Example::default()
        };
        assert_eq!(
            describe(&[EXAMPLE_KEYS], &defaults),
            "n (0), share (0.25; none: off), on (false), preset (plain)"
        );
        let page = describe_rows(RowKeys::Page);
        assert!(
            page.starts_with("max_bytes (33554432; a longer page"),
            "{page}"
        );
        assert!(page.contains("max_depth (512; "), "{page}");
        assert!(describe_rows(RowKeys::Text).starts_with("on_error (null; a text"));
    }
}
