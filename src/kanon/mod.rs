//! k-anonymous masking of quasi-identifiers (Maeda, Suzuki & Nakamura 2016): a
//! quasi-identifier found in text is replaced by a pattern of itself with some characters
//! masked, such that at least k entries of the quasi-identifier list W match the pattern,
//! masking as few characters as possible. The anonymization dictionary is built once
//! ([`dictionary::build`]) and stored in SQLite ([`KanonDb`]).

pub mod dictionary;
pub mod wordlist;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::text::tokenize::{TokenKind, tokenize};
pub use dictionary::{Pattern, TermEntry, normalize_entry};

/// `[kanon]` in config.toml.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KanonConfig {
    pub min_k: usize,
    pub k: usize,
    pub max_ngram: usize,
    pub mask_char: char,
    pub budget_per_term: usize,
}

/// Schema version of the dictionary file; a different one must be rebuilt.
const SCHEMA_VERSION: &str = "1";

/// Builds the dictionary for `list` and writes it to `path` atomically (a temporary
/// file in the same directory, renamed when complete).
pub fn build_db(list: &[String], min_k: usize, budget: usize, path: &Path) -> Result<BuildStats> {
    let entries = dictionary::build(list, min_k, budget)?;
    let tmp = crate::io::temp_file_for(path)?;
    let db_error = |e: rusqlite::Error| Error::model(path, format!("writing dictionary: {e}"));
    {
        let mut conn = Connection::open(tmp.path()).map_err(db_error)?;
        conn.execute_batch(
            "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
             CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE,
                                 shape_count INTEGER NOT NULL, complete INTEGER NOT NULL);
             CREATE TABLE patterns (term_id INTEGER NOT NULL, r INTEGER NOT NULL,
                                    khat INTEGER NOT NULL, kept TEXT NOT NULL,
                                    a_string TEXT NOT NULL,
                                    PRIMARY KEY (term_id, r)) WITHOUT ROWID;",
        )
        .map_err(db_error)?;
        let tx = conn.transaction().map_err(db_error)?;
        {
            let mut meta = tx
                .prepare("INSERT INTO meta (key, value) VALUES (?1, ?2)")
                .map_err(db_error)?;
            for (key, value) in [
                ("schema", SCHEMA_VERSION.to_string()),
                ("min_k", min_k.to_string()),
                ("list_len", entries.len().to_string()),
            ] {
                meta.execute(params![key, value]).map_err(db_error)?;
            }
            let mut term = tx
                .prepare(
                    "INSERT INTO terms (id, term, shape_count, complete) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(db_error)?;
            let mut pattern = tx
                .prepare(
                    "INSERT INTO patterns (term_id, r, khat, kept, a_string) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(db_error)?;
            for (id, entry) in entries.iter().enumerate() {
                term.execute(params![
                    id as i64,
                    entry.term,
                    entry.shape_count,
                    entry.complete
                ])
                .map_err(db_error)?;
                for p in &entry.frontier {
                    let kept: String = p.kept.iter().map(|&k| if k { '1' } else { '0' }).collect();
                    pattern
                        .execute(params![
                            id as i64,
                            p.masked,
                            p.khat,
                            kept,
                            p.render(&entry.term, '*')
                        ])
                        .map_err(db_error)?;
                }
            }
        }
        tx.commit().map_err(db_error)?;
    }
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(BuildStats {
        terms: entries.len(),
        patterns: entries.iter().map(|e| e.frontier.len()).sum(),
        incomplete: entries.iter().filter(|e| !e.complete).count(),
    })
}

/// What a build produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildStats {
    pub terms: usize,
    pub patterns: usize,
    /// Terms whose search hit the budget (their patterns are exact, maybe not minimal).
    pub incomplete: usize,
}

/// A stored anonymization dictionary.
pub struct KanonDb {
    conn: Connection,
    path: PathBuf,
    /// The K it was built with: patterns with k̂ < K were not kept.
    pub min_k: usize,
    /// Distinct entries of the list.
    pub list_len: usize,
}

/// A quasi-identifier replaced by its pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Masked {
    /// The phrase with masked characters replaced (original case kept elsewhere).
    pub text: String,
    pub khat: u32,
    pub masked: u32,
    /// False when even masking every character leaves fewer than k matching entries.
    pub reached_k: bool,
}

/// Counts from masking a text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MaskStats {
    pub found: usize,
    pub masked_chars: usize,
    /// Phrases whose shape has fewer than k list entries (masked completely anyway).
    pub below_k: usize,
}

