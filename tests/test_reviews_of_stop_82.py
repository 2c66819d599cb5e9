"""Stop 82, the kinds the spent blind sets (natural fresh37, advice_fresh38) showed: "N of them"
after items of a job (icons, renders), not cards; a card the provider does not have, set aside in
a correction; "does it fit" after a fine-tune keeps the fine-tune; "or do I need to rent
something bigger"; "2k-token samples" as each sample's length, not two samples; "hbm in G";
pesos with the user's own rate; dollars written after the amount with their country ("0,95 $
CA"); a request, then a cost asked after a full stop; a diffusers pipeline that runs out of
memory (inference, no offload); a pace wanted ("at thirty frames a second: realistic?") is no pace
measured; "am I losing speed with the old slot"; a yes or no asked in the order of a statement;
a reaction before a follow-up ("ah bummer. what about ..."); the smallest MIG slice asked;
CUDA kernels to write; the family named before its variants; more electricity asked of two
cards; phrases of French, Spanish, Russian, Kazakh, Hebrew, Greek, Tagalog, Welsh, Tamil-English,
Malay and Czech."""

from __future__ import annotations

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


@pytest.fixture
def advisor(rules_advisor: Advisor) -> Advisor:
    """The rules engine's advisor, shared by the run."""
    return rules_advisor


def _ask(advisor: Advisor, question: str) -> str:
    text: str = ask_grounded(advisor, question).text
    return text


def test_of_them_after_items_counts_items_not_cards(advisor: Advisor) -> None:
    text = _ask(advisor, "we make sprite sheets with sd 1.5 at 512x512, 30 steps, on one 4070. "
                         "how many seconds per sprite? and how long for 800 of them?")  # fmt: skip
    assert "800 x" not in text and "one NVIDIA GeForce RTX 4070" in text, text
    assert head(text).startswith("**Time per image"), head(text)
    text = _ask(advisor, "flux schnell on a rented l40s, 1024px, 4 steps: time per picture, and "
                         "for a run of 300 of them?")  # fmt: skip
    assert "300 x" not in text and "batch 300" not in text, text


def test_the_cards_counted_of_them_stay_cards(catalog: Catalog) -> None:
    q = understand("p40s are cheap on ebay, should i get 4 of them for a 70b?", catalog)
    assert q.gpus and q.gpus[0].count == 4, q.gpus


def test_a_card_the_provider_lacks_is_set_aside_and_the_job_kept(catalog: Catalog) -> None:
    first = understand("full finetune of mistral 7b, adamw, bf16, on 2x a100 40gb with deepspeed "
                       "zero-3: enough?", catalog)  # fmt: skip
    later = understand("my mistake, the host doesn't offer A100s at all, it's 8x H100 SXM. "
                       "with zero-3 on the eight H100s, does it fit?", catalog,
                       first.context_dict())  # fmt: skip
    assert [g.ids for g in later.gpus] == [("h100-sxm5-80gb",)], later.gpus
    assert later.gpus[0].count == 8 and later.workload == "finetune-full", later


def test_fit_alone_after_a_fine_tune_keeps_the_fine_tune(catalog: Catalog) -> None:
    first = understand("qlora of llama 3 70b on two 3090s, possible?", catalog)
    later = understand("ok what if it's two a6000s, fits?", catalog, first.context_dict())
    assert later.workload == "finetune-qlora", later.workload
    served = understand("and for serving it with vllm on them, does it fit?", catalog,
                        first.context_dict())  # fmt: skip
    assert served.workload == "inference", served.workload


def test_a_bigger_card_asked_for_is_the_fit(advisor: Advisor) -> None:
    text = _ask(advisor, "lora on mistral nemo 12b in bf16 with my 4090, 1k-token samples. or "
                         "would we have to rent something bigger?")  # fmt: skip
    assert head(text).startswith(("**Yes", "**No")), head(text)
    assert "for the job" not in head(text), head(text)


