"""The ``chunkwise`` command line (typer), and its entry point :func:`main`.

Every subcommand imports what it needs when it runs: ``split`` uses the
chunkers only and imports Guardrails only for ``--chunker guardrails``;
every command puts the process offline (:func:`~.offline.go_offline`) before
Guardrails is imported.  Errors the user can fix are reported as one line on
stderr with exit status 2 (validation failures that were not fixed, and
output that cannot be written: 1), never as a traceback; see :func:`main`.
"""

from __future__ import annotations

import errno
import json
import math
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, BinaryIO

import click
import typer

from guardrails_ai.chunkwise.chunkers import (
    ChunkerSpec,
    ChunkingStrategy,
    SplitFlush,
    aliases,
    resolve_chunker,
)

from .errors import CommandError, OutputError, closed_stdout
from .inputs import STDIN

__all__ = ["app", "main"]

app = typer.Typer(
    name="chunkwise",
    help="Streaming validation for Guardrails AI that never loses, skips or leaks text.",
    epilog="Exit status: 0 when everything written passed or was fixed; 1 when a "
    "validator's failure was not fixed (guard, demo) or output could not be written "
    "(a reader gone, a full disk); 2 for a usage error (an unknown chunker, validator "
    "or option, an unreadable or invalid input); 130 when interrupted.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class OnFail(StrEnum):
    fix = "fix"
    noop = "noop"
    exception = "exception"
    filter = "filter"
    refrain = "refrain"


class Format(StrEnum):
    text = "text"
    jsonl = "jsonl"


FileArg = Annotated[
    str, typer.Argument(metavar="[FILE|-]", help="Input file; '-' (default) reads stdin.")
]
ChunkerOpt = Annotated[
    str | None,
    typer.Option(
        help="Chunker alias: sentence, paragraph, line, word, ... for every validator, "
        'or a JSON spec of any chunker\'s options: \'{"chunker": "sentence", "language": "de"}\'; '
        "redact_pii refuses one that cuts entities (word, fixed) [default: per validator]"
    ),
]
OnFailOpt = Annotated[OnFail, typer.Option(help="on_fail action for every validator.")]


def _chunker(spec: str, *, guardrails: bool = False) -> ChunkingStrategy | SplitFlush:
    """Resolve ``--chunker``; with ``guardrails``, the adapters' aliases count too.

    The alias ``guardrails`` (Guardrails' own splitter, registered on first
    use) imports Guardrails: the process goes offline first
    (:func:`~.offline.go_offline`), whichever command asks.  The adapters
    (which import Guardrails) may register more aliases; with ``guardrails``
    they are loaded when the alias is not a chunkers' one.
    """
    from .offline import go_offline

    if spec.lstrip().startswith("{"):
        return _chunker_from_json(spec)
    if spec.strip().lower() == "guardrails":
        go_offline()
    try:
        return resolve_chunker(spec, param="--chunker")
    except ValueError:
        if guardrails and "guardrails" not in sys.modules:
            go_offline()
            from guardrails_ai.chunkwise import adapters  # noqa: F401  (registers its aliases)

            return _chunker(spec, guardrails=True)
        raise CommandError(
            f"unknown chunker {spec!r} for --chunker; choose one of {', '.join(aliases())}"
        ) from None


def _chunker_from_json(spec: str) -> ChunkingStrategy | SplitFlush:
    """``--chunker`` given as a JSON spec, as ``chunker.spec()`` writes one
    (``{"chunker": "sentence", "language": "de"}``): any option of any
    chunker, where an alias gives its defaults.  Invalid JSON or spec is
    :class:`CommandError`."""
    try:
        parsed = json.loads(spec)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"--chunker: not valid JSON (line {exc.lineno}, column {exc.colno})"
        ) from None
    try:
        return resolve_chunker(parsed, param="--chunker")
    except (TypeError, ValueError) as exc:
        raise CommandError(str(exc)) from None


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        typer.echo(f"chunkwise {version('guardrails-ai-chunkwise')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the installed version and exit.",
        ),
    ] = False,
) -> None:
    """Streaming validation for Guardrails AI that never loses, skips or leaks text."""


@app.command()
def demo(
    chunker: ChunkerOpt = None,
    on_fail: OnFailOpt = OnFail.fix,
    speed: Annotated[
        float, typer.Option(min=0.1, help="Tokens per second of the simulated LLM.")
    ] = 40.0,
    no_delay: Annotated[bool, typer.Option("--no-delay", help="Stream at full speed.")] = False,
    plain: Annotated[
        bool, typer.Option("--plain", help="Plain text output (automatic when not a terminal).")
    ] = False,
) -> None:
    """Stream an embedded LLM response through a Guard, live, and summarise."""
    if not math.isfinite(speed):
        raise CommandError(f"--speed must be a finite number of tokens per second, got {speed}")
    strategy = None if chunker is None else _chunker(chunker, guardrails=True)
    from .offline import go_offline

    go_offline()
    from .demo import run_demo

    delay = 0.0 if no_delay else 1.0 / speed
    code = run_demo(chunker=strategy, on_fail=on_fail.value, delay=delay, plain=plain)
    if code:
        raise typer.Exit(code)


