"""OpenAI-compatible client: retries/timeouts with a mock transport, then a real llama.cpp server on loopback."""

import json
import os
import socket
import subprocess
import sys
import time

import httpx
import pytest

from clinx.llm import LLMError, get_llm
from clinx.llm.openai_http import OpenAIChatLLM

MSG = [{"role": "user", "content": "Is there a fracture?"}]


def ok_body(text="yes"):
    return {"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}


def make(handler, **kw):
    kw.setdefault("retries", 3)
    llm = OpenAIChatLLM(base_url="http://test/v1", model="m", cache=None, transport=httpx.MockTransport(handler), api_key_env=None, **kw)
    llm.sleeps = []
    llm._sleep = llm.sleeps.append  # record backoff instead of sleeping
    return llm


def test_success_and_payload():
    seen = {}

    def handler(request):
        seen["url"] = str(request.url)
        seen["auth"] = request.headers.get("authorization")
        seen["body"] = json.loads(request.content)
        return httpx.Response(200, json=ok_body("no"))

    llm = make(handler, api_key="sk-test")
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert llm.chat(MSG, max_tokens=7, stop=["\n"], json_schema=schema) == "no"
    body = seen["body"]
    assert seen["url"] == "http://test/v1/chat/completions" and seen["auth"] == "Bearer sk-test"
    assert body["model"] == "m" and body["max_tokens"] == 7 and body["temperature"] == 0.0 and body["seed"] == 0
    assert body["stop"] == ["\n"] and body["messages"] == MSG
    assert body["response_format"]["type"] == "json_schema" and body["response_format"]["json_schema"]["schema"] == schema


@pytest.mark.parametrize("style, expected", [("llamacpp", {"type": "json_object", "schema": {"type": "object"}}), ("json_object", {"type": "json_object"}), ("none", None)])
def test_json_styles(style, expected):
    seen = {}

    def handler(request):
        seen["body"] = json.loads(request.content)
        return httpx.Response(200, json=ok_body("{}"))

    make(handler, json_style=style).chat(MSG, json_schema={"type": "object"})
    assert seen["body"].get("response_format") == expected


def test_retries_5xx_then_succeeds_with_growing_backoff():
    codes = iter([503, 500, 200])

    def handler(request):
        code = next(codes)
        return httpx.Response(code, json=ok_body() if code == 200 else {"error": "busy"})

    llm = make(handler)
    assert llm.chat(MSG) == "yes"
    assert len(llm.sleeps) == 2 and 0 < llm.sleeps[0] < llm.sleeps[1]


def test_retries_timeouts_and_gives_up_with_clear_error():
    calls = []

    def handler(request):
        calls.append(1)
        raise httpx.ReadTimeout("slow", request=request)

    llm = make(handler, retries=2)
    with pytest.raises(LLMError, match="ReadTimeout.*3 attempt"):
        llm.chat(MSG)
    assert len(calls) == 3 and len(llm.sleeps) == 2


def test_connection_error_is_retried():
    state = {"n": 0}

    def handler(request):
        state["n"] += 1
        if state["n"] == 1:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, json=ok_body("ok"))

    assert make(handler).chat(MSG) == "ok"


def test_retry_after_header_is_honoured():
    codes = iter([429, 200])

    def handler(request):
        code = next(codes)
        return httpx.Response(code, json=ok_body(), headers={"retry-after": "2"} if code == 429 else {})

    llm = make(handler)
    llm.chat(MSG)
    assert llm.sleeps == [2.0]


def test_client_error_fails_fast_without_echoing_body():
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(400, json={"error": "bad prompt: Patient Zebulon"})

    with pytest.raises(LLMError) as ei:
        make(handler).chat([{"role": "user", "content": "Patient Zebulon"}])
    assert len(calls) == 1 and "Zebulon" not in str(ei.value) and "400" in str(ei.value)


def test_malformed_completion_is_an_error():
    with pytest.raises(LLMError, match="not a chat completion"):
        make(lambda r: httpx.Response(200, json={"nope": 1})).chat(MSG)


def test_null_content_is_empty_text():
    assert make(lambda r: httpx.Response(200, json=ok_body(None))).chat(MSG) == ""


def test_cache_avoids_second_request(tmp_path):
    calls = []

    def handler(request):
        calls.append(1)
        return httpx.Response(200, json=ok_body("cached"))

    llm = OpenAIChatLLM(base_url="http://test/v1", model="m", cache=tmp_path, transport=httpx.MockTransport(handler), api_key_env=None)
    assert llm.chat(MSG) == llm.chat(MSG) == "cached" and len(calls) == 1


# ---------------------------------------------------------------- real server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    """A real ``llama_cpp.server`` with SmolLM2 on 127.0.0.1:<free port>, shut down after the module."""
    from clinx.llm.llamacpp import smollm2_gguf_path

    port = _free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = dict(os.environ, HF_HUB_OFFLINE="1", OMP_WAIT_POLICY="passive")
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(smollm2_gguf_path()), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", "2048", "--n_threads", "2", "--model_alias", "smollm2"],
            stdout=fh, stderr=subprocess.STDOUT, env=env,
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 90
        while True:  # bounded readiness loop
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not become ready within 90 s")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.mark.slow
def test_round_trip_against_real_llama_cpp_server(llama_server, tmp_path):
    llm = get_llm("openai", base_url=llama_server, model="smollm2", json_style="llamacpp", timeout=60, retries=1, cache=tmp_path)
    assert "smollm2" in llm.models()
    text = llm.chat([{"role": "user", "content": "Name one imaging modality."}], max_tokens=16)
    assert isinstance(text, str) and text.strip()
    schema = {"type": "object", "properties": {"modality": {"type": "string"}}, "required": ["modality"]}
    out = llm.chat_json([{"role": "user", "content": "Reply in JSON: which modality shows bones best?"}], schema=schema, max_tokens=32)
    assert isinstance(out, dict) and isinstance(out["modality"], str)
    # Same request again: answered from the cache, no second server call.
    before = llm.stats.cache_hits
    llm.chat([{"role": "user", "content": "Name one imaging modality."}], max_tokens=16)
    assert llm.stats.cache_hits == before + 1
    llm.close()


@pytest.mark.slow
def test_unreachable_server_fails_after_retries(tmp_path):
    port = _free_port()  # nothing listens here
    llm = OpenAIChatLLM(base_url=f"http://127.0.0.1:{port}/v1", retries=1, backoff=0.01, timeout=2, cache=None, api_key_env=None)
    with pytest.raises(LLMError, match="2 attempt"):
        llm.chat(MSG)
