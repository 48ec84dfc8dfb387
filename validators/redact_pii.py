"""``RedactPII``: personal data found by pattern plus checksum, replaced by placeholders."""

from __future__ import annotations

from typing import Any

from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import (
    Bounded,
    ChunkerSpec,
    ChunkingStrategy,
    SentenceChunker,
    SplitFlush,
    split_spans,
)

from ._args import check_on_fail, reject_unknown, str_list
from ._pii import ENTITIES, LONGEST_ENTITY, find_entities
from ._pii_cuts import EntityCuts, WordGaps, entity_safe, label_joined

__all__ = ["MAX_CHARS", "RedactPII"]

#: Ceiling on a chunk of the default chunker: four times the longest entity.
MAX_CHARS = 4 * LONGEST_ENTITY

#: Texts a chosen chunker must not cut an entity of: grouped numbers in prose,
#: and addresses joined by commas, no whitespace, over 2,100 characters, in
#: three phases (a hard cut at any offset up to there falls inside one).
_PROBES = (
    "Card 4111 1111 1111 1111, call +44 20 7946 0958 or (415) 555-0123 or 01 23 45 67 89; "
    "IBAN DE89 3704 0044 0532 0130 00; mail sam.o'neil@example.co.uk, host 2001:db8::1.",
    "Host 192.168.10.20, fax 030/1234567, tel 415.555.0123, card 5555-5555-5555-4444, "
    "mail jo\u200b@example\uff0eCOM today.",
    *("x" * phase + ",jo@example.com" * 140 for phase in (0, 5, 10)),
)

_NAMES = {
    "email": "e-mail address",
    "phone": "phone number",
    "card": "payment card number",
    "iban": "IBAN",
    "ipv4": "IPv4 address",
    "ipv6": "IPv6 address",
    "ssn": "US Social Security number",
}


def _a(name: str) -> str:
    """``name`` after its indefinite article (every name here is read letter by
    letter or opens with a vowel when it takes "an": IBAN, IPv4, e-mail)."""
    return f"{'an' if name[0] in 'aeiouAEIOU' else 'a'} {name}"


