//! Word and OpenDocument files in, the same format out: the packages are built inside the
//! tests with the places releases leak (tracked deletions, comments and their authors,
//! headers, footnotes, document properties, alternative text, image metadata, thumbnails,
//! embedded objects), and no form of the protected name may remain in any part.

use std::io::{Cursor, Read, Write};
use std::path::Path;

use crate::common::{
    Setup, assert_clean_failure, assert_success, hidden_lists, setup, stdout_json,
};

const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:o="urn:schemas-microsoft-com:office:office""#;

const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/// `declass sanitize INPUT --protect "Jane Roe" --out OUT`, which must succeed.
pub fn release(s: &Setup, input: &Path, out: &Path) {
    let run = s
        .declass()
        .arg("sanitize")
        .arg(input)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(out)
        .output()
        .expect("run");
    assert_success(&run);
}

/// A PNG whose `tEXt` chunk names its author.
pub fn png_naming(author: &str) -> Vec<u8> {
    use img_parts::Bytes;
    use img_parts::png::{Png, PngChunk};
    let mut png = Png::from_bytes(Bytes::from_static(&[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]))
    .expect("signature");
    let chunks = png.chunks_mut();
    chunks.push(PngChunk::new(
        *b"IHDR",
        Bytes::from_static(&[0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]),
    ));
    chunks.push(PngChunk::new(
        *b"tEXt",
        Bytes::from(format!("Author\0{author}").into_bytes()),
    ));
    chunks.push(PngChunk::new(
        *b"IDAT",
        Bytes::from_static(&[0x78, 0x9c, 0x63, 0, 0, 0, 2, 0, 1]),
    ));
    chunks.push(PngChunk::new(*b"IEND", Bytes::new()));
    png.encoder().bytes().to_vec()
}

pub fn zip(entries: &[(&str, Vec<u8>)], stored_first: bool) -> Vec<u8> {
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (i, (name, bytes)) in entries.iter().enumerate() {
        let method = if stored_first && i == 0 {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        out.start_file(
            *name,
            zip::write::SimpleFileOptions::default().compression_method(method),
        )
        .expect("entry");
        out.write_all(bytes).expect("write");
    }
    out.finish().expect("zip").into_inner()
}

/// Every entry of a package, decompressed.
pub fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).expect("a ZIP package");
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).expect("entry");
            let mut content = Vec::new();
            file.read_to_end(&mut content).expect("read");
            (file.name().expect("name").to_string(), content)
        })
        .collect()
}

pub fn part<'a>(entries: &'a [(String, Vec<u8>)], name: &str) -> &'a str {
    let bytes = &entries
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} is in the package"))
        .1;
    std::str::from_utf8(bytes).expect("UTF-8")
}

