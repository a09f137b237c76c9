//! The byte ranges of a sequence that the reference tool's `self-similar` and `collect` give:
//! every position whose next `length` bytes occur at least twice in the sequence (at any
//! offset, even or odd), its window `[position, position + length)`, and the union of those
//! windows, where windows that overlap or touch merge into one range.
//!
//! The reference tool sorts every suffix (a suffix array) and walks neighbours; here every window
//! gets two 61-bit rolling hashes (polynomials modulo 2^61 − 1 in two bases drawn at random for
//! each run) and the (hash, position) pairs are sorted:
//!
//! - in memory, the windows of one first hash are compared byte for byte, so the positions are
//!   exactly the tool's;
//! - when the pairs do not fit the memory given, they are spilled to bucket files by hash, each
//!   bucket sorted alone, and windows are equal when both hashes are (comparing bytes would read
//!   the sequence once per window). Two different windows of L bytes have both hashes equal with
//!   a probability below (L / 2^61)^2, about 10^-33 for L = 100: over every pair of windows of a
//!   corpus of 10^10 bytes, below one in 10^13. The duplicates of the buckets are merged in
//!   position order as `collect` merges its files.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The line the reference tool's `collect` prints before the ranges; datatrove skips every line
/// up to it.
pub const RANGES_HEADER: &str = "out";

/// The Mersenne prime 2^61 − 1, the rolling hash's modulus.
const MODULUS: u64 = (1 << 61) - 1;
/// Bytes per (hash, position) pair in memory and per (hash, hash, position) record spilled, and
/// per duplicate position, which the memory must hold.
const PAIR_BYTES: u64 = 16;
const RECORD_BYTES: u64 = 24;
const POSITION_BYTES: u64 = 8;
/// At most this many bucket files are open at once (well under the usual 1,024 descriptors):
/// beyond about `MAX_BUCKETS / 64` times the memory given in windows, a bucket holds more than
/// half of that memory.
const MAX_BUCKETS: u64 = 512;
/// Bytes read from the sequence at a time while hashing.
const READ_CHUNK: usize = 1 << 20;

/// What [`duplicate_ranges`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DuplicateRanges {
    /// Windows of the sequence (its length − length + 1).
    pub windows: u64,
    /// Windows that occur at least twice.
    pub duplicate_windows: u64,
    /// Ranges given to `emit`.
    pub ranges: u64,
    /// Bucket files the pairs were spilled to (0: sorted in memory).
    pub buckets: u64,
}

/// The reference tool's ranges of `sequence` (the file's bytes) for windows of `length` bytes,
/// given to `emit` in order, holding at most about `memory` bytes (beyond it, bucket files in a
/// private folder under `scratch`).
pub fn duplicate_ranges(
    sequence: &File,
    length: usize,
    memory: u64,
    scratch: &Path,
    mut emit: impl FnMut(u64, u64) -> io::Result<()>,
) -> io::Result<DuplicateRanges> {
    let total = sequence.metadata()?.len();
    let length = length.max(1);
    let Some(windows) = (total + 1).checked_sub(length as u64).filter(|&w| w > 0) else {
        return Ok(DuplicateRanges::default());
    };
    let mut found = DuplicateRanges {
        windows,
        ..DuplicateRanges::default()
    };
    let mut collect = Collect::new(length as u64);
    let in_memory = total + windows * (PAIR_BYTES + POSITION_BYTES);
    if in_memory <= memory {
        let mut bytes = Vec::with_capacity(total as usize);
        (&*sequence).seek(SeekFrom::Start(0))?;
        (&*sequence).read_to_end(&mut bytes)?;
        let mut pairs = Vec::with_capacity(windows as usize);
        window_hashes(&bytes[..], length, windows, |position, [hash, _]| {
            pairs.push((hash, position));
            Ok(())
        })?;
        let duplicates = bucket_duplicates(pairs, &bytes, length);
        found.duplicate_windows = duplicates.len() as u64;
        for position in duplicates {
            collect.push(position, &mut emit)?;
        }
    } else {
        let buckets = (2 * windows * (RECORD_BYTES + POSITION_BYTES))
            .div_ceil(memory.max(1))
            .clamp(2, MAX_BUCKETS);
        found.buckets = buckets;
        found.duplicate_windows =
            spilled(sequence, length, windows, buckets, memory, scratch, |p| {
                collect.push(p, &mut emit)
            })?;
    }
    found.ranges = collect.finish(&mut emit)?;
    Ok(found)
}

/// Writes the ranges as the reference tool's `collect` prints them (after its progress line),
/// the `.bytearange` file datatrove's `ESRangeRemover` reads.
pub fn write_collect_output(
    out: &mut impl Write,
    ranges: impl IntoIterator<Item = (u64, u64)>,
) -> io::Result<()> {
    writeln!(out, "Merging.\n{RANGES_HEADER}")?;
    for (start, end) in ranges {
        writeln!(out, "{start} {end}")?;
    }
    Ok(())
}

