"""The search index in Chroma: chunks, their embeddings, and a manifest. The only chromadb importer.

Each build writes a new *generation* (a Chroma folder under index/, or a collection on a Chroma
server) and then swaps the manifest to point at it in one atomic step, so a crash never leaves a
broken index: the old generation stays live until the new one is complete. Only documents whose
content changed are embedded again; unchanged chunks keep their embeddings.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from advisor.config import Settings
from advisor.errors import AdvisorError
from advisor.retrieval.claims import CLAIMS_VERSION, Claim, extract_claims, find_gpus
from advisor.retrieval.embed import Embedder
from advisor.retrieval.ingest import (
    CHUNKER_VERSION,
    Chunk,
    Document,
    chunk_document,
    corpus_files,
    read_document,
)

MANIFEST_FILE = "manifest.json"
READ_PAGE = 5000  # records per get(); one get() of ~100,000 exceeds SQLite's variable limit
MANIFEST_COLLECTION = "gpu_advisor_manifest"
GENERATION_PREFIX = "gpu_advisor_gen_"
# what a build is stamped with besides the embedder: the chunker and the claims stored per chunk
INDEX_STAMP = f"{CHUNKER_VERSION}+{CLAIMS_VERSION}"
Progress = Callable[[int, int], None]  # (done, total)


class IndexProblem(AdvisorError):
    """The index is missing, damaged, or built with another model or chunker."""


@dataclass
class Manifest:
    embedding_model: str
    dimension: int
    chunker_version: str
    generation: str
    documents: dict[str, str]  # doc id -> sha256 of the file
    files: dict[str, str]  # doc id -> file name
    chunks: int
    built_at: str

    def outdated_stamp(self, embedder: Embedder) -> bool:
        """Built by this embedding model, but by an older chunker or claims reader: derived
        data that an update brings up to date by itself."""
        model = (self.embedding_model, self.dimension) == (embedder.name, embedder.dimension)
        return model and self.chunker_version != INDEX_STAMP

    def check(self, embedder: Embedder) -> None:
        wanted = (embedder.name, embedder.dimension, INDEX_STAMP)
        built = (self.embedding_model, self.dimension, self.chunker_version)
        if wanted != built:
            raise IndexProblem(
                f"The index was built with {built[0]} ({built[1]} dimensions, {built[2]}); this "
                f"advisor uses {wanted[0]} ({wanted[1]} dimensions, {wanted[2]}). "
                "Run `gpu-advisor index --rebuild`."
            )


@dataclass
class BuildReport:
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    embedded: int = 0
    chunks: int = 0
    seconds: float = 0.0
    generation: str = ""

    @property
    def noop(self) -> bool:
        return not (self.added or self.changed or self.removed) and not self.embedded

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "noop": self.noop}


# ---------------------------------------------------------------- stores


def _chromadb() -> Any:
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb

    return chromadb


def _client_settings() -> Any:
    from chromadb.config import Settings as ChromaSettings

    return ChromaSettings(anonymized_telemetry=False)


SNAPSHOT_PREFIX = "passages-"


class LocalStore:
    """Chroma PersistentClient folders under index/, one per generation; manifest.json beside."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.where = str(root)

    def read_manifest(self) -> Manifest | None:
        path = self.root / MANIFEST_FILE
        if not path.exists():
            return None
        try:
            return Manifest(**json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as exc:
            raise IndexProblem(
                f"The index manifest {path} is damaged ({type(exc).__name__}). "
                "Run `gpu-advisor index --rebuild`."
            ) from None

    def write_manifest(self, manifest: Manifest) -> None:
        tmp = self.root / f".{MANIFEST_FILE}.tmp"
        tmp.write_text(json.dumps(asdict(manifest), indent=2), encoding="utf-8")
        os.replace(tmp, self.root / MANIFEST_FILE)  # atomic: readers see old or new, never half

    def collection(self, generation: str, create: bool = False) -> Any:
        path = self.root / generation
        if not create and not path.is_dir():
            raise IndexProblem(
                f"The index folder {path} is missing. Run `gpu-advisor index --rebuild`."
            )
        try:
            client = _chromadb().PersistentClient(path=str(path), settings=_client_settings())
            return _get_collection(client, generation, create)
        except IndexProblem:
            raise
        except Exception as exc:  # Chroma's own errors for a damaged folder or database
            raise IndexProblem(
                f"The index at {path} cannot be read ({type(exc).__name__}: {exc}). "
                "Run `gpu-advisor index --rebuild`."
            ) from None

    def drop_others(self, keep: set[str]) -> None:
        for child in self.root.glob(f"{GENERATION_PREFIX}*"):
            if child.name not in keep and child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
        for snapshot in self.root.glob(f"{SNAPSHOT_PREFIX}*.json"):
            if snapshot.stem.removeprefix(SNAPSHOT_PREFIX) not in keep:
                snapshot.unlink(missing_ok=True)

    def snapshot_path(self, generation: str) -> Path:
        """The passages of a generation as plain JSON, for searching without Chroma or the
        embedding model (retrieval/light.py)."""
        return self.root / f"{SNAPSHOT_PREFIX}{generation}.json"

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        with (self.root / ".lock").open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield


class ServerStore:
    """A Chroma server (CHROMA_HOST/CHROMA_PORT): a collection per generation, manifest in one."""

    def __init__(self, host: str, port: int, lock_dir: Path) -> None:
        self.where = f"http://{host}:{port}"
        self.lock_dir = lock_dir
        try:
            self.client = _chromadb().HttpClient(host=host, port=port, settings=_client_settings())
            self.client.heartbeat()
        except Exception as exc:
            raise IndexProblem(
                f"Cannot reach the Chroma server at {self.where} ({type(exc).__name__}). Start it "
                "(`chroma run --path DIR --port PORT`) or unset CHROMA_HOST to use a local index."
            ) from None

    def _manifests(self) -> Any:
        return self.client.get_or_create_collection(MANIFEST_COLLECTION, embedding_function=None)

    def read_manifest(self) -> Manifest | None:
        got = self._manifests().get(ids=["manifest"], include=["documents"])
        if not got["ids"]:
            return None
        try:
            return Manifest(**json.loads(got["documents"][0]))
        except (ValueError, TypeError):
            raise IndexProblem(
                f"The index manifest on {self.where} is damaged. Run `gpu-advisor index --rebuild`."
            ) from None

    def write_manifest(self, manifest: Manifest) -> None:
        self._manifests().upsert(
            ids=["manifest"], documents=[json.dumps(asdict(manifest))], embeddings=[[0.0]]
        )

    def collection(self, generation: str, create: bool = False) -> Any:
        return _get_collection(self.client, generation, create)

    def drop_others(self, keep: set[str]) -> None:
        for collection in self.client.list_collections():
            name = getattr(collection, "name", collection)
            if str(name).startswith(GENERATION_PREFIX) and name not in keep:
                with contextlib.suppress(Exception):
                    self.client.delete_collection(name)

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        self.lock_dir.mkdir(parents=True, exist_ok=True)
        with (self.lock_dir / ".server-lock").open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield


def _get_collection(client: Any, name: str, create: bool) -> Any:
    if create:
        return client.create_collection(
            name, embedding_function=None, metadata={"hnsw:space": "cosine"}
        )
    try:
        return client.get_collection(name, embedding_function=None)
    except Exception:
        raise IndexProblem(
            f"The index collection {name} is missing. Run `gpu-advisor index --rebuild`."
        ) from None


Store = LocalStore | ServerStore


def store_for(settings: Settings) -> Store:
    if settings.chroma_host:
        return ServerStore(settings.chroma_host, settings.chroma_port, settings.index_dir)
    return LocalStore(settings.index_dir)


# ---------------------------------------------------------------- building


def load_corpus(settings: Settings) -> list[Document]:
    """The bundled articles and the documents added with `corpus add`, each read once."""
    paths = corpus_files(settings.corpus_dir)
    folder = settings.documents_dir
    if folder is not None and folder.is_dir():
        paths += sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".md")
    docs = [read_document(path) for path in paths]
    seen: dict[str, str] = {}
    for doc in docs:
        if doc.doc_id in seen:
            raise AdvisorError(
                f"Two corpus files have the doc id {doc.doc_id!r}: {seen[doc.doc_id]} and "
                f"{doc.path}. Give one a different doc_id in its front matter."
            )
        seen[doc.doc_id] = doc.path
    return docs


