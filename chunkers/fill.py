"""Chunks sized by any measure (tokens, characters, a length function), capped or filled.

:class:`Sized` is what :func:`~.limits.limit` returns for ``max_tokens=``,
``length=`` or ``fill=True``.  Two behaviours share one scanner:

* **capped** (``fill=False``): every unit of the inner chunker that fits under
  the limit is a chunk as it is; a unit that does not fit is cut down the
  fallback chain (``structure > paragraph > line > sentence > word >
  whitespace > hard cut``), as :class:`~.limits.Bounded` does for characters;
* **filled** (``fill=True``): chunks are packed as full as the limit allows,
  with whole units of the *highest* level that has a boundary within reach:
  consecutive sections if the first section fits, else paragraphs, lines,
  sentences, words (the inner chunker is the top level; no chunk ends on a
  heading line, which belongs to the text after it), as LangChain's
  ``RecursiveCharacterTextSplitter`` and semantic-text-splitter do; except that
  a section, paragraph or line boundary closes a chunk only when the chunk is
  at least :data:`MIN_FILL` (70%) full, else the next level down is tried
  (down to sentences: a block boundary, however early, is preferred to a cut
  between words), so chunks are filled (median about 90% on package READMEs)
  and still end at a sentence whenever one ends within reach.

Fenced code blocks are kept whole at every level whenever they fit (see
:mod:`.fences`).  Chunks are stripped of surrounding whitespace, which travels
at the head of the next segment, so segments stay lossless.  Whitespace that
cannot lead the next word within the limit is a segment of its own whose chunk
is that whitespace, filled or not (as for :class:`~.limits.Bounded`): a word is
measured from its first character and cut only when it alone is over the limit
(for tokens: over it by the bound a held-back word is counted by, its UTF-8
bytes as the tokenizer normalizes it; see below).  A run of whitespace over the
limit is cut within it.

Guarantees.  Every chunk measures at most the limit *as the measure counts the
chunk itself*: tokens are not additive, so each chunk is measured once more
before it is emitted and, if over, cut at the previous boundary; a whitespace
chunk too (tokens of a whitespace run add up), and what is left when the text
ends (for a length that grows faster than the sum of its parts, the estimate
below is no bound).  The one exception is a single
character that alone measures over the limit (a limit below the 4 tokens an
unusual character can take).  The held-back text is bounded as it is, its
leading whitespace included.  Decisions depend only on the text, never on how a
stream was sliced (delta invariance): a decision at a crossing ``c`` uses only
``text[:c]``, and an estimate up to an offset needs the character after it.

How a stream is measured (non-additive measures). The text is cut into
*pieces*, the same for any slicing: a piece ends where tiktoken-style pre-
tokenizers start a token (before the space that precedes a word, at a word
after a line break), or after 16 characters without one. Each piece is measured
once when complete (short pieces are remembered, so a repeated word costs a
dictionary look-up), and the held-back text is estimated as the sum of its
pieces, the unfinished piece counted by an upper bound (its UTF-8 bytes for
tokenizers, as normalized for one that normalizes text first: NFKC writes
``\u00bd`` in three characters; its measure for a length function), and, for
tokenizers, one token more for each piece cut off a run at 16 characters (a
pre-token cut in two may take one token more whole than its parts do) and one
before the held-back text until its first piece is measured (a token a
tokenizer adds before a text that no byte pays for: SentencePiece's ``\u2581``,
a prefix space). When the estimate passes the limit, the held-back text is
measured exactly (at most twice per chunk): if it is within the limit after
all, counting goes on from there; else a chunk is decided over it, one pass per
level and one measure of the chosen chunk. So a stream costs amortised
O(len(delta)) and no text is measured twice except the chunks themselves; the
held-back text never exceeds the limit by that estimate. A length function must
count a prefix as no longer than the text (monotone).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate

from .base import ChunkingStrategy, Cut, Scanner, SplitFlush, StreamText
from .clusters import cluster_end, cluster_start
from .fallback import after_gap, levels_below, resolve_levels
from .fences import Fence, FenceReader, closed_to_cuts, fence_at, inside
from .line import LineChunker
from .markdown import ATX
from .paragraph import ParagraphChunker
from .params import check_int
from .registry import ChunkerSpec, resolve_chunker
from .sizing import Measure, measure_for
from .stream import scanner_for
from .structure import StructureChunker
from .word import WordChunker

__all__ = ["MIN_FILL", "Sized"]

Strategy = ChunkingStrategy | SplitFlush
Span = tuple[int, int]

#: With ``fill``, a chunk closed at a section, paragraph or line boundary is at
#: least this full (of the limit); else the next level down closes it.
MIN_FILL = 0.7
#: Exact measures of the held-back text per chunk, at most (see reanchor).
_ANCHORS = 2
#: Longest piece without a word start (characters).
_CAP = 16
#: Where a piece ends: before a space (not a line break) that precedes a
#: non-space, or at a non-space after a line break (where tiktoken-style
#: pre-tokenizers start a token: " word", but "\n\n" then "word").
#: Found as a space before a non-space: the piece ends before the space, or
#: after it when it is a line break (``(?=[^\S\r\n]\S)|(?<=[\r\n])(?=\S)``,
#: found faster from a character class).
_BEFORE_WORD = re.compile(r"\s(?=\S)")
_NO_CUTS: list[Cut] = []


def _capped(part: str) -> list[str]:
    return [part[i : i + _CAP] for i in range(0, len(part), _CAP)]


def _utf8(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


class _Meter:
    """Estimates of the size of ``text[a:b]``; characters (exact) by default."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.fed = 0

    def add(self, delta: str) -> None:
        self.fed += len(delta)

    def crossing(self, p: int) -> int | None:
        """The first offset ``x <= fed`` at which the text from ``p`` estimates
        over the limit (a function of the text alone), or ``None``."""
        x = p + self.limit + 1
        return x if x <= self.fed else None

    def est(self, a: int, b: int) -> int:
        return b - a

    def reanchor(self, p: int, c: int, code: bool = False) -> bool:
        """See :meth:`_PieceMeter.reanchor` (an exact measure never needs one)."""
        return False

    def forget(self, p: int) -> None:
        """Nothing before ``p`` will be asked about again."""


