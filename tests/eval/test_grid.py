"""The grid end to end on two items: every cell, caching, resume after an interruption, degradation."""

import json

import numpy as np
import pytest

from clinx.errors import CheckpointError
from clinx.eval.grid import CLEAN, GridRunner, GridSettings, TrueMasker
from clinx.eval.judge import LLMJudge
from clinx.eval.report import render_markdown, write_report
from clinx.sanitize.conditions import get_condition


def _settings(**kw):
    base = dict(conditions=["raw", "ocr"], levels=["l0", "l1", "l3"], leakage_only=[], ablation=True,
                leakage_engines=["fakeocr"], batch_size=4)
    base.update(kw)
    return GridSettings(**base)


def _runner(tmp_path, parts, ocr, settings=None, **kw):
    kw.setdefault("text_id", "fake-text-v1")
    return GridRunner(settings or _settings(), tmp_path / "cache", text_fn=parts.fake_text, masker=TrueMasker(),
                      ocr_engines={"fakeocr": ocr}, progress=False, **kw)


class Counting:
    """Wraps a VQA model, counts the items it is asked, optionally raises after ``fail_after`` items."""

    def __init__(self, inner, fail_after=None):
        self.inner, self.fail_after, self.asked = inner, fail_after, 0
        self.name = inner.name

    def fingerprint(self):
        return self.inner.fingerprint()

    def answer(self, images, questions):
        if self.fail_after is not None and self.asked + len(questions) > self.fail_after:
            raise KeyboardInterrupt("simulated interruption")
        self.asked += len(questions)
        return self.inner.answer(images, questions)


def test_two_item_grid_end_to_end(tmp_path, items, parts, fake_ocr, tiny_baseline):
    judge = LLMJudge(parts.FakeLLM(), name="fake")
    res = _runner(tmp_path, parts, fake_ocr).run({"toy": items}, {"baseline": tiny_baseline}, {"fake": judge})
    grid = [r for r in res.rows if r["block"] == "grid"]
    abl = [r for r in res.rows if r["block"] == "ablation"]
    assert len(grid) == 2 * 3 * 2  # conditions x levels x items
    assert len(abl) == 2 * 3 * 2  # (raw, clean) x levels x items
    assert {r["condition"] for r in abl} == {"raw", CLEAN}
    for r in res.rows:
        assert r["em"] in (0.0, 1.0) and r["yn_em"] in (0.0, 1.0) and r["judge/fake"] in (0.0, 1.0)
        # The fake judge agrees with exact match by construction: the judge saw the right fields.
        assert r["judge/fake"] == r["em"]
    # Leakage: raw leaks the name, black fill over the true mask leaks nothing.
    assert res.leakage["toy"]["raw"]["fakeocr"]["token_recall"] == 1.0
    assert res.leakage["toy"]["ocr"]["fakeocr"]["token_recall"] == 0.0
    # The ocr condition really blacked out the PHI band and nothing else.
    k = res.image_keys["toy"]["ocr"]["item0"]
    out = res.images.get(k)
    assert (out[2:10, 2:30] == 0).all() and np.array_equal(out[20:, :], items[0].image[20:, :])
    assert not res.missing and not res.failures

    doc = write_report(res, tmp_path / "report")
    assert doc["figures"]["token_recall/raw/fakeocr"] == 1.0
    assert "em/l0/raw" in doc["figures"] and "judge/fake/l3/ocr" in doc["figures"]
    assert (tmp_path / "report" / "privacy_utility.png").stat().st_size > 0
    assert (tmp_path / "report" / "qualitative.png").stat().st_size > 0
    text = (tmp_path / "report" / "tables.md").read_text() + (tmp_path / "report" / "results.json").read_text()
    for f in ("scores.csv", "table1.csv", "leakage.csv", "comparisons.csv"):
        text += (tmp_path / "report" / f).read_text()
    # No PHI and no question text in any report file.
    assert parts.NAME not in text and parts.NAME.upper() not in text and "lesion?" not in text


