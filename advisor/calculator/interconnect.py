"""How a request's GPUs talk to each other, and what a tensor-parallel all-reduce costs over it.

The link is data (advisor/data/gpus: `gpu_link`, `gpu_link_gbs`, `pcie_gen`, `pcie_lanes`,
`pcie_p2p`, each row with its `link_source`), narrowed by what the request says:

- switch: NVLink/NVSwitch (or Infinity Fabric) joining every GPU of an SXM/OAM board;
- bridge: an NVLink bridge is an optional part joining pairs of PCIe cards. It is used only when
  the request says NVLink, or for a card sold as a bridged pair (the H100 NVL), and never beyond
  two GPUs (a ring over four crosses PCIe);
- pcie: peer-to-peer over the slot's PCIe generation and lanes; GeForce 40/50 cards have
  peer-to-peer disabled, so their traffic goes down to host memory and back up (half the rate).

A ring all-reduce of B bytes over n GPUs moves 2(n-1)/n x B per GPU at the link's bandwidth, plus
a fixed latency per collective that depends on the link kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import InvalidInput
from advisor.specs import GPU

# PCIe bandwidth per lane and direction in GB/s after encoding (PCI-SIG: 8, 16, 32, 64 GT/s)
PCIE_LANE_GBS = {3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}
INTERCONNECTS = ("auto", "nvlink", "pcie")
# PCIe as the slot or riser actually gives it: "pcie-x1" (a mining riser), "pcie3-x8", "pcie4"
PCIE_FORM = re.compile(r"pcie(?P<gen>[3-6])?(?:-x(?P<lanes>1|2|4|8|16))?")
INTERCONNECT_HELP = (
    "auto, nvlink or pcie; pcie with the slot's generation and lanes where they are less than "
    "the card's: pcie-x1, pcie3-x8, pcie4-x4"
)
# GPUs one NVLink/NVSwitch (or Infinity Fabric) domain joins: the 8 of an HGX, DGX or OAM board.
# A serving engine keeps tensor parallel inside it and spans nodes with pipeline stages (vLLM's
# and TensorRT-LLM's multi-node guidance: tensor parallel size the GPUs per node, pipeline
# parallel size the nodes), so a request for more GPUs than a node holds runs as whole nodes.
NODE_GPUS = 8
# Share of a link's bandwidth a ring all-reduce reaches (NCCL bus bandwidth against the link).
LINK_SHARE = 0.8
# Fixed time of one small all-reduce, by link kind: over NVLink the per-layer constant the decode
# model had before links were data (0.02 ms). Over PCIe (0.08 ms until calc-2026.12.03a) it is
# fitted on MLC LLM's graph-captured tensor-parallel decode rows (its step's time beyond the
# weights' read, per all-reduce, at the generation's bandwidth share): 55-70 us, median 65, on
# 2, 4 and 8 A10Gs alike (github:mlc-ai/llm-perf-bench README.md@d401356, eval/calibration/llm.csv
# L1823-L1825, L1829-L1834: AWS g5 instances, cloud hosts shared with other tenants).
# Between nodes: NCCL over TCP sockets (Ethernet) and over RDMA (InfiniBand, RoCE); assumed round
# figures (a socket hop's tens of microseconds against RDMA's few), not fitted to measurements.
ALLREDUCE_LATENCY_S = {"switch": 20e-6, "bridge": 20e-6, "pcie": 65e-6, "pcie-host": 65e-6,
                       "ethernet": 100e-6, "rdma": 20e-6}  # fmt: skip
# ... and on a desktop's own host, the consumer cards' (GeForce, Radeon) setting: the MLC blog's
# workstation pairs spend 42-44 us per all-reduce on two RTX 4090s (peer-to-peer off, through
# host memory) and 30 us on two RX 7900 XTX (github:mlc-ai/blog
# _posts/2023-10-19-Scalable-Language-Model-Inference-on-Multiple-NVDIA-AMD-GPUs.md, llm.csv
# L0568-L0570; the post names the cloud host as the cost on its server machines: "PCIe and the
# host CPU may significantly contribute to the overhead"): the median, 42 us. The card's
# segment stands for the host (no Request field says whose it is): a consumer card is in a
# desktop, a datacenter or workstation card may be in a shared server
DESKTOP_PCIE_LATENCY_S = 42e-6
# The network between nodes: (kind, line rate in Gbit/s, label). Line rates: IEEE 802.3 (10, 25,
# 40, 100, 200, 400 GbE) and the InfiniBand Trade Association's data rates for a 4x port (EDR
# 100, HDR 200, NDR 400, XDR 800 Gbit/s). One port per node: a ring's hop between nodes carries
# all of its traffic at that rate.
NETWORKS: dict[str, tuple[str, float, str]] = {
    "1gbe": ("ethernet", 1, "1 Gb Ethernet"),
    "10gbe": ("ethernet", 10, "10 Gb Ethernet"),
    "25gbe": ("ethernet", 25, "25 Gb Ethernet"),
    "40gbe": ("ethernet", 40, "40 Gb Ethernet"),
    "100gbe": ("ethernet", 100, "100 Gb Ethernet"),
    "200gbe": ("ethernet", 200, "200 Gb Ethernet"),
    "400gbe": ("ethernet", 400, "400 Gb Ethernet"),
    "roce-100": ("rdma", 100, "100 Gb RoCE"),
    "roce-200": ("rdma", 200, "200 Gb RoCE"),
    "roce-400": ("rdma", 400, "400 Gb RoCE"),
    "ib-edr": ("rdma", 100, "InfiniBand EDR (100 Gb)"),
    "ib-hdr": ("rdma", 200, "InfiniBand HDR (200 Gb)"),
    "ib-ndr": ("rdma", 400, "InfiniBand NDR (400 Gb)"),
    "ib-xdr": ("rdma", 800, "InfiniBand XDR (800 Gb)"),
}


@dataclass(frozen=True)
class Link:
    """The slowest hop of a ring over the request's GPUs."""

    kind: str  # switch | bridge | pcie | pcie-host | none
    gbs: float  # per GPU, per direction
    label: str
    latency_s: float = 0.0  # one small all-reduce's fixed time; 0: the kind's (ALLREDUCE_LATENCY_S)

    @property
    def nvlink(self) -> bool:
        return self.kind in ("switch", "bridge")

    @property
    def short(self) -> str:
        """The label without its figures or reasons: "PCIe 4.0 x16", "NVLink bridge"."""
        return self.label.split(",")[0].split(" (")[0]


