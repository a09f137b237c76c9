use datafusion_webtext::trafilatura::{Options, OutputFormat, result_tree_xml};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let enc = args.get(2).map(String::as_str).unwrap_or("utf-8");
    let text = datafusion_webtext::html::decode::decode_with_codec(&bytes, enc).unwrap();
    let config = args.get(3).map(String::as_str).unwrap_or("default");
    let opts = match config {
        "fineweb" => Options { deduplicate: false, ..Options::fineweb() },
        "recall" => Options { favor_recall: true, ..Options::default() },
        "fast" => Options { fast: true, ..Options::default() },
        "markdown" => Options { output_format: OutputFormat::Markdown, include_formatting: Some(true), ..Options::default() },
        _ => Options::default(),
    };
    println!("{}", result_tree_xml(&text, &opts).unwrap_or_default());
}
