"""Example tests pinning each documented rule of the built-in chunkers.

The rules come from mellea 0.6.0's ``mellea.stdlib.chunking`` reference
(SentenceChunker, WordChunker, ParagraphChunker).  The sentence chunker is
always built as ``SentenceChunker(mode="simple")``: that mode is the documented
rule, whatever the default mode becomes.  The last sections pin the errors for
bad arguments and the path for foreign ``split``/``flush`` objects.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import re

import pytest

from guardrails_ai.chunkwise.chunkers import (
    ChunkingStrategy,
    ChunkStream,
    Cut,
    ParagraphChunker,
    Piece,
    RegexChunker,
    RescanScanner,
    Scanner,
    SentenceChunker,
    WordChunker,
    aliases,
    limit,
    resolve_chunker,
)

SENTENCE = SentenceChunker(mode="simple")
WORD = WordChunker()
PARAGRAPH = ParagraphChunker()
PARAGRAPH_CRLF = ParagraphChunker(crlf=True)


def streamed(chunker: object, text: str, size: int = 1) -> list[str]:
    """Chunks of ``text`` streamed through ChunkStream in ``size``-character deltas."""
    stream = ChunkStream(chunker)  # type: ignore[arg-type]
    pieces: list[Piece] = []
    for i in range(0, len(text), size):
        pieces += stream.feed(text[i : i + size])
    pieces += stream.close()
    assert "".join(p.segment for p in pieces) == text
    return [p.chunk for p in pieces if p.chunk is not None]


# --------------------------------------------------------------------------- sentences


@pytest.mark.parametrize("terminator", [".", "!", "?"])
def test_sentence_ends_at_each_terminator_followed_by_whitespace(terminator: str) -> None:
    text = f"One{terminator} Two"
    assert SENTENCE.split(text) == [f"One{terminator}"]
    assert SENTENCE.flush(text) == ["Two"]


@pytest.mark.parametrize("closer", ['"', "'", "\u201d", "\u2019", ")"])
def test_one_closing_quote_or_parenthesis_stays_with_the_sentence(closer: str) -> None:
    text = f"He said (hi.{closer} Then"
    assert SENTENCE.split(text) == [f"He said (hi.{closer}"]
    assert SENTENCE.flush(text) == ["Then"]


@pytest.mark.parametrize("closers", ["))", '")', "\u201d\u2019", "]", "\u201c", "\u2018", "}"])
def test_only_one_listed_closer_may_sit_between_terminator_and_whitespace(closers: str) -> None:
    # Two closers, a bracket, or an *opening* curly quote: no boundary.
    text = f"It ends.{closers} here"
    assert SENTENCE.split(text) == []
    assert SENTENCE.flush(text) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "a; b: c, d",
        "Wait\u2026 more",  # the one-character ellipsis is not a terminator
        "\u6587\u3002 \u6587",  # nor is the ideographic full stop
        "pi is 3.14 roughly",  # a terminator inside a word is not a boundary
        "see example.com now",
        "a.b.c d",
    ],
)
def test_other_punctuation_and_inner_terminators_do_not_end_a_sentence(text: str) -> None:
    assert SENTENCE.split(text) == []
    assert SENTENCE.flush(text) == [text]


def test_ascii_ellipsis_ends_a_sentence_at_its_last_dot() -> None:
    assert SENTENCE.split("Wait... Then") == ["Wait..."]


@pytest.mark.parametrize("ws", [" ", "  ", "\t", "\n", "\r\n", " \t\n ", "\u00a0", "\u3000"])
def test_any_whitespace_after_a_terminator_completes_it_and_is_dropped(ws: str) -> None:
    text = f"First.{ws}Second!{ws}Third"
    assert SENTENCE.split(text) == ["First.", "Second!"]
    assert SENTENCE.flush(text) == ["Third"]


def test_a_sentence_is_withheld_until_whitespace_follows_its_terminator() -> None:
    assert SENTENCE.split("Done.") == []
    assert SENTENCE.flush("Done.") == ["Done."]
    assert SENTENCE.split("Done. ") == ["Done."]
    assert SENTENCE.flush("Done. ") == []


def test_newlines_inside_a_sentence_stay_in_it() -> None:
    assert SENTENCE.split("line one\nline two. Next") == ["line one\nline two."]


def test_abbreviations_are_split_on_in_simple_mode() -> None:
    # Documented limitation: "simple regex, not NLP".
    assert SENTENCE.split("Dr. Smith arrived. ") == ["Dr.", "Smith arrived."]


def test_a_chunk_never_begins_with_whitespace_even_at_the_start_of_the_text() -> None:
    # Deliberate choice.  mellea 0.6.0's code keeps leading whitespace at the
    # very start of the text in the first sentence ("  Hello."), while its docs
    # say inter-sentence whitespace never leads a chunk and flush strips
    # leading and trailing whitespace.  We follow the docs everywhere: no chunk,
    # first or not, split or flushed, begins (or ends) with whitespace.  The
    # leading whitespace is kept losslessly in the first segment.
    text = "  \n Hello. World"
    assert SENTENCE.split(text) == ["Hello."]
    assert SENTENCE.flush(text) == ["World"]
    assert SENTENCE.segments(text) == ["  \n Hello. ", "World"]
    assert SENTENCE.flush(" \t lone fragment") == ["lone fragment"]


def test_flush_strips_the_fragment_but_keeps_its_inner_whitespace() -> None:
    assert SENTENCE.flush("A. \t two  words \n") == ["two  words"]


@pytest.mark.parametrize("text", ["", " ", " \t\r\n ", "Ends. ", "Ends.\n\n", "A! B? "])
def test_sentence_flush_is_empty_without_a_fragment(text: str) -> None:
    assert SENTENCE.flush(text) == []


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_sentence_split_of_empty_or_whitespace_only_text_is_empty(text: str) -> None:
    assert SENTENCE.split(text) == []
    assert SENTENCE.split_text(text) == []


def test_sentence_segments_keep_the_dropped_whitespace() -> None:
    text = "Hi.\tThere!  Yes? no"
    assert SENTENCE.split(text) == ["Hi.", "There!", "Yes?"]
    assert SENTENCE.segments(text) == ["Hi.\t", "There!  ", "Yes? ", "no"]
    assert SENTENCE.split_text(text) == ["Hi.", "There!", "Yes?", "no"]


def test_sentence_mode_is_checked() -> None:
    with pytest.raises(ValueError, match=r"mode='fancy'.*'simple'"):
        SentenceChunker(mode="fancy")
    with pytest.raises(TypeError, match=r"mode must be a str .*got int"):
        SentenceChunker(mode=1)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- words


def test_each_whitespace_delimited_word_is_a_chunk_punctuation_included() -> None:
    text = "Hello, world! It's\tnew\n"
    assert WORD.split(text) == ["Hello,", "world!", "It's", "new"]
    assert WORD.flush(text) == []


def test_the_last_word_is_withheld_until_whitespace_follows() -> None:
    assert WORD.split("one two") == ["one"]
    assert WORD.flush("one two") == ["two"]
    assert WORD.split("one") == []
    assert WORD.flush("one") == ["one"]


@pytest.mark.parametrize("ws", ["  ", "\t", "\r\n", "\u00a0", "\u2003", " \n\t "])
def test_whitespace_runs_of_any_kind_separate_words_and_are_dropped(ws: str) -> None:
    text = f"{ws}a{ws}b{ws}c"
    assert WORD.split(text) == ["a", "b"]
    assert WORD.flush(text) == ["c"]
    assert WORD.segments(text) == [f"{ws}a{ws}", f"b{ws}", "c"]


@pytest.mark.parametrize("text", ["", " ", "\n\t ", "a ", "a b\n"])
def test_word_flush_is_empty_when_the_text_ends_in_whitespace_or_is_empty(text: str) -> None:
    assert WORD.flush(text) == []


# --------------------------------------------------------------------------- paragraphs


def test_two_or_more_newlines_separate_paragraphs_and_are_dropped() -> None:
    text = "P1 line1\nline2\n\nP2\n\n\n\nP3"
    assert PARAGRAPH.split(text) == ["P1 line1\nline2", "P2"]
    assert PARAGRAPH.flush(text) == ["P3"]
    assert PARAGRAPH.segments(text) == ["P1 line1\nline2\n\n", "P2\n\n\n\n", "P3"]


def test_the_trailing_paragraph_is_withheld_until_a_blank_line_follows() -> None:
    assert PARAGRAPH.split("P1\n") == []
    assert PARAGRAPH.split("P1\n\n") == ["P1"]


def test_paragraph_flush_is_byte_for_byte() -> None:
    text = "First\n\n  indented\ttail  \n"
    assert PARAGRAPH.flush(text) == ["  indented\ttail  \n"]
    assert PARAGRAPH.flush("only\n") == ["only\n"]


@pytest.mark.parametrize("text", ["", "P\n\n", "P\n\n\n", "\n\n"])
def test_paragraph_flush_is_empty_after_a_separator_or_on_empty_text(text: str) -> None:
    assert PARAGRAPH.flush(text) == []


def test_paragraph_whitespace_is_kept_inside_chunks() -> None:
    assert PARAGRAPH.split("  spaced  \n\nnext") == ["  spaced  "]
    assert PARAGRAPH.split(" \n\nnext") == [" "]  # a paragraph of spaces is a paragraph


def test_one_leading_newline_belongs_to_the_first_paragraph() -> None:
    assert PARAGRAPH.split("\nA\n\nB") == ["\nA"]
    assert PARAGRAPH.flush("\n") == ["\n"]
    assert PARAGRAPH.flush("\nA") == ["\nA"]


def test_two_or_more_leading_newlines_open_no_paragraph() -> None:
    assert PARAGRAPH.split("\n\nA\n\nB") == ["A"]
    assert PARAGRAPH.split("\n\n\nA") == []
    assert PARAGRAPH.flush("\n\n\nA") == ["A"]
    assert PARAGRAPH.segments("\n\nA\n\nB") == ["\n\nA\n\n", "B"]


def test_crlf_is_not_a_paragraph_separator_by_default() -> None:
    # Documented limitation of mellea's ParagraphChunker, kept as the default.
    text = "A\r\n\r\nB"
    assert PARAGRAPH.split(text) == []
    assert PARAGRAPH.flush(text) == [text]


@pytest.mark.parametrize("sep", ["\r\n\r\n", "\n\r\n", "\r\n\n", "\r\n\r\n\r\n", "\n\n"])
def test_crlf_option_accepts_crlf_line_breaks_in_separators(sep: str) -> None:
    text = f"a\r\nb{sep}c\r\n"
    assert PARAGRAPH_CRLF.split(text) == ["a\r\nb"]
    assert PARAGRAPH_CRLF.flush(text) == ["c\r\n"]
    assert PARAGRAPH_CRLF.segments(text) == [f"a\r\nb{sep}", "c\r\n"]


def test_crlf_option_ignores_lone_carriage_returns() -> None:
    assert PARAGRAPH_CRLF.split("a\r\rb\r\n") == []
    assert PARAGRAPH_CRLF.split("a\r\n\r\n") == ["a"]
    assert PARAGRAPH_CRLF.flush("a\r\n\r\n") == []


def test_crlf_option_is_checked_and_shown() -> None:
    with pytest.raises(TypeError, match="crlf"):
        ParagraphChunker(crlf="yes")  # type: ignore[arg-type]
    assert repr(PARAGRAPH_CRLF) == "ParagraphChunker(crlf=True)"
    assert PARAGRAPH_CRLF != PARAGRAPH
    assert ParagraphChunker(crlf=True) == PARAGRAPH_CRLF


@pytest.mark.parametrize("chunker", [SENTENCE, WORD, PARAGRAPH, PARAGRAPH_CRLF], ids=repr)
def test_empty_text_has_no_chunks(chunker: ChunkingStrategy) -> None:
    assert chunker.split("") == chunker.flush("") == chunker.segments("") == []


@pytest.mark.parametrize("text", [" ", "   ", " \t ", "\u3000"])
def test_whitespace_only_text(text: str) -> None:
    # Sentences and words hold no whitespace-only chunk; a paragraph is
    # returned byte for byte, whitespace included.
    for chunker in (SENTENCE, WORD):
        assert chunker.split(text) == chunker.flush(text) == []
        assert chunker.segments(text) == [text]
    assert PARAGRAPH.split(text) == []
    assert PARAGRAPH.flush(text) == [text]


# --------------------------------------------------------------------------- streaming


@pytest.mark.parametrize(
    ("chunker", "text"),
    [
        (SENTENCE, "  Hi.\tThere!  \u201cYes?\u201d no.  "),
        (WORD, " a  bb\tccc\n"),
        (PARAGRAPH, "\nA\n\n\nB\nC\n\n"),
        (PARAGRAPH_CRLF, "A\r\n\r\nB\r\n"),
    ],
)
def test_streaming_one_character_at_a_time_gives_split_plus_flush(
    chunker: ChunkingStrategy, text: str
) -> None:
    assert streamed(chunker, text) == chunker.split(text) + chunker.flush(text)


def test_pieces_carry_segment_and_chunk_offsets() -> None:
    stream = ChunkStream(SENTENCE)
    assert stream.feed("Hi.") == []  # no whitespace yet: undecided
    (first,) = stream.feed(" Th")
    assert first == Piece("Hi. ", "Hi.", 0, 4, 0, 3)
    assert (first.before, first.after) == ("", " ")
    assert stream.feed("ere") == []
    assert stream.pending == "There"
    assert stream.position == 9
    (last,) = stream.close()
    assert last == Piece("There", "There", 4, 9, 4, 9, final=True)
    assert stream.close() == []


def test_a_piece_is_built_field_by_field_and_stays_frozen() -> None:
    # Piece's own __init__ (faster than the dataclass's) takes the fields in order.
    names = [f.name for f in dataclasses.fields(Piece)]
    assert list(inspect.signature(Piece).parameters) == names
    values = ("Hi. ", "Hi.", 0, 4, 0, 3, True)
    piece = Piece(*values)
    assert [getattr(piece, n) for n in names] == list(values)
    assert piece == Piece(**dict(zip(names, values, strict=True))) != Piece(*values[:-1])
    assert hash(piece) == hash(Piece(*values))
    assert pickle.loads(pickle.dumps(piece)) == piece == copy.copy(piece)
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.start = 1  # type: ignore[misc]


def test_whitespace_cut_short_by_a_delta_leads_the_next_segment() -> None:
    stream = ChunkStream(SENTENCE)
    (first,) = stream.feed("Hi. ")
    assert first.segment == "Hi. "
    assert stream.feed("  There") == []
    (last,) = stream.close()
    assert (last.segment, last.chunk, last.before) == ("  There", "There", "  ")


def test_a_closing_separator_only_segment_has_no_chunk() -> None:
    stream = ChunkStream(SENTENCE)
    pieces = stream.feed("Done.  ") + stream.feed("\n")
    pieces += stream.close()
    assert "".join(p.segment for p in pieces) == "Done.  \n"
    assert [p.chunk for p in pieces if p.chunk is not None] == ["Done."]


def test_chunk_stream_defaults_to_sentences() -> None:
    assert isinstance(ChunkStream().strategy, SentenceChunker)


def test_feed_after_close_is_an_error() -> None:
    stream = ChunkStream(WORD)
    stream.feed("a b")
    stream.close()
    with pytest.raises(ValueError, match="closed"):
        stream.feed("c")


class _FailsOnce:
    """A split/flush strategy (as mellea's) whose second ``split`` raises."""

    def __init__(self) -> None:
        self.calls = 0

    def split(self, text: str) -> list[str]:
        self.calls += 1
        if self.calls == 2:
            raise RuntimeError("transient")
        return WordChunker().split(text)

    def flush(self, text: str) -> list[str]:
        return WordChunker().flush(text)


def _fails_on_third_call(text: str) -> int:
    _fails_on_third_call.calls += 1  # type: ignore[attr-defined]
    if _fails_on_third_call.calls == 3:  # type: ignore[attr-defined]
        raise RuntimeError("transient")
    return len(text)


@pytest.mark.parametrize("make", ["split_flush", "length"])
def test_a_stream_whose_strategy_raised_refuses_to_go_on(make: str) -> None:
    # The strategy may have taken part of the failed delta: later pieces
    # were cut at the wrong offsets (or an unrelated IndexError came later).
    if make == "split_flush":
        stream = ChunkStream(_FailsOnce())
    else:
        _fails_on_third_call.calls = 0  # type: ignore[attr-defined]
        stream = ChunkStream(limit("word", max_chars=8, length=_fails_on_third_call))
    with pytest.raises(RuntimeError, match="transient"):
        for delta in ["alph", "a be", "ta g", "amma", " del", "ta e"]:
            stream.feed(delta)
    for call in (lambda: stream.feed("more "), lambda: stream.feed(""), stream.close):
        with pytest.raises(ValueError, match="an earlier feed"):
            call()


class _FlushFailsOnce:
    """A split/flush strategy whose first ``flush`` raises."""

    def __init__(self) -> None:
        self.flushed = 0

    def split(self, text: str) -> list[str]:
        return WordChunker().split(text)

    def flush(self, text: str) -> list[str]:
        self.flushed += 1
        if self.flushed == 1:
            raise RuntimeError("transient")
        return WordChunker().flush(text)


def test_a_stream_whose_close_raised_refuses_to_go_on() -> None:
    # Before: a second close() returned [] as if nothing were left, though the
    # text after the last piece was never released (it is still pending).
    stream = ChunkStream(_FlushFailsOnce())
    (first,) = stream.feed("alpha beta")
    with pytest.raises(RuntimeError, match="transient"):
        stream.close()
    assert first.segment + stream.pending == "alpha beta"
    assert stream.position == len("alpha beta")
    for call in (stream.close, lambda: stream.feed("more"), lambda: stream.feed("")):
        with pytest.raises(ValueError, match="an earlier feed\\(\\) or close\\(\\) raised"):
            call()


# --------------------------------------------------------------------------- aliases


@pytest.mark.parametrize(
    ("alias", "cls"),
    [("sentence", SentenceChunker), ("word", WordChunker), ("paragraph", ParagraphChunker)],
)
def test_aliases_resolve_to_the_built_ins(alias: str, cls: type) -> None:
    assert alias in aliases()
    assert isinstance(resolve_chunker(alias), cls)
    assert isinstance(resolve_chunker(f" {alias.upper()} "), cls)
    assert isinstance(ChunkStream(alias).strategy, cls)


def test_a_strategy_instance_is_used_as_given() -> None:
    assert resolve_chunker(PARAGRAPH_CRLF) is PARAGRAPH_CRLF


def test_unknown_alias_is_a_value_error_listing_the_choices() -> None:
    with pytest.raises(ValueError) as info:
        resolve_chunker("sentense", param="chunker")
    message = str(info.value)
    assert "chunker='sentense'" in message
    for alias in aliases():
        assert repr(alias) in message
    with pytest.raises(ValueError, match="'sentense'"):
        ChunkStream("sentense")


@pytest.mark.parametrize("bad", [None, 42, 3.5, b"sentence", object(), ["sentence"]])
def test_a_non_strategy_is_a_type_error_listing_the_choices(bad: object) -> None:
    with pytest.raises(TypeError) as info:
        resolve_chunker(bad, param="my_chunker")  # type: ignore[arg-type]
    message = str(info.value)
    assert message.startswith("my_chunker")
    assert all(repr(alias) in message for alias in aliases())
    with pytest.raises(TypeError):
        ChunkStream(bad)  # type: ignore[arg-type]


def test_an_object_with_split_but_no_flush_is_a_type_error() -> None:
    class SplitOnly:
        def split(self, accumulated_text: str) -> list[str]:
            return []

    with pytest.raises(TypeError, match="SplitOnly"):
        resolve_chunker(SplitOnly())  # type: ignore[arg-type]


@pytest.mark.parametrize("cls", [SentenceChunker, WordChunker, ParagraphChunker])
def test_a_class_instead_of_an_instance_is_a_type_error(cls: type) -> None:
    with pytest.raises(TypeError, match=re.escape(f"{cls.__name__}()")):
        resolve_chunker(cls)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- bad text


BAD_TEXT = [None, b"Hi. There", 42]


@pytest.mark.parametrize("bad", BAD_TEXT)
@pytest.mark.parametrize("method", ["split", "flush", "split_text", "segments", "locate"])
def test_non_str_text_is_a_type_error_naming_it(bad: object, method: str) -> None:
    with pytest.raises(TypeError, match=rf"text must be str, got {type(bad).__name__}"):
        getattr(SENTENCE, method)(bad)


@pytest.mark.parametrize("bad", BAD_TEXT)
def test_non_str_delta_is_a_type_error_naming_it(bad: object) -> None:
    stream = ChunkStream(WORD)
    with pytest.raises(TypeError, match=rf"delta must be str, got {type(bad).__name__}"):
        stream.feed(bad)  # type: ignore[arg-type]


class _Text(str):
    """A ``str`` subclass, as some libraries hand out."""


def test_a_str_subclass_is_a_delta_as_it_is_a_text() -> None:
    # split/locate took it; feed refused it ("delta must be str, got Text").
    stream = ChunkStream(WORD)
    pieces = stream.feed(_Text("a b ")) + stream.feed(_Text("c")) + stream.close()
    assert [p.chunk for p in pieces] == WORD.split_text(_Text("a b c")) == ["a", "b", "c"]
    assert all(type(p.segment) is str for p in pieces)


def test_bytes_delta_error_says_to_decode() -> None:
    with pytest.raises(TypeError, match="decode"):
        ChunkStream(WORD).feed(b"abc")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- foreign objects


class MelleaLikeSentences:
    """A stateless split/flush object written the way mellea writes one (rescanning)."""

    _end = re.compile("[.!?][\"'\u201d\u2019)]?\\s")

    def _scan(self, text: str) -> tuple[list[str], str]:
        chunks = []
        rest = text.lstrip()
        while (m := self._end.search(rest)) is not None:
            chunks.append(rest[: m.end() - 1])
            rest = rest[m.end() :].lstrip()
        return chunks, rest

    def split(self, accumulated_text: str) -> list[str]:
        return self._scan(accumulated_text)[0]

    def flush(self, accumulated_text: str) -> list[str]:
        fragment = self._scan(accumulated_text)[1].strip()
        return [fragment] if fragment else []


class Inventing(MelleaLikeSentences):
    """Returns chunks that are not in the text: must never be cut by guesswork."""

    def split(self, accumulated_text: str) -> list[str]:
        return [c.upper() for c in super().split(accumulated_text)]


class InventingFlush(MelleaLikeSentences):
    def flush(self, accumulated_text: str) -> list[str]:
        return ["not in the text"]


class NotAList(MelleaLikeSentences):
    def split(self, accumulated_text: str) -> list[str]:
        return tuple(super().split(accumulated_text))  # type: ignore[return-value]


class TwoFragments(MelleaLikeSentences):
    def flush(self, accumulated_text: str) -> list[str]:
        return ["a", "b"]


@pytest.mark.parametrize("size", [1, 3, 7, 100])
def test_a_foreign_split_flush_object_works_through_the_rescanning_path(size: int) -> None:
    text = " One.  Two!\tThree? (Four.) five"
    foreign = MelleaLikeSentences()
    stream = ChunkStream(foreign)  # type: ignore[arg-type]
    assert stream.strategy is foreign
    assert isinstance(stream._scanner, RescanScanner)
    expected = foreign.split(text) + foreign.flush(text)
    assert expected == ["One.", "Two!", "Three?", "(Four.)", "five"]
    assert streamed(foreign, text, size) == expected


def test_a_foreign_split_returning_text_not_in_the_input_is_a_value_error() -> None:
    stream = ChunkStream(Inventing())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"split returned a chunk \(str of 4 characters\) that"):
        stream.feed("One. Two")