/// The windows' (hash, position) pairs spilled to `buckets` files, each sorted alone; the
/// duplicates of each written back sorted, then merged in position order into `each`.
fn spilled(
    sequence: &File,
    length: usize,
    windows: u64,
    buckets: u64,
    memory: u64,
    scratch: &Path,
    mut each: impl FnMut(u64) -> io::Result<()>,
) -> io::Result<u64> {
    let folder = tempfile::Builder::new()
        .prefix(".webtext-substrings-")
        .tempdir_in(scratch)?;
    let buffer = (memory / 4 / buckets).clamp(4 << 10, 1 << 20) as usize;
    let pair_paths: Vec<_> = (0..buckets)
        .map(|b| folder.path().join(format!("pairs-{b}")))
        .collect();
    let mut writers = pair_paths
        .iter()
        .map(|path| Ok(BufWriter::with_capacity(buffer, File::create_new(path)?)))
        .collect::<io::Result<Vec<_>>>()?;
    (&*sequence).seek(SeekFrom::Start(0))?;
    let reader = BufReader::with_capacity(READ_CHUNK, sequence);
    window_hashes(reader, length, windows, |position, [first, second]| {
        let bucket = ((u128::from(first) * u128::from(buckets)) >> 61) as usize;
        let writer = &mut writers[bucket];
        writer.write_all(&first.to_le_bytes())?;
        writer.write_all(&second.to_le_bytes())?;
        writer.write_all(&position.to_le_bytes())
    })?;
    for writer in writers {
        writer.into_inner().map_err(|e| e.into_error())?;
    }
    let mut duplicate_paths = Vec::with_capacity(pair_paths.len());
    let mut duplicate_windows = 0;
    for (b, records_path) in pair_paths.iter().enumerate() {
        let records = read_records(records_path)?;
        std::fs::remove_file(records_path)?;
        let duplicates = records_duplicates(records);
        duplicate_windows += duplicates.len() as u64;
        let path = folder.path().join(format!("duplicates-{b}"));
        let mut out = BufWriter::new(File::create_new(&path)?);
        for position in duplicates {
            out.write_all(&position.to_le_bytes())?;
        }
        out.flush()?;
        duplicate_paths.push(path);
    }
    merge_positions(&duplicate_paths, buffer, &mut each)?;
    Ok(duplicate_windows)
}

/// A bucket file's (first hash, second hash, position) records, read through a buffer (the
/// file's bytes are not held beside them).
fn read_records(path: &Path) -> io::Result<Vec<([u64; 2], u64)>> {
    let file = File::open(path)?;
    let count = file.metadata()?.len() / RECORD_BYTES;
    let mut reader = BufReader::with_capacity(READ_CHUNK, file);
    let mut records = Vec::with_capacity(count as usize);
    let mut record = [0u8; RECORD_BYTES as usize];
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap_or_default());
    for _ in 0..count {
        reader.read_exact(&mut record)?;
        records.push((
            [word(&record[..8]), word(&record[8..16])],
            word(&record[16..]),
        ));
    }
    Ok(records)
}

/// The positions, sorted, of the records whose two hashes another record has too.
fn records_duplicates(mut records: Vec<([u64; 2], u64)>) -> Vec<u64> {
    records.sort_unstable();
    let mut duplicates: Vec<u64> = records
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
        .flatten()
        .map(|&(_, position)| position)
        .collect();
    drop(records);
    duplicates.sort_unstable();
    duplicates
}

/// The sorted positions of `paths` (each sorted) in one order, as `collect`'s heap merges them.
fn merge_positions(
    paths: &[std::path::PathBuf],
    buffer: usize,
    each: &mut impl FnMut(u64) -> io::Result<()>,
) -> io::Result<()> {
    let mut readers = paths
        .iter()
        .map(|path| Ok(BufReader::with_capacity(buffer, File::open(path)?)))
        .collect::<io::Result<Vec<_>>>()?;
    let mut heap = BinaryHeap::new();
    for (i, reader) in readers.iter_mut().enumerate() {
        if let Some(position) = next_position(reader)? {
            heap.push(Reverse((position, i)));
        }
    }
    while let Some(Reverse((position, i))) = heap.pop() {
        each(position)?;
        if let Some(next) = next_position(&mut readers[i])? {
            heap.push(Reverse((next, i)));
        }
    }
    Ok(())
}

