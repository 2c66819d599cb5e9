"""Frozen value types for the knowledge base. Units are in the field names."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class GPU:
    """One GPU SKU from the datasheet table (advisor/data/gpus.yaml)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    segment: str  # datacenter | workstation | consumer | laptop
    vendor: str
    architecture: str
    chip: str | None
    memory_gb: float
    memory_type: str | None
    bandwidth_gbs: float
    fp32_tflops: float | None
    fp16_bf16_dense_tflops: float | None
    fp16_bf16_sparse_tflops: float | None
    tf32_dense_tflops: float | None
    tf32_sparse_tflops: float | None
    int8_dense_tops: float | None
    int8_sparse_tops: float | None
    fp8_dense_tflops: float | None
    fp64_tflops: float | None
    fp64_tensor_tflops: float | None
    cuda_cores: int | None
    tensor_cores: int | None
    tdp_w: float | None
    interconnect: str | None
    interconnect_gbs: float | None
    mig_max_instances: str | None
    form_factor: str | None
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
    # How GPUs of this SKU talk to each other (the fidelity of multi-GPU estimates rests on it):
    # switch = all-to-all NVLink/NVSwitch or Infinity Fabric (SXM, OAM boards); bridge = an
    # NVLink bridge joining pairs of cards; pcie = peer traffic over PCIe only; none = one device.
    gpu_link: str | None = None
    gpu_link_gbs: float | None = None  # bidirectional GB/s per GPU over gpu_link
    pcie_gen: int | None = None
    pcie_lanes: int | None = None
    pcie_p2p: bool | None = None  # direct peer-to-peer over PCIe (GeForce 40/50: off)
    launch_date: str | None = None  # YYYY-MM or YYYY-MM-DD
    compute_stack: str | None = None  # cuda | rocm | oneapi | metal | synapseai
    unified_memory: bool = False  # memory shared with the CPU (Apple M-series, GB10, Strix Halo)
    link_source: str | None = None  # where the link and PCIe fields come from
    generic: bool = False  # "a 24 GB card": only the memory is known (no speed, no price)
    # dense FP4 (NVFP4/MXFP4) tensor-core rate, Blackwell and newer; None = no FP4 tensor cores
    fp4_dense_tflops: float | None = None
    fp4_source: str | None = None  # where the FP4 figure comes from

    def to_dict(self) -> dict[str, Any]:
        """Plain dict keyed by the reference table's column names, plus id/name/aliases/source."""
        data = asdict(self)
        data["aliases"] = list(self.aliases)
        data["gpu_id"] = self.id
        data["gpu_name"] = self.name
        return data


