//! ftfy's `fix_encoding`: mojibake found by the badness heuristic and decoded again, step by step.

use super::codecs::{CHARMAPS, WINDOWS_1252, charmap, decode_utf8};
use super::config::Config;
use super::fixes;

/// ftfy's `fix_encoding`: one step of re-encoding after another until nothing changes.
pub fn fix_encoding(text: &str, config: &Config) -> String {
    let mut text = text.to_owned();
    if !config.fix_encoding {
        return text;
    }
    while let Some(fixed) = fix_encoding_step(&text, config) {
        if fixed == text {
            break;
        }
        text = fixed;
    }
    text
}

/// One step of ftfy's `fix_encoding`: None when the text is left as it is.
///
/// Text that is ASCII or not bad by the heuristic stays. Otherwise, the first of ftfy's encodings
/// that can encode the text and whose bytes (after restoring lost 0xA0 bytes and marking lost
/// ones) decode as UTF-8 wins. Failing that: runs of mojibake inside correct text are fixed
/// alone; Latin-1 text is read as windows-1252 when it can be (ftfy's check that would skip
/// this looks for an encoding name its list never holds, so it always runs); C1 controls are
/// read as windows-1252.
fn fix_encoding_step(text: &str, config: &Config) -> Option<String> {
    if text.is_ascii() || !fixes::is_bad(text) {
        return None;
    }
    let mut latin_1_possible = false;
    for encoding in CHARMAPS.iter() {
        let Some(mut bytes) = encoding.encode(text) else {
            continue;
        };
        latin_1_possible |= encoding.name == "latin-1";
        if config.restore_byte_a0
            && encoding.name != "macroman"
            && fixes::ALTERED_UTF8.is_match(&bytes)
        {
            bytes = fixes::restore_byte_a0(&bytes);
        }
        if config.replace_lossy_sequences && encoding.name.starts_with("sloppy") {
            bytes = fixes::replace_lossy_sequences(&bytes);
        }
        if let Some(fixed) = decode_utf8(&bytes) {
            return Some(fixed);
        }
    }
    if config.decode_inconsistent_utf8 && fixes::UTF8_DETECTOR.is_match(text) {
        let fixed = decode_inconsistent_utf8(text);
        if fixed != text {
            return Some(fixed);
        }
    }
    if latin_1_possible {
        let bytes = charmap("latin-1").encode(text)?;
        if let Some(fixed) = WINDOWS_1252.decode_strict(&bytes)
            && fixed != text
        {
            return Some(fixed);
        }
    }
    if config.fix_c1_controls && fixes::has_c1_control(text) {
        return Some(fixes::fix_c1_controls(text));
    }
    None
}

/// `decode_inconsistent_utf8`: each run that looks like UTF-8 mojibake, is shorter than the
/// text and is bad by the heuristic is fixed alone (with ftfy's default settings), so mojibake
/// mixed into correct text is repaired.
///
/// Positions are tried in order, as Python's `re.sub` tries them: a run does not start right
/// after one of the characters of ftfy's lookbehind (checked first, in constant time), and one
/// that starts is matched anchored there. Finding the leftmost run and then checking what comes
/// before it would cost a whole run's length for every position of a long garbled run that the
/// lookbehind refuses: quadratic, where ftfy is linear.
pub(crate) fn decode_inconsistent_utf8(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut copied, mut at) = (0, 0);
    let mut before: Option<char> = None;
    while let Some(c) = text[at..].chars().next() {
        // Every character a run can start with is beyond ASCII.
        let may_start = !c.is_ascii() && !before.is_some_and(fixes::is_utf8_continuation_strict);
        let found = may_start
            .then(|| fixes::UTF8_DETECTOR_AT_START.find(&text[at..]))
            .flatten();
        let Some(found) = found else {
            before = Some(c);
            at += c.len_utf8();
            continue;
        };
        let run = found.as_str();
        out.push_str(&text[copied..at]);
        if run.len() < text.len() && fixes::is_bad(run) {
            out.push_str(&super::fix_encoding(
                run,
                &super::Config::fix_text_defaults(),
            ));
        } else {
            out.push_str(run);
        }
        before = run.chars().next_back();
        at += run.len();
        copied = at;
    }
    out.push_str(&text[copied..]);
    out
}
