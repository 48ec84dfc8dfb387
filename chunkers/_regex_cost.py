"""What a separator regex costs Python's backtracking engine, read from its parse tree.

:func:`check_cost` refuses (``ValueError`` naming ``pattern``) the patterns whose
search is not linear in the text it covers, and returns the *run guard* of a
pattern that starts with an unbounded repeat (or ``None``).  Rules, each
closing a shape measured to go super-linear:

1. Catastrophic backtracking (exponential, or a polynomial of high degree): a
   repeat with an upper bound above one whose body holds another such repeat,
   one of them unbounded (``(a+)+b``, ``(\\s*,)+``, ``(a+){2,9}``), or the
   inner one of varying length with more than ``_NESTED_WAYS`` ways to split a
   run (``(a{1,20}){1,20}``); a repeat of more than ``_AMBIGUOUS_REPEATS``
   over alternatives that can start with the same character
   (``(a|ab)+``, ``(\\s|\\n)+``, ``(a|a){1,40}``) or over a body with an
   optional part that overlaps a required one (``(a?a)+``).  Backreferences
   are refused too, and repeats bounded above ``_BOUND_MAX`` (a streamed
   search looks back that far); a bound above ``_LARGE`` counts as unbounded
   below, and so does an optional group of an unbounded repeat
   (``(?:\\s+)?``).
2. Two unbounded repeats of overlapping characters in a row, with only such
   characters between them and something after them that can fail
   (``\\s*\\s*;``, ``\\d+\\.?\\d+x``): each attempt tries every split of a run.
   In a lookahead too (``;(?=\\s*\\s*x)``), which every attempt reads.
3. An unbounded repeat that an attempt can reach from inside a run of its own
   characters, with something after it that can fail (``,[\\s,]*x`` on
   ``,,,,``): an attempt at every character of the run reads the rest of it.
   A pattern that *starts* with the repeat (``\\s*;\\s*``, ``.*;``) is accepted:
   an attempt inside a run can only succeed where the attempt one character
   earlier succeeds, so the search skips those positions (the run guard,
   ``(?<!X)``, exact for these patterns).  ``c X* c'`` where ``c'`` accepts
   every ``c`` (``\\n\\s*\\n``) is accepted: an attempt fails only at the last
   ``c`` of a run.  In a lookahead, a repeat over the characters of the
   element before it that can fail after it (``;(?=.*!)`` on ``;;;;``), or
   in a lookahead that starts the pattern (an attempt at every offset), a
   repeat the attempt can reach from inside its run (``(?=a+b)a`` on ``aaaa``).

Rules 2 and 3 read an optional part (``(?:;{2,}.*)?``) as its elements in
its place, each optional, and a repeated group (``(?:\\s?)+``, ``(?:ab|c)+``)
as one unbounded repeat of its characters; neither gets a run guard
(``(?:ab|c)+;`` and ``(?:\\s?)+\\d`` are refused: quadratic, and cubic
for ``(?:;{2,}.*)?\\.{1,3}``).

The analysis looks at the top-level sequence of the pattern and at each
alternative of a top-level alternation (lookaheads also in each alternative of
an alternation in a group, ``(?:(?=a+b)|x)a``, nested or not); characters are compared on a probe
alphabet (all of Latin-1 and Latin Extended-A, samples of the other scripts,
spaces and marks, and the pattern's own characters: its literals and the
characters of its ranges, so that ``\\d`` meets ``\\u0661`` and, under
IGNORECASE, ``\\u03c3`` meets ``\\u03c2``).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["atom_regex", "check_cost", "parse"]

_parser: Any
try:  # Python >= 3.11
    _parser = importlib.import_module("re._parser")
except ImportError:  # pragma: no cover - Python 3.10
    _parser = importlib.import_module("sre_parse")

_MAXREPEAT = int(_parser.MAXREPEAT)
_PROBE = "".join(map(chr, range(0x180))) + (
    "\u0301\u0323\u0400\u0430\u03b1\u05d0\u0627\u0e01\u2028\u2029\u200b\u2019\u201d"
    "\u2026\u3000\u3002\u4e00\uac00\uff0e\ufeff\U0001f600"
)
#: A character range of the pattern up to this long is probed whole (longer:
#: its first and last characters).
_RANGE_PROBED = 1024
_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}
_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")
#: A repeat bounded above this many is read as unbounded (``[ ]{1,60000}x`` costs
#: what ``[ ]+x`` costs).
_LARGE = 64
#: Nested repeats, the inner one of varying length, may try at most this many
#: ways (the product of their upper bounds) to split a run: ``(?:\d{1,3}\.){3}``
#: (9) passes, ``(a{1,20}){1,20}`` and ``(?:\s{1,9}){1,9}`` do not.
_NESTED_WAYS = 16
#: A repeat of alternatives that can match one text two ways may repeat at most
#: this many times (``(a|a){1,4}``: 16 ways; ``(a|a){1,40}``: 2**40).
_AMBIGUOUS_REPEATS = 4
#: The largest upper bound of a repeat: a streamed search looks that far back
#: (``[ ]{1,60000}x`` on spaces costs 60000 a character; ``[ ]+x`` does not).
_BOUND_MAX = 256
_ATOMS = ("LITERAL", "NOT_LITERAL", "ANY", "IN")


def parse(pattern: re.Pattern[str]) -> Any:
    """The parse tree of a compiled pattern (``re._parser``)."""
    return _parser.parse(pattern.pattern, pattern.flags & ~re.DEBUG)


def _char(code: int) -> str:
    return f"\\U{code:08x}"


def atom_regex(op: Any, av: Any) -> str | None:
    """A regex for the single character atom ``(op, av)``, or ``None``."""
    name = str(op)
    if name == "LITERAL":
        return _char(av)
    if name == "NOT_LITERAL":
        return f"[^{_char(av)}]"
    if name == "ANY":
        return "."
    if name != "IN":
        return None
    out: list[str] = []
    for item, arg in av:
        kind = str(item)
        if kind == "NEGATE":
            out.insert(0, "^")
        elif kind == "LITERAL":
            out.append(_char(arg))
        elif kind == "RANGE":
            out.append(f"{_char(arg[0])}-{_char(arg[1])}")
        elif kind == "CATEGORY" and str(arg) in _CATEGORIES:
            out.append(_CATEGORIES[str(arg)])
        else:
            return r"[\s\S]"  # unknown: it may match anything
    return "[" + "".join(out) + "]"


@dataclass(frozen=True)
class _El:
    """One element of a flattened sequence: what it consumes and how much.

    ``kind``: ``"eat"`` (consumes characters), ``"behind"`` (lookbehind),
    ``"check"`` (lookahead, ``$``: zero width, can fail), ``"boundary"``
    (``\\b``) or ``"free"`` (a negative lookbehind).  ``atom``: the regex of
    the one character class a repeat repeats (else ``None``: a group repeated,
    or an element of an optional part; rules 2 and 3 read those too, but no
    run guard or closing exception is derived from them).
    """

    kind: str
    chars: frozenset[str]
    lo: int
    hi: int | None
    atom: str | None = None

    @property
    def unbounded(self) -> bool:
        return self.kind == "eat" and self.hi is None


class _Checker:
    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.flags = pattern.flags & (re.IGNORECASE | re.DOTALL)
        self.multiline = bool(pattern.flags & re.MULTILINE)
        self._cache: dict[str, frozenset[str]] = {}
        # The probe alphabet plus the pattern's own characters: two classes
        # overlap on characters the samples may not hold (``\d`` and ``\u0661``,
        # ``\u03c3`` and ``\u03c2`` under IGNORECASE).
        probe = _PROBE + "".join(_own_chars(parse(pattern)))
        self.probe = "".join(dict.fromkeys(probe))
        self.word_chars = frozenset(c for c in self.probe if c.isalnum() or c == "_")

    def refuse(self, why: str) -> ValueError:
        return ValueError(
            f"pattern={self.pattern.pattern!r} {why}; its search would not be linear "
            "in the text (catastrophic backtracking); rewrite it"
        )

    def chars_of(self, regexes: list[str]) -> frozenset[str]:
        key = "|".join(sorted(regexes))
        if key not in self._cache:
            rx = re.compile(key, self.flags) if key else None
            self._cache[key] = frozenset(
                c for c in self.probe if rx is not None and rx.fullmatch(c)
            )
        return self._cache[key]

    # -- the tree -----------------------------------------------------------

    def atoms(self, items: Any) -> list[str]:
        """Regexes of every character atom in ``items`` (lookbehinds excluded)."""
        out: list[str] = []
        for op, av in items:
            name = str(op)
            rx = atom_regex(op, av)
            if rx is not None:
                out.append(rx)
            elif name in _REPEATS:
                out += self.atoms(av[2])
            elif name == "BRANCH":
                for alt in av[1]:
                    out += self.atoms(alt)
            elif name == "SUBPATTERN":
                out += self.atoms(av[-1])
            elif name == "ATOMIC_GROUP":
                out += self.atoms(av)
            elif name in ("ASSERT", "ASSERT_NOT") and av[0] > 0:
                out += self.atoms(av[1])
            elif name == "GROUPREF_EXISTS":
                for alt in av[1:]:
                    if alt is not None:
                        out += self.atoms(alt)
        return out

    def first(self, items: Any) -> frozenset[str]:
        """Characters a match of ``items`` can start with."""
        found: set[str] = set()
        for el in self.flatten(items):
            found |= el.chars if el.kind == "eat" else set()
            if el.kind == "eat" and el.lo > 0:
                break
        return frozenset(found)

    def flatten(self, items: Any) -> list[_El]:
        out: list[_El] = []
        for op, av in items:
            name = str(op)
            rx = atom_regex(op, av)
            if rx is not None:
                out.append(_El("eat", self.chars_of([rx]), 1, 1))
            elif name == "SUBPATTERN" and _plain_group(av[-1]):
                out += self.flatten(av[-1])
            elif name in _REPEATS and int(av[1]) == 1:
                # A part repeated at most once: its elements in its place, each
                # optional if the part is.  (No run guard starts there: skipping
                # the part changes what the rest must match, so an attempt inside
                # a run may succeed where the one before it fails.)
                once = int(av[0]) == 1
                out += [
                    _El(e.kind, e.chars, e.lo if once else 0, e.hi) for e in self.flatten(av[2])
                ]
            elif name in _REPEATS:
                lo, hi = int(av[0]), int(av[1])
                body = _unwrap(av[2])
                atom = atom_regex(*body[0]) if len(body) == 1 else None
                chars = self.chars_of(self.atoms(av[2]))
                # (An optional group of an unbounded repeat, ``(?:\s+)?``, is unbounded.)
                widest = int(_parser.SubPattern(_parser.State(), [(op, av)]).getwidth()[1])
                endless = hi > _LARGE or widest >= _MAXREPEAT
                out.append(_El("eat", chars, lo, None if endless else hi, atom))
            elif name in ("ASSERT", "ASSERT_NOT"):
                if av[0] < 0:
                    chars = self.chars_of(self.atoms(av[1]))
                    out.append(_El("behind" if name == "ASSERT" else "free", chars, 0, 0))
                else:
                    out.append(_El("check", frozenset(), 0, 0))
            elif name == "AT":
                where = str(av)
                if where == "AT_BEGINNING_STRING" or (
                    where == "AT_BEGINNING" and not self.multiline
                ):
                    out.append(_El("behind", frozenset(), 0, 0))  # only at offset 0
                elif where in ("AT_BEGINNING", "AT_BEGINNING_LINE"):
                    out.append(_El("behind", frozenset("\n"), 0, 0))
                elif where == "AT_BOUNDARY":
                    out.append(_El("boundary", frozenset(), 0, 0))
                else:
                    out.append(_El("check", frozenset(), 0, 0))
            else:  # alternation, atomic group, conditional: one opaque element
                item = _parser.SubPattern(_parser.State(), [(op, av)])
                lo, hi = (int(w) for w in item.getwidth())
                chars = self.chars_of(self.atoms([(op, av)]))
                out.append(_El("eat", chars, lo, None if hi >= _MAXREPEAT else hi))
        return out

    # -- rule 1 -------------------------------------------------------------

    def nesting(self, items: Any, outer: tuple[int, int] | None = None) -> None:
        for op, av in items:
            name = str(op)
            if name in ("GROUPREF", "GROUPREF_EXISTS"):
                raise self.refuse("uses a backreference")
            if name in _REPEATS:
                lo, hi = int(av[0]), int(av[1])
                if _BOUND_MAX < hi < _MAXREPEAT:
                    raise self.refuse(
                        f"bounds a repeat at {hi}, above {_BOUND_MAX} (use + or * instead)"
                    )
                unbounded = hi > _LARGE
                if outer is not None and hi > 1:
                    if unbounded or outer[1] > _LARGE:
                        raise self.refuse("nests a repeated group in a repeat")
                    if lo != hi and hi * outer[1] > _NESTED_WAYS:
                        raise self.refuse("nests a repeat of varying length in a repeat")
                if hi > _AMBIGUOUS_REPEATS and name != "POSSESSIVE_REPEAT":
                    self.ambiguous_body(av[2])
                self.nesting(av[2], (lo, hi) if hi > 1 else outer)
            elif name == "BRANCH":
                for alt in av[1]:
                    self.nesting(alt, outer)
            elif name == "SUBPATTERN":
                self.nesting(av[-1], outer)
            elif name in ("ASSERT", "ASSERT_NOT"):
                self.nesting(av[1], outer)
            elif name == "ATOMIC_GROUP":
                self.nesting(av, outer)

    def ambiguous_body(self, body: Any) -> None:
        """Refuse a long repeat's body that can match one text two ways."""
        for op, av in _walk_ops(body):
            if str(op) == "BRANCH":
                seen: set[str] = set()
                for alt in av[1]:
                    first = self.first(alt)
                    if seen & first or _nullable(alt):
                        raise self.refuse(
                            "repeats alternatives that can start with the same character "
                            "or match empty text"
                        )
                    seen |= first
        els = self.flatten(body)
        required = frozenset().union(*(e.chars for e in els if e.lo > 0))
        for el in els:
            if el.kind == "eat" and el.lo == 0 and el.chars & required:
                raise self.refuse("repeats a group whose optional part overlaps the rest")

    # -- rules 2 and 3 ------------------------------------------------------

    def lookaheads(
        self, items: Any, before: frozenset[str] = frozenset(), leading: bool = True
    ) -> None:
        """Rules 2 and 3 in a lookahead, read at every attempt: no two
        unbounded repeats of the same characters in a row
        (``;(?=\\s*\\s*x)``), and no unbounded repeat that can fail after it over
        the characters of the element before the lookahead (``;(?=.*!)`` on
        ``;;;;``: each attempt reads the rest of the run), or, in a lookahead
        with nothing before it but what may match nothing, that an attempt
        inside its run reaches (``(?=a+b)a``, ``x?(?=a+b)a``).  Each
        alternative of an alternation (in a group, or nested further) is read
        alike, from where the alternation starts (``(?:(?=a+b)|x)a``).
        ``before``: the characters of the element before ``items``;
        ``leading``: nothing before them but what may match nothing (an
        attempt at every offset reaches them)."""
        for op, av in _plain_items(items):
            if str(op) in ("ASSERT", "ASSERT_NOT") and av[0] >= 0:
                els = self.flatten(av[1])
                self.sequence(els, top=False, runs=False)
                for k, el in enumerate(els):
                    if el.kind != "eat" or el.hi is not None or not _can_fail(els, k + 1):
                        continue
                    if el.chars & before:
                        raise self.refuse(
                            "reads a run of the characters before its lookahead "
                            "again from each of them"
                        )
                    if leading and all(
                        (e.kind == "eat" and (e.lo == 0 or e.chars & el.chars))
                        or e.kind in ("free", "check")
                        for e in els[:k]
                    ):
                        # (?=a+b)a on aaaa: the attempt at every a reads the rest of the run.
                        raise self.refuse(
                            "has a lookahead tried at every offset that reads a run again "
                            "from each of its characters"
                        )
            else:
                for alt in _alternatives(op, av):
                    self.lookaheads(alt, before, leading)
                els = self.flatten([(op, av)])
                # An element that may match nothing leaves an attempt at every
                # offset reaching what follows (x?(?=a+b)a, \s*(?=a+b)a).
                leading = leading and all(
                    (e.kind == "eat" and e.lo == 0) or e.kind in ("free", "check") for e in els
                )
                before = els[-1].chars if els and els[-1].kind == "eat" else before

    def sequence(self, els: list[_El], top: bool, runs: bool = True) -> str | None:
        """Check one sequence; the run guard's atom when it starts with an
        unbounded repeat that needs one (only at the top, ``top``)."""
        guard = None
        for j, el in enumerate(els):
            if not el.unbounded or not _can_fail(els, j + 1):
                continue
            if _closing(els, j):
                continue
            # Rule 2: an earlier repeat of the same characters, nothing between.
            for i in range(j):
                other = els[i]
                common = other.chars & el.chars
                if (
                    other.kind == "eat"
                    and other.hi is None
                    and common
                    and all(
                        e.kind != "eat" or e.lo == 0 or e.chars & common for e in els[i + 1 : j]
                    )
                ):
                    raise self.refuse("has two unbounded repeats of the same characters in a row")
            # Rule 3: can an attempt start inside a run of this repeat?
            if not runs:
                continue
            prefix = els[:j]
            inside = all(
                (e.kind == "eat" and (e.lo == 0 or e.chars & el.chars))
                or (e.kind == "behind" and e.chars & el.chars)
                or (
                    e.kind == "boundary"
                    and self.word_chars & el.chars
                    and el.chars - self.word_chars
                )
                or e.kind in ("free", "check")
                for e in prefix
            )
            if not inside:
                continue
            if j == 0 and top and el.atom is not None:
                guard = el.atom
                continue
            raise self.refuse(
                "can start a match inside a run of a repeat's characters and fail after it"
            )
        return guard


