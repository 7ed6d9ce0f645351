//! Lifts every method of the JDK's `java.base.jmod`: at least 99.5% must lift, none may panic, the
//! verifier must accept every lifted method, and print → parse → print must be the identity on all.
use jresa::classfile::{find_java_base_jmod, read_inputs};
use jresa::lift::lift_all;
use jresa_analyses::ir::{parse_program, print_method, verify_method, Program};
use rayon::prelude::*;

#[test]
fn java_base_lifts_verifies_and_round_trips() {
    let jmod = find_java_base_jmod().expect("the JDK's java.base.jmod (JDK 17 is required)");
    let loaded = read_inputs(&[jmod]);
    assert!(
        loaded.errors.is_empty(),
        "reading java.base: {:?}",
        &loaded.errors[..loaded.errors.len().min(3)]
    );
    let lifted = lift_all(&loaded.classes, |_, _| true);
    let total = lifted.len();
    let failures: Vec<String> = lifted
        .par_iter()
        .filter_map(|item| {
            let ir = item.result.as_ref().ok()?;
            let errors = verify_method(ir);
            if !errors.is_empty() {
                return Some(format!("{}: verifier: {}", ir.display_name(), errors[0]));
            }
            let text = print_method(ir);
            match parse_program(&text) {
                Ok(parsed)
                    if parsed
                        == (Program {
                            methods: vec![ir.clone()],
                        }) =>
                {
                    None
                }
                Ok(parsed) if parsed.methods.len() == 1 && print_method(&parsed.methods[0]) == text => None,
                Ok(_) => Some(format!("{}: print → parse → print differs", ir.display_name())),
                Err(error) => Some(format!("{}: printed IR does not parse: {error:?}", ir.display_name())),
            }
        })
        .collect();
    let refused: Vec<String> = lifted
        .iter()
        .filter_map(|item| {
            item.result
                .as_ref()
                .err()
                .map(|e| format!("{}.{}: {e}", item.class.name, item.method.name))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    let share = (total - refused.len()) as f64 / total as f64;
    assert!(total > 40_000, "only {total} methods with code in java.base");
    assert!(
        share >= 0.995,
        "only {:.3}% lifted; first refusals: {:#?}",
        share * 100.0,
        &refused[..refused.len().min(5)]
    );
}
