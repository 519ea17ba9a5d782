//! How well information content ranks terms: Spearman's ρ of each estimate — the wordfreq
//! prior alone, the corpus's counts alone, and the two combined with pseudo-documents
//! ([`crate::stats::prior::combined_ic`]) — against an independent web-scale frequency
//! list (by default the Google Books unigram and bigram counts that PyPI `symspellpy`
//! ships), with how many terms each estimate measures and where the combined figures
//! came from.
//!
//! ρ is computed between `-IC` and the reference count, so agreement is positive. Each
//! estimate is ranked on the terms the reference lists and the estimate measures (the
//! prior: terms it lists; the corpus: terms in at least one document; combined: terms
//! with a figure other than the unseen bound), and all three again on the terms every
//! one of them measures, which compares them on equal footing.

use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;
use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::stats::ic::{IcSource, PriorIc};
use crate::stats::info::{self, Figure};
use crate::stats::prior::{WordFreq, combined_ic};
use crate::stats::{Origin, TermSet};
use crate::text::tokenize::index_terms;

/// Phrase → reference frequency (a count in the list's own units).
#[derive(Debug)]
pub struct ReferenceList {
    counts: HashMap<String, f64>,
}

impl ReferenceList {
    /// Reads lists of `PHRASE COUNT` lines (the phrase one or more words, the count its
    /// last field), as symspell's dictionaries are written. Phrases are normalized with
    /// the canonical tokenizer so they meet extracted terms; a phrase listed twice keeps
    /// its first count. A line without a count is an error naming the file and line.
    pub fn load(paths: &[&Path]) -> Result<ReferenceList> {
        let mut counts = HashMap::new();
        for &path in paths {
            let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
            for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
                let line = line.map_err(|e| Error::io(path, e))?;
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                let parsed = line
                    .rsplit_once(char::is_whitespace)
                    .and_then(|(phrase, count)| Some((phrase, count.parse::<f64>().ok()?)))
                    .filter(|(_, count)| count.is_finite() && *count > 0.0);
                let Some((phrase, count)) = parsed else {
                    return Err(Error::input(
                        path,
                        format!("line {}: not `PHRASE COUNT` with a positive count", i + 1),
                    ));
                };
                let norm = index_terms(phrase).join(" ");
                if !norm.is_empty() {
                    counts.entry(norm).or_insert(count);
                }
            }
        }
        Ok(ReferenceList { counts })
    }

    pub fn len(&self) -> usize {
        self.counts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// The reference count of a normalized phrase (tokens joined by spaces).
    pub fn count(&self, norm: &str) -> Option<f64> {
        self.counts.get(norm).copied()
    }
}

/// What the corpus says about one distinct term.
pub struct TermCount {
    /// Normalized tokens.
    pub phrase: Vec<String>,
    /// Documents of the corpus containing it.
    pub count: u64,
}

/// One estimate's agreement with the reference.
#[derive(Debug, Clone, Serialize)]
pub struct RankScore {
    /// Terms ranked: listed by the reference and measured by the estimate.
    pub ranked: usize,
    /// `ranked` as a share of the terms the reference lists.
    pub coverage: f64,
    /// Spearman's ρ of `-IC` against the reference count; `null` under three terms.
    pub spearman: Option<f64>,
}

/// The three estimates on the terms all of them measure.
#[derive(Debug, Clone, Serialize)]
pub struct CommonScore {
    pub ranked: usize,
    pub prior: Option<f64>,
    pub corpus: Option<f64>,
    pub combined: Option<f64>,
}

/// The combined estimate's ρ at another number of pseudo-documents, on the terms the
/// reference lists that the prior or the corpus measures (unmeasured ones tie at the
/// unseen bound), so every setting is ranked on the same terms.
#[derive(Debug, Clone, Serialize)]
pub struct SweepPoint {
    pub pseudo_documents: f64,
    pub ranked: usize,
    pub spearman: Option<f64>,
}

/// The report of `declass eval ic`.
#[derive(Debug, Clone, Serialize)]
pub struct IcEvaluation {
    /// Distinct terms extracted from the documents.
    pub terms: usize,
    /// Phrases in the reference lists.
    pub reference_phrases: usize,
    /// Terms the reference lists, and their share of all terms.
    pub reference_terms: usize,
    pub reference_coverage: f64,
    /// Documents of the corpus, and the pseudo-documents of the combined estimate.
    pub corpus_documents: u64,
    pub pseudo_documents: f64,
    pub prior: RankScore,
    pub corpus: RankScore,
    pub combined: RankScore,
    pub common: CommonScore,
    /// Where the combined figures of all terms came from.
    pub combined_origins: BTreeMap<String, usize>,
    pub sweep: Vec<SweepPoint>,
    /// Steps of the terms' knowledge-base chains where a broader concept got more bits
    /// than the narrower one before it (with `--chains`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chains: Option<ChainMonotonicity>,
}

