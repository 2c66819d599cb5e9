"""The vision, transformer, diffusion and speech families against published figures, and the
family calibration benchmark's row mapping and refitting (eval/family_rows.py, family_fit.py)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from advisor.calculator import Request, diffusion, estimate, min_gpus, nets, speech, speech_cpu
from advisor.catalog import Catalog, load_catalog
from eval import family_fit, family_rows
from eval.family_fit import Model, patched, read, specs
from eval.family_rows import GIB_IN_GB, Unmapped, load_cases, predict


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.fixture(scope="module")
def mapped(catalog):
    cases, skipped = load_cases(catalog)
    return {c.id: c for c in cases}, skipped


# ---------------------------------------------------------------- fit verdicts (issue 19)


@pytest.mark.parametrize("gpu", ["rtx-3070", "rtx-4060", "rtx-3060-8gb", "rtx-2080"])
def test_sdxl_fp16_does_not_fit_8gb_without_offload(catalog, gpu):
    result = estimate(Request("sdxl", gpu, precision="fp16"), catalog)
    assert not result.fits
    assert result.memory_per_gpu_gb > result.usable_memory_per_gpu_gb


@pytest.mark.parametrize("gpu", ["rtx-3070", "rtx-4060", "rtx-3060-8gb", "rtx-2080"])
def test_sd15_fp16_fits_8gb(catalog, gpu):
    assert estimate(Request("sd-1.5", gpu, precision="fp16"), catalog).fits


def test_sequential_offload_fits_sdxl_on_8gb(catalog):
    result = estimate(Request("sdxl", "rtx-3070", precision="fp16", offload="sequential"), catalog)
    assert result.fits and result.breakdown_gb["denoiser"] == 0.0


def test_diffusion_peak_is_the_larger_phase_not_their_sum(catalog):
    result = estimate(Request("sdxl", "a100-sxm4-80gb", precision="fp16", batch=4), catalog)
    phases = {"activations", "vae_decode"} & set(result.breakdown_gb)
    assert len(phases) == 1  # denoising and the VAE decode never hold memory at once


# ---------------------------------------------------------------- published figures


@pytest.mark.parametrize(
    ("case_id", "request_", "field", "value", "tolerance"),
    [
        # faster-whisper README, RTX 3070 Ti, large-v2 beam 5: VRAM 4525 MB and 2926 MB
        ("W0569-faster-whisper-fp16-vram", Request("whisper-large-v2", "rtx-3070-ti",
         engine="faster-whisper", precision="fp16"), "memory_per_gpu_gb", 4525 / 1024, 0.15),
        ("W0573-faster-whisper-int8-vram", Request("whisper-large-v2", "rtx-3070-ti",
         engine="faster-whisper", precision="int8"), "memory_per_gpu_gb", 2926 / 1024, 0.15),
        # HF blog simple_sdxl_optimizations: SDXL fp16, 4 images, model CPU offload: 20.21 GiB
        # (its notebook prints max_memory_allocated / 1024**3)
        ("W0527-sdxl-model-offload-memory", Request("sdxl", "a100-sxm4-40gb", precision="fp16",
         batch=4, offload="model"), "memory_per_gpu_gb", 20.21 * GIB_IN_GB, 0.15),
        # faster-whisper README (2023), V100S, large-v2, openai/whisper beam 5: 11325 MB peak:
        # load_model()'s fp32 weights, the fp16 checkpoint it mapped to the GPU, five beams'
        # cross-attention caches
        ("W0577-openai-whisper-v100s-vram", Request("whisper-large-v2", "v100s-pcie-32gb",
         engine="openai-whisper", precision="fp16", beam_size=5), "memory_per_gpu_gb",
         11325 / 1024, 0.15),
        # openai/whisper README 'Required VRAM': ~10 GB for large, ~5 GB for medium (greedy)
        ("W0603-openai-whisper-large-readme", Request("whisper-large-v2", "a100-sxm4-80gb",
         engine="openai-whisper", precision="fp16", beam_size=1), "memory_per_gpu_gb", 10.0,
         0.15),
        ("W0602-openai-whisper-medium-readme", Request("whisper-medium", "a100-sxm4-80gb",
         engine="openai-whisper", precision="fp16", beam_size=1), "memory_per_gpu_gb", 5.0,
         0.15),
        # diffusers torch2.0.md, A100 batch 1: SD 1.5 21.66 it/s, SDXL 8.64 it/s. The table's
        # SD 1.5 A100 rows run 1.3-1.5x below the model at every batch (W0441, W0444, W0447)
        # while its RTX 4090 runs SD 1.5 at batch 1 at 40.5 it/s (W0468): one fixed time per
        # step is fitted between the two, so this row was held to 45%. Since calc-2026.12.03d three
        # later sources measure SD 1.5 on an A100 at 1.4-1.6x this table's rate (stable-fast
        # W0904 35.6 it/s by CUDA events, fal-ai W0912 1.60 s for 50 steps, sd-benchmarks W0918
        # 1.96 s) and the fit follows them: the estimate is 1.47x this row, held to 50%
        ("W0441-sd15-a100-it-per-s", Request("sd-1.5", "a100-sxm4-40gb", precision="fp16"),
         "it_per_s", 21.66, 0.50),
        ("W0443-sdxl-a100-it-per-s", Request("sdxl", "a100-sxm4-40gb", precision="fp16"),
         "it_per_s", 8.64, 0.25),
        # Lambda deeplearning-benchmark: ResNet-50 AMP on one H100 SXM5 (batch 1280): 2791 img/s.
        # Lambda runs AMP in NCHW (its config leaves out DLE's --memory-format nhwc), DLE's AMP
        # rows in NHWC, 1.5x faster on A100; the fit sits between the two, so this row is held
        # to 25%
        ("W0608-resnet50-h100-amp", Request("resnet-50", "h100-sxm5-80gb", workload="train",
         precision="fp16", batch=1280), "train_samples_per_s", 2791, 0.25),
        # DLE Transformer-XL base (PyTorch, d_model 512), 8x A100 40GB AMP, batch 32, tgt_len
        # 192: 449,890 tokens/s (W0108); its recipe's 40,000 steps of 256 x 192 tokens took 76 min
        ("W0108-txl-base-8xa100-amp", Request("transformer-xl-base-dle", "a100-sxm4-40gb",
         num_gpus=8, workload="train", precision="fp16", batch=32, context=192),
         "train_tokens_per_s", 449890, 0.2),
        # DLE BERT-large SQuAD fine-tuning, A100 80GB TF32, batch 32, seq 384: 61.5 seq/s
        ("W0095-bert-large-a100-tf32", Request("bert-large", "a100-sxm4-80gb", workload="train",
         precision="tf32", batch=32, context=384), "train_samples_per_s", 61.5, 0.2),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)  # fmt: skip
def test_published_figures(catalog, case_id, request_, field, value, tolerance):
    result = getattr(estimate(request_, catalog), field)
    figure = result["typical"] if isinstance(result, dict) else result
    if case_id.endswith("-vram"):
        value *= GIB_IN_GB  # the README's MB are MiB
    assert figure == pytest.approx(value, rel=tolerance)


def test_openai_whisper_cast_to_fp16_holds_half_the_weights_and_no_load_copy(catalog):
    base = Request("whisper-large-v2", "rtx-3070-ti", engine="openai-whisper", precision="fp16")
    default = estimate(base, catalog)
    half = estimate(replace(base, mixed_precision=False), catalog)
    assert "load_copy" in default.breakdown_gb and "load_copy" not in half.breakdown_gb
    assert half.breakdown_gb["weights"] == pytest.approx(default.breakdown_gb["weights"] / 2)
    assert not default.fits  # 6 bytes per parameter at load: more than the 8 GB card
    # faster-whisper README (2024), RTX 3070 Ti: openai/whisper at 4708 MB, so cast to fp16
    assert half.memory_per_gpu_gb == pytest.approx(4708 / 1024 * GIB_IN_GB, rel=0.15)


def test_openai_whisper_beams_each_hold_a_cross_attention_cache(catalog):
    one, five = (
        estimate(Request("whisper-large-v2", "t4", engine=e, precision="fp16", beam_size=b),
                 catalog).breakdown_gb["kv_cache"]
        for e, b in (("openai-whisper", 1), ("openai-whisper", 5))
    )  # fmt: skip
    assert five > 4 * one
    shared = estimate(
        Request("whisper-large-v2", "t4", engine="faster-whisper", precision="fp16", beam_size=5),
        catalog,
    ).breakdown_gb["kv_cache"]
    assert shared == pytest.approx(one)


def test_a_shallow_decoder_writes_its_tokens_faster(catalog):
    # large-v3-turbo is large-v3's encoder with 4 decoder layers instead of 32; the openai/whisper
    # README puts it at ~8x the large model on an A100, tiny at ~10x and medium at ~2x
    def rate(model: str, gpu: str = "a100-sxm4-40gb", engine: str = "openai-whisper") -> float:
        result = estimate(Request(model, gpu, engine=engine), catalog)
        return result.audio_seconds_per_s["typical"]

    assert 5 < rate("whisper-large-v3-turbo") / rate("whisper-large-v3") < 10
    assert rate("whisper-tiny") > rate("whisper-small") > rate("whisper-medium")
    assert rate("whisper-medium") > rate("whisper-large-v3")
    # the same on another card and engine: the depth, not one engine's constant, decides
    fast = rate("whisper-large-v3-turbo", "rtx-4090", "faster-whisper")
    assert fast > 3 * rate("whisper-large-v3", "rtx-4090", "faster-whisper")


def test_channels_last_speeds_16_bit_convolutions_and_training_batch_norm(catalog):
    base = Request("resnet-50", "a100-sxm4-80gb", workload="train", precision="fp16", batch=256)
    nchw = estimate(base, catalog).train_samples_per_s["typical"]
    nhwc = estimate(replace(base, framework="pytorch-channels-last"), catalog)
    assert nhwc.train_samples_per_s["typical"] > nchw
    # at 32 bits only training gains (cuDNN's persistent batch norm, NHWC_TRAIN_TRAFFIC) ...
    tf32 = replace(base, precision="tf32")
    tf32_nchw = estimate(tf32, catalog).train_samples_per_s["typical"]
    tf32_nhwc = estimate(replace(tf32, framework="pytorch-channels-last"), catalog)
    assert tf32_nhwc.train_samples_per_s["typical"] > tf32_nchw
    # ... and inference, which normalises with running statistics, does not
    infer = replace(tf32, workload="inference")
    assert estimate(replace(infer, framework="pytorch-channels-last"), catalog).infer_samples_per_s[
        "typical"
    ] == pytest.approx(estimate(infer, catalog).infer_samples_per_s["typical"])


def test_convnext_pays_no_nchw_transposes(catalog):
    # its pointwise layers are nn.Linear on channels-last tensors (catalog linear_pointwise);
    # its depthwise convolutions do not run on tensor cores in either layout
    base = Request("convnext-tiny", "rtx-3090", workload="train", precision="fp16", batch=256)
    nchw = estimate(base, catalog).train_samples_per_s["typical"]
    nhwc = estimate(replace(base, framework="pytorch-channels-last"), catalog)
    assert nhwc.train_samples_per_s["typical"] == pytest.approx(nchw)


def test_tensorflow_cnns_compute_in_nhwc(catalog):
    """TensorFlow's default data_format is NHWC: its 16-bit CNNs pay no NCHW transposes, so
    they keep their speed when NCHW_HALF_TRAFFIC moves; PyTorch's default NCHW does not."""
    base = Request("resnet-50", "a100-sxm4-80gb", workload="train", precision="fp16", batch=256)
    param = next(p for p in specs(catalog)[0].params if p.name == "nets.NCHW_HALF_TRAFFIC")

    def speeds(traffic: float) -> tuple[float, ...]:
        with patched({param: traffic}):
            return tuple(
                estimate(replace(base, framework=fw), catalog).train_samples_per_s["typical"]
                for fw in ("tensorflow", "tensorflow-xla", "pytorch")
            )

    low, high = speeds(1.0), speeds(2.0)
    assert low[:2] == pytest.approx(high[:2])
    assert high[2] < low[2]


