//! Random bytes and near-valid random text into every parser of user input: each returns
//! a value or an error, never panics. Case counts are fixed (`CASES`) so the suite stays
//! quick; BENCHMARKS.md ("Property tests") records them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;

use declass::eval::tab::{MissingDocuments, read_masked_spans, read_tab_documents, score};
use declass::kb::plugin::{ImportOptions, convert};
use declass::stats::document_readers::read_documents;

const CASES: u32 = 256;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Bytes: either anything, or text drawn from `alphabet` (near-valid input reaches
/// deeper into a parser than noise does).
fn input(alphabet: &'static str) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..400),
        prop::string::string_regex(alphabet)
            .expect("regex")
            .prop_map(String::into_bytes),
    ]
}

const JSON: &str = r#"[\[\]{}":,0-9a-z_ \n.-]{0,300}"#;

fn file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

fn gold() -> Vec<declass::eval::tab::TabDocument> {
    serde_json::from_str(
        r#"[{"doc_id": "d1", "text": "Mr John Smith was born in Paris.",
            "annotations": {"a1": {"entity_mentions": [
              {"entity_id": "e1", "identifier_type": "DIRECT", "start_offset": 3, "end_offset": 13, "entity_type": "PERSON"}]}}}]"#,
    )
    .expect("gold")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn text_input(bytes in input(r"[a-z \n\u{feff}\u{0}é]{0,300}")) {
        let _ = declass::io::decode_text(bytes, Path::new("x.txt"));
    }

    #[test]
    fn spans_json(bytes in input(JSON)) {
        let dir = tempfile::tempdir().expect("tempdir");
        let _ = read_masked_spans(&file(dir.path(), "spans.json", &bytes));
    }

    #[test]
    fn spans_scored_against_gold(spans in prop::collection::vec((0usize..60, 0usize..60), 0..8)) {
        let masked = BTreeMap::from([("d1".to_string(), spans)]);
        let _ = score(&gold(), &masked, Path::new("gold.json"), MissingDocuments::Refuse);
    }

    #[test]
    fn tab_json(bytes in input(r#"[\[\]{}":,0-9a-z_ \n]{0,100}|\[\{"doc_id":"d","text":"[a-z ]{0,20}","annotations":\{"a":\{"entity_mentions":\[\{"entity_id":"e","identifier_type":"(DIRECT|QUASI|NO_MASK|X)","start_offset":[0-9]{1,2},"end_offset":[0-9]{1,2}\}\]\}\}\}\]"#)) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = file(dir.path(), "tab.json", &bytes);
        if let Ok(docs) = read_tab_documents(&path) {
            let masked = docs.iter().map(|d| (d.doc_id.clone(), vec![(0, 1)])).collect();
            let _ = score(&docs, &masked, &path, MissingDocuments::CountAsUnmasked);
        }
    }

    #[test]
    fn corpus_sources(bytes in input(JSON), kind in prop::sample::select(vec!["c.jsonl", "c.json", "c.xml", "c.txt"])) {
        let _ = read_documents(
            Path::new(kind),
            Box::new(bytes.as_slice()),
            &mut |_| Ok(()),
            &mut |_| {},
        );
    }

    #[test]
    fn knowledge_base_files(
        bytes in input(r#"[<>"a-z:/#._ \n@^0-9;,\[\]]{0,300}|(<http://x/[a-c]> <http://www.w3.org/2004/02/skos/core#(broader|prefLabel)> (<http://x/[a-c]>|"[a-z]{0,5}"(@en)?) \.\n){0,4}"#),
        extension in prop::sample::select(vec!["nt", "ttl", "rdf"]),
    ) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = file(dir.path(), &format!("onto.{extension}"), &bytes);
        let _ = convert(&path, &ImportOptions::default());
    }

    #[test]
    fn toml_config(bytes in input(r#"[\[\]a-z_.="0-9 \n-]{0,200}|\[(sanitize|corpus|pipeline|stats)\]\n[a-z_]{1,12} = ("[a-z]{0,5}"|-?[0-9]{1,6}|true|[0-9]\.[0-9])\n"#)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = declass::Config::from_override_str(&text, Path::new("config.toml"));
    }
}

/// A valid Parquet table of three row groups with a null, written by declass itself.
fn parquet_table(dir: &Path) -> Vec<u8> {
    use declass::table::rows::{Format, Formulas, RowWriter};
    let path = dir.join("valid.parquet");
    let settings = declass::table::parquet_file::ParquetSettings {
        row_group_rows: 3,
        read_batch_rows: 2,
    };
    let header = vec!["age".to_string(), "city".to_string()];
    let mut writer = RowWriter::create(&path, Format::Parquet, header, &settings, Formulas::Keep)
        .expect("writer");
    for i in 0..7 {
        let city = if i == 4 { "" } else { "Lyon" };
        writer
            .write(&[format!("{}", 30 + i), city.to_string()])
            .expect("row");
    }
    writer.commit().expect("commit");
    std::fs::read(&path).expect("read")
}

proptest! {
    #![proptest_config(config())]

    /// A Parquet file with bytes changed or cut off: every row read, or an error.
    #[test]
    fn damaged_parquet(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in prop::option::of(any::<prop::sample::Index>()),
    ) {
        use declass::table::rows::{Format, RowReader};
        let dir = tempfile::tempdir().expect("tempdir");
        let mut bytes = parquet_table(dir.path());
        for (at, value) in changes {
            let i = at.index(bytes.len());
            bytes[i] ^= value;
        }
        if let Some(at) = cut {
            bytes.truncate(at.index(bytes.len()));
        }
        let path = file(dir.path(), "t.parquet", &bytes);
        let settings = declass::table::parquet_file::ParquetSettings {
            row_group_rows: 3,
            read_batch_rows: 2,
        };
        if let Ok(mut reader) = RowReader::open(&path, Format::Parquet, &settings) {
            let mut fields = Vec::new();
            while let Ok(Some(_)) = reader.next_row(&mut fields) {}
        }
    }
}

/// A Word package around `document` (the main part's bytes, as given).
fn word_package(document: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let rels = br#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="t" Target="media/a.png"/><Relationship Id="rId2" Type="t" Target="https://example.org/x" TargetMode="External"/></Relationships>"#;
    for (name, bytes) in [
        (
            "[Content_Types].xml",
            &b"<Types><Override PartName=\"/word/document.xml\"/></Types>"[..],
        ),
        ("word/document.xml", document),
        ("word/_rels/document.xml.rels", &rels[..]),
        ("word/media/a.png", &b"not a picture"[..]),
    ] {
        out.start_file(name, zip::write::SimpleFileOptions::default())
            .expect("entry");
        out.write_all(bytes).expect("write");
    }
    out.finish().expect("zip").into_inner()
}

const WORD_DOCUMENT: &str = r#"<?xml version="1.0"?><w:document xmlns:w="w" xmlns:r="r"><w:body><w:p><w:r><w:t xml:space="preserve">Dear Jane &amp; </w:t></w:r><w:del w:author="A"><w:r><w:delText>x</w:delText></w:r></w:del><w:ins w:author="A"><w:r><w:tab/><w:t>Roe</w:t></w:r></w:ins><w:r><w:drawing><wp:docPr descr="d"/><a:blip r:embed="rId1"/></w:drawing></w:r></w:p><w:p><w:r><w:instrText> PAGE </w:instrText></w:r></w:p></w:body></w:document>"#;

proptest! {
    #![proptest_config(config())]

    /// A Word package whose main part has bytes changed or cut off, and a package whose
    /// own bytes are: read and written back with edits anywhere in its text, or an error.
    #[test]
    fn damaged_word_packages(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in prop::option::of(any::<prop::sample::Index>()),
        in_package in any::<bool>(),
        edit_at in any::<prop::sample::Index>(),
        edit_len in 0usize..12,
    ) {
        let formats = declass::config::Config::load(None).expect("built-in configuration").formats;
        let mut document = WORD_DOCUMENT.as_bytes().to_vec();
        let mutate = |bytes: &mut Vec<u8>| {
            for (at, value) in &changes {
                let i = at.index(bytes.len());
                bytes[i] ^= value;
            }
            if let Some(at) = cut {
                bytes.truncate(at.index(bytes.len()).max(1));
            }
        };
        if !in_package {
            mutate(&mut document);
        }
        let mut bytes = word_package(&document);
        if in_package {
            mutate(&mut bytes);
        }
        if let Ok(Some(package)) = declass::formats::open(Path::new("d.docx"), &bytes, &formats) {
            let edit = edit_anywhere(package.text(), edit_at, edit_len);
            if let Ok(written) = package.write(&[edit]) {
                prop_assert!(declass::formats::open(Path::new("d.docx"), &written, &formats).is_ok());
            }
        }
    }
}

const MESSAGE: &str = "From: Jane Roe <jane.roe@example.com>\r\nTo: a@example.org, Team: b@example.org;\r\n\
    Subject: =?utf-8?q?Caf=C3=A9?=\r\nReceived: by mx\r\nContent-Type: multipart/mixed; boundary=\"m\"\r\n\r\n\
    --m\r\nContent-Type: multipart/alternative; boundary=\"a\"\r\n\r\n\
    --a\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nDear Jane =\r\nRoe=E2=80=99s\r\n\
    --a\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\nPHA+SmFuZSA8YiBhbHQ9J1JvZSc+Um9lPC9iPjwvcD4=\r\n--a--\r\n\
    --m\r\nContent-Type: message/rfc822\r\n\r\nFrom: b@example.org\r\nSubject: Fwd\r\n\r\nJane Roe.\r\n\
    --m\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=\"jane.txt\"\r\n\r\nJane.\r\n\
    --m\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--m--\r\n";

proptest! {
    #![proptest_config(config())]

    /// An e-mail with bytes changed or cut off: read and written with an edit anywhere
    /// in its text, and what is written reads again; or an error.
    #[test]
    fn damaged_e_mails(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in prop::option::of(any::<prop::sample::Index>()),
        edit_at in any::<prop::sample::Index>(),
        edit_len in 0usize..12,
    ) {
        let formats = declass::config::Config::load(None).expect("built-in configuration").formats;
        let mut bytes = MESSAGE.as_bytes().to_vec();
        for (at, value) in &changes {
            let i = at.index(bytes.len());
            bytes[i] ^= value;
        }
        if let Some(at) = cut {
            bytes.truncate(at.index(bytes.len()).max(1));
        }
        if let Ok(Some(package)) = declass::formats::open(Path::new("m.eml"), &bytes, &formats) {
            let edit = edit_anywhere(package.text(), edit_at, edit_len);
            let written = package.write(&[edit]).expect("a message read is written");
            let again = declass::formats::open(Path::new("m.eml"), &written, &formats);
            prop_assert!(
                matches!(again, Ok(Some(_))),
                "{:?}: {}",
                again.err(),
                String::from_utf8_lossy(&written)
            );
        }
    }
}

/// An edit of `text` putting "a person" over up to `len` bytes at `at` (on character
/// boundaries).
fn edit_anywhere(text: &str, at: prop::sample::Index, len: usize) -> declass::text::Edit {
    let mut start = at.index(text.len() + 1);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + len).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    declass::text::Edit {
        range: start..end,
        text: "a person".into(),
    }
}

