//! An [`Email`] written anew: its header fields and each part through `mail-builder`'s
//! header and part writers, each text with the edits that fall in its region.

use std::ops::Range;

use mail_builder::headers::Header as _;
use mail_builder::headers::address::Address as WrittenAddress;
use mail_builder::headers::content_type::ContentType as WrittenType;
use mail_builder::headers::text::Text as WrittenText;
use mail_builder::mime::{BodyPart, MimePart};
use sha2::{Digest, Sha256};

use super::{Content, Email, Field, Mailbox, MessageNode, Node, Recipient, with_newlines};
use crate::error::Result;
use crate::formats::piece_texts;
use crate::text::Edit;

/// The domain of every address the sanitizer changed (RFC 2606's `.invalid`).
const NO_ONES_DOMAIN: &str = "sanitized.invalid";

/// Text with its line breaks as CRLF, as MIME's canonical form of text has them.
fn with_crlf(text: &str) -> String {
    with_newlines(text).replace('\n', "\r\n")
}

/// For each region (in order, disjoint), the edits that fall in it, cut to it: an edit's
/// new text goes to the first region it touches, the others only lose what it covers.
pub(super) fn edits_by_region(edits: &[Edit], regions: &[Range<usize>]) -> Vec<Vec<Edit>> {
    let mut out = vec![Vec::new(); regions.len()];
    let mut first = 0;
    for edit in edits.iter().filter(|e| !e.range.is_empty()) {
        while first < regions.len() && regions[first].end <= edit.range.start {
            first += 1;
        }
        let mut owned = false;
        for (index, region) in regions.iter().enumerate().skip(first) {
            if region.start >= edit.range.end {
                break;
            }
            let range = edit.range.start.max(region.start)..edit.range.end.min(region.end);
            if range.is_empty() {
                continue;
            }
            let text = if owned {
                String::new()
            } else {
                edit.text.clone()
            };
            owned = true;
            out[index].push(Edit { range, text });
        }
    }
    out
}

/// Whether `address` is a plain `local@domain` (RFC 5322's dot-atom form, ASCII).
pub(super) fn is_plain_address(address: &str) -> bool {
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    let dot_atom = |s: &str, extra: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && !s.ends_with('.')
            && !s.contains("..")
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(c))
    };
    dot_atom(local, "!#$%&'*+/=?^_`{|}~") && dot_atom(domain, "")
}

/// The address written for one the sanitizer changed: its new text (what stands before
/// an `@` it kept) made a local part, at [`NO_ONES_DOMAIN`].
pub(super) fn no_ones_address(new_text: &str) -> String {
    let local = new_text
        .rsplit_once('@')
        .map_or(new_text, |(local, _)| local);
    let mut out = String::new();
    for c in local.chars() {
        if c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('.') {
            out.push('.');
        }
        if out.len() >= 64 {
            break;
        }
    }
    let local = out.trim_end_matches('.');
    let local = if local.is_empty() {
        "undisclosed"
    } else {
        local
    };
    format!("{local}@{NO_ONES_DOMAIN}")
}

/// Writes an [`Email`] with the edits of each region.
struct Writer<'a> {
    text: &'a str,
    regions: &'a [Range<usize>],
    edits: Vec<Vec<Edit>>,
}

impl Email {
    /// The message with `edits` (over the document's `text`, in order, disjoint) applied.
    pub(in crate::formats) fn write(&self, text: &str, edits: &[Edit]) -> Result<Vec<u8>> {
        let writer = Writer {
            text,
            regions: &self.regions,
            edits: edits_by_region(edits, &self.regions),
        };
        writer.message(&self.message)
    }
}

