//! E-mail and IP address anonymisation as HuggingFace datatrove 0.10.1's `PIIFormatter` does it
//! (`pipeline/formatters/pii.py`), the step FineWeb-2 ran on every kept document.
//!
//! datatrove replaces every match of its e-mail regex, then every match of its IPv4 regex in the
//! result that Python 3.11's `ipaddress` reads as an address (no octet with a leading zero) and,
//! by default, as a global one. Each replacement is the next of a cycle of strings; the position
//! in each cycle is state of the formatter that carries from one document to the next
//! ([`PiiCounters`]), so datatrove's output depends on the order it saw the documents in.
//!
//! Two places where Rust's regex would read the patterns differently are restated: the e-mail
//! regex's leading `\b` is Python's boundary (word characters are letters, numbers of any kind
//! and `_`), checked by hand, and `is_global` is Python 3.11.7's table of reserved networks
//! (newer CPython releases treat 192.0.0.0/24 differently).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use crate::options::{Keys, ShowValue, flag, key};
use crate::unicode::is_python_word;

/// datatrove's e-mail regex without its leading `\b` (checked by [`python_boundary`]); the `]`
/// that closes an address literal is escaped for Rust.
const EMAIL_PATTERN: &str = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?|\[(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?|[A-Za-z0-9-]*[A-Za-z0-9]:)\])";

/// datatrove's IPv4 regex, verbatim: no boundaries at all, so `256.1.1.1` holds `56.1.1.1`.
const IP_PATTERN: &str =
    r"(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)";

static EMAIL: LazyLock<Regex> = LazyLock::new(|| compile(EMAIL_PATTERN));
static IP: LazyLock<Regex> = LazyLock::new(|| compile(IP_PATTERN));

/// The patterns are constants of this crate, compiled by its tests: they never depend on data.
fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).expect("datatrove's pattern is valid for the regex crate (tested)")
}

/// The networks Python 3.11.7's `IPv4Address.is_global` excludes (100.64.0.0/10 and
/// `is_private`): (address, prefix length).
const NOT_GLOBAL: [([u8; 4], u32); 15] = [
    ([100, 64, 0, 0], 10),
    ([0, 0, 0, 0], 8),
    ([10, 0, 0, 0], 8),
    ([127, 0, 0, 0], 8),
    ([169, 254, 0, 0], 16),
    ([172, 16, 0, 0], 12),
    ([192, 0, 0, 0], 29),
    ([192, 0, 0, 170], 31),
    ([192, 0, 2, 0], 24),
    ([192, 168, 0, 0], 16),
    ([198, 18, 0, 0], 15),
    ([198, 51, 100, 0], 24),
    ([203, 0, 113, 0], 24),
    ([240, 0, 0, 0], 4),
    ([255, 255, 255, 255], 32),
];

/// A cycle of replacement strings; an options string separates them with `|`.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacements(pub Vec<String>);

impl ShowValue for Replacements {
    fn show(&self) -> String {
        self.0.join("|")
    }
}

fn replacements(value: &str) -> Result<Replacements, &'static str> {
    Ok(Replacements(value.split('|').map(str::to_owned).collect()))
}

/// `PIIFormatter`'s parameters, with its defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct PiiParams {
    pub remove_emails: bool,
    pub remove_ips: bool,
    /// Replace only the addresses Python's `is_global` accepts (datatrove's default), or every
    /// address that parses.
    pub only_remove_public_ips: bool,
    pub email_replacement: Replacements,
    pub ip_replacement: Replacements,
}

impl Default for PiiParams {
    fn default() -> Self {
        let owned = |items: &[&str]| Replacements(items.iter().map(|s| (*s).to_owned()).collect());
        PiiParams {
            remove_emails: true,
            remove_ips: true,
            only_remove_public_ips: true,
            email_replacement: owned(&["email@example.com", "firstname.lastname@example.org"]),
            ip_replacement: owned(&[
                "22.214.171.124",
                "126.96.36.199",
                "188.8.131.52",
                "184.108.40.206",
                "220.127.116.11",
                "18.104.22.168",
            ]),
        }
    }
}

/// `PIIFormatter`'s parameters by its own names.
pub const PII_KEYS: Keys<PiiParams> = &[
    key!("remove_emails", [remove_emails], flag, ""),
    key!("remove_ips", [remove_ips], flag, ""),
    key!(
        "only_remove_public_ips",
        [only_remove_public_ips],
        flag,
        "false replaces private and reserved addresses too"
    ),
    key!(
        "email_replacement",
        [email_replacement],
        replacements,
        "the strings e-mail addresses become, used in turn, separated by |"
    ),
    key!(
        "ip_replacement",
        [ip_replacement],
        replacements,
        "the strings IP addresses become, used in turn, separated by |"
    ),
];

/// Where each cycle of replacements stands: the index of the next string of each. datatrove
/// keeps them in the formatter, from one document to the next; zero for a fresh formatter.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PiiCounters {
    pub email: usize,
    pub ip: usize,
}

/// A text with its e-mail and IP addresses replaced, and how many of each were.
#[derive(Debug, Clone, PartialEq)]
pub struct Redaction<'a> {
    pub text: Cow<'a, str>,
    pub emails: usize,
    pub ips: usize,
}

/// `PIIFormatter.format(text)`: e-mails first, then IPs in the result; `counters` advance by one
/// per replacement, as the formatter's do.
pub fn pii_redact<'a>(
    text: &'a str,
    params: &PiiParams,
    counters: &mut PiiCounters,
) -> Redaction<'a> {
    let mut out = Cow::Borrowed(text);
    let mut emails = 0;
    let mut ips = 0;
    if params.remove_emails {
        let spans = email_spans(&out);
        emails = spans.len();
        out = replace(out, &spans, &params.email_replacement, &mut counters.email);
    }
    if params.remove_ips {
        let spans: Vec<(usize, usize)> = IP
            .find_iter(&out)
            .filter(|m| replaceable_ip(m.as_str(), params.only_remove_public_ips))
            .map(|m| (m.start(), m.end()))
            .collect();
        ips = spans.len();
        out = replace(out, &spans, &params.ip_replacement, &mut counters.ip);
    }
    Redaction {
        text: out,
        emails,
        ips,
    }
}

