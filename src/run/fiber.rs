//! Fibers: stackful coroutines that let one OS thread run every invocation of a workgroup with
//! barriers. Each invocation gets its own stack. The workgroup's scheduler starts a round with
//! the first unfinished invocation; `spvkit_rt_control_barrier` (or the invocation's end)
//! switches straight to the next unfinished one in index order, and the round's last switches
//! back to the scheduler. A round thus resumes every unfinished invocation once, and each runs
//! to its next barrier or to its end, so no invocation passes a barrier before all others have
//! reached it: the barrier semantics, at the price of one register save/restore (a few
//! nanoseconds) per invocation and barrier instead of a thread switch.
//!
//! x86-64 System V only (the switch is eight instructions of assembly); elsewhere the runner
//! uses thread teams ([`super::dispatch`]). Stacks are `mmap`ed with a guard page below them, so
//! an overflow faults instead of corrupting a neighbour.

use super::context::InvocationContext;
use super::hooks::Runtime;
use super::jit::EntryFn;
use super::memory::AlignedBuf;
use std::arch::naked_asm;
use std::ffi::c_void;

/// Bytes of stack per invocation (Function-storage variables live there).
pub const STACK_SIZE: usize = 256 << 10;
const GUARD: usize = 4096;

extern "C" {
    fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, off: i64)
        -> *mut c_void;
    fn munmap(addr: *mut c_void, len: usize) -> i32;
    fn mprotect(addr: *mut c_void, len: usize, prot: i32) -> i32;
}
const PROT_NONE: i32 = 0;
const PROT_READ_WRITE: i32 = 1 | 2;
const MAP_PRIVATE_ANONYMOUS_NORESERVE: i32 = 0x02 | 0x20 | 0x4000;

/// Saves the callee-saved registers on the current stack, stores the stack pointer in `*save`,
/// switches to the stack `next` and restores the registers saved there.
#[unsafe(naked)]
unsafe extern "sysv64" fn switch(save: *mut usize, next: usize) {
    naked_asm!(
        "push rbp",
        "push rbx",
        "push r12",
        "push r13",
        "push r14",
        "push r15",
        "mov [rdi], rsp",
        "mov rsp, rsi",
        "pop r15",
        "pop r14",
        "pop r13",
        "pop r12",
        "pop rbx",
        "pop rbp",
        "ret",
    )
}

/// Where a new fiber's first `switch` returns to: calls `r13(r12)`, which never returns.
#[unsafe(naked)]
unsafe extern "sysv64" fn trampoline() {
    naked_asm!("mov rdi, r12", "call r13", "ud2")
}

/// What a fiber is doing, as the scheduler sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Ready to run (a new invocation, or released from a barrier).
    Ready,
    /// Suspended in a barrier.
    AtBarrier,
    /// The invocation returned.
    Done,
}

/// One invocation's fiber.
struct Slot {
    runtime: Runtime,
    sp: usize,
    scheduler_sp: *mut usize,
    /// The team's fibers in order, and this one's index there: a fiber that stops passes
    /// control straight to the next unfinished one (the scheduler only starts each round).
    ring: *const *mut Slot,
    ring_len: usize,
    index: usize,
    state: State,
    entry: EntryFn,
    ctx: InvocationContext,
    private: AlignedBuf,
    _stack: Stack,
}

/// An `mmap`ed stack with a guard page below it.
struct Stack {
    base: *mut c_void,
    len: usize,
}

impl Stack {
    fn new() -> Option<Stack> {
        let len = STACK_SIZE + GUARD;
        // SAFETY: an anonymous private mapping; the result is checked.
        let base = unsafe {
            mmap(
                std::ptr::null_mut(),
                len,
                PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS_NORESERVE,
                -1,
                0,
            )
        };
        if base as isize == -1 || base.is_null() {
            return None;
        }
        let stack = Stack { base, len };
        // SAFETY: the first page of our own mapping.
        if unsafe { mprotect(base, GUARD, PROT_NONE) } != 0 {
            return None;
        }
        Some(stack)
    }

    /// The highest 16-byte-aligned address of the stack.
    fn top(&self) -> usize {
        (self.base as usize + self.len) & !15
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: our own mapping; no fiber runs on it any more.
        unsafe { munmap(self.base, self.len) };
    }
}

/// The body of every fiber: run the invocation, report it done, wait to be resumed for the
/// next one (fibers are reused across workgroups).
unsafe extern "sysv64" fn fiber_main(slot: *mut Slot) {
    loop {
        // SAFETY: `slot` is the boxed slot that owns this fiber; the scheduler does not touch it
        // while the fiber runs.
        unsafe {
            ((*slot).entry)(&mut (*slot).ctx);
            (*slot).state = State::Done;
            pass_on(slot);
        }
    }
}

