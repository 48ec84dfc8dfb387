# ruff: noqa: RUF001
# (Full-width CJK terminators in the examples are meant.)
"""Quotations in ``SentenceChunker`` (``chunkers/sentence/quotes.py``): a
sentence end inside a quotation ends no chunk.  Each rule pinned by examples of
our own, then the invariants: lossless, delta invariance (the marks are read
ahead of the cuts), and linear work on texts made of quotation marks."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from guardrails import AsyncGuard
from helpers.chunking import check_stream, sliced, stream
from helpers.cost import MAX_DOUBLING, MAX_WORK_PER_CHAR, count_work, stream_work
from helpers.guardrails import Record, arun, guard_with, joined, run
from helpers.oracles import quoted_layout
from hypothesis import example, given
from hypothesis import strategies as st

from guardrails_ai.chunkwise import disable_validated_streaming, enable_validated_streaming
from guardrails_ai.chunkwise.chunkers import ChunkStream, SentenceChunker, resolve_chunker
from guardrails_ai.chunkwise.chunkers.base import Cut
from guardrails_ai.chunkwise.chunkers.sentence import fast_path, quotes
from guardrails_ai.chunkwise.chunkers.sentence import scanner as scanner_module
from guardrails_ai.chunkwise.chunkers.sentence.abbreviations import ELIDED_WORDS
from guardrails_ai.chunkwise.chunkers.sentence.languages import LANGUAGES
from guardrails_ai.chunkwise.chunkers.sentence.marks import (
    BRACKET_QUOTES,
    QUOTE_OPEN_AFTER,
    QUOTE_PAIRS,
    SPACED_CLOSERS,
    SPACED_QUOTES,
    UNSPACED_LETTERS,
)
from guardrails_ai.chunkwise.chunkers.sentence.quotes import QUOTE_MAX
from guardrails_ai.chunkwise.chunkers.sentence.scanner import KEEP_MAX, SentenceScanner

ACCURATE = SentenceChunker()

# (text, sentences): each rule in a few sentences of our own.
EXAMPLES = [
    # Dialogue: the sentences inside one quotation stay together.
    (
        'She looked up. "Oh no! We missed the bus. What now?" Then she laughed.',
        ["She looked up.", '"Oh no! We missed the bus. What now?"', "Then she laughed."],
    ),
    (
        '"Wait. Stop," he said. "Listen."',
        ['"Wait. Stop," he said.', '"Listen."'],
    ),
    # A quotation that ends its sentence, then another.
    ('"Ready?" "Yes." Go.', ['"Ready?"', '"Yes."', "Go."]),
    # A single mark before a digit is an apostrophe (a year, a decade).
    (
        "We loved the '90s. Music was louder. Class of \u201823. We won.",
        ["We loved the '90s.", "Music was louder.", "Class of \u201823.", "We won."],
    ),
    # So is a single mark before an elided English word and what ends it.
    (
        "We stayed 'til dawn. Then we left. 'Tis true. Rock 'n' roll. Hit 'em. The 'sixties. "
        "A whole 'nother story. I'm 'fraid so. Done.",
        [
            "We stayed 'til dawn.",
            "Then we left.",
            "'Tis true.",
            "Rock 'n' roll.",
            "Hit 'em.",
            "The 'sixties.",
            "A whole 'nother story.",
            "I'm 'fraid so.",
            "Done.",
        ],
    ),
    # And before Dutch elided words ('s avonds, 't, 'k, 'ns) and German
    # articles ('ne, 'nen), as before a quoted letter.
    (
        "'k Weet het. Het is 's avonds koud. We blijven binnen. Hoe gaat 't? Goed. "
        "Kijk 'ns hier. Ich hab 'ne Frage. Gib mir 'nen Tipp. Press 's' now. Done.",
        [
            "'k Weet het.",
            "Het is 's avonds koud.",
            "We blijven binnen.",
            "Hoe gaat 't?",
            "Goed.",
            "Kijk 'ns hier.",
            "Ich hab 'ne Frage.",
            "Gib mir 'nen Tipp.",
            "Press 's' now.",
            "Done.",
        ],
    ),
    # Chinese puts no space around a quotation: after a full-width colon or
    # comma a mark opens, and a closing mark closes before a CJK letter.
    (
        "他说：“我明天来。等我。”然后走了。她问，“真的吗？”他点头。",
        ["他说：“我明天来。等我。”", "然后走了。", "她问，“真的吗？”", "他点头。"],
    ),
    # Korean attaches a particle to the closing mark: the quotation closes there.
    (
        '그는 "좋아"라고 했다. 그리고 "내일 갈게."라고 덧붙였다. 나는 웃었다.',
        ['그는 "좋아"라고 했다.', '그리고 "내일 갈게."라고 덧붙였다.', "나는 웃었다."],
    ),
    ("그녀는 '사과'는 달다고 했다. 맞다.", ["그녀는 '사과'는 달다고 했다.", "맞다."]),
    # (Not before a longer word: 'emma' is a quotation.)
    ("She said 'emma is here. Go.' Then left.", ["She said 'emma is here. Go.'", "Then left."]),
    # ('Cause may open a quotation in single quotes: it is left to the rule.)
    (
        "'Cause I said so. That is why,' he said. Fine.",
        ["'Cause I said so. That is why,' he said.", "Fine."],
    ),
    # Single quotes; apostrophes inside words open and close nothing.
    (
        "'Really? I can't believe it! It's true?' asked Sam. Nobody knew.",
        ["'Really? I can't believe it! It's true?' asked Sam.", "Nobody knew."],
    ),
    ("Don't go. It's late. We're done.", ["Don't go.", "It's late.", "We're done."]),
    # A plural possessive after an open single quote closes it (a known cost
    # of straight quotes); without an open one it is only an apostrophe.
    ("The dogs' owner came. She left.", ["The dogs' owner came.", "She left."]),
    # Curly quotes, and a quotation inside another.
    (
        "\u201cIs it far? \u2018Not at all,\u2019 they said. Fine.\u201d We went.",
        ["\u201cIs it far? \u2018Not at all,\u2019 they said. Fine.\u201d", "We went."],
    ),
    (
        "He said, \"Ask them: 'Who is it? Why now?' Then wait.\" I did.",
        ["He said, \"Ask them: 'Who is it? Why now?' Then wait.\"", "I did."],
    ),
    # German („...“ and »...«) and French (« ... ») quotations.
    (
        "Sie sagte: „Ich komme. Warte auf mich.“ Dann ging sie.",
        ["Sie sagte: „Ich komme. Warte auf mich.“", "Dann ging sie."],
    ),
    (
        "Er rief: »Halt! Nicht weiter!« Alle blieben stehen.",
        ["Er rief: »Halt! Nicht weiter!«", "Alle blieben stehen."],
    ),
    (
        "Il a dit : « Non. Pas aujourd'hui », puis il est parti. Fin.",
        ["Il a dit : « Non. Pas aujourd'hui », puis il est parti.", "Fin."],
    ),
    # A French closing guillemet after a space (or a no-break space) closes
    # the sentence as a closer would, when whitespace follows it; before a
    # comma or a lower-case word the sentence goes on.
    (
        "Il a dit « Viens. » Puis il est parti. Fin.",
        ["Il a dit « Viens. »", "Puis il est parti.", "Fin."],
    ),
    (
        "Elle a crié\u00a0« Attends\u00a0!\u202f» Personne n'a répondu.",
        ["Elle a crié\u00a0« Attends\u00a0!\u202f»", "Personne n'a répondu."],
    ),
    ("« Oui. », a-t-il dit. « Non. » puis rien.", ["« Oui. », a-t-il dit.", "« Non. » puis rien."]),
    ("C'est fini. « Pourquoi ? » Parce que.", ["C'est fini.", "« Pourquoi ? »", "Parce que."]),
    # CJK quotation brackets, and title brackets: a terminator inside a title
    # ends no sentence.
    ("彼は「はい。行きます。」と言った。次。", ["彼は「はい。行きます。」と言った。", "次。"]),
    # ... closed after an ASCII "!" or "?" typed in CJK text, which ends a
    # sentence as its full-width form does (the particle rule included).
    ("「行こう!」「うん。」", ["「行こう!」", "「うん。」"]),
    (
        "「本当?」と聞いた。「はい!」そして笑った。",
        ["「本当?」と聞いた。", "「はい!」", "そして笑った。"],
    ),
    # ... closing a Latin terminator, as a quotation mark does.
    ("She wrote 「Done.」 Then she slept.", ["She wrote 「Done.」", "Then she slept."]),
    ("「Ready?」と聞いた。", ["「Ready?」と聞いた。"]),
    # ... and their half-width forms, typed with half-width kana.
    ("ｶﾚﾊ｢ﾊｲ｡ｲｷﾏｽ｡｣と言った｡次｡", ["ｶﾚﾊ｢ﾊｲ｡ｲｷﾏｽ｡｣と言った｡", "次｡"]),
    ("彼は言った｡｢来て｡｣そして去った｡", ["彼は言った｡", "｢来て｡｣", "そして去った｡"]),
    ("你看过《加油！中国》吗？看过。", ["你看过《加油！中国》吗？", "看过。"]),
    ("他推荐《你好。世界》给我。我很喜欢。", ["他推荐《你好。世界》给我。", "我很喜欢。"]),
    ("我读了〈序？〉这篇。好。", ["我读了〈序？〉这篇。", "好。"]),
    # Marks that open nothing: an inch mark, a quote glued to a word.
    ('Buy a 6" pipe. Then a 3" one. Done.', ['Buy a 6" pipe.', 'Then a 3" one.', "Done."]),
    ('He typed x"y. It failed. Again.', ['He typed x"y.', "It failed.", "Again."]),
    # A line break closes every quotation: none spans two lines.
    (
        '- Type "yes. Then\n- Press enter" and wait.',
        ['- Type "yes.', "Then", '- Press enter" and wait.'],
    ),
]


@pytest.mark.parametrize(("text", "sentences"), EXAMPLES)
def test_quotation_rules(text: str, sentences: list[str]) -> None:
    assert ACCURATE.split_text(text) == sentences
    one_by_one = stream(ACCURATE, list(text))
    assert [p.chunk for p in one_by_one if p.chunk is not None] == sentences


def test_a_quotation_longer_than_the_limit_keeps_no_sentences_together() -> None:
    body = "Go on. " * (QUOTE_MAX // 7 + 1)
    long = f'"{body.strip()}" Done.'
    assert len(ACCURATE.split_text(long)) > 2
    short = f'"{"Go on. " * 3}then." Done.'
    assert ACCURATE.split_text(short) == [short[: short.index(" Done")], "Done."]


def test_an_unclosed_quotation_waits_for_the_limit_then_releases() -> None:
    # The sentences after an opening mark are withheld until QUOTE_MAX
    # characters have arrived without its closing mark; then they go out.
    text = '"Start here. ' + "More words. " * (QUOTE_MAX // 12 + 2) + "End."
    assert ACCURATE.split(text[:200]) == []
    assert ACCURATE.split(text)[0] == '"Start here.'
    # At the end of the text, the withheld sentences form the final fragment.
    assert ACCURATE.split_text('Hi. "One. Two.') == ["Hi.", '"One. Two.']


def test_simple_mode_has_no_quotation_rule() -> None:
    simple = SentenceChunker(mode="simple")
    assert simple.split_text('"One. Two." Three.') == ['"One.', 'Two."', "Three."]


QUOTE_TOKENS = [
    "Hi", "it's", "dogs'", "6", "x", "Yes", "no", "「はい", "」と", "「", "」", "。", "a)", "1.",
    "Mr.", ")", '"', "'", "\u201c", "\u201d", "\u2018", "\u2019", "\u201e", "«", "»", "(", "-",
    "《", "》", "〈", "〉", "！", "'90s", "'til", "'em", "'Tis", "'n'", "'e", "'emma", "'caused",
    "他说：", "来", "，", "'s", "'t", "'ns", "'sa", "'ne", "'nett", "｢ﾊｲ", "｣と", "｣", "｡",
]  # fmt: skip
ENDS = [
    "", "", ".", "!", "?", '."', ".'", "\u3002", ",", ".\u201d", "!«", "?»", ".»«", "。«", ". »",
    "!\u00a0»", ". » »",
]  # fmt: skip
GAPS = [" ", " ", "", "\n", "\n\n", "  ", "\r\n", "\r"]
texts = st.lists(
    st.tuples(st.sampled_from(QUOTE_TOKENS), st.sampled_from(ENDS), st.sampled_from(GAPS)).map(
        "".join
    ),
    max_size=40,
).map("".join)


@pytest.mark.parametrize("language", ["auto", "de", "fr", "ja"])
@given(case=sliced(texts))
def test_quotations_are_lossless_and_delta_invariant(
    language: str, case: tuple[str, list[str]]
) -> None:
    check_stream(SentenceChunker(language=language), *case)


def test_an_elided_word_is_read_once_it_has_ended_however_the_text_is_sliced() -> None:
    # A mark before "em" at the end of the text so far may be an apostrophe
    # ("'em.") or open a quotation ("'emma"): the layer reads it once the word
    # has ended, and a search window that ends inside the word is widened.
    texts = [
        "\u201cAy. Bee 'em. See.\u201d Dogs ran. Eels swam.",
        '"Ay. \'cause. See." Dogs ran. Eels swam. Fin',
        "\u201cAy. Bee 'emma. See.\u201d Dogs ran. Eels swam.",
    ]
    texts += [
        f"\u201cAy. {'ab ' * (n // 3)}{'x' * (n % 3)} 'em. See.\u201d Dogs ran."
        for n in range(40, 200)
    ]
    for text in texts:
        whole = ACCURATE.split_text(text)
        assert ("Dogs ran." in whole) == ("'emma" not in text), whole
        for size in (1, 2, 3):
            for offset in range(size):
                parts = [text[:offset]] + [
                    text[i : i + size] for i in range(offset, len(text), size)
                ]
                pieces = stream(ACCURATE, [p for p in parts if p])
                assert [p.chunk for p in pieces if p.chunk is not None] == whole, (size, offset)


def test_a_long_quoted_text_is_delta_invariant_in_one_character_deltas() -> None:
    unit = "\"Hi. It's me! 'Who?' Me.\" She smiled. \u201cOk. Fine.\u201d "
    text = unit * 40 + '"Open. And never closed. ' * 40
    whole = ACCURATE.split_text(text)
    pieces = stream(ACCURATE, list(text))
    assert [p.chunk for p in pieces if p.chunk is not None] == whole
    assert whole[0] == "\"Hi. It's me! 'Who?' Me.\""


QUOTE_ATTACKS = {
    "openers": '"a. ',
    "every mark": "\"'\u201c\u201d\u2018\u2019\u201e\u00ab\u00bb. ",
    "title marks": "《a！",
    "episodes": '"A." "B." x. ',
    "apostrophes": "x' 'y. ",
    "elided words": "'em. 'ti 'cause 'emma. ",
    "dutch and german elisions": "Go 's. 'k Hi. 'ne 'nett. ",
    "chinese": "说：“来。去。”然后，“好",
    "korean": "그 \"좋아.\"라고 '네'는 ",
    "open then lines": '"A. B.\n',
    "long and open": '"' + "word " * 300,
    "runs at delta ends": '"A' + " " * 37 + "." * 41 + " ",
    "spaced closers": "« A. » ",
    "spaced closers only": ". »",
}


@pytest.mark.parametrize("unit", list(QUOTE_ATTACKS.values()), ids=list(QUOTE_ATTACKS))
def test_streaming_work_grows_linearly_on_quotation_marks(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    kb = 1000
    text = (unit * (200 * kb // len(unit) + 1))[: 200 * kb]
    chunker = SentenceChunker()
    one, two = stream_work(monkeypatch, chunker, text, (100 * kb, 200 * kb))
    assert one.calls > 0, "no pattern was counted: the proxies are not in use"
    assert two.total / one.total <= MAX_DOUBLING, (one, two)
    # (Two layers read each delta: the sentence scanner, whose window alone
    # counts about 20 per character here, and the quotation layer.)
    assert two.total <= 2 * MAX_WORK_PER_CHAR * 200 * kb, two


@pytest.mark.parametrize(
    "unit",
    [*QUOTE_ATTACKS.values(), "\u201c", "'", "\u00ab", "\u300c", '"'],
    ids=[*QUOTE_ATTACKS, "curly", "apostrophe", "guillemet", "cjk", "straight"],
)
def test_line_break_searches_read_a_whole_text_once(
    monkeypatch: pytest.MonkeyPatch, unit: str
) -> None:
    # Before: each mark searched the rest of a text with no line break for
    # one (quadratic: 19 s for 1.28M opening quotation marks in one delta).
    # Counted: the characters each search for a line break actually reads.
    read = 0
    newline = scanner_module._NEWLINE

    class Counting:
        def search(self, text: str, pos: int) -> re.Match[str] | None:
            nonlocal read
            m = newline.search(text, pos)
            read += (m.end() if m else len(text)) - pos
            return m

    monkeypatch.setattr(scanner_module, "_NEWLINE", Counting())
    text = (unit * (100_000 // len(unit) + 1))[:100_000]
    assert ACCURATE.split_text(text)
    assert read <= 2 * len(text), read


def oracle(chunker: SentenceChunker, text: str, longest: int) -> object:
    """What the plain oracle makes of the sentence scanner's own layout of
    ``text`` (without the quotation layer)."""
    inner = without_layer(chunker)
    cuts = [tuple(c) for c in inner.feed(text)]
    marks = (QUOTE_PAIRS, QUOTE_OPEN_AFTER, SPACED_QUOTES, SPACED_CLOSERS, BRACKET_QUOTES)
    return quoted_layout(
        text, cuts, inner.finish(), *marks, longest, ELIDED_WORDS, UNSPACED_LETTERS
    )


def without_layer(chunker: SentenceChunker) -> Any:
    """A new scanner of ``chunker`` with no quotation layer attached: the
    sentence scanner's own cuts (it still lists the marks)."""
    scanner: Any = chunker.scanner()
    inner = getattr(scanner, "translated", scanner)
    inner.layer = inner.layer_on_mark = None
    return scanner


