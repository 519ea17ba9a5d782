//! HTML documents: the text nodes a reader sees and the attributes people read (`alt`,
//! `title`, `aria-label`, link targets) are the document's text; the markup around them
//! is kept byte for byte. `lol_html` tokenizes the page as browsers do and says where in
//! the source each text node and attribute value lies, so the output is the source with
//! only those places rewritten. Scripts and comments, which no reader sees and this module
//! cannot read, are removed; an author's `<meta>` is emptied.

use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{EndTag, TextType};
use lol_html::{EndTagHandler, RewriteStrSettings, doc_comments, doc_text, element, rewrite_str};

use super::{Disclosed, HiddenLog, paragraph_break};
use crate::error::{Error, Result};

/// Elements that end a paragraph of the text (the block-level elements of HTML).
const BLOCKS: [&str; 40] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "br",
    "caption",
    "dd",
    "details",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "option",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "title",
];

/// Attributes whose values people read or follow: sanitized as text of their own.
const READ_ATTRIBUTES: [&str; 5] = ["alt", "title", "aria-label", "placeholder", "href"];

/// Elements whose content is no text a reader sees in the page and that this module
/// cannot read (programs, and what shows where programs do not run): removed whole.
const UNREAD_ELEMENTS: [&str; 5] = ["script", "noscript", "noembed", "noframes", "xmp"];

/// `<meta name=…>` whose content names the document's author.
const AUTHOR_META: [&str; 3] = ["author", "creator", "dc.creator"];

/// What the tokenizer met, in document order.
enum Item {
    Break,
    /// A chunk of a text node (`last`: the node ends with it).
    Text {
        source: Range<usize>,
        last: bool,
    },
    /// An attribute value (`link`: a link's target).
    Attribute {
        source: Range<usize>,
        link: bool,
    },
    /// Source removed on writing.
    Remove {
        source: Range<usize>,
        what: Disclosed,
    },
}

/// A place of the source whose text is part of the document's text.
struct Slot {
    source: Range<usize>,
    /// An attribute value written without quotes: quoted when rewritten.
    unquoted_attribute: bool,
    /// A link's target: one the sanitizer changes leads nowhere (`#`) rather than to the
    /// words of its replacement.
    link: bool,
}

/// An HTML page read for sanitizing.
pub struct Html {
    source: String,
    slots: Vec<Slot>,
    /// Each slot's text in the document's text.
    pieces: Vec<Range<usize>>,
    removed: Vec<Range<usize>>,
}

