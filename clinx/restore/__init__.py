"""Generative restoration of the PHI region: ClinX-PRISM, g-skip, their training and conditions.

* :mod:`clinx.restore.networks` — plain ``nn.Module`` generators / discriminator;
* :mod:`clinx.restore.composite` — base fill -> generator -> composite wrapper;
* :mod:`clinx.restore.losses`, :mod:`~clinx.restore.module`, :mod:`~clinx.restore.datamodule`,
  :mod:`~clinx.restore.callbacks`, :mod:`~clinx.restore.cli` — training (``clinx-train``);
* :mod:`clinx.restore.checkpoint` — ``weights_only`` checkpoints, clear errors;
* :mod:`clinx.restore.tiling`, :mod:`~clinx.restore.postprocess`, :mod:`~clinx.restore.condition` —
  the ``gskip`` / ``prism`` / ``prism_flat`` sanitizer conditions.
"""

import os

# OpenMP threads that busy-wait between parallel regions burn their time slice
# on a shared machine: measured here on the 2-core box under load, a 2-thread
# PRISM forward took ~9 s wall with the default (active) policy and ~0.45 s
# with PASSIVE. libgomp reads this once, when torch is first imported, so it
# is set here, before any restore module imports torch (a user's own setting wins).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