impl KanonDb {
    pub fn open(path: &Path) -> Result<KanonDb> {
        if !path.is_file() {
            return Err(Error::model(
                path,
                "no such dictionary; build it with `declass kanon build`",
            ));
        }
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map_err(|e| Error::model(path, format!("cannot open dictionary: {e}")))?;
        let meta = |key: &str| -> Result<String> {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .map_err(|e| Error::model(path, format!("not a kanon dictionary ({key}: {e})")))
        };
        let schema = meta("schema")?;
        if schema != SCHEMA_VERSION {
            return Err(Error::model(
                path,
                format!("dictionary schema {schema}, expected {SCHEMA_VERSION}: rebuild it"),
            ));
        }
        let number = |key: &str| -> Result<usize> {
            meta(key)?
                .parse()
                .map_err(|_| Error::model(path, format!("bad `{key}` in dictionary metadata")))
        };
        let min_k = number("min_k")?;
        let list_len = number("list_len")?;
        Ok(KanonDb {
            conn,
            path: path.to_path_buf(),
            min_k,
            list_len,
        })
    }

    /// Checks that `k` can be answered from this dictionary.
    pub fn check_k(&self, k: usize) -> Result<()> {
        if k < 2 {
            return Err(Error::parameter(
                "kanon k",
                format!("must be at least 2 (got {k})"),
            ));
        }
        if k < self.min_k {
            return Err(Error::parameter(
                "kanon k",
                format!(
                    "{k} is below the dictionary's minimum {}; rebuild with a smaller --min-k",
                    self.min_k
                ),
            ));
        }
        if k > self.list_len {
            return Err(Error::parameter(
                "kanon k",
                format!("{k} is larger than the list ({} entries)", self.list_len),
            ));
        }
        Ok(())
    }

    /// The entry of a normalized phrase, if it is in the list.
    pub fn lookup(&self, normalized: &str) -> Result<Option<TermEntry>> {
        let db_error = |e: rusqlite::Error| Error::model(&self.path, format!("query: {e}"));
        let mut by_term = self
            .conn
            .prepare_cached("SELECT id, shape_count, complete FROM terms WHERE term = ?1")
            .map_err(db_error)?;
        let Some((id, shape_count, complete)) = by_term
            .query_row([normalized], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, u32>(1)?,
                    r.get::<_, bool>(2)?,
                ))
            })
            .optional()
            .map_err(db_error)?
        else {
            return Ok(None);
        };
        let mut patterns = self
            .conn
            .prepare_cached("SELECT r, khat, kept FROM patterns WHERE term_id = ?1 ORDER BY r")
            .map_err(db_error)?;
        let frontier = patterns
            .query_map([id], |r| {
                let kept: String = r.get(2)?;
                Ok(Pattern {
                    masked: r.get(0)?,
                    khat: r.get(1)?,
                    kept: kept.chars().map(|c| c == '1').collect(),
                })
            })
            .map_err(db_error)?
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(db_error)?;
        Ok(Some(TermEntry {
            term: normalized.to_string(),
            shape_count,
            complete,
            frontier,
        }))
    }

    /// The operator for the sanitizer: masks `phrase` (as written in the text) to a
    /// pattern matched by at least `k` list entries with the fewest masked characters.
    /// `None` when the phrase is not in the list.
    pub fn mask_quasi_identifier(
        &self,
        phrase: &str,
        k: usize,
        mask: char,
    ) -> Result<Option<Masked>> {
        self.check_k(k)?;
        let normalized = normalize_entry(phrase);
        let Some(entry) = self.lookup(&normalized)? else {
            return Ok(None);
        };
        Ok(Some(apply_pattern(phrase, &entry, k as u32, mask)))
    }

    /// Replaces every quasi-identifier of `text` found by token n-gram lookup (longest
    /// first, then leftmost) by its pattern; everything else is unchanged.
    pub fn mask_text(
        &self,
        text: &str,
        k: usize,
        mask: char,
        max_ngram: usize,
    ) -> Result<(String, MaskStats)> {
        self.check_k(k)?;
        let tokens = tokenize(text);
        let is_edge = |i: usize| !matches!(tokens[i].kind, TokenKind::Punct | TokenKind::Symbol);
        let mut out = String::with_capacity(text.len());
        let mut stats = MaskStats::default();
        let mut copied = 0usize;
        let mut i = 0usize;
        while i < tokens.len() {
            let mut matched = None;
            if is_edge(i) {
                let longest = max_ngram.min(tokens.len() - i);
                for n in (1..=longest).rev() {
                    let j = i + n - 1;
                    if !is_edge(j) {
                        continue;
                    }
                    let span = tokens[i].start..tokens[j].end;
                    if let Some(entry) = self.lookup(&normalize_entry(&text[span.clone()]))? {
                        matched = Some((n, span, entry));
                        break;
                    }
                }
            }
            match matched {
                Some((n, span, entry)) => {
                    let masked = apply_pattern(&text[span.clone()], &entry, k as u32, mask);
                    stats.found += 1;
                    stats.masked_chars += masked.masked as usize;
                    stats.below_k += usize::from(!masked.reached_k);
                    out.push_str(&text[copied..span.start]);
                    out.push_str(&masked.text);
                    copied = span.end;
                    i += n;
                }
                None => i += 1,
            }
        }
        out.push_str(&text[copied..]);
        Ok((out, stats))
    }
}

