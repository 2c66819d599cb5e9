"""Reading a team's documents with their own parsers (advisor.retrieval.formats): Markdown by
markdown-it-py, HTML by BeautifulSoup, PDF by pypdf; title and date from each file's metadata,
else its name and modification time; unreadable files explained in one line."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from advisor.errors import InvalidInput
from advisor.retrieval.formats import html_to_markdown, read_any, read_html, read_markdown
from advisor.retrieval.ingest import Document, chunk_document
from tests.documents import HTML, MARKDOWN, NEEDLE, NEEDLE_PAGE, make_pdf, write

MTIME = dt.datetime(2022, 2, 3, 12, tzinfo=dt.UTC).timestamp()


def _dated(path: Path) -> Path:
    os.utime(path, (MTIME, MTIME))
    return path


def test_html_keeps_the_article_and_drops_the_page_furniture(tmp_path: Path) -> None:
    parsed = read_html(write(tmp_path / "box.html", HTML))
    assert (parsed.title, parsed.published) == ("Inference box notes", "2024-06-02")
    body = parsed.body
    for gone in ("never indexed", "color: red", "Site menu", "Copyright footer"):
        assert gone not in body
    assert body.startswith("# Inference box notes\n\nWe serve chat models from the wombat rack, "
                           "mostly with vLLM.\n\n## Cards\n\n")  # fmt: skip
    assert "| GPU | Memory |\n|---|---|\n| L4 | 24 GB |" in body  # a table the claims read
    assert "- vLLM for bf16\n\n- llama.cpp for GGUF" in body
    assert "\n    # not a heading\n    x = 1" in body  # code, indented: never a heading
    doc = Document("box", parsed.title, body, "box.html")
    assert [c.section for c in chunk_document(doc)] == ["Introduction", "Cards"]


@pytest.mark.parametrize(
    ("head", "title", "published"),
    [
        ('<meta property="og:title" content="OG title"><meta name="date" content="2021-07-08">',
         "OG title", "2021-07-08"),
        ('<meta itemprop="datePublished" content="2020-01-02T00:00">', "First heading",
         "2020-01-02"),
        ("", "First heading", "2022-02-03"),  # the file's modification date
    ],
)  # fmt: skip
def test_html_title_and_date_come_from_the_page_else_the_file(
    tmp_path: Path, head: str, title: str, published: str
) -> None:
    page = f"<html><head>{head}</head><body><h1>First heading</h1><p>Some text.</p></body></html>"
    parsed = read_html(_dated(write(tmp_path / "page.html", page)))
    assert (parsed.title, parsed.published) == (title, published)


def test_html_with_a_time_element_and_no_heading_uses_the_file_name(tmp_path: Path) -> None:
    page = '<p>Posted <time datetime="2019-09-09">in September</time>: hello.</p>'
    parsed = read_html(write(tmp_path / "h100-field_notes.html", page))
    assert (parsed.title, parsed.published) == ("h100 field notes", "2019-09-09")


def test_html_to_markdown_reads_bytes_in_their_declared_encoding() -> None:
    raw = '<meta charset="latin-1"><title>Caf\xe9</title><p>Ol\xe9</p>'.encode("latin-1")
    assert html_to_markdown(raw) == ("Café", "Olé\n")


def test_markdown_is_parsed_not_pattern_matched(tmp_path: Path) -> None:
    parsed = read_markdown(write(tmp_path / "notes.md", MARKDOWN))
    assert (parsed.title, parsed.published) == ("Team notes", "2023-05-06")
    assert parsed.meta["publisher"] == "Platform team"
    assert parsed.body.startswith("# Platypus queue\n\nThe platypus queue runs fine-tuning jobs.")
    assert "| L40 | 864 GB/s |" in parsed.body
    assert "\n    # a comment in code" in parsed.body  # a fenced line is not a heading
    doc = Document("n", parsed.title, parsed.body, "notes.md")
    assert [c.section for c in chunk_document(doc)] == [
        "Platypus queue",
        "Platypus queue > Hardware",
    ]


def test_markdown_without_front_matter_takes_its_first_heading_and_the_file_date(
    tmp_path: Path,
) -> None:
    parsed = read_markdown(_dated(write(tmp_path / "x.md", "Intro text.\n\n## Setup\n\nMore.\n")))
    assert (parsed.title, parsed.published) == ("Setup", "2022-02-03")
    parsed = read_markdown(write(tmp_path / "plain_notes.md", "Only a paragraph of text.\n"))
    assert parsed.title == "plain notes"


def test_a_pdf_is_read_page_by_page_with_its_metadata(tmp_path: Path) -> None:
    pages: list[tuple[int, int]] = []
    parsed = read_any(make_pdf(tmp_path / "runbook.pdf", pages=40),
                      lambda done, total: pages.append((done, total)))  # fmt: skip
    assert (parsed.title, parsed.published) == ("Cluster runbook", "2025-03-14")
    assert pages[0] == (1, 40) and pages[-1] == (40, 40)
    assert parsed.body.count("## Page ") == 40
    assert NEEDLE in parsed.body  # lines broken by the layout are joined again
    page = parsed.body.split(f"## Page {NEEDLE_PAGE}\n\n")[1].split("## Page")[0]
    assert NEEDLE in page
    doc = Document("rb", parsed.title, parsed.body, "runbook.pdf")
    assert {c.section for c in chunk_document(doc)} == {f"Page {n}" for n in range(1, 41)}


def test_a_pdf_without_metadata_takes_its_file_name_and_date(tmp_path: Path) -> None:
    pdf = _dated(make_pdf(tmp_path / "gpu_quotes-2022.pdf", pages=1, title=None, created=None))
    parsed = read_any(pdf)
    assert parsed.title == "gpu quotes 2022"
    assert parsed.published in ("2022-02-03", dt.date.today().isoformat())  # fpdf2 may date it


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.md", b"", "empty.md is empty: nothing to add."),
        ("empty.pdf", b"", "empty.pdf is empty: nothing to add."),
        ("broken.pdf", b"%PDF-1.4 garbage", "broken.pdf is not a readable PDF ("),
        ("text.pdf", b"just text, not a PDF", "text.pdf is not a readable PDF ("),
        ("blank.md", b"   \n\n", "blank.md has no text to index."),
        ("latin.md", "caf\xe9".encode("latin-1"), "latin.md is not UTF-8 text."),
        ("script.html", b"<script>x = 1</script><style>p {}</style>",
         "script.html has no text to index."),
        ("notes.docx", b"PK\x03\x04", "notes.docx: only Markdown (.md), HTML"),
    ],
)  # fmt: skip
def test_a_file_that_cannot_be_read_is_explained_in_one_line(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(InvalidInput) as failed:
        read_any(tmp_path / name)
    assert str(failed.value).startswith(message) and "\n" not in str(failed.value)


def test_a_scanned_or_locked_pdf_and_a_missing_file_are_explained(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"scan\.pdf has no text to index \(a scanned PDF"):
        read_any(make_pdf(tmp_path / "scan.pdf", pages=2, text=False))
    with pytest.raises(InvalidInput, match=r"locked\.pdf is encrypted"):
        read_any(make_pdf(tmp_path / "locked.pdf", pages=1, password="pw"))
    with pytest.raises(InvalidInput, match=r"gone\.pdf: no such file"):
        read_any(tmp_path / "gone.pdf")
