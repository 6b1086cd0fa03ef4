#!/usr/bin/env python3
"""Training-step speed of the restoration GAN: one D step + one G step, both networks.

    python scripts/bench_train.py --quick --out bench_train_quick.json
    python scripts/bench_train.py --out bench_train.json            # Table 4 shape: 224², batch 6

Times :meth:`RestorationModule.training_step`'s work (Telea base fill, G
forward, D real/fake, D backward + Adam, G adversarial + reconstruction
losses, G backward + Adam) on random 224² images with text-like masks, for
``prism`` and ``gskip`` with their default configs, on the CPU with
``--threads`` (default 2) intra-op threads. When a CUDA device is present it
also times the bf16-autocast step (Table 4 precision) and reports images/s.
Figures: ``step_s/<device>/<arch>``, ``images_per_s/<device>/<arch>``,
``params/generator/<arch>``, ``params/discriminator``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see clinx/restore/__init__.py: before torch is imported

import numpy as np  # noqa: E402
import torch  # noqa: E402


def log(msg: str) -> None:
    print(msg, flush=True)


def make_batch(batch: int, size: int, device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    x = torch.rand(batch, 3, size, size, generator=g) * 2 - 1
    m = torch.zeros(batch, 1, size, size)
    for i in range(batch):  # two text-line-like boxes per image (~5 % of the pixels)
        m[i, :, 10 + 7 * i:26 + 7 * i, 12:140] = 1
        m[i, :, size - 30:size - 16, size - 120:size - 10] = 1
    xt = torch.where(m > 0, torch.ones_like(x), x)
    return xt.to(device), m.to(device), x.to(device)


def step_fn(module, opt_g, opt_d, batch, amp_dtype):
    from clinx.restore.losses import discriminator_loss, generator_loss

    xt, m, x = batch
    ctx = torch.autocast(device_type=xt.device.type, dtype=amp_dtype) if amp_dtype else nullcontext()
    base = module.restorer.prepare(xt, m)  # Telea fill (CPU, OpenCV) — part of every real step
    with ctx:
        out = module.restorer(xt, m, base=base)
        d = module.discriminator
        d_loss = discriminator_loss(d(torch.cat([x, m], 1)), d(torch.cat([out.composite.detach(), m], 1)), module.weights)
    opt_d.zero_grad(set_to_none=True)
    d_loss.float().backward()
    opt_d.step()
    d.requires_grad_(False)
    with ctx:
        terms = generator_loss(out.raw, out.composite, xt, x, m, d(torch.cat([out.composite, m], 1)), module.weights)
    opt_g.zero_grad(set_to_none=True)
    terms["total"].float().backward()
    opt_g.step()
    d.requires_grad_(True)


def time_arch(arch: str, device: str, batch: int, size: int, warmup: int, iters: int, amp_dtype=None) -> dict:
    from clinx.config import compose
    import hydra

    from clinx.restore.networks import count_parameters

    cfg = compose("train", [f"model={arch}", f"data.crop={size}", f"data.size={size}"])
    module = hydra.utils.instantiate(cfg.model).to(device)
    opt_g, opt_d = module.configure_optimizers()
    data = make_batch(batch, size, device)
    for _ in range(warmup):
        step_fn(module, opt_g, opt_d, data, amp_dtype)
    if device.startswith("cuda"):
        torch.cuda.synchronize()
    times, cpu = [], []
    for _ in range(iters):
        t, c = time.perf_counter(), time.process_time()
        step_fn(module, opt_g, opt_d, data, amp_dtype)
        if device.startswith("cuda"):
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return {"step_s": float(np.median(times)), "cpu_s": float(np.median(cpu)), "g": count_parameters(module.generator),
            "d": count_parameters(module.discriminator)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1 warm-up + 3 timed steps (default 2 + 8)")
    ap.add_argument("--batch", type=int, default=6)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--archs", default="prism,gskip")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    from clinx.provenance import provenance

    start = provenance()  # the commit that runs, before anything can change it
    torch.set_num_threads(args.threads)
    warmup, iters = (1, 3) if args.quick else (2, 8)
    figures: dict[str, float] = {}
    rows = []
    devices = [("cpu", None)]
    if torch.cuda.is_available():
        devices.append(("cuda", torch.bfloat16))
    for device, amp in devices:
        for arch in [a for a in args.archs.split(",") if a]:
            r = time_arch(arch, device, args.batch, args.size, warmup, iters, amp)
            key = device if amp is None else f"{device}_bf16"
            figures[f"step_s/{key}/{arch}"] = round(r["step_s"], 4)
            figures[f"images_per_s/{key}/{arch}"] = round(args.batch / r["step_s"], 2)
            if device == "cpu":
                figures[f"cpu_s_per_step/{arch}"] = round(r["cpu_s"], 4)
            figures[f"params/generator/{arch}"] = r["g"]
            figures["params/discriminator"] = r["d"]
            rows.append(f"| {arch} | {key} | {r['step_s']:.3f} | {args.batch / r['step_s']:.2f} | {r['g']:,} | {r['d']:,} |")
            log(rows[-1])
    md = "\n".join(["| generator | device | s / step (G+D) | images/s | G params | D params |", "|---|---|---|---|---|---|", *rows])
    log(md)
    from clinx.provenance import write_figures

    meta = {"batch": args.batch, "size": args.size, "threads": args.threads, "warmup": warmup, "iters": iters}
    write_figures(args.out, figures, start=start, _meta=meta, _details={"table_md": md})
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
