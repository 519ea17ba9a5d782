//! Parquet tables in and out: the same rows as the CSV path gives, and nested columns
//! refused by name.

use std::path::Path;

use super::{PEOPLE_SCHEMA, dir, people, read_csv, release, write};

/// A Parquet file written with the crate's column writers: `schema` in Parquet's message
/// syntax, then per column its values (`None` for null) as text converted by `put`.
fn write_parquet(
    path: &Path,
    schema: &str,
    groups: &[Vec<Vec<Option<String>>>],
    put: impl Fn(&mut parquet::file::writer::SerializedColumnWriter<'_>, usize, &[Option<String>]),
) {
    use std::sync::Arc;
    let schema = parquet::schema::parser::parse_message_type(schema).expect("schema");
    let file = std::fs::File::create(path).expect("create");
    let props = parquet::file::properties::WriterProperties::builder().build();
    let mut writer =
        parquet::file::writer::SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props))
            .expect("writer");
    for columns in groups {
        let mut group = writer.next_row_group().expect("row group");
        let mut c = 0;
        while let Some(mut column) = group.next_column().expect("column") {
            put(&mut column, c, &columns[c]);
            column.close().expect("close column");
            c += 1;
        }
        group.close().expect("close row group");
    }
    writer.close().expect("footer");
}

/// Values and definition levels of an optional column.
fn present<T>(values: &[Option<String>], parse: impl Fn(&str) -> T) -> (Vec<T>, Vec<i16>) {
    let defs = values.iter().map(|v| i16::from(v.is_some())).collect();
    (values.iter().flatten().map(|v| parse(v)).collect(), defs)
}

/// Every row of a Parquet file through the crate's record API, nulls as empty fields,
/// with its column names and the physical types of its columns.
fn read_parquet(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let reader =
        SerializedFileReader::new(std::fs::File::open(path).expect("open")).expect("parquet");
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    for column in schema.columns() {
        assert_eq!(column.physical_type(), parquet::basic::Type::BYTE_ARRAY);
        assert_eq!(
            column.logical_type_ref(),
            Some(&parquet::basic::LogicalType::String)
        );
        assert_eq!(column.max_def_level(), 1, "optional");
    }
    let header = schema
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let rows = reader
        .get_row_iter(None)
        .expect("rows")
        .map(|row| {
            row.expect("row")
                .get_column_iter()
                .map(|(_, field)| match field {
                    Field::Str(s) => s.clone(),
                    Field::Null => String::new(),
                    other => panic!("not a string: {other:?}"),
                })
                .collect()
        })
        .collect();
    (header, rows)
}

