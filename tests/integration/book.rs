//! The book's function reference is the functions' own documentation.

#[test]
fn the_books_function_reference_matches_documentation() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/src/functions.md"
    ))
    .unwrap();
    let start = page
        .find("<!-- functions:start -->\n")
        .expect("start marker")
        + "<!-- functions:start -->\n".len();
    let end = page.find("<!-- functions:end -->").expect("end marker");
    assert_eq!(
        &page[start..end],
        datafusion_webtext::udf::reference_markdown(),
        "regenerate with: bash tools/update_function_reference.sh"
    );
}
