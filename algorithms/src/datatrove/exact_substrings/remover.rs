//! datatrove's `ESRangeRemover`: which token ranges of each document's sequence the reference
//! tool's byte ranges remove, document after document of one task, with datatrove's quirks: a
//! range is cut at a document's edges as its four cases say, offsets are rounded inward to even
//! bytes (whole 16-bit tokens), and a document's upper edge lies 12 bytes into the next one.

use std::borrow::Cow;

use super::sequence::SEPARATOR_BYTES;

const SEPARATOR: i64 = SEPARATOR_BYTES as i64;

/// Walks the byte ranges of one task's documents in order.
pub struct RangeRemover<I: Iterator<Item = (i64, i64)>> {
    ranges: I,
    current: Option<(i64, i64)>,
    had_ranges: bool,
    /// Bytes of the task's sequence before the next document (datatrove's `bytes_counter`).
    counter: i64,
}

/// The ranges of the task whose sequence starts at byte `start` of the merged sequence and ends
/// at `end`, among `ranges` (the reference tool's, in order). As datatrove's `get_bytearange`:
/// the ranges that end past `start` + 12 up to the first that ends past `end` + 12, shifted to
/// the task's sequence.
pub fn task_ranges<J: Iterator<Item = (u64, u64)>>(
    ranges: impl IntoIterator<IntoIter = J>,
    start: u64,
    end: u64,
) -> TaskRanges<J> {
    TaskRanges {
        inner: ranges.into_iter(),
        start: start as i64,
        end: end as i64,
        done: false,
    }
}

/// The ranges of one task (see [`task_ranges`]).
pub struct TaskRanges<J> {
    inner: J,
    start: i64,
    end: i64,
    done: bool,
}

impl<J: Iterator<Item = (u64, u64)>> Iterator for TaskRanges<J> {
    type Item = (i64, i64);

    fn next(&mut self) -> Option<(i64, i64)> {
        while !self.done {
            let (a, b) = self.inner.next()?;
            let (a, b) = (a as i64, b as i64);
            if b > self.end + SEPARATOR {
                self.done = true;
                return None;
            }
            if b > self.start + SEPARATOR {
                return Some((a - self.start, b - self.start));
            }
        }
        None
    }
}

impl<I: Iterator<Item = (i64, i64)>> RangeRemover<I> {
    /// The remover of a task's documents over its ranges ([`task_ranges`]).
    pub fn new(mut ranges: I) -> Self {
        let current = ranges.next();
        RangeRemover {
            ranges,
            had_ranges: current.is_some(),
            current,
            counter: 0,
        }
    }
}

impl<I: Iterator<Item = (i64, i64)>> RangeRemover<I> {
    /// Whether the task has any range. datatrove's remover yields no document at all of a task
    /// without one (its `run` returns early): the caller decides what to keep.
    pub fn has_ranges(&self) -> bool {
        self.had_ranges
    }

    /// The ranges, as byte offsets into the document's own sequence (its separator included),
    /// that remove text from the next document, whose sequence has `bytes_len` bytes.
    /// datatrove stops the task on a range its checks refuse (one that would end before it
    /// starts once cut to the document); such a range removes nothing here.
    pub fn next_document(&mut self, bytes_len: usize) -> Vec<(usize, usize)> {
        let length = bytes_len as i64;
        let counter = self.counter;
        let upper = counter + length + SEPARATOR;
        let mut out = Vec::new();
        while let Some((a, b)) = self.current {
            let left = a < counter && counter + SEPARATOR < b && b <= upper;
            let centre = counter <= a && a < b && b <= upper;
            let right = counter <= a && a < upper - SEPARATOR && upper < b;
            let outside = a < counter && counter < upper && upper < b;
            let cut = if left || centre {
                self.current = self.ranges.next();
                (a.max(counter), b)
            } else if right {
                out.extend(normalize(a, upper, counter, length));
                break;
            } else if outside {
                out.extend(normalize(counter, upper, counter, length));
                break;
            } else {
                break;
            };
            out.extend(normalize(cut.0, cut.1, counter, length));
        }
        self.counter += length;
        out
    }
}

/// datatrove's `normalize_range`: the range relative to the document, cut to its tokens, with
/// odd offsets moved inward to whole tokens.
fn normalize(a: i64, b: i64, counter: i64, length: i64) -> Option<(usize, usize)> {
    let a = (a - counter).max(SEPARATOR);
    let b = (b - counter).min(length);
    if !(SEPARATOR <= a && a < b && b <= length) {
        return None;
    }
    let b = if b % 2 == 1 { b - 1 } else { b };
    let a = if a % 2 == 1 { a + 1 } else { a };
    Some((a as usize, b.max(a) as usize))
}

/// `text` without every occurrence of each of `duplicates` in turn (datatrove's
/// `text.replace(d, "")` for each decoded range); borrowed when nothing was removed.
pub fn remove_texts<'a>(text: &'a str, duplicates: &[String]) -> Cow<'a, str> {
    let mut text = Cow::Borrowed(text);
    for duplicate in duplicates.iter().filter(|d| !d.is_empty()) {
        if text.contains(duplicate.as_str()) {
            text = Cow::Owned(text.replace(duplicate.as_str(), ""));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(ranges: &[(u64, u64)], documents: &[usize]) -> Vec<Vec<(usize, usize)>> {
        let mut remover = RangeRemover::new(task_ranges(ranges.iter().copied(), 0, 1 << 40));
        documents
            .iter()
            .map(|&len| remover.next_document(len))
            .collect()
    }

    #[test]
    fn a_range_inside_a_document_is_its_tokens() {
        // Two documents: 12 separator bytes and 4 tokens, then 12 and 2 tokens.
        assert_eq!(
            walk(&[(14, 18), (30, 36)], &[20, 16]),
            [vec![(14, 18)], vec![(12, 16)]]
        );
    }

    #[test]
    fn a_range_across_two_documents_is_cut_at_each_and_rounded_to_whole_tokens() {
        // 17..40 covers the first document's end (17 rounded up to 18) and the second's tokens.
        assert_eq!(
            walk(&[(17, 40)], &[20, 16]),
            [vec![(18, 20)], vec![(12, 16)]]
        );
    }

    #[test]
    fn a_range_that_is_only_a_separator_removes_nothing() {
        // datatrove's check stops the task here; nothing is removed instead.
        assert_eq!(walk(&[(20, 30)], &[20, 16]), [vec![], vec![]]);
    }

    #[test]
    fn a_task_takes_the_ranges_that_end_in_it_shifted_to_its_start() {
        let ranges: Vec<_> = task_ranges([(5, 10), (30, 50), (60, 100)], 20, 40).collect();
        assert_eq!(ranges, [(10, 30)]);
        let remover = RangeRemover::new(task_ranges([(5u64, 10u64)], 20, 40));
        assert!(!remover.has_ranges());
    }

    #[test]
    fn every_occurrence_of_each_duplicate_is_removed_in_turn() {
        let duplicates = ["ab".to_owned(), String::new(), "cc".to_owned()];
        assert_eq!(remove_texts("xabyabzcac", &duplicates), "xyzcac");
        assert_eq!(remove_texts("acbcc", &duplicates[..]), "acb");
    }
}
