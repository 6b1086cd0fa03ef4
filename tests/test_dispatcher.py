"""The ``clinx`` dispatcher: help, unknown commands, and sub-app hand-off."""

import subprocess
import sys

from clinx import cli


def test_help_lists_every_command(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in out


def test_unknown_command_is_an_error(capsys):
    assert cli.main(["frobnicate"]) == 2
    assert "unknown command" in capsys.readouterr().err


def test_every_command_module_imports():
    import importlib

    for module, attr, _ in cli.COMMANDS.values():
        assert callable(getattr(importlib.import_module(module), attr))


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "clinx.cli", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "sanitize" in r.stdout
