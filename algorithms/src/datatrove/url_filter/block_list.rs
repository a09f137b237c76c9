//! datatrove's domain and URL block list (`url_filterblacklistsv0_3_0.tar.gz`, members `domains`
//! and `urls`, derived from the Université Toulouse Capitole "UT1" blacklists), read from the
//! archive the datatrove wheel ships or from the folder datatrove extracts it to, once per
//! process, into hash sets that keep the 4.6 million domains in the file's own text (124 MB)
//! beside 67 MB of slots.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::words::is_python_space;

/// The file the datatrove wheel ships, under `datatrove/assets/`.
pub const BLOCK_LIST_ARCHIVE: &str = "url_filterblacklistsv0_3_0.tar.gz";

/// The longest entry a set holds: a slot keeps an entry's length in 24 bits and 8 bits of its
/// hash beside it, so that a probe compares text only when both agree.
pub const MAX_ENTRY_BYTES: usize = (1 << 24) - 1;

/// A set of strings held in one buffer.
///
/// Hashed, not sorted: a binary search over the 4.6 million sorted domains took 22 steps, each
/// a cache miss, 2 µs of the three lookups a URL needs; a lookup here touches a slot or two and
/// the text of the entry it finds.
#[derive(Debug, Default)]
pub struct StringSet {
    text: String,
    table: SpanTable,
}

impl StringSet {
    /// The set of some entries (an error for an entry over [`MAX_ENTRY_BYTES`] or more than
    /// 4 GiB in all).
    pub fn from_entries<'a>(
        entries: impl IntoIterator<Item = &'a str>,
    ) -> Result<StringSet, String> {
        let mut text = String::new();
        let mut spans = Vec::new();
        for entry in entries {
            spans.push((text.len(), entry.len()));
            text.push_str(entry);
        }
        let table = SpanTable::build(&text, spans.len(), spans.into_iter())?;
        Ok(StringSet { text, table })
    }

    /// The set of the entries of a list file ([`list_entries`]), kept in the file's own text:
    /// the 124 MB of domains are not copied.
    pub fn from_list_text(text: String) -> Result<StringSet, String> {
        // Every entry is a line: the line ends bound their count.
        let lines = memchr::memchr2_iter(b'\n', b'\r', text.as_bytes()).count() + 1;
        let base = text.as_ptr() as usize;
        let spans = list_entries(&text).map(|entry| (entry.as_ptr() as usize - base, entry.len()));
        let table = SpanTable::build(&text, lines, spans)?;
        Ok(StringSet { text, table })
    }

    pub fn contains(&self, value: &str) -> bool {
        self.table.find(&self.text, value.as_bytes()).is_ok()
    }

    pub fn len(&self) -> usize {
        self.table.len
    }

    pub fn is_empty(&self) -> bool {
        self.table.len == 0
    }

    /// The entries, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.table
            .occupied()
            .map(|(start, length)| &self.text[start..start + length])
    }

    /// Adds entries (a rebuild: for the few a user gives beside a loaded list).
    pub fn with(&self, extra: &[String]) -> Result<StringSet, String> {
        StringSet::from_entries(self.iter().chain(extra.iter().map(String::as_str)))
    }
}

/// An empty slot (no entry starts at `u32::MAX`: a set's text is shorter).
const EMPTY: (u32, u32) = (u32::MAX, 0);

/// Open addressing with linear probing over spans of a text: each slot an entry's start and its
/// length tagged with 8 bits of its hash.
#[derive(Debug)]
struct SpanTable {
    slots: Vec<(u32, u32)>,
    len: usize,
    hasher: ahash::RandomState,
}

impl Default for SpanTable {
    fn default() -> Self {
        SpanTable::with_capacity(0)
    }
}

