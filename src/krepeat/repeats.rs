//! The string algorithms of Matsubara & Hasida (2014): the generalized suffix array
//! with its LCP array, the generalized LCP over windows of suffixes from `k` sources
//! (Algorithm 1, generalized maximum repeats) and the greedy covering (Algorithm 2).
//!
//! Documents are concatenated with a zero byte after each one and sorted as a
//! *generalized* suffix array (every separator acts as a unique sentinel, Yamamoto &
//! Church's pseudo characters), so no repeat and no common prefix crosses a document
//! boundary. Input text never contains a zero byte: `io::decode_text` rejects it.

use std::collections::VecDeque;

use crate::error::{Error, Result};

/// Marks "no value" in the `u32` arrays below.
const NONE: u32 = u32::MAX;

/// The concatenated documents with their generalized suffix array and LCP array.
pub struct SuffixIndex {
    /// `doc0 \0 doc1 \0 … docN \0`.
    pub text: Vec<u8>,
    /// Byte offset in `text` where each document starts (plus one past the last separator).
    pub doc_starts: Vec<usize>,
    /// Suffix array: `sa[r]` is the text position of the suffix of rank `r`.
    pub sa: Vec<u32>,
    /// `lcp[r]` = length of the common prefix of the suffixes of ranks `r-1` and `r`,
    /// never extending over a separator; `lcp[0] = 0`.
    pub lcp: Vec<u32>,
}

impl SuffixIndex {
    /// Builds the index with libsais (SA-IS, linear time; the PLCP/LCP step is the Φ
    /// variant of Kasai et al.'s linear-time LCP construction). Errors when a document
    /// contains a zero byte or the input is larger than 2 GiB.
    pub fn build(docs: &[&str]) -> Result<SuffixIndex> {
        let total: usize = docs.iter().map(|d| d.len() + 1).sum();
        if total >= i32::MAX as usize {
            return Err(Error::input(
                "<krepeat input>",
                format!("{total} bytes is more than the 2 GiB the suffix array supports"),
            ));
        }
        let mut text = Vec::with_capacity(total);
        let mut doc_starts = Vec::with_capacity(docs.len() + 1);
        for (i, doc) in docs.iter().enumerate() {
            if doc.as_bytes().contains(&0) {
                return Err(Error::input(
                    format!("<document {}>", i + 1),
                    "contains a NUL byte (binary?), not text",
                ));
            }
            doc_starts.push(text.len());
            // An empty document adds nothing (libsais rejects two separators in a row).
            if !doc.is_empty() {
                text.extend_from_slice(doc.as_bytes());
                text.push(0);
            }
        }
        doc_starts.push(text.len());
        if text.is_empty() {
            return Ok(SuffixIndex {
                text,
                doc_starts,
                sa: Vec::new(),
                lcp: Vec::new(),
            });
        }
        let sais_error =
            |e: libsais::LibsaisError| Error::input("<krepeat input>", format!("libsais: {e:?}"));
        let with_lcp = libsais::SuffixArrayConstruction::for_text(&text)
            .in_owned_buffer32()
            .single_threaded()
            .generalized_suffix_array()
            .run()
            .map_err(sais_error)?
            .plcp_construction()
            .single_threaded()
            .run()
            .map_err(sais_error)?
            .lcp_construction()
            .single_threaded()
            .run()
            .map_err(sais_error)?;
        let (sa, lcp, _plcp, _) = with_lcp.into_parts();
        // Values are non-negative and below 2^31 (checked above), so the casts are exact.
        let sa = sa.into_iter().map(|v| v as u32).collect();
        let lcp = lcp.into_iter().map(|v| v as u32).collect();
        Ok(SuffixIndex {
            text,
            doc_starts,
            sa,
            lcp,
        })
    }

    /// Index of the document holding text position `pos` (empty documents hold none).
    fn doc_of(&self, pos: usize) -> usize {
        self.doc_starts.partition_point(|&s| s <= pos) - 1
    }
}

/// How occurrences are counted: every occurrence, or one per document (Matsubara & Hasida 2014, §7.2:
/// mentions inside one document are not independent sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    Occurrences,
    Documents,
}

