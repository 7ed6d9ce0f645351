//! Value-analysis filetests: IR text in (`tests/data/value/*.ir`), the abstract program, the
//! invariants of every IR procedure and every method's bound out (`*.expected` beside it), with
//! no `javac`. Calls resolve to the methods of the same file or of the test library
//! (`tests/data/value/library/*.ir`: the constructors of the exceptions the JVM raises). Each method is analysed from its
//! entry with no assumption on its inputs and, where that gives no bound, at the first margin
//! level (`overflow::MARGINS`) that does. `UPDATE_EXPECT=1` rewrites the expectations.

use jresa_analyses::bounds::cost::{self, Bound, Costs};
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::ir::{parse_program, MethodIr, Ty};
use jresa_analyses::value::compile::{compile, ExactResolver};
use jresa_analyses::value::fixpoint::{solve, Fixpoint};
use jresa_analyses::value::overflow;
use jresa_analyses::value::polyhedra::Polyhedron;
use jresa_analyses::value::print::print_abstract_proc;
use jresa_analyses::value::program::{AbstractProgram, Origin, Width};
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn width(ty: Ty) -> Option<Width> {
    match ty {
        Ty::Int => Some(Width::Int),
        Ty::Long => Some(Width::Long),
        Ty::Ref => Some(Width::Size),
        Ty::Float | Ty::Double => None,
    }
}

/// The fixpoint and costs of one method's entry at a margin level.
fn analyse(program: &AbstractProgram, methods: &[MethodIr], m: usize, level: usize) -> (Fixpoint, Costs) {
    let method = &methods[m];
    let entry = program.of_ir[m][method.entry.index()];
    let widths: Vec<Option<Width>> = method
        .proc(method.entry)
        .inputs
        .iter()
        .map(|v| width(method.var(*v).ty))
        .collect();
    let condition: Polyhedron = overflow::entry_condition(&widths, level);
    let fixpoint = solve(program, &[(entry, condition)]);
    let costs = cost::solve(program, &fixpoint, CostModel::Instructions);
    (fixpoint, costs)
}

/// The names of an IR procedure's inputs then outputs.
fn proc_names(method: &MethodIr, p: usize) -> Vec<String> {
    let proc = &method.procs[p];
    proc.inputs
        .iter()
        .chain(&proc.outputs)
        .map(|v| method.var(*v).name.clone())
        .collect()
}

fn rename(names: &[String]) -> impl Fn(&str) -> Option<String> + '_ {
    move |var: &str| {
        let i: usize = var.strip_prefix('%')?.parse().ok()?;
        names.get(i).cloned()
    }
}

/// The PRE and POST of every procedure of the file's own methods (the first `count`).
fn invariants(out: &mut String, program: &AbstractProgram, methods: &[MethodIr], count: usize, fixpoint: &Fixpoint) {
    for (id, proc) in program.procs.iter().enumerate() {
        let Origin::Ir { method, proc: p } = &proc.origin else {
            continue;
        };
        if *method >= count {
            continue;
        }
        let names = proc_names(&methods[*method], p.index());
        let named = |d: usize| names.get(d).cloned().unwrap_or_else(|| format!("x{d}"));
        let show = |state: &Option<Polyhedron>| match state {
            Some(s) => s.display_with(named).to_string(),
            None => "unreachable".into(),
        };
        let _ = writeln!(
            out,
            "{}: pre {}; post {}",
            proc.name,
            show(&fixpoint.pre[id]),
            show(&fixpoint.post[id])
        );
    }
}

fn bound_text(bound: &Bound, names: &[String]) -> String {
    match bound {
        Bound::Bounded(e) => {
            let named = e.rename(&rename(names));
            format!("{named} ({})", named.complexity())
        }
        Bound::Unknown(reason) => format!("unknown: {reason}"),
    }
}

fn loops(out: &mut String, program: &AbstractProgram, methods: &[MethodIr], costs: &Costs) {
    for info in &costs.loops {
        let proc = &program.procs[info.head];
        let names = match &proc.origin {
            Origin::Ir { method, proc: p } => proc_names(&methods[*method], p.index()),
            _ => Vec::new(),
        };
        let iterations = match (&info.iterations, &info.ranking) {
            (Some(e), _) => e.rename(&rename(&names)).to_string(),
            (None, Some(ranking)) => format!("not bounded, terminates by {}", shape(ranking)),
            (None, None) => "no ranking function".into(),
        };
        let never = if info.never_exits { ", never exits" } else { "" };
        let _ = writeln!(out, "  loop {}: iterations {iterations}{never}", proc.name);
    }
}

/// The whole expected text of one IR file.
fn run(text: &str, library: &str) -> String {
    let own = parse_program(text).expect("the IR parses").methods;
    let count = own.len();
    let mut methods = own;
    methods.extend(parse_program(library).expect("the library parses").methods);
    let program = compile(&methods, &ExactResolver(&methods), CostModel::Instructions);
    let mut out = String::from("== abstract program (the library's procedures left out)\n");
    for (id, proc) in program.procs.iter().enumerate() {
        if !matches!(proc.origin, Origin::Ir { method, .. } if method >= count) {
            out.push_str(&print_abstract_proc(id, proc));
        }
    }
    for (m, method) in methods.iter().enumerate().take(count) {
        let entry = program.of_ir[m][method.entry.index()];
        let (fixpoint, costs) = analyse(&program, &methods, m, 0);
        let _ = writeln!(out, "== {}.{}{}", method.class, method.name, method.descriptor);
        invariants(&mut out, &program, &methods, count, &fixpoint);
        let names = proc_names(method, method.entry.index());
        let _ = writeln!(out, "bound: {}", bound_text(&costs.bounds[entry], &names));
        loops(&mut out, &program, &methods, &costs);
        if matches!(costs.bounds[entry], Bound::Unknown(_)) {
            for level in 1..overflow::MARGINS.len() {
                let (_, costs) = analyse(&program, &methods, m, level);
                if let Bound::Bounded(_) = costs.bounds[entry] {
                    let _ = writeln!(
                        out,
                        "bound at margin level {level}: {}",
                        bound_text(&costs.bounds[entry], &names)
                    );
                    break;
                }
            }
        }
    }
    out
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/value")
}

#[test]
fn value_filetests() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data/value")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "at least 15 filetests, found {}", files.len());
    let library: String = ["exceptions.ir"]
        .iter()
        .map(|f| std::fs::read_to_string(data_dir().join("library").join(f)).expect("library"))
        .collect();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        let actual = run(&text, &library);
        let expected_path = file.with_extension("expected");
        if update {
            std::fs::write(&expected_path, &actual).expect("write");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}: output differs from {}\n--- actual ---\n{actual}",
                file.display(),
                expected_path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The shape of a ranking function that gives no iteration bound.
fn shape(ranking: &jresa_analyses::bounds::ranking::Ranking) -> &'static str {
    use jresa_analyses::bounds::ranking::Ranking;
    match ranking {
        Ranking::Lexicographic(_) => "a lexicographic ranking function",
        Ranking::Multiphase(..) => "a multiphase ranking function",
        _ => "a ranking function",
    }
}