impl SpanTable {
    fn with_capacity(entries: usize) -> SpanTable {
        // At most 3/4 full: probes stay short.
        let slots = (entries + entries / 3 + 1).next_power_of_two().max(8);
        SpanTable {
            slots: vec![EMPTY; slots],
            len: 0,
            // Fixed keys: the same list gives the same table in every process.
            hasher: ahash::RandomState::with_seeds(
                0x5157_4542_5445_5854,
                0x626c_6f63_6b5f_6c69,
                0x7374_5f73_6574_5f31,
                0x0123_4567_89ab_cdef,
            ),
        }
    }

    /// The table of the spans `(start, length)` of `text`, at most `entries` of them (duplicates
    /// held once).
    fn build(
        text: &str,
        entries: usize,
        spans: impl Iterator<Item = (usize, usize)>,
    ) -> Result<SpanTable, String> {
        if u32::try_from(text.len()).map_or(true, |n| n == u32::MAX) {
            return Err(format!("{} bytes of entries, more than 4 GiB", text.len()));
        }
        let mut table = SpanTable::with_capacity(entries);
        // Grouped by the top bits of their hash, which place them in the table, the inserts of a
        // group stay in one region of the table (in cache) instead of missing it at random:
        // 0.1 s instead of 0.6 s for the 4.6 million domains.
        let group_bits = 6;
        let mut groups: Vec<Vec<(u64, u32, u32)>> = (0..1 << group_bits)
            .map(|_| Vec::with_capacity((entries >> group_bits) + 1))
            .collect();
        for (start, length) in spans {
            if length > MAX_ENTRY_BYTES {
                return Err(format!("an entry of {length} bytes, more than 16 MiB"));
            }
            let hash = table
                .hasher
                .hash_one(&text.as_bytes()[start..start + length]);
            // Both fit: the text is under 4 GiB, the entry under 16 MiB.
            groups[(hash >> (64 - group_bits)) as usize].push((hash, start as u32, length as u32));
        }
        for (hash, start, length) in groups.into_iter().flatten() {
            let entry = &text.as_bytes()[start as usize..(start + length) as usize];
            if let Err(slot) = table.find_hashed(text, hash, entry) {
                table.slots[slot] = (start, tagged(hash, length));
                table.len += 1;
            }
        }
        Ok(table)
    }

