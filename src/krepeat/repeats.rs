//! The string algorithms of Matsubara & Hasida (2014): the generalized suffix array
//! with its permuted LCP array, the generalized LCP over windows of suffixes from `k` sources
//! (Algorithm 1, generalized maximum repeats) and the greedy covering (Algorithm 2).
//!
//! Documents are concatenated with a zero byte after each one and sorted as a
//! *generalized* suffix array (every separator acts as a unique sentinel, Yamamoto &
//! Church's pseudo characters), so no repeat and no common prefix crosses a document
//! boundary. Input text never contains a zero byte: `io::decode_text` rejects it.

use std::ops::Range;

use super::documents::longest_by_documents;
use super::ranks::{
    DocLookup, Extremum, RankOrderReader, RankValues, split_in_two, wants_two_threads,
};
use crate::error::{Error, Result};

/// The generalized suffix array of the concatenated documents with its permuted LCP array.
pub struct SuffixIndex {
    /// Length of `doc0 \0 doc1 \0 … docN \0` (the text itself is dropped once sorted).
    pub text_len: usize,
    /// Byte offset in the text where each document starts (plus one past the last separator).
    pub doc_starts: Vec<usize>,
    /// Suffix array: `sa[r]` is the text position of the suffix of rank `r`.
    pub sa: Vec<u32>,
    /// Permuted LCP: `plcp[p]` is the length of the common prefix of the suffix at text
    /// position `p` and the suffix ranked just before it, never extending over a
    /// separator (`lcp[r] = plcp[sa[r]]`). Kept instead of the LCP array because
    /// [`maximum_repeats`] reads each entry once in rank order and overwrites it with its
    /// result, which saves the LCP array's 4 bytes per input byte and its pass.
    pub plcp: Vec<u32>,
}

impl SuffixIndex {
    /// Builds the index with libsais (SA-IS, linear time; PLCP by the Φ variant of Kasai
    /// et al.'s linear-time LCP construction) on `threads` threads (1: sequential; 0: one
    /// per core). Errors when a document contains a zero byte or the input is larger than
    /// 2 GiB.
    pub fn build(docs: &[&str], threads: u16) -> Result<SuffixIndex> {
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
        let text_len = text.len();
        if text.is_empty() {
            return Ok(SuffixIndex {
                text_len,
                doc_starts,
                sa: Vec::new(),
                plcp: Vec::new(),
            });
        }
        let sais_error =
            |e: libsais::LibsaisError| Error::input("<krepeat input>", format!("libsais: {e:?}"));
        // One thread runs libsais' sequential code, more its OpenMP code: the suffix
        // array and PLCP are unique, so both give the same arrays.
        let thread_count = match threads {
            0 => libsais::ThreadCount::openmp_default(),
            n => libsais::ThreadCount::fixed(n),
        };
        let construction = libsais::SuffixArrayConstruction::for_text(&text).in_owned_buffer32();
        let sorted = if threads == 1 {
            construction
                .single_threaded()
                .generalized_suffix_array()
                .run()
        } else {
            construction
                .multi_threaded(thread_count)
                .generalized_suffix_array()
                .run()
        }
        .map_err(sais_error)?;
        let plcp_construction = sorted.plcp_construction();
        let with_plcp = if threads == 1 {
            plcp_construction.single_threaded().run()
        } else {
            plcp_construction.multi_threaded(thread_count).run()
        }
        .map_err(sais_error)?;
        drop(text);
        let (sa, plcp, _) = with_plcp.into_parts();
        // Values are non-negative and below 2^31 (checked above), so the casts are exact;
        // `into_iter().map().collect()` reuses each buffer in place.
        let sa = sa.into_iter().map(|v| v as u32).collect();
        let plcp = plcp.into_iter().map(|v| v as u32).collect();
        Ok(SuffixIndex {
            text_len,
            doc_starts,
            sa,
            plcp,
        })
    }
}

