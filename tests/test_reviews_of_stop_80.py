"""Stop 80, the kinds the spent blind sets (natural fresh35, advice_fresh36) showed: "24/7" and a
Singapore dollar in a follow-up; a bill's "cents a unit"; "wasting my time?"; a code notebook; the
job kept on cards quoted with "same weights", then "how much faster?" of the thread's cards, and
tensor parallelism over part of a box; a GGUF whose average bits are stated, and i-quants; the
sentence-transformers library; a model run half in system RAM asked whether it fits; the card
recalled from before; a number before a line break; a decode pace claimed and judged against
the bandwidth's ceiling; LoRA ruled out; power supplies named by model; a model fine-tuned before
it is run; a frame rate set aside; two different cards as one pool; PCIe's figure where a card
has no NVLink; the asker's own expectation checked; configuration and peripherals asked for; the
advisor itself asked about; "such a card"; which of two cards has a datasheet feature; Basque
endings and the ariary; one card in a narrow slot; "FP16 throughput" asked."""

from __future__ import annotations

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.evaluation.understanding import _same_format
from tests.asking import ask_grounded, head, thread_of


def _thread(advisor: Advisor, *turns: str) -> str:
    return thread_of(advisor, *turns)[-1]


def test_round_the_clock_and_singapore_dollars_in_a_follow_up(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "our L40S rents for S$2.10 an hour",
                   "if it stays on 24/7 for 30 days, what's that in SGD?")  # fmt: skip
    assert "SGD 1,512" in head(text) and "x 24" not in head(text), head(text)


def test_optimizer_sgd_is_no_currency(catalog: Catalog) -> None:
    q = understand("train resnet-50 with SGD and momentum on a 4090, how long for 90 epochs?",
                   catalog)  # fmt: skip
    assert ("optimizer", "sgd") in q.train_options
    q = understand("an A100 at SGD 3.40 an hour for 10 hours, total in SGD?", catalog)
    assert ("optimizer", "sgd") not in q.train_options and q.workload is None, q


def test_a_bills_cents_a_unit(catalog: Catalog) -> None:
    q = understand("the rig draws 300W for 8 hours a day, 20 days a month; electricity is 31c a "
                   "unit. monthly cost?", catalog)  # fmt: skip
    assert q.usd_per_kwh == 0.31 and q.draw_w == 300


def test_wasting_time_and_code_notebooks(catalog: Catalog) -> None:
    q = understand("can my 4080 do a QLoRA of mixtral 8x7b through a kaggle notebook, or am I "
                   "wasting my time?", catalog)  # fmt: skip
    assert q.intent == "fit" and q.segment != "laptop", (q.intent, q.segment)
    assert understand("best laptop gpu for llama 8b?", catalog).segment == "laptop"


def test_the_job_on_quoted_cards_then_how_much_faster(rules_advisor: Advisor) -> None:
    text = _thread(
        rules_advisor,
        "we run Qwen2.5-72B in bf16 with vLLM on 4x A100 80GB SXM",
        "the vendor offers 4x H200 instead, same model, same settings",
        "how much faster per user would that be, roughly? need it for a budget memo",
    )
    assert "H200" in head(text) and "A100" in head(text) and "x the" in head(text), head(text)


def test_tensor_parallel_over_part_of_a_box(catalog: Catalog) -> None:
    q = understand("we serve llama 3.1 70b on an 8x H100 node with TP=2, four replicas; what "
                   "decode speed does each user see?", catalog)  # fmt: skip
    assert q.gpus[0].count == 2, q.gpus
    assert any("replica" in n for n in q.notes)
    priced = understand("8x H100 node with TP=2: what does it cost a month?", catalog)
    assert priced.gpus[0].count == 8


def test_a_gguf_average_stated_and_i_quants(catalog: Catalog, rules_advisor: Advisor) -> None:
    q = understand("deepseek r1 at UD-IQ1_M (1.73 bits) on a Mac Studio M3 Ultra 512GB?", catalog)
    assert q.precision == "iq1_m-1.73bpw", q.precision
    assert understand("llama 3.3 70b IQ2_XS on two 3090s?", catalog).precision == "iq2_xs"
    assert _same_format("q2_k_xl", "q2_k_xl-2.51bpw") and not _same_format("q2_k", "q4_k_m")
    text = ask_grounded(rules_advisor, "does deepseek r1 in the 1.58-bit UD-IQ1_S quant fit on "
                        "2x H100 80GB with llama.cpp?").text  # fmt: skip
    assert head(text).startswith("**Yes"), head(text)
    assert "1.58 bits" not in text or "0.2 bytes" in text  # a stated average, not floored


def test_sentence_transformers_runs_as_pytorch(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "embedding 200k passages with all-mpnet-base-v2 via "
                        "sentence-transformers on an L4: how long?").text  # fmt: skip
    assert "estimate failed" not in text and "of wall time" in head(text), head(text)


