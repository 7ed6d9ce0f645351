//! Tempo's programming model for bounded-exhaustive generation: a generator is a program that calls
//! [`Choices::choice`]`(min, max)` for each non-deterministic decision and
//! [`Choices::ignore_if`]`(condition)` to discard a path, and exploration runs it once per path.
//!
//! Every complete path has a number, its **instance number**: the choices read as a mixed-radix
//! number, first choice least significant (`c1 + r1*(c2 + r2*(c3 + ...))`, with `ck` the offset of
//! the k-th choice from its `min` and `rk` the size of its range). Two strategies find the same
//! paths with the same numbers:
//!
//! - **by index** (re-execution by index): instance `k` is decoded from `k` alone, each choice
//!   taking `k mod r` and dividing `k` by `r`; `k` is a path's number exactly when nothing is left
//!   over at the end. Indices are tried in increasing order up to the largest product of ranges met
//!   on a decoded path, which is complete: the prefixes of any path's number decode to paths that
//!   raise that product past the path's next digit (see `explore_by_index`).
//! - **worklist** (fork): each program run follows a known prefix of choices and stops at the first
//!   choice past it, which forks one new prefix per value; the frontier runs in parallel, level by
//!   level.
//!
//! **The set of (number, value) pairs does not depend on the strategy, nor on the number of
//! threads; results are sorted by number, and `decode(k)` replays instance `k` alone.**

use rayon::prelude::*;

/// Why a run of a generator stopped before completing its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// `ignore_if` held, or a choice had an empty range: the path is not an instance.
    Ignored,
    /// The worklist strategy met a choice past its prefix (internal to exploration).
    Fork { min: i64, max: i64 },
}

/// How a run makes its choices.
#[derive(Clone, Debug)]
enum Mode {
    /// Decoding an instance number: what is left of it.
    Index { rest: u128 },
    /// Following a prefix of choice values, stopping at the first choice past it.
    Prefix { prefix: Vec<i64>, next: usize },
}

/// The choices of one run of a generator.
#[derive(Clone, Debug)]
pub struct Choices {
    mode: Mode,
    /// Per choice made: its offset from `min` and the size of its range.
    digits: Vec<(u128, u128)>,
    /// The product of the ranges of the choices made (saturating).
    product: u128,
}

impl Choices {
    fn new(mode: Mode) -> Choices {
        Choices {
            mode,
            digits: Vec::new(),
            product: 1,
        }
    }

    /// A value in `min..=max`, one path per value. An empty range ends the path as ignored.
    pub fn choice(&mut self, min: i64, max: i64) -> Result<i64, Stop> {
        if max < min {
            return Err(Stop::Ignored);
        }
        let range = (i128::from(max) - i128::from(min) + 1) as u128;
        let offset = match &mut self.mode {
            Mode::Index { rest } => {
                let offset = *rest % range;
                *rest /= range;
                offset
            }
            Mode::Prefix { prefix, next } => {
                let Some(&value) = prefix.get(*next) else {
                    return Err(Stop::Fork { min, max });
                };
                *next += 1;
                if value < min || value > max {
                    return Err(Stop::Ignored);
                }
                (i128::from(value) - i128::from(min)) as u128
            }
        };
        self.digits.push((offset, range));
        self.product = self.product.saturating_mul(range);
        Ok((i128::from(min) + offset as i128) as i64)
    }

    /// Ends the path as ignored when `condition` holds (Tempo's `_ignoreIf`).
    pub fn ignore_if(&mut self, condition: bool) -> Result<(), Stop> {
        if condition {
            Err(Stop::Ignored)
        } else {
            Ok(())
        }
    }

    /// A boolean choice.
    pub fn choose_bool(&mut self) -> Result<bool, Stop> {
        Ok(self.choice(0, 1)? == 1)
    }

    /// The number of the path taken so far (`None` when it does not fit 128 bits).
    fn number(&self) -> Option<u128> {
        let mut number: u128 = 0;
        for &(offset, range) in self.digits.iter().rev() {
            number = number.checked_mul(range)?.checked_add(offset)?;
        }
        Some(number)
    }
}

/// One generated instance and its number.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated<T> {
    pub number: u128,
    pub value: T,
}

/// Exploration found more than its limit allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooMany {
    /// Instances (or candidates) found before stopping.
    pub at_least: usize,
}

/// Exploration strategies (they find the same instances).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    ByIndex,
    Worklist,
}