def _own_chars(items: Any) -> Iterator[str]:
    """The characters ``items`` names: its literals and the characters of its
    ranges (the first and last of a long one), in every nested part."""
    for op, av in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            yield chr(av)
        elif name == "IN":
            for kind, arg in av:
                if str(kind) in ("LITERAL", "NOT_LITERAL"):
                    yield chr(arg)
                elif str(kind) == "RANGE":
                    lo, hi = arg
                    if hi - lo < _RANGE_PROBED:
                        yield from map(chr, range(lo, hi + 1))
                    else:
                        yield from (chr(lo), chr(hi))
        elif name in _REPEATS:
            yield from _own_chars(av[2])
        elif name == "BRANCH":
            for alt in av[1]:
                yield from _own_chars(alt)
        elif name == "SUBPATTERN":
            yield from _own_chars(av[-1])
        elif name == "ATOMIC_GROUP":
            yield from _own_chars(av)
        elif name in ("ASSERT", "ASSERT_NOT"):
            yield from _own_chars(av[1])
        elif name == "GROUPREF_EXISTS":
            for alt in av[1:]:
                if alt is not None:
                    yield from _own_chars(alt)


def _walk_ops(items: Any) -> Iterator[tuple[Any, Any]]:
    for op, av in items:
        yield op, av
        name = str(op)
        if name == "SUBPATTERN":
            yield from _walk_ops(av[-1])
        elif name in _REPEATS:
            yield from _walk_ops(av[2])


