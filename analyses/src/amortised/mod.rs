//! Amortised resource analysis with separation logic (Atkey; RESA by Fenacci and MacKenzie):
//! methods annotated with preconditions, postconditions and loop invariants that attach
//! potential (units of resource) to list cells, tree nodes and the method itself are verified,
//! or the least values of their resource variables are inferred by linear programming.
//!
//! - [`assertion`]: the syntax tree of the annotation strings and its printer; [`spec`]: a
//!   method's annotations.
//! - [`resolve`]: names in an annotation resolved against the method (parameters, loop
//!   variables, the list and tree classes, resource variables).
//! - [`symbolic`]: symbolic heaps; [`entail`]: entailment with frame inference, folding and
//!   unfolding of `lseg` and `tree`; [`abstraction`]: canonical abstraction for inferred loop
//!   invariants.
//! - [`context`], [`engine`]: the proof search over the IR (symbolic execution from the
//!   precondition, loop invariants at loop heads, specifications at calls, the resource
//!   obligation of every instruction that consumes).
//! - [`solve`]: the LP with exact re-check; [`session`]: per-method orchestration and outcomes.
//! - [`program`]: what the analysis asks of the program (implemented by the driver);
//!   [`limits`]: every budget.
//!
//! The analysis does no I/O and never panics; going over a budget makes a method fail, never
//! succeed.
pub mod abstraction;
pub mod assertion;
pub mod context;
pub mod engine;
pub mod entail;
pub mod limits;
pub mod program;
pub mod resolve;
pub mod resource;
pub mod session;
pub mod solve;
pub mod spec;
pub mod symbolic;
