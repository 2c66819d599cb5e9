"""A claim of sameness judged on the figure it names, the link asked about where the model fits,
a price found in euros judged against the dollars on record, a second pick turned into a
figure, a serving fleet counted in all, and an upgrade weighed for the memory it was wanted for."""

from __future__ import annotations

import pytest

from advisor.agent.principles import _fields_said_same
from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head


@pytest.mark.parametrize(
    ("said", "fields"),
    [
        ("the 4090 has the same vram as the 3090, right?", {"memory"}),
        ("do they have the same memory bandwidth?", {"memory bandwidth"}),
        ("same tdp and same amount of memory?", {"board power", "memory"}),
        ("a10 and a10g, same thing?", set()),
        ("is it the same chip?", set()),
        ("is it the same card just with less memory?", set()),
    ],
)
def test_the_figure_a_claim_of_sameness_names(said: str, fields: set[str]) -> None:
    assert _fields_said_same(said) == fields


def test_a_claim_of_the_same_memory_is_judged_on_memory(rules_advisor: Advisor) -> None:
    same = ask_grounded(rules_advisor, "my boss reckons the 4090 has the same vram as the "
                        "3090, is he right?").text  # fmt: skip
    assert head(same).startswith("**Yes") and "24 GB" in head(same)
    assert "memory bandwidth" in same  # what differs, after the verdict
    other = ask_grounded(rules_advisor, "pretty sure the a6000 and 3090 have the same memory "
                         "bandwidth?").text  # fmt: skip
    assert head(other).startswith("**No") and "768 GB/s" in head(other)
    power = ask_grounded(rules_advisor, "3090 and 3090 ti have the same tdp right").text
    assert head(power).startswith("**No") and "450 W" in head(power)


def test_a_claim_with_no_figure_named_keeps_the_whole_comparison(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "A10 and A10G, same thing?").text
    assert head(text).startswith("**No") and "board power" in head(text)


def test_the_link_is_weighed_where_the_pair_holds_the_model(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "do we need an nvlink bridge for running a 70b across "
                        "two 3090s?").text  # fmt: skip
    assert "does not fit" not in head(text)
    assert "PCIe" in head(text) and "4-bit" in text


def test_a_price_found_in_euros_is_judged(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "found a 4090 for 1800 euros, is that worth it?").text
    assert head(text).startswith("**Below the market: €1,800 (about $2,117 at the European")


def test_someone_selling_a_card_is_a_used_price(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "someone's selling a 3090 for $600, decent?").text
    assert "used prices on record" in head(text)


def test_a_job_costed_on_each_card_has_one_pick(rules_advisor: Advisor) -> None:
    said = (
        "about 10,000 hours of recordings to run through whisper large-v3, what's that "
        "cost on rented L4s vs A100s?"
    )
    text = ask_grounded(rules_advisor, said).text
    assert head(text).startswith("**Pick the NVIDIA L4")
    assert text.count("**Pick") == 1 and "**Fastest: the" in text


def test_a_cheaper_fleet_in_four_bits_counts_every_copy(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "cheapest way to serve llama 3 8b at 50 requests a "
                        "second?").text  # fmt: skip
    four = next(p for p in text.split("\n\n") if p.startswith("In 4-bit"))
    assert "cheaper: one " not in four and " x " in four


def test_an_upgrade_wanted_for_its_memory_leads_with_the_memory(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "worth going from my 3080 10gb to a 3090 mainly for the "
                        "vram? for local llms").text  # fmt: skip
    assert head(text).startswith("**Yes, for the memory: the NVIDIA GeForce RTX 3090 runs up")
    speed = ask_grounded(rules_advisor, "is going from a 3060 to a 4070 worth it for stable "
                         "diffusion?").text  # fmt: skip
    assert head(speed).startswith("**Yes") and "4070" in head(speed)


def test_a_price_in_pounds_said_in_words_is_not_dollars(rules_advisor: Advisor) -> None:
    for said in ("900 quid for a 4080 super, fair?", "bloke wants 700 pounds for his 3090, ok?"):
        text = ask_grounded(rules_advisor, said).text
        assert "£" in head(text) and "$700 is" not in head(text) and "$900 is" not in head(text)


def test_a_multiple_of_the_users_own_speed_is_judged(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "mistral 7b q4 does 40 tok/s on my 4070. would a 4090 "
                        "double that?").text  # fmt: skip
    assert head(text).startswith("**No: about") and "2x asked" in head(text)


def test_requests_a_second_or_a_minute_are_a_rate_not_users_at_once(catalog: Catalog) -> None:
    second = understand("cheapest way to serve llama 3 8b at 50 requests a second?", catalog)
    assert second.rps == 50 and second.concurrency is None
    minute = understand("200 requests per minute on a 70b, how many h100s", catalog)
    assert minute.rps is not None and abs(minute.rps - 200 / 60) < 0.01