def test_token_lengths_before_samples_are_lengths(catalog: Catalog) -> None:
    q = understand("sft of qwen2.5 7b on 40k 1k-token examples with one h100, how long?", catalog)
    assert q.dataset_samples == 40000 and q.context == 1000, (q.dataset_samples, q.context)
    q = understand("lora on llama 3.1 8b, 512 token samples, on a 3090, fits?", catalog)
    assert q.dataset_samples is None and q.context == 512, (q.dataset_samples, q.context)


def test_hbm_in_a_unit_asks_its_size(catalog: Catalog) -> None:
    q = understand("mi300x vs h200: hbm in gb and bandwidth, just numbers", catalog)
    assert "memory_gb" in q.fields and "memory_type" not in q.fields, q.fields


def test_pesos_at_the_users_rate_turn_into_dollars(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "a used 3090 goes for 600,000 pesos here, renting one is $0.25 an hour "
        "and the dollar is 1,000 pesos. how many hours until buying pays off?",
    )
    assert "2,400 hours" in text and "$600" in text, text
    assert "MXN" not in text, text


def test_dollars_written_after_the_amount_with_their_country(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "Une 3090 usagée coûte 1 100 $ CA ici, ou je la loue à 0,50 $ CA de "
        "l'heure. Au bout de combien d'heures l'achat devient rentable ?",
    )
    assert "CAD 1,100" in text and "2,200 hours" in text, text


def test_a_request_then_a_cost_after_a_full_stop(advisor: Advisor) -> None:
    text = _ask(advisor, "please list the memory and the fp16 tflops of the a40 and the l40s. "
                         "and what would 200 hours of the a40 come to at $0.80/h?")  # fmt: skip
    assert "$160" in text and "48 GB" in text, text


def test_a_pipeline_out_of_memory_is_inference_without_offload(catalog: Catalog) -> None:
    q = understand("FluxPipeline.from_pretrained(...).to('cuda') on my 3080 10GB crashes with CUDA "
                   "out of memory. no `enable_sequential_cpu_offload()`, nothing. does flux dev "
                   "in bf16 just not fit?", catalog)  # fmt: skip
    assert q.workload == "inference" and q.offload == "none", (q.workload, q.offload)


def test_a_frame_rate_wanted_is_no_pace_measured(advisor: Advisor) -> None:
    text = _ask(advisor, "we'd like to track pallets with yolov8s on an orin nx 16gb at 25 frames "
                         "a second from one camera. feasible?")  # fmt: skip
    assert "your own measured pace" not in text, text
    assert head(text).startswith(("**Yes", "**No")), head(text)


def test_losing_speed_to_an_old_slot_is_the_pcie_principle(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "my 3060 12gb is on a pcie 3.0 x4 riser in an old dell. mistral 7b q4 "
        "is all on the card. am I losing much speed because of that slot?",
    )
    assert head(text).startswith("**No"), head(text)
    assert "3.94 GB/s" in text, text


def test_a_yes_or_no_in_the_order_of_a_statement(advisor: Advisor) -> None:
    text = _ask(advisor, "I have one RTX 3090. I need 20 token per second for gemma 2 9b q4_k_m "
                         "in llama.cpp. It will fit and can reach this speed?")  # fmt: skip
    assert head(text).startswith("**Yes, above the 20 tokens/s you want"), head(text)


def test_a_reaction_before_a_follow_up(advisor: Advisor) -> None:
    text = thread_of(advisor, "can my gtx 1650 4gb run flux dev?",
                     "damn. ok what about sd 1.5 then, same pc?")[-1]  # fmt: skip
    assert "Stable Diffusion 1.5" in head(text) and "GTX 1650" in head(text), head(text)


def test_the_smallest_mig_slice_is_said_with_the_count(advisor: Advisor) -> None:
    text = _ask(advisor, "h100 80gb: how many mig instances at most and how many gb each at the "
                         "smallest slice?")  # fmt: skip
    assert "MIG instances: 7 (the smallest about 10 GB each)" in text, text


def test_kernels_to_write_are_out_of_scope(catalog: Catalog) -> None:
    for text in ("could you write me a triton kernel for fused softmax on the h100?",
                 "implement a CUDA kernel for a 2D convolution, host code included"):  # fmt: skip
        assert understand(text, catalog).intent == "out_of_scope", text


