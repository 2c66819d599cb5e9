"""llama.cpp's backends: which one a card runs when none is said, and how each decodes there.

llama.cpp is one engine with several GPU backends (CUDA, ROCm/HIP, Vulkan, SYCL, Metal) and a
CPU one, and Intel's IPEX-LLM ships its own SYCL build of it. On the same card and build they
decode at different speeds: Vulkan 15-35% faster than HIP on a Radeon RX 7900 XTX or RX 9070 XT,
IPEX-LLM 1.7x upstream SYCL on an Arc A770 (eval/calibration/llm.csv L1998 vs L1999, L2001 vs
L2002, L2003 vs L2004, L2013 vs L2012). So the backend is an input of a llama.cpp estimate.

Each backend carries a decode speed-up per compute stack: its decode step on a card of that
vendor takes 1/factor of the default backend's (never less than reading the step's bytes at the
datasheet bandwidth), fitted on the calibration rows that name that backend on that vendor's
cards. The default backend's speed is the calculator's own (factor 1): the generation's decode
share (factors.GENERATION_MBU) is fitted on its rows. A pair with no rows of its own keeps the
default's speed, and the estimate says it is not fitted. Why a factor on the step, not on the
bandwidth share: llama.cpp's step has a fixed 2.5 ms (factors.ENGINE_FACTORS, fitted on 2023-24
CUDA builds) beside the weights' read, and the Vulkan rows on Radeon decode a 4-8B model in
5.7-9.6 ms, so a share factor fitted on them is 1.67, a share of 1.24 of the RX 9070 XT's
datasheet bandwidth: more than the card has. The step factor is what the rows measure (on the
same card and build, Vulkan's rate over HIP's: 1.14-1.35). Only decode changes: prompt
processing is compute-bound and its fits (factors.ENGINE_FACTORS llama.cpp prefill_fitted) are
CUDA's.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.errors import InvalidInput

# llama.cpp's compute stack on the CPU alone (a GPU's is the catalog's GPU.compute_stack)
CPU_STACK = "cpu"
# whose cards each compute stack is, as an estimate's notes say it
VENDORS = {"cuda": "NVIDIA cards", "rocm": "AMD cards", "oneapi": "Intel cards",
           "metal": "Apple GPUs", "synapseai": "Gaudi", CPU_STACK: "a CPU alone"}  # fmt: skip


@dataclass(frozen=True)
class Backend:
    """One llama.cpp backend: where it runs and how its decode compares with the default's."""

    name: str
    label: str
    stacks: tuple[str, ...]  # compute stacks it runs on (the catalog's GPU.compute_stack)
    # stacks whose cards run it when no backend is said
    default_on: tuple[str, ...] = ()
    # stack -> decode speed over the stack's default backend; a stack not listed: 1 (not fitted)
    decode_factor: tuple[tuple[str, float], ...] = ()
    aliases: tuple[str, ...] = ()

    def factor(self, stack: str) -> float | None:
        """The fitted factor on `stack`'s cards, or None where none was fitted."""
        return dict(self.decode_factor).get(stack)


