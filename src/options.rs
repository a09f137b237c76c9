//! The `'key=value, key=value'` strings the SQL functions take as options, split once for all of
//! them (jusText's parameters, the de-duplication options, the limits and the row policy).

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

/// [`key_values`] with an item without `=` as its error message.
pub fn checked_key_values(options: &str) -> impl Iterator<Item = Result<(String, &str), String>> {
    key_values(options)
        .map(|item| item.map_err(|item| format!("'{item}' is not of the form key=value")))
}

/// A switch's value: true, 1, yes, on or false, 0, no, off (any case).
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
