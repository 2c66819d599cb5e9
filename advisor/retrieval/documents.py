"""A team's own documents: `gpu-advisor corpus add PATH...` and the UI's upload.

Each Markdown, HTML or PDF file is parsed by its own parser (advisor.retrieval.formats) and kept
as a Markdown article, with its title, date and source file in the front matter, in the
documents folder (`documents/` in the data home, or ADVISOR_DOCUMENTS_DIR). The indexer reads
that folder beside the bundled corpus. Adding the same file again changes nothing; a file that
cannot be read is reported with the reason and nothing else is touched; the index is updated in
one atomic step (advisor.retrieval.index), and the claims audit runs on what was added.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from advisor.config import Settings
from advisor.errors import InvalidInput
from advisor.retrieval.claims import audit, extract_claims
from advisor.retrieval.embed import Embedder
from advisor.retrieval.formats import ADDABLE, read_any
from advisor.retrieval.index import update_index
from advisor.retrieval.ingest import (
    Document,
    chunk_document,
    corpus_files,
    read_document,
    slugify,
    to_markdown_article,
)

StageProgress = Callable[[str, int, int], None]  # (what is being done, done, total)


@dataclass
class AddReport:
    """What `add_documents` did: documents added (or replaced), unchanged, failed (with the
    reason), the claims audit of the added ones, and the index update."""

    added: list[dict[str, Any]] = field(default_factory=list)
    unchanged: list[dict[str, Any]] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    index: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def claim_counts(self) -> dict[str, int]:
        return {s: sum(c["status"] == s for c in self.claims)
                for s in ("agrees", "disagrees", "unchecked")}  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "unchanged": self.unchanged, "failed": self.failed,
                "claims": self.claims, "claim_counts": self.claim_counts(),
                "index": self.index, "seconds": round(self.seconds, 2)}  # fmt: skip


def documents_folder(settings: Settings) -> Path:
    if settings.documents_dir is None:
        raise InvalidInput("No documents folder is configured (set ADVISOR_DOCUMENTS_DIR).")
    return settings.documents_dir


def _expand(paths: Iterable[Path]) -> list[Path]:
    """Files as given; a folder gives the addable files inside it (all levels)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*") if p.is_file()
                            and p.suffix.lower() in ADDABLE)  # fmt: skip
        else:
            files.append(path)
    return files


@dataclass(frozen=True)
class _Staged:
    source: Path
    doc: Document
    article: str  # the .md text kept in the documents folder

    @property
    def row(self) -> dict[str, Any]:
        return {"doc_id": self.doc.doc_id, "title": self.doc.title,
                "published": self.doc.published, "file": self.source.name}  # fmt: skip


def _stage(path: Path, bundled: set[str], progress: StageProgress | None) -> _Staged:
    def pages(done: int, total: int) -> None:
        if progress:
            progress(f"Reading {path.name}", done, total)

    parsed = read_any(path, pages)
    doc_id = slugify(str(parsed.meta.get("doc_id") or path.name))
    if doc_id in bundled:
        raise InvalidInput(
            f"{path.name}: its doc id {doc_id!r} is a bundled article's; rename the file or set "
            "another doc_id in its front matter."
        )
    meta = parsed.meta
    doc = Document(
        doc_id=doc_id, title=parsed.title, body=parsed.body, path=str(path),
        source_url=_text(meta.get("source_url")), publisher=_text(meta.get("publisher")),
        published=parsed.published,
    )  # fmt: skip
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    return _Staged(path, doc, to_markdown_article(doc, {"source_file": path.name,
                                                        "source_sha256": sha}))  # fmt: skip


def _text(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def add_documents(
    paths: Iterable[Path], settings: Settings, embedder: Embedder,
    *, progress: StageProgress | None = None,
) -> AddReport:  # fmt: skip
    """Add Markdown, HTML and PDF files (or the ones in a folder) to the documents folder and
    the index. Files that cannot be read are in `failed` with the reason; the rest are added."""
    start = time.perf_counter()
    folder = documents_folder(settings)
    report = AddReport()
    bundled = {read_document(p).doc_id for p in corpus_files(settings.corpus_dir)}
    staged: dict[str, _Staged] = {}
    for path in _expand(paths):
        try:
            item = _stage(path, bundled, progress)
        except InvalidInput as exc:
            report.failed.append({"file": str(path), "error": str(exc)})
            continue
        except OSError as exc:
            report.failed.append({"file": str(path), "error": f"{path.name}: {exc.strerror}."})
            continue
        if item.doc.doc_id in staged:
            other = staged[item.doc.doc_id].source.name
            error = f"{path.name}: same doc id {item.doc.doc_id!r} as {other}; add one at a time."
            report.failed.append({"file": str(path), "error": error})
            continue
        staged[item.doc.doc_id] = item
    folder.mkdir(parents=True, exist_ok=True)
    undo: dict[Path, str | None] = {}  # file -> its text before (None: it was not there)
    for item in staged.values():
        target = folder / f"{item.doc.doc_id}.md"
        before = target.read_text(encoding="utf-8") if target.exists() else None
        if before == item.article:
            report.unchanged.append(item.row)
            continue
        undo[target] = before
        _write(target, item.article)
        report.added.append({**item.row, "replaced": before is not None})
    if undo:
        try:
            built = update_index(settings, embedder, progress=_embedding(progress))
        except BaseException:  # the index kept its last generation: keep the folder with it
            _restore(undo)
            raise
        report.index = built.to_dict()
        report.claims = _audit([staged[row["doc_id"]].doc for row in report.added], folder)
        for row in report.added:
            row["passages"] = len(chunk_document(read_document(folder / f"{row['doc_id']}.md")))
    report.seconds = time.perf_counter() - start
    return report


def _embedding(progress: StageProgress | None) -> Callable[[int, int], None] | None:
    if progress is None:
        return None

    def update(done: int, total: int) -> None:
        progress("Embedding passages", done, total)

    return update


def _write(target: Path, text: str) -> None:
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)  # readers see the old article or the new one, never half


def _restore(undo: dict[Path, str | None]) -> None:
    for target, before in undo.items():
        if before is None:
            target.unlink(missing_ok=True)
        else:
            _write(target, before)


def _audit(docs: list[Document], folder: Path) -> list[dict[str, Any]]:
    """The claims audit of the documents as indexed (read back from the folder)."""
    chunks = [c for d in docs for c in chunk_document(read_document(folder / f"{d.doc_id}.md"))]
    return audit([(c.id, c.doc_id, c.section, extract_claims(c.text, c.section)) for c in chunks])


def remove_document(doc_id: str, settings: Settings, embedder: Embedder) -> dict[str, Any]:
    """Take an added document out of the folder and the index (bundled articles stay)."""
    folder = documents_folder(settings)
    target = folder / f"{slugify(doc_id)}.md"
    if not doc_id.strip() or not target.is_file():
        raise InvalidInput(
            f"No added document {doc_id!r}; `gpu-advisor corpus list` shows them (bundled "
            "articles are removed from the corpus folder instead)."
        )
    before = target.read_text(encoding="utf-8")
    target.unlink()
    try:
        built = update_index(settings, embedder)
    except BaseException:
        _write(target, before)
        raise
    return built.to_dict()
