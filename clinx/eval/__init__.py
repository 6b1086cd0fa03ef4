"""The privacy–utility evaluator (ClinX §3.4, §4): grid runner, judges, reports, ``clinx eval`` and ``clinx demo``.

* :mod:`clinx.eval.grid` — :class:`~clinx.eval.grid.GridRunner`: image conditions × text levels ×
  datasets × models, text-only ablation and leakage-only rows, content-addressed resumable caches;
* :mod:`clinx.eval.judge` — binary LLM-as-judge (question, reference, prediction only);
* :mod:`clinx.eval.report` — Tables 1–3, leakage table, paired differences, figures;
* :mod:`clinx.eval.cli` / :mod:`clinx.eval.demo` — the Hydra apps.

Nothing heavy is imported here; import the submodule you need.
"""