def test_tensorflow_amp_without_xla_keeps_attention_scores_fp32(catalog):
    """DLE's TF1 Transformer-XL gains 4-6% from AMP on A100 (W0275-W0284); XLA fuses the casts."""
    base = Request("transformer-xl-base-dle", "a100-sxm4-40gb", workload="train", batch=32)

    def amp_speedup(framework: str) -> float:
        rates = [
            estimate(replace(base, precision=p, framework=framework), catalog)
            for p in ("fp16", "tf32")
        ]
        return rates[0].train_samples_per_s["typical"] / rates[1].train_samples_per_s["typical"]

    # measured 1.04-1.07 (TF1) against PyTorch's 1.44 (W0105/W0106); predicted ~1.3 and ~1.6
    assert amp_speedup("tensorflow") < 0.85 * amp_speedup("tensorflow-xla")
    assert amp_speedup("tensorflow") < 0.85 * amp_speedup("pytorch")


def test_tensorflow_xla_is_a_framework(catalog):
    base = Request("resnet-50", "v100-sxm2-16gb", workload="train", precision="fp16", batch=128)
    xla = estimate(replace(base, framework="tensorflow-xla"), catalog)
    assert xla.train_samples_per_s is not None
    assert "tensorflow-xla" in nets.FRAMEWORK


