"""Where conversations are kept: the record of every answered turn (the whole answer with its
receipts and sources, and the entities the next turn inherits, for "and the A4000?") and its
feedback. The next turn reads what it needs (the last turn's entities, the recent questions and
answers) from these records.

    memory       the Python API's default: this process only
    SQLite       a file: the CLI's and the servers' default (threads.sqlite in the data home)
    PostgreSQL   a postgresql:// URL (ADVISOR_DATABASE_URL): workers on several hosts share
                 every thread

Each turn is recorded in its own transaction, once answered, so a worker killed mid-answer loses
that answer only, never an earlier turn.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from advisor.errors import AdvisorError, InvalidInput

RATINGS = ("like", "dislike")
MAX_NOTE_CHARS = 2000
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_SETUP_LOCK = 7_416_001  # a pg_advisory_lock key: one worker at a time creates the tables

_TABLES = (
    """CREATE TABLE IF NOT EXISTS advisor_turns (
        thread_id TEXT NOT NULL, turn INTEGER NOT NULL, question TEXT NOT NULL,
        answer TEXT NOT NULL, asked_at TEXT NOT NULL, PRIMARY KEY (thread_id, turn))""",
    """CREATE TABLE IF NOT EXISTS advisor_feedback (
        thread_id TEXT NOT NULL, turn INTEGER NOT NULL, rating TEXT NOT NULL,
        note TEXT NOT NULL, given_at TEXT NOT NULL, PRIMARY KEY (thread_id, turn))""",
)
_ADD_TURN = """INSERT INTO advisor_turns (thread_id, turn, question, answer, asked_at)
    SELECT ?, COALESCE(MAX(turn) + 1, 0), ?, ?, ? FROM advisor_turns WHERE thread_id = ?
    RETURNING turn"""
_TURNS = """SELECT t.turn, t.question, t.answer, t.asked_at, f.rating, f.note, f.given_at
    FROM advisor_turns t LEFT JOIN advisor_feedback f
    ON f.thread_id = t.thread_id AND f.turn = t.turn
    WHERE t.thread_id = ? ORDER BY t.turn"""
_HAS_TURN = "SELECT 1 FROM advisor_turns WHERE thread_id = ? AND turn = ?"
_FEEDBACK = """INSERT INTO advisor_feedback (thread_id, turn, rating, note, given_at)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (thread_id, turn) DO UPDATE SET
    rating = excluded.rating, note = excluded.note, given_at = excluded.given_at"""


_CONTEXT = "_context"  # the key, in the stored answer's JSON, of what the next turn inherits


def _answer_and_context(text: str) -> dict[str, Any]:
    answer = json.loads(text)
    return {"answer": answer, "context": answer.pop(_CONTEXT, None)}


class StoreUnavailable(AdvisorError):
    """The conversation database cannot be reached or set up."""


class TurnStore(Protocol):
    """The record of a conversation's answered turns and their feedback."""

    def add(
        self, thread_id: str, question: str, answer: dict[str, Any], context: dict[str, Any]
    ) -> int: ...

    def turns(self, thread_id: str) -> list[dict[str, Any]]: ...

    def feedback(self, thread_id: str, turn: int, rating: str, note: str) -> None: ...


@dataclass
class Conversations:
    """The turn record and where it is kept."""

    turns: TurnStore
    where: str  # for messages: "memory", a file path, or the database without its password
    close: Callable[[], None] = lambda: None  # frees the connections (a pool's threads too)


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())


def check_feedback(rating: str, note: str) -> tuple[str, str]:
    """The rating and note as stored; InvalidInput for anything else."""
    rating = rating.strip().lower() if isinstance(rating, str) else ""
    if rating not in RATINGS:
        raise InvalidInput(f"A rating is one of {', '.join(RATINGS)}.")
    if not isinstance(note, str):
        raise InvalidInput("The feedback note must be text.")
    note = " ".join(note.split())
    if len(note) > MAX_NOTE_CHARS:
        raise InvalidInput(f"The feedback note is over {MAX_NOTE_CHARS:,} characters; shorten it.")
    return rating, note


def _no_turn(thread_id: str, turn: int) -> InvalidInput:
    return InvalidInput(f"Thread {thread_id!r} has no answered turn {turn}.")


