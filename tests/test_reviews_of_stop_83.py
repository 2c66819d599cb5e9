"""Stop 83, the kinds the spent blind sets (natural fresh38, advice_fresh39) showed: hours said in
compound words ("three hundred and forty hours"); "dos"/"duas" before a card; cards the user got
already ("got a p40 off ebay") are no purchase; "not second hand" in other orders; a friend who
"sells" a card; dollars asked for ("how much is that in dollars?") are no dollars given; a price in
reais beside a card bought; a pace a minute or an hour measured ("my test run did 3 a minute");
the lowest a seller takes ("won't go below $700") in a thread; "which one finishes first" picks by
time; the job's pace beside each card's time; a sequence length kept in the speed ratio; a
deadline "by morning"; a multiple claimed "at everything" against the datasheet; no price of a
few dollars is a purchase; a count of GPUs said before the cards priced; a card "in the second
slot" joins the one before; "100k-image" and "4090-Kiste"; a GPT-2 run reproduced is a training
run; a PCIe card's slot bandwidth; no LoRA note on a datasheet answer; phrases of Spanish,
Polish, Turkish, Vietnamese, German and Portuguese."""

from __future__ import annotations

import pytest

from advisor.agent.understand import normalise, understand
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


def test_hours_in_compound_words_are_read_whole() -> None:
    assert "520 hours" in normalise("about five hundred and twenty hours of interviews")
    assert "2 hours a day" in normalise("two hours a day, five days a week")
    assert "1500 hours" in normalise("fifteen hundred hours of podcasts")


def test_audio_hours_said_in_words_size_the_job(catalog: Catalog) -> None:
    q = understand("our archive holds two hundred and sixty hours of oral history tapes. whisper "
                   "large-v3 with faster-whisper on an rtx a5000: how long to get through it?",
                   catalog)  # fmt: skip
    assert q.audio_hours == 260, q.audio_hours


def test_two_cards_in_spanish_and_portuguese_are_counted(catalog: Catalog) -> None:
    q = understand("tengo dos 4090 en la torre, ¿cuántos tokens por segundo saca qwen 2.5 32b "
                   "en q4?", catalog)  # fmt: skip
    assert q.gpus and q.gpus[0].count == 2, q.gpus
    q = understand("comprei duas 3090 usadas, dá pra rodar o llama 3 70b em q4?", catalog)
    assert q.gpus and q.gpus[0].count == 2, q.gpus


def test_a_card_got_already_is_no_purchase(catalog: Catalog) -> None:
    q = understand("picked up an old tesla m40 off ebay last month. what speed should mistral 7b "
                   "q4 give in llama.cpp? mine does 11 t/s", catalog)  # fmt: skip
    assert q.intent == "speed", q.intent
    q = understand("armé un rig con dos 3060 usadas y quiero correr mixtral en q4. ¿entra o no?",
                   catalog)  # fmt: skip
    assert q.intent == "fit" and q.gpus[0].count == 2, (q.intent, q.gpus)


def test_not_second_hand_in_other_orders_means_new(catalog: Catalog) -> None:
    for text in (
        "budget 900 euros, the card must be new, second hand no, for sdxl training",
        "mera budget 50000 rupees hai, used nahi chahiye, naya card for llms",
        "around $500, nothing from marketplace please, no marketplace cards at all",
    ):
        assert understand(text, catalog).condition == "new", text


def test_a_friend_who_sells_a_card_sells_it_used(catalog: Catalog) -> None:
    q = understand("my cousin sells me his 4080 for 700 euros, fair?", catalog)
    assert q.condition == "used" and q.intent == "buy", (q.condition, q.intent)


def test_dollars_asked_for_are_not_the_users_money(advisor: Advisor) -> None:
    text = _ask(advisor, "a coworker sells his rtx 3090 for 550 euros. good deal? and what's "
                         "that in dollars?")  # fmt: skip
    assert "€550" in head(text) and "$" in head(text), head(text)


