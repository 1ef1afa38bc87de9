//! `SmallMap`: an ordered map over a sorted `Vec`, for the maps that hold a handful of keys
//! (a controller's expectations, a queue's failure counts, pods per node). It iterates in key
//! order as a `BTreeMap` does, so replacing one changes no output; but every distinct
//! `BTreeMap<K, V>` adds ~6 KB of node code to the browser build, and this adds a few hundred
//! bytes. Inserting is O(n), so large or fast-growing maps stay `BTreeMap`s.

use std::borrow::Borrow;

#[derive(Clone, Debug, PartialEq)]
pub struct SmallMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SmallMap<K, V> {
    fn default() -> Self {
        SmallMap(Vec::new())
    }
}

impl<K: Ord, V> SmallMap<K, V> {
    pub fn new() -> Self {
        SmallMap(Vec::new())
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Returns the value replaced, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The value at `key`, inserted with `default` first when absent (`entry().or_insert_with`).
    pub fn get_or_insert_with(&mut self, key: K, default: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, default()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// In key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SmallMap<K, V> {
    /// Later duplicates replace earlier ones, as collecting into a `BTreeMap` does.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = SmallMap::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::SmallMap;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_as_a_btree_map() {
        let mut ours = SmallMap::new();
        let mut theirs = BTreeMap::new();
        let mut x = 7u32;
        for _ in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let k = format!("k{}", (x >> 16) % 40);
            match (x >> 8) % 4 {
                0 => assert_eq!(ours.remove(k.as_str()), theirs.remove(&k)),
                1 => *ours.get_or_insert_with(k.clone(), || 0) += 1,
                _ => assert_eq!(ours.insert(k.clone(), x), theirs.insert(k.clone(), x)),
            }
            if (x >> 8) % 4 == 1 {
                *theirs.entry(k.clone()).or_insert(0) += 1;
            }
            assert_eq!(ours.get(k.as_str()), theirs.get(&k));
            assert!(ours.iter().eq(theirs.iter()));
        }
    }
}
