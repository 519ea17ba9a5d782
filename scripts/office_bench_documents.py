#!/usr/bin/env python3
"""Builds a Word and an OpenDocument file of about N pages (500 words a page) from the
example article, and the PDF LibreOffice exports from the Word file, for the pages/s
figures of BENCHMARKS.md:

    python3 scripts/office_bench_documents.py 100   # article-100p.docx, .odt, .pdf

Needs python-docx and odfpy (`pip install python-docx odfpy`), and `soffice` (Debian
`libreoffice-writer-nogui`) for the PDF, which is left out without it. Every third
paragraph's first half is bold, so each paragraph has two runs of text."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

import docx
from odf import teletype, text as odftext
from odf.opendocument import OpenDocumentText
article = open(pathlib.Path(__file__).resolve().parent.parent / "examples" / "article.txt").read().strip().split("\n\n")
pages = int(sys.argv[1])
# about 500 words a page
words_per_par = sum(len(p.split()) for p in article) / len(article)
paragraphs = [article[i % len(article)] for i in range(int(pages * 500 / words_per_par))]
d = docx.Document()
d.core_properties.author = "Margaret Ellison"
for i, p in enumerate(paragraphs):
    par = d.add_paragraph()
    half = len(p) // 2
    par.add_run(p[:half]).bold = (i % 3 == 0)
    par.add_run(p[half:])
d.save(f"article-{pages}p.docx")
o = OpenDocumentText()
for p in paragraphs:
    e = odftext.P(); teletype.addTextToElement(e, p); o.text.addElement(e)
o.save(f"article-{pages}p.odt")
soffice = shutil.which("soffice")
if soffice:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless",
                        "--norestore", "--convert-to", "pdf", f"article-{pages}p.docx"],
                       check=True, stdout=subprocess.DEVNULL, timeout=600)
print(len(paragraphs), sum(len(p.split()) for p in paragraphs))
