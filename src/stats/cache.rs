//! Count caches in front of any [`CountSource`]: moka in memory for the run, and SQLite
//! on disk (`<data dir>/cache/counts.sqlite`) across runs. Keys are the source identity
//! (which includes the index generation) plus the request's canonical form, so a rebuilt
//! index or another remote service never answers from stale entries. The database runs
//! in WAL mode with a busy timeout, so concurrent `declass` runs share it safely.
//!
//! A request holds the document's terms, sensitive ones included ("breast cancer & margaret
//! ellison"), so the disk never sees a key in clear: it stores HMAC-SHA256 of the key under
//! a secret of the data directory (`cache/cache.key`, 32 random bytes, mode 0600; the
//! database is 0600 too). A database of another layout (the clear-text one of earlier
//! versions) or written under another secret is emptied and compacted before use, never
//! read.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use moka::sync::Cache;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::Sha256;

use crate::error::{Error, Result};
use crate::stats::config::CountCacheConfig;
use crate::stats::{CountLayer, CountRequest, CountSource};

/// A count source with caches in front.
pub struct CachedSource {
    inner: Arc<dyn CountSource>,
    identity: String,
    /// Keyed by a digest of the request, never by its spelled-out phrases: a concept's
    /// request lists its whole label set, and a long run holds a million of them.
    memory: Cache<[u8; 16], u64>,
    disk: Option<Mutex<Connection>>,
    disk_path: Option<PathBuf>,
    /// This run's stamp: entries read or written now are marked with it, so eviction takes
    /// those unused for the most runs first.
    run_stamp: i64,
    /// The disk cache's cap in bytes.
    disk_max_bytes: u64,
    /// The data directory's secret the disk keys are HMACs under.
    secret: Vec<u8>,
}

/// The layout of the disk cache (`PRAGMA user_version`): keyed hashes in `hashed_counts`,
/// each with the stamp of the run that last used it.
const LAYOUT_VERSION: i64 = 3;
/// The share of entries one eviction removes once the cache is over its cap.
const EVICT_FRACTION: f64 = 0.1;
/// The secret's length in bytes.
const SECRET_BYTES: usize = 32;
/// What the stored check value is the HMAC of: tells whether entries were written under
/// this secret.
const SECRET_CHECK: &[u8] = b"declass count cache secret check";

/// The cache key of the total document count.
const TOTAL_KEY: &str = "#total";

impl CachedSource {
    /// `disk`: the SQLite file, or `None` for a memory-only cache.
    pub fn new(
        inner: Arc<dyn CountSource>,
        config: &CountCacheConfig,
        disk: Option<&Path>,
    ) -> Result<CachedSource> {
        let (connection, secret, run_stamp) = match disk {
            Some(path) => {
                let secret = read_or_create_secret(&secret_path(path))?;
                let db = open_db(path, config.busy_timeout_ms, &secret)?;
                let stamp = next_run_stamp(&db)
                    .map_err(|e| Error::model(path, format!("count cache: {e}")))?;
                (Some(Mutex::new(db)), secret, stamp)
            }
            None => (None, Vec::new(), 0),
        };
        Ok(CachedSource {
            identity: inner.identity(),
            inner,
            memory: Cache::new(config.memory_entries),
            disk: connection,
            disk_path: disk.map(Path::to_path_buf),
            secret,
            run_stamp,
            disk_max_bytes: config.disk_max_mb.saturating_mul(1 << 20),
        })
    }

    /// A request's key in both caches: HMAC-SHA256 under the data directory's secret of
    /// the source's identity and the canonical request (on disk in full, in memory its
    /// first 128 bits).
    fn digest(&self, request_key: &str) -> Digest {
        self.digest_parts(&[request_key])
    }

