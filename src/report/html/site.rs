//! The site's structure: the summary's methods grouped by package, class and source file, each
//! with the file its page is written to, and per method the figures the pages rank by (growth
//! class, bound value at the chosen size).

use crate::report::summary::{MethodSummary, Summary};
use jresa_analyses::bounds::expr::{CostExpr, Growth};
use jresa_analyses::bounds::parse::parse_bound;
use num_rational::BigRational;
use num_traits::{FromPrimitive, ToPrimitive};
use std::collections::{BTreeMap, HashMap};

/// The files of the site's root besides the package directories.
pub const ROOT_FILES: [&str; 3] = ["index.html", "style.css", "sort.js"];

/// One method with what the pages rank it by.
pub struct MethodRow<'a> {
    pub summary: &'a MethodSummary,
    /// The growth class of the bound with every parameter of one size.
    pub growth: Option<Growth>,
    /// The bound's value with every parameter at the chosen size (`inf` past `f64`).
    pub value: Option<f64>,
    /// The anchor of the method's section on its class page.
    pub anchor: String,
}

/// A class and its methods, in the summary's order.
pub struct ClassEntry<'a> {
    /// Binary name with dots.
    pub name: String,
    /// The name without its package.
    pub simple_name: String,
    /// The page's file name inside the package directory, and that directory.
    pub file: String,
    pub package_dir: String,
    pub methods: Vec<MethodRow<'a>>,
    /// The source file's path (as located), when its methods name one.
    pub source_path: Option<String>,
}

/// A package (`(default)` for the unnamed one) and its classes, sorted by name.
pub struct Package<'a> {
    pub name: String,
    /// The package's directory under the site root.
    pub dir: String,
    pub classes: Vec<ClassEntry<'a>>,
}

/// A source file that could be read, for its annotated page.
pub struct SourceEntry {
    /// The located path it was read from.
    pub path: String,
    pub text: String,
    /// The package directory its page lies in, and the page's file name.
    pub dir: String,
    pub file: String,
    /// The classes declared in it, as (package, class) indices into `Site::packages`.
    pub classes: Vec<(usize, usize)>,
}

/// Everything the pages show, grouped.
pub struct Site<'a> {
    pub summary: &'a Summary,
    /// The size at which bounds are evaluated.
    pub rank_size: u32,
    pub packages: Vec<Package<'a>>,
    pub sources: Vec<SourceEntry>,
    /// The position in `sources` of each source file's path.
    source_index: HashMap<String, usize>,
}

impl<'a> Site<'a> {
    /// The site of `summary`, with the source files `read_source` can read.
    pub fn new(
        summary: &'a Summary,
        rank_size: u32,
        read_source: &(dyn Fn(&str) -> Option<String> + Sync),
    ) -> Site<'a> {
        let mut by_package: BTreeMap<String, BTreeMap<String, Vec<MethodRow<'a>>>> = BTreeMap::new();
        for (k, m) in summary.methods.iter().enumerate() {
            let (package, _) = split_class(&m.class);
            by_package
                .entry(package.to_owned())
                .or_default()
                .entry(m.class.clone())
                .or_default()
                .push(MethodRow::new(m, rank_size, k));
        }
        let mut names = FileNames::reserving(&ROOT_FILES);
        let packages: Vec<Package<'a>> = by_package
            .into_iter()
            .map(|(name, classes)| {
                let dir = names.unique(if name.is_empty() { "default-package" } else { &name }, "");
                let mut in_package = FileNames::reserving(&["index.html"]);
                let classes = classes
                    .into_iter()
                    .map(|(class, methods)| {
                        let simple_name = split_class(&class).1.to_owned();
                        let source_path = methods.iter().find_map(|m| m.summary.source_path.clone());
                        ClassEntry {
                            file: in_package.unique(&simple_name, ".html"),
                            package_dir: dir.clone(),
                            name: class,
                            simple_name,
                            methods,
                            source_path,
                        }
                    })
                    .collect();
                Package { name, dir, classes }
            })
            .collect();
        let sources = source_entries(&packages, read_source);
        let source_index = sources.iter().enumerate().map(|(k, s)| (s.path.clone(), k)).collect();
        Site {
            summary,
            rank_size,
            packages,
            sources,
            source_index,
        }
    }

    /// Every method with its package and class.
    pub fn methods(&self) -> impl Iterator<Item = (&Package<'a>, &ClassEntry<'a>, &MethodRow<'a>)> {
        self.packages.iter().flat_map(|p| {
            p.classes
                .iter()
                .flat_map(move |c| c.methods.iter().map(move |m| (p, c, m)))
        })
    }

    /// The page of a source file, if it has one.
    pub fn source_of(&self, path: &str) -> Option<&SourceEntry> {
        self.source_index.get(path).map(|&k| &self.sources[k])
    }
}

