//! The plots of `declass compare` (the `plots` feature): utility against recall, and
//! utility per document, each as SVG and PNG beside the tables.

use std::path::Path;

use anyhow::Result;

use declass::eval::compare::{Run, RunSummary, Variant};
use declass::eval::plot::{self, DocumentSeries, RecallPanel, RecallPoint, strategy_description};

use super::write;

fn write_rendered(out: &Path, stem: &str, rendered: &plot::Rendered) -> Result<()> {
    write(&out.join(format!("{stem}.svg")), rendered.svg.as_bytes())?;
    write(&out.join(format!("{stem}.png")), &rendered.png)
}

pub fn write_plots(
    out: &Path,
    summaries: &[RunSummary],
    runs: &[Run],
    variants: &[Variant],
) -> Result<()> {
    let variant_index = |name: &str| {
        variants
            .iter()
            .position(|v| v.info.name == name)
            .unwrap_or(0)
    };
    let label = |s: &RunSummary| {
        if variants.len() == 1 {
            strategy_description(s.strategy).to_string()
        } else {
            format!("{} {:?}", s.variant, s.strategy)
        }
    };
    if summaries.iter().all(|s| s.gold.is_some()) && !summaries.is_empty() {
        let points = |recall: &dyn Fn(&RunSummary) -> Option<f64>| -> Vec<RecallPoint> {
            summaries
                .iter()
                .filter_map(|s| {
                    recall(s).map(|r| RecallPoint {
                        label: label(s),
                        strategy: s.strategy,
                        variant: variant_index(&s.variant),
                        recall: r,
                        utility: s.utility_mean,
                    })
                })
                .collect()
        };
        let panels = vec![
            RecallPanel {
                title: "all identifiers (benchmark's token recall)".to_string(),
                x_label: "token recall (TAB benchmark)".to_string(),
                points: points(&|s| s.gold.as_ref().map(|g| g.tab.token_recall)),
            },
            RecallPanel {
                title: "quasi-identifiers found by ε2 (eq. 18)".to_string(),
                x_label: "recall of QUASI mentions by correlated terms".to_string(),
                points: points(&|s| s.gold.as_ref().and_then(|g| g.qs.recall())),
            },
        ];
        write_rendered(
            out,
            "utility_recall",
            &plot::utility_against_recall(&panels)?,
        )?;
    }
    for variant in variants {
        let name = &variant.info.name;
        let series: Vec<DocumentSeries> = runs
            .iter()
            .filter(|r| &r.variant == name)
            .map(|r| DocumentSeries {
                strategy: r.strategy,
                utilities: r.documents.iter().map(|d| d.plan.utility.ratio).collect(),
            })
            .collect();
        let (title, stem) = if variants.len() == 1 {
            (
                "Utility kept per document and strategy".to_string(),
                "utility_per_document".to_string(),
            )
        } else {
            (
                format!("Utility kept per document and strategy, variant {name}"),
                format!("utility_per_document.{name}"),
            )
        };
        write_rendered(out, &stem, &plot::utility_per_document(&title, &series)?)?;
    }
    Ok(())
}
