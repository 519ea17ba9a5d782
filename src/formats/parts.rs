//! What the word-processing packages (DOCX, ODT) share in handling their parts: the
//! fates a part can have, how a picture is kept, which parts are removed, how a text
//! part is read, and the entries written once every part's content is known.

use std::collections::BTreeSet;

use super::xml::{Dialect, XmlPart, emptied_properties};
use super::{Content, Disclosed, Entry, HiddenLog, RawEntry, image};
use crate::error::Result;

/// What becomes of each entry of a package; `Own` is a part only its format knows how to
/// write (DOCX's relationships and content types, ODF's manifest).
pub(super) enum Fate<Own> {
    Keep,
    Text,
    Properties,
    Image(Vec<u8>),
    Remove(Disclosed),
    Own(Own),
}

impl<Own> Fate<Own> {
    /// A picture is kept without its metadata (noted where it had any); one this reader
    /// cannot parse is removed, never copied blind.
    pub(super) fn picture(name: &str, bytes: &[u8], log: &mut HiddenLog) -> Self {
        match image::stripped(bytes) {
            Some((clean, had_metadata)) => {
                if had_metadata {
                    log.note(name, Disclosed::ImageMetadata);
                }
                Fate::Image(clean)
            }
            None => Fate::Remove(Disclosed::UnreadablePart),
        }
    }
}

/// The names of the parts whose fate is removal, each noted in `log`: the parts whose
/// references the text parts must drop.
pub(super) fn removed_parts<Own>(
    raw: &[RawEntry],
    fates: &[Fate<Own>],
    log: &mut HiddenLog,
) -> BTreeSet<String> {
    let mut removed = BTreeSet::new();
    for (entry, fate) in raw.iter().zip(fates) {
        if let Fate::Remove(what) = fate {
            log.note(&entry.name, *what);
            removed.insert(entry.name.clone());
        }
    }
    removed
}

/// Reads one text part's text onto `text` and returns the content to write it back
/// with; text in a part other than the document's `body` is noted, as a reader of the
/// body alone would not see it. `preserve_space`: whether a changed text node needs
/// `xml:space="preserve"`.
pub(super) fn read_text_part(
    entry: &RawEntry,
    body: &str,
    dialect: &dyn Dialect,
    dangling: &BTreeSet<String>,
    preserve_space: bool,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Content> {
    let mut part = XmlPart::parse(&entry.name, &entry.bytes)?;
    let pieces = part.read(&entry.name, dialect, dangling, text, log)?;
    if !pieces.is_empty() && entry.name != body {
        log.note(&entry.name, Disclosed::PartText);
    }
    Ok(Content::Text {
        part: Box::new(part),
        pieces,
        preserve_space,
    })
}

/// The entries to write, in the package's order, each with the content its fate gives:
/// `text` gives a text part's by its index and `own` a format's own part's; `None` from
/// either leaves the entry out.
pub(super) fn written_entries<Own>(
    raw: Vec<RawEntry>,
    fates: Vec<Fate<Own>>,
    log: &mut HiddenLog,
    mut text: impl FnMut(usize) -> Option<Content>,
    mut own: impl FnMut(&RawEntry, Own) -> Result<Option<Content>>,
) -> Result<Vec<Entry>> {
    let mut entries = Vec::with_capacity(raw.len());
    for (i, (entry, fate)) in raw.into_iter().zip(fates).enumerate() {
        let content = match fate {
            Fate::Remove(_) => None,
            Fate::Keep => Some(Content::Bytes(entry.bytes)),
            Fate::Image(clean) => Some(Content::Bytes(clean)),
            Fate::Text => text(i),
            Fate::Properties => Some(Content::Bytes(emptied_properties(
                &entry.name,
                &entry.bytes,
                log,
            )?)),
            Fate::Own(own_fate) => own(&entry, own_fate)?,
        };
        if let Some(content) = content {
            entries.push(Entry {
                name: entry.name,
                stored: entry.stored,
                content,
            });
        }
    }
    Ok(entries)
}