def test_depthwise_cnns_are_their_own_class(catalog):
    effnet = nets.work(_model(catalog, "efficientnet-b0"), Request("x", "t4"), True)
    resnet = nets.work(_model(catalog, "resnet-50"), Request("x", "t4"), True)
    assert (effnet.kind, resnet.kind) == ("cnn-depthwise", "cnn")


def test_transformer_xl_runs_the_segment_length_asked(catalog):
    """Relative positions: a segment longer than the paper's 150 runs, with memory as long."""
    model = _model(catalog, "transformer-xl-base")
    short = nets.work(model, Request("x", "t4"), True)
    long = nets.work(model, Request("x", "t4", context=192), True)
    assert (short.tokens, long.tokens) == (150, 192)
    assert long.flops / long.tokens > short.flops / short.tokens  # attention over 384, not 300


def test_block_flops_come_from_the_layer_shapes(catalog):
    """Transformer-XL Large's adaptive input holds 38M parameters, not vocab x hidden (274M):
    its blocks' weights (18 x 12.6M) set the FLOPs, not the parameter count less 274M. Its
    relative attention takes three products over the 768 keys (scores, position scores, values),
    an encoder's two. Its output layer computes the adaptive softmax's 20,003 head logits per
    token; without the adaptive softmax (Lambda's benchmark) all 267,735."""
    model = _model(catalog, "transformer-xl-large")
    w = nets.work(model, Request("x", "t4", context=384), True)
    dense = 18 * (4 * 1024**2 + 2 * 1024 * 4096)
    attention = 2 * 3 * 18 * 768 * 1024
    assert w.flops / w.tokens == pytest.approx(3 * (2 * dense + attention + 2 * 1024 * 20003))
    full = nets.work(_model(catalog, "transformer-xl-large-full-softmax"),
                     Request("x", "t4", context=384), True)  # fmt: skip
    assert full.flops / full.tokens == pytest.approx(
        3 * (2 * dense + attention + 2 * 1024 * 267735)
    )
    bert = nets.work(_model(catalog, "bert-large"), Request("x", "t4", context=384), True)
    dense = 24 * (4 * 1024**2 + 2 * 1024 * 4096)
    assert bert.flops / bert.tokens == pytest.approx(3 * (2 * dense + 2 * 2 * 24 * 384 * 1024))


