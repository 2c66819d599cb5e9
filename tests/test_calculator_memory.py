"""Memory physics: weights, KV cache, capacity, training components."""

from __future__ import annotations

import itertools

import pytest

from advisor.calculator import memory
from advisor.calculator.factors import LOGIT_BYTES, LOSS_CHUNKS, engine_factors
from advisor.calculator.precision import get_precision, kv_bytes
from advisor.catalog import load_catalog
from advisor.errors import InvalidInput
from eval import calibration_classes as cc

GIB = 2**30
CATALOG = load_catalog()
ROWS = {r["id"]: r for r in cc.read_rows()}


def model(name: str):  # type: ignore[no-untyped-def]
    return load_catalog().get_model(name)


def gpu(name: str):  # type: ignore[no-untyped-def]
    return load_catalog().get_gpu(name)


@pytest.mark.parametrize(
    ("name", "bytes_per_token"),
    [
        ("llama-3-8b", 131_072),  # CALCULATOR_NOTES: Llama-3-8B 131,072 B/token
        ("llama-3-70b", 327_680),  # CALCULATOR_NOTES: Llama-3-70B 327,680 B/token
        ("llama-2-7b", 524_288),  # MHA: 32 KV heads
        ("deepseek-v3", 70_272),  # MLA: (512 + 64) x 61 layers x 2 bytes
    ],
)
def test_kv_cache_per_token(name: str, bytes_per_token: int) -> None:
    assert memory.kv_cache_bytes(model(name), 1, 1, 2.0) == bytes_per_token


def test_kv_cache_scales_with_context_batch_and_dtype() -> None:
    m = model("llama-3-8b")
    base = memory.kv_cache_bytes(m, 4096, 1, 2.0)
    assert memory.kv_cache_bytes(m, 8192, 1, 2.0) == 2 * base
    assert memory.kv_cache_bytes(m, 4096, 4, 2.0) == 4 * base
    assert memory.kv_cache_bytes(m, 4096, 1, kv_bytes("fp8")) == base / 2
    assert memory.kv_cache_bytes(m, 4096, 1, kv_bytes("q4_0")) == pytest.approx(base * 0.28125)


def test_sliding_window_caps_the_windowed_layers() -> None:
    mistral = model("mistral-7b-v0.1")  # window 4096 on all 32 layers
    assert memory.kv_cache_bytes(mistral, 32_768, 1, 2.0) == memory.kv_cache_bytes(
        mistral, 4096, 1, 2.0
    )
    gemma = model("gemma-3-27b")  # 5 of 6 layers local (1024), the rest global
    long, short = (memory.kv_cache_bytes(gemma, n, 1, 2.0) for n in (32_768, 1024))
    globals_ = gemma.num_layers - (gemma.sliding_window_layers or 0)
    assert long - short == pytest.approx(
        globals_ * 2 * gemma.num_kv_heads * gemma.head_dim * 2 * (32_768 - 1024)
    )


def test_tensor_parallel_splits_kv_heads_but_never_below_one() -> None:
    m = model("llama-3-8b")  # 8 KV heads
    one = memory.kv_cache_bytes(m, 1024, 1, 2.0)
    assert memory.kv_cache_bytes(m, 1024, 1, 2.0, tp=8) == one / 8
    assert memory.kv_cache_bytes(m, 1024, 1, 2.0, tp=16) == one / 8  # heads replicated


def test_awq_llama3_70b_weights_match_the_published_size() -> None:
    """CALCULATOR_NOTES: Llama-3-70B AWQ computes to 37.04 GiB; measured 37.06 GiB."""
    gib = memory.weight_bytes(model("llama-3-70b"), get_precision("awq")) / GIB
    assert gib == pytest.approx(37.06, rel=0.01)


def test_gguf_file_sizes() -> None:
    """llama.cpp README: Llama-3-8B F16 14.96 GiB; Llama-3-70B Q4_K_M 39.59 GiB."""
    assert memory.weight_bytes(model("llama-3-8b"), get_precision("fp16")) / GIB == pytest.approx(
        14.96, rel=0.01
    )
    q4 = memory.weight_bytes(model("llama-3-70b"), get_precision("q4_k_m")) / GIB
    assert q4 == pytest.approx(39.59, rel=0.02)


