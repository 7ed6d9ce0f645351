//! The HTML report (`--format html --out DIR`): a static site in the shape of a coverage report.
//! `index.html` is the overview; each package has a directory with its page (`index.html`), one
//! page per class, and one page per source file that could be read. The style sheet and the
//! sorting script are files of the site, so pages work from `file://` with no network, and their
//! Content-Security-Policy allows scripts and styles from the site alone.
//!
//! **It reads only the neutral summary (as SARIF and Markdown do). Every input text is escaped
//! (maud), and file names made from input names keep only safe characters and never collide
//! (`site::FileNames`).**

mod chart;
mod layout;
mod overview;
mod pages;
mod site;
mod source;
mod tables;

pub use layout::CONTENT_SECURITY_POLICY;
pub use site::FileNames;

use crate::report::summary::Summary;
use rayon::prelude::*;
use site::Site;
use std::path::{Path, PathBuf};

/// The default size at which bounds are evaluated to rank methods.
pub const DEFAULT_RANK_SIZE: u32 = 100;

/// How a site is written.
pub struct SiteOptions<'a> {
    /// The directory the site is written to (created if needed).
    pub out: &'a Path,
    /// Bounds are ranked by their value with every parameter at this size.
    pub rank_size: u32,
    /// The text of a source file, by the path the summary locates it at.
    pub read_source: &'a (dyn Fn(&str) -> Option<String> + Sync),
}

/// Writes the site of `summary`; returns the overview page's path.
pub fn write_site(summary: &Summary, options: &SiteOptions<'_>) -> Result<PathBuf, String> {
    let site = Site::new(summary, options.rank_size, options.read_source);
    let out = options.out;
    let write = |path: PathBuf, text: &str| {
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    create_dir(out)?;
    write(out.join("style.css"), include_str!("assets/style.css"))?;
    write(out.join("sort.js"), include_str!("assets/sort.js"))?;
    let index = out.join("index.html");
    write(index.clone(), &overview::overview_page(&site)?)?;
    site.packages.par_iter().try_for_each(|package| {
        let dir = out.join(&package.dir);
        create_dir(&dir)?;
        write(dir.join("index.html"), &pages::package_page(package))?;
        package
            .classes
            .par_iter()
            .try_for_each(|class| write(dir.join(&class.file), &pages::class_page(&site, package, class)?))
    })?;
    site.sources.par_iter().try_for_each(|entry| {
        write(
            out.join(&entry.dir).join(&entry.file),
            &source::source_page(&site, entry),
        )
    })?;
    Ok(index)
}

fn create_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}
