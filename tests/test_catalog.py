"""Lookups, ambiguity, unknown names, generic models, filters, prices and data validation."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor import (
    AdvisorError,
    AmbiguousGPU,
    AmbiguousModel,
    CatalogError,
    InvalidInput,
    UnknownGPU,
    UnknownModel,
    get_gpu,
    get_model,
    list_gpus,
    list_models,
)
from advisor.catalog import Catalog, load_catalog
from advisor.config import PACKAGE_DATA_DIR

GPU_ALIASES = [
    ("a100-sxm4-80gb", "a100-sxm4-80gb"),
    ("NVIDIA A100-SXM4-80GB", "a100-sxm4-80gb"),
    ("nvidia a100 sxm4 80gb", "a100-sxm4-80gb"),
    ("A100_SXM4_80GB", "a100-sxm4-80gb"),
    ("NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"),
    ("NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"),
    ("NVIDIA A100 80GB PCIe", "a100-pcie-80gb"),
    ("A100 SXM 80G", "a100-sxm4-80gb"),
    ("NVIDIA H100 80GB HBM3", "h100-sxm5-80gb"),
    ("NVIDIA H100 PCIe", "h100-pcie-80gb"),
    ("H100 NVL", "h100-nvl-94gb"),
    ("h200 sxm", "h200-sxm-141gb"),
    ("Tesla T4", "t4"),
    ("t4", "t4"),
    ("Tesla V100-SXM2-32GB", "v100-sxm2-32gb"),
    ("L40S", "l40s"),
    ("l40-s", "l40s"),
    ("L40", "l40"),
    ("L4", "l4"),
    ("A10G", "a10g"),
    ("A10", "a10"),
    ("RTX 4090", "rtx-4090"),
    ("rtx4090", "rtx-4090"),
    ("4090", "rtx-4090"),
    ("NVIDIA GeForce RTX 4090", "rtx-4090"),
    ("RTX 4090 laptop", "rtx-4090-laptop"),
    ("NVIDIA GeForce RTX 4090 Laptop GPU", "rtx-4090-laptop"),
    ("RTX 4090 Mobile", "rtx-4090-laptop"),
    ("an RTX A4000", "rtx-a4000"),
    ("A6000", "rtx-a6000"),
    ("RTX 6000 Ada", "rtx-6000-ada"),
    ("NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada"),
    ("MI300X", "mi300x"),
    ("AMD Instinct MI300X", "mi300x"),
    ("B200", "b200"),
    ("Gaudi 3", "gaudi3"),
    ("gaudi2", "gaudi2"),
    ("H20", "h20"),
    ("L20", "l20"),
    ("MI250X", "mi250x"),
    ("RTX 3060", "rtx-3060"),
    ("RTX 5080", "rtx-5080"),
    ("RTX 4000 Ada", "rtx-4000-ada"),
    ("RTX 4060 Ti 16GB", "rtx-4060-ti-16gb"),
    ("A2", "a2"),
]


@pytest.mark.parametrize(("name", "gpu_id"), GPU_ALIASES)
def test_gpu_aliases_resolve(name: str, gpu_id: str) -> None:
    assert get_gpu(name).id == gpu_id


AMBIGUOUS_GPUS = [
    ("A100", {"a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb", "a100-pcie-80gb"}),
    ("a100", {"a100-sxm4-40gb", "a100-sxm4-80gb", "a100-pcie-40gb", "a100-pcie-80gb"}),
    ("A100 80GB", {"a100-sxm4-80gb", "a100-pcie-80gb"}),
    ("a100-sxm", {"a100-sxm4-40gb", "a100-sxm4-80gb"}),
    ("H100", {"h100-sxm5-80gb", "h100-pcie-80gb", "h100-nvl-94gb"}),
    ("H200", {"h200-sxm-141gb", "h200-nvl-141gb"}),
    ("V100", {"v100-sxm2-16gb", "v100-sxm2-32gb", "v100-pcie-16gb", "v100-pcie-32gb"}),
    ("V100 32GB", {"v100-sxm2-32gb", "v100-pcie-32gb"}),
    ("A800", {"a800-sxm4-80gb", "a800-pcie-80gb"}),
    ("RTX 4060 Ti", {"rtx-4060-ti-16gb", "rtx-4060-ti-8gb"}),
    ("RTX A2000", {"rtx-a2000-12gb", "rtx-a2000-6gb"}),
]


@pytest.mark.parametrize(("name", "ids"), AMBIGUOUS_GPUS)
def test_ambiguous_gpu_names_return_the_variants(name: str, ids: set[str]) -> None:
    with pytest.raises(AmbiguousGPU) as info:
        get_gpu(name)
    assert set(info.value.candidate_ids) == ids
    assert name in str(info.value)
    assert {g.id for g in load_catalog().find_gpus(name)} == ids


UNKNOWN_GPUS = [
    ("RTX 9999", "NVIDIA GeForce RTX 4090"),
    ("A1000", "NVIDIA A100 SXM4 80GB"),
    ("rtx 6000", "NVIDIA RTX 6000 Ada Generation"),
    ("H10", "NVIDIA H100 SXM5 80GB"),
    ("L40X", "NVIDIA L40"),
    ("MI300Y", "AMD Instinct MI300X"),
]


@pytest.mark.parametrize(("name", "suggestion"), UNKNOWN_GPUS)
def test_unknown_gpu_suggests_near_names(name: str, suggestion: str) -> None:
    with pytest.raises(UnknownGPU) as info:
        get_gpu(name)
    assert suggestion in info.value.suggestions
    assert str(info.value).startswith(f"Unknown GPU {name!r}. Did you mean: ")
    assert isinstance(info.value, KeyError)


@pytest.mark.parametrize("name", ["", "   ", "x" * 500])
def test_blank_or_absurd_gpu_names_are_invalid_input(name: str) -> None:
    with pytest.raises(InvalidInput):
        get_gpu(name)


def test_every_alias_finds_its_own_gpu(catalog: Catalog) -> None:
    for gpu in catalog.gpus.values():
        for alias in (gpu.id, gpu.name, *gpu.aliases):
            assert gpu in catalog.find_gpus(alias), (gpu.id, alias)


def test_ids_and_full_names_are_never_ambiguous(catalog: Catalog) -> None:
    for gpu in catalog.gpus.values():
        assert catalog.get_gpu(gpu.id) is gpu
        assert catalog.get_gpu(gpu.name) is gpu
    for model in catalog.models.values():
        assert catalog.get_model(model.id) is model
        assert catalog.get_model(model.name) is model


def test_catalog_has_extra_gpus_people_ask_about(catalog: Catalog) -> None:
    extra = {
        "rtx-3060", "rtx-3080", "rtx-4060-ti-16gb", "rtx-4070-ti", "rtx-5080", "rtx-4000-ada",
        "rtx-5000-ada", "rtx-a4500", "rtx-a5500", "rtx-a2000-12gb", "a2", "l20", "h20", "mi250x",
        "mi325x", "gaudi2", "gaudi3",
    }  # fmt: skip
    assert extra <= set(catalog.gpus)
    for gpu_id in extra:
        gpu = catalog.gpus[gpu_id]
        assert gpu.source and gpu.memory_gb > 0 and gpu.bandwidth_gbs > 0
        assert gpu.fp16_bf16_dense_tflops, gpu_id


MODEL_NAMES = [
    ("llama-3-8b", "llama-3-8b"),
    ("Llama 3 8B", "llama-3-8b"),
    ("meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b"),
    ("Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b"),
    ("llama3.1:8b", "llama-3.1-8b"),
    ("LLAMA-3.1-70B", "llama-3.1-70b"),
    ("llama2:13b", "llama-2-13b"),
    ("Llama-2-7b-chat-hf", "llama-2-7b"),
    ("Mistral-7B-Instruct-v0.3", "mistral-7b-v0.3"),
    ("mixtral:8x7b", "mixtral-8x7b"),
    ("Mixtral 8x22B", "mixtral-8x22b"),
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"),
    ("qwen2.5:72b", "qwen2.5-72b"),
    ("Qwen3-30B-A3B", "qwen3-30b-a3b"),
    ("Qwen3 235B", "qwen3-235b-a22b"),
    ("gemma-2-9b-it", "gemma-2-9b"),
    ("gemma3:27b", "gemma-3-27b"),
    ("phi-3-mini", "phi-3-mini-4k"),
    ("Phi-4", "phi-4"),
    ("DeepSeek-R1", "deepseek-r1"),
    ("deepseek-ai/DeepSeek-V3", "deepseek-v3"),
    ("deepseek-r1:8b", "deepseek-r1-distill-llama-8b"),
    ("DeepSeek-R1-Distill-Qwen-32B", "deepseek-r1-distill-qwen-32b"),
    ("Falcon-40B", "falcon-40b"),
    ("Yi-34B", "yi-34b"),
    ("CodeLlama-34B", "codellama-34b"),
    ("GPT-J-6B", "gpt-j-6b"),
]


@pytest.mark.parametrize(("name", "model_id"), MODEL_NAMES)
def test_model_names_resolve(name: str, model_id: str) -> None:
    assert get_model(name).id == model_id


def test_ambiguous_model_returns_variants() -> None:
    with pytest.raises(AmbiguousModel) as info:
        get_model("Mistral 7B")
    assert set(info.value.candidate_ids) == {"mistral-7b-v0.1", "mistral-7b-v0.3"}


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [("llama 8b", "Llama-3-8B"), ("qwen 2.5 7", "Qwen2.5-7B"), ("mixtral 8x8b", "Mixtral-8x7B")],
)
def test_unknown_model_suggests(name: str, suggestion: str) -> None:
    with pytest.raises(UnknownModel) as info:
        get_model(name)
    assert suggestion in info.value.suggestions


@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("13b", 13e9),
        ("13B", 13e9),
        ("a 13B model", 13e9),
        ("13 billion parameter model", 13e9),
        ("7b dense", 7e9),
        ("1.5B", 1.5e9),
        ("500M", 0.5e9),
        ("an 70B LLM", 70e9),
    ],
)
def test_generic_sizes_give_a_dense_model(text: str, params: float) -> None:
    model = get_model(text)
    assert model.generic and not model.is_moe
    assert model.total_params == round(params)
    assert model.family == "generic"
    assert "assumed" in (model.notes or "")


def test_generic_model_borrows_the_nearest_template_shape() -> None:
    assert "Llama-3.1-70B" in (get_model("70b").notes or "")
    assert get_model("70b").num_layers == get_model("llama-3.1-70b").num_layers
    assert "Llama-3.2-1B" in (get_model("1b").notes or "")


@pytest.mark.parametrize("text", ["0b", "0.001b", "9000b", "100000 billion"])
def test_generic_sizes_out_of_range_are_invalid(text: str) -> None:
    with pytest.raises(InvalidInput):
        get_model(text)


def test_list_gpus_filters() -> None:
    big = list_gpus(min_memory_gb=100)
    assert big and all(g.memory_gb >= 100 for g in big)
    amd = list_gpus(vendor="amd")
    assert {g.id for g in amd} >= {"mi300x", "mi250x", "mi325x", "rx-7900-xtx"}
    assert all(g.vendor == "AMD" for g in amd)
    consumer = list_gpus(segment="consumer", max_memory_gb=16)
    assert consumer and all(g.segment == "consumer" and g.memory_gb <= 16 for g in consumer)
    hopper = list_gpus(architecture="hopper")
    assert "h100-sxm5-80gb" in {g.id for g in hopper}
    with pytest.raises(InvalidInput):
        list_gpus(segment="mainframe")


def test_list_models_filters() -> None:
    moe = list_models(moe=True)
    assert {m.id for m in moe} >= {"mixtral-8x7b", "deepseek-v3", "qwen3-30b-a3b"}
    assert all(m.active_params and m.active_params < m.total_params for m in moe)
    small = list_models(max_params_b=2)
    assert small and all(m.total_params <= 2e9 for m in small)
    assert {m.family for m in list_models(family="qwen3")} == {"Qwen3", "Qwen3-MoE"}


def test_moe_uses_active_params_per_token() -> None:
    mixtral = get_model("mixtral-8x7b")
    assert mixtral.params_per_token == mixtral.active_params
    assert get_model("llama-3-8b").params_per_token == 8_030_261_248


def test_prices_are_sourced_dated_and_sorted_newest_first(catalog: Catalog) -> None:
    assert len(catalog.prices) >= 500
    for price in catalog.prices:
        assert price.source and price.date and price.usd_per_gpu_hour > 0
        assert price.gpu in catalog.gpus
    h100 = catalog.prices_for("h100-sxm5-80gb")
    assert h100 and all(p.use_for_estimates and p.latest for p in h100)
    dated = [p.date for p in h100 if p.date[:1].isdigit()]
    assert dated == sorted(dated, reverse=True)
    assert any(p.provider_class == "article" for p in catalog.prices)


def test_article_prices_are_kept_but_marked(catalog: Catalog) -> None:
    article = [p for p in catalog.prices if p.provider_class == "article"]
    assert article and all(p.date.startswith("undated") for p in article)


# ---------------------------------------------------------------- validation of the data files


def _data_dir(tmp_path: Path, gpus: str | None = None, models: str | None = None) -> Path:
    """The package's data, with one kind replaced by the text of a single file."""
    for name, text in (("gpus", gpus), ("models", models)):
        if text is None:
            shutil.copytree(PACKAGE_DATA_DIR / name, tmp_path / name)
        else:
            (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    shutil.copy(PACKAGE_DATA_DIR / "prices.yaml", tmp_path / "prices.yaml")
    return tmp_path


def _one_gpu(**changes: object) -> str:
    gpu = load_catalog().gpus["l4"].to_dict()
    del gpu["gpu_id"], gpu["gpu_name"]
    gpu.update(changes)
    import yaml

    return yaml.safe_dump([gpu])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not: [valid", "not valid YAML"),
        ("a: 1", "must be a list"),
        (_one_gpu(memory_gb="lots"), "field 'memory_gb' must be float"),
        (_one_gpu(memory_gb=-1), "memory_gb must be positive"),
        (_one_gpu(tdp_w=-5), "tdp_w must not be negative"),
        (_one_gpu(segment="mainframe"), "segment must be one of"),
        (_one_gpu(id="Bad Id"), "id must be lowercase"),
        (_one_gpu(colour="green"), "unknown field(s) colour"),
        (_one_gpu(source=""), "needs a source"),
        (_one_gpu(bandwidth_gbs=None), "field 'bandwidth_gbs' is required"),
    ],
)
def test_invalid_gpu_data_is_explained(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CatalogError) as info:
        Catalog.load(_data_dir(tmp_path, gpus=text))
    assert message in str(info.value)


