//! PDF files: the text of each page read, and a new PDF typeset from the sanitized text,
//! page by page. Nothing of the original file is carried over — no content stream, font,
//! image, annotation, form, attachment, bookmark, script or metadata — so nothing a
//! "redaction" drew over, hid or left in the file's structure can be recovered from the
//! output. The price is the layout: each page's text is set anew in one embedded font
//! (Noto Sans, subset to the glyphs used), paragraph by paragraph, on a page of the
//! original's size; a page whose text no longer fits continues on a page of its own.
//!
//! Redacting in place (removing the text-showing operators of a replaced span and drawing
//! a box) is not done: proving that no glyph of a span survives needs the font's
//! encoding, the text state and every content stream resolved exactly, and a wrong proof
//! leaks.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::panic::AssertUnwindSafe;

use lopdf::{Dictionary, Document, Object, ObjectId};
use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf as PdfWriter, Rect, Ref, Str};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{Disclosed, HiddenLog, paragraph_break};
use crate::error::{Error, Result};

/// How a sanitized PDF is typeset (`[formats.pdf]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdfLayout {
    /// Font size, in points.
    pub font_size: f32,
    /// The smallest size a page's text is set in, in points: a page whose text does not
    /// fit at `font_size` is set smaller, by half points down to this, so that page N of
    /// the output is page N of the original; text that does not fit even then continues
    /// on a page of its own.
    pub min_font_size: f32,
    /// Distance between baselines, as a multiple of the font size.
    pub line_spacing: f32,
    /// Margin on every side of a page, in points.
    pub margin: f32,
}

/// One page of the original: where its text lies in the document's text, and its size.
#[derive(Debug, Clone)]
struct Page {
    text: Range<usize>,
    /// Width and height, in points.
    size: (f32, f32),
}

/// A PDF as read: its pages, and how the output is set.
pub struct Pdf {
    pages: Vec<Page>,
    layout: PdfLayout,
}

/// A page of the output: its size, its font size, and its lines as glyph ids of the
/// embedded font.
struct SetPage {
    size: (f32, f32),
    font_size: f32,
    lines: Vec<Vec<u16>>,
}

/// The size of an A4 page in points, for a page whose size the file does not say.
const A4: (f32, f32) = (595.276, 841.89);