def test_rerun_is_pure_cache_reads(tmp_path, items, parts, fake_ocr, tiny_baseline):
    llm = parts.FakeLLM()
    first_model = Counting(tiny_baseline)
    r1 = _runner(tmp_path, parts, fake_ocr).run({"toy": items}, {"m": first_model}, {"j": LLMJudge(llm, "j")})
    # Identical pixels + words are answered once: l0/raw in the grid and in the ablation share a prediction.
    unique = len({(r["condition"], r["level"], r["item"]) for r in r1.rows})
    assert first_model.asked == unique
    reads, llm_calls = fake_ocr.reads, llm.calls

    again = Counting(tiny_baseline)
    r2 = _runner(tmp_path, parts, fake_ocr).run({"toy": items}, {"m": again}, {"j": LLMJudge(llm, "j")})
    assert again.asked == 0 and llm.calls == llm_calls and fake_ocr.reads == reads
    assert r2.counts.get("model_calls", 0) == 0 and r2.counts.get("images_built", 0) == 0
    assert r2.counts.get("judge_calls", 0) == 0 and r2.counts.get("texts_built", 0) == 0
    assert r2.counts["pred_cache_hits"] == first_model.asked
    strip = lambda rows: sorted(json.dumps(r, sort_keys=True) for r in rows)
    assert strip(r1.rows) == strip(r2.rows)


def test_interrupted_run_resumes(tmp_path, items, parts, fake_ocr, tiny_baseline):
    total = Counting(tiny_baseline)
    reference = _runner(tmp_path / "ref", parts, fake_ocr).run({"toy": items}, {"m": total})

    flaky = Counting(tiny_baseline, fail_after=5)  # batch_size 4: the first batch lands, the second raises
    with pytest.raises(KeyboardInterrupt):
        _runner(tmp_path, parts, fake_ocr).run({"toy": items}, {"m": flaky})
    assert flaky.asked == 4

    resumed = Counting(tiny_baseline)
    res = _runner(tmp_path, parts, fake_ocr).run({"toy": items}, {"m": resumed})
    assert resumed.asked == total.asked - 4  # only what the interrupted run had not finished
    strip = lambda rows: sorted(json.dumps(r, sort_keys=True) for r in rows)
    assert strip(res.rows) == strip(reference.rows)


def test_missing_condition_degrades_loudly(tmp_path, items, parts, fake_ocr, tiny_baseline):
    def factory(name):
        if name == "prism":
            raise CheckpointError("prism checkpoint not found at checkpoints/prism")
        return get_condition(name)

    s = _settings(conditions=["raw", "ocr", "prism"], levels=["l0"], ablation=False)
    res = _runner(tmp_path, parts, fake_ocr, settings=s, condition_factory=factory).run({"toy": items}, {"m": tiny_baseline})
    assert "condition/prism" in res.missing
    assert {r["condition"] for r in res.rows} == {"raw", "ocr"}
    md = render_markdown(res)
    assert "NOT EVALUATED" in md and "condition/prism" in md


def test_failed_text_level_fails_closed(tmp_path, items, parts, fake_ocr, tiny_baseline):
    items[1] = items[1].with_(question=f"{parts.NAME} asks: is there a lesion?")

    def text(t, level, manifest):
        if level == "l1" and t == items[1].question:
            raise RuntimeError("rewrite failed")
        return parts.fake_text(t, level, manifest)

    s = _settings(levels=["l0", "l1"], ablation=False, leakage=False)
    res = GridRunner(s, tmp_path / "c", text_fn=text, text_id="flaky-text", masker=TrueMasker(), progress=False).run(
        {"toy": items}, {"m": tiny_baseline})
    l1_items = {r["item"] for r in res.rows if r["level"] == "l1"}
    assert l1_items == {"item0"}  # item1 is never scored at l1 on its unsanitized question
    assert res.failures == [{"dataset": "toy", "item": "item1", "stage": "text/l1", "problem": "unexpected RuntimeError"}]


# ---------------------------------------------------------------------------- cache keys that know the parts


