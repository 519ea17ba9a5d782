//! What one document's run remembers of the answers it asked for: each is asked again
//! and again by the steps (the same word's sense for a term, the names around it and the
//! options of every item it generalizes; the same sentence's name classes for each name
//! in it), and each answer stays true for the whole run. Each cache is interior-mutable,
//! so the steps that read it take it by shared reference beside the run's input.

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::taxonomy::{self, NameTyper, Sense, Taxonomy};
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
