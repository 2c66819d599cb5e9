"""A reader process for the concurrency test: searches one index in a loop while another
process re-indexes it, and prints what it saw as JSON.

    python -m tests.index_reader INDEX_DIR CORPUS_DIR SECONDS [STOP_FILE]

It stops after SECONDS, or once STOP_FILE exists and it has seen the index generation written
in it (the test's last build), however long the re-indexing took on a loaded machine.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from advisor.config import Settings
from advisor.retrieval.embed import default_embedder
from advisor.retrieval.index import open_index
from advisor.retrieval.search import LiveSearcher, Searcher


def main() -> None:
    index_dir, corpus_dir, seconds = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
    stop = Path(sys.argv[4]) if len(sys.argv) > 4 else None
    embedder = default_embedder()
    settings = Settings(corpus_dir=corpus_dir, index_dir=index_dir)
    live = LiveSearcher(Searcher(open_index(settings, embedder, build_if_missing=False), embedder),
                        check_s=0.1)  # fmt: skip
    print("ready", flush=True)
    searches, empty, errors = 0, 0, []
    generations = [live.index.manifest.generation]  # the one it opened
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if stop and stop.exists() and stop.read_text().strip() in ("", generations[-1]):
            break  # (an empty file: stop now, the test failed before its last build)
        try:
            found = live.search("L40 memory bandwidth", k=3)
            searches += 1
            empty += not found
        except Exception as exc:  # what the test is looking for: any failure at all
            errors.append(f"{type(exc).__name__}: {exc}")
        generation = live.index.manifest.generation
        if not generations or generations[-1] != generation:
            generations.append(generation)
    print(json.dumps({"searches": searches, "empty": empty, "errors": errors[:5],
                      "error_count": len(errors), "generations": generations}))  # fmt: skip


if __name__ == "__main__":
    main()
