"""Unicode folding: the one view of a text that every recogniser, manifest match and re-scan sees.

An identifier hidden with look-alike characters is still an identifier to the
reader: ``Jаmes`` with a Cyrillic ``а``, ``1​2​3-4​5-6​789`` with zero-width
spaces, a date in full-width digits ``０３/１４/１９６１``. Recognisers are
written for Latin letters and ASCII digits, so before they run the text is
*folded*, character by character:

1. format characters are removed: every ``Cf`` code point (zero-width
   space/joiners, soft hyphen, bidi controls, word joiner, BOM, tag
   characters), variation selectors, the combining grapheme joiner and the
   Hangul fillers — they render as nothing and only split tokens;
2. compatibility forms are decomposed (NFKD: full-width, mathematical
   alphanumerics, ligatures, circled and super-/subscript digits) and
   combining marks dropped, then recomposed (NFKC), so ``José`` reads ``Jose``
   and a stray combining mark does not split a name;
3. decimal digits of any script become ASCII digits (``٣`` → ``3``);
4. confusables (homoglyphs) become the ASCII character they imitate, from
   Unicode's confusables table (TR39) as shipped by ``confusable-homoglyphs``;
   a look-alike of ``O`` or ``l`` between digits is read as ``0`` / ``1``;
5. every space separator becomes ``" "``, line/paragraph separators ``"\\n"``;
6. optionally (manifest matching) the result is case-folded.

:func:`fold` returns the folded string and an index map from each folded
character to the offset of the original character it came from, so a span
found in the folded view is replaced in the *original* text
(:meth:`Folded.span_back`). ASCII text takes a fast path: no map, no copy.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Folded", "fold", "fold_char", "is_foldable", "confusables_version"]

# Renders as nothing but is not Cf: variation selectors (Mn), the combining grapheme
# joiner (Mn), Hangul fillers (Lo) and the braille blank (So, looks like a space).
_INVISIBLE = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
    + ["\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u17b4", "\u17b5", "\u180b", "\u180c", "\u180d", "\u180f"]
)
_BLANKS = frozenset(["\u2800"])

# A confusable of O or l standing between digits stands for 0 or 1 ("SSN 123-45-67О9").
_DIGITISH = {"O": "0", "o": "0", "l": "1", "I": "1", "i": "1"}

_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")


@lru_cache(maxsize=1)
def _confusables() -> dict[str, str]:
    """Non-ASCII character → the single ASCII character it is confusable with (TR39 data)."""
    from confusable_homoglyphs.confusables import confusables_data

    out: dict[str, str] = {}
    for ch, glyphs in confusables_data.items():
        if len(ch) != 1 or ch.isascii():
            continue
        targets = sorted({g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isprintable() and g["c"] != " "})
        if not targets:
            continue
        t = targets[0]
        # TR39 maps I to its prototype l; an upper-case look-alike of I is an I
        # (Greek Ι, Cyrillic І), otherwise "Іvan" would read "lvan"
        if t == "l" and ch.isupper():
            t = "I"
        out[ch] = t
    return out


def confusables_version() -> str:
    """Version of the confusables data in use (part of the text pipeline's fingerprint)."""
    from importlib.metadata import version

    return f"confusable-homoglyphs {version('confusable-homoglyphs')}; unicodedata {unicodedata.unidata_version}"


@lru_cache(maxsize=65536)
def fold_char(ch: str, casefold: bool = False) -> str:
    """The folded form of one character (``""`` for a character that renders as nothing)."""
    if ch.isascii():
        return ch.lower() if casefold else ch
    cat = unicodedata.category(ch)
    if cat == "Cf" or ch in _INVISIBLE:
        return ""
    if cat == "Zs" or ch in _BLANKS:
        return " "
    if cat in ("Zl", "Zp"):
        return "\n"
    nfkc = unicodedata.normalize("NFKC", ch)
    if nfkc.isascii():  # full-width, mathematical, ligature, circled forms
        return nfkc.lower() if casefold else nfkc
    conf = _confusables()
    if ch in conf and cat != "Nd":
        # before decomposing: NFKD can turn a confusable into a letter that is not
        # one (Greek lunate sigma ϲ, a "c", decomposes to final sigma ς)
        s = conf[ch]
        return s.lower() if casefold else s
    out: list[str] = []
    for c in unicodedata.normalize("NFKD", ch):
        if c.isascii():
            out.append(c)
            continue
        ccat = unicodedata.category(c)
        if ccat in ("Mn", "Me", "Cf") or c in _INVISIBLE:
            continue  # a combining mark or an invisible left over by the decomposition
        if ccat == "Nd":
            out.append(str(unicodedata.decimal(c)))
        elif ccat == "Zs":
            out.append(" ")
        else:
            out.append(conf.get(c, c))
    s = unicodedata.normalize("NFKC", "".join(out))
    if not s.isascii():
        # NFKC may compose back into something confusable ("ı" + nothing stays; Hangul jamo recompose)
        s = "".join(conf.get(c, c) for c in s)
    return s.casefold() if casefold else s


def is_foldable(text: str) -> bool:
    """True when :func:`fold` could change ``text`` (it holds a non-ASCII character)."""
    return not text.isascii()


@dataclass(frozen=True)
class Folded:
    """A folded view of a text.

    ``text`` is the folded string; ``index[i]`` is the offset in the original
    of the character that produced folded character ``i`` (``None`` when the
    view is the original itself, offsets 1:1); ``original_len`` the length of
    the original.
    """

    text: str
    index: list[int] | None
    original_len: int

    @property
    def identity(self) -> bool:
        """True when the folded view is the original text (same characters, same offsets)."""
        return self.index is None

    def span_back(self, start: int, end: int) -> tuple[int, int]:
        """The original span ``[s, e)`` covering folded ``[start, end)``.

        The end extends over every original character that produced the last
        folded one and over format characters (zero-width…) just before the
        next, so nothing of the identifier stays behind.
        """
        idx = self.index
        if idx is None:
            return start, end
        if not idx or end <= start:
            p = idx[start] if start < len(idx) else self.original_len
            return p, p
        s = idx[min(start, len(idx) - 1)]
        e = idx[end] if end < len(idx) else self.original_len
        # e is where the next folded character starts; don't swallow a visible
        # character between (there is none: every visible one maps to a folded one)
        return s, max(e, idx[end - 1] + 1)


def fold(text: str, *, casefold: bool = False) -> Folded:
    """Fold ``text`` (see the module docstring); ``casefold=True`` also case-folds.

    ASCII text is returned as is (or lower-cased with ``casefold``) with no
    index map: the fast path taken by nearly every clinical question.
    """
    if text.isascii():
        return Folded(text.lower() if casefold else text, None, len(text))
    parts: list[str] = []
    index: list[int] = []
    pos = 0
    digitish: list[int] = []  # folded positions where a look-alike of O/l was written
    flen = 0
    for m in _NON_ASCII_RE.finditer(text):
        a, b = m.span()
        if a > pos:
            run = text[pos:a]
            parts.append(run.lower() if casefold else run)
            index.extend(range(pos, a))
            flen += a - pos
        for i in range(a, b):
            f = fold_char(text[i], casefold)
            if not f:
                continue
            if f in _DIGITISH or f == "i":
                digitish.append(flen)
            parts.append(f)
            index.extend([i] * len(f))
            flen += len(f)
        pos = b
    if pos < len(text):
        run = text[pos:]
        parts.append(run.lower() if casefold else run)
        index.extend(range(pos, len(text)))
    out = "".join(parts)
    if digitish:
        out = _digits_between(out, digitish)
    if out == text and len(index) == len(text):
        return Folded(text, None, len(text))
    return Folded(out, index, len(text))


def _digits_between(s: str, positions: list[int]) -> str:
    """Read a look-alike of O / l as 0 / 1 where a digit stands on either side of it."""
    chars = list(s)
    n = len(chars)
    for p in positions:
        c = chars[p]
        d = _DIGITISH.get(c)
        if d is None:
            continue
        left = chars[p - 1] if p > 0 else ""
        right = chars[p + 1] if p + 1 < n else ""
        if left.isdigit() or right.isdigit():
            chars[p] = d
    return "".join(chars)