def test_capacity_uses_binary_gib_and_ecc_reserve() -> None:
    assert memory.capacity_gb(gpu("a100-sxm4-80gb")) == pytest.approx(85.5, abs=0.1)
    assert memory.capacity_gb(gpu("t4")) == pytest.approx(16.0, abs=0.1)  # 15,360 MiB
    assert memory.capacity_gb(gpu("rtx-a6000")) > 48 * 1.07 * 0.99  # ECC off by default


def test_usable_memory_follows_the_engine() -> None:
    card = gpu("h100-sxm5-80gb")
    # vLLM: gpu_memory_utilization (0.9) of the total CUDA reports, a little below capacity
    assert memory.usable_gb(card, engine_factors("vllm")) == pytest.approx(
        memory.cuda_total_gb(card) * 0.90
    )
    assert memory.cuda_total_gb(card) < memory.capacity_gb(card)
    assert memory.usable_gb(card, engine_factors("llama.cpp")) > memory.usable_gb(
        card, engine_factors("vllm")
    )


def test_hf_peak_holds_a_second_copy_of_what_torch_cat_grows() -> None:
    """transformers' DynamicCache copies one layer's cache at a time; its old tuple cache
    (before 4.36) a whole cache: the peak holds that second copy."""
    m = model("llama-2-13b")

    def kv(engine: str, legacy: bool = False) -> float:
        return memory.inference_memory(
            m, get_precision("fp16"), engine_factors(engine), context=1024, batch=16,
            kv_elem_bytes=2.0, legacy_cache=legacy,
        ).breakdown_gb["kv_cache"]  # fmt: skip

    assert kv("hf") == pytest.approx(kv("vllm") * (1 + 1 / m.num_layers))
    assert kv("hf", legacy=True) == pytest.approx(2 * kv("vllm"))
    assert kv("vllm", legacy=True) == pytest.approx(kv("vllm"))  # a paged cache never copies


def test_full_finetune_bytes_per_parameter() -> None:
    m = model("llama-3-8b")
    kwargs = dict(seq=512, batch=1, checkpointing=True)
    mixed = memory.training_memory(
        m, method="full", precision=get_precision("bf16"), optimizer="adamw", **kwargs
    )
    states = mixed.breakdown_gb
    p = m.total_params / 1e9
    assert states["weights"] == pytest.approx(6 * p)  # fp32 master + bf16 copy
    # backward frees activations as it makes gradients: the peak holds the larger of the two
    activations = memory.training_activation_bytes(m, 512, 1, checkpointing=True) / 1e9
    assert states["activations"] == pytest.approx(activations)
    assert states["gradients"] + states["activations"] == pytest.approx(max(4 * p, activations))
    assert states["optimizer_states"] == pytest.approx(8 * p)
    eight_bit = memory.training_memory(
        m, method="full", precision=get_precision("bf16"), optimizer="adamw8bit", **kwargs
    )
    assert eight_bit.breakdown_gb["optimizer_states"] == pytest.approx(2 * p)
    pure = memory.training_memory(
        m, method="full", precision=get_precision("bf16"), optimizer="adamw",
        mixed_precision=False, **kwargs,
    )  # fmt: skip
    assert pure.breakdown_gb["weights"] == pytest.approx(2 * p)
    assert pure.breakdown_gb["optimizer_states"] == pytest.approx(4 * p)  # bf16 moments
    assert pure.breakdown_gb["gradients"] + activations == pytest.approx(2 * p)


