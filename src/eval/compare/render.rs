//! The comparison as tables (CSV, Markdown) and as the Markdown report that explains its
//! columns.

use super::{DocumentRef, Run, RunSummary};
use crate::error::{Error, Result};
use crate::sanitize::Role;

/// A table with a fixed column order, written as CSV and as Markdown. An empty cell is
/// a figure that is undefined for the run (e.g. eq. 17 when nothing was found).
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn to_csv(&self) -> Result<String> {
        let csv_error = |e: csv::Error| Error::parameter("CSV table", e.to_string());
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&self.header).map_err(csv_error)?;
        for row in &self.rows {
            writer.write_record(row).map_err(csv_error)?;
        }
        let bytes = writer
            .into_inner()
            .map_err(|e| Error::parameter("CSV table", e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| Error::parameter("CSV table", e.to_string()))
    }

    /// A GitHub-flavoured Markdown table; empty cells show as `–`, `|` is escaped.
    pub fn to_markdown(&self) -> String {
        let cell = |s: &str| {
            if s.is_empty() {
                "–".to_string()
            } else {
                s.replace('|', "\\|")
            }
        };
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let mut out = line(self.header.iter().map(|h| cell(h)).collect());
        out.push_str(&line(
            self.header
                .iter()
                .enumerate()
                .map(|(i, _)| if i < 2 { "---" } else { "---:" }.to_string())
                .collect(),
        ));
        for row in &self.rows {
            out.push_str(&line(row.iter().map(|c| cell(c)).collect()));
        }
        out
    }
}

fn fixed(value: f64, decimals: usize) -> String {
    format!("{value:.decimals$}")
}

fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map(|v| fixed(v, decimals)).unwrap_or_default()
}

/// Name of the time-dependent column, always the last one.
pub const SPEED_COLUMN: &str = "docs_per_s";

/// One row per run, in the order given. Every column but the last ([`SPEED_COLUMN`]) is
/// the same for the same input and configuration.
pub fn comparison_table(summaries: &[RunSummary]) -> Table {
    let with_gold = summaries.iter().any(|s| s.gold.is_some());
    let mut header: Vec<&str> = vec![
        "variant",
        "strategy",
        "documents",
        "utility_kept_mean",
        "utility_kept_pooled",
        "terms_sanitized",
        "sensitive_terms",
        "correlated_terms",
        "threshold_bits_mean",
        "top_level_share",
        "adjacent_replacements",
        "without_determiner",
    ];
    if with_gold {
        header.extend([
            "entity_recall_direct",
            "entity_recall_quasi",
            "token_recall",
            "mention_recall",
            "token_precision_uniform",
            "token_precision_ic",
            "mention_precision_uniform",
            "qs_precision",
            "qs_recall",
            "qs_f1",
        ]);
    }
    header.push(SPEED_COLUMN);
    let rows = summaries
        .iter()
        .map(|s| {
            let mut row = vec![
                s.variant.clone(),
                format!("{:?}", s.strategy),
                s.documents.to_string(),
                fixed(s.utility_mean, 4),
                fixed(s.utility_pooled, 4),
                (s.sensitive_terms + s.correlated_terms).to_string(),
                s.sensitive_terms.to_string(),
                s.correlated_terms.to_string(),
                optional(s.threshold_mean, 2),
                fixed(s.readability.top_level_share(), 4),
                s.readability.adjacent.to_string(),
                s.readability.without_determiner.to_string(),
            ];
            if with_gold {
                match &s.gold {
                    Some(g) => row.extend([
                        fixed(g.tab.entity_recall_direct, 4),
                        fixed(g.tab.entity_recall_quasi, 4),
                        fixed(g.tab.token_recall, 4),
                        fixed(g.tab.mention_recall, 4),
                        fixed(g.tab.token_precision_uniform, 4),
                        fixed(g.token_precision_ic, 4),
                        fixed(g.tab.mention_precision_uniform, 4),
                        optional(g.qs.precision(), 4),
                        optional(g.qs.recall(), 4),
                        optional(g.qs.f1(), 4),
                    ]),
                    None => row.extend(std::iter::repeat_n(String::new(), 10)),
                }
            }
            row.push(fixed(s.docs_per_second(), 3));
            row
        })
        .collect();
    Table {
        header: header.into_iter().map(str::to_string).collect(),
        rows,
    }
}

