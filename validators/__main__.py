"""``python -m guardrails_ai.chunkwise``: the ``chunkwise`` command."""

import sys

from guardrails_ai.chunkwise.cli import main

if __name__ == "__main__":
    sys.exit(main())
