//! Documents in their own formats: a word-processing package (DOCX, ODT), a web page
//! (HTML), a Markdown file, an e-mail (`.eml`) or a PDF read into the text the sanitizer
//! works on, and written back in its format with the sanitized text in place of the
//! original, its formatting kept (a PDF is typeset anew from its sanitized text: see
//! [`pdf`]). What a release famously leaks besides the
//! text — tracked deletions, comment authors, document properties, alternative text of
//! images, image metadata, thumbnails, embedded objects — is removed or cleared, and a
//! part this module cannot read is removed, never copied blind; [`HiddenContent`] lists
//! each.

mod docx;
mod email;
mod html;
mod image;
mod markdown;
mod odt;
mod parts;
pub mod pdf;
mod xml;

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::text::Edit;
use xml::{TextPiece, XmlPart};

/// The formats read and written in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Office Open XML word processing (Word's `.docx`).
    Docx,
    /// OpenDocument text (LibreOffice's `.odt`).
    Odt,
    /// A web page (`.html`, `.htm`, or text that opens as one).
    Html,
    /// A Markdown document (`.md`, `.markdown`).
    Markdown,
    /// A PDF file: its text read page by page, the output typeset anew.
    Pdf,
    /// An e-mail (`.eml`, or text that opens with a message's header fields).
    Email,
}

/// How documents in their own formats are read and written (`[formats]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormatsConfig {
    /// The most a package may unpack to, in bytes: a small document that unpacks to
    /// gigabytes is an attack on the machine, not a document.
    pub max_unpacked_bytes: u64,
    /// How a sanitized PDF is typeset.
    pub pdf: pdf::PdfLayout,
}

impl Kind {
    /// The format of a file, by its content: a ZIP package whose parts say what it is (an
    /// ODF `mimetype`, an OOXML main document), or a web page (by its extension or its
    /// opening `<!DOCTYPE html` / `<html`); `None` for text. A Word file that is not a ZIP
    /// package (encrypted, or the binary `.doc`) and a package of another kind are errors
    /// naming the file, not text: their bytes are no document to sanitize as text.
    pub fn sniff(path: &Path, bytes: &[u8]) -> Result<Option<Kind>> {
        const ZIP: &[u8] = b"PK\x03\x04";
        const COMPOUND: &[u8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1";
        // A PDF opens with its header; in a file named .pdf it may follow up to 1,024 bytes
        // of anything (PDF 32000-1, annex H.3).
        let named_pdf = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdf"));
        if bytes.starts_with(b"%PDF-")
            || (named_pdf
                && bytes[..bytes.len().min(1024)]
                    .windows(5)
                    .any(|w| w == b"%PDF-"))
        {
            return Ok(Some(Kind::Pdf));
        }
        if bytes.starts_with(COMPOUND) {
            return Err(Error::input(
                path,
                "an encrypted Office file or a legacy binary one (.doc): save it unencrypted \
                 as .docx or .odt first",
            ));
        }
        if !bytes.starts_with(ZIP) {
            let extension = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            if extension.as_deref() == Some("eml") {
                return Ok(Some(Kind::Email));
            }
            let head: String = String::from_utf8_lossy(&bytes[..bytes.len().min(512)])
                .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
                .chars()
                .take(14)
                .collect::<String>()
                .to_ascii_lowercase();
            let page = matches!(extension.as_deref(), Some("html" | "htm" | "xhtml"))
                || head.starts_with("<!doctype html")
                || head.starts_with("<html");
            if page {
                return Ok(Some(Kind::Html));
            }
            if matches!(extension.as_deref(), Some("md" | "markdown")) {
                return Ok(Some(Kind::Markdown));
            }
            return Ok(email::opens_with_header(bytes).then_some(Kind::Email));
        }
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| Error::input(path, format!("damaged ZIP package: {e}")))?;
        if let Ok(mut mimetype) = archive.by_name("mimetype") {
            let mut kind = String::new();
            mimetype
                .by_ref()
                .take(200)
                .read_to_string(&mut kind)
                .map_err(|e| Error::input(path, format!("damaged ZIP package: {e}")))?;
            return match kind.trim() {
                "application/vnd.oasis.opendocument.text" => Ok(Some(Kind::Odt)),
                other => Err(Error::input(
                    path,
                    format!(
                        "an OpenDocument package of type {other:?}: only text documents (.odt) are read"
                    ),
                )),
            };
        }
        if archive.by_name("word/document.xml").is_ok() {
            return Ok(Some(Kind::Docx));
        }
        Err(Error::input(
            path,
            "a ZIP archive that is no word-processing document (.docx, .odt)",
        ))
    }
}