def test_memory_beyond_the_weights_is_explained(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my llama 3.1 8b q4 eats 11gb on a 3060, how come? the "
                        "gguf is 4.9gb").text  # fmt: skip
    assert head(text).startswith("**The weights are only part of it") and "q4_k_m" in head(text)
    assert "131,072" in text  # the cache at the model's full context, as such engines allocate
    served = ask_grounded(rules_advisor, "why does vllm take 20gb on my 4090 for a 7b "
                          "model?").text  # fmt: skip
    assert "gpu_memory_utilization" in served and "llama.cpp, Ollama" not in served


def test_images_labelled_with_a_classifier_are_inference(catalog: Catalog) -> None:
    said = "we must label 2 million photos with a ViT-B/16 classifier, how long on one L4?"
    assert understand(said, catalog).workload == "inference"
    trained = "train a classifier on 2 million images with vit-b/16 on an L4, how long"
    assert understand(trained, catalog).workload == "train"


def test_a_segmentation_unet_is_sized(rules_advisor: Advisor, catalog: Catalog) -> None:
    text = ask_grounded(rules_advisor, "will a 12gb card do for training a u-net on 512x512 "
                        "ct slices at batch 8?").text  # fmt: skip
    assert head(text).startswith("**Yes: Segmentation U-Net") and "activations" in text
    # a bare "unet" beside Stable Diffusion is its denoiser, not the segmentation net
    sd = understand("full unet dreambooth for sd1.5 on my 3060 12gb, will it fit", catalog)
    assert all("unet-segmentation" not in m.ids for m in sd.models)


def test_a_dreambooth_too_big_for_the_card_offers_its_lora(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "sdxl dreambooth on my 16gb 4060 ti, will it "
                        "work?").text  # fmt: skip
    assert head(text).startswith("**No") and "With LoRA (DreamBooth with LoRA adapters)" in text
    flux = ask_grounded(rules_advisor, "can I train a flux lora with 16 GB?").text
    assert "With QLoRA (a 4-bit base) it fits" in flux


def test_a_figure_the_catalog_does_not_keep_is_said_so(rules_advisor: Advisor) -> None:
    bus = ask_grounded(rules_advisor, "whats the memory bus width on the l40s").text
    assert head(bus).startswith("**Not on record: the memory bus width of the NVIDIA L40S")
    clock = ask_grounded(rules_advisor, "4070: cuda core count and boost clock?").text
    assert "5,888" in head(clock) and "Not on record: the clock speed" in clock
    plain = ask_grounded(rules_advisor, "how many cuda cores in a 4070?").text
    assert "Not on record" not in plain


