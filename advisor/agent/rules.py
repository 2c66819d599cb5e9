"""The `rules` engine: answers a understood question (query.py) with the handler its intent names
(intents.py), then adds the notes the answer depends on and the passages that speak of what was
asked. Deterministic and offline.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from advisor.agent import compose as c
from advisor.agent.guard import read_verdict
from advisor.agent.handlers import (
    BUDGET_WORDS,
    CPU_UNMODELLED,
    NEAR_DOLLAR,
    NODE_GPUS,
    OWN_SUPPLY,
    PARITY_ASKED,
    SAME_ASKED,
    SAME_WITHIN,
    SOLVE_ARGS,
    YES_NO,
    Draft,
    cards_rented,
    estimate_args,
    gpu_choices,
    has_rate,
    impossible_hardware,
    in_dollars,
    multiple_judged,
    parity_judged,
    rate_said,
    recordings_an_hour,
    supply_watts,
    unresolved,
    what_more_memory_holds,
    workload_of,
)
from advisor.agent.query import RENT_SAID, SWAP_TO, GpuRef, Query, card_named_in
from advisor.agent.toolbox import ToolBox
from advisor.agent.understand import (
    ABSENT_NOTE,
    FIELD_WORDS,
    FORMAT_WEIGHED,
    SECOND_CARD_ASKED,
    SLOT_ONLY,
    SLOT_POWER_W,
)
from advisor.answer import Citation
from advisor.calculator.cost import HOURS_PER_MONTH
from advisor.calculator.power import CPU_W, PLATFORM_W
from advisor.catalog import load_catalog
from advisor.retrieval.claim_reading import mentions

__all__ = ["Draft", "answer"]


def answer(query: Query, box: ToolBox) -> Draft:
    """Plan the tool calls for `query` (and any further questions in the message), run them and
    write the answer."""
    drafts = [_one(query, box)]
    for other in query.also:
        if _same_question(other, query):
            continue  # "... reserved or on-demand? And at what utilisation would it flip?"
        if _the_picks_time(other, query, drafts[0].text):
            continue  # "which GPU to rent? how long would it take?": the pick's time is said
        further = _one(other, box)
        if _quant_of_the_fit(query, other, further.text):
            # "can I run X on my card? what quant do I need": the quants, each fitting or not,
            # answer both (the fit in 16 bits before them would open with a "no")
            drafts[0] = further
            continue
        if _pace_of_the_fit(query, other, drafts[0].text, further.text):
            # "is a T4 enough? how long per epoch": one answer, the time with the yes before it
            further.text = "**Yes, it fits. " + further.text[2:]
            drafts[0] = further
            continue
        said = {p for d in drafts for p in d.text.split("\n\n")}
        new = [p for p in further.text.split("\n\n") if p not in said]  # no paragraph twice
        if new:
            further.text = "\n\n".join(new)
            drafts.append(further)
    if len(drafts) > 1 and drafts[0].text.startswith(CPU_UNMODELLED):
        # "do i even need a gpu? would a T4 do": the card's answer leads, the CPU's after it
        drafts = [*drafts[1:], drafts[0]]
    text = "\n\n".join(d.text for d in drafts)
    warnings = [w for d in drafts for w in d.warnings]
    quoted = [c for d in drafts for c in d.citations]  # passages an answer quotes are cited
    more = _citations(query, box, bool(quoted)) if drafts[0].cite_more else []
    cited = {c.id: c for c in [*quoted, *more]}
    return Draft(text, list(cited.values()), list(dict.fromkeys(warnings)))


def _the_picks_time(other: Query, query: Query, first: str) -> bool:
    """ "Which GPU should I rent for X? How long would it take?": the recommendation gave the
    job's time on its pick, so the further question about the same job is answered there."""
    same = {m.ids for m in other.models} <= {m.ids for m in query.models}
    return (query.intent == "recommend" and other.intent == "train_time" and not other.gpus
            and same and other.workload in (None, query.workload)
            and ", the job takes " in first)  # fmt: skip


def _pace_of_the_fit(query: Query, other: Query, first: str, further: str) -> bool:
    """A fit asked, then how long or how fast the same job runs: the fit's answer is inside the
    time's ("It fits: ..."), so the time answers both."""
    return (
        query.intent == "fit"
        and other.intent in ("train_time", "speed")
        and {g.ids for g in other.gpus} == {g.ids for g in query.gpus}
        and {m.ids for m in other.models} == {m.ids for m in query.models}
        and first.startswith("**Yes:")  # not "**Yes in 4-bit (AWQ), no in fp16"
        and further.startswith("**")
        and "It fits" in further
        # the time on the cards the fit was asked of, not on more of them
        and (" x " not in further.split("\n", 1)[0] or any(g.count for g in query.gpus))
    )


def _quant_of_the_fit(query: Query, other: Query, further: str) -> bool:
    """A fit asked, then which quant the same model needs on the same card: the quant ladder
    answered it."""
    return (
        query.intent == "fit"
        and not query.precision  # "in fp16? which quant": the fp16 verdict first, as asked
        and other.target == "best_quant"
        and {g.ids for g in other.gpus} <= {g.ids for g in query.gpus}
        and {m.ids for m in other.models} <= {m.ids for m in query.models}
        and "the most faithful GGUF quant" in further.split("\n", 1)[0]
    )


def _same_question(other: Query, query: Query) -> bool:
    """A further question of the message that the main answer covers: the same intent about the
    same things, with no figure of its own."""
    return (
        other.intent == query.intent
        and other.workload == query.workload
        and other.precision in (None, query.precision)  # "which would you get": none said again
        and other.cpu_only == query.cpu_only  # "... and can it run on cpu?": another machine
        and {g.ids for g in other.gpus} <= {g.ids for g in query.gpus}
        and {m.ids for m in other.models} <= {m.ids for m in query.models}
        and not re.search(r"\d", other.text)
    )


# the opening of the note on an accelerator the catalog does not hold
ABSENT_SAID = ABSENT_NOTE.split("{", 1)[0]


def _one(query: Query, box: ToolBox) -> Draft:
    from advisor.agent.intents import INTENTS, detect_intent, principle_for

    absent = [g for g in query.gpus if not g.ids and g.note and g.note.startswith(ABSENT_SAID)]
    if absent and any(g.ids for g in query.gpus):  # "tpu v5e vs h100": the H100's figures,
        # with a note that the catalog has none for the TPU
        query = replace(query, gpus=tuple(g for g in query.gpus if g not in absent),
                        notes=(*(g.note or "" for g in absent), *query.notes))  # fmt: skip
    unknown = [g for g in query.gpus if not g.ids and not g.note]
    # "a Radeon VII for $250: good buy at that price?": the card whose price is judged is one the
    # catalog lacks; that is said first, the pick for the money after it
    judged = (unknown[0].text if query.intent == "buy" and query.purchase_usd
              and len(unknown) == len(query.gpus) == 1 else None)  # fmt: skip
    if unknown and query.intent in ("recommend", "buy") and (query.models or query.workload_given
                                                             or query.budget):  # fmt: skip
        # "someone offered an old Quadro P4000; what should we buy within $800?": the pick is the
        # catalog's, with a note that the card offered has no figures here
        query = replace(query, gpus=tuple(g for g in query.gpus if g not in unknown), notes=(
            *(f"The catalog has no figures for the '{g.text}'"
              + (f" (nearest names: {', '.join(g.suggestions)})" if g.suggestions else "")
              + ", so it is not weighed here." for g in unknown), *query.notes))  # fmt: skip
    question = unresolved(query)
    if question and query.intent not in ("greeting", "invalid", "out_of_scope", "explain"):
        return Draft(question)
    other = query.currency != "$" and query.budget is not None and query.intent in (
        "recommend", "buy")  # fmt: skip
    # "under £2000", "₹80,000 budget", "£400 of credits, how many h100 hours": the budget in
    # dollars at the day's rate on record
    credits = (query.currency != "$" and query.intent == "cost" and query.budget is not None
               and query.budget.kind == "rent" and not query.user_price_usd_per_hour)  # fmt: skip
    query, fx_note = _budget_in_dollars(query, box) if other or credits else (query, None)
    weighed = query.intent == "rent_or_buy" or (
        query.intent == "buy" and bool(query.purchase_usd) and bool(RENT_SAID.search(query.low))
    )
    # (both sides the user's own, a price to buy and a rent: set against each other as given)
    both = bool(query.purchase_usd or query.budget) and bool(query.user_price_usd_per_hour)
    if fx_note is None and weighed and query.currency != "$" and not both:
        # "buy a 4090 for 1800 chf or rent?": the user's prices set against the catalog's rent
        # by the hour, all in dollars at the rate on record
        query, fx_note = _prices_in_dollars(query, box)
    if fx_note and credits:
        query = replace(query, currency="$")  # (the hours it buys, at the catalog's dollars)
    other = other and fx_note is None
    # "a 4090 for 1800 euros, worth it?": a price found in euros or pounds stays, judged in
    # dollars at the rate on record; a budget with no rate on record ("R$ 5.000", "kr") goes
    foreign = other and query.currency not in NEAR_DOLLAR and not has_rate(query)
    if foreign and query.budget is not None:
        # "R$ 5.000 for a new card": no exchange rate, so no comparison with dollars; a sum to
        # spend once is still spent on a card ("150 000 ₽ на видеокарту")
        spent = query.budget.per == "total" and query.budget.kind != "rent"
        query = replace(query, budget=None, buying=query.buying or spent)
    principle = principle_for(query)
    draft = principle.answer(query, box) if principle else None
    if principle is not None and draft is None and query.intent in ("spec", "compare") and (
            not query.gpus):  # fmt: skip
        # the principle set a datasheet intent and then declined, with no card to read ("my psu
        # is only 650w, best card for stable diffusion?": the supply principle with no card to
        # load it): the intent the question has without it, each card within what the supply
        # leaves it beside a high-end CPU and the rest of the system at full load
        query = replace(query, intent=detect_intent(query, query.low, principled=False))
    query = _card_within_supply(query)
    if draft is not None:
        draft.cite_more = False  # a passage about the GPU need not be about the principle
    elif (done := recordings_an_hour(query, box)) is not None:
        draft = done  # "55x realtime, 45-minute sets: how many sets per GPU-hour?", as asked
    elif (impossible := impossible_hardware(query)) is not None:
        draft = impossible  # "llama 3 8b on -4 gpus", "1 MB of vram": no setup to size
    else:
        draft = INTENTS[query.intent].handler(query, box)
        if not draft.text.strip():  # a handler with nothing to say: what the articles say
            draft = INTENTS["search"].handler(query, box)
        draft.text = _failure_polarity(
            query, _yes_or_no_first(query, _paced_as_run(query, draft.text))
        )
        draft.text = _first_token_in_time(query, draft.text)
        draft.text = _card_instead(query, box, draft.text)
        draft.text = _hourly_in_their_money(query, box, draft.text)
    if (query.intent in _SHEET_INTENTS or (principle is not None and query.gpus)
            or (query.intent == "buy" and (query.fields or query.models))):  # fmt: skip
        # ("is $3,800 a normal price? and how much memory has it got": the price, and its sheet)
        draft.text = _with_datasheet(query, box, draft.text)
    draft.text = _asked_fields_first(query, box, draft.text)
    draft.text = _unrecorded_said(query, draft.text)
    draft.text = _only_memory_differs(query, box, draft.text)
    draft.text = _memory_kinds_why(query, box, draft.text)
    draft.text = _within_power(query, box, draft.text)
    draft.text = _claim_checked(query, box, draft.text)
    draft.text = _same_figure_checked(query, box, draft.text)
    if not _VERDICT_START.search(draft.text):
        # "the 5090 is 2x the 4090, so my fine-tunes take half the time?" answered by a job's time
        # on each: the multiple claimed against the two cards' speeds, first
        multiple = multiple_judged(query, box) or parity_judged(query, box)
        if multiple.strip() not in draft.text:  # (the comparison under it may lead with it)
            draft.text = multiple + draft.text
    draft.text = _sparse_quoted(query, box, draft.text)
    draft.text = _energy_asked(query, box, draft.text)
    draft.text = _unit_asked(query, box, draft.text)
    draft.text = _context_also(query, box, draft.text)
    draft.text = _ram_short(query, box, draft.text)
    draft.text += _api_unpriced(query)
    if judged:
        draft.text = (f"**The catalog has no figures or prices for the {judged}, so I cannot judge "
                      "that price.** What the same money buys among the cards it has:\n\n"
                      + draft.text)  # fmt: skip
    stack = _stack_asked(query, box) + ("" if principle else _support_asked(query, box))
    draft.text += _tokens_from_bandwidth(query, box)  # after every card's figures
    draft.text = _with_decode_ceiling(query, box, draft.text)
    draft.text += _prices_beside(query, box)
    if stack:  # asked beside the job: after the verdict, not last
        head, sep, rest = draft.text.partition("\n\n")
        draft.text = head + stack + (sep + rest if rest else "")
    notes = list(query.notes)
    for model in query.models:
        if model.note and model.about:  # the note quotes the entry's size: looked up, not recalled
            box.call("model_specs", {"model": model.about})
        if model.assumed and model.note in notes and not _model_used(box, model.ids):
            notes.remove(model.note)  # "Whisper: large-v3 assumed" beside the user's own pace
    workload, assumed = workload_of(query)
    used = any(call.args.get("workload") == workload for call in box.calls)
    if assumed and used and re.search(r"\bLoRA\b|fine-?tun|training", draft.text, re.I):
        # only when a figure was worked out for the method assumed and shown (a datasheet
        # answer to "fine-tune across both, where do I get an NVLink bridge?" shows none)
        notes.append(assumed)
    if (unmodelled := _engine_unmodelled(query, box)) is not None:
        notes.append(unmodelled)
    if (passive := _server_card_at_a_desk(query, box)) is not None:
        notes.append(passive)
    if _VOLUMES_SAID.search(query.low) and any(
            call.name == "estimate" and call.result.get("model") == "unet-segmentation"
            for call in box.calls):  # fmt: skip
        notes.append("The calculator sizes a 2D U-Net on flat images; a 3D U-Net on volumes "
                     "keeps activations for every slice of each volume, many times more memory "
                     "and time per sample, so take the figures above as a floor.")  # fmt: skip
    if fx_note:
        notes.append(fx_note)
    elif foreign:
        ranked = "Ranked by" in draft.text  # a list of cards, or one card's prices
        notes.append(
            f"Your {'budget' if ranked else 'amount'} in {query.currency.strip()} is not compared "
            "with the catalog's US-dollar prices (no exchange rate on record)"
            + (": the cards above are not filtered by it." if ranked else ".")
        )
    elif query.currency != "$" and "$" in draft.text and not any(
            call.name == "in_us_dollars" for call in box.calls) and (
            _amounts_given(query) or not _CURRENCY_ASKED.search(query.low)):  # fmt: skip
        # ("cheapest to rent in GBP per hour": the money asked, no amount of theirs)
        notes.append(
            f"Your amounts in {query.currency.strip()} are used as given; the catalog's prices "
            "are in US dollars, with no exchange rate applied."
        )
    elif (
        "$" in draft.text and (asked := _CURRENCY_ASKED.search(query.low)) and not (query.exchange)
    ):  # (a rate of their own said: the central bank's is not put beside it)
        # "hourly rate of a 4090 in euros": said in dollars, with what a dollar buys of theirs
        code = _ASKED_CODES.get(asked.group(1).rstrip("s"), asked.group(1).upper())
        rate = box.call("in_us_dollars", {"amount": 1, "currency": code}) if code else {}
        if "per_usd" in rate:
            draft.text = _in_their_money(
                box, draft.text, code, rate["per_usd"], bool(_TOTAL_MONEY_ASKED.search(query.low))
            )
        notes.append(
            "The prices are in US dollars, as the catalog records them"
            + (
                f"; a dollar is {rate['per_usd']:.4g} {code} at the European Central Bank's rate "
                f"of {rate['date']} (rates move)."
                if "per_usd" in rate
                else f": no exchange rate to {asked.group(1)} is on record."
            )
        )
    draft.text = _instances_named(notes, draft.text)
    notes.extend(_other_instance_priced(notes, box))
    notes.extend(_beyond_trained_context(box, draft.text))
    if notes and query.intent not in ("greeting", "invalid", "out_of_scope"):
        draft.text += "\n\n" + "\n".join(f"_Note: {n}_" for n in dict.fromkeys(notes))
    return draft


def _amounts_given(query: Query) -> bool:
    """Whether the user gave money of their own (a budget, a price, a tariff)."""
    given = (query.budget, query.purchase_usd, query.monthly_usd, query.user_price_usd_per_hour,
             query.usd_per_kwh)  # fmt: skip
    return any(v is not None for v in given)


_SIGNS = {"EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩", "CNY": "CN¥"}
_DOLLARS = r"\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"  # a dollar amount, its figure
_FIRST_DOLLARS = re.compile(_DOLLARS)


# a total asked: "what total cost in EUR", "the whole job in pounds", "per month in euros"
_TOTAL_MONEY_ASKED = re.compile(
    r"\btotal\b|\boverall\b|\bwhole (?:job|run|thing)\b|\bin all\b|\baltogether\b"
    r"|\b(?:per|a|each) month\b|\bmonthly\b"
)
# a dollar amount that is a total: "$26.52 for the job", "$1,460 a month", "$3,200 in all"
_TOTAL_DOLLARS = re.compile(
    _DOLLARS + r"(?: \([^)]*\))?\s(?:for the (?:whole )?job|for the run|a month|per month|in all"
    r"|in total)\b"
)


