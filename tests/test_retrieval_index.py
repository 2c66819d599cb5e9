"""The index: incremental updates, manifest checks, atomic swaps, crash safety (real Chroma)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.config import Settings
from advisor.errors import InvalidInput
from advisor.retrieval.index import (
    GENERATION_PREFIX,
    INDEX_STAMP,
    MANIFEST_FILE,
    IndexProblem,
    LocalStore,
    open_index,
    stale_documents,
    update_index,
)
from tests.fakes import HashingEmbedder


def _settings(corpus: Path, tmp_path: Path) -> Settings:
    return Settings(corpus_dir=corpus, index_dir=tmp_path / "index")


def test_incremental_update_embeds_only_what_changed(corpus_copy: Path, tmp_path: Path) -> None:
    settings = _settings(corpus_copy, tmp_path)
    embedder = HashingEmbedder()
    first = update_index(settings, embedder)
    assert len(first.added) == 5 and first.embedded == first.chunks > 50
    again = update_index(settings, embedder)
    assert again.noop and again.embedded == 0 and embedder.calls == 1

    article = corpus_copy / "a100-vs-rtx-4090-laptop.md"
    article.write_text(article.read_text() + "\n## Update\nThe author added a new note here.\n")
    (corpus_copy / "a5000-vs-a4000-tensorflow.md").unlink()
    (corpus_copy / "new.txt").write_text(
        "New article\nA new article about the H200 and its 141 GB of memory for inference.\n"
    )
    report = update_index(settings, embedder)
    assert report.changed == ["a100-vs-rtx-4090-laptop"] and report.added == ["new"]
    assert report.removed == ["a5000-vs-a4000-tensorflow"]
    assert report.embedded <= 3  # the changed article's new passage and the new article
    index = open_index(settings, embedder)
    docs = {c.chunk.doc_id for c in index.chunks}
    assert "a5000-vs-a4000-tensorflow" not in docs and "new" in docs
    assert len(index.chunks) == report.chunks == index.collection.count()


def test_each_build_swaps_in_a_new_generation_and_keeps_only_the_one_it_replaced(
    corpus_copy: Path, tmp_path: Path
) -> None:
    settings = _settings(corpus_copy, tmp_path)
    first = update_index(settings, HashingEmbedder())
    (settings.index_dir / f"{GENERATION_PREFIX}1").mkdir()  # a half-built leftover of a crash
    second = update_index(settings, HashingEmbedder(), rebuild=True)
    assert second.generation != first.generation and second.embedded == second.chunks
    folders = sorted(p.name for p in settings.index_dir.glob(f"{GENERATION_PREFIX}*"))
    assert folders == [first.generation, second.generation]  # readers may still use the first
    third = update_index(settings, HashingEmbedder(), rebuild=True)
    folders = sorted(p.name for p in settings.index_dir.glob(f"{GENERATION_PREFIX}*"))
    assert folders == [second.generation, third.generation]


def test_a_crash_while_building_leaves_the_old_index_usable(
    corpus_copy: Path, tmp_path: Path
) -> None:
    settings = _settings(corpus_copy, tmp_path)
    update_index(settings, HashingEmbedder())
    before = open_index(settings, HashingEmbedder())
    with pytest.raises(RuntimeError, match="simulated crash"):
        update_index(settings, HashingEmbedder(fail_after=5), rebuild=True)
    after = open_index(settings, HashingEmbedder(), build_if_missing=False)
    assert after.manifest.generation == before.manifest.generation
    assert len(after.chunks) == len(before.chunks)


def test_another_embedding_model_is_detected(corpus_copy: Path, tmp_path: Path) -> None:
    settings = _settings(corpus_copy, tmp_path)
    update_index(settings, HashingEmbedder())

    class Other(HashingEmbedder):
        name = "another/model"

    with pytest.raises(IndexProblem, match="--rebuild"):
        open_index(settings, Other())
    with pytest.raises(IndexProblem, match="another/model"):
        update_index(settings, Other())
    assert update_index(settings, Other(), rebuild=True).embedded > 0
    assert open_index(settings, Other()).manifest.embedding_model == "another/model"


def test_an_index_from_an_older_claims_reader_refreshes_itself(
    corpus_copy: Path, tmp_path: Path
) -> None:
    settings = _settings(corpus_copy, tmp_path)
    update_index(settings, HashingEmbedder())
    manifest = settings.index_dir / MANIFEST_FILE
    data = json.loads(manifest.read_text())
    data["chunker_version"] = data["chunker_version"].split("+")[0] + "+claims-0"
    manifest.write_text(json.dumps(data))
    counting = HashingEmbedder()
    index = open_index(settings, counting, build_if_missing=False)  # no --rebuild needed
    assert index.manifest.chunker_version == INDEX_STAMP
    assert index.manifest.generation != data["generation"] and index.chunks
    assert counting.calls == 0  # same chunks: every vector was reused, only claims re-derived


@pytest.mark.parametrize("damage", ["garbage", "missing-generation", "corrupted-database"])
def test_damaged_index_is_explained(corpus_copy: Path, tmp_path: Path, damage: str) -> None:
    settings = _settings(corpus_copy, tmp_path)
    update_index(settings, HashingEmbedder())
    manifest = settings.index_dir / MANIFEST_FILE
    if damage == "garbage":
        manifest.write_text("{not json")
    elif damage == "corrupted-database":
        generation = json.loads(manifest.read_text())["generation"]
        for db in (settings.index_dir / generation).rglob("*.sqlite3"):
            db.write_bytes(b"this is not a database" * 100)
    else:
        data = json.loads(manifest.read_text())
        data["generation"] = GENERATION_PREFIX + "gone"
        manifest.write_text(json.dumps(data))
    with pytest.raises(IndexProblem, match="gpu-advisor index --rebuild"):
        open_index(settings, HashingEmbedder())
    update_index(settings, HashingEmbedder(), rebuild=True)
    assert open_index(settings, HashingEmbedder()).chunks


def test_missing_index_builds_itself_or_says_how(corpus_copy: Path, tmp_path: Path) -> None:
    settings = _settings(corpus_copy, tmp_path)
    with pytest.raises(IndexProblem, match="Run `gpu-advisor index`"):
        open_index(settings, HashingEmbedder(), build_if_missing=False)
    assert open_index(settings, HashingEmbedder()).chunks  # first use builds it
    assert LocalStore(settings.index_dir).read_manifest() is not None


def test_stale_documents_are_reported(corpus_copy: Path, tmp_path: Path) -> None:
    settings = _settings(corpus_copy, tmp_path)
    index = open_index(settings, HashingEmbedder())
    assert stale_documents(settings, index.manifest) == []
    (corpus_copy / "a6000-vs-a100-for-ml.md").write_text("# Changed\nNew body text here for it.\n")
    assert stale_documents(settings, index.manifest) == ["a6000-vs-a100-for-ml"]


def test_real_index_stores_claims_and_gpus_with_each_chunk(corpus_index: object) -> None:
    from advisor.retrieval.index import Index

    assert isinstance(corpus_index, Index)
    assert corpus_index.manifest.embedding_model == "sentence-transformers/all-MiniLM-L6-v2"
    assert corpus_index.manifest.dimension == 384
    l40 = [c for c in corpus_index.chunks if c.chunk.section == "NVIDIA L40"]
    assert l40 and "l40" in l40[0].gpus
    assert any(claim.field == "bandwidth_gbs" and claim.value == 1000 for claim in l40[0].claims)


def test_reads_are_paged(
    corpus_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One get() of ~100,000 records overflows Chroma's SQLite variables; reads go in pages."""
    from advisor.retrieval import index as index_module

    monkeypatch.setattr(index_module, "READ_PAGE", 7)
    settings = _settings(corpus_copy, tmp_path)
    first = update_index(settings, HashingEmbedder())
    assert len(open_index(settings, HashingEmbedder()).chunks) == first.chunks > 7
    article = corpus_copy / "a6000-vs-a100-for-ml.md"
    article.write_text(article.read_text() + "\n## Added\nOne more short passage of text.\n")
    again = update_index(settings, HashingEmbedder())
    assert again.embedded == 1 and again.chunks == first.chunks + 1  # only the new passage


