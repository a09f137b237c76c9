use super::*;

/// The checks against the patterns on every run of up to three characters of a set that
/// holds the patterns' own characters, letters and digits, and on longer generated runs.
/// A pattern of the tables compiled whole, as Python compiles it.
fn whole(key: &str) -> Regex {
    let tables = read_tables(ENGLISH_TABLES).unwrap();
    compile(tables[key].as_str().unwrap()).unwrap()
}

#[test]
fn alternatives_split_at_the_top_level_only() {
    assert_eq!(
        top_level_alternatives(r"^a|^[|x]|^(b|c)|^\||d"),
        [r"^a", r"^[|x]", r"^(b|c)", r"^\|", "d"]
    );
    assert_eq!(
        top_level_alternatives(r"[]|]$|[^]|]$"),
        [r"[]|]$", r"[^]|]$"]
    );
}

#[test]
fn the_prefilters_never_hide_a_match() {
    let rules = crate::words::spacy::spacy_rules();
    let (prefix, suffix) = (whole("prefix_pattern"), whole("suffix_pattern"));
    let alphabet: Vec<char> = "aZsSUCAkmé90.'’$,-–:/+%²Ⓐ…(「#_~^*=<>?!\""
        .chars()
        .collect();
    let mut runs: Vec<String> = Vec::new();
    for &a in &alphabet {
        runs.push(a.to_string());
        for &b in &alphabet {
            runs.push(format!("{a}{b}"));
            for &c in &alphabet {
                runs.push(format!("{a}{b}{c}"));
            }
        }
    }
    let mut state = 0x2545f4914f6cdd1du64;
    for _ in 0..20_000 {
        let len = 4 + (state % 9) as usize;
        let run: String = (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        runs.push(run);
    }
    runs.extend(
        [
            "US$5",
            "C$",
            "10km²",
            "it's",
            "IT’S",
            "x.com",
            "ab-cd",
            "a,b",
            "10اكواب",
            "price10km/h",
            "word......",
            "a.b.c.d.e.f.g.h.i....",
            "abcdefghijkl10US$",
            "……………",
            "well-known.",
            "1990s'",
            "°F.",
            "°C..",
        ]
        .map(String::from),
    );
    for run in &runs {
        let want_prefix = match prefix.find(run) {
            Ok(Some(m)) if m.start() == 0 => m.end(),
            _ => 0,
        };
        let want_suffix = match suffix.find(run) {
            Ok(Some(m)) => m.end() - m.start(),
            _ => 0,
        };
        assert_eq!(rules.prefix_len(run), want_prefix, "prefix {run:?}");
        assert_eq!(
            rules.prefix_len_by_pattern(run),
            want_prefix,
            "prefix parts {run:?}"
        );
        assert_eq!(rules.suffix_len(run), want_suffix, "suffix {run:?}");
        assert_eq!(
            rules.suffix.longest_at_end(run, 0),
            want_suffix,
            "suffix parts {run:?}"
        );
        assert_eq!(
            rules.infixes(run),
            rules.infixes_by_pattern(run),
            "infix {run:?}"
        );
        assert_eq!(
            rules.is_url(run),
            rules.is_url_by_pattern(run),
            "url {run:?}"
        );
    }
}

/// In every language, on runs of the characters its patterns hold and on words of many
/// scripts, the prefilters answer "may match" wherever a pattern matches.
#[test]
fn every_languages_prefilters_never_hide_a_match() {
    let alphabet: Vec<char> = "a1.-'’()%$€é:/@#«»…¿!,\"ß_+=*~<>[]{}|^°²ا١ж中"
        .chars()
        .collect();
    let mut runs: Vec<String> = Vec::new();
    for &a in &alphabet {
        for &b in &alphabet {
            runs.push(format!("{a}{b}"));
            runs.push(format!("{a}bc{b}"));
        }
    }
    runs.extend(
        [
            "l'été",
            "dell'anno",
            "d'Italia",
            "s'il",
            "aujourd'hui",
            "Straße.",
            "z.B.",
            "U.S.A.",
            "10km",
            "5kg.",
            "50%",
            "$5",
            "€10",
            "#tag",
            "@user",
            "e-mail",
            "self-made",
            "https://example.com/a?b=c",
            "www.example.org",
            "user@example.com",
            "qu'est-ce",
            "(Hallo)",
            "«Bonjour»",
            "„Guten",
            "Tag“",
            "...",
            "word...",
            "¡Hola!",
            "¿Qué?",
            "Москва-река",
            "καλημέρα;",
            "السلام،",
            "שלום.",
            "3.14",
            "1,000.5",
            "12:30",
            "n't",
            "can't",
            "Ltd.",
            "etc.",
            "3-4",
            "A-Z",
            "x--y",
            "a/b",
            "1/2",
            "°C",
        ]
        .map(String::from),
    );
    // Longer than any bounded suffix alternative: the suffix is looked for near the end only.
    let long: Vec<String> = runs.iter().map(|r| format!("Überlangeswort{r}")).collect();
    runs.extend(long);
    for code in super::super::languages::spacy_languages() {
        let crate::words::WordTokenizer::Spacy(language) =
            crate::words::WordTokenizer::spacy(code).unwrap()
        else {
            continue;
        };
        let rules = language.rules();
        for run in &runs {
            let may = &rules.may_have;
            if rules.prefix_len_by_pattern(run) > 0 {
                assert!(may.prefix.may_match(run), "{code} prefix {run:?}");
            }
            let suffix = rules.suffix.longest_at_end(run, 0);
            if suffix > 0 {
                assert!(may.suffix.may_match(run), "{code} suffix {run:?}");
            }
            if rules.suffix.whole.is_none() {
                let searched_from_the_start = (rules.suffix.parts.iter())
                    .filter_map(|part| match part.pattern.find(run) {
                        Ok(Some(m)) => Some(m.end() - m.start()),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                assert_eq!(suffix, searched_from_the_start, "{code} suffix {run:?}");
            }
            if !rules.infixes_by_pattern(run).is_empty() {
                assert!(may.infix.may_match(run), "{code} infix {run:?}");
            }
            if rules.is_url_by_pattern(run) {
                assert!(may.url.may_match(run), "{code} url {run:?}");
            }
            let token_match = rules.token_match.as_ref();
            if token_match.is_some_and(|p| matches!(p.find(run), Ok(Some(m)) if m.start() == 0)) {
                assert!(may.token_match.may_match(run), "{code} token_match {run:?}");
            }
        }
        // The prefilters exist: every pattern but a missing token_match has one.
        assert!(rules.may_have.prefix.0.is_some(), "{code}");
        assert!(rules.may_have.suffix.0.is_some(), "{code}");
        assert!(rules.may_have.infix.0.is_some(), "{code}");
        assert!(rules.may_have.url.0.is_some(), "{code}");
    }
}