/// How occurrences are counted: every occurrence, or one per document (Matsubara & Hasida 2014, §7.2:
/// mentions inside one document are not independent sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    Occurrences,
    Documents,
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
/// The generalized LCP of a window of suffix ranks holding `k` sources is its minimum
/// LCP: the longest prefix shared by all of them, hence a prefix occurring at least `k`
/// times. The longest prefix of suffix rank `r` that occurs `k` times is the maximum over
/// the windows containing `r`. Window ends only move forward, so monotone deques give
/// each minimum and maximum in amortized O(1): one pass in rank order, O(n) for any `k`.
/// The pass overwrites `plcp[sa[r]]` with that longest prefix (each entry is read once,
/// at rank `r`, before it is written), so the result is indexed by text position without
/// an array of its own; the suffix array is dropped after it.
///
/// For each end position the leftmost start is kept (`mr` in the seed), which makes the
/// regions maximal to the left; they are maximal to the right by construction. With
/// `threads` other than 1, the pass runs on two threads; the regions are the same.
pub fn maximum_repeats(
    index: SuffixIndex,
    k: usize,
    counting: Counting,
    threads: u16,
) -> Vec<Region> {
    let SuffixIndex {
        text_len,
        doc_starts,
        sa,
        mut plcp,
    } = index;
    if sa.is_empty() || k < 2 {
        return Vec::new();
    }
    match counting {
        Counting::Occurrences => longest_by_occurrences(&sa, &mut plcp, k, threads),
        Counting::Documents => {
            let docs = DocLookup::new(&doc_starts, text_len);
            longest_by_documents(&sa, &mut plcp, k, &docs, threads);
        }
    }
    drop(sa);
    let longest_at = plcp;
    // `mr`: the leftmost start per end. The longest repeat at `s + 1` is at least the
    // one at `s` minus its first byte, so ends never decrease with the start: the first
    // region of each end is the one whose end differs from the previous region's.
    let mut regions = Vec::new();
    let mut last_end = None;
    for (start, &longest) in longest_at.iter().enumerate() {
        if longest == 0 {
            continue;
        }
        let end = (start + longest as usize - 1) as u32;
        if last_end != Some(end) {
            last_end = Some(end);
            regions.push(Region {
                start: start as u32,
                end,
            });
        }
    }
    regions
}

/// Thresholds up to this are counted occurrences by [`longest_by_short_windows`], whose
/// work per rank grows with `k` but has no branch; larger ones by the monotone deques,
/// whose work does not. A fact of the implementation, not a setting: both give the same
/// output (`maximum_repeats_match_the_array_version` runs both).
const SHORT_WINDOW_MAX_K: usize = 64;

/// Ranks per block of [`longest_by_short_windows`]: their lines of `plcp`, read by the
/// block's gather, are still cached when its results are written back.
const BLOCK_RANKS: usize = 2048;

/// Counting occurrences: the windows are ranks `a..=a+k-1`; the longest repeat of rank
/// `r` is the maximum generalized LCP of the windows starting in `r-k+1..=r`, known once
/// the LCP of rank `r+k-1` has been read.
/// With `threads` other than 1 and a small `k`, the ranks from the middle on are done on
/// a second thread ([`split_in_two`]): their windows start at most `k - 1` ranks earlier.
fn longest_by_occurrences(sa: &[u32], plcp: &mut [u32], k: usize, threads: u16) {
    let n = sa.len();
    if k > n {
        // No window holds k suffixes: nothing repeats k times.
        plcp.fill(0);
        return;
    }
    if k <= SHORT_WINDOW_MAX_K {
        let middle = n / 2;
        if wants_two_threads(threads, n) && middle >= k {
            split_in_two(sa, plcp, middle, middle - (k - 1), |values, _, ranks| {
                longest_by_short_windows(sa, values, k, ranks);
            });
        } else {
            longest_by_short_windows(sa, &mut RankValues::InPlace(plcp), k, 0..n);
        }
        return;
    }
    let mut window_min = Extremum::<false>::new();
    // Window starts `a` paired with their generalized LCP; a window covers `a..=a+k-1`.
    let mut best = Extremum::<true>::new();
    let mut reader = RankOrderReader::new();
    for t in 0..n + k - 1 {
        if t < n {
            if t > 0 {
                let lcp = reader.get(t, sa, &RankValues::InPlace(plcp), None).0;
                window_min.push(t, lcp);
            }
            if t + 1 >= k {
                let a = t + 1 - k;
                window_min.drop_through(a);
                best.push(a, window_min.front());
            }
        }
        if t + 1 >= k {
            let r = t + 1 - k;
            // Windows starting before r+1-k end before r.
            if r >= k {
                best.drop_through(r - k);
            }
            plcp[sa[r] as usize] = best.front();
        }
    }
}

