//! The anonymization dictionary of Maeda, Suzuki & Nakamura (2016) with its
//! acceleration: for a term w of length l, the set of list entries matching a pattern
//! that keeps the characters at positions P is the intersection of the sets
//! T(l, w_p, p) for p in P (Step 1-2 and 1-3: cr** = T(4,c,0) ∩ T(4,r,1)). Patterns are
//! grown one kept character at a time from a pattern with one more masked character,
//! intersecting its set with one more T; a branch stops as soon as its count k̂ falls
//! below the minimum K (Step 1-4: a pattern that keeps more characters matches a subset,
//! so it cannot climb back to K).
//!
//! Whitespace is never masked (word boundaries stay visible, as in the k-repeat
//! covering), so entries are grouped by their *shape*: length plus whitespace positions.
//!
//! Only the frontier is stored per term: for each number of masked characters r, the
//! pattern with the largest k̂, kept when it beats every pattern with fewer masked
//! characters. That is all replacement needs (the fewest masked characters reaching a
//! given k), where the seed's full table would hold up to 2^l rows per term.

use std::collections::BTreeMap;

use roaring::RoaringBitmap;

use crate::error::{Error, Result};

/// One stored pattern of a term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// Number of list entries matching the pattern (k̂), the term itself included.
    pub khat: u32,
    /// Number of masked characters (r).
    pub masked: u32,
    /// One flag per character of the term: true = kept.
    pub kept: Vec<bool>,
}

impl Pattern {
    /// The term with its masked characters replaced by `mask`.
    pub fn render(&self, term: &str, mask: char) -> String {
        term.chars()
            .zip(&self.kept)
            .map(|(c, &k)| if k { c } else { mask })
            .collect()
    }
}

/// A term's frontier: patterns by increasing `masked` and strictly increasing `khat`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TermEntry {
    pub term: String,
    /// Entries of the list with the same shape (k̂ of the all-masked pattern).
    pub shape_count: u32,
    /// False when the search hit the per-term budget: stored patterns are still exact,
    /// but one with fewer masked characters may have been missed.
    pub complete: bool,
    pub frontier: Vec<Pattern>,
}

impl TermEntry {
    /// The pattern with the fewest masked characters and k̂ ≥ k (ties were settled at
    /// build time: largest k̂, then the earliest kept positions).
    pub fn pattern_for(&self, k: u32) -> Option<&Pattern> {
        self.frontier.iter().find(|p| p.khat >= k)
    }
}