def layout_of(chunker: SentenceChunker, text: str) -> object:
    layout = chunker.locate(text)
    return ([tuple(c) for c in layout.cuts], layout.fragment)


@pytest.mark.parametrize("language", ["auto", "de"])
@given(text=texts)
def test_the_layer_applies_the_rule_as_the_plain_oracle_does(language: str, text: str) -> None:
    chunker = SentenceChunker(language=language)
    assert layout_of(chunker, text) == oracle(chunker, text, QUOTE_MAX)


@given(case=sliced(texts))
# (The first mark dropped, the second still open, while "'til" may yet come.)
@example(case=("'ti. Hi. 'ti 'til", list("'ti. Hi. 'ti 'til")))
def test_a_short_limit_applies_as_the_oracle_does_streamed_and_whole(
    case: tuple[str, list[str]],
) -> None:
    # QUOTE_MAX made short, so that random texts reach it: marks dropped,
    # quotations too long, sentences released once the limit has passed.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(quotes, "QUOTE_MAX", 15)
        assert layout_of(ACCURATE, case[0]) == oracle(ACCURATE, case[0], 15)
        check_stream(ACCURATE, *case)


@pytest.mark.parametrize("word", ["'til", "'ti", "\u2018em"])
def test_a_quotation_expires_at_its_limit_while_an_elided_word_may_still_come(word: str) -> None:
    # The mark before a word that may yet be an elided one is read once the
    # word has ended, but the quotation opened at 0 still expires once the
    # text read passes QUOTE_MAX (within the word): the sentences it held are
    # released, as the oracle has it.
    text = ("'Ay. " + "Bee. " * (QUOTE_MAX // 5 - 2)).ljust(QUOTE_MAX - 1) + word
    layout = layout_of(ACCURATE, text)
    assert layout == oracle(ACCURATE, text, QUOTE_MAX)
    assert len(layout[0]) > QUOTE_MAX // 10, "the sentences were withheld"
    for size in (1, 7, 64):
        check_stream(ACCURATE, text, [text[i : i + size] for i in range(0, len(text), size)])


def test_quotes_false_cuts_inside_quotations_and_is_kept_in_the_spec() -> None:
    plain = SentenceChunker(quotes=False)
    assert plain.split_text('"One. Two." Three.') == ['"One.', 'Two."', "Three."]
    assert repr(plain) == "SentenceChunker(mode='accurate', quotes=False)"
    assert plain.spec() == {"chunker": "sentence", "mode": "accurate", "quotes": False}
    assert resolve_chunker(json.loads(json.dumps(plain.spec()))) == plain != ACCURATE
    assert "quotes" not in ACCURATE.spec()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"quotes": 1}, TypeError),
        ({"quotes": "no"}, TypeError),
        ({"quotes": False, "mode": "simple"}, ValueError),
    ],
)
def test_quotes_is_checked_and_named(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error, match="quotes"):
        SentenceChunker(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", [".»« »!", 'Stop."« Wait. »! Go', "Ok.)“ x. ” y", "»。«.", "“Hi。” x「a。」"]
)
def test_an_opening_mark_in_a_closer_run_is_judged_alike_whole_and_streamed(text: str) -> None:
    # The rules take the mark after a terminator for one of its closers, so
    # the chunk before it ends after the mark: inside the quotation it opens.
    assert layout_of(ACCURATE, text) == oracle(ACCURATE, text, QUOTE_MAX)
    check_stream(ACCURATE, text, list(text))


