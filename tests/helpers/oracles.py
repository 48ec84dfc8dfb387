"""Reference implementations of the documented default semantics.

Written for clarity, not speed: each rescans the whole text.  The chunkers are
checked against them on random text, so they state the documented rules once,
in the plainest code we could write.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile("[.!?][\"'\u201d\u2019)]?(?=\\s)")


def sentence_split(text: str) -> tuple[list[str], str]:
    """Complete sentences, and the withheld fragment (unstripped)."""
    chunks = []
    rest = text.lstrip()
    while True:
        m = _SENTENCE_END.search(rest)
        if m is None:
            return chunks, rest
        chunks.append(rest[: m.end()])
        rest = rest[m.end() :].lstrip()


def sentence_flush(text: str) -> list[str]:
    fragment = sentence_split(text)[1].strip()
    return [fragment] if fragment else []


def word_split(text: str) -> list[str]:
    words = text.split()
    if words and not text[-1].isspace():
        words.pop()
    return words


def word_flush(text: str) -> list[str]:
    if not text or text[-1].isspace():
        return []
    return [text.split()[-1]]


def paragraph_split(text: str, crlf: bool = False) -> list[str]:
    sep = r"(?:\r?\n){2,}" if crlf else r"\n{2,}"
    parts = re.split(sep, text)
    if not re.search(sep + r"\Z", text):
        parts = parts[:-1]
    return [p for p in parts if p]


def paragraph_flush(text: str, crlf: bool = False) -> list[str]:
    sep = r"(?:\r?\n){2,}" if crlf else r"\n{2,}"
    if not text or re.search(sep + r"\Z", text):
        return []
    last = re.split(sep, text)[-1]
    return [last] if last else []


def quoted_layout(
    text: str,
    cuts: list[tuple[int, ...]],
    fragment: tuple[int, int] | None,
    pairs: dict[str, str],
    open_after: str,
    spaced: str,
    spaced_closers: str,
    brackets: str,
    longest: int,
    elided: frozenset[str] = frozenset(),
    unspaced: str = "",
) -> tuple[list[tuple[int, ...]], tuple[int, int] | None]:
    """The quotation rule of ``chunkers/sentence/quotes.py`` applied to the
    cuts and final fragment of the sentence scanner over the whole ``text``,
    one character at a time: ``(cuts, fragment)`` after joining each cut
    inside a quotation to the next, and every cut from the first one still
    waiting at the end of the text into the fragment.  ``elided``: the words
    a single mark before which is an apostrophe; ``unspaced``: a regex class
    body of the letters that may follow a closing mark."""
    closed_by = {c: [o for o, cs in pairs.items() if c in cs] for cs in pairs.values() for c in cs}

    def apostrophe(i: int) -> bool:
        # A digit, or one of the ``elided`` words and a character that is no
        # letter, digit or "_", right after the mark at i.
        word = re.match(r"\w*", text[i + 1 :])
        assert word is not None
        ended = word.end() < len(text) - i - 1
        return text[i + 1 : i + 2].isdecimal() or (ended and word.group() in elided)

    episodes: list[list[object]] = []  # [marks, end, closed]
    opened: dict[str, list[object]] = {}
    last = len(text) - 1  # (the last character is never read)
    for i in range(last):
        for opener, episode in list(opened.items()):
            episode[0] = [m for m in episode[0] if i - m <= longest]  # type: ignore[attr-defined]
            if not episode[0]:
                episode[1] = i
                del opened[opener]
        c = text[i]
        before, after = (text[i - 1] if i else ""), text[i + 1]
        if c in "\n\r":
            for episode in opened.values():
                episode[1] = i
            opened.clear()
            continue
        ends_word = not (after.isalnum() or after == "_") or bool(
            unspaced and re.fullmatch(f"[{unspaced}]", after)
        )
        if c in brackets:
            may_close = may_open = True
        else:
            may_open = not before or before.isspace() or before in open_after
            if c in spaced:
                may_close = ends_word
                # (A spaced closer before whitespace opens nothing.)
                may_open = may_open and not (c in spaced_closers and after.isspace())
            else:
                may_close = not before.isspace() and ends_word
                may_open = may_open and not after.isspace()
                # (A single mark before a digit or an elided word is an
                # apostrophe: "the '90s", "'til dawn".)
                may_open = may_open and not (c in "'\u2018" and apostrophe(i))
        if may_close and any(o in opened for o in closed_by.get(c, [])):
            opener = next(o for o in closed_by[c] if o in opened)
            episode = opened.pop(opener)
            episode[1], episode[2] = i, True
            continue
        if may_open and c in pairs:
            if c in opened:
                opened[c][0].append(i)  # type: ignore[attr-defined]
            else:
                opened[c] = [[i], -1, False]
                episodes.append(opened[c])

    def verdict(end: int) -> str:
        waiting = False
        for marks, stop, closed in episodes:
            before_end = [m for m in marks if m < end]  # type: ignore[attr-defined]
            if not before_end or (stop != -1 and stop < end):  # type: ignore[operator]
                continue
            mark = before_end[-1]
            if stop == -1:
                waiting = waiting or last - mark <= longest
            elif closed and stop - mark <= longest:  # type: ignore[operator]
                return "inside"
        return "wait" if waiting else "outside"

    out: list[tuple[int, ...]] = []
    carry = -1
    for start, end, stop in cuts:
        v = verdict(end)
        if v == "wait":
            first = carry if carry >= 0 else start
            tail_end = fragment[1] if fragment else cuts[-1][1]
            return out, (first, tail_end)
        if v == "inside":
            carry = start if carry < 0 else carry
            continue
        out.append((carry if carry >= 0 else start, end, stop))
        carry = -1
    if carry >= 0:
        return out, (carry, fragment[1] if fragment else cuts[-1][1])
    return out, fragment
