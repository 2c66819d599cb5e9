"""Questions whose second half, stated figure or usual recipe decides the answer: a whole
ImageNet run (the recipe's epochs), a custom data set's size, a day's images against a card's
pace, a time asked of a card known only by its memory, the pick's time after "which GPU", a
cloud named for a monthly bill, a token API's price against rented GPUs, the largest model for a
memory size, a why-question between two cards, a batch size asked for, the CPU alone, memory
said across two cards, SDXL Turbo, and cards bought to train. Each phrasing is the test's own."""

from __future__ import annotations

import re

import pytest

from advisor.agent.understand import understand
from advisor.api import Advisor
from advisor.catalog import Catalog


def _head(advisor: Advisor, question: str) -> str:
    return advisor.ask(question).text.split("\n", 1)[0]


def test_a_whole_imagenet_run_takes_the_recipes_epochs(catalog: Catalog) -> None:
    cnn = understand("roughly how many days does a resnet-101 take to train on imagenet on 2 "
                     "a6000s", catalog)  # fmt: skip
    assert cnn.epochs == 90 and any("90 epochs" in n for n in cnn.notes)
    vit = understand("vit-l/16 from scratch on imagenet-1k with 8 h100s: how long?", catalog)
    assert vit.epochs == 300
    said = understand("3 epochs of resnet50 on imagenet, one l40s, how long", catalog)
    assert said.epochs == 3 and not any("recipe" in n for n in said.notes)
    tuned = understand("fine-tune vit-b/16 on imagenet on an a100, time?", catalog)
    assert tuned.epochs is None  # a fine-tune has no from-scratch recipe


def test_gpu_hours_asked_of_several_cards_are_given(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "training resnet-50 on imagenet with 4x a100 80gb: gpu hours?")
    # GPU-hours asked lead, each with its wall time after it
    hours = re.search(r"([\d.,]+) GPU-hours on 4 x [^(]+\(([\d.,]+) hours of wall time\)", head)
    assert hours, head
    gpu_hours, wall = (float(g.replace(",", "")) for g in hours.groups())
    assert gpu_hours == pytest.approx(4 * wall, rel=0.02)


def test_a_custom_data_sets_size_makes_the_job(catalog: Catalog) -> None:
    q = understand("training convnext-tiny on a 45k image in-house dataset for 20 epochs on a "
                   "4080, how long", catalog)  # fmt: skip
    assert q.dataset_samples == 45_000 and q.epochs == 20