fn next_position(reader: &mut impl Read) -> io::Result<Option<u64>> {
    let mut bytes = [0u8; 8];
    match reader.read_exact(&mut bytes) {
        Ok(()) => Ok(Some(u64::from_le_bytes(bytes))),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// `collect`'s union: a window that starts at or before the end of the current range extends
/// it; any other starts a new range.
struct Collect {
    length: u64,
    current: Option<(u64, u64)>,
    ranges: u64,
}

impl Collect {
    fn new(length: u64) -> Self {
        Collect {
            length,
            current: None,
            ranges: 0,
        }
    }

    fn push(
        &mut self,
        position: u64,
        emit: &mut impl FnMut(u64, u64) -> io::Result<()>,
    ) -> io::Result<()> {
        let end = position + self.length;
        self.current = match self.current {
            Some((start, current_end)) if position <= current_end => Some((start, end)),
            Some((start, current_end)) => {
                self.ranges += 1;
                emit(start, current_end)?;
                Some((position, end))
            }
            None => Some((position, end)),
        };
        Ok(())
    }

    fn finish(self, emit: &mut impl FnMut(u64, u64) -> io::Result<()>) -> io::Result<u64> {
        match self.current {
            Some((start, end)) => {
                emit(start, end)?;
                Ok(self.ranges + 1)
            }
            None => Ok(self.ranges),
        }
    }
}

/// (a · b) mod 2^61 − 1.
fn mul_mod(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    let folded = (product as u64 & MODULUS) + (product >> 61) as u64;
    let folded = (folded & MODULUS) + (folded >> 61);
    if folded >= MODULUS {
        folded - MODULUS
    } else {
        folded
    }
}

fn add_mod(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= MODULUS { sum - MODULUS } else { sum }
}

/// Two bases below the modulus, drawn at random for each run (from the standard library's
/// per-process random hashing keys), so that no input is built to make two windows collide.
fn random_bases() -> [u64; 2] {
    use std::hash::{BuildHasher, Hasher};
    let draw = || {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(0x5eed);
        (hasher.finish() % (MODULUS - 512)) + 256
    };
    [draw(), draw()]
}

/// The two polynomial hashes of each of the `windows` windows of `length` bytes of `reader`, in
/// position order, rolled from one to the next.
fn window_hashes(
    mut reader: impl Read,
    length: usize,
    windows: u64,
    mut each: impl FnMut(u64, [u64; 2]) -> io::Result<()>,
) -> io::Result<()> {
    let bases = random_bases();
    let leading_powers = bases.map(|base| (1..length).fold(1, |power, _| mul_mod(power, base)));
    let mut buffer: Vec<u8> = Vec::with_capacity(READ_CHUNK + length);
    let mut buffer_start = 0u64;
    let mut fill = |buffer: &mut Vec<u8>, needed: usize| -> io::Result<()> {
        while buffer.len() < needed {
            let old = buffer.len();
            buffer.resize(old + READ_CHUNK, 0);
            let read = reader.read(&mut buffer[old..])?;
            buffer.truncate(old + read);
            if read == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the sequence ended before its last window",
                ));
            }
        }
        Ok(())
    };
    fill(&mut buffer, length)?;
    let mut hashes = bases.map(|base| {
        buffer[..length].iter().fold(0, |hash, &byte| {
            add_mod(mul_mod(hash, base), u64::from(byte))
        })
    });
    for position in 0..windows {
        each(position, hashes)?;
        if position + 1 == windows {
            break;
        }
        let mut offset = (position - buffer_start) as usize;
        if offset + length >= buffer.len() {
            buffer.drain(..offset);
            buffer_start = position;
            offset = 0;
            fill(&mut buffer, length + 1)?;
        }
        let (leaving, entering) = (
            u64::from(buffer[offset]),
            u64::from(buffer[offset + length]),
        );
        for i in 0..2 {
            let without = add_mod(hashes[i], MODULUS - mul_mod(leaving, leading_powers[i]));
            hashes[i] = add_mod(mul_mod(without, bases[i]), entering);
        }
    }
    Ok(())
}

/// The positions, sorted, of the pairs whose window of `sequence` occurs twice or more among
/// `pairs` (all the pairs of their hashes; every position has a whole window).
fn bucket_duplicates(mut pairs: Vec<(u64, u64)>, sequence: &[u8], length: usize) -> Vec<u64> {
    pairs.sort_unstable();
    let window = |position: u64| &sequence[position as usize..position as usize + length];
    let mut duplicates = Vec::new();
    for run in pairs.chunk_by(|a, b| a.0 == b.0) {
        if run.len() > 1 {
            equal_windows(run, window, &mut duplicates);
        }
    }
    drop(pairs);
    duplicates.sort_unstable();
    duplicates
}

