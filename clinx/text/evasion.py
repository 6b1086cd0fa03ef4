"""A seeded evasion set: identifiers hidden with Unicode tricks, and the recall of a text level on it.

Each item is a clinical question holding one identifier (a name, an e-mail
address, an SSN, a phone number, an MRN or a date) written with one of these
evasions:

* ``homoglyph`` — some characters swapped for look-alikes from other scripts
  (Unicode's TR39 confusables: Cyrillic ``а`` for ``a``, Greek ``ο`` for
  ``o``; digits from other scripts or their look-alikes, ``З`` for ``3``);
* ``zero_width`` — invisible characters (zero-width space/joiners, word
  joiner, BOM, soft hyphen) inserted inside the identifier;
* ``full_width`` — the identifier in full-width or mathematical alphanumeric
  forms (``０３/１４/１９６１``, ``𝐉𝐨𝐡𝐧``);
* ``mixed`` — all three at once.

The same identifiers are also kept plain (no evasion): the level's recall on
those is the baseline, so a gap between the two is what Unicode costs.

An identifier *leaked* when any of its tokens (3+ characters) is still found
in the output after folding (:func:`clinx.text.manifest_scan.surviving_tokens`,
which reads the output exactly as an attacker's recogniser would).
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass

from clinx.text.unicode import _confusables

__all__ = ["EVASIONS", "CATEGORIES", "EvasionItem", "build_evasion_set", "evasion_recall"]

EVASIONS: tuple[str, ...] = ("homoglyph", "zero_width", "full_width", "mixed")
CATEGORIES: tuple[str, ...] = ("NAME", "EMAIL", "SSN", "PHONE", "MRN", "DATE")

#: Invisible characters an attacker slips into a token.
ZERO_WIDTH: tuple[str, ...] = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u180e", "\ufe0f")

# Decimal digits of other scripts (Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, Thai).
_SCRIPT_ZEROS = (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50)
# Mathematical alphanumerics: bold, italic (letters), sans-serif bold, monospace.
_MATH_UPPER = (0x1D400, 0x1D5D4, 0x1D670)
_MATH_DIGIT = (0x1D7CE, 0x1D7EC, 0x1D7F6)

_TEMPLATES: dict[str, tuple[str, ...]] = {
    "NAME": (
        "Is {}'s left lung clear?",
        "Patient {}, is the lung clear?",
        "Seen by Dr. {} today: any effusion?",
        "Does {} have cardiomegaly?",
        "Scan of {}: is there a fracture?",
    ),
    "EMAIL": ("Email {} about the effusion?", "Send the report to {}, is the heart enlarged?", "Contact: {} - any nodule?"),
    "SSN": ("SSN {} effusion?", "Patient SSN {}: is the liver normal?", "social security number {}, any mass?"),
    "PHONE": ("Call {} about the CT?", "Phone {}: is the lung clear?", "Reach the family at {} - fracture?"),
    "MRN": ("MRN {} left lung clear?", "Medical record number {}: any effusion?", "MRN: {} is the heart enlarged?"),
    "DATE": ("Scan from {}, is the heart enlarged?", "DOB {}: any pneumothorax?", "Admitted on {} - is there edema?"),
}


@dataclass(frozen=True)
class EvasionItem:
    """One question: the identifier's ``category``, its plain ``value``, the ``evasion`` used, the ``text`` and ``context`` (the question without the identifier)."""

    category: str
    value: str
    evasion: str
    text: str
    context: str


def _lookalikes() -> dict[str, list[str]]:
    """ASCII character → its non-ASCII confusables that are not mere compatibility forms (TR39)."""
    import unicodedata

    out: dict[str, list[str]] = defaultdict(list)
    for ch, target in _confusables().items():
        if unicodedata.normalize("NFKC", ch).isascii():
            continue  # full-width / math forms are the full_width evasion
        if unicodedata.category(ch)[0] not in "LN":
            continue  # punctuation look-alikes: keep the set about letters and digits
        if unicodedata.category(ch) == "Nd" and str(unicodedata.decimal(ch)) != target:
            continue  # an Arabic-Indic zero looks like "." but *is* a digit: a reader takes it as 0
        out[target].append(ch)
    return {k: sorted(v) for k, v in out.items()}