def test_zero_stages_shard_progressively() -> None:
    m = model("llama-3-8b")

    def total(stage: int) -> dict[str, float]:
        return memory.training_memory(
            m, method="full", precision=get_precision("bf16"), optimizer="adamw", seq=512,
            batch=1, checkpointing=True, num_gpus=8, zero_stage=stage,
        ).breakdown_gb  # fmt: skip

    z0, z1, z2, z3 = (total(s) for s in range(4))
    assert z1["optimizer_states"] == pytest.approx(z0["optimizer_states"] / 8)
    grads = {
        s: z["gradients"] + z["activations"] for s, z in zip(range(3), (z0, z1, z2), strict=True)
    }
    assert grads[2] == pytest.approx(max(grads[0] / 8, z0["activations"]))
    assert z3["weights"] == pytest.approx(z0["weights"] / 8)
    assert sum(z3.values()) < sum(z2.values()) < sum(z1.values()) < sum(z0.values())


def test_zero_shards_the_fp32_master_weights_from_stage_1() -> None:
    """DeepSpeed ZeRO-1 partitions the fp32 master copy with the optimizer states it belongs to;
    only ZeRO-3 also partitions the 16-bit working copy."""
    m = model("llama-3-8b")
    p = m.total_params / 1e9

    def weights(stage: int, gpus: int) -> float:
        return memory.training_memory(
            m, method="full", precision=get_precision("bf16"), optimizer="adamw", seq=512,
            batch=1, checkpointing=True, num_gpus=gpus, zero_stage=stage,
        ).breakdown_gb["weights"]  # fmt: skip

    assert weights(0, 8) == pytest.approx(6 * p)
    assert weights(1, 8) == pytest.approx(2 * p + 4 * p / 8)
    assert weights(2, 8) == pytest.approx(2 * p + 4 * p / 8)
    assert weights(3, 8) == pytest.approx(6 * p / 8)
    assert weights(2, 1) == pytest.approx(6 * p)  # one GPU: nothing to shard over


@pytest.mark.parametrize("gpus", [1, 2, 8])
def test_deepspeed_zero_3_keeps_16_bit_gradients_and_steps_one_sub_group_in_fp32(
    gpus: int,
) -> None:
    """DeepSpeed ZeRO-3 (stage3.py): 16-bit gradient partitions; the step upcasts one
    sub-group's gradients at a time (16-bit flatten + fp32 copy); the optimizer's fp32
    zero-gradient buffer of one sub-group, held until the first step; the whole vocabulary matrix
    and the prefetch bucket gathered in forward and backward; a hidden^2 reduce bucket."""
    m = model("qwen2.5-7b")
    p, h = m.total_params, m.hidden_size

    def breakdown(method: str, sub_group: float) -> dict[str, float]:
        return memory.training_memory(
            m, method=method, precision=get_precision("bf16"), optimizer="adamw", seq=256,
            batch=1, checkpointing=True, zero_stage=3, num_gpus=gpus, fused_optimizer=True,
            zero3_sub_group=sub_group,
        ).breakdown_gb  # fmt: skip

    plain, ds = breakdown("full", 0.0), breakdown("full", 1e9)
    sub_group = min(1e9, p / gpus)
    assert ds["gradients"] + ds["optimizer_step"] == pytest.approx(
        (2 * p / gpus + 6 * sub_group) / 1e9 - ds["activations"]
    )
    assert plain["optimizer_step"] == 0.0
    assert ds["optimizer_states"] == pytest.approx(plain["optimizer_states"] + 4 * sub_group / 1e9)
    assert ds["weights"] == pytest.approx(plain["weights"] + 2 * h * h / 1e9)
    gathered = (m.vocab_size * h + 0.9 * h * h) * 2 / 1e9
    assert ds["activations"] == pytest.approx(plain["activations"] + gathered)
    assert breakdown("lora", 1e9) == breakdown("lora", 0.0)  # adapters: not modelled


def test_zero_2_on_8_gpus_needs_far_less_per_gpu_than_on_1() -> None:
    m = model("qwen2.5-14b")
    kwargs: dict[str, object] = dict(
        method="full", precision=get_precision("bf16"), optimizer="adamw", seq=2048, batch=1,
        checkpointing=True, zero_stage=2,
    )  # fmt: skip
    one = memory.training_memory(m, num_gpus=1, **kwargs).total_gb  # type: ignore[arg-type]
    eight = memory.training_memory(m, num_gpus=8, **kwargs).total_gb  # type: ignore[arg-type]
    # 16-bit weights stay whole (2 B/param); master, gradients and states (16 B/param) split
    assert eight < 0.35 * one