/// Panics naming the part when any part holds any of `words` (any case).
pub fn assert_nowhere(entries: &[(String, Vec<u8>)], words: &[&str]) {
    for (name, bytes) in entries {
        let lower = String::from_utf8_lossy(bytes).to_lowercase();
        for word in words {
            assert!(
                !lower.contains(&word.to_lowercase()),
                "{word:?} is still in {name}: {}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
}

/// A Word document about Jane Roe, her name in every place a release leaks it.
pub fn docx() -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document {W}><w:body>
<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">Report on Ja</w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>ne Roe</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Jane Roe read a book about history in the garden. </w:t></w:r><w:del w:id="1" w:author="Jane Roe" w:date="2020-01-01T00:00:00Z"><w:r><w:delText>Her sister Mary Roe came.</w:delText></w:r></w:del><w:ins w:id="2" w:author="Jane Roe" w:date="2020-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">Jane Roe wrote it. </w:t></w:r></w:ins><w:commentRangeStart w:id="0"/><w:r><w:t>Music helps.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>
<w:p><w:hyperlink r:id="rId5" w:tooltip="Mail Jane Roe"><w:r><w:t>Write.</w:t></w:r></w:hyperlink><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.org/jane-roe" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Read more.</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:drawing><wp:inline><wp:docPr id="1" name="jane_roe.png" descr="Jane Roe at home"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="jane_roe.png" descr="Jane Roe"/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rId6"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>
<w:p><w:r><w:object><o:OLEObject ProgID="Package" r:id="rId9"/></w:object></w:r><w:r><w:t>The end.</w:t></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Client"/><w:textInput><w:default w:val="Jane Roe"/></w:textInput></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Jane Roe</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<!-- drafted for Jane Roe -->
<w:sectPr><w:headerReference w:type="default" r:id="rId7"/><w:footerReference w:type="default" r:id="rId8"/></w:sectPr>
</w:body></w:document>"#
    );
    let rels = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="{REL}/hyperlink" Target="mailto:jane.roe@example.org" TargetMode="External"/><Relationship Id="rId6" Type="{REL}/image" Target="media/image1.png"/><Relationship Id="rId7" Type="{REL}/header" Target="header1.xml"/><Relationship Id="rId8" Type="{REL}/footer" Target="footer1.xml"/><Relationship Id="rId9" Type="{REL}/oleObject" Target="embeddings/oleObject1.bin"/><Relationship Id="rId10" Type="{REL}/comments" Target="comments.xml"/><Relationship Id="rId11" Type="{REL}/settings" Target="settings.xml"/><Relationship Id="rId12" Type="{REL}/footnotes" Target="footnotes.xml"/></Relationships>"#
    );
    let package_rels = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="{REL}/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail" Target="docProps/thumbnail.jpeg"/></Relationships>"#
    );
    let types = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpeg" ContentType="image/jpeg"/><Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.oleObject"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/embeddings/oleObject1.bin" ContentType="application/vnd.openxmlformats-officedocument.oleObject"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>"#;
    let header = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr {W}><w:p><w:r><w:t>Confidential: Jane Roe</w:t></w:r></w:p></w:hdr>"#
    );
    let footer = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:ftr {W}><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>"#
    );
    let comments = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments {W}><w:comment w:id="0" w:author="Jane Roe" w:date="2020-01-02T00:00:00Z" w:initials="JR"><w:p><w:r><w:t>Ask Jane Roe first.</w:t></w:r></w:p></w:comment></w:comments>"#
    );
    let footnotes = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {W}><w:footnote w:id="1"><w:p><w:r><w:t>Told by Jane Roe.</w:t></w:r></w:p></w:footnote></w:footnotes>"#
    );
    let settings = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings {W}><w:zoom w:percent="100"/><w:docVars><w:docVar w:name="client" w:val="Jane Roe"/></w:docVars></w:settings>"#
    );
    let core = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Jane Roe</dc:creator><cp:lastModifiedBy>Jane Roe</cp:lastModifiedBy><dc:title>About Jane Roe</dc:title></cp:coreProperties>"#;
    let app = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Company>Roe Holdings</Company></Properties>"#;
    zip(
        &[
            ("[Content_Types].xml", types.as_bytes().to_vec()),
            ("_rels/.rels", package_rels.into_bytes()),
            ("word/document.xml", document.into_bytes()),
            ("word/_rels/document.xml.rels", rels.into_bytes()),
            ("word/header1.xml", header.into_bytes()),
            ("word/footer1.xml", footer.into_bytes()),
            ("word/comments.xml", comments.into_bytes()),
            ("word/footnotes.xml", footnotes.into_bytes()),
            ("word/settings.xml", settings.into_bytes()),
            ("word/media/image1.png", png_naming("Jane Roe")),
            (
                "word/embeddings/oleObject1.bin",
                b"Jane Roe's spreadsheet".to_vec(),
            ),
            ("docProps/core.xml", core.as_bytes().to_vec()),
            ("docProps/app.xml", app.as_bytes().to_vec()),
            ("docProps/thumbnail.jpeg", b"a picture of Jane Roe".to_vec()),
        ],
        false,
    )
}

