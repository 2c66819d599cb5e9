"""Stop 77, the kinds the spent blind sets (advice_fresh31 and 33, natural fresh28, 29 and 33)
showed: a data set counted in things of the user's own name; a hello that only tries the line,
and a chat app's stand-in for a voice note; cards counted "of em"; a night's hours by the clock
in words; hours each of things counted and each run's hours repeated; dollars of the Caribbean,
Australia and New Zealand said in words, and the Aruban florin; a price said as "sold for", "goes
for" or "on sale" set against renting or buying; a method refused ("I don't want LoRA"); two cards
asked which has more of a figure; one card said in the turn before; a hello before a sheet's
figure; weights and cache across cards together; no GPU at home for a job
the CPU does not do; the cheapest way to a sized job; NVLink asked why; the tensor cores' rate
against FP32; a model's sizes beside why memory matters; the question asked again in the same
message; a speed asked with no model; contexts in the plural; one thing at a time; full precision
with the format said; a card grabbed for a price; how much faster in a thread, "is it double";
a tax on a bill; counts of time in words and hours per working day; a day's answers against what
a card serves; fine-tuning a diffusion model assumes LoRA; a laptop card said to be the desktop
one; one kind of memory said to be the only use; whether a circuit carries the box; a multiple in
words; MIG slices for a model said by its parameters; amounts said loosely ("$2,500ish", "a buck
twenty", "twenty-two hundred", "16 Go"); a card compared for a model of a size; a supply too small
and the one that would do; one card asked, then the fewest; hours a quarter over a year; the
full-size model; a seller's price judged beside a figure; an office PC's CPU; no power cable;
Somali, Malagasy, Papiamento, Kannada, Breton, Geordie and Jamaican words."""

from __future__ import annotations

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


def test_a_data_set_counted_in_things_of_any_name(catalog: Catalog) -> None:
    for said, count in (
        ("we've 84,000 tagged sonar pings and want to train resnet-50 for 40 epochs on a 4090, "
         "how long?", 84_000),
        ("fine-tune bert-base on 12k support transcripts, 4 epochs, t4, how long", 12_000),
        ("train yolov8s on 2,500 drone frames for 150 epochs on a 3090, time?", 2_500),
    ):  # fmt: skip
        q = understand(said, catalog)
        assert q.dataset_samples == count, (said, q.dataset_samples)
    # a size, a price, a length or a head count is no count of the data
    for said in (
        "lora llama 3.1 8b at 4096 context for 3 epochs on a 4090, how long?",
        "train resnet-50 at 224 resolution for 90 epochs on an a100, batch 256",
    ):
        assert understand(said, catalog).dataset_samples is None, said
    q = understand("train resnet-50 at 224 x 224 for 30 epochs on an a100, 12 students share "
                   "it, how long per epoch?", catalog)  # fmt: skip
    assert q.dataset_samples is None


def test_a_counted_data_set_gives_the_run_its_hours(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we've 84,000 tagged sonar pings and want to train "
                        "resnet-50 for 40 epochs on a 4090. how long?").text  # fmt: skip
    assert head(text).startswith("**About") and "of wall time" in head(text), head(text)


def test_a_hello_that_only_tries_the_line(catalog: Catalog) -> None:
    for said in ("just testing this works before I ask my real question :)",
                 "Hello there. I've no idea what to ask yet, I'm only saying hi."):  # fmt: skip
        assert understand(said, catalog).intent == "greeting", said
    for said in ("🎙 Audio message (1:12)", "<Media omitted>", "voice note"):
        assert understand(said, catalog).intent == "invalid", said
    # a question after the words is still the question
    assert understand("just testing whether a 3090 runs qwen 14b", catalog).intent == "fit"


def test_cards_counted_of_em(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "one rtx a6000 here. qwen2.5 72b in fp16, does it fit?",
        "and with four of em?",
    )[-1]
    assert "4 x NVIDIA RTX A6000" in head(text), head(text)