def test_duplicate_ids_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="Duplicate GPU id 'l4'"):
        Catalog.load(_data_dir(tmp_path, gpus=_one_gpu() + _one_gpu()))


def test_missing_data_file_is_explained(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="missing"):
        Catalog.load(tmp_path)


def test_model_validation(tmp_path: Path) -> None:
    import yaml

    model = load_catalog().models["llama-3-8b"].to_dict()
    del model["is_moe"]
    model.update(num_kv_heads=5)
    with pytest.raises(CatalogError, match="multiple of num_kv_heads"):
        Catalog.load(_data_dir(tmp_path, models=yaml.safe_dump([model])))


def test_data_dir_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_DATA_DIR", str(_data_dir(tmp_path, gpus=_one_gpu())))
    assert list(load_catalog().gpus) == ["l4"]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_lookups_never_fail_with_anything_but_advisor_errors(text: str) -> None:
    catalog = load_catalog()
    for lookup in (catalog.get_gpu, catalog.get_model):
        with contextlib.suppress(AdvisorError):
            lookup(text)


# ---------------------------------------------------------------- cloud instance types


def test_every_instance_names_a_catalog_gpu_with_a_source(catalog: Catalog) -> None:
    rows = catalog.instances
    assert len(rows) >= 60
    assert rows["p4d.24xlarge"].gpu == "a100-sxm4-40gb" and rows["p4d.24xlarge"].count == 8
    assert rows["g5.12xlarge"].count == 4 and rows["g5.12xlarge"].gpu == "a10g"
    assert {r.provider for r in rows.values()} >= {"AWS", "GCP", "Azure"}
    assert all(r.gpu in catalog.gpus and r.source.startswith("http") for r in rows.values())


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("{name: x1, provider: AWS, gpu: nope, count: 1, source: s}", "unknown GPU 'nope'"),
        ("{name: x1, provider: AWS, gpu: l4, count: 0, source: s}", "count must be"),
        ("{name: x1, provider: AWS, gpu: l4, count: 1, source: ''}", "needs a source"),
    ],
)
def test_invalid_instances_are_explained(tmp_path: Path, row: str, message: str) -> None:
    (tmp_path / "instances.yaml").write_text(f"- {row}\n", encoding="utf-8")
    catalog = Catalog.load(_data_dir(tmp_path))
    with pytest.raises(CatalogError, match=message):
        _ = catalog.instances


def test_no_gpu_alias_starts_with_an_everyday_word() -> None:
    # "ON 8GB" once made "on an 8gb 3070" a Jetson: an alias is read wherever its words appear
    everyday = {"on", "in", "at", "for", "with", "my", "the", "a", "an", "to", "of", "and"}
    everyday |= {"or", "is", "it", "as", "by", "new", "used", "all", "one", "two", "card", "gpu"}
    catalog = load_catalog()
    bad = [(g.id, a) for g in catalog.gpus.values() for a in g.aliases
           if a.lower().split()[0] in everyday]  # fmt: skip
    assert bad == []