def update_index(
    settings: Settings,
    embedder: Embedder,
    *,
    rebuild: bool = False,
    progress: Progress | None = None,
) -> BuildReport:
    """Bring the index up to date with the corpus folder (or rebuild it from scratch)."""
    start = time.perf_counter()
    docs = load_corpus(settings)
    store = store_for(settings)
    with store.lock():
        previous = None  # the generation readers may be using now (kept one more build)
        if rebuild:
            with contextlib.suppress(IndexProblem):  # a damaged index is what --rebuild is for
                previous = store.read_manifest()
            old = None
        else:
            old = previous = store.read_manifest()
        restamp = old is not None and old.outdated_stamp(embedder)
        if old is not None and not restamp:
            old.check(embedder)
        report = _diff(docs, old)
        if old is not None and report.noop and not restamp:
            report.chunks, report.generation = old.chunks, old.generation
            report.seconds = time.perf_counter() - start
            return report
        chunks = [chunk for doc in docs for chunk in chunk_document(doc)]
        # the same model and chunker: every unchanged chunk keeps its vector (a new claims
        # version re-derives only the metadata)
        same_chunks = old is not None and old.chunker_version.split("+")[0] == CHUNKER_VERSION
        wanted = {c.id for c in chunks}
        reused = _reuse_embeddings(store, old, wanted) if old and same_chunks else {}
        todo = [c for c in chunks if c.id not in reused]
        done = 0

        def tick(n: int) -> None:
            nonlocal done
            done += n
            if progress:
                progress(done, len(todo))

        if progress:
            progress(0, len(todo))
        fresh = embedder.embed([c.embed_text for c in todo], tick) if todo else []
        vectors = {**reused, **{c.id: v for c, v in zip(todo, fresh, strict=True)}}
        generation = f"{GENERATION_PREFIX}{time.time_ns()}"
        _write_generation(store, generation, chunks, vectors)
        store.write_manifest(
            Manifest(
                embedding_model=embedder.name,
                dimension=embedder.dimension,
                chunker_version=INDEX_STAMP,
                generation=generation,
                documents={d.doc_id: d.sha256 for d in docs},
                files={d.doc_id: Path(d.path).name for d in docs},
                chunks=len(chunks),
                built_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            )
        )
        # the generation just replaced stays until the next build: readers in other processes
        # may be searching it now; anything older, and any half-built leftover, goes
        store.drop_others(keep={generation, previous.generation} if previous else {generation})
    report.embedded, report.chunks, report.generation = len(todo), len(chunks), generation
    report.seconds = time.perf_counter() - start
    return report


