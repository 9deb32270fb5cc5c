//! Aligned, heap-allocated byte blocks: buffers, Workgroup and Private memory. The lowered code
//! may assume the alignment the lowering reports (vector loads of 16 bytes), which `Vec<u8>`
//! does not promise, so the runner allocates with an explicit `Layout`.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::ptr::NonNull;

/// The least alignment of every block: covers every vector and scalar type of the lowering.
pub const MIN_ALIGN: usize = 64;

/// A zero-initialised block of `len` bytes aligned to at least [`MIN_ALIGN`].
#[derive(Debug)]
pub struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
    layout: Layout,
}

// SAFETY: the block is plain bytes owned by this value; concurrent access from JIT-compiled code
// is the shader's business (as on a GPU), and the runner synchronises its own writes with
// barriers and thread joins.
unsafe impl Send for AlignedBuf {}
// SAFETY: as above.
unsafe impl Sync for AlignedBuf {}

impl AlignedBuf {
    /// Allocates `len` zero bytes aligned to `align` (rounded up to a power of two and to
    /// [`MIN_ALIGN`]); `None` when the size is impossible or memory runs out.
    pub fn zeroed(len: usize, align: u64) -> Option<AlignedBuf> {
        let align =
            usize::try_from(align.max(MIN_ALIGN as u64).checked_next_power_of_two()?).ok()?;
        // One byte at least, so that even an empty block has a distinct, valid address.
        let layout = Layout::from_size_align(len.max(1), align).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { alloc_zeroed(layout) })?;
        Some(AlignedBuf { ptr, len, layout })
    }

    /// A block holding a copy of `bytes`, `len` bytes long (`len >= bytes.len()`; the rest zero).
    pub fn from_bytes(bytes: &[u8], len: usize, align: u64) -> Option<AlignedBuf> {
        let buf = AlignedBuf::zeroed(len.max(bytes.len()), align)?;
        // Zeroed memory needs only the image copied (fresh pages stay untouched past it).
        // SAFETY: the block holds at least `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.as_ptr(), bytes.len()) };
        Some(buf)
    }

    /// The block's start, for the lowered code.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the block is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Resets the block to `init` (zero-filled past its end, or entirely when it is empty).
    ///
    /// Callers make sure no invocation uses the block meanwhile (a workgroup between two
    /// workgroups, an invocation's private block before it starts).
    pub fn fill_from(&self, init: &[u8]) {
        let n = init.len().min(self.len);
        // SAFETY: both ranges lie inside the allocation and do not overlap (init is not ours:
        // callers pass images owned elsewhere).
        unsafe {
            std::ptr::copy_nonoverlapping(init.as_ptr(), self.ptr.as_ptr(), n);
            std::ptr::write_bytes(self.ptr.as_ptr().add(n), 0, self.len - n);
        }
    }

    /// A copy of the contents.
    pub fn to_vec(&self) -> Vec<u8> {
        // SAFETY: `len` bytes from `ptr` are allocated and initialised; no invocation runs when
        // the runner reads results back.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }.to_vec()
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::AlignedBuf;

    #[test]
    fn blocks_are_aligned_and_reset() {
        let b = AlignedBuf::from_bytes(&[1, 2, 3], 8, 128).unwrap();
        assert_eq!(b.as_ptr() as usize % 128, 0);
        assert_eq!(b.to_vec(), [1, 2, 3, 0, 0, 0, 0, 0]);
        b.fill_from(&[9]);
        assert_eq!(b.to_vec(), [9, 0, 0, 0, 0, 0, 0, 0]);
        let empty = AlignedBuf::zeroed(0, 1).unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.as_ptr() as usize % 64, 0);
        assert!(AlignedBuf::zeroed(16, u64::MAX).is_none());
    }
}
