//! Typed-handle storage: [`Arena`] (append-only, handles never dangle while the arena lives),
//! [`UniqueArena`] (the same, but equal values share one handle), and [`Handle`].

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::num::NonZeroU32;

/// An index into an [`Arena`] or [`UniqueArena`] of `T`.
///
/// Stored as `index + 1` so that `Option<Handle<T>>` is as small as a handle.
pub struct Handle<T> {
    index: NonZeroU32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the `index`th element. Panics if `index` is `u32::MAX` (no arena is that
    /// large).
    pub fn new(index: usize) -> Self {
        let i = u32::try_from(index)
            .ok()
            .and_then(|i| i.checked_add(1))
            .and_then(NonZeroU32::new)
            .expect("arena index fits in u32");
        Handle {
            index: i,
            marker: PhantomData,
        }
    }

    /// The handle of the `index`th element, if `index` is representable.
    pub fn try_new(index: usize) -> Option<Self> {
        let i = u32::try_from(index).ok()?.checked_add(1)?;
        Some(Handle {
            index: NonZeroU32::new(i)?,
            marker: PhantomData,
        })
    }

    /// The element's position in its arena.
    #[inline]
    pub fn index(self) -> usize {
        (self.index.get() - 1) as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.index())
    }
}

/// An append-only vector addressed by [`Handle`]s.
#[derive(Clone, PartialEq, Eq)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { items: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Arena { items: Vec::new() }
    }

    /// Gives back the room beyond the elements (for arenas that are done growing).
    pub fn shrink_to_fit(&mut self) {
        self.items.shrink_to_fit();
    }

    /// The elements in handle order, the arena consumed (for passes that rebuild an arena in
    /// a new order).
    pub fn into_iter_values(self) -> impl Iterator<Item = T> {
        self.items.into_iter()
    }

    /// An empty arena with room for `n` elements.
    pub fn with_capacity(n: usize) -> Self {
        Arena {
            items: Vec::with_capacity(n),
        }
    }

    /// Adds an element and returns its handle.
    #[inline]
    pub fn append(&mut self, value: T) -> Handle<T> {
        let h = Handle::new(self.items.len());
        self.items.push(value);
        h
    }

    /// Adds an element made by `f` in place (cheaper than [`Arena::append`] for large
    /// elements built from small parts) and returns its handle.
    #[inline]
    pub fn append_with(&mut self, f: impl FnMut() -> T) -> Handle<T> {
        let h = Handle::new(self.items.len());
        self.items.resize_with(self.items.len() + 1, f);
        h
    }

    /// Removes the last element if `h` is its handle (an element built speculatively and not
    /// referred to); returns whether it did.
    pub fn pop_if_last(&mut self, h: Handle<T>) -> bool {
        let last = h.index() + 1 == self.items.len();
        if last {
            self.items.pop();
        }
        last
    }

    /// The handle the next [`Arena::append`] will return.
    pub fn next_handle(&self) -> Handle<T> {
        Handle::new(self.items.len())
    }

    /// The element, if the handle is from this arena.
    #[inline]
    pub fn get(&self, h: Handle<T>) -> Option<&T> {
        self.items.get(h.index())
    }

    /// The element, mutably, if the handle is from this arena.
    #[inline]
    pub fn get_mut(&mut self, h: Handle<T>) -> Option<&mut T> {
        self.items.get_mut(h.index())
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Handles and elements, in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> + '_ {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }

    /// Handles and mutable elements, in insertion order.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Handle<T>, &mut T)> + '_ {
        self.items
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }

    /// Every handle, in insertion order.
    pub fn handles(&self) -> impl ExactSizeIterator<Item = Handle<T>> {
        (0..self.items.len()).map(Handle::new)
    }

    /// The elements as a slice, in insertion order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<T> core::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    #[inline]
    fn index(&self, h: Handle<T>) -> &T {
        &self.items[h.index()]
    }
}

impl<T> core::ops::IndexMut<Handle<T>> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, h: Handle<T>) -> &mut T {
        &mut self.items[h.index()]
    }
}