def _diff(docs: list[Document], old: Manifest | None) -> BuildReport:
    report = BuildReport()
    previous = old.documents if old else {}
    for doc in docs:
        if doc.doc_id not in previous:
            report.added.append(doc.doc_id)
        elif previous[doc.doc_id] != doc.sha256:
            report.changed.append(doc.doc_id)
        else:
            report.unchanged.append(doc.doc_id)
    current = {d.doc_id for d in docs}
    report.removed = sorted(set(previous) - current)
    return report


def _reuse_embeddings(store: Store, old: Manifest, wanted: set[str]) -> dict[str, list[float]]:
    """Vectors of the old generation's passages that are still in the corpus, unchanged."""
    try:
        collection = store.collection(old.generation)
    except IndexProblem:
        return {}  # the old generation is gone: embed everything again
    reused: dict[str, list[float]] = {}
    for got in _pages(collection, ["embeddings"]):
        for i, e in zip(got["ids"], got["embeddings"], strict=True):
            if i in wanted:
                reused[i] = list(map(float, e))
    return reused


def _pages(collection: Any, include: list[str], size: int | None = None) -> Iterator[Any]:
    """A collection's records, page by page: one get() of everything overflows Chroma's SQL."""
    size = size or READ_PAGE
    offset = 0
    while True:
        got = collection.get(include=include, limit=size, offset=offset)
        if not got["ids"]:
            return
        yield got
        offset += len(got["ids"])


def _write_generation(
    store: Store, generation: str, chunks: list[Chunk], vectors: dict[str, list[float]]
) -> None:
    collection = store.collection(generation, create=True)
    step = 1000
    for i in range(0, len(chunks), step):
        batch = chunks[i : i + step]
        collection.add(
            ids=[c.id for c in batch],
            embeddings=[vectors[c.id] for c in batch],
            documents=[c.text for c in batch],
            metadatas=[_metadata(c) for c in batch],
        )


def _metadata(chunk: Chunk) -> dict[str, Any]:
    gpus = sorted({i for _, _, ids in find_gpus(f"{chunk.section}\n{chunk.text}") for i in ids})
    claims = [
        c.to_dict() for c in extract_claims(chunk.text, chunk.section, published=chunk.published)
    ]
    return {
        "doc_id": chunk.doc_id,
        "title": chunk.title,
        "section": chunk.section,
        "start": chunk.start,
        "end": chunk.end,
        "gpus": "," + ",".join(gpus) + ",",
        "claims": json.dumps(claims),
    }


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class IndexedChunk:
    chunk: Chunk
    gpus: frozenset[str]
    claims: tuple[Claim, ...]


