//! The wall time during which instances were running on the backend (at least one method's batch
//! in flight), and how many ran: the throughput `jresa validate` reports for its backend.
//! Methods are validated in parallel, so summing each batch's time would count overlaps twice.

use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Default)]
struct State {
    running: usize,
    since: Option<Instant>,
    total: Duration,
    instances: u64,
}

static STATE: Mutex<State> = Mutex::new(State {
    running: 0,
    since: None,
    total: Duration::ZERO,
    instances: 0,
});

/// Runs `batch` (which executes `instances` instances) under the clock.
pub(crate) fn timed<T>(instances: usize, batch: impl FnOnce() -> T) -> T {
    if let Ok(mut state) = STATE.lock() {
        if state.running == 0 {
            state.since = Some(Instant::now());
        }
        state.running += 1;
        state.instances += instances as u64;
    }
    let result = batch();
    if let Ok(mut state) = STATE.lock() {
        state.running -= 1;
        if state.running == 0 {
            if let Some(since) = state.since.take() {
                state.total += since.elapsed();
            }
        }
    }
    result
}

/// Instances run so far in this process, and the wall time they took.
pub fn execution_totals() -> (u64, Duration) {
    STATE.lock().map(|s| (s.instances, s.total)).unwrap_or_default()
}
