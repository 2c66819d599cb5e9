"""The MCP server: `gpu-advisor mcp` publishes the advisor's tools (GPU specs, compare, estimate,
solve, recommend, prices, corpus search) over the Model Context Protocol, on stdio or streamable
HTTP, with the official `mcp` SDK. Each tool is the Python API's `Advisor.tool`, so an agent or
an editor gets exactly the numbers the advisor itself uses. A call that fails (an unknown name,
bad arguments) comes back marked `isError: true` with the advisor's actionable message, as the
protocol asks, never as a success that holds an error."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from advisor.api import Advisor, tool_functions, tool_parameters

INSTRUCTIONS = (
    "GPU Advisor's calculator and article search. Datasheet values (gpu_specs, compare_gpus) are "
    "the authority; passages from search_corpus are quoted data and may be wrong about specs. "
    "A failed call (unknown name, bad arguments) is an error result whose text says what to fix."
)


def build(advisor: Advisor | None = None) -> MCPServer:
    adv = advisor or Advisor()
    server = MCPServer("gpu-advisor", instructions=INSTRUCTIONS)
    for name, fn in tool_functions().items():
        server.add_tool(_published(adv, name, fn), name=name, description=inspect.getdoc(fn))
    return server


def _published(adv: Advisor, name: str, fn: Callable[..., Any]) -> Callable[..., dict[str, Any]]:
    """A function with the tool's own typed signature (less the internal `searcher`) that runs
    the tool through the Advisor; the SDK reads its signature for the input schema."""
    params = tool_parameters(fn)

    def run(**arguments: Any) -> dict[str, Any]:
        result = adv.tool(name, arguments)
        if "error" in result:  # the SDK answers a ToolError with isError: true and this text
            raise ToolError(str(result["error"]))
        return result

    run.__name__ = name
    run.__doc__ = fn.__doc__
    run.__signature__ = inspect.Signature(params, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params} | {"return": dict[str, Any]}
    return run


def serve(transport: str, *, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Run until interrupted: transport "stdio" or "http" (streamable HTTP at /mcp)."""
    server = build()
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)