@app.command()
def split(
    file: FileArg = STDIN,
    chunker: Annotated[
        str | None,
        typer.Option(
            help="Chunker alias, or a JSON spec of any chunker's options "
            '(\'{"chunker": "paragraph", "crlf": true}\') [default: sentence; structure '
            "(the highest level) when chunks are filled to a size]."
        ),
    ] = None,
    max_chars: Annotated[
        int | None,
        typer.Option(help="Chunk size in characters: chunks are filled up to it (see --fill)."),
    ] = None,
    max_tokens: Annotated[
        int | None,
        typer.Option(help="Chunk size in tokens of --tokenizer: chunks are filled up to it."),
    ] = None,
    tokenizer: Annotated[
        str | None,
        typer.Option(
            help="Tokenizer for --max-tokens: an OpenAI encoding or model name (offline, "
            "with the [tokens] extra) or a tokenizer.json file [default: cl100k_base]."
        ),
    ] = None,
    fill: Annotated[
        bool | None,
        typer.Option(
            "--fill/--no-fill",
            help="Fill chunks up to the size with whole sections, paragraphs, lines, "
            "sentences or words (as LangChain's chunk_size does), or only cap the chunker's "
            "own chunks at it [default: fill, unless --chunk-size is given].",
        ),
    ] = None,
    chunk_size: Annotated[
        int | None,
        typer.Option(
            help="Units (e.g. sentences) per chunk, alone or under --max-chars (not with "
            "--max-tokens)."
        ),
    ] = None,
    overlap: Annotated[
        int | None,
        typer.Option(
            help="Overlap of consecutive chunks: in characters or tokens when filling "
            "(LangChain's chunk_overlap), in units with --chunk-size."
        ),
    ] = None,
    fmt: Annotated[
        Format,
        typer.Option(
            "--format",
            help="text: each chunk and a newline (a chunk may span lines); jsonl: one "
            "{index, start, end, text} object a line, start/end being character (code "
            "point) offsets into the input.",
        ),
    ] = Format.text,
) -> None:
    """Split a whole document into chunks.

    A size (--max-chars or --max-tokens) is a target, as in LangChain: chunks are
    filled up to it.  --no-fill keeps the chunker's own chunks and only cuts those
    over the size, or groups --chunk-size of them: it needs a size or --chunk-size.
    """
    from .split import Sizes, limited, split_document

    sized = max_chars is not None or max_tokens is not None
    if fill is False and not sized and chunk_size is None:
        raise CommandError(
            "--no-fill needs a size option: --max-chars or --max-tokens (or --chunk-size)"
        )
    if chunker is not None:
        name = chunker  # (given empty, it is refused as unknown: never the default)
    else:
        name = "structure" if sized and chunk_size is None and fill is not False else "sentence"
    sizes = Sizes(max_chars, max_tokens, tokenizer, fill, chunk_size, overlap)
    strategy = limited(_chunker(name), sizes)
    progress = sys.stderr is not None and sys.stderr.isatty()  # (None: stderr closed, 2>&-)
    split_document(file, strategy, fmt.value, _stdout(), progress=progress)


@app.command()
def guard(
    file: FileArg = STDIN,
    validator: Annotated[
        list[str] | None,
        typer.Option(
            help="Validator name, e.g. banned_phrases or chunkwise/redact_pii "
            "(repeatable: each validates the stream, in the order given). "
            "[default: banned_phrases]"
        ),
    ] = None,
    phrases: Annotated[
        list[str] | None,
        typer.Option(help="Phrases for banned_phrases (repeatable, or comma-separated)."),
    ] = None,
    chunker: Annotated[
        str | None,
        typer.Option(
            help="Chunker alias, or a JSON spec of any chunker's options "
            '(\'{"chunker": "sentence", "language": "de"}\'), for every validator, hub '
            "validators included [default: per validator]"
        ),
    ] = None,
    on_fail: OnFailOpt = OnFail.fix,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="Validator option [VALIDATOR:]KEY=VALUE "
            "(repeatable; VALUE is read as JSON when it parses, else as text). "
            "Without VALIDATOR: for every validator that takes KEY.",
        ),
    ] = None,
    options: Annotated[
        Path | None,
        typer.Option(
            "--options",
            help="Validator options from a TOML or JSON file: "
            "KEY = VALUE for every validator that takes KEY, or a table per "
            "validator ([redact_pii]).",
        ),
    ] = None,
    max_chars: Annotated[
        int | None,
        typer.Option(help="Window of the validator in characters: no chunk it sees is longer."),
    ] = None,
    max_tokens: Annotated[
        int | None,
        typer.Option(help="Window of the validator in tokens of --tokenizer (a model's input)."),
    ] = None,
    tokenizer: Annotated[
        str | None,
        typer.Option(
            help="Tokenizer for --max-tokens: an OpenAI encoding or model name, or a "
            "tokenizer.json file [default: cl100k_base]."
        ),
    ] = None,
) -> None:
    """Validate text as it arrives and write what passes (or its fix) as soon as released.

    --max-tokens (or --max-chars) fits the chunks the validator sees to its window:
    the chunker's units (sentences by default), cut smaller only when one is over.
    """
    from .guard import collect_options

    settings = collect_options(option or [], options, phrases or [])
    spec: ChunkerSpec | None = chunker
    if chunker is not None:
        spec = _chunker(chunker, guardrails=True)
    if max_chars is not None or max_tokens is not None or tokenizer is not None:
        from .split import Sizes, limited

        spec = limited(
            spec or _chunker("sentence"), Sizes(max_chars, max_tokens, tokenizer, fill=False)
        )
    from .offline import go_offline

    go_offline()
    from .guard import run_guard

    names = validator or ["banned_phrases"]
    code = run_guard(file, names, settings, spec, on_fail.value, _stdout())
    if code:
        raise typer.Exit(code)


