"""The knowledge base: GPUs, models and prices from advisor/data/*.yaml, validated and looked up.

Lookups forgive case, spacing and punctuation ("a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB"). A name
shared by several entries ("A100") raises AmbiguousGPU with the variants; an unknown one raises
UnknownGPU with "did you mean" suggestions. Nothing here imports torch, chromadb or LangChain, so
the catalog commands of the CLI stay fast.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import yaml

from advisor.config import Settings, data_home
from advisor.errors import (
    AmbiguousGPU,
    AmbiguousModel,
    CatalogError,
    InvalidInput,
    UnknownGPU,
    UnknownModel,
)
from advisor.names import gpu_key, model_key, parse_memory_gb, parse_size_b, suggest
from advisor.specs import GPU, Instance, Model, Price, PurchasePrice

T = TypeVar("T")
SEGMENTS = ("datacenter", "workstation", "consumer", "laptop")
GPU_LINKS = ("switch", "bridge", "pcie", "none")
COMPUTE_STACKS = ("cuda", "rocm", "oneapi", "metal", "synapseai")
PURCHASE_KINDS = ("msrp", "new", "used")
_DATE = re.compile(r"\d{4}-\d{2}(?:-\d{2})?")
GENERIC_SIZE_RANGE_B = (0.01, 5000.0)
# Dense models whose shape a generic "N-billion-parameter model" borrows, by nearest size.
GENERIC_TEMPLATES = (
    "llama-3.2-1b",
    "llama-3.2-3b",
    "llama-3.1-8b",
    "qwen2.5-14b",
    "qwen2.5-32b",
    "llama-3.1-70b",
    "llama-3.1-405b",
)


# ---------------------------------------------------------------- loading and validation


def _parsed_cache(path: Path) -> Path | None:
    """Where the parsed rows of a data file are kept, stamped with its size and time: YAML
    takes ~30 ms a file to parse, JSON of the same rows ~1 ms (a cold `estimate` reads 30)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    digest = hashlib.sha1(str(path.resolve()).encode(), usedforsecurity=False).hexdigest()[:16]
    return data_home() / "cache" / "data" / f"{digest}-{stat.st_mtime_ns}-{stat.st_size}.json"


def _load_yaml(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise CatalogError(f"Data file {path} is missing (set ADVISOR_DATA_DIR or reinstall).")
    cached = _parsed_cache(path)
    if cached is not None and cached.is_file():
        try:
            rows: list[dict[str, Any]] = json.loads(cached.read_text(encoding="utf-8"))
            return rows
        except (OSError, ValueError):
            pass  # a damaged cache file: parse the YAML again
    data = _parse_yaml(path)
    if cached is not None:
        try:  # written whole then renamed: a crash never leaves half a file
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(data, default=str), encoding="utf-8")
            tmp.replace(cached)
        except OSError:
            pass  # a read-only home: no cache, same answer
    return data


