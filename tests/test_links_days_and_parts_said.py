"""The parts of a question said beside the job, kept: a day of the calendar a job is due by, what
share of a data-parallel step waits on PCIe, whether a card does bf16 or FlashAttention, a second
model asked after the first, the monthly power bill beside the supply, both speeds asked, what
each user gets, a purchase budget no new card meets, a price found for one of two cards, the
format a pick was made in, users that fit only some at a time, and a pace too slow for them all.
Each phrasing is the test's own."""

from __future__ import annotations

import re
from datetime import date

import pytest

from advisor.agent.understand import calendar_deadline, understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.tools import call_tool
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head
from tests.asking import thread_of as _thread


@pytest.mark.parametrize(
    ("said", "today", "due"),
    [
        ("done by end of month", date(2026, 12, 2), date(2026, 12, 31)),
        ("has to finish by the end of the quarter", date(2026, 11, 5), date(2026, 12, 31)),
        ("need it by friday", date(2026, 12, 2), date(2026, 12, 4)),
        ("need it by next friday", date(2026, 12, 2), date(2026, 12, 11)),
        ("before monday", date(2026, 12, 2), date(2026, 12, 7)),
        ("by jan 15th", date(2026, 12, 2), date(2027, 1, 15)),
        ("due 20 december", date(2026, 12, 2), date(2026, 12, 20)),
    ],
)
def test_a_day_of_the_calendar_is_the_hours_until_it(said: str, today: date, due: date) -> None:
    found = calendar_deadline(said, today)
    assert found is not None, said
    hours, note = found
    assert hours == (due - today).days * 24
    assert f"{due:%Y-%m-%d}" in note and f"{today:%Y-%m-%d}" in note


def test_no_day_said_is_no_deadline() -> None:
    assert calendar_deadline("bought it by mistake", date(2026, 12, 2)) is None
    assert calendar_deadline("by feb 30", date(2026, 12, 2)) is None


def test_a_job_due_by_a_day_counts_the_cards_that_make_it(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "got 12,000 hours of podcasts for whisper large-v3, they have to "
        "be transcribed by next friday. how many gpus?",
    ).text
    due = calendar_deadline("by next friday", date.today())  # 5 to 11 days on any day
    assert due is not None
    assert f"within {due[0]:,.0f} hours" in _head(text), text
    assert re.match(r"\*\*(?:\d+ x |One )", _head(text)), text  # the count leads
    assert "Due by next Friday" in text


def test_the_hours_a_due_day_is_counted_as_ground_the_answer(catalog: Catalog) -> None:
    # the hours are code's reading of the user's words (on a Friday, "next friday" is 168 hours,
    # a figure no tool returns): the guard takes them from the understanding's note
    query = understand("12k hours of audio through whisper large-v3 before next friday, gpus?",
                       catalog)  # fmt: skip
    due = calendar_deadline("by next friday", date.today())
    assert due is not None and f"{due[0]:,.0f} hours" in query.said(query.text), query.notes


def test_pcie_judged_for_data_parallel_training(rules_advisor: Advisor) -> None:
    small = _ask(rules_advisor, "4 rtx 3090s, ddp, resnet50 training over pcie. bottleneck or "
                                "not?").text  # fmt: skip
    assert _head(small).startswith("**No: only "), small
    assert "gradient all-reduce over PCIe" in small
    large = _ask(rules_advisor, "is pcie good enough for data parallel training of bert-large on "
                                "8 rtx 4090s?").text  # fmt: skip
    assert _head(large).startswith("**No: "), large  # "good enough?": no, a third of a step waits
    share = int(re.search(r"(\d+)% of each step", _head(large)).group(1))  # type: ignore[union-attr]
    assert share >= 15, large


def test_the_wait_on_the_link_grows_with_the_model_and_the_cards() -> None:
    def share(model: str, gpus: int) -> float:
        e = call_tool("estimate", {"model": model, "gpu": "rtx-4090", "num_gpus": gpus,
                                   "workload": "train", "batch": 32})  # fmt: skip
        return e["link_wait_share"]

    assert share("resnet-50", 4) < share("bert-large", 4) < share("bert-large", 8)
    one = call_tool("estimate", {"model": "resnet-50", "gpu": "rtx-4090", "workload": "train"})
    assert one["link_wait_share"] is None


def test_nvlink_said_against_pcie_for_a_bridged_pair(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "2x 3090 training resnet-50, is the nvlink bridge needed?").text
    assert _head(text).startswith("**No: only "), text
    assert "over PCIe" in _head(text) and "over NVLink" in _head(text), text


