//! The knowledge bases compiled into the binary, so `cargo install` gives a working
//! engine before any download. They are the files under `kb/` that `declass kb
//! build-shipped kb` generates from the pinned packages (see kb/SOURCES.md); `declass
//! setup` rebuilds the same files into the data directory, which then take precedence.

use crate::kb::KbConfig;

/// A compiled-in knowledge base, described whole: what it is called, where its bytes
/// come from and which `[kb]` key sets its lookup priority, so a new one cannot be
/// loaded at a plug-in's priority for want of a name in a list.
pub struct ShippedKb {
    pub name: &'static str,
    /// The repository file the bytes come from.
    pub path: &'static str,
    pub bytes: &'static [u8],
    /// Its lookup priority under `[kb]`.
    pub priority: fn(&KbConfig) -> i32,
}

pub const SHIPPED: &[ShippedKb] = &[
    ShippedKb {
        name: "wordnet",
        path: "kb/wordnet.nt.gz",
        bytes: include_bytes!("../../kb/wordnet.nt.gz"),
        priority: |config| config.wordnet_priority,
    },
    ShippedKb {
        name: "geonames",
        path: "kb/geonames.nt.gz",
        bytes: include_bytes!("../../kb/geonames.nt.gz"),
        priority: |config| config.geonames_priority,
    },
    ShippedKb {
        name: crate::kb::mesh::NAME,
        path: "kb/mesh.nt.gz",
        bytes: include_bytes!("../../kb/mesh.nt.gz"),
        priority: |config| config.mesh_priority,
    },
];

/// The shipped knowledge base named `name`, if one is.
pub fn find(name: &str) -> Option<&'static ShippedKb> {
    SHIPPED.iter().find(|kb| kb.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_shipped_knowledge_base_reads_its_own_priority() {
        let mut config = crate::Config::builtin().expect("config").kb;
        config.wordnet_priority = 11;
        config.geonames_priority = 12;
        config.mesh_priority = 13;
        config.plugin_priority = 14;
        let priorities: Vec<(&str, i32)> = SHIPPED
            .iter()
            .map(|kb| (kb.name, (kb.priority)(&config)))
            .collect();
        assert_eq!(
            priorities,
            vec![("wordnet", 11), ("geonames", 12), ("mesh", 13)]
        );
        assert!(find("mesh").is_some());
        assert!(find("my-ontology").is_none());
    }
}