/// [`longest_by_occurrences`] a block of ranks at a time, for a small `k` (at most
/// `n`): each window's minimum (`g[a]`, the generalized LCP of ranks `a..=a+k-1`: the
/// minimum LCP of ranks `a+1..=a+k-1`) and each rank's maximum over the `k` windows
/// holding it are taken over shifted slices, loops without branches that the compiler
/// turns into vector instructions, where the deques' pops are a branch per rank the
/// processor mispredicts. Window starts outside `0..=n-k` count as 0, which leaves every
/// maximum as it is (LCPs are never negative and each rank has a window).
///
/// Writes the results of `ranks` over their values, reading those of ranks from `k - 1`
/// before `ranks` to `k - 1` after it.
fn longest_by_short_windows(sa: &[u32], values: &mut RankValues, k: usize, ranks: Range<usize>) {
    let n = sa.len();
    // LCPs of ranks `lcp_first..lcp_first + lcps.len()`, gathered before any of them is
    // overwritten and kept while a later block's windows need them.
    let mut lcps: Vec<u32> = Vec::with_capacity(BLOCK_RANKS + 2 * k);
    let mut lcp_first = ranks.start.saturating_sub(k - 1);
    // `windows[i]`: the generalized LCP of the window starting at `s + i - (k - 1)`.
    let mut windows: Vec<u32> = Vec::with_capacity(BLOCK_RANKS + k);
    let mut best: Vec<u32> = Vec::with_capacity(BLOCK_RANKS);
    let mut s = ranks.start;
    while s < ranks.end {
        let e = (s + BLOCK_RANKS).min(ranks.end);
        let gathered = lcp_first + lcps.len();
        let needed = (e + k - 1).min(n);
        values.gather(sa, gathered..needed, &mut lcps);
        // Window starts `first..=last` exist; those before `first` (only at the start)
        // and after `last` (only at the end) count as 0.
        let first = s.saturating_sub(k - 1);
        let last = (e - 1).min(n - k);
        let count = last + 1 - first;
        let leading = first + (k - 1) - s;
        windows.clear();
        windows.resize(leading, 0);
        let from = first + 1 - lcp_first;
        windows.extend_from_slice(&lcps[from..from + count]);
        for shift in 1..k - 1 {
            let later = &lcps[from + shift..from + shift + count];
            for (w, &l) in windows[leading..].iter_mut().zip(later) {
                *w = (*w).min(l);
            }
        }
        windows.resize(e - s + k - 1, 0);
        best.clear();
        best.extend_from_slice(&windows[..e - s]);
        for shift in 1..k {
            for (b, &w) in best.iter_mut().zip(&windows[shift..shift + e - s]) {
                *b = (*b).max(w);
            }
        }
        values.write(sa, s, &best);
        // The next block's first window starts at `e - (k - 1)` and reads from `e - k + 2`.
        let keep_from = (e + 1).saturating_sub(k).max(lcp_first);
        lcps.drain(..keep_from - lcp_first);
        lcp_first = keep_from;
        s = e;
    }
}