@dataclass(frozen=True)
class Model:
    """One LLM architecture, from its published config.json (advisor/data/models.yaml)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    hf_repo: str | None
    family: str
    architecture: str
    total_params: int
    active_params: int | None
    checkpoint_params: int | None
    text_decoder_params: int | None
    num_layers: int
    hidden_size: int
    num_attention_heads: int
    num_kv_heads: int
    head_dim: int
    attention_type: str  # MHA | GQA | MQA | MLA
    intermediate_size: int | None
    moe_intermediate_size: int | None
    shared_expert_intermediate_size: int | None
    num_experts: int | None
    experts_per_token: int | None
    num_shared_experts: int | None
    first_k_dense_replace: int | None
    kv_lora_rank: int | None
    q_lora_rank: int | None
    qk_rope_head_dim: int | None
    qk_nope_head_dim: int | None
    v_head_dim: int | None
    vocab_size: int
    tie_word_embeddings: bool
    max_context: int
    rope_theta: float
    sliding_window: int | None
    sliding_window_layers: int | None
    attention_bias: str
    kv_cache_bytes_per_token_bf16: int | None
    license: str | None
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
    weights_dtype: str | None = None  # the published checkpoint's format (bf16, fp8, mxfp4 ...)
    generic: bool = False

    @property
    def is_moe(self) -> bool:
        return bool(self.num_experts)

    @property
    def params_per_token(self) -> int:
        """Parameters each token reads: active for MoE (speed), total otherwise."""
        return self.active_params or self.total_params

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["aliases"] = list(self.aliases)
        data["is_moe"] = self.is_moe
        return data


@dataclass(frozen=True)
class Price:
    """One dated, sourced rental price (advisor/data/prices.yaml)."""

    ref: str
    gpu: str
    gpu_as_listed: str
    form_factor: str
    form_factor_stated: bool
    provider: str
    provider_class: str  # hyperscaler | gpu-cloud | marketplace | article
    offering: str
    usd_per_gpu_hour: float
    usd_per_gpu_hour_max: float | None
    instance: str | None
    gpus_per_instance: str | None
    region: str | None
    date: str
    source: str
    derivation: str
    confidence: str
    use_for_estimates: bool
    latest: bool
    notes: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PurchasePrice:
    """One dated, sourced price to buy a GPU (advisor/data/purchases/*.yaml), kept apart from
    rentals. kind: msrp (the launch list price) | new (street, new) | used (street, second hand)."""

    ref: str
    gpu: str
    kind: str
    usd: float
    date: str
    source: str
    quote: str  # the figure as the source gives it, or how it was derived
    seller_class: str  # vendor | retailer | marketplace | reseller | aggregator | article
    confidence: str
    usd_max: float | None = None  # a range's top
    notes: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Instance:
    """A cloud instance type and the GPUs in it (advisor/data/instances.yaml): "p4d.24xlarge"
    is 8 x A100 SXM4 40GB. `name` as the provider writes it (Azure without "Standard_")."""

    name: str
    provider: str
    gpu: str
    count: int
    source: str
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ExchangeRate:
    """One currency's reference rate against the euro on one day (advisor/data/
    exchange_rates.yaml): `per_euro` units of it buy one euro's worth."""

    id: str  # ISO 4217 code
    per_euro: float
    date: str
    source: str


def field_names(cls: type) -> list[str]:
    return [f.name for f in fields(cls)]


# ---------------------------------------------------------------- models of other workload families
# Each family of the calculator (advisor/calculator/families.py) reads its models from one table of
# advisor/data/workloads/; LLMs are the Model entries above. GMACs are multiply-accumulates
# (fvcore / timm convention: one fused multiply-add counts once; FLOPs = 2 x MACs).


@dataclass(frozen=True)
class VisionModel:
    """An image model (classification or detection) at its default input resolution."""

    id: str
    name: str
    aliases: tuple[str, ...]
    task: str  # classification | detection | segmentation
    architecture: str  # cnn | vit | hybrid
    params: int
    resolution: int  # input side in pixels the figures below are for
    gmacs: float  # forward multiply-accumulates per image, billions
    activations_m: float | None  # forward activation elements per image, millions (timm "macts")
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
    layers: int | None = None  # weight layers (convolutions and linears): kernels per pass
    # its pointwise layers are nn.Linear on channels-last tensors (ConvNeXt's blocks), so its
    # 16-bit tensor-core work pays no NCHW transposes whatever the input layout
    linear_pointwise: bool = False
    # the per-GPU training batch its own trainer defaults to (Ultralytics: 16), when it has one
    train_batch: int | None = None


@dataclass(frozen=True)
class TransformerModel:
    """A classic transformer trained or fine-tuned whole: BERT-style encoders, Transformer-XL."""

    id: str
    name: str
    aliases: tuple[str, ...]
    architecture: str  # encoder | transformer-xl
    params: int
    num_layers: int
    hidden_size: int
    num_attention_heads: int
    intermediate_size: int
    vocab_size: int
    max_seq: int  # position embeddings (Transformer-XL: the training segment length)
    mem_len: int | None  # Transformer-XL's recurrence memory in tokens
    tie_word_embeddings: bool
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
    # logits the training head computes per token: an adaptive softmax's head cluster (its first
    # cutoff plus one per tail cluster), the vocabulary for a full softmax, 0 for the few outputs
    # of a fine-tuning head
    softmax_logits: int = 0


@dataclass(frozen=True)
class DiffusionModel:
    """A text-to-image pipeline: denoiser (UNet or DiT) + text encoders + VAE."""

    id: str
    name: str
    aliases: tuple[str, ...]
    denoiser: str  # unet | mmdit | dit
    denoiser_params: int
    text_encoder_params: int  # all text encoders together
    text_encoders: str
    vae_params: int
    vae_decoder_params: int | None
    native_resolution: int
    latent_channels: int
    vae_scale_factor: int
    patch_size: int | None  # DiT / MMDiT patchify of the latent
    default_steps: int
    guidance: str  # cfg (two denoiser passes per step) | distilled (one) | none
    denoiser_gmacs: float  # per image per step at native resolution, one guidance branch
    attention_share: float  # share of denoiser_gmacs in attention score/value products
    text_encoder_gmacs: float  # per prompt
    vae_decode_gmacs: float  # per image at native resolution
    refiner: str | None  # id of a refiner model that may follow
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
    # elements written per denoiser forward (one branch, native resolution) and per VAE decode,
    # millions: every op's output, the activation traffic a step moves through memory
    denoiser_written_m: float | None = None
    vae_decode_written_m: float | None = None
    # attention (transformer) layers in the denoiser, from the configs its source names: what a
    # training step's fixed time (one launch pass of LoRA-wrapped modules each) grows with
    transformer_layers: int | None = None


@dataclass(frozen=True)
class SpeechModel:
    """A Whisper-style encoder-decoder speech recogniser."""

    id: str
    name: str
    aliases: tuple[str, ...]
    params: int
    encoder_layers: int
    decoder_layers: int
    d_model: int
    num_attention_heads: int
    ffn_dim: int
    vocab_size: int
    n_mels: int
    max_source_positions: int  # encoder frames per 30-second window
    max_target_positions: int
    release_year: int | None
    confidence: str
    notes: str | None
    source: str
