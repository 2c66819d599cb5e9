"""`gpu-advisor index`, `gpu-advisor search`, `gpu-advisor corpus list|audit`."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from advisor.cli.render import print_json, table
from advisor.config import Settings

SEARCH_MODES = ("hybrid", "bm25", "dense")


@contextmanager
def progress_bar(label: str, enabled: bool) -> Iterator[Any]:
    """A progress bar on stderr while embedding; nothing when stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@click.command("index")
@click.option("--rebuild", is_flag=True, help="Re-embed everything into a fresh index.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def index_command(rebuild: bool, as_json: bool) -> None:
    """Build or update the search index from the corpus folder (only changed articles)."""
    from advisor.retrieval.embed import default_embedder
    from advisor.retrieval.index import update_index

    settings = Settings.from_env()
    with progress_bar("Embedding passages", not as_json) as update:
        report = update_index(settings, default_embedder(), rebuild=rebuild, progress=update)
    if as_json:
        print_json(report.to_dict())
        return
    where = settings.chroma_host and f"{settings.chroma_host}:{settings.chroma_port}"
    where = where or str(settings.index_dir)
    if report.noop:
        click.echo(f"Index is up to date: {report.chunks} passages at {where}.")
        return
    click.echo(
        f"Indexed {report.chunks} passages at {where} in {report.seconds:.1f} s: "
        f"{len(report.added)} added, {len(report.changed)} changed, {len(report.removed)} "
        f"removed, {len(report.unchanged)} unchanged articles; {report.embedded} passages embedded."
    )


@click.command("search")
@click.argument("query")
@click.option("--k", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--doc", help="Only this document (its doc id).")
@click.option("--gpu", help="Only passages that mention this GPU.")
@click.option("--mode", type=click.Choice(SEARCH_MODES), default="hybrid", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def search_command(
    query: str, k: int, doc: str | None, gpu: str | None, mode: str, as_json: bool
) -> None:
    """Search the articles (BM25 + embeddings, fused by reciprocal rank)."""
    from advisor.retrieval.embed import default_embedder
    from advisor.retrieval.index import open_index, stale_documents
    from advisor.retrieval.search import Searcher

    settings = Settings.from_env()
    embedder = default_embedder()
    with progress_bar("Building the index (first use)", not as_json) as update:
        index = open_index(settings, embedder, progress=update)
    results = Searcher(index, embedder).search(query, k, mode=mode, doc=doc, gpu=gpu)
    if as_json:
        print_json([r.to_dict() for r in results])
        return
    stale = stale_documents(settings, index.manifest)
    if stale:
        click.echo(
            f"Note: {len(stale)} article(s) changed since indexing; run `gpu-advisor index`."
        )
    if not results:
        click.echo("No passage matches.")
    for n, r in enumerate(results, 1):
        click.echo(f"\n[{n}] {r.title} > {r.section}  ({r.doc}, score {r.score:.4f})")
        click.echo(_shorten(r.text, 600))


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float | int) else str(value)


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@click.group("corpus")
def corpus_group() -> None:
    """The articles: list them, audit their spec claims."""


@corpus_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def corpus_list(as_json: bool) -> None:
    """The articles in the corpus folder, with their metadata."""
    from advisor.retrieval.index import load_corpus

    docs = load_corpus(Settings.from_env())
    rows = [
        {"doc_id": d.doc_id, "title": d.title, "publisher": d.publisher, "published": d.published,
         "source_url": d.source_url, "file": d.path.rsplit("/", 1)[-1]}
        for d in docs
    ]  # fmt: skip
    if as_json:
        print_json(rows)
        return
    table(
        f"{len(rows)} articles",
        ("doc id", "title", "published", "publisher"),
        [(d.doc_id, d.title[:70], d.published or "-", d.publisher or "-") for d in docs],
    )


@corpus_group.command("audit")
@click.option(
    "--status", type=click.Choice(["agrees", "disagrees", "unchecked"]), help="Only these."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def corpus_audit(status: str | None, as_json: bool) -> None:
    """Every spec claim in the articles against the datasheet table."""
    from advisor.retrieval.claims import audit, extract_claims
    from advisor.retrieval.index import load_corpus
    from advisor.retrieval.ingest import chunk_document

    docs = load_corpus(Settings.from_env())
    chunks = [c for d in docs for c in chunk_document(d)]
    rows = audit(
        [
            (c.id, c.doc_id, c.section, extract_claims(c.text, c.section, published=c.published))
            for c in chunks
        ]
    )
    if status:
        rows = [r for r in rows if r["status"] == status]
    if as_json:
        print_json(rows)
        return
    counts = {s: sum(r["status"] == s for r in rows) for s in ("agrees", "disagrees", "unchecked")}
    table(
        f"{len(rows)} claims: {counts['agrees']} agree, {counts['disagrees']} disagree, "
        f"{counts['unchecked']} cannot be checked",
        ("verdict", "article > section", "GPU", "claim", "datasheet / note"),
        [
            (r["status"], f"{r['doc']} > {r['section'][:40]}", r["gpu_text"],
             f"{r['field']} = {_shown(r['value'])} {r['unit']}", r["note"] or "matches")
            for r in rows
        ],
    )  # fmt: skip
