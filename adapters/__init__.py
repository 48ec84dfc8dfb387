"""Adapters between chunkwise strategies and Guardrails' contracts."""