    /// [`CachedSource::digest`] of the key the parts make joined, without joining them.
    fn digest_parts(&self, request_key: &[&str]) -> Digest {
        let mut message: Vec<&[u8]> = vec![self.identity.as_bytes(), "\u{1f}".as_bytes()];
        message.extend(request_key.iter().map(|part| part.as_bytes()));
        keyed_digest_parts(&self.secret, &message)
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

    fn disk_get(&self, keys: &[Digest]) -> Result<Vec<Option<u64>>> {
        let Some(db) = &self.disk else {
            return Ok(vec![None; keys.len()]);
        };
        let mut db = db
            .lock()
            .map_err(|_| Error::count("count cache lock poisoned"))?;
        let mut found = Vec::with_capacity(keys.len());
        let mut stale: Vec<&Digest> = Vec::new();
        {
            let mut stmt = db
                .prepare_cached("SELECT count, used FROM hashed_counts WHERE key = ?1")
                .map_err(|e| self.db_error(e))?;
            for key in keys {
                let row = stmt
                    .query_row(params![key.as_slice()], |row| {
                        Ok((row.get::<_, i64>(0)?, row.get::<_, i64>(1)?))
                    })
                    .optional()
                    .map_err(|e| self.db_error(e))?;
                if let Some((_, used)) = row
                    && used < self.run_stamp
                {
                    stale.push(key);
                }
                found.push(row.map(|(count, _)| count as u64));
            }
        }
        if !stale.is_empty() {
            // Marked used by this run, once per entry and run.
            let tx = db.transaction().map_err(|e| self.db_error(e))?;
            {
                let mut stmt = tx
                    .prepare_cached("UPDATE hashed_counts SET used = ?1 WHERE key = ?2")
                    .map_err(|e| self.db_error(e))?;
                for key in stale {
                    stmt.execute(params![self.run_stamp, key.as_slice()])
                        .map_err(|e| self.db_error(e))?;
                }
            }
            tx.commit().map_err(|e| self.db_error(e))?;
        }
        Ok(found)
    }

    /// Evicts the least recently used tenth of the entries while the database is over its
    /// cap. SQLite reuses the freed pages, so the file stops growing there.
    fn evict(&self, db: &Connection) -> rusqlite::Result<()> {
        loop {
            let pages: i64 = db.pragma_query_value(None, "page_count", |row| row.get(0))?;
            let free: i64 = db.pragma_query_value(None, "freelist_count", |row| row.get(0))?;
            let page_size: i64 = db.pragma_query_value(None, "page_size", |row| row.get(0))?;
            let used_bytes = (pages - free).max(0) as u64 * page_size.max(0) as u64;
            if used_bytes <= self.disk_max_bytes {
                return Ok(());
            }
            let entries: i64 =
                db.query_row("SELECT count(*) FROM hashed_counts", [], |row| row.get(0))?;
            if entries == 0 {
                return Ok(());
            }
            let evict = ((entries as f64 * EVICT_FRACTION).ceil() as i64).max(1);
            db.execute(
                "DELETE FROM hashed_counts WHERE key IN \
                 (SELECT key FROM hashed_counts ORDER BY used, key LIMIT ?1)",
                params![evict],
            )?;
        }
    }

    fn disk_put(&self, entries: &[(Digest, u64)]) -> Result<()> {
        let Some(db) = &self.disk else {
            return Ok(());
        };
        let mut db = db
            .lock()
            .map_err(|_| Error::count("count cache lock poisoned"))?;
        let tx = db.transaction().map_err(|e| self.db_error(e))?;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO hashed_counts (key, count, used) VALUES (?1, ?2, ?3)",
                )
                .map_err(|e| self.db_error(e))?;
            for (key, count) in entries {
                stmt.execute(params![key.as_slice(), *count as i64, self.run_stamp])
                    .map_err(|e| self.db_error(e))?;
            }
        }
        self.evict(&tx).map_err(|e| self.db_error(e))?;
        tx.commit().map_err(|e| self.db_error(e))
    }
}

/// An HMAC-SHA256 digest.
pub type Digest = [u8; 32];

