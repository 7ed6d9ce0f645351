//! Cycle detection for the execution check of non-termination witnesses: Brent's algorithm over
//! the machine's state at each procedure call (in packaged code, a loop's iteration is a call of
//! its procedure, and a recursion's is a call of its method's).
//!
//! **A repetition is claimed only when two states are equal word for word: the program counter,
//! frames, operand stacks, the heap words the instance changed or allocated, statics, class states,
//! class mirrors and interned strings.** The interpreter being deterministic, the run then never
//! ends. States whose changed heap exceeds `MAX_SNAPSHOT_WORDS` are not compared.

use super::{Flow, Machine, PAGE_SHIFT};

/// Words a state may have to be compared (past this, no repetition is looked for).
const MAX_SNAPSHOT_WORDS: usize = 1 << 20;

/// Brent's tortoise and the distance to it.
#[derive(Default)]
pub(crate) struct Watch {
    tortoise: Vec<u32>,
    power: u64,
    distance: u64,
    /// Calls between two equal states, once seen.
    pub(crate) period: Option<u64>,
}

impl Machine<'_> {
    /// Runs one instance like [`Machine::run`], watching for a state that repeats; the outcome
    /// and, when the run stopped because its state repeated, the calls between the two.
    pub fn run_watching(&mut self, launcher: u32, args: &[crate::Value]) -> (crate::Outcome, Option<u64>) {
        self.watch = Some(Box::new(Watch {
            power: 1,
            ..Watch::default()
        }));
        let outcome = self.run(launcher, args);
        let period = self.watch.take().and_then(|w| w.period);
        (outcome, period)
    }

    /// At a procedure call: ends the run (as a step limit) when the state equals the tortoise.
    pub(crate) fn observe_state(&mut self) -> Flow {
        let Some(snapshot) = self.snapshot() else {
            return Ok(());
        };
        let Some(watch) = self.watch.as_mut() else {
            return Ok(());
        };
        if watch.distance > 0 && snapshot == watch.tortoise {
            watch.period = Some(watch.distance);
            return Err(super::Exit::StepLimit);
        }
        if watch.distance == watch.power {
            watch.tortoise = snapshot;
            watch.power *= 2;
            watch.distance = 0;
        }
        watch.distance += 1;
        Ok(())
    }

    /// The state's words, or `None` when there are too many to compare.
    fn snapshot(&self) -> Option<Vec<u32>> {
        let grown = self.heap.len().saturating_sub(self.image_len);
        let pages = self.dirty_pages.len() << PAGE_SHIFT;
        if self.sp + self.frames.len() + grown + pages > MAX_SNAPSHOT_WORDS {
            return None;
        }
        let mut words = vec![self.pc as u32, self.sp as u32, self.base as u32, self.init_depth];
        words.extend_from_slice(&self.stack[..self.sp]);
        words.push(self.frames.len() as u32);
        words.extend_from_slice(&self.frames);
        words.push(self.heap.len() as u32);
        words.extend_from_slice(&self.heap[self.image_len.min(self.heap.len())..]);
        let mut dirty = self.dirty_pages.clone();
        dirty.sort_unstable();
        for page in dirty {
            let start = (page as usize) << PAGE_SHIFT;
            let end = (start + (1 << PAGE_SHIFT)).min(self.image_len).min(self.heap.len());
            words.push(page);
            words.extend_from_slice(&self.heap[start.min(end)..end]);
        }
        words.push(self.statics.len() as u32);
        words.extend_from_slice(&self.statics);
        words.extend(self.class_state.iter().map(|s| u32::from(*s)));
        words.push(self.mirrors.len() as u32);
        words.extend_from_slice(&self.mirrors);
        words.push(self.interned.len() as u32);
        words.extend_from_slice(&self.interned);
        Some(words)
    }
}
