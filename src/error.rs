//! The library's error type: every failure names what it was working on, so the binary
//! can print one line that tells the user which file or term is at fault.

use std::path::PathBuf;

/// Errors the library reports to its callers.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// Input that is not a text document we can read (binary, invalid UTF-8, bad format).
    #[error("{}: {message}", path.display())]
    Input { path: PathBuf, message: String },
    /// A model or data file the engine ships or builds is missing or corrupt.
    #[error("{}: {message}", path.display())]
    Model { path: PathBuf, message: String },
    /// Counts could not be had: the engine cannot assess the document and must not emit it.
    /// `source` keeps the failure underneath (an HTTP client's, a table's) for callers
    /// that look at it; `message` already says it in words.
    #[error("counts unavailable: {message}")]
    Count {
        message: String,
        #[source]
        source: Option<BoxedSource>,
    },
    /// The knowledge base could not answer: same consequence as missing counts.
    #[error("knowledge base unavailable: {message}")]
    Knowledge {
        message: String,
        #[source]
        source: Option<BoxedSource>,
    },
    /// An external program that fetches or unpacks data packages (pip, npm, tar) could
    /// not be started (`source`) or failed, about the file or directory `path`.
    #[error("{}: {message}", path.display())]
    Tool {
        path: PathBuf,
        message: String,
        #[source]
        source: Option<std::io::Error>,
    },
    /// A plot could not be drawn or encoded.
    #[error("cannot draw the {what} plot: {message}")]
    Plot { what: String, message: String },
    /// A parameter out of range (`k < 2`, an empty list…), named by `what`.
    #[error("{what}: {message}")]
    Parameter { what: String, message: String },
    /// An error in one part of a larger job (a variant, a document), saying which part.
    #[error("{context}: {source}")]
    Within { context: String, source: Box<Error> },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The underlying failure an error keeps as its source, whatever crate it comes from.
pub type BoxedSource = Box<dyn std::error::Error + Send + Sync>;

impl Error {
    /// This error as one of the part `context` of a larger job.
    pub fn within(self, context: impl Into<String>) -> Self {
        Error::Within {
            context: context.into(),
            source: Box::new(self),
        }
    }

    /// Counts could not be had, for the reason `message` says.
    pub fn count(message: impl Into<String>) -> Self {
        Error::Count {
            message: message.into(),
            source: None,
        }
    }

    /// Counts could not be had because of `source`, which `message` describes.
    pub fn count_from(message: impl Into<String>, source: impl Into<BoxedSource>) -> Self {
        Error::Count {
            message: message.into(),
            source: Some(source.into()),
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub fn input(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Input {
            path: path.into(),
            message: message.into(),
        }
    }

    pub fn parameter(what: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Parameter {
            what: what.into(),
            message: message.into(),
        }
    }

    pub fn model(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Error::Model {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Collects the first failed check of a configuration section: its key and what is
/// wrong, so every stage's `validate` words its errors alike.
#[derive(Default)]
pub struct Checks {
    failure: Option<(String, String)>,
}

impl Checks {
    pub fn fail(&mut self, key: &str, message: &str) {
        if self.failure.is_none() {
            self.failure = Some((key.to_string(), message.to_string()));
        }
    }

    pub fn range(&mut self, key: &str, value: usize, low: usize, high: usize) {
        if value < low || value > high {
            let message = if high == usize::MAX {
                format!("{value} is out of range: must be at least {low}")
            } else {
                format!("{value} is out of range: must be from {low} to {high}")
            };
            self.fail(key, &message);
        }
    }

    pub fn finite_at_least(&mut self, key: &str, value: f64, low: f64) {
        if !(value.is_finite() && value >= low) {
            self.fail(key, &format!("{value} must be a finite number ≥ {low}"));
        }
    }

    /// In [0, 1] (`closed`) or in (0, 1].
    pub fn unit_interval(&mut self, key: &str, value: f64, closed: bool) {
        let low_ok = if closed { value >= 0.0 } else { value > 0.0 };
        if !(low_ok && value <= 1.0) {
            let range = if closed { "[0, 1]" } else { "(0, 1]" };
            self.fail(key, &format!("{value} must be in {range}"));
        }
    }

    pub fn unit_interval_open(&mut self, key: &str, value: f64) {
        if !(value > 0.0 && value < 1.0) {
            self.fail(key, &format!("{value} must be in (0, 1)"));
        }
    }

    pub fn one_of(&mut self, key: &str, value: &str, allowed: &[&str]) {
        if !allowed.contains(&value) {
            self.fail(
                key,
                &format!(
                    "unknown value `{value}` (expected one of: {})",
                    allowed.join(", ")
                ),
            );
        }
    }

    pub fn into_result(self) -> Result<()> {
        match self.failure {
            None => Ok(()),
            Some((key, message)) => Err(Error::Config {
                path: key.into(),
                message,
            }),
        }
    }
}
