//! Word clusters learned from unlabelled text, as features for the sequence labeller.
//!
//! Brown clusters (Brown et al. 1992) used as features lift named-entity taggers by
//! several points (Miller, Guinness & Zamanian 2004; Ratinov & Roth 2009; Turian, Ratinov
//! & Bengio 2010): a word the labelled data never showed shares its cluster with words it
//! did. These clusters are a cheaper distributional stand-in with the same use: each word
//! is the vector of its positive pointwise mutual information with the words at each
//! position up to a few before and after it (context distribution smoothed by α = 0.75, Levy, Goldberg & Dagan
//! 2015), randomly projected to a few dimensions (Achlioptas 2003), and the words are split
//! in two by spherical 2-means, each half again, down to a fixed depth. A word's cluster is
//! its path in that binary tree, and its features are the path's prefixes, as with Brown
//! paths: short prefixes are broad classes, long ones near-synonyms.
//!
//! Hand-written: the whole method is counting, a sum of random signs and 2-means, each a
//! few lines, and it must be deterministic (same text and options, same clusters).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::detect::config::ClusterConfig;

/// Each known word's path in the binary tree of clusters, and the path prefixes that
/// make its features.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WordClusters {
    /// Lowercased word → path, a string of `0` and `1`.
    paths: BTreeMap<String, String>,
    prefixes: Vec<usize>,
}

impl WordClusters {
    /// Whether no word has a cluster (a model trained without clusters).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// The features `prefix` forms for the lowercased `word`, one per prefix length
    /// (`{prefix}{length}={path prefix}`); none for a word without a cluster.
    pub(super) fn features(&self, word: &str, prefix: &str) -> Vec<String> {
        let Some(path) = self.paths.get(word) else {
            return Vec::new();
        };
        self.prefixes
            .iter()
            .map(|&length| {
                let cut = &path[..length.min(path.len())];
                format!("{prefix}{length}={cut}")
            })
            .collect()
    }

    /// Learns clusters from `texts`, each a sequence of lowercased tokens (a sentence or
    /// a document: contexts do not cross from one to the next), with `options` (its
    /// `corpus` is the caller's business) and the random projection drawn from `seed`.
    pub fn learn<'a>(
        texts: impl IntoIterator<Item = &'a [String]>,
        options: &ClusterConfig,
        seed: u64,
    ) -> WordClusters {
        let mut ids: FxHashMap<&'a str, u32> = FxHashMap::default();
        let mut words: Vec<&'a str> = Vec::new();
        let mut counts: Vec<u64> = Vec::new();
        let mut interned: Vec<Vec<u32>> = Vec::new();
        for text in texts {
            interned.push(
                text.iter()
                    .map(|word| {
                        let id = *ids.entry(word.as_str()).or_insert_with(|| {
                            words.push(word.as_str());
                            counts.push(0);
                            (words.len() - 1) as u32
                        });
                        counts[id as usize] += 1;
                        id
                    })
                    .collect(),
            );
        }
        // Most frequent first; ties by the word, so the order is the text's, not the
        // hash map's.
        let mut by_frequency: Vec<u32> = (0..words.len() as u32).collect();
        by_frequency.sort_by(|&a, &b| {
            counts[b as usize]
                .cmp(&counts[a as usize])
                .then(words[a as usize].cmp(words[b as usize]))
        });
        let vocabulary: Vec<u32> = by_frequency
            .iter()
            .copied()
            .filter(|&w| counts[w as usize] >= options.min_count)
            .take(options.max_words)
            .collect();
        let mut row_of = vec![u32::MAX; words.len()];
        for (row, &w) in vocabulary.iter().enumerate() {
            row_of[w as usize] = row as u32;
        }
        let mut context_of = vec![u32::MAX; words.len()];
        for (column, &w) in by_frequency.iter().take(options.context_words).enumerate() {
            context_of[w as usize] = column as u32;
        }
        let contexts = options.context_words.min(words.len());
        let window = options.window.max(1);
        // Co-occurrence counts: block `b` of `contexts` columns holds the context words
        // at offset `b - window` (blocks before the word) or `b - window + 1` (after it).
        let mut cooccurrence: Vec<FxHashMap<u32, u32>> =
            vec![FxHashMap::default(); vocabulary.len()];
        for text in &interned {
            for (i, &w) in text.iter().enumerate() {
                let row = row_of[w as usize];
                if row == u32::MAX {
                    continue;
                }
                let cells = &mut cooccurrence[row as usize];
                for block in 0..2 * window {
                    let position = if block < window {
                        i.checked_sub(window - block)
                    } else {
                        Some(i + block - window + 1)
                    };
                    let Some(&context) = position.and_then(|j| text.get(j)) else {
                        continue;
                    };
                    let column = context_of[context as usize];
                    if column != u32::MAX {
                        *cells.entry((block * contexts) as u32 + column).or_default() += 1;
                    }
                }
            }
        }
        let vectors = projected_ppmi(&cooccurrence, 2 * window * contexts, options, seed);
        let mut paths = vec![String::new(); vocabulary.len()];
        bisect(&vectors, options, &mut paths);
        WordClusters {
            paths: vocabulary
                .iter()
                .zip(paths)
                .map(|(&w, path)| (words[w as usize].to_string(), path))
                .collect(),
            prefixes: options.prefixes.clone(),
        }
    }
}

