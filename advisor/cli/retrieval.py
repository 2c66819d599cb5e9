"""`gpu-advisor index`, `gpu-advisor search`, `gpu-advisor corpus list|audit|add|remove`."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from advisor.cli.render import print_json, table
from advisor.config import Settings

SEARCH_MODES = ("hybrid", "bm25", "dense")


@contextmanager
def stage_bar(enabled: bool) -> Iterator[Any]:
    """A progress bar on stderr, updated as update(what is being done, done, total); nothing
    when stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task("Starting", total=None)

        def update(stage: str, done: int, total: int) -> None:
            bar.update(task, description=stage, completed=done, total=total)

        yield update


@contextmanager
def progress_bar(label: str, enabled: bool) -> Iterator[Any]:
    """A progress bar on stderr while embedding; nothing when stderr is not a terminal."""
    with stage_bar(enabled) as staged:
        if staged is None:
            yield None
            return

        def update(done: int, total: int) -> None:
            staged(label, done, total)

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
    """The articles: list them, audit their spec claims, add your own documents."""


@corpus_group.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def corpus_list(as_json: bool) -> None:
    """The articles in the corpus folder, with their metadata."""
    from advisor.retrieval.index import load_corpus

    settings = Settings.from_env()
    docs = load_corpus(settings)
    rows: list[dict[str, str | None]] = [
        {"doc_id": d.doc_id, "title": d.title, "publisher": d.publisher,
         "published": d.published, "source_url": d.source_url,
         "file": d.path.rsplit("/", 1)[-1],
         "origin": "added" if Path(d.path).parent == settings.documents_dir else "bundled"}
        for d in docs
    ]  # fmt: skip
    if as_json:
        print_json(rows)
        return
    table(
        f"{len(rows)} articles",
        ("doc id", "title", "published", "publisher", "origin"),
        [(str(r["doc_id"]), str(r["title"])[:70], r["published"] or "-", r["publisher"] or "-",
          str(r["origin"])) for r in rows],
    )  # fmt: skip


@corpus_group.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def corpus_add(paths: tuple[Path, ...], as_json: bool) -> None:
    """Add your own Markdown, HTML or PDF files (or a folder of them) to the search index."""
    from advisor.retrieval.documents import add_documents
    from advisor.retrieval.embed import default_embedder

    settings = Settings.from_env()
    with stage_bar(not as_json) as update:
        report = add_documents(paths, settings, default_embedder(), progress=update)
    if as_json:
        print_json(report.to_dict())
    else:
        _print_added(report, settings)
    if report.failed:  # one line per file that was not added, exit 2
        from advisor.errors import InvalidInput

        raise InvalidInput(" ".join(f["error"] for f in report.failed))


def _print_added(report: Any, settings: Settings) -> None:
    for row in report.added:
        verb = "Replaced" if row["replaced"] else "Added"
        click.echo(f"{verb} {row['doc_id']}: {row['title']} ({row['published']}; "
                   f"{row['passages']} passages) from {row['file']}")  # fmt: skip
    for row in report.unchanged:
        click.echo(f"Unchanged {row['doc_id']}: {row['file']} is already in the index")
    if report.added:
        counts = report.claim_counts()
        click.echo(
            f"Indexed in {report.seconds:.1f} s; kept in {settings.documents_dir}. Claims audit "
            f"of what was added: {len(report.claims)} claims, {counts['agrees']} agree, "
            f"{counts['disagrees']} disagree, {counts['unchecked']} cannot be checked."
        )
        for c in report.claims:
            if c["status"] == "disagrees":
                click.secho(f"  disagrees: {c['doc']} > {c['section'][:50]}: {c['gpu_text']} "
                            f"{c['field']} = {c['value']:g} {c['unit']}; {c['note']}",
                            fg="yellow")  # fmt: skip


@corpus_group.command("remove")
@click.argument("doc_id")
def corpus_remove(doc_id: str) -> None:
    """Take a document you added out of the search index."""
    from advisor.retrieval.documents import remove_document
    from advisor.retrieval.embed import default_embedder

    remove_document(doc_id, Settings.from_env(), default_embedder())
    click.echo(f"Removed {doc_id} from the index.")


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