@pytest.mark.parametrize("mixed", [True, False])
def test_foreach_adamw_step_holds_one_more_copy_of_the_second_moments(mixed: bool) -> None:
    m = model("qwen2.5-7b")
    p = m.total_params / 1e9
    kwargs: dict[str, object] = dict(
        method="full", precision=get_precision("bf16"), optimizer="adamw", seq=512, batch=1,
        checkpointing=True, mixed_precision=mixed,
    )  # fmt: skip
    foreach = memory.training_memory(m, **kwargs)  # type: ignore[arg-type]
    fused = memory.training_memory(m, fused_optimizer=True, **kwargs)  # type: ignore[arg-type]
    state_bytes = 4 if mixed else 2  # fp32 moments under mixed precision, bf16 in pure bf16
    assert fused.breakdown_gb["optimizer_step"] == 0
    # the checkpointed activations of 512 tokens are far smaller than the gradients: the whole
    # copy lands on top of the gradients
    assert foreach.total_gb - fused.total_gb == pytest.approx(state_bytes * p, rel=1e-6)
    assert any("foreach" in a for a in foreach.assumptions)
    assert memory.foreach_step_bytes("adamw8bit", 1e9, 4) == 0  # bitsandbytes: in place
    assert memory.foreach_step_bytes("sgd", 1e9, 4) == 0


def test_foreach_step_copy_hides_under_larger_activations() -> None:
    """The step runs after backward has freed the activations: a copy smaller than the
    activations it replaces adds nothing to the peak (LoRA's small adapters)."""
    m = model("llama-3-8b")
    kwargs: dict[str, object] = dict(
        method="lora", precision=get_precision("bf16"), optimizer="adamw", seq=4096, batch=4,
        checkpointing=False,
    )  # fmt: skip
    foreach = memory.training_memory(m, **kwargs).total_gb  # type: ignore[arg-type]
    fused = memory.training_memory(m, fused_optimizer=True, **kwargs)  # type: ignore[arg-type]
    assert foreach == pytest.approx(fused.total_gb)


def test_lora_trains_only_adapters() -> None:
    m = model("llama-2-7b")
    lora = memory.training_memory(
        m, method="lora", precision=get_precision("bf16"), optimizer="adamw", seq=512, batch=1,
        checkpointing=False, lora_rank=8, lora_targets="qv",
    ).breakdown_gb  # fmt: skip
    assert lora["gradients"] == 0 and lora["optimizer_states"] == 0
    assert memory.lora_params(m, 8, "qv") == 32 * 8 * (4096 + 4096) * 2
    assert lora["adapters"] == pytest.approx(memory.lora_params(m, 8, "qv") * 16 / 1e9)


def test_checkpointing_saves_activation_memory() -> None:
    m = model("llama-3-8b")
    on = memory.training_activation_bytes(m, 2048, 4, checkpointing=True)
    off = memory.training_activation_bytes(m, 2048, 4, checkpointing=False)
    eager = memory.training_activation_bytes(m, 2048, 4, checkpointing=False, flash_attention=False)
    assert on < off < eager


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "dpo"}, "Unknown training method"),
        ({"optimizer": "lion"}, "Unknown optimizer"),
        ({"zero_stage": 4}, "ZeRO stage"),
        ({"tp": 4, "num_gpus": 2}, "needs at least"),
    ],
)
def test_training_rejects_bad_options(kwargs: dict[str, object], message: str) -> None:
    base: dict[str, object] = dict(
        method="full", precision=get_precision("bf16"), optimizer="adamw", seq=512, batch=1,
        checkpointing=True,
    )  # fmt: skip
    base.update(kwargs)
    with pytest.raises(InvalidInput, match=message):
        memory.training_memory(model("llama-3-8b"), **base)  # type: ignore[arg-type]


