"""Reading a team's own documents: Markdown (markdown-it-py), HTML (BeautifulSoup) and PDF
(pypdf), each by its maintained parser, into one form the chunker reads: Markdown-style text
with '#' headings, blank lines between blocks, '- ' list items and '|' table rows. Each gives
its title and date from the file's own metadata (front matter, <title> and <meta>, the PDF's
document information), else the file name and modification time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.errors import InvalidInput

MARKDOWN_SUFFIXES = (".md", ".markdown")
HTML_SUFFIXES = (".html", ".htm")
PDF_SUFFIXES = (".pdf",)
ADDABLE = (*MARKDOWN_SUFFIXES, *HTML_SUFFIXES, *PDF_SUFFIXES)

# what never carries an article's text: page furniture and code
_DROP = {"script", "style", "nav", "footer", "header", "aside", "form", "noscript", "svg",
         "template", "iframe", "button", "head", "title", "meta", "link"}  # fmt: skip
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = {"p", "div", "section", "article", "main", "blockquote", "figure", "figcaption", "dl",
           "dt", "dd", "address", "details", "summary", "body", "html", "center", "li"}  # fmt: skip
# where an HTML page keeps its publication date, most specific first
_DATE_META = ("article:published_time", "og:published_time", "datepublished", "date",
              "dc.date", "dc.date.issued", "dcterms.created", "pubdate", "publish-date",
              "article:modified_time", "last-modified")  # fmt: skip
PageProgress = Callable[[int, int], None]  # (pages read, pages)


@dataclass(frozen=True)
class Parsed:
    """A document's text in the chunker's form, with its title and date (YYYY-MM-DD)."""

    title: str
    published: str
    body: str
    meta: dict[str, Any]  # front matter of a Markdown file (doc_id, source_url, publisher ...)


def file_date(path: Path) -> str:
    """The file's modification date: the date of a document that states none."""
    return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).date().isoformat()


def _iso_date(value: Any) -> str | None:
    """YYYY-MM-DD from a date, a datetime or text that starts with an ISO date."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()[:10]
    match = re.match(r"\s*(\d{4}-\d{2}-\d{2})", str(value or ""))
    if match:
        return match.group(1)
    match = re.match(r"\s*(?:D:)?(\d{4})(\d{2})(\d{2})", str(value or ""))  # PDF D:20240131...
    return "-".join(match.groups()) if match else None


def _title_from_name(path: Path) -> str:
    return re.sub(r"[-_]+", " ", path.stem).strip() or path.name


# ---------------------------------------------------------------- HTML


def html_to_markdown(html: str | bytes) -> tuple[str, str]:
    """(the page's <title>, its text in the chunker's form), parsed by BeautifulSoup. Scripts,
    styles, navigation, headers and footers are left out; <main> or <article> is read alone
    when the page has one."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    root = soup.find("main") or soup.find("article") or soup.body or soup
    blocks: list[str] = []
    _walk(root, blocks)
    text = "\n\n".join(blocks)
    return title, (text + "\n") if text else ""


def _walk(element: Any, out: list[str]) -> None:
    """Append the element's blocks to `out`; inline runs between blocks become paragraphs."""
    from bs4.element import NavigableString, PreformattedString, Tag

    inline: list[str] = []

    def flush() -> None:
        text = " ".join("".join(inline).split())
        if text:
            out.append(text)
        inline.clear()

    for child in element.children:
        if isinstance(child, PreformattedString):  # comments, doctype, CDATA
            continue
        if isinstance(child, NavigableString):
            inline.append(str(child))
            continue
        if not isinstance(child, Tag) or child.name in _DROP:
            continue
        name = child.name
        if name in _HEADINGS:
            flush()
            text = " ".join(child.get_text(" ").split())
            if text:
                out.append("#" * _HEADINGS[name] + " " + text)
        elif name in ("ul", "ol"):
            flush()
            for item in child.find_all("li", recursive=False):
                text = " ".join(item.get_text(" ").split())
                if text:
                    out.append("- " + text)
        elif name == "table":
            flush()
            rows = _table(child)
            if rows:
                out.append("\n".join(rows))
        elif name == "pre":
            flush()
            code = child.get_text().strip("\n")
            if code.strip():  # indented, so a '#' line of code is never read as a heading
                out.append("\n".join("    " + line for line in code.splitlines()))
        elif name == "br":
            inline.append(" ")
        elif name in _BLOCKS:
            flush()
            _walk(child, out)
        else:
            inline.append(child.get_text())
    flush()


def _table(table: Any) -> list[str]:
    rows = []
    for tr in table.find_all("tr"):
        cells = [" ".join(c.get_text(" ").split()).replace("|", "/")
                 for c in tr.find_all(["th", "td"])]  # fmt: skip
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    if len(rows) > 1:  # a Markdown table: the first row is the header
        width = rows[0].count("|") - 1
        rows.insert(1, "|" + "---|" * width)
    return rows


