//! Parameters of SQL files: `-- @param NAME = VALUE` lines declare them with their default,
//! `${NAME}` in the text is replaced, and `--param NAME=VALUE` overrides a default.
//!
//! A value is SQL text, pasted as it is (a file puts quotes around the values it takes as
//! strings): whoever sets a parameter writes SQL. `$${` stands for a literal `${`.

use std::collections::BTreeMap;

use crate::jobs::{JobError, Result};

/// The parameters a file declares, with their defaults, in name order.
pub fn declared(sql: &str) -> BTreeMap<String, String> {
    sql.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("--")?.trim_start();
            let (name, value) = rest.strip_prefix("@param")?.split_once('=')?;
            Some((name.trim().to_owned(), value.trim().to_owned()))
        })
        .collect()
}

/// A command's own parameter values, by name, as `substitute` takes them.
pub fn named<const N: usize>(values: [(&str, String); N]) -> Vec<(String, String)> {
    values
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect()
}

/// `NAME=VALUE`.
pub fn parse_assignment(s: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("'{s}' is not NAME=VALUE"))?;
    Ok((name.trim().to_owned(), value.to_owned()))
}

/// The text with every `${NAME}` replaced by its value (the override, else the declared default)
/// and every `$${` by `${`. An override of an undeclared parameter, or a `${NAME}` without a
/// value, is an error.
pub fn substitute(sql: &str, overrides: &[(String, String)]) -> Result<String> {
    substitute_with(sql, overrides, &[])
}

/// [`substitute`], with parameters the command itself gives (the `${shard}` of a sharded run)
/// usable without a declaration, in the SQL and in the values of the others
/// (`--param decisions=decisions/${shard}.parquet`).
pub fn substitute_with(
    sql: &str,
    overrides: &[(String, String)],
    given: &[(&str, &str)],
) -> Result<String> {
    let mut values = declared(sql);
    for (name, value) in overrides {
        if !values.contains_key(name) {
            let known: Vec<&str> = values.keys().map(String::as_str).collect();
            return Err(JobError::Usage(if known.is_empty() {
                format!("--param {name}: the SQL declares no parameters (-- @param NAME = DEFAULT)")
            } else {
                format!(
                    "--param {name}: no such parameter; the SQL declares: {}",
                    known.join(", ")
                )
            }));
        }
        values.insert(name.clone(), value.clone());
    }
    for value in values.values_mut() {
        for (name, given_value) in given {
            *value = value.replace(&format!("${{{name}}}"), given_value);
        }
    }
    for (name, value) in given {
        values.insert((*name).to_owned(), (*value).to_owned());
    }
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let at = &rest[start..];
        if let Some(after) = at.strip_prefix("$${") {
            out.push_str("${");
            rest = after;
            continue;
        }
        let Some(after) = at.strip_prefix("${") else {
            out.push('$');
            rest = &at[1..];
            continue;
        };
        let Some(end) = after.find('}') else {
            return Err(JobError::Usage("unterminated ${ in the SQL".into()));
        };
        let name = &after[..end];
        match values.get(name) {
            Some(v) => out.push_str(v),
            None => {
                return Err(JobError::Usage(format!(
                    "the SQL uses ${{{name}}}, which no '-- @param {name} = ...' line declares"
                )));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQL: &str =
        "-- @param n = 7\n-- @param path = a b.parquet\nSELECT f(x, ${n}), '${path}', '$n'";

    #[test]
    fn defaults_and_overrides_are_substituted() {
        assert_eq!(
            substitute(SQL, &[]).unwrap().lines().last(),
            Some("SELECT f(x, 7), 'a b.parquet', '$n'")
        );
        let o = [("n".to_owned(), "5".to_owned())];
        assert!(
            substitute(SQL, &o)
                .unwrap()
                .ends_with("SELECT f(x, 5), 'a b.parquet', '$n'")
        );
    }

    #[test]
    fn a_doubled_dollar_is_a_literal_dollar_brace() {
        assert_eq!(
            substitute("-- @param n = 7\nSELECT '$${n}', ${n}, '$$', '$'", &[]).unwrap(),
            "-- @param n = 7\nSELECT '${n}', 7, '$$', '$'"
        );
        // Not substituted again: the literal's name need not be declared.
        assert_eq!(substitute("SELECT '$${x}'", &[]).unwrap(), "SELECT '${x}'");
    }

    #[test]
    fn a_given_parameter_needs_no_declaration_and_reaches_the_values() {
        let sql = "-- @param out = x.parquet\nCOPY t TO '${out}'; SELECT '${shard}'";
        let o = [("out".to_owned(), "d/${shard}.parquet".to_owned())];
        assert_eq!(
            substitute_with(sql, &o, &[("shard", "part-7")]).unwrap(),
            "-- @param out = x.parquet\nCOPY t TO 'd/part-7.parquet'; SELECT 'part-7'"
        );
        // Without it, ${shard} is undeclared.
        assert!(substitute(sql, &o).is_err());
    }

    #[test]
    fn unknown_and_undeclared_parameters_are_errors() {
        let o = [("m".to_owned(), "5".to_owned())];
        assert_eq!(
            substitute(SQL, &o).unwrap_err().to_string(),
            "--param m: no such parameter; the SQL declares: n, path"
        );
        assert!(
            substitute("SELECT ${x}", &[])
                .unwrap_err()
                .to_string()
                .contains("${x}")
        );
    }
}