/// The package a file holds, if it is one (by content; a file named `.docx` or `.odt`
/// that is no such package is an error, not text).
pub fn open(path: &Path, bytes: &[u8], config: &FormatsConfig) -> Result<Option<Package>> {
    match Kind::sniff(path, bytes)? {
        Some(kind) => Package::read(path, kind, bytes, config).map(Some),
        None => {
            let extension = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            match extension.as_deref() {
                Some(e @ ("docx" | "docm" | "odt")) => Err(Error::input(
                    path,
                    format!("named .{e} but not a ZIP package: damaged, or another format"),
                )),
                Some("pdf") => Err(Error::input(
                    path,
                    "named .pdf but has no PDF header: damaged, or another format",
                )),
                _ => Ok(None),
            }
        }
    }
}

/// A Word or OpenDocument file as read: the package, and the file's bytes (what an output
/// directory's manifest remembers it by: parts beside the text shape the output too).
pub struct PackageFile {
    pub package: Package,
    pub bytes: Vec<u8>,
}

/// The document at `path` (`-`: standard input): its text as the sanitizer reads it, and
/// its package when it is a Word or OpenDocument file. Any other file is checked as text.
pub fn read_document(path: &Path, config: &FormatsConfig) -> Result<(String, Option<PackageFile>)> {
    let (bytes, name) = if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("<stdin>", e))?;
        (bytes, Path::new("<stdin>"))
    } else {
        (std::fs::read(path).map_err(|e| Error::io(path, e))?, path)
    };
    match open(name, &bytes, config)? {
        Some(package) => Ok((package.text.clone(), Some(PackageFile { package, bytes }))),
        None => Ok((crate::io::decode_text(bytes, name)?, None)),
    }
}

/// The text of the document at `path`, as [`read_document`] reads it: for the commands
/// that look at a document without writing it back (`detect`, `assess`, `nlp`).
pub fn read_document_text(path: &Path, config: &FormatsConfig) -> Result<String> {
    read_document(path, config).map(|(text, _)| text)
}

