//! Closed-form cost expressions: normalisation keeps values, printing, exact evaluation and big-O.
use jresa_analyses::bounds::expr::{CostExpr, Linear};
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;

fn n() -> Linear {
    Linear::var("n")
}

fn m() -> Linear {
    Linear::var("m")
}

fn at(expr: &CostExpr, values: &[(&str, i64)]) -> BigRational {
    let env = |name: &str| {
        values
            .iter()
            .find(|(v, _)| *v == name)
            .map(|(_, x)| BigRational::from_integer(BigInt::from(*x)))
    };
    expr.eval(&env).expect("every parameter has a value")
}

fn int(x: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(x))
}

#[test]
fn prints_in_costa_style() {
    let e = CostExpr::add([
        CostExpr::constant(5),
        CostExpr::mul([CostExpr::constant(7), CostExpr::nat(n())]),
        CostExpr::mul([CostExpr::constant(3), CostExpr::nat(n()), CostExpr::nat(m())]),
    ]);
    assert_eq!(e.to_string(), "5 + 7*nat(n) + 3*nat(n)*nat(m)");
    assert_eq!(e.complexity(), "O(m*n)");
    let log = CostExpr::log2(n().minus(&Linear::var("y")));
    assert_eq!(log.to_string(), "log2(nat(n-y)+1)");
}

#[test]
fn complexity_classes() {
    let quadratic = CostExpr::add([
        CostExpr::nat(n()),
        CostExpr::mul([CostExpr::nat(n()), CostExpr::nat(n())]),
    ]);
    assert_eq!(quadratic.complexity(), "O(n^2)");
    assert_eq!(CostExpr::constant(12).complexity(), "O(1)");
    assert_eq!(CostExpr::log2(n()).complexity(), "O(log(n))");
    let n_log_n = CostExpr::mul([CostExpr::nat(n()), CostExpr::log2(n())]);
    assert_eq!(CostExpr::add([CostExpr::nat(n()), n_log_n]).complexity(), "O(n*log(n))");
    assert_eq!(
        CostExpr::add([CostExpr::pow2(n()), CostExpr::nat(n())]).complexity(),
        "O(2^n)"
    );
    assert_eq!(
        CostExpr::add([CostExpr::nat(n()), CostExpr::nat(m())]).complexity(),
        "O(m + n)"
    );
}

/// Growth classes put every parameter at one size `n`, and order by growth.
#[test]
fn growth_classes_merge_parameters() {
    let product = CostExpr::mul([CostExpr::nat(n()), CostExpr::nat(m())]);
    let square = CostExpr::mul([CostExpr::nat(n()), CostExpr::nat(n())]);
    assert_eq!(product.growth(), square.growth());
    assert_eq!(product.growth().to_string(), "O(n^2)");
    let n_log_n = CostExpr::mul([CostExpr::nat(m()), CostExpr::log2(n())]);
    let exponential = CostExpr::add([CostExpr::pow2(n()), product.clone()]);
    let texts: Vec<String> = [
        CostExpr::constant(3),
        CostExpr::log2(n()),
        CostExpr::add([CostExpr::nat(n()), CostExpr::nat(m())]),
        n_log_n.clone(),
        product.clone(),
        exponential.clone(),
    ]
    .iter()
    .map(|e| e.growth().to_string())
    .collect();
    assert_eq!(texts, ["O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(2^n)"]);
    assert!(CostExpr::log2(n()).growth() < CostExpr::nat(m()).growth());
    assert!(product.growth() < n_log_n.growth().max(exponential.growth()));
    assert!(n_log_n.growth() < square.growth());
}

#[test]
fn log2_counts_bits_so_that_halving_loops_are_bounded() {
    // A loop `while (x > 0) x /= 2;` runs bits(x) times.
    let bound = CostExpr::log2(Linear::var("x"));
    for x in 0..200i64 {
        let mut iterations = 0;
        let mut v = x;
        while v > 0 {
            v /= 2;
            iterations += 1;
        }
        assert!(at(&bound, &[("x", x)]) >= int(iterations), "x = {x}");
    }
    assert_eq!(at(&bound, &[("x", 8)]), int(4));
    assert_eq!(at(&bound, &[("x", -3)]), int(0));
}

#[test]
fn max_drops_dominated_constants_and_duplicates() {
    let e = CostExpr::max([CostExpr::constant(0), CostExpr::nat(n()), CostExpr::nat(n())]);
    assert_eq!(e.to_string(), "nat(n)");
    let f = CostExpr::max([CostExpr::constant(3), CostExpr::constant(9), CostExpr::nat(m())]);
    assert_eq!(f.to_string(), "max(9, nat(m))");
}

