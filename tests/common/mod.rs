//! What the integration tests that run the engine share: a data directory with a small
//! reference corpus built by the binary itself (no network), and helpers to run it.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

pub struct Setup {
    _dir: tempfile::TempDir,
    pub data: PathBuf,
    pub config: PathBuf,
    pub root: PathBuf,
}

/// A data directory with a small reference corpus named like the default one, and a
/// configuration without the word-frequency prior or automatic setup (no network).
pub fn setup() -> Setup {
    setup_with(&[])
}

/// [`setup`] with `extra` documents in the corpus: `(copies, text)`.
pub fn setup_with(extra: &[(usize, &str)]) -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().to_path_buf();
    let data = root.join("data");
    let mut docs = String::new();
    let mut add = |n: usize, text: &str| {
        for i in 0..n {
            docs.push_str(
                &serde_json::json!({"id": format!("{}-{i}", docs.len()), "text": text}).to_string(),
            );
            docs.push('\n');
        }
    };
    add(
        6,
        "Patients with breast cancer often receive radiotherapy, a therapy.",
    );
    add(
        20,
        "Therapy and medical care help many patients in a hospital.",
    );
    add(30, "The disease was treated in a hospital by a physician.");
    add(40, "The garden had roses and a person walked there.");
    add(40, "A person read a book about history and music.");
    for &(n, text) in extra {
        add(n, text);
    }
    let corpus = root.join("corpus.jsonl");
    std::fs::write(&corpus, docs).expect("write corpus");
    let config = root.join("config.toml");
    std::fs::write(
        &config,
        "[stats]\nprior = \"none\"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n",
    )
    .expect("write config");
    Command::cargo_bin("declass")
        .expect("binary")
        .args(["--data-dir"])
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["corpus", "build", "--name", "wiki"])
        .arg(&corpus)
        .assert()
        .success();
    Setup {
        _dir: dir,
        data,
        config,
        root,
    }
}

pub fn declass(s: &Setup) -> Command {
    let mut cmd = Command::cargo_bin("declass").expect("binary");
    cmd.arg("--data-dir")
        .arg(&s.data)
        .arg("--config")
        .arg(&s.config);
    cmd
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}
