//! Id-indexed tables whose memory is bounded by the input, never by the header's claimed id
//! bound: a vector while ids stay below a limit derived from the module's size, a hash map
//! beyond. Shared by every layer that keeps something per id.

use rustc_hash::FxHashMap;

/// Values by id; ids never set read as `T::default()`.
#[derive(Clone, Debug, Default)]
pub struct IdMap<T> {
    dense: Vec<T>,
    sparse: FxHashMap<u32, T>,
    limit: usize,
}

impl<T: Copy + Default> IdMap<T> {
    /// A table for a module of `words` words whose header claims id bound `bound`: dense up to
    /// the smaller of the bound and twice the words (plus a little).
    pub fn for_module(bound: u32, words: usize) -> Self {
        let limit = (bound as usize).min(words.saturating_mul(2).saturating_add(1024));
        Self::with_limit(limit)
    }

    /// A table dense for ids below `limit`, grown as they are set.
    pub fn with_limit(limit: usize) -> Self {
        IdMap {
            dense: Vec::new(),
            sparse: FxHashMap::default(),
            limit,
        }
    }

    /// A table whose dense part is allocated up front for ids below `len`.
    pub fn preallocated(len: usize) -> Self {
        IdMap {
            dense: vec![T::default(); len],
            sparse: FxHashMap::default(),
            limit: len,
        }
    }

    /// The value of `id`.
    #[inline]
    pub fn get(&self, id: u32) -> T {
        let i = id as usize;
        if let Some(&v) = self.dense.get(i) {
            v
        } else if i < self.limit {
            T::default()
        } else {
            self.sparse.get(&id).copied().unwrap_or_default()
        }
    }

    /// Sets the value of `id`.
    #[inline]
    pub fn set(&mut self, id: u32, v: T) {
        let i = id as usize;
        if let Some(slot) = self.dense.get_mut(i) {
            *slot = v;
        } else if i < self.limit {
            let n = (i + 1).max(self.dense.len() * 2).max(64).min(self.limit);
            self.dense.resize(n, T::default());
            self.dense[i] = v;
        } else {
            self.sparse.insert(id, v);
        }
    }

    /// Every id whose value is not the default, with its value (dense ids first, ascending).
    pub fn entries(&self) -> impl Iterator<Item = (u32, T)> + '_
    where
        T: PartialEq,
    {
        let dense = self.dense.iter().enumerate().map(|(i, &v)| (i as u32, v));
        dense
            .chain(self.sparse.iter().map(|(&i, &v)| (i, v)))
            .filter(|(_, v)| *v != T::default())
    }
}
