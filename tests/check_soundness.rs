//! Soundness of `jresa check` by execution: every method of `tests/data/check` whose
//! specification holds is run on the JVM (by `tests/data/check/runtime/CheckDriver.java`) on
//! lists and trees of every size up to a limit, with a counting `jresa.spec.Resource` first on
//! the class path; the units each call consumes must be at most the precondition's bound at the
//! sizes of its arguments.

use crate::analyze_support as support;
use crate::check_support;
use jresa::check::check;
use jresa::classfile::{read_inputs, ClassPath};
use jresa::lift::lift_method;
use jresa::spec::method_spec;
use jresa_analyses::amortised::context::MethodCtx;
use jresa_analyses::amortised::program::MethodKey;
use jresa_analyses::amortised::session::{Status, Structure};
use num_rational::BigRational;
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

/// A method's bound: `(per-size coefficient, parameter index)` terms and a constant.
type Bound = (Vec<(BigRational, usize)>, BigRational);

#[test]
fn consumption_never_exceeds_the_verified_bound() {
    let classpath = ClassPath::default_jdk().ok();
    let runtime = support::scratch("check-soundness", "runtime");
    let runtime_sources = check_support::data_dir().join("runtime");
    let status = crate::javac()
        .arg("-d")
        .arg(&runtime)
        .arg(runtime_sources.join("CheckDriver.java"))
        .arg(runtime_sources.join("jresa/spec/Resource.java"))
        .status()
        .expect("javac runs");
    assert!(status.success(), "the driver compiles");
    let mut calls = 0;
    let mut methods = 0;
    let mut failures = Vec::new();
    for name in ["IntList.java", "Lists.java", "Trees.java"] {
        let source = check_support::data_dir().join(name);
        let stem = support::stem(&source);
        let out = support::scratch("check-soundness", &stem);
        let spec_sources = support::scratch("check-soundness", &format!("{stem}-spec-src"));
        jresa::spec::sources::compile(&spec_sources, &out).expect("the spec sources compile");
        support::javac(std::slice::from_ref(&source), &out);
        let loaded = read_inputs(std::slice::from_ref(&out));
        let classes: Vec<_> = loaded
            .classes
            .into_iter()
            .filter(|c| !c.name.starts_with("jresa/spec/"))
            .collect();
        let report = check(&classes, classpath.as_ref(), &|_, _| true);
        // The plan: each method with a bound over its parameters' structures.
        let mut plan = String::new();
        let mut bounds: BTreeMap<(String, String, String), Bound> = BTreeMap::new();
        for m in &report.methods {
            let Some(outcome) = &m.outcome else { continue };
            let ([bound], Status::Verified | Status::Inferred) = (outcome.bound.as_slice(), outcome.status) else {
                continue;
            };
            let class = classes
                .iter()
                .find(|c| c.name == m.class.replace('.', "/"))
                .expect("the class");
            let method = class
                .methods
                .iter()
                .find(|x| x.name == m.name && x.descriptor == m.descriptor)
                .expect("the method");
            let ir = lift_method(class, method).expect("lifts");
            let key = MethodKey::new(&class.name, &m.name, &m.descriptor);
            let (ctx, _) = MethodCtx::new(key, Arc::new(ir));
            // Declared parameters (the driver's sizes) exclude the receiver.
            let skip = usize::from(!ctx.ir.is_static);
            let names: Vec<String> = ctx.params[skip..].iter().map(|p| p.name.clone()).collect();
            let requires = method_spec(method)
                .ok()
                .flatten()
                .and_then(|s| s.requires.map(|r| r.text))
                .unwrap_or_default();
            let nonnull: String = names
                .iter()
                .map(|n| {
                    if requires.contains(&format!("@arg {n} != null")) {
                        '1'
                    } else {
                        '0'
                    }
                })
                .collect();
            let mut terms = Vec::new();
            let mut usable = true;
            for (coefficient, structure) in &bound.terms {
                let root = match structure {
                    Structure::List { from, to } if to == "null" => from,
                    Structure::Tree { root } => root,
                    _ => {
                        usable = usable && num_traits::Zero::is_zero(coefficient);
                        continue;
                    }
                };
                match root
                    .strip_prefix("@arg ")
                    .and_then(|n| names.iter().position(|x| x == n))
                {
                    Some(index) => terms.push((coefficient.clone(), index)),
                    None => usable = usable && num_traits::Zero::is_zero(coefficient),
                }
            }
            if !usable {
                continue;
            }
            methods += 1;
            plan.push_str(&format!("{} {} {} {nonnull}\n", m.class, m.name, m.descriptor));
            bounds.insert(
                (m.class.clone(), m.name.clone(), m.descriptor.clone()),
                (terms, bound.constant.clone()),
            );
        }
        let separator = if cfg!(windows) { ";" } else { ":" };
        let mut child = Command::new("java")
            .arg("-cp")
            .arg(format!("{}{separator}{}", runtime.display(), out.display()))
            .arg("CheckDriver")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("java runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(plan.as_bytes())
            .expect("write the plan");
        let output = child.wait_with_output().expect("the driver finishes");
        assert!(
            output.status.success(),
            "the driver failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let parts: Vec<&str> = line.split(' ').collect();
            let key = (parts[0].to_owned(), parts[1].to_owned(), parts[2].to_owned());
            let Some((terms, constant)) = bounds.get(&key) else {
                failures.push(format!("unexpected driver output: {line}"));
                continue;
            };
            let Some(count) = parts.last().and_then(|c| c.parse::<i64>().ok()) else {
                failures.push(format!("malformed driver output: {line}"));
                continue;
            };
            let sizes: Vec<i64> = parts[3..]
                .iter()
                .take_while(|p| **p != "threw")
                .filter_map(|p| p.parse().ok())
                .collect();
            // The last number is the count, not a size.
            let sizes = if parts.contains(&"threw") {
                sizes
            } else {
                sizes[..sizes.len() - 1].to_vec()
            };
            let mut bound = constant.clone();
            for (coefficient, index) in terms {
                bound += coefficient * BigRational::from_integer(sizes.get(*index).copied().unwrap_or(0).into());
            }
            calls += 1;
            if BigRational::from_integer(count.into()) > bound {
                failures.push(format!(
                    "SOUNDNESS: {line}: consumed {count} units, the bound is {bound}"
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_dir_all(&spec_sources);
    }
    let _ = std::fs::remove_dir_all(&runtime);
    assert!(methods >= 12, "only {methods} methods were run");
    assert!(calls >= 200, "only {calls} calls were run");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
