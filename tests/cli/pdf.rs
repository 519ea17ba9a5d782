//! PDF files in, a new PDF out: the file is built inside the test with what PDF releases
//! famously leak — a "redaction" drawn as a black box over text still in the file, a name
//! split across text operators, an annotation, an information dictionary, an image — and
//! no form of the protected name may remain in any object or decompressed stream of the
//! output, which an independent reader (poppler's `pdftotext`) reads as declass's
//! sanitized text.

use std::path::Path;
use std::process::Command;

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};

use crate::common::{Setup, assert_clean_failure, assert_success, hidden_lists, setup};

/// A two-page PDF about Jane Roe: on page one her name is split over two text operators
/// and covered by a black rectangle, as a careless redaction leaves it; page two names
/// her again and carries an image. The file has an author and an annotation naming her.
fn leaky_pdf(with_text: bool) -> Vec<u8> {
    leaky_pdf_in(
        with_text,
        dictionary! { "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Times-Roman" },
    )
}

/// [`leaky_pdf`] with its text in `font`.
fn leaky_pdf_in(with_text: bool, font: lopdf::Dictionary) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(font);
    let image_id = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 1, "Height" => 1,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        vec![0],
    ));
    let resources_id = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
        "XObject" => dictionary! { "Im1" => image_id },
    });
    let text = |lines: &[&[&str]]| {
        let mut operations = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("TL", vec![15.into()]),
            Operation::new("Td", vec![72.into(), 700.into()]),
        ];
        for pieces in lines {
            for piece in *pieces {
                operations.push(Operation::new("Tj", vec![Object::string_literal(*piece)]));
            }
            operations.push(Operation::new("T*", vec![]));
        }
        operations.push(Operation::new("ET", vec![]));
        operations
    };
    let mut first = if with_text {
        text(&[
            &["Memorandum on the audit."],
            &[],
            &["The auditor, Ja", "ne Roe, met the board in Leeds."],
        ])
    } else {
        Vec::new()
    };
    // The "redaction": a black box drawn over the name, the text left under it.
    first.extend([
        Operation::new("rg", vec![0.into(), 0.into(), 0.into()]),
        Operation::new("re", vec![150.into(), 680.into(), 60.into(), 14.into()]),
        Operation::new("f", vec![]),
    ]);
    let mut second = if with_text {
        text(&[&["Roe signed the report."]])
    } else {
        Vec::new()
    };
    second.extend([
        Operation::new("q", vec![]),
        Operation::new(
            "cm",
            vec![
                50.into(),
                0.into(),
                0.into(),
                50.into(),
                72.into(),
                400.into(),
            ],
        ),
        Operation::new("Do", vec!["Im1".into()]),
        Operation::new("Q", vec![]),
    ]);
    let annotation_id = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Text",
        "Rect" => vec![0.into(), 0.into(), 10.into(), 10.into()],
        "Contents" => Object::string_literal("Checked with Jane Roe"),
    });
    let mut kids = Vec::new();
    for (index, operations) in [first, second].into_iter().enumerate() {
        let content = Content { operations }.encode().expect("content");
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        };
        if index == 0 {
            page.set("Annots", vec![annotation_id.into()]);
        }
        kids.push(doc.add_object(page).into());
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => 2, "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    let info_id = doc.add_object(dictionary! { "Author" => Object::string_literal("Jane Roe") });
    doc.trailer.set("Root", catalog_id);
    doc.trailer.set("Info", info_id);
    let mut bytes = Vec::new();
    doc.save_to(&mut bytes).expect("save");
    bytes
}

/// Every byte of a PDF with its streams decompressed, lowercased.
pub(crate) fn everything_in(pdf: &[u8]) -> String {
    let doc = Document::load_mem(pdf).expect("the output is a PDF");
    let mut out = pdf.to_vec();
    for object in doc.objects.values() {
        if let Object::Stream(stream) = object {
            out.extend(
                stream
                    .decompressed_content()
                    .unwrap_or_else(|_| stream.content.clone()),
            );
        }
    }
    String::from_utf8_lossy(&out).to_lowercase()
}

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

fn sanitize(s: &Setup, input: &Path, args: &[&str]) -> std::process::Output {
    s.declass()
        .arg("sanitize")
        .arg(input)
        .args(["--protect", "Jane Roe"])
        .args(args)
        .output()
        .expect("run")
}