    /// The home slot of a hash: its top bits (the groups of [`Self::build`] are their top 6).
    fn home(&self, hash: u64) -> usize {
        (hash >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// The slot holding `value`, or the empty slot where it would go.
    fn find(&self, text: &str, value: &[u8]) -> Result<usize, usize> {
        self.find_hashed(text, self.hasher.hash_one(value), value)
    }

    fn find_hashed(&self, text: &str, hash: u64, value: &[u8]) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let Ok(length) = u32::try_from(value.len()) else {
            return Err(usize::MAX);
        };
        let wanted = tagged(hash, length);
        let mut slot = self.home(hash);
        loop {
            let (start, tagged_length) = self.slots[slot];
            if (start, tagged_length) == EMPTY {
                return Err(slot);
            }
            // Only the text of an entry with the same length and tag is read.
            if tagged_length == wanted
                && text
                    .as_bytes()
                    .get(start as usize..start as usize + value.len())
                    == Some(value)
            {
                return Ok(slot);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The spans `(start, length)` of the entries.
    fn occupied(&self) -> impl Iterator<Item = (usize, usize)> {
        self.slots
            .iter()
            .filter(|&&slot| slot != EMPTY)
            .map(|&(start, tagged_length)| {
                (
                    start as usize,
                    (tagged_length & MAX_ENTRY_BYTES as u32) as usize,
                )
            })
    }
}

/// A length under 2^24 with 8 bits of its hash above it.
fn tagged(hash: u64, length: u32) -> u32 {
    ((hash as u32) << 24) | (length & MAX_ENTRY_BYTES as u32)
}

/// The lines of a text file as Python's text mode reads them (`\n`, `\r\n` and `\r` end a
/// line), each stripped, those starting with `#` left out: datatrove's `parse_list` without
/// normalisation.
pub fn list_entries(text: &str) -> impl Iterator<Item = &str> {
    universal_lines(text)
        .filter(|line| !line.starts_with('#'))
        .map(strip)
}

/// The lines of a text ended by `\n`, `\r\n` or `\r` (a final line end ends the last line).
fn universal_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        let Some(length) = memchr::memchr2(b'\n', b'\r', &bytes[start..]) else {
            at = bytes.len();
            return Some(&text[start..]);
        };
        let end = start + length;
        at = end + 1;
        if bytes[end] == b'\r' && bytes.get(at) == Some(&b'\n') {
            at += 1;
        }
        Some(&text[start..end])
    })
}

/// Python's `str.strip()`, with a shortcut for a line that starts and ends with a printable
/// ASCII character (every line of datatrove's lists).
fn strip(line: &str) -> &str {
    let printable = |b: &u8| (b'!'..=b'~').contains(b);
    let bytes = line.as_bytes();
    if bytes.first().is_some_and(printable) && bytes.last().is_some_and(printable) {
        return line;
    }
    line.trim_matches(is_python_space)
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
        StringSet::from_list_text(text).map_err(|e| format!("{shown}: {e}"))
    };
    Ok(BlockList {
        domains: set(domains)?,
        urls: set(urls)?,
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
        let set = StringSet::from_entries(["b.com", "a.org", "b.com", ""]).unwrap();
        assert_eq!(set.len(), 3);
        assert!(set.contains("a.org") && set.contains("b.com") && set.contains(""));
        assert!(!set.contains("c.net") && !set.contains("b.co") && !set.contains("a.orgx"));
        let grown = set.with(&["c.net".to_owned()]).unwrap();
        assert!(grown.contains("c.net") && grown.contains("a.org") && grown.contains(""));
        assert_eq!(grown.len(), 4);
        let mut entries: Vec<&str> = grown.iter().collect();
        entries.sort_unstable();
        assert_eq!(entries, ["", "a.org", "b.com", "c.net"]);
        assert!(StringSet::default().is_empty() && !StringSet::default().contains(""));
    }

    #[test]
    fn a_large_set_finds_each_of_its_entries_and_nothing_else() {
        // Many times the 64 groups and the table's first sizes, with entries that share their
        // lengths (the probes compare text only when length and tag agree).
        let entries: Vec<String> = (0..100_000).map(|i| format!("d{i:07}.com")).collect();
        let set = StringSet::from_entries(entries.iter().map(String::as_str)).unwrap();
        assert_eq!(set.len(), entries.len());
        assert!(entries.iter().all(|e| set.contains(e)));
        assert!((100_000..200_000).all(|i| !set.contains(&format!("d{i:07}.com"))));
    }

    #[test]
    fn an_entry_over_the_limit_is_refused() {
        let long = "a".repeat(MAX_ENTRY_BYTES + 1);
        let error = StringSet::from_entries([long.as_str()]).unwrap_err();
        assert!(error.contains("more than 16 MiB"), "{error}");
    }

    #[test]
    fn a_list_file_gives_the_set_of_its_entries() {
        let set = StringSet::from_list_text(" b.com\n#c.com\na.org\r\nb.com\n".to_owned()).unwrap();
        assert_eq!(set.len(), 2);
        assert!(set.contains("a.org") && set.contains("b.com"));
        assert!(!set.contains("") && !set.contains("#c.com") && !set.contains(" b.com"));
    }

    #[test]
    fn list_lines_are_read_as_pythons_text_mode_reads_them() {
        let entries: Vec<&str> = list_entries(" a.com \n#b.com\r\nc.com\rd.com").collect();
        assert_eq!(entries, ["a.com", "c.com", "d.com"]);
        // A blank line is an empty entry; a final line end ends the last line, no more.
        let entries: Vec<&str> = list_entries("a\r\n\r\n\u{3000}b\t\r").collect();
        assert_eq!(entries, ["a", "", "b"]);
        assert_eq!(list_entries("").count(), 0);
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
