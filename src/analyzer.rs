//! The engine's findings as Presidio's analyzer reports them: entity types (Presidio's
//! names for declass's categories, `[serve.entities]`), scores, code-point offsets and
//! Presidio's order. Shared by the service's `/analyze` (`serve::presidio`) and Python's
//! `Engine.analyze`, so a build without the service answers the same.

use serde::Serialize;

use crate::config::ServeConfig;
use crate::detect::{Finding, Registry};
use crate::pipeline::Engine;
use crate::text::CharOffsets;

/// One analyzer result (`RecognizerResultWithAnalysisExplanation`).
#[derive(Debug, Clone, Serialize)]
pub struct AnalyzerResult {
    pub analysis_explanation: Option<Explanation>,
    pub end: usize,
    pub entity_type: String,
    pub score: f64,
    pub start: usize,
}

/// Why a span was reported (`AnalysisExplanation`): the declass detector and its reason.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    pub recognizer: String,
    pub pattern_name: Option<String>,
    pub pattern: Option<String>,
    pub original_score: f64,
    pub score: f64,
    pub textual_explanation: String,
    pub score_context_improvement: f64,
    pub supportive_context_word: String,
    pub validation_result: Option<bool>,
}

/// The Presidio entity type of a declass category: the first `[serve.entities]` entry
/// listing it, else the name its detector's registry row gives it, else the category in
/// upper case with `_` for spaces.
pub fn entity_type(config: &ServeConfig, category: &str) -> String {
    config
        .entities
        .iter()
        .find(|(_, categories)| categories.iter().any(|c| c == category))
        .map(|(name, _)| name.clone())
        .or_else(|| {
            Registry::builtin()
                .presidio_entity(category)
                .map(String::from)
        })
        .unwrap_or_else(|| category.to_uppercase().replace([' ', '-'], "_"))
}

/// The declass categories the Presidio entity type `entity` stands for: its
/// `[serve.entities]` entry, else the registry rows' categories reported under it.
pub fn entity_categories(config: &ServeConfig, entity: &str) -> Vec<String> {
    if let Some(categories) = config.entities.get(entity) {
        return categories.clone();
    }
    let rows = Registry::builtin().categories_of(entity).into_iter();
    rows.filter(|c| entity_type(config, c) == entity)
        .map(String::from)
        .collect()
}

/// Every category `[serve.entities]` or a registry row gives a Presidio entity type,
/// with that type ([`entity_type`]), the table first: for a client that maps categories
/// itself.
pub fn named_categories(config: &ServeConfig) -> Vec<(String, String)> {
    let table = config.entities.values().flatten().map(String::as_str);
    let rows = Registry::builtin().rows().iter().flat_map(|r| r.categories);
    let named_rows = rows.filter(|c| c.presidio.is_some()).map(|c| c.name);
    let mut named: Vec<(String, String)> = Vec::new();
    for category in table.chain(named_rows) {
        if !named.iter().any(|(c, _)| c == category) {
            named.push((category.to_string(), entity_type(config, category)));
        }
    }
    named
}

/// The Presidio entity types an engine configured with `detect` can report under
/// `config`'s `[serve.entities]`: the mapped ones (there and in the registry rows) and
/// every reported category's, sorted.
pub fn supported_entity_types(
    config: &ServeConfig,
    detect: &crate::detect::DetectConfig,
) -> Vec<String> {
    let registry = Registry::builtin();
    let mut names: Vec<String> = config.entities.keys().cloned().collect();
    names.extend(registry.presidio_entities().into_iter().map(String::from));
    for category in registry.reported_categories(detect) {
        names.push(entity_type(config, &category));
    }
    names.sort();
    names.dedup();
    names
}

/// The order of Presidio's analyzer (`EntityRecognizer.remove_duplicates`): higher score
/// first, then earlier start, then longer span; the entity type last, so that equal keys
/// (which Presidio leaves in set order) come out the same on every call.
pub fn presidio_order(a: &AnalyzerResult, b: &AnalyzerResult) -> std::cmp::Ordering {
    b.score
        .total_cmp(&a.score)
        .then(a.start.cmp(&b.start))
        .then((b.end - b.start).cmp(&(a.end - a.start)))
        .then(a.entity_type.cmp(&b.entity_type))
}

/// Which findings an analysis reports: Presidio's `entities` (all when `None`) and
/// `score_threshold`, and whether each carries its explanation.
pub struct ResultFilter {
    pub entities: Option<Vec<String>>,
    pub score_threshold: f64,
    pub explain: bool,
}

