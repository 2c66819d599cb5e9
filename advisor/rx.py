"""`re`'s module-level functions with a cache that holds every pattern the understanding step
writes inline.

The recognisers write some 1,400 patterns in place, many built from their word lists; `re` keeps
only 512 compiled patterns, so reading one question recompiled a couple of patterns on average
(about 1 ms a question on a 2-core machine, `python -m eval.bench_understanding`). Same
signatures and results as `re`'s functions."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

Pattern = str | re.Pattern[str]


@lru_cache(maxsize=8192)
def compiled(pattern: Pattern, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def search(pattern: Pattern, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).search(string)


def match(pattern: Pattern, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).match(string)


def fullmatch(pattern: Pattern, string: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).fullmatch(string)


def findall(pattern: Pattern, string: str, flags: int = 0) -> list[Any]:
    return compiled(pattern, flags).findall(string)


def finditer(pattern: Pattern, string: str, flags: int = 0) -> Iterator[re.Match[str]]:
    return compiled(pattern, flags).finditer(string)


def split(pattern: Pattern, string: str, maxsplit: int = 0, flags: int = 0) -> list[Any]:
    return compiled(pattern, flags).split(string, maxsplit)


def sub(
    pattern: Pattern,
    repl: str | Callable[[re.Match[str]], str],
    string: str,
    count: int = 0,
    flags: int = 0,
) -> str:
    return compiled(pattern, flags).sub(repl, string, count)
