//! Parquet tables (Apache Parquet format specification, "LogicalTypes.md" for the
//! annotations read here), through the `parquet` crate's column readers and writers
//! without Arrow.
//!
//! Reading decodes one row group at a time, each column a batch of rows at a time, and
//! hands each row on as the text fields the CSV reader gives: integers and decimals in
//! plain digits, floats in their shortest round-trip form, booleans as `true`/`false`,
//! dates as `YYYY-MM-DD`, times as `HH:MM:SS[.fff…]`, timestamps as
//! `YYYY-MM-DD HH:MM:SS[.fff…]` (UTC for UTC-adjusted ones, as stored otherwise), strings
//! as they are, unannotated bytes as text only when they are printable UTF-8 (else the
//! row is bad, naming the column); a null is an empty field. Nested columns (lists, maps, structs) are
//! refused, naming the column.
//!
//! Writing gives every column as an optional UTF-8 string (the released values are
//! labels such as `[30,40)` or `*`, not the input's types), an empty field as null, in
//! row groups of a configured size, Snappy-compressed; the bytes depend only on the
//! header, the rows and the row-group size (the crate's fixed `created_by`, no time).
//!
//! Codecs read: Snappy, gzip, LZ4 and zstd; a Brotli-compressed file is an error naming it.

mod values;
mod writer;

pub use writer::ParquetTableWriter;

use values::{ColumnBatch, Render, Values, render_of};

use std::fs::File;
use std::path::{Path, PathBuf};

use parquet::basic::Repetition;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::error::{Error, Result};

/// `[table]` settings of Parquet files.
#[derive(Debug, Clone, Copy)]
pub struct ParquetSettings {
    /// Rows per row group written: readers and writers hold a row group's pages.
    pub row_group_rows: usize,
    /// Rows decoded per column at a time when reading.
    pub read_batch_rows: usize,
}

thread_local! {
    /// Set while [`contain_panics`] runs the decoder on this thread.
    static DECODING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `decode`, turning a panic into `Err(())`. The crate asserts on some damaged
/// input (a page shorter than its header says, found by the damaged-file property test)
/// instead of returning an error; a damaged file must be this file's error, never a
/// crash. The panic message is silenced while decoding; every other panic reaches the
/// hook that was installed before.
fn contain_panics<T>(decode: impl FnOnce() -> T) -> std::result::Result<T, ()> {
    static QUIET_WHILE_DECODING: std::sync::Once = std::sync::Once::new();
    QUIET_WHILE_DECODING.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !DECODING.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    DECODING.with(|d| d.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode));
    DECODING.with(|d| d.set(false));
    result.map_err(|_| ())
}