def test_a_foreign_flush_returning_text_not_in_the_input_is_a_value_error() -> None:
    stream = ChunkStream(InventingFlush())  # type: ignore[arg-type]
    stream.feed("One. Two")
    with pytest.raises(ValueError, match=r"flush returned a chunk \(str of 15 characters\) that"):
        stream.close()


def test_a_foreign_split_must_return_a_list_of_str() -> None:
    with pytest.raises(TypeError, match="list of str"):
        ChunkStream(NotAList()).feed("One. Two")  # type: ignore[arg-type]


def test_a_scanner_must_end_the_stream_one_way_or_the_other() -> None:
    class Endless(Scanner):
        def feed(self, delta: str) -> list[Cut]:
            return []

    with pytest.raises(TypeError, match="Endless must override finish"):
        Endless().close()

    class ClosingCut(Endless):
        def close(self) -> tuple[list[Cut], tuple[int, int] | None]:
            return [Cut(0, 2, 3)], (3, 5)

    # finish() gives what is left as one span.
    assert ClosingCut().finish() == (0, 5)


def test_a_foreign_flush_may_return_several_chunks() -> None:
    # mellea's contract allows a list: each chunk is validated, in order.
    stream = ChunkStream(TwoFragments())  # type: ignore[arg-type]
    assert stream.feed("a b") == []
    pieces = stream.close()
    assert [(p.segment, p.chunk, p.final) for p in pieces] == [("a", "a", False), (" b", "b", True)]


