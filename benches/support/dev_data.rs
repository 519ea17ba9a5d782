//! Where the benches find the development data.

use std::path::PathBuf;

/// The development data, which is not part of the repository: the directory
/// `$DECLASS_DEV_DATA`, by default `../shared/data` beside the checkout, holding the public
/// data sets as their releases unpack — `UD_English-EWT/` (UD English Web Treebank v2.15),
/// `ncbi-disease/` (NCBI disease corpus), `TAB/` (Text Anonymization Benchmark) and
/// `wiki-bios-dev/` (30 wiki-replace biographies); where to get each and its licence: the
/// README's "References".
pub fn dev_data() -> PathBuf {
    std::env::var_os("DECLASS_DEV_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"))
}
