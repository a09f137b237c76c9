//! Prints the SQL function reference (Markdown) from the functions' own documentation.
//!
//!     bash tools/update_function_reference.sh   # writes it into docs/src/functions.md
fn main() {
    print!("{}", datafusion_webtext::udf::reference_markdown());
}
