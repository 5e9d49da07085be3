"""The Ray example runs (a local Ray with two worker processes) and measures its throughput."""

import importlib.util
import sys

import pytest

from conftest import ROOT


def load_example():
    path = ROOT / "python" / "examples" / "ray_selfplay.py"
    spec = importlib.util.spec_from_file_location("ray_selfplay", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ray_selfplay"] = module
    spec.loader.exec_module(module)
    return module


def test_ray_spreads_self_play_and_positions():
    pytest.importorskip("ray", reason="ray is not installed: the scaling example needs it")
    example = load_example()
    r = example.run(games=12, positions=200, chunk=4, num_cpus=2)
    assert sum(r["durak"].values()) == 12
    assert sum(r["advice"].values()) == 200 and "error" not in r["advice"]
    assert r["games_per_s"] > 0 and r["positions_per_s"] > 0
