//! The sanitizer's count plan: every count a document needs is registered first, fetched
//! from the count source in one batch, then read back. No count is ever fetched inside
//! the risk loops.

use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::RefCell;

use crate::error::{Error, Result};
use crate::stats::info::Figure;
use crate::stats::{CountRequest, CountSource, TermSet};

/// A conjunction of interned term sets, sorted and deduplicated: risks need at most an
/// item pair, a target and its generalization, so keys stay inline.
pub type Key = SmallVec<[u32; 4]>;

/// Counts registered, fetched in bulk, and looked up by the conjunction of term sets.
///
/// Term sets are interned to integers: a risk loop looks up the same few shared sets
/// (a target's, a concept's label set) for every item, and comparing or hashing their
/// contents for every lookup dominated the run time of long documents. A set is found by
/// the address of its shared alternatives first and by its contents only the first time
/// that address is seen, so equal sets built separately still share one id.
#[derive(Default)]
pub struct CountTable {
    by_address: FxHashMap<usize, u32>,
    by_content: FxHashMap<TermSet, u32>,
    /// Every distinct set, by id.
    sets: Vec<TermSet>,
    /// Copies equal to an interned set: held so their addresses are never reused.
    aliases: Vec<TermSet>,
    /// Conjunctions of three sets or more → their request.
    index: FxHashMap<Key, usize>,
    /// By set id: the request of the set's own count (`usize::MAX`: none), read without
    /// building and hashing a key: the risk loops register a target's own count for
    /// every item, and every risk reads the target's, the generalization's and the
    /// item's own counts.
    single_requests: Vec<usize>,
    /// Pairs of sets ([`pair`]) → their request: every risk's joint counts (an item with
    /// a target, an item with the target's generalization), hundreds of thousands in a
    /// long document, hashed as one integer instead of a list.
    pairs: FxHashMap<u64, usize>,
    requests: Vec<Key>,
    answers: Vec<u64>,
    /// The IC of each interned set by id, worked out once: the risk loops ask for the
    /// same few sets' IC for every item, and each answer reads the word-frequency prior
    /// of every phrase of the set.
    information: RefCell<Vec<Option<Figure>>>,
}

fn address(set: &TermSet) -> usize {
    set.identity()
}

impl CountTable {
    pub fn intern(&mut self, set: &TermSet) -> u32 {
        if let Some(&id) = self.by_address.get(&address(set)) {
            return id;
        }
        let next = self.sets.len() as u32;
        let id = *self.by_content.entry(set.clone()).or_insert(next);
        if id == next {
            self.sets.push(set.clone());
        } else {
            self.aliases.push(set.clone());
        }
        self.by_address.insert(address(set), id);
        id
    }

    /// The key of `sets`, interning them; nothing is registered.
    pub fn intern_key(&mut self, sets: &[&TermSet]) -> Key {
        self.key(sets)
    }

    fn key(&mut self, sets: &[&TermSet]) -> Key {
        let mut key: Key = sets.iter().map(|s| self.intern(s)).collect();
        key.sort_unstable();
        key.dedup();
        key
    }

    /// The id of a set already interned, or None when it never was.
    pub fn known_id(&self, set: &TermSet) -> Option<u32> {
        match self.by_address.get(&address(set)) {
            Some(&id) => Some(id),
            None => self.by_content.get(set).copied(),
        }
    }

    /// The key of sets already interned, or None when one never was.
    fn known_key(&self, sets: &[&TermSet]) -> Option<Key> {
        let mut key = Key::new();
        for set in sets {
            key.push(self.known_id(set)?);
        }
        key.sort_unstable();
        key.dedup();
        Some(key)
    }

    /// Registers the count of documents containing every one of `sets`.
    pub fn need(&mut self, sets: &[&TermSet]) {
        if let [set] = sets {
            let id = self.intern(set) as usize;
            if self
                .single_requests
                .get(id)
                .is_some_and(|&request| request != usize::MAX)
            {
                return;
            }
        }
        let key = self.key(sets);
        self.register(key);
    }

    /// [`Self::need`] for the sets of `key` (from [`Self::intern_key`]).
    pub fn need_key(&mut self, key: &Key) {
        self.register(key.clone());
    }

    /// Registers the count of documents containing the sets of `key` and `set`: the
    /// count of `sets` and `set` together, where `key` is [`Self::need_key`]`(sets)`.
    pub fn need_with(&mut self, key: &Key, set: &TermSet) {
        let id = self.intern(set);
        self.need_with_id(key, id);
    }