# -- through a real Guard ---------------------------------------------------------

DIALOGUE = 'She looked up. "Oh no! We missed the bus. What now?" Then she laughed.'
SENTENCES = ["She looked up.", '"Oh no! We missed the bus. What now?"', "Then she laughed."]


@pytest.fixture
def validated_streaming() -> Iterator[None]:
    """The opt-in on for one test (the plain paths validate the last sentence then)."""
    enable_validated_streaming()
    yield
    disable_validated_streaming()


@pytest.mark.parametrize("guarded", [True, False], ids=["guarded_stream", "plain"])
@pytest.mark.usefixtures("validated_streaming")
def test_a_validator_sees_the_quotation_whole_through_a_guard(guarded: bool) -> None:
    validator = Record(chunker="sentence", on_fail="noop")
    deltas = [DIALOGUE[i : i + 3] for i in range(0, len(DIALOGUE), 3)]
    assert joined(run(guard_with(validator), deltas, guarded=guarded)) == DIALOGUE
    assert validator.seen == SENTENCES


@pytest.mark.parametrize("guarded", [True, False], ids=["async_guarded_stream", "plain"])
@pytest.mark.usefixtures("validated_streaming")
def test_an_async_guard_rebuilt_from_to_dict_sees_the_quotation_whole(guarded: bool) -> None:
    # The quotation layer rides inside the scanner each stream builds: an
    # AsyncGuard rebuilt from to_dict (as the server does) keeps it.
    guard = guard_with(Record(chunker="sentence", on_fail="noop"))
    rebuilt = AsyncGuard.from_dict(json.loads(json.dumps(guard.to_dict())))
    assert rebuilt is not None
    (validator,) = rebuilt._validators
    deltas = [DIALOGUE[i : i + 2] for i in range(0, len(DIALOGUE), 2)]
    assert joined(asyncio.run(arun(rebuilt, deltas, guarded=guarded))) == DIALOGUE
    assert validator.seen == SENTENCES