def test_a_price_in_reais_beside_a_card_bought(advisor: Advisor) -> None:
    text = _ask(advisor, "vi uma rtx 3090 usada por R$ 3.900 na olx. vale a pena ou tá "
                         "caro? quanto dá em dólar?")  # fmt: skip
    assert "R$3,900" in head(text) and "BRL" in head(text), head(text)


def test_a_pace_measured_a_minute_prices_the_job(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "rented an a6000 at $0.80/h for sdxl catalogue renders, 6,000 of them. "
        "the first batch came out at 5 images a minute. what will it cost me?",
    )
    assert "20 hours" in text and "$16.00" in text, text


def test_a_pace_changed_in_a_thread_replaces_the_one_before(advisor: Advisor) -> None:
    answers = thread_of(advisor,
                        "l4 at $0.70 an hour, 12,000 flux schnell images, my test did 6 a "
                        "minute. total cost?",
                        "ok with a smaller resolution it's now doing 10 images a minute. redo "
                        "it")  # fmt: skip
    assert "20 hours" in answers[1] and "$14.00" in answers[1], answers[1]


def test_the_lowest_a_seller_takes_replaces_the_price(advisor: Advisor) -> None:
    answers = thread_of(advisor,
                        "buy a used a5000 for $1,100 or rent one at $0.30 an hour? about 20 hours "
                        "a week, leave power out. when does buying pay off?",
                        "seller says he won't go below $1,300. same calculation?")  # fmt: skip
    assert "$1,300" in answers[1] and "4,333 hours" in answers[1], answers[1]


def test_which_finishes_first_picks_by_time(advisor: Advisor) -> None:
    text = _ask(advisor, "fine-tuning roberta-large on 300k pairs, seq len 256, 3 epochs, fp16: "
                         "my 3090 or a rented a100 80gb, which gets it done sooner?")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA A100") and "done first" in head(text), head(
        text
    )
    assert "sequences/s" in text, text


def test_the_speed_ratio_keeps_the_sequence_length(advisor: Advisor) -> None:
    text = _ask(advisor, "bert-large fine-tuning at seq len 512, fp16: is an a100 40gb pcie "
                         "faster than a 3090?")  # fmt: skip
    short = _ask(advisor, "bert-large fine-tuning at seq len 128, fp16: is an a100 40gb pcie "
                          "faster than a 3090?")  # fmt: skip
    assert head(text) != head(short), (head(text), head(short))


def test_a_deadline_by_morning_gets_a_yes_or_no(advisor: Advisor) -> None:
    text = _ask(advisor, "lora on mistral 7b, 8k samples of ~500 tokens, 2 epochs, on my 3090. "
                         "start it tonight, done by morning (about 10 hours)?")  # fmt: skip
    assert head(text).startswith(("**Yes", "**No")) and "deadline" in head(text), head(text)


def test_a_multiple_claimed_at_everything_is_checked_on_each_figure(advisor: Advisor) -> None:
    text = _ask(advisor, "my brother insists the 4090 is double a 3090 at everything, memory, "
                         "bandwidth and compute. true?")  # fmt: skip
    first = head(text)
    assert first.startswith("**No: not 2x on the datasheet"), first
    assert text.count("not 2x on the datasheet:") == 1, text
    assert "(1x)" in first and "GB/s" in first and "TFLOPS" in first, first


def test_a_price_of_a_few_dollars_is_an_hourly_rent(catalog: Catalog) -> None:
    q = understand("need 4 cards for two weeks: h100 sxm at $2.40 or a100 80gb at $1.30, "
                   "which?", catalog)  # fmt: skip
    assert len(q.gpu_prices) == 2 and not q.gpu_purchase_prices, (
        q.gpu_prices,
        q.gpu_purchase_prices,
    )


def test_the_count_said_before_priced_cards_sizes_each(advisor: Advisor) -> None:
    text = _ask(advisor, "we'll rent 6 GPUs to full fine-tune llama 3 8b with fsdp in bf16. a100 "
                         "80gb at $1.50/gpu-hr or h100 sxm at $2.40/gpu-hr: which?")  # fmt: skip
    assert "6 GPUs each" in text and "8 GPUs each" not in text, text
    assert "Between the 6 cards of each" in text, text  # their links differ: 600 and 900 GB/s