def _in_their_money(box: ToolBox, text: str, code: str, per_usd: float, total: bool = False) -> str:
    """ "and in euros?": the answer's first dollar amount in the currency asked, first, at the
    rate on record (the in_us_dollars tool confirms the amount is those dollars); where the
    first paragraph has none, each amount below in theirs beside it."""
    head = text.split("\n\n", 1)[0]
    found = _FIRST_DOLLARS.search(head)
    # (an hour's price first, a job's total after it: the total leads, as "the cost" asked it)
    hourly = found is not None and re.match(r"(?: \([^)]*\))?\s?(?:/|per |an? )(?:gpu-)?h(?:ou)?r",
                                            head[found.end() :]) is not None  # fmt: skip
    summed = _TOTAL_DOLLARS.search(text) if total or hourly else None
    if summed is not None and (found is None or summed.group(1) != found.group(1)):
        # "what total cost in EUR": the job's (or the month's) amount leads, not an hour's
        usd = float(summed.group(1).replace(",", ""))
        back = box.call("in_us_dollars", {"amount": usd * per_usd, "currency": code})
        if "error" not in back:
            lead = (f"**About {_said_in(code, back['amount'])} in all**: the {c.usd(usd)} "
                    f"below, {rate_said(back)}.")  # fmt: skip
            return f"{lead}\n\n{_each_in_their_money(box, text, code, per_usd, 0)}"
    if found is None:
        return _each_in_their_money(box, text, code, per_usd, 0, everywhere=True)
    usd = float(found.group(1).replace(",", ""))
    back = box.call("in_us_dollars", {"amount": usd * per_usd, "currency": code})
    if "error" in back:
        return text
    lead = f"**About {_said_in(code, back['amount'])}**: the {c.usd(usd)} below, {rate_said(back)}."
    return f"{lead}\n\n{_each_in_their_money(box, text, code, per_usd, found.end())}"


def _said_in(code: str, amount: float) -> str:
    sign = _SIGNS.get(code)
    return f"{sign}{c.num(amount)}" if sign else f"{code} {c.num(amount)}"


_LISTED = re.compile(r"^(?:\d+\. |- )", re.M)
_GLOSSED = re.compile(r" \((?:[€£₹¥₩]|CN¥|R\$|[A-Z]{3} )")


def _each_in_their_money(
    box: ToolBox, text: str, code: str, per_usd: float, after: int, everywhere: bool = False
) -> str:
    """The dollar amounts of the head after the one led with, and of each ranked or listed
    line (`everywhere`: of every line), with theirs beside each ("$0.82/hour (£0.70)"): a list
    asked in their money."""
    head_end = text.find("\n\n") if "\n\n" in text else len(text)
    spans = [(after, len(text) if everywhere else head_end)] + [
        (m.start(), text.find("\n", m.start()) if "\n" in text[m.start():] else len(text))
        for m in _LISTED.finditer(text) if m.start() >= head_end and not everywhere
    ]  # fmt: skip
    out, last, done = [], 0, 0
    for start, end in spans:
        for found in _FIRST_DOLLARS.finditer(text, start, end):
            if done == 12 or _GLOSSED.match(text, found.end()):
                continue  # (a dozen at most; an amount already followed by its own gloss)
            usd = float(found.group(1).replace(",", ""))
            back = box.call("in_us_dollars", {"amount": usd * per_usd, "currency": code})
            if "error" in back:
                continue
            out.append(text[last : found.end()] + f" ({_said_in(code, back['amount'])})")
            last, done = found.end(), done + 1
    return "".join(out) + text[last:]


def _budget_in_dollars(query: Query, box: ToolBox) -> tuple[Query, str | None]:
    """The budget in another currency ("under £2000") in US dollars at the European Central
    Bank's reference rate on record, and a note saying so; the query as it was where the
    currency has no rate on record."""
    found = query.intent == "buy" and len(query.gpus) == 1 and not BUDGET_WORDS.search(query.low)
    if query.budget is None or found or query.gpu_purchase_prices:
        # (each card's own price said, "a 4090 costs ₹2,20,000, a 3090 ₹85,000": prices, weighed
        # against each other as given)
        return query, None  # ("a 4090 for 1800 euros, worth it?": a price found, judged as one)
    result = in_dollars(query, box, query.budget.usd)
    if result is None:
        return query, None
    per = {"hour": " an hour", "month": " a month"}.get(query.budget.per, "")
    note = (
        f"Your budget of {query.budget.usd:,.0f} {result['currency']}{per} is taken as "
        f"{c.usd(result['usd'])}{per}, {rate_said(result)} (rates move)."
    )
    return replace(query, budget=replace(query.budget, usd=result["usd"])), note


def _prices_in_dollars(query: Query, box: ToolBox) -> tuple[Query, str | None]:
    """A rent-or-buy's own prices in another currency (the card's price, a rent, a tariff, a
    monthly bill) in US dollars at the rate on record, and a note saying so; the query as it
    was where the currency has no rate on record."""
    fields = ("purchase_usd", "user_price_usd_per_hour", "usd_per_kwh", "monthly_usd")
    said = {f: getattr(query, f) for f in fields if getattr(query, f)}
    if query.budget is not None:  # ("a 4090 for €1900 or rent": the card's price read as a sum)
        said["budget"] = query.budget.usd
    if not said:
        return query, None
    converted: dict[str, Any] = {}
    result: dict[str, Any] | None = None
    for field, amount in said.items():
        result = in_dollars(query, box, amount)
        if result is None:
            return query, None
        converted[field] = result["usd"]
    if "budget" in converted and query.budget is not None:
        converted["budget"] = replace(query.budget, usd=converted["budget"])
    assert result is not None
    note = (f"Your prices in {result['currency']} are taken in US dollars, {rate_said(result)} "
            "(rates move).")  # fmt: skip
    return replace(query, currency="$", **converted), note


# a price asked in another currency than the catalog's: "in euros", "in gbp"
# the ISO code of each currency asked for in words ("in euros", "in yen"; "euros" as "euro")
_ASKED_CODES = {"euro": "EUR", "pound": "GBP", "sterling": "GBP", "rupee": "INR", "yen": "JPY",
                "yuan": "CNY", "rmb": "CNY", "won": "KRW", "swiss franc": "CHF", "reai": "BRL",
                "rouble": "RUB", "ruble": "RUB", "zloty": "PLN", "kronor": "SEK", "kroner": "",
                "lira": "TRY", "peso": "MXN"}  # fmt: skip
_CURRENCY_ASKED = re.compile(
    # ("en euros", "in brazilian reais": the words of other tongues and the country said too)
    r"\b(?:in|into|to|en|em|auf) (?:(?:brazil(?:ian)?|indian|japanese|chinese|british|uk|swiss"
    r"|korean|mexican|swedish|norwegian|danish|polish|turkish|russian|australian|canadian) )?"
    r"(euros?|eur|pounds?(?! of)|gbp|sterling|rupees?|inr|yen|jpy|yuan|rmb|cny"
    r"|won|krw|swiss francs?|chf|reais|brl|roubles?|rubles?|rub|zlotys?|pln|kronor|kroner|sek|nok"
    r"|dkk|aud|cad|lira|pesos?|mxn)\b"
)


def _model_used(box: ToolBox, ids: tuple[str, ...]) -> bool:
    """Whether a tool worked out a figure for one of the model `ids` (an assumption about a
    model that no figure used is no note of the answer's)."""
    for call in box.calls:
        for value in call.args.values():
            if value in ids or (isinstance(value, list | tuple) and set(value) & set(ids)):
                return True
    return False


# the software side of a card asked: "is ROCm ok or should i just get nvidia", "is AMD there yet"
_STACK_ASKED = re.compile(
    r"\brocm\b|\b(?:is|are) (?:amd|intel|apple|arc|radeon)\b.{0,20}\b(?:there|ready|ok|okay"
    r"|good|viable|usable|supported|mature)\b"
    r"|\b(?:just )?(?:get|buy|go with|stick with) (?:an? )?nvidia\b"
    r"|\bsoftware (?:support|side|stack)\b|\bdriver support\b"
)


def _stack_asked(query: Query, box: ToolBox) -> str:
    """The software side of a named card that is no CUDA card, when the question asks it."""
    if not query.gpus or not _STACK_ASKED.search(query.low):
        return ""
    stacks = []
    for ref in query.gpus:
        for gpu in ref.ids[:1]:
            stack = box.call("gpu_specs", {"gpu": gpu}).get("compute_stack")
            if stack in c.STACK_VERDICTS and stack not in stacks:
                stacks.append(stack)
    return "".join(f"\n\n{c.STACK_VERDICTS[s]}" for s in stacks)


# a price to buy asked beside the datasheet figures: "... board power. Also the launch MSRP"
_PRICE_BESIDE = re.compile(
    r"\bmsrps?\b|\blaunch (?:list )?prices?\b|\bretail prices?\b|\bstreet prices?\b"
    r"|\blist prices?\b|\bprices? to buy\b|\bpurchase prices?\b"
)


def _prices_beside(query: Query, box: ToolBox) -> str:
    """Each named card's dated prices to buy, when a datasheet answer was also asked them (the
    launch price first when "MSRP" or "launch" is said)."""
    if query.intent not in ("spec", "compare") or not _PRICE_BESIDE.search(query.low):
        return ""
    launch = re.search(r"\bmsrps?\b|\blaunch\b|\blist price", query.low)
    lines = []
    for ref in query.gpus:
        for gpu in ref.ids[:1]:
            result = box.call("purchase_prices", {"gpu": gpu})
            lines.append(c.purchase(result, "msrp" if launch else "new"))
    return "".join(f"\n\n{line}" for line in lines)


# the cards' bandwidth asked in tokens a second: "how does that translate to llm tok/s"
_TOKENS_ASKED = re.compile(
    r"\btok(?:en)?s?\s?(?:/|per)\s?s(?:ec(?:ond)?)?\b|\btokens? a second\b|\bllm speed\b"
    r"|\btoken generation\b"
)


def _tokens_from_bandwidth(query: Query, box: ToolBox) -> str:
    """Memory bandwidth asked with what it means for an LLM's tokens per second, no model named:
    the decode speed of a common local model as a 4-bit GGUF on each card named."""
    ids = [ref.ids[0] for ref in query.gpus if ref.ids]
    if (query.models or "bandwidth_gbs" not in query.fields or len(ids) < 1
            or not _TOKENS_ASKED.search(query.low)):  # fmt: skip
        return ""
    args = {"gpus": ids[:4], "family": "llm", "precision": "q4_k_m", "engine": "llama.cpp"}
    result = box.call("compare_workload", args)
    if "error" in result or not any(r["speed"] for r in result["gpus"]):
        return ""
    each = "; ".join(f"{r['gpu_name']} {c.num(r['speed'], result['unit'])}"
                     for r in result["gpus"] if r["speed"])  # fmt: skip
    return (
        f"\n\nIn tokens a second, for {result['model_name']} as a 4-bit GGUF (llama.cpp, one "
        f"stream): {each}. Each token reads every weight once, so one stream's decode speed "
        "follows the bandwidth; prompts, batches and training follow the tensor rate."
    )


# the draw said is the rest of the machine's ("the PC itself, without a graphics card, draws 120 W")
_REST_OF_BOX = re.compile(
    r"\b(?:without|w/o|minus|excluding|excl\.?) (?:a |the |its |any )?(?:graphics card|gpu|card)\b"
    r"|\b(?:pc|machine|box|system|computer)"
    r" itself\b|\bthe rest of the (?:machine|system|box|pc)\b"
)


# whose claim is asked about: "am I right?", "is my buddy right?", "who's right?"
_CLAIM_ASKED = re.compile(
    r"\b(?:am i|is (?:he|she|my [\w-]+|the [\w-]+)|are (?:they|you sure)) (?:right|correct|wrong)\b"
    # "he's wrong, right?", "she's right, isn't she?"
    r"|\b(?:he|she|they)(?:'s|'re| is| are) (?:right|correct|wrong)\b"
    # "the supplier tells us ... Is this correct?"
    r"|\bis (?:this|that|it|this claim|that claim|the claim|this statement|that statement)"
    r" (?:really |actually )?(?:right|correct|true|accurate)\b"
    # "so the 1080 Ti should be equal or better, right?": the asker's own expectation
    r"|\b(?:should|must|would|will|ought to) (?:be |beat |match |win\b)[^.?!]{0,60}?,? right\?"
)
_MY_CLAIM = re.compile(r"\bi (?:say|said|think|reckon|believe|claim|bet|argue|told (?:him|her))\b"
                       r"([^.?!]*)"
                       r"|\b(?:so|then|surely)\b([^.?!]*\b(?:should|must|would|will|ought to) "
                       r"(?:be|beat|match|win)\b[^.?!]*)")  # fmt: skip
_THEIR_CLAIM = re.compile(
    r"\b(?:he|she|they|buddy|friend|mate|colleague|boss|coworker|brother|sister|dad|son|lad|guy"
    r"|bloke|dude|salesman|seller|shop|store|clerk|teacher|kid|someone|everyone|people|reddit"
    r"|forum|article|video|youtuber|partner|husband|wife|manager|vendor|supplier|rep|he'd|she'd"
    r"|nephew|niece|uncle|aunt|cousin|grandson|granddaughter|teammate|student|professor|tutor"
    r"|reseller|retailer|dealer|integrator|consultant|post|thread|blog|website|site|review|tweet"
    r"|comment|benchmark|paper|newspaper|magazine|ad|advert|brochure|datasheet|spec sheet"
    r"|my [\w-]+)"
    r"(?: (?:in|at|from|on) (?:the |a |my |our )?[\w-]+(?: [\w-]+)?)?"
    r",? (?:says?|said|thinks?|claims?|reckons?|insists?|argues?|swears?|told (?:me|us)"
    r"|tells? (?:me|us)|assures? (?:me|us))\b,?([^.?!]*"
    r"(?:\.[^.?!]*\b(?:so|must|would|will)\b[^.?!]*)?)"
)
# the job a claim is about, and the datasheet figure that decides it: training runs on the
# tensor cores (not the FP32 figure), answering with an LLM reads the weights from memory
_CLAIM_JOBS = (
    (re.compile(r"\btrain\w*|\bfine-?tun\w*"), "fp16_bf16_dense_tflops"),
    (
        re.compile(
            r"\b(?:answer|respond|repl(?:y|ies)|generat|chat|tokens?\b|decod|inference\b"
            r"|llms?\b)"
        ),
        "bandwidth_gbs",
    ),
)
# "the 4090 must train faster than the H100": the card of the clause before "than" is claimed
# better ("so it must train faster": "it" is the card the claim began with)
_BETTER_THAN = re.compile(
    # ("the 4090 will always be slower than any HBM card": the card claimed the lesser, which
    # _CLAIMED_LESS turns round)
    r"(?P<better>[^,;]{0,60}?)\b(?:faster|quicker|better|stronger|more powerful|slower|worse"
    r"|weaker)\b.{0,20}?"
    r"\bthan\b(?P<worse>.{0,40})"
)


# "the 4090 should beat the A100", "the 1080 ti should be equal or better": the card before it
_SHOULD_BEAT = re.compile(
    r"(?P<better>[^,;]{0,60}?)\b(?:should|must|would|will|ought to) (?:beat|outrun|outperform"
    r"|be (?:equal or )?(?:better|faster|quicker|stronger))\b"
)


def _claimed_better(clause: str, query: Query, sheets: list[dict[str, Any]]) -> dict[str, Any]:
    """The sheet of the card a claim says is the better one, or {} when the words do not say."""
    pairs = list(zip(query.gpus, sheets, strict=False))
    swap = SWAP_TO.search(clause)  # "swap my 3080 for a 4060 ti": the card moved to, claimed better
    better = _BETTER_THAN.search(clause) or _SHOULD_BEAT.search(clause)
    for m, group in ((swap, "new"), (better, "better")):
        if m is None:
            continue
        # the card named nearest the claim's word: the last one in "better", the first in "new"
        found = [(m.group(group).find(re.findall(r"[a-z]*\d+[a-z]*", g.text.lower())[0]), s)
                 for g, s in pairs if card_named_in(g.text, m.group(group))]  # fmt: skip
        if len(found) == 1:
            return found[0][1]
        if not found and group == "better" and re.search(r"\b(?:it|this|that|this one|that one)\b",
                                                         m.group(group)):  # fmt: skip
            first = [s for g, s in pairs if card_named_in(g.text, clause[: m.start()] or clause)]
            if first:
                return first[0]
    named = [s for g, s in pairs if g.text and g.text.lower().split()[-1] in clause]
    return named[0] if len(named) == 1 else {}


# a claim that two figures are the same: "they have the same VRAM", "at least as much"
_SAME_CLAIMED = re.compile(
    r"\b(?:same|equal|identical|as much|as many|at least as|level|match\w*|no (?:more|less))\b"
)
# a claim that a card is the lesser: "I say the A100 is slower"
_CLAIMED_LESS = re.compile(r"\b(?:slower|worse|less|lower|smaller|weaker|loses?)\b")


def _clause(claim: re.Match[str]) -> str:
    """The claim's own words: the group of the form that matched ("i think ...", "so ...
    should")."""
    return next((g for g in claim.groups() if g is not None), "")


