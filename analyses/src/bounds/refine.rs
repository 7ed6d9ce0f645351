//! Control-flow refinement of a loop by the transition it took last: each transition restricted to
//! the states it may start from, on a run that enters the loop where its callers call it.
//!
//! The states after each transition `t` (`L_t`) are
//! the least solution, with widening, of `L_t ⊇ post_t(E ∪ ⋃_s L_s)`, where `E` is the loop's
//! entry: a polyhedron per transition keeps the disjunction the loop head's single invariant loses
//! (`y = x` while `x ≤ 51`, then `x + y = 102`). A transition `t` then starts from `E` or some
//! `L_s`, within its own domain; restricted to the hull of those, a transition that cannot follow
//! any (an `int` wrap the loop never reaches) is empty, and the others carry their sources' facts
//! into the ranking function search.
//!
//! **Sound for the runs from `E`: every state a run starts a transition from lies in the
//! transition's refined domain, as `post` is computed exactly and joins and widenings only add
//! states.** The ranking functions and iteration bounds found from refined transitions therefore
//! hold for calls of the loop within `E`, which the caller must guarantee (its entry is the join
//! of the contexts of every call from outside the loop).

use super::cost::{INVARIANT_DELAY, INVARIANT_STEPS};
use crate::value::domain::{Constraint, Dimension, LinearExpr, NumericDomain};
use crate::value::fixpoint::{embed, restrict};
use num_traits::ToPrimitive;

/// Transitions past which no refinement is tried (its work is quadratic in them per step).
pub const MAX_REFINED: usize = 12;

/// `transitions` (over `(x, x')`, `2n` dims) each restricted to the states it may start from on a
/// run that enters with `x` in `entry` (`n` dims), after each is split by the values of the
/// variables that only hold constants ([`split_by_constants`]); `None` when there are too many
/// transitions or the states do not stabilise. A transition no run takes is empty.
pub fn by_last_transition<D: NumericDomain>(n: usize, entry: &D, transitions: &[D]) -> Option<Vec<D>> {
    if transitions.len() > MAX_REFINED || transitions.iter().any(|t| t.dimensions() != 2 * n) {
        return None;
    }
    let split = split_by_constants(n, entry, transitions);
    let transitions = split.as_deref().unwrap_or(transitions);
    let current: Vec<Dimension> = (0..n).collect();
    let domains: Vec<D> = transitions.iter().map(|t| restrict(t, &current)).collect();
    let reached = states_after(n, entry, transitions, &domains)?;
    let refined = transitions
        .iter()
        .zip(&domains)
        .map(|(t, domain)| {
            // The sources of `t`: the entry and each state after a transition, within its domain.
            let sources = std::iter::once(entry)
                .chain(reached.iter().flatten())
                .map(|s| s.meet(domain))
                .filter(|s| !s.is_empty())
                .reduce(|a, b| a.join(&b));
            match sources {
                Some(from) => t.meet(&embed(&from, &current, 2 * n)).minimized(),
                None => D::empty(2 * n),
            }
        })
        .collect();
    Some(refined)
}

/// Values a variable split by [`split_by_constants`] may hold, at most.
const MAX_VALUES: usize = 4;

/// `transitions` split by the values of each variable `v` that holds a constant on entry and that
/// every transition either keeps (`v' = v`) or sets to a constant (a direction `d = 1` turned to
/// `d = -1`, a flag): every state a run reaches has `v` among those constants, so the copies of
/// each transition with `v = c`, one per constant `c`, cover its steps. The states after each copy
/// then keep `v`'s value apart, where one invariant joins them (`-1 <= d <= 1` holds `d = 0`, on
/// which the loop never ends). `None` when no variable splits within `MAX_REFINED` transitions.
fn split_by_constants<D: NumericDomain>(n: usize, entry: &D, transitions: &[D]) -> Option<Vec<D>> {
    let mut split = transitions.to_vec();
    let mut any = false;
    for v in 0..n {
        let Some(values) = constant_values(n, v, entry, transitions) else {
            continue;
        };
        let copies: Vec<D> = split
            .iter()
            .flat_map(|t| values.iter().map(move |&c| t.meet(&pinned(2 * n, v, c))))
            .filter(|t| !t.is_empty())
            .collect();
        if copies.len() > MAX_REFINED {
            break;
        }
        split = copies;
        any = true;
    }
    any.then_some(split)
}

