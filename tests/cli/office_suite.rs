//! Documents an office suite wrote, released and read back by independent readers. The
//! fixtures in `tests/fixtures/office/` were saved by LibreOffice (`scripts/office_fixtures.py`)
//! from one memorandum naming Jane Roe in its tracked changes, a comment, the header, a
//! footnote, the document properties and an image's EXIF and alternative text. After
//! `declass sanitize`, no form of the name may remain in any part or decompressed stream,
//! LibreOffice itself must open the Word and OpenDocument outputs (converted to text
//! headless) and poppler's `pdftotext` the PDF, and what they read must be declass's
//! sanitized text.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{Setup, assert_success, setup};
use crate::formats::{assert_nowhere, unzip};
use crate::pdf::everything_in;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/office")
        .join(name)
}

fn words(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

/// The sanitized text of `input` as `sanitize --format json` reports it, and the original
/// of every replacement that the sanitized text no longer holds anywhere (so no part of
/// the released file may hold it either).
fn sanitized(s: &Setup, input: &Path) -> (String, Vec<String>) {
    let run = s
        .declass()
        .arg("sanitize")
        .arg(input)
        .args(["--protect", "Jane Roe", "--format", "json"])
        .output()
        .expect("run");
    assert_success(&run);
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).expect("JSON");
    let text = report["sanitized_text"]
        .as_str()
        .expect("sanitized_text")
        .to_string();
    let gone = report["replacements"]
        .as_array()
        .expect("replacements")
        .iter()
        .filter_map(|r| r["original"].as_str())
        .filter(|original| !text.to_lowercase().contains(&original.to_lowercase()))
        .map(str::to_string)
        .collect();
    (text, gone)
}

/// The text LibreOffice reads from `file`, converted headless with a profile of its own.
fn libreoffice_text(s: &Setup, file: &Path) -> String {
    let name = file.file_name().expect("a file name").to_string_lossy();
    let out = s.root.join(format!("libreoffice-{name}"));
    let profile = s.root.join("libreoffice-profile");
    let run = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args([
            "--headless",
            "--norestore",
            "--convert-to",
            "txt:Text (encoded):UTF8",
        ])
        .arg("--outdir")
        .arg(&out)
        .arg(file)
        .output()
        .expect("soffice (Debian package libreoffice-writer-nogui) must be installed");
    assert_success(&run);
    let stem = file.file_stem().expect("a file name");
    std::fs::read_to_string(out.join(stem).with_extension("txt")).unwrap_or_else(|e| {
        panic!(
            "LibreOffice could not open {}: {e}\n{}",
            file.display(),
            String::from_utf8_lossy(&run.stderr)
        )
    })
}

#[test]
fn documents_an_office_suite_wrote_are_released_clean_and_open_in_independent_readers() {
    let s = setup();
    let input = s.root.join("in");
    std::fs::create_dir_all(&input).expect("dir");
    for name in ["memo.docx", "memo.odt", "memo.pdf"] {
        std::fs::copy(fixture(name), input.join(name)).expect("copy the fixture");
    }
    let released = s.root.join("released");
    let run = s
        .declass()
        .arg("sanitize")
        .arg(&input)
        .args(["--protect", "Jane Roe", "--out"])
        .arg(&released)
        .output()
        .expect("run");
    assert_success(&run);

    // No form of the name, and no term the sanitized text no longer holds, is left in any
    // part of a package or any stream of the PDF.
    for name in ["memo.docx", "memo.odt", "memo.pdf"] {
        let (_, gone) = sanitized(&s, &input.join(name));
        assert!(gone.len() >= 3, "{name}: {gone:?}");
        let mut forms: Vec<&str> = vec!["jane", "roe"];
        forms.extend(gone.iter().map(String::as_str));
        let bytes = std::fs::read(released.join(name)).expect("released");
        if name.ends_with(".pdf") {
            let pdf = everything_in(&bytes);
            for form in forms {
                assert!(
                    !pdf.contains(&form.to_lowercase()),
                    "{form} left in the released PDF"
                );
            }
        } else {
            assert_nowhere(&unzip(&bytes), &forms);
        }
    }

    // Unchanged text and its formatting survive in Word's and OpenDocument's markup.
    let word = unzip(&std::fs::read(released.join("memo.docx")).expect("released"));
    let body = crate::formats::part(&word, "word/document.xml");
    assert!(body.contains("The accounts were in order."), "{body}");
    assert!(body.contains("<w:b/>") && body.contains("<w:i/>"), "{body}");

    // LibreOffice opens both packages; its text is declass's body text.
    for file in [released.join("memo.docx"), released.join("memo.odt")] {
        let read = libreoffice_text(&s, &file);
        let (ours, _) = sanitized(&s, &input.join(file.file_name().expect("name")));
        let read_words = words(read.trim_start_matches('\u{feff}'));
        let our_words = words(&ours);
        assert!(read_words.len() >= 20, "{}: {read}", file.display());
        // The body comes first in declass's text (the other parts follow it); LibreOffice
        // writes a footnote's citation mark into the text ("findings1."), where declass
        // reads the note itself.
        let same = read_words.len() <= our_words.len()
            && read_words.iter().zip(&our_words).all(|(theirs, ours)| {
                theirs == ours || theirs.replace(|c: char| c.is_ascii_digit(), "") == **ours
            });
        assert!(
            same,
            "{}: LibreOffice reads\n{read}\ndeclass wrote\n{ours}",
            file.display()
        );
    }

    // pdftotext reads the PDF as declass's sanitized text, word for word.
    let read = Command::new("pdftotext")
        .args(["-enc", "UTF-8"])
        .arg(released.join("memo.pdf"))
        .arg("-")
        .output()
        .expect("pdftotext (Debian package poppler-utils) must be installed");
    assert_success(&read);
    let shown = String::from_utf8(read.stdout).expect("UTF-8");
    let (ours, _) = sanitized(&s, &input.join("memo.pdf"));
    assert_eq!(words(&shown), words(&ours), "pdftotext: {shown}");
}
