"""The LLM fine-tuning stacks and the memory options each turns on by default.

A framework decides how much memory a fine-tune takes before anyone changes a setting: pure bf16
or fp32 master weights, whether the loss is computed in chunks or fused with the LM head,
whether activations are checkpointed, and which optimizer its recipes use. Every default can be
overridden per request (`TrainOptions`); `resolve` says which values were the framework's and
which were given, so an answer can name them.

Defaults are read from each project's documented recipes (the `source` of each entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.errors import InvalidInput

# Optimizers and the bytes of state per trainable parameter (at fp32 states; pure-16-bit training
# keeps AdamW's two moments in 16 bits). "paged" keeps the states in CUDA managed memory, which
# bitsandbytes pages to the host when the GPU runs short, so they never cause an out-of-memory.
OPTIMIZERS = ("adamw", "adamw8bit", "paged_adamw", "paged_adamw8bit", "sgd", "adafactor")
OPTIMIZER_LABELS = {
    "adamw": "AdamW",
    "adamw8bit": "8-bit AdamW",
    "paged_adamw": "paged AdamW",
    "paged_adamw8bit": "paged 8-bit AdamW",
    "sgd": "SGD",
    "adafactor": "Adafactor",
}
LORA_TARGETS = ("all", "attention", "qv")
# how an answer names each option
OPTION_WORDS = {
    "mixed_precision": "precision scheme",
    "checkpointing": "gradient checkpointing",
    "optimizer": "optimizer",
    "optimizer_in_backward": "optimizer step in backward",
    "fused_optimizer": "fused optimizer step",
    "chunked_loss": "chunked loss",
    "activation_offload": "activation offloading",
    "torch_compile": "torch.compile",
}


@dataclass(frozen=True)
class Framework:
    """One fine-tuning stack and the memory options its recipes turn on."""

    name: str
    label: str
    mixed_precision: bool  # fp32 master weights and gradients beside the 16-bit copy
    checkpointing: bool | None  # None: off for 16-bit LoRA, on for QLoRA and full fine-tuning
    chunked_loss: bool = False  # the fp32 loss over the vocabulary one chunk of tokens at a time
    fused_loss: bool = False  # the LM head and the loss fused: logits are never materialised
    optimizer: str = "adamw"
    optimizer_in_backward: bool = False  # each gradient applied and freed as backward makes it
    # AdamW stepped by one fused kernel; False: torch's foreach path, which holds one more copy of
    # the second moments for the step (memory.foreach_step_bytes)
    fused_optimizer: bool = False
    activation_offload: bool = False  # checkpointed activations kept in CPU memory
    compile: bool = False  # torch.compile on the model
    zero_stage: int = 3  # on several GPUs: ZeRO-3 / FSDP full shard; 1 = sharded optimizer only
    # DeepSpeed ZeRO-3's sub_group_size (parameters the optimizer steps at a time, with their
    # gradients upcast to fp32 for it: memory.training_memory); 0 = not DeepSpeed
    zero3_sub_group: float = 0.0
    eager: bool = True  # kernels issued one by one from Python (host time per layer per pass)
    # QLoRA's 4-bit base: bitsandbytes Linear4bit under PEFT, whose layers keep more for backward
    # (factors.QLORA_ACTIVATION_FACTOR), or torchao's NF4Tensor (torchtune's LoRALinear with
    # quantize_base: linear_nf4 saves only its input and the NF4 weight, as a 16-bit layer does)
    qlora_extra_saved: bool = True
    # QLoRA prepared by PEFT's prepare_model_for_kbit_training (peft/utils/other.py), the PEFT
    # and transformers docs' QLoRA recipe: it casts every weight that is not 4-bit (the token
    # embedding, the LM head, the norms) to fp32, so the embedding's output and with it the
    # residual stream run in fp32 (memory.kbit_upcast_bytes). Axolotl casts the norms and the
    # embeddings back to the 16-bit dtype when flash attention is on; LLaMA-Factory, torchtune
    # and Unsloth do not call it.
    kbit_upcast: bool = False
    source: str = ""
    aliases: tuple[str, ...] = field(default=())


FRAMEWORKS: dict[str, Framework] = {
    f.name: f
    for f in (
        Framework(
            "hf", "Hugging Face Trainer / PEFT", True, None, kbit_upcast=True,
            source="transformers Trainer docs: bf16=True is automatic mixed precision; QLoRA "
            "through PEFT's prepare_model_for_kbit_training (non-4-bit weights cast to fp32)",
            aliases=("transformers", "peft", "trl", "hf trainer", "huggingface", "accelerate",
                     "pytorch", "torch"),
        ),
        Framework(
            "torchtune", "torchtune", False, True, chunked_loss=True, fused_optimizer=True,
            qlora_extra_saved=False,
            source="torchtune recipes: dtype bf16, enable_activation_checkpointing, "
            "CEWithChunkedOutputLoss, torch.optim.AdamW with fused: True; QLoRA on torchao's "
            "NF4Tensor (torchtune/modules/peft/lora.py, linear_nf4)",
        ),
        Framework(
            "unsloth", "Unsloth", False, True, fused_loss=True, optimizer="adamw8bit",
            activation_offload=True, qlora_extra_saved=False,
            source="Unsloth notebooks: use_gradient_checkpointing='unsloth' (offloaded), "
            "optim='adamw_8bit', fused cross-entropy kernel (Cut Cross Entropy since 2024.12); "
            "its LoRA layers are its own autograd functions (unsloth/kernels/fast_lora.py: "
            "LoRA_MLP saves X, e, g; LoRA_QKV and LoRA_W save X) that dequantize the 4-bit "
            "weight inside, not bitsandbytes' Linear4bit under PEFT",
        ),
        Framework(
            "llama-factory", "LLaMA-Factory", True, True,
            source="LLaMA-Factory examples: bf16 mixed precision unless pure_bf16, "
            "gradient checkpointing on",
            aliases=("llamafactory",),
        ),
        Framework(
            "ms-swift", "ms-swift", False, True,
            source="ms-swift: model loaded in bf16 (torch_dtype), gradient checkpointing on",
            aliases=("swift",),
        ),
        Framework(
            "axolotl", "Axolotl", True, True, fused_loss=True, optimizer="adamw8bit",
            source="Axolotl example configs: gradient_checkpointing, cut_cross_entropy, "
            "adamw_bnb_8bit",
        ),
        Framework(
            "deepspeed", "DeepSpeed ZeRO (HF Trainer)", True, None, fused_optimizer=True,
            zero3_sub_group=1e9,
            source="DeepSpeed ZeRO-3 with the HF Trainer; an 'AdamW' optimizer in the DeepSpeed "
            "config runs as DeepSpeed's FusedAdam; sub_group_size 1e9 (DeepSpeed's default, "
            "deepspeed/runtime/zero/config.py, and the HF docs' and Qwen's ds_config_zero3.json)",
            aliases=("zero",),
        ),
        Framework(
            "fsdp", "PyTorch FSDP (HF Trainer)", True, None,
            source="FSDP full shard with the HF Trainer", aliases=("fsdp2",),
        ),
        Framework(
            "megatron", "Megatron-LM / NeMo", True, False, zero_stage=1, eager=False,
            fused_optimizer=True,
            source="Megatron-Core: bf16 with fp32 master weights, distributed optimizer, "
            "fused Adam (Transformer Engine / apex); no activation recompute unless "
            "recompute_granularity is set (its default None; Megatron-Bridge's Llama-3 SFT and "
            "LoRA performance presets set none)",
            aliases=("nemo", "megatron-core", "megatron-lm"),
        ),
    )
}  # fmt: skip
DEFAULT_FRAMEWORK = "hf"
_ALIASES = {a: f.name for f in FRAMEWORKS.values() for a in (f.name, *f.aliases)}


def find_framework(name: str | None) -> Framework:
    if name is None:
        return FRAMEWORKS[DEFAULT_FRAMEWORK]
    key = _ALIASES.get(name.strip().lower().replace("_", "-"))
    if key is None:
        key = _ALIASES.get(name.strip().lower().replace("-", " "))
    if key is None:
        raise InvalidInput(
            f"Unknown fine-tuning framework {name!r}; use one of {', '.join(FRAMEWORKS)}."
        )
    return FRAMEWORKS[key]


@dataclass(frozen=True)
class TrainOptions:
    """The memory options of one fine-tune, every one resolved."""

    framework: Framework
    mixed_precision: bool
    checkpointing: bool
    optimizer: str
    optimizer_in_backward: bool
    fused_optimizer: bool
    chunked_loss: bool
    fused_loss: bool
    activation_offload: bool
    compiled: bool
    defaulted: tuple[str, ...]  # the options the framework chose, not the request
    # DeepSpeed ZeRO-Offload, only ever as asked (offload.py)
    offload_optimizer: bool = False
    offload_param: bool = False

    def describe(self, method: str = "full", half: str = "bf16") -> str:
        """The setup in words; `half`: the 16-bit format the card computes in (fp16 on a card
        with no bf16 tensor cores, a T4 say)."""
        adapters = method != "full"
        fused = self.fused_optimizer and self.optimizer == "adamw"
        parts = [
            (
                "fp32 adapters (mixed precision)"
                if adapters
                else "fp32 master weights (mixed precision)"
            )
            if self.mixed_precision
            else f"pure {half}",
            "gradient checkpointing " + ("on" if self.checkpointing else "off"),
            OPTIMIZER_LABELS[self.optimizer]
            + (" (fused)" * (fused and not self.offload_optimizer))
            + (" stepped in backward" * self.optimizer_in_backward),
        ]
        if self.fused_loss:
            parts.append("loss fused with the LM head")
        elif self.chunked_loss:
            parts.append("chunked cross-entropy")
        if self.activation_offload:
            parts.append("activations offloaded to CPU")
        if self.offload_optimizer:
            parts.append("optimizer offloaded to CPU (ZeRO-Offload, CPU Adam)")
        if self.offload_param:
            parts.append("parameters offloaded to CPU")
        if self.compiled:
            parts.append("torch.compile")
        return ", ".join(parts)


def resolve(
    framework: str | None,
    method: str,
    *,
    mixed_precision: bool | None = None,
    checkpointing: bool | None = None,
    optimizer: str | None = None,
    optimizer_in_backward: bool | None = None,
    chunked_loss: bool | None = None,
    activation_offload: bool | None = None,
    compiled: bool | None = None,
    fused_optimizer: bool | None = None,
) -> TrainOptions:
    """Each option as the request gives it, else as `framework`'s recipes set it."""
    fw = find_framework(framework)
    if optimizer is not None and optimizer not in OPTIMIZERS:
        raise InvalidInput(f"Unknown optimizer {optimizer!r}; use one of {', '.join(OPTIMIZERS)}.")
    own_checkpointing = fw.checkpointing if fw.checkpointing is not None else method != "lora"
    chosen = {
        "mixed_precision": (mixed_precision, fw.mixed_precision),
        "checkpointing": (checkpointing, own_checkpointing),
        "optimizer": (optimizer, fw.optimizer),
        "optimizer_in_backward": (optimizer_in_backward, fw.optimizer_in_backward),
        "fused_optimizer": (fused_optimizer, fw.fused_optimizer),
        "chunked_loss": (chunked_loss, fw.chunked_loss),
        "activation_offload": (activation_offload, fw.activation_offload),
        "torch_compile": (compiled, fw.compile),
    }
    value = {k: given if given is not None else own for k, (given, own) in chosen.items()}
    defaulted = tuple(k for k, (given, _) in chosen.items() if given is None)
    return TrainOptions(
        framework=fw,
        mixed_precision=bool(value["mixed_precision"]),
        checkpointing=bool(value["checkpointing"]),
        optimizer=str(value["optimizer"]),
        optimizer_in_backward=bool(value["optimizer_in_backward"]),
        fused_optimizer=bool(value["fused_optimizer"]),
        chunked_loss=bool(value["chunked_loss"]),
        fused_loss=fw.fused_loss and chunked_loss is not False,
        activation_offload=bool(value["activation_offload"]),
        compiled=bool(value["torch_compile"]),
        defaulted=defaulted,
    )
