//! The detectors' section of the configuration (`[detect]`): which detectors run by
//! default and how each is configured.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::{Checks, Error, Result};

/// Detectors of sensitive terms (ε1): which run by default and how each is configured.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DetectConfig {
    /// Detector names run when `--detect` is not given.
    pub default: Vec<String>,
    pub protect: ProtectConfig,
    pub patterns: PatternsConfig,
    pub lists: ListsConfig,
    pub operators: OperatorsConfig,
    pub disease: SequenceModelConfig,
    pub ner: SequenceModelConfig,
    pub ic: IcDetectorConfig,
    /// The `[detect.NAME]` tables of detectors whose settings no field above holds (a
    /// registry row with `own_section`), as written; each row reads its own with
    /// [`DetectConfig::section`], so adding a detector adds no field here.
    #[serde(skip)]
    pub sections: BTreeMap<String, toml::Table>,
}

impl DetectConfig {
    /// The settings of detector `name` from its `[detect.NAME]` table, the type's serde
    /// defaults filling what the table leaves out (all of it when there is none); an
    /// error naming the key otherwise.
    pub fn section<T: DeserializeOwned + Default>(&self, name: &str) -> Result<T> {
        let Some(table) = self.sections.get(name) else {
            return Ok(T::default());
        };
        serde_path_to_error::deserialize(toml::Value::Table(table.clone())).map_err(
            |e: serde_path_to_error::Error<toml::de::Error>| Error::Config {
                path: format!("detect.{name}.{}", e.path()).into(),
                message: e.inner().to_string(),
            },
        )
    }
}

impl IcDetectorConfig {
    /// Refuses a bound that would let every term through (NaN, infinite, negative).
    pub fn validate(&self) -> Result<()> {
        let mut check = Checks::default();
        check.finite_at_least("detect.ic.max_bits", self.max_bits, 0.0);
        check.into_result()
    }
}

/// The information-content detector (`[detect.ic]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcDetectorConfig {
    /// A term whose IC reaches this many bits is too specific to publish.
    pub max_bits: f64,
}

/// The protected-person detector (`[detect.protect]`): what belongs to a name mention
/// and how far a misspelt one may stray.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtectConfig {
    /// Honorifics and ranks that belong to a name mention when they precede it.
    pub titles: Vec<String>,
    /// Generational suffixes that belong to a name mention when they follow it.
    pub suffixes: Vec<String>,
    /// Name parts at least this long (in characters) also match with small misspellings.
    pub fuzzy_min_chars: usize,
    /// Largest edit distance for such misspellings (0 turns fuzzy matching off).
    pub fuzzy_max_edits: usize,
    /// Phrases that introduce another name of the person ("known as", "stage name").
    pub alias_cues: Vec<String>,
    /// Verbs that predicate a title of the person ("was the Empress of …").
    pub epithet_verbs: Vec<String>,
    /// Longest alias, in words, the alias finder accepts.
    pub alias_max_words: usize,
    /// A word in the bracket after a mention is a transliteration of a name part when,
    /// both folded to Latin letters, their edit distance is at most this share of the
    /// longer one's length (at least one edit).
    pub transliteration_max_edit_ratio: f64,
    /// Inside an identifier (URL, path, handle, hashtag), a single name part this long
    /// is a mention; shorter ones need a second part or an initial beside them.
    pub identifier_min_part_chars: usize,
}

impl ProtectConfig {
    /// Range checks of the lengths and distances, and no empty word among the cues (an
    /// empty cue would match everywhere).
    pub fn validate(&self) -> Result<()> {
        let mut check = Checks::default();
        check.range(
            "detect.protect.fuzzy_min_chars",
            self.fuzzy_min_chars,
            1,
            64,
        );
        check.range("detect.protect.fuzzy_max_edits", self.fuzzy_max_edits, 0, 3);
        check.range(
            "detect.protect.alias_max_words",
            self.alias_max_words,
            1,
            32,
        );
        check.unit_interval(
            "detect.protect.transliteration_max_edit_ratio",
            self.transliteration_max_edit_ratio,
            true,
        );
        check.range(
            "detect.protect.identifier_min_part_chars",
            self.identifier_min_part_chars,
            2,
            64,
        );
        for (key, words) in [
            ("detect.protect.titles", &self.titles),
            ("detect.protect.suffixes", &self.suffixes),
            ("detect.protect.alias_cues", &self.alias_cues),
            ("detect.protect.epithet_verbs", &self.epithet_verbs),
        ] {
            if words.iter().any(|w| w.trim().is_empty()) {
                check.fail(key, "must not hold an empty word");
            }
        }
        check.into_result()
    }
}