def test_pcie_fine_for_a_model_split_by_layers(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "two 4090s, no nvlink, running a 70b gguf in llama.cpp. is pcie "
                               "ok for that?").text  # fmt: skip
    assert _head(text).startswith("**Yes: PCIe is fine"), text
    assert "splits the model by layers" in text


def test_bf16_and_flash_attention_asked_beside_a_job(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "qlora on mistral 7b with my rtx 2080 ti, doable? or does turing "
                               "not support bf16 and flash attention").text  # fmt: skip
    assert "no BF16 tensor cores" in text, text
    assert "FlashAttention-2 does not run" in text, text
    first, second = text.split("\n\n")[:2]
    assert "Mistral" in first and "BF16" in second, text  # the job's verdict, then the support


def test_a_second_size_asked_after_the_first(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "full finetune of a 7b model on 2x a100 80gb, possible? what "
                               "about a 70b?").text  # fmt: skip
    assert "7B" in text and "70B" in text, text
    assert text.count("full fine-tuning") >= 2, text


def test_the_power_bill_beside_the_supply(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what psu for 2x 4090 in one box, and the monthly power cost if "
                               "it runs nonstop at $0.20/kwh?").text  # fmt: skip
    assert "of power supply" in _head(text), text
    bill = re.search(r"\*\*About \$([\d,]+) of electricity\*\*", text)
    assert bill, text
    drawn = re.search(r"= ([\d,]+) W at full load", _head(text))
    assert drawn, text
    watts = float(drawn.group(1).replace(",", ""))
    assert float(bill.group(1).replace(",", "")) == pytest.approx(watts / 1000 * 730 * 0.20,
                                                                  rel=0.01)  # fmt: skip


def test_both_speeds_asked_are_in_each_row(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "for a 70b at home, m2 ultra 192gb or 2x 3090: which is quicker "
                               "for generation and for prompt processing?").text  # fmt: skip
    rows = [line for line in text.splitlines() if line.startswith("- **")]
    assert len(rows) == 2, text
    assert all("decode speed" in r and "prompt processing" in r for r in rows), text
    assert "q4_k_m" in _head(text), text  # compared where both hold it


def test_each_sequence_beside_the_batch(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "vllm on an h100, llama 3.1 8b, 32 requests in flight: total "
                               "tok/s and what does each request see?").text  # fmt: skip
    found = re.search(r"([\d,.]+) tokens/s \(([\d,.]+) tokens/s each\)", text)
    assert found, text
    total, each = (float(x.replace(",", "")) for x in found.groups())
    assert each == pytest.approx(total / 32, rel=0.01)


def test_the_answers_length_is_in_the_cache_of_a_fleet() -> None:
    args = {"model": "llama-3.1-8b", "gpu": "l40s", "target": "min_gpus", "batch": 200,
            "context": 500, "engine": "vllm"}  # fmt: skip
    short = call_tool("solve", args)["estimate"]["breakdown_gb"]["kv_cache"]
    longer = call_tool("solve", {**args, "output_tokens": 250})["estimate"]["breakdown_gb"]
    assert longer["kv_cache"] == pytest.approx(short * 1.5, rel=0.02)


def test_a_hobby_budget_is_spent_on_a_card(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "for a hobby thing i want to run phi-3-mini locally, not spending "
                               "more than $180 on the gpu. which one?").text  # fmt: skip
    assert "/hour" not in text, text
    assert "to buy" in text and "second hand" in _head(text), text


def test_a_price_found_for_one_of_two_cards_is_judged(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "picked up a used 3090 for $600, good deal for local llms, or "
                               "should i have gone for a 4070 ti super?").text  # fmt: skip
    assert _head(text).startswith("**Below the market: $600"), text
    assert "rental price" not in text


def test_the_picks_format_stays_when_another_card_is_named(rules_advisor: Advisor) -> None:
    first, second = _thread(rules_advisor,
                            "what should i buy to run qwen2.5 72b at home for a few people?",
                            "and with two used 3090s instead?")  # fmt: skip
    assert "q4_k_m" in first
    assert "q4_k_m" in _head(second) and "bf16" not in _head(second), second


def test_four_bits_hold_some_of_the_users_at_a_time(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "one L4 with vllm serving qwen2.5-14b to 24 users, can it?").text
    assert re.search(
        r"In 4-bit \(AWQ\) it fits on one NVIDIA L4 with room in its KV cache for "
        r"\d+ requests",
        text,
    ), text
    assert _head(text).startswith("**Yes in 4-bit (AWQ), no in bf16"), text


