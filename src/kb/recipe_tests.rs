//! The recipe for adding a domain ontology (docs/ARCHITECTURE.md, "How to add… a
//! knowledge base"), followed as `declass kb import` follows it: a toy ontology in Turtle,
//! with the default label and broader properties, imported by name into a data directory
//! and read by the next `KnowledgeBase::load` through the same `queries/*.rq` as the
//! shipped ones. The shipped ones are removed from the data directory first (as `declass
//! kb remove` does), so the test loads the toy ontology alone.

use super::KnowledgeBase;
use super::plugin::{self, ImportOptions};
use super::shipped::SHIPPED;
use crate::data::DataDir;

const HELPDESK: &str = r#"@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <http://example.org/helpdesk/> .
ex:incident rdfs:label "incident" .
ex:outage rdfs:label "service outage" ; rdfs:subClassOf ex:incident .
ex:printer rdfs:label "printer outage" ; rdfs:subClassOf ex:outage .
"#;

#[test]
fn an_imported_ontology_is_read_through_the_same_queries() {
    let dir = tempfile::tempdir().expect("tempdir");
    let data = DataDir::at(dir.path().join("data"));
    let config = crate::Config::builtin().expect("config");
    let turtle = dir.path().join("helpdesk.ttl");
    std::fs::write(&turtle, HELPDESK).expect("write");

    let entry = plugin::import(
        &data,
        config.kb_settings(),
        &turtle,
        "helpdesk",
        &ImportOptions::default(),
    )
    .expect("import");
    assert_eq!(
        (entry.file.as_str(), entry.concepts, entry.priority),
        ("helpdesk.nt.gz", 3, config.kb.plugin_priority)
    );
    for shipped in SHIPPED {
        plugin::remove(&data, shipped.name).expect("remove a shipped knowledge base");
    }

    let kb = KnowledgeBase::load(&data, config.kb_settings()).expect("load");
    let names: Vec<&str> = kb
        .knowledge_bases()
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    assert_eq!(names, vec!["helpdesk"]);
    let concept = *kb.lookup("printer outage").first().expect("a concept");
    assert_eq!(kb.kb_name(concept), "helpdesk");
    let chains: Vec<String> = kb
        .chains(concept)
        .iter()
        .map(|chain| kb.format_chain(chain))
        .collect();
    assert_eq!(chains, vec!["printer outage → service outage → incident"]);
}