/// The constants `v` holds on entry and after each transition, when it holds one on entry and
/// every transition keeps it or sets it to a constant, and there are 2 to `MAX_VALUES` of them.
fn constant_values<D: NumericDomain>(n: usize, v: Dimension, entry: &D, transitions: &[D]) -> Option<Vec<i64>> {
    let value = |d: &D, terms: &[(Dimension, i64)]| -> Option<i64> {
        let (low, high) = d.bounds(&LinearExpr::from_terms(terms, 0)?);
        let (low, high) = (low?, high?);
        (low == high && low.is_integer()).then(|| low.to_integer().to_i64())?
    };
    let mut values = vec![value(entry, &[(v, 1)])?];
    for t in transitions.iter().filter(|t| !t.is_empty()) {
        if value(t, &[(v + n, 1), (v, -1)]) == Some(0) {
            continue;
        }
        let c = value(t, &[(v + n, 1)])?;
        if !values.contains(&c) {
            values.push(c);
        }
    }
    (values.len() >= 2 && values.len() <= MAX_VALUES).then_some(values)
}

/// `v = c` over `dims` dimensions.
fn pinned<D: NumericDomain>(dims: usize, v: Dimension, c: i64) -> D {
    let constraint = LinearExpr::from_terms(&[(v, 1)], -c).map(Constraint::equal_zero);
    D::from_constraints(dims, constraint)
}

/// `L_t` for each transition (`None` for one no run takes), by chaotic iteration with widening
/// after `INVARIANT_DELAY` updates of each, then `DESCENDING` rounds without it. Each widening
/// keeps the facts every state after the transition has (its range: `x' ≤ 51` after `x ≤ 50,
/// x' = x + 1`).
fn states_after<D: NumericDomain>(n: usize, entry: &D, transitions: &[D], domains: &[D]) -> Option<Vec<Option<D>>> {
    let next: Vec<Dimension> = (n..2 * n).collect();
    let ranges: Vec<Vec<Constraint>> = transitions
        .iter()
        .map(|t| restrict(t, &next).constraints().to_vec())
        .collect();
    let mut reached: Vec<Option<D>> = vec![None; transitions.len()];
    // Updates of each transition's states: each widens only after its own delay.
    let mut updates = vec![0; transitions.len()];
    for _ in 0..INVARIANT_STEPS {
        let mut changed = false;
        for u in 0..transitions.len() {
            let Some(after) = post(n, entry, &reached, &transitions[u], &domains[u]) else {
                continue;
            };
            let updated = match &reached[u] {
                None => after,
                Some(old) if old.includes(&after) => continue,
                Some(old) if updates[u] >= INVARIANT_DELAY => old.widen(&old.join(&after), &ranges[u]),
                Some(old) => old.join(&after),
            };
            reached[u] = Some(updated);
            updates[u] += 1;
            changed = true;
        }
        if !changed {
            // The posts of a post-fixpoint are one too, and often tighter.
            for _ in 0..DESCENDING {
                reached = (0..transitions.len())
                    .map(|u| post(n, entry, &reached, &transitions[u], &domains[u]))
                    .collect();
            }
            return Some(reached);
        }
    }
    None
}

/// Descending rounds after the widened iteration stabilises.
const DESCENDING: usize = 2;

/// The states after `t` (whose domain is `domain`) from the entry and every state in `reached`,
/// joined (`None`: none).
fn post<D: NumericDomain>(n: usize, entry: &D, reached: &[Option<D>], t: &D, domain: &D) -> Option<D> {
    let current: Vec<Dimension> = (0..n).collect();
    let next: Vec<Dimension> = (n..2 * n).collect();
    std::iter::once(entry)
        .chain(reached.iter().flatten())
        .filter(|s| !s.meet(domain).is_empty())
        .map(|s| restrict(&t.meet(&embed(s, &current, 2 * n)), &next))
        .filter(|s| !s.is_empty())
        .reduce(|a, b| a.join(&b))
}
