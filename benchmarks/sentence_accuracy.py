"""Sentence-boundary accuracy of SentenceChunker, side by side with pysbd, sentencex and blingfire.

Usage: ``python benchmarks/sentence_accuracy.py [--data DIR] [--show N]``
(``pip install -e ".[benchmark]"`` for the other segmenters; one that does not
import or run here is reported as skipped and left out).

Sets scored:

* ``DIR/dev_en.json`` (121 English cases; see its README), with case
  ``ps-segment-095`` (a whole chapter) reported apart;
* ``DIR/dev_multi.json`` (129 cases in 14 languages), per language and overall;
* the project's own labelled cases (``tests/helpers/sentence_cases.py``, known misses
  included).

Segmenters: chunkwise ``mode="simple"``, chunkwise accurate with the default
``language="auto"`` and with the case's own language (``language=LANG``), pysbd
(``clean=False``, the case's language), sentencex (the case's language) and
blingfire (language-independent).

Method: a segmentation is scored by where its boundaries fall, counted in
*non-whitespace characters from the start of the text*.  A boundary between
two sentences sits after the k-th non-whitespace character.  Counting
non-whitespace characters compares verbatim and whitespace-normalised cases
alike (joining lines or collapsing spaces does not move a boundary).  A case
whose expected sentences do not hold the same non-whitespace characters as its
text is reported and skipped; a segmenter whose output does not (it changed
the text) gets the case wrong.  Precision, recall and F1 are micro-averaged
over boundaries; a case is *exact* when its boundary set equals the expected
one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers.sentence_cases import KNOWN_MISSES, all_cases  # noqa: E402

from guardrails_ai.chunkwise.chunkers import SentenceChunker  # noqa: E402

# ``../shared/sbd`` beside the repository (or beside a folder holding it, for
# a git worktree such as ``wt/NAME``).
DEFAULT_DATA = next(
    (p / "shared" / "sbd" for p in ROOT.parents if (p / "shared" / "sbd").is_dir()),
    ROOT.parent / "shared" / "sbd",
)
BIG_CASE = "ps-segment-095"

Segment = Callable[[str, str], list[str]]
Case = tuple[str, str, str, list[str]]  # id, language, text, sentences


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
    """Boundary counts and exact cases for one segmenter on one set."""

    def __init__(self) -> None:
        self.tp = self.fp = self.fn = self.exact = self.cases = 0

    def add(self, got: set[int] | None, want: set[int]) -> None:
        if got is None:  # the segmenter changed the text or failed: all wrong
            self.fn += len(want)
            self.cases += 1
            return
        self.tp += len(got & want)
        self.fp += len(got - want)
        self.fn += len(want - got)
        self.exact += got == want
        self.cases += 1

    def f1(self) -> float:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return 2 * p * r / (p + r) if p + r else 0.0

    def row(self) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return (
            f"P={p:6.3f} R={r:6.3f} F1={self.f1():6.3f}  exact {self.exact:3d}/{self.cases:<3d}"
            f"  (tp {self.tp}, fp {self.fp}, fn {self.fn})"
        )


def chunkwise_segmenters() -> dict[str, Segment]:
    simple = SentenceChunker(mode="simple")
    auto = SentenceChunker()
    by_language: dict[str, SentenceChunker] = {}

    def own(text: str, lang: str) -> list[str]:
        if lang not in by_language:
            by_language[lang] = SentenceChunker(language=lang)
        return by_language[lang].split_text(text)

    return {
        "simple": lambda text, lang: simple.split_text(text),
        "auto": lambda text, lang: auto.split_text(text),
        "language": own,
    }


def with_pysbd() -> Segment:
    import pysbd  # type: ignore[import-not-found]

    cache: dict[str, Any] = {}

    def segment(text: str, lang: str) -> list[str]:
        if lang not in cache:
            cache[lang] = pysbd.Segmenter(language=lang, clean=False)
        return list(cache[lang].segment(text))

    return segment


def with_sentencex() -> Segment:
    import sentencex  # type: ignore[import-not-found]

    return lambda text, lang: list(sentencex.segment(lang, text))


def with_blingfire() -> Segment:
    import blingfire  # type: ignore[import-not-found]

    def segment(text: str, lang: str) -> list[str]:
        out = blingfire.text_to_sentences(text)
        return out.split("\n") if out else []

    return segment


def other_segmenters() -> tuple[dict[str, Segment], list[str]]:
    """pysbd, sentencex and blingfire where they import and run (offline); the
    notes of those that do not."""
    found: dict[str, Segment] = {}
    notes: list[str] = []
    for name, make in (("pysbd", with_pysbd), ("sentencex", with_sentencex),
                       ("blingfire", with_blingfire)):  # fmt: skip
        try:
            segment = make()
            segment("One. Two.", "en")
        except Exception as error:  # (any failure: report it and go on)
            notes.append(f"{name} skipped: {type(error).__name__}: {error}")
            continue
        found[name] = segment
    return found, notes


def run(segment: Segment, text: str, lang: str) -> set[int] | None:
    try:
        parts = segment(text, lang)
    except Exception:
        return None
    got, total = boundaries(parts)
    return got if total == sum(1 for c in text if not c.isspace()) else None


def score(
    cases: list[Case], segmenters: dict[str, Segment], show: int
) -> tuple[dict[str, Score], int, list[tuple[str, list[str], list[str]]]]:
    """Each segmenter's score on ``cases``, the count of skipped cases, and
    the misses of chunkwise with the case's language."""
    scores = {name: Score() for name in segmenters}
    misses: list[tuple[str, list[str], list[str]]] = []
    skipped = 0
    for case_id, lang, text, sentences in cases:
        want, total = boundaries(sentences)
        if total != sum(1 for c in text if not c.isspace()):
            skipped += 1
            continue
        for name, segment in segmenters.items():
            got = run(segment, text, lang)
            scores[name].add(got, want)
            if name == "language" and got != want and len(misses) < show:
                misses.append((case_id, segment(text, lang), sentences))
    return scores, skipped, misses


