"""The ``chunkwise`` command, through its real entry points.

Most tests run the installed ``chunkwise`` console script (or ``python -m
guardrails_ai.chunkwise``) in a subprocess, which inherits this session's
offline set-up (conftest).  Error paths that need Guardrails loaded run
``main([...])`` in this process instead: one Guardrails import for all of
them rather than one per subprocess.  The demo also runs under a
pseudo-terminal, to check what the screen shows.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _text import prose
from hypothesis import given
from hypothesis import strategies as st

from guardrails_ai.chunkwise.chunkers import SentenceChunker, limit, resolve_chunker, split_spans
from guardrails_ai.chunkwise.cli import main
from guardrails_ai.chunkwise.cli.bench import find_benchmarks
from guardrails_ai.chunkwise.cli.demo import DEMO_PHRASES, sample_response, tokenize
from guardrails_ai.chunkwise.cli.errors import CommandError
from guardrails_ai.chunkwise.cli.inputs import iter_text
from guardrails_ai.chunkwise.cli.offline import metrics_disabled

SCRIPT = str(Path(sys.executable).with_name("chunkwise"))
MODULE = [sys.executable, "-m", "guardrails_ai.chunkwise"]
#: Generous: starting Guardrails takes seconds on a busy machine.
TIMEOUT = 300

TEXT = (
    "Dear Ms. Smith, the café opens at 9.30 today! Does it? “Yes,” she said.\r\n"
    "\r\n"
    "A second paragraph 👋 with\ttabs and an e-mail a@b.co.  \n\n"
    "Last words, no terminator"
)


def run(
    *args: str, stdin: str | bytes | None = None, cmd: list[str] | None = None, **kwargs: Any
) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        [*(cmd or [SCRIPT]), *args],
        input=data,
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
        **kwargs,
    )


def assert_one_line_error(code: int, stderr: str, *fragments: str, status: int = 2) -> None:
    assert code == status, stderr
    assert "Traceback" not in stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("chunkwise: error: "), stderr
    for fragment in fragments:
        assert fragment in lines[0]


def jsonl(out: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.decode().splitlines()]


# -- split ---------------------------------------------------------------------------


@pytest.mark.parametrize("chunker", ["sentence", "word", "paragraph"])
def test_split_file_jsonl_offsets_slice_the_input(tmp_path: Path, chunker: str) -> None:
    path = tmp_path / "doc.txt"
    path.write_bytes(TEXT.encode())
    done = run("split", str(path), "--chunker", chunker, "--format", "jsonl")
    assert done.returncode == 0, done.stderr
    rows = jsonl(done.stdout)
    assert [r["index"] for r in rows] == list(range(len(rows)))
    assert [TEXT[r["start"] : r["end"]] for r in rows] == [r["text"] for r in rows]
    assert [r["text"] for r in rows] == resolve_chunker(chunker).split_text(TEXT)  # type: ignore[union-attr]


def test_chunker_given_as_a_json_spec(tmp_path: Path) -> None:
    # An alias gives a chunker's defaults; a spec (as chunker.spec() writes
    # one) any of its options: a language's sentences, CRLF paragraphs, and a
    # window over a language's sentences for a validator.
    text = "Wir kamen am 12. Juni an. Es regnete.\r\n\r\nZweiter Absatz.\r\n\r\nEs regnete."
    path = tmp_path / "de.txt"
    path.write_bytes(text.encode())
    for spec in (SentenceChunker(language="de").spec(), {"chunker": "paragraph", "crlf": True}):
        done = run("split", str(path), "--chunker", json.dumps(spec), "--format", "jsonl")
        assert done.returncode == 0, done.stderr
        chunker = resolve_chunker(spec)
        assert [r["text"] for r in jsonl(done.stdout)] == chunker.split_text(text)  # type: ignore[union-attr]
    assert len(jsonl(done.stdout)) == 3
    spec = json.dumps(SentenceChunker(language="de").spec())
    done = run(
        "guard", "--validator", "no_repetition", "--chunker", spec, "--max-chars", "30", stdin=text
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == text[: text.rindex("Es regnete.")]


@pytest.mark.parametrize(
    "args", [[], ["--chunker", "paragraph"], ["--chunk-size", "2", "--overlap", "1"]]
)
def test_split_leaves_a_byte_order_mark_out_of_the_chunks(tmp_path: Path, args: list[str]) -> None:
    # Before: the mark opening a file saved with a UTF-8 signature began the first
    # chunk, or was a chunk of its own (no content) before a blank line.
    text = "\ufeff\n\nFirst lines here. Then more.\n\nA last paragraph."
    path = tmp_path / "signed.txt"
    path.write_bytes(text.encode())
    done = run("split", str(path), "--format", "jsonl", *args)
    assert done.returncode == 0, done.stderr
    rows = jsonl(done.stdout)
    assert rows and all("\ufeff" not in r["text"] for r in rows)
    assert [text[r["start"] : r["end"]] for r in rows] == [r["text"] for r in rows]
    if "--overlap" not in args:
        assert "".join("".join(r["text"] for r in rows).split()) == "".join(text[1:].split())


def test_split_help_says_which_chunker_each_size_option_defaults_to(tmp_path: Path) -> None:
    # Before: "[default: sentence; structure (the highest level) when a size is
    # given]", while --no-fill or --chunk-size under a size chunk sentences.
    text = "# Heading\n\nA first one. A second one.\n\nA third one."
    path = tmp_path / "doc.md"
    path.write_bytes(text.encode())
    sentences = resolve_chunker("sentence").split_text(text)  # type: ignore[union-attr]
    for sizing in (["--no-fill"], ["--chunk-size", "1"]):
        done = run("split", str(path), "--format", "jsonl", "--max-chars", "60", *sizing)
        assert [r["text"] for r in jsonl(done.stdout)] == sentences, done.stderr
    done = run("split", str(path), "--format", "jsonl", "--max-chars", "60")
    assert [r["text"] for r in jsonl(done.stdout)] != sentences
    shown = run("split", "--help", env={**os.environ, "COLUMNS": "400"}).stdout.decode()
    assert "structure (the highest level) when chunks are filled to a size" in " ".join(
        shown.split()
    )


def test_split_jsonl_rows_are_one_line_each_whatever_splits_lines() -> None:
    # Before: U+0085, U+2028 and U+2029 were written raw inside the JSON
    # strings (valid JSON), so a reader splitting lines as Python's
    # str.splitlines() does broke a row in two.
    text = "One\u2028two. Three\x85four. Five\u2029six.\n"
    done = run("split", "-", "--format", "jsonl", stdin=text)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert len(lines) == len(done.stdout.splitlines()) == 3
    rows = [json.loads(line) for line in lines]
    assert [text[r["start"] : r["end"]] for r in rows] == [r["text"] for r in rows]
    assert [r["text"] for r in rows] == SentenceChunker().split_text(text)


def test_split_stdin_via_python_m() -> None:
    done = run("split", "--chunker", "sentence", stdin="One. Two!  Three", cmd=MODULE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == "One.\nTwo!\nThree\n"
    done = run("split", "-", "--chunker", "word", "--format", "jsonl", stdin=TEXT, cmd=MODULE)
    rows = jsonl(done.stdout)
    assert [TEXT[r["start"] : r["end"]] for r in rows] == [r["text"] for r in rows]
    assert [r["text"] for r in rows] == TEXT.split()


def test_split_limits_and_overlap(tmp_path: Path) -> None:
    text = "One. Two two. Three three three. Four. " * 20 + "A sentence with no end"
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8")
    args = ["--max-chars", "40", "--chunk-size", "3", "--overlap", "1", "--format", "jsonl"]
    rows = jsonl(run("split", str(path), *args).stdout)
    spans = split_spans(limit("sentence", max_chars=40, chunk_size=3, overlap=1), text)
    assert [(r["start"], r["end"]) for r in rows] == spans
    assert all(text[r["start"] : r["end"]] == r["text"] and len(r["text"]) <= 40 for r in rows)
    assert any(b["start"] < a["end"] for a, b in itertools.pairwise(rows))  # overlaps
    args = ["--chunker", "sentence", "--max-chars", "12", "--no-fill", "--format", "jsonl"]
    bounded = jsonl(run("split", str(path), *args).stdout)
    assert [r["text"] for r in bounded] == limit("sentence", max_chars=12).split_text(text)
    grouped = run("split", "--chunk-size", "2", "--no-fill", stdin="One. Two. Three")
    assert (grouped.returncode, grouped.stdout) == (0, b"One. Two.\nThree\n")


def test_split_writes_no_chunk_of_whitespace_only(tmp_path: Path) -> None:
    # A size limit makes a whitespace run it cannot attach to a word a chunk
    # of its own (for streaming); a document's chunks are content.
    text = "Intro line.\n\n\n\n\n\n\nSupercalifragilistic is long"
    assert "\n" * 7 in limit("sentence", max_chars=20, fill=True).split_text(text)
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8")
    rows = jsonl(run("split", str(path), "--max-chars", "20", "--format", "jsonl").stdout)
    assert [(r["index"], r["text"]) for r in rows] == [
        (0, "Intro line."),
        (1, "Supercalifragilistic"),
        (2, "is long"),
    ]


@pytest.mark.parametrize(
    "sizing",
    [
        ["--chunk-size", "2", "--overlap", "1", "--max-chars", "5"],
        ["--max-chars", "9", "--overlap", "2"],
    ],
)
def test_split_with_overlap_numbers_the_rows_it_writes(tmp_path: Path, sizing: list[str]) -> None:
    # With --overlap (whole documents, split_spans) the index counted the
    # whitespace-only chunks left out, so rows went 0, 3, 6 (without
    # --overlap they go 0, 1, 2).
    text = "alpha       alpha\n\n\n\n   \n beta"
    path = tmp_path / "doc.txt"
    path.write_text(text, encoding="utf-8")
    rows = jsonl(run("split", str(path), *sizing, "--format", "jsonl").stdout)
    assert [r["text"] for r in rows] == ["alpha", "alpha", "beta"]
    assert [r["index"] for r in rows] == [0, 1, 2]
    assert all(text[r["start"] : r["end"]] == r["text"] for r in rows)


def test_split_fills_to_a_size_in_characters_or_tokens(tmp_path: Path) -> None:
    text = ("# Title\n\n" + "A sentence here, and more words. " * 30 + "\n\n") * 10
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    rows = jsonl(run("split", str(path), "--max-chars", "300", "--format", "jsonl").stdout)
    assert [r["text"] for r in rows] == limit("structure", max_chars=300, fill=True).split_text(
        text
    )
    assert statistics.median(len(r["text"]) for r in rows) >= 250
    args = ["--max-tokens", "64", "--tokenizer", "cl100k_base", "--overlap", "8"]
    rows = jsonl(run("split", str(path), *args, "--format", "jsonl").stdout)
    chunker = limit("structure", max_tokens=64, tokenizer="cl100k_base", fill=True, overlap=8)
    assert [(r["start"], r["end"]) for r in rows] == split_spans(chunker, text)


def test_split_never_imports_guardrails(tmp_path: Path) -> None:
    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    code = (
        "import sys\nfrom guardrails_ai.chunkwise.cli import main\n"
        f"status = main(['split', {str(path)!r}])\n"
        "assert status == 0 and 'guardrails' not in sys.modules, sorted(sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr.decode()


def test_split_with_guardrails_splitter_goes_offline_before_importing_it(tmp_path: Path) -> None:
    # `split --chunker guardrails` imported Guardrails with the user's HOME and
    # telemetry on: the set-up of the other commands had not run.
    path = tmp_path / "doc.txt"
    path.write_text("One. Two three.", encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    code = (
        "import os, sys\n"
        "from importlib.abc import MetaPathFinder\n"
        "seen = {}\n"
        "class Spy(MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'guardrails' and not seen:\n"
        "            seen.update(os.environ)\n"
        "sys.meta_path.insert(0, Spy())\n"
        "from guardrails_ai.chunkwise.cli import main\n"
        f"status = main(['split', {str(path)!r}, '--chunker', 'guardrails'])\n"
        "from guardrails.settings import settings\n"
        "assert status == 0 and 'guardrails' in sys.modules\n"
        "assert seen.get('LITELLM_LOCAL_MODEL_COST_MAP') == 'True', 'imported online'\n"
        f"assert seen['HOME'] != {str(home)!r}, 'imported with the user HOME'\n"
        "assert settings.rc.enable_metrics is False, settings.rc\n"
    )
    env = {**os.environ, "HOME": str(home)}
    env.pop("LITELLM_LOCAL_MODEL_COST_MAP", None)
    env.pop("OTEL_SDK_DISABLED", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=TIMEOUT, env=env, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode() == "One.\nTwo three.\n"
    assert list(home.iterdir()) == []  # the user's HOME is left alone


@pytest.mark.parametrize("command", [["split"], ["guard", "--phrases", "zzz"]])
# (One chunk of 2 MB: the pipe took its first 64 KiB, the reader left, and the
# write returned that short count without an error: the rest was dropped and
# the command ended with status 0.)
@pytest.mark.parametrize("text", ["Hello there. " * 400_000, "word " * 400_000 + "end."])
def test_a_reader_that_stops_early_ends_the_command_quietly(
    tmp_path: Path, command: list[str], text: str
) -> None:
    # `chunkwise ... | head -1`: a closed pipe is no validator's fault.
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.Popen(
        [SCRIPT, *command, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10)
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=TIMEOUT) == 1
    assert stderr == ""


def test_a_reader_gone_before_the_demo_writes_ends_it_quietly() -> None:
    proc = subprocess.Popen(
        [SCRIPT, "demo", "--no-delay"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before Guardrails is loaded: every write meets a closed pipe
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=TIMEOUT) == 1
    assert stderr == ""


def test_main_returns_the_status_of_a_closed_pipe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # main() returns its status: a closed pipe used to raise SystemExit (click's).
    path = tmp_path / "doc.txt"
    path.write_text("One. Two. Three", encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    with open(write, "w", encoding="utf-8") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert main(["split", str(path)]) == 1
        monkeypatch.undo()
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command",
    [
        ["split"],
        ["guard", "--phrases", "zzz"],
        ["demo", "--no-delay"],
        # (Click's own help text: a traceback.)
        ["--help"],
        ["split", "--help"],
    ],
)
def test_a_write_error_on_stdout_is_one_line_and_no_validators_fault(
    tmp_path: Path, command: list[str]
) -> None:
    # `chunkwise ... > /dev/full` printed a traceback (split, demo) or blamed a
    # validator (guard: "a validator raised OSError").
    path = tmp_path / "doc.txt"
    path.write_text("One. Two. Three", encoding="utf-8")
    whole = command[0] == "demo" or "--help" in command
    args = command if whole else [*command, str(path)]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [SCRIPT, *args], stdout=full, stderr=subprocess.PIPE, timeout=TIMEOUT, check=False
        )
    err = done.stderr.decode()
    assert_one_line_error(
        done.returncode, err, "cannot write to stdout: No space left on device", status=1
    )
    assert "validator" not in err


@pytest.mark.parametrize(
    ("command", "redirect", "message", "status"),
    [
        (["split"], ">&-", "cannot write to stdout: Bad file descriptor", 1),
        (["guard", "--phrases", "zzz"], ">&-", "cannot write to stdout: Bad file descriptor", 1),
        (["demo", "--no-delay"], ">&-", "cannot write to stdout: Bad file descriptor", 1),
        (["split", "-"], "<&-", "cannot read <stdin>: standard input is closed", 2),
        (["guard", "-"], "<&-", "cannot read <stdin>: standard input is closed", 2),
    ],
)
def test_a_closed_stdout_or_stdin_is_one_line_not_a_traceback(
    tmp_path: Path, command: list[str], redirect: str, message: str, status: int
) -> None:
    # `chunkwise split doc.txt >&-` and `chunkwise split <&-` printed an
    # AttributeError traceback: Python's sys.stdout / sys.stdin are None then.
    path = tmp_path / "doc.txt"
    path.write_text("One. Two. Three", encoding="utf-8")
    args = command if command[0] == "demo" or "-" in command else [*command, str(path)]
    done = subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {redirect}', SCRIPT, *args],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
    )
    assert_one_line_error(done.returncode, done.stderr.decode(), message, status=status)


@pytest.mark.parametrize(
    ("command", "out", "status"),
    [
        (["split"], b"One.\nTwo.\nThree\n", 0),
        (["split", "--format", "jsonl", "--max-chars", "4"], b'"index": 2', 0),
        (["guard", "--phrases", "zzz"], b"One. Two. Three", 0),
        (["guard", "--phrases", "two", "--on-fail", "exception"], b"One. ", 1),
        (["split", "--max-chars", "0"], b"", 2),  # the error has nowhere to go: its status
    ],
)
def test_a_closed_stderr_changes_nothing_but_the_error_line(
    tmp_path: Path, command: list[str], out: bytes, status: int
) -> None:
    # `chunkwise split doc.txt 2>&-` wrote nothing and exited 1: Python's
    # sys.stderr is None then, and the progress bar's check raised AttributeError
    # (so did writing an error line, which turned status 2 into 1).
    path = tmp_path / "doc.txt"
    path.write_text("One. Two. Three", encoding="utf-8")
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" 2>&-', SCRIPT, *command, str(path)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == status
    assert out in done.stdout if out else done.stdout == b""


def test_split_progress_bar_on_a_terminal_for_large_files(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text(("Lorem ipsum dolor sit amet. " * 2000 + "\n\n") * 20, encoding="utf-8")
    output, status = _in_terminal(
        [SCRIPT, "split", str(path), "--chunker", "paragraph"], stdout=subprocess.DEVNULL
    )
    assert status == 0, output
    assert "splitting" in CSI.sub("", output)  # drawn while it ran (then erased)


@pytest.mark.parametrize(
    ("args", "stdin", "fragments"),
    [
        (["split", "--chunker", "nope"], "x", ["unknown chunker 'nope'", "sentence"]),
        # (An empty --chunker was taken for no --chunker: the default chunker was used.)
        (["split", "--chunker", ""], "x", ["unknown chunker '' for --chunker"]),
        (["split", "/no/such/file"], None, ["cannot read /no/such/file"]),
        (["split"], b"caf\xc3\xa9 ok\n\xe2\x82", ["invalid UTF-8 at byte offset 9"]),
        (["split"], b"ab\xffc", ["<stdin>", "byte offset 2"]),
        (["split", "--format", "xml"], "x", ["--format"]),
        (["split", "--max-chars", "0"], "x", ["--max-chars must be >= 1"]),
        (["split", "--chunk-size", "2", "--overlap", "2"], "x", ["--overlap"]),
        # (The default --chunk-size is named as one, not blamed as given.)
        (["split", "--overlap", "5"], "x", ["--overlap=5 needs --chunk-size", "defaults to 1"]),
        # (Names inside a flag stay as they are: not --no---fill.)
        (["split", "--chunk-size", "2", "--fill", "--max-chars", "30"], "x", ["--no-fill"]),
        # (Options, not the library's parameters: no fill=True, no length.)
        (["split", "--fill"], "x", ["--fill needs --max-chars or --max-tokens"]),
        # (--no-fill without a size was accepted, and did nothing.)
        (["split", "--no-fill"], "x", ["--no-fill needs a size option", "--max-chars"]),
        (
            ["split", "--chunk-size", "2", "--max-tokens", "10"],
            "x",
            ["--chunk-size counts units under --max-chars only", "leave out --chunk-size"],
        ),
        (["split", "--bogus"], "x", ["--bogus"]),
        # A JSON spec for --chunker: invalid JSON, an unknown kind, a bad option.
        (["split", "--chunker", '{"chunker": '], "x", ["--chunker: not valid JSON", "column"]),
        (["split", "--chunker", '{"chunker": "nope"}'], "x", ["'nope'", "'sentence'"]),
        (
            ["guard", "--chunker", '{"chunker": "sentence", "language": "xx"}'],
            "x",
            ["language='xx' is not a supported language"],
        ),
        (["frobnicate"], None, ["frobnicate"]),
        (["demo", "--speed", "0"], None, ["--speed"]),
        (["demo", "--speed", "nan"], None, ["--speed", "nan"]),
        (["demo", "--speed", "inf"], None, ["--speed"]),
        (["demo", "--on-fail", "explode"], None, ["--on-fail"]),
        (["guard", "--option", "no-equals-sign"], "x", ["KEY=VALUE"]),
        (["guard", "/no/such/file"], None, ["cannot read /no/such/file"]),
        (["guard", "--options", "/no/such.toml"], "x", ["cannot read --options"]),
        (["bench", "--dir", "/no/such/dir"], None, ["no such directory"]),
    ],
)
def test_errors_are_one_line_with_status_2(
    args: list[str], stdin: str | bytes | None, fragments: list[str]
) -> None:
    done = run(*args, stdin=stdin)
    assert_one_line_error(done.returncode, done.stderr.decode(), *fragments)
    assert done.stdout == b""


def test_invalid_utf8_offset_through_python_m(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes("é".encode() * 200_000 + b"\xc3(")  # past the first read
    done = run("split", str(path), "--format", "jsonl", cmd=MODULE)
    assert_one_line_error(done.returncode, done.stderr.decode(), "byte offset 400000")


@given(
    data=st.binary(max_size=60) | st.text(max_size=30).map(str.encode),
    block=st.integers(1, 7),
)
def test_incremental_decoding_matches_one_decode(data: bytes, block: int) -> None:
    read, write = os.pipe()
    try:
        os.write(write, data)
        os.close(write)
        try:
            expected = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            # The text before the bad byte comes first, in whichever read it
            # arrives (it was lost with the read that held the bad byte).
            texts: list[str] = []
            with pytest.raises(CommandError, match=f"byte offset {exc.start} "):
                texts.extend(text for text, _ in iter_text(read, "-", block=block))
            assert "".join(texts) == data[: exc.start].decode("utf-8")
        else:
            assert "".join(text for text, _ in iter_text(read, "-", block=block)) == expected
    finally:
        os.close(read)


# -- demo ------------------------------------------------------------------------------


def expected_demo_output() -> str:
    from guardrails import Guard

    from guardrails_ai.chunkwise.cli.demo import demo_validators

    guard = Guard().use(*demo_validators(None, "fix"))
    return str(guard.validate(sample_response()).validated_output)


def table_rows(out: str) -> dict[str, list[str]]:
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells and cells[0].startswith("chunkwise/"):
            rows[cells[0]] = cells[1:]
    return rows


def test_sample_response_has_what_the_demo_promises() -> None:
    text = sample_response()
    assert "@example.com" in text and "4111 1111 1111 1111" in text
    assert all(p in text for p in DEMO_PHRASES)
    assert text.count("Is there anything else I can help you with?") >= 3
    assert text.rstrip()[-1] not in ".!?"
    longest = max(resolve_chunker("sentence").split_text(text), key=len)  # type: ignore[union-attr]
    assert len(tokenize(longest)) > 50  # one sentence straddles many deltas
    assert "".join(tokenize(text)) == text


def test_demo_plain_releases_the_validated_text_offline(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    guard = tmp_path / "guard"
    guard.mkdir()
    attempts = tmp_path / "network.log"
    (guard / "sitecustomize.py").write_text(
        "import socket\n"
        "def _deny(*args, **kwargs):\n"
        f"    open({str(attempts)!r}, 'a').write(repr(args[:2]) + '\\n')\n"
        "    raise OSError('network disabled by the test')\n"
        "socket.getaddrinfo = _deny\n"
        "socket.socket.connect = _deny\n"
    )
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(guard)}
    env.pop("LITELLM_LOCAL_MODEL_COST_MAP", None)
    env.pop("OTEL_SDK_DISABLED", None)
    proc = subprocess.Popen(
        [SCRIPT, "demo", "--no-delay"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    expected = expected_demo_output()  # meanwhile, here: Guardrails validating it at once
    stdout, stderr = proc.communicate(timeout=TIMEOUT)
    out = stdout.decode()
    assert proc.returncode == 0, stderr.decode()
    assert not attempts.exists(), attempts.read_text()
    assert list(home.iterdir()) == []  # the user's HOME is left alone
    assert "<EMAIL>" in expected and "<CARD>" in expected and DEMO_PHRASES[0] not in expected
    assert out.startswith(expected + "\n\n"), out
    rows = table_rows(out)
    chunks = len(resolve_chunker("sentence").split_text(sample_response()))  # type: ignore[union-attr]
    # validator: chunker, on_fail, chunks, failed, fixed, µs/chunk
    assert rows["chunkwise/banned_phrases"][:5] == ["sentence", "fix", str(chunks), "1", "1"]
    assert re.fullmatch(r"sentence ≤\d+", rows["chunkwise/redact_pii"][0])
    assert rows["chunkwise/redact_pii"][1:5] == ["fix", str(chunks), "1", "1"]
    assert rows["chunkwise/no_repetition"][:5] == ["sentence", "fix", str(chunks), "3", "3"]
    # The repeats are gone before the last validator sees the text.
    assert rows["chunkwise/max_chunk_length"][:5] == ["sentence", "fix", str(chunks - 3), "1", "1"]
    assert f"{len(sample_response())} characters received" in out


@pytest.mark.usefixtures("in_process")
def test_demo_on_fail_exception_stops_and_says_why(capfd: pytest.CaptureFixture[str]) -> None:
    status = main(["demo", "--no-delay", "--on-fail", "exception", "--chunker", "paragraph"])
    out, err = capfd.readouterr()
    assert status == 1
    assert out.startswith("Thanks for getting in touch!")
    assert "see guaranteed" not in out and "jane.doe" not in out  # never released
    assert "Validation stopped the stream: " in out and "banned phrases" in out
    assert table_rows(out)["chunkwise/banned_phrases"][:5] == [
        "paragraph",
        "exception",
        "2",
        "1",
        "0",
    ]
    assert "Traceback" not in err
    assert_one_line_error(status, err, "on_fail=exception", status=1)


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize("alias", ["sentence-simple", "Sentence-Simple", "guardrails"])
def test_demo_summary_names_the_chunker_given(
    capfd: pytest.CaptureFixture[str], alias: str
) -> None:
    # The simple sentence chunker's own alias is its kind, "sentence": the
    # summary named it so, for every validator, whichever alias was given.
    status = main(["demo", "--no-delay", "--chunker", alias])
    out, err = capfd.readouterr()
    assert status == 0, err
    rows = table_rows(out)
    assert len(rows) == 4
    assert {row[0] for row in rows.values()} == {alias.lower()}


@pytest.mark.usefixtures("in_process")
def test_demo_takes_the_chunker_as_a_json_spec(capfd: pytest.CaptureFixture[str]) -> None:
    # Before: the demo checked the spec, then handed the validators the JSON
    # text as a chunker alias: "is not a known chunker", status 2.
    spec = json.dumps({"chunker": "sentence", "language": "de"})
    status = main(["demo", "--no-delay", "--plain", "--chunker", spec])
    out, err = capfd.readouterr()
    assert status == 0, err
    rows = table_rows(out)
    assert len(rows) == 4
    assert {row[0] for row in rows.values()} == {repr(SentenceChunker(language="de"))}
    status = main(["demo", "--no-delay", "--chunker", json.dumps({"chunker": "word"})])
    assert_one_line_error(status, capfd.readouterr().err, "--chunker: ", "WordChunker()")


def test_chunker_name_is_the_alias_that_builds_the_chunker() -> None:
    from guardrails_ai.chunkwise.chunkers import FixedSizeChunker
    from guardrails_ai.chunkwise.cli.watch import chunker_name

    assert chunker_name(resolve_chunker("sentence")) == "sentence"
    assert chunker_name(resolve_chunker("sentence-simple")) == "sentence-simple"
    assert chunker_name(limit("sentence-simple", max_chars=80)) == "sentence-simple ≤80"
    assert chunker_name(FixedSizeChunker(size=90)) == repr(FixedSizeChunker(size=90))


CSI = re.compile(r"\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]")


def screen_of(output: str, width: int = 100) -> str:
    """What a terminal shows after ``output``: enough of VT100 for rich's Live.

    Handles printable text, CR, LF, cursor up (``CSI n A``) and erase line
    (``CSI 2K``); other escape sequences (colours, cursor visibility) are
    skipped.  Returns the screen's lines, trailing spaces stripped.
    """
    lines: list[list[str]] = [[]]
    row = col = 0
    pos = 0
    for match in [*CSI.finditer(output), None]:
        end = match.start() if match else len(output)
        for char in output[pos:end]:
            if char == "\r":
                col = 0
            elif char == "\n":
                row, col = row + 1, 0
                while len(lines) <= row:
                    lines.append([])
            elif char >= " ":
                line = lines[row]
                line.extend(" " * (col + 1 - len(line)))
                line[col] = char
                col = min(col + 1, width)
        if match is None:
            break
        pos = match.end()
        params, final = match.group(1) or "", match.group(2)
        if final == "A":
            row = max(0, row - int(params or 1))
        elif final == "K" and params == "2":
            lines[row] = []
    return "\n".join("".join(line).rstrip() for line in lines).strip("\n")


def _in_terminal(argv: list[str], **kwargs: Any) -> tuple[str, int]:
    """Run ``argv`` with a pseudo-terminal as its terminal; return what it wrote."""
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "50"}
    env.pop("NO_COLOR", None)
    streams = {"stdin": follower, "stdout": follower, "stderr": follower, **kwargs}
    proc = subprocess.Popen(argv, env=env, close_fds=True, **streams)
    os.close(follower)
    chunks = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 1.0)
        if ready:
            try:
                data = os.read(leader, 1 << 16)
            except OSError:  # EIO: the terminal closed
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(leader)
    status = proc.wait(timeout=TIMEOUT)
    return b"".join(chunks).decode("utf-8", "replace"), status


def test_demo_in_a_terminal_shows_live_panel_and_summary() -> None:
    output, status = _in_terminal([SCRIPT, "demo", "--no-delay"])
    screen = screen_of(output)
    assert status == 0, screen
    assert "Traceback" not in screen
    assert "only validated text is released" in screen
    assert "pending (not validated yet)" in screen  # the legend
    assert "╭" in screen and "│ validator" in screen  # rich's boxes, not the ASCII table
    # The last frame: the whole validated response, then the summary.
    released = expected_demo_output()
    panel = [line.strip("│ ").strip() for line in screen.splitlines() if line.startswith("│")]
    shown = " ".join(" ".join(panel).split())
    assert " ".join(released.split()) in shown
    assert "jane.doe" not in screen and "4111" not in screen
    assert "Summary" in screen and "held back at most" in screen
    for name in ("banned_phrases", "redact_pii", "no_repetition", "max_chunk_length"):
        assert f"chunkwise/{name}" in screen


# -- guard -----------------------------------------------------------------------------


def _read_until(stream: Any, wanted: bytes, got: bytearray) -> None:
    deadline = time.monotonic() + TIMEOUT
    while wanted not in got:
        assert time.monotonic() < deadline, f"timed out waiting for {wanted!r}; got {got!r}"
        ready, _, _ = select.select([stream], [], [], 1.0)
        if ready:
            data = os.read(stream.fileno(), 4096)
            assert data, f"output ended before {wanted!r}; got {got!r}"
            got += data


def test_guard_releases_output_before_the_input_ends() -> None:
    # The producer writes deltas and waits for the test between them; the second
    # pause falls inside the two bytes of "é".
    producer_code = (
        "import os, sys\n"
        "for part in (b'Hello there. The bad wo', b'rd is here. Caf\\xc3', b'\\xa9 open. Bye'):\n"
        "    os.write(1, part)\n"
        "    sys.stdin.readline()\n"
    )
    read, write = os.pipe()
    producer = subprocess.Popen(
        [sys.executable, "-c", producer_code], stdin=subprocess.PIPE, stdout=write
    )
    os.close(write)
    guard = subprocess.Popen(
        [
            SCRIPT,
            "guard",
            "--validator",
            "banned_phrases",
            "--phrases",
            "bad word,nope",
            "--chunker",
            "sentence",
            "--on-fail",
            "fix",
        ],
        stdin=read,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(read)
    assert producer.stdin is not None and guard.stdout is not None
    got = bytearray()
    try:
        _read_until(guard.stdout, b"Hello there. ", got)
        assert producer.poll() is None  # the input has not ended
        producer.stdin.write(b"\n")
        producer.stdin.flush()
        _read_until(guard.stdout, b"The *** **** is here. ", got)
        producer.stdin.write(b"\n")
        producer.stdin.flush()
        _read_until(guard.stdout, "Café open. ".encode(), got)
        assert producer.poll() is None
        producer.stdin.write(b"\n")
        producer.stdin.close()
        got += guard.stdout.read()
    finally:
        producer.wait(timeout=TIMEOUT)
        status = guard.wait(timeout=TIMEOUT)
    assert got.decode() == "Hello there. The *** **** is here. Café open. Bye"
    assert status == 0, guard.stderr.read() if guard.stderr else ""


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run ``main`` here; undo what the command does to this process."""
    monkeypatch.setitem(os.environ, "HOME", os.environ["HOME"])
    had_litellm = "litellm" in sys.modules
    yield
    if not had_litellm and sys.modules.get("litellm", 0) is None:
        del sys.modules["litellm"]


