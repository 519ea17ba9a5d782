//! The worker threads documents are sanitized on, in batches read ahead or streamed
//! through a bounded reorder window.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, PoisonError};

use crate::error::Result;

/// Worker threads that sanitize documents read ahead from an input of any length, results
/// in input order: streamed for the CLI's JSON Lines ([`Batches::stream`]), in batches for
/// Python's `sanitize_many`. Memory holds one batch's worth of documents, not the input.
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

    /// `work` over a batch it takes, on the worker threads, results in the batch's order.
    pub fn run_owned<T: Send, R: Send>(
        &self,
        batch: Vec<T>,
        work: impl Fn(T) -> R + Sync + Send,
    ) -> Vec<R> {
        use rayon::prelude::*;
        self.pool
            .install(|| batch.into_par_iter().map(work).collect())
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

    /// `work` over every item of `items` on the worker threads, each result handed to
    /// `emit` in input order as soon as it and every result before it are done: the first
    /// document's output waits for no batch, and the output is the same for any number of
    /// workers. At most a batch's size of items are held (read but not yet emitted), so
    /// memory stays bounded however long the input or however slow one item. `items` is
    /// read on the calling thread, which may block on it (a pipe) while workers emit.
    ///
    /// Reading stops at the first error of `items` or of `emit`. The results of the items
    /// read before an input error are still emitted, then that error is returned; after
    /// an error of `emit` nothing more is emitted and it is returned. Returns the number of
    /// results emitted.
    pub fn stream<T, R, E>(
        &self,
        items: impl Iterator<Item = std::result::Result<T, E>>,
        work: impl Fn(T) -> R + Sync,
        emit: impl FnMut(R) -> std::result::Result<(), E> + Send,
    ) -> std::result::Result<usize, E>
    where
        T: Send,
        R: Send,
        E: Send,
    {
        let window = Mutex::new(Reorder {
            next: 0,
            done: BTreeMap::new(),
            error: None,
            abandoned: false,
            emit,
        });
        let room = Condvar::new();
        let mut read_error = None;
        // FIFO: items start in input order, so the oldest, which holds up the output,
        // is never left behind newer ones.
        self.pool.in_place_scope_fifo(|scope| {
            for (index, item) in items.enumerate() {
                let item = match item {
                    Ok(item) => item,
                    Err(e) => {
                        read_error = Some(e);
                        break;
                    }
                };
                let mut state = window.lock().unwrap_or_else(PoisonError::into_inner);
                while index >= state.next + self.size && state.error.is_none() && !state.abandoned {
                    state = room.wait(state).unwrap_or_else(PoisonError::into_inner);
                }
                if state.error.is_some() || state.abandoned {
                    break;
                }
                drop(state);
                let (window, room, work) = (&window, &room, &work);
                scope.spawn_fifo(move |_| {
                    let _unblock = Unblock { window, room };
                    let result = work(item);
                    let mut state = window.lock().unwrap_or_else(PoisonError::into_inner);
                    state.done.insert(index, result);
                    state.emit_ready();
                    room.notify_one();
                });
            }
        });
        let state = window.into_inner().unwrap_or_else(PoisonError::into_inner);
        match (state.error, read_error) {
            (Some(e), _) | (None, Some(e)) => Err(e),
            (None, None) => Ok(state.next),
        }
    }

    /// Runs `f` on the worker threads (a caller's own parallel work over its inputs).
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }
}

/// The reorder window of [`Batches::stream`]: results done ahead of an earlier one wait
/// here, keyed by input position, until every earlier one has been emitted.
struct Reorder<R, E, F> {
    /// Input position of the next result to emit (the number emitted or dropped so far).
    next: usize,
    done: BTreeMap<usize, R>,
    /// The first error of `emit`: later results are dropped, not emitted.
    error: Option<E>,
    /// A worker panicked: its result never comes, so reading stops (the scope then
    /// passes the panic on) instead of waiting for room forever.
    abandoned: bool,
    emit: F,
}

/// Marks the window abandoned when a worker unwinds out of its item.
struct Unblock<'a, R, E, F> {
    window: &'a Mutex<Reorder<R, E, F>>,
    room: &'a Condvar,
}

impl<R, E, F> Drop for Unblock<'_, R, E, F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut state = self.window.lock().unwrap_or_else(PoisonError::into_inner);
            state.abandoned = true;
            self.room.notify_one();
        }
    }
}

impl<R, E, F: FnMut(R) -> std::result::Result<(), E>> Reorder<R, E, F> {
    /// Emits the results that no earlier unfinished item holds up.
    fn emit_ready(&mut self) {
        while let Some(result) = self.done.remove(&self.next) {
            self.next += 1;
            if self.error.is_none()
                && let Err(e) = (self.emit)(result)
            {
                self.error = Some(e);
            }
        }
    }
}