impl Writer<'_> {
    /// The new text of a region.
    fn new_text(&self, region: usize) -> String {
        let range = self.regions[region].clone();
        match piece_texts(self.text, std::slice::from_ref(&range), &self.edits[region]).pop() {
            Some((_, new)) => new,
            None => self.text[range].to_string(),
        }
    }

    fn message(&self, message: &MessageNode) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        for (name, field) in &message.fields {
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(b": ");
            match field {
                Field::Text(region) => {
                    WrittenText::new(self.new_text(*region)).write_header(&mut out, name.len() + 2)
                }
                Field::Addresses(recipients) => {
                    let list = recipients
                        .iter()
                        .map(|r| match r {
                            Recipient::Mailbox(mailbox) => self.mailbox(mailbox),
                            Recipient::Group { name, members } => WrittenAddress::new_group(
                                Some(self.new_text(*name)),
                                members.iter().map(|m| self.mailbox(m)).collect(),
                            ),
                        })
                        .collect();
                    WrittenAddress::new_list(list).write_header(&mut out, name.len() + 2)
                }
            }
        }
        out.extend_from_slice(b"MIME-Version: 1.0\r\n");
        let body = match &message.body {
            Some(node) => self.node(node)?,
            None => MimePart::new("text/plain", BodyPart::Text("".into())),
        };
        body.write_part(&mut out);
        Ok(out)
    }

    fn mailbox(&self, mailbox: &Mailbox) -> WrittenAddress<'static> {
        let name = mailbox
            .name
            .map(|n| self.new_text(n))
            .filter(|n| !n.trim().is_empty());
        let address = match mailbox.address {
            Some(region) if self.edits[region].is_empty() => {
                let address = self.new_text(region);
                if is_plain_address(&address) {
                    address
                } else {
                    no_ones_address(&address)
                }
            }
            Some(region) => no_ones_address(&self.new_text(region)),
            None => no_ones_address(""),
        };
        WrittenAddress::new_address(name, address)
    }

    fn node(&self, node: &Node) -> Result<MimePart<'static>> {
        let (content_type, disposition, content) = match node {
            Node::Multipart { subtype, parts } => {
                let mut hash = Sha256::new();
                let mut written = Vec::with_capacity(parts.len());
                for part in parts {
                    let mut bytes = Vec::new();
                    self.node(part)?.write_part(&mut bytes);
                    hash.update(&bytes);
                    written.push(MimePart::raw(BodyPart::Binary(bytes.into())));
                }
                let digest = hash.finalize();
                let boundary: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
                let kind = WrittenType::new(format!("multipart/{subtype}"))
                    .attribute("boundary", format!("declass-{boundary}"));
                return Ok(MimePart::new(kind, BodyPart::Multipart(written)));
            }
            Node::Leaf {
                content_type,
                disposition,
                content,
            } => (content_type, disposition, content),
        };
        let text_type = content_type.starts_with("text/");
        let mut part = match content {
            Content::Text(region) => MimePart::new(
                content_type.clone(),
                BodyPart::Text(with_crlf(&self.new_text(*region)).into()),
            ),
            Content::Document { region, package } => {
                let start = self.regions[*region].start;
                let edits: Vec<Edit> = self.edits[*region]
                    .iter()
                    .map(|e| Edit {
                        range: e.range.start - start..e.range.end - start,
                        text: e.text.clone(),
                    })
                    .collect();
                let bytes = package.write(&edits)?;
                // A web page or Markdown goes as text (its line breaks made CRLF, its
                // encoding chosen for text); anything else as the bytes it is.
                let body = if text_type {
                    match String::from_utf8(bytes) {
                        Ok(written) => BodyPart::Text(with_crlf(&written).into()),
                        Err(e) => BodyPart::Binary(e.into_bytes().into()),
                    }
                } else {
                    BodyPart::Binary(bytes.into())
                };
                MimePart::new(content_type.clone(), body)
            }
            // A message inside a message is never encoded (RFC 2046, 5.2.1): the one
            // written here is 7-bit, its own parts encoded.
            Content::Message(message) => MimePart::new(
                "message/rfc822",
                BodyPart::Binary(self.message(message)?.into()),
            )
            .transfer_encoding("7bit"),
        };
        if let Some(disposition) = disposition {
            let mut value = WrittenType::new(if disposition.attachment {
                "attachment"
            } else {
                "inline"
            });
            if let Some((stem, extension)) = &disposition.filename {
                value = value.attribute("filename", self.new_text(*stem) + extension);
            }
            part = part.header("Content-Disposition", value);
        }
        Ok(part)
    }
}