impl Strategy {
    pub fn name(self) -> &'static str {
        match self {
            Strategy::ByIndex => "index",
            Strategy::Worklist => "worklist",
        }
    }
}

/// Indices decoded per parallel step of `explore_by_index`.
const INDEX_CHUNK: u128 = 4096;

/// Indices `explore_by_index` may decode per instance of its limit before it gives up on a space
/// too sparse (a path's ranges multiply much faster than its siblings multiply).
const MAX_SPARSITY: usize = 512;

/// Runs the generator with the instance number `number`: the instance, or `None` when `number` is
/// no path's number (something is left over, or the path is ignored).
pub fn decode<T>(program: &(dyn Fn(&mut Choices) -> Result<T, Stop> + Sync), number: u128) -> Option<T> {
    let mut choices = Choices::new(Mode::Index { rest: number });
    let value = program(&mut choices).ok()?;
    matches!(choices.mode, Mode::Index { rest: 0 }).then_some(value)
}

/// Every instance of the generator, by decoding numbers `0, 1, 2, ...` (in parallel chunks) up to
/// the largest product of ranges seen on a decoded path. Complete: for a path `(c1..cn)` with
/// ranges `(r1..rn)`, the number of its first `j` choices (the rest zero) decodes to a path that
/// shares them and reaches choice `j+1`, whose product of ranges is at least `r1*...*r(j+1)`,
/// which exceeds the number of its first `j+1` choices; by induction the search reaches the
/// path's own number. `Err` when more than `limit` instances exist.
pub fn explore_by_index<T: Send>(
    program: &(dyn Fn(&mut Choices) -> Result<T, Stop> + Sync),
    limit: usize,
) -> Result<Vec<Generated<T>>, TooMany> {
    let mut found = Vec::new();
    let mut bound: u128 = 1;
    let mut next: u128 = 0;
    let max_decoded = (limit as u128 + 1).saturating_mul(MAX_SPARSITY as u128) + INDEX_CHUNK;
    while next < bound {
        if next >= max_decoded {
            return Err(TooMany {
                at_least: found.len().max(limit + 1),
            });
        }
        let end = bound.min(next + INDEX_CHUNK);
        let chunk: Vec<(u128, Option<T>)> = (0..(end - next) as u64)
            .into_par_iter()
            .map(|k| {
                let number = next + u128::from(k);
                let mut choices = Choices::new(Mode::Index { rest: number });
                let result = program(&mut choices);
                let complete = matches!(choices.mode, Mode::Index { rest: 0 });
                (choices.product, result.ok().filter(|_| complete))
            })
            .collect();
        for (k, (product, value)) in chunk.into_iter().enumerate() {
            bound = bound.max(product);
            if let Some(value) = value {
                found.push(Generated {
                    number: next + k as u128,
                    value,
                });
            }
        }
        if found.len() > limit {
            return Err(TooMany { at_least: found.len() });
        }
        next = end;
    }
    Ok(found)
}

/// A prefix of choices run by the worklist, and what the generator did with it: an instance with
/// its number (`None` past 128 bits) or a stop.
type PrefixRun<T> = (Vec<i64>, Result<(Option<u128>, T), Stop>);

/// Every instance of the generator, by forking at each new choice (a worklist of prefixes run
/// level by level in parallel). `Err` when more than `limit` instances exist (or the frontier
/// grows past what `limit` instances could need).
pub fn explore_worklist<T: Send>(
    program: &(dyn Fn(&mut Choices) -> Result<T, Stop> + Sync),
    limit: usize,
) -> Result<Vec<Generated<T>>, TooMany> {
    let mut found: Vec<Generated<T>> = Vec::new();
    let mut frontier: Vec<Vec<i64>> = vec![Vec::new()];
    let frontier_limit = limit.saturating_mul(MAX_SPARSITY).saturating_add(1024);
    while !frontier.is_empty() {
        let results: Vec<PrefixRun<T>> = frontier
            .into_par_iter()
            .map(|prefix| {
                let mut choices = Choices::new(Mode::Prefix {
                    prefix: prefix.clone(),
                    next: 0,
                });
                let result = program(&mut choices).map(|value| (choices.number(), value));
                (prefix, result)
            })
            .collect();
        let mut next = Vec::new();
        for (prefix, result) in results {
            match result {
                Ok((Some(number), value)) => found.push(Generated { number, value }),
                // A number past 128 bits cannot be replayed: too many instances anyway.
                Ok((None, _)) => return Err(TooMany { at_least: limit + 1 }),
                Err(Stop::Ignored) => {}
                Err(Stop::Fork { min, max }) => {
                    for value in min..=max {
                        let mut longer = prefix.clone();
                        longer.push(value);
                        next.push(longer);
                        if next.len() > frontier_limit {
                            return Err(TooMany {
                                at_least: found.len().max(limit + 1),
                            });
                        }
                    }
                }
            }
            if found.len() > limit {
                return Err(TooMany { at_least: found.len() });
            }
        }
        frontier = next;
    }
    found.sort_by_key(|g| g.number);
    Ok(found)
}

