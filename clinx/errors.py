"""Errors that name the item and the problem, never the PHI."""

from __future__ import annotations


class ClinxError(Exception):
    """Base class for clinx errors."""


class ItemError(ClinxError):
    """A single item could not be processed.

    ``item`` is a safe identifier (a file name relative to the input root or a
    sample id — never a value from the manifest); ``problem`` says what went
    wrong in words a user can act on. Batches catch this, quarantine the item
    and go on.
    """

    def __init__(self, item: str, problem: str, stage: str = ""):
        self.item = str(item)
        self.problem = str(problem)
        self.stage = stage
        where = f" [{stage}]" if stage else ""
        super().__init__(f"{self.item}{where}: {self.problem}")


class InputError(ItemError):
    """The input item is unreadable or invalid (corrupt, empty, too large, bad JSON…)."""


class CheckpointError(ClinxError):
    """A checkpoint is missing, corrupt or does not fit the network."""


class ConfigError(ClinxError):
    """A configuration value is invalid."""
