"""Measurements on a real GPU, for the calibration data: Hugging Face transformers decode and
prefill speed and inference memory, LoRA and full fine-tuning step speed and peak memory,
ResNet-50 and BERT training throughput.

Run where a GPU, PyTorch and transformers are installed (the workplace's device machine):

    python3 eval/device/measure_gpu.py OUT_DIR

Models are built from the catalog's architecture fields (advisor/data/models/*.yaml) with random
weights: speed and memory do not depend on the weights' values, and no weights can be fetched
there. Each measurement is written to OUT_DIR/gpu_results.json as it finishes (nothing is lost
when the run is stopped), with the versions, the GPU's name, its power limit and the exact
settings. Every figure is a wall-clock time over repeated steps after warm-up steps, with
torch.cuda.synchronize() before each clock read."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import torch
import yaml

if not torch.cuda.is_available():  # the smoke run: no memory figures
    for _name in ("empty_cache", "reset_peak_memory_stats"):
        setattr(torch.cuda, _name, lambda *a, **k: None)
    for _name in ("memory_allocated", "max_memory_allocated", "max_memory_reserved"):
        setattr(torch.cuda, _name, lambda *a, **k: 0)
    torch.cuda.get_device_name = lambda *a, **k: "cpu (smoke run)"

ROOT = Path(__file__).resolve().parents[2]
RESULTS: list[dict[str, Any]] = []
ENV: dict[str, Any] = {}
# the GPU; on a machine without one, a smoke run of small cases on the CPU checks the script
DEV = "cuda" if torch.cuda.is_available() else "cpu"


def catalog_model(model_id: str) -> dict[str, Any]:
    for path in sorted((ROOT / "advisor" / "data" / "models").glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text()) or []:
            if entry.get("id") == model_id:
                return entry
    raise KeyError(model_id)


def hf_config(model_id: str) -> Any:
    from transformers import LlamaConfig, Qwen2Config

    m = catalog_model(model_id)
    kind = Qwen2Config if m["architecture"].startswith("Qwen2") else LlamaConfig
    return kind(
        hidden_size=m["hidden_size"],
        intermediate_size=m["intermediate_size"],
        num_hidden_layers=m["num_layers"],
        num_attention_heads=m["num_attention_heads"],
        num_key_value_heads=m["num_kv_heads"],
        vocab_size=m["vocab_size"],
        tie_word_embeddings=bool(m.get("tie_word_embeddings")),
        max_position_embeddings=8192,
        rope_theta=float(m.get("rope_theta") or 500000.0),
    )


def build(model_id: str, dtype: torch.dtype) -> Any:
    from transformers import AutoModelForCausalLM

    cfg = hf_config(model_id)
    with torch.device(DEV):
        try:
            model = AutoModelForCausalLM.from_config(cfg, dtype=dtype)
        except TypeError:  # transformers 4.x
            model = AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype)
    return model.eval()


def record(out: Path, **row: Any) -> None:
    RESULTS.append(row)
    (out / "gpu_results.json").write_text(json.dumps({"env": ENV, "rows": RESULTS}, indent=1))
    print(json.dumps(row), flush=True)


def clock() -> float:
    if DEV == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter()


def gib(n: int) -> float:
    return round(n / 2**30, 3)


def decode(out: Path, model_id: str, prompt: int, new: int, batch: int = 1) -> None:
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    model = build(model_id, torch.bfloat16)
    weights = torch.cuda.memory_allocated()
    ids = torch.randint(100, 1000, (batch, prompt), device=DEV)
    args = {"do_sample": False, "pad_token_id": 0, "eos_token_id": None}
    with torch.inference_mode():
        model.generate(ids, max_new_tokens=8, min_new_tokens=8, **args)  # warm-up
        t0 = clock()
        model.generate(ids, max_new_tokens=1, min_new_tokens=1, **args)
        ttft = clock() - t0
        torch.cuda.reset_peak_memory_stats()
        t0 = clock()
        model.generate(ids, max_new_tokens=new + 1, min_new_tokens=new + 1, **args)
        total = clock() - t0
    record(out, kind="hf-decode", model=model_id, dtype="bf16", batch=batch, input_len=prompt,
           output_len=new, ttft_ms=round(ttft * 1000, 2),
           decode_tokens_per_s=round(new / (total - ttft), 2),
           total_decode_tokens_per_s=round(batch * new / (total - ttft), 2),
           weights_gib=gib(weights), peak_gib=gib(torch.cuda.max_memory_allocated()),
           reserved_gib=gib(torch.cuda.max_memory_reserved()))  # fmt: skip
    del model
    torch.cuda.empty_cache()


def timed_steps(model: Any, opt: Any, inputs: dict[str, Any], steps: int, warm: int) -> float:
    """Seconds per optimizer step (bf16 autocast), over `steps` after `warm` untimed ones; the
    peak memory is reset first."""
    times = []
    torch.cuda.reset_peak_memory_stats()
    for step in range(warm + steps):
        t0 = clock()
        with torch.autocast(DEV, dtype=torch.bfloat16):
            loss = model(**inputs).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if step >= warm:
            times.append(clock() - t0)
    return sum(times) / len(times)


def train_step_loop(model: Any, params: list[Any], batch: int, seq: int, steps: int,
                    warm: int) -> tuple[float, int]:  # fmt: skip
    opt = torch.optim.AdamW(params, lr=1e-5, fused=True)
    vocab = model.config.vocab_size
    ids = torch.randint(100, vocab - 1, (batch, seq), device=DEV)
    step = timed_steps(model, opt, {"input_ids": ids, "labels": ids}, steps, warm)
    return batch * seq / step, torch.cuda.max_memory_allocated()


def lora(out: Path, model_id: str, seq: int, batch: int, checkpointing: bool) -> None:
    from peft import LoraConfig, get_peft_model

    torch.cuda.empty_cache()
    model = build(model_id, torch.bfloat16).train()
    if checkpointing:
        model.gradient_checkpointing_enable()
        model.enable_input_require_grads()
    targets = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    model = get_peft_model(model, LoraConfig(r=16, lora_alpha=32, target_modules=targets))
    params = [p for p in model.parameters() if p.requires_grad]
    speed, peak = train_step_loop(model, params, batch, seq, steps=8, warm=3)
    record(out, kind="hf-peft-lora", model=model_id, dtype="bf16 weights, bf16 autocast",
           lora="r16 all linear (q,k,v,o,gate,up,down), fp32-free: adapters in bf16",
           optimizer="torch AdamW fused", batch=batch, seq_len=seq,
           gradient_checkpointing=checkpointing, train_tokens_per_s=round(speed, 1),
           peak_gib=gib(peak), trainable=sum(p.numel() for p in params))  # fmt: skip
    del model
    torch.cuda.empty_cache()


def full(out: Path, model_id: str, seq: int, batch: int, checkpointing: bool) -> None:
    torch.cuda.empty_cache()
    model = build(model_id, torch.float32).train()  # fp32 master weights, bf16 autocast
    if checkpointing:
        model.gradient_checkpointing_enable()
    params = list(model.parameters())
    speed, peak = train_step_loop(model, params, batch, seq, steps=6, warm=3)
    record(out, kind="full-finetune", model=model_id,
           dtype="fp32 weights and AdamW states, bf16 autocast (HF Trainer bf16=True style)",
           optimizer="torch AdamW fused", batch=batch, seq_len=seq,
           gradient_checkpointing=checkpointing, train_tokens_per_s=round(speed, 1),
           peak_gib=gib(peak), params=sum(p.numel() for p in params))  # fmt: skip
    del model
    torch.cuda.empty_cache()


def resnet50(out: Path, batch: int) -> None:
    import torchvision

    torch.cuda.empty_cache()
    model = torchvision.models.resnet50().to(DEV).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler()
    x = torch.randn(batch, 3, 224, 224, device=DEV).to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (batch,), device=DEV)
    times = []
    torch.cuda.reset_peak_memory_stats()
    for step in range(25):
        t0 = clock()
        with torch.autocast(DEV, dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
        if step >= 5:
            times.append(clock() - t0)
    train = batch * len(times) / sum(times)
    peak = torch.cuda.max_memory_allocated()
    model.eval()
    with torch.inference_mode(), torch.autocast(DEV, dtype=torch.float16):
        for _ in range(5):
            model(x)
        t0 = clock()
        for _ in range(20):
            model(x)
        infer = batch * 20 / (clock() - t0)
    record(out, kind="resnet50", batch=batch, resolution=224,
           precision="amp fp16, channels_last, SGD momentum, synthetic data on the GPU",
           train_images_per_s=round(train, 1), infer_images_per_s=round(infer, 1),
           peak_gib=gib(peak))  # fmt: skip
    del model
    torch.cuda.empty_cache()


def bert(out: Path, size: str, seq: int, batch: int) -> None:
    from transformers import BertConfig, BertForSequenceClassification

    torch.cuda.empty_cache()
    dims = {"base": (768, 12, 12, 3072), "large": (1024, 24, 16, 4096)}[size]
    cfg = BertConfig(hidden_size=dims[0], num_hidden_layers=dims[1],
                     num_attention_heads=dims[2], intermediate_size=dims[3],
                     max_position_embeddings=512, num_labels=2)  # fmt: skip
    model = BertForSequenceClassification(cfg).to(DEV).train()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5, fused=True)
    ids = torch.randint(1000, 30000, (batch, seq), device=DEV)
    labels = torch.randint(0, 2, (batch,), device=DEV)
    step = timed_steps(model, opt, {"input_ids": ids, "labels": labels}, 20, 5)
    record(out, kind="bert-finetune", model=f"bert-{size}", seq_len=seq, batch=batch,
           precision="fp32 weights, bf16 autocast, AdamW fused, synthetic tokens",
           train_sequences_per_s=round(batch / step, 1),
           peak_gib=gib(torch.cuda.max_memory_allocated()))  # fmt: skip
    del model
    torch.cuda.empty_cache()


def environment() -> dict[str, Any]:
    import transformers

    try:
        smi = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,memory.total,power.limit,clocks.max.sm,"
             "driver_version", "--format=csv,noheader"], capture_output=True, text=True,
            check=False,
        ).stdout.strip()  # fmt: skip
    except OSError:
        smi = "no nvidia-smi"
    return {"gpu": torch.cuda.get_device_name(), "nvidia_smi": smi, "torch": torch.__version__,
            "transformers": transformers.__version__, "cuda": torch.version.cuda,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}  # fmt: skip


PLAN = [
    (decode, ("llama-3.2-1b", 512, 128)),
    (decode, ("llama-3.2-3b", 512, 128)),
    (decode, ("llama-3.1-8b", 512, 128)),
    (decode, ("llama-3.1-8b", 512, 128, 8)),
    (decode, ("qwen2.5-7b", 512, 128)),
    (decode, ("qwen2.5-14b", 512, 128)),
    (decode, ("qwen2.5-32b", 512, 64)),
    (resnet50, (256,)),
    (bert, ("base", 128, 32)),
    (bert, ("large", 384, 16)),
    (lora, ("llama-3.2-1b", 1024, 4, False)),
    (lora, ("llama-3.1-8b", 1024, 1, True)),
    (lora, ("llama-3.1-8b", 2048, 4, True)),
    (full, ("qwen2.5-0.5b", 1024, 4, False)),
    (full, ("llama-3.2-1b", 1024, 4, True)),
]

SMOKE = [
    (decode, ("qwen2.5-0.5b", 16, 4)),
    (bert, ("base", 32, 2)),
    (full, ("qwen2.5-0.5b", 32, 1, True)),
]


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    target.mkdir(parents=True, exist_ok=True)
    ENV.update(environment())
    print(json.dumps(ENV), flush=True)
    plan = PLAN if DEV == "cuda" else SMOKE
    if len(sys.argv) > 2:  # "resnet50,bert,lora,full": only those steps (a repeat run)
        plan = [(fn, args) for fn, args in plan if fn.__name__ in sys.argv[2].split(",")]
    for fn, args in plan:
        started = time.perf_counter()
        try:
            fn(target, *args)
        except Exception as exc:  # one failed measurement does not stop the others
            record(target, kind="error", step=fn.__name__, args=list(args), error=repr(exc),
                   trace=traceback.format_exc()[-1500:])  # fmt: skip
            torch.cuda.empty_cache()
        print(f"# {fn.__name__}{args}: {time.perf_counter() - started:.1f} s", flush=True)
