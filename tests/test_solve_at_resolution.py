"""The solve tool sizes an image model at the resolution asked: a larger image holds a smaller
batch on the same card."""

from __future__ import annotations

from advisor import tools


def test_the_largest_batch_shrinks_with_the_image_size() -> None:
    args = {"model": "resnet-50", "gpu": "rtx-4070-ti", "target": "max_batch", "workload": "train"}
    small = tools.solve(**args)
    large = tools.solve(**args, resolution=512)
    assert small["solution"] and large["solution"]
    assert large["solution"] < small["solution"] / 3  # (512 / 224)^2 = 5.2x the activations
    assert large["estimate"]["resolution"] == 512
