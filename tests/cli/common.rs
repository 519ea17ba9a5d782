//! What the integration tests share: the one way they run the binary (always with a
//! temporary `--data-dir`, so no test reads or writes a user's real data directory), a data
//! directory with a small reference corpus built by the binary itself (no network), and the
//! location of the annotated development data the `#[ignore]`d tests need.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use assert_cmd::Command;

/// `declass --data-dir DATA` as a process to spawn (for tests that drive its pipes).
/// `DATA` must lie in the system's temporary directory: a test that forgot to make one
/// would otherwise use (and write into) the user's real data directory.
pub fn declass_process(data: &Path) -> std::process::Command {
    assert!(
        data.starts_with(std::env::temp_dir()),
        "tests run declass on a temporary data directory, not {}",
        data.display()
    );
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_declass"));
    command.arg("--data-dir").arg(data);
    command
}

/// `declass --data-dir DATA`, with `assert_cmd`'s assertions.
pub fn declass(data: &Path) -> Command {
    Command::from_std(declass_process(data))
}

/// [`declass`] that never fetches packages (`--no-auto-setup`): for tests whose data
/// directory is deliberately incomplete.
pub fn declass_offline(data: &Path) -> Command {
    let mut command = declass(data);
    command.arg("--no-auto-setup");
    command
}

/// A temporary directory holding a data directory (`data`) with a small reference corpus
/// named like the default one, and a configuration (`config`) without the word-frequency
/// prior or automatic setup (no network). Removed when dropped.
pub struct Setup {
    _dir: tempfile::TempDir,
    pub data: PathBuf,
    pub config: PathBuf,
    pub root: PathBuf,
}

/// The corpus of [`setup`]: `(copies, text)`, 136 documents.
const BASE_CORPUS: &[(usize, &str)] = &[
    (
        6,
        "Patients with breast cancer often receive radiotherapy, a therapy.",
    ),
    (
        20,
        "Therapy and medical care help many patients in a hospital.",
    ),
    (30, "The disease was treated in a hospital by a physician."),
    (40, "The garden had roses and a person walked there."),
    (40, "A person read a book about history and music."),
];

/// The configuration every [`Setup`] starts from.
const BASE_CONFIG: &str =
    "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n";

/// A data directory with the small corpus and the base configuration.
pub fn setup() -> Setup {
    setup_with(&[])
}

/// [`setup`] with `extra` documents in the corpus: `(copies, text)`.
///
/// Every test starts from a copy of one data directory per test process ([`template`]):
/// the base corpus and the caches its first run fills (the knowledge-base index, the
/// corpus's phrase and concept tables), which are the same for every test and took most
/// of each test's time to rebuild. With `extra` documents the corpus is built afresh and
/// only the knowledge-base index (which depends on the knowledge bases alone) is copied.
/// The engine checks every cache it reads against what it was built from, so a copy can
/// make a test faster but never change what it sees.
pub fn setup_with(extra: &[(usize, &str)]) -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_path_buf();
    let data = root.join("data");
    let config = write(&root, "config.toml", BASE_CONFIG);
    let template = template();
    if extra.is_empty() {
        copy_dir(template, &data);
    } else {
        let corpus = write(
            &root,
            "corpus.jsonl",
            &jsonl_corpus(BASE_CORPUS.iter().chain(extra)),
        );
        build_corpus(&data, &config, &corpus);
        let index = Path::new("cache").join("kb-index-flat.bin");
        std::fs::create_dir_all(data.join("cache")).expect("cache directory");
        std::fs::copy(template.join(&index), data.join(&index)).expect("copy the index");
    }
    Setup {
        _dir: dir,
        data,
        config,
        root,
    }
}

fn build_corpus(data: &Path, config: &Path, corpus: &Path) {
    declass(data)
        .arg("--config")
        .arg(config)
        .args(["corpus", "build", "--name", "wiki"])
        .arg(corpus)
        .assert()
        .success();
}