def test_a_token_budget_sets_a_language_models_job_hours(catalog):
    base = Request("transformer-xl-base", "a100-sxm4-40gb", num_gpus=8, workload="train",
                   precision="fp16", batch=32, context=192)  # fmt: skip
    tokens = 40_000 * 256 * 192
    by_budget = estimate(replace(base, train_tokens=tokens), catalog)
    by_epochs = estimate(replace(base, dataset_tokens=tokens / 2, epochs=2), catalog)
    speed = estimate(base, catalog).train_tokens_per_s
    assert speed is not None and by_budget.job_hours is not None
    assert by_budget.job_hours["typical"] == pytest.approx(tokens / speed["typical"] / 3600)
    assert by_epochs.job_hours == pytest.approx(by_budget.job_hours)
    assert estimate(base, catalog).job_hours is None


def _model(catalog, name):
    from advisor.calculator.families import find_model

    return find_model(name, catalog)[1]


# ---------------------------------------------------------------- the benchmark's mapping


def test_dle_row_maps_to_its_request(mapped):
    cases, _ = mapped
    case = cases["W0001"]  # DLE ResNet-50, DGX A100 80GB, 1 GPU, TF32, batch 256: 938 img/s
    assert case.request == Request(
        "resnet-50", "a100-sxm4-80gb", num_gpus=1, workload="train", precision="tf32",
        batch=256, resolution=224,
    )  # fmt: skip
    assert (case.metric, case.value, case.source, case.chip) == (
        "train_samples_per_s",
        938.0,
        "nvidia-dle",
        "a100",
    )


