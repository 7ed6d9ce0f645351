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
/// one new constraint before redundancy removal; past this the elimination keeps only the first
/// pairs (any subset of the combinations is still implied by the input, so the result is a sound
/// over-approximation).
pub const MAX_COMBINATIONS_PER_ELIMINATION: usize = 2_048;

/// Constraints a Fourier–Motzkin system may hold after a step before redundancy removal by linear
/// programming runs. Below this the syntactic simplification (duplicates, parallel constraints)
/// is cheaper than the simplex and keeps the system small enough; above it the number of
/// combinations of the next step grows quadratically.
pub const REDUNDANCY_REMOVAL_THRESHOLD: usize = 12;

/// Constraints a projection, a hull or a polyhedron built from them keeps at most. Value-analysis
/// polyhedra have a few dozen constraints; one with more than this is either degenerate or about
/// to be widened, and every operation on it is quadratic or worse in this number. The
/// constraints beyond it are dropped (an over-approximation).
pub const MAX_CONSTRAINTS: usize = 256;
