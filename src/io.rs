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

/// Reads the document at `path`, or standard input when `path` is `-`, with the checks
/// of [`read_text_file`]: the one reading of a command's document argument.
pub fn read_text(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        read_text_stdin()
    } else {
        read_text_file(path)
    }
}

/// Reads standard input with the same checks as [`read_text_file`].
pub fn read_text_stdin() -> Result<String> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
        .map_err(|e| Error::io("<stdin>", e))?;
    decode_text(bytes, Path::new("<stdin>"))
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

/// An output file written as a stream: the bytes go to a temporary file in the target's
/// directory, which becomes the target only at [`AtomicWriter::commit`]. Dropped without a
/// commit (an error on the way), the temporary file is deleted and the target untouched.
pub struct AtomicWriter {
    path: std::path::PathBuf,
    out: std::io::BufWriter<tempfile::NamedTempFile>,
}

impl AtomicWriter {
    pub fn create(path: &Path) -> Result<AtomicWriter> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let mut builder = tempfile::Builder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o644));
        }
        let tmp = builder.tempfile_in(dir).map_err(|e| Error::io(dir, e))?;
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

    /// Flushes, syncs and renames the temporary file to the target.
    pub fn commit(self) -> Result<()> {
        let path = self.path;
        let tmp = self
            .out
            .into_inner()
            .map_err(|e| Error::io(&path, e.into_error()))?;
        tmp.as_file().sync_all().map_err(|e| Error::io(&path, e))?;
        tmp.persist(&path).map_err(|e| Error::io(&path, e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