def test_a_pace_too_slow_for_all_the_users_is_said(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "qwen2.5 14b in ollama on a single L4 for 20 people at once, "
                               "workable?").text  # fmt: skip
    assert "Slow with all 20 at once" in text, text
    each = float(re.search(r"each gets about ([\d.]+) tokens/s", text).group(1))  # type: ignore[union-attr]
    assert each < 10


def test_japanese_minimum_gpu_for_real_time(rules_advisor: Advisor) -> None:
    question = "Whisper large-v3をリアルタイムで動かすには、最低限どのGPUが必要ですか" + "\uff1f"
    text = _ask(rules_advisor, question).text
    assert _head(text).startswith("**Pick "), text
    assert "audio s/s" in _head(text)


def test_still_usable_is_a_judgement_of_the_card(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "old tesla p40 24gb, still usable for local llms with llama.cpp? "
                               "seeing them at $280").text  # fmt: skip
    assert _head(text).startswith("**Yes"), text
    assert "Largest LLM it runs" in text, text
    assert re.search(r"\*\*\$280 is (?:above|under|in line with) the used prices", text), text


def test_how_much_memory_a_model_needs_on_the_card_said(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "sdxl in fp16 needs how much vram? i have a 3060 8gb, do i need to "
                               "use a quantized version").text  # fmt: skip
    assert "Stable Diffusion XL" in text, text
    assert "tensor cores" not in _head(text), text  # the job's memory, not the card's formats


def test_a_datasheet_follow_up_leaves_the_job_behind(rules_advisor: Advisor) -> None:
    _first, second, third = _thread(
        rules_advisor,
        "a100 80gb vs l40s for serving a 13b model, which gives more per dollar?",
        "and their fp32 numbers?",
        "could 4 of them serve mixtral 8x22b?",
    )
    assert "FP32" in _head(second) or "fp32" in _head(second).lower(), second
    assert "13B" not in second, second
    assert "Mixtral" in third and "FP32" not in third, third


def _decode(text: str) -> float:
    found = re.search(r"Decode speed: about ([\d,.]+) tokens/s", text)
    assert found, text
    return float(found.group(1).replace(",", ""))


def test_a_llama_cpp_backend_said_is_the_one_estimated(rules_advisor: Advisor) -> None:
    vulkan = _ask(rules_advisor, "7900 xtx, ollama on the vulkan backend, qwen2.5 14b q4_k_m: how "
                                 "many tok/s?").text  # fmt: skip
    plain = _ask(rules_advisor, "7900 xtx, ollama, qwen2.5 14b q4_k_m: how many tok/s?").text
    assert "(Vulkan)" in _head(vulkan) and "(Vulkan)" not in _head(plain), vulkan
    assert _decode(vulkan) > _decode(plain)


def test_the_vendor_stack_alone_is_no_backend(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "does rocm work well enough on a 7900 xtx for local llms?").text
    assert "(ROCm" not in text, text


def test_a_total_budget_judges_the_job(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "pretraining vit-b/16 on imagenet-21k from scratch on rented "
                               "a100s, we have $3,000. enough?").text  # fmt: skip
    assert re.match(r"\*\*(?:Yes|No): about \$[\d,]+ ", _head(text)), text
    assert "300 epochs of ImageNet-21k assumed" in text, text


def test_the_cards_of_the_last_two_turns_weighed(rules_advisor: Advisor) -> None:
    *_, both = _thread(rules_advisor,
                       "cost to lora fine-tune llama 3.1 8b on 20k samples on a rented l40s?",
                       "hmm and on an a100 80gb?",
                       "so which one is cheaper if we rent either?")  # fmt: skip
    assert _head(both).startswith("**Pick the NVIDIA "), both
    assert "L40S" in _head(both) and "A100" in _head(both), both


def test_data_parallel_with_no_model_is_sized_on_a_model_each_card_holds(
    rules_advisor: Advisor,
) -> None:
    text = _ask(rules_advisor, "h100 sxm: is nvlink worth it for an 8 gpu data parallel "
                               "training job, or is pcie enough").text  # fmt: skip
    assert "on 8 x NVIDIA H100 SXM5" in _head(text), text
    assert "does not fit" not in text and "over NVLink" in _head(text), text


def test_a_budget_for_a_pc_with_no_job_buys_the_most_memory(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "building a pc for deep learning, gpu budget 2500 dollars, "
                               "what should i get").text  # fmt: skip
    assert _head(text).startswith("**Pick ") and "the most memory the budget buys" in text, text
    assert "to buy" in text