/// Adjacent chain steps (narrower, broader) and how often each estimate gives the broader
/// concept the higher IC, which the sanitizer's ordering of generalizations must not see.
#[derive(Debug, Clone, Serialize)]
pub struct ChainMonotonicity {
    /// Distinct (narrower, broader) pairs.
    pub steps: usize,
    /// Pairs both of whose concepts the prior lists (some of their counting phrases).
    pub prior_steps: usize,
    pub prior_violations: usize,
    pub corpus_violations: usize,
    pub combined_violations: usize,
}

/// Counts the violations of [`ChainMonotonicity`]: `sets[i]` is a concept's counting
/// phrases and `counts[i]` its documents; `steps` pairs indices
/// (narrower, broader).
pub fn chain_monotonicity(
    sets: &[TermSet],
    counts: &[u64],
    steps: &[(usize, usize)],
    total: u64,
    measured: Origin,
    prior: Option<&WordFreq>,
    pseudo_documents: f64,
) -> ChainMonotonicity {
    let combined_source = PriorIc {
        prior,
        pseudo_documents,
        measured,
    };
    let figure = |i: usize, how: &dyn Fn(&TermSet, u64) -> Option<Figure>| {
        let count = counts.get(i).copied().unwrap_or(0);
        sets.get(i).and_then(|set| how(set, count))
    };
    let prior_of = |set: &TermSet, _: u64| {
        prior
            .and_then(|w| w.any_probability(set.alternatives()))
            .map(|p| info::ic_from_probability(p, Origin::WordfreqPrior))
    };
    let corpus_of = |_: &TermSet, count: u64| Some(info::ic(count, total, measured));
    let combined_of = |set: &TermSet, count: u64| Some(combined_source.ic(set, count, total));
    let violates =
        |how: &dyn Fn(&TermSet, u64) -> Option<Figure>, narrow: usize, broad: usize| match (
            figure(narrow, how),
            figure(broad, how),
        ) {
            (Some(n), Some(b)) => Some(b.bits > n.bits + 1e-9),
            _ => None,
        };
    let mut report = ChainMonotonicity {
        steps: steps.len(),
        prior_steps: 0,
        prior_violations: 0,
        corpus_violations: 0,
        combined_violations: 0,
    };
    for &(narrow, broad) in steps {
        if let Some(v) = violates(&prior_of, narrow, broad) {
            report.prior_steps += 1;
            report.prior_violations += usize::from(v);
        }
        report.corpus_violations += usize::from(violates(&corpus_of, narrow, broad) == Some(true));
        report.combined_violations +=
            usize::from(violates(&combined_of, narrow, broad) == Some(true));
    }
    report
}

/// Ranks `terms` by the three estimates against `reference`. `pseudo_documents` is the
/// combined estimate's setting; `sweep` lists others to rank the combined estimate at.
pub fn evaluate(
    terms: &[TermCount],
    total: u64,
    measured: Origin,
    prior: Option<&WordFreq>,
    pseudo_documents: f64,
    sweep: &[f64],
    reference: &ReferenceList,
) -> IcEvaluation {
    let mut combined_origins: BTreeMap<String, usize> = BTreeMap::new();
    let mut rows = Vec::new();
    for term in terms {
        let prior_p = prior.and_then(|p| p.probability(&term.phrase));
        let combined = combined_ic(prior_p, term.count, total, measured, pseudo_documents);
        *combined_origins
            .entry(origin_name(combined.origin))
            .or_default() += 1;
        let Some(web) = reference.count(&term.phrase.join(" ")) else {
            continue;
        };
        rows.push(Row {
            term,
            prior_p,
            web,
            prior: prior_p.map(|p| info::ic_from_probability(p, Origin::WordfreqPrior)),
            corpus: (term.count > 0).then(|| info::ic(term.count, total, measured)),
            combined: (combined.origin != Origin::UnseenBound).then_some(combined),
        });
    }
    let score = |pick: &dyn Fn(&Row) -> Option<Figure>| {
        let (x, y): (Vec<f64>, Vec<f64>) = rows
            .iter()
            .filter_map(|r| pick(r).map(|f| (-f.bits, r.web)))
            .unzip();
        RankScore {
            ranked: x.len(),
            coverage: share(x.len(), rows.len()),
            spearman: spearman(&x, &y),
        }
    };
    let common_rows: Vec<&Row> = rows
        .iter()
        .filter(|r| r.prior.is_some() && r.corpus.is_some() && r.combined.is_some())
        .collect();
    let common_rho = |pick: &dyn Fn(&Row) -> Option<Figure>| {
        let (x, y): (Vec<f64>, Vec<f64>) = common_rows
            .iter()
            .filter_map(|r| pick(r).map(|f| (-f.bits, r.web)))
            .unzip();
        spearman(&x, &y)
    };
    let sweep = sweep
        .iter()
        .map(|&m| {
            let (x, y): (Vec<f64>, Vec<f64>) = rows
                .iter()
                .filter(|r| r.prior.is_some() || r.corpus.is_some())
                .map(|r| {
                    let f = combined_ic(r.prior_p, r.term.count, total, measured, m);
                    (-f.bits, r.web)
                })
                .unzip();
            SweepPoint {
                pseudo_documents: m,
                ranked: x.len(),
                spearman: spearman(&x, &y),
            }
        })
        .collect();
    IcEvaluation {
        terms: terms.len(),
        reference_phrases: reference.len(),
        reference_terms: rows.len(),
        reference_coverage: share(rows.len(), terms.len()),
        corpus_documents: total,
        pseudo_documents,
        prior: score(&|r| r.prior),
        corpus: score(&|r| r.corpus),
        combined: score(&|r| r.combined),
        common: CommonScore {
            ranked: common_rows.len(),
            prior: common_rho(&|r| r.prior),
            corpus: common_rho(&|r| r.corpus),
            combined: common_rho(&|r| r.combined),
        },
        combined_origins,
        sweep,
        chains: None,
    }
}

