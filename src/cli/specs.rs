//! `jresa specs --out DIR`: writes the `jresa.spec` annotations and markers for users to compile
//! against: the Java sources, and a compiled jar when the JDK's `javac` and `jar` are available.
use super::{EXIT_INPUT_ERROR, EXIT_OK};
use crate::spec::sources;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SpecsArgs {
    /// Directory to write into: `DIR/src/jresa/spec/*.java` and `DIR/jresa-spec.jar`.
    #[arg(long)]
    pub out: PathBuf,
    /// Only write the sources (do not run javac and jar).
    #[arg(long)]
    pub sources_only: bool,
}

pub fn run(args: &SpecsArgs) -> u8 {
    let source_root = args.out.join("src");
    match sources::write_sources(&source_root) {
        Ok(paths) => {
            for path in paths {
                println!("wrote {}", path.display());
            }
        }
        Err(error) => {
            eprintln!("error: {error}");
            return EXIT_INPUT_ERROR;
        }
    }
    if args.sources_only {
        return EXIT_OK;
    }
    let classes = args.out.join("classes");
    let jar = args.out.join("jresa-spec.jar");
    let built = sources::compile(&source_root, &classes).and_then(|()| sources::package(&classes, &jar));
    let _ = std::fs::remove_dir_all(&classes);
    match built {
        Ok(()) => println!("wrote {}", jar.display()),
        // The sources are what users need; the jar is a convenience.
        Err(error) => eprintln!("note: no jar was built: {error}"),
    }
    EXIT_OK
}