#[test]
fn a_pdf_is_typeset_anew_from_its_sanitized_text_with_nothing_of_the_original_left() {
    let s = setup();
    let input = s.root.join("memo.pdf");
    std::fs::write(&input, leaky_pdf(true)).expect("write the PDF");
    let out = s.root.join("released.pdf");
    assert_success(&sanitize(
        &s,
        &input,
        &["--out", out.to_str().expect("path")],
    ));
    let released = std::fs::read(&out).expect("output");
    assert!(released.starts_with(b"%PDF-"));
    let everything = everything_in(&released);
    for gone in ["jane", "roe", "times-roman", "author", "annot", "/image"] {
        assert!(!everything.contains(gone), "{gone} left in the output PDF");
    }
    assert_eq!(
        Document::load_mem(&released)
            .expect("PDF")
            .get_pages()
            .len(),
        2
    );

    let report = sanitize(&s, &input, &["--format", "json"]);
    assert_success(&report);
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).expect("JSON");
    let text = report["sanitized_text"].as_str().expect("sanitized text");
    assert!(text.contains("Memorandum on the audit."), "{text}");
    assert!(!text.contains("Roe") && !text.contains("Jane"), "{text}");

    // An independent reader sees exactly the sanitized text, page by page.
    let read = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(&out)
        .arg("-")
        .output()
        .expect("pdftotext (Debian package poppler-utils) must be installed");
    assert_success(&read);
    let shown = String::from_utf8(read.stdout).expect("UTF-8");
    assert_eq!(words(&shown), words(text), "pdftotext: {shown}");

    let hidden = &report["hidden_content"];
    let has = |part: &str, content: &str| hidden_lists(&report, part, "content", content);
    assert!(has("Info dictionary", "document properties"), "{hidden:?}");
    assert!(has("annotations", "annotations"), "{hidden:?}");
    assert!(has("images", "images on the pages"), "{hidden:?}");
    assert!(has("pages", "page content streams"), "{hidden:?}");

    let again = s.root.join("again.pdf");
    assert_success(&sanitize(
        &s,
        &input,
        &["--out", again.to_str().expect("path")],
    ));
    assert_eq!(std::fs::read(&again).expect("output"), released);
}

#[test]
fn a_scanned_or_damaged_pdf_is_refused_by_name_and_nothing_is_written() {
    let s = setup();
    let scanned = s.root.join("scan.pdf");
    std::fs::write(&scanned, leaky_pdf(false)).expect("write");
    let out = s.root.join("out.pdf");
    let run = sanitize(&s, &scanned, &["--out", out.to_str().expect("path")]);
    assert_clean_failure(&run, &["scan.pdf", "no text layer", "needs OCR"]);
    assert!(!out.exists());

    let cut = s.root.join("cut.pdf");
    let whole = leaky_pdf(true);
    std::fs::write(&cut, &whole[..whole.len() / 3]).expect("write");
    let run = sanitize(&s, &cut, &["--out", out.to_str().expect("path")]);
    assert_clean_failure(&run, &["cut.pdf"]);
    assert!(!out.exists());

    // A composite font without its descendant: the extractor gives up on the page (it
    // panics inside), which is this file's error, said without the extractor's message.
    let broken = s.root.join("broken.pdf");
    std::fs::write(
        &broken,
        leaky_pdf_in(
            true,
            dictionary! {
                "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "Jane-Roe-Font",
                "Encoding" => "Identity-H",
            },
        ),
    )
    .expect("write");
    let run = sanitize(&s, &broken, &["--out", out.to_str().expect("path")]);
    assert_clean_failure(
        &run,
        &["broken.pdf", "page 1", "its fonts or content are damaged"],
    );
    assert!(!String::from_utf8_lossy(&run.stderr).contains("Jane"));
    assert!(!out.exists());

    let fake = s.root.join("fake.pdf");
    std::fs::write(&fake, "plain text named as a PDF").expect("write");
    let run = sanitize(&s, &fake, &["--out", out.to_str().expect("path")]);
    assert_clean_failure(&run, &["fake.pdf", "no PDF header"]);
    assert!(!out.exists());
}
