//! Markdown documents (CommonMark with tables, footnotes, strikethrough, task lists and a
//! YAML front matter): the text a reader reads — paragraphs, headings, list items, table
//! cells, image descriptions, link titles and targets — is the document's text, and the
//! markup around it is kept byte for byte. `pulldown-cmark` parses the source as
//! CommonMark does and gives each text event's place in it, so the output is the source
//! with only those places rewritten.
//!
//! Code (spans and blocks), raw HTML and the front matter are read as text too: a name in
//! them is as public as in a paragraph, so they are sanitized like the rest (their markup
//! characters are no terms and stay). A link's target the sanitizer changes (a name inside
//! a URL) becomes `#`, which leads nowhere, as in a web page.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use super::paragraph_break;
use crate::error::{Error, Result};

/// How a place of the source is written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Inline text: Markdown's punctuation in a replacement is escaped.
    Text,
    /// Code or raw HTML: written as it is, a backquote made a quote so a code span stays
    /// closed where it was.
    Literal,
    /// A link's target: `#` once changed.
    Link,
}

/// A place of the source whose text is part of the document's text.
struct Slot {
    source: Range<usize>,
    place: Place,
}

/// A Markdown document read for sanitizing.
pub struct Markdown {
    source: String,
    slots: Vec<Slot>,
    /// Each slot's text in the document's text.
    pieces: Vec<Range<usize>>,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// A place of the source met while parsing: its range, its text as Markdown reads it,
/// how it is written back, and whether it stands apart from the paragraph around it (a
/// link's target or title).
struct Found {
    range: Range<usize>,
    value: String,
    place: Place,
    apart: bool,
}

/// Where the source separates text: a block's end, or a line break inside one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    Paragraph,
    Line,
}

fn is_block(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Paragraph
            | TagEnd::Heading(_)
            | TagEnd::BlockQuote(_)
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::List(_)
            | TagEnd::Item
            | TagEnd::FootnoteDefinition
            | TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::TableCell
            | TagEnd::MetadataBlock(_)
    )
}