def _claim_checked(query: Query, box: ToolBox, text: str) -> str:
    """ "my buddy says his A100 has more bandwidth than my 5090; I say the 5090 is faster. Am I
    right?": the verdict on the claim asked about leads, from the figure asked (one datasheet
    field both cards have) or else from the pick."""
    asked = _CLAIM_ASKED.search(query.low)
    # a card said twice ("than an a100 40gb ... faster than the a100") is one card
    once: list[GpuRef] = []
    for g in query.gpus:
        if not any(set(g.ids) & set(o.ids) for o in once):
            once.append(g)
    query = replace(query, gpus=tuple(once))
    if not asked or len(query.gpus) != 2:
        return text
    mine = not asked.group(0).startswith(("is ", "are they", "he", "she", "they"))
    # the claim that names a card ("the lad in the shop told me has been nagging at me ... he
    # says swap it for a 4060 ti": the second)
    claims = list((_MY_CLAIM if mine else _THEIR_CLAIM).finditer(query.low))
    said = next((m for m in claims if re.search(r"\d", _clause(m))), claims[0] if claims else None)
    sheets = _named_sheets(query, box)
    if said is None or len(sheets) != 2:
        return text
    fields = [f for f in query.fields if all(isinstance(s.get(f), (int, float)) for s in sheets)]
    clause = _clause(said)
    if re.match(r"is (?:this|that|it)\b", asked.group(0)) and not (
            _BETTER_THAN.search(clause) or _SAME_CLAIMED.search(clause)):  # fmt: skip
        # "a friend says the 5080 holds it all in bf16. Is this true?": no claim of one card
        # over the other, so no verdict from their figures
        return text
    job = next((f for words, f in _CLAIM_JOBS if words.search(clause)), None)
    picked = re.search(r"(?m)^\*\*(?:Yes: |No: )?[Pp]ick the (.+?)[:*]", text)
    why = ""
    if job and not (picked and job == "bandwidth_gbs" and query.models) and all(
            isinstance(s.get(job), (int, float)) for s in sheets):  # fmt: skip
        # "the 4090 lists more FP32, so it must train AI faster than the H100": the job's own
        # figure decides, not the one the claim quotes
        if fields and fields[0] != job:
            label = c.FIELD_LABELS[job][0]
            why = (f"For {'training' if job != 'bandwidth_gbs' else 'answering'}, the "
                   f"{label} decides: " + ", ".join(
                       f"the {s['name']} {c.num(s[job], c.FIELD_LABELS[job][1])}"
                       for s in sheets) + f"; the {c.FIELD_LABELS[fields[0]][0]} the claim quotes "
                   "is not the figure that job runs on.\n\n")  # fmt: skip
        fields = [job]
    elif job and picked:
        # "cores are cores, so for training the 1080 Ti should be equal or better": the job's own
        # figure is missing on a card (no 16-bit tensor rate on Pascal), so the calculator's pick
        # for the job decides, not the figure the claim quotes
        fields = []
    if fields:
        if sheets[0][fields[0]] == sheets[1][fields[0]]:  # the same on both
            who = "you are" if mine else "that is"
            wrong = asked.group(0).endswith("wrong")
            # a claim of sameness holds ("they have the same VRAM", "at least as much"); a claim
            # of more or less does not
            holds = bool(_SAME_CLAIMED.search(clause))
            verdict = ((f"No: {who} right" if holds else f"Yes: {who} wrong") if wrong
                       else (f"Yes: {who} right" if holds else f"No: {who} not right"))  # fmt: skip
            lead = re.match(r"\*\*(?:Yes|No)(?:, that holds)?: (?=the .+ have the same )", text)
            if lead:  # "the same vram as the 3090, is he right?": one verdict, with its figure
                return f"**{verdict}: {text[lead.end() :]}"
            return f"**{verdict}: the two have the same figure.**\n\n{text}"
        winner = max(sheets, key=lambda s: s[fields[0]])
    else:
        winner = next(iter(s for s in sheets if picked and s["name"] == picked.group(1)), {})
    claimed = _claimed_better(clause, query, sheets)
    first = text.split("\n", 1)[0]
    if (_SAME_CLAIMED.search(clause) and first.startswith("**No: ") and " differ" in first
            and asked.group(0).endswith("wrong")):  # fmt: skip
        # "he says the 4060 ti is the same as a 3090. he's wrong, right?": yes, they differ
        who = "you are" if mine else "that is"
        return f"**Yes: {who} wrong: " + text[len("**No: ") :]
    if not winner or not claimed:
        return text
    right = (claimed is winner) != bool(_CLAIMED_LESS.search(clause))
    who = "you are" if mine else "that is"
    if asked.group(0).endswith("wrong"):  # "am I wrong?": no when the claim holds
        verdict = f"**No: {who} right.**" if right else f"**Yes: {who} wrong.**"
    else:
        ahead = f"the {winner['name']} comes out ahead" if winner.get("name") else ""
        verdict = (f"**Yes: {who} right.**" if right
                   else f"**No: {who} not right; {ahead}.**" if ahead
                   else f"**No: {who} not right.**")  # fmt: skip
    word = verdict[2 : verdict.index(":")]
    said = re.match(rf"\*\*{word}: (?!a small step)", text)
    if said and not why:  # "No: the A10 is faster for this job": one verdict, with its reason
        return f"{verdict[:-3]}: {text[said.end() :]}"
    return f"{verdict}\n\n{why}{text}"


# a figure asked to be the same on two cards: "does the RX 7900 XTX have practically the same
# memory bandwidth as the 4090?", "is it true they have about the same vram?"
_SAME_FIGURE_ASKED = re.compile(
    r"\b(?:(?:practically|basically|almost|nearly|about|roughly|pretty much|essentially|more or"
    r" less) )?the same (?:[\w/-]+ ){0,3}(?:as|of|to|like)\b"
    r"|\b(?:have|has|got) (?:about |roughly )?(?:the same|equal|similar) (?:[\w/-]+ ){0,2}\?"
)


def _same_figure_checked(query: Query, box: ToolBox, text: str) -> str:
    """ "is it true the RX 7900 XTX has practically the same memory bandwidth as the 4090?": yes
    or no from the one datasheet figure asked of the two cards (within SAME_WITHIN), first."""
    if len(query.fields) != 1 or not _SAME_FIGURE_ASKED.search(query.low):
        return text
    if _VERDICT_START.search(text):
        return text
    sheets = _named_sheets(query, box)
    field = query.fields[0]
    values = [float(v) for s in sheets if isinstance(v := s.get(field), (int, float)) and v > 0]
    if len(sheets) != 2 or len(values) != 2:
        return text
    low_v, high_v = sorted(values)
    label, unit = c.FIELD_LABELS[field]
    near = high_v / low_v - 1 <= SAME_WITHIN
    figures = ", ".join(f"the {s['name']} {c.num(s[field], unit)}" for s in sheets)
    gap = f"{c.num(100 * (high_v / low_v - 1))}% apart"
    lead = f"Yes, about the same {label}" if near else f"No, not the same {label}"
    return f"**{lead}: {figures} ({gap}).**\n\n{text}"


# the figures of a message that quotes TFLOPS: "2,615 TFLOPS for the MI300X, against 989 for the
# H100" (not memory, watts, ratios or money)
_RATE_WORD = re.compile(r"\b(?:tflops|teraflops)\b")  # ("tf" alone is also TensorFlow)
_FIGURE = re.compile(
    r"(?<![\w.,$€£])(\d{1,2}(?:,\d{3})+|\d{2,5}(?:\.\d+)?)"
    r"(?!\d|[.,]\d|\s?(?:gb|gib|w\b|watts?|x\b|times|%|tokens|hours|b\b|k\b|gb/s))"
)
# a comparison of quoted figures put to the test: "is this the right comparison?", "6x faster,
# right?", "does that mean it is 2.6 times faster?"
_QUOTED_JUDGED = re.compile(
    r"\b(?:right|fair|correct|true|accurate|legit|valid|apples)\b|\b(?:times|x) (?:faster|quicker"
    r"|better|as fast)\b|\bdoes (?:that|this) mean\b"
    # "the datasheet says 'with sparsity': what does that mean, what is the real number?"
    r"|\bwhat does (?:that|this|it) mean\b|\breal (?:number|figure|rate|one)\b|\bsparsity\b"
)
# the rates a datasheet's headline may be, besides the dense FP16/BF16 one
_HEADLINE_RATES = (
    ("fp16_bf16_sparse_tflops", "sparse FP16/BF16 rate (2:4 structured sparsity)"),
    ("fp8_dense_tflops", "dense FP8 rate"),
    ("int8_sparse_tops", "sparse 8-bit rate (INT8 and FP8 with 2:4 sparsity)"),
)


def _sparse_quoted(query: Query, box: ToolBox, text: str) -> str:
    """ "the brochure: 2,615 TFLOPS for the MI300X against 989 for the H100, so 2.6x faster:
    right?": a figure quoted that is a card's sparse (or FP8) rate set against another's dense
    one; no, and the dense rates side by side, lead."""
    low = query.low
    sparsity = re.search(r"\bsparsity\b|\bsparse\b", low)
    if not (len(query.gpus) >= 2 or sparsity) or not (
            _QUOTED_JUDGED.search(low) and _RATE_WORD.search(low)):  # fmt: skip
        return text
    said = [float(m.group(1).replace(",", "")) for m in _FIGURE.finditer(low)]
    sheets = _named_sheets(query, box)
    if not said or not sheets or ((len(said) < 2 or len(sheets) < 2) and not sparsity):
        return text
    for sheet in sheets:
        for field, label in _HEADLINE_RATES:
            # the dense rate to set it against: FP8's for an 8-bit figure said of FP8
            dense = ("fp8_dense_tflops" if field == "int8_sparse_tops" and "fp8" in low
                     and isinstance(sheet.get("fp8_dense_tflops"), (int, float))
                     else "fp16_bf16_dense_tflops")  # fmt: skip
            rate = sheet.get(dense)
            other = sheet.get(field)
            if not (isinstance(other, (int, float)) and isinstance(rate, (int, float))):
                continue
            if any(abs(v - other) <= 0.01 * other and abs(v - rate) > 0.05 * rate for v in said):
                both = ", ".join(f"the {s['name']} {c.field_value(s, dense)}" for s in sheets
                                 if isinstance(s.get(dense), (int, float)))  # fmt: skip
                kind = c.FIELD_LABELS[dense][0]
                if dense == "fp8_dense_tflops":  # "1321 TFLOPS FP8": FP8's, said as FP8
                    label = "sparse FP8 rate (2:4 structured sparsity)"
                if sparsity and "structured sparsity" in text:
                    return text  # explained already, by the principle of sparse rates
                if sparsity and "sparse" in field:  # "'with sparsity': what does that mean?"
                    return (f"**Sparsity: the {c.num(other, 'TFLOPS')} quoted for the "
                            f"{sheet['name']} is its {label}, twice what a dense model gets; "
                            f"the real rate is its {kind} rate, "
                            f"{c.field_value(sheet, dense)}.** Set like against like, {kind}: "
                            f"{both}. 2:4 structured sparsity counts a speed-up only for "
                            f"weights pruned to two zeros in every four, which ordinary models "
                            f"are not.\n\n{text}")  # fmt: skip
                return (f"**No: the {c.num(other, 'TFLOPS')} quoted for the {sheet['name']} "
                        f"is its {label}, not its {kind} rate "
                        f"({c.field_value(sheet, dense)}).** Set like against like, "
                        f"{kind}: {both}.\n\n{text}")  # fmt: skip
    return text


# the energy itself asked, with no price per kWh: "how many kWh per day is that?"
_KWH_ASKED = re.compile(r"\bhow many (?:kwh|kilowatt[- ]hours?)\b|\bkwh (?:a|per|each) day\b")


# datasheet figures people ask that the catalog does not keep, with the field a question about
# them is otherwise read as ("memory bus width" is not its bandwidth)
UNRECORDED_FIELDS: tuple[tuple[str, str, str | None], ...] = (
    ("memory bus width", r"\bbus width\b|\bmemory bus\b|\b\d{2,4}-?bit (?:memory )?bus\b",
     "bandwidth_gbs"),
    ("clock speed", r"\b(?:what|which|how (?:high|fast))\b[^.?!]{0,30}\b(?:boost|base|core|game"
     r"|memory|gpu) clocks?\b|\b(?:boost|base|core|game) clocks?\b[^.?!]{0,15}\?|\bclock speeds?\b",
     None),
    ("power connector", r"\b(?:what|which)\b[^.?!]{0,30}\bpower (?:connectors?|plugs?)\b"
     r"|\bpower connectors?\b[^.?!]{0,15}\?|\b12v-?hpwr\b[^.?!]{0,15}\?", "tdp_w"),
    ("die size and transistor count", r"\bdie size\b|\bdie area\b|\bhow many transistors\b",
     None),
    ("process node", r"\bprocess (?:node|technology)\b|\bwhat (?:node|nm)\b", None),
    ("ray-tracing cores", r"\b(?:rt|ray[- ]tracing) cores?\b", None),
    ("cache size", r"\bl[12] cache\b|\bcache size\b|\binfinity cache\b", None),
    ("card length", r"\b(?:card|board) length\b"
     r"|\bhow (?:long|big) is (?:the |a |an |my )?(?:[\w-]+ ){0,1}(?:card|gpu|board)\b"
     r"(?! (?:warranty|going|gonna))", None),
    ("display outputs", r"\bdisplay ?ports?\b|\bhdmi\b|\bvideo outputs?\b", None),
)  # fmt: skip


def _unrecorded_said(query: Query, text: str) -> str:
    """A datasheet figure the catalog does not keep ("the boost clock", "memory bus width"):
    said so, first when nothing else asked is on record, after the verdict otherwise; never
    answered with another field in its place unannounced."""
    if query.intent not in ("spec", "compare") or not query.gpus:
        return text
    found = [(label, stands) for label, words, stands in UNRECORDED_FIELDS
             if re.search(words, query.low)]  # fmt: skip
    if not found:
        return text
    labels = " and ".join(label for label, _ in found)
    catalog = load_catalog()  # each card by its name (a family named: what the user said)
    names = " and ".join(
        dict.fromkeys(
            catalog.gpus[g.ids[0]].name if len(g.ids) == 1 else g.text for g in query.gpus if g.ids
        )
    )
    if not names:
        return text
    note = (f"Not on record: the {labels} of the {names}; the catalog keeps memory, bandwidth, "
            "compute rates, power, links and core counts.")  # fmt: skip
    # the fields read only from the words of the unrecorded figure ("memory bus" as bandwidth)
    own = {stands for _, stands in found if stands} | ({"memory_gb"} if "memory bus" in labels
                                                          else set())  # fmt: skip
    if not set(query.fields) - own:
        return f"**{note}**\n\n{text}"
    head, sep, rest = text.partition("\n\n")
    return f"{head}\n\n{note}{sep}{rest}" if sep else f"{head}\n\n{note}"


# a choice or a worth asked between two cards: "is there any point in the 16gb over the 8gb",
# "worth it over", "or", "vs"
_SPEED_ASKED = re.compile(r"\b(?:faster|quicker|slower)\b")
_CHOICE_ASKED = re.compile(
    r"\b(?:worth|point|over|or|vs\.?|versus|which|better|instead|difference|upgrade)\b|"
    + _SPEED_ASKED.pattern
)


def _only_memory_differs(query: Query, box: ToolBox, text: str) -> str:
    """Two cards of one chip that differ only in memory ("4060 Ti 16GB over the 8GB version, for
    LLMs?"): what the memory buys leads, the largest LLM each runs; the speeds are the same."""
    if query.intent not in ("spec", "compare") or not _CHOICE_ASKED.search(query.low):
        return text
    if set(query.fields) - {"memory_gb"}:
        return text  # "8gb or 16gb, memory bandwidth?": the figure asked leads
    if any(m.ids and not m.assumed for m in query.models):
        return text  # "16gb vs 8gb, which one for llama 13b?": the model named decides
    named = [r for r in query.gpus if len(r.ids) == 1 and (r.count or 1) == 1]
    if len(named) != 2 or len(query.gpus) != 2 or text.startswith("**Yes, for the memory"):
        return text
    if any(m.family not in (None, "llm") for m in query.models):
        return text
    sheets = [box.call("gpu_specs", {"gpu": r.ids[0]}) for r in named]
    if any("error" in sh for sh in sheets):
        return text
    a, b = sheets

    def level(field: str) -> bool:
        x, y = a.get(field), b.get(field)
        return bool(x and y and abs(x - y) <= 0.02 * max(x, y))

    if not (level("bandwidth_gbs") and level("fp16_bf16_dense_tflops")) or level("memory_gb"):
        return text
    room = what_more_memory_holds(query, box, sheets)
    if not room:
        return text
    head = (f"**The memory is the difference: the same speed (memory bandwidth "
            f"{c.num(a['bandwidth_gbs'], 'GB/s')} on both), and the larger memory runs bigger "
            "models.** " + room)  # fmt: skip
    if _SPEED_ASKED.search(query.low):  # "is the 16gb faster than the 8gb?": no, the same
        head = "**No, " + head[2].lower() + head[3:]
        first, sep, rest = text.partition("\n\n")
        text = rest if first.startswith("**Yes") and sep else text  # (not a "Yes: pick" too)
    return f"{head}\n\n{text}"


def _energy_asked(query: Query, box: ToolBox, text: str) -> str:
    """ "the Jetson AGX Orin's max power, and flat out 24 hours a day, how many kWh per day?":
    the kWh of the card's board power over the hours said, beside an answer that gives none."""
    if query.usd_per_kwh is not None or not _KWH_ASKED.search(query.low) or "kWh" in text:
        return text
    ref = query.gpus[0] if len(query.gpus) == 1 and query.gpus[0].ids else None
    daily = re.search(r"\b(?:a|per|each) day\b", query.low)
    hours = (query.use_hours_per_day if daily else None) or query.hours
    if ref is None or not hours:
        return text
    args = {"usd_per_kwh": 0.0, "hours": hours, "gpu": ref.ids[0], "num_gpus": ref.count or 1}
    if query.draw_w:
        args["power_w"] = query.draw_w
    used = box.call("electricity_cost", args)
    if "error" in used:
        return text
    watts = used["total_w"]
    span = "a day" if daily else c.duration(hours)
    return (
        f"**About {c.num(used['kwh'], 'kWh')} {span}**: {c.num(watts, 'W')} for "
        f"{c.num(hours, 'hours')}.\n\n{text}"
    )


# the unit a figure is asked in, when the answer's figure is in another
_LATENCY_ASKED = re.compile(r"\blatency\b|\bms per (?:request|query|sample|image|sequence)\b"
                            r"|\bhow many (?:ms|milliseconds)\b")  # fmt: skip
_STEPS_ASKED = re.compile(r"\bsteps?(?: per |/)s(?:ec(?:ond)?)?\b|\bit/s\b|\bits per second\b"
                          r"|\bs(?:ec(?:onds?)?)?(?: per |/)(?:step|it(?:eration)?)\b")  # fmt: skip
_SECONDS_ASKED = re.compile(r"\bhow many (?:seconds|secs)\b|\bin seconds\b")
_DAYS_ASKED = re.compile(r"\bhow many days\b|\bin days\b|\bhow many weeks\b")
_ONE_IMAGE = re.compile(
    r"\b(?:for|per|of|on) (?:one|a|an|each|every|a single|1) (?:picture|image|photo|pic|render"
    r"|frame)\b|\beach (?:picture|image|photo|pic|render)\b"
)
_NODES_ASKED = re.compile(
    r"\bhow many (?:[\w-]+ ){0,3}?nodes\b|\bnodes? (?:do|would|will) (?:i|we) need\b"
)
_PREFILL_TIME_ASKED = re.compile(
    r"\bprefill time\b|\bhow long\b[^.?!]{0,40}\b(?:process|read|ingest|prefill|summari[sz]e)\b"
)
_MONTH_ASKED = re.compile(r"\b(?:per|a|each|every|/) ?month\b|\bmonthly\b")
_MS_PER_TOKEN_ASKED = re.compile(
    r"(?:(\d+(?:\.\d+)?)\s?)?(?<![a-z])ms (?:per|a|/) ?(?:output )?token\b"
    r"|\b(?:latency|time) per token\b|\bper[- ]token latency\b"
)
_PER_MINUTE_ASKED = re.compile(r"\b(?:images?|pictures?|pics|renders?) (?:per|a|/) ?min(?:ute)?\b"
                               r"|\bbilder pro minute\b|\bimages? par minute\b")  # fmt: skip
