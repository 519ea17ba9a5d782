#!/usr/bin/env python3
"""Makes the office fixtures of tests/fixtures/office/ with a real office suite.

A flat OpenDocument text (.fodt) is written here with every place a release famously
leaks a name: tracked changes (a deletion and an insertion by the person), a comment and
its author, a header and a footer, a footnote, document properties (author, title, a
custom property) and an image whose EXIF names the person and whose alternative text
describes her. LibreOffice then saves it as .odt and .docx (its own writers) and exports
it as .pdf (with the comment as an annotation and the headings as bookmarks), so the
fixtures are what an office suite writes, not what declass's tests assume.

    python3 scripts/office_fixtures.py OUT_DIR

Needs `soffice` (Debian `libreoffice-writer-nogui`) and Pillow (for the JPEG with EXIF).
"""

import base64
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

PERSON = "Jane Roe"


def jpeg_with_exif() -> bytes:
    image = Image.new("RGB", (16, 16), (200, 120, 40))
    exif = Image.Exif()
    exif[0x013B] = PERSON  # Artist
    exif[0x010E] = f"{PERSON} at home"  # ImageDescription
    exif[0x8298] = f"Copyright {PERSON}"  # Copyright
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes(), quality=80)
    return out.getvalue()


def flat_odt(picture: bytes) -> str:
    data = base64.b64encode(picture).decode()
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
  xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
  xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
  xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
  xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
  xmlns:xlink="http://www.w3.org/1999/xlink"
  office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta>
  <meta:initial-creator>{PERSON}</meta:initial-creator>
  <dc:creator>{PERSON}</dc:creator>
  <dc:title>Audit memorandum by {PERSON}</dc:title>
  <dc:subject>The audit of the Leeds office</dc:subject>
  <meta:keyword>{PERSON}</meta:keyword>
  <meta:user-defined meta:name="Client">{PERSON}</meta:user-defined>
 </office:meta>
 <office:styles>
  <style:style style:name="Standard" style:family="paragraph"/>
  <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph">
   <style:text-properties fo:font-size="16pt" fo:font-weight="bold"/>
  </style:style>
 </office:styles>
 <office:automatic-styles>
  <style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>
  <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin="2cm"/></style:page-layout>
 </office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Standard" style:page-layout-name="pm1">
   <style:header><text:p text:style-name="Standard">Confidential: prepared for {PERSON}</text:p></style:header>
   <style:footer><text:p text:style-name="Standard">Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>
  </style:master-page>
 </office:master-styles>
 <office:body>
  <office:text>
   <text:tracked-changes>
    <text:changed-region text:id="ct1">
     <text:deletion>
      <office:change-info><dc:creator>{PERSON}</dc:creator><dc:date>2024-03-01T10:00:00</dc:date></office:change-info>
      <text:p text:style-name="Standard">Her brother Tom Roe also attended.</text:p>
     </text:deletion>
    </text:changed-region>
    <text:changed-region text:id="ct2">
     <text:insertion>
      <office:change-info><dc:creator>{PERSON}</dc:creator><dc:date>2024-03-01T10:05:00</dc:date></office:change-info>
     </text:insertion>
    </text:changed-region>
   </text:tracked-changes>
   <text:h text:style-name="Heading_20_1" text:outline-level="1">The audit of the Leeds office</text:h>
   <text:p text:style-name="Standard"><text:span text:style-name="T1">The auditor, {PERSON},</text:span> met the board in <text:span text:style-name="T2">March</text:span>.<text:change text:change-id="ct1"/> The board accepted her findings<text:note text:id="ftn1" text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p text:style-name="Standard">As recorded by {PERSON} in the minutes.</text:p></text:note-body></text:note>.<office:annotation><dc:creator>{PERSON}</dc:creator><dc:date>2024-03-02T09:00:00</dc:date><text:p>Check this with {PERSON} before release.</text:p></office:annotation></text:p>
   <text:p text:style-name="Standard"><text:change-start text:change-id="ct2"/>{PERSON} signed the report on behalf of the firm.<text:change-end text:change-id="ct2"/> The accounts were in order.</text:p>
   <text:p text:style-name="Standard"><draw:frame draw:name="Portrait" svg:width="1cm" svg:height="1cm" text:anchor-type="as-char"><draw:image><office:binary-data>{data}</office:binary-data></draw:image><svg:title>{PERSON}</svg:title><svg:desc>A portrait of {PERSON}</svg:desc></draw:frame> The meeting closed at noon.</text:p>
  </office:text>
 </office:body>
</office:document>
"""


def convert(soffice: str, source: pathlib.Path, target: str, out: pathlib.Path, profile: str):
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
         "--convert-to", target, "--outdir", str(out), str(source)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300,
    )


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/office")
    out.mkdir(parents=True, exist_ok=True)
    soffice = shutil.which("soffice") or sys.exit("soffice not found (libreoffice-writer-nogui)")
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        source = work / "memo.fodt"
        source.write_text(flat_odt(jpeg_with_exif()), encoding="utf-8")
        profile = str(work / "profile")
        convert(soffice, source, "odt", work, profile)
        convert(soffice, source, "docx:MS Word 2007 XML", work, profile)
        pdf_filter = ('pdf:writer_pdf_Export:{"ExportNotes":{"type":"boolean","value":"true"},'
                      '"ExportBookmarks":{"type":"boolean","value":"true"}}')
        convert(soffice, source, pdf_filter, work, profile)
        for suffix in ("odt", "docx", "pdf"):
            shutil.copy(work / f"memo.{suffix}", out / f"memo.{suffix}")
            print(out / f"memo.{suffix}", (out / f"memo.{suffix}").stat().st_size, "bytes")


if __name__ == "__main__":
    main()
