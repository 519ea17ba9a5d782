//! Where the engine keeps its runtime data: downloaded sources, the knowledge-base store,
//! corpus indexes and count caches.

use std::path::{Path, PathBuf};

use serde::Deserialize;

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
    pub fn resolve(cli: Option<&Path>, config: &DataConfig) -> Result<DataDir> {
        let root = match cli {
            Some(p) => p.to_path_buf(),
            None if !config.dir.is_empty() => PathBuf::from(&config.dir),
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

    /// Creates (if needed) and returns a subdirectory.
    pub fn subdir(&self, name: &str) -> Result<PathBuf> {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        Ok(dir)
    }
}

/// Where the data directory is (`[data]`), when `--data-dir` does not say.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataConfig {
    /// Empty means the per-user data directory.
    pub dir: String,
}
