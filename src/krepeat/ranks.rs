//! Reading the suffix ranks in order: the LCP (and document) of each rank gathered a
//! block at a time from where the passes keep them, and the monotone deques the passes'
//! windows use. Shared by the occurrences and the documents passes.

use std::collections::VecDeque;
use std::ops::Range;

/// Text positions per entry of [`DocLookup::block_first`]: its memory is 4 bytes per
/// block, and a lookup steps over at most the documents starting inside one block. A
/// fixed fact of the data structure, not a setting: any value gives the same output.
const DOC_BLOCK_BITS: u32 = 8;

/// The document of a text position in O(1) for documents of a block's length or more:
/// a binary search over the document starts per suffix was the costliest part of
/// counting documents, and a document id per position would cost 4 bytes per byte.
pub(super) struct DocLookup<'a> {
    doc_starts: &'a [usize],
    /// The document holding the first position of each block.
    block_first: Vec<u32>,
}

impl<'a> DocLookup<'a> {
    pub(super) fn new(doc_starts: &'a [usize], text_len: usize) -> DocLookup<'a> {
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

    /// Number of entries of `doc_starts` (one more than the documents), the size of a
    /// table indexed by document.
    pub(super) fn doc_count(&self) -> usize {
        self.doc_starts.len()
    }

    /// Index of the document holding text position `pos` (the last document starting at
    /// or before it: empty documents hold none).
    pub(super) fn doc_of(&self, pos: u32) -> u32 {
        let pos = pos as usize;
        let mut doc = self.block_first[pos >> DOC_BLOCK_BITS] as usize;
        // `doc_starts` ends with the text length, past every position: the loop stops.
        while self.doc_starts[doc + 1] <= pos {
            doc += 1;
        }
        doc as u32
    }
}

/// A monotone deque of `(rank, value)` pairs, pushed in non-decreasing rank order: the
/// front holds the minimum (or, with `KEEP_LARGER`, the maximum) of the values whose
/// ranks are past the last `drop_through`.
/// Values travel with their ranks because the arrays they came from are overwritten.
/// The direction is a type parameter so each deque's comparison is one instruction, not
/// a branch on a field in the passes' innermost loops.
pub(super) struct Extremum<const KEEP_LARGER: bool> {
    entries: VecDeque<(u32, u32)>,
}

impl<const KEEP_LARGER: bool> Extremum<KEEP_LARGER> {
    pub(super) fn new() -> Self {
        Extremum {
            entries: VecDeque::new(),
        }
    }

    pub(super) fn push(&mut self, rank: usize, value: u32) {
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
    pub(super) fn drop_through(&mut self, rank: usize) {
        while self
            .entries
            .front()
            .is_some_and(|&(r, _)| r as usize <= rank)
        {
            self.entries.pop_front();
        }
    }

    pub(super) fn front(&self) -> u32 {
        self.entries.front().map_or(0, |&(_, v)| v)
    }
}

/// Ranks gathered per refill of a [`RankOrderReader`]: enough independent loads for the
/// processor to overlap their cache misses, few enough that the lines stay cached until
/// the pass writes its results back into them. Only the speed depends on it.
pub(super) const GATHER_RANKS: usize = 512;

/// Where a pass reads the LCP of each rank and writes its result over it.
pub(super) enum RankValues<'a> {
    /// At the rank's text position: `plcp[sa[r]]`.
    InPlace(&'a mut [u32]),
    /// In rank order, for the ranks from `first` on: rank `r` at `values[r - first]`.
    RankOrder { first: usize, values: &'a mut [u32] },
}

impl RankValues<'_> {
    /// Appends the values of `ranks`, in rank order, to `out`.
    pub(super) fn gather(&self, sa: &[u32], ranks: Range<usize>, out: &mut Vec<u32>) {
        match self {
            RankValues::InPlace(plcp) => {
                out.extend(sa[ranks].iter().map(|&p| plcp[p as usize]));
            }
            RankValues::RankOrder { first, values } => {
                out.extend_from_slice(&values[ranks.start - first..ranks.end - first]);
            }
        }
    }

    /// Overwrites the values of ranks `from..from + results.len()` with `results`.
    pub(super) fn write(&mut self, sa: &[u32], from: usize, results: &[u32]) {
        match self {
            RankValues::InPlace(plcp) => {
                for (&p, &v) in sa[from..from + results.len()].iter().zip(results) {
                    plcp[p as usize] = v;
                }
            }
            RankValues::RankOrder { first, values } => {
                values[from - *first..from - *first + results.len()].copy_from_slice(results);
            }
        }
    }
}

/// The LCP (and, counting documents, the document) of each rank in increasing rank
/// order. Reading `plcp[sa[r]]` is a cache miss per rank; inside the pass's branchy loop
/// the processor keeps few of them in flight, so a tight loop gathers a block of ranks at
/// a time (this is the gather libsais' own LCP step does, with prefetching).
pub(super) struct RankOrderReader {
    lcps: Vec<u32>,
    docs: Vec<u32>,
    /// Rank of `lcps[0]`.
    first: usize,
}

impl RankOrderReader {
    pub(super) fn new() -> RankOrderReader {
        RankOrderReader {
            lcps: Vec::with_capacity(GATHER_RANKS),
            docs: Vec::new(),
            first: 0,
        }
    }

    /// The LCP of rank `r` (and its document when `docs` is given); `r` must not
    /// decrease between calls, and its entry in `values` must not have been overwritten yet.
    pub(super) fn get(
        &mut self,
        r: usize,
        sa: &[u32],
        values: &RankValues,
        docs: Option<&DocLookup>,
    ) -> (u32, u32) {
        if r >= self.first + self.lcps.len() {
            self.first = r;
            let end = sa.len().min(r + GATHER_RANKS);
            let ranks = &sa[r..end];
            self.lcps.clear();
            values.gather(sa, r..end, &mut self.lcps);
            if let Some(docs) = docs {
                self.docs.clear();
                self.docs.extend(ranks.iter().map(|&p| docs.doc_of(p)));
            }
        }
        let i = r - self.first;
        (self.lcps[i], self.docs.get(i).copied().unwrap_or(0))
    }
}

/// Inputs with fewer ranks than this take one thread whatever is asked: a thread's start
/// costs more than it saves. Only the speed depends on it.
const MIN_SPLIT_RANKS: usize = 1 << 16;

/// Whether a pass over `n` ranks runs on two threads when asked for `threads` (0: one per
/// core).
pub(super) fn wants_two_threads(threads: u16, n: usize) -> bool {
    let more = match threads {
        0 => std::thread::available_parallelism().is_ok_and(|p| p.get() > 1),
        t => t > 1,
    };
    more && n >= MIN_SPLIT_RANKS
}

/// Runs a pass on two threads: `pass(values, scan_from, ranks)` must write the results of
/// `ranks` over their values, reading those of ranks from `scan_from` on (and any after
/// `ranks`). Ranks `..middle` are done in place; ranks `middle..` on a second thread over
/// a copy of the LCPs of ranks `scan_from..` in rank order (gathered on both threads; two
/// bytes per input byte when `scan_from` is near the middle), whose results are written
/// back once both are done. Each part reads only values the other does not write, so the
/// results are those of one pass.
pub(super) fn split_in_two<F>(
    sa: &[u32],
    plcp: &mut [u32],
    middle: usize,
    scan_from: usize,
    pass: F,
) where
    F: Fn(&mut RankValues, usize, Range<usize>) + Sync,
{
    let n = sa.len();
    let mut later = vec![0u32; n - scan_from];
    let (low, high) = later.split_at_mut((n - scan_from) / 2);
    let high_from = scan_from + low.len();
    let shared: &[u32] = plcp;
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for (v, &p) in high.iter_mut().zip(&sa[high_from..]) {
                *v = shared[p as usize];
            }
        });
        for (v, &p) in low.iter_mut().zip(&sa[scan_from..]) {
            *v = shared[p as usize];
        }
    });
    std::thread::scope(|scope| {
        let later = &mut later;
        let pass = &pass;
        scope.spawn(move || {
            let mut values = RankValues::RankOrder {
                first: scan_from,
                values: later,
            };
            pass(&mut values, scan_from, middle..n);
        });
        pass(&mut RankValues::InPlace(plcp), 0, 0..middle);
    });
    for (&p, &v) in sa[middle..].iter().zip(&later[middle - scan_from..]) {
        plcp[p as usize] = v;
    }
}
