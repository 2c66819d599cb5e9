"""Stop 72, the reviewers' kinds: two different cards written with a plus or an ampersand
("4090+3090", "3090 & 4090 combo") run one model together, their pace first when a pace is asked,
and a card's number after a plus is never a rate of tokens."""

from __future__ import annotations

import re

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog
from tests.asking import ask_grounded, head, thread_of


def test_two_cards_glued_by_a_plus_are_two_cards(catalog: Catalog) -> None:
    query = understand("4090+3090 for 70b q4 how fast", catalog)
    assert [ref.ids[0] for ref in query.gpus] == ["rtx-4090", "rtx-3090"]


def test_a_card_after_a_plus_is_no_rate_of_tokens(catalog: Catalog) -> None:
    query = understand("mixtral 8x7b q4 on a 4090 + 3090 tok/s?", catalog)
    assert query.throughput_tok_s is None
    assert [ref.ids[0] for ref in query.gpus] == ["rtx-4090", "rtx-3090"]


def test_a_pace_asked_of_two_cards_leads_with_the_pace(rules_advisor: Advisor) -> None:
    # 70B at q4_k_m: ~42 GB of weights over 24 + 24 GB; each token reads both shares, ~15-22 tok/s
    text = ask_grounded(rules_advisor, "3090 plus 4090 in the same box, llama 3 70b at q4, "
                        "how many tok/s").text  # fmt: skip
    found = re.match(r"\*\*About ([\d.]+) tokens/s", head(text))
    assert found and 12 <= float(found.group(1)) <= 25, head(text)
    assert "together" in head(text)


def test_a_combo_of_two_cards_is_weighed_together(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "3090 & 4090 combo for a 70b at q4?").text
    assert head(text).startswith("**Yes") and "together" in head(text), head(text)


def test_a_format_after_a_models_size_is_how_it_is_served(rules_advisor: Advisor) -> None:
    # 70.6B x 1 byte = ~71 GB of weights; 100 x 4,096 tokens of KV cache (~134 GB) do not fit
    text = ask_grounded(rules_advisor, "can one H100 handle 100 concurrent users on llama 3 70b "
                        "fp8?").text  # fmt: skip
    assert head(text).startswith("**No"), head(text)
    assert "tensor cores" not in head(text)


def test_a_cards_format_support_is_still_its_datasheet(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "does the h100 support fp8").text
    assert head(text).startswith("**Yes") and "FP8" in head(text), head(text)


def test_nodes_of_switch_boards_with_no_network_said_run_over_infiniband(
    rules_advisor: Advisor,
) -> None:
    # 6 x 70.6e9 x 1e9 = 4.2e20 FLOP over 16 H100s at 30-50% of 989 TFLOPS: ~15-50 hours
    text = ask_grounded(rules_advisor, "multi node: full fine tune llama 3 70b on 2 nodes of "
                        "8xH100, how long for 1B tokens").text  # fmt: skip
    found = re.search(r"About ([\d.]+) hours", head(text))
    assert found and 15 <= float(found.group(1)) <= 60, head(text)
    assert "InfiniBand" in text and "10 Gb Ethernet" not in text


def test_cards_said_each_after_the_nodes_count_on_every_node(catalog: Catalog) -> None:
    query = understand("lora finetune llama 3 8b on 2 nodes each 4x a100 40gb connected by "
                       "100gbe, speed vs single node?", catalog)  # fmt: skip
    assert query.gpus[0].count == 8 and query.nodes == 2


def test_hours_transcribed_are_hours_of_audio(rules_advisor: Advisor) -> None:
    # a T4 transcribes ~10 audio s/s: 1,000 audio hours ~ 100 GPU-hours, ~$35 at $0.35/hour
    text = thread_of(
        rules_advisor,
        "whisper large v3 on 4090",
        "and on a t4?",
        "cheapest to transcribe 1000 hours?",
    )[-1]
    found = re.search(r"\$([\d,.]+) for the job", head(text))
    assert found and 15 <= float(found.group(1).replace(",", "")) <= 80, head(text)


def test_a_format_said_in_a_follow_up_replaces_the_one_in_the_models_name(
    rules_advisor: Advisor,
) -> None:
    # Q4_K_M reads ~4.9 GB a token against Q8_0's ~8.5 GB: faster on the same card
    first, then = thread_of(rules_advisor, "llama 3.1 8b q8 on rtx 3080 10gb tokens per second",
                            "what about q4")  # fmt: skip
    assert "q8_0" in head(first) and "q4_k_m" in head(then), head(then)


