"""llama.cpp's backends (advisor/calculator/backends.py): the vendor's own by default, named in
the estimate; Vulkan and IPEX-LLM faster by their fitted factors; a backend only where it runs."""

from __future__ import annotations

import json
import re

import pytest

from advisor.calculator import Request, estimate
from advisor.calculator.backends import BACKENDS, default_backend, get_backend
from advisor.calculator.precision import get_precision
from advisor.catalog import load_catalog
from advisor.cli import main
from advisor.errors import InvalidInput

CATALOG = load_catalog()


def _decode(gpu: str, backend: str | None = None, model: str = "llama-2-7b", **kw: object) -> float:
    e = estimate(Request(model, gpu, precision="q4_0", context=64, backend=backend, **kw))  # type: ignore[arg-type]
    assert e.decode_tokens_per_s is not None
    return e.decode_tokens_per_s["typical"]


@pytest.mark.parametrize(
    ("gpu", "name", "label", "vendor"),
    [("rtx-4090", "cuda", "CUDA", "NVIDIA cards"), ("rx-7900-xtx", "rocm", "ROCm/HIP", "AMD cards"),
     ("arc-a770-16gb", "sycl", "SYCL (oneAPI)", "Intel cards"),
     ("m2-ultra-192gb", "metal", "Metal", "Apple GPUs")],
)  # fmt: skip
def test_the_default_backend_is_the_vendors_own_and_the_estimate_names_it(
    gpu: str, name: str, label: str, vendor: str
) -> None:
    e = estimate(Request("llama-2-7b", gpu, precision="q4_0", engine="llama.cpp"))
    said = f"llama.cpp backend: {label} (not given: the default on {vendor})"
    assert [a for a in e.assumptions if a.startswith("llama.cpp backend:")] == [said]
    assert e.backend == name


def test_vulkan_on_a_7900_xtx_decodes_faster_than_rocm_by_its_fitted_factor() -> None:
    rocm, vulkan = _decode("rx-7900-xtx"), _decode("rx-7900-xtx", "vulkan")
    assert vulkan == pytest.approx(rocm * 1.43, rel=1e-9)
    assert _decode("rx-7900-xtx", "rocm") == rocm  # the default, said or not
    e = estimate(Request("llama-2-7b", "rx-7900-xtx", precision="q4_0", backend="vulkan"))
    assert e.engine == "llama.cpp" and e.backend == "vulkan"  # a backend implies llama.cpp
    assert any("Vulkan; decode 1.43x ROCm/HIP's" in a for a in e.assumptions)


def test_ipex_llm_on_an_arc_a770_decodes_faster_than_upstream_sycl() -> None:
    sycl = _decode("arc-a770-16gb")
    assert _decode("arc-a770-16gb", "ipex") == pytest.approx(sycl * 1.72, rel=1e-9)
    assert _decode("arc-a770-16gb", "vulkan") == pytest.approx(sycl * 1.07, rel=1e-9)


def test_a_backend_without_rows_on_a_vendor_keeps_the_defaults_speed_and_says_so() -> None:
    assert _decode("rtx-4090", "vulkan") == _decode("rtx-4090")
    e = estimate(Request("llama-2-7b", "rtx-4090", precision="q4_0", backend="vulkan"))
    assert any("not fitted on these cards: CUDA's speed assumed" in a for a in e.assumptions)


def test_a_faster_backend_never_reads_faster_than_the_datasheet_bandwidth() -> None:
    # a 70B split over two 7900 XTXs is bound by the weights: 1.43x would pass the bandwidth
    e = estimate(Request("llama-2-70b", "rx-7900-xtx", num_gpus=2, precision="q4_k_m",
                         context=64, backend="vulkan"))  # fmt: skip
    gpu = CATALOG.get_gpu("rx-7900-xtx")
    model = CATALOG.get_model("llama-2-70b")
    # a step reads every weight but the untied input embedding, of which it reads one row
    table_gb = model.vocab_size * model.hidden_size * get_precision("q4_k_m").bytes_embedding / 1e9
    weights_gb = e.breakdown_gb["weights"] * e.num_gpus - table_gb
    assert e.decode_tokens_per_s is not None
    assert e.decode_tokens_per_s["typical"] <= gpu.bandwidth_gbs / weights_gb * 1.0001


@pytest.mark.parametrize(
    ("gpu", "backend", "says"),
    [("rtx-4090", "rocm", "does not run on the NVIDIA GeForce RTX 4090; there llama.cpp runs "
      "cuda, vulkan"),
     ("rx-7900-xtx", "metal", "Metal backend does not run"),
     ("m2-ultra-192gb", "vulkan", "there llama.cpp runs metal"),
     ("cpu", "cuda", "does not run on a CPU alone"),
     ("rtx-4090", "opencl", "Unknown llama.cpp backend 'opencl'")],
)  # fmt: skip
def test_a_backend_is_refused_where_it_does_not_run(gpu: str, backend: str, says: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(says)):
        estimate(Request("llama-2-7b", gpu, backend=backend))


def test_a_backend_is_llama_cpps_alone() -> None:
    with pytest.raises(InvalidInput, match=r"is llama\.cpp's; vLLM has none"):
        estimate(Request("llama-2-7b", "rtx-4090", engine="vllm", backend="cuda"))
    assert estimate(Request("llama-2-7b", "cpu", backend="cpu")).backend == "cpu"
    assert estimate(Request("llama-2-7b", "rtx-4090", engine="vllm")).backend is None


def test_aliases_and_one_default_per_vendor() -> None:
    assert get_backend("HIP").name == "rocm" and get_backend("ipex").name == "ipex-llm"
    stacks = [s for b in BACKENDS.values() for s in b.default_on]
    assert len(stacks) == len(set(stacks))  # one default per compute stack
    assert default_backend(None) is BACKENDS["cuda"] and default_backend("synapseai") is None
    for backend in BACKENDS.values():  # a factor only where the backend runs, never the default
        for stack, factor in backend.decode_factor:
            assert stack in backend.stacks and stack not in backend.default_on and factor > 0


# published figures, batch-1 llama-bench tg128 of Llama-2-7B Q4_0 on one RX 7900 XTX, within 15%
@pytest.mark.parametrize(
    ("backend", "measured"),
    [pytest.param("vulkan", 172.0, id="L1998-llama.cpp#20934-vulkan-172"),
     pytest.param("rocm", 136.5, id="L1999-llama.cpp#20934-rocm-136.5")],
)  # fmt: skip
def test_published_7900_xtx_figures_by_backend(backend: str, measured: float) -> None:
    e = estimate(Request("llama-2-7b", "rx-7900-xtx", precision="q4_0", context=64,
                         backend=backend))  # fmt: skip
    assert e.decode_tokens_per_s is not None
    assert e.decode_tokens_per_s["typical"] == pytest.approx(measured, rel=0.15)


def test_the_cli_takes_a_backend(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["estimate", "--model", "llama-2-7b", "--gpu", "RX 7900 XTX", "--precision", "q4_0"]
    assert main([*args, "--backend", "vulkan", "--json"]) == 0
    vulkan = json.loads(capsys.readouterr().out)
    assert main([*args, "--json"]) == 0
    default = json.loads(capsys.readouterr().out)
    assert vulkan["backend"] == "vulkan" and default["backend"] == "rocm"
    assert vulkan["decode_tokens_per_s"]["typical"] > default["decode_tokens_per_s"]["typical"]
