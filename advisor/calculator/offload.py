"""DeepSpeed ZeRO-Offload: a full fine-tune's optimizer (and, under ZeRO-3, its parameters) kept
in the host's RAM, with Adam stepped on the CPU. Pure functions.

`offload_optimizer` (ZeRO-2 or 3, the ZeRO-Offload paper, arXiv 2101.06840): the fp32 master
weights, the Adam moments and an fp32 copy of each rank's gradient partition live in host RAM;
backward sends each rank's reduced 16-bit gradient partition down PCIe, DeepSpeedCPUAdam steps
it on the CPU, and the updated 16-bit weights go back up (4 bytes per parameter across PCIe a
step, paper section 4.1). `offload_param` (ZeRO-3 only, ZeRO-Infinity, arXiv 2104.07857): the
16-bit weights stay in host RAM too and every pass fetches each layer's partition up PCIe
before gathering it; the GPU keeps only the layers being gathered and the prefetch buffers.

Where each figure comes from (github:deepspeedai/DeepSpeed @edaa722, deepspeed/runtime/zero/
stage3.py, stage_1_and_2.py):
- with offload_optimizer ZeRO-3 sets its device to the CPU (`self.device = ... if not
  self.offload_optimizer else OffloadDeviceEnum.cpu`): the fp32 partitions, the fp32 gradient
  of each sub-group (`subgroup_gradient_buffer`, gradient_dtype fp32) and the flat buffer of
  16-bit gradient partitions (`grad_partitions_flat_buffer`) are all allocated there;
- with offload_param the 16-bit partitions are copied into pinned host buffers
  (`param_groups_fp16_flat_cpu_memory`) instead of the GPU's flat buffer;
- DeepSpeed's own estimator (estimate_zero3_model_states_mem_needs,
  estimate_zero2_model_states_mem_needs) counts 16 bytes per parameter of host RAM with
  offload_optimizer and 18 with offload_param too, and multiplies by additional_buffer_factor
  1.5 for pinned staging buffers; it leaves out ZeRO-3's 16-bit gradient buffer, counted here.
"""

from __future__ import annotations

import math
from statistics import median

from advisor.calculator.interconnect import NODE_GPUS, PCIE_LANE_GBS
from advisor.specs import GPU

# host RAM per trainable parameter with the optimizer offloaded: fp32 master weights 4 + Adam's
# two fp32 moments 8 + the fp32 gradient the CPU steps from 4 (DeepSpeed's estimator: 16)
HOST_OPTIMIZER_BYTES = 16.0
# ZeRO-3 also keeps each rank's 16-bit gradient partitions in host RAM (grad_partitions_flat_buffer
# on self.device, the CPU when the optimizer is offloaded)
ZERO3_HOST_GRAD_BYTES = 2.0
# offload_param: the 16-bit weights' partitions in pinned host buffers
HOST_PARAM_BYTES = 2.0
# what DeepSpeed's estimators multiply the host figure by for staging buffers
# (additional_buffer_factor=1.5): said beside the figure, not added to it
ESTIMATOR_BUFFER_FACTOR = 1.5
# bytes one CPU Adam step moves per parameter: reads the fp32 weight, gradient and two moments
# (16), writes the weight and the moments (12) and the 16-bit copy sent to the GPU (2); the same
# 30 the GPU's AdamW step is charged in throughput.train_tokens_per_s
CPU_ADAM_BYTES = 30.0
# ZeRO-Offload paper Table 4: DeepSpeedCPUAdam's step (seconds) on 1, 2, 4, 8 and 10 billion
# parameters, on the DGX-2's two Xeon Platinum 8168 (Table 2: 1.5 TB of DDR4-2666; six channels
# a socket, Intel's datasheet): 12 channels x 2666 MT/s x 8 bytes = 256 GB/s theoretical
CPU_ADAM_TABLE4 = ((1e9, 0.22), (2e9, 0.51), (4e9, 1.03), (8e9, 2.41), (10e9, 2.57))
DGX2_HOST_GBS = 12 * 2666 * 8 / 1000
# the share of the host RAM's theoretical bandwidth CPU Adam reaches: the median rate of Table 4
# (3.89e9 parameters/s at 10B) x 30 bytes over 256 GB/s = 0.46. Adam's few flops a parameter
# leave it bound by memory, not by the 48 cores' AVX-512 units
CPU_ADAM_BANDWIDTH_SHARE = (
    median(p / s for p, s in CPU_ADAM_TABLE4) * CPU_ADAM_BYTES / 1e9 / DGX2_HOST_GBS
)
# the share of a GPU's PCIe link a host<->GPU copy reaches: ZeRO-Infinity section 5 puts
# reading from CPU memory into a single GPU at "about 10-12 GB/s" on the DGX-2's PCIe 3.0 x16
OFFLOAD_PCIE_SHARE = 12 / (16 * PCIE_LANE_GBS[3])
# bytes per parameter across PCIe a step: the 16-bit gradients down, the 16-bit weights back up
# (ZeRO-Offload section 4.1: 2M + 2M); with offload_param each pass fetches the weights instead
OFFLOAD_GRAD_BYTES = 2.0
OFFLOAD_PARAM_BYTES = 2.0


