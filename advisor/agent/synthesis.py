"""Explain-type answers from the articles: the few sentences that answer the question, each
cited, instead of whole passages.

Sentences of the retrieved passages are scored against the question by the question's content
words, each weighted by how rare it is among the candidate sentences (an IDF over the pool, so
"bandwidth" outweighs "GPU"), with the words of the question's topic and entities counting
double; near-duplicates (most words shared with a sentence already chosen) are dropped. Nothing
here generates text: every sentence is quoted as the article wrote it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_SPLIT = re.compile(
    r"(?<=[.!?])(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bapprox\.)"
    r"\s+(?=[A-Z0-9\"'(*])|\n+"
)
_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
_STOP = frozenset(
    re.findall(
        r"\S+",
        """a an the of to in on for and or but is are was were be been being it its this that
        these those with as at by from into than then so if when what which who how why do does
        did can could will would should may might must i you we they he she my your our their me
        us them not no yes more most less very also just about there here all any each some such
        only own same too s t get got have has had use used using gpu gpus card cards good bad
        better best worse matter need needed people say said thing things really actually lot
        much many way work works one two make""",
    )
)
MIN_CHARS, MAX_CHARS = 40, 420
# a page's navigation, not its content: "Related Topics", "suggested anchor text: ..."
_NAVIGATION = re.compile(
    r"\b(?:related (?:topics|posts|articles|reading)|see also|further reading|table of contents"
    r"|read next|you may also like)\b",
    re.IGNORECASE,
)
_LINK_TEXT = re.compile(r"\banchor text\b|\bclick here\b|\bread more\b", re.IGNORECASE)


@dataclass(frozen=True)
class Sentence:
    text: str
    passage_id: str
    score: float


def _words(text: str) -> list[str]:
    return [w.rstrip("s") if len(w) > 3 else w for w in _WORD.findall(text.lower())]


def content_words(text: str) -> set[str]:
    return {w for w in _words(text) if w not in _STOP and len(w) > 1}


def sentences(text: str) -> list[str]:
    """A passage cut into sentences and list items, markdown markers and extra space removed;
    an item under a short heading ("- Workload Type:") carries the heading."""
    out = []
    heading = ""
    for piece in _SPLIT.split(text):
        clean = re.sub(r"^[\s>*#\-•|]+|[\s|]+$", "", piece)
        clean = re.sub(r"\*\*|__|`", "", re.sub(r"\s+", " ", clean)).strip()
        if clean.endswith(":") and len(clean) < 40:
            heading = clean
            continue
        if heading and re.match(r"^\s*[-*•]", piece):
            clean = f"{heading} {clean}"
        else:
            heading = ""
        table_row = clean.count("|") >= 2
        if MIN_CHARS <= len(clean) <= MAX_CHARS and re.search(r"[a-z]{3}", clean) and not table_row:
            out.append(clean)
    return out


def best_sentences(
    question: str,
    passages: list[tuple[str, str, str]],
    emphasis: list[str] = (),  # type: ignore[assignment]
    limit: int = 3,
) -> list[Sentence]:
    """The `limit` sentences of (passage id, text, section) triples that best answer `question`;
    words of `emphasis` (the topic, the named GPUs) count double, and the question's words in a
    passage's section title ("A Decision Framework") count for its sentences. Empty when none
    shares a content word with the question."""
    pool = [(pid, s) for pid, text, section in passages if not _NAVIGATION.search(section)
            for s in sentences(text) if not _LINK_TEXT.search(s)]  # fmt: skip
    titles = {pid: content_words(section) for pid, _text, section in passages}
    if not pool:
        return []
    asked = content_words(question)
    stressed = {w for phrase in emphasis for w in content_words(phrase)}
    bags = [content_words(s) for _pid, s in pool]
    df: dict[str, int] = {}
    for bag in bags:
        for w in bag:
            df[w] = df.get(w, 0) + 1
    scored = []
    need = 2 if len(asked) >= 3 else 1  # about the question: two of its words when it has many
    for (pid, text), bag in zip(pool, bags, strict=True):
        hits = bag & (asked | stressed)
        score = sum(math.log(1 + len(pool) / df[w]) * (2.0 if w in stressed else 1.0) for w in hits)
        score += 1.5 * len(titles.get(pid, set()) & asked)  # the section is about the question
        if len(hits & asked) >= need:
            scored.append(Sentence(text, pid, score / math.sqrt(1 + len(bag) / 12)))
    scored.sort(key=lambda s: -s.score)
    scored = [s for s in scored if s.score >= 0.5 * scored[0].score] if scored else []
    chosen: list[Sentence] = []
    for s in scored:
        bag = content_words(s.text)
        if any(len(bag & content_words(c.text)) > 0.6 * min(len(bag), len(content_words(c.text)))
               for c in chosen):  # fmt: skip
            continue
        chosen.append(s)
        if len(chosen) == limit:
            break
    return chosen
