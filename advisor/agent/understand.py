"""The understanding step: a question (and the conversation so far) into a typed Query.

    understand("can 2 A100 40 gigs run llama 3 70b at 8k?", catalog, previous)
    -> Query(intent="fit", gpus=(GpuRef("A100", ("a100-sxm4-40gb", "a100-pcie-40gb"), count=2,
             memory_gb=40),), models=(ModelRef("llama 3 70b", ("llama-3-70b",)),),
             workload="inference", context=8192, ...)

Names come from the linker (linker.py), quantities from the patterns below, the intent from the
intent table (intents.py). Figures the user gives (a price, a duration, a memory size) are kept
as given, to be used as given. A follow-up ("and with 4 of them?", "what about the 80GB one",
"ok and with qlora instead") inherits what it leaves out from the previous turn.
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import cache, lru_cache
from typing import Any

from advisor import rx
from advisor.agent.intent_model import overruled
from advisor.agent.linker import DEVICE_NOTE, NUMBER_WORDS, Linker, linker_for
from advisor.agent.phrasebook import CJK_CHARS, URDU_LETTERS, to_english
from advisor.agent.query import BUDGET_HELD, RENT_SAID, SWAP_TO, Budget, GpuRef, ModelRef, Query
from advisor.calculator import FAMILIES, WORKLOAD_KINDS
from advisor.calculator.cost import CHINCHILLA_TOKENS_PER_PARAM, HOURS_PER_MONTH, HOURS_PER_YEAR
from advisor.calculator.estimator import MAX_CONTEXT
from advisor.calculator.interconnect import NODE_GPUS
from advisor.calculator.llm import DEFAULT_CONTEXT, DEFAULT_OUTPUT_TOKENS
from advisor.calculator.nets import ENCODER_SEQ
from advisor.calculator.precision import EXL2_RANGE, GGUF_RANGE
from advisor.catalog import Catalog
from advisor.errors import AdvisorError

MAX_COUNT = 10**12  # a context, batch or GPU count above this is not a workload

# ---------------------------------------------------------------- words

# llama.cpp's i-quants, by the type's name after "iq"
_IQ_TYPES = ("1_s", "1_m", "2_xxs", "2_xs", "2_s", "2_m", "3_xxs", "3_xs", "3_s", "3_m", "4_xs",
             "4_nl")  # fmt: skip
PRECISION_WORDS: tuple[tuple[str, str], ...] = (
    ("nf4", r"\bnf4\b|\bbitsandbytes\b|\bbnb\b|\bq-?lora\b"),
    ("awq", r"\bawq\b"),
    ("gptq", r"\bgptq\b"),
    ("mxfp4", r"\bmxfp4\b"),
    ("nvfp4", r"\bnv-?fp4\b|\bfp4\b"),
    ("q4_k_m", r"\bq4_k_m\b|\bq4_k\b|\bq4km\b|\bq4\b|\bgguf\b|\bq4_k_s\b"),
    ("q4_0", r"\bq4_0\b"),
    ("q5_k_m", r"\bq5(?:_k_m|_k|_k_s|km)?\b"),
    ("q6_k", r"\bq6(?:_k)?\b"),
    ("q8_0", r"\bq8(?:_0)?\b"),
    ("q3_k_m", r"\bq3(?:_k_m|_k)?\b"),
    ("q2_k", r"\bq2(?:_k)?\b|\bq2_k_xl\b"),
    # llama.cpp's i-quants ("IQ2_XXS", "UD-IQ1_S")
    *((f"iq{n}", rf"\biq{n}\b") for n in _IQ_TYPES),
    ("awq", r"\bint4\b|\bw4a16\b"),
    # "4-bit quantisation (AWQ, for instance)": the 4-bit format named beside it
    ("awq", r"\b4[-\s]?bits?\b[^.?!()]{0,25}\(\s?(?:e\.g\.,? )?awq\b"),
    ("gptq", r"\b4[-\s]?bits?\b[^.?!()]{0,25}\(\s?(?:e\.g\.,? )?gptq\b"),
    # ("what if we use a quantized model": a quant with no bits said is the usual 4 bits)
    (
        "nf4",
        r"\b4[-\s]?bits?\b|\b4-?bit quant|\bquantized to 4"
        r"|\b(?:use|using|with|run|running|try|go with)\s(?:a\s|the\s)?quanti[sz]ed\s(?:model|"
        r"version|weights|one|checkpoint)\b|\bquanti[sz]e (?:it|the model)\b(?! to)",
    ),
    ("fp8", r"\b8[-\s]?bits? \((?:fp8|float8)\)"),  # "at 8-bit (FP8)": the format named
    ("int8", r"\bint8\b|\b8[-\s]?bits?\b|\bw8a8\b"),
    ("fp8", r"\bfp8\b|\bfloat8\b"),
    ("bf16", r"\bbf16\b|\bbfloat16\b|\bbrain ?float"),
    ("tf32", r"\btf32\b"),
    (
        "fp16",
        # "mixed precision (bf16)": the format named beside it decides
        r"\bfp16\b|\bfloat16\b|\bhalf[- ]precision\b|\b16[-\s]?bits?\b"
        r"|(?:\bamp\b|\bmixed[- ]precision\b)"
        r"(?![\s(,:-]{1,3}(?:with |in |using )?(?:bf16|bfloat16)\b)",
    ),
    ("fp32", r"\bfp32\b|\bfloat32\b|\bfull[- ]precision\b|\b32[-\s]?bits?\b"),
    ("fp64", r"\bfp64\b|\bfloat64\b|\bdouble[- ]precision\b|\b64[-\s]?bits? float"),
)
# no quantisation said, and no 16- or 32-bit format named beside it: the checkpoint's bf16
# generations whose tensor cores have no bf16: mixed precision there is fp16
_NO_BF16 = frozenset(("Pascal", "Volta", "Turing", "Maxwell", "Kepler"))
_UNQUANTISED = re.compile(
    r"\bno quanti[sz]\w*|\bunquanti[sz]ed\b|\bwithout quanti[sz]\w*"
    # "in its normal full-size form, without any of the squashing business", "the normal
    # full-size download, not a squished version"
    r"|\bfull[- ]size(?:d)? (?:form|version|download|model|weights|one|file)\b"
    r"|\bnot (?:a |the )?(?:squished|squashed|shrunk|compressed|quanti[sz]ed) "
    r"(?:version|one|model)\b"
    r"|\bwithout (?:any of )?(?:the )?(?:squashing|squishing|shrinking|compressing)\b"
)
ENGINE_WORDS: tuple[tuple[str, str], ...] = (
    ("vllm", r"\bvllm\b"),
    # an Ollama tag ("qwen3:30b-a3b", "llama3.1:8b-instruct-q8_0") is Ollama, which is llama.cpp
    (
        "llama.cpp",
        r"\bllama[.\s_-]?cpp\b|\bollam(?:a|ę|y|ie|ą)\b|\blm ?studio\b|\bkoboldcpp\b|\bgguf\b"
        r"|\b[a-z][\w.-]*:\d+(?:\.\d+)?[bm]\b"
        # GGUF's own quant names and llama.cpp's layer-offload flag
        r"|\bi?q\d_k(?:_[sml])?\b|\bq[458]_[01]\b|\biq\d_x+s\b|(?<![\w-])-ngl\b|\bn[-_]gpu[-_]layers\b",
    ),
    ("tensorrt-llm", r"\btensorrt[- ]?llm\b|\btrt[- ]?llm\b"),
    ("sglang", r"\bsglang\b"),
    ("lmdeploy", r"\blmdeploy\b"),
    ("exllamav2", r"\bexllama(?:v2)?\b|\bexl2\b|\btabbyapi\b"),
    ("tgi", r"\btgi\b|\btext[- ]generation[- ]inference\b"),
    ("mlx", r"\bmlx\b"),
    ("faster-whisper", r"\bfaster[- ]whisper\b|\bwhisperx\b|\bctranslate2\b"),
    ("whisper.cpp", r"\bwhisper[.\s]?cpp\b"),
    ("openai-whisper", r"\bopenai[- ]whisper\b"),
    ("tensorrt", r"\btensorrt\b(?![- ]?llm)"),
    ("diffusers", r"\bdiffusers\b|\bcomfy ?ui\b|\bautomatic1111\b|\ba1111\b|\bforge\b"),
    ("hf", r"\btransformers\b|\bhugging ?face\b|\bhf\b|\bpeft\b|\binsanely[- ]fast[- ]whisper\b"),
)
OFFLOAD_WORDS: tuple[tuple[str, str], ...] = (
    # "no offload", "no 'lowvram' or CPU-offload tricks", "everything kept on the card"
    (
        "none",
        # ("no enable_model_cpu_offload()": the call named, not made)
        r"\b(?:no|without)\s+[`'\"]?(?:[\w'\"-]+\s+){0,3}?(?:[\w-]*?_)?(?:cpu[\s_-]*)?offload\w*"
        r"|\b(?:no|without)\s+['\"]?-*(?:low|med)vram\b"
        r"|\beverything (?:kept |stays? )?on the (?:card|gpu)\b"
        r"|\b(?:all|fully|entirely) in vram\b",
    ),
    ("sequential", r"(?<![a-z])sequential[\s_-]*(?:cpu[\s_-]*)?offload\w*"),
    (
        "model",
        r"(?<![a-z])(?:model[\s_-]*)?cpu[\s_-]*offload\w*|\bwith offload\w*"
        r"|\boffload\w*(?: [\w-]+){0,4} to (?:the |my )?(?:[\w.-]+ ){0,2}"
        r"(?:cpu|(?:system |host |main )?ram|system memory)\b"
        r"|\b--?(?:med|low)vram\b"
        # ComfyUI's default: each model on the card only while it runs
        r"|\b(?:drops?|unloads?|frees?|offloads?) the (?:t5 |clip )?text[- ]encoders?\b",
    ),
    (
        # llama.cpp's layers split (an LLM's; an image model's offload stays unsaid): "split it
        # between GPU and CPU", "-ngl 40", "the rest in RAM"
        "layers",
        r"\bsplit\w*(?: \w+){0,3} between (?:the |my )?(?:gpu|vram|card)s? and "
        r"(?:the |my |system )?(?:cpu|ram)"
        r"|\bpartial(?:ly)?[- ]offload\w*"
        r"|\boffload\w* (?:some |a few |part of the |the rest of the )?layers"
        r"|(?<![a-z])-ngl\b|\bn_gpu_layers\b|\bgpu[- ]layers\b"
        r"|\b(?:spill|overflow)\w*(?: over)? (?:in)?to (?:system )?ram"
        r"|\b(?:the )?rest (?:of it )?(?:in|on) (?:system |cpu |normal )?(?:ram|cpu)\b",
    ),
)
FRAMEWORK_WORDS: tuple[tuple[str, str], ...] = (
    ("tensorflow", r"\btensor ?flow\b|\btf2?\b|\bkeras\b"),
    ("pytorch", r"\bpy ?torch\b|\btorch\b|\btorchrun\b"),
    ("jax", r"\bjax\b|\bflax\b"),
    ("sentence-transformers", r"\bsentence[- _]?transformers\b|\bsbert\b"),
    ("unsloth", r"\bunsloth\b"),
    ("axolotl", r"\baxolotl\b"),
    ("llama-factory", r"\bllama[- ]?factory\b"),
    ("torchtune", r"\btorchtune\b"),
    ("kohya_ss", r"\bkohya\w*"),
    # the image UIs: "sdxl in comfyui", "a1111", "automatic1111" (they run a model; no trainer)
    ("comfyui", r"\bcomfy ?ui\b|\bcomfy\b"),
    ("automatic1111", r"\ba1111\b|\bautomatic ?1111\b|\bauto1111\b|\bsd[- ]?webui\b"),
    ("deepspeed", r"\bdeepspeed\b|\bzero[- ]?[123]\b"),
    ("fsdp", r"\bfsdp\b"),
    ("ms-swift", r"\bms[- ]?swift\b"),
    ("megatron", r"\bmegatron\w*|(?<!mistral )(?<!mistral-)\bnemo\b"),  # not Mistral NeMo
    (
        "hf",
        r"\b(?:hf|hugging ?face|transformers) trainer\b|\btrl\b|\bsft ?trainer\b"
        r"|\b(?:hf|hugging ?face)(?: \w+)? transformers\b|\bpeft\b"
        # the library named plainly: "plain transformers", "transformers for now", "with
        # transformers" (not "transformers are ...", "transformer models": the architecture)
        r"|\b(?:plain|vanilla|stock)\s(?:hf\s|hugging ?face\s)?transformers\b"
        r"|\b(?:in|with|using|via|through|under)\s(?:plain\s|vanilla\s|the\s)?transformers\b"
        r"(?!\s(?:models?|architectures?|blocks?|layers?|are|is|were)\b)"
        r"|\btransformers (?:for now|library|lib|package|pipeline)\b"
        r"|\b(?:seq2seq)?trainingarguments\b|\bautomodelfor\w+",
    ),  # "HF transformers + peft"
)
# how several GPUs talk, when the question says: (interconnect, words); negations first
INTERCONNECT_WORDS: tuple[tuple[str, str], ...] = (
    (
        "pcie",
        r"\b(?:no|without|lacking)\s+(?:an? )?nvlink\w*|\bpcie[- ]only\b|\bonly pcie\b"
        r"|\b(?:over|via|through|using|across)\s+(?:plain |just )?pcie\b(?![- ]?\d)",
    ),
    ("nvlink", r"\bnvlink\w*|\bnv-link\b|\bnvswitch\b"),
)
# the slot or riser the cards sit in, when narrower than a full slot: "pcie 4.0 x1 risers",
# "gen3 x8", "x4 slots", "1x risers" -> the calculator's "pcie4-x1", "pcie3-x8", "pcie-x4"
_SLOT = re.compile(
    r"\bpci-?e?\s?(?:gen\s?)?(?P<gen>[3-6])(?:\.0)?\s?(?:@\s?)?x\s?(?P<lanes>1|2|4|8|16)\b"
    r"|\bgen\s?(?P<gen2>[3-6])\s?x(?P<lanes2>1|2|4|8|16)\b"
    r"|\bx(?P<lanes3>1|2|4|8)\s(?:pci-?e\s)?(?:risers?|slots?|lanes?|links?|electrical)\b"
    r"|\b(?P<lanes4>1|2|4|8)x\s(?:pci-?e\s)?(?:risers?|slots?|lanes?)\b"
)


def _slot(low: str) -> str | None:
    m = _SLOT.search(low)
    if m is None:
        return None
    gen = m.group("gen") or m.group("gen2") or ""
    lanes = m.group("lanes") or m.group("lanes2") or m.group("lanes3") or m.group("lanes4")
    return None if lanes == "16" and not gen else f"pcie{gen}-x{lanes}"


# LLM fine-tuning memory options as people write them: (option, value, words). Within an
# option the first entry that matches wins, so the negations come first.
# the optimizer, not the Singapore dollar: "how much in SGD?", "SGD 4.20", "4.20 SGD"
SGD_OPTIMIZER = r"(?<!\bin )(?<![\d.] )(?<![\d.])\bsgd\b(?!\s?\$?\d)"
TRAIN_OPTION_WORDS: tuple[tuple[str, object, str], ...] = (
    (
        "mixed_precision",
        False,
        r"\bpure[- ]?(?:bf16|bfloat16|fp16|16[- ]?bit)\b|\b(?:bf16|bfloat16)[- ]only\b"
        r"|\b(?:no|without)\s+(?:fp32 )?master (?:weights|copy)\b"
        r"|\b(?:no|without|not)\s+(?:using )?(?:amp|mixed[- ]precision)\b",
    ),
    ("mixed_precision", True, r"\bmixed[- ]precision\b|\bfp32 master\b|\bamp\b|\bautocast\b"),
    (
        "optimizer",
        "paged_adamw8bit",
        r"\bpaged[ _-]?adamw?[ _-]?(?:8[ _-]?bit|8bit)\b|\bpaged 8[ _-]?bit adamw?\b",
    ),
    ("optimizer", "paged_adamw", r"\bpaged[ _-]?adamw?\b"),
    (
        "optimizer",
        "adamw8bit",
        r"\b8[ _-]?bit (?:adamw?|optimi[sz]er)\b|\badamw?[ _-]?8[ _-]?bit\b|\badamw_bnb_8bit\b"
        r"|\b(?:bnb|bitsandbytes) adamw?\b",
    ),
    ("optimizer", "adafactor", r"\badafactor\b"),
    ("optimizer", "sgd", SGD_OPTIMIZER),
    ("optimizer", "adamw", r"\badamw?\b"),
    (
        "checkpointing",
        False,
        r"\b(?:no|without|disabl\w*|turn(?:ing|ed)? off|skip\w*)\s+(?:the )?"
        r"(?:gradient |activation |grad )?(?:checkpointing|ckpt)\b"
        r"|\b(?:gradient |activation )?checkpointing (?:off|disabled)\b",
    ),
    (
        "checkpointing",
        True,
        r"\b(?:gradient|activation|grad) (?:checkpointing|ckpt)\b|\bcheckpointing on\b"
        r"|\b(?:with|using|enabl\w*|turn(?:ing|ed)? on)\s+checkpointing\b",
    ),
    (
        "lora_targets",
        "qv",
        r"\bq(?:_proj)?\s*(?:and|&|,|\+)\s*v(?:_proj)?\b|\bqv\b|\bquery and value\b",
    ),
    (
        "lora_targets",
        "attention",
        r"\battention(?: layers| modules| projections)? only\b|\bonly (?:the )?attention\b"
        r"|\bq,?\s*k,?\s*v,?\s*(?:and )?o\b",
    ),
    (
        "lora_targets",
        "all",
        r"\ball[- ]linear(?: layers| modules)?\b|\ball (?:the )?(?:linear )?(?:layers|modules)\b"
        r"|\bevery linear layer\b",
    ),
    (
        "optimizer_in_backward",
        True,
        r"\boptimi[sz]er (?:step )?in (?:the )?(?:backward|bwd)\b|\boptimizer_in_bwd\b"
        r"|\bfused optimi[sz]er step\b|\bstep (?:the )?optimi[sz]er in backward\b",
    ),
    (
        "fused_optimizer",
        False,
        r"\bforeach (?:adamw?|optimi[sz]er|step)\b|\bnon[- ]?fused (?:adamw?|optimi[sz]er)\b",
    ),
    (
        "fused_optimizer",
        True,
        r"\bfused (?:adamw?|optimi[sz]er)\b(?! step)|\badamw_torch_fused\b",
    ),
    (
        "chunked_loss",
        True,
        r"\bchunked (?:cross[- ]?entropy|ce|loss)\b|\bcut[ _-]cross[ _-]entropy\b|\bliger\b",
    ),
    (
        "activation_offload",
        True,
        r"\b(?:activation|checkpoint)s? offload\w*|\boffload\w* (?:the )?activations\b",
    ),
    # DeepSpeed ZeRO-Offload: the optimizer (states, fp32 master weights, gradients) in CPU RAM;
    # "activation offloading" and Unsloth's "checkpointing offloaded to CPU" are not it
    (
        "offload_optimizer",
        True,
        r"\boffload[_ ]optimi[sz]er\b|\boffload\w* (?:the |its )?optimi[sz]er(?: states?)?\b"
        r"|\boptimi[sz]er(?: states?)? offload\w*|\bzero[- ]?offload\b"
        r"|\b(?:zero[- ]?(?:stage[- ]?)?[23]|deepspeed)\b(?:(?!\b(?:no|not|without|w/o)\b)[^.?!])"
        r"{0,30}(?<!activation )(?<!activations )\boffload\w*"
        r"|(?<!activation )(?<!activations )\bcpu[- ]offload\w*"
        r"|(?<!activation )(?<!activations )(?<!checkpointing )(?<!checkpoints )"
        r"\boffload(?:ed|ing)? to (?:the )?(?:cpu|host|system ram|ram)\b",
    ),
    (
        "offload_param",
        True,
        r"\boffload[_ ]param\w*|\boffload\w* (?:the |its )?(?:params|parameters|weights)\b"
        r"|\b(?:param|parameter)s? offload\w*",
    ),
    ("torch_compile", False, r"\b(?:no|without)\s+(?:torch\.? ?)?compile\b"),
    ("torch_compile", True, r"\btorch\.? ?compile\b|\bcompiled model\b"),
)
# datasheet fields and the words that ask for them
FIELD_WORDS: dict[str, str] = {
    # "is it CUDA or that ROCm thing?", "which software stack does it use"
    "compute_stack": r"\b(?:is it|does it (?:use|run|need)) (?:cuda|rocm)\b"
    r"|\bcuda or (?:that |the )?rocm\b|\brocm or (?:\w+ )?cuda\b|\b(?:compute|software) stack\b"
    r"|\bcuda support\b",
    # "is that memory shared with the CPU?", "unified memory?" (Maltese "maqsuma mas-CPU")
    "unified_memory": r"\b(?:memory|ram|vram)\b[^.?!]{0,30}\bshared (?:with|between) (?:the )?cpu\b"
    r"|\bshared with (?:the )?cpu\b|\bmaqsuma mas-cpu\b"
    # ("does the 4090 have unified memory", not "the most unified memory you can get")
    r"|\b(?:have|has|is (?:it|that|this)|uses?|got) (?:a |an )?unified memory\b"
    r"|(?<!most )(?<!much )\bunified memory\s?\?",
    "memory_gb": r"\b(?:vram|memory|mem|ram|capacity|gigs|how many gb|how much (?:vram|memory))\b"
    r"|\bspeicher\b|\bm[ée]moire\b|\bmemoria\b|\u663e\u5b58|\u30e1\u30e2\u30ea"
    # a size to confirm: "same 24gb right?", "both 16gb, correct?", "both 48GB I believe",
    # "as duas tem 24GB ne?"
    r"|\b(?:same|both(?: have| are)?) \d+ ?(?:gb|gigs?|g)\b,? ?(?:right|correct|yes|no)?\?"
    r"|\b(?:both|each|(?:as|os) (?:duas|dois|two)|beide|les deux)(?: \w+)? \d+ ?(?:gb|gigs?|g)\b"
    r",? ?(?:i (?:believe|think|guess)|right|correct|n[eé]|no|non|oder|nicht)\b"
    # "is the 64gb for the whole board or per gpu", "how much of the 16 GB is the GPU's"
    r"|\bthe \d+ ?(?:gb|gigs?)\b[^.?!]{0,30}\b(?:per (?:gpu|card|chip|die)|whole (?:board|card))\b"
    r"|\bhow much of (?:the|its|my|that|this) \d+ ?(?:gb|gigs?)\b"
    # a size claimed, to check: "a press release says it carries '256GB of HBM3E' ... right?"
    r"|\b(?:says?|said|claims?|claimed|lists?|listed|quotes?|advertis\w+)\b[^.?!]{0,60}\b\d+ ?gb\b"
    r"(?=.*\b(?:right|true|accurate|correct|hold up)\b)",
    "memory_type": r"\bmemory type\b|\bhbm\w*\b|\bgddr\w*\b|\bkind of memory\b|\becc\b"
    r"|\bmemory (?:size|capacity) (?:and|&) type\b|\btype of memory\b"
    r"|\bwhat memory\b(?! (?:band ?width|bandwith|speed|bw|bus)\b)"
    # "what's different about the memory itself?"
    r"|\b(?:the )?memory itself\b|\bdifferent about the memory\b",
    "bandwidth_gbs": r"\bband ?width\b|\bbandwith\b|\bbw\b|\bmemory speed\b|\bgb/s\b|\btb/s\b"
    r"|\b(?:tera|giga)bytes? (?:per|a) second\b"
    r"|\blargura de banda\b"
    r"|\bbanda? (?:de |of )?(?:the )?mem[oó]r(?:y|ia|ie)\b"
    r"|\b(?:faster|quicker) memory\b|\bmoves? (?:memory|data) (?:faster|quicker)\b"
    r"|\bhow much (?:faster|quicker) is (?:the|its|their) memory\b"
    r"|\bhow fast is (?:the|its|that|this|their) (?:memory|vram)\b"
    r"|bandbreite\b|\bancho de banda\b|\bbande passante\b|\u5e26\u5bbd|\u5e2f\u57df",
    # ("same bf16 weights": a model's format, not the figure)
    "fp16_bf16_dense_tflops": r"\b(?:fp|bf)16\b(?! (?:weights|checkpoints?|models?|files?"
    r"|versions?))|\bhalf precision\b"
    # the speed-up mixed precision gives, asked of a card
    r"|\bmixed[- ]precision\b[^.?!]{0,50}\b(?:faster|speed\w*|quicker|help|worth|benefit\w*)\b"
    r"|\b(?:faster|speed\w*|quicker|benefit\w*) (?:from|with|using) mixed[- ]precision\b"
    r"|\btensor (?:performance|tflops)\b|\b(?:tflops|flops)\b"
    r"|\bcompute\b(?! (?:nodes?|servers?|clusters?|instances?|credits?|budget|time|hours?)\b)"
    r"|\b(?:computing|processing|computational) (?:power|performance|speed|capacity)\b",
    "fp32_tflops": r"\bfp32\b|\bsingle[- ]precision\b|\bfloat32\b",
    "fp64_tflops": r"\bfp64\b|\bdouble[- ]precision\b|\bfloat64\b",
    "fp64_tensor_tflops": r"\b(?:fp64|double[- ]precision) (?:tensor|matrix)\b"
    r"|\b(?:fp64|double[- ]precision)\b[^.?!]{0,60}\b(?:and|&|/) (?:the )?(?:matrix|tensor)\b",
    "tf32_dense_tflops": r"\btf32\b",
    "int8_dense_tops": r"\bint8\b|\btops\b",
    "fp8_dense_tflops": r"\bfp8\b",
    "tensor_cores": r"\btensor cores?\b",
    "cuda_cores": r"\bcuda cores?\b|\bshaders?\b|\bcore count\b|\bstream processors\b",
    # partitioning a GPU, not a cluster's partition ("the a30 partition", "teaching partition")
    "mig_max_instances": r"\bmig\b|\bmulti[- ]instance\b"
    # "can the card be divided so each student has a separate part?", "divide that one in the
    # same way for two students", "split the gpu between 7 users"
    r"|\b(?:divid|split|partition|carv|slic)\w* (?:up )?"
    r"(?:the |a |one |each |this |that |our |my )?(?:(?:rtx|nvidia|geforce) )?"
    r"(?:gpu|card|one|[a-z]{0,2}\d{3,4}\w*)\b"
    r"(?:[^.?!]{0,40}\b(?:students?|users?|people|parts?|pieces?"
    r"|slices?|vms?|tenants?|instances?|separate|isolated)\b)"
    r"|\b(?:card|gpu) be (?:divided|split|partitioned|shared out)\b"
    r"|\bpartition(?:ed|ing)? (?:the |an? |one |each |our |my )?(?:gpus?|cards?|[abh]\d{2,3}s?)\b"
    r"(?!\s(?:across|over))"
    r"|\bpartitions? (?:per|of) (?:the |a |one |each )?(?:gpu|card)\b|\bgpu partition\w*",
    "interconnect_gbs": r"\bnv ?link\b|\binterconnect\b|\bnvswitch\b|\binfinity fabric\b|\bp2p\b"
    r"|\ball[- ]?reduce\b|\bgradient (?:sync\w*|exchange)\b"
    r"|\bgpu[- ]to[- ]gpu\b|\b(?:link|peer) bandwidth\b",
    "pcie": r"\bpcie? (?:gen|lanes?|version|bandwidth)\b|\bwhich pcie\b|\bpci ?express\b",
    # (not "computing power", "processing power": the card's compute)
    "tdp_w": r"(?<!computing )(?<!compute )(?<!processing )(?<!computational )\bpower\b"
    r"|\btdp\b|\bwatts?\b|\bdraw\b|\bpsu\b|\bwattage\b"
    # "I would prefer the lower-powered card", "less power-hungry"
    r"|\b(?:lower|low|less|least|higher)[- ]powered\b|\bpower[- ](?:hungry|efficient)\b"
    # a hot, closed space: "a small, poorly ventilated cupboard", "in a closet with no airflow"
    r"|\b(?:poorly|badly|barely|not well|un)[- ]?ventilated\b|\bno (?:ventilation|airflow)\b"
    r"|\b(?:cupboard|closet)\b"
    r"|\b(?:both|each|all) (?:at |are |run at |draw )?\d{1,4} ?w\b"  # "both at 25W max right"
    # "does one use more electricity?": the draw asked of the cards
    r"|\b(?:use|uses|draw|draws|consume|consumes|pull|pulls|need|needs) (?:more|less|the most"
    r"|the least) (?:electricity|energy|juice)\b"
    r"|\b\d{2,4} ?w (?:really|actually|truly) (?:its|the) max\b",  # "is 400W really its max?"
    "form_factor": r"\bform factor\b|\bsingle[- ]slot\b|\bdual[- ]slot\b|\bslots?\b"
    # "how big is the card", not "how big is the gap"
    r"|\bhow big\b(?! (?:is |of )?(?:the |a |that )?(?:gap|difference|jump|speed ?up|improvement"
    r"|upgrade|boost|deal|advantage|win|lead|hit|drop|loss)\b)",
    # "when did it launch" (a date), not "what did it launch at" (a price)
    "release_year": r"(?<!press )\breleased?\b"
    r"|(?<!at its )(?<!at )(?<!than )\blaunch(?:ed)?\b(?! (?:at|for|price|msrp)\b)"
    r"|\bhow old\b",  # not "what did it cost at its launch"
}
# the families of four-bit formats: "GPTQ vs AWQ vs GGUF" sets two of them side by side (Q4_K_M
# against Q8_0 is two levels of one, quantization's)
_QUANT_FAMILIES = (
    r"gptq", r"awq", r"gguf|i?q\d_k(?:_[sml])?|q\d_0", r"exl2", r"nf4|bnb|bitsandbytes"
)  # fmt: skip
# (anchored at the start: lookaheads tried at every position would scan the text once each)
_QUANT_PAIRS = (
    r"\A(?:"
    + "|".join(
        rf"(?=[\s\S]*\b(?:{a})\b)(?=[\s\S]*\b(?:{b})\b)"
        for n, a in enumerate(_QUANT_FAMILIES)
        for b in _QUANT_FAMILIES[n + 1 :]
    )
    + ")"
)
_ENGINE_NAMES = r"(?:vllm|sglang|llama\.?cpp|ollama|tensorrt-?llm|tgi)"
TOPIC_WORDS: dict[str, str] = {
    # "GPTQ vs AWQ vs GGUF Q4_K_M, when would I pick each" (checked first: each alone is
    # quantization's)
    "quant_formats": _QUANT_PAIRS,
    # "whats the difference between lora and qlora", "lora vs qlora?" (before quantization's)
    "lora_vs_qlora": r"\blora\b[^.?!]{0,25}\b(?:vs\.?|versus|or|and|against)\s(?:a\s)?qlora\b"
    r"|\bqlora\b[^.?!]{0,25}\b(?:vs\.?|versus|or|and|against)\s(?:a\s)?lora\b"
    r"|\bwhat(?:'s| is)\b[^.?!]{0,10}\bqlora\b",
    # "what is gguf", "gguf format?" (before quantization's)
    "gguf": r"\bwhat(?:'s| is| are)\b[^.?!]{0,12}\bgguf\b(?!\s(?:vs|or|and)\b)"
    r"|\bgguf\b[^.?!]{0,15}\b(?:mean|stand for)\b",
    # "vllm vs llama.cpp, which for serving", "sglang or vllm?" (no model or card to weigh them on)
    "serving_engines": rf"\b{_ENGINE_NAMES}\b[^.?!]{{0,20}}\b(?:vs\.?|versus|or|and|against"
    rf"|difference)\b[^.?!]{{0,10}}\b{_ENGINE_NAMES}\b",
    # "why does vram matter", "more vram or a faster gpu?" (before VRAM's own)
    # ("why vram matters more than cuda cores for llms")
    "vram_matters": r"\bwhy (?:does |do |is )?\b[^.?!]{0,15}\b(?:vram|gpu memory)\b[^.?!]{0,15}"
    r"\b(?:matters?|important|so important)\b"
    r"|\bmore (?:vram|memory)\b[^.?!]{0,20}\bor\b[^.?!]{0,25}"
    r"\b(?:faster|more powerful|stronger|quicker)\b|\b(?:faster|more powerful) (?:gpu|card)\b"
    r"[^.?!]{0,20}\bor\b[^.?!]{0,15}\bmore (?:vram|memory)\b",
    # "why is my llm slow when it spills into system ram" (before the context's speed)
    # ("ollama ps shows 45%/55% CPU/GPU": the model split between the CPU and the card)
    "ram_spill": r"\bspill\w*\b[^.?!]{0,30}\b(?:system |cpu |main )?(?:ram|memory)\b"
    r"|\b\d{1,3}\s?%\s?/\s?\d{1,3}\s?%\s?cpu\s?/\s?gpu\b|\bcpu\s?/\s?gpu\b[^.?!]{0,20}\d{1,3}\s?%"
    r"|\b(?:slow\w*|crawl\w*|tank\w*)\b[^.?!]{0,40}\b(?:offload\w*|split\w*)\b[^.?!]{0,20}\b"
    r"(?:to|into|in) (?:the )?(?:system |cpu )?ram\b",
    # "what does tokens per second depend on", "what determines inference speed"
    "decode_speed": r"\bwhat (?:does|do|decides|determines|affects|sets|limits)\b[^.?!]{0,20}"
    r"\b(?:tok(?:en)?s? (?:per|a) ?s(?:ec(?:ond)?)?|tok/s|t/s|token speed|generation speed"
    r"|inference speed|decode speed)\b|\b(?:tok(?:en)?s? per second|tok/s|inference speed"
    r"|generation speed)\b[^.?!]{0,10}\bdepends?\b",
    # "why does my tok/s drop so much when context gets long?"
    "context_speed": r"\b(?:tok(?:en)?s?/s|tokens? (?:per|a) second|speed|slow\w*|drops?|falls?"
    r"|decreas\w*)\b.{0,60}(?:\blong(?:er)?\b[^.?!]{0,20}\b(?:context|ctx|prompts?|"
    r"conversations?|chats?|history|threads?)\b|\bcontext (?:gets|grows|is|fills|goes)\b)"
    r"|\b(?:long(?:er)? context|context grows)\b.{0,40}\b(?:slow\w*|tok(?:en)?s?/s|speed)\b",
    # "what happens if i run out of vram with vllm", "why cuda out of memory" (before the KV
    # cache's and CUDA's own words)
    "out_of_memory": r"\b(?:run(?:s|ning)?|ran) out of (?:gpu |the |its )?(?:vram|memory"
    r"|kv[- ]?cache(?: memory| space| blocks)?)\b|\bcuda out of memory\b|\bout of memory errors?\b"
    r"|\bwhat happens\b[^.?!]{0,40}\b(?:ooms?|out of memory)\b"
    r"|\b(?:keeps?|kept|always|still) (?:oom(?:s|ing|ed|'?d)?|getting ooms?)\b|\booming\b",
    # "why are datacenter gpus so expensive compared to gaming cards?" (before hbm's)
    "datacenter_price": r"\bwhy\b[^.?!]{0,40}\b(?:datacenter|data center|enterprise|server|pro"
    r"|workstation)\s(?:gpus?|cards?)\b[^.?!]{0,30}\b(?:expensive|pricey|pricier"
    r"|cost(?:ly)? so much|so much more)\b"
    r"|\bwhy\b[^.?!]{0,20}\b(?:h100s?|a100s?|b200s?)\b[^.?!]{0,20}\bcost so much\b",
    "hbm": r"\bhbm\w*\b",
    "gddr": r"\bgddr\w*\b",
    "nvlink": r"\bnv ?link\b|\bnvswitch\b",
    # "do geforce cards support p2p?" (checked before PCIe: a P2P question names it too)
    "p2p": r"\bp2p\b|\bpeer[- ]to[- ]peer\b|\bgpudirect\b",
    "pcie": r"\bpcie\b|\bpci express\b",
    # ("why quote fp16 tensor tflops, not the fp32 / cuda core number": the tensor cores' rate)
    "tensor_cores": r"\btensor cores?\b|\b(?:fp16|bf16|fp8|int8) tensor\b"
    r"|\btensor (?:tflops|flops|throughput|numbers?|rates?|figures?)\b",
    "mig": r"\bmig\b",
    "fp8": r"\bfp8\b",
    "tf32": r"\btf32\b",
    "bf16": r"\bbf16\b",
    "sparsity": r"\bsparsity\b|\bsparse\b|\b2:4\b",
    "quantization": r"\bquanti[sz]\w*\b|\bgguf\b|\bawq\b|\bgptq\b"
    # "'int8' instead of 'fp16': what's the difference"
    r"|\bint8'?\s(?:instead of|vs\.?|versus|rather than|over)\s'?(?:fp16|bf16|fp32|float16)\b"
    r"|\b(?:fp16|bf16|fp32|float16)'?\s(?:vs\.?|versus|or|against)\s'?int[48]\b"
    r"|\bi?q[2-8]_(?:k(?:_[sml])?|[01])\b|\bq[2-8] (?:and|or|vs\.?|versus) q[2-8]\b"  # "q4 and q8"
    # "wat does q4 mean??", "what is q8 exactly": a quant's name asked about
    r"|\bwh?at(?: does| is|'s|s) (?:a |the )?(?:q[2-8]|4[- ]?bit|8[- ]?bit)(?:_k_m)?"
    r"(?: bit| part| thing| bit of the name)? (?:actually |really |even )?(?:mean|stand"
    r"|even|exactly|actually)\b|\bwh?at(?: does| is|'s) (?:q[2-8]|4[- ]?bit)\?"
    # "what's the Q4 / Q8 thing on model files", "q4 vs q8, does the smaller one make it dumber"
    r"|\bq[2-8]\s?(?:/|vs\.?|versus|or|and)\s?q[2-8]\b",
    # "what is a 'context window', and why does a longer one 'eat memory'?" (said only as a
    # setting, "a 32k context window", it is no concept asked)
    "context_window": r"(?<=what is a )'?context (?:window|length)s?\b"
    r"|(?<=what's a )'?context (?:window|length)s?\b"
    r"|(?<=what is the )'?context (?:window|length)s?\b"
    r"|\bcontext (?:window|length)s?'?\b.{0,80}?'?\b(?:eats?|uses?|takes?|costs?|needs?) (?:up |so "
    r"much |more )?(?:memory|vram)\b",
    "kv_cache": r"\bkv[- ]?cache\b|\bcach[eé] (?:de )?kv\b"  # ("la caché KV")
    # "how much memory does the 32k context take?", "the chat gets long and replies get slower"
    r"|\bhow much (?:memory|vram|ram) (?:does |do |will )?(?:the |a |my |that )?(?:\d+k )?"
    r"(?:context|conversation|chat history)\b"
    r"|\b(?:chat|conversation|context)s? (?:gets?|grows?|becomes?) (?:long|longer|bigger)\b"
    r"[^.?!]{0,60}\bslow",
    # "why 4x the model size for adam", "what are optimizer states", "training memory"
    "training_memory": r"\boptimi[sz]er states?\b|\btraining memory\b"
    r"|\badam\w*\b(?=.{0,80}\b(?:vram|memory)\b)|\b(?:vram|memory)\b.{0,80}\badam\w*\b",
    "flash_attention": r"\bflash[- ]?attention\b",
    # "what's all this 'VRAM' business?", "is VRAM the same as my PC's memory?"
    "vram": r"\bwhat(?:'s| is| does)\b[^.?!]{0,25}\bvram\b|\bvram\b[^.?!]{0,20}\b(?:mean|business"
    r"|same as|different from|vs\.? (?:system )?ram)\b",
    "memory_units": r"\bmib\b|\bgib\b|\bnvidia-smi\b",
    "ecc": r"\becc\b",
    # "can I mix an nvidia and an amd gpu for llama.cpp?" (before ROCm's)
    "mixed_vendors": r"\b(?:mix\w*|combine\w*|together|both)\b[^.?!]{0,30}"
    r"\b(?:nvidia|geforce|rtx)\b[^.?!]{0,20}\b(?:amd|radeon|intel|arc)\b"
    r"|\b(?:mix\w*|combine\w*)\b[^.?!]{0,30}\b(?:amd|radeon)\b[^.?!]{0,20}\b(?:nvidia|geforce|rtx)\b",
    # "does vllm run on amd cards?": the engine on AMD's stack
    "rocm": r"\brocm\b|\b(?:vllm|pytorch|torch|llama\.?cpp|ollama|sglang|tensorflow|jax)\b"
    r"[^.?!]{0,20}\b(?:on|with|support\w*)\b[^.?!]{0,15}\b(?:amd|radeon|instinct)\b",
    # "my 3090 hits 83C under load, is that ok?": a card's temperature
    "temperature": r"\b\d{2,3}\s?(?:°\s?c|c|degrees?(?: c(?:elsius)?)?)\b"
    r"(?=[^.?!]{0,40}\b(?:ok|okay|normal|fine|safe|hot|too hot|bad|worry|worried|concern\w*"
    r"|dangerous)\b)|\b(?:running|runs|gets|is) (?:too |really |very )?hot\b|\btemps\b"
    # (not "temperature 0.7": a sampling setting)
    r"|\b(?:gpu|card|core|hotspot|hot spot|junction|vram|memory) temp(?:erature)?s?\b"
    r"|\bthermal throttl\w*",
    "cuda": r"\bcuda\b",
    "memory_bandwidth": r"\bmemory bandwidth\b|\bbandwidth\b",
    # "why is my 70b slow on 2 gpus but fast on 1 big one": a split's pace against one card's
    "split_slower": r"\b(?:slow\w*|slower)\b[^.?!]{0,40}\b(?:on |across |over )?(?:2|two|multiple"
    r"|several|both)\s(?:gpus|cards)\b[^.?!]{0,40}\b(?:one|1|a single|single)\b",
    "multi_gpu": r"\btensor parallel\w*\b|\bmulti[- ]gpu\b|\bdata parallel\w*\b"
    r"|\bsplit(?:ting)? (?:the )?layers\b|\blayer split\w*",
    "mfu": r"\bmfu\b|\bmodel flops utili[sz]ation\b",
    "moe": r"\bmixture[- ]of[- ]experts?\b|\bmoes?\b|\bactive (?:params?|parameters)\b"
    r"|\bwhat(?:'s| does| is)\b[^.?!]{0,20}\ba\d{1,2}(?:\.\d)?b\b",  # "the 'A3B' in Qwen3-30B-A3B"
}
# well-known data sets: (pattern, samples in one epoch, what a sample is, source)
DATASETS: tuple[tuple[str, str, float, str], ...] = (
    (
        "ImageNet-21k",
        r"\bimagenet-?(?:21k|22k)\b",
        14_197_122,
        "https://www.image-net.org/about.php (14,197,122 images in the full ImageNet)",
    ),
    (
        "ImageNet-1k",
        r"\bimagenet(?:-?1k)?\b(?!-?2[12]k)",
        1_281_167,
        "https://www.image-net.org/challenges/LSVRC/2012/ (1,281,167 training images)",
    ),
    ("COCO 2017", r"\bcoco\b", 118_287, "https://cocodataset.org/#download (train2017)"),
    ("SST-2", r"\bsst-?2\b", 67_349, "https://huggingface.co/datasets/stanfordnlp/sst2"),
    (
        "SQuAD v1.1",
        r"(?<!our )(?<!the )\bsquad\b(?! (?:of|members?|leads?)\b)",
        87_599,
        "https://rajpurkar.github.io/SQuAD-explorer/",
    ),
    ("CIFAR-10", r"\bcifar-?10\b(?!0)", 50_000, "https://www.cs.toronto.edu/~kriz/cifar.html"),
    ("CIFAR-100", r"\bcifar-?100\b", 50_000, "https://www.cs.toronto.edu/~kriz/cifar.html"),
    (
        "MNLI",
        r"\b(?:glue[- ])?mnli\b|\bmulti-?nli\b",
        392_702,
        "https://huggingface.co/datasets/nyu-mll/glue (mnli train split: 392,702 pairs)",
    ),
    (
        "CoNLL-2003",
        r"\bconll(?:-?2003|03)?\b",
        14_041,
        "https://huggingface.co/datasets/eriktks/conll2003 (train split: 14,041 sentences)",
    ),
    ("MNIST", r"\bmnist\b", 60_000, "http://yann.lecun.com/exdb/mnist/"),
)
# data sets of tiny images (the sources above: CIFAR is 32x32 colour images, MNIST 28x28 digits):
# the ImageNet input size whose work the nets trained on them do, 4 times theirs. Their
# small-image variants keep the full size through the first stage (a ResNet's 3x3 stem with no
# max-pool, a ViT's 4x4 patches), where the ImageNet nets' stem and 16x16 patches divide it by 4
DATASET_RESOLUTION = {"CIFAR-10": 128, "CIFAR-100": 128, "MNIST": 112}
# well-known text corpora a language model is trained on: (name, pattern, tokens, source)
CORPORA: tuple[tuple[str, str, int, str], ...] = (
    (
        "OpenWebText",
        r"\bopen ?web ?text2?\b|\bowt\b",
        9_035_582_198,
        "GPT-2 tokens, the train split of github:karpathy/nanoGPT data/openwebtext/prepare.py",
    ),
)
# A model trained from scratch on a data set, no epochs said: the published recipe's epochs, by
# the model's architecture (the catalog's vision architectures: cnn, vit, hybrid)
RECIPE_EPOCHS: dict[tuple[str, str], tuple[int, str]] = {
    ("ImageNet-1k", "cnn"): (
        90,
        "the usual ResNet recipe (torchvision's classification reference trains 90 epochs)",
    ),
    ("ImageNet-1k", "vit"): (300, "the DeiT recipe (Touvron et al. 2021 train 300 epochs)"),
    ("ImageNet-1k", "hybrid"): (300, "the DeiT recipe (Touvron et al. 2021 train 300 epochs)"),
    ("ImageNet-21k", "vit"): (
        300,
        "the AugReg pre-training recipe (github:google-research/big_vision "
        "big_vision/configs/vit_i21k.py: total_epochs 300)",
    ),
}
# a data set a pretrained encoder is fine-tuned on, no epochs said: the reference recipe's
# epochs and sequence length (name -> epochs, tokens per sequence, source)
FINETUNE_RECIPES: dict[str, tuple[int, int, str]] = {
    "SQuAD v1.1": (
        2,
        384,
        "the BERT reference recipe (github:google-research/bert README.md, run_squad.py: "
        "--num_train_epochs=2.0 --max_seq_length=384)",
    ),
}
# a subject fine-tune (DreamBooth, a LoRA of one's own photos): the diffusers examples'
# README (examples/dreambooth, README_sdxl.md) trains 500 steps at batch 1 on 5 photos of a dog
DREAMBOOTH_EPOCHS = 100
DREAMBOOTH_MAX_IMAGES = 50  # a subject's photos (the DreamBooth paper: 3-5); more are a data set
_SUBSET = re.compile(r"\bsubsets?\b|\b\d+[- ]class(?:es)?\b|\bportion\b|\bfraction\b")
_WHOLE_RUN_INTENTS = ("train_time", "cost", "recommend", "buy", "rent_or_buy")

# ---------------------------------------------------------------- normalising text

_SUFFIX = re.compile(
    r"(?<=\w[A-Z0-9])'(?!(?:s|ll|re|ve|d|m)\b)[a-z\u00e7\u011f\u0131\u00f6\u015f\u00fc]{1,5}\b"
)
# Hungarian case endings joined by a hyphen to a name, a number or a unit: "RTX 4090-et",
# "3090-em", "8 GB-os kártyán", "A100-on" (English "A100-based" and "4-bit" keep theirs)
# Finnish and Estonian case endings after a colon on a name or a number ("RTX 4090:llä", "XL:lle",
# "A100:n"), and on LoRA written without one ("QLoRAlla"): the name alone
_COLON_SUFFIX = re.compile(
    r"(?<=[0-9A-Za-z]):(?:n|a|ä|ta|tä|ssa|ssä|sta|stä|lla|llä|lta|ltä|lle|ksi|na|nä|iin|een|aan"
    r"|ään|ga|le|l|s|st|ni)\b"
    r"|(?<=LoRA)(?:lla|lle|n|ssa|sta|ksi|ga|ks)\b"
)
_HYPHEN_SUFFIX = re.compile(
    r"(?<=[0-9A-Z\u20ac$\u00a3])-(?:et|at|ot|öt|em|am|om|öm|es|os|as|ös|ben|ban|re|ra|nek|nak"
    r"|vel|val|hez|hoz"
    r"|höz|ről|ról|ből|ból|on|en|ön|ig|ért|ként|t"
    r"|y\u0148|i\u0148|u\u0148|\u00fc\u0148|ny|ni|dan|den|da|de"
    r"|rako|rentzat|entzat|arekin|ekin|ko|ren|tan|etan|an|ek|k|ri)\b(?![/.-])"
    r"|(?<=[a-z])-(?:rako|rentzat|entzat|arekin)\b"
    # (not "01-ai/Yi-34B"; Turkmen's: "RTX 4090-yň", "A100-de"; Basque's: "SDXL-rako",
    # "LoRA-k", "1024x1024-n", "RTX 4090-arekin")
)
_REPLACE = {
    "\u00d7": "x",
    "\u2013": "-",
    "\u2014": " - ",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    "\uff04": "$",
    "\u20ac": "EUR ",
    "\u00a3": "GBP ",
    "\u061f": "?",  # Arabic question mark, comma and percent sign
    "\u060c": ",",
    "\u066a": "%",
    "\u200f": "",  # right-to-left and left-to-right marks
    "\u200e": "",
}
_GREEK = re.compile("[\u0370-\u03ff]")


_IN_A_LAPTOP = re.compile(
    r"\b(\d{4}(?: ?ti)?) (?:in|on|inside|of) (?:the |a |an |my |our |gaming |thin )*"
    r"(?:laptops?|notebooks?)\b",
    re.IGNORECASE,
)
_FAMILY = (
    r"(?:flux|sdxl|sd|stable[- ]diffusion|llama|mistral|mixtral|qwen|gemma|phi|deepseek|whisper"
    r"|bert|roberta|resnet|vit|yolo)[\w.-]*"
)
_TWO_NAMES = re.compile(rf"\b({_FAMILY})/({_FAMILY})\b", re.IGNORECASE)
_SIGNED_OR_EXPONENT = re.compile(
    r"(?:(?<![\w.+\-])-)?(?<![\w.+\-])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])"
    r"|(?:(?<=\s)|^)-\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])"
)
_CJK = re.compile(f"([{CJK_CHARS}]+)")


def _plain(match: re.Match[str]) -> str:
    """A number as the patterns read it: "1e9" written out; a negative or absurd one (which no
    setting takes) blanked, so that "2.2e+39 GiB" is not read as 39 GiB."""
    written = match.group(0)
    if "e" not in written.lower() and not written.startswith("-"):
        return written
    value = float(written)
    if written.startswith("-") or not 1e-6 <= value <= 1e15:
        return " ~ "
    return f"{value:f}".rstrip("0").rstrip(".")


# words the recognisers look for; a near miss of one of them is read as it ("fien-tune")
KEYWORDS = (
    "finetune",
    "fine-tune",
    "inference",
    "bandwidth",
    "memory",
    "compare",
    "recommend",
    "context",
    "training",
    "serving",
    "tokens",
    "throughput",
    "cheapest",
    "maximum",
    "quantized",
    "precision",
    "between",
    "versus",
    "which",
    "should",
    "specs",
    "qlora",
    "price",
    "prices",
    "batch",
    "faster",
    "power",
    "cost",
    "difference",
    "expensive",
)


# the keywords and their stems before an ending ("fine-tun" of "fine-tune"), for inflections
_KEYWORD_STEMS = frozenset(KEYWORDS) | {k.rstrip("e") for k in KEYWORDS}


# English words a letter or two from a keyword: "252 trading days" is no misspelt "training"
_NEAR_KEYWORDS = frozenset({
    "trading", "trader", "traders", "traded", "grading", "raining",
    # "runs through all 20,000 three times" is no "throughput"; "content" no "context"
    "through", "throughout", "thought", "thorough", "content", "contents", "contest", "extensive",
    "interference", "species", "shoulder", "shoulders", "powder", "father", "foster", "fasten",
    "memoir", "starving", "severing", "prince", "princes", "deference",
})  # fmt: skip


@lru_cache(maxsize=1 << 14)  # a word's near keyword, once per word (a server sees many)
def _keyword(word: str) -> str:
    low = word.lower()
    if (
        len(low) == 4
        and low[0] == "q"
        and difflib.SequenceMatcher(None, low, "qlora").ratio() >= 0.8
    ):
        return "qlora"  # "qlra", "qloa", "qora"
    if len(low) < 5 or low in KEYWORDS or f"{low}s" in KEYWORDS or low.rstrip("s") in KEYWORDS:
        return word
    if low in _NEAR_KEYWORDS:
        return word
    if rx.sub(r"(?:d|ed|r|rs|ing)$", "", low) in _KEYWORD_STEMS:
        return word  # an inflection, no slip: "fine-tuned", "finetuner", "comparing"
    close = difflib.get_close_matches(low, KEYWORDS, n=1, cutoff=0.8)
    # a slip rarely changes the first letter: "loras" is no misspelt "qlora"
    return close[0] if close and close[0][0] == low[0] else word


def _spell(text: str) -> str:
    """Near misses of the recognisers' keywords fixed: "bandwith", "fien-tune", "infrence"."""
    return rx.sub(r"[A-Za-z][A-Za-z-]+", lambda m: _keyword(m.group(0)), text)


_TENS_SAID = {"one": 10, "two": 20, "three": 30, "four": 40, "five": 50, "six": 60, "eight": 80,
              "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
              "eighty": 80, "ninety": 90}  # fmt: skip
# not a model number when a quantity follows: "A one hundred dollar card", "plan B two hundred
# hours", "twenty sixty people"
_NOT_A_CARD = (r"(?![- ]?(?:one|two|three|four|five|six|seven|eight|nine|percent|%|hours?|hrs?"
               r"|days?|minutes?|gb|mb|k\b|users?|people|students|staff|dollars?|bucks|usd|euros?"
               r"|pounds?|budget|watts?|w\b|tokens?|images?|steps?|\$))")  # fmt: skip
_SPOKEN_HUNDREDS = re.compile(
    r"(?:(?<=\b[Tt]he )|(?<=\b[Aa]n )|(?<=\b[Aa] )|(?<=['\"]))([ABHLVabhlv])[- ]?"
    r"(one|two|three|four|eight)"
    r"[- ]hundred\b" + _NOT_A_CARD
)
_SPOKEN_PAIR = re.compile(  # "thirty ninety", "forty-eighty": a card's four digits in two pairs
    r"(\b(?:rtx|gtx|the|a|an|my|our|that|this|his|her|used|new|two|2x?) ['\"]?)"
    r"(twenty|thirty|forty|fifty)[- ](sixty|seventy|eighty|ninety)\b" + _NOT_A_CARD,
    re.IGNORECASE,
)


_UNITS = {w: n for n, w in enumerate(
    ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"), 1)}  # fmt: skip
_TEENS = {w: n for n, w in enumerate(
    ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
     "eighteen", "nineteen"), 10)}  # fmt: skip
_TENS = {w: n * 10 for n, w in enumerate(
    ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), 2)}  # fmt: skip
_SMALL = (rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS)}))?|{'|'.join(_TEENS)}"
          rf"|{'|'.join(_UNITS)})")  # fmt: skip
# ("a hundred and fifty", "fifteen hundred": a hundreds' count may be "a" or a teen)
# ("thirty-five hundred": a count of hundreds up to ninety-nine)
_GROUP = (rf"(?:(?:{_SMALL}|a)[- ]hundred(?:(?: and)? {_SMALL})?"
          rf"|{_SMALL})")  # fmt: skip
# a number said in words, as dictation writes it: "two hundred fifty six", "one hundred
# thousand", "twenty-four"; not "one" to "twelve" alone (the count words read those), nor two
# tens in a row ("forty ninety": a card's number said in pairs)
_SPOKEN_NUMBER = re.compile(
    rf"\b(?:{_GROUP}|a(?=[- ]thousand\b))(?:[- ]thousand(?:(?: and)? {_GROUP})?)?\b"
    rf"(?![- ](?:{'|'.join(_TENS)}|hundred)\b)",
    re.IGNORECASE,
)
# "five fifty per GPU hour", "one dollar forty an hour": dollars and cents said aloud
_SPOKEN_PRICE = re.compile(
    # ("a buck ninety an hour": a dollar said as "a")
    rf"\b({'|'.join(_UNITS)}|{'|'.join(_TEENS)}|a(?= (?:dollar|buck)))"
    r" (?:dollars? |bucks? )?(?:and )?"
    rf"((?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS)}))?|{'|'.join(_TEENS)})"
    r"(?: cents)?(?= (?:an?|per|each) (?:gpu[- ])?(?:hour|hr)\b)",
    re.IGNORECASE,
)


def _spoken_value(said: str) -> int:
    """The value of a number said in words ("two hundred fifty six" -> 256)."""
    total = group = 0
    for word in rx.split(r"[- ]", said.lower()):
        if word == "hundred":
            group *= 100
        elif word == "thousand":
            total, group = (total + group) * 1000, 0
        elif word == "a":
            group += 1  # "a hundred", "a thousand"
        elif word != "and":
            group += _UNITS.get(word) or _TEENS.get(word) or _TENS[word]
    return total + group


def _spoken(match: re.Match[str]) -> str:
    said = match.group(0)
    # ("one million", "twelve gigabytes": a scale or a unit after the word makes it a figure)
    scaled = rx.match(r"[- ](?:million|billion|trillion|gigabytes?|gigs?|gb|terabytes?|tb"
                      r"|gib)\b", match.string[match.end() :], re.I)  # fmt: skip
    if said.lower() in (*_UNITS, "ten", "eleven", "twelve") and not scaled:
        return said  # "one", "two", "ten": the count words read them ("one million": 1 million)
    before = rx.search(r"(\w+)[- ]$", match.string[: match.start()])
    if before and (before.group(1).lower() in _TENS or before.group(1).lower() in _TEENS):
        return said  # "forty ninety", "nineteen ninety": said in pairs
    article = (
        before is not None
        and before.group(1) in ("a", "A")
        and not rx.search(
            r"\b(?:an|the|rtx|nvidia|quadro)\s$", match.string[: before.start()], re.IGNORECASE
        )
    )
    if before and rx.fullmatch(r"[abhlv]", before.group(1), re.IGNORECASE) and not article:
        # "plan B two hundred hours": digits would make it a B200 ("a four thousand and ninety"
        # is an article before a 4090; "an A four thousand" the RTX A4000)
        return said
    return str(_spoken_value(said))


def spoken_numbers(text: str) -> str:
    """Numbers said in words written in digits ("two hundred fifty six H100s" -> "256 H100s",
    "five fifty per GPU hour" -> "$5.50 per GPU hour")."""
    text = rx.sub(r"\btwenty[- ]four[- ]seven\b", "24/7", text, flags=re.IGNORECASE)
    # "accesa 24 ore su 24", "24 horas sobre 24", "24 heures sur 24": around the clock
    text = rx.sub(r"\b24 ?(?:ore|horas|heures|stunden|hours|h) (?:su|sobre|sur|von|of|out of) 24\b",
                  "24/7", text, flags=re.IGNORECASE)  # fmt: skip
    text = _SPOKEN_PRICE.sub(
        lambda m: f"${_spoken_value(m.group(1))}.{_spoken_value(m.group(2)):02d}", text
    )
    # "a four-thousand-and-ninety", "three-thousand-and-fifty Ti": a number hyphenated whole
    text = _HYPHENED_NUMBER.sub(lambda m: m.group(0).replace("-", " "), text)
    # "two and a half grand", "a grand and a half": thousands and a half
    text = _GRAND_AND_A_HALF.sub(_grand_and_a_half, text)
    # "Qwen two point five", "two point five hours": a decimal said aloud
    text = _SPOKEN_POINT.sub(
        lambda m: f"{_spoken_value(m.group(1))}.{_UNITS.get(m.group(2).lower(), 0)}", text
    )
    # "in four bits", "eight-bit": a weight format's bits said in words
    text = rx.sub(r"\b(two|three|four|five|six|eight|sixteen)([- ]bits?)\b",
                  lambda m: f"{_UNITS.get(m.group(1).lower()) or _TEENS[m.group(1).lower()]}"
                  f"{m.group(2)}", text, flags=re.IGNORECASE)  # fmt: skip
    # "YOLO eleven, the small one": a YOLO version said in words
    text = rx.sub(r"\b(yolo ?v?)(five|eight|nine|ten|eleven|twelve)\b",
                  lambda m: m.group(1) + str(_UNITS.get(m.group(2).lower())
                                             or _TEENS[m.group(2).lower()]),
                  text, flags=re.IGNORECASE)  # fmt: skip
    return _SPOKEN_NUMBER.sub(_spoken, text)


_SPOKEN_POINT = re.compile(
    rf"\b({'|'.join(_UNITS)}|ten|eleven|twelve) point ({'|'.join(_UNITS)}|zero|oh)\b",
    re.IGNORECASE,
)


_GRAND_AND_A_HALF = re.compile(
    rf"\b(?:({'|'.join(_UNITS)}|\d+) and a half (grand|thousand)"
    r"|an? (grand|thousand) and a half)\b",
    re.IGNORECASE,
)


def _grand_and_a_half(m: re.Match[str]) -> str:
    whole = m.group(1)
    count = 1 if whole is None else int(whole) if whole.isdigit() else _UNITS[whole.lower()]
    return f"{count + 0.5:g} {(m.group(2) or m.group(3)).lower()}"


_NUMBER_WORD = (rf"(?:{'|'.join(_UNITS)}|{'|'.join(_TEENS)}|{'|'.join(_TENS)}|hundred|thousand"
                r"|and)")  # fmt: skip
_HYPHENED_NUMBER = re.compile(
    rf"\b{_NUMBER_WORD}(?:-{_NUMBER_WORD}){{2,}}\b(?<!and)", re.IGNORECASE
)


# every Unicode decimal digit outside ASCII as its ASCII digit, and Arabic's thousands separator
# and decimal sign as a comma and a dot
_DIGITS = {
    **{cp: str(unicodedata.decimal(chr(cp))) for cp in range(0x80, 0x10000)
       if chr(cp).isdecimal()},
    0x066C: ",",
    0x066B: ".",
}  # fmt: skip


# a pace read off a progress bar as a clock: "~1:12 per epoch", "1:02:30 an epoch", "0:04/it"
_CLOCK_PACE = re.compile(
    r"(?<![\d:.])(?:(\d{1,2}):)?(\d{1,2}):([0-5]\d)(?![\d:])"
    r"(?=\s?(?:per|each|an?|/)\s?(?:epoch|step|it|iteration|image|file|episode)\b)"
)


def _clock_seconds(m: re.Match[str]) -> str:
    hours, minutes, seconds = (int(g) if g else 0 for g in m.groups())
    return f"{hours * 3600 + minutes * 60 + seconds} seconds"


# Currencies other than the dollar, euro and pound, as written around an amount, and the ISO code
# the understanding step reads them as ("250 000 ₽" -> "250 000 RUB", "₹40,000" -> "INR 40,000",
# "17 000 Kč" -> "17 000 CZK"): amounts in the user's own money, used as given, never converted
# (there is no exchange rate on record). Symbols are read anywhere; words only beside a number.
_FX_SYMBOLS = {"₽": "RUB", "₴": "UAH", "₪": "ILS", "₹": "INR", "₺": "TRY", "₩": "KRW",
               "฿": "THB", "₸": "KZT", "₫": "VND", "₱": "PHP", "₦": "NGN", "﷼": "IRR",
               "৳": "BDT", "₾": "GEL", "₲": "PYG", "₡": "CRC", "₭": "LAK", "៛": "KHR",
               "₮": "MNT", "₼": "AZN", "₵": "GHS"}  # fmt: skip
# other dollars, written with their country's letters before the sign ("AU$2,500", "NZ$ 900"):
# never the US dollar (not "US$")
_OTHER_DOLLARS = {"AU": "AUD", "A": "AUD", "NZ": "NZD", "CA": "CAD", "C": "CAD", "S": "SGD",
                  "SG": "SGD", "HK": "HKD", "J": "JMD", "JA": "JMD", "TT": "TTD", "NT": "TWD",
                  "EC": "XCD"}  # fmt: skip
_OTHER_DOLLAR = re.compile(
    r"(?<![A-Za-z])(" + "|".join(sorted(_OTHER_DOLLARS, key=len, reverse=True)) + r")\$\s?"
    r"(\d[\d,.]*\d|\d)"
)
# a dollar amount with its sign after it and then its country: "0,95 $ CA", "2 400 $ (canadiens)"
_DOLLAR_LANDS = {"canadiens": "CA", "canadien": "CA", "australiens": "AU", "ca": "CA", "can": "CA"}
_DOLLAR_SIGN_AFTER = re.compile(
    r"(?<![\w$.,])(\d{1,3}(?: \d{3})+|\d[\d,.]*\d|\d) ?\$ ?\(?(CA|AU|NZ|HK|SG|CAN|canadiens?"
    r"|australiens)\b\)?"
)
# other pounds, written with their country's letters before the sign ("FK£1,200", "E£ 5000",
# "L£"): the Falklands', Egypt's and Lebanon's, never sterling
_OTHER_POUNDS = {"FK": "FKP", "E": "EGP", "L": "LBP"}
_OTHER_POUND = re.compile(r"(?<![A-Za-z])(FK|E|L)£\s?(\d[\d,.]*\d|\d)")
_FX_WORDS = (
    ("RUB", r"руб(?:лей|ля|ль)?\.?|р\.|rub(?:les?)?"),  # noqa: RUF001
    ("UAH", r"грн\.?|гривень|гривні|гривня|hryvni?as?|uah"),
    ("CZK", r"kč|kc|korun|koruny|czk"),
    ("PLN", r"zł|zl|złotych|zlotych|pln"),
    ("HUF", r"forint\w*|huf"),  # "Ft" (not feet) below
    ("RON", r"lei|ron"),
    ("TRY", r"tl|lira|türk lirası|try"),  # noqa: RUF001
    ("THB", r"บาท|baht|thb"),
    ("SAR", r"ريال|ر\.س|riyals?|sar"),
    ("AED", r"درهم|dirhams?|aed"),
    ("ILS", r"ש\"ח|שקלים|שקל|shekels?|nis|ils"),
    ("IRR", r"ریال|rials?|irr"),
    ("IRT", r"تومان|tomans?"),
    ("INR", r"rupees?|rs\.?|inr"),
    ("JPY", r"円|yen|jpy"),
    ("CNY", r"人民币|元|块钱|yuan|rmb|cny"),
    ("KRW", r"원|won(?!['\u2019]t)|krw"),  # (not "bf16 won't fit")
    ("CHF", r"chf|franken"),
    ("NGN", r"naira|ngn"),
    ("KES", r"ksh\.?|kes|shilling[is]?|shilingi"),
    ("BDT", r"টাকা|taka|bdt"),
    ("IDR", r"rupiah|idr"),
    ("MYR", r"ringgit|myr"),
    ("JOD", r"jod"),  # the dinars of Jordan, Kuwait and Bahrain, in thousandths (fils): _fils
    ("KWD", r"kwd"),
    ("BHD", r"bhd"),
    ("RSD", r"dinara|dinar|din\.?|rsd"),
    ("PKR", r"pkr"),
    ("ZAR", r"rand|zar"),
    ("TMT", r"tmt"),  # the Turkmen manat: "manat" in a message in Turkmen (_fx_codes)
    ("AZN", r"manat|azn"),
    ("UZS", r"so['\u02bb\u2018\u2019]m|сўм|сум|uzs"),
    ("SOM", r"сом|som"),  # the som of Kyrgyzstan or Uzbekistan, said without its country
    ("KZT", r"теңге|тенге|tenge|kzt"),
    ("GEL", r"ლარი|lari|gel"),
    ("VND", r"đồng|dong|vnd"),
    ("ETB", r"birr|etb"),
    ("GHS", r"cedis?|ghs"),
    ("AWG", r"florin|awg"),
    ("AFN", r"افغانۍ|afghanis?|afn"),
    ("XOF", r"f\s?cfa|cfa(?: francs?)?|xof"),  # the CFA franc ("300.000 FCFA")
    ("XAF", r"xaf"),
    ("PYG", r"guaran[ií]es|pyg"),
    ("MGA", r"ariary|mga"),  # Madagascar's ("3 000 000 Ariary")
    # "2,500 Aussie dollars", "fifteen hundred NZ bucks", "300 Canadian dollars"
    ("AUD", r"(?:aussie|australian|oz) (?:dollars?|bucks)"),
    ("NZD", r"(?:nz|kiwi|new zealand) (?:dollars?|bucks)"),
    (
        "CAD",
        r"(?:canadian|canuck) (?:dollars?|bucks)",
    ),  # Aruba's (and Curaçao's "Afl." before the amount)
    ("BRL", r"reais|brl"),  # "3000 reais" ("R$ 3.000" is read by its sign)
    # pesos of a country said, else pesos of one left unsaid: "900.000 pesos ... el dólar está a
    # 1.200 pesos" (the user's rate turns them into dollars all the same)
    ("ARS", r"pesos? argentinos?|argentine pesos?|ars"),
    ("MXN", r"pesos? mexicanos?|mexican pesos?|mxn"),
    ("COP", r"pesos? colombianos?|colombian pesos?"),
    ("CLP", r"pesos? chilenos?|chilean pesos?|clp"),
    ("PESO", r"pesos?"),
)
FX_CODES = tuple(dict.fromkeys([*_FX_SYMBOLS.values(), *(code for code, _ in _FX_WORDS),
                                 *_OTHER_DOLLARS.values(), *_OTHER_POUNDS.values()]))  # fmt: skip
_FX_RE = r"\b(?:" + "|".join(c.lower() for c in FX_CODES) + r")\b"
_FX_AFTER = re.compile(  # "17 000 Kč", "650 000 Ft-ért", "9 Kč/h", "200000 円で" (a particle after)
    # ("500k yen": a thousands' k between the amount and its word)
    # ("20 triệu đồng", read "20 million đồng": a scale word between the amount and its word)
    r"(?:(?<=\d)|(?<=\dk)|(?<=\d\sk)|(?<=\d million)|(?<=\d thousand)|(?<=\d lakh)"
    r"|(?<=\d crore)|(?<=\d juta)|(?<=\d ribu))\s?(?:"
    + "|".join(f"(?P<{c}>{w})" for c, w in _FX_WORDS)
    + r")"
    r"(?:(?<=[円元원币])|(?![\w\"]))",
    re.IGNORECASE,
)
_FX_BEFORE = re.compile(  # "Rs. 40,000", "CHF 2500", "INR 500": the code before the amount
    r"(?<![\w$])(rs\.?|inr|chf|rmb|cny|jpy|krw|uah|pln|czk|huf|ron|thb|sar|ils|aed|ksh\.?|kes"
    r"|ngn|bdt|rp\.?|idr|myr|(?-i:RM)|aud|nzd|cad|sgd|hkd|brl|zar|(?-i:TRY|PHP)|vnd|afl\.?"
    r"|awg|jmd|ttd|f\s?cfa|cfa|xof|xaf|gs\.|pyg|fkp|egp)\s?"
    # ("Rp 10 juta", "Rs 1.5 lakh": the amount's scale word stays with it, before the code)
    # ("CHF 10k": the thousands' k stays with the amount)
    r"(\d[\d,.]*\d|\d)(\s(?:juta|jt|ribu|rb|miliar|lakhs?|crores?|million|thousand)\b|k\b)?",
    re.IGNORECASE,
)
_FX_BEFORE_CODE = {"rs": "INR", "rs.": "INR", "rmb": "CNY", "ksh": "KES", "ksh.": "KES",
                   "rp": "IDR", "rp.": "IDR", "rm": "MYR", "afl": "AWG", "afl.": "AWG",
                   "fcfa": "XOF", "f cfa": "XOF", "cfa": "XOF", "gs.": "PYG"}  # fmt: skip


# South Africa's rand, a capital R before the amount: "R12 999,00", "R25 000", "R3,15 per kWh"
# (a price: space-grouped thousands or decimal cents, or three digits or more after a word of
# price; not "DeepSeek R1 671B", not the Radeon "AI PRO R9700")
_RAND = re.compile(
    r"(?<![\w$])(?-i:R) ?(\d{1,3}(?:[ \u00a0]\d{3})+|\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:,(\d{2}))?"
    r"(?!\w|[.,]\d)"
)  # ("R9,500", "R12,500": thousands grouped by a comma, as English writes them)
_PRICE_BEFORE = re.compile(
    r"\b(?:vir|for|onder|under|teen|costs?|kos|pay|paid|betaal|prys|price|budget|begroting"
    r"|omtrent|sowat|only|wants?|asking|spen[dt]|spending|about|just|at|is)\s?$|@\s?$",
    re.IGNORECASE,
)
# a name with a capital R weighed against a card: "is R200 faster than B200?"
_R_NAME_COMPARED = re.compile(r"\s(?:faster|slower|better|worse|vs\.?|versus|any good)\b")
# the catalog's cards named with a capital R ("is R9700 any good?"): no amount in rand
_R_CARDS = re.compile(r"\b(?:ai pro )?r9700\b", re.IGNORECASE)


_RATE_AFTER = re.compile(
    r"\s?(?:an?|per|/|'n)\s?(?:hour|hr|h|uur|month|maand|kwh|unit|eenheid|day|dag)\b", re.IGNORECASE
)


def _rand(text: str) -> str:
    """Each amount in rand written with the code after it ("R12 999,00" -> "12999 ZAR")."""

    def one(m: re.Match[str]) -> str:
        digits, cents = m.group(1), m.group(2)
        grouped = not digits.isdigit() and len(digits.split()[0]) >= 2  # "12 999", not "1 671"
        priced = _PRICE_BEFORE.search(text[max(0, m.start() - 12) : m.start()])
        # "rent at R8 an hour", "R2,50 per kWh": a rate, whatever its digits
        rate = _RATE_AFTER.match(text, m.end())
        # (a card's name, "R9700"; a model's, "DeepSeek R1 per month")
        named = rx.search(
            r"(?:deepseek|run\w*|serv\w*|us\w*|host\w*|-)\s?$", text[: m.start()].lower()
        )
        compared = bool(_R_NAME_COMPARED.match(text[m.end() :].lower()))  # "is R200 faster?"
        # ("is R200 faster?" is a name; "for R15 000 vs ..." a price)
        said_is = priced is not None and priced.group(0).strip().lower() == "is"
        compared = compared and digits.isdigit() and len(digits) <= 4 and not cents
        compared = compared and (not priced or (said_is and len(digits) <= 3))
        if (
            _R_CARDS.match(text, m.start())
            or compared
            or (len(digits) == 1 and not cents and not priced and (named or not rate))
        ):
            return m.group(0)
        if not (
            grouped or cents or rate or ((len(digits) >= 3 or not digits.isdigit()) and priced)
        ):
            return m.group(0)
        whole = rx.sub(r"[ \u00a0,]", "", digits)
        return whole + (f".{cents}" if cents and cents != "00" else "") + " ZAR"

    return _RAND.sub(one, text)


_DOLLARS_BESIDE = re.compile(
    rf"\b\d[\d,.]*\s?(?:million |thousand |k )?(?:{'|'.join(FX_CODES)})\s?\(\s?(?:about |around "
    r"|approx\w*\.? |roughly |~\s?|≈\s?)?((?:us)?\$\s?\d[\d,.]*(?:\s?k)?|\d[\d,.]*(?:\s?k)?\s?"
    r"(?:usd|us dollars|dollars))\s?\)",
    re.IGNORECASE,
)


_FILS = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?fils\b", re.IGNORECASE)
_DINAR_LANDS = (("KWD", r"kuwait"), ("BHD", r"bahrain"), ("JOD", r"jordan|amman|irbid|zarqa"))


def _fils(text: str) -> str:
    """ "120 fils for every kilowatt hour ... in dinars": thousandths of a dinar (Jordan's, or
    Kuwait's or Bahrain's where the message names the country), as that dinar's amount; a
    dirham's fils are hundredths."""
    low = text.lower()
    if "dirham" in low or "aed" in low:
        return _FILS.sub(lambda m: f"{float(m.group(1)) / 100:g} AED", text)
    if "dinar" not in low and "jod" not in low:
        return text
    code = next((c for c, land in _DINAR_LANDS if rx.search(land, low)), "JOD")
    text = _FILS.sub(lambda m: f"{float(m.group(1)) / 1000:g} {code}", text)
    return rx.sub(r"\bdinars?\b", code, text, flags=re.IGNORECASE)


def _fx_codes(text: str) -> str:
    """Every amount in another currency with its ISO code after it ("₽60" -> "60 RUB")."""
    if "$" in text and (land := _DOLLAR_SIGN_AFTER.search(text)):
        # "0,95 $ CA de l'heure", "2 400 $ (canadiens)": the sign after, then whose; the other
        # amounts written so in that message ("0,08 $ du kWh") are in the same dollars
        code = _DOLLAR_LANDS.get(land.group(2).lower(), land.group(2))
        text = _DOLLAR_SIGN_AFTER.sub(lambda m: f"{code}${m.group(1).replace(' ', '')}", text)
        text = rx.sub(r"(?<![$\w.,])(\d[\d.,]*\d|\d) ?\$(?![\w$])", rf"{code}$\1", text)
    text = _OTHER_DOLLAR.sub(lambda m: f"{m.group(2)} {_OTHER_DOLLARS[m.group(1)]}", text)
    text = _OTHER_POUND.sub(lambda m: f"{m.group(2)} {_OTHER_POUNDS[m.group(1)]}", text)
    text = _rand(text) if "R" in text else text
    if "fils" in text.lower():
        text = _fils(text)
    if "manat" in text.lower() and rx.search("[\u00fd\u0148\u00dd\u0147]", text):  # ý, ň
        text = rx.sub(r"\bmanat\b", "TMT", text, flags=re.I)  # Turkmenistan's, not Azerbaijan's
    if text.isascii() and not rx.search(r"\d\s?[a-z]|[a-z]\.?\s?\d", text, flags=re.I):
        return text
    # the yen sign is China's yuan's too: a message in Chinese (Han letters, no Japanese kana,
    # or the yuan named) means the yuan
    yuan = rx.search(r"[\u4e00-\u9fff]", text) and not rx.search(r"[\u3040-\u30ff]", text)
    yen_sign = (
        "CNY" if yuan or rx.search(r"\b(?:rmb|yuan|cny)\b|人民币", text, flags=re.I) else "JPY"
    )
    for sign, code in (*_FX_SYMBOLS.items(), ("¥", yen_sign), ("￥", yen_sign)):
        if sign in text:  # "₹40,000" -> "40,000 INR", "60 ₽" -> "60 RUB"
            # ("¥500k" -> "500k JPY": the thousands' k stays with its amount)
            text = rx.sub(rf"{re.escape(sign)}\s?(\d[\d,.]*\d|\d)(k\b)?", rf"\1\2 {code}", text)
            text = text.replace(sign, f" {code}")
    # "Rs" in a message in Urdu's letters is Pakistan's rupee, elsewhere India's
    codes = (
        {**_FX_BEFORE_CODE, "rs": "PKR", "rs.": "PKR"}
        if URDU_LETTERS.search(text)
        else _FX_BEFORE_CODE
    )
    text = _FX_BEFORE.sub(
        lambda m: f"{m[2]}{m[3] or ''} {codes.get(m[1].lower(), m[1].upper())}", text
    )
    # "650 000 Ft", "260 Ft-ért" (Hungarian's case ending after a hyphen), not "6 ft"
    text = rx.sub(r"(?<=\d)\s?Ft(?:-[^\W\d_]+)?(?![\w\"-])", " HUF", text)
    return _FX_AFTER.sub(lambda m: f" {m.lastgroup}", text)


# a rate of exchange the user states ("dollar na ₦1,600", "₦1,550 to $1", "exchange rate 0.92
# EUR"), read after _fx_codes has written each amount as "1,600 NGN"
_FX_CODE_RE = r"(\d[\d,]*(?:\.\d+)?) (" + "|".join(FX_CODES) + r")\b"
_USERS_RATE = re.compile(
    r"(?:\$\s?1(?![\d.,])|\b1\s?(?:usd|dollars?)\b|\b(?:the |one |a |1 )?(?:us )?dollar\b|\busd\b)"
    r"\s?(?:na|is|=|:|at|to|for|costs?|goes for|trades at|fetches|buys|gets|~|\u2248|~=|\u2245"
    r"|equals)\s?(?:about |around |roughly |like |approx\.? |~\s?)?"
    + _FX_CODE_RE
    + r"|"
    + _FX_CODE_RE
    + r"\s?(?:to|per|for|=|a|/|against)\s?(?:the |one |1 |a |each )?"
    r"(?:\$\s?1(?![\d.,])|usd\b|(?:us )?dollars?\b)"
    r"|\bexchange(?: rate)?(?: na| is| of| at| =|:)?\s?(?:about |around |~\s?)?"
    + _FX_CODE_RE
    + r"(?:\s?(?:to|per|for|=|a|/)\s?(?:the |one |1 |a )?(?:\$\s?1(?![\d.,])|usd\b"
    r"|(?:us )?dollars?\b))?",
    re.IGNORECASE,
)
_DOLLAR_AMOUNT = re.compile(r"\$\s?\d|\d\s?(?:usd|dollars?|bucks)\b|\busd\s?\d", re.IGNORECASE)


def _at_users_rate(text: str) -> tuple[str, str | None, tuple[str, float] | None]:
    """A message with amounts in US dollars and in another currency: with an exchange rate the
    user states, the other amounts in dollars at that rate ("₦850,000 ... $0.35 an hour ...
    dollar na ₦1,600" -> "$531"); with none, the other amounts left out (a naira price is no
    dollar price). (text, a note saying which, the rate: its code and units a dollar buys)."""
    amounts = list(rx.finditer(_FX_CODE_RE, text))
    if not amounts or not _DOLLAR_AMOUNT.search(_USERS_RATE.sub(" ", text)):
        return text, None, None
    rate = _USERS_RATE.search(text)
    if rate is None:
        codes = ", ".join(dict.fromkeys(f"{m.group(1)} {m.group(2)}" for m in amounts))
        text = rx.sub(_FX_CODE_RE, lambda m: f"an amount in {m.group(2)}", text)
        left = (
            f"Your {codes} is left out: the other amounts are in US dollars and no exchange rate "
            f"was given (say how many {amounts[0].group(2)} a dollar buys to count it)."
        )
        return text, left, None
    value, code = next((rate.group(i), rate.group(i + 1)) for i in (1, 3, 5) if rate.group(i))
    per_dollar = float(value.replace(",", ""))
    if not per_dollar > 0:
        return text, None, None
    said: list[str] = []

    def in_dollars(m: re.Match[str]) -> str:
        if m.group(2) != code:
            return m.group(0)
        usd = float(m.group(1).replace(",", "")) / per_dollar
        written = f"${usd:,.2f}" if usd < 100 else f"${usd:,.0f}"
        said.append(f"{m.group(1)} {code} is {written}")
        return written

    text = text[: rate.start()] + " (at your exchange rate) " + text[rate.end() :]
    text = rx.sub(_FX_CODE_RE, in_dollars, text)
    if not said:
        return text, None, (code, per_dollar)
    note = f"At your rate of {value} {code} to the US dollar: {'; '.join(said)}."
    return text, note, (code, per_dollar)


# Accelerators the catalog does not hold (it has NVIDIA, AMD, Intel and Apple parts): named so
# that their numbers are not read as something else ("Ascend 910B" is no 910B model) and the
# answer says it has no figures for them
_ABSENT_ACCELERATORS = re.compile(
    r"(?:huawei\s)?(?:ascend|昇腾|昇騰)\s?\d{3}[a-z]?\d?|(?:google\s|cloud\s)*tpus?(?:\s?v\d[a-z]*)?"
    r"|(?:aws\s)?(?:trainium|inferentia)\s?\d?|cerebras(?:\scs-?\d)?|groq(?:\slpu)?"
    r"|cambricon(?:\smlu\d*)?|mlu\d{3}|moore threads(?:\smtt\s?s\d+)?|mtt\s?s\d{2,4}"
    r"|tenstorrent(?:\s\w+)?|graphcore(?:\sipu)?|biren(?:\sbr\d+)?|sambanova",
    re.IGNORECASE,
)
ABSENT_NOTE = (
    "The catalog has no figures for the {name}: it holds NVIDIA, AMD, Intel and Apple GPUs, so "
    "I cannot give its memory, bandwidth, speed or price."
)


def _absent_accelerators(text: str) -> list[tuple[tuple[int, int], str]]:
    """Each accelerator named that the catalog lacks, with its span: ((start, end), name)."""
    return [
        ((m.start(), m.end()), m.group(0).strip())
        for m in _ABSENT_ACCELERATORS.finditer(text)
        if not rx.match(r"[A-Za-z0-9]", text[m.start() - 1 : m.start()])
        and not rx.match(r"[A-Za-z0-9]", text[m.end() : m.end() + 1])
    ]


def _spans_overlap(said: str, text: str, span: tuple[int, int]) -> bool:
    """Whether a name said (`said`) is written inside `span` of `text`."""
    return any(m.start() < span[1] and span[0] < m.end() for m in _spans_of(said, text))


def _korean_scaled(m: re.Match[str]) -> str:
    """ "450만" (ten-thousands), "1억" (hundred-millions): the number written out."""
    scale = 1e8 if m.group(2) == "억" else 1e4
    return f"{float(m.group(1).replace(',', '')) * scale:.0f}"


# a run started in the evening and looked at in the morning: "start it at 11pm ... in at 8"
_STARTED_AT = re.compile(
    r"\b(?:start|kick|launch|set|fire|run)\w*(?: it| the run| the job| training| this| that)?"
    r"(?: off| going)? at (\d{1,2})(?::\d\d)?\s?(pm|p\.m\.)\b([^.?!]{0,50}?)\bat (\d{1,2})"
    r"(?::\d\d)?\s?(?:am|a\.m\.)?(?![\w:.,])",
    re.IGNORECASE,
)
# a span of the clock over midnight: "overnight, from 10pm to 6am", "22:00-06:00" (the hours of a
# working day, "9-5", are read as a rate of use: _office_hours)
_NIGHT_SPAN = re.compile(
    r"\b(?:from )?(\d{1,2})(?::(\d\d))?\s?(pm|p\.m\.|at night|in the evening)?\s?"
    r"(?:to|till|until|-|\u2013)\s?(\d{1,2})(?::(\d\d))?\s?(am|a\.m\.|in the morn(?:ing|in'?)?)?"
    r"(?(6)(?!\w)|(?![\w:.,-]|\.\d))",
    re.IGNORECASE,
)


# a run of weekdays: "Monday to Saturday", "tue-sat", "Mon thru Sun" (Monday to Friday stays, as
# the weekdays read below)
_WEEKDAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ONE_WEEKDAY = r"(?:mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?s?"
# days of the week listed: "sat and sun", "fri n sat nights", "mondays, wednesdays and fridays"
_WEEKDAY_LIST = re.compile(
    rf"\b(?:(?:every|on|each) )?({_ONE_WEEKDAY}(?:(?:,\s?|\s(?:and|&|n|\+|or)\s|\s?/\s?)"
    rf"{_ONE_WEEKDAY})+)\b(\s(?:nights?|evenings?|mornings?|afternoons?))?",
    re.IGNORECASE,
)


def _days_listed(text: str) -> str:
    """Days of the week listed, as so many days a week, with the hours each one takes as a day's
    and the weekends they fall in as weeks ("fri n sat nights 6 hrs each, 4 weekends": "6 hours
    a day, 2 days a week, 4 weeks")."""
    m = _WEEKDAY_LIST.search(text)
    if not m:
        return text
    days = {w.lower()[:3] for w in rx.findall(r"[A-Za-z]+", m.group(1)) if w.lower()[:3]
            in _WEEKDAY_NAMES}  # fmt: skip
    if len(days) < 2:
        return text
    said = f"{len(days)} days a week"
    rest = text[m.end() :]
    each = rx.match(r",?\s?(?:for\s)?(?:about\s|around\s|~\s?)?(\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h)"
                    r"\s(?:each|apiece|a (?:day|night)|per (?:day|night))\b", rest)  # fmt: skip
    if each:
        said = f"{each.group(1)} hours a day, {said}"
        rest = rest[each.end() :]
    rest = rx.sub(r"\b(\d+|two|three|four|five|six|seven|eight|ten|twelve) weekends\b", r"\1 weeks",
                  rest, flags=re.I)  # fmt: skip
    return text[: m.start()] + said + rest


_WEEKDAY_RUN = re.compile(
    r"\b(?:from )?(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?"
    r"\s?(?:to|till|until|thru|through|-|\u2013)\s?"
    r"(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?\b",
    re.IGNORECASE,
)


def _weekday_run(m: re.Match[str]) -> str:
    """A run of weekdays as the days a week it holds ("Monday to Saturday": "6 days a week")."""
    first = _WEEKDAY_NAMES.index(m.group(1).lower())
    days = (_WEEKDAY_NAMES.index(m.group(2).lower()) - first) % 7 + 1
    if (first, days) == (0, 5) or days < 2:
        return m.group(0)  # "monday to friday": the weekdays, read as such
    return f"{days} days a week"


# an hour said after a price: "/hr", "per hour", "an hour", "each GPU-hour"
_AN_HOUR = r"(?:/|per |an? |each )(?:gpu[- ]?)?(?:h|hr|hour)\b"
_SMALL_COINS_AN_HOUR = re.compile(
    rf"\b(\d{{1,2}}) ?(?:us |usd )?(c|cents?|p|pence)(?: us| usd)?(?= ?{_AN_HOUR})", re.IGNORECASE
)
# a price by the hour named before its amount: "the hourly rate is $2.10", "price per hour:
# 3.5 TMT", "per-hour cost of 1,90 EUR"
_HOURLY_FIRST = re.compile(
    r"\b(?:hourly|per[- ](?:gpu[- ])?hour) (?:price|rate|cost|fee|charge|rental)"
    r"(?: (?:of|for) (?:an? |the |one )?[\w-]+(?: [\w-]+)?)?"  # ("the hourly rate of an A100 is")
    r"(?:\s(?:is|of|at|comes to|will be))?:?\s(?:about |around |roughly |~\s?)?"
    r"((?:[$\u20ac\u00a3]|us\$)\s?\d[\d,.]*\d|(?:[$\u20ac\u00a3]|us\$)\s?\d"
    r"|\d[\d,.]*\d?\s?(?:[$\u20ac\u00a3]|(?-i:[A-Z]{3})\b|dollars?\b|euros?\b|bucks\b))"
    r"(?!\s?(?:/|per|an?|each)\s?(?:gpu[- ]?)?(?:h|hr|hour)s?\b)",
    re.IGNORECASE,
)
# a small price that names something else the user sells or buys: "flyers for the $1.50 wash
# tuesdays thing", "our $3 coffee" (not "the $2 instance", "the $1.50 rate", "the $5 one")
_OTHER_PRICE = re.compile(
    r"\b((?:the|our|my|their) )[$\u20ac\u00a3]\s?\d{1,2}(?:\.\d{1,2})?\s"
    r"(?=(?!(?:card|gpu|one|budget|option|plan|tier|build|rig|machine|box|pc|laptop|model|limit|max|cap|price|rate|hourly"
    r"|instance|vm|pod|node|server|spot|per|an?|each|hour|hr|h|month|mo|day|week|year|upgrade"
    r"|deal|offer|credit|credits|cloud|rental|rent)\b)[a-z]{3,}\b)",
    re.IGNORECASE,
)
_PERIOD_FIRST = re.compile(
    r"\b(?:a|per|each|every) (day|week|month)\b,? (?:about |around |roughly |~\s?)?"
    # ("per week 6 days": the days a week)
    r"(\d+(?:\.\d+)?) ?(hours?|hrs?|h|days?)\b"
    r"(?! (?:a|per|each|every)\b)",
    re.IGNORECASE,
)


def _period_last(m: re.Match[str]) -> str:
    """ "a week about 6 hours" as "6 hours a week", unless days of the week come before it."""
    if m.group(3).lower().startswith("day") and (m.group(1).lower() != "week" or "," in m.group(0)):
        # "per week 6 days": the days a week; "whats that a month, 30 days?": a month's length
        return m.group(0)
    before = m.string[max(0, m.start() - 16) : m.start()]
    if rx.search(r"\d\s?(?:days?|nights?|hours?|hrs?|times|x)\s?$", before, flags=re.I):
        return m.group(0)  # "5 days a week 8 hours": the days of the week said, kept
    return f"{m.group(2)} {m.group(3)} a {m.group(1)}"


def _night_hours(m: re.Match[str]) -> str:
    """The hours a span of the clock over midnight holds, as "N hours" (as it was otherwise)."""
    h1, m1, pm, h2, m2, am = m.groups()
    # "22:00-06:00": a 24-hour clock (not "from 12:00 to 4:00 every afternoon")
    clock = bool(m1 and m2) and int(h1) <= 24 and int(h2) <= 24
    clock = clock and (max(int(h1), int(h2)) >= 13 or "0" in (h1[0], h2[0]))
    if not ((pm and am) or clock):
        return m.group(0)
    start = (int(h1) % 12 + 12 if pm else int(h1)) + int(m1 or 0) / 60
    end = (int(h2) % 12 if am else int(h2)) + int(m2 or 0) / 60
    hours = (end - start) % 24
    if not (end < start and 0 < hours <= 16):
        return m.group(0)
    # every night, or a night's hours billed over a span ("overnight 10pm-6am: per month?"):
    # hours a night
    low, after = m.string.lower(), m.string[m.end() :].lower()
    before = low[max(0, m.start() - 30) : m.start()]
    if _TARIFF_WINDOW.search(before) or NONSTOP.search(low):
        return m.group(0)  # "night rate 11pm-7am ... runs 24/7": a tariff's hours, not the card's
    nightly = _EVERY_NIGHT.search(low) or _SPAN.search(low)
    some = _SOME_NIGHTS.search(low)  # "saturdays only", "a few nights a week": not every night
    days = rx.findall(rf"\b{_DAY_NAME}s?\b", low)
    if some and nightly and len(days) == 1:  # "22:00-06:00 on saturdays only": once a week
        return f"{hours:g} hours a week"
    said = rx.match(r"\s?(?:,\s)?(?:each|every|a|per|/)\s?night|\s?nightly", after)
    return f"{hours:g} hours a night" if nightly and not said and not some else f"{hours:g} hours"


_EVERY_NIGHT = re.compile(r"\b(?:every|each|per|a) night\b|\bnightly\b")
# a day of the week by name
_DAY_NAME = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_SOME_NIGHTS = re.compile(
    rf"\b{_DAY_NAME}s?\b|\bweekends?\b|\bweeknights?\b"
    r"|\bnights? a week\b|\b(?:few|some|most) nights\b"
)
# a tariff's clock window: "night rate 11pm-7am", "off-peak 22:00 to 06:00"
_TARIFF_WINDOW = re.compile(
    r"\b(?:rate|tariff|off-?peak|peak|economy(?: 7)?|cheap(?:er)? (?:power|electricity|hours))\b"
    r"(?:\s(?:is|runs|applies|from|between))?\s?$"
)


# a card's number of four digits with a letter o for one or two of its zeros ("4o90", "3o6o",
# "1o80 ti"), not a word ("2go", "4on")
_O_FOR_ZERO = re.compile(r"(?<![\w.])[1-9](?=[\do]{0,2}o)(?=[o\d]{0,2}\d)[\do]{3}(?=s?\b)")


# a number in Han numerals before ten-thousands or thousands: "一万五" (15,000), "两千" (2,000),
# "十五万" (150,000)
_HAN_DIGITS = {"一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
               "八": 8, "九": 9}  # fmt: skip
_HAN_NUMBER = re.compile(
    r"(?<![\d一二两兩三四五六七八九十])(十?[一二两兩三四五六七八九]?十?)(万|萬|千)"
    r"([一二两兩三四五六七八九](?![千百十万萬]))?"
)


def _han_number(m: re.Match[str]) -> str:
    """The digits of a Han numeral matched by _HAN_NUMBER ("一万五" -> "15000")."""
    head = m.group(1)
    if not head:
        return m.group(0)
    if "十" in head:  # "十五" 15, "二十" 20, "十" 10
        tens, _, ones = head.partition("十")
        value = (_HAN_DIGITS.get(tens, 1) if tens else 1) * 10 + _HAN_DIGITS.get(ones, 0)
    else:
        value = _HAN_DIGITS[head]
    unit = 1000 if m.group(2) == "千" else 10000
    rest = _HAN_DIGITS[m.group(3)] * unit // 10 if m.group(3) else 0  # "一万五": and 5,000
    return str(value * unit + rest)


def _gigabytes(text: str) -> str:
    """ "16 gigabytes": a memory size in the unit's short form (a rate per second stays as
    said)."""
    return rx.sub(r"\b(\d+(?:\.\d+)?)[\s-]?gigabytes?\b(?!\s?(?:per|/|a)\s?s(?:ec\w*)?\b)",
                  r"\1 GB", text, flags=re.IGNORECASE)  # fmt: skip


def _thousand_whole(text: str) -> str:
    """ "8 thousand tokens of context", "2.5 thousand images": the number whole."""
    return rx.sub(r"(?<![\d.,])(\d+(?:\.\d+)?) thousand\b(?! (?:and|hours? of|of))",
                  lambda m: f"{float(m.group(1)) * 1000:g}", text, flags=re.I)  # fmt: skip


# a count grouped in thousands by a space (as South African and much European English write
# them) before what it counts: "about 1 200 GPU-hours a year", "48 000 images", "2 000 000 chunks"
# (not "batch 8 512 tokens" nor "4 3090s": a number after a batch word, or a card's number)
_SPACED_COUNT = re.compile(
    r"(?<![\w.,])(?<![\d.,] )\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?=\s?(?:gpu[- ]?h(?:ours?|rs?)?\b"
    r"|h(?:ours?|rs?)\b|images|imgs|photos|pictures|pics|examples|samples|rows|records|documents"
    r"|docs|sentences|chunks|files|requests|users|tokens|steps|epochs|words|pages|clips|videos"
    r"|minutes|seconds|kwh\b|queries|calls|conversations|questions|tickets|prompts))",
    re.IGNORECASE,
)
_BATCH_BEFORE = re.compile(
    r"\b(?:batch(?: size)?|bs|micro[- ]?batch|x|by|of size)\s?[:=]?\s?$", re.I
)


def _spaced_count(match: re.Match[str]) -> str:
    """ "1 200" before what it counts: 1200 (as it is after a batch word: "batch 8 512 tokens")."""
    if _BATCH_BEFORE.search(match.string[max(0, match.start() - 16) : match.start()]):
        return match.group(0)
    return rx.sub(r"\D", "", match.group(0))


def _card_next(nouns: str) -> str:
    """A lookahead for a card's name (or the language's word for cards, `nouns`) right after a
    count said in words: "oppure due RTX 3090", "dos 3090", "duas placas"."""
    return (rf"(?=(?:rtx|gtx|nvidia|amd|radeon|tesla|quadro|{nouns}|gpus?|[ahlbtv]\d{{2,3}}"
            r"|\d{4})\b)")  # fmt: skip


def normalise(text: str) -> str:
    """NFKC, plain quotes, dashes and spaces, 'x' for the times sign, numbers written out;
    words of scripts without spaces (Chinese, Japanese) set apart so that names and numbers
    between them are read ("4090能跑70B的模型吗" has '4090' and '70B')."""
    text = rx.sub(r"\b(\d{3,4}) ?\u00b2", r"\1x\1", text)  # "1024²" before NFKC makes it 10242
    # "128^3 patches", "512^2 crops": a volume's or an image's sides, no count of 3 or 2
    text = rx.sub(r"\b(\d{2,4}) ?(?:\^|\*\*) ?3\b", r"\1x\1x\1", text)
    text = rx.sub(r"\b(\d{2,4}) ?(?:\^|\*\*) ?2\b", r"\1x\1", text)
    text = unicodedata.normalize("NFKC", text)
    # digits of other scripts (Arabic-Indic, Persian, Devanagari, Thai): the same numbers in ASCII
    if not text.isascii():
        text = text.translate(_DIGITS)
    if _HAN_NUMBER.search(text):  # "一万五" (a myriad and a half), "两千": the number in digits
        text = _HAN_NUMBER.sub(_han_number, text)
    if "万" in text or "萬" in text or "亿" in text or "億" in text:  # "18万元": 180000 yuan
        # ("1億トークン", Japanese: 100,000,000 tokens)
        text = rx.sub(r"(\d+(?:\.\d+)?)\s?(万|萬|亿|億)",
                      lambda m: f"{float(m.group(1)) * (1e4 if m.group(2) in '万萬' else 1e8):.0f}",
                      text)  # fmt: skip
    if "만" in text or "억" in text or "원" in text:
        # "450만 원에" (Korean ten-thousands), "1,100원에" (the won before a particle)
        text = rx.sub(r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?)\s?(만|억)(?=\s?원|\s|$)", _korean_scaled,
                      text)  # fmt: skip
        text = rx.sub(r"(?<=\d)\s?원(?=[\uac00-\ud7af])", " 원 ", text)
    # "CHF 1'299.-", "2.500,- EUR": Swiss thousands, and whole units said with a dash
    text = rx.sub(r"(?<=\d)['\u2019](?=\d{3}(?!\d))", "", text)
    text = rx.sub(r"(?<=\d)[.,][-\u2013\u2014](?![\d-])", "", text)
    if _SPACED_COUNT.search(text):  # "about 1 200 GPU-hours a year": the number whole
        text = _SPACED_COUNT.sub(_spaced_count, text)
    text = rx.sub(r"(?<=\d)(k?)[- ]?ish\b", r"\1", text, flags=re.I)  # "$3,000ish", "3k-ish"
    text = rx.sub(r"\blapp(?:y|ie)s?\b", "laptop", text, flags=re.I)  # "his new gaming lappy"
    # a word put right as it is said: "10 words, tokens I mean, a second" is 10 tokens a second
    text = rx.sub(r"\b[A-Za-z][\w-]*,\s([A-Za-z][\w-]*) (?:i mean|i meant|sorry),\s?", r"\1 ", text,
                  flags=re.I)  # fmt: skip
    # ("in words, sorry, tokens per second": the correction said between)
    text = rx.sub(r"\b[A-Za-z][\w-]*,\s(?:sorry|i mean|or rather),\s([A-Za-z][\w-]*)", r"\1", text,
                  flags=re.I)  # fmt: skip
    text = _thousand_whole(text)
    text = _fx_codes(text)  # "250 000 ₽": "250 000 RUB"
    # "1 million tokens per second": a rate written whole (a rate's k is read; a million is not)
    text = rx.sub(r"\b(\d+(?:\.\d+)?)\s?(?:million|mil)\s(?=tok(?:en)?s?\s?(?:/|per|a)\s?s"
                  r"|tok(?:en)?s?[- ](?:of\s)?context\b)",
                  lambda m: f"{float(m.group(1)) * 1e6:.0f} ", text, flags=re.I)  # fmt: skip
    if "o" in text:  # "a 4o90", "3o6o": a letter o typed for a zero inside a card's number
        text = _O_FOR_ZERO.sub(lambda m: m.group(0).replace("o", "0"), text)
    # "if i start it at 11pm will it be done when i'm in at 8": the night between, as a span
    text = _STARTED_AT.sub(lambda m: f"{m.group(0)} (from {m.group(1)}pm to {m.group(4)}am)", text)
    if _NIGHT_SPAN.search(text):  # "overnight, from 10pm to 6am": 8 hours
        text = _NIGHT_SPAN.sub(_night_hours, text)
    text = _WEEKDAY_RUN.sub(_weekday_run, text)  # "Monday to Saturday": 6 days a week
    # "8 hours per day, every day of the month": a month of days
    text = rx.sub(r"\b(every|each) day of the (month|week|year)\b", r"\1 day for a \2", text,
                  flags=re.I)  # fmt: skip
    # "6 hrs per day, all 365 days, for 2 years", "365 days a year": every day, not the span
    text = rx.sub(r"\b(?:(?:all|on all|every one of the|each of the) 365 days(?: (?:a|per|of the) "
                  r"year)?|365 days (?:a|per|of the) year)\b", "every day", text,
                  flags=re.I)  # fmt: skip
    text = _days_listed(text)  # "sat and sun 5 hrs each, for 6 weekends": 5 h, 2 days, 6 weeks
    # "for one quarter": a quarter of a year, 13 weeks
    text = rx.sub(r"\b(for|over|during|across|in|within) (?:one|a|the|this|next|1) "
                  r"(?:full |whole )?quarter\b(?! of\b)", r"\1 13 weeks", text,
                  flags=re.I)  # fmt: skip
    # "can it finish in one afternoon?": a part of the day as its hours (an afternoon or a
    # morning, 4), said only after a job is to end in it
    text = rx.sub(
        r"\b((?:finish\w*|done|complete\w*|ready|get through)\b[^.?!]{0,40}?)"
        r"\b(?:in|within|during) (?:one|an|a single|the|a|1) (?:afternoon|morning)\b",
        r"\1in 4 hours",
        text,
        flags=re.I,
    )
    # "每卡每小时2元": a price per card per hour, said before the amount
    text = rx.sub(r"每(卡|张卡|块卡|張卡)?每?(?:小时|小時)\s?(\d+(?:\.\d+)?)\s?(CNY|JPY)",
                  lambda m: f" {m.group(2)} {m.group(3)} per {'GPU ' if m.group(1) else ''}"
                  "per hour ", text)  # fmt: skip
    # "44c/hr", "59c US an hour", "89 cents an hour", "an L4 at 65p/hour": cents or pence an hour
    text = _SMALL_COINS_AN_HOUR.sub(
        lambda m: f"{'£' if m.group(2)[0] in 'pP' else '$'}{int(m.group(1)) / 100:.2f}", text
    )
    # "$2.49 US an hour per card": the currency's name said between the amount and its hour
    text = rx.sub(rf"(\$\s?\d+(?:\.\d+)?)\s(?:us|usd)\b(?=\s?{_AN_HOUR})", r"\1", text, flags=re.I)
    # "4x h100 at 2.20 each per hour": an hourly price said without its currency, in dollars
    text = rx.sub(
        r"\bat (\d{1,2}\.\d{2})( each| a card| per card| per gpu| apiece)? ?(?:per|an?|/) ?"
        r"(?:gpu[- ]?)?(?:hour|hr|h)\b",
        lambda m: f"at ${m.group(1)} an hour{' each' if m.group(2) else ''}",
        text,
        flags=re.I,
    )
    # "rent one by the hour at 89 cents": the rate said before its amount
    text = rx.sub(
        r"\b(by the hour|hourly|per hour),? (?:at|for) (\d{1,2}) ?(?:c|cents?)\b",
        lambda m: f"{m.group(1)} at ${int(m.group(2)) / 100:.2f} an hour",
        text,
        flags=re.I,
    )
    for old, new in _REPLACE.items():
        text = text.replace(old, new)
    # "Gemma 3 27B'yi", "GPU'da" (Turkish): a case ending after an apostrophe is no
    # part of the name (English "GPU's", "I'm", "I'll" keep theirs)
    text = _HYPHEN_SUFFIX.sub("", _SUFFIX.sub("", _COLON_SUFFIX.sub("", text)))
    text = _CLOCK_PACE.sub(_clock_seconds, text)  # "~1:12 per epoch": 72 seconds
    # "a 32 amp circuit": amperes, never AMP (automatic mixed precision); "olama": Ollama
    text = rx.sub(
        r"(?<![=\w.])(\d+(?:\.\d+)?)\s?amps?\b(?!\s?[=:])", r"\1 ampere", text, flags=re.I
    )  # ("batch=64 amp=True" keeps its AMP)
    text = rx.sub(r"\boll?ama\b", "ollama", text, flags=re.I)
    # "32 cents a kilowatt-hour", "per kilowatt hour": the unit as prices of power write it
    if "ilo" in text or "w-h" in text.lower() or "w h" in text.lower():
        text = rx.sub(r"\bkilo-?watt[- ]?hours?\b|\bkw[- ]h\b", "kWh", text, flags=re.I)
    # "how many hours would the whole grant buy": what money pays for, not a purchase
    text = rx.sub(r"\b(grant|budget|credits?|funds?)\s((?:would |will |could |can )?)"
                  r"buy\b", r"\1 \2pay for", text, flags=re.I)  # fmt: skip
    if _GREEK.search(text):  # Greek asks with ";" ("Πόση VRAM έχει;")
        text = rx.sub(r";(?=\s|$)", "?", text)
    text = rx.sub(r"(?<![\d.])(\d+\s?k|\d{3,})\s?kontext\b", r"\1 context", text, flags=re.I)
    text = to_english(text)  # "quanto costa una 5090?": "how much cost una 5090?"
    # "a week about 6 hours", "per day 8 hrs" (the period said first, as Kurdish, Turkish or
    # Hindi order it): the hours of that period ("5 days a week 8 hours" keeps its days)
    text = _PERIOD_FIRST.sub(_period_last, text)
    # "hourly rate is $2.10": "hourly rate is $2.10 per hour"
    text = _HOURLY_FIRST.sub(lambda m: f"{m.group(0)} per hour", text)
    text = _OTHER_PRICE.sub(r"\1", text)  # "flyers for the $1.50 wash tuesdays": a shop's price
    if "housand" in text:
        text = _thousand_whole(text)  # "8 müň": "8 thousand", read by the phrasebook
    text = _plain_times(text)  # "three and a half days", "2d 6h", "1h30": hours as a number
    # "2.3 iterations per second", "3 steps a second" (French "itérations" reads as steps): it/s
    if "sec" in text.lower() or "/s" in text.lower():
        text = rx.sub(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:iterations?|iters?|its|steps?)\s?(?:per|a|/)"
                      r"\s?(?:second|sec|s)\b", r"\1 it/s", text, flags=re.I)  # fmt: skip
    text = _CJK.sub(r" \1 ", text)
    if "+" in text or "&" in text:  # "4090+3090", "3090&4090": two cards, each its own name
        text = rx.sub(r"(?<=\d)([+&])(?=(?:rtx|rx|gtx)?\s?\d{3,4}\b)", r" \1 ", text,
                      flags=re.I)  # fmt: skip
    # a run of 25 or more digits, commas and dots is no quantity (and would cost every number
    # pattern time growing with its length squared): one placeholder
    text = rx.sub(r"\d[\d,.]{24,}", " ~ ", text)
    # "1,45,000", "12,50,000": lakhs and crores grouped in twos (South Asia), one number
    text = rx.sub(r"(?<![\d.,])\d{1,2}(?:,\d\d)+,\d{3}(?![\d,]|\.\d)",
                  lambda m: m.group(0).replace(",", ""), text)  # fmt: skip
    text = rx.sub(r"(?<=\d),(?=\d{1,2}\b)", ".", text)  # "US$1,50": a decimal comma
    text = rx.sub(r"(?<![\d.,])0,(?=\d+\b)", "0.", text)  # "0,006 dólares": one too
    # "0.80 $ l'ora", "3.500 $": the dollar sign after the amount, as French and Italian write it
    text = rx.sub(r"(?<![$\w.,])(\d[\d.,]*\d|\d) ?\$(?![\w$])", r"$\1", text)
    # "Llama-3.2-1B-architecture", "GPT-2 XL-sized": the name, then what it says of it
    text = rx.sub(r"(?<=\w)-(architecture|arch|style|sized|shaped|based|powered|equipped)\b",
                  r" \1", text, flags=re.I)  # fmt: skip
    text = _SIGNED_OR_EXPONENT.sub(_plain, text)
    # "€3.000", "8.000 €", "1.000 dólares": a dot between thousands beside a currency
    text = rx.sub(
        r"(?:(?<=[€$£])|(?<=[€$£] )|(?<=eur )|(?<=usd ))(?!0\.)(\d{1,3}(?:\.\d{3})+)(?![\d.,])"
        r"(?!\s?(?:/\s?h|per\s+(?:gpu[- ])?h|an?\s+h|hourly))"  # "$1.006/hr" is a price per hour
        r"|(?<![\d.,])(?!0\.)(\d{1,3}(?:\.\d{3})+)(?=\s?(?:€|eur"
        rf"|euros?|d[oó]lares|dollars?|usd|{_FX_RE})\b)",
        lambda m: (m.group(1) or m.group(2)).replace(".", ""),
        text,
        flags=re.IGNORECASE,
    )
    # "3 000 €", "12 500 zł": a space between thousands before a currency
    text = rx.sub(
        # (not "H100 150 EUR an hour": a card's number before the amount)
        r"(?<![\w.,])([1-9]\d{0,2}(?: \d{3})+)(?![\d.,])(?=\s?(?:€|eur\b|euros?\b|zł|zl\b|pln\b"
        rf"|tl\b|\$|usd\b|dollars?\b|r\$|reais\b|{_FX_RE}))",
        lambda m: m.group(1).replace(" ", ""),
        text,
        flags=re.IGNORECASE,
    )
    # "200.000 images", "50.000 Bilder", "40 000 tiles": a dot or a space between thousands
    # before a count of things
    text = rx.sub(
        r"(?<![\w.,])(?<!batch )(?<!bs )(?<!size )(?<!x )"  # (not "batch 8 512 images")
        r"([1-9]\d{0,2}(?:([. ])\d{3})(?:\2\d{3})*)(?![\d.,])(?=\s(?:[a-z-]+\s)?"
        r"(?:images|im[aá]genes|bilder|photos|pictures|pics|fotos|foto|immagini|samples|examples"
        r"|rows|documents|docs|files|tokens?|hours|horas|stunden|steps?|requests|users|usuarios"
        r"|utilisateurs|emails|texts|sentences|records|clips|videos|pages|tiles|crops|patches"
        r"|scans|slides|frames)\b)",
        lambda m: m.group(1).replace(".", "").replace(" ", ""),
        text,
        flags=re.IGNORECASE,
    )
    # "$1.10 per A100-hour", "per gpu-hour": a price per hour of that GPU
    text = rx.sub(r"\bper ([a-z]*\d+\w*|gpu|instance|node|server|machine)[- ]hours?\b",
                  r"per hour (\1)", text, flags=re.I)  # fmt: skip
    text = rx.sub(r"\b(\d+) ?(gb|g)s\b", r"\1\2", text, flags=re.IGNORECASE)  # "two 3080 12Gs"
    text = _gigabytes(text)
    # "oppure due RTX 3090" (Italian "due", two, stays out of the phrasebook: an English word)
    text = rx.sub(r"\b(oppure|o|e|con|ho|abbiamo|tra|fra|sono|usare|comprare|prendere) due "
                  + _card_next("schede"), r"\1 2 ", text, flags=re.IGNORECASE)  # fmt: skip
    # "our 100k-image herbarium scans": a count of things written as one word with its noun
    text = rx.sub(r"\b(\d+(?:\.\d+)?)\s?k-(image|sample|photo|picture|scan|example|document"
                  r"|sentence|clip|file|row)s?\b",
                  lambda m: f"{float(m.group(1)) * 1000:g} {m.group(2)}s", text,
                  flags=re.IGNORECASE)  # fmt: skip
    # "meine 4090-Kiste", "der 3090-Rechner": a German compound of a card's number and a noun
    text = rx.sub(r"\b(\d{4}(?: ?Ti)?)-(?=[A-ZÄÖÜ][a-zäöüß]{2,})", r"\1 ", text)
    # "un rig con dos 3090", "tenho duas 4090" (Spanish and Portuguese two before a card; "dos"
    # alone stays out of the phrasebook: an English word)
    text = rx.sub(r"\b(?:dos|dois|duas)\s" + _card_next("tarjetas|placas"), "2 ", text,
                  flags=re.IGNORECASE)  # fmt: skip
    # "the 4090 in gaming laptops", "the 4070 inside my notebook": the laptop GPU of that name
    text = _IN_A_LAPTOP.sub(r"\1 laptop", text)
    # "flux/sdxl loras", "llama/mistral": two model names, not one
    text = _TWO_NAMES.sub(r"\1 / \2", text)
    # "1x risers", "4x slots": a slot's width, never a count of GPUs
    text = rx.sub(r"\b([1248])x (?=(?:pci-?e )?(?:risers?|slots?|lanes?)\b)", r"x\1 ", text,
                  flags=re.IGNORECASE)  # fmt: skip
    # "3090's", "l40s's", "the L40's memory": an apostrophe plural or possessive of a name with
    # digits is the name ("L40's" is no L40S); counts come from the count words
    text = rx.sub(r"\b([a-z]*\d+[a-z]*)'s\b", r"\1", text, flags=re.IGNORECASE)
    # model numbers said aloud: "the H one hundred", "a B-two-hundred", "forty ninety"
    text = _SPOKEN_HUNDREDS.sub(
        lambda m: f"{m.group(1).upper()}{_TENS_SAID[m.group(2).lower()] // 10}00", text
    )
    text = _SPOKEN_PAIR.sub(
        lambda m: f"{m.group(1)}{_TENS_SAID[m.group(2).lower()]}{_TENS_SAID[m.group(3).lower()]}",
        text,
    )
    text = spoken_numbers(text)
    text = _gigabytes(text)  # "twelve gigabytes", now in digits
    if "fils" in text.lower():  # "one hundred and twenty fils", now in digits
        text = _fils(text)
    # ("fifteen hundred NZ bucks": the money's word after a number only now written in digits)
    text = _FX_AFTER.sub(lambda m: f" {m.lastgroup}", text)
    # "50 triệu đồng (khoảng 1.950 USD)": an amount given in dollars beside the user's own
    # currency is the one the calculator's dollars can use
    text = _DOLLARS_BESIDE.sub(r"\1", text)
    # "30 billion parameters", "a 350 million param model", "7 milliards de paramètres", "13 mil
    # millones de parámetros": a model size, as "30B" is
    text = rx.sub(
        r"\b(\d+(?:\.\d+)?)[\s-]?(billion|bn|million|milliards?|mil millones|bilh(?:ões|oes)"
        r"|milliarden)(?=[- ]?(?:de )?par[aá]m"
        # "one of the 7-billion chat models", "a 70 billion llm"
        r"|[- ](?:(?!dollars?\b|usd\b|tokens?\b|euros?\b)[a-z]+[- ]){0,2}?"
        r"(?:models?|llms?|chat ?bots?|networks?|nets?)\b)",
        lambda m: m.group(1) + ("M" if m.group(2).lower() == "million" else "B"),
        text,
        flags=re.IGNORECASE,
    )
    # "the Qwen 2.5 with 32 billion", "Llama 3.1 of 70 billion": a size said after a model's name
    text = rx.sub(r"(\b[A-Za-z][\w-]*(?:[ -]v?\d+(?:\.\d+)?)?),? (?:the one )?(?:with|of|at) "
                  r"(\d+(?:\.\d+)?) ?(?:billion|bn)\b(?! (?:tokens?|words|images|samples|examples"
                  r"|rows|dollars?|usd|euros?|pages|documents|users|people|customers|requests"
                  r"|queries|views|downloads|records|pairs|sentences|in\b|a\b|per\b))"
                  r"(?: param(?:eter)?s)?",
                  r"\1 \2B", text, flags=re.IGNORECASE)  # fmt: skip
    # "YOLO 11, the small one", "yolov8 nano": the size said in words
    text = rx.sub(r"\b(yolo ?v?\d{1,2}),? (?:the )?"
                  r"(nano|small|medium|large|extra[- ]?large|x-?large)"
                  r"\b(?: (?:one|version|model|variant|size))?",
                  lambda m: _yolo_name(m.group(1)) + _YOLO_SIZES[m.group(2).lower()[:5]],
                  text, flags=re.IGNORECASE)  # fmt: skip
    # "24 Go", "1 To": French (and Breton) gigabytes and terabytes
    # (as the French write them, "Go" with its capital; not "what's a 5090 go for")
    text = rx.sub(r"(?<=\d)(?:\s?Go|go)\b(?!\s(?:for|to|with|up|down|on|at|in)\b)", " GB", text)
    text = rx.sub(r"(?<=\d)\s?To\b(?!\s(?:\w+))", " TB", text)
    # "an 8B-parameter model": the size, then the word (as "an 8B parameter model" reads)
    text = rx.sub(r"\b(\d+(?:\.\d+)?[BbMm])-(param(?:eter)?s?)\b", r"\1 \2", text)
    return rx.sub(r"[ \t]+", " ", text).strip()


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def _yolo_name(said: str) -> str:
    """ "yolo 8" -> "yolov8", "YOLO 11" -> "YOLO11": Ultralytics writes a v before 5 to 10 only."""
    version = int(rx.sub(r"\D", "", said))
    return f"yolov{version}" if version <= 10 else f"yolo{version}"


# a YOLO size said in words (its first five letters): the letter its name ends in
_YOLO_SIZES = {"nano": "n", "small": "s", "mediu": "m", "large": "l", "extra": "x", "x-lar": "x",
               "xlarg": "x"}  # fmt: skip


_SCALE = {
    "k": 1e3,
    "thousand": 1e3,
    "grand": 1e3,
    "m": 1e6,
    "mil": 1e6,
    "million": 1e6,
    "millions": 1e6,
    "milhões": 1e6,
    "milhão": 1e6,
    "milhoes": 1e6,  # written without the accents
    "milhao": 1e6,
    "millon": 1e6,
    "millones": 1e6,
    "millón": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "bil": 1e9,  # "2 bil tokens"
    "mln": 1e6,
    "billion": 1e9,
    "t": 1e12,
    "trillion": 1e12,
}
_NUM = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
# a purchase said: "buy", "buying", "purchase" (not "what does NVLink buy us", an idiom)
_BUY_WORD = r"\bbuy(?!ers?\b)(?!s? (?:us|you|me|them)\b(?! (?:an?|one|two|\d)))\w*|\bpurchas\w*"
_WORD_NUM = r"(\d+(?:\.\d+)?|" + "|".join(k for k in NUMBER_WORDS if len(k) > 2) + ")"


def _count(word: str) -> float:
    return float(word) if word[0].isdigit() else float(NUMBER_WORDS[word])


_TIME_UNIT = r"(hours?|hrs?|days?|weeks?|months?|years?)"
# "three and a half days", "1 and a half hours", "an hour and a half"
_AND_A_HALF = re.compile(rf"\b{_WORD_NUM} and a half {_TIME_UNIT}\b", re.IGNORECASE)
_A_UNIT_AND_A_HALF = re.compile(r"\b(?:an?|one) (hour|day|week|month|year) and a half\b", re.I)
_HALF_A = re.compile(
    r"\b(?:half (?:an?|one)|a half|half-an?)[- ](hour|day|week|month|year)\b", re.I
)
# "2d 6h", "2d6h", "1h30", "1h 30m": days and hours, hours and minutes, written short
_D_H = re.compile(r"(?<![\w.])(\d{1,3})\s?d\s?(\d{1,2})\s?h(?:rs?)?\b", re.I)
_H_M = re.compile(r"(?<![\w.:])(\d{1,3})h\s?([0-5]\d)(?:\s?m(?:in)?s?)?\b(?![:.]\d)", re.I)
# "for a quarter", "the whole of Q1": three months (not "at q4", a quantisation)
_QUARTER = re.compile(
    r"\b(?:the whole of|all of|whole of|throughout|during)\s(?:the\s)?q[1-4]\b(?!_)"
    r"|\b(?:for|over|during|throughout|a full|the full|the whole|the entire|one)\s(?:the\s|a\s)?"
    r"(?:whole\s|full\s|entire\s)?quarter\b(?!\s?of\b)",
    re.I,
)
# "3 sessions a week, 2.5 h each": hours a week
_SESSIONS = re.compile(
    rf"\b{_WORD_NUM} (?:[a-z-]+ )?(?:sessions?|runs?|jobs?|times|classes|lessons|shifts|renders"
    r"|batches|workshops|lectures) (?:a|per|each|every|/) ?(day|week|month)\b[,;:]?\s?"
    r"(?:of |at |for )?"
    r"(?:about |around |roughly |~)?(\d+(?:\.\d+)?)\s?(hours?|hrs?|h|minutes?|mins?)\b"
    r"(?: (?:each|apiece|per (?:session|run|job|class|lesson|shift)|long))?",
    re.I,
)
# "10 hours each Saturday and Sunday": the hours of each day named, a week
_DAYS_NAMED = re.compile(
    r"\b(\d+(?:\.\d+)?)\s?(hours?|hrs?|h)\s(?:each|every|on|on each)\s"
    rf"((?:{_DAY_NAME},?\s(?:and\s|&\s)?){{2,7}})",
    re.I,
)


# a count of a unit of time said in words: "two hours", "five days", "twenty-two days"
_WORDS_OF_TIME = re.compile(  # ("three hundred and forty hours": the number whole)
    # (not after a lone letter: "plan B two hundred hours" is no B200 said aloud, see _spoken)
    rf"(?<!\b[abhlvABHLV] )\b({_GROUP}(?:[- ]thousand(?:(?: and)? {_GROUP})?)?)"
    r"(?=\s(?:hours?|hrs?|days?|nights?|weeks?|months?|years?|minutes?|mins?"
    r"|evenings?|shifts?|working days|work ?days)\b)",
    re.IGNORECASE,
)


def _plain_times(text: str) -> str:
    """Times said in words or short forms, as a number and a unit the duration readers take:
    "three and a half days" -> "3.5 days", "half a day" -> "0.5 day", "2d 6h" -> "54 hours",
    "1h30" -> "1.5 hours", "for the whole of Q1" -> "for 3 months", "3 sessions a week, 2.5 h
    each" -> "7.5 hours a week", "10 hours each Saturday and Sunday" -> "20 hours a week"."""
    text = _AND_A_HALF.sub(lambda m: f"{_count(m.group(1).lower()) + 0.5:g} {m.group(2)}", text)
    # "6 hours per working day": a day's hours, on weekdays
    text = rx.sub(r"\b(?:a|per|each|every) (?:working|work|business) ?day\b", "a day on weekdays",
                  text, flags=re.IGNORECASE)  # fmt: skip
    # "two hours a day, five days a week", "seventeen days a month": the count in digits
    text = _WORDS_OF_TIME.sub(lambda m: str(_spoken_value(m.group(1))), text)
    text = _A_UNIT_AND_A_HALF.sub(r"1.5 \1s", text)
    text = _HALF_A.sub(r"0.5 \1", text)
    text = _D_H.sub(lambda m: f"{int(m.group(1)) * 24 + int(m.group(2))} hours", text)
    text = _H_M.sub(lambda m: f"{int(m.group(1)) + int(m.group(2)) / 60:g} hours", text)
    text = _QUARTER.sub(lambda m: m.group(0).split()[0] + " 3 months", text)

    def sessions(m: re.Match[str]) -> str:
        each = float(m.group(3)) / (60 if m.group(4).lower().startswith("m") else 1)
        return f"{_count(m.group(1).lower()) * each:g} hours a {m.group(2).lower()}"

    text = _SESSIONS.sub(sessions, text)

    def days(m: re.Match[str]) -> str:
        named = len(rx.findall(r"day\b", m.group(3).lower()))
        return f"{float(m.group(1)) * named:g} hours a week "

    return _DAYS_NAMED.sub(days, text)


# ---------------------------------------------------------------- quantities


# a batch size and its number, blanked before a context is read ("batch 2 ctx 4k")
_BATCH_NUMBER = re.compile(r"\b(?:batch(?:[- ]size)?|bs)\s?[=:]?\s?\d+\b")


# "1k tokens in and 200 out", "500 in / 100 out", "2k in, 256 out": prompt and reply lengths
_IN_OUT = re.compile(
    r"\b(\d+(?:\.\d+)?)\s?(k)?\s?(?:tokens?\s)?(?:in|input|prompt)\b\s?(?:and|/|,|\+|&)?\s?"
    r"(\d+(?:\.\d+)?)\s?(k)?\s?(?:tokens?\s)?(?:out|output|gen|generated|completion)\b"
)


# the same said label first: "input 2048 output 128", "isl 1024 osl 512", "in 2k / out 256"
_IN_OUT_LABELS = re.compile(
    r"\b(?:input|in|isl|prompt)(?:[- ]len(?:gth)?)?\s?[=:]?\s?(\d+(?:\.\d+)?)\s?(k)?\s?(?:tokens?)?"
    r"\s?(?:and|/|,|\+|&)?\s?"
    r"\b(?:output|out|osl|gen)(?:[- ]len(?:gth)?)?\s?[=:]?\s?(\d+(?:\.\d+)?)\s?(k)?\b"
)
# a serving benchmark's shape, two lengths with a slash ("128/128", "1024/512"), beside a word
# of serving: its input and output lengths
_IN_OUT_SLASH = re.compile(
    r"(?<![\d.$/,])(\d{2,6})(k)?\s?/\s?(\d{1,6})(k)?(?![\d/.,]|\s?(?:gb|px|x\b|%|h\b|hr|mo))"
)
_SERVING_SHAPE = re.compile(
    r"\bthroughput\b|\blatency\b|\btensorrt|\btrt\b|\btrt-?llm\b|\bvllm\b|\bsglang\b"
    r"|\blmdeploy\b|\btgi\b|\bisl\b|\bosl\b|\bin/out\b|\bconcurren|\bbatch\b|\brequests?\b"
)


def _in_out(low: str) -> tuple[int, int] | None:
    """The prompt and reply lengths said together ("1k in, 200 out", "input 2048 output 128",
    "throughput at 1024/512"), or None."""
    m = _IN_OUT.search(low) or _IN_OUT_LABELS.search(low)
    if m is None and _SERVING_SHAPE.search(low):
        m = _IN_OUT_SLASH.search(NONSTOP.sub(" ", low))  # ("runs 24/7": every hour, no lengths)
    if m is None:
        return None
    return int(_k_tokens(m.group(1), m.group(2))), _tokens(m.group(3), m.group(4))


def _pair(m: re.Match[str]) -> tuple[str | Any, str | Any]:  # as re types a group
    """A number and its unit from a pattern of alternatives: groups 1-2, else 3-4, else 5-6 ..."""
    said = m.groups()
    first = next((i for i in range(0, len(said), 2) if said[i]), 0)
    return said[first], said[first + 1]


def _tokens(n: str, k: str | None) -> int:
    return int(float(n.replace(",", "")) * (1000 if k else 1))


def _k_tokens(n: str, unit: str | None) -> float:
    """A context length: "8k" is 8,192 (and 1k-256k likewise), "10k" ten thousand."""
    number = float(n.replace(",", ""))  # "8,000 tokens"
    value = number * {"k": 1024, "m": 1024 * 1024}.get(unit or "", 1)
    if unit == "k" and value % 1000 == 0 and number not in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        value = number * 1000
    return value


# a length said without the word context, read only when no context is stated: "every agent
# conversation can reach 4k tokens", "sequences up to 8k residues", "long protein sequences
# (32k tokens)", "the full 128k window" (group pairs at 1, 3, 5 and 7)
_LENGTH_SAID = re.compile(
    r"\b(?:conversations?|chats?|sessions?|sequences?|seqs?|documents?|contracts?|prompts?)\b"
    r"[^.?!]{0,25}?\b(?:reach(?:es)?|hits?|grows? to|gets? to|up to)\s~?(\d+(?:\.\d+)?)\s?(k)[- ]?"
    r"(?:tokens?|residues|amino acids)\b"
    r"|\b(?:up to|reach(?:es)?)\s~?(\d+(?:\.\d+)?)\s?(k)[- ]?(?:residues|amino acids"
    r"|tokens? (?:per|each|a|an) (?:request|prompt|document|doc|conversation|query|input|chat))\b"
    r"|\b(?:sequences?|seqs?|documents?|docs?|contracts?|prompts?|inputs?)\s\(~?(\d+(?:\.\d+)?)"
    r"\s?(k)[- ]?tokens?\)|(\d+(?:\.\d+)?)\s?(k)[- ]?(?:tokens?\s)?window\b"
)


# "prompts ~1k tokens", "the average prompt is 1500 tokens": the length read, when no context
# length is said ("prompts ~1k tokens and a 32k context window" is 32k)
_PROMPT_SAID = re.compile(
    r"\b(?:prompts?|inputs?|convos?|conversations?|chats?|sessions?|requests?)"
    r"(?: are| is| of| run| average| averaging)?(?: short,)?(?: typically| usually"
    r"| about| around| roughly| ~| under| below| up to| less than| at most| maybe| like)?\s?~?\s?"
    r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"\s?(k)?\s?tok(?:en)?s?\b"  # ("prompts ~500 tok", "prompts are short, under 4k tokens")
)


# "a day", "per day", "/day", "/d": never "and" or "as" ("20M tokens and 3 epochs")
_PER_DAY = r"(?:\s?/\s?|\s(?:per|a|an|each|every)\s)(?:day|d)\b"
# a token count said per day ("200M input tokens a day"): a load, never a prompt's length
_TOKENS_A_DAY = re.compile(
    rf"{_NUM}\s?(?:k|m|b|thousand|million|billion)?\s?(?:[a-z]+\s)?(?:tokens?|toks?){_PER_DAY}"
)


def _context(low: str) -> int | None:
    low = _TOKENS_A_DAY.sub(" ", low)
    if shape := _in_out(low):
        return shape[0]
    # "works with max-model-len 8192, but with 131072 the engine fails": the length that fails
    if m := rx.search(r"\bbut (?:with|at|going to|bumping (?:it )?to) (\d{1,3}(?:,\d{3})+|\d+)"
                      r"\s?(k)?\b(?! ?(?:gb|users|requests|images|steps))[^.?!]{0,60}"
                      r"\b(?:fails?|oom|crash\w*|errors?|out of memory|not enough|dies"
                      r"|won'?t (?:start|load))",
                      low):  # fmt: skip
        value = _k_tokens(m.group(1).replace(",", ""), m.group(2))
        if 256 <= value <= MAX_COUNT:
            return int(value)
    # "keep 32k tokens of my manuscript in mind at once": the text the model holds at once
    if m := rx.search(r"\b(?:keep|hold|remember|see|read)s?\s(?:all\s)?(\d+(?:\.\d+)?)\s?(k)?\s"
                      r"tokens\b(?:\sof\s(?:[\w'-]+\s){0,3}?[\w'-]+)?\s(?:in mind|in memory|"
                      r"in (?:its |the )?context|in view|at once|at a time)\b", low):  # fmt: skip
        value = _k_tokens(m.group(1), m.group(2))
        if 256 <= value <= MAX_COUNT:
            return int(value)
    # "the conversations would be short, a few thousand words, say 4,000 tokens": a chat's
    # length (not "10k conversations of 400 tokens" to train on: a count before the noun)
    if m := rx.search(r"(?<![\d,.]\s)(?<![\d,.]k\s)\b(?:conversations?|chats?|dialogues?"
                      r"|sessions?)\b[^.?!]{0,80}?\b(?:say|about|around|roughly|up to|at most"
                      r"|max(?:imum)?|~)\s?(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?\s?tokens\b(?!\s?(?:/|per|a|an|each)\s?"
                      r"(?:s|sec|second|day|month)\b)", low):  # fmt: skip
        value = _k_tokens(m.group(1).replace(",", ""), m.group(2))
        if 256 <= value <= MAX_COUNT:
            return int(value)
    # "process a 100k token document", "a 50k-token transcript": the prompt read at once
    if m := rx.search(r"\b(\d+(?:\.\d+)?)\s?(k)?[- ]tokens?\s(?:long\s)?(?:document|doc|prompt"
                      r"|input|file|pdf|transcript|codebase|contract|report|book|chapter|paper)s?\b",
                      low):  # fmt: skip
        value = _k_tokens(m.group(1), m.group(2))
        if 256 <= value <= MAX_COUNT:
            return int(value)
    # "bumping context from 8k to 128k": the length it goes to
    if m := rx.search(r"\b(?:context|ctx)\b.{0,20}?\bfrom\s\d+(?:\.\d+)?\s?k?\s?(?:up )?"
                      r"(?:to|->)\s?"
                      r"(\d+(?:\.\d+)?)\s?(k)?\b", low):  # fmt: skip
        return int(_k_tokens(m.group(1), m.group(2)))
    # "context bumped to 32768", "set the context length to 65536", "ctx raised to 16k"
    if m := rx.search(r"\b(?:context|ctx)(?: length| window| size)?\s(?:(?:was |is |got )?(?:bumped"
                      r"|set|raised|increased|cranked|turned|pushed|upped|changed)(?: up)?\s)?to\s"
                      r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\b(?!\s?(?:gb|users|%))",
                      low):  # fmt: skip
        value = _k_tokens(m.group(1).replace(",", ""), m.group(2))
        if 256 <= value <= MAX_COUNT:
            return int(value)
    m = rx.search(
        r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m)?[\s-]?(?:tokens?\s)?(?:of\s)?"
        r"(?:context|ctx"
        r"|context window"
        r"|context length|sequence length|seq(?:uence)? len|token prompts?|prompt|input tokens"
        r"|input)"
        r"|(?:contexts|context|contexto|contexte|ctx|sequence length|seq len|seqlen|context length"
        r"|context window"
        r"|max[_ ]len\b"
        r"|max[_ ]seq[_ ]len(?:gth)?|seq(?:uence)?[_ ]len(?:gth)?|\bseq|max[_ ]length"
        r"|-*max[-_ ]model[-_ ]len|max_input_len\s?\+\s?max_output_len)"
        # "context of 8,000 tokens", "seq_len: 4096", "bump context to 128k"
        # "context は 8k くらい" (Japanese "is"), "short context (4k)"
        r"(?:\s?(?:of|=|:|is|at|to|de|は|が|는|은|set to|set at))?"
        r"(?:\s(?:not more than|no more than|at most|up to"
        r"|under|around|about|max(?:imum)?|only|just|roughly|approximately|like|say|of like))?"
        r"\s?=?\s?[~(]?"
        r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|m)?\b"
        # "with 8k" is a length; "with 30k samples" is a data set's size
        # (not a price: "came in at 58k", "priced at 30k", "listed at 2k")
        r"|\b(?<!in )(?<!priced )(?<!quoted )(?<!listed )(?<!sold )(?<!selling )"
        r"(?:at|with)\s(\d+(?:\.\d+)?)\s?(k)\b(?!\s?(?:images|steps|hours|users|\$|samples"
        r"|examples|rows|records|documents|docs|photos|pictures|sentences|texts|items|files"
        r"|instructions|pairs|conversations|requests|prompts|queries|tickets|emails|clips"
        r"|videos|epochs|iterations)\b)"
        # "how many 8k-token requests", "4k-token sessions": the length each one holds
        r"|(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?[- ]tokens?\s"
        r"(?:requests?|sessions?|conversations?|chats?"
        r"|sequences|contexts|max(?:imum)?|long|each|total|in total|per (?:text|sample|document|doc"
        r"|example))\b"
        r"|\b(?:context|ctx)\b,\s(\d+(?:\.\d+)?)\s?(k)\b"  # "dont care about huge ctx, 4k is fine"
        # "short context is fine like 4k", "context around 16k or so"
        r"|\b(?:context|ctx)\b[^.?!\d]{0,25}?\b(?:like|around|about|say|maybe|~)\s?"
        r"(\d+(?:\.\d+)?)\s?(k)\b"
        # "each with up to 16k tokens of chart context", "every request can grow to 4k tokens"
        r"|(?<![\d.])(\d+(?:\.\d+)?)\s?(k)?\s?tokens? of (?:[\w-]+ ){1,2}context\b"
        # "with 4,096 tokens for the conversation", "8k tokens of chat history"
        # (not the data a model is trained on: "fine-tune on 500,000 tokens of chat history")
        r"|(?<![\d.,])(?<!\bon )(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\s?tokens? (?:for|of) "
        r"(?:the |a |each |our |my )?(?:conversation|chat(?: history)?|dialog(?:ue)?|history"
        r"|session)s?\b(?![^.?!]{0,30}\b(?:fine-?tun|train))"
        # "each request can use up to 8k tokens", "every request up to 4096 tokens"
        r"|\b(?:grows?|go(?:es)?|reach(?:es)?|run|uses?|requests?|prompts?|conversations?) (?:up )?"
        r"to (\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\s?tokens\b"
        # German: "Kontext 4096 Token" (not "FLUX.1 Kontext", a model)
        r"|\bkontext:?\s(\d+(?:\.\d+)?)\s?(k)?\s?token"
        # "up to 32k tokens per paper", "512 tokens each note": a length per item (not per second)
        r"|(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\s?tokens? (?:per|each|a|an) "
        r"(?!(?:second|sec|s|minute|min|hour|hr|day|week|month|year|epoch|step|batch|dollar|gpu"
        r"|card|watt|kwh|user|million|billion|repl(?:y|ie)|answer|response|output|completion"
        r"|generation)s?\b)[a-z]+"
        # "batch 8 x 512 tokens" (the batch blanked first), "4 x 2k tokens": each sequence's length
        # ("max 128 tokens": each one's length; not "approx 3 tokens")
        r"|(?:(?<![a-z])[x\u00d7]|\bmax(?:imum)?)\s?(\d+(?:\.\d+)?)\s?(k)?[- ]?tokens?\b"
        # "20k samples of 512 tokens", "examples of ~1k tokens": each one's length
        r"|\b(?:samples|examples|rows|records|documents|docs|sequences|conversations|texts"
        r"|instructions|pairs) (?:of|with|at) (?:about |around |roughly |up to |~ ?)?"
        r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?[- ]?tokens?\b"
        # "3.2M sentences padded to 128 tokens", "truncated at 512 tokens": each one's length
        r"|\b(?:padded|truncated|cut|clipped|capped|trimmed) (?:\w+ )?(?:to|at) (?:max(?:imum)? )?"
        r"(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?[- ]?tokens?\b"
        # "10M docs (~500 tokens avg)": each one's length, said beside the things
        r"|\b(?:documents|docs|passages|chunks|texts|sentences|records)\s?\(\s?(?:about |around |"
        r"avg |average |~ ?)?(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?[- ]?tokens?\b"
        # "short context, within 4000 tokens", "context pendek je, dalam 4000 token"
        r"|\b(?:context|ctx)\b[^.?!\d]{0,25}?\b(?:within|in|under|up to|about|around)\s"
        r"(\d{3,6})\s?(k)?\s?tokens?\b",
        _BATCH_NUMBER.sub(lambda b: " " * len(b.group(0)), low),  # "batch 2 ctx 4k": not 2
    ) or _LENGTH_SAID.search(low)
    m = m or _PROMPT_SAID.search(low)
    if not m:
        return None
    n, unit = _pair(m)
    value = _k_tokens(n, unit)
    return int(value) if 1 <= value <= MAX_COUNT else None


def _batch(low: str) -> int | None:
    if rx.search(r"\bsingle[- ](?:stream|sequence|request|user)\b"
                 r"|(?<!not )(?<!than )\bone (?:[a-z]+ )?user\b(?! (?:per|each|or)\b)"
                 r"(?![^.?!]*\d+ users)"
                 r"|\bone (?:stream|request|image"
                 r"|picture|prompt)? ?at a time\b", low):  # fmt: skip
        return 1
    m = rx.search(
        # "batch 8", "batch size of 8", "--per_device_train_batch_size 8", "batch_size: 8", "bs=32"
        # (not the British Standard "BS5837")
        r"(?<![a-z])batch(?:[-_ ]size)?(?:\s(?:of|is))?\s?[=:~]?\s?~?(\d+)\b"
        r"|\bbs\s?=?\s?([1-9]\d{0,2}|1024|2048|4096)\b"
        r"|\b(\d+)\s(?:images|sequences|prompts) (?:at once|per batch|in a batch)"
        r"|--max[-_]num[-_]seqs[\s=](\d+)\b",  # vLLM's cap on the sequences batched at once
        low,
    )
    if not m:  # "batch of one", "a batch size of four"
        said = rx.search(rf"(?<![a-z])batch(?:[-_ ]size)?\s(?:of|is)\s{_WORD_NUM}\b", low)
        return int(_count(said.group(1))) if said else None
    value = int(next(g for g in m.groups() if g))
    made = rx.search(r"\bgenerat\w*|\brender\w*|\bmake\b|\bcreate\b|\bproduc\w*|\bsdxl\b"
                     r"|\bstable diffusion\b|\bflux\b|\bsd ?\d|\bit/s\b", low)  # fmt: skip
    if value > _LOT and made and rx.match(r"\s(?:images|pictures|photos|renders|generations|icons"
                                          r"|sprites|assets|of them|of those|of these)\b",
                                          low[m.end() :]) and "size" not in m.group(0):  # fmt: skip
        return None  # "a batch of 400 images" to make: a job's size, not a batch size
    if (
        value > _LOT
        and "size" not in m.group(0)
        and rx.match(
            r"\s(?:[a-z]+\s)?(?:podcasts?|episodes?|files?|recordings?|videos?|calls?|meetings?"
            r"|lectures?|interviews?|documents?|docs|pdfs?|books?|hours?|audio)\b",
            low[m.end() :],
        )
    ):
        return None  # "a batch of 1000 podcasts": the job's items, not how many run at once
    return value


_LOT = 64  # above it, "a batch of N images" is how many to make, not how many at once


# people, by the endings their nouns take ("doctors", "radiologists", "analysts", "employees")
_PEOPLE = r"[a-z]+(?:ists|ers|ors|ians|ents|ees|ople|ff|ics|ives)"


# what arrives at a rate: "50 requests a second", "50 users per second", "200 calls a minute"
_ARRIVALS = r"(?:req(?:uest)?s?|queries|users|calls|chats|messages|prompts|conversations)"


def _concurrency(low: str) -> tuple[int | None, float | None]:
    rps = rx.search(
        rf"(\d+(?:\.\d+)?)\s?(?:{_ARRIVALS}|qps|rps)(?:\s?/\s?|\s?per\s?"
        r"|\s(?:an?|each|every)\s)(?:s\b|sec|second)"  # never "requests as a burst"
        r"|(\d+(?:\.\d+)?)\s?(?:qps|rps)\b",
        low,
    )
    # "60 agents, maybe 20 using the assistant at the same moment", "2-3 chats at once": the
    # number said with "at once" is the concurrency, a range's top end
    users = rx.search(
        rf"\b(?:\d+\s?[-\u2013]\s?)?(\d[\d,]*|{_WORD_NUM[1:-1]})\s(?:[a-z]+\s){{0,2}}?(?:chats?"
        rf"|conversations?|sessions?|requests?|users?|[a-z]+ing|people|calls?|queries|of us|of them"
        rf"|folks?|guys|persons|customers|visitors|guests|kids|{_PEOPLE})\s(?:[\w.-]+\s){{0,5}}?"
        r"(?:at (?:the )?(?:same|one) (?:time|moment)|at once|simultaneously|concurrently)\b",
        low,
    )
    users = (
        users
        # "200 internal users, peak maybe 10 concurrent requests": the count said concurrent
        # before the number of users who share it
        or rx.search(r"(?<![\d.,])(\d[\d,]*)\s(?:concurrent|simultaneous|parallel)\b", low)
        or rx.search(  # ("cost per 1000 requests": a unit of the price, no load)
            rf"(?<!per )(?<!every )(\d[\d,]*|{_WORD_NUM[1:-1]})\s(?:concurrent |simultaneous "
            r"|parallel |active "
            r"|(?:internal|external|paying|beta|regular|heavy|light|real|expected|total) )?"
            r"(?:users"
            r"|people|ppl|requests|streams|sessions|customers|employees|devs|developers|clients"
            r"|engineers|students|analysts|researchers|colleagues|agents|annotators|staff|clinicians"
            r"|doctors|nurses|physicians|lawyers|paralegals|teachers|traders|editors|reporters|coders"
            r"|programmers|scientists|members|testers|players|subscribers|learners|dispatchers"
            r"|operators|writers|designers|artists|translators|moderators|interns|reps"
            r"|representatives|accountants|consultants|attorneys|advisors|advisers|tutors)\b"
            # "1000 users per day", "50 requests a second" (a rate, not how many at once); "20
            # requests each" (what each user sends)
            r"(?!\s?(?:/|per|an?|each|every)\s?(?:day|week|month|hour|second|sec|s|minute|min)\b"
            r"|\s(?:each|apiece)\b)"
            r"|(\d+)\s(?:concurrent|simultaneous|parallel)\b|\bteam of (\d+)\b",
            low,
        )
    )
    users = users or rx.search(
        rf"\b(\d[\d,]*|{_WORD_NUM[1:-1]})\s{_PEOPLE}\s(?:[a-z]+\s){{0,3}}?(?:at|in)\s(?:the\s)?"
        rf"same\stime\b|\b(\d[\d,]*)\s{_PEOPLE}\s(?:[a-z]+\s){{0,3}}?"
        r"(?:simultaneously|concurrently|at once)\b",
        low,
    )  # "20 doctors in the same time", "50 analysts at once"
    users = users or rx.search(  # "serve Llama 3.3 70B ... to roughly 50 maintenance technicians"
        rf"\b(?:serve|serving|served|support|supporting|used by|shared by|available to)\b"
        rf"(?:[^.?!]|\.(?=\d)){{0,50}}?\b(?:to|for|by)\s(?:about |roughly |around |~|up to |some )?"
        rf"(\d[\d,]*)"
        rf"\s(?!(?:daily|weekly|monthly)\s)(?:[a-z]+\s)?{_PEOPLE}\b"
        r"(?!\s?(?:/|per|an?|each|every)\s?(?:day|week|month|hour)\b)",
        low,
    )
    said = next(g for g in users.groups() if g) if users else None
    concurrency = int(_count(said.replace(",", ""))) if said else None
    if concurrency is None and rx.search(
        r"\b(?:single|one|a lone|just one)\s(?:concurrent\s)?(?:user|request|stream|session)\b"
        # "just one chat at a time", "one conversation at once"
        r"|\bone (?:chat|conversation|person|player|caller|query)s? (?:at a time|at once)\b"
        # "just me using it", "only ever one person using it at a time", "jist the one o us"
        r"|\b(?:just|only|jist|it'?s) me (?:using|on|typing|chatting|talking)\b"
        r"|\b(?:only|just|jist) (?:ever )?(?:the )?one (?:person|user|of us|o us)\b"
        # "just him typing at it", "just me typin at it, one at a time", "one person, me"
        r"|\b(?:just|only|jist) (?:me|him|her|myself) (?:typin|asking|at it|by myself)"
        r"|\bone (?:person|user)(?:,| -)? (?:me|myself|him|her)\b"
        r"|\b(?:one|1) (?:person|user) (?:using|chatting|on it|at a time)\b"
        r"|\bone at a time\b(?! (?:through|into|in)\b)"
        # "one description at a time, nothing in parallel"
        r"|\bone (?!(?:gpu|card|model|layer|step|epoch|file|machine|node|image|batch)s?\b)"
        r"[a-z]+ at a time\b|\bnothing (?:runs? )?(?:in parallel|concurrently|at once)\b"
        r"|\bno (?:parallel|concurrent|simultaneous) (?:requests|users|calls|jobs)\b",
        low,
    ):
        concurrency = 1  # "single user", "latency for a single request"
    rate = _number(rps.group(1) or rps.group(2)) if rps else None
    per_minute = None if rps else rx.search(  # "200 requests per minute", "120 rpm"
        rf"(\d[\d,]*(?:\.\d+)?)\s?{_ARRIVALS}(?:\s?/\s?|\s?per\s?|\s(?:an?|each|every)\s)"
        r"(?:min|minute)\b"
        r"|(\d[\d,]*)\s?rpm\b(?!\s?(?:fan|disk|drive|pump))",
        low,
    )  # fmt: skip
    if (
        per_minute
        and per_minute.group(2)
        and rx.search(r"\bfans?\b|\bspin\w*|\bnois\w*|\bpump\b|\bdisks?\b|\bhdd\b|\bcooler\b", low)
    ):
        per_minute = None  # "the fan spins at 2000 rpm while serving": turns, not requests
    if per_minute:
        rate = _number((per_minute.group(1) or per_minute.group(2)).replace(",", "")) / 60
    per_hour = (
        None
        if rate is not None
        else rx.search(  # "5000 requests/hour"
            rf"(\d[\d,]*(?:\.\d+)?)\s?(k)?\s?{_ARRIVALS}(?:\s?/\s?|\s?per\s?|\s(?:an?|each|every)\s)"
            r"(?:h|hr|hour)\b",
            low,
        )
    )
    if per_hour:
        rate = (
            _number(per_hour.group(1).replace(",", "")) * (1000 if per_hour.group(2) else 1) / 3600
        )
    daily = _daily_rate(low) if rate is None else None
    if daily is not None and not rx.search(
        r"concurren|simultaneous|at once|same time|parallel", low
    ):
        concurrency = None  # "1000 users a day, 20 requests each": a day's load, none at once
    return concurrency, rate if rate is not None else daily


# who a day's requests come from: "1000 users a day", "300 staff, each ..."
_DAILY_PEOPLE = (r"(?:users|people|customers|visitors|employees|staff|engineers|developers|devs"
                 r"|agents|students|members|analysts|clients|subscribers)")  # fmt: skip


# the things each user sends: "10 requests", "50 questions"
_ASKS = r"req(?:uest)?s?|queries|calls|messages|msgs|prompts|chats|questions"


def _daily_rate(low: str) -> float | None:
    """A load said per day, as an average rate in requests a second: "20k requests a day",
    "1000 users per day, each doing ~20 requests", "50M tokens/day": the prompt's and the
    answer's tokens when a prompt length is said, else (or "output tokens a day") answers of the
    length said, or of the serving estimate's DEFAULT_OUTPUT_TOKENS."""
    users = rx.search(
        rf"{_NUM}\s?(k|thousand)?\s(?:[a-z]+\s)?{_DAILY_PEOPLE}"
        rf"{_PER_DAY}[^.?!]{{0,40}}?\b(?:each|per user|every one)\b[^.?!\d]{{0,20}}~?{_NUM}\s"
        rf"(?:{_ASKS})",
        low,
    )
    users = users or rx.search(  # "500 users and each sends 10 requests a day"
        rf"{_NUM}\s?(k|thousand)?\s(?:[a-z]+\s)?{_DAILY_PEOPLE}\b[^.?!]{{0,30}}?"
        rf"\beach\b[^.?!\d]{{0,20}}~?{_NUM}\s(?:{_ASKS}){_PER_DAY}",
        low,
    )
    users = users or rx.search(  # "10k users, 50 questions a day each"
        rf"{_NUM}\s?(k|thousand)?\s(?:[a-z]+\s)?{_DAILY_PEOPLE}\b[^.?!\d]{{0,30}}?"
        rf"~?{_NUM}\s(?:{_ASKS}){_PER_DAY}\s(?:each|apiece|per (?:user|person|head))\b",
        low,
    )
    users = users or rx.search(  # "~300 daily active users, avg 20 msgs each"
        rf"{_NUM}\s?(k|thousand)?\s(?:daily(?: active)?\s{_DAILY_PEOPLE}|daus?)\b[^?!]{{0,60}}?"
        rf"\b(?:each|avg|average|per (?:user|person|head)|around|about)\b[^.?!\d]{{0,12}}~?"
        rf"{_NUM}\s(?:{_ASKS})\b",
        low,
    )
    if users:
        return _scaled(users.group(1), users.group(2)) * _number(users.group(3)) / SECONDS_PER_DAY
    requests = rx.search(
        rf"{_NUM}\s?(k|m|thousand|million)?\s(?:req(?:uest)?s?|queries|calls|conversations|chats"
        rf"|messages|prompts|completions|documents|docs|tickets|emails|summaries|questions|replies"
        rf"|answers|lookups){_PER_DAY}",
        low,
    )
    if requests:
        return _scaled(requests.group(1), requests.group(2)) / SECONDS_PER_DAY
    tokens = rx.search(rf"{_NUM}\s?(k|m|b|thousand|million|billion)?\s?(?:(output|generated"
                       rf"|completion|new|input|prompt)\s)?(?:tokens?|toks?){_PER_DAY}"
                       r"(?:\s(?:of\s)?(output|generated|generation|completions?|input|prompts?)\b)?",
                       low)  # fmt: skip
    if tokens:
        kind = (tokens.group(3) or tokens.group(4) or "")[:3]
        out = _output_tokens(low) or DEFAULT_OUTPUT_TOKENS  # the serving estimate's reply
        prompt = _context(low)
        if kind in ("inp", "pro"):  # "200M input tokens a day": prompts only
            each = float(prompt or DEFAULT_CONTEXT)  # (the serving estimate's prompt, unsaid)
        elif kind or not prompt:  # said as generated tokens, or no prompt to share them with
            each = out
        else:  # "50M tokens a day" beside 4k-token prompts: both read and written
            each = prompt + out
        return _scaled(tokens.group(1), tokens.group(2)) / SECONDS_PER_DAY / each
    return None


SECONDS_PER_DAY = 86_400


MAX_REPLY_TOKENS = 10_000_000  # the most read as output tokens (the calculator's limit)


# replies generated in bulk: "generate 100k synthetic samples of 400 tokens each"
_GENERATED_ITEMS = re.compile(
    r"\b(?:generat\w*|produc\w*|writ\w*|creat\w*|synthesi[sz]\w*)\s(?:about |around |~)?"
    r"(\d[\d,]*(?:\.\d+)?)\s?(k|m|thousand|million)?\s(?:[a-z]+\s){0,2}?(?:samples|examples|answers"
    r"|responses|completions|documents|rows|records|articles|descriptions|summaries|items)"
    r"\s(?:of|with|at)\s(?:about |around |~)?(\d[\d,]*)\s?(k)?\s?tok(?:en)?s?\b"
)


def _generated_items(low: str) -> tuple[float, int] | None:
    """(how many, tokens each) of replies generated in bulk, or None."""
    m = _GENERATED_ITEMS.search(low)
    if m is None:
        return None
    scale = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6}.get(m.group(2) or "", 1.0)
    each = int(m.group(3).replace(",", "")) * (1000 if m.group(4) else 1)
    count = float(m.group(1).replace(",", "")) * scale
    return (count, each) if count >= 1 and each >= 1 else None


def _output_tokens(low: str) -> int | None:
    if shape := _in_out(low):
        return shape[1]
    m = rx.search(
        # (the whole number: "3,000,000 output tokens" is not 000 of them)
        r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?\s?"
        r"(?:(?:output|generated|new|completion) tokens|[- ]?tokens? "
        r"(?:answers?|repl(?:y|ies)|responses?|outputs?|completions?|generations?)"
        r"|[- ]?tokens? (?:per|a|an|each) (?:answer|reply|response|output|completion)\b"
        r"|\s(?:tok(?:en)?s?\s)?(?:gen|out)\b(?!\s?(?:\d|gpu|card|of\b)))"
        # "answers about 200 tokens", "responses are ~300 tokens long"
        r"|\b(?:answers?|repl(?:y|ies)|responses?|outputs?|completions?) (?:are |is |of |runs? )?"
        r"(?:(?:like |maybe )?(?:about |around |roughly |~ ?)?|like )"
        r"(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?"
        r"\s?tok(?:en)?s?\b"
        # "prompts are around 4k tokens, answers 300": a count after a length in tokens
        r"|(?:(?<=tokens, )|(?<=tokens; )|(?<=tokens ))(?:and |with )?"
        r"(?:answers?|repl(?:y|ies)|responses?|outputs?|completions?)"
        r" (?:are |is |of )?(?:about |around |roughly |~ ?)?(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?"
        r"(?![\w%$]|[.,]\d)"
        r"|(?:generate|output|max_new_tokens|max new tokens)\s?=?\s?(\d{1,3}(?:,\d{3})+|\d+)"
        r"(?![\d.]|\s?(?:m|million|b|billion|thousand)\b)\s?(k)?\s?(?:tokens)?\b"
        # "1500 prompt tokens + 300 output", "2k in + 500 out"
        r"|\+\s?~?(\d{1,3}(?:,\d{3})+|\d+)\s?(k)?\s?(?:output|out|generated|completion|gen)\b",
        low,
    )
    if not m:  # "need 2 million tokens out", "500k tokens generated in total"
        many = rx.search(rf"{_NUM}\s?(k|m|thousand|million|billion)?\s?tokens?\s(?:out(?:put)?"
                         r"|generated|of (?:output|generation))\b"
                         rf"|\b(?:generate|produce|write|output)\s(?:about |around |~)?{_NUM}\s?"
                         r"(k|m|thousand|million|billion)?\s?tokens\b", low)  # fmt: skip
        if many is None:
            return None
        said = [g for g in many.groups()]
        total = int(_scaled(said[0] or said[2], said[1] if said[0] else said[3]))
        # ("generate 1 billion tokens": a job's tokens in all, no one reply's length)
        return total if total <= MAX_REPLY_TOKENS else None
    n, k = _pair(m)
    return _tokens(n, k)


# a language model trained from nothing: said, or a pretraining corpus or codebase named
# a model trained anew, said without "train": "karpathy reproduced gpt-2 small in llm.c", "the
# same 10B token run"
_TRAINING_RUN = (r"\breproduc(?:e|ed|es|ing|tion)(?: of)? (?:gpt-?\d|nanogpt|llama|bert|resnet"
                 r"|t5|the (?:training|pre-?training|run))|\bllm\.c\b"
                 r"|\b\d+(?:\.\d+)?\s?[bmt][- ]?tokens? (?:training )?run\b")  # fmt: skip
FROM_SCRATCH = (r"scratch|pre-?train|\bnanogpt\b|\bopenwebtext\b|\bthe pile\b|\bfineweb"
                r"|\bredpajama\b|\bslimpajama\b|\bdolma\b|" + _TRAINING_RUN)  # fmt: skip


# "used" the adjective ("a used 3090"), not the verb ("I used 4 GPUs for 36 hours")
USED_ADJECTIVE = (
    r"(?<!\bi )(?<!\bwe )(?<!\bhave )(?<!\bhad )(?<!\bwas )(?<!\bis )\bused\b"
    r"(?!\s(?:\d|to|it|them|for(?! ?[$€£₹\d]| eur\b| usd\b| r\$| us\$)|up|by|in|on|with|about"
    r"|the|all|our|my|their|its|this|that)\b)"  # "used for training", not "used for $1,100"
)
# a follow-up asking to spend less than the answer before: "cheaper option?", "anything cheaper"
CHEAPER = re.compile(
    r"^\W*(?:(?:any|is there (?:a|an|any)|something|a|got an?|what'?s an?|what about an?)\s)?"
    r"(?:\w+\s)?cheaper(?:\s(?:options?|alternatives?|ways?|ones?|choices?|setups?|cards?"
    r"|gpus?|route|path|config\w*))?(?:\s(?:for (?:that|this|it)|then|instead))?\W*$"
    r"|\b(?:anything|something|any(?:thing)?|options?|alternatives?|ways?) cheaper\b"
    r"|\bcheaper (?:options?|alternatives?)\b"
)
# the card the user has and leaves: "1000 bucks to upgrade from my 2070 super, what should i get"
LEAVING = re.compile(
    r"\bupgrad\w* from\b|\b(?:replac\w*|swap\w*(?: out)?|retir\w*) (?:my|our)\b"
    r"|\b(?:moving|move|switching|switch) (?:away )?from (?:my|our)\b"
    # "my card is an old GTX 1080 that's struggling", "my current gpu is a 1070"
    r"|\bmy (?:current |present )?(?:card|gpu|graphics card) (?:right now |now |currently )?is "
    r"(?:an? )?(?:old|aging|ageing|ancient|tired)\b"
)
# a card bought new: "brand new", "msrp", "still sealed", "deadstock"
_NEW_SAID = (
    r"\bnew\b|\bbrand new\b|\bretail\b|\bmsrp\b|\bsealed\b|\bdeadstock\b|\bunopened\b"
    r"|\bb?nib\b"
    # a trader's quote or list price: "the vendor quoted us $2,300", "Apple's list price"
    r"|\b(?:vendor|supplier|reseller|dealer|integrator|distributor)s?\b[^.?!]{0,30}\bquot\w*"
    r"|\bquot\w* (?:us|me)\b|\blist price\b"
    # a shop that sells new cards: "microcenter got it for $3,800", "best buy has it at"
    r"|\bmicro ?center\b|\bbest ?buy\b|\bnewegg\b|\bb&h\b|\bmindfactory\b|\bcaseking\b"
    r"|\bscan\.co\.uk\b|\boverclockers\b|\bldlc\b|\bmemory express\b|\bcanada computers\b"
)
_BRAND_NEW = re.compile(r"\bbrand[- ]new\b|\bsealed\b|\bnew in box\b|\bunopened\b")
# a card sold on by its owner: "second-hand", "a local guy selling a 3090", "ex-mining"
_RESOLD = (
    r"\bsecond[- ]hand\b|\brefurb\w*|\bebay\b|\busad[oa]s?\b|\bpre-?owned\b|\bex-?mining\b"
    r"|\b(?:guy|someone|somebody|friend|buddy|coworker|colleague|neighbou?r|seller|person|student"
    r"|bloke|mate|dude|chap)"
    r"(?:'s|) (?:\w+ ){0,3}(?:is |who'?s |that'?s )?sell(?:ing|s)\b"
    r"|\bsell(?:ing|s)? (?:me |us )?(?:his|her|their) \b"
    r"|\btrade ?me\b|\bgumtree\b|\boffer ?up\b|\bmercari\b|\bavito\b|\bleboncoin\b"
    r"|\bcraigslist\b|\b(?:facebook|fb) marketplace\b|\bkleinanzeigen\b|\bmercado ?livre\b|\bolx\b"
    r"|\ballegro\b|\bwallapop\b|\bcarousell\b|\bhamfest\b|\bswap ?meet\b|\bflea market\b"
    # "swears it was 'never mined on'": a card with a past
    r"|\bnever (?:been )?mined\b|\bused for mining\b|\bmining rig\b"
    # "guy on gumtree wants R6 500 for it", "seller asking 600" (not "someone wants to know")
    r"|\b(?:guy|seller|someone|bloke) (?:\w+ )?(?:wants|asking|is asking|asks)"
    r"(?: (?:a firm|a flat|firm|for|about|around|like|only|just|only about|just about"
    r"|roughly)){0,2}"
    r"\s?(?:[$\u00a3\u20ac\u20b9r]|us\$)?\s?\d"
    # "grabbed a 3080 ti off a mate", "bought it from a friend": a card someone had before
    r"|\b(?:got|bought|grabbed|picked up|scored|getting|buying)\b[^.?!]{0,40}\b(?:off|from) "
    r"(?:a |my |our |an old )?(?:mate|friend|buddy|coworker|colleague|neighbou?r|cousin|brother"
    r"|guy|bloke)\b"
)
# what hours of audio are counted in: "400 hours of support calls", "120 episodes"
_RECORDINGS = (
    r"episodes?|recordings?|calls?|files?|interviews?|meetings?|lectures?|shows?|podcasts?"
    r"|videos?|sessions?|hearings?|sermons?|webinars?|workshops?|seminars?|talks?|classes"
    r"|vods?|livestreams?|streams?|voice ?notes?|voicemails?|sides|tapes?|cassettes?|reels?"
    r"|depositions?|dictations?|consultations?|broadcasts?|services|masses"
    # "forty hours of talking", "25 hours of voice messages"
    r"|talking|voice (?:messages?|memos?|recordings?)|narration|intervistas?|entrevistas?"
)
_DURATION = re.compile(
    rf"(?<![\w.](?<!\bx))(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?|{_WORD_NUM[1:-1]})\s?-?\s?"
    r"(?:gpu[- ]|[a-z]{1,3}\d{2,4}[a-z]?[- ])?"  # "1,000 gpu hours", "a 100 a100-hour job"
    r"(hours?|hrs?|h|days?|weeks?|weekends?|fortnights?|months?|years?|yrs?|minutes?|mins?|horas?"
    r"|stunden|heures?|d[ií]as?|tage?|jours?|semanas?|semaines?|wochen?|meses|mes|mois)\b"
    rf"(?!\s?(?:of (?:\w+ )?(?:audio|speech|{_RECORDINGS})\b|audio))"
    # "all weekend", "all week": one of them (not "all day": a way of using a card)
    r"|\b(an?|one|the|this|next|all(?= (?:weekend|week|month|year)\b)) "
    r"(?:full |whole |entire )?(hour|day|week|weekend|fortnight|month"
    r"|year|yr)\b(?![\s-](?:jobs?|shifts?|trips?|pass|off|rate|one|care|time|light|trader)\b)",
    re.IGNORECASE,
)
_UNIT_HOURS = {
    "h": 1,
    "hr": 1,
    "hour": 1,
    "hora": 1,
    "stunden": 1,
    "heure": 1,
    "day": 24,
    "week": 168,
    "weekend": 48,
    "dia": 24,
    "día": 24,
    "tag": 24,
    "tage": 24,
    "jour": 24,
    "semana": 168,
    "semaine": 168,
    "woche": 168,
    "wochen": 168,
    "mes": 730,
    "mese": 730,
    "moi": 730,
    "fortnight": 336,
    "month": 730,
    "year": 8760,
    "yr": 8760,
    "min": 1 / 60,
    "minute": 1 / 60,
}


# a second length added to the first: "a year plus 3 months", "two weeks and 3 days"
_MORE_TIME = re.compile(
    # "and" in the phrasebook's languages too: "3 dni i 7 godzin", "2 días y 6 horas"
    # (not Dutch "en": it is "in" in French and Spanish, "100 horas en 3 días")
    rf"\s?(?:plus|and(?: another)?|\+|i|y|e|und|et|ve|och)\s(?:an? |another )?{_WORD_NUM}\s?"
    r"(hours?|days?|weeks?|months?)\b(?!\s?(?:a|per|each|every|/)\s?(?:day|week|month))"
)
# the smaller unit after a time: "2 min 40 sec", "1 hour 10 minutes"
# ("2 h 40 per epoch": minutes after hours, the unit left out)
_SMALLER_UNIT = re.compile(
    r"\s?(?:and\s)?(\d{1,2})\s?(sec(?:ond)?s?|s|min(?:ute)?s?|(?=\s?(?:per|each|an?|/)\s?epoch\b"
    r"|,\s(?:plus|and|with)\b))"
    r"\b(?!/)"
)
# time added to every epoch: "plus 10 minutes of evaluation after each epoch"
_EXTRA_PER_EPOCH = re.compile(
    r"\bplus\s(\d+(?:\.\d+)?)\s?(minutes?|mins?|hours?|hrs?|h)\b[^.?!]{0,50}"
    r"\b(?:each|every|per|an?) epoch\b"
)
# "95 seconds per epoch": an epoch's time in seconds (a duration in minutes is read below)
_SECONDS_PER_EPOCH = re.compile(  # not the seconds after minutes: "2 min 40 sec per epoch"
    r"(?<!min )(?<!mins )(?<!minute )(?<!minutes )(?<!\dm )"
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:seconds?|secs?|s)(?=\s?(?:per|each|an?|/)\s?epoch\b)"
    # "each epoch (of my CNN) takes 40 seconds"
    r"|(?<=\bepoch )(?:(?:of )?(?:[\w-]+ ){0,3}?)(?:takes|lasts|is|=|:)\s?(?:about |around |~)?"
    r"(\d+(?:\.\d+)?)\s?(?:seconds?|secs?|s)\b(?!\s?(?:/|per))"
)
# a use per day beside a calendar span: "over a year at 8 hours a day", "6h/day for 3 months"
_DAILY_RATE = re.compile(
    rf"(?<![\w.]){_WORD_NUM}\s?(?:hours?|hrs?|h)\s?(?:a|per|each|every|/)\s?day\b"
)
# a use rate per week or month beside a calendar span: "6 hours a week", "40 hours a month"
_WEEKLY_RATE = re.compile(
    rf"(?<![\w.]){_WORD_NUM}\s?(?:hours?|hrs?|h)\s?(?:of [\w-]+ )?(?:[\w-]+ )?"
    r"(?:a|per|each|every|/)\s?(week|wk|month|mo|weekend)\b"  # ("16h per weekend": a week's)
)
# the span a usage rate runs for: "over a three-year depreciation period", "5-year horizon",
# "over 18 months", "the project lasts two years", "the grant runs 3 years"
_HORIZON = re.compile(
    rf"\b(?:over|across|during|runs?|lasts?|spans?|for|in|within) (?:a |the )?(?:next )?"
    rf"(?:at least |about |around |roughly |nearly |some |~ ?)?"
    rf"{_WORD_NUM}[- ](?:(month)s?|years?)\b(?!\s(?:ago|old)\b)"
    rf"|\b{_WORD_NUM}[- ]years? (?:depreciation|horizon|period|lifetime|life)\b"
)
# a price's term, named by its length: "1-yr no-upfront reserved", "3-year commitment"
_TERM_NAME = re.compile(
    r"[\s-]*(?:(?:no|all|partial)[- ]upfront[- ])?(?:reserved|commit\w*|savings plan|contract"
    r"|upfront|term|ri)\b"
)
# how many weeks a weekly rate runs: "a 36-week school year", "over 12 weeks"
_WEEKS = re.compile(
    r"\b(\d+)[- ]weeks?\b(?:[- ]\w+)?[- ](?:year|term|semester|course|period"
    r"|internship|program(?:me)?|bootcamp|class|project)\b"
    r"|\bover (?:a |the )?(\d+) weeks\b|\bfor (\d+) weeks\b|\((\d+) weeks\)"  # "a year (52 weeks)"
)
_EACH = (
    rf"each of (?:my |our |the |these |those )?(\d+) (?:{_PEOPLE}|interns|pupils|kids"
    r"|members|folks)\b"
)
_EACH_BEFORE = re.compile(r"\b" + _EACH + r"[^,;.?!]{0,60}$")  # the person's own clause
_EACH_AFTER = re.compile(r"^[^,;.?!]{0,30}\bby " + _EACH)
# "10 hours a week each ... 30 students, 15 weeks": each person's hours, the people counted apart
_EACH_HOURS = re.compile(r"^\s?(?:(?:a|per|every|/)\s?(?:day|week|month)\s)?(?:each|apiece)\b")
_PEOPLE_COUNTED = re.compile(
    rf"\b(\d+) (?:[\w-]+ )?(?:{_PEOPLE}|interns|pupils|kids|devs|groups|teams|labs|users|members)\b"
)
_WEEKS_AFTER = re.compile(r"\b(\d+)[- ]weeks?\b(?![- ](?:a|per|each)\b)")
# "40 research groups each got a 500 GPU-hour quota": one person's or group's hours, times them
_GROUPS = (
    rf"\b(\d+) (?:[\w-]+ ){{0,2}}(?:{_PEOPLE}|groups|teams|labs|departments|projects|users|members)"
)
_GROUPS_EACH = re.compile(_GROUPS + r"\s(?:each|every one|apiece)\b[^,;.?!]{0,40}$")
# "18 artists, each generating about 1,200 images": one person's things, times the people
_EACH_OF_THEM = re.compile(_GROUPS + r",?\s(?:each|every one)\b[^;.?!]{0,40}$")
# a rate of work said per day, week or month, carried over the span asked ("a year")
_SPAN_OF_RATE = {("day", "month"): 730 / 24, ("day", "year"): 365.0, ("week", "month"): 730 / 168,
                 ("week", "year"): 52.0, ("month", "year"): 12.0}  # fmt: skip


# "a year", "annual", "every day of the year" (not "later in the year"); "per month", "monthly"
_SPAN = re.compile(
    r"(\b(?:a|per|each|every|/|of the)\s?(?:year|yr)\b|\bannual\w*|\byearly\b|\bfiscal year\b)"
    r"|\b(?:a|per|each|every|/)\s?mo(?:nth)?\b|\bmonthly\b"
)


def _span_asked(low: str) -> str | None:
    """The span a bill or a total is asked over: "a year", "annual", "every day of the year",
    "per month", "monthly". The question's own span first; with none there, a year said
    anywhere ("$30 a month extra, but I want the yearly total. How much?"), then a month."""
    asked = [part for part in rx.findall(r"[^.?!]*\?", low) if _SPAN.search(part)]
    if asked:
        m = _SPAN.search(asked[0])
        return "year" if m and m.group(1) else "month"
    spans = list(_SPAN.finditer(low))
    return None if not spans else "year" if any(m.group(1) for m in spans) else "month"


def _over_span(unit: str, low: str) -> float:
    """How many of a rate's `unit` (day, week, month) the span asked holds; 1 with none asked."""
    return _SPAN_OF_RATE.get((unit, _span_asked(low) or unit), 1.0)


_RUNS = re.compile(
    rf"\b{_WORD_NUM}[\s-](?:runs|jobs|experiments|trials|seeds|configs|sweeps|tries|attempts|repeats"
    r"|folds)\b"
)


def _months_of(span: re.Match[str]) -> float:
    """The months a horizon said holds ("over 2 years" 24, "over 18 months" 18)."""
    return _count(span.group(1) or span.group(3)) * (1 if span.group(2) else 12)


def _years_said(low: str) -> float | None:
    """How many years a yearly rate runs: "three-year total", "over 5 years", "2027-2029"."""
    if m := rx.search(rf"\b{_WORD_NUM}[- ]years?\b(?! old)|\bover {_WORD_NUM} years\b", low):
        return _count(m.group(1) or m.group(2))
    if m := rx.search(r"\b(20\d\d)\s?[-\u2013]\s?(20\d\d)\b", low):  # both years counted
        years = int(m.group(2)) - int(m.group(1)) + 1
        return float(years) if 1 < years <= 10 else None
    return None


# bitsandbytes or Transformers said: a 4-bit or 8-bit load in Python, not a GGUF file
_BNB_SAID = re.compile(
    r"\bbnb\b|\bbitsandbytes\b|\bnf4\b|\bq?lora\b|\btransformers\b|\bhf\b"
    r"|\bhugging ?face\b|\bload_in_[48]bit\b|\bpeft\b|\bfine-?tun|\btrain|\bunsloth\b"
    r"|\baccelerate\b|\bpy ?torch\b|\btorch\b|\bmps\b|\bpython\b"
)
# tokens served over time, not a corpus to train on: "10B tokens a month", "1B tokens/day"
_SERVED_TOKENS = re.compile(
    r"\btokens?\b[^.?!]{0,40}\b(?:a|per|/|each|every) ?(?:day|week|month|hour|year|second)\b"
    r"|\btokens?/(?:day|mo|month|s)\b|\b(?:serv|generat|process|output)\w*"
    # "what would 1 billion tokens cost on llama 70b", "run 500M tokens through it": inference
    r"|\btokens?\s(?:would |will |might )?cost\b|\btokens?\s(?:through|into)\b"
)


# "a day", "per day", "/day", "por dia" (Portuguese), "al día", "pro Tag", "par jour"
_A_DAY = (  # "6h/night": a night is a day of use; "on each listing day": a day of its kind
    r"(?:(?:a|per|each|every|/)\s?(?:day|night)|(?:on )?(?:each|every) [a-z]+ day"
    r"|daily|nightly|por dia|al d[ií]a|pro tag|am tag|par jour)\b"
)
# how long a daily use goes on: "8 hours a day for 3 months", "... for the 14-week semester"
_FOR_PERIOD = re.compile(  # "i 30 dagar" (Swedish; "dagar" is read as days)
    rf"\b(?:for|over|during|across|throughout|i)\s(?:the\s|a\s|an\s|next\s|about\s|whole\s)*"
    rf"{_WORD_NUM}[- ](days?|nights?|weeks?|months?|years?)\b(?![- ](?:a|per|each|old|ago)\b)"
    r"|\b(\d+)[- ](weeks?|months?)[- ](?:semester|term|course|project|contract|programm?e?|period"
    r"|pilot|trial|class)\b"
    # one of them: "8 hours a day for a week", "... all week", "all year round"
    r"|\b(?:for|over|during|throughout)\s(?:a|an|one|the)\s(?:whole\s|full\s|entire\s)?"
    r"(day|night|week|month|year)\b(?![- ](?:a|per|each)\b)|\ball\s(week|month|year)\b"
)
# the period a question asks about, at its end: "... monthly cost for 30 days?"
_PERIOD_ASKED = re.compile(
    rf"\b(?:for|over|during|across|throughout)\s(?:the\s|a\s|an\s|next\s|about\s|whole\s)*"
    rf"{_WORD_NUM}[- ](days?|nights?|weeks?|months?)\s?\?"
    # "whats that a month, 30 days?", "per month (30 days)?": the month's days said
    rf"|\bmonth,?\s\(?{_WORD_NUM}[- ](days?)\)?\s?\?"
)
WEEKDAYS = re.compile(
    r"\bweekdays?\b|\bwork ?days\b|\bbusiness days\b|\bmon(?:day)?\s?(?:-|to|thru|through)\s?"
    r"fri(?:day)?\b"
)
_DAYS_IN = {"day": 1.0, "night": 1.0, "week": 7.0, "month": 730 / 24, "year": 365.0}
# "a week", "a month", "a year" as the hours they are read as: a period said, which a cost
# question may mean as the bill's period rather than a span of use
PERIOD_HOURS = frozenset((168.0, float(HOURS_PER_MONTH), float(HOURS_PER_YEAR)))


def _period(m: re.Match[str]) -> tuple[str, str]:
    """_FOR_PERIOD's (count, unit in the singular): ("3", "month")."""
    if not (m.group(1) or m.group(3)):  # "for a week", "all year": one of them
        return "1", m.group(5) or m.group(6)
    count, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return count, unit.rstrip("s")


# a duration of one thing the user does many of: "2.5 hours per project", "40 min each video"
_PER_ITEM = re.compile(
    r"\s?(?:per|each|a|for each|for every|every) (project|job|video|episode|client|render|clip"
    r"|film|batch|deliverable|customer|order|podcast|lecture|meeting)\b"
)
# several runs or people taking turns on fewer machines: "28 students, 4 GPU machines, one run
# per machine at a time": the runs go in rounds
_IN_TURNS = re.compile(
    r"\bone (?:run|job|student|person|user) (?:per|on each|each) (?:machine|gpu|card|node|box|pc"
    r"|computer|workstation)\b|\bat a time\b"
)
_MACHINES = re.compile(
    r"\b(\d+) (?:[\w-]+ )?(?:gpu )?(?:machines|gpus|cards|nodes|boxes|pcs|computers"
    r"|workstations|servers)\b"
)


def _runs_needed(low: str, runs: re.Match[str]) -> bool:
    """ "we need 3 runs", "3 runs (different seeds)": that many of the job just timed, not all
    the runs together ("14 hours for all 5 runs")."""
    before = low[max(0, runs.start() - 16) : runs.start()]
    if _count(runs.group(1)) < 2 or rx.search(r"\b(?:all|total|the|these|those|over)\s$", before):
        return False
    needed = rx.search(r"\b(?:need|want|plan|repeat|x|times)\w*\s(?:to \w+ )?$", before)
    return bool(needed) or low[runs.end() :].lstrip().startswith("(")


def _turns(low: str) -> tuple[int, int] | None:
    """(runs, machines) when more runs take turns on fewer machines: "28 students, 4 GPU
    machines, one run per machine at a time"."""
    if not _IN_TURNS.search(low) or not (machines := _MACHINES.search(low)):
        return None
    runs = _RUNS.search(low) or _PEOPLE_COUNTED.search(low)
    if not runs or runs.start() == machines.start():
        return None
    many, slots = int(_count(runs.group(1))), int(machines.group(1))
    return (many, slots) if 0 < slots < many else None


# hours of each thing counted: "40 shows, about 1.5 hrs of processing each"
_HOURS_EACH = re.compile(
    rf"\b{_WORD_NUM} ([a-z]+s)\b[^.?!$]{{0,40}}?\b(\d+(?:\.\d+)?) ?(?:hours?|hrs?|h)\b"
    r"(?: of [a-z]+)? (?:each|apiece|per (?:one|piece))\b"
    # (not a span of the calendar: "my 3090 trains 8 hours each night")
    r"(?! (?:night|day|evening|morning|afternoon|week|weekday|month|shift|time)s?\b)"
)
# hours a unit of the calendar or of the work: "2 hours every week", "300 hours per field season"
_HOURS_A_UNIT = re.compile(
    r"\b(\d+(?:\.\d+)?) ?(?:gpu[- ]?)?(?:hours?|hrs?|h)\b (?:of [a-z]+ )?(?:a|per|each|every) "
    r"(?:[a-z]+ (?=(?:day|night|evening|shift|week|season|term|semester|quarter|sprint|session"
    r"|month)\b))?"
    r"(day|night|evening|shift|week|season|term|semester|quarter|sprint|session|month"
    # any thing the user counts ("6 hrs a show" beside "40 shows"), not a machine or a person
    r"|(?!(?:gpu|card|node|machine|box|user|person|head|student|hour|year|minute|second|pop|go"
    # (the things _PER_ITEM reads, which may run side by side: "3 hours per job, 2 jobs in
    # parallel on 2 GPUs")
    r"|project|job|video|episode|client|render|clip|film|batch|deliverable|customer|order"
    r"|podcast|lecture|meeting)\b)[a-z]{3,})\b"
)
# each run's hours, then the runs: "each run takes about 6 hours ... do it 3 times"
_EACH_RUN_HOURS = re.compile(
    # "each run takes about 6 hours", "each lora takes about 2.5 hours" (not an epoch's, a step's
    # or a period's hours: those are their own)
    r"\beach (?!(?:epoch|step|iteration|batch|day|week|month|year|night|hour|gpu|card)s?\b)"
    r"(?:[a-z][a-z-]+ )?[a-z][a-z-]+\b (?:takes|will take|would take|lasts"
    r"|is|runs)\s(?:about |around |roughly |~\s?)?(\d+(?:\.\d+)?) ?(?:hours?|hrs?|h)\b"
)
_RUNS_TIMES = re.compile(
    rf"\b(?:do|run|repeat|redo)\w* (?:it|this|that|them) {_WORD_NUM} times\b"
    rf"|\b{_WORD_NUM} (?:runs|attempts|tries|rounds)\b"
    # "i do like 6 brides a month": so many of the job in a month or a week
    rf"|\b(?:do|run|train|make|get|have|book|shoot)\w* (?:like |about |around |~)?{_WORD_NUM} "
    r"(?:[a-z]+ ){0,2}?(?!(?:hours?|hrs?|h|days?|nights?|weeks?|months?|gb|gigs?|tb)\b)[a-z]+"
    r" (?:a|per|each|every) (?:month|week)\b"
)
# "every third day for 30 days", "every other day over a month"
_EVERY_NTH_DAY = re.compile(
    r"\bevery (other|second|third|fourth|fifth|2nd|3rd|4th|5th) day\b[^?!]{0,40}?"
    r"\b(?:for|over|in) (?:the )?(\d+) days\b"
)
_NTH = {"other": 2, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
        "fifth": 5, "5th": 5}  # fmt: skip
_NIGHTLY = {"night": "day", "evening": "day"}  # a night's use is a day's


# a second-hand card ruled out: "not off eBay", "no used cards", "new only, not second-hand"
_NOT_USED = re.compile(
    r"\b(?:not|no|never|nothing)\s(?:off |from |on |via )?(?:ebay|used|second[- ]hand|refurb\w*"
    r"|pre-?owned|ex-?mining|marketplace|facebook marketplace)\b"
    r"(?!\s(?:much|often|for|by|to|in|at|anymore|any ?more|that))"
    r"|\b(?:new only|only new)\b"
    # the word for used, then the no: "second hand nahi" (Hindi), "usada no", "gebraucht nicht"
    r"|\b(?:used|second[- ]hand|de segunda mano|usad[oa]s?|gebraucht|usat[oa])"
    r"\s(?:nahi|nahin|nai|no|nicht|non|n[aã]o|pas)\b(?!\s(?:problem|issue|worries))"
)


def _counted_hours(low: str) -> float | None:
    """Hours said as a count of things or of units, each of so many hours: "40 shows, 1.5 hrs
    each" (60), "2 hours every week ... (52 weeks)" (104), "2 hours per night" in "tech week (6
    days)" (12), "300 hours per field season, two seasons" (600), "24h every third day for 30
    days" (240). None when the message says no such count."""
    if m := _HOURS_EACH.search(low):
        n = _count(m.group(1))
        return n * float(m.group(3)) if 1 < n <= 10_000 else None
    if (m := _EVERY_NTH_DAY.search(low)) and (
        each := rx.search(r"\b(\d+(?:\.\d+)?) ?(?:hours?|hrs?|h)\b", low)
    ):
        times = -(-int(m.group(2)) // _NTH[m.group(1)])  # the days it runs, the first counted
        return float(each.group(1)) * times
    if (run := _EACH_RUN_HOURS.search(low)) and (again := _RUNS_TIMES.search(low)):
        n = _count(next(g for g in again.groups() if g))
        return float(run.group(1)) * n if 1 < n <= 1000 else None
    m = _HOURS_A_UNIT.search(low)
    if m is None or rx.match(r"\s?(?:each|apiece|per (?:person|head|user|intern|student))\b",
                             low[m.end() :]):  # fmt: skip
        return None  # "6 hours a week each ... 12 interns": the people multiply too
    unit = _NIGHTLY.get(m.group(2), m.group(2))
    # the units counted: "for two seasons", "(52 weeks)", "6 nights", "tech week (6 days)"
    counted = rx.search(
        rf"\b{_WORD_NUM} (?:[a-z]+ )?(?:{unit}|{m.group(2)})s\b"
        r"(?!\s?(?:a|per|each|every|/)\s?(?:week|month|year|day)\b)",
        low,
    )
    if (
        counted is None
        and unit == "quarter"
        and rx.search(r"\bannual\w*|\byearly\b|\b(?:a|per|each|every) year\b|\bper annum\b", low)
    ):
        return float(m.group(1)) * 4  # "~350 GPU-h per quarter. Annual cost?": four of them
    if counted is None or counted.start() == m.start():
        return None
    n = _count(counted.group(1))
    return float(m.group(1)) * n if 1 < n <= 1000 else None


def _duration_hours(low: str, epochs: float | None) -> float | None:
    """A duration the user gives, in hours: "12-hour job", "a week", "1,000 gpu hours", "8 hours
    a day for 22 workdays" (176), "6 hours per epoch" x 3 epochs, "2 years at 60% of the time"."""
    low = _SECONDS_PER_EPOCH.sub(
        lambda m: (
            m.group(0)[: m.start(2) - m.start(0)] + f"{float(m.group(2)) / 60:g} minutes"
            if m.group(2)
            else f"{float(m.group(1)) / 60:g} minutes"
        ),
        low,
    )
    # "a 30-day month": how long the month is, as the brackets below say it
    low = rx.sub(r"\b(?:an?|one|the|each|every|per) (\d{2})[- ]day (month)\b", r"a \2 (\1 days)",
                 low)  # fmt: skip
    # "the whole month (30 days)": the count in brackets says how long the month is
    low = rx.sub(
        r"\b(?:the |a |one )?(?:whole |full |entire )?(?:month|year)\s?\((\d+ (?:days?|hours?))\)",
        r"for \1",
        low,
    )
    if (counted := _counted_hours(low)) is not None:
        return counted  # "2 hours per night for the 6 days", "40 shows, 1.5 hrs each"
    nonstop = NONSTOP.search(low)
    # "count the month as 730 hours": a month's length for the arithmetic, not hours of use
    low = rx.sub(r"\b(?:count|take|treat|assume|use)\w* (?:the|a|one) month as \d+ hours?\b", " ",
                 low)  # fmt: skip
    if rx.search(r"\ball month\b", low) and not rx.search(
        r"\b(?:a|per|each|every|/)\s?day\s(?:for\s)?all month\b", low
    ):  # ("10 hours a day all month": the day's hours over the month, below)
        return 730.0
    hours = None
    calendar = False  # the duration read is a period of the calendar ("a 6-month thesis")
    for m in _DURATION.finditer(low):
        before = low[max(0, m.start() - 12) : m.start()]
        if m.group(3) not in (None, "all") and rx.search(
            r"(?:(?<![a-z\d.,])\d[\d.,]*|\$|usd|dollars?|cents?|per|/|\bby)\s?$", before
        ):  # "$3.10 an hour", "rented by the hour" are prices ("a 4090 all year" is no price)
            continue
        if m.group(3) in ("a", "an") and rx.search(
            r"\d[\d,.]*\s?k?\s(?:[a-z-]+\s){1,4}$", low[max(0, m.start() - 40) : m.start()]
        ) and not rx.search(r"\b(?:for|over|during|in|within|per|each|under|below|than|about|around"
                            r"|roughly|nearly|just|only|of|takes?|took|is|was|be|and|or|every)\s$",
                            low[: m.start()]):  # fmt: skip
            continue  # "400 hours of support calls a month": the period of a rate
        if rx.match(r"\s+ago\b", low[m.end() :]):
            continue  # "I bought a 3090 two years ago": when, not for how long
        if m.group(3) in ("a", "an") and rx.search(r"\b(?:once|twice|thrice|times)\s$",
                                                   low[: m.start()]):  # fmt: skip
            continue  # "twice a week I run a 6 hour job": how often, not for how long
        if rx.search(r"\b(?:rtx|gtx|rx|quadro|tesla|titan)\s?(?:pro\s)?$", before):
            continue  # "min RTX 4090 min" (Norwegian "my"): a card's number, not 4,090 minutes
        unit_said = (m.group(2) or m.group(4) or "").lower()
        if unit_said.startswith(("y", "month")) and _TERM_NAME.match(low[m.end() : m.end() + 30]):
            continue  # "1-yr no-upfront reserved": the name of a price, not a duration
        amount, unit = _pair(m)
        if amount == "all" and any(d.group(1) for d in _DURATION.finditer(low)):
            continue  # "up all weekend. 62h @ $5.67/h": the hours said, not a weekend's 48
        one = amount in ("a", "an", "one", "the", "this", "next", "all")
        value = 1.0 if one else _count(amount.replace(",", ""))
        key = {"hrs": "hr", "mins": "min", "horas": "hora", "heures": "heure"}.get(unit, unit)
        per = _UNIT_HOURS.get(key.rstrip("s") if key != "hours" else "hour", 1)
        hours, calendar = value * per, per >= 24
        if more := _MORE_TIME.match(low[m.end() :]):  # "a year plus 3 months", "2 days and 6 hours"
            hours += _count(more.group(1)) * _UNIT_HOURS[more.group(2).rstrip("s")]
        elif (small := _SMALLER_UNIT.match(low[m.end() :])) and (small.group(2) or per == 1):
            seconds = small.group(2).startswith("s")  # "2 min 40 sec", "1 h 10 min", "2 h 40"
            hours += float(small.group(1)) / (3600 if seconds else 60)
        after = low[m.end() : m.end() + 60]
        days = rx.search(  # "8 hours a day ... 22 workdays", "(9.5 h/day), 252 trading days"
            rf"^\s?{_A_DAY}.{{0,40}}?\b(\d+)\s?"
            # ("12 listing days a month": a day of the use's own kind)
            r"(?:work(?:ing)?\s?|business\s|trading\s|school\s|week\s?|[a-z]{3,12}\s)?"
            r"(?:days|nights|evenings|dias|d[ií]as|tage|jours)\b",  # ("3 hours a night, 6 nights")
            after,
        )
        a_year = rx.search(
            rf"^\s?{_A_DAY}.{{0,12}}?\b(?:for (?:a|one|the) (?:whole |full )?year"
            r"|(?:every|each) day of (?:the|a) year|all year(?: round| long)?)\b",
            after,
        )
        daily = rx.search(rf"^\s?{_A_DAY}", after)
        monthly = rx.search(r"^\s?(?:a|per|each|every|/)\s?mo(?:nth)?\b", after)
        weekly = rx.search(r"^\s?(?:a|per|each|every|/)\s?(?:week|wk|weekend)\b", after)
        if (
            not (days or daily or weekly)
            and per == 1
            and value <= 24
            and (
                week_days := rx.match(
                    r"^\s?[,;-]?\s?(?:on |for )?(\d) (?:days|nights|evenings) "
                    r"(?:a|per|each|/) ?week\b",
                    after,
                )
            )
        ):  # "9 hours, 6 days a week": the week's hours
            hours *= float(week_days.group(1))
            after = after[week_days.end() :]
            weekly = week_days
        yearly = rx.search(r"^\s?(?:(?:a|per|each|every|/)\s?(?:year|yr)|annually)\b", after)
        span = _HORIZON.search(low)
        runs = _RUNS.search(low)  # "48 runs, each ~3.5 h", "one run = 14 h ... 5 runs"
        weeks = _WEEKS.search(low)
        clause = rx.split(r"[.?!;]\s", low[m.end() : m.end() + 80], maxsplit=1)[0]
        period = _FOR_PERIOD.search(clause)  # "6 hours a day ... stuck for 3 days": not its days
        weekdays = WEEKDAYS.search(low[max(0, m.start() - 30) : m.end() + 40])
        count, unit = _period(period) if period else ("0", "")
        if days:  # "8 hours a day on weekdays, 22 workdays"
            hours *= float(days.group(1))
            a_week = rx.match(r"\s?(?:work(?:ing)?\s?)?(?:days?|nights?|evenings?) "
                              r"(?:a|per|each|/) ?"
                              r"week\b", after[days.end(1) :])  # fmt: skip
            a_month = rx.match(r"\s?(?:work(?:ing)?\s?|business\s|trading\s|[a-z]{3,12}\s)?days? "
                               r"(?:a|per|each|/) ?month\b", after[days.end(1) :])  # fmt: skip
            if (a_week and unit == "week") or (a_month and unit == "month"):
                hours *= _count(count)  # "5 days a week, for 14 weeks", "22 a month for 6 months"
            elif a_week and unit in ("year", "month"):
                # "2 hrs a day, 5 days a week: what's that add up to over a year?"
                hours *= _count(count) * (52 if unit == "year" else 52 / 12)
            elif (
                a_week
                and not period
                and (
                    bare := rx.match(
                        r"^[^.?!]{0,12}?\b(\d+) weeks\b(?![- ](?:a|per|each)\b)",
                        after[a_week.end() + days.end(1) :],
                    )
                )
            ):  # "6 hrs a day, 5 days a week, 4 weeks"
                hours *= float(bare.group(1))
            elif (
                a_week
                and not period
                and rx.search(
                    r"\b(?:a|per|each|every|/)\s?mo(?:nth)?\b|\bmonthly\b", low[m.end() :]
                )
            ):  # "8 hours a day, tuesday to saturday: the monthly bill?"
                hours *= 52 / 12
            elif (
                a_week
                and not period
                and rx.search(
                    r"\b(?:a|per|each|every|/)\s?(?:year|yr)\b|\byearly\b|\bannual", low[m.end() :]
                )
            ):  # "... 5 days a week: what's that a year?"
                hours *= 52
            elif a_month and not period and span:  # "3 hours a day on 12 days a month ... over 2
                hours *= _months_of(span)  # years": the month's hours over the horizon's months
        elif a_year:  # "three hours every day for a year"
            hours *= 365
        elif (daily or (weekdays and per == 1 and value <= 24)) and period:
            # "8 hours a day for 3 months", "9 to 5 (8 h), weekdays only, for the 14-week term"
            every = 5 / 7 if weekdays and unit not in ("day", "night") else 1.0
            hours *= _count(count) * _DAYS_IN[unit] * every
        elif weekly and not weeks and unit in ("year", "month"):
            # "5 hours a week, all year round", "10 hours a week for 3 months"
            hours *= _count(count) * (52 if unit == "year" else 52 / 12)
        elif weekly and weeks:  # "2 hours a week over a 36-week school year"
            hours *= float(next(w for w in weeks.groups() if w))
        elif (daily or weekdays) and weeks and per == 1 and value <= 24:
            # "3 hours every weekday through a 36-week school year": 5 days of each week
            hours *= float(next(w for w in weeks.groups() if w)) * (5 if weekdays else 7)
        elif weekly and (span_weeks := _WEEKS_AFTER.search(low[m.end() :])):
            hours *= float(span_weeks.group(1))  # "10 hours a week each ..., 15 weeks"
        elif weekly and rx.search(r"\b(?:a|per|each|every|/)\s?(?:year|yr)\b|\bannual|\byearly",
                                  low):  # fmt: skip
            hours *= 52  # "3 hours a week: what's that a year"
        elif weekly and rx.search(r"\b(?:a|per|each|every|/)\s?mo(?:nth)?\b|\bmonthly\b", low):
            hours *= 52 / 12  # "3 sessions a week, 2.5 h each: per month?"
        elif yearly and (years := _years_said(low)):  # "2,500 GPU-hours per year ... 3-year total"
            hours *= years
        elif monthly and span and _months_of(span) > 1:
            hours *= _months_of(span)  # "40 hours per month ... over the four-year cycle"
        elif (daily or weekly) and span:  # "30 hours per week over a three-year period"
            hours *= _months_of(span) / 12 * (365 if daily else 52)
        elif daily and (asked := _PERIOD_ASKED.search(low[m.end() :])):
            count, unit = _period(asked)  # "8h a day ... monthly cost for 30 days?"
            every = 5 / 7 if weekdays and unit not in ("day", "night") else 1.0
            hours *= _count(count) * _DAYS_IN[unit] * every
        elif (daily or (weekdays and per == 1 and value <= 24)) and rx.search(
            r"\b(?:a|per|each|/)\s?mo(?:nth)?\b|\bmonthly\b", low
        ):  # ("10h on weekdays only: monthly cost?": the weekdays of a month)
            # "8h a day ... what does that cost me a month" ("on weekdays": 5 days in 7)
            hours *= 730 / 24 * (5 / 7 if weekdays else 1.0)
        elif epochs and rx.search(
            r"(?:per|each|an|every|one|a single) epoch", low[max(0, m.start() - 30) : m.end() + 25]
        ):
            if extra := _EXTRA_PER_EPOCH.search(low):  # "plus 10 minutes of eval after each"
                hours += float(extra.group(1)) / (1 if extra.group(2).startswith("h") else 60)
            hours *= epochs  # "each epoch takes ~6 hours", 3 epochs
        elif runs and (
            rx.search(r"\b(?:each|apiece|per run)\b", low[max(0, m.start() - 20) : m.end() + 12])
            or rx.search(r"\b(?:one|a|each|per) (?:[\w-]+ )?(?:run|job|experiment|trial|try|attempt"
                         r"|fine-?tun\w*|training)\s?(?:=|is|takes|costs|of)\s?~?$",
                         low[max(0, m.start() - 30) : m.start()])
        ):  # fmt: skip
            hours *= _count(runs.group(1))  # "48 runs, each ~3.5 h", "one run = 14 h ... 5 runs"
            rate = rx.match(r"\s(?:a|per|each|every|/) ?(day|week|month)\b", low[runs.end() :])
            if rate:
                # "4 runs a day ... the annual bill": the day's runs over the span asked
                hours *= _over_span(rate.group(1), low)
        elif runs and runs.start() > m.end() and _runs_needed(low, runs):
            hours *= _count(runs.group(1))  # "14h wall clock on 8x a100, need 3 runs": each run's
        elif (item := _PER_ITEM.match(after)) and (
            many := rx.search(
                rf"\b{_WORD_NUM} (?:[\w-]+ )?{item.group(1)}s\b (?:a|per|each|every|/) ?"
                r"(day|week|month|year)\b",
                low,
            )
        ):
            hours *= _count(many.group(1))  # "2.5 hours per project, around 10 projects a month"
            # "4 runs a day ... GPU-hours a year, the annual bill": the day's runs over the span
            hours *= _over_span(many.group(2), low)
        people = (
            _EACH_BEFORE.search(low[: m.start()]) if "each of" in low[: m.start()] else None
        ) or (_EACH_AFTER.match(low[m.end() :]) if "each of" in low[m.end() :] else None)
        people = people or _GROUPS_EACH.search(low[: m.start()])
        if not people and _EACH_HOURS.match(low[m.end() :]):  # "10 hours a week each ... 30
            people = _PEOPLE_COUNTED.search(low)  # students": each person's hours, times them
        if people:  # "each of my 28 students uses it 2 hours a week", "... by each of my 28"
            hours *= float(people.group(1))
        break
    rate = _DAILY_RATE.search(low)
    weekly_rate = _WEEKLY_RATE.search(low)
    if calendar and hours and hours >= 48 and rate and not nonstop:
        # "over a year at 8 hours a day": 2,920 hours; "three days, 10 hours a day": 30
        hours = hours / 24 * _count(rate.group(1))
    elif calendar and hours and hours >= 24 * 28 and weekly_rate and not nonstop:
        # "the grant runs three years ... 6 hours a week": 936 hours; "over our 3-year grant
        # ... 40 hours a month": 1,440
        per = 168.0 if weekly_rate.group(2).startswith("w") else 730.0
        hours = hours / per * _count(weekly_rate.group(1))
    if nonstop and (hours is None or hours < 24):  # "24/7" alone: a month of it, or a year
        yearly = rx.search(r"\bannual\w*|\byearly\b|\b(?:a|per|each|for a) (?:year|yr)\b", low)
        weekly = rx.search(r"\b(?:a|one|the|whole|full|entire|per|each) (?:whole |full |entire )?"
                           r"week\b", low)  # fmt: skip
        hours = 8760.0 if yearly else 168.0 if weekly else 730.0  # "whole week 24/7": 168
    gpu_hours = rx.search(  # "300 GPU-hours on a 24GB card" within "a 6-month thesis"
        r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|million|m)?\s?(?:gpu|[a-z]{1,3}\d{2,4}[a-z]?)"
        r"(?:[- ]gpu)?[- ]?(?:hours?|hrs?|h)\b",  # "10,000 H100 GPU-hours"
        low,
    )
    if gpu_hours and (hours is None or calendar):
        hours = _scaled(gpu_hours.group(1), gpu_hours.group(2))  # "2.788 million H800 GPU-hours"
    share = rx.search(
        r"(\d{1,3})\s?%\s?(?:of the (?:time|year|month|day)|utili[sz]ation|utilized|busy)"
        r"|utili[sz]ation (?:is |of |at |around |about |~)*(\d{1,3})\s?%",  # "utilisation is 50%"
        low,
    )
    if hours and share and not gpu_hours:
        hours *= float(share.group(1) or share.group(2)) / 100
    return hours


# memory of the card kept for other work: "reserving 4 GB for the OS + ROS 2", "leave 2 GB free
# for the desktop", "the camera pipeline taking maybe 3 GB", "6 GB already used by the game"
_RESERVED = re.compile(
    r"\b(?:reserv\w*|keep\w*|kept|set\w* aside|leav\w*|sav\w*)\s(?:about |roughly |around |~)?"
    r"(\d+(?:\.\d+)?)\s?(?:gb|gib|gigs?)\b(?:(?:\s(?:free|spare|back|aside))?\s(?:for|to)\s"
    r"(?!(?:the |a )?(?:model|weights|kv|context|training|batch)\b)|\s(?:free|spare)\b"
    r"(?!\s(?:for|to)\s(?:the |a )?(?:model|weights|kv|context|training|batch)\b))"
    r"|\b(?:os|operating system|windows|linux|ubuntu|desktop|display|xorg|driver|camera|perception"
    r"|ros|browser|chrome|game|pipeline|system|other (?:apps|processes"
    r"|stuff|services))\b[^.?!]{0,30}?\b(?:tak(?:es|ing)|us(?:es|ing)|eat(?:s|ing)|occup(?:ies|ying)"
    r"|need(?:s|ing)|hold(?:s|ing))\s(?:up\s)?(?:about |maybe |roughly |around |~|another )?"
    r"(\d+(?:\.\d+)?)\s?(?:gb|gib|gigs?)\b"
    r"|\b(\d+(?:\.\d+)?)\s?(?:gb|gib|gigs?)\s(?:is |are )?(?:already )?(?:taken|used|reserved"
    r"|occupied|eaten) (?:up )?by\b"
)


# a card the user could sell, and the choice asked: "sell a 3090 for $1,150 ... sell or keep?"
_SOLD_FOR = re.compile(
    r"\bsell(?:ing)?\b[^.?!$]{0,40}?\b(?:for|at|and get)\s(?:about |around |roughly |~)?\$?\s?"
    r"(\d[\d,]*(?:\.\d+)?)\s?(k)?\b(?!\s?(?:/|an? |per )\s?h)"
    # "could get $700 selling my 3080"
    r"|\b(?:get|fetch)\w*\s(?:about |around |roughly |~)?\$\s?(\d[\d,]*(?:\.\d+)?)\s?(k)?\s"
    r"(?:for it |by )?selling\b"
)
_SELL_ASKED = re.compile(
    r"\bsell (?:it |them )?or keep\b|\bkeep (?:it |them |the \w+ |my \w+ )?or sell\b"
    r"|\bshould (?:i|we) (?:just )?sell\b|\bworth selling\b|\bsell (?:it|them) and rent\b"
)


def _reserved_gb(low: str) -> float | None:
    """Memory of each card the user keeps for other work (out of what the job may use)."""
    if not ("gb" in low or "gig" in low or "gib" in low):
        return None
    # "the OS uses about 2.5 GB ... and keep 1 GB spare": each said, added up (once each: "uses
    # 1.5 GB, so keep 1.5 GB free for it" is one amount); the PC's RAM is not the card's
    ram = [m.span() for m in _RAM_SIZE.finditer(low)]
    said: list[tuple[float, int]] = []
    for m in _RESERVED.finditer(low):
        group = next(i for i, g in enumerate(m.groups(), 1) if g)
        # (what a model leaves free is said, not kept: "Q4 leaves about 18 GB free")
        left = rx.match(r"leaves\b", m.group(0)) and not rx.search(r"\b(?:for|to)\s", m.group(0))
        if left or any(a <= m.start(group) < b for a, b in ram):
            continue
        amount = float(m.group(group))
        # the same amount said again of the same thing: "uses 1.5 GB, so keep 1.5 GB free for it"
        again = any(v == amount and rx.search(r"\b(?:so|i\.e\.|that is|which means)\b|\bfor it\b",
                                                low[p : m.end()]) for v, p in said)  # fmt: skip
        if not again:
            said.append((amount, m.end()))
    value = sum(v for v, _ in said)
    return value if 0 < value < 512 else None


def _busy_share(low: str) -> float | None:
    """ "utilisation around 25%", "busy 60% of the time" with no period said: hours a day."""
    m = rx.search(
        r"(\d{1,3})\s?%\s?(?:of the (?:time|year|month|day)|utili[sz]ation|utilized|busy)"
        r"|(?:utili[sz]ation|utili[sz]ed|busy)\s(?:(?:on|of|for) (?:our |the |my )?"
        r"(?:[\w-]+ ){0,3})?(?:is |of |at |around |about |~)*(\d{1,3})\s?%",
        low,
    )
    share = float(m.group(1) or m.group(2)) if m else 0.0
    return 24 * share / 100 if 0 < share <= 100 else None


_USE_RATE = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?|{_WORD_NUM[1:-1]})\s?-?\s?(?:gpu[- ]?)?"
    r"(hours?|hrs?|h|days?|weeks?)\s?(?:of (?:use|usage|gpu time|training|compute|processing"
    r"|inference|fine-?tuning|work|rendering|generation|jobs?)\s)?"
    r"(?:(?:a|per|each|every|/)\s?(day|night|week|wk|month|mo|mth|weekend|year|yr)\b|(daily"
    # ("25 hr/wk", "80 h/mo", "600 gpu-hours a year")
    r"|nightly|weekly|monthly|yearly|annually)\b)"
)
_PER_SHORT = {"wk": "week", "mo": "month", "mth": "month", "weekend": "week", "yr": "year"}


# "24/7", "around the clock", "nonstop": a rate of use that is every hour (handlers read it too)
NONSTOP = re.compile(r"\b24/7\b|\baround the clock\b|\bnon-?stop\b")
_AROUND_THE_CLOCK = re.compile(
    r"(?<![\d/])24\s?(?:/|x)\s?7\b|\b(?:a)?round the clock\b|\bnon-?stop\b|\ball day every day\b"
)


# several models kept loaded on one card at once: "will all three sit in vram at the same time",
# "whisper plus an 8B on the one card", "both loaded simultaneously" (read when two or more are
# named)
TOGETHER = re.compile(
    r"\b(?:at the same time|simultaneous(?:ly)?|concurrently|(?<!put )(?<!putting )together"
    r"|co-?resident"
    r"|alongside|(?:loaded|resident|in (?:v?ram|memory)) at once"
    r"|side by side in (?:vram|memory)"
    r"|(?:both|all(?: \w+)?) (?:(?:stay|be|sit|remain|kept) )?(?:at once|loaded|resident"
    r"|in (?:v?ram|memory))"
    r"|all (?:two|three|four|of them)|both of them|the same (?:card|gpu)"
    r"|one card for (?:both|all)|(?:stay|kept|keep|sit|live|be) (?:loaded|resident) (?:at once"
    r"|together))\b"
    # "faster-whisper plus a 3B LLM", "sdxl overlays + a local chatbot": one box runs both
    r"|\bplus\b|(?<=\w) ?\+ (?=\w)"
    # "run whisper large and also sdxl", "as well as": both on the one card (each alone said too)
    r"|\band also\b|\bas well as\b"
    # "can it run whisper while sdxl is still loaded, or must i close one?"
    r"|\bwhile\b(?:[^.?!]|\.\d){0,40}?\b(?:is|are|'s|stays?) (?:still )?(?:loaded|running|open|up"
    r"|in (?:v?ram|memory))\b"
)
# models weighed against each other, not loaded together: "which is faster", "X vs Y", "faster
# than" ("both loaded so responses are faster" and "compare the memory of the two together" weigh
# nothing)
_WEIGHED = re.compile(
    r"\b(?:vs\.?|versus|which (?:is|one|model|of|would|will|runs?)"
    r"|(?:faster|quicker|slower|better) than)\b"
)


def _kept_together(low: str, models: tuple[ModelRef, ...]) -> bool:
    """Several models named to stay loaded on one card at once, not weighed against each other:
    no comparison word, and no two of them joined by "or"."""
    if len(models) < 2 or not TOGETHER.search(low) or _WEIGHED.search(low):
        return False
    spans = sorted((i, i + len(m.text)) for m in models if (i := low.find(m.text.lower())) >= 0)
    return not any(
        re.search(r"\bor\b", low[a_end:b]) for (_, a_end), (b, _) in itertools.pairwise(spans)
    )


NO_POWER = re.compile(
    r"\b(?:ignor\w*|exclud\w*|skip\w*|leave out|leaving out|without|not counting|don'?t count"
    r"|forget|no)\s(?:the\s)?(?:electricity|power (?:cost|bill)s?|energy)\b"
    # "ignore power and admin", not "no power constraints"
    r"|\b(?:electricity|power costs?|energy)\b(?: \w+){0,3}\s(?:ignor\w*|exclud\w*|leave out)\b"
    r"|\b(?:ignor\w*|exclud\w*|leave out|leaving out|not counting)\s(?:the\s)?power\b"
    r"(?!\s(?:limit|constraint|cap|supply|draw|budget)\w*)"
    # "forget light bill for now" (Nigerian English: the electricity bill)
    r"|\b(?:forget|ignor\w*|exclud\w*|leave out|no|without)\s(?:the\s|my\s)?(?:light|electric\w*|"
    r"power|energy) bills?\b"
)


# what a pace gets through, asked: "how many tokens is that?", "how many images can it make?"
MADE_ASKED = re.compile(
    r"\bhow many (?:total |more |output |generated )?(?:[\w.-]+ )?(tokens?|images?|pictures?"
    r"|samples?|frames?)\b"
    # (not a rate or a length: "how many tokens per second", "how many tokens of context")
    r"(?!\s?(?:per|a|an|each|every|/)\s?(?:s|sec\w*|min\w*|hour|hr|h)\b"
    r"|\s(?:of|in) (?:the )?context)"
    # "11 s per image: how many can it make in 8 hours?": the things of the pace said
    r"|\bhow many (?:can|could|will|would|do|does) (?:it|we|i|they|you|that|this|the [\w-]+"
    r"|my [\w-]+) (?:make|generate|render|produce|do|get through|crank out|churn out"
    r"|pump out|spit out)\b"
)

# a monthly spend that is a service's fee, not rented GPUs: "a transcription SaaS at $79 a month"
SUBSCRIPTION = re.compile(r"\bsubscri\w*|\bcolab\b|\bpaperspace\b|\bapi\b|\bsaas\b")

# a bill shared by people: "splitting it 4 ways", "split between 3 of us", "shared by five people"
_SPLIT_WAYS = re.compile(
    rf"\bsplit(?:ting)?(?: it| the (?:bill|cost))? {_WORD_NUM} ways\b"
    rf"|\b(?:split|shared?|divided)(?: it)? (?:between|among|by) {_WORD_NUM} "
    r"(?:of us|people|persons|teammates|friends|students|users|labs|teams|groups)\b"
)


def _split_ways(low: str) -> int | None:
    """How many people share a bill, when said (two or more)."""
    m = _SPLIT_WAYS.search(low) if "split" in low or "share" in low or "divid" in low else None
    ways = int(_count(m.group(1) or m.group(2))) if m else 0
    return ways if ways > 1 else None


def _use_rate(low: str) -> float | None:
    """How many hours a day the GPUs are used: "8 hours a day", "2 weeks a month", "3 days a
    week"; None when the message says no rate."""
    m = _USE_RATE.search(low)
    if not m:
        return _office_hours(low)
    amount = 1.0 if m.group(1) in ("a", "an", "one") else _count(m.group(1))
    unit = {"h": "hour", "hrs": "hour", "hr": "hour"}.get(m.group(2), m.group(2).rstrip("s"))
    hours = amount * {"hour": 1, "day": 24, "week": 168}[unit]
    per = _PER_SHORT.get(m.group(3), m.group(3)) or {
        "daily": "day", "nightly": "night", "weekly": "week", "yearly": "year",
        "annually": "year"}.get(m.group(4), "month")  # fmt: skip
    per_days = _DAYS_IN[per]
    rate = hours / per_days
    days = rx.search(rf"\b{_WORD_NUM}\s?(?:work(?:ing)?\s?|business\s)?(?:days?|nights?"
                     r"|evenings?)\s(?:per|a|each|every|/|in a)\s?(month|week)\b", low)  # fmt: skip
    if per in ("day", "night") and days:  # "8 hours per day, 22 days per month"
        rate *= _count(days.group(1)) / (730 / 24 if days.group(2) == "month" else 7)
    elif per == "day" and WEEKDAYS.search(low[max(0, m.start() - 30) : m.end() + 40]):
        rate *= 5 / 7  # "8 hours a day on weekdays": five days in seven
    return rate if 0 < rate <= 24 else None


# the hours of a working day written as a clock span: "9-5", "9am to 6pm", "8:00-18:00"
_CLOCK_SPAN = re.compile(
    r"(?<![\d.,$])(\d{1,2})(?::([0-5]\d))?\s?(am|a\.m\.)?\s?(?:-|\u2013|to|till|until)\s?"
    r"(\d{1,2})(?::([0-5]\d))?\s?(pm|p\.m\.)?"
    # a clock span ends the phrase or goes on with when: not "3-5 devs", "2-4 a100s"
    r"(?=\s?(?:$|[).,;:!?(]|weekdays?|workdays?|daily|every|each|on\b|mon|m-f|and\b|shifts?\b"
    r"|(?:business|office|working|work) hours|local|est|pst|cet|utc))"
)
_WORKDAY_WORDS = re.compile(
    r"\b(?:business|office|working|work) hours\b|\bweekdays?\b|\bworkdays?\b|\bmon(?:day)?\s?"
    r"(?:-|to|through|thru)\s?fri(?:day)?\b|\bbusiness days?\b"
)
_EVERY_DAY = re.compile(r"\bevery day\b|\bdaily\b|\b(?:a|per) day\b|\b7 days\b|\bweekends? too\b")


def _office_hours(low: str) -> float | None:
    """Hours a day from a clock span or business hours ("9-5 weekdays", "9am to 6pm", "during
    business hours"): the span's hours, on weekdays only (5 of 7 days) unless every day is said."""
    span = _CLOCK_SPAN.search(low)
    workday = _WORKDAY_WORDS.search(low)
    said = span and (span.group(3) or span.group(6) or workday or _EVERY_DAY.search(low)
                     or low[: span.start()].endswith("from "))  # fmt: skip
    if span and said:
        start = int(span.group(1)) + int(span.group(2) or 0) / 60
        end = int(span.group(4)) + int(span.group(5) or 0) / 60
        if span.group(6) or (end <= 12 and end < start):
            end += 12  # "9-5", "9am-5pm": the afternoon's hour
        hours = end - start
        if not 0 < hours <= 16:
            return None
    elif workday and rx.search(r"\b(?:business|office|working|work) hours\b", low):
        hours = 8  # "during business hours": a working day
    else:
        return None
    days = 1.0 if _EVERY_DAY.search(low) and not workday else 5 / 7
    return hours * days


_MONEY = re.compile(
    rf"(?:\$|usd\s?|eur\s?|gbp\s?|us\$)\s?~?{_NUM}\s?(k|m|mil|million|thousand)?\b"
    rf"|(?<![\w.]){_NUM}\s?(k)?\s?\$(?!\s?\d)"  # "1$/hr", "500$" (not "3090 $600")
    rf"|{_NUM}\s?(k|m|mil|million|thousand)?\s?(?:usd|(?:us |u\.s\. )?dollars?|bucks|eur|euros?"
    rf"|gbp|quid|pounds?(?! (?:heavy|of weight|in weight))|d[oó]lares|kr|sek|nok|dkk"
    rf"|{_FX_RE[2:-2]})\b"
    rf"|(?:\bfor|\bcosts?|\bbudget(?: is| of)?|\bspend(?:s|ing)?|\bspent|\bpay(?:s|ing)?|~|\babout"
    rf"|\baround|\blike|\bunder"
    rf"|<|\bup to|\bhave|\bat most)\s?~?\s?(\d+(?:\.\d+)?)\s?(k|m)\b"
    r"(?!\s?(?:[a-z-]+\s)?(?:tokens|images|context|examples|samples|instructions|rows|sentences"
    r"|conversations|steps|params?|parameters?|words|documents|requests|users|pairs|prompts"
    r"|passages|chunks|queries|embeddings|vectors|records|pages|files|texts|articles|clips"
    r"|videos|photos|pictures|frames|items)\b)"
    r"|(?:\bcosts?|\bpriced at|\bgoes for|\bsells for)\s?~?\s?(\d{3,6})\b"
    r"|(\d+(?:\.\d+)?)\s?(k)\s?(?=to spend\b|budget\b|to burn\b|to blow\b)"  # "2k to spend"
    r"|(?<![\d.])(\d{1,3})\s?(cents?)\b"  # "69 cents an hour"
    r"|~\s?(\d{3,6})\s(?=budget\b)"  # "~800 budget": no currency, an amount all the same
    r"|(?<![\d.])(\d+(?:\.\d+)?)\s?(grand)\b"  # "like 2 grand", "4 grand"
    # "5k of credits"
    r"|(?<![\d.$])(\d+(?:\.\d+)?)\s?(k)?\s(?:of\s|in\s)?(?:[a-z]+\s){0,2}credits\b"
    r"|\bbudget(?: is| of)?\s(?:~\s?|about\s|around\s|like\s|roughly\s)?(\d{3,6})\b"
    # "student budget ~700", not "budget 3060 ti or 4060"
    r"(?!\s?(?:w\b|watts?|gb|tokens|hours|hrs|images|samples|ti\b|super\b|xtx?\b|s\b|or\b|vs\b))",
    re.IGNORECASE,
)
_PER_HOUR = re.compile(
    # "$0.90 per A100 GPU-hour": the card's name may stand before the hour
    r"^\s?(?:/|per|an|a|each|por|pro)?\s?(?:[a-z]{1,4}\d{2,4}[a-z]{0,4}\s)?(?:gpu[- ]?)?(?:/\s?)?"
    r"(?:hour|hr|h|hora)\b"
    r"|^\s?(?:per|/|pro|por)\s?gpu\s?(?:per|/|an|a|and(?: per| an?)?)\s?(?:hour|hr|h)\b"
)
_PER_MONTH = re.compile(r"^\s?(?:/|per|a|each)\s?(?:mo|month)\b")
_CAP = re.compile(
    r"(?:under|below|less than|max(?:imum)?|at most|up to|budget(?: is| of)?(?: around| about"
    r"| roughly| of about)?|<=?|=<|\u2264|within|no more than|more than|cheaper than|spend"
    # "the sponsor caps us at ~$1/hr", "capped at $2 an hour"
    r"|caps? (?:us |it |them )?at|capped at|limit(?:ed)? (?:us )?(?:to|at)|cap of)\s*"
    r"(?:of\s)?~?\s*$"
)
_CAP_AFTER = re.compile(r"^\s?(?:max(?:imum)?|tops|at most|or less|or under)\b")


# a pay-per-use service's price: "$0.006 per audio minute", "$0.02/image", "$0.60 per 1M tokens"
_PER_SERVICE_UNIT = (
    r"\s?(?:usd\s|dollars?\s)?(?:per|/|a|an|each)\s?(?:"
    r"(audio\s?min(?:ute)?|min(?:ute)? of (?:audio|speech|recording))"
    r"|(audio\s?hour|hour of (?:audio|speech|recording))"
    r"|(image|img|picture|render|generated image)"
    r"|(?:(1\s?m|one million|million|1,000,000|m)|(1\s?k|one thousand|thousand|1,000|k))\s?"
    # ("$0.60/M output": the output tokens' price)
    r"(?:(?:input|output|generated)(?:\s(?:tokens?|toks?))?|tokens?|toks?)"
    r")\b"
)
_SERVICE_PRICE = re.compile(r"(?:\$|us\$|usd\s?)\s?(\d*\.?\d+)" + _PER_SERVICE_UNIT)
_BARE_SERVICE_PRICE = re.compile(r"(?<![\d.])(0\.\d+)" + _PER_SERVICE_UNIT)  # "0.02 per image"
_SHORT_SERVICE_PRICE = re.compile(r"(?:\$|usd\s?)\s?(\d*\.\d+)\s?/\s?(m|min(?:ute)?)\b")


def _service_price(low: str) -> tuple[float, str] | None:
    """The price of a service the user could pay per use instead of a GPU, per unit of
    calculator.cost.SERVICE_UNITS: "$0.006 per audio minute", "$0.60 per 1M tokens"."""
    m = _SERVICE_PRICE.search(low) or _BARE_SERVICE_PRICE.search(low)
    if m is None and (short := _SHORT_SERVICE_PRICE.search(low)):
        # "together at $0.88/M", "openai api at $0.006/min": the unit's short form, read as
        # tokens or as audio only where the message speaks of them
        value, unit = float(short.group(1)), short.group(2)
        if unit == "m" and rx.search(r"\btok(?:en)?s?\b", low) and 0 < value < 100:
            return value, "million tokens"
        if unit.startswith("min") and _SPEECH_WORDS.search(low) and 0 < value < 1:
            return value, "audio minute"
        return None
    if m is None or not float(m.group(1)) > 0:
        return None
    value = float(m.group(1))
    if m.group(2):
        return value, "audio minute"
    if m.group(3):
        return value, "audio hour"
    if m.group(4):
        return value, "image"
    return (value, "million tokens") if m.group(5) else (value * 1000, "million tokens")


# a monthly amount named before its figure: "our monthly GPU bill is $48k", "monthly spend ~$9k"
# a month's spend said by the month it was spent in: "spent $18k last month"
_LAST_MONTH = re.compile(r"^\s?(?:last|this|every|each) month\b")
_SPENT = re.compile(r"\b(?:spent|spend|spending|burn\w*|billed|bill was|bill is)\b[^.?!]*$")
# one card bought with the money, not a month's rentals: "spent $1,600 last month on a 4090"
_ON_A_CARD = re.compile(
    r"^\s?(?:last|this) month on (?:a|an|one|my|the|our) (?!\w+ (?:instances?|rentals?|bills?))"
)
_MONTHLY_BEFORE = re.compile(
    r"\bmonthly (?:[a-z0-9]+ ){0,2}(?:bill|spend|spending|cost|costs|invoice|budget)\b"
    r"(?: (?:is|of|was|comes to|runs|runs at|sits at|around|about))*\s*(?:about |around |~)?\W*$"
)


# an amount written with its currency: "$", "usd", "eur", "rub" ...
_WITH_CURRENCY = r"\$|usd|eur|gbp|dollar|buck|\bkr\b|" + _FX_RE


def _money(low: str) -> list[tuple[float, str, int]]:
    """Every amount of money: (usd, per: hour | month | total, position)."""
    out = []
    for m in _MONEY.finditer(low):
        groups = m.groups()
        pairs = [(groups[i], groups[i + 1]) for i in (0, 2, 4, 6, 9, 11, 14, 16) if groups[i]]
        n, scale = pairs[0] if pairs else (groups[8] or groups[13] or groups[18], None)
        scale = (scale or "").lower()
        value = _number(n) / 100 if scale.startswith("cent") else _number(n) * _SCALE.get(scale, 1)
        after = low[m.end() : m.end() + 24]
        if rx.match(r"\s?(?:/|per|a)\s?kwh\b", after):
            continue  # "$0.32/kwh": the price of electricity, not of the GPUs
        if "pound" in m.group(0) and rx.search(
            r"\bweigh\w*\s(?:about |around |like |~)?$", low[max(0, m.start() - 20) : m.start()]
        ):
            continue  # "the card weighs 3 pounds": a weight, not money
        dollars = rx.search(r"us\$|usd|dollar|buck", m.group(0)) or (
            m.group(0).lstrip().startswith("$")
            and not low[max(0, m.start() - 1) : m.start()].isalpha()
        )  # not "R$ 15.000"
        if not dollars and rx.match(
            r"\s*\((?:[^\d()$]{0,25})(?:us\$|usd|\$)\s?\d", low[m.end() : m.end() + 40]
        ):
            continue  # "R$ 15.000 (about US$ 2.700)": the user's own dollars, in brackets
        if rx.match(_PER_SERVICE_UNIT, low[m.end() : m.end() + 40]) or (
            rx.match(r"\s?/\s?(?:m|min(?:ute)?)\b", after) and _service_price(low)
        ):
            continue  # "$0.006 per audio minute": a service's price, not the GPUs' (_service_price)
        if not rx.search(_WITH_CURRENCY, m.group(0)) and rx.search(
            r"\b(?:ctx|context|seq\w*|window|prompts?)\b[^.,;?$]{0,20}$",
            low[max(0, m.start() - 30) : m.start()],
        ):
            continue  # "ctx from 4k up to 32k": a length, not money
        if not rx.search(_WITH_CURRENCY, m.group(0)) and rx.match(
            r"\s?-?(?:tokens?|ctx|context|seq\w*|window|prompts?)\b", after
        ):
            continue  # "~16k ctx", "a 32k-token window": a length
        if not rx.search(_WITH_CURRENCY, m.group(0)) and rx.match(
            r"\s?(?:[a-z]{1,3}\d{2,4}[a-z]?[- ]|gpu[- ]?|node[- ]?)?hours?\b", after
        ):
            continue  # "~150k A100 hours", "20k GPU-hours": hours, not money
        per = "hour" if _PER_HOUR.match(after) else "month" if _PER_MONTH.match(after) else "total"
        if (
            per == "total"
            and _LAST_MONTH.match(after)
            and not _ON_A_CARD.match(after)
            and _SPENT.search(low[max(0, m.start() - 30) : m.start()])
        ):
            per = "month"  # "we spent $18k last month on p4d": a month's spend
        if per == "total" and _MONTHLY_BEFORE.search(low[max(0, m.start() - 40) : m.start()]):
            per = "month"  # "our monthly GPU bill is $48k"
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip("forcstbudgeinpal~<hvmy "))
        out.append((value, per, start))
    for m in rx.finditer(rf"\b{_WORD_NUM}\s(grand)\b", low):  # "under two grand"
        if not m.group(1)[0].isdigit():
            out.append((_count(m.group(1)) * 1000, "total", m.start()))
    # "a one hundred dollar card", "five thousand euros": an amount in words
    for m in rx.finditer(rf"\b{_WORD_NUM}\s(hundred|thousand)\s(?:us\s)?(?:dollars?|bucks|usd"
                         r"|euros?|eur)\b", low):  # fmt: skip
        if not m.group(1)[0].isdigit():
            scale = 100 if m.group(2) == "hundred" else 1000
            out.append((_count(m.group(1)) * scale, "total", m.start()))
    # "1.79 per gpu per hour", "0.35/h" with no currency sign
    for m in rx.finditer(
        rf"(?<![\w$.,]){_NUM}\s?(?:/|per|an|a|por)\s?(?:gpu[- ]?)?(?:(?:per|/|an|a)\s?)?"
        r"(?:hour|hr|h|hora)\b(?<!\d ah)(?<!\dah)",  # not a battery's "20Ah"
        low,
    ):
        if rx.fullmatch(r"\d{4,}", m.group(1)):
            continue  # "to rent an RTX 4090 per hour": a name's number, not 4,090 an hour
        if not any(abs(pos - m.start()) <= 2 for _, _, pos in out):
            out.append((_number(m.group(1)), "hour", m.start()))
    # "4 gpus x $2.49 x 72 h": a price times hours
    times = rx.search(rf"\$\s?{_NUM}\s?x\s?\d+(?:\.\d+)?\s?(?:h|hrs?|hours?)\b", low)
    if times and not any(per == "hour" for _, per, _ in out):
        out = [o for o in out if abs(o[2] - times.start()) > 1]
        out.append((_number(times.group(1)), "hour", times.start()))
    if len(out) > 1:
        # "the budget is really more like £900, not £1,500": the amount set aside is no amount
        kept = [o for o in out if not _SET_ASIDE.search(low[max(0, o[2] - 16) : o[2]])]
        out = kept or out
    return out


_SET_ASIDE = re.compile(r"\b(?:not|rather than|instead of)\s(?:the\s)?(?:[a-z]{3}\s)?$")


# a cap on a GPU's price written as a bare number: "best gpu under 1500", "a card below 800"
_BARE_CAP = re.compile(
    r"\b(?:gpus?|cards?|rigs?|builds?)\b(?: \w+){0,2} (?:under|below|less than|up to|within|for"
    r" at most)\s?(\d{3,5})\b(?!\s?(?:w\b|watts?|gb|g\b|mb|tokens?|ms|s\b|hours?|h\b|k\b|x\b|%|px"
    r"|steps?|images?|\.))"
)


def gpu_mentions(gpus: tuple[GpuRef, ...], low: str) -> list[tuple[int, str]]:
    """Where each named GPU is written, every time (whole words: "a10" is not inside "a100"),
    as (position, its first catalog id), in order."""
    found = set()
    for g in gpus:
        said = rx.sub(r"^(?:the|an?|my|our)\s+|\s+(?:the|an?|my|our)$", "", g.text.lower())
        if g.ids and said:
            spelled = rf"(?<![\w.]){re.escape(said)}(?![\w])"
            found |= {(m.start(), g.ids[0]) for m in rx.finditer(spelled, low)}
    return sorted(found)


_MFU_WORD = r"(?:mfu|model flops? utili[sz]ation)"
_MFU_SAID = re.compile(
    rf"(?<![\d.])(\d{{1,2}}(?:\.\d+)?)\s?%\s?(?:of\s)?{_MFU_WORD}\b"  # "40% MFU"
    rf"|\b{_MFU_WORD}\s?(?:of|at|=|:|is|around|about|near|~)?\s?(?:~\s?)?(\d{{1,2}}(?:\.\d+)?)\s?%"
    rf"|\b{_MFU_WORD}\s?(?:of|at|=|:|is)?\s?(0?\.\d+)\b"  # "mfu of 0.4"
    rf"|(?<![\d.])(0?\.\d+)\s?{_MFU_WORD}\b"  # "0.45 MFU"
)


def _mfu_said(low: str) -> float | None:
    """A model FLOPs utilisation the user states ("assuming 40% MFU", "mfu of 0.45"): a share."""
    found = _MFU_SAID.search(low)
    if not found:
        return None
    pct, pct2, share, share2 = found.groups()
    value = float(pct or pct2) / 100 if (pct or pct2) else float(share or share2)
    return value if 0 < value <= 1 else None


def _speedup_said(gpus: tuple[GpuRef, ...], low: str) -> tuple[str, float] | None:
    """ "if the h100 is 2.5x faster": the ratio the user gives, for the GPU named before it;
    "an A100 is 1.30 €/h but 2.2 times slower": the other GPU named is that much faster."""
    m = rx.search(r"\b(?:is|are|es|runs?|being|but|and)\s(?:about\s|roughly\s|~\s?)?"
                  r"(\d+(?:\.\d+)?)\s?(?:x|times)\s(faster|quicker|as fast|the speed|slower)\b",
                  low)  # fmt: skip
    if not m:
        return None
    mentions = gpu_mentions(gpus, low)
    before = [b for b in mentions if b[0] < m.start()]
    ratio = float(m.group(1))
    if not (before and 1 < ratio <= 100):
        return None
    if m.group(2) == "slower":  # the card said to be slower: the other one is the faster
        other = [gid for _, gid in mentions if gid != before[-1][1]]
        return (other[0], ratio) if other else None
    return before[-1][1], ratio


# the words of a price, dropped to see what joins two prices ("$1.29/hr vs $2.99/hr")
_PRICE_WORDS = re.compile(
    r"/\s?(?:gpu[- ]?)?(?:hr|hour|h)\b|(?:per|an?) (?:gpu[- ]?)?hour|[\d,.$~k]|usd|dollars?|bucks"
)
_SIDE_BY_SIDE = re.compile(r"\W*(?:vs\.?|versus|and|or|/|,)\W*$")


# the period of a power bill asked by its adjective ("the yearly electricity bill")
_BILL_PERIODS = (
    (8760.0, r"\b(?:yearly|annual(?:ly)?|per year|a year|each year|every year|per annum)\b"),
    (730.0, r"\b(?:monthly|per month|a month|each month|every month)\b"),
    (168.0, r"\b(?:weekly|per week|a week|each week)\b"),
)
_POWER_BILL = re.compile(r"\belectric\w*|\bpower (?:bill|cost)s?\b|\bkwh\b|\benergy (?:bill|cost)")


MAX_COMPARED = 4  # the cards one comparison sets side by side
# a short follow-up that names one more card and asks nothing else: "and the 4080 super?"
_ONE_MORE = re.compile(
    r"\W*(?:ok(?:ay)?,? )?(?:and|what about|how about|plus|also)\b(?: (?:the|a|an|with))?"
    r" [\w .-]{1,30}\??\s*$"
)


def _power_bill_period(low: str) -> float | None:
    """The hours of a power bill's period said by its adjective ("yearly electricity bill"),
    around the clock; None for other questions (a monthly budget is no duration of use)."""
    if not _POWER_BILL.search(low):
        return None
    return next((hours for hours, said in _BILL_PERIODS if rx.search(said, low)), None)


def _billed_hours(duration: float | None, low: str) -> float | None:
    """The hours said, or a power bill's period ("the yearly electricity bill") around the clock;
    with hours a day said, the hours said (the bill multiplies them out over the period)."""
    period = _power_bill_period(low)
    if period is None:
        return duration
    if _use_rate(low):
        return duration  # "6 hours a day, annually": the bill's own rule of hours a day x a year
    return duration or period


HOURLY_AT_MOST = 20.0  # dollars: a card's price with no period, under this, is by the hour


def _gpu_prices(
    gpus: tuple[GpuRef, ...], low: str, money: list[tuple[float, str, int]], period: str = "hour"
) -> tuple[tuple[str, float], ...]:
    """Each named GPU's own hourly price when the message gives one per card ("h100 sxm
    $2.50/hr, a100 80gb $1.30/hr"): a price belongs to the GPU named last before it, or to the
    one it is said per ("$2.10 per H100 GPU-hour"); `period` "total": each card's price to buy
    ("used 3090 for $700 or a new 4060 ti 16gb for $450")."""
    if len(gpus) < 2 or len({g.ids for g in gpus}) < 2:
        return ()
    spots = gpu_mentions(gpus, low)
    pairs: dict[str, float] = {}
    # ("8 cards for a month: A100 80GB at $1.60 or L40S at $0.99": no card sells for a few
    # dollars, so an amount that small with no period is a price an hour)
    money = [(v, "hour" if per == "total" and v < HOURLY_AT_MOST else per, pos)
             for v, per, pos in money]  # fmt: skip
    for value, per, pos in money:
        # "$2.10 per H100 GPU-hour", "$1.29/hr for the A100": the price said of the card after it
        said_per = (r"[^a-z]*(?:usd|eur|dollars?|euros?)?\s?(?:(?:/|per|an?)\s?(?:gpu[- ]?)?"
                    r"(?:hr|hour|h)\b\s?)?(?:/|per|an?|each|for(?: the| an?| my| our| each)?"
                    r"|on(?: the| an?)?)\s?"
                    # "£500 for a used 3090": the card's condition between
                    r"(?:(?:used|new|second[- ]hand|refurb\w*|brand new)\s)?")  # fmt: skip
        per_card = [gpu for at, gpu in spots
                    if pos < at <= pos + 24 and rx.fullmatch(said_per, low[pos:at])]  # fmt: skip
        before = per_card or [gpu for at, gpu in spots if at < pos]
        if per == period and before and before[-1] not in pairs:
            pairs[before[-1]] = value
    if len(pairs) < 2 and len(gpus) == 2:
        # "5090 vs 4090 ... 32gb vs 24gb, ~$2000 vs ~$1600": two prices after both cards, said
        # side by side, in the order the cards were named
        said = [(v, pos) for v, per, pos in money if per == period]
        last = max((at for at, _gpu in spots), default=-1)
        order = list(dict.fromkeys(gpu for _at, gpu in sorted(spots)))
        between = _PRICE_WORDS.sub("", low[said[0][1] : said[1][1]]) if len(said) == 2 else ""
        if (
            len(said) == 2
            and len(order) == 2
            and said[0][1] > last
            and _SIDE_BY_SIDE.match(between)
        ):
            pairs = {order[0]: said[0][0], order[1]: said[1][0]}
    return tuple(pairs.items()) if len(pairs) >= 2 else ()


# a card's price written as a bare number after it, in a choice of cards to buy: "4090 at 1800
# or used 3090 at 750", "a 4090 for 1800 bucks vs a used 3090 for 750"
_BARE_PRICE = re.compile(
    r"\s(?:at|for|@|is|goes for|going for|costs?)\s~?(\d{1,3}(?:,\d{3})|\d{3,5})(?:\s?bucks)?"
    r"(?![\d]|[.,]\d|\s?(?:w|watts?|gb|gigs?|g|hours?|hrs?|h|mins?|minutes?|tok\w*|t/s|it/s|mhz|"
    r"images?|steps?|px|k\b|%|x\b|/))"
)
_TO_BUY = re.compile(
    r"\b(?:value|used|new|buy\w*|bought|worth|cheaper|deal|price\w*|bucks"
    r"|ebay|marketplace|second[- ]?hand|refurb\w*)\b"
)


# a budget for a card to buy written with no currency: "best gpu for training cnns under 800",
# "a card around 1500 for local llms"
_BARE_BUDGET = re.compile(
    r"\b(?:best|which|what|good|recommend\w*|cheapest|buy|get)\b[^.?!]{0,40}\b(?:gpus?|cards?|"
    r"graphics cards?)\b[^.?!]{0,60}?\b(?:under|below|less than|max(?:imum)?|up to|around|"
    r"about|within|for|budget(?: of| is)?)\s~?(\d{1,2},\d{3}|\d{3,5})(?:\s?bucks)?\b"
    r"(?![.,]\d|\s?(?:w\b|watts?|gb|gigs?|g\b|hours?|hrs?|h\b|mins?|tok\w*|t/s|it/s|images?|"
    r"steps?|px|k\b|%|x\b|/|fps|epochs?|samples?|users?|requests?|tokens?))"
)


def _bare_card_prices(gpus: tuple[GpuRef, ...], low: str) -> tuple[tuple[str, float], ...]:
    """Two or more cards each with a bare number said as its price just after it, where the
    message is about buying: (card, price) pairs; empty otherwise."""
    if len({g.ids for g in gpus if g.ids}) < 2 or not _TO_BUY.search(low):
        return ()
    pairs: dict[str, float] = {}
    for at, gpu in gpu_mentions(gpus, low):
        name = next(g for g in gpus if g.ids and g.ids[0] == gpu)
        end = at + len(name.text)
        said = _BARE_PRICE.match(low, end) if low[end : end + 1].isspace() else None
        if said and gpu not in pairs:
            pairs[gpu] = float(said.group(1).replace(",", ""))
    return tuple(pairs.items()) if len(pairs) >= 2 else ()


# one price said of every card named, in a message about buying: "both the 4060 Ti 16GB and the
# 5060 Ti 16GB are about $450 at my local shop", "both at about NZ$780"
_ONE_PRICE_FOR_ALL = re.compile(
    r"\b(?:both|all (?:three|of them))\b[^.?!$€£]{0,70}?\b(?:are|cost|go for|sell for|at|for)\s"
    r"(?:about |around |roughly |~\s?|like |only |just )?(?:[$€£]\s?)?(\d[\d,]*(?:\.\d+)?)\s?(k\b)?"
    r"(?!\s?(?:/|per|an?|each)\s?(?:h\b|hr|hour|month|mo\b))"
)


def _one_price_for_all(gpus: tuple[GpuRef, ...], low: str) -> tuple[tuple[str, float], ...]:
    """Two or more cards at one price said for all of them, where the message is about buying:
    (card, price) pairs; empty otherwise."""
    named = [g for g in gpus if g.ids]
    shop = rx.search(r"\b(?:shops?|stores?|retailers?|reseller|in stock|listed)\b", low)
    if len({g.ids for g in named}) < 2 or not (_TO_BUY.search(low) or shop):
        return ()
    said = _ONE_PRICE_FOR_ALL.search(low)
    if said is None:
        return ()
    price = float(said.group(1).replace(",", "")) * (1000 if said.group(2) else 1)
    if price < 50:  # a card costs more than this: an hourly price or a count
        return ()
    return tuple(dict.fromkeys((g.ids[0], price) for g in named))


_PRICE_TERMS = (
    ("reserved", r"\breserved\b|\b[13][- ]?(?:yr|year)\b|\bcommit\w*|\bsavings plan\b"),
    ("spot", r"\bspot\b|\bpreemptible\b|\binterruptible\b"),
    ("on-demand", r"\bon[- ]demand\b|\bpay[- ]as[- ]you[- ]go\b"),
)


def _price_options(
    gpus: tuple[GpuRef, ...], low: str, money: list[tuple[float, str, int]]
) -> tuple[tuple[str, float], ...]:
    """One GPU's hourly prices under named terms ("on-demand is $1.89, spot $1.10"): each price
    takes the term said nearest before it in its clause (or just after it)."""
    if len({g.ids for g in gpus if g.ids}) > 1:
        return ()
    options: dict[str, float] = {}
    hourly = [v for v, per, _ in money if per == "hour"]
    for value, per, pos in money:
        # "on-demand is $1.89/GPU-hr, spot is $1.10": a bare price beside hourly ones is hourly
        if per != "hour" and not (hourly and value <= 3 * max(hourly)):
            continue
        cut = r"[;,\n]|\.(?!\d)|\band\b|\bor\b|\bvs\.?\b"  # a price's own decimal point: no cut
        before = rx.split(cut, low[max(0, pos - 45) : pos])[-1]
        # ("$2.10/h for an A100 80GB on a 6 month reserved contract": the term a clause later)
        after = rx.split(cut, low[pos : pos + 60])[0]
        found = [(m.end(), term) for term, pattern in _PRICE_TERMS
                 for m in rx.finditer(pattern, before)]  # fmt: skip
        later = [(m.start(), term) for term, pattern in _PRICE_TERMS
                 for m in rx.finditer(pattern, after)]  # fmt: skip
        term = max(found)[1] if found else min(later)[1] if later else None  # the nearest
        if term and term not in options:
            options[term] = value
    return tuple(options.items()) if len(options) >= 2 else ()


# GPU-hours said, then a bare figure "at" a plausible hourly price: "1,200 GPU-hours at 2.2"
_GPU_HOURS_AT = re.compile(
    r"\bgpu[- ]?h(?:ou)?rs?\b[^.?!$]{0,40}?\bat (\d{1,2}(?:\.\d{1,2})?)\b(?![.,]\d)"
    r"(?!\s?(?:%|w\b|kw|gb|tok|t/s|hours?|hrs?|h\b|x\b|bit|k\b|/kwh|per kwh|a kwh|kwh|cents?|p\b))"
)


# a rental priced per card without its period: "renting 4 A100 80GB at 1.60 each for 100 hours",
# "rent 2 H100s at $2.50 each": an hour's price of each card
_RENTED_EACH_AT = re.compile(
    r"\brent\w*\b[^.?!]{0,60}?\b(?:at|for) \$?\s?(\d{1,2}(?:\.\d{1,2})?)\s?(?:usd|dollars?)?\s?"
    r"(?:each|apiece|a piece|per (?:gpu|card)|a (?:gpu|card))\b"
)
_HOURS_SAID = re.compile(r"\d\s?(?:hours?|hrs?|h)\b")


def _prices_and_budget(
    low: str, money: list[tuple[float, str, int]]
) -> tuple[float | None, Budget | None]:
    """(a price per GPU-hour the user gives, a budget): an hourly figure is the user's price
    unless a cap comes before it ("under $1/hour"); totals and monthly figures are budgets when
    the words say so (budget, under, have, buy ...); `money` is _money(low)."""
    price, budget = None, None
    for value, per, pos in money:
        end = rx.search(r"(?:hour|hr|h|hora)\b", low[pos:])
        capped = _CAP.search(low[max(0, pos - 24) : pos]) or (
            end and _CAP_AFTER.search(low[pos + end.end() : pos + end.end() + 12])
        )
        if per == "hour" and not capped:
            price = price if price is not None else value
        elif per == "hour":
            budget = budget or Budget(value, "rent", "hour")
    totals = [(v, per) for v, per, pos in money if per != "hour"]
    bare = _BARE_CAP.search(low)
    if not money and bare:  # "best gpu under 1500": a price cap written without its currency
        totals = [(float(bare.group(1)), "total")]
    if totals and budget is None:
        value, per = max(totals)
        buy = rx.search(  # not "how many hours does that buy me"
            rf"{_BUY_WORD}|\bown\b"
            r"|\bbuild\b|\bused\b|\bsecond[- ]hand\b"
            # a seller's price: "scalpers want $2500 for a 5090", "the dgx quote came in at 300k"
            r"|\bscalp\w*|\bmsrp\b|\bretail\w*|\basking\b|\blisted (?:at|for)\b|\bresell\w*"
            r"|\bquot(?:e[sd]?|ing)\b(?![^.?!]{0,25}(?:/|per |an? )\s?(?:h\b|hr|hour|month|mo\b))"
            r"|\bebay\b|\bupgrade\b|\bhome ?lab\b|\brig\b|\blaptop\b|\bmacbook\b"
            # "a 4090 costs 1800", not "the H100 costs 2.20 euro per hour"
            r"|\bcosts? ~?\d(?![\d.,]*\s?(?:euros?|eur|usd|dollars?|€|\$)?\s?(?:/|per\s|an?\s)\s?h)"
            r"|\bdesktop\b|\bworkstation\b|\blocal(?:ly)?\b|\b(?:at|for) home\b"
            r"|\blokal\w*|\blocales?\b"  # ("einen lokalen llm server", "un servidor local")
            # "got £1500 to spend, best gpu for stable diffusion": a card's price
            r"|\bto spend\b[^.?!]{0,30}\b(?:best|which|what|good)\s(?:\w+\s)?(?:gpu|card|graphics)"
            r"|\bhome (?:[\w-]+ )?(?:card|gpu|pc|build|server|machine|setup|box)\b"
            r"|\bon[- ]?prem\w*|\bfor the (?:card|gpu|graphics card)\b"
            # "best gpu under $1500": a card's price, not an hour's
            r"|\b(?:gpu|card|graphics card)s? (?:under|below|for under|for less than|less than"
            r"|up to|around|within) [$€£]?\s?\d[\d,.]*\s?k?(?!\s?(?:/|per\s|an?\s|each\s)\s?h)"
            r"|\b(?:on|for) an? (?:new |used |second )?(?:card|gpu|graphics card)\b"
            # "for a training server", not "for a rented machine"
            r"|\bfor an? (?!(?:rented|cloud|hosted|remote|leased|virtual)\b)(?:[\w-]+ )?"
            r"(?:server|box|machine|build)\b",
            low,
        )
        rent = rx.search(
            r"\brent\w*|\bcloud\b|\blease\b|\bper hour\b|/h(?:ou)?r|/h\b"
            r"|\bon[- ]demand\b|\bcredits?\b"
            # "spend $50 on it": a rental spend, but not for a hobby or at home ("its for a
            # hobby project, dont want to spend more than $200": on a card)
            + (
                ""
                if rx.search(r"\bhobby\b|\bat home\b|\bhome (?:lab|server|pc|rig)\b", low)
                # ("got £1500 to spend, best gpu for stable diffusion": a card's price)
                or (value >= 500 and _CARD_SOUGHT.search(low) and not _JOB_TRAINED.search(low))
                else r"|\bspent\b|\bspend\b"
            ),
            low,
        )
        negated = buy and rx.search(
            r"(?:\bnot|\bno|\binstead of)\s+$", low[max(0, buy.start() - 10) : buy.start()]
        )
        if per == "total" and rx.search(
            r"\bmonthly (?:budget|spend)\b|\bbudget (?:per|a) month\b", low
        ):
            per = "month"  # "monthly budget $800"
        credit = rx.search(  # "$3,000 of cloud credit": spent on rentals (not "credit card")
            r"\d[\d,.]*\s?k?\s(?:of\s|in\s)?(?:[a-z]+\s){0,3}credits?\b(?! card| history)"
            r"|\bcredits? (?:of|worth) \$",
            low,
        )
        kind = (
            "rent"
            if per == "month" or credit
            else "buy"
            if buy and not negated
            else "rent"
            if rent
            else None
        )
        if (
            kind == "buy"
            and rent
            and rx.search(r"(?:\bnot|\bno)\s+$", low[max(0, rent.start() - 6) : rent.start()])
        ):
            kind = "buy"
        budget = Budget(value, kind, per)
    return price, budget


def _without(low: str, names: list[str]) -> str:
    """The text with the names blanked: words inside a GPU's name ask for no field."""
    for name in sorted(filter(None, names), key=len, reverse=True):
        low = low.replace(name, " " * len(name))
    return low


def _scaled(number: str, scale: str | None) -> float:
    """A number with its scale word applied: "200" and "k" -> 200,000."""
    return _number(number) * _SCALE.get((scale or "").lower(), 1)


# "200k samples avg 1k tokens": samples and their average length
_SAMPLES_OF = re.compile(
    # ("30k short chats (~300 tokens)": a word before the noun, the length in brackets)
    rf"{_NUM}\s?(k|m|mil|million|thousand)?\s?(?:(?!tokens?\b)[a-z-]+\s)?(?:samples|examples"
    rf"|rows|sequences|documents|conversations|pairs|dialogues|dialogs|instructions|sentences"
    rf"|reviews|messages|emails|tweets|paragraphs|chunks|passages|docs|texts|chats|prompts"
    rf"|transcripts|tickets|articles|posts|comments|stories|records)\b,?\s\(?(?:of\s)?"
    # "averaging 600 tokens", "avg length ~1k tokens", "with an average of 800 tokens", "each
    # chunk 512 tokens", "50k examples 512 tokens"
    r"(?:(?:that |which )?(?:avg|average[sd]?|averaging|mean|each|x|~|about|around|roughly"
    r"|approx\w*|ca|circa|at|with(?: an?)?|length|len|of|is|are|chunk|passage|doc(?:ument)?"
    r"|sample|example|text|row)\.?:?\s?~?){0,4}"
    # ("each sample of 1000 token": the plural unsaid, as written by many)
    rf"{_NUM}\s?(k)?\s?(?:tokens?|toks?)\b"
)


# a price said for cards together: "both for 5200 kr together", "$900 for the pair"
_PAIR_PRICED = re.compile(
    r"\d[\d,.]*\s?k?\s?(?:[a-z$\u20ac\u00a3]{1,5}\s)?(?:together|for (?:the )?(?:both|pair|two|lot)"
    r"(?: of them)?)\b|\bboth (?:\w+ ){0,3}for [$\u20ac\u00a3]?\s?\d"
)
# a price said for each card of a set: "$150 each, 4 of them", "two 5090s at $2500 each"
EACH_PRICE = re.compile(r"\$\s?\d[\d,.]*\s?(?:k\s?)?(?:each|apiece|a piece|per card|a card)\b")
# a sample's mean length said apart from the count of samples: "avg 256 tokens"
_MEAN_LENGTH = re.compile(
    rf"\b(?:avg|average|averaging|mean)\.?:?\s(?:length\s|len\s|of\s|~\s?|about\s|around\s)*"
    rf"{_NUM}\s?(k)?\s?(?:tokens?|toks?)\b"
)


_LENGTH_BEFORE = re.compile(
    rf"(?<![\d.,]){_NUM}\s?(k)?[- ]tok(?:en)?s?[- ](?:long )?(?:samples?|examples?|sequences?"
    r"|documents?|docs|texts?|prompts?|chunks?|conversations?|records?|rows?)\b"
)


# "best gpu for ...", "which card": a card sought; a fine-tune or training run spends on rent
_CARD_SOUGHT = re.compile(
    r"\b(?:best|which|what|good|recommend\w*)\s(?:\w+\s)?(?:gpu|card|graphics)"
)
_JOB_TRAINED = re.compile(r"\b(?:pre-?)?train\w*|\bfine-?tun\w*|\bfinetun\w*|\bq?lora\b")


def _sample_length(low: str) -> int | None:
    """The tokens of one training sample, when the samples' average length is said: the
    sequence length a fine-tune runs at ("50k samples, avg 512 tokens": 512; "10 million
    documents with bge-large, avg 256 tokens": 256)."""
    per = _SAMPLES_OF.search(low)
    if per is None:
        # "2k-token samples", "512 token examples": each one's length said before it
        mean = _MEAN_LENGTH.search(low) or _LENGTH_BEFORE.search(low)
        length = _number(mean.group(1)) * (1000 if mean.group(2) else 1) if mean else 0
        return int(length) if 16 <= length <= MAX_COUNT else None
    length = _number(per.group(3)) * (1000 if per.group(4) else 1)
    return int(length) if 16 <= length <= MAX_COUNT else None


def _train_tokens(low: str) -> float | None:
    # "the same 10B token run": a run's tokens, the noun left singular
    low = rx.sub(r"\b(\d+(?:\.\d+)?\s?[bmt])[- ]token (?=(?:training )?run\b)", r"\1 tokens ", low)
    per = _SAMPLES_OF.search(low)  # "200k samples avg 1k tokens": samples x their average length
    per = per or rx.search(  # "50,000 contracts ... about 20,000 tokens generated per contract"
        rf"{_NUM}\s?(k|m|mil|million|thousand)?\s?(?:{_THINGS}|contracts|files|reports|transcripts"
        rf"|calls|chats|queries)\b[^.?!]{{0,60}}?{_NUM}\s?(k)?\s?tokens?\s(?:\w+\s)?(?:per|each|an?"
        r"|every)\s(?!sec|second|minute|min\b|hour|day|week|month|year)\w+",
        low,
    )
    if per:
        return (
            _scaled(per.group(1), per.group(2))
            * _number(per.group(3))
            * (1000 if per.group(4) else 1)
        )
    m = rx.search(
        rf"{_NUM}\s?(k|m|b|t|bil|bn|mln|thousand|million|billion|trillion|millions|milh\u00f5es|milhoes"
        r"|millones)?\s?"
        r"(?:training |of |de )?tokens\b(?!\s?/\s?(?:s|sec|day|d)\b"
        r"|\s(?:per|a|an|each)\s(?:s|sec\w*|day)\b)"
        # "1 billion token" (a word for a scale, the noun left singular)
        rf"|{_NUM}\s?(thousand|million|billion|trillion)\s?(?:training |of )?token\b"
        r"(?!\s?(?:/|per|window|context))",
        low,
    )
    if not m:
        return None
    before = low[max(0, m.start() - 12) : m.start()]
    if rx.search(r"context|ctx|window|prompt", before) or rx.search(
        r"^\s?(?:of\s)?(?:context|prompt|input|output|out\b)", low[m.end() : m.end() + 12]
    ):
        return None
    value = _scaled(m.group(1) or m.group(3), m.group(2) or m.group(4))
    return value if value >= 1e5 else None  # "512 tokens" is a length, not a training budget


# "has finished 7 of 60 epochs", "at epoch 12/40": the epochs left to run
_EPOCH_OF = re.compile(
    r"\b(?:finished|done|completed|through|past)\s(?:with\s)?(\d+)\s(?:of|/|out of)\s(\d+)"
    r"\sepochs?\b|\b(?:at|on|in)\sepoch\s(\d+)\s?(?:of|/|out of)\s?(\d+)\b"
)


# a time said of one epoch: "one epoch takes 3 min 40 s", "each epoch is ~6 hours"
EPOCH_PACE_SAID = re.compile(
    r"\b(?:one|1|a single|each|every|an|per) epoch (?:takes?|took|lasts?|runs?|is|=)\s"
    r"(?:about |around |roughly |~\s?)?\d"
)
_ONE_EPOCH_PACE = re.compile(
    r"\s(?:takes?|took|lasts?|runs?|is|=|:)\s(?:about |around |roughly |~\s?)?\d"
)


def _epochs(low: str) -> float | None:
    rest = rx.search(r"\bleft\b|\bremain\w*|\brest of\b|\bto go\b|\beta\b|\bfinish\w*", low)
    if rest and (at := _EPOCH_OF.search(low)) and (left := _epochs_left(at)):
        return left  # "finished 7 of 60 epochs ... how much is left": 53
    # "one epoch takes 3 min 40 s ... for 150 epochs": the pace of one is no count of them
    counted = [m for m in rx.finditer(rf"{_WORD_NUM}[\s-]?(?:epochs?|ep)\b", low)
               if not (m.group(1) in ("one", "1", "single", "a", "an")
                       and _ONE_EPOCH_PACE.match(low[m.end() : m.end() + 30]))]  # fmt: skip
    if counted:
        return _count(counted[0].group(1))
    # "trained it for 20 rounds - I think they're called epochs?": the word explained
    if "epoch" in low and (rounds := rx.search(rf"{_WORD_NUM} (?:rounds|cycles|loops)\b", low)):
        return _count(rounds.group(1))
    # "--num_train_epochs 3", "num_epochs=3", "epochs: 3"
    if m := rx.search(r"(?<![a-z])(?:num_(?:train_)?)?epochs\s?[=:]?\s?(\d+(?:\.\d+)?)\b", low):
        return float(m.group(1))
    # "epochs are 25 only", "epoch count is 12", "no. of epochs will be 8"
    if m := rx.search(r"\bepochs?(?: count| number)? (?:are|is|will be|would be|should be|=|of)"
                      r" (?:only |just |about |around )?(\d+(?:\.\d+)?)\b"
                      r"(?!\s?(?:%|min|s\b|sec|h\b|hours?))",
                      low):  # fmt: skip
        return float(m.group(1))
    if rx.search(r"\b(?:one|1|a single) (?:full )?pass (?:over|through) (?:the|our|my|all)\b"
                 # "roughly how long would one pass take?", "50 million tokens, one pass"
                 r"|\b(?:one|1|a single) (?:full )?pass\b"
                 r"(?= (?:take|would|will|of|on)\b|[,.;?!)]|$)",
                 low):  # fmt: skip
        return 1.0  # "one pass over the data"
    # "if he runs through all 20,000 three times": the data said, gone through that many times
    if m := rx.search(rf"\b(?:run|runs|running|go|goes|going|went|train\w*|loop\w*|pass\w*) "
                      rf"(?:through|over) (?:all |the |our |my |them |it )?[^.?!]{{0,30}}?\b"
                      rf"(?:{_WORD_NUM} times|(?P<often>once|twice|thrice))\b", low):  # fmt: skip
        return (
            _count(m.group(1))
            if m.group(1)
            else {"once": 1.0, "twice": 2.0}.get(m.group("often"), 3.0)
        )
    # "3 passes (epochs)", "two passes over the data"
    if m := rx.search(rf"{_WORD_NUM} (?:full )?passes\b(?= ?\(epochs?\)| (?:over|through)\b"
                      r"|[,.;?!)]|$)", low):  # fmt: skip
        return _count(m.group(1))
    return 1.0 if rx.search(r"\b(?:an|one|1|a single|per|each|every) epoch\b", low) else None


def _epochs_left(at: re.Match[str]) -> float | None:
    done, total = (int(g) for g in (at.groups()[:2] if at.group(1) else at.groups()[2:]))
    return float(total - done) if 0 <= done < total else None


# things counted in a data set or a batch of work
_THINGS = (
    r"images|imgs|pictures|photos|samples|examples|rows|sequences|documents|docs|pics|sentences"
    r"|conversations|dialogues|pairs|shots|renders|instructions|utterances|texts|descriptions"
    r"|tickets|emails|reviews|records|comments|posts|articles|abstracts|papers|pages"
    r"|illustrations|drawings|artworks|paintings|selfies|portraits|screenshots"
    r"|films|scans|x-?rays|radiographs|slides|frames|sheets|textures|sprites|tiles|icons|assets"
    r"|thumbnails|crops|patches|variations|notes|previews|mockups|visuals|titles|headlines"
    r"|captions|entries"
    r"|passages|chunks|snippets|paragraphs|queries|questions|products|listings|transcripts"
    r"|narratives|reports|messages|tweets|chats|stories|letters|contracts|invoices|receipts"
    r"|summaries|headlines|captions|threads|segments|entries|responses|answers|survey responses"
)
_MINE = re.compile(r"\bof (?:my|our|your) ")
_SAMPLE_LENGTH = re.compile(
    rf"(?<![\d.,])\d[\d,.]*\s?k?[- ]tok(?:en)?s?(?=[- ](?:long )?(?:{_THINGS}|sample|example"
    r"|sequence|document|text|prompt|chunk|conversation)\b)"
)
# things done per second: "1,200 images per second", "850 img/s", "3k samples/sec"
_ITEM_RATE = re.compile(
    rf"(?<![x\d]){_NUM}\s?(k)?\s?(?:{_THINGS}|img|image|sample|seq)\s?"
    r"(?:/\s?s(?:ec)?|per sec(?:ond)?|a second|each second|every second|ps)\b"
)


# a pace measured a minute or an hour: "my test run did about 3 a minute", "it's doing 4
# images a minute", "renders 200 thumbnails an hour" (a thing named, or a verb of doing before)
_ITEM_RATE_SLOW = re.compile(
    rf"(?:(?<![\w.$£€])(\d+(?:\.\d+)?)\s?(?:{_THINGS}|img|image|render|picture|photo)\s?"
    r"|\b(?:did|does|do|doing|done|gets?|getting|got|runs?|running|makes?|making|renders?"
    r"|rendering|manages?|managing|churns? out|pumps? out|spits? out|produces?|producing)"
    r" (?:about |around |roughly |like |maybe |~\s?)?(\d+(?:\.\d+)?)\s?)"
    r"(?:/\s?(min|h|hr|hour)\b|(?:per|a|an|each|every) (min(?:ute)?|h(?:ou)?r)\b)"
)


_REPLICAS = re.compile(
    rf"\b{_WORD_NUM}\s(?:replicas?|copies|pods|instances|servers|nodes|boxes|machines)\b"
    r"[^.?!\n]{0,30}?\b(?:each|apiece|per (?:replica|copy|pod|instance|server|node|box|machine))\b"
)


# the job asked of one card of those counted: "buying 4 L40S ... does a 70B fit on one card?"
_ON_ONE_CARD = re.compile(
    r"\b(?:fit|fits|run|runs|go|goes|load|hold|holds)\b[^.?!]{0,30}\b(?:on|in|into|onto) (?:just "
    r")?(?:one|a single|1|a) (?:card|gpu)(?: of (?:them|those|the \w+))?\b(?! (?:each|per)\b)"
)


# one count said of every option: "4 cards either way", "8 gpus in both cases"
_EITHER_WAY = re.compile(
    rf"\b{_WORD_NUM}\s?(?:x\s)?(?:cards?|gpus?|of them)\s(?:either way|each way|in (?:both|either) "
    r"(?:cases?|options?|setups?|configs?)|for (?:both|each|either) (?:options?|setups?|of them))\b"
)


# one card for each of so many people: "4 artists each renting a cloud 4090", "six of us each
# on an A100"
_EACH_THEIR_OWN = re.compile(
    rf"\b{_WORD_NUM}\s(?:[a-z]+\s)?(?:{_PEOPLE}|people|of us|users)\s(?:each|all)\s"
    r"(?:renting|using|running|with|getting|on|gets|get|have|has)\s(?:a|an|one|their own)\b"
)


# machines counted, each with one card of its own: "all 30 stations (RTX 4060s)", "12 workstations
# with a 3090 each", "our 8 PCs, each with a 4060" (not "half the stations")
_MACHINES_EACH = re.compile(
    rf"(?<!half )(?<!half of )\b(?:all |our |the |my )?{_WORD_NUM} "
    r"(?:gaming |office |lab |client )?"
    r"(?:stations|pcs|workstations|machines|boxes|computers|rigs|desktops|seats|towers)\b"
)
_ONE_IN_EACH = re.compile(
    r"^\s?\((?:[\w -]+)\)|^\s?(?:,\s)?(?:each )?with (?:an? |one )?[\w -]{2,25}? each\b"
    r"|^\s?(?:,\s)?each with (?:an? |one )[\w -]{2,25}"
)


def _machines_each_with_one(low: str, card: GpuRef) -> re.Match[str] | None:
    """Machines counted that each hold the card named (the count is the match's first group):
    the card inside the brackets or the "with ... each" ("12 workstations with 64 GB RAM each"
    hold no card; "20 desktops (mostly idle)" neither)."""
    m = _MACHINES_EACH.search(low)
    held = _ONE_IN_EACH.search(low[m.end() : m.end() + 60]) if m else None
    return m if m and held and card.text.lower() in held.group(0) else None


def _count_either_way(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """ "4 cards either way: RTX PRO 6000 or L40S?": the count, on each GPU compared that has
    none of its own."""
    # ("all 30 stations (RTX 4060s)", "12 workstations with a 3090 each": a card in each machine)
    own = _EACH_THEIR_OWN.search(low) or (_machines_each_with_one(low, gpus[0]) if gpus else None)
    if own and len(gpus) == 1 and not gpus[0].count:
        n = _count(own.group(1))
        return (replace(gpus[0], count=int(n)),) if 1 < n <= MAX_COUNT and n == int(n) else gpus
    m = _EITHER_WAY.search(low)
    if not m or len(gpus) < 2:
        return gpus
    n = _count(m.group(1))
    if not 1 < n <= MAX_COUNT or n != int(n):
        return gpus
    return tuple(g if g.count else replace(g, count=int(n)) for g in gpus)


def _one_of_them(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """ "We're buying 4 L40S: does QLoRA of a 70B fit on one card?": the fit on one of them."""
    if len(gpus) != 1 or (gpus[0].count or 1) < 2 or not _ON_ONE_CARD.search(low):
        return gpus
    return (replace(gpus[0], count=None),)


# one machine of a board's GPUs: "on one node", "a single HGX", "one DGX box"
_ONE_NODE = re.compile(
    r"\b(?:one|a|an|single|1)\s(?:single\s)?(?:[\w-]+\s){0,2}?(?:node|hgx|dgx)\b"
    r"(?!\s(?:with|that has|having|holding)\b)"  # "a node with one V100": the GPUs are said
)


# a whole board bought: "buying our own hgx box", "purchase a DGX"
_BOARD_BOUGHT = re.compile(
    r"\b(?:buy\w*|own|purchas\w*|order\w*|capex)\b[^.?!]{0,30}?\b(?:hgx|dgx)\b"
    r"(?!\s?(?:spark|station)\b)"  # DGX Spark and DGX Station are one-chip machines
)


def _one_node(
    gpus: tuple[GpuRef, ...], models: tuple[ModelRef, ...], low: str, catalog: Catalog
) -> tuple[GpuRef, ...]:
    """ "Can a B200 fit llama 405b in fp8 on one node?": the board's 8 GPUs, for a card whose
    GPUs come eight to a board (NVSwitch), when a model is to run on it and no count was said
    ("the per-GPU figure of an HGX B200" stays one GPU's)."""
    if len(gpus) != 1 or gpus[0].count or not gpus[0].ids:
        return gpus
    bought = _BOARD_BOUGHT.search(low)  # "buying our own hgx box": a whole board, job or none
    if not bought and not (_ONE_NODE.search(low) and any(m.ids or m.size_b for m in models)):
        return gpus
    # "a single H200 node" is the HGX board's (SXM) variant, not the PCIe NVL card
    boards = tuple(
        i for i in gpus[0].ids if i in catalog.gpus and catalog.gpus[i].gpu_link == "switch"
    )
    if not boards:
        return gpus
    return (replace(gpus[0], ids=boards, count=NODE_GPUS),)


def _replicated(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """ "3 replicas, 1x L40S each": the cards in all, replicas times the cards in each."""
    m = _REPLICAS.search(low)
    billed = rx.search(r"\$|\bbill\b|\bcost\w*|\bspend\b|\bper gpu[- ]h", low)
    if not m or not billed or len(gpus) != 1 or (gpus[0].count or 1) > 8:
        return gpus  # copies each hold the whole model: only a bill adds their cards up
    replicas = _count(m.group(1))
    if not 1 < replicas <= 1000 or replicas != int(replicas):
        return gpus
    return (replace(gpus[0], count=int(replicas) * (gpus[0].count or 1)),)


def _samples(low: str) -> tuple[float | None, str | None, float | None]:
    """(samples in one epoch, data set name, images to generate). A count the user gives is
    theirs ("800,000 labelled transaction descriptions"); a data set's own size only when no
    count is given ("90 epochs of ImageNet"); things counted in groups are all of them ("35
    listings with 24 photos each")."""
    # "50k 2k-token samples", "512 token examples": each one's length, no count of them
    low = re.sub(r"\s{2,}", " ", _SAMPLE_LENGTH.sub(" ", low))
    if grouped := _GROUPS_OF_THINGS.search(low):
        value = _number(grouped.group(1)) * _number(grouped.group(2))
        generate = rx.search(r"\bgenerat\w*|\bmake\b|\brender\w*|\bcreat\w*", low)
        if generate and rx.search(r"\bsd\b|\bsdxl\b|\bflux\b|diffusion|image gen", low):
            return None, None, value
        return value, None, None
    images = rx.search(  # "20k 512x512 images": the count, not the resolution
        rf"(?<![a-z\d])(?<!\dx )(?<!\d x ){_NUM}(?!\d|\s?x\s?\d)\s?(k|m|mil|million|thousand)?"
        r"\s?(?:\d+\s?x\s?\d+\s|\d+px\s)?"
        # "labelled complaint", "20 of my own": words between the count and the things
        # ("1024 pixel images", "768 px renders": a size, no count)
        r"(?:(?:(?!(?:of|on|for|with|in|per|and|pixels?|px|res|resolution|wide|tall|square)\s)"
        r"[a-z][a-z/-]*\s){0,3}?|of (?:my|our|the|your)"
        r" (?:own )?(?:[a-z]+ )?)"
        # "100k-image", "a 20k image custom dataset"
        # ("images/sec", "imgs per second": a rate, no count of them)
        rf"(?:{_THINGS})\b(?!\s?(?:/|per |a |an )\s?(?:s|sec|second|min|minute|h|hr|hour)\b)"
        rf"|(?<![x\d]){_NUM}[\s-]?(k|m|mil|million|thousand)?(?:-(?:image|sentence"
        r"|sample|document|example|record|row|ticket|email|text|pair|conversation|clip)s?\b|\s"
        r"(?:image|photo|picture)(?=(?:\s[\w-]+){0,2}\s(?:dataset|data ?set|set|corpus"
        r"|classification|classifier)\b|\s(?:dataset|data ?set|set|corpus|classification)\b))",
        low,
    )
    if images and rx.search(r"\bhow many\s$", low[max(0, images.start() - 10) : images.start()]):
        images = None  # "how many 4K images a minute": what is asked, no count given
    them = rx.search(  # "we need 10,000 of them", after the thing was named ("4 of them": cards)
        rf"(?<![x\d]){_NUM}\s?(k|m|mil|million|thousand)?\s(?:more\s)?of (?:them|those|these)\b",
        low,
    )
    if not images and them and _scaled(them.group(1), them.group(2)) >= 100:
        images = them
    if not images and "token" in low:  # "1.2 million memos, max 128 tokens each": each holds
        images = _EACH_SO_LONG.search(low)
    said = next((i for i in (1, 3) if images and images.group(i)), None)
    value = _scaled(images.group(said), images.group(said + 1)) if images and said else 0.0
    if value < 100 and not (images and _MINE.search(images.group(0))):
        # no count, or "2 images" beside a set named ("20 of my own illustrations" are theirs)
        for name, pattern, samples, _source in DATASETS:
            if rx.search(pattern, low):
                return samples, name, None
    if images and value > 0 and (people := _EACH_OF_THEM.search(low[: images.start()])):
        value *= int(people.group(1))  # "18 artists, each generating about 1,200 images"
    if images and value > 0:  # (a count of none, "000 examples" of a split number, is no count)
        generate = rx.search(r"\bgenerat\w*|\bmake\b|\brender\w*|\bcreat\w*", low)
        if generate and rx.search(r"\bsd\b|\bsdxl\b|\bflux\b|diffusion|image gen", low):
            return None, None, value
        return value, None, None
    return None, None, None


def _one_said(gpu: GpuRef, low: str) -> GpuRef:
    """The card marked as said to be one ("one L40S", "a single H100", "just one A100"), so that
    a later turn about the same card still asks of one."""
    said = rx.search(rf"\b(?:one|single|1 ?x?|just one|only one)\s+(?:nvidia\s+)?"
                     rf"{re.escape(gpu.text.lower())}\b", low)  # fmt: skip
    return replace(gpu, one_said=True) if (gpu.count or 1) == 1 and said else gpu


# a count of things of any name, then the word after it: "120,000 labelled micrographs", "120k
# lines", "3,000 foto" (a size, a price, a length, a pace or people are no count of the data)
_COUNTED_ANY = re.compile(
    rf"(?<![\w.,$\u20ac\u00a3\u00a5#/-])(?<!x )(?<!\d x ){_NUM}\s?(k|m|mil|million|thousand)?"
    r"\s(?!x\s?\d)([a-z][a-z'-]*)"
)
_NOT_THE_DATA = re.compile(
    r"(?:tokens?|tok|epochs?|epok|ep|steps?|iters?|iterations?|px|pixels?|res|dpi|gb|gib|mb|tb"
    r"|w|watts?|kwh|kw|hours?|hrs?|h|minutes?|mins?|seconds?|secs?|s|days?|weeks?|months?|years?"
    r"|percent|usd|dollars?|bucks|euros?|eur|pounds?|quid|gbp|rupees?|inr|cad|aud|cents?|params"
    r"|parameters|b|billion|layers?|batch|fps|users?|people|students|staff|employees|requests?"
    r"|queries|calls|rps|rpm|times|x|gpus?|cards?|nodes?|cores?|mhz|ghz|gbps|bits?|bit|in|at"
    r"|per|a|an|each|or|to|and|by|of|on|for|with|context|ctx|seq|length|len|resolution|rank"
    r"|max|long|wide|tall|dim|hidden|warmup|lr|k|m)$"
)


def _counted_for_epochs(low: str) -> float | None:
    """The data's size when epochs are said and the things counted have a name of the user's
    own ("120,000 labelled micrographs ... for 90 epochs", "120k lines, 3 epochs"): the first
    count of 100 or more that is no size, price, length, pace or head count."""
    for m in _COUNTED_ANY.finditer(low):
        year = not m.group(2) and 1990 <= _number(m.group(1)) <= 2040  # "in 2024 we ..."
        if _NOT_THE_DATA.match(m.group(3)) or year:
            continue
        value = _scaled(m.group(1), m.group(2))
        if value >= 100:
            return value
    return None


# things counted in groups: "35 listings this month with 24 photos each", "12 albums of 300
# pictures each"
_GROUPS_OF_THINGS = re.compile(
    rf"(?<![\w.,$])(\d[\d,]*)\s(?:[a-z]+\s){{1,4}}?(?:with|of)\s(?:about |around |~)?(\d[\d,]*)\s"
    rf"(?:[a-z-]+\s)?(?:{_THINGS})\s(?:each|apiece|a piece|per)\b"
)


# things counted, then how many tokens each holds: "1.2 million transaction memos, max 128
# tokens each", "40k contracts of about 2k tokens apiece"
_EACH_SO_LONG = re.compile(
    rf"(?<![x\d.]){_NUM}\s?(k|m|mil|million|thousand)?\s(?:[a-z][a-z'-]*\s){{0,3}}?[a-z][a-z'-]*s"
    r",?\s\(?(?:of\s|at\s|with\s)?(?:max(?:imum)?\.?\s|up to\s|at most\s|about\s|around\s"
    r"|roughly\s|~)?\d+(?:\.\d+)?\s?k?\stokens?\s(?:each|apiece|long|per\s[a-z]+|on average)\b"
)


# an audio file's length said in words: "an hour and a half", "1 hour 10 minutes", "45 min"
_LENGTH_WORDS = re.compile(
    r"\b(an?|one|\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h)\b"
    r"(?:\s?(?:and )?(a half|\d+)\s?(?:minutes?|mins?)?)?"
    r"|\b(\d+)\s?(?:minutes?|mins?)\b"
)


# the machine's time, not a recording's length: "1.5 hrs of processing each"
_MACHINE_TIME = r"\s(?:of )?(?:processing|gpu|compute|rendering|rental|runtime|run time)"
_EACH_RECORDING = re.compile(
    rf"{_NUM}\s(?:[a-z-]+\s)?(?:{_RECORDINGS})\b[^.?!]{{0,40}}?"
    r"(?:\beach\b|\bapiece\b|\bper (?:episode|file|recording|call)\b)[^.?!\d]{0,25}?"
    r"((?:an?|one|\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h|minutes?|mins?)\b(?!" + _MACHINE_TIME + r")"
    r"[^.?!,]{0,25})"
    rf"|{_NUM}\s(?:[a-z-]+\s)?(?:{_RECORDINGS})\b(?:\s(?:a|per|each|every)\s(?:day|week|month))?"
    r",?\s(?:of\s)?(?:about |roughly |around |~)?"
    r"((?:an?|one|\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h|minutes?|mins?)\b(?!" + _MACHINE_TIME + r")"
    r"[^.?!,]{0,25})\s?(?:each|apiece|long|on average|average|avg)\b"
    # "14 episodes averaging 85 minutes", "300 episodes and they average about 47 minutes each"
    # ("37 depositions from last month's backlog averaging 2 hours 15 minutes each")
    rf"|{_NUM}\s(?:[a-z-]+\s)?(?:{_RECORDINGS})\b,?\s(?:[^.?!\d]{{0,40}}?\s)??(?:and |that "
    r"|which )?(?:they |each |all )?"
    r"(?:average|averaging|averaged|run|running|last|lasting)\s(?:out\s)?(?:at\s)?"
    r"(?:about |roughly |around |~)?"
    r"((?:an?|one|\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h|minutes?|mins?)\b[^.?!,]{0,25})"
)


# recordings counted with a clock length each: "480 tracks, avg like 3:45 each"
_EACH_CLOCK = re.compile(
    rf"(?<![\w.,])(\d[\d,]*)\s(?:[a-z-]+\s)?(?:{_RECORDINGS}|tracks?|songs?)\b[^.?!]{{0,30}}?"
    r"(?<![\d:])(\d{1,2}):([0-5]\d)(?![\d:])(?!\s?(?:am|pm|a\.m|p\.m))"
)


def _recordings_hours(low: str) -> float | None:
    """Hours of audio as a count of recordings times each one's length: "120 episodes, roughly an
    hour and a half each", "300 episodes, each about 1 hour 10 minutes", "480 tracks, avg 3:45"."""
    if clock := _EACH_CLOCK.search(low):
        minutes = int(clock.group(2)) + int(clock.group(3)) / 60
        return _number(clock.group(1)) * minutes / 60
    m = _EACH_RECORDING.search(low)
    if not m:
        return None
    count, said = _pair(m)
    length = _LENGTH_WORDS.search(said)
    if not length:
        return None
    if length.group(3):
        hours = float(length.group(3)) / 60
    else:
        whole = 1.0 if length.group(1) in ("a", "an", "one") else float(length.group(1))
        extra = length.group(2)
        hours = whole + (0.5 if extra == "a half" else float(extra) / 60 if extra else 0.0)
    return _number(count) * hours


# one recording's length: "each vod is like 4 hrs", "every episode runs about 90 minutes"
_ONE_RECORDING = re.compile(
    rf"\b(?:each|every|one|a single|per|the average|an average)\s(?:[a-z-]+\s)?(?:{_RECORDINGS})\s"
    r"(?:is|are|runs?|lasts?|takes?|goes)\s(?:(?:just\s)?(?:like|about|around|roughly|~|approx\w*"
    r"|typically|usually|over|under|up to)\s)?(\d+(?:\.\d+)?)\s?(hours?|hrs?|h|minutes?|mins?)\b"
)
# hours of training data for a speech model: "whisper small for my language, 50 hrs data"
_SPEECH_DATA = re.compile(
    r"\b(\d+(?:\.\d+)?)\s?(k)?\s?(?:hours?|hrs?|h)\s(?:of\s)?(?:\w+\s)?(?:data|dataset|corpus"
    # "whisper small on 100 hours of my language", "200 hrs of our dialect"
    r"|language|dialect|accent)\b"
)
_SPEECH_WORDS = re.compile(r"\b(?:whisper|wav2vec\w*|speech|asr|audio|transcri\w*|voice)\b")


def _audio_hours(low: str) -> float | None:
    if (each := _recordings_hours(low)) is not None:
        return each
    if m := _ONE_RECORDING.search(low):
        value = float(m.group(1))
        value = value / 60 if m.group(2).startswith("m") else value
        count = rx.search(  # "30 lectures", not "a 3060, every lecture"
            rf"(?<![\w.,])(\d+(?:,\d{{3}})*)\s(?!each\b|every\b)(?:[a-z-]+\s)?(?:{_RECORDINGS})\b",
            low,
        )
        return value * _number(count.group(1)) if count else value  # "40 episodes" said too
    if _SPEECH_WORDS.search(low) and (m := _SPEECH_DATA.search(low)):
        return float(m.group(1)) * (1000 if m.group(2) else 1)
    # "40 hours of my own recordings", "200 hours of Swahili speech", "500 horas de audio",
    # "2k audio hrs/day"
    low = rx.sub(  # "the two hours of audio", "forty hours of talking"
        r"\b(" + "|".join(k for k in NUMBER_WORDS if len(k) > 2) + r")(?= (?:hours?|minutes?)\b)",
        lambda w: f"{_count(w.group(1)):g}",
        low,
    )
    m = (
        rx.search(
            rf"{_NUM}\s?(k)?[\s-]?(hours?|hrs?|h|horas?|stunden|heures?|minutes?|mins?)[\s-]?"
            r"(?:(?:of|de|d'|an)\s?)?(?:[\w'-]+\s){0,3}?(?:audio|speech|recorded|transcripts?"
            # "100h librispeech": the speech corpora, hours of audio
            r"|librispeech|common ?voice|voxpopuli|gigaspeech"
            # (not "36 hrs for the hull-inspection video model": a model's name, no footage)
            rf"|{_RECORDINGS})\b(?![\s-](?:models?|pipelines?|classifiers?|detectors?|systems?))"
            # "600 hours to transcribe"
            rf"|{_NUM}\s?(k)?\s?(hours?|hrs?|h)\s(?:to|left to|still to) transcribe\b",
            low,
        )
        or rx.search(  # "cheapest to transcribe 1000 hours?", "call transcription, 2000 hours a
            # month": hours transcribed are audio, not the card's
            rf"\btranscri(?:be|bing|ption)s?[,:]?\s(?:of\s)?(?:about |around |~)?{_NUM}\s?(k)?\s?"
            r"(hours?|hrs?|h)\b(?! of (?:gpu|compute|rental))",
            low,
        )
        or rx.search(rf"{_NUM}\s?(k)?\s?(?:audio|speech|recording)\s(hours?|hrs?|h)\b", low)
    )
    if not m:
        m2 = rx.search(
            rf"(?:audio|podcast|recording|meeting|call)s?\s(?:of|that(?:'s| is))\s{_NUM}"
            r"\s?(hours?|hrs?|minutes?|mins?)",
            low,
        )
        if not m2:
            return None
        value, unit = _number(m2.group(1)), m2.group(2)
    else:
        n, k, unit = m.groups()[:3] if m.group(1) else m.groups()[3:6]
        value = _number(n) * (1000 if k else 1)
    return value / 60 if unit.startswith("m") else value


def _resolution(low: str) -> int | None:
    # "a used 3090 at 650 or a 4070 ti super at 800": a card's price, not a picture's side
    if rx.search(r"\b(?:used|new|buy\w*|price\w*|sell\w*|bucks|quid|for sale)\b|[$€£]", low):
        low = _PRICED_CARD.sub(" ", low)
    # "1024 by 1024": a picture's sides, both multiples of 8 (not "a 4090 by 2025")
    low = rx.sub(r"\b(\d{3,4}) by (\d{3,4})\b",
                 lambda m: (f"{m.group(1)}x{m.group(2)}"
                            if int(m.group(1)) % 8 == 0 == int(m.group(2)) % 8 else m.group(0)),
                 low)  # fmt: skip
    m = rx.search(
        r"\b(\d{3,4})\s?x\s?(\d{3,4})\b|\b(\d{3,4})\s?(?:px|p|pixels?)\b"
        r"|\bat (\d{3,4})\b(?!\s?(?:tokens|steps|w\b|images|pictures|pics|renders|photos|each\b"
        r"|bucks|dollars|euros?|pounds|quid|usd|eur|gbp))"
        r"|\b(\d{3,4})\s?(?:res|resolution|square|squared)\b"  # "1024 square"
        # "one 1024 tile", "a 768 image", "512 renders": a picture's side
        # (one of them: "per 1000 images" counts images, a cost's unit)
        r"|\b(?:one|a|each|per|every) (\d{3,4}) (?:tile|image|pic|picture|render|frame)\b"
        r"|\bres(?:olution)?\s?(?:of\s)?(\d{3,4})\b"
        r"|\bsteps,\s(\d{3,4})\b(?!\s?\w)"  # "2000 steps, 1024"
        r"|\b(\d{3,4})\s\d{1,3}\s?steps\b"  # "flux dev 1024 28 steps"
        # "imgsz=640", "image size 640"
        r"|(?:\bimgsz|\bimg[_ ]?size|\bimage[_ ]size|--img)\s?(?:of\s)?[=:]?\s?(\d{3,4})\b"
        r"|(?<=[a-z\d])\s?@\s?(\d{3,4})\b(?!\s?(?:tokens|steps|w\b|mhz|hz|fps))",  # "yolov8m @640"
        low,
    )
    if not m:
        return None
    value = int(next(g for i, g in enumerate(m.groups()) if g and i != 1))
    if m.group(3) and m.group(0).endswith("p") and _VIDEO.search(low):
        return None  # "a 1080p camera feed": the video's lines; a detector resizes each frame
    return value if 64 <= value <= 8192 else None


_VIDEO = re.compile(r"\b(?:feeds?|streams?|cameras?|cams?|footage|fps|cctv|webcam)\b")
_PRICED_CARD = re.compile(
    r"\b(?:\d{4}|[a-z]\d{2,4}|ti|super|xtx?|\d+\s?gb)(?:\s(?:ti|super|xt|xtx|\d+\s?gb))*\s(?:at|for)\s"
    r"\d{3,4}\b(?!\s?(?:px|p\b|x\s?\d|res))"
)


_TRAINING_SAID = re.compile(
    r"\b(?:pre-?)?train\w*|\bloras?\b|\bfine-?tun\w*|\bdreambooth\b|\bkohya"
)
# the most steps a sampler runs for one image (more are a training run's)
SAMPLER_STEPS = 1000


# a run part done: "on step 12000 of 50000"
STEP_OF = re.compile(r"\bstep (\d[\d,]*) (?:of|/|out of) (\d[\d,]*)\b")
_PER_STEP = re.compile(r"\bs(?:ec(?:ond)?s?)?\s?/\s?(?:step|it)\b|\bseconds? (?:per|a) step\b")


def _run_steps(low: str) -> bool:
    """A training run's steps, not a sampler's ("SDXL stuck at step 20 of 30" is an image's):
    a time per step, or training said."""
    return bool(_PER_STEP.search(low) or _TRAINING_SAID.search(low))


def _steps(low: str, trained: bool = False) -> int | None:
    """The steps said: a run's (`trained`, or training said in `low`) or a sampler's (few)."""
    if (at := STEP_OF.search(low)) and _run_steps(low):
        done, total = (int(g.replace(",", "")) for g in at.groups())  # "on step 12000 of 50000"
        if 0 <= done < total:
            return total - done  # the steps left
    m = rx.search(r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k|mil|thousand|m|million)?\s?"
                  r"(?:sampling |denoising |inference |training )?steps?\b"
                  r"|\bmax_(?:train_)?steps\s?(?:[=:]|is|of)?\s?(\d+)", low)  # fmt: skip
    if not m:
        return None
    # "120k steps", "120 mil steps" (Portuguese and Spanish thousands), "1M steps"
    scale = {"m": 10**6, "million": 10**6}.get(m.group(2) or "", 1000 if m.group(2) else 1)
    value = int(_number((m.group(1) or m.group(3)).replace(",", "")) * scale)
    # a sampler's steps are few; a training run's many ("3000 steps" of a LoRA)
    trained = trained or bool(_TRAINING_SAID.search(low) or _STEP_TIME.search(low))  # or its time
    return value if 1 <= value <= (10**7 if trained else SAMPLER_STEPS) else None


# a supply of its own, off the grid: its watts bound the whole machine
OFF_GRID = (
    r"solar(?: panels?| array| setup| system| power)?|panels?|inverter|battery bank|generator"
)


def _power(low: str) -> float | None:
    m = rx.search(
        r"(?:under|below|at most|max(?:imum)?|less than|<=?|\u2264|=<|within|no more than|up to)"
        # "max power 300W per card", "maximum board power of 250 w"
        r"(?:\s(?:board\s)?(?:power|draw|tdp|power draw)(?:\s(?:of|is))?)?"
        r"\s?(\d[\d,]*)\s?"
        r"(?:w|watts?)\b|(\d[\d,]*)\s?(?:w|watts?)\s(?:(?:power|draw|tdp)\s)?"
        r"(?:psu|limit|cap|max|budget|or less|at most|tops|slot|envelope|ceiling"
        r"|(?:\w+ )?power supply|(?:\w+ )?psu)"  # "a single 1,600 W power supply"
        r"|\b(?:capped|limited|cap|handles?|takes?|supplies|supply|provides?|gives?|spare)\s"
        r"(?:at |to |around |of )?(?:about |around |~|only )?(\d[\d,]*)\s?"
        r"(?:w|watts?)\b",  # "power-capped around 35W", "the circuit can handle about 600W"
        low,
    )
    if m:
        return _number(m.group(1) or m.group(2) or m.group(3))
    # what an off-grid supply gives: "off grid with 300W of solar", "my inverter is 600 W"
    m = rx.search(
        rf"(\d[\d,]*)\s?(?:w|watts?)\s(?:of\s)?(?:{OFF_GRID})\b"
        rf"|\b(?:{OFF_GRID})\b[^.?!\d]{{0,30}}?\b(?:is|gives?|provides?|makes?|produces?|puts out"
        r"|of|at|rated)\s(?:me\s|us\s)?(?:about\s|around\s|~|only\s|maybe\s)?(\d[\d,]*)\s?(?:w|watts?)\b",
        low,
    )
    if m:
        return _number(m.group(1) or m.group(2))
    # "a 2 kW circuit", "a 1,800 W breaker": what the wall gives the whole machine
    m = rx.search(r"\b(\d+(?:\.\d+)?)\s?(k)?(?:w|watts?)\s(?:\w+\s)?(?:circuit|breaker|outlet)\b",
                  low)  # fmt: skip
    if m:
        return float(m.group(1)) * (1000 if m.group(2) else 1)
    # "our rack circuit allows about 2 kW for GPUs", "a 1.5 kW power budget"
    m = rx.search(
        r"\b(?:allows?|allowed|limit(?:ed)? (?:to|of)|budget of|cap of|ceiling (?:of|is|at))\s"
        r"(?:about |around |~|up to )?"
        r"(\d+(?:\.\d+)?)\s?(k)?(?:w|watts?)\b|(\d+(?:\.\d+)?)\s?(k)(?:w|watts?)\s(?:power )?"
        r"(?:budget|limit|cap|max)\b",
        low,
    )
    if not m:
        return None
    value, kilo = _pair(m)
    return float(value) * (1000 if kilo else 1)


# a tokens/s figure written with a number ("1,800 tok/s", "25k tokens per second")
_RATE = re.compile(
    r"(?<![\w.])(?<![+&] )(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?(\+)?\s?(?:(?:output"
    r"|generated|aggregate|decode|total|generation) )?"
    r"(?:tok(?:en)?s?\s?(?:/|per|a)\s?s(?:ec(?:ond)?)?\b|t/s\b|tps\b)"
)
# the words before a rate wanted, not had: "we need 25k tok/s peak", "a target of 3,000 tok/s"
_WANTED_BEFORE = re.compile(
    r"\b(?:need|needs|want|wants|require\w*|target\w*|goal|peak|must|sla|expect\w*"
    r"|ha(?:s|ve) to|got to|gotta)\b"
    # ("i want to run llama 3 8b at 1000 tok/s": a model's name between, the rate after "at")
    r"(?:[^.?!\d]{0,25}|[^.?!]{0,40}\bat\s?)$"
)


# a rate each user wants: "each wants ~20 tok/s", "every user needs 15 t/s", "20 tok/s per user"
EACH_USERS_RATE = re.compile(
    r"\b(?:each|every(?:one| user| one)?)\b(?: (?:user|person|one|of them|chat))? (?:wants|needs|"
    r"should get|must get|gets|expects)\b[^.?!\d]{0,12}\d|(?:/|per|a)\s?s(?:ec(?:ond)?)?\b\s?"
    r"(?:each|per (?:user|person|head|stream|seat|chat))\b|\b(?:tok(?:en)?s?|t)/s (?:each|per "
    r"(?:user|person|head|stream|seat|chat))\b"
)


_TOTAL_AFTER = re.compile(r"\s?(?:in )?(?:total|aggregate|overall|combined)\b")
_SERVE_BEFORE = re.compile(r"\b(?:serve|serving|handle|deliver|sustain)\b[^?!]{0,60}$")


# a speed the user has seen: "we measured ~2500 tok/s aggregate", "we're getting 1,800 tok/s total"
_HAD_BEFORE = re.compile(
    r"\b(?:measured|measuring|benchmarked|seeing|see|saw|getting|get|got|hitting|hit|pushing"
    r"|observed|clocked|averag\w*)\b[^.?!\d]{0,15}$"
)


def _measured_and_needed(low: str) -> tuple[float | None, float] | None:
    """Two speeds, one wanted and one had: "we measured 1,800 tok/s on one A10G; we need 25k
    tok/s peak" -> (1800, 25000), whichever comes first; one speed wanted alone: "we need 5000
    tokens/sec aggregate" -> (None, 5000)."""
    rates = list(_RATE.finditer(low))
    if len(rates) == 1 and EACH_USERS_RATE.search(
        low[max(0, rates[0].start() - 30) : rates[0].end() + 12]
    ):
        return None  # "200 users ..., each wants ~20 tok/s": one user's pace, not the total
    # ("runs llama 3.1 8b at 50+ tok/s", "at least 50 tok/s": a floor, wanted)
    if len(rates) == 1 and (_WANTED_BEFORE.search(low[: rates[0].start()]) or rates[0].group(3)
                            or rx.search(r"\bat least\s?$|\bmin(?:imum)?\.?\s?(?:of\s)?$",
                                         low[: rates[0].start()])
                            # "serve llama 3.1 8b at 1000 tokens/s total": all streams together
                            # (a total had, "pushes 1,500 tokens/s total", is no want)
                            or (rx.match(_TOTAL_AFTER, low[rates[0].end() :])
                                and rx.search(_SERVE_BEFORE, low[: rates[0].start()])
                                and not _HAD_BEFORE.search(low[: rates[0].start()]))
                            ):  # fmt: skip
        return None, float(rates[0].group(1).replace(",", "")) * (1000 if rates[0].group(2) else 1)
    if len(rates) != 2:
        return None
    wanted = [m for m in rates if _WANTED_BEFORE.search(low[: m.start()])]
    if len(wanted) != 1:
        return None
    had = next(m for m in rates if m is not wanted[0])
    had_value, wanted_value = (
        float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1) for m in (had, wanted[0])
    )
    return had_value, wanted_value


def _tokens_per_s(low: str) -> float | None:
    """A speed the user gives: "pushing 2500 tok/s", "assume 1,500 tok/s aggregate", "about
    3000 tokens per second" (a number written with it; "how many tok/s" asks one)."""
    m = _RATE.search(low)
    if not m:
        # "want under 50ms per token": one stream's pace, as tokens a second
        per = _MS_PER_TOKEN.search(low)
        return 1000 / float(per.group(1)) if per and float(per.group(1)) > 0 else None
    return float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)


_MS_PER_TOKEN = re.compile(
    r"\b(?:under|below|at most|less than|max(?:imum)?|within|<)\s?(\d+(?:\.\d+)?)\s?ms\s?"
    r"(?:per|a|/|each)\s?(?:output )?(?:token|tok)\b"
)


# the user's money in another currency than the catalog's US dollars
_CURRENCIES = (
    ("R$", r"\br\$|\bbrl\b|\breais\b"),
    ("€", r"€|(?<![\w.])\d[\d.,]*\s?(?:k\s?)?(?:eur|euros?)\b|\b(?:eur|euros?)\s?\d"),
    (
        "£",
        r"£|\bgbp\b|\bpounds? (?:sterling|an? (?:hour|month|kwh|unit)|per)\b|\bquid\b"
        # "700 pounds for their 3090" (money; a card's weight is said in kg or lbs)
        r"|(?<![\w.])(?<!weighs )(?<!weigh )(?<!weighing )(?<!weighs about )(?<!weighs around )"
        r"(?<!weighs like )\d[\d.,]*\s?k?\s?pounds?\b(?! (?:heavy|of weight|in weight))"
        r"|(?<![\w.])\d[\d.,]*\s?(?:pence|p (?:a|per) unit|p\s?(?:/|a|per)\s?kwh)\b",
    ),
    # Swedish, Norwegian and Danish crowns ("2,10 kr/kWh"): written after the amount
    ("kr ", r"(?<![\w.])\d[\d.,]*\s?(?:k\s?)?(?:kr|sek|nok|dkk)\b|\bkronor\b|\bkroner\b"),
    # the others by their ISO code, which `normalise` writes after each amount ("60 RUB")
    # ("10k AUD": a thousands' k between the amount and its code)
    # ("10 grand AUD", "5 thousand CHF")
    *(
        (f"{code} ", rf"(?<![\w.])\d[\d.,]*\s?(?:k\s?|grand\s|thousand\s)?{code.lower()}\b")
        for code in FX_CODES
    ),
)


def _thousands_dots(low: str) -> str:
    """ "R$ 5.000", "3.500 euros", "€1.200", "7 000 kr": dots or spaces that group thousands
    beside another currency than the dollar, written without them ("5000")."""
    return rx.sub(
        r"(?:(?<=r\$)|(?<=r\$ )|(?<=eur )|(?<=eur)|(?<=€)|(?<=€ ))(\d{1,3}(?:\.\d{3})+)(?![\d,])"
        r"|(?<![\d.,$])(\d{1,3}(?:[.\u00a0\u202f ]\d{3})+)(?=\s?(?:reais|euros?|eur|kr|isk|rsd"
        r"|dinara?|nok|sek|dkk|pln|czk|huf|ron|try|idr|vnd|zł|kč|ft|chf|rub|\u0440\u0443\u0431\w*|₽|€)(?!\w))",
        lambda m: rx.sub(r"[.\u00a0\u202f ]", "", m.group(1) or m.group(2)),
        low,
    )


def _currency(low: str) -> str:
    """The sign of the user's money: "$" unless another currency is written beside an amount
    and no dollar amount is (a message in two currencies keeps the catalog's dollars)."""
    # ("how much is that in dollars?": dollars asked for, beside no amount, are no money of the
    # user's)
    dollars = rx.sub(r"\b(?:in|into|to|em|en|para|a) (?:us )?(?:dollars?|usd|d[oó]lar(?:es)?)\b",
                     " ", low.replace("r$", ""))  # fmt: skip
    if rx.search(r"\$|\busd\b|\bdollars?\b", dollars):
        return "$"
    return next((sign for sign, cue in _CURRENCIES if rx.search(cue, low)), "$")


def _kwh_price(low: str) -> float | None:
    """An electricity price: "$0.30/kWh", "0.21 USD per kWh", ".30/kwh", "28 cents a kwh", "15p a
    unit" (pence; a British "unit" of electricity is a kWh)."""
    m = rx.search(
        r"(?<![\w.,])(\d+(?:\.\d+)?|\d,\d{1,3}(?!\d)|\.\d+)\s?(cents?|c|ct|p|pence|usd|eur|gbp|brl|\$"
        rf"|dollars?|euros?|pounds?|reais|kr|sek|nok|dkk|{_FX_RE[5:-3]})?\.?\s?"
        # ("0.12 JOD for every kWh"; German "0,35 € pro kWh", "je kWh")
        r"(?:/|per|pro|je|a|an|the|o|for (?:every|each|one|a|an|1))\s?"
        r"(?:kwh\b|kwj\b|unit\b(?= of (?:electricity|power))|(?<=p a )unit\b"
        r"|(?<=p per )unit\b|(?<=pence a )unit\b|(?<=pence per )unit\b)",
        low,
    )
    # "а кВт·год коштує 4,32 грн" (Ukrainian): its price after the unit  # noqa: RUF003
    m = m or rx.search(
        rf"\bkwh\b(?:\s[^\s\d.?!,;]+){{0,2}}\s(?:is\s|=\s?|:\s?)?(\d+(?:\.\d+)?|\d,\d{{1,3}}(?!\d))\s?"
        rf"(cents?|ct|usd|eur|gbp|{_FX_RE[5:-3]})\b",
        low,
    )
    # "kWh price 0.31", "kwh is 0.28": the price after the unit, its currency the message's
    m = m or rx.search(
        r"\bkwh\s(?:price|rate|tariff|costs?|is|=|:|at)\s?(?:is\s|of\s|=\s?|:\s?|at\s|about\s|~)?"
        r"(\d?\.\d+|\d,\d{1,3}(?!\d))()(?![\d%]|\s?(?:w|kw|gb|hours?|h|cents?|ct|p)\b)",
        low,
    )
    # "power 0.15 usd", "electricity is $0.30": an amount under a few dollars said of the power
    # is its price per kWh (no card or hour costs that little a unit)
    m = m or rx.search(
        r"\b(?:power|electricity|energy|electric)\s(?:costs?\s|is\s|price\s|rate\s|at\s|@\s?)?"
        r"(?:about\s|around\s|~)?\$?(\d?\.\d+|\d,\d{1,3}(?!\d))\s?(usd|eur|gbp|\$|dollars?|euros?"
        r"|cents?|ct)?(?![\d%]|\s?(?:/|per|an?|each)\s?(?:h|hr|hour|month|mo|day)\b)",
        low,
    )
    # "what does it cost per month if i run it 12h/day at 28 cents" (a card's power asked): cents
    # with no unit, in a message about power, are its price per kWh
    m = m or (
        rx.search(
            r"\bat\s(\d+(?:\.\d+)?)\s?(cents?|ct|p|pence)\b(?!\s?(?:/|per|an?|each)\s?"
            r"(?:h|hr|hour|month|mo|day|token|image|min\w*)\b)",
            low,
        )
        if rx.search(r"\b(?:power|electricity|draw\w*|watts?|energy|kwh)\b", low)
        else None
    )
    # "we pay 38c a unit" (Irish and British bills price the kWh as a unit), of a bill or a draw
    m = m or (
        rx.search(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?(c|cents?|ct|p|pence)\s?(?:a|per|/)\s?unit\b", low)
        if rx.search(r"\b(?:power|electricity|bill|draw\w*|pulls?|watts?|energy)\b|\d\s?w\b", low)
        else None
    )
    if not m:
        return None
    value = float(m.group(1).replace(",", "."))  # "R$ 0,95 the kWh": a decimal comma
    cents = (m.group(2) or "").lower() in ("cent", "cents", "c", "ct", "p", "pence")
    return value / 100 if cents else value  # ("0.35 CHF/kWh" is francs, not cents)


_WATTS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(k?w|watts?)\b(?!h)")


# a requirement a card must meet, in a tender or a spec sheet: "min. 80 GB GPU memory", "NVLink
# bandwidth of at least 400 GB/s per GPU", "max. 600 W per card"
_REQUIRED = re.compile(
    r"\b(?:(at least|min(?:imum)?\.?(?: of)?|no less than|not less than|>=|\u2265)"
    r"|(at most|max(?:imum)?\.?(?: of)?|no more than|not more than|<=|\u2264))\s?"
    r"(\d[\d,]*(?:\.\d+)?)\s?(gb/s|tb/s|gbps|gb|tb|kw|w|tflops)\b"
)
# words that ask whether a card meets requirements
_COMPLIANCE = re.compile(
    r"\bcomplian\w*|\bcompl(?:y|ies)\b|\bmeets? (?:th(?:at|is|ese|ose|e)|our|my|item|it|them)\b"
    r"|\bqualif\w*|\bsatisf(?:y|ies)\b|\bfulfil\w*"
)


def _requirements(low: str) -> tuple[tuple[str, str, float], ...]:
    """(field, ">=" or "<=", value) for each figure a card is required to reach or stay under,
    when the message asks whether it does."""
    if not _COMPLIANCE.search(low):
        return ()
    found = []
    for m in _REQUIRED.finditer(low):
        value, unit = _number(m.group(3)), m.group(4)
        # the words of the requirement's own clause, up to the figure and just after it
        start = max((low.rfind(p, 0, m.start()) for p in ",;:.\n"), default=-1) + 1
        before, after = low[max(start, m.start() - 40) : m.start()], low[m.end() : m.end() + 20]
        after = rx.split(r"[,;:.\n]| and ", after, maxsplit=1)[0]
        before = rx.split(r" and ", before)[-1]
        if unit in ("gb/s", "tb/s", "gbps"):
            link = rx.search(r"nv ?link|interconnect|gpu[- ]to[- ]gpu|p2p", before + after)
            field = "interconnect_gbs" if link else "bandwidth_gbs"
            value *= 1000 if unit == "tb/s" else 1
        elif unit in ("gb", "tb"):
            if not rx.search(
                r"\bvram\b|\bgpu memory\b|\bmemory\b|\bhbm|\bgddr", before + after
            ) or (
                rx.search(
                    r"storage|nvme|ssd|disk|system (?:ram|memory)|host|\bram\b", before + after
                )
            ):
                continue  # "at least 2 TB of NVMe storage": no figure of the GPU's
            field, value = "memory_gb", value * (1000 if unit == "tb" else 1)
        elif unit in ("w", "kw"):
            field, value = "tdp_w", value * (1000 if unit == "kw" else 1)
        else:  # the format named next to the figure: "19 TFLOPS FP64", "FP64 of at least 19"
            near = rx.match(r"\s?(fp64|fp32|fp16|bf16|fp8|tf32)\b", after) or next(
                iter(reversed(list(rx.finditer(r"\b(fp64|fp32|fp16|bf16|fp8|tf32)\b", before)))),
                None,
            )
            name = near.group(1) if near else "fp16"
            field = {"fp64": "fp64_tflops", "fp32": "fp32_tflops", "fp8": "fp8_dense_tflops",
                     "tf32": "tf32_dense_tflops"}.get(name, "fp16_bf16_dense_tflops")  # fmt: skip
        found.append((field, ">=" if m.group(1) else "<=", value))
    return tuple(found)


# what owning costs each month besides power: "$40 a month of colocation", "rack space at $120/mo"
_UPKEEP = re.compile(
    r"\$\s?(\d[\d,]*(?:\.\d+)?)\s?(?:usd\s)?(?:a|per|/)\s?mo(?:nth)?\b[^.?!$]{0,20}?\b"
    r"(?:colocation|colo|hosting|rack(?: space)?|housing)\b"
    r"|\b(?:colocation|colo|hosting|rack(?: space)?|housing)\b(?: fees?| costs?)?(?: of| at| is|:)?"
    r"\s?\$\s?(\d[\d,]*(?:\.\d+)?)\s?(?:usd\s)?(?:a|per|/)\s?mo(?:nth)?\b"
)


def _upkeep(low: str) -> float | None:
    m = _UPKEEP.search(low)
    return _number(m.group(1) or m.group(2)) if m else None


def _idle_hours(low: str, hours: float | None) -> float | None:
    """The hours a machine sits idle beside its loaded hours: "loaded 6h a day and idle the other
    18" over the days the loaded hours cover."""
    daily = rx.search(
        r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:h|hrs?|hours?)\s(?:a|per|/|each|every)\s?day\b", low
    )
    if not (hours and daily) or not 0 < (loaded := float(daily.group(1))) < 24:
        return None
    if rx.search(r"\b(?:switched|turned|shut|powered) (?:it )?(?:off|down)\b|\bweek(?:day|end)s?\b"
                 r"|\bdays? (?:a|per) week\b", low):  # fmt: skip
        return None  # off the rest of the day, or days of the week left out: not all idle
    return (24 - loaded) * hours / loaded


# "rest of the system is ~150w", "everything else pulls 200 W": the rest of the machine's draw
_REST_OF_THE_BOX = (
    r"\b(?:(?:the )?rest(?: of (?:the |my )?(?:system|rig|box|machine|pc|build))?|everything"
    r" else)\s(?:another\s|still\s)?(?:is\s|at\s|draws\s|pulls\s|uses\s|adds\s)?"
    r"(?:roughly\s|about\s|around\s|ca\.?\s|approx\.?\s|circa\s|~)*$"
)


def _draw(low: str) -> tuple[float | None, float | None, bool, float | None]:
    """A power draw the user states (not a limit: "under 300 W" is max_power_w, nor a supply:
    "a 1000w psu"): the first is the GPUs' or the rig's ("pulling 450W", "~550w at the wall"),
    per GPU when said so ("at 350 W each"); one after "plus", "+" or "and another" is the rest of
    the system; one said of idle ("~110W idle") is the draw when not loaded. (draw, rest, draw
    is per GPU, idle draw)."""
    draw = other = idle = None
    each = False
    each_after = r"\s?(?:each|apiece|per (?:card|gpu)|a (?:card|gpu)|var|cada)\b"
    for m in _WATTS.finditer(low):
        before, after = low[max(0, m.start() - 24) : m.start()], low[m.end() : m.end() + 20]
        wider = low[max(0, m.start() - 40) : m.start()]  # "everything else pulls about 200W"
        # "power limited to 280W each", "3090s capped at 280 W": the cap the user set on the
        # cards, which is what each draws (a cap of the rig or circuit stays a limit)
        capped = rx.search(r"\b(?:capp?ed|(?:power[- ]?)?limited)\s(?:at|to)\s~?$", before)
        # "if i power limit them to 250w", "cap each at 280 W": a cap set on every card
        them = rx.search(r"\b(?:cap|(?:power[- ]?)?limit)\s(?:them|each|all(?: of them)?|the "
                         r"(?:cards|gpus))\s(?:at|to)\s~?$", before)  # fmt: skip
        if them and draw is None:
            draw, each = float(m.group(1)) * (1000 if m.group(2).startswith("k") else 1), True
            continue
        if capped and (
            rx.match(each_after, after)
            or rx.search(
                r"(?:each|cards?|gpus?|\d0[5-9]0s?|them|all)\s(?:power[- ]?)?\w+\s\w+\s~?$", before
            )
        ):  # fmt: skip
            if draw is None:
                draw, each = float(m.group(1)) * (1000 if m.group(2).startswith("k") else 1), True
            continue
        if rx.search(r"(?:under|below|at most|max(?:imum)?|less than|<|within|no more than|cap"
                     r"\w*|limit\w*)\s?(?:(?:board\s)?(?:power|draw|tdp)\s)?(?:of\s|at\s|to\s"
                     r"|is\s)?~?$", before) or rx.match(
            r"\s?(?:psu|power supply|limit|max|budget|or less|tdp)", after
        ):  # fmt: skip
            continue
        watts = float(m.group(1)) * (1000 if m.group(2).startswith("k") else 1)
        if rx.match(r"\s?(?:at |when |while |(?:at|when) )?idl(?:e|ing)\b", after) or rx.search(
            r"\bidl(?:e|es|ing)\s(?:at\s|draw\s|of\s|is\s|~|about\s|around\s)*$", before
        ):
            idle = watts  # "~110W idle", "idles at 90 W"
        elif (
            idle is not None
            and draw is None
            and rx.match(
                r"\s?(?:under|at|on|with) (?:full |heavy )?load\b|\s?(?:loaded|when busy)\b", after
            )
        ):
            draw = watts  # "idle draw is 60W and 450W under load": the loaded draw
        elif (
            rx.search(r"(?:plus|\+|and another|and)\s(?:roughly\s|about\s|~)?$", before)
            or rx.search(_REST_OF_THE_BOX, wider)
            # "150W for the rest" (not "350 W, the rest of the machine 150 W": the rest's own)
            or rx.match(
                r"\s?(?:for )?(?:the )?rest\b(?![^.,;]{0,30}?\d+\s?w\b)"
                r"(?! of (?:the |my )?(?:day|night|evening|morning|afternoon|time"
                r"|week|month|year|session|run|job|hours?)\b)",
                low[m.end() : m.end() + 50],
            )
        ):
            other = (other or 0) + watts
        elif draw is None:
            draw = watts
            # "450 W each", "450 W var" (Swedish), "450 W cada una"; "assume each sits at its
            # full 350 W": each card's draw, said before
            each_before = (
                r"\beach\b[^.?!,]{0,25}$|\bper (?:card|gpu)\b[^.?!,]{0,15}$"
                r"|\b\d+\s?x\s?$"
            )  # "4 x 350 W": each of the four
            each = bool(rx.match(each_after, after) or rx.search(each_before, before))
    return draw, other, each, idle


# two draws set side by side: "115 W vs 350 W", "the 4060 draws 115 W and the 3090 350 W"
_DRAW_AGAINST = re.compile(
    r"(?:\bvs\.?|\bversus|\bor|\bagainst|\bcompared (?:to|with)|\band|\bwhile|\bbut)"
    r"(?: (?:the |my |a |his |her )?[a-z\d][\w -]{0,24}?"
    r"(?:\s(?:draws?|pulls?|uses?|takes?|at|is))?)?"
    r"\s?(?:about |around |~)?$|\bto\s?$"
)


def _draws_compared(low: str) -> tuple[float, ...]:
    """Two draws the question sets against each other, in the order said (the first a draw, not
    a limit or a supply); () when it says one or none."""
    not_a_draw = r"\s?(?:psu|power supply|limit|max|budget|or less|idle)"
    said = [m for m in _WATTS.finditer(low) if not rx.match(not_a_draw, low[m.end() :])]
    for first, second in itertools.pairwise(said):
        between = low[first.end() : second.start()]
        rest = rx.search(r"\b(?:rest|everything else|plus|another)\b|\+", between)
        if len(between) > 40 or not _DRAW_AGAINST.search(between) or rest:
            continue
        if rx.search(r"(?:under|below|at most|max|less than|within|no more than|cap\w*|limit\w*)"
                     r"\s?~?$", low[max(0, first.start() - 16) : first.start()]):  # fmt: skip
            continue
        watts = [float(m.group(1)) * (1000 if m.group(2).startswith("k") else 1)
                 for m in (first, second)]  # fmt: skip
        return tuple(watts) if watts[0] != watts[1] else ()
    return ()


# a "why" asked alone after an answer: "why?", "how come?", "why that one?"
_WHY_ALONE = re.compile(
    r"\W*(?:(?:but|and|ok|okay|so|hmm|really)\W+)?(?:why|how come|why so|why is that|why that one"
    r"|why not the other one|what makes it better|on what basis)\W*"
)


# a follow-up that is only an amount of memory: "and 12gb?", "what about 16 gigs"
_MEMORY_ALONE = re.compile(
    r"\W*(?:and|or|what about|how about|with|then|ok)?\s?(\d+(?:\.\d+)?)\s?(?:gb|g|gigs?)\W*"
)


def _memory_without_gpu(low: str, gpus: tuple[GpuRef, ...]) -> float | None:
    """'a 24 GB card', '16 gigs of vram', 'a 48gb gpu': memory asked for with no GPU named."""
    stated = {g.memory_gb for g in gpus if g.memory_gb}
    if not gpus and (alone := _MEMORY_ALONE.fullmatch(low)):  # "and 12gb?": a card of that much
        return float(alone.group(1))
    # "a ryzen 7 and 32gb ram": the machine's RAM, not a GPU's memory
    host = [r.span() for r in _RAM_SIZE.finditer(low)]
    for m in rx.finditer(
        r"(\d+(?:\.\d+)?)\s?(?:gb|g|gigs?|gib)\b\s?(?:of\s)?(vram|memory|gpu|card|"
        r"graphics card|cards|gpus|ram|unified memory)?",
        low,
    ):
        value = float(m.group(1))
        if value in stated or any(a <= m.start() < b for a, b in host):
            continue
        before = low[max(0, m.start() - 30) : m.start()]
        after = low[m.end() : m.end() + 20]
        if m.group(2) or rx.search(
            r"(?:with|has|have|had|got|having|only|just|a|an|my|one|of|in|on|into|onto|within|want|need"
            r"|at least|min(?:imum)?|over|above)\s$",
            before,
        ):
            return value
        # "16gb+", "24 gb or more", "is 24gb enough to full finetune a 1.5b?"
        # ("is 12gb too little for mistral 7b?", "is 16gb not enough": the size weighed)
        if rx.match(r"\+|\s?(?:or more|minimum|min\b|and up|(?:be |is )?(?:not )?enough\b"
                    r"|too (?:little|small|tight)\b)", after):  # fmt: skip
            return value
        # "the Mac mini ... if I paid extra for the 24GB one": a version of the machine named
        version = rx.match(r"\s?(?:one|version|model|variant)\b", after)
        if version and rx.search(r"\bthe\s$", before):
            return value
    return None


# the words of a memory-type question that also say "memory": "what memory type", "does its
# memory have ECC", "HBM memory"
_MEMORY_TYPE_WORDS = re.compile(
    r"\bmemory type\b|\btype of memory\b|\bkind of memory\b|\bwhat memory\b|\becc memory\b"
    r"|\b(?:hbm\w*|gddr\w*) memory\b|\bmemory (?:is )?(?:hbm\w*|gddr\w*)\b"
    r"|\bmemory(?= (?:have|has|is|use|uses|support|supports|got) (?:\w+ )?ecc\b)"
)


def _fields(low: str) -> tuple[str, ...]:
    found = [name for name, pattern in FIELD_WORDS.items() if rx.search(pattern, low)]
    if (
        "unified_memory" in found
        and "memory_gb" in found
        and not rx.search(FIELD_WORDS["memory_gb"], rx.sub(FIELD_WORDS["unified_memory"], " ", low))
    ):
        found.remove("memory_gb")  # "is that memory shared with the CPU?": not its size
    if "fp8_dense_tflops" in found and not rx.search(r"\b(?:t?flops|compute|rate|throughput"
                                                     r"|support\w*|tensor)\b", low):  # fmt: skip
        # "and in fp8?", "run it at fp8": the format to answer in, not the FP8 rate asked
        said = [m.start() for m in rx.finditer(r"\bfp8\b", low)]
        if all(rx.search(r"\b(?:in|at|using|with|to|into)\s$", low[:at]) for at in said):
            found.remove("fp8_dense_tflops")
    if "bandwidth_gbs" in found and "memory_gb" in found:
        rest = rx.sub(
            r"\bmemory (?:band ?width|bandwith|speed)\b|\bmem(?:ory)? bw\b|\bbanda de mem[oó]ria\b"
            r"|\b(?:faster|quicker) memory\b|\bmemory (?:faster|quicker)\b",
            " ",
            low,
        )
        if not rx.search(FIELD_WORDS["memory_gb"], rest):  # "memory" only as in "memory bandwidth"
            found.remove("memory_gb")
    if "tensor_cores" in found and "cuda_cores" in found and "cuda core" not in low:
        found.remove("cuda_cores")
    if "tensor_cores" in found and not rx.search(
        r"(?<!\bno )(?<!\bwithout )(?<!\bnot using )(?<!\bnot on )(?<!\bnever uses )"
        r"(?<!\bdoesn't use )(?<!\bdoes not use )\btensor cores?\b",
        low,
    ):
        found.remove("tensor_cores")  # "pure fp64, no tensor cores": the job's, not asked
    if ("fp64_tensor_tflops" in found and "fp64_tflops" in found
            and not rx.search(r"\b(?:fp64|double[- ]precision|float64)\b(?! (?:tensor|matrix))",
                              low)):  # fmt: skip
        found.remove("fp64_tflops")  # "FP64 tensor-core throughput": the tensor figure alone
    if "fp64_tensor_tflops" in found and "tensor_cores" in found and "how many" not in low:
        found.remove("tensor_cores")  # "the fp64 tensor core figure": a throughput, not a count
    if (
        "memory_type" in found
        and "memory_gb" in found
        and not rx.search(
            r"how much|how many|\b(?:memory|hbm\w*|gddr\w*) (?:capacity|size)\b"
            r"|\b\d+ ?gb of (?:hbm|gddr)\w*",  # "'256GB of HBM3E': right?": the size too
            low,
        )
        # "vram, bandwidth, and is either one ECC?": the size asked in words of its own
        and not rx.search(FIELD_WORDS["memory_gb"], _MEMORY_TYPE_WORDS.sub(" ", low))
    ):
        found.remove("memory_gb")
    if (
        "memory_type" in found
        and rx.search(  # "how much hbm", "hbm size": the amount
            r"\bhow (?:much|many gb of) (?:memory |vram )?(?:hbm|gddr)\w*"  # "how much memory HBM"
            r"|\b(?:hbm|gddr)\w* (?:size|capacity|amount)\b"
            r"|\b(?:size|capacity|amount) of (?:the )?(?:hbm|gddr)"
            r"|\bper[- ](?:gpu|accelerator|card|device|chip) (?:hbm|gddr)"  # "per-GPU HBM"
            r"|\b(?:hbm|gddr)\w* (?:per|on each|of each) (?:gpu|accelerator|card|device|chip)"
            # "hbm in G + bw", "hbm in gigs", "gddr in gb": the amount, in a unit
            r"|\b(?:hbm|gddr)\w* (?:in|as) (?:g|gb|gib|gigs?|gigabytes)\b",
            low,
        )
        and not rx.search(r"\b(?:type|kind|which memory|what memory)\b", low)
    ):
        found = ["memory_gb" if f == "memory_type" else f for f in found if f != "memory_gb"]
    if rx.search(r"\bmemory bus\b|\bbus width\b|\b\d+-?bit bus\b", low):  # the bus sets it
        found = [f for f in found if f != "memory_gb"] + (
            [] if "bandwidth_gbs" in found else ["bandwidth_gbs"]
        )
    if (
        "interconnect_gbs" in found
        and "bandwidth_gbs" in found
        and not rx.search(r"memory band", low)
    ):
        found.remove("bandwidth_gbs")
    if (
        len(found) > 1
        and "fp16_bf16_dense_tflops" in found
        and rx.search(r"\b(?:fp32|fp64|tf32|int8|fp8)\b", low)
        and not rx.search(r"\b(?:fp16|bf16)\b", low)
    ):
        found.remove("fp16_bf16_dense_tflops")  # "fp64 tflops": the fp64 figure
    return tuple(found)


def _job_free(fields: tuple[str, ...], low: str, models: tuple[ModelRef, ...]) -> tuple[str, ...]:
    """ "faster-whisper int8 on a 3060 or ...": a format beside a job is its precision, not a
    datasheet figure asked for."""
    formats = ("int8_dense_tops", "fp8_dense_tflops", "fp16_bf16_dense_tflops")
    if not any(f in formats for f in fields):
        return fields
    if not (models or family_hint(low) not in (None, "llm")):
        return fields
    asked = rx.search(r"\b(?:tflops|tops|flops|raw compute|compute (?:power|throughput))\b"
                      r"|\btensor (?:grunt|throughput|performance|power|compute)\b"
                      r"|\bhow much (?:more )?(?:fp16|bf16|fp8|int8)\b"
                      # "the memory, bandwidth and FP16 numbers", "which has usable FP16"
                      r"|\b(?:fp16|bf16|fp8|int8) (?:numbers?|figures?|rates?|specs?|performance"
                      r"|throughput|speed)\b|\b(?:usable|real|native|fast|proper) (?:fp16|bf16"
                      r"|fp8|int8)\b", low)  # fmt: skip
    return tuple(f for f in fields if f not in formats or asked)


# any of them, searched first: most questions name none (one search instead of a dozen)
_ANY_TRAIN_OPTION = re.compile("|".join(f"(?:{words})" for _, _, words in TRAIN_OPTION_WORDS))
_OPTIMIZER_WORDS = tuple(words for option, _, words in TRAIN_OPTION_WORDS if option == "optimizer")


def _train_options(low: str) -> tuple[tuple[str, object], ...]:
    """The fine-tuning memory options the words set, each option once (its first match)."""
    found: dict[str, object] = {}
    if not _ANY_TRAIN_OPTION.search(low):
        return ()
    for option, value, pattern in TRAIN_OPTION_WORDS:
        if option not in found and affirmed(pattern, low):
            found[option] = value
    return tuple(found.items())


def affirmed(pattern: str | re.Pattern[str], low: str) -> re.Match[str] | None:
    """The first match of `pattern` not negated just before ("no 8bit optimizer", "without
    deepspeed", "not vllm")."""
    compiled = _compiled(pattern)
    first = compiled.search(low)
    if first is None or not _NEGATED.search(low[max(0, first.start() - 24) : first.start()]):
        return first  # the common case: one search
    return next(
        (m for m in compiled.finditer(low)
         if not _NEGATED.search(low[max(0, m.start() - 24) : m.start()])),
        None,
    )  # fmt: skip


# the CPU alone runs the model: "cpu only", "no GPU", "without a graphics card", "on my CPU"
# "do i even need a gpu?": asked whether the CPU alone does the job (the handlers answer it so)
NEED_A_GPU = (r"\b(?:do|would|will) (?:i|we|you) (?:even |really |actually )?need an? "
              r"(?:dedicated |discrete )?(?:gpu|graphics card|video card)\b")  # fmt: skip
# an Intel laptop's integrated graphics, which run from the system RAM as the CPU does
INTEGRATED_GRAPHICS = (
    r"\b(?:intel )?(?:iris\s?xe|iris plus|uhd graphics|hd graphics)\b"
    r"|\bintegrated (?:gpu|graphics)\b|\bigpu\b"
)
_SHARED_RAM_NOTE = (
    "Integrated graphics run from the system RAM, at its bandwidth, as the CPU "
    "does: sized as the CPU path (llama.cpp)."
)
_CPU_ONLY = (
    r"\bcpu[- ]only\b|\bonly (?:on )?(?:the |my |a )?cpu\b"
    # "my cpu vs a 4070", "how much faster than the cpu": the CPU set against a card
    r"|\b(?:my|the|a|an|on) (?:[\w-]+ ){0,2}?cpu,? (?:vs\.?|versus|against|or)\b"
    r"|\b(?:vs\.?|versus|than|against) (?:my |the |a )?cpu\b"
    # "i only have a cpu"
    r"|\b(?:i|we) (?:only|just) (?:have|got) (?:a |an |the |my )?(?:\w+ )?cpu\b"
    r"|\b(?:just|purely) (?:on )?(?:the |my )?cpu\b"
    r"|\bno (?:dedicated |discrete |nvidia |real )?(?:gpu|graphics card|video card)\b"
    # "do i even need a gpu for whisper small?": whether the CPU alone does it
    rf"|{NEED_A_GPU}"
    r"|\bwithout (?:a |any )?(?:dedicated |discrete )?(?:gpu|graphics card|video card)\b"
    r"|\b(?:on|with) (?:the |my |a )?cpu\b(?![\s-]*offload)(?! and)(?! \+)|\bcpu inference\b"
    # "would an old laptop cpu work?", "is a desktop cpu enough?"
    r"|\b(?:old |laptop |desktop |plain |regular |ordinary )+cpus?\b(?! offload)"
    r"(?= (?:work|do|cope|be enough|suffice|handle|run)|\?| (?:enough|ok|fine))"
    # integrated graphics: "intel iris xe", "uhd graphics", "an igpu" (the system RAM's)
    rf"|{INTEGRATED_GRAPHICS}"
)
_RAM_KIND = re.compile(r"\b((?:lp)?ddr[345]x?)(?:[- ]?(\d{4}))?\b")
# "64GB RAM", "128 gigs of system memory", "96GB DDR5", "RAM: 64 GB"
_RAM_SIZE = re.compile(
    r"\b(\d+(?:\.\d+)?) ?(?:gb|gigs?|g|gib)\b(?: of)?(?: (?:(?:lp)?ddr[345]\S*|ecc|fast))? "
    r"?(?:ram\b|(?:system|host|main|cpu) (?:ram|memory)\b|(?:lp)?ddr[345])"
    r"|\b(?:ram|system memory)\s*[:=]?\s*(\d+(?:\.\d+)?) ?(?:gb|gigs?|g|gib)\b"
    # "DDR4-3200 128GB": the kind, then the size
    r"|\b(?:lp)?ddr[345]x?(?:[- ]?\d{4})?(?: ram)?,? (\d+(?:\.\d+)?) ?(?:gb|gib)\b"
)
_CHANNELS = re.compile(
    r"\b(single|dual|quad|hexa|six|octa|eight|twelve|\d{1,2})[- ]channels?\b"
    r"|\b(\d{1,2}) (?:memory )?channels\b"
)
_CHANNEL_WORDS = {"single": 1, "dual": 2, "quad": 4, "hexa": 6, "six": 6, "octa": 8, "eight": 8,
                  "twelve": 12}  # fmt: skip


# llama.cpp's layers on the GPU: "-ngl 40", "--n-gpu-layers 30", "n_gpu_layers=35", "40 gpu layers"
_NGL = re.compile(
    r"(?:(?<![a-z])-ngl|--n-gpu-layers|\bn_gpu_layers|\bnum_gpu)\s?[=:]?\s?(\d{1,4})\b"
    r"|\b(\d{1,3}) (?:gpu[- ])?layers (?:on|offloaded to) (?:the )?gpu\b"
)
# a word said as a cloud: "on vast", "azure vs lambda", "from lambda"
_AS_A_PLACE = (
    r"(?:(?<=\bon )|(?<=\bvs )|(?<=\bvs\. )|(?<=\bor )|(?<=\bfrom )|(?<=\bat )"
    r"|(?<=\bon a )|(?<=\bon an )|(?<=\bfrom a )|(?<=\bvia )|(?<=\bwith )|(?<=\bin )"
    # the same in the other languages people ask in: "na Lambda", "bei Lambda"
    r"|(?<=\bna )|(?<=\bbei )|(?<=\bchez )|(?<=\bsur )|(?<=\bauf )"
    r"|(?<=pod/)|(?<=pod / ))"
)  # fmt: skip  ("runpod/vast": the second of two clouds)
# ... or first of a list of them: "lambda vs runpod vs vast.ai", "lambda or runpod"
_BEFORE_ANOTHER = r"(?=\s?(?:,|vs\.?|versus|or)\s|\s?/\s?(?:run ?pod|aws|lambda|azure|gcp)\b)"
# other ways people name a cloud the price rows name: row's name -> words for it
_PROVIDER_WORDS = {
    "AWS": r"aws|amazon|ec2", "GCP": r"gcp|google cloud", "Azure": r"azure",
    # "vast" and "lambda" are words too: the cloud only by its full name or said as a place
    "Vast.ai": rf"vast(?:\.ai| ai)|vastai|{_AS_A_PLACE}vast|vast{_BEFORE_ANOTHER}",
    "Lambda": rf"lambda ?labs|lambda cloud|{_AS_A_PLACE}lambda(?! functions?)|lambda's"
              rf"|lambda{_BEFORE_ANOTHER}",
    "RunPod": r"run ?pod",
    "Oracle Cloud": r"oracle(?: cloud)?|oci", "DataCrunch (Verda)": r"datacrunch|verda",
    "Jarvis Labs": r"jarvis ?labs", "CoreWeave": r"core ?weave",
}  # fmt: skip


def _providers(low: str, names: frozenset[str]) -> tuple[str, ...]:
    """The clouds a question names ("AWS vs a cheaper one like runpod"), as the catalog's price
    rows name them (`names`, the linker's), in the order said."""
    found = []
    for name, pattern in _provider_patterns(names):
        m = pattern.search(low)
        if m:
            found.append((m.start(), name))
    return tuple(name for _at, name in sorted(found))


@lru_cache(maxsize=8)
def _provider_patterns(names: frozenset[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Each cloud with the pattern of its name, compiled once (dozens of clouds, each asked of
    every question)."""
    return tuple(
        (name, re.compile(rf"(?<![\w.-])(?:{_provider_words(name)})(?![\w-])"))
        for name in sorted(names)
    )


def _provider_words(name: str) -> str:
    return _PROVIDER_WORDS.get(name) or re.escape(name.lower())


def _system_ram(low: str) -> dict[str, Any]:
    """The machine's RAM as the question gives it: its kind and speed ("DDR5-5600"), its size
    when said as RAM or system memory (not a GPU's), and its channels ("quad-channel")."""
    kind = _RAM_KIND.search(low)
    size = _RAM_SIZE.search(low)
    channels = _CHANNELS.search(low)
    n = None
    if channels:
        word = channels.group(1) or channels.group(2)
        n = int(word) if word.isdigit() else _CHANNEL_WORDS.get(word)
    ram = None
    if kind:
        ram = kind.group(1) + (f"-{kind.group(2)}" if kind.group(2) else "")
    gb = float(next(g for g in size.groups() if g)) if size else None
    if n is None and _SERVER_CPU.search(low):
        n = SERVER_RAM_CHANNELS  # "a 64-core EPYC box": a server board's channels, not a desktop's
    return {"ram": ram, "ram_gb": gb if gb and 2 <= gb <= 100_000 else None, "ram_channels": n}


# a server CPU: EPYC and Xeon boards have 8 to 12 memory channels (a desktop has 2); 8 is the
# fewest of the current parts (Xeon Scalable 4th gen: 8; EPYC 9004: 12)
_SERVER_CPU = re.compile(r"\bepyc\b|\bxeon\b|\b(?:[3-9]\d|1\d\d)[- ]?cores?\b|\bthreadripper pro\b")
SERVER_RAM_CHANNELS = 8


_A_FORMAT = r"(?:q[2-8]_k(?:_[sml])?|q[48]_0|q[2-8]|[48]-?bit|awq|gptq|gguf|exl2|int[48])"
# a smaller format weighed in the question: "runs in fp16 ... would a q4 gguf be the way to go?",
# "or a Q4_K_M gguf instead?" (the answer leads with how it runs in it: rules.py)
FORMAT_WEIGHED = re.compile(
    r"\b(?:would (?:an? |the )?|should (?:i|we) (?:be )?(?:use|using|go with|switch to|get)"
    r" (?:an? |the )?|switch(?:ing)? to (?:an? |the )?|go(?:ing)? (?:with|for) (?:an? |the )?"
    rf"|try(?:ing)? (?:an? |the )?)({_A_FORMAT}\b[^.?!]{{0,20}})(?=[^.?!]*\?)"
    rf"|\b({_A_FORMAT}\b[^.?!]{{0,15}})\binstead\b(?=[^.?!]*\?)"
)


# the card's time for each unit of the work: "each hour of audio takes about six minutes of GPU
# time", "every image takes 12 seconds"
_PACE_OF_UNIT = re.compile(
    r"\b(?:each|every|an?|one|per) (?:hour|hr) of (?:audio|recordings?|speech|tape)\b"
    r"[^.?!]{0,30}?"
    rf"\btak(?:es|ing)\s(?:about |around |roughly |~|only )?{_WORD_NUM}\s?(minutes?|mins?|seconds?"
    r"|secs?|s)\b"
)
# the work counted in a period: "twenty hours of recordings each month", "3,000 images a month"
_WORK_A_PERIOD = re.compile(
    rf"\b{_WORD_NUM}\s(?:hours?|hrs?) of (?:[a-z-]+ )?(?:audio|recordings?|speech|tape|calls"
    r"|meetings)\b"
    r"[^.?!]{0,20}?\b(?:a|per|each|every) (day|week|month)\b"
    r"|\b(\d[\d,]*)\s(?:images|pictures|renders|photos|clips)\s(?:a|per|each|every)"
    r" (day|week|month)\b"
)


# runs of a job done each period, and the hours one run takes: "12 runs a month", "one run takes
# about 2.5 hours", "each job is 3 h"
_RUNS_A_PERIOD = re.compile(
    rf"\b{_WORD_NUM}\s(?:runs|jobs|sessions|trainings|training runs|renders|batches|times)\s(?:a"
    r"|per|each|every|/)\s?(day|week|month|year)\b"
)
_HOURS_A_RUN = re.compile(
    r"\b(?:one|a|each|every|per|the) (?:run|job|session|training run|render|batch)\b[^.?!;]{0,25}?"
    rf"\b{_WORD_NUM}\s?(?:hours?|hrs?|h)\b"
    r"|\b(\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h) (?:a|per|each) (?:run|job|session)\b"
)


# a second card of the one held, asked whether it is needed: "we'll need a second A4000, do we?"
SECOND_CARD_ASKED = re.compile(
    r"\b(?:need|needs|require|requires|have to (?:get|buy|add)|gotta (?:get|buy|add))\s"
    r"(?:a\s|an\s)?(?:second|2nd|another|extra|one more)\b"
)


# a card with no power of its own but the slot's: "the psu has no pcie power cable", "slot-powered
# only"; a PCIe x16 slot delivers at most 75 W (PCI Express CEM specification)
SLOT_ONLY = re.compile(
    r"\bno (?:(?:pcie |pci-e |6-?pin |8-?pin |12-?pin |external |aux\w* |extra |spare )?power "
    r"|6-?pin |8-?pin |12-?pin |pcie |pci-e )"
    r"(?:cables?|connectors?|leads?|plugs?)\b|\bslot[- ]powered\b|\bslot power only\b"
    r"|\bpowered (?:only )?(?:by|from) the (?:pcie )?slot\b"
)
SLOT_POWER_W = 75.0
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# a span of calendar days: "June 15 thru Aug 31", "from 1 march to 30 april", "jan 10 - feb 3"
_DATE = (
    r"(?:(?P<{m}>{months})[a-z]*\.? (?P<{d}>\d{{1,2}})(?:st|nd|rd|th)?|(?P<{d2}>\d{{1,2}})"
    r"(?:st|nd|rd|th)? (?:of )?(?P<{m2}>{months})[a-z]*\.?)"
)
_DATE_SPAN = re.compile(
    _DATE.format(m="m1", d="d1", d2="e1", m2="n1", months="|".join(_MONTHS))
    + r"\s?(?:thru|through|to|till|until|-|\u2013)\s?"
    + _DATE.format(m="m2", d="d2", d2="e2", m2="n2", months="|".join(_MONTHS))
)


# a span of whole months: "from january thru june", "march to october" (a name in full, or
# "from" before a short one: "may" alone is a word)
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")  # fmt: skip
_MONTH_SPAN = re.compile(
    rf"\b(?:(from|between) )?({'|'.join(_MONTH_NAMES)}|{'|'.join(_MONTHS)})\.?\s?"
    rf"(?:thru|through|to|till|until|and|-|\u2013)\s?(?:the end of )?"
    rf"({'|'.join(_MONTH_NAMES)}|{'|'.join(_MONTHS)})\b(?!\.?\s?\d)"
)


def _month_span_days(low: str) -> float | None:
    """The days of a span of whole months, both counted ("from january thru june": 181)."""
    for m in _MONTH_SPAN.finditer(low):
        first, last = m.group(2), m.group(3)
        if not m.group(1) and (first not in _MONTH_NAMES or first == "may"):
            continue  # "mar to jun" with no "from", "may to": no span said for sure
        if m.group(1) == "between" and not rx.match(r"\s?(?:and)", low[m.end(2) :]):
            continue
        if rx.match(r"\s?and", low[m.end(2) :]) and m.group(1) != "between":
            continue
        a, b = _MONTHS.index(first[:3]) + 1, _MONTHS.index(last[:3]) + 1
        start = date(2025, a, 1)
        end = date(2025 + (b < a), b % 12 + 1, 1) if b != 12 else date(2026 + (b < a), 1, 1)
        return float((end - start).days)
    return None


def _date_span_days(low: str) -> float | None:
    """The days of a calendar span said, both ends counted ("June 15 thru Aug 31": 78;
    "from january thru june": 181)."""
    m = _DATE_SPAN.search(low)
    if m is None:
        return _month_span_days(low)

    def day(month: str, said: str) -> date | None:
        try:  # (a year with no leap day)
            return date(2025, _MONTHS.index(month[:3]) + 1, int(said))
        except ValueError:
            return None

    start = day(m.group("m1") or m.group("n1"), m.group("d1") or m.group("e1"))
    end = day(m.group("m2") or m.group("n2"), m.group("d2") or m.group("e2"))
    if start is None or end is None:
        return None
    days = (end - start).days + 1
    return float(days if days > 0 else days + 365)


# "twice a year", "once a month": how often a run is done
_TIMES_A_PERIOD = re.compile(
    r"\b(once|twice|thrice)\s(?:a|per|each|every)\s(day|week|month|year)\b"
)
_TIMES = {"once": 1.0, "twice": 2.0, "thrice": 3.0}


def _paced_use(low: str, q: Query) -> float | None:
    """Hours a day of the card's use from the work a period holds and the card's time for each
    unit of it; None unless both are said."""
    runs = _RUNS_A_PERIOD.search(low)
    times = _TIMES_A_PERIOD.search(low) if runs is None else None
    a_run = _HOURS_A_RUN.search(low) if runs or times else None
    if (runs or times) and a_run:
        # "one run takes about 2.5 hours, and I do 12 runs a month": 30 h a month
        hours = _count(a_run.group(1)) if a_run.group(1) else float(a_run.group(2))
        many, unit = (_count(runs.group(1)), runs.group(2)) if runs else (
            _TIMES[times.group(1)], times.group(2))  # type: ignore[union-attr]  # fmt: skip
        return many * hours / _DAYS_IN[unit] if hours > 0 else None
    work = _WORK_A_PERIOD.search(low)
    if work is None:
        return None
    if work.group(1):  # hours of audio a period, at the card's minutes per hour of audio
        pace = _PACE_OF_UNIT.search(low)
        if pace is None:
            return None
        each = _count(pace.group(1)) / (3600 if pace.group(2).startswith("s") else 60)
        per_period, unit = _count(work.group(1)) * each, work.group(2)
    else:  # images a period, at the seconds each takes
        if not q.seconds_per_item:
            return None
        per_period = float(work.group(3).replace(",", "")) * q.seconds_per_item / 3600
        unit = work.group(4)
    return per_period / _DAYS_IN[unit] if per_period > 0 else None


def _first(table: tuple[tuple[str, str], ...], low: str) -> str | None:
    """The entry of `table` whose words come first in the text ("pytorch vs tensorflow")."""
    found = [(m.start(), name) for name, pattern in table if (m := affirmed(pattern, low))]
    return min(found)[1] if found else None


# the most specific job first: "training ... bert-base finetuning" is a fine-tune
_ORDER = ("finetune-qlora", "finetune-lora", "finetune-full", "finetune", "train", "inference")
_NEGATED = re.compile(
    r"(?:\bnot|\bno|\bwithout|\binstead of|\brather than|\bskip|\bditch|\bforget(?: about)?"
    # "dont wanna buy anything", "we don't plan to rent", "won't use vllm"
    r"|\b(?:don'?t|do not|won'?t|will not|never)\s(?:(?:really\s)?(?:wanna|want to|plan to|need to"
    r"|intend to|have to|gonna|going to)\s)?(?:use\s|run\s|try\s|go with\s|do\s|want\s|need\s)?"
    # "the patients' documents cannot go to the cloud", "must not be uploaded to a cloud"
    r"|\b(?:can ?not|can'?t|must not|mustn'?t|may not|should not|shouldn'?t)\s(?:go|be sent"
    r"|be uploaded|be put|leave|move)(?:\s(?:to|into|in|on))?)"
    r"\s*(?:a\s+|an\s+|the\s+)?$"  # ("not the LoRA thing, the full one")
)


def _said(low: str, name: str) -> bool:
    """Whether the words ask for this kind of job (not "(not lora)", "without lora")."""
    return any(affirmed(pattern, low) for pattern in WORKLOAD_KINDS[name].words)


# LoRA ruled out: "no LoRA", "without lora", "not qlora", Vietnamese "không dùng LoRA", Spanish
# "sin LoRA", German "ohne LoRA", French "sans LoRA", Indonesian "tanpa LoRA", Portuguese "sem"
_NO_LORA = re.compile(
    r"\b(?:no|not|without|w/o|never|kh\u00f4ng(?: d\u00f9ng| s\u1eed d\u1ee5ng)?|sin|ohne|sans"
    r"|tanpa|sem|senza|bez)\s(?:using |use |a |any |the )?q?lora\b(?!\s(?:or|vs)\b)"
)


def _workload(low: str, models: tuple[ModelRef, ...], family: str | None) -> str | None:
    """The workload the words say, in the vocabulary of the families registry."""
    family = models[0].family if models and models[0].family else family
    no_lora = _NO_LORA.search(low)
    low = _NO_LORA.sub(" ", low)  # "fine-tune full (không dùng LoRA)": the method ruled out
    name = next((n for n in _ORDER if _said(low, n)), None)
    if no_lora and name == "finetune":
        name = "finetune-full"  # "fine-tune llama 8b without lora": every weight trained
    done = _JOB_DONE.sub(" ", low)
    if done != low:  # "eval pass after training: vllm serve ...": the job is what comes after
        name = next((n for n in _ORDER if _said(done, n)), None)
    mostly = rx.search(r"\b(?:mostly|mainly|primarily|largely|chiefly)\s+(?:for\s+|doing\s+)?"
                       r"([^,.;?!]{1,40}?),?\s+(?:and|with|plus|but)\s+(?:some|a bit of|occasional"
                       r"|a little)\b", low)  # fmt: skip
    if mostly and name is not None:
        # "mostly llm inference and some lora": the main job decides, not the first kind said
        name = next((n for n in _ORDER if _said(mostly.group(1), n)), name)
    instead = rx.search(r"([^,.;?!]{1,80}?)\binstead\b(?! of)", low)
    if instead and name is not None:
        # "qlora is half-arsed, we should do a full fine-tune of the 7b instead": the method
        # said beside "instead" replaces the one set aside
        clause = rx.split(r"\b(?:and|but|so|because|though)\b", instead.group(1))[-1]
        name = next((n for n in _ORDER if _said(clause, n)), name)
    if (
        name in ("finetune-lora", "finetune-qlora")
        and _said(low, "finetune-full")
        # (also at the end of a message with no question mark: "... or is that lora only
        # territory")
        # ("or" in the languages asked in: "atau wajib pakai LoRA?", "oder doch LoRA?")
        and rx.search(
            r"\b(?:or|atau|oder|ou|o|czy|albo|lub|veya|eller|ho\u1eb7c)\b[^.?!]{0,30}"
            r"\bq?lora\b[^.?!]{0,25}(?:\?|$)",
            low.strip(),
        )
        and not rx.search(r"\b(?:can'?t|cannot|won'?t|not|no way to)\s(?:\w+\s)?fully\b", low)
    ):
        name = "finetune-full"  # "fully fine-tune it, or should they use LoRA?": LoRA the fallback
    if name is None and rx.search(r"\bamp\b(?!\s?=\s?false)", low):
        name = "train"  # automatic mixed precision ("amp=True", "channels_last + AMP"), no job said
    if name in (None, "inference") and rx.search(_TRAINING_RUN, low):
        name = "train"  # "karpathy reproduced gpt-2 small", "the same 10B token run": pretraining
    optimizer = r"\b(?:adam\w*|optimi[sz]er(?: state)?s?)\b|" + SGD_OPTIMIZER
    if name is None and rx.search(optimizer, low):
        # "the memory the optimizer takes for a 13B with adam": a step that updates every
        # weight (a LoRA's optimizer holds next to nothing)
        name = "finetune-full" if family in (None, "llm") else "train"
    if name is None:
        return None
    if family == "llm" and name == "train" and not rx.search(FROM_SCRATCH, low):
        return "finetune"  # "train llama on my data" is a fine-tune
    if (
        family in ("vision", "transformer")
        and name == "train"
        and rx.search(
            r"--model_name_or_path\b|\bfrom_pretrained\b|\bpre-?trained (?:checkpoint|weights)\b",
            low,
        )
    ):
        return "finetune-full"  # "run_glue.py --model_name_or_path roberta-large --do_train"
    if (
        family == "transformer"
        and name == "train"
        and rx.search(r"classif\w*|sentiment|\bner\b|\bsquad\b|\bglue\b|\blabell?ed\b", low)
        and not rx.search(r"scratch|pre-?train", low)
    ):
        return "finetune-full"  # "our clause-classification model (deberta-v3-base) trains 4
        # epochs": a pretrained encoder trained for a task is fine-tuned
    tuned = not rx.search(r"train|scratch", low)
    if family == "transformer" and name == "train" and models and tuned:
        return "finetune-full"  # "deberta-v3-base, bs 8, adamw: fits?": a checkpoint, tuned
    if family in ("vision", "transformer") and name in ("finetune", "finetune-lora", "train"):
        if name == "train" or "train" in low.split():
            # "train a ticket sorter: fine-tune distilbert on ...": the fine-tune said is the
            # method, the training its goal (not "fine-tune or train from scratch?")
            tuned = _said(low, "finetune") and not rx.search(r"scratch|pre-?train", low)
            return "finetune-full" if tuned else "train"
        return "finetune-full"
    if name in ("finetune-full", "train") and rx.search(r"\bfrom scratch\b|\bpre-?train", low):
        return "train"  # "train a small diffusion model from scratch"
    if family == "diffusion" and name in ("finetune", "train") and not _DREAMBOOTH.search(low):
        # "fine-tune sdxl on 30 photos of my dog": the method left open, LoRA assumed as for an
        # LLM (kohya's and diffusers' SDXL and FLUX recipes train LoRA adapters); DreamBooth
        # named, or "full", trains every weight
        return "finetune"
    if family in ("diffusion", "speech") and name == "finetune":
        return "finetune-full"  # a Whisper fine-tune trains every weight unless LoRA is said
    if family == "speech" and name == "train" and rx.search(_TRAIN_WHISPER, low):
        return "finetune-full"  # "train whisper on our call recordings": a fine-tune
    if family in ("diffusion", "speech") and name == "train":
        return "finetune-full" if family == "diffusion" else "inference"
    return name


# one card said to beat another left unnamed: "says the b580 is faster for that", "it's cheaper"
_SAID_FASTER = (
    r"(?<!\bwhich )(?<!\bwhich one )\b(?:is|are|'s) (?:[\w-]+ ){0,3}?"
    r"(?:faster|quicker|cheaper|better)\b(?! than)"
)  # ("which one is cheaper": asked)
_DREAMBOOTH = re.compile(r"\bdream ?booth\b")
# the job before kept on other cards: "same bf16 weights", "the same model", "same setup"
_SAME_JOB = re.compile(
    r"\b(?:the )?same (?:\w+ )?(?:weights|model|checkpoint|setup|config\w*|job|workload"
    r"|settings|deployment)\b"
)
# one card's speed asked against another's: "how much faster would it be", "is it double"
_HOW_MUCH_FASTER = re.compile(
    r"\bhow much (?:faster|quicker|slower|better)\b|\b(?:double|twice) (?:as fast|the speed)\b"
    r"|\bis it (?:double|twice)\b"
)


# the calculator's own questions, asked of nothing named yet ("will it fit?", "how fast will it
# run?", "how many tokens per second would I get?")
UNNAMED_ASKED = re.compile(
    r"\b(?:will|would|does|do|can|could) (?:it|they|that|this) (?:even |still )?(?:fit|run)\b"
    r"|\bhow fast (?:will|would|does|can) (?:it|they|that|this)\b"
    r"|\btokens? (?:per|a|/) ?(?:second|sec|s)\b|\btok/s\b"
)


# the user's own machine, its parts unknown to them: "its a dell, i honestly dont know whats
# inside it", "no idea what graphics card it has"
HARDWARE_UNKNOWN = re.compile(
    r"\b(?:(?:do|does)n'?t|do not|dont|no idea|not sure|have no clue|no clue)\s(?:really\s"
    r"|honestly\s|even\s)?(?:know\s|remember\s)?(?:what'?s|what is|what)\s(?:inside\b|in it\b"
    r"|in there\b|it has\b|(?:gpu|card|graphics card|graphics)\b)"
)


# a training run already over, said to place the job after it: "eval pass after training",
# "post-training evaluation", "once fine-tuning is done, serve it with vllm"
_RUN_WORD = (
    r"(?:the |our |my |its |the model'?s? )?(?:training|fine-?tun(?:e|ing)|finetun(?:e|ing)|sft)"
)
_RUN_OVER = r"(?:is |has )?(?:done|finished|complete[d]?|over|run)"
_JOB_DONE = re.compile(
    rf"\b(?:after|post|once)[- ]{_RUN_WORD}(?: {_RUN_OVER})?\b"
    rf"|\bwhen {_RUN_WORD} {_RUN_OVER}\b"  # not "when fine-tuning a 1.3B with DDP"
    # "once the YOLO11m model is trained, I intend to run it on ...", "after it's been fine-tuned"
    r"|\b(?:once|after|when)\s(?:the |our |my |it |it'?s |they |they'?re )?(?:[\w.-]+\s){0,3}?"
    r"(?:is |are |has been |have been |been |gets? )?(?:trained|fine-?tuned|finetuned)\b"
    # "running YOLOv8n (fine-tuned on my own bird pics)", "an already fine-tuned model": the
    # model as it was made, not the job asked
    r"|\((?:already |previously )?(?:trained|fine-?tuned|finetuned) (?:on|with) [^)]{1,60}\)"
    r"|\b(?:already|previously|pre-?) ?(?:trained|fine-?tuned|finetuned)\b"
)


# training a Whisper model itself ("train whisper small on my data"), not "training videos"
_TRAIN_WHISPER = r"\btrain(?:s|ing)?\s+(?:(?:a|the|our|my)\s+)?(?:whisper|distil-whisper)\b"


@dataclass(frozen=True)
class AbsentKind:
    """A kind of model the catalog has none of: how people name its models, and what the
    catalog covers instead (said in the reply, which states no figure)."""

    kind: str  # "a video generation model"
    names: re.Pattern[str]  # matched in the lowered text; group "size" is a size said with it
    covered: str  # what to name instead
    sized: bool = False  # a size said with it is answered as a generic LLM of that size


# Kinds of models the catalog lacks, one entry each: a question naming one is told so, and never
# answered for a stand-in of another kind ("wav2vec2" is no Whisper, "mask r-cnn" no ResNet-50)
ABSENT_KINDS = (
    AbsentKind(
        "a video generation model",
        re.compile(
            r"(?:\bwan[- ]?2(?:\.\d)?\b|\bhunyuan[- ]?video\b|\bcogvideo\w*|\bmochi(?:[- ]1)?\b"
            r"|\bltx[- ]?video\b|\bopen[- ]?sora\b|\bstable video diffusion\b|\banimatediff\b"
            r"|\bskyreels\b)(?:[- ](?P<size>\d+(?:\.\d+)?)b\b)?"  # its size: "wan 2.1 14b"
        ),
        "For images it covers Stable Diffusion 1.5, SDXL, SD3 and FLUX; name one of those, or an "
        "LLM, Whisper or a vision model.",
    ),
    AbsentKind(
        "a speech or audio model other than Whisper",
        re.compile(
            r"\bwav2vec(?:[- ]?2(?:\.0)?)?(?:[- ](?:base|large)\w*)?\b"
            r"|\bhubert(?:[- ](?:base|large))?\b|\bwavlm\w*|\bparakeet[\w.-]*"
            r"|\bcanary[- ]1b[\w.-]*|\bseamless[- ]?m4t\w*"
            r"|\bspeecht5\b|\bmusicgen\w*|\bxtts\w*|\bfast[- ]?conformer\b"
        ),
        "For speech it covers Whisper (tiny to large-v3, turbo and distil-whisper); name one of "
        "those.",
    ),
    AbsentKind(
        "an encoder-decoder text model (T5-style)",
        re.compile(
            r"\b(?:flan[- ]?)?(?:m|by)?t5(?:[- ]?v1[._]1)?(?:[- ](?:small|base|large|xxl|xl))?"
            r"(?:[- ](?P<size>\d+(?:\.\d+)?)b)?\b|\bbart[- ](?:base|large)\b|\bpegasus[- ]\w+"
            r"|\bnllb[\w.-]*|\bopus[- ]mt[\w-]*"
        ),
        "For text it covers decoder LLMs and BERT-style encoders (BERT, RoBERTa, DeBERTa, "
        "embedding models); name one of those, or give the model's size in billions of "
        "parameters.",
        sized=True,
    ),
    AbsentKind(
        "a detection or segmentation model",
        re.compile(
            r"\b(?:mask|faster|cascade)[- ]?r[- ]?cnn\b|\bretina[- ]?net\b"
            r"|\b(?:rt[- ]?|deformable[- ])?detr\b|\bsegformer[\w-]*|\bdeeplab[\w.+-]*"
            r"|\bmask2former\b|\bmaskformer\b|\befficientdet[\w-]*|\bgrounding[- ]?dino\b"
        ),
        "For vision it covers ResNet, EfficientNet, ConvNeXt, ViT, Swin, CLIP, SAM, a U-Net and "
        "YOLOv5, YOLOv8 and YOLO11; name one of those.",
    ),
    AbsentKind(
        "an image generation model",
        re.compile(
            r"\bpixart(?:[- ]?(?:alpha|sigma|\u03c3|\u03b1))?\b|\bkandinsky(?:[- ]?\d(?:\.\d)?)?\b"
            r"|\bplayground[- ]?v?2(?:\.5)?\b|\bhunyuan[- ]?dit\b|\bauraflow\b|\bstable cascade\b"
            r"|\bw[uü]rstchen\b|\bdeepfloyd\b|\bkolors\b|\bhidream[\w.-]*|\bqwen[- ]image\b"
        ),
        "For images it covers Stable Diffusion 1.5, SDXL, SD3 and FLUX; name one of those.",
    ),
    AbsentKind(
        "a protein structure model",
        re.compile(
            r"\balpha[- ]?fold[- ]?[23]?\b|\besm[- ]?(?:2|fold)\w*|\bopenfold\b"
            r"|\brosetta[- ]?fold\w*|\bboltz[- ]?[12]\b"
        ),
        "It has no science models; it covers LLMs, BERT-style encoders, Stable Diffusion and "
        "FLUX, Whisper and vision networks.",
    ),
)


def absent_kind(name: str) -> AbsentKind | None:
    """The kind of model the catalog lacks that `name` names, if it names one."""
    low = name.lower().strip()
    return next((k for k in ABSENT_KINDS if k.names.fullmatch(low)), None)


def _absent_models(low: str, models: tuple[ModelRef, ...]) -> tuple[tuple[ModelRef, ...], str]:
    """The models of a kind the catalog lacks ("wav2vec2", "wan 2.1 14b"), as refs with no
    catalog entry, and the linked models their words overlap removed ("qwen-image" is no Qwen
    LLM); with a catalog model named beside them, they are dropped with a note instead."""
    found = [(k, m) for k in ABSENT_KINDS for m in k.names.finditer(low)]
    if not found:
        return models, ""
    kept = tuple(m for m in models
                 if not any(_spans_overlap(m.text, low, a.span()) for _, a in found))  # fmt: skip
    said = list(dict.fromkeys(m.group(0) for _, m in found))
    if any(m.ids for m in kept):
        return kept, (f"The catalog has no {', '.join(said)}: "
                      "I answer for the catalog's models the question names.")  # fmt: skip
    refs = []
    for kind, match in found:
        size = _number(written) if (written := match.groupdict().get("size")) else None
        if kind.sized and size:  # "flan-t5 11b": a text model of that size stands in, said so
            note = (
                f"The catalog has no '{match.group(0)}': answering for a generic {size:g}B model."
            )
            refs.append(ModelRef(match.group(0), (), "llm", size, note=note))
        else:
            refs.append(ModelRef(match.group(0), (), size_b=size))
    return (*kept, *refs), ""


# a hosted model sold by the token, whose weights are not published: "gpt-4o-mini", "claude"
HOSTED = re.compile(
    r"(?:chat)?gpt[- ]?(?:3\.5|4(?:\.\d)?o?|5(?:\.\d)?)(?:[- ](?:mini|nano|turbo))?"
    r"|o[134](?:-mini)?|claude(?:[- ][\w.]+)*|gemini(?:[- ][\w.]+)*|chatgpt"
)


def _hosted_dropped(models: tuple[ModelRef, ...]) -> tuple[ModelRef, ...]:
    """ "we pay for gpt-4o-mini: would self-hosting llama 8b be cheaper?": the API's model is
    the service compared against, not one to size; dropped when a catalog model is named too."""
    kept = tuple(m for m in models if m.ids or not HOSTED.fullmatch(m.text.lower().strip()))
    return kept if any(m.ids for m in kept) else models


def family_hint(low: str) -> str | None:
    """The workload family the words point to when no model is named ("stable diffusion")."""
    for fam in FAMILIES.values():
        if fam.name != "llm" and _family_words(fam.name).search(low):
            return fam.name
    return "llm" if _family_words("llm").search(low) else None


@cache
def _family_words(name: str) -> re.Pattern[str]:
    """One pattern for a family's words (compiled once, not one search per word)."""
    return re.compile("|".join(f"(?:{w})" for w in FAMILIES[name].words))


# a pattern held as text in a table, compiled once (re's own cache costs a lookup per call)
_compiled = lru_cache(maxsize=1024)(re.compile)


# ---------------------------------------------------------------- the step

# a short second question about the statement before it: "how come?", "why is that?"
# a claim someone told: "my friend keeps saying", "reddit says", "the salesman insists"
_REPORTED = re.compile(
    r"\b(?:says?|saying|said|insists?|insisting|swears?|claims?|claiming|told me|tells me"
    r"|reckons?|thinks?)\b",
    re.IGNORECASE,
)
_WHY_SO = re.compile(
    r"\W*(?:how come|why(?: is that| so| though)?|what explains (?:it|that|this)|isn'?t that"
    r" (?:backwards|weird|strange|odd)|how is that(?: possible)?|what gives)(?:,? (?:though|then|"
    r"exactly))?"
    # "how come, it's bigger": a clause about what was just said
    r"(?:\W+(?:it'?s|its|it is|that'?s|they'?re|isn'?t it|it has)\b[^?]{0,40})?\W*",
    re.IGNORECASE,
)


def understand(question: str, catalog: Catalog, previous: dict[str, Any] | None = None) -> Query:
    """The Query of `question`, with what a follow-up leaves out taken from `previous` (the
    context_dict() of the last turn)."""
    from advisor.agent.intents import ONE_CARD_ENOUGH, detect_intent

    asked = str((previous or {}).get("asked") or "")
    if asked and not (previous or {}).get("follow_up") and _MONEY_ONLY.match(question.lower()):
        # "and in rupees?", "in euro pls": the question before, asked again in that money
        return understand(f"{asked} {question.strip()}", catalog)
    if (
        asked
        and _WHY_ALONE.fullmatch(question.lower())
        and (previous or {}).get("intent") in ("compare", "recommend", "rent_or_buy", "buy")
    ):  # "why?" after a pick: the pick again, whose lead says what decides it
        return understand(asked, catalog)
    text, at_rate, exchange = _at_users_rate(normalise(question))
    parts = _split_questions(text)
    if len(parts) > 1 and _WHY_SO.fullmatch(parts[1]):
        parts = [f"{parts[0]} {parts[1]}", *parts[2:]]  # "a is quicker than b?? how come": one ask
    if (len(parts) > 1 and rx.match(r"\W*why\b", parts[1], re.I)
            and _REPORTED.search(parts[0])):  # fmt: skip
        # "my friend says the 4070 Ti beats a 3090 ... reddit says vram is king?? why does vram
        # matter more": the claim told, then the why asked of it
        parts = [f"{parts[0]} {parts[1]}", *parts[2:]]
    if len(parts) > 1 and previous and _CARD_ONLY.fullmatch(parts[0]):
        # "and the 4090 laptop?? how much faster is it for sdxl than the 4080 one": the card
        # named first is what the question after asks about
        parts = [f"{parts[0]} {parts[1]}", *parts[2:]]
    query = _parse(parts[0], catalog)
    query = replace(query, intent=detect_intent(query, query.text.lower()))
    if query.intent == "recommend" and not query.num_gpus and ONE_CARD_ENOUGH.search(query.low):
        query = replace(query, num_gpus=1)  # "is one GPU enough?": a single card's setups
    if query.intent == "recommend" and query.purchase_usd and not (query.gpus or query.budget):
        # "if we bought a card, what would you suggest for around $300?": no card to be the
        # price of, so the money is what a card may cost
        query = replace(query, budget=Budget(query.purchase_usd, "buy"), purchase_usd=None)
    if (query.intent == "cost" and len(query.gpus) == 1 and query.budget
            and query.budget.per == "total" and query.budget.kind in (None, "buy")
            and not (query.hours or query.user_price_usd_per_hour or query.monthly_usd)
            and not RENT_SAID.search(query.low) and BUDGET_HELD.search(query.low)):  # fmt: skip
        # "how much is a 4090? i have $2000", "tenho R$ 12000": the card's price against the money
        query = replace(query, intent="buy")
    query = _preference_pairs(_default_workload(resolve(query, previous, catalog)))
    if at_rate:  # "₦850,000 ... dollar na ₦1,600": what the amounts are in dollars
        query = replace(query, notes=(*query.notes, at_rate))
    if exchange:  # "... in naira if exchange na ₦1,550 to $1": a dollar total in naira too
        query = replace(query, exchange=exchange)
    if _bought_only(query, catalog):
        query = replace(query, intent="buy")
    sold = _SOLD_FOR.search(query.low) if "sell" in query.low else None
    if sold and _SELL_ASKED.search(query.low) and (
            query.user_price_usd_per_hour or query.monthly_usd):  # fmt: skip
        # "sell my 3090 for $1,150 and rent one at $0.25/hr: sell or keep?": what it fetches
        # stands as the price to buy, keeping it as owning
        amount, scale = (sold.group(1), sold.group(2)) if sold.group(1) else sold.group(3, 4)
        price = _scaled(amount.replace(",", ""), scale)
        query = replace(query, intent="rent_or_buy", purchase_usd=price, selling=True,
                        budget=None)  # fmt: skip
    others = []
    context = query.context_dict()
    for i, part in enumerate(parts[1:3], 1):
        sub = _parse(_them_as_items(part, " ".join(parts[:i])), catalog)
        if sub.tax_rate and query.tax_rate is None and not sub.gpus and not sub.models:
            # "... quoted R72 300,00 (excl. VAT). Fair price? And the total with 15% VAT?"
            query = replace(query, tax_rate=sub.tax_rate)
        if (sub.gpus and not sub.models and not query.gpus and query.models
                and rx.search(r"\b(?:will|would|does|can) (?:it|that|this) (?:even )?(?:fit|run)\b",
                              sub.text.lower())
                and query.intent in ("fit", "search", "spec")):  # fmt: skip
            # "1) how much vram for mistral nemo 12b at q8? 2) will it fit on my 4070 super?":
            # the model asked about first, on the card named after
            query = replace(query, gpus=sub.gpus, intent="fit")
            continue
        if (not sub.gpus and not sub.models and sub.hours and query.hours is None
                and rx.search(r"\b(?:finish\w*|done|complete\w*|ready|in time|deadline)\b",
                              sub.text.lower())):  # fmt: skip
            # "... how many seconds a picture? can it finish in 4 hours?": the time to end within
            query = replace(query, hours=sub.hours)
            continue
        if (sub.gpus and not sub.models and query.gpus and query.fields and not query.models
                and (_ONE_MORE.match(sub.text.lower()) or "comparison" in sub.text.lower())
                and not {g.ids for g in sub.gpus} & {g.ids for g in query.gpus}):  # fmt: skip
            # "into how many MIG instances can the H100 PCIe be split? And the A30, for
            # comparison?": the same figures of one card more
            query = replace(query, gpus=(*query.gpus, *sub.gpus))
            continue
        if (not sub.gpus and not sub.models and sub.needed_tok_s and query.needed_tok_s is None
                and query.intent in ("speed", "fit")):  # fmt: skip
            # "how quick will that 14B be on it? will I get at least 10 tokens a second?": the
            # pace wanted, for the speed asked before
            query = replace(query, needed_tok_s=sub.needed_tok_s)
            continue
        if _same_choice(sub) or _settings_only(sub):
            # "$1,800, or rent one? over a year at 8h a day, which is cheaper?", "... numbers in
            # bf16 please": settings for the question before
            query = _with_settings(query, sub)
            continue
        sub = replace(sub, intent=detect_intent(sub, sub.text.lower()))
        if not (sub.gpus or sub.models) and _ASKED_AGAIN.match(sub.text.lower()):
            continue  # "could i qlora mistral 7b on it? it go fit or no?": the question again
        if (
            query.intent in ("out_of_scope", "greeting")
            and not (query.gpus or query.models)
            and sub.intent in (*_JOB_INTENTS, "cost", "spec", "compare")
            and len(query.text.split()) <= 14
        ):  # ("alright? how many watts does a 5090 pull": a hello, then the question)
            # "ok and if I keep that pace for 2 years? A 4090 is CA$2,400 here. Rent or buy?":
            # the opener's span, for the question the later part asks
            query = _with_settings(sub, query)
            continue
        own = sub.intent  # its own, before the question it follows lends it one
        sub = _default_workload(resolve(sub, context, catalog, same_message=True))
        if (query.intent == "rent_or_buy" and not query.gpus and sub.intent == "recommend"
                and not sub.gpus and {m.ids for m in sub.models} <= {m.ids for m in query.models}
                and sub.budget in (None, query.budget)):  # fmt: skip
            # "... buy or rent? what would you get?": the card the break-even picks, said once
            continue
        if sub.intent not in ("greeting", "invalid", "out_of_scope"):
            if _sizes_listed(query, sub):  # "the biggest Qwen2.5 on my 3090? 7b 14b 32b or 72b?"
                query = _with_settings(query, sub)
                continue
            if (query.intent in ("fit", "train_time") and sub.intent == "train_time"
                    and {g.ids for g in sub.gpus} <= {g.ids for g in query.gpus}
                    and {m.ids for m in sub.models} <= {m.ids for m in query.models}):  # fmt: skip
                # "could it pretrain GPT-2 on 2B tokens overnight? how many hours are we
                # talking?": the run's length is the question, its fit said beside it; "sdxl
                # lora on my 3080, doable? how long for 3000 steps": the run's size said later
                sized = {k: getattr(sub, k) for k in _JOB_SIZE
                         if getattr(query, k) is None and getattr(sub, k) is not None}  # fmt: skip
                query = _with_settings(replace(query, intent="train_time", **sized), sub)
                continue
            if (sub.topic is not None and sub.topic == query.topic and not sub.models
                    and not sub.gpus and sub.intent in ("explain", "search")):  # fmt: skip
                # "what does q4 mean?? ... is it worse?": the same concept asked again
                query = _with_settings(query, sub)
                continue
            if _same_concept(query, sub):  # "explain MoE? why does mixtral 8x7b need ...?"
                kept = tuple(m for m in query.models if not m.assumed)
                dropped = {m.note for m in query.models if m.assumed}
                notes = tuple(n for n in query.notes if n not in dropped)
                query = _with_settings(replace(query, models=kept + sub.models, notes=notes,
                                               intent="explain",
                                               num_gpus=sub.num_gpus or query.num_gpus),
                                       sub)  # fmt: skip
                continue
            if _example_of(query, sub):  # "why is decoding bandwidth-bound? explain it with
                # llama 3.1 8b on a 4090": the example's model and card, for the concept
                query = _with_settings(
                    replace(
                        query,
                        models=sub.models,
                        gpus=sub.gpus,
                        num_gpus=sub.num_gpus or query.num_gpus,
                    ),
                    sub,
                )
                continue
            carried = {m.ids for m in sub.models if m.ids} <= {m.ids for m in query.models}
            if (query.topic and sub.precision and not sub.gpus and carried
                    and sub.topic in (None, query.topic) and query.precision is None):  # fmt: skip
                # "what does the 'A3B' mean? how big is it at Q4_K_M?": the concept's model, in
                # the format asked
                query = _with_settings(query, sub)
                continue
            if (query.intent == "recommend" and not (query.gpus or query.models or query.budget)
                    and sub.gpus and not sub.models):  # fmt: skip
                # "which cloud GPU for the FP64 ensemble? the cheapest on our list is the L40S.
                # is that a trap?": the card the question comes to, for the job said first
                fields = tuple(dict.fromkeys([*query.fields, *sub.fields]))
                query = _with_settings(replace(query, gpus=sub.gpus, intent=own,
                                               fields=fields), sub)  # fmt: skip
                continue
            if _more_fields(query, sub):  # "... tiny memory bus? what's the actual GB/s"
                fields = tuple(dict.fromkeys([*query.fields, *sub.fields]))
                intent = "compare" if sub.intent == "compare" else query.intent  # "which is more?"
                if intent == "buy":  # figures of the cards on offer
                    intent = "compare" if len(query.gpus) >= 2 else "spec"
                query = replace(query, fields=fields, intent=intent)
                continue
            others.append(sub)
            context = sub.context_dict()
    later = next((s for s in others if s.intent == "rent_or_buy"
                  and {g.ids for g in s.gpus} <= {g.ids for g in query.gpus}), None)  # fmt: skip
    if query.intent in ("buy", "cost", "rent_or_buy") and later is not None:
        # "used 4090 for $2,000 or rent at $0.40/hr? i generate 6 hours a day. when does buying
        # pay off?": one break-even asked over several sentences, with their settings
        query = replace(_with_settings(query, later), intent="rent_or_buy")
        if query.purchase_usd is None and query.budget is None:
            # "... keep that pace for 2 years? A 4090 is about CA$2,400 here": the price said later
            query = replace(query, purchase_usd=later.purchase_usd, budget=later.budget)
        others = [s for s in others if s is not later]
    elif (
        query.intent == "cost"
        and not query.hours
        and any(s.intent == "buy" and s.gpus in ((), query.gpus) for s in others)
    ):  # "how much is a 5090 rn?? and what was the msrp": its price to buy, both times
        query = replace(query, intent="buy")
    if query.usd_per_kwh is None and (tariff := next((s.usd_per_kwh for s in others
                                                       if s.usd_per_kwh), None)):  # fmt: skip
        # "... when does buying pay off? is 16GB enough? Electric is about 27p a unit": the
        # price of power said anywhere in the message is the user's
        query = replace(query, usd_per_kwh=tariff)
    others = [_at_the_rate(query, s) for s in others]
    # "qlora 70b on two 3090s, doable? how long for an epoch of samples of ~1k tokens": the
    # samples' length, said later, is the first question's too (same job, said once)
    later_context = next((s.context for s in others if s.context and s.models == query.models
                          and s.workload == query.workload), None)  # fmt: skip
    if query.context is None and later_context:
        query = replace(query, context=later_context)
    # a whole run's time or cost asked, in this part or a later one: the recipe's epochs
    timed = any(s.intent in _WHOLE_RUN_INTENTS for s in others)
    query = _recipe_epochs(query, catalog, timed)
    others = [_recipe_epochs(s, catalog) for s in others]
    # (the ask kept from the turn before, resolve's: "and on an h100?" of a price per token)
    before = query.english.partition(_ASKED_BEFORE)[2]
    english = text.strip() + (f"{_ASKED_BEFORE}{before}" if before else "")
    query = replace(query, text=question.strip(), english=english, also=tuple(others))
    query = _no_gpu_to_train(query)
    if previous is None:  # a question of its own (a follow-up's intent comes from the thread)
        second = overruled(query)
        if second is not None:
            query = replace(query, intent=second, cues_intent=query.intent)
    return query


# a later part that only asks the question before again: "it go fit or no?", "will it fit?"
_ASKED_AGAIN = re.compile(
    r"\W*(?:so\s|and\s)?(?:it|will it|would it|does it|can it|could it|it'?ll|it go|it gon)?\s?"
    r"(?:go\s)?(?:fit|run|work|go)s?\b(?:\s(?:or (?:no|not)|then))?\W*$"
)


# a tax added to a bill: "tack on 9.75% sales tax", "plus 20% VAT", "GST of 10%"
_TAX = re.compile(
    r"(?<![\d.])(\d{1,2}(?:\.\d{1,3})?)\s?%\s?(?:sales tax|tax|vat|gst|hst|pst|iva|mwst|btw|moms)\b"
    r"|\b(?:sales tax|vat|gst|hst|tax)(?: rate)?(?: of| at| is|:)?\s(\d{1,2}(?:\.\d{1,3})?)\s?%"
)


def _tax_rate(low: str) -> float | None:
    """A tax to add to a bill, as a fraction ("9.75% sales tax": 0.0975)."""
    m = _TAX.search(low)
    if m is None:
        return None
    rate = float(m.group(1) or m.group(2)) / 100
    return rate if 0 < rate < 0.5 else None


# answers made each day: "~40k summaries/day", "12,000 replies a day" (not hours, images or
# audio, which are work of their own)
_ANSWERS_A_DAY = re.compile(
    rf"(?<![\w.,$]){_NUM}\s?(k|m|mil|million|thousand)?\s(?:[a-z-]+\s){{0,2}}?"
    r"(?!(?:hours|hrs|images|pictures|photos|pics|renders|minutes|tokens|gpus|cards|users)\b)"
    r"([a-z]+s)\s?(?:/\s?|a |per |each |every )day\b"
)


def _day_of_answers(low: str, output_tokens: int | None) -> float | None:
    """The requests a second a day's answers make, spread over the day, when each answer's
    length is said: "~40k summaries/day at ~150 output tokens each" is 0.463 a second."""
    m = _ANSWERS_A_DAY.search(low) if output_tokens else None
    if m is None:
        return None
    answers = _scaled(m.group(1), m.group(2))
    return answers / SECONDS_PER_DAY if answers >= 100 else None


def _no_gpu_to_train(query: Query) -> Query:
    """ "Cheapest way to fine-tune llama 3 8b? no gpu at home": a training job the CPU does not
    do, asked how or where by someone with no card, is a card to rent (the CPU is no option)."""
    training = query.workload in ("train", "finetune", "finetune-full", "finetune-lora",
                                  "finetune-qlora")  # fmt: skip
    if not (query.cpu_only and training and query.intent in ("recommend", "cost")):
        return query
    if not all(m.family in (None, "llm") for m in query.models) or query.gpus:
        return query
    return replace(query, cpu_only=False, location="cloud")


# the size of a run a later part of the message may give the job it continues
_JOB_SIZE = ("steps", "train_tokens", "epochs", "dataset_samples", "images", "audio_hours")
# the settings a later part of the message may add to the question it continues
_SETTINGS = ("hours", "use_hours_per_day", "usd_per_kwh", "context", "batch", "precision")
# the setups of the last two turns weighed: "which one is cheaper then, assuming I rent both"
_BOTH_WEIGHED = re.compile(
    r"\bboth\b|\beither\b|\bthe two\b|\bwhich (?:one|of them|is)\b|\bcompared?\b|\bvs\.?\b"
)
_WHICH_CHEAPER = re.compile(
    r"\bwhich (?:one |option )?(?:is|would be|works out|comes out)? ?(?:the )?(?:cheaper|better"
    r"|more economical|better (?:deal|value|option))\b"
)


# renting said: "rent", "cloud", "per hour", "$/hr", "hourly"


def _bought_only(query: Query, catalog: Catalog) -> bool:
    """ "What does a DGX Spark cost?", "what does a Mac Studio M3 Ultra even cost?": a machine
    that no one rents by the hour (no rental price on record, a purchase price on record) costs
    its price to buy when no hours, rent or price per hour are said."""
    if query.intent != "cost" or not query.gpus or query.hours or query.user_price_usd_per_hour:
        return False
    low = query.text.lower()
    if RENT_SAID.search(low) or rx.search(r"\bbill|\bkwh\b|\belectricity\b|\bpower\b", low):
        return False
    ids = [i for ref in query.gpus for i in ref.ids]
    return bool(ids) and all(not catalog.prices_for(i) and catalog.purchases_for(i) for i in ids)


def _at_the_rate(query: Query, sub: Query) -> Query:
    """ "40 hours per week for 6 weeks ... and if extended to 10 weeks?": the later question's
    span at the same rate of use, not every hour of it."""
    rate = query.use_hours_per_day
    if (rate and sub.use_hours_per_day == rate and sub.hours and sub.hours >= 24 * 7
            and sub.hours % 24 == 0 and _use_rate(sub.text.lower()) is None):  # fmt: skip
        return replace(sub, hours=rate * sub.hours / 24)
    return sub


# a horizon of one month or year, said without a number: "over a year", "for the next month"
_ONE_HORIZON = re.compile(
    r"\b(?:over|across|during|for|in|within) (?:a|one|the next|the coming|the) (?:full |whole )?"
    r"(?:month|year)\b|\b(?:a|one) (?:full |whole )?(?:month|year) of\b"  # ("a year of renting")
)


def _with_settings(query: Query, sub: Query) -> Query:
    """The query with the settings a later part of the message states and it lacks; a span said
    later ("4 hours a week? the project lasts two years") is how long the use rate before runs."""
    rate, span = query.use_hours_per_day, sub.hours
    low = sub.text.lower()
    if (
        rate
        and span
        and span >= 24 * 28
        and sub.use_hours_per_day in (None, rate)
        and (_HORIZON.search(low) or _ONE_HORIZON.search(low))
    ):
        query = replace(query, hours=rate * span / 24)
    kept = {k: getattr(sub, k) for k in _SETTINGS if getattr(query, k) is None}
    if sub.no_power and query.usd_per_kwh is None:
        kept["no_power"] = True  # "... how long until buying pays off? ignore electricity"
    return replace(query, **{k: v for k, v in kept.items() if v is not None})


def _same_choice(sub: Query) -> bool:
    """A later part that names nothing and asks which side of the question before wins, with
    settings of its own ("over a year at 8 hours a day, which is cheaper?")."""
    return not sub.gpus and not sub.models and bool(_WHICH_CHEAPER.search(sub.text.lower()))


def _topic(low: str) -> str | None:
    """The concept a message speaks of; a number format said only as a setting ("numbers in bf16
    please", "running it in fp8") is how to answer, not the subject."""
    for topic, pattern in TOPIC_WORDS.items():
        found = list(rx.finditer(pattern, low))
        if topic == "memory_units":  # "... with 8k ctx in GiB pls": the unit of the answer asked
            found = [m for m in found if not rx.search(r"\bin\s$", low[: m.start()])]
        if (topic == "nvlink" and rx.search(r"\b(?:tensor|pipeline) parallel", low)
                and not rx.search(r"\bnvlink (?:matters?|important|needed|necessary|worth|help"
                                  r"|so important)|\b(?:why|how much) (?:does|do|is|would) "
                                  r"(?:\w+ ){0,2}nvlink\b", low)):  # fmt: skip
            continue  # "tensor parallel vs pipeline parallel without nvlink": the split asked
        if topic == "pcie":  # "a box of H100 PCIe cards": the card's form, not the bus asked
            found = [m for m in found if not rx.search(r"\b[a-z]{0,4}\d{2,4}[a-z]?\s$",
                                                       low[: m.start()])]  # fmt: skip
        if topic == "kv_cache":  # "BF16 KV cache", "an fp8 kv cache": the cache's format, set
            found = [
                m
                for m in found
                if not rx.search(
                    r"\b(?:bf16|fp16|fp8|int8|int4|q8_0|q4_0|f16|8-?bit|4-?bit)\s$",
                    low[: m.start()],
                )
            ]
        if topic in ("fp8", "tf32", "bf16", "quantization"):  # ("... at Q4_K_M": a setting)
            setting = r"\b(?:in|în|at|using|with|в)\s$|\d\s?b\s$"  # (or after a size: "70b fp8")
            found = [m for m in found if not rx.search(setting, low[: m.start()])
                     # ("vLLM, FP8 weights, BF16 KV cache": the job's formats, no concept asked)
                     and not rx.match(r"\s(?:weights?|kv|cache|checkpoints?|model)\b",
                                      low[m.end() :])]  # fmt: skip
        if found:
            return topic
    return None


def _settings_only(sub: Query) -> bool:
    """A short later part that names nothing, asks nothing and only sets how the question before
    is answered ("numbers in bf16 please", "assume 8k context")."""
    low = sub.text.lower()
    return (
        not sub.gpus
        and not sub.models
        and len(low.split()) <= 6
        and "?" not in low
        and not rx.search(r"\b(?:what|which|how|why|when|is|are|does|do|can|should)\b", low)
        and any(getattr(sub, k) is not None for k in ("precision", "context", "batch", "engine"))
    )


def _sizes_listed(query: Query, sub: Query) -> bool:
    """A later part that only lists sizes after "the biggest model I can run": the options."""
    return (
        query.intent == "solve"
        and query.target is None
        and {g.ids for g in sub.gpus} <= {g.ids for g in query.gpus}
        and bool(sub.models)
        and all(not m.ids and m.size_b for m in sub.models)
    )


def _same_concept(query: Query, sub: Query) -> bool:
    """A later "why" about a model after a concept explained: the model is the example of it."""
    return (
        query.intent in ("explain", "search")  # ("wat does q4 mean??": a concept, said loosely)
        and query.topic is not None
        and sub.intent in ("explain", "search")
        and sub.topic in (None, query.topic)
        and not sub.gpus
        # (a model only assumed before, "fp16 vs int8 for Whisper? we run Whisper small": the
        # one named later is the one meant)
        and all(m.assumed for m in query.models)
        and bool(sub.models)
    )


def _example_of(query: Query, sub: Query) -> bool:
    """A later part that asks for an example of the concept just asked about."""
    sized = bool(rx.search(r"\bhow (?:big|large|much (?:memory|vram))\b", sub.text.lower()))
    return (
        query.intent == "explain"
        and (query.topic is not None or (sized and bool(sub.models)))
        and not query.models
        and not query.gpus
        and bool(sub.models or sub.gpus)
        and bool(rx.search(r"\b(?:example|e\.g\.|for instance|illustrat\w*|show me"
                           r"|back[- ]of[- ](?:the[- ])?envelope|concretely|in numbers"
                           r"|with (?:real|actual) numbers|put numbers on"
                           # "explain quantization ... how big is qwen2.5 14b in bf16 vs q4?"
                           r"|how (?:big|large|much (?:memory|vram))|in gb|how many (?:gb|gigs))\b",
                           sub.text.lower()))
    )  # fmt: skip


def _more_fields(query: Query, sub: Query) -> bool:
    """A later question that only asks another datasheet figure of the GPUs already named (all
    of them, or one: "4070 ti super or 4080 super? how much faster is the memory on the 4080s");
    a card to get used or new is no purchase asked ("and the memory bandwidth? thinking of getting
    a used one")."""
    # ("supplier offering a used RTX A6000 or an L40S. both 48gb right? fp16 tflops on each?": a
    # figure asked of cards on offer, no price to weigh)
    offered = (query.intent == "buy" and bool(query.fields) and not query.budget
               and not query.purchase_usd and not query.gpu_purchase_prices)  # fmt: skip
    return (
        (query.intent in ("spec", "compare") or offered)
        and (
            sub.intent in ("spec", "compare")
            or (sub.intent == "buy" and not sub.budget)
            # "... more bandwidth than a 5090? what's different about the memory itself?"
            or (sub.intent == "explain" and sub.topic is None)
        )
        and bool(sub.fields)
        and {m.ids for m in sub.models} <= {m.ids for m in query.models}  # carried, not new
        and (sub.gpus == query.gpus or _some_of(sub.gpus, query.gpus))
    )


def _some_of(some: tuple[GpuRef, ...], gpus: tuple[GpuRef, ...]) -> bool:
    """Whether every GPU of `some` (one at least) is one of `gpus`."""
    return bool(some) and {g.ids for g in some} <= {g.ids for g in gpus}


# preference tuning: each step runs a chosen and a rejected answer through the policy, and a
# frozen reference scores both
_PREFERENCE = re.compile(
    r"\b(?:dpo|orpo|kto|simpo|ipo|preference (?:tuning|optimi[sz]ation|pairs))\b"
)


def _preference_pairs(query: Query) -> Query:
    """ "DPO with LoRA on a 7B": a fine-tune whose every sample is a pair (chosen, rejected), so
    each step holds twice the sequences; the reference model said once in a note: with LoRA the
    base with its adapters off (TRL with PEFT), no second copy; a full fine-tune keeps one."""
    low = query.text.lower()
    if not _PREFERENCE.search(low) or query.workload == "train":
        return query
    if not (query.workload or "").startswith("finetune"):  # "full DPO of a 3B": a fine-tune
        query = replace(query, workload="finetune-full" if rx.search(r"\bfull\b", low)
                        else "finetune")  # fmt: skip
    pairs = query.batch or 1
    adapter = query.workload in ("finetune-lora", "finetune-qlora")
    reference = (
        "the reference model is the base with the adapters switched off (TRL with PEFT), so no "
        "second copy is held" if adapter else
        "a full fine-tune also holds a frozen reference copy of the model (its 16-bit weights) "
        "beside the one trained, not counted in the figures here"
    )  # fmt: skip
    step = "a step of one pair" if pairs == 1 else f"a step of {pairs:,} pairs"
    note = (f"Preference tuning (DPO and kin): {step} runs a chosen and a rejected answer for "
            f"each, {2 * pairs:,} sequences in all; {reference}.")  # fmt: skip
    return replace(query, batch=2 * pairs, notes=(*query.notes, note))


def _default_workload(query: Query) -> Query:
    """No job said: a training framework named for no LLM ("pytorch tutorials and kaggle",
    "tensorflow coursework on resnets") means training; an inference engine ("for ollama"), a
    model or a family hint means running it."""
    tokens = query.train_tokens or 0
    if query.workload == "finetune" and tokens >= PRETRAINING_TOKENS:
        # "train a 13b on 300b tokens": a corpus that size is pre-training, not a fine-tune
        note = (f"{tokens / 1e9:,.0f}B tokens is a pre-training corpus: training from scratch "
                "assumed (say LoRA or fine-tune if it is one).")  # fmt: skip
        return replace(query, workload="train", notes=(*query.notes, note))
    small = [m.size_b for m in query.models
             if not m.ids and m.size_b and m.size_b < SMALL_TRAINED_B]  # fmt: skip
    if (query.workload == "finetune" and small and len(small) == len(query.models)
            and not _TUNED_SAID.search(query.text.lower())):  # fmt: skip
        # "pytorch training of ~100M param models": models that small are trained, not tuned
        note = (f"Training models of {small[0] * 1000:,.0f}M parameters read as training "
                "from scratch (say fine-tune or LoRA if it is one).")  # fmt: skip
        return replace(query, workload="train", notes=(*query.notes, note))
    low = query.text.lower()
    if query.workload == "finetune" and (
        query.framework in _SHARDED_TRAINING or rx.search(_DATA_PARALLEL, low)
    ):
        # "training a 13B with FSDP", "a 1B model with DDP": sharded or data-parallel training
        # trains every weight, unless LoRA is said
        way = "data-parallel" if query.framework not in _SHARDED_TRAINING else "sharded"
        note = (f"Method not given: full training assumed, as {way} training is (say LoRA or "
                "QLoRA for the others).")  # fmt: skip
        return replace(query, workload="finetune-full", notes=(*query.notes, note))
    if query.workload is not None:
        return query
    llm = any(m.family in (None, "llm") for m in query.models) or family_hint(low) == "llm"
    if query.framework in _SHARDED_TRAINING:  # "deepspeed zero-3 for a 13b": training it whole
        return replace(query, workload="finetune-full" if llm else "train")
    vision = any(m.family in ("vision", "transformer") for m in query.models)
    if vision and query.dataset_name and not query.engine:
        return replace(query, workload="train")  # "resnet-50 on cifar-10": a data set to train on
    # ("StableDiffusionXLPipeline.from_pretrained(...).to('cuda') dies with OOM": torch named
    # for a model loaded to run, not trained)
    loaded = rx.search(r"pipeline\b|\bfrom_pretrained\b|\bloading\b|\bload(?:s|ed)? (?:it|the)\b",
                       low)  # fmt: skip
    if query.framework in _TRAINING_FRAMEWORKS and not llm and not query.engine and not loaded:
        return replace(query, workload="train")
    if query.models or query.engine or family_hint(low):
        return replace(query, workload="inference")
    return query


SMALL_TRAINED_B = 1.0  # a generic LLM smaller than this, "trained", is trained from scratch
_TUNED_SAID = re.compile(r"\bfine[- ]?tun\w*|\bfinetun\w*|\b(?:q?lora|sft|peft|adapters?)\b")
_TRAINING_FRAMEWORKS = ("pytorch", "tensorflow", "tensorflow-xla", "keras", "jax")
# frameworks that only train, sharding a model's states over GPUs (or into CPU memory)
_SHARDED_TRAINING = ("deepspeed", "fsdp", "megatron")
_DATA_PARALLEL = r"\bddp\b|\bdata[- ]parallel\b|\bdistributeddataparallel\b"
# tokens from which an LLM's training data is a pre-training corpus (a judgement, not a fitted
# figure: instruction and chat fine-tuning sets run from millions to a few billion tokens)
PRETRAINING_TOKENS = 10e9


_ASKING = (
    r"(?:what|which|how|can|could|will|would|is|are|does|do|should|and|also|plus|then|"
    r"why|where|when|whats|what's|any)\b"
)


# Whisper named with no size ("the whisper pods"): not "whisper-worker-7d9f8b" nor
# "distil-whisper"; "whisper.cpp" and "faster-whisper" run it; a size said but not read: no guess
_SIZE_SAID = r"(?!\W{0,3}(?:tiny|base|small|medium|large|turbo|lv?\d|v\d|distil|\d))"
_WHISPER_UNSIZED = re.compile(
    rf"(?<![-\w])whisper\b(?![-_]\w){_SIZE_SAID}|\bwhisper\.cpp\b{_SIZE_SAID}"
    rf"|\bfaster-whisper\b{_SIZE_SAID}"
)


# Stable Diffusion named with no version ("is the 4070 Ti Super good for stable diffusion?")
# images made by a model, none named: "make AI pictures of my roses", "for image generation"
_IMAGE_UNNAMED = re.compile(
    r"\b(?:ai|generative|ai[- ]generated)\s(?:art|artwork|pictures?|pics|images?|imagery"
    r"|illustrations?|photos?)\b|\bimage generation\b|\btext[- ]to[- ]image\b|\btxt2img\b"
    r"|\bgenerat\w* (?:ai )?(?:images?|pictures?|pics|art)\b"
    # the image UIs as the job: "RTX 5060 Ti 8GB or 16GB for ComfyUI?" (not "people on the
    # ComfyUI discord say ...")
    r"|\b(?:for|in|with|run(?:ning)?|using) (?:comfy ?ui|automatic ?1111|a1111|forge ui|invoke ?ai"
    r"|fooocus)\b(?! (?:discord|forums?|reddit|subreddit|community|server|group)\b)"
)
# a number of images made, no model named: "can a 4090 finish 20000 images in a week", "how long
# to render 1,000 pictures" (not images trained on, labelled or classified: _IMAGES_WORKED)
_IMAGES_MADE = re.compile(
    r"\b(?:make|making|made|generat\w*|render\w*|creat\w*|produc\w*|(?:churn|crank|pump)\w* out"
    r"|finish\w*|do|doing|get through)\s(?:about |around |roughly |~)?\d[\d,.]*\s?k?\s"
    r"(?:ai |new )?(?:images?|pictures?|pics|renders?|illustrations?)\b"
)
_IMAGES_WORKED = re.compile(
    r"\b(?:train\w*|fine-?tun\w*|classif\w*|label\w*|detect\w*|segment\w*|caption\w*"
    r"|upscal\w*|dataset|annotat\w*|ocr|scan\w*|yolo|resnet|vit|clip)\b"
)
# the card's own hourly rent asked ("we make 500 images a day, what's an L4 per hour?"): no job
_HOURLY_ASKED = re.compile(r"\bper (?:gpu[- ])?h(?:ou)?r\b|\bhourly\b|\ban hour\b|/h(?:ou)?r\b")
_SD_UNVERSIONED = re.compile(
    r"\bstable[- ]?diffusion\b(?!\W{0,3}(?:xl|\d|v\d|turbo|cascade|large|medium))"
    # "is a 4090 fast enough for SD?": the abbreviation alone (not an SD card, not "SD 1.5")
    r"|\bsd\b(?![- ]?(?:cards?|slots?|readers?|xl|\d|v\d|turbo|cascade|large|medium|of)\b)"
)


# YOLO with no version or size: "train YOLO models", "yolo on my dataset"
_YOLO_UNVERSIONED = re.compile(r"\byolo\b(?![- ]?(?:v?\d|nas|world|x\b))")
YOLO_ASSUMED = "yolo11m"  # Ultralytics' current detector, at its middle size


# a U-Net said with no image generator beside it (then "unet" is the denoiser of Stable Diffusion)
SEGMENTATION_UNET = "unet-segmentation"
_SEGMENTATION_UNET = re.compile(
    r"^(?!.*\b(?:sd|sd ?\d(?:\.\d)?|sdxl|stable diffusion|diffusion|denoiser|dreambooth|vae"
    r"|text encoders?|comfyui|flux|loras?|image generation)\b)(?=.*\bu-?nets?\b)",
    re.DOTALL,  # (a message in lines: "Details:\n2. the standard U-Net")
)


# a CNN named by its kind, or a ResNet with no depth: "a small cnn", "resnet on cifar10"
_CNN_UNNAMED = re.compile(
    # (a CNN said with no size is the family's stand-in, said where the answer rests on it)
    r"\b(?P<small>(?:small|simple|tiny|basic|little|toy)\s)(?:cnn|convnet|conv ?net)s?\b"
    r"|\bresnets?\b(?![- ]?\d)"
)


# a job asked of the CNN (not "cnn vs transformer, which needs more vram", a concept)
_CNN_JOB = re.compile(r"\b(?:train\w*|fine[- ]?tun\w*|finetun\w*|infer\w*|run|classif\w*)\b")


def _family_named(low: str) -> tuple[ModelRef, ...]:
    """ "the whisper transcription pods": a family named without its size is its reference
    model, said as assumed (Whisper large-v3, the size most used to transcribe); "YOLO" alone is
    Ultralytics' current detector at its middle size."""
    if _YOLO_UNVERSIONED.search(low):
        note = "YOLO with no version or size named: YOLO11m assumed (say yours if it differs)."
        return (ModelRef("YOLO", (YOLO_ASSUMED,), "vision", note=note, assumed=True),)
    if _SEGMENTATION_UNET.search(low):  # "a unet for medical segmentation": not SD's denoiser
        return (ModelRef("U-Net", (SEGMENTATION_UNET,), "vision"),)
    cnn = _CNN_UNNAMED.search(low) if _CNN_JOB.search(low) else None
    if cnn is not None:
        # "train resnet on cifar10", "a small cnn on mnist": the catalog's ResNet of that kind
        small = bool(cnn.group("small"))
        ref, name = ("resnet-18", "ResNet-18") if small else ("resnet-50", "ResNet-50")
        what = "A small CNN" if small else "A CNN"
        note = f"{what} with no architecture or size named: {name} assumed."
        return (ModelRef(cnn.group(0).strip(), (ref,), "vision", note=note, assumed=True),)
    if _VIT_UNSIZED.search(low):  # "a vision transformer", "vit training": the base model
        note = (
            "A vision transformer with no size named: ViT-B/16 assumed (say yours if it differs)."
        )
        return (ModelRef("vision transformer", ("vit-b-16",), "vision", note=note, assumed=True),)
    if not _WHISPER_UNSIZED.search(low):
        return ()
    ref = FAMILIES["speech"].reference_model
    note = "Whisper with no size named: large-v3 assumed (say the size if it differs)."
    return (ModelRef("Whisper", (ref,), "speech", note=note, assumed=True),)


# a ViT with no size: "vision transformer training", "a vit on imagenet" (not "ViT-L/16")
_VIT_UNSIZED = re.compile(
    # ("vit h14", "vit b16": a size said, run together with its patch)
    r"\bvision transformers?\b|\bvits?\b(?![-_/ ]?(?:b|l|h|s|ti|g)(?:\d+|\b)"
    r"|[-_/ ]?(?:base|large|huge|small|tiny)\b|[-_/]\d)"
)


# a GPU asked for, none named: "best bang for buck gpu for ...", "which card should I get for"
_GPU_ASKED = re.compile(
    r"\b(?:best|recommend\w*|cheapest|good|pick)\b[^.?!]{0,40}?\b(?:gpus?|cards?|graphics cards?"
    r"|setups?|rigs?|builds?|machines?|hardware)\b"
    r"(?!\s(?:does|do|is|are|has|have|supports?)\b)"
    r"|\b(?:which|what) (?:gpu|card|graphics card)s? (?:should|would|to|do you recommend|for"
    r"|buy)\b"  # ("which graphics card buy ...": a question written in another language)
    r"|\b(?:gpus?|cards?)\b[^.?!]{0,20}\bshould (?:i|we) (?:buy|get|rent|use|pick)\b"
    # "gpu for stable diffusion", "budget is 2000 AUD, gpu for sd": a clause asking a card
    r"|(?:^|[,;:]\s*)(?:a |the |new |good |)(?:gpu|graphics card|card) for\b"
    # "$20k to build a local LLM server ... what do i buy?": the hardware asked, no card named
    r"|\bwhat (?:do|should|would) (?:i|we) (?:buy|get|build)\b"
    # "$1500 for a gpu to run local llms", "1,800 dollars for a graphics card ... recommendations?"
    r"|(?:\$|€|£)\s?\d[\d,.]*\s?k?\b[^.?!]{0,25}\bfor (?:an? )?(?:new |used )?(?:gpu|card"
    r"|graphics card)\b"
    r"|\b\d[\d,.]*\s?k?\s?(?:dollars|euros?|bucks|usd|eur|pounds)\b[^.?!]{0,25}\bfor (?:an? )?"
    r"(?:new |used )?(?:gpu|card|graphics card)\b"
    r"|\b(?:budget|spend)\b[^.?!]{0,30}\bfor (?:an? )?(?:new |used )?(?:gpu|card|graphics card)\b"
)
# a machine for a team, not one person's desk: "a local LLM server for my team of 15 devs"
_TEAM_SERVER = re.compile(
    r"\b(?:team|devs|developers|engineers|colleagues|employees|staff|company|office|users)\b"
)
TEAM_LLM = "llama-3.3-70b"  # the LLM a team's server is sized for when the question names none
# LLMs in general, no model named: "for local llms", "llm inference", "a chatbot"
_LLM_UNNAMED = re.compile(r"\bllms?\b|\blarge language models?\b|\blocal (?:ai )?models\b")
# a named card judged for a kind of work: "is the L4 any good for LLM inference?"
_JUDGED = re.compile(
    r"\b(?:any good|good enough|good for|decent|(?:ok|okay|fine) for|usable|suitable|viable"
    r"|worth it|too slow|fast enough|enough for)\b"
)
REFERENCE_LLM = "llama-3.1-8b"  # the LLM a GPU is picked for when the question names none


def _sd_unversioned(
    low: str, models: tuple[ModelRef, ...], gpus: tuple[GpuRef, ...], catalog: Catalog
) -> tuple[ModelRef, ...]:
    """ "Is the 4070 Ti Super good for stable diffusion?", "best gpu for stable diffusion under
    $500": SDXL, said as assumed, when a GPU is named or asked for and no Stable Diffusion
    version was ("make me a picture with stable diffusion" is no GPU question)."""
    unnamed = _IMAGE_UNNAMED.search(low) or (  # "ai pictures", "image generation": no model
        _IMAGES_MADE.search(low) and not _IMAGES_WORKED.search(low)
        and not _HOURLY_ASKED.search(low))  # fmt: skip
    sd = _SD_UNVERSIONED.search(low)
    if not (gpus or _GPU_ASKED.search(low) or _MEMORY_ENOUGH.search(low)) or not (sd or unnamed):
        return ()
    if any(m.family in ("diffusion", "vision") for m in models) or (unnamed and models):
        return ()
    memory = [_card_memory_gb(g, catalog) for g in gpus]
    said = None if gpus else _MEMORY_ENOUGH.search(low)  # "would 6gb be enough": that size
    size = rx.match(r"\d+(?:\.\d+)?", said.group(0)) if said else None
    if size:
        memory = [float(size.group(0))]
    if memory and all(m is not None and m < SMALL_CARD_GB for m in memory):
        # "stable diffusion on my laptop rtx 3050 4gb": what such a card runs is SD 1.5
        note = ("Stable Diffusion with no version named, on a card under "
                f"{SMALL_CARD_GB:g} GB: SD 1.5 assumed (say which if it differs).")  # fmt: skip
        return (ModelRef("Stable Diffusion", ("sd-1.5",), "diffusion", note=note, assumed=True),)
    ref = FAMILIES["diffusion"].reference_model
    note = "Stable Diffusion with no version named: SDXL assumed (say which if it differs)."
    if not sd:
        note = "Image generation with no model named: SDXL assumed (say which if it differs)."
    return (ModelRef("Stable Diffusion", (ref,), "diffusion", note=note, assumed=True),)


# a memory size weighed for a job: "is 12gb enough for stable diffusion", "would 8 gigs do"
_MEMORY_ENOUGH = re.compile(
    r"\b\d+(?:\.\d+)? ?(?:gb|gigs?|g)\b(?: of (?:vram|memory))?[^.?!]{0,20}\b(?:enough|sufficient"
    r"|plenty|suffice|cut it|do (?:it|the job)|be ok|be fine)\b"
)
# a card this small is sized for SD 1.5 when Stable Diffusion is named with no version: SDXL's
# 16-bit weights alone (UNet and both text encoders, about 6.9 GB) leave it no room
SMALL_CARD_GB = 8.0


def _card_memory_gb(ref: GpuRef, catalog: Catalog) -> float | None:
    """The most memory any catalog entry a GPU mention may be has, or the size said."""
    if ref.memory_gb:
        return ref.memory_gb
    sizes = [catalog.gpus[i].memory_gb for i in ref.ids if i in catalog.gpus]
    return max(sizes) if sizes else None


# a model asked for, not a card: "which open source llm is best for ...", "what model should i"
_WHICH_MODEL = re.compile(
    r"\b(?:which|what)\s(?:open[- ]?source |open[- ]weights? |local |coding )?(?:llm|model)s?\s"
    r"(?:is|are|would|should|can|could|do|to)\b"
)


def _llm_unnamed(
    low: str, models: tuple[ModelRef, ...], gpus: tuple[GpuRef, ...]
) -> tuple[ModelRef, ...]:
    """ "Best GPU for local LLMs, budget $2,000": a GPU asked for (none named) for LLMs in
    general is picked for an 8B model, said as assumed."""
    judged = bool(gpus) and bool(_JUDGED.search(low))  # "is the L4 any good for LLMs?"
    on_cpu = not gpus and bool(affirmed(_CPU_ONLY, low))  # "no gpu at all: any llm on cpu?"
    if on_cpu and not models and _LLM_UNNAMED.search(low):
        note = ("No LLM named: Llama-3.1-8B assumed, a common local model (name yours for a "
                "bigger or smaller one).")  # fmt: skip
        return (ModelRef("Llama-3.1-8B", (REFERENCE_LLM,), "llm", note=note, assumed=True),)
    if (
        models
        or (gpus and not judged)
        or not ((_GPU_ASKED.search(low) or judged) and _LLM_UNNAMED.search(low))
        or _WHICH_MODEL.search(low)  # "which open source llm is best for a 16 gb card": a model
    ):
        return ()
    if not judged and _TEAM_SERVER.search(low) and rx.search(r"\bservers?\b|\bteam\b", low):
        note = ("No LLM named: Llama-3.3-70B assumed, the size a team's server is commonly "
                "bought to host (name yours for a smaller one).")  # fmt: skip
        return (ModelRef("Llama-3.3-70B", (TEAM_LLM,), "llm", note=note, assumed=True),)
    note = ("No LLM named: Llama-3.1-8B assumed, a common local model (name yours for a bigger "
            "one).")  # fmt: skip
    # a card judged for LLMs is answered with what it runs (the model named in each figure)
    return (ModelRef("Llama-3.1-8B", (REFERENCE_LLM,), "llm", note=None if judged else note,
                     assumed=True),)  # fmt: skip


def _split_questions(text: str) -> list[str]:
    """Several questions in one message: split after a '?' that more words follow."""
    if len(text) > 600:
        return [text]
    pieces = [p.strip() for p in rx.split(r"(?<=\?)\s+(?=[A-Za-z0-9])", text) if p.strip()]
    # "what is that per year, and what if I cap each card at 250 W?": a second question
    pieces = [
        part.strip()
        for piece in pieces
        for part in rx.split(r"(?:,|;)\s(?=(?:and |but )?what if\b[^?]{12,}\?$)", piece, flags=re.I)
    ]
    # "compare the A100 and L40S: memory, bandwidth. And how much for 120 hours of the L40S at
    # $1.10/h?": a request, then a question of its own after the full stop
    pieces = [
        part.strip()
        for piece in pieces
        for part in (rx.split(_LATER_QUESTION, piece) if _REQUEST_OPENS.search(piece) else [piece])
    ]
    merged: list[str] = []
    for piece in pieces:  # "... with qlora? on a 3090": a continuation, not another question
        short = len(piece.split()) < 4 or bool(
            rx.match(r"(?:on|in|with|for|at|using|via|or)\b", piece, re.I)
        )
        # "... on A100s? like the original, ~150k A100 hours?": the same question's detail
        short = short or bool(
            rx.match(r"(?:like|say|e\.g\.|i\.e\.)\b", piece, re.I)
            and not rx.search(r"\b(?:how|what|which|when|why|is|are|can|does|do)\b", piece, re.I)
        )
        # "... a 13B model? what about 34B?": short, but a question of its own about the first
        short = short and not rx.match(r"(?:and |but |ok |so )?(?:what|how) about\b", piece, re.I)
        # "... on a NAS? small models only, like phi-3 mini": details, not a second question
        asks = piece.rstrip().endswith("?") or rx.match(_ASKING, piece, re.I)
        options = merged and rx.fullmatch(
            r"[\w.:/+-]+(?:\s(?:or|vs\.?)\s[\w.:/+-]+)+\?\s*", merged[-1]
        )
        # "awq or gguf? which is better": a list of options and the question about them
        listed = options and not rx.match(_ASKING, merged[-1], re.I)
        if listed or (merged and (short or not asks)):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    if len(merged) > 1 and _ANYONE_THERE.fullmatch(merged[0]):
        merged = merged[1:]  # "is anyone there? does llama 8b fit on a 3060?": the question
    return merged or [text]


# a question after a full stop: "... the L40S. And how much for 120 hours of it at $1.10/h?"
_LATER_QUESTION = re.compile(
    r"(?<=[.!])\s+(?=(?:and|also|plus)\W{0,2}\s?(?:how (?:much|long|many)|what)\b"
    r"(?:[^.?!]|\.\d){8,}\?$)",
    re.IGNORECASE,
)
# a message that opens with a request of its own: "compare ...", "list the ...", "give me ..."
_REQUEST_OPENS = re.compile(
    r"^(?:[^.?!:]{0,60}:\s)?\W*(?:(?:please|pls|kindly|could you|can you)\s)?(?:compare|list"
    r"|give me|tell me|show me"
    r"|summari[sz]e|quote)\b",
    re.IGNORECASE,
)


# a check that someone is there, before the question: "is anyone there?", "you there?"
_ANYONE_THERE = re.compile(
    r"\W*(?:(?:hi|hello|hey)\W+)?(?:is |are )?(?:anyone|anybody|someone|somebody|you|tha|thee)"
    r" (?:there|about|around|awake|online)\s?\?+",
    re.IGNORECASE,
)


# one card weighed against more: "or is one enough?", "is a single H100 enough, or two?"
_ONE_OR_MORE = re.compile(
    rf"\bneed {_WORD_NUM}\b[^.?!]{{0,60}}\bor (?:is|would|will) (?:just )?(?:one|a single|1)"
    r"(?: \w+)? (?:be )?(?:enough|sufficient|ok|okay|fine)\b"
    r"|\b(?:is|would|will) (?:just )?(?:one|a single|1) (?:[\w-]+ ){0,3}(?:be )?(?:enough"
    rf"|sufficient)\b[^.?!]{{0,60}}\bor\b[^.?!]{{0,25}}?\b{_WORD_NUM}\b(?! ?(?:gb|b|k)\b)"
    # "does it fit on a single A100 80GB or do i need two", "one 3090 or do we need another"
    r"|\b(?:a single|one|1|just one)\b[^.?!]{0,60}\bor (?:do|will|would|should|must) (?:i|we) "
    rf"(?:need|require|have to (?:get|use|buy)) {_WORD_NUM}\b(?! ?(?:gb|b|k)\b)"
    # "thinking a single L40S ... will that hold up or do we need 2?"
    r"|\b(?:hold up|be enough|suffice|cope|cut it|handle it|work)\s?,? or (?:do|will|would"
    rf"|should|must) (?:i|we) (?:need|require) {_WORD_NUM}\b(?! ?(?:gb|b|k)\b)"
)


def _weighed_against_one(low: str) -> int | None:
    """The count one card is weighed against ("is one A100 enough or do we need two?": 2)."""
    more = _ONE_OR_MORE.search(low)
    if more is None:
        return None
    return int(_count(next(g for g in more.groups() if g is not None)))


_CARD_HOURS = re.compile(r"\b([A-Za-z]{1,3}\d{2,4}[A-Za-z]?)-(hours?|hrs?)\b")


# a card named as a class: "a 4090-class gpu", "3090-level card", "A100-tier"
_CARD_CLASS = re.compile(r"\b([A-Za-z]*\d{3,4}\w*)-(class|level|tier|grade|ish|like)\b")


def _parse(text: str, catalog: Catalog) -> Query:
    linker = linker_for(catalog)
    clouds = linker.instance_providers(text)  # a p4d is rented from AWS, at its prices
    text, instance_notes, node_size = linker.expand_instances(text)  # "p4d.24xlarge" -> "8 x A100"
    text = linker.split_counts(text)  # "4xA100" -> "4 x A100" (never "8x7B")
    text = _CARD_HOURS.sub(r"\1 GPU-\2", text)  # "how many A100-hours": the card, its hours
    text = _CARD_CLASS.sub(r"\1 \2", text)  # "a 4090-class gpu": the 4090 named
    # keyword slips fixed for the cues only: the linker sees the user's own words
    # ("convnext" is a model, not a misspelt "context")
    low = _thousands_dots(_spell(text).lower())
    # "did one hour of audio in 2 min", "a 45-minute episode came out in 3": a pace, no job size
    unpaced = _timed_blanked(_RECORDING_PACE.sub(" ", _AUDIO_PACE.sub(" ", low)))
    audio = _audio_hours(unpaced)
    absent = _absent_accelerators(text)  # "Ascend 910B": a chip the catalog lacks, not a model
    models = _hosted_dropped(_sized_family(tuple(linker.find_models(text)), linker, text.lower()))
    models, absent_note = _absent_models(low, models)  # "wan 2.1 14b": a video model, no 14B LLM
    models = tuple(m for m in models if not any(_spans_overlap(m.text, text, a) for a, _ in absent))
    if not any(m.family == "speech" or "whisper" in m.text.lower() or absent_kind(m.text)
               for m in models):  # fmt: skip
        # (not when a Whisper the catalog lacks was read; never a model read already)
        models += tuple(m for m in _family_named(low)
                        if not any(set(m.ids) & set(o.ids) for o in models))  # fmt: skip
    spans = [(m.start(), m.end()) for r in models for m in _spans_of(r.text, text)]
    spans += [span for span, _ in absent]
    gpus = _elliptic_forms(tuple(linker.find_gpus(text, skip=spans)), low, linker)
    gpus += tuple(GpuRef(name, (), note=ABSENT_NOTE.format(name=name)) for _, name in absent)
    models += _sd_unversioned(low, models, gpus, catalog)
    models += _llm_unnamed(low, models, gpus)
    models = _models_set_aside(models, low)
    if "ollama" in low:  # "ollama run mistral", "my qwen2.5 in ollama": the library's default tag
        models = tuple(m if m.ids or not m.suggestions else _ollama_default(m.text, catalog) or m
                       for m in models)  # fmt: skip
        bare = None if models else _OLLAMA_NAME.search(low)  # "my mistral": no reference made
        tagged = _ollama_default(bare.group(1), catalog) if bare else None
        models = (tagged,) if tagged else models
    gpus = _one_gpu_said_twice(gpus, low)
    if instance_notes:
        gpus = _instance_of_counted(gpus, linker)
    gpus = _notebook_variants(gpus, low)
    gpus = _max_q_edition(gpus, low, linker)
    if not gpus and _COLAB_FREE.search(low):  # "qlora llama 3 8b on colab free tier, will it oom"
        gpus = (GpuRef("Colab's free tier", ("t4",), note=_COLAB_FREE_NOTE),)
    elif (
        _COLAB_FREE.search(low) and len(gpus) == 1 and gpus[0].ids == ("t4",) and not gpus[0].count
    ):
        gpus = (replace(gpus[0], count=1),)  # "colab free tier t4": one T4, never two
    gpus = _replicated(gpus, low)
    gpus = _one_node(gpus, models, low, catalog)
    gpus = _one_of_them(gpus, low)
    gpus = _count_either_way(gpus, low)
    if other := _weighed_against_one(low):  # "do I need two 4090s, or is one enough?": one
        gpus = tuple(replace(g, count=None) if g.count == other else g for g in gpus)
    money = _money(low)  # read once: prices, budgets, each card's price, the monthly amount
    user_price, budget = _prices_and_budget(low, money)
    if user_price is None and not money and (bare := _GPU_HOURS_AT.search(low)):
        user_price = float(bare.group(1))  # "1,200 GPU-hours on H100s at 2.2": the hour's price
    if user_price is None and (rented := _RENTED_EACH_AT.search(low)) and _HOURS_SAID.search(low):
        # "renting 4 A100 80GB at 1.60 each for 100 hours": each card's hour, not a budget
        user_price = float(rented.group(1))
        if budget and budget.usd == user_price:
            budget = None
    if budget is None and not money and (bare := _BARE_BUDGET.search(low)):
        budget = Budget(float(bare.group(1).replace(",", "")), "buy", "total")  # "gpu under 800"
    each = EACH_PRICE.search(low)
    times = rx.search(rf"\b(?:get|buy|grab|want|need)\s{_WORD_NUM}\s(?:of them|cards|gpus)\b", low)
    if budget and budget.per == "total" and each and times and _count(times.group(1)) > 1:
        budget = replace(budget, usd=budget.usd * _count(times.group(1)))  # "$150 each, 4 of them"
    purchase = _purchase(low)
    # (a price paid, or a shop's: "saw the 4060 Ti on sale for like $550")
    paid = rx.search(r"\b(?:purchased|bought|paid|grabbed|snagged|scored|picked up)\b"
                     r"|\b(?:on|for) sale\b", low)  # fmt: skip
    if (
        budget
        and purchase == budget.usd
        and not _BUDGET_SAID.search(low)
        and (paid or budget.kind == "rent")
    ):
        # "purchased at 7,500 USD", "4090 at $1,800 vs renting at $0.40/h": the card's price, not
        # a limit to buy or rent within
        budget = None
    level = _PRICE_LEVEL.search(low)
    if budget and level and len(gpus) >= 2 and not _BUDGET_SAID.search(low):
        budget = None  # "4070 ti super or 7900 xt? both are ~$800": the cards' price, no limit
    if (budget and _PAIR_PRICED.search(low) and not _BUDGET_SAID.search(low)
            and not rx.search(r"\b(?:for|with) (?:this|that|the same) (?:money|amount|price)\b",
                              low)):  # fmt: skip
        # "2x 3060 (both on finn.no for 5200 kr together)": the pair's price ("or something
        # else for this money?" spends it: a budget)
        budget = None
    tariff = _kwh_price(low)
    if budget and tariff is not None and abs(budget.usd - tariff) < 1e-9:
        budget = None  # "power 0.15 usd": the price of a kWh, no budget
    options = _price_options(gpus, low, money)
    if budget and any(abs(budget.usd - price) < 1e-9 for _term, price in options):
        budget = None  # "$2.10/h reserved vs $3.50 on demand": an hour's price, no budget
    epochs = _epochs(low)
    clip = _clip_frames(low)  # "a 14-minute clip at 24 fps, processed at 6 frames per second"
    concurrency, rps = _concurrency(low)
    named = low  # "2000 sd 1.5 images": the model's name holds no count
    # "one 4090 renders ...": a card's number counts nothing
    for written in [*(m.text for m in models), *(g.text for g in gpus)]:
        named = named.replace(written.lower(), "named")
    # a pace counts nothing: "1,200 images per second", "coded 1,000 responses in 3 min 20 s"
    samples, dataset, images = _samples(_ITEMS_TOOK.sub(" ", _ITEM_RATE.sub(" ", named)))
    repeats = rx.search(r"\b(\d+)\s?(?:images?|imgs?|pics?|photos?)\s?(?:x|\*|\u00d7)\s?(\d+)\s?"
                        r"(?:repeats?|reps?)\b", low)  # fmt: skip
    if repeats and samples == float(
        repeats.group(1)
    ):  # kohya's "20 images x 10 repeats": 200 a pass
        samples = samples * int(repeats.group(2))
    if epochs and not (samples or dataset or images):
        samples = _counted_for_epochs(named)  # "120,000 labelled micrographs ... 90 epochs"
    if not (epochs or samples or dataset or images):
        samples = _counted_each(named)  # "describe 12,000 lots ... each lot takes about 3 s"
    if (  # "we need 50,000 sdxl images by morning": images to generate, the model named
        samples
        and not images
        and not dataset
        and any(m.family == "diffusion" for m in models)
        # "generate 100,000 SDXL images for a dataset": made, whatever they are for
        and (
            rx.search(
                r"\bgenerat\w*|\brender\w*|\bcreat\w*|\bsynthetic\b|\bproduc(?:e|es|ed|ing)\b"
                r"|\b(?:want|need)\w*\s(?:about\s|~)?\d",
                low,
            )
            or not rx.search(r"\btrain\w*|\bfine-?tun\w*|\blora\b|\bdreambooth\b|\bdataset\b", low)
        )
    ):
        samples, images = None, samples
    outside = text
    for start, end in spans:  # the user's own words ("... GPTQ") before a repo's format
        outside = outside[:start] + " " * (end - start) + outside[end:]
    outside = _spell(outside).lower()
    # "quant the kv to q8", "--kv-cache-dtype fp8", "fp8 kv cache": the cache's type, not the
    # model's
    outside = rx.sub(
        r"\b(?:kv|k/v)(?:[- _]cache)?(?:[- _]dtype)?\s?(?:to|in|at|as|=)?\s?(?:q8(?:_0)?|q4(?:_0)?"
        r"|fp8|int8|int4|8-?bit|4-?bit|fp16|bf16|auto)\b"
        r"|\b(?:q8(?:_0)?|q4(?:_0)?|fp8|fp16|bf16|f16|int8|8-?bit|4-?bit|16-?bit)\s(?:kv|k/v)\b",
        lambda m: " " * len(m.group(0)),
        outside,
    )
    for pattern in _OPTIMIZER_WORDS if _ANY_TRAIN_OPTION.search(outside) else ():
        outside = rx.sub(pattern, lambda m: " " * len(m.group(0)), outside)  # "8-bit adam"
    precision = _first(PRECISION_WORDS, outside)
    plain = affirmed(_UNQUANTISED, outside)
    if plain and precision not in ("fp16", "bf16", "fp32"):  # "unquantized (fp16)" is fp16
        before = _first(PRECISION_WORDS, outside[: plain.start()])  # "q4, not unquantized"
        # (16 bits as the card runs them: fp16 on cards with no bf16, the 1080 Ti's Pascal)
        old = any(catalog.gpus[i].architecture in _NO_BF16 for g in gpus for i in g.ids[:1])
        precision = before or ("fp16" if old else "bf16")
    precision = precision or next((m.precision for m in models if m.precision), None)
    if precision == "nf4" and not rx.search(PRECISION_WORDS[0][1], low):
        # "4bit awq", "Llama-3.1-70B-Instruct AWQ (4-bit)": the 4-bit format named wins over
        # bitsandbytes, the plain "4-bit" alone reads as
        four_bit = next((m.precision for m in models if m.precision in ("awq", "gptq")), None)
        precision = four_bit or _first(PRECISION_WORDS[1:3], low) or precision
    bpw = rx.search(r"(?<![\w.])(\d(?:\.\d{1,3})?)\s?bpw\b", outside)  # "exl2 4.65bpw"
    averaged = rx.search(r"\b(?:ud-)?(i?q\d(?:_[a-z\d]+){0,2})\b[^.?!]{0,30}?(?<![\w.])"
                     r"(\d\.\d{1,3})[- ]?(?:bits?|bpw)\b", outside)  # fmt: skip
    if averaged and GGUF_RANGE[0] <= float(averaged.group(2)) <= GGUF_RANGE[1]:
        # "the UD-Q2_K_XL one (2.51-bit dynamic)": the file's average as said
        precision = f"{averaged.group(1)}-{float(averaged.group(2)):g}bpw"
    elif bpw and EXL2_RANGE[0] <= float(bpw.group(1)) <= EXL2_RANGE[1]:
        precision = f"exl2-{float(bpw.group(1)):g}bpw"
    if (
        precision == "fp32"
        and any(m.family in (None, "llm") for m in models)
        and rx.search(r"\bfull[- ]precision\b", outside)
        and not rx.search(
            r"\bfp32\b|\bfloat32\b|\b32[-\s]?bits?\b|\btrain|fine-?tun|\bq?lora\b", outside
        )
    ):
        # an LLM run "in full precision": its released 16-bit weights, in the format said
        # ("full precision (fp16 i think??)")
        sixteen = rx.search(r"\b(fp16|bf16)\b|\b(float16|bfloat16)\b", outside)
        said16 = (sixteen.group(1) or {"float16": "fp16"}.get(sixteen.group(2), "bf16")
                  if sixteen else None)  # fmt: skip
        precision = said16 or "bf16"
    if (
        precision == "fp16"
        and any(m.family == "llm" for m in models)
        and not rx.search(r"fp16\b|\bfloat16\b|\bhalf\b|\bf16\b", low)
        and not any(catalog.gpus[i].architecture in _NO_BF16 for g in gpus for i in g.ids[:1])
    ):
        # "AdamW, mixed precision" for an LLM: bf16 autocast, as LLMs train; "its original
        # 16-bit weights": the dtype LLM checkpoints are released in
        precision = "bf16"
    # "TensorRT later, transformers for now": an engine for later is not the one run now
    later = r"\b[\w.-]+ (?:later|eventually|down the (?:line|road)|at some point)\b"
    engine = _first(ENGINE_WORDS, rx.sub(later, " ", low) if "later" in low or "eventually" in low
                    or "down the" in low or "some point" in low else low)  # fmt: skip
    if engine == "llama.cpp" and rx.search(r"\bmlx(?:[-_]lm)?\b", low):
        engine = "mlx"  # "gpt-oss:20b with mlx-lm": the tag names the model, mlx runs it
    bits = rx.search(r"\b([48])[-\s]?bits?\b", outside)
    apple = any(catalog.gpus[i].vendor == "Apple" for g in gpus for i in g.ids[:1]) or (
        not gpus and bool(rx.search(r"\bmac(?:book|s)?\b|\bmac ?(?:mini|studio|pro)\b", low))
    )  # "which Mac should I buy for a 70B at 4-bit": a Mac's file
    local = engine is None and (_location(low) == "home" or apple) and not _BNB_SAID.search(low)
    if (engine == "llama.cpp" or local) and bits and precision in ("nf4", "int8"):
        # "4-bit with ollama", "8 bit in llama.cpp", "13b at 4bit locally": GGUF's own 4- and
        # 8-bit files, as models are run at home
        # on Apple a 4-bit MLX or Q4_0 file, about 4.5 bits a weight (MLX groups of 64 with a
        # scale and bias each); elsewhere the usual Q4_K_M
        four = "q4_0" if apple and engine is None else "q4_k_m"
        precision = four if bits.group(1) == "4" else "q8_0"
    hint = family_hint(low)
    unnamed = low  # "RTX PRO 6000 Blackwell Server Edition" names a card, not a serving job
    for g in gpus:
        unnamed = unnamed.replace(g.text.lower(), " ") if len(g.text) > 4 else unnamed
    workload = _workload(unnamed, models, hint)
    if workload == "inference" and STEP_OF.search(low) and _run_steps(low):
        workload = "train"  # "the run is at step 3000 of 10000": a training run's steps
    given = workload is not None
    desk = any(catalog.gpus[i].segment in ("consumer", "laptop") for g in gpus for i in g.ids[:1])
    said_bits = bits or rx.search(r"\b([48])[-\s]?bits?\b", low)  # "phi-3 medium 4bit"
    said_as = {precision, *(m.precision for m in models)}
    if (desk and said_bits and engine is None and said_as & {"nf4", "int8"}
            and workload in (None, "inference") and not _BNB_SAID.search(low)):  # fmt: skip
        # "mistral 7b in 4bit on a 4090, single user": run on a desk card, 4 bits are a GGUF's
        gguf = "q4_k_m" if said_bits.group(1) == "4" else "q8_0"
        precision = gguf if precision in ("nf4", "int8") else precision
        models = tuple(replace(m, precision=gguf) if m.precision in ("nf4", "int8") else m
                       for m in models)  # fmt: skip
    family = models[0].family if models and models[0].family else hint
    trains = rx.search(r"\bhow long\b|\bhow many (?:days|hours|weeks)\b|\b\w+[- ]days\b", low)
    tokens_said = _train_tokens(low) or 0
    if workload == "finetune" and tokens_said >= 1e9 and not _said(low, "finetune"):
        workload, given = "train", True  # "training GPT-2 on 31B tokens": pre-training
    reproduce = rx.search(r"\breproduc\w*|\bpre-?train\w*|\bfrom scratch\b", low)
    if (
        (not given or (workload == "inference" and reproduce))
        and tokens_said >= 1e9
        and not (_SERVED_TOKENS.search(low))
    ):
        workload, given = "train", True  # "reproduce GPT-2 small on 10 billion tokens"
    if workload in (None, "finetune") and trains:
        tokens = _train_tokens(low) or 0
        if family in (None, "llm") and tokens >= 1e9 and not _said(low, "finetune"):
            workload, given = "train", True  # billions of tokens: pre-training
        elif family in ("vision", "transformer") and (_epochs(low) or _samples(low)[0]):
            workload, given = "train", True  # "imagenet resnet50 ... how long"
    if workload == "finetune" and any(m.precision == "nf4" for m in models):
        workload = "finetune-qlora"  # "Llama-3.1-8B-Instruct-bnb-4bit training": a 4-bit base
    if workload == "finetune-lora" and precision == "nf4":
        workload = "finetune-qlora"  # "4-bit NF4 base, LoRA rank 16": LoRA on a 4-bit base
    if workload == "finetune-qlora" and precision not in (None, "nf4", "nf4-nodq"):
        precision = "nf4"
    if (workload == "finetune-full" and precision == "nf4"
            and not rx.search(r"\bnf4\b|\bbitsandbytes\b|\bbnb\b|\b4-?bit\b", low)):  # fmt: skip
        # "qlora is half-arsed, a full fine-tune instead": the QLoRA named set aside brings no
        # 4-bit format to the full fine-tune
        precision = None
    ollama = engine in ("ollama", "llama.cpp") and "ollama" in low
    if precision is None and ollama and any(m.family in (None, "llm") for m in models):
        # "gemma3:12b" or "llama3.2" pulled by Ollama: its library's default tag of a model is
        # a Q4_K_M GGUF
        precision = "q4_k_m"
    shared = _SHARED_RAM_NOTE if rx.search(INTEGRATED_GRAPHICS, low) and not gpus else ""
    notes = instance_notes + tuple(
        n for n in [*(g.note for g in gpus), *(m.note for m in models), absent_note, shared] if n
    )
    if any(g.ids for g in gpus):  # "a raspberry pi vs a jetson orin nano": the Jetson, and a note
        gpus = tuple(g for g in gpus if g.ids or not (g.note or "").startswith(DEVICE_NOTE))
    gpus = _counted_after(gpus, low)  # "H200 8 cards" (Korean "H200 8장"): that card's count
    gpus = tuple(_one_said(g, low) for g in gpus)  # "one L40S", kept for the turns after
    gpus = _variant_by_memory(gpus, low, catalog)  # "the M2 chip and only 8GB of memory"
    gpus = _named_again(gpus, low)  # "H100 80GB at $2.40/hr. ... or do I need the H100?"
    loose = _loose_count(low, gpus)
    if loose and any(g.count == loose and _count_after(g, low) for g in gpus):
        loose = None  # the count said after a card is that card's, not every option's
    target = _target(low)
    if (other := _weighed_against_one(low)) and loose == other:
        loose = None  # "fit on a single A100 80GB or do i need two?": one, weighed against two
    if (
        loose == 2
        and len({g.ids for g in gpus if g.ids}) == 2
        and rx.search(
            r"\b(?:of )?the two (?:cards|gpus)\b|\bbetween (?:an? |the )?\w"
            r"|\bboth (?:cards|gpus)\b",
            low,
        )
    ):
        loose = None  # "between an RTX A6000 and an RTX 3090 ... which of the two cards": one each
    draw_w, other_w, draw_each, idle_w = _draw(low)
    if (
        loose is None
        and target != "min_gpus"  # "how many do I need" is the question, not 8
        and "how many" not in low
        and affirmed(_MULTI_GPU, low)  # "one card, no multi-GPU": one
        and not any(g.count for g in gpus)
    ):
        loose = MULTI_GPU_COUNT
        notes += (f"'multi-GPU' with no count: {MULTI_GPU_COUNT} GPUs (one node) assumed.",)
    llm_named = any(m.family in (None, "llm") for m in models)
    if engine == "exllamav2" and precision is None and llm_named:
        notes += ("ExLlamaV2 runs its EXL2 quants: about four bits a weight assumed (costed as "
                  "GPTQ); say the bits per weight if yours differ.",)  # fmt: skip
    corpus_tokens = _train_tokens(low)
    if corpus_tokens is None and rx.search(r"\bchinchilla\b", low) and models:
        # "a chinchilla-optimal run for a 7B": 20 tokens per parameter (Hoffmann et al. 2022)
        first = models[0]
        sized = first.size_b or (
            catalog.models[first.ids[0]].total_params / 1e9
            if first.ids and first.ids[0] in catalog.models
            else None
        )
        if sized and first.family in (None, "llm"):
            corpus_tokens = CHINCHILLA_TOKENS_PER_PARAM * sized * 1e9
            workload, given = "train", True  # a compute-optimal run is a pre-training run
            notes += ("Chinchilla-optimal: twenty training tokens per parameter (Hoffmann et "
                      f"al., 2022), {corpus_tokens / 1e9:,.0f}B tokens for {sized:g}B "
                      "parameters.",)  # fmt: skip
    corpus = None if corpus_tokens else next((c for c in CORPORA if rx.search(c[1], low)), None)
    if corpus is not None and workload == "train":  # "gpt-2 from scratch on openwebtext"
        corpus_tokens = corpus[2]
        notes += (f"{corpus[0]}: {corpus[2]:,} tokens in one pass ({corpus[3]}).",)
    made = _generated_items(low) if workload in (None, "inference") else None
    out_tokens = made[1] if made else _output_tokens(low)
    if made is not None:  # "generate 100k samples of 400 tokens each": 40M tokens of replies
        corpus_tokens, samples = made[0] * made[1], None
    tp = _tp_size(low)
    gpus = _not_these(_over_nodes(_counted(gpus, loose, low, tp), low), low)
    if (replica := _replica_of(gpus, low, tp)) is not None:
        gpus, notes = replica[0], (*notes, replica[1])
    q = Query(
        text=text,
        intent="",
        gpus=gpus,
        nodes=nodes_said(low)[0],
        network=network_said(low),
        models=models,
        workload=workload,
        workload_given=given,
        precision=precision,
        engine=engine,
        framework=_first(FRAMEWORK_WORDS, low),
        train_options=_train_options(low),
        interconnect=_slot(low)
        or next((k for k, w in INTERCONNECT_WORDS if rx.search(w, low)), None),
        backend=_backend_said(low),
        kv_cache=_kv_cache_said(low),
        offload=_first(OFFLOAD_WORDS, low),
        **_system_ram(low),
        cpu_only=bool(affirmed(_CPU_ONLY, low)),
        gpu_layers=int(ngl.group(1) or ngl.group(2)) if (ngl := _NGL.search(low)) else None,
        reserved_gb=_reserved_gb(low),
        providers=tuple(dict.fromkeys([*_providers(low, linker.providers), *clouds])),
        context=None if made else _context(low) or _sample_length(low),
        batch=_batch(low) or (1 if concurrency == 1 else None),  # "1 concurrent req": batch 1
        output_tokens=out_tokens,
        concurrency=concurrency,
        rps=rps or _day_of_answers(low, out_tokens),  # ("40k summaries a day": a day's rate)
        num_gpus=loose,
        # ("by the end of the month" is a day to finish by, not a month of use)
        hours=(
            hours := _billed_hours(
                _duration_hours(_BY_DAY.sub(" ", _EACH_RECORDING.sub(" ", unpaced)), epochs), low
            )
        ),
        use_hours_per_day=_use_rate(low) or (None if hours else _busy_share(low)),
        user_price_usd_per_hour=user_price,
        gpu_prices=_gpu_prices(gpus, low, money),
        gpu_purchase_prices=_gpu_prices(gpus, low, money, "total")
        or _bare_card_prices(gpus, low)
        or _one_price_for_all(gpus, low),
        price_options=options,
        speedup_said=_speedup_said(gpus, low),
        mfu=_mfu_said(low),
        price_per_node=user_price is not None
        and (bool(_PER_NODE.search(low)) or bool(instance_notes))  # a p4d's price is the 8 GPUs
        and not _PER_GPU_PRICE.search(low),
        node_size=node_size,
        seconds_per_item=(pace := _seconds_per_item(low) or (clip[1] if clip else None)),
        turns=_turns(low),
        requirements=() if models else _requirements(low),
        pace_whole=pace is not None
        and (any((g.count or 1) > 1 for g in gpus) or (loose or 1) > 1)
        and bool(_PACE_OF_ALL.search(low))
        and not _PACE_OF_ONE.search(low),
        purchase_usd=purchase,
        # a monthly upkeep of owning ("$40 a month of colocation") is no monthly spend
        monthly_usd=None
        if (upkeep := _upkeep(low))
        else next((v for v, per, _ in money if per == "month"), None)
        or _metered_monthly(low, audio),
        upkeep_usd_per_month=upkeep,
        budget=budget,
        max_power_w=_power(low),
        usd_per_kwh=tariff,
        no_power=bool(NO_POWER.search(low)),
        together=_kept_together(low, models),
        split_ways=_split_ways(low),
        tax_rate=_tax_rate(low),
        subscription=bool(SUBSCRIPTION.search(low)),
        currency=_currency(low),
        throughput_tok_s=rates[0] if (rates := _measured_and_needed(low)) else _tokens_per_s(low),
        needed_tok_s=rates[1] if rates else None,
        ttft_budget_s=_ttft_budget(low),
        draw_w=draw_w,
        other_w=other_w,
        idle_w=idle_w,
        idle_hours=_idle_hours(low, hours) if idle_w else None,
        draw_each=draw_each,
        draws_w=_draws_compared(low),
        memory_gb=_memory_without_gpu(low, gpus),
        train_tokens=corpus_tokens,
        epochs=epochs,
        dataset_samples=samples,
        dataset_name=dataset,
        images=images or (clip[0] if clip else None),
        audio_hours=audio,
        # ("... 8 hours a day" is the card's use, not the job's amount)
        per_day=bool(
            (images or clip or audio)
            and (DAYS_WORK.search(low) or (EACH_DAY.search(low) and not _use_rate(low)))
        ),
        service_price=_service_price(low),
        resolution=_resolution(low),
        steps=_steps(low),
        fields=_job_free(_fields(_without(low, [g.text.lower() for g in gpus])), low, models),
        target=target,
        condition="new"
        if _NOT_USED.search(low)  # "£500 tops, and it's got to be new, not off eBay"
        else "used"
        if rx.search(USED_ADJECTIVE, low)
        or (rx.search(_RESOLD, low) and not _BRAND_NEW.search(low))  # "selling a sealed 4090"
        else "new"
        if rx.search(_NEW_SAID, low)
        else None,
        buying=bool(_BUYING.search(low)) and not _RENTING.search(low),
        location=_location(low),
        # "an old laptop cpu": the CPU, no laptop GPU
        segment=None if (seg := _segment(low)) == "laptop" and affirmed(_CPU_ONLY, low) else seg,
        vendor=_vendor(low, gpus),
        topic=_topic(low),
        notes=notes,
    )
    if (q.budget and len(q.gpu_purchase_prices) >= 2 and not _BUDGET_SAID.search(low)
            and any(abs(q.budget.usd - v) < 1e-9 for _, v in q.gpu_purchase_prices)):  # fmt: skip
        # "a 4090 at £1500 second hand, or the 5090 at 2.5 grand new": each card's price, no
        # money to spend within
        q = replace(q, budget=None)
    if q.audio_hours and q.hours and abs(q.hours - q.audio_hours) < 1e-9:
        q = replace(q, hours=None)  # "1,000 hours of audio" is the job, not a duration
    elif q.hours and not q.audio_hours and _audio_at_a_pace(low):
        # "25x realtime ... we have 120 hours of council meetings: how long?": at a real-time
        # pace the hours said are the audio, the time is what is asked
        q = replace(q, audio_hours=q.hours, hours=None)
    if q.max_power_w is None and SLOT_ONLY.search(low):
        # "the power supply has no PCIe power cable": the card lives on the slot's 75 W
        q = replace(q, max_power_w=SLOT_POWER_W)
    if SECOND_CARD_ASKED.search(low) and len(q.gpus) == 1 and q.gpus[0].count == 2:
        # "we'll need a second A4000 for four at once, do we?": whether the one held does it
        q = replace(q, gpus=(replace(q.gpus[0], count=None),))
    if (q.rps and q.target is None and len(q.gpus) == 1 and q.models
            and rx.search(r"\bkeep (?:up|pace)\b|\bcope\b|\bhandle (?:it|that|the load|this)\b",
                          low)):  # fmt: skip
        # "10 requests a minute ... can the one 3060 keep up?": the cards the load takes
        q = replace(q, target="min_gpus")
    if (days := _date_span_days(low)) and (
        q.hours is None or q.hours in (24.0, 730.0) or q.hours == q.use_hours_per_day
    ):
        # "24/7 the whole season, June 15 thru Aug 31": the days of the span, at the hours a day
        q = replace(q, hours=days * (q.use_hours_per_day or 24.0))
    if (paced := _paced_use(low, q)) is not None:
        # "twenty hours of recordings each month ... each hour of audio takes six minutes of GPU
        # time", "each image takes 12 s and we make 3,000 a month": the card's hours a day
        q = replace(q, hours=None, use_hours_per_day=paced)
    if (q.train_tokens and not q.dataset_samples and len(q.models) == 1
            and q.models[0].family == "transformer"
            and q.workload in (None, "inference")):  # fmt: skip
        # "embedding 1 billion tokens with e5-base": an encoder's job counts sequences (of the
        # length said, else the 128 it is sized at)
        seq = q.context or ENCODER_SEQ
        note = (f"The tokens counted as sequences of {seq} tokens"
                + (" (assumed; say the length of yours)." if not q.context else "."))  # fmt: skip
        q = replace(q, dataset_samples=q.train_tokens / seq, train_tokens=None,
                    notes=(*q.notes, note))  # fmt: skip
    work = DATASET_RESOLUTION.get(q.dataset_name or "")
    if work and not q.resolution and any(m.family == "vision" for m in q.models):
        note = (f"{q.dataset_name}'s images are tiny: the small-image variant of the net (a "
                f"ResNet's stem with no downsampling, a ViT's small patches) does the work of the "
                f"ImageNet net at {work} px, the size estimated.")  # fmt: skip
        q = replace(q, resolution=work, notes=(*q.notes, note))
    job = q.audio_hours or q.images or q.train_tokens or q.epochs or q.dataset_samples
    if job and not q.hours and (due := calendar_deadline(low, date.today())):
        q = replace(q, hours=due[0], notes=(*q.notes, due[1]))
    return _sane(_mac_of_memory(_memory_in_all(_desktop_beside(q, catalog)), catalog))


# the KV cache's type: "kv cache in fp8", "fp8 kv cache", "--kv-cache-dtype fp8", "q8_0 kv",
# "-ctk q4_0", "8-bit kv cache", "quantized kv cache to 4 bit"
_KV_TYPE = (
    r"(fp8(?:[_ ]e4m3|[_ ]e5m2)?|int8|8[- ]?bits?|q8(?:_0)?|int4|4[- ]?bits?|q4(?:_0)?|fp16|bf16"
    r"|16[- ]?bits?)"
)
_KV_CACHE = re.compile(
    r"\bkv[- _]?(?:cache)?(?:[- _]?(?:dtype|type))?\s?"
    r"(?:is |in |at |as |to |=|: ?|quanti[sz]ed (?:to |in |at )?)?"
    + _KV_TYPE
    + r"\b"
    + r"|\b"
    + _KV_TYPE
    + r"\s(?:quanti[sz]ed\s)?kv(?:[- ]?cache)?\b"
    + r"|(?:-ctk|--cache-type-k|cache_type_k)[= ]"
    + _KV_TYPE
    + r"\b"
)


def _kv_cache_said(low: str) -> str | None:
    """The KV cache's type the question sets (precision.KV_BYTES' names), or None."""
    m = _KV_CACHE.search(low)
    if m is None:
        return None
    word = next(g for g in m.groups() if g).replace(" ", "").replace("-", "")
    if word.startswith(("q8", "q4")):
        return "q8_0" if word.startswith("q8") else "q4_0"
    if word.startswith(("fp8", "int8", "8bit")):
        return "fp8"
    if word.startswith(("int4", "4bit")):
        return "q4_0"
    return "fp16"


# words that put a backend name in llama.cpp's setting ("rocm" alone is the vendor's stack)
_LLAMA_CPP_SAID = re.compile(r"llama\.?cpp|\bollama\b|\bgguf\b|\blm ?studio\b|\bkobold|\bbackend\b")
_OWN_NAMES = ("vulkan", "sycl", "ipex-llm")  # backends named only in llama.cpp's setting


def _backend_said(low: str) -> str | None:
    """llama.cpp's backend the question names ("ollama on vulkan", "llama.cpp's ROCm build",
    "ipex-llm on my arc"); the registry's names and aliases, GPU stacks' names only beside
    llama.cpp words."""
    from advisor.calculator.backends import BACKENDS

    setting = bool(_LLAMA_CPP_SAID.search(low))
    for backend in BACKENDS.values():
        if backend.name == "cpu" or (backend.name not in _OWN_NAMES and not setting):
            continue
        words = "|".join(
            re.escape(w).replace("\\-", "[- ]?") for w in (backend.name, *backend.aliases)
        )
        if rx.search(rf"\b(?:{words})\b", low):
            return backend.name
    return None


# a day of the calendar a job must be done by: "by end of month", "by next friday", "by dec 20"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_BY_DAY = re.compile(
    r"\b(?:by|before|until|till|due)\s(?:the\s)?(?:"
    r"(?P<end>end of (?:the |this |next )?(?P<period>month|week|year|quarter)|eo(?P<short>[mwy])\b)"
    r"|(?P<next>next |this |coming )?(?P<weekday>" + "|".join(_WEEKDAYS) + r")\b"
    r"|(?P<tomorrow>tomorrow)\b"
    r"|(?P<mon1>" + "|".join(_MONTHS) + r")[a-z]*\.?\s(?P<day1>\d{1,2})(?:st|nd|rd|th)?\b"
    r"|(?P<day2>\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(?P<mon2>" + "|".join(_MONTHS) + r")[a-z]*\b)"
)


def calendar_deadline(low: str, today: date) -> tuple[float, str] | None:
    """The wall-clock hours from today to a calendar day the job is due by (whole days after
    today, 24 hours each), and a note naming the day taken; None when no such day is said."""
    m = _BY_DAY.search(low)
    if not m:
        return None
    if m.group("end"):
        period = m.group("period") or {"m": "month", "w": "week", "y": "year"}[m.group("short")]
        if period == "week":  # the working week: its Friday
            due = today + timedelta(days=(4 - today.weekday()) % 7)
        elif period == "year":
            due = date(today.year, 12, 31)
        else:
            months = 3 - (today.month - 1) % 3 if period == "quarter" else 1
            first = date(today.year + (today.month - 1 + months) // 12,
                         (today.month - 1 + months) % 12 + 1, 1)  # fmt: skip
            due = first - timedelta(days=1)
        said = f"the end of the {period}"
    elif m.group("weekday"):
        ahead = (_WEEKDAYS.index(m.group("weekday")) - today.weekday()) % 7 or 7
        if (m.group("next") or "").strip() == "next" and today.weekday() + ahead < 7:
            ahead += 7  # said on a Wednesday, "next Friday" is the Friday of next week
        due = today + timedelta(days=ahead)
        said = f"{m.group('next') or ''}{m.group('weekday').capitalize()}"
    elif m.group("tomorrow"):
        due, said = today + timedelta(days=1), "tomorrow"
    else:
        month = _MONTHS.index(m.group("mon1") or m.group("mon2")) + 1
        day = int(m.group("day1") or m.group("day2"))
        try:
            due = date(today.year, month, day)
            if due <= today:
                due = date(today.year + 1, month, day)
        except ValueError:
            return None  # "by feb 30"
        said = due.strftime("%B %-d")
    days = (due - today).days
    if days < 1:
        return None  # due today: no whole day to plan
    note = (f"Due by {said}: {due:%A %Y-%m-%d}, {days} day{'s' if days > 1 else ''} after today "
            f"({today:%Y-%m-%d}), counted as {days * 24:,} hours of wall time.")  # fmt: skip
    return float(days * 24), note


def _datasheet_only(query: Query) -> bool:
    """A follow-up that asks the cards' datasheet figures and nothing of the job ("what are the
    memory bandwidth numbers for both"): the cards carry, the job does not."""
    return bool(
        query.fields
        and not query.models
        and not query.workload_given
        # ("and their fp32 numbers?": a format named as a datasheet figure, not a job's)
        and (query.precision is None or _FORMAT_FIGURES.search(query.text.lower()))
        and query.intent in ("spec", "compare", "search")
        and _FIGURES_ASKED.search(query.text.lower())
        # "575 W per card, $0.20/kWh": figures given (not the digits of a name: "fp32")
        and not rx.search(r"(?<![a-z\d])\d", query.text.lower())
        and not _ABOUT_THE_JOB.search(query.text.lower())
    )


_FORMAT_FIGURES = re.compile(r"\b(?:numbers?|figures?|specs?|tflops|throughput)\b")
_FIGURES_ASKED = re.compile(r"\b(?:what|how much|how many|numbers?|figures?|specs?|values?)\b")


# words of a follow-up about the job, not the datasheet: "is the memory enough?", "same but
# bf16", "how big are the weights at that precision?", "for it"
_ABOUT_THE_JOB = re.compile(
    r"\b(?:for|with|run\w*|serv\w*|fit\w*|hold\w*) (?:it|that|this|them)\b"
    r"|\b(?:enough|fits?|run\w*|weights?|needs?|big|hold\w*|load\w*|same|precision|context)\b"
)


# a Mac said with its memory, no chip named: "a mac with 36gb unified memory"
_A_MAC = re.compile(r"\bmac(?:book(?: pro| air)?| studio| mini)?s?\b|\bapple silicon\b")


def _desktop_beside(q: Query, catalog: Catalog) -> Query:
    """ "the rtx 4090 laptop is the same as the desktop one, true?": the desktop card of the
    laptop one named, set beside it."""
    if len(q.gpus) != 1 or not rx.search(r"\bdesktop(?: one| card| version| gpu)?\b", q.low):
        return q
    if rx.search(r"\d\s?(?:gb|w|watts|tflops|gb/s)\b", q.low):
        return q  # "the same 24 GB as the desktop card?": the figure stated is what is judged
    ref = q.gpus[0]
    # "his gaming laptop has 'the same RTX 5090 as the big desktop ones'": the card in the
    # laptop is the laptop one, whatever words sit between them
    in_laptop = f"{ref.ids[0]}-laptop" if len(ref.ids) == 1 else None
    same = rx.search(r"\bsame\b|\b(?:just |as )?as (?:good|fast|quick) as\b", q.low)
    if in_laptop in catalog.gpus and same and rx.search(r"\blaptops?\b|\bnotebooks?\b", q.low):
        ref = replace(ref, ids=(in_laptop,))
    laptop = [i for i in ref.ids if i.endswith("-laptop")]
    desktop = laptop[0].removesuffix("-laptop") if len(laptop) == 1 else None
    if desktop is None or desktop not in catalog.gpus:
        return q
    return replace(q, gpus=(ref, GpuRef("the desktop one", (desktop,), base=ref.base)))


def _mac_of_memory(q: Query, catalog: Catalog) -> Query:
    """ "On a mac with 36gb unified memory": the Macs of that memory, each answered (their
    bandwidths differ), in place of a generic card of it."""
    if q.gpus or not q.memory_gb or not _A_MAC.search(q.low):
        return q
    macs = sorted(
        (g for g in catalog.gpus.values()
         if g.vendor.startswith("Apple") and abs(g.memory_gb - q.memory_gb) < 0.5),
        key=lambda g: -(g.bandwidth_gbs or 0),
    )  # fmt: skip
    if not macs:
        return q
    ref = GpuRef(f"Mac with {q.memory_gb:g} GB", tuple(g.id for g in macs))
    return replace(q, gpus=(ref,), memory_gb=None)


# "40 gigs of vram across two cards", "48gb total over 2 gpus": the memory of all the cards
_MEMORY_IN_ALL = re.compile(
    r"(\d+(?:\.\d+)?)\s?(?:gb|gigs?|gib|g)\b(?:\s(?:of\s)?(?:vram|memory))?\s(?:in total|total"
    r"|combined|across|over|between|split (?:across|between|over))\b"
    r"|\btotal (?:of )?(\d+(?:\.\d+)?)\s?(?:gb|gigs?|gib|g)\b"
)
_EACH_CARD = re.compile(r"\beach\b|\bapiece\b|\bper (?:card|gpu)\b")


# several cards of a memory size, no card named: "2 x 24gb cards", "two 48gb gpus"
_CARDS_OF_SIZE = re.compile(
    r"\b(\d{1,2}|two|three|four|six|eight)(?:\s?x\s?|\s+)(\d{1,3}(?:\.\d+)?)\s?(?:gb|gigs?|gib)\b"
    r"(?!\s?(?:ram|ddr\w*|system|of (?:ram|system)))"
)


def _memory_in_all(q: Query) -> Query:
    """A memory said of several cards together, no card named: each card's share of it ("40
    gigs across two cards"; not "two 24gb cards, 48gb total", whose cards are said each); and
    "2 x 24gb cards": two cards of that memory."""
    sized = _CARDS_OF_SIZE.search(q.low) if not q.gpus and not q.num_gpus else None
    if sized and (q.memory_gb in (None, float(sized.group(2)))):
        cards = _count(sized.group(1))
        if 2 <= cards <= NODE_GPUS:
            return replace(q, num_gpus=int(cards), memory_gb=float(sized.group(2)))
    count = q.num_gpus or 0
    said = _MEMORY_IN_ALL.search(q.low)
    if q.gpus or count < 2 or not said or _EACH_CARD.search(q.low):
        return q
    total = float(said.group(1) or said.group(2))
    each = total / count
    note = (f"{total:g} GB across {count} cards: sized as {count} cards of {each:g} GB each "
            "(a model split by layers uses the memory of both).")  # fmt: skip
    return replace(q, memory_gb=each, notes=(*q.notes, note))


YOLO_EPOCHS = 100  # Ultralytics' train default (ultralytics/cfg/default.yaml: "epochs: 100")


def _recipe_epochs(q: Query, catalog: Catalog, timed: bool = False) -> Query:
    """ "How many days to train a ResNet-18 on ImageNet?": a whole training run is asked, so the
    data set's published recipe sets the epochs (said in a note), not one pass; a rate asked
    ("images/s on ImageNet") needs no epochs."""
    from advisor.agent.intents import asks_how_long

    # "resnet50 imagenet from scratch, how long on 4x 3090s vs 1x h100?": a whole run compared
    timed = timed or (q.intent == "compare" and asks_how_long(q.low))
    tuned_recipe = FINETUNE_RECIPES.get(q.dataset_name or "")
    if (q.epochs and tuned_recipe and not q.context and len(q.models) == 1
            and q.models[0].family == "transformer"):  # fmt: skip
        # "bert-large on squad, 2 epochs": the epochs said, the recipe's sequence length
        note = (f"{tuned_recipe[1]}-token sequences of {q.dataset_name} assumed: "
                f"{tuned_recipe[2]}; say yours if it differs.")  # fmt: skip
        return replace(q, context=tuned_recipe[1], notes=(*q.notes, note))
    if (tuned_recipe and not q.context and len(q.models) == 1
            and q.models[0].family == "transformer"
            and not (timed or q.intent in _WHOLE_RUN_INTENTS)):  # fmt: skip
        # "bert large squad finetune, how many sequences/sec": a rate, at the recipe's length
        note = (f"{tuned_recipe[1]}-token sequences of {q.dataset_name} assumed: "
                f"{tuned_recipe[2]}; say yours if it differs.")  # fmt: skip
        return replace(q, context=tuned_recipe[1], notes=(*q.notes, note))
    if q.epochs or len(q.models) != 1 or not (timed or q.intent in _WHOLE_RUN_INTENTS):
        return q
    few = q.dataset_samples is not None and q.dataset_samples <= DREAMBOOTH_MAX_IMAGES
    tuned = q.models[0].family == "diffusion" and (q.workload or "").startswith("finetune")
    if few and tuned and not q.steps:
        # "a LoRA of SDXL on 30 photos of my dog": a subject's few photos are seen many times
        note = (f"{DREAMBOOTH_EPOCHS} passes over the {q.dataset_samples:,.0f} images assumed, "
                "the steps per photo of the diffusers DreamBooth LoRA example; say yours if it "
                "differs.")  # fmt: skip
        return replace(q, epochs=float(DREAMBOOTH_EPOCHS), notes=(*q.notes, note))
    yolo = any(i.startswith("yolo") for i in q.models[0].ids)
    if yolo and q.dataset_samples and not (q.steps or q.dataset_name) and q.intent != "solve":
        # "can a 3090 train yolov8 on 20k images, how long?": a run, as Ultralytics trains one
        note = (f"{YOLO_EPOCHS} epochs assumed, Ultralytics' default (ultralytics/cfg/"
                "default.yaml, epochs: 100); say yours if it differs.")  # fmt: skip
        return replace(q, epochs=float(YOLO_EPOCHS), notes=(*q.notes, note))
    tuned_on = FINETUNE_RECIPES.get(q.dataset_name or "")
    if tuned_on and q.models[0].family == "transformer" and not _SUBSET.search(q.low):
        # "how long to fine tune bert-large on squad on a v100": the reference recipe's run
        epochs, seq, source = tuned_on
        note = (f"{epochs} epochs of {q.dataset_name} at {seq}-token sequences assumed: "
                f"{source}; say yours if it differs.")  # fmt: skip
        return replace(q, epochs=float(epochs), context=q.context or seq,
                       notes=(*q.notes, note))  # fmt: skip
    if not q.dataset_name or q.workload != "train" or _SUBSET.search(q.low):
        return q  # "a 100-class subset of ImageNet" is not the set the recipe trains
    from advisor.calculator.families import find_model

    ref = q.models[0]
    try:
        model = find_model(ref.ids[0], catalog)[1] if len(ref.ids) == 1 else None
    except AdvisorError:  # a name the families do not hold has no recipe
        return q
    recipe = RECIPE_EPOCHS.get((q.dataset_name, getattr(model, "architecture", "")))
    if recipe is None:
        return q
    epochs, source = recipe
    note = f"{epochs} epochs of {q.dataset_name} assumed: {source}; say yours if it differs."
    return replace(q, epochs=float(epochs), notes=(*q.notes, note))


def _sane(q: Query) -> Query:
    """Counts no workload has are left out, with a note (they would also overflow JSON)."""
    absurd: dict[str, Any] = {
        name: None
        for name in ("context", "batch", "num_gpus", "concurrency")
        if (getattr(q, name) or 0) > MAX_COUNT
    }
    if (q.context or 0) > MAX_CONTEXT:  # "a context of 999999999999": past what any model reads
        absurd["context"] = None
    gpus = tuple(replace(g, count=None) if (g.count or 0) > MAX_COUNT else g for g in q.gpus)
    if not absurd and gpus == q.gpus:
        return q
    notes = [*q.notes, "A count given is far beyond any real workload; it was left out."]
    return replace(q, **absurd, gpus=gpus, notes=tuple(notes))


def _sized_family(
    models: tuple[ModelRef, ...], linker: Any, low: str | None = None
) -> tuple[ModelRef, ...]:
    """ "an 8B Llama-3.1-style model": a bare size and a family name with no size are one model,
    the family's entry of that size, when the family has one."""
    sizes = [m for m in models if not m.ids and m.size_b and not m.suggestions]
    families = [m for m in models if not m.ids and not m.size_b and m.suggestions]
    if len(sizes) == 1 and not families and low is not None:
        # "got the llama thing going ..., the 8b one in 4 bit": the family's word said apart
        words = {w for w in rx.findall(r"[a-z][a-z0-9]+", low) if w in linker.first_words}
        found = linker.find_models(f"{words.pop()} {sizes[0].size_b:g}b") if len(words) == 1 else []
        if len(found) == 1 and found[0].ids:
            return tuple(found[0] if m is sizes[0] else m for m in models)
    if len(sizes) != 1 or len(families) != 1:
        return models
    size = f"{sizes[0].size_b:g}b"
    named = [s for s in families[0].suggestions if rx.search(rf"-{size}\b", s.lower())]
    found = linker.find_models(named[0]) if len(named) == 1 else []
    if len(found) != 1 or not found[0].ids:
        return models
    return tuple(found[0] if m is families[0] else m for m in models if m is not sizes[0])


def _second_said(gpus: tuple[GpuRef, ...], linker: Any, name: str) -> tuple[GpuRef, ...] | None:
    """The first card and the one `name` finds, when that is another card (its other model,
    form or memory size said in part)."""
    other = linker.find_gpus(name)
    if other and other[0].ids and not set(other[0].ids) & set(gpus[0].ids):
        return (*gpus, other[0])
    return None


def _elliptic_forms(gpus: tuple[GpuRef, ...], low: str, linker: Any) -> tuple[GpuRef, ...]:
    """ "h100 pcie or sxm": the second is the same GPU in the other form factor; "the rtx pro
    6000 max-q ... as fast as the 600w workstation edition": the same GPU, another edition."""
    m = rx.search(r"\b(?:or|vs\.?|versus|and|than|against)\s+(?:the\s+)?(sxm\d?|pcie|nvl)\b"
                  r"(?!\s+\d)", low)  # fmt: skip
    edition = rx.search(r"\b(?:than|as|or|vs\.?|versus|and|to) (?:the |a |an )?(?:\d{3} ?w )?"
                        r"(workstation|server|max-?q|desktop)(?: workstation)?"
                        r"(?: edition| version| one| card)\b",
                        low)  # fmt: skip
    if edition and len(gpus) == 1 and gpus[0].ids and not m:
        bare = rx.sub(r"\b(?:max-?q|workstation|server|desktop|edition)\b|\(.*?\)", " ",
                      gpus[0].text.lower())  # fmt: skip
        other = linker.find_gpus(f"{bare} {edition.group(1)} edition")
        if other and other[0].ids and other[0].ids[0] not in gpus[0].ids:
            return (*gpus, replace(other[0], ids=other[0].ids[:1]))
        return gpus
    suffix = rx.search(r"\b(?:or|vs\.?|versus|than|and|that)\s+(?:was\s+(?:that|it)\s+)?(?:the\s+)?"
                       r"(ti super|ti|super|xtx|xt)\b(?!\s?\d)", low)  # fmt: skip
    if suffix and not m and len(gpus) == 1 and gpus[0].ids and gpus[0].base:
        # "3060 has 12 gigs right? or was that the ti", "4070 or the super": the same card's
        # other model
        root = rx.sub(r"(?:\s?(?:ti super|ti|super|xtx|xt))+$", "", gpus[0].base.lower())
        if pair := _second_said(gpus, linker, f"{root} {suffix.group(1)}"):
            return pair
    sized_form = rx.search(r"\b(?:or|vs\.?|versus|than|against)\s+(?:the\s+|an?\s+)?"
                           r"(sxm\d?|pcie|nvl)\s?(\d{2,3})\s?(?:gb|gigs?|g)?\b"
                           r"(?!\s?(?:gen|x\d|lanes?))", low)  # fmt: skip
    if sized_form and not m and len(gpus) == 1 and gpus[0].ids and gpus[0].base:
        # "a100 sxm 40 vs pcie 80": the same GPU in the form and memory said second
        form, gb = sized_form.groups()
        if pair := _second_said(gpus, linker, f"{gpus[0].base} {form} {gb}GB"):
            return pair
    both = rx.search(
        r"\b(\d{1,3}) ?gb,? (?:or|vs\.?|versus|and|&|/) ?(?:the |an? )?(\d{1,3}) ?gb\b", low
    )
    if both and not m and len(gpus) == 1 and gpus[0].open_variant and gpus[0].base:
        # "the 4060 Ti with either 8GB or 16GB": the GPU in each memory size said
        each = [linker.find_gpus(f"{gpus[0].base} {gb}GB") for gb in both.groups()]
        found = [e[0] for e in each if e and e[0].resolved]
        if len(found) == 2 and found[0].ids != found[1].ids:
            return tuple(found)
    size = rx.search(r"\b(?:or|vs\.?|versus|than|over|instead of|compared to)\b[^.?!]{0,25}?"
                     r"\b(?:the|a|an) (\d{1,3}) ?gb"
                     # "over the 8gb version", "worth it over the 8gb for llms"
                     r"(?: (?:one|version|model|variant|option|config\w*)\b|(?= for\b|\s?[?,.]|$))"
                     # "V100 16gb or 32gb": the other size right after the first
                     # ("a100 sxm 40g vs 80g": gigabytes as a bare g)
                     r"|\d ?(?:gb|g|gigs?) (?:or|vs\.?|versus|and|&|/) ?(\d{1,3}) ?"
                     r"(?:gb|g|gigs?)\b",
                     low)  # fmt: skip
    if size and not m and len(gpus) == 1 and gpus[0].ids and gpus[0].base:
        # "is the 16GB M4 enough, or should I pay for the 24GB one?": the other memory size
        bare = rx.sub(r"\s?\d{1,3} ?gb$", "", gpus[0].base.lower())  # "3060 8GB" -> "3060"
        return _second_said(gpus, linker, f"{bare} {size.group(1) or size.group(2)}GB") or gpus
    forms = list(dict.fromkeys(rx.findall(
        r"\b(sxm|pcie|nvl)\d?\b(?!\s?(?:gen|\d|x\d|lanes?|slots?|risers?|bus|links?))", low
    )))  # fmt: skip
    listed = rx.search(r"\b(?:sxm|pcie|nvl)\d?\s?[,/]\s?(?:the )?(?:sxm|pcie|nvl)\b", low)
    bases = {g.base for g in gpus}
    if listed and len(forms) >= 2 and len(bases) == 1 and None not in bases:
        # "the H100 PCIe, SXM and NVL": the GPU in each form listed (of the memory said)
        sized = rx.search(r"(\d{2,3}) ?gb\b", " ".join(g.text.lower() for g in gpus))
        gb = f" {sized.group(1)}GB" if sized else ""
        each = [linker.find_gpus(f"{gpus[0].base} {form}{gb}") for form in forms]
        found = [e[0] for e in each if e and e[0].ids]
        if len(found) == len(forms) and len({f.ids for f in found}) == len(found):
            return tuple(found)
    if len(forms) == 2 and len(gpus) == 1 and gpus[0].ids and gpus[0].base:
        # "H100s: the PCIe ones are cheaper than SXM, same speed?": the GPU in each form named
        each = [linker.find_gpus(f"{gpus[0].base} {form}") for form in forms]
        if (
            all(e and e[0].ids for e in each)
            and each[0][0].ids != each[1][0].ids
            and (
                gpus[0].open_variant
                or (
                    gpus[0].ids in (each[0][0].ids, each[1][0].ids)
                    and rx.search(r"\b(?:sxm|pcie|nvl)\d? (?:ones?|versions?|variants?)\b", low)
                )
            )
        ):
            return (each[0][0], each[1][0])
    later = rx.search(r"\b(?:for|on|about|of|is|in|with|mean) the (\d{2,3}) ?gb"
                      r"(?: (sxm\d?|pcie|nvl))?\b", low)  # fmt: skip
    if later and not m and len(gpus) == 1 and gpus[0].open_variant and gpus[0].base:
        # "the A100 has 1.6 TB/s, a forum says 2 TB/s: which is right for the 80GB SXM?": the
        # variant said later in the message
        said = f"{gpus[0].base} {later.group(1)}GB {later.group(2) or ''}"
        other = linker.find_gpus(said.strip())
        if other and other[0].ids and set(other[0].ids) < set(gpus[0].ids):
            return (replace(other[0], text=gpus[0].text, count=gpus[0].count),)
    if not m or len(gpus) != 1 or not gpus[0].base:
        return gpus
    written = rx.search(r"(\d{2,3}) ?gb\b", gpus[0].text.lower())  # "a100 80gb ... the pcie"
    memory = gpus[0].memory_gb or (float(written.group(1)) if written else None)
    stated = f" {memory:g}GB" if memory else ""
    other = linker.find_gpus(f"{gpus[0].base} {m.group(1)}{stated}") or linker.find_gpus(
        f"{gpus[0].base} {m.group(1)}"
    )
    if other and other[0].ids and other[0].ids != gpus[0].ids:
        return (*gpus, other[0])
    return gpus


# the variant a hosted notebook gives: Kaggle's P100 is the PCIe card (its notebooks' nvidia-smi
# reads "Tesla P100-PCIE-16GB"); Colab's A100 is the 40 GB SXM4 module ("A100-SXM4-40GB")
_NOTEBOOK_VARIANTS = {"kaggle": ("p100-pcie-16gb",), "colab": ("a100-sxm4-40gb",)}


# Google Colab's free tier: a T4 (colab.research.google.com/signup, "free ... T4 GPU")
_COLAB_FREE = re.compile(
    r"\bfree(?:[- ]tier)? (?:google )?colab\b|\b(?:google )?colab(?:'s)? free\b"
    r"|\bcolab\b(?![^.?!]{0,30}\b(?:pro|a100|l4|v100|h100|t4|paid|plus)\b)"
)
_COLAB_FREE_NOTE = (
    "Colab named with no GPU: its free tier's NVIDIA T4 assumed (say if yours differs)."
)


def _max_q_edition(gpus: tuple[GpuRef, ...], low: str, linker: Linker) -> tuple[GpuRef, ...]:
    """ "The card exists in a Workstation Edition and in a Max-Q edition": one card named, its
    Max-Q edition said beside it by that word alone, both."""
    if len(gpus) != 1 or len(gpus[0].ids) != 1 or "max-q" in gpus[0].ids[0]:
        return gpus
    if not rx.search(r"\bmax[- ]?q\b(?:[- ](?:edition|version|variant|one|model))?", low):
        return gpus
    found = linker.find_gpus(f"{gpus[0].text} Max-Q")
    other = found[0] if found and len(found[0].ids) == 1 else None
    if other is None or other.ids == gpus[0].ids or "max-q" not in other.ids[0]:
        return gpus
    return (gpus[0], replace(other, text="Max-Q edition"))


def _notebook_variants(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """ "P100 on kaggle": the variant the notebook service runs, not every variant."""
    at = {name: low.find(name) for name in _NOTEBOOK_VARIANTS if name in low}
    if not at:
        return gpus

    def near(g: GpuRef) -> list[str]:  # "the p100 on kaggle", not "my own a100 ... colab t4"
        spot = low.find(g.text.lower())
        return [i for name, where in at.items() if spot >= 0 and abs(spot - where) <= 30
                for i in _NOTEBOOK_VARIANTS[name]]  # fmt: skip

    out = []
    for g in gpus:
        given = near(g)
        narrowed = tuple(i for i in g.ids if i in given)
        out.append(replace(g, ids=narrowed) if len(g.ids) > 1 and narrowed and
                   g.memory_gb is None else g)  # fmt: skip
    return tuple(out)


def _one_gpu_said_twice(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """ "one dgx a100 box (8x a100 80gb)": a bare name and the same name with its count and
    variant are one GPU, unless the question sets them against each other between the two
    ("rent vs buy: an H100 6 hours a day ... buying an H100 PCIe": one card)."""
    if len(gpus) < 2:
        return gpus

    def spots(said: str, other: str) -> list[int]:
        """Where `said` is written, not as the start of the longer `other` ("the A100 80GB than
        the A100", "cloud a100s ... an 8x a100")."""
        return [m.start() for m in rx.finditer(re.escape(said), low)
                if not (len(other) > len(said) and low.startswith(other, m.start()))]  # fmt: skip

    def set_against(a: GpuRef, b: GpuRef) -> bool:
        wide, narrow = a.text.lower(), b.text.lower()
        at, bt = spots(wide, narrow), spots(narrow, wide)
        if not at or not bt:
            return True
        between = low[min(at[0], bt[0]) : max(at[0], bt[0])]
        # ("the H20 has more memory than the H100 ... comparing with the H100 SXM": a third card
        # is what the two mentions are compared with)
        third = any(o.ids and not set(o.ids) & (set(a.ids) | set(b.ids)) for o in gpus)
        # ("renting an A100 ... or buying an A100 80GB": renting set against buying, one card)
        return bool(rx.search(
            r"(?:\bvs\.?|\bversus|\bor|\bagainst)\b(?!\s(?:just )?(?:buy|rent|purchas|own)\w*)"
            + ("" if third else r"|\bcompar|\bthan\b|\bdiffer"), between
        ))  # fmt: skip

    kept = []
    for g in gpus:
        narrower = [  # "an A100 40GB ... GPU 0: NVIDIA A100-SXM4-40GB": the variant said
            o for o in gpus
            if o is not g and o.ids and set(o.ids) < set(g.ids)
            and (o.count or o.memory_gb or o.form_factor or rx.search(r"\d\s?gb\b", o.text.lower())
                 or o.text.lower().startswith(g.text.lower() + " "))  # "H100" .. "H100 PCIe"
            and not set_against(g, o)
        ]  # fmt: skip
        if not (narrower and g.count is None):
            kept.append(g)
    return tuple(kept)


def _spans_of(written: str, text: str) -> list[re.Match[str]]:
    return list(rx.finditer(re.escape(written), text)) if written else []


# "$2.50 per GPU-hour", "$2.10 per GPU per hour": no node's price ("what is that per GPU-hour?"
# asks, says none)
_PER_GPU_PRICE = re.compile(
    r"\d\s?(?:/|per |a )\s?gpu[- ]?(?:h|hr|hour)|\d\s?per hour \(gpu\)"
    r"|\d\s?(?:/|per |a )\s?(?:gpu|card)\s?(?:/|per |an? )\s?(?:h|hr|hour)\b"
)
_PER_NODE = re.compile(
    r"\b(?:per|a|each|whole|entire|full|the) (?:node|server|box|machine|instance)\b"
    r"|\b(?:node|server|box|machine|instance) (?:for|at|@|is|costs?|goes for)\s?~?\$"
    r"|\b(?:node|server|box|instance)s? (?:price|rate)\b"
)
_AUDIO_PACE = re.compile(
    # ("one hour of our tuesday night net recording, took 7 minutes flat", "... takes four
    # minutes to transcribe")
    rf"\b(?:one|an|1) hour of (?:[\w'-]+ ){{0,4}}?(?:audio|speech|recordings?|calls?|podcasts?)\b"
    r"[^.?!]{0,20}?\b(?:in|takes?|took) "
    rf"(?:about |around |roughly |~)?{_WORD_NUM}\s?(min(?:ute)?s?|sec(?:ond)?s?|s)\b"
    # "processing takes five minutes per hour of audio", "3 min for every hour of audio"
    rf"|\b{_WORD_NUM}\s?(min(?:ute)?s?|sec(?:ond)?s?|s) (?:per|for (?:each|every|one|an)|an|a)"
    r" hour of (?:[\w'-]+ ){0,3}?(?:audio|speech|recordings?|calls?|podcasts?)\b"
)
# a recording of a stated length and the time it took: "a 45-minute episode came out in 3 minutes"
_RECORDING_PACE = re.compile(
    rf"\b{_NUM}[- ]?(min(?:ute)?s?|h(?:ou)?rs?|hours?)[- ](?:long )?(?:[\w-]+ )?"
    r"(?:episode|recording|file"
    r"|podcast|meeting|call|show|interview|lecture|clip)s?\b[^.?!]{0,30}?\b(?:in|took|takes)\s"
    rf"(?:about |around |roughly |~|just )?{_NUM}\s?(min(?:ute)?s?|sec(?:ond)?s?|s)\b"
)
_ITEM_WORDS = (
    r"image|picture|pic|sample|sequence|clip|file|video|item|render|texture|frame|thumbnail"
    r"|sprite|icon|asset|illustration|portrait|tile|variation|photo|mockup|wallpaper"
)
_ITEM_TIME = re.compile(
    # "each image takes 20 sec", "each 1024x1024 SDXL render takes 4.2 s"
    rf"\b(?:each|per|every|an?|one) (?:[\w-]+ ){{0,4}}?(?:{_ITEM_WORDS})"
    rf"s? (?:takes|take|at|needs|is|in|=)?\s?(?:about |around |~)?{_NUM}\s?"
    r"(s|sec|secs|seconds?|ms|milliseconds?|min|mins|minutes?)\b"
    # "one 4090 renders an SDXL texture in 4.2 s"
    rf"|\b(?:renders?|generates?|makes?|produces?|outputs?|finishes|does) (?:an?|one|each) "
    rf"(?:[\w-]+ ){{0,3}}?(?:{_ITEM_WORDS})s? in (?:about |around |~)?{_NUM}\s?"
    r"(s|sec|secs|seconds?|ms|milliseconds?|min|mins|minutes?)\b"
    # "our L40S boxes do one SDXL 1024x1024 at 30 steps in about 3.2 s": an image model's image
    r"|\b(?:do|does|did|renders?|generates?|makes?|produces?) (?:an?|one|each) (?:sdxl|sd ?[0-9.]+"
    r"|stable diffusion\S*|flux\S*)(?: [\w.-]+){0,8}? in (?:about |around |roughly |~)?"
    rf"{_NUM}\s?(s|sec|secs|seconds?|ms|milliseconds?|min|mins|minutes?)\b"
    # "about 0.9 seconds per SDXL image", "4 s per 1024px render"
    rf"|(?<![\w.]){_NUM}\s?(s|sec|secs|seconds?|ms|milliseconds?|min|mins|minutes?) "
    rf"(?:per|an?|each) (?:[\w.-]+ ){{0,2}}(?:{_ITEM_WORDS})\b"
)
# any thing the user counts, with the time each takes: "if each lot takes about 3 seconds",
# "every listing needs ~2 s" (not an epoch's, a step's or a request's pace: those are their own)
_EACH_THING_TAKES = re.compile(
    r"\b(?:each|every|one|a single) (?!(?:epoch|step|iteration|it|batch|pass|run|hour|day|week"
    r"|month|night|gpu|card|node|request|query|call|prompt|token|user|turn|time)s?\b)"
    r"([a-z][a-z-]{2,})s? (?:takes?|needs?|runs?|is|goes|went) (?:about |around |roughly |~|like "
    rf"|approx\w* )?{_NUM}\s?(s|sec|secs|seconds?|min|mins|minutes?)\b"
)


def _counted_each(named: str) -> float | None:
    """The count of the thing whose time each is said ("12,000 lots ... each lot takes 3 s")."""
    each = _EACH_THING_TAKES.search(named)
    if not each:
        return None
    noun = re.escape(each.group(1).removesuffix("s"))
    m = rx.search(rf"(?<![\w.,$£€])(\d[\d,]*)\s?(k)?\s(?:[a-z-]+\s){{0,2}}?{noun}s?\b", named)
    if not m:
        return None
    count = _number(m.group(1)) * (1000 if m.group(2) else 1)
    return count if count >= 2 else None


# things counted, then the time each takes: "500 thumbnails at ~5 s each"
_ITEMS_AT = re.compile(
    rf"\b\d[\d,]*\s?k?\s(?:[\w-]+\s)?(?:{_ITEM_WORDS})s?,?\s(?:at|@|in)\s(?:about |around |~)?"
    r"(\d+(?:\.\d+)?)\s?(s|sec|secs|seconds?|min|mins|minutes?)\s(?:each|apiece|a piece|per)\b"
)
# "whisper runs about 40x real time", "25x realtime on an L4": seconds one hour of audio takes
_REALTIME = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?x\s?(?:faster than\s)?real[- ]?time\b"
    r"|\b(\d+(?:\.\d+)?) times (?:faster than )?real[- ]?time\b"
)
# "1.8 s/it", "2 seconds per step": the seconds one training step takes
_STEP_TIME = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?(?:s|sec|secs|seconds?)\s?/\s?(?:it|iter|step)\b"
    r"|(?<![\w.])(\d+(?:\.\d+)?)\s?(?:s|sec|secs|seconds?) (?:per|an?|each) (?:it|iter\w*|step)\b"
    # "each step takes about 1.2 seconds", "one training step is ~0.8 s"
    r"|\b(?:each|every|one|a|per) (?:training )?(?:step|iteration|iter)s? "
    r"(?:takes?|needs?|is|=|lasts?)"
    r"\s?(?:about |around |roughly |~)?(\d+(?:\.\d+)?)\s?(?:s|sec|secs|seconds?)\b"
)


def _timed_blanked(low: str) -> str:
    """The text without the things timed and their time ("coded 1,000 responses in 3 min 20
    s", "ran 4,000 steps in 3 h 10 min"): a pace, not how long the job runs."""
    if " in " not in low and "took" not in low:
        return low
    for pattern in _TIMED:
        for m in pattern.finditer(low):
            span = rx.match(r"[^.,;?!]{0,25}", low[m.end() :])
            end = m.end() + (span.end() if span else 0)
            low = low[: m.start()] + " " * (end - m.start()) + low[end:]
    return low


# things done and the time they took: "coded 1,000 open-ended survey responses in 3 min 20 s",
# "transcribed 500 files in 2 hours"
_ITEMS_TOOK = re.compile(
    r"\b(?:coded|classified|labell?ed|processed|scored|tagged|summari[sz]ed|translated|transcribed"
    r"|embedded|generated|rendered|upscaled|answered|handled|did|ran) (\d{1,3}(?:,\d{3})+|\d+)\s"
    r"(?:[\w-]+\s){0,3}?(?:responses|answers|items|documents|docs|files|texts|records|rows|images"
    r"|pictures|photos|prompts|requests|queries|emails|tickets|pages|articles|reviews|samples"
    r"|examples|clips|videos)\s(?:in|took|took about|in about|in roughly|in ~)\s?(?=~?\d)"
)
# steps and the time they took: "ran 4,000 steps in 3 h 10 min", "the first 500 iterations took"
_STEPS_TOOK = re.compile(
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s(?:training\s)?(?:steps|iterations|iters)\s"
    r"(?:(?:of|for|on) (?:my |the |our |a )?[\w .-]{0,30}?\s)?"  # "steps of my llama 3 8b lora"
    r"(?:in|took|takes|took about|in about|in roughly|took roughly|in ~)\s?(?=~?\d)"
)
# things timed, then steps timed: "coded 1,000 responses in 3 min 20 s", "ran 4,000 steps in 3 h"
_TIMED = (_ITEMS_TOOK, _STEPS_TOOK)
# "2.1 it/s at batch 32": the seconds one sample takes in training
_STEP_RATE = re.compile(
    r"(\d+(?:\.\d+)?)\s?it/s\b[^.?!]{0,15}?\b(?:at |with )?(?:a )?(?:batch(?:[- ]size)?|bs)\s?"
    r"(?:of\s|=\s?)?(\d+)\b"
)


# the lowest price a seller takes: "seller won't go below $700", "firm at 700"
_SELLERS_FLOOR = (
    r"\b(?:won'?t|will not|wouldn'?t) (?:go|come|drop) (?:below|under|lower than)"
    r"|\bfirm at"
)
# a seller's price come down: "the guy dropped it to $1,350", "he came down to 600"
_PRICE_DROPPED = (
    r"\b(?:dropped|lowered|reduced|cut|knocked|brought|came|come|went)"
    r"(?: it| the price| his price| her price)?(?: down)? to\b"
)
_PURCHASE = re.compile(
    rf"(?:\bcosts?|\bpriced at|\bgo(?:es|ing) for|\bsell(?:s|ing) for|\bsold for|\bpa(?:id|y|ying)"
    rf"|\b(?:bought|purchased) (?:[\w-]+ ){{0,3}}?(?:for|at)"
    rf"|\bbuy (?:it |one |them )?(?:for|at)|\bgo for|\bfor"
    # a seller's ask: "scalpers want $2500 for a 5090", "asking price is 650", "listed at 700"
    rf"|\bwants?|\basking(?: price)?(?: is| of)?|\bmsrp(?: is| of)?|\blisted (?:at|for)"
    rf"|\bits price is"  # "RTX 5090 almaq ..., qiyməti 7 500 AZN-dir" (Azerbaijani)
    rf"|{_SELLERS_FLOOR}|{_PRICE_DROPPED}"  # "seller won't go below $700", "dropped it to 1,350"
    rf"|(?<=\d{{4}})(?=\s?\$)|(?<=\d{{4}}s)(?=\s?\$)"  # "used 3090 $600": the card's price
    # "buying them would be 30k total", "to buy one is about 1800"
    rf"|\b(?:buy(?:ing)?|purchas(?:e|ing)) (?:it |them |one |both |those |these |the [\w-]+ )?"
    rf"(?:used |new |second[- ]hand |refurbished )?"  # "buying used would be 9k each"
    rf"(?:would |will |could |should )?(?:be|costs?|runs?|comes? to|is|are)\b"
    rf"|\bquot(?:e[sd]?|ing)\b(?: \w+){{0,3}}?(?: at| for| is| of| was|:)?(?=\s?(?:\$|usd))"
    rf"|\bquoted?(?: (?:is|was|came in at|of)|:)"  # "quote is $30k per node"
    rf"|\b(?:quoted|quotes|quoting)(?=\s~?\d)"  # "our supplier quoted 72300 ZAR (excl. VAT)"
    # "the quote for our 4x L40S server came in at 58k"
    rf"|\bquote\b[^.?!$]{{0,40}}?\b(?:came in at|comes? (?:in at|to)|came to|is|was)"
    rf"|\bat(?=\s~?(?:\$|usd\s?)?\d[\d,.]*\s?k?\s(?:each|apiece)\b)"  # "buy 2 4090s at 1800 each"
    rf"|\bat(?=\s~?(?:\$|usd\s?|us\$)\s?\d)"  # "4090 at $1,800 vs renting at $0.40/h"
    rf"|\b(?:server|node|box|machine|system|workstation|rig|cluster)(?::| at| for| is)"
    rf"|\b(?:is|are|runs?)(?=\s(?:about |around |~)?(?:\$|usd\s?)?\d[\d,.]*\s?k?\s?"
    rf"(?:usd|dollars?)?"
    rf"\s(?:to buy|new|used|brand new|second[- ]hand|retail|on ebay)\b))"  # "is $1800 to buy"
    rf"\s?(?:about |around |like |~)?"
    rf"(?:\$|usd\s?|us\$|r\$|gbp\s?|eur\s?|[€£])?\s?{_NUM}\s?(k(?![a-z])|thousand)?(?!\d|\.\d|\s?%|\s?percent)"
    r"(?![bmt]\b)"  # "for 70b inference": a model's size, not a price
    r"(?!\s?(?:/|per|an?|each|usd/|dollars?/)\s?(?:h\b|hr|hour|mo\b|month|gpu|kwh|year))"
    r"(?!\s?(?:hours?|hrs?|days?|weeks?|months?|years?|tokens?|images?|gb|steps?|epochs?"
    r"|gpu[- ]?(?:hours?|hrs?|h\b|days?)|node[- ]hours?|instance[- ]hours?"  # "for 300 GPU-hours"
    r"|budget|max\b|tops\b|or (?:less|under|below)))"  # "for ~$4000 budget": a limit
)


# words that make an amount a limit to spend within
_BUDGET_SAID = re.compile(
    r"\bbudget\w*|\bunder\b|\bbelow\b|\bless than\b|\bmax(?:imum)?\b|\bat most\b|\bup to\b"
    r"|\bafford\b|\bspend\b|\b(?:i|we) (?:have|got)\b|\bcapex\b|\bapproved\b|\bwithin\b"
)


# one price said of every card compared: "both are ~$800", "each costs about 1k"
_PRICE_LEVEL = re.compile(
    r"\b(?:both|each|all of them|all three) (?:are |cost |costs |go for |run |sell for |is )?"
    r"(?:about |around |roughly |~|at |like )?[$€£]?\s?\d[\d.,]*\s?k?\b"
)


def _purchase(low: str) -> float | None:
    """A price to buy that the user states: "a 4090 costs 1800", "server used costs ~90k",
    "picked up a 3090 for $700". Only with a buying word in the message."""
    if not rx.search(r"\bbuy\w*|\bbought\b|\bpurchas\w*|\bown\w*|\bpaid\b"
                     r"|\bcosts? (?:about |around |~\s?)?\$?\s?\d(?:,?\d){2}"  # "costs $5,475"
                     r"|\bsales tax\b|\bvat\b|\bmwst\b|\bgst\b"  # "$1,899 ... with 8.25% sales tax"
                     r"|\bscalp\w*|\bmsrp\b|\basking\b|\blisted (?:at|for)\b|\bresell\w*"
                     r"|\bwants (?:[$\u00a3\u20ac]\s?)?\d"
                     r"|\bworth (?:it|buying|the money|the price)\b"
                     r"|\b(?:is|are|'s) going for\b|\bsell(?:s|ing)? for\b|\bgoes for\b"
                     r"|\bsold for\b|\b(?:on|for) sale\b|\bsell\w* (?:us|me|it|them|you)\b"
                     r"|\b(?:picked|snagged|grabbed|scored) (?:up )?(?:an? |my |the |one |two )?"
                     r"\w+ for\b|\boverpa(?:y|id)\b"
                     r"|\bused\b|\bsecond[- ]hand\b|\bbreak[- ]?even\b|\bor rent\w*\b"
                     r"|\b(?:vs\.?|versus|against) rent\w*|\bquot(?:e[sd]?|ing)\b"
                     # "seller won't go below $700", "the guy dropped it to $1,350"
                     rf"|\bsellers?\b|(?:{_SELLERS_FLOOR})\b|{_PRICE_DROPPED}",
                     low):  # fmt: skip
        return None
    for m in _PURCHASE.finditer(low):
        value = _number(m.group(1)) * (1000 if m.group(2) else 1)
        if value >= 50:  # a GPU costs more than this; smaller figures are prices per hour
            return value
    return None


# a price per minute of audio, and the hours of audio a month: "an API at $0.006 a minute, 20
# hours of audio a month"
_PER_MINUTE = re.compile(
    r"(?:\$\s?|usd\s?)(\d+(?:\.\d+)?)\s?(?:dollars?|usd)?\s?(?:/|per|a)\s?min(?:ute)?\b"
    r"|(?<![\w.])(\d+(?:\.\d+)?)\s?(?:dollars?|usd)\s?(?:/|per|a)\s?min(?:ute)?\b"
)
_AUDIO_MONTHLY = re.compile(r"\bhours? of (?:audio|speech|recordings?)\s?(?:a|per|each|/)\s?month")


def _metered_monthly(low: str, audio_hours: float | None) -> float | None:
    """A monthly bill of a service paid by the minute of audio (an API's fee)."""
    m = _PER_MINUTE.search(low)
    if not (m and audio_hours and _AUDIO_MONTHLY.search(low)):
        return None
    return float(m.group(1) or m.group(2)) * 60 * audio_hours


# a pace said of a whole machine ("our 8x V100 box trains at 3,000 images/s", "a node of 4x A100
# does 2,900 images/s"): all its GPUs together; without such words a pace is one GPU's, shared
_PACE_OF_ALL = re.compile(
    r"\b(?:nodes?|cluster|box|server|machine|setup|rig|system|aggregate|combined|together"
    r"|in total|all (?:\d+|of them|the gpus|the cards))\b"
)
# a pace said of one GPU among several: "on one of the A100s it runs 90x real time"
_PACE_OF_ONE = re.compile(
    r"\b(?:per|each|a single|single) (?:gpu|card)\b|\bone of (?:the|our|them|my|those)\b"
    r"|\bper[- ]gpu\b"
)


# a clip's length and frame rate: "the clip is 14 minutes long at 24 fps"
_CLIP = re.compile(
    r"\b(\d+(?:\.\d+)?)[- ]?(min(?:ute)?s?|hours?|h|hrs?|seconds?|secs?|s)\b(?:[- ]long)?"
    r"[^.?!]{0,25}?\bat (\d+(?:\.\d+)?) ?(?:fps|frames (?:per|a) second)\b"
)
# the frames a job processes each second: "runs at a steady 6 frames per second", "does 6 fps"
_FRAME_PACE = re.compile(r"(\d+(?:\.\d+)?) ?(?:fps|frames (?:per|a) second)\b")


def _clip_frames(low: str) -> tuple[float, float] | None:
    """(frames in the clip, seconds per frame processed) when the message gives a clip's length
    and frame rate and another rate at which its frames are processed."""
    clip = _CLIP.search(low)
    if not clip:
        return None
    unit = clip.group(2)
    seconds = float(clip.group(1)) * (60 if unit.startswith("m") else 3600 if unit.startswith("h")
                                      else 1)  # fmt: skip
    paces = [m for m in _FRAME_PACE.finditer(low) if not clip.start(3) <= m.start() < clip.end()]
    pace = paces[0] if paces else None
    if pace is None or float(pace.group(1)) <= 0:
        return None
    return seconds * float(clip.group(3)), 1 / float(pace.group(1))


def _audio_at_a_pace(low: str) -> bool:
    """A speech job at a real-time pace whose length in hours is had, not spent ("we have 120
    hours of ...", not "in 8 hours"), and the time it takes asked."""
    speech = rx.search(r"whisper|audio|transcri|speech|podcast", low)
    had = rx.search(r"\b(?:have|got|has|sitting on|there (?:is|are)|backlog of)\s(?:about "
                    r"|around |roughly |~)?\d[\d,.]*\s?(?:hours?|hrs?)\b", low)  # fmt: skip
    # "got 3 hrs of team radio ... whisper turbo ... how long till its done": hours of something
    # had, for a speech model to transcribe, with no pace said: the audio
    of_a_thing = had and rx.search(r"\d\s?(?:hours?|hrs?) of (?!gpu|compute|rental|time)\w", low)
    if not (speech and (_REALTIME.search(low) or of_a_thing)):
        return False
    asked = rx.search(r"\bhow long\b|\bhow many hours\b|\bwhen\b|\btake\b", low)
    return bool(had) and bool(asked)


# a pace wanted, not one measured, in the sentence that says it: "the kids want it to spot
# pieces at thirty frames a second" (not "one L4 runs yolov8s at ~420 frames/s")
_RATE_WANTED = re.compile(
    r"^(?!.*\b(?:measured|we get|we got|i get|i got|getting|currently|clocked|seeing|logged"
    r"|benchmark\w*|runs?|does|did|hits|reaches|manages)\b).*(?:'d like|\b(?:want\w*|need\w*"
    r"|would like|wanna|trying to|hop(?:e|ing)|goal|target\w*|aim\w*|realistic|possible|feasible"
    r"|doable|able to)\b)"
)


# a time to first token allowed: "latency budget is 2s time to first token", "TTFT under 500 ms",
# "first token within 1.5 seconds"
_TTFT_BUDGET = re.compile(
    r"\b(?:ttft|time to first token|first token)\b[^.?!\d]{0,25}?(?:under|below|within|of|is|<=?"
    r"|at most|budget(?: is| of)?|max(?:imum)?|no more than)\s?~?(\d+(?:\.\d+)?)\s?(ms|millisec\w*"
    r"|s|secs?|seconds?)\b"
    r"|\b(?:latency )?budget (?:is |of )?~?(\d+(?:\.\d+)?)\s?(ms|millisec\w*|s|secs?|seconds?)\b"
    r"[^.?!]{0,25}\b(?:ttft|time to first token|first token)\b"
)


def _ttft_budget(low: str) -> float | None:
    """The seconds to the first token the user allows, when said."""
    m = _TTFT_BUDGET.search(low)
    if m is None:
        return None
    value, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    seconds = float(value) / (1000.0 if unit.startswith("m") else 1.0)
    return seconds if 0 < seconds <= 600 else None


def _sentence_of(low: str, at: int) -> str:
    """The sentence of `low` that holds the character at `at`."""
    start = max(low.rfind(". ", 0, at), low.rfind("? ", 0, at), low.rfind("! ", 0, at)) + 1
    ends = [i for i in (low.find(". ", at), low.find("? ", at), low.find("! ", at)) if i >= 0]
    return low[start : min(ends) + 1 if ends else len(low)]


def _seconds_per_item(low: str) -> float | None:
    """'each image takes 20 sec', 'one sample in 150 ms': the user's own speed, used as given;
    'did one hour of audio in about 2 minutes': the seconds an hour of audio takes."""
    if m := _AUDIO_PACE.search(low):
        value, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return _count(value) * (60.0 if unit.startswith("m") else 1.0)
    if m := _RECORDING_PACE.search(low):  # "a 45-minute episode came out in 3 minutes"
        audio = _number(m.group(1)) * (60.0 if m.group(2).startswith("h") else 1.0)  # minutes
        took = _number(m.group(3)) * (60.0 if m.group(4).startswith("m") else 1.0)  # seconds
        return took * 60.0 / audio if audio > 0 else None
    if (m := _REALTIME.search(low)) and rx.search(r"whisper|audio|transcri|speech|podcast", low):
        factor = _number(m.group(1) or m.group(2))
        return 3600.0 / factor if factor > 0 else None
    if m := _STEP_RATE.search(low):
        rate, batch = _number(m.group(1)), _number(m.group(2))
        return 1.0 / (rate * batch) if rate > 0 and batch > 0 else None
    for pattern in _TIMED:  # "coded 1,000 responses in 3 min 20 s": the seconds of one
        if (m := pattern.search(low)) and (spent := _duration_hours(low[m.end() :][:30], None)):
            done = _number(m.group(1))
            return spent * 3600 / done if done > 0 else None
    if m := _STEP_TIME.search(low):  # "kohya says 1.8 s/it": the seconds of one step
        return _number(m.group(1) or m.group(2) or m.group(3))
    if (m := rx.search(r"(?<![\w.])(\d+(?:\.\d+)?)\s?it/s\b", low)) and _number(m.group(1)) > 0:
        rate = _number(m.group(1))
        if said := _batch(low):  # "global batch 32 ... measured 2.5 it/s": samples a second
            return 1.0 / (rate * said)
        steps = _steps(low)
        if steps and _TRAINING_SAID.search(low):  # "a lora at 3 it/s, 5,000 steps": one step
            return 1.0 / rate
        if steps and steps <= SAMPLER_STEPS:  # "sdxl at 30 steps runs 6 it/s": an image's steps
            return steps / rate
    if (m := _ITEM_RATE.search(low)) and not _RATE_WANTED.search(_sentence_of(low, m.start())):
        # "trained at about 1,200 images per second" (not "want it at thirty frames a second:
        # realistic?", a pace to reach)
        rate = _scaled(m.group(1), m.group(2))
        return 1.0 / rate if rate > 0 else None
    if (m := _ITEM_RATE_SLOW.search(low)) and not _RATE_WANTED.search(_sentence_of(low, m.start())):
        rate = _number(m.group(1) or m.group(2))
        per = 60.0 if (m.group(3) or m.group(4)).startswith("m") else 3600.0
        return per / rate if rate > 0 else None
    if m := _ITEMS_AT.search(low):  # "500 thumbnails at ~5 s each"
        value = _number(m.group(1))
        return value * (60.0 if m.group(2).startswith("min") else 1.0) if value > 0 else None
    m = _ITEM_TIME.search(low)
    if not m:
        each = _EACH_THING_TAKES.search(low)  # "each lot takes about 3 seconds"
        if not (each and _counted_each(low)):
            return None
        value = _number(each.group(2))
        return value * (60.0 if each.group(3).startswith("m") else 1.0) if value > 0 else None
    value = _number(m.group(1) or m.group(3) or m.group(5) or m.group(7))
    unit = m.group(2) or m.group(4) or m.group(6) or m.group(8)
    scale = 0.001 if unit.startswith("m") and unit.startswith(("ms", "milli")) else 1.0
    scale = 60.0 if unit.startswith("min") else scale
    return value * scale if value > 0 else None


# "multi-GPU training" with no count: one node of eight, said as assumed
_MULTI_GPU = re.compile(r"\bmulti[- ]?gpus?\b|\b(?:multiple|several|many) gpus\b")
MULTI_GPU_COUNT = 8


_OWNED_COUNT = re.compile(rf"\b(?:i|we)\s(?:have|own|got|already have)\s{_WORD_NUM}\b")


_COUNT_AFTER_CUE = re.compile(r"\d\s(?:cards|gpus)\b|\sx\s?\d")


# the job asked of a card, with the job unsaid: "fits or nah?", "will it run it?"
_JOB_ON_CARD = re.compile(
    r"\b(?:fits?|fit it|does it fit|would it fit|will it fit|run it|runs it|hold it|holds it"
    r"|handle it|load it|run that|handle that)\b"
)


# a model set aside by the words before it: "ok forget flux. sdxl then", "scrap the 70b"
_MODEL_ASIDE = r"(?:forget(?: about)?|scrap|ditch|drop|skip|never ?mind|nvm|screw|leave|not)"


# the size an Ollama library name with no tag pulls (ollama.com/library, each model's "latest"
# tag): "ollama run mistral" is Mistral 7B, "llama3.1" the 8B, "qwen2.5" the 7B
OLLAMA_DEFAULT_TAGS = {
    "mistral": "mistral-7b-v0.3", "llama3": "llama-3-8b", "llama3.1": "llama-3.1-8b",
    "llama3.2": "llama-3.2-3b", "qwen2.5": "qwen2.5-7b", "qwen3": "qwen3-8b",
    "gemma2": "gemma-2-9b", "gemma3": "gemma-3-4b", "deepseek-r1": "deepseek-r1-distill-qwen-7b",
}  # fmt: skip


_OLLAMA_NAME = re.compile(
    r"\b(mistral|llama ?3(?:\.[12])?|qwen ?2\.5|qwen ?3|gemma ?[23]|deepseek-r1)\b(?![\s:-]?\d)"
)


def _ollama_default(written: str, catalog: Catalog) -> ModelRef | None:
    """A name with no size said beside Ollama ("my mistral in ollama"): the model its library
    name pulls by default, said as assumed; None for a name with no default tag on record."""
    key = rx.sub(r"[\s-]+(?=\d)|\s+", "", written.lower())  # "llama 3.1" -> "llama3.1"
    found = OLLAMA_DEFAULT_TAGS.get(key)
    if found is None or found not in catalog.models:
        return None
    name = catalog.models[found].name
    note = (f"'{written}' in Ollama pulls its default tag, {name}: assumed (say the size if "
            "yours differs).")  # fmt: skip
    return ModelRef(written, (found,), "llm", note=note, about=found, assumed=True)


def _models_set_aside(models: tuple[ModelRef, ...], low: str) -> tuple[ModelRef, ...]:
    """The models asked about, less one the words set aside where another is named ("ok forget
    flux. sdxl works on my 4060 laptop right?": SDXL alone)."""
    if len(models) < 2:
        return models

    def aside(text: str) -> bool:
        # (a family and its size said apart, "qwen 70b" from "the 70b": its size alone too)
        said = "|".join(re.escape(t) for t in dict.fromkeys((text, text.split()[-1])))
        return bool(rx.search(rf"\b{_MODEL_ASIDE}\s(?:the\s|that\s|about\s)?(?:{said})\b"
                              r"(?!\s?(?:or|vs|and)\b)", low))  # fmt: skip

    kept = tuple(m for m in models if not (m.text and aside(m.text.lower())))
    return kept or models


def _not_these(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """A card said only to be set aside: "turns out he's got a 4090 not a 3090", "a 4080,
    not the 4070 I said" (not "H200s instead of H100s", two cards set against each other)."""
    if len(gpus) < 2:
        return gpus
    kept = tuple(
        g
        for g in gpus
        if not (
            g.text
            and rx.search(
                rf"(?<!\bor )\b(?:not|no longer|never mind)\s(?:an?\s|the\s|my\s|his\s"
                rf"|her\s|our\s)?{re.escape(g.text.lower())}\b(?!\s?(?:ti|super|xt|xtx)\b)"
                # "the provider doesn't have A100s, it's 4x H100 SXM": the card not on offer
                rf"|\b(?:doesn'?t|does not|don'?t|do not|didn'?t|did not|won'?t) (?:even )?"
                rf"(?:have|offer|carry|stock|sell|rent)(?: any)? {re.escape(g.text.lower())}\b"
                # "does it spill into system ram like on my old 1660": the card before, recalled
                rf"|\b(?:un)?like (?:it did |it was |they did )?(?:on|with|in) "
                rf"(?:my|our|the|his|her) (?:old|previous|last|former) "
                rf"{re.escape(g.text.lower())}\b",
                low,
            )
        )
    )
    return kept or gpus


def _count_after(ref: GpuRef, low: str) -> int | None:
    """A count said right after a card's name: "H200 8 cards", "a100 x4"."""
    if not ref.text:
        return None
    m = rx.search(rf"(?<!\w){re.escape(ref.text.lower())}s?\s(?:x\s?)?(\d{{1,2}})\s(?:cards|gpus)\b"
                  rf"|(?<!\w){re.escape(ref.text.lower())}s?\sx\s?(\d{{1,2}})\b", low)  # fmt: skip
    if not m:
        return None
    n = int(m.group(1) or m.group(2))
    return n if 1 < n <= 64 else None


_MEMORY_SAID = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:gb|gigs?|gib|g)\b(?!\s?(?:of )?(?:system|ddr\d?|storage|ssd"
    r"|disk|nvme|hdd|swap|model|file|download|weights|checkpoint|dataset))"
)


def _named_again(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """A card named again in a later sentence by its bare name ("H100 80GB at $2.40/hr. ... or
    do I need the H100?"): the one card, as first named (not "the A100 80GB than the A100")."""
    kept: list[GpuRef] = []
    for g in gpus:
        again = (
            g.open_variant
            and g.count is None
            and any(
                k.ids
                and set(k.ids) < set(g.ids)
                and rx.search(r"[.?!]\s", low[low.find(k.text.lower()) : low.rfind(g.text.lower())])
                for k in kept
            )
        )
        if not again:
            kept.append(g)
    return tuple(kept)


def _variant_by_memory(gpus: tuple[GpuRef, ...], low: str, catalog: Catalog) -> tuple[GpuRef, ...]:
    """A card left open among variants of different memory, when the message states exactly one
    of those sizes anywhere ("an old MacBook Air with the M2 chip and only 8GB of memory")."""
    if not any(g.open_variant for g in gpus):
        return gpus
    said = {float(m.group(1)) for m in _MEMORY_SAID.finditer(low)}
    ram = {float(m.group(1)) for m in _MEMORY_SAID.finditer(low)
           if rx.match(r"\s?(?:of )?(?:system )?ram\b", low[m.end() :])}  # fmt: skip
    out = []
    for g in gpus:
        sizes = {i: catalog.gpus[i].memory_gb for i in g.ids if i in catalog.gpus}
        unified = all("unified" in (catalog.gpus[i].memory_type or "").lower() or
                      catalog.gpus[i].vendor == "apple" for i in sizes)  # fmt: skip
        said_here = said if unified else said - ram  # "16gb of ram" is the PC's, beside a card
        if g.open_variant and len(set(sizes.values())) == len(g.ids):
            hit = [i for i, gb in sizes.items() if gb in said_here]
            g = replace(g, ids=(hit[0],)) if len(hit) == 1 else g
        out.append(g)
    return tuple(out)


def _counted_after(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """Each card with no count of its own takes the one said right after its name."""
    if not _COUNT_AFTER_CUE.search(low):
        return gpus
    return tuple(
        replace(g, count=n) if g.count is None and (n := _count_after(g, low)) else g for g in gpus
    )


def _loose_count(low: str, gpus: tuple[GpuRef, ...]) -> int | None:
    """A GPU count not attached to a named GPU: 'on 8 gpus', 'with four of them', '2 cards',
    'an 8 gpu node'."""
    m = rx.search(
        rf"\b{_WORD_NUM}\s?(?:x\s?)?(?:gpus|cards|of them|of those|of these|of 'em|of em"
        r"|graphics cards)\b"
        # "queue all six of them back to back": runs, not cards
        r"(?![^.?!]{0,25}\b(?:back[- ]to[- ]back|in a row|one after (?:the )?other|sequentially))"
        rf"|\b{_WORD_NUM}[- ]?gpus? (?:node|server|box|machine|rig|instance|cluster|setup)\b"
        # "for 8 gpu data parallel", "a 4 gpu ddp run"
        rf"|\b{_WORD_NUM}[- ]?gpus? (?:data[- ]parallel|ddp|fsdp|training|run|job)\b"
        rf"|\b{_WORD_NUM}-gpu\b|\bboth\b(?= of them| cards| gpus)"
        # "the cost of eight units", "the total for two": the cards priced together
        # (not "13 units per hour", "100 compute units a month": a plan's credits)
        rf"|\b{_WORD_NUM}\s(?:units|pieces|pcs)\b(?!\s?(?:per|an?|/|each)\s?(?:hour|hr|h|day|week"
        r"|month)\b)(?<!compute units)|\b(?:total|cost|price) (?:for|of) " + _WORD_NUM + r"\b"
        r"(?=\s?(?:[,.?!]|$|units|of them|cards|gpus))",
        low,
    )
    if not m and gpus:  # the named card's count said by a verb: "need 3 for a week",
        # "putting 4 in a tower", "bridge two", "a second 3090" (one more: two in all)
        m = rx.search(
            rf"\b(?:need|get|buy|put|putting|run|running|rent|renting|bridge|bridging|stack|"
            # "can a 1000w psu handle two", "will my board fit two"
            rf"add|adding|handle|power|carry|support|feed|fit)\s{_WORD_NUM}\b(?![.,/]\d)(?=\s(?:in|into|for|together|of|to)\b|\s?[,.?!]"
            rf"|\s?$)"
            # "thinking of buying two more off ebay": the cards to buy
            rf"|\b(?:buy|buying|get|getting|grab|grabbing|add|adding)\s{_WORD_NUM}\s(more)\b"
            rf"(?=\s?[,.?!]|\s?$|\s(?:off|from|on|of them|cards?|gpus?)\b)",
            low,
        )
    if not m or (m.group(m.lastindex or 0) == "more" and _OWNED_COUNT.search(low)):
        return None  # "I have one 3090, buying one more": how many in all is not said as one
    if rx.search(r"\bof (?:them|those|these|'?em)\b", m.group(0)) and _items_named_last(
        low[: m.start()], gpus
    ):
        return None  # "how many seconds per icon? and for 500 of them": icons, not cards
    if m.group(0).startswith("both"):
        return 2
    word = next(g for g in m.groups() if g)
    value = int(_count(word))
    if value > 100 and any(rx.search(rf"(?<!\d){value}(?!\d)", g.text) for g in gpus):
        return None  # "four RTX 4090 cards": the card's own number, no count
    if value == _weighed_against_one(low):
        return None  # "is one A100 enough or do I need two?": the card asked of first, one
    return value if 0 < value <= 100_000 else None


# the singular of the things counted (_THINGS), as said after "per" or "each"
_THING_ONE = re.compile(
    rf"\b(?:{_THINGS}|image|img|picture|photo|icon|render|sprite|asset|document|doc|file|clip"
    r"|video|song|track|page|prompt|request|sample|frame|thumbnail|item|recording|transcript)\b"
)


def _items_named_last(before: str, gpus: tuple[GpuRef, ...] = ()) -> str | None:
    """The things last named before "N of them", where they are items of a job (icons, images,
    files) rather than cards: "how long per image ... for 400 of them" (images)."""
    item = list(_THING_ONE.finditer(before))
    card = [m.end() for m in rx.finditer(r"\b(?:gpus?|cards?|units?|nodes?|boxes)\b", before)]
    card += [i + len(g.text) for g in gpus if (i := before.rfind(g.text.lower())) >= 0]
    card += [m.end() for m in rx.finditer(r"\b(?:rtx|gtx|[ahlbt]\d{1,3}|\d{4})\b", before)]
    if not item or item[-1].end() < max(card, default=-1):
        return None
    word = item[-1].group(0)
    return word if word.endswith("s") else f"{word}s"


_OF_THEM = re.compile(rf"\b{_WORD_NUM}\s(?:more\s)?of (?:them|those|these)\b")


def _them_as_items(part: str, before: str) -> str:
    """A later question's "N of them" written as the items the message named before it: "how
    many seconds per icon? and how long for 500 of them" asks of 500 icons, not 500 cards."""
    low = part.lower()
    if not (said := _OF_THEM.search(low)) or not (items := _items_named_last(
        f"{before.lower()} {low[: said.start()]}"
    )):  # fmt: skip
        return part
    return f"{part[: said.start()]}{said.group(1)} {items}{part[said.end() :]}"


# a tensor-parallel size: "tp=4", "tp 4", "--tensor-parallel-size 4", "-tp 2", "TP of 8"
_TP_SIZE = re.compile(
    r"(?<![\w-])-{0,2}(?:tensor[-_ ]parallel(?:[-_ ](?:size|degree))?\s?(?:[=:]\s?|of\s)?"
    r"|tp\s?[=:]\s?|tp\s(?:of\s)?(?=\d+\b.{0,80}\b(?:vllm|sglang|serv\w*|trt|tensorrt|shard\w*"
    r"|inference|llama|qwen|mistral|mixtral|deepseek|\d+b)\b))(\d{1,2})\b(?!\s?(?:gb|b|k|x|%|w)\b)"
)


# machines a job spans: "two boxes with 4x 3090 each", "2 nodes of 8 h100", "across 4 servers"
_NODES = re.compile(
    r"\b(?P<n>\d{1,3}|two|three|four|five|six|eight|ten|sixteen|a pair of)\s(?:separate\s|"
    r"identical\s|physical\s)?(?:nodes|boxes|machines|servers|hosts|rigs|workstations|"
    r"computers|pcs)\b"
)
# the cards said per machine: "... each", "per node", "nodes of 8", "4 gpus a box"
_CARDS_PER_MACHINE = re.compile(
    r"\b(?:each|apiece|per (?:node|box|machine|server|host|rig)|a (?:node|box|machine|server))"
    r"\b|\b(?:nodes|boxes|machines|servers|hosts|rigs) (?:of|with|having|holding) "
    r"(?:\d|two|four|eight|a pair)"
    # "2 nodes x 8 H100", "2 nodes * 8xA100": the count a node's
    r"|\b(?:nodes|boxes|machines|servers|hosts|rigs)\s?[x*\u00d7]\s?\d"
)
# the network between them: "10gbe", "25 gbit ethernet", "100g infiniband", "ib ndr", "roce"
_GBE = re.compile(
    r"\b(?P<g>1|10|25|40|100|200|400)\s?(?:gbe|gige|gbit(?:/s)?|gbps|gb/s|g|gig)?"
    r"\s?(?:ethernet|e\b|lan\b|nics?\b|network\b|links?\b)"
    r"|\b(?P<g2>1|10|25|40|100|200|400)\s?(?:gbe|gige)\b"
)
_IB = re.compile(
    # (not "no IB", "without infiniband": the network it is not)
    r"(?<!\bno )(?<!\bnot )(?<!\bwithout )(?<!\bw/o )(?<!\bnon-)"
    r"\b(?:infiniband|ib)\b(?:\s(?P<gen>edr|hdr|ndr|xdr))?|\b(?P<gen2>edr|hdr|ndr|"
    r"xdr)\s(?:infiniband|ib)\b"
)
_IB_RATE = re.compile(
    r"\b(?P<g>100|200|400|800)\s?(?:g|gb|gbit|gbps|gb/s)?\s?(?:infiniband|ib"
    r"|roce)\b"
)
_IB_GENS = {"edr": "ib-edr", "hdr": "ib-hdr", "ndr": "ib-ndr", "xdr": "ib-xdr"}
_IB_OF_RATE = {"100": "ib-edr", "200": "ib-hdr", "400": "ib-ndr", "800": "ib-xdr"}


def nodes_said(low: str) -> tuple[int | None, bool]:
    """The machines a job spans ("two boxes", "2 nodes") and whether the cards were counted per
    machine ("with 4x 3090 each", "nodes of 8"); (None, False) when none is said."""
    m = _NODES.search(low)
    if m is None:
        return None, False
    word = m.group("n")
    n = 2 if word == "a pair of" else int(word) if word.isdigit() else int(_count(word))
    if n < 2:
        return None, False
    return n, bool(_CARDS_PER_MACHINE.search(low))


def network_said(low: str) -> str | None:
    """The network between machines, as the calculator names it (interconnect.NETWORKS)."""
    if rate := _IB_RATE.search(low):
        word = "roce" if "roce" in rate.group(0) else "ib"
        return f"roce-{rate.group('g')}" if word == "roce" and rate.group("g") != "800" else (
            _IB_OF_RATE[rate.group("g")])  # fmt: skip
    if ib := _IB.search(low):
        gen = ib.group("gen") or ib.group("gen2")
        return _IB_GENS[gen] if gen else "ib-hdr"  # an InfiniBand port today: HDR unless said
    if gbe := _GBE.search(low):
        return f"{gbe.group('g') or gbe.group('g2')}gbe"
    return None


# a job that spans machines: training, which all-reduces over the network between them
_TRAINED_ACROSS = re.compile(
    r"\b(?:train\w*|fine[- ]?tun\w*|finetun\w*|q?lora|ddp|fsdp|(?:full[- ]?)?ft|sft|"
    r"deepspeed|zero-?[123]|data[- ]parallel\w*|pre-?train\w*)\b"
)


def _over_nodes(gpus: tuple[GpuRef, ...], low: str) -> tuple[GpuRef, ...]:
    """Cards counted per machine over several machines: all of them ("two boxes with 4x 3090
    each" is 8); one card named per machine with no count, one a machine ("two boxes, a 4090
    in each")."""
    nodes, each = nodes_said(low)
    if nodes is None or len(gpus) != 1 or not _TRAINED_ACROSS.search(low):
        return gpus  # ("4 servers with one 3090 each, can we run a 70b?": one card to run it)
    ref = gpus[0]
    at = low.find(ref.text.lower())
    after = low[at + len(ref.text) : at + len(ref.text) + 40] if at >= 0 else ""
    # "4x 3090 each", "4 3090s per rig", "each with 2x 4090", "nodes of 8": said of the cards,
    # not "what each card draws" before them
    each = bool(
        _CARDS_PER_MACHINE.search(after)
        or rx.search(
            r"\beach (?:with|has|having|holding|running)\b|\b(?:nodes|boxes|machines|servers|hosts|"
            r"rigs|workstations) (?:of|with|having|holding) (?:\d|two|four|eight|a pair)"
            # "2 nodes each 4x a100"
            r"|\b(?:nodes|boxes|machines|servers|hosts|rigs) (?:each|apiece) (?:\d|two|four|eight)"
            # "2 nodes x 8 H100"
            r"|\b(?:nodes|boxes|machines|servers|hosts|rigs)\s?[x*\u00d7]\s?\d",
            low,
        )
    )
    per = rx.search(r"\b(?:nodes|boxes|machines|servers|hosts) (?:of|with) (\d+)\b", low)
    if ref.count and per and ref.count == nodes * int(per.group(1)):
        return gpus  # "64 H100s, i.e. 8 nodes of 8": the count in all, said again per node
    if ref.count and each:
        return (replace(ref, count=ref.count * nodes),)
    if ref.count is None and (each or rx.search(r"\b(?:in|per) (?:each|every)\b", low)):
        return (replace(ref, count=nodes),)
    return gpus


def _tp_size(low: str) -> int:
    """The tensor-parallel size said ("tp=4", "--tensor-parallel-size 8"), else 0."""
    tp = _TP_SIZE.search(low)
    return int(tp.group(1)) if tp else 0


def _replica_of(
    gpus: tuple[GpuRef, ...], low: str, size: int
) -> tuple[tuple[GpuRef, ...], str] | None:
    """ "8x A100 box, TP=4, two replicas" (`size` the TP size said): a model served by tensor
    parallelism over fewer cards than the box has runs on one replica's cards (its fit and each
    user's speed are theirs), and the note that says so; not for the box's price or its total
    throughput."""
    if not (1 < size <= 64 and len(gpus) == 1 and gpus[0].count and gpus[0].count > size
            and gpus[0].count % size == 0):  # fmt: skip
        return None
    if rx.search(r"\bcosts?\b|\bprice\w*|\bbill\b|\$|\bthroughput\b|\btotal\b|\bin all\b|\brent",
                 low):  # fmt: skip
        return None
    n = gpus[0].count // size
    note = (f"TP={size} on {gpus[0].count} GPUs: {n} replicas of {size} GPUs each; the figures "
            f"are for one replica (each user's speed).")  # fmt: skip
    return (replace(gpus[0], count=size),), note


def _counted(
    gpus: tuple[GpuRef, ...], loose: int | None, low: str, size: int
) -> tuple[GpuRef, ...]:
    """A count said apart from the one GPU named belongs to it ("p40s ... get 4 of them"); "a
    second 3090" is two of them; a tensor-parallel size (`size`, 0 for none) is the count of each
    GPU set against another ("tp=4 ... h100 pcie or h100 sxm")."""
    if 1 < size <= 64 and gpus and all(g.count in (None, size) for g in gpus):
        return tuple(replace(g, count=size) for g in gpus)  # ("tp=8: h200" already reads 8)
    gpus = tuple(
        replace(g, count=2)
        if g.count is None and rx.search(rf"\bsecond\s+{re.escape(g.text.lower())}", low)
        else g
        for g in gpus
    )
    if loose is None or len({g.ids for g in gpus}) != 1 or any(g.count for g in gpus):
        return gpus
    return tuple(replace(g, count=loose) for g in gpus)


_MAX_CONTEXT = re.compile(
    r"(?:max(?:imum)?|longest|largest|biggest|most|how much|how long (?:a|of a))\s(?:\w+\s)?"
    r"(?:context|ctx|sequence|seq(?:uence)?[ _]?len(?:gth)?|prompt)"
    # not a setting given its value: "max context 32k", "max sequence length of 4096"
    r"(?!\s?(?:length|len|size|window)?\s?(?:of|is|=|:|at|to)?\s?~?\d)"
    # no --flag, no key given its value ("max_seq_length 128")
    r"|how long (?:can|could) the context"
    r"|(?<![-\w])max[ _](?:seq|context|ctx)\w*+(?:[ _](?:len(?:gth)?|size))?+(?![\s=:]*\d)"
    # "the biggest --max-model-len that'll start", "how much ctx can i squeeze"
    r"|(?:max(?:imum)?|longest|largest|biggest|highest)\s(?:\w+\s)?-*max[-_ ]model[-_ ]len"
    r"|how much (?:ctx|context) can"
    # "how many tokens of kv cache do i get", "how many tokens fit in the kv cache": its room
    r"|how many (?:total )?tokens (?:of|in|can|will|would|fit|does)\b[^?.!]{0,25}?\bkv\b"
    r"|\bkv[- ]cache (?:capacity|room|space) in tokens\b"
    # "how far can i push num_ctx before it spills out of vram"
    r"|how (?:far|high|big) can (?:i|we|you) (?:push|take|raise|set|crank|bump|stretch|turn up"
    r"|increase) (?:up )?(?:the )?(?:num_ctx|n_ctx|ctx"
    r"|context(?: length| window| size)?|max[_-]model[_-]len)\b"
    # "what context length can i push to?", "which context can i get on it"
    r"|(?:what|which|how much) (?:context|ctx)(?: (?:length|size|window|len))? (?:can|could|will"
    r"|would) (?:i|we|it|you) (?:\w+ly |actually |even |still )?(?:push|get|go|reach|run|fit|use"
    r"|do|hit|have|afford)\b"
)
_MAX_BATCH = re.compile(
    r"(?:max(?:imum)?|largest|biggest|highest|how big (?:a|of a)|how large (?:a|of a))\s"
    r"(?:[\w-]+\s)?batch(?![- ]?(?:1|one)\b)"  # not "max batch-1 decode tok/s": a speed
    # "max concurrent seqs that fit in kv?"
    # ("the maximum number of concurrent 8k-context sessions")
    r"|\b(?:max(?:imum)?|most) (?:number of )?(?:concurrent|parallel|simultaneous) "
    r"(?:[\w.-]+\s){0,2}?(?:seqs|sequences|requests|users|streams|sessions|chats)\b"
    # "max concurrency for mixtral on 2x a100", "how many concurrent users can one h100 serve"
    r"|\b(?:max(?:imum)?|most) concurrency\b"
    r"|\bhow many (?:concurrent |parallel |simultaneous )(?:users|requests|sequences|seqs|streams"
    r"|sessions|chats)\b(?= (?:can|could|will|would|does|do|fit|at once))"
    # "how high can max_batch_size go", "how big can i push batch size", "largest bs"
    r"|how (?:high|big|large|far) can (?:i |we |you )?(?:push |set |go with |take )?(?:the )?"
    r"(?:max[_ ])?(?:batch|bs)\b"
    r"|how (?:high|big|large|far) can (?:the )?max[_ ]batch"
    # "what batch size should i use", "which bs fits", "what batch size can i get away with"
    r"|\b(?:what|which)(?: \w+)? (?:batch[ _-]?size|bs)\s(?:should|can|could|would|will|do|does"
    r"|fits?|works?|to use|for)\b"
    # "how many concurrent users can one a100 serve", "how many parallel requests fit", "how
    # many simultaneous 4k-token sessions"
    r"|how many (?:[\w.-]+\s){0,2}?(?:users|requests|reqs|sessions|streams|"
    r"sequences|seqs|chats|clients|conversations|agents|prompts|slots)\b(?!\s?(?:/|per)\s?(?:s|sec|second|min))"
    # "what max_num_seqs can actually be backed by KV cache?"
    r"|\bwhat (?:\w+ )?max[_-]num[_-]seqs\b|\bmax[_-]num[_-]seqs (?:can|could|should|would)\b"
    r"|\bmax[_-]num[_-]seqs\s?\?"  # "... 32k ctx. max_num_seqs?"
    r"|how many (?:of them |of those )?(?:can|could) (?:be|run|stay) "
    r"(?:in flight|in parallel|at once"
    r"|concurrently|simultaneously)"
    # "how many players can chat at once w/ mistral 7b on a 4090 before the kv cache is full"
    r"|how many (?:[\w.-]+ ){0,2}?(?:players|people|customers|students|employees|staff|npcs|bots"
    r"|visitors|members|lawyers|doctors|agents|devs|developers|engineers) (?:can|could) "
    r"(?:[\w-]+ ){0,3}?(?:at once|at the same time|simultaneously|concurrently|in parallel)"
)
# "how many A100 80GB SXM do I need", "how many T4s to serve", "how many h100s minimum": the
# object counted is GPUs (a GPU word or a name with digits), never "tok/s"
# "gpus", "them", "4090s", "rtx 3090", "h100 nvl (94 gb) gpus": what a count is of
_GPUS_COUNTED = (
    r"(?:gpus?|cards?|nodes?|of (?:them|those|these)"
    r"|(?:(?:nvidia|geforce|rtx|tesla|quadro|amd|radeon|instinct|intel|arc|cards?|gpus?) )*"
    r"[a-z]*\d+\w*"
    r"(?: \w+){0,3}?(?: \(\d+ ?gb\))?(?: (?:gpus?|cards?))?)"
)
_ADVERB = "(?:actually |really |realistically |even )?"  # "how many do i actually need"
_MIN_GPUS = re.compile(
    rf"how many {_GPUS_COUNTED}\s(?:do|would|will|should|must) (?:i|we|you) {_ADVERB}"
    r"(?:need|use|rent|buy)"
    rf"|how many {_GPUS_COUNTED}\s(?:to|for) (?:serve|run|host|train|fine-?tune|fit)"
    rf"|how many {_GPUS_COUNTED}\s(?:minimum|at least|needed|required)"
    # "how many RTX A6000 (48 GByte each) are minimum necessary to hold ..."
    r"|how many (?!(?:more |extra )?(?:hours?|days?|weeks?|months?|minutes?|gpu[- ]hours?)\b)"
    r"[^?.!]{1,40}?\b(?:are|is) (?:minimum |minimally |at least |the minimum )?"
    r"(?:necessary|needed|required)\b"
    r"|how many (?:gpus|cards|of (?:them|those|these|em|'em))\b(?! per)"
    r"|how many (?:i|we) (?:need|needs|must have)\b"  # "how many i need for qwen2.5 32b"
    # "the cheaper one, how many do i need for 50 users"
    r"|how many (?:do|would|will|should|must) (?:i|we|you) (?:really |actually )?"
    r"(?:need|rent|buy)\b"
    r"|how many (?:[\w.]+ ){1,2}(?:gpus|cards)\b(?! per)"  # "how many 24GiB cards for a 70B"
    r"|how many (?:rtx |nvidia )?[a-z]{0,3}\d{1,4}[a-z0-9]*s\b(?! per)"  # "how many 4090s?", "L4s"
    # "kimi k2 how many h200", "how many a100 for llama 405b": a card's name, said as one
    # (at the end only after the job: "how many h200?" alone names none to count cards for)
    r"|how many (?:rtx |nvidia )?(?:[a-z]{1,3}\d{1,4}|\d{4})[a-z0-9]*(?:\s(?:sxm|pcie|nvl))?"
    r"(?:\s?\d{2,3}\s?gb)?\s(?:for|to|do|would|will|needed|then|cards?)\b"
    r"|(?<=\w )how many (?:rtx |nvidia )?(?:[a-z]{1,3}\d{1,4}|\d{4})[a-z0-9]*"
    r"(?:\s(?:sxm|pcie|nvl))?(?:\s?\d{2,3}\s?gb)?(?:\s?[?!]|\s?$)"
    r"|(?:fewest|minimum|min|least)\s(?:number of\s)?(?:gpus|cards)|\bmin gpus\b"
    # "whats the least L4s i need", "the least number of em I'd need", "fewest 4090s we'd need"
    r"|\b(?:fewest|least|minimum)\s(?:number\s)?(?:of\s)?(?:(?:em|them|those|these)\s"
    r"(?:(?:rtx |nvidia )?[a-z]{0,3}\d{1,4}[a-z0-9]*s\s)?|(?:rtx |nvidia )?[a-z]{0,3}\d{1,4}"
    r"[a-z0-9]*s\s)(?:i|we|you)(?:'d|'ll| would| will| do| must)?\s(?:really |actually )?"
    r"(?:need|have to|gotta)\b"
    # "what's the minimum number of them I need to request", "how many units must we order"
    r"|(?:fewest|minimum|min|least|smallest)\s(?:number|count) of (?:them|those|these|units)\b"
    # "minimum number of RTX PRO 6000 Blackwell (96 GB) cards to serve ...": the name, then cards
    r"|(?:fewest|minimum|min|least|smallest|lowest)\s(?:number|count|quantity) of\s[^?.!]{1,60}?"
    r"\b(?:cards|gpus|accelerators|boards)\b"
    r"|how many (?:units|pieces)\b(?! per| of (?:electricity|power|energy|kwh))"
    # "what if we use lora instead, could we do it on fewer gpus?"
    r"|\b(?:on|with|using) fewer (?:gpus|cards|of them|nodes)\b|\bhow few (?:gpus|cards)\b"
    # "how many nodes of a100 80gb to full finetune a 70b": whole boards counted
    r"|\bhow many (?:\w+ )?nodes (?:of|with)\b"
    # "number of a100s needed to train a 7b in 2 weeks": the count asked without "how many"
    rf"|\bnumber of {_GPUS_COUNTED}\s(?:needed|required|necessary|to (?:train|pre-?train|serve"
    r"|run|host|fine-?tune|finish))\b"
    # "how many h100 80gb vs l40s would i need": the cards named before the verb
    r"|how many (?!(?:more |extra )?(?:hours?|days?|weeks?|months?|tokens?|images?|steps?|epochs?"
    r"|samples?|gb|tb|dollars?|users?|requests?|people|times?)\b)[^?.!]{1,40}?\b(?:do|would|will"
    rf"|should|must) (?:i|we|you) {_ADVERB}(?:need|use|rent|buy)\b"
    # "min h200 count for", "how many of L4 I need", "how many h100 we need"
    rf"|\bmin(?:imum)? {_GPUS_COUNTED}\s?count\b"
    rf"|how many (?:of )?(?:the )?{_GPUS_COUNTED}\s(?:do |would |will )?(?:i|we|you) {_ADVERB}"
    r"(?:need|use)"
    # "fewest h100s to", "min number of a100 80gb to serve", "smallest number of mi300x to run",
    # "how many 3090s for qlora": a count of named cards asked, with the job after it
    rf"|(?:fewest|smallest number of|lowest number of|min(?:imum)? (?:number|quantity|count) of"
    rf"|least number of)"
    rf"\s{_GPUS_COUNTED}(?:\s(?:to|for|needed|required|that)\b|\s?[?!]|$)"
    rf"|how many [a-z]*\d+(?![\d.]*b\b)\w*(?:\s(?:tis|supers|ultras|maxes|pros|xts|xtxs))?s?"
    rf"\s(?:\w+\s){{0,2}}?(?:to|for)\s(?!(?:the|a|an|one|each) (?:hour|day|month|year|week|sec))"
    # "lora fine tune llama-3.1-70b, how many A100 80GB", "mixtral in fp16 - how many rtx 6000
    # ada": the cards counted end the question, the job said before them
    r"|[,;:-]\s*how many (?!(?:gb|gigs?|tb|tps|tok\w*|t/s|fps|tops|tflops|watts?|w)\b)"
    r"(?:(?:rtx|nvidia|tesla|geforce|radeon|instinct|amd) )?[a-z]{0,4} ?\d{1,4}\w*"
    r"(?: (?:\d+ ?gb|pcie|sxm\d?|nvl|ada|ti|super|pro|xtx|blackwell|max-q))*s?\s*[?!.]*$"
)


# "what quant should i use", "which gguf quant fits best", "best quantization for my 3090"
_BEST_QUANT = re.compile(
    r"\b(?:what|which|best|highest|biggest|largest)\s(?:gguf\s)?(?:quant(?:i[sz]ation)?s?"
    r"|quant level|bpw|bit ?width)\b"
    r"(?!\s(?:is|are|does|do|means?|exactly)\b(?!\s(?:the )?(?:best|right|ideal|recommended)"
    # "what quant do you recommend", "which quant do i need": advice asked, not a definition
    r"|\s(?:you|i|we|people|folks) (?:\w+ )?(?:recommend|suggest|advise|need|use|pick|choose)))"
)


# a day's work: "5k images a day", "200 hours of audio per day"
DAYS_WORK = re.compile(
    r"\b(?:images?|pictures?|pics|renders?|generations?|photos?|audio|recordings?)"
    r"\s?(?:/\s?|per |a |an |each |every )day\b"
)


# a job said per day: "50k images/day", "300 hours of audio a day"
EACH_DAY = re.compile(r"\b(?:a|per|each|every)\s(?:single\s)?day\b|/\s?day\b|\bdaily\b")


def _target(low: str) -> str | None:
    if _BEST_QUANT.search(low):
        return "best_quant"
    if _MAX_CONTEXT.search(low):
        return "max_context"
    if _MAX_BATCH.search(low):
        return "max_batch"
    contents = (
        r"|how many (?:gpus|cards) (?:is|are) (?:that|this|it|in)\b"  # "how many gpus is that"
        # "how many 4090s to match one h100": a ratio of two cards, no job's count
        r"|how many [\w.-]+ (?:\w+ )?(?:to|would it take to|does it take to|do i need to|"
        r"equals?|match|make) (?:match|equal|replace|beat|keep up with|(?:one|an?|a single) \w+)\b"
        r"|how many (?:[\w.-]+ ){1,2}(?:gpu[- ])?hours?\b"  # "how many L40S hours is 20k?"
    )
    if _MIN_GPUS.search(low) and not rx.search(
        r"how many (?:tok|token|it/s|images?|seconds)" + contents, low
    ):
        return "min_gpus"
    return None


# hardware to own, in so many words: "which card should I buy", "$40k capex", "what do we order"
_BUYING = re.compile(
    rf"{_BUY_WORD}|\bcapex\b"
    r"|\bwhat (?:do|should|would) (?:i|we) order\b|\bcomprar\b|\bkaufen\b|\bacheter\b"
    r"|\bsh\w{1,4}d (?:i|we) by\b"
    # "building a server for our team", "putting together a workstation": hardware owned
    # "for my team of 10, on-prem: what hardware": owned machines, not rented ones
    r"|\bon[- ]?prem(?:ise)?s?\b[^?!]{0,40}\b(?:hardware|server|gpus?|cards?|what|which|buy)\b"
    r"|\b(?:hardware|server|gpus?|cards?)\b[^.?!]{0,40}\bon[- ]?prem(?:ise)?s?\b"
    r"|\b(?:build(?:ing)?|putting together|put together|spec(?:c?ing)? out|assembl\w+) "
    r"(?:a|an|our|my|the|a new|a dedicated|a small) (?:\w+ ){0,2}?(?:server|box|rig|machine"
    r"|workstation|pc|desktop|homelab|home lab|node)\b"
)


_RENTING = re.compile(r"\brent\w*|\blease\w*|\bcloud\b|\bper hour\b|/h(?:ou)?r\b")


# premises of one's own, said in so many words: "on-prem", "data can't leave premises",
# "air-gapped", "in-house only" (hardware there is bought; handlers read it too)
ON_PREMISES = r"\bon[- ]?prem\w*|\bpremises\b|\bair[- ]?gapped\b|\bin[- ]house\b"


def _location(low: str) -> str | None:
    if rx.search(
        r"\bhome\b|\bhomelab\b|\bhome ?lab\b|\blocal(?:ly)?\b"
        r"|\bmy (?:pc|desktop|laptop|rig|machine)\b|\b(?:my |our |an? )?(?:apartment|flat|bedroom"
        r"|dorm|studio apartment)\b",
        low,
    ):
        return "home"
    if rx.search(
        rf"{ON_PREMISES}|\bdata ?cent(?:er|re)\b|\bour (?:own )?servers?\b|\bcolo\b",
        low,
    ):
        return "datacenter"
    if affirmed(
        r"\bcloud\b|\brent\w*\b|\baws\b|\bgcp\b|\bazure\b|\brunpod\b|\blambda\b|\bvast\b", low
    ):  # ("skip the cloud, buy four 3060s": not there)
        return "cloud"
    if rx.search(r"\bright here\b|\bin (?:the|our|my) (?:back|office|shop|store|house)\b", low):
        return "home"  # "run it right here in the back office"
    return None


def _vendor(low: str, gpus: tuple[GpuRef, ...]) -> str | None:
    """A vendor the user limits the choice to ("cheapest new nvidia card"), with no GPU named."""
    if gpus:
        return None
    m = rx.search(r"\b(nvidia|amd|radeon|instinct|intel|apple)\b(?! (?:vs|or|and)\b)", low)
    names = {"nvidia": "NVIDIA", "amd": "AMD", "radeon": "AMD", "instinct": "AMD",
             "intel": "Intel", "apple": "Apple"}  # fmt: skip
    if m is None and rx.search(
        r"\bwhich (?:\w+ )?mac(?:book)?s?\b|\bwhat mac\b"
        # "what about going mac instead", "would a mac do it for that money"
        r"|\b(?:going|go|get(?:ting)?|buy(?:ing)?|a|an?y) mac(?:book|s)?\b(?! ?(?:address|os\b))",
        low,
    ):
        return "Apple"  # "which Mac should I buy": one of Apple's
    return names[m.group(1)] if m else None


def _segment(low: str) -> str | None:
    # a segment ruled out is not the one asked for: "no consumer SKUs", "not a gaming card"
    low = rx.sub(r"\b(?:no|not|non|never|excluding|except|without)[- ](?:an? )?(?:\w+ )?"
                 r"(?:consumer|gaming|geforce|laptop|workstation)\b", " ", low)  # fmt: skip
    for segment, pattern in (
        # "a mobile gpu", not "a mobile robot"
        (
            "laptop",
            # not a code notebook: "the unsloth notebook", "a colab notebook", "jupyter notebook"
            r"\blaptops?\b|(?<!colab )(?<!jupyter )(?<!kaggle )(?<!unsloth )(?<!ipython )"
            r"(?<!python )(?<!the )\bnotebook\b(?! (?:cells?|files?|servers?|instances?|kernels?))"
            r"|\bmobile (?:gpus?|cards?|chips?|versions?|parts?"
            r"|workstations?|variants?|rtx|geforce)\b",
        ),
        ("workstation", r"\bworkstation\b"),
        ("consumer", r"\bconsumer\b|\bgaming\b|\bgeforce\b"),
        ("datacenter", r"\bdata ?cent(?:er|re) (?:\w+ )?(?:gpus?|cards?|skus?|parts?)\b"),
    ):
        if rx.search(pattern, low):
            return segment
    return None


# ---------------------------------------------------------------- follow-ups

# intents whose follow-up, naming nothing, asks again about what the thread named
_SAME_ASK_INTENTS = ("rent_or_buy", "cost", "fit", "speed", "train_time")
_FOLLOW_UP = re.compile(
    # ("ah bummer. what about sd 1.5 then": a reaction, then the follow-up)
    r"^\W*(?:(?:thanks|thx|cool|great|nice|hmm|hm|ah|oh|aw|ugh|damn|darn|dang|bummer|shame|pity"
    r"|meh|welp|right|got it|i see|makes sense|fair enough|too bad|oh well|ok(?:ay)?)\W+){0,3}"
    r"(?:and|what about|how about|and what about|what if|same|now|ok(?:ay)?|then|also|but|so"
    r"|instead|with|on|in|using|if|say|suppose|assume|let'?s say|alternatively|otherwise"
    r"|or else|on the other hand|switch(?:ing)?|swap|change|try|go with"
    # "¿y con LoRA un 13B?", "und mit zwei?", "et avec 4 bits ?": "and", "with" in other languages
    r"|y|e|und|et|en|con|mit|avec|com)\b"
    # "sweet. what about the 70b one tho ... same card": the card, the model or the question
    # before, kept
    r"|\bsame (?:card|gpu|setup|machine|box|rig|hardware|question|config|laptop|pc|computer"
    r"|desktop|server|workstation|mac)\b"
    r"|\bsame (?:q|one|again)\s*[.?!]?\s*$"
    # a reaction to the answer before: "too slow. what would a cloud t4 take and cost"
    r"|^\W*(?:(?:that'?s|it'?s|way) )?too (?:slow|expensive|pricey|costly|long|much)\b"
    r"|\b(?:of them|them|it|that one|those|these|instead|the same"
    r"|that|this one|(?:for|with|on|in) this|the \d+ ?gb one|the other one|(?:of )?the two"
    r"|either one|each one|each (?:has|have|of the two)|(?:used|new|the|those|these) ones"
    r"|both(?: of them)?|each (?:offered |listed |quoted |proposed )?(?:models?|options?|cards?"
    r"|gpus?|offers?)"
    # "what does such a card cost these days?", "a card like that"
    r"|such an? (?:card|gpu|machine|box|board)|an? (?:card|gpu) like (?:that|this|it))\b",
    re.IGNORECASE,
)


# one card of a set said before: "with just one of them", "a single 3090", "only one"
_ONE_OF = re.compile(r"\b(?:one|single|a single|only one|just one|1)\b(?! (?:more|extra)\b)")


# a correction of the turn before: its values change, the question stays ("sorry, rental is
# $0.45/h, not 0.40", "oops i meant the 4090, not the 4080")
_CORRECTION = re.compile(
    r"^\W*(?:(?:no|nope|negative|wait|ah|oh|hmm|actually)\W+)?"
    r"(?:sorry|oops|ops|opa|whoops|my bad|correction|typo|err?m?|desculp\w*|perd[oó]n)\b"
    # "the RTX A6000, not the Ada. Same question.": the question kept, on what is said now
    r"|\bsame (?:question|q|again)\b"
    r"|\bi meant\b|\bi mean(?:t)?,"
    r"|\bmeant to (?:say|write)\b|^\W*(?:it|that|this|the \w+) should (?:have )?(?:said|been?)\b"
    # "Small correction sir, GPU is RTX A5000 ... Kindly recalculate.": the same question asked
    # again on what is said now
    r"|\b(?:small|quick|minor|one|a) correction\b|\bre-?calculate\b|\brecompute\b"
    r"|\bredo (?:it|that|the (?:math|maths|numbers|calc\w*|estimate))\b",
    re.IGNORECASE,
)


_JOB_INTENTS = ("recommend", "buy", "fit", "speed", "solve", "train_time", "rent_or_buy")


# every card said in the thread: "for all three cards", "the three of them", "all 3"
_ALL_OF_THEM = re.compile(
    r"\b(?:all|each of the) (?:three|four|five) (?:cards|gpus|options|of them)\b"
    r"|\bthe (?:three|four) of them\b|\ball (?:the|of the) cards\b"
)


# the cheapest of the options the thread named: "the bill on the cheapest one", "go with there"
_THE_CHEAPEST_ONE = re.compile(
    r"\b(?:the )?cheapest (?:one|option|provider|cloud|of (?:them|those|the \w+))\b"
    r"|\b(?:there|that (?:provider|cloud))\b"
)
# a follow-up that leaves the clouds named before: "and elsewhere?", "at the market median",
# "which provider is cheapest", "and to buy one?"
_OTHER_CLOUDS = re.compile(
    r"\b(?:elsewhere|other (?:providers|clouds|hosts|places)|any (?:cloud|provider|host)"
    r"|median|market|(?:which|what|whichever) (?:cloud|provider|host)s?|(?:cheapest|best) "
    r"(?:cloud|provider|host)s?|providers|clouds|buy\w*|bought|purchas\w*|own (?:one|it|them))\b"
)
# the cheaper of the cards the thread named: "the cheaper one, can it do qlora on a 70b?"
_THE_CHEAPER_CARD = re.compile(
    r"\bthe (?:cheaper|cheapest|less expensive|least expensive|more affordable) (?:one|card|gpu"
    r"|option)\b"
)


# a card set against the thread's one: "is it cheaper overall", "would it be faster"
_SET_AGAINST = re.compile(
    r"\b(?:is|would|will|does) (?:it|that|this|the \w+) (?:be |get |come out |end up )?"
    r"(?:any |much |a lot |overall )?(?:cheaper|faster|slower|dearer|pricier|more expensive"
    r"|better|worse|worth it)\b"
)


def _instance_of_counted(gpus: tuple[GpuRef, ...], linker: Linker) -> tuple[GpuRef, ...]:
    """ "64 H100s for 2 days on AWS p5": the instance names the variant of the cards counted,
    not another card; one ref, the count said and the instance's variant."""
    names = {g.name for g in linker.catalog.gpus.values()}
    for narrow in gpus:
        wide = next((g for g in gpus if g is not narrow and g.count and narrow.count is None
                     and len(narrow.ids) == 1 and narrow.ids[0] in g.ids
                     and len(g.ids) > 1), None)  # fmt: skip
        if wide is not None and narrow.text in names:  # the instance written as its card's name
            merged = replace(wide, ids=narrow.ids)
            return tuple(merged if g is wide else g for g in gpus if g is not narrow)
    return gpus


def _cheaper_card(prior: Query, catalog: Catalog) -> GpuRef | None:
    """The card of the thread's with the lowest price: to buy (the newest price of the condition
    said, else any) when the thread buys, else the median rental; None when one has no price."""
    buying = prior.buying or prior.intent == "buy"
    priced = []
    for ref in prior.gpus:
        if not ref.ids:
            return None
        gid = ref.ids[0]
        if buying:
            rows = catalog.purchases_for(gid, prior.condition) or catalog.purchases_for(gid)
            price = rows[0].usd if rows else None
        else:
            hourly = sorted(p.usd_per_gpu_hour for p in catalog.prices_for(gid))
            price = hourly[len(hourly) // 2] if hourly else None
        if price is None:
            return None
        priced.append((price, ref))
    return replace(min(priced, key=lambda pr: pr[0])[1], count=None)


# the card the answer before picked, pointed back at
_THAT_CARD = re.compile(
    r"\b(?:that|this|the same|your|the (?:recommended|suggested|picked|top|first)) (?:card|gpu"
    r"|pick|setup|machine|box|rig|recommendation)\b|\bthe pick\b"
    # "does that also handle flux dev?" after a pick: the card picked, for a new job
    # (not "what does that run per month?": a cost)
    r"|(?<!what )(?<!how much )\b(?:does|can|will|would|could) (?:that|it|this)(?: one)? "
    r"(?:also |even |still |then )?"
    r"(?:handle|run|fit|manage|cope with)\b"
    # "ok and if I rent it instead, how much total?": the card picked, rented
    r"|\b(?:rent|renting|rented|lease|leasing) (?:it|that|this|that one|this one)\b"
)
_NEW_PICK = re.compile(
    r"\b(?:which|what) (?:would|should|do) (?:you|i|we) (?:buy|get|pick|choose)\b"
)
# a follow-up that asks for a pick again ("which one is cheapest then?"), not about the last one
# the card an answer picked among those named: "on the cheapest one", "the winner", "your pick"
_THE_WINNER = re.compile(
    r"\bthe (?P<by>cheapest|fastest|quickest) one\b|\bthe winner\b|\byour pick\b"
    r"|\bthe one you (?:picked|chose|recommend\w*|suggest\w*)\b|\bthe (?:picked|recommended) one\b"
)
_WON_BY = {"cheapest": "cost", "fastest": "speed", "quickest": "speed"}
_PICK_AGAIN = re.compile(
    r"\b(?:which|what) (?:gpu|card|one|option|instance)s?\b"
    r"|\b(?:which|what) (?:would|should|do) (?:you|i|we) (?:buy|get|pick|choose|go for)\b"
    r"|\b(?:best|recommend\w*|cheapest"
    r"|fastest|alternatives?|instead|else|used|second[- ]hand|refurb\w*|budget)\b"
    r"|\bother (?:gpu|card|option)s?\b|\bif (?:i|we) (?:buy|rent|get|go|want)\b"
)


def _name_core(base: str) -> str:
    """A card's name without its maker, series and form words: "NVIDIA GeForce RTX 4080 Laptop
    GPU" and "4080" are both "4080" (not "4080S", the SUPER)."""
    words = rx.sub(r"\b(?:nvidia|geforce|rtx|laptop|mobile|notebook|gpu|desktop)\b", " ",
                   base.lower())  # fmt: skip
    return rx.sub(r"\s+", "", words)


def _as_before(ref: GpuRef, before: tuple[GpuRef, ...]) -> GpuRef:
    """A GPU named again without its variant ("the A100") as the thread named it ("A100
    80GB"): the earlier reference whose variants are among this one's."""
    if not ref.open_variant:
        # "the 4080 laptop has 12gb" then "... than the 4080 one": the laptop card said before,
        # not the desktop one its bare number links to
        kin = [b for b in before if b.ids and b.ids != ref.ids and b.base and ref.base
               and _name_core(b.base) == _name_core(ref.base)]  # fmt: skip
        plain = not rx.search(r"\b(?:desktop|laptop|mobile|notebook|max-?q)\b", ref.text.lower())
        return replace(ref, ids=kin[0].ids) if len(kin) == 1 and plain else ref
    same = [b for b in before if b.ids and set(b.ids) < set(ref.ids)]
    return replace(ref, ids=same[0].ids) if len(same) == 1 else ref


# a follow-up's own settings that remake the previous answer ("what if i buy used?", "in fp8?")
_SETTING_FIELDS = ("condition", "budget", "precision", "kv_cache", "context", "batch", "engine",
                   "hours", "num_gpus", "location", "memory_gb", "max_power_w", "framework",
                   "usd_per_kwh", "user_price_usd_per_hour")  # fmt: skip


# one of the cards just compared asked for: "which would you buy then", "which one should i get"
_WHICH_OF_THEM = re.compile(
    r"\bwhich (?:one |card |gpu |of (?:the|them|those|these)(?: two)? )?(?:would|should|do|'d)"
    r" (?:you|i|we|u) (?:buy|get|pick|choose|go (?:for|with)|take|recommend)\b"
    r"|\bwhich (?:one )?(?:is|'s) (?:the )?better (?:buy|pick|choice|deal)\b"
    # "which one is better for sdxl training loras?": the two said before, for that job
    r"|\bwhich (?:one|of (?:the|them|those|these)(?: two)?)(?: is|'s| would be| will be)?"
    r" (?:better|best|faster|quicker|stronger|the better (?:one|pick|card)) (?:for|at|with)\b"
)


# the use said before, again: "same pattern", "the same schedule as before"
_SAME_PATTERN = re.compile(r"\bsame (?:pattern|schedule|usage|use|hours|rota|routine|plan)\b")


def _sets_something(query: Query) -> bool:
    return any(getattr(query, key) not in (None, ()) for key in _SETTING_FIELDS) or bool(
        query.providers
    )


_ASKED_BEFORE = " (asked before: "
# a follow-up that asks only for another money: "and in rupees?", "in euro pls", "en euros?"
_MONEY_ONLY = re.compile(
    r"^\W*(?:(?:and|but|ok|okay|so|what about|how about|now|y|et)\s)*(?:in|into|en|em|auf)\s"
    r"(?:euros?|eur|€|pounds?|gbp|£|sterling|rupees?|inr|₹|yen|jpy|yuan|rmb|cny|won|krw"
    r"|swiss francs?|chf|reais|brl|roubles?|rubles?|rub|zlotys?|pln|kronor|kroner|sek|nok|dkk"
    r"|aud|cad|lira|pesos?|mxn)\b(?:\s(?:pls|please|then|instead|too|as well))*\W*$"
)
# a follow-up that opens by setting a card against the one before: "vs a new 4070 ti super?"
_VERSUS_OPENS = re.compile(
    r"^\W*(?:(?:and|but|ok|what about)\s)?(?:vs\.?|versus|or|against|compared? (?:to|with))\s"
)


def resolve(
    query: Query,
    previous: dict[str, Any] | None,
    catalog: Catalog,
    same_message: bool = False,
) -> Query:
    """Fill what a follow-up leaves out from the previous turn; a complete question stands alone."""
    if not previous:
        return query
    prior = Query.from_context(previous)
    families = {m.family for m in prior.models}
    if query.models and all(m.assumed and m.family in families for m in query.models):
        # "transcribe 1000 hours with whisper large v3" then "and with faster-whisper on a
        # 4090?": the engine's name assumed a model; the thread's own is the one meant
        dropped = {m.note for m in query.models if m.note}
        query = replace(query, models=(),
                        notes=tuple(n for n in query.notes if n not in dropped))  # fmt: skip
    short = len(query.text.split()) <= 14
    correction = bool(_CORRECTION.search(query.text))
    cue = bool(_FOLLOW_UP.search(query.text) or _FOLLOW_UP.search(query.read)) or correction
    # "what does a 4090 cost" then "is the 5090 faster?": the card said against the one before
    cue = cue or bool(len(query.gpus) == 1 and len(prior.gpus) == 1 and not query.models
                      and rx.search(_SAID_FASTER, query.low))  # fmt: skip
    names_nothing = not query.gpus and not query.models
    # "pretraining a 350M model on 20B tokens" then "how long on 8x a100?": the hardware for
    # the job the thread set up
    hardware_for_job = bool(query.gpus and not query.models and prior.models and not prior.gpus)
    # "i have 2x 3090" then "can i finetune llama 3.1 8b": the job for the hardware said before
    job_for_hardware = bool(query.models and not query.gpus and prior.gpus and not prior.models)
    # "budget about $2,500 for a local LLM box" then "Gemma 3 27B at Q4_K_M: which GPU?": the job
    # for the budget said before
    # ("i mostly want 13b models" after "best gpu under $500 for local LLMs?": the model the
    # budget's pick assumed is replaced by the one said)
    job_for_budget = bool(query.models and not query.gpus and prior.budget
                          and all(m.assumed for m in prior.models) and not query.budget
                          and (query.intent in ("recommend", "buy")
                               or (short and query.intent == "search")))  # fmt: skip
    # "run Llama 3.3 70B at 4-bit" then "Which Mac should I buy? ... 32k context": a job-shaped
    # question naming nothing, about the job the thread named
    about_it = (
        query.context
        or query.precision
        or rx.search(r"\b(?:it|that|this|them|run|load|host|serve)\b", query.text.lower())
    )  # "which Mac should I buy? ... 32k context to work": the job's settings, not a new job
    for_the_job = (names_nothing and bool(prior.models) and query.intent in _JOB_INTENTS
                   and bool(about_it) and not query.workload_given)  # fmt: skip
    # "does that qwen 2.5 7b q4 file fit?" then "what does the q4 bit actually mean? how big is
    # the proper one?": a concept asked of the model the thread named
    concept_asked = query.intent == "explain" or (query.intent == "search" and query.topic)
    for_the_job = for_the_job or bool(names_nothing and prior.models and concept_asked
                                      and (query.topic or query.context) and about_it)  # fmt: skip
    # "Llama 3.1 70B in FP8 on L40S cards" then "10 lawyers at once ... how many L40S?": the same
    # cards named again, for the job the thread set up
    same_cards = bool(
        query.gpus
        and not query.models
        and prior.models
        # ("4090 or 5090 for flux dev" then "5090 is 2800 and 4090 is 2000, which is better
        # value": the same cards weighed at prices for the same job)
        and (
            query.intent in _JOB_INTENTS
            or (query.intent == "compare" and bool(query.gpu_purchase_prices))
        )
        and all(any(set(p.ids) <= set(g.ids) for p in prior.gpus) for g in query.gpus)
    )  # ("8x h100" read as the SXM board, then "the h100 one": the same cards)
    all_of_them = bool(query.gpus and prior.gpus and _ALL_OF_THEM.search(query.text.lower()))
    # "would this card handle flux too?" after a pick: the card picked, for a new job
    the_card_picked = bool(previous.get("picked") and not query.gpus
                           and _THAT_CARD.search(query.text.lower()))  # fmt: skip
    # "buy a used 3090 for $700 or rent one at $0.22/h" then "at 25 hours a week, when does
    # buying break even?": the same kind of question, about what the thread named
    same_ask = bool(names_nothing and query.intent == prior.intent
                    and (prior.gpus or prior.models)
                    and query.intent in _SAME_ASK_INTENTS)  # fmt: skip
    # "turns out he's got a 4090 not a 3090. fits or nah?": the job before, on the card said now
    card_asked_for_job = bool(query.gpus and not query.models and prior.models
                              and _JOB_ON_CARD.search(query.text.lower()))  # fmt: skip
    # "right, they came back: $0.75/hr now, same pattern. total?": a new price for the sum before
    price_again = bool(names_nothing and prior.gpus and prior.intent in ("cost", "rent_or_buy")
                       and (query.user_price_usd_per_hour or query.purchase_usd))  # fmt: skip
    # "the cloud is $0.526/hr, 4.5 hrs a day" then "does a $4,200 server pay for itself within 3
    # years?": the rent and the use said before, weighed against the price said now
    rates_again = bool(names_nothing and query.intent == "rent_or_buy"
                       and (prior.user_price_usd_per_hour or prior.monthly_usd)
                       and not (query.user_price_usd_per_hour or query.monthly_usd))  # fmt: skip
    # "got one 4060 ti 16gb" then "how many do i need to run llama 3.3 70b?": of that card
    how_many_of_it = bool(
        not query.gpus
        and len(prior.gpus) == 1
        and prior.gpus[0].ids
        and query.target == "min_gpus"
        and not rx.search(r"\bwhich\b|\bwhat (?:gpu|card)", query.text.lower())
    )
    # "is a used 3090 for $700 worth it" then "vs a new 4070 ti super?": the card set against
    set_against = bool(query.gpus and prior.gpus and _VERSUS_OPENS.match(query.text.lower()))
    # "we serve llama 70b on 8x a100" then "we got quoted an 8x h100 node, same weights, same
    # tp": the job before, on the cards quoted now
    job_on_quoted = bool(query.gpus and not query.models and prior.models
                         and _SAME_JOB.search(query.text.lower()))  # fmt: skip
    # "roughly how much faster will per-user decode be? just want a ballpark": of the thread's
    faster_asked = names_nothing and bool(_HOW_MUCH_FASTER.search(query.low))
    # "choosing between a 4080 Super and a used 3090" then "which one is better for sdxl
    # loras?": the two cards said before, for the job named now
    which_of_them = bool(not query.gpus and len(prior.gpus) >= 2
                         and _WHICH_OF_THEM.search(query.text.lower()))  # fmt: skip
    if not (same_message or cue or (short and names_nothing) or hardware_for_job or which_of_them
            or job_for_hardware or job_for_budget or for_the_job or same_cards
            or all_of_them or the_card_picked or same_ask or card_asked_for_job
            or price_again or set_against or rates_again or how_many_of_it
            or job_on_quoted or faster_asked):  # fmt: skip
        return query
    updates: dict[str, Any] = {"follow_up": True}
    sibling = _sibling(query, prior, catalog)
    if sibling is not None:  # "and the 70b?": the same family at another size
        updates["models"] = (sibling,)
        # the notes of the models it replaces go with them (their figures are looked up only
        # for the models answered)
        dropped = {m.note for m in query.models if m.note}
        updates["notes"] = tuple(n for n in query.notes if n not in dropped)
    elif not query.models and prior.models and not _datasheet_only(query):
        # ("llama 3.1 8b q8" then "what about q4": the format said now, not the name's)
        updates["models"] = (
            tuple(replace(m, precision=None) for m in prior.models)
            if query.precision
            else prior.models
        )
    carried = updates.get("models", query.models)
    if (query.dataset_samples and not query.images and carried and carried[0].family == "diffusion"
            and query.workload in (None, "inference")):  # fmt: skip
        # "and if i need 5000 images by friday?" after an image model: images to generate
        updates |= {"images": query.dataset_samples, "dataset_samples": None}
    gpus = query.gpus
    variant = rx.search(
        r"\b(\d+)\s?(?:gb|g|gigs?)\b(?:\s(?:one|version|variant|model))?", query.text.lower()
    )
    if variant and query.ram_gb and any(a <= variant.start() < b for a, b in (
            r.span() for r in _RAM_SIZE.finditer(query.low))):  # fmt: skip
        variant = None  # "and if i have 32gb system ram?": the machine's RAM, no card's variant
    form = rx.search(
        r"\b(pcie|sxm\d?|nvl|laptop)\b(?:\s(?:one|version|variant))?"
        r"|\bthe (?!\w+est\b|same\b|other\b|first\b|last\b|second\b|one\b|single\b"
        # (a model's format is no variant of the card: "the q8_0 version of the same model")
        # (nor a model's size: "what about the 32b one")
        r"|q\d\w*|i?q\d|fp\d+|bf16|int\d|awq|gptq|gguf|exl2|mlx|\d+-?bit|\d+(?:\.\d+)?[bm]\b)(\w+) "
        r"(?:one|version|variant"
        r"|card)\b"  # "the cheapest one" is no variant
        # "a 4070 super" then "actually no its the ti super": the name's suffix corrected
        r"|\b(?:it'?s|its|i meant|meant|actually|no,?|sorry,?|mine'?s)\s(?:the |a |an )?"
        r"(?P<suffix>ti super|ti|super|xtx|xt)\b(?!\s?\d)",
        query.text.lower(),
    )
    if how_many_of_it:  # as many of the card said as the job needs
        gpus = (replace(prior.gpus[0], count=None),)
        updates["gpus"] = gpus
    elif not gpus and len(prior.gpus) == 1 and _A_SECOND_ONE.search(query.text.lower()):
        # "a 3060" then "what about if i add a second one": two of it
        gpus = (replace(prior.gpus[0], count=(prior.gpus[0].count or 1) + 1),)
        updates["gpus"] = gpus
    elif (
        (
            gpus
            and prior.gpus
            and rx.search(
                r"\b(?:that|it|this|those|them)\b.{0,30}\b(?:compare|"
                r"against|vs|versus|than|as (?:\w+ )?as)\b|\bcompared? (?:to|with)\b"
                # "would moving to an RTX 4000 Ada be a speed-up?": from the card said before
                r"|\b(?:moving|move|switch(?:ing)?|upgrad(?:e|ing)|going) (?:over |up )?to\b"
                r"|\bsidegrade\b"
                r"|\bworth (?:the |paying )?(?:extra|more|premium|difference|upgrade)\b"
                # "my 3090" then "selling a 3090 ti. is it actually any faster?"
                r"|\b(?:any|much|a lot|really|actually) (?:faster|quicker|better|slower)\b",
                query.text.lower(),
            )
        )
        # "a 4060" then "the guy says the b580 is faster for that": the one card said, against it
        or (
            len(gpus) == 1
            and len(prior.gpus) == 1
            and gpus[0].ids != prior.gpus[0].ids
            and bool(rx.search(_SAID_FASTER, query.text.lower()))
        )
        or _VERSUS_OPENS.match(query.text.lower())  # "vs a new 4070 ti super?", "or a 4080?"
        # "and if i add a 3090?": the card said beside the one before, in the same machine
        or bool(gpus and prior.gpus and _CARD_ADDED.search(query.text.lower()))
    ):  # "how does that compare to the h100"
        if (_CARD_ADDED.search(query.text.lower()) and len(prior.gpus) == len(gpus) == 1
                and gpus[0].ids == prior.gpus[0].ids):  # fmt: skip
            # "a 3090" then "and if i add another 3090?": two of them
            gpus = (
                replace(prior.gpus[0], count=(prior.gpus[0].count or 1) + (gpus[0].count or 1)),
            )
        else:
            gpus = tuple(_as_before(g, prior.gpus) for g in gpus)
            new = tuple(g for g in gpus if g.ids not in {p.ids for p in prior.gpus})
            # "and the 4090 laptop?? how much faster is it than the 4080 one": the card asked
            # about first, the one before as what it is set against
            than = rx.search(r"\bthan\b", query.text.lower())
            first = rx.search(r"\b(?:is|would|will) (?:it|that|this)\b", query.text.lower())
            gpus = ((*new, *prior.gpus) if new and than and first and first.start() < than.start()
                    else (*prior.gpus, *new))  # fmt: skip
        updates["gpus"] = gpus
    elif all_of_them:
        # "my card is a 4070" then "4080 super or 4070 ti super? vram for all three cards" (the
        # three counts the cards, no card's number)
        cards = len(prior.gpus) + len(gpus)
        gpus = tuple(replace(g, count=None) if g.count == cards else g for g in gpus)
        gpus = (*prior.gpus, *(g for g in gpus if g.ids not in {p.ids for p in prior.gpus}))
        updates["gpus"] = gpus
    setups = [p for p in prior.gpus if p.count]
    if setups and gpus and all(g.count is None for g in gpus) and not _ONE_OF.search(
            query.text.lower()):  # fmt: skip
        # "dual 3090 vs single 4090" then "what if i add nvlink on the 3090s": the pair said
        with_counts = tuple(
            replace(g, count=same[0].count)
            if len(same := [p for p in setups if p.ids == g.ids]) == 1
            else g
            for g in gpus
        )
        if with_counts != gpus:
            gpus = with_counts
            updates["gpus"] = gpus
    if setups and rx.search(r"\bthe (?:[\w-]+ ){1,3}(?:one|setup|option|config|box|node|cluster)"
                             r"\b", query.text.lower()):  # fmt: skip
        # "8x h100 vs 8x mi300x" then "how long ... with the h100 one": that setup, its count
        # (and the variant its count was read as)
        def setup(g: GpuRef) -> GpuRef:
            same = [p for p in setups if set(p.ids) <= set(g.ids) and p.base == g.base]
            return replace(same[0], text=g.text) if g.count is None and len(same) == 1 else g

        gpus = tuple(setup(g) for g in gpus)
        if gpus != query.gpus:
            updates["gpus"] = gpus
    picked = previous.get("picked")
    # "what if I only have 16 gigs?" after a pick: a card of that memory, theirs
    # (after a card: "what if i only had 10gb" is that card's 10 GB variant, _revariant)
    held = bool(query.memory_gb and not query.gpus and not prior.gpus
                and _MEMORY_HELD.search(query.text.lower()))  # fmt: skip
    # "and if I stretch to 8k?" after a budget: the same question at the new amount
    amount_said = (
        _BUDGET_MOVED.search(query.text.lower()) if prior.budget and not query.budget else None
    )
    named = {n for g in query.gpus for n in rx.findall(r"\d+", (g.text or "").lower())}
    if amount_said and amount_said.group(1) in named and not amount_said.group(2):
        amount_said = None  # "and what about a 3090?": a card, not $3,090
    if amount_said and prior.budget is not None:
        amount = float(amount_said.group(1).replace(",", "")) * (
            1000 if amount_said.group(2) else 1
        )
        updates["budget"] = replace(prior.budget, usd=amount)
    # "and on AWS?" after a pick for a job: the job ranked again on that cloud, not the pick
    new_cloud = bool(query.providers and names_nothing and not prior.gpus
                     and set(query.providers) != set(prior.providers))  # fmt: skip
    the_pick = False
    # "best gpu for sdxl under $600" then "can that card also do flux?": the pick, for a new job
    pointed = bool(_THAT_CARD.search(query.text.lower()))
    # "and if I quantize it to 4 bit?", "what if my budget is 3k" after a pick: the ranking again
    # with the new setting, not the card picked
    settings_only = (
        names_nothing
        and prior.intent in ("recommend", "buy")
        and bool(query.precision or query.budget or query.context or query.max_power_w
                 or query.vendor)  # "would getting a mac be smarter?": ranked again, Apple's
    )  # fmt: skip
    # "my budget is 3000 dollars for a workstation gpu" then "mostly stable diffusion and some
    # llm stuff": the use the pick is for, ranked again, not a question about the card picked
    use_said = bool(names_nothing and prior.intent in ("recommend", "buy")
                    and rx.match(r"\W*(?:mostly|mainly|primarily|largely|chiefly|it'?s (?:mostly )?"
                                 r"for|for|used for)\b", query.text.lower()))  # fmt: skip
    settings_only = settings_only or use_said
    if (
        picked
        and not held
        and not new_cloud
        and not amount_said
        and not settings_only
        and not gpus
        and not prior.gpus
        and (not query.models or pointed)
        # ("what if we only manage 25% MFU" after a pick for a run: the run on the pick)
        and (query.intent not in ("recommend", "buy") or pointed or query.mfu is not None)
        and not (_PICK_AGAIN.search(query.text.lower()) and not pointed)
    ):
        # "which GPU for SDXL LoRA?" then "how much would 2 hours of that cost?": the pick
        gpus = (GpuRef(picked["gpu_name"], (picked["gpu"],), picked["num_gpus"] or None),)
        gpus = tuple(replace(g, count=None) if g.count == 1 else g for g in gpus)
        updates["gpus"] = gpus
        the_pick = pointed  # "can that card also do flux?": a card named, its fit
        same_job = not query.models or {m.ids for m in query.models} <= {
            m.ids for m in prior.models
        }
        if picked.get("precision") and same_job and not (query.precision or prior.precision):
            updates["precision"] = picked["precision"]  # the pick's format: a 70b at home in q4
    elif (
        picked
        and picked.get("precision")
        # (a 16-bit pick is no format chosen for the cards said now: theirs decides)
        and picked["precision"] not in ("bf16", "fp16", "fp32")
        and gpus
        and prior.intent in ("recommend", "buy")
        and not (query.precision or prior.precision)
        and (not query.models or {m.ids for m in query.models} <= {m.ids for m in prior.models})
    ):  # "a 70b at home for 5 devs" then "what about with a pair of 3090s?": the pick's format
        updates["precision"] = picked["precision"]
    winner: dict[str, Any] = previous.get("winner") or {}
    won = _THE_WINNER.search(query.text.lower()) if winner and not gpus and prior.gpus else None
    # ("the cheapest one" is the pick only where the pick was by cost; "the fastest" by speed)
    if won and (not won.group("by") or _WON_BY[won.group("by")] == winner.get("by")):
        # "A100, H100 or L40S: cheapest overall?" then "how long on the cheapest one?": the
        # card the answer led with, of those named
        gpus = (GpuRef(winner["gpu_name"], (winner["gpu"],), winner.get("num_gpus")),)
        updates["gpus"] = gpus
    # "which would you buy if you had $5000" after cards were weighed: a new pick, not them
    asked_anew = bool(_NEW_PICK.search(query.text.lower()))
    earlier = Query.from_context({"intent": "", "gpus": previous.get("earlier_gpus") or []}).gpus
    if not gpus and prior.gpus and earlier and _BOTH_WEIGHED.search(query.text.lower()):
        # "a100 ... ok and on a 4090 instead? ... which one is cheaper then": the two setups
        gpus = (*earlier, *(g for g in prior.gpus if g.ids not in {e.ids for e in earlier}))
        updates["gpus"] = gpus
    if not gpus and prior.gpus and not held and not asked_anew:
        gpus = prior.gpus
        cheaper_said = _THE_CHEAPER_CARD.search(query.text.lower())
        if (variant or form) and not cheaper_said:  # "the 80GB one": another variant of it
            revariants = [(g, _revariant(g, catalog, variant, form)) for g in prior.gpus]
            # ("A100 40G x2 vs one A100 80G" then "go with the 80gb": that card once, as it was
            # said, not twice, nor at the other one's count)
            kept: dict[tuple[str, ...], GpuRef] = {}
            for before, after in revariants:
                if after.ids not in kept or before.ids == after.ids:
                    kept[after.ids] = after
            gpus = tuple(kept.values())
        elif len(prior.gpus) >= 2 and cheaper_said:
            # "4090 or a used a6000?" then "the cheaper one, can it do qlora on a 70b?"
            cheaper = _cheaper_card(prior, catalog)
            if cheaper is not None:
                gpus = (cheaper,)
                name = catalog.get_gpu(cheaper.ids[0]).name
                kind = "to buy" if prior.buying or prior.intent == "buy" else "to rent"
                read_as = (f"'The cheaper one' read as the {name}, the lower price {kind} on "
                           "record of the cards before.")  # fmt: skip
                updates["notes"] = (*query.notes, read_as)
        updates["gpus"] = gpus
    elif (
        len(prior.gpus) == 2
        and gpus
        and {g.ids for g in gpus} < {p.ids for p in prior.gpus}
        and rx.search(r"\bworth\b|\bover the\b|\bthan the\b", query.text.lower())
    ):  # "3090 vs 4090 for SDXL" then "is the 4090 worth it at 200 a day?": still the pair
        gpus = prior.gpus
        updates["gpus"] = gpus
    elif (
        prior.intent == "compare"
        and 2 <= len(prior.gpus) < MAX_COMPARED
        and len(gpus) == 1
        and gpus[0].ids not in {p.ids for p in prior.gpus}
        and _ONE_MORE.match(query.text.lower())
    ):  # "4090 vs 3090 for an SDXL LoRA" then "and the 4080 super 16gb?": a third in the set
        gpus = (*prior.gpus, gpus[0])
        updates["gpus"] = gpus
    elif (
        len(prior.gpus) == 1
        and len(gpus) == 1
        and gpus[0].ids != prior.gpus[0].ids
        and _SET_AGAINST.search(query.text.lower())
    ):  # "a job on an A100" then "what about an H100 instead, is it cheaper overall?": both
        gpus = (gpus[0], prior.gpus[0])
        updates["gpus"] = gpus
    elif gpus and prior.gpus and not (variant or form):
        # "A100 80GB vs H100 80GB ..." then "$1.29/hr for the A100": the variant said before
        narrowed = tuple(_as_before(g, prior.gpus) for g in gpus)
        if narrowed != gpus:
            moved = {g.ids[0]: n.ids[0] for g, n in zip(gpus, narrowed, strict=True) if g.ids}
            updates["gpu_prices"] = tuple((moved.get(i, i), v) for i, v in query.gpu_prices)
            updates["gpu_purchase_prices"] = tuple(
                (moved.get(i, i), v) for i, v in query.gpu_purchase_prices
            )
            gpus = narrowed
            updates["gpus"] = gpus
    swap = rx.search(r"\binstead\b|\b(?:what|how) about\b|\brather\b|\bswap\w*|\bswitch\w*"
                     r"|^\W*(?:and )?(?:with|on|using)\b", query.text.lower())  # fmt: skip
    counted = prior.gpus[0].count if len(prior.gpus) == 1 else None
    if (
        swap
        and counted
        and counted > 1
        and len(query.gpus) == 1
        and query.gpus[0].count is None
        and not query.num_gpus
        and query.gpus[0].ids != prior.gpus[0].ids
        and not rx.search(r"\b(?:an?|one|single|1)\b", query.text.lower())
        # a Mac or a laptop is one machine, however many cards it replaces
        and not any(
            catalog.get_gpu(i).vendor.startswith("Apple") or catalog.get_gpu(i).segment == "laptop"
            for i in query.gpus[0].ids
        )
    ):
        # "8x A100 80GB for a week" then "what about H100s instead?": as many of the other card
        gpus = tuple(replace(g, count=counted) for g in query.gpus)
        updates["gpus"] = gpus
    loose = query.num_gpus
    bare = rx.search(
        r"\b(?:had|have|with|use|get|on|take|need|needed|rent|try)\s+(\d{1,4})\b"
        r"(?!\s?(?:gb|g|k|b|x|%|/|h\b|hrs?\b|hours?|days?|weeks?|months?|years?|epochs?|steps?"
        r"|images?|samples?|tokens?|\$|usd|dollars?|bucks|€|eur))"
        r"(?!\s(?:concurrent|simultaneous|parallel|users?|requests?|people|sessions?|streams?"
        r"|sequences|chats?|clients?)\b)",  # "and with 64 concurrent requests?": no GPU count
        query.text.lower(),
    )
    if loose is None and bare and not query.gpus and prior.gpus:  # "and if i had 8?"
        loose = int(bare.group(1))
    # ("keep both in the same box (3090 ..., 3060 ...)": the two cards named, one of each)
    both_named = len({g.ids for g in query.gpus}) >= 2 and loose == len({g.ids for g in query.gpus})
    if (loose and gpus and not any(g.count for g in query.gpus)
            and not both_named):  # "and with 4 of them?"  # fmt: skip
        # "keep two of them running" after a p4d.24xlarge: two of the instances, 16 GPUs
        nodes = bool(prior.node_size) and all(g.count == prior.node_size for g in gpus) and bool(
            rx.search(r"\b(?:of them|of those)\b(?!\s(?:cards?|gpus?))|\b(?:instances?|nodes?"
                      r"|boxes|servers?|vms?)\b",
                      query.text.lower()))  # fmt: skip
        each = prior.node_size or 1 if nodes else 1
        updates["gpus"] = tuple(replace(g, count=loose * each) for g in gpus)
        updates["num_gpus"] = None
    back = rx.search(r"\b(?:that|this|the same) (?:run|job|training)\b", query.text.lower())
    # "and if i only run it 8h a day" after a fine-tune: running the job, not inference
    back = back or rx.search(r"\b(?:run|running|use|using) (?:it|them|that|this)\b",
                             query.text.lower())  # fmt: skip
    # "sorry, it's 4x H100 SXM. does it fit?" after a fine-tune: the fit of that job, as
    # "fit" alone names no job
    fit_alone = bool(
        rx.search(r"\bfits?\b", query.text.lower())
        and not rx.search(
            r"\bserv(?:e|es|ing)\b|\binferen\w*|\binfer\b|\bdeploy\w*|\bchat\w*"
            r"|\bhost(?:ing)? (?:it|them|the model)\b|\bgenerat\w*|\btranscri\w*|\bpredict\w*"
            r"|\bembed\w*|\bclassif\w*",
            query.text.lower(),
        )
    )
    said_here = query.workload_given and not ((back or fit_alone) and query.workload == "inference")
    # "the training time" after a fine-tune was said: that fine-tune, a kind of training
    narrower = (query.workload == "train" and (prior.workload or "").startswith("finetune")
                and not rx.search(r"scratch|pre-?train", query.text.lower()))  # fmt: skip
    if query.workload and prior.workload_given and (not said_here or narrower):
        updates["workload"] = prior.workload  # "and the compute bill for that run?": the job's
    elif (query.workload == "train" and not query.models and prior.models
          and all((m.family or "llm") == "llm" and m.ids for m in prior.models)
          and not rx.search(FROM_SCRATCH, query.text.lower())):  # fmt: skip
        # "can 2 3090s run llama 3.3 70b?" then "and for training?": a released LLM is trained
        # further by fine-tuning it, as "train llama on my data" is read
        updates["workload"] = "finetune"
    # "how long for 2000 steps on it" after a LoRA was said: the run's steps, not a sampler's
    trained = (prior.workload or "inference") != "inference"
    if query.steps is None and trained and (steps := _steps(query.text.lower(), trained=True)):
        updates["steps"] = steps
    for key in (
        ()
        if _datasheet_only(query)
        else (
            "workload",
            "precision",
            "engine",
            "framework",
            "interconnect",
            "kv_cache",
            "context",
            "batch",
            "hours",
            "use_hours_per_day",
            "output_tokens",
            "concurrency",
            "rps",  # "100 req/s ... how many L4s?" then "what if we used A10Gs": the same load
            "needed_tok_s",
            "resolution",
            "steps",
            "offload",
            "ram",
            "ram_gb",
            "ram_channels",
            "user_price_usd_per_hour",
            "tax_rate",  # "they charge 10% tax" then "make it 6 h100s": still taxed
            "usd_per_kwh",
            "draw_w",
            "other_w",
            "throughput_tok_s",
            "service_price",
            "monthly_usd",
            "seconds_per_item",
            "pace_whole",
            "train_tokens",
            "mfu",
            "epochs",
            "dataset_samples",
            "dataset_name",
            "images",
            "audio_hours",
            "budget",
            "condition",
            "location",
            "memory_gb",
            "max_power_w",
        )
    ):
        if getattr(query, key) is None and getattr(prior, key) is not None and key not in updates:
            updates[key] = getattr(prior, key)
    if query.segment is None and prior.segment and not query.gpus and not _datasheet_only(query):
        # "a workstation gpu for $3000" then "mostly stable diffusion": still a workstation card
        updates["segment"] = prior.segment
    if (
        "use_hours_per_day" in updates
        and not same_message
        and query.hours
        and query.hours >= 24 * 28
        and (_HORIZON.search(query.text.lower()) or _ONE_HORIZON.search(query.text.lower()))
    ):
        # "4.5 hrs a day" then "within 3 years?": the use over the horizon, not every hour of it
        updates["hours"] = updates["use_hours_per_day"] * query.hours / 24
    if "monthly_usd" in updates and prior.subscription:
        updates["subscription"] = True  # "a SaaS at $79 a month" then "buy a card instead?"
    if (
        "draw_w" in updates
        and query.gpus
        and {g.ids for g in query.gpus} != {g.ids for g in prior.gpus}
    ):
        del updates["draw_w"]  # "220 W" was the 4070 SUPER's: "and if I switch to a 4090?"
    if _SAME_PATTERN.search(query.text.lower()) and prior.hours and "hours" not in updates:
        updates["hours"] = prior.hours  # "$0.75/hr now, same pattern, over 30 days": its hours
    if prior.no_power and query.usd_per_kwh is None and not _datasheet_only(query):
        updates["no_power"] = True  # "ignore power" then "sorry, rental is $0.45/h": still left out
    same_cards = not query.gpus or {g.ids for g in query.gpus} == {g.ids for g in prior.gpus}
    if (
        query.purchase_usd is None
        and prior.purchase_usd
        and same_cards
        and not _datasheet_only(query)
    ):
        updates["purchase_usd"] = prior.purchase_usd  # "4090 at $1,800 vs renting" then a new rate
    if (
        not query.providers
        and prior.providers
        and (
            _THE_CHEAPEST_ONE.search(query.text.lower())
            or not _OTHER_CLOUDS.search(query.text.lower())
        )
    ):
        # "is it cheaper on runpod?" then "the bill on the cheapest one": the clouds named; "the
        # cost on lambda" then "and on 8 of those gpus?": still Lambda's prices
        updates["providers"] = tuple(prior.providers)
    if prior.per_day and not query.per_day and not (query.images or query.audio_hours):
        updates["per_day"] = True  # "500 hours of audio a day" then "and the monthly cost?"
    if query.concurrency and query.batch is None:  # "single stream?" then "and with 64
        updates.pop("batch", None)  # concurrent requests?": the 64 at once, not one
    if query.batch and query.concurrency is None:
        updates.pop("concurrency", None)
    said_before = (prior.english or prior.text or "").lower()
    paced = EPOCH_PACE_SAID.search(said_before)
    more_epochs = bool(paced and prior.hours and query.epochs
                       and query.epochs != (prior.epochs or 1))  # fmt: skip
    if more_epochs:  # "one epoch takes 3 min 40 s" then "and for 150 epochs?": times them
        updates["hours"] = (prior.hours or 0.0) / (prior.epochs or 1) * (query.epochs or 1)
        updates["epoch_paced"] = True
    daily = query.use_hours_per_day
    job_keys = ("dataset_samples", "train_tokens", "images", "audio_hours")
    if (daily and rx.search(r"\b(?:per|a|each) month\b|\bmonthly\b", query.text.lower())
            and not any(getattr(query, key) for key in job_keys)):  # fmt: skip
        # "20k samples" then "ok and per month if i run it 8h a day?": the card's month of use
        # at those hours, not the job again
        updates.update({key: None for key in job_keys})
    if daily and prior.hours and prior.hours >= 48 and (query.hours is None or query.hours <= 24):
        # "for a week" then "and if i only run it 8h a day" ("10h a day on weekdays": 10 said,
        # 7.1 a day across the week): the days said, at that many hours
        updates["hours"] = prior.hours / 24 * daily
    if prior.use_hours_per_day and _AROUND_THE_CLOCK.search(query.text.lower()):
        # "8 hours a day" then "what if usage goes up to 24/7": every hour, not the 8 said
        updates["use_hours_per_day"] = 24.0
    if prior.buying and not query.buying and not _RENTING.search(query.text.lower()):
        updates["buying"] = True  # "and with 32k context?" after "which card should I buy"
    if (
        query.currency == "$"
        and prior.currency != "$"
        and not rx.search(r"\$|usd|dollar", query.text.lower())
    ):
        updates["currency"] = prior.currency  # "and for 300 hours?" after "€2.50/h"
    if prior.gpu_prices and not query.gpu_prices and not query.gpus:  # "and for inference?"
        updates["gpu_prices"] = prior.gpu_prices
    if "draw_w" in updates:  # the draw said before, per GPU or for all of them
        updates["draw_each"] = prior.draw_each
    if "user_price_usd_per_hour" in updates:  # a p4de's $40.96 an hour is the 8 GPUs', still
        updates["price_per_node"] = prior.price_per_node
        updates["node_size"] = prior.node_size
    elif (
        query.user_price_usd_per_hour is not None
        and not query.gpus
        and prior.node_size
        and not query.price_per_node
        and not _PER_GPU_PRICE.search(query.text.lower())
    ):
        # "a g6e.12xlarge" then "on-demand $10.49/hr, 24/7 for 30 days": the instance's price
        updates["price_per_node"] = True
        updates["node_size"] = prior.node_size
    if prior.train_options:  # "and with 8-bit adam?": the options said before still hold
        said = dict(query.train_options)
        updates["train_options"] = tuple({**dict(prior.train_options), **said}.items())
    workload = updates.get("workload", query.workload)  # "the training" kept as the fine-tune
    if workload and workload != prior.workload and query.precision is None:
        # "what about with qlora instead": the 4-bit base comes with the method, not from before
        updates["precision"] = "nf4" if workload == "finetune-qlora" else None
    if "workload" in updates:
        updates["workload_given"] = prior.workload_given
    concept = (prior.topic if prior.intent in ("explain", "search") and not query.topic
               and not query.gpus and prior.topic != "quant_formats" else None)  # fmt: skip
    if concept:  # "what is the KV cache?" then "and how much is it for llama 3.1 8b at 32k?"
        updates["topic"] = concept
    merged = replace(query, **updates)
    if (merged.memory_gb is not None and query.memory_gb is None and not query.gpus
            and _CARD_SOUGHT.search(query.low) and rx.search(_BUY_WORD, query.low)):  # fmt: skip
        # "... on the card with 12 GB" then "which card should I buy that can carry it?": the
        # card sought replaces the one before, its memory no limit
        merged = replace(merged, memory_gb=None)
    speech = bool(merged.models) and merged.models[0].family == "speech"
    if speech and query.seconds_per_item is None and (pace := _REALTIME.search(query.low)):
        # "a 2,400-hour corpus with whisper large-v3" then "on one A100 it runs at about 90x
        # real time ... how long on four?": the pace is the thread's speech model's
        factor = _number(pace.group(1) or pace.group(2))
        if factor > 0:
            merged = replace(merged, seconds_per_item=3600.0 / factor)
    if speech and query.hours and not query.audio_hours and _HOURS_TAKE.search(query.low):
        # "whisper on a 4090 ..." then "how long would 10,000 hours take on 4 of them": hours of
        # audio, the job, not hours of renting
        merged = replace(merged, audio_hours=query.hours, hours=None)
    more = rx.search(r"(\d+(?:\.\d+)?)\s?(?:hours?|hrs?|h)\b\s?(?:a|per|each|/)\s?day\b",
                     query.text.lower())  # fmt: skip
    if more and names_nothing and prior.audio_hours and not prior.hours:
        # "10 hours of audio a day" then "what if we go up to 50 hours a day?": more audio
        merged = replace(merged, audio_hours=float(more.group(1)), hours=None,
                         use_hours_per_day=None)  # fmt: skip
    from advisor.agent.intents import detect_intent, keeps_intent

    intent = detect_intent(merged, merged.text.lower())
    corrected = correction and prior.intent not in ("greeting", "out_of_scope", "invalid", "search")
    if corrected and query.target == "min_gpus" and intent == "solve":
        corrected = False  # "sorry, i meant the 40gb one, how many would i need": asked anew
    # "what about the h100 80gb one, would one be enough" after a pick for a job: that card for
    # the job, not the ranking again
    card_for_the_job = (prior.intent == "recommend" and bool(query.gpus) and not query.models
                        and bool(merged.models)
                        and intent in ("fit", "spec", "search"))  # fmt: skip
    card_for_the_job = card_for_the_job or (the_pick and intent != "speed")
    if query.mfu is not None and prior.intent == "recommend" and merged.gpus and names_nothing:
        the_pick = card_for_the_job = True  # the pick's run at the MFU said
    # "and with 4 of them?" after a pick for a sized job: the job on that many of the pick
    more_of_the_pick = (prior.intent == "recommend" and names_nothing and bool(merged.gpus)
                        and bool(merged.models) and bool(query.num_gpus))  # fmt: skip
    sized = merged.dataset_samples or merged.train_tokens or merged.images or merged.audio_hours
    timed = bool((previous.get("picked") or {}).get("timed"))
    if card_for_the_job or more_of_the_pick:
        # "what gpu and how long?" then "and on a 4090?": the job's time on it, asked before
        intent = "train_time" if (more_of_the_pick or timed) and sized else "fit"
        if the_pick and rx.search(r"\bhow much\b|\bcosts?\b|\bprice\b|\btotal\b|\bbill\b",
                                  query.read.lower()):  # fmt: skip
            intent = "cost"  # "ok and if I rent it instead, how much total?": the job's bill
    elif corrected or (
        keeps_intent(intent, prior.intent, merged, names_nothing)
        # "memory and bandwidth vs the H100 NVL?" after a price: the datasheet figures asked
        and not (query.fields and intent in ("spec", "compare") and prior.intent != intent
                 and prior.intent in ("cost", "buy", "rent_or_buy"))
    ):  # fmt: skip
        intent = prior.intent
    elif intent == "out_of_scope" and names_nothing and _sets_something(query):
        intent = prior.intent  # "what if i buy used?" after a pick: the pick, bought used
    elif concept and intent in ("search", "spec", "explain", "fit"):
        intent = "explain"  # the concept asked before, for the model named now
    meaning = rx.search(r"\bmean(?:s|ing)?\b|\bexplain\b|\bstand for\b|\bwhy\b", query.low)
    if query.intent in ("explain", "search") and query.topic and names_nothing and meaning:
        intent = "explain"  # "fits?" then "what does the q4 bit actually mean?": the concept
    if (len({g.ids for g in merged.gpus}) == 2 and intent in ("fit", "speed", "search")
            and SWAP_TO.search(query.low)
            and rx.search(r"\bworth\b|\bfaster\b|\bquicker\b|\bbetter\b", query.low)):  # fmt: skip
        intent = "compare"  # "swap the 3060 for a 4060 ti 8gb: worth it?": the two weighed
    if (len({g.ids for g in merged.gpus}) == 2 and intent in ("fit", "speed", "search", "spec",
                                                              "buy", "cost")
            and (_HOW_MUCH_FASTER.search(query.low) or rx.search(_SAID_FASTER, query.low))
            ):  # fmt: skip
        # "how much faster would the 4090 even be for that same qwen?" after "qwen on my 3090":
        # the two cards of the thread weighed for the job
        intent = "compare"
    if more_epochs and intent in ("fit", "speed", "search", "spec"):
        intent = "train_time"  # the run's time at the epoch's pace said before
    if (names_nothing and prior.intent == "cost" and merged.gpus
            and rx.search(r"\b(?:if|what if) (?:i|we) (?:buy|bought|purchase)\b|\bbuy(?:ing)? "
                          r"(?:it |one |them )?instead\b", query.text.lower())):  # fmt: skip
        intent = "rent_or_buy"  # "how much would that cost per month" then "and if i buy instead"
    psu = rx.search(r"\bpsu\b|\bpower suppl(?:y|ies)\b", query.text.lower())
    if psu and merged.gpus and not rx.search(r"\belectric\w*|\bkwh\b|\bbill\b",
                                             query.text.lower()):  # fmt: skip
        intent = "spec"  # "... 24/7 at $0.30/kWh? and what PSU for that rig": the supply's size
    elif query.fields and names_nothing and merged.gpus and intent in ("buy", "out_of_scope"):
        # "M2 Ultra or two 4090s, budget 7k" then "which one would use less power?": the figure
        # asked, of the cards before
        several = len(merged.gpus) >= 2 or any((g.count or 1) > 1 for g in merged.gpus)
        intent = "compare" if several else "spec"
    if CHEAPER.search(query.text.lower()) and names_nothing and (merged.models or merged.gpus):
        # "cheaper option?": the same job ranked by price (or the same card's cheaper offers)
        intent = "recommend" if merged.models else "cost"
    if (
        names_nothing
        and merged.models
        and intent in ("buy", "fit", "cost")
        and _PACE_ASKED.search(query.text.lower())
    ):
        intent = "speed"  # "and what speed would i get?" after a card for a model: its speed
    bought = prior.buying or prior.purchase_usd or prior.intent in ("buy", "rent_or_buy")
    written = query.text.lower()
    out = rx.search(r"\brent(?:ing)? (?:it|them|\w+) out\b", written)  # renting theirs to others
    if bought and names_nothing and merged.gpus and _RENT_INSTEAD.search(written) and not out:
        intent = "rent_or_buy"  # "what about renting instead?" after buying cards: the two set
    if (prior.intent == "recommend" and merged.per_day and names_nothing and not pointed
            and intent in ("cost", "fit", "speed")):  # fmt: skip
        # "500 hours of audio a day: what gpus?" then "and the monthly cost on aws": the cards
        # that keep up with the day's work, ranked again (on that cloud), not the pick's one job
        intent = "recommend"
        # ("the monthly cost": a month is the bill's period, no deadline for the day's work)
        merged = replace(merged, gpus=prior.gpus,
                         hours=None if merged.hours in PERIOD_HOURS else merged.hours)  # fmt: skip
    earlier_cards = Query.from_context(
        {"intent": "", "gpus": previous.get("earlier_gpus") or []}
    ).gpus
    weighed = (
        *earlier_cards,
        *(g for g in prior.gpus if g.ids not in {e.ids for e in earlier_cards}),
    )
    if (names_nothing and len(weighed) >= 2 and merged.models and _HOW_MUCH_FASTER.search(written)
            and intent not in ("recommend", "buy")):  # fmt: skip
        # "8x a100 for llama 70b", "quoted an 8x h100 node, same weights", then "how much faster
        # will decode be?": the cards of the thread weighed for the job
        merged = replace(merged, gpus=weighed)
        intent = "compare"
    # ("which one is better for sdxl loras?": a model named for the job, no card of its own)
    if ((names_nothing or not query.gpus) and len(weighed) >= 2 and _WHICH_OF_THEM.search(written)
            and intent in ("recommend", "buy", "compare")):  # fmt: skip
        # "ok which would you buy then, budget is $1200" after two cards set side by side (and
        # perhaps one of them asked about since): one of those, bought when buying is said
        merged = replace(merged, gpus=weighed)
        budget = merged.budget
        intent = "buy" if merged.buying or (budget and budget.kind == "buy") else "compare"
    if (
        merged.location == "home"
        and merged.precision == "nf4"
        and merged.engine is None
        and (merged.workload in (None, "inference") and not _BNB_SAID.search(query.text.lower()))
    ):  # "and if I quantize it to 4 bit?" of a model run at home: a 4-bit GGUF
        merged = replace(merged, precision="q4_k_m")
    if (
        (new_cloud or amount_said or settings_only)
        and merged.models
        and prior.intent in ("recommend", "cost", "buy")
    ):
        intent = prior.intent  # the same question, on the cloud said
    if held and merged.models and intent in ("recommend", "buy", "spec"):
        intent = "fit"  # the job on the memory they have
    if not query.fields and prior.fields and intent in ("spec", "compare") and not query.models:
        merged = replace(merged, fields=prior.fields)  # "how does that compare to a 4090"
    asked = str(previous.get("asked") or "")
    if intent == prior.intent == "cost" and short and asked and len(query.text.split()) <= 12:
        # "per million tokens at full load on an L40S" then "and on an h100?": the same money
        # asked, the ask's words kept beside the follow-up's own
        merged = replace(merged, english=f"{merged.read}{_ASKED_BEFORE}{asked})")
    if intent == "solve" == prior.intent and not query.target and prior.target:
        # "what quant do i need?" then "what about 2 of those cards": the same limit, solved again
        merged = replace(merged, target=prior.target)
    if not query.gpus and len(merged.gpus) == 1 and _ONE_OF_THE_MACHINE.search(query.low):
        # "we have a p5e.48xlarge" then "on a single GPU of that instance, ...": one of its cards
        merged = replace(merged, gpus=(replace(merged.gpus[0], count=None),))
    return replace(merged, intent=intent)


# one card of the machine said before: "on a single GPU of that instance", "one of its GPUs"
_ONE_OF_THE_MACHINE = re.compile(
    r"\b(?:one|a single|1|a|just one) (?:gpu|card) (?:of|in|on|from) (?:that|the|this|our|its|each)"
    r" (?:instance|node|box|machine|server|vm|board)\b|\bone of (?:its|the (?:instance|node|box|"
    r"machine|server)'?s?) (?:gpus|cards)\b"
)


# a new amount for the budget said before: "and if I stretch to 8k?", "what about $3,000?"
_BUDGET_MOVED = re.compile(
    r"\b(?:stretch\w*|go(?:ing)? up|rais\w*|increas\w*|bump\w*|push\w*|extend\w*|up to|what about"
    r"|how about|with|had|double\w*)\b[^.?!]{0,15}?\$?\s?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(k)?"
    r"(?:\s?(?:usd|dollars|bucks|\$|€|eur\w*))?\s*(?:\?|$)"
)


# memory the user has, not a floor for a card to get: "i only have 16 gigs", "with my 12gb"
_MEMORY_HELD = re.compile(
    r"\b(?:only )?(?:have|had|got|own|stuck with|limited to)\b[^.?!]{0,20}?\d+\s?(?:gb|gigs?|g)\b"
    r"|\bmy \d+\s?(?:gb|gigs?|g)\b|\bonly \d+\s?(?:gb|gigs?|g)\b"
)


# hours as the work whose time is asked: "how long would 10,000 hours take", "how long for 300h"
_HOURS_TAKE = re.compile(
    r"\bhow long (?:would|will|does|do|to|for)\b[^.?!]{0,30}\d[\d,.]*\s?k?\s?(?:hours?|hrs?|h)\b"
)


# a pace asked in a follow-up: "and what speed would i get, tokens per sec?", "how fast?"
_PACE_ASKED = re.compile(
    r"\bwhat (?:speed|tok(?:en)?s?/s|throughput)\b|\bhow fast\b|\bhow many (?:tok(?:en)?s|it/s|"
    r"images?) (?:per|a|/) ?s(?:ec\w*)?\b|\btok(?:en)?s? per sec\w*\?|\bspeed\?"
)


# renting asked in place of the buying said before: "what about renting instead?"
_RENT_INSTEAD = re.compile(
    r"\b(?:rent|renting|rental|cloud)\b[^.?!]{0,20}\binstead\b|\bwhat about (?:just )?(?:renting"
    r"|the cloud|cloud gpus?)\b|\bor (?:just )?rent(?:ing)?\b|\bcheaper to rent\b"
)


def _sibling(query: Query, prior: Query, catalog: Catalog) -> ModelRef | None:
    """A size alone after a named model ("and the 70b?", "what about 8x22b") is that model's
    family at the new size, when the catalog has it."""
    if not prior.models or not prior.models[0].resolved:
        return None
    linker = linker_for(catalog)
    if not query.models and prior.models[0].family == "speech":
        # "and with large-v3?" after Whisper medium: a Whisper size alone
        said = [m for m in linker.find_models(f"whisper {query.text}") if m.ids]
        if said and said[0].ids != prior.models[0].ids:
            return replace(said[0], text=f"Whisper {said[0].text}")
    if not query.models:  # "ok and the turbo model?" after Whisper large-v3: its turbo
        old = prior.models[0]
        for word in rx.findall(r"\b[a-z][a-z0-9.]{2,}\b", query.text.lower()):
            if word in _PLAIN_WORDS:
                continue
            named = [m for m in linker.find_models(f"{old.text} {word}")
                     if m.ids and m.ids != old.ids and word in m.text.lower()]  # fmt: skip
            if named:
                return replace(named[0], text=catalog_name(catalog, named[0]))
    alone = [m for m in query.models if not m.ids and m.size_b]
    written = rx.search(r"\b(\d+x)?(\d+(?:\.\d+)?)\s?([bm])\b", query.text.lower())
    if (query.models and not alone) or not written:
        return None
    old = prior.models[0]
    from advisor.agent.linker import model_key

    prefix = model_key(_key_of(old, linker))
    token = "".join(g for g in written.groups()[:2] if g) + written.group(3)
    exact = linker.model_keys.get(prefix + token)
    found = exact[0] if exact else None
    if found is None:
        size = float(written.group(2)) / (1000 if written.group(3) == "m" else 1)
        found = linker.by_size(prefix, size) if prefix else None
    if found is None:
        return None
    return ModelRef(written.group(0), (found[1],), found[0], None)


# words of a follow-up that name no variant of a model ("and the turbo model?": "turbo" does)
_PLAIN_WORDS = frozenset(
    {
        "and",
        "the",
        "what",
        "about",
        "how",
        "with",
        "for",
        "its",
        "that",
        "this",
        "one",
        "model",
        "version",
        "variant",
        "instead",
        "then",
        "would",
        "could",
        "should",
        "does",
        "will",
        "can",
        "run",
        "use",
        "using",
        "try",
        "same",
        "other",
        "another",
        "but",
        "also",
        "just",
        "fast",
        "faster",
        "slower",
        "speed",
        "much",
        "many",
        "more",
        "less",
        "cost",
        "price",
        "cheaper",
        "time",
        "long",
    }
)


def catalog_name(catalog: Catalog, model: ModelRef) -> str:
    """The catalog's name of a linked model (its text when the catalog has no entry by that id)."""
    try:
        return catalog.get_model(model.ids[0]).name
    except Exception:
        return model.text


def _key_of(model: ModelRef, linker: Any) -> str:
    """The key of a model's name less its size: "Llama-3.1-8B" -> "llama3.1"."""
    from advisor.agent.linker import model_name_of

    name = model_name_of(linker, model)
    return rx.sub(r"[-_\s]?\d+(?:\.\d+)?(?:x\d+)?[bm](?=$|[-_\s])", "", name.lower())


# a message part that only names a card: "and the 4090 laptop??", "what about the a6000?"
_CARD_ONLY = re.compile(
    r"\W*(?:ok(?:ay)?,? )?(?:and|what about|how about)\b(?: (?:the|a|an))? [\w .-]{1,30}\?*\s*"
)
# one more of the card before, no card named: "if i add a second one", "with another"
_A_SECOND_ONE = re.compile(
    r"\b(?:add|adding|added|get|getting|buy|buying|with|plus|throw in)\b[^.?!]{0,15}?"
    r"\b(?:a second|another|one more|a 2nd)\b(?!\s(?:hand|opinion|thought|question|model|llm))"
)
# the slot a second card goes in: "in the second slot", "into the bottom x16 slot"
SECOND_SLOT = (
    r"\b(?:in|into) (?:the )?(?:second|other|2nd|spare|free|empty|bottom|next)"
    r" (?:pcie |x16 )?slot\b"
)
_CARD_ADDED = re.compile(
    r"\b(?:if i |if we |i |we )?add(?:ed|ing)? (?:an? |another |my |one )|\balongside\b"
    r"|\bplus (?:an? |my )|\bpair(?:ed)? (?:it )?with\b|\bsecond card\b"
    # "what if i throw my old 3060 in the second slot", "stick a 3060 in next to it"
    r"|\b(?:throw|put|stick|slap|drop|pop|plug|shove|slot)(?: in)? (?:in )?(?:my |our |an? |the |"
    r"that |this )?(?:old |spare |extra )?[\w -]{0,20}?" + SECOND_SLOT + r"|\bnext to it\b"
)


def _revariant(gpu: GpuRef, catalog: Catalog, variant: Any, form: Any) -> GpuRef:
    """The same GPU name with a new variant constraint: 'the 80GB one', 'the PCIe one', 'the Ada
    one' (after "RTX A6000", the RTX 6000 Ada: the name's number with the new word)."""
    linker = linker_for(catalog)
    base = gpu.base or gpu.text
    extra = ""
    if variant:  # (the size said before gives way: "3080 12GB", then "only 10gb")
        base = rx.sub(r"\s?\d+\s?gb\b", "", base, flags=re.I).strip() or base
        extra += f" {variant.group(1)}GB"
    suffix = form.group("suffix") if form else None
    if suffix and (core := rx.search(r"\d{3,4}", base)):  # "4070S" said as "the ti super"
        base = core.group(0)
    if form:
        extra += f" {form.group(1) or form.group(2) or suffix}"
    number = rx.sub(r"^[A-Za-z]+(?=\d)", "", base)
    for words in dict.fromkeys([base + extra, number + extra]):
        found = linker.find_gpus(words)
        if found and found[0].ids and found[0].ids != gpu.ids:
            return replace(found[0], count=gpu.count)
        if found and found[0].note and words == base + extra:
            size = float(variant.group(1)) if variant else None
            other = _other_card_of_memory(gpu, catalog, size) if size else None
            return other or replace(found[0], count=gpu.count)
    return gpu


def _other_card_of_memory(gpu: GpuRef, catalog: Catalog, size: float) -> GpuRef | None:
    """ "is an H100 enough?" then "and the 141gb one?": no H100 has 141 GB, but the H200 of
    the same maker and class does: that card, said as read (None when no or many cards do)."""
    known = [catalog.gpus[i] for i in gpu.ids if i in catalog.gpus]
    if not known:
        return None
    sized = [g for g in catalog.gpus.values() if abs(g.memory_gb - size) <= 0.02 * size
             and any(g.vendor == k.vendor for k in known)]  # fmt: skip
    # the same class first (an H100's 141 GB: the H200s); then, for a desk card, the desk cards
    # of its generation (a 4090's 48 GB: the RTX 6000 Ada, not the L40S); then its generation
    desk = all(k.segment != "datacenter" for k in known)
    tiers = (
        [g for g in sized if any(g.segment == k.segment for k in known)],
        [g for g in sized if any(g.architecture == k.architecture for k in known)
         and (g.segment != "datacenter" or not desk)],
        [g for g in sized if any(g.architecture == k.architecture for k in known)],
    )  # fmt: skip
    same = next((tier for tier in tiers if 0 < len(tier) <= 3), [])
    if not same:
        return None
    names = " or ".join(g.name for g in same)
    note = f"'The {size:g}GB one' read as the {names}: no {gpu.base or gpu.text} has {size:g} GB."
    return GpuRef(f"the {size:g}GB one", tuple(g.id for g in same), gpu.count, None, None,
                  same[0].name, note=note)  # fmt: skip
