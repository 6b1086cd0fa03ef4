"""The on-disk response cache: hits, misses, atomic private files."""

import os
import stat

import pytest

from clinx.llm.base import ChatLLM, ChatParams, LLMError
from clinx.llm.cache import ResponseCache, as_cache, request_key


class CountingLLM(ChatLLM):
    """A deterministic fake backend that counts real calls (the cache under test is real)."""

    name = "counting"

    def __init__(self, **kw):
        super().__init__(**kw)
        self.real_calls = 0

    @property
    def model_id(self):
        return "counting-v1"

    def _complete(self, messages, params):
        self.real_calls += 1
        return f"answer {len(messages[-1]['content'])} t={params.temperature} n={params.max_tokens}"


MSG = [{"role": "user", "content": "Is there a fracture?"}]


def test_identical_request_hits_and_parameter_change_misses(tmp_path):
    llm = CountingLLM(cache=tmp_path / "llm")
    a = llm.chat(MSG)
    b = llm.chat(MSG)
    assert a == b and llm.real_calls == 1 and llm.stats.cache_hits == 1
    llm.chat(MSG, max_tokens=64)
    llm.chat(MSG, temperature=0.7)
    llm.chat(MSG, seed=1)
    llm.chat(MSG, json_mode=True)
    llm.chat([{"role": "system", "content": "x"}] + MSG)
    assert llm.real_calls == 6
    # A fresh instance on the same folder is served from disk: reruns are free.
    llm2 = CountingLLM(cache=tmp_path / "llm")
    assert llm2.chat(MSG) == a and llm2.real_calls == 0


def test_model_id_is_part_of_the_key():
    p = ChatParams().to_dict()
    assert request_key("m1", MSG, p) != request_key("m2", MSG, p)
    assert request_key("m1", MSG, p) == request_key("m1", [dict(MSG[0])], dict(p))


def test_files_are_private_and_hold_no_prompt(tmp_path):
    folder = tmp_path / "c" / "llm"
    llm = CountingLLM(cache=folder)
    llm.chat([{"role": "user", "content": "Patient Zebulon Quux, MRN 99812"}])
    files = list(folder.rglob("*.json"))
    assert len(files) == 1
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(files[0].parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(files[0]).st_mode) == 0o600
    assert "Zebulon" not in files[0].read_text()
    assert not list(folder.rglob(".tmp-*"))  # atomic write left no temp file


def test_corrupt_entry_is_a_miss(tmp_path):
    cache = ResponseCache(tmp_path)
    key = request_key("m", MSG, {})
    path = cache.put(key, "ok")
    assert cache.get(key) == "ok"
    path.write_text("{not json")
    assert cache.get(key) is None
    with pytest.raises(ValueError):
        cache.path_for("../../etc/passwd")


def test_cache_off_and_spec_forms(tmp_path):
    llm = CountingLLM(cache=None)
    llm.chat(MSG)
    llm.chat(MSG)
    assert llm.real_calls == 2
    assert as_cache(False) is None and as_cache("") is None
    assert as_cache(str(tmp_path)).folder == tmp_path
    with pytest.raises(TypeError):
        as_cache(3.5)


def test_default_cache_dir_honours_clinx_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CLINX_CACHE", str(tmp_path))
    assert ResponseCache().folder == tmp_path / "llm"


def test_messages_and_params_are_validated(tmp_path):
    llm = CountingLLM(cache=None)
    with pytest.raises(ValueError):
        llm.chat([])
    with pytest.raises(ValueError):
        llm.chat([{"role": "robot", "content": "x"}])
    with pytest.raises(ValueError):
        llm.chat([{"role": "user", "content": 3}])
    with pytest.raises(ValueError):
        llm.chat(MSG, temperature=-1)
    assert ChatParams(json_schema={"type": "object"}).json_mode is True


def test_backend_errors_are_wrapped_without_prompt():
    class Broken(CountingLLM):
        def _complete(self, messages, params):
            raise RuntimeError("boom")

    llm = Broken(cache=None)
    with pytest.raises(LLMError) as ei:
        llm.chat([{"role": "user", "content": "Patient Zebulon"}])
    assert "Zebulon" not in str(ei.value) and llm.stats.errors == 1


def test_failed_chmod_of_the_private_folder_is_an_error(tmp_path, monkeypatch):
    """A cache folder of PHI-derived text that cannot be made private is refused, not silently used."""
    import clinx.llm.cache as cache_mod

    def deny(path, mode):
        raise PermissionError("chmod denied")

    monkeypatch.setattr(cache_mod.os, "chmod", deny)
    llm = CountingLLM(cache=tmp_path / "llm")
    with pytest.raises(PermissionError, match="private"):
        llm.chat(MSG)
    assert not list((tmp_path / "llm").rglob("*.json"))


def test_fingerprint_keys_the_cache_and_knows_the_default_parameters(tmp_path):
    a = CountingLLM(cache=tmp_path / "llm")
    b = CountingLLM(cache=tmp_path / "llm", params={"top_p": 0.5})
    assert a.fingerprint() != b.fingerprint() and a.fingerprint() == CountingLLM().fingerprint()
    a.chat(MSG)
    # Same messages and per-call parameters, different default settings: a miss, not a stale answer.
    b.chat(MSG, top_p=1.0)
    assert b.real_calls == 1
