//! Messages built by hand: what is read, what is written, what is refused.

use super::write::{edits_by_region, is_plain_address, no_ones_address};
use super::*;
use crate::formats::test_config;
use crate::text::Edit;

/// Reads `message` as the file `m.eml`.
fn open(message: &str) -> Package {
    Package::read(
        Path::new("m.eml"),
        Kind::Email,
        message.as_bytes(),
        &test_config(),
    )
    .expect("read")
}

/// Edits replacing every `word` of the text with `new`, the first word given first
/// where two overlap.
fn replacing(text: &str, words: &[(&str, &str)]) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for (word, new) in words {
        for (at, _) in text.match_indices(word) {
            let range = at..at + word.len();
            if edits
                .iter()
                .all(|e| e.range.end <= range.start || range.end <= e.range.start)
            {
                edits.push(Edit {
                    range,
                    text: new.to_string(),
                });
            }
        }
    }
    edits.sort_by_key(|e| e.range.start);
    edits
}

fn written(package: &Package, edits: &[Edit]) -> String {
    String::from_utf8(package.write(edits).expect("write")).expect("7-bit")
}

fn parsed(bytes: &str) -> Message<'_> {
    MessageParser::new()
        .with_mime_headers()
        .with_address_headers()
        .header_text(HeaderName::Subject)
        .parse(bytes.as_bytes())
        .expect("a message")
}

/// A message that forwards one of Jane Roe's (inline or attached), written with her name
/// and address replaced, after checking the one thing it hides: the inner message's
/// `Received` field, named by the part it stood in.
fn forwarded_with_jane_roe_replaced(package: &Package) -> String {
    assert_eq!(
        hidden(package),
        [(
            "part 2: Received".to_string(),
            "a header field (its value unread)"
        )]
    );
    written(
        package,
        &replacing(
            package.text(),
            &[
                ("Jane Roe", "a person"),
                ("jane.roe@example.com", "an address"),
            ],
        ),
    )
}

fn hidden(package: &Package) -> Vec<(String, &'static str)> {
    package
        .hidden_content()
        .iter()
        .map(|h| (h.part.clone(), h.content))
        .collect()
}

const PLAIN: &str = "Received: from mx.example.com by mail.example.org; Mon, 1 Jan 2024 10:00:00 +0000\r\n\
    Message-ID: <123@mx.example.com>\r\n\
    From: Jane Roe <jane.roe@example.com>\r\n\
    To: Bob Lee <bob@example.org>, ann@example.net\r\n\
    Subject: Lunch with Jane\r\n\
    X-Mailer: Mail 1.0\r\n\
    \r\n\
    Dear Bob,\r\n\r\nJane Roe will come.\r\n";

#[test]
fn the_header_fields_that_name_people_open_the_text_and_the_others_are_listed() {
    let package = open(PLAIN);
    assert_eq!(
        package.text(),
        "From: Jane Roe <jane.roe@example.com>\n\n\
         To: Bob Lee <bob@example.org>, <ann@example.net>\n\n\
         Subject: Lunch with Jane\n\n\
         Dear Bob,\n\nJane Roe will come.\n\n"
    );
    assert_eq!(
        hidden(&package),
        [
            (
                "Message-ID".to_string(),
                "a header field (its value unread)"
            ),
            ("Received".to_string(), "a header field (its value unread)"),
            ("X-Mailer".to_string(), "a header field (its value unread)"),
        ]
    );
}

