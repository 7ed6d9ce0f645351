//! The budgets of the treegraph scheduler, each with the reason for its value.
//!
//! The search over topological sorts is exponential in the worst case, so every block gets a time
//! budget and a deterministic step budget; whichever runs out first stops the search, and the block
//! is then scheduled with the cheapest order found so far and reported as not proven optimal. The
//! step budget makes golden tests and statistics reproducible on machines of any speed: on the
//! blocks of the tests the step budget (not the clock) is what stops a search.

use std::time::Duration;

/// Wall-clock budget of the search for one block. Park et al. used 2 s per block on LLVM blocks;
/// `java.base` has about 390,000 rules, so the budget must be far smaller: 100 ms bounds a full run
/// even if a few thousand blocks exhaust it. It is a safety net on slow or loaded machines; the step
/// budget below normally stops a search first.
pub const SEARCH_TIME_BUDGET: Duration = Duration::from_millis(100);

/// Search steps (prefixes extended by one tree) for one block. A step costs about 1 µs on blocks
/// with dozens of trees, so this is about 10 ms, ten times less than the time budget: on ordinary
/// machines the step budget, not the clock, stops a search, and results do not depend on load. In
/// `java.base` fewer than 30 blocks need more.
pub const SEARCH_STEP_BUDGET: u64 = 10_000;

/// Entries of the table of visited search states (the emitted set of trees with the simulated stack)
/// kept per block. A state reached again at no lower cost is pruned; the table makes most blocks
/// with many independent trees finish. Each entry holds a few dozen words, so the cap bounds the
/// table to tens of megabytes per search thread.
pub const SEARCH_MEMO_ENTRIES: usize = 200_000;

/// Blocks with more trees than this are not searched: their cost is that of the better of the
/// original order and one greedy pass, and they count as stopped. The search recurses once per
/// tree, and this keeps the recursion within a worker thread's 2 MiB stack even in debug builds;
/// such blocks (huge static initializers and resource tables, 28 in `java.base`) are long lists of
/// independent stores whose original order is already cheapest.
pub const MAX_SEARCHED_TREES: usize = 1_000;

/// The limits one scheduling run uses. `Default` gives the constants above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduleLimits {
    pub time_budget: Duration,
    pub step_budget: u64,
    pub memo_entries: usize,
    pub max_searched_trees: usize,
}

impl Default for ScheduleLimits {
    fn default() -> Self {
        ScheduleLimits {
            time_budget: SEARCH_TIME_BUDGET,
            step_budget: SEARCH_STEP_BUDGET,
            memo_entries: SEARCH_MEMO_ENTRIES,
            max_searched_trees: MAX_SEARCHED_TREES,
        }
    }
}

impl ScheduleLimits {
    /// Limits for reproducible runs (golden tests): the step budget alone decides, the clock only
    /// stops a search that runs far past it.
    pub fn deterministic() -> Self {
        ScheduleLimits {
            time_budget: Duration::from_secs(60),
            ..ScheduleLimits::default()
        }
    }
}