def _indexed_chunk(chunk_id: str, text: str, meta: dict[str, Any]) -> IndexedChunk:
    chunk = Chunk(
        id=chunk_id, doc_id=meta["doc_id"], title=meta["title"], section=meta["section"],
        text=text, start=int(meta["start"]), end=int(meta["end"]),
    )  # fmt: skip
    claims = tuple(Claim.from_dict(c) for c in json.loads(meta["claims"]))
    gpus = frozenset(g for g in str(meta["gpus"]).split(",") if g)
    return IndexedChunk(chunk, gpus, claims)


class Index:
    """An open index: its chunks in memory (for BM25 and display) and its Chroma collection."""

    def __init__(self, store: Store, manifest: Manifest) -> None:
        self.store = store
        self.manifest = manifest
        self.collection = store.collection(manifest.generation)
        self.chunks: list[IndexedChunk] = []
        for got in _pages(self.collection, ["documents", "metadatas"]):
            for chunk_id, text, meta in zip(
                got["ids"], got["documents"], got["metadatas"], strict=True
            ):
                self.chunks.append(_indexed_chunk(chunk_id, text, meta))
        self.chunks.sort(key=lambda c: (c.chunk.doc_id, c.chunk.start))
        self.by_id = {c.chunk.id: c for c in self.chunks}
        if isinstance(store, LocalStore):
            _write_snapshot(store.snapshot_path(manifest.generation), self.chunks)

    def dense(
        self, vector: list[float], n: int, doc_id: str | None = None
    ) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity) of the n nearest chunks."""
        n = min(n, len(self.chunks))
        if n == 0:
            return []
        where = {"doc_id": doc_id} if doc_id else None
        got = self.collection.query(
            query_embeddings=[vector], n_results=n, where=where, include=["distances"]
        )
        return [(i, 1.0 - d) for i, d in zip(got["ids"][0], got["distances"][0], strict=True)]


def _write_snapshot(path: Path, chunks: list[IndexedChunk]) -> None:
    """Write the passages once per generation, whole then renamed (a reader never sees half)."""
    if path.exists():
        return
    rows = [{"id": c.chunk.id, "text": c.chunk.text, "meta": _snapshot_meta(c)} for c in chunks]
    with contextlib.suppress(OSError):  # a read-only index: the light path is just unavailable
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(rows), encoding="utf-8")
        os.replace(tmp, path)


def _snapshot_meta(c: IndexedChunk) -> dict[str, Any]:
    return {
        "doc_id": c.chunk.doc_id,
        "title": c.chunk.title,
        "section": c.chunk.section,
        "start": c.chunk.start,
        "end": c.chunk.end,
        "gpus": "," + ",".join(sorted(c.gpus)) + ",",
        "claims": json.dumps([claim.to_dict() for claim in c.claims]),
    }


def read_snapshot(path: Path) -> list[IndexedChunk]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    chunks = [_indexed_chunk(r["id"], r["text"], r["meta"]) for r in rows]
    return sorted(chunks, key=lambda c: (c.chunk.doc_id, c.chunk.start))


def open_index(
    settings: Settings,
    embedder: Embedder,
    *,
    build_if_missing: bool = True,
    progress: Progress | None = None,
) -> Index:
    """The current index, built first when there is none yet."""
    store = store_for(settings)
    manifest = store.read_manifest()
    if manifest is None:
        if not build_if_missing:
            raise IndexProblem(f"No index at {store.where}. Run `gpu-advisor index`.")
        update_index(settings, embedder, progress=progress)
        manifest = store.read_manifest()
        assert manifest is not None
    elif manifest.outdated_stamp(embedder):  # a newer chunker or claims reader: refresh it
        update_index(settings, embedder, progress=progress)
        manifest = store.read_manifest()
        assert manifest is not None
    manifest.check(embedder)
    return Index(store, manifest)


def stale_documents(settings: Settings, manifest: Manifest) -> list[str]:
    """Doc ids whose file changed, appeared or vanished since the index was built."""
    docs = {d.doc_id: d.sha256 for d in load_corpus(settings)}
    changed = [d for d, sha in docs.items() if manifest.documents.get(d) != sha]
    return sorted(changed + [d for d in manifest.documents if d not in docs])