#[test]
fn a_word_document_keeps_its_format_and_loses_every_trace_of_the_name() {
    let s = setup();
    let input = s.root.join("report.docx");
    std::fs::write(&input, docx()).expect("write the document");
    let out = s.root.join("released");
    release(&s, &input, &out);
    let released = std::fs::read(&out).expect("the released document");
    let entries = unzip(&released);
    assert_nowhere(&entries, &["jane", "roe", "JR"]);
    let document = part(&entries, "word/document.xml");
    // The text and formatting around the name stay; the name's replacement takes the
    // first run's formatting.
    assert!(
        document.contains("<w:b/>") && document.contains("<w:i/>"),
        "{document}"
    );
    assert!(document.contains("Music helps."), "{document}");
    assert!(document.contains("The end."), "{document}");
    assert!(
        !document.contains("<w:del ") && !document.contains("<w:ins "),
        "{document}"
    );
    // The picture stays (its file lost its metadata); the embedded object, whose part is
    // removed, goes.
    assert!(
        document.contains("w:drawing") && !document.contains("OLEObject"),
        "{document}"
    );
    assert!(
        document.contains("A person read"),
        "a paragraph opens a sentence: {document}"
    );
    // A page number's field survives; a hyperlink's target does not.
    assert!(part(&entries, "word/footer1.xml").contains(" PAGE "));
    assert!(part(&entries, "word/_rels/document.xml.rels").contains("about:blank"));
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    for gone in ["docProps/thumbnail.jpeg", "word/embeddings/oleObject1.bin"] {
        assert!(!names.contains(&gone), "{gone} is removed: {names:?}");
        assert!(!part(&entries, "[Content_Types].xml").contains(gone));
    }
    // The image stays, without its text chunk.
    assert!(names.contains(&"word/media/image1.png"));
    // Same input, same bytes.
    let again = s.root.join("again.docx");
    release(&s, &input, &again);
    assert_eq!(std::fs::read(&again).expect("again"), released);
}

#[test]
fn the_report_of_a_word_document_lists_what_it_held_beside_its_text() {
    let s = setup();
    let input = s.root.join("report.docx");
    std::fs::write(&input, docx()).expect("write the document");
    let report = stdout_json(s.declass().arg("sanitize").arg(&input).args([
        "--protect",
        "Jane Roe",
        "--format",
        "json",
    ]));
    let hidden = &report["hidden_content"];
    let has = |part: &str, action: &str| hidden_lists(&report, part, "action", action);
    assert!(has("word/comments.xml", "cleared"), "{hidden:?}");
    assert!(has("word/comments.xml", "sanitized"), "{hidden:?}");
    assert!(has("word/document.xml", "removed"), "{hidden:?}");
    assert!(has("docProps/core.xml", "removed"), "{hidden:?}");
    assert!(has("docProps/thumbnail.jpeg", "removed"), "{hidden:?}");
    assert!(
        has("word/embeddings/oleObject1.bin", "removed"),
        "{hidden:?}"
    );
    assert!(has("word/media/image1.png", "removed"), "{hidden:?}");
    assert!(has("word/settings.xml", "removed"), "{hidden:?}");
    // The sanitized text holds the header, footnote and comment, sanitized.
    let text = report["sanitized_text"].as_str().expect("text");
    assert!(
        text.contains("Confidential:") && text.contains("Told by"),
        "{text}"
    );
    assert!(!text.contains("Roe"), "{text}");
}