/// Each row's PPMI vector (context counts raised to 0.75 for the context probabilities),
/// projected onto `options.dimensions` random ±1 directions and scaled to unit length.
fn projected_ppmi(
    cooccurrence: &[FxHashMap<u32, u32>],
    columns: usize,
    options: &ClusterConfig,
    seed: u64,
) -> Vec<Vec<f32>> {
    let mut column_totals = vec![0f64; columns];
    let mut total = 0f64;
    for cells in cooccurrence {
        for (&column, &count) in cells {
            column_totals[column as usize] += count as f64;
            total += count as f64;
        }
    }
    let smoothed: Vec<f64> = column_totals.iter().map(|c| c.powf(0.75)).collect();
    let smoothed_total: f64 = smoothed.iter().sum();
    let dimensions = options.dimensions.max(1);
    let mut vectors = Vec::with_capacity(cooccurrence.len());
    for cells in cooccurrence {
        let row_total: f64 = cells.values().map(|&c| c as f64).sum();
        let mut vector = vec![0f32; dimensions];
        // Columns in order, so the sums are the same on every run.
        let mut sorted: Vec<(u32, u32)> = cells.iter().map(|(&c, &n)| (c, n)).collect();
        sorted.sort_unstable();
        for (column, count) in sorted {
            let p_joint = count as f64 / total;
            let p_row = row_total / total;
            let p_column = smoothed[column as usize] / smoothed_total;
            let pmi = (p_joint / (p_row * p_column)).ln();
            if pmi <= 0.0 {
                continue;
            }
            for (d, slot) in vector.iter_mut().enumerate() {
                if random_sign(seed, column, d) {
                    *slot += pmi as f32;
                } else {
                    *slot -= pmi as f32;
                }
            }
        }
        normalize(&mut vector);
        vectors.push(vector);
    }
    vectors
}