@pytest.mark.usefixtures("validated_streaming")
def test_an_async_guard_rebuilt_from_to_dict_keeps_quotes_false() -> None:
    guard = guard_with(Record(chunker=SentenceChunker(quotes=False), on_fail="noop"))
    rebuilt = AsyncGuard.from_dict(json.loads(json.dumps(guard.to_dict())))
    assert rebuilt is not None
    (validator,) = rebuilt._validators
    assert validator.chunker == SentenceChunker(quotes=False)
    deltas = [DIALOGUE[i : i + 5] for i in range(0, len(DIALOGUE), 5)]
    assert joined(asyncio.run(arun(rebuilt, deltas, guarded=False))) == DIALOGUE
    assert validator.seen == [
        "She looked up.", '"Oh no!', "We missed the bus.", 'What now?"', "Then she laughed.",
    ]  # fmt: skip


def leads_of(text: str, parts: list[str] | None = None) -> list[int]:
    """The offsets the sentence scanner lists as marks that may open a
    quotation (``quote_leads``), fed ``parts`` (default: ``text`` whole)."""
    scanner = without_layer(ACCURATE)  # (the marks stay listed)
    for part in parts if parts is not None else [text]:
        scanner.feed(part)
    return list(scanner.marks)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A quotation holding a sentence end: its opening mark is a lead.
        ('He said "Stop. Go." Then he left. ', ['"Stop']),
        # Quiet quotations (nothing inside can end a chunk), apostrophes,
        # closing marks and marks that may not open are not.
        ("'Hi' she said. Don't. \u201cFine.\u201d It's \"ok\" x. ", []),
        ('A 6" pipe. Done. ', []),
        # A mark that may open inside a closers run: the rules find it.
        ('Wait."\u201cYes. Now," he said. ', ["\u201cYes"]),
        # A quotation whose closing mark may open another (after "-", before
        # a letter) is not passed as quiet: both marks are leads.
        ('Use "-"x and go. ', ['"-"x', '"x']),
    ],
)
def test_the_scanner_lists_the_marks_that_may_open_a_quotation(
    text: str, expected: list[str]
) -> None:
    found = leads_of(text)
    assert [text[at : at + len(e)] for at, e in zip(found, expected, strict=False)] == expected
    assert len(found) == len(expected)
    # Streamed in single characters, the scanner lists the same marks, and
    # more: a quotation whose end has not arrived may still turn out quiet.
    assert set(found) <= set(leads_of(text, list(text)))


