"""Real documents made by the tests: PDFs written with fpdf2, HTML and Markdown files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

# one page of a PDF says this; search must find it among the other pages
NEEDLE = ("The quokka partition holds eight L40 cards, each with 48 GB of memory; the A100 80GB "
          "has a memory bandwidth of 3 TB/s.")  # fmt: skip
NEEDLE_PAGE = 37


def make_pdf(path: Path, pages: int = 50, *, title: str | None = "Cluster runbook",
             created: dt.datetime | None = dt.datetime(2025, 3, 14, tzinfo=dt.UTC),
             text: bool = True, password: str | None = None,
             needle_page: int = NEEDLE_PAGE) -> Path:  # fmt: skip
    """A PDF of `pages` pages of operating notes (about 1,600 characters each); `needle_page`
    holds NEEDLE. Without `text`, pages carry only a drawn rectangle (as a scan would: no text)."""
    from fpdf import FPDF

    pdf = FPDF()
    if title:
        pdf.set_title(title)
    if created:
        pdf.set_creation_date(created)
    if password:
        pdf.set_encryption(owner_password="owner", user_password=password)
    pdf.set_font("Helvetica", size=11)
    for n in range(1, pages + 1):
        pdf.add_page()
        if not text:
            pdf.rect(20, 20, 100, 60)
            continue
        pdf.multi_cell(0, 6, f"Section {n}: operating notes for the training cluster.",
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        for k in range(12):
            pdf.multi_cell(0, 6, f"Paragraph {k} of page {n}. Jobs on the shared nodes are "
                           "scheduled by queue priority; checkpoints are written every "
                           f"{10 + k} minutes to the object store, and the nodes are drained "
                           "for maintenance on the first Sunday of the month.",
                           new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        if n == needle_page:
            pdf.multi_cell(0, 6, NEEDLE, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


HTML = """<!doctype html><html><head><title>Inference box notes</title>
<meta property="article:published_time" content="2024-06-02T10:00:00Z">
<script>var tracking = "never indexed";</script><style>.x { color: red }</style></head>
<body><nav><a href="/">Home</a> | <a href="/about">Site menu</a></nav>
<main><h1>Inference box notes</h1><p>We serve chat models from the <b>wombat</b> rack,
<i>mostly</i> with vLLM.</p>
<h2>Cards</h2><table><tr><th>GPU</th><th>Memory</th></tr><tr><td>L4</td><td>24 GB</td></tr>
</table><ul><li>vLLM for bf16</li><li>llama.cpp for GGUF</li></ul>
<pre># not a heading
x = 1</pre></main><footer>Copyright footer text</footer></body></html>
"""

MARKDOWN = """---
title: Team notes
date: 2023-05-06
publisher: Platform team
---
# Platypus queue

The **platypus** queue runs [fine-tuning](https://example.invalid/ft) jobs.

## Hardware

| GPU | Bandwidth |
|---|---|
| L40 | 864 GB/s |

```
# a comment in code
```
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path