/// The data directory every [`setup`] copies: the base corpus, sanitized once so its
/// caches are filled. Built once per test process in the temporary directory and removed
/// when the process exits.
fn template() -> &'static Path {
    static TEMPLATE: OnceLock<PathBuf> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        let root = tempfile::Builder::new()
            .prefix("declass-cli-template")
            .tempdir()
            .expect("tempdir")
            .keep();
        extern "C" fn remove_template() {
            if let Some(root) = TEMPLATE.get().and_then(|data| data.parent()) {
                let _ = std::fs::remove_dir_all(root);
            }
        }
        // SAFETY: `remove_template` is an `extern "C"` function taking nothing, as
        // `atexit` requires; it only removes files.
        unsafe { libc::atexit(remove_template) };
        let data = root.join("data");
        let config = write(&root, "config.toml", BASE_CONFIG);
        let corpus = write(&root, "corpus.jsonl", &jsonl_corpus(BASE_CORPUS));
        build_corpus(&data, &config, &corpus);
        let text = write(
            &root,
            "warm.txt",
            "A physician treated the disease in a hospital.",
        );
        declass(&data)
            .arg("--config")
            .arg(&config)
            .arg("sanitize")
            .arg(&text)
            .assert()
            .success();
        data
    })
}

/// Copies the directory `from` (files and subdirectories) to `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create directory");
    for entry in std::fs::read_dir(from).expect("read directory") {
        let entry = entry.expect("directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

impl Setup {
    /// `declass` on this data directory and configuration.
    pub fn declass(&self) -> Command {
        self.declass_with_config(&self.config)
    }

    /// `declass` on this data directory with another configuration file.
    pub fn declass_with_config(&self, config: &Path) -> Command {
        let mut command = declass(&self.data);
        command.arg("--config").arg(config);
        command
    }

    /// Writes the base configuration followed by `extra` (TOML sections) to `name`.
    pub fn config_with(&self, name: &str, extra: &str) -> PathBuf {
        write(&self.root, name, &format!("{BASE_CONFIG}{extra}\n"))
    }
}

/// JSON Lines documents `{"id", "text"}`: `copies` of each text, ids numbered in order.
pub fn jsonl_corpus<'a>(texts: impl IntoIterator<Item = &'a (usize, &'a str)>) -> String {
    let mut docs = String::new();
    let mut id = 0usize;
    for &(copies, text) in texts {
        for _ in 0..copies {
            docs.push_str(&serde_json::json!({"id": id.to_string(), "text": text}).to_string());
            docs.push('\n');
            id += 1;
        }
    }
    docs
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// Runs a command that must succeed and returns its standard output as JSON.
pub fn stdout_json(command: &mut Command) -> serde_json::Value {
    let output = command.output().expect("runs");
    assert_success(&output);
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// Whether a JSON report's `hidden_content` lists `part` with its `field` (`action` or
/// `content`) beginning with `starting`: what a release removed or cleared besides its
/// text, as a user reads it.
pub fn hidden_lists(report: &serde_json::Value, part: &str, field: &str, starting: &str) -> bool {
    report["hidden_content"]
        .as_array()
        .expect("hidden_content")
        .iter()
        .any(|h| h["part"] == part && h[field].as_str().is_some_and(|v| v.starts_with(starting)))
}

/// A failure the way the binary must fail on bad input: a non-zero exit that is not a
/// panic, and standard error naming each of `needles` (the file, row, field…).
pub fn assert_clean_failure(out: &std::process::Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "must fail: {stderr}");
    assert_ne!(out.status.code(), Some(101), "panicked: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "`{needle}` not in: {stderr}");
    }
}

/// Fails the test unless the file at `path` reads and contains `part`.
pub fn assert_file_contains(path: &Path, part: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        text.contains(part),
        "`{part}` not in {}: {text}",
        path.display()
    );
}

/// Fails the test with the command's standard error unless it succeeded.
pub fn assert_success(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A file of the annotated development data, which is not part of the repository: the
/// directory `$DECLASS_DEV_DATA`, by default `../shared/data` beside the checkout, laid out
/// as the public releases are unpacked — `wiki-bios-dev/wiki_bios_dev.json` (30 test
/// biographies of the wiki-replace collection, Papadopoulou et al., LREC 2022: English
/// Wikipedia text, CC BY-SA) and `UD_English-EWT/` (UD English Web Treebank v2.15, CC BY-SA
/// 4.0, github.com/UniversalDependencies/UD_English-EWT). The tests that read it are
/// `#[ignore]`d, so `cargo test` passes without it; `.ci/run` runs them with `--ignored`,
/// where a missing file fails the test naming the path.
pub fn dev_data(relative: &str) -> PathBuf {
    let root = std::env::var_os("DECLASS_DEV_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"));
    let path = root.join(relative);
    assert!(
        path.exists(),
        "{} is missing: set DECLASS_DEV_DATA to the directory holding the development data",
        path.display()
    );
    path
}
