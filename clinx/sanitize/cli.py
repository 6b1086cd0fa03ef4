"""``clinx sanitize`` / ``clinx-sanitize``: sanitize a folder or a benchmark with a condition.

Examples::

    clinx sanitize input_dir=scans/ output_dir=clean/ manifest=dicom
    clinx sanitize input_dir=pngs/ output_dir=clean/ manifest=manifests/ condition=blackout
    clinx sanitize input_dir=pngs/ output_dir=clean/ manifest=none          # identifier patterns only
    clinx sanitize benchmark_dir=data/bench output_dir=clean/ condition=prism ocr=easyocr verify=false

The masks are built by the ``ocr`` engine (``configs/ocr/``) through the
``localize`` settings (``configs/localize/``); every output is verified by
the *other* engine (``verify_engine: auto``) at the same localize settings.
Writes the sanitized files, ``progress.jsonl`` (the journal),
``quarantine.jsonl``, ``inputs_not_processed.jsonl`` and ``summary.json``
into ``output_dir``; the run folder gets the resolved config and a copy of
the summary. Exit code 0 when the run completed (quarantined items are a
normal outcome, listed in the summary); 2 with one line on stderr for any
configuration or setup error (a bad value, an unknown engine or condition,
an ``output_dir`` that is a file, unwritable or holds files clinx did not
write) and when a stale output of an earlier run could not be removed.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from clinx.cli_common import finish_run, hydra_main
from clinx.config import CONFIG_DIR, run_dir
from clinx.errors import ClinxError, ConfigError, EscapingFilter, escape_text

log = logging.getLogger("clinx.sanitize")


def _int(cfg, key: str, *, minimum: int | None = None) -> int:
    raw = cfg.get(key)
    try:
        value = int(raw)
        if isinstance(raw, float) and raw != value:
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"{key} must be an integer") from None
    if minimum is not None and value < minimum:
        raise ConfigError(f"{key} must be at least {minimum}")
    return value


def _build(what: str, fn):
    """Call ``fn()``; a failure to build a configured part is a one-line :class:`ConfigError`."""
    try:
        return fn()
    except ClinxError:
        raise
    except Exception as exc:  # noqa: BLE001 - hydra wraps constructor errors; the user needs one line
        cause = exc
        while getattr(cause, "__cause__", None) is not None:
            cause = cause.__cause__
        detail = str(cause).splitlines()[0][:200] if str(cause) else ""
        if isinstance(cause, ClinxError):
            raise ConfigError(f"cannot build the {what}: {escape_text(detail)}") from None
        raise ConfigError(f"cannot build the {what} from the config ({type(cause).__name__}: {escape_text(detail)})") from None


def _engine_node(name: str, overrides):
    """The config node ``configs/ocr/<name>.yaml`` with ``overrides`` merged in."""
    from omegaconf import OmegaConf

    path = CONFIG_DIR / "ocr" / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (CONFIG_DIR / "ocr").glob("*.yaml"))
        raise ConfigError(f"unknown OCR engine for verify_engine; known: {', '.join(known)}")
    return OmegaConf.merge(OmegaConf.load(path), overrides or {})


def build_localizer(engine_name: str, engine_params=None, localize_params=None):
    """An OCR engine (by registry name) + :class:`clinx.localize.PhiLocalizer` from plain values (Python API, benchmarks)."""
    from clinx.localize.localizer import PhiLocalizer
    from clinx.ocr import get_engine

    return PhiLocalizer(get_engine(str(engine_name), **dict(engine_params or {})), **dict(localize_params or {}))


def build_localizers(engine_name: str, workers: int, engine_params=None, localize_params=None) -> list:
    """``workers`` localizers, each with its own engine instance, sharing the cores between them (Python API, benchmarks).

    With one worker the cached engine instance is used. With several, each
    engine gets ``cores // workers`` threads unless ``threads`` is given.
    """
    from clinx.localize.localizer import PhiLocalizer
    from clinx.ocr import get_engine

    workers = max(1, int(workers))
    if workers == 1:
        return [build_localizer(engine_name, engine_params, localize_params)]
    params = dict(engine_params or {})
    params.setdefault("threads", max(1, (os.cpu_count() or 1) // workers))
    return [PhiLocalizer(get_engine(str(engine_name), cache=False, **params), **dict(localize_params or {})) for _ in range(workers)]


def localizers_from_config(cfg, workers: int) -> list:
    """``workers`` localizers (``cfg.localize`` settings), each with its own ``cfg.ocr`` engine instance.

    With several workers each engine gets ``cores // workers`` threads.
    """
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    node = OmegaConf.create(OmegaConf.to_container(cfg.ocr, resolve=True))
    if workers > 1 and "threads" in node:
        node.threads = max(1, (os.cpu_count() or 1) // workers)
    engines = [_build("OCR engine (ocr)", lambda: instantiate(node)) for _ in range(workers)]
    return [_build("localizer (localize)", lambda e=e: instantiate(cfg.localize, engine=e)) for e in engines]


def verifiers_from_config(cfg, localizers: list, workers: int) -> list | None:
    """The verifiers per worker (``cfg.localize`` settings, verifier engines from ``verify_engine``), or ``None``.

    ``verify_engine``: ``auto`` (the other engine than ``ocr``), an engine
    name, ``both`` (the other engine and the localizing one: each must read
    nothing), or a list of engine names. Each worker gets a tuple with one
    verifier per engine.
    """
    from hydra.utils import instantiate
    from omegaconf import ListConfig

    from clinx.sanitize.core import engine_name, independent_engine_name

    if not cfg.verify:
        return None
    loc_engine = engine_name(localizers[0])
    spec = cfg.verify_engine if cfg.verify_engine is not None else "auto"
    names = [str(x) for x in spec] if isinstance(spec, (list, ListConfig)) else [str(spec)]
    if names == ["both"]:
        names = ["auto", loc_engine]
    names = [independent_engine_name(loc_engine) if n == "auto" else n for n in names]
    names = list(dict.fromkeys(names))
    if not names:
        raise ConfigError("verify_engine lists no engine; use verify=false to switch verification off")
    if names == [loc_engine]:
        log.warning("verify_engine is the localization engine (%s): verification is not independent", loc_engine)
    nodes = [_engine_node(n, cfg.get("verify_params")) for n in names]
    for node in nodes:
        if workers > 1 and "threads" in node:
            node.threads = max(1, (os.cpu_count() or 1) // workers)
    return [
        tuple(_build("verifier (localize with verify_engine)", lambda n=n: instantiate(cfg.localize, engine=instantiate(n)))
              for n in nodes)
        for _ in range(workers)
    ]


def _escape_log_records() -> None:
    # Hydra configures the handlers; escaping on each keeps any record to one line.
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, EscapingFilter) for f in handler.filters):
            handler.addFilter(EscapingFilter())


def run(cfg) -> dict:
    """Run the sanitizer described by a composed ``sanitize`` config; returns the summary dict."""
    from hydra.utils import instantiate

    from clinx.sanitize.runner import sanitize_folder, sanitize_samples

    _escape_log_records()
    if not cfg.output_dir:
        raise ConfigError("output_dir is required (a new folder for the sanitized files)")
    if bool(cfg.input_dir) == bool(cfg.benchmark_dir):
        raise ConfigError("give exactly one of input_dir=... or benchmark_dir=...")
    workers = _int(cfg, "workers", minimum=1)
    batch_size = _int(cfg, "batch_size", minimum=1)
    seed = _int(cfg, "seed")
    max_pixels = _int(cfg, "max_pixels", minimum=1)
    log_paths = str(cfg.get("log", {}).get("paths", "hash"))
    output_names = str(cfg.get("output", {}).get("names", "keep"))
    out_dir = Path(str(cfg.output_dir))
    from clinx.sanitize.inputs import LOG_PATHS, OUTPUT_NAMES
    from clinx.sanitize.journal import check_output_dir

    # Checked before minutes of model loading.
    if log_paths not in LOG_PATHS:
        raise ConfigError(f"log.paths must be one of {', '.join(LOG_PATHS)}")
    if output_names not in OUTPUT_NAMES:
        raise ConfigError(f"output.names must be one of {', '.join(OUTPUT_NAMES)}")
    check_output_dir(out_dir)
    condition = _build("condition", lambda: instantiate(cfg.condition))
    localizer = localizers_from_config(cfg, workers)
    verifier = verifiers_from_config(cfg, localizer, workers)
    common = dict(
        verify=bool(cfg.verify),
        verifier=verifier,
        batch_size=batch_size,
        seed=seed,
        resume=bool(cfg.resume),
        progress=bool(cfg.progress),
    )
    if cfg.benchmark_dir:
        from clinx.data.benchmark import load_benchmark

        samples = load_benchmark(Path(cfg.benchmark_dir))
        summary = sanitize_samples(samples, out_dir, condition, localizer, **common)
    else:
        if str(cfg.manifest) == "benchmark":
            raise ConfigError("manifest=benchmark needs benchmark_dir=...; for a folder use manifest=dicom, none or a JSON path")
        summary = sanitize_folder(
            cfg.input_dir, out_dir, condition, localizer, cfg.manifest, max_pixels=max_pixels,
            log_paths=log_paths, output_names=output_names, **common,
        )
    out = summary.to_dict()
    out["output_dir"] = str(out_dir)
    note = f"quarantined items are listed in {out_dir / 'quarantine.jsonl'}" if summary.quarantined else None
    result = finish_run(out, run_dir(), summary.table(), note)
    if summary.stale_left:
        raise ClinxError(
            f"{summary.stale_left} output(s) released by an earlier run did not pass this run and could not be removed; "
            "delete them before releasing the folder"
        )
    return result


_hydra_main = hydra_main("sanitize", run, log)

#: Command-line flags that Hydra handles itself (no composition check needed first).
_HYDRA_FLAGS = ("-h", "--help", "--hydra-help", "--cfg", "-c", "--info", "-i", "--shell-completion", "-sc",
                "--multirun", "-m", "--config-path", "-cp", "--config-name", "-cn", "--config-dir", "-cd",
                "--package", "-p", "--resolve", "--run", "-r", "--version")


def _check_overrides(argv: list[str]) -> None:
    """Compose the config from the command line once, so a bad override is one line and exit 2, not a Hydra trace."""
    from clinx.config import compose

    try:
        compose("sanitize", argv)
    except Exception as exc:  # noqa: BLE001 - any composition error is a configuration error
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "ocr.engine" in " ".join(argv):
            msg += " (engines are chosen with ocr=rapidocr | ocr=easyocr)"
        raise ConfigError(f"bad configuration: {escape_text(msg)[:300]}") from None


def main() -> int:
    """Console entry point (``clinx-sanitize``, ``clinx sanitize``)."""
    argv = sys.argv[1:]
    if not any(a.split("=")[0] in _HYDRA_FLAGS for a in argv):
        try:
            _check_overrides(argv)
        except ConfigError as exc:
            print(f"clinx sanitize: {exc}", file=sys.stderr)
            return 2
    return _hydra_main()


if __name__ == "__main__":
    raise SystemExit(main())