def test_the_family_said_before_its_variants_is_covered_by_them(catalog: Catalog) -> None:
    q = understand("our quote says 'A100s' and then lists 'A100 PCIe 40GB' and 'A100 SXM4 80GB': "
                   "how do they differ in memory and power?", catalog)  # fmt: skip
    assert [g.ids for g in q.gpus] == [("a100-pcie-40gb",), ("a100-sxm4-80gb",)], q.gpus
    assert "tdp_w" in q.fields


def test_more_electricity_asked_of_two_cards_is_their_power(catalog: Catalog) -> None:
    q = understand("l4 or t4 for our kiosk, which one uses less electricity?", catalog)
    assert "tdp_w" in q.fields, q.fields


def test_phrases_of_french_spanish_and_greek(catalog: Catalog) -> None:
    q = understand("Je peux acheter une 4080 usagée à 900 $ ou louer à 0,30 $ de l'heure. Au bout "
                   "de combien d'heures l'achat devient rentable ?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy", q.intent
    q = understand("Una 3060 a 250 dólares o alquilar a 0,10 dólares la hora: ¿a partir de "
                   "cuántas horas me conviene comprarla?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy", q.intent
    greek = "Μια L4 στα 0,60 € την ώρα, 8 ώρες τη μέρα, 20 εργάσιμες τον μήνα. Πόσο τον μήνα;"  # noqa: RUF001
    q = understand(greek, catalog)
    assert q.intent == "cost" and q.hours == 160, (q.intent, q.hours)


def test_phrases_of_russian_kazakh_and_hebrew(catalog: Catalog) -> None:
    q = understand("Нужно 4 штук L40S на 10 часов по 900 ₸ за час. Сколько всего?", catalog)
    assert q.gpus and q.gpus[0].count == 4, q.gpus
    q = understand("Полный fine-tune Qwen2.5-7B (все веса, AdamW) на одной H100 — влезет?",
                   catalog)  # fmt: skip
    assert q.workload == "finetune-full", q.workload
    q = understand("אני רוצה להריץ Llama 3.1 8B עם קונטקסט של 32k טוקנים על RTX 4090. זה ייכנס?",
                   catalog)  # fmt: skip
    assert q.context == 32768, q.context


def test_phrases_of_tagalog_welsh_tamil_malay_and_czech(catalog: Catalog) -> None:
    first = understand("RTX 4090 sa ₱40 per hour, 12 hrs a day for 20 days, magkano?", catalog)
    later = understand("sorry po, 6 hours lang a day. Still 20 days. Magkano na?", catalog,
                       first.context_dict())  # fmt: skip
    assert later.hours == 120, later.hours
    q = understand("Pa mor gyflym fydd Mistral 7B yn Q4_K_M ar RTX 3060?", catalog)
    assert q.intent == "speed", q.intent
    q = understand("distilbert fine-tune on 1 lakh reviews, 2 epochs, colab t4. evlo neram aagum?",
                   catalog)  # fmt: skip
    assert q.intent == "train_time", q.intent
    assert understand("Tolong tuliskan kernel CUDA untuk reduction.", catalog).intent == (
        "out_of_scope"
    )
    q = understand("Srovnejte prosím RTX 4090 a RTX 5090, paměť a šířku pásma. A kolik zaplatíme "
                   "za 50 hodin RTX 5090 za 30 Kč/h?", catalog)  # fmt: skip
    assert q.also and q.also[0].intent == "cost", q.also


def test_a_card_asked_as_too_small_is_answered_as_such(advisor: Advisor) -> None:
    text = _ask(advisor, "isn't an l4 too small for a 30b model in bf16?")
    assert head(text).startswith("**Too small: "), head(text)
    text = _ask(advisor, "is 16gb too little for llama 3.1 8b at q4?")
    assert head(text).startswith("**Enough: "), head(text)
    text = _ask(advisor, "my 3060 ti doesn't have enough vram for qwen2.5 14b q8, does it?")
    assert head(text).startswith("**Too small"), head(text)


def test_a_link_figure_asked_of_a_card_is_its_figure(advisor: Advisor) -> None:
    text = _ask(advisor, "what's the nvlink bandwidth of the h100 sxm, and does the pcie card get "
                         "nvlink too?")  # fmt: skip
    assert "GPU-to-GPU link 900 GB/s" in head(text), head(text)


def test_a_break_even_with_no_card_and_a_users_count_picks_for_the_fine_tune(
    advisor: Advisor,
) -> None:
    text = _ask(advisor, "small agency, $6k to spend on hardware. we'd qlora mistral 7b monthly "
                         "and serve it to 80 staff. rent or buy? what would you buy?")  # fmt: skip
    assert "pays off after" in head(text) and "Which GPU" not in text, text
    assert text.count("**Pick") == 0, text


def test_used_after_a_card_under_a_price_is_a_card_to_buy(advisor: Advisor) -> None:
    text = thread_of(advisor, "best card for training resnet-50 under $600?",
                     "and if i go used?")[-1]  # fmt: skip
    assert "to buy (used" in head(text) and "/hour" not in head(text), head(text)


def test_a_dgx_with_no_generation_names_its_generations(advisor: Advisor) -> None:
    text = _ask(advisor, "our lab of 15 people runs 13b models in notebooks: buy a DGX or keep "
                         "renting?")  # fmt: skip
    assert "8 x" in head(text) and "names no generation" in text, text


def test_one_gpu_enough_with_no_card_named_picks_one(advisor: Advisor) -> None:
    text = _ask(advisor, "about 20k support tickets a day get summarised by qwen2.5 7b, roughly "
                         "1.5k tokens in and 200 out. would a single GPU be enough?")  # fmt: skip
    assert head(text).startswith("**Yes, one card is enough: pick one "), head(text)


def test_why_after_a_pick_says_the_pick_again_with_its_reason(advisor: Advisor) -> None:
    text = thread_of(advisor, "l40s or a100 80gb for serving mistral 7b to a few users?",
                     "how come?")[-1]  # fmt: skip
    assert head(text).startswith("**Pick the "), head(text)


def test_a_setup_for_users_within_a_sum_is_bought(advisor: Advisor) -> None:
    text = _ask(advisor, "budget 8k, whats the best setup to run qwen2.5 32b for 5 users at "
                         "decent speed")  # fmt: skip
    assert "to buy" in head(text) and "/hour" not in head(text), head(text)


def test_round_the_clock_after_a_model_is_no_part_of_its_name(catalog: Catalog) -> None:
    q = understand("what does it cost in power to keep qwen running 24/7 on my 4080 for a month?",
                   catalog)  # fmt: skip
    assert all(not m.suggestions for m in q.models), q.models
    assert q.hours == 730, q.hours


def test_a_month_of_rent_in_russian_and_how_fast_in_finnish(catalog: Catalog) -> None:
    q = understand("Сколько стоит аренда A100 на месяц?", catalog)
    assert q.intent == "cost" and q.hours == 730, (q.intent, q.hours)
    q = understand("Kuinka nopeasti RTX 3090 ajaa Llama 3.1 8B:tä?", catalog)
    assert q.intent == "speed", q.intent


def test_the_cheapest_one_after_a_pick_by_cost_is_the_pick(advisor: Advisor) -> None:
    first, later = thread_of(advisor, "pretraining a 125M gpt on 5B tokens, rented: l4, a10g or "
                                      "a100 80gb, which is cheapest overall?",
                             "ok how long would it take on the cheapest one?")  # fmt: skip
    lead = first.split(":", 1)[0].removeprefix("**Pick the ")
    assert head(first).startswith("**Pick the ") and lead in head(later), (head(first), later)


def test_two_different_cards_together_for_one_model(advisor: Advisor) -> None:
    text = _ask(advisor, "could I put a 3080 ti and a 3060 together to run one model?")
    assert head(text).startswith("**Yes: llama.cpp splits the model's layers"), head(text)


def test_one_reason_that_rules_out_every_card_is_said_once(advisor: Advisor) -> None:
    text = _ask(advisor, "which gpu would i need to pretrain flux from scratch?")
    assert text.count("does not estimate") == 1, text


def test_a_pace_a_little_under_the_estimate_is_not_called_normal(advisor: Advisor) -> None:
    text = _ask(advisor, "getting 36 tok/s with llama 3.1 8b q8 on my 4070 in lm studio, is that "
                         "normal?")  # fmt: skip
    assert head(text).startswith("**Close, a little below"), head(text)


def test_a_card_per_dollar_of_memory_is_a_card_of_its_own_memory(advisor: Advisor) -> None:
    text = _ask(advisor, "cheapest consumer graphics card per gb of vram?")
    assert "Ryzen AI" not in text and "Apple" not in text, text


def test_how_many_images_asked_is_no_count_of_images(catalog: Catalog) -> None:
    q = understand("how many 4k images a minute can sdxl turbo do on a 4090?", catalog)
    assert q.images is None and q.dataset_samples is None, (q.images, q.dataset_samples)


def test_how_much_it_costs_is_kept_over_the_intent_model(catalog: Catalog) -> None:
    for text in (
        "how much does it cost to render sdxl 5000 images on an a10g?",
        "Wie teuer ist es, 2.000 SDXL Bilder auf einer L40S generieren zu lassen?",
    ):
        assert understand(text, catalog).intent == "cost", text


def test_two_hourly_terms_compared_are_no_price_to_buy(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "the vendor offers an h100 at $2.40/hr with a 1-year reserved commitment "
        "or $3.90 on-demand. we'd use it ~200 hours a month. which is cheaper?",
    )
    assert "pays off" not in text and head(text).startswith("**On-demand is cheaper"), head(text)


def test_model_size_put_before_speed_picks_the_bigger_memory(advisor: Advisor) -> None:
    text = _ask(advisor, "5060 ti 16gb or 5070 12gb for running llms at home? i care more about "
                         "memory than speed")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 5060 Ti 16GB"), head(text)


def test_a_tax_said_in_a_thread_stays_when_the_count_changes(advisor: Advisor) -> None:
    text = thread_of(advisor, "4 a100s at $1.80/h for 10 days, total?", "plus 20% vat please",
                     "make that 3 a100s")[-1]  # fmt: skip
    assert "With your 20% tax: **$1,555**" in text, text


def test_data_that_cannot_leave_the_premises_is_served_on_hardware_bought(
    advisor: Advisor,
) -> None:
    text = _ask(advisor, "we're a hospital, patient data can't leave our premises. what hardware "
                         "to serve llama 3.1 8b to 300 staff?")  # fmt: skip
    assert "to buy" in head(text) and "/hour" not in head(text), head(text)


def test_a_small_rounded_pace_just_under_the_range_is_normal(advisor: Advisor) -> None:
    text = _ask(advisor, "orin agx 64gb running llama3.3:70b q4_k_m in ollama does about 3 tok/s. "
                         "is that expected?")  # fmt: skip
    assert head(text).startswith("**Yes, 3 tokens/s is normal"), head(text)


def test_a_vit_size_run_together_with_its_patch_is_no_unsized_vit(catalog: Catalog) -> None:
    q = understand("can a 3060 run vit h14 for inference?", catalog)
    assert [m.ids for m in q.models] == [("vit-h-14",)], q.models
    q = understand("vision transformer training on a 4090, how fast?", catalog)
    assert [m.ids for m in q.models] == [("vit-b-16",)], q.models


def test_a_time_to_first_token_allowed_is_answered_yes_or_no(advisor: Advisor) -> None:
    text = _ask(advisor, "does an l40s keep the time to first token under 300 ms for mistral 7b "
                         "with 16 users?")  # fmt: skip
    assert head(text).startswith("**No: about ") and "over your 300 ms" in head(text), head(text)
    text = _ask(advisor, "llama 3.1 8b for 2 users on one h100 sxm: can it keep ttft within "
                         "1.5 seconds?")  # fmt: skip
    assert head(text).startswith("**Yes: about "), head(text)


def test_no_first_token_budget_no_verdict_on_it(catalog: Catalog) -> None:
    assert (
        understand("time to first token of llama 3.1 8b on an l4?", catalog).ttft_budget_s is None
    )