/// What a package held that is not its main text, for [`HiddenContent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Disclosed {
    /// Author names and initials of comments and revisions.
    Author,
    /// When a comment or revision was made.
    RevisionDate,
    /// Text a tracked change deleted or moved away.
    TrackedDeletion,
    /// Text a tracked change inserted: accepted, kept as text.
    TrackedInsertion,
    /// Tracked formatting changes and revision marks.
    RevisionMark,
    /// Document variables and stored field values.
    DocumentVariable,
    /// Default texts, choices and help of form fields; titles of content controls.
    FormField,
    /// The template a document was made from, and mail-merge sources.
    TemplateAndMerge,
    /// Names, titles and descriptions of images and shapes.
    AlternativeText,
    /// Where hyperlinks and linked files point, and their tooltips.
    HyperlinkTarget,
    /// Field instructions with arguments (hyperlinks, file paths, merge text).
    FieldInstruction,
    /// Objects (charts, embedded files, images) whose part was removed.
    EmbeddedObject,
    /// Comments of the markup itself.
    XmlComment,
    /// Scripts of a web page, and what shows where scripts do not run.
    Script,
    /// Document properties: author, last editor, company, title, keywords, custom ones.
    Properties,
    /// A preview image of the first page.
    Thumbnail,
    /// EXIF, XMP, IPTC and text chunks of images.
    ImageMetadata,
    /// Application settings (printer names, view state).
    Settings,
    /// A part this module cannot read (embedded files, macros, fonts, charts…).
    UnreadablePart,
    /// Text of a part beside the body (headers, footers, notes, comments, text boxes).
    PartText,
    /// A note's custom mark (in place of its number), which is sanitized as text too.
    NoteMark,
    /// A PDF page's content streams, fonts and drawings: the text is typeset anew.
    PageLayout,
    /// A PDF page with no text to read (a scanned image): it is written empty.
    PageWithoutText,
    /// PDF form fields and their values.
    FormData,
    /// Actions a PDF runs when opened or when a page is shown.
    Action,
    /// PDF annotations: comments, highlights, stamps, links, redaction marks.
    Annotation,
    /// PDF bookmarks (the outline).
    Bookmark,
    /// Files attached to a PDF.
    Attachment,
    /// Images drawn on a PDF's pages.
    PageImage,
    /// An e-mail's header fields beside its sender, recipients and subject (routing,
    /// dates, identifiers, signatures, the mail program), listed by name.
    MailHeader,
    /// An e-mail's part in a format declass cannot read (an image, an archive, a program).
    MailAttachment,
    /// The signature of a signed e-mail, which no longer holds once its text changes.
    MailSignature,
}

impl Disclosed {
    fn describe(self) -> (&'static str, &'static str) {
        use Disclosed::*;
        match self {
            Author => ("author names and initials", "cleared"),
            RevisionDate => ("dates of comments and revisions", "removed"),
            TrackedDeletion => ("text of tracked deletions and moves", "removed"),
            TrackedInsertion => ("tracked insertions", "accepted, sanitized as text"),
            RevisionMark => ("tracked formatting changes and revision marks", "removed"),
            DocumentVariable => ("document variables and stored field values", "removed"),
            FormField => (
                "form field defaults, choices and help; control titles",
                "cleared",
            ),
            TemplateAndMerge => ("attached template and mail-merge source", "removed"),
            AlternativeText => ("names, titles and descriptions of images", "cleared"),
            HyperlinkTarget => ("hyperlink and linked-file targets, tooltips", "cleared"),
            FieldInstruction => ("field instructions with arguments", "cleared"),
            EmbeddedObject => ("objects whose part was removed", "removed"),
            XmlComment => ("comments in the markup", "removed"),
            Script => ("scripts", "removed"),
            Properties => ("document properties", "removed"),
            Thumbnail => ("thumbnail of the first page", "removed"),
            ImageMetadata => ("image metadata (EXIF, XMP, IPTC, text chunks)", "removed"),
            Settings => ("application settings", "removed"),
            UnreadablePart => ("a part declass cannot read", "removed"),
            PartText => ("text", "sanitized"),
            NoteMark => (
                "custom marks of notes",
                "cleared (the mark itself sanitized as text)",
            ),
            PageLayout => (
                "page content streams, fonts and layout",
                "not carried over: the sanitized text is typeset anew",
            ),
            PageWithoutText => (
                "pages with no text layer (scanned images)",
                "not carried over: written as empty pages",
            ),
            FormData => ("form fields and their values", "removed"),
            Action => ("actions run on opening or on showing a page", "removed"),
            Annotation => (
                "annotations (comments, highlights, links, redaction marks)",
                "removed",
            ),
            Bookmark => ("bookmarks", "removed"),
            Attachment => ("attached files", "removed"),
            PageImage => ("images on the pages", "not carried over"),
            MailHeader => ("a header field (its value unread)", "removed"),
            MailAttachment => ("a part or attachment declass cannot read", "removed"),
            MailSignature => ("the signature of a signed message", "removed"),
        }
    }
}

/// One kind of hidden content found in one part, and what was done to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HiddenContent {
    /// The part's name inside the package (`word/comments.xml`).
    pub part: String,
    pub content: &'static str,
    pub action: &'static str,
    /// How many were found.
    pub count: usize,
}