def _parse_yaml(path: Path) -> list[dict[str, Any]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with path.open(encoding="utf-8") as handle:
            data = yaml.load(handle, Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "syntax error"
        raise CatalogError(f"{path} is not valid YAML{where}: {problem}.") from None
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise CatalogError(f"{path.name} must be a list of entries (mappings).")
    return data


def _check_value(value: Any, hint: Any) -> Any:
    """Return `value` converted to `hint` (str, int, float, bool, tuple[str, ...], X | None)."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None:
        if type(None) in options:
            return None
        raise TypeError("is required")
    for option in options:
        if option is bool and isinstance(value, bool):
            return value
        if option is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if option is float and isinstance(value, int | float) and not isinstance(value, bool):
            if not math.isfinite(value):
                raise TypeError("must be a finite number")
            return value
        if option is str and isinstance(value, str | int | float) and not isinstance(value, bool):
            return str(value)
        is_tuple = typing.get_origin(option) is tuple and isinstance(value, list)
        if is_tuple and all(isinstance(item, str) for item in value):
            return tuple(value)
    names = " or ".join(getattr(o, "__name__", str(o)) for o in options if o is not type(None))
    raise TypeError(f"must be {names}, got {value!r}")


@lru_cache(maxsize=32)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)  # 1 ms a call: once per class, not per entry


def _build(cls: type[T], row: dict[str, Any], where: str) -> T:
    hints = _hints(cls)  # type: ignore[arg-type]
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(row) - known)
    if unknown:
        raise CatalogError(f"{where}: unknown field(s) {', '.join(unknown)}.")
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in row:
            if f.default is MISSING:
                raise CatalogError(f"{where}: field '{f.name}' is missing.")
            continue
        try:
            values[f.name] = _check_value(row[f.name], hints[f.name])
        except TypeError as exc:
            raise CatalogError(f"{where}: field '{f.name}' {exc}.") from None
    return cls(**values)


def _validate_gpu(gpu: GPU, where: str) -> None:
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", gpu.id):
        raise CatalogError(f"{where}: id must be lowercase letters, digits and dashes.")
    if gpu.segment not in SEGMENTS:
        raise CatalogError(f"{where}: segment must be one of {', '.join(SEGMENTS)}.")
    for name in ("memory_gb", "bandwidth_gbs"):
        if getattr(gpu, name) <= 0:
            raise CatalogError(f"{where}: {name} must be positive.")
    for f in fields(GPU):
        value = getattr(gpu, f.name)
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            raise CatalogError(f"{where}: {f.name} must not be negative.")
    if not gpu.source.strip():
        raise CatalogError(f"{where}: every GPU needs a source.")
    if gpu.gpu_link is not None and gpu.gpu_link not in GPU_LINKS:
        raise CatalogError(f"{where}: gpu_link must be one of {', '.join(GPU_LINKS)}.")
    if gpu.gpu_link in ("switch", "bridge") and not gpu.gpu_link_gbs:
        raise CatalogError(f"{where}: a {gpu.gpu_link} link needs its gpu_link_gbs.")
    if gpu.compute_stack is not None and gpu.compute_stack not in COMPUTE_STACKS:
        raise CatalogError(f"{where}: compute_stack must be one of {', '.join(COMPUTE_STACKS)}.")
    if gpu.launch_date is not None and not _DATE.fullmatch(gpu.launch_date):
        raise CatalogError(f"{where}: launch_date must be YYYY-MM or YYYY-MM-DD.")


def _validate_model(model: Model, where: str) -> None:
    positive = ("total_params", "num_layers", "hidden_size", "num_attention_heads", "num_kv_heads")
    for name in (*positive, "head_dim", "vocab_size", "max_context"):
        if getattr(model, name) <= 0:
            raise CatalogError(f"{where}: {name} must be positive.")
    if model.active_params is not None and model.active_params > model.total_params:
        raise CatalogError(f"{where}: active_params exceeds total_params.")
    if model.attention_type != "MLA" and model.num_attention_heads % model.num_kv_heads:
        raise CatalogError(f"{where}: num_attention_heads must be a multiple of num_kv_heads.")
    if model.sliding_window_layers is not None and model.sliding_window_layers > model.num_layers:
        raise CatalogError(f"{where}: sliding_window_layers exceeds num_layers.")


def data_files(data_dir: Path, name: str, required: bool = True) -> list[Path]:
    """The files holding one kind of entry: `name`.yaml, then every .yaml in the folder `name`/
    (a table too long for one file is kept as one file per vendor or lab)."""
    single = data_dir / f"{name}.yaml"
    folder = sorted((data_dir / name).glob("*.yaml")) if (data_dir / name).is_dir() else []
    paths = ([single] if single.is_file() else []) + folder
    if not paths and required:
        raise CatalogError(
            f"Data file {single} (or folder {data_dir / name}) is missing "
            "(set ADVISOR_DATA_DIR or reinstall)."
        )
    return paths


def _load_entries(
    data_dir: Path, name: str, cls: type[T], kind: str, required: bool = True
) -> list[T]:
    entries = []
    for path in data_files(data_dir, name, required):
        where = path.name if path.parent == data_dir else f"{name}/{path.name}"
        for i, row in enumerate(_load_yaml(path), 1):
            label = f"{where}: {kind} '{row.get('id') or row.get('ref') or f'#{i}'}'"
            entries.append(_build(cls, row, label))
    return entries


def _index(entries: Iterable[Any], key: Callable[[str], str]) -> dict[str, list[str]]:
    """Lookup key -> ids, in catalog order; the id and every alias and name are keys."""
    index: dict[str, list[str]] = {}
    for entry in entries:
        for text in (entry.id, entry.name, *entry.aliases):
            ids = index.setdefault(key(text), [])
            if entry.id not in ids:
                ids.append(entry.id)
    return index


# ---------------------------------------------------------------- the catalog


@dataclass
class Catalog:
    """GPUs and models by id, with their lookup indexes; prices load on first use."""

    data_dir: Path
    gpus: dict[str, GPU]
    models: dict[str, Model]
    _gpu_index: dict[str, list[str]]
    _model_index: dict[str, list[str]]
    _prices: list[Price] | None = None
    _price_index: dict[str, list[Price]] | None = None
    _purchases: dict[str, list[PurchasePrice]] | None = None
    _instances: dict[str, Instance] | None = None
    _tables: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def load(cls, data_dir: Path, user_dir: Path | None = None) -> Catalog:
        """The catalog of `data_dir`, plus the GPUs and models a user added under `user_dir`
        (`gpu-advisor gpus add`, `models add`): the same checks, and never a built-in id."""
        gpus = _load_entries(data_dir, "gpus", GPU, "GPU")
        models = _load_entries(data_dir, "models", Model, "model")
        if user_dir is not None and user_dir.is_dir():
            gpus += _load_entries(user_dir, "gpus", GPU, "GPU", required=False)
            models += _load_entries(user_dir, "models", Model, "model", required=False)
        for gpu in gpus:
            _validate_gpu(gpu, f"gpus: GPU '{gpu.id}'")
        for model in models:
            _validate_model(model, f"models: model '{model.id}'")
        for kind, items in (("GPU", gpus), ("model", models)):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise CatalogError(f"Duplicate {kind} id '{item.id}'.")
                seen.add(item.id)
        return cls(
            data_dir=data_dir,
            gpus={g.id: g for g in gpus},
            models={m.id: m for m in models},
            _gpu_index=_index(gpus, gpu_key),
            _model_index=_index(models, model_key),
        )

    # -- GPUs

    def find_gpus(self, name: str) -> list[GPU]:
        """Every GPU the name fits: one, several (ambiguous), or none."""
        if name in self.gpus:
            return [self.gpus[name]]
        return [self.gpus[i] for i in self._gpu_index.get(gpu_key(name), [])]

    def get_gpu(self, name: str) -> GPU:
        """The GPU `name` denotes; raises AmbiguousGPU or UnknownGPU (with suggestions)."""
        _check_name(name, "GPU")
        found = self.find_gpus(name)
        if len(found) == 1:
            return found[0]
        if found:
            raise AmbiguousGPU(name, [(g.id, g.name) for g in found])
        memory = parse_memory_gb(name.removeprefix("generic-"))  # a generic GPU's own id too
        if memory is not None:
            return self.generic_gpu(memory)
        ids = suggest(gpu_key(name), self._gpu_index)
        raise UnknownGPU(name, [self.gpus[i].name for i in ids])

    def generic_gpu(self, memory_gb: float) -> GPU:
        """A GPU known only by its memory ("a 24 GB card"): fit can be answered, speed not."""
        if not 1 <= memory_gb <= 4096:
            raise InvalidInput(f"A {memory_gb:g} GB GPU is outside the sizes the advisor handles.")
        template = next(iter(self.gpus.values()))
        hints = typing.get_type_hints(GPU)
        nulls = {n: None for n, hint in hints.items() if type(None) in typing.get_args(hint)}
        return replace(
            template, **nulls, id=f"generic-{memory_gb:g}gb", name=f"a {memory_gb:g} GB GPU",
            aliases=(), segment="consumer", vendor="unknown", architecture="unknown",
            memory_gb=memory_gb, bandwidth_gbs=1.0, confidence="assumed",
            source="generic: only the memory is known, from the question", unified_memory=False,
            generic=True,
        )  # fmt: skip

    def list_gpus(
        self,
        *,
        vendor: str | None = None,
        segment: str | None = None,
        min_memory_gb: float | None = None,
        max_memory_gb: float | None = None,
        architecture: str | None = None,
    ) -> list[GPU]:
        """GPUs matching every filter given, in catalog order."""
        if segment is not None and segment.lower() not in SEGMENTS:
            raise InvalidInput(f"Unknown segment {segment!r}; use one of {', '.join(SEGMENTS)}.")
        result = []
        for gpu in self.gpus.values():
            if vendor and gpu.vendor.lower() != vendor.lower():
                continue
            if segment and gpu.segment != segment.lower():
                continue
            if architecture and architecture.lower() not in gpu.architecture.lower():
                continue
            if min_memory_gb is not None and gpu.memory_gb < min_memory_gb:
                continue
            if max_memory_gb is not None and gpu.memory_gb > max_memory_gb:
                continue
            result.append(gpu)
        return result

    # -- models

    def find_models(self, name: str) -> list[Model]:
        if name in self.models:
            return [self.models[name]]
        return [self.models[i] for i in self._model_index.get(model_key(name), [])]

    def get_model(self, name: str) -> Model:
        """The model `name` denotes, or a generic dense model for a size ("13b", "a 13B model")."""
        _check_name(name, "model")
        found = self.find_models(name)
        if len(found) == 1:
            return found[0]
        if found:
            raise AmbiguousModel(name, [(m.id, m.name) for m in found])
        size_b = parse_size_b(name)
        if size_b is not None:
            return self.generic_model(size_b)
        ids = suggest(model_key(name), self._model_index)
        raise UnknownModel(name, [self.models[i].name for i in ids])

    def generic_model(self, size_b: float) -> Model:
        """A dense model of `size_b` billion parameters, shaped like the nearest-size template."""
        low, high = GENERIC_SIZE_RANGE_B
        if not low <= size_b <= high:
            raise InvalidInput(
                f"A {size_b:g}B model is outside the sizes the advisor handles "
                f"({low:g}B to {high:g}B)."
            )
        templates = [self.models[i] for i in GENERIC_TEMPLATES if i in self.models]
        if not templates:
            raise CatalogError("models.yaml holds none of the generic model templates.")
        template = min(templates, key=lambda m: abs(math.log(m.total_params / (size_b * 1e9))))
        label = f"{size_b:g}B"
        return replace(
            template,
            id=f"generic-{label.lower()}",
            name=f"Generic {label} dense model",
            aliases=(),
            hf_repo=None,
            family="generic",
            total_params=round(size_b * 1e9),
            active_params=None,
            checkpoint_params=None,
            text_decoder_params=None,
            license=None,
            release_year=None,
            confidence="assumed",
            notes=f"Parameter count from the question; layer shape (for the KV cache) assumed "
            f"to be that of {template.name}.",
            source=f"generic: {label} from the question; shape of {template.name} "
            f"({template.source.split(' ; ')[0]})",
            generic=True,
        )

    def list_models(
        self,
        *,
        family: str | None = None,
        min_params_b: float | None = None,
        max_params_b: float | None = None,
        moe: bool | None = None,
    ) -> list[Model]:
        """Models matching every filter given, in catalog order."""
        result = []
        for model in self.models.values():
            size_b = model.total_params / 1e9
            if family and family.lower() not in model.family.lower():
                continue
            if min_params_b is not None and size_b < min_params_b:
                continue
            if max_params_b is not None and size_b > max_params_b:
                continue
            if moe is not None and model.is_moe != moe:
                continue
            result.append(model)
        return result

    # -- prices

    @property
    def prices(self) -> list[Price]:
        if self._prices is None:
            prices = _load_entries(self.data_dir, "prices", Price, "price")
            for price in prices:
                if price.gpu not in self.gpus:
                    raise CatalogError(
                        f"prices.yaml: price '{price.ref}' names unknown GPU '{price.gpu}'."
                    )
                if price.usd_per_gpu_hour <= 0:
                    raise CatalogError(f"prices.yaml: price '{price.ref}' must be positive.")
            self._prices = prices
        return self._prices

    def _prices_by_gpu(self) -> dict[str, list[Price]]:
        # estimate() looks prices up on every call (solvers call it dozens of times)
        if self._price_index is None:
            index: dict[str, list[Price]] = {}
            for price in self.prices:
                index.setdefault(price.gpu, []).append(price)
            self._price_index = index
        return self._price_index

    def prices_for(
        self,
        gpu_id: str,
        *,
        estimates_only: bool = True,
        latest_only: bool = True,
        provider: str | None = None,
    ) -> list[Price]:
        """Prices for one GPU, newest first.

        `latest_only` keeps the newest row per provider offering; `estimates_only` drops rows
        their source marks as unreliable or not comparable (the articles' illustrative ranges);
        `provider` keeps one cloud's rows ("AWS", "RunPod", as the rows name it, any case).
        """
        rows = [p for p in self._prices_by_gpu().get(gpu_id, []) if p.latest or not latest_only]
        if estimates_only:
            rows = [p for p in rows if p.use_for_estimates]
        if provider:
            rows = [p for p in rows if p.provider.lower() == provider.lower()]
        return sorted(rows, key=lambda p: p.date if p.date[:1].isdigit() else "", reverse=True)

    # -- other tables (the models of non-LLM workload families)

    def table(self, name: str, cls: type[T]) -> dict[str, T]:
        """The entries of `name`.yaml or the folder `name`/ as `cls`, by id, loaded once
        ("models" is the LLM table the catalog loads itself)."""
        if name == "models":
            return self.models  # type: ignore[return-value]
        if name not in self._tables:
            rows = _load_entries(self.data_dir, name, cls, name.rsplit("/", 1)[-1])
            by_id: dict[str, Any] = {}
            for row in rows:
                key = getattr(row, "id")  # noqa: B009 - every table's entries have an id
                if key in by_id:
                    raise CatalogError(f"Duplicate id '{key}' in {name}.")
                by_id[key] = row
            self._tables[name] = by_id
        return self._tables[name]

    def name_index(self, name: str, cls: type[Any]) -> dict[str, list[str]]:
        """Lookup key (names.model_key) -> ids of a table, for every id, name and alias."""
        if name == "models":
            return self._model_index
        key = f"{name}#index"
        if key not in self._tables:
            self._tables[key] = _index(self.table(name, cls).values(), model_key)
        return self._tables[key]

    # -- purchase prices

    def _purchase_index(self) -> dict[str, list[PurchasePrice]]:
        if self._purchases is None:
            index: dict[str, list[PurchasePrice]] = {}
            for row in _load_entries(
                self.data_dir, "purchases", PurchasePrice, "purchase price", required=False
            ):
                where = f"purchases: price '{row.ref}'"
                if row.gpu not in self.gpus:
                    raise CatalogError(f"{where} names unknown GPU '{row.gpu}'.")
                if row.kind not in PURCHASE_KINDS:
                    raise CatalogError(f"{where}: kind must be one of {', '.join(PURCHASE_KINDS)}.")
                if not row.usd > 0 or (row.usd_max is not None and row.usd_max < row.usd):
                    raise CatalogError(f"{where}: usd must be positive (and usd_max >= usd).")
                if not _DATE.fullmatch(row.date) or not row.source.strip():
                    raise CatalogError(f"{where}: needs a YYYY-MM[-DD] date and a source.")
                index.setdefault(row.gpu, []).append(row)
            for rows in index.values():
                rows.sort(key=lambda p: p.date, reverse=True)
            self._purchases = index
        return self._purchases

    # -- cloud instance types

    @property
    def instances(self) -> dict[str, Instance]:
        """Cloud instance types by lower-case name ("p4d.24xlarge", "nd96asr_v4"), checked."""
        if self._instances is None:
            index: dict[str, Instance] = {}
            rows = _load_entries(self.data_dir, "instances", Instance, "instance", required=False)
            for row in rows:
                where = f"instances.yaml: instance '{row.name}'"
                if row.gpu not in self.gpus:
                    raise CatalogError(f"{where} names unknown GPU '{row.gpu}'.")
                if not isinstance(row.count, int) or not 0 < row.count <= 64:
                    raise CatalogError(f"{where}: count must be a whole number of GPUs, 1-64.")
                if not row.source.strip():
                    raise CatalogError(f"{where} needs a source.")
                key = instance_key(row.name)
                if key in index:
                    raise CatalogError(f"{where} is listed twice.")
                index[key] = row
            self._instances = index
        return self._instances

    def purchases_for(self, gpu_id: str, kind: str | None = None) -> list[PurchasePrice]:
        """Prices to buy one GPU, newest first: the launch MSRP and street prices new and used."""
        rows = self._purchase_index().get(gpu_id, [])
        return [p for p in rows if kind is None or p.kind == kind]


def instance_key(name: str) -> str:
    """How instance names are compared: lower case, without Azure's "Standard_" prefix."""
    return re.sub(r"^standard_", "", name.strip().lower())


def _check_name(name: object, kind: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(f"Give a {kind} name (got {name!r}).")
    if len(name) > 200:
        raise InvalidInput(f"That {kind} name is {len(name)} characters long; names are short.")


# ---------------------------------------------------------------- module-level shortcuts


def user_catalog_dir() -> Path:
    """Where `gpus add` and `models add` keep what a user adds: <advisor home>/catalog."""
    return data_home() / "catalog"


@lru_cache(maxsize=4)
def _load_cached(data_dir: Path, user_dir: Path | None, stamp: tuple[float, ...]) -> Catalog:
    return Catalog.load(data_dir, user_dir)


def _user_stamp(user_dir: Path) -> tuple[float, ...]:
    """When the user's additions last changed: an addition reloads the catalog."""
    return tuple(p.stat().st_mtime for p in sorted(user_dir.glob("*/*.yaml")))


def load_catalog(data_dir: Path | None = None) -> Catalog:
    """The catalog for `data_dir` (default: settings) with the user's additions when it is the
    packaged catalog, loaded once per process (again after an addition)."""
    from advisor.config import PACKAGE_DATA_DIR

    directory = data_dir or Settings.from_env().data_dir
    user = user_catalog_dir() if directory == PACKAGE_DATA_DIR else None
    stamp = _user_stamp(user) if user is not None and user.is_dir() else ()
    if not stamp:  # nothing added: the packaged catalog alone, whoever's home this is
        user = None
    return _load_cached(directory, user, stamp)


def get_gpu(name: str) -> GPU:
    return load_catalog().get_gpu(name)


def get_model(name: str) -> Model:
    return load_catalog().get_model(name)


def list_gpus(**filters: Any) -> list[GPU]:
    return load_catalog().list_gpus(**filters)


def list_models(**filters: Any) -> list[Model]:
    return load_catalog().list_models(**filters)
