//! What one document's run remembers of the answers it asked for: each is asked again
//! and again by the steps (the same word's sense for a term, the names around it and the
//! options of every item it generalizes; the same sentence's name classes for each name
//! in it), and each answer stays true for the whole run. The caches are interior-mutable,
//! so the steps that read them take them by shared reference beside the run's input;
//! the record of planned risks is written by the planning of counts only.

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::counts::Key;
use super::ladders::Rung;
use super::risk::Risk;
use super::taxonomy::{self, NameTyper, Sense, Taxonomy};
use crate::error::Result;
use crate::stats::TermSet;
use crate::text::Document;

/// A sense looked up in one run: `None` when no knowledge base knows the term.
type KnownSense = Option<Rc<Sense>>;

/// Senses already looked up in one document, by term and whether it is a proper name:
/// the same word is resolved for the term itself, for the heads and cues of the names
/// around it and again for every option of the items it generalizes. The context (the
/// document's words) is the same for every lookup of one run, so it is kept here.
pub(super) struct SenseCache<'a> {
    taxonomy: &'a dyn Taxonomy,
    /// The document's words, for choosing word senses.
    context: taxonomy::Context,
    known: RefCell<FxHashMap<(String, bool), KnownSense>>,
}

impl<'a> SenseCache<'a> {
    /// An empty cache over `taxonomy`, choosing senses by `doc`'s words.
    pub(super) fn new(taxonomy: &'a dyn Taxonomy, doc: &Document) -> SenseCache<'a> {
        SenseCache {
            taxonomy,
            context: doc
                .terms
                .iter()
                .flat_map(|t| t.norm.split(' '))
                .filter(|w| w.chars().all(char::is_alphabetic))
                .map(str::to_string)
                .collect(),
            known: RefCell::default(),
        }
    }

    /// The sense of `term` in this document ([`Taxonomy::sense`] with the document's
    /// words as context), looked up once per run.
    pub(super) fn sense(&self, term: &str, proper: bool) -> Option<Rc<Sense>> {
        let key = (term.to_string(), proper);
        if let Some(known) = self.known.borrow().get(&key) {
            return known.clone();
        }
        let sense = self
            .taxonomy
            .sense(term, proper, &self.context)
            .map(Rc::new);
        self.known.borrow_mut().insert(key, sense.clone());
        sense
    }
}

/// A name and the class the name typer gives it: byte span and class label.
pub(super) type TypedName = (usize, usize, String);

/// The name typer's classes, per sentence of the document, each sentence labelled once
/// when a name in it first needs a class (a labelling costs far more than a lookup, and
/// most sentences hold no name that nothing else types), and whether the typer failed:
/// every sentence would fail the same way, so its warning is given once per document.
pub(super) struct NameClassCache {
    per_sentence: Vec<OnceCell<Vec<TypedName>>>,
    failed: Cell<bool>,
}

impl NameClassCache {
    /// An empty cache for a document of `sentences` sentences.
    pub(super) fn new(sentences: usize) -> NameClassCache {
        NameClassCache {
            per_sentence: vec![OnceCell::new(); sentences],
            failed: Cell::new(false),
        }
    }

    /// The names `typer` types in sentence `k` of `doc`, labelled on the first ask (none
    /// when it fails); `None` past the document's last sentence.
    pub(super) fn sentence(
        &self,
        typer: &dyn NameTyper,
        doc: &Document,
        k: usize,
    ) -> Option<&[TypedName]> {
        let slot = self.per_sentence.get(k)?;
        let classes = slot.get_or_init(|| match typer.classes(doc, k..k + 1) {
            Ok(classes) => classes,
            Err(err) => {
                self.typer_failed(&err);
                Vec::new()
            }
        });
        Some(classes)
    }

