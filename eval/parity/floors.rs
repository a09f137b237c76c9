//! The parity floors (`eval/parity/floors.txt`), read strictly so that no check passes on
//! nothing: a missing file, a malformed line, a share outside 0..=1, a key given twice or a
//! floor a checker needs and the file lacks is an error. Included with `#[path]` by the parity
//! checkers and `tests/checkers.rs`.

use std::collections::BTreeMap;
use std::path::Path;

/// The floors of one file, by key: `pages_identical` (a line `pages_identical = 1.0`) or
/// `boilerpipe article` (a line `boilerpipe article 0.9817`).
#[derive(Debug)]
pub struct Floors {
    file: String,
    values: BTreeMap<String, f64>,
}

impl Floors {
    pub fn read(path: &Path) -> Result<Floors, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("floors file {}: {e}", path.display()))?;
        Floors::parse(&text, &path.display().to_string())
    }

    /// `file` names the text in errors.
    pub fn parse(text: &str, file: &str) -> Result<Floors, String> {
        let mut values = BTreeMap::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let malformed = || {
                format!(
                    "{file}:{}: '{line}' is not 'key = share' or 'tool setting share' with a share \
                     from 0 to 1",
                    number + 1
                )
            };
            let (key, value) = match line.split_once('=') {
                Some((key, value)) => (key.trim().to_owned(), value.trim()),
                None => match line.split_whitespace().collect::<Vec<_>>()[..] {
                    [tool, setting, value] => (format!("{tool} {setting}"), value),
                    _ => return Err(malformed()),
                },
            };
            let value: f64 = value.parse().map_err(|_| malformed())?;
            if key.is_empty() || !(0.0..=1.0).contains(&value) {
                return Err(malformed());
            }
            if values.insert(key.clone(), value).is_some() {
                return Err(format!("{file}:{}: a second floor for '{key}'", number + 1));
            }
        }
        Ok(Floors {
            file: file.to_owned(),
            values,
        })
    }

    /// The floors of the file after `--floor` in `args`; `None` without the flag.
    #[allow(dead_code)]
    pub fn from_args(args: &[String]) -> Result<Option<Floors>, String> {
        match args.iter().position(|a| a == "--floor") {
            None => Ok(None),
            Some(i) => match args.get(i + 1) {
                Some(path) => Floors::read(Path::new(path)).map(Some),
                None => Err("--floor needs a file".to_owned()),
            },
        }
    }

    /// The floor of `key`; an error when the file has none.
    pub fn get(&self, key: &str) -> Result<f64, String> {
        self.values
            .get(key)
            .copied()
            .ok_or_else(|| format!("{}: no floor for '{key}'", self.file))
    }

    #[allow(dead_code)]
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }
}

/// The evaluation data's folder: the first argument unless it is a flag, else the folder
/// `WEBTEXT_SHARED` names, else `../shared`.
#[allow(dead_code)]
pub fn shared_folder(args: &[String]) -> String {
    args.first()
        .filter(|a| !a.starts_with("--"))
        .cloned()
        .or_else(|| std::env::var("WEBTEXT_SHARED").ok())
        .unwrap_or_else(|| "../shared".to_owned())
}

/// The evaluation data's folder ([`shared_folder`]) and the floors after `--floor`: read before
/// the long run, so a bad floors file fails first.
#[allow(dead_code)]
pub fn shared_and_floors(args: &[String]) -> Result<(String, Option<Floors>), String> {
    Ok((shared_folder(args), Floors::from_args(args)?))
}

/// Whether `value` reaches the floor of `key` (a FAIL line is printed when it does not); true
/// without floors. A key the file lacks is an error.
#[allow(dead_code)]
pub fn meets(floors: Option<&Floors>, key: &str, value: f64) -> Result<bool, String> {
    let Some(floors) = floors else {
        return Ok(true);
    };
    let floor = floors.get(key)?;
    if value < floor {
        println!("FAIL: {key}: {value:.5} below the floor {floor}");
    }
    Ok(value >= floor)
}
