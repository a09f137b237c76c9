use datafusion_webtext::trafilatura::load::load_html;
use datafusion_webtext::html::Limits;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let enc = args.get(2).map(String::as_str).unwrap_or("utf-8");
    let text = datafusion_webtext::html::decode::decode_with_codec(&bytes, enc).unwrap();
    match load_html(&text, &Limits::default()) {
        None => println!("None"),
        Some((t, root)) => {
            println!("root {} children {}", t.tag(root).as_str(), t.len(root));
            for c in t.children(root) { println!("  {} {:?}", t.tag(c).as_str(), t.attrs(c)); }
        }
    }
    let page = datafusion_webtext::html::Page::parse_as_libxml2_with_attributes(&text, &Limits::default());
    let html = page.html().unwrap();
    let root = datafusion_webtext::justext::root::choose_root(&page, &text);
    println!("choose_root {:?}", root.as_ref().map(|r| (r.node, r.name.to_string())));
    if let Some(r) = root { for d in page.children(r.node) { match &page.node(d).kind { datafusion_webtext::html::NodeKind::Element(e) => println!("  child {}", e.name), datafusion_webtext::html::NodeKind::Text(t) => println!("  text {:?}", &t[..t.len().min(20)]), _ => println!("  other") } } }
    for c in page.children(html) { if let Some(e) = page.element(c) { println!("html child {}", e.name); for d in page.children(c) { if let Some(e) = page.element(d) { println!("   {}", e.name); } } } }
}
#[allow(dead_code)]
fn x() {}
