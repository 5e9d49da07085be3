"""Shared fixtures: the repository, and the `kibitzer` binary the answers are compared with."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary():
    given = os.environ.get("KIBITZER_BIN")
    if given:
        return given
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "kibitzer"
        if path.exists():
            return str(path)
    return shutil.which("kibitzer")


class Cli:
    """The command-line tool, run as a user runs it."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, stdin=None):
        return subprocess.run(
            [self.path, *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300
        )

    def ask_json(self, ruleset, *args):
        out = self.run("ask", ruleset, *args, "--json")
        assert out.returncode in (0, 2), out.stderr
        return json.loads(out.stdout)

    def error(self, *args):
        """The one-line message the CLI prints for a failing command, without `kibitzer: `."""
        out = self.run(*args)
        assert out.returncode == 2, (out.stdout, out.stderr)
        text = out.stderr.strip()
        return text[len("kibitzer: "):] if text.startswith("kibitzer: ") else text


@pytest.fixture(scope="session")
def cli():
    path = _binary()
    if not path:
        pytest.skip("no kibitzer binary (build it, or set KIBITZER_BIN)")
    return Cli(path)


@pytest.fixture(scope="session")
def root():
    return ROOT


def without_micros(answer):
    """An answer with the timings taken out (the only part that differs run to run)."""
    answer = json.loads(json.dumps(answer))
    if isinstance(answer, dict) and isinstance(answer.get("stats"), dict):
        answer["stats"].pop("micros", None)
    return answer