def test_a_smaller_variant_said_in_a_follow_up_is_that_card(rules_advisor: Advisor) -> None:
    then = thread_of(rules_advisor, "qwen2.5 14b on rtx 3080 12gb", "what if i only had 10gb")[-1]
    assert "3080 10GB" in head(text := then) and "12GB" not in head(text), head(text)


def test_a_card_added_in_a_follow_up_joins_the_one_before(rules_advisor: Advisor) -> None:
    then = thread_of(rules_advisor, "can i run llama 3 70b on 64gb ram and a 4090? how fast",
                     "and if i add a 3090?")[-1]  # fmt: skip
    assert "4090" in head(then) and "3090" in head(then) and "together" in head(then), head(then)


def test_another_of_the_same_card_is_two_of_them(catalog: Catalog) -> None:
    first = understand("can my 3090 run llama 3 70b at q4", catalog)
    then = understand("and if i add another 3090?", catalog, first.context_dict())
    assert [(g.ids[0], g.count) for g in then.gpus] == [("rtx-3090", 2)]


def test_old_tesla_cards_and_laptop_graphics_the_catalog_lacks_are_said(
    rules_advisor: Advisor,
) -> None:
    for question in ("k80 for stable diffusion lol", "radeon 780m igpu llama 8b"):
        text = ask_grounded(rules_advisor, question).text
        assert "no GPU called" in text, text[:200]


def test_daily_active_users_times_their_messages_is_the_days_load(catalog: Catalog) -> None:
    query = understand("we're a startup, 1000 daily active users of a chatbot on llama 3.1 8b, "
                       "each ~20 messages/day, 300 out tokens. gpu cost per month?",
                       catalog)  # fmt: skip
    assert query.rps is not None and abs(query.rps - 20_000 / 86_400) < 1e-3


def test_requests_an_hour_are_a_rate(catalog: Catalog) -> None:
    query = understand("5000 requests/hour, avg 2k prompt, 500 output, llama 3.1 70b int4, what "
                       "hardware and cost/month", catalog)  # fmt: skip
    assert query.rps is not None and abs(query.rps - 5000 / 3600) < 1e-3


def test_tokens_out_said_short_are_the_replies(catalog: Catalog) -> None:
    query = understand("need to serve phi-3 mini to 500 req/s, short prompts ~100 tok, 50 tok "
                       "out. cheapest setup on cloud?", catalog)  # fmt: skip
    assert query.output_tokens == 50


def test_a_month_of_copies_counts_every_card(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "5000 requests/hour, avg 2k prompt, 500 output, llama 3.1 "
                        "70b int4, what hardware and cost/month").text  # fmt: skip
    said = re.match(r"\*\*About \$[\d,]+ a month: (\d+) x ", head(text))
    picked = re.search(r"\*\*Pick (\d+) x ", text)
    assert said and picked and said.group(1) == picked.group(1), text[:400]


def test_a_total_rate_is_sized_as_a_load(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "serve llama 3.1 8b at 1000 tokens/s total, cheapest "
                        "cloud gpu").text  # fmt: skip
    assert "1,000 tokens/s of output needed" in head(text), head(text)


def test_a_price_per_thousand_requests_is_the_full_loads(rules_advisor: Advisor) -> None:
    # an L4 at full load serves ~2-3 requests/s of 500 in / 150 out: ~$0.05-0.15 per 1,000
    text = ask_grounded(rules_advisor, "what is the cost per 1000 requests for llama 3 8b on a "
                        "l4, 500 tokens in 150 out").text  # fmt: skip
    found = re.match(r"\*\*About \$([\d.]+) per 1,000 requests", head(text))
    assert found and 0.03 <= float(found.group(1)) <= 0.2, head(text)


def test_a_token_api_is_weighed_against_cards_with_room_to_batch(rules_advisor: Advisor) -> None:
    # 2 x H100 hold a 70B in bf16 with room for a request or two; twice that serve thousands of
    # tokens a second: a million tokens at full load costs a few dollars, not fifty
    text = ask_grounded(rules_advisor, "is it cheaper to self host llama 3.1 70b on h100s or pay "
                        "together.ai $0.88 per million tokens? we do ~2B tokens/month",
                        ).text  # fmt: skip
    found = re.search(r"A million tokens costs about \$([\d.]+) on .* at full load", text)
    assert found and float(found.group(1)) < 10, text[:600]


