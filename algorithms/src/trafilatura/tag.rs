//! Element names as trafilatura compares them: the HTML names its rules test and the TEI-like
//! names it renames elements to (`p`, `head`, `hi`, `lb`, `list`, `item`, `ref`, `done`...), as
//! one enum so that a test of a name is a comparison of two small integers; any other name is
//! kept as written.

use html5ever::LocalName;

macro_rules! tags {
    ($($variant:ident = $name:literal,)*) => {
        /// An element name.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum Tag {
            $($variant,)*
            /// A name none of trafilatura's rules mention.
            Other(LocalName),
        }

        impl Tag {
            /// The tag for a name as the parser wrote it (lower case).
            pub fn from_name(name: &str) -> Tag {
                match name {
                    $($name => Tag::$variant,)*
                    _ => Tag::Other(LocalName::from(name)),
                }
            }

            /// The name as lxml spells it.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Tag::$variant => $name,)*
                    Tag::Other(name) => name,
                }
            }
        }
    };
}

tags! {
    A = "a", Abbr = "abbr", Acronym = "acronym", Address = "address", Annotation = "annotation",
    Applet = "applet", Area = "area", Article = "article", Aside = "aside", Audio = "audio",
    B = "b", Bdi = "bdi", Bdo = "bdo", Big = "big", Blink = "blink", Blockquote = "blockquote",
    Body = "body", Br = "br", Button = "button", Canvas = "canvas", Caption = "caption",
    Center = "center", Cite = "cite", Code = "code", Col = "col", Colgroup = "colgroup",
    Data = "data", Datalist = "datalist", Dd = "dd", Del = "del", Details = "details",
    Dfn = "dfn", Dialog = "dialog", Div = "div", Dl = "dl", Dt = "dt", Em = "em",
    Embed = "embed", Fencedframe = "fencedframe", Fieldset = "fieldset",
    Figcaption = "figcaption", Figure = "figure", Font = "font", Footer = "footer", Form = "form",
    Frame = "frame", Frameset = "frameset", H1 = "h1", H2 = "h2", H3 = "h3", H4 = "h4",
    H5 = "h5", H6 = "h6", Head = "head", Header = "header", Hgroup = "hgroup", Hr = "hr",
    Html = "html", I = "i", Iframe = "iframe", Img = "img", Input = "input", Ins = "ins",
    Kbd = "kbd", Label = "label", Legend = "legend", Li = "li", Link = "link", Main = "main",
    Map = "map", Mark = "mark", Marquee = "marquee", Math = "math", Menu = "menu",
    Menuitem = "menuitem", Meta = "meta", Nav = "nav", Nobr = "nobr", Noindex = "noindex",
    Noscript = "noscript", Object = "object", Ol = "ol", Optgroup = "optgroup",
    Option = "option", Output = "output", P = "p", Param = "param", Picture = "picture",
    Pre = "pre", Progress = "progress", Q = "q", Rp = "rp", Rt = "rt", Rtc = "rtc",
    Ruby = "ruby", S = "s", Samp = "samp", Script = "script", Section = "section",
    Select = "select", Small = "small", Source = "source", Span = "span", Strike = "strike",
    Strong = "strong", Style = "style", Sub = "sub", Summary = "summary", Sup = "sup",
    Svg = "svg", Table = "table", Tbody = "tbody", Td = "td", Template = "template",
    Textarea = "textarea", Tfoot = "tfoot", Th = "th", Thead = "thead", Time = "time",
    Title = "title", Tr = "tr", Track = "track", Tt = "tt", U = "u", Ul = "ul", Use = "use",
    Var = "var", Video = "video", Wbr = "wbr",
    // trafilatura's own names (its XML-TEI-like output) and its marker of consumed elements.
    Ab = "ab", Cell = "cell", Done = "done", Graphic = "graphic", Hi = "hi", Item = "item",
    Lb = "lb", List = "list", Quote = "quote", Ref = "ref", Row = "row",
}

impl Tag {
    /// Whether lxml lets Python create an element of this name (`_tagValidOrRaise`: an XML 1.0
    /// name, 5th edition, without a colon). The parser builds elements of any name the HTML
    /// tokenizer reads (`<http://x>` is an element `http:`), but copying one into a new element
    /// raises ValueError, which ends trafilatura's extraction of the page.
    pub fn is_valid_xml_name(&self) -> bool {
        let Tag::Other(name) = self else {
            return true;
        };
        let mut chars = name.chars();
        chars.next().is_some_and(is_name_start)
            && chars.all(|c| is_name_start(c) || is_name_char(c))
    }

    /// `h1`…`h6`.
    pub fn is_heading(&self) -> bool {
        matches!(
            self,
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
        )
    }
}

/// XML 1.0 (5th edition) `NameStartChar`, less the colon lxml refuses.
fn is_name_start(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{2FF}'
        | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}' | '\u{200C}'..='\u{200D}'
        | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}' | '\u{3001}'..='\u{D7FF}'
        | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}' | '\u{10000}'..='\u{EFFFF}')
}

/// The other characters of XML 1.0's `NameChar`.
fn is_name_char(c: char) -> bool {
    matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in ["div", "lb", "done", "h3", "custom-element", "x"] {
            assert_eq!(Tag::from_name(name).as_str(), name);
        }
        assert_eq!(Tag::from_name("div"), Tag::Div);
        assert!(matches!(Tag::from_name("blah"), Tag::Other(_)));
    }

    // lxml 6.1.3: etree.Element(name) raises ValueError for the invalid ones.
    #[test]
    fn xml_names_as_lxml_checks_them() {
        for valid in ["p", "x-y", "a.b", "é", "x1", "custom-element"] {
            assert!(Tag::from_name(valid).is_valid_xml_name(), "{valid}");
        }
        for invalid in ["http:", "a\"b", "x=", "a,b", "a@b", "a(b", "a;b", "o:p"] {
            assert!(!Tag::from_name(invalid).is_valid_xml_name(), "{invalid}");
        }
    }
}