/// A small PDF whose page shows two lines in Helvetica, as bytes.
fn small_pdf() -> Vec<u8> {
    use lopdf::content::{Content, Operation};
    use lopdf::{Document, Object, Stream, dictionary};
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 12.into()]),
        Operation::new("TL", vec![14.into()]),
        Operation::new("Td", vec![72.into(), 700.into()]),
        Operation::new("Tj", vec![Object::string_literal("Jane Roe wrote to")]),
        Operation::new("T*", vec![]),
        Operation::new("Tj", vec![Object::string_literal("the board in May.")]),
        Operation::new("ET", vec![]),
    ];
    let content = Content { operations }.encode().expect("content");
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        "Resources" => dictionary! { "Font" => dictionary! { "F1" => font_id } },
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("save");
    bytes
}

proptest! {
    #![proptest_config(config())]

    /// A PDF with bytes changed or cut off: read, and written with an edit anywhere in
    /// its text into a PDF that reads again; or an error, never a panic.
    #[test]
    fn damaged_pdfs(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in prop::option::of(any::<prop::sample::Index>()),
        edit_at in any::<prop::sample::Index>(),
        edit_len in 0usize..12,
    ) {
        let formats = declass::config::Config::load(None).expect("built-in configuration").formats;
        let mut bytes = small_pdf();
        for (at, value) in &changes {
            let i = at.index(bytes.len());
            bytes[i] ^= value;
        }
        if let Some(at) = cut {
            bytes.truncate(at.index(bytes.len()).max(1));
        }
        if let Ok(Some(package)) = declass::formats::open(Path::new("d.pdf"), &bytes, &formats) {
            let edit = edit_anywhere(package.text(), edit_at, edit_len);
            let written = package.write(&[edit]).expect("a PDF read is written");
            let again = declass::formats::open(Path::new("d.pdf"), &written, &formats);
            prop_assert!(matches!(again, Ok(Some(_))), "{:?}", again.err());
        }
    }
}
