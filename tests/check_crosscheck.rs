//! Cross-check of the amortised analysis (`jresa check`) against the cost analysis (`jresa
//! analyze --cost-model consume`) on the fixtures of `tests/data/check` both can handle: methods
//! whose specification holds with a precondition bound over lists from parameters to `null` and a
//! postcondition that keeps no potential (so the precondition bounds what the method consumes),
//! and which the cost analysis bounds. Both bound the same quantity (units passed to
//! `Resource.consume`); a list of `n` cells (without other reference fields) has size `n`, the cost analysis's size
//! of a reference. On every size up to a limit the amortised bound must be at most the cost bound (they
//! agree, or the amortised one is tighter), except for the discrepancies listed in `KNOWN`, which
//! are asserted as they are.

use crate::check_support;
use jresa::analyze::analyze;
use jresa::check::check;
use jresa::classfile::ClassPath;
use jresa_analyses::amortised::session::{Status, Structure};
use jresa_analyses::bounds::expr::Linear;
use jresa_analyses::cost_model::CostModel;
use num_rational::BigRational;
use std::collections::BTreeMap;

/// Methods where the cost analysis's bound is smaller somewhere, with the largest excess of the
/// amortised bound.
const KNOWN: &[(&str, i64)] = &[
    // FIXME: the loop of concat visits every cell of p but the last, so it consumes |p| + 1 units
    // (2 when p is null), the cost analysis's `2 + nat(|p|-1)`. Linear potential on `lseg(x, @arg
    // p, null)` pays x per cell of the whole list, so the amortised bound is |p| + 2, as in the
    // paper (x1 = 1, x3 = 2): one unit too many for non-empty lists. A precondition that exposes
    // the first cell with field assertions gives |p| + 1 (`IntList.concatTight`, which has two
    // cases and is not compared here).
    ("IntList.concat", 1),
    ("IntList.concatGeneric", 1),
    ("IntList.concatInferred", 1),
    // Not a defect: `equal` walks both lists until either ends, so it consumes min(|a|, |b|)
    // units. The LP may put the potential on either list (x + y >= 1 per cell pair) and picks a;
    // the cost analysis bounds by b. Each bound is the smaller one on some inputs.
    ("Lists.equal", 7),
];

/// The largest size tried for each list.
const MAX_SIZE: i64 = 8;

#[test]
fn amortised_bounds_agree_with_or_are_tighter_than_cost_bounds() {
    let classpath = ClassPath::default_jdk().ok();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let mut compared = 0;
    let mut tighter = 0;
    let mut known_seen = Vec::new();
    for name in ["IntList.java", "Lists.java", "Trees.java"] {
        let source = check_support::data_dir().join(name);
        let classes = check_support::compile_against_specs("check-crosscheck", &source);
        let amortised = check(&classes, classpath.as_ref(), &|_, _| true);
        let costs = analyze(&classes, classpath.as_ref(), CostModel::Consume, &|_, _| true);
        for m in &amortised.methods {
            let Some(outcome) = &m.outcome else { continue };
            // Only preconditions with a single case give one bound to compare.
            let [bound] = outcome.bound.as_slice() else { continue };
            if !matches!(outcome.status, Status::Verified | Status::Inferred) {
                continue;
            }
            let keeps_nothing = outcome.leftover.iter().all(|left| {
                num_traits::Zero::is_zero(&left.constant)
                    && left.terms.iter().all(|(c, _)| num_traits::Zero::is_zero(c))
            });
            if !keeps_nothing {
                continue;
            }
            // Only bounds over lists from parameters to null are comparable (a tree's size is
            // its number of nodes, the cost analysis's its height).
            let mut lists: Vec<(BigRational, String)> = Vec::new();
            let comparable = bound.terms.iter().all(|(coefficient, structure)| match structure {
                Structure::List { from, to } if to == "null" && from.starts_with("@arg ") => {
                    lists.push((coefficient.clone(), format!("|{}|", &from["@arg ".len()..])));
                    true
                }
                _ => num_traits::Zero::is_zero(coefficient),
            });
            if !comparable {
                continue;
            }
            let Some(cost) = costs
                .methods
                .iter()
                .find(|c| c.class == m.class && c.name == m.name && c.descriptor == m.descriptor)
            else {
                failures.push(format!("{}.{}: not in the cost analysis's report", m.class, m.name));
                continue;
            };
            let Some(cost_bound) = &cost.bound else {
                continue;
            };
            compared += 1;
            let key = format!("{}.{}", m.class, m.name);
            // Every combination of sizes of the list parameters; other references have size 1,
            // ints are 0.
            let sized: Vec<&String> = cost
                .parameters
                .iter()
                .filter(|p| lists.iter().any(|(_, l)| l == *p))
                .collect();
            let points = (MAX_SIZE + 1).pow(sized.len() as u32);
            let mut worst_excess = BigRational::from_integer((-1_000_000).into());
            let mut strictly_smaller = false;
            for point in 0..points {
                let mut sizes: BTreeMap<&str, i64> = BTreeMap::new();
                let mut rest = point;
                for parameter in &sized {
                    sizes.insert(parameter.as_str(), rest % (MAX_SIZE + 1));
                    rest /= MAX_SIZE + 1;
                }
                let size_of = |name: &str| -> Option<BigRational> {
                    let value = match sizes.get(name) {
                        Some(n) => *n,
                        None if name.starts_with('|') => 1,
                        None => 0,
                    };
                    Some(Linear::constant(value).constant)
                };
                let Some(cost_value) = cost_bound.eval(&size_of) else {
                    failures.push(format!("{key}: the cost bound {cost_bound} cannot be evaluated"));
                    break;
                };
                let mut amortised_value = bound.constant.clone();
                for (coefficient, list) in &lists {
                    amortised_value += coefficient * size_of(list).unwrap_or_default();
                }
                let excess = &amortised_value - &cost_value;
                if excess > worst_excess {
                    worst_excess = excess.clone();
                }
                if amortised_value < cost_value {
                    strictly_smaller = true;
                }
            }
            let verdict = if worst_excess > BigRational::from_integer(0.into()) {
                "cost analysis tighter"
            } else if strictly_smaller {
                tighter += 1;
                "amortised tighter"
            } else {
                "agree"
            };
            table.push(format!(
                "{key:<28} amortised {:<36} cost {:<24} {verdict}",
                m.bound.as_deref().unwrap_or(""),
                cost.upper_bound.as_deref().unwrap_or("")
            ));
            match KNOWN.iter().find(|(k, _)| *k == key) {
                Some((_, excess)) => {
                    known_seen.push(key.clone());
                    if worst_excess != BigRational::from_integer((*excess).into()) {
                        failures.push(format!(
                            "{key}: KNOWN records an excess of {excess}, now {worst_excess} (update KNOWN)"
                        ));
                    }
                }
                None if worst_excess > BigRational::from_integer(0.into()) => failures.push(format!(
                    "{key}: the amortised bound {} exceeds the cost bound {} by {worst_excess} at some size",
                    m.bound.as_deref().unwrap_or(""),
                    cost.upper_bound.as_deref().unwrap_or("")
                )),
                None => {}
            }
        }
    }
    for (key, _) in KNOWN {
        if !known_seen.iter().any(|k| k == key) {
            failures.push(format!("KNOWN lists {key}, which was not compared"));
        }
    }
    println!("{}", table.join("\n"));
    assert!(compared >= 10, "only {compared} methods compared");
    assert!(
        tighter >= 3,
        "the amortised bound is strictly tighter on only {tighter} methods"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