fn leaf() -> impl Strategy<Value = CostExpr> {
    prop_oneof![
        (0i64..20).prop_map(CostExpr::constant),
        (-5i64..5, -3i64..4, -3i64..4).prop_map(|(c, a, b)| {
            let e = Linear::constant(c).add_scaled(&n(), &int(a)).add_scaled(&m(), &int(b));
            CostExpr::nat(e)
        }),
        (-3i64..4).prop_map(|c| CostExpr::log2(n().plus(&Linear::constant(c)))),
        (-3i64..2).prop_map(|c| CostExpr::pow2(m().plus(&Linear::constant(c)))),
    ]
}

fn expr() -> impl Strategy<Value = CostExpr> {
    leaf().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(CostExpr::add),
            prop::collection::vec(inner.clone(), 1..3).prop_map(CostExpr::mul),
            prop::collection::vec(inner.clone(), 1..4).prop_map(CostExpr::max),
            prop::collection::vec(inner, 1..3).prop_map(CostExpr::min),
        ]
    })
}

/// Evaluates without the constructors' normalisation, as the reference semantics.
fn reference(e: &CostExpr, nv: i64, mv: i64) -> BigRational {
    at(e, &[("n", nv), ("m", mv)])
}

proptest! {
    #[test]
    fn normalisation_preserves_values_and_costs_are_non_negative(a in expr(), b in expr(), nv in -4i64..12, mv in -4i64..12) {
        let sum = CostExpr::add([a.clone(), b.clone()]);
        prop_assert_eq!(reference(&sum, nv, mv), reference(&a, nv, mv) + reference(&b, nv, mv));
        let product = CostExpr::mul([a.clone(), b.clone()]);
        prop_assert_eq!(reference(&product, nv, mv), reference(&a, nv, mv) * reference(&b, nv, mv));
        let maximum = CostExpr::max([a.clone(), b.clone()]);
        prop_assert_eq!(reference(&maximum, nv, mv), reference(&a, nv, mv).max(reference(&b, nv, mv)));
        let minimum = CostExpr::min([a.clone(), b.clone()]);
        prop_assert_eq!(reference(&minimum, nv, mv), reference(&a, nv, mv).min(reference(&b, nv, mv)));
        prop_assert!(reference(&a, nv, mv) >= int(0));
        // The big-O class is always printable and well formed.
        let class = sum.complexity();
        prop_assert!(class.starts_with("O(") && class.ends_with(')'));
    }
}

#[test]
fn a_minimum_takes_the_item_that_gives_the_smallest_class() {
    use jresa_analyses::bounds::parse::parse_bound;
    let class = |text: &str| parse_bound(text).expect("a bound").complexity();
    // A search from a start index below the length: as many steps as from the start, or as the
    // array has, whichever is fewer; the other case scans the whole array.
    assert_eq!(class("max(77 + 9*min(nat(s+1), nat(|a|)), 82 + 9*nat(|a|))"), "O(|a|)");
    // The item that adds no parameter to the rest of the bound.
    assert_eq!(class("nat(n1) + nat(n2) + min(nat(|t|), nat(n1+n2))"), "O(n1 + n2)");
    // Each minimum chooses, also within products.
    assert_eq!(
        class("min(nat(n), nat(m))*min(nat(m), nat(k)) + nat(m)*nat(m)"),
        "O(m^2)"
    );
    // A constant item makes the minimum constant, unless it is as large as only the types'
    // limits make it.
    assert_eq!(class("3 + min(7, nat(n))"), "O(1)");
    assert_eq!(class("3 + min(2147483648, nat(n))"), "O(n)");
}

#[test]
fn the_largest_weight_is_that_of_a_growing_term() {
    use jresa_analyses::bounds::parse::parse_bound;
    let weight = |text: &str| parse_bound(text).expect("a bound").largest_weight();
    // A product's constant factor, even inside another product.
    assert_eq!(weight("8 + 9*nat(i) + 5*(nat(x) + 32767*nat(i))"), int(32767));
    // A coefficient inside a linear argument.
    assert_eq!(weight("3 + nat(2*n - 70000*m)"), int(70000));
    // Constant terms weigh nothing, however large.
    assert_eq!(weight("38654705736 + nat(n)"), int(1));
    assert_eq!(weight("38654705736"), int(0));
}
