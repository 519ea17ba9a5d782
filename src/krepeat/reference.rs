//! The first, array-based version of Algorithm 1, kept as the oracle the streaming pass in
//! `repeats` must match byte for byte on random inputs (it materializes the LCP array,
//! a document id per rank and the generalized LCP per window start).

use std::collections::VecDeque;

use super::repeats::{Counting, Region};

const NONE: u32 = u32::MAX;

/// The arrays the first version read: suffix array, LCP array (`lcp[r] = plcp[sa[r]]`)
/// and document starts.
pub struct ReferenceIndex {
    pub text_len: usize,
    pub doc_starts: Vec<usize>,
    pub sa: Vec<u32>,
    pub lcp: Vec<u32>,
}

impl ReferenceIndex {
    fn doc_of(&self, pos: usize) -> usize {
        self.doc_starts.partition_point(|&s| s <= pos) - 1
    }
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
    fn new(index: &ReferenceIndex, k: usize, counting: Counting) -> WindowEnds {
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
pub fn reference_maximum_repeats(
    index: &ReferenceIndex,
    k: usize,
    counting: Counting,
) -> Vec<Region> {
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
    let mut longest_at = vec![0u32; index.text_len];
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
    let mut end_seen = vec![false; index.text_len];
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
