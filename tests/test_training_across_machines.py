"""Training over several machines: the network between them as the ring's slowest hop, the
machines and the network read from the question, and the answer weighing all the cards against
one machine's alone. Each phrasing is the test's own."""

from __future__ import annotations

import pytest

from advisor.agent.understand import network_said, nodes_said, understand
from advisor.api import Advisor
from advisor.calculator import interconnect
from advisor.catalog import load_catalog
from advisor.tools import call_tool
from tests.asking import ask_grounded as _ask
from tests.asking import head as _head

FULL_1B = {"model": "1b", "gpu": "rtx-3090", "num_gpus": 8, "workload": "finetune-full"}


def _speed(args: dict[str, object]) -> float:
    e = call_tool("estimate", args)
    assert "error" not in e, e
    return float(e["train_tokens_per_s"]["typical"])


def test_a_faster_network_never_trains_slower() -> None:
    speeds = [_speed({**FULL_1B, "nodes": 2, "network": n})
              for n in ("1gbe", "10gbe", "25gbe", "100gbe", "ib-ndr")]  # fmt: skip
    assert speeds == sorted(speeds)
    assert speeds[0] < speeds[-1]


def test_a_slow_network_costs_more_than_the_cards_inside_one_box() -> None:
    one_box = _speed(FULL_1B)
    over_10gbe = _speed({**FULL_1B, "nodes": 2, "network": "10gbe"})
    assert over_10gbe < 0.5 * one_box  # 1.25 GB/s between the boxes against PCIe inside


def test_a_network_faster_than_the_cards_own_link_changes_nothing() -> None:
    e = call_tool("estimate", {**FULL_1B, "nodes": 2, "network": "ib-ndr"})
    assert e["train_tokens_per_s"]["typical"] == pytest.approx(_speed(FULL_1B))
    assert "inside each node" in e["interconnect"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({**FULL_1B, "nodes": 3, "network": "10gbe"}, "do not split evenly over 3 nodes"),
        ({**FULL_1B, "nodes": 2, "network": "carrier pigeon"}, "Unknown network"),
    ],
)
def test_bad_topologies_are_refused_in_words(args: dict[str, object], error: str) -> None:
    assert error in call_tool("estimate", args)["error"]


def test_the_networks_are_line_rates_per_port() -> None:
    assert interconnect.NETWORKS["10gbe"][1] == 10
    assert interconnect.NETWORKS["ib-ndr"][1] == 400


@pytest.mark.parametrize(
    ("text", "nodes", "each", "network"),
    [
        ("three servers with eight l40s each, 100 gbit ethernet", 3, True, "100gbe"),
        ("16 H100s spread across 2 machines on 400G infiniband", 2, False, "ib-ndr"),
        ("a pair of rigs, 4 3090s per rig, plain 1gbe lan between", 2, True, "1gbe"),
        ("4 nodes with HDR IB", 4, False, "ib-hdr"),
    ],
)
def test_machines_and_networks_are_read(text: str, nodes: int, each: bool, network: str) -> None:
    assert nodes_said(text.lower()) == (nodes, each)
    assert network_said(text.lower()) == network


def test_cards_counted_per_machine_are_all_of_them() -> None:
    q = understand("two workstations, each with 2x rtx 4090, 10 gig ethernet: lora a 7b "
                   "across both?", load_catalog())  # fmt: skip
    assert q.gpus[0].count == 4 and q.nodes == 2 and q.network == "10gbe"


def test_no_machines_said_leaves_the_count_alone() -> None:
    q = understand("4x 3090 for a 7b lora", load_catalog())
    assert q.gpus[0].count == 4 and q.nodes is None


def test_the_answer_weighs_all_the_cards_against_one_machine(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "got 2 boxes, four rtx 3090s in each, only 10gbe between them. "
        "is it worth training a 1b model from scratch across both?",
    ).text
    first = _head(text)
    assert first.startswith("**No: over 10 Gb Ethernet"), first
    assert "one machine's 4 x NVIDIA GeForce RTX 3090 alone" in first


def test_a_fast_fabric_makes_the_second_machine_pay(rules_advisor: Advisor) -> None:
    text = _ask(
        rules_advisor,
        "lora on mistral 7b, 2 servers x 4 a100 80gb, 200g infiniband "
        "between them - does adding the second server help?",
    ).text
    assert _head(text).startswith("**Yes: over InfiniBand HDR"), _head(text)


def test_the_cli_takes_nodes_and_the_network(capsys: pytest.CaptureFixture[str]) -> None:
    from advisor.cli import main

    base = ["estimate", "--model", "1b", "--gpu", "rtx-3090", "--num-gpus", "8",
            "--workload", "finetune-full", "--json"]  # fmt: skip
    assert main(base) == 0
    one = capsys.readouterr().out
    assert main([*base, "--nodes", "2", "--network", "10gbe"]) == 0
    two = capsys.readouterr().out
    assert "10 Gb Ethernet between 2 nodes" in two
    assert "10 Gb Ethernet" not in one
