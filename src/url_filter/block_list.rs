//! datatrove's domain and URL block list (`url_filterblacklistsv0_3_0.tar.gz`, members `domains`
//! and `urls`, derived from the Université Toulouse Capitole "UT1" blacklists), read from the
//! archive the datatrove wheel ships or from the folder datatrove extracts it to, once per
//! process, into sorted sets that hold 4.6 million entries in about 110 MB.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::words::is_python_space;

/// The file the datatrove wheel ships, under `datatrove/assets/`.
pub const BLOCK_LIST_ARCHIVE: &str = "url_filterblacklistsv0_3_0.tar.gz";

/// A set of strings in one buffer, sorted for binary search.
#[derive(Debug, Default)]
pub struct StringSet {
    text: String,
    spans: Vec<(usize, usize)>,
}

impl StringSet {
    pub fn from_entries<'a>(entries: impl IntoIterator<Item = &'a str>) -> StringSet {
        let mut set = StringSet::default();
        for entry in entries {
            let start = set.text.len();
            set.text.push_str(entry);
            set.spans.push((start, set.text.len()));
        }
        set.sorted()
    }

    /// The set of the entries of a list file ([`list_entries`]), kept in the file's own text:
    /// the 124 MB of domains are not copied.
    pub fn from_list_text(text: String) -> StringSet {
        let base = text.as_ptr() as usize;
        let spans = list_entries(&text)
            .map(|entry| {
                let start = entry.as_ptr() as usize - base;
                (start, start + entry.len())
            })
            .collect();
        StringSet { text, spans }.sorted()
    }

    /// The spans sorted by their strings, each string once.
    fn sorted(mut self) -> StringSet {
        let text = &self.text;
        self.spans
            .sort_unstable_by(|a, b| text[a.0..a.1].cmp(&text[b.0..b.1]));
        self.spans.dedup_by(|a, b| text[a.0..a.1] == text[b.0..b.1]);
        self
    }

    pub fn contains(&self, value: &str) -> bool {
        self.spans
            .binary_search_by(|&(start, end)| self.text[start..end].cmp(value))
            .is_ok()
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Adds entries (a rebuild: for the few a user gives beside a loaded list).
    pub fn with(&self, extra: &[String]) -> StringSet {
        let own = self.spans.iter().map(|&(s, e)| &self.text[s..e]);
        StringSet::from_entries(own.chain(extra.iter().map(String::as_str)))
    }
}

/// The lines of a text file as Python's text mode reads them (`\n`, `\r\n` and `\r` end a
/// line), each stripped, those starting with `#` left out: datatrove's `parse_list` without
/// normalisation.
pub fn list_entries(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .flat_map(|line| line.split('\r'))
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.trim_matches(is_python_space))
}

/// The domains and the URLs of a block list.
#[derive(Debug, Default)]
pub struct BlockList {
    pub domains: StringSet,
    pub urls: StringSet,
}

static LOADED: Mutex<Option<HashMap<PathBuf, Arc<BlockList>>>> = Mutex::new(None);

/// The block list at `path` (the archive, or a folder holding `domains` and `urls`), read once
/// per process.
pub fn load_block_list(path: &Path) -> Result<Arc<BlockList>, String> {
    let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if let Some(list) = LOADED
        .lock()
        .ok()
        .and_then(|loaded| loaded.as_ref()?.get(&key).cloned())
    {
        return Ok(list);
    }
    let list = Arc::new(read_block_list(path)?);
    if let Ok(mut loaded) = LOADED.lock() {
        loaded
            .get_or_insert_with(HashMap::new)
            .insert(key, Arc::clone(&list));
    }
    Ok(list)
}

fn read_block_list(path: &Path) -> Result<BlockList, String> {
    let shown = path.display();
    let (domains, urls) = if path.is_dir() {
        let read = |name: &str| {
            std::fs::read(path.join(name))
                .map_err(|e| format!("cannot read {name} in {shown}: {e}"))
        };
        (read("domains")?, read("urls")?)
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {shown}: {e}"))?;
        let mut members = tar_members(flate2::read::GzDecoder::new(file), &["domains", "urls"])
            .map_err(|e| format!("cannot read the archive {shown}: {e}"))?;
        let mut take = |name: &str| {
            members
                .remove(name)
                .ok_or_else(|| format!("the archive {shown} has no member {name}"))
        };
        (take("domains")?, take("urls")?)
    };
    let set = |bytes: Vec<u8>| {
        let text = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        StringSet::from_list_text(text)
    };
    Ok(BlockList {
        domains: set(domains),
        urls: set(urls),
    })
}