def test_a_days_images_are_shared_between_enough_cards(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("serving sd 1.5 at 512px, 30 steps, about 80k images per day. "
                             "how many L4s?").text  # fmt: skip
    head = text.split("\n", 1)[0]
    count = re.search(r"\*\*(\d+) x NVIDIA L4 to finish within a day", head)
    assert count and int(count.group(1)) >= 2, head
    assert "30 steps" in head


def test_a_time_asked_of_a_card_known_by_its_memory_uses_such_cards(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("QLoRA on llama 3.1 8b with 30k samples, would one 24 GB card do "
                             "and how many hours?").text  # fmt: skip
    assert text.startswith("**The whole job: about")
    assert "most rented cards of 24 GB" in text


def test_how_long_after_which_gpu_is_the_picks_time(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("which gpu should I rent for a flux lora on 20 pictures of my "
                             "cat, and how long will it take").text  # fmt: skip
    pick = re.search(r"\*\*Pick (?:one )?(.+?)\*\*", text)
    assert pick, text
    timed = re.search(r"\*\*On one (.+?), the job takes about", text)
    assert timed and timed.group(1) == pick.group(1), text


def test_a_monthly_bill_on_a_named_cloud_uses_its_prices(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "what would 1 x A100 80GB running llama 3 8b cost us per month "
                                "on AWS, always on?")  # fmt: skip
    assert head.startswith("**On AWS:"), head


def test_a_token_apis_price_is_set_against_renting(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "about 2M tokens a day through mixtral 8x7b: self-host on A100s "
                                "or pay an api $0.50 per million tokens?")  # fmt: skip
    assert head.startswith("**The service is cheaper for a day of this load"), head
    assert "$1.00 for the service" in head  # 2 million tokens x $0.50


def test_the_largest_model_for_a_memory_size(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("max llm size that fits in 12gb vram?").text
    assert text.startswith("The largest that fits, by precision:"), text
    assert "12 GB GPU" in text


def test_why_one_card_beats_another_gives_their_figures(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("how come the l40s is so much faster than the a10 at training?").text
    assert "TFLOPS" in text.split("\n\n")[0] or "| dense FP16/BF16 tensor |" in text
    assert "[1]" not in text.split("\n", 1)[0]  # not an article sentence for a lead


def test_a_batch_size_asked_is_the_largest_that_fits(catalog: Catalog) -> None:
    q = understand("bert-large finetune on a 12gb 3060 keeps crashing with oom at bs 32, "
                   "which batch size will work?", catalog)  # fmt: skip
    assert q.target == "max_batch"


def test_an_llm_asked_of_the_cpu_alone_is_estimated_there(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "no graphics card here, 64gb ddr5 and a 16-core ryzen: could "
                                "qwen2.5 32b run at all, and how slowly?")  # fmt: skip
    assert head.startswith("**Yes:") and "CPU alone" in head and "tokens/s" in head


def test_an_image_model_on_the_cpu_is_not_sized_as_a_gpu(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "sdxl on my cpu only laptop with 16gb ram, how many seconds "
                                "per image?")  # fmt: skip
    assert "GPU for image generation" not in head
    assert head.startswith("**No estimate on the CPU alone")


def test_memory_said_across_two_cards_is_shared_between_them(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("32gb of vram total across 2 gpus, will a 30b model load?").text
    assert "2 x 16 GB GPU" in text.split("\n", 1)[0]
    assert "q4_k_m" in text.split("\n", 1)[0]  # the lighter format, as desk cards run it


def test_sdxl_turbo_runs_its_own_steps_and_size(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "how fast is sdxl-turbo on a 4060 ti 16gb?")
    assert "SDXL Turbo" in head and "512 px" in head and "1 step," in head


def test_a_slow_pipeline_leads_with_seconds_per_image(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "flux dev on an m3 max 128gb, how quick?")
    assert head.startswith("**Time per image:"), head


def test_cards_bought_to_train_are_nvidias(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("we have 15k to spend on gpus to full fine-tune 1b-3b models, "
                             "what should we buy?").text  # fmt: skip
    assert text.startswith("**Pick ") and "NVIDIA" in text.split("\n", 1)[0], text
    assert "Radeon" not in text.split("\n", 1)[0]


def test_a_workstation_bought_holds_at_most_four_cards(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "budget 30k usd for an inference workstation for 13b models, "
                                "what to build?")  # fmt: skip
    count = re.search(r"Pick (\d+) x", head)
    assert count is None or int(count.group(1)) <= 4, head


def test_an_old_launch_price_is_no_new_price(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("$6,000 to buy new gpus for running 8b models, which?").text
    assert "2020" not in text and "2018" not in text, text


def test_two_different_cards_where_one_holds_the_model(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "what does the mi300x do for us against the h100 sxm? thinking "
                                "of it to serve a 70b model")  # fmt: skip
    assert head.startswith("**Only the AMD Instinct MI300X holds"), head


def test_an_apple_machines_memory_after_its_name_picks_the_variant(catalog: Catalog) -> None:
    q = understand("sdxl speed on my m2 pro mac mini 32gb?", catalog)
    assert q.gpus[0].ids == ("m2-pro-32gb",)


def test_worth_upgrading_from_one_card_to_another_weighs_the_second(
    rules_advisor: Advisor,
) -> None:
    head = _head(rules_advisor, "worth upgrading from a 3060 ti to a 4070 super for training "
                                "cnns?")  # fmt: skip
    assert (
        head.startswith("**Yes, for speed")
        and "on the NVIDIA GeForce RTX 4070 SUPER against" in head
    ), head


def test_optimizer_states_are_explained_with_a_models_figures(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("why does adam need so much more vram than inference?").text
    assert text.startswith("**Training holds far more per parameter")
    assert "optimizer states" in text and "GB" in text


def test_fps_is_asked_one_frame_at_a_time(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "yolov8s on an rtx 3050, what fps can i expect?")
    assert "batch 1" in head


def test_a_card_without_fp8_gets_no_fp8_line_and_one_with_it_does(rules_advisor: Advisor) -> None:
    ada = rules_advisor.ask("llama 3.3 70b on 2x L40S, fits?").text
    assert "In fp8 it fits on 2 x NVIDIA L40S" in ada
    ampere = rules_advisor.ask("llama 3.3 70b on 2x A6000, fits?").text
    assert "In fp8" not in ampere


def test_many_users_on_named_cards_say_how_many_cards_hold_them(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("support bot on llama 3.1 8b for ~150 simultaneous chats, $2k a "
                             "month to spend: a10gs, l40s or a single h100?").text  # fmt: skip
    head = text.split("\n", 1)[0]
    assert re.search(r"hold all 150 at once", head), head
    rows = re.findall(r"^- (.+?): ([\d,]+) at once on one card; (\d+) for all 150", text, re.M)
    assert len(rows) >= 3
    for _name, at_once, cards in rows:  # enough cards for every user, no more
        per = int(at_once.replace(",", ""))
        assert int(cards) == -(-150 // per)
    assert re.search(r"That is (?:within|over) your \$2,000 a month\.", text)


def test_per_card_memory_beside_a_total_is_not_divided(catalog: Catalog) -> None:
    q = understand("two 16gb gpus (32gb total), can mistral small 24b q4 load?", catalog)
    assert q.memory_gb == 16 and q.num_gpus == 2
    split = understand("48 gigs total over 2 gpus - is that enough for mixtral 8x7b?", catalog)
    assert split.memory_gb == 24 and split.num_gpus == 2
    counted = understand("with 4 x 48gb cards, how long to lora a 70b on 20k samples?", catalog)
    assert counted.memory_gb == 48 and counted.num_gpus == 4


def test_a_second_question_about_another_job_is_still_answered(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("best gpu to rent for serving qwen2.5 7b? and how long would a "
                             "lora of llama 3 8b on 5k samples take?").text  # fmt: skip
    assert "Llama-3-8B" in text or "llama 3 8b" in text.lower()


def test_the_largest_model_with_no_gpu_is_not_sized_on_a_gpu(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("no gpu, 32gb of ram: what's the largest llm i could run?").text
    assert "32 GB GPU" not in text


def test_an_asked_images_per_second_leads_even_when_slow(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "sdxl on a 3060 12gb, how many images per second?")
    assert head.startswith("**Images per second:"), head


def test_a_few_hundred_images_are_a_data_set_not_a_subject(catalog: Catalog) -> None:
    q = understand("lora for sdxl on 600 product photos with a 4090, how long?", catalog)
    assert q.epochs is None
    rate = understand("sdxl lora on a 4090 with 25 selfies, what it/s?", catalog)
    assert rate.epochs is None  # a rate asked needs no epochs


def test_a_batch_size_to_use_leaves_memory_spare(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("what batch size should i use to fine-tune vit-b/16 on a 4070 "
                             "12gb?").text  # fmt: skip
    use = re.search(r"\*\*Use batch (\d+)\*\*", text)
    most = re.search(r"Largest batch that fits: (\d+)", text)
    assert use and most, text
    used, full = int(use.group(1)), int(most.group(1))
    assert used & (used - 1) == 0 and used <= 0.9 * full


def test_a_card_known_by_its_memory_reads_without_the(rules_advisor: Advisor) -> None:
    text = rules_advisor.ask("how fast is llama 3.1 8b on a 10gb card?").text
    assert "the a 10 GB GPU" not in text


def test_a_cluster_bought_is_not_one_card(rules_advisor: Advisor) -> None:
    head = _head(rules_advisor, "about 150k for a gpu cluster to train a 3b from scratch, "
                                "what do we buy?")  # fmt: skip
    count = re.search(r"Pick (\d+) x", head)
    assert count and int(count.group(1)) > 1, head
    assert "Apple" not in head


def test_a_server_cpu_reads_with_a_servers_memory_channels(catalog: Catalog) -> None:
    server = understand("dual xeon box, 512gb ram, no gpu: llama 3.1 70b q4 speed?", catalog)
    assert server.ram_channels == 8
    desktop = understand("ryzen 7 with 64gb ddr5 and no gpu, can it run llama 3 8b?", catalog)
    assert desktop.ram_channels is None
