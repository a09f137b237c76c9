//! Prints the SQL function reference (Markdown) from the functions' own documentation.
//!
//!     cargo run --example function_reference > /tmp/ref.md   # then paste into README.md
fn main() {
    print!("{}", datafusion_webtext::udf::reference_markdown());
}
