"""A tiny coding agent, as a platform's Python code builds its provider requests."""