#[test]
fn a_changed_address_is_written_in_the_invalid_domain_and_the_rest_is_kept() {
    let package = open(PLAIN);
    let edits = replacing(
        package.text(),
        &[
            ("Jane Roe", "a person"),
            ("jane.roe@example.com", "an address"),
            ("Jane", "someone"),
        ],
    );
    let out = written(&package, &edits);
    assert!(!out.contains("Jane") && !out.contains("jane"), "{out}");
    for gone in ["Received", "Message-ID", "X-Mailer", "mx.example.com"] {
        assert!(!out.contains(gone), "{gone}: {out}");
    }
    assert!(
        out.starts_with(
            "From: \"a person\" <an.address@sanitized.invalid>\r\n\
             To: \"Bob Lee\" <bob@example.org>, <ann@example.net>\r\n\
             Subject: Lunch with someone\r\n\
             MIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=\"utf-8\"\r\n"
        ),
        "{out}"
    );
    let message = parsed(&out);
    assert_eq!(
        message.body_text(0).as_deref(),
        Some("Dear Bob,\r\n\r\na person will come.\r\n")
    );
}

#[test]
fn plain_and_html_alternatives_are_both_read_and_keep_their_structure() {
    let message = "From: Jane Roe <jane.roe@example.com>\r\n\
        MIME-Version: 1.0\r\n\
        Content-Type: multipart/alternative; boundary=\"b1\"\r\n\
        \r\n\
        --b1\r\n\
        Content-Type: text/plain; charset=utf-8\r\n\
        Content-Transfer-Encoding: quoted-printable\r\n\
        \r\n\
        Jane Roe=E2=80=99s photo is att=\r\nached.\r\n\
        --b1\r\n\
        Content-Type: text/html; charset=utf-8\r\n\
        Content-Transfer-Encoding: base64\r\n\
        \r\n\
        PHA+PGltZyBhbHQ9IkphbmUgUm9lIiBzcmM9ImNpZDpwaG90byI+IEphbmUgUm9lIGlzIGhlcmUuPC9wPg==\r\n\
        --b1--\r\n";
    let package = open(message);
    assert_eq!(
        package.text(),
        "From: Jane Roe <jane.roe@example.com>\n\n\
         Jane Roe\u{2019}s photo is attached.\n\n\
         Jane Roe\n\n Jane Roe is here.\n\n"
    );
    let edits = replacing(package.text(), &[("Jane Roe", "a person")]);
    let out = written(&package, &edits);
    assert!(!out.contains("Jane"), "{out}");
    let reread = parsed(&out);
    assert!(
        reread
            .root_part()
            .is_content_type("multipart", "alternative")
    );
    assert_eq!(reread.text_body_count(), 1);
    assert_eq!(
        reread.body_text(0).as_deref(),
        Some("a person\u{2019}s photo is attached.")
    );
    assert_eq!(
        reread.body_html(0).as_deref(),
        Some("<p><img alt=\"a person\" src=\"cid:photo\"> a person is here.</p>")
    );
}

#[test]
fn a_non_ascii_subject_is_read_and_written_as_encoded_words() {
    let package =
        open("From: ann@example.net\r\nSubject: =?utf-8?q?Caf=C3=A9_with_Jane?=\r\n\r\nHello.\r\n");
    assert!(
        package.text().contains("Subject: Café with Jane\n\n"),
        "{}",
        package.text()
    );
    let out = written(&package, &replacing(package.text(), &[("Jane", "Zoë")]));
    assert!(out.contains("Subject: =?utf-8?"), "{out}");
    assert_eq!(parsed(&out).subject(), Some("Café with Zoë"));
}

