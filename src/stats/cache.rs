//! Count caches in front of any [`CountSource`]: moka in memory for the run, and SQLite
//! on disk (`<data dir>/cache/counts.sqlite`) across runs. Keys are the source identity
//! (which includes the index generation) plus the request's canonical form, so a rebuilt
//! index or another remote service never answers from stale entries. The database runs
//! in WAL mode with a busy timeout, so concurrent `declass` runs share it safely.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use moka::sync::Cache;
use rusqlite::{Connection, OptionalExtension, params};

use crate::config::CountCacheConfig;
use crate::error::{Error, Result};
use crate::stats::{CountRequest, CountSource, Origin};

/// A count source with caches in front.
pub struct CachedSource {
    inner: Arc<dyn CountSource>,
    identity: String,
    memory: Cache<String, u64>,
    disk: Option<Mutex<Connection>>,
    disk_path: Option<PathBuf>,
}

/// The cache key of the total document count.
const TOTAL_KEY: &str = "#total";

impl CachedSource {
    /// `disk`: the SQLite file, or `None` for a memory-only cache.
    pub fn new(
        inner: Arc<dyn CountSource>,
        config: &CountCacheConfig,
        disk: Option<&Path>,
    ) -> Result<CachedSource> {
        let connection = match disk {
            Some(path) => Some(Mutex::new(open_db(path, config.busy_timeout_ms)?)),
            None => None,
        };
        Ok(CachedSource {
            identity: inner.identity(),
            inner,
            memory: Cache::new(config.memory_entries),
            disk: connection,
            disk_path: disk.map(Path::to_path_buf),
        })
    }

    fn key(&self, request_key: &str) -> String {
        format!("{}\u{1f}{request_key}", self.identity)
    }

    fn db_error(&self, e: rusqlite::Error) -> Error {
        Error::model(
            self.disk_path.clone().unwrap_or_default(),
            format!(
                "count cache: {e} (the file only caches counts: delete it and it is rebuilt, \
                 or set `corpus.cache.disk = false`)"
            ),
        )
    }

    fn disk_get(&self, keys: &[String]) -> Result<Vec<Option<u64>>> {
        let Some(db) = &self.disk else {
            return Ok(vec![None; keys.len()]);
        };
        let db = db
            .lock()
            .map_err(|_| Error::Count("count cache lock poisoned".to_string()))?;
        let mut stmt = db
            .prepare_cached("SELECT count FROM counts WHERE key = ?1")
            .map_err(|e| self.db_error(e))?;
        keys.iter()
            .map(|k| {
                stmt.query_row(params![k], |row| row.get::<_, i64>(0))
                    .optional()
                    .map(|v| v.map(|c| c as u64))
                    .map_err(|e| self.db_error(e))
            })
            .collect()
    }

    fn disk_put(&self, entries: &[(String, u64)]) -> Result<()> {
        let Some(db) = &self.disk else {
            return Ok(());
        };
        let mut db = db
            .lock()
            .map_err(|_| Error::Count("count cache lock poisoned".to_string()))?;
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        {
            let mut stmt = tx
                .prepare_cached("INSERT OR REPLACE INTO counts (key, count) VALUES (?1, ?2)")
                .map_err(|e| self.db_error(e))?;
            for (key, count) in entries {
                stmt.execute(params![key, *count as i64])
                    .map_err(|e| self.db_error(e))?;
            }
        }
        tx.commit().map_err(|e| self.db_error(e))
    }
}

/// Opens the disk cache; one that cannot be opened as a database (a damaged or foreign
/// file) is only a cache, so it is deleted and created anew, with a warning.
fn open_db(path: &Path, busy_timeout_ms: u64) -> Result<Connection> {
    match try_open_db(path, busy_timeout_ms) {
        Ok(db) => Ok(db),
        Err(e) if path.is_file() => {
            log::warn!("{e}; deleting the count cache and starting a new one");
            for suffix in ["", "-wal", "-shm"] {
                let mut file = path.as_os_str().to_owned();
                file.push(suffix);
                match std::fs::remove_file(&file) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io(PathBuf::from(file), e)),
                }
            }
            try_open_db(path, busy_timeout_ms)
        }
        Err(e) => Err(e),
    }
}

fn try_open_db(path: &Path, busy_timeout_ms: u64) -> Result<Connection> {
    let err = |e: rusqlite::Error| Error::model(path, format!("count cache: {e}"));
    let db = Connection::open(path).map_err(err)?;
    db.busy_timeout(Duration::from_millis(busy_timeout_ms))
        .map_err(err)?;
    db.pragma_update(None, "journal_mode", "WAL").map_err(err)?;
    db.pragma_update(None, "synchronous", "NORMAL")
        .map_err(err)?;
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS counts (key TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;",
    )
    .map_err(err)?;
    Ok(db)
}

impl CountSource for CachedSource {
    fn identity(&self) -> String {
        self.identity.clone()
    }

    fn origin(&self) -> Origin {
        self.inner.origin()
    }

    fn total_docs(&self) -> Result<u64> {
        let key = self.key(TOTAL_KEY);
        if let Some(n) = self.memory.get(&key) {
            return Ok(n);
        }
        if let Some(Some(n)) = self.disk_get(std::slice::from_ref(&key))?.first() {
            self.memory.insert(key, *n);
            return Ok(*n);
        }
        let n = self.inner.total_docs()?;
        self.disk_put(&[(key.clone(), n)])?;
        self.memory.insert(key, n);
        Ok(n)
    }

    fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        let keys: Vec<String> = requests.iter().map(|r| self.key(&r.cache_key())).collect();
        let mut answers: Vec<Option<u64>> = keys.iter().map(|k| self.memory.get(k)).collect();
        let missing_memory: Vec<usize> =
            (0..keys.len()).filter(|&i| answers[i].is_none()).collect();
        if !missing_memory.is_empty() {
            let lookup: Vec<String> = missing_memory.iter().map(|&i| keys[i].clone()).collect();
            for (&i, found) in missing_memory.iter().zip(self.disk_get(&lookup)?) {
                if let Some(count) = found {
                    self.memory.insert(keys[i].clone(), count);
                    answers[i] = Some(count);
                }
            }
        }
        // Ask the source once for every distinct request still unanswered.
        let mut todo: Vec<usize> = (0..keys.len()).filter(|&i| answers[i].is_none()).collect();
        todo.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
        todo.dedup_by(|a, b| keys[*a] == keys[*b]);
        if !todo.is_empty() {
            let batch: Vec<CountRequest> = todo.iter().map(|&i| requests[i].clone()).collect();
            let counts = self.inner.count_batch(&batch)?;
            if counts.len() != batch.len() {
                return Err(Error::Count(format!(
                    "{} answered {} of {} requests",
                    self.identity,
                    counts.len(),
                    batch.len()
                )));
            }
            let entries: Vec<(String, u64)> = todo
                .iter()
                .zip(&counts)
                .map(|(&i, &c)| (keys[i].clone(), c))
                .collect();
            self.disk_put(&entries)?;
            for (key, count) in entries {
                self.memory.insert(key, count);
            }
            for (i, key) in keys.iter().enumerate() {
                if answers[i].is_none() {
                    answers[i] = self.memory.get(key);
                }
            }
        }
        answers
            .into_iter()
            .map(|a| a.ok_or_else(|| Error::Count("a count was lost by the cache".to_string())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::TermSet;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts the words of each request's phrases and records how often it was asked.
    struct Fake {
        asked: AtomicUsize,
        generation: &'static str,
    }

    impl CountSource for Fake {
        fn identity(&self) -> String {
            format!("fake:{}", self.generation)
        }
        fn total_docs(&self) -> Result<u64> {
            Ok(100)
        }
        fn count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
            self.asked.fetch_add(requests.len(), Ordering::SeqCst);
            Ok(requests
                .iter()
                .map(|r| {
                    r.all_of
                        .iter()
                        .map(|s| s.alternatives[0].len() as u64)
                        .sum()
                })
                .collect())
        }
    }

    fn config() -> CountCacheConfig {
        CountCacheConfig {
            disk: true,
            memory_entries: 1000,
            busy_timeout_ms: 1000,
        }
    }

    #[test]
    fn disk_cache_survives_runs_and_is_keyed_by_generation() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let requests = vec![
            CountRequest::single(TermSet::from_text("breast cancer")),
            CountRequest::pair(TermSet::from_text("a b c"), TermSet::from_text("d")),
            CountRequest::single(TermSet::from_text("breast cancer")),
        ];
        let first = Arc::new(Fake {
            asked: AtomicUsize::new(0),
            generation: "g1",
        });
        let cached = CachedSource::new(first.clone(), &config(), Some(&db)).expect("open");
        assert_eq!(cached.count_batch(&requests).expect("count"), vec![2, 4, 2]);
        assert_eq!(
            first.asked.load(Ordering::SeqCst),
            2,
            "duplicates asked once"
        );

        // A new run (new memory cache) with the same generation: answered from disk.
        let second = Arc::new(Fake {
            asked: AtomicUsize::new(0),
            generation: "g1",
        });
        let cached = CachedSource::new(second.clone(), &config(), Some(&db)).expect("open");
        assert_eq!(cached.count_batch(&requests).expect("count"), vec![2, 4, 2]);
        assert_eq!(second.asked.load(Ordering::SeqCst), 0);

        // A rebuilt index (new generation) is asked again.
        let third = Arc::new(Fake {
            asked: AtomicUsize::new(0),
            generation: "g2",
        });
        let cached = CachedSource::new(third.clone(), &config(), Some(&db)).expect("open");
        cached.count_batch(&requests).expect("count");
        assert_eq!(third.asked.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn concurrent_writers_share_the_disk_cache() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let words: Vec<String> = (0..300).map(|i| format!("w{i} x{i}")).collect();
        let run = |offset: usize| {
            let db = db.clone();
            let words = words.clone();
            std::thread::spawn(move || {
                let fake = Arc::new(Fake {
                    asked: AtomicUsize::new(0),
                    generation: "g",
                });
                let cached = CachedSource::new(fake, &config(), Some(&db)).expect("open");
                for chunk in words[offset..].chunks(7) {
                    let requests: Vec<CountRequest> = chunk
                        .iter()
                        .map(|w| CountRequest::single(TermSet::from_text(w)))
                        .collect();
                    cached.count_batch(&requests).expect("count");
                }
            })
        };
        let writers = [run(0), run(100)];
        for writer in writers {
            writer.join().expect("writer");
        }
        let reader = Arc::new(Fake {
            asked: AtomicUsize::new(0),
            generation: "g",
        });
        let cached = CachedSource::new(reader.clone(), &config(), Some(&db)).expect("open");
        let requests: Vec<CountRequest> = words
            .iter()
            .map(|w| CountRequest::single(TermSet::from_text(w)))
            .collect();
        assert!(
            cached
                .count_batch(&requests)
                .expect("count")
                .iter()
                .all(|&c| c == 2)
        );
        assert_eq!(
            reader.asked.load(Ordering::SeqCst),
            0,
            "all answered from disk"
        );
    }
}