/// How a date is generalized (`detect.patterns.date_generalization`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateGranularity {
    Month,
    Year,
    Decade,
}

/// Validated patterns (`[detect.patterns]`): e-mail addresses, phone numbers, dates…
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternsConfig {
    /// Built-in validated patterns to run.
    pub enabled: Vec<String>,
    /// Regions (ISO 3166 alpha-2) whose national phone numbers (written without a `+`
    /// country code) are recognised, tried in order; empty: only international numbers.
    pub phone_regions: Vec<String>,
    /// What a date is generalized to: "month", "year" or "decade".
    pub date_generalization: DateGranularity,
    /// Whether a year standing alone ("in 1938") is a date finding too.
    pub bare_years: bool,
    /// User-defined patterns.
    pub custom: Vec<CustomPattern>,
    /// A built-in pattern's match is a finding when its score, after context, reaches
    /// this (Presidio's `score_threshold`).
    pub min_score: f64,
    /// Words before and after a match (on its line) searched for context words.
    pub context_words_before: usize,
    pub context_words_after: usize,
    /// Added to the score of a match with one of its context words nearby; the result is
    /// at least `context_min_score` (Presidio's context enhancer: 0.35 and 0.4).
    pub context_boost: f64,
    pub context_min_score: f64,
    /// Taken from the score of a match without context words of its own when an
    /// overlapping match of another pattern has some: the context tells which reading of
    /// an ambiguous number is meant ("account 4010232137" is no NHS number).
    pub rival_context_penalty: f64,
    /// Score and context words of every built-in pattern.
    pub recognizers: std::collections::BTreeMap<String, RecognizerConfig>,
}

/// How much one built-in pattern's match is trusted (`[detect.patterns.recognizers]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecognizerConfig {
    /// Score of a match in the pattern's distinctive form (formatted, checksummed).
    pub score: f64,
    /// Score of a match in its weak form (a bare run of digits that many identifiers
    /// share); the pattern has none when absent.
    #[serde(default)]
    pub weak_score: Option<f64>,
    /// Words that raise the score when near the match (lowercase; a phrase matches
    /// consecutive words; a plural "s" on the text's word is ignored).
    #[serde(default)]
    pub context: Vec<String>,
}

/// A user-defined pattern: every match of `regex` is sensitive and becomes `generalization`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomPattern {
    pub name: String,
    pub regex: String,
    pub generalization: String,
}

/// Block and allow lists (`[detect.lists]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListsConfig {
    /// Files of terms that are always sensitive, one per line.
    pub block: Vec<PathBuf>,
    /// Files of terms that are never sensitive; they also veto other detectors' findings.
    pub allow: Vec<String>,
    /// Match only whole words (term boundaries on both sides).
    pub whole_word: bool,
    /// Match regardless of case.
    pub case_fold: bool,
    /// Category and generalization of block-list findings.
    pub category: String,
    pub generalization: String,
    /// Keep block lists in a Bloom filter instead of an automaton (very large lists).
    pub bloom: bool,
    /// The Bloom filter's target false-positive rate.
    pub bloom_false_positive_rate: f64,
    /// Longest block-list term in words the Bloom mode looks up.
    pub bloom_max_words: usize,
}

impl ListsConfig {
    /// The Bloom filter's rate and reach must be usable even when it is off, so turning
    /// it on later cannot fail at run time.
    pub fn validate(&self) -> Result<()> {
        let mut check = Checks::default();
        check.unit_interval_open(
            "detect.lists.bloom_false_positive_rate",
            self.bloom_false_positive_rate,
        );
        check.range("detect.lists.bloom_max_words", self.bloom_max_words, 1, 64);
        check.into_result()
    }
}

/// How a sensitive term is rendered (`[detect.operators]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Operator {
    /// Deleted.
    Remove,
    /// Replaced by the detector's proposal (removed when it proposes removal).
    Generalize,
    /// Each character overwritten by the mask character.
    Mask,
    /// "PERSON 1" for every mention of the same entity in one document.
    Pseudonym,
    /// Keyed HMAC-SHA256 of the normalized term, hex: linkable across documents with the
    /// same key, not reversible without it.
    Hash,
}