def test_a_card_in_the_second_slot_joins_the_first(advisor: Advisor) -> None:
    answers = thread_of(
        advisor,
        "will llama 3 70b q4_k_m fit on my 3090 alone?",
        "what if i put my spare 3080 10gb into the second slot, does it go?",
    )
    assert "together" in head(answers[1]), head(answers[1])


def test_things_counted_in_one_word_and_german_compounds(catalog: Catalog) -> None:
    q = understand("a 20k-image defect dataset, resnet50, 30 epochs on a 4070 ti: how long?",
                   catalog)  # fmt: skip
    assert (q.dataset_samples or q.images) == 20000, (q.dataset_samples, q.images)
    q = understand("meine 3090-Workstation zieht 450 Watt, was kostet das im Monat bei 35 Cent?",
                   catalog)  # fmt: skip
    assert q.gpus and q.gpus[0].ids == ("rtx-3090",), q.gpus


def test_a_reproduced_gpt2_run_is_training(catalog: Catalog) -> None:
    q = understand("could i reproduce gpt-2 124m on a single 3090 in a week?", catalog)
    assert q.workload == "train", q.workload
    q = understand("same 5B token run on two 4090s, how many hours?", catalog)
    assert q.workload == "train" and q.train_tokens == 5e9, (q.workload, q.train_tokens)


def test_a_card_without_nvlink_gives_its_slot_bandwidth(advisor: Advisor) -> None:
    text = _ask(advisor, "does the rtx 4080 super support nvlink between two cards? want to "
                         "fine-tune across both")  # fmt: skip
    assert "GB/s each way" in text, text
    assert "LoRA assumed" not in text, text


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("Mamy do wyboru RTX 4070 albo RTX 4080. Ile pamięci ma każda z nich?", "compare"),
        (
            "RTX 3090 mi alayım RTX 4070 Ti mı? bellek bant genişlikleri ne kadar?",  # noqa: RUF001
            "compare",
        ),
        (
            "Ich will Mistral 7B auf meiner 4070 laufen lassen, nur ich als Nutzer. Wie viele "
            "Tokens pro Sekunde?",
            "speed",
        ),
        ("3090에서 SD 1.5 이미지 생성하는 데 몇 초 걸려요?", "speed"),
        ("Mistral 7B को L4 पर चलाना है, कितने टोकन प्रति सेकंड मिलेंगे?", "speed"),
        ("is the rtx a6000 worth it over two 3090s for 70b inference?", "compare"),
        ("Tensor core là gì vậy? card 4060 có không?", "explain"),
    ],
)
def test_phrases_of_other_languages(catalog: Catalog, text: str, intent: str) -> None:
    assert understand(text, catalog).intent == intent, text


def test_a_run_started_at_night_is_judged_against_the_morning(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "efficientnet-b0 on 60k photos at 224px, 20 epochs with amp on a 3080. "
        "if i kick it off at 10pm, will it be done when i'm back at 7?",
    )
    assert head(text).startswith(("**Yes", "**No")) and "deadline" in head(text), head(text)


def test_will_it_finish_inside_a_session_asks_the_time(catalog: Catalog) -> None:
    q = understand("distilbert on 400k reviews, seq 256, 2 epochs, fp16 on a kaggle p100. would "
                   "the run finish within one notebook session?", catalog)  # fmt: skip
    assert q.intent == "train_time", q.intent


def test_the_smallest_card_is_named_when_the_one_asked_falls_short(advisor: Advisor) -> None:
    text = _ask(advisor, "flux dev at full bf16 with no offload, 1024px: enough on a 4080 super? "
                         "if it doesn't fit, which card should i look at instead?")  # fmt: skip
    assert head(text).startswith("**No"), head(text)
    assert "smallest single cards that hold it" in text and "A100" not in text, text