def test_tokens_at_full_load_are_the_batched_rate(rules_advisor: Advisor) -> None:
    # an L4 serves an 8B in bf16 at ~150-400 tokens/s batched: 0.4-1.1 billion tokens a month
    then = thread_of(rules_advisor, "how much to run llama 3.1 8b on an l4 for a month",
                     "how many tokens would that produce at full load?")[-1]  # fmt: skip
    found = re.match(r"\*\*About ([\d,]+) tokens", head(then))
    assert found and 3e8 <= int(found.group(1).replace(",", "")) <= 1.5e9, head(then)


def test_replies_generated_in_bulk_take_the_batched_time(rules_advisor: Advisor) -> None:
    # 100k x 400 = 40M tokens at the 3-10k tokens/s 8 x H100 serve a 70B at: ~1-4 hours
    text = ask_grounded(rules_advisor, "how long to generate 100k synthetic samples of 400 tokens "
                        "each with llama 3.1 70b on 8x h100").text  # fmt: skip
    found = re.match(r"\*\*About ([\d.]+) hours to generate 40 million tokens", head(text))
    assert found and 0.8 <= float(found.group(1)) <= 5, head(text)


def test_concepts_asked_whole_are_explained(rules_advisor: Advisor) -> None:
    for question, said in (("why does vram matter", "VRAM decides what a GPU can run"),
                           ("whats the difference between lora and qlora", "QLoRA stores it in 4"),
                           ("what is gguf", "single-file model format of llama.cpp"),
                           ("¿qué es la caché kv?", "KV cache keeps")):  # fmt: skip
        text = ask_grounded(rules_advisor, question).text
        assert said in head(text), (question, head(text))


def test_the_length_of_each_chunk_or_example_said_is_the_sequence(catalog: Catalog) -> None:
    for question in ("bge-large embeddings for 5 million chunks, each chunk 512 tokens, on one "
                     "A10G. how long total?",
                     "qlora llama 3 8b, unsloth, rtx 4060 ti 16gb, 50k examples 512 tokens 2 "
                     "epochs, time?"):  # fmt: skip
        assert understand(question, catalog).context == 512, question


def test_a_count_of_passages_is_no_models_size(catalog: Catalog) -> None:
    query = understand("nomic-embed-text or bge-base: embed 2M passages of 256 tokens on an L4, "
                       "hours?", catalog)  # fmt: skip
    assert all(m.ids for m in query.models) and len(query.models) == 2


def test_a_batch_of_recordings_is_the_jobs_size(catalog: Catalog) -> None:
    query = understand("whisper large v3 turbo on a 4060 8gb how fast? batch of 1000 podcasts 1h "
                       "each", catalog)  # fmt: skip
    assert query.batch is None and query.audio_hours == 1000


def test_a_batch_size_before_a_card_is_no_count_of_cards(catalog: Catalog) -> None:
    query = understand("kohya sdxl lora, 20 images x 10 repeats x 10 epochs, batch 2, rtx 3090 - "
                       "how long?", catalog)  # fmt: skip
    assert query.gpus[0].count is None and query.batch == 2
    assert query.dataset_samples == 200 and query.epochs == 10


def test_sd15_is_the_model_not_a_card(catalog: Catalog) -> None:
    query = understand("sd15 lora 1500 steps: 3060 vs 4060 ti 16gb which is faster", catalog)
    assert [m.ids[0] for m in query.models] == ["sd-1.5"] and len(query.gpus) == 2


def test_hours_of_a_speech_corpus_are_hours_of_audio(catalog: Catalog) -> None:
    query = understand("wav2vec2-large finetune on 100h librispeech, rtx 4090, time per epoch",
                       catalog)  # fmt: skip
    assert query.audio_hours == 100 and query.hours is None


def test_an_article_asked_by_its_cards_is_quoted(rules_advisor: Advisor) -> None:
    answer = rules_advisor.ask("what does the a6000 vs a100 article say")
    assert answer.citations and "quoted from the cited articles" in answer.text
    assert not head(answer.text).startswith("**Pick"), head(answer.text)


def test_articles_that_do_not_cover_a_makers_cards_say_so(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what do the articles say about running llms on amd "
                        "gpus").text  # fmt: skip
    assert text.startswith("The articles do not cover") and "AMD" in text, text[:200]


