"""Reading articles (.md with front matter, .txt, .html) and cutting them into heading-aware chunks.
HTML is read by BeautifulSoup (advisor.retrieval.formats); documents added with `gpu-advisor
corpus add` are stored as .md articles in the documents folder and read here like the rest.

A chunk keeps its section path ("NVIDIA L40 > Specifications"), its character span in the
article body, and a stable id: the document id plus a hash of its section and text, so an
unchanged passage keeps its id across re-indexing.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.errors import InvalidInput
from advisor.retrieval.formats import html_to_markdown

CHUNKER_VERSION = "chunker-1"
INTRO = "Introduction"  # the section name of text before an article's first heading
MAX_CHUNK_CHARS = 1200  # about 250 tokens: inside MiniLM's 256-token window with the heading
SUFFIXES = (".md", ".txt", ".html", ".htm")


@dataclass(frozen=True)
class Document:
    """One article: metadata from its front matter and its body text."""

    doc_id: str
    title: str
    body: str
    path: str
    source_url: str | None = None
    publisher: str | None = None
    published: str | None = None
    sha256: str = ""


@dataclass(frozen=True)
class Chunk:
    """A passage: what retrieval returns and citations point to."""

    id: str
    doc_id: str
    title: str
    section: str  # section path, " > " between levels
    text: str  # readable text (markdown links and emphasis removed)
    start: int  # character span in the document body
    end: int
    claims: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    published: str | None = None  # the article's date: claims about prices are judged by it

    @property
    def embed_text(self) -> str:
        """What the embedding sees: the heading path gives a short passage its topic."""
        return f"{self.title}. {self.section}. {self.text}" if self.section else self.text


# ---------------------------------------------------------------- reading files


def read_document(path: Path) -> Document:
    """Parse one corpus file; raises InvalidInput for a file that cannot be read."""
    if path.suffix.lower() not in SUFFIXES:
        raise InvalidInput(f"{path.name}: only {', '.join(SUFFIXES)} files are articles.")
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{path.name}: cannot read it as UTF-8 text ({exc}).") from None
    sha = hashlib.sha256(raw.encode("utf-8")).hexdigest()
    meta, body = split_front_matter(raw)
    if path.suffix.lower() in (".html", ".htm"):
        html_title, body = html_to_markdown(body)
        meta.setdefault("title", html_title)
    elif path.suffix.lower() == ".txt" and "title" not in meta:
        meta["title"] = _first_line_title(body)
    doc_id = str(meta.get("doc_id") or slugify(path.stem))
    title = str(meta.get("title") or path.stem)
    return Document(
        doc_id=doc_id,
        title=title,
        body=body,
        path=str(path),
        source_url=_opt(meta.get("source_url")),
        publisher=_opt(meta.get("publisher")),
        published=_opt(meta.get("published") or meta.get("datePublished")),
        sha256=sha,
    )


def _opt(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def split_front_matter(raw: str) -> tuple[dict[str, Any], str]:
    """YAML front matter between '---' lines, and the body after it."""
    match = re.match(r"^---\s*\n(.*?)\n---\s*\n", raw, re.DOTALL)
    if not match:
        return {}, raw
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError:
        meta = {}
    if not isinstance(meta, dict):
        meta = {}
    return meta, raw[match.end() :]


def _first_line_title(body: str) -> str:
    for line in body.splitlines():
        if line.strip():
            return line.strip()[:200]
    return "untitled"


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:80] or "doc"


# ---------------------------------------------------------------- headings


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def has_markdown_headings(body: str) -> bool:
    return any(_MD_HEADING.match(line) for line in body.splitlines())


def plain_text_headings(body: str) -> str:
    """Mark title-like lines of a plain-text article as Markdown headings ('## ').

    A heading line is short, starts with a capital letter or digit, does not end like a
    sentence (. : ; ,), is not a list item or table cell, and is followed by text.
    """
    lines = body.splitlines()
    out = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        following = next((n.strip() for n in lines[i + 1 :] if n.strip()), "")
        if _looks_like_heading(stripped) and following and len(following) > len(stripped):
            out.append(f"## {stripped}")
        else:
            out.append(line)
    return "\n".join(out) + ("\n" if body.endswith("\n") else "")


def _looks_like_heading(line: str) -> bool:
    if not line or len(line) > 160 or line.startswith(("#", "-", "*", "|", "•", ">", "!")):
        return False
    if line.endswith((".", ":", ";", ",", "|")) or not (line[0].isupper() or line[0].isdigit()):
        return False
    words = line.split()
    numbers = len(re.findall(r"(?<![A-Za-z\d.,])\d+(?:[.,]\d+)?", line))
    if numbers >= 3 or "$" in line:  # a table row flattened into a line
        return False
    return len(words) <= 18 and not re.search(r"\b(is|are|was|were)\b [a-z]", line[:40])


# ---------------------------------------------------------------- chunking


def clean_markdown(text: str) -> str:
    """Readable text: images dropped, links reduced to their words, emphasis marks removed."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\*\*|__|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)", "", text)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def chunk_document(doc: Document, max_chars: int = MAX_CHUNK_CHARS) -> list[Chunk]:
    """Cut a document at its headings, then at paragraph breaks so no chunk passes max_chars."""
    body = doc.body if has_markdown_headings(doc.body) else plain_text_headings(doc.body)
    offset_fix = body != doc.body  # added '## ' markers shift offsets; map back by line
    chunks: list[Chunk] = []
    for path, start, text in _sections(body):
        # an H1 that repeats the title says nothing about where in the article a passage is
        section = path.removeprefix(f"{doc.title} > ")
        section = INTRO if section == doc.title else section
        for piece_start, piece in _split(text, max_chars):
            readable = clean_markdown(piece)
            if len(readable) < 20:
                continue
            abs_start = start + piece_start
            if offset_fix:
                abs_start = _original_offset(doc.body, body, abs_start)
            # everything the embedding sees is in the id, so an unchanged id reuses its vector
            digest = hashlib.sha256(f"{doc.title}\n{section}\n{readable}".encode()).hexdigest()[:12]
            chunks.append(
                Chunk(
                    id=f"{doc.doc_id}:{digest}",
                    doc_id=doc.doc_id,
                    title=doc.title,
                    section=section,
                    text=readable,
                    start=abs_start,
                    end=abs_start + len(piece.rstrip()),
                    published=doc.published,
                )
            )
    return _dedupe(chunks)