def guard_main(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, text: str | bytes, *args: str
) -> tuple[int, str, str]:
    path = tmp_path / "input.txt"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    status = main(["guard", str(path), *args])
    out, err = capfd.readouterr()
    return status, out, err


@pytest.mark.usefixtures("in_process")
def test_guard_exit_status_follows_on_fail(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "Mail jane@example.com today. Thanks"
    status, out, _ = guard_main(capfd, tmp_path, text, "--validator", "redact_pii")
    assert (status, out) == (0, "Mail <EMAIL> today. Thanks")
    status, out, _ = guard_main(
        capfd, tmp_path, text, "--validator", "redact_pii", "--on-fail", "noop"
    )
    assert (status, out) == (1, text)
    status, out, _ = guard_main(
        capfd, tmp_path, text, "--validator", "chunkwise/redact_pii", "--on-fail", "filter"
    )
    assert (status, out) == (1, "Thanks")  # the failing sentence is dropped, and the space after it
    status, out, err = guard_main(
        capfd, tmp_path, text, "--validator", "RedactPII", "--on-fail", "exception"
    )
    assert out == ""
    assert_one_line_error(status, err, "redact_pii failed 1 of 1 chunk", "exception", status=1)


@pytest.mark.usefixtures("in_process")
def test_guard_options_from_flags_and_files(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = "Spam. Spam. Spam. Spam. Eggs"
    args = ["--validator", "no_repetition", "--chunker", "sentence"]
    status, out, _ = guard_main(capfd, tmp_path, text, *args, "--option", "max_repeats=2")
    assert (status, out) == (0, "Spam. Spam.   Eggs")
    toml = tmp_path / "opts.toml"
    toml.write_text("max_repeats = 3\n")
    status, out, _ = guard_main(capfd, tmp_path, text, *args, "--options", str(toml))
    assert (status, out) == (0, "Spam. Spam. Spam.  Eggs")
    # Later settings win: the file, then each --option in the order given.
    later = ["--options", str(toml), "-o", "no_repetition:max_repeats=1", "-o", "max_repeats=2"]
    status, out, _ = guard_main(capfd, tmp_path, text, *args, *later)
    assert (status, out) == (0, "Spam. Spam.   Eggs")
    js = tmp_path / "opts.json"
    js.write_text('{"phrases": ["eggs"], "mask": "#"}')
    status, out, _ = guard_main(capfd, tmp_path, text, "--options", str(js))
    assert (status, out) == (0, "Spam. Spam. Spam. Spam. ####")
    # A hub validator installed from PyPI (the test extra) works too.
    status, out, _ = guard_main(capfd, tmp_path, "SHOUT. quiet", "--validator", "lowercase")
    assert (status, out) == (0, "shout. quiet")


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize("on_fail", ["noop", "filter", "refrain", "exception"])
def test_guard_exit_status_counts_a_hub_validator_that_overrides_validate(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, on_fail: str
) -> None:
    # LowerCase overrides validate(), not _validate(): its failures were not
    # counted, so the command exited 0 after releasing or dropping the text;
    # under exception it printed Guardrails' message, which quotes the text.
    text = "Hi. My Secret Word. ok"
    args = ["--validator", "lowercase", "--on-fail", on_fail]
    status, _, err = guard_main(capfd, tmp_path, text, *args)
    assert status == 1
    assert "lowercase failed" in err and f"on_fail={on_fail}" in err
    assert "Secret" not in err


@pytest.fixture
def odd_validators() -> Iterator[None]:
    """Two validators a hub could ship: one compiles an option as a regex
    (``re.error`` is not a ``ValueError``), one crashes on any text."""
    from guardrails.validator_base import (
        PassResult,
        Validator,
        register_validator,
        validators_registry,
    )

    @register_validator(name="test/compiles_regex", data_type="string")
    class CompilesRegex(Validator):
        def __init__(self, regex: str = "x", on_fail: Any = None) -> None:
            super().__init__(on_fail=on_fail, regex=regex)
            self._rx = re.compile(regex)

        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return PassResult()

    @register_validator(name="test/crashes_on_text", data_type="string")
    class CrashesOnText(Validator):
        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            raise RuntimeError(f"cannot handle {value}")

    yield
    for name in ("test/compiles_regex", "test/crashes_on_text"):
        validators_registry.pop(name, None)


@pytest.mark.usefixtures("in_process", "odd_validators")
@pytest.mark.parametrize(
    ("args", "text", "fragments"),
    [
        (["--validator", "nope"], "x", ["unknown validator 'nope'", "banned_phrases"]),
        # (with_chunker's id rebuilds overrides from a guard's dict: no validator.)
        (["--validator", "with_chunker"], "x", ["unknown validator 'with_chunker'"]),
        (["--chunker", "nope"], "x", ["unknown chunker 'nope'", "guardrails", "word"]),
        (["--option", "colour=1"], "x", ["unknown option 'colour'", "phrases"]),
        (["--option", "on_fail=1"], "x", ["unknown option 'on_fail'", "--on-fail"]),
        (["--validator", "no_repetition", "-o", "max_repeats=0"], "x", ["max_repeats"]),
        (["-o", "nope:max_repeats=2"], "x", ["no --validator named 'nope'"]),
        (
            ["--validator", "no_repetition", "-o", "redact_pii:entities=[]"],
            "x",
            ["no --validator named 'redact_pii'"],
        ),
        (
            ["--validator", "no_repetition", "--validator", "redact_pii", "-o", "phrases=[]"],
            "x",
            ["unknown option 'phrases'", "NoRepetition takes", "RedactPII takes"],
        ),
        (
            ["--validator", "compiles_regex", "-o", "regex=["],
            "x",
            ["validator CompilesRegex", "error"],
        ),
        (["--validator", "crashes_on_text"], "x", ["raised RuntimeError while validating"]),
        ([], "x", ["phrases"]),  # banned_phrases without phrases
        (["--phrases", "a"], b"fine \xc3\xa9 then \xed\xa0\x80", ["byte offset 13"]),
    ],
)
def test_guard_errors_are_one_line(
    capfd: pytest.CaptureFixture[str],
    tmp_path: Path,
    args: list[str],
    text: str | bytes,
    fragments: list[str],
) -> None:
    status, out, err = guard_main(capfd, tmp_path, text, *args)
    assert_one_line_error(status, err, *fragments)
    assert out == ""


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize("option", ["language=de", "unit=paragraph"])
@pytest.mark.parametrize(
    "sizing", [["--max-chars", "800"], ["--max-tokens", "512"], ["--chunker", "sentence"]]
)
def test_guard_says_which_flags_clash_with_an_option_that_picks_the_chunker(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, option: str, sizing: list[str]
) -> None:
    # -o language=de (or unit=) picks the chunker, as --chunker and a window
    # do: the error named the library's chunker=... (with its repr), which
    # the user never gave, instead of the flags and how to combine them.
    args = ["--validator", "no_repetition", "-o", option, *sizing]
    status, out, err = guard_main(capfd, tmp_path, "Eins. Zwei.", *args)
    key = option.split("=")[0]
    assert_one_line_error(status, err, f"--option {key}=", sizing[0], '"language": "de"')
    assert "chunker=" not in err and "Bounded" not in err
    assert out == ""


@pytest.mark.usefixtures("in_process")
def test_guard_releases_the_text_before_invalid_utf8(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # (Text read with the bad byte was never validated: with the bad byte in
    # the first read, nothing was released, unlike a bad byte in a later read.)
    text = b"Good morning. Is it fine? \xff and then"
    status, out, err = guard_main(capfd, tmp_path, text, "--phrases", "nope")
    assert_one_line_error(status, err, "byte offset 26")
    assert out == "Good morning. "


@pytest.mark.usefixtures("in_process")
def test_guard_takes_several_validators_in_order(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 12: a repeated --validator used to keep only the last one.
    text = "Mail jane@example.com about free money today. Thanks"
    both = ["--validator", "redact_pii", "--validator", "banned_phrases"]
    status, out, err = guard_main(capfd, tmp_path, text, *both, "--phrases", "free money")
    assert (status, out, err) == (0, "Mail <EMAIL> about **** ***** today. Thanks", "")
    # VALIDATOR:KEY targets one validator; a plain KEY every validator taking it.
    status, out, _ = guard_main(
        capfd,
        tmp_path,
        text,
        *both,
        "-o",
        'banned_phrases:phrases=["today"]',
        "-o",
        "banned_phrases:mask=#",
    )
    assert (status, out) == (0, "Mail <EMAIL> about free money #####. Thanks")
    toml = tmp_path / "opts.toml"
    toml.write_text('[banned_phrases]\nphrases = ["mail"]\n')
    status, out, _ = guard_main(capfd, tmp_path, text, *both, "--options", str(toml))
    assert (status, out) == (0, "**** <EMAIL> about free money today. Thanks")


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize(
    ("on_fail", "fate"),
    [("noop", "released unchanged"), ("filter", "dropped"), ("refrain", "withheld")],
)
def test_guard_unfixed_failures_say_what_failed(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, on_fail: str, fate: str
) -> None:
    text = "Mail jane@example.com today. Thanks"
    status, _, err = guard_main(
        capfd, tmp_path, text, "--validator", "redact_pii", "--on-fail", on_fail
    )
    assert_one_line_error(
        status, err, "redact_pii failed 1 of", f"on_fail={on_fail}", fate, status=1
    )
    assert "jane" not in err  # never the text itself


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize("on_fail", ["refrain", "exception"])
def test_guard_failure_line_leaves_out_failures_past_a_stop(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, on_fail: str
) -> None:
    # redact_pii validates the e-mail's sentence before banned_phrases stops the
    # stream on the sentence before it (the file is one read); whether it does
    # depends on the slicing, so the line (like the guard's history) leaves it out.
    text = "Free money here. Mail me at jo@example.com now."
    status, out, err = guard_main(
        capfd,
        tmp_path,
        text,
        *("--validator", "redact_pii", "--validator", "banned_phrases"),
        *("--phrases", "free money", "--on-fail", on_fail),
    )
    assert out == ""
    assert_one_line_error(status, err, "banned_phrases failed 1 of 1 chunk", status=1)
    assert "redact_pii" not in err


@pytest.mark.usefixtures("in_process")
def test_guard_chunker_for_a_hub_validator(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Issue 12: --chunker was refused for hub validators; with_chunker applies it.
    status, out, err = guard_main(
        capfd,
        tmp_path,
        "SHOUT. quiet\n\nMORE",
        "--validator",
        "lowercase",
        "--chunker",
        "paragraph",
    )
    assert (status, out, err) == (0, "shout. quiet\n\nmore", "")


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize("sizing", [["--chunker", "paragraph"], ["--max-chars", "500"]])
def test_guard_failure_names_a_hub_validator_given_a_chunker(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, sizing: list[str]
) -> None:
    # A hub validator given --chunker (or a window) runs under with_chunker,
    # whose rail_alias is chunkwise/with_chunker: the failure line named that,
    # not the validator the user chose.
    args = ["--validator", "lowercase", *sizing, "--on-fail", "noop"]
    status, _, err = guard_main(capfd, tmp_path, "SHOUT. quiet", *args)
    assert_one_line_error(status, err, "guardrails/lowercase failed 1 of", status=1)
    assert "with_chunker" not in err


def test_guard_bad_options_files(tmp_path: Path) -> None:
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("max_repeats = = 2\n")
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("[1, 2]")
    yaml = tmp_path / "opts.yaml"
    yaml.write_text("max_repeats: 2\n")
    for path, fragment in (
        (bad_toml, "invalid TOML"),
        (bad_json, "expected a table"),
        (yaml, r"invalid JSON \(a file not named .toml is JSON\)"),
    ):
        with pytest.raises(CommandError, match=fragment):
            from guardrails_ai.chunkwise.cli.guard import collect_options

            collect_options([], path, [])


@pytest.mark.usefixtures("in_process")
def test_guard_options_file_serves_several_commands(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Tables for validators not selected were refused ("no --validator named").
    shared = tmp_path / "shared.toml"
    shared.write_text(
        '[banned_phrases]\nphrases = ["free money"]\n\n'
        "[no_repetition]\nmax_repeats = 2\n\n"
        '[RedactPII]\nentities = ["email"]\n'
    )
    text = "Mail jane@example.com about free money. Thanks"
    status, out, err = guard_main(
        capfd, tmp_path, text, "--validator", "redact_pii", "--options", str(shared)
    )
    assert (status, out, err) == (0, "Mail <EMAIL> about free money. Thanks", "")
    status, out, err = guard_main(capfd, tmp_path, text, "--options", str(shared))
    assert (status, out, err) == (0, "Mail jane@example.com about **** *****. Thanks", "")


@pytest.mark.usefixtures("in_process")
@pytest.mark.parametrize(
    ("table", "fragments"),
    [
        # A misspelt table is no validator's: an error, not dropped.
        (
            '[banned_phrase]\nphrases = ["secret words"]\n',
            ["--options", "table 'banned_phrase' names no known validator", "banned_phrases"],
        ),
        # So is a misspelt key in the table of a validator not selected.
        ("[no_repetition]\nmax_repeat = 2\n", ["unknown option 'max_repeat'", "max_repeats"]),
        # Before: an empty table was never looked at, so its name was not either.
        ("[no_repetitions]\n", ["table 'no_repetitions' names no known validator"]),
    ],
    ids=["misspelt-table", "misspelt-key", "misspelt-empty-table"],
)
def test_guard_options_file_tables_name_known_validators(
    capfd: pytest.CaptureFixture[str], tmp_path: Path, table: str, fragments: list[str]
) -> None:
    path = tmp_path / "opts.toml"
    path.write_text(table)
    status, out, err = guard_main(
        capfd, tmp_path, "x", "--validator", "redact_pii", "--options", str(path)
    )
    assert_one_line_error(status, err, *fragments)
    assert "secret" not in err  # the values are never quoted
    assert out == ""


# -- bench and offline set-up ---------------------------------------------------------


def test_bench_runs_the_scripts_it_finds(tmp_path: Path) -> None:
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    (folder / "tiny.py").write_text("print('| size | µs |')\n")
    (folder / "_helper.py").write_text("raise SystemExit('helpers are not benchmarks')\n")
    done = run("bench", "--dir", str(folder))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().splitlines() == ["== tiny", "| size | µs |"]
    done = run("bench", "--dir", str(folder), "--only", "huge")
    assert_one_line_error(done.returncode, done.stderr.decode(), "unknown benchmark 'huge'", "tiny")
    (folder / "broken.py").write_text("raise SystemExit(3)\n")
    done = run("bench", "--dir", str(folder), "--only", "broken")
    assert done.returncode == 1 and "broken (exit status 3)" in done.stderr.decode()


def test_no_arguments_print_the_help_once() -> None:
    done = run()
    assert done.returncode == 0
    assert (done.stdout + done.stderr).decode().count("Usage: chunkwise") == 1


def test_every_benchmark_script_of_the_checkout_prints_a_table() -> None:
    # Modules the scripts import (data, helpers) start with "_": a script that
    # defines no main and prints nothing is no benchmark.
    folder = find_benchmarks(None)
    for script in folder.glob("[!_]*.py"):
        assert "__main__" in script.read_text(encoding="utf-8"), script.name


def test_bench_looks_in_the_folder_that_holds_the_cli() -> None:
    # In an editable install that folder is the checkout (cli/ sits at its top),
    # wherever the command is run from; installed, it is the package.
    from guardrails_ai.chunkwise.cli import bench

    assert (bench._roots()[0] / "cli" / "bench.py").is_file()


def test_bench_outside_a_checkout_says_it_needs_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from guardrails_ai.chunkwise.cli import bench

    monkeypatch.setattr(bench, "_roots", lambda: [tmp_path])
    with pytest.raises(CommandError, match="need a source checkout"):
        find_benchmarks(None)


@pytest.mark.parametrize(
    ("content", "disabled"),
    [
        ("enable_metrics=false\n", True),
        ("id=x\nenable_metrics = 'False'\n", True),
        ("enable_metrics=true\n", False),
        ("id=x\n", False),
        (None, False),
        # (The first line was taken; Guardrails takes the last: metrics were sent.)
        ("enable_metrics=false\nenable_metrics=true\n", False),
        ("enable_metrics=true\nenable_metrics=false\n", True),
    ],
)
def test_metrics_disabled_reads_the_rc_file(
    tmp_path: Path, content: str | None, disabled: bool
) -> None:
    rc = tmp_path / ".guardrailsrc"
    if content is not None:
        rc.write_text(content)
    assert metrics_disabled(rc) is disabled
    if disabled:  # only what Guardrails itself reads as metrics off
        from guardrails.classes.rc import RC

        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("HOME", str(tmp_path))
            assert RC.load().enable_metrics is not True


@pytest.mark.usefixtures("in_process")
def test_guard_memory_grows_with_the_response_only(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Counted, not timed: the peak of memory allocated (tracemalloc) while the
    # command streams N and then 2N characters.  What the N more characters
    # add to the peak is a small multiple of their own size (the response is
    # held a few times over: text received, released, Guardrails' history);
    # Guardrails' tracing used to serialize the whole iteration at the end of
    # the stream, a peak of about 15 times the response.
    size = 400_000
    text = prose(2 * size, seed=3)
    args = ("--validator", "banned_phrases", "--phrases", "nope", "--chunker", "sentence")
    assert guard_main(capfd, tmp_path, "Warm up. Bye", *args)[:2] == (0, "Warm up. Bye")
    peaks = []
    for part in (text[:size], text):
        tracemalloc.start()
        try:
            status, out, _ = guard_main(capfd, tmp_path, part, *args)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
        assert (status, out) == (0, part)
    added = sys.getsizeof(text) - sys.getsizeof(text[:size])
    assert peaks[1] - peaks[0] <= 8 * added, (peaks, added)


def test_guard_fits_the_validators_window_in_tokens() -> None:
    text = "Short one. " + "A very long sentence that goes on " * 6 + "and ends. Bye"
    args = [
        "guard",
        "--validator",
        "max_chunk_length",
        "--option",
        "max_words=16",
        "--on-fail",
        "noop",
    ]
    whole = run(*args, "--chunker", "sentence", stdin=text)
    assert whole.returncode == 1  # one sentence of 44 words; 16 tokens hold 16 words at most
    windowed = run(*args, "--max-tokens", "16", "--tokenizer", "cl100k_base", stdin=text)
    assert windowed.returncode == 0, windowed.stderr.decode()
    assert windowed.stdout.decode() == text
    bad = run(*args, "--max-tokens", "0", stdin=text)
    assert_one_line_error(bad.returncode, bad.stderr.decode(), "--max-tokens must be >= 1")


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    done = run("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == f"chunkwise {version('guardrails-ai-chunkwise')}\n"
    assert "--version" in run("--help").stdout.decode()


def test_help_states_the_exit_statuses() -> None:
    done = run("--help", env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    words = " ".join(done.stdout.decode().split())
    for status in (
        "0 when everything written passed",
        "1 when a validator's failure",
        "2 for a usage error",
    ):
        assert status in words