    /// [`Self::need_with`] for a set interned as `id`.
    pub fn need_with_id(&mut self, key: &Key, id: u32) {
        if let [one] = key.as_slice() {
            self.register_ids(*one, id);
            return;
        }
        let mut joint = key.clone();
        if let Err(at) = joint.binary_search(&id) {
            joint.insert(at, id);
        }
        self.register(joint);
    }

    /// Registers the count of the sets interned as `a` and `b` together, unless one is
    /// known to be in no document (then so is the pair: [`Self::get_ids`] answers 0).
    fn register_ids(&mut self, a: u32, b: u32) {
        if a == b {
            self.register_single(a);
            return;
        }
        if self.in_no_document(a) || self.in_no_document(b) {
            return;
        }
        let next = self.requests.len();
        if let std::collections::hash_map::Entry::Vacant(slot) = self.pairs.entry(pair(a, b)) {
            slot.insert(next);
            self.requests.push(Key::from_slice(&[a.min(b), a.max(b)]));
        }
    }

    /// Registers the count of the set interned as `id`.
    pub fn register_single(&mut self, id: u32) {
        let at = id as usize;
        if self.single_requests.len() <= at {
            self.single_requests.resize(at + 1, usize::MAX);
        }
        if self.single_requests[at] == usize::MAX {
            self.single_requests[at] = self.requests.len();
            self.requests.push(Key::from_slice(&[id]));
        }
    }

    /// Registers a sorted, deduplicated key.
    fn register(&mut self, key: Key) {
        match key.as_slice() {
            [] => {}
            [one] => self.register_single(*one),
            [a, b] => self.register_ids(*a, *b),
            many if many.iter().any(|&id| self.in_no_document(id)) => {}
            _ => {
                if let std::collections::hash_map::Entry::Vacant(slot) = self.index.entry(key) {
                    self.requests.push(slot.key().clone());
                    slot.insert(self.requests.len() - 1);
                }
            }
        }
    }

    /// Fetches every registered count not yet answered, in one batch.
    ///
    /// The sets' own counts are fetched first: a conjunction with a set no document has
    /// is in no document, so it is answered 0 without asking. Most targets of a long
    /// document (a date, a name, a case number) are in no document of the corpus, and
    /// their joint counts with every item and candidate were most of the requests.
    pub fn fetch(&mut self, source: &dyn CountSource) -> Result<usize> {
        let start = self.answers.len();
        let end = self.requests.len();
        if start == end {
            return Ok(0);
        }
        let (singles, joint): (Vec<usize>, Vec<usize>) =
            (start..end).partition(|&r| self.requests[r].len() == 1);
        let mut answers: Vec<Option<u64>> = vec![None; end - start];
        for (r, count) in singles.iter().zip(self.count(source, &singles)?) {
            answers[r - start] = Some(count);
        }
        // Known to be in no document, by an earlier batch or by this one's first.
        let counted_in_none = |id: u32| {
            let request = self.single_requests.get(id as usize).copied();
            let count = match request {
                Some(r) if r < start => self.answers.get(r).copied(),
                Some(r) if r < end => answers[r - start],
                _ => None,
            };
            count == Some(0)
        };
        let (empty, asked): (Vec<usize>, Vec<usize>) = joint
            .into_iter()
            .partition(|&r| self.requests[r].iter().any(|&id| counted_in_none(id)));
        for r in empty {
            answers[r - start] = Some(0);
        }
        for (r, count) in asked.iter().zip(self.count(source, &asked)?) {
            answers[r - start] = Some(count);
        }
        let answers: Vec<u64> = answers
            .into_iter()
            .map(|count| count.ok_or_else(unplanned))
            .collect::<Result<_>>()?;
        self.answers.extend(answers);
        Ok(end - start)
    }

    /// The counts of the registered requests numbered `requests`, in one batch.
    fn count(&self, source: &dyn CountSource, requests: &[usize]) -> Result<Vec<u64>> {
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        let batch: Vec<CountRequest> = requests
            .iter()
            .map(|&r| CountRequest {
                all_of: self.requests[r]
                    .iter()
                    .map(|&id| self.sets[id as usize].clone())
                    .collect(),
            })
            .collect();
        let answers = source.count_batch(&batch)?;
        if answers.len() != batch.len() {
            return Err(Error::count(format!(
                "count source {} answered {} of {} requests",
                source.identity(),
                answers.len(),
                batch.len()
            )));
        }
        Ok(answers)
    }

    /// The IC of `set` from its planned count: `compute(count)` the first time, the same
    /// figure after that.
    pub fn information(
        &self,
        set: &TermSet,
        compute: impl FnOnce(u64) -> Figure,
    ) -> Result<Figure> {
        match self.known_id(set) {
            Some(id) => self.information_of(id, compute),
            None => Err(unplanned()),
        }
    }