/// Hidden content noted while a package is read, counted per part and kind; and what
/// the documents inside it (an e-mail's attachments) listed.
#[derive(Debug, Default)]
pub struct HiddenLog(BTreeMap<(String, Disclosed), usize>, Vec<HiddenContent>);

impl HiddenLog {
    pub fn note(&mut self, part: &str, what: Disclosed) {
        *self.0.entry((part.to_string(), what)).or_default() += 1;
    }

    fn into_list(self) -> Vec<HiddenContent> {
        self.0
            .into_iter()
            .map(|((part, what), count)| {
                let (content, action) = what.describe();
                HiddenContent {
                    part,
                    content,
                    action,
                    count,
                }
            })
            .chain(self.1)
            .collect()
    }
}

/// One entry of a package as it will be written.
struct Entry {
    name: String,
    /// Stored uncompressed (ODF's `mimetype` must be).
    stored: bool,
    content: Content,
}

enum Content {
    /// Written as read.
    Bytes(Vec<u8>),
    /// A part whose text is sanitized: written with the edits that fall in its pieces.
    Text {
        part: Box<XmlPart>,
        pieces: Vec<TextPiece>,
        /// Whether a changed text node needs `xml:space="preserve"` (DOCX `w:t`).
        preserve_space: bool,
    },
}

/// A package entry as read.
struct RawEntry {
    name: String,
    stored: bool,
    bytes: Vec<u8>,
}

/// A document in its own format read for sanitizing.
pub struct Package {
    kind: Kind,
    container: Container,
    text: String,
    hidden: Vec<HiddenContent>,
}

/// What the text of a [`Package`] was read from.
enum Container {
    /// The entries of a ZIP package (DOCX, ODT).
    Zip(Vec<Entry>),
    /// A web page.
    Html(html::Html),
    /// A Markdown document.
    Markdown(markdown::Markdown),
    /// A PDF's pages.
    Pdf(pdf::Pdf),
    /// An e-mail.
    Email(email::Email),
}

impl Package {
    /// Reads a package of `kind` (`path` for errors).
    pub fn read(path: &Path, kind: Kind, bytes: &[u8], config: &FormatsConfig) -> Result<Package> {
        let limit = config.max_unpacked_bytes;
        let mut log = HiddenLog::default();
        let mut text = String::new();
        let container = match kind {
            Kind::Docx => Container::Zip(
                docx::read(unpack(path, bytes, limit)?, &mut text, &mut log)
                    .map_err(|e| e.within(path.display().to_string()))?,
            ),
            Kind::Odt => Container::Zip(
                odt::read(unpack(path, bytes, limit)?, &mut text, &mut log)
                    .map_err(|e| e.within(path.display().to_string()))?,
            ),
            Kind::Html => {
                let source = crate::io::decode_text(bytes.to_vec(), path)?;
                let name = path.display().to_string();
                Container::Html(html::read(&name, source, &mut text, &mut log)?)
            }
            Kind::Markdown => {
                let source = crate::io::decode_text(bytes.to_vec(), path)?;
                let name = path.display().to_string();
                Container::Markdown(markdown::read(&name, source, &mut text)?)
            }
            Kind::Pdf => {
                let name = path.display().to_string();
                Container::Pdf(pdf::read(&name, bytes, &config.pdf, &mut text, &mut log)?)
            }
            Kind::Email => Container::Email(email::read(path, bytes, config, &mut text, &mut log)?),
        };
        Ok(Package {
            kind,
            container,
            text,
            hidden: log.into_list(),
        })
    }

    /// The text the sanitizer reads: the body, then the other text parts, paragraphs
    /// separated by a blank line.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the written document is text (a web page, Markdown, a 7-bit e-mail),
    /// which a terminal can show, rather than a binary package.
    pub fn writes_text(&self) -> bool {
        matches!(
            self.container,
            Container::Html(_) | Container::Markdown(_) | Container::Email(_)
        )
    }

