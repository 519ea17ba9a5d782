"""Word, OpenDocument and e-mail files through `Engine.sanitize_file`, written and read
back by independent libraries (python-docx, odfpy, the standard library's `email`): the
released file opens, its text is the sanitized text, and the protected name is nowhere in
it."""

import email
import email.policy
import re
import zipfile
from email.message import EmailMessage

import docx
from odf import teletype, text as odftext
from odf.opendocument import OpenDocumentText, load


def normalized(text):
    return re.sub(r"\s+", " ", text).strip()


def everything_in(path):
    """Every part of a package, decompressed, as one lowercase string."""
    with zipfile.ZipFile(path) as package:
        return "\n".join(
            package.read(name).decode("utf-8", "replace").lower() for name in package.namelist()
        )


def test_a_word_file_comes_back_as_word_with_the_sanitized_text(engine, tmp_path):
    document = docx.Document()
    document.core_properties.author = "Jane Roe"
    document.core_properties.title = "About Jane Roe"
    document.sections[0].header.paragraphs[0].text = "Confidential: Jane Roe"
    heading = document.add_paragraph()
    heading.add_run("Report on ").bold = True
    heading.add_run("Jane Roe").italic = True
    body = document.add_paragraph("Jane Roe read a book about history in the garden.")
    document.add_comment(body.runs[0], text="Ask Jane Roe first.", author="Jane Roe", initials="JR")
    document.add_paragraph("Music helps.")
    source = tmp_path / "report.docx"
    document.save(source)

    out = tmp_path / "released.docx"
    result = engine.sanitize_file(source, out, protect=["Jane Roe"])

    assert "jane" not in everything_in(out) and "roe" not in everything_in(out)
    released = docx.Document(out)
    body_text = "\n".join(p.text for p in released.paragraphs)
    assert normalized(body_text) in normalized(result.text), (body_text, result.text)
    assert "Music helps." in body_text
    assert released.paragraphs[0].runs[0].bold, "the first run keeps its formatting"
    assert released.core_properties.author == ""
    parts = {h["part"] for h in result.report["hidden_content"]}
    assert "docProps/core.xml" in parts and "word/comments.xml" in parts, parts


def test_an_opendocument_file_comes_back_as_opendocument_with_the_sanitized_text(
    engine, tmp_path
):
    document = OpenDocumentText()
    for line in [
        "Report on Jane Roe",
        "Jane Roe read a book about history in the garden.",
        "Music helps.",
    ]:
        paragraph = odftext.P()
        teletype.addTextToElement(paragraph, line)
        document.text.addElement(paragraph)
    source = tmp_path / "report.odt"
    document.save(str(source))

    out = tmp_path / "released.odt"
    result = engine.sanitize_file(source, out, protect=["Jane Roe"])

    assert "jane" not in everything_in(out) and "roe" not in everything_in(out)
    released = load(str(out))
    paragraphs = [teletype.extractText(p) for p in released.getElementsByType(odftext.P)]
    assert normalized(" ".join(paragraphs)) == normalized(result.text), (paragraphs, result.text)
    assert "Music helps." in paragraphs


def test_a_text_file_is_sanitized_as_text(engine, tmp_path):
    source = tmp_path / "note.txt"
    source.write_text("Jane Roe read a book.\n")
    out = tmp_path / "released.txt"
    result = engine.sanitize_file(source, out, protect=["Jane Roe"])
    assert out.read_text() == result.text
    assert "Roe" not in result.text
    assert "hidden_content" not in result.report


def pdf_streams(data):
    """Every stream of a PDF, decompressed where it is Flate-compressed."""
    import zlib

    out = []
    for match in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(match.group(1)))
        except zlib.error:
            out.append(match.group(1))
    return out


def test_a_pdf_an_office_suite_wrote_comes_back_as_a_new_pdf(engine, tmp_path):
    import pathlib

    source = pathlib.Path(__file__).resolve().parents[2] / "tests/fixtures/office/memo.pdf"
    out = tmp_path / "released.pdf"
    result = engine.sanitize_file(source, out, protect=["Jane Roe"])

    data = out.read_bytes()
    assert data.startswith(b"%PDF-")
    everything = (data + b"".join(pdf_streams(data))).lower()
    assert b"jane" not in everything and b"roe" not in everything
    assert "Jane" not in result.text and "The accounts were in order." in result.text
    listed = {(h["part"], h["action"]) for h in result.report["hidden_content"]}
    assert ("Info dictionary", "removed") in listed, listed
    assert any(part == "annotations" for part, _ in listed), listed


def test_an_e_mail_comes_back_as_an_e_mail_without_the_name(engine, tmp_path):
    message = EmailMessage()
    message["From"] = "Jane Roe <jane.roe@example.com>"
    message["To"] = "ann@example.net"
    message["Subject"] = "Jane Roe in the garden"
    message["Message-ID"] = "<1.jane.roe@example.com>"
    message.set_content("Jane Roe read a book about history in the garden.\n\nMusic helps.\n")
    message.add_alternative("<p>Jane Roe read a book.</p><p>Music helps.</p>", subtype="html")
    message.add_attachment(
        b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="jane.png"
    )
    source = tmp_path / "message.eml"
    source.write_bytes(message.as_bytes())

    out = tmp_path / "released.eml"
    result = engine.sanitize_file(source, out, protect=["Jane Roe"])

    released = email.message_from_bytes(out.read_bytes(), policy=email.policy.default)
    seen = [str(value) for _, value in released.items()]
    for part in released.walk():
        seen.extend(str(value) for _, value in part.items())
        if not part.is_multipart():
            seen.append(part.get_content() if part.get_content_maintype() == "text" else "")
    assert not any("jane" in text.lower() or "roe" in text.lower() for text in seen), seen
    assert "Message-ID" not in released
    assert released.get_content_type() == "multipart/mixed"
    plain = released.get_body(preferencelist=("plain",)).get_content()
    assert "Music helps." in plain, plain
    assert normalized(plain) in normalized(result.text), (plain, result.text)
    parts = {h["part"] for h in result.report["hidden_content"]}
    assert "Message-ID" in parts, parts
    assert any(part.endswith("(image/png)") for part in parts), parts