def slot_gbs(gen: int, lanes: int = 16) -> float:
    """What a PCIe slot of that generation and width moves each way, after encoding."""
    return PCIE_LANE_GBS[gen] * lanes


def _pcie(gpu: GPU, why: str = "", gen: int | None = None, lanes: int | None = None) -> Link:
    """PCIe at the card's generation and lanes, or at the slot's where the request says less
    (a card runs at the lower of its own and the slot's generation and width)."""
    card_gen, card_lanes = gpu.pcie_gen or 4, gpu.pcie_lanes or 16
    stated = bool(gen or lanes)
    gen, lanes = min(gen or card_gen, card_gen), min(lanes or card_lanes, card_lanes)
    why = why or (" (the slot as stated)" if stated else "")
    gbs = slot_gbs(gen if gen in PCIE_LANE_GBS else 4, lanes)
    latency = DESKTOP_PCIE_LATENCY_S if gpu.segment == "consumer" else 0.0
    if gpu.pcie_p2p is False:
        return Link("pcie-host", gbs / 2, f"PCIe {gen}.0 x{lanes} through host memory "
                    f"(peer-to-peer is off on this card){why}", latency)  # fmt: skip
    return Link("pcie", gbs, f"PCIe {gen}.0 x{lanes}, {gbs:.0f} GB/s per direction{why}", latency)