def test_half_in_system_ram_is_no_fit(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "pulled qwen2.5:14b-instruct-fp16 in ollama on my 3060 "
                        "12gb. does it actually fit on the card, and how fast should it "
                        "be?").text  # fmt: skip
    assert head(text).startswith("**No, not on the card alone"), head(text)


def test_the_card_recalled_from_before_is_not_the_one(catalog: Catalog) -> None:
    q = understand("just got a 4070 super. will gemma 2 9b fit fully on it or spill over like it "
                   "did on my old 1060?", catalog)  # fmt: skip
    assert [g.ids[0] for g in q.gpus] == ["rtx-4070-super"], q.gpus


def test_a_number_before_a_line_break_is_no_count(catalog: Catalog) -> None:
    q = understand("setup: llama.cpp, ctx 8192\nRTX 4090: ~95 t/s\nRTX 3080: ~70 t/s\nwhy is "
                   "the 4090 only a bit faster?", catalog)  # fmt: skip
    assert all(g.count is None for g in q.gpus), q.gpus
    assert understand("got 3 A6000s for training", catalog).gpus[0].count == 3


def test_a_claimed_pace_judged_by_the_ceiling(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a tiktok says an RTX 4060 runs mistral 7b q4_k_m at "
                        "180 tokens per second in llama.cpp. is that realistic?").text  # fmt: skip
    assert head(text).startswith("**No: that 180 tokens/s is far above"), head(text)
    assert "allows at most" in head(text), head(text)
    text = ask_grounded(rules_advisor, "my 4090 gets 15 tok/s on llama 3.1 8b q4 in ollama, is "
                        "something wrong?").text  # fmt: skip
    assert head(text).startswith("**Your 15 tokens/s is low"), head(text)


def test_lora_ruled_out(catalog: Catalog) -> None:
    for said in (
        "full fine-tune of qwen2.5 7b, without LoRA, on an H100: fits?",
        "quiero un fine-tune completo sin LoRA de llama 3.1 8b en una A100 80GB",
    ):
        assert understand(said, catalog).workload == "finetune-full", said
    assert understand("lora on llama 8b on a 4090?", catalog).workload == "finetune-lora"


def test_power_supplies_are_no_gpus(catalog: Catalog) -> None:
    q = understand("pairing a 4090 with a seasonic focus gx-850 and a corsair hx1000, which psu "
                   "is enough?", catalog)  # fmt: skip
    assert [g.ids for g in q.gpus] == [("rtx-4090",)], q.gpus


def test_a_model_made_before_it_runs_and_a_rate_set_aside(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "doorbell cam project: a Jetson Orin Nano Super running "
                        "yolov8n (trained on my own parcels dataset). I don't need 60 fps, 15 fps "
                        "is enough. will it keep up?").text  # fmt: skip
    assert head(text).startswith("**Yes") and "15 frames" in head(text), head(text)


def test_two_different_cards_as_one_pool(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "keeping both in one box, a 4090 and a 3060 12gb: can "
                        "llama.cpp use both cards together for a 32b in q6_k?").text  # fmt: skip
    assert "weights" in text and "2 x 24 GB" not in text, text[:600]


def test_pcie_figure_where_a_card_has_no_nvlink(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "2x 4080 super for DDP LoRA fine-tuning of llama 3.2 "
                        "3b: is an nvlink bridge worth it?").text  # fmt: skip
    assert "has no NVLink" in head(text) and "GB/s each way" in text, text[:800]


def test_the_askers_own_expectation_checked(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the 4080 has more tensor TFLOPS, so the 4080 should be "
                        "faster than the 3090 for llama 13b q4 chat, right?").text  # fmt: skip
    assert head(text).startswith(("**Yes: you are right", "**No: you are not right")), head(text)


def test_configs_and_peripherals_are_out_of_scope(catalog: Catalog) -> None:
    for said in ("pls write me the kubernetes manifest for a vllm deployment on our H100s",
                 "which headset should i buy? i game on a 4080"):  # fmt: skip
        assert understand(said, catalog).intent == "out_of_scope", said


def test_the_advisor_itself_asked_about(catalog: Catalog) -> None:
    for said in ("hello, who are you and what can this tool do? someone said it knows GPUs",
                 "Abeg who una be? wetin this bot fit help me with?"):  # fmt: skip
        assert understand(said, catalog).intent == "greeting", said


def test_such_a_card_is_the_one_before(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "looking at the RTX 5000 Ada for our design studio",
                   "what does such a card go for these days?")  # fmt: skip
    assert "RTX 5000 Ada" in head(text), head(text)


def test_which_of_two_has_a_feature(catalog: Catalog) -> None:
    q = understand("picking between an L40S and an RTX 4090 for week-long runs. which of the two "
                   "cards supports ECC?", catalog)  # fmt: skip
    assert q.intent in ("compare", "spec") and q.num_gpus is None, (q.intent, q.num_gpus)


