"""``chunkwise demo``: an embedded LLM response, streamed through a real Guard.

The response (package data ``demo_response.txt``) holds an e-mail address and
a card number, a banned phrase, a long sentence, a repetition loop and a last
sentence with no terminator.  A simulated LLM yields it token by token (runs
of at most four non-space characters with the spaces before them) into
``guarded_stream`` with the four example validators; the screen shows the
released text as it is validated, fixes highlighted, and the fragment that is
still held back dimmed, then a summary table.
"""

from __future__ import annotations

import difflib
import re
import sys
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from guardrails_ai.chunkwise.chunkers import ChunkerSpec, ChunkStream

from .errors import CommandError, closed_stdout, stdout_errors
from .guard import MESSAGES
from .watch import Tally, forgetting_past_stops, unfixed_message, watch

__all__ = [
    "DEMO_MAX_WORDS",
    "DEMO_PHRASES",
    "demo_validators",
    "run_demo",
    "sample_response",
    "tokenize",
]

DEMO_PHRASES = ("guaranteed returns",)
DEMO_MAX_WORDS = 50
_TOKEN = re.compile(r"\s*\S{1,4}|\s+")
FIXED = "bold black on yellow"
FAILED = "bold red underline"
PENDING = "dim"


def sample_response() -> str:
    """The embedded response (without the file's final newline)."""
    data = resources.files(__package__).joinpath("demo_response.txt")
    return data.read_text(encoding="utf-8").removesuffix("\n")


def tokenize(text: str) -> list[str]:
    """Token-like deltas: lossless, ``"".join(tokenize(t)) == t``."""
    return _TOKEN.findall(text)


def demo_validators(chunker: ChunkerSpec | None, on_fail: str) -> list[Any]:
    """The four example validators as the demo sets them up, each chunking with
    ``chunker`` when given (an alias or a chunker, as ``--chunker`` resolves it)."""
    from guardrails_ai.chunkwise import BannedPhrases, MaxChunkLength, NoRepetition, RedactPII

    extra: dict[str, Any] = {"on_fail": on_fail}
    if chunker is not None:
        extra["chunker"] = chunker
    try:
        return [
            BannedPhrases(list(DEMO_PHRASES), **extra),
            RedactPII(**extra),
            NoRepetition(**extra),
            MaxChunkLength(max_words=DEMO_MAX_WORDS, **extra),
        ]
    except (TypeError, ValueError) as exc:  # e.g. a chunker that cuts a phrase
        raise CommandError(f"--chunker: {exc}") from None


@dataclass
class DemoRun:
    """What has been received, released and held back so far.

    What is held back is measured with one shadow
    :class:`~guardrails_ai.chunkwise.chunkers.ChunkStream` per validator, fed
    the raw text of each released outcome: the longest text a validator's
    chunker still withholds, plus what arrived since, is the pending fragment.
    """

    shadows: list[ChunkStream]
    received: list[str] = field(default_factory=list)
    received_chars: int = 0
    released: list[tuple[str, str]] = field(default_factory=list)  # (text, style)
    released_chars: int = 0
    shadow_chars: int = 0  # raw characters fed to the shadows
    withheld: int = 0  # of those, the most any shadow still withholds
    held_back_max: int = 0
    deltas: int = 0
    error: str | None = None

    def receive(self, delta: str) -> None:
        self.received.append(delta)
        self.received_chars += len(delta)
        self.deltas += 1
        self.held_back_max = max(self.held_back_max, self.held_back)

    @property
    def held_back(self) -> int:
        """Characters received and not yet released."""
        return self.received_chars - self.shadow_chars + self.withheld

    def release(self, raw: str, validated: str, passed: bool) -> None:
        """Record one released outcome (``raw``: LLM text since the last one)."""
        self.released.extend(_styled(raw, validated, passed))
        self.released_chars += len(validated)
        self.shadow_chars += len(raw)
        for shadow in self.shadows:
            shadow.feed(raw)
        self.withheld = max((len(shadow.pending) for shadow in self.shadows), default=0)

    def finish(self) -> None:
        """The stream ended: nothing is held back any more."""
        self.shadow_chars, self.withheld = self.received_chars, 0

    @property
    def pending(self) -> str:
        held = self.held_back
        return "".join(self.received)[-held:] if held else ""

    def __rich__(self) -> RenderableType:
        body = Text()
        for text, style in self.released:
            body.append(text, style=style)
        body.append(self.pending, style=PENDING)
        status = Text(
            f"received {self.received_chars} chars in {self.deltas} deltas · released "
            f"{self.released_chars} · pending {len(self.pending)} · held back at most "
            f"{self.held_back_max}",
            style="cyan",
        )
        legend = Text.assemble(
            ("released", ""),
            "  ",
            ("fixed", FIXED),
            "  ",
            ("failed", FAILED),
            "  ",
            ("pending (not validated yet)", PENDING),
        )
        panel = Panel(
            body,
            title="chunkwise demo: only validated text is released",
            subtitle=legend,
            border_style="blue",
        )
        return Group(panel, status)


