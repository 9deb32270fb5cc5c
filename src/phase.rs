//! Phase reports for profiling whole commands. The library only says when a phase of a command
//! ends; it neither reads the environment nor prints. Whoever wants the figures installs a
//! [`PhaseHook`] once (the `spvkit` CLI does when `SPVKIT_TIMES` is set) and gets each phase's
//! command, name and duration.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Called at the end of each phase with the command (`"lower"`), the phase (`"decode"`) and how
/// long it took.
pub type PhaseHook = fn(command: &str, phase: &str, elapsed: Duration);

static HOOK: OnceLock<PhaseHook> = OnceLock::new();

/// Installs the process-wide phase hook; `false` when one was already installed.
pub fn set_hook(hook: PhaseHook) -> bool {
    HOOK.set(hook).is_ok()
}

/// Reports that phase `name` of command `cmd`, begun at `since`, has ended; nothing unless a
/// hook is installed.
#[inline]
pub fn report(cmd: &str, name: &str, since: Instant) {
    if let Some(hook) = HOOK.get() {
        hook(cmd, name, since.elapsed());
    }
}