    /// The format it was read as, which it is written in.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// What the package held beside its text and what was done to it.
    pub fn hidden_content(&self) -> &[HiddenContent] {
        &self.hidden
    }

    /// The package with `edits` (over [`Package::text`], in order, disjoint) applied: an
    /// edit's new text goes into the first text node it touches, keeping that run's
    /// formatting, and the other nodes lose what the edit covers. The same input gives
    /// the same bytes: entries keep their order and get a fixed timestamp.
    pub fn write(&self, edits: &[Edit]) -> Result<Vec<u8>> {
        match &self.container {
            Container::Zip(entries) => self.write_zip(entries, edits),
            Container::Html(page) => Ok(page.write(&piece_texts(&self.text, page.pieces(), edits))),
            Container::Markdown(doc) => {
                Ok(doc.write(&piece_texts(&self.text, doc.pieces(), edits)))
            }
            Container::Pdf(doc) => {
                let ranges = doc.ranges();
                let mut pages: Vec<String> = ranges
                    .iter()
                    .map(|r| self.text[r.clone()].to_string())
                    .collect();
                for (index, text) in piece_texts(&self.text, &ranges, edits) {
                    pages[index] = text;
                }
                doc.write(&pages)
            }
            Container::Email(message) => message.write(&self.text, edits),
        }
    }

    fn write_zip(&self, entries: &[Entry], edits: &[Edit]) -> Result<Vec<u8>> {
        // Every text node of the package, in the order of the text.
        let mut nodes: Vec<(usize, usize, Range<usize>)> = entries
            .iter()
            .enumerate()
            .flat_map(|(index, entry)| match &entry.content {
                Content::Text { pieces, .. } => pieces
                    .iter()
                    .map(|p| (index, p.event, p.range.clone()))
                    .collect(),
                Content::Bytes(_) => Vec::new(),
            })
            .collect();
        nodes.sort_by_key(|(_, _, range)| range.start);
        let ranges: Vec<Range<usize>> = nodes.iter().map(|(_, _, r)| r.clone()).collect();
        let mut new_texts: BTreeMap<usize, Vec<(usize, String)>> = BTreeMap::new();
        for (node, text) in piece_texts(&self.text, &ranges, edits) {
            let (entry, event, _) = &nodes[node];
            new_texts.entry(*entry).or_default().push((*event, text));
        }
        for changes in new_texts.values_mut() {
            changes.sort_by_key(|(event, _)| *event);
        }
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let zip_error = |e: zip::result::ZipError| Error::input("<package>", e.to_string());
        for (index, entry) in entries.iter().enumerate() {
            let method = if entry.stored {
                zip::CompressionMethod::Stored
            } else {
                zip::CompressionMethod::Deflated
            };
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(method)
                .last_modified_time(zip::DateTime::default())
                .unix_permissions(0o644);
            let bytes = match &entry.content {
                Content::Bytes(bytes) => std::borrow::Cow::Borrowed(bytes.as_slice()),
                Content::Text {
                    part,
                    preserve_space,
                    ..
                } => {
                    let changes = new_texts.get(&index).map_or(&[][..], Vec::as_slice);
                    std::borrow::Cow::Owned(part.write(&entry.name, changes, *preserve_space)?)
                }
            };
            out.start_file(entry.name.as_str(), options)
                .map_err(zip_error)?;
            out.write_all(&bytes)
                .map_err(|e| Error::input(&entry.name, e.to_string()))?;
        }
        Ok(out.finish().map_err(zip_error)?.into_inner())
    }
}

