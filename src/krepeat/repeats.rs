//! The string algorithms of Matsubara & Hasida (2014): the generalized suffix array
//! with its permuted LCP array, the generalized LCP over windows of suffixes from `k` sources
//! (Algorithm 1, generalized maximum repeats) and the greedy covering (Algorithm 2).
//!
//! Documents are concatenated with a zero byte after each one and sorted as a
//! *generalized* suffix array (every separator acts as a unique sentinel, Yamamoto &
//! Church's pseudo characters), so no repeat and no common prefix crosses a document
//! boundary. Input text never contains a zero byte: `io::decode_text` rejects it.

use std::collections::VecDeque;

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
    /// et al.'s linear-time LCP construction). Errors when a document contains a zero
    /// byte or the input is larger than 2 GiB.
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
        let with_plcp = libsais::SuffixArrayConstruction::for_text(&text)
            .in_owned_buffer32()
            .single_threaded()
            .generalized_suffix_array()
            .run()
            .map_err(sais_error)?
            .plcp_construction()
            .single_threaded()
            .run()
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

/// Text positions per entry of [`DocLookup::block_first`]: its memory is 4 bytes per
/// block, and a lookup steps over at most the documents starting inside one block. A
/// fixed fact of the data structure, not a setting: any value gives the same output.
const DOC_BLOCK_BITS: u32 = 8;

/// The document of a text position in O(1) for documents of a block's length or more:
/// a binary search over the document starts per suffix was the costliest part of
/// counting documents, and a document id per position would cost 4 bytes per byte.
struct DocLookup<'a> {
    doc_starts: &'a [usize],
    /// The document holding the first position of each block.
    block_first: Vec<u32>,
}