/// Normalizes a list entry or a text phrase for matching: the canonical lowercase form
/// (`text::tokenize::normalize`) with whitespace runs made one space, trimmed.
pub fn normalize_entry(text: &str) -> String {
    let lowered = crate::text::tokenize::normalize(text);
    lowered.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Entries of one shape, and the sets T(position, character) over their local ids.
struct ShapeGroup {
    members: Vec<u32>,
    sets: BTreeMap<(u32, char), RoaringBitmap>,
}

/// The list, normalized and deduplicated, with the per-shape sets T (Step 1-1 and 1-2).
pub struct ShapeIndex {
    terms: Vec<String>,
    chars: Vec<Vec<char>>,
    groups: BTreeMap<Vec<u32>, ShapeGroup>,
    local_id: Vec<u32>,
}

impl ShapeIndex {
    /// Normalizes, deduplicates and indexes `list`.
    pub fn new(list: &[String]) -> ShapeIndex {
        let mut terms: Vec<String> = list
            .iter()
            .map(|s| normalize_entry(s))
            .filter(|s| !s.is_empty())
            .collect();
        terms.sort_unstable();
        terms.dedup();
        let chars: Vec<Vec<char>> = terms.iter().map(|t| t.chars().collect()).collect();
        let mut groups: BTreeMap<Vec<u32>, ShapeGroup> = BTreeMap::new();
        let mut local_id = vec![0u32; terms.len()];
        for (id, cs) in chars.iter().enumerate() {
            let group = groups.entry(shape(cs)).or_insert_with(|| ShapeGroup {
                members: Vec::new(),
                sets: BTreeMap::new(),
            });
            let local = group.members.len() as u32;
            local_id[id] = local;
            group.members.push(id as u32);
            for (p, &c) in cs.iter().enumerate() {
                if !c.is_whitespace() {
                    group.sets.entry((p as u32, c)).or_default().insert(local);
                }
            }
        }
        ShapeIndex {
            terms,
            chars,
            groups,
            local_id,
        }
    }

    /// The distinct normalized entries, sorted; ids are indices into this.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// The frontier of entry `id` for minimum K = `min_k`, computing at most `budget`
    /// intersections.
    pub fn entry(&self, id: usize, min_k: usize, budget: usize) -> TermEntry {
        let cs = &self.chars[id];
        let group = &self.groups[&shape(cs)];
        frontier(
            &self.terms[id],
            cs,
            group,
            self.local_id[id],
            min_k as u32,
            budget,
        )
    }
}

/// Builds every term's frontier from the list. `list` is deduplicated after
/// normalization; `budget` caps the intersections computed per term.
pub fn build(list: &[String], min_k: usize, budget: usize) -> Result<Vec<TermEntry>> {
    let index = ShapeIndex::new(list);
    check_min_k(min_k, index.terms.len())?;
    Ok((0..index.terms.len())
        .map(|id| index.entry(id, min_k, budget))
        .collect())
}

pub(crate) fn check_min_k(min_k: usize, list_len: usize) -> Result<()> {
    if list_len == 0 {
        return Err(Error::parameter(
            "kanon list",
            "is empty (no non-blank line)",
        ));
    }
    if min_k < 2 {
        return Err(Error::parameter(
            "kanon k",
            format!("must be at least 2 (got {min_k})"),
        ));
    }
    if min_k > list_len {
        return Err(Error::parameter(
            "kanon k",
            format!("{min_k} is larger than the list ({list_len} distinct entries)"),
        ));
    }
    Ok(())
}

/// Shape of a term: its length followed by its whitespace positions.
fn shape(cs: &[char]) -> Vec<u32> {
    let mut key = vec![cs.len() as u32];
    key.extend(
        cs.iter()
            .enumerate()
            .filter(|(_, c)| c.is_whitespace())
            .map(|(i, _)| i as u32),
    );
    key
}

/// Depth-first search over kept-position sets in increasing position order (each set
/// is reached once, from the set without its last position), pruning at k̂ < K.
fn frontier(
    term: &str,
    cs: &[char],
    group: &ShapeGroup,
    self_id: u32,
    min_k: u32,
    budget: usize,
) -> TermEntry {
    let positions: Vec<usize> = (0..cs.len()).filter(|&p| !cs[p].is_whitespace()).collect();
    let m = positions.len();
    // best[c] = (k̂, kept positions) for patterns keeping c characters.
    let mut best: Vec<Option<(u32, Vec<usize>)>> = vec![None; m + 1];
    let shape_count = group.members.len() as u32;
    best[0] = Some((shape_count, Vec::new()));
    let mut spent = 0usize;
    let mut complete = true;
    let mut stack: Vec<(usize, RoaringBitmap, Vec<usize>)> = Vec::new();
    // Level one: single kept characters, straight from T.
    for (i, &p) in positions.iter().enumerate().rev() {
        let set = group
            .sets
            .get(&(p as u32, cs[p]))
            .cloned()
            .unwrap_or_default();
        stack.push((i, set, vec![p]));
    }
    while let Some((i, set, kept)) = stack.pop() {
        let khat = set.len() as u32;
        debug_assert!(set.contains(self_id));
        if khat < min_k {
            continue;
        }
        let slot = &mut best[kept.len()];
        if slot.as_ref().is_none_or(|(b, _)| khat > *b) {
            *slot = Some((khat, kept.clone()));
        }
        for (j, &p) in positions.iter().enumerate().skip(i + 1).rev() {
            if spent >= budget {
                complete = false;
                break;
            }
            spent += 1;
            let Some(t) = group.sets.get(&(p as u32, cs[p])) else {
                continue;
            };
            let next = &set & t;
            if next.len() >= u64::from(min_k) {
                let mut more = kept.clone();
                more.push(p);
                stack.push((j, next, more));
            }
        }
    }
    // Frontier: fewest masked first (most kept), keeping strictly increasing k̂.
    let mut patterns = Vec::new();
    let mut top = 0u32;
    for c in (0..=m).rev() {
        if let Some((khat, kept)) = &best[c]
            && *khat > top
        {
            top = *khat;
            let mut flags: Vec<bool> = cs.iter().map(|c| c.is_whitespace()).collect();
            for &p in kept {
                flags[p] = true;
            }
            patterns.push(Pattern {
                khat: *khat,
                masked: (m - c) as u32,
                kept: flags,
            });
        }
    }
    TermEntry {
        term: term.to_string(),
        shape_count,
        complete,
        frontier: patterns,
    }
}

/// Whether list entry `w` matches the pattern of `term` keeping `kept`: same length,
/// whitespace at the same positions, equal characters where kept.
pub fn pattern_matches(term: &[char], kept: &[bool], w: &[char]) -> bool {
    w.len() == term.len()
        && (0..term.len()).all(|p| {
            w[p].is_whitespace() == term[p].is_whitespace() && (!kept[p] || w[p] == term[p])
        })
}

/// The naive method the seed accelerates: every pattern of `term` matched against the
/// whole list. Returns, per number of masked characters, the best k̂. For tests and
/// the benchmark; exponential in the term's length.
pub fn naive_best_khat(term: &str, list: &[Vec<char>]) -> Vec<u32> {
    let cs: Vec<char> = term.chars().collect();
    let positions: Vec<usize> = (0..cs.len()).filter(|&p| !cs[p].is_whitespace()).collect();
    let m = positions.len();
    let mut best = vec![0u32; m + 1];
    for mask in 0u64..(1u64 << m) {
        let mut kept = vec![true; cs.len()];
        for (bit, &p) in positions.iter().enumerate() {
            kept[p] = (mask >> bit) & 1 == 0;
        }
        let count = list
            .iter()
            .filter(|w| pattern_matches(&cs, &kept, w))
            .count() as u32;
        let masked = mask.count_ones() as usize;
        best[masked] = best[masked].max(count);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::testing::lcg;

    /// k̂ of a pattern counted by brute force over the list.
    fn brute_khat(term: &[char], kept: &[bool], list: &[Vec<char>]) -> u32 {
        list.iter()
            .filter(|w| pattern_matches(term, kept, w))
            .count() as u32
    }

    #[test]
    fn frontier_matches_brute_force() {
        let mut seed = 3;
        let alphabet: Vec<char> = "abc d".chars().collect();
        for _ in 0..60 {
            let n = 3 + lcg(&mut seed) % 25;
            let list: Vec<String> = (0..n)
                .map(|_| {
                    let len = 1 + lcg(&mut seed) % 6;
                    (0..len)
                        .map(|_| alphabet[lcg(&mut seed) % alphabet.len()])
                        .collect()
                })
                .collect();
            let entries = match build(&list, 2, usize::MAX) {
                Ok(e) => e,
                Err(e) => panic!("{e}"),
            };
            let words: Vec<Vec<char>> = entries.iter().map(|e| e.term.chars().collect()).collect();
            for entry in &entries {
                assert!(entry.complete);
                let cs: Vec<char> = entry.term.chars().collect();
                for p in &entry.frontier {
                    assert_eq!(p.khat, brute_khat(&cs, &p.kept, &words), "{}", entry.term);
                    let masked = p.kept.iter().filter(|k| !**k).count() as u32;
                    assert_eq!(p.masked, masked);
                }
                // Minimality: for every k, the fewest masked characters found by
                // trying every pattern equals the stored answer.
                let naive = naive_best_khat(&entry.term, &words);
                for k in 2..=words.len() as u32 {
                    let want = naive.iter().position(|&b| b >= k);
                    let got = entry.pattern_for(k).map(|p| p.masked as usize);
                    assert_eq!(got, want, "{} k={k}", entry.term);
                }
            }
        }
    }

    #[test]
    fn seed_example_shapes() {
        let list: Vec<String> = [
            "crew", "draw", "cram", "docs", "crawl", "clew", "new york", "new yolk",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let entries = build(&list, 2, usize::MAX).expect("build");
        let crew = entries.iter().find(|e| e.term == "crew").expect("crew");
        // crew, draw, cram, docs, clew have length 4: masking everything gives 5.
        assert_eq!(crew.shape_count, 5);
        let p = crew.pattern_for(2).expect("k=2");
        assert_eq!(p.masked, 1);
        assert_eq!(p.render("crew", '*'), "c*ew");
        let ny = entries.iter().find(|e| e.term == "new york").expect("ny");
        assert_eq!(
            ny.pattern_for(2).expect("k=2").render("new york", '*'),
            "new yo*k"
        );
    }

    #[test]
    fn bad_lists_are_errors() {
        let refused =
            |list: &[String], k: usize| build(list, k, 10).expect_err("refused").to_string();
        assert_eq!(refused(&[], 2), "kanon list: is empty (no non-blank line)");
        assert_eq!(
            refused(&["  ".to_string()], 2),
            "kanon list: is empty (no non-blank line)"
        );
        assert_eq!(
            refused(&["a".to_string(), "b".to_string()], 1),
            "kanon k: must be at least 2 (got 1)"
        );
        let err = build(&["a".to_string(), "b".to_string()], 3, 10).expect_err("k > list");
        assert!(err.to_string().contains("larger than the list"), "{err}");
    }

    #[test]
    fn budget_marks_incomplete() {
        let list: Vec<String> = ["abcdef", "abcdeg", "abcdeh"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let entries = build(&list, 2, 3).expect("build");
        assert!(entries.iter().any(|e| !e.complete));
    }
}
