//! Where the engine keeps its runtime data: downloaded sources, the knowledge-base store,
//! corpus indexes and count caches.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::{Error, Result};

/// The secret's file name, in the `cache` subdirectory.
pub const SECRET_FILE: &str = "cache.key";

/// The resolved data directory.
#[derive(Debug, Clone)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// `--data-dir` wins, then `data.dir` from the configuration, then the per-user data
    /// directory of the platform (e.g. `~/.local/share/declass`).
    pub fn resolve(cli: Option<&Path>, config: &Config) -> Result<DataDir> {
        let root = match cli {
            Some(p) => p.to_path_buf(),
            None if !config.data.dir.is_empty() => PathBuf::from(&config.data.dir),
            None => directories::ProjectDirs::from("", "", "declass")
                .map(|d| d.data_dir().to_path_buf())
                .ok_or_else(|| Error::Config {
                    path: PathBuf::from("data.dir"),
                    message: "no home directory to put data in; set data.dir or --data-dir"
                        .to_string(),
                })?,
        };
        Ok(DataDir { root })
    }

    pub fn at(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The data directory's secret (`cache/cache.key`, 32 random bytes, mode 0600), created
    /// on first use: what hashes that must not be reversible by guessing (cached terms,
    /// output manifests) are keyed with.
    pub fn secret(&self) -> Result<Vec<u8>> {
        crate::stats::cache::read_or_create_secret(&self.subdir("cache")?.join(SECRET_FILE))
    }

    /// Creates (if needed) and returns a subdirectory.
    pub fn subdir(&self, name: &str) -> Result<PathBuf> {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        Ok(dir)
    }
}