def test_a_closer_that_may_open_is_told_by_the_character_before_it() -> None:
    # The searches pass no closer that is a lead (the rules decide its
    # candidate and list it); they tell one by the character before it only,
    # which must cover every context in which a lead opens.
    may_lead = re.compile(fast_path._may_lead("".join(mark for mark, _ in quotes.QUOTE_LEADS)))
    around = [*" \t\nab9.!?,;:)]", *QUOTE_OPEN_AFTER, *"".join(QUOTE_PAIRS.values())]
    leading = 0
    for mark, context in quotes.QUOTE_LEADS:
        opens = re.compile(re.escape(mark) + context)
        for before in around:
            for after in ["", *around]:
                text = f"{before}{mark}{after}word"
                if opens.match(text, 1):
                    leading += 1
                    assert may_lead.match(text, 1), (before, mark, after)
                elif before.isalnum():
                    assert not may_lead.match(text, 1), (before, mark, after)
    assert leading > 100, leading  # (the contexts tried do open quotations)


def test_the_quotation_leads_keep_the_searches_short() -> None:
    # Each lead's context is tested once, in its own branch: the searches
    # (and the time to compile them, once per process and language) grow by
    # a bounded amount, not by the leads times the closer runs.
    plain = SentenceChunker(quotes=False).scanner()._find.pattern  # type: ignore[attr-defined]
    quoted = ACCURATE.scanner()._find.pattern  # type: ignore[attr-defined]
    assert len(quoted) < 2 * len(plain)


