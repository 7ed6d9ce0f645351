//! Every budget of the amortised analysis in one place, each with the reason for its value.
//!
//! **Going over a budget never makes a specification verified:** the method is reported failed
//! with the budget that ran out, and nothing is reported as proven.

/// Statements the proof search may execute symbolically for one method (all paths, both phases,
/// every round of invariant inference). The fixtures need a few thousand; a method whose paths
/// multiply past this is beyond a path-by-path proof search anyway.
pub const MAX_STEPS: usize = 400_000;

/// Paths alive at once. Paths split at every guard the proof cannot decide and at every list or
/// tree unfolding; ten thousand covers methods with a dozen undecided branches per loop body.
pub const MAX_PATHS: usize = 10_000;

/// Procedure and method frames on one path: a method of a few hundred basic blocks with inlined
/// callees stays far below this; only runaway recursion through inlining reaches it.
pub const MAX_FRAMES: usize = 2_000;

/// Nesting of inlined (unannotated) callees. Constructors chain to `Object.<init>` in two or three
/// levels; deeper chains are library code the analysis should not walk through.
pub const MAX_INLINE_DEPTH: usize = 8;

/// Rounds of the invariant-inference phase (shape invariants, invariant positions and data facts
/// are re-derived until nothing changes). Each round only weakens candidates, so real loops settle
/// in two to four rounds; more means the candidate set keeps growing.
pub const MAX_INFERENCE_ROUNDS: usize = 12;

/// Disjuncts an inferred loop invariant may have. The list shapes need one or two; more means the
/// abstraction does not converge for this loop.
pub const MAX_INVARIANT_DISJUNCTS: usize = 6;

/// Cells and segments an entailment may chain to prove one list segment, and nested tree nodes it
/// may fold for one tree: bounds the work on heaps that the assertions could never describe.
pub const MAX_CHAIN: usize = 256;

/// Resource obligations of one linear program (a method with its annotated callees). Each is a
/// row of the LP; microlp solves thousands of rows in milliseconds, the exact re-check and the
/// search for the obligation to blame are linear in this.
pub const MAX_OBLIGATIONS: usize = 20_000;

/// Cases one field access may split into (each possibly empty segment or tree that may start at
/// the accessed object splits it in two). Real accesses split once or twice.
pub const MAX_ACCESS_CASES: usize = 64;
