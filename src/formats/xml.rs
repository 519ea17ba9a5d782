//! One XML part of a document package, read into events once: the text it shows (what
//! the sanitizer reads), the elements and attributes its format's rules remove or clear
//! (tracked deletions, authors, alternative text…), and the part written back with the
//! sanitized text in place of the original and everything else byte for byte.
//!
//! Hand-written over `quick-xml`'s events rather than a DOM crate: the part must come
//! back exactly as it was outside the text that changed (namespaces, prefixes, unknown
//! extensions), which a tree that re-serializes would not promise.

use std::collections::BTreeSet;
use std::ops::Range;

use quick_xml::events::{BytesStart, BytesText, Event};
use quick_xml::{Reader, Writer};

use super::{Disclosed, HiddenLog, paragraph_break};
use crate::error::{Error, Result};

/// What a format's rules say an element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Its text nodes are the document's text (DOCX `w:t`).
    Text,
    /// A paragraph: a break in the text before and after it; with `holds_text`, its own
    /// text nodes and those of its descendants are the document's text (ODF `text:p`).
    Paragraph { holds_text: bool },
    /// An element standing for characters of the text (a tab, a line break, spaces).
    Chars,
    /// Removed with everything inside it (a tracked deletion, a document variable).
    Drop(Disclosed),
    /// Its tags removed, its content kept (a tracked insertion, accepted).
    Unwrap(Disclosed),
    /// A field instruction: its text is not shown, and it is cleared unless it holds no
    /// argument that could name anyone.
    Instruction,
    /// Read after the rest of its part, as a paragraph of its own: a note's body or a
    /// comment anchored inside a paragraph (ODF `text:note-body`, `office:annotation`),
    /// which read in place would split that paragraph's sentence in two.
    Aside,
    /// A mark the office suite numbers itself (ODF `text:note-citation`): kept and not
    /// read when it holds no letter, read as text when it does (a custom mark can name
    /// anyone).
    Mark,
    /// An element with no part in the text.
    Other,
}