def test_a_text_without_a_lead_is_not_read_by_the_quotation_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Quiet quotations, apostrophes and closing marks only: the layer's own
    # searches never run, whole or streamed (the scanner found no lead).
    unit = "'Hi' she said. Don't go, it's late. \u201cFine.\u201d We're \"ok\" now. "
    text = unit * 200
    work = count_work(monkeypatch, quotes.QuotationLayer)  # (its module's patterns)
    assert ACCURATE.split_text(text) == SentenceChunker(quotes=False).split_text(text)
    assert work.calls == 0
    plain = "Nothing quoted here. Not a single mark! Really? Yes.\n" * 200
    assert [p.chunk for p in stream(ACCURATE, [plain[i : i + 7] for i in range(0, len(plain), 7)])]
    assert work.calls == 0


@pytest.mark.parametrize("size", [1, 3, 16])
def test_a_quiet_quotation_streamed_is_not_read_either(
    monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    # Streamed, the search finds an opening mark before its closing mark has
    # arrived, so it cannot pass the quotation as quiet; the scanner keeps
    # the mark undecided until a cut needs it, and by then the text proves
    # the quotation quiet: the layer's own searches still never run.
    unit = "'Hi' she said. Don't go, it's late. \u201cFine.\u201d We're \"ok\" now. "
    text = unit * 40
    work = count_work(monkeypatch, quotes.QuotationLayer)
    parts = [text[i : i + size] for i in range(0, len(text), size)]
    assert [p.chunk for p in stream(ACCURATE, parts)] == ACCURATE.split_text(text)
    assert work.calls == 0


def test_a_period_in_a_quiet_quotation_is_passed_by_every_search() -> None:
    # A quiet quotation may hold periods that end nothing (3.14, node.js,
    # No. change): checked against the searches of every language, narrow
    # and wide, for every character around such a period; none of them
    # finds a candidate there, so no chunk can end there.
    scanners = [SentenceChunker(language=code).scanner() for code in ("auto", *LANGUAGES)]
    searches = {
        pattern
        for scanner in scanners
        for inner in [getattr(scanner, "translated", scanner)]  # (see _Translated)
        for pattern in (*inner._wide, *inner._narrow)  # type: ignore[attr-defined]
    }
    passed = re.compile(fast_path.PERIOD_PASSED)
    near = [*"aZ9 .\u4e2d"]
    around = [*near, *"bcxAM05!?,;/_*(\"'\u201d\u00df\u0416\t"]
    after = [*around, " a", " b", " i", " v", " x", "  e", "\tw", " \u00e9", " iv", " A"]
    allowed = 0
    for far in itertools.product(near, repeat=2):
        for before in around:
            for following in after:
                for tail in ("ky", "b.", "i)", ""):
                    text = f"{''.join(far)}{before}.{following}{tail}"
                    if passed.match(text, 3):
                        allowed += 1
                        for search in searches:
                            assert not search.match(text, 3), (text, search.pattern[:40])
    assert allowed > 20000, allowed


def test_a_quotation_holding_only_periods_that_end_nothing_is_quiet(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Decimals, dotted names and abbreviations before a lower-case word end no
    # sentence inside a quotation (nor does one open after "*", "\u2014" or "("),
    # so the quotation is quiet: the quotation layer never reads it, whole or
    # streamed, and the chunks are those of the scanner alone.
    unit = (
        'He said "pi is 3.14 today" and left. \u201cTry node.js and v2.1 first\u201d, she said. '
        '**"The U.S. team won"** today. He shouted \u2014"No. way"\u2014 twice. '
        '("No. way" was the reply.) '
    )
    text = unit * 40
    work = count_work(monkeypatch, quotes.QuotationLayer)
    expected = SentenceChunker(quotes=False).split_text(text)
    assert ACCURATE.split_text(text) == expected
    for size in (1, 5, 16):
        parts = [text[i : i + size] for i in range(0, len(text), size)]
        assert [p.chunk for p in stream(ACCURATE, parts)] == expected
    assert work.calls == 0


def test_a_mark_with_a_line_break_after_it_is_listed_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A quotation spans no line, so a search that reached a line break after
    # a mark has read its quotation whole: the mark is listed without a
    # second look (a whole document looks again at its last line's marks only).
    settled = [0]
    settle = SentenceScanner.settle

    def counted(scanner: SentenceScanner) -> None:
        settled[0] += 1
        settle(scanner)

    monkeypatch.setattr(SentenceScanner, "settle", counted)
    line = 'Then "Stop. Now," she said. Fine.\n'
    text = line * 50
    assert ACCURATE.split_text(text) == ['Then "Stop. Now," she said.', "Fine."] * 50
    assert settled[0] <= 1


def test_the_layer_is_called_only_for_cuts_it_takes_or_a_reading_due(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The scanner hands its cuts to the layer only while the layer takes them
    # (a mark listed, a quotation or cut pending), and a delta without a cut
    # only while a cut is held or the text kept unread has grown past
    # KEEP_MAX: the usual delta costs the layer not even a call.
    calls = [0]
    take_cuts = quotes.QuotationLayer.take_cuts

    def counted(layer: quotes.QuotationLayer, cuts: list[Cut]) -> list[Cut]:
        calls[0] += 1
        return take_cuts(layer, cuts)

    monkeypatch.setattr(quotes.QuotationLayer, "take_cuts", counted)

    def streamed(text: str) -> list[str]:
        cs = ChunkStream(ACCURATE)
        pieces = [p for i in range(0, len(text), 4) for p in cs.feed(text[i : i + 4])]
        return [str(p.chunk) for p in pieces + cs.close()]

    plain = "Nothing quoted here. Not a single mark! Really? Yes.\n" * 100
    assert len(streamed(plain)) == 400
    assert calls[0] == 0
    # A quotation opened far from any cut: read once the unread text grows
    # past KEEP_MAX, not every delta.
    text = 'he said "a, then ' + "word " * 2000
    assert streamed(text) == [text.strip()]
    assert 0 < calls[0] <= len(text) // (KEEP_MAX - 40), calls[0]


@pytest.mark.parametrize(
    "unit",
    [*QUOTE_ATTACKS.values(), 'he said "a, then ', "Plain words. No mark at all. "],
    ids=[*QUOTE_ATTACKS, "leads, no cut", "no mark"],
)
def test_the_window_kept_for_the_quotation_layer_stays_small(unit: str) -> None:
    # The layer reads the scanner's window, which keeps the text a reading
    # needs: a few hundred characters at most, however long the stream.
    text = (unit * (20_000 // len(unit) + 1))[:20_000]
    scanner = ACCURATE.scanner()
    longest = 0
    for at in range(0, len(text), 4):
        scanner.feed(text[at : at + 4])
        longest = max(longest, len(scanner.window()[0]))  # type: ignore[attr-defined]
    assert longest <= 400, longest


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        # Greek ";" and Armenian ":" end sentences in those languages, inside a
        # quotation too: the layer reads the text as the scanner does.
        ("el", "«Τι έγινε; Πού πας;» είπε η Μαρία. Ναι.", 2),
        ("hy", "«Ես եկա: Դու գնացիր:» ասաց նա: Այո:", 2),
    ],
)
def test_a_quotation_is_read_with_the_languages_terminators(
    language: str, text: str, expected: int
) -> None:
    chunks = SentenceChunker(language=language).split_text(text)
    assert len(chunks) == expected, chunks
    assert chunks[0].startswith("\u00ab") and "\u00bb" in chunks[0]
    check_stream(SentenceChunker(language=language), text, list(text))
