//! The byte sequence of a document: datatrove's `prepare_doc`.

/// The bytes before each document's tokens in the sequence (datatrove's `SEPARATOR_BYTES`).
pub const SEPARATOR_BYTES: usize = 12;

/// The reference tool's and datatrove's default window: 100 bytes, 50 tokens.
pub const DEFAULT_LENGTH_THRESHOLD: usize = 100;

/// datatrove's `ESRangeRemover` default: documents left with fewer words are dropped.
pub const DEFAULT_MIN_DOC_WORDS: usize = 50;

/// Appends to `out` the sequence of one document (datatrove's `prepare_doc`): the separator with
/// `doc_id` and `rank`, then each token id as a little-endian `u16`. Fails with the first id
/// above 65535: datatrove's sequences hold 16-bit ids (its `np.uint16` conversion fails there).
pub fn document_sequence(
    tokens: &[u32],
    doc_id: u32,
    rank: u32,
    out: &mut Vec<u8>,
) -> Result<(), u32> {
    if let Some(&id) = tokens.iter().find(|&&id| id > u32::from(u16::MAX)) {
        return Err(id);
    }
    out.reserve(SEPARATOR_BYTES + 2 * tokens.len());
    out.extend_from_slice(b"\xff\xff");
    out.extend_from_slice(&doc_id.to_le_bytes());
    out.extend_from_slice(b"\xff\xff");
    out.extend_from_slice(&rank.to_le_bytes());
    for &id in tokens {
        out.extend_from_slice(&(id as u16).to_le_bytes());
    }
    Ok(())
}

/// The token ids of a document's sequence bytes from `start` to `end` (even offsets past the
/// separator, as [`RangeRemover`] gives them).
pub fn token_ids(sequence: &[u8], start: usize, end: usize) -> Vec<u32> {
    sequence[start..end]
        .chunks_exact(2)
        .map(|pair| u32::from(u16::from_le_bytes([pair[0], pair[1]])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_its_separator_then_its_ids_as_16_bits() {
        let mut out = Vec::new();
        document_sequence(&[1, 258], 3, 2, &mut out).unwrap();
        assert_eq!(
            out,
            [0xff, 0xff, 3, 0, 0, 0, 0xff, 0xff, 2, 0, 0, 0, 1, 0, 2, 1]
        );
        assert_eq!(token_ids(&out, SEPARATOR_BYTES, out.len()), [1, 258]);
    }

    #[test]
    fn an_id_above_16_bits_is_refused() {
        let mut out = Vec::new();
        assert_eq!(document_sequence(&[5, 70_000], 0, 0, &mut out), Err(70_000));
    }
}