def _dedupe(chunks: list[Chunk]) -> list[Chunk]:
    seen: set[str] = set()
    unique = []
    for chunk in chunks:
        if chunk.id not in seen:
            seen.add(chunk.id)
            unique.append(chunk)
    return unique


def _sections(body: str) -> list[tuple[str, int, str]]:
    """(section path, start offset, text) for each run of text under a heading."""
    stack: list[tuple[int, str]] = []
    result: list[tuple[str, int, str]] = []
    pos = 0
    current_start = 0
    current: list[str] = []

    def flush() -> None:
        if "".join(current).strip():
            path = " > ".join(title for _, title in stack) or INTRO
            result.append((path, current_start, "".join(current)))

    for line in body.splitlines(keepends=True):
        match = _MD_HEADING.match(line.rstrip("\n"))
        if match:
            flush()
            level = len(match.group(1))
            title = clean_markdown(match.group(2)).strip() or "untitled"
            stack = [(lvl, t) for lvl, t in stack if lvl < level] + [(level, title)]
            current = []
            current_start = pos + len(line)
        else:
            current.append(line)
        pos += len(line)
    flush()
    return result


def _split(text: str, max_chars: int) -> list[tuple[int, str]]:
    """Pieces of at most max_chars, cut at blank lines, then line ends, then sentence ends."""
    if len(text) <= max_chars:
        return [(0, text)]
    pieces: list[tuple[int, str]] = []
    start = 0
    while start < len(text):
        end = min(start + max_chars, len(text))
        if end < len(text):
            window = text[start:end]
            cut = max(window.rfind("\n\n"), window.rfind("\n"), window.rfind(". "))
            if cut > max_chars // 3:
                end = start + cut + 1
        pieces.append((start, text[start:end]))
        start = end
    return pieces


def _original_offset(original: str, marked: str, offset: int) -> int:
    """Map an offset in the heading-marked text back to the original body."""
    added = marked[:offset].count("\n## ") + (1 if marked.startswith("## ") else 0)
    return max(0, offset - 3 * added)


# ---------------------------------------------------------------- corpus folder


def corpus_files(folder: Path) -> list[Path]:
    """Article files in the corpus folder (README.md is documentation, not an article)."""
    if not folder.is_dir():
        raise InvalidInput(f"Corpus folder {folder} does not exist (set ADVISOR_CORPUS_DIR).")
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and p.suffix.lower() in SUFFIXES and p.name.lower() != "readme.md"
    )


def to_markdown_article(doc: Document, extra: dict[str, Any] | None = None) -> str:
    """A corpus .md file: front matter, then the body with plain-text headings marked."""
    meta: dict[str, Any] = {"doc_id": doc.doc_id, "title": doc.title}
    for key in ("source_url", "publisher", "published"):
        if getattr(doc, key):
            meta[key] = getattr(doc, key)
    meta.update(extra or {})
    body = doc.body if has_markdown_headings(doc.body) else plain_text_headings(doc.body)
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n\n{body.lstrip()}"