def test_a_fine_tunes_epochs_over_hours_of_audio_count(rules_advisor: Advisor) -> None:
    # 5 epochs of 200 hours on an A100: several hours, not one epoch's ~40 minutes
    text = ask_grounded(rules_advisor, "how much does it cost to fine tune whisper medium on 200h "
                        "of audio for 5 epochs on a rented a100").text  # fmt: skip
    found = re.search(r"\$[\d.]+ for the job\*\*, ([\d.]+) hours", text)
    assert found and 2 <= float(found.group(1)) <= 6, head(text)


def test_steps_at_a_batch_are_the_samples_of_a_pretraining(rules_advisor: Advisor) -> None:
    # 1M steps x 256 sequences at ~4-5k sequences/s on 4 A100s: ~14-18 hours
    text = ask_grounded(rules_advisor, "bert base pretraining 1M steps batch 256 seq 128 on 4x "
                        "a100 how many days").text  # fmt: skip
    found = re.search(r"\(([\d.]+) hours\)", head(text))
    assert found and 10 <= float(found.group(1)) <= 25, head(text)


def test_a_glue_task_named_is_its_training_set(rules_advisor: Advisor) -> None:
    # MNLI's 392,702 pairs x 3 epochs at ~150 sequences/s on an A10: ~2 hours
    text = ask_grounded(rules_advisor, "roberta-large finetune glue mnli 3 epochs how long on a "
                        "single a10").text  # fmt: skip
    found = re.match(r"\*\*About ([\d.]+) hours", head(text))
    assert found and 1.2 <= float(found.group(1)) <= 4, head(text)


def test_money_asked_in_another_tongue_is_converted(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "¿Cuánto cuesta alquilar una A100 por hora en "
                        "euros?").text  # fmt: skip
    assert head(text).startswith("**About €"), head(text)


def test_a_money_only_follow_up_asks_the_question_before_in_it(rules_advisor: Advisor) -> None:
    first, then = thread_of(rules_advisor, "whats the cost per 1M tokens for llama 3.1 70b on "
                            "h100 vs a100", "and in rupees")  # fmt: skip
    assert "per million tokens" in head(first) or "per million tokens" in first
    assert head(then).startswith("**About ₹") and "rent per million tokens" in then, then[:300]


def test_a_list_asked_in_pounds_shows_each_price_in_pounds(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "cheapest gpus to rent for llama 3 70b in GBP per "
                        "hour?").text  # fmt: skip
    assert head(text).startswith("**About £") and text.count("(£") >= 2, text[:500]
    assert "used as given" not in text


def test_a_cards_monthly_running_cost_is_its_electricity(rules_advisor: Advisor) -> None:
    # 450 W x 730 h = 328.5 kWh; at the assumed 16.5 cents a kWh, ~$54
    text = ask_grounded(rules_advisor, "whats the monthly cost of running a 4090 at home 24/7 for "
                        "llm inference").text  # fmt: skip
    assert "328 kWh" in head(text) and "$54" in head(text), head(text)


def test_a_budget_to_spend_on_the_best_card_buys_one(catalog: Catalog) -> None:
    query = understand("i got £1500 to spend, best gpu for stable diffusion and some llm stuff",
                       catalog)  # fmt: skip
    assert query.budget is not None and query.budget.kind == "buy"


def test_a_local_server_in_german_is_bought(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "budget 5000€ für einen lokalen llm server, welche gpu? "
                        "modelle bis 70b").text  # fmt: skip
    assert "to buy" in head(text) and "/hour" not in head(text), head(text)


def test_on_prem_hardware_is_bought_at_the_least_that_serves(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "I want to run llama 3.3 70b for my team of 10, on-prem. "
                        "what hardware").text  # fmt: skip
    found = re.search(r"\$([\d,]+) to buy", head(text))
    assert found and int(found.group(1).replace(",", "")) < 60_000, head(text)
    assert "B200" not in head(text)


def test_a_recipe_that_fits_leads_with_the_job_not_any_of_them(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "fine tune mistral 7b full (not lora) on 1 a100 80gb?").text
    assert head(text).startswith("**Yes with") and "any of them" not in head(text), head(text)


def test_a_cost_pick_on_several_cards_is_not_answered_no(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "a100 80gb vs h100 for training a 7b model from scratch on "
                        "20B tokens, which is cheaper").text  # fmt: skip
    assert head(text).startswith("**Pick") and "\n**No: " not in text, text[:600]


