//! JSON as Python's `json.loads` reads it, for the JSON-LD and Discourse data trafilatura's
//! baseline takes text from: objects keep their keys in order of first appearance (a repeated
//! key takes the last value), `NaN` and `Infinity` are numbers, and with `strict=False` control
//! characters may stand unescaped inside strings.

/// A parsed value; numbers are not needed beyond their being numbers.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number,
    Str(String),
    List(Vec<Value>),
    Dict(Vec<(String, Value)>),
}

impl Value {
    /// `d.get(key)` on a dict.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// trafilatura's `as_list`: None is empty, a list is itself, anything else one item.
    pub fn as_list(value: Option<&Value>) -> Vec<&Value> {
        match value {
            None => Vec::new(),
            Some(Value::List(items)) => items.iter().collect(),
            Some(v) => vec![v],
        }
    }

    /// Whether some string in the value (keys included) contains `needle`: `needle in
    /// str(value)` for the needles trafilatura tests, which `repr` cannot split or create.
    pub fn mentions(&self, needle: &str) -> bool {
        match self {
            Value::Str(s) => s.contains(needle),
            Value::List(items) => items.iter().any(|v| v.mentions(needle)),
            Value::Dict(entries) => entries
                .iter()
                .any(|(k, v)| k.contains(needle) || v.mentions(needle)),
            _ => false,
        }
    }
}

/// `json.loads(text, strict=strict)`; None where Python raises.
pub fn loads(text: &str, strict: bool) -> Option<Value> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
        strict,
        depth: 0,
    };
    p.ws();
    let v = p.value()?;
    p.ws();
    (p.i == p.s.len()).then_some(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    strict: bool,
    depth: usize,
}

/// Python's recursion limit stops nesting long before this would matter for a page.
const MAX_DEPTH: usize = 900;

impl Parser<'_> {
    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self) -> Option<Value> {
        match *self.s.get(self.i)? {
            b'{' => self.nested(Self::dict),
            b'[' => self.nested(Self::list),
            b'"' => self.string().map(Value::Str),
            b'n' if self.eat("null") => Some(Value::Null),
            b't' if self.eat("true") => Some(Value::Bool(true)),
            b'f' if self.eat("false") => Some(Value::Bool(false)),
            b'N' if self.eat("NaN") => Some(Value::Number),
            b'I' if self.eat("Infinity") => Some(Value::Number),
            b'-' if self.eat("-Infinity") => Some(Value::Number),
            _ => self.number(),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Option<Value>) -> Option<Value> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn number(&mut self) -> Option<Value> {
        // -?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        match self.s.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return None,
        }
        if self.s.get(self.i) == Some(&b'.')
            && self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit)
        {
            self.i += 1;
            self.digits();
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            let save = self.i;
            self.i += 1;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                self.digits();
            } else {
                self.i = save;
            }
        }
        (self.i > start).then_some(Value::Number)
    }

    fn digits(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
    }

    fn list(&mut self) -> Option<Value> {
        self.i += 1;
        self.ws();
        let mut items = Vec::new();
        if self.s.get(self.i) == Some(&b']') {
            self.i += 1;
            return Some(Value::List(items));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            match self.s.get(self.i)? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(Value::List(items));
                }
                _ => return None,
            }
        }
    }

    fn dict(&mut self) -> Option<Value> {
        self.i += 1;
        self.ws();
        let mut entries: Vec<(String, Value)> = Vec::new();
        if self.s.get(self.i) == Some(&b'}') {
            self.i += 1;
            return Some(Value::Dict(entries));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return None;
            }
            let key = self.string()?;
            self.ws();
            if self.s.get(self.i) != Some(&b':') {
                return None;
            }
            self.i += 1;
            self.ws();
            let value = self.value()?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some((_, v)) => *v = value,
                None => entries.push((key, value)),
            }
            self.ws();
            match self.s.get(self.i)? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(Value::Dict(entries));
                }
                _ => return None,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.text.get(self.i..self.i + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    fn string(&mut self) -> Option<String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&b) = self.s.get(self.i) {
                if b == b'"' || b == b'\\' || (b < 0x20 && self.strict) {
                    break;
                }
                self.i += 1;
            }
            out.push_str(self.text.get(start..self.i)?);
            match *self.s.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.i += 1;
                    let c = *self.s.get(self.i)?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = self.hex4()?;
                            if (0xD800..0xDC00).contains(&first)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                let save = self.i;
                                self.i += 2;
                                match self.hex4() {
                                    Some(second) if (0xDC00..0xE000).contains(&second) => {
                                        let c =
                                            0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                                        out.extend(char::from_u32(c));
                                        continue;
                                    }
                                    _ => self.i = save,
                                }
                            }
                            // A lone surrogate: Python keeps it, and every use of these strings
                            // removes it (it is not printable); drop it here.
                            out.extend(char::from_u32(first));
                        }
                        _ => return None,
                    }
                }
                // A control character in strict mode.
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_python() {
        let v = loads(
            r#" {"a": [1, -2.5e3, "x\u00e9\ud83d\ude00"], "a": NaN, "b": {"c": null}} "#,
            true,
        )
        .unwrap();
        assert_eq!(v.get("a"), Some(&Value::Number));
        assert!(matches!(v, Value::Dict(ref e) if e[0].0 == "a" && e[1].0 == "b"));
        assert_eq!(loads("\"a\tb\"", true), None);
        assert_eq!(loads("\"a\tb\"", false), Some(Value::Str("a\tb".into())));
        assert_eq!(loads("[1,]", false), None);
        assert_eq!(loads("1 2", false), None);
        assert_eq!(loads(r#""\ud800x""#, false), Some(Value::Str("x".into())));
        let v = loads(r#"["\u00e9\ud83d\ude00"]"#, true).unwrap();
        assert_eq!(v, Value::List(vec![Value::Str("é😀".into())]));
    }
}
