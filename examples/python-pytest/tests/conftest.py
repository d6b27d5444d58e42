"""Every test's model calls go through a stub transport (no network) and are recorded, one JSON Lines
file per test, in the folder PROMPT_FOLD_RECORDINGS names (default: recorded/ beside this project).
CI then runs `npx prompt-fold assert recorded/*.jsonl --expect cache-promises.yaml` on them."""

from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from agent.loop import Recorder

HERE = Path(__file__).resolve().parent.parent


class StubTransport:
    """Answers every request with a canned reply. It bills nothing: a stub cannot know what the
    provider would have cached, so no `usage` is recorded and the promises are checked against the
    engine's model of the provider's cache. (Record real calls — a cassette — to check the bill too.)"""

    def __init__(self, replies: list[str]):
        self.replies = list(replies)

    def send(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"role": "assistant", "content": [{"type": "text", "text": self.replies.pop(0)}]}


@pytest.fixture
def record(request: pytest.FixtureRequest):
    """A function making a recording transport for this test: a fixed clock, 20 s between calls."""
    folder = Path(os.environ.get("PROMPT_FOLD_RECORDINGS", HERE / "recorded"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{request.node.name}.jsonl"
    path.unlink(missing_ok=True)
    start = datetime(2026, 12, 1, 9, 0, 0, tzinfo=timezone.utc)
    calls = iter(range(1000))

    def clock() -> str:
        return (start + timedelta(seconds=20 * next(calls))).isoformat().replace("+00:00", "Z")

    def make(replies: list[str]) -> Recorder:
        return Recorder(inner=StubTransport(replies), path=str(path), clock=clock)

    return make
