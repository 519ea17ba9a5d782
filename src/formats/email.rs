//! E-mail messages (RFC 5322 with MIME bodies, `.eml`): the sender, the recipients and the
//! subject, then every text part and every attachment declass reads, in the order the
//! message holds them (the body first, as mailers write it), make one text. The message
//! is written anew from what it held, never copied: the header fields that name people,
//! the structure of the body (each multipart's nesting, each part's type and disposition)
//! and the sanitized texts; every other header field is removed, and so is every part
//! this module cannot read, each listed.
//!
//! `mail-parser` reads the message (transfer encodings, charsets, RFC 2047 and RFC 2231
//! words, nested messages) and `mail-builder` writes each part (the same words, the
//! transfer encodings, folding). `mail-builder`'s message writer is not used: it adds a
//! Message-ID and a Date of its own and picks random boundaries. So the header fields are
//! written here, and each multipart's boundary is a hash of the parts it separates: the
//! same input gives the same bytes, and no part can hold its own hash by chance.
//!
//! An address the sanitizer changed is no one's address any more: it is written as the
//! sanitized text made into a local part, in the `.invalid` top-level domain RFC 2606
//! reserves for names that must never resolve (`a.person@sanitized.invalid`), so the
//! header stays valid and no mail can reach a real mailbox through it.

use std::ops::Range;
use std::path::Path;

use mail_parser::{
    Addr, Address, HeaderName, HeaderValue, Message, MessageParser, MessagePart, MimeHeaders,
    PartType,
};

use super::{Disclosed, FormatsConfig, HiddenContent, HiddenLog, Kind, Package, paragraph_break};
use crate::error::{Error, Result};

/// How deep messages may nest inside messages: each level is a recursion of the reader,
/// and a forwarded message is rarely more than a few levels deep.
const MAX_NESTED_MESSAGES: usize = 32;

/// How much of a file is looked at to tell whether it opens with a message's header.
const SNIFF_BYTES: usize = 64 * 1024;

/// Header fields only an e-mail opens with: one of them and another field make a file an
/// e-mail by its content.
const MESSAGE_FIELDS: [&str; 7] = [
    "from",
    "received",
    "return-path",
    "mime-version",
    "message-id",
    "delivered-to",
    "dkim-signature",
];

/// Other header fields a message commonly opens with.
const COMMON_FIELDS: [&str; 10] = [
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "sender",
    "reply-to",
    "x-mailer",
    "user-agent",
    "content-type",
];

/// Types of encrypted content, which no sanitizer can read.
const ENCRYPTED_TYPES: [&str; 4] = [
    "multipart/encrypted",
    "application/pkcs7-mime",
    "application/x-pkcs7-mime",
    "application/pgp-encrypted",
];

/// Whether `bytes` open with an e-mail's header: header fields (or their continuation
/// lines) up to a blank line, the first a field messages open with, among them one only a
/// message has and another. A text that merely holds "From:" somewhere is no e-mail.
pub(super) fn opens_with_header(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(SNIFF_BYTES)]);
    let head = head.strip_prefix('\u{feff}').unwrap_or(&head);
    let (mut fields, mut message_field) = (0, false);
    for (index, line) in head.split_inclusive('\n').enumerate() {
        let Some(line) = line.strip_suffix('\n') else {
            return false;
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            return message_field && fields >= 2;
        }
        if line.starts_with([' ', '\t']) {
            if index == 0 {
                return false;
            }
            continue;
        }
        let Some((name, _)) = line.split_once(':') else {
            return false;
        };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return false;
        }
        let name = name.to_ascii_lowercase();
        let known = COMMON_FIELDS.contains(&name.as_str());
        let only_message = MESSAGE_FIELDS.contains(&name.as_str());
        if index == 0 && !known && !only_message {
            return false;
        }
        fields += usize::from(known || only_message);
        message_field |= only_message;
    }
    false
}

/// An e-mail read for sanitizing.
pub struct Email {
    message: MessageNode,
    /// Where each text the message is written from lies in the document's text, in order.
    regions: Vec<Range<usize>>,
}