class TunableOCR:
    """A fake attacker with one setting; its fingerprint names the setting (as real engines' do)."""

    name = "tunable"

    def __init__(self, threshold):
        self.threshold, self.reads = threshold, 0

    def fingerprint(self):
        return f"tunable:threshold={self.threshold}"

    def read(self, image):
        self.reads += 1
        return []


def test_edited_setting_misses_the_cache_and_unchanged_settings_hit(tmp_path, items, parts, tiny_baseline, monkeypatch):
    """Every cached stage is keyed by its part's settings: change one, that stage recomputes; change none, nothing does."""
    from clinx.eval import grid as grid_mod
    from clinx.eval.grid import TextSanitizer
    from clinx.sanitize.conditions import BlackFillCondition

    def run(fill=0, threshold=0.5, text_threshold=0.6, max_tokens=12):
        ocr, llm = TunableOCR(threshold), parts.FakeLLM()
        s = _settings(conditions=["raw", "blackout"], levels=["l0", "l2"], ablation=False, leakage_engines=["tunable"])
        runner = GridRunner(s, tmp_path / "cache", condition_factory=lambda name: BlackFillCondition(fill)
                            if name == "blackout" else get_condition(name),
                            text_fn=TextSanitizer({"l2": {"threshold": text_threshold}}), masker=TrueMasker(),
                            ocr_engines={"tunable": ocr}, progress=False)
        res = runner.run({"toy": items}, {"m": Counting(tiny_baseline)}, {"j": LLMJudge(llm, "j", max_tokens=max_tokens)})
        return res.counts, ocr.reads

    first, reads = run()
    # (both items ask the same question with the same manifest: one sanitized text serves both)
    assert first["images_built"] == 2 and first["texts_built"] == 1 and reads == 4
    same, reads = run()  # nothing edited: pure cache reads
    assert same.get("images_built", 0) == same.get("texts_built", 0) == same.get("model_calls", 0) == 0 and reads == 0
    fill, reads = run(fill=9)  # condition setting -> new pixels -> new answers and reads for them only
    assert fill["images_built"] == 2 and fill.get("texts_built", 0) == 0 and reads == 2 and fill["model_calls"] > 0
    ocr_edit, reads = run(threshold=0.7)  # engine setting -> every image read again, nothing else
    assert reads == 4 and ocr_edit.get("images_built", 0) == 0 and ocr_edit.get("model_calls", 0) == 0
    text_edit, _ = run(text_threshold=0.9)  # text pipeline setting -> questions sanitized again
    assert text_edit["texts_built"] == 1 and text_edit.get("images_built", 0) == 0
    judge_edit, _ = run(max_tokens=5)  # judge decoding -> scores again, answers from the cache
    assert judge_edit["judge_calls"] > 0 and judge_edit.get("model_calls", 0) == 0
    monkeypatch.setattr(grid_mod, "__version__", "9.9.9")  # a new clinx version: nothing is served stale
    new, reads = run()
    assert new["images_built"] == 2 and new["texts_built"] == 1 and reads == 4 and new["model_calls"] > 0


# ---------------------------------------------------------------------------- the one sanitization core


class BandLocalizer:
    """Localizes the burned-in band (the true mask); reads a 'PHI' match wherever the band is still bright."""

    def __init__(self, label="band"):
        self.label = label

    def fingerprint(self):
        return f"band-localizer:{self.label}"

    def locate(self, image, manifest, *, item=None):
        import types

        bright = image[2:10, 2:30].mean() > 200
        mask = np.zeros(image.shape[:2], bool)
        mask[2:10, 2:30] = True
        matches = [types.SimpleNamespace(field="patient_name")] if bright else []
        return types.SimpleNamespace(mask=mask, matches=matches, detections=[])