/// Suspends the running fiber `slot` and resumes the next unfinished fiber of this round (in
/// index order), or the scheduler when `slot` is the round's last.
///
/// # Safety
/// `slot` is the slot of the fiber running now, and its ring is live.
unsafe fn pass_on(slot: *mut Slot) {
    // SAFETY: per the contract; the ring holds the team's live slots.
    unsafe {
        let ring = std::slice::from_raw_parts((*slot).ring, (*slot).ring_len);
        for &next in &ring[(*slot).index + 1..] {
            if (*next).state != State::Done {
                (*next).state = State::Ready;
                switch(&mut (*slot).sp, (*next).sp);
                return;
            }
        }
        switch(&mut (*slot).sp, *(*slot).scheduler_sp);
    }
}

/// Called by the barrier hook on a fiber: suspend it until the scheduler's next round.
///
/// # Safety
/// `slot` is the slot (given to [`Runtime::fiber`]) of the fiber running now.
pub unsafe fn barrier(slot: *mut c_void) {
    let slot = slot as *mut Slot;
    // SAFETY: per the contract, the slot is live and this code runs on its fiber.
    unsafe {
        (*slot).state = State::AtBarrier;
        pass_on(slot);
    }
}

/// The fibers of one workgroup-sized team, driven by the thread that owns it.
pub struct Team {
    /// Boxed so that the fibers' pointers to their slots and to `scheduler_sp` stay valid
    /// whatever happens to the vector.
    #[allow(clippy::vec_box)]
    slots: Vec<Box<Slot>>,
    /// The slots' addresses in order (the fibers' ring); boxed, so it does not move.
    _ring: Box<[*mut Slot]>,
    scheduler_sp: Box<usize>,
}

impl Team {
    /// `size` fibers running `entry`, each with a Private block shaped like `private` and a
    /// context copied from `base` (its `runtime` is set per fiber, with its stack and
    /// `memory`, which must outlive the team). `None` when memory runs out.
    pub fn new(
        size: usize,
        entry: EntryFn,
        base: &InvocationContext,
        private: &crate::lower::MemoryBlock,
        memory: &super::hooks::MemoryMap,
    ) -> Option<Team> {
        let mut scheduler_sp = Box::new(0usize);
        let mut slots = Vec::with_capacity(size);
        for _ in 0..size {
            let stack = Stack::new()?;
            let top = stack.top();
            let block = AlignedBuf::from_bytes(
                &private.init,
                usize::try_from(private.size).ok()?,
                private.align,
            )?;
            let mut slot = Box::new(Slot {
                runtime: Runtime::fiber(std::ptr::null_mut()),
                sp: 0,
                scheduler_sp: &mut *scheduler_sp,
                ring: std::ptr::null(),
                ring_len: size,
                index: slots.len(),
                state: State::Done,
                entry,
                ctx: *base,
                private: block,
                _stack: stack,
            });
            let raw: *mut Slot = &mut *slot;
            slot.runtime = Runtime::fiber(raw as *mut c_void).with_memory(memory, top);
            slot.ctx.private_memory = slot.private.as_ptr();
            slot.ctx.runtime = slot.runtime.as_ctx_ptr();
            // The first switch pops r15, r14, r13 (fiber_main), r12 (the slot), rbx, rbp and
            // returns to the trampoline with a 16-byte-aligned stack.
            let sp = top - 72;
            let frame = [
                0,
                0,
                fiber_main as unsafe extern "sysv64" fn(*mut Slot) as usize,
                raw as usize,
                0,
                0,
                trampoline as unsafe extern "sysv64" fn() as usize,
            ];
            for (i, word) in frame.iter().enumerate() {
                // SAFETY: inside the stack mapping, above the guard page.
                unsafe { *((sp + 8 * i) as *mut usize) = *word };
            }
            slot.sp = sp;
            slots.push(slot);
        }
        let ring: Box<[*mut Slot]> = slots.iter_mut().map(|s| &mut **s as *mut Slot).collect();
        for slot in slots.iter_mut() {
            slot.ring = ring.as_ptr();
        }
        Some(Team {
            slots,
            _ring: ring,
            scheduler_sp,
        })
    }

    /// Runs one workgroup: `setup(index, ctx)` fills each invocation's ids, then the fibers run
    /// round-robin until all have returned.
    pub fn run_workgroup(
        &mut self,
        private_init: &[u8],
        mut setup: impl FnMut(u64, &mut InvocationContext),
    ) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            slot.private.fill_from(private_init);
            setup(index as u64, &mut slot.ctx);
            slot.state = State::Ready;
        }
        // Each round resumes the first unfinished fiber; every fiber that stops passes on to
        // the next unfinished one, and the round's last switches back here.
        while let Some(slot) = self.slots.iter_mut().find(|s| s.state != State::Done) {
            slot.state = State::Ready;
            let next = slot.sp;
            // SAFETY: `next` is the fiber's saved stack; the round ends with a switch back here
            // before this loop touches any slot again.
            unsafe { switch(&mut *self.scheduler_sp, next) };
        }
    }
}