# "cost per 1k tokens", "price per thousand tokens": a serving price per thousand tokens
_PER_THOUSAND_TOKENS = re.compile(
    r"\bper (?:1 ?k|1,?000|one thousand|thousand|a thousand) (?:output |generated )?tok(?:en)?s?\b"
)
# "cost per 1000 requests", "price per request", "$ per 1k calls": a serving price per request
_PER_REQUESTS_ASKED = re.compile(
    r"\b(?:cost|price|pay|spend|\$|usd|dollars?)\b[^.?!]{0,40}?\bper (?:(\d[\d,]*)\s?(k)? |an? "
    r"|one |each |every )?(?:requests?|calls?|queries|query|conversations?|messages?|chats?)\b"
)
_AUDIO_RATE_ASKED = re.compile(
    r"\bhours? of (?:audio|speech|recordings?) (?:per|an|a|each|every) (?:gpu[- ])?hour\b"
)


# a token API set against the GPUs: "vs just paying for the openai api", "or groq api?"
_API_WEIGHED = re.compile(
    r"\b(?:vs\.?|versus|or|instead of|than|compared? (?:to|with)|against|just pay\w*(?: for)?)"
    r"\s(?:just )?(?:paying (?:for )?)?(?:the |an? |their )?(?:\w+ ){0,2}"
    r"(?:api|openai|together(?: ai)?|groq|fireworks|anthropic|deepinfra|openrouter|gpt-4o[\w-]*"
    r"|gpt-4\.1[\w-]*|claude|gemini)\b"
    r"|\b(?:api|openai|together(?: ai)?|groq|gpt-4o[\w-]*)\b[^.?!]{0,25}\b(?:vs\.?|versus|or)"
    r"\s(?:self[- ]?host\w*|rent\w*|our own|my own|a gpu|gpus?)\b"
)


def _api_unpriced(query: Query) -> str:
    """ "cost to serve llama 70b on H100s vs just paying for the openai api": the catalog has
    no API prices, so the answer asks for the one the user pays (and weighs it when given)."""
    if query.service_price or query.monthly_usd or not _API_WEIGHED.search(query.low):
        return ""
    return (
        "\n\n_The catalog has no API prices: give the API's price per million tokens and "
        "the tokens a day or month, and I set it against the GPUs._"
    )


def _ram_short(query: Query, box: ToolBox, text: str) -> str:
    """ "zero-3 offload: a 13b on one 4090 with 128gb ram?": the system RAM the offloaded state
    needs against the RAM said, when it is more (a verdict that rests on the GPU alone misses
    it), said after the verdict."""
    if not query.ram_gb:
        return text
    needs = [call.result.get("host_memory_gb") for call in box.calls if call.name == "estimate"
             and "error" not in call.result]  # fmt: skip
    host = next((n for n in needs if n), None)
    if not host or host <= query.ram_gb or "RAM" in text.split("\n", 1)[0]:
        return text
    head, sep, rest = text.partition("\n\n")
    ram = c.num(query.ram_gb, "GB")
    if head.startswith("**Yes: "):  # the card holds its share; the machine does not hold the rest
        return (f"**No, not with your {ram} of RAM: the state offloaded to the CPU needs about "
                f"{c.num(host, 'GB')} of system RAM.** On the GPU side: "
                f"{head[len('**Yes: ') :].replace('**', '', 1)}{sep}{rest}")  # fmt: skip
    return (
        f"{head}\n\n**Your {ram} of RAM is short as well:** the state "
        f"offloaded to the CPU needs about {c.num(host, 'GB')} of system RAM.{sep}{rest}"
    )


def _first_fit(box: ToolBox, key: str, head: str = "") -> dict[str, Any] | None:
    """The first estimate made that fits and has `key`: of the card the answer's first line
    names first when `head` is given, else the first made."""
    found = [call.result for call in box.calls if call.name == "estimate"
             and call.result.get("fits") and call.result.get(key)]  # fmt: skip
    named = [(head.find(e["gpu_name"]), i) for i, e in enumerate(found) if e["gpu_name"] in head]
    return found[min(named)[1]] if named else (found[0] if found else None)


def _shown_job(box: ToolBox, head: str) -> dict[str, Any] | None:
    """The estimate whose job time the answer's first line shows first (the one it settled on,
    at the batch the job runs at; of two alike, the latest made); None when it shows none."""
    found = [call.result for call in box.calls if call.name == "estimate"
             and call.result.get("fits") and call.result.get("job_hours")]  # fmt: skip
    shown = [(head.find(c.num(e["job_hours"]["typical"], "hours")), -i, e)
             for i, e in enumerate(found)]  # fmt: skip
    shown = [s for s in shown if s[0] >= 0]
    return min(shown, key=lambda s: s[:2])[2] if shown else None


# the longest context asked beside another figure: "how many tok/s and how long context can i fit"
_CONTEXT_ALSO = re.compile(
    r"\bhow (?:long|much|big|large)(?: of)?(?: an?)? context\b|\bmax(?:imum)? context\b"
    r"|\blongest context\b|\bhow many tokens of context\b"
)


def _context_also(query: Query, box: ToolBox, text: str) -> str:
    """ "... how many tokens per second and how long context can i fit": the longest context the
    setup answered holds (the solve tool), after the answer's first paragraph."""
    if (
        query.intent == "solve"
        or not _CONTEXT_ALSO.search(query.low)
        or "context that fits" in text
    ):
        return text
    first = text.split("\n", 1)[0]
    e = _first_fit(box, "decode_tokens_per_s", first)
    call = next((k for k in box.calls if k.name == "estimate" and k.result is e), None)
    if e is None or call is None or (e.get("family") or "llm") != "llm":
        return text
    # (the context is what is solved for)
    args = {k: v for k, v in call.args.items() if k in SOLVE_ARGS and k != "context"}
    found = box.call("solve", {**args, "target": "max_context"})
    longest = found.get("solution") if "error" not in found else None
    if not longest:
        return text
    where = c.gpus_phrase(e.get("num_gpus") or 1, e["gpu_name"])
    line = (f"**Longest context that fits: about {longest:,} tokens** on {where} "
            f"({e['precision']}, one sequence; the KV cache grows with it).")  # fmt: skip
    head, sep, rest = text.partition("\n\n")
    return f"{head}\n\n{line}{sep}{rest}"


def _priced_at_full_load(e: dict[str, Any], usd: float, per: str, detail: str) -> str:
    """ "**About $0.0819 per 1,000 requests** on one NVIDIA L4 at full load: ...": a serving
    price per unit of the estimate `e`'s setup, its working said after (`detail`)."""
    where = c.gpus_phrase(e.get("num_gpus") or 1, e["gpu_name"])
    return f"**About {c.usd(usd)} per {per}** on {where} at full load{detail}"


