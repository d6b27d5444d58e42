"""The agent's prompt fold: an append-only conversation sent as Anthropic Messages requests.

What keeps the provider cache: everything above the newest turn is sent again byte for byte.
So the system prompt holds no clock and no per-run value, the tools are sent in a fixed order,
and the cache breakpoints sit on the system prompt and on the newest user message (Anthropic caches
only what a request marks with `cache_control`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

MODEL = "claude-sonnet-4-5"

SYSTEM_PROMPT = "\n".join(
    [
        "You are harbor-bot, a coding agent working in one repository on behalf of its maintainers.",
        "Work in small, reviewable steps and say what you are about to do before you do it.",
        *[
            f"Rule {n}: {rule}"
            for n, rule in enumerate(
                [
                    "Read the failing test before you read the code it tests; quote the assertion that fails.",
                    "Never change a test to make it pass unless the test itself is wrong, and say why it is.",
                    "Keep money in integer cents; sum in cents and format once, at the edge of the program.",
                    "Prefer the standard library; add a dependency only when the maintainers ask for one.",
                    "Run the narrowest test that covers your change first, then the module's tests, then all.",
                    "When a command fails, read its whole output before trying anything else.",
                    "Do not reformat code you did not change: a review should show only the change.",
                    "Name things for what they are in the domain, not for how they are stored.",
                    "A function that needs a comment to say what it does needs a better name first.",
                    "Errors say what is wrong, where, and how to fix it; never swallow one silently.",
                    "Every new behaviour gets a test that fails without the change and passes with it.",
                    "Time, randomness and the environment are inputs: pass them in, never read them deep inside.",
                    "Write commit messages that say what changed and why, in the present tense.",
                    "Leave the repository as you found it: no stray files, no debug output, no commented code.",
                    "Ask before deleting anything you did not create in this session.",
                    "When two approaches work, choose the one that is easier to delete later.",
                    "Keep functions short enough to read without scrolling; split by idea, not by length.",
                    "Log at the boundary of the program, not in its core; the core returns values.",
                    "Treat every string from outside the program as untrusted: escape it where it is shown.",
                    "A flaky test is a bug: find the shared state or the timing it depends on and remove it.",
                    "Prefer data that explains itself over flags that change what a function does.",
                    "If the task is unclear, state your reading of it in one sentence and proceed on it.",
                    "Summarise what you did at the end: the files changed, the tests run, what is left.",
                ],
                start=1,
            )
        ],
        "The repository, module by module:",
        *[
            f"- {path}: {what}"
            for path, what in [
                ("billing/invoice.py", "invoices: line items, totals in cents, the tax lines and the rounding rule of each country"),
                ("billing/tax.py", "tax rates by country and date, looked up from a table that is versioned with the code"),
                ("billing/currency.py", "currencies, their minor units and the formatting of amounts for people"),
                ("billing/discounts.py", "discount codes, their validity windows and how they combine with each other"),
                ("accounts/customer.py", "customers, their billing addresses and their preferred language"),
                ("accounts/auth.py", "sign-in, sessions and the permissions a role grants"),
                ("api/routes.py", "the HTTP routes: one function per route, validation first, then the domain call"),
                ("api/errors.py", "how domain errors become HTTP responses, with a stable error code for each"),
                ("jobs/reminders.py", "the nightly job that emails customers whose invoices are overdue"),
                ("jobs/exports.py", "the monthly export of invoices to the accounting system, as CSV"),
                ("storage/db.py", "the database connection, transactions and the migration runner"),
                ("storage/migrations/", "one file per schema change, numbered, never edited once merged"),
                ("tests/test_invoice.py", "invoice totals, tax lines and rounding, one test per country rule"),
                ("tests/test_api.py", "the routes, through an in-memory database and a fake mailer"),
                ("tests/conftest.py", "the fixtures: a frozen clock, a seeded random generator, the fake mailer"),
                ("docs/", "the maintainers' notes: how to release, how to add a country, how to rotate keys"),
            ]
        ],
        "Answer in English. Show commands in fenced code blocks. Keep each reply under 200 words.",
    ]
)

TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file of the repository.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {
        "name": "run_tests",
        "description": "Run the test suite, or the tests matching a pattern.",
        "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}},
    },
]


class Transport(Protocol):
    """Sends one request body and returns the provider's response (a real HTTP client, or a stub)."""

    def send(self, body: dict[str, Any]) -> dict[str, Any]: ...


@dataclass
class Agent:
    transport: Transport
    messages: list[dict[str, Any]] = field(default_factory=list)

    def request_body(self) -> dict[str, Any]:
        """The request as of now: the fixed prefix, then the conversation, the newest turn marked for caching."""
        messages = json.loads(json.dumps(self.messages))  # a copy: marking the newest turn must not change history
        last = messages[-1]
        last["content"] = [{"type": "text", "text": last["content"], "cache_control": {"type": "ephemeral"}}]
        return {
            "model": MODEL,
            "max_tokens": 1024,
            "system": [{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}],
            "tools": sorted(TOOLS, key=lambda t: t["name"]),
            "messages": messages,
        }

    def ask(self, text: str) -> str:
        self.messages.append({"role": "user", "content": text})
        response = self.transport.send(self.request_body())
        reply = "".join(block.get("text", "") for block in response["content"])
        self.messages.append({"role": "assistant", "content": reply})
        return reply


@dataclass
class Recorder:
    """Wraps a transport and appends each call to a JSON Lines file, as `prompt-fold assert` reads it:
    {"timestamp", "body", "response"} (the response's `usage` is what the provider billed)."""

    inner: Transport
    path: str
    clock: Callable[[], str]

    def send(self, body: dict[str, Any]) -> dict[str, Any]:
        timestamp = self.clock()
        response = self.inner.send(body)
        line: dict[str, Any] = {"timestamp": timestamp, "body": body}
        if "usage" in response:
            line["response"] = {"usage": response["usage"]}
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        return response