# torchtune README, "Memory and training speed" ladder: Llama-3.2-3B full fine-tune on one A100,
# batch 2 x 4096 packed tokens, pure bf16, each row turning one more option on
# (eval/calibration/llm.csv L1616-L1628; GiB as printed). Only L1616/L1618 were used to fit a
# constant (COMPILED_LAYER_SHARE); the other five rows test the options' physics.
TORCHTUNE_LADDER = [
    pytest.param({}, 60.0, id="L1616-baseline"),
    pytest.param({"compiled": True}, 51.0, id="L1618-compile"),
    pytest.param({"compiled": True, "loss": "chunked"}, 42.9, id="L1620-chunked-ce"),
    pytest.param({"compiled": True, "loss": "chunked", "checkpointing": True}, 24.9,
                 id="L1622-activation-checkpointing"),
    pytest.param({"compiled": True, "loss": "chunked", "checkpointing": True,
                  "optimizer_in_backward": True}, 23.1, id="L1624-optimizer-in-backward"),
    pytest.param({"compiled": True, "loss": "chunked", "checkpointing": True,
                  "optimizer_in_backward": True, "activation_offload": True}, 21.8,
                 id="L1626-activation-offload"),
    pytest.param({"compiled": True, "loss": "chunked", "checkpointing": True,
                  "optimizer_in_backward": True, "activation_offload": True,
                  "optimizer": "adamw8bit"}, 17.6, id="L1628-8bit-adamw"),
]  # fmt: skip


@pytest.mark.parametrize(("options", "measured_gib"), TORCHTUNE_LADDER)
def test_torchtune_memory_ladder(options: dict[str, object], measured_gib: float) -> None:
    # torchtune's recipes step torch.optim.AdamW with fused=True: no foreach step copy
    kwargs: dict[str, object] = {
        "optimizer": "adamw", "checkpointing": False, "fused_optimizer": True, **options
    }  # fmt: skip
    result = memory.training_memory(
        model("llama-3.2-3b"), method="full", precision=get_precision("bf16"), seq=4096,
        batch=2, mixed_precision=False, **kwargs,  # type: ignore[arg-type]
    )  # fmt: skip
    assert result.total_gb == pytest.approx(measured_gib * 2**30 / 1e9, rel=0.12)


def test_a_compiled_chunked_loss_holds_the_bf16_logits_and_one_chunks_gradient() -> None:
    # torch.compile fuses each chunk's fp32 upcast and log-softmax; the bf16 logits stay whole
    assert memory._loss_bytes_per_entry("chunked", compiled=True) == 2 + 2 / LOSS_CHUNKS
    assert memory._loss_bytes_per_entry("chunked") == 2 + (LOGIT_BYTES - 2) / LOSS_CHUNKS
    assert memory._loss_bytes_per_entry("plain", compiled=True) == LOGIT_BYTES


# torchtune README "Optimization flags" table, Llama-3.2-3B LoRA and QLoRA with every option on
# ("Peak Memory Active", an allocator counter): the loss is most of their activations
@pytest.mark.parametrize("row_id", ["L1630", "L1632"])
def test_torchtune_compiled_lora_and_qlora_rows_within_15_percent(row_id: str) -> None:
    case = cc.Scorer(CATALOG).case(ROWS[row_id])
    assert case.predicted == pytest.approx(case.measured, rel=0.15)