def test_a_night_said_by_the_clock_in_words(catalog: Catalog) -> None:
    q = understand("the rig runs from 11 at night till 7 in the morning, 20 nights a month, "
                   "my 3090, 25p a unit: monthly cost?", catalog)  # fmt: skip
    assert q.hours == 160, q.hours


def test_hours_each_of_things_counted_and_runs_repeated(catalog: Catalog) -> None:
    q = understand("12 weddings booked, renting an l40s at $1.10 an hour, maybe 3 hrs a wedding "
                   "for the edits. total?", catalog)  # fmt: skip
    assert q.hours == 36, q.hours
    q = understand("an h100 at $2.20 an hour; each run takes about 5 hours and we'll need to do "
                   "it 4 times. cost?", catalog)  # fmt: skip
    assert q.hours == 20, q.hours


def test_small_coins_with_their_country_first(catalog: Catalog) -> None:
    q = understand("rent an a10 at 75 US cents a hour for a month, how much?", catalog)
    assert q.user_price_usd_per_hour == 0.75


def test_caribbean_dollars_and_the_florin_are_not_us_dollars(rules_advisor: Advisor) -> None:
    for said, code in (
        ("I have TT$9,000 for a card to run mistral 7b, which one?", "TTD"),
        ("Mi tin Afl. 1.800 pa un tarheta pa llama 3.1 8b, cua?", "AWG"),
    ):
        text = ask_grounded(rules_advisor, said).text
        assert code in text, text  # the budget said in its own money, not read as dollars
        assert "$9,000" not in text and "$1,800" not in text, text


def test_a_price_sold_for_set_against_renting(catalog: Catalog) -> None:
    q = understand("a new 5080 is sold for $1,400 here, or should we rent one at $0.45 an "
                   "hour? 5 hours a day. which works out cheaper?", catalog)  # fmt: skip
    assert q.intent == "rent_or_buy" and q.purchase_usd == 1400, (q.intent, q.purchase_usd)


def test_a_method_refused(catalog: Catalog) -> None:
    q = understand("I don't want lora, I want a full fine-tune of qwen2.5 3b in bf16 on a 5090. "
                   "fits?", catalog)  # fmt: skip
    assert q.workload == "finetune-full", q.workload


def test_which_of_two_cards_has_more(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "why hello. 4080 super or 3090: which one has more "
                        "memory and which is faster on bandwidth?").text  # fmt: skip
    assert "24 GB" in head(text) and "936 GB/s" in head(text), head(text)


def test_one_card_said_in_the_turn_before(rules_advisor: Advisor) -> None:
    text = thread_of(
        rules_advisor,
        "qwen2.5 7b in fp8 on vllm, one L40S, 20 users at once. fits?",
        "same again but the 72b",
    )[-1]
    assert head(text).startswith("**No"), head(text)


def test_a_hello_before_a_figure_asked(catalog: Catalog) -> None:
    q = understand("hiya? how much power does a 4090 draw flat out, the fuse keeps going", catalog)
    assert q.intent == "spec" and "tdp_w" in q.fields, (q.intent, q.fields)


def test_the_cache_and_weights_of_a_split_model_together(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "mistral 7b in bf16 for 40 users at 8k context each: how "
                        "many L4s do we need?").text  # fmt: skip
    assert "together) in all, split across" in text, text


def test_no_gpu_at_home_for_training_is_a_card_to_rent(catalog: Catalog) -> None:
    q = understand("cheapest way to fine-tune mistral 7b on 3k examples? I have no gpu at all",
                   catalog)  # fmt: skip
    assert not q.cpu_only and q.location == "cloud", (q.cpu_only, q.location)
    # inference on no GPU stays the CPU's question
    assert understand("no gpu here, can I run llama 3.2 1b on my cpu?", catalog).cpu_only