def test_a_used_card_better_than_a_new_one_is_weighed_then_priced(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "is a used 3090 better than a new 4070 ti super for "
                        "llms").text  # fmt: skip
    assert head(text).startswith("**Yes: pick the NVIDIA GeForce RTX 3090"), head(text)
    assert "used" in text and "$" in text


def test_hardware_that_cannot_exist_is_said_so(rules_advisor: Advisor) -> None:
    for question in ("llama 3 8b on -4 gpus", "7b on 0gb gpu",
                     "can i run llama 3 8b on 1 gpu with 1 MB of vram"):  # fmt: skip
        text = ask_grounded(rules_advisor, question).text
        assert head(text).startswith("**No GPU setup to size"), (question, head(text))


def test_a_range_of_gpus_is_no_impossible_count(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "train on 2-4 gpus llama 8b lora how long for 10M "
                        "tokens").text  # fmt: skip
    assert "No GPU setup" not in text


def test_a_price_per_thousand_tokens_at_full_load(rules_advisor: Advisor) -> None:
    # ~190 tokens/s at $2.00/hour: ~$2.9 per million, ~$0.003 per thousand
    text = ask_grounded(rules_advisor, "we bill clients per 1k tokens. if we run llama 3 70b awq "
                        "on an a100 80gb at full load, what's our cost per 1k "
                        "tokens?").text  # fmt: skip
    found = re.match(r"\*\*About \$([\d.]+) per 1,000 tokens", head(text))
    assert found and 0.001 <= float(found.group(1)) <= 0.01, head(text)


def test_the_cheapest_offer_names_its_provider(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what's the cheapest H100 per hour you know of and from "
                        "which provider").text  # fmt: skip
    assert re.search(r"on-demand offer \([A-Z][\w.() -]+, 20\d\d-\d\d-\d\d\)", head(text)), head(
        text
    )


def test_the_longest_context_asked_beside_a_pace(rules_advisor: Advisor) -> None:
    # 32B at q4 on 24 GB: ~20 GB of weights, ~3-4 GB left at 262 KB a token: ~12-20k tokens
    text = ask_grounded(rules_advisor, "deepseek r1 distill qwen 32b on 4090, q4, how many tokens "
                        "per second and how long context can i fit").text  # fmt: skip
    found = re.search(r"Longest context that fits: about ([\d,]+) tokens", text)
    assert found and 8_000 <= int(found.group(1).replace(",", "")) <= 25_000, text[:500]


def test_kv_cache_per_token_of_each_model_named(rules_advisor: Advisor) -> None:
    # 80 layers x 8 KV heads x 128 x 2 x 2 bytes = 327,680; Mixtral 8x22B 56 x 8 x 128 x 4
    text = ask_grounded(rules_advisor, "how much kv cache per token for qwen2.5 72b and for "
                        "mixtral 8x22b").text  # fmt: skip
    assert "327,680 bytes" in head(text) and "229,376 bytes" in head(text), head(text)


def test_a_pretraining_deadline_past_the_largest_cluster_is_counted(
    rules_advisor: Advisor,
) -> None:
    # 6 x 406e9 x 8.1e12 (20 tokens a parameter) ~ 2e25 FLOP at 25-45% of 989 TFLOPS:
    # 12-22M H100-hours, over 730 hours ~ 17-31k GPUs
    text = ask_grounded(rules_advisor, "how many gpus to train llama 3 405b from scratch in 1 "
                        "month").text  # fmt: skip
    found = re.match(r"\*\*At least ([\d,]+) x NVIDIA H100", head(text))
    assert found and 15_000 <= int(found.group(1).replace(",", "")) <= 45_000, head(text)
    assert "20 tokens per parameter" in text


def test_desk_cards_for_training_are_weighed_on_the_reference_benchmark(
    rules_advisor: Advisor,
) -> None:
    # Lambda's ResNet-50 rows: the 3090 (936 GB/s) well ahead of the A4000 (448 GB/s, 140 W)
    text = ask_grounded(rules_advisor, "a4000 vs 3090 for training, same price used").text
    found = re.match(r"\*\*Pick the NVIDIA GeForce RTX 3090: about ([\d.]+)x as fast", head(text))
    assert found and 1.3 <= float(found.group(1)) <= 2.0, head(text)


def test_the_fastest_on_a_tight_budget_is_weighed_by_cost(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "whats the fastest way to serve mistral 7b to like 50 "
                        "users at once, budget is tight").text  # fmt: skip
    assert "Rubin" not in head(text) and "B200" not in head(text), head(text)


