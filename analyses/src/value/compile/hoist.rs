//! Constraints moved to the earliest item of a rule where their dimensions hold their values.
//!
//! A rule is a conjunction over single-assignment dimensions: only an [`Item::Wrap`] (which
//! replaces a dimension's mathematical value by the JVM's) changes a dimension's value between
//! calls. A constraint holds on every run that reaches it, and between two calls every run that
//! starts a rule's stretch of constraints and wraps either completes it or leaves by another rule
//! (an implicit exception has a rule of its own), so a constraint over the rule's inputs, which no
//! wrap changes, may be applied right after the last call before it. It may not move above a
//! call: a callee that throws ends the run there, where the later constraint need not hold.
//! Its facts then reach earlier wraps: an array store `tmp[k] = v` after `k1 = k + 1` proves
//! `k < |tmp|` before the sum is wrapped, so the sum is known not to wrap.

use super::super::program::Item;

/// Moves every `Constrain` item over the rule's inputs alone (dimensions `0..inputs`) to just
/// after the last call before it (to the start when there is none); the other items keep their
/// places. No wrap changes an input, and the constraints that define computed values stay where
/// they are, next to their wraps.
pub(super) fn hoist_constraints(items: &mut Vec<Item>, inputs: usize) {
    let mut out: Vec<Item> = Vec::with_capacity(items.len());
    for item in items.drain(..) {
        let movable = match &item {
            Item::Constrain(constraints) => constraints
                .iter()
                .all(|c| c.expression().terms().all(|(d, _)| d < inputs)),
            _ => false,
        };
        if !movable {
            out.push(item);
            continue;
        }
        let at = out
            .iter()
            .rposition(|i| !matches!(i, Item::Constrain(_) | Item::Wrap { .. }))
            .map_or(0, |p| p + 1);
        out.insert(at, item);
    }
    *items = out;
}
