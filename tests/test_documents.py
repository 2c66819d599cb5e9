"""Your own documents: `gpu-advisor corpus add` and `Advisor.add_documents` with real Markdown,
HTML and PDF files, the real embedding model and a real Chroma index (a copy of the session's).
Re-adding changes nothing; a corrupt or empty file is reported and nothing else is lost; the
claims audit runs on what was added; a 50-page PDF goes in within 60 s with a progress bar."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from advisor import Advisor, InvalidInput
from advisor.cli import main
from advisor.config import Settings
from advisor.retrieval.documents import add_documents, remove_document
from advisor.retrieval.index import load_corpus, open_index, store_for
from advisor.retrieval.search import LiveSearcher, Searcher
from tests.documents import HTML, MARKDOWN, NEEDLE_PAGE, make_pdf, write

SMALL_NEEDLE = 5  # the page of the small test PDF that holds the needle

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def settings(tmp_path: Path, corpus_index: Any, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The session's index copied (so it is not changed for other tests) and a data home."""
    shutil.copytree(corpus_index.store.root, tmp_path / "index")
    monkeypatch.setenv("ADVISOR_INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("ADVISOR_HOME", str(tmp_path / "home"))
    return Settings.from_env()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "mine"
    folder.mkdir()
    return {
        "pdf": make_pdf(folder / "runbook.pdf", pages=8, needle_page=SMALL_NEEDLE),
        "html": write(folder / "box.html", HTML),
        "md": write(folder / "notes.md", MARKDOWN),
    }


def _search(settings: Settings, embedder: Any, query: str, k: int = 3) -> list[Any]:
    return Searcher(open_index(settings, embedder), embedder).search(query, k)


def test_added_documents_are_kept_in_the_data_home_and_found_by_search(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    report = add_documents(files.values(), settings, embedder)
    assert [r["doc_id"] for r in report.added] == ["runbook-pdf", "box-html", "notes-md"]
    assert not report.failed and not report.unchanged and not report.index["noop"]
    assert report.index["added"] == ["box-html", "notes-md", "runbook-pdf"]
    kept = sorted(p.name for p in (settings.documents_dir or Path()).iterdir())
    assert kept == ["box-html.md", "notes-md.md", "runbook-pdf.md"]
    assert settings.documents_dir == Path(os.environ["ADVISOR_HOME"]) / "documents"
    top = _search(settings, embedder, "quokka partition L40 cards")[0]
    assert (top.doc, top.title, top.section) == ("runbook-pdf", "Cluster runbook",
                                                 f"Page {SMALL_NEEDLE}")  # fmt: skip
    assert _search(settings, embedder, "wombat rack chat models")[0].doc == "box-html"
    assert _search(settings, embedder, "platypus queue fine-tuning")[0].doc == "notes-md"
    docs = {d.doc_id: d for d in load_corpus(settings)}
    assert (docs["notes-md"].title, docs["notes-md"].published) == ("Team notes", "2023-05-06")
    assert docs["notes-md"].publisher == "Platform team"
    assert len(docs) == 8  # the five bundled articles are still there


def test_the_claims_audit_runs_on_what_was_added(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    report = add_documents([files["pdf"]], settings, embedder)
    claims = {(c["gpu_text"], c["field"], c["status"]) for c in report.claims}
    assert claims == {("L40", "memory_gb", "agrees"), ("the A100 80GB", "bandwidth_gbs",
                                                       "disagrees")}  # fmt: skip
    assert report.claim_counts() == {"agrees": 1, "disagrees": 1, "unchecked": 0}
    wrong = next(c for c in report.claims if c["status"] == "disagrees")
    assert wrong["value"] == 3000 and "2039" in wrong["note"]


def test_adding_the_same_files_again_changes_nothing(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    add_documents(files.values(), settings, embedder)
    manifest = store_for(settings).read_manifest()
    again = add_documents(files.values(), settings, embedder)
    assert not again.added and len(again.unchanged) == 3 and again.index == {}
    assert store_for(settings).read_manifest() == manifest  # not even a new generation
    write(files["md"], MARKDOWN.replace("platypus", "echidna"))  # a changed file replaces
    changed = add_documents([files["md"]], settings, embedder)
    assert [(r["doc_id"], r["replaced"]) for r in changed.added] == [("notes-md", True)]
    assert changed.index["changed"] == ["notes-md"]
    assert _search(settings, embedder, "echidna queue")[0].doc == "notes-md"


def test_a_corrupt_or_empty_file_is_reported_and_nothing_else_is_lost(
    settings: Settings, embedder: Any, files: dict[str, Path], tmp_path: Path
) -> None:
    add_documents([files["html"]], settings, embedder)
    manifest = store_for(settings).read_manifest()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    empty = tmp_path / "empty.md"
    empty.write_bytes(b"")
    report = add_documents([broken, empty], settings, embedder)
    assert [f["file"] for f in report.failed] == [str(broken), str(empty)]
    assert report.failed[0]["error"].startswith("broken.pdf is not a readable PDF (")
    assert report.failed[1]["error"] == "empty.md is empty: nothing to add."
    assert not report.added and store_for(settings).read_manifest() == manifest
    assert _search(settings, embedder, "wombat rack")[0].doc == "box-html"  # still there
    assert _search(settings, embedder, "L40 memory bandwidth")[0].doc != "box-html"
    mixed = add_documents([broken, files["md"]], settings, embedder)  # the good one goes in
    assert [r["doc_id"] for r in mixed.added] == ["notes-md"] and len(mixed.failed) == 1


def test_a_document_may_not_take_a_bundled_articles_id(
    settings: Settings, embedder: Any, tmp_path: Path
) -> None:
    clash = write(tmp_path / "clash.md", "---\ndoc_id: a100-sxm4-40gb-vs-l40\n---\n# X\n\nText.\n")
    report = add_documents([clash, tmp_path / "nowhere.md"], settings, embedder)
    assert [f["error"] for f in report.failed] == [
        "clash.md: its doc id 'a100-sxm4-40gb-vs-l40' is a bundled article's; rename the file "
        "or set another doc_id in its front matter.",
        f"{tmp_path / 'nowhere.md'}: no such file.",
    ]


def test_a_folder_adds_the_documents_inside_it(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    (files["md"].parent / "ignored.txt").write_text("not a document type that is added")
    report = add_documents([files["md"].parent], settings, embedder)
    assert sorted(r["file"] for r in report.added) == ["box.html", "notes.md", "runbook.pdf"]


def test_a_removed_document_leaves_the_index(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    add_documents([files["html"]], settings, embedder)
    removed = remove_document("box-html", settings, embedder)
    assert removed["removed"] == ["box-html"]
    assert all(r.doc != "box-html" for r in _search(settings, embedder, "wombat rack", 10))
    with pytest.raises(InvalidInput, match="No added document 'a100-sxm4-40gb-vs-l40'"):
        remove_document("a100-sxm4-40gb-vs-l40", settings, embedder)


def test_the_advisor_answers_from_a_document_as_soon_as_it_is_added(
    settings: Settings, embedder: Any, files: dict[str, Path]
) -> None:
    live = LiveSearcher(Searcher(open_index(settings, embedder), embedder), check_s=3600)
    advisor = Advisor(engine="rules", searcher=live)
    stages: list[str] = []
    report = advisor.add_documents([files["html"]], lambda s, d, t: stages.append(s))
    assert report["added"][0]["doc_id"] == "box-html" and "Embedding passages" in stages
    answer = advisor.ask("Which rack serves our chat models, the wombat rack?")
    assert any(c.doc == "box-html" for c in answer.citations), answer.text


# ---------------------------------------------------------------- the command line


def test_corpus_add_prints_what_it_did_and_exits_2_on_a_bad_file(
    settings: Settings, files: dict[str, Path], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    (tmp_path / "empty.html").write_bytes(b"")
    assert main(["corpus", "add", str(files["pdf"]), str(tmp_path / "empty.html")]) == 2
    out, err = capsys.readouterr()
    assert out.startswith("Added runbook-pdf: Cluster runbook (2025-03-14; ")
    assert "Claims audit of what was added: 2 claims, 1 agree, 1 disagree" in out
    assert (
        f"disagrees: runbook-pdf > Page {SMALL_NEEDLE}: the A100 80GB bandwidth_gbs = 3000 GB/s"
        in out
    )
    assert err == "gpu-advisor: empty.html is empty: nothing to add.\n"
    assert main(["corpus", "add", str(files["pdf"]), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["unchanged"][0]["doc_id"] == "runbook-pdf" and again["added"] == []
    assert main(["corpus", "list", "--json"]) == 0
    origins = {r["doc_id"]: r["origin"] for r in json.loads(capsys.readouterr().out)}
    assert origins["runbook-pdf"] == "added" and origins["a100-sxm4-40gb-vs-l40"] == "bundled"
    assert main(["corpus", "remove", "runbook-pdf"]) == 0
    assert capsys.readouterr().out == "Removed runbook-pdf from the index.\n"


def _in_a_terminal(args: list[str], env: dict[str, str], timeout: float) -> tuple[int, str]:
    """Run `gpu-advisor ARGS` with a pseudo-terminal as its output (so it draws its progress
    bar, as it does for a person) and return (exit code, everything it wrote)."""
    primary, secondary = pty.openpty()
    command = [sys.executable, "-m", "advisor.cli", *args]
    proc = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=secondary,
                            stderr=secondary)  # fmt: skip
    os.close(secondary)
    chunks = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([primary], [], [], 1.0)
        if ready:
            try:
                data = os.read(primary, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(primary)
    proc.wait(timeout=30)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.slow
def test_a_50_page_pdf_is_added_within_60_s_with_a_progress_bar_then_searched(
    settings: Settings, tmp_path: Path
) -> None:
    pdf = make_pdf(tmp_path / "runbook.pdf", pages=50)
    env = dict(os.environ)
    started = time.perf_counter()
    code, shown = _in_a_terminal(["corpus", "add", str(pdf)], env, timeout=120)
    seconds = time.perf_counter() - started
    assert code == 0, shown
    assert seconds <= 60, f"corpus add of a 50-page PDF took {seconds:.1f} s"
    assert "Reading runbook.pdf" in shown and "50/50" in shown  # the bar, page by page
    assert "Embedding passages" in shown
    assert re.search(r"Added runbook-pdf: Cluster runbook \(2025-03-14; \d+ passages\)", shown)
    (REPO / "build").mkdir(exist_ok=True)
    (REPO / "build" / "corpus_add_50_pages.txt").write_text(f"{seconds:.1f} s\n")
    found = subprocess.run([sys.executable, "-m", "advisor.cli", "search", "quokka partition",
                            "--k", "1", "--json"], env=env, capture_output=True, text=True,
                           check=True)  # fmt: skip
    top = json.loads(found.stdout)[0]
    assert (top["doc"], top["section"]) == ("runbook-pdf", f"Page {NEEDLE_PAGE}")
