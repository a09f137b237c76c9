//! A URL's host split into subdomain, registered domain and public suffix as tldextract 5.4.0's
//! `TLDExtract()` splits it (the extractor datatrove's `URLFilter` builds): its lenient reading
//! of the authority, its IPv4 and IPv6 tests, and its walk of the Public Suffix List's ICANN
//! rules from the right, over tldextract's own snapshot of the list (2025-04-07, compiled in;
//! a newer list can move a registered domain). Its parts keep the URL's case and form.

use std::borrow::Cow;
use std::net::Ipv6Addr;
use std::sync::LazyLock;

use ahash::AHashMap;

use crate::unicode::is_python_word;
use crate::words::is_python_space;

/// The Public Suffix List as tldextract 5.4.0 bundles it (MPL-2.0, `lists/psl`).
const PUBLIC_SUFFIX_LIST: &str =
    include_str!("../../../../lists/psl/public_suffix_list_2025-04-07_5fc8d12c.dat");

/// Where the list's private section, which datatrove's extractor leaves out, begins.
const PRIVATE_SECTION: &str = "// ===BEGIN PRIVATE DOMAINS===";

/// The alternative full stops tldextract reads as `.`.
const DOTS: [char; 3] = ['\u{3002}', '\u{ff0e}', '\u{ff61}'];

/// A node of the suffix trie: its labels below, and whether a rule ends here.
#[derive(Debug, Default)]
struct Node {
    children: AHashMap<String, Node>,
    rule_end: bool,
}

static SUFFIXES: LazyLock<Node> = LazyLock::new(|| {
    let public = PUBLIC_SUFFIX_LIST
        .split_once(PRIVATE_SECTION)
        .map_or(PUBLIC_SUFFIX_LIST, |(public, _)| public);
    let mut root = Node::default();
    for rule in public.lines().filter_map(rule_of_line) {
        let mut node = &mut root;
        for label in rule.split('.').rev() {
            node = node.children.entry(label.to_owned()).or_default();
        }
        node.rule_end = true;
    }
    root
});

/// tldextract's rule pattern `^[.*!]*\w\S*` at a line's start: the rule, up to whitespace.
fn rule_of_line(line: &str) -> Option<&str> {
    let body = line.trim_start_matches(['.', '*', '!']);
    let first = body.chars().next()?;
    if !is_python_word(first) {
        return None;
    }
    let end = line.find(is_python_space).unwrap_or(line.len());
    Some(&line[..end])
}

/// A host's parts as tldextract gives them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostParts {
    pub subdomain: String,
    pub domain: String,
    pub suffix: String,
}

impl HostParts {
    /// `domain.suffix` when both are non-empty, else empty.
    pub fn registered_domain(&self) -> String {
        if self.domain.is_empty() || self.suffix.is_empty() {
            return String::new();
        }
        format!("{}.{}", self.domain, self.suffix)
    }

    /// The non-empty parts joined by `.` when domain and suffix are non-empty, else empty.
    pub fn fqdn(&self) -> String {
        if self.domain.is_empty() || self.suffix.is_empty() {
            return String::new();
        }
        let mut fqdn =
            String::with_capacity(self.subdomain.len() + self.domain.len() + self.suffix.len() + 2);
        for part in [&self.subdomain, &self.domain, &self.suffix] {
            if part.is_empty() {
                continue;
            }
            if !fqdn.is_empty() {
                fqdn.push('.');
            }
            fqdn.push_str(part);
        }
        fqdn
    }
}

/// `TLDExtract()(url)`.
pub fn extract(url: &str) -> HostParts {
    split_host(lenient_netloc(url))
}

/// tldextract's `lenient_netloc`: the host of a URL read without validation.
fn lenient_netloc(url: &str) -> &str {
    let rest = match url.find("//") {
        Some(0) => &url[2..],
        Some(i) if is_scheme(&url[..i]) => &url[i + 2..],
        _ => url,
    };
    let authority = rest
        .split('/')
        .next()
        .and_then(|s| s.split('?').next())
        .and_then(|s| s.split('#').next())
        .unwrap_or(rest);
    let after_userinfo = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if after_userinfo.starts_with('[')
        && let Some(close) = after_userinfo.find(']')
    {
        return &after_userinfo[..=close];
    }
    let host = after_userinfo.split(':').next().unwrap_or(after_userinfo);
    host.trim_matches(is_python_space)
        .trim_end_matches(|c| c == '.' || DOTS.contains(&c))
}