def _values(rng: random.Random, category: str, n: int) -> list[str]:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(rng.randrange(1 << 30))
    out: list[str] = []
    while len(out) < n:
        if category == "NAME":
            v = f"{fake.first_name()} {fake.last_name()}"
        elif category == "EMAIL":
            v = f"{fake.first_name().lower()}.{fake.last_name().lower()}@{fake.free_email_domain()}"
        elif category == "SSN":
            v = f"{rng.randint(100, 899):03d}-{rng.randint(10, 99):02d}-{rng.randint(1000, 9999):04d}"
        elif category == "PHONE":
            a, b, c = rng.randint(201, 989), rng.randint(200, 999), rng.randint(1000, 9999)
            v = rng.choice((f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}"))
        elif category == "MRN":
            v = f"{rng.randint(0, 99_999_999):08d}"
        else:
            d = fake.date_between(start_date="-90y", end_date="-1y")
            v = rng.choice((f"{d.month:02d}/{d.day:02d}/{d.year}", d.isoformat(), f"{d.day:02d}.{d.month:02d}.{d.year}"))
        if v not in out:
            out.append(v)
    return out


def _homoglyph(value: str, rng: random.Random, table: dict[str, list[str]]) -> str:
    chars = list(value)
    swappable = [i for i, c in enumerate(chars) if c in table or c.isdigit()]
    k = max(1, len(swappable) // 3)
    for i in sorted(rng.sample(swappable, min(k, len(swappable)))):
        c = chars[i]
        if c.isdigit() and (c not in table or rng.random() < 0.5):
            chars[i] = chr(rng.choice(_SCRIPT_ZEROS) + int(c))
        else:
            chars[i] = rng.choice(table[c])
    return "".join(chars)


def _zero_width(value: str, rng: random.Random) -> str:
    chars = list(value)
    inner = list(range(1, len(chars)))
    for i in sorted(rng.sample(inner, min(max(1, len(inner) // 3), len(inner))), reverse=True):
        chars.insert(i, rng.choice(ZERO_WIDTH))
    return "".join(chars)


def _full_width(value: str, rng: random.Random) -> str:
    style = rng.random()
    out = []
    for c in value:
        if style < 0.6 and "!" <= c <= "~":
            out.append(chr(ord(c) - 0x21 + 0xFF01))  # full-width block mirrors ASCII 0x21-0x7E
        elif c.isdigit():
            out.append(chr(rng.choice(_MATH_DIGIT) + int(c)))
        elif "A" <= c <= "Z":
            out.append(chr(rng.choice(_MATH_UPPER) + ord(c) - ord("A")))
        elif "a" <= c <= "z":
            out.append(chr(rng.choice(_MATH_UPPER) + 26 + ord(c) - ord("a")))
        else:
            out.append(c)
    return "".join(out)


def _evade(value: str, evasion: str, rng: random.Random, table: dict[str, list[str]]) -> str:
    if evasion == "homoglyph":
        return _homoglyph(value, rng, table)
    if evasion == "zero_width":
        return _zero_width(value, rng)
    if evasion == "full_width":
        return _full_width(value, rng)
    if evasion == "mixed":
        return _zero_width(_full_width(_homoglyph(value, rng, table), rng), rng)
    if evasion == "plain":
        return value
    raise KeyError(f"unknown evasion {evasion!r}; known: {', '.join(EVASIONS)}, plain")


def build_evasion_set(n_per_cell: int = 25, seed: int = 0, evasions: tuple[str, ...] = EVASIONS) -> list[EvasionItem]:
    """``n_per_cell`` identifiers per (category, evasion) cell, seeded: 6 × 4 × 25 = 600 by default.

    Each identifier value is used once per evasion, so ``evasion="plain"``
    with the same seed gives the same identifiers unevaded (the baseline).
    """
    rng = random.Random(seed)
    table = _lookalikes()
    items: list[EvasionItem] = []
    for cat in CATEGORIES:
        values = _values(random.Random(rng.randrange(1 << 30)), cat, n_per_cell)
        for ev in evasions:
            erng = random.Random(f"{seed}:{cat}:{ev}")
            for j, v in enumerate(values):
                tpl = _TEMPLATES[cat][j % len(_TEMPLATES[cat])]
                items.append(EvasionItem(cat, v, ev, tpl.format(_evade(v, ev, erng, table)), tpl.format(" ")))
    return items


def evasion_recall(level: str = "L2", *, n_per_cell: int = 25, seed: int = 0, pipeline=None) -> dict:
    """Recall of a text level on the evasion set, and on the same identifiers without evasion.

    Returns flat figures: ``recall/evasion/<level>`` (identifiers of which no
    token survives, over all evasions), ``recall/evasion/<level>/<evasion>``,
    ``recall/evasion/<level>/<category>``, ``recall/plain/<level>`` (the
    baseline), ``recall/evasion/<level>/vs_plain`` (of the identifiers caught
    when written plainly, the share still caught when evaded: the cost of
    Unicode alone), ``n_identifiers`` (evaded) and ``leaked/<level>`` (count) — never
    a value. ``pipeline`` defaults to :class:`~clinx.text.pipeline.TextPipeline`
    at ``level`` (any object with ``run(text) -> TextResult`` will do).
    """
    from clinx.text.manifest_scan import surviving_tokens
    from clinx.text.pipeline import TextPipeline

    pipe = pipeline or TextPipeline(level)
    name = getattr(pipe, "level", level)
    items = build_evasion_set(n_per_cell, seed)
    plain = build_evasion_set(n_per_cell, seed, evasions=("plain",))

    def caught(it: EvasionItem) -> bool:
        out = pipe.run(it.text).text
        return not surviving_tokens(it.value, out, ignore_text=it.context)

    hits = [caught(it) for it in items]
    by_ev: dict[str, list[bool]] = defaultdict(list)
    by_cat: dict[str, list[bool]] = defaultdict(list)
    for it, h in zip(items, hits):
        by_ev[it.evasion].append(h)
        by_cat[it.category].append(h)
    base = {(it.category, it.value): caught(it) for it in plain}
    # identifiers the level finds when written plainly: what Unicode alone costs
    known = [h for it, h in zip(items, hits) if base[(it.category, it.value)]]
    out: dict = {
        f"recall/evasion/{name}": sum(hits) / len(hits),
        "n_identifiers": len(items),
        f"leaked/{name}": len(hits) - sum(hits),
        f"recall/plain/{name}": sum(base.values()) / len(base),
        f"recall/evasion/{name}/vs_plain": sum(known) / len(known) if known else 0.0,
    }
    for ev in EVASIONS:
        out[f"recall/evasion/{name}/{ev}"] = sum(by_ev[ev]) / len(by_ev[ev])
    for cat in CATEGORIES:
        out[f"recall/evasion/{name}/{cat}"] = sum(by_cat[cat]) / len(by_cat[cat])
    return out