/// One operator rule: findings of `category` are rendered with `operator`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorRule {
    pub category: String,
    pub operator: Operator,
}

/// What replaces a finding, per category (`[detect.operators]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorsConfig {
    /// Operator for categories no rule names: remove, generalize, mask, pseudonym, hash.
    pub default: Operator,
    pub rules: Vec<OperatorRule>,
    /// Character the mask operator writes over each character.
    pub mask_char: char,
    /// Characters left unmasked at the end (e.g. the last digits of a card).
    pub mask_keep_last: usize,
    /// HMAC-SHA256 key for the hash operator, or empty to read it from `hash_key_env`.
    pub hash_key: String,
    /// Environment variable holding the key when `hash_key` is empty.
    pub hash_key_env: String,
    /// Hex characters of the digest kept in the output.
    pub hash_hex_chars: usize,
}

/// A trained linear-chain sequence labeller (structured perceptron).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceModelConfig {
    /// Weights: a path relative to the data directory (where `declass train` writes) or
    /// absolute; the compiled-in model when no file is there.
    pub model: PathBuf,
    pub epochs: usize,
    pub seed: u64,
    /// Features seen fewer times in training are dropped from the saved model.
    pub min_feature_count: u32,
    /// Folds for the lexicon of training mentions the model ships (0: none).
    pub lexicon_folds: usize,
    /// How training labels a mention's tokens (`bio` or `bilou`).
    pub label_scheme: LabelScheme,
    /// Category and generalization of its findings; empty: from the entity type (its
    /// entry in `types`, else PER → person, LOC → location, ORG → organization, others
    /// lowercased).
    pub category: String,
    pub generalization: String,
    /// The confidence of its findings: the model gives none per mention (Presidio gives
    /// its spaCy recognizer's entities a fixed 0.85 too).
    pub score: f64,
    /// Distinct words whose features are kept once worked out, across a run's
    /// documents (a few hundred bytes each).
    pub remembered_words: usize,
    /// The entity types the model learns, by the name the model gives them. Empty: the
    /// types the training data uses, as they are.
    #[serde(default)]
    pub types: std::collections::BTreeMap<String, EntityTypeConfig>,
    /// Phrase lists built when the model is trained and shipped inside it.
    #[serde(default)]
    pub gazetteers: Option<GazetteerConfig>,
    /// Word clusters learned when the model is trained and shipped inside it.
    #[serde(default)]
    pub clusters: Option<ClusterConfig>,
    /// Distant supervision: how training labels an unlabelled treebank's proper names
    /// from the gazetteers.
    #[serde(default)]
    pub silver: Option<SilverConfig>,
    /// Knowledge-base concepts (labels) that contradict a finding: a mention whose phrase
    /// and head word the knowledge bases know only as classes under these is the model's
    /// mistake and is dropped. Empty: no check.
    #[serde(default)]
    pub veto_under: Vec<String>,
    /// A mention that up to this many following words complete into a common noun of the
    /// knowledge bases (a class, not an individual: "driver" in "driver's license",
    /// "Parkinson" in "Parkinson's disease") names part of a thing and is dropped. 0: no
    /// check.
    #[serde(default)]
    pub compound_reach: usize,
    /// A labelled mention of at least this many words labels its other occurrences in
    /// the document, word for word and case for case, with its type (Krishnan & Manning
    /// 2006: a document labels its repeated phrases consistently). 0: no such labels.
    #[serde(default)]
    pub repeat_min_words: usize,
}

impl SequenceModelConfig {
    /// Range checks of training and run settings; `section` is the model's key
    /// (`detect.ner`), which the errors name.
    pub fn validate(&self, section: &str) -> Result<()> {
        let mut check = Checks::default();
        check.range(&format!("{section}.epochs"), self.epochs, 1, 1000);
        check.unit_interval(&format!("{section}.score"), self.score, true);
        check.range(
            &format!("{section}.remembered_words"),
            self.remembered_words,
            1,
            10_000_000,
        );
        check.range(
            &format!("{section}.lexicon_folds"),
            self.lexicon_folds,
            0,
            100,
        );
        if let Some(gazetteers) = &self.gazetteers {
            check.range(
                &format!("{section}.gazetteers.max_words"),
                gazetteers.max_words,
                1,
                64,
            );
        }
        check.into_result()
    }
}

