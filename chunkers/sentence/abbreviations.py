"""Abbreviation tables for accurate sentence chunking, and the ``abbreviations=`` check.

An abbreviation is stored in canonical form: lower case, without its final
period, inner periods kept (``"Dr."`` -> ``"dr"``, ``"U.S.A."`` -> ``"u.s.a"``).
Each has a *kind* that says what a period after it means when the next word is
capitalised (a lower-case next word starts a sentence only after a plain word
in no table: see :mod:`.rules`):

* :data:`PREFIX`: it introduces what follows (``Dr. Smith``, ``e.g. Paris``), so
  it never ends a sentence;
* :data:`FINAL`: it often ends a sentence and rarely precedes a name
  (``etc.``, ``No.`` before a word rather than a number), so a
  capitalised next word starts a new sentence; a digit does not (``No. 5``);
* :data:`TIME`: a time of day (``a.m.``, ``p.m.``): as :data:`FINAL`, except
  before a time zone (:data:`TIME_ZONES`: ``10 a.m. EST``), and before a title
  (a :data:`PREFIX` abbreviation) when the time opens its sentence, after none
  but the words of :data:`TIME_LEADS` (``At 5 a.m. Mr. Smith left`` goes on;
  ``He left at 6 P.M. Mr. Smith stayed`` ends);
* :data:`MEDIAL`: it may do either (``U.S.``, ``Inc.``, ``Jan.``): the sentence
  ends only if the next word is one that typically opens a sentence (see
  :data:`SENTENCE_STARTERS`: ``The``, ``It``, ``However``...), so
  ``the U.S. Army`` stays whole while ``in the U.S. It was`` splits.

A unit of :data:`UNITS` right after a number and a space is :data:`FINAL`
whatever its kind (``It took 2 hrs. Too long.``; elsewhere ``hr.`` may be
``Hr. Jensen``).

User-supplied abbreviations are :data:`MEDIAL` unless the defaults already
know them; they extend the defaults and never replace them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..params import refuse_mapping

__all__ = [
    "ANSWER_LEADS",
    "ANSWER_LETTERS",
    "CONTRACTION_ENDS",
    "DEFAULT_ABBREVIATIONS",
    "ELIDED_WORDS",
    "FINAL",
    "GLUED_STARTERS",
    "LETTER_NOUNS",
    "MEDIAL",
    "PREFIX",
    "SENTENCE_STARTERS",
    "TIME",
    "TIME_LEADS",
    "TIME_ZONES",
    "UNITS",
    "abbreviation_table",
]

PREFIX = 0
FINAL = 1
MEDIAL = 2
TIME = 3

_PREFIX = """
    mr mrs ms mx messrs mme mlle dr prof rev hon sen gov capt cmdr lt sgt cpl pvt
    adm brig supt insp fr
    e.g i.e cf vs viz approx ca tel
"""
_FINAL = """
    etc no nos nr p pp fig figs vol vols ch chap sect para eq eqs op
"""
_TIME = """
    a.m p.m
"""
_MEDIAL = """
    st mt ft gen col maj rep pres det jr sr esq inc ltd co corp llc plc bros dept univ assn est
    jan feb apr jun jul aug sep sept oct nov dec tue tues thu thur thurs fri
    u.s u.s.a u.k e.u u.n d.c n.y l.a ph.d m.d b.a m.a b.sc m.sc d.phil i.v a.d b.c
    al ave blvd rd hwy hr hrs sq oz lb lbs min max govt intl natl mfg mgr
    med esp incl excl avg misc ref refs ibid resp tbsp tsp yrs wks pg pgs seq abbr adj adv orig
    temp pt pts qty amt appt asst attn bldg mgmt pkg pct hosp yr wk mo mos equiv sched req reqs
    std prev