/// An OpenDocument text about Jane Roe.
fn odt() -> Vec<u8> {
    const NS: &str = r#"xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0""#;
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS} office:version="1.3"><office:body><office:text><text:tracked-changes><text:changed-region text:id="ct1"><text:deletion><office:change-info><dc:creator>Jane Roe</dc:creator><dc:date>2020-01-01T00:00:00</dc:date></office:change-info><text:p>Mary Roe was here.</text:p></text:deletion></text:changed-region></text:tracked-changes><text:h text:outline-level="1">About <text:span text:style-name="T1">Jane</text:span> Roe</text:h><text:p>Jane Roe read a book about history in the garden.<text:s text:c="2"/>Music helps.<office:annotation><dc:creator>Jane Roe</dc:creator><dc:date>2020-01-02T00:00:00</dc:date><text:p>Ask Jane Roe first.</text:p></office:annotation><text:change text:change-id="ct1"/></text:p><text:p><text:a xlink:type="simple" xlink:href="mailto:jane.roe@example.org">Write.</text:a></text:p><text:p><draw:frame draw:name="Image1"><svg:title>Jane Roe</svg:title><draw:image xlink:href="Pictures/photo.png"/></draw:frame><draw:frame draw:name="Object1"><draw:object xlink:href="./Object 1"/></draw:frame>The end.</text:p></office:text></office:body></office:document-content>"#
    );
    let styles = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-styles {NS} office:version="1.3"><office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Confidential: Jane Roe</text:p></style:header></style:master-page></office:master-styles></office:document-styles>"#
    );
    let meta = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-meta {NS} office:version="1.3"><office:meta><meta:initial-creator>Jane Roe</meta:initial-creator><dc:creator>Jane Roe</dc:creator></office:meta></office:document-meta>"#
    );
    let manifest = r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Pictures/photo.png" manifest:media-type="image/png"/><manifest:file-entry manifest:full-path="Object 1/content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Thumbnails/thumbnail.png" manifest:media-type="image/png"/></manifest:manifest>"#;
    zip(
        &[
            (
                "mimetype",
                b"application/vnd.oasis.opendocument.text".to_vec(),
            ),
            ("content.xml", content.into_bytes()),
            ("styles.xml", styles.into_bytes()),
            ("meta.xml", meta.into_bytes()),
            ("Pictures/photo.png", png_naming("Jane Roe")),
            ("Object 1/content.xml", b"<x>Jane Roe</x>".to_vec()),
            ("Thumbnails/thumbnail.png", png_naming("Jane Roe")),
            ("META-INF/manifest.xml", manifest.as_bytes().to_vec()),
        ],
        true,
    )
}

#[test]
fn an_opendocument_text_keeps_its_format_and_loses_every_trace_of_the_name() {
    let s = setup();
    let dir = s.root.join("in");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("report.odt"), odt()).expect("write the document");
    std::fs::write(dir.join("note.txt"), "Jane Roe read a book.\n").expect("write the note");
    let out = s.root.join("released");
    release(&s, &dir, &out);
    let released = std::fs::read(out.join("report.odt")).expect("the released document");
    let entries = unzip(&released);
    assert_nowhere(&entries, &["jane", "roe"]);
    // ODF's mimetype entry stays first and uncompressed.
    let mut archive = zip::ZipArchive::new(Cursor::new(&released)).expect("zip");
    let first = archive.by_index(0).expect("first");
    assert_eq!(first.name().expect("name"), "mimetype");
    assert_eq!(first.compression(), zip::CompressionMethod::Stored);
    drop(first);
    let content = part(&entries, "content.xml");
    assert!(
        content.contains("Music helps.") && content.contains("The end."),
        "{content}"
    );
    assert!(content.contains(r#"text:style-name="T1""#), "{content}");
    assert!(
        content.contains("Image1") && !content.contains("Object1"),
        "{content}"
    );
    let manifest = part(&entries, "META-INF/manifest.xml");
    assert!(
        !manifest.contains("Thumbnails") && !manifest.contains("Object 1"),
        "{manifest}"
    );
    assert!(manifest.contains("Pictures/photo.png"), "{manifest}");
    assert!(std::fs::read_to_string(out.join("note.txt")).is_ok_and(|t| !t.contains("Roe")));
}

#[test]
fn damaged_and_encrypted_documents_are_refused_by_name() {
    let s = setup();
    let fake = s.root.join("letter.docx");
    std::fs::write(&fake, "plain text, named as a Word file").expect("write");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&fake)
        .args(["--protect", "Jane Roe"])
        .output()
        .expect("run");
    assert_clean_failure(&run, &["letter.docx", "not a ZIP package"]);
    let legacy = s.root.join("old.doc");
    let mut bytes = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1".to_vec();
    bytes.extend_from_slice(&[0; 64]);
    std::fs::write(&legacy, bytes).expect("write");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&legacy)
        .output()
        .expect("run");
    assert_clean_failure(&run, &["old.doc", "encrypted Office file or a legacy"]);
    let truncated = s.root.join("cut.docx");
    let whole = docx();
    std::fs::write(&truncated, &whole[..whole.len() / 2]).expect("write");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&truncated)
        .output()
        .expect("run");
    assert_clean_failure(&run, &["cut.docx", "damaged"]);
    assert!(!Path::new(&s.root.join("cut.docx.declass-tmp")).exists());
}