/// A fixed pseudo-random sign for (column, dimension): splitmix64 of the three.
fn random_sign(seed: u64, column: u32, dimension: usize) -> bool {
    let mut z = seed
        .wrapping_add(u64::from(column).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((dimension as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    z & 1 == 1
}

fn normalize(vector: &mut [f32]) {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The normalized sum of the members' vectors.
fn centroid(vectors: &[Vec<f32>], members: &[usize]) -> Vec<f32> {
    let mut sum = vec![0f32; vectors.first().map_or(0, Vec::len)];
    for &m in members {
        sum.iter_mut().zip(&vectors[m]).for_each(|(s, x)| *s += x);
    }
    normalize(&mut sum);
    sum
}

/// Splits the words in two, recursively to `options.depth`, appending each split's side
/// to the members' paths. A split is principal direction divisive partitioning (Boley
/// 1998: the sign of each member's projection on the group's first principal
/// direction, found by power iteration), refined by spherical 2-means; both are
/// deterministic.
fn bisect(vectors: &[Vec<f32>], options: &ClusterConfig, paths: &mut [String]) {
    let mut groups: Vec<Vec<usize>> = vec![(0..vectors.len()).collect()];
    for _ in 0..options.depth {
        let mut next = Vec::with_capacity(groups.len() * 2);
        for members in groups {
            if members.len() < 2 {
                continue;
            }
            let mut side = principal_split(vectors, &members, options.iterations);
            for _ in 0..options.iterations.max(1) {
                let (left, right) = split(&members, &side);
                if left.is_empty() || right.is_empty() {
                    break;
                }
                let centres = [centroid(vectors, &left), centroid(vectors, &right)];
                let assigned: Vec<bool> = members
                    .iter()
                    .map(|&m| dot(&vectors[m], &centres[1]) > dot(&vectors[m], &centres[0]))
                    .collect();
                if assigned == side {
                    break;
                }
                side = assigned;
            }
            let (left, right) = split(&members, &side);
            if left.is_empty() || right.is_empty() {
                continue;
            }
            for &m in &left {
                paths[m].push('0');
            }
            for &m in &right {
                paths[m].push('1');
            }
            next.push(left);
            next.push(right);
        }
        groups = next;
    }
}

/// Which members lie on the positive side of the group's first principal direction
/// (through its mean), the direction found by `iterations` power-iteration steps from
/// a fixed start.
fn principal_split(vectors: &[Vec<f32>], members: &[usize], iterations: usize) -> Vec<bool> {
    let dimensions = vectors[members[0]].len();
    let mut mean = vec![0f32; dimensions];
    for &m in members {
        mean.iter_mut().zip(&vectors[m]).for_each(|(s, x)| *s += x);
    }
    mean.iter_mut().for_each(|s| *s /= members.len() as f32);
    let centred = |m: usize| vectors[m].iter().zip(&mean).map(|(x, c)| x - c);
    let mut direction: Vec<f32> = (0..dimensions).map(|d| 1.0 + (d % 7) as f32).collect();
    normalize(&mut direction);
    for _ in 0..iterations.max(1) * 2 {
        let mut product = vec![0f32; dimensions];
        for &m in members {
            let projection: f32 = centred(m).zip(&direction).map(|(x, d)| x * d).sum();
            product
                .iter_mut()
                .zip(centred(m))
                .for_each(|(p, x)| *p += projection * x);
        }
        normalize(&mut product);
        direction = product;
    }
    members
        .iter()
        .map(|&m| centred(m).zip(&direction).map(|(x, d)| x * d).sum::<f32>() > 0.0)
        .collect()
}

fn split(members: &[usize], side: &[bool]) -> (Vec<usize>, Vec<usize>) {
    let mut halves = (Vec::new(), Vec::new());
    for (&m, &right) in members.iter().zip(side) {
        if right {
            halves.1.push(m);
        } else {
            halves.0.push(m);
        }
    }
    halves
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> ClusterConfig {
        ClusterConfig {
            corpus: String::new(),
            min_count: 2,
            max_words: 100,
            context_words: 20,
            window: 1,
            dimensions: 32,
            depth: 4,
            iterations: 10,
            prefixes: vec![1, 4],
        }
    }

    fn corpus() -> Vec<Vec<String>> {
        let mut texts = Vec::new();
        for (i, city) in ["paris", "london", "berlin", "rome"].iter().enumerate() {
            for (j, verb) in ["eats", "drinks", "sees", "likes"].iter().enumerate() {
                let person = ["anna", "peter", "maria", "john"][(i + j) % 4];
                let text = format!("in {city} , {person} {verb} the bread .");
                texts.push(text.split(' ').map(String::from).collect());
                let text = format!("{person} lives in {city} and {verb} it .");
                texts.push(text.split(' ').map(String::from).collect());
            }
        }
        texts
    }

    #[test]
    fn words_used_alike_share_a_cluster_and_differ_from_others() {
        let texts = corpus();
        let clusters = WordClusters::learn(texts.iter().map(Vec::as_slice), &options(), 7);
        let path = |w: &str| clusters.paths[w].clone();
        let first_bit = |w: &str| path(w)[..1].to_string();
        assert_eq!(first_bit("paris"), first_bit("berlin"));
        assert_eq!(first_bit("eats"), first_bit("drinks"));
        assert_ne!(path("paris"), path("eats"));
        assert_eq!(
            clusters.features("paris", "cl"),
            vec![
                format!("cl1={}", first_bit("paris")),
                format!("cl4={}", &path("paris")[..4.min(path("paris").len())])
            ]
        );
        assert!(clusters.features("unseen", "cl").is_empty());
    }

    #[test]
    fn learning_is_deterministic() {
        let texts = corpus();
        let a = WordClusters::learn(texts.iter().map(Vec::as_slice), &options(), 7);
        let b = WordClusters::learn(texts.iter().map(Vec::as_slice), &options(), 7);
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }
}