/// A term the reference lists, with each estimate's figure where it measures the term.
struct Row<'a> {
    term: &'a TermCount,
    prior_p: Option<f64>,
    web: f64,
    prior: Option<Figure>,
    corpus: Option<Figure>,
    combined: Option<Figure>,
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn origin_name(origin: Origin) -> String {
    serde_json::to_value(origin)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{origin:?}"))
}

/// Spearman's rank correlation: Pearson's r of the ranks, ties sharing their mean rank.
/// `None` with fewer than three pairs or when either side is constant. Hand-written: the
/// crates that offer it pull in a linear-algebra stack for twenty lines.
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    if x.len() != y.len() || x.len() < 3 {
        return None;
    }
    let rx = ranks(x);
    let ry = ranks(y);
    let n = rx.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mean) * (b - mean);
        sxx += (a - mean) * (a - mean);
        syy += (b - mean) * (b - mean);
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    Some(sxy / (sxx * syy).sqrt())
}

/// Ranks from 1, ties given the mean of the ranks they span.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        let mean_rank = (start + end + 1) as f64 / 2.0;
        for &i in &order[start..end] {
            out[i] = mean_rank;
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_by_hand() {
        // Same order: 1; reversed: -1.
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]), Some(1.0));
        assert_eq!(spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
        // One swap of four: 1 - 6 · 2 / (4 · 15) = 0.8.
        let rho = spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 3.0, 2.0, 4.0]).expect("defined");
        assert!((rho - 0.8).abs() < 1e-12, "{rho}");
        // Ties share their mean rank: x ranks 1.5 1.5 3, y ranks 1 2 3;
        // deviations from the mean rank 2: (-0.5, -0.5, 1) and (-1, 0, 1), so
        // r = 1.5 / sqrt(1.5 · 2) = 0.8660…
        let rho = spearman(&[5.0, 5.0, 9.0], &[1.0, 2.0, 3.0]).expect("defined");
        assert!((rho - 1.5 / 3f64.sqrt()).abs() < 1e-12, "{rho}");
        assert_eq!(spearman(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
        assert_eq!(spearman(&[1.0, 2.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn chain_steps_where_the_broader_concept_is_rarer_are_counted() {
        let set = |s: &str| TermSet::literal(crate::stats::Phrase::from([s.to_string()]));
        // "therapy" (narrower) in 20 of 100 documents, "care" (broader) in 10: the corpus
        // gives the broader more bits; with "therapy" among care's phrases it does not.
        let sets = vec![
            set("therapy"),
            set("care"),
            TermSet::any_of([["care".to_string()], ["therapy".to_string()]]),
        ];
        let counts = [20, 10, 25];
        let report = chain_monotonicity(
            &sets,
            &counts,
            &[(0, 1), (0, 2)],
            100,
            Origin::Corpus,
            None,
            0.0,
        );
        assert_eq!(report.steps, 2);
        assert_eq!(report.corpus_violations, 1);
        assert_eq!(report.combined_violations, 1);
        assert_eq!((report.prior_steps, report.prior_violations), (0, 0));
    }

    #[test]
    fn reference_lines_are_checked() {
        let dir = tempfile::tempdir().expect("tmp");
        let good = dir.path().join("uni.txt");
        std::fs::write(&good, "the 100\nNew York 7\nthe 3\n").expect("write");
        let list = ReferenceList::load(&[good.as_path()]).expect("reads");
        assert_eq!(list.count("the"), Some(100.0));
        assert_eq!(list.count("new york"), Some(7.0));
        let bad = dir.path().join("bad.txt");
        std::fs::write(&bad, "the 100\nbroken\n").expect("write");
        let err = ReferenceList::load(&[bad.as_path()]).expect_err("no count");
        assert!(
            err.to_string().contains("bad.txt") && err.to_string().contains("line 2"),
            "{err}"
        );
    }
}
