//! Summaries of library methods kept between runs, in the cache directory (`crate::cache`).
//!
//! A store file holds the summaries (and the reasons for missing ones) whose analyses read only
//! library code. Its key is everything else they depend on: the build, the cost model, the
//! library's contents, and the program's hierarchy (its classes' declarations and lambda classes,
//! which decide the targets of the library's virtual calls). Summaries that read the program's own
//! code are never kept, so changing a method's body keeps every stored summary valid.
//!
//! **A stored summary is exactly what this run would compute for it** (a summary is a function of
//! the method, its depth and the program), so results never depend on what a store holds.

use super::summaries::Stored;
use crate::cache;
use crate::classfile::{ClassFile, ClassPath};
use crate::program::class_decl;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::ir::lambdas::LambdaClass;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The subdirectory of the cache directory that holds store files.
const KIND: &str = "summaries";

/// The store file of one program's library summaries.
pub(super) struct SummaryStore {
    path: PathBuf,
}

impl SummaryStore {
    /// The store in cache directory `dir` for the program `classes` (with its lambda classes) on
    /// `classpath`, under `model`.
    pub(super) fn new(
        dir: &Path,
        classes: &[ClassFile],
        classpath: Option<&ClassPath>,
        lambdas: &HashMap<String, LambdaClass>,
        model: CostModel,
    ) -> SummaryStore {
        let library = classpath.map_or_else(|| "no library".to_owned(), ClassPath::fingerprint);
        let hierarchy = hierarchy_fingerprint(classes, lambdas);
        let key = cache::key(&[KIND, model.name(), &library, &hierarchy]);
        SummaryStore {
            path: cache::file(dir, KIND, &key),
        }
    }

    /// The summaries stored for this program; none, with a warning on stderr, when the file is
    /// damaged.
    pub(super) fn load(&self) -> Vec<Stored> {
        let body = match cache::read(&self.path) {
            Ok(Some(body)) => body,
            Ok(None) => return Vec::new(),
            Err(warning) => {
                eprintln!("warning: {warning}");
                return Vec::new();
            }
        };
        serde_json::from_slice(&body).unwrap_or_else(|error| {
            eprintln!(
                "warning: {} cannot be read ({error}); it is ignored",
                self.path.display()
            );
            Vec::new()
        })
    }

    /// Replaces the stored summaries by `stored`; a failure is a warning on stderr (the run's
    /// results do not depend on it).
    pub(super) fn save(&self, stored: &[Stored]) {
        let written = serde_json::to_vec(stored)
            .map_err(|error| error.to_string())
            .and_then(|body| cache::write(&self.path, &body));
        if let Err(warning) = written {
            eprintln!("warning: the library summaries were not stored: {warning}");
        }
    }
}

/// A hash (hex) of what the hierarchy holds of the program: its classes' declarations (supertypes,
/// methods and their flags, fields) and its lambda classes' declarations, in name order.
fn hierarchy_fingerprint(classes: &[ClassFile], lambdas: &HashMap<String, LambdaClass>) -> String {
    let mut decls: Vec<String> = classes.iter().map(|class| format!("{:?}", class_decl(class))).collect();
    decls.extend(lambdas.values().map(|lambda| format!("{:?}", lambda.decl)));
    decls.sort();
    let mut hasher = blake3::Hasher::new();
    for decl in &decls {
        hasher.update(&(decl.len() as u64).to_le_bytes());
        hasher.update(decl.as_bytes());
    }
    hasher.finalize().to_hex().to_string()
}
