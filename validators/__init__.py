"""chunkwise: streaming validation for Guardrails that never loses, skips or leaks text."""
