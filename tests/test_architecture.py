"""The house rules that keep the code legible: layers import only downwards, the public API is
exactly what `__all__` says, and no module binds a top-level name twice."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from tests.conftest import REPO

# Dependencies run one way: a module may import its own layer and the layers before it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("data", ("advisor.errors", "advisor.config", "advisor.specs", "advisor.names",
              "advisor.answer", "advisor.transcript", "advisor.threads", "advisor.hfconfig",
              "advisor.rx")),
    ("catalog", ("advisor.catalog",)),
    ("calculator and retrieval", ("advisor.calculator", "advisor.retrieval")),
    ("tools", ("advisor.tools",)),
    ("agent", ("advisor.agent",)),
    ("api", ("advisor.api",)),
    ("interfaces", ("advisor.cli", "advisor.evaluation", "ui")),
)  # fmt: skip


def _layer(module: str) -> int | None:
    for rank, (_name, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def _modules() -> list[tuple[str, Path]]:
    found = []
    for root in ("advisor", "ui"):
        for path in sorted((REPO / root).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(p for p in parts if p != "__init__")
            if name != "advisor":  # the package root re-exports the public API: a facade
                found.append((name, path))
    return found


def _imports(path: Path, module: str) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:  # relative import: resolve against the package
                base = module.split(".")[: -node.level] if node.level else []
                names.append(".".join([*base, node.module]))
            else:
                names.append(node.module)
                names += [f"{node.module}.{a.name}" for a in node.names]
    return names


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[m for m, _ in _modules()])
def test_no_module_imports_a_layer_above_its_own(module: str, path: Path) -> None:
    own = _layer(module)
    assert own is not None, f"{module} belongs to no layer: add it to LAYERS"
    above = []
    for name in _imports(path, module):
        rank = _layer(name)
        if rank is not None and rank > own:
            above.append(f"{name} ({LAYERS[rank][0]})")
    assert not above, f"{module} ({LAYERS[own][0]}) imports a layer above it: {above}"


def _bound_twice(path: Path) -> list[str]:
    """Top-level names a module assigns or defines more than once: the later binding silently
    wins for every user, the earlier one's included."""
    seen: dict[str, int] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        else:
            continue
        for name in names:
            seen[name] = seen.get(name, 0) + 1
    return sorted(name for name, count in seen.items() if count > 1)


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[m for m, _ in _modules()])
def test_no_module_binds_a_top_level_name_twice(module: str, path: Path) -> None:
    assert not _bound_twice(path), f"{module} binds twice: {_bound_twice(path)}"


def test_a_name_bound_twice_is_found(tmp_path: Path) -> None:
    twice = tmp_path / "twice.py"
    twice.write_text("import re\nA = re.compile('a')\ndef f():\n    pass\nA = 2\n", "utf-8")
    assert _bound_twice(twice) == ["A"]


@pytest.mark.parametrize("package", ["advisor", "advisor.cli", "advisor.calculator"])
def test_public_api_is_exactly_all(package: str) -> None:
    """Every name in __all__ is there, once, and nothing public is left out of it (ruff's
    RUF022 keeps the list sorted)."""
    module = importlib.import_module(package)
    exported = module.__all__
    assert len(set(exported)) == len(exported)
    for name in exported:
        assert hasattr(module, name), f"{package}.__all__ names {name}, which is not there"
    public = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_")
        and getattr(value, "__module__", "").startswith(package)
        and not isinstance(value, type(module))
    }
    assert public <= set(exported), f"public but not in __all__: {sorted(public - set(exported))}"
