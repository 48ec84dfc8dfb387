"""Sentence-boundary accuracy of SentenceChunker, mode="simple" vs mode="accurate".

Usage: ``python benchmarks/sentence_accuracy.py [--data PATH] [--show N]``

Sets scored:

* the development set ``../shared/sbd/dev_en.json`` (121 cases; see its README),
  with case ``ps-segment-095`` (a whole chapter) reported apart;
* the project's own labelled cases (``tests/sentence_cases.py``, known misses
  included).

Method: a segmentation is scored by where its boundaries fall, counted in
*non-whitespace characters from the start of the text*.  A boundary between
two sentences sits after the k-th non-whitespace character.  The chunker's
boundaries come from ``split_text(text)``; the expected ones from the case's
``sentences``.  Counting non-whitespace characters compares verbatim and
whitespace-normalised cases alike (joining lines or collapsing spaces does not
move a boundary), and it is exact: a case whose expected sentences do not hold
the same non-whitespace characters as its text would be reported and skipped.
Precision, recall and F1 are micro-averaged over boundaries; a case is *exact*
when its boundary set equals the expected one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from sentence_cases import KNOWN_MISSES, all_cases  # noqa: E402

from guardrails_ai.chunkwise.chunkers import SentenceChunker  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "sbd" / "dev_en.json"
BIG_CASE = "ps-segment-095"


def boundaries(parts: Iterable[str]) -> tuple[set[int], int]:
    """Boundary positions in non-whitespace characters, and the total count."""
    marks: list[int] = []
    count = 0
    for part in parts:
        count += sum(1 for c in part if not c.isspace())
        marks.append(count)
    inner = {m for m in marks[:-1] if 0 < m < count}
    return inner, count


class Score:
    """Boundary counts and exact cases for one chunker on one set."""

    def __init__(self) -> None:
        self.tp = self.fp = self.fn = self.exact = self.cases = 0

    def add(self, got: set[int], want: set[int]) -> None:
        self.tp += len(got & want)
        self.fp += len(got - want)
        self.fn += len(want - got)
        self.exact += got == want
        self.cases += 1

    def row(self) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return (
            f"P={p:6.3f} R={r:6.3f} F1={f:6.3f}  exact {self.exact:3d}/{self.cases:<3d}"
            f"  (tp {self.tp}, fp {self.fp}, fn {self.fn})"
        )


def score(
    name: str, cases: list[tuple[str, str, list[str]]], show: int
) -> None:
    chunkers = {m: SentenceChunker(mode=m) for m in ("simple", "accurate")}
    scores = {m: Score() for m in chunkers}
    misses: list[tuple[str, list[str], list[str]]] = []
    skipped = 0
    for case_id, text, sentences in cases:
        want, total = boundaries(sentences)
        if total != sum(1 for c in text if not c.isspace()):
            skipped += 1
            continue
        for mode, chunker in chunkers.items():
            chunks = chunker.split_text(text)
            got, _ = boundaries(chunks)
            scores[mode].add(got, want)
            if mode == "accurate" and got != want:
                misses.append((case_id, chunks, sentences))
    print(f"{name}{f' ({skipped} skipped: characters differ)' if skipped else ''}")
    for mode, s in scores.items():
        print(f"  {mode:9s} {s.row()}")
    for case_id, got_chunks, want_chunks in misses[:show]:
        print(f"    miss {case_id}: got {got_chunks!r:.300}")
        print(f"    {' ' * len(case_id)}  want {want_chunks!r:.300}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--show", type=int, default=0, help="print N accurate-mode misses")
    args = parser.parse_args()
    if args.data.exists():
        dev = json.loads(args.data.read_text(encoding="utf-8"))
        rows = [(c["id"], c["text"], c["sentences"]) for c in dev]
        score(
            f"dev_en.json without {BIG_CASE}",
            [r for r in rows if r[0] != BIG_CASE],
            args.show,
        )
        score(f"dev_en.json {BIG_CASE} alone", [r for r in rows if r[0] == BIG_CASE], 0)
    else:
        print(f"{args.data} not found: development set skipped")
    own = [(rule, text, sents) for rule, text, sents in all_cases()]
    own += [("known-miss", text, sents) for text, sents in KNOWN_MISSES]
    score("own labelled cases (tests/sentence_cases.py)", own, args.show)


if __name__ == "__main__":
    main()
