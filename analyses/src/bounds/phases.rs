//! Loops whose iterations go through phases. Transition `u` may follow transition `t` when some
//! `x'` of `t` lies in `u`'s domain; the transitions of a run form a path in this successor graph,
//! so a run goes through the graph's strongly connected components in topological order, each at
//! most once. A ranking function of each component's transitions (or none, for a component of one
//! transition that cannot follow itself: it runs at most once per run) proves that the loop
//! terminates, and the sum of the components' iterations bounds its iterations.
//!
//! This covers loops that have no single ranking function of the shapes `ranking::find` searches:
//! a loop that moves towards a target from either side (`while (x != k) if (x > k) x--; else
//! x++;`: two components, ranked by `x - k` and `k - x`) or whose test switches once (`if (x <=
//! 50) y++; else y--;`).
//!
//! **The graph is built with exact polyhedral operations and over-approximates the successor
//! relation (a projection of `u` is its domain), so every run's path is in it; each component's
//! ranking function is proven exactly by `ranking::find`, and [`verify`] re-checks both.**

use super::ranking::{self, Ranking};
use crate::value::domain::{Dimension, NumericDomain};
use crate::value::fixpoint::{embed, restrict};
use petgraph::graphmap::DiGraphMap;

/// Transitions past which the successor graph (quadratic in them) is not built.
const MAX_TRANSITIONS: usize = 24;

/// One strongly connected component of the successor graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// The indices of its transitions among the loop's.
    pub transitions: Vec<usize>,
    /// The ranking function of its transitions; `None` for a single transition that cannot follow
    /// itself.
    pub ranking: Option<Box<Ranking>>,
}

/// The successor graph of `transitions` (over `x`, `x'` in dimensions `0..n`, `n..2n`).
fn successors<D: NumericDomain>(n: usize, transitions: &[&D]) -> DiGraphMap<usize, ()> {
    let current: Vec<Dimension> = (0..n).collect();
    let next: Vec<Dimension> = (n..2 * n).collect();
    let domains: Vec<D> = transitions.iter().map(|u| restrict(*u, &current)).collect();
    let mut graph = DiGraphMap::new();
    for i in 0..transitions.len() {
        graph.add_node(i);
    }
    for (i, t) in transitions.iter().enumerate() {
        for (j, domain) in domains.iter().enumerate() {
            if !t.meet(&embed(domain, &next, t.dimensions())).is_empty() {
                graph.add_edge(i, j, ());
            }
        }
    }
    graph
}

/// The phases of a loop (in the order a run goes through them) with a ranking function each, when
/// the successor graph has more than one component and every cyclic one is ranked.
/// Each cyclic component is ranked by `rank` (`ranking::find`, or a search of fewer shapes for
/// transitions with the large constants of wrap cases).
pub fn find<D: NumericDomain>(
    n: usize,
    transitions: &[&D],
    rank: fn(usize, &[D]) -> Option<Ranking>,
) -> Option<Ranking> {
    if transitions.len() < 2 || transitions.len() > MAX_TRANSITIONS {
        return None;
    }
    let graph = successors(n, transitions);
    // Tarjan's algorithm yields the components in reverse topological order.
    let components = petgraph::algo::tarjan_scc(&graph);
    if components.len() < 2 {
        return None;
    }
    let mut phases = Vec::new();
    for component in components.iter().rev() {
        let mut indices = component.clone();
        indices.sort_unstable();
        let ranking = match indices.as_slice() {
            [only] if !graph.contains_edge(*only, *only) => None,
            _ => {
                let subset: Vec<D> = indices.iter().map(|&i| transitions[i].clone()).collect();
                Some(Box::new(rank(n, &subset)?))
            }
        };
        phases.push(Phase {
            transitions: indices,
            ranking,
        });
    }
    Some(Ranking::Phases(phases))
}

/// Re-proves a phase decomposition: every transition is in one phase, no transition may follow
/// one of a later phase, one of an unranked phase cannot follow itself, and each ranked phase's
/// ranking function holds on its transitions.
pub fn verify<D: NumericDomain>(n: usize, transitions: &[&D], phases: &[Phase]) -> bool {
    let mut phase_of = vec![None; transitions.len()];
    for (k, phase) in phases.iter().enumerate() {
        for &t in &phase.transitions {
            match phase_of.get_mut(t) {
                Some(slot @ None) => *slot = Some(k),
                _ => return false,
            }
        }
    }
    let Some(phase_of) = phase_of.into_iter().collect::<Option<Vec<usize>>>() else {
        return false;
    };
    let graph = successors(n, transitions);
    let ordered = graph.all_edges().all(|(i, j, _)| {
        let (from, to) = (phase_of[i], phase_of[j]);
        from < to || (from == to && phases[from].ranking.is_some())
    });
    ordered
        && phases.iter().all(|phase| match &phase.ranking {
            None => true,
            Some(ranking) => {
                let subset: Vec<&D> = phase.transitions.iter().map(|&i| transitions[i]).collect();
                ranking::verify(n, &subset, ranking)
            }
        })
}