/// For each piece of `text` (its range, in order, disjoint) an edit touches, its index and
/// new text: an edit's new text goes into the first piece it touches, and every piece
/// loses what the edit covers. No character an edit covers is left in any piece.
fn piece_texts(text: &str, pieces: &[Range<usize>], edits: &[Edit]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut first = 0;
    let mut owned = vec![false; edits.len()];
    for (index, piece) in pieces.iter().enumerate() {
        while first < edits.len() && edits[first].range.end <= piece.start {
            first += 1;
        }
        let mut touched = false;
        let mut new = String::new();
        let mut at = piece.start;
        for (k, edit) in edits.iter().enumerate().skip(first) {
            if edit.range.start >= piece.end {
                break;
            }
            if edit.range.end <= piece.start || edit.range.is_empty() {
                continue;
            }
            touched = true;
            let from = edit.range.start.max(piece.start);
            new.push_str(&text[at..from]);
            if !owned[k] {
                owned[k] = true;
                new.push_str(&edit.text);
            }
            at = edit.range.end.min(piece.end);
        }
        if touched {
            new.push_str(&text[at..piece.end]);
            out.push((index, new));
        }
    }
    out
}

/// Ends the text's current paragraph with a blank line, once.
fn paragraph_break(text: &mut String) {
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push_str(if text.ends_with('\n') { "\n" } else { "\n\n" });
    }
}

/// The entries of a ZIP package, in order, refusing encrypted ones and damage.
fn unpack(path: &Path, bytes: &[u8], limit: u64) -> Result<Vec<RawEntry>> {
    let damaged = |e: &dyn std::fmt::Display| Error::input(path, format!("damaged package: {e}"));
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(&e))?;
    let mut entries = Vec::with_capacity(archive.len());
    let mut total = 0u64;
    let mut names = std::collections::BTreeSet::new();
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).map_err(|e| damaged(&e))?;
        let name = file.name().map_err(|e| damaged(&e))?.into_owned();
        if file.encrypted() {
            return Err(Error::input(
                path,
                format!("{name}: encrypted; decrypt the document first"),
            ));
        }
        if file.is_dir() {
            continue;
        }
        if !names.insert(name.clone()) {
            return Err(damaged(&format!("{name} appears twice")));
        }
        total += file.size();
        if total > limit {
            return Err(Error::input(
                path,
                format!("unpacks to more than {limit} bytes: refused"),
            ));
        }
        let mut content = Vec::with_capacity(file.size().min(1 << 24) as usize);
        file.by_ref()
            .take(limit + 1)
            .read_to_end(&mut content)
            .map_err(|e| Error::input(path, format!("{name}: damaged: {e}")))?;
        entries.push(RawEntry {
            stored: file.compression() == zip::CompressionMethod::Stored,
            name,
            bytes: content,
        });
    }
    Ok(entries)
}

impl Kind {
    /// The media type a written document of this kind is served as (the service's
    /// `format=file` answer): the written text formats are always UTF-8.
    pub fn media_type(self) -> &'static str {
        match self {
            Kind::Docx => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            Kind::Odt => "application/vnd.oasis.opendocument.text",
            Kind::Html => "text/html; charset=utf-8",
            Kind::Markdown => "text/markdown; charset=utf-8",
            Kind::Pdf => "application/pdf",
            Kind::Email => "message/rfc822",
        }
    }

    /// The file extension of this kind, without the dot: what a written document is named
    /// by when its own name is not to be repeated (it may name the person).
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Docx => "docx",
            Kind::Odt => "odt",
            Kind::Html => "html",
            Kind::Markdown => "md",
            Kind::Pdf => "pdf",
            Kind::Email => "eml",
        }
    }
}

