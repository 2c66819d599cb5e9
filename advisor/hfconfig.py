"""A catalog model from a Hugging Face config.json: the architecture fields read, the parameter
count computed, so that people can size their own fine-tunes (`gpu-advisor models add`).

The count covers decoder-only transformers with the usual layout (Llama, Mistral, Qwen2/3, Gemma,
Phi-3, Mixtral and Qwen-MoE style experts): embeddings, per layer the attention projections (with
biases when the config says so) and a gated MLP or its experts and router, the norms, and the
output head unless it is tied. Other architectures are refused with the fields that are missing;
their total can be given with --params.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.errors import InvalidInput

REQUIRED = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")


def _get(config: dict[str, Any], *names: str) -> Any:
    for name in names:
        if config.get(name) is not None:
            return config[name]
    return None


def _int(config: dict[str, Any], name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidInput(f"config.json: {name} must be a positive whole number (got {value!r}).")
    return value


def count_params(config: dict[str, Any]) -> int:
    """Parameters of a decoder-only transformer described by `config`."""
    h = _int(config, "hidden_size", config.get("hidden_size"))
    layers = _int(config, "num_hidden_layers", config.get("num_hidden_layers"))
    heads = _int(config, "num_attention_heads", config.get("num_attention_heads"))
    kv = _int(config, "num_key_value_heads", _get(config, "num_key_value_heads") or heads)
    head_dim = _int(config, "head_dim", _get(config, "head_dim") or h // heads)
    vocab = _int(config, "vocab_size", config.get("vocab_size"))
    bias = bool(_get(config, "attention_bias", "qkv_bias")) or config.get("model_type") == "qwen2"
    attention = h * heads * head_dim + 2 * h * kv * head_dim + heads * head_dim * h
    if bias:
        attention += heads * head_dim + 2 * kv * head_dim
    if config.get("qk_norm") or config.get("model_type") in ("qwen3", "qwen3_moe"):
        attention += 2 * head_dim  # q_norm and k_norm weights
    experts = _get(config, "num_local_experts", "num_experts", "n_routed_experts")
    if experts:
        inter = _int(config, "moe_intermediate_size",
                     _get(config, "moe_intermediate_size", "intermediate_size"))  # fmt: skip
        mlp = experts * 3 * h * inter + h * experts  # experts and the router
        shared = _get(config, "shared_expert_intermediate_size")
        if shared:
            mlp += 3 * h * shared + h  # Qwen-MoE: a shared expert and its gate
    else:
        inter = _int(config, "intermediate_size", config.get("intermediate_size"))
        mlp = 3 * h * inter
    per_layer = attention + mlp + 2 * h  # two RMSNorm weights
    tied = bool(config.get("tie_word_embeddings", False))
    return int(vocab * h + layers * per_layer + h + (0 if tied else vocab * h))


def model_row(config: dict[str, Any], *, name: str, model_id: str | None = None,
              source: str, params: int | None = None) -> dict[str, Any]:  # fmt: skip
    """A models.yaml row for `config` (the catalog loader validates it)."""
    missing = [k for k in REQUIRED if config.get(k) is None]
    if missing:
        raise InvalidInput(
            f"config.json lacks {', '.join(missing)}: not a decoder-only transformer config "
            "this reader knows. Give the total with --params to add it anyway."
        )
    total = params or count_params(config)
    h, heads = config["hidden_size"], config["num_attention_heads"]
    kv = _get(config, "num_key_value_heads") or heads
    head_dim = _get(config, "head_dim") or h // heads
    experts = _get(config, "num_local_experts", "num_experts", "n_routed_experts")
    per_token = _get(config, "num_experts_per_tok", "moe_topk")
    active = None
    if experts and per_token:
        inter = _get(config, "moe_intermediate_size", "intermediate_size")
        unused = (experts - per_token) * 3 * h * inter * config["num_hidden_layers"]
        active = total - unused
    layers = config["num_hidden_layers"]
    return {
        "id": model_id or re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-"),
        "name": name,
        "aliases": [],
        "hf_repo": config.get("_name_or_path") or None,
        "family": name,
        "architecture": (config.get("architectures") or ["unknown"])[0],
        "total_params": total,
        "active_params": active,
        "checkpoint_params": None,
        "text_decoder_params": None,
        "num_layers": layers,
        "hidden_size": h,
        "num_attention_heads": heads,
        "num_kv_heads": kv,
        "head_dim": head_dim,
        "attention_type": "MHA" if kv == heads else "MQA" if kv == 1 else "GQA",
        "intermediate_size": config.get("intermediate_size"),
        "moe_intermediate_size": _get(config, "moe_intermediate_size") if experts else None,
        "shared_expert_intermediate_size": _get(config, "shared_expert_intermediate_size"),
        "num_experts": experts,
        "experts_per_token": per_token if experts else None,
        "num_shared_experts": 1 if _get(config, "shared_expert_intermediate_size") else None,
        "first_k_dense_replace": None,
        "kv_lora_rank": None,
        "q_lora_rank": None,
        "qk_rope_head_dim": None,
        "qk_nope_head_dim": None,
        "v_head_dim": None,
        "vocab_size": config["vocab_size"],
        "tie_word_embeddings": bool(config.get("tie_word_embeddings", False)),
        "max_context": _get(config, "max_position_embeddings", "max_sequence_length") or 4096,
        "rope_theta": float(_get(config, "rope_theta") or 10000.0),
        "sliding_window": _get(config, "sliding_window"),
        "sliding_window_layers": None,
        "attention_bias": str(bool(_get(config, "attention_bias"))).lower(),
        "kv_cache_bytes_per_token_bf16": 2 * 2 * layers * kv * head_dim,
        "license": None,
        "release_year": None,
        "confidence": "medium",
        "notes": "Added from a config.json; parameters computed from its shapes"
        + (" (given with --params)" if params else "")
        + ".",
        "source": source,
    }