#[test]
fn a_web_page_keeps_its_markup_and_loses_every_trace_of_the_name() {
    let s = setup();
    let page = "<!DOCTYPE html>\n<html><head><title>About Jane Roe</title>\
                <meta name=\"author\" content=\"Jane Roe\"><style>p { color: red }</style>\
                <script>track('Jane Roe');</script></head>\n<body>\n\
                <h1 class=\"title\">Report</h1>\n\
                <p>Jane Roe read a book about history in the garden &amp; music helps.</p>\n\
                <p><img src=\"photo.png\" alt=\"Jane Roe at home\"> <a href=\"mailto:jane.roe@example.org\" title=\"Write to Jane Roe\">Write.</a></p>\n\
                <!-- interviewed Jane Roe -->\n</body></html>\n";
    let input = s.root.join("page.html");
    std::fs::write(&input, page).expect("write the page");
    let out = s.root.join("released.html");
    release(&s, &input, &out);
    let released = std::fs::read_to_string(&out).expect("the released page");
    let lower = released.to_lowercase();
    assert!(
        !lower.contains("jane") && !lower.contains("roe"),
        "{released}"
    );
    for kept in [
        "<!DOCTYPE html>",
        "<h1 class=\"title\">",
        "<style>p { color: red }</style>",
        "in the garden &amp; music helps.</p>",
        "<img src=\"photo.png\" alt=\"",
        "<a href=\"#\"",
        "Write.</a>",
    ] {
        assert!(released.contains(kept), "{kept:?} is kept: {released}");
    }
    assert!(
        !released.contains("<script") && !released.contains("<!--"),
        "{released}"
    );
}

#[test]
fn a_markdown_document_keeps_its_markup_and_loses_every_trace_of_the_name() {
    let s = setup();
    let document = "---\ntitle: Notes on Jane Roe\n---\n# Report\n\n\
                    **Jane Roe** read a book about history in the garden.\n\n\
                    - See [her page](https://example.org/jane-roe \"Jane Roe's page\")\n\
                    - Write to `jane.roe@example.org` or <jane.roe@example.org>\n\n\
                    | who | where |\n|---|---|\n| Jane Roe | garden |\n\n\
                    ```\nowner: Jane Roe\n```\n\n\
                    ![Jane Roe at home](photo.png)\n\n[1]: https://example.org/roe \"Roe\"\n";
    let input = s.root.join("notes.md");
    std::fs::write(&input, document).expect("write the document");
    let out = s.root.join("released.md");
    release(&s, &input, &out);
    let released = std::fs::read_to_string(&out).expect("the released document");
    let lower = released.to_lowercase();
    assert!(
        !lower.contains("jane") && !lower.contains("roe"),
        "{released}"
    );
    for kept in [
        "---\ntitle: ",
        "# Report\n\n**",
        "** read a book about history in the garden.",
        "- See [her page](#",
        "| who | where |\n|---|---|\n| ",
        " | garden |",
        "```\nowner: ",
        "](photo.png)",
    ] {
        assert!(released.contains(kept), "{kept:?} is kept: {released}");
    }
}