impl<'a> MethodRow<'a> {
    fn new(summary: &'a MethodSummary, rank_size: u32, index: usize) -> MethodRow<'a> {
        let bound = summary.bound.as_deref().and_then(|text| parse_bound(text).ok());
        MethodRow {
            summary,
            growth: bound.as_ref().map(CostExpr::growth),
            value: bound.as_ref().and_then(|b| value_at(b, rank_size)),
            anchor: format!("m{index}"),
        }
    }
}

/// The bound's value with every parameter at `size`.
pub fn value_at(bound: &CostExpr, size: u32) -> Option<f64> {
    let n = BigRational::from_u32(size)?;
    let value = bound.eval(&|_| Some(n.clone()))?;
    Some(value.to_f64().unwrap_or(f64::INFINITY))
}

/// `(package, simple name)` of a binary name with dots.
pub fn split_class(class: &str) -> (&str, &str) {
    match class.rfind('.') {
        Some(k) => (&class[..k], &class[k + 1..]),
        None => ("", class),
    }
}

/// One page per located source file that can be read, in the directory of the first package
/// that names it.
fn source_entries(packages: &[Package<'_>], read_source: &(dyn Fn(&str) -> Option<String> + Sync)) -> Vec<SourceEntry> {
    let mut entries: Vec<SourceEntry> = Vec::new();
    // Per path tried, its entry (`None` when it could not be read).
    let mut tried: HashMap<String, Option<usize>> = HashMap::new();
    let mut names: BTreeMap<String, FileNames> = BTreeMap::new();
    for (p, package) in packages.iter().enumerate() {
        for (c, class) in package.classes.iter().enumerate() {
            let Some(path) = &class.source_path else { continue };
            if let Some(known) = tried.get(path) {
                if let Some(k) = *known {
                    entries[k].classes.push((p, c));
                }
                continue;
            }
            let Some(text) = read_source(path) else {
                tried.insert(path.clone(), None);
                continue;
            };
            tried.insert(path.clone(), Some(entries.len()));
            let base = path.rsplit('/').next().unwrap_or(path);
            let file = names
                .entry(package.dir.clone())
                .or_insert_with(|| FileNames::reserving(&["index.html"]))
                .unique(&format!("{base}.source"), ".html");
            entries.push(SourceEntry {
                path: path.clone(),
                text,
                dir: package.dir.clone(),
                file,
                classes: vec![(p, c)],
            });
        }
    }
    entries
}

/// File names made from untrusted names: only `[A-Za-z0-9._$-]` is kept (anything else becomes
/// `_`, and a name that starts with `.` gets a `_` first), and a name that had to change or is
/// taken already (also by case) gets a number, so no two entries share a file and none escapes
/// its directory.
#[derive(Default)]
pub struct FileNames {
    taken: std::collections::HashSet<String>,
}

impl FileNames {
    /// Names no entry may take (the pages and assets of the directory itself).
    pub fn reserving(names: &[&str]) -> FileNames {
        FileNames {
            taken: names.iter().map(|n| n.to_lowercase()).collect(),
        }
    }

    pub fn unique(&mut self, name: &str, suffix: &str) -> String {
        let mut safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '$' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if safe.is_empty() || safe.starts_with('.') {
            safe.insert(0, '_');
        }
        // `~` is never kept, so numbered names cannot meet kept ones.
        let numbered = |k: usize| format!("{safe}~{k}{suffix}");
        let mut k = 1;
        let mut candidate = if safe == name {
            format!("{safe}{suffix}")
        } else {
            numbered(k)
        };
        while self.taken.contains(&candidate.to_lowercase()) {
            k += 1;
            candidate = numbered(k);
        }
        self.taken.insert(candidate.to_lowercase());
        candidate
    }
}