/// A message: its kept header fields and its body.
struct MessageNode {
    fields: Vec<(&'static str, Field)>,
    /// `None` when no part of the body could be kept.
    body: Option<Node>,
}

enum Field {
    /// Mailboxes and groups (From, To…).
    Addresses(Vec<Recipient>),
    /// The Subject: one region.
    Text(usize),
}

enum Recipient {
    Mailbox(Mailbox),
    /// A named group (RFC 5322's `name: members;`): its name is a region.
    Group {
        name: usize,
        members: Vec<Mailbox>,
    },
}

/// A display name and an address, each a region.
struct Mailbox {
    name: Option<usize>,
    address: Option<usize>,
}

enum Node {
    Multipart {
        subtype: String,
        parts: Vec<Node>,
    },
    Leaf {
        /// `type/subtype`, lowercase.
        content_type: String,
        disposition: Option<Disposition>,
        content: Content,
    },
}

struct Disposition {
    attachment: bool,
    /// The file name: its stem (a region) and its extension, which is kept so that the
    /// file still opens with its program whatever replaces a name in the stem.
    filename: Option<(usize, String)>,
}

enum Content {
    /// Plain text: one region, line breaks as `\n`.
    Text(usize),
    /// A document in its own format (a web page, a Word file…), whose text is one region.
    Document {
        region: usize,
        package: Box<Package>,
    },
    /// A message inside the message (`message/rfc822`).
    Message(Box<MessageNode>),
}

/// What a leaf part is read as.
enum Reading<'m> {
    Text(String),
    Document(Kind, Vec<u8>),
    Message(&'m Message<'m>),
    Removed,
}

/// Reads the message `bytes` (`path` for errors): appends its text to `text`.
pub(super) fn read(
    path: &Path,
    bytes: &[u8],
    config: &FormatsConfig,
    text: &mut String,
    log: &mut HiddenLog,
) -> Result<Email> {
    let parser = MessageParser::new()
        .with_mime_headers()
        .with_address_headers()
        .header_text(HeaderName::Subject);
    let message = parser
        .parse(bytes)
        .ok_or_else(|| Error::input(path, "no e-mail header: damaged, or not an e-mail"))?;
    let mut reader = Reader {
        path,
        config,
        text,
        log,
        regions: Vec::new(),
    };
    let message = reader.message(&message, "", 0)?;
    Ok(Email {
        message,
        regions: reader.regions,
    })
}

struct Reader<'a> {
    path: &'a Path,
    /// How attachments in other formats are read.
    config: &'a FormatsConfig,
    text: &'a mut String,
    log: &'a mut HiddenLog,
    regions: Vec<Range<usize>>,
}

/// The header fields written back, sanitized, by their names as written.
fn kept_field(name: &HeaderName<'_>) -> Option<&'static str> {
    Some(match name {
        HeaderName::From => "From",
        HeaderName::Sender => "Sender",
        HeaderName::ReplyTo => "Reply-To",
        HeaderName::To => "To",
        HeaderName::Cc => "Cc",
        HeaderName::Bcc => "Bcc",
        HeaderName::Subject => "Subject",
        _ => return None,
    })
}

/// The fields of the body's structure, written anew from what they say.
fn structure_field(name: &HeaderName<'_>) -> bool {
    matches!(
        name,
        HeaderName::ContentType
            | HeaderName::ContentTransferEncoding
            | HeaderName::ContentDisposition
            | HeaderName::MimeVersion
    )
}

/// The name of a place in the message: `prefix: what`, or `what` at the top.
fn located(prefix: &str, what: &str) -> String {
    if prefix.is_empty() {
        what.to_string()
    } else {
        format!("{prefix}: {what}")
    }
}

/// The section number of child `index` (1-based) of the part numbered `section`.
fn child_section(section: &str, index: usize) -> String {
    if section.is_empty() {
        index.to_string()
    } else {
        format!("{section}.{index}")
    }
}

/// A part's `type/subtype`, lowercase: `text/plain` when it says none (RFC 2045).
fn content_type(part: &MessagePart<'_>) -> String {
    part.content_type().map_or_else(
        || "text/plain".to_string(),
        |t| match t.subtype() {
            Some(subtype) => format!("{}/{subtype}", t.ctype()).to_ascii_lowercase(),
            None => t.ctype().to_ascii_lowercase(),
        },
    )
}

/// A file name's stem and its extension (`.docx`: a dot and up to 8 letters or digits).
fn split_extension(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(at)
            if at > 0
                && (2..=9).contains(&(name.len() - at))
                && name[at + 1..].chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            name.split_at(at)
        }
        _ => (name, ""),
    }
}