def test_shared_csv_training_rows_join_the_lambda_source(mapped):
    cases, _ = mapped
    shared = [c for c in cases.values() if c.id.startswith("S")]
    assert shared and {c.source for c in shared} == {"lambda"}
    txl = "transformer-xl-large-full-softmax"  # Lambda's config leaves out --adaptive
    assert {c.model for c in shared} >= {"resnet-50", "bert-large", txl}
    lambda_txl = {c.request.context for c in shared if c.model == txl}
    assert lambda_txl == {256}  # Lambda's config: --tgt_len 256 --mem_len 256


def test_wall_time_becomes_audio_seconds_per_second(mapped):
    case = mapped[0]["W0568"]  # faster-whisper README: 13 min of audio in 63 s on an RTX 3070 Ti
    assert case.metric == "audio_seconds_per_s"
    assert case.value == pytest.approx(780 / 63)
    assert case.request.beam_size == 5 and case.request.engine == "faster-whisper"


def test_dle_convnets_amp_rows_run_channels_last_and_lambdas_do_not(mapped):
    cases = mapped[0]
    assert cases["W0002"].request.framework == "pytorch-channels-last"  # DLE AMP, nhwc config
    assert cases["W0001"].request.framework is None  # DLE TF32: NCHW
    assert cases["W0608"].request.framework is None  # Lambda AMP: DLE code, no --memory-format


def test_dle_efficientnet_trains_amp_channels_last_and_infers_nchw(mapped, catalog):
    """Its README: 'We use NHWC data layout when training using Mixed Precision'."""
    cases = mapped[0]
    assert cases["W0034"].request.framework == "pytorch-channels-last"  # AMP training
    assert cases["W0033"].request.framework is None  # TF32 training: NCHW
    assert cases["W0050"].request.framework is None  # AMP inference: the README says training
    nchw = estimate(replace(cases["W0034"].request, framework=None), catalog)
    nhwc = estimate(cases["W0034"].request, catalog)
    assert nhwc.train_samples_per_s["typical"] > 1.1 * nchw.train_samples_per_s["typical"]


