//! The facts of a page's JSON-LD (`<script type="application/ld+json">`): the first article's
//! headline, author, date, publisher, language and URL, and a WebSite's name.

use serde_json::Value;

use super::tidy::tidy;

/// What the JSON-LD of a page says; `None` where it says nothing (or is not JSON).
#[derive(Debug, Default)]
pub(super) struct Facts {
    pub headline: Option<String>,
    pub author: Option<String>,
    pub date_published: Option<String>,
    pub publisher: Option<String>,
    pub website: Option<String>,
    pub language: Option<String>,
    pub url: Option<String>,
}

/// Objects visited per page at most: a script of a million nested items costs no more.
const MAX_OBJECTS: usize = 10_000;

impl Facts {
    pub(super) fn from_scripts(scripts: &[String]) -> Facts {
        let mut facts = Facts::default();
        let mut budget = MAX_OBJECTS;
        for script in scripts {
            // serde_json stops at 128 levels of nesting with an error: such a script is skipped.
            if let Ok(value) = serde_json::from_str::<Value>(script) {
                facts.visit(&value, &mut budget);
            }
        }
        facts
    }

    /// Walks arrays and `@graph`s; the first article fills the article fields, the first WebSite
    /// the site's name.
    fn visit(&mut self, value: &Value, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match value {
            Value::Array(items) => items.iter().for_each(|v| self.visit(v, budget)),
            Value::Object(object) => {
                if let Some(graph) = object.get("@graph") {
                    self.visit(graph, budget);
                }
                if is_type(value, is_article) {
                    self.read_article(value);
                } else if is_type(value, |t| t == "WebSite") && self.website.is_none() {
                    self.website = string(value.get("name"));
                }
            }
            _ => {}
        }
    }

    fn read_article(&mut self, article: &Value) {
        fill(&mut self.headline, || {
            string(article.get("headline")).or_else(|| string(article.get("name")))
        });
        fill(&mut self.author, || names(article.get("author")));
        fill(&mut self.date_published, || {
            string(article.get("datePublished"))
        });
        fill(&mut self.publisher, || {
            article
                .get("publisher")
                .and_then(|p| string(p.get("name")).or_else(|| string(Some(p))))
        });
        fill(&mut self.language, || string(article.get("inLanguage")));
        fill(&mut self.url, || string(article.get("url")));
    }
}

fn fill(slot: &mut Option<String>, value: impl FnOnce() -> Option<String>) {
    if slot.is_none() {
        *slot = value();
    }
}

/// schema.org's article types: Article and its kinds (NewsArticle, BlogPosting, Report, ...),
/// and the pages that carry them.
fn is_article(t: &str) -> bool {
    t.ends_with("Article")
        || matches!(
            t,
            "BlogPosting" | "SocialMediaPosting" | "LiveBlogPosting" | "Report" | "Review"
        )
}

/// Whether `@type` (a string or a list of them) names a type `wanted` accepts.
fn is_type(value: &Value, wanted: impl Fn(&str) -> bool) -> bool {
    match value.get("@type") {
        Some(Value::String(t)) => wanted(t),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).any(wanted),
        _ => false,
    }
}

fn string(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).and_then(tidy)
}

/// An author: a name, an object with a name, or a list of either, joined by "; ".
fn names(value: Option<&Value>) -> Option<String> {
    let one = |v: &Value| string(Some(v)).or_else(|| string(v.get("name")));
    let joined = match value? {
        Value::Array(items) => items.iter().filter_map(one).collect::<Vec<_>>().join("; "),
        other => one(other)?,
    };
    (!joined.is_empty()).then_some(joined)
}
