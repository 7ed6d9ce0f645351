//! Budgets of the value analysis, each with the reason for its value.

/// Updates of a procedure's pre- or post-condition that are plain joins before widening starts.
/// Two joins let a loop's first iterations (entry, one pass, two passes) settle the constraints
/// that do not grow, so that widening only drops the ones that do.
pub const WIDENING_DELAY: usize = 2;

/// Updates after which a procedure's condition is set to the universe. Widening makes chains
/// finite, but the thresholds and joins can still take many steps on large procedures; the
/// universe is always sound, so this only trades precision for a guaranteed end.
pub const MAX_UPDATES: usize = 40;

/// Rule evaluations one fixpoint may perform. A class's methods and the library methods they call
/// need a few thousand; far more means joins that keep growing (big constants multiplied in a
/// loop, huge methods), and the analysis then stops and reports every bound as unknown rather
/// than taking minutes or gigabytes.
pub const MAX_EVALUATIONS: usize = 20_000;
