//! Reading and writing tables row by row: CSV (any one-character delimiter, quoted
//! fields, a header row), JSON Lines (one object per line) and Parquet (flat columns,
//! [`super::parquet_file`]). Rows are numbered from 1 after the header in every message;
//! no message carries a field's value.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::io::AtomicWriter;

use super::parquet_file::{ParquetRows, ParquetSettings, ParquetTableWriter};

/// A table file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv { delimiter: u8 },
    JsonLines,
    Parquet,
}

impl Format {
    /// The format of `path`: JSON Lines or Parquet by extension (`.jsonl`, `.ndjson`;
    /// `.parquet`, `.pq`), else CSV with
    /// `delimiter` if given, tabs for `.tsv`/`.tab`, or the delimiter the header line
    /// uses most among `,` `;` tab `|`.
    pub fn detect(path: &Path, delimiter: Option<&str>) -> Result<Format> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        if ext == "jsonl" || ext == "ndjson" {
            return Ok(Format::JsonLines);
        }
        if ext == "parquet" || ext == "pq" {
            return Ok(Format::Parquet);
        }
        if let Some(d) = delimiter {
            return Ok(Format::Csv {
                delimiter: parse_delimiter(d).map_err(|m| Error::input(path, m))?,
            });
        }
        if ext == "tsv" || ext == "tab" {
            return Ok(Format::Csv { delimiter: b'\t' });
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let mut first = String::new();
        BufReader::new(file)
            .read_line(&mut first)
            .map_err(|e| Error::io(path, e))?;
        let delimiter = [b',', b';', b'\t', b'|']
            .into_iter()
            .max_by_key(|d| (first.bytes().filter(|b| b == d).count(), *d == b','))
            .unwrap_or(b',');
        Ok(Format::Csv { delimiter })
    }

    /// The output's format: by its extension, else the input's.
    pub fn for_output(path: &Path, input: Format) -> Format {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match (ext.as_str(), input) {
            ("jsonl" | "ndjson", _) => Format::JsonLines,
            ("parquet" | "pq", _) => Format::Parquet,
            ("tsv" | "tab", _) => Format::Csv { delimiter: b'\t' },
            ("csv", Format::JsonLines | Format::Parquet) => Format::Csv { delimiter: b',' },
            (_, f) => f,
        }
    }
}

/// One ASCII character, or `\t` written out.
pub fn parse_delimiter(text: &str) -> std::result::Result<u8, String> {
    match text {
        "\\t" | "\t" | "tab" => Ok(b'\t'),
        t if t.len() == 1 && t.is_ascii() => Ok(t.as_bytes()[0]),
        _ => Err(format!(
            "delimiter must be one ASCII character (or \\t), not {text:?}"
        )),
    }
}

/// Rows of a table, streamed from its file.
pub struct RowReader {
    path: PathBuf,
    header: Vec<String>,
    source: Source,
    /// Data rows read so far (the next row's number is this plus one).
    row: usize,
}

enum Source {
    Csv {
        reader: csv::Reader<BufReader<File>>,
        record: csv::StringRecord,
    },
    Jsonl {
        lines: std::io::Lines<BufReader<File>>,
    },
    Parquet(Box<ParquetRows>),
}

impl RowReader {
    pub fn open(path: &Path, format: Format, parquet: &ParquetSettings) -> Result<RowReader> {
        let buffered = || -> Result<BufReader<File>> {
            let file = File::open(path).map_err(|e| Error::io(path, e))?;
            Ok(BufReader::with_capacity(1 << 16, file))
        };
        match format {
            Format::Parquet => {
                let rows = ParquetRows::open(path, parquet)?;
                let header = rows.header().to_vec();
                check_header(path, &header)?;
                Ok(RowReader {
                    path: path.to_path_buf(),
                    header,
                    source: Source::Parquet(Box::new(rows)),
                    row: 0,
                })
            }
            Format::Csv { delimiter } => {
                let mut reader = csv::ReaderBuilder::new()
                    .delimiter(delimiter)
                    .has_headers(true)
                    .flexible(true)
                    .from_reader(buffered()?);
                let header = reader
                    .headers()
                    .map_err(|e| csv_error(path, 0, &e))?
                    .iter()
                    .map(|h| h.trim_start_matches('\u{feff}').to_string())
                    .collect::<Vec<_>>();
                if header.is_empty() || header.iter().all(String::is_empty) {
                    return Err(Error::input(path, "no header row"));
                }
                check_header(path, &header)?;
                Ok(RowReader {
                    path: path.to_path_buf(),
                    header,
                    source: Source::Csv {
                        reader,
                        record: csv::StringRecord::new(),
                    },
                    row: 0,
                })
            }
            Format::JsonLines => {
                let mut lines = buffered()?.lines();
                // The first object's keys are the header; blank lines are skipped.
                let header = loop {
                    let Some(text) = lines.next() else {
                        return Err(Error::input(path, "no rows (empty JSON Lines file)"));
                    };
                    let text = text.map_err(|e| Error::io(path, e))?;
                    if text.trim().is_empty() {
                        continue;
                    }
                    let object = parse_object(path, 1, &text)?;
                    break object.keys().cloned().collect::<Vec<_>>();
                };
                // Re-open so the first object is read again as row 1.
                Ok(RowReader {
                    path: path.to_path_buf(),
                    header,
                    source: Source::Jsonl {
                        lines: buffered()?.lines(),
                    },
                    row: 0,
                })
            }
        }
    }

    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// The number of the row last read (1 for the first data row).
    pub fn row_number(&self) -> usize {
        self.row
    }