class _PieceMeter(_Meter):
    """Estimates from pieces (see the module docstring)."""

    def __init__(self, limit: int, measure: Measure, text: StreamText) -> None:
        super().__init__(limit)
        self.m = measure
        self.bound: Callable[[str], int] = (
            measure if measure.unit != "tokens" else measure.bound or _utf8
        )
        self.text = text
        self.b = [0]  # piece boundaries (absolute); piece k is text[b[k]:b[k+1]]
        #: measure of text[0:b[k]] as the sum of its pieces, plus ``margin`` for
        #: each boundary before b[k] that cuts a run at _CAP characters
        self.cum = [0]
        self.splits = [0]  # how many boundaries before b[k] cut a run
        #: Tokens are additive across the boundaries where tiktoken-style pre-
        #: tokenizers start a token, but not inside a run: the tokens of a run
        #: cut in two may outnumber those of its parts by one (".\n\n\n..."), so
        #: the held-back text is bounded with one token more per such cut.
        self.margin = 1 if measure.unit == "tokens" else 0
        #: A tokenizer may add a token before a text that its bytes do not pay
        #: for: SentencePiece's "\u2581" (Metaspace, or a normalizer's
        #: prepend), a byte-level prefix space: "0000" may be five tokens.  The
        #: held-back text is bounded from its start with one token more.
        self.lead = self.margin
        self.q: list[int] = []  # q[k]: bound of text[b[k]:b[k+1]+1]
        self.tail = ""  # text[b[-1]:fed]
        self.qmax = 0  # at least every q[k] (lets a crossing skip pieces by bisection)
        self._scan: tuple[int, int, int, int, int] | None = None  # p, limit, lead, next k, head
        self._last: tuple[int, int, int, int, int | None] | None = None  # p, limit, lead, fed, x
        #: (p, boundary, exact size of text[p:boundary], times): see reanchor.
        self.anchor: tuple[int, int, int, int] | None = None

    def add(self, delta: str) -> None:
        s = self.tail + delta
        cuts = [i + (s[i] in "\r\n") for i in map(re.Match.start, _BEFORE_WORD.finditer(s))]
        parts = list(map(s.__getitem__, map(slice, [0, *cuts], cuts)))
        tail = s[cuts[-1] :] if cuts else s
        if len(s) <= _CAP or max(map(len, parts), default=0) <= _CAP:
            pieces = [part for part in parts if part]
            runs: list[int] = []  # pieces that end inside a run
        else:
            pieces, runs = [], []
            for part in parts:
                if len(part) > _CAP:
                    capped = _capped(part)
                    runs += range(len(pieces), len(pieces) + len(capped) - 1)
                    pieces += capped
                elif part:
                    pieces.append(part)
        if len(tail) >= _CAP + 2:
            # Cut at every _CAP characters, as _capped cuts a whole part, up to
            # two characters before the end: a word start there ("x y", a
            # line break and a word) is known only from the next character,
            # and the cut would count as a run's where the whole text has a
            # word start (one token more: a verdict that depended on slicing).
            # (Sliced once at the end: dropping a piece at a time from the
            # front would copy the rest each time, quadratic in a long word.)
            last = (len(tail) - 2) // _CAP * _CAP
            runs += range(len(pieces), len(pieces) + last // _CAP)
            pieces += [tail[i : i + _CAP] for i in range(0, last, _CAP)]
            tail = tail[last:]
        self.tail = tail
        self.fed += len(delta)
        if not pieces:
            return
        sizes = self.m.sizes(pieces)
        if runs:
            cut = [0] * len(pieces)
            for i in runs:
                cut[i] = 1
                sizes[i] += self.margin
            self.splits += accumulate(cut, initial=self.splits[-1])
            del self.splits[-len(pieces) - 1]
        elif len(pieces) == 1:
            self.splits.append(self.splits[-1])
        else:
            self.splits += [self.splits[-1]] * len(pieces)
        self.cum += accumulate(sizes, initial=self.cum[-1])
        del self.cum[-len(pieces) - 1]
        self.b += accumulate(map(len, pieces), initial=self.b[-1])
        del self.b[-len(pieces) - 1]
        if self.bound is _utf8 and s.isascii():
            q = [len(piece) + 1 for piece in pieces]
        else:
            nexts = [piece[0] for piece in pieces[1:]]
            nexts.append(tail[0])
            joined = map(str.__add__, pieces, nexts)
            if self.bound is _utf8:
                q = [
                    len(x) if x.isascii() else len(x.encode("utf-8", "surrogatepass"))
                    for x in joined
                ]
            else:
                q = list(map(self.bound, joined))
        self.q += q
        self.qmax = max(self.qmax, max(q))

    def forget(self, p: int) -> None:
        k = bisect_right(self.b, p) - 1
        if k > 1024 and 2 * k > len(self.b):  # amortised: at least half the lists
            del self.b[:k], self.cum[:k], self.splits[:k], self.q[:k]
            self._scan = None

    def _head(self, p: int, k0: int) -> int:
        """Measure of ``text[p:b[k0]]``, the part of a piece from ``p`` on."""
        return self.m(self.text(p, self.b[k0])) if self.b[k0] > p else 0

    def est(self, a: int, e: int) -> int:
        anchor = self.anchor
        if anchor is not None and anchor[0] == a and e >= anchor[1]:
            return anchor[2] + self._est(anchor[1], e)
        return self._est(a, e)

    def _est(self, a: int, e: int) -> int:
        b = self.b
        k0 = bisect_right(b, a)
        ke = bisect_right(b, e) - 1
        if ke < k0:
            return self.m(self.text(a, e))
        # (Without the margin for runs cut: an estimate, not a bound.)
        cum, splits = self.cum, self.splits
        total = self._head(a, k0) + cum[ke] - cum[k0] - self.margin * (splits[ke] - splits[k0])
        if e > b[ke]:
            total += self.m(self.text(b[ke], e))
        return total

    def reanchor(self, p: int, c: int, code: bool = False) -> bool:
        """At a crossing ``c``: when ``text[p:b]`` (``b`` the last piece boundary
        at or before ``c - 2``) measured exactly is within the limit after all, count on
        from ``b`` with that measure (at most
        :data:`_ANCHORS` times per ``p``, three times more when ``code``: a code
        block that may still fit; twice more when runs cut in it count over 5%
        of the limit high, one token per cut) and return true: the estimate was high (the
        unfinished word counted by its bytes)."""
        anchor = self.anchor
        done = anchor[3] if anchor is not None and anchor[0] == p else 0
        most = 3 * _ANCHORS if code else _ANCHORS
        # Up to the last piece boundary a token never spans, as one may span c
        # (inside a run of spaces, say: "  1" is " ", " ", "1"); a boundary is
        # known one character after it, so the last one before c - 1 is known
        # from text[:c] alone, whatever the slicing (delta invariance).  With
        # no new boundary there (inside a long piece), up to c, counting one
        # token more for the token c may split.
        k = bisect_right(self.b, c - 2) - 1
        splits = self.splits
        if self.margin and k >= 0:
            # Runs cut in the held-back text count high: when by more than 5%
            # of the limit (long runs: base64, a row of "=", line breaks),
            # measure more often, else the chunk ends that much early.
            cuts = splits[k] - splits[max(bisect_right(self.b, p) - 1, 0)]
            if cuts * 20 > self.limit:
                most *= 2
        at = self.b[k] if k >= 0 else p
        last = anchor[1] if done and anchor is not None else p
        split = 0
        if at <= last:
            at, split = c, 1
        if done >= most or at <= last:
            return False
        # The held-back text as it is, its lead included: it is bounded whole
        # (a run of whitespace can measure many tokens).
        exact = self.m(self.text(p, at)) + split
        if exact > self.limit:
            return False
        self.anchor = (p, at, exact, done + 1)
        self._scan = None
        return True

    def crossing(self, p: int) -> int | None:
        anchor = self.anchor
        if anchor is not None and anchor[0] == p:
            # (The anchor's exact measure counts the token added before the text.)
            return self._crossing(anchor[1], self.limit - anchor[2], 0)
        return self._crossing(p, self.limit, self.lead)

    def _crossing(self, p: int, limit: int, lead: int) -> int | None:
        last = self._last  # asked again as the driver catches up: a function of its key
        if last is not None and last[:4] == (p, limit, lead, self.fed):
            return last[4]
        x = self._first_over(p, limit, lead)
        self._last = (p, limit, lead, self.fed, x)
        return x

    def _first_over(self, p: int, limit: int, lead: int) -> int | None:
        """The first offset at which ``text[p:x]`` estimates over ``limit``,
        bounded from ``p`` with ``lead`` tokens more (see :attr:`lead`)."""
        b, cum, q = self.b, self.cum, self.q
        k0 = bisect_right(b, p)
        if k0 == len(b):  # no piece ends after p yet
            if self.bound(self.text(p, self.fed)) > limit - lead:
                return self._within(p, p + 1, lead, limit)
            return None
        if self._scan is not None and self._scan[:3] == (p, limit, lead):
            _, _, _, k, head = self._scan
        else:
            # From p to the first boundary after it: the bound of the text so far.
            if self.bound(self.text(p, b[k0] + 1)) > limit - lead:
                return self._within(p, p + 1, lead, limit)
            head = self._head(p, k0)
            k = k0
        last = len(b) - 1
        # Complete intervals: x in [b[k] + 2, b[k + 1] + 2); the first k with
        # head + cum[k] - cum[k0] + q[k] > limit.  As q[k] <= qmax, the pieces
        # with cum[k] <= top - qmax are within: skipped by bisection.
        top = limit + cum[k0] - head
        if k < last:
            k = bisect_right(cum, top - self.qmax, k, last)
        while k < last:
            if cum[k] + q[k] > top:
                return self._within(b[k], b[k] + 2, cum[k] - cum[k0] + head, limit)
            k += 1
        self._scan = (p, limit, lead, k, head)
        used = head + cum[last] - cum[k0]
        if self.bound(self.text(b[last], self.fed)) > limit - used:  # the unfinished piece
            return self._within(b[last], b[last] + 2, used, limit)
        return None

    def _within(self, a: int, lo: int, used: int, limit: int) -> int | None:
        """The first ``x >= lo`` with ``used + bound(text[a:x]) > limit``."""
        fed, bound, room = self.fed, self.bound, limit - used
        end = min(fed, max(lo, a + 32))
        while lo <= fed:  # the text in windows text[a:end], doubling
            s = self.text(a, end)
            if bound is _utf8 and s.isascii():  # bound(s[:j]) == j
                x = max(lo, a + room + 1)
                if x <= end:
                    return x
            else:
                for x in range(lo, end + 1):
                    if bound(s[: x - a]) > room:
                        return x
            lo, end = end + 1, min(fed, a + 2 * (end - a) + 1)
        return None


class _SizedScanner(Scanner):
    def __init__(self, cfg: Sized) -> None:
        self._cfg = cfg
        self._limit = cfg.limit
        self._measure = cfg.measure
        self._text = StreamText()
        self._meter: _Meter = (
            _Meter(cfg.limit)
            if cfg.measure.additive
            else _PieceMeter(cfg.limit, cfg.measure, self._text)
        )
        self._inner = None if cfg.fill else scanner_for(cfg.inner)
        self._p = 0  # where the held-back text starts
        self._now = 0  # how far the inner scanner has been fed
        self._fed = 0
        self._fence: Fence | None = None  # the code fence open at _p, if known
        self._held: int | None = None  # start of inner units held inside a code block
        # Fences read from _p on, while _p and _fence are what they were.
        self._code = FenceReader(None)
        self._code_key: tuple[int, Fence | None] | None = None
        self._code_read = 0
        # (start, characters) of the held block when it was last measured exactly.
        self._checked = (-1, 0)

    def feed(self, delta: str) -> list[Cut]:
        if not delta:
            return _NO_CUTS
        self._text.parts.append(delta)
        self._fed += len(delta)
        meter = self._meter
        meter.add(delta)
        out: list[Cut] = []
        while True:
            c = meter.crossing(self._p)
            if c is not None and c <= self._now:
                if not meter.reanchor(self._p, c, self._opens_code(c)):
                    self._decide(out, c)
                continue
            target = self._fed if c is None else c
            if target <= self._now:
                break
            if self._inner is None:
                self._now = target
                continue
            cuts = self._inner.feed(self._text(self._now, target))
            self._now = target
            for cut in cuts:
                self._take(cut, out)
        return out or _NO_CUTS

    def settled(self) -> bool:
        # Segments end where their chunk ends: a cut is final once reported.
        return True

    def _opens_code(self, c: int) -> bool:
        """Whether the held-back text opens with a code fence (or is inside one)."""
        if self._fence is not None:
            return True
        head = self._text(self._p, min(c, self._p + 256)).lstrip()
        return head.startswith(("```", "~~~"))

    def _emit(self, out: list[Cut], start: int, end: int) -> None:
        out.append(Cut(start, end, end))
        self._p = end
        self._meter.forget(end)
        self._text.drop_before(min(end, self._now) - 64)

    def _content_from(self, a: int, b: int) -> int:
        part = self._text(a, b)
        return b - len(part.lstrip())

    def _take(self, cut: Cut, out: list[Cut]) -> None:
        start, end = cut.start, cut.end
        held = False
        if self._held is not None and self._held >= self._p:
            start, held = self._held, True  # units held inside a code block: one chunk
        self._held = None
        whole = True
        while end > self._p:
            if start < self._p:
                start = self._content_from(self._p, end)
                if start == end:
                    return
            # The estimate may be high (a long word counted in pieces) by more
            # or less depending on where it was last anchored, which depends on
            # the slicing: a whole unit is measured exactly (once per unit).
            over = self._meter.est(self._p, end) > self._limit
            if held and not over and not self._check_due(start, end) and self._in_code(end):
                # One more unit of a block still open, within the estimate:
                # measured exactly only when the block has doubled since its
                # last measure (O(block) in all, not per unit), when it closes,
                # or when the text ends (close).
                self._held = start
                return
            if (not over or (whole and not self._measure.additive)) and (
                self._measure.additive or self._measure(self._text(start, end)) <= self._limit
            ):
                if self._in_code(end):
                    self._held = start  # the block may still fit: wait for its end
                    self._checked = (start, end - start)
                    return
                self._fence = None
                self._emit(out, start, end)
                return
            whole = False
            self._decide(out, end)

    def _check_due(self, start: int, end: int) -> bool:
        """Whether the block held from ``start`` is due an exact measure at
        ``end``: it has twice the characters it had when last measured."""
        since, size = self._checked
        return since != start or end - start >= 2 * size

    def _in_code(self, end: int) -> bool:
        """Whether a fenced code block is open at ``end`` (as :func:`fence_at`
        reads ``text[p:end]``).  The text since ``p`` is read once, as units
        come (:class:`FenceReader`): amortised O(the unit)."""
        key = (self._p, self._fence)
        if key != self._code_key or end < self._code_read:
            self._code_key, self._code, self._code_read = key, FenceReader(self._fence), self._p
        self._code.feed(self._text(self._code_read, end))
        self._code_read = end
        return self._code.open_fence() is not None

    def _decide(self, out: list[Cut], c: int) -> None:
        """Cut the next chunk from the window ``text[p:c]``."""
        p = self._p
        window = self._text(p, c)
        meter = self._meter
        a, e, fence = self._cfg._cut(
            window, self._fence, lambda x, y: meter.est(p + x, p + y), after_chunk=p > 0
        )
        self._fence = fence
        self._emit(out, p + a, p + e)

    def close(self) -> tuple[list[Cut], Span | None]:
        out: list[Cut] = []
        span = None
        if self._inner is not None:
            cuts, span = self._inner.close()
            for cut in cuts:
                self._take(cut, out)
        final = self._final(span)
        # What is left was bounded by the estimate only (units held in a code
        # block are measured now and then, and a length that grows faster than
        # the sum of its parts outgrows the estimate): cut while it does not fit.
        while (
            final is not None
            and not self._measure.additive
            and not self._cfg._fits(self._text(*final))
        ):
            p, end = self._p, final[1]
            self._held = None
            self._decide(out, end)
            if self._p == p:
                break  # (no cut: a single character over the limit)
            start = self._content_from(self._p, end) if end > self._p else end
            final = (start, end) if start < end else None
        return out, final

    def _final(self, span: Span | None) -> Span | None:
        """The final fragment, given the inner scanner's (if any)."""
        p, fed = self._p, self._fed
        if self._inner is not None:
            if span is None or span[1] <= p:
                if self._held is not None and self._held >= p:  # held units end the text
                    return self._held, self._held + len(self._text(self._held, fed).rstrip())
                return None
            start, end = span
            if self._held is not None and self._held >= p:
                start = self._held
            if start < p or not self._cfg._fits(self._text(start, end)):
                # The rest of a cut unit, or a unit that fits only without its
                # lead (whitespace the inner chunker keeps, as "\x85"): the
                # held-back text was measured from its first non-whitespace.
                start = self._content_from(max(start, p), end)
                if start == end:
                    return None
            return start, end
        rest = self._text(p, fed)
        body = rest.strip()
        if not body:
            return None
        start = p + len(rest) - len(rest.lstrip())
        return start, start + len(body)


class Sized(ChunkingStrategy):
    """``inner``'s chunks under ``limit`` as ``length`` measures it; filled with ``fill``.

    See the module docstring.  ``length`` is anything :func:`.sizing.measure_for`
    accepts (``None``: characters).  ``fallback`` lists the levels below
    ``inner`` (largest first; default :func:`levels_below`).  ``overlap``
    (whole documents only, with ``fill``): each chunk after the first starts
    with the words that end the chunk before it, as many as measure at most
    ``overlap`` (as LangChain's ``chunk_overlap``), when the chunk still gains
    new text within the limit; else it starts where the previous one ended.
    """

    def __init__(
        self,
        inner: ChunkerSpec,
        limit: int,
        *,
        length: object = None,
        fill: bool = False,
        overlap: int = 0,
        fallback: Sequence[ChunkerSpec] | None = None,
        param: str = "limit",
    ) -> None:
        self.inner = resolve_chunker(inner, param="inner")
        self.limit: int = check_int(param, limit, 1)
        self._param = param
        self.measure = measure_for(length)
        if not isinstance(fill, bool):
            raise TypeError(f"fill must be a bool, got {type(fill).__name__}: {fill!r:.80}")
        self.fill = fill
        self.overlap: int = check_int("overlap", overlap, 0)
        if self.overlap and not fill:
            raise ValueError(f"overlap={overlap!r} needs fill=True (or chunk_size with max_chars)")
        if self.overlap >= self.limit:
            raise ValueError(f"overlap must be < {param}={self.limit}, got {overlap!r}")
        self.fallback = levels_below(self.inner) if fallback is None else resolve_levels(fallback)
        self.levels: tuple[Strategy, ...] = (self.inner, *self.fallback) if fill else self.fallback
        # Levels of blocks (sections, paragraphs, lines): filled to MIN_FILL at least.
        self._blocks = [
            level
            for level in self.levels
            if isinstance(level, (StructureChunker, ParagraphChunker, LineChunker))
        ]

    def scanner(self) -> Scanner:
        return _SizedScanner(self)

    def with_fallback(
        self, fallback: Sequence[ChunkerSpec] | None, *, inner: ChunkerSpec | None = None
    ) -> Sized:
        """The same chunker with another fallback chain (``None``: the default
        one) and, if given, another ``inner`` chunker."""
        return Sized(
            self.inner if inner is None else inner,
            self.limit,
            length=self.measure,
            fill=self.fill,
            overlap=self.overlap,
            fallback=fallback,
            param=self._param,
        )

    def _fits(self, chunk: str) -> bool:
        return self.measure.additive or self.measure(chunk) <= self.limit

    def _cut(
        self,
        window: str,
        fence: Fence | None,
        est: Callable[[int, int], int],
        min_end: int = 0,
        *,
        after_chunk: bool = False,
    ) -> tuple[int, int, Fence | None]:
        """``(start, end, fence open at end)`` of the next chunk in ``window``.

        The last boundary within the limit (estimated by ``est(0, end)``, then
        the chunk measured) of the first level that has one, outside code blocks
        that fit and after ``min_end``; else a whitespace lead on its own (filled
        or not, so that the word after it is measured from its start), or the
        longest part of it within the limit when it alone is over; else a hard
        cut.  ``window`` estimates over the limit.  ``after_chunk``: the window
        starts right after a chunk (capped: the gap after it leads the segment,
        as in :func:`.fallback.fallback_cut`; filled chunks are stripped anyway).
        """
        limit = self.limit
        closed = (
            closed_to_cuts(window, fence, self._exact(window, est), limit)
            if "`" in window or "~" in window
            else []
        )
        lead = len(window) - len(window.lstrip())
        # No cut between the words of a heading that may fit a chunk of its own.
        whole = self._first_heading_fits(window, lead, est)
        spare: tuple[int, int] | None = None  # a block boundary below MIN_FILL
        for level in self.levels:
            if spare is not None and isinstance(level, WordChunker):
                break  # a line or paragraph end, however short, beats a cut between words
            cuts = scanner_for(level).feed(window)
            ends = [
                c.end
                for c in cuts
                if c.end > min_end
                and not inside(c.end, closed)
                and not _in_heading(window, c.end, lead, whole)
            ]
            if not ends:
                continue
            start = lead if self.fill else cuts[0].start
            if after_chunk and start == 0 and not self.fill:
                start = after_gap(window, ends[-1])
            # The last end that estimates within the limit (est grows with the end).
            lo, hi = 0, len(ends)
            while lo < hi:
                mid = (lo + hi) // 2
                if est(0, ends[mid]) <= limit:
                    lo = mid + 1
                else:
                    hi = mid
            lo = self._beyond_estimate(window, start, ends, lo)
            for i in range(lo - 1, -1, -1):
                if ends[i] > start and self._fits(window[start : ends[i]]):
                    end = ends[i]
                    if self.fill:  # stripped: trailing blanks of a line travel onward
                        end = start + len(window[start:end].rstrip())
                    if self.fill and level in self._blocks and est(0, ends[i]) < MIN_FILL * limit:
                        if spare is None or end > spare[1]:
                            spare = (start, end)
                        break  # too empty: a smaller level may fill it better
                    return start, end, _fence_after(window, fence, end, closed)
        if spare is not None:
            return spare[0], spare[1], _fence_after(window, fence, spare[1], closed)
        heading = self._heading_end(window, lead, min_end, closed, est)
        if heading is not None:
            # A heading line that fits, the word after it not: the heading
            # ends the chunk rather than that word be cut (nothing else fits).
            return lead, heading, _fence_after(window, fence, heading, closed)
        if 0 < lead and lead > min_end:
            # Whitespace that cannot travel with the word after it: a chunk of
            # its own (filled or not, as fallback_cut does), so that the word
            # is measured from its first character and cut only if it alone is
            # over the limit; whitespace over the limit (as measured: tokens
            # of a whitespace run add up) is cut within it, the word waits.
            if lead < len(window) and est(0, lead) <= limit and self._fits(window[:lead]):
                return 0, lead, fence
            return 0, self._hard_cut(window[:lead], est, 0), fence
        # (A lead within min_end, the overlap of a whole document: stripped.)
        additive = self.measure.additive
        start = lead if self.fill and lead < (limit if additive else len(window)) else 0
        end = self._hard_cut(window, est, start)
        if self.fill and start < end:
            end = start + len(window[start:end].rstrip()) or end
        return start, end, _fence_after(window, fence, end, closed)

    def _heading_end(
        self,
        window: str,
        start: int,
        min_end: int,
        closed: list[Span],
        est: Callable[[int, int], int],
    ) -> int | None:
        """The end of the last complete heading line (its title, a line break
        after it) in ``window`` that ends a chunk from ``start`` within the
        limit, or ``None``: no chunk ends on a heading line, except where the
        other choice is a hard cut (a word that fits alone cut after it).
        O(len(window)) once per hard cut: the headings within the estimate are
        measured from the last, which mostly fits (one exact measure)."""
        ends = []
        line = 0
        # (An unterminated heading may still grow: complete lines only.)
        while (nl := window.find("\n", line)) >= 0:
            marker = ATX.match(window, line, nl + 1)
            if marker is not None:
                end = line + len(window[line:nl].rstrip())
                if end > max(marker.end(), start, min_end) and not inside(end, closed):
                    if est(0, end) > self.limit:
                        break
                    ends.append(end)
            line = nl + 1
        return next((end for end in reversed(ends) if self._fits(window[start:end])), None)

    def _first_heading_fits(self, window: str, lead: int, est: Callable[[int, int], int]) -> bool:
        """Whether the line the window's content opens with is a Markdown
        heading that may fit a chunk of its own: within the limit, or not known
        to be over it (it goes on after the window, which a lead shortened)."""
        line = window.rfind("\n", 0, lead) + 1
        if ATX.match(window, line) is None:
            return False
        stop = window.find("\n", lead)
        if stop < 0:
            return est(line, len(window)) <= self.limit
        stop = line + len(window[line:stop].rstrip())
        return est(line, stop) <= self.limit or self._fits(window[line:stop])

    def _beyond_estimate(self, window: str, start: int, ends: list[int], lo: int) -> int:
        """``lo`` moved past the ends that estimate over the limit but measure
        within it (tokens: estimates run high): a few exact measures, from the
        last end down, by bisection."""
        if self.measure.additive or lo >= len(ends) or ends[lo] <= start:
            return lo
        fits = self._fits
        if fits(window[start : ends[-1]]):
            return len(ends)
        if not fits(window[start : ends[lo]]):
            return lo
        good, bad = lo, len(ends) - 1  # ends[good] fits, ends[bad] does not
        for _ in range(3):
            if bad - good <= 1:
                break
            mid = (good + bad) // 2
            if fits(window[start : ends[mid]]):
                good = mid
            else:
                bad = mid
        return good + 1

    def _exact(self, window: str, est: Callable[[int, int], int]) -> Callable[[int, int], int]:
        """The size of ``window[a:b]`` as the measure counts it."""
        if self.measure.additive:
            return est
        measure = self.measure
        return lambda a, b: measure(window[a:b])

    def _hard_cut(self, window: str, est: Callable[[int, int], int], start: int) -> int:
        """The end of the longest chunk from ``start`` within the limit (one
        character at least), moved back out of a grapheme cluster
        (:func:`~.clusters.cluster_start`), or forward to the end of the
        cluster the chunk opens with when that cluster fits: a cluster that
        takes the whole limit (a Devanagari conjunct of three cl100k tokens under
        ``max_tokens=3``) ends a window where the estimate passes the limit,
        so the longest prefix that estimates within it stops inside the
        cluster (one exact measure more, only then)."""
        end = self._longest_within(window, est, start)
        cut = cluster_start(window, end, start)
        if cut == end:
            whole = cluster_end(window, end, start)
            if whole > end and self.measure(window[start:whole]) <= self.limit:
                return whole
        return cut

    def _longest_within(self, window: str, est: Callable[[int, int], int], start: int) -> int:
        """The end of the longest chunk from ``start`` within the limit (one
        character at least), by code points."""
        limit = self.limit
        if self.measure.additive:
            return min(limit, len(window))
        # The longest prefix that estimates within the limit, short of the whole
        # window: an estimate up to an offset needs the character after it (a
        # piece ends before the space that precedes a word), and the decision
        # may use the window alone (delta invariance).
        lo, hi = start + 1, max(start + 1, len(window) - 1)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if est(0, mid) <= limit:
                lo = mid
            else:
                hi = mid - 1
        if self.measure(window[start:lo]) <= limit:
            return lo
        hi = lo - 1  # rare: the estimate was low; the longest prefix that measures within
        lo = start + 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.measure(window[start:mid]) <= limit:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def split_spans(self, text: str) -> list[Span]:
        """Offsets of the chunks :meth:`split_text` returns (overlapping with ``overlap``)."""
        if not self.overlap:
            return self.locate(text).spans()
        return self._overlapping(text)

    def split_text(self, text: str) -> list[str]:
        """Chunk a whole document (overlapping chunks with ``overlap``)."""
        return [text[a:b] for a, b in self.split_spans(text)]

    def _overlapping(self, text: str) -> list[Span]:
        if not isinstance(text, str):
            raise TypeError(f"text must be str, got {type(text).__name__}")
        source = StreamText()
        source.parts.append(text)
        meter: _Meter = (
            _Meter(self.limit)
            if self.measure.additive
            else _PieceMeter(self.limit, self.measure, source)
        )
        meter.add(text)
        n = len(text)
        spans: list[Span] = []
        s = prev_end = 0
        fence: Fence | None = None  # the code fence open at s
        end_fence: Fence | None = None  # the one open at prev_end
        while True:
            cut = self._overlapped_cut(text, meter, s, fence, prev_end)
            if cut is not None and s < prev_end and _rough(*cut):
                # The overlap left no room for a unit that fits without it (a
                # word, a code block): the chunk opens without it instead,
                # when that ends it less roughly (as LangChain drops overlap).
                plain = self._overlapped_cut(text, meter, prev_end, end_fence, prev_end)
                if plain is None or _rough(*plain) < _rough(*cut):
                    s, fence, cut = prev_end, end_fence, plain
            if cut is None:
                rest = text[s:]
                body = rest.strip()
                if body and (not spans or s + len(rest.rstrip()) > prev_end):
                    a = s + len(rest) - len(rest.lstrip())
                    spans.append((a, a + len(body)))
                return spans
            window, a, e, after = cut
            if s + e <= prev_end:  # no new text fits after the overlap: none
                s, fence = prev_end, end_fence
                continue
            spans.append((s + a, s + e))
            prev_end, end_fence = s + e, after
            start = self._overlap_start(text, s + a, prev_end, meter)
            # (An overlap may open inside a code block: read it as one.)
            fence = after if start >= prev_end else fence_at(window, fence, start - s)
            s = start
            if s >= n:
                return spans

    def _overlapped_cut(
        self, text: str, meter: _Meter, s: int, fence: Fence | None, prev_end: int
    ) -> tuple[str, int, int, Fence | None] | None:
        """``(window, start, end, fence after)`` of the next chunk from ``s``,
        which ends after ``prev_end``; ``None`` when the rest of ``text`` fits."""
        c = meter.crossing(s)
        while c is not None and meter.reanchor(s, c):
            c = meter.crossing(s)
        if c is None:
            return None

        def est(x: int, y: int) -> int:
            return meter.est(s + x, s + y)

        window = text[s:c]
        return (window, *self._cut(window, fence, est, max(prev_end - s, 0)))

    def _overlap_start(self, text: str, first: int, end: int, meter: _Meter) -> int:
        """The earliest word start after ``first`` from which ``text[w:end]``
        measures at most ``overlap``; ``end`` if there is none."""
        starts = [first + m.start() for m in re.finditer(r"(?<=\s)\S", text[first:end])]
        lo, hi = 0, len(starts)
        while lo < hi:  # the estimate shrinks as the start moves right
            mid = (lo + hi) // 2
            if meter.est(starts[mid], end) <= self.overlap:
                hi = mid
            else:
                lo = mid + 1
        return starts[lo] if lo < len(starts) else end

    def _params(self) -> dict[str, object]:
        params: dict[str, object] = {"inner": self.inner, self._param: self.limit}
        if self.measure.spec is not None:
            params["tokenizer" if self._param == "max_tokens" else "length"] = self.measure.spec
        elif self._param == "max_tokens":  # (characters: not the cl100k_base default)
            params["tokenizer"] = len
        if self.fill:
            params["fill"] = True
        if self.overlap:
            params["overlap"] = self.overlap
        if self.fallback != levels_below(self.inner):
            params["fallback"] = self.fallback
        return params


# Blanks up to the end of the line (O(the blanks), not O(the line)).
_BLANK_TO_LINE_END = re.compile(r"[^\S\n]*(?:\n|\Z)")


def _in_heading(window: str, end: int, lead: int, whole: bool) -> bool:
    """Whether no chunk may end at ``end`` for a Markdown heading: at the end of
    a heading line or its ``#`` marker, or between the words of a heading (the
    chunk ends before its line), but for the one the content opens with when
    it is over the limit (``whole``: it may fit); a heading belongs to the text
    after it.  O(the line before ``end``)."""
    line = window.rfind("\n", 0, end) + 1
    marker = ATX.match(window, line)
    if marker is None:
        return False
    if end <= marker.end() or _BLANK_TO_LINE_END.match(window, end) is not None:
        return True
    return line > lead or whole


def _rough(window: str, start: int, end: int, fence: Fence | None) -> int:
    """How roughly a chunk ``window[start:end]`` ends: 2 inside a word, 1
    inside a code block, else 0."""
    if 0 < end < len(window) and not window[end - 1].isspace() and not window[end].isspace():
        return 2
    return 0 if fence is None else 1


def _fence_after(window: str, fence: Fence | None, end: int, closed: list[Span]) -> Fence | None:
    """The fence open after a cut at ``end``: only a block that was open to cuts
    can hold one."""
    if fence is None and "`" not in window and "~" not in window:
        return None
    return fence_at(window, fence, end)
