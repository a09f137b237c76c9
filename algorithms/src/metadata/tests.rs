use super::*;

fn read(html: &str) -> Metadata {
    extract_metadata(html, &Limits::default())
}

#[test]
fn open_graph_and_html_sources_fill_every_field() {
    let page = r#"<!DOCTYPE html><html lang="en-GB"><head>
        <title>Fallback | Site</title>
        <meta property="og:title" content="The  Real
            Title">
        <meta name="author" content="Ada Lovelace">
        <meta property="article:published_time" content="2019-11-19T06:56:00-05:00">
        <meta property="og:site_name" content="The Example Times">
        <link rel="Canonical stylesheet" href="https://example.com/a?x=1&amp;y=2">
        </head><body><time datetime="2001-01-01">then</time></body></html>"#;
    assert_eq!(
        read(page),
        Metadata {
            title: Some("The Real Title".into()),
            author: Some("Ada Lovelace".into()),
            date: Some("2019-11-19T06:56:00-05:00".into()),
            site_name: Some("The Example Times".into()),
            language: Some("en-GB".into()),
            canonical_url: Some("https://example.com/a?x=1&y=2".into()),
        }
    );
}

#[test]
fn json_ld_fills_what_the_meta_tags_leave_out() {
    let page = r#"<html><head><title>Page title</title>
        <script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
          {"@type": "WebSite", "name": "Site Name"},
          {"@type": ["NewsArticle"], "headline": "Head line", "datePublished": "2020-02-02",
           "author": [{"@type": "Person", "name": "A. One"}, "B. Two"],
           "publisher": {"@type": "Organization", "name": "Publisher Inc"},
           "inLanguage": "de", "url": "https://example.de/x"}]}</script>
        </head><body></body></html>"#;
    assert_eq!(
        read(page),
        Metadata {
            title: Some("Head line".into()),
            author: Some("A. One; B. Two".into()),
            date: Some("2020-02-02".into()),
            site_name: Some("Publisher Inc".into()),
            language: Some("de".into()),
            canonical_url: Some("https://example.de/x".into()),
        }
    );
}

#[test]
fn the_title_tag_time_elements_and_content_language_are_the_last_resort() {
    let page = r#"<html><head><meta http-equiv="Content-Language" content="fr">
        <title> Un  titre &amp; plus </title></head>
        <body><time datetime="2001-01-01">x</time><time pubdate datetime="2002-02-02">y</time>
        <svg><title>not the page's</title></svg></body></html>"#;
    let m = read(page);
    assert_eq!(m.title.as_deref(), Some("Un titre & plus"));
    assert_eq!(
        m.date.as_deref(),
        Some("2002-02-02"),
        "a marked <time> before the first one"
    );
    assert_eq!(m.language.as_deref(), Some("fr"));
    assert_eq!((m.author, m.site_name, m.canonical_url), (None, None, None));
}

#[test]
fn author_urls_are_not_names_and_bylines_lose_their_by() {
    let url_author = r#"<meta property="article:author" content="https://facebook.com/someone">"#;
    assert_eq!(read(url_author).author, None);
    let byline = r#"<meta name="byl" content="By Jane Doe and John Roe">"#;
    assert_eq!(
        read(byline).author.as_deref(),
        Some("Jane Doe and John Roe")
    );
    let json_ld = r#"<script type="application/ld+json">{"@type": "Article", "author": "By Ann Bee"}</script>"#;
    assert_eq!(read(json_ld).author.as_deref(), Some("Ann Bee"));
}

#[test]
fn tags_inside_scripts_comments_and_attributes_are_not_read() {
    let page = r#"<script>document.write('<meta name="author" content="Script">')</script>
        <!-- <meta name="author" content="Comment"> -->
        <div data-x='<meta name="author" content="Attribute">'></div>
        <textarea><title>Not a title</title></textarea>"#;
    assert_eq!(read(page), Metadata::default());
}

#[test]
fn broken_or_hostile_input_gives_what_can_be_read() {
    assert_eq!(read(""), Metadata::default());
    assert_eq!(
        read("<html lang='   '><title>   </title>"),
        Metadata::default()
    );
    let broken_json = r#"<script type="application/ld+json">{"@type": "Article", "headline": </script>
        <meta name="author" content="Still Read">"#;
    assert_eq!(read(broken_json).author.as_deref(), Some("Still Read"));
    let deep = format!(
        r#"<script type="application/ld+json">{}{}</script><title>T</title>"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(read(&deep).title.as_deref(), Some("T"));
    let drawing = "<body><svg><title>A chart</title></svg><title>Late title</title></body>";
    assert_eq!(read(drawing).title.as_deref(), Some("Late title"));
    let unclosed = "<title>runs to the end <meta name=author content=x>";
    assert_eq!(read(unclosed).title, None, "an unclosed title is no title");
}