# The default on each vendor is the backend of its own compute stack (the catalog's
# GPU.compute_stack): CUDA on NVIDIA, ROCm/HIP on Radeon (the build Ollama runs on these cards),
# SYCL on Intel ("designed to support Intel GPU firstly": github:ggml-org/llama.cpp
# docs/backend/SYCL.md), Metal on a Mac. Those are also the rows the generation shares were
# fitted on: NVIDIA's on CUDA rows, Apple's on Metal rows, RDNA's on the 7 ROCm/HIP rows
# (L1996-L1997, L1999-L2000, L2002, L2004, L2010), Xe's on the 2 upstream SYCL rows (L2012,
# L2014). The rows cannot say what most people run (on Radeon 8 rows name Vulkan and 7 ROCm),
# but they say which is slower: on Radeon and Arc the stack's own backend decodes slower than
# Vulkan (below), so an estimate that names no backend errs low, not high.
#
# Factors: the value that leaves no median bias (median measured / estimated = 1.00) on the rows
# listed, all batch-1 decode with every layer on the GPU, scored as `python -m
# eval.calibration_classes` scores them (class "llama.cpp decode"; the rows carry backend= in
# their options), the default backend's figure being the calculator's at factor 1.
# Not refit at calc-2026.12.02e, when decode stopped reading the input-embedding table: the rows
# below then measure 0.73-1.03x (Vulkan on Radeon, median 0.96), 0.66-1.18x (Vulkan on Arc,
# median 0.94) and 0.85x and 1.05x (IPEX-LLM, median 0.95) of the estimate; refitting them to
# no median bias (1.37, 1.00, 1.64) moves the class from 6.8% to 7.3% median error, within what
# these 2-8 forum rows from 2-4 sources can resolve.
BACKENDS: dict[str, Backend] = {
    b.name: b
    for b in (
        Backend("cuda", "CUDA", ("cuda",), default_on=("cuda",)),
        Backend("rocm", "ROCm/HIP", ("rocm",), default_on=("rocm",), aliases=("hip",)),
        # rocm: Vulkan on Radeon RDNA 2/3/4, 8 rows from 4 sources: L1998 (RX 7900 XTX, issue
        # #20934), L2001, L2003 (RX 9070 XT, issue #26663), L2005-L2008 (RX 9070 XT, the
        # VulkanForge wiki's llama.cpp column), L2009 (RX 6800 XT, PR #2059, Jan 2024): at ROCm's
        # speed they measure 1.05-1.53x the estimate (median 1.43), at 1.43 0.74-1.07x (median
        # 1.00). The same-build pairs alone give less (L1998/L1999 1.26, L2001/L2002 1.14,
        # L2003/L2004 1.35); the VulkanForge rows, 4 of the 8, run 1.5x. oneapi: Vulkan on an
        # Arc A770, 3 rows from 2 sources: L2011 (b3999, the r/LocalLLaMA table), L2015-L2016
        # (b7189, b7209, issue #17628): at SYCL's speed 0.71-1.35x (median 1.07), at 1.07
        # 0.67-1.26x (median 1.00); the builds disagree more than the backends do. cuda: no rows
        # (CUDA's speed, not fitted)
        Backend("vulkan", "Vulkan", ("cuda", "rocm", "oneapi"),
                decode_factor=(("rocm", 1.43), ("oneapi", 1.07))),
        Backend("sycl", "SYCL (oneAPI)", ("oneapi",), default_on=("oneapi",)),
        # oneapi: Intel's IPEX-LLM build of llama.cpp (its own SYCL kernels; archived by Intel),
        # 2 rows from 2 sources: L2013 (A770, build 1d5f8dd, the r/LocalLLaMA table) and L2017
        # (B580, IPEX-LLM portable, intel/ipex-llm issue #12991): at SYCL's speed 1.49x and 1.94x
        # (median 1.72), at 1.72 0.87x and 1.13x (median 1.00)
        Backend("ipex-llm", "IPEX-LLM (Intel's llama.cpp build)", ("oneapi",),
                decode_factor=(("oneapi", 1.72),), aliases=("ipex",)),
        Backend("metal", "Metal", ("metal",), default_on=("metal",)),
        Backend("cpu", "CPU", (CPU_STACK,), default_on=(CPU_STACK,)),
    )
}  # fmt: skip
BACKEND_NAMES = tuple(BACKENDS)
_ALIASES = {alias: b.name for b in BACKENDS.values() for alias in b.aliases}


def get_backend(name: str) -> Backend:
    """The backend called `name` (or one of its aliases: "hip", "ipex"); InvalidInput if none."""
    key = name.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    if key not in BACKENDS:
        raise InvalidInput(f"Unknown llama.cpp backend {name!r}; use one of "
                           f"{', '.join(BACKEND_NAMES)}.")  # fmt: skip
    return BACKENDS[key]


def default_backend(stack: str | None) -> Backend | None:
    """The backend a card of compute stack `stack` runs when none is said (None: CUDA's), or None
    where llama.cpp has no backend for it (Gaudi's SynapseAI)."""
    stack = stack or "cuda"
    return next((b for b in BACKENDS.values() if stack in b.default_on), None)


def backend_for(name: str | None, stack: str | None, where: str) -> Backend | None:
    """The backend asked (`name`) on a card of compute stack `stack`, checked to run there
    (`where` names the card in the error), or the stack's default when none is asked."""
    stack = stack or "cuda"
    if name is None:
        return default_backend(stack)
    backend = get_backend(name)
    if stack not in backend.stacks:
        runs = [b.name for b in BACKENDS.values() if stack in b.stacks]
        also = f"; there llama.cpp runs {', '.join(runs)}" if runs else ""
        raise InvalidInput(f"llama.cpp's {backend.label} backend does not run on {where}{also}.")
    return backend


def decode_speed_factor(backend: Backend | None, stack: str | None) -> float:
    """How much faster `backend` decodes than the default on a card of `stack` (1 where it is
    the default or was not fitted there)."""
    if backend is None:
        return 1.0
    return backend.factor(stack or "cuda") or 1.0


def backend_note(backend: Backend, stack: str | None, asked: bool) -> str:
    """What an estimate says about the backend it assumes (`asked`: the request named it)."""
    stack = stack or "cuda"
    head = f"llama.cpp backend: {backend.label}"
    if not asked:
        head += f" (not given: the default on {VENDORS.get(stack, stack)})"
    fitted = backend.factor(stack)
    if fitted is not None:
        default = default_backend(stack)
        of = default.label if default else "the default backend"
        return f"{head}; decode {fitted:g}x {of}'s on these cards (fitted, backends.py)"
    if stack in backend.default_on:
        return head
    default = default_backend(stack)
    of = default.label if default else "the default backend"
    return f"{head}; its decode is not fitted on these cards: {of}'s speed assumed"
