"""Dataset readers on tiny fixtures written in each real on-disk format."""

from __future__ import annotations

import io
import json
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from clinx.data.readers import (
    READERS,
    SampleStream,
    normalize_answer_type,
    read_dataset,
    read_folder,
    read_jsonl,
    read_parquet,
    read_pathvqa,
    read_slake,
    read_vqa_rad,
    safe_load_pickle,
)
from clinx.errors import InputError, ItemError
from clinx.records import Sample

PHI = "Zebediah Quux"  # a name that must never show up in an error


def _img(seed: int, h: int = 20, w: int = 24) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def _save(path: Path, arr: np.ndarray, fmt: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(arr).save(path, format=fmt)
    return path


def _png_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG")
    return buf.getvalue()


def _assert_no_phi(errors):
    for e in errors:
        assert PHI not in str(e) and "Zebediah" not in str(e)


# --------------------------------------------------------------------------- VQA-RAD


@pytest.fixture
def vqa_rad(tmp_path):
    root = tmp_path / "VQA_RAD"
    imgs = root / "VQA_RAD Image Folder"
    _save(imgs / "synpic100.jpg", _img(1), "PNG")  # real releases mix; content decides
    _save(imgs / "synpic200.png", _img(2))
    records = [
        {"qid": 1, "image_name": "synpic100.jpg", "image_organ": "CHEST", "question": "Is there a pneumothorax?",
         "answer": "Yes", "answer_type": "CLOSED", "question_type": "PRES", "phrase_type": "freeform"},
        {"qid": 2, "image_name": "synpic200.png", "image_organ": "HEAD", "question": "How many lesions?",
         "answer": 2, "answer_type": "OPEN ", "question_type": "COUNT", "phrase_type": "test_freeform"},
        {"qid": "3", "image_name": "synpic100.jpg", "image_organ": "CHEST", "question": "Is the heart enlarged?",
         "answer": "no", "answer_type": "CLOSED", "question_type": "SIZE", "phrase_type": "para"},
    ]
    (root / "VQA_RAD Dataset Public.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def test_vqa_rad_reads_records(vqa_rad):
    stream = read_vqa_rad(vqa_rad)
    samples = list(stream)
    assert stream.errors == []
    assert [s.id for s in samples] == ["vqa_rad/1", "vqa_rad/2", "vqa_rad/3"]
    s1, s2, _ = samples
    assert isinstance(s1, Sample) and s1.image.dtype == np.uint8 and s1.image.shape == (20, 24, 3)
    np.testing.assert_array_equal(s1.image, _img(1))
    np.testing.assert_array_equal(s2.image, _img(2))
    assert (s1.answer, s1.answer_type) == ("Yes", "closed")
    assert (s2.answer, s2.answer_type) == ("2", "open")  # numeric answer as text, "OPEN " normalised
    assert s1.provenance["dataset"] == "vqa_rad" and s1.provenance["split"] == "train"
    assert s1.provenance["source"] == "VQA_RAD Dataset Public.json" and s1.provenance["qid"] == 1
    assert s1.provenance["image_organ"] == "CHEST"
    assert s2.provenance["split"] == "test"


def test_vqa_rad_splits_and_limit(vqa_rad):
    assert [s.id for s in read_vqa_rad(vqa_rad, split="test")] == ["vqa_rad/2"]
    assert [s.id for s in read_vqa_rad(vqa_rad, split="train")] == ["vqa_rad/1", "vqa_rad/3"]
    assert len(list(read_vqa_rad(vqa_rad, limit=2))) == 2
    assert list(read_vqa_rad(vqa_rad, limit=0)) == []
    with pytest.raises(ValueError, match="unknown VQA-RAD split"):
        read_vqa_rad(vqa_rad, split="dev")
    # the JSON file itself may be given as root
    assert len(list(read_vqa_rad(vqa_rad / "VQA_RAD Dataset Public.json"))) == 3


def test_cached_images_are_independent_copies(vqa_rad):
    s1, _, s3 = list(read_vqa_rad(vqa_rad))  # s1 and s3 share synpic100.jpg
    s1.image[:] = 0
    np.testing.assert_array_equal(s3.image, _img(1))


def test_vqa_rad_bad_image_and_record_do_not_stop_the_read(vqa_rad):
    (vqa_rad / "VQA_RAD Image Folder" / "synpic200.png").write_bytes(b"\x89PNG\r\n\x1a\ntruncated")
    path = vqa_rad / "VQA_RAD Dataset Public.json"
    records = json.loads(path.read_text())
    records.append({"qid": 4, "image_name": "synpic100.jpg", "question": f"Is {PHI} ok?"})  # no answer
    records.append({"qid": 5, "image_name": "../../etc/passwd", "question": "q?", "answer": "yes"})
    records.append("not an object")
    path.write_text(json.dumps(records))

    stream = read_vqa_rad(vqa_rad)
    assert [s.id for s in stream] == ["vqa_rad/1", "vqa_rad/3"]
    problems = {e.item: e.problem for e in stream.errors}
    assert "corrupt or truncated" in problems["vqa_rad/2"] and "synpic200.png" in problems["vqa_rad/2"]
    assert "record 3" in problems["VQA_RAD Dataset Public.json#3"] and "'answer'" in problems["VQA_RAD Dataset Public.json#3"]
    assert "leaves the dataset folder" in problems["vqa_rad/5"]
    assert "expected a JSON object" in problems["VQA_RAD Dataset Public.json#5"]
    assert all(isinstance(e, ItemError) and e.stage == "read" for e in stream.errors)
    _assert_no_phi(stream.errors)

    with pytest.raises(InputError, match="corrupt or truncated"):
        list(read_vqa_rad(vqa_rad, on_error="raise"))


def test_vqa_rad_missing_json_raises_at_once(tmp_path):
    with pytest.raises(InputError, match="VQA-RAD file not found"):
        read_vqa_rad(tmp_path)


def test_non_utf8_json_is_a_per_file_error(vqa_rad):
    path = vqa_rad / "VQA_RAD Dataset Public.json"
    text = json.dumps([{"qid": 1, "image_name": "synpic100.jpg", "question": f"Is {PHI} été ok?", "answer": "yes"}],
                      ensure_ascii=False)
    path.write_bytes(text.encode("latin-1"))
    stream = read_vqa_rad(vqa_rad)
    assert list(stream) == []
    (err,) = stream.errors
    assert err.item == "VQA_RAD Dataset Public.json" and "not valid UTF-8" in err.problem
    _assert_no_phi(stream.errors)


def test_malformed_json_names_line_and_column(vqa_rad):
    path = vqa_rad / "VQA_RAD Dataset Public.json"
    path.write_text('[\n  {"qid": 1, "question": "' + PHI + '" "answer": "yes"}\n]')
    stream = read_vqa_rad(vqa_rad)
    assert list(stream) == []
    (err,) = stream.errors
    assert "malformed JSON at line 2, column" in err.problem
    _assert_no_phi(stream.errors)
    with pytest.raises(InputError, match="malformed JSON"):
        list(read_vqa_rad(vqa_rad, on_error="raise"))


# --------------------------------------------------------------------------- SLAKE


@pytest.fixture
def slake(tmp_path):
    root = tmp_path / "Slake1.0"
    _save(root / "imgs" / "xmlab1" / "source.jpg", _img(3), "JPEG")
    _save(root / "imgs" / "xmlab2" / "source.jpg", _img(4), "JPEG")
    base = {"img_id": 1, "img_name": "xmlab1/source.jpg", "modality": "CT", "location": "Lung",
            "content_type": "Modality", "base_type": "vqa"}
    train = [
        {**base, "qid": 10, "question": "Which modality is used?", "answer": "CT", "q_lang": "en", "answer_type": "OPEN"},
        {**base, "qid": 11, "question": "这是什么成像方式？", "answer": "CT", "q_lang": "zh", "answer_type": "OPEN"},
        {**base, "qid": 12, "question": "Is this a CT?", "answer": "Yes", "q_lang": "en", "answer_type": "CLOSED"},
    ]
    test = [{**base, "img_id": 2, "img_name": "xmlab2/source.jpg", "qid": 20, "question": "Does it show the lung?",
             "answer": "Yes", "q_lang": "en", "answer_type": "CLOSED"}]
    (root / "train.json").write_text(json.dumps(train, ensure_ascii=False), encoding="utf-8")
    (root / "test.json").write_text(json.dumps(test), encoding="utf-8")
    return root


def test_slake_keeps_english_only(slake):
    stream = read_slake(slake)
    samples = list(stream)
    assert [s.id for s in samples] == ["slake/train/10", "slake/train/12", "slake/test/20"]
    assert stream.skipped["non_english"] == 1 and stream.errors == []
    s = samples[0]
    assert s.image.shape == (20, 24, 3) and s.answer_type == "open"
    assert samples[1].answer_type == "closed"
    assert s.provenance["modality"] == "CT" and s.provenance["location"] == "Lung"
    assert s.provenance["source"] == "train.json" and s.provenance["img_id"] == 1


def test_slake_splits(slake):
    assert [s.id for s in read_slake(slake, split="test")] == ["slake/test/20"]
    with pytest.raises(InputError, match="split file not found"):
        read_slake(slake, split="val")  # alias of validate, absent here
    with pytest.raises(ValueError):
        read_slake(slake, split="bogus")
    with pytest.raises(InputError, match="no SLAKE split file"):
        read_slake(slake / "imgs")


def test_slake_corrupt_split_file_does_not_hide_the_others(slake):
    (slake / "train.json").write_bytes(b"")
    stream = read_slake(slake)
    assert [s.id for s in stream] == ["slake/test/20"]
    assert [e.item for e in stream.errors] == ["train.json"]


# --------------------------------------------------------------------------- PathVQA


@pytest.fixture
def pathvqa(tmp_path):
    root = tmp_path / "pvqa"
    (root / "qas").mkdir(parents=True)
    _save(root / "images" / "train" / "train_0001.jpg", _img(5), "JPEG")
    _save(root / "images" / "test" / "test_0001.jpg", _img(6), "JPEG")
    train = [
        {"img_id": "train_0001", "sent": "What is present?", "label": {"adenocarcinoma": 0.3, "carcinoma": 1.0},
         "question_id": 100, "answer_type": "other"},
        {"img_id": "train_0001", "sent": "Is this inflamed?", "label": {"yes": 1}, "question_id": 101,
         "answer_type": "yes/no"},
        {"img_id": "train_0001", "sent": "Where?", "label": {}, "question_id": 102, "answer_type": "other"},
    ]
    test = [{"img_id": "test_0001", "sent": "Is there necrosis?", "label": {"no": np.float64(1.0)},
             "question_id": 200, "answer_type": "yes/no"}]
    for name, recs in (("train", train), ("test", test)):
        with open(root / "qas" / f"{name}_vqa.pkl", "wb") as fp:
            pickle.dump(recs, fp)
    return root


def test_pathvqa_reads_pickles(pathvqa):
    stream = read_pathvqa(pathvqa)
    samples = list(stream)
    assert [s.id for s in samples] == ["pathvqa/train/100", "pathvqa/train/101", "pathvqa/test/200"]
    assert samples[0].answer == "carcinoma" and samples[0].answer_type == "open"  # max score wins
    assert samples[1].answer == "yes" and samples[1].answer_type == "closed"
    assert samples[2].answer == "no"  # numpy scalar score unpickled through the allow-list
    assert samples[0].provenance["source"] == "qas/train_vqa.pkl" and samples[0].provenance["img_id"] == "train_0001"
    (err,) = stream.errors
    assert err.item == "pathvqa/train/102" and "'label'" in err.problem
    assert [s.id for s in read_pathvqa(pathvqa, split="test")] == ["pathvqa/test/200"]


class _Exploit:
    def __reduce__(self):
        return (os.system, ("touch pwned_by_pickle",))


def test_pathvqa_refuses_code_in_pickles(pathvqa, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with open(pathvqa / "qas" / "val_vqa.pkl", "wb") as fp:
        pickle.dump([{"img_id": "x", "sent": "q", "label": _Exploit()}], fp)
    stream = read_pathvqa(pathvqa, split="val")
    assert list(stream) == []
    (err,) = stream.errors
    assert "pickle refused" in err.problem and "system" not in err.problem
    assert not (tmp_path / "pwned_by_pickle").exists()


def test_pathvqa_truncated_pickle(pathvqa):
    data = (pathvqa / "qas" / "train_vqa.pkl").read_bytes()
    (pathvqa / "qas" / "train_vqa.pkl").write_bytes(data[: len(data) // 2])
    stream = read_pathvqa(pathvqa)
    assert [s.id for s in stream] == ["pathvqa/test/200"]
    assert "corrupt or truncated pickle" in stream.errors[0].problem
    with pytest.raises(InputError):
        safe_load_pickle(pathvqa / "qas" / "train_vqa.pkl")


def test_pathvqa_missing_files(tmp_path):
    with pytest.raises(InputError, match="no PathVQA file"):
        read_pathvqa(tmp_path)


# --------------------------------------------------------------------------- parquet


@pytest.fixture
def parquet_dir(tmp_path):
    import pyarrow as pa  # a declared dependency: an import failure is a broken install
    import pyarrow.parquet as pq

    root = tmp_path / "hf" / "data"
    root.mkdir(parents=True)
    _save(root / "side.png", _img(9))
    struct_images = [
        {"bytes": _png_bytes(_img(7)), "path": "a.png"},
        {"bytes": None, "path": "side.png"},  # bytes absent: read the file beside the parquet
        {"bytes": b"not an image at all", "path": "c.png"},
    ]
    table = pa.table({
        "image": pa.array(struct_images, type=pa.struct([("bytes", pa.binary()), ("path", pa.string())])),
        "question": ["Is there a fracture?", "What organ is shown?", "Is it normal?"],
        "answer": ["yes", "liver", "no"],
    })
    pq.write_table(table, root / "train-00000-of-00001.parquet")
    raw = pa.table({
        "id": ["t1"],
        "image": pa.array([_png_bytes(_img(8))], type=pa.binary()),
        "question": ["How many?"],
        "answer": ["3"],
        "answer_type": ["OPEN"],
    })
    pq.write_table(raw, root / "test-00000-of-00001.parquet")
    return root


def test_parquet_reads_hf_exports(parquet_dir):
    stream = read_parquet(parquet_dir.parent)
    samples = list(stream)
    ids = [s.id for s in samples]
    assert ids == ["parquet/test-00000-of-00001/t1", "parquet/train-00000-of-00001/0", "parquet/train-00000-of-00001/1"]
    t1, a, side = samples
    np.testing.assert_array_equal(t1.image, _img(8))
    np.testing.assert_array_equal(a.image, _img(7))
    np.testing.assert_array_equal(side.image, _img(9))
    assert (a.answer_type, side.answer_type, t1.answer_type) == ("closed", "open", "open")
    assert a.provenance["source"] == "train-00000-of-00001.parquet" and a.provenance["record"] == 0
    (err,) = stream.errors
    assert err.item == "parquet/train-00000-of-00001/2" and "not a recognised image" in err.problem


def test_parquet_split_and_name(parquet_dir):
    stream = read_parquet(parquet_dir, split="test", name="myset")
    assert [s.id for s in stream] == ["myset/test-00000-of-00001/t1"]
    with pytest.raises(InputError, match="no .parquet files for split"):
        read_parquet(parquet_dir, split="validation")


def test_parquet_bad_files(parquet_dir):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"question": ["q"], "answer": ["a"]}), parquet_dir / "train-extra.parquet")
    (parquet_dir / "train-broken.parquet").write_bytes(b"PAR1 this is not parquet")
    stream = read_parquet(parquet_dir, split="train")
    assert len(list(stream)) == 2
    problems = {e.item: e.problem for e in stream.errors}
    assert "missing required column(s) 'image'" in problems["train-extra.parquet"]
    assert "not a readable parquet file" in problems["train-broken.parquet"]


# --------------------------------------------------------------------------- JSONL


@pytest.fixture
def jsonl_dir(tmp_path):
    root = tmp_path / "mine"
    _save(root / "imgs" / "a.png", _img(10))
    _save(root / "imgs" / "b.png", _img(11))
    lines = [
        json.dumps({"id": "a", "image": "imgs/a.png", "question": "Is there an effusion?", "answer": "no",
                    "manifest": {"patient_name": PHI, "mrn": "123"}}),
        "",
        json.dumps({"image": "imgs/b.png", "question": "Which side?", "answer": "left", "answer_type": "OPEN"}),
        '{"id": "c", "image": "imgs/a.png", "question": "' + PHI + '",',  # malformed
        json.dumps({"id": "d", "image": "imgs/a.png", "question": "Q?"}),  # no answer
        json.dumps({"id": "e", "image": "/etc/hosts", "question": "Q?", "answer": "x"}),
        json.dumps({"id": "f", "image": "imgs/a.png", "question": "Q?", "answer": "x", "manifest": ["x"]}),
        json.dumps({"id": "a", "image": "imgs/b.png", "question": "dup?", "answer": "yes"}),
    ]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    data += ('{"id": "g", "image": "imgs/a.png", "question": "' + PHI + ' é?", "answer": "yes"}\n').encode("latin-1")
    (root / "train.jsonl").write_bytes(b"\xef\xbb\xbf" + data)  # with a BOM
    return root


def test_jsonl_reads_good_lines_and_reports_bad_ones(jsonl_dir):
    stream = read_jsonl(jsonl_dir)
    samples = list(stream)
    assert [s.id for s in samples] == ["jsonl/a", "jsonl/train/3"]
    a, b = samples
    np.testing.assert_array_equal(a.image, _img(10))
    assert a.manifest.fields == {"patient_name": PHI, "mrn": "123"}
    assert (a.answer_type, b.answer_type) == ("closed", "open")
    assert b.provenance == {"dataset": "jsonl", "split": "train", "source": "train.jsonl", "line": 3,
                            "image": "imgs/b.png", "image_path": str(jsonl_dir / "imgs" / "b.png")}
    problems = {e.item: e.problem for e in stream.errors}
    assert "line 4: malformed JSON" in problems["train.jsonl:4"]
    assert "missing required key(s) 'answer'" in problems["train.jsonl:5"]
    assert "must be relative" in problems["jsonl/e"]
    assert "'manifest' must be a JSON object" in problems["jsonl/f"]
    assert "duplicate sample id" in problems["jsonl/a"]
    assert "line 9: not valid UTF-8" in problems["train.jsonl:9"]
    assert len(stream.errors) == 6
    _assert_no_phi(stream.errors)


def test_jsonl_raise_mode_and_file_root(jsonl_dir):
    with pytest.raises(InputError, match="malformed JSON"):
        list(read_jsonl(jsonl_dir / "train.jsonl", on_error="raise"))
    with pytest.raises(InputError, match="split file not found"):
        read_jsonl(jsonl_dir, split="test")
    with pytest.raises(InputError, match="not found"):
        read_jsonl(jsonl_dir / "nope")


def test_load_images_false_lists_without_decoding(jsonl_dir):
    (jsonl_dir / "imgs" / "a.png").write_bytes(b"")  # would fail if decoded
    stream = read_jsonl(jsonl_dir, load_images=False)
    samples = list(stream)
    assert [s.id for s in samples] == ["jsonl/a", "jsonl/train/3"]
    assert all(s.image is None for s in samples)
    assert samples[0].provenance["image_path"].endswith("a.png")


# --------------------------------------------------------------------------- registry & helpers


def test_registry_and_dispatch(vqa_rad):
    assert READERS.names() == ["folder", "jsonl", "parquet", "pathvqa", "slake", "vqa_rad"]
    stream = read_dataset("vqa_rad", vqa_rad, split="test")
    assert isinstance(stream, SampleStream) and [s.id for s in stream] == ["vqa_rad/2"]
    with pytest.raises(KeyError, match="known: folder, jsonl, parquet"):
        read_dataset("coco", vqa_rad)
    with pytest.raises(ValueError, match="on_error"):
        read_vqa_rad(vqa_rad, on_error="ignore")


@pytest.mark.parametrize(
    "raw,answer,expected",
    [("CLOSED", "x", "closed"), (" open ", "yes", "open"), ("yes/no", "x", "closed"), ("other", "no", "open"),
     (None, "Yes", "closed"), (None, "left", "open"), ("weird", "no", "closed"), ("number", "3", "open")],
)
def test_normalize_answer_type(raw, answer, expected):
    assert normalize_answer_type(raw, answer) == expected


# --------------------------------------------------------------------------- DICOM in datasets, folders


def _dicom(name: str) -> str:
    from pydicom.data import get_testdata_file

    path = get_testdata_file(name, download=False)
    assert path is not None, f"pydicom test file {name} is not installed"
    return path


def test_jsonl_image_may_be_a_single_frame_dicom(tmp_path):
    import shutil

    root = tmp_path / "d"
    (root / "imgs").mkdir(parents=True)
    shutil.copy(_dicom("CT_small.dcm"), root / "imgs" / "ct.dcm")
    shutil.copy(_dicom("emri_small.dcm"), root / "imgs" / "series")  # no suffix: found by magic
    lines = [
        {"id": "ct", "image": "imgs/ct.dcm", "question": "Which modality?", "answer": "CT"},
        {"id": "mr", "image": "imgs/series", "question": "Which modality?", "answer": "MR"},
    ]
    (root / "q.jsonl").write_text("\n".join(json.dumps(x) for x in lines))
    stream = read_jsonl(root)
    (ct,) = list(stream)
    assert ct.id == "jsonl/ct" and ct.image.shape == (128, 128, 3)
    (err,) = stream.errors
    assert err.item == "jsonl/mr" and "multi-frame DICOM (10 frames)" in err.problem


def test_folder_reader_images_and_dicom_frames(tmp_path):
    import shutil

    root = tmp_path / "inbox"
    _save(root / "a.png", _img(12))
    _save(root / "sub" / "b.jpg", _img(13), "JPEG")
    shutil.copy(_dicom("emri_small.dcm"), root / "sub" / "series")
    shutil.copy(_dicom("rtplan.dcm"), root / "plan.dcm")
    (root / "notes.txt").write_text("not an image")
    (root / ".a.png.123.tmp").write_bytes(b"half-written")
    stream = read_folder(root)
    samples = list(stream)
    ids = [s.id for s in samples]
    assert ids[:2] == ["folder/a.png", "folder/sub/b.jpg"]
    assert ids[2:] == [f"folder/sub/series#{i}" for i in range(10)]
    np.testing.assert_array_equal(samples[0].image, _img(12))
    assert samples[2].provenance["kind"] == "dicom" and samples[2].provenance["n_frames"] == 10
    assert all(s.question == "" for s in samples)
    (err,) = stream.errors
    assert err.item == "folder/plan.dcm" and err.problem == "DICOM has no pixel data"
    assert stream.skipped["not_image"] == 1
    listed = list(read_folder(root, load_images=False))
    assert [s.id for s in listed] == ["folder/a.png", "folder/plan.dcm", "folder/sub/b.jpg", "folder/sub/series"]
    with pytest.raises(InputError, match="image folder not found"):
        read_folder(root, split="train")