impl<'a> DocLookup<'a> {
    fn new(doc_starts: &'a [usize], text_len: usize) -> DocLookup<'a> {
        let blocks = text_len.div_ceil(1 << DOC_BLOCK_BITS);
        let mut block_first = Vec::with_capacity(blocks);
        let mut doc = 0usize;
        for block in 0..blocks {
            let pos = block << DOC_BLOCK_BITS;
            while doc_starts[doc + 1] <= pos {
                doc += 1;
            }
            block_first.push(doc as u32);
        }
        DocLookup {
            doc_starts,
            block_first,
        }
    }

    /// Index of the document holding text position `pos` (the last document starting at
    /// or before it: empty documents hold none).
    fn doc_of(&self, pos: u32) -> u32 {
        let pos = pos as usize;
        let mut doc = self.block_first[pos >> DOC_BLOCK_BITS] as usize;
        // `doc_starts` ends with the text length, past every position: the loop stops.
        while self.doc_starts[doc + 1] <= pos {
            doc += 1;
        }
        doc as u32
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
/// regions maximal to the left; they are maximal to the right by construction.
pub fn maximum_repeats(index: SuffixIndex, k: usize, counting: Counting) -> Vec<Region> {
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
        Counting::Occurrences => longest_by_occurrences(&sa, &mut plcp, k),
        Counting::Documents => {
            let docs = DocLookup::new(&doc_starts, text_len);
            longest_by_documents(&sa, &mut plcp, k, &docs);
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

/// A monotone deque of `(rank, value)` pairs, pushed in non-decreasing rank order: the
/// front holds the minimum (or, with `KEEP_LARGER`, the maximum) of the values whose
/// ranks are past the last `drop_through`.
/// Values travel with their ranks because the arrays they came from are overwritten.
/// The direction is a type parameter so each deque's comparison is one instruction, not
/// a branch on a field in the passes' innermost loops.
struct Extremum<const KEEP_LARGER: bool> {
    entries: VecDeque<(u32, u32)>,
}

impl<const KEEP_LARGER: bool> Extremum<KEEP_LARGER> {
    fn new() -> Self {
        Extremum {
            entries: VecDeque::new(),
        }
    }

    fn push(&mut self, rank: usize, value: u32) {
        while self.entries.back().is_some_and(
            |&(_, v)| {
                if KEEP_LARGER { v <= value } else { v >= value }
            },
        ) {
            self.entries.pop_back();
        }
        self.entries.push_back((rank as u32, value));
    }

    /// Forgets the entries of ranks up to `rank`.
    fn drop_through(&mut self, rank: usize) {
        while self
            .entries
            .front()
            .is_some_and(|&(r, _)| r as usize <= rank)
        {
            self.entries.pop_front();
        }
    }

    fn front(&self) -> u32 {
        self.entries.front().map_or(0, |&(_, v)| v)
    }
}

/// Ranks gathered per refill of a [`RankOrderReader`]: enough independent loads for the
/// processor to overlap their cache misses, few enough that the lines stay cached until
/// the pass writes its results back into them. Only the speed depends on it.
const GATHER_RANKS: usize = 512;

/// The LCP (and, counting documents, the document) of each rank in increasing rank
/// order. Reading `plcp[sa[r]]` is a cache miss per rank; inside the pass's branchy loop
/// the processor keeps few of them in flight, so a tight loop gathers a block of ranks at
/// a time (this is the gather libsais' own LCP step does, with prefetching).
struct RankOrderReader {
    lcps: Vec<u32>,
    docs: Vec<u32>,
    /// Rank of `lcps[0]`.
    first: usize,
}

impl RankOrderReader {
    fn new() -> RankOrderReader {
        RankOrderReader {
            lcps: Vec::with_capacity(GATHER_RANKS),
            docs: Vec::new(),
            first: 0,
        }
    }

    /// The LCP of rank `r` (and its document when `docs` is given); `r` must not
    /// decrease between calls, and `plcp[sa[r]]` must not have been overwritten yet.
    fn get(&mut self, r: usize, sa: &[u32], plcp: &[u32], docs: Option<&DocLookup>) -> (u32, u32) {
        if r >= self.first + self.lcps.len() {
            self.first = r;
            let ranks = &sa[r..sa.len().min(r + GATHER_RANKS)];
            self.lcps.clear();
            self.lcps.extend(ranks.iter().map(|&p| plcp[p as usize]));
            if let Some(docs) = docs {
                self.docs.clear();
                self.docs.extend(ranks.iter().map(|&p| docs.doc_of(p)));
            }
        }
        let i = r - self.first;
        (self.lcps[i], self.docs.get(i).copied().unwrap_or(0))
    }
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
fn longest_by_occurrences(sa: &[u32], plcp: &mut [u32], k: usize) {
    let n = sa.len();
    if k > n {
        // No window holds k suffixes: nothing repeats k times.
        plcp.fill(0);
        return;
    }
    if k <= SHORT_WINDOW_MAX_K {
        longest_by_short_windows(sa, plcp, k);
        return;
    }
    let mut window_min = Extremum::<false>::new();
    // Window starts `a` paired with their generalized LCP; a window covers `a..=a+k-1`.
    let mut best = Extremum::<true>::new();
    let mut reader = RankOrderReader::new();
    for t in 0..n + k - 1 {
        if t < n {
            if t > 0 {
                window_min.push(t, reader.get(t, sa, plcp, None).0);
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
fn longest_by_short_windows(sa: &[u32], plcp: &mut [u32], k: usize) {
    let n = sa.len();
    // LCPs of ranks `lcp_first..lcp_first + lcps.len()`, gathered before any of them is
    // overwritten and kept while a later block's windows need them.
    let mut lcps: Vec<u32> = Vec::with_capacity(BLOCK_RANKS + 2 * k);
    let mut lcp_first = 0usize;
    // `windows[i]`: the generalized LCP of the window starting at `s + i - (k - 1)`.
    let mut windows: Vec<u32> = Vec::with_capacity(BLOCK_RANKS + k);
    let mut best: Vec<u32> = Vec::with_capacity(BLOCK_RANKS);
    let mut s = 0usize;
    while s < n {
        let e = (s + BLOCK_RANKS).min(n);
        let gathered = lcp_first + lcps.len();
        let needed = (e + k - 1).min(n);
        lcps.extend(sa[gathered..needed].iter().map(|&p| plcp[p as usize]));
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
        for (&p, &longest) in sa[s..e].iter().zip(&best) {
            plcp[p as usize] = longest;
        }
        // The next block's first window starts at `e - (k - 1)` and reads from `e - k + 2`.
        let keep_from = (e + 1).saturating_sub(k).max(lcp_first);
        lcps.drain(..keep_from - lcp_first);
        lcp_first = keep_from;
        s = e;
    }
}

/// Distinct documents among a window of suffix ranks, with a count per document.
struct DocWindow {
    counts: Vec<u32>,
    distinct: usize,
}

impl DocWindow {
    fn new(docs: usize) -> DocWindow {
        DocWindow {
            counts: vec![0; docs],
            distinct: 0,
        }
    }

    fn add(&mut self, doc: u32) {
        let c = &mut self.counts[doc as usize];
        self.distinct += usize::from(*c == 0);
        *c += 1;
    }

    fn remove(&mut self, doc: u32) {
        let c = &mut self.counts[doc as usize];
        *c -= 1;
        self.distinct -= usize::from(*c == 0);
    }
}

/// Counting documents: for each rank `a` the forward window `a..=e(a)` is the shortest
/// one from `a` holding `k` documents; the longest repeat of rank `r` is the maximum
/// generalized LCP of the forward windows containing `r` and of the shortest window
/// ending at `r` (which is not always a forward one). Document and LCP of the ranks
/// between the backward window's start and the forward window's end are kept in a queue
/// so each document is looked up once.
fn longest_by_documents(sa: &[u32], plcp: &mut [u32], k: usize, docs: &DocLookup) {
    let n = sa.len();
    // (document, lcp) of ranks `first..first + ahead.len()`.
    let mut ahead: VecDeque<(u32, u32)> = VecDeque::new();
    let mut first = 0usize;
    let mut forward = DocWindow::new(docs.doc_starts.len());
    let mut backward = DocWindow::new(docs.doc_starts.len());
    let mut forward_min = Extremum::<false>::new();
    let mut backward_min = Extremum::<false>::new();
    // Generalized LCP of the forward windows, keyed by their ends (which never decrease).
    let mut best = Extremum::<true>::new();
    let mut reader = RankOrderReader::new();
    let mut end = 0usize; // ranks r..end are in the forward window
    let mut back_start = 0usize;
    // Results of the ranks since the last write-back: written back a block at a time in
    // a tight loop, whose scattered stores the processor overlaps, where one store per
    // rank inside this branchy loop stalled it.
    let mut results: Vec<u32> = Vec::with_capacity(GATHER_RANKS);
    for r in 0..n {
        while forward.distinct < k && end < n {
            let (lcp, doc) = reader.get(end, sa, plcp, Some(docs));
            let entry = (doc, lcp);
            ahead.push_back(entry);
            forward.add(entry.0);
            if end > r {
                forward_min.push(end, entry.1);
            }
            end += 1;
        }
        if forward.distinct >= k {
            forward_min.drop_through(r);
            best.push(end - 1, forward_min.front());
        }
        let (doc, lcp) = ahead[r - first];
        forward.remove(doc);
        // The shortest window ending at r: drop its leftmost rank while the rest still
        // holds k documents.
        backward.add(doc);
        if r > 0 {
            backward_min.push(r, lcp);
        }
        while backward.distinct >= k {
            let leftmost = ahead[back_start - first].0;
            if backward.counts[leftmost as usize] == 1 && backward.distinct == k {
                break;
            }
            backward.remove(leftmost);
            back_start += 1;
        }
        let mut longest = 0;
        if backward.distinct >= k {
            backward_min.drop_through(back_start);
            longest = backward_min.front();
        }
        // Forward windows ending before r no longer contain it.
        if r > 0 {
            best.drop_through(r - 1);
        }
        longest = longest.max(best.front());
        results.push(longest);
        // Every rank up to r has been read (the forward window is past r), so its entry
        // may be overwritten.
        if results.len() == GATHER_RANKS || r + 1 == n {
            let from = r + 1 - results.len();
            for (&p, &l) in sa[from..=r].iter().zip(&results) {
                plcp[p as usize] = l;
            }
            results.clear();
        }
        while first < back_start.min(r + 1) {
            ahead.pop_front();
            first += 1;
        }
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
        assert_eq!(lcp_of(&index), vec![0, 0, 1, 4, 1, 1, 0, 3, 0, 0, 0, 2]);
    }

    #[test]
    fn lcp_stops_at_document_boundaries() {
        let index = SuffixIndex::build(&["ab", "ab", "abc"]).expect("index");
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
                    let index = SuffixIndex::build(&docs).expect("index");
                    let mut got: Vec<(usize, usize)> = maximum_repeats(index, k, counting)
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
                    let index = SuffixIndex::build(&docs).expect("index");
                    let reference = ReferenceIndex {
                        text_len: index.text_len,
                        doc_starts: index.doc_starts.clone(),
                        lcp: lcp_of(&index),
                        sa: index.sa.clone(),
                    };
                    let text_len = index.text_len;
                    let want = reference_maximum_repeats(&reference, k, counting);
                    let got = maximum_repeats(index, k, counting);
                    assert_eq!(got, want, "round {round} k={k} {counting:?}");
                    assert_eq!(greedy_cover(&got, text_len), greedy_cover(&want, text_len));
                }
            }
        }
    }

    #[test]
    fn a_threshold_above_the_input_size_finds_nothing() {
        let index = SuffixIndex::build(&["abab"]).expect("index");
        assert_eq!(
            maximum_repeats(index, usize::MAX, Counting::Occurrences),
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
