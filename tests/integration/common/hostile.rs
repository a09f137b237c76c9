//! Hostile pages, generated rather than stored: what a crawl of a billion pages contains somewhere.
//! Shared by the hostile-input suite (tests/integration/hostile.rs) and its benchmark (benches/hostile.rs).
#![allow(dead_code)]

use std::io::Write;

/// One generated page: a name for messages and its raw bytes (the binary column holds them as
/// they are; the string column holds them decoded as UTF-8 with replacement).
pub struct HostilePage {
    pub name: &'static str,
    pub bytes: Vec<u8>,
}

fn page(name: &'static str, bytes: impl Into<Vec<u8>>) -> HostilePage {
    HostilePage {
        name,
        bytes: bytes.into(),
    }
}

/// `unit` repeated until the result has at least `bytes` bytes.
fn repeat_to(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes.div_ceil(unit.len()))
}

/// Prose in one `<p>`: `bytes` of text in a single element.
pub fn text_in_one_element(bytes: usize) -> String {
    format!(
        "<html><body><p>{}</p></body></html>",
        repeat_to(
            "the quick brown fox jumps over the lazy dog and then it was gone. ",
            bytes
        )
    )
}

/// `n` paragraphs of prose, alternately long enough to be good and short.
pub fn paragraphs(n: usize) -> String {
    let mut html = String::from("<html><body>");
    for i in 0..n {
        if i % 2 == 0 {
            html.push_str("<p>This is one of the paragraphs that are long enough, and it is full of the words that are in the stoplist.</p>\n");
        } else {
            html.push_str("<p>Short one.</p>\n");
        }
    }
    html.push_str("</body></html>");
    html
}

/// `n` elements `<tag>` nested in each other around `text`, then all closed.
pub fn nested(open: &str, close: &str, n: usize, text: &str) -> String {
    format!("{}{text}{}after", open.repeat(n), close.repeat(n))
}

/// One tag with `n` attributes: distinct names (`a0 a1 ...`) or the same name `n` times.
pub fn attributes(n: usize, distinct: bool) -> String {
    let mut html = String::from("<p ");
    for i in 0..n {
        if distinct {
            html.push_str(&format!("a{i}=x "));
        } else {
            html.push_str("a=x ");
        }
    }
    html.push_str(">text after a million attributes</p>");
    html
}

/// A PNG image: the signature, an IHDR chunk and noise.
pub fn png(bytes: usize) -> Vec<u8> {
    let mut out = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    out.extend_from_slice(&[
        0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0,
    ]);
    out.extend(noise(bytes, 0x2545_f491_4f6c_dd1d));
    out
}