/// `url[:i]` ends with `:` after at least one character, all of them scheme characters.
fn is_scheme(before_slashes: &str) -> bool {
    match before_slashes.strip_suffix(':') {
        Some(scheme) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// tldextract's `_extract_netloc` over a host.
fn split_host(host: &str) -> HostParts {
    let host: Cow<str> = if host.contains(DOTS) {
        host.chars()
            .map(|c| if DOTS.contains(&c) { '.' } else { c })
            .collect()
    } else {
        Cow::Borrowed(host)
    };
    if is_bracketed_ipv6(&host) {
        return HostParts {
            domain: host.into_owned(),
            ..HostParts::default()
        };
    }
    let labels: Vec<&str> = host.split('.').collect();
    let suffix_index = suffix_index(&labels);
    if suffix_index == labels.len() {
        if labels.len() == 4 && host.chars().next().is_some_and(is_python_decimal) && is_ipv4(&host)
        {
            return HostParts {
                domain: host.into_owned(),
                ..HostParts::default()
            };
        }
        let (last, rest) = labels.split_last().unwrap_or((&"", &[]));
        return HostParts {
            subdomain: rest.join("."),
            domain: (*last).to_owned(),
            suffix: String::new(),
        };
    }
    HostParts {
        subdomain: labels[..suffix_index.saturating_sub(1)].join("."),
        domain: if suffix_index == 0 {
            String::new()
        } else {
            labels[suffix_index - 1].to_owned()
        },
        suffix: labels[suffix_index..].join("."),
    }
}

/// Where the public suffix starts among the labels (`labels.len()`: none).
fn suffix_index(labels: &[&str]) -> usize {
    let mut node = &*SUFFIXES;
    let mut index = labels.len();
    let mut suffix_index = labels.len();
    for label in labels.iter().rev() {
        let decoded = decode_label(label);
        if let Some(child) = node.children.get(decoded.as_ref()) {
            index -= 1;
            node = child;
            if node.rule_end {
                suffix_index = index;
            }
            continue;
        }
        if node.children.contains_key("*") {
            let exception = format!("!{decoded}");
            suffix_index = if node.children.contains_key(&exception) {
                index
            } else {
                index - 1
            };
        }
        break;
    }
    suffix_index
}

/// A label as the trie is searched with: lower-cased, and an A-label (`xn--`) decoded to Unicode
/// where it is valid (kept otherwise).
fn decode_label(label: &str) -> Cow<'_, str> {
    // Most labels are already lower-case ASCII: nothing to build.
    let plain = label
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase());
    let lower = if plain {
        Cow::Borrowed(label)
    } else {
        Cow::Owned(label.to_lowercase())
    };
    if !lower.starts_with("xn--") {
        return lower;
    }
    let (unicode, result) = idna::domain_to_unicode(&lower);
    match result {
        Ok(()) if !unicode.contains('.') => Cow::Owned(unicode),
        _ => lower,
    }
}

/// Python's `str.isdecimal` of one character (Nd).
fn is_python_decimal(c: char) -> bool {
    c.is_ascii_digit() || crate::unicode::DECIMAL_DIGIT.contains(c)
}

/// tldextract's IPv4 pattern: four ASCII decimal octets 0–255 without leading zeros.
fn is_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// `[…]` around an address Python's `ipaddress.IPv6Address` reads (a zone after `%` allowed).
fn is_bracketed_ipv6(host: &str) -> bool {
    let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return false;
    };
    if host.chars().count() < 4 {
        return false;
    }
    let address = match inner.split_once('%') {
        Some((address, zone)) if !zone.is_empty() && !zone.contains('%') => address,
        Some(_) => return false,
        None => inner,
    };
    address.parse::<Ipv6Addr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(url: &str) -> (String, String, String) {
        let p = extract(url);
        (p.subdomain, p.domain, p.suffix)
    }

    fn triple(a: &str, b: &str, c: &str) -> (String, String, String) {
        (a.to_owned(), b.to_owned(), c.to_owned())
    }

    /// The examples of tldextract's behaviour the datatrove-blocks specification verified.
    #[test]
    fn hosts_split_as_tldextract_splits_them() {
        assert_eq!(
            parts("https://www.Example.COM:8080/a?b#c"),
            triple("www", "Example", "COM")
        );
        assert_eq!(
            parts("http://user:pw@sub.example.co.uk./x"),
            triple("sub", "example", "co.uk")
        );
        assert_eq!(parts("example.com/path"), triple("", "example", "com"));
        assert_eq!(parts("https://1.2.3.4/"), triple("", "1.2.3.4", ""));
        assert_eq!(
            parts("http://[2001:db8::1]:80/"),
            triple("", "[2001:db8::1]", "")
        );
        assert_eq!(parts("http://пример.рф/"), triple("", "пример", "рф"));
        assert_eq!(
            parts("http://xn--e1afmkfd.xn--p1ai/"),
            triple("", "xn--e1afmkfd", "xn--p1ai")
        );
        assert_eq!(parts("http://foo.ck/"), triple("", "", "foo.ck"));
        assert_eq!(parts("http://www.ck/"), triple("", "www", "ck"));
        assert_eq!(
            parts("http://a.b.kawasaki.jp/"),
            triple("", "a", "b.kawasaki.jp")
        );
        assert_eq!(
            parts("http://x.blogspot.com/"),
            triple("x", "blogspot", "com")
        );
        assert_eq!(parts("http://localhost:8000/"), triple("", "localhost", ""));
        assert_eq!(
            parts("http://example.notatld/"),
            triple("example", "notatld", "")
        );
        assert_eq!(parts("http://co.uk/"), triple("", "", "co.uk"));
        assert_eq!(parts("http://example。com/"), triple("", "example", "com"));
        assert_eq!(extract("http://co.uk/").registered_domain(), "");
        assert_eq!(
            extract("http://user:pw@sub.example.co.uk./x").fqdn(),
            "sub.example.co.uk"
        );
    }
}