/// The settings of `[formats]` in the shipped configuration, for tests of this module.
#[cfg(test)]
pub(crate) fn test_config() -> FormatsConfig {
    FormatsConfig {
        max_unpacked_bytes: 1 << 30,
        pdf: pdf::PdfLayout {
            font_size: 10.5,
            min_font_size: 7.0,
            line_spacing: 1.35,
            margin: 56.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

    fn docx(body: &str) -> Vec<u8> {
        let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let document =
            format!(r#"<?xml version="1.0"?><w:document {W}><w:body>{body}</w:body></w:document>"#);
        for (name, bytes) in [
            ("[Content_Types].xml", "<Types/>".as_bytes()),
            ("word/document.xml", document.as_bytes()),
        ] {
            out.start_file(name, zip::write::SimpleFileOptions::default())
                .expect("entry");
            out.write_all(bytes).expect("write");
        }
        out.finish().expect("zip").into_inner()
    }

    fn document_xml(package: &[u8]) -> String {
        let mut archive = zip::ZipArchive::new(Cursor::new(package)).expect("zip");
        let mut text = String::new();
        archive
            .by_name("word/document.xml")
            .expect("document")
            .read_to_string(&mut text)
            .expect("read");
        text
    }

    fn edit(text: &str, original: &str, new: &str) -> Edit {
        let start = text.find(original).expect("in the text");
        Edit {
            range: start..start + original.len(),
            text: new.into(),
        }
    }

    #[test]
    fn an_edit_across_runs_goes_into_the_first_run_and_empties_the_others() {
        let bytes = docx(
            "<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Dear Ja</w:t></w:r><w:r><w:t>ne Roe,</w:t></w:r></w:p>\
             <w:p><w:r><w:t>Bye &amp; thanks.</w:t></w:r></w:p>",
        );
        let package =
            Package::read(Path::new("t.docx"), Kind::Docx, &bytes, &test_config()).expect("read");
        assert_eq!(package.text(), "Dear Jane Roe,\n\nBye & thanks.\n\n");
        let edits = [
            edit(package.text(), "Jane Roe", "a person"),
            edit(package.text(), "thanks", "<more>"),
        ];
        let xml = document_xml(&package.write(&edits).expect("write"));
        assert!(
            xml.contains("<w:rPr><w:b/></w:rPr><w:t>Dear a person</w:t></w:r><w:r><w:t>,</w:t>"),
            "{xml}"
        );
        assert!(xml.contains("<w:t>Bye &amp; &lt;more&gt;.</w:t>"), "{xml}");
    }

    #[test]
    fn a_run_whose_new_text_ends_in_a_space_keeps_it() {
        let bytes = docx(
            "<w:p><w:r><w:t>Jane</w:t></w:r><w:r><w:t xml:space=\"preserve\"> Roe came</w:t></w:r></w:p>",
        );
        let package =
            Package::read(Path::new("t.docx"), Kind::Docx, &bytes, &test_config()).expect("read");
        let xml = document_xml(
            &package
                .write(&[edit(package.text(), "Roe", "X")])
                .expect("write"),
        );
        assert!(
            xml.contains(r#"<w:t xml:space="preserve"> X came</w:t>"#),
            "{xml}"
        );
        let xml = document_xml(
            &package
                .write(&[edit(package.text(), "Jane", "a ")])
                .expect("write"),
        );
        assert!(
            xml.contains(r#"<w:t xml:space="preserve">a </w:t>"#),
            "{xml}"
        );
    }

    #[test]
    fn tracked_deletions_go_and_insertions_stay_as_text() {
        let bytes = docx(
            r#"<w:p><w:del w:id="1" w:author="Jane Roe"><w:r><w:delText>gone</w:delText></w:r></w:del><w:ins w:id="2" w:author="Jane Roe" w:date="2020-01-01T00:00:00Z"><w:r><w:t>kept</w:t></w:r></w:ins></w:p>"#,
        );
        let package =
            Package::read(Path::new("t.docx"), Kind::Docx, &bytes, &test_config()).expect("read");
        assert_eq!(package.text(), "kept\n\n");
        let xml = document_xml(&package.write(&[]).expect("write"));
        assert!(
            !xml.contains("gone") && !xml.contains("Jane") && !xml.contains("w:ins"),
            "{xml}"
        );
        assert!(xml.contains("<w:r><w:t>kept</w:t></w:r>"), "{xml}");
        let kinds: Vec<&str> = package.hidden_content().iter().map(|h| h.content).collect();
        assert!(
            kinds.contains(&"text of tracked deletions and moves"),
            "{kinds:?}"
        );
        assert!(kinds.contains(&"tracked insertions"), "{kinds:?}");
    }
}
