//! What a caller hands the engine for one document and what it gets back.

use std::sync::Arc;

use crate::detect::Finding;
use crate::error::Result;
use crate::sanitize::{Plan, Strategy};
use crate::text::Document;

/// How much of a document's account a caller keeps. A long document's full account
/// (every finding, every replacement's reasons) takes several times the memory of its
/// text, and a caller that only writes the sanitized text needs none of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// Where each replacement goes and what it says: enough to write the sanitized text.
    Text,
    /// Findings, replacements with their reasons, disclosure: the JSON report.
    Report,
    /// The report and every term's assessment (`assess`).
    Assessments,
}

impl Detail {
    /// Drops from a window's findings and plan what this level does not keep.
    pub(super) fn trim(self, findings: &mut Vec<Finding>, plan: &mut Plan) {
        if self < Detail::Assessments {
            plan.assessments = Vec::new();
        }
        if self < Detail::Report {
            *findings = Vec::new();
            for r in &mut plan.replacements {
                r.original = String::new();
                r.reasons = Vec::new();
                r.source = String::new();
                r.detected = String::new();
            }
        }
    }
}

/// What one document adds to the run's own detector inputs: persons to conceal and terms
/// that are sensitive in it only (a TAB document's task person, a library caller's
/// per-call lists). Their findings join the run's detectors' before the merge.
#[derive(Debug, Clone, Default)]
pub struct DocumentInputs {
    /// Persons whose every mention is sensitive, as `--protect NAME`.
    pub protect: Vec<String>,
    /// Terms whose every whole-word occurrence is sensitive, as `--sensitive TERM`.
    pub sensitive: Vec<String>,
    /// Context words the caller gives for the whole text ([`Document::context_words`]).
    pub context: Vec<String>,
}

impl DocumentInputs {
    /// The inputs of a document that adds only persons to protect (a TAB document's task
    /// person), the commonest case.
    pub fn protecting(persons: &[String]) -> DocumentInputs {
        DocumentInputs {
            protect: persons.to_vec(),
            ..DocumentInputs::default()
        }
    }
}

/// One document to sanitize or assess as every front end asks for it — the CLI's
/// documents, `POST /v1/sanitize` and `/v1/assess`, Python's `Engine` — with how much of
/// its account the caller keeps and whom to tell of its progress: everything
/// [`super::Engine::process`] needs, so the engine has one entry point however a caller
/// asks. Checked by one rule when it is made ([`DocumentRequest::new`]), before any work.
#[derive(Debug, Clone)]
pub struct DocumentRequest {
    /// The report's `doc_id`, and what errors name.
    pub id: String,
    pub text: String,
    pub inputs: DocumentInputs,
    pub strategy: Strategy,
    /// What the caller keeps of the account; [`Detail::Assessments`] (all of it) unless
    /// [`DocumentRequest::keeping`] says less.
    pub detail: Detail,
    /// Told after each window of a long document; nothing unless
    /// [`DocumentRequest::reporting`] names a listener.
    pub progress: Progress,
}

impl DocumentRequest {
    /// Refuses a protected person or sensitive term without a letter or digit
    /// ([`crate::detect::check_words`]): it would protect nothing while the caller believes
    /// something is protected. The engine applies the same rule where it detects, so a
    /// document that reaches it another way is refused alike.
    pub fn new(
        id: impl Into<String>,
        text: String,
        inputs: DocumentInputs,
        strategy: Strategy,
    ) -> Result<DocumentRequest> {
        crate::detect::check_words(crate::detect::PROTECTED_PERSON, &inputs.protect)?;
        crate::detect::check_words(crate::detect::SENSITIVE_TERM, &inputs.sensitive)?;
        Ok(DocumentRequest {
            id: id.into(),
            text,
            inputs,
            strategy,
            detail: Detail::Assessments,
            progress: Progress::default(),
        })
    }

    /// The request keeping only `detail` of the account: a caller that writes only the
    /// sanitized text spares the memory of every finding and reason.
    pub fn keeping(mut self, detail: Detail) -> DocumentRequest {
        self.detail = detail;
        self
    }

    /// The request telling `progress(bytes done, bytes in all)` after each window, so a
    /// caller can show how far a long document has got.
    pub fn reporting(
        mut self,
        progress: impl Fn(usize, usize) + Send + Sync + 'static,
    ) -> DocumentRequest {
        self.progress = Progress(Some(Arc::new(progress)));
        self
    }
}

/// A listener to a document's progress, `(bytes done, bytes in all)`; none by default.
/// Shared, so a request stays cheap to clone and can be sent to a batch's workers.
#[derive(Clone, Default)]
pub struct Progress(Option<Arc<dyn Fn(usize, usize) + Send + Sync>>);

impl Progress {
    /// Tells the listener, if any, that `done` of `total` bytes are sanitized.
    pub fn tell(&self, done: usize, total: usize) {
        if let Some(listener) = &self.0 {
            listener(done, total);
        }
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Progress(listener)"
        } else {
            "Progress(none)"
        })
    }
}

/// A document after the pipeline: its analysis, the merged findings and the plan.
pub struct Processed {
    pub doc: Document,
    pub findings: Vec<Finding>,
    pub plan: Plan,
}