    /// [`Self::information`] of the set interned as `id`.
    pub fn information_of(&self, id: u32, compute: impl FnOnce(u64) -> Figure) -> Result<Figure> {
        if let Some(Some(known)) = self.information.borrow().get(id as usize).copied() {
            return Ok(known);
        }
        let figure = compute(self.get_ids(&[id])?);
        let mut known = self.information.borrow_mut();
        if known.len() <= id as usize {
            known.resize(id as usize + 1, None);
        }
        known[id as usize] = Some(figure);
        Ok(figure)
    }

    /// [`Self::get`] of the sets interned as `ids` (any order, repeats allowed).
    pub fn get_ids(&self, ids: &[u32]) -> Result<u64> {
        let request = match ids {
            [id] => self.single_requests.get(*id as usize).copied(),
            [a, b] if a == b => self.single_requests.get(*a as usize).copied(),
            [a, b] => self.pairs.get(&pair(*a, *b)).copied(),
            _ => {
                let mut key = Key::from_slice(ids);
                key.sort_unstable();
                key.dedup();
                match key.as_slice() {
                    [_] | [_, _] => return self.get_ids(&key),
                    _ => self.index.get(&key).copied(),
                }
            }
        };
        match request.and_then(|i| self.answers.get(i).copied()) {
            Some(count) => Ok(count),
            // A conjunction with a set in no document is in no document, and is neither
            // registered nor asked once that is known.
            None if ids.iter().any(|&id| self.in_no_document(id)) => Ok(0),
            None => Err(unplanned()),
        }
    }

    /// Whether the set interned as `id` is known (counted) to be in no document.
    pub fn in_no_document(&self, id: u32) -> bool {
        self.single_requests
            .get(id as usize)
            .and_then(|&r| self.answers.get(r))
            == Some(&0)
    }

    /// The count of documents containing every one of `sets`; an error if it was never
    /// planned or fetched (a bug in the plan, reported rather than guessed).
    pub fn get(&self, sets: &[&TermSet]) -> Result<u64> {
        let key = self.known_key(sets).ok_or_else(unplanned)?;
        self.get_ids(&key)
    }
}

/// Two distinct set ids as one integer, the smaller first: the pair's key whichever way
/// round it is asked for.
fn pair(a: u32, b: u32) -> u64 {
    (u64::from(a.min(b)) << 32) | u64::from(a.max(b))
}