def test_a_layer_split_over_a_narrow_slot_keeps_its_decode(advisor: Advisor) -> None:
    text = _ask(
        advisor,
        "second 4090 hangs off the chipset at pcie 4.0 x4. llama 3.3 70b q4_k_m "
        "split across both in llama.cpp: does the x4 link kill my tokens/s?",
    )
    assert head(text).startswith("**No: llama.cpp splits"), head(text)
    assert "x4 slot moves" in text, text


def test_a_slot_width_asked_without_cards_is_the_pcie_principle(advisor: Advisor) -> None:
    text = _ask(advisor, "does running a card at x4 instead of x16 hurt token generation in "
                         "ollama?")  # fmt: skip
    assert "PCIe" in head(text) and "A6000" not in text, text


def test_a_server_card_in_a_desktop_is_said_to_need_a_fan(advisor: Advisor) -> None:
    text = _ask(advisor, "my gaming pc has room for one more card. tesla t4 for $400 or a used "
                         "3060 12gb for $230 for llama 3 8b q4?")  # fmt: skip
    assert "no fan of its own" in text, text


def test_an_engine_not_modelled_is_said(advisor: Advisor) -> None:
    text = _ask(advisor, "qwen2.5 32b 4bit in mlx-lm on an m3 max 64gb: tokens per second?")
    assert "MLX (mlx-lm) is not an engine the calculator models" in text, text


def test_a_long_context_names_its_kv_cache_in_a_pick(advisor: Advisor) -> None:
    text = _ask(advisor, "cheapest cloud gpu for llama 3.1 8b in bf16 with a 32k context, one "
                         "user at a time?")  # fmt: skip
    assert "KV cache at 32,768 tokens" in head(text), head(text)


def test_two_jobs_run_in_turn_keep_the_larger_one(advisor: Advisor) -> None:
    text = _ask(advisor, "new nvidia card, budget $600, for 8b llms and also flux schnell in "
                         "fp8. which one?")  # fmt: skip
    assert "also holds FLUX" in text, text


def test_a_second_job_is_weighed_on_each_card_priced(advisor: Advisor) -> None:
    text = _ask(advisor, "used 3060 12gb for $220 or a new 4060 8gb for $290? mostly sdxl, and "
                         "some qwen2.5 7b chat")  # fmt: skip
    assert "Qwen2.5-7B needs about" in text and "usable)" in text, text


def test_an_hourly_price_of_two_cards_is_their_rent(advisor: Advisor) -> None:
    text = _ask(advisor, "hourly rate for an l40s vs an a6000 these days?")
    assert head(text).startswith("**Cheaper to rent"), head(text)


def test_the_difference_of_two_cards_asked_without_a_job(advisor: Advisor) -> None:
    text = _ask(advisor, "what's the difference between the a100 sxm4 80gb and the a100 pcie "
                         "80gb?")  # fmt: skip
    first = head(text)
    assert not first.startswith(("**No", "**Yes", "**Pick")) and "differ in" in first, first


def test_a_price_per_million_tokens_at_the_users_own_rate(advisor: Advisor) -> None:
    text = _ask(advisor, "paying $0.75 an hour for an L4. qwen2.5 7b in bf16 on vllm, what's my "
                         "cost per million output tokens?")  # fmt: skip
    assert "per million output tokens" in head(text) and "your price" in head(text), head(text)


def test_a_request_rate_priced_on_two_cards_picks_the_cheaper_fleet(advisor: Advisor) -> None:
    text = _ask(advisor, "cheaper to serve mistral 7b at 15 requests a second: l40s or a100 "
                         "80gb?")  # fmt: skip
    assert head(text).startswith("**Pick the NVIDIA") and "requests a second" in head(text), head(
        text
    )


def test_a_laptop_gpu_of_a_memory_the_catalog_lacks_is_not_another(catalog: Catalog) -> None:
    q = understand("is an rtx 3050 6gb laptop enough for sd 1.5?", catalog)
    assert q.gpus and not q.gpus[0].ids and "3050 laptop with 6 GB" in (q.gpus[0].note or ""), (
        q.gpus
    )