def test_basque_endings_and_the_ariary(catalog: Catalog) -> None:
    q = understand("Flux-rako LoRA bat RTX 4090-arekin: zenbat ordu behar dira?", catalog)
    assert [g.ids[0] for g in q.gpus] == ["rtx-4090"] and q.models, (q.gpus, q.models)
    q = understand("budget 2 500 000 Ariary for a GPU for whisper, which one?", catalog)
    assert q.budget is not None and q.currency.strip() == "MGA", (q.budget, q.currency)


def test_one_card_in_a_narrow_slot(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my 3090 has to sit in an x4 slot (pcie 4.0). does that "
                        "slow down llama 3.1 8b q4 generation once it's loaded?").text  # fmt: skip
    assert head(text).startswith("**No: once") and "x4" in head(text), head(text)


def test_fp16_throughput_is_asked(catalog: Catalog) -> None:
    q = understand("compare the A100 40GB and L40S on memory and FP16 throughput", catalog)
    assert "fp16_bf16_dense_tflops" in q.fields, q.fields
    assert (
        "fp16_bf16_dense_tflops"
        not in understand("we got quoted an 8x H100 node, same bf16 weights", catalog).fields
    )


def test_vram_against_cores_explained(catalog: Catalog) -> None:
    q = understand("explain it simply: why vram matters more than tensor cores when running llms",
                   catalog)  # fmt: skip
    assert q.intent == "explain" and q.topic == "vram_matters", (q.intent, q.topic)


def test_a_job_against_the_end_of_the_week(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we must caption 40,000 images with blip by end of week on "
                        "a rented T4... and transcribe 300 hours of audio with whisper "
                        "large-v3 by end of week on a rented A10, enough?").text  # fmt: skip
    assert head(text).startswith(("**Yes", "**No")), head(text)


def test_one_card_weighed_against_two(catalog: Catalog) -> None:
    q = understand("planning mistral 7b on a single A10 with vllm for 15 people. will that cut it, "
                   "or do we need 2?", catalog)  # fmt: skip
    assert q.gpus[0].count in (None, 1) and q.num_gpus is None, (q.gpus, q.num_gpus)


def test_seconds_per_image_as_a_floor(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "which gpu gets sdxl at 1024 px done in under 3 seconds "
                        "an image?").text  # fmt: skip
    assert "ruled out" in text, text[:600]


def test_memory_shared_with_the_cpu_is_asked(catalog: Catalog, rules_advisor: Advisor) -> None:
    q = understand("the DGX Spark: how fast is its memory, and is it shared with the CPU?", catalog)
    assert "unified_memory" in q.fields and "memory_gb" not in q.fields, q.fields
    text = ask_grounded(rules_advisor, "is the memory of an RTX 4080 shared with the cpu?").text
    assert "no, the card's own" in head(text), head(text)


def test_a_training_oom_is_no_kv_cache_question(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "keeps ooming: full fine-tune of qwen2.5 1.5b on my 3060 "
                        "12gb at 8k context, batch 8. what do i change?").text  # fmt: skip
    assert "KV cache" not in head(text), head(text)


def test_users_a_measured_total_serves(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "our box with 4x A10G pushes about 2400 tok/s aggregate "
                        "on mistral 7b in vllm. how many users at 20 tok/s each?").text  # fmt: skip
    assert head(text).startswith("**About 120 users at once"), head(text)


def test_a_card_name_is_no_link_question(catalog: Catalog) -> None:
    q = understand("better value for our lab: 2x RTX 5090 or 1x H100 PCIe, mostly fine-tuning "
                   "8B models", catalog)  # fmt: skip
    assert q.intent == "compare", q.intent


def test_fewer_cards_asked_after_a_setup(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "we plan to rent 8x A100 80GB for a full fine-tune of qwen2.5 "
                   "32b", "and with qlora instead, could we get away with fewer gpus?")  # fmt: skip
    assert head(text).startswith("**Qwen2.5-32B needs") or "fits on one" in head(text), head(text)
    assert "8 x 80 GB" not in text, text[:600]


def test_the_use_said_after_a_budget_pick(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "around 2500 dollars for a workstation card",
                   "mainly flux and sdxl image work")  # fmt: skip
    assert head(text).startswith("**Pick one") and "image generation" in head(text), head(text)


def test_a_quote_in_a_currency_with_a_rate(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "someone sells me a used rtx 4090 for 9000 reais, is that "
                        "a fair price?").text  # fmt: skip
    assert "BRL to the dollar" in head(text), head(text)


def test_swedish_and_polish_words(catalog: Catalog) -> None:
    q = understand("Vad kostar det att hyra en L40S i en vecka dygnet runt?", catalog)
    assert q.hours == 168 and q.intent == "cost", (q.hours, q.intent)
    q = understand("Ile potrwa QLoRA Llama 3.1 8B na RTX 4090 dla 20 tys. przykładów?", catalog)
    assert q.dataset_samples == 20000, q.dataset_samples