def test_dle_tensorflow_bert_rows_ran_xla(mapped):
    cases = mapped[0]
    assert cases["W0185"].request.framework == "tensorflow-xla"  # TF1 BERT, use_xla default true
    assert cases["W0341"].request.framework == "tensorflow-xla"  # TF2 BERT, same default
    assert cases["W0233"].request.framework == "tensorflow-xla"  # inference script: --use_xla
    assert cases["W0276"].request.framework == "tensorflow"  # TF1 Transformer-XL: no XLA


def test_dle_tf_resnet_v100_amp_rows_run_batch_256(mapped):
    """The README's DGX-1 and DGX-2 tables: '128 (FP32) / 256 (AMP)' per GPU (the rows had
    taken 32)."""
    assert mapped[0]["W0140"].request.batch == mapped[0]["W0142"].request.batch == 256
    assert mapped[0]["W0144"].request.batch == 256


def test_sdxl_blog_rows_run_its_notebooks_25_steps(mapped):
    assert mapped[0]["W0523"].request.steps == 25
    assert mapped[0]["W0525"].value == pytest.approx(21.73 * GIB_IN_GB)


def test_openai_whisper_on_8_gb_is_mapped_as_fp16_weights(mapped):
    assert mapped[0]["W0563"].request.mixed_precision is False
    assert mapped[0]["W0577"].request.mixed_precision is None
    assert mapped[0]["W0577"].request.beam_size == 5


def test_gib_rows_are_converted_to_gb(mapped):
    case = mapped[0]["W0573"]
    assert case.value == pytest.approx(2.857 * GIB_IN_GB)


def test_mlperf_rows_take_the_offline_convention(mapped, catalog):
    case = mapped[0]["W0697"]  # ResNet-50 int8 TensorRT on one A100 SXM4 80GB
    assert case.offline and case.request.batch == family_rows.OFFLINE_BATCH["vision"]
    assert predict(case, catalog) > 0


def test_an_unnamed_variant_is_the_geometric_mean_of_its_variants(mapped, catalog):
    case = mapped[0]["W0441"]  # diffusers table: "A100", memory size not stated
    assert len(case.gpus) == 4
    singles = [predict(replace(case, gpus=(g,)), catalog) for g in case.gpus]
    expected = math.exp(sum(map(math.log, singles)) / 4)
    assert predict(case, catalog) == pytest.approx(expected)


@pytest.mark.parametrize(
    "reason",
    [
        "vision: GPU 'RTX 2000E Ada 16GB' not in the catalog",
        "diffusion: model sdxl-lcm-lora not in the catalog",
        "speech: MLPerf Whisper counts utterances, not seconds of audio",
        "speech: engine jax not modelled for speech",
        # the diffusers ToMe table's 'Vanilla' column (W0480-W0487): PyTorch 1.13, no xFormers
        "diffusion: attention without SDPA/xFormers (pre-PyTorch 2 pipelines) not modelled",
    ],
)
def test_unmapped_rows_are_counted_with_their_reason(mapped, reason):
    assert mapped[1][reason] > 0


@pytest.mark.parametrize(
    ("row", "gpu"), [("W0201", "v100-sxm3-32gb"), ("W0131", "v100-sxm3-32gb-h")]
)
def test_dgx2_rows_map_to_the_v100_sxm3_and_leave_with_the_v100(mapped, row, gpu):
    # DLE's DGX-2 (350 W) and DGX-2H (450 W, higher clocks) tables: each its own variant, and
    # leave-one-GPU-out drops them with the other V100s
    case = mapped[0][row]
    assert case.gpus == (gpu,)
    assert case.chip == "v100"


def test_variants_that_disagree_are_not_guessed(mapped, catalog):
    case = replace(mapped[0]["W0441"], gpus=("a100-sxm4-40gb", "t4"))
    with pytest.raises(Unmapped, match="variant"):
        predict(case, catalog)


# ---------------------------------------------------------------- refitting