/// Masks `phrase` (original spelling) with the entry's pattern for `k`. Characters map
/// to the normalized term one to one except whitespace runs (one space) and the rare
/// character whose lowercase is longer (masked if any of its parts is).
fn apply_pattern(phrase: &str, entry: &TermEntry, k: u32, mask: char) -> Masked {
    let chosen = entry.pattern_for(k);
    let mut out = String::with_capacity(phrase.len());
    let mut idx = 0usize;
    let mut in_space = false;
    let mut masked = 0u32;
    for c in phrase.chars() {
        if c.is_whitespace() {
            if !in_space {
                idx += 1;
            }
            in_space = true;
            out.push(c);
            continue;
        }
        in_space = false;
        let width = c.to_lowercase().count();
        let keep = chosen.is_some_and(|p| (idx..idx + width).all(|q| p.kept.get(q) == Some(&true)));
        idx += width;
        if keep {
            out.push(c);
        } else {
            out.push(mask);
            masked += 1;
        }
    }
    Masked {
        text: out,
        khat: chosen.map_or(entry.shape_count, |p| p.khat),
        masked,
        reached_k: chosen.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn build_open_and_mask_text() {
        let dir = tempfile::tempdir().expect("tmp");
        let db_path = dir.path().join("qi.sqlite");
        let w = list(&[
            "Paris", "Parma", "Perth", "Porto", "New York", "New Yolk", "Nara",
        ]);
        let stats = build_db(&w, 2, 10_000, &db_path).expect("build");
        assert_eq!(stats.terms, 7);
        let db = KanonDb::open(&db_path).expect("open");
        assert_eq!((db.min_k, db.list_len), (2, 7));
        let text = "She moved from Paris to New  York, not to Nara.";
        let (out, stats) = db.mask_text(text, 2, '*', 4).expect("mask");
        assert_eq!(out.chars().count(), text.chars().count());
        assert_eq!(stats.found, 3);
        // Paris/Parma share "Par": one extra mask at least; "New  York" keeps its two spaces.
        assert!(out.starts_with("She moved from Par"), "{out}");
        assert!(out.contains("New  Yo*k"), "{out}");
        assert!(!out.contains("Nara"), "{out}");
        assert!(out.ends_with("."), "{out}");
        // Deterministic.
        assert_eq!(db.mask_text(text, 2, '*', 4).expect("again").0, out);
        let op = db
            .mask_quasi_identifier("PARIS", 2, '#')
            .expect("op")
            .expect("in list");
        assert!(op.khat >= 2 && op.text.starts_with("PAR"), "{op:?}");
        assert!(
            db.mask_quasi_identifier("London", 2, '#')
                .expect("op")
                .is_none()
        );
    }

    #[test]
    fn bad_k_and_missing_db_are_errors() {
        let dir = tempfile::tempdir().expect("tmp");
        let db_path = dir.path().join("qi.sqlite");
        build_db(&list(&["aa", "ab", "ba"]), 2, 100, &db_path).expect("build");
        let db = KanonDb::open(&db_path).expect("open");
        let small = db.mask_text("aa", 1, '*', 3).expect_err("k = 1");
        assert_eq!(small.to_string(), "kanon k: must be at least 2 (got 1)");
        let large = db.mask_text("aa", 4, '*', 3).expect_err("k over the list");
        assert_eq!(
            large.to_string(),
            "kanon k: 4 is larger than the list (3 entries)"
        );
        let err = KanonDb::open(&dir.path().join("none.sqlite"))
            .err()
            .expect("missing");
        assert!(err.to_string().contains("kanon build"), "{err}");
        std::fs::write(dir.path().join("junk.sqlite"), b"not a database at all").expect("write");
        let junk = KanonDb::open(&dir.path().join("junk.sqlite"))
            .err()
            .expect("not a database");
        assert!(matches!(junk, Error::Model { .. }), "{junk}");
        assert!(junk.to_string().contains("junk.sqlite"), "{junk}");
    }
}
