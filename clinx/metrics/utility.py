"""Utility metrics for MedVQA answers: normalised exact match, token F1, yes/no EM.

The ClinX paper (§4.1) reports EM, token-level F1 and yes/no EM. Public VQA
scripts disagree on what "exact match" means — some call the fraction of
reference words found in the prediction "exact match". clinx uses the strict
reading: after VQA-style normalisation the prediction string must *equal* the
reference string.

Normalisation (applied to prediction and reference alike), in order:

1. Unicode NFKC and lower-casing;
2. apostrophes dropped, other punctuation removed (a decimal point between digits and a hyphen or slash
   between word characters are kept as separators: ``"t2-weighted"`` becomes
   ``"t2 weighted"``, ``"0.5"`` stays ``"0.5"``);
3. number words ``zero``…``twenty`` become digits (``"two"`` -> ``"2"``);
4. the articles ``a``, ``an``, ``the`` are dropped;
5. whitespace collapsed.

Yes/no EM is computed over closed questions whose reference is ``yes`` or
``no``. The prediction's yes/no value is its first normalised token; anything
else (``"maybe"``, an empty string, ``"left lung"``) counts as wrong, never as
"not applicable", so a model cannot raise its score by hedging.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

_NUMBER_WORDS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
    "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
    "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14", "fifteen": "15",
    "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
    # The official VQA evaluation maps "none" to "0" too: for counting questions
    # ("how many nodules?") "none" and "0" are the same answer. "no" is left
    # alone because it is the yes/no answer.
    "none": "0",
}
_ARTICLES = {"a", "an", "the"}
# Decimal points between digits survive; every other punctuation mark becomes a space.
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_PUNCT = re.compile(r"[^\w\s\u0001]", flags=re.UNICODE)
_UNDERSCORE = re.compile(r"_")
_APOSTROPHE = re.compile(r"['\u2019`]")
_SPACES = re.compile(r"\s+")
YES_NO = ("yes", "no")


def normalize_answer(text: object) -> str:
    """VQA-style normalisation of one answer string (see module docstring).

    ``None`` and non-strings are converted with ``str`` (``None`` -> ``""``).
    """
    if text is None:
        return ""
    s = unicodedata.normalize("NFKC", str(text)).lower()
    # Protect decimal points with a placeholder the punctuation pass keeps.
    s = _DECIMAL.sub("\u0001", s)
    # Apostrophes join rather than split ("patient's" -> "patients", not "patient s").
    s = _APOSTROPHE.sub("", s)
    s = _PUNCT.sub(" ", s)
    s = _UNDERSCORE.sub(" ", s)
    s = s.replace("\u0001", ".")
    tokens = []
    for tok in s.split():
        tok = _NUMBER_WORDS.get(tok, tok)
        if tok in _ARTICLES:
            continue
        tokens.append(tok)
    return _SPACES.sub(" ", " ".join(tokens)).strip()


def tokens(text: object) -> list[str]:
    """Normalised tokens of an answer."""
    n = normalize_answer(text)
    return n.split() if n else []


def exact_match(prediction: object, reference: object) -> float:
    """1.0 when the normalised prediction equals the normalised reference, else 0.0.

    Two empty strings are equal (1.0); an empty prediction against a non-empty
    reference is 0.0.
    """
    return float(normalize_answer(prediction) == normalize_answer(reference))


def token_f1(prediction: object, reference: object) -> float:
    """Token-level F1 over normalised tokens (multiset overlap, as in SQuAD).

    Both empty -> 1.0; exactly one empty -> 0.0.
    """
    p, r = tokens(prediction), tokens(reference)
    if not p and not r:
        return 1.0
    if not p or not r:
        return 0.0
    common = Counter(p) & Counter(r)
    overlap = sum(common.values())
    if overlap == 0:
        return 0.0
    precision = overlap / len(p)
    recall = overlap / len(r)
    return 2 * precision * recall / (precision + recall)


def yes_no_value(text: object) -> str | None:
    """``"yes"`` / ``"no"`` when the normalised answer starts with that word, else ``None``."""
    t = tokens(text)
    if t and t[0] in YES_NO:
        return t[0]
    return None


def is_yes_no_question(reference: object, answer_type: str = "closed") -> bool:
    """Whether an item counts for yes/no EM: a closed question whose reference is exactly yes or no."""
    return answer_type == "closed" and normalize_answer(reference) in YES_NO


def yes_no_em(prediction: object, reference: object, answer_type: str = "closed") -> float | None:
    """Yes/no exact match, or ``None`` when the item is not a yes/no question.

    A prediction that is not a yes/no answer ("maybe", "", "left lung") is wrong.
    """
    if not is_yes_no_question(reference, answer_type):
        return None
    return float(yes_no_value(prediction) == normalize_answer(reference))


def score_answer(prediction: object, reference: object, answer_type: str = "open") -> dict[str, float | None]:
    """All lexical metrics of one prediction: ``{"em", "f1", "yn_em"}`` (``yn_em`` may be ``None``)."""
    return {
        "em": exact_match(prediction, reference),
        "f1": token_f1(prediction, reference),
        "yn_em": yes_no_em(prediction, reference, answer_type),
    }


@dataclass(frozen=True)
class Mean:
    """A mean in percent with its standard error and the number of items it covers."""

    value: float
    se: float
    n: int

    def fmt(self, digits: int = 2) -> str:
        return "—" if self.n == 0 else f"{self.value:.{digits}f}"

    def to_dict(self) -> dict:
        return {"value": self.value, "se": self.se, "n": self.n}


def mean_pct(values: Iterable[float | None]) -> Mean:
    """Mean of 0/1 (or fractional) scores in percent, ignoring ``None``, with its standard error.

    The standard error (sample std / sqrt(n), in percent) is the measurement
    noise reports quote next to a difference between two conditions.
    An empty input gives ``Mean(nan, nan, 0)``.
    """
    xs = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    n = len(xs)
    if n == 0:
        return Mean(float("nan"), float("nan"), 0)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return Mean(100.0 * m, 100.0 * math.sqrt(var / n), n)


def aggregate(
    rows: Sequence[Mapping],
    by: Sequence[str],
    metrics: Sequence[str] = ("em", "f1", "yn_em"),
) -> dict[tuple, dict[str, Mean]]:
    """Group per-item score rows by the keys ``by`` and average each metric (percent).

    ``rows`` are mappings holding the ``by`` keys and metric values (``None``
    where a metric does not apply, e.g. yes/no EM on an open question).
    Returns ``{group_key_tuple: {metric: Mean}}`` in first-seen group order.
    """
    groups: dict[tuple, list[Mapping]] = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in by), []).append(r)
    return {k: {m: mean_pct(r.get(m) for r in rs) for m in metrics} for k, rs in groups.items()}


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Mean:
    """Mean and standard error (percent) of the per-item difference ``a - b``.

    Conditions are compared on the same items, so the paired standard error is
    the right noise yardstick: it cancels the item difficulty both share.
    """
    if len(a) != len(b):
        raise ValueError("paired_difference needs sequences of equal length")
    return mean_pct([x - y for x, y in zip(a, b) if x is not None and y is not None])