impl ResultFilter {
    pub fn keeps(&self, entity: &str, score: f64) -> bool {
        score >= self.score_threshold
            && self
                .entities
                .as_ref()
                .is_none_or(|wanted| wanted.iter().any(|w| w == entity))
    }
}

/// A finding as Presidio's analyzer reports it, with declass's own category, detector and
/// proposed generalization beside (`None`: removal).
pub struct AnalyzedFinding {
    pub result: AnalyzerResult,
    pub category: String,
    pub detector: String,
    pub generalization: Option<String>,
}

/// What the engine's detectors find in `text` as Presidio's analyzer results (code-point
/// offsets, `[serve.entities]` names, `filter` applied), in Presidio's order: `/analyze`'s
/// results before its ad-hoc recognizers and allow list, and Python's `Engine.analyze`.
pub fn analyzer_results(
    engine: &Engine,
    config: &ServeConfig,
    text: String,
    inputs: &crate::pipeline::DocumentInputs,
    filter: &ResultFilter,
) -> crate::Result<Vec<AnalyzedFinding>> {
    let (doc, findings) = engine.analyze(text, inputs)?;
    let offsets = CharOffsets::new(&doc.text);
    let mut found: Vec<AnalyzedFinding> = findings
        .iter()
        .filter_map(|f: &Finding| {
            let entity = entity_type(config, &f.category);
            let score = f.score();
            filter.keeps(&entity, score).then(|| AnalyzedFinding {
                result: AnalyzerResult {
                    analysis_explanation: filter.explain.then(|| Explanation {
                        recognizer: f.detector.clone(),
                        pattern_name: None,
                        pattern: None,
                        original_score: score,
                        score,
                        textual_explanation: f.reason.clone(),
                        score_context_improvement: 0.0,
                        supportive_context_word: String::new(),
                        validation_result: None,
                    }),
                    start: offsets.char_of(f.start),
                    end: offsets.char_of(f.end),
                    entity_type: entity,
                    score,
                },
                category: f.category.clone(),
                detector: f.detector.clone(),
                generalization: match &f.proposal {
                    crate::detect::Proposal::Generalize(label) => Some(label.clone()),
                    crate::detect::Proposal::Remove => None,
                },
            })
        })
        .collect();
    found.sort_by(|a, b| presidio_order(&a.result, &b.result));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_presidios_order() {
        let found = |start: usize, end: usize, score: f64, entity: &str| AnalyzerResult {
            analysis_explanation: None,
            start,
            end,
            entity_type: entity.into(),
            score,
        };
        let mut results = [
            found(0, 4, 0.5, "PERSON"),
            found(10, 12, 0.85, "LOCATION"),
            found(10, 20, 0.85, "URL"),
            found(2, 3, 0.85, "DATE_TIME"),
            found(30, 31, 1.0, "EMAIL_ADDRESS"),
        ];
        results.sort_by(presidio_order);
        let order: Vec<&str> = results.iter().map(|r| r.entity_type.as_str()).collect();
        assert_eq!(
            order,
            vec!["EMAIL_ADDRESS", "DATE_TIME", "URL", "LOCATION", "PERSON"]
        );
    }

    #[test]
    fn supported_entities_cover_every_reported_category() {
        let config = crate::Config::load(None).expect("config");
        let types: Vec<String> = Registry::builtin()
            .reported_categories(&config.detect)
            .iter()
            .map(|c| entity_type(&config.serve, c))
            .collect();
        for expected in [
            "PERSON",
            "LOCATION",
            "ORGANIZATION",
            "DATE_TIME",
            "QUANTITY",
            "MISC",
            "NRP",
            "MEDICAL_CONDITION",
            "EMAIL_ADDRESS",
            "PHONE_NUMBER",
            "SENSITIVE",
            "SPECIFIC_TERM",
        ] {
            assert!(types.iter().any(|t| t == expected), "{expected}: {types:?}");
        }
    }

    #[test]
    fn categories_map_to_presidio_names_by_the_table_else_upper_case() {
        let config = crate::Config::load(None).expect("config").serve;
        assert_eq!(entity_type(&config, "person"), "PERSON");
        assert_eq!(entity_type(&config, "datetime"), "DATE_TIME");
        assert_eq!(entity_type(&config, "specific term"), "SPECIFIC_TERM");
    }
}