/// The memory cache's key: the digest's first 128 bits.
fn short(digest: &Digest) -> [u8; 16] {
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// HMAC-SHA256 of `message` under `secret`.
pub fn keyed_digest(secret: &[u8], message: &[u8]) -> Digest {
    keyed_digest_parts(secret, &[message])
}

/// [`keyed_digest`] of the parts' concatenation, without concatenating them.
fn keyed_digest_parts(secret: &[u8], message: &[&[u8]]) -> Digest {
    // HMAC accepts keys of any length, so this cannot fail.
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        return [0u8; 32];
    };
    for part in message {
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// The secret beside the database, in the same directory.
fn secret_path(db: &Path) -> PathBuf {
    db.with_file_name(crate::data::SECRET_FILE)
}

/// HMAC-SHA256 of `message` under `secret`, in hex.
pub fn keyed_hex(secret: &[u8], message: &[u8]) -> String {
    keyed_digest(secret, message)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The data directory's secret (`cache/cache.key`, 32 random bytes, mode 0600), created
/// on first use: what hashes that must not be reversible by guessing (cached terms,
/// output manifests) are keyed with.
pub fn data_secret(data: &crate::data::DataDir) -> Result<Vec<u8>> {
    read_or_create_secret(&data.subdir("cache")?.join(crate::data::SECRET_FILE))
}

/// Reads the data directory's secret, creating it (mode 0600, 32 random bytes) when absent.
pub fn read_or_create_secret(path: &Path) -> Result<Vec<u8>> {
    let err = |e: std::io::Error| Error::io(path, e);
    match std::fs::read(path) {
        Ok(secret) if secret.len() == SECRET_BYTES => {
            restrict(path)?;
            return Ok(secret);
        }
        Ok(_) => {
            return Err(Error::model(
                path,
                format!(
                    "the count cache's secret must be {SECRET_BYTES} bytes; delete it and the cache to start afresh"
                ),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(err(e)),
    }
    let mut secret = vec![0u8; SECRET_BYTES];
    getrandom::fill(&mut secret)
        .map_err(|e| Error::model(path, format!("no random bytes for the cache secret: {e}")))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => {
            use std::io::Write;
            file.write_all(&secret).map_err(err)?;
            file.sync_all().map_err(err)?;
            Ok(secret)
        }
        // Another run created it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read_or_create_secret(path),
        Err(e) => Err(err(e)),
    }
}

/// Makes `path` readable by its owner only (when it exists).
fn restrict(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    Ok(())
}

/// Opens the disk cache; one that cannot be opened as a database (a damaged or foreign
/// file) is only a cache, so it is deleted and created anew, with a warning.
fn open_db(path: &Path, busy_timeout_ms: u64, secret: &[u8]) -> Result<Connection> {
    match try_open_db(path, busy_timeout_ms, secret) {
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
            try_open_db(path, busy_timeout_ms, secret)
        }
        Err(e) => Err(e),
    }
}

fn try_open_db(path: &Path, busy_timeout_ms: u64, secret: &[u8]) -> Result<Connection> {
    let err = |e: rusqlite::Error| Error::model(path, format!("count cache: {e}"));
    // Created owner-only before SQLite opens it; its -wal and -shm files take its mode.
    if !path.exists() {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options.open(path).map_err(|e| Error::io(path, e))?;
    }
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        restrict(Path::new(&name))?;
    }
    let db = Connection::open(path).map_err(err)?;
    db.busy_timeout(Duration::from_millis(busy_timeout_ms))
        .map_err(err)?;
    db.pragma_update(None, "journal_mode", "WAL").map_err(err)?;
    db.pragma_update(None, "synchronous", "NORMAL")
        .map_err(err)?;
    let check = keyed_digest(secret, SECRET_CHECK).to_vec();
    // Checked and rebuilt under the write lock, so concurrent runs agree on the layout.
    db.execute_batch("BEGIN IMMEDIATE;").map_err(err)?;
    let dropped = match ensure_layout(&db, &check) {
        Ok(dropped) => {
            db.execute_batch("COMMIT;").map_err(err)?;
            dropped
        }
        Err(e) => {
            // The error that matters is the first one; the rollback only tidies up.
            let _ = db.execute_batch("ROLLBACK;");
            return Err(err(e));
        }
    };
    if dropped {
        // Compact and truncate the log so no freed page keeps an old key.
        db.execute_batch("VACUUM;").map_err(err)?;
        db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .map_err(err)?;
    }
    Ok(db)
}

/// The stamp of a new run: one more than the last run's, kept in `cache_meta`.
fn next_run_stamp(db: &Connection) -> rusqlite::Result<i64> {
    db.execute_batch("BEGIN IMMEDIATE;")?;
    let result = (|| {
        let last: Option<i64> = db
            .query_row(
                "SELECT value FROM cache_meta WHERE name = 'run_stamp'",
                [],
                |row| row.get(0),
            )
            .optional()?;
        let stamp = last.unwrap_or(0) + 1;
        db.execute(
            "INSERT OR REPLACE INTO cache_meta (name, value) VALUES ('run_stamp', ?1)",
            params![stamp],
        )?;
        Ok(stamp)
    })();
    match result {
        Ok(stamp) => {
            db.execute_batch("COMMIT;")?;
            Ok(stamp)
        }
        Err(e) => {
            // The error that matters is the first one; the rollback only tidies up.
            let _ = db.execute_batch("ROLLBACK;");
            Err(e)
        }
    }
}

/// Makes the database hold the keyed layout written under this secret (`check` is the
/// secret's check value), dropping whatever else it held. Says whether tables were dropped.
fn ensure_layout(db: &Connection, check: &[u8]) -> rusqlite::Result<bool> {
    let version: i64 = db.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version == LAYOUT_VERSION {
        let stored: Option<Vec<u8>> = db
            .query_row(
                "SELECT value FROM cache_meta WHERE name = 'secret_check'",
                [],
                |row| row.get(0),
            )
            .optional()?;
        if stored.as_deref() == Some(check) {
            return Ok(false);
        }
    }
    let tables: Vec<String> = db
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for table in &tables {
        db.execute_batch(&format!("DROP TABLE \"{}\";", table.replace('"', "\"\"")))?;
    }
    db.execute_batch(
        "CREATE TABLE hashed_counts (key BLOB PRIMARY KEY, count INTEGER NOT NULL,
                                     used INTEGER NOT NULL) WITHOUT ROWID;
         CREATE INDEX hashed_counts_used ON hashed_counts (used);
         CREATE TABLE cache_meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);",
    )?;
    db.execute(
        "INSERT INTO cache_meta (name, value) VALUES ('secret_check', ?1)",
        params![check],
    )?;
    db.pragma_update(None, "user_version", LAYOUT_VERSION)?;
    Ok(!tables.is_empty())
}

impl CountLayer for CachedSource {
    fn inner(&self) -> &dyn CountSource {
        self.inner.as_ref()
    }

    fn layer_identity(&self) -> String {
        self.identity.clone()
    }

    fn layer_total_docs(&self) -> Result<u64> {
        let key = self.digest(TOTAL_KEY);
        if let Some(n) = self.memory.get(&short(&key)) {
            return Ok(n);
        }
        if let Some(Some(n)) = self.disk_get(std::slice::from_ref(&key))?.first() {
            self.memory.insert(short(&key), *n);
            return Ok(*n);
        }
        let n = self.inner.total_docs()?;
        self.disk_put(&[(key, n)])?;
        self.memory.insert(short(&key), n);
        Ok(n)
    }

    fn layer_count_batch(&self, requests: &[CountRequest]) -> Result<Vec<u64>> {
        let mut keys: Vec<Digest> = vec![[0u8; 32]; requests.len()];
        CountRequest::for_each_cache_key(requests, |i, parts| keys[i] = self.digest_parts(parts));
        let mut answers: Vec<Option<u64>> =
            keys.iter().map(|k| self.memory.get(&short(k))).collect();
        let missing_memory: Vec<usize> =
            (0..keys.len()).filter(|&i| answers[i].is_none()).collect();
        if !missing_memory.is_empty() {
            let lookup: Vec<Digest> = missing_memory.iter().map(|&i| keys[i]).collect();
            for (&i, found) in missing_memory.iter().zip(self.disk_get(&lookup)?) {
                if let Some(count) = found {
                    self.memory.insert(short(&keys[i]), count);
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
                return Err(Error::count(format!(
                    "{} answered {} of {} requests",
                    self.identity,
                    counts.len(),
                    batch.len()
                )));
            }
            let entries: Vec<(Digest, u64)> = todo
                .iter()
                .zip(&counts)
                .map(|(&i, &c)| (keys[i], c))
                .collect();
            self.disk_put(&entries)?;
            for (key, count) in &entries {
                self.memory.insert(short(key), *count);
            }
            let fetched: std::collections::HashMap<Digest, u64> = entries.into_iter().collect();
            for (i, key) in keys.iter().enumerate() {
                if answers[i].is_none() {
                    answers[i] = fetched.get(key).copied();
                }
            }
        }
        answers
            .into_iter()
            .map(|a| a.ok_or_else(|| Error::count("a count was lost by the cache")))
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

    impl Fake {
        /// A source of the given generation that has been asked nothing yet.
        fn new(generation: &'static str) -> Arc<Fake> {
            Arc::new(Fake {
                asked: AtomicUsize::new(0),
                generation,
            })
        }
    }

    impl CountSource for Fake {
        fn origin(&self) -> crate::stats::Origin {
            crate::stats::Origin::Corpus
        }
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
                        .map(|s| s.alternatives()[0].len() as u64)
                        .sum()
                })
                .collect())
        }
    }

    fn config() -> CountCacheConfig {
        CountCacheConfig {
            disk: true,
            local: true,
            memory_entries: 1000,
            busy_timeout_ms: 1000,
            disk_max_mb: 1024,
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
        let first = Fake::new("g1");
        let cached = CachedSource::new(first.clone(), &config(), Some(&db)).expect("open");
        assert_eq!(cached.count_batch(&requests).expect("count"), vec![2, 4, 2]);
        assert_eq!(
            first.asked.load(Ordering::SeqCst),
            2,
            "duplicates asked once"
        );

        // A new run (new memory cache) with the same generation: answered from disk.
        let second = Fake::new("g1");
        let cached = CachedSource::new(second.clone(), &config(), Some(&db)).expect("open");
        assert_eq!(cached.count_batch(&requests).expect("count"), vec![2, 4, 2]);
        assert_eq!(second.asked.load(Ordering::SeqCst), 0);

        // A rebuilt index (new generation) is asked again.
        let third = Fake::new("g2");
        let cached = CachedSource::new(third.clone(), &config(), Some(&db)).expect("open");
        cached.count_batch(&requests).expect("count");
        assert_eq!(third.asked.load(Ordering::SeqCst), 2);
    }

    /// Past its cap the disk cache evicts the entries unused for the most runs: it stays
    /// under the cap, and what the last runs used is still there.
    #[test]
    fn disk_cache_stays_under_its_cap_and_keeps_what_was_used_last() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let capped = CountCacheConfig {
            disk_max_mb: 1,
            ..config()
        };
        let source = || Fake::new("g1");
        let filler = |run: usize| -> Vec<CountRequest> {
            (0..8_000)
                .map(|i| CountRequest::single(TermSet::from_text(&format!("r{run} w{i}"))))
                .collect()
        };
        let kept = vec![CountRequest::single(TermSet::from_text("kept phrase"))];
        // Run 1 writes the kept entry and filler; run 2 reads the kept entry and writes
        // half as much filler, past the cap: run 1's filler goes, the entry run 2 used
        // stays. Run 2 writes less than run 1 so that dropping run 1's entries is always
        // enough: the table is keyed by random digests, so its pages stay partly full after
        // run 1's entries go, and with as much filler again eviction could have to reach
        // into run 2's entries, which it takes in key order.
        let first = CachedSource::new(source(), &capped, Some(&db)).expect("open");
        first.count_batch(&kept).expect("count");
        first.count_batch(&filler(1)).expect("count");
        drop(first);
        let second = CachedSource::new(source(), &capped, Some(&db)).expect("open");
        second.count_batch(&kept).expect("count");
        second.count_batch(&filler(2)[..4_000]).expect("count");
        drop(second);
        let conn = Connection::open(&db).expect("db");
        let used_bytes: i64 = conn
            .query_row(
                "SELECT (page_count - freelist_count) * page_size \
                 FROM pragma_page_count, pragma_freelist_count, pragma_page_size",
                [],
                |row| row.get(0),
            )
            .expect("size");
        assert!(used_bytes <= 1 << 20, "{used_bytes} bytes in use");
        let last = source();
        let cached = CachedSource::new(last.clone(), &capped, Some(&db)).expect("open");
        cached.count_batch(&kept).expect("count");
        assert_eq!(
            last.asked.load(Ordering::SeqCst),
            0,
            "the entry run 2 used is kept"
        );
        cached.count_batch(&filler(1)).expect("count");
        assert!(
            last.asked.load(Ordering::SeqCst) > 0,
            "the oldest filler was evicted"
        );
    }

    /// The bytes of the database and its log.
    fn disk_bytes(db: &Path) -> Vec<u8> {
        ["", "-wal"]
            .iter()
            .flat_map(|suffix| {
                let mut name = db.as_os_str().to_owned();
                name.push(suffix);
                std::fs::read(Path::new(&name)).unwrap_or_default()
            })
            .collect()
    }

    fn contains(haystack: &[u8], needle: &str) -> bool {
        haystack
            .windows(needle.len())
            .any(|w| w == needle.as_bytes())
    }

    /// A batch's keys, hashed from their parts, are the keys of the requests' joined
    /// canonical text: counts cached before stay found.
    #[test]
    fn batch_digests_are_the_digests_of_whole_keys() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let fake = Fake::new("g1");
        let cached = CachedSource::new(fake, &config(), Some(&db)).expect("open");
        let requests = vec![
            CountRequest::pair(
                TermSet::from_text("margaret ellison"),
                TermSet::from_text("breast cancer"),
            ),
            CountRequest::single(TermSet::from_text("breast cancer")),
        ];
        let mut digests = Vec::new();
        CountRequest::for_each_cache_key(&requests, |_, parts| {
            digests.push(cached.digest_parts(parts))
        });
        let whole: Vec<Digest> = requests
            .iter()
            .map(|r| {
                keyed_digest(
                    &cached.secret,
                    format!("{}\u{1f}{}", cached.identity, r.cache_key()).as_bytes(),
                )
            })
            .collect();
        assert_eq!(digests, whole);
    }

    #[test]
    fn disk_keys_are_keyed_hashes_in_owner_only_files() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let fake = Fake::new("g1");
        let cached = CachedSource::new(fake, &config(), Some(&db)).expect("open");
        let requests = vec![CountRequest::pair(
            TermSet::from_text("breast cancer"),
            TermSet::from_text("margaret ellison"),
        )];
        cached.count_batch(&requests).expect("count");
        drop(cached);
        let bytes = disk_bytes(&db);
        assert!(!bytes.is_empty());
        for term in ["ellison", "breast cancer", "fake:g1"] {
            assert!(!contains(&bytes, term), "{term} stored in clear");
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for file in [db.clone(), tmp.path().join("cache.key")] {
                let mode = std::fs::metadata(&file)
                    .expect("exists")
                    .permissions()
                    .mode();
                assert_eq!(mode & 0o777, 0o600, "{}", file.display());
            }
        }
    }

    #[test]
    fn a_clear_text_cache_is_dropped_not_read() {
        let tmp = tempfile::tempdir().expect("tmp");
        let db = tmp.path().join("counts.sqlite");
        let request = CountRequest::single(TermSet::from_text("margaret ellison"));
        {
            let old = Connection::open(&db).expect("open");
            old.execute_batch(
                "CREATE TABLE counts (key TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;",
            )
            .expect("old layout");
            old.execute(
                "INSERT INTO counts (key, count) VALUES (?1, 999)",
                params![format!("fake:g1\u{1f}{}", request.cache_key())],
            )
            .expect("old entry");
        }
        assert!(contains(&disk_bytes(&db), "ellison"));
        let fake = Fake::new("g1");
        let cached = CachedSource::new(fake.clone(), &config(), Some(&db)).expect("open");
        assert_eq!(cached.count_batch(&[request]).expect("count"), vec![2]);
        assert_eq!(fake.asked.load(Ordering::SeqCst), 1, "asked, not read");
        drop(cached);
        assert!(!contains(&disk_bytes(&db), "ellison"));
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
                let fake = Fake::new("g");
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
        let reader = Fake::new("g");
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
