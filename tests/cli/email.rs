//! E-mail in, e-mail out: a message built inside the test names Jane Roe in its header
//! fields, its plain and HTML bodies, an attached Word file and an attached picture; the
//! released message, every part decoded and the Word file unzipped, names her nowhere.

use base64::Engine as _;
use mail_parser::{HeaderName, Message, MessageParser, MimeHeaders, PartType};

use crate::common::{
    Setup, assert_clean_failure, assert_success, hidden_lists, setup, stdout_json,
};
use crate::formats::{assert_nowhere, png_naming, release, unzip, zip};

const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// A small Word file about Jane Roe.
fn docx() -> Vec<u8> {
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body><w:p><w:r><w:t>Report by Jane Roe</w:t></w:r></w:p><w:p><w:r><w:t>The roses grew well.</w:t></w:r></w:p></w:body></w:document>"#
    );
    let types = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
    let core = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>Jane Roe</dc:creator></cp:coreProperties>"#;
    zip(
        &[
            ("[Content_Types].xml", types.as_bytes().to_vec()),
            ("word/document.xml", document.into_bytes()),
            ("docProps/core.xml", core.as_bytes().to_vec()),
        ],
        false,
    )
}

/// `bytes` in base64, in lines of 76 characters.
fn base64_lines(bytes: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    encoded
        .as_bytes()
        .chunks(76)
        .map(|line| format!("{}\r\n", String::from_utf8_lossy(line)))
        .collect()
}

/// A message from Jane Roe: routing and identifiers naming her, a plain and an HTML
/// body, her report attached and her picture.
fn message() -> Vec<u8> {
    format!(
        "Return-Path: <jane.roe@example.com>\r\n\
         Received: from jane-roe-laptop.example.com by mx.example.org; Mon, 1 Jan 2024 10:00:00 +0000\r\n\
         Message-ID: <20240101.jane.roe@example.com>\r\n\
         Date: Mon, 1 Jan 2024 10:00:00 +0000\r\n\
         From: Jane Roe <jane.roe@example.com>\r\n\
         To: Garden Team <team@example.org>\r\n\
         Subject: Jane Roe and the garden\r\n\
         MIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"outer\"\r\n\
         \r\n\
         --outer\r\n\
         Content-Type: multipart/alternative; boundary=\"inner\"\r\n\
         \r\n\
         --inner\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\
         \r\n\
         Jane Roe read a book about history in the garden.\r\n\r\nMusic helps.\r\n\
         --inner\r\n\
         Content-Type: text/html; charset=utf-8\r\n\
         \r\n\
         <html><body><p>Jane Roe read a book about history in the garden.</p>\
         <p><img src=\"cid:photo\" alt=\"Jane Roe at home\"> Music helps.</p></body></html>\r\n\
         --inner--\r\n\
         --outer\r\n\
         Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document; name=\"jane-roe-report.docx\"\r\n\
         Content-Disposition: attachment; filename=\"jane-roe-report.docx\"\r\n\
         Content-Transfer-Encoding: base64\r\n\
         \r\n\
         {}\
         --outer\r\n\
         Content-Type: image/png; name=\"jane.png\"\r\n\
         Content-Disposition: attachment; filename=\"jane.png\"\r\n\
         Content-ID: <photo>\r\n\
         Content-Transfer-Encoding: base64\r\n\
         \r\n\
         {}\
         --outer--\r\n",
        base64_lines(&docx()),
        base64_lines(&png_naming("Jane Roe")),
    )
    .into_bytes()
}

fn parse(bytes: &[u8]) -> Message<'_> {
    MessageParser::new()
        .with_mime_headers()
        .with_address_headers()
        .header_text(HeaderName::Subject)
        .parse(bytes)
        .expect("a message")
}

/// What a reader of the message can see, part by part: each part's header as written,
/// each leaf's decoded content, and each entry of a ZIP package unzipped.
fn everything(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let message = parse(bytes);
    let mut seen = Vec::new();
    for (index, part) in message.parts.iter().enumerate() {
        let header = &bytes[part.offset_header as usize..part.offset_body as usize];
        seen.push((format!("header of part {index}"), header.to_vec()));
        let content = part.contents().to_vec();
        if content.starts_with(b"PK\x03\x04") {
            for (name, entry) in unzip(&content) {
                seen.push((format!("part {index}: {name}"), entry));
            }
        } else if !matches!(part.body, PartType::Multipart(_)) {
            seen.push((format!("part {index}"), content));
        }
    }
    seen
}

/// The message `declass sanitize INPUT --protect "Jane Roe" --out OUT` writes.
fn released_message(s: &Setup, input: &std::path::Path, out: &std::path::Path) -> Vec<u8> {
    release(s, input, out);
    std::fs::read(out).expect("the released message")
}

