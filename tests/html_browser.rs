//! The HTML report in a real browser: headless Chromium (Debian's package, which
//! `scripts/ensure-chromium.sh` installs where it is missing) opens the sites from `file://`,
//! and the rendered DOM (`--dump-dom`) shows the tables, the histogram, the site's own script at
//! work (sortable tables) under the pages' Content-Security-Policy, and hostile names as text; a
//! screenshot of the overview, wide and narrow, is not blank. Where Chromium cannot be installed
//! the test says so and checks nothing else.

use crate::analyze_support as support;
use crate::html_report::{analyze_site, hostile_classes};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, installed if needed; `None` (with the reason printed) where it cannot be.
fn chromium() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ensure-chromium.sh");
    let output = Command::new("bash").arg(script).output().ok()?;
    if !output.status.success() {
        eprintln!(
            "skipped: Chromium is not available: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
        return None;
    }
    Some(PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
}

/// Runs headless Chromium on a page with `extra` arguments (a fresh profile, no network).
fn headless(browser: &Path, profile: &Path, page: &Path, extra: &[&str]) -> String {
    let url = format!("file://{}", page.display());
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium failed on {}:\n{}",
        page.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The share of a PNG's pixels that are not white.
fn inked_share(png_path: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).expect("the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    let bytes = &pixels[..info.buffer_size()];
    let inked = bytes
        .chunks(channels)
        .filter(|p| p.iter().take(3).any(|&c| c < 0xf0))
        .count();
    inked as f64 / (bytes.len() / channels) as f64
}

#[test]
fn reports_render_in_headless_chromium() {
    let Some(browser) = chromium() else { return };
    let scratch = support::scratch("html-browser", "sites");
    let site = scratch.join("analyze");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report");
    analyze_site(&data, "after/Invoices.java", &site);
    let profile = scratch.join("profile");
    let index = site.join("index.html");
    let dom = headless(&browser, &profile, &index, &["--dump-dom"]);
    assert!(dom.contains("<h1>jresa analyze: "), "{dom}");
    assert!(
        dom.contains("Growth classes of the bounds") && dom.contains("<svg"),
        "{dom}"
    );
    assert!(dom.contains("billing"), "the package table: {dom}");
    assert!(
        dom.contains("data-sortable=\"on\""),
        "the site's script ran under the policy: {dom}"
    );
    let class = headless(&browser, &profile, &site.join("billing/Invoices.html"), &["--dump-dom"]);
    assert!(
        class.contains("duplicates(int[])") && class.contains("aria-sort=\"none\""),
        "{class}"
    );
    for (name, size) in [("wide", "1200,1600"), ("narrow", "390,844")] {
        let shot = scratch.join(format!("overview-{name}.png"));
        headless(
            &browser,
            &profile,
            &index,
            &[
                &format!("--window-size={size}"),
                &format!("--screenshot={}", shot.display()),
            ],
        );
        let share = inked_share(&shot);
        assert!(share > 0.02, "the {name} screenshot is blank ({share})");
    }
    let hostile = hostile_classes("html-browser");
    let out = hostile.join("site");
    analyze_site(&hostile, "hostile.class", &out);
    let page = std::fs::read_dir(out.join("default-package"))
        .expect("the package")
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n != "index.html" && !n.to_string_lossy().contains(".source"))
        })
        .expect("the class page");
    let dom = headless(&browser, &profile, &page, &["--dump-dom"]);
    assert!(dom.contains("<h1>&lt;script&gt;</h1>"), "{dom}");
    assert_eq!(dom.matches("<script").count(), 1, "only the site's script: {dom}");
}