def test_the_cheapest_way_to_a_sized_job_is_its_cost(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "cheapest way to lora llama 3.1 8b on 20k examples in "
                        "the cloud?").text  # fmt: skip
    assert "Ranked by cost per unit of work" in text, text


def test_nvlink_asked_why_beside_tensor_parallel(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "why is nvlink needed for tensor parallel serving of a "
                        "405b? would pcie do?").text  # fmt: skip
    assert head(text).startswith("**NVLink"), head(text)
    assert "900 GB/s in both directions together" in text, text


def test_the_tensor_rate_against_fp32(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "spec sheets list bf16 tensor tflops and fp32 cuda core "
                        "numbers, which one matters for training?").text  # fmt: skip
    assert head(text).startswith("**Tensor cores"), head(text)


def test_why_memory_matters_for_a_model_named(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "why does vram matter more than compute for running "
                        "qwen2.5 32b locally?").text  # fmt: skip
    assert "Qwen2.5-32B's weights" in text, text


def test_somali_malagasy_and_papiamento_words(catalog: Catalog) -> None:
    q = understand("Imisa kaar oo L40S ah ayaan ugu yaraan u baahanahay si aan Qwen2.5 72B "
                   "bf16 ugu shaqeysiiyo?", catalog)  # fmt: skip
    assert (q.intent, q.target) == ("solve", "min_gpus"), (q.intent, q.target)
    q = understand("Firy ny L4 ilaina hampandeha Llama 3.1 8B amin'ny bf16?", catalog)
    assert (q.intent, q.target) == ("solve", "min_gpus"), (q.intent, q.target)
    q = understand("Cuanto token pa segundo Qwen2.5 7B lo duna riba mi RTX 3060?", catalog)
    assert q.intent == "speed", q.intent


def test_geordie_and_patois_words(catalog: Catalog) -> None:
    q = understand("hoo much is the 3090 costin us a month, runs 5 hours a day, 24p a unit",
                   catalog)  # fmt: skip
    assert q.intent == "cost", q.intent
    q = understand("rent one A10 fi di whole month day an night at $0.60 an hour, how much dat "
                   "a go cost?", catalog)  # fmt: skip
    assert q.intent == "cost" and q.user_price_usd_per_hour == 0.6, q.intent


def test_the_question_asked_again_is_one_question(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "could i lora phi-3 mini on my 3060 12gb to learn our "
                        "menu? will it fit or not?").text  # fmt: skip
    assert text.count("**Yes") + text.count("**No") == 1, text


def test_kannada_words(catalog: Catalog) -> None:
    q = understand("ನಮಗೆ llama 3.1 8b ಓಡಿಸಬೇಕು. ₹70,000 ಬಜೆಟ್. ಯಾವ GPU ತಗೊಳ್ಳೋದು ಒಳ್ಳೇದು?", catalog)
    assert q.intent == "recommend" and q.currency.strip() == "INR", (q.intent, q.currency)
    q = understand("ಹೊಸ RTX 4060 ₹30,000 ಗೆ, ಸರಿಯಾದ ಬೆಲೆನಾ?", catalog)
    assert q.condition == "new" and q.intent == "buy", (q.condition, q.intent)


def test_a_speed_asked_with_no_model_asks_which(rules_advisor: Advisor) -> None:
    for said in ("how quick would it run on a 3090?", "tok/s on an l40s?"):
        text = ask_grounded(rules_advisor, said).text
        assert head(text).startswith("Which model?"), text
    # a card's own speed figures are its sheet
    assert "GB/s" in head(ask_grounded(rules_advisor, "how fast is the 3090?").text)


def test_contexts_in_the_plural(catalog: Catalog) -> None:
    q = understand(
        "qwen2.5 14b in fp8 on an l40s with contexts of up to 24,000 tokens, ok?", catalog
    )
    assert q.context == 24_000, q.context


