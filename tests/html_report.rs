//! The HTML report (`--format html --out DIR`, `jresa report`): the structure of the sites of
//! `analyze`, `validate` and `ci` on small fixtures against golden digests (`tests/data/html/`,
//! read with an HTML parser), the invariants every page keeps (its Content-Security-Policy, no
//! script but the site's own, no link that leaves the site or leads nowhere), a class with hostile
//! names rendered as text, and a saved JSON report rendered to the same site.
//! `UPDATE_EXPECT=1 cargo test --test suite html_report::` rewrites the digests.

use crate::analyze_support as support;
use crate::report_support::jresa;
use scraper::{ElementRef, Html, Selector};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn report_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report")
}

fn html_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/html")
}

fn selector(css: &str) -> Selector {
    Selector::parse(css).expect("a valid selector")
}

/// Every `.html` file of a site, by its path relative to the site (with `/`), parsed.
pub fn read_site(dir: &Path) -> BTreeMap<String, Html> {
    let mut pages = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).expect("the site's directory").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "html") {
                let relative = path
                    .strip_prefix(dir)
                    .expect("inside")
                    .to_string_lossy()
                    .replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("a page");
                pages.insert(relative, Html::parse_document(&text));
            }
        }
    }
    pages
}

fn text_of(element: ElementRef<'_>) -> String {
    element
        .text()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The structure of a site: per page its headings, its tables' rows, its source notes and how
/// many plots it has.
fn digest(pages: &BTreeMap<String, Html>) -> String {
    let mut out = String::new();
    let structure = selector("h1, h2, h3, table, div.note, figure.chart");
    let rows = selector("tr");
    let cells = selector("th, td");
    for (path, page) in pages {
        out.push_str(&format!("== {path}\n"));
        for element in page.select(&structure) {
            let name = element.value().name();
            match name {
                "table" => {
                    let class = element.value().attr("class").unwrap_or("");
                    out.push_str(&format!("table {class}\n"));
                    for row in element.select(&rows) {
                        let texts: Vec<String> = row.select(&cells).map(text_of).collect();
                        out.push_str(&format!("  | {}\n", texts.join(" | ")));
                    }
                }
                "div" => {
                    let line = previous_line_id(element).unwrap_or_default();
                    out.push_str(&format!("note {line}: {}\n", text_of(element)));
                }
                "figure" => {
                    let svg = element.select(&selector("svg")).count();
                    out.push_str(&format!(
                        "figure with {svg} svg: {}\n",
                        element.select(&selector("figcaption")).map(text_of).collect::<String>()
                    ));
                }
                _ => out.push_str(&format!("{name} {}\n", text_of(element))),
            }
        }
    }
    out
}

/// The id of the source line a note follows.
fn previous_line_id(note: ElementRef<'_>) -> Option<String> {
    note.prev_siblings()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().attr("id").is_some())
        .and_then(|e| e.value().attr("id").map(str::to_owned))
}

/// Compares a digest with its golden file (rewritten with `UPDATE_EXPECT=1`).
fn expect_digest(name: &str, actual: &str) {
    let path = html_data().join(name);
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).expect("write the digest");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == actual,
        "{} differs (UPDATE_EXPECT=1 rewrites it); actual:\n{actual}",
        path.display()
    );
}

/// What every page keeps: the policy, the site's own script and style only, no event handler
/// attributes, and links that stay inside the site and lead to a page and anchor that exist.
fn check_invariants(site: &Path, pages: &BTreeMap<String, Html>) {
    let policy = selector("meta[http-equiv='Content-Security-Policy']");
    let all = selector("*");
    for (path, page) in pages {
        let metas: Vec<_> = page.select(&policy).collect();
        assert_eq!(metas.len(), 1, "{path}: one policy");
        assert_eq!(
            metas[0].value().attr("content"),
            Some(jresa::report::html::CONTENT_SECURITY_POLICY),
            "{path}"
        );
        for element in page.select(&all) {
            let e = element.value();
            if e.name() == "script" {
                let src = e.attr("src").unwrap_or("");
                assert!(
                    src.ends_with("sort.js") && text_of(element).is_empty(),
                    "{path}: a script {src}"
                );
            }
            for (name, value) in e.attrs() {
                assert!(!name.starts_with("on"), "{path}: an event handler {name}={value}");
            }
            if let Some(href) = e.attr("href").or(e.attr("src")) {
                check_link(site, path, href, pages);
            }
        }
    }
}

fn check_link(site: &Path, from: &str, href: &str, pages: &BTreeMap<String, Html>) {
    assert!(
        !href.contains(':') && !href.starts_with("//"),
        "{from}: a link that leaves the site: {href}"
    );
    let (file, anchor) = href.split_once('#').unwrap_or((href, ""));
    let base = Path::new(from).parent().unwrap_or(Path::new(""));
    let target = if file.is_empty() {
        from.to_owned()
    } else {
        normalise(&base.join(file))
    };
    assert!(site.join(&target).is_file(), "{from}: {href} leads to no file");
    if !anchor.is_empty() {
        let page = &pages[&target];
        let id = selector(&format!("[id='{anchor}']"));
        assert!(page.select(&id).next().is_some(), "{from}: {href} leads to no anchor");
    }
}

