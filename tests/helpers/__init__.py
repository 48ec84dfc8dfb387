"""Helpers shared by the test suites (never imported from a test module into another).

* :mod:`helpers.chunking`: driving chunkers and checking their streaming contract;
* :mod:`helpers.cost`: work counted in characters examined (the cost tests' measure);
* :mod:`helpers.guardrails`: real Guards fed by a custom LLM callable, sync and async;
* :mod:`helpers.server`, :mod:`helpers.fake_openai_upstream`: the server tests' processes;
* :mod:`helpers.validator_checks`, :mod:`helpers.prose`: what every validator test reuses;
* :mod:`helpers.oracles`, :mod:`helpers.sentence_cases`: reference results and labelled cases;
* :mod:`helpers.venvs`: fresh virtual environments for the packaging and hub tests.
"""

from pathlib import Path

#: The repository's root folder.
REPO = Path(__file__).resolve().parents[2]