def test_sample_lengths_in_brackets_after_a_described_noun(catalog: Catalog) -> None:
    q = understand("qlora on qwen 2.5 7b with about 25k short dialogs (~350 tokens), 3 epochs on "
                   "a 4070 ti super. hours?", catalog)  # fmt: skip
    assert q.context == 350 and q.dataset_samples == 25000, (q.context, q.dataset_samples)


def test_two_engines_on_the_one_card_said_stay_on_it(advisor: Advisor) -> None:
    text = _ask(advisor, "people say sglang beats llama.cpp. for me alone chatting with mistral "
                         "small 24b on one 3090, how much faster is it really?")  # fmt: skip
    assert "on one NVIDIA GeForce RTX 3090" in head(text) and "2 x" not in head(text), head(text)


def test_concurrent_requests_beat_the_users_who_share_them(catalog: Catalog) -> None:
    q = understand("a chatbot for our 500 staff, at most 25 concurrent requests, qwen2.5 14b on "
                   "vllm: which cloud gpu?", catalog)  # fmt: skip
    assert q.concurrency == 25, q.concurrency


def test_around_the_clock_is_no_pair_of_lengths(catalog: Catalog) -> None:
    q = understand("serving llama 3.1 8b with vllm 24/7 to 40 concurrent users, which gpu and "
                   "what per month?", catalog)  # fmt: skip
    assert q.context != 24 and q.output_tokens != 7, (q.context, q.output_tokens)


def test_a_volume_is_no_count_and_3d_is_said_to_be_a_floor(advisor: Advisor, catalog: Catalog,
                                                           ) -> None:  # fmt: skip
    q = understand("3d unet on 96^3 ct crops, batch 4, on an a5000: enough memory?", catalog)
    assert q.dataset_samples != 3 and q.images != 3, (q.dataset_samples, q.images)
    text = _ask(advisor, "3d unet on 96^3 ct crops, batch 4, on an a5000: enough memory?")
    assert "take the figures above as a floor" in text, text


def test_things_to_embed_counted_give_the_whole_job(advisor: Advisor) -> None:
    text = _ask(advisor, "embedding 4 million article titles with bge-base on an l4: ETA?")
    assert "wall time" in head(text), head(text)


def test_hours_of_a_language_to_fine_tune_whisper_on(catalog: Catalog) -> None:
    q = understand("fine tune whisper medium on 60 hours of our dialect on a 4090, how long?",
                   catalog)  # fmt: skip
    assert q.audio_hours == 60, q.audio_hours


def test_an_idle_hour_at_a_price_per_gpu_hour_is_not_split_over_the_node(advisor: Advisor,
                                                                         ) -> None:  # fmt: skip
    text = _ask(advisor, "our 4x h100 box sits at 50% utilisation. what does an idle gpu hour "
                         "really cost at $2.40/gpu-hour?")  # fmt: skip
    assert head(text).startswith("**About $4.80 per useful GPU-hour"), head(text)


def test_a_monthly_api_bill_against_the_cards_named(advisor: Advisor) -> None:
    text = _ask(advisor, "we pay anthropic about $900 a month. would hosting qwen2.5 72b on rented "
                         "a100 80gbs instead be cheaper?")  # fmt: skip
    assert "a month around the clock on" in head(text) and "$900" in head(text), head(text)


def test_a_sellers_price_come_down_replaces_the_one_before(advisor: Advisor) -> None:
    answers = thread_of(advisor,
                        "used a6000 for $2,400 vs renting one at $0.50/h, 25 h a week, no power "
                        "costs. when does buying pay off?",
                        "he came down to $2,000. and now?")  # fmt: skip
    assert "4,000 hours" in head(answers[1]), head(answers[1])


