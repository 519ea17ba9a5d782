//! Office Open XML word processing (ECMA-376 Part 1, §17): which parts hold text, which
//! elements are revisions, fields and drawings, and which parts are removed.

use std::collections::{BTreeMap, BTreeSet};

use quick_xml::events::BytesStart;

use super::xml::{
    AttributeRule, Dialect, Role, StartEdit, XmlPart, attribute_value, field_instruction_keeps,
    listing_without,
};
use super::{Content, Disclosed, Entry, HiddenLog, RawEntry, parts};
use crate::error::Result;

/// The main document part, whose text is read first.
const BODY: &str = "word/document.xml";

/// WordprocessingML and the DrawingML text it embeds.
struct Wordprocessing;

impl Dialect for Wordprocessing {
    fn role(&self, name: &[u8], parent: Option<&[u8]>) -> Role {
        let in_run = parent == Some(b"w:r");
        match name {
            b"w:t" | b"a:t" => Role::Text,
            b"w:p" | b"a:p" => Role::Paragraph { holds_text: false },
            b"w:tab" | b"w:br" | b"w:cr" | b"w:noBreakHyphen" if in_run => Role::Chars,
            b"w:instrText" => Role::Instruction,
            b"w:del" | b"w:delText" | b"w:delInstrText" | b"w:moveFrom" => {
                Role::Drop(Disclosed::TrackedDeletion)
            }
            b"w:moveFromRangeStart"
            | b"w:moveFromRangeEnd"
            | b"w:moveToRangeStart"
            | b"w:moveToRangeEnd"
            | b"w:rPrChange"
            | b"w:pPrChange"
            | b"w:sectPrChange"
            | b"w:tblPrChange"
            | b"w:tblPrExChange"
            | b"w:trPrChange"
            | b"w:tcPrChange"
            | b"w:tblGridChange"
            | b"w:numberingChange" => Role::Drop(Disclosed::RevisionMark),
            b"w:ins" | b"w:moveTo" => Role::Unwrap(Disclosed::TrackedInsertion),
            b"w:docVars" => Role::Drop(Disclosed::DocumentVariable),
            b"w:attachedTemplate" | b"w:mailMerge" => Role::Drop(Disclosed::TemplateAndMerge),
            _ => Role::Other,
        }
    }

    fn chars(&self, element: &BytesStart<'_>) -> String {
        match element.name().as_ref() {
            b"w:tab" => "\t".into(),
            b"w:noBreakHyphen" => "-".into(),
            _ => "\n".into(),
        }
    }

    fn attribute(&self, element: &[u8], attribute: &[u8], value: &[u8]) -> AttributeRule {
        let local = attribute.rsplit(|&b| b == b':').next().unwrap_or(attribute);
        let drawing_properties = element.ends_with(b"docPr") || element.ends_with(b"cNvPr");
        match local {
            b"author" | b"initials" | b"userId" | b"providerId" => {
                AttributeRule::Clear(Disclosed::Author)
            }
            b"date" | b"dateUtc" if attribute.starts_with(b"w") => {
                AttributeRule::Remove(Disclosed::RevisionDate)
            }
            b"descr" | b"title" | b"name" if drawing_properties => {
                AttributeRule::Clear(Disclosed::AlternativeText)
            }
            b"title" if element == b"v:imagedata" => {
                AttributeRule::Clear(Disclosed::AlternativeText)
            }
            b"alt" if element.starts_with(b"v:") => {
                AttributeRule::Clear(Disclosed::AlternativeText)
            }
            b"val"
                if matches!(
                    element,
                    b"w:default" | b"w:listEntry" | b"w:statusText" | b"w:helpText" | b"w:alias"
                ) =>
            {
                AttributeRule::Clear(Disclosed::FormField)
            }
            b"displayText" | b"value" if element == b"w:listItem" => {
                AttributeRule::Clear(Disclosed::FormField)
            }
            b"string" if element == b"v:textpath" => {
                AttributeRule::Clear(Disclosed::AlternativeText)
            }
            b"tooltip" if element == b"w:hyperlink" => {
                AttributeRule::Clear(Disclosed::HyperlinkTarget)
            }
            b"instr" if element == b"w:fldSimple" => {
                if field_instruction_keeps(&String::from_utf8_lossy(value)) {
                    AttributeRule::Keep
                } else {
                    AttributeRule::Clear(Disclosed::FieldInstruction)
                }
            }
            _ => AttributeRule::Keep,
        }
    }

    fn reference_container(&self) -> &'static [&'static [u8]] {
        &[b"w:drawing", b"w:pict", b"w:object"]
    }

    fn is_reference(&self, attribute: &[u8]) -> bool {
        attribute.starts_with(b"r:")
    }
}

/// The parts the Open Packaging Conventions (ECMA-376 Part 2) add to a package, which
/// only this format knows how to write.
enum OpcPart {
    Relationships,
    ContentTypes,
}

/// What becomes of each entry of the package.
type Fate = parts::Fate<OpcPart>;

fn fate(name: &str, bytes: &[u8], log: &mut HiddenLog) -> Fate {
    let lower = name.to_ascii_lowercase();
    match name {
        "[Content_Types].xml" => return Fate::Own(OpcPart::ContentTypes),
        "docProps/core.xml" | "docProps/app.xml" | "docProps/custom.xml" => {
            return Fate::Properties;
        }
        _ => {}
    }
    if lower.ends_with(".rels") {
        Fate::Own(OpcPart::Relationships)
    } else if lower.starts_with("docprops/thumbnail") {
        Fate::Remove(Disclosed::Thumbnail)
    } else if lower.starts_with("word/media/") {
        Fate::picture(name, bytes, log)
    } else if lower.starts_with("word/theme/") && lower.ends_with(".xml") {
        Fate::Keep
    } else if lower.starts_with("word/")
        && lower.ends_with(".xml")
        && !lower.starts_with("word/charts/")
        && !lower.starts_with("word/embeddings/")
        && !lower.starts_with("word/activex/")
    {
        Fate::Text
    } else {
        Fate::Remove(Disclosed::UnreadablePart)
    }
}