def test_judgements_of_a_card_in_other_words(rules_advisor: Advisor) -> None:
    for question in ("rtx 3060 12gb, enough for a student doing kaggle and fast.ai?",
                     "tesla p100 16gb for $90, what are the downsides for llms?"):  # fmt: skip
        text = _ask(rules_advisor, question).text
        assert re.match(r"\*\*(?:Yes|No)", _head(text)), text
        assert "Largest LLM it runs" in text, text


def test_japanese_seconds_per_image_at_the_steps_said(rules_advisor: Advisor) -> None:
    question = "RTX 3090で SDXLの画像1枚あたり何秒ですか" + "\uff1f" + " 25ステップです"
    text = _ask(rules_advisor, question).text
    assert _head(text).startswith("**Time per image: about "), text
    assert "25 steps" in _head(text), text


def test_quants_no_faster_on_a_mac_say_why(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "m2 max 96gb, which gguf quant of llama 3 70b should i run and "
                               "how fast is each?").text  # fmt: skip
    rows = re.findall(r"^- Q\w+: .*?about ([\d.]+) tokens/s", text, re.M)
    assert len(rows) > 2 and len(set(rows)) < len(rows), text  # the Metal ALU bound: level
    assert "decode no faster" in text, text
    card = _ask(rules_advisor, "rtx 3090, which gguf quant of qwen2.5 14b and how fast is each?")
    assert "decode no faster" not in card.text, card.text


def test_worth_it_against_two_cards_prices_both(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "is a used a6000 worth the money vs 2x used 3090s for local "
                               "llms?").text  # fmt: skip
    plain = _ask(rules_advisor, "is an a6000 better than 2x 3090s for llama 70b?").text
    assert "2 x NVIDIA GeForce RTX 3090" in plain, plain
    assert "2 x NVIDIA GeForce RTX 3090" in text, text
    priced = re.search(r"2 x NVIDIA GeForce RTX 3090 \$([\d,]+) \(used, [\d-]+, 2 x \$([\d,]+)\)",
                       text)  # fmt: skip
    assert priced, text
    total, each = (float(x.replace(",", "")) for x in priced.groups())
    assert total == pytest.approx(2 * each)


def test_tiny_images_are_trained_at_their_nets_work(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "resnet-50 on cifar-10, 30 epochs on one rtx 4070, how long?").text
    assert "128 px" in _head(text), text
    assert "CIFAR-10's images are tiny" in text, text


def test_the_power_bill_of_a_rig_counts_the_machine(rules_advisor: Advisor) -> None:
    rig = _ask(rules_advisor, "electricity for my 2x 4090 rig running flat out 24/7 at "
                              "$0.25/kwh, per month?").text  # fmt: skip
    cards = _ask(rules_advisor, "electricity for 2x 4090 running flat out 24/7 at $0.25/kwh, "
                                "per month?").text  # fmt: skip
    assert "are counted with the cards" in rig and "counted with the cards" not in cards, rig

    def usd(text: str) -> float:
        return float(re.search(r"About \$([\d,.]+) of electricity", text).group(1).replace(",", ""))  # type: ignore[union-attr]

    assert usd(rig) > usd(cards)


def test_bandwidth_in_tokens_a_second(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "3090 vs 4090 memory bandwidth, and what does it mean in "
                               "tokens/sec for llms?").text  # fmt: skip
    found = re.search(r"In tokens a second, .*?3090 ([\d.]+) tokens/s.*?4090 ([\d.]+) tokens/s",
                      text.replace("\n", " "))  # fmt: skip
    assert found, text
    assert float(found.group(2)) > float(found.group(1))


def test_a_jobs_time_on_my_card_against_a_rented_one(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "resnet-50 on 200k images for 40 epochs: how long on my 3080 vs "
                               "renting an h100?").text  # fmt: skip
    assert "pays off" not in text, text
    assert re.search(r"3080.*?the job takes about", text), text


def test_a_narrow_slot_for_data_parallel_training(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "will pcie 3.0 x8 slots slow down ddp training on two 3090s "
                               "compared to x16 gen4?").text  # fmt: skip
    found = re.search(r"over PCIe Gen 3 x8, (\d+)% of each step .*? against (\d+)% over PCIe Gen 4",
                      _head(text))  # fmt: skip
    assert found, text
    assert int(found.group(1)) > int(found.group(2))
    assert "Sized on BERT-Large" in text