/// For each suffix rank `a`, the smallest rank `e ≥ a` such that ranks `a..=e` come
/// from `k` distinct sources, or `NONE`. Non-decreasing in `a`.
enum WindowEnds {
    /// Each suffix is its own source: `e = a + k - 1`.
    Plain { k: usize, n: usize },
    /// Forward ends, and for each rank `r` the largest `b ≤ r` such that ranks `b..=r`
    /// hold `k` distinct documents (or `NONE`).
    PerDocument { ends: Vec<u32>, starts: Vec<u32> },
}

impl WindowEnds {
    fn new(index: &SuffixIndex, k: usize, counting: Counting) -> WindowEnds {
        let n = index.sa.len();
        match counting {
            Counting::Occurrences => WindowEnds::Plain { k, n },
            Counting::Documents => {
                let doc: Vec<u32> = index
                    .sa
                    .iter()
                    .map(|&p| index.doc_of(p as usize) as u32)
                    .collect();
                let mut counts = vec![0u32; index.doc_starts.len()];
                let mut ends = vec![NONE; n];
                let mut distinct = 0usize;
                let mut e = 0usize; // ranks a..e are in the window
                for (a, end) in ends.iter_mut().enumerate() {
                    while distinct < k && e < n {
                        let d = doc[e] as usize;
                        if counts[d] == 0 {
                            distinct += 1;
                        }
                        counts[d] += 1;
                        e += 1;
                    }
                    if distinct < k {
                        break;
                    }
                    *end = (e - 1) as u32;
                    let d = doc[a] as usize;
                    counts[d] -= 1;
                    if counts[d] == 0 {
                        distinct -= 1;
                    }
                }
                let mut starts = vec![NONE; n];
                counts.iter_mut().for_each(|c| *c = 0);
                let mut distinct = 0usize;
                let mut b = 0usize;
                for (r, start) in starts.iter_mut().enumerate() {
                    let d = doc[r] as usize;
                    if counts[d] == 0 {
                        distinct += 1;
                    }
                    counts[d] += 1;
                    // Drop the leftmost rank while the rest still holds k documents.
                    while distinct >= k {
                        let d = doc[b] as usize;
                        if counts[d] == 1 {
                            if distinct == k {
                                break;
                            }
                            distinct -= 1;
                        }
                        counts[d] -= 1;
                        b += 1;
                    }
                    if distinct >= k {
                        *start = b as u32;
                    }
                }
                WindowEnds::PerDocument { ends, starts }
            }
        }
    }

    fn get(&self, a: usize) -> Option<usize> {
        match self {
            WindowEnds::Plain { k, n } => (a + k - 1 < *n).then_some(a + k - 1),
            WindowEnds::PerDocument { ends, .. } => (ends[a] != NONE).then_some(ends[a] as usize),
        }
    }

    /// The shortest window ending at `r`, when it is not one of the forward windows
    /// (always the case with occurrences: `r-k+1..=r` is the forward window of `r-k+1`).
    fn start(&self, r: usize) -> Option<usize> {
        match self {
            WindowEnds::Plain { .. } => None,
            WindowEnds::PerDocument { starts, .. } => {
                (starts[r] != NONE).then_some(starts[r] as usize)
            }
        }
    }
}

/// A region `start..=end` of the concatenated text (inclusive, as in the seed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Region {
    pub start: u32,
    pub end: u32,
}

