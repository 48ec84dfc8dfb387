"""The sized-chunk table of ``batch_throughput.py``: chunks filled to a size in
characters or tokens, chunkwise beside LangChain, semantic-text-splitter and
chonkie, each given the same measure.

Tokens are cl100k_base counted by bpe-openai (offline).  LangChain's
``RecursiveCharacterTextSplitter.from_tiktoken_encoder`` needs tiktoken, which
downloads its encodings on first use (it fails here), so RCTS gets the
bpe-openai count as its ``length_function`` instead: the same measure.
semantic-text-splitter is run twice for tokens: ``from_tiktoken_model("gpt-4")``
(its own Rust tiktoken, built in) and ``from_callback`` with the bpe-openai
count (the same tokenizer as chunkwise).  chonkie's ``RecursiveChunker`` gets
the bpe-openai encoding through a tiktoken-shaped wrapper (its Markdown recipe
is a download, so it runs with its default rules).

Columns: MB/s; chunks; median size as % of the target (fill); largest chunk in
the row's measure, with ``!`` when over the target; ``cut sent.``: chunk ends
strictly inside a sentence that measures within the target (sentences as
``SentenceChunker(mode="simple")`` sees them within each line); ``code``:
fenced code blocks that fit the target and are cut by a chunk boundary.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections.abc import Callable

from guardrails_ai.chunkwise.chunkers import SentenceChunker, limit, split_spans

Splitter = Callable[[str], list[str]]
Measure = Callable[[str], int]
Row = tuple[str, str, Splitter]  # measure name, row name, split


def token_count() -> Measure | None:
    try:
        import bpe_openai
    except ImportError:
        print("bpe-openai not installed: pip install '.[benchmark]'")
        return None
    encoding = bpe_openai.get_encoding("cl100k_base")
    return lambda text: len(encoding.encode_ordinary(text))


def sized_rows(n_chars: int, n_tokens: int, count: Measure | None) -> list[Row]:
    """Every sized splitter available, characters first, then tokens."""
    rows: list[Row] = [
        (
            "chars",
            f"chunkwise structure fill {n_chars}",
            limit("structure", max_chars=n_chars, fill=True).split_text,
        ),
        (
            "chars",
            f"chunkwise paragraph fill {n_chars}",
            limit("paragraph", max_chars=n_chars, fill=True).split_text,
        ),
    ]
    rcts = _langchain()
    sts = _semantic_text_splitter()
    chonkie = _chonkie()
    if rcts is not None:
        rows.append(
            (
                "chars",
                f"LangChain RCTS {n_chars}",
                rcts(chunk_size=n_chars, chunk_overlap=0).split_text,
            )
        )
    if sts is not None:
        rows.append(
            ("chars", f"semantic-text-splitter md {n_chars}", sts.MarkdownSplitter(n_chars).chunks)
        )
        rows.append(
            ("chars", f"semantic-text-splitter text {n_chars}", sts.TextSplitter(n_chars).chunks)
        )
    if chonkie is not None:
        chunker = chonkie(tokenizer="character", chunk_size=n_chars)
        rows.append(("chars", f"chonkie recursive {n_chars}", _texts(chunker)))
    if count is None:
        return rows
    rows += [
        (
            "tokens",
            f"chunkwise structure fill {n_tokens}t",
            limit("structure", max_tokens=n_tokens, fill=True).split_text,
        ),
        (
            "tokens",
            f"chunkwise paragraph fill {n_tokens}t",
            limit("paragraph", max_tokens=n_tokens, fill=True).split_text,
        ),
        (
            "tokens",
            f"chunkwise sentence capped {n_tokens}t",
            limit("sentence", max_tokens=n_tokens).split_text,
        ),
    ]
    if rcts is not None:
        rows.append(
            (
                "tokens",
                f"LangChain RCTS {n_tokens}t (bpe len)",
                rcts(chunk_size=n_tokens, chunk_overlap=0, length_function=count).split_text,
            )
        )
    if sts is not None:
        rows.append(
            (
                "tokens",
                f"sts md tiktoken-rs {n_tokens}t",
                sts.MarkdownSplitter.from_tiktoken_model("gpt-4", n_tokens).chunks,
            )
        )
        rows.append(
            (
                "tokens",
                f"sts md bpe callback {n_tokens}t",
                sts.MarkdownSplitter.from_callback(count, n_tokens).chunks,
            )
        )
        rows.append(
            (
                "tokens",
                f"sts text tiktoken-rs {n_tokens}t",
                sts.TextSplitter.from_tiktoken_model("gpt-4", n_tokens).chunks,
            )
        )
    if chonkie is not None:
        chunker = chonkie(tokenizer=_TiktokenShaped(), chunk_size=n_tokens)
        rows.append(("tokens", f"chonkie recursive {n_tokens}t", _texts(chunker)))
    return rows


def _langchain() -> Callable[..., object] | None:
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        print("langchain-text-splitters not installed: pip install '.[benchmark]'")
        return None
    return RecursiveCharacterTextSplitter


def _semantic_text_splitter() -> object | None:
    try:
        import semantic_text_splitter
    except ImportError:
        print("semantic-text-splitter not installed: pip install '.[benchmark]'")
        return None
    return semantic_text_splitter


def _chonkie() -> Callable[..., object] | None:
    try:
        from chonkie import RecursiveChunker
    except ImportError:
        print("chonkie not installed: pip install '.[benchmark]'")
        return None
    return RecursiveChunker


def _texts(chunker: object) -> Splitter:
    return lambda text: [c.text for c in chunker.chunk(text)]  # type: ignore[attr-defined]


class tiktoken_shaped:  # lower case: chonkie picks its adapter by "tiktoken" in the type
    """bpe-openai's cl100k_base with the methods chonkie's tiktoken adapter calls."""

    def __init__(self) -> None:
        import bpe_openai

        self._encoding = bpe_openai.get_encoding("cl100k_base")

    def encode(self, text: str, **_: object) -> list[int]:
        return self._encoding.encode_ordinary(text)

    def encode_batch(self, texts: list[str], **_: object) -> list[list[int]]:
        return [self._encoding.encode_ordinary(t) for t in texts]

    def decode(self, ids: list[int], **_: object) -> str:
        return self._encoding.decode(ids)

    def decode_batch(self, batch: list[list[int]], **_: object) -> list[str]:
        return [self._encoding.decode(ids) for ids in batch]


_TiktokenShaped = tiktoken_shaped


def locate(text: str, chunks: list[str]) -> list[tuple[int, int]] | None:
    """Spans of ``chunks`` found in order in ``text`` (None if one is missing).

    Each chunk is looked for from the end of the one before (chunks that do not
    overlap, as every row here makes them): looking from the previous start
    instead finds a short chunk (``"<img"``) at an earlier occurrence inside
    the previous chunk and reports a cut that is not there.  Chunks that do
    overlap are looked for from the previous start.
    """
    for overlapping in (False, True):
        spans = []
        pos = 0
        for chunk in chunks:
            at = text.find(chunk, pos)
            if at < 0:
                break
            spans.append((at, at + len(chunk)))
            pos = at + 1 if overlapping else at + len(chunk)
        else:
            return spans
    return None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Simple-mode sentences of each line of ``text``, as offsets."""
    simple = SentenceChunker(mode="simple")
    spans = []
    offset = 0
    for line in text.split("\n"):
        spans += [(offset + a, offset + b) for a, b in split_spans(simple, line)]
        offset += len(line) + 1
    return spans


