//! Every budget of the polyhedra domain in one place, each with the reason for its value.
//!
//! **Going over a budget never panics and never makes a result smaller than the exact one:** a
//! simplex query that runs out of pivots answers the sound "don't know" (not empty, not entailed,
//! unbounded, not redundant), and a projection or hull that runs out of room keeps fewer
//! constraints, which describes a larger polyhedron.

/// Pivots (and bound flips) one simplex query may make. Bland's rule guarantees termination, but
/// its worst case is exponential; the systems here have tens of constraints and need tens of
/// pivots, so a thousand times that only stops pathological inputs.
pub const MAX_SIMPLEX_PIVOTS: usize = 20_000;

/// Pairs of constraints Fourier–Motzkin combines when eliminating one dimension. Each pair costs
/// one new constraint and one redundancy test (a small linear program); past this a join falls
/// back to its template hull and a projection keeps only the first pairs (any subset of the
/// combinations is still implied by the input, so the result is a sound over-approximation).
pub const MAX_COMBINATIONS_PER_ELIMINATION: usize = 512;

/// Constraints a Fourier–Motzkin system may have after a step that this many or more are
/// redundant. Below it the syntactic simplification (duplicates, parallel constraints) keeps the
/// system small enough; above it the number of combinations of the next step grows
/// quadratically, so redundancy removal by linear programming runs.
pub const REDUNDANCY_REMOVAL_THRESHOLD: usize = 12;

/// Irredundant constraints a Fourier–Motzkin system may keep after a step. Each redundancy test
/// is a linear program over the irredundant constraints found so far, whose pivots cost
/// (constraints × dimensions) exact rational operations: a 300-row step whose result keeps 200
/// constraints took 450 ms in a 10-dimensional join, one keeping 33 took 15 ms. Past this a join
/// falls back to its template hull and a projection keeps the sparsest rows.
pub const MAX_ELIMINATION_ROWS: usize = 64;

/// The largest coefficient (on a dimension) a Fourier–Motzkin combination may have to be kept.
/// Combinations of constraints that carry the types' limits (`2^31 - 16`, ...) as coefficients
/// of the hull's lifted dimensions reach `2^31` and more, and the exact simplex of every later
/// redundancy test then works on rationals of hundreds of bits (seconds per join); such rows
/// are rarely facets of a useful invariant. Dropping a combination keeps the projection sound
/// (larger).
pub const MAX_COMBINED_COEFFICIENT: u64 = 1 << 24;