class MemoryTurns:
    """Turns kept in this process only."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._threads: dict[str, list[dict[str, Any]]] = {}

    def add(
        self, thread_id: str, question: str, answer: dict[str, Any], context: dict[str, Any]
    ) -> int:
        with self._lock:
            turns = self._threads.setdefault(thread_id, [])
            record = {"question": question, "answer": json.loads(json.dumps(answer)),
                      "context": json.loads(json.dumps(context)), "asked_at": _now(),
                      "feedback": None}  # fmt: skip
            turns.append({"turn": len(turns), **record})
            return len(turns) - 1

    def turns(self, thread_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(t) for t in self._threads.get(thread_id, [])]

    def feedback(self, thread_id: str, turn: int, rating: str, note: str) -> None:
        with self._lock:
            turns = self._threads.get(thread_id, [])
            if not 0 <= turn < len(turns):
                raise _no_turn(thread_id, turn)
            turns[turn]["feedback"] = {"rating": rating, "note": note, "given_at": _now()}


class SqlTurns:
    """Turns in SQL tables: SQLite or PostgreSQL (one dialect: the
    statements are written with ? and translated for psycopg)."""

    def __init__(
        self, connect: Callable[[], AbstractContextManager[Any]], *, postgres: bool,
        conflict: type[Exception] | tuple[type[Exception], ...],
    ) -> None:  # fmt: skip
        self._connect = connect
        self._postgres = postgres
        self._conflict = conflict

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self._postgres else statement

    def setup(self) -> None:
        with self._connect() as conn:
            for table in _TABLES:
                conn.execute(table)

    def add(
        self, thread_id: str, question: str, answer: dict[str, Any], context: dict[str, Any]
    ) -> int:
        text = json.dumps({**answer, _CONTEXT: context})  # one column: the schema stays as it was
        for attempt in range(5):
            try:
                with self._connect() as conn:
                    row = conn.execute(
                        self._sql(_ADD_TURN), (thread_id, question, text, _now(), thread_id)
                    ).fetchone()
                return int(row[0])
            except self._conflict:  # another worker took that turn number first: count again
                if attempt == 4:
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def turns(self, thread_id: str) -> list[dict[str, Any]]:
        with self._connect() as conn:
            rows = conn.execute(self._sql(_TURNS), (thread_id,)).fetchall()
        return [
            {"turn": int(r[0]), "question": r[1], **_answer_and_context(r[2]), "asked_at": r[3],
             "feedback": {"rating": r[4], "note": r[5], "given_at": r[6]} if r[4] else None}
            for r in rows
        ]  # fmt: skip

    def feedback(self, thread_id: str, turn: int, rating: str, note: str) -> None:
        with self._connect() as conn:
            if conn.execute(self._sql(_HAS_TURN), (thread_id, turn)).fetchone() is None:
                raise _no_turn(thread_id, turn)
            conn.execute(self._sql(_FEEDBACK), (thread_id, turn, rating, note, _now()))


# ---------------------------------------------------------------- opening


def is_database_url(where: object) -> bool:
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def open_conversations(where: str | Path | None) -> Conversations:
    """None or "memory": this process; "sqlite": threads.sqlite in the data home; a
    postgresql:// URL: that database; any other text or path: that SQLite file."""
    if where is None or where == "memory":
        return Conversations(MemoryTurns(), "memory")
    if is_database_url(where):
        return _postgres(str(where))
    from advisor.config import data_home

    return _sqlite(data_home() / "threads.sqlite" if where == "sqlite" else Path(where))


def _wal(conn: sqlite3.Connection, tries: int = 50) -> None:
    """The file switched to WAL. The switch needs the file to itself, and SQLite can answer
    "database is locked" at once, without waiting out the busy timeout, while another worker
    that starts at the same moment holds it: so try again for up to about 10 s."""
    for attempt in range(tries):
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == tries - 1:
                raise
            time.sleep(0.2)


def _sqlite(path: Path) -> Conversations:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        # WAL: several processes (API workers) read while one writes, without "database is locked"
        _wal(conn)
    except (OSError, sqlite3.Error) as exc:
        raise StoreUnavailable(
            f"Cannot open the conversation file {path} ({exc}); set ADVISOR_CHECKPOINT to a "
            "writable path."
        ) from None
    lock = threading.Lock()

    @contextmanager
    def connect() -> Iterator[sqlite3.Connection]:
        with lock, conn:  # one statement group at a time, committed as a transaction
            yield conn

    turns = SqlTurns(connect, postgres=False, conflict=sqlite3.IntegrityError)
    turns.setup()
    return Conversations(turns, str(path), conn.close)


def redacted(url: str) -> str:
    """A database URL without its password, for messages and logs."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        info = conninfo_to_dict(url)
    except Exception:
        return "the database in ADVISOR_DATABASE_URL"
    host, port, name = info.get("host", "localhost"), info.get("port", "5432"), info.get("dbname")
    return f"postgresql://{info.get('user', '')}@{host}:{port}/{name or ''}"


def _take_setup_lock(conn: Any) -> None:
    """The setup lock (freed when the connection closes): two workers creating the tables at
    once would otherwise collide on PostgreSQL's catalog."""
    import time

    deadline = time.monotonic() + 60
    while not conn.execute("SELECT pg_try_advisory_lock(%s)", (_SETUP_LOCK,)).fetchone()[0]:
        if time.monotonic() > deadline:
            raise StoreUnavailable("Another worker held the database setup lock for 60 s.")
        time.sleep(0.1)


def _postgres(url: str) -> Conversations:
    try:
        import psycopg
        from psycopg_pool import ConnectionPool
    except ImportError as exc:
        raise StoreUnavailable(
            f"A PostgreSQL conversation store needs {exc.name} "
            "(pip install 'gpu-advisor[postgres]')."
        ) from None
    where = redacted(url)
    # no server-side prepared statements: safe behind a pooler such as PgBouncer
    kwargs = {"autocommit": True, "prepare_threshold": 0}
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as setup:
            _take_setup_lock(setup)
            for table in _TABLES:
                setup.execute(table)
        pool = ConnectionPool(url, kwargs=kwargs, min_size=1, max_size=8, open=True,
                              timeout=30)  # fmt: skip
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split())[:300].replace(url, where)
        raise StoreUnavailable(
            f"Cannot use the conversation database {where} ({reason}). Check "
            "ADVISOR_DATABASE_URL and that the server is running."
        ) from None

    @contextmanager
    def connect() -> Iterator[Any]:
        with pool.connection() as conn, conn.transaction():
            yield conn

    turns = SqlTurns(connect, postgres=True, conflict=psycopg.errors.UniqueViolation)
    return Conversations(turns, where, pool.close)