def test_patched_sets_and_restores_nested_constants():
    spec_params = {p.name: p for s in specs(load_catalog()) for p in s.params}
    tuple_entry = spec_params["nets.EFFICIENCY.cnn.1"]
    engine_field = spec_params["speech.ENGINES.faster-whisper.token_overhead_ms"]
    before = (read(tuple_entry), read(engine_field), nets.EFFICIENCY["cnn"][0])
    with patched({tuple_entry: 1.0, engine_field: 2.0}):
        assert nets.EFFICIENCY["cnn"][1] == 1.0
        assert speech.ENGINES["faster-whisper"].token_overhead_ms == 2.0
        assert nets.EFFICIENCY["cnn"][0] == before[2]  # the tuple's other entry is kept
    assert (read(tuple_entry), read(engine_field), nets.EFFICIENCY["cnn"][0]) == before


@pytest.mark.parametrize("name", ["diffusion speed", "diffusion memory", "speech memory"])
def test_pure_functions_agree_with_estimate(mapped, catalog, name):
    spec = next(s for s in specs(catalog) if s.name == name)
    model = Model(spec, mapped[0].values(), catalog)
    for row in model.rows[:12]:
        try:
            expected = predict(row[0], catalog)
        except Unmapped:
            continue
        assert model.predict(row) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(
    "name", ["diffusion speed", "diffusion memory", "speech speed", "speech memory"]
)
def test_refit_on_all_rows_reproduces_the_module_constants(mapped, catalog, name):
    spec = next(s for s in specs(catalog) if s.name == name)
    model = Model(spec, mapped[0].values(), catalog)
    start = {p: read(p) for p in spec.params}
    refit = model.fit(lambda c: True, start)
    for param in spec.params:
        assert refit[param] == pytest.approx(start[param], rel=0.05), param.name


def test_a_fold_without_rows_for_a_constant_takes_its_fallback(mapped, catalog):
    spec = next(s for s in specs(catalog) if s.name == "diffusion speed")
    model = Model(spec, mapped[0].values(), catalog)
    start = {p: read(p) for p in spec.params}
    values = model.fit(lambda c: (c.request.offload or "none") == "none", start, step=1.1)
    copy = next(p for p in spec.params if p.path == ("HOST_COPY_GBS",))
    assert values[copy] == 25.0  # no offload row left: a pinned PCIe 4.0 copy assumed
    assert start[copy] == diffusion.HOST_COPY_GBS  # and the module is left as it was


def test_rows_scored_not_fitted_carry_their_reason(mapped):
    """A row no fit may use says why in workloads.csv's scored_only column (or its note marks it
    confidence: low); it is still mapped, so the benchmark scores it in every split."""
    import csv

    with family_rows.WORKLOADS_CSV.open(encoding="utf-8") as handle:
        rows = {r["id"]: r for r in csv.DictReader(handle)}
    cases = mapped[0]
    for rid, row in rows.items():
        reason = family_rows.not_fitted_reason(row)
        if "scored, not fitted" in row["note"]:  # the note's own words agree with the column
            assert row["scored_only"], rid
        if rid in cases:
            assert cases[rid].fit == (not reason) and cases[rid].scored_only == reason, rid
    for rid in ("W0815", "W0640"):  # another CPU than the reference; a doubtful 8-GPU figure
        assert not cases[rid].fit and cases[rid].scored_only, rid
    assert family_rows.not_fitted_reason({"note": "x; confidence: low"}) == (
        family_rows.LOW_CONFIDENCE
    )


def test_a_scored_only_row_is_held_out_of_every_fit_but_predicted(mapped, catalog):
    spec = next(s for s in specs(catalog) if s.name == "nets speed")
    model = Model(spec, mapped[0].values(), catalog)
    scored = {r[0].id for r in model.rows if not r[0].fit}
    assert {"W0617", "W0620", "W0640", "W0670"} <= scored  # marked low confidence
    seen: list[str] = []
    loss = model.loss
    model.loss = lambda rows: seen.extend(r[0].id for r in rows) or loss(rows)  # type: ignore[method-assign]
    start = {p: read(p) for p in spec.params}
    model.fit(lambda c: True, start, step=1.001)  # the search's first loss: the rows it fits
    assert seen and not scored & set(seen)
    assert all(model.predict(r) is not None for r in model.rows if r[0].id in scored)