/// Refuses a file whose footer places a column chunk outside the file (the crate
/// asserts on a negative offset or length rather than returning an error).
fn check_chunks(path: &Path, file: &SerializedFileReader<File>) -> Result<()> {
    let length = std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .len();
    for (g, group) in file.metadata().row_groups().iter().enumerate() {
        for chunk in group.columns() {
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or_else(|| chunk.data_page_offset());
            let inside = u64::try_from(start)
                .ok()
                .zip(u64::try_from(chunk.compressed_size()).ok())
                .and_then(|(start, size)| start.checked_add(size))
                .is_some_and(|end| end <= length);
            if !inside {
                return Err(Error::input(
                    path,
                    format!(
                        "row group {}, column `{}`: data outside the file (damaged footer)",
                        g + 1,
                        chunk.column_path()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Rows of a Parquet file, one row group and one batch at a time.
pub struct ParquetRows {
    path: PathBuf,
    file: SerializedFileReader<File>,
    header: Vec<String>,
    renders: Vec<Render>,
    batch_rows: usize,
    /// The next row group to open.
    next_group: usize,
    /// Rows of the open row group not yet decoded.
    group_rows_left: usize,
    columns: Vec<ColumnBatch>,
    /// Rows in the current batch and the next one to hand on.
    batch_len: usize,
    batch_pos: usize,
    /// Rows handed on so far (row numbers in messages).
    rows_read: usize,
    /// Decoding failed: no further row is read.
    damaged: bool,
}

/// What is wrong with one row's value: the column's index and the problem.
pub type FieldProblem = (usize, String);

impl ParquetRows {
    /// Opens `path` and checks its schema: one flat column per field, each of a type read.
    pub fn open(path: &Path, settings: &ParquetSettings) -> Result<ParquetRows> {
        contain_panics(|| ParquetRows::open_checked(path, settings)).unwrap_or_else(|()| {
            Err(Error::input(
                path,
                "not a readable Parquet file: damaged footer (the decoder failed)",
            ))
        })
    }

    fn open_checked(path: &Path, settings: &ParquetSettings) -> Result<ParquetRows> {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        let file = SerializedFileReader::new(file)
            .map_err(|e| Error::input(path, format!("not a readable Parquet file: {e}")))?;
        let schema = file.metadata().file_metadata().schema_descr_ptr();
        let fields = schema.root_schema().get_fields();
        if fields.is_empty() {
            return Err(Error::input(path, "no columns"));
        }
        for field in fields {
            let repeated = field.get_basic_info().has_repetition()
                && field.get_basic_info().repetition() == Repetition::REPEATED;
            if field.is_group() || repeated {
                return Err(Error::input(
                    path,
                    format!(
                        "column `{}` is nested (a list, map or struct); only flat columns \
                         are read: flatten it first",
                        field.name()
                    ),
                ));
            }
        }
        check_chunks(path, &file)?;
        let header = fields.iter().map(|f| f.name().to_string()).collect();
        let renders = schema
            .columns()
            .iter()
            .map(|c| {
                render_of(c).map_err(|m| Error::input(path, format!("column `{}`: {m}", c.name())))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ParquetRows {
            path: path.to_path_buf(),
            file,
            header,
            renders,
            batch_rows: settings.read_batch_rows.max(1),
            next_group: 0,
            group_rows_left: 0,
            columns: Vec::new(),
            batch_len: 0,
            batch_pos: 0,
            rows_read: 0,
            damaged: false,
        })
    }

    /// The column names, in order.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// Fills `fields` with the next row; `Ok(None)` at the end, `Ok(Some(Err(_)))` for a
    /// row with a value that cannot be given as text (the row is consumed either way).
    pub fn next_row(
        &mut self,
        fields: &mut Vec<String>,
    ) -> Result<Option<std::result::Result<(), FieldProblem>>> {
        if self.batch_pos == self.batch_len && !self.next_batch()? {
            return Ok(None);
        }
        let row = self.batch_pos;
        self.batch_pos += 1;
        self.rows_read += 1;
        fields.resize_with(self.columns.len(), String::new);
        let mut problem = None;
        for (c, (column, field)) in self.columns.iter_mut().zip(fields.iter_mut()).enumerate() {
            let present = column.max_def == 0 || column.defs.get(row) == Some(&column.max_def);
            if !present {
                field.clear();
                continue;
            }
            let value = column.next_value;
            column.next_value += 1;
            if let Err(p) = column.values.render(value, column.render, field)
                && problem.is_none()
            {
                problem = Some((c, p));
            }
        }
        Ok(Some(problem.map_or(Ok(()), Err)))
    }

    /// Decodes the next batch, opening the next row group when the open one is done;
    /// `false` at the end of the file.
    fn next_batch(&mut self) -> Result<bool> {
        let after = self.rows_read;
        if self.damaged {
            return Err(Error::input(
                &self.path,
                format!("damaged Parquet data after row {after}: reading stopped there"),
            ));
        }
        let decoded = contain_panics(|| self.decode_batch()).unwrap_or_else(|()| {
            Err(Error::input(
                &self.path,
                format!("damaged Parquet data after row {after} (the decoder failed)"),
            ))
        });
        self.damaged = decoded.is_err();
        decoded
    }

    fn decode_batch(&mut self) -> Result<bool> {
        while self.group_rows_left == 0 {
            if self.next_group == self.file.num_row_groups() {
                return Ok(false);
            }
            self.open_group(self.next_group)?;
            self.next_group += 1;
        }
        let rows = self.batch_rows.min(self.group_rows_left);
        let first = self.rows_read + 1;
        for (column, name) in self.columns.iter_mut().zip(&self.header) {
            let defs = (column.max_def > 0).then(|| {
                column.defs.clear();
                &mut column.defs
            });
            let read = column.values.read(rows, defs).map_err(|e| {
                Error::input(
                    &self.path,
                    format!("rows {first}-{}, column `{name}`: {e}", first + rows - 1),
                )
            })?;
            if read != rows {
                return Err(Error::input(
                    &self.path,
                    format!(
                        "row group {}, column `{name}`: {read} rows where the row group has \
                         {rows} more",
                        self.next_group
                    ),
                ));
            }
            column.next_value = 0;
        }
        self.group_rows_left -= rows;
        self.batch_len = rows;
        self.batch_pos = 0;
        Ok(true)
    }

    fn open_group(&mut self, group: usize) -> Result<()> {
        let at = |e: parquet::errors::ParquetError| {
            Error::input(&self.path, format!("row group {}: {e}", group + 1))
        };
        let reader = self.file.get_row_group(group).map_err(at)?;
        let rows = usize::try_from(reader.metadata().num_rows()).map_err(|_| {
            Error::input(
                &self.path,
                format!("row group {}: negative row count", group + 1),
            )
        })?;
        let schema = reader.metadata().schema_descr_ptr();
        let mut columns = Vec::with_capacity(self.renders.len());
        for (c, &render) in self.renders.iter().enumerate() {
            columns.push(ColumnBatch {
                render,
                max_def: schema.column(c).max_def_level(),
                values: Values::new(reader.get_column_reader(c).map_err(at)?),
                defs: Vec::new(),
                next_value: 0,
            });
        }
        self.columns = columns;
        self.group_rows_left = rows;
        self.batch_len = 0;
        self.batch_pos = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::data_type::{
        BoolType, ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type,
    };
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;

    use super::*;
    /// A file of typed columns written with the crate's column writers, read back.
    #[test]
    fn typed_columns_become_the_text_of_a_csv_field() {
        use parquet::data_type::DataType;
        use parquet::file::writer::SerializedColumnWriter;

        let schema = parquet::schema::parser::parse_message_type(
            "message t {
                required boolean flag;
                optional int32 age (INTEGER(8, true));
                optional int64 id (INTEGER(64, false));
                required float share;
                optional double income;
                optional int32 born (DATE);
                optional int64 seen (TIMESTAMP(MICROS, true));
                optional binary city (STRING);
                optional int64 price (DECIMAL(10, 2));
            }",
        )
        .expect("schema");
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("typed.parquet");
        let file = File::create(&path).expect("create");
        let mut writer = SerializedFileWriter::new(
            file,
            Arc::new(schema),
            Arc::new(WriterProperties::builder().build()),
        )
        .expect("writer");
        fn put<T: DataType>(w: &mut SerializedColumnWriter<'_>, v: &[T::T], d: Option<&[i16]>) {
            w.typed::<T>().write_batch(v, d, None).expect("write");
        }
        let mut group = writer.next_row_group().expect("group");
        let mut c = 0;
        while let Some(mut w) = group.next_column().expect("column") {
            let some = Some(&[1i16, 0][..]);
            match c {
                0 => put::<BoolType>(&mut w, &[true, false], None),
                1 => put::<Int32Type>(&mut w, &[-7], some),
                2 => put::<Int64Type>(&mut w, &[-1], some),
                3 => put::<FloatType>(&mut w, &[0.1, 2.0], None),
                4 => put::<DoubleType>(&mut w, &[52_000.5], some),
                5 => put::<Int32Type>(&mut w, &[19_000], some),
                6 => put::<Int64Type>(&mut w, &[1_600_000_000_000_001], some),
                7 => put::<ByteArrayType>(&mut w, &[ByteArray::from("Zürich")], some),
                _ => put::<Int64Type>(&mut w, &[-12_345], some),
            }
            w.close().expect("close");
            c += 1;
        }
        group.close().expect("group");
        writer.close().expect("footer");

        let settings = ParquetSettings {
            row_group_rows: 10,
            read_batch_rows: 1,
        };
        let mut rows = ParquetRows::open(&path, &settings).expect("open");
        assert_eq!(
            rows.header(),
            [
                "flag", "age", "id", "share", "income", "born", "seen", "city", "price"
            ]
        );
        let mut fields = Vec::new();
        rows.next_row(&mut fields)
            .expect("row")
            .expect("some")
            .expect("ok");
        assert_eq!(
            fields,
            [
                "true",
                "-7",
                "18446744073709551615",
                "0.1",
                "52000.5",
                "2022-01-08",
                "2020-09-13 12:26:40.000001",
                "Zürich",
                "-123.45"
            ]
        );
        rows.next_row(&mut fields)
            .expect("row")
            .expect("some")
            .expect("ok");
        assert_eq!(fields, ["false", "", "", "2", "", "", "", "", ""]);
        assert!(rows.next_row(&mut fields).expect("end").is_none());
    }
}