/// Every instance of the generator with the chosen strategy.
pub fn explore<T: Send>(
    program: &(dyn Fn(&mut Choices) -> Result<T, Stop> + Sync),
    strategy: Strategy,
    limit: usize,
) -> Result<Vec<Generated<T>>, TooMany> {
    match strategy {
        Strategy::ByIndex => explore_by_index(program, limit),
        Strategy::Worklist => explore_worklist(program, limit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tempo's binary-tree shape generator (Fig. 3 of the paper): a tree of `size` nodes whose
    /// left subtree size is chosen at every node, each node with a value in `0..=1`; written as the
    /// pre-order list of (value, left size).
    fn tree(choices: &mut Choices, size: i64, out: &mut Vec<(i64, i64)>) -> Result<(), Stop> {
        if size == 0 {
            return Ok(());
        }
        let value = choices.choice(0, 1)?;
        let left = choices.choice(0, size - 1)?;
        out.push((value, left));
        tree(choices, left, out)?;
        tree(choices, size - 1 - left, out)
    }

    fn trees(choices: &mut Choices) -> Result<Vec<(i64, i64)>, Stop> {
        let size = choices.choice(0, 3)?;
        let mut out = Vec::new();
        tree(choices, size, &mut out)?;
        Ok(out)
    }

    /// Arrays of length 0..=3 over -1..=2 that are sorted (ignore_if prunes the others).
    fn sorted_arrays(choices: &mut Choices) -> Result<Vec<i64>, Stop> {
        let length = choices.choice(0, 3)?;
        let mut out: Vec<i64> = Vec::new();
        for _ in 0..length {
            let value = choices.choice(-1, 2)?;
            choices.ignore_if(out.last().is_some_and(|&last| last > value))?;
            out.push(value);
        }
        Ok(out)
    }

    #[test]
    fn both_strategies_find_the_same_numbered_instances() {
        let by_index = explore_by_index(&trees, 100_000).expect("within the limit");
        let worklist = explore_worklist(&trees, 100_000).expect("within the limit");
        assert_eq!(by_index, worklist);
        // Catalan numbers times 2^nodes: 1 + 1*2 + 2*4 + 5*8.
        assert_eq!(by_index.len(), 1 + 2 + 8 + 40);
        let sorted_index = explore_by_index(&sorted_arrays, 1000).expect("within the limit");
        let sorted_worklist = explore_worklist(&sorted_arrays, 1000).expect("within the limit");
        assert_eq!(sorted_index, sorted_worklist);
        // Multisets of size <= 3 over 4 values: 1 + 4 + 10 + 20.
        assert_eq!(sorted_index.len(), 35);
        assert!(sorted_index.iter().all(|g| g.value.windows(2).all(|w| w[0] <= w[1])));
    }

    #[test]
    fn every_number_decodes_to_its_instance_and_others_to_nothing() {
        let all = explore_worklist(&trees, 100_000).expect("within the limit");
        for generated in &all {
            assert_eq!(decode(&trees, generated.number), Some(generated.value.clone()));
        }
        let numbers: std::collections::HashSet<u128> = all.iter().map(|g| g.number).collect();
        let largest = all.iter().map(|g| g.number).max().unwrap_or(0);
        for number in 0..=largest + 10 {
            assert_eq!(
                decode(&trees, number).is_some(),
                numbers.contains(&number),
                "number {number}"
            );
        }
    }

    #[test]
    fn exploration_stops_past_its_limit() {
        assert!(explore_by_index(&trees, 10).is_err());
        assert!(explore_worklist(&trees, 10).is_err());
        assert!(explore_worklist(&trees, 51).is_ok());
    }
}