/// `a/../b/c` → `b/c`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

/// `jresa analyze INPUT -q --format html --out OUT` in `dir`, which must succeed.
pub fn analyze_site(dir: &Path, input: &str, out: &Path) {
    let out = out.to_str().expect("UTF-8");
    let run = jresa(dir, &["analyze", input, "-q", "--format", "html", "--out", out]);
    assert_eq!(run.code, 0, "jresa analyze {input}:\n{}", run.stderr);
}

/// Runs `jresa` in `dir` with `args`, expecting `code`, and reads the site it wrote to `out`.
fn site_of(dir: &Path, args: &[&str], code: i32, out: &Path) -> BTreeMap<String, Html> {
    let run = jresa(dir, args);
    assert_eq!(run.code, code, "jresa {args:?}:\n{}", run.stderr);
    assert!(run.stdout.is_empty(), "the site is written to --out, not stdout");
    assert!(out.join("index.html").is_file(), "{}", run.stderr);
    let pages = read_site(out);
    check_invariants(out, &pages);
    pages
}

#[test]
fn analyze_site_matches_its_golden_structure() {
    let scratch = support::scratch("html-report", "analyze");
    let out = scratch.join("site");
    let out_text = out.to_str().expect("UTF-8");
    let pages = site_of(
        &report_data(),
        &[
            "analyze",
            "after/Invoices.java",
            "-q",
            "--format",
            "html",
            "--out",
            out_text,
        ],
        0,
        &out,
    );
    assert!(
        pages.contains_key("billing/Invoices.java.source.html"),
        "{:?}",
        pages.keys()
    );
    expect_digest("analyze.digest", &digest(&pages));
}

/// A method that does not terminate shows its witness: the arguments, the loop, the recurrent
/// set, what running it showed, and the command that replays it.
#[test]
fn nonterminating_methods_show_their_witness() {
    let scratch = support::scratch("html-report", "witness");
    let out = scratch.join("site");
    let out_text = out.to_str().expect("UTF-8");
    let analyze_data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/analyze");
    let args = [
        "analyze",
        "Nonterminating.java",
        "-q",
        "--format",
        "html",
        "--out",
        out_text,
    ];
    let pages = site_of(&analyze_data, &args, 0, &out);
    let witnesses: Vec<String> = pages
        .values()
        .flat_map(|page| page.select(&selector("dl.witness")).map(text_of).collect::<Vec<_>>())
        .collect();
    assert!(!witnesses.is_empty(), "no witness section in {:?}", pages.keys());
    for witness in &witnesses {
        for part in ["Arguments", "Recurrent set", "Confirmed", "Replay", "jresa run"] {
            assert!(witness.contains(part), "{part} missing from the witness {witness:?}");
        }
    }
}

#[test]
fn ci_site_lists_regressions_first_with_old_and_new_bounds() {
    let scratch = support::scratch("html-report", "ci");
    let out = scratch.join("site");
    let out_text = out.to_str().expect("UTF-8");
    let args = [
        "ci",
        "after/Invoices.java",
        "--baseline",
        "baseline.json",
        "-q",
        "--format",
        "html",
        "--out",
        out_text,
    ];
    let pages = site_of(&report_data(), &args, 1, &out);
    let index = &pages["index.html"];
    let first = index.select(&selector("main h2")).next().map(text_of);
    assert!(
        first.as_ref().is_some_and(|h| h.starts_with("Regressions")),
        "{first:?}"
    );
    expect_digest("ci.digest", &digest(&pages));
}

#[test]
fn validate_site_plots_measured_cost_against_the_bound_per_method() {
    let scratch = support::scratch("html-report", "validate");
    let out = scratch.join("site");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let args = [
        "validate",
        "Loops.java",
        "--max-size",
        "3",
        "-q",
        "--format",
        "html",
        "--out",
        out.to_str().expect("UTF-8"),
    ];
    let pages = site_of(&examples, &args, 0, &out);
    let class = &pages["default-package/Loops.html"];
    let sections: Vec<ElementRef<'_>> = class.select(&selector("section.method")).collect();
    let confirmed = sections
        .iter()
        .filter(|s| s.select(&selector(".status.bounded")).next().is_some())
        .count();
    let plotted = sections
        .iter()
        .filter(|s| s.select(&selector("figure.chart svg")).next().is_some())
        .count();
    assert!(confirmed >= 6, "{confirmed} confirmed methods");
    assert_eq!(plotted, confirmed, "every confirmed method has its plot");
    expect_digest("validate.digest", &digest(&pages));
}