/// Reads the text of every page of the PDF `bytes` (`name` for errors) into `text`, a
/// paragraph per block of lines, pages separated by a blank line, and notes in `log`
/// what the file holds beside its text (none of which is written back).
pub fn read(
    name: &str,
    bytes: &[u8],
    layout: &PdfLayout,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Pdf> {
    let damaged = |why: &dyn std::fmt::Display| Error::input(name, format!("damaged PDF: {why}"));
    let mut document = guarded(|| Document::load_mem(bytes))
        .ok_or_else(|| damaged(&"its structure cannot be read"))?
        .map_err(|e| damaged(&e))?;
    if document.is_encrypted() && guarded(|| document.decrypt("")).is_none_or(|r| r.is_err()) {
        return Err(Error::input(
            name,
            "an encrypted PDF that needs a password: decrypt it first",
        ));
    }
    let page_ids =
        guarded(|| document.get_pages()).ok_or_else(|| damaged(&"its page tree cannot be read"))?;
    if page_ids.is_empty() {
        return Err(Error::input(name, "a PDF with no pages"));
    }
    let mut pages = Vec::with_capacity(page_ids.len());
    let mut without_text = 0;
    for (&number, &id) in &page_ids {
        let page_text = page_text(&document, number)
            .map_err(|reason| Error::input(name, format!("page {number}: {reason}")))?;
        let start = text.len();
        if page_text.is_empty() {
            without_text += 1;
        } else {
            text.push_str(&page_text);
        }
        let range = start..text.len();
        paragraph_break(text);
        pages.push(Page {
            text: range,
            size: page_size(&document, id),
        });
    }
    if without_text == pages.len() {
        return Err(Error::input(
            name,
            "no text layer (a scanned document?): it needs OCR before it can be sanitized",
        ));
    }
    census(&document, &page_ids, without_text, log);
    Ok(Pdf {
        pages,
        layout: layout.clone(),
    })
}

thread_local! {
    /// Whether this thread is inside the PDF crates, whose panic messages may quote the
    /// file's objects: they are not printed.
    static EXTRACTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs, once, a panic hook that keeps the extractor's panic messages (which may
/// quote the document's strings) off standard error, and leaves every other panic to the
/// hook before it.
fn quiet_extractor_panics() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !EXTRACTING.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
}

/// `work` done by the PDF crates, third-party code over untrusted input: `None` where it
/// panics (the file's error, not the process's end), its message not printed.
fn guarded<T>(work: impl FnOnce() -> T) -> Option<T> {
    quiet_extractor_panics();
    EXTRACTING.with(|e| e.set(true));
    let done = std::panic::catch_unwind(AssertUnwindSafe(work)).ok();
    EXTRACTING.with(|e| e.set(false));
    done
}

/// The text of page `number`, as [`blocks`] lays it out.
fn page_text(document: &Document, number: u32) -> std::result::Result<String, String> {
    let extracted = guarded(|| {
        let mut raw = String::new();
        let mut output = pdf_extract::PlainTextOutput::new(&mut raw);
        pdf_extract::output_doc_page(document, &mut output, number).map(|()| raw)
    });
    let raw = match extracted {
        Some(Ok(raw)) => raw,
        Some(Err(e)) => return Err(format!("its text cannot be read: {e}")),
        None => {
            return Err("its text cannot be read (its fonts or content are damaged)".into());
        }
    };
    Ok(blocks(&raw))
}

/// `raw` (the extractor's lines, a blank line where the page leaves a gap) as lines and
/// paragraphs: runs of spaces and control characters collapsed, empty lines dropped,
/// blocks separated by one blank line. A word hyphenated at the end of a line ("Mar-" then
/// "garet") is joined when the next line goes on in lowercase, and at a soft hyphen: a
/// name broken over two lines must be one word to be found.
fn blocks(raw: &str) -> String {
    let mut out = String::new();
    for block in raw.split("\n\n") {
        let lines: Vec<String> = block
            .split('\n')
            .map(|line| {
                line.split(|c: char| c.is_whitespace() || c.is_control())
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .filter(|line| !line.is_empty())
            .collect();
        if lines.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        let mut joined = String::new();
        for line in lines {
            if joined.is_empty() {
                joined = line;
                continue;
            }
            let goes_on = line.chars().next().is_some_and(char::is_lowercase);
            let soft = joined.ends_with('\u{ad}');
            let hyphenated = goes_on
                && (joined.ends_with('-') || joined.ends_with('\u{2010}'))
                && joined.chars().rev().nth(1).is_some_and(char::is_alphabetic);
            if soft || hyphenated {
                joined.pop();
            } else {
                joined.push('\n');
            }
            joined.push_str(&line);
        }
        out.push_str(&joined);
    }
    out
}

/// A page's size from its (possibly inherited) media box; A4 where it says none.
fn page_size(document: &Document, page: ObjectId) -> (f32, f32) {
    let mut id = page;
    for _ in 0..64 {
        let Ok(dict) = document.get_dictionary(id) else {
            break;
        };
        if let Ok(Object::Array(corners)) = dict
            .get(b"MediaBox")
            .and_then(|o| document.dereference(o).map(|(_, o)| o))
        {
            let numbers: Vec<f32> = corners.iter().filter_map(|n| n.as_float().ok()).collect();
            if let [x0, y0, x1, y1] = numbers[..] {
                let (width, height) = ((x1 - x0).abs(), (y1 - y0).abs());
                if width >= 72.0 && height >= 72.0 && width <= 14_400.0 && height <= 14_400.0 {
                    return (width, height);
                }
            }
            break;
        }
        match dict.get(b"Parent").and_then(Object::as_reference) {
            Ok(parent) => id = parent,
            Err(_) => break,
        }
    }
    A4
}

/// Notes what the file holds beside its pages' text. Every object of the file is looked
/// at once, so what hides in an object no page refers to is counted too.
fn census(
    document: &Document,
    pages: &BTreeMap<u32, ObjectId>,
    without_text: usize,
    log: &mut HiddenLog,
) {
    const PAGES: &str = "pages";
    for _ in pages {
        log.note(PAGES, Disclosed::PageLayout);
    }
    for _ in 0..without_text {
        log.note(PAGES, Disclosed::PageWithoutText);
    }
    if let Ok(info) = document
        .trailer
        .get(b"Info")
        .and_then(|o| document.dereference(o).map(|(_, o)| o))
        .and_then(Object::as_dict)
    {
        for _ in info.iter() {
            log.note("Info dictionary", Disclosed::Properties);
        }
    }
    if let Ok(catalog) = document.catalog() {
        if catalog.has(b"AcroForm") {
            log.note("AcroForm", Disclosed::FormData);
        }
        if catalog.has(b"OpenAction") || catalog.has(b"AA") {
            log.note("catalog", Disclosed::Action);
        }
    }
    for &page in pages.values() {
        if let Ok(dict) = document.get_dictionary(page) {
            if let Ok(annotations) = dict
                .get(b"Annots")
                .and_then(|o| document.dereference(o).map(|(_, o)| o))
                .and_then(Object::as_array)
            {
                for _ in annotations {
                    log.note("annotations", Disclosed::Annotation);
                }
            }
            if dict.has(b"Thumb") {
                log.note(PAGES, Disclosed::Thumbnail);
            }
        }
    }
    for object in document.objects.values() {
        let dict = match object {
            Object::Dictionary(dict) => dict,
            Object::Stream(stream) => &stream.dict,
            _ => continue,
        };
        census_object(dict, log);
    }
}

/// Notes what one object of the file is, by the keys it carries.
fn census_object(dict: &Dictionary, log: &mut HiddenLog) {
    let type_is = |name: &[u8]| dict.get(b"Type").and_then(Object::as_name).ok() == Some(name);
    let subtype_is =
        |name: &[u8]| dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(name);
    if type_is(b"Metadata") || subtype_is(b"XML") {
        log.note("XMP metadata", Disclosed::Properties);
    }
    if type_is(b"EmbeddedFile") {
        log.note("embedded files", Disclosed::Attachment);
    }
    if dict.has(b"JS") || dict.get(b"S").and_then(Object::as_name).ok() == Some(b"JavaScript") {
        log.note("scripts", Disclosed::Script);
    }
    if dict.has(b"Title") && dict.has(b"Parent") && (dict.has(b"Dest") || dict.has(b"A")) {
        log.note("bookmarks", Disclosed::Bookmark);
    }
    if dict.has(b"FT") && (dict.has(b"T") || dict.has(b"V")) {
        log.note("AcroForm", Disclosed::FormData);
    }
    if dict.has(b"Alt") || dict.has(b"ActualText") {
        log.note("structure tree", Disclosed::AlternativeText);
    }
    if type_is(b"XObject") && subtype_is(b"Image") {
        log.note("images", Disclosed::PageImage);
    }
}

impl Pdf {
    /// The text of each page, from the document's text: where a page's text lies, that
    /// piece as the edits left it.
    pub fn ranges(&self) -> Vec<Range<usize>> {
        self.pages.iter().map(|p| p.text.clone()).collect()
    }

    /// A new PDF with `texts` (one per page of the original, in order) set page by page.
    pub fn write(&self, texts: &[String]) -> Result<Vec<u8>> {
        let font = Font::load()?;
        let layout = &self.layout;
        let mut laid_out: Vec<SetPage> = Vec::new();
        for (page, text) in self.pages.iter().zip(texts) {
            let mut size = layout.font_size;
            let (lines, lines_per_page) = loop {
                let width = (page.size.0 - 2.0 * layout.margin).max(size * 4.0);
                let lines_per_page = ((page.size.1 - 2.0 * layout.margin)
                    / (size * layout.line_spacing))
                    .floor()
                    .max(1.0) as usize;
                let lines = font.wrap(text, width, size);
                if lines.len() <= lines_per_page || size - 0.5 < layout.min_font_size {
                    break (lines, lines_per_page);
                }
                size -= 0.5;
            };
            if lines.is_empty() {
                laid_out.push(SetPage {
                    size: page.size,
                    font_size: size,
                    lines: Vec::new(),
                });
            }
            for chunk in lines.chunks(lines_per_page) {
                laid_out.push(SetPage {
                    size: page.size,
                    font_size: size,
                    lines: chunk.to_vec(),
                });
            }
        }
        font.write_pdf(&laid_out, layout)
    }
}

/// The embedded font: Noto Sans Regular, shipped inside the binary (`ttf-noto-sans`), so
/// every output looks the same on every machine.
struct Font {
    face: ttf_parser::Face<'static>,
    data: &'static [u8],
    /// The glyph drawn for a character the font lacks.
    fallback: u16,
}

impl Font {
    fn load() -> Result<Font> {
        let data: &'static [u8] = ttf_noto_sans::REGULAR;
        let face = ttf_parser::Face::parse(data, 0)
            .map_err(|e| Error::input("<embedded font>", e.to_string()))?;
        let fallback = face.glyph_index('?').map_or(0, |g| g.0);
        Ok(Font {
            face,
            data,
            fallback,
        })
    }

    fn glyph(&self, c: char) -> u16 {
        let c = if c == '\t' || c.is_whitespace() {
            ' '
        } else {
            c
        };
        self.face.glyph_index(c).map_or(self.fallback, |g| g.0)
    }

    /// A glyph's advance, in thousandths of the font size.
    fn advance(&self, glyph: u16) -> f32 {
        let units = self
            .face
            .glyph_hor_advance(ttf_parser::GlyphId(glyph))
            .unwrap_or(0);
        f32::from(units) * 1000.0 / f32::from(self.face.units_per_em())
    }

    /// `text` broken into lines of glyphs no wider than `width` points at `size`: a blank
    /// line between paragraphs, words kept whole unless one alone is wider than a line.
    fn wrap(&self, text: &str, width: f32, size: f32) -> Vec<Vec<u16>> {
        let limit = width * 1000.0 / size;
        let space = self.glyph(' ');
        let space_width = self.advance(space);
        let mut lines = Vec::new();
        for (index, paragraph) in text.split("\n\n").enumerate() {
            if index > 0 {
                lines.push(Vec::new());
            }
            for source_line in paragraph.split('\n') {
                let mut line: Vec<u16> = Vec::new();
                let mut used = 0.0;
                for word in source_line.split(' ').filter(|w| !w.is_empty()) {
                    let glyphs: Vec<u16> = word.chars().map(|c| self.glyph(c)).collect();
                    let word_width: f32 = glyphs.iter().map(|&g| self.advance(g)).sum();
                    if !line.is_empty() && used + space_width + word_width > limit {
                        lines.push(std::mem::take(&mut line));
                        used = 0.0;
                    }
                    if !line.is_empty() {
                        line.push(space);
                        used += space_width;
                    }
                    for glyph in glyphs {
                        let advance = self.advance(glyph);
                        if used + advance > limit && !line.is_empty() {
                            lines.push(std::mem::take(&mut line));
                            used = 0.0;
                        }
                        line.push(glyph);
                        used += advance;
                    }
                }
                if !line.is_empty() {
                    lines.push(line);
                }
            }
        }
        while lines.last().is_some_and(Vec::is_empty) {
            lines.pop();
        }
        lines
    }

    /// The PDF of `pages` (lines of the original font's glyph ids): the font subset
    /// to the glyphs used and renumbered, a ToUnicode map so that the text can be
    /// extracted and searched, streams compressed. No information dictionary, no dates,
    /// no identifiers: the same pages give the same bytes.
    fn write_pdf(&self, pages: &[SetPage], layout: &PdfLayout) -> Result<Vec<u8>> {
        let mut remapper = subsetter::GlyphRemapper::new();
        for page in pages {
            for &glyph in page.lines.iter().flatten() {
                remapper.remap(glyph);
            }
        }
        let subset = subsetter::subset(self.data, 0, &remapper)
            .map_err(|e| Error::input("<embedded font>", format!("cannot subset: {e:?}")))?;

        let mut next = 1;
        let mut alloc = || {
            let id = Ref::new(next);
            next += 1;
            id
        };
        let catalog_id = alloc();
        let tree_id = alloc();
        let font_id = alloc();
        let cid_font_id = alloc();
        let descriptor_id = alloc();
        let font_file_id = alloc();
        let cmap_id = alloc();
        let page_ids: Vec<(Ref, Ref)> = pages.iter().map(|_| (alloc(), alloc())).collect();

        let mut pdf = PdfWriter::new();
        pdf.catalog(catalog_id).pages(tree_id);
        pdf.pages(tree_id)
            .kids(page_ids.iter().map(|(page, _)| *page))
            .count(pages.len() as i32);

        let font_name = Name(b"F1");
        for (set, (page_id, content_id)) in pages.iter().zip(&page_ids) {
            let (width, height) = set.size;
            let lines = &set.lines;
            let mut page = pdf.page(*page_id);
            page.media_box(Rect::new(0.0, 0.0, width, height))
                .parent(tree_id)
                .contents(*content_id);
            page.resources().fonts().pair(font_name, font_id);
            page.finish();

            let mut content = Content::new();
            if !lines.is_empty() {
                content.begin_text();
                let size = set.font_size;
                content.set_font(font_name, size);
                content.set_leading(size * layout.line_spacing);
                content.next_line(layout.margin, height - layout.margin - size);
                for (index, line) in lines.iter().enumerate() {
                    if index > 0 {
                        content.next_line_using_leading();
                    }
                    if !line.is_empty() {
                        let encoded: Vec<u8> = line
                            .iter()
                            .flat_map(|&g| remapper.get(g).unwrap_or(0).to_be_bytes())
                            .collect();
                        content.show(Str(&encoded));
                    }
                }
                content.end_text();
            }
            let compressed = deflate(&content.finish().into_vec())?;
            pdf.stream(*content_id, &compressed)
                .filter(Filter::FlateDecode);
        }

        let base_name = self.subset_name(&remapper);
        let system_info = SystemInfo {
            registry: Str(b"Adobe"),
            ordering: Str(b"Identity"),
            supplement: 0,
        };
        pdf.type0_font(font_id)
            .base_font(Name(base_name.as_bytes()))
            .encoding_predefined(Name(b"Identity-H"))
            .descendant_font(cid_font_id)
            .to_unicode(cmap_id);
        let widths: Vec<f32> = remapper
            .remapped_gids()
            .map(|old| self.advance(old))
            .collect();
        let mut cid_font = pdf.cid_font(cid_font_id);
        cid_font
            .subtype(CidFontType::Type2)
            .base_font(Name(base_name.as_bytes()))
            .system_info(system_info)
            .font_descriptor(descriptor_id)
            .default_width(0.0)
            .cid_to_gid_map_predefined(Name(b"Identity"));
        cid_font.widths().consecutive(0, widths);
        cid_font.finish();

        let scale = 1000.0 / f32::from(self.face.units_per_em());
        let bbox = self.face.global_bounding_box();
        pdf.font_descriptor(descriptor_id)
            .name(Name(base_name.as_bytes()))
            .flags(FontFlags::SYMBOLIC)
            .bbox(Rect::new(
                f32::from(bbox.x_min) * scale,
                f32::from(bbox.y_min) * scale,
                f32::from(bbox.x_max) * scale,
                f32::from(bbox.y_max) * scale,
            ))
            .italic_angle(0.0)
            .ascent(f32::from(self.face.ascender()) * scale)
            .descent(f32::from(self.face.descender()) * scale)
            .cap_height(f32::from(self.face.capital_height().unwrap_or(0)) * scale)
            .stem_v(80.0)
            .font_file2(font_file_id);
        let compressed_font = deflate(&subset)?;
        pdf.stream(font_file_id, &compressed_font)
            .filter(Filter::FlateDecode)
            .pair(Name(b"Length1"), subset.len() as i32);

        let characters = self.characters();
        let mut cmap = UnicodeCmap::new(Name(b"Custom"), system_info);
        for (new, old) in remapper.remapped_gids().enumerate() {
            if let Some(&c) = characters.get(&old) {
                cmap.pair(new as u16, c);
            }
        }
        let cmap_bytes = cmap.finish().into_vec();
        pdf.stream(cmap_id, &cmap_bytes);

        Ok(pdf.finish())
    }

    /// For each glyph, the character it stands for: the first, by code point, that the
    /// font maps to it (what a reader's copy and search give back).
    fn characters(&self) -> BTreeMap<u16, char> {
        let mut found = BTreeMap::new();
        if let Some(cmap) = self.face.tables().cmap {
            for subtable in cmap.subtables.into_iter().filter(|s| s.is_unicode()) {
                subtable.codepoints(|code| {
                    if let (Some(glyph), Some(c)) =
                        (subtable.glyph_index(code), char::from_u32(code))
                    {
                        found
                            .entry(glyph.0)
                            .and_modify(|old: &mut char| *old = (*old).min(c))
                            .or_insert(c);
                    }
                });
            }
        }
        found
    }

    /// The subset's PostScript name: a tag of six capitals drawn from the glyphs it holds
    /// (PDF 32000-1, 9.6.4), then the font's name.
    fn subset_name(&self, remapper: &subsetter::GlyphRemapper) -> String {
        let mut hash = Sha256::new();
        for glyph in remapper.remapped_gids() {
            hash.update(glyph.to_be_bytes());
        }
        let tag: String = hash
            .finalize()
            .iter()
            .take(6)
            .map(|b| char::from(b'A' + b % 26))
            .collect();
        format!("{tag}+NotoSans-Regular")
    }
}

fn deflate(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map_err(|e| Error::io("<pdf stream>", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::content::{Content as Ops, Operation};
    use lopdf::{Stream, dictionary};

    fn layout() -> PdfLayout {
        super::super::test_config().pdf
    }

    /// A one-page PDF in Helvetica showing `lines`, with what a release famously leaks
    /// beside its text: an information dictionary, XMP, an annotation, a bookmark, an
    /// attached file and a script.
    pub(crate) fn leaky_pdf(lines: &[&str]) -> Vec<u8> {
        let mut doc = Document::with_version("1.5");
        let pages_id = doc.new_object_id();
        let font_id = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
        });
        let resources_id =
            doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
        let mut operations = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("TL", vec![16.into()]),
            Operation::new("Td", vec![72.into(), 740.into()]),
        ];
        for line in lines {
            operations.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
            operations.push(Operation::new("T*", vec![]));
        }
        operations.push(Operation::new("ET", vec![]));
        let content = Ops { operations }.encode().expect("content");
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        let annotation_id = doc.add_object(dictionary! {
            "Type" => "Annot", "Subtype" => "Text",
            "Rect" => vec![0.into(), 0.into(), 10.into(), 10.into()],
            "Contents" => Object::string_literal("Jane Roe reviewed this"),
            "T" => Object::string_literal("Jane Roe"),
        });
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
            "Annots" => vec![annotation_id.into()],
        });
        doc.objects.insert(
            pages_id,
            Object::Dictionary(dictionary! {
                "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1,
                "Resources" => resources_id,
                "MediaBox" => vec![0.into(), 0.into(), 612.into(), 792.into()],
            }),
        );
        let xmp_id = doc.add_object(Stream::new(
            dictionary! { "Type" => "Metadata", "Subtype" => "XML" },
            b"<x:xmpmeta><dc:creator>Jane Roe</dc:creator></x:xmpmeta>".to_vec(),
        ));
        let file_id = doc.add_object(Stream::new(
            dictionary! { "Type" => "EmbeddedFile" },
            b"Jane Roe's notes".to_vec(),
        ));
        let outlines_id = doc.new_object_id();
        let bookmark_id = doc.add_object(dictionary! {
            "Title" => Object::string_literal("About Jane Roe"), "Parent" => outlines_id,
            "Dest" => vec![page_id.into(), "Fit".into()],
        });
        doc.objects.insert(
            outlines_id,
            Object::Dictionary(dictionary! {
                "Type" => "Outlines", "First" => bookmark_id, "Last" => bookmark_id, "Count" => 1,
            }),
        );
        let script_id = doc.add_object(dictionary! {
            "S" => "JavaScript", "JS" => Object::string_literal("app.alert('Jane Roe')"),
        });
        let catalog_id = doc.add_object(dictionary! {
            "Type" => "Catalog", "Pages" => pages_id, "Metadata" => xmp_id,
            "Outlines" => outlines_id, "OpenAction" => script_id,
            "Names" => dictionary! { "EmbeddedFiles" => dictionary! {
                "Names" => vec![Object::string_literal("notes.txt"), dictionary! {
                    "Type" => "Filespec", "F" => Object::string_literal("notes.txt"),
                    "EF" => dictionary! { "F" => file_id },
                }.into()],
            }},
        });
        let info_id = doc.add_object(dictionary! {
            "Author" => Object::string_literal("Jane Roe"),
            "Title" => Object::string_literal("Notes on Jane Roe"),
        });
        doc.trailer.set("Root", catalog_id);
        doc.trailer.set("Info", info_id);
        let mut bytes = Vec::new();
        doc.save_to(&mut bytes).expect("save");
        bytes
    }

    fn read_bytes(bytes: &[u8]) -> (String, Pdf, Vec<super::super::HiddenContent>) {
        let mut text = String::new();
        let mut log = HiddenLog::default();
        let pdf = read("t.pdf", bytes, &layout(), &mut text, &mut log).expect("read");
        (text, pdf, log.into_list())
    }

    /// Every byte of a PDF, its streams decompressed.
    pub(crate) fn all_bytes(pdf: &[u8]) -> Vec<u8> {
        let doc = Document::load_mem(pdf).expect("a PDF");
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
        out
    }

    #[test]
    fn lines_of_a_block_are_one_paragraph() {
        assert_eq!(
            blocks("Jane\nRoe  met\u{0}him\n\n\n\nBob here\n"),
            "Jane\nRoe met him\n\nBob here"
        );
        assert_eq!(blocks(" \n\n "), "");
        assert_eq!(
            blocks("Mar-\ngaret met a well-\nknown Mr-\nX, Ali\u{ad}\nce."),
            "Margaret met a wellknown Mr-\nX, Alice."
        );
    }

    #[test]
    fn a_pdf_is_read_page_by_page_with_what_it_hides_listed() {
        let (text, pdf, hidden) = read_bytes(&leaky_pdf(&[
            "Jane Roe wrote to the board.",
            "It met in May.",
        ]));
        assert_eq!(text, "Jane Roe wrote to the board.\nIt met in May.\n\n");
        assert_eq!(pdf.pages.len(), 1);
        assert_eq!(pdf.pages[0].size, (612.0, 792.0));
        let listed: Vec<(&str, &str, usize)> = hidden
            .iter()
            .map(|h| (h.part.as_str(), h.content, h.count))
            .collect();
        for expected in [
            ("Info dictionary", "document properties", 2),
            ("XMP metadata", "document properties", 1),
            (
                "annotations",
                "annotations (comments, highlights, links, redaction marks)",
                1,
            ),
            ("bookmarks", "bookmarks", 1),
            ("embedded files", "attached files", 1),
            ("scripts", "scripts", 1),
            ("catalog", "actions run on opening or on showing a page", 1),
            ("pages", "page content streams, fonts and layout", 1),
        ] {
            assert!(listed.contains(&expected), "{expected:?} not in {listed:?}");
        }
    }

    #[test]
    fn the_written_pdf_holds_only_the_new_text_and_reads_back_as_it() {
        let original = leaky_pdf(&["Jane Roe wrote to the board."]);
        let (text, pdf, _) = read_bytes(&original);
        let new = text.replace("Jane Roe", "A person");
        let written = pdf.write(&[new.trim_end().to_string()]).expect("write");
        assert_eq!(
            written,
            pdf.write(&[new.trim_end().to_string()]).expect("write")
        );
        let everything = String::from_utf8_lossy(&all_bytes(&written)).to_lowercase();
        for gone in ["jane", "roe", "helvetica", "notes", "javascript", "author"] {
            assert!(!everything.contains(gone), "{gone} left in the output");
        }
        let (again, rewritten, hidden) = read_bytes(&written);
        assert_eq!(again, "A person wrote to the board.\n\n");
        assert_eq!(rewritten.pages[0].size, (612.0, 792.0));
        let kinds: Vec<&str> = hidden.iter().map(|h| h.part.as_str()).collect();
        assert_eq!(kinds, ["pages"], "{hidden:?}");
    }

    #[test]
    fn a_full_page_is_set_smaller_and_a_longer_one_continues_on_a_page_of_its_own() {
        let pdf = Pdf {
            pages: vec![Page {
                text: 0..0,
                size: (300.0, 200.0),
            }],
            layout: layout(),
        };
        let sentence = "Grüße from Łódź, naïve café owners met on 12 May. ";
        let long = sentence.repeat(40);
        let written = pdf.write(&[long.trim_end().to_string()]).expect("write");
        let (text, read_back, _) = read_bytes(&written);
        assert!(read_back.pages.len() > 1, "{} pages", read_back.pages.len());
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&text), words(&long));
        // A page a little too full is set smaller and stays one page.
        let fuller = sentence.repeat(5);
        let written = pdf.write(&[fuller.trim_end().to_string()]).expect("write");
        let (text, read_back, _) = read_bytes(&written);
        assert_eq!(read_back.pages.len(), 1);
        assert_eq!(words(&text), words(&fuller));
        let at_full_size =
            Font::load()
                .expect("font")
                .wrap(fuller.trim_end(), 300.0 - 2.0 * 56.0, 10.5);
        assert!(at_full_size.len() > 6, "{} lines", at_full_size.len());
    }

    #[test]
    fn damaged_and_textless_pdfs_are_refused_by_name() {
        let mut text = String::new();
        let mut log = HiddenLog::default();
        let error = read(
            "scan.pdf",
            b"%PDF-1.4\nnonsense",
            &layout(),
            &mut text,
            &mut log,
        )
        .err()
        .expect("refused")
        .to_string();
        assert!(
            error.contains("scan.pdf") && error.contains("damaged PDF"),
            "{error}"
        );
        let error = read("scan.pdf", &leaky_pdf(&[]), &layout(), &mut text, &mut log)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            error.contains("scan.pdf") && error.contains("needs OCR"),
            "{error}"
        );
    }
}
