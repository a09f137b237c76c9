//! The README's function reference is the functions' own documentation.

#[test]
fn readme_function_reference_matches_documentation() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("<!-- functions:start -->\n")
        .expect("start marker")
        + "<!-- functions:start -->\n".len();
    let end = readme.find("<!-- functions:end -->").expect("end marker");
    assert_eq!(
        &readme[start..end],
        datafusion_webtext::udf::reference_markdown(),
        "regenerate with: cargo run --example function_reference"
    );
}
