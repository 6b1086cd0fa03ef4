"""``clinx release`` / ``clinx-release``: a DICOM archive or an image folder in, a verified de-identified release out.

Examples::

    clinx release input_dir=archive/ output_dir=release/
    clinx release input_dir=archive/ output_dir=release/ condition=blackout workers=2 release.key_file=true
    clinx release input_dir=archive/ output_dir=release/ release.backend=ray release.address=auto workers=64
    clinx release input_dir=archive/ output_dir=release/ dry_run=true

Writes the release (same layout as the input), ``audit.json`` / ``audit.md``
and the state logs into ``output_dir``; the secret that keys UID remapping and
date shifts (and, when asked, ``key.json``) into ``release.key_dir``
(default ``<output_dir>.key``). The run folder gets the resolved config and
``summary.json``. Exit 0 when the run finished (quarantined and failed items
are listed in the audit), 2 with one line for a setup error.
"""

from __future__ import annotations

import hashlib
import logging
import sys
from pathlib import Path

from clinx.cli_common import finish_run, hydra_main
from clinx.config import run_dir
from clinx.errors import ConfigError, escape_text

log = logging.getLogger("clinx.release")

#: Config keys that change how a run goes, not what it releases: left out of the resume fingerprint.
_RUN_ONLY = ("workers", "progress", "dry_run", "resume", "log", "input_dir", "output_dir", "paths", "hydra")
_RUN_ONLY_RELEASE = ("backend", "address", "mp_context", "key_file", "key_dir")


def settings_fingerprint(container: dict) -> str:
    """Resume-key identity of a release config: what changes the released bytes, plus the code that makes them."""
    from clinx.fingerprint import code_digest, settings_digest

    kept = {k: v for k, v in container.items() if k not in _RUN_ONLY}
    kept["release"] = {k: v for k, v in (container.get("release") or {}).items() if k not in _RUN_ONLY_RELEASE}
    code = code_digest("clinx.release", "clinx.sanitize", "clinx.localize", "clinx.ocr", "clinx.text", "clinx.data.dicom",
                       "clinx.restore")
    return settings_digest(kept, code)


def release_from_config(cfg, *, ray_init: dict | None = None):
    """Run the release a composed ``release`` config describes (the CLI, the benchmark); returns the :class:`ReleaseSummary`."""
    from omegaconf import OmegaConf

    from clinx.localize.manifests import ManifestSource
    from clinx.release.runner import BACKENDS, ConfigParts, check_release_folders, load_secret, release_tree
    from clinx.sanitize.cli import _int

    if not cfg.input_dir or not cfg.output_dir:
        raise ConfigError("input_dir and output_dir are required")
    workers = _int(cfg, "workers", minimum=1)
    seed = _int(cfg, "seed")
    max_pixels = _int(cfg, "max_pixels", minimum=1)
    rel = cfg.release
    if str(rel.text_level).upper() not in ("L1", "L2"):
        raise ConfigError("release.text_level must be L1 or L2 (L3 rewrites are not released unattended)")
    out_dir = Path(str(cfg.output_dir))
    key_dir = Path(str(rel.key_dir)) if rel.key_dir else out_dir.with_name(out_dir.name + ".key")
    dry = bool(cfg.dry_run)
    if str(rel.backend) not in BACKENDS:
        raise ConfigError(f"release.backend must be one of {', '.join(BACKENDS)}")
    check_release_folders(Path(str(cfg.input_dir)), out_dir, key_dir)  # before the secret is created anywhere
    secret = load_secret(key_dir, create=not dry)
    container = OmegaConf.to_container(cfg, resolve=True)  # plain values: workers rebuild the parts from it
    container.pop("hydra", None)
    container.pop("paths", None)
    if workers > 1 and "threads" in container.get("ocr", {}):
        container["ocr"]["threads"] = 1  # one core per worker process
    return release_tree(
        cfg.input_dir, out_dir, ConfigParts(container, secret),
        secret_fp=hashlib.sha256(secret.encode()).hexdigest()[:16],
        settings_fp=settings_fingerprint(container),
        seed=seed, text_level=str(rel.text_level).upper(), max_pixels=max_pixels,
        backend=str(rel.backend), workers=workers, mp_context=str(rel.mp_context),
        ray_address=str(rel.address) if rel.address else None, ray_init=ray_init, dry_run=dry, resume=bool(cfg.resume),
        key_file=bool(rel.key_file), key_dir=key_dir, log_paths=str(cfg.log.paths),
        text_suffixes=tuple(str(s) for s in rel.text_suffixes), manifest_source=ManifestSource(cfg.manifest),
    )


def run(cfg) -> dict:
    """Run the release described by a composed ``release`` config; returns the summary dict."""
    from clinx.sanitize.cli import _escape_log_records

    _escape_log_records()
    summary = release_from_config(cfg)
    out = summary.to_dict()
    out["output_dir"] = str(cfg.output_dir)
    if summary.dry_run:
        out["would"] = summary.audit
    note = f"audit: {Path(str(cfg.output_dir)) / 'audit.md'}" if not summary.dry_run else "dry run: nothing was written"
    return finish_run(out, run_dir(), summary.table(), note)


_hydra_main = hydra_main("release", run, log)


def main() -> int:
    """Console entry point (``clinx-release``, ``clinx release``)."""
    from clinx.config import compose
    from clinx.sanitize.cli import _HYDRA_FLAGS

    argv = sys.argv[1:]
    if not any(a.split("=")[0] in _HYDRA_FLAGS for a in argv):
        try:
            compose("release", argv)
        except Exception as exc:  # noqa: BLE001 - a bad override is one line and exit 2
            msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            print(f"clinx release: bad configuration: {escape_text(msg)[:300]}", file=sys.stderr)
            return 2
    return _hydra_main()


if __name__ == "__main__":
    raise SystemExit(main())