#[test]
fn parquet_in_and_out_give_the_csv_paths_rows() {
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
    let d = dir();
    // Small row groups and batches, so rows cross both boundaries on the way in and out.
    std::fs::write(
        d.root.join("config.toml"),
        "[setup]\nauto = false\n[table]\nparquet_row_group_rows = 50\nparquet_read_batch_rows = 7\n",
    )
    .expect("config");
    // The people table with a typed column (`score`, a double) and some nulls.
    let mut csv = String::from("id;age;sex;postcode;diagnosis;score\n");
    let mut columns: Vec<Vec<Option<String>>> = vec![Vec::new(); 6];
    for (i, line) in people(300).lines().skip(1).enumerate() {
        let mut fields: Vec<Option<String>> =
            line.split(';').map(|f| Some(f.to_string())).collect();
        fields.push(Some(format!("{}", i as f64 / 4.0)));
        if i % 11 == 3 {
            fields[4] = None;
        }
        if i % 13 == 5 {
            fields[5] = None;
        }
        let texts: Vec<&str> = fields.iter().map(|f| f.as_deref().unwrap_or("")).collect();
        csv.push_str(&texts.join(";"));
        csv.push('\n');
        for (column, field) in columns.iter_mut().zip(fields) {
            column.push(field);
        }
    }
    let groups: Vec<Vec<Vec<Option<String>>>> = [0..180, 180..300]
        .into_iter()
        .map(|rows| columns.iter().map(|c| c[rows.clone()].to_vec()).collect())
        .collect();
    let input_csv = write(&d, "people.csv", &csv);
    let input = d.root.join("people.parquet");
    write_parquet(
        &input,
        "message people {
            required binary id (STRING);
            required int64 age;
            required binary sex (STRING);
            required binary postcode (STRING);
            optional binary diagnosis (STRING);
            optional double score;
        }",
        &groups,
        |column, c, values| match c {
            1 => {
                let (v, _) = present(values, |t| t.parse::<i64>().expect("age"));
                column
                    .typed::<Int64Type>()
                    .write_batch(&v, None, None)
                    .expect("write");
            }
            5 => {
                let (v, defs) = present(values, |t| t.parse::<f64>().expect("score"));
                column
                    .typed::<DoubleType>()
                    .write_batch(&v, Some(&defs), None)
                    .expect("write");
            }
            _ => {
                let (v, defs) = present(values, |t| ByteArray::from(t));
                let defs = (c == 4).then_some(&defs[..]);
                column
                    .typed::<ByteArrayType>()
                    .write_batch(&v, defs, None)
                    .expect("write");
            }
        },
    );
    let schema = write(
        &d,
        "people.toml",
        &format!("{PEOPLE_SCHEMA}\n[[column]]\nname = \"score\"\nrole = \"insensitive\"\n"),
    );
    for algorithm in ["lattice", "mondrian"] {
        let from_csv = d.root.join(format!("{algorithm}.csv"));
        release(&d, "k", &input_csv, &schema, &from_csv)
            .args(["--k", "5", "--algorithm", algorithm])
            .assert()
            .success();
        let mut outputs = Vec::new();
        for run in 0..2 {
            let out = d.root.join(format!("{algorithm}-{run}.parquet"));
            release(&d, "k", &input, &schema, &out)
                .args(["--k", "5", "--algorithm", algorithm])
                .assert()
                .success();
            outputs.push(std::fs::read(&out).expect("output"));
            assert_eq!(read_parquet(&out), read_csv(&from_csv), "{algorithm}");
        }
        assert_eq!(outputs[0], outputs[1], "{algorithm}: not byte-identical");
        // Parquet in, CSV out by the extension (commas): the same rows.
        let csv_out = d.root.join(format!("{algorithm}-from-parquet.csv"));
        release(&d, "k", &input, &schema, &csv_out)
            .args(["--k", "5", "--algorithm", algorithm])
            .assert()
            .success();
        assert_eq!(read_csv(&csv_out), read_csv(&from_csv));
    }
    let written = d.root.join("lattice-0.parquet");
    let (_, rows) = read_parquet(&written);
    assert_eq!(rows.len(), 300);
    // Row groups of table.parquet_row_group_rows, Snappy-compressed.
    use parquet::file::reader::FileReader;
    let reader = parquet::file::reader::SerializedFileReader::new(
        std::fs::File::open(&written).expect("open"),
    )
    .expect("parquet");
    let groups = reader.metadata().row_groups();
    assert_eq!(
        groups.iter().map(|g| g.num_rows()).collect::<Vec<_>>(),
        [50; 6]
    );
    assert!(
        groups
            .iter()
            .flat_map(|g| g.columns())
            .all(|c| c.compression() == parquet::basic::Compression::SNAPPY)
    );
    assert!(
        rows.iter().any(|r| r[3].is_empty()),
        "a null diagnosis stays empty"
    );
}

#[test]
fn nested_parquet_columns_are_refused_by_name() {
    use parquet::data_type::{ByteArray, ByteArrayType};
    let d = dir();
    let input = d.root.join("nested.parquet");
    write_parquet(
        &input,
        "message t {
            required binary id (STRING);
            optional group address {
                optional binary city (STRING);
            }
        }",
        &[vec![vec![Some("a".into())], vec![Some("Paris".into())]]],
        |column, c, values| {
            let (v, _) = present(values, |t| ByteArray::from(t));
            let defs = [2i16];
            let defs = (c == 1).then_some(&defs[..]);
            column
                .typed::<ByteArrayType>()
                .write_batch(&v, defs, None)
                .expect("write");
        },
    );
    let schema = write(&d, "t.toml", "[[column]]\nname='id'\nrole='identifier'\n");
    let out = d.root.join("out.parquet");
    let output = release(&d, "k", &input, &schema, &out)
        .output()
        .expect("run");
    crate::common::assert_clean_failure(&output, &["nested.parquet", "`address`", "nested"]);
    assert!(!out.exists());
    // A file cut short is refused, naming it, and nothing is written.
    let bytes = std::fs::read(&input).expect("read");
    let cut = d.root.join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let output = release(&d, "k", &cut, &schema, &out).output().expect("run");
    crate::common::assert_clean_failure(&output, &["cut.parquet", "Parquet"]);
    assert!(!out.exists());
}
