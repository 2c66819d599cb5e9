"""Reading articles and cutting them into heading-aware chunks."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.errors import AdvisorError, InvalidInput
from advisor.retrieval.index import load_corpus
from advisor.retrieval.ingest import (
    INTRO,
    MAX_CHUNK_CHARS,
    chunk_document,
    clean_markdown,
    corpus_files,
    plain_text_headings,
    read_document,
)
from tests.conftest import CORPUS

ARTICLES = sorted(p for p in CORPUS.glob("*.md") if p.name != "README.md")


def test_corpus_holds_the_five_articles_with_front_matter() -> None:
    docs = [read_document(p) for p in ARTICLES]
    assert len(docs) == 5
    assert {d.doc_id for d in docs} == {p.stem for p in ARTICLES}
    spheron = [d for d in docs if d.publisher == "Spheron Network"]
    assert {d.published for d in spheron} == {"2024-08-19", "2024-05-30"}
    assert all(d.title and d.sha256 for d in docs)


def test_articles_keep_their_published_errors() -> None:
    """The advisor's job is to notice them, so the corpus must not fix them."""
    text = (CORPUS / "a100-vs-rtx-4090-laptop.md").read_text(encoding="utf-8")
    assert "7,680 CUDA cores" in text and "Over 16,384 CUDA cores" in text
    assert "Memory Bandwidth:** 1TB/s" in (CORPUS / "a100-sxm4-40gb-vs-l40.md").read_text()


@pytest.mark.parametrize("path", ARTICLES, ids=[p.stem for p in ARTICLES])
def test_chunks_have_sections_spans_and_stable_ids(path: Path) -> None:
    doc = read_document(path)
    chunks = chunk_document(doc)
    assert chunks and len({c.id for c in chunks}) == len(chunks)
    assert [c.id for c in chunk_document(read_document(path))] == [c.id for c in chunks]
    for chunk in chunks:
        assert chunk.id.startswith(f"{doc.doc_id}:") and chunk.section
        assert len(chunk.text) <= MAX_CHUNK_CHARS
        original = doc.body[chunk.start : chunk.end]
        first_words = " ".join(clean_markdown(original).split()[:4])
        assert first_words and first_words in " ".join(chunk.text.split())


def test_sections_follow_headings() -> None:
    sections = {
        c.section for c in chunk_document(read_document(CORPUS / "a100-sxm4-40gb-vs-l40.md"))
    }
    assert {
        INTRO,
        "NVIDIA L40",
        "Cost vs. Performance > Software and Ecosystem Support",
    } <= sections


def test_plain_text_headings() -> None:
    text = (
        "Overview of the A100\nThe A100 is a data center GPU with lots of memory.\n- a list item\n"
    )
    marked = plain_text_headings(text)
    assert marked.startswith("## Overview of the A100\n")
    assert "- a list item" in marked
    table_row = (
        "Dell XE9680 8x A100 SXM4, 80GB, 4.2 18.7 $1.89\nSome longer explanation follows here."
    )
    assert not plain_text_headings(table_row).startswith("##")


def test_txt_and_html_articles(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text(
        "GPU notes\nIntro paragraph about GPUs for training models.\nMemory matters\n"
        "The L40S has 48 GB of memory, which matters for serving.\n",
        encoding="utf-8",
    )
    (tmp_path / "page.html").write_text(
        "<html><head><title>H100 page</title><script>x=1</script></head><body>"
        "<h1>H100 page</h1><p>Intro text about the H100 accelerator card.</p>"
        "<h2>Bandwidth</h2><p>The H100 SXM5 reaches 3350 GB/s of memory bandwidth.</p>"
        "</body></html>",
        encoding="utf-8",
    )
    txt = read_document(tmp_path / "note.txt")
    assert txt.title == "GPU notes" and txt.doc_id == "note"
    assert "Memory matters" in {c.section for c in chunk_document(txt)}
    html = read_document(tmp_path / "page.html")
    assert html.title == "H100 page" and "x=1" not in html.body
    assert any(c.section == "Bandwidth" for c in chunk_document(html))


def test_bad_files_are_explained(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe\x00not utf8")
    with pytest.raises(InvalidInput, match="UTF-8"):
        read_document(tmp_path / "bad.md")
    with pytest.raises(InvalidInput, match="only"):
        read_document(tmp_path / "image.png")
    with pytest.raises(InvalidInput, match="does not exist"):
        corpus_files(tmp_path / "missing")


def test_readme_is_not_an_article_and_duplicate_ids_are_refused(corpus_copy: Path) -> None:
    assert "README.md" not in {p.name for p in corpus_files(corpus_copy)}
    from advisor.config import Settings

    text = (corpus_copy / "a6000-vs-a100-for-ml.md").read_text(encoding="utf-8")
    (corpus_copy / "copy.md").write_text(text, encoding="utf-8")
    with pytest.raises(AdvisorError, match="Two corpus files have the doc id"):
        load_corpus(Settings(corpus_dir=corpus_copy))