/// One entity type of a sequence model: what training data calls it and what it becomes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityTypeConfig {
    /// Category of its findings ("person").
    pub category: String,
    /// The generalization g(s) its findings propose ("person").
    pub generalization: String,
    /// Names of this type in training and evaluation data (UNER's `PER`, TAB's `PERSON`,
    /// spaCy's `GPE`…). A type no entry names is not learned: its spans train as outside.
    pub from: Vec<String>,
    /// Whether the detector reports findings of this type (the model still tells them
    /// apart from the others: turning dates off does not make them persons).
    pub report: bool,
    /// Words dropped from the start of a training or evaluation span of this type,
    /// compared case-insensitively without a final period (TAB's person spans include
    /// "Mr"; UNER's and OntoNotes' do not).
    #[serde(default)]
    pub strip_leading: Vec<String>,
    /// With the knowledge bases, a mention of this type stands only when it holds a digit
    /// or a word with a sense under one of these concepts (a date needs a number or a
    /// word of time). Empty: no check.
    #[serde(default)]
    pub evidence_under: Vec<String>,
}

/// Distant supervision of the named-entity model (`declass train ner --silver`): in an
/// unlabelled treebank, a run of proper nouns (its gold parts of speech) that is exactly
/// a phrase of gazetteer lists of one type gets that type, a first name followed by a
/// surname is a person, every other run and capitalized word is left unknown (any label)
/// and every other word is outside.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SilverConfig {
    /// Gazetteer list → the entity type its phrases get.
    pub lists: std::collections::BTreeMap<String, String>,
    /// The lists of first names and surnames (empty: no name rule) and the type of a
    /// first name followed by a surname.
    pub first_names: String,
    pub surnames: String,
    pub person_type: String,
    /// Words joining proper nouns inside one name ("Bank of America").
    pub joiners: Vec<String>,
}

/// Word clusters of a sequence model (`sequence::WordClusters`): learned when the model is
/// trained from a local corpus's texts and the training sentences, then shipped inside it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterConfig {
    /// The local corpus whose source texts are read (its build's sources, which must
    /// still be where the build found them); empty: the training sentences only.
    pub corpus: String,
    /// Words seen fewer times get no cluster.
    pub min_count: u64,
    /// At most this many words (the most frequent) get a cluster.
    pub max_words: usize,
    /// The most frequent words serve as contexts (before and after a word).
    pub context_words: usize,
    /// Context positions on each side of a word (1: the words just before and after).
    pub window: usize,
    /// Dimensions of the random projection of the context vectors.
    pub dimensions: usize,
    /// Depth of the binary tree of clusters (the longest path).
    pub depth: usize,
    /// 2-means passes per split.
    pub iterations: usize,
    /// Path prefix lengths that become features; empty: no clusters are learned.
    pub prefixes: Vec<usize>,
}

/// Gazetteers of a sequence model: built from the knowledge bases, the first-name lists
/// and the suffix words below when the model is trained, then shipped inside it, so
/// detection needs no knowledge base and sees the features training saw.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GazetteerConfig {
    /// Knowledge bases whose named entities become lists (one per knowledge base and
    /// category).
    pub knowledge_bases: Vec<String>,
    /// Category → labels of anchor concepts: a named entity belongs to the category of
    /// the nearest anchor on its generalization chains ("other" when none).
    pub anchors: std::collections::BTreeMap<String, Vec<String>>,
    /// Whether to list the US Census first names of the `names` package
    /// (`setup.packages.names`, fetched when missing).
    pub first_names: bool,
    /// Whether to list the US Census surnames of the `names` package too.
    pub surnames: bool,
    /// Words that end organization names ("Inc", "University", "Committee").
    pub org_suffixes: Vec<String>,
    /// Longest listed phrase, in words; longer names are left out.
    pub max_words: usize,
    /// Knowledge bases every concept label (preferred and alternative) of which becomes
    /// one list (`{kb}-label`): MeSH's disease names for the disease model.
    #[serde(default)]
    pub every_label: Vec<String>,
}

/// How a mention's tokens are labelled in training. BIO marks a mention's first token
/// `B-` and the rest `I-`; BILOU also marks its last `L-` and a one-token mention `U-`,
/// so the model learns where mentions end as well as where they begin (Ratinov & Roth
/// 2009, "Design challenges and misconceptions in named entity recognition", §3: BILOU
/// beats BIO). Predictions are given in BIO either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelScheme {
    #[default]
    Bio,
    Bilou,
}