impl Region {
    pub fn len(&self) -> usize {
        (self.end - self.start + 1) as usize
    }

    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Algorithm 1: the generalized maximum repeats of the text for threshold `k`.
///
/// `glcp[a]` (generalized LCP) is the minimum LCP over the window of suffix ranks
/// `a..=e(a)` holding `k` sources: the longest prefix shared by all of them, hence a
/// prefix occurring at least `k` times. The longest prefix of suffix rank `r` that
/// occurs `k` times is the maximum `glcp` over the windows containing `r`. Both window
/// ends only move forward, so monotone deques give each minimum and maximum in amortized
/// O(1): the whole pass is O(n) for any `k` (the seed's loops are O(kn)).
///
/// For each end position the leftmost start is kept (`mr` in the seed), which makes the
/// regions maximal to the left; they are maximal to the right by construction.
pub fn maximum_repeats(index: &SuffixIndex, k: usize, counting: Counting) -> Vec<Region> {
    let n = index.sa.len();
    if n == 0 || k < 2 {
        return Vec::new();
    }
    let ends = WindowEnds::new(index, k, counting);
    let lcp = &index.lcp;
    // Generalized LCP per window start.
    let mut glcp = vec![0u32; n];
    let mut minq: VecDeque<usize> = VecDeque::new();
    let mut pushed = 0usize; // lcp indices 1..=pushed have entered the deque
    let mut windows = 0usize;
    for (a, g) in glcp.iter_mut().enumerate() {
        let Some(e) = ends.get(a) else { break };
        windows = a + 1;
        while pushed < e {
            pushed += 1;
            while minq.back().is_some_and(|&j| lcp[j] >= lcp[pushed]) {
                minq.pop_back();
            }
            minq.push_back(pushed);
        }
        while minq.front().is_some_and(|&j| j <= a) {
            minq.pop_front();
        }
        *g = minq.front().map_or(0, |&j| lcp[j]);
    }
    // Longest k-repeating prefix per rank, stored by text position: a scattered plain
    // write per suffix, where updating `mr` in rank order would be a scattered
    // read-modify-write (the costliest step on large inputs).
    let mut longest_at = vec![0u32; index.text.len()];
    let mut maxq: VecDeque<usize> = VecDeque::new();
    let mut backq: VecDeque<usize> = VecDeque::new();
    let backward_windows = matches!(ends, WindowEnds::PerDocument { .. });
    for r in 0..n {
        // Window ending at r (documents only): minimum LCP over start+1..=r.
        if backward_windows && r > 0 {
            while backq.back().is_some_and(|&j| lcp[j] >= lcp[r]) {
                backq.pop_back();
            }
            backq.push_back(r);
        }
        let mut backward = 0;
        if let Some(b) = ends.start(r) {
            while backq.front().is_some_and(|&j| j <= b) {
                backq.pop_front();
            }
            backward = backq.front().map_or(0, |&j| lcp[j]);
        }
        if r < windows {
            while maxq.back().is_some_and(|&a| glcp[a] <= glcp[r]) {
                maxq.pop_back();
            }
            maxq.push_back(r);
        }
        while maxq
            .front()
            .is_some_and(|&a| ends.get(a).is_none_or(|e| e < r))
        {
            maxq.pop_front();
        }
        let longest = maxq.front().map_or(0, |&a| glcp[a]).max(backward);
        longest_at[index.sa[r] as usize] = longest;
    }
    // `mr`: the leftmost start per end. Starts are visited in increasing order, so the
    // first region seen for an end is the leftmost one; ends lie just after their
    // starts, so this pass is sequential.
    let mut end_seen = vec![false; index.text.len()];
    let mut regions = Vec::new();
    for (start, &longest) in longest_at.iter().enumerate() {
        if longest == 0 {
            continue;
        }
        let end = start + longest as usize - 1;
        if !end_seen[end] {
            end_seen[end] = true;
            regions.push(Region {
                start: start as u32,
                end: end as u32,
            });
        }
    }
    regions
}

/// Algorithm 2: greedy covering. Regions are tried longest first (ties: leftmost first,
/// so the result is deterministic); a region is kept when neither neighbouring position
/// is already kept, so two kept repeats never touch and every maximal kept run is
/// exactly one repeat. Returns one flag per text position.
pub fn greedy_cover(regions: &[Region], text_len: usize) -> Vec<bool> {
    let mut flags = vec![false; text_len];
    let max_len = regions.iter().map(Region::len).max().unwrap_or(0);
    // Bucket by length (the seed's hash map from length to regions), longest first.
    let mut buckets: Vec<Vec<Region>> = vec![Vec::new(); max_len + 1];
    for r in regions {
        buckets[r.len()].push(*r);
    }
    for bucket in buckets.iter_mut().rev() {
        bucket.sort_unstable();
        for r in bucket.iter() {
            let (s, e) = (r.start as usize, r.end as usize);
            let left_free = s == 0 || !flags[s - 1];
            let right_free = e + 1 >= text_len || !flags[e + 1];
            if left_free && right_free {
                flags[s..=e].iter_mut().for_each(|f| *f = true);
            }
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Occurrences (or distinct documents) of `needle` in `docs`, counted naively.
    fn brute_count(docs: &[&str], needle: &[u8], counting: Counting) -> usize {
        let mut total = 0;
        for doc in docs {
            let d = doc.as_bytes();
            let hits = if needle.len() > d.len() {
                0
            } else {
                d.windows(needle.len()).filter(|w| *w == needle).count()
            };
            total += match counting {
                Counting::Occurrences => hits,
                Counting::Documents => usize::from(hits > 0),
            };
        }
        total
    }

    fn region_bytes<'a>(index: &'a SuffixIndex, r: &Region) -> &'a [u8] {
        &index.text[r.start as usize..=r.end as usize]
    }

    /// Every k-repeat that cannot be extended left or right without dropping below k,
    /// found by enumerating all substrings.
    fn brute_maximal_repeats(docs: &[&str], k: usize, counting: Counting) -> Vec<(usize, usize)> {
        let index = SuffixIndex::build(docs).expect("index");
        let t = &index.text;
        let ok = |s: usize, e: usize| -> bool {
            let piece = &t[s..=e];
            !piece.contains(&0) && brute_count(docs, piece, counting) >= k
        };
        let mut out = Vec::new();
        for s in 0..t.len() {
            for e in s..t.len() {
                if !ok(s, e) {
                    break;
                }
                let left = s > 0 && ok(s - 1, e);
                let right = e + 1 < t.len() && ok(s, e + 1);
                if !left && !right {
                    out.push((s, e));
                }
            }
        }
        out
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    fn random_docs(seed: &mut u64, alphabet: &[u8], docs: usize, max_len: usize) -> Vec<String> {
        (0..docs)
            .map(|_| {
                let len = (lcg(seed) as usize) % max_len + 1;
                (0..len)
                    .map(|_| alphabet[(lcg(seed) as usize) % alphabet.len()] as char)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn seed_example_lcp() {
        // Table 1 of Matsubara & Hasida (2014) (the sentinel row is our separator).
        let index = SuffixIndex::build(&["abracadabra"]).expect("index");
        assert_eq!(index.sa, vec![11, 10, 7, 0, 3, 5, 8, 1, 4, 6, 9, 2]);
        assert_eq!(index.lcp, vec![0, 0, 1, 4, 1, 1, 0, 3, 0, 0, 0, 2]);
    }

    #[test]
    fn lcp_stops_at_document_boundaries() {
        let index = SuffixIndex::build(&["ab", "ab", "abc"]).expect("index");
        let max = index.lcp.iter().max().copied();
        assert_eq!(max, Some(2));
    }

    #[test]
    fn maximum_repeats_match_brute_force() {
        let mut seed = 7;
        for round in 0..300 {
            let alphabet: &[u8] = if round % 2 == 0 { b"ab" } else { b"abc d" };
            let ndocs = 1 + round % 4;
            let docs = random_docs(&mut seed, alphabet, ndocs, 30);
            let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
            for k in 2..=4 {
                for counting in [Counting::Occurrences, Counting::Documents] {
                    let index = SuffixIndex::build(&docs).expect("index");
                    let mut got: Vec<(usize, usize)> = maximum_repeats(&index, k, counting)
                        .iter()
                        .map(|r| (r.start as usize, r.end as usize))
                        .collect();
                    got.sort_unstable();
                    let want = brute_maximal_repeats(&docs, k, counting);
                    // Algorithm 1 keeps one (the leftmost-starting) repeat per end
                    // position; every brute-force maximal repeat must be among them.
                    for w in &want {
                        assert!(
                            got.contains(w),
                            "{docs:?} k={k} {counting:?}: missing {w:?}"
                        );
                    }
                    for &(s, e) in &got {
                        let r = Region {
                            start: s as u32,
                            end: e as u32,
                        };
                        let c = brute_count(&docs, region_bytes(&index, &r), counting);
                        assert!(c >= k, "{docs:?} k={k}: region {s}..={e} occurs {c} times");
                    }
                }
            }
        }
    }

    #[test]
    fn greedy_cover_keeps_disjoint_untouching_repeats() {
        let regions = [
            Region { start: 0, end: 3 },
            Region { start: 2, end: 5 },
            Region { start: 5, end: 6 },
            Region { start: 8, end: 8 },
            Region { start: 9, end: 9 },
        ];
        let flags = greedy_cover(&regions, 11);
        let kept: Vec<usize> = (0..11).filter(|&i| flags[i]).collect();
        // 0..=3 is kept first; 2..=5 overlaps it; 5..=6 and 8..=8 touch nothing kept;
        // 9..=9 would touch 8..=8.
        assert_eq!(kept, vec![0, 1, 2, 3, 5, 6, 8]);
    }
}
