//! What a thread has computed from constraint systems, remembered: the fixpoints and the cost
//! solver reduce and project the same systems again and again (on commons-lang3, nine
//! redundancy removals in ten repeat an earlier one). Only functions of their arguments are
//! remembered (the simplex's and the elimination's budgets are per call), so remembering
//! changes no result. A memory holds at most `limit` coefficients of keys and values, then
//! forgets everything at once and starts again.

use super::linear::Constraint;
use rustc_hash::FxHashMap;
use std::hash::Hash;

pub(super) struct Memo<K, V> {
    entries: FxHashMap<K, V>,
    held: usize,
    limit: usize,
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    pub(super) fn new(limit: usize) -> Self {
        Memo {
            entries: FxHashMap::default(),
            held: 0,
            limit,
        }
    }

    pub(super) fn get(&self, key: &K) -> Option<V> {
        self.entries.get(key).cloned()
    }

    /// Remembers `value` for `key`, which together hold `weight` coefficients.
    pub(super) fn remember(&mut self, key: K, value: &V, weight: usize) {
        if self.held + weight > self.limit {
            self.entries.clear();
            self.held = 0;
        }
        self.held += weight;
        self.entries.insert(key, value.clone());
    }
}

/// The coefficients (and constants) a system holds.
pub(super) fn coefficients(system: &[Constraint]) -> usize {
    system.iter().map(|c| c.expression().coefficients().len() + 1).sum()
}
