"""The MCP server, driven by the official SDK's own client: in process, over stdio
(`gpu-advisor mcp`) and over streamable HTTP (`gpu-advisor mcp --transport http`)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

from advisor.api import tool_functions
from tests.servers import free_port, gpu_advisor, wait_for
from ui.mcp_server import build

# one call per tool, with the arguments a client would send
CALLS = {
    "gpu_specs": {"gpu": "L40"},
    "compare_gpus": {"gpus": ["A100 SXM4 80GB", "H100 SXM"]},
    "estimate": {"model": "Llama-3-8B", "gpu": "RTX A4000", "workload": "finetune-qlora"},
    "solve": {"model": "Llama-3-8B", "gpu": "L4", "target": "max_context"},
    "recommend_gpus": {"model": "Llama-3-8B", "max_usd_per_hour": 1.0},
    "prices": {"gpu": "A100 SXM4 80GB", "hours": 100},
    "search_corpus": {"query": "L40 memory bandwidth", "k": 3},
}


def _result(call: Any) -> dict[str, Any]:
    assert not call.is_error, call.content
    return dict(json.loads(call.content[0].text))


async def _check_all_tools(client: Client, advisor: Any) -> None:
    listed = (await client.list_tools()).tools
    assert sorted(t.name for t in listed) == sorted(tool_functions())
    for tool in listed:
        assert tool.description and "searcher" not in tool.input_schema["properties"]
    for name, args in CALLS.items():
        assert _result(await client.call_tool(name, args)) == advisor.tool(name, args), name


def test_every_tool_gives_what_the_python_api_gives(rules_advisor: Any) -> None:
    async def run() -> None:
        async with Client(build(rules_advisor)) as client:
            await _check_all_tools(client, rules_advisor)

    asyncio.run(run())


def test_schemas_are_the_tools_signatures(rules_advisor: Any) -> None:
    async def run() -> dict[str, Any]:
        async with Client(build(rules_advisor)) as client:
            return {t.name: t.input_schema for t in (await client.list_tools()).tools}

    schemas = asyncio.run(run())
    estimate = schemas["estimate"]
    assert estimate["required"] == ["model", "gpu"]
    assert estimate["properties"]["num_gpus"]["default"] == 1
    assert schemas["compare_gpus"]["properties"]["gpus"]["type"] == "array"


# failed calls, each with words the error text must hold so a client knows what to fix
BAD_CALLS = [
    ("gpu_specs", {"gpu": "RTX 9999"}, "Unknown GPU 'RTX 9999'. Did you mean"),
    ("estimate", {"model": "Llama-99-1T", "gpu": "L4"}, "Unknown model 'Llama-99-1T'"),
    ("estimate", {"model": "Llama-3-8B", "gpu": "L4", "workload": "juggling"}, "juggling"),
    ("estimate", {"model": "Llama-3-8B"}, "gpu"),  # a required argument missing
    ("estimate", {"model": "Llama-3-8B", "gpu": "L4", "num_gpus": "two"}, "num_gpus"),
    ("compare_gpus", {"gpus": ["L4", "RTX 9999"]}, "RTX 9999"),
    ("no_such_tool", {}, "no_such_tool"),
]


@pytest.mark.parametrize(("name", "args", "says"), BAD_CALLS, ids=[f"{n}-{s}" for n, _, s in
                                                                   BAD_CALLS])  # fmt: skip
def test_a_failed_call_is_an_error_result_a_client_can_act_on(
    rules_advisor: Any, name: str, args: dict[str, Any], says: str
) -> None:
    async def run() -> Any:
        async with Client(build(rules_advisor)) as client:
            return await client.call_tool(name, args)

    result = asyncio.run(run())
    assert result.is_error, result.content  # isError: true, as the protocol asks
    assert says in result.content[0].text
    assert "Traceback" not in result.content[0].text


@pytest.mark.slow
def test_stdio_server_from_the_command_line(home: Path, rules_advisor: Any) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "advisor.cli", "mcp"],
                                   env=dict(os.environ))  # fmt: skip

    async def run() -> None:
        async with Client(params) as client:
            await _check_all_tools(client, rules_advisor)

    asyncio.run(run())


@pytest.mark.slow
def test_streamable_http_server_from_the_command_line(home: Path, rules_advisor: Any) -> None:
    port = free_port()
    with gpu_advisor("mcp", "--transport", "http", "--port", str(port)) as proc:
        wait_for(f"http://127.0.0.1:{port}/mcp", proc=proc)

        async def run() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await _check_all_tools(client, rules_advisor)

        asyncio.run(run())
