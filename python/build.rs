fn main() {
    // An extension module resolves Python's symbols from the interpreter that loads it (on macOS
    // this needs `-undefined dynamic_lookup`).
    pyo3_build_config::add_extension_module_link_args();
}