/// A part that lists the package's other parts (Word's content types, OpenDocument's
/// manifest) with the records `keep` refuses removed: a listed part that was removed
/// must not stay listed, or the office suite reports the file damaged.
pub fn listing_without(
    part: &str,
    bytes: &[u8],
    mut keep: impl FnMut(&BytesStart<'_>) -> bool,
) -> Result<Vec<u8>> {
    let mut xml = XmlPart::parse(part, bytes)?;
    xml.rewrite_starts(part, |start| {
        if keep(start) {
            StartEdit::Keep
        } else {
            StartEdit::Remove
        }
    })?;
    xml.write(part, &[], false)
}

/// Document properties emptied, and logged: every field (author, company, title) may
/// name someone, so none is kept.
pub fn emptied_properties(part: &str, bytes: &[u8], log: &mut HiddenLog) -> Result<Vec<u8>> {
    log.note(part, Disclosed::Properties);
    XmlPart::parse(part, bytes)?.emptied(part)
}

/// What [`XmlPart::rewrite_starts`] does to one start tag.
pub enum StartEdit {
    Keep,
    Remove,
    Replace(BytesStart<'static>),
}

/// What a format's rules do to an attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributeRule {
    Keep,
    /// Its value emptied (a required attribute: an author, alternative text).
    Clear(Disclosed),
    /// Removed (an optional attribute: a revision's date).
    Remove(Disclosed),
}

/// A format's reading of its XML: what each element and attribute is.
pub trait Dialect {
    /// The role of element `name` (qualified, as written) inside `parent`.
    fn role(&self, name: &[u8], parent: Option<&[u8]>) -> Role;
    /// The characters an element of role [`Role::Chars`] stands for.
    fn chars(&self, element: &BytesStart<'_>) -> String;
    /// What happens to attribute `attribute` (with `value`) of element `element`.
    fn attribute(&self, element: &[u8], attribute: &[u8], value: &[u8]) -> AttributeRule;
    /// The element to remove when `element` refers to a part the package no longer holds:
    /// the nearest ancestor of these names (a drawing, a frame), else the element itself.
    fn reference_container(&self) -> &'static [&'static [u8]];
    /// Whether an attribute (qualified name) refers to another part of the package.
    fn is_reference(&self, attribute: &[u8]) -> bool;
}

/// Where a piece of a part's text sits in the document's text.
#[derive(Debug, Clone)]
pub struct TextPiece {
    /// The event (a text node) it came from.
    pub event: usize,
    /// Its bytes in the document's text.
    pub range: Range<usize>,
}

/// One parsed XML part.
pub struct XmlPart {
    events: Vec<Event<'static>>,
    /// Indexes of events removed on writing (dropped elements, unwrapped tags).
    removed: BTreeSet<usize>,
    /// New attribute lists of the start tags whose attributes the rules change.
    rewritten: Vec<(usize, BytesStart<'static>)>,
    /// Field instructions cleared on writing.
    cleared: BTreeSet<usize>,
}

impl XmlPart {
    /// Parses `bytes` (part `name`, for errors).
    pub fn parse(name: &str, bytes: &[u8]) -> Result<XmlPart> {
        let mut reader = Reader::from_reader(bytes);
        reader.config_mut().trim_text(false);
        reader.config_mut().check_end_names = true;
        let mut events = Vec::new();
        loop {
            match reader.read_event() {
                Ok(Event::Eof) => break,
                Ok(event) => events.push(event.into_owned()),
                Err(e) => {
                    return Err(Error::input(
                        name,
                        format!("damaged XML at byte {}: {e}", reader.buffer_position()),
                    ));
                }
            }
        }
        Ok(XmlPart {
            events,
            removed: BTreeSet::new(),
            rewritten: Vec::new(),
            cleared: BTreeSet::new(),
        })
    }

    /// The part as an empty one of its kind: its declaration and its root element with
    /// nothing inside (document properties, whose every field may name someone).
    pub fn emptied(&self, part: &str) -> Result<Vec<u8>> {
        let mut writer = Writer::new(Vec::new());
        for event in &self.events {
            match event {
                Event::Decl(_) => write(&mut writer, part, event.borrow())?,
                Event::Start(root) | Event::Empty(root) => {
                    write(&mut writer, part, Event::Empty(root.borrow()))?;
                    return Ok(writer.into_inner());
                }
                _ => {}
            }
        }
        Err(Error::input(part, "damaged XML: no root element"))
    }

    /// Applies `edit` to every start tag (and empty element): kept, removed with its
    /// content, or replaced by another start tag. For parts whose structure is a list of
    /// records (relationships, content types, a manifest).
    pub fn rewrite_starts(
        &mut self,
        part: &str,
        mut edit: impl FnMut(&BytesStart<'_>) -> StartEdit,
    ) -> Result<()> {
        let matching = self.matching_ends(part)?;
        let mut i = 0;
        while i < self.events.len() {
            let (Event::Start(start) | Event::Empty(start)) = &self.events[i] else {
                i += 1;
                continue;
            };
            let end = if matches!(self.events[i], Event::Empty(_)) {
                i
            } else {
                matching[i]
            };
            match edit(start) {
                StartEdit::Keep => i += 1,
                StartEdit::Remove => {
                    self.removed.extend(i..=end);
                    i = end + 1;
                }
                StartEdit::Replace(with) => {
                    let position = self.rewritten.partition_point(|(at, _)| *at < i);
                    self.rewritten.insert(position, (i, with));
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// Reads the part with `dialect`: appends its text to `text` (paragraphs separated by
    /// a blank line) and returns where each text node went; marks what the rules drop,
    /// unwrap, clear or rewrite, and the elements referring to `dangling` relationship ids
    /// (parts removed from the package); logs each of them in `log` under `part`.
    pub fn read(
        &mut self,
        part: &str,
        dialect: &dyn Dialect,
        dangling: &BTreeSet<String>,
        text: &mut String,
        log: &mut HiddenLog,
    ) -> Result<Vec<TextPiece>> {
        let matching = self.matching_ends(part)?;
        let mut pieces = Vec::new();
        // The text of asides, appended after the rest; a piece of it is placed there.
        let mut aside = String::new();
        let mut aside_pieces: Vec<TextPiece> = Vec::new();
        let mut asides_open = 0usize;
        // Open elements: (name, role, index of start event).
        let mut stack: Vec<(Vec<u8>, Role, usize)> = Vec::new();
        let mut skip_until: Option<usize> = None;
        let mut i = 0;
        while i < self.events.len() {
            if let Some(end) = skip_until {
                if i <= end {
                    self.removed.insert(i);
                    i += 1;
                    continue;
                }
                skip_until = None;
            }
            match &self.events[i] {
                Event::Start(start) | Event::Empty(start) => {
                    let is_empty = matches!(self.events[i], Event::Empty(_));
                    let name = start.name().as_ref().to_vec();
                    let parent = stack.last().map(|(n, _, _)| n.as_slice());
                    let role = dialect.role(&name, parent);
                    let end = if is_empty { i } else { matching[i] };
                    if let Some(container) =
                        self.dangling_reference(start, dialect, dangling, &stack)
                    {
                        let from = container.unwrap_or(i);
                        let to = if from == i { end } else { matching[from] };
                        log.note(part, Disclosed::EmbeddedObject);
                        // Everything of the container already read is dropped too; its
                        // text pieces with it.
                        pieces.retain(|p: &TextPiece| p.event < from);
                        aside_pieces.retain(|p: &TextPiece| p.event < from);
                        for k in from..=to {
                            self.removed.insert(k);
                        }
                        stack.truncate(
                            stack
                                .iter()
                                .position(|s| s.2 == from)
                                .unwrap_or(stack.len()),
                        );
                        i = to + 1;
                        continue;
                    }
                    let out = if asides_open > 0 {
                        &mut aside
                    } else {
                        &mut *text
                    };
                    match role {
                        Role::Mark if !is_empty && !holds_letter(&self.events[i + 1..end]) => {
                            i = end + 1;
                            continue;
                        }
                        Role::Aside if !is_empty => {
                            asides_open += 1;
                            paragraph_break(&mut aside);
                        }
                        Role::Drop(what) => {
                            log.note(part, what);
                            skip_until = Some(end);
                            continue;
                        }
                        Role::Unwrap(what) => {
                            log.note(part, what);
                            self.removed.insert(i);
                            if !is_empty {
                                self.removed.insert(end);
                            }
                        }
                        Role::Paragraph { .. } => paragraph_break(out),
                        Role::Chars if inside_text(&stack) => {
                            out.push_str(&dialect.chars(start));
                        }
                        _ => {}
                    }
                    if let Some(rebuilt) = rewritten_attributes(start, part, dialect, log) {
                        self.rewritten.push((i, rebuilt));
                    }
                    if !is_empty {
                        stack.push((name, role, i));
                    }
                }
                Event::End(_) => match stack.pop() {
                    Some((_, Role::Paragraph { .. }, _)) => {
                        paragraph_break(if asides_open > 0 { &mut aside } else { text });
                    }
                    Some((_, Role::Aside, _)) => {
                        asides_open -= 1;
                        paragraph_break(&mut aside);
                    }
                    _ => {}
                },
                Event::Text(t) => {
                    if let Some(role) = text_role(&stack) {
                        if role == Role::Instruction {
                            let instruction = unescaped(part, t.as_ref())?;
                            if !field_instruction_keeps(&instruction) {
                                log.note(part, Disclosed::FieldInstruction);
                                self.cleared.insert(i);
                            }
                        } else {
                            let content = unescaped(part, t.as_ref())?;
                            let to = (&mut *text, &mut pieces, &mut aside, &mut aside_pieces);
                            push_piece(i, &content, asides_open > 0, to);
                        }
                    }
                }
                Event::CData(c) => {
                    if matches!(text_role(&stack), Some(Role::Text | Role::Paragraph { .. })) {
                        let content = String::from_utf8_lossy(c.as_ref());
                        let to = (&mut *text, &mut pieces, &mut aside, &mut aside_pieces);
                        push_piece(i, &content, asides_open > 0, to);
                    }
                }
                Event::Comment(_) => {
                    log.note(part, Disclosed::XmlComment);
                    self.removed.insert(i);
                }
                _ => {}
            }
            i += 1;
        }
        if !aside.trim().is_empty() {
            paragraph_break(text);
            let offset = text.len();
            text.push_str(&aside);
            pieces.extend(aside_pieces.into_iter().map(|p| TextPiece {
                event: p.event,
                range: p.range.start + offset..p.range.end + offset,
            }));
        }
        Ok(pieces)
    }

    /// For every start event, the index of its end event.
    fn matching_ends(&self, part: &str) -> Result<Vec<usize>> {
        let mut ends = vec![0; self.events.len()];
        let mut open = Vec::new();
        for (i, event) in self.events.iter().enumerate() {
            match event {
                Event::Start(_) => open.push(i),
                Event::End(_) => {
                    let start = open.pop().ok_or_else(|| {
                        Error::input(part, "damaged XML: an end tag never opened")
                    })?;
                    ends[start] = i;
                }
                _ => {}
            }
        }
        if !open.is_empty() {
            return Err(Error::input(
                part,
                "damaged XML: an element is never closed",
            ));
        }
        Ok(ends)
    }

    /// Whether `start` refers to a removed part: `Some(container)` with the start event of
    /// the nearest enclosing container element, if any.
    fn dangling_reference(
        &self,
        start: &BytesStart<'_>,
        dialect: &dyn Dialect,
        dangling: &BTreeSet<String>,
        stack: &[(Vec<u8>, Role, usize)],
    ) -> Option<Option<usize>> {
        if dangling.is_empty() {
            return None;
        }
        let refers = start.attributes().flatten().any(|a| {
            dialect.is_reference(a.key.as_ref())
                && std::str::from_utf8(&a.value).is_ok_and(|v| dangling.contains(v))
        });
        if !refers {
            return None;
        }
        let containers = dialect.reference_container();
        let own = containers.contains(&start.name().as_ref());
        Some(if own {
            None
        } else {
            stack
                .iter()
                .rev()
                .find(|(name, _, _)| containers.contains(&name.as_slice()))
                .map(|(_, _, at)| *at)
        })
    }

    /// The part with `new_text` (event index → the node's new text, in order) in place of
    /// those text nodes, and what [`XmlPart::read`] marked removed, cleared or rewritten.
    /// With `preserve_space`, an element whose new text begins or ends with a space gets
    /// `xml:space="preserve"` (a DOCX `w:t`, whose edge spaces Word would otherwise drop).
    pub fn write(
        &self,
        part: &str,
        new_text: &[(usize, String)],
        preserve_space: bool,
    ) -> Result<Vec<u8>> {
        let preserved: BTreeSet<usize> = if preserve_space {
            new_text
                .iter()
                .filter(|(_, t)| {
                    t.starts_with(char::is_whitespace) || t.ends_with(char::is_whitespace)
                })
                .filter_map(|(event, _)| {
                    (0..*event)
                        .rev()
                        .find(|&i| matches!(self.events[i], Event::Start(_)))
                })
                .collect()
        } else {
            BTreeSet::new()
        };
        let mut writer = Writer::new(Vec::with_capacity(self.events.len() * 16));
        let mut texts = new_text.iter().peekable();
        let mut rewritten = self.rewritten.iter().peekable();
        for (i, event) in self.events.iter().enumerate() {
            let replaced_text = match texts.peek() {
                Some((at, _)) if *at == i => texts.next().map(|(_, t)| t),
                _ => None,
            };
            let rewritten_start = match rewritten.peek() {
                Some((at, _)) if *at == i => rewritten.next().map(|(_, s)| s),
                _ => None,
            };
            if self.removed.contains(&i) {
                continue;
            }
            if let Some(content) = replaced_text {
                write(&mut writer, part, Event::Text(BytesText::new(content)))?;
            } else if self.cleared.contains(&i) {
                write(&mut writer, part, Event::Text(BytesText::new("")))?;
            } else if rewritten_start.is_some() || preserved.contains(&i) {
                let (Event::Start(original) | Event::Empty(original)) = event else {
                    write(&mut writer, part, event.borrow())?;
                    continue;
                };
                let mut start = rewritten_start.unwrap_or(original).borrow();
                if preserved.contains(&i)
                    && !start
                        .attributes()
                        .flatten()
                        .any(|a| a.key.as_ref() == b"xml:space")
                {
                    start.push_attribute(("xml:space", "preserve"));
                }
                let event = match event {
                    Event::Empty(_) => Event::Empty(start),
                    _ => Event::Start(start),
                };
                write(&mut writer, part, event)?;
            } else {
                write(&mut writer, part, event.borrow())?;
            }
        }
        Ok(writer.into_inner())
    }
}

/// The unescaped value of attribute `key` of `start`, if it has one.
pub fn attribute_value(start: &BytesStart<'_>, key: &[u8]) -> Option<String> {
    start
        .attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key)
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// `start` with its attributes as the rules want them, if they change any.
fn rewritten_attributes(
    start: &BytesStart<'_>,
    part: &str,
    dialect: &dyn Dialect,
    log: &mut HiddenLog,
) -> Option<BytesStart<'static>> {
    let element = start.name().as_ref().to_vec();
    let mut changed = false;
    let mut rebuilt = BytesStart::new(String::from_utf8_lossy(&element).into_owned());
    for attribute in start.attributes().with_checks(false).flatten() {
        match dialect.attribute(&element, attribute.key.as_ref(), &attribute.value) {
            AttributeRule::Keep => rebuilt.push_attribute(attribute),
            AttributeRule::Clear(what) => {
                if !attribute.value.is_empty() {
                    log.note(part, what);
                    changed = true;
                }
                rebuilt.push_attribute((attribute.key.as_ref(), &b""[..]));
            }
            AttributeRule::Remove(what) => {
                log.note(part, what);
                changed = true;
            }
        }
    }
    changed.then(|| rebuilt.into_owned())
}

/// The role that makes text nodes inside `stack` part of the text, if any: the innermost
/// element that holds text, unless an element around it is a field instruction.
fn text_role(stack: &[(Vec<u8>, Role, usize)]) -> Option<Role> {
    stack.iter().rev().find_map(|(_, role, _)| match role {
        Role::Text | Role::Instruction | Role::Paragraph { holds_text: true } => Some(*role),
        _ => None,
    })
}

/// The text and pieces a text node is read into: the part's, or its asides'.
type Targets<'a> = (
    &'a mut String,
    &'a mut Vec<TextPiece>,
    &'a mut String,
    &'a mut Vec<TextPiece>,
);

/// Appends the text node `event`'s `content` to the part's text, or to its asides' when
/// `in_aside`, and records where it went.
fn push_piece(event: usize, content: &str, in_aside: bool, targets: Targets<'_>) {
    let (text, pieces, aside, aside_pieces) = targets;
    let (out, out_pieces) = if in_aside {
        (aside, aside_pieces)
    } else {
        (text, pieces)
    };
    let start = out.len();
    out.push_str(content);
    out_pieces.push(TextPiece {
        event,
        range: start..out.len(),
    });
}

/// Whether any text among `events` holds a letter.
fn holds_letter(events: &[Event<'_>]) -> bool {
    events.iter().any(|event| match event {
        Event::Text(t) => String::from_utf8_lossy(t.as_ref())
            .chars()
            .any(char::is_alphabetic),
        Event::CData(c) => String::from_utf8_lossy(c.as_ref())
            .chars()
            .any(char::is_alphabetic),
        _ => false,
    })
}

/// Whether characters standing in an element (a tab, a break) belong to the text.
fn inside_text(stack: &[(Vec<u8>, Role, usize)]) -> bool {
    stack
        .iter()
        .any(|(_, role, _)| matches!(role, Role::Paragraph { .. }))
}

fn write(writer: &mut Writer<Vec<u8>>, part: &str, event: Event<'_>) -> Result<()> {
    writer
        .write_event(event)
        .map_err(|e| Error::input(part, format!("cannot write XML: {e}")))
}

fn unescaped(part: &str, raw: &[u8]) -> Result<String> {
    let raw = std::str::from_utf8(raw).map_err(|_| Error::input(part, "text that is not UTF-8"))?;
    quick_xml::escape::unescape(raw)
        .map(|s| s.into_owned())
        .map_err(|e| Error::input(part, format!("damaged XML text: {e}")))
}

/// Whether a field instruction (`PAGE \* MERGEFORMAT`, `HYPERLINK "…"`) is kept: one
/// with no address and no quoted argument holding a letter, which is all a page number, a
/// cross-reference or a table of contents (`TOC \o "1-3"`) needs. A quoted argument with
/// words in it or an address (a hyperlink's target, a file path, a merge field's text)
/// can name anyone, and the field's shown result stays in the text, sanitized.
pub fn field_instruction_keeps(instruction: &str) -> bool {
    if instruction.contains("://") || instruction.contains('@') {
        return false;
    }
    let quoted = instruction
        .split(['"', '\u{201c}', '\u{201d}'])
        .skip(1)
        .step_by(2);
    quoted
        .into_iter()
        .all(|argument| !argument.chars().any(char::is_alphabetic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_numbers_keep_their_field_and_addresses_do_not() {
        assert!(field_instruction_keeps(" PAGE \\* MERGEFORMAT "));
        assert!(field_instruction_keeps(" NUMPAGES "));
        assert!(field_instruction_keeps(" TOC \\o \"1-3\" \\h \\z \\u "));
        assert!(!field_instruction_keeps(
            " HYPERLINK \"https://example.org/jsmith\" "
        ));
        assert!(!field_instruction_keeps(" MERGEFIELD \"Surname\" "));
        assert!(!field_instruction_keeps(
            " INCLUDETEXT \"C:\\\\Users\\\\jsmith\\\\a.docx\" "
        ));
    }
}