#[test]
fn an_image_goes_and_an_attachment_s_name_is_sanitized() {
    let message = "From: ann@example.net\r\n\
        Content-Type: multipart/mixed; boundary=\"m\"\r\n\
        \r\n\
        --m\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        See the files.\r\n\
        --m\r\n\
        Content-Type: image/png; name=\"jane.png\"\r\n\
        Content-Disposition: attachment; filename=\"jane.png\"\r\n\
        Content-Transfer-Encoding: base64\r\n\
        Content-ID: <photo@example.net>\r\n\
        \r\n\
        iVBORw0KGgo=\r\n\
        --m\r\n\
        Content-Type: text/plain; charset=us-ascii\r\n\
        Content-Disposition: attachment; filename=\"Jane Roe notes.txt\"\r\n\
        \r\n\
        Notes by Jane Roe.\r\n\
        --m--\r\n";
    let package = open(message);
    assert_eq!(
        package.text(),
        "From: <ann@example.net>\n\n\
         See the files.\n\n\
         Attachment: Jane Roe notes.txt\n\n\
         Notes by Jane Roe.\n\n"
    );
    assert_eq!(
        hidden(&package),
        [(
            "part 2 (image/png)".to_string(),
            "a part or attachment declass cannot read"
        )]
    );
    let out = written(
        &package,
        &replacing(package.text(), &[("Jane Roe", "a person")]),
    );
    assert!(!out.contains("Jane") && !out.contains("jane"), "{out}");
    assert!(
        !out.contains("image/png") && !out.contains("Content-ID"),
        "{out}"
    );
    let reread = parsed(&out);
    assert_eq!(reread.attachment_count(), 1);
    let attachment = reread.attachment(0).expect("the notes");
    assert_eq!(attachment.attachment_name(), Some("a person notes.txt"));
    assert_eq!(attachment.text_contents(), Some("Notes by a person."));
}

#[test]
fn the_same_message_gives_the_same_bytes() {
    let message = "From: ann@example.net\r\n\
        Content-Type: multipart/mixed; boundary=\"m\"\r\n\r\n\
        --m\r\nContent-Type: text/plain\r\n\r\nOne.\r\n\
        --m\r\nContent-Type: multipart/alternative; boundary=\"n\"\r\n\r\n\
        --n\r\nContent-Type: text/plain\r\n\r\nTwo.\r\n\
        --n\r\nContent-Type: text/html\r\n\r\n<p>Two.</p>\r\n--n--\r\n\
        --m--\r\n";
    let first = written(&open(message), &[]);
    let second = written(&open(message), &[]);
    assert_eq!(first, second);
    let boundaries: Vec<&str> = first
        .match_indices("boundary=\"declass-")
        .map(|(at, _)| &first[at + 10..at + 10 + 32])
        .collect();
    assert_eq!(boundaries.len(), 2, "{first}");
    assert_ne!(boundaries[0], boundaries[1]);
    let reread = parsed(&first);
    assert_eq!(reread.body_text(1).as_deref(), Some("Two."));
}