/// Eq. 21 by kind of term for each run, pooled over its documents: where the information
/// went (names, dates, numbers, phrases, each detector's category).
pub fn utility_by_kind_table(summaries: &[RunSummary]) -> Table {
    let header = [
        "variant",
        "strategy",
        "kind",
        "original_bits",
        "kept_bits",
        "utility_kept",
    ];
    let rows = summaries
        .iter()
        .flat_map(|s| {
            s.utility_by_kind.iter().map(|(kind, u)| {
                vec![
                    s.variant.clone(),
                    format!("{:?}", s.strategy),
                    kind.clone(),
                    fixed(u.original_bits, 2),
                    fixed(u.kept_bits, 2),
                    fixed(u.ratio(), 4),
                ]
            })
        })
        .collect();
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// One row per (run, document): what the per-document plot shows, with the ids.
pub fn per_document_table(runs: &[Run], documents: &[DocumentRef<'_>]) -> Table {
    let header = [
        "variant",
        "strategy",
        "document",
        "doc_id",
        "utility_kept",
        "original_bits",
        "kept_bits",
        "sensitive_terms",
        "correlated_terms",
        "threshold_bits",
    ];
    let mut rows = Vec::new();
    for run in runs {
        for (i, (doc, outcome)) in documents.iter().zip(&run.documents).enumerate() {
            let plan = &outcome.plan;
            let count = |role: Role| plan.replacements.iter().filter(|r| r.role == role).count();
            rows.push(vec![
                run.variant.clone(),
                format!("{:?}", run.strategy),
                (i + 1).to_string(),
                doc.id.to_string(),
                fixed(plan.utility.ratio, 4),
                fixed(plan.utility.original_bits, 2),
                fixed(plan.utility.kept_bits, 2),
                count(Role::Sensitive).to_string(),
                count(Role::Correlated).to_string(),
                optional(plan.threshold.as_ref().map(|t| t.bits), 2),
            ]);
        }
    }
    Table {
        header: header.into_iter().map(str::to_string).collect(),
        rows,
    }
}

/// A variant as the report names it: its name and the configuration it came from.
#[derive(Debug, Clone)]
pub struct VariantInfo {
    pub name: String,
    /// "built-in configuration", or the file(s) layered over it.
    pub source: String,
}

/// The Markdown report: what was compared, the table, and what each column means.
pub fn markdown_report(table: &Table, variants: &[VariantInfo], documents: usize) -> String {
    let with_gold = table.header.iter().any(|h| h == "token_recall");
    let mut out = String::from("# Strategy comparison\n\n");
    out.push_str(&format!(
        "{documents} document{}; variants: {}.\n\n",
        if documents == 1 { "" } else { "s" },
        variants
            .iter()
            .map(|v| format!("`{}` ({})", v.name, v.source))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    out.push_str(&table.to_markdown());
    out.push_str(
        "\nColumns:\n\n\
         - `utility_kept_mean`: Sánchez et al. (2014) eq. 21, IC of the terms kept (a generalization \
         keeps its own IC, a removal nothing) over the IC of the original terms, per \
         document, averaged over documents; `utility_kept_pooled`: the same ratio over all \
         documents' terms together.\n\
         - `terms_sanitized`: replaced or removed mentions, `sensitive_terms` found by the \
         detectors (ε1) plus `correlated_terms` found by the sanitizer (ε2).\n\
         - `threshold_bits_mean`: t_DR averaged over the documents with a sensitive term.\n\
         - `top_level_share`: of the replacements that publish a class, the share whose \
         class is top-level or abstract (`sanitize.top_level_classes`, \
         `abstract_concepts`, `root_label`), counted by class whatever article it reads \
         with; `adjacent_replacements`: pairs of replacements with only white space \
         between them (\"A scholar A person\"; an amount before the noun it counts, \
         and a counted phrase such as \"several months\", or the noun its number \
         counted, \"months\", after a replacement, aside); \
         `without_determiner`: a name, number or \
         plural generalized to a bare singular noun with no determiner before it \
         (\"taught for date\"), a spelling proxy that also counts mass nouns.\n",
    );
    if with_gold {
        out.push_str(
            "- `entity_recall_direct` … `mention_precision_uniform`: the Text Anonymization \
             Benchmark's metrics, computed as its evaluation script does (`declass eval tab`).\n\
             - `token_precision_ic`: the benchmark's token precision with each masked token \
             weighted by its information content. The benchmark weights tokens by a language \
             model's surprisal; this column uses the engine's own IC instead (the sanitizer's \
             count source and word-frequency prior), so it is not the benchmark's weighted \
             precision.\n\
             - `qs_precision`, `qs_recall`, `qs_f1`: Sánchez et al. (2014) eq. 17–19 with QS the correlated \
             terms the sanitizer replaced and Human_QS the gold mentions annotated QUASI; a QS \
             term is correct when it overlaps a QUASI mention, a QUASI mention is found when a \
             QS term overlaps it; counts are summed over documents. Empty when undefined \
             (no correlated term found).\n",
        );
    }
    out.push_str(&format!(
        "- `{SPEED_COLUMN}`: documents over the seconds of analysis, detection (shared by \
         a document's strategies and counted in each) and planning. The strategies of a \
         document run one after another on one engine, so later runs find counts already \
         cached. It is the only column that changes from one run of the command to the \
         next.\n"
    ));
    out
}