/// The e-mail matches of Python's `re`: leftmost, not overlapping, each starting where Python's
/// `\b` holds (a start where it does not is skipped, and the search goes on one character later).
fn email_spans(text: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(m) = EMAIL.find_at(text, at) {
        if python_boundary(text, m.start()) {
            spans.push((m.start(), m.end()));
            at = m.end();
        } else {
            // Every match starts with an ASCII character.
            at = m.start() + 1;
        }
        if at >= text.len() {
            break;
        }
    }
    spans
}

/// Python's `\b` before byte `at` of `text`: one side a word character, the other not (the
/// start of the text is not one).
fn python_boundary(text: &str, at: usize) -> bool {
    let before = text[..at].chars().next_back().is_some_and(is_python_word);
    let after = text[at..].chars().next().is_some_and(is_python_word);
    before != after
}

/// datatrove's `public_ip_validator`: Python's `ipaddress.ip_address` refuses an octet with a
/// leading zero (the regex gives nothing else it refuses); then `is_global` when asked.
fn replaceable_ip(address: &str, public_only: bool) -> bool {
    let mut octets = [0u8; 4];
    for (slot, part) in octets.iter_mut().zip(address.split('.')) {
        if part.len() > 1 && part.starts_with('0') {
            return false;
        }
        match part.parse() {
            Ok(value) => *slot = value,
            Err(_) => return false,
        }
    }
    !public_only || is_global(octets)
}

/// Python 3.11.7's `IPv4Address.is_global`.
fn is_global(octets: [u8; 4]) -> bool {
    let address = u32::from_be_bytes(octets);
    !NOT_GLOBAL.iter().any(|(network, prefix)| {
        let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
        address & mask == u32::from_be_bytes(*network) & mask
    })
}

/// `text` with each span replaced by the next string of the cycle.
fn replace<'a>(
    text: Cow<'a, str>,
    spans: &[(usize, usize)],
    cycle: &Replacements,
    next: &mut usize,
) -> Cow<'a, str> {
    if spans.is_empty() || cycle.0.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for &(start, end) in spans {
        out.push_str(&text[copied..start]);
        let index = *next % cycle.0.len();
        out.push_str(&cycle.0[index]);
        *next = (index + 1) % cycle.0.len();
        copied = end;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redact(text: &str) -> String {
        pii_redact(text, &PiiParams::default(), &mut PiiCounters::default())
            .text
            .into_owned()
    }

    #[test]
    fn patterns_compile() {
        assert!(Regex::new(EMAIL_PATTERN).is_ok() && Regex::new(IP_PATTERN).is_ok());
    }

    /// The edge cases datatrove's formatter was run on (datatrove-blocks specification §4.4).
    #[test]
    fn emails_are_replaced_where_pythons_regex_matches() {
        assert_eq!(redact("a@b.c."), "email@example.com.");
        assert_eq!(redact("a@b"), "a@b");
        assert_eq!(redact("user@[192.168.0.1]"), "email@example.com");
        assert_eq!(redact("user@[tag:]"), "user@[tag:]");
        assert_eq!(redact("-john@x.com"), "-email@example.com");
        assert_eq!(redact("éjohn@x.com"), "éjohn@x.com");
        assert_eq!(redact("²john@x.com"), "²john@x.com");
        assert_eq!(redact("a\u{301}b@x.com"), "a\u{301}email@example.com");
        assert_eq!(redact("a..b@x.com"), "a..email@example.com");
        assert_eq!(redact("a@mail.exämple.com"), "email@example.comämple.com");
        assert_eq!(redact("a@b.c@d.e"), "email@example.com@d.e");
        assert_eq!(
            redact("http://user:pass@host.com/"),
            "http://user:email@example.com/"
        );
    }

    #[test]
    fn ips_are_replaced_without_boundaries_unless_not_global_or_zero_padded() {
        assert_eq!(redact("256.1.1.1"), "222.214.171.124");
        assert_eq!(redact("1.2.3.256"), "22.214.171.1246");
        assert_eq!(redact("08.8.8.8"), "08.8.8.8");
        assert_eq!(
            redact("10.0.0.1 and 192.0.0.8"),
            "10.0.0.1 and 22.214.171.124"
        );
        assert_eq!(redact("192.0.0.7"), "192.0.0.7");
        assert_eq!(redact("224.0.0.1"), "22.214.171.124");
        assert_eq!(redact("Version 10.0.19041.1"), "Version 10.0.19041.1");
        let all = PiiParams {
            only_remove_public_ips: false,
            ..PiiParams::default()
        };
        let out = pii_redact("10.0.0.1", &all, &mut PiiCounters::default());
        assert_eq!((out.text.as_ref(), out.ips), ("22.214.171.124", 1));
    }

    #[test]
    fn the_cycles_carry_from_one_text_to_the_next() {
        let params = PiiParams::default();
        let mut counters = PiiCounters::default();
        let first = pii_redact("a@b.co 8.8.8.8", &params, &mut counters);
        assert_eq!(first.text, "email@example.com 22.214.171.124");
        let second = pii_redact("a@b.co 8.8.8.8", &params, &mut counters);
        assert_eq!(second.text, "firstname.lastname@example.org 126.96.36.199");
        assert_eq!(counters, PiiCounters { email: 0, ip: 2 });
    }
}