/// The positions of `run` (pairs of one hash) whose windows equal another's.
fn equal_windows<'a>(
    run: &[(u64, u64)],
    window: impl Fn(u64) -> &'a [u8],
    duplicates: &mut Vec<u64>,
) {
    let first = window(run[0].1);
    if run[1..]
        .iter()
        .all(|&(_, position)| window(position) == first)
    {
        duplicates.extend(run.iter().map(|&(_, position)| position));
        return;
    }
    // Two windows with one hash and other bytes: group the run by its bytes.
    let mut windows: Vec<(&[u8], u64)> = run
        .iter()
        .map(|&(_, position)| (window(position), position))
        .collect();
    windows.sort_unstable();
    for group in windows.chunk_by(|a, b| a.0 == b.0) {
        if group.len() > 1 {
            duplicates.extend(group.iter().map(|(_, position)| *position));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference tool's definition, by brute force.
    fn naive(text: &[u8], length: usize) -> Vec<(u64, u64)> {
        let mut marked = Vec::new();
        for p in 0..=text.len().saturating_sub(length) {
            if text.len() < length {
                break;
            }
            let window = &text[p..p + length];
            let twice = (0..=text.len() - length).any(|q| q != p && &text[q..q + length] == window);
            if twice {
                marked.push(p as u64);
            }
        }
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for p in marked {
            match ranges.last_mut() {
                Some(last) if p <= last.1 => last.1 = p + length as u64,
                _ => ranges.push((p, p + length as u64)),
            }
        }
        ranges
    }

    fn ours(text: &[u8], length: usize, memory: u64) -> (Vec<(u64, u64)>, DuplicateRanges) {
        let scratch = tempfile::tempdir().unwrap();
        let path = scratch.path().join("sequence");
        std::fs::write(&path, text).unwrap();
        let file = File::open(&path).unwrap();
        let mut ranges = Vec::new();
        let found = duplicate_ranges(&file, length, memory, scratch.path(), |a, b| {
            ranges.push((a, b));
            Ok(())
        })
        .unwrap();
        (ranges, found)
    }

    fn pseudo_random_text(seed: u64, len: usize, alphabet: u8) -> Vec<u8> {
        let mut state = seed;
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % u64::from(alphabet)) as u8
            })
            .collect()
    }

    #[test]
    fn windows_seen_twice_merge_into_ranges_where_they_overlap_or_touch() {
        // "abcd" twice: windows of 3 at 0, 1 and at 5, 6; "cd-" and "cd=" differ.
        let (ranges, found) = ours(b"abcd-abcd=xyz", 3, u64::MAX);
        assert_eq!(ranges, [(0, 4), (5, 9)]);
        assert_eq!(found.duplicate_windows, 4);
        // A window that starts where the range ends extends it ("cd-" at 2 and 7 join).
        assert_eq!(ours(b"abcd-abcd-xyz", 3, u64::MAX).0, [(0, 10)]);
    }

    #[test]
    fn a_sequence_shorter_than_the_window_has_no_ranges() {
        let (ranges, found) = ours(b"ab", 3, u64::MAX);
        assert!(ranges.is_empty());
        assert_eq!(found.windows, 0);
    }

    #[test]
    fn in_memory_and_spilled_give_the_brute_forces_ranges() {
        for (seed, alphabet, length) in [(1, 2, 8), (2, 3, 5), (3, 4, 6), (4, 26, 3)] {
            let mut text = pseudo_random_text(seed, 1500, alphabet);
            // A copied stretch, so that long ranges exist too.
            let copied = text[100..300].to_vec();
            text.extend_from_slice(&copied);
            let expected = naive(&text, length);
            assert!(!expected.is_empty());
            let (in_memory, found) = ours(&text, length, u64::MAX);
            assert_eq!(in_memory, expected, "seed {seed}");
            assert_eq!(found.buckets, 0);
            let (spilled, found) = ours(&text, length, 4096);
            assert_eq!(spilled, expected, "seed {seed}, spilled");
            assert!(found.buckets > 1);
        }
    }

    #[test]
    fn windows_of_one_hash_with_other_bytes_are_told_apart() {
        let pairs = vec![(7, 0), (7, 4), (7, 8)];
        let text = b"abc-xyz-abc-";
        let duplicates = bucket_duplicates(pairs, text, 3);
        assert_eq!(duplicates, [0, 8]);
    }

    #[test]
    fn spilled_windows_are_equal_when_both_hashes_are() {
        let records = vec![([7, 1], 9), ([7, 2], 4), ([7, 1], 2), ([8, 1], 5)];
        assert_eq!(records_duplicates(records), [2, 9]);
    }

    #[test]
    fn the_output_is_the_reference_tools_collect_output() {
        let mut out = Vec::new();
        write_collect_output(&mut out, [(0, 100), (150, 260)]).unwrap();
        assert_eq!(out, b"Merging.\nout\n0 100\n150 260\n");
    }
}