def test_a_live_searcher_follows_rebuilds(corpus_copy: Path, tmp_path: Path) -> None:
    from advisor.retrieval.search import LiveSearcher, Searcher

    settings = _settings(corpus_copy, tmp_path)
    embedder = HashingEmbedder()
    update_index(settings, embedder)
    live = LiveSearcher(Searcher(open_index(settings, embedder), embedder), check_s=0)
    assert live.search("L40 memory bandwidth", k=2)
    newest = update_index(settings, embedder, rebuild=True)
    assert live.search("L40 memory bandwidth", k=2)
    assert live.index.manifest.generation == newest.generation


def test_a_live_searcher_reloads_when_its_generation_fails(
    corpus_copy: Path, tmp_path: Path
) -> None:
    from advisor.retrieval.search import LiveSearcher, Searcher

    settings = _settings(corpus_copy, tmp_path)
    embedder = HashingEmbedder()
    update_index(settings, embedder)
    live = LiveSearcher(Searcher(open_index(settings, embedder), embedder), check_s=3600)
    newest = update_index(settings, embedder, rebuild=True)

    def gone(*args: object, **kwargs: object) -> None:  # what another process's cleanup does
        raise RuntimeError("Failed to get segments")

    live.current.search = gone  # type: ignore[method-assign]
    assert live.search("L40 memory bandwidth", k=2)  # failed once, reloaded, answered
    assert live.index.manifest.generation == newest.generation
    with pytest.raises(InvalidInput):  # bad input is not retried
        live.search("   ")