/// A `HashMap` with the Fx hash (rustc's) for the uniquing index: keys are small IR values,
/// never attacker-chosen in a way that matters for a compiler.
pub(crate) type FxHashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// An arena where equal values share one handle: [`UniqueArena::insert`] returns the existing
/// handle of an equal value. [`UniqueArena::reserve`] adds an element outside the index (for
/// a value that is not known yet, such as a forward-declared pointer type), and
/// [`UniqueArena::replace`] fills it in later.
///
/// Equality of two arenas compares their elements in order; the index is derived data.
#[derive(Clone)]
pub struct UniqueArena<T> {
    items: Vec<T>,
    index: FxHashMap<T, Handle<T>>,
}

impl<T> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            items: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<T: PartialEq> PartialEq for UniqueArena<T> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}
impl<T: Eq> Eq for UniqueArena<T> {}

impl<T: fmt::Debug> fmt::Debug for UniqueArena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (Handle::<T>::new(i), v)),
            )
            .finish()
    }
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// The handle of a value equal to `value`, adding it if there is none.
    pub fn insert(&mut self, value: T) -> Handle<T> {
        use std::collections::hash_map::Entry;
        let next = Handle::new(self.items.len());
        match self.index.entry(value) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                self.items.push(e.key().clone());
                e.insert(next);
                next
            }
        }
    }

    /// Adds `value` with a handle of its own even if an equal value exists (for types with
    /// identity, such as structs); [`UniqueArena::insert`] of an equal value later returns
    /// the first one.
    pub fn append(&mut self, value: T) -> Handle<T> {
        let h = Handle::new(self.items.len());
        self.items.push(value.clone());
        self.index.entry(value).or_insert(h);
        h
    }

    /// The handle of a value equal to `value`, if there is one.
    pub fn find(&self, value: &T) -> Option<Handle<T>> {
        self.index.get(value).copied()
    }

    /// Adds `placeholder` without uniquing it, to be [`UniqueArena::replace`]d later.
    pub fn reserve(&mut self, placeholder: T) -> Handle<T> {
        let h = Handle::new(self.items.len());
        self.items.push(placeholder);
        h
    }

    /// Sets the element at `h` (a reserved one) and indexes it unless an equal value already
    /// has a handle. Returns `false` if `h` is not from this arena.
    pub fn replace(&mut self, h: Handle<T>, value: T) -> bool {
        let Some(slot) = self.items.get_mut(h.index()) else {
            return false;
        };
        *slot = value.clone();
        self.index.entry(value).or_insert(h);
        true
    }
}

impl<T> UniqueArena<T> {
    /// The element, if the handle is from this arena.
    #[inline]
    pub fn get(&self, h: Handle<T>) -> Option<&T> {
        self.items.get(h.index())
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Handles and elements, in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> + '_ {
        self.items
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }

    /// Every handle, in insertion order.
    pub fn handles(&self) -> impl ExactSizeIterator<Item = Handle<T>> {
        (0..self.items.len()).map(Handle::new)
    }

    /// The elements as a slice, in insertion order.
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<T> core::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    #[inline]
    fn index(&self, h: Handle<T>) -> &T {
        &self.items[h.index()]
    }
}

/// Pushes onto a vector that mostly holds one element: a first element gets room for one
/// only (not the four of `Vec::push`), as most results have a single decoration.
pub(crate) trait PushOne<T> {
    /// Appends `x`.
    fn push_one(&mut self, x: T);
}

impl<T> PushOne<T> for Vec<T> {
    #[inline]
    fn push_one(&mut self, x: T) {
        if self.capacity() == 0 {
            self.reserve_exact(1);
        }
        self.push(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_arena_merges_equal_values() {
        let mut a = UniqueArena::new();
        let x = a.insert(3u32);
        let y = a.insert(4u32);
        assert_eq!(a.insert(3u32), x);
        assert_ne!(x, y);
        let r = a.reserve(0);
        assert!(a.replace(r, 5));
        assert_eq!(a.insert(5), r);
        assert_eq!(a.len(), 3);
        assert_eq!(core::mem::size_of::<Option<Handle<u8>>>(), 4);
    }
}
