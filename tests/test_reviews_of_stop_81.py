"""Stop 81, the kinds the spent blind sets (natural fresh36, advice_fresh37) showed: code to write
and games to play asked beside GPUs; injections naming a card; a greeting in Icelandic; Maltese
and Georgian words; an exchange rate written "1 USD ≈ 2.7 GEL" and a rate beside "USD 0.70"; a
count grouped in thousands by a space in English; a quote with its VAT; a card's power limit
asked as a figure; "why does VRAM matter more" after a friend's claim; "how many hour"; a
correction asked to be recalculated, "epochs are 25 only"; a model set aside ("forget flux");
a frame rate asked of a vision model; a PCIe slot asked as "will it run fine"; ECC asked as a
need; FP8 in hardware claimed of a card "like the 4090"; MIG asked in Czech; FP64 per unit of
the user's prices; an NVLink bridge said; users at a pace each, estimated."""

from __future__ import annotations

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from advisor.tools import set_cost, value_per_dollar
from tests.asking import ask_grounded, head, thread_of


def _thread(advisor: Advisor, *turns: str) -> str:
    return thread_of(advisor, *turns)[-1]


def _ask(advisor: Advisor, question: str) -> str:
    text: str = ask_grounded(advisor, question).text
    return text


def test_code_to_write_and_games_to_play_are_out_of_scope(catalog: Catalog) -> None:
    for text in (
        "can you generate the training loop code for DDP across 8 A100s? no explanation needed",
        "write me the complete deepspeed launch script for two 4090s, code only",
        "which graphics card runs elden ring at 1440p 144hz?",
        "nothing to do with AI, just gaming: which card holds 100 fps in cyberpunk with path "
        "tracing?",
    ):
        assert understand(text, catalog).intent == "out_of_scope", text
    # a model's job beside code is still the job
    assert understand("write a script that runs llama 3 8b on my 3060, will it fit?",
                      catalog).intent != "out_of_scope"  # fmt: skip


def test_injections_naming_a_card_are_invalid(catalog: Catalog) -> None:
    for text in ("'; DROP TABLE cards; -- SELECT memory FROM gpus WHERE name='3090'",
                 "<script>alert('4090')</script>"):  # fmt: skip
        assert understand(text, catalog).intent == "invalid", text
    assert understand("how do I stop SQL injection in my GPU price tracker? the 4090 table got "
                      "dropped", catalog).intent != "invalid"  # fmt: skip