    /// Notes that the typer failed, warning only the first time in the document.
    pub(super) fn typer_failed(&self, err: &crate::error::Error) {
        if !self.failed.replace(true) {
            log::warn!("names could not be typed: {err}");
        }
    }
}

/// A risk's inputs as interned term-set ids, packed in one integer: target,
/// generalization (or `u32::MAX`), the item's set, and a pair's second set (or
/// `u32::MAX`).
pub(super) type RiskKey = u128;

/// Risks already worked out, by the interned ids of target, item set(s) and the
/// target's generalization: the search prices the same concept (a city, a person) as an
/// option of many items against every target.
#[derive(Default)]
pub(super) struct RiskMemo {
    known: RefCell<FxHashMap<RiskKey, Risk>>,
}

impl RiskMemo {
    /// The risk under `key`, worked out by `measure` the first time it is asked.
    pub(super) fn get_or_measure(
        &self,
        key: RiskKey,
        measure: impl FnOnce() -> Result<Risk>,
    ) -> Result<Risk> {
        if let Some(known) = self.known.borrow().get(&key).copied() {
            return Ok(known);
        }
        let risk = measure()?;
        self.known.borrow_mut().insert(key, risk);
        Ok(risk)
    }
}

/// By entry: the interned ids of its set and of the generalization its risks count in
/// (`u32::MAX`: none), while the generalization stands: every risk towards a target
/// asks for them.
#[derive(Default)]
pub(super) struct TargetIds {
    by_entry: RefCell<Vec<Option<(u32, u32)>>>,
}

impl TargetIds {
    /// Entry `t`'s ids, found by `find` the first time they are asked.
    pub(super) fn get_or_find(
        &self,
        t: usize,
        find: impl FnOnce() -> Option<(u32, u32)>,
    ) -> Option<(u32, u32)> {
        if let Some(Some(known)) = self.by_entry.borrow().get(t).copied() {
            return Some(known);
        }
        let ids = find()?;
        let mut known = self.by_entry.borrow_mut();
        if known.len() <= t {
            known.resize(t + 1, None);
        }
        known[t] = Some(ids);
        Some(ids)
    }

    /// Forgets every entry's ids: a target's generalization changed.
    pub(super) fn forget(&mut self) {
        self.by_entry.get_mut().clear();
    }
}

/// A list of targets risks are registered against: each target's set id and its
/// generalization's (`u32::MAX`: none), and the number of the list of (target,
/// generalization) in [`RiskPlanning`].
pub(super) struct TargetPlan {
    pub(super) list: u32,
    pub(super) ids: Vec<(u32, u32)>,
}

/// Which risks have their counts planned: a concept offered to many items is planned
/// against the same targets once, and a list of targets is interned once while the
/// targets' generalizations stand.
#[derive(Default)]
pub(super) struct RiskPlanning {
    /// An item set's key with the number of a list of (target, interned generalization).
    planned: FxHashSet<(Key, u32)>,
    /// The number of each list of (target, interned generalization).
    target_lists: FxHashMap<Vec<(usize, u32)>, u32>,
    /// The plan of each list of targets, while the targets' generalizations stand.
    target_plans: FxHashMap<Vec<usize>, Rc<TargetPlan>>,
}

impl RiskPlanning {
    /// The plan of the targets `ts`, if made while their generalizations stand.
    pub(super) fn targets(&self, ts: &[usize]) -> Option<Rc<TargetPlan>> {
        self.target_plans.get(ts).map(Rc::clone)
    }

    /// Records the plan of the targets `ts` from each one's (target, set id,
    /// generalization id), numbering its list of (target, generalization).
    pub(super) fn add_targets(
        &mut self,
        ts: &[usize],
        targets: Vec<(usize, u32, u32)>,
    ) -> Rc<TargetPlan> {
        let listed: Vec<(usize, u32)> = targets.iter().map(|&(t, _, g)| (t, g)).collect();
        let ids = targets
            .into_iter()
            .map(|(_, t_id, g_id)| (t_id, g_id))
            .collect();
        let next = self.target_lists.len() as u32;
        let list = *self.target_lists.entry(listed).or_insert(next);
        let plan = Rc::new(TargetPlan { list, ids });
        self.target_plans.insert(ts.to_vec(), Rc::clone(&plan));
        plan
    }

    /// Whether the item set `key` is planned against the list `list` for the first time
    /// (and marks it planned).
    pub(super) fn first_time(&mut self, key: Key, list: u32) -> bool {
        self.planned.insert((key, list))
    }

    /// Forgets the plans of target lists: a target's generalization changed.
    pub(super) fn forget_targets(&mut self) {
        self.target_plans.clear();
    }
}

/// The term sets of date and number rungs (a rung with every phrase it covers: "the 20th
/// century" with its hundred years), built once and shared by the documents of a run.
/// Besides the tokenizing of every covered phrase, sharing the set shares what the count
/// and prior caches key by a set's identity, so a century's documents and prior are worked
/// out once rather than once per date that climbs to it.
pub struct RungSets(moka::sync::Cache<(String, Vec<String>), TermSet, rustc_hash::FxBuildHasher>);

impl RungSets {
    /// Keeps up to `rungs` rungs' sets.
    pub fn new(rungs: u64) -> RungSets {
        RungSets(
            moka::sync::Cache::builder()
                .max_capacity(rungs)
                .build_with_hasher(rustc_hash::FxBuildHasher),
        )
    }

    /// `rung`'s set, from `build` the first time.
    pub(super) fn set(&self, rung: &Rung, build: impl FnOnce() -> TermSet) -> TermSet {
        self.0
            .get_with((rung.counted.clone(), rung.covers.clone()), build)
    }
}