def _chunker_of(validator: Any) -> Any:
    chunker = getattr(validator, "chunker", None)
    return chunker if chunker is not None else "sentence"


def _styled(raw: str, validated: str, passed: bool) -> list[tuple[str, str]]:
    if raw == validated:
        return [(validated, "" if passed else FAILED)] if validated else []
    spans: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, raw, validated, autojunk=False)
    for op, _, _, j1, j2 in matcher.get_opcodes():
        if j2 > j1:
            spans.append((validated[j1:j2], "" if op == "equal" else FIXED))
    return spans


def summary_table(tallies: list[Tally], run: DemoRun, *, plain: bool) -> Table:
    table = Table(
        title="Summary",
        box=box.ASCII if plain else box.ROUNDED,
        title_justify="left",
        caption=(
            f"{run.received_chars} characters received in {run.deltas} deltas, "
            f"{run.released_chars} released; held back at most {run.held_back_max} characters; "
            "µs/chunk: median time per chunk"
        ),
        caption_justify="left",
    )
    for name in ("validator", "chunker", "on_fail"):
        table.add_column(name, no_wrap=True)
    for name in ("chunks", "failed", "fixed", "µs/chunk"):
        table.add_column(name, justify="right")
    for t in tallies:
        table.add_row(
            t.name,
            t.chunker,
            t.on_fail,
            str(t.chunks),
            str(t.failures),
            str(t.fixes),
            f"{t.micros_per_chunk:.0f}",
        )
    return table


def run_demo(
    *,
    chunker: ChunkerSpec | None,
    on_fail: str,
    delay: float,
    plain: bool,
    out: TextIO | None = None,
) -> int:
    """Run the demo; return 0, or raise :class:`CommandError` (status 1) saying
    what failed when a failure was not fixed.

    A failed write to ``out`` is :class:`~.errors.OutputError` (status 1;
    quiet for a closed pipe): the text and the summary.  (The live display,
    drawn on a terminal only, is rich's to report.)
    """
    from guardrails import Guard
    from guardrails.errors import ValidationError

    from guardrails_ai.chunkwise.adapters import guarded_stream

    from .offline import skip_litellm

    skip_litellm()
    out = out or sys.stdout
    if out is None:  # (standard output closed: ``>&-``)
        raise closed_stdout()
    console = Console(file=out, highlight=False)
    plain = plain or not console.is_terminal
    if plain:
        console = Console(file=out, highlight=False, no_color=True, force_terminal=False, width=120)
    validators = demo_validators(chunker, on_fail)
    tallies = [watch(v, on_fail) for v in validators]
    guard = Guard().use(*validators)
    run = DemoRun([ChunkStream(_chunker_of(v)) for v in validators])
    text = sample_response()

    def llm(*, messages: Any = None, **kwargs: Any) -> Iterator[str]:
        for token in tokenize(text):
            if delay:
                time.sleep(delay)
            run.receive(token)
            yield token

    live = (
        nullcontext()
        if plain
        else Live(run, console=console, refresh_per_second=20, vertical_overflow="visible")
    )
    with live, forgetting_past_stops(validators, tallies):
        try:
            for outcome in guarded_stream(guard, llm, messages=MESSAGES):
                raw = outcome.raw_llm_output or ""
                validated = outcome.validated_output
                validated = validated if isinstance(validated, str) else ""
                run.release(raw, validated, bool(outcome.validation_passed))
                if plain and validated:
                    with stdout_errors():
                        out.write(validated)
                        out.flush()
        except ValidationError as exc:
            run.error = " ".join(str(exc).split())
        run.finish()
    with stdout_errors():
        if plain:
            out.write("\n\n")
        console.print(summary_table(tallies, run, plain=plain))
        if run.error:
            console.print(f"Validation stopped the stream: {run.error}", soft_wrap=True)
    if run.error:
        raise CommandError("validation failed: on_fail=exception stopped the stream", code=1)
    message = unfixed_message(tallies)
    if message:
        raise CommandError(message, code=1)
    return 0