def test_icelandic_greeting_maltese_and_georgian_words(catalog: Catalog) -> None:
    assert understand("Hæ, hvað geturðu gert fyrir mig?", catalog).intent == "greeting"
    q = understand("Nistgħu nħaddmu Llama 3.1 8B fuq RTX 3060 12GB b'kuntest ta' 16k?", catalog)
    assert q.intent == "fit" and q.context == 16384, (q.intent, q.context)
    q = understand("Qed nikkunsidra nixtri RTX 3090 użata għal €650, jew nikri waħda b'€0.30 "
                   "fis-siegħa, xi 10 sigħat fil-ġimgħa. X'inhu aħjar?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy", q.intent
    q = understand("ვარჯიში: YOLOv8s, 12 000 ფოტო, 50 ეპოქა, ერთ RTX 3060-ზე. რამდენი საათი?",
                   catalog)  # fmt: skip
    assert q.dataset_samples == 12000 and q.epochs == 50 and q.intent == "train_time"


def test_exchange_rates_as_people_write_them(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "an A100 is $1.29/hr on lambda. 30 hours of training, "
                        "what's the total? also in lari please, 1 USD ≈ 2.7 GEL")  # fmt: skip
    assert "GEL 104" in head(text), head(text)
    text = _thread(
        rules_advisor,
        "Our lab is comparing renting against buying an RTX A6000.",
        "The provider charges USD 0.70 per GPU-hour. We expect about 1 000 GPU-hours a year over "
        "four years. The card costs R98 000,00 excl. VAT; use R17,90 to the dollar. Which is "
        "cheaper?",
    )
    assert "4,000 hours" in head(text) and "17 x" not in text and "$5,475" in text, text[:600]


def test_spaced_thousands_before_what_they_count(catalog: Catalog) -> None:
    q = understand("the group reckons roughly 1 500 GPU-hours a year for two years, renting an "
                   "L40S at $0.99 an hour. total?", catalog)  # fmt: skip
    assert q.hours == 3000, q.hours
    q = understand("batch 8 512 tokens each, llama 8b on a 4090, how fast?", catalog)
    assert q.batch == 8 and q.context == 512, (q.batch, q.context)


def test_a_quote_with_its_tax(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "reseller wants 2.400 € netto for a RTX 5090, plus 19% "
                        "MwSt. what's the gross and is that a decent price?")  # fmt: skip
    assert "€2,856" in text, text[:600]
    assert set_cost(1000, 2, 0.2)["total_with_tax_usd"] == 2400


def test_power_limit_asked_as_a_figure(catalog: Catalog) -> None:
    q = understand("my g4dn says Tesla T4. what is its power limit and how much memory?", catalog)
    assert q.intent == "spec", q.intent
    q = understand("can I power limit my 3090 to 250w without losing speed", catalog)
    assert q.intent == "speed", q.intent


def test_why_vram_matters_after_a_friends_claim(catalog: Catalog) -> None:
    for text in (
        "coworker insists the 4080 is better than a 3090 for llama because newer. why is more "
        "vram more important?",
        "my buddy says the 4070 ti is better than a 3090 for local llms bc its newer and faster "
        "but reddit says vram is king?? why does vram matter more",
    ):
        assert understand(text, catalog).intent == "explain", text


def test_hours_in_the_singular_and_corrections_recalculated(rules_advisor: Advisor,
                                                            catalog: Catalog) -> None:  # fmt: skip
    q = understand("I want to fine-tune bert-base on 150k sentences (max len 128, 2 epoch, "
                   "batch 64) with one A100. Approximately how many hour it will take?",
                   catalog)  # fmt: skip
    assert q.intent == "train_time", q.intent
    text = _thread(rules_advisor,
                   "how long to fine-tune vit-base on 80k images, 30 epochs, on our A4000?",
                   "Small correction sir, GPU is RTX A5000 not A4000, and epochs are 15 only. "
                   "Kindly recalculate.")  # fmt: skip
    assert "wall time" in head(text) and "A5000" in head(text) and "A4000" not in text, head(text)


def test_a_model_set_aside(rules_advisor: Advisor, catalog: Catalog) -> None:
    text = _thread(rules_advisor, "does flux dev run on my 3060 12gb?",
                   "ok scrap flux. sdxl then, on the same card: seconds per image at 1024, 30 "
                   "steps?")  # fmt: skip
    assert "Stable Diffusion XL" in head(text) and "FLUX" not in text, text[:500]
    q = understand("is llama 70b or qwen 32b better on a 3090", catalog)
    assert len(q.models) == 2


def test_frames_a_second_of_a_vision_model(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "can a jetson orin nano 8gb run yolov8x at 60 fps with "
                        "tensorrt fp16?")  # fmt: skip
    assert head(text).startswith("**No") and "60 frames a second" in head(text), head(text)
    assert "the estimate is for PyTorch" not in text


def test_a_slot_asked_as_good_enough(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "my old board only has pcie 3.0. if I drop a 5070 ti "
                        "(pcie 5) in there for running qwen 14b, will it work ok?")  # fmt: skip
    assert head(text).startswith("**Yes"), head(text)
    text = _ask(rules_advisor, "does pcie 3.0 bottleneck a 4090 for llm inference")
    assert head(text).startswith("**No"), head(text)


def test_ecc_asked_as_a_need(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "vendor says we must get an RTX A6000 instead of a 3090 "
                        "because it has ECC. our use is an internal support chatbot. is ECC "
                        "necessary for that?")  # fmt: skip
    assert head(text).startswith("**No: inference does not need ECC"), head(text)
    text = _ask(rules_advisor, "for a 2 week pretraining run on 8 cards, do I need ECC?")
    assert "worth having for long training runs" in head(text), head(text)


def test_fp8_in_hardware_claimed_like_another_card(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "running flux fp8 in comfy on a 3090. the 3090 does fp8 "
                        "natively like the 4090, yes? would a 4090 be faster?")  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 3090"), head(text)
    assert "330.3 TFLOPS" in text and "11.9 GB in FP8 against 23.8 GB" in text, text[:900]


def test_mig_asked_in_czech(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Máme v laboratoři jednu RTX 6000 Ada a jednu A100 80GB. "
                        "Chceme rozdělit jednu kartu mezi 7 studentů, aby každý měl izolovanou "
                        "GPU s pevně přidělenou pamětí. Která z těch dvou karet to "
                        "umí?")  # fmt: skip
    assert "MIG" in head(text) and "A100" in head(text), head(text)


def test_fp64_per_unit_of_the_users_prices(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "We mostly run DFT (VASP, CP2K) in double precision. "
                        "Choosing between a new RTX 5090 at 2,400 EUR and a used A100 40GB PCIe "
                        "at 7,000 EUR. Which is better for us, and how much FP64 do we get per "
                        "euro?")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA A100 PCIe 40GB for FP64"), head(text)
    assert "9.70 TFLOPS" in text and "1.64 TFLOPS" in text
    rows = value_per_dollar(["rtx-5090", "a100-pcie-40gb"], "fp64_tflops",
                            {"rtx-5090": 2400, "a100-pcie-40gb": 7000})["rows"]  # fmt: skip
    assert value_per_dollar(["l40s", "a100-sxm4-80gb"])["best"] is not None  # median rents
    assert rows[0]["gpu"] == "a100-pcie-40gb" and rows[0]["per_price"] > rows[1]["per_price"]


def test_an_nvlink_bridge_said(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "our render box has 4x RTX A5000 24GB with two NVLink "
                        "bridges pairing them. llama 3.3 70b in full fp16 fits in the 96GB "
                        "because of nvlink, correct?")  # fmt: skip
    assert head(text).startswith("**No") and "112.5 GB/s" in text, text[-700:]


def test_users_at_a_pace_each_estimated(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "we're serving qwen2.5-14b-instruct-awq on vllm on one "
                        "L4. how many concurrent users at ~20 tok/s each?")  # fmt: skip
    assert head(text).startswith("**About 4 users at once at 20 tokens/s each"), head(text)
    assert "Memory alone holds 11 streams" in text


def test_a_count_of_things_is_no_model_size(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Context: we run nightly batch jobs that embed ~5M short texts "
                "with e5-large. Currently on a T4 and it takes forever. Would an A10G be "
                "meaningfully faster, and by how much?")  # fmt: skip
    assert head(text).startswith("**Yes: pick the NVIDIA A10G") and "x as fast" in head(text)
    assert "generic" not in text


def test_most_concurrent_sessions_of_a_context(catalog: Catalog) -> None:
    q = understand("Dear support, what is the maximum number of concurrent 8k-context sessions "
                   "we can run for Llama 3.1 8B in bf16 on a single L40S with vLLM?",
                   catalog)  # fmt: skip
    assert q.target == "max_batch" and q.context == 8192, (q.target, q.context)


def test_an_attempt_asked_as_foolish(rules_advisor: Advisor) -> None:
    assert head(_ask(rules_advisor, "am i crazy to run llama 3.1 8b q4 on a 3060?")).startswith(
        "**No, not crazy: "
    )
    assert head(_ask(rules_advisor, "is it stupid to try llama 70b fp16 on one 4090")).startswith(
        "**Yes, as it stands: "
    )


def test_a_kwh_price_in_german(catalog: Catalog) -> None:
    q = understand("Hallo, wie viel Strom verbraucht eine RTX 4090 im Jahr, wenn sie 8 Stunden "
                   "am Tag läuft, bei 0,35 € pro kWh?", catalog)  # fmt: skip
    assert q.usd_per_kwh == 0.35 and q.currency == "€", (q.usd_per_kwh, q.currency)


def test_which_one_of_the_two_cards_said_before(rules_advisor: Advisor) -> None:
    text = _thread(rules_advisor, "I'm choosing between an RTX 4080 Super and a used 3090 for "
                   "stable diffusion and some llm stuff", "which one is better for sdxl "
                   "training loras?")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 4080 SUPER") and "3090" in head(
        text
    ), head(text)