/// The contents of the regular files of a tar stream whose last path component is one of
/// `wanted` (POSIX ustar and GNU headers; other members are skipped).
fn tar_members(
    mut stream: impl Read,
    wanted: &[&str],
) -> std::io::Result<HashMap<String, Vec<u8>>> {
    let mut found = HashMap::new();
    let mut header = [0u8; 512];
    loop {
        if !read_block(&mut stream, &mut header)? || header.iter().all(|&b| b == 0) {
            return Ok(found);
        }
        let name_end = header[..100].iter().position(|&b| b == 0).unwrap_or(100);
        let name = String::from_utf8_lossy(&header[..name_end]).into_owned();
        let size = octal(&header[124..136]).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "a member's size is not octal",
            )
        })?;
        let padded = size.div_ceil(512) * 512;
        let base = name.trim_end_matches('/').rsplit('/').next().unwrap_or("");
        let regular = matches!(header[156], b'0' | 0);
        if regular && wanted.contains(&base) {
            let mut body = vec![0u8; usize::try_from(size).unwrap_or(usize::MAX)];
            stream.read_exact(&mut body)?;
            std::io::copy(&mut (&mut stream).take(padded - size), &mut std::io::sink())?;
            found.insert(base.to_owned(), body);
        } else {
            std::io::copy(&mut (&mut stream).take(padded), &mut std::io::sink())?;
        }
    }
}

/// Reads a whole 512-byte block; false at the end of the stream.
fn read_block(stream: &mut impl Read, block: &mut [u8; 512]) -> std::io::Result<bool> {
    let mut filled = 0;
    while filled < block.len() {
        match stream.read(&mut block[filled..])? {
            0 if filled == 0 => return Ok(false),
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => filled += n,
        }
    }
    Ok(true)
}

/// A tar header's octal number (NUL- or space-terminated).
fn octal(field: &[u8]) -> Option<u64> {
    let digits: &[u8] = field
        .split(|&b| b == 0 || b == b' ')
        .find(|part| !part.is_empty())?;
    let text = std::str::from_utf8(digits).ok()?;
    u64::from_str_radix(text, 8).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_their_entries_once_and_nothing_else() {
        let set = StringSet::from_entries(["b.com", "a.org", "b.com", ""]);
        assert_eq!(set.len(), 3);
        assert!(set.contains("a.org") && set.contains("b.com") && set.contains(""));
        assert!(!set.contains("c.net"));
        assert!(set.with(&["c.net".to_owned()]).contains("c.net"));
    }

    #[test]
    fn a_list_file_gives_the_set_of_its_entries() {
        let set = StringSet::from_list_text(" b.com\n#c.com\na.org\r\nb.com\n".to_owned());
        assert_eq!(set.len(), 2);
        assert!(set.contains("a.org") && set.contains("b.com"));
        assert!(!set.contains("") && !set.contains("#c.com") && !set.contains(" b.com"));
    }

    #[test]
    fn list_lines_are_read_as_pythons_text_mode_reads_them() {
        let entries: Vec<&str> = list_entries(" a.com \n#b.com\r\nc.com\rd.com").collect();
        assert_eq!(entries, ["a.com", "c.com", "d.com"]);
    }

    #[test]
    fn a_tar_stream_gives_its_wanted_members() {
        let mut archive = Vec::new();
        for (name, body) in [("x/domains", &b"a.com\nb.com"[..]), ("other", b"zz")] {
            let mut header = [0u8; 512];
            header[..name.len()].copy_from_slice(name.as_bytes());
            let size = format!("{:011o}\0", body.len());
            header[124..136].copy_from_slice(size.as_bytes());
            header[156] = b'0';
            archive.extend_from_slice(&header);
            archive.extend_from_slice(body);
            archive.resize(archive.len().div_ceil(512) * 512, 0);
        }
        archive.extend_from_slice(&[0u8; 1024]);
        let members = tar_members(&archive[..], &["domains", "urls"]).unwrap();
        assert_eq!(members.len(), 1);
        assert_eq!(members["domains"], b"a.com\nb.com");
    }
}
