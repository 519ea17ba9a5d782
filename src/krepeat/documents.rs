//! Counting documents (Matsubara & Hasida 2014, §7.2): the longest repeat of each suffix
//! rank that occurs in `k` documents, over windows of ranks holding `k` distinct ones,
//! and its split over two threads.

use std::collections::VecDeque;
use std::ops::Range;

use super::ranks::{
    DocLookup, Extremum, GATHER_RANKS, RankOrderReader, RankValues, split_in_two, wants_two_threads,
};

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

/// The longest repeat of every rank, written over `plcp[sa[r]]`, on one thread or, with
/// `threads` other than 1 (0: one per core), on two ([`split_in_two`]), the second
/// scanning from [`scan_start`] of the middle rank. The results are the same either way.
pub(super) fn longest_by_documents(
    sa: &[u32],
    plcp: &mut [u32],
    k: usize,
    docs: &DocLookup,
    threads: u16,
) {
    let n = sa.len();
    let middle = n / 2;
    if wants_two_threads(threads, n) {
        let scan_from = scan_start(sa, k, docs, middle);
        // A scan of the second part starting far before the middle (windows of many
        // ranks: repeats inside few documents) would cost more than it saves.
        if middle - scan_from <= n / 8 {
            longest_split(sa, plcp, k, docs, middle, scan_from);
            return;
        }
    }
    longest_in_ranks(sa, &mut RankValues::InPlace(plcp), k, docs, 0, 0..n);
}

/// [`longest_by_documents`] with ranks `..middle` and `middle..` on two threads, the
/// second scanning from `scan_from` ([`scan_start`] of `middle`).
fn longest_split(
    sa: &[u32],
    plcp: &mut [u32],
    k: usize,
    docs: &DocLookup,
    middle: usize,
    scan_from: usize,
) {
    split_in_two(sa, plcp, middle, scan_from, |values, from, ranks| {
        longest_in_ranks(sa, values, k, docs, from, ranks);
    });
}

/// Where a scan must start for the exact results of the ranks from `middle` on: the
/// start of the shortest window ending at `middle` that holds `k` documents (0 if none).
/// Windows ending at a later rank start there or later, and a forward window from an
/// earlier rank that reaches a rank `r` past `middle` ends exactly at `r` (it holds that
/// shortest window) and holds the shortest window ending at `r`, so its generalized LCP
/// is at most that window's: leaving it out changes no maximum.
fn scan_start(sa: &[u32], k: usize, docs: &DocLookup, middle: usize) -> usize {
    let mut window = DocWindow::new(docs.doc_count());
    for start in (0..=middle).rev() {
        window.add(docs.doc_of(sa[start]));
        if window.distinct >= k {
            return start;
        }
    }
    0
}

/// Counting documents: for each rank `a` the forward window `a..=e(a)` is the shortest
/// one from `a` holding `k` documents; the longest repeat of rank `r` is the maximum
/// generalized LCP of the forward windows containing `r` and of the shortest window
/// ending at `r` (which is not always a forward one). Document and LCP of the ranks
/// between the backward window's start and the forward window's end are kept in a queue
/// so each document is looked up once.
///
/// Writes the results of `ranks` over their values; the scan starts at rank `scan_from`
/// (at most `ranks.start`), which gives the exact results when no shortest window ending
/// in `ranks` starts before it (see [`scan_start`]).
fn longest_in_ranks(
    sa: &[u32],
    values: &mut RankValues,
    k: usize,
    docs: &DocLookup,
    scan_from: usize,
    ranks: Range<usize>,
) {
    let n = sa.len();
    // (document, lcp) of ranks `first..first + ahead.len()`.
    let mut ahead: VecDeque<(u32, u32)> = VecDeque::new();
    let mut first = scan_from;
    let mut forward = DocWindow::new(docs.doc_count());
    let mut backward = DocWindow::new(docs.doc_count());
    let mut forward_min = Extremum::<false>::new();
    let mut backward_min = Extremum::<false>::new();
    // Generalized LCP of the forward windows, keyed by their ends (which never decrease).
    let mut best = Extremum::<true>::new();
    let mut reader = RankOrderReader::new();
    let mut end = scan_from; // ranks r..end are in the forward window
    let mut back_start = scan_from;
    // Results of the ranks since the last write-back: written back a block at a time in
    // a tight loop, whose scattered stores the processor overlaps, where one store per
    // rank inside this branchy loop stalled it.
    let mut results: Vec<u32> = Vec::with_capacity(GATHER_RANKS);
    for r in scan_from..ranks.end {
        while forward.distinct < k && end < n {
            let (lcp, doc) = reader.get(end, sa, values, Some(docs));
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
        if r >= ranks.start {
            results.push(longest);
        }
        // Every rank up to r has been read (the forward window is past r), so its entry
        // may be overwritten.
        if results.len() == GATHER_RANKS || (r + 1 == ranks.end && !results.is_empty()) {
            values.write(sa, r + 1 - results.len(), &results);
            results.clear();
        }
        while first < back_start.min(r + 1) {
            ahead.pop_front();
            first += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::repeats::SuffixIndex;
    use super::*;
    use crate::text::testing::lcg;

    /// Wherever the ranks are split, the two threads' results are those of one scan.
    #[test]
    fn a_split_scan_gives_the_results_of_one_scan() {
        let mut seed = 3;
        for round in 0..80 {
            let alphabet: &[u8] = if round % 2 == 0 {
                b"ab"
            } else {
                b"the cat sat\n"
            };
            let ndocs = 2 + round % 9;
            let texts: Vec<String> = (0..ndocs)
                .map(|_| {
                    let len = lcg(&mut seed) % (1 + round * 10) + 1;
                    (0..len)
                        .map(|_| alphabet[lcg(&mut seed) % alphabet.len()] as char)
                        .collect()
                })
                .collect();
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            let index = SuffixIndex::build(&texts, 1).expect("index");
            let docs = DocLookup::new(&index.doc_starts, index.text_len);
            let (sa, n) = (&index.sa, index.sa.len());
            for k in 2..=ndocs.min(4) {
                let mut want = index.plcp.clone();
                longest_in_ranks(sa, &mut RankValues::InPlace(&mut want), k, &docs, 0, 0..n);
                for middle in (1..n).step_by(1 + n / 9) {
                    let mut got = index.plcp.clone();
                    let scan_from = scan_start(sa, k, &docs, middle);
                    longest_split(sa, &mut got, k, &docs, middle, scan_from);
                    assert_eq!(got, want, "round {round} k={k} middle {middle}");
                }
            }
        }
    }
}