def test_each_card_on_its_own_cloud_per_hour(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "what does a pair of 3090s cost per hour on vast vs an a100 on "
                "runpod?")  # fmt: skip
    assert "Vast.ai" in head(text) and "RunPod" in head(text) and "a100" in head(text), head(text)


def test_a_price_to_buy_in_another_money_than_the_rent(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Hej! Vi funderar på att köpa ett RTX 4090 för 22 000 kr eller "
                "hyra en A100 för 1,10 dollar i timmen. Vi kör ungefär 40 timmar i månaden. Vad "
                "lönar sig?")  # fmt: skip
    assert "$22,000" not in text and "22,000 SEK to buy is about $" in text, text[-400:]


def test_the_users_hourly_price_on_each_variant(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "boss wants numbers: fine-tune llama 3.1 8b with lora on 50k "
                "examples (avg 600 tokens), 3 epochs, one a100 80gb. time + cost at "
                "$1.79/hr?")  # fmt: skip
    assert text.startswith("**At your price: ") and "$1.79 per GPU-hour" in head(text)
    assert "$2.00/hour" not in text, text[:900]


def test_a_time_per_image_over_the_limit_is_no(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "Ist die RTX 5080 für Flux dev schnell genug, so unter 10 "
                "Sekunden pro Bild?")  # fmt: skip
    assert head(text).startswith("**No: about ") and "over your 10 s" in head(text), head(text)