/// Deterministic noise bytes (xorshift64).
pub fn noise(bytes: usize, mut state: u64) -> Vec<u8> {
    (0..bytes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// A gzip stream of an HTML page, as a misconfigured crawler stores it.
pub fn gzip(html: &str) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(html.as_bytes()).expect("in memory");
    encoder.finish().expect("in memory")
}

/// UTF-16 with byte order marks of both orders, one after the other.
pub fn mixed_utf16_boms() -> Vec<u8> {
    let mut out = vec![0xff, 0xfe];
    for unit in "<p>little endian text</p>".encode_utf16() {
        out.extend_from_slice(&unit.to_le_bytes());
    }
    out.extend_from_slice(&[0xfe, 0xff]);
    for unit in "<p>big endian text</p>".encode_utf16() {
        out.extend_from_slice(&unit.to_be_bytes());
    }
    out.extend_from_slice(&[0xef, 0xbb, 0xbf]);
    out.extend_from_slice(b"<p>and a UTF-8 BOM in the middle</p>");
    out
}

/// Every malformed UTF-8 shape: stray continuation bytes, overlong forms, surrogates, truncation.
pub fn invalid_utf8() -> Vec<u8> {
    let mut out = b"<html><body><p>valid start ".to_vec();
    for bad in [
        &[0x80][..],
        &[0xbf, 0xbf],
        &[0xc0, 0xaf],
        &[0xe0, 0x80, 0xaf],
        &[0xed, 0xa0, 0x80],
        &[0xf4, 0x90, 0x80, 0x80],
        &[0xff, 0xfe],
        &[0xf0, 0x9f, 0x98],
    ] {
        out.extend_from_slice(bad);
        out.extend_from_slice(b" word ");
    }
    out.extend_from_slice(b"</p></body></html>\xe2\x82");
    out
}

/// The hostile pages at full size (`scale` 1) or divided by `scale` where a size is a parameter.
pub fn pages(scale: usize) -> Vec<HostilePage> {
    let n = |full: usize| (full / scale).max(1);
    vec![
        page("50 MB of text in one element", text_in_one_element(n(50 << 20))),
        page("100,000 nested divs", nested("<div>", "</div>", n(100_000), "deep text")),
        page("100,000 nested anchors", nested("<a href=x>", "</a>", n(100_000), "deep text")),
        page("100,000 nested bold", nested("<b>", "</b>", n(100_000), "deep text")),
        page("100,000 nested tables", nested("<table><tr><td>", "</td></tr></table>", n(100_000), "deep text")),
        page("100,000 nested templates", nested("<template>", "</template>", n(100_000), "deep text")),
        page("100,000 nested svg groups", nested("<svg><g>", "</g></svg>", n(100_000), "deep text")),
        page("100,000 nested lists", nested("<ul><li>", "", n(100_000), "deep text")),
        page(
            "100,000 re-opened formatting elements",
            (0..n(100_000)).map(|i| format!("<p><b id={i}>x</p>")).collect::<String>(),
        ),
        page("1,000,000 distinct attributes", attributes(n(1_000_000), true)),
        page("1,000,000 duplicate attributes", attributes(n(1_000_000), false)),
        page("unclosed comment", format!("<p>before the comment</p><!-- {}", repeat_to("never closed ", n(1 << 20)))),
        page("unclosed script", format!("<p>before the script</p><script>{}", repeat_to("var a = b < c; ", n(1 << 20)))),
        page("unclosed style", format!("<p>before the style</p><style>{}", repeat_to("p { color: red } ", n(1 << 20)))),
        page("unclosed title", format!("<title>{}", repeat_to("a title without end ", n(1 << 20)))),
        page("unclosed textarea", format!("<p>before</p><textarea>{}", repeat_to("typed text ", n(1 << 20)))),
        page("plaintext", format!("<p>before</p><plaintext>{}", repeat_to("<p>not a tag</p> ", n(1 << 20)))),
        page("NUL bytes", format!("<p>{}</p>", repeat_to("nul\0in\0text\0", n(1 << 20)))),
        page("invalid UTF-8", invalid_utf8()),
        page("mixed UTF-16 byte order marks", mixed_utf16_boms()),
        page(
            "unknown meta charset",
            b"<html><head><meta charset=\"x-no-such-encoding\"></head><body><p>caf\xe9 au lait</p></body></html>".to_vec(),
        ),
        page("a PNG image", png(n(1 << 20))),
        page("a gzip stream", gzip(&paragraphs(n(10_000)))),
        page("empty", ""),
        page("only whitespace", repeat_to(" \n\t\r\x0c", n(1 << 20))),
        page("100,000 paragraphs", paragraphs(n(100_000))),
        page("100,000 double line breaks", repeat_to("text<br><br>", n(100_000) * 12)),
        page("one 1 MB word", repeat_to("a", n(1 << 20))),
        page("100,000 character references", repeat_to("&amp;&#x10FFFF;&#xD800;&#99999999999;&notanentity", n(100_000) * 48)),
        page("2 MB attribute value", format!("<img src=\"data:image/png;base64,{}\"><p>caption</p>", repeat_to("QUJD", n(2 << 20)))),
        page("500,000 empty elements", repeat_to("<span></span>", n(500_000) * 13)),
    ]
}