def link_for(gpu: GPU, num_gpus: int, interconnect: str | None = None) -> Link:
    """The link the collectives of `num_gpus` GPUs of this model run over."""
    choice = (interconnect or "auto").strip().lower()
    form = PCIE_FORM.fullmatch(choice)
    if choice not in INTERCONNECTS and form is None:
        raise InvalidInput(f"Interconnect must be {INTERCONNECT_HELP} (got {interconnect!r}).")
    if num_gpus <= 1:
        return Link("none", 0.0, "one GPU")
    if form is not None and choice != "pcie":
        gen, lanes = form.group("gen"), form.group("lanes")
        return _pcie(gpu, gen=int(gen) if gen else None, lanes=int(lanes) if lanes else None)
    kind, gbs = gpu.gpu_link or "pcie", (gpu.gpu_link_gbs or 0.0) / 2
    if choice == "nvlink" and kind not in ("switch", "bridge"):
        raise InvalidInput(
            f"The {gpu.name} has no NVLink: its cards talk over PCIe (say pcie, or leave the "
            "interconnect out)."
        )
    if kind == "switch" and gbs and choice != "pcie":
        name = "Infinity Fabric" if gpu.vendor.lower().startswith("amd") else "NVLink/NVSwitch"
        return Link("switch", gbs, f"{name}, {gbs:.0f} GB/s per direction per GPU")
    # a card sold as a bridged pair (the H100 NVL) has its bridge unless PCIe is said
    paired = "bridged pair" in (gpu.form_factor or "") and choice == "auto"
    if kind == "bridge" and gbs and (choice == "nvlink" or paired):
        if num_gpus == 2:
            return Link("bridge", gbs, f"NVLink bridge, {gbs:.0f} GB/s per direction")
        return _pcie(gpu, f" (NVLink bridges join pairs only: a ring over {num_gpus} crosses PCIe)")
    if kind == "bridge" and choice == "auto":
        return _pcie(gpu, " (an NVLink bridge is optional: say NVLink if yours has one)")
    return _pcie(gpu)


# An HGX/DGX board's GPUs each have their own InfiniBand port on an RDMA fabric: the DGX A100
# user guide lists eight ConnectX-6 200 Gb/s HDR ports for the compute fabric, the DGX H100's
# eight ConnectX-7 400 Gb/s NDR ports, one per GPU. NCCL runs a ring per port, so the node's
# bandwidth out is its ports' together. A PCIe server, or a homelab's Ethernet, has one port.


def across_nodes(link: Link, nodes: int, network: str | None, gpus_per_node: int = 1) -> Link:
    """The ring of a data-parallel all-reduce over `nodes` machines: inside each the GPUs'
    own `link`, between them the `network` (one port per node, or one per GPU of a switch board
    on an RDMA fabric), whichever is slower."""
    if nodes <= 1:
        return link
    if network is None:
        raise InvalidInput(
            f"Say the network between the {nodes} nodes: one of {', '.join(NETWORKS)}."
        )
    if network not in NETWORKS:
        raise InvalidInput(f"Unknown network {network!r}; use one of {', '.join(NETWORKS)}.")
    kind, gbit, label = NETWORKS[network]
    ports = gpus_per_node if kind == "rdma" and link.kind == "switch" else 1
    gbs = gbit / 8 * ports
    label += f", a port per GPU ({ports} per node)" if ports > 1 else ""
    inside = link.short if link.kind != "none" else "one GPU each"
    if link.kind != "none" and link.gbs < gbs:
        return Link(
            link.kind,
            link.gbs,
            f"{inside} inside each node, {label} between "
            f"{nodes} nodes ({link.gbs:.0f} GB/s per direction inside is the slower)",
        )
    return Link(kind, gbs, f"{label} between {nodes} nodes, {gbs:.3g} GB/s per direction "
                f"({inside} inside each)")  # fmt: skip


def allreduce_seconds(nbytes: float, n: int, link: Link, latency_scale: float = 1.0) -> float:
    """One ring all-reduce of `nbytes` over `n` GPUs: the latency plus the bytes over the link.
    `latency_scale`: the latency's multiple for collectives issued eagerly by each rank's host
    rather than captured in a CUDA graph (factors.EAGER_ALLREDUCE_LATENCY)."""
    if n <= 1 or link.kind == "none":
        return 0.0
    moved = 2 * (n - 1) / n * nbytes
    latency = (link.latency_s or ALLREDUCE_LATENCY_S[link.kind]) * latency_scale
    return latency + moved / (link.gbs * 1e9 * LINK_SHARE)