def test_how_much_faster_is_answered_with_the_multiple(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how much faster is a 5090 than a 4090 in sdxl?").text
    assert head(text).startswith("**About ") and "x as fast" in head(text)


def test_a_monthly_spend_said_without_a_dollar_sign_is_read(catalog: Catalog) -> None:
    said = understand("we spend 8k a month renting a100s on aws, would buying pay off?", catalog)
    assert said.monthly_usd == 8000
    paying = understand("paying 12k a month for h100s, worth buying instead?", catalog)
    assert paying.monthly_usd == 12000


def test_a_memory_size_weighed_for_stable_diffusion_is_a_fit(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "is 12 gigs enough for stable diffusion?").text
    assert head(text).startswith("**Yes: Stable Diffusion XL 1.0 fits on one 12 GB GPU")
    small = ask_grounded(rules_advisor, "would 6gb of vram be enough for stable diffusion").text
    assert "Stable Diffusion 1.5" in head(small)


def test_an_llm_job_with_no_model_is_ranked_on_a_stand_in(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "best bang for the buck for llm inference in the cloud "
                        "these days?").text  # fmt: skip
    assert head(text).startswith("**Pick") and "stands in for the job" in text


def test_a_training_batch_too_big_gets_the_batch_that_fits(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "bert-large training keeps OOMing on my 3080, batch 32 "
                        "and seq len 512. what are my options").text  # fmt: skip
    assert head(text).startswith("**No") and "The largest batch that fits on" in text
    assert "gradient accumulation" in text


# review of ec6ea7b: readings that must stay in bounds
def test_a_full_dreambooth_keeps_its_own_memory_options_first(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "full finetune of sdxl on a 24gb 4090?").text
    assert head(text).startswith("**Yes with pure bf16 weights, 8-bit AdamW")


@pytest.mark.parametrize(
    "question",
    [
        "can a 3090 and a 4090 run with the same power supply, 850w?",
        "do the 4070 and 4080 have the same memory type?",
    ],
)
def test_a_same_word_about_another_thing_is_no_claim_on_a_figure(
    rules_advisor: Advisor, question: str
) -> None:
    assert not head(ask_grounded(rules_advisor, question).text).startswith("**No: the ")


def test_a_download_or_a_weights_size_is_not_memory_in_use(rules_advisor: Advisor) -> None:
    for said in ("why does my download of llama 3 8b take 16gb of disk?",
                 "why does llama 3 70b need 140gb?"):  # fmt: skip
        text = ask_grounded(rules_advisor, said).text
        assert "The weights are only part of it" not in head(text) and "weights" in head(text)


def test_rpm_of_a_fan_is_no_request_rate(catalog: Catalog) -> None:
    fan = understand(
        "fan spins at 2000 rpm while serving llama 8b, which gpu should i get", catalog
    )
    assert fan.rps is None
    arrivals = understand("50 users per second hitting a 7b chatbot, what gpu", catalog)
    assert arrivals.rps == 50


def test_a_lab_budget_on_a_cloud_is_rented(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "lab budget 10k on runpod, which gpu for fine-tuning "
                        "8b").text  # fmt: skip
    assert "/hour" in head(text) and "to buy" not in head(text)


def test_a_link_weighed_in_four_bits_says_so_on_cards_without_nvlink(
    rules_advisor: Advisor,
) -> None:
    text = ask_grounded(rules_advisor, "do i need nvlink for 2 4090s to run llama 70b").text
    assert "has no NVLink" in head(text) and "4-bit (AWQ)" in text


def test_cards_that_differ_only_in_memory_lead_with_the_memory(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "any point getting the 4060 ti 16gb over the 8gb version "
                        "for local llms?").text  # fmt: skip
    assert head(text).startswith("**The memory is the difference")
    assert "4060 Ti 8GB (8 GB) holds up to" in head(text)
    other = ask_grounded(rules_advisor, "3090 vs 4090 for llms?").text
    assert not other.startswith("**The memory is the difference")


def test_a_deadline_the_pick_alone_misses_leads_with_the_cards_that_meet_it(
    rules_advisor: Advisor,
) -> None:
    text = ask_grounded(rules_advisor, "which gpu should we rent to get through 2000 hours of "
                        "recordings with whisper within 3 days").text  # fmt: skip
    assert "to finish within 3 days" in head(text) and "copies working apart" in head(text)
    # (in a week one GH200, the pick since cards without bf16 rank last for training, is enough)
    trained = ask_grounded(rules_advisor, "what gpu do i need to train a 1b model from scratch "
                           "in 2 days on 20B tokens").text  # fmt: skip
    assert "to finish within 2 days" in head(trained)


@pytest.mark.parametrize(
    ("said", "sign"),
    [
        ("electricity is 1000 som per kwh, a 3090 running all day for a month?", "SOM"),
        ("power costs 0.30 lari per kwh, my 4090 runs 8h a day, monthly bill?", "GEL"),
    ],
)
def test_a_tariff_in_a_currency_said_in_words_is_a_bill(
    rules_advisor: Advisor, said: str, sign: str
) -> None:
    text = ask_grounded(rules_advisor, said).text
    assert head(text).startswith(f"**About {sign} ") and "of electricity" in head(text)


def test_the_count_for_one_card_more_comes_from_the_tool(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "how many h100s can we fit in a 10kw power budget").text
    assert head(text).startswith("**13: ") and "For 14, cap each card" in text


def test_a_figure_on_record_or_no_figure_is_no_unrecorded_note(rules_advisor: Advisor) -> None:
    warranty = ask_grounded(rules_advisor, "how long is the warranty on a 4090?").text
    assert "Not on record: the card length" not in warranty
    asked = ask_grounded(rules_advisor, "4060 ti 8gb or 16gb, memory bandwidth?").text
    assert not asked.startswith("**The memory is the difference")


@pytest.mark.parametrize(
    "said",
    ["combien de VRAM pour llama 3 70b en 4 bits ?", "cuánta VRAM para llama 3 70b en 4 bits?"],
)
def test_how_much_memory_in_french_and_spanish_is_the_whole_need(
    rules_advisor: Advisor, said: str
) -> None:
    text = ask_grounded(rules_advisor, said).text
    assert "GB of GPU memory" in head(text) and "kv cache" in head(text)


def test_second_review_edges(rules_advisor: Advisor, catalog: Catalog) -> None:
    same = ask_grounded(rules_advisor, "is the 4060 ti 16gb faster than the 8gb?").text
    assert head(same).startswith("**No, the memory is the difference")
    unet = understand("train a unet on 20k images on a 3060, how long?", catalog)
    assert [m.ids for m in unet.models] == [("unet-segmentation",)]
    mhz = ask_grounded(rules_advisor, "my 4070 runs at 1900 mhz boost, normal for llms?").text
    assert "Not on record" not in mhz


def test_a_model_named_decides_between_memory_variants(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "4060 ti 16gb vs 8gb, which one for llama 13b?").text
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 4060 Ti 16GB")