OPTION_STEPS = [
    {"mixed_precision": False},
    {"optimizer": "adamw8bit"},
    {"optimizer": "paged_adamw8bit"},
    {"optimizer_in_backward": True},
    {"loss": "chunked"},
    {"loss": "fused"},
    {"activation_offload": True},
    {"compiled": True},
    {"checkpointing": True},
    {"fused_optimizer": True},
]


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
@pytest.mark.parametrize("step", OPTION_STEPS, ids=lambda s: ",".join(map(str, s.items())))
def test_every_memory_option_never_adds_memory(method: str, step: dict[str, object]) -> None:
    base: dict[str, object] = dict(
        method=method, precision=get_precision("nf4" if method == "qlora" else "bf16"),
        optimizer="adamw", seq=2048, batch=2, checkpointing=False,
    )  # fmt: skip
    m = model("llama-3.1-8b")
    before = memory.training_memory(m, **base).total_gb  # type: ignore[arg-type]
    after = memory.training_memory(m, **{**base, **step}).total_gb  # type: ignore[arg-type]
    assert after <= before + 1e-9


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
def test_training_memory_grows_with_sequence(method: str) -> None:
    m = model("qwen2.5-7b")
    totals = [
        memory.training_memory(
            m, method=method, precision=get_precision("nf4" if method == "qlora" else "bf16"),
            optimizer="adamw", seq=seq, batch=1, checkpointing=True,
        ).total_gb
        # a full fine-tune's peak is its optimizer step until the activations outgrow it
        for seq in (256, 512, 1024, 2048, 4096, 8192, 16384, 65536)
    ]  # fmt: skip
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(totals))
    assert totals[-1] > totals[0]


@pytest.mark.parametrize(
    ("framework", "fused"),
    [("hf", False), ("ms-swift", False), ("llama-factory", False), ("torchtune", True),
     ("deepspeed", True), ("megatron", True)],
)  # fmt: skip
def test_framework_decides_whether_adamw_is_fused(framework: str, fused: bool) -> None:
    from advisor.calculator import finetune

    options = finetune.resolve(framework, "full")
    assert options.fused_optimizer is fused
    assert finetune.resolve(framework, "full", fused_optimizer=not fused).fused_optimizer is (
        not fused
    )
    assert ("(fused)" in options.describe()) is fused


def test_autoawq_holds_the_prompts_attention_scores() -> None:
    """AutoAWQ's fused attention materialises batch x heads x context^2 scores (fp16 kept
    while softmax runs in fp32: 10 bytes each); vLLM's flash kernel never does."""
    m = model("llama-2-13b")

    def activations(engine: str, context: int, batch: int) -> float:
        return memory.inference_memory(
            m, get_precision("awq"), engine_factors(engine), context=context, batch=batch,
            kv_elem_bytes=2.0,
        ).breakdown_gb["activations"]  # fmt: skip

    extra = activations("autoawq", 2048, 3) - activations("hf", 2048, 3)
    assert extra == pytest.approx(3 * m.num_attention_heads * 2048**2 * 10 / 1e9)
    # quadratic in the context: four times the scores at twice the context
    assert activations("autoawq", 4096, 1) - activations("hf", 4096, 1) == pytest.approx(
        4 * (activations("autoawq", 2048, 1) - activations("hf", 2048, 1))
    )


def test_reserved_memory_is_the_allocated_peak_plus_the_allocator_cache() -> None:
    from advisor.calculator import reserved_gb
    from advisor.calculator.factors import TRAINING_USABLE_FRACTION

    assert reserved_gb(46.0) > 46.0
    assert reserved_gb(46.0) == pytest.approx(46.0 / TRAINING_USABLE_FRACTION)
    # a step fits exactly when its reserved memory fills the card
    card = gpu("A100 SXM4 80GB")
    assert reserved_gb(memory.training_usable_gb(card)) == pytest.approx(memory.capacity_gb(card))
    # the loss's blocks kept under gradient checkpointing come on top
    assert reserved_gb(46.0, 3.0) == pytest.approx(reserved_gb(46.0) + 3.0)


def _qwen_lora(checkpointing: bool, method: str = "lora") -> memory.MemoryResult:
    return memory.training_memory(
        model("qwen-7b"), method=method, precision=get_precision("bf16"), optimizer="adamw",
        seq=2048, batch=1, checkpointing=checkpointing, lora_rank=8, lora_targets="attention",
    )  # fmt: skip