def test_one_thing_at_a_time_is_one_user(catalog: Catalog) -> None:
    for said in ("mistral 7b on a 4070, one email at a time, nothing in parallel: tok/s?",
                 "qwen2.5 7b on an a10, no concurrent requests, how fast?"):  # fmt: skip
        assert understand(said, catalog).concurrency == 1, said


def test_full_precision_with_the_format_said(catalog: Catalog) -> None:
    q = understand("phi-3 mini full precision (fp16 i believe) on a 3060, fits?", catalog)
    assert q.precision == "fp16", q.precision


def test_a_card_grabbed_for_a_price_is_paid_not_a_budget(catalog: Catalog) -> None:
    q = understand("snagged a used 3080 ti for 480 bucks, can it run gemma 3 12b?", catalog)
    assert q.budget is None and q.purchase_usd == 480, (q.budget, q.purchase_usd)


def test_what_a_card_goes_for_is_its_price(catalog: Catalog) -> None:
    assert understand("what's a 5090 go for these days?", catalog).intent == "buy"


def test_how_much_faster_in_a_thread_weighs_the_two(rules_advisor: Advisor) -> None:
    *_, text = thread_of(rules_advisor, "i run mistral small 24b q4_k_m on my 3090",
                         "how much faster would a 4090 be for that, is it double?")  # fmt: skip
    assert head(text).startswith("**No: about") and "not 2x" in head(text), head(text)


def test_a_tax_added_to_a_bill(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "an l40s at $1.10 an hour for 40 hours, plus 8% sales "
                        "tax?").text  # fmt: skip
    assert "With your 8% tax: **$47.52**" in text, text


def test_dollars_of_a_country_said_in_words(catalog: Catalog) -> None:
    for said, code in (
        ("got about 3,000 Aussie dollars for a card for llama 3.1 8b, which?", "AUD"),
        ("eight hundred NZ bucks for a gpu to run sdxl, which one?", "NZD"),
    ):
        q = understand(said, catalog)
        assert q.currency.strip() == code and q.budget is not None, (said, q.currency, q.budget)


def test_counts_of_time_in_words(catalog: Catalog) -> None:
    q = understand("a 4090 at $0.50 an hour, three hours a day, four days a week. yearly cost?",
                   catalog)  # fmt: skip
    assert q.hours == 624, q.hours
    q = understand("an a10 at $0.60 an hour, 5 hours per working day, 20 days a month. one "
                   "month?", catalog)  # fmt: skip
    assert q.hours == 100, q.hours


def test_a_days_answers_against_what_a_card_serves(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "qwen2.5 7b bf16 on an l4, enough for 20,000 replies a "
                        "day at 200 output tokens each?").text  # fmt: skip
    assert head(text).startswith("**Yes, for 20,000 a day"), head(text)


def test_fine_tuning_a_diffusion_model_assumes_lora(catalog: Catalog) -> None:
    assert (
        understand("fine-tune sdxl on 40 pics of my cat on a 3060", catalog).workload == "finetune"
    )
    assert understand("sdxl dreambooth on a 3090", catalog).workload == "finetune-full"


def test_a_laptop_card_said_to_be_the_desktop_one(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a mate is flogging his gaming laptop, says its RTX 4090 "
                        "is the same as the desktop card. true?").text  # fmt: skip
    assert head(text).startswith("**No: the NVIDIA GeForce RTX 4090 Laptop GPU"), head(text)


def test_one_kind_of_memory_said_to_be_the_only_use(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my boss says GDDR is just gaming memory and only HBM "
                        "cards are any good for ML. is he right?").text  # fmt: skip
    assert head(text).startswith("**No: GDDR cards run AI work too"), head(text)


def test_a_circuit_asked_whether_it_carries_the_box(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "four 3090s in one box on a 15 amp 120 volt circuit: "
                        "can the circuit handle it at full tilt?").text  # fmt: skip
    assert head(text).startswith("**No: about"), head(text)


