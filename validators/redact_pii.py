"""``RedactPII``: personal data found by pattern plus checksum, replaced by placeholders."""

from __future__ import annotations

from typing import Any

from guardrails.validator_base import register_validator
from guardrails_ai.types import ErrorSpan, FailResult, PassResult, ValidationResult

from guardrails_ai.chunkwise.adapters import ChunkedValidator
from guardrails_ai.chunkwise.chunkers import Bounded, ChunkerSpec, RegexChunker, SentenceChunker

from ._args import str_list
from ._pii import ENTITIES, LONGEST_ENTITY, find_entities

__all__ = ["MAX_CHARS", "RedactPII"]

#: Ceiling on a chunk of the default chunker: four times the longest entity.
MAX_CHARS = 4 * LONGEST_ENTITY
#: Whitespace no entity contains: after a letter or ``,;:``, before a lower-case letter.
_GAP_BETWEEN_WORDS = r"(?<=[A-Za-z,;:])\s+(?=[a-z])"

_NAMES = {
    "email": "e-mail address",
    "phone": "phone number",
    "card": "payment card number",
    "iban": "IBAN",
    "ipv4": "IPv4 address",
    "ipv6": "IPv6 address",
}


@register_validator(name="chunkwise/redact_pii", data_type="string")
class RedactPII(ChunkedValidator):
    """Fail on personal data; the fix replaces each item with a typed placeholder.

    **Key Properties**

    | Property                      | Description                                         |
    | ----------------------------- | --------------------------------------------------- |
    | Name for `format` attribute   | `chunkwise/redact_pii`                              |
    | Supported data types          | `string`                                            |
    | Programmatic fix              | Puts a typed placeholder such as `<EMAIL>` in place |

    Entities (``entities=``, any of them, all by default):

    * ``"email"``: ``local@domain.tld``, 254 characters at most;
    * ``"phone"``: ``+`` and a country code (8-15 digits), North American
      ``(415) 555-0123`` / ``415.555.0123`` forms, national numbers with a
      trunk ``0`` (``020 7946 0958``);
    * ``"card"``: 13-19 digits, compact or in groups of three or more digits
      separated by single spaces or by single hyphens, that pass the Luhn
      check;
    * ``"iban"``: compact or in groups of four, passing the ISO 7064 mod 97
      check;
    * ``"ipv4"``, ``"ipv6"``: addresses the standard ``ipaddress`` module
      accepts (no leading zeros in IPv4 octets).

    A candidate whose checksum fails is left alone (``4111 1111 1111 1112`` is
    not a card number).  Items that overlap (two numbers one space apart that
    also happen to pass a check together) are replaced as one, by the
    placeholder of the first: a few characters too many may be redacted, never
    part of an item left visible.  Text outside the items found never changes.
    Cost: linear in the chunk length (about 1 MB/s on prose).

    **Chunk**: by default a sentence, at most :data:`MAX_CHARS` characters.
    No entity above contains a sentence terminator followed by whitespace or a
    line break (``john@example.com.`` ends a sentence after the address, never
    inside it), so a sentence boundary never cuts an entity in two, however the
    stream is sliced; the last entity of a response with no final terminator
    is validated when the stream ends.  The ceiling bounds how much text a
    stream holds back when no sentence ends.  A longer sentence is cut first
    where a letter (or ``,;:``) is followed by whitespace and a lower-case
    ASCII letter, which no entity contains, then at any whitespace, and a word
    longer than the ceiling is cut inside.  Entities without whitespace (e-mail
    addresses and IP addresses, at most 254 characters; compact card numbers
    and IBANs) are therefore never split; an entity written with spaces (a
    grouped card number, phone number or IBAN) can be split only inside a
    sentence of over :data:`MAX_CHARS` characters with no such letter-to-
    lower-case gap near the ceiling (a long unpunctuated list of numbers).
    A chunker that cuts at every whitespace (``"word"``) would split grouped
    numbers such as ``4111 1111 1111 1111``: do not choose it here.

    Args:
        entities: Names of the entities to redact (see above).
        chunker: Chunking strategy or alias (default: sentences of at most
            :data:`MAX_CHARS` characters, see above).  For text in another
            language keep the ceiling: ``Bounded(SentenceChunker(language="de"),
            MAX_CHARS, fallback=...)``.
        on_fail: Any Guardrails on-fail action.
    """

    default_chunker = Bounded(
        SentenceChunker(), MAX_CHARS, fallback=[RegexChunker(_GAP_BETWEEN_WORDS), "word"]
    )

    def __init__(
        self,
        entities: list[str] | tuple[str, ...] = ENTITIES,
        *,
        chunker: ChunkerSpec | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        names = list(dict.fromkeys(str_list("entities", entities)))
        unknown = [n for n in names if n not in ENTITIES]
        if unknown:
            raise ValueError(
                f"entities: unknown {', '.join(map(repr, unknown))}; "
                f"valid names are {', '.join(map(repr, ENTITIES))}"
            )
        super().__init__(chunker=chunker, on_fail=on_fail, entities=names, **kwargs)
        self.entities = tuple(names)

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
            error_spans=[
                ErrorSpan(start=e.start, end=e.end, reason=_NAMES[e.name]) for e in found
            ],
        )