/// A count asked for but never registered: a bug in the plan, reported rather than guessed.
pub(super) fn unplanned() -> Error {
    Error::count("a count was used without being planned")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails the test unless `got` is the error of a count the plan never asked for.
    fn assert_unplanned(got: Result<u64>) {
        match got {
            Err(Error::Count { message, .. }) => {
                assert_eq!(message, "a count was used without being planned");
            }
            other => panic!("not an unplanned count: {other:?}"),
        }
    }

    /// Answers each request with a number that depends on its canonical key only.
    struct KeyLength;

    impl CountSource for KeyLength {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
        fn identity(&self) -> String {
            "key-length".to_string()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(1000)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            Ok(requests
                .iter()
                .map(|r| r.cache_key().len() as u64)
                .collect())
        }
    }

    /// Sets equal in content share one count however they were built, the order and
    /// repetition of a conjunction do not matter, and an unplanned count is an error.
    #[test]
    fn conjunctions_are_found_by_content_in_any_order() {
        let a = TermSet::from_text("breast cancer");
        let a_again = TermSet::from_text("breast cancer");
        let b = TermSet::any_of([
            crate::text::tokenize::index_terms("carcinoma"),
            crate::text::tokenize::index_terms("tumour"),
        ]);
        let mut table = CountTable::default();
        table.need(&[&a]);
        table.need(&[&a, &b]);
        table.need(&[&b, &a_again, &a]);
        assert_eq!(table.fetch(&KeyLength).expect("fetch"), 2);
        let pair = CountRequest::pair(a.clone(), b.clone()).cache_key().len() as u64;
        assert_eq!(table.get(&[&a_again, &b]).expect("planned"), pair);
        assert_eq!(table.get(&[&b, &a]).expect("planned"), pair);
        assert_eq!(
            table.get(&[&a_again]).expect("planned"),
            "breast cancer".len() as u64
        );
        assert_unplanned(table.get(&[&b]));
        assert_unplanned(table.get(&[&TermSet::from_text("unseen")]));
        assert_eq!(table.fetch(&KeyLength).expect("nothing new"), 0);
    }

    /// Answers by scanning a few documents, and records every request it is asked.
    struct Scanning {
        docs: Vec<Vec<String>>,
        asked: std::sync::Mutex<Vec<String>>,
    }

    impl CountSource for Scanning {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
        fn identity(&self) -> String {
            "scanning".to_string()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(self.docs.len() as u64)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            if let Ok(mut asked) = self.asked.lock() {
                asked.extend(requests.iter().map(CountRequest::cache_key));
            }
            Ok(requests
                .iter()
                .map(|r| crate::stats::testutil::brute_count(&self.docs, r))
                .collect())
        }
    }

    /// A conjunction with a set no document has is answered 0 without being asked; the
    /// others are counted, and every answer is the scan's.
    #[test]
    fn a_conjunction_with_a_set_in_no_document_is_not_asked() {
        let source = Scanning {
            docs: crate::stats::testutil::tokenized(&[
                "breast cancer treated with radiotherapy",
                "radiotherapy and surgery",
                "surgery alone",
            ]),
            asked: Default::default(),
        };
        let sets: Vec<TermSet> = ["radiotherapy", "surgery", "nowhere to be found", "cancer"]
            .iter()
            .map(|t| TermSet::from_text(t))
            .collect();
        let mut table = CountTable::default();
        for set in &sets {
            table.need(&[set]);
        }
        for a in &sets {
            for b in &sets {
                table.need(&[a, b]);
            }
        }
        table.need(&[&sets[0], &sets[1], &sets[2]]);
        table.need(&[&sets[0], &sets[1], &sets[3]]);
        assert_eq!(table.fetch(&source).expect("fetch"), 4 + 6 + 2);
        let asked = source.asked.lock().expect("asked").clone();
        assert!(
            asked
                .iter()
                .all(|key| key == "nowhere to be found" || !key.contains("nowhere")),
            "{asked:?}"
        );
        assert_eq!(asked.len(), 4 + 3 + 1);
        for a in &sets {
            for b in &sets {
                let request = CountRequest::pair(a.clone(), b.clone());
                assert_eq!(
                    table.get(&[a, b]).expect("planned"),
                    crate::stats::testutil::brute_count(&source.docs, &request)
                );
            }
        }
        assert_eq!(
            table.get(&[&sets[2], &sets[0], &sets[1]]).expect("triple"),
            0
        );
        assert_eq!(
            table.get(&[&sets[3], &sets[0], &sets[1]]).expect("triple"),
            0
        );
        // Once known, such a conjunction is not even registered, and still answered 0.
        let other = TermSet::from_text("alone");
        table.need(&[&other]);
        table.need(&[&other, &sets[2]]);
        table.need(&[&other, &sets[2], &sets[3]]);
        assert_eq!(table.fetch(&source).expect("fetch"), 1);
        assert_eq!(table.get(&[&sets[2], &other]).expect("pair"), 0);
        assert_eq!(table.get(&[&sets[3], &other, &sets[2]]).expect("triple"), 0);
        assert_unplanned(table.get(&[&sets[3], &other]));
    }

    /// Singles, pairs and longer conjunctions are kept apart, and each is found by its
    /// ids in any order, repeats included: a set with itself is the set alone.
    #[test]
    fn every_width_of_conjunction_is_found_by_its_ids() {
        let a = TermSet::from_text("breast cancer");
        let b = TermSet::from_text("radiotherapy");
        let c = TermSet::from_text("surgery");
        let mut table = CountTable::default();
        let key = table.intern_key(&[&a]);
        table.need_with(&key, &b);
        table.need_with(&key, &a);
        let pair_key = table.intern_key(&[&b, &a]);
        table.need_with(&pair_key, &c);
        assert_eq!(table.fetch(&KeyLength).expect("fetch"), 3);
        let (ia, ib, ic) = (
            table.known_id(&a).expect("a"),
            table.known_id(&b).expect("b"),
            table.known_id(&c).expect("c"),
        );
        let count = |sets: Vec<TermSet>| CountRequest { all_of: sets }.cache_key().len() as u64;
        let pair = count(vec![a.clone(), b.clone()]);
        assert_eq!(table.get_ids(&[ia, ib]).expect("pair"), pair);
        assert_eq!(table.get_ids(&[ib, ia, ib]).expect("pair again"), pair);
        assert_eq!(
            table.get_ids(&[ia, ia]).expect("a alone"),
            count(vec![a.clone()])
        );
        let triple = count(vec![a.clone(), b.clone(), c.clone()]);
        assert_eq!(table.get_ids(&[ic, ia, ib]).expect("triple"), triple);
        assert_eq!(table.get(&[&c, &b, &a]).expect("triple by sets"), triple);
        // Neither b alone nor a with c was planned.
        assert_unplanned(table.get_ids(&[ib]));
        assert_unplanned(table.get_ids(&[ia, ic]));
    }
}
