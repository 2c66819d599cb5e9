"""Image models (CNNs, ViTs, detectors) and classic transformers (BERT-style encoders,
Transformer-XL): training and inference throughput and memory.

A step's time is the batch's per-sample time plus the step's fixed costs, each on its own rate:

    per sample = (FLOPs / (tensor TFLOPS x e_compute) + bytes moved / (bandwidth / e_memory))
                 / generation factor
    per step   = batch x per sample + weight layers x launch time (x TRAIN_LAUNCHES training)
                 + the optimizer's read and write of its states (training)

FLOPs are 2 x MACs per forward (x3 for training: forward and two backward products), a language
model's output layer (its softmax's logits per token) included; the bytes moved are the
activations a sample writes and reads, which is why a CNN trains faster on a card with more
bandwidth even at equal TFLOPS (a transformer's attention scores weigh SCORE_TRAFFIC times, its
e_compute falls with its width: GEMM_HALF_WIDTH). e_compute and e_memory are fitted per kind of
architecture (cnn, depthwise cnn, vit, encoder, transformer-xl), the launch time per framework
and the generation factor per GPU generation. eval/calibration_families.py refits them (least
absolute log ratio: the sources disagree by 20-40% on some setups, and a median-seeking fit is not
dragged by them) and prints their in-sample, leave-one-source-out and leave-one-GPU-out
error. Several GPUs train data-parallel: each step loses DATA_PARALLEL_EFFICIENCY and waits
ALLREDUCE_EXPOSED times the ring all-reduce of its fp32 gradients over the GPUs' link (NVLink or
PCIe) at the link's peak: the gradient bytes and the link set the cost, not a flat share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.calculator.base import ONE_EPOCH_ASSUMED, Band, Estimate, Family, Metric, Request
from advisor.calculator.factors import generation
from advisor.calculator.interconnect import NETWORKS, PCIE_FORM
from advisor.calculator.memory import GB, capacity_gb
from advisor.calculator.precision import get_precision
from advisor.errors import InvalidInput
from advisor.specs import GPU, TransformerModel, VisionModel

# Fitted by eval/calibration_families.py (least absolute log ratio) to every mapped speed row of
# eval/calibration/workloads.csv (DLE, timm, Lambda and MLPerf rows of the vision and transformer
# families) and the Lambda ResNet-50/BERT/Transformer-XL training rows of the shared
# measured_calibration.csv. (e_compute, e_memory): the share of dense tensor TFLOPS reached, and how
# many times the activations' bytes cross memory per training step at the bandwidth reached (a
# factor, not a share). "cnn-depthwise" is a CNN of low arithmetic intensity (see _kind).
# CNNs and ViTs reach the bound of 1.0 on e_compute: every row of theirs is bound by memory
# traffic, so their compute term is at the full tensor rate. An encoder's and Transformer-XL's
# e_compute is the share an infinitely wide model would reach; GEMM_HALF_WIDTH scales it down.
EFFICIENCY = {
    "cnn": (1.0, 35.95),  # DLE/Lambda/timm ResNet, ConvNeXt rows (W0001-W0032, W0135-W0184, ...)
    "cnn-depthwise": (1.0, 35.19),  # DLE EfficientNet-B0/B4 rows (W0033-W0060, W0293-W0340)
    "vit": (1.0, 25.11),  # timm ViT-B/16, ViT-L/16, Swin-B rows (W0341-W0440)
    "encoder": (0.990, 7.731),  # DLE/Lambda/MLPerf BERT rows (W0079-W0104, W0185-W0274, ...)
    # DLE Transformer-XL rows (W0105-W0134, W0275-W0292) and Lambda's full-softmax large rows
    "transformer-xl": (1.0, 17.52),
}
FP32_COMPUTE_BONUS = 1.332  # non-tensor FP32 (V100, T4, Turing) runs nearer its low peak
TENSORRT_SPEEDUP = 2.980  # TensorRT int8 engines (MLPerf Offline rows W0671-W0741)
# A TensorRT engine's fused layers each still take at least this long (one kernel, however small
# the batch): what bounds batch-1 latency (Ultralytics YOLOv8 A100 and YOLO11 T4 TensorRT rows
# W0772-W0781). A step takes the longer of its batch's time at the speedup and its critical path:
# the layers one after another, each this floor, plus one sample's work at the unbatched rate (a
# lone image does not fill the GPU: the rows' latency grows with the model's FLOPs at about a
# third of the tensor peak). At large batches the batch's time dominates and the path drops out,
# as the MLPerf Offline rows require.
TENSORRT_LAYER_S = 1.221e-5
# per-sample throughput against PyTorch eager (DLE TensorFlow 1 tables; XLA: the same tables' XLA
# columns and the XLA training tables, and DLE's TF1/TF2 BERT training and inference tables,
# whose scripts compile with XLA: see eval/family_rows.py). "pytorch-channels-last" is PyTorch
# with the model and its inputs in channels_last (NHWC) memory format: the same speed except for
# 16-bit convolutions (NCHW_HALF_TRAFFIC)
FRAMEWORK = {
    "pytorch": 1.0,
    "tensorflow": 0.8088,
    "tensorflow-xla": 0.9237,
    "pytorch-channels-last": 1.0,
    "sentence-transformers": 1.0,  # a PyTorch library: its encoders run PyTorch's kernels
}
# A CNN's 16-bit convolutions run on tensor cores in NHWC: with PyTorch's default NCHW tensors,
# cuDNN transposes each convolution's input and output (or picks slower NCHW kernels), so the
# activations cross memory this many times more often. Fitted to the PyTorch DLE ConvNets AMP rows
# (ResNet-50, ResNeXt-101: channels_last, `memory_format: nhwc` in DLE's configs.yml; the
# EfficientNet-B0 training rows W0034-W0040, NHWC by its README) against
# Lambda's AMP rows that run the same DLE code at its default NCHW (lambdal/deeplearning-benchmark
# PyTorch_resnet50_AMP_PARAMS pass no --memory-format) and the other CNN AMP rows. A CNN whose
# pointwise layers are nn.Linear on channels-last tensors (ConvNeXt: Work.linear_pointwise) pays
# none: its only tensor-core convolutions are the stem and three downsampling layers, and its
# depthwise convolutions run on CUDA cores in either layout (timm's NCHW ConvNeXt-T AMP row W0435).
NCHW_HALF_TRAFFIC = 1.199
NHWC_FRAMEWORKS = ("pytorch-channels-last", "tensorflow", "tensorflow-xla")
# A batch-normalised CNN training in NHWC moves this share of the bytes it moves in NCHW, at any
# precision: PyTorch trains batch norm on channels_last tensors in cuDNN's
# CUDNN_BATCHNORM_SPATIAL_PERSISTENT mode (aten/src/ATen/native/cudnn/BatchNorm.cpp,
# getCudnnBatchNormMode: training and ChannelsLast; plain SPATIAL otherwise, inference included),
# whose forward and backward kernels keep a channel's slice on chip and read each activation once
# instead of once for the statistics and again to normalise; XLA fuses batch norm with its ReLU and
# residual add. Batch norm and its neighbours are most of a ResNet's memory traffic, and only
# training computes batch statistics, so inference pays the full traffic in either layout.
# ConvNeXt (linear_pointwise) normalises with LayerNorm and gains nothing (timm: 819 images/s in
# NHWC, W0835, against 813 in NCHW, W0435); in a depthwise CNN (EfficientNet) the depthwise
# convolutions, SiLU and squeeze-excitation kernels move most of the bytes, and its NHWC gain is
# NCHW_HALF_TRAFFIC's alone (timm EfficientNet-B0 1.20x, W0833 vs W0433). Fitted to the NHWC
# dense-CNN training rows (DLE PyTorch ResNet-50 and ResNeXt-101 AMP rows in channels_last, DLE
# TF ResNet-50 XLA rows at every precision, timm's channels_last ResNet-50/101/152 rows
# W0834-W0837) against the same code run in NCHW (DLE's TF32/FP32 rows, Lambda's runs of the DLE
# code, timm's NCHW rows): on one card the same code trains ResNet-50 AMP 1.44x (V100, W0006 vs
# W0623), 1.47x (RTX 3090, timm W0834 vs W0434) and 1.56x (A100 80GB, W0002 vs W0632) faster in
# NHWC.
NHWC_TRAIN_TRAFFIC = 0.6440
# TensorFlow 1's automatic mixed precision is a graph rewrite: Softmax is on its deny list, so the
# attention scores stay fp32 with casts inserted around the softmax, and AMP halves only the other
# activations' bytes. XLA fuses the casts into the softmax kernel; apex O2 (DLE's PyTorch
# Transformer-XL) runs the softmax on 16-bit tensors. Why DLE's TF1 Transformer-XL gains 4-6%
# from AMP on A100 against PyTorch's 44-49% (W0275-W0284 against W0105-W0108); no constant is
# fitted for it.
FP32_SOFTMAX_FRAMEWORKS = ("tensorflow",)
# The same rewrite keeps every op off its allow list in fp32 unless all its inputs are already
# 16-bit, and its casts run as kernels of their own: this share of an AMP step's time still runs
# at the GPU's 32-bit rate (TF32 where the card has it, else FP32 without tensor cores, which is
# why TF1 AMP gains least on V100). Fitted to the TensorFlow (non-XLA) AMP rows: DLE's TF1
# Transformer-XL training rows (W0276-W0292, which alone would take more) and the TF1 ConvNets
# AMP inference rows (which hold it down).
TF_AMP_FP32_SHARE = 0.03613
# fixed time per weight layer per forward pass (kernel launches, framework dispatch): what bounds
# small batches (DLE batch-1 and batch-8 inference rows, Transformer-XL batch 2). A TensorRT engine
# runs fused layers from one launch and pays none.
LAYER_LAUNCH_S = {"pytorch": 1.220e-4, "tensorflow": 7.900e-5, "tensorflow-xla": 6.782e-5}
# the framework whose launches a layout or a library runs on
RUNS_ON = {"pytorch-channels-last": "pytorch", "sentence-transformers": "pytorch"}
CNN_KINDS = ("cnn", "cnn-depthwise")
TRAIN_LAUNCHES = 4.096  # a training step launches this many forward passes' worth per layer
INFERENCE_MEMORY_SHARE = 0.2467  # a forward pass moves this share of a training step's bytes
# How many times more often a transformer's attention scores (heads x sequence x keys per token)
# cross memory than its other activations: unfused attention writes the scores, the softmax and
# its dropout mask and output, and the backward pass reads each back. Fitted to the transformer
# rows at sequence lengths 128-512 (DLE BERT pre-training at 128 against SQuAD at 384, Lambda
# BERT-base against BERT-large at 384, Transformer-XL at 192-384): with the scores weighted as any
# other activation, longer sequences and narrower models came out too fast.
SCORE_TRAFFIC = 1.626
# A transformer's matrix products reach width / (width + GEMM_HALF_WIDTH) of e_compute: narrower
# matrices (BERT-base's 768 against BERT-large's 1024, Transformer-XL base's 512) run fewer,
# shorter tiles per kernel. Fitted to the same transformer rows (Lambda BERT-base against
# BERT-large, DLE Transformer-XL base against large): BERT-large reaches 0.66 of e_compute,
# BERT-base 0.59, Transformer-XL base 0.49.
GEMM_HALF_WIDTH = 410.5
# How fully each GPU generation runs these kernels, against Ampere HBM parts (A100, A30): clocks
# under load, caches (Ada's 72-96 MB L2), and for Blackwell the host side that feeds it.
GENERATION = {
    "Volta": 1.095,  # V100 rows (DLE, Lambda; DLE's DGX-2/DGX-2H V100 SXM3 rows included)
    "Turing": 0.9236,  # T4 and Quadro RTX 8000 rows
    "Ampere-HBM": 1.0,
    "Ampere": 1.181,  # RTX 3090, A10, RTX A4500-A6000 rows
    "Ada Lovelace": 1.408,  # RTX 4090, RTX 6000 Ada, L4, L40(S) rows
    "Hopper": 1.033,  # H100, H200, GH200 rows
    "Blackwell": 0.9890,  # B200, RTX 5090, RTX PRO 6000 rows
}
# Data parallel, fitted to the 8-GPU DLE and Lambda training rows against their 1-GPU rows: a
# flat loss per step (input pipeline, synchronisation) and the seconds a step waits per second of
# ideal ring all-reduce at the link's peak (allreduce_seconds): the share of the all-reduce the
# backward pass does not hide, over the share of the link's bandwidth NCCL reaches. The second is
# what makes the large models (BERT-large, Transformer-XL) at small per-GPU batches scale worst
# (DLE V100 Transformer-XL AMP at batch 2-4: 74-82% of linear) and the CNNs (25M parameters)
# scale alike on any link.
DATA_PARALLEL_EFFICIENCY = 0.9452
ALLREDUCE_EXPOSED = 1.088
PCIE_GBS = {3: 16.0, 4: 32.0, 5: 64.0, 6: 128.0}  # per direction, x16
TRAIN_BYTES_PER_PARAM = {"sgd": 12.0, "adamw": 16.0, "lamb": 16.0}  # fp32 weights+grads+states
# elements kept for backward per forward activation element (a CNN keeps the BN and ReLU
# outputs besides each conv's; the transformer count is already Korthikanti's saved set)
SAVED_PER_ACTIVATION = {
    "cnn": 2.0,
    "cnn-depthwise": 2.0,
    "vit": 1.5,
    "encoder": 1.0,
    "transformer-xl": 1.0,
}
RUNTIME_GB = 1.0  # CUDA context, cuDNN workspaces
NET_BAND = (0.8, 1.2)
# Below this many GMACs per million activation elements a CNN is built of depthwise and 1x1
# convolutions (EfficientNet 0.06-0.09, MobileNet; ResNets and ConvNeXt 0.3-0.4): thin layers
# that reach a smaller share of bandwidth than dense convolutions do.
DEPTHWISE_INTENSITY = 0.15
DEFAULT_LAYERS = 54  # a vision model whose layer count is not recorded: ResNet-50's
BLOCK_LAYERS = 6  # weight layers of a transformer block: query, key, value, output, two FFN


@dataclass(frozen=True)
class Work:
    flops: float  # per sample, training or inference
    activation_elems: float  # forward activation elements per sample
    tokens: int  # tokens per sample (1 for images)
    kind: str  # a key of EFFICIENCY
    layers: int  # weight layers: kernels per forward pass
    score_elems: float = 0.0  # of the activations, attention scores (see SCORE_TRAFFIC)
    width: int = 0  # a transformer's hidden size (see GEMM_HALF_WIDTH); 0 for images
    linear_pointwise: bool = (
        False  # a CNN whose pointwise layers are Linear (see NCHW_HALF_TRAFFIC)
    )


def work(model: Any, request: Request, training: bool) -> Work:
    """FLOPs and activations of one sample at the requested resolution or sequence length."""
    factor = 3 if training else 1
    if isinstance(model, VisionModel):
        res = request.resolution or model.resolution
        scale = (res / model.resolution) ** 2
        acts = (model.activations_m or model.gmacs * 2.7) * 1e6 * scale
        flops = factor * 2 * model.gmacs * 1e9 * scale
        layers = model.layers or DEFAULT_LAYERS
        return Work(flops, acts, 1, _kind(model), layers, linear_pointwise=model.linear_pointwise)
    assert isinstance(model, TransformerModel)
    seq = _seq(model, request)
    memory = _memory_len(model, request)
    h, layers = model.hidden_size, model.num_layers
    # the blocks' weight matrices (query, key, value, output, two FFN), counted from the shapes:
    # the parameter count less a vocab x hidden embedding is wrong for an adaptive input (div_val
    # 4 in Transformer-XL Large keeps its 268k-token embedding at 38M, not 274M)
    dense = layers * (4 * h * h + 2 * h * model.intermediate_size)
    # attention's matrix products over the keys: scores and weighted values; Transformer-XL's
    # relative attention adds a third, the queries against the relative position embeddings
    products = 3 if model.architecture == "transformer-xl" else 2
    # the output layer: each token's hidden state times the softmax's logits (a language model's;
    # a fine-tuning head's few outputs are left out), which it also writes and reads back
    logits = model.softmax_logits
    flops = factor * (2 * dense + 2 * products * layers * (seq + memory) * h + 2 * h * logits) * seq
    scores = layers * seq * 2.5 * model.num_attention_heads * (seq + memory)
    acts = layers * seq * 17 * h + scores + seq * logits
    return Work(flops, acts, seq, model.architecture, layers * BLOCK_LAYERS, scores, h)


def _kind(model: VisionModel) -> str:
    if model.architecture != "cnn":
        return "vit"  # ViTs and hybrids (Swin, CvT) share the transformer's efficiency
    intensity = model.gmacs / (model.activations_m or model.gmacs * 2.7)
    return "cnn-depthwise" if intensity < DEPTHWISE_INTENSITY else "cnn"


ENCODER_SEQ = 128  # tokens an encoder's sequence is sized at when none is said


def _seq(model: TransformerModel, request: Request) -> int:
    """Transformer-XL trains on its segment length; an encoder on 128 tokens unless told. An
    encoder stops at its position embeddings; Transformer-XL's positions are relative, so any
    segment length runs (NVIDIA's recipes train the base model on 192, the paper on 150)."""
    if model.architecture == "transformer-xl":
        return request.context or model.max_seq
    return min(request.context or ENCODER_SEQ, model.max_seq)


def _memory_len(model: TransformerModel, request: Request) -> int:
    """Transformer-XL's recurrence memory: as long as the segment in every published training
    recipe (the paper's 150/150 and 384/384, NVIDIA's 192/192), so a segment length given sets
    both; the catalog's mem_len otherwise."""
    if model.architecture != "transformer-xl":
        return 0
    return request.context or model.mem_len or model.max_seq


def _rate(gpu: GPU, precision: str) -> tuple[float, float]:
    """(peak TFLOPS the precision computes at, bytes per activation element)."""
    fp32 = gpu.fp32_tflops or (gpu.fp16_bf16_dense_tflops or 1.0) / 4
    if precision in ("fp16", "bf16"):
        return (gpu.fp16_bf16_dense_tflops or fp32 * 2), 2.0
    if precision == "tf32":
        return (gpu.tf32_dense_tflops or fp32), 4.0
    if precision == "int8":
        return (gpu.int8_dense_tops or gpu.fp16_bf16_dense_tflops or fp32), 1.0
    if precision == "fp8":
        return (gpu.fp8_dense_tflops or gpu.fp16_bf16_dense_tflops or fp32), 1.0
    return fp32 * FP32_COMPUTE_BONUS, 4.0


def seconds_per_sample(
    w: Work,
    gpu: GPU,
    precision: str,
    training: bool,
    channels_last: bool = False,
    fp32_scores: bool = False,
) -> float:
    """Compute and memory time of one sample, beside the per-step overheads. `fp32_scores`: the
    attention scores stay 4-byte whatever the precision (FP32_SOFTMAX_FRAMEWORKS)."""
    e_compute, e_memory = EFFICIENCY[w.kind]
    peak, elem_bytes = _rate(gpu, precision)
    if w.width:
        e_compute *= w.width / (w.width + GEMM_HALF_WIDTH)
    compute = w.flops / (peak * 1e12 * e_compute)
    score_bytes = 4.0 if fp32_scores else elem_bytes
    traffic = (w.activation_elems - w.score_elems) * elem_bytes
    traffic += SCORE_TRAFFIC * w.score_elems * score_bytes
    memory = traffic * e_memory / (gpu.bandwidth_gbs * 1e9)
    memory *= 1.0 if training else INFERENCE_MEMORY_SHARE
    nchw = w.kind in CNN_KINDS and not (channels_last or w.linear_pointwise)
    if nchw and precision in ("fp16", "bf16"):
        memory *= NCHW_HALF_TRAFFIC
    if training and channels_last and w.kind == "cnn" and not w.linear_pointwise:
        memory *= NHWC_TRAIN_TRAFFIC
    return (compute + memory) / GENERATION.get(generation(gpu.architecture, gpu.memory_type), 1.0)


def samples_per_s(model: Any, request: Request, gpu: GPU, precision: str) -> float:
    """Samples per second, all GPUs together: batch x per-sample time, plus each step's kernel
    launches and optimizer update, plus the gradient all-reduce that the backward pass does not
    hide (typical figure; estimate() puts the band around it)."""
    step, waiting = step_seconds(model, request, gpu, precision)
    return request.num_gpus * request.batch / (step + waiting)


def step_seconds(model: Any, request: Request, gpu: GPU, precision: str) -> tuple[float, float]:
    """One step's seconds on each GPU: its work (with data parallel's flat loss), and the time it
    waits on the link for the gradient all-reduce the backward pass does not hide (0 on one GPU
    or in inference)."""
    training = request.workload != "inference"
    framework = request.framework or "pytorch"
    w = work(model, request, training)
    # TensorRT picks its own tensor layouts; TensorFlow computes in NHWC by default (its
    # data_format, and DLE's TF ConvNets' --data_format default, is NHWC), so only PyTorch's
    # default NCHW pays the transposes
    nhwc = framework in NHWC_FRAMEWORKS or request.engine == "tensorrt"
    fp32_scores = framework in FP32_SOFTMAX_FRAMEWORKS and precision in ("fp16", "bf16")
    sample = seconds_per_sample(w, gpu, precision, training, nhwc, fp32_scores)
    if fp32_scores:  # TensorFlow 1 AMP: a share of the work stays 32-bit (TF_AMP_FP32_SHARE)
        wide = seconds_per_sample(w, gpu, "tf32" if gpu.tf32_dense_tflops else "fp32", training)
        sample += TF_AMP_FP32_SHARE * (wide - sample)
    step = request.batch * sample
    if request.engine == "tensorrt" and not training:
        return max(step / TENSORRT_SPEEDUP, w.layers * TENSORRT_LAYER_S + sample), 0.0
    launch = LAYER_LAUNCH_S[RUNS_ON.get(framework, framework)]
    step += w.layers * (TRAIN_LAUNCHES if training else 1) * launch
    step /= FRAMEWORK[framework]
    if training:  # the optimizer reads and writes its states once per step
        states = TRAIN_BYTES_PER_PARAM[_optimizer(model)] * model.params
        step += 2 * states / (gpu.bandwidth_gbs * 1e9)
    n = request.num_gpus
    if training and n > 1:
        # AMP keeps fp32 master weights, so data parallel all-reduces fp32 gradients whatever
        # precision the matrices multiply in
        grad_bytes = 4.0
        comm = allreduce_seconds(model.params, gpu, n, grad_bytes, request.interconnect,
                                 request.nodes, request.network)  # fmt: skip
        return step / DATA_PARALLEL_EFFICIENCY, ALLREDUCE_EXPOSED * comm
    return step, 0.0


def _optimizer(model: Any) -> str:
    return "sgd" if isinstance(model, VisionModel) and model.architecture == "cnn" else "adamw"


def link_gbs(
    gpu: GPU,
    num_gpus: int,
    interconnect: str | None = None,
    nodes: int = 1,
    network: str | None = None,
) -> tuple[float, str]:
    """Per-direction GB/s between GPUs for a ring all-reduce, and how they are linked (PCIe when
    `interconnect` says "pcie", though the cards have NVLink); over several `nodes`, the
    `network` between them where it is the slower hop."""
    inside, how = _link_inside(gpu, num_gpus // max(nodes, 1), interconnect)
    if nodes <= 1:
        return inside, how
    if network is None or network not in NETWORKS:
        raise InvalidInput(f"Say the network between the {nodes} nodes: one of "
                           f"{', '.join(NETWORKS)}.")  # fmt: skip
    _kind, gbit, label = NETWORKS[network]
    between = gbit / 8
    if num_gpus // nodes > 1 and inside < between:
        return inside, f"{how} inside each node, {label} between {nodes} nodes"
    return between, f"{label} between {nodes} nodes"


def _link_inside(gpu: GPU, num_gpus: int, interconnect: str | None) -> tuple[float, str]:
    pcie = PCIE_GBS.get(gpu.pcie_gen or 4, 32.0) * (gpu.pcie_lanes or 16) / 16
    if interconnect == "pcie":
        return pcie, f"PCIe Gen {gpu.pcie_gen or 4}"
    slot = PCIE_FORM.fullmatch(interconnect or "")
    if slot and slot.group("lanes"):  # "pcie3-x8": the slot said, at most the card's own
        gen = min(int(slot.group("gen") or gpu.pcie_gen or 4), gpu.pcie_gen or 4)
        lanes = min(int(slot.group("lanes")), gpu.pcie_lanes or 16)
        return PCIE_GBS.get(gen, 32.0) * lanes / 16, f"PCIe Gen {gen} x{lanes}"
    if gpu.gpu_link == "switch" and gpu.gpu_link_gbs:
        return gpu.gpu_link_gbs / 2, "NVLink/fabric"
    if gpu.gpu_link == "bridge" and gpu.gpu_link_gbs and num_gpus == 2:
        return gpu.gpu_link_gbs / 2, "NVLink bridge"
    return pcie, f"PCIe Gen {gpu.pcie_gen or 4}"


def allreduce_seconds(
    params: int,
    gpu: GPU,
    num_gpus: int,
    grad_bytes: float,
    interconnect: str | None = None,
    nodes: int = 1,
    network: str | None = None,
) -> float:
    if num_gpus == 1:
        return 0.0
    bandwidth, _how = link_gbs(gpu, num_gpus, interconnect, nodes, network)
    return 2 * (num_gpus - 1) / num_gpus * params * grad_bytes / (bandwidth * 1e9)


# ---------------------------------------------------------------- the estimate


def estimate(request: Request, model: Any, gpu: GPU, catalog: Any, notes: list[str]) -> Estimate:
    training = request.workload != "inference"
    precision = _precision(request, gpu, training, notes)
    engine = request.engine or "pytorch"
    framework = request.framework or "pytorch"
    if framework not in FRAMEWORK:
        raise InvalidInput(f"Framework must be one of {', '.join(FRAMEWORK)} for {model.name}.")
    w = work(model, request, training)
    n = request.num_gpus
    batch = request.batch
    step, waiting = step_seconds(model, request, gpu, precision)
    rate = n * batch / (step + waiting)
    how = None
    if training and n > 1:
        _bw, how = link_gbs(gpu, n, request.interconnect, request.nodes, request.network)
        notes.append(
            f"data parallel over {n} GPUs: gradients all-reduced over {how} each step, "
            f"{100 * waiting / (step + waiting):.0f}% of the step waiting on it"
        )
    mem = _memory(model, w, request, precision, training)
    usable = capacity_gb(gpu) * (0.92 if training else 0.97)
    total = sum(mem.values())
    samples = Band.around(rate, NET_BAND)
    tokens = samples.scaled(w.tokens) if w.tokens > 1 else None
    hours = _job_hours(request, samples, tokens, notes, training)
    notes.append(
        f"{'training' if training else 'inference'} at {precision}"
        + (" (AMP mixed precision)" if precision in ("fp16", "bf16") and training else "")
        + f", batch {batch} per GPU, {framework}; speed from {w.flops / 1e9:,.1f} GFLOPs and "
        f"{w.activation_elems / 1e6:,.1f}M activations per sample on the card's tensor rate and "
        "memory bandwidth"
    )
    if isinstance(model, TransformerModel) and not request.context:
        notes.append(f"sequence length not given: {w.tokens} tokens assumed")
    return Estimate(
        model=model.id,
        model_name=model.name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        num_gpus=n,
        workload=request.workload,
        precision=precision,
        engine=engine if not training else None,
        context=w.tokens if w.tokens > 1 else 0,
        batch=batch,
        fits=total <= usable,
        memory_per_gpu_gb=total,
        usable_memory_per_gpu_gb=usable,
        headroom_gb=usable - total,
        breakdown_gb=mem,
        assumptions=notes,
        family=_family(model),
        train_samples_per_s=samples.to_dict() if training else None,
        infer_samples_per_s=None if training else samples.to_dict(),
        train_tokens_per_s=tokens.to_dict() if tokens and training else None,
        job_hours=hours,
        interconnect=how,
        link_wait_share=waiting / (step + waiting) if how else None,
        resolution=(request.resolution or model.resolution)
        if isinstance(model, VisionModel)
        else None,
    )


def _family(model: Any) -> str:
    return "vision" if isinstance(model, VisionModel) else "transformer"


def _precision(request: Request, gpu: GPU, training: bool, notes: list[str]) -> str:
    if request.precision:
        name = get_precision(request.precision).name
        allowed = ("fp32", "tf32", "fp16", "bf16") + (() if training else ("int8", "fp8"))
        if name not in allowed:
            raise InvalidInput(f"Use one of {', '.join(allowed)} for this model (got {name}).")
        return name
    default = "fp16" if gpu.fp16_bf16_dense_tflops else "fp32"
    notes.append(
        f"precision not given: {default}" + (" (AMP)" if default == "fp16" else "") + " assumed"
    )
    return default


def _memory(
    model: Any, w: Work, request: Request, precision: str, training: bool
) -> dict[str, float]:
    elem = 2.0 if precision in ("fp16", "bf16") else 1.0 if precision in ("int8", "fp8") else 4.0
    batch = request.batch
    if training:
        states = model.params * TRAIN_BYTES_PER_PARAM[_optimizer(model)]
        activations = w.activation_elems * SAVED_PER_ACTIVATION[w.kind] * elem * batch
        return {
            "weights": model.params * 4 / GB,
            "gradients": model.params * 4 / GB,
            "optimizer_states": (states - 8 * model.params) / GB,
            "activations": activations / GB,
            "runtime_overhead": RUNTIME_GB,
        }
    live = w.activation_elems * 0.5
    if isinstance(model, TransformerModel):
        # no autograd: each layer's activations are freed as the next layer runs, so the peak
        # holds one layer's, its input and output live at once (twice its share of the
        # non-score activations) and one layer's attention scores, not every layer's (an
        # encoder at 512 tokens and batch 32 held 14 GB of inference activations before)
        per_layer = (w.activation_elems - w.score_elems) / model.num_layers
        live = 2 * per_layer + w.score_elems / model.num_layers
    return {
        "weights": model.params * elem / GB,
        "activations": live * elem * batch / GB,
        "runtime_overhead": RUNTIME_GB,
    }


def _job_hours(
    request: Request, samples: Band, tokens: Band | None, notes: list[str], training: bool = True
) -> dict[str, float] | None:
    """Hours for the job: epochs of dataset_samples, or for a language model a token budget
    (train_tokens, or epochs of dataset_tokens) at its tokens per second; inference makes one
    pass over dataset_samples ("embed 50 million images")."""
    if not training:
        if request.dataset_samples is None:
            return None
        notes.append(f"job: one pass over {request.dataset_samples:,.0f} samples")
        return samples.inverse().scaled(request.dataset_samples / 3600).to_dict()
    budget = request.train_tokens
    if request.dataset_tokens is not None:
        budget = request.dataset_tokens * (request.epochs or 1.0)
    if request.dataset_samples is None and budget is not None and tokens is not None:
        notes.append(f"job: {budget:,.0f} training tokens")
        return tokens.inverse().scaled(budget / 3600).to_dict()
    if request.dataset_samples is None:
        return None
    epochs = request.epochs or 1.0
    if request.epochs is None:  # "train resnet-50 on imagenet": one pass, said as assumed
        notes.append(ONE_EPOCH_ASSUMED)
    total = request.dataset_samples * epochs
    notes.append(f"job: {epochs:g} epoch(s) of {request.dataset_samples:,.0f} samples")
    return samples.inverse().scaled(total / 3600).to_dict()


_SAMPLES = ("per million samples", 1e6)
VISION = Family(
    name="vision",
    label="image model",
    table="workloads/vision",
    model_cls=VisionModel,
    workloads={"train": "training", "inference": "inference", "finetune-full": "fine-tuning"},
    metrics={
        "train": (Metric("train_samples_per_s", "training throughput", "images/s", _SAMPLES),),
        "finetune-full": (
            Metric("train_samples_per_s", "training throughput", "images/s", _SAMPLES),
        ),
        "inference": (Metric("infer_samples_per_s", "inference throughput", "images/s", _SAMPLES),),
    },
    engines=("pytorch", "tensorrt", "onnxruntime"),
    frameworks=tuple(FRAMEWORK),
    precisions={
        "train": ("fp16", "bf16", "tf32", "fp32"),
        "finetune-full": ("fp16", "bf16", "tf32", "fp32"),
        "inference": ("fp16", "bf16", "int8", "fp8", "tf32", "fp32"),
    },
    estimate=estimate,
    reference_model="resnet-50",
    # DeepLearningExamples trains ResNet-50 at 256 per GPU on 80 GB and 16 GB cards alike (AMP);
    # 128 also leaves room for the larger ViTs on a 24 GB card
    default_batch=(("train", 128), ("finetune-full", 128), ("inference", 64)),
    words=(
        r"\bresnet",
        r"\bvit\b",
        r"\bcnns?\b",
        r"\bconv ?nets?\b",
        r"\bimage classification\b",
        r"\bcomputer vision\b",
        r"\bvision (?:models?|tasks?|work(?:loads?)?|training)\b",
        r"\bimage (?:classifiers?|segmentation|models? training)\b",
        r"\bobject detection\b",
        r"\byolo",
        r"\bimagenet\b",
        r"\bcoco\b",
        r"\bconvnext\b",
        r"\befficientnet\b",
        r"\bdetector\b",
        r"\bcv\b",
    ),
    examples=(
        "How long does ResNet-50 take for 90 ImageNet epochs on 8 A100s?",
        "A4000 or A5000 for TensorFlow training?",
    ),
)
TRANSFORMER = Family(
    name="transformer",
    label="BERT-style transformer",
    table="workloads/transformer",
    model_cls=TransformerModel,
    workloads={"train": "training", "inference": "inference", "finetune-full": "fine-tuning"},
    metrics={
        "train": (
            Metric("train_samples_per_s", "training throughput", "sequences/s", _SAMPLES),
            Metric("train_tokens_per_s", "training throughput", "tokens/s"),
        ),
        "finetune-full": (
            Metric("train_samples_per_s", "fine-tuning throughput", "sequences/s", _SAMPLES),
        ),
        "inference": (
            Metric("infer_samples_per_s", "inference throughput", "sequences/s", _SAMPLES),
        ),
    },
    engines=("pytorch", "tensorrt", "onnxruntime"),
    frameworks=tuple(FRAMEWORK),
    precisions={
        "train": ("fp16", "bf16", "tf32", "fp32"),
        "finetune-full": ("fp16", "bf16", "tf32", "fp32"),
        "inference": ("fp16", "bf16", "int8", "fp8", "tf32", "fp32"),
    },
    estimate=estimate,
    reference_model="bert-large",
    # BERT fine-tuning recipes (SQuAD, GLUE) use 16-32 sequences per GPU
    default_batch=(("train", 32), ("finetune-full", 32), ("inference", 64)),
    words=(
        r"\bbert\b",
        r"\broberta\b",
        r"\bdeberta\b",
        r"\bdistilbert\b",
        r"\bsquad\b",
        r"\bsst-?2\b",
        r"\bglue\b",
        r"\btransformer-?xl\b",
        r"\btext classification\b",
        # "pytorch training of mid-size transformers" (not the Hugging Face library)
        r"\btrain\w*\s(?:of\s)?(?:(?:small|mid|medium|mid-?size|mid-?sized|custom|our own|our|my)"
        r"\s)?transformers?(?: models?)?\b(?!\s?(?:library|lib|trainer|package))",
    ),
    examples=("How fast does BERT-large fine-tune on an A100 vs a V100?",),
)
