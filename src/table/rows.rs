//! Reading and writing tables row by row: CSV (any one-character delimiter, quoted
//! fields, a header row), JSON Lines (one object per line) and Parquet (flat columns,
//! [`super::parquet_file`]). Rows are numbered from 1 after the header in every message;
//! no message carries a field's value.
//!
//! CSV quoting is strict (as Python's `csv` module with `strict = True`): a quote left
//! open, or text after a closing quote, makes its row bad instead of folding the lines
//! after it into one field, where they would be released under that field's column.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
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
    /// The line the row last read starts on (CSV only).
    line: Option<u64>,
}

enum Source {
    Csv {
        reader: csv::Reader<StrictQuotes<File>>,
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
                    line: None,
                })
            }
            Format::Csv { delimiter } => {
                let file = File::open(path).map_err(|e| Error::io(path, e))?;
                let mut reader = csv::ReaderBuilder::new()
                    .delimiter(delimiter)
                    .has_headers(true)
                    .flexible(true)
                    .buffer_capacity(1 << 16)
                    .from_reader(StrictQuotes::new(file, delimiter));
                let header = reader
                    .headers()
                    .map_err(|e| csv_error(path, 0, &e))?
                    .iter()
                    .map(|h| h.trim_start_matches('\u{feff}').to_string())
                    .collect::<Vec<_>>();
                let header_end = reader.position().byte();
                if let Some(problem) = reader.get_mut().take_problem_before(header_end) {
                    return Err(Error::input(
                        path,
                        format!("header: {}", problem.describe()),
                    ));
                }
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
                    line: None,
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
                    line: None,
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

    /// The line of the file the row last read starts on, where lines are meaningful (CSV).
    pub fn row_line(&self) -> Option<u64> {
        self.line
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
                let line = record.position().map(csv::Position::line);
                self.line = line;
                let end = reader.position().byte();
                if let Some(quote) = reader.get_mut().take_problem_before(end) {
                    return Ok(Some(RowOutcome::Bad(RowProblem {
                        row: self.row,
                        line,
                        column: None,
                        problem: quote.describe(),
                    })));
                }
                if record.len() != self.header.len() {
                    return Ok(Some(RowOutcome::Bad(RowProblem {
                        row: self.row,
                        line,
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
                                line: None,
                                column: Some(name.clone()),
                                problem: "missing".into(),
                            })));
                        }
                        Some(value) => match json_field(value) {
                            Some(v) => fields.push(v),
                            None => {
                                return Ok(Some(RowOutcome::Bad(RowProblem {
                                    row: self.row,
                                    line: None,
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
                        line: None,
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
                        line: None,
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

/// What is wrong with a row: its number, the line of the file it starts on (CSV) or
/// where its problem is, the column when one is at fault, and the problem, never the value.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RowProblem {
    pub row: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    pub column: Option<String>,
    pub problem: String,
}

impl RowProblem {
    pub fn into_error(self, path: &Path) -> Error {
        let row = match self.line {
            Some(line) => format!("row {} (line {line})", self.row),
            None => format!("row {}", self.row),
        };
        let at = match &self.column {
            Some(c) => format!("{row}, column `{c}`"),
            None => row,
        };
        Error::input(path, format!("{at}: {}", self.problem))
    }
}

/// A quoting error [`StrictQuotes`] found: the byte it is at (within the record at
/// fault), its line, and what is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct QuoteProblem {
    offset: u64,
    line: u64,
    what: &'static str,
}

impl QuoteProblem {
    fn describe(&self) -> String {
        format!("{} on line {}", self.what, self.line)
    }
}

/// Where the CSV parser is within a record, as `csv-core` moves through it with the
/// settings [`RowReader`] uses (`"` quotes, doubled to escape, any of CR, LF or CRLF
/// ending a record, a UTF-8 byte-order mark skipped at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuoteState {
    FieldStart,
    Unquoted,
    Quoted,
    /// A quote inside a quoted field: the closing quote, or the first of a doubled one.
    QuoteInQuoted,
}

/// The bytes of a CSV file on their way to the `csv` crate, checked for strict quoting.
/// The crate (`csv-core`) ends a quoted field left open at the end of the input without
/// an error, and keeps text after a closing quote as part of the field; it has no strict
/// mode and does not expose its parser state, so this follows the same state machine
/// beside it and records each violation by byte offset, which [`RowReader`] matches to
/// the record the parser returns.
struct StrictQuotes<R> {
    inner: R,
    delimiter: u8,
    state: QuoteState,
    /// Bytes seen so far, and the current line (from 1).
    offset: u64,
    line: u64,
    /// Where the quoted field being read opened.
    opened: (u64, u64),
    problems: VecDeque<QuoteProblem>,
    /// Leading bytes of a UTF-8 byte-order mark seen, which the parser skips.
    bom_bytes: usize,
    at_end: bool,
}

const UTF8_BOM: &[u8] = b"\xef\xbb\xbf";

impl<R: Read> StrictQuotes<R> {
    fn new(inner: R, delimiter: u8) -> StrictQuotes<R> {
        StrictQuotes {
            inner,
            delimiter,
            state: QuoteState::FieldStart,
            offset: 0,
            line: 1,
            opened: (0, 1),
            problems: VecDeque::new(),
            bom_bytes: 0,
            at_end: false,
        }
    }

    /// The first violation before byte `end` (the end of the record just parsed), with
    /// every other one before it dropped: one problem makes a row bad.
    fn take_problem_before(&mut self, end: u64) -> Option<QuoteProblem> {
        let first = *self.problems.front().filter(|p| p.offset < end)?;
        while self.problems.front().is_some_and(|p| p.offset < end) {
            self.problems.pop_front();
        }
        Some(first)
    }

    fn scan(&mut self, bytes: &[u8]) {
        for &b in bytes {
            // The mark is skipped while every byte so far has been the mark's.
            let skip_bom =
                self.offset == self.bom_bytes as u64 && UTF8_BOM.get(self.bom_bytes) == Some(&b);
            if skip_bom {
                self.bom_bytes += 1;
            }
            let ends_field = b == self.delimiter || b == b'\n' || b == b'\r';
            self.state = match self.state {
                _ if skip_bom => QuoteState::FieldStart,
                QuoteState::FieldStart if b == b'"' => {
                    self.opened = (self.offset, self.line);
                    QuoteState::Quoted
                }
                QuoteState::FieldStart | QuoteState::Unquoted if ends_field => {
                    QuoteState::FieldStart
                }
                QuoteState::FieldStart | QuoteState::Unquoted => QuoteState::Unquoted,
                QuoteState::Quoted if b == b'"' => QuoteState::QuoteInQuoted,
                QuoteState::Quoted => QuoteState::Quoted,
                QuoteState::QuoteInQuoted if b == b'"' => QuoteState::Quoted,
                QuoteState::QuoteInQuoted if ends_field => QuoteState::FieldStart,
                QuoteState::QuoteInQuoted => {
                    self.problems.push_back(QuoteProblem {
                        offset: self.offset,
                        line: self.line,
                        what: "text after a closing quote (a quote inside a quoted field \
                               is written twice)",
                    });
                    QuoteState::Unquoted
                }
            };
            if b == b'\n' {
                self.line += 1;
            }
            self.offset += 1;
        }
    }

    fn finish(&mut self) {
        if self.at_end {
            return;
        }
        self.at_end = true;
        if self.state == QuoteState::Quoted {
            let (offset, line) = self.opened;
            self.problems.push_back(QuoteProblem {
                offset,
                line,
                what: "a quote opened here is never closed (the rest of the file \
                       would be read as one field)",
            });
        }
    }
}

impl<R: Read> Read for StrictQuotes<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let read = self.inner.read(buf)?;
        match buf.get(..read) {
            Some(bytes) if read > 0 => self.scan(bytes),
            _ => self.finish(),
        }
        Ok(read)
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

/// Whether CSV cells that a spreadsheet would read as a formula are neutralized
/// (`table.formula_escape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Formulas {
    /// A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading
    /// `'` (OWASP, "CSV Injection"), unless it is a plain number such as `-5` or `+1.5e3`,
    /// which a spreadsheet reads as that number.
    Escape,
    /// Cells are written as they are.
    Keep,
}

/// Whether a spreadsheet opening a CSV would evaluate `cell`: it starts with one of
/// OWASP's formula characters and is not a plain number.
pub fn is_formula(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_plain_number(cell)
}

/// An optional sign, digits with at most one decimal point, and an optional exponent:
/// `-5`, `+0.25`, `-1.5e-3`; not `-inf`, `-2+3` or `-1,000`.
fn is_plain_number(cell: &str) -> bool {
    let unsigned = cell.strip_prefix(['+', '-']).unwrap_or(cell);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (digits(whole) || whole.is_empty())
                && (digits(fraction) || fraction.is_empty())
                && !(whole.is_empty() && fraction.is_empty())
        }
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(digits)
}

/// An output table written atomically: nothing at the target until [`RowWriter::commit`].
pub struct RowWriter {
    path: PathBuf,
    out: Output,
    header: Vec<String>,
    line: String,
    formulas: Formulas,
    /// CSV cells given a leading `'` so far, the header's included.
    escaped: u64,
}

enum Output {
    Csv(Box<csv::Writer<Sink>>),
    Lines(AtomicWriter),
    Parquet(Box<ParquetTableWriter<Sink>>),
}

/// One CSV record, each cell a formula would start neutralized when `formulas` says so
/// (counted in `escaped`).
fn write_csv_record<S: AsRef<str>>(
    csv: &mut csv::Writer<Sink>,
    fields: &[S],
    formulas: Formulas,
    escaped: &mut u64,
) -> csv::Result<()> {
    for field in fields {
        let field = field.as_ref();
        if formulas == Formulas::Escape && is_formula(field) {
            *escaped += 1;
            csv.write_field(format!("'{field}"))?;
        } else {
            csv.write_field(field)?;
        }
    }
    csv.write_record(None::<&[u8]>)
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
    /// A writer of `header` and then rows to `path`; `formulas` applies to CSV output
    /// only: JSON Lines and Parquet values are data for programs, kept exact.
    pub fn create(
        path: &Path,
        format: Format,
        header: Vec<String>,
        parquet: &ParquetSettings,
        formulas: Formulas,
    ) -> Result<RowWriter> {
        let file = AtomicWriter::create(path)?;
        let mut escaped = 0;
        let out = match format {
            Format::Csv { delimiter } => {
                let mut csv = csv::WriterBuilder::new()
                    .delimiter(delimiter)
                    .from_writer(Sink(file));
                write_csv_record(&mut csv, &header, formulas, &mut escaped)
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
            formulas,
            escaped,
        })
    }

    /// CSV cells neutralized as formulas so far, the header's included.
    pub fn escaped_cells(&self) -> u64 {
        self.escaped
    }

    pub fn write<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<()> {
        match &mut self.out {
            Output::Csv(csv) => write_csv_record(csv, fields, self.formulas, &mut self.escaped)
                .map_err(|e| Error::input(&self.path, e.to_string())),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_told_from_plain_numbers() {
        for formula in [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+cmd|' /C calc'!A0",
            "@SUM(A1:A2)",
            "-2+3",
            "\t=1",
            "\r=1",
            "-",
            "+",
            "-inf",
            "-1,000",
            "-.",
            "-1e",
            "- 5",
        ] {
            assert!(is_formula(formula), "{formula:?}");
        }
        for plain in [
            "-5", "+5", "-0.25", "-.5", "-5.", "+1.5e3", "-1E-3", "5", "a=b", " =1", "",
        ] {
            assert!(!is_formula(plain), "{plain:?}");
        }
    }

    /// A row's fields, or its problem's line and text.
    type ReadRow = std::result::Result<Vec<String>, (Option<u64>, String)>;

    /// Each row of `csv`.
    fn read(csv: &[u8]) -> Vec<ReadRow> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.csv");
        std::fs::write(&path, csv).expect("write");
        let settings = ParquetSettings {
            row_group_rows: 10,
            read_batch_rows: 10,
        };
        let mut reader =
            RowReader::open(&path, Format::Csv { delimiter: b',' }, &settings).expect("open");
        let mut rows = Vec::new();
        let mut fields = Vec::new();
        while let Some(outcome) = reader.next_row(&mut fields).expect("read") {
            rows.push(match outcome {
                RowOutcome::Ok => Ok(fields.clone()),
                RowOutcome::Bad(p) => Err((p.line, p.problem)),
            });
        }
        rows
    }

    #[test]
    fn well_quoted_fields_read_as_written() {
        let rows = read(
            b"\xef\xbb\xbf\"id\",note\r\n1,\"two\r\nlines, \"\"quoted\"\"\"\r\n2,\"\"\n3,5'11\"\n",
        );
        assert_eq!(
            rows,
            vec![
                Ok(vec!["1".into(), "two\r\nlines, \"quoted\"".into()]),
                Ok(vec!["2".into(), String::new()]),
                Ok(vec!["3".into(), "5'11\"".into()]),
            ]
        );
    }

    #[test]
    fn an_unclosed_quote_makes_its_row_bad_instead_of_swallowing_the_rest() {
        let rows =
            read(b"id,name,status\n1,Ann,ok\n2,Bob,\"retired\n3,Margaret Ellison,ok\n4,Cy,ok\n");
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!(rows[0], Ok(vec!["1".into(), "Ann".into(), "ok".into()]));
        let Err((line, problem)) = &rows[1] else {
            panic!("the folded row is bad: {rows:?}");
        };
        assert_eq!(*line, Some(3));
        assert!(
            problem.contains("never closed") && problem.ends_with("on line 3"),
            "{problem}"
        );
    }

    #[test]
    fn text_after_a_closing_quote_makes_its_row_bad() {
        // The stray quote opens a field that the next row's quote closes: the right field
        // count, but two lines in one field.
        let rows =
            read(b"id,name,status\n1,Bob,\"retired\n2,Margaret Ellison,\"active\"\n3,Cy,ok\n");
        assert!(
            matches!(&rows[0], Err((Some(2), p)) if p.contains("after a closing quote") && p.ends_with("on line 3")),
            "{rows:?}"
        );
        assert_eq!(rows[1], Ok(vec!["3".into(), "Cy".into(), "ok".into()]));
    }

    #[test]
    fn a_bad_quote_in_the_header_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.csv");
        std::fs::write(&path, "id,\"name\"x,status\n1,a,b\n").expect("write");
        let settings = ParquetSettings {
            row_group_rows: 10,
            read_batch_rows: 10,
        };
        let err = RowReader::open(&path, Format::Csv { delimiter: b',' }, &settings)
            .err()
            .expect("refused");
        assert!(
            err.to_string()
                .contains("header: text after a closing quote"),
            "{err}"
        );
    }
}