    /// Reads the next row into `fields`; `Ok(false)` at the end. A row whose field count
    /// differs from the header's is a [`RowProblem`] the caller may count and skip.
    pub fn next_row(&mut self, fields: &mut Vec<String>) -> Result<Option<RowOutcome>> {
        match &mut self.source {
            Source::Csv { reader, record } => {
                let more = reader
                    .read_record(record)
                    .map_err(|e| csv_error(&self.path, self.row + 1, &e))?;
                if !more {
                    return Ok(None);
                }
                self.row += 1;
                if record.len() != self.header.len() {
                    return Ok(Some(RowOutcome::Bad(RowProblem {
                        row: self.row,
                        column: None,
                        problem: format!(
                            "{} fields, the header has {}",
                            record.len(),
                            self.header.len()
                        ),
                    })));
                }
                // The strings of the previous row are refilled, not reallocated.
                fields.truncate(record.len());
                for (i, value) in record.iter().enumerate() {
                    match fields.get_mut(i) {
                        Some(field) => {
                            field.clear();
                            field.push_str(value);
                        }
                        None => fields.push(value.to_string()),
                    }
                }
                Ok(Some(RowOutcome::Ok))
            }
            Source::Jsonl { lines } => loop {
                fields.clear();
                let Some(text) = lines.next() else {
                    return Ok(None);
                };
                let text = text.map_err(|e| Error::io(&self.path, e))?;
                if text.trim().is_empty() {
                    continue;
                }
                self.row += 1;
                let object = parse_object(&self.path, self.row, &text)?;
                for name in &self.header {
                    match object.get(name) {
                        None => {
                            return Ok(Some(RowOutcome::Bad(RowProblem {
                                row: self.row,
                                column: Some(name.clone()),
                                problem: "missing".into(),
                            })));
                        }
                        Some(value) => match json_field(value) {
                            Some(v) => fields.push(v),
                            None => {
                                return Ok(Some(RowOutcome::Bad(RowProblem {
                                    row: self.row,
                                    column: Some(name.clone()),
                                    problem: "an object or array, not a value".into(),
                                })));
                            }
                        },
                    }
                }
                if let Some(extra) = object.keys().find(|k| !self.header.contains(k)) {
                    return Ok(Some(RowOutcome::Bad(RowProblem {
                        row: self.row,
                        column: Some(extra.clone()),
                        problem: "not in the first row's columns".into(),
                    })));
                }
                return Ok(Some(RowOutcome::Ok));
            },
            Source::Parquet(rows) => {
                let Some(outcome) = rows.next_row(fields)? else {
                    return Ok(None);
                };
                self.row += 1;
                Ok(Some(match outcome {
                    Ok(()) => RowOutcome::Ok,
                    Err((column, problem)) => RowOutcome::Bad(RowProblem {
                        row: self.row,
                        column: self.header.get(column).cloned(),
                        problem,
                    }),
                }))
            }
        }
    }
}

/// Whether a row read is usable.
#[derive(Debug)]
pub enum RowOutcome {
    Ok,
    Bad(RowProblem),
}

/// What is wrong with a row: its number, the column when one is at fault, and the
/// problem, never the value.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RowProblem {
    pub row: usize,
    pub column: Option<String>,
    pub problem: String,
}

impl RowProblem {
    pub fn into_error(self, path: &Path) -> Error {
        let at = match &self.column {
            Some(c) => format!("row {}, column `{c}`", self.row),
            None => format!("row {}", self.row),
        };
        Error::input(path, format!("{at}: {}", self.problem))
    }
}