/// The part a relationships part speaks for (`word/_rels/document.xml.rels` →
/// `word/document.xml`; `_rels/.rels` → the package, ""), and the folder its targets are
/// relative to.
fn relationship_source(rels: &str) -> (String, String) {
    let (folder, file) = rels.rsplit_once('/').unwrap_or(("", rels));
    let base = folder.strip_suffix("_rels").unwrap_or(folder);
    let source = file.strip_suffix(".rels").unwrap_or(file);
    (format!("{base}{source}"), base.to_string())
}

/// The part name a relative target resolves to from `base` (`media/a.png` from `word/`;
/// `../customXml/item1.xml`; `/word/x.xml`).
pub(super) fn resolve(base: &str, target: &str) -> String {
    let joined = match target.strip_prefix('/') {
        Some(absolute) => absolute.to_string(),
        None => format!("{base}{target}"),
    };
    let mut parts: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// Reads a DOCX package's entries: appends its text to `text` (the body first) and
/// returns the entries to write.
pub(super) fn read(
    raw: Vec<RawEntry>,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Vec<Entry>> {
    let fates: Vec<Fate> = raw.iter().map(|e| fate(&e.name, &e.bytes, log)).collect();
    let mut removed = parts::removed_parts(&raw, &fates, log);
    // Relationships: those of removed parts go; those to removed parts go, and the ids
    // they had become dangling references in their source part; external targets are
    // cleared.
    let mut dangling: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut relationships: BTreeMap<String, XmlPart> = BTreeMap::new();
    for (entry, fate) in raw.iter().zip(&fates) {
        if !matches!(fate, Fate::Own(OpcPart::Relationships)) {
            continue;
        }
        let (source, base) = relationship_source(&entry.name);
        if removed.contains(&source) {
            continue;
        }
        let mut part = XmlPart::parse(&entry.name, &entry.bytes)?;
        let mut gone = BTreeSet::new();
        part.rewrite_starts(&entry.name, |start| {
            if start.name().as_ref() != b"Relationship" {
                return StartEdit::Keep;
            }
            let target = attribute_value(start, b"Target").unwrap_or_default();
            let external = attribute_value(start, b"TargetMode").as_deref() == Some("External");
            if external {
                if target == "about:blank" {
                    return StartEdit::Keep;
                }
                log.note(&entry.name, Disclosed::HyperlinkTarget);
                let mut cleared = BytesStart::new("Relationship");
                for a in start.attributes().flatten() {
                    if a.key.as_ref() == b"Target" {
                        cleared.push_attribute(("Target", "about:blank"));
                    } else {
                        cleared.push_attribute(a);
                    }
                }
                return StartEdit::Replace(cleared.into_owned());
            }
            if removed.contains(&resolve(&base, &target)) {
                if let Some(id) = attribute_value(start, b"Id") {
                    gone.insert(id);
                }
                return StartEdit::Remove;
            }
            StartEdit::Keep
        })?;
        dangling.insert(source, gone);
        relationships.insert(entry.name.clone(), part);
    }
    for (entry, fate) in raw.iter().zip(&fates) {
        if matches!(fate, Fate::Own(OpcPart::Relationships))
            && !relationships.contains_key(&entry.name)
        {
            removed.insert(entry.name.clone());
        }
    }
    // The text parts, the body first.
    let mut order: Vec<usize> = (0..raw.len())
        .filter(|&i| matches!(fates[i], Fate::Text))
        .collect();
    order.sort_by_key(|&i| (raw[i].name != BODY, raw[i].name.clone()));
    let mut texts: BTreeMap<usize, Content> = BTreeMap::new();
    let none = BTreeSet::new();
    for i in order {
        let entry = &raw[i];
        let refs = dangling.get(&entry.name).unwrap_or(&none);
        let content = parts::read_text_part(entry, BODY, &Wordprocessing, refs, true, text, log)?;
        texts.insert(i, content);
    }
    parts::written_entries(
        raw,
        fates,
        log,
        |i| texts.remove(&i),
        |entry, part| match part {
            OpcPart::Relationships => relationships
                .remove(&entry.name)
                .map(|part| Ok(Content::Bytes(part.write(&entry.name, &[], false)?)))
                .transpose(),
            OpcPart::ContentTypes => {
                let listing = listing_without(&entry.name, &entry.bytes, |start| {
                    let listed = start.name().as_ref() == b"Override"
                        && attribute_value(start, b"PartName")
                            .is_some_and(|p| removed.contains(p.trim_start_matches('/')));
                    !listed
                })?;
                Ok(Some(Content::Bytes(listing)))
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relationship_targets_resolve_against_their_source_folder() {
        assert_eq!(
            relationship_source("word/_rels/document.xml.rels"),
            ("word/document.xml".to_string(), "word/".to_string())
        );
        assert_eq!(
            relationship_source("_rels/.rels"),
            (String::new(), String::new())
        );
        assert_eq!(
            resolve("word/", "media/image1.png"),
            "word/media/image1.png"
        );
        assert_eq!(
            resolve("word/", "../customXml/item1.xml"),
            "customXml/item1.xml"
        );
        assert_eq!(resolve("", "/docProps/core.xml"), "docProps/core.xml");
    }
}