#[test]
fn damaged_and_encrypted_messages_are_refused() {
    let cut = "From: ann@example.net\r\nContent-Type: multipart/mixed; boundary=\"m\"\r\n\r\n\
               --m\r\nContent-Type: text/plain\r\n\r\nOne.\r\n";
    let error = Package::read(
        Path::new("m.eml"),
        Kind::Email,
        cut.as_bytes(),
        &test_config(),
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(error.starts_with("m.eml: body: damaged"), "{error}");
    let encrypted = "From: ann@example.net\r\nContent-Type: application/pkcs7-mime; smime-type=enveloped-data\r\n\
                     Content-Transfer-Encoding: base64\r\n\r\nMIAGCSqGSIb3DQEHA6CAMIACAQAx\r\n";
    let error = Package::read(
        Path::new("m.eml"),
        Kind::Email,
        encrypted.as_bytes(),
        &test_config(),
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(error.contains("encrypted"), "{error}");
    let empty = Package::read(Path::new("m.eml"), Kind::Email, b"", &test_config())
        .err()
        .expect("refused")
        .to_string();
    assert_eq!(empty, "m.eml: no e-mail header: damaged, or not an e-mail");
}

#[test]
fn only_a_file_that_opens_with_a_message_header_is_an_e_mail() {
    assert!(opens_with_header(PLAIN.as_bytes()));
    assert!(opens_with_header(b"From: a@b.c\nTo: d@e.f\n\nHi.\n"));
    assert!(!opens_with_header(
        b"Notes\n\nFrom: a@b.c\nTo: d@e.f\n\nHi.\n"
    ));
    assert!(!opens_with_header(b"Subject: x\nDate: today\n\nHi.\n"));
    assert!(!opens_with_header(b"From: a@b.c\nTo: d@e.f\n"));
    assert!(!opens_with_header(b"From: a@b.c\nnot a field\n\n"));
}

#[test]
fn an_edit_across_two_regions_puts_its_text_in_the_first() {
    let regions = [0..4, 6..10, 12..14];
    let edits = [Edit {
        range: 2..8,
        text: "X".into(),
    }];
    let split = edits_by_region(&edits, &regions);
    assert_eq!(
        split[0],
        [Edit {
            range: 2..4,
            text: "X".into()
        }]
    );
    assert_eq!(
        split[1],
        [Edit {
            range: 6..8,
            text: String::new()
        }]
    );
    assert!(split[2].is_empty());
}

#[test]
fn addresses_that_are_no_plain_address_become_no_one_s() {
    assert!(is_plain_address("jane.roe@example.com"));
    assert!(!is_plain_address("Jane Roe"));
    assert!(!is_plain_address("a..b@example.com"));
    assert_eq!(no_ones_address("a person"), "a.person@sanitized.invalid");
    assert_eq!(
        no_ones_address("[EMAIL]@example.com"),
        "EMAIL@sanitized.invalid"
    );
    assert_eq!(no_ones_address(""), "undisclosed@sanitized.invalid");
}

#[test]
fn a_file_name_s_extension_stays_apart_from_its_stem() {
    assert_eq!(split_extension("jane-roe.docx"), ("jane-roe", ".docx"));
    assert_eq!(split_extension("notes.tar.gz"), ("notes.tar", ".gz"));
    assert_eq!(split_extension("Jane Roe"), ("Jane Roe", ""));
    assert_eq!(split_extension(".profile"), (".profile", ""));
    assert_eq!(split_extension("a.Jane Roe"), ("a.Jane Roe", ""));
}

#[test]
fn a_message_inside_the_message_is_read_and_written_as_one() {
    let message = "From: ann@example.net\r\n\
        Subject: Fwd: the report\r\n\
        Content-Type: multipart/mixed; boundary=\"m\"\r\n\
        \r\n\
        --m\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        See below.\r\n\
        --m\r\n\
        Content-Type: message/rfc822\r\n\
        Content-Disposition: inline\r\n\
        \r\n\
        Received: by mx.example.com\r\n\
        From: Jane Roe <jane.roe@example.com>\r\n\
        Subject: The report\r\n\
        Content-Type: multipart/alternative; boundary=\"n\"\r\n\
        \r\n\
        --n\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        Written by Jane Roe.\r\n\
        --n\r\n\
        Content-Type: text/html\r\n\
        \r\n\
        <p>Written by Jane Roe.</p>\r\n\
        --n--\r\n\
        --m--\r\n";
    let package = open(message);
    assert_eq!(
        package.text(),
        "From: <ann@example.net>\n\n\
         Subject: Fwd: the report\n\n\
         See below.\n\n\
         From: Jane Roe <jane.roe@example.com>\n\n\
         Subject: The report\n\n\
         Written by Jane Roe.\n\n\
         Written by Jane Roe.\n\n"
    );
    let out = forwarded_with_jane_roe_replaced(&package);
    assert!(!out.contains("Jane") && !out.contains("jane"), "{out}");
    assert!(
        out.contains("Content-Type: message/rfc822\r\nContent-Transfer-Encoding: 7bit\r\nContent-Disposition: inline\r\n\r\nFrom: \"a person\" <an.address@sanitized.invalid>\r\n"),
        "{out}"
    );
    let reread = parsed(&out);
    let inner = reread
        .attachment(0)
        .and_then(|p| p.message())
        .expect("the message inside");
    assert!(
        inner
            .root_part()
            .is_content_type("multipart", "alternative")
    );
    assert_eq!(
        inner.body_html(0).as_deref(),
        Some("<p>Written by a person.</p>")
    );
}

#[test]
fn messages_nested_too_deep_are_refused() {
    let mut message = "From: ann@example.net\r\n\r\nThe end.\r\n".to_string();
    for _ in 0..=MAX_NESTED_MESSAGES {
        message = format!("From: ann@example.net\r\nContent-Type: message/rfc822\r\n\r\n{message}");
    }
    let error = Package::read(
        Path::new("m.eml"),
        Kind::Email,
        message.as_bytes(),
        &test_config(),
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(error.contains("nested more than 32 deep"), "{error}");
}

#[test]
fn a_signed_message_loses_its_signature_and_keeps_its_content() {
    let message = "From: ann@example.net\r\n\
        Content-Type: multipart/signed; protocol=\"application/pgp-signature\"; boundary=\"s\"\r\n\
        \r\n\
        --s\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        Signed by Jane.\r\n\
        --s\r\n\
        Content-Type: application/pgp-signature\r\n\
        \r\n\
        -----BEGIN PGP SIGNATURE-----\r\niQEz\r\n-----END PGP SIGNATURE-----\r\n\
        --s--\r\n";
    let package = open(message);
    assert_eq!(
        hidden(&package),
        [("part 2".to_string(), "the signature of a signed message")]
    );
    let out = written(&package, &[]);
    assert!(
        !out.contains("multipart/signed") && !out.contains("PGP"),
        "{out}"
    );
    assert_eq!(
        parsed(&out).body_text(0).as_deref(),
        Some("Signed by Jane.")
    );
}

#[test]
fn a_flowed_text_is_read_with_its_soft_line_breaks_undone() {
    let flowed = "Dear Jane \nRoe,\n> quoted \n> line\n>> deeper\n \nFrom here\n-- \nAnn\n";
    assert_eq!(
        unflowed(flowed, false),
        "Dear Jane Roe,\n> quoted line\n>> deeper\n\nFrom here\n-- \nAnn\n"
    );
    assert_eq!(unflowed("Jane \nRoe", true), "JaneRoe");
    let package = open(
        "From: ann@example.net\r\nContent-Type: text/plain; format=flowed\r\n\r\nDear Jane \r\nRoe, hello.\r\n",
    );
    assert!(
        package.text().ends_with("Dear Jane Roe, hello.\n\n"),
        "{}",
        package.text()
    );
}

#[test]
fn an_attached_e_mail_file_is_sanitized_in_its_own_format() {
    let attached =
        "Received: by mx\r\nFrom: Jane Roe <jane.roe@example.com>\r\n\r\nJane Roe wrote.\r\n";
    let message = format!(
        "From: ann@example.net\r\nContent-Type: multipart/mixed; boundary=\"m\"\r\n\r\n\
         --m\r\nContent-Type: text/plain\r\n\r\nForwarded.\r\n\
         --m\r\nContent-Type: application/octet-stream\r\n\
         Content-Disposition: attachment; filename=\"old.eml\"\r\n\r\n{attached}--m--\r\n"
    );
    let package = open(&message);
    assert!(
        package.text().ends_with(
            "Attachment: old.eml\n\nFrom: Jane Roe <jane.roe@example.com>\n\nJane Roe wrote.\n\n"
        ),
        "{}",
        package.text()
    );
    let out = forwarded_with_jane_roe_replaced(&package);
    let reread = parsed(&out);
    let attachment = reread.attachment(0).expect("the attached message");
    assert_eq!(attachment.attachment_name(), Some("old.eml"));
    let inner = parsed(std::str::from_utf8(attachment.contents()).expect("7-bit"));
    assert_eq!(
        inner
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address()),
        Some("an.address@sanitized.invalid")
    );
    assert_eq!(inner.body_text(0).as_deref(), Some("a person wrote."));
}