def _unit_asked(query: Query, box: ToolBox, text: str) -> str:
    """The figure in the unit the question asks it in, first, where the answer's figure is in
    another: whole nodes of a count of cards, a count's month of rent, ms per token (against a
    budget said), images a minute, a prompt's prefill time, a batch's latency, steps a second of
    a training's tokens a second, hours of audio an hour, a job's time in seconds or days."""
    low, lead = query.low, None
    first = text.split("\n", 1)[0]
    if _DAYS_ASKED.search(low) and re.search(r"\d days\b", first):
        return text  # the answer's own figure is in days already
    if _SECONDS_ASKED.search(low) and re.search(r"\d s\b", first):
        return text
    counted = re.match(r"\*\*[^*]*?\bneeds ([\d,]+) x ([^*]+?)\*\*", first)
    if _NODES_ASKED.search(low) and counted and "node" not in first:
        n = int(counted.group(1).replace(",", ""))  # "how many h100 nodes for a qlora of 405b"
        nodes = -(-n // NODE_GPUS)
        lead = (f"**{nodes} node{'s' if nodes > 1 else ''} of {NODE_GPUS}** ({n} x "
                f"{counted.group(2)} hold it; a node is a board of {NODE_GPUS}).")  # fmt: skip
    elif _MONTH_ASKED.search(low) and counted and "month" not in text.split("\n\n", 1)[0]:
        # "how many H100s ... and what does that cost per month?": the count rented a month
        n, gpu = int(counted.group(1).replace(",", "")), _first_fit(box, "gpu")
        rented = (box.call("prices", {"gpu": gpu["gpu"], "hours": HOURS_PER_MONTH,
                                      "num_gpus": n}) if gpu else {})  # fmt: skip
        rent, summary = rented.get("rental_usd"), rented.get("summary_usd_per_gpu_hour")
        if rent and summary:
            lead = (f"**About {c.usd(rent['median'])} a month on {n} x {counted.group(2)}** "
                    f"rented around the clock, at the median {c.usd(summary['median'])} per "
                    "GPU-hour.")  # fmt: skip
    elif _PER_THOUSAND_TOKENS.search(low) and (
            e := _first_fit(box, "serving_tokens_per_s", first)) and (
            full := (e.get("cost") or {}).get("usd_per_million_tokens_full_load")):  # fmt: skip
        # "we bill per 1k tokens: our cost per 1k tokens at full load?": the million's price
        # over a thousand (the service_cost tool on a thousandth of a million)
        bill = box.call("service_cost", {"usd_per_unit": full, "units": 0.001,
                                         "unit": "million tokens"})  # fmt: skip
        if "error" not in bill:
            lead = _priced_at_full_load(
                e, bill["usd"], "1,000 tokens",
                f" ({c.usd(full)} per million tokens, "
                f"{c.num(e['serving_tokens_per_s']['typical'], 'tokens/s')} of output at "
                f"{c.usd(e['cost']['usd_per_hour'])}/hour).")  # fmt: skip
    elif (per := _PER_REQUESTS_ASKED.search(low)) and (
            e := _first_fit(box, "serving_requests_per_s", first)) and (
            (e.get("cost") or {}).get("usd_per_hour")):  # fmt: skip
        # "what is the cost per 1000 requests ... on a l4": the full load's price per request
        many = float(per.group(1).replace(",", "")) * (1000 if per.group(2) else 1) if (
            per.group(1)) else 1.0  # fmt: skip
        bill = box.call("request_cost", {"usd_per_hour": e["cost"]["usd_per_hour"],
                                         "requests_per_s": e["serving_requests_per_s"],
                                         "requests": many})  # fmt: skip
        if "error" not in bill:
            count = "a request" if many == 1 else f"{c.num(many)} requests"
            lead = _priced_at_full_load(
                e, bill["usd"], count,
                f": {c.num(bill['requests_per_hour'])} requests an hour (prompts of "
                f"{e['serving_prompt']:,} tokens, replies of {e['output_tokens']:,}) at "
                f"{c.usd(bill['usd_per_hour'])}/hour.")  # fmt: skip
    elif (per_token := _MS_PER_TOKEN_ASKED.search(low)) and (
            e := _first_fit(box, "decode_tokens_per_s", first)):  # fmt: skip
        rate = box.call("step_rate", {"per_second": e["decode_tokens_per_s"]["typical"],
                                      "per_step": 1})  # fmt: skip
        if "error" not in rate:
            ms = rate["ms_per_step"]
            budget = float(per_token.group(1)) if per_token.group(1) else None
            verdict = "" if budget is None else "Yes: " if ms <= budget else "No: "
            side = "within" if budget is not None and ms <= budget else "over"
            within = "" if budget is None else f", {side} your {c.num(budget, 'ms')}"
            lead = (f"**{verdict}about {c.num(ms, 'ms')} per token{within}** on "
                    f"{c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} at one stream "
                    f"({c.num(rate['per_second'], 'tokens/s')}, {e['precision']}).")  # fmt: skip
            lead = lead.replace("**about", "**About", 1)
    elif _PER_MINUTE_ASKED.search(low) and (
        timed := re.match(r"\*\*About ([\d.]+) s per image", first)
    ):
        # "how many images per minute?" of a card that runs it only lighter: the pace said so
        pace = float(timed.group(1))
        for call in box.calls:
            e = call.result
            per = (
                (e.get("seconds_per_image") or {}).get("typical")
                if call.name == "estimate"
                else None
            )
            if per and abs(per - pace) <= 0.01 * pace and e.get("images_per_s"):
                per_minute = c.num(e["images_per_s"]["typical"] * 60, "images/min")
                return text.replace(timed.group(0), f"**About {per_minute} ({timed.group(1)} s "
                                    "per image)", 1)  # fmt: skip
    elif _PER_MINUTE_ASKED.search(low) and not re.search(r"/min|per image", first) and (
            e := _first_fit(box, "images_per_s", first)):  # fmt: skip
        lead = (
            f"**About {c.num(e['images_per_s']['typical'] * 60, 'images/min')}** on "
            f"{c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} "
            f"({e['precision']}, {e.get('steps') or ''} steps)."
        ).replace(", steps", "")
    elif _PREFILL_TIME_ASKED.search(low) and (e := _first_fit(box, "time_to_first_token_s")):
        ttft = e["time_to_first_token_s"]["typical"]
        lead = (f"**About {c.duration(ttft / 3600)} to read the {e['context']:,}-token prompt** "
                f"on {c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} (the time to the first "
                f"token, {e['precision']}).")  # fmt: skip
    elif _LATENCY_ASKED.search(low) and (e := _first_fit(box, "infer_samples_per_s")):
        rate = box.call("step_rate", {"per_second": e["infer_samples_per_s"]["typical"],
                                      "per_step": e["batch"]})  # fmt: skip
        if "error" not in rate:
            each = "per request" if e["batch"] == 1 else f"per batch of {e['batch']}"
            lead = (f"**About {c.num(rate['ms_per_step'], 'ms')} {each}** on "
                    f"one {e['gpu_name']} ({c.num(rate['per_second'])} samples/s).")  # fmt: skip
    elif _STEPS_ASKED.search(low) and (e := _first_fit(box, "train_tokens_per_s")):
        tokens = e["batch"] * e["context"]
        rate = box.call("step_rate", {"per_second": e["train_tokens_per_s"]["typical"],
                                      "per_step": tokens})  # fmt: skip
        if "error" not in rate:
            lead = (f"**About {c.num(rate['steps_per_s'])} steps/s "
                    f"({c.num(rate['seconds_per_step'], 's')} per step)** on "
                    f"{c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])}: batch {e['batch']} x "
                    f"{e['context']:,} tokens = {tokens:,} tokens a step at "
                    f"{c.num(rate['per_second'], 'tokens/s')}, no gradient "
                    "accumulation.")  # fmt: skip
    elif _AUDIO_RATE_ASKED.search(low) and (e := _first_fit(box, "audio_seconds_per_s")):
        pace = e["audio_seconds_per_s"]["typical"]
        lead = (f"**About {c.num(pace)} hours of audio per hour** on one {e['gpu_name']} "
                f"({c.num(pace)} audio s/s).")  # fmt: skip
    elif (_SECONDS_ASKED.search(low) and _ONE_IMAGE.search(low)
          and (e := _first_fit(box, "seconds_per_image"))):  # fmt: skip
        # "how many seconds for one picture?": each image's time, not the whole batch's
        lead = (f"**About {c.num(e['seconds_per_image']['typical'], 's')} per image** on "
                f"{c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} ({e['precision']}, "
                f"{e.get('steps') or ''} steps).").replace(", steps", "")  # fmt: skip
    elif (asked := _SECONDS_ASKED.search(low) or _DAYS_ASKED.search(low)) and (
            e := _shown_job(box, first) or _first_fit(box, "job_hours")):  # fmt: skip
        hours = e["job_hours"]["typical"]
        said = (c.num(hours * 3600, "s") if "sec" in asked.group(0)
                else f"{c.num(hours / 24)} days")  # fmt: skip
        other = c.num(hours, "hours") if "day" in said else c.duration(hours)
        lead = (f"**About {said}** on {c.gpus_phrase(e.get('num_gpus') or 1, e['gpu_name'])} "
                f"({other}).")  # fmt: skip
    return f"{lead}\n\n{text}" if lead else text


def _named_sheets(query: Query, box: ToolBox) -> list[dict[str, Any]]:
    """The datasheet of each GPU named (its first variant), those the catalog returns."""
    sheets = [box.call("gpu_specs", {"gpu": g.ids[0]}) for g in query.gpus if g.ids]
    return [s for s in sheets if "error" not in s]


def _power_beside(query: Query, box: ToolBox, sheets: list[dict[str, Any]],
                  within: list[dict[str, Any]], text: str) -> str:  # fmt: skip
    """ "in a 70 W slot, A2 or T4?": each card's board power against the limit said, after the
    lead, where the answer does not show it already (the limit checked by the power tool: a
    slot's 75 W carried from an earlier turn is the calculator's figure, not this turn's
    words)."""
    if len(sheets) < 2 or "board power" in text.lower():
        return text
    box.call("system_power", {"gpu": sheets[0]["id"], "limit_w": query.max_power_w})
    limit = c.num(query.max_power_w, "W")

    def named(s: dict[str, Any]) -> str:  # "the RTX 3090", "4 x RTX 3090"
        return c.gpus_phrase(s["count"], s["name"]) if s.get("count", 1) > 1 else f"the {s['name']}"

    def watts(s: dict[str, Any]) -> str:  # "350 W", "4 x 350 W = 1,400 W"
        if s.get("count", 1) > 1:
            return f"{s['count']} x {c.num(s['tdp_w'], 'W')} = {c.num(s['set_w'], 'W')}"
        return c.num(s["tdp_w"], "W")

    each = ", ".join(f"{named(s)} {watts(s)}" for s in sheets)
    held = ("each within" if len(within) == len(sheets) else "none within" if not within else
            " and ".join(named(s) for s in within) + " within")  # fmt: skip
    head, sep, body = text.partition("\n\n")
    return f"{head}\n\nBoard power: {each}; {held} your {limit}.{sep}{body}"


# power the user has to care about with no limit said: off the grid, on a battery or an
# inverter, or the draw itself asked ("how much power does each pull")
_POWER_WORRY = re.compile(
    r"\bsolar\b|\binverter\b|\bbatter(?:y|ies)\b|\boff[- ]grid\b|\bgenerator\b|\bkva\b"
    r"|\bpower (?:draw|use|usage|consumption|budget)\b|\bhow much (?:power|electricity)\b"
    r"|\bthe power the cards? draws?\b|\bdraws? less\b|\bless power\b"
)


def _limit_said(query: Query) -> str:
    """ "your 300 W", or "the slot's 75 W" when the card has no power cable of its own."""
    watts = c.num(query.max_power_w, "W")
    slot = query.max_power_w == SLOT_POWER_W and SLOT_ONLY.search(query.low)
    return f"the slot's {watts} (no power cable)" if slot else f"your {watts}"


def _within_power(query: Query, box: ToolBox, text: str) -> str:
    """ "an inverter of at most 400 W, the PC without a card draws 120 W: a 3090 or a 4060 Ti?":
    when the pick would draw more than the power said and another card named stays within it,
    that one leads, the sums said."""
    if not query.max_power_w and len(query.gpus) >= 2 and _POWER_WORRY.search(query.low):
        # "still on the solar: jetson or a 3060?": each card's board power, after the lead
        sheets = [s for s in _named_sheets(query, box) if s.get("tdp_w")]
        if len(sheets) >= 2 and "board power" not in text.lower():
            each = ", ".join(f"the {s['name']} {c.num(s['tdp_w'], 'W')}" for s in sheets)
            head, sep, body = text.partition("\n\n")
            return f"{head}\n\nBoard power (the most each draws): {each}.{sep}{body}"
        return text
    if not (query.max_power_w and len(query.gpus) >= 2):
        return text
    rest = query.other_w or (query.draw_w if _REST_OF_BOX.search(query.low) else 0.0) or 0.0
    # each setup as a card's sheet, its board power times the cards in it ("4x RTX 3090 or one
    # RTX PRO 6000, our UPS carries at most 1000 W": 1,400 W against 600 W)
    # (a slot's 75 W holds each card apart, also when said in an earlier turn: no sum)
    slot = query.max_power_w == SLOT_POWER_W
    sheets = []
    for g in query.gpus:
        sheet = box.call("gpu_specs", {"gpu": g.ids[0]}) if g.ids else {"error": "none"}
        if "error" not in sheet and sheet.get("tdp_w") and all(x["id"] != sheet["id"]
                                                                for x in sheets):  # fmt: skip
            count = 1 if slot else g.count or 1
            # (a set's cards summed by the power tool, so the figure is the calculator's)
            summed = (box.call("system_power", {"gpu": sheet["id"], "num_gpus": count})
                      if count > 1 else {})  # fmt: skip
            set_w = summed.get("gpus_w") if "error" not in summed else None
            sheets.append({**sheet, "count": count, "set_w": set_w or sheet["tdp_w"] * count})
    picked = next(
        (
            s
            for s in sheets
            if text.startswith(
                (f"**Pick the {s['name']}", f"**Pick the {s['count']} x {s['name']}")
            )
        ),
        None,
    )
    within = [s for s in sheets if s["set_w"] + rest <= query.max_power_w]
    # two cards level on the job ("They are about as fast"): the power limit decides
    level = picked is None and len(within) == 1 and len(sheets) == 2
    if level:
        picked = next(s for s in sheets if s is not within[0])  # the one over the limit
    elif picked is None or picked in within or not within:
        return _power_beside(query, box, sheets, within, text)
    # the best ranked of those within it: the ranking names the cards in its order after the pick
    after = text.find("**", 2) + 2
    ok = min(within, key=lambda s: text.find(s["name"], after) % (len(text) + 1))

    def drawn(s: dict[str, Any]) -> str:
        cards = (f"{s['count']} x {c.num(s['tdp_w'], 'W')} = {c.num(s['set_w'], 'W')}"
                 if s["count"] > 1 else c.num(s["set_w"], "W"))  # fmt: skip
        return (
            f"{cards} + your {c.num(rest, 'W')} = {c.num(s['set_w'] + rest, 'W')}"
            if rest
            else cards
        )

    def named(s: dict[str, Any]) -> str:
        return c.gpus_phrase(s["count"], s["name"]) if s["count"] > 1 else f"the {s['name']}"

    # the limit checked by the power tool (also when it was said in an earlier turn)
    box.call("system_power", {"gpu": ok["id"], "num_gpus": ok["count"],
                              "limit_w": query.max_power_w})  # fmt: skip
    lead = (
        f"**Pick {named(ok)}: within {_limit_said(query)}** "
        f"({drawn(ok)}); {named(picked)} would draw {drawn(picked)}, over it."
    )
    if level:  # no pick before to set aside
        return f"{lead}\n\n{text}"
    return f"{lead}\n\n" + text.replace("**Pick the ", "**Without the power limit, the ", 1)


_WHY_MORE = re.compile(r"\bwhy\b|\bhow come\b|\bwhat(?:'s| is) different\b|\bwhat makes\b")


def _memory_kinds_why(query: Query, box: ToolBox, text: str) -> str:
    """ "why does an A100 have more bandwidth than a 5090? what's different about the memory?":
    the kinds of memory first (HBM against GDDR), with what sets them apart, when they differ."""
    from advisor.agent.glossary import entry

    if (not _WHY_MORE.search(query.low) or len(query.gpus) < 2
            or not {"bandwidth_gbs", "memory_type"} & set(query.fields)):  # fmt: skip
        return text
    kinds: dict[str, dict[str, Any]] = {}
    for s in _named_sheets(query, box):
        kind = str(s.get("memory_type") or "")
        if kind.upper().startswith(("HBM", "GDDR")):
            kinds.setdefault("hbm" if kind.upper().startswith("HBM") else "gddr", s)
    hbm, gddr = entry("hbm"), entry("gddr")
    if len(kinds) < 2 or hbm is None or gddr is None:
        return text
    a, b = kinds["hbm"], kinds["gddr"]
    lead = (
        f"**The memory differs in kind: the {a['name']} has {a['memory_type']}, the "
        f"{b['name']} {b['memory_type']}.** {hbm.lead} {gddr.lead} {gddr.more}"
    )
    return f"{lead}\n\n{text}"


_KV_LEFT_OUT = re.compile(
    r"\b(?:ignor\w*|exclud\w*|without|no|not counting|leave out|leaving out|minus|skip\w*)"
    r" (?:the )?kv\b"
)


def _with_decode_ceiling(query: Query, box: ToolBox, text: str) -> str:
    """ "decode upper bound, pure bandwidth roofline": the ceiling (the card's bandwidth over the
    bytes a token reads) after the headline, with the share of it the estimate reaches."""
    from advisor.agent.intents import ROOFLINE

    if not ROOFLINE.search(query.low) or not (query.gpus and query.models):
        return text
    gpus = {i for g in query.gpus for i in g.ids}
    models = {i for m in query.models for i in m.ids}
    e = next((call.result for call in box.calls if call.name == "estimate"
              and call.result.get("decode_tokens_per_s") and call.result.get("fits")
              and call.result.get("gpu") in gpus and call.result.get("model") in models
              and (call.result["num_gpus"] == 1 or call.result["engine"] != "llama.cpp")),
             None)  # the card and the model asked, not an example's  # fmt: skip
    if e is None:  # ("explain why decode is bandwidth-bound: 70B fp8 on an H100, the ceiling?")
        ref, model = query.gpus[0], query.models[0]
        e = box.call("estimate", estimate_args(query, ref.ids[0], ref.count, model)) if (
            ref.ids and model.ids and (model.family or "llm") == "llm") else None  # fmt: skip
        if not e or "error" in e or not e.get("fits") or not e.get("decode_tokens_per_s"):
            return text
    parts = e["breakdown_gb"]
    kv = not _KV_LEFT_OUT.search(query.low)
    read = parts["weights"] + (parts.get("kv_cache", 0.0) if kv else 0.0)
    bound = box.call(
        "decode_ceiling",
        {
            "bandwidth_gbs": e["gpu_bandwidth_gbs"],
            "read_gb": read,
            "estimate_tokens_per_s": e["decode_tokens_per_s"]["typical"],
        },
    )
    if "error" in bound:
        return text
    what = (
        "the weights on each card and the KV cache at the context"
        if kv
        else "the weights on each card; KV cache reads left out, as asked"
    )
    line = (
        "**Bandwidth ceiling (roofline) for one stream: about "
        f"{c.num(bound['tokens_per_s'], 'tokens/s')}**: {c.num(e['gpu_bandwidth_gbs'], 'GB/s')} "
        f"over {c.num(read, 'GB')} read per token ({what}). "
        f"The estimate, {c.num(e['decode_tokens_per_s']['typical'], 'tokens/s')}, is "
        f"{c.num(bound['share_percent'], '%')} of it: the share of peak bandwidth a tuned "
        f"{e['engine']} reaches on this card in the calculator's calibration."
    )
    head, sep, rest = text.partition("\n\n")
    return f"{head}\n\n{line}" + (sep + rest if rest else "")


# what a card runs, asked beside a job: "or is turing too old for bf16 / flash attention"
_SUPPORT_ASKED = re.compile(
    r"\b(?:bf16|bfloat16|flash[- _]?(?:attn|attention)\w*|fa[23])\b.{0,60}"
    r"\b(?:too old|support\w*|compatible|capable|work\w* (?:on|with)|run\w* on|possible)\b"
    r"|\b(?:too old|support\w*|compatible|capable|can it (?:do|use|run)|does it (?:do|have))\b"
    r".{0,60}\b(?:bf16|bfloat16|flash[- _]?(?:attn|attention)\w*|fa[23])\b"
)


def _support_asked(query: Query, box: ToolBox) -> str:
    """Whether the named card does bf16 or runs FlashAttention, asked beside a job: the
    principles' verdicts, unbolded, after the job's."""
    from advisor.agent import principles

    if not query.gpus or not _SUPPORT_ASKED.search(query.low):
        return ""
    found = []
    if principles.FORMAT_ASKED.search(query.low):
        found.append(principles.precision_support(query, box))
    if re.search(principles.FLASH_WORDS, query.low):
        found.append(principles.flash_attention(query, box))
    said = []
    for draft in found:
        if draft is not None:  # the verdict and its advice, not the card's datasheet line again
            kept = [p for p in draft.text.split("\n\n") if not _SHEET_LINE.match(p)]
            said.append(" ".join(kept).replace("**", ""))
    return "".join(f"\n\n{s}" for s in said)


_SHEET_LINE = re.compile(r"^[^:\n]+: [\d.]+ GB ")  # "NVIDIA GeForce RTX 2080 Ti: 11 GB GDDR6, ..."


_INSTANCE_NOTE = re.compile(r"^([\w.-]+): the \w+ [\w.-]+ instance, (\d+) x (.+?)\.?$")


def _beyond_trained_context(box: ToolBox, text: str) -> list[str]:
    """ "gemma 2 27b at 32k on a 5090": a context past what the model was trained to, said (its
    memory is sized as asked; its answers degrade unless the context is stretched)."""
    said = next((a for call in box.calls if call.name == "estimate" and "error" not in call.result
                 for a in call.result.get("assumptions") or []
                 if "beyond" in a and "trained context" in a), None)  # fmt: skip
    if said is None or "trained context" in text:
        return []
    return [
        f"{said[0].upper()}{said[1:]}: the memory is sized as asked, but past its trained "
        "length the model needs RoPE scaling and its answers degrade."
    ]


def _other_instance_priced(notes: list[str], box: ToolBox) -> list[str]:
    """ "g6e.xlarge price per month": the cloud's prices on record are another instance's (the
    g6e.48xlarge's, per GPU): said, as a smaller instance of the same card is billed less."""
    asked = {m.group(1) for note in notes if (m := _INSTANCE_NOTE.match(note))}
    if not asked:
        return []
    used = {(row.get("provider"), row.get("instance"), row.get("gpus_per_instance"))
            for call in box.calls if call.name == "prices" and "error" not in call.result
            for row in call.result.get("prices") or [] if row.get("instance")}  # fmt: skip
    if not used or any(i in asked for _p, i, _n in used):
        return []  # the instance asked is priced itself
    other = sorted(used)
    said = "; ".join(f"{p}'s {i} ({n} GPUs)" if n else f"{p}'s {i}" for p, i, n in other[:3])
    return [
        f"The prices on record are per GPU of {said}, not of the "
        f"{' or '.join(sorted(asked))} asked about; a smaller instance of the same card is "
        "billed less in all (fewer CPUs and less RAM with it), so check its own list price."
    ]


def _instances_named(notes: list[str], text: str) -> str:
    """ "g4dn.xlarge or g6.xlarge?": the pick (or the card a verdict names first) written as the
    instance asked about, its GPU beside it ("Pick the g6.xlarge (NVIDIA L4)", "Yes: the
    g6e.xlarge (NVIDIA L40S) does the job")."""
    head, sep, rest = text.partition("\n")
    found = []  # "The NVIDIA L4 has more ...", "fits on NVIDIA L40S only"; not "4 x NVIDIA L40S"
    instances = [m for note in notes if (m := _INSTANCE_NOTE.match(note))]
    held = [m.group(3) for m in instances]
    for m in instances:
        # (two instances of one card, "g6e.xlarge or g6e.12xlarge": the card names neither)
        if held.count(m.group(3)) == 1:
            # the card alone, or as many of it as the instance holds ("Pick the 8 x ...")
            said = re.search(rf"(?<!x )(?<![\w-])(?:{m.group(2)} x )?{re.escape(m.group(3))}"
                             r"(?![\w-])", head, re.I)  # fmt: skip
            if said:
                found.append((said.start(), said.end(), m.group(1), m.group(3)))
    if found and min(found)[2] not in head:
        start, end, instance, gpu = min(found)
        the = "the " if head[:start].endswith("Pick ") else ""  # "Pick 4 x L40S": the instance
        head = f"{head[:start]}{the}{instance} ({gpu}){head[end:]}"
    return head + sep + rest


# ---------------------------------------------------------------- the GPUs' own figures

# answers about what a named GPU can do show its datasheet line (memory, bandwidth, compute,
# power) when the answer has not already given those figures: the reader sees what decides it
_SHEET_INTENTS = ("fit", "speed", "solve", "train_time", "advice", "cost", "rent_or_buy")
MAX_SHEETS = 3


# a figure asked for in so many words beside a price or a judgement: "give me the FP64 figure",
# "what's its fp64 rate?", "tell me the TDP"
_DATASHEET_FIGURE_ASKED = re.compile(
    r"\b(?:give me|tell me|show me|what(?:'s| is| are)|quote me|i need)\b[^.?!]{0,25}"
    r"\b(?:figure|number|rate|rating|spec|tflops|fp\d\d|tdp|bandwidth|throughput)s?\b"
)


def _asked_fields_first(query: Query, box: ToolBox, text: str) -> str:
    """ "What is the 5090's memory bandwidth and how does that translate to tokens/s against
    the 4090?": a datasheet field asked beside a job leads, for each card named, when the
    answer's first line does not give it."""
    asked = [f for f in query.fields if f in c.FIELD_LABELS and f != "memory_gb"]
    rate = _PRECISION_RATE.get(query.precision or "")
    derived = bool(rate and query.models and query.intent == "compare" and rate not in asked
                   and len([g for g in query.gpus if g.ids]) >= 2)  # fmt: skip
    if derived:  # "INT8 YOLO: L4 or T4?": each card's rate in the format said decides it
        asked.append(str(rate))
    figure = query.intent in ("cost", "buy", "advice") and _DATASHEET_FIGURE_ASKED.search(query.low)
    if not asked or not query.gpus or not (query.intent in ("compare", "speed") or figure):
        return text
    if YES_NO.search(query.low) and not figure:
        return text  # "is the 5090's bandwidth enough for ...?": the yes or no leads
    if asked == ["interconnect_gbs"] and re.search(r"\b(?:no|without|w/o|lacks?)\s(?:an? )?"
                                                   r"nv[- ]?link\b", query.low):  # fmt: skip
        return text  # "4 L40S with no NVLink": the link said, not asked
    if asked == ["tdp_w"] and query.usd_per_kwh is not None:
        return text  # "power bill matters, 0.35/kWh: 3090 vs 4060 ti": the bills carry the watts
    head = text.split("\n", 1)[0].lower()
    if all(c.FIELD_LABELS[f][0].lower() in head for f in asked):
        return text
    sheets = [box.call("gpu_specs", {"gpu": gpu_choices(ref)[0]}) for ref in query.gpus[:4]
              if ref.ids]  # fmt: skip
    sheets = [s for s in sheets if "error" not in s and all(s.get(f) is not None for f in asked)]
    opening = text.split("\n\n", 1)[0]  # the verdict
    if sheets and all(isinstance(s[f], int | float) and c.num(s[f]) in opening
                      for s in sheets for f in asked):  # fmt: skip
        return text  # the figures asked are there already ("15.7 TFLOPS in FP32")
    if not sheets:
        return text
    line = c.asked_line(sheets, tuple(asked))
    if line in text:
        return text  # said already, after the pick ("a4000 or a5000, power bill matters")
    # "a good deal? tell me the bandwidth too", "300 W PSU, slot power only ... which one is
    # quicker?": the verdict or the pick first, the figures after it
    picked_first = text.startswith("**Pick the") and (
        derived or not _field_in_question(query.low, asked)
    )
    if YES_NO.search(query.low) or picked_first:
        first, sep, rest = text.partition("\n")
        return f"{first}\n\n{line}{sep}{rest}"
    return f"{line}\n\n{text}"


# the datasheet rate of a low-precision format a job is run in
_PRECISION_RATE = {"int8": "int8_dense_tops", "fp8": "fp8_dense_tflops"}


def _field_in_question(low: str, fields: list[str]) -> bool:
    """Whether a question sentence (the whole message when none ends in "?") names one of the
    fields: "whats the bandwidth on an l40s vs an a100" does; "300 W PSU, slot power only ...
    which one is quicker?" does not."""
    asked = " ".join(re.findall(r"(?:[^.?!]|(?<=\d)\.(?=\d))*\?", low)) or low
    ask = re.search(r"\b(?:which|what|whats|how|does|do|can|will|should|would|tell me|give me)\b",
                    asked)  # fmt: skip
    asked = asked[ask.start() :] if ask else asked  # the ask, not the story before it
    words = {w for f in fields for w in c.FIELD_LABELS[f][0].lower().split() if len(w) >= 4}
    return any(re.search(rf"\b{re.escape(w)}\b", asked) for w in words)


def _with_datasheet(query: Query, box: ToolBox, text: str) -> str:
    lines = []
    for ref in query.gpus[:MAX_SHEETS]:
        count = ref.count or 1
        if len(ref.ids) == 1:
            sheet = box.call("gpu_specs", {"gpu": ref.ids[0], "num_gpus": count})
        else:  # "H100 80GB" (SXM or PCIe): the variant the answer speaks of, when it names one
            sheets = [box.call("gpu_specs", {"gpu": i, "num_gpus": count}) for i in ref.ids[:4]]
            named = [x for x in sheets if "error" not in x and x["name"] in text]
            sheet = named[0] if len(named) == 1 else {"error": "no one variant"}
        if "error" in sheet:
            continue
        line = c.sheet_summary(sheet)
        figures = [c.num(sheet["memory_gb"], "GB"), c.num(sheet["bandwidth_gbs"], "GB/s")]
        # ("needs 3 x H100" after "8x H100": the count the answer settled on, not the one said)
        settled = re.search(rf"\b(\d+) x {re.escape(sheet['name'])}", text)
        if settled and int(settled.group(1)) != count:
            count = 1
        if count > 1:  # "two 3090s": what they hold together
            memory = (sheet.get("totals") or {}).get("memory_gb")
            if memory:
                line += (f" {count} x {c.num(sheet['memory_gb'], 'GB')} = "
                         f"{c.num(memory, 'GB')} of memory in all.")  # fmt: skip
                figures.append(c.num(memory, "GB"))
        if line in text or line in lines or all(f in text for f in figures):
            continue
        lines.append(line)
    if not lines:
        return text
    head, _, rest = text.partition("\n\n")  # after the verdict and its first paragraph
    if query.intent == "rent_or_buy" or not rest:  # (the money decides: the card's sheet last)
        return f"{text}\n\n" + "\n".join(lines)
    return "\n\n".join([head, "\n".join(lines), rest])


# ---------------------------------------------------------------- yes or no first

_VERDICT_START = re.compile(
    r"^\W*(?:yes|no|not|just|none|it depends|for fitting, no|that is expected)\b", re.IGNORECASE
)
_LOWER_FITS = re.compile(
    r"^In (\d+-bit(?: \([^)]*\))?|fp8|int8|(?:4-bit|fp8) with model CPU offload)(?: \([^)]*\))?"
    r" it fits"
    r"(?: on (?:one|\d+ x)\b|:)",
    re.MULTILINE,
)
# an image model the card holds only with its parts in system RAM
_OFFLOAD_FITS = re.compile(r"^With (model|sequential) CPU offload \([^)]*\) it fits on one\b",
                           re.MULTILINE)  # fmt: skip
_QLORA_FITS = re.compile(r"^With QLoRA \(a 4-bit base\)[^\n]*? it fits on one\b", re.MULTILINE)
# the first words of the leaner training recipes (handlers.LEANER) a "With ... it fits" line names
_RECIPE = r"(?:Unsloth's|pure (?:bf16|fp16)|gradient checkpointing)[^\n]*?"
# a training recipe that makes room: "With Unsloth's QLoRA recipe it fits on 2 x ..."
_RECIPE_FITS = re.compile(rf"^With ({_RECIPE}) it fits on (?:one|\d+ x)\b", re.MULTILINE)
# a load's fleet leading an answer: "**One NVIDIA L4 for that load", "**3 x NVIDIA L4 for that"
_FLEET_LEAD = re.compile(r"\*\*(One|\d+ x) (?=[^*]* for that load\*\*)")
_OWN_LEAD = (
    "principle",
    "link",
    "invalid",
    "greeting",
    "out_of_scope",
)  # lead with their own verdict
_PICK = re.compile(r"^\W*Pick the (.+?)(?::|\*\*)")
# a pick split by the work: "Pick the X for LLM inference (...); the Y for training (...)"
_SPLIT_PICK = re.compile(r"^\W*Pick the .+? for [^;]+; the .+? for ")


# "will it OOM?", "does it run out of memory?": asked of the failure, so a fit is a no
_OOM_ASKED = re.compile(
    r"\b(?:will|would|does|do|is|am|are|could|might)\b[^.?!]{0,60}?(?:\boom\b|\bcuda oom\b"
    r"|out of (?:gpu |v?ram |video )?memory|\bcrash\w*\b|\brun out\b)"
)


# a way the card holds it after all, with its pace: "In fp8 with model CPU offload (...) it fits:
# 7.69 GB of 8.12 GB usable ...; about 154 s per image."
_HOLDS_AT_A_PACE = re.compile(
    r"^(?P<lead>In|With) (?P<how>[^:\n]+?) it fits\b[^\n]*?; about (?P<pace>[\d.,]+ "
    r"(?:s per image|minutes per image|tokens/s|images/s))[^\n]*$",
    re.MULTILINE,
)
_PACE_ASKED = re.compile(
    r"\bhow (?:long|fast|quick|slow)\b|\bper image\b|\bseconds\b|\bit/s\b|\bspeed\b"
    r"|\b(?:images?|pics?|pictures?) (?:per|a|an|each) (?:minute|min|hour|second)\b"
    r"|\bhow many (?:images|pics|pictures)\b|\btok(?:en)?s?/s\b|\btokens? (?:per|a) second\b"
)


# the batch said, run as steps of one: "At batch 1 with 4 steps of gradient accumulation (the
# same batch of 4) it fits: 21.4 GB of 23.6 GB usable; the run takes about 11.7 hours."
_ACCUMULATED = re.compile(
    r"^At batch 1 with (?P<steps>\d+) steps of gradient accumulation[^\n]*?; the run takes "
    r"about (?P<time>[^\n]+?)\.$",
    re.MULTILINE,
)


# a recipe that makes room, with the run's time: "With Unsloth's QLoRA recipe it fits on 2 x
# ...: 22.7 GB of 23.6 GB usable; the run takes about 3.5 days."
_RECIPE_TIMED = re.compile(
    rf"^With (?P<how>{_RECIPE}) it fits on [^\n]*?; the run takes about (?P<time>[^\n]+?)\.$",
    re.MULTILINE,
)


def _paced_as_run(query: Query, text: str) -> str:
    """ "SDXL on a GTX 1070, how long per image?": a card that holds it only with offload or in
    fewer bits answers the pace asked with that way first, the plain "no" after it; a training
    batch that fits only by gradient accumulation leads with the run's time that way."""
    costed = re.match(r"\*\*No: (.*?) does not fit (.*?)\*\* \(([\w.-]+)", text)
    stepped = _ACCUMULATED.search(text)
    recipe = _RECIPE_TIMED.search(text)
    timed = query.intent == "train_time" or bool(_PACE_ASKED.search(query.low))
    if costed and recipe and timed:
        return (
            f"**About {recipe.group('time')} with {recipe.group('how')}; with the defaults "
            "assumed it does not fit.**\n\n" + text.replace("**No: ", "**", 1)
        )
    if costed and stepped and timed:
        return (
            f"**About {stepped.group('time')} at batch 1 with {stepped.group('steps')} steps "
            f"of gradient accumulation; at batch {query.batch} at once it does not fit.**"
            "\n\n" + text.replace("**No: ", "**", 1)
        )
    held = _HOLDS_AT_A_PACE.search(text)
    if not (costed and held and _PACE_ASKED.search(query.low)) or query.precision:
        return text
    how = held.group("lead").lower() + " " + re.sub(r"\s*\([^)]*\)", "", held.group("how"))
    paced = re.match(r"([\d,]+(?:\.\d+)?) s per ", held.group("pace"))
    limit = query.seconds_per_item
    if limit and paced and float(paced.group(1).replace(",", "")) > limit:
        # "fast enough for flux dev, under 10 seconds per image?": the pace it runs at is over
        # the time said, so no, whatever way it fits
        lead = (f"**No: about {held.group('pace')} {how}, over your {c.num(limit)} s; as it is, "
                f"in {costed.group(3)},")  # fmt: skip
        return f"{lead} it does not fit.**\n\n" + text.replace("**No: ", "**", 1)
    if YES_NO.search(query.low):  # "possible? how slow would it be": it runs, and at what pace
        lead = f"**Yes {how}, at about {held.group('pace')}; as it is, in {costed.group(3)}"
    else:
        lead = f"**About {held.group('pace')} {how}; as it is, in {costed.group(3)},"
    return f"{lead} it does not fit.**\n\n" + text.replace("**No: ", "**", 1)


# a no said and checked: "not possible, right?", "it won't fit, will it?", "no way that runs, eh?"
_NOT_POSSIBLE_SAID = re.compile(
    r"\b(?:not possible|impossible|not doable|not gonna (?:work|fit|happen)|no way"
    r"|can'?t (?:be done|work|run it|fit)|won'?t (?:work|fit|run)|doesn'?t fit|does not fit)\b"
    r"[^?.!]{0,20}?[,\s\u2014-]+(?:right|correct|yeah|yes|innit|eh|no|will it|can it|does it"
    r"|is it)\s?\?"
)
# the misfit itself asked as the cause: "is it just because the 70B doesn't fit on the card?"
_MISFIT_ASKED = re.compile(
    r"\b(?:is (?:it|that|this)|because)\b[^?.!]{0,50}\b(?:doesn'?t|does not|won'?t|can'?t|cannot"
    r"|isn'?t|not) (?:fit\w*|all fit\w*)\b"
)


# a shortfall of the card asked about: "do I need to upgrade", "would 8gb be a bottleneck"
_SHORTFALL_ASKED = re.compile(
    r"\b(?:need|have) to upgrade\b|\bneed (?:a |an )?(?:bigger|better|new|newer|stronger|beefier)"
    r" (?:card|gpu)\b|\b(?:be|is) (?:a |the )?(?:bottleneck|problem|issue|limiting factor)\b"
    r"|\bhold (?:me|us|it|things) back\b|\bbottleneck (?:me|us|it|the)\b"
)
# the card asked about as falling short: "too small for a 34B?", "not enough vram for it?"
_SHORT_ASKED = re.compile(
    r"\btoo (?:small|little|tiny|weak)\b(?! (?:a|an) (?:model|batch|context)\b)"
    r"|(?:\bnot|n't|\bnever) (?:have |got )?(?:enough|big enough|sufficient)\b|\binsufficient\b"
)
# the shortfall asked as the other side of a "can it": "can it run X, or do I need a new card?"
_OR_SHORTFALL = re.compile(
    r"\bor\b[^.?!]{0,20}\b(?:do|would|will|should) (?:i|we|she|he|they) need\b"
)
# the attempt asked as foolish: "is it daft to try and run SDXL on a 1660?", "am I crazy to"
_FOLLY_ASKED = re.compile(
    r"\b(?:is it|is that|would it be|am i|are we|was it)\s(?:\w+\s)?(?P<word>daft|stupid|silly"
    r"|crazy|dumb|pointless|insane|mad|nuts|ridiculous|foolish|a waste(?: of (?:time|money))?)\b"
)


def _failure_polarity(query: Query, text: str) -> str:
    """ "batch 256 on a 3080 - will it OOM?": the verdict said of the failure asked about, not as
    a bare yes or no (a "No: does not fit" means it will run out of memory)."""
    head = text.split("\n", 1)[0]
    if SECOND_CARD_ASKED.search(query.low) and len(query.gpus) == 1 and not query.gpus[0].count:
        # "we'll need a second A4000 for that, do we?": no when the one card holds it
        if text.startswith("**Yes: ") and " fits on one " in head:
            return "**No, one is enough: " + text[len("**Yes: ") :]
        if text.startswith("**No: ") and " does not fit on one " in head:
            return "**Yes, one is not enough: " + text[len("**No: ") :]
        if text.startswith("**No: not on the card alone"):  # only with system RAM beside it
            return "**Yes, to keep it all on the cards: " + text[len("**No: ") :]
    if (_SHORTFALL_ASKED.search(query.low) and len(query.gpus) <= 1
            and not _OR_SHORTFALL.search(query.low)):  # fmt: skip
        # "do I need to upgrade from my 3060 to run qwen 14b?", "would 8gb be a bottleneck?":
        # it holds it, no upgrade (not "can it run X, or do I need a bigger card?": the yes)
        if text.startswith("**Yes: ") and " fits" in head:
            return "**It holds it as it is: " + text[len("**Yes: ") :]
        if text.startswith("**No: ") and " does not fit" in head:
            return "**Yes, as it stands: " + text[len("**No: ") :]
    if folly := _FOLLY_ASKED.search(query.low):  # "is it daft to try SDXL on a GTX 1660 Super?"
        word = folly.group("word")
        if text.startswith("**Yes: ") and " fits" in head:
            return f"**No, not {word}: " + text[len("**Yes: ") :]
        if text.startswith("**Yes ") and " fits" in head:  # it fits one way, not another
            return f"**Not {word}, but only one way: " + text[len("**Yes ") :]
        if text.startswith("**No: ") and " does not fit" in head:
            return "**Yes, as it stands: " + text[len("**No: ") :]
    if _NOT_POSSIBLE_SAID.search(query.low):
        # "llama 3 70b q4 on a single 4090: not possible, right?": the user's no confirmed or
        # set right, not a bare yes or no that reads either way
        if text.startswith("**No: not on the card alone"):
            return "**Right, not on the card alone" + text[len("**No: not on the card alone") :]
        if text.startswith("**No: ") and " does not fit" in head:
            rest = text[len("**No: ") :]
            said = rest.startswith(("it does not fit", "not "))
            return ("**Right, " if said else "**Right, it does not fit: ") + rest
        if text.startswith("**Yes: ") and " fits" in head:
            return "**It is possible: " + text[len("**Yes: ") :]
    if _SHORT_ASKED.search(query.low):
        # "isn't the A100 40GB too small for a 34B?", "does a 4060 8gb NOT have enough vram?":
        # the shortfall said as such, not as a yes or no to a question asked the other way
        if text.startswith("**No: ") and " does not fit" in head:
            return "**Too small: " + text[len("**No: ") :]
        if text.startswith("**No: not on the card alone"):
            return "**Too small for the card alone: " + text[len("**No: not on the card alone") :]
        if text.startswith("**Yes, ") and "system RAM" in head:
            return "**Too small for the card alone; " + text[len("**Yes, ") :]
        if text.startswith("**Yes: ") and " fits" in head:
            return "**Enough: " + text[len("**Yes: ") :]
    if _MISFIT_ASKED.search(query.low):  # "is it because the 70B doesn't fit on the card?"
        if text.startswith("**No: ") and " does not fit" in head:
            return "**Yes: " + text[len("**No: ") :]
        if text.startswith("**Yes: ") and " fits" in head:
            return "**No: " + text[len("**Yes: ") :]
    asked = _OOM_ASKED.search(query.low)
    if not asked or re.search(r"\bwithout\b", asked.group(0)):
        return text  # "will it train without running out of memory?": yes is a fit
    if query.offload:
        return text  # "will it OOM if I offload?": the answer's offload line says how it fits
    if text.startswith("**No: ") and " does not fit" in text.split("\n", 1)[0]:
        return "**It will run out of memory: " + text[len("**No: ") :]
    if text.startswith("**Yes: ") and " fits" in text.split("\n", 1)[0]:
        return "**It should not run out of memory: " + text[len("**Yes: ") :]
    return text


def _card_within_supply(query: Query) -> Query:
    """ "best gpu for local llms on a 550w psu?", "off grid with 500 W of solar": a pick with no
    card named, within what the supply leaves the cards beside a high-end desktop CPU and the
    rest of the system at full load (the supply itself is no limit on the card's own draw). A
    supply at home is no limit on a rented card."""
    if query.intent not in ("recommend", "buy") or query.gpus or not OWN_SUPPLY.search(query.low):
        return query
    psu = supply_watts(query.low)
    if not psu or query.max_power_w not in (None, psu):
        return query
    if cards_rented(query.low):
        return replace(query, max_power_w=None)  # "what gpu can i rent ..., a 400w psu at home"
    if psu <= CPU_W + PLATFORM_W:
        note = (f"A {c.num(psu, 'W')} supply leaves nothing for a card beside a high-end desktop "
                f"CPU and the rest of the system at full load: the cards are held to "
                f"{c.num(psu, 'W')} alone, for a low-power machine beside them.")  # fmt: skip
        return replace(query, notes=(*query.notes, note))
    card = psu - CPU_W - PLATFORM_W
    note = (
        f"Cards up to {c.num(card, 'W')} of board power: what a {c.num(psu, 'W')} supply "
        "leaves beside a high-end desktop CPU and the rest of the system at full load."
    )
    return replace(query, max_power_w=card, notes=(*query.notes, note))


# whether the card is at fault: "is the graphics card faulty?", "is my gpu broken?"
_FAULT_ASKED = re.compile(
    r"\b(?:is|could|might) (?:the|my|our|this|that|his|her) (?:graphics |video )?(?:card|gpu) "
    r"(?:be )?(?:faulty|broken|defective|damaged|dying|a dud|dead|failing)\b"
    r"|\bis (?:it|this) (?:faulty|broken|defective)\b"
)
# the 4-bit line under a fit on several cards, and each card's pace in the list
_FOUR_BIT_PACE = re.compile(r"^In 4-bit \([^)]*\) it fits on (.+?): [^;\n]+; about ([\d,.]+) "
                            r"tokens/s", re.M)  # fmt: skip
_VARIANT_PACE = re.compile(r"^- \*\*.+: fits, .*decode speed about ([\d,.]+) tokens/s", re.M)


def _yes_in(lower: str, costed: str, text: str, way: str = "in", no_way: str = "") -> str:
    """ "**No: X does not fit on Y for inference** (bf16, ...)" of a model that a leaner format
    (or recipe, `way` "with") fits: the yes leads, and the bold says how it fits and how not
    (`no_way`, else `way`): "**Yes in 4-bit (AWQ), no in bf16: X fits on Y for inference in
    4-bit (AWQ) and does not fit in bf16** (bf16, ...)"."""
    rest = text[len("**No: ") :]
    no_way = no_way or way
    m = re.match(r"(?P<model>[^*]+?) does not fit on (?P<where>[^*]+?)\*\*", rest)
    if m is None:
        return f"**Yes {way} {lower}, no {no_way} {costed}: " + rest
    if m["where"].startswith("any of them"):  # variants of one card: the job, not "any of them"
        job = re.sub(r"^any of them\s*|\s*as asked$", "", m["where"])
        return (f"**Yes {way} {lower}, no {no_way} {costed}: {m['model']} {job}**"
                + rest[m.end() :])  # fmt: skip
    return (f"**Yes {way} {lower}, no {no_way} {costed}: {m['model']} fits on {m['where']} "
            f"{way} {lower} and does not fit {no_way} {costed}**" + rest[m.end() :])  # fmt: skip


# a speed answer's lead: "**Yes, it fits. Decode speed: about 33.0 tokens/s" (the fit said first)
_PACE_WANTED = re.compile(r"(\*\*(?:Yes, it fits\. )?)Decode speed: about ([\d,.]+) tokens/s")


# more memory asked as a speed-up: "does the extra memory speed up llama 13b?"
_MEMORY_SPEED_ASKED = re.compile(
    r"\b(?:the )?(?:extra|more|additional|bigger|larger) (?:memory|vram)\b[^.?!]{0,30}"
    r"\b(?:speed\w* (?:it |things |inference |training )?up|make\w* (?:it |things )?faster"
    r"|faster)\b"
)


# the first time to first token an answer leads with: "**Time to first token: about 0.64 s"
_TTFT_LEAD = re.compile(r"\*\*Time to first token: about ([\d,.]+) (s|ms)\b")


# another card asked for when the one named falls short: "if not, what's the smallest card that
# holds it?", "if it doesn't, which card should i get instead?"
_INSTEAD_ASKED = re.compile(
    r"\b(?:if not|if it (?:does ?n[o']t|won'?t|can'?t)|otherwise|and if no)\b[^?]{0,60}?"
    r"\b(?:which|what)\b[^?]{0,40}?\b(?:card|gpu|tier|vram|one)\b"
    r"|\b(?:smallest|cheapest|least) (?:card|gpu|vram(?: tier)?|tier)\b[^?]{0,40}\bholds?\b"
)
# only a card a desk machine takes: "desktop only", "tower workstation, no server cards"
_DESK_ONLY = re.compile(
    r"\b(?:desktop|tower|workstation)s? (?:only|card|gpu)s?\b|\bno (?:server|datacenter|data "
    r"center|sxm) (?:cards?|gpus?|parts?)\b|\b(?:in|into) a (?:tower|desktop|workstation)\b"
)
INSTEAD_SHOWN = 3  # the cards named after a fit that falls short


def _card_instead(query: Query, box: ToolBox, text: str) -> str:
    """ "Is a 5090 enough for FLUX in bf16? If not, the smallest card that holds it?": after a
    no, the cards with the least memory that hold the job alone (a desk machine's, when said)."""
    if not (text.startswith("**No") and len(query.gpus) == 1 and query.models
            and _INSTEAD_ASKED.search(query.low)):  # fmt: skip
        return text
    short = next((call for call in box.calls if call.name == "estimate"
                  and "error" not in call.result and not call.result.get("fits")),
                 None)  # fmt: skip
    if short is None:
        return text
    args = {k: v for k, v in short.args.items()
            if k in ("model", "workload", "precision", "context", "batch", "resolution", "steps",
                     "engine")}  # fmt: skip
    sheet = box.call("gpu_specs", {"gpu": short.result["gpu"]})
    # cards like the one named: a desk card's are desk cards of its maker (a Mac or a server
    # part is another kind of machine), unless the words say which
    desk = bool(_DESK_ONLY.search(query.low)) or sheet.get("segment") in ("consumer", "workstation")
    limits: dict[str, Any] = {"desktop": desk}
    if desk and sheet.get("vendor"):
        limits["vendor"] = sheet["vendor"]
    ranked: list[dict[str, Any]] = []
    for segment in ("consumer", "workstation") if desk else (None,):
        found = box.call(
            "recommend_gpus",
            {
                **args,
                **limits,
                "max_gpus": 1,
                "rank_by": "memory",
                "top": INSTEAD_SHOWN,
                **({"segment": segment} if segment else {}),
            },
        )
        ranked += [] if "error" in found else found.get("ranked") or []
    ranked = sorted(ranked, key=lambda r: r["usable_memory_per_gpu_gb"])[:INSTEAD_SHOWN]
    if not ranked:
        return text
    names = ", ".join(f"the {r['gpu_name']}" for r in ranked)
    tier = box.call("gpu_specs", {"gpu": ranked[0]["gpu"]}).get("memory_gb")
    kind = f" ({sheet['vendor']} cards a desktop takes)" if "vendor" in limits else ""
    size = f"{c.num(tier, 'GB')} cards, " if tier else ""
    head, sep, rest = text.partition("\n\n")
    # (beside the no, before the card's sheet: the answer's second question answered first)
    line = (
        f"The smallest single cards that hold it as asked{kind}: {size}{names} "
        f"({c.num(ranked[0]['memory_per_gpu_gb'], 'GB')} of "
        f"{c.num(ranked[0]['usable_memory_per_gpu_gb'], 'GB')} usable on the first)."
    )
    return f"{head} {line}{sep}{rest}"


def _hourly_in_their_money(query: Query, box: ToolBox, text: str) -> str:
    """ "rent at $0.30 an hour, the dollar at 1,200 pesos: the hour in pesos?": an hourly price in
    dollars beside the user's own rate of exchange, that hour in their money, after the lead."""
    if not (query.exchange and query.user_price_usd_per_hour):
        return text
    code, per_dollar = query.exchange
    hour = box.call("rental_cost", {"usd_per_gpu_hour": query.user_price_usd_per_hour,
                                    "hours": 1, "per_dollar": per_dollar})  # fmt: skip
    if "error" in hour or not hour.get("in_currency"):
        return text
    line = (f"An hour of rent at your {c.usd(query.user_price_usd_per_hour)}: "
            f"{c.num(hour['in_currency'])} {code} at your rate of {c.num(per_dollar)} to the "
            "dollar.")  # fmt: skip
    if line in text:
        return text
    head, sep, rest = text.partition("\n\n")
    return f"{head}\n\n{line}{sep}{rest}" if sep else f"{head}\n\n{line}"


# volumes segmented in 3D: "a 3D U-Net", "128^3 patches" (written 128x128x128)
_VOLUMES_SAID = re.compile(r"\b3d\b|\b(\d{2,4})x\1x\1\b|\bvolumetric\b|\bvoxels?\b")


# a machine of one's own that is no server: "a normal atx tower", "homelab", "my desktop"
_DESK_MACHINE = re.compile(
    r"\b(?:atx|tower|desktop|homelab|home ?lab|gaming (?:pc|rig)|pc case|my pc|mid-?tower"
    r"|workstation case)\b"
)


def _server_card_at_a_desk(query: Query, box: ToolBox) -> str | None:
    """ "a Tesla P40 for $170 or a 3060 for $220, it goes into a normal ATX tower": a data-centre
    PCIe card has no fan of its own (it is cooled by a server's airflow), said once."""
    if not _DESK_MACHINE.search(query.low):
        return None
    for ref in query.gpus:
        if not ref.ids:
            continue
        sheet = box.call("gpu_specs", {"gpu": ref.ids[0]})
        if sheet.get("segment") == "datacenter" and str(sheet.get("form_factor", "")).startswith(
                "PCIe"):  # fmt: skip
            return (f"The {sheet['name']} is a server card with no fan of its own (passive "
                    "cooling, made for a server's airflow): in a desktop case it needs a blower "
                    "fan or shroud fixed to it, or it overheats and throttles.")  # fmt: skip
    return None


# engines people run that the calculator has no factors for, by the name they go by
_UNMODELLED_ENGINES = {"mlx": "MLX (mlx-lm)"}


def _engine_unmodelled(query: Query, box: ToolBox) -> str | None:
    """ "Llama 3.3 70B in mlx-lm on an M4 Max": the engine said has no calibrated factors, so the
    estimates above ran on another; said once, with the engine used."""
    said = _UNMODELLED_ENGINES.get(query.engine or "")
    used = sorted({str(call.result["engine"]) for call in box.calls
                   if call.name == "estimate" and call.result.get("engine")})  # fmt: skip
    if said is None or not used:
        return None
    return (
        f"{said} is not an engine the calculator models; the figures above are for "
        f"{' and '.join(used)} on the same hardware, the nearest engine it models."
    )


def _first_token_in_time(query: Query, text: str) -> str:
    """ "Will an L40S keep TTFT under 500 ms for mistral 7b with 8 users?": whether the time to
    first token the answer leads with is within the time the user allows, first."""
    lead = _TTFT_LEAD.match(text)
    if query.ttft_budget_s is None or lead is None:
        return text
    got = float(lead.group(1).replace(",", "")) / (1000.0 if lead.group(2) == "ms" else 1.0)
    budget = query.ttft_budget_s
    allowed = c.num(budget * 1000, "ms") if budget < 1 else c.num(budget, "s")
    said = f"{lead.group(1)} {lead.group(2)}"
    verdict = (f"Yes: about {said} to the first token, within your {allowed}" if got <= budget
               else f"No: about {said} to the first token, over your {allowed}")  # fmt: skip
    return f"**{verdict}.**\n\n{text}"


def _yes_or_no_first(query: Query, text: str) -> str:
    """ "Will my 3060 handle a QLoRA of Llama 3 8B?": the answer's first words say yes or no,
    from the verdict its first sentence already states (fits, does not fit, the pick)."""
    low = query.low.strip()
    if _FAULT_ASKED.search(low) and re.search(r"in system RAM|does not fit", text[:800]):
        # "it writes a word a second and says 'partial GPU offload': is the card faulty?": no,
        # the model is larger than the card's memory, first
        return ("**No, nothing points to a fault: the model does not fit in the card's memory, "
                "so part of it runs from system RAM on the CPU, which is what slows it.**\n\n"
                + text)  # fmt: skip
    four = _FOUR_BIT_PACE.search(text)
    if text.startswith("**It depends on which") and query.needed_tok_s and four:
        # "M4 Pro macbook: at least 10 tokens a second?": the variants that hold it in 16 bits
        # against the pace wanted, and the 4-bit pace, first
        paces = [float(p.replace(",", "")) for p in _VARIANT_PACE.findall(text)]
        got = float(four.group(2).replace(",", ""))
        wanted = c.num(query.needed_tok_s, "tokens/s")
        if paces and max(paces) < query.needed_tok_s <= got:
            return (f"**No in 16 bits, yes in 4-bit: about {four.group(2)} tokens/s on "
                    f"{four.group(1)}, above the {wanted} you want; in 16 bits about "
                    f"{c.num(max(paces))} tokens/s at best.**\n\n" + text)  # fmt: skip
    lower = _LOWER_FITS.search(text)
    costed = re.match(r"\*\*No: .*?\*\* \(([\w.-]+)", text)
    held = query.gpus or query.memory_gb  # a card named, or one of a memory size
    weighed = bool(FORMAT_WEIGHED.search(low))  # "in fp16 ... would a q4 gguf do?"
    fit_first = query.intent == "fit" or (query.intent == "speed" and weighed)
    if fit_first and lower and costed and (not query.precision or weighed) and held:
        # "flux dev vram requirement? i have a 4080": how it runs on the card said, first
        return _yes_in(lower.group(1), costed.group(1), text)
    recipe = _RECIPE_FITS.search(text)
    # ("... on colab free tier t4, how many hours": the one card held, as a leaner recipe fits)
    held_one = query.intent in ("train_time", "speed") and any(g.count == 1 for g in query.gpus)
    if (query.intent == "fit" or held_one) and recipe and costed and not query.trainer:
        # "qlora 70b on two 3090s, doable?": how it fits first, the defaults' "no" after
        return _yes_in(recipe.group(1), "the defaults assumed", text, "with")
    needs = _NEEDS_CARDS.match(text)
    if needs and int(needs.group(1)) >= 2 and _ON_ONE_ASKED.search(low):
        # "it won't fit on a single card, can you confirm, and the minimum number?": no, then
        # how many
        return f"**No, not on one card: {text[2:]}"
    from advisor.agent.intents import ONE_CARD_ENOUGH

    if ONE_CARD_ENOUGH.search(low) and not query.gpus and text.startswith("**Pick one "):
        # "10k summaries a day with an 8B: is one GPU enough?": yes, and which
        return "**Yes, one card is enough: pick one " + text[len("**Pick one ") :]
    parity = SAME_ASKED.search(low)  # "so same speed as a 3090 ja?": yes or no, no verb
    if query.intent in _OWN_LEAD or not (YES_NO.search(low) or _DOABLE.search(low) or parity):
        return text
    if text.startswith((c.CARD_UNKNOWN, c.ASK_BACK)):
        return text  # a question asked back: no verdict before it
    if re.search(r"\bdoes (?:that|it|this) change\b", low):
        return text  # "used ok too, does that change the answer?": the new pick answers it
    if re.search(r"\b(?:dumb|stupid|silly|crazy|nuts|mad|a bad idea|a mistake|wrong move)\b", low):
        return text  # "is it dumb to buy two 4060 tis instead of a 4090?": the comparison answers
    if re.search(r"\boverkill\b", low):
        return text  # "is an H100 overkill for a 70B?": its "No: does not fit" answers it
    if lower and costed and not query.precision:  # "can it run an 8B?": as people run it
        return _yes_in(lower.group(1), costed.group(1), text)
    image = "for image generation" in text.split("\n", 1)[0]
    if lower and costed and query.precision and image:  # "flux dev in bf16 on a 4090?": no
        return f"**No in {costed.group(1)}, yes in {lower.group(1)}: " + text[len("**No: ") :]
    offloaded = _OFFLOAD_FITS.search(text)
    if offloaded and costed and not query.offload:  # "flux dev on a 12 GB card, possible?"
        return _yes_in(f"{offloaded.group(1)} CPU offload (slower)", costed.group(1), text,
                       "with", "as it is in")  # fmt: skip
    leaner = _QLORA_FITS.search(text)
    if leaner and costed and query.workload == "finetune":  # the method was not said
        return "**Yes with QLoRA, no with LoRA in 16 bits: " + text[len("**No: ") :]

    paced = _PACE_WANTED.match(text)
    if paced and query.needed_tok_s and not query.rps and query.intent == "speed":
        # "llama 3 8b at 1 million tokens per second on a 3050, possible?": the pace wanted
        # against the one it gets, first (the fit is no answer to it)
        got = float(paced.group(2).replace(",", ""))
        wanted = c.num(query.needed_tok_s, "tokens/s")
        lead = (f"Yes, above the {wanted} you want" if got >= query.needed_tok_s
                else f"No, short of the {wanted} you want for one stream")  # fmt: skip
        return f"**{lead}. {text[len(paced.group(1)) :]}"
    rated = _RATE_LEAD.match(text)
    rate_wanted = _RATE_WANTED.search(low) if rated else None
    if rated and rate_wanted and YES_NO.search(low):
        # "would a t4 be enough to serve bert base for 100 requests per second?": the rate
        # wanted against the one it gets, first
        got = float(rated.group(2).replace(",", ""))
        want = float(rate_wanted.group(1).replace(",", ""))
        lead = (f"Yes, above the {c.num(want)} a second you want" if got >= want
                else f"No, short of the {c.num(want)} a second you want")  # fmt: skip
        return f"**{lead}. {text[len(rated.group(1)) :]}"
    fleet = _FLEET_LEAD.match(text)
    if fleet and len(query.gpus) == 1 and re.search(r"\bkeep (?:up|pace)\b|\bcope\b|\bhandle\b",
                                                    low):  # fmt: skip
        # "10 requests a minute: can the one 3060 keep up?": yes when the cards said are enough
        needed = 1 if fleet.group(1) == "One" else int(fleet.group(1).split()[0])
        have = query.gpus[0].count or 1
        lead = "Yes: " if needed <= have else f"No, it takes more than {have}: "
        said = fleet.group(1).lower() if needed == 1 else fleet.group(1)
        return f"**{lead}{said} " + text[len(fleet.group(0)) :]
    if _VERDICT_START.search(text):
        return text
    head = text.split("\n", 1)[0]
    pick = _PICK.search(head)
    verdict = None if pick else read_verdict(head)
    pace = re.search(r"about ([\d,.]+) audio s/s", head)
    if verdict is None and pace and re.search(r"real[- ]?time", low):  # 1 audio s/s keeps up
        verdict = float(pace.group(1).replace(",", "")) >= 1
    decode = re.search(r"\bDecode speed: about ([\d,.]+) tokens/s", head)
    if verdict is None and decode and query.needed_tok_s:  # "at least five tokens a second?"
        verdict = float(decode.group(1).replace(",", "")) >= query.needed_tok_s
    fits = re.search(r"^It fits:|^It does not fit", text, re.M)
    paced = re.match(
        r"\*\*(?:Decode speed|Time per image|Images per second|Training speed"
        # "can that train it? how long for 3 passes": the run's time, and its fit
        r"|About [\d,.]+ (?:seconds|minutes|hours|days)\b.*\bof wall time)",
        head,
    )
    if verdict is None and paced and fits and _FIT_WORDS.search(low):  # "can my laptop run it?"
        verdict = fits.group(0) == "It fits:"
    if pick and _EITHER.search(low):
        return text  # "should I buy a 4070 or a 3090?": a choice, the pick answers it
    if pick and _SPLIT_PICK.search(head):
        # "swap my 3080 for a 4070 super? yes or no", answered with one card for inference and
        # the other for training: neither yes nor no
        return f"**It depends on the work: p{text[3:]}"
    if pick and parity and (ahead := _lead_times(head)) and text.startswith("**Pick "):
        # "2x 3060 is basically a 3090, so the same speed?": no when one is a tenth ahead
        word = "No" if ahead[1] >= 1 + SAME_WITHIN else "Yes, about the same"
        return f"**{word}: p{text[3:]}"
    if pick and (judged := _claim_judged(query, low, head, pick.group(1), text)):
        return judged
    if (level := _LEVEL_LEAD.match(text)) and (judged := _level_judged(query, low, text, level)):
        return judged
    if pick and _WORTH_ASKED.search(low) and not _CLAIM_ASKED.search(low) and (
            small := _small_step(head)):  # fmt: skip
        # "a meaningful speed-up, or a sidegrade?": a lead of under a fifth is no upgrade
        rest = text[len(head) :]
        name = re.split(r" for | \(|\.", pick.group(1))[0]
        return (f"**No: a small step, not a meaningful upgrade to the {name}: "
                f"{small}.**{rest}")  # fmt: skip
    if pick and _MEMORY_SPEED_ASKED.search(low) and text.startswith("**Pick the "):
        # "a100 40g vs 80g: does the extra memory speed up llama 13b?": the memory does not;
        # the pick's lead is its bandwidth or compute
        return ("**Not the extra memory itself: once the model fits, memory bandwidth and "
                "compute set the speed; here, p" + text[len("**P") :])  # fmt: skip
    if pick:
        chosen = pick.group(1).lower()
        asked = [g for g in query.gpus if g.text.lower() in low]
        subject = [  # a word every GPU named shares ("m4" of "16GB M4" and "24GB M4") tells none
            w
            for w in _subject(low, asked)
            if sum(w in re.findall(r"[a-z0-9]+", g.text.lower()) for g in query.gpus) <= 1
        ]
        if subject and any(w in chosen for w in subject):
            verdict = True
        elif subject and asked:
            verdict = False
        if verdict is not None and re.search(r"\b(?:slower|worse|weaker)\b", low):
            verdict = not verdict  # "is the pcie slower than the sxm?": yes when the sxm is picked
    if verdict is None:
        return text
    word = "Yes" if verdict else "No"
    body = text[2:] if text.startswith("**") else text
    if pick:
        body = "p" + body[1:]  # "Yes: pick the MI300X"
    elif body.startswith(("The ", "With ", "About ")):
        body = body[0].lower() + body[1:]  # "Yes: the largest that fits ...", "Yes: about 18"
    return f"**{word}: {body}" if text.startswith("**") else f"{word}: {body}"


# a non-LLM rate leading an answer: "**Inference throughput: about 912 sequences/s"
_RATE_LEAD = re.compile(
    r"(\*\*(?:Yes, it fits\. )?)(?:Inference|Training|Fine-tuning) throughput: about ([\d,.]+) "
)
# a rate wanted: "for 100 requests per second", "500 images a second", "2k docs/s"
_RATE_WANTED = re.compile(
    r"(\d[\d,.]*)\s?(?:requests?|reqs?|queries|images?|imgs?|sequences?|samples?|frames?"
    r"|docs?|documents?|sentences?|items?)\s?(?:/|per|a|an|each)\s?(?:s|sec|second)\b"
)


# a fit asked in a yes-or-no question: "can my laptop run phi-4-mini fully on the gpu?"
_FIT_WORDS = re.compile(
    r"\b(?:run|fit|hold|load|handle|cope with|train (?:it|them|this|that)"
    # ("is this card enough", not "quick enough": a pace judged, no fit)
    r"|do (?:it|that|this)|doable|feasible|(?<!quick )(?<!fast )enough)\b"
)
# a job asked to be possible on the card, with no question verb: "doable or rent something"
_DOABLE = re.compile(r"\b(?:doable|feasible|possible|viable)\b|\benough\b[^.?!]{0,30}\bor\b")
# whether a lead is worth having: "a meaningful speed-up, or a sidegrade?", "worth upgrading?"
_WORTH_ASKED = re.compile(
    r"\b(?:meaningful|significant|noticeable|real|big|worthwhile)\s(?:speed-?up|upgrade|jump"
    r"|difference|improvement|gain)\b|\bsidegrade\b|\bworth (?:it|buying|upgrading|the (?:upgrade"
    r"|money|switch|jump|extra|premium|difference)|pay\w*|spend\w*|the extra)\b"
)
# the fewest cards a job needs, said first: "**Llama-3.3-70B needs 2 x NVIDIA H100 SXM5 80GB**"
_NEEDS_CARDS = re.compile(r"\*\*[^*]+? needs (\d+) x ")
# one card asked of: "will not fit on a single card", "does it fit on one GPU"
_ON_ONE_ASKED = re.compile(
    r"\b(?:on|in|onto|into) (?:a |one |the )?(?:single|one|1) "
    r"(?!(?:node|machine|box|server|host|instance|go)\b)[\w-]+\b"
    r"|\b(?:a )?single (?:card|gpu)\b(?! (?:each|per))"
)


# the deciding figure of a pick, both ways: "dense FP16/BF16 tensor 76.7 TFLOPS vs 81.9 TFLOPS"
_FIGURE_VS = re.compile(r"([a-z][\w/ -]*?) ([\d,.]+) ([A-Za-z/]+)((?: vs [\d,.]+ \3)+)")
SMALL_STEP = 1.2  # a lead under this on the deciding figure is no upgrade worth buying
PAR = 1.1  # a lead under this is "about as fast": a claim of parity holds
# the lead of a pick as the answer states it: "about 1.06x as fast"
_LEAD_TIMES = re.compile(r"\babout ([\d,.]+)x as fast\b|\bthe fastest \(([\d,.]+)x the ")
# an upgrade asked of: "worth the upgrade", "should be faster right?", "will it be quicker?"
_UPGRADE_ASKED = re.compile(
    r"\bupgrad\w*|\bworth\b|\b(?:should|would|will|gonna|going to) be (?:faster|quicker)\b"
    r"|\bmake (?:it|things|them|my \w+) (?:\w+ )?(?:any |much |a lot )?(?:faster|quicker)\b"
    r"|\bwaste of money\b|\bany (?:faster|quicker|better)\b"
)
# a card the user has: "my 3060", "i have an RTX 3060", "we've got two 3090s", "the old 3090"
_HELD_BEFORE = re.compile(
    r"(?:\b(?:my|our|current|existing|old)|\b(?:i|we) (?:have|own|run|use|got)|(?:i|we)'ve got"
    r"|\bhave got)\b[^.,;?!]{0,24}$"
    # "swap the 3060 for a 4060 ti", "replace that 3090 with": the card swapped out is held
    r"|\b(?:swap|switch|replace|trade|sell|ditch|upgrade from)\w* (?:out )?(?:the |that |this "
    r"|my |our |his |her )?$"
)


def _claim_judged(query: Query, low: str, head: str, chosen: str, text: str) -> str | None:
    """A yes or no to the claim a comparison was asked to settle, from its pick and lead:
    "is the P40 as good as a 3090?" is a no when the 3090 leads by PAR or more; "newer card,
    should be faster right? worth the upgrade?" is a no when the card the user has is the pick.
    None when the question makes neither claim."""
    lead = _lead_times(head)
    if lead is None:
        return None
    times = lead[1]
    rest = text[2:] if text.startswith("**") else text
    if parity := PARITY_ASKED.search(low):
        if times < PAR:
            return f"**Yes, about as fast: p{rest[1:]}"
        # the card the claim measures against: the one named just after "as good as"
        after = low[parity.end() : parity.end() + 30]
        against = [g for g in query.gpus if g.text.lower() in after]
        if against and not _names(against[0].text, chosen):
            return f"**Yes, and faster: p{rest[1:]}"
        return f"**No: p{rest[1:]}"
    if not _UPGRADE_ASKED.search(low):
        return None
    held = _held_cards(query, low)
    if len(held) != 1 or len(query.gpus) < 2:
        return None
    if _names(held[0].text, chosen):  # the card the user has leads
        return f"**No: the card you have is the faster one: p{rest[1:]}"
    return None


def _names(said: str, name: str) -> bool:
    """Whether the words a user wrote for a card ("4060 ti 16gb") name the catalog card `name`:
    each word with a digit in it is in the name."""
    words = re.findall(r"[a-z]*\d+\w*", said.lower())
    return bool(words) and all(w in name.lower() for w in words)


# two cards level: "**They are as fast", "**They are about as fast: the X by 1.04x"
_LEVEL_LEAD = re.compile(r"\*\*They are (?:about )?as fast")


def _level_judged(query: Query, low: str, text: str, level: re.Match[str]) -> str | None:
    """A claim settled by two cards level: "is the P40 as good as a 3090?" yes; "will the P40 make
    my 3060 any faster?" no, about as fast as the card the user has."""
    rest = text[level.end() :]
    if PARITY_ASKED.search(low):
        return f"**Yes, they are about as fast{rest}"
    held = _held_cards(query, low)
    if _UPGRADE_ASKED.search(low) and len(held) == 1 and len(query.gpus) >= 2:
        return f"**No: about as fast as the card you have{rest}"
    return None


def _held_cards(query: Query, low: str) -> list[GpuRef]:
    """The cards named that the user says they have ("my workshop pc has an RTX 3060 12GB", "i
    have a 3090")."""
    held = []
    for g in query.gpus:
        at = low.find(g.text.lower())
        if at >= 0 and _HELD_BEFORE.search(low[max(0, at - 40) : at]):
            held.append(g)
    return held


def _lead_times(head: str) -> tuple[str, float] | None:
    """The lead a pick's first line states, as said and as a number ("about 1.06x as fast",
    1.06), or None."""
    lead = _LEAD_TIMES.search(head)
    return (
        (lead.group(0), float((lead.group(1) or lead.group(2)).replace(",", ""))) if lead else None
    )


def _small_step(head: str) -> str | None:
    """ "dense FP16/BF16 tensor 76.7 TFLOPS vs 81.9 TFLOPS" (or "about 1.06x as fast") when the
    pick leads by under SMALL_STEP on its deciding figure; None when the lead is bigger or no
    figure is given."""
    m = _FIGURE_VS.search(head)
    if not m:
        lead = _lead_times(head)
        return lead[0] if lead and lead[1] < SMALL_STEP else None
    values = [
        float(v.replace(",", "")) for v in (m.group(2), *re.findall(r"vs ([\d,.]+)", m.group(4)))
    ]
    if min(values) <= 0 or max(values) / min(values) >= SMALL_STEP:
        return None
    return m.group(0)


# one of two asked for: "should I buy a 4070 or a 3090", "should we go with the A6000 or two 3090s"
_EITHER = re.compile(
    r"\bshould (?:i|we) (?:buy|get|go (?:with|for)|pick|choose|use|rent|wait)\b[^?.]{0,60}\bor\b"
    r"(?! not\b)"
    # "is an L4 or an A10G cheaper per token?": which of the two, not a yes or a no
    r"|\b(?:is|are) (?:the |an? )?[\w.-]+(?: [\w.-]+){0,3} or "
    r"(?:the |an? )?[\w.-]+(?: [\w.-]+){0,2} "
    r"(?:cheaper|faster|better|quicker|more \w+)\b"
)


def _subject(low: str, gpus: list[GpuRef] | None = None) -> list[str]:
    """The words of the yes/no clause that name what it asks about ("is amd viable" -> amd,
    "is the Spark faster?" -> spark, a word of a GPU named)."""
    clause = YES_NO.search(low)
    if clause is None:
        return []
    # the clause up to its alternative: "will the 5080 do that, or do I have to save up for the
    # 5090" asks about the 5080
    start = low[clause.start() : clause.start() + 60].lstrip(" ,.;:!?-\u2014\n")  # ", is the"
    # "is the 3060 or 4090 enough": both cards are what it asks about (not "... faster?")
    both = not re.search(
        r"\b(?:faster|better|cheaper|quicker|slower|more|less|\w+er than)\b", start
    )
    either = r"\bor\b(?! (?:the |an? )?[a-z]*\d)" if both else r"\bor\b"
    # "does the 3090 outperform the 4090": the card before the verb that sets it against another
    said = re.split(
        rf",|{either}|\bthan\b|\binstead\b|\bout(?:perform|pace|run|class)\w*|\bbeats?\b"
        r"|\bvs\.?|\bversus\b|\bagainst\b|\bover\b",
        start,
    )[0]
    words = re.findall(r"[a-z0-9]+", said)
    named = {w for g in gpus or [] for w in re.findall(r"[a-z]{4,}", g.text.lower())}
    named -= _GENERIC_WORDS
    return [
        w for w in words
        if w in _VENDOR_WORDS or re.fullmatch(r"[a-z]*\d+\w*", w) or w in named
    ]  # fmt: skip


_GENERIC_WORDS = {"nvidia", "geforce", "quadro", "tesla", "radeon", "laptop", "desktop", "the"}


_VENDOR_WORDS = ("amd", "nvidia", "intel", "apple", "mac", "radeon", "instinct", "arc")


# ---------------------------------------------------------------- sources


def _citations(query: Query, box: ToolBox, quoted: bool) -> list[Citation]:
    """Passages to cite besides those the answer quoted: the best two that speak of what was
    asked (its GPUs, its models); none rather than passages about something else."""
    from advisor.agent.intents import INTENTS

    policy = INTENTS[query.intent].cites
    if policy in ("none", "topic"):  # a topic answer cites the sentences it quotes, no others
        return []
    aspects = _aspects(query)
    if not aspects or aspects == [MONEY_WORDS]:  # nothing named ("a $4,200 server at $0.526/hr")
        return []
    args: dict[str, Any] = {"query": query.read, "k": 6}
    if len(query.gpu_ids) == 1:
        args["gpu"] = query.gpu_ids[0]
    result = box.call("search_corpus", args)
    fields = [FIELD_WORDS[f] for f in query.fields if f in FIELD_WORDS]
    # a passage is about the question when it speaks of as many of its aspects (the GPUs, the
    # model, the job) as a passage can be asked to: both of a fit question's, one otherwise
    need = min(2, len(aspects))
    relevant = [
        p
        for p in result.get("passages", [])
        if sum(_speaks_of(p["text"], words) for words in aspects) >= need
    ]
    asked = {gid for ref in query.gpus for gid in ref.ids}
    relevant = [
        p
        for p in relevant
        if not _NAVIGATION.search(p.get("section") or "") and _about_asked(p["text"], asked)
    ]
    if fields:  # a figure asked ("does the 4090 have NVLink"): a passage that speaks of it
        relevant = [p for p in relevant if any(re.search(f, p["text"].lower()) for f in fields)]
    if query.intent == "cost" and not query.buying:  # a rental bill: passages about renting
        relevant = [p for p in relevant if _RENTAL_WORDS.search(p["text"].lower())]
    # passages that also speak of the asked field, or of what decides the job (bandwidth for
    # decoding, compute for training), come first
    decides = [*fields, *DECIDES.get(query.workload or "", ())]
    relevant.sort(key=lambda p: -sum(bool(re.search(f, p["text"].lower())) for f in decides))
    return [c for c in (box.citation(p["id"]) for p in relevant[:2]) if c is not None]


# a passage about renting GPUs by the hour (not a server's purchase price, not a benchmark setup)
_RENTAL_WORDS = re.compile(
    r"\bper (?:gpu[- ])?h(?:ou)?r\b|/\s?h(?:ou)?r\b|\bhourly\b|\bon-demand\b|\brent\w*|\bspot\b"
    r"|\bcloud pric\w*|\binstances?\b"
)
# sections that list other pages rather than say anything ("Related Topics", "See also")
_NAVIGATION = re.compile(
    r"\b(related (topics|articles|posts|reading)|see also|further reading|table of contents)\b",
    re.IGNORECASE,
)


def _about_asked(text: str, asked: set[str]) -> bool:
    """Whether a passage is about the GPUs asked rather than others: it names one of them, and
    other GPUs at most twice as often ("A100 80GB delivers 92% of H100's ..." in a myths list
    about A100 servers is not about the H100; an "RTX 4090 Laptop" passage is not about the
    desktop card). True when no GPU was asked."""
    if not asked:
        return True
    named = [bool(asked & set(m.ids)) for m in mentions(text)]
    ours = sum(named)
    return ours > 0 and len(named) - ours <= 2 * ours


DECIDES = {  # the figures that decide a job's speed, as the articles write them
    "inference": (r"\bbandwidth\b", r"\bhbm\w*", r"\bdecod\w*", r"\blatency\b"),
    "train": (r"\btflops\b", r"\btensor cores?\b", r"\bcompute\b", r"\bthroughput\b"),
}


def _aspects(query: Query) -> list[list[str]]:
    """What a passage must speak of to be about this question: the GPUs' names, the model's
    family name, the job's words; one list of alternatives per aspect."""
    catalog = load_catalog()
    aspects: list[list[str]] = []
    gpu_words = [
        a
        for ref in query.gpus
        for gid in ref.ids
        for a in (catalog.gpus[gid].name, *catalog.gpus[gid].aliases)
        if len(a) >= 3
    ]
    if gpu_words:
        aspects.append(gpu_words)
    model_words = [
        catalog.models[m.ids[0]].family
        for m in query.models
        if m.ids and m.family == "llm" and m.ids[0] in catalog.models
    ] + [m.text for m in query.models if m.ids and m.family != "llm"]
    if model_words:
        aspects.append(model_words)
    job = JOB_WORDS.get(query.workload or "")
    if job and query.models:
        aspects.append(job)
    if query.intent == "link":  # "does tp=2 work on 2x 4090s": a passage about the link
        aspects.append(LINK_WORDS)
    if query.intent in ("rent_or_buy", "cost", "buy"):  # a passage about the money, not the card
        aspects.append(MONEY_WORDS)
    return aspects


MONEY_WORDS = ["rent", "renting", "rental", "cloud", "per hour", "hourly", "buy", "buying",
               "purchase", "price", "prices", "pricing", "priced", "cost", "costs",
               "TCO"]  # fmt: skip


LINK_WORDS = ["NVLink", "PCIe", "P2P", "peer-to-peer", "interconnect", "tensor parallel",
              "multi-GPU", "NVSwitch", "bridge"]  # fmt: skip


JOB_WORDS = {
    "finetune-qlora": ["QLoRA", "4-bit", "fine-tuning", "fine-tune"],
    "finetune-lora": ["LoRA", "fine-tuning", "fine-tune", "PEFT"],
    "finetune-full": ["fine-tuning", "fine-tune", "full fine"],
    "finetune": ["fine-tuning", "fine-tune", "LoRA"],
    "train": ["training", "train"],
    "inference": ["inference", "serving", "tokens per second", "tokens/s"],
}


def _speaks_of(text: str, words: list[str]) -> bool:
    if not words:
        return True
    low = re.sub(r"[\s-]+", " ", text.lower())
    return any(
        re.search(r"(?<![\w])" + re.escape(re.sub(r"[\s-]+", " ", w.lower())) + r"(?![\w])", low)
        for w in words
    )