_FENCED = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[^\n]*\n.*?^[ \t]{0,3}\1[ \t]*$", re.M | re.S)


class Corpus:
    """The sentences and fenced code blocks of one text, measured once per measure."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sentences = sentence_spans(text)
        self.starts = [s for s, _ in self.sentences]
        self.blocks = [m.span() for m in _FENCED.finditer(text)]
        self._fits: dict[tuple[str, int], tuple[list[bool], list[bool]]] = {}

    def fits(self, name: str, measure: Measure, n: int) -> tuple[list[bool], list[bool]]:
        """Which sentences and which code blocks measure within ``n``."""
        key = (name, n)
        if key not in self._fits:
            t = self.text
            self._fits[key] = (
                [e - s <= n or measure(t[s:e]) <= n for s, e in self.sentences]
                if name == "tokens"
                else [e - s <= n for s, e in self.sentences],
                [measure(t[s:e]) <= n for s, e in self.blocks],
            )
        return self._fits[key]

    def row(self, name: str, measure: Measure, n: int, chunks: list[str]) -> str:
        """The columns after MB/s for one splitter's ``chunks``."""
        sizes = [measure(c) for c in chunks] or [0]
        fill = 100 * statistics.median(sizes) / n
        over = "!" if max(sizes) > n else " "
        spans = locate(self.text, chunks)
        if spans is None:
            return f"{len(chunks):>7}{fill:>6.0f}%{max(sizes):>7}{over}{'n/a':>10}{'n/a':>6}"
        sentence_fits, block_fits = self.fits(name, measure, n)
        cut = 0
        for _, end in spans[:-1]:
            i = bisect.bisect_right(self.starts, end - 1) - 1
            if i >= 0:
                s, e = self.sentences[i]
                if s < end < e and sentence_fits[i]:
                    cut += 1
        bounds = sorted({a for a, _ in spans} | {b for _, b in spans})
        code = 0
        for (s, e), fits in zip(self.blocks, block_fits, strict=True):
            # A boundary inside the block, not in the whitespace around its fences.
            i = bisect.bisect_right(bounds, s)
            while i < len(bounds) and bounds[i] < e and not self.text[s : bounds[i]].strip():
                i += 1
            if fits and i < len(bounds) and bounds[i] < e and self.text[bounds[i] : e].strip():
                code += 1
        return f"{len(chunks):>7}{fill:>6.0f}%{max(sizes):>7}{over}{cut:>10}{code:>6}"


def print_sized(
    text: str,
    n_chars: int,
    n_tokens: int,
    repeat: int,
    measure_times: Callable[[list[Row], str, int], list[float]],
) -> None:
    """Print the sized table (see the module docstring)."""
    count = token_count()
    rows = sized_rows(n_chars, n_tokens, count)
    corpus = Corpus(text)
    print()
    print(
        f"sized chunks: {n_chars} characters / {n_tokens} cl100k tokens; "
        f"{len(corpus.blocks)} fenced code blocks"
    )
    header = (
        f"{'splitter':<40}{'MB/s':>7}{'chunks':>7}{'fill':>7}{'max':>8}{'cut sent.':>10}{'code':>6}"
    )
    print(header)
    print("-" * len(header))
    times = measure_times(rows, text, repeat)
    for (name, label, split), seconds in zip(rows, times, strict=True):
        measure: Measure = len if name == "chars" else count  # type: ignore[assignment]
        n = n_chars if name == "chars" else n_tokens
        rate = len(text) / seconds / 1e6
        print(f"{label:<40}{rate:>7.2f}{corpus.row(name, measure, n, split(text))}")