@register_validator(name="chunkwise/redact_pii", data_type="string")
class RedactPII(ChunkedValidator):
    """Fail on personal data; the fix replaces each item with a typed placeholder.

    **Key Properties**

    | Property                      | Description                                         |
    | ----------------------------- | --------------------------------------------------- |
    | Name for `format` attribute   | `chunkwise/redact_pii`                              |
    | Supported data types          | `string`                                            |
    | Programmatic fix              | Puts a typed placeholder such as `<EMAIL>` in place |

    Entities (``entities=``, any of them, all by default; the rules in full
    are in ``_pii``'s module docstring):

    * ``"email"``: ``local@domain.tld`` with an RFC 5322 dot-atom local part
      (``sam.o'neil+billing@example.co.uk``, ``a{b}@example.com``) and a
      letter or punycode top-level domain, 254 characters at most;
    * ``"phone"``: ``+`` and a country code (8-15 digits), North American
      ``(415) 555-0123`` / ``415.555.0123`` forms, national numbers with a
      trunk ``0`` in groups (``020 7946 0958``, ``030/1234567``,
      ``01 23 45 67 89``), Indian ``98765 43210``, compact mobiles; any other
      digit run only after a phone label (``Tel:``, ``call``, ``mobile``);
    * ``"card"``: 13-19 digits, compact or in groups, that pass the Luhn check
      and start like a card of their length (13 digits, or no known prefix,
      only after a card label);
    * ``"iban"``: compact or in groups of four, of the country's length,
      passing the ISO 7064 mod 97 check;
    * ``"ipv4"``, ``"ipv6"``: addresses the standard ``ipaddress`` module
      accepts; ``1.2.3.4`` after ``version``/``section``... is no address, and
      four one-digit octets need an address label or a port;
    * ``"ssn"``: US Social Security numbers ``123-45-6789`` that can be issued
      (not ``000``, ``666``, ``00``, ``0000``); with spaces, as nine digits or
      with an area ``9xx`` (an ITIN) only after an SSN label.

    A label that names another number (``order``, ``invoice``, ``ISBN``,
    ``ref``, ...) vetoes a number after it.  A candidate whose checksum fails
    is left alone (``4111 1111 1111 1112`` is not a card number).  Items that
    overlap are replaced as one, by the placeholder of the first: a few
    characters too many may be redacted, never part of an item left visible.
    Text outside the items found never changes.  Messages and error spans name
    the kind of item, never its text.  Cost: linear in the chunk length.

    Secrets are no entity: the user name and password of a URL
    (``https://user:secret@host/``) are redacted only as far as they read as
    an item above (``https://user:<EMAIL>/`` for a host name with a dot; with
    ``localhost`` or an IP address for host the password stays in sight).

    **Chunk**: by default a sentence, at most :data:`MAX_CHARS` characters;
    no entity is ever split, streamed or at once.  No entity contains a
    sentence terminator followed by whitespace, nor whitespace before a
    lower-case letter, so neither the sentence boundary nor the first
    fallback cut (where a letter or ``,;:`` is followed by whitespace and a
    lower-case ASCII letter) falls inside one.  A run with neither within the
    ceiling (minified JSON, a Markdown table, CSV, a long token) is cut by
    ``_pii_cuts.EntityCuts``: at the last position, at most
    ``MAX_CHARS - LONGEST_ENTITY - 2`` characters in, that no entity found in
    the ``MAX_CHARS + 1`` pending characters spans (nor the label that made it
    one).  An entity is at most ``LONGEST_ENTITY`` characters, so any entity
    across that position lies whole in the pending characters and is found
    there: the bound.  The ceiling bounds how much text a stream holds back.
    A label read as context must be in the same chunk as its number: whatever
    the chunker, a chunk that ends with a label (``Cell.``, ``Call me.``) is
    joined with the next one (``_pii_cuts.LabelJoins``), and so is a word-gap
    cut of the fallback (``Phone | number: ...``).  So is a chunk that ends
    where an entity may go on with no whitespace between: an ideographic or
    full-width full stop (or full-width ``!``, ``?``), which ends a sentence
    with no whitespace after it, right after a Latin letter, a digit or a
    domain (``+44 20\u3002`` of ``+44 20\u30027946 0958``, ``jo@b\u00fccher\u3002de``;
    ``_pii.entity_open``).  A size
    limit given as ``chunker=`` (``limit("sentence", max_tokens=512,
    tokenizer=...)``, any ``max_chars`` window, filled or not) is taken as a
    window: its inner chunker and measure are kept and its fallback chain
    becomes the one above (word gap, then ``EntityCuts``), so no entity is
    split; a window that holds fewer than :data:`~._pii_cuts.MIN_WINDOW`
    characters (320) is refused with a ``ValueError`` (see
    ``_pii_cuts.entity_safe``).  Any other ``chunker=`` that cuts an entity
    of a probe text in two (``"word"`` splits
    ``4111 1111 1111 1111``; a hard cut splits an address in a run without
    whitespace) is refused with a ``ValueError``.

    Args:
        entities: Names of the entities to redact (see above).
        chunker: Chunking strategy or alias (default: sentences of at most
            :data:`MAX_CHARS` characters, see above).  For text in another
            language keep the ceiling: ``Bounded(SentenceChunker(language="de"),
            MAX_CHARS, fallback=...)``.
        on_fail: Any Guardrails on-fail action.
    """

    default_chunker = Bounded(SentenceChunker(), MAX_CHARS, fallback=[WordGaps(), EntityCuts()])

    def __init__(
        self,
        entities: list[str] | tuple[str, ...] = ENTITIES,
        *,
        chunker: ChunkerSpec | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        reject_unknown(self, kwargs)
        check_on_fail(on_fail)
        names = list(dict.fromkeys(str_list("entities", entities)))
        unknown = [n for n in names if n not in ENTITIES]
        if unknown:
            raise ValueError(
                f"entities: unknown {', '.join(map(repr, unknown))}; "
                f"valid names are {', '.join(map(repr, ENTITIES))}"
            )
        self.entities = tuple(names)  # before the chunker: _fit_chunker reads it
        super().__init__(chunker=chunker, on_fail=on_fail, entities=names)

    def _fit_chunker(
        self, strategy: ChunkingStrategy | SplitFlush
    ) -> ChunkingStrategy | SplitFlush:
        """``strategy``, a size limit's fallback made entity-safe
        (:func:`~._pii_cuts.entity_safe`: its window must hold
        :data:`~._pii_cuts.MIN_WINDOW` characters, else ``ValueError``); any
        chunker but the default is then checked on probe texts, however it was
        given (``chunker=``, ``with_chunker``, the ``chunker`` setter)."""
        given = strategy
        strategy = label_joined(entity_safe(strategy, self.entities))
        if given is not RedactPII.default_chunker:
            self._check_keeps_entities_whole(strategy, given)
        return strategy

    def _check_keeps_entities_whole(
        self, strategy: ChunkingStrategy | SplitFlush, given: object
    ) -> None:
        """Refuse a chunker (``strategy``, made of the user's ``given``) that
        cuts an entity of a probe text in two; the message names ``given``."""
        for probe in _PROBES:
            spans = split_spans(strategy, probe)
            for entity in find_entities(probe, self.entities):
                if not any(a <= entity.start and entity.end <= b for a, b in spans):
                    raise ValueError(
                        f"chunker={given!r:.200} cuts {_a(_NAMES[entity.name])} in two "
                        "(in a probe text), so that part of it would never be redacted; "
                        "choose a chunker that keeps entities whole (the default: "
                        "sentences, cut only where no entity can be)"
                    )

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        found = find_entities(value, self.entities)
        if not found:
            return PassResult()
        parts = []
        done = 0
        for entity in found:
            parts += [value[done : entity.start], entity.placeholder]
            done = entity.end
        parts.append(value[done:])
        kinds = ", ".join(dict.fromkeys(_NAMES[e.name] for e in found))
        return FailResult(
            error_message=f"Text contains personal data: {kinds}",
            fix_value="".join(parts),
            error_spans=[ErrorSpan(start=e.start, end=e.end, reason=_NAMES[e.name]) for e in found],
        )
