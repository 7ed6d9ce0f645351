//! Budgets of the non-termination search, each with the reason for its value.

use std::time::Duration;

/// Time z3 may take for one method, all its loops together: a safety net only. The search runs
/// only where no ranking function was found; the budgets that decide what is found are
/// `QUERY_RLIMIT` and `METHOD_QUERIES`, which do not depend on the machine's load, so the same
/// input always gets the same answer.
pub const METHOD_TIME: Duration = Duration::from_millis(3_000);

/// z3's resource limit (`rlimit`, a deterministic count of its internal steps) for one query.
/// Most recurrent-set queries take a few thousand; bit-vector multiplication and division make
/// some far harder, and one of those must not use the whole method's budget.
pub const QUERY_RLIMIT: u32 = 1_000_000;

/// Queries one method may ask, over all its loops.
pub const METHOD_QUERIES: usize = 200;

/// Paths one exploration of a loop body (or a stem from the method's entry) may end in. Each
/// branch doubles them; past this the unexplored part counts as a way out of the loop, which no
/// recurrent set can then exclude.
pub const MAX_PATHS: usize = 128;

/// Statements one exploration may execute, over all its paths and the calls it inlines.
pub const MAX_STEPS: usize = 20_000;

/// Procedure frames one path may have open: inlining is bounded even where the IR's blocks form a
/// cycle outside a loop procedure.
pub const MAX_DEPTH: usize = 48;

/// Times a stem may enter the same loop procedure on its way to an inner loop (the outer loop's
/// first iterations).
pub const MAX_UNROLL: u8 = 2;

/// Longest cycle of states searched directly (a state that comes back after this many iterations
/// is itself a recurrent set of that many states).
pub const MAX_PERIOD: usize = 3;

/// Iterations before a cycle of states starts, tried last: a lasso whose loop-head state settles
/// after this many iterations (32 lets an int counter doubled from 1 wrap to 0).
pub const LASSO_PREFIXES: &[usize] = &[8, 33];

/// Reachable states a candidate set is grown from, each outside the sets that failed before.
pub const MAX_SEEDS: usize = 4;

/// Variables of the state tried at their type's limits as seeds (two seeds each).
pub const MAX_EXTREMES: usize = 4;

/// Rounds of weakening a candidate recurrent set (each drops at least one of its conjuncts).
pub const MAX_ROUNDS: usize = 40;

/// Values of a state (variables and the array lengths and fields they reach) the candidate sets
/// are built over; the pairs between them grow quadratically.
pub const MAX_OBSERVABLES: usize = 10;

/// Array elements a witness lists (longer arrays are reported and built with zeros past these).
pub const MAX_WITNESS_ELEMENTS: i64 = 64;

/// Methods whose code the search runs at their calls, over the searched method and them: a
/// call of any other gets a fresh result.
pub const MAX_INLINED: usize = 12;

/// Statements an inlined method may have (getters, `Math.abs`, small helpers; not whole
/// algorithms, whose paths would multiply the searched loop's).
pub const MAX_INLINED_STATEMENTS: usize = 80;

/// Inlined calls one path may have open at once (calls nested deeper get fresh results).
pub const MAX_INLINE_DEPTH: usize = 3;

/// The lengths a witness's arrays and strings are kept within where the recurrent set allows it
/// (so that a user can read the input), tried in turn; else they are as long as z3's model makes
/// them.
pub const WITNESS_LENGTHS: &[i64] = &[1, 8];