def test_the_bare_distil_whisper_name_is_the_one_in_the_catalog(catalog: Catalog) -> None:
    q = understand("distil-whisper on a 3060: how many hours of audio per hour?", catalog)
    assert [m.ids for m in q.models] == [("distil-whisper-large-v3",)], q.models


def test_a_launch_price_asked_leads_with_the_msrp(advisor: Advisor) -> None:
    text = _ask(advisor, "what was the 3090's launch price?")
    assert "launch list price (MSRP)" in head(text), head(text)
    both = _ask(advisor, "what was the 3090's launch price and what does it sell for now?")
    assert "new" in head(both) and "launch list price (MSRP)" in both, both


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("qwen2.5 72b q4 on one 3090: not possible, right?", "**Right, not on the card alone"),
        ("llama 3.1 8b fp16 on a 3060 8gb won't fit, will it?", "**Right, "),
        ("sdxl on a 3060 12gb, no way that works, eh?", "**It is possible"),
    ],
)
def test_a_no_said_and_checked_is_confirmed_or_set_right(advisor: Advisor, question: str,
                                                         lead: str) -> None:  # fmt: skip
    assert head(_ask(advisor, question)).startswith(lead), question


def test_why_server_cards_cost_more_is_explained(advisor: Advisor) -> None:
    text = _ask(advisor, "why do enterprise gpus cost so much more than a 5090?")
    assert head(text).startswith("**A datacenter GPU costs several times"), head(text)


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("ollama run llama3.1 on a 4060 ti, tokens per second?", "llama-3.1-8b"),
        ("my gemma2 in ollama does 30 t/s on a 3070, fine?", "gemma-2-9b"),
        ("ollama with plain mistral on an rx 7800 xt: speed?", "mistral-7b-v0.3"),
    ],
)
def test_a_name_with_no_size_beside_ollama_is_its_default_tag(catalog: Catalog, question: str,
                                                               model: str) -> None:  # fmt: skip
    q = understand(question, catalog)
    assert [m.ids for m in q.models] == [(model,)], q.models


def test_an_hour_of_rent_in_the_users_money_at_their_rate(advisor: Advisor) -> None:
    text = _ask(advisor, "me venden una 4090 usada a 2.000.000 pesos; alquilarla sale 0,40 "
                         "dólares la hora y el dólar está a 1.000 pesos. ¿cuánto es la hora en "
                         "pesos y cuándo conviene comprar?")  # fmt: skip
    assert "An hour of rent at your $0.40: 400 PESO" in text, text


def test_a_conversations_length_in_tokens_is_its_context(catalog: Catalog) -> None:
    q = understand("our helpdesk bot: qwen2.5 7b on a t4, chats are short, maybe 3,000 tokens at "
                   "most. fits in fp16?", catalog)  # fmt: skip
    assert q.context == 3000, q.context


def test_a_pretraining_run_with_no_size_gets_a_stand_in(advisor: Advisor) -> None:
    text = _ask(advisor, "planning to pretrain a tiny gpt on 3b tokens, $1,000 of cloud credit. "
                         "which card and how long?")  # fmt: skip
    assert "GPT-2 stands in for the run" in text and "Pick one" in text, text


def test_one_card_shared_by_people_is_split_by_mig_or_memory(advisor: Advisor) -> None:
    text = _ask(advisor, "our lab of 12 phd students would share one h100 80gb for small "
                         "distilbert fine-tunes. how do we split it between them?")  # fmt: skip
    assert head(text).startswith("**Yes, with MIG: the NVIDIA H100"), head(text)
    alone = _ask(advisor, "6 students will share a single rtx 3090 for mistral 7b qlora runs, "
                          "how to split it?")  # fmt: skip
    assert "it has no MIG" in head(alone), head(alone)


def test_a_card_too_small_alone_is_priced_per_token_on_the_fewest_that_hold(advisor: Advisor,
                                                                            ) -> None:  # fmt: skip
    text = _ask(advisor, "which is cheaper per token for serving qwen2.5 72b, h200 or h100?")
    assert "2 x NVIDIA H100" in text and "per million output tokens" in text, text
