//! Degrading per method: a class whose value analysis runs out of rule evaluations, and a method
//! that runs out of them again when analysed alone, still gets the bound its cost has without any
//! invariant (`fixpoint::assume_nothing`), and `jresa validate` confirms it on instances; a method
//! whose bound needs an invariant keeps the budget as its reason, with what the analysis without
//! invariants found. The class is generated: two methods of `BRANCHES` sequential `if`s each (too
//! many rule evaluations for the budgets), one ending in a counting loop, one in a loop that needs
//! an invariant (`n` even) to terminate.

use crate::analyze_support as support;
use crate::report_support::jresa;

/// Sequential `if`s per method: enough that the class (two such methods) exceeds
/// `MAX_EVALUATIONS` and one method alone exceeds the retry's budget.
const BRANCHES: usize = 2000;

/// Compiles class `name` from `text` in a scratch directory and analyses it; the directory holds
/// the class file.
fn analyze_class(name: &str, text: &str) -> (std::path::PathBuf, jresa::analyze::AnalysisReport) {
    let dir = support::scratch("analyze-degraded", name);
    let source = dir.join(format!("{name}.java"));
    std::fs::write(&source, text).expect("write the class");
    let classes = support::compile_fixture(&source, &dir);
    (dir, support::analyze_all(&classes))
}

fn wide_source() -> String {
    let mut lines = vec!["public class Wide {".to_owned(), "    public Wide() {}".to_owned()];
    let tails = [
        "        for (int i = 0; i < n; i++) {\n            s += i;\n        }",
        "        while (n != 0) {\n            n -= 2;\n        }",
    ];
    for (m, tail) in tails.iter().enumerate() {
        lines.push(format!("    public static int branches{m}(int x, int n) {{"));
        lines.push("        int s = 0;".to_owned());
        for k in 0..BRANCHES {
            lines.push(format!("        if (x > {k}) s += {};", k % 7 + 1));
        }
        lines.push((*tail).to_owned());
        lines.push("        return s;\n    }".to_owned());
    }
    lines.push("}\n".to_owned());
    lines.join("\n")
}

#[test]
fn methods_too_large_for_the_value_analysis_keep_the_bounds_that_need_no_invariant() {
    let (dir, report) = analyze_class("Wide", &wide_source());
    let method = |name: &str| support::find(&report, "Wide", name).expect("the method");
    let counting = method("branches0");
    assert_eq!(counting.status, "bounded", "{counting:?}");
    assert_eq!(counting.complexity.as_deref(), Some("O(n)"));
    assert!(counting.precondition.is_none());
    let halving = method("branches1");
    assert_eq!(halving.status, "unknown", "{halving:?}");
    let reason = halving.reason_text().unwrap_or_default();
    assert!(
        reason.contains("exceeded its budget") && reason.contains("without invariants: loop at line"),
        "{reason}"
    );
    assert_eq!(method("<init>").status, "bounded");
    let run = jresa(
        &dir,
        &["validate", "--max-size", "3", "-q", "--format", "json", "Wide.class"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let validation: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let counted = validation["methods"]
        .as_array()
        .expect("methods")
        .iter()
        .find(|m| m["name"] == "branches0")
        .expect("branches0 validated");
    assert_eq!(counted["status"], "confirmed", "{counted}");
    assert_eq!(counted["violations"], 0);
}

#[test]
fn a_call_with_no_analysed_target_says_why() {
    let text = "public class Unimplemented {\n    interface Shape {\n        int area();\n    }\n\n    static int areaOf(Shape s) {\n        return s.area();\n    }\n}\n";
    let (_, report) = analyze_class("Unimplemented", text);
    let method = support::find(&report, "Unimplemented", "areaOf").expect("the method");
    assert_eq!(method.status, "unknown", "{method:?}");
    assert_eq!(
        method.reason_text(),
        Some("calls Unimplemented$Shape.area()I, which is not analysed (no class in the program implements it)")
    );
}

#[test]
fn a_method_that_calls_into_a_cycle_without_a_bound_says_so_and_the_cycle_says_it_is_inside() {
    let text = "public class CycleCalls {\n    interface Shape {\n        int area();\n    }\n\n    static int even(int n, Shape s) {\n        return n <= 0 ? s.area() : odd(n - 1, s);\n    }\n\n    static int odd(int n, Shape s) {\n        return n <= 0 ? 1 : even(n - 1, s);\n    }\n\n    static int start(int n, Shape s) {\n        return even(n, s);\n    }\n}\n";
    let (_, report) = analyze_class("CycleCalls", text);
    let start = support::find(&report, "CycleCalls", "start").expect("the caller");
    let reason = start.reason_text().expect("a reason");
    assert!(
        reason.starts_with("calls into a cycle whose head, CycleCalls."),
        "start is on no cycle: {reason}"
    );
    for name in ["even", "odd"] {
        let member = support::find(&report, "CycleCalls", name).expect("a member of the cycle");
        let text = member.reason_text().expect("a reason");
        assert!(
            !text.starts_with("calls into a cycle"),
            "{name} is on the cycle: {text}"
        );
    }
}