def test_fp8_in_hardware_like_a_series(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "using sd3.5 fp8 in comfyui on my 3080. it loads the fp8 "
                "checkpoint fine so the 3080 does fp8 in hardware like the 40 series, right? "
                "wondering if a 4080 would actually be any faster")  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 3080"), head(text)


def test_a_dgx_station_holds_four(catalog: Catalog) -> None:
    q = understand("we've got a DGX Station A100 (4x 80GB), can it full-finetune llama 3 8b?",
                   catalog)  # fmt: skip
    assert q.gpus[0].count == 4 and q.gpus[0].ids == ("a100-sxm4-80gb",), q.gpus
    assert understand("one DGX A100, how long to train resnet-50?", catalog).gpus[0].count == 8


def test_two_memory_sizes_in_bare_gigabytes(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "a100 sxm 40g vs 80g — does the extra memory speed up llama 13b "
                "inference?")  # fmt: skip
    assert head(text).startswith("**Not the extra memory itself: ") and "80GB" in head(text)


def test_a_shortfall_asked_is_answered_the_way_it_is_asked(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "do I need to upgrade from my 3060 12gb to run qwen2.5 14b at q4?")
    assert head(text).startswith("**It holds it as it is: "), head(text)
    text = _ask(rules_advisor, "would 8gb vram be a bottleneck for yolov8 training?")
    assert head(text).startswith("**It holds it as it is: "), head(text)
    text = _ask(rules_advisor, "should I wait for the 5090 or buy a 4090 now for training loras?")
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 5090"), head(text)


def test_a_split_slower_than_one_card_explained(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "ELI5 why my 70b model is slow on 2 gpus but fast on 1 big one")
    assert head(text).startswith("**A model split across two cards runs slower"), head(text)


def test_one_shop_price_said_for_both_cards(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "I have $600 for a card. Both the 4060 Ti 16GB and the 5060 Ti "
                "16GB are about $450 at my local shop. Which one for running llama 3.1 8b with "
                "ollama?")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA GeForce RTX 5060 Ti 16GB") and (
        "at the same price" in head(text)
    ), head(text)


def test_engines_on_amd_mixed_vendors_and_temperatures(rules_advisor: Advisor) -> None:
    assert head(_ask(rules_advisor, "does vllm run on amd cards?")).startswith("**ROCm is AMD's")
    text = _ask(rules_advisor, "can I mix an nvidia and an amd gpu for llama.cpp?")
    assert head(text).startswith("**Yes, through llama.cpp's Vulkan build"), head(text)
    text = _ask(rules_advisor, "my 3090 hits 83C under load training, is that ok?")
    assert head(text).startswith("**Sustained temperatures"), head(text)


def test_the_card_named_in_the_second_question(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "two questions: 1) how much vram for mistral nemo 12b at q8? 2) "
                "will it fit on my 4070 super?")  # fmt: skip
    assert "4070 SUPER" in head(text) and "14.4 GB" in text, text[:900]


def test_two_optimizers_weighed(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "full finetune qwen2.5 1.5b on a 4090 — will adamw fit or do i "
                "need 8bit adam?")  # fmt: skip
    assert head(text).startswith("**No with AdamW, yes with 8-bit AdamW"), head(text)


def test_rent_or_buy_of_a_job_with_no_card_named(rules_advisor: Advisor) -> None:
    text = _ask(rules_advisor, "we're a startup, 5 engineers, want to self-host a coding assistant "
                "(qwen2.5-coder 32b). buy a box or rent? budget 15k")  # fmt: skip
    assert "No card named: " in text and "within your $15,000" in text, text[:900]
    assert "pays off after about" in text


def test_counts_said_as_a_couple_or_a_dozen(catalog: Catalog) -> None:
    assert understand("a couple of 3090s enough for llama 70b at q4?", catalog).gpus[0].count == 2
    assert understand("is a dozen H100s overkill for serving mixtral to 200 users?",
                      catalog).gpus[0].count == 12  # fmt: skip
    assert understand("half a dozen A100s for pretraining a 1b on 20B tokens, how long?",
                      catalog).gpus[0].count == 6  # fmt: skip


def test_an_image_ui_named_is_an_image_job(catalog: Catalog) -> None:
    q = understand("RTX 5060 Ti 8GB or 16GB for ComfyUI?", catalog)
    assert q.models and q.models[0].family == "diffusion", q.models