@app.command()
def serve(
    config: Annotated[
        Path, typer.Option(help="A guardrails-api config file (the guards to serve).")
    ],
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to bind (0: a free one).")
    ] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    timeout_keep_alive: Annotated[
        int,
        typer.Option(
            min=1,
            help="Seconds an idle keep-alive connection stays open (uvicorn's option): set "
            "it above the idle timeout of a proxy or load balancer in front of the server.",
        ),
    ] = 5,
) -> None:
    """Serve a config's guards with the Guardrails server, releasing validated text only."""
    from .serve import run_server

    run_server(config, host, port, workers, timeout_keep_alive=timeout_keep_alive)


@app.command()
def bench(
    only: Annotated[
        list[str] | None,
        typer.Option(help="Run only this benchmark (repeatable), e.g. stream_cost."),
    ] = None,
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Benchmarks folder [default: the checkout's].")
    ] = None,
) -> None:
    """Run the benchmark scripts of a source checkout and print their tables."""
    from .bench import run_benchmarks

    code = run_benchmarks(directory, only or [])
    if code:
        raise typer.Exit(code)


def _stdout() -> BinaryIO:
    """Standard output as bytes; closed (``>&-``, no ``sys.stdout``): :class:`OutputError`."""
    if sys.stdout is None:
        raise closed_stdout()
    return sys.stdout.buffer


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    0: done; 1: text failed validation, or the command's output could not be
    written to stdout (:class:`~.errors.OutputError`); 2: bad usage or input;
    130: interrupted.  Every error is one line on stderr, except a closed
    pipe (the reader stopped early, as in ``chunkwise split doc.txt | head``):
    status 1 and nothing on stderr, as Unix tools do (not 141, the shell's
    status for a process that SIGPIPE killed).  After a failed write, stdout
    is redirected to the null device, so that the interpreter's last flush
    of what it still holds cannot fail again (an "Exception ignored" report).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(app)
    try:
        result = command.main(args, prog_name="chunkwise", standalone_mode=False)
    except OutputError as exc:
        _discard_stdout()
        return exc.code if exc.broken_pipe else _fail(str(exc), exc.code)
    except CommandError as exc:
        return _fail(str(exc), exc.code)
    except click.exceptions.NoArgsIsHelpError as exc:
        # Its message is the help; Typer's rich help is printed as it is made
        # (while the error is built), and then the message is empty.
        if exc.format_message().strip():
            click.echo(exc.format_message())
        return 0
    except click.ClickException as exc:
        return _fail(exc.format_message(), exc.exit_code)
    except click.exceptions.Abort:
        return _fail("aborted", 130)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except OSError as exc:
        # Click writes help and usage itself, outside the commands' guarded
        # writes (``chunkwise --help > /dev/full``, ``chunkwise | head``).
        if exc.errno not in _WRITE_ERRNOS:
            raise
        error = OutputError(exc)
        _discard_stdout()
        return error.code if error.broken_pipe else _fail(str(error), error.code)
    return result if isinstance(result, int) else 0


#: ``OSError`` numbers only a write can raise: a full device, a closed pipe.
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE})


def _discard_stdout() -> None:
    """Point the file descriptor of ``sys.stdout`` at the null device (if it can)."""
    try:
        fd = sys.stdout.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):  # (no descriptor: nothing flushes to it)
        return
    try:
        os.dup2(null, fd)
    except OSError:
        pass
    finally:
        os.close(null)


def _fail(message: str, code: int) -> int:
    """Write ``message`` as one line on stderr (unless it is closed, ``2>&-``); return ``code``."""
    if sys.stderr is not None:
        sys.stderr.write(f"chunkwise: error: {' '.join(message.split())}\n")
        sys.stderr.flush()
    return code