"""


def _table() -> dict[str, int]:
    table: dict[str, int] = {}
    for kind, words in ((PREFIX, _PREFIX), (FINAL, _FINAL), (MEDIAL, _MEDIAL), (TIME, _TIME)):
        for word in words.split():
            table[word] = kind
    return table


#: The built-in abbreviations, canonical form -> kind.
DEFAULT_ABBREVIATIONS: Mapping[str, int] = _table()

#: Units of measure, which end a sentence before a capitalised word when they
#: follow a number and a space (``5 lbs. Too``), whatever their kind, and
#: never before a lower-case word (``3 in. wide``: no plain word).
UNITS: frozenset[str] = frozenset(
    "hr hrs min mins sec secs yr yrs wk wks mo mos lb lbs oz ft in tbsp tsp pt pts qty pct".split()
)

#: Words that typically open a sentence (lower case): after a :data:`MEDIAL`
#: abbreviation, a capitalised word from this list starts a new sentence
#: (connective adverbs too: no name goes on with one, ``the U.S. Additionally``).
#: At most ``rules.STARTER_MAX`` letters: the rules read no longer word.
SENTENCE_STARTERS: frozenset[str] = frozenset(
    """
    a an the this that these those there here i we you he she it they my our your
    his her its their what when where which who whom whose why how if but and or so
    yet nor for in on at as by from to with after before since while although though
    because however therefore thus meanwhile also then now still many most some
    several every each all both no not once only please let is are was were do does
    did can could will would should shall might must have has had yes finally first
    next instead overall today yesterday tomorrow
    dozens hundreds thousands millions billions
    additionally furthermore moreover consequently similarly likewise nevertheless nonetheless
    fortunately otherwise hence afterwards afterward besides indeed importantly notably
    specifically ultimately initially currently recently typically generally usually basically
    essentially clearly obviously accordingly subsequently regardless lastly secondly thirdly
    perhaps unfortunately alternatively interestingly surprisingly
    nobody everyone everybody someone somebody anyone anybody nothing everything something
    neither either sometimes often
    """.split()
)


#: The sentence starters that open a sentence after a period glued to the
#: previous word (``world.Today is``): pronouns and determiners, which no API
#: names a member (not ``Now``, ``Once``, ``After``, ``Is``: ``time.Now()``).
GLUED_STARTERS: frozenset[str] = frozenset(
    """
    the this that these those there here it he she we they you my our your his her its
    their today
    """.split()
)

#: Time zones written after a time (``10:30 a.m. EST``): the time's
#: period ends no sentence before one.
TIME_ZONES: frozenset[str] = frozenset(
    """
    UTC GMT EST EDT CST CDT MST MDT PST PDT AKST AKDT HST CET CEST EET EEST WET WEST BST IST
    JST KST AEST AEDT ACST AWST NZST NZDT
    """.split()
)

#: The endings of English contractions (``isn't``, ``I'd``, ``it's``,
#: ``we'll``): a word that ends in one after an apostrophe is a whole word,
#: never an elision before an abbreviation or an initial (``l'Avv.``), so
#: its period ends a sentence as a plain word's does (``It isn't. Try``).
CONTRACTION_ENDS: frozenset[str] = frozenset("t s d m ll re ve".split())


#: Words written without their first letters, after an apostrophe: English
#: (``'til``, ``'em``, ``'cause``, ``a whole 'nother``, decades: ``the
#: 'nineties``), Dutch (``'s avonds``, ``hoe gaat 't``, ``'k weet``, ``kijk
#: 'ns``) and German articles (``hab 'ne Frage``, ``'nen Kaffee``): a single
#: quotation mark before one, then a character that ends the word, opens no
#: quotation.  Lower case, and capitalised for the archaic ones that open a
#: sentence (``'Tis``, ``'Twas``); ``'Em`` may be a name and ``'Cause`` may
#: open a quotation in single quotes (``'Cause I said so,' she said``).  (A
#: quotation in single marks that begins with one of these, ``'s Avonds...,'
#: zei ze``, is not read as one: rarer than the elision; a quoted letter,
#: ``'s'``, holds no sentence end.)
ELIDED_WORDS: frozenset[str] = frozenset(
    """
    til tis twas cause cos bout em round n nuff neath nother kay scuse fraid Til Tis Twas
    twenties thirties forties fifties sixties seventies eighties nineties
    s t k m r ns ne nen nem ner
    """.split()
)


#: Nouns after which a capital letter and a period name the letter, not an
#: initial: ``Plan B. Nobody``, ``option C. Paris`` end after the letter
#: before any capitalised word but an initial (compared in lower case; after
#: ``Options:`` a letter opens a list).
LETTER_NOUNS: frozenset[str] = frozenset(
    """
    answer answers option options choice choices plan grade vitamin type class group
    section part appendix exhibit level tier category column row letter
    """.split()
)

#: Words after which one of ``ANSWER_LETTERS`` and a period is an answer or a
#: grade (``The answer is B. Paris``, ``She got B. Her``, ``A, B or C. C is``),
#: the same way; another letter there is an initial (``is J. Smith``).  (Not
#: ``an``, which is German for "to": ``an B. Müller``; nor ``and``, which
#: joins names: ``Smith and A. Jones``.)
ANSWER_LEADS: frozenset[str] = frozenset(
    """
    is was are were be got gets earned scored received chose choose picked pick select
    selected or
    """.split()
)
ANSWER_LETTERS = "ABCDEF"


#: The words that may come before the number of a time that opens its
#: sentence (``At 5 a.m.``, ``On Monday at 9 p.m.``, ``Then, by 6 a.m.``): a
#: title after such a time is the sentence's subject, not a new sentence.
TIME_LEADS: frozenset[str] = frozenset(
    """
    at on by until till around about after before since from and but then so
    yesterday today tomorrow tonight this every each last next early late
    morning afternoon evening night monday tuesday wednesday thursday friday
    saturday sunday
    """.split()
)


def abbreviation_table(
    abbreviations: Iterable[str] | None,
    *,
    param: str = "abbreviations",
    base: Mapping[str, int] = DEFAULT_ABBREVIATIONS,
) -> dict[str, int]:
    """``base`` (the defaults) extended by ``abbreviations`` (canonical form -> kind).

    ``abbreviations`` is ``None`` or an iterable of strings such as ``"Approx."``,
    ``"approx"`` or ``"Ph.D."`` (with or without the final period, any case).
    Raises ``TypeError`` for a single string, a mapping (its values would be
    dropped) or a non-string item and ``ValueError`` for an empty item or one
    containing whitespace; both name ``param`` and the offending value.
    """
    table = dict(base)
    if abbreviations is None:
        return table
    refuse_mapping(param, abbreviations, "an iterable of strings such as {'Approx.', 'Fig.'}")
    if isinstance(abbreviations, (str, bytes)) or not isinstance(abbreviations, Iterable):
        raise TypeError(
            f"{param} must be an iterable of strings such as {{'Approx.', 'Fig.'}}, "
            f"got {type(abbreviations).__name__}: {abbreviations!r:.80}"
        )
    for item in abbreviations:
        if not isinstance(item, str):
            raise TypeError(
                f"{param} must contain only strings, got {type(item).__name__}: {item!r:.80}"
            )
        word = item.strip().rstrip(".")
        if not word or word.startswith(".") or any(c.isspace() for c in word):
            raise ValueError(
                f"{param} item {item!r:.80} is not an abbreviation: give one word "
                "with or without its final period, such as 'Approx.' or 'U.S.A.'"
            )
        table.setdefault(word.lower(), MEDIAL)
    return table