def test_serving_engines_asked_against_each_other_are_explained(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "what's the difference between vllm and llama.cpp, which "
                        "should i use for serving").text  # fmt: skip
    assert head(text).startswith("**vLLM, SGLang and TensorRT-LLM are serving engines"), head(text)


def test_parallelism_asked_without_nvlink_is_the_split(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "tensor parallel vs pipeline parallel, which one for 2 gpus "
                        "without nvlink").text  # fmt: skip
    assert "tensor parallel" in head(text) and "NVLink is NVIDIA" not in head(text), head(text)


def test_a_concept_asked_with_whats_unpunctuated(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "whats MFU and what is typical for llama training on "
                        "h100").text  # fmt: skip
    assert head(text).startswith("**MFU (model FLOPs utilization)"), head(text)


def test_a_total_asked_in_euros_leads_with_the_total(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "fine tune Mistral 7B on my company's 2 million support "
                        "tickets (~400 tokens each). LoRA. Which cloud GPU and what total cost in "
                        "EUR?").text  # fmt: skip
    found = re.match(r"\*\*About €([\d,.]+) in all\*\*: the \$([\d,.]+) below", head(text))
    assert found and float(found.group(2).replace(",", "")) > 5, head(text)


def test_rent_or_buy_with_prices_in_another_currency_converts_them(
    rules_advisor: Advisor,
) -> None:
    for question in (
        "buy an rtx 4090 for 1800 chf or rent, i use it ~20h/week",
        "buy a 4090 for €1900 or rent one, i'd use it 30 hours a week",
        "should i buy a 3090 for £650 or keep renting on runpod, about 10h a week",
    ):
        text = ask_grounded(rules_advisor, question).text
        assert "No break-even" not in text and "pays off after about" in text, text[:300]
        assert "are taken in US dollars" in text


def test_a_jobs_electricity_is_for_the_jobs_hours(rules_advisor: Advisor) -> None:
    # 17-18 hours at 450 W: ~8 kWh, ~EUR 2 at 0.25 a kWh (not a 730-hour month)
    then = thread_of(rules_advisor, "how long to finetune llama 3.1 8b with lora on 100M tokens "
                     "on a 4090", "and how much electricity is that at 0.25 "
                     "eur/kwh")[-1]  # fmt: skip
    found = re.match(r"\*\*About €([\d.]+) of electricity", head(then))
    assert found and 0.5 <= float(found.group(1)) <= 6, head(then)


def test_an_image_size_is_no_unknown_models_name(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "train a unet for medical segmentation 512x512, 10k images, "
                        "100 epochs on 4070 super, time?").text  # fmt: skip
    assert "Segmentation U-Net" in head(text) and "hours" in head(text), head(text)


def test_a_memory_asked_with_a_context_is_the_jobs_need(rules_advisor: Advisor) -> None:
    # 1,048,576 tokens x 131,072 bytes = 137 GB of KV cache beside 16 GB of weights
    text = ask_grounded(rules_advisor, "llama-3-8b, 1M token context, vram?").text
    assert "kv cache 137 GB" in head(text), head(text)


def test_a_gpu_asked_for_an_image_job_with_a_budget_in_aud(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "my budget is 2000 AUD, gpu for stable diffusion and some "
                        "llm stuff").text  # fmt: skip
    assert head(text).startswith("**Pick one NVIDIA"), head(text)


def test_a_loads_fleet_gives_its_month_when_asked(rules_advisor: Advisor) -> None:
    text = ask_grounded(rules_advisor, "we need to serve llama 3.1 8b instruct with vllm to about "
                        "20 requests per second, avg prompt 500 tokens, output 200. how many L4s "
                        "do i need and the monthly cost?").text  # fmt: skip
    assert re.search(r"\$[\d,]+ a day around the clock .*, \$[\d,]+ a month", head(text)), head(
        text
    )


def test_a_time_asked_beside_the_pick(rules_advisor: Advisor) -> None:
    # 100 h of audio = 12,000 windows of 30 s at ~5-10 windows/s: ~20-45 minutes an epoch
    text = ask_grounded(rules_advisor, "fine tune whisper small on 100 hours of audio, gpu and "
                        "time?").text  # fmt: skip
    assert re.search(r"the job takes about [\d.]+ minutes", text), text[:500]
