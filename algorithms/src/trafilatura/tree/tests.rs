use super::*;

fn el(tree: &mut Tree, parent: Id, tag: Tag, text: &str, tail: &str) -> Id {
    let id = tree.new_element(tag);
    let opt = |s: &str| (!s.is_empty()).then(|| StrTendril::from_slice(s));
    tree.set_parsed_text(id, opt(text), opt(tail));
    if parent != NIL {
        tree.append(parent, id);
    }
    id
}

#[test]
fn strip_tags_splices_text_and_children() {
    // <div>a<span>b<i>c</i>d</span>e</div>
    let mut t = Tree::new();
    let div = el(&mut t, NIL, Tag::Div, "a", "");
    let span = el(&mut t, div, Tag::Span, "b", "e");
    el(&mut t, span, Tag::I, "c", "d");
    t.strip_tags(div, |tag| *tag == Tag::Span);
    assert_eq!(t.text(div), Some("ab"));
    let i = t.first_child(div);
    assert_eq!(t.tag(i), &Tag::I);
    assert_eq!(t.tail(i), Some("de"));
    assert_eq!(t.text_content(div), "abcde");
}

#[test]
fn deleting_during_iteration_continues_in_the_detached_subtree() {
    // <r><aside><aside/></aside><aside/></r>: lxml deletes the first and the inner one only.
    let mut t = Tree::new();
    let r = el(&mut t, NIL, Tag::Div, "", "");
    let outer = el(&mut t, r, Tag::Aside, "", "");
    el(&mut t, outer, Tag::Aside, "", "");
    let second = el(&mut t, r, Tag::Aside, "", "");
    let mut it = LxIter::new(&t, r, true, |tag| *tag == Tag::Aside);
    while let Some(id) = it.next(&t) {
        t.delete_element(id, true).unwrap();
    }
    assert_eq!(t.child_list(r), vec![second]);
}

#[test]
fn itertext_yields_empty_strings_and_skips_own_tail() {
    let mut t = Tree::new();
    let r = el(&mut t, NIL, Tag::P, "a", "TAIL");
    let b = el(&mut t, r, Tag::B, "", "c");
    t.set_text(b, Some(String::new())).unwrap();
    assert_eq!(t.join_text(r, " "), "a  c");
    let copy = t.deep_copy(r);
    assert_eq!(t.join_text(copy, "|"), "a||c");
    assert_eq!(t.tail(copy), Some("TAIL"));
}

#[test]
fn writes_are_checked_once_asked() {
    let mut t = Tree::new();
    let r = t.new_element(Tag::P);
    assert!(t.set_text(r, Some("\u{1a}".into())).is_ok());
    t.check_writes();
    assert_eq!(t.set_text(r, Some("a\u{1a}".into())), Err(NotXmlCompatible));
    assert!(t.set_text(r, Some("a\tb\n".into())).is_ok());
    assert!(!is_xml_compatible("\u{fffe}"));
}

#[test]
fn outermost_matches_hold_every_match() {
    // <r><div><div/></div><p><div/></p></r>: the inner div of the first is left out.
    let mut t = Tree::new();
    let r = el(&mut t, NIL, Tag::Div, "", "");
    let first = el(&mut t, r, Tag::Div, "", "");
    el(&mut t, first, Tag::Div, "", "");
    let p = el(&mut t, r, Tag::P, "", "");
    let last = el(&mut t, p, Tag::Div, "", "");
    assert_eq!(t.outermost_where(r, |tag| *tag == Tag::Div), vec![r]);
    assert_eq!(
        t.outermost_where(first, |tag| *tag == Tag::P),
        Vec::<Id>::new()
    );
    let below: Vec<Id> = t
        .children(r)
        .flat_map(|c| t.outermost_where(c, |tag| *tag == Tag::Div))
        .collect();
    assert_eq!(below, vec![first, last]);
}

#[test]
fn xml_compatibility_as_lxml_tests_it() {
    for ok in [
        "",
        "a\tb\nc\r",
        "\u{fffd}\u{fff0}\u{ef}\u{bf}",
        &"x".repeat(200),
    ] {
        assert!(is_xml_compatible(ok), "{ok:?}");
    }
    let long = format!("{}\u{1}", "y".repeat(130));
    for bad in ["\u{0}", "a\u{b}", "\u{1f}", "\u{fffe}", "z\u{ffff}", &long] {
        assert!(!is_xml_compatible(bad), "{bad:?}");
    }
}