/// Reads `source` (`name` for errors): appends its text to `text`.
pub(super) fn read(name: &str, source: String, text: &mut String) -> Result<Markdown> {
    let mut found: Vec<Found> = Vec::new();
    let mut gaps: Vec<(usize, Gap)> = Vec::new();
    let mut literal_depth = 0usize;
    // An autolink's text is its target: replaced with its angle brackets, so what
    // replaces it reads as text rather than as a tag.
    let mut autolink: Option<Range<usize>> = None;
    let parser = Parser::new_ext(&source, options()).into_offset_iter();
    let definitions: Vec<(Range<usize>, String, Option<String>)> = parser
        .reference_definitions()
        .iter()
        .map(|(_, def)| {
            (
                def.span.clone(),
                def.dest.to_string(),
                def.title.as_ref().map(|t| t.to_string()),
            )
        })
        .collect();
    let mut push = |range: Range<usize>, value: String, place: Place, apart: bool| {
        found.push(Found {
            range,
            value,
            place,
            apart,
        })
    };
    for (event, range) in parser {
        match event {
            Event::Text(t) => {
                // Code blocks and the front matter are written as they are.
                let place = if literal_depth > 0 {
                    Place::Literal
                } else {
                    Place::Text
                };
                let range = match &autolink {
                    Some(link) if link.start <= range.start && range.end <= link.end => {
                        link.clone()
                    }
                    _ => range,
                };
                push(range, t.to_string(), place, false);
            }
            Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                let inner = inner_range(&source, &range, &t)
                    .ok_or_else(|| unplaced(name, "a code span"))?;
                push(inner, t.to_string(), Place::Literal, false);
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                push(range, t.to_string(), Place::Literal, false);
            }
            Event::Start(Tag::CodeBlock(_) | Tag::MetadataBlock(_)) => literal_depth += 1,
            Event::Start(Tag::Link {
                link_type: LinkType::Autolink | LinkType::Email,
                ..
            }) => autolink = Some(range),
            Event::Start(
                Tag::Link {
                    link_type: LinkType::Inline,
                    dest_url,
                    title,
                    ..
                }
                | Tag::Image {
                    link_type: LinkType::Inline,
                    dest_url,
                    title,
                    ..
                },
            ) => {
                // An inline link's target and title lie after its text: "[text](url
                // "title")"; one that cannot be placed would be published unread. A
                // reference link's lie in its definition, read below.
                let from = source[range.clone()]
                    .rfind("](")
                    .map_or(range.end, |at| range.start + at);
                let values = [
                    (dest_url.to_string(), Place::Link),
                    (title.to_string(), Place::Text),
                ];
                for (place_range, value, place) in link_parts(&source, from..range.end, values)
                    .ok_or_else(|| unplaced(name, "a link"))?
                {
                    push(place_range, value, place, true);
                }
            }
            Event::End(tag) => {
                if tag == TagEnd::Link {
                    autolink = None;
                }
                if matches!(tag, TagEnd::CodeBlock | TagEnd::MetadataBlock(_)) {
                    literal_depth = literal_depth.saturating_sub(1);
                }
                if is_block(&tag) {
                    gaps.push((range.end, Gap::Paragraph));
                }
            }
            Event::SoftBreak | Event::HardBreak => gaps.push((range.start, Gap::Line)),
            Event::Rule => gaps.push((range.start, Gap::Paragraph)),
            _ => {}
        }
    }
    for (span, dest, title) in definitions {
        let values = [
            (dest, Place::Link),
            (title.unwrap_or_default(), Place::Text),
        ];
        for (place_range, value, place) in
            link_parts(&source, span, values).ok_or_else(|| unplaced(name, "a link definition"))?
        {
            push(place_range, value, place, true);
        }
    }
    found.sort_by_key(|f| (f.range.start, f.range.end));
    gaps.sort_unstable_by_key(|(at, _)| *at);
    let mut markdown = Markdown {
        source,
        slots: Vec::new(),
        pieces: Vec::new(),
    };
    let mut next_gap = 0;
    let mut last_end = 0;
    for f in found {
        if f.range.start < last_end {
            // A place inside one already read.
            continue;
        }
        let mut gap = None;
        while next_gap < gaps.len() && gaps[next_gap].0 <= f.range.start {
            let (at, kind) = gaps[next_gap];
            if at >= last_end && gap != Some(Gap::Paragraph) {
                gap = Some(kind);
            }
            next_gap += 1;
        }
        match gap {
            _ if f.apart => paragraph_break(text),
            Some(Gap::Paragraph) => paragraph_break(text),
            Some(Gap::Line) => text.push('\n'),
            None => {}
        }
        markdown.add_slot(name, text, f.range.clone(), f.value, f.place)?;
        if f.apart {
            paragraph_break(text);
        }
        last_end = f.range.end;
    }
    Ok(markdown)
}

/// Where a link's target and title (empty ones left out) stand in `within` of the
/// source, each after the one before; `None` when one is not written there as Markdown
/// read it (an escape inside it), and its text could not be placed.
fn link_parts(
    source: &str,
    within: Range<usize>,
    values: [(String, Place); 2],
) -> Option<Vec<(Range<usize>, String, Place)>> {
    let mut from = within.start;
    let mut parts = Vec::new();
    for (value, place) in values {
        if value.is_empty() {
            continue;
        }
        let start = from + source.get(from..within.end)?.find(value.as_str())?;
        from = start + value.len();
        parts.push((start..from, value, place));
    }
    Some(parts)
}

/// The range of a code span's content `code` inside the span's source `range` (between
/// its backquotes or dollar signs).
fn inner_range(source: &str, range: &Range<usize>, code: &str) -> Option<Range<usize>> {
    let raw = source.get(range.clone())?;
    let at = raw.find(code)?;
    Some(range.start + at..range.start + at + code.len())
}

fn unplaced(name: &str, what: &str) -> Error {
    Error::input(
        name,
        format!("cannot place the text of {what} in the Markdown source: not sanitized"),
    )
}

impl Markdown {
    /// Adds `value`, the text at `source` as Markdown reads it (escapes and entities
    /// resolved), to the document's text. A place outside the source is an error: its
    /// text would be published unread.
    fn add_slot(
        &mut self,
        name: &str,
        text: &mut String,
        source: Range<usize>,
        value: String,
        place: Place,
    ) -> Result<()> {
        if self.source.get(source.clone()).is_none() {
            return Err(unplaced(name, "a paragraph"));
        }
        let start = text.len();
        text.push_str(&value);
        self.pieces.push(start..text.len());
        self.slots.push(Slot { source, place });
        Ok(())
    }