def test_the_guardrails_alias_works_in_a_process_that_imported_only_chunkers() -> None:
    # The alias is registered by the adapters, which the registry imports by name
    # on first use; before, ChunkStream("guardrails") failed until adapters was imported.
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from guardrails_ai.chunkwise.chunkers import ChunkStream, aliases\n"
        "assert 'guardrails_ai.chunkwise.adapters' not in sys.modules\n"
        "assert 'guardrails' in aliases()\n"
        "s = ChunkStream('guardrails')\n"
        "print([p.chunk for p in s.feed('One. Two. Th') + s.close()])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "['One.', 'Two.', 'Th']"


def test_type_errors_name_the_type_never_the_text() -> None:
    # The value may be a user's text in the wrong type (bytes): it is PII, never quoted.
    from guardrails_ai.chunkwise.chunkers import ChunkStream, SentenceChunker, limit

    secret = b"mail jo@example.com"
    for call in (
        lambda: ChunkStream("sentence").feed(secret),  # type: ignore[arg-type]
        lambda: SentenceChunker().split(secret),  # type: ignore[arg-type]
        lambda: limit("sentence", max_chars=50).split_text(secret),  # type: ignore[arg-type]
        lambda: limit("sentence", max_tokens=50).split_text(secret),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError) as raised:
            call()
        assert "jo@example" not in str(raised.value) and "bytes" in str(raised.value)


def test_a_long_bad_argument_is_cut_in_the_message() -> None:
    # A value may be user text: messages show its first 80 characters at most.
    long = "q" * 500
    for build, error in (
        (lambda: ParagraphChunker(crlf=long), TypeError),  # type: ignore[arg-type]
        (lambda: resolve_chunker(long), ValueError),
        (lambda: RegexChunker("(" + long), ValueError),
    ):
        with pytest.raises(error) as raised:
            build()
        assert "q" * 81 not in str(raised.value)
