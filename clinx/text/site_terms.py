"""A custodian's own term lists: what to remove wherever it stands, and what to keep.

A hospital knows what no lexicon does: the facilities, programmes and employers its patients come from, the towns
it serves, its staff roster, and the ward names that look like surnames ("Ellison 4", "Phillips House"). The setting
``text.l1.site_terms`` names a file of them, as Presidio's deny and allow lists and Philter's blacklist and
whitelist do. Two formats:

* text, one ``CATEGORY<TAB>term`` per line, ``#`` starting a comment::

      HOSPITAL	Silver Ridge
      NAME	Okonkwo
      LOCATION	Fields Corner
      keep	Ellison 4

* JSON, ``{"HOSPITAL": ["Silver Ridge"], "NAME": [...], "keep": ["Ellison 4"]}``.

``CATEGORY`` is a placeholder category (:data:`clinx.text.base.CATEGORIES`) or ``keep``. Terms match as whole words,
in any letter case, with any punctuation or blanks between their words ("silver ridge", "SILVER-RIDGE"). A listed
term is removed by L1 wherever it stands; a span a recogniser or L2 would remove is kept when it lies inside a
``keep`` term. A row's manifest outranks ``keep``: a value the custodian listed for that row is always removed.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from clinx.text.base import CATEGORIES, Candidate

_WORD_RE = re.compile(r"[^\W_]+")
#: What may stand between two words of a term in the text: blanks and punctuation on one line.
_GAP_RE = re.compile(r"[^\w\n]{1,3}")
KEEP = "keep"


def _words(term: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD_RE.findall(term))


@dataclass(frozen=True)
class SiteTerms:
    """Terms to remove (``remove``: words -> category) and to keep (``keep``), indexed by first word."""

    remove: dict[tuple[str, ...], str]
    keep: frozenset[tuple[str, ...]]
    digest: str

    def __post_init__(self) -> None:
        index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for words, cat in list(self.remove.items()) + [(w, KEEP) for w in self.keep]:
            index.setdefault(words[0], []).append((words, cat))
        for entries in index.values():
            entries.sort(key=lambda e: -len(e[0]))  # longest term first: "Silver Ridge Hospital" before "Silver Ridge"
        object.__setattr__(self, "_index", index)

    def matches(self, text: str) -> list[tuple[int, int, str]]:
        """``(start, end, category)`` of every listed term in ``text`` (``category`` may be ``keep``), longest first."""
        index = self._index  # type: ignore[attr-defined]
        toks = [(m.start(), m.end(), m.group().lower()) for m in _WORD_RE.finditer(text)]
        out: list[tuple[int, int, str]] = []
        i = 0
        while i < len(toks):
            hit = None
            for words, cat in index.get(toks[i][2], ()):
                j = i + len(words)
                if j <= len(toks) and all(toks[i + k][2] == w for k, w in enumerate(words)) and all(
                    _GAP_RE.fullmatch(text, toks[i + k][1], toks[i + k + 1][0]) for k in range(len(words) - 1)
                ):
                    hit = (toks[i][0], toks[j - 1][1], cat, j)
                    break
            if hit is None:
                i += 1
                continue
            out.append(hit[:3])
            i = hit[3]
        return out

    def apply(self, text: str, cands: list[Candidate], *, remove: bool = True) -> list[Candidate]:
        """``cands`` without those inside a term to keep ("transferred to Ellison 4": the ward, not a surname), plus
        (``remove``, L1) a candidate for every listed term to remove; one pass over the text for both lists."""
        found = self.matches(text)
        kept = [(s, e) for s, e, cat in found if cat == KEEP]
        if kept:
            cands = [c for c in cands if not any(s <= c.start and c.end <= e for s, e in kept)]
        if remove:
            cands = cands + [Candidate(s, e, cat, "site_terms", 0.99) for s, e, cat in found if cat != KEEP]
        return cands


def _parse(path: Path) -> tuple[dict[tuple[str, ...], str], set[tuple[str, ...]]]:
    raw = path.read_text(encoding="utf-8")
    pairs: list[tuple[str, str, str]] = []  # (where, category, term)
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"site terms {path}: not valid JSON (line {e.lineno})") from None
        if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
            raise ValueError(f"site terms {path}: expected an object of category -> list of terms")
        for cat, terms in data.items():
            for k, term in enumerate(terms):
                pairs.append((f"{cat}[{k}]", str(cat), str(term)))
    else:
        for n, line in enumerate(raw.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cat, sep, term = line.partition("\t")
            if not sep:
                raise ValueError(f"site terms {path}, line {n}: expected CATEGORY<TAB>term")
            pairs.append((f"line {n}", cat.strip(), term))
    remove: dict[tuple[str, ...], str] = {}
    keep: set[tuple[str, ...]] = set()
    for where, cat, term in pairs:
        words = _words(term)
        if not words:
            raise ValueError(f"site terms {path}, {where}: the term has no letters or digits")
        if cat.lower() == KEEP:
            keep.add(words)
        elif cat.upper() in CATEGORIES:
            remove[words] = cat.upper()
        else:
            raise ValueError(f"site terms {path}, {where}: unknown category; use one of {', '.join(CATEGORIES)} or keep")
    return remove, keep


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> SiteTerms:
    p = Path(path)
    remove, keep = _parse(p)
    return SiteTerms(remove=remove, keep=frozenset(keep), digest=hashlib.sha256(p.read_bytes()).hexdigest()[:16])


def load_site_terms(path: str | Path | None) -> SiteTerms | None:
    """The term lists in ``path`` (None for None), read once per file version. Errors name the file and line, never a term."""
    if path is None or str(path) == "":
        return None
    p = Path(path).expanduser()
    if not p.is_file():
        raise FileNotFoundError(f"site terms: {p} is not a file")
    st = p.stat()
    return _load(str(p.resolve()), st.st_mtime_ns, st.st_size)


__all__ = ["KEEP", "SiteTerms", "load_site_terms"]
