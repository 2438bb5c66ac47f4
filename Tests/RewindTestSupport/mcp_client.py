"""A real, independent MCP client for the end-to-end tests of `rewind mcp` (McpServerTests).

Usage: python mcp_client.py REWIND-EXECUTABLE [ARGS...] < calls.json

Starts `REWIND-EXECUTABLE ARGS...` as an MCP server over stdio with the official Python SDK (`mcp` on PyPI),
then prints one JSON line per step: first {"tools": [names]}, {"resources": [uris]}, {"prompts": [names]}, then
for each call in calls.json (a JSON array of {"tool": name, "arguments": {...}} or {"resource": uri} or
{"prompt": name, "arguments": {...}}) either {"isError": bool, "text": "..."} or {"error": {"code", "message"}}
when the server answered with a protocol error.
"""

import asyncio
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
try:  # the SDK's 2.x name, then 1.x's
    from mcp.shared.exceptions import MCPError as McpError
except ImportError:
    from mcp.shared.exceptions import McpError


def is_error(result):
    # 2.x names the field is_error, 1.x isError.
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


def emit(value):
    print(json.dumps(value), flush=True)


async def main():
    calls = json.load(sys.stdin)
    server = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            emit({"tools": [tool.name for tool in (await session.list_tools()).tools]})
            emit({"resources": [str(r.uri) for r in (await session.list_resources()).resources]})
            emit({"prompts": [p.name for p in (await session.list_prompts()).prompts]})
            for call in calls:
                try:
                    if "tool" in call:
                        result = await session.call_tool(call["tool"], call.get("arguments", {}))
                        text = "".join(c.text for c in result.content if c.type == "text")
                        emit({"isError": is_error(result), "text": text})
                    elif "resource" in call:
                        result = await session.read_resource(call["resource"])
                        emit({"isError": False, "text": "".join(getattr(c, "text", "") for c in result.contents)})
                    else:
                        result = await session.get_prompt(call["prompt"], call.get("arguments", {}))
                        emit({"isError": False, "text": "".join(m.content.text for m in result.messages)})
                except McpError as error:
                    emit({"error": {"code": error.error.code, "message": error.error.message}})


asyncio.run(main())
