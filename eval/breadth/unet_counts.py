"""Counts for the catalog's U-Net entry (advisor/data/workloads/vision.yaml, id unet-segmentation).

The U-Net of Ronneberger, Fischer and Brox (2015, arXiv:1505.04597) as it is usually built in
PyTorch today: four 2x2 max-pool steps down and four 2x2 transposed convolutions up, two 3x3
convolutions per level with batch norm and ReLU, 64 channels at the top doubling to 1024 at the
bottom, skip connections concatenated, a 1x1 convolution to the classes. Padded ("same")
convolutions, so the output has the input's size; one input channel (a grey medical scan) and
two classes, at 512 x 512.

It prints the parameter count, the forward multiply-accumulates of one image (FLOPs counted by
torch.utils.flop_counter, halved), the activation elements (the outputs of every convolution,
as fvcore's and timm's activation counts take them) and the convolution layers. Run:

    .venv/bin/python eval/breadth/unet_counts.py
"""

from __future__ import annotations

import itertools

import torch
from torch import nn
from torch.utils.flop_counter import FlopCounterMode

WIDTHS = (64, 128, 256, 512, 1024)
IN_CHANNELS, CLASSES, SIZE = 1, 2, 512


def _double(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(),
        nn.Conv2d(c_out, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), nn.ReLU(),
    )  # fmt: skip


class UNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        ins = (IN_CHANNELS, *WIDTHS[:-1])
        self.down = nn.ModuleList(_double(a, b) for a, b in zip(ins, WIDTHS, strict=True))
        ups = list(reversed(WIDTHS))
        self.up = nn.ModuleList(
            nn.ConvTranspose2d(a, b, 2, stride=2) for a, b in itertools.pairwise(ups)
        )
        self.merge = nn.ModuleList(_double(2 * b, b) for b in ups[1:])
        self.head = nn.Conv2d(WIDTHS[0], CLASSES, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for i, block in enumerate(self.down):
            x = block(x if i == 0 else nn.functional.max_pool2d(x, 2))
            skips.append(x)
        skips.pop()  # the bottom level is not skipped across
        for up, merge in zip(self.up, self.merge, strict=True):
            x = merge(torch.cat([skips.pop(), up(x)], dim=1))
        return self.head(x)


def main() -> None:
    model = UNet().eval()
    params = sum(p.numel() for p in model.parameters())
    convs = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d))]
    written = []
    hooks = [
        m.register_forward_hook(lambda _m, _i, out: written.append(out.numel())) for m in convs
    ]
    image = torch.zeros(1, IN_CHANNELS, SIZE, SIZE, device="meta")
    model = model.to("meta")
    with FlopCounterMode(display=False) as counter, torch.no_grad():
        model(image)
    for hook in hooks:
        hook.remove()
    print(f"params {params}")
    print(f"gmacs {counter.get_total_flops() / 2 / 1e9:.3f}")
    print(f"activations_m {sum(written) / 1e6:.2f}")
    print(f"layers {len(convs)}")


if __name__ == "__main__":
    main()