#[test]
fn an_e_mail_keeps_its_structure_and_loses_every_trace_of_the_name() {
    let s = setup();
    let input = s.root.join("message.eml");
    std::fs::write(&input, message()).expect("write the message");
    let released = released_message(&s, &input, &s.root.join("released.eml"));
    let seen = everything(&released);
    assert_nowhere(&seen, &["jane", "roe"]);
    let message = parse(&released);
    // The header fields that name nobody are gone; the recipient, who is not protected,
    // stays; the sender's address is no one's.
    let text = String::from_utf8_lossy(&released);
    for gone in [
        "Return-Path",
        "Received",
        "Message-ID",
        "Date:",
        "Content-ID",
        "image/png",
    ] {
        assert!(!text.contains(gone), "{gone}: {text}");
    }
    let to = message.to().and_then(|a| a.first()).expect("To");
    // Every address the sanitizer replaced (the detector of e-mail addresses replaces
    // both) is no one's.
    let from = message.from().and_then(|a| a.first()).expect("From");
    for address in [from.address(), to.address()] {
        assert!(
            address.is_some_and(|a| a.ends_with("@sanitized.invalid")),
            "{address:?}"
        );
    }
    let subject = message.subject().expect("Subject");
    assert!(subject.ends_with(" and the garden"), "{subject}");
    // multipart/mixed: the alternative (plain and HTML) and the Word file; the picture
    // is gone.
    assert!(message.root_part().is_content_type("multipart", "mixed"));
    let plain = message.body_text(0).expect("the plain body");
    assert!(
        plain.ends_with(" read a book about history in the garden.\r\n\r\nMusic helps."),
        "{plain}"
    );
    let html = message.body_html(0).expect("the HTML body");
    assert!(
        html.starts_with("<html><body><p>")
            && html.contains("<img src=\"cid:photo\" alt=\"")
            && html.contains(" Music helps.</p></body></html>"),
        "{html}"
    );
    assert_eq!(message.attachment_count(), 1, "{text}");
    let report = message.attachment(0).expect("the Word file");
    assert!(report.is_content_type(
        "application",
        "vnd.openxmlformats-officedocument.wordprocessingml.document"
    ));
    // Its name loses the person, not its extension.
    assert_eq!(report.attachment_name(), Some("a person.docx"));
    let entries = unzip(report.contents());
    let document = &entries
        .iter()
        .find(|(name, _)| name == "word/document.xml")
        .expect("still a Word file")
        .1;
    let document = String::from_utf8_lossy(document);
    assert!(
        document.contains("<w:t>The roses grew well.</w:t>"),
        "{document}"
    );
    // Same input, same bytes.
    let again = released_message(&s, &input, &s.root.join("again.eml"));
    assert_eq!(again, released);
}

#[test]
fn the_report_of_an_e_mail_lists_the_removed_fields_and_parts() {
    let s = setup();
    let dir = s.root.join("mail");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("message.eml"), message()).expect("write the message");
    let report = stdout_json(
        s.declass()
            .arg("sanitize")
            .arg(dir.join("message.eml"))
            .args(["--protect", "Jane Roe", "--format", "json"]),
    );
    let hidden = &report["hidden_content"];
    let has = |part: &str, action: &str| hidden_lists(&report, part, "action", action);
    for field in ["Return-Path", "Received", "Message-ID", "Date"] {
        assert!(has(field, "removed"), "{field}: {hidden:?}");
    }
    assert!(has("part 3 (image/png)", "removed"), "{hidden:?}");
    assert!(has("part 2: docProps/core.xml", "removed"), "{hidden:?}");
    let text = report["sanitized_text"].as_str().expect("text");
    assert!(text.contains("The roses grew well."), "{text}");
    assert!(!text.contains("Roe"), "{text}");
    // A directory of messages is written one file each, under their own names.
    let out = s.root.join("released");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&dir)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    assert_success(&run);
    let released = std::fs::read(out.join("message.eml")).expect("the released message");
    assert_nowhere(&everything(&released), &["jane", "roe"]);
}

#[test]
fn a_damaged_or_encrypted_message_is_refused_by_name() {
    let s = setup();
    let whole = message();
    let cut = s.root.join("cut.eml");
    std::fs::write(&cut, &whole[..whole.len() / 2]).expect("write");
    let out = s.root.join("cut-released.eml");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&cut)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    assert_clean_failure(&run, &["cut.eml", "damaged"]);
    assert!(!out.exists());
    let encrypted = s.root.join("secret.eml");
    std::fs::write(
        &encrypted,
        "From: Jane Roe <jane.roe@example.com>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\"; boundary=\"e\"\r\n\r\n\
         --e\r\nContent-Type: application/pgp-encrypted\r\n\r\nVersion: 1\r\n\
         --e\r\nContent-Type: application/octet-stream\r\n\r\n-----BEGIN PGP MESSAGE-----\r\n\
         hQEMA\r\n-----END PGP MESSAGE-----\r\n--e--\r\n",
    )
    .expect("write");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&encrypted)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    assert_clean_failure(&run, &["secret.eml", "encrypted"]);
    assert!(!out.exists());
    let broken = s.root.join("broken.eml");
    let attachment = base64_lines(b"PK\x03\x04 not really a package");
    std::fs::write(
        &broken,
        format!(
            "From: ann@example.net\r\nContent-Type: multipart/mixed; boundary=\"m\"\r\n\r\n\
             --m\r\nContent-Type: text/plain\r\n\r\nSee the report.\r\n\
             --m\r\nContent-Type: application/octet-stream\r\n\
             Content-Disposition: attachment; filename=\"report.docx\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{attachment}--m--\r\n"
        ),
    )
    .expect("write");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&broken)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&out)
        .output()
        .expect("run");
    assert_clean_failure(&run, &["broken.eml", "part 2", "damaged"]);
    // The attachment is named by its place: its file name may name the person.
    assert!(!String::from_utf8_lossy(&run.stderr).contains("report.docx"));
    assert!(!out.exists());
}
