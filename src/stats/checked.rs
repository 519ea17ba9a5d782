//! Counts checked before anything is computed from them. A count source that answers a
//! count above its own document total, a total of 0, or another number of answers than
//! requests cannot be trusted: IC and PMI computed from such figures are meaningless
//! (a negative IC, a PMI against an empty corpus) and would let risky terms through. The
//! check makes the batch fail, so the document fails closed instead of being emitted.

use std::sync::{Arc, OnceLock};

use crate::error::{Error, Result};
use crate::stats::{CountLayer, CountRequest, CountSource};

/// A count source whose every answer is checked: `0 < total`, one count per request,
/// each count at most the total.
pub struct CheckedSource {
    inner: Arc<dyn CountSource>,
    /// The total, fetched once: a remote source would otherwise be asked for it again
    /// with every batch.
    total: OnceLock<u64>,
}

impl CheckedSource {
    pub fn new(inner: Arc<dyn CountSource>) -> CheckedSource {
        CheckedSource {
            inner,
            total: OnceLock::new(),
        }
    }

    fn invalid(&self, message: String) -> Error {
        Error::count(format!(
            "{} gave impossible counts: {message}",
            self.inner.identity()
        ))
    }
}

impl CountLayer for CheckedSource {
    fn inner(&self) -> &dyn CountSource {
        self.inner.as_ref()
    }

    fn layer_identity(&self) -> String {
        self.inner.identity()
    }

    fn layer_total_docs(&self) -> Result<u64> {
        if let Some(&total) = self.total.get() {
            return Ok(total);
        }
        let total = self.inner.total_docs()?;
        if total == 0 {
            return Err(self.invalid("a document total of 0".to_string()));
        }
        Ok(*self.total.get_or_init(|| total))
    }

    fn layer_count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        let counts = self.inner.count_batch(requests)?;
        if counts.len() != requests.len() {
            return Err(self.invalid(format!(
                "{} answers for {} requests",
                counts.len(),
                requests.len()
            )));
        }
        let total = self.total_docs()?;
        // The request itself is not named: its phrases may be the sensitive terms.
        if let Some((index, count)) = counts.iter().enumerate().find(|(_, c)| **c > total) {
            return Err(self.invalid(format!(
                "request {} of {}: {count} documents out of a total of {total}",
                index + 1,
                requests.len()
            )));
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::TermSet;

    /// Answers fixed figures, whatever is asked.
    struct Fixed {
        total: u64,
        counts: Vec<u64>,
    }

    impl CountSource for Fixed {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
        fn identity(&self) -> String {
            "fixed".to_string()
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(self.total)
        }
        fn count_batch(&self, _requests: &[CountRequest]) -> Result<Vec<u64>> {
            Ok(self.counts.clone())
        }
    }

    fn checked(total: u64, counts: &[u64]) -> CheckedSource {
        CheckedSource::new(Arc::new(Fixed {
            total,
            counts: counts.to_vec(),
        }))
    }

    fn two_requests() -> Vec<CountRequest> {
        ["radiotherapy", "garden"]
            .iter()
            .map(|t| CountRequest::single(TermSet::from_text(t)))
            .collect()
    }

    #[test]
    fn possible_counts_pass() {
        let source = checked(10, &[0, 10]);
        assert_eq!(source.count_batch(&two_requests()).expect("valid"), [0, 10]);
        assert_eq!(source.total_docs().expect("total"), 10);
    }

    #[test]
    fn count_above_the_total_is_an_error() {
        let err = checked(10, &[3, 11])
            .count_batch(&two_requests())
            .expect_err("11 > 10");
        let message = err.to_string();
        assert!(
            message.contains("request 2 of 2") && message.contains("11"),
            "{message}"
        );
        assert!(
            !message.contains("garden"),
            "the request is not named: {message}"
        );
    }

    #[test]
    fn total_of_zero_is_an_error() {
        let source = checked(0, &[0, 0]);
        for err in [
            source.total_docs().expect_err("total of 0").to_string(),
            source
                .count_batch(&two_requests())
                .expect_err("total of 0")
                .to_string(),
        ] {
            assert!(
                err.contains("gave impossible counts: a document total of 0"),
                "{err}"
            );
        }
    }

    #[test]
    fn wrong_number_of_answers_is_an_error() {
        let err = checked(10, &[1])
            .count_batch(&two_requests())
            .expect_err("one answer for two");
        assert!(
            err.to_string().contains("1 answers for 2 requests"),
            "{err}"
        );
    }
}
