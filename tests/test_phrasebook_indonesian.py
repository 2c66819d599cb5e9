"""Questions in Indonesian and Malay read through the phrasebook (formal and as people type them:
"brp", "yg", "gimana", "gak"), the Polish and Tagalog gaps found in real questions, and English
questions that must come back as they were."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.agent.phrasebook import to_english
from advisor.catalog import Catalog
from tests.test_phrasebook import assert_understood


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # memory, bandwidth, power
        ("brp VRAM RTX 4070 Super?", ["how much memory"]),
        ("VRAM-nya RTX 4080 Super berapa GB?", ["VRAM RTX 4080 Super how much GB"]),
        ("Lebar pita memori RX 7900 XTX berapa?", ["memory bandwidth"]),
        ("Konsumsi daya RTX 4090 berapa watt sih?", ["power draw", "how many watts"]),
        # fit and run
        ("Qwen2.5 7B Q4 muat gak di RTX 3060 12GB?", ["does it fit"]),
        ("Mixtral 8x7B 4-bit muat nggak di dua RTX 4090?", ["does it fit", "two rtx 4090"]),
        ("Boleh ke RTX 3060 jalankan SDXL dengan lancar?", ["can it", "run", "smoothly"]),
        ("gimana kalau pakai 4 GPU A100?", ["what if", "using"]),
        # time, training, speed
        (
            "Berapa lama melatih YOLOv8 di 20 ribu gambar, 50 epoch?",
            ["how long", "train", "20000 images"],
        ),
        ("Berapa jam yg dibutuhkan buat fine-tune Llama 3 8B?", ["how many hours", "needed"]),
        ("Token per detik Mistral 7B di RTX 4060 berapa?", ["tokens per second"]),
        (
            "kira2 brp token per detik kalau cuma satu pengguna?",
            ["how many tokens per second", "only one user"],
        ),
        # renting, buying, money
        (
            "nyewa A100 Rp 25rb/jam, seminggu habis berapa?",
            ["rent", "25000/hour", "per week", "how much does it cost"],
        ),
        (
            "Sewa H100 8 jam sehari selama 3 bulan, total biayanya berapa?",
            ["rent", "8 hours per day", "for 3 months", "how much is the total cost"],
        ),
        (
            "Harga RTX 4090 baru sekitar Rp 32.000.000, worth it nggak dibanding sewa?",
            ["price", "new", "about Rp 32000000", "compared with rent"],
        ),
        ("Mending mana, RTX 3090 bekas atau 4070 Ti Super baru?", ["which is better", "used"]),
        ("GPU apa yg paling murah buat inferensi?", ["which card", "cheapest", "inference"]),
        ("Anggaran saya 20 juta, beli kartu grafis apa?", ["my budget 20 million", "buy"]),
        ("modelnya 70 miliar parameter, butuh berapa GPU?", ["70 billion", "how many cards"]),
        ("berapa bulan balik modal kalau beli 4090?", ["how many months until it pays off"]),
        # Malay
        ("Berapa kos sewa RTX 4090 sejam? Bajet saya RM 500.", ["how much does it cost", "rent"]),
        ("Kad grafik mana satu lebih laju untuk latihan?", ["which card", "faster", "training"]),
        ("Berapa lama nak latih model pada 100 ribu gambar?", ["how long", "100000 images"]),
        # greetings and what to ask
        ("halo min, mau nanya dong", ["hello"]),
        ("Selamat malam, terima kasih banyak", ["hello", "thanks"]),
        ("Hai kak! Apa yang bisa kamu bantu?", ["hello", "what can you help me with"]),
        # the Polish and Tagalog gaps
        ("Ile W ciągnie wg specyfikacji?", ["how many watts does it draw per the spec"]),
        ("Ano-ano po ba ang pwede kong itanong sa inyo?", ["what can you help me with"]),
    ],
)
def test_indonesian_and_malay_are_read(question: str, said: list[str]) -> None:
    english = to_english(question)
    assert all(s in english for s in said), english


@pytest.mark.parametrize(
    ("question", "english"),
    [
        # thousands grouped with a dot, "ribu"/"rb" after a number: the number
        ("harga Rp 4.500.000", "price Rp 4500000"),
        ("harga Rp45.000/jam", "price Rp 45000/hour"),
        ("harga 45rb per jam", "price 45000 per hour"),
        ("harga 1,5 ribu", "price 1500"),
        # "juta" and "miliar" as English says them (a model's size stays one: "7 billion")
        ("biaya 2 jt sebulan", "cost 2 million per month"),
        ("model 7 miliar parameter", "model 7 billion parameter"),
        # hours and days after a number, read only beside other Indonesian words
        ("sewa 40 jam", "rent 40 hours"),
        ("sewa 3 hari", "rent 3 days"),
    ],
)
def test_indonesian_numbers_and_hours_are_plain(question: str, english: str) -> None:
    assert to_english(question) == english


@pytest.mark.parametrize(
    "text",
    [
        "Ada Lovelace cards vs Ampere: which has more memory bandwidth per dollar?",
        "Hari and Dan want the total cost per hour for 8 H100s over 3 days.",
        "Is a used RTX 3090 a better buy than a new 4070 Ti Super for a 13B model?",
        "We jam 4 GPUs into one chassis: how much power do they draw at full load?",
        "2 jam-packed racks of 16 L40S: electricity per month at $0.15 per kWh?",
        "How many tokens per second does Llama 3 8B get on an RTX 4060 with one user?",
        "Can two RTX 3090s with NVLink fit Llama 3 70B at 4-bit?",
        "Does the halo of owning an H100 pay off in 12 months versus renting at $2.49/hr?",
        "My config.ini says batch 32: will a Mistral 7B LoRA fit on a 24GB card?",
        "Rent or buy: an L40S at $1.10 per hour, 8 hours a day, or a 4090 for $1,800?",
        "How long to train ResNet-50 on ImageNet for 90 epochs on 8 A100s, total?",
        "Does the LaMa inpainting model (big-lama) run on a T4 in fp16?",
        "What's the best GPU under $500 for Stable Diffusion XL at 1024x1024?",
        "Our team in Jakarta has a budget of 5000 dollars: which card for Qwen2.5 14B?",
        "The mana bar in my game stutters while Ollama runs on the same 4070, why?",
        "Compare the memory, bandwidth and TDP of the RX 7900 XTX and RTX 4080 Super.",
        "is 24 GB kaafi hai for a 13B model in fp16?",
        "Yang from the data team asks: does the APA-style A100 datasheet list its TDP?",
        "a 3 rb-tree index and a RP2040 board next to a 4090: any issue?",
    ],
)
def test_english_with_indonesian_look_alikes_stays(text: str) -> None:
    assert to_english(text) == text


@pytest.mark.parametrize(
    ("question", "intent", "checks"),
    [
        ("VRAM-nya RTX 4080 Super berapa GB?", "spec", {"fields": "memory_gb"}),
        ("Berapa watt konsumsi daya RTX 3090?", "spec", {"fields": "tdp_w"}),
        ("Ile W ciągnie RTX 4080 wg specyfikacji?", "spec", {"fields": "tdp_w"}),
        (
            "Sewa 2 GPU A100 Rp 30.000 per jam per GPU, dipakai 40 jam, totalnya berapa?",
            "cost",
            {"hours": 40.0, "count": 2},
        ),
        (
            "Sewa H100 8 jam sehari selama 3 bulan, total biayanya berapa?",
            "cost",
            {"use_hours_per_day": 8.0},
        ),
        ("brp token per detik Llama 3 8B Q4_K_M di RTX 3060 pakai llama.cpp?", "speed", {}),
        ("Mixtral 8x7B 4-bit muat nggak di dua RTX 4090?", "fit", {"count": 2}),
        ("Mana yang lebih bagus buat training, RTX 4090 atau RTX 3090?", "compare", {}),
        (
            "Berapa lama nak latih ResNet-50 pada 100 ribu gambar selama 5 epoch dengan RTX 3080?",
            "train_time",
            {"epochs": 5.0, "dataset_samples": 100000.0},
        ),
        ("Halo kak! Apa yang bisa kamu bantu?", "greeting", {}),
        ("Ano-ano po ba ang pwede kong itanong sa inyo?", "greeting", {}),
    ],
)
def test_indonesian_and_malay_questions_are_understood(
    catalog: Catalog, question: str, intent: str, checks: dict[str, Any]
) -> None:
    assert_understood(catalog, question, intent, checks)
