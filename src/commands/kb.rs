//! `declass kb …`: knowledge-base lookups, chains, plug-ins and importers.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use declass::kb::plugin::{self, ImportOptions};
use declass::kb::{self, ConceptRef, KnowledgeBase, Relation, concept_json};

use super::Ctx;

#[derive(Args)]
pub struct KbArgs {
    #[command(subcommand)]
    pub command: KbCommand,
}

#[derive(Subcommand)]
pub enum KbCommand {
    /// Print every generalization chain of a term: `radiotherapy → therapy → … → entity`.
    Chain {
        /// One or more terms (quote multi-word terms).
        #[arg(required = true)]
        terms: Vec<String>,
        /// One JSON object per line: the concept and its chains.
        #[arg(long)]
        json: bool,
    },
    /// List the concepts a term maps to, in lookup order.
    Lookup {
        term: String,
        #[arg(long)]
        json: bool,
    },
    /// Install a domain ontology (Turtle, N-Triples or RDF/XML) as a plug-in.
    Import {
        file: PathBuf,
        #[arg(long)]
        name: String,
        /// Property meaning "is narrower than" (repeatable; default skos:broader and
        /// rdfs:subClassOf).
        #[arg(long, value_name = "IRI")]
        broader: Vec<String>,
        /// Label property, the first preferred (repeatable; default skos:prefLabel,
        /// rdfs:label, skos:altLabel).
        #[arg(long, value_name = "IRI")]
        label: Vec<String>,
        /// Lookup priority (higher first; default kb.plugin_priority).
        #[arg(long)]
        priority: Option<i32>,
    },
    /// Show the installed knowledge bases with their sizes.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Remove a plug-in (or disable a shipped knowledge base).
    Remove { name: String },
    /// Re-enable a shipped knowledge base removed earlier.
    Restore { name: String },
    /// Convert a WordNet database directory (data.noun, index.sense) to N-Triples.
    ImportWordnet {
        dict_dir: PathBuf,
        /// Output file (default: the data directory's kb/default/wordnet.nt.gz).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Fetch the pinned sources and rebuild the shipped knowledge bases into DIR (the
    /// repository's `kb/`), with WordNet's noun exception list.
    BuildShipped {
        dir: PathBuf,
        /// Directory of package archives downloaded beforehand.
        #[arg(long)]
        from: Option<PathBuf>,
    },
}

fn load(ctx: &Ctx) -> Result<KnowledgeBase> {
    KnowledgeBase::load(&ctx.data, ctx.config.kb_settings()).context("loading the knowledge bases")
}

fn found(kb: &KnowledgeBase, term: &str) -> Result<Vec<ConceptRef>> {
    let concepts = kb.lookup(term);
    if concepts.is_empty() {
        anyhow::bail!("no knowledge base has a concept for the term given");
    }
    Ok(concepts)
}

pub fn run(ctx: &Ctx, args: KbArgs) -> Result<()> {
    let mut out = super::stdout();
    match args.command {
        KbCommand::Chain { terms, json } => {
            let kb = load(ctx)?;
            for c in terms
                .iter()
                .map(|t| found(&kb, t))
                .collect::<Result<Vec<_>>>()?
                .into_iter()
                .flatten()
            {
                if json {
                    writeln!(
                        out,
                        "{}",
                        serde_json::to_string(&concept_json(&kb, c, true))?
                    )?;
                    continue;
                }
                writeln!(out, "{} [{}]", kb.label(c), kb.kb_name(c))?;
                for chain in kb.chains(c) {
                    let steps: Vec<String> = chain
                        .steps
                        .iter()
                        .map(|s| {
                            let mark = match s.relation {
                                Some(Relation::InstanceOf) => " (instance of)",
                                Some(Relation::LocatedIn) => " (located in)",
                                _ => "",
                            };
                            format!("{}{mark}", kb.label(s.concept))
                        })
                        .collect();
                    writeln!(out, "  {}", steps.join(" → "))?;
                }
            }
        }
        KbCommand::Lookup { term, json } => {
            let kb = load(ctx)?;
            for c in found(&kb, &term)? {
                let j = concept_json(&kb, c, false);
                if json {
                    writeln!(out, "{}", serde_json::to_string(&j)?)?;
                } else {
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{}{}",
                        j.label,
                        j.kb,
                        j.iri,
                        if j.instance { "instance" } else { "class" },
                        if j.alt_labels.is_empty() {
                            String::new()
                        } else {
                            format!("\t({})", j.alt_labels.join(", "))
                        }
                    )?;
                }
            }
        }
        KbCommand::Import {
            file,
            name,
            broader,
            label,
            priority,
        } => {
            let options = ImportOptions {
                broader,
                labels: label,
                priority,
            };
            let entry = plugin::import(&ctx.data, ctx.config.kb_settings(), &file, &name, &options)
                .with_context(|| format!("importing {}", file.display()))?;
            writeln!(
                out,
                "installed {} ({} concepts, {} triples, priority {})",
                entry.name, entry.concepts, entry.triples, entry.priority
            )?;
        }
        KbCommand::List { json } => {
            let kb = load(ctx)?;
            for info in kb.knowledge_bases() {
                if json {
                    writeln!(out, "{}", serde_json::to_string(info)?)?;
                } else {
                    writeln!(
                        out,
                        "{}\t{}\tpriority {}\t{} concepts\t{} triples\t{}",
                        info.name,
                        info.kind,
                        info.priority,
                        info.concepts,
                        info.triples,
                        info.origin
                    )?;
                }
            }
        }
        KbCommand::Remove { name } => {
            plugin::remove(&ctx.data, &name)?;
            writeln!(out, "removed {name}")?;
        }
        KbCommand::Restore { name } => {
            plugin::restore(&ctx.data, &name)?;
            writeln!(out, "restored {name}")?;
        }
        KbCommand::ImportWordnet {
            dict_dir,
            out: target,
        } => {
            let target = match target {
                Some(p) => p,
                None => kb::setup::built_file(&ctx.data, "wordnet"),
            };
            let wordnet = kb::wordnet::WordNet::read(&dict_dir)?;
            let mut writer = kb::rdf::TripleWriter::new();
            wordnet.write_rdf(&mut writer);
            let triples = writer.count();
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            declass::io::write_atomic(&target, &writer.finish(&target)?)?;
            writeln!(out, "wrote {} ({triples} triples)", target.display())?;
        }
        KbCommand::BuildShipped { dir, from } => {
            kb::setup::build_shipped(
                &ctx.data,
                ctx.config.kb_settings(),
                &dir,
                from.as_deref(),
                &mut |message| eprintln!("{message}"),
            )?;
        }
    }
    Ok(())
}
