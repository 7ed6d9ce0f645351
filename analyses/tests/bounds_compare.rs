//! Semantic comparison of bounds: class order first, then exact values at sampled points; renamed
//! parameters and reordered terms compare equal.

use jresa_analyses::bounds::compare::{class_order, compare, rename_parameters, ClassOrder, Verdict};
use jresa_analyses::bounds::expr::CostExpr;
use jresa_analyses::bounds::parse::parse_bound;
use proptest::prelude::*;

fn bound(text: &str) -> CostExpr {
    parse_bound(text).unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

fn verdict(old: &str, new: &str) -> Verdict {
    compare(&bound(old), &bound(new)).verdict
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn classes_are_ordered_by_growth() {
    let chain = [
        "5",
        "3 + 2*log2(nat(n)+1)",
        "9 + 9*nat(n)",
        "9 + nat(n)*(76 + 8*log2(nat(n)+1))",
        "9 + nat(n)*(10 + 9*nat(n))",
        "9 + nat(n)*(10 + nat(n)*(10 + 6*nat(n)))",
        "13*2^nat(n)",
    ];
    for (i, a) in chain.iter().enumerate() {
        for (j, b) in chain.iter().enumerate() {
            let expected = match i.cmp(&j) {
                std::cmp::Ordering::Less => ClassOrder::Larger,
                std::cmp::Ordering::Equal => ClassOrder::Same,
                std::cmp::Ordering::Greater => ClassOrder::Smaller,
            };
            assert_eq!(class_order(&bound(a), &bound(b)), expected, "{a} -> {b}");
        }
    }
    assert_eq!(
        verdict("9 + 9*nat(n)", "9 + nat(n)*(10 + 9*nat(n))"),
        Verdict::Regressed
    );
    assert_eq!(verdict("13*2^nat(n)", "9 + 9*nat(n)"), Verdict::Improved);
}

#[test]
fn multivariate_classes_compare_by_dominance() {
    // O(n) -> O(m*n): larger; O(m*n) -> O(n^2): incomparable; O(n + m) -> O(n): smaller.
    assert_eq!(
        class_order(&bound("9 + 9*nat(n)"), &bound("9 + nat(n)*(10 + 6*nat(m))")),
        ClassOrder::Larger
    );
    assert_eq!(
        class_order(
            &bound("9 + nat(n)*(10 + 6*nat(m))"),
            &bound("9 + nat(n)*(10 + 9*nat(n))")
        ),
        ClassOrder::Incomparable
    );
    assert_eq!(
        verdict("9 + nat(n)*(10 + 6*nat(m))", "9 + nat(n)*(10 + 9*nat(n))"),
        Verdict::Changed
    );
    assert_eq!(
        class_order(&bound("14 + 6*nat(n) + 6*nat(m)"), &bound("9 + 9*nat(n)")),
        ClassOrder::Smaller
    );
    assert_eq!(verdict("9 + 9*nat(n)", "9 + 9*nat(m)"), Verdict::Changed);
}

#[test]
fn same_class_compares_values() {
    assert_eq!(verdict("9 + 9*nat(n)", "9 + 10*nat(n)"), Verdict::Regressed);
    assert_eq!(verdict("9 + 9*nat(n)", "8 + 9*nat(n)"), Verdict::Improved);
    // Crossing: larger for small n, smaller for large n; the large inputs decide.
    let crossing = compare(&bound("9 + 9*nat(n)"), &bound("100 + 8*nat(n)"));
    assert_eq!(crossing.verdict, Verdict::Improved);
    assert!(crossing.larger_somewhere && crossing.smaller_somewhere);
    let crossing = compare(&bound("100 + 8*nat(n)"), &bound("9 + 9*nat(n)"));
    assert_eq!(crossing.verdict, Verdict::Regressed);
    // A constant far larger than anything small inputs show is still dominated by the leading
    // coefficient.
    assert_eq!(verdict("1000000000000 + 100*nat(n)", "101*nat(n)"), Verdict::Regressed);
    // Only for negative n.
    assert_eq!(verdict("9 + 9*nat(n)", "9 + 9*nat(n) + nat(-n)"), Verdict::Regressed);
    // Larger along one parameter, smaller along the other: no winner.
    assert_eq!(
        verdict("9 + 2*nat(n) + 3*nat(m)", "9 + 3*nat(n) + 2*nat(m)"),
        Verdict::Changed
    );
    // Equal values, different text.
    assert_eq!(verdict("max(4, 10 + 5*nat(n))", "10 + 5*nat(n)"), Verdict::Unchanged);
    assert_eq!(verdict("2*nat(n) + 2*nat(n)", "4*nat(n)"), Verdict::Unchanged);
    assert_eq!(verdict("13*2^nat(n)", "14*2^nat(n)"), Verdict::Regressed);
}

#[test]
fn reordered_terms_and_renamed_parameters_compare_equal() {
    assert_eq!(
        verdict("9 + nat(n)*(10 + 6*nat(m))", "nat(n)*(6*nat(m) + 10) + 9"),
        Verdict::Unchanged
    );
    assert_eq!(
        verdict("7 + 7*nat(1/2*hi-1/2*lo+1/2)", "7*nat(1/2+1/2*hi-1/2*lo) + 7"),
        Verdict::Unchanged
    );
    // A method whose parameters `n, m` became `rows, cols` (and a swap of two names).
    let old = bound("9 + nat(n)*(10 + 6*nat(m))");
    let renamed = rename_parameters(&old, &names(&["n", "m"]), &names(&["rows", "cols"]));
    assert_eq!(renamed.to_string(), "9 + nat(rows)*(10 + 6*nat(cols))");
    assert_eq!(
        compare(&renamed, &bound("9 + nat(rows)*(10 + 6*nat(cols))")).verdict,
        Verdict::Unchanged
    );
    let swapped = rename_parameters(&old, &names(&["n", "m"]), &names(&["m", "n"]));
    assert_eq!(
        compare(&swapped, &bound("9 + nat(m)*(10 + 6*nat(n))")).verdict,
        Verdict::Unchanged
    );
    // Without the renaming the same bounds are a change.
    assert_eq!(verdict("9 + 9*nat(n)", "9 + 9*nat(size)"), Verdict::Changed);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Adding a non-negative term never improves a bound; adding a positive constant regresses it.
    #[test]
    fn adding_cost_is_never_an_improvement(a in 0i64..50, b in 0i64..50, c in 1i64..50, d in 0i64..5) {
        let old = bound(&format!("{a} + {b}*nat(n) + {d}*nat(n)*nat(m)"));
        let new = CostExpr::add([old.clone(), CostExpr::constant(c)]);
        prop_assert_eq!(compare(&old, &new).verdict, Verdict::Regressed);
        prop_assert_eq!(compare(&new, &old).verdict, Verdict::Improved);
        prop_assert_eq!(compare(&old, &old).verdict, Verdict::Unchanged);
    }
}
