//! The worker threads documents are sanitized on, in batches read ahead.

use crate::error::Result;

/// Worker threads that sanitize documents in batches read ahead from an input of any
/// length, results in input order: the batch loop of the CLI's JSON Lines and of Python's
/// `sanitize_many`. Memory holds one batch, not the input.
pub struct Batches {
    pool: rayon::ThreadPool,
    size: usize,
}

impl Batches {
    /// `jobs` worker threads (`None`: one per core), each given `per_job` documents a
    /// batch.
    pub fn new(jobs: Option<usize>, per_job: usize) -> Result<Batches> {
        let jobs = match jobs {
            Some(0) => {
                return Err(crate::Error::Parameter {
                    what: "jobs".into(),
                    message: "must be at least 1".into(),
                });
            }
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| crate::Error::Parameter {
                what: "jobs".into(),
                message: format!("cannot start {jobs} worker threads: {e}"),
            })?;
        Ok(Batches {
            pool,
            size: jobs * per_job.max(1),
        })
    }

    /// The next batch of `items` (empty at the end); the first error stops the reading.
    pub fn next<T, E>(
        &self,
        items: &mut impl Iterator<Item = std::result::Result<T, E>>,
    ) -> std::result::Result<Vec<T>, E> {
        items.by_ref().take(self.size).collect()
    }

    /// `work` over a batch on the worker threads, results in the batch's order.
    pub fn run<T: Sync, R: Send>(
        &self,
        batch: &[T],
        work: impl Fn(&T) -> R + Sync + Send,
    ) -> Vec<R> {
        use rayon::prelude::*;
        self.pool.install(|| batch.par_iter().map(work).collect())
    }

    /// Runs `f` on the worker threads (a caller's own parallel work over its inputs).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }
}
