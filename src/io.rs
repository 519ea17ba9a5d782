//! Reading documents safely and writing outputs atomically.

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};

/// How many leading bytes are inspected for NUL bytes to recognise a binary file.
const BINARY_SNIFF_BYTES: usize = 8192;

/// Reads a UTF-8 text document, refusing binary files and invalid UTF-8 with an error
/// that names the file; a leading byte-order mark is dropped.
pub fn read_text_file(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    decode_text(bytes, path)
}

/// Validates raw bytes as a text document.
pub fn decode_text(bytes: Vec<u8>, path: &Path) -> Result<String> {
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if sniff.contains(&0) {
        return Err(Error::input(
            path,
            "binary file (contains NUL bytes), not text",
        ));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        Error::input(
            path,
            format!(
                "not valid UTF-8 (first bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// so a reader never sees a partial output, even if the process dies mid-write.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut writer = AtomicWriter::create(path)?;
    writer.write_all(bytes)?;
    writer.commit()
}

/// The CRC-32 of `bytes`: what every kept file ends with, and with the length the
/// identity of the source file a kept copy was made from.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    crc.sum()
}

/// Ends a kept file's bytes with the CRC-32 of everything before it.
pub fn seal(out: &mut Vec<u8>) {
    let crc = crc32(out);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The body of a kept file [`seal`] ended; `Err` when it is cut off or damaged.
pub fn unsealed(bytes: &[u8]) -> std::result::Result<&[u8], String> {
    let (body, crc) = bytes
        .split_last_chunk::<4>()
        .ok_or("shorter than its header")?;
    if crc32(body) != u32::from_le_bytes(*crc) {
        return Err("checksum mismatch".into());
    }
    Ok(body)
}

/// How many bytes of a page-sealed file one checksum covers ([`seal_pages`]).
pub const SEALED_PAGE: usize = 4096;

/// Ends a kept file's bytes with a checksum of each of its [`SEALED_PAGE`]-byte pages, so
/// a file read in place is checked page by page as its pages are read ([`PageSealed`]):
/// a short run that reads a few pages of a large table checks those, not the whole file.
/// After the pages: their CRC-32s, the page count and the CRC-32 of those two.
pub fn seal_pages(out: &mut Vec<u8>) {
    let sums: Vec<u8> = out
        .chunks(SEALED_PAGE)
        .flat_map(|page| crc32(page).to_le_bytes())
        .collect();
    let pages = u32::try_from(sums.len() / 4).unwrap_or(u32::MAX);
    out.extend_from_slice(&sums);
    out.extend_from_slice(&pages.to_le_bytes());
    let trailer = &out[out.len() - sums.len() - 4..];
    let crc = crc32(trailer);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// The bytes of a file [`seal_pages`] ended, each page checked against its checksum the
/// first time it is read. A page that fails gives no bytes and marks the whole damaged
/// ([`PageSealed::damaged`]), so its reader can refuse what it worked out meanwhile.
pub struct PageSealed {
    bytes: KeptBytes,
    /// The pages' length, before the checksums.
    body: usize,
    /// One bit per page, set once the page is checked.
    checked: Box<[std::sync::atomic::AtomicU64]>,
    /// The first page found damaged, plus one (0: none found).
    damaged: std::sync::atomic::AtomicUsize,
}

impl Default for PageSealed {
    /// No pages.
    fn default() -> Self {
        PageSealed {
            bytes: KeptBytes::default(),
            body: 0,
            checked: Box::default(),
            damaged: Default::default(),
        }
    }
}

impl PageSealed {
    /// The pages of `bytes`, unchecked but for the trailer's own checksum; `Err` when the
    /// trailer is cut off or damaged.
    pub fn open(bytes: KeptBytes) -> std::result::Result<PageSealed, String> {
        let (rest, crc) = bytes
            .split_last_chunk::<4>()
            .ok_or("shorter than its checksums")?;
        let (rest, pages) = rest
            .split_last_chunk::<4>()
            .ok_or("shorter than its checksums")?;
        let pages = u32::from_le_bytes(*pages) as usize;
        let sums = pages.checked_mul(4).ok_or("impossible page count")?;
        let body = rest
            .len()
            .checked_sub(sums)
            .ok_or("shorter than its page checksums")?;
        if crc32(&bytes[body..bytes.len() - 4]) != u32::from_le_bytes(*crc) {
            return Err("its page checksums are damaged".into());
        }
        if body.div_ceil(SEALED_PAGE) != pages {
            return Err("its page count does not match its length".into());
        }
        let checked = std::iter::repeat_with(Default::default)
            .take(pages.div_ceil(64))
            .collect();
        Ok(PageSealed {
            bytes,
            body,
            checked,
            damaged: Default::default(),
        })
    }

    /// The pages of `bytes` computed in this run ([`seal_pages`] ended them), every page
    /// taken as checked.
    pub fn trusted(bytes: KeptBytes) -> std::result::Result<PageSealed, String> {
        let sealed = Self::open(bytes)?;
        for word in &sealed.checked {
            word.store(u64::MAX, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(sealed)
    }

    /// The pages' length in bytes.
    pub fn len(&self) -> usize {
        self.body
    }

    /// Whether there are no pages.
    pub fn is_empty(&self) -> bool {
        self.body == 0
    }

    /// Bytes `range` of the pages, their pages checked; `None` beyond the pages or when
    /// one of them is damaged.
    pub fn get(&self, range: std::ops::Range<usize>) -> Option<&[u8]> {
        use std::sync::atomic::Ordering::Relaxed;
        if range.start > range.end || range.end > self.body {
            return None;
        }
        if range.is_empty() {
            return Some(&[]);
        }
        for page in range.start / SEALED_PAGE..=(range.end - 1) / SEALED_PAGE {
            let (word, bit) = (&self.checked[page / 64], 1u64 << (page % 64));
            if word.load(Relaxed) & bit != 0 {
                continue;
            }
            let start = page * SEALED_PAGE;
            let end = (start + SEALED_PAGE).min(self.body);
            let at = self.body + 4 * page;
            let stored = self
                .bytes
                .get(at..at + 4)
                .and_then(|s| s.first_chunk::<4>());
            if stored.map(|s| u32::from_le_bytes(*s)) != Some(crc32(&self.bytes[start..end])) {
                let _ = self.damaged.compare_exchange(0, page + 1, Relaxed, Relaxed);
                return None;
            }
            word.fetch_or(bit, Relaxed);
        }
        self.bytes.get(range)
    }

    /// The first page found damaged so far, if any.
    pub fn damaged(&self) -> Option<usize> {
        self.damaged
            .load(std::sync::atomic::Ordering::Relaxed)
            .checked_sub(1)
    }

    /// Every byte, the checksums too: what is kept.
    pub fn whole(&self) -> &[u8] {
        &self.bytes
    }
}

/// The bytes of a kept file: mapped read-only when read from the cache, so a run neither
/// copies them out of the page cache nor zeroes pages for them (most of a short run's
/// start was reading its tables), or owned when computed in this run.
pub enum KeptBytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Default for KeptBytes {
    fn default() -> Self {
        KeptBytes::Owned(Vec::new())
    }
}

impl From<Vec<u8>> for KeptBytes {
    fn from(bytes: Vec<u8>) -> Self {
        KeptBytes::Owned(bytes)
    }
}

impl std::ops::Deref for KeptBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            KeptBytes::Mapped(map) => map,
            KeptBytes::Owned(bytes) => bytes,
        }
    }
}

/// `file`, a kept file, mapped read-only (an empty one as no bytes, which cannot be mapped).
pub fn map_kept(file: &std::fs::File) -> std::io::Result<KeptBytes> {
    if file.metadata()?.len() == 0 {
        return Ok(KeptBytes::default());
    }
    // SAFETY: the map is read-only, and this program only ever replaces a kept file whole
    // (written beside it and renamed over it, `write_atomic`), which leaves the map on the
    // file it was made from. Another program changing the file in place is outside what a
    // kept file is for.
    unsafe { memmap2::Mmap::map(file) }.map(KeptBytes::Mapped)
}

/// A file computed once and kept in the data directory's cache (a table, a model in a
/// layout read in place), mapped and read by `parse`; `None` when there is none, or it
/// cannot be read or parsed (said in the log), so it is built again.
pub fn read_kept<T>(
    path: &Path,
    parse: impl FnOnce(KeptBytes) -> std::result::Result<T, String>,
) -> Option<T> {
    match std::fs::File::open(path).and_then(|file| map_kept(&file)) {
        Ok(bytes) => parse(bytes)
            .map_err(|why| log::warn!("{}: {why}; rebuilding it", path.display()))
            .ok(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            log::warn!("{}: {e}; rebuilding it", path.display());
            None
        }
    }
}

/// Removes the files `<prefix>*.bin` of `cache_dir` but `kept`: files kept for other
/// corpora, knowledge bases, priors or models, so they do not pile up as those change
/// (each is rebuilt in about a second when needed again).
pub fn remove_other_kept(cache_dir: &Path, kept: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(cache_dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
        let stale = path != kept
            && path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".bin"));
        if stale && std::fs::remove_file(&path).is_ok() {
            log::info!("removed the outdated file {}", path.display());
        }
    }
}

/// How temporary outputs are named (`.declass-tmp-` and random characters), so that one
/// left by a killed run is recognised and removed by the next run writing beside it.
pub const TEMP_PREFIX: &str = ".declass-tmp-";

/// How often creating a temporary output is retried when another run's clean-up removed
/// it between its creation and its lock.
const TEMP_ATTEMPTS: usize = 8;

/// Refuses an output path that exists and is not a regular file (following symbolic
/// links): a FIFO, a socket, a device or a directory would otherwise be replaced by the
/// renamed file, or a device like `/dev/null` by a file holding the document.
pub fn check_output_file(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(()),
        Ok(meta) => Err(Error::input(
            path,
            format!(
                "exists and is {}, not a regular file: refusing to replace it with the output",
                describe_file_type(&meta.file_type())
            ),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// Creates the output directory `dir` (and its parents) if missing; refuses a path that
/// exists and is not a directory.
pub fn ensure_output_dir(dir: &Path) -> Result<()> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(meta) => Err(Error::input(
            dir,
            format!(
                "exists and is {}, not a directory: cannot write outputs into it",
                describe_file_type(&meta.file_type())
            ),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
        }
        Err(e) => Err(Error::io(dir, e)),
    }
}

fn describe_file_type(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Removes the temporary outputs a killed run left in `dir`, once per directory and
/// process. A run holds an exclusive lock on each temporary file it writes, which the
/// operating system releases when the process ends, however it ends: a file with the
/// prefix that can be locked belongs to no live run. Best effort: what cannot be read or
/// removed is left, and the run goes on.
fn remove_stale_temporaries(dir: &Path) {
    static CLEANED: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let key = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    {
        let mut cleaned = CLEANED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if cleaned.contains(&key) {
            return;
        }
        cleaned.push(key);
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(TEMP_PREFIX))
            && entry.file_type().is_ok_and(|t| t.is_file());
        if !stale {
            continue;
        }
        let path = entry.path();
        let Ok(file) = std::fs::File::open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() && std::fs::remove_file(&path).is_ok() {
            log::info!(
                "{}: removed a temporary output left by an interrupted run",
                path.display()
            );
        }
    }
}

/// A temporary file to be renamed to `path` when complete: `path` must be a regular
/// file or not exist ([`check_output_file`]); the file is created in its directory
/// (made if missing), mode 0600, named [`TEMP_PREFIX`]…, and locked for as long as it is
/// open, after the temporary files killed runs left there are removed.
pub fn temp_file_for(path: &Path) -> Result<tempfile::NamedTempFile> {
    check_output_file(path)?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    remove_stale_temporaries(dir);
    locked_temp_file(dir)
}

/// A new temporary file in `dir`, readable by its owner only while it is partial, locked
/// for as long as it is open (see [`remove_stale_temporaries`]).
fn locked_temp_file(dir: &Path) -> Result<tempfile::NamedTempFile> {
    for _ in 0..TEMP_ATTEMPTS {
        let mut builder = tempfile::Builder::new();
        builder.prefix(TEMP_PREFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o600));
        }
        let tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
        tmp.as_file().lock().map_err(|e| Error::io(tmp.path(), e))?;
        // Another run's clean-up may have taken it between its creation and the lock.
        if tmp.path().exists() {
            return Ok(tmp);
        }
    }
    Err(Error::input(
        dir,
        "cannot keep a temporary output file here (each one was removed as it was created)",
    ))
}

/// An output file written as a stream: the bytes go to a temporary file in the target's
/// directory (mode 0600, named [`TEMP_PREFIX`]…), which becomes the target only at
/// [`AtomicWriter::commit`]. Dropped without a commit (an error on the way), the temporary
/// file is deleted and the target untouched; left by a killed process, it is removed by
/// the next run writing into that directory. The target must be a regular file or not
/// exist ([`check_output_file`]).
pub struct AtomicWriter {
    path: std::path::PathBuf,
    out: std::io::BufWriter<tempfile::NamedTempFile>,
}

impl AtomicWriter {
    pub fn create(path: &Path) -> Result<AtomicWriter> {
        let tmp = temp_file_for(path)?;
        Ok(AtomicWriter {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(tmp),
        })
    }

    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        self.out
            .write_all(bytes)
            .map_err(|e| Error::io(&self.path, e))
    }

    /// Flushes and syncs the temporary file, makes it readable as outputs are (mode 0644)
    /// now that it is complete, and renames it to the target, which is checked again: it
    /// may have been replaced since [`AtomicWriter::create`].
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        let tmp = self
            .out
            .into_inner()
            .map_err(|e| Error::io(&path, e.into_error()))?;
        tmp.as_file().sync_all().map_err(|e| Error::io(&path, e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))
                .map_err(|e| Error::io(&path, e))?;
        }
        check_output_file(&path)?;
        tmp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_is_read_mapped_an_empty_one_as_no_bytes_a_missing_one_as_none() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("table.bin");
        std::fs::write(&path, b"kept bytes").expect("write");
        let read = read_kept(&path, |bytes| {
            assert!(matches!(bytes, KeptBytes::Mapped(_)));
            Ok(bytes.to_vec())
        });
        assert_eq!(read.as_deref(), Some(b"kept bytes".as_slice()));
        std::fs::write(&path, b"").expect("write");
        assert_eq!(read_kept(&path, |bytes| Ok(bytes.len())), Some(0));
        assert_eq!(read_kept(&path, |_| Err::<(), _>("damaged".into())), None);
        let missing = dir.path().join("missing.bin");
        assert_eq!(read_kept(&missing, |bytes| Ok(bytes.len())), None);
    }

    /// Pages are checked as they are read: a damaged page gives no bytes and marks the
    /// file, while pages before it still read; a cut or damaged trailer is refused at
    /// open; bytes computed in this run read unchecked.
    #[test]
    fn a_page_sealed_file_checks_the_pages_it_reads() {
        let body: Vec<u8> = (0..SEALED_PAGE * 2 + 17).map(|i| (i % 251) as u8).collect();
        let mut bytes = body.clone();
        seal_pages(&mut bytes);
        assert_eq!(bytes.len(), body.len() + 3 * 4 + 8);
        let sealed = PageSealed::open(bytes.clone().into()).expect("sound");
        assert_eq!(sealed.len(), body.len());
        assert_eq!(
            sealed.get(10..SEALED_PAGE + 5),
            Some(&body[10..SEALED_PAGE + 5])
        );
        assert_eq!(sealed.get(body.len()..body.len()), Some(&[][..]));
        assert_eq!(
            sealed.get(body.len() - 1..body.len() + 1),
            None,
            "past the pages"
        );
        assert_eq!(sealed.damaged(), None);

        let mut damaged = bytes.clone();
        damaged[SEALED_PAGE * 2 + 3] ^= 1;
        let sealed = PageSealed::open(damaged.clone().into()).expect("trailer sound");
        assert_eq!(
            sealed.get(0..SEALED_PAGE * 2),
            Some(&body[..SEALED_PAGE * 2])
        );
        assert_eq!(sealed.damaged(), None, "the damaged page not read yet");
        assert_eq!(sealed.get(SEALED_PAGE..SEALED_PAGE * 2 + 1), None);
        assert_eq!(sealed.damaged(), Some(2));
        assert!(
            PageSealed::trusted(damaged.into())
                .expect("trusted")
                .get(0..body.len())
                .is_some()
        );

        let cut = bytes[..bytes.len() - 1].to_vec();
        assert!(PageSealed::open(cut.into()).is_err());
        let mut sums = bytes.clone();
        sums[body.len() + 1] ^= 1;
        assert!(PageSealed::open(sums.into()).is_err(), "a damaged checksum");
        assert!(PageSealed::open(vec![1, 2, 3].into()).is_err());
        let mut empty = Vec::new();
        seal_pages(&mut empty);
        let empty = PageSealed::open(empty.into()).expect("no pages");
        assert!(empty.is_empty() && empty.get(0..0) == Some(&[][..]));
    }

    #[test]
    fn rejects_binary() {
        let err = decode_text(vec![b'a', 0, b'b'], Path::new("x.bin")).expect_err("binary");
        assert!(err.to_string().contains("x.bin"));
        assert!(err.to_string().contains("binary"));
    }

    #[test]
    fn rejects_invalid_utf8_with_offset() {
        let err = decode_text(vec![b'a', b'b', 0xff, b'c'], Path::new("y.txt")).expect_err("utf8");
        assert!(err.to_string().contains("offset 2"), "{err}");
    }

    #[test]
    fn a_stream_appears_only_when_committed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("out.jsonl");
        let mut w = AtomicWriter::create(&target).expect("create");
        w.write_all(b"one\n").expect("write");
        assert!(!target.exists());
        w.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "one\n");
        let mut w = AtomicWriter::create(&target).expect("create");
        w.write_all(b"partial").expect("write");
        drop(w);
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "one\n");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    /// The temporary files in `dir`.
    fn temporaries(dir: &Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .expect("dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(TEMP_PREFIX))
            })
            .collect()
    }

    #[test]
    fn a_partial_output_is_private_and_a_dead_runs_is_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Left by a killed run: nobody holds its lock.
        let dead = dir.path().join(format!("{TEMP_PREFIX}dead"));
        std::fs::write(&dead, "half a document").expect("write");
        // Being written by a live run: locked.
        let live = dir.path().join(format!("{TEMP_PREFIX}live"));
        let held = std::fs::File::create(&live).expect("create");
        held.lock().expect("lock");
        let mut w = AtomicWriter::create(&dir.path().join("out.txt")).expect("create");
        w.write_all(b"partial").expect("write");
        assert!(!dead.exists(), "the dead run's temporary file is removed");
        assert!(live.exists(), "a live run's temporary file is kept");
        let mine: Vec<_> = temporaries(dir.path())
            .into_iter()
            .filter(|p| *p != live)
            .collect();
        assert_eq!(mine.len(), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&mine[0])
                .expect("meta")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        w.commit().expect("commit");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let out = std::fs::metadata(dir.path().join("out.txt")).expect("meta");
            assert_eq!(out.permissions().mode() & 0o777, 0o644);
        }
        assert_eq!(temporaries(dir.path()), vec![live]);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_to_replace_a_fifo_or_a_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let err = write_atomic(&fifo, b"doc").expect_err("a FIFO");
        assert!(
            err.to_string().contains("a FIFO, not a regular file"),
            "{err}"
        );
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).expect("mkdir");
        let err = write_atomic(&sub, b"doc").expect_err("a directory");
        assert!(err.to_string().contains("a directory"), "{err}");
        let err = ensure_output_dir(&fifo).expect_err("not a directory");
        assert!(err.to_string().contains("not a directory"), "{err}");
        ensure_output_dir(&dir.path().join("new/deeper")).expect("created");
        use std::os::unix::fs::FileTypeExt;
        assert!(
            std::fs::metadata(&fifo)
                .expect("meta")
                .file_type()
                .is_fifo()
        );
        assert!(temporaries(dir.path()).is_empty());
    }

    #[test]
    fn strips_bom() {
        let text = decode_text("\u{feff}hello".as_bytes().to_vec(), Path::new("z")).expect("ok");
        assert_eq!(text, "hello");
    }

    #[test]
    fn atomic_write_replaces_whole_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("out.txt");
        write_atomic(&path, b"first").expect("write");
        write_atomic(&path, b"second").expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "second");
        assert_eq!(std::fs::read_dir(dir.path()).expect("ls").count(), 1);
    }
}