def check(zero_stage: int, offload_optimizer: bool, offload_param: bool) -> str | None:
    """What is wrong with the offload asked at this ZeRO stage, or None."""
    if offload_param and zero_stage != 3:
        return "Parameter offload (offload_param) is ZeRO-3's: use ZeRO stage 3."
    if offload_optimizer and zero_stage < 2:
        return "Optimizer offload (offload_optimizer) is modelled for ZeRO-2 and ZeRO-3."
    return None


def host_bytes_per_param(zero_stage: int, offload_optimizer: bool, offload_param: bool) -> float:
    """Host RAM per trainable parameter (over all ranks) for what the GPUs do not keep."""
    total = 0.0
    if offload_optimizer:
        total += HOST_OPTIMIZER_BYTES + (ZERO3_HOST_GRAD_BYTES if zero_stage == 3 else 0.0)
    if offload_param:
        total += HOST_PARAM_BYTES
    return total


def ranks_per_host(num_gpus: int) -> int:
    """The GPUs one machine holds (a node of NODE_GPUS), whose ranks share its RAM and CPU."""
    return max(1, min(num_gpus, NODE_GPUS))


def host_link_gbs(gpu: GPU) -> float:
    """One GPU's PCIe link to the host, per direction, as copies reach it."""
    gen, lanes = gpu.pcie_gen or 4, gpu.pcie_lanes or 16
    return PCIE_LANE_GBS.get(gen, PCIE_LANE_GBS[4]) * lanes * OFFLOAD_PCIE_SHARE


def cpu_adam_seconds(params: float, num_gpus: int, host_gbs: float) -> float:
    """One CPU Adam step over `params` trainable parameters: every machine steps its ranks'
    share at once, from one RAM (`host_gbs` theoretical GB/s)."""
    machines = math.ceil(num_gpus / NODE_GPUS)
    return params / machines * CPU_ADAM_BYTES / (host_gbs * 1e9 * CPU_ADAM_BANDWIDTH_SHARE)


def step_seconds(
    held: float,
    params: float,
    *,
    num_gpus: int,
    gpu: GPU,
    host_gbs: float,
    compute_s: float,
    fetches: int,
    offload_optimizer: bool,
    offload_param: bool,
) -> float:
    """What offloading adds to a step whose forward and backward take `compute_s`: the
    gradients down PCIe where backward (two thirds of the compute) does not hide them, then
    CPU Adam with the updated weights going back up beside it (tile by tile, section 5.1);
    with the weights offloaded, each of the `fetches` passes brings this rank's `held`
    parameters up, prefetched under the compute."""
    link = host_link_gbs(gpu) * 1e9
    extra = 0.0
    if offload_optimizer:
        down = held * OFFLOAD_GRAD_BYTES / link
        extra += max(0.0, down - 2 / 3 * compute_s)
        adam = cpu_adam_seconds(params, num_gpus, host_gbs)
        up = 0.0 if offload_param else held * OFFLOAD_PARAM_BYTES / link
        extra += max(adam, up)
    if offload_param:
        extra += max(0.0, fetches * held * OFFLOAD_PARAM_BYTES / link - compute_s)
        if not offload_optimizer:  # the GPU's step writes the updated weights back down
            extra += held * OFFLOAD_PARAM_BYTES / link
    return extra