def _nullable(items: Any) -> bool:
    """Can ``items`` match the empty string?"""
    return int(_parser.SubPattern(_parser.State(), list(items)).getwidth()[0]) == 0


def _plain_items(items: Any) -> Iterator[tuple[Any, Any]]:
    """The items of a sequence, with those of its plain groups in their place
    (as :meth:`_Checker.flatten` reads them)."""
    for op, av in items:
        if str(op) == "SUBPATTERN" and _plain_group(av[-1]):
            yield from _plain_items(av[-1])
        else:
            yield op, av


def _alternatives(op: Any, av: Any) -> Any:
    """The sequences an alternation or a group that holds one reads from its
    start (none for any other item)."""
    name = str(op)
    if name == "BRANCH":
        return av[1]
    if name == "SUBPATTERN":
        return [av[-1]]
    if name == "ATOMIC_GROUP":
        return [av]
    return []


def _plain_group(items: Any) -> bool:
    return not any(str(op) == "BRANCH" for op, _ in items)


def _unwrap(items: Any) -> Any:
    """The items of a body, through groups that hold one item."""
    while len(items) == 1 and str(items[0][0]) == "SUBPATTERN":
        items = items[0][1][-1]
    return items


def _can_fail(els: list[_El], start: int) -> bool:
    """Can the elements from ``start`` on fail (something required or checked)?"""
    return any(
        (e.kind == "eat" and e.lo > 0) or e.kind in ("check", "behind", "boundary")
        for e in els[start:]
    )


def _closing(els: list[_El], j: int) -> bool:
    """``c X* c'``: one character before the repeat, one after that accepts
    every ``c``, and nothing that can fail after that."""
    if j < 1 or j + 1 >= len(els) or els[j].atom is None:
        return False
    before, after = els[j - 1], els[j + 1]
    return (
        before.kind == after.kind == "eat"
        and before.lo == before.hi == after.lo == after.hi == 1
        and before.chars <= after.chars
        and not _can_fail(els, j + 2)
        and (j == 1 or not any(e.unbounded for e in els[: j - 1]))
    )


def check_cost(pattern: re.Pattern[str]) -> str | None:
    """Refuse ``pattern`` if its search is not linear (module docstring);
    return the atom of its run guard, if it needs one, else ``None``."""
    checker = _Checker(pattern)
    tree = parse(pattern)
    checker.nesting(tree)
    items = list(tree)
    if len(items) == 1 and str(items[0][0]) == "BRANCH":
        for alt in items[0][1][1]:
            checker.lookaheads(alt)
            checker.sequence(checker.flatten(alt), top=False)
        return None
    checker.lookaheads(items)
    return checker.sequence(checker.flatten(items), top=True)