def test_grid_pixels_are_the_pixels_clinx_sanitize_releases(tmp_path, items, parts, fake_ocr, tiny_baseline):
    """Same seed function, same outside-mask check, same verification: PRISM's stochastic output is bit-identical."""
    from clinx.eval.grid import OCRMasker
    from clinx.sanitize.runner import sanitize_samples

    s = _settings(conditions=["prism"], levels=["l0"], ablation=False, leakage=False, seed=7)
    res = GridRunner(s, tmp_path / "cache", text_fn=parts.fake_text, text_id="t", masker=OCRMasker(BandLocalizer()),
                     verifier=BandLocalizer("verify"), progress=False).run({"toy": items}, {"m": tiny_baseline})
    summary = sanitize_samples(items, tmp_path / "released", get_condition("prism"), BandLocalizer(), verify=True,
                               verifier=BandLocalizer("verify"), seed=7, progress=False)
    from clinx.data.images import load_image

    assert set(summary.outputs) == {x.id for x in items}
    for x in items:
        released = load_image(summary.outputs[x.id])
        grid_px = res.images.get(res.image_keys["toy"]["prism"][x.id])
        assert np.array_equal(grid_px, released)
        assert not np.array_equal(grid_px, x.image)  # PRISM really changed the band


def test_item_the_verifier_still_reads_is_left_out_and_stays_out_on_rerun(tmp_path, items, parts, fake_ocr, tiny_baseline):
    from clinx.sanitize.conditions import BlackFillCondition

    class Gray(BlackFillCondition):
        """Fills the band with a bright gray on item 1 only (a sanitizer that missed it)."""

        def apply(self, image, mask, seed=None):
            out = super().apply(image, mask, seed=seed)
            if image[24:40, 24:40].mean() > 200:  # item1 has the bright lesion
                out[mask] = 230
            return out

        def apply_batch(self, images, masks, seeds=None):
            return [self.apply(i, m) for i, m in zip(images, masks)]

    s = _settings(conditions=["raw", "gray"], levels=["l0"], ablation=False, leakage=False)

    def run():
        r = GridRunner(s, tmp_path / "cache", condition_factory=lambda n: Gray() if n == "gray" else get_condition(n),
                       text_fn=parts.fake_text, text_id="t", masker=TrueMasker(), verifier=BandLocalizer("v"),
                       progress=False)
        return r.run({"toy": items}, {"m": tiny_baseline})

    for res in (run(), run()):
        assert set(res.image_keys["toy"]["gray"]) == {"item0"}  # item1 not released, so never scored
        assert {r["item"] for r in res.rows if r["condition"] == "gray"} == {"item0"}
        assert [(f["item"], f["stage"]) for f in res.failures] == [("item1", "verify/gray")]
        assert "patient_name" in res.failures[0]["problem"] and parts.NAME not in res.failures[0]["problem"]


def test_verifier_reads_serve_the_attack_by_the_same_engine(tmp_path, items, parts, tiny_baseline):
    """One read per (engine settings, pixels): the attacker re-uses what the verifier read on the released image."""
    import types

    class ItemOCR(parts.FakeOCR):
        def fingerprint(self):
            return "fakeocr:v1"

        def read_item(self, image, item):
            return self.read(image)

    class EngineLocalizer:
        def __init__(self, engine):
            self.engine = engine

        def fingerprint(self):
            return "engine-localizer:" + self.engine.fingerprint()

        def locate(self, image, manifest, *, item=None):
            dets = self.engine.read_item(image, item)
            hits = [types.SimpleNamespace(field="patient_name") for d in dets if parts.NAME.upper() in d.text]
            return types.SimpleNamespace(mask=np.zeros(image.shape[:2], bool), matches=hits, detections=dets)

    ocr = ItemOCR()
    s = _settings(conditions=["raw", "blackout"], levels=["l0"], ablation=False)
    res = GridRunner(s, tmp_path / "c", text_fn=parts.fake_text, text_id="t", masker=TrueMasker(),
                     ocr_engines={"fakeocr": ocr}, verifier=EngineLocalizer(ocr), progress=False).run(
        {"toy": items}, {"m": tiny_baseline})
    assert set(res.image_keys["toy"]["blackout"]) == {"item0", "item1"}  # verified clean, released
    assert ocr.reads == 4  # 2 raw (attack) + 2 released (verify); the attack on them hit the cache
    assert res.counts["ocr_cache_hits"] == 2 and res.leakage["toy"]["blackout"]["fakeocr"]["token_recall"] == 0.0