fn check_header(path: &Path, header: &[String]) -> Result<()> {
    for (i, h) in header.iter().enumerate() {
        if h.is_empty() {
            return Err(Error::input(
                path,
                format!("header column {} is empty", i + 1),
            ));
        }
        if header[..i].contains(h) {
            return Err(Error::input(
                path,
                format!("header column `{h}` appears twice"),
            ));
        }
    }
    Ok(())
}

fn csv_error(path: &Path, row: usize, e: &csv::Error) -> Error {
    let line = e.position().map(|p| p.line());
    let what = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "not valid UTF-8".to_string(),
        csv::ErrorKind::Io(io) => io.to_string(),
        _ => "malformed CSV".to_string(),
    };
    match line {
        Some(line) if row > 0 => Error::input(path, format!("row {row} (line {line}): {what}")),
        Some(line) => Error::input(path, format!("line {line}: {what}")),
        None => Error::input(path, what),
    }
}

fn parse_object(
    path: &Path,
    row: usize,
    text: &str,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(map)) => Ok(map),
        Ok(_) => Err(Error::input(path, format!("row {row}: not a JSON object"))),
        Err(e) => Err(Error::input(
            path,
            format!("row {row}: invalid JSON at column {}", e.column()),
        )),
    }
}

/// A JSON value as a table field: strings as they are, numbers and booleans as written,
/// null as empty; objects and arrays are not fields.
fn json_field(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        serde_json::Value::Null => Some(String::new()),
        _ => None,
    }
}

/// An output table written atomically: nothing at the target until [`RowWriter::commit`].
pub struct RowWriter {
    path: PathBuf,
    out: Output,
    header: Vec<String>,
    line: String,
}

enum Output {
    Csv(Box<csv::Writer<Sink>>),
    Lines(AtomicWriter),
    Parquet(Box<ParquetTableWriter<Sink>>),
}

/// [`AtomicWriter`] as an [`std::io::Write`] for the CSV and Parquet writers.
struct Sink(AtomicWriter);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .write_all(buf)
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl RowWriter {
    pub fn create(
        path: &Path,
        format: Format,
        header: Vec<String>,
        parquet: &ParquetSettings,
    ) -> Result<RowWriter> {
        let file = AtomicWriter::create(path)?;
        let out = match format {
            Format::Csv { delimiter } => {
                let mut csv = csv::WriterBuilder::new()
                    .delimiter(delimiter)
                    .from_writer(Sink(file));
                csv.write_record(&header)
                    .map_err(|e| Error::input(path, e.to_string()))?;
                Output::Csv(Box::new(csv))
            }
            Format::JsonLines => Output::Lines(file),
            Format::Parquet => Output::Parquet(Box::new(
                ParquetTableWriter::new(Sink(file), &header, parquet)
                    .map_err(|e| Error::input(path, format!("Parquet writer: {e}")))?,
            )),
        };
        Ok(RowWriter {
            path: path.to_path_buf(),
            out,
            header,
            line: String::new(),
        })
    }

    pub fn write<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<()> {
        match &mut self.out {
            Output::Csv(csv) => csv
                .write_record(
                    fields
                        .iter()
                        .map(|f| <S as AsRef<str>>::as_ref(f).as_bytes()),
                )
                .map_err(|e| Error::input("<output>", e.to_string())),
            Output::Lines(out) => {
                self.line.clear();
                self.line.push('{');
                for (i, (name, value)) in self.header.iter().zip(fields).enumerate() {
                    if i > 0 {
                        self.line.push(',');
                    }
                    self.line
                        .push_str(&serde_json::Value::from(name.as_str()).to_string());
                    self.line.push(':');
                    self.line.push_str(
                        &serde_json::Value::from(<S as AsRef<str>>::as_ref(value)).to_string(),
                    );
                }
                self.line.push_str("}\n");
                out.write_all(self.line.as_bytes())
            }
            Output::Parquet(out) => out
                .write(fields)
                .map_err(|e| Error::input(&self.path, format!("Parquet writer: {e}"))),
        }
    }

    /// Flushes and renames the temporary file to the target.
    pub fn commit(self) -> Result<()> {
        match self.out {
            Output::Csv(csv) => {
                let sink = csv
                    .into_inner()
                    .map_err(|e| Error::input("<output>", e.error().to_string()))?;
                sink.0.commit()
            }
            Output::Lines(out) => out.commit(),
            Output::Parquet(out) => out
                .finish()
                .map_err(|e| Error::input(&self.path, format!("Parquet writer: {e}")))?
                .0
                .commit(),
        }
    }
}