def test_fit_spec_modules_are_the_calculators():
    modules = {p.module for s in specs(load_catalog()) for p in s.params}
    assert modules == {nets, diffusion, speech, speech_cpu}
    assert family_fit.VARIANT_SPREAD == family_rows.VARIANT_SPREAD


def test_a_tensorrt_engine_at_batch_one_is_bound_by_its_layers_not_its_flops() -> None:
    """Batch-1 TensorRT detection on an A100 takes a few milliseconds (Ultralytics' YOLOv8
    table: 0.99 ms for YOLOv8n, 3.53 ms for YOLOv8x), far above its compute time at the
    speedup: its critical path is the layers in sequence plus one image's work at the unbatched
    rate, so the larger model is slower by its FLOPs, not only its layers. At large batches the
    path drops out and the MLPerf-fitted speedup alone sets the rate."""
    catalog = load_catalog()

    def rate(model: str, batch: int) -> float:
        request = Request(model=model, gpu="a100-sxm4-40gb", workload="inference",
                          precision="fp16", batch=batch, engine="tensorrt")  # fmt: skip
        band = estimate(request, catalog).infer_samples_per_s
        assert band is not None
        return float(band["typical"])

    for model, measured in (("yolov8n", 1010.0), ("yolov8x", 283.0)):
        assert 0.7 < rate(model, 1) / measured < 1.3
    assert rate("yolov8x", 1) < rate("yolov8n", 1)  # more layers and more work: slower
    large = rate("resnet-50", 256)
    assert abs(rate("resnet-50", 512) / large - 1) < 0.01  # saturated: no floor left
    assert large > 10 * rate("resnet-50", 1)  # batching pays under TensorRT


def test_the_nets_fit_seeks_the_median_and_the_others_least_squares(mapped, catalog):
    """The classic nets' sources disagree by 20-40% on some setups: their fit minimises the
    absolute log error (a median's loss), so a contradicting row weighs as much as any other."""
    powers = {s.name: s.power for s in specs(catalog)}
    assert powers.pop("nets speed") == 1.0
    assert set(powers.values()) == {2.0}
    spec = next(s for s in specs(catalog) if s.name == "nets speed")
    model = Model(spec, mapped[0].values(), catalog)
    rows = [r for r in model.rows if r[0].fit][:5]
    expected = 0.0
    for row in rows:
        value = model.predict(row)
        if value is not None:
            expected += abs(math.log(value / row[0].value))
    assert model.loss(rows) == pytest.approx(expected)


def test_a_diffusion_training_step_is_mostly_fixed_time_at_batch_one(catalog: Catalog) -> None:
    """SimpleTuner's sweep: an SDXL LoRA step takes about the same on an H100 and an L40S, and
    gradient checkpointing's second forward adds most of a step's fixed time again."""

    def rate(gpu: str, **kw: object) -> float:
        e = estimate(Request(model="sdxl", gpu=gpu, workload="finetune-lora", **kw), catalog)
        assert e.train_samples_per_s is not None
        return e.train_samples_per_s["typical"]

    assert 0.8 < rate("h100-sxm5-80gb") / rate("l40s") < 1.3
    assert 1.4 < rate("rtx-4090", checkpointing=False) / rate("rtx-4090") < 2.2
    assert 0.3 < rate("rtx-4090") < 1.5  # images a second: not the ~5 the compute alone gives


def test_sharded_training_takes_any_count_within_a_node(catalog: Catalog) -> None:
    found = min_gpus(Request(model="llama-3-8b", gpu="a100-sxm4-80gb", workload="finetune-full",
                             context=4096), catalog)  # fmt: skip
    assert found is not None and found.num_gpus == 3
