"""The agent's behaviour, as the team already tests it; every model call is recorded (conftest.py)."""

from agent.loop import Agent


def test_fixes_a_failing_test(record):
    agent = Agent(transport=record(["I will read the failing test first.", "The total is summed in floats.", "Fixed: cents throughout."]))
    assert agent.ask("The invoice total test fails. Find out why.") == "I will read the failing test first."
    assert agent.ask("Here is the assertion: expected 10.30, got 10.299999.").startswith("The total")
    assert agent.ask("Fix it, and run the tests.") == "Fixed: cents throughout."
    assert len(agent.messages) == 6


def test_answers_a_question(record):
    agent = Agent(transport=record(["It sums the line items in cents.", "Yes: tests/test_invoice.py."]))
    agent.ask("What does invoice.total() do?")
    agent.ask("Is it tested?")
    assert agent.messages[-1]["content"] == "Yes: tests/test_invoice.py."