/// Reads `source` (`name` for errors): appends its text to `text`.
pub(super) fn read(
    name: &str,
    source: String,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Html> {
    let items = Rc::new(RefCell::new(Vec::new()));
    let (on_element, on_text, on_comment) = (items.clone(), items.clone(), items.clone());
    let settings = RewriteStrSettings::new()
        .append_element_content_handler(element!("*", move |el| {
            let tag = el.tag_name();
            let block = BLOCKS.contains(&tag.as_str());
            let mut found = on_element.borrow_mut();
            if block {
                found.push(Item::Break);
            }
            let author_meta = tag == "meta"
                && el
                    .get_attribute("name")
                    .is_some_and(|n| AUTHOR_META.contains(&n.to_ascii_lowercase().as_str()));
            for attribute in el.attributes() {
                let Some(value) = attribute.value_source_location() else {
                    continue;
                };
                let source = value.bytes();
                if author_meta && attribute.name() == "content" {
                    found.push(Item::Remove {
                        source,
                        what: Disclosed::Properties,
                    });
                } else if READ_ATTRIBUTES.contains(&attribute.name().as_str()) {
                    found.push(Item::Attribute {
                        source,
                        link: attribute.name() == "href",
                    });
                }
            }
            drop(found);
            let start = el.source_location().bytes().start;
            if UNREAD_ELEMENTS.contains(&tag.as_str()) {
                let removed = on_element.clone();
                let handler: EndTagHandler<'static> = Box::new(move |end: &mut EndTag<'_>| {
                    removed.borrow_mut().push(Item::Remove {
                        source: start..end.source_location().bytes().end,
                        what: Disclosed::Script,
                    });
                    Ok(())
                });
                el.on_end_tag(handler)?;
            } else if block && el.can_have_content() {
                let after = on_element.clone();
                let handler: EndTagHandler<'static> = Box::new(move |_: &mut EndTag<'_>| {
                    after.borrow_mut().push(Item::Break);
                    Ok(())
                });
                el.on_end_tag(handler)?;
            }
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |chunk| {
            if matches!(
                chunk.text_type(),
                TextType::Data | TextType::RCData | TextType::PlainText
            ) {
                on_text.borrow_mut().push(Item::Text {
                    source: chunk.source_location().bytes(),
                    last: chunk.last_in_text_node(),
                });
            }
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(move |comment| {
            on_comment.borrow_mut().push(Item::Remove {
                source: comment.source_location().bytes(),
                what: Disclosed::XmlComment,
            });
            Ok(())
        }));
    rewrite_str(&source, settings)
        .map_err(|e| Error::input(name, format!("cannot read the HTML: {e}")))?;
    let items = std::mem::take(&mut *items.borrow_mut());
    let mut html = Html {
        slots: Vec::new(),
        pieces: Vec::new(),
        removed: Vec::new(),
        source,
    };
    // A text node may come in several chunks, next to each other in the source.
    let mut node: Option<Range<usize>> = None;
    for item in items {
        match item {
            Item::Break => paragraph_break(text),
            Item::Text { source, last } => {
                // The chunk that ends a node may be empty, with no place of its own.
                let whole = match (node.take(), source.is_empty()) {
                    (Some(open), true) => open,
                    (Some(open), false) => open.start..source.end,
                    (None, _) => source,
                };
                if last {
                    html.add_slot(name, text, whole, None)?;
                } else {
                    node = Some(whole);
                }
            }
            Item::Attribute { source, link } => {
                paragraph_break(text);
                html.add_slot(name, text, source, Some(link))?;
                paragraph_break(text);
            }
            Item::Remove { source, what } => {
                log.note(name, what);
                html.removed.push(source);
            }
        }
    }
    if let Some(open) = node {
        html.add_slot(name, text, open, None)?;
    }
    Ok(html)
}

impl Html {
    /// Adds the text at `source` (an attribute's value when `attribute` says whether it
    /// is a link's target) to the document's text. A place the tokenizer gave that is not
    /// in the source is an error: its text would be published unread.
    fn add_slot(
        &mut self,
        name: &str,
        text: &mut String,
        source: Range<usize>,
        attribute: Option<bool>,
    ) -> Result<()> {
        let raw = self
            .source
            .get(source.clone())
            .ok_or_else(|| Error::input(name, "cannot place a text of the page: not sanitized"))?;
        let quoted =
            source.start > 0 && matches!(self.source.as_bytes()[source.start - 1], b'"' | b'\'');
        let decoded = html_escape::decode_html_entities(raw);
        let start = text.len();
        text.push_str(&decoded);
        self.pieces.push(start..text.len());
        self.slots.push(Slot {
            source,
            unquoted_attribute: attribute.is_some() && !quoted,
            link: attribute == Some(true),
        });
        Ok(())
    }

    /// The places of the document's text, in order.
    pub(super) fn pieces(&self) -> &[Range<usize>] {
        &self.pieces
    }

    /// The page with `new_texts` (slot index → its new text, in order) in place, escaped
    /// for where each stands, and the removed places gone.
    pub(super) fn write(&self, new_texts: &[(usize, String)]) -> Vec<u8> {
        let mut changes: Vec<(Range<usize>, String)> = new_texts
            .iter()
            .map(|(slot, new)| {
                let slot = &self.slots[*slot];
                let escaped = if slot.link {
                    "#".to_string()
                } else {
                    escape(new)
                };
                let written = if slot.unquoted_attribute {
                    format!("\"{escaped}\"")
                } else {
                    escaped
                };
                (slot.source.clone(), written)
            })
            .chain(self.removed.iter().map(|r| (r.clone(), String::new())))
            .collect();
        changes.sort_by_key(|(range, _)| (range.start, std::cmp::Reverse(range.end)));
        let mut out = String::with_capacity(self.source.len());
        let mut at = 0;
        for (range, new) in changes {
            if range.start < at {
                continue; // inside a removed script or comment
            }
            out.push_str(&self.source[at..range.start]);
            out.push_str(&new);
            at = range.end;
        }
        out.push_str(&self.source[at..]);
        out.into_bytes()
    }
}

/// Text escaped for both an HTML text node and a quoted attribute value. Five characters
/// are all either context needs; a crate's encoder would pick one context per call.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_page(page: &str) -> (Html, String, Vec<super::super::HiddenContent>) {
        let mut text = String::new();
        let mut log = HiddenLog::default();
        let html = read("t.html", page.to_string(), &mut text, &mut log).expect("read");
        (html, text, log.into_list())
    }

    #[test]
    fn text_nodes_and_read_attributes_are_the_text_and_markup_stays() {
        let page = "<html><head><title>On Jane &amp; Co</title><meta name=author content=\"Jane Roe\"><script>var who = 'Jane Roe';</script></head>\
                    <body><p class=x>Jane <b>Roe</b> wrote.<!-- by Jane Roe --></p><img alt=Jane src=a.png></body></html>";
        let (html, text, hidden) = read_page(page);
        assert_eq!(text, "On Jane & Co\n\nJane Roe wrote.\n\nJane\n\n");
        let jane = |piece: &Range<usize>| text[piece.clone()].contains("Jane");
        let new_texts: Vec<(usize, String)> = html
            .pieces()
            .iter()
            .enumerate()
            .filter(|(_, p)| jane(p))
            .map(|(i, p)| (i, text[p.clone()].replace("Jane", "a <person>")))
            .collect();
        let out = String::from_utf8(html.write(&new_texts)).expect("UTF-8");
        assert_eq!(
            out,
            "<html><head><title>On a &lt;person&gt; &amp; Co</title><meta name=author content=\"\"></head>\
             <body><p class=x>a &lt;person&gt; <b>Roe</b> wrote.</p><img alt=\"a &lt;person&gt;\" src=a.png></body></html>"
        );
        let kinds: Vec<&str> = hidden.iter().map(|h| h.content).collect();
        assert!(kinds.contains(&"scripts"), "{kinds:?}");
        assert!(kinds.contains(&"comments in the markup"), "{kinds:?}");
    }
}