/// A `format=flowed` text (RFC 3676) with its soft line breaks undone: a line ending in
/// a space goes on in the next one of the same quote depth (the space dropped with
/// `delsp=yes`), and a space stuffed in front of a line is taken out. A name the mailer
/// broke across two lines ("Jane ⏎ Roe") is then one name to the sanitizer; the part is
/// written back with its lines whole.
fn unflowed(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<usize> = None;
    for line in text.lines() {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        if open.is_some_and(|d| d != depth) {
            out.push('\n');
            open = None;
        }
        if open.is_none() && depth > 0 {
            out.push_str(&">".repeat(depth));
            out.push(' ');
        }
        let flowed = content.ends_with(' ') && content != "-- ";
        match (flowed, delsp) {
            (true, true) => out.push_str(&content[..content.len() - 1]),
            _ => out.push_str(content),
        }
        if flowed {
            open = Some(depth);
        } else {
            out.push('\n');
            open = None;
        }
    }
    if !text.ends_with('\n') && out.ends_with('\n') && open.is_none() {
        out.pop();
    }
    out
}

/// Text with its line breaks as `\n`.
fn with_newlines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

impl Reader<'_> {
    fn damaged(&self, place: &str, what: &str) -> Error {
        Error::input(self.path, format!("{place}: damaged: {what}"))
    }

    /// Appends `value` to the text as a region of its own.
    fn region(&mut self, value: &str) -> usize {
        let start = self.text.len();
        self.text.push_str(value);
        self.regions.push(start..self.text.len());
        self.regions.len() - 1
    }

    /// Reads a message: the file's (`section` empty), or one inside it (`section` 2: the
    /// message that is part 2).
    fn message(
        &mut self,
        message: &Message<'_>,
        section: &str,
        depth: usize,
    ) -> Result<MessageNode> {
        let prefix = if section.is_empty() {
            String::new()
        } else {
            format!("part {section}")
        };
        let root = message
            .parts
            .first()
            .ok_or_else(|| self.damaged(&located(&prefix, "message"), "no header"))?;
        let mut fields = Vec::new();
        for header in root.headers() {
            match kept_field(&header.name) {
                Some(name) => {
                    if let Some(field) = self.field(name, header.value()) {
                        fields.push((name, field));
                    }
                }
                None if structure_field(&header.name) => {}
                None => self.log.note(
                    &located(&prefix, header.name.as_str()),
                    Disclosed::MailHeader,
                ),
            }
        }
        let body_section = if root.is_multipart() {
            section.to_string()
        } else {
            child_section(section, 1)
        };
        let body = self.part(message, 0, &body_section, depth)?;
        Ok(MessageNode { fields, body })
    }

    /// Reads a kept header field into the text (`From: Name <address>`).
    fn field(&mut self, name: &'static str, value: &HeaderValue<'_>) -> Option<Field> {
        let field = match value {
            HeaderValue::Text(subject) if name == "Subject" => {
                self.text.push_str("Subject: ");
                Field::Text(self.region(subject))
            }
            HeaderValue::Address(Address::List(list)) => {
                self.text.push_str(name);
                self.text.push_str(": ");
                let mut recipients = Vec::with_capacity(list.len());
                for (index, addr) in list.iter().enumerate() {
                    if index > 0 {
                        self.text.push_str(", ");
                    }
                    recipients.push(Recipient::Mailbox(self.mailbox(addr)));
                }
                Field::Addresses(recipients)
            }
            HeaderValue::Address(Address::Group(groups)) => {
                self.text.push_str(name);
                self.text.push_str(": ");
                let mut recipients = Vec::with_capacity(groups.len());
                for group in groups {
                    let group_name = group.name.as_deref().map(|n| {
                        let region = self.region(n);
                        self.text.push_str(": ");
                        region
                    });
                    let mut members = Vec::with_capacity(group.addresses.len());
                    for (index, addr) in group.addresses.iter().enumerate() {
                        if index > 0 {
                            self.text.push_str(", ");
                        }
                        members.push(self.mailbox(addr));
                    }
                    self.text.push_str("; ");
                    match group_name {
                        Some(name) => recipients.push(Recipient::Group { name, members }),
                        None => recipients.extend(members.into_iter().map(Recipient::Mailbox)),
                    }
                }
                Field::Addresses(recipients)
            }
            _ => return None,
        };
        paragraph_break(self.text);
        Some(field)
    }

    fn mailbox(&mut self, addr: &Addr<'_>) -> Mailbox {
        let name = addr.name().filter(|n| !n.trim().is_empty()).map(|n| {
            let region = self.region(n);
            self.text.push(' ');
            region
        });
        let address = addr.address().map(|a| {
            self.text.push('<');
            let region = self.region(a);
            self.text.push('>');
            region
        });
        Mailbox { name, address }
    }

    /// Reads part `id` of `message`, numbered `section`: `None` when it is removed.
    fn part(
        &mut self,
        message: &Message<'_>,
        id: u32,
        section: &str,
        depth: usize,
    ) -> Result<Option<Node>> {
        let place = if section.is_empty() {
            "body".to_string()
        } else {
            format!("part {section}")
        };
        let part = message
            .parts
            .get(id as usize)
            .ok_or_else(|| self.damaged(&place, "a part the message lists is missing"))?;
        if part.is_encoding_problem {
            return Err(self.damaged(&place, "its encoding or structure cannot be read"));
        }
        let content_type = content_type(part);
        if ENCRYPTED_TYPES.contains(&content_type.as_str()) {
            return Err(Error::input(
                self.path,
                format!(
                    "{place}: encrypted or enveloped ({content_type}), which declass cannot \
                     read: decrypt the message first"
                ),
            ));
        }
        let PartType::Multipart(children) = &part.body else {
            if content_type.starts_with("multipart/") {
                return Err(self.damaged(&place, "a multipart without its boundary"));
            }
            let leaf = self.leaf(part, &place, section, content_type, depth)?;
            if leaf.is_some() && id != 0 {
                self.note_fields(part, &place);
            }
            return Ok(leaf);
        };
        if id != 0 {
            self.note_fields(part, &place);
        }
        let boundary = part
            .content_type()
            .and_then(|t| t.attribute("boundary"))
            .unwrap_or_default();
        let closing = format!("--{boundary}--");
        let closed = message
            .raw_message
            .get(part.offset_body as usize..part.offset_end as usize)
            .is_some_and(|raw| raw.windows(closing.len()).any(|w| w == closing.as_bytes()));
        if !closed {
            return Err(self.damaged(&place, "a multipart that does not end (cut short?)"));
        }
        let subtype = content_type
            .strip_prefix("multipart/")
            .unwrap_or("mixed")
            .to_string();
        let mut parts = Vec::with_capacity(children.len());
        for (index, &child) in children.iter().enumerate() {
            let child_section = child_section(section, index + 1);
            if subtype == "signed" && index > 0 {
                // The signature no longer holds once the text changes.
                self.log
                    .note(&format!("part {child_section}"), Disclosed::MailSignature);
                continue;
            }
            if let Some(node) = self.part(message, child, &child_section, depth)? {
                parts.push(node);
            }
        }
        if subtype == "signed" {
            return Ok(parts.pop());
        }
        Ok((!parts.is_empty()).then_some(Node::Multipart { subtype, parts }))
    }

    /// Lists the header fields of a kept part (`Content-ID`, `Content-Description`…) beside
    /// those of its structure.
    fn note_fields(&mut self, part: &MessagePart<'_>, place: &str) {
        for header in part.headers() {
            if !structure_field(&header.name) {
                self.log
                    .note(&located(place, header.name.as_str()), Disclosed::MailHeader);
            }
        }
    }

    /// Reads a part that is no multipart.
    fn leaf(
        &mut self,
        part: &MessagePart<'_>,
        place: &str,
        section: &str,
        content_type: String,
        depth: usize,
    ) -> Result<Option<Node>> {
        let filename = part.attachment_name();
        let reading = match &part.body {
            PartType::Message(message) => Reading::Message(message),
            PartType::Html(html) => Reading::Document(Kind::Html, with_newlines(html).into_bytes()),
            PartType::Text(text) => {
                let markdown_name = filename.is_some_and(|n| {
                    let n = n.to_ascii_lowercase();
                    n.ends_with(".md") || n.ends_with(".markdown")
                });
                match content_type.as_str() {
                    "text/markdown" | "text/x-markdown" => {
                        Reading::Document(Kind::Markdown, with_newlines(text).into_bytes())
                    }
                    "text/plain" if markdown_name => {
                        Reading::Document(Kind::Markdown, with_newlines(text).into_bytes())
                    }
                    "text/plain" => {
                        let attribute = |name| part.content_type().and_then(|t| t.attribute(name));
                        let text = with_newlines(text);
                        if attribute("format").is_some_and(|f| f.eq_ignore_ascii_case("flowed")) {
                            let delsp =
                                attribute("delsp").is_some_and(|d| d.eq_ignore_ascii_case("yes"));
                            Reading::Text(unflowed(&text, delsp))
                        } else {
                            Reading::Text(text)
                        }
                    }
                    _ => Reading::Removed,
                }
            }
            PartType::Binary(bytes) | PartType::InlineBinary(bytes) => {
                self.binary(place, filename, &content_type, bytes)?
            }
            PartType::Multipart(_) => {
                return Err(self.damaged(place, "a multipart read as a single part"));
            }
        };
        if let Reading::Text(text) = &reading
            && text.contains("-----BEGIN PGP MESSAGE-----")
        {
            return Err(Error::input(
                self.path,
                format!("{place}: encrypted (PGP): decrypt the message first"),
            ));
        }
        if matches!(reading, Reading::Removed) {
            self.log.note(
                &format!("{place} ({content_type})"),
                Disclosed::MailAttachment,
            );
            return Ok(None);
        }
        let filename = filename.map(|name| {
            self.text.push_str("Attachment: ");
            let (stem, extension) = split_extension(name);
            let region = self.region(stem);
            self.text.push_str(extension);
            paragraph_break(self.text);
            (region, extension.to_string())
        });
        let disposition = part.content_disposition();
        let disposition = (disposition.is_some() || filename.is_some()).then(|| Disposition {
            attachment: disposition.is_none_or(|d| !d.is_inline()),
            filename,
        });
        let content = match reading {
            Reading::Text(text) => {
                let region = self.region(&text);
                paragraph_break(self.text);
                Content::Text(region)
            }
            Reading::Document(kind, bytes) => {
                let package = Package::read(Path::new(place), kind, &bytes, self.config)
                    .map_err(|e| e.within(self.path.display().to_string()))?;
                let region = self.region(package.text());
                paragraph_break(self.text);
                self.log.include(place, package.hidden_content());
                Content::Document {
                    region,
                    package: Box::new(package),
                }
            }
            Reading::Message(message) => {
                if depth >= MAX_NESTED_MESSAGES {
                    return Err(Error::input(
                        self.path,
                        format!(
                            "{place}: messages nested more than {MAX_NESTED_MESSAGES} deep: refused"
                        ),
                    ));
                }
                Content::Message(Box::new(self.message(message, section, depth + 1)?))
            }
            Reading::Removed => return Ok(None),
        };
        Ok(Some(Node::Leaf {
            content_type,
            disposition,
            content,
        }))
    }

    /// What a binary part is read as: a document of a format declass reads (by its
    /// content, and its file name's extension), plain text named `.txt`, or nothing. A
    /// part that says it is a Word or OpenDocument file and is no readable one is damaged;
    /// any other part declass cannot read (an image, an archive, a program) is removed.
    fn binary(
        &self,
        place: &str,
        filename: Option<&str>,
        content_type: &str,
        bytes: &[u8],
    ) -> Result<Reading<'static>> {
        let name = Path::new(filename.unwrap_or("attachment"));
        let extension = name
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match Kind::sniff(name, bytes) {
            Ok(Some(kind)) => Ok(Reading::Document(kind, bytes.to_vec())),
            Ok(None) if extension.as_deref() == Some("txt") => Ok(std::str::from_utf8(bytes)
                .ok()
                .filter(|t| !t.contains('\0'))
                .map_or(Reading::Removed, |t| Reading::Text(with_newlines(t)))),
            Ok(None) => Ok(Reading::Removed),
            Err(e) => {
                let claims_document = matches!(extension.as_deref(), Some("docx" | "docm" | "odt"))
                    || content_type.starts_with(
                        "application/vnd.openxmlformats-officedocument.wordprocessingml",
                    )
                    || content_type == "application/vnd.oasis.opendocument.text";
                if claims_document {
                    // Named by its place, not its file name, which often names the person.
                    let why = match e {
                        Error::Input { message, .. } => message,
                        other => other.to_string(),
                    };
                    Err(Error::input(self.path, format!("{place}: {why}")))
                } else {
                    Ok(Reading::Removed)
                }
            }
        }
    }
}

impl HiddenLog {
    /// Lists what a document inside the message (at `place`) held beside its text.
    fn include(&mut self, place: &str, hidden: &[HiddenContent]) {
        self.1.extend(hidden.iter().map(|h| HiddenContent {
            part: if h.part == place {
                h.part.clone()
            } else {
                located(place, &h.part)
            },
            ..h.clone()
        }));
    }
}

#[cfg(test)]
mod tests;
mod write;
