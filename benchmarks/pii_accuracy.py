"""Per-entity precision and recall of RedactPII's detectors on a labelled set.

Usage: ``python benchmarks/pii_accuracy.py [--misses]``

The set is ``benchmarks/_pii_labelled.py`` (generated sentences with personal
data and hard negatives; deterministic).  Side by side, in one run:

* ``chunkwise``: ``find_entities`` (what ``RedactPII`` redacts in a chunk);
* ``plain regex``: the usual one-line patterns, no checksum, no context (what a
  quick redactor does);
* ``presidio``: Presidio's pattern recognizers (``EmailRecognizer``,
  ``PhoneRecognizer``, ``CreditCardRecognizer``, ``IbanRecognizer``,
  ``IpRecognizer``) called directly, without an NLP engine, when
  ``presidio-analyzer`` is importable (it is not a dependency of this
  package; its ``AnalyzerEngine`` needs a spaCy model, which cannot be
  fetched offline, so only the recognizers run);
* ``phonenumbers``: ``PhoneNumberMatcher`` (leniency ``VALID``) for regions US,
  GB, FR, DE and IN, when ``phonenumbers`` is importable: the library a phone
  check could rely on, measured against the shape-and-label rules used here.

A found entity counts as correct when a labelled entity of the same kind
overlaps it (one to one); ``exact`` counts chunkwise's found spans equal to the
labelled ones.  ``--misses`` prints chunkwise's misses and false positives.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _pii_labelled import KINDS, labelled_set

from guardrails_ai.chunkwise._pii import find_entities

Span = tuple[int, int, str]
Detector = Callable[[str], list[Span]]


def chunkwise(text: str) -> list[Span]:
    return [(e.start, e.end, e.name) for e in find_entities(text)]


_PLAIN = {
    "email": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "phone": re.compile(r"\+?\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}"),
    "card": re.compile(r"\b(?:\d[ -]?){13,19}\b"),
    "iban": re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b"),
    "ipv4": re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b"),
    "ipv6": re.compile(r"(?<![\w:])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![\w:])"),
    "ssn": re.compile(r"\b\d{3}-\d{2}-\d{4}\b"),
}


def plain(text: str) -> list[Span]:
    return [(m.start(), m.end(), kind) for kind, p in _PLAIN.items() for m in p.finditer(text)]


def presidio() -> Detector | None:
    # Offline, tldextract (used by the e-mail recognizer) fails to fetch the
    # public suffix list and falls back to the snapshot it ships: quiet it.
    logging.getLogger("tldextract").setLevel(logging.CRITICAL)
    try:
        from presidio_analyzer.predefined_recognizers import (
            CreditCardRecognizer,
            EmailRecognizer,
            IbanRecognizer,
            IpRecognizer,
            PhoneRecognizer,
            UsSsnRecognizer,
        )
    except Exception:
        return None
    names = {
        "EMAIL_ADDRESS": "email",
        "PHONE_NUMBER": "phone",
        "CREDIT_CARD": "card",
        "IBAN_CODE": "iban",
        "US_SSN": "ssn",
    }
    recognizers = [
        EmailRecognizer(),
        PhoneRecognizer(supported_regions=("US", "GB", "FR", "DE", "IN")),
        CreditCardRecognizer(),
        IbanRecognizer(),
        IpRecognizer(),
        UsSsnRecognizer(),
    ]

    def detect(text: str) -> list[Span]:
        spans = []
        for r in recognizers:
            for res in r.analyze(text, r.supported_entities, None) or []:
                if res.entity_type == "IP_ADDRESS":
                    kind = "ipv6" if ":" in text[res.start : res.end] else "ipv4"
                else:
                    kind = names.get(res.entity_type, "")
                if kind:
                    spans.append((res.start, res.end, kind))
        return spans

    return detect


def phonenumbers_matcher() -> Detector | None:
    try:
        import phonenumbers
    except ImportError:
        return None

    def detect(text: str) -> list[Span]:
        spans: set[Span] = set()
        for region in ("US", "GB", "FR", "DE", "IN"):
            for m in phonenumbers.PhoneNumberMatcher(text, region, phonenumbers.Leniency.VALID):
                spans.add((m.start, m.end, "phone"))
        return sorted(spans)

    return detect


def score(
    detect: Detector, data: list[tuple[str, list[Span]]], kinds: tuple[str, ...]
) -> dict[str, tuple[int, int, int, int]]:
    """kind -> (true positives, false positives, false negatives, exact spans)."""
    counts = {k: [0, 0, 0, 0] for k in kinds}
    for text, gold in data:
        found = [s for s in detect(text) if s[2] in kinds]
        unmatched = list(gold)
        for start, end, kind in found:
            match = next(
                (g for g in unmatched if g[2] == kind and g[0] < end and start < g[1]), None
            )
            if match is None:
                counts[kind][1] += 1
            else:
                unmatched.remove(match)
                counts[kind][0] += 1
                counts[kind][3] += (start, end) == match[:2]
        for g in unmatched:
            if g[2] in kinds:
                counts[g[2]][2] += 1
    return {k: (v[0], v[1], v[2], v[3]) for k, v in counts.items()}


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "  -  "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", action="store_true", help="print chunkwise's errors")
    args = parser.parse_args()
    data = labelled_set()
    gold = [g for _, labels in data for g in labels]
    negatives = sum(1 for _, labels in data if not labels)
    print(f"labelled set: {len(data)} texts, {len(gold)} entities, {negatives} hard negatives")
    print("  " + ", ".join(f"{k} {sum(1 for g in gold if g[2] == k)}" for k in KINDS))
    detectors: list[tuple[str, Detector | None, tuple[str, ...]]] = [
        ("chunkwise", chunkwise, KINDS),
        ("plain regex", plain, KINDS),
        ("presidio", presidio(), KINDS),
        ("phonenumbers", phonenumbers_matcher(), ("phone",)),
    ]
    print(
        f"\n{'detector':<14}{'entity':<7}{'precision':>10}{'recall':>8}{'TP':>6}{'FP':>5}"
        f"{'FN':>5}{'exact':>7}"
    )
    for name, detect, kinds in detectors:
        if detect is None:
            print(f"{name:<14}not importable here: skipped")
            continue
        for kind, (tp, fp, fn, exact) in score(detect, data, kinds).items():
            print(
                f"{name:<14}{kind:<7}{_ratio(tp, tp + fp):>10}{_ratio(tp, tp + fn):>8}"
                f"{tp:>6}{fp:>5}{fn:>5}{exact:>7}"
            )
    if args.misses:
        print("\nchunkwise errors:")
        for text, labels in data:
            found = set(chunkwise(text))
            wanted = set(labels)
            for s in sorted(found - wanted):
                print(f"  FP {s[2]:<6}{text[s[0] : s[1]]!r} in {text!r}")
            for s in sorted(wanted - found):
                print(f"  FN {s[2]:<6}{text[s[0] : s[1]]!r} in {text!r}")


if __name__ == "__main__":
    main()
