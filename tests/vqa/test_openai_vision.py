"""The OpenAI-compatible vision client against an httpx MockTransport."""

import base64
import io
import json

import httpx
import numpy as np
import pytest
from PIL import Image

from clinx.vqa import SHORT_ANSWER_PROMPT, get_vqa
from clinx.vqa.openai_vision import EndpointError, image_data_url


def _img(v=0):
    a = np.zeros((6, 5, 3), np.uint8)
    a[1, 2] = (v, 10, 20)
    return a


def test_data_url_round_trips_pixels_exactly():
    url = image_data_url(_img(200))
    assert url.startswith("data:image/png;base64,")
    back = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB"))
    assert np.array_equal(back, _img(200))


def test_request_shape_answers_and_parsing():
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append((request, body))
        text = body["messages"][-1]["content"][1]["text"]
        reply = "Yes." if "lesion" in text else "<think>x</think>Answer: CT."
        return httpx.Response(200, json={"choices": [{"message": {"role": "assistant", "content": reply}}]})

    m = get_vqa("openai_vision", base_url="http://vllm.test/v1", model="medgemma", api_key="k",
                transport=httpx.MockTransport(handler), concurrency=2)
    out = m.answer([_img(1), _img(2)], ["Is there a lesion?", "What modality?"])
    assert out == ["Yes", "CT"]
    req, body = seen[0]
    assert str(req.url) == "http://vllm.test/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer k"
    assert body["model"] == "medgemma" and body["temperature"] == 0.0 and body["max_tokens"] == 32
    parts = body["messages"][-1]["content"]
    assert parts[0]["type"] == "image_url" and parts[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert parts[1]["type"] == "text" and parts[1]["text"].endswith(SHORT_ANSWER_PROMPT)
    assert m.calls == 2


def test_retries_transient_failures_then_succeeds():
    state = {"n": 0}

    def handler(request):
        state["n"] += 1
        if state["n"] == 1:
            raise httpx.ConnectError("refused")
        if state["n"] == 2:
            return httpx.Response(503)
        return httpx.Response(200, json={"choices": [{"message": {"content": "no"}}]})

    slept = []
    m = get_vqa("openai_vision", base_url="http://x/v1", model="m", transport=httpx.MockTransport(handler),
                sleep=slept.append, backoff=0.5, concurrency=1)
    assert m.answer([_img()], ["q"]) == ["no"]
    assert state["n"] == 3 and slept == [0.5, 1.0]  # exponential back-off


def test_gives_up_and_never_retries_client_errors():
    calls = {"n": 0}

    def always_500(request):
        calls["n"] += 1
        return httpx.Response(500)

    m = get_vqa("openai_vision", base_url="http://x/v1", model="m", transport=httpx.MockTransport(always_500),
                sleep=lambda s: None, max_retries=2, concurrency=1)
    with pytest.raises(EndpointError, match="gave up after 3 attempts"):
        m.answer([_img()], ["Patient John Doe: is there a lesion?"])
    assert calls["n"] == 3

    def bad_request(request):
        calls["n"] += 1
        return httpx.Response(400, json={"error": "bad"})

    calls["n"] = 0
    m = get_vqa("openai_vision", base_url="http://x/v1", model="m", transport=httpx.MockTransport(bad_request),
                sleep=lambda s: None, concurrency=1)
    with pytest.raises(EndpointError, match="HTTP 400") as err:
        m.answer([_img()], ["Patient John Doe: is there a lesion?"])
    assert calls["n"] == 1 and "John" not in str(err.value)  # the error never carries the request text


def test_model_id_names_endpoint_and_model():
    t = httpx.MockTransport(lambda r: httpx.Response(200))
    a = get_vqa("openai_vision", base_url="http://x/v1", model="a", transport=t)
    b = get_vqa("openai_vision", base_url="http://x/v1", model="b", transport=t)
    assert a.model_id != b.model_id and a.model_id.startswith("openai:a-")