def report(name: str, cases: list[Case], segmenters: dict[str, Segment], show: int) -> None:
    scores, skipped, misses = score(cases, segmenters, show)
    print(f"{name}{f' ({skipped} skipped: characters differ)' if skipped else ''}")
    for seg, s in scores.items():
        print(f"  {seg:10s} {s.row()}")
    print_misses(misses)


def print_misses(misses: list[tuple[str, list[str], list[str]]]) -> None:
    for case_id, got_chunks, want_chunks in misses:
        print(f"    miss {case_id}: got {got_chunks!r:.300}")
        print(f"    {' ' * len(case_id)}  want {want_chunks!r:.300}")


def report_languages(cases: list[Case], segmenters: dict[str, Segment], show: int) -> None:
    """Exact cases per language (one column per segmenter), then overall."""
    languages = sorted({c[1] for c in cases})
    names = list(segmenters)
    print("dev_multi.json: exact cases per language")
    print("  lang  " + "".join(f"{n:>11s}" for n in names))
    overall = {n: Score() for n in names}
    all_misses: list[tuple[str, list[str], list[str]]] = []
    for lang in languages:
        scores, _, misses = score([c for c in cases if c[1] == lang], segmenters, show)
        all_misses += misses
        cells = "".join(f"{f'{scores[n].exact}/{scores[n].cases}':>11s}" for n in names)
        print(f"  {lang:4s}  {cells}")
        for n in names:
            for field in ("tp", "fp", "fn", "exact", "cases"):
                setattr(overall[n], field, getattr(overall[n], field) + getattr(scores[n], field))
    print("  overall")
    for n in names:
        print(f"  {n:10s} {overall[n].row()}")
    print_misses(all_misses[:show])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--show", type=int, default=0, help="print N misses of chunkwise per set")
    args = parser.parse_args()
    others, notes = other_segmenters()
    segmenters = {**chunkwise_segmenters(), **others}
    for note in notes:
        print(note)
    dev_en = args.data / "dev_en.json"
    if dev_en.exists():
        rows = [
            (c["id"], "en", c["text"], c["sentences"])
            for c in json.loads(dev_en.read_text(encoding="utf-8"))
        ]
        report(
            f"dev_en.json without {BIG_CASE}",
            [r for r in rows if r[0] != BIG_CASE],
            segmenters,
            args.show,
        )
        big = [r for r in rows if r[0] == BIG_CASE]
        report(f"dev_en.json {BIG_CASE} alone", big, segmenters, 0)
    else:
        print(f"{dev_en} not found: English development set skipped")
    dev_multi = args.data / "dev_multi.json"
    if dev_multi.exists():
        rows = [
            (c["id"], c["lang"], c["text"], [s.strip() for s in c["sentences"]])
            for c in json.loads(dev_multi.read_text(encoding="utf-8"))
        ]
        report_languages(rows, segmenters, args.show)
    else:
        print(f"{dev_multi} not found: multilingual development set skipped")
    own: list[Case] = [(rule, "en", text, sents) for rule, text, sents in all_cases()]
    own += [("known-miss", "en", text, sents) for text, sents in KNOWN_MISSES]
    report("own labelled cases (tests/helpers/sentence_cases.py)", own, segmenters, args.show)


if __name__ == "__main__":
    main()