def test_checkpointed_loss_blocks_count_only_in_the_allocator_cache() -> None:
    m = model("qwen-7b")
    on, off = _qwen_lora(True), _qwen_lora(False)
    assert off.allocator_cache_gb == 0
    blocks = 2048 * m.vocab_size * memory.CHECKPOINTED_LOSS_CACHE_BYTES / 1e9
    assert on.allocator_cache_gb == pytest.approx(blocks, rel=0.01)  # less the adapters' grads
    # the allocator gives the blocks back before it runs out: not in the total nor the fit check
    assert on.total_gb == pytest.approx(sum(on.breakdown_gb.values()))
    assert on.total_gb < off.total_gb
    # a full fine-tune's gradients, made during backward, fill the freed blocks
    assert _qwen_lora(True, method="full").allocator_cache_gb == 0
    # a chunked loss frees smaller blocks
    plain = memory.allocator_cache_bytes(m, 2048, 1, True)
    assert 0 < memory.allocator_cache_bytes(m, 2048, 1, True, loss="chunked") < plain
    assert memory.allocator_cache_bytes(m, 2048, 1, True, backward_bytes=2 * plain) == 0


@pytest.mark.parametrize(
    ("checkpointing", "measured_gib"),
    [
        pytest.param(True, 27.74, id="ms-swift Benchmark.md qwen-7b-chat LoRA 2048 GC on (L1396)"),
        pytest.param(
            False, 37.70, id="ms-swift Benchmark.md qwen-7b-chat LoRA 2048 GC off (L1548)"
        ),
    ],
)
def test_reserved_memory_of_a_published_lora_step(checkpointing: bool, measured_gib: float) -> None:
    from advisor.calculator import reserved_gb

    result = _qwen_lora(checkpointing)
    allocated = result.total_gb - result.breakdown_gb["runtime_overhead"]  # no CUDA context
    predicted = reserved_gb(allocated, result.allocator_cache_gb)
    assert predicted == pytest.approx(measured_gib * GIB / 1e9, rel=0.10)


def test_reserved_memory_never_exceeds_what_the_card_leaves() -> None:
    from advisor.calculator import reserved_gb

    assert reserved_gb(70.0, 20.0, limit_gb=84.9) == pytest.approx(84.9)
    assert reserved_gb(40.0, 5.0, limit_gb=84.9) == pytest.approx(reserved_gb(40.0, 5.0))
    # a step whose tensors alone overflow the card is not hidden by the limit
    assert reserved_gb(90.0, limit_gb=84.9) == pytest.approx(90.0)


def test_exllama_keeps_the_embedding_in_system_ram_and_sizes_scratch_for_2048_token_chunks() -> (
    None
):
    from advisor.calculator import Request, estimate

    model = CATALOG.get_model("llama-2-13b")
    exl = estimate(
        Request("llama-2-13b", "rtx-3090", precision="gptq", engine="exllamav2", context=1),
        catalog=CATALOG,
    )
    embedding = model.vocab_size * model.hidden_size * 2 / 1e9  # 16-bit, on the host
    full = memory.weight_bytes(model, get_precision("gptq")) / 1e9
    assert exl.breakdown_gb["weights"] == pytest.approx(full - embedding)
    # MLP buffers at 2048 tokens, one dequantised MLP matrix, 40 heads x 2048^2 fp16 scores
    assert memory.exllama_scratch_bytes(model) / 1e9 == pytest.approx(0.61, abs=0.01)
    assert exl.breakdown_gb["activations"] == pytest.approx(
        memory.exllama_scratch_bytes(model) / 1e9
    )
    assert any("system RAM" in a for a in exl.assumptions)


def test_half_precision_rate_of_cards_without_tensor_cores() -> None:
    from advisor.calculator.precision import half_tflops

    gpus = load_catalog().gpus
    assert half_tflops(gpus["gtx-1080-ti"]) == gpus["gtx-1080-ti"].fp32_tflops  # FP16 at 1/64
    assert half_tflops(gpus["gtx-1660-super"]) == 2 * gpus["gtx-1660-super"].fp32_tflops
    assert half_tflops(gpus["rtx-3090"]) == gpus["rtx-3090"].fp16_bf16_dense_tflops