/// Algorithm 2: greedy covering. Regions are tried longest first (ties: leftmost first,
/// so the result is deterministic); a region is kept when neither neighbouring position
/// is already kept, so two kept repeats never touch and every maximal kept run is
/// exactly one repeat. Returns one flag per text position.
pub fn greedy_cover(regions: &[Region], text_len: usize) -> Vec<bool> {
    let mut flags = vec![false; text_len];
    let max_len = regions.iter().map(Region::len).max().unwrap_or(0);
    // The starts grouped by length, longest first, by a counting sort into one array
    // (group `i` holds the regions of length `max_len - i`): the seed's map from length
    // to regions as a vector per length cost an allocation per length and a copy of
    // every region. `first_of_len[i]` counts, then starts, then ends group `i`.
    let mut first_of_len = vec![0usize; max_len + 2];
    for r in regions {
        first_of_len[max_len - r.len() + 1] += 1;
    }
    for i in 1..first_of_len.len() {
        first_of_len[i] += first_of_len[i - 1];
    }
    let mut starts = vec![0u32; regions.len()];
    for r in regions {
        let slot = &mut first_of_len[max_len - r.len()];
        starts[*slot] = r.start;
        *slot += 1;
    }
    let mut from = 0usize;
    for (i, &to) in first_of_len[..=max_len].iter().enumerate() {
        let len = max_len - i;
        let group = &mut starts[from..to];
        // Leftmost first; regions from `maximum_repeats` are already in start order,
        // which the sort checks in one pass.
        group.sort_unstable();
        for &s in group.iter() {
            let (s, e) = (s as usize, s as usize + len - 1);
            let left_free = s == 0 || !flags[s - 1];
            let right_free = e + 1 >= text_len || !flags[e + 1];
            if left_free && right_free {
                flags[s..=e].iter_mut().for_each(|f| *f = true);
            }
        }
        from = to;
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::super::reference::{ReferenceIndex, reference_maximum_repeats};
    use super::*;
    use crate::text::testing::lcg;

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

    /// The text the index sorts: every non-empty document followed by a zero byte.
    fn concatenated(docs: &[&str]) -> Vec<u8> {
        docs.iter()
            .filter(|d| !d.is_empty())
            .flat_map(|d| d.bytes().chain(std::iter::once(0)))
            .collect()
    }

    fn lcp_of(index: &SuffixIndex) -> Vec<u32> {
        index.sa.iter().map(|&p| index.plcp[p as usize]).collect()
    }

    /// Every k-repeat that cannot be extended left or right without dropping below k,
    /// found by enumerating all substrings.
    fn brute_maximal_repeats(docs: &[&str], k: usize, counting: Counting) -> Vec<(usize, usize)> {
        let t = &concatenated(docs);
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

    fn random_docs(seed: &mut u64, alphabet: &[u8], docs: usize, max_len: usize) -> Vec<String> {
        (0..docs)
            .map(|_| {
                let len = lcg(seed) % max_len + 1;
                (0..len)
                    .map(|_| alphabet[lcg(seed) % alphabet.len()] as char)
                    .collect()
            })
            .collect()
    }

    #[test]
    fn seed_example_lcp() {
        // Table 1 of Matsubara & Hasida (2014) (the sentinel row is our separator).
        let index = SuffixIndex::build(&["abracadabra"], 1).expect("index");
        assert_eq!(index.sa, vec![11, 10, 7, 0, 3, 5, 8, 1, 4, 6, 9, 2]);
        assert_eq!(lcp_of(&index), vec![0, 0, 1, 4, 1, 1, 0, 3, 0, 0, 0, 2]);
    }

    /// libsais' OpenMP code (which it runs only on inputs of some size) sorts to the same
    /// arrays as its sequential code.
    #[test]
    fn threads_build_the_same_index() {
        let mut seed = 23;
        let docs = random_docs(&mut seed, b"the cat sat on a mat\n", 600, 1000);
        let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
        let one = SuffixIndex::build(&docs, 1).expect("one thread");
        for threads in [2, 0] {
            let more = SuffixIndex::build(&docs, threads).expect("more threads");
            assert_eq!(more.sa, one.sa, "{threads} threads");
            assert_eq!(more.plcp, one.plcp, "{threads} threads");
        }
    }

    #[test]
    fn lcp_stops_at_document_boundaries() {
        let index = SuffixIndex::build(&["ab", "ab", "abc"], 1).expect("index");
        let max = index.plcp.iter().max().copied();
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
                    let text = concatenated(&docs);
                    let index = SuffixIndex::build(&docs, 1).expect("index");
                    let mut got: Vec<(usize, usize)> = maximum_repeats(index, k, counting, 1)
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
                        let c = brute_count(&docs, &text[s..=e], counting);
                        assert!(c >= k, "{docs:?} k={k}: region {s}..={e} occurs {c} times");
                    }
                }
            }
        }
    }

    /// The streaming pass gives exactly the regions (same order) and cover of the first,
    /// array-based version, on inputs too large for the brute force.
    #[test]
    fn maximum_repeats_match_the_array_version() {
        let mut seed = 19;
        for round in 0..120 {
            let alphabet: &[u8] = match round % 3 {
                0 => b"ab",
                1 => b"abcd ",
                _ => b"the cat sat on a mat\n",
            };
            let mut docs = random_docs(&mut seed, alphabet, 1 + round % 40, 1 + round * 25);
            if round % 7 == 0 {
                docs.insert(round % docs.len(), String::new());
            }
            let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
            // 70 is above `SHORT_WINDOW_MAX_K`: occurrences counted by the deques too.
            for k in [2, 3, 4, 7, 70] {
                for counting in [Counting::Occurrences, Counting::Documents] {
                    let index = SuffixIndex::build(&docs, 1).expect("index");
                    let reference = ReferenceIndex {
                        text_len: index.text_len,
                        doc_starts: index.doc_starts.clone(),
                        lcp: lcp_of(&index),
                        sa: index.sa.clone(),
                    };
                    let text_len = index.text_len;
                    let want = reference_maximum_repeats(&reference, k, counting);
                    let got = maximum_repeats(index, k, counting, 1);
                    assert_eq!(got, want, "round {round} k={k} {counting:?}");
                    assert_eq!(greedy_cover(&got, text_len), greedy_cover(&want, text_len));
                }
            }
        }
    }

    /// Wherever the ranks are split, the two threads' results are those of one pass.
    #[test]
    fn a_split_occurrences_pass_gives_the_results_of_one_pass() {
        let mut seed = 29;
        for round in 0..40 {
            let alphabet: &[u8] = if round % 2 == 0 {
                b"ab"
            } else {
                b"the cat sat\n"
            };
            let docs = random_docs(&mut seed, alphabet, 1 + round % 5, 1 + round * 20);
            let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
            let index = SuffixIndex::build(&docs, 1).expect("index");
            let (sa, n) = (&index.sa, index.sa.len());
            for k in 2..=5.min(n) {
                let mut want = index.plcp.clone();
                longest_by_short_windows(sa, &mut RankValues::InPlace(&mut want), k, 0..n);
                for middle in (k..n).step_by(1 + n / 9) {
                    let mut got = index.plcp.clone();
                    split_in_two(
                        sa,
                        &mut got,
                        middle,
                        middle - (k - 1),
                        |values, _, ranks| {
                            longest_by_short_windows(sa, values, k, ranks);
                        },
                    );
                    assert_eq!(got, want, "round {round} k={k} middle {middle}");
                }
            }
        }
    }

    #[test]
    fn a_threshold_above_the_input_size_finds_nothing() {
        let index = SuffixIndex::build(&["abab"], 1).expect("index");
        assert_eq!(
            maximum_repeats(index, usize::MAX, Counting::Occurrences, 1),
            vec![]
        );
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
