"""Refit the calibration constants of the non-LLM families on any subset of the benchmark's rows.

Each family's constants live in its calculator module (nets.py, diffusion.py, speech.py). A fit
patches them in place (`patched()`), runs the module's own pure speed or memory function on every
row, and moves one constant at a time in log space while the log error falls (squared, or for
the classic nets absolute; pattern search: deterministic, no scipy). Leave-one-source-out and
leave-one-GPU-out refit on the rows left and predict the rows held out; a constant that no row
left depends on takes its stated fallback (another constant's fitted value, or the neutral value
of a factor).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, is_dataclass, replace
from types import ModuleType
from typing import Any

from advisor.calculator import Request, diffusion, nets, speech, speech_cpu
from advisor.calculator.host import CPU, host_memory
from advisor.calculator.precision import get_precision
from advisor.catalog import Catalog
from advisor.specs import GPU
from eval.family_rows import VARIANT_SPREAD, Case

Path = tuple[Any, ...]


@dataclass(frozen=True)
class Param:
    """A fitted constant: a module attribute, then dict keys, tuple indexes or dataclass fields."""

    module: ModuleType
    path: Path
    low: float
    high: float
    informs: Callable[[Case], bool]  # the rows whose figure depends on it
    fallback: float | Path  # with no such row: this value, or the fitted value at this path

    @property
    def name(self) -> str:
        return self.module.__name__.rsplit(".", 1)[-1] + "." + ".".join(map(str, self.path))


def read(param: Param) -> float:
    value: Any = getattr(param.module, param.path[0])
    for key in param.path[1:]:
        value = getattr(value, key) if is_dataclass(value) else value[key]
    return float(value)


def write(param: Param, value: float) -> None:
    def put(container: Any, keys: Path) -> Any:
        if not keys:
            return value
        key, rest = keys[0], keys[1:]
        if isinstance(container, dict):  # module dicts are changed in place: others hold them
            container[key] = put(container[key], rest)
            return container
        if isinstance(container, tuple):
            return (*container[:key], put(container[key], rest), *container[key + 1 :])
        return replace(container, **{key: put(getattr(container, key), rest)})

    name = param.path[0]
    setattr(param.module, name, put(getattr(param.module, name), param.path[1:]))


@contextmanager
def patched(values: Mapping[Param, float]) -> Iterator[None]:
    """The constants set to `values` inside the block, restored after it."""
    saved = {p: read(p) for p in values}
    try:
        for param, value in values.items():
            write(param, value)
        yield
    finally:
        for param, value in saved.items():
            write(param, value)


@dataclass(frozen=True)
class FitSpec:
    """The constants fitted together, the rows they are fitted to and the pure function that
    predicts one row on one GPU variant (the same code estimate() runs)."""

    name: str
    families: tuple[str, ...]
    kind: str  # speed | memory
    params: tuple[Param, ...]
    # (row, model, GPU, request, precision); the GPU is None for a row measured on the CPU
    # alone, which only a spec of device "cpu" covers
    figure: Callable[[Case, Any, Any, Request, str], float]
    workloads: tuple[str, ...] = ()  # fitted to these workloads' rows only (empty: all)
    # the loss on each row's log ratio: 2 = least squares; 1 = least absolute error, the
    # median's loss, which a few rows that contradict their neighbours do not drag
    power: float = 2.0
    device: str = "gpu"  # gpu | cpu: the rows measured on GPUs, or on the CPU alone

    def covers(self, case: Case) -> bool:
        return (
            case.family in self.families
            and case.kind == self.kind
            and (not self.workloads or case.request.workload in self.workloads)
            and (case.gpus == (CPU,)) == (self.device == "cpu")
        )


# case, model, (GPU, request)s (GPU None: the CPU), precision
Row = tuple[Case, Any, list[tuple[GPU | None, Request]], str]


class Model:
    """The rows of one fit with their catalog objects, requests and precision resolved once."""

    def __init__(self, spec: FitSpec, cases: Iterable[Case], catalog: Catalog) -> None:
        from advisor.calculator.families import find_model

        self.spec = spec
        self.rows: list[Row] = [
            (
                c,
                find_model(c.model, catalog)[1],
                [
                    (None if g == CPU else catalog.get_gpu(g), replace(c.request, gpu=g))
                    for g in c.gpus
                ],
                _precision(c),
            )
            for c in cases
            if spec.covers(c)
        ]

    def predict(self, row: Row) -> float | None:
        case, model, variants, precision = row
        values = [self.spec.figure(case, model, g, r, precision) for g, r in variants]
        if max(values) / min(values) > VARIANT_SPREAD:
            return None
        return math.exp(sum(math.log(v) for v in values) / len(values))

    def loss(self, rows: list[Row]) -> float:
        total = 0.0
        for row in rows:
            value = self.predict(row)
            if value is not None:
                total += abs(math.log(value / row[0].value)) ** self.spec.power
        return total

    def fit(
        self, keep: Callable[[Case], bool], start: Mapping[Param, float], step: float = 1.6
    ) -> dict[Param, float]:
        """Constants that minimise the log error (to the spec's power) on the rows `keep` selects,
        searched from `start` with a first step of x `step`."""
        rows = [r for r in self.rows if r[0].fit and keep(r[0])]
        informed = [p for p in self.spec.params if any(p.informs(r[0]) for r in rows)]
        values = dict(start)
        with patched(values):
            for param in self.spec.params:  # uninformed constants: their fallback, fixed
                if param not in informed:
                    values[param] = self._fallback(param, values)
                    write(param, values[param])
            _search(informed, values, lambda: self.loss(rows), step)
        return values

    def _fallback(self, param: Param, values: Mapping[Param, float]) -> float:
        if isinstance(param.fallback, float):
            return param.fallback
        other = next(p for p in self.spec.params if p.path == param.fallback)
        return values[other]


def _search(
    params: list[Param], values: dict[Param, float], loss: Callable[[], float], step: float
) -> None:
    """Pattern search in log space: each constant moves by its step while the loss falls; the
    steps halve until every one is below 0.2%. The constants are patched as it goes."""
    best = loss()
    steps = {p: math.log(step) for p in params}
    while params and max(steps.values()) > math.log(1.002):
        for param in params:
            moved = False
            for direction in (1.0, -1.0):
                while True:
                    trial = values[param] * math.exp(direction * steps[param])
                    trial = min(max(trial, param.low), param.high)
                    if trial == values[param]:
                        break
                    write(param, trial)
                    value = loss()
                    if value < best - 1e-12:
                        best, values[param], moved = value, trial, True
                        continue
                    write(param, values[param])
                    break
                if moved:
                    break
            if not moved:
                steps[param] /= 2


# ---------------------------------------------------------------- the families' fits


def _precision(case: Case) -> str:
    if case.request.precision:
        return get_precision(case.request.precision).name
    if case.gpus == (CPU,):  # the engine's default on a CPU
        return speech_cpu.cpu_engine(case.request.engine).precisions[0]
    return "fp16"


def _nets_figure(case: Case, model: Any, gpu: GPU, request: Request, precision: str) -> float:
    rate = nets.samples_per_s(model, request, gpu, precision)
    if case.metric == "train_tokens_per_s":
        rate *= nets.work(model, request, True).tokens
    return rate


def _model(case: Case, catalog: Catalog) -> Any:
    from advisor.calculator.families import find_model

    return find_model(case.model, catalog)[1]


def _generation(gpu: GPU) -> str:
    from advisor.calculator.factors import generation

    return generation(gpu.architecture, gpu.memory_type)


def _kind(case: Case, model: Any) -> str:
    return nets.work(model, case.request, case.request.workload != "inference").kind


def _nets_params(catalog: Catalog) -> tuple[Param, ...]:
    from advisor.calculator.families import find_model

    def kind_is(kind: str) -> Callable[[Case], bool]:
        return lambda c: _kind(c, find_model(c.model, catalog)[1]) == kind

    def framework_is(name: str) -> Callable[[Case], bool]:
        return lambda c: (c.request.framework or "pytorch") == name

    def generation_is(gen: str) -> Callable[[Case], bool]:
        return lambda c: all(_generation(catalog.get_gpu(g)) == gen for g in c.gpus)

    fallbacks = {"cnn-depthwise": "cnn", "transformer-xl": "encoder", "vit": "cnn"}
    params = []
    for kind in nets.EFFICIENCY:
        params.append(
            Param(
                nets,
                ("EFFICIENCY", kind, 0),
                0.05,
                1.0,
                kind_is(kind),
                ("EFFICIENCY", fallbacks.get(kind, "vit"), 0),
            )
        )
        params.append(
            Param(
                nets,
                ("EFFICIENCY", kind, 1),
                0.1,
                300.0,
                kind_is(kind),
                ("EFFICIENCY", fallbacks.get(kind, "vit"), 1),
            )
        )
    return (
        *params,
        Param(nets, ("FP32_COMPUTE_BONUS",), 0.3, 5.0,
              lambda c: c.request.precision == "fp32", 1.0),
        Param(nets, ("TENSORRT_SPEEDUP",), 0.3, 20.0,
              lambda c: c.request.engine == "tensorrt", 1.0),
        Param(nets, ("TENSORRT_LAYER_S",), 1e-7, 1e-3,
              lambda c: c.request.engine == "tensorrt" and c.request.batch <= 8, 0.0),
        *(
            Param(nets, ("FRAMEWORK", fw), 0.3, 3.0, framework_is(fw), 1.0)
            for fw in nets.FRAMEWORK
            # the reference, and PyTorch in channels_last (NCHW_HALF_TRAFFIC is its difference)
            if fw not in ("pytorch", "pytorch-channels-last")
        ),
        *(
            Param(nets, ("LAYER_LAUNCH_S", fw), 1e-7, 1e-2, framework_is(fw),
                  ("LAYER_LAUNCH_S", "tensorflow" if fw == "pytorch" else "pytorch"))
            for fw in nets.LAYER_LAUNCH_S
        ),
        Param(nets, ("NCHW_HALF_TRAFFIC",), 0.3, 5.0,
              lambda c: c.family == "vision" and _precision(c) in ("fp16", "bf16")
              and c.request.engine != "tensorrt", 1.0),
        Param(nets, ("NHWC_TRAIN_TRAFFIC",), 0.2, 3.0,
              lambda c: c.family == "vision" and c.request.workload != "inference"
              and (c.request.framework or "pytorch") in nets.NHWC_FRAMEWORKS
              and _kind(c, _model(c, catalog)) == "cnn"
              and not _model(c, catalog).linear_pointwise, 1.0),
        Param(nets, ("TF_AMP_FP32_SHARE",), 0.005, 0.95,
              lambda c: (c.request.framework or "pytorch") in nets.FP32_SOFTMAX_FRAMEWORKS
              and _precision(c) in ("fp16", "bf16"), 0.0),
        Param(nets, ("INFERENCE_MEMORY_SHARE",), 0.02, 1.0,
              lambda c: c.request.workload == "inference", 1 / 3),
        Param(nets, ("SCORE_TRAFFIC",), 0.2, 20.0, lambda c: c.family == "transformer", 1.0),
        Param(nets, ("GEMM_HALF_WIDTH",), 1.0, 1e4, lambda c: c.family == "transformer", 256.0),
        Param(nets, ("TRAIN_LAUNCHES",), 0.3, 30.0, lambda c: c.request.workload != "inference",
              3.0),
        Param(nets, ("DATA_PARALLEL_EFFICIENCY",), 0.3, 1.0,
              lambda c: c.request.num_gpus > 1 and c.request.workload != "inference", 1.0),
        Param(nets, ("ALLREDUCE_EXPOSED",), 0.01, 50.0,
              lambda c: c.request.num_gpus > 1 and c.request.workload != "inference", 0.0),
        *(
            Param(nets, ("GENERATION", gen), 0.3, 3.0, generation_is(gen), 1.0)
            for gen in nets.GENERATION
            if gen != "Ampere-HBM"  # the reference the efficiencies are fitted against
        ),
    )  # fmt: skip


def _diffusion_figure(case: Case, model: Any, gpu: GPU, request: Request, precision: str) -> float:
    if case.kind == "memory":
        return sum(diffusion.memory(model, request, precision).values())
    if case.metric == "train_samples_per_s":
        return diffusion.train_samples_per_s(model, request, gpu, precision)
    step, per_batch = diffusion.inference_seconds(model, request, gpu, precision)
    if case.metric == "it_per_s":
        return 1 / step
    if case.metric == "seconds_per_image":
        return per_batch / request.batch
    return request.batch * request.num_gpus / per_batch


def _diffusion_params(catalog: Catalog) -> tuple[Param, ...]:
    def engine(name: str) -> Callable[[Case], bool]:
        return lambda c: c.request.engine == name

    def card(test: Callable[[GPU], bool]) -> Callable[[Case], bool]:
        return lambda c: all(test(catalog.get_gpu(g)) for g in c.gpus)

    def denoiser(kind: str) -> Callable[[Case], bool]:
        return lambda c: _model(c, catalog).denoiser == kind

    def any_row(c: Case) -> bool:
        return True

    return (
        *(
            Param(diffusion, ("STEP_EFFICIENCY", kind), 0.05, 1.0, denoiser(kind),
                  ("STEP_EFFICIENCY", "mmdit" if kind == "unet" else "unet"))
            for kind in diffusion.STEP_EFFICIENCY
        ),
        Param(diffusion, ("STEP_OVERHEAD_S",), 1e-4, 0.2, any_row, 0.02),
        Param(diffusion, ("ACTIVATION_TRAFFIC",), 0.05, 50.0, any_row, 1.0),
        Param(diffusion, ("COMPILED",), 0.2, 3.0, engine("pytorch-compile"), 1.0),
        Param(diffusion, ("HOST_COPY_GBS",), 0.3, 50.0,
              lambda c: (c.request.offload or "none") != "none", 25.0),
        Param(diffusion, ("LOW_POWER",), 0.2, 1.5, card(lambda g: (g.tdp_w or 1000) <= 75), 1.0),
    )  # fmt: skip


def _diffusion_train_params() -> tuple[Param, ...]:
    def any_row(c: Case) -> bool:
        return True

    return (
        Param(diffusion, ("TRAIN_COMPUTE",), 0.2, 5.0, any_row, 1.0),
        Param(diffusion, ("TRAIN_LAYER_S",), 1e-4, 0.1, any_row, 0.0063),
    )


def _diffusion_memory_params(catalog: Catalog) -> tuple[Param, ...]:
    def inference(c: Case) -> bool:  # training memory rows are scored, not fitted
        return c.request.workload == "inference"

    def denoising_may_peak(c: Case) -> bool:
        """Several image-branches denoised at once (a batch, or guidance's two branches): only
        there can the denoiser's activations outgrow one image's VAE decode. A fold without
        such rows keeps the fallback, 1 GB per 1024 px image-branch: SDXL's, from the HF blog's
        VAE-slicing run (15.4 GB for 4 images at once against 21.7 GB decoding all 4 at once)."""
        branches = 2 if _model(c, catalog).guidance == "cfg" else 1
        return inference(c) and c.request.batch * branches > 1

    return (
        Param(diffusion, ("DENOISER_ACT_GB_1024",), 0.1, 20.0, denoising_may_peak, 1.0),
        Param(diffusion, ("VAE_DECODE_GB_1024",), 0.1, 20.0, inference, 1.0),
    )


def _speech_figure(
    case: Case, model: Any, gpu: GPU | None, request: Request, precision: str
) -> float:
    if gpu is None:
        return _speech_cpu_figure(case, model, request, precision)
    engine = speech.ENGINES[request.engine or "faster-whisper"]
    if case.kind == "memory":
        beam = request.beam_size or 5
        half = request.mixed_precision is False
        return sum(speech.memory(model, engine, precision, request.batch, beam, half).values())
    seconds = speech.window_seconds(
        model, gpu, engine, precision, request.batch, request.beam_size or 5
    )
    return speech.WINDOW_S * request.batch / seconds * request.num_gpus


def _speech_params(kind: str) -> tuple[Param, ...]:
    def engine(name: str) -> Callable[[Case], bool]:
        return lambda c: c.request.engine == name

    names = [e for e in speech.ENGINES if e != "tensorrt"]
    if kind == "speed":
        return (
            Param(speech, ("ENCODER_EFFICIENCY",), 0.02, 2.0, lambda c: True, 0.35),
            *(
                Param(speech, ("ENGINES", e, "token_overhead_ms"), 0.1, 500.0, engine(e),
                      ("ENGINES", "faster-whisper", "token_overhead_ms"))
                for e in names
            ),
        )  # fmt: skip
    return (
        *(Param(speech, ("ENGINES", e, "overhead_gb"), 0.01, 10.0, engine(e), 1.0) for e in names),
    )


def _speech_cpu_figure(case: Case, model: Any, request: Request, precision: str) -> float:
    engine = speech_cpu.cpu_engine(request.engine)
    beam = request.beam_size or 5
    if case.kind == "memory":
        return sum(speech_cpu.memory(model, engine, precision, request.batch, beam).values())
    ram = host_memory(request.ram, request.ram_channels)
    seconds = speech_cpu.window_seconds(model, engine, precision, request.batch, beam, ram)
    return speech.WINDOW_S * request.batch / seconds


def _speech_cpu_params(kind: str) -> tuple[Param, ...]:
    """The CPU's constants; a fold without an engine's rows takes faster-whisper's, and one
    without any row the modules' starting values (the GPU fit's are no CPU's)."""

    def engine(name: str) -> Callable[[Case], bool]:
        return lambda c: (c.request.engine or "faster-whisper") == name

    def int8(c: Case) -> bool:
        return c.request.precision == "int8"

    names = list(speech_cpu.CPU_ENGINES)
    if kind == "speed":
        return (
            Param(speech_cpu, ("CPU_MATMUL_EFFICIENCY",), 0.01, 1.0, lambda c: True, 0.2),
            Param(speech_cpu, ("CPU_INT8_SHARE",), 0.0, 1.0, int8, 0.5),
            *(
                Param(speech_cpu, ("CPU_ENGINES", e, "token_overhead_ms"), 0.1, 1000.0,
                      engine(e), ("CPU_ENGINES", "faster-whisper", "token_overhead_ms"))
                for e in names
            ),
        )  # fmt: skip
    return tuple(
        Param(speech_cpu, ("CPU_ENGINES", e, "runtime_gb"), 0.01, 10.0, engine(e), 1.0)
        for e in names
    )


def specs(catalog: Catalog) -> tuple[FitSpec, ...]:
    """Every family's fits: speed and memory constants are fitted separately."""
    return (
        FitSpec("nets speed", ("vision", "transformer"), "speed", _nets_params(catalog),
                _nets_figure, power=1.0),
        # the one training-speed row (W0560, a wall time of ~20 min with its saving and
        # validation) is scored, not fitted: it would set the FLUX efficiency on its own
        FitSpec("diffusion speed", ("diffusion",), "speed", _diffusion_params(catalog),
                _diffusion_figure, ("inference",)),
        # training steps: SimpleTuner's sweep (W0782-W0793) fits; the GeForce forum rows
        # (W0794-W0800, confidence low) and the FLUX LoRA rows are scored, not fitted
        FitSpec("diffusion training speed", ("diffusion",), "speed", _diffusion_train_params(),
                _diffusion_figure, ("finetune-lora", "finetune-qlora", "finetune-full")),
        FitSpec("diffusion memory", ("diffusion",), "memory", _diffusion_memory_params(catalog),
                _diffusion_figure),
        FitSpec("speech speed", ("speech",), "speed", _speech_params("speed"), _speech_figure),
        FitSpec("speech memory", ("speech",), "memory", _speech_params("memory"),
                _speech_figure),
        # Whisper on the CPU alone: fitted to the faster-whisper README's i7-12700K table; the
        # other CPUs' rows are scored, not fitted (their notes say so)
        FitSpec("speech CPU speed", ("speech",), "speed", _speech_cpu_params("speed"),
                _speech_figure, device="cpu"),
        FitSpec("speech CPU memory", ("speech",), "memory", _speech_cpu_params("memory"),
                _speech_figure, device="cpu"),
    )  # fmt: skip
