//! The parser of printed cost bounds: every bound the analysis prints reads back as the same
//! expression (print -> parse -> print is the identity, on random expressions and on the bounds of
//! the golden reports), malformed bounds give an error with a column, and no input panics.

use jresa_analyses::bounds::expr::{CostExpr, Linear};
use jresa_analyses::bounds::parse::parse_bound;
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Parameter names as the analysis writes them: Java identifiers, `|sizes|`, `this`, generated
/// `p<k>`, names that look like keywords.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "n", "m", "i", "hi", "lo", "p0", "p12", "nat", "max", "log2", "x$1", "é"
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z_$][a-zA-Z0-9_$]{0,4}",
        "[a-z][a-z0-9]{0,3}".prop_map(|n| format!("|{n}|")),
        Just("|this|".to_owned()),
    ]
}

fn rational() -> impl Strategy<Value = BigRational> {
    prop_oneof![
        3 => (-20i64..40).prop_map(|n| BigRational::from_integer(BigInt::from(n))),
        1 => (-9i64..10, 1i64..7).prop_map(|(a, b)| BigRational::new(BigInt::from(a), BigInt::from(b))),
        1 => any::<i64>().prop_map(|n| BigRational::from_integer(BigInt::from(n))),
    ]
}

fn linear() -> impl Strategy<Value = Linear> {
    (rational(), prop::collection::vec((name(), rational()), 0..4)).prop_map(|(constant, terms)| {
        let mut map = BTreeMap::new();
        for (name, a) in terms {
            map.insert(name, a);
        }
        map.retain(|_, a: &mut BigRational| *a != BigRational::from_integer(BigInt::from(0)));
        Linear { constant, terms: map }
    })
}

/// Random expressions built with the normalising constructors, as the analysis builds them.
fn expr() -> impl Strategy<Value = CostExpr> {
    let leaf = prop_oneof![
        rational().prop_map(CostExpr::Const),
        linear().prop_map(CostExpr::nat),
        linear().prop_map(CostExpr::log2),
        linear().prop_map(CostExpr::pow2),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(CostExpr::add),
            prop::collection::vec(inner.clone(), 1..4).prop_map(CostExpr::mul),
            prop::collection::vec(inner.clone(), 1..4).prop_map(CostExpr::max),
            prop::collection::vec(inner, 1..4).prop_map(CostExpr::min),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn print_parse_print_is_the_identity(e in expr()) {
        let printed = e.to_string();
        let parsed = parse_bound(&printed).map_err(|error| TestCaseError::fail(format!("`{printed}`: {error}")))?;
        prop_assert_eq!(parsed.to_string(), printed.clone());
        prop_assert_eq!(parsed, e, "`{}` parses to another expression", printed);
    }

    #[test]
    fn extra_spaces_do_not_matter(e in expr()) {
        let printed = e.to_string();
        let spaced = printed.replace('(', " ( ").replace('*', " * ").replace(',', " , ");
        let parsed = parse_bound(&spaced).map_err(|error| TestCaseError::fail(format!("`{spaced}`: {error}")))?;
        prop_assert_eq!(parsed.to_string(), printed);
    }

    #[test]
    fn no_input_panics(text in "[-+*/^(),| 0-9a-z$_.#]{0,30}") {
        if let Err(error) = parse_bound(&text) {
            prop_assert!(error.column >= 1 && error.column <= text.chars().count() + 1, "{error} in `{text}`");
        }
    }

    #[test]
    fn truncated_bounds_fail_or_parse(e in expr(), cut in any::<prop::sample::Index>()) {
        let printed = e.to_string();
        let chars: Vec<char> = printed.chars().collect();
        let prefix: String = chars[..cut.index(chars.len() + 1)].iter().collect();
        // Either it is itself a bound (`9 + 9*nat(n)` cut after `9`), or an error inside it.
        if let Err(error) = parse_bound(&prefix) {
            prop_assert!(error.column <= prefix.chars().count() + 1);
        }
    }
}

/// Every bound in the golden analysis reports reads back as itself.
#[test]
fn golden_report_bounds_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/analyze");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/analyze exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read a golden report");
        let report: serde_json::Value = serde_json::from_str(&text).expect("a JSON report");
        for method in report["methods"].as_array().expect("methods") {
            let mut bounds: Vec<&str> = method["upper_bound"].as_str().into_iter().collect();
            for l in method["loops"].as_array().expect("loops") {
                bounds.extend(l["iterations"].as_str());
            }
            for bound in bounds {
                let parsed = parse_bound(bound).unwrap_or_else(|e| panic!("{}: `{bound}`: {e}", path.display()));
                assert_eq!(parsed.to_string(), bound, "{}", path.display());
                seen += 1;
            }
        }
    }
    assert!(seen > 50, "only {seen} bounds in the golden reports");
}

#[test]
fn errors_name_the_column_and_what_was_expected() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    let cases = [
        ("9 + ", 5, "expected a term, found the end of the bound"),
        ("9 + nat(n", 10, "expected"),
        ("nat()", 5, "expected a linear expression"),
        ("3*foo(n)", 3, "expected a term"),
        ("1/0 + nat(n)", 1, "division by zero in `1/0`"),
        ("log2(nat(n)+2)", 13, "expected `1`"),
        ("9 + 9*nat(n) junk", 14, "expected"),
        (&deep, 201, "nested more than 200 deep"),
    ];
    for (text, column, message) in cases {
        let error = parse_bound(text).expect_err(message);
        assert_eq!(error.column, column, "{text}: {error}");
        assert!(error.message.contains(message), "{text}: {error}");
    }
}

#[test]
fn reads_every_form_the_printer_writes() {
    let cases = [
        "4",
        "-3",
        "1/2",
        "9 + 9*nat(n)",
        "9 + nat(n)*(10 + 6*nat(m))",
        "13*2^nat(n)",
        "6 + 8*log2(nat(n)+1)",
        "7 + 7*nat(1/2*hi-1/2*lo+1/2)",
        "max(65, 3 + max(70, 87 + 15*nat(|a|-1)))",
        "76 + 16*nat(-i+|a|)",
        "4 + -3*nat(n)",
        "2^nat(100)",
    ];
    for text in cases {
        let parsed = parse_bound(text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        assert_eq!(parsed.to_string(), text);
    }
}