/// `jresa report` renders a saved JSON report to the same site as `--format html` directly
/// (sources found under `--source-root` as the direct run finds its `.java` input).
#[test]
fn saved_reports_render_to_the_same_site() {
    let scratch = support::scratch("html-report", "saved");
    std::fs::create_dir_all(scratch.join("src/billing")).expect("create");
    std::fs::copy(
        report_data().join("after/Invoices.java"),
        scratch.join("src/billing/Invoices.java"),
    )
    .expect("copy");
    let json = jresa(
        &scratch,
        &["analyze", "src/billing/Invoices.java", "-q", "--format", "json"],
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    std::fs::write(scratch.join("report.json"), &json.stdout).expect("write the report");
    let run = jresa(
        &scratch,
        &[
            "analyze",
            "src/billing/Invoices.java",
            "-q",
            "--format",
            "html",
            "--out",
            "direct",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = jresa(
        &scratch,
        &[
            "report",
            "report.json",
            "--source-root",
            "src",
            "-q",
            "--out",
            "rendered",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (direct, rendered) = (scratch.join("direct"), scratch.join("rendered"));
    let direct_pages = read_site(&direct);
    let rendered_pages = read_site(&rendered);
    assert_eq!(
        direct_pages.keys().collect::<Vec<_>>(),
        rendered_pages.keys().collect::<Vec<_>>()
    );
    for name in direct_pages.keys() {
        let a = std::fs::read_to_string(direct.join(name)).expect("a page");
        let b = std::fs::read_to_string(rendered.join(name)).expect("a page");
        assert!(a == b, "{name} differs between the direct and the rendered site");
    }
    // Not a report: an input error naming the file.
    std::fs::write(scratch.join("other.json"), "{\"x\": 1}").expect("write");
    let run = jresa(&scratch, &["report", "other.json", "--out", "o"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("other.json"), "{}", run.stderr);
}

#[test]
fn html_needs_an_output_directory() {
    let run = jresa(&report_data(), &["analyze", "after/Invoices.java", "--format", "html"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--out"), "{}", run.stderr);
}

/// Names the JVM accepts but Java does not, put into a compiled class in place of the names
/// javac wrote (each of the same length, so the classfile stays valid): a class `<script>` (and
/// source file `<script>.java`) and a method whose name carries quotes and an attribute.
pub const HOSTILE: [(&str, &str); 2] = [("Xscript0", "<script>"), ("mOnloadAlert0000", "m\"'onload=x&amp;")];

/// Compiles `tests/data/html/Xscript0.java` and renames its class and method as `HOSTILE` says
/// (the class as `hostile.class`, its source as `<script>.java`, where the report looks for it);
/// returns the directory holding them.
pub fn hostile_classes(test: &str) -> PathBuf {
    let dir = support::scratch(test, "hostile");
    support::javac(&[html_data().join("Xscript0.java")], &dir);
    let compiled = dir.join("Xscript0.class");
    let mut bytes = std::fs::read(&compiled).expect("the class");
    for (from, to) in HOSTILE {
        assert_eq!(from.len(), to.len());
        let mut found = false;
        while let Some(at) = bytes.windows(from.len()).position(|w| w == from.as_bytes()) {
            bytes[at..at + from.len()].copy_from_slice(to.as_bytes());
            found = true;
        }
        assert!(found, "{from} is in the class");
    }
    std::fs::remove_file(&compiled).expect("remove");
    std::fs::write(dir.join("hostile.class"), bytes).expect("write");
    let source = std::fs::read_to_string(html_data().join("Xscript0.java")).expect("the source");
    std::fs::write(dir.join("<script>.java"), source.replace("Xscript0", "<script>")).expect("write");
    dir
}

#[test]
fn hostile_names_render_as_text() {
    let dir = hostile_classes("html-report");
    let out = dir.join("site");
    analyze_site(&dir, "hostile.class", &out);
    let pages = read_site(&out);
    check_invariants(&out, &pages);
    let class_pages: Vec<&String> = pages
        .keys()
        .filter(|p| p.starts_with("default-package/") && !p.ends_with("index.html") && !p.contains(".source"))
        .collect();
    assert_eq!(class_pages.len(), 1, "{class_pages:?}");
    assert!(!class_pages[0].contains('<'), "a safe file name: {}", class_pages[0]);
    let page = &pages[class_pages[0]];
    let h1 = page.select(&selector("h1")).next().map(text_of);
    assert_eq!(h1.as_deref(), Some("<script>"));
    let methods: Vec<String> = page.select(&selector("table.methods td a")).map(text_of).collect();
    assert!(methods.iter().any(|m| m.starts_with(HOSTILE[1].1)), "{methods:?}");
    let sources: Vec<&String> = pages.keys().filter(|p| p.contains(".source")).collect();
    assert_eq!(sources.len(), 1, "the source page: {:?}", pages.keys());
    let source = &pages[sources[0]];
    assert_eq!(
        source.select(&selector("h1")).next().map(text_of).as_deref(),
        Some("<script>.java")
    );
    let code = source
        .select(&selector("div.source code"))
        .map(text_of)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(code.contains("\"<img src=x onerror=alert(1)>\""), "{code}");
    for (path, page) in &pages {
        assert_eq!(
            page.select(&selector("img")).count(),
            0,
            "{path}: a string became markup"
        );
    }
}
