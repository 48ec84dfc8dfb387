"""How a size is measured: characters, any ``Callable[[str], int]``, or a tokenizer.

:func:`measure_for` turns what a user passes as ``length`` / ``tokenizer`` into a
:class:`Measure`, the one abstraction every size limit sits on:

* ``None``: characters (code points), ``len``;
* a ``str``: a named OpenAI encoding (``"cl100k_base"``, ``"o200k_base"``, ...)
  or an OpenAI model name (``"gpt-4o"``), loaded offline through the optional
  ``bpe-openai`` package (``pip install 'guardrails-ai-chunkwise[tokens]'``);
* a tokenizer object, duck-typed (no tokenizer library is imported here):
  a tiktoken-compatible ``Encoding`` (tiktoken, bpe-openai: ``encode_ordinary``),
  a ``tokenizers.Tokenizer`` (``encode(text, add_special_tokens=False).ids``,
  by a copy without the truncation and padding it may be set up with: a
  tokenizer loaded from a ``tokenizer.json`` often truncates to the model's
  input length, which would count every longer text as that many tokens)
  or a ``transformers`` tokenizer (``encode(text, add_special_tokens=False)``);
* any other callable: ``length(text) -> int``.

Special tokens are never added: a chunk is measured as the text it is, so the
size of a model's input is the chunk's size plus whatever the caller wraps
around it.

Tokens are not additive: ``count(a + b)`` may differ from ``count(a) +
count(b)``.  A :class:`Measure` says so (``additive`` is true for characters
only), and the limits built on it verify every chunk they emit with one call
on the chunk itself.  Measures remember the sizes of short texts they have seen
(words and their spaces repeat), so measuring a stream word by word costs one
tokenizer call per *distinct* short piece, and the last few longer texts (a
chunk measured again as it is decided costs a look-up).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .params import described

__all__ = ["CHARS", "Measure", "measure_for"]

#: Texts this short are remembered (key: the text); longer ones are measured.
_CACHED_UP_TO = 64
#: At most this many remembered sizes per measure (then the memory restarts).
_CACHE_SIZE = 1 << 16
#: Longer texts up to this many characters: the last :data:`_RECENT_SIZE` are
#: remembered (a chunk is often measured again as it is decided and emitted).
_RECENT_UP_TO = 1 << 16
_RECENT_SIZE = 8

_TOKENS_HINT = (
    "named encodings need the optional bpe-openai package: "
    "pip install 'guardrails-ai-chunkwise[tokens]' (or pass a tokenizer object)"
)


class Measure:
    """The size of a text in some unit (characters, tokens, anything countable).

    ``measure(text)`` returns an ``int >= 0``; ``unit`` names the unit for
    messages (``"chars"``, ``"tokens"``); ``additive`` is true when the size of
    a concatenation is always the sum of the sizes (characters), so that no
    chunk needs measuring again.  ``spec`` is what the user passed (``None``
    for characters; an ``Encoding`` of a shipped encoding by its name, so that
    a chunker's spec can write it), for ``repr``; ``param`` the parameter it was passed as
    (``length``, ``tokenizer``), for the error a count that is no ``int >= 0``
    raises.  ``bound``, for a tokenizer that normalizes text before it
    counts (``tokenizers.Tokenizer``, a fast ``transformers`` tokenizer),
    is the UTF-8 bytes of the text as normalized, an upper bound on its tokens
    that the bytes of the text itself are not (NFKC writes ``½`` as three
    characters, U+FDFA as eighteen); else ``None``.
    """

    __slots__ = ("_cache", "_count", "_recent", "additive", "bound", "param", "spec", "unit")

    def __init__(
        self,
        count: Callable[[str], int],
        *,
        unit: str,
        additive: bool,
        spec: object,
        param: str = "length",
        bound: Callable[[str], int] | None = None,
    ) -> None:
        self._count = count
        self.bound = bound
        self.param = param
        self._cache: dict[str, int] = {}
        self._recent: dict[str, int] = {}
        self.unit = unit
        self.additive = additive
        self.spec = spec

    def __call__(self, text: str) -> int:
        """The size of ``text``; ``ValueError`` if the length function misbehaves."""
        if len(text) <= _CACHED_UP_TO:
            size = self._cache.get(text)
            if size is not None:
                return size
            size = self._checked(text)
            if len(self._cache) >= _CACHE_SIZE:
                self._cache.clear()
            self._cache[text] = size
            return size
        if len(text) > _RECENT_UP_TO:
            return self._checked(text)
        recent = self._recent
        size = recent.get(text)
        if size is None:
            size = self._checked(text)
            if len(recent) >= _RECENT_SIZE:
                # A measure may be shared by streams on several threads: another
                # thread may evict first; then this memo only forgets more.
                try:
                    del recent[next(iter(recent))]
                except (KeyError, RuntimeError, StopIteration):
                    recent.clear()
            recent[text] = size
        return size

    def sizes(self, texts: list[str]) -> list[int]:
        """``[self(text) for text in texts]``, with fewer Python calls for the
        short texts already remembered."""
        cache = self._cache
        known = [cache.get(text) for text in texts]
        return [
            self(text) if size is None else size for size, text in zip(known, texts, strict=True)
        ]

    def _checked(self, text: str) -> int:
        size = self._count(text)
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            # (An int may be shown; anything else may be the text itself.)
            got = f"int {size}" if isinstance(size, int) else described(size)
            raise ValueError(
                f"{self.param} must return an int >= 0, got {got} (from {self.spec!r:.80})"
            )
        return size

    def __repr__(self) -> str:
        return "Measure(chars)" if self.spec is None else f"Measure({self.spec!r:.80})"

    def __reduce__(self) -> tuple[Callable[[object, str], Measure], tuple[object, str]]:
        # Pickled as what the user passed (a named encoding is loaded again):
        # the counting function is a closure over a tokenizer.
        return _measure_again, (self.spec, self.param)


def _measure_again(spec: object, param: str) -> Measure:
    return measure_for(spec, param=param)


#: Characters (code points): the default measure.
CHARS = Measure(len, unit="chars", additive=True, spec=None)


def measure_for(spec: object, *, param: str = "length") -> Measure:
    """The :class:`Measure` for ``spec`` (see the module docstring).

    Raises ``TypeError`` naming ``param`` for anything that is none of the
    accepted kinds, ``ValueError`` for an unknown encoding name and
    ``ImportError`` naming the ``tokens`` extra when a name needs bpe-openai.
    """
    if spec is None or spec is len:
        return CHARS
    if isinstance(spec, Measure):
        return spec
    if isinstance(spec, str):
        return Measure(_named(spec, param), unit="tokens", additive=False, spec=spec, param=param)
    count = _tokenizer_count(spec)
    if count is not None:
        # An Encoding that is a shipped named one is recorded by its name, so
        # that a chunker sized by it has a spec (Guard.to_dict()).
        return Measure(
            count,
            unit="tokens",
            additive=False,
            spec=_shipped_name(spec) or spec,
            param=param,
            bound=_normalized_bytes(spec),
        )
    if callable(spec):
        return Measure(spec, unit="units", additive=False, spec=spec, param=param)
    raise TypeError(
        f"{param} must be a tokenizer name, a tokenizer object (tiktoken/bpe-openai "
        "Encoding, tokenizers.Tokenizer, transformers tokenizer) or a callable "
        f"str -> int; got {type(spec).__name__}: {spec!r:.80}"
    )


#: The encodings bpe-openai ships (it downloads the others).
_SHIPPED_NAMES = ("cl100k_base", "o200k_base")
_SHIPPED = ", ".join(map(repr, _SHIPPED_NAMES))

#: Text an Encoding must tokenize as the named encoding does to be recorded
#: by its name: words, digits, punctuation, runs of spaces and line breaks,
#: Cyrillic, CJK, an emoji sequence.
_PROBE = (
    "Hello, world! It's 2024-07-09: 3.14 and 1,000,000 (x_y). \n\n  \tdone;"
    " Привет, мир. 你好\uff0c世界。こんにちは 👩🏽\u200d💻 café naïve"
)


def _shipped_name(tokenizer: object) -> str | None:
    """The name of the shipped encoding that ``tokenizer`` (a tiktoken or
    bpe-openai ``Encoding``) is, or ``None``: its ``name`` is a shipped one and
    it tokenizes :data:`_PROBE` as bpe-openai's encoding of that name does (a
    custom Encoding may reuse a name).  ``None`` without bpe-openai."""
    name = getattr(tokenizer, "name", None)
    ordinary = getattr(tokenizer, "encode_ordinary", None)
    if name not in _SHIPPED_NAMES or not callable(ordinary):
        return None
    try:
        import bpe_openai  # type: ignore[import-untyped, import-not-found, unused-ignore]

        same = list(bpe_openai.get_encoding(name).encode_ordinary(_PROBE)) == list(ordinary(_PROBE))
    except Exception:
        return None
    return name if same else None


def _named(name: str, param: str) -> Callable[[str], int]:
    try:
        import bpe_openai  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError as error:
        raise ImportError(f"{param}={name!r}: {_TOKENS_HINT}", name=error.name) from error
    try:
        encoding = bpe_openai.get_encoding(name)
    except Exception as error:
        if name in bpe_openai.list_encoding_names():
            # (bpe-openai ships some encodings and downloads the others.)
            raise ValueError(
                f"{param}={name!r:.80}: bpe-openai could not load this encoding "
                f"({type(error).__name__}); it ships {_SHIPPED} and downloads the others"
            ) from None
        try:
            encoding = bpe_openai.get_encoding(bpe_openai.encoding_name_for_model(name))
        except Exception:
            raise ValueError(
                f"{param}={name!r:.80} is not a known encoding or model; choose one of "
                f"{_SHIPPED} (shipped), or a model name such as 'gpt-4o'"
            ) from None
    count = _tokenizer_count(encoding)
    assert count is not None
    return count


#: bpe-openai refuses a single call over 200,000 tokens: longer texts are
#: measured in pieces of this many characters (cut after whitespace).
_PIECE = 100_000


def _tokenizer_count(tokenizer: Any) -> Callable[[str], int] | None:
    """A counting function for a duck-typed tokenizer object, or ``None``."""
    ordinary = getattr(tokenizer, "encode_ordinary", None)
    fast = getattr(getattr(tokenizer, "_backend", None), "count", None)
    bpe_openai = type(tokenizer).__module__.startswith("bpe_openai")
    if callable(ordinary) and callable(fast) and bpe_openai:
        # bpe-openai counts without building a token list (several times faster
        # per call than encode_ordinary); the same count (tested).

        def count_fast(text: str) -> int:
            if len(text) > _PIECE:
                return sum(map(count_fast, _pieces(text)))
            try:
                return int(fast(text))
            except UnicodeEncodeError:  # lone surrogates: as encode_ordinary sanitises
                return len(ordinary(text))

        return count_fast
    if callable(ordinary):  # tiktoken / bpe-openai Encoding

        def count_ordinary(text: str) -> int:
            if len(text) <= _PIECE:
                return len(ordinary(text))
            return sum(len(ordinary(part)) for part in _pieces(text))

        return count_ordinary
    encode = getattr(tokenizer, "encode", None)
    if not callable(encode):
        return None
    module = type(tokenizer).__module__
    if module.startswith("tokenizers"):  # tokenizers.Tokenizer: an Encoding object
        encode = _untruncated(tokenizer).encode

        def count_encoding(text: str) -> int:
            try:
                return len(encode(text, add_special_tokens=False).ids)
            except TypeError:  # lone surrogates: counted as U+FFFD, as tiktoken does
                if text.isascii():
                    raise
                return len(encode(_sanitised(text), add_special_tokens=False).ids)

        return count_encoding
    if module.startswith("transformers") or hasattr(tokenizer, "convert_tokens_to_ids"):

        def count_ids(text: str) -> int:
            return len(encode(text, add_special_tokens=False))

        return count_ids
    return None


def _normalized_bytes(tokenizer: Any) -> Callable[[str], int] | None:
    """For a tokenizer with a normalizer (``tokenizers.Tokenizer``, or a fast
    ``transformers`` tokenizer's backend): the UTF-8 bytes of a text as
    normalized (at least those of the text), a bound on its tokens; else
    ``None`` (the text's own bytes bound them)."""
    backend = getattr(tokenizer, "backend_tokenizer", tokenizer)
    if not type(backend).__module__.startswith("tokenizers"):
        return None
    normalize = getattr(getattr(backend, "normalizer", None), "normalize_str", None)
    if not callable(normalize):
        return None

    def bound(text: str) -> int:
        size = _utf8(text)
        try:
            normal = normalize(text)
        except TypeError:  # lone surrogates: counted as U+FFFD
            normal = normalize(_sanitised(text))
        return max(size, _utf8(normal))

    return bound


def _utf8(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _sanitised(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (a pair is joined)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _untruncated(tokenizer: Any) -> Any:
    """``tokenizer`` (a ``tokenizers.Tokenizer``), or a copy of it without
    truncation and padding when it has either (the caller's is left as it is)."""
    if (
        getattr(tokenizer, "truncation", None) is None
        and getattr(tokenizer, "padding", None) is None
    ):
        return tokenizer
    plain = copy.deepcopy(tokenizer)
    plain.no_truncation()
    plain.no_padding()
    return plain


def _pieces(text: str) -> list[str]:
    """``text`` in consecutive parts of about :data:`_PIECE` characters, each
    ending after a whitespace character where one is near (a token rarely spans
    one), so that the counts add up to about the count of the whole."""
    parts = []
    start, n = 0, len(text)
    while n - start > _PIECE:
        end = start + _PIECE
        cut = max(text.rfind(" ", start + _PIECE // 2, end), text.rfind("\n", start, end))
        end = cut + 1 if cut > start else end
        parts.append(text[start:end])
        start = end
    parts.append(text[start:])
    return parts
