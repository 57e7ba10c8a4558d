"""A service that cannot be reached is said in a traveller's words: the host and why, never the
socket's errno text ("[Errno -2] Name or service not known")."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from engine.errors import ToolUnavailable
from engine.net.network import NetworkState, unreachable


@pytest.mark.parametrize("raw, words", [
    ("[Errno -2] Name or service not known", "no network (its name does not resolve)"),
    ("[Errno -3] Temporary failure in name resolution", "no network (its name does not resolve)"),
    ("[Errno 111] Connection refused", "nothing answers there"),
    ("All connection attempts failed", "nothing answers there"),
    ("[Errno 101] Network is unreachable", "no network or the service is down"),
])
def test_each_failure_is_one_plain_reason(raw, words) -> None:
    said = unreachable("overpass-api.de", httpx.ConnectError(raw))
    assert said == f"cannot reach overpass-api.de: {words}" and "Errno" not in said


def test_a_closed_port_is_refused_in_words_and_marks_the_network_down(monkeypatch) -> None:
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")  # the tests' fence; the URL is this machine's own
    with socket.socket() as probe:  # a port nobody listens on: bound, then closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    network = NetworkState()

    async def ask():
        try:
            await network.get("routing", f"http://127.0.0.1:{port}/route")
        finally:
            await network.aclose()
    with pytest.raises(ToolUnavailable) as info:
        asyncio.run(ask())
    assert "cannot reach 127.0.0.1: nothing answers there" in str(info.value)
    assert "Errno" not in str(info.value) and network.offline()
