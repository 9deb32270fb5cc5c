//! The workgroup barrier behind `OpControlBarrier`: every still-running invocation of a
//! workgroup waits until all of them have arrived. It is reusable (a generation counter), and an
//! invocation that returns leaves it, so that the others are released instead of deadlocking on
//! an invocation that exited early (undefined in SPIR-V; this is what GPUs commonly do).

use std::sync::{Condvar, Mutex, MutexGuard};

/// A reusable barrier over a changing number of participants.
#[derive(Debug)]
pub struct WorkgroupBarrier {
    state: Mutex<State>,
    released: Condvar,
}

#[derive(Debug)]
struct State {
    /// Participants still running.
    active: usize,
    /// Participants waiting in the current generation.
    waiting: usize,
    /// Incremented each time the waiters are released.
    generation: u64,
}

impl WorkgroupBarrier {
    /// A barrier for `participants` invocations.
    pub fn new(participants: usize) -> WorkgroupBarrier {
        WorkgroupBarrier {
            state: Mutex::new(State {
                active: participants,
                waiting: 0,
                generation: 0,
            }),
            released: Condvar::new(),
        }
    }

    /// The state; a poisoned lock is still consistent (no code here panics while holding it).
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Restarts the barrier for a new workgroup of `participants` invocations. Only called while
    /// nobody waits.
    pub fn reset(&self, participants: usize) {
        let mut s = self.lock();
        s.active = participants;
        s.waiting = 0;
    }

    /// Arrives and waits until every active participant has arrived.
    pub fn wait(&self) {
        let mut s = self.lock();
        s.waiting += 1;
        if s.waiting >= s.active {
            Self::release(&mut s);
            self.released.notify_all();
            return;
        }
        let generation = s.generation;
        while s.generation == generation {
            s = self.released.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Leaves for good (the invocation returned); releases the others if they all wait.
    pub fn leave(&self) {
        let mut s = self.lock();
        s.active = s.active.saturating_sub(1);
        if s.waiting > 0 && s.waiting >= s.active {
            Self::release(&mut s);
            self.released.notify_all();
        }
    }

    fn release(s: &mut State) {
        s.waiting = 0;
        s.generation = s.generation.wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::WorkgroupBarrier;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn nobody_passes_before_everyone_arrives() {
        let n = 8;
        let barrier = WorkgroupBarrier::new(n);
        let arrived = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..n {
                s.spawn(|| {
                    for round in 1..=50 {
                        arrived.fetch_add(1, Ordering::SeqCst);
                        barrier.wait();
                        assert!(arrived.load(Ordering::SeqCst) >= round * n);
                        barrier.wait();
                    }
                    barrier.leave();
                });
            }
        });
        assert_eq!(arrived.load(Ordering::SeqCst), 50 * n);
    }

    #[test]
    fn an_early_exit_releases_the_others() {
        let barrier = WorkgroupBarrier::new(3);
        std::thread::scope(|s| {
            s.spawn(|| barrier.leave());
            s.spawn(|| {
                barrier.wait();
                barrier.leave();
            });
            s.spawn(|| {
                barrier.wait();
                barrier.leave();
            });
        });
    }

    #[test]
    fn a_single_participant_never_blocks() {
        let barrier = WorkgroupBarrier::new(1);
        barrier.wait();
        barrier.wait();
        barrier.reset(1);
        barrier.wait();
    }
}