    /// The places of the document's text, in order.
    pub(super) fn pieces(&self) -> &[Range<usize>] {
        &self.pieces
    }

    /// The document with `new_texts` (slot index → its new text, in order) in place,
    /// escaped for where each stands.
    pub(super) fn write(&self, new_texts: &[(usize, String)]) -> Vec<u8> {
        let mut out = String::with_capacity(self.source.len());
        let mut at = 0;
        for (slot, new) in new_texts {
            let slot = &self.slots[*slot];
            out.push_str(&self.source[at..slot.source.start]);
            match slot.place {
                Place::Text => out.push_str(&escape(new)),
                Place::Literal => out.push_str(&new.replace('`', "'")),
                Place::Link => out.push('#'),
            }
            at = slot.source.end;
        }
        out.push_str(&self.source[at..]);
        out.into_bytes()
    }
}

/// Text escaped for inline Markdown: the punctuation that could open emphasis, code, a
/// link, raw HTML or a table cell gets a backslash. Nine characters, which is why it is
/// written out rather than taken from a crate.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_doc(source: &str) -> (Markdown, String) {
        let mut text = String::new();
        let markdown = read("t.md", source.to_string(), &mut text).expect("read");
        (markdown, text)
    }

    /// Each piece holding `from` rewritten with `to`, the others left alone.
    fn replace(markdown: &Markdown, text: &str, from: &str, to: &str) -> String {
        let new_texts: Vec<(usize, String)> = markdown
            .pieces()
            .iter()
            .enumerate()
            .filter(|(_, p)| text[(*p).clone()].contains(from))
            .map(|(i, p)| (i, text[p.clone()].replace(from, to)))
            .collect();
        String::from_utf8(markdown.write(&new_texts)).expect("UTF-8")
    }

    #[test]
    fn the_text_a_reader_reads_is_the_text_and_the_markup_stays() {
        let source = "---\nauthor: Jane Roe\n---\n# On Jane Roe\n\n*Jane* wrote `Jane`, see \
                      [her page](https://example.org/Jane \"Jane's page\") and [ref].\n\n\
                      | who |\n|---|\n| Jane |\n\n![Jane at work](jane.png)\n\n\
                      [ref]: https://example.org/roe \"Roe\"\n";
        let (markdown, text) = read_doc(source);
        for part in [
            "author: Jane Roe",
            "On Jane Roe",
            "Jane",
            "her page",
            "Jane at work",
        ] {
            assert!(text.contains(part), "{part:?} not read: {text:?}");
        }
        assert!(text.contains("https://example.org/Jane"), "{text:?}");
        assert!(text.contains("Jane's page"), "{text:?}");
        assert!(text.contains("https://example.org/roe"), "{text:?}");
        let out = replace(&markdown, &text, "Jane", "a *person*");
        assert!(!out.contains("Jane"), "{out}");
        assert!(
            out.starts_with("---\nauthor: a *person* Roe\n---\n# On a \\*person\\* Roe\n"),
            "{out}"
        );
        assert!(out.contains("`a *person*`"), "{out}");
        assert!(out.contains("[her page](#"), "{out}");
        assert!(out.contains("| a \\*person\\* |"), "{out}");
        assert!(
            out.contains("[ref]: https://example.org/roe \"Roe\""),
            "{out}"
        );
    }

    #[test]
    fn paragraphs_stay_apart_and_words_of_one_stay_together() {
        let (markdown, text) =
            read_doc("Jane **Roe** lives\nin Leeds.\n\nNext one, <https://x.org/Jane>.\n");
        let out = replace(&markdown, &text, "https://x.org/Jane", "web address");
        assert!(out.ends_with("Next one, web address.\n"), "{out}");
        assert!(text.contains("Jane Roe lives"), "{text:?}");
        assert!(text.contains("Next one,"), "{text:?}");
        assert!(!text.contains("Leeds.Next"), "{text:?}");
    }
}