def test_a_multiple_said_in_words(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "the vendor says an h100 is five times faster than my "
                        "3090 for one user chatting with llama 3.1 8b. really?").text  # fmt: skip
    assert head(text).startswith("**No: about") and "5x asked" in head(text), head(text)


def test_mig_slices_for_a_model_said_by_its_parameters(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "can each of the 7 MIG slices of an A100 80GB run a "
                        "7-billion-parameter model in 16-bit?").text  # fmt: skip
    assert head(text).startswith("**No, not in the smallest slices"), head(text)


def test_amounts_said_loosely(catalog: Catalog) -> None:
    q = understand("budget is $2,500ish for a card to run qwen2.5 14b, which one?", catalog)
    assert q.budget is not None and q.budget.usd == 2500, q.budget
    q = understand("rent an l4 at a buck twenty an hour or buy a 4070 for twenty-two hundred, 6 "
                   "hours a day: which?", catalog)  # fmt: skip
    assert (q.user_price_usd_per_hour, q.purchase_usd) == (1.2, 2200), (
        q.user_price_usd_per_hour,
        q.purchase_usd,
    )
    q = understand("une RTX 4080 de 16 Go suffit pour mistral 7b ?", catalog)
    assert q.gpus and q.gpus[0].ids == ("rtx-4080",), q.gpus


def test_a_card_on_sale_is_its_price_not_a_budget(catalog: Catalog) -> None:
    q = understand("my 3080 runs a 7b fine but the 4070 super is on sale for $560, faster for "
                   "that?", catalog)  # fmt: skip
    assert q.budget is None and q.purchase_usd == 560, (q.budget, q.purchase_usd)


def test_two_cards_compared_for_a_model_of_a_size(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "is a 3090 faster than a 4070 for a 13b model?").text
    assert "by the decode speed" in head(text) or "decode speed of Generic 13B" in head(text), text


def test_a_supply_too_small_says_what_would_do(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "is a 500w psu enough for a 4080?").text
    assert head(text).startswith("**No:") and "of supply keeps it at 80%" in head(text), head(text)


def test_one_card_asked_then_the_fewest(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "I think qwen2.5 72b in bf16 won't fit on a single "
                        "h200. confirm, and the minimum number of h200s?").text  # fmt: skip
    assert head(text).startswith("**No, not on one card:"), head(text)


def test_hours_a_quarter_over_a_year(catalog: Catalog) -> None:
    q = understand("an l40s at $1.00 per GPU-hour, ~200 GPU-h per quarter. annual cost?", catalog)
    assert q.hours == 800, q.hours


def test_the_full_size_model_is_unquantized(catalog: Catalog) -> None:
    q = understand("phi-3 mini on a 2080 ti in its normal full-size form, not a squished "
                   "version?", catalog)  # fmt: skip
    assert q.precision == "fp16", q.precision  # (Turing has no bf16)
    q = understand("sdxl on a 4060 ti, the full-size model, without any of the squashing", catalog)
    assert q.precision == "bf16", q.precision


def test_a_sellers_price_judged_beside_a_figure(catalog: Catalog) -> None:
    q = understand("my neighbour will sell me his 2080 ti for £180. is that fair, and how much "
                   "memory has it got?", catalog)  # fmt: skip
    assert q.intent == "buy" and q.purchase_usd == 180, (q.intent, q.purchase_usd)


def test_an_office_pc_counts_an_office_cpu(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "office pc with an i5-13400 and a 450w psu, can it take a "
                        "4060 ti?").text  # fmt: skip
    assert "65 W CPU" in head(text), head(text)


def test_no_power_cable_leaves_the_slot_powered_card(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "sff box, 350 W supply, no pcie power cable: rtx 4000 "
                        "sff ada or rtx 4060 ti for llama 3.1 8b?").text  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA RTX 4000 SFF Ada"), head(text)