def _html_date(soup: Any) -> str | None:
    found: dict[str, str] = {}
    for meta in soup.find_all("meta"):
        key = str(meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        if key in _DATE_META and meta.get("content"):
            found.setdefault(key, str(meta["content"]))
    for key in _DATE_META:
        if key in found and (date := _iso_date(found[key])):
            return date
    time_tag = soup.find("time", attrs={"datetime": True})
    return _iso_date(time_tag["datetime"]) if time_tag else None


def read_html(path: Path) -> Parsed:
    from bs4 import BeautifulSoup

    raw = path.read_bytes()
    title, body = html_to_markdown(raw)
    soup = BeautifulSoup(raw, "html.parser")
    og_title = soup.find("meta", attrs={"property": "og:title"})
    if not title and og_title and og_title.get("content"):
        title = str(og_title["content"]).strip()
    if not title:
        first = re.search(r"^#{1,6} (.+)$", body, re.MULTILINE)
        title = first.group(1) if first else _title_from_name(path)
    if not body.strip():
        raise InvalidInput(f"{path.name} has no text to index.")
    return Parsed(title, _html_date(soup) or file_date(path), body, {})


# ---------------------------------------------------------------- Markdown


def read_markdown(path: Path) -> Parsed:
    """Front matter (YAML) for the metadata; the body parsed by markdown-it-py (CommonMark and
    tables) and brought to the chunker's form like an HTML page."""
    from markdown_it import MarkdownIt

    from advisor.retrieval.ingest import split_front_matter

    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidInput(f"{path.name} is not UTF-8 text.") from None
    meta, source = split_front_matter(raw)
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(source)
    _title, body = html_to_markdown(parser.renderer.render(tokens, parser.options, {}))
    if not body.strip():
        raise InvalidInput(f"{path.name} has no text to index.")
    heading = next(
        (tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"), None
    )
    title = str(meta.get("title") or heading or _title_from_name(path))
    date = _iso_date(meta.get("published") or meta.get("date")) or file_date(path)
    return Parsed(title, date, body, meta)


# ---------------------------------------------------------------- PDF


def read_pdf(path: Path, progress: PageProgress | None = None) -> Parsed:
    """Each page's text under a '## Page N' heading, so a citation says which page."""
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    # pypdf logs what it repairs in a damaged file; the reason that matters is in the error
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise InvalidInput(f"{path.name} is encrypted; add a copy without a password.")
        pages = list(reader.pages)
        info = reader.metadata
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise InvalidInput(f"{path.name} is not a readable PDF ({_short(exc)}).") from None
    parts = []
    for n, page in enumerate(pages, 1):
        try:
            text = page.extract_text() or ""
        except Exception as exc:  # pypdf raises many kinds on a damaged content stream
            raise InvalidInput(
                f"{path.name}: page {n} cannot be read ({_short(exc)}); nothing was added."
            ) from None
        text = _reflow(text)
        if text:
            parts.append(f"## Page {n}\n\n{text}")
        if progress:
            progress(n, len(pages))
    if not parts:
        raise InvalidInput(f"{path.name} has no text to index (a scanned PDF needs OCR first).")
    title = str(info.title).strip() if info is not None and info.title else ""
    created = None
    if info is not None:
        try:
            created = _iso_date(info.creation_date)
        except Exception:  # a malformed date string in the document information
            created = None
    return Parsed(title or _title_from_name(path), created or file_date(path),
                  "\n\n".join(parts) + "\n", {})  # fmt: skip


def _reflow(text: str) -> str:
    """A PDF's lines are where the layout broke them: join the lines of a sentence, so a spec
    claim ("the A100 80GB has ... 3 TB/s") is read as one line; a line that ends a sentence (or
    is short, like a heading) keeps its break."""
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            if out and out[-1]:
                out.append("")
            continue
        joins = out and out[-1] and not out[-1].endswith((".", "!", "?", ":", ";"))
        if joins and len(out[-1]) >= 40:
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return "\n".join(out).strip()


def _short(exc: Exception) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:160]


def read_any(path: Path, progress: PageProgress | None = None) -> Parsed:
    """Parse a document by its suffix; InvalidInput, with the file's name, when it cannot be."""
    suffix = path.suffix.lower()
    if suffix not in ADDABLE:
        raise InvalidInput(
            f"{path.name}: only Markdown (.md), HTML (.html, .htm) and PDF (.pdf) files can be "
            "added."
        )
    if not path.is_file():
        raise InvalidInput(f"{path}: no such file.")
    if path.stat().st_size == 0:
        raise InvalidInput(f"{path.name} is empty: nothing to add.")
    if suffix in PDF_SUFFIXES:
        return read_pdf(path, progress)
    if suffix in HTML_SUFFIXES:
        return read_html(path)
    return read_markdown(path)
