//! The knowledge bases compiled into the binary, so `cargo install` gives a working
//! engine before any download. They are the files under `kb/` that `declass kb
//! build-shipped kb` generates from the pinned packages (see kb/SOURCES.md); `declass
//! setup` rebuilds the same files into the data directory, which then take precedence.

use crate::kb::KbConfig;

/// A compiled-in knowledge base.
pub struct ShippedKb {
    pub name: &'static str,
    /// The repository file the bytes come from.
    pub path: &'static str,
    pub bytes: &'static [u8],
}

pub const SHIPPED: &[ShippedKb] = &[
    ShippedKb {
        name: "wordnet",
        path: "kb/wordnet.nt.gz",
        bytes: include_bytes!("../../kb/wordnet.nt.gz"),
    },
    ShippedKb {
        name: "geonames",
        path: "kb/geonames.nt.gz",
        bytes: include_bytes!("../../kb/geonames.nt.gz"),
    },
    ShippedKb {
        name: crate::kb::mesh::NAME,
        path: "kb/mesh.nt.gz",
        bytes: include_bytes!("../../kb/mesh.nt.gz"),
    },
];

/// The configured lookup priority of a shipped knowledge base.
pub fn priority(name: &str, config: &KbConfig) -> i32 {
    match name {
        "wordnet" => config.wordnet_priority,
        "geonames" => config.geonames_priority,
        "mesh" => config.mesh_priority,
        _ => config.plugin_priority,
    }
}
