//! Writing a table: every column an optional UTF-8 string, in row groups of a configured
//! size, Snappy-compressed.

use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::ParquetSettings;

/// A column of the row group being written: its values end to end, where each ends, and
/// whether each row has one.
#[derive(Default)]
struct ColumnBuffer {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    defs: Vec<i16>,
}

/// A Parquet table written to `W` (the atomic output file), a row group at a time.
pub struct ParquetTableWriter<W: std::io::Write + Send> {
    writer: SerializedFileWriter<W>,
    columns: Vec<ColumnBuffer>,
    rows: usize,
    row_group_rows: usize,
}

impl<W: std::io::Write + Send> ParquetTableWriter<W> {
    pub fn new(
        out: W,
        header: &[String],
        settings: &ParquetSettings,
    ) -> parquet::errors::Result<Self> {
        let fields = header
            .iter()
            .map(|name| {
                Type::primitive_type_builder(name, PhysicalType::BYTE_ARRAY)
                    .with_repetition(Repetition::OPTIONAL)
                    .with_logical_type(Some(LogicalType::String))
                    .build()
                    .map(Arc::new)
            })
            .collect::<parquet::errors::Result<Vec<_>>>()?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        Ok(ParquetTableWriter {
            writer: SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?,
            columns: header.iter().map(|_| ColumnBuffer::default()).collect(),
            rows: 0,
            row_group_rows: settings.row_group_rows.max(1),
        })
    }

    /// Adds one row (its fields in header order); an empty field is written as null.
    pub fn write<S: AsRef<str>>(&mut self, fields: &[S]) -> parquet::errors::Result<()> {
        for (column, field) in self.columns.iter_mut().zip(fields) {
            let text = field.as_ref();
            if text.is_empty() {
                column.defs.push(0);
            } else {
                column.defs.push(1);
                column.bytes.extend_from_slice(text.as_bytes());
                column.ends.push(column.bytes.len());
            }
        }
        self.rows += 1;
        if self.rows == self.row_group_rows {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the last row group and the footer, and returns the output.
    pub fn finish(mut self) -> parquet::errors::Result<W> {
        if self.rows > 0 {
            self.flush_group()?;
        }
        self.writer.into_inner()
    }

    fn flush_group(&mut self) -> parquet::errors::Result<()> {
        let mut group = self.writer.next_row_group()?;
        for column in &mut self.columns {
            let Some(mut writer) = group.next_column()? else {
                break;
            };
            let bytes = bytes::Bytes::from(std::mem::take(&mut column.bytes));
            let mut start = 0;
            let values: Vec<ByteArray> = column
                .ends
                .iter()
                .map(|&end| {
                    let value = ByteArray::from(bytes.slice(start..end));
                    start = end;
                    value
                })
                .collect();
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, Some(&column.defs), None)?;
            writer.close()?;
            column.ends.clear();
            column.defs.clear();
        }
        group.close()?;
        self.rows = 0;
        Ok(())
    }
}
