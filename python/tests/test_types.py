"""The type stubs say what the extension module has: mypy's stubtest compares them (every
function, class, argument and default) with the module as built."""

import subprocess
import sys

import pytest


def test_the_stubs_match_the_extension_module():
    pytest.importorskip("mypy", reason="mypy is not installed: the stubs are not checked")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "kibitzer._native"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_package_says_it_is_typed():
    import importlib.resources

    assert importlib.resources.files("kibitzer").joinpath("py.typed").is_file()
    assert importlib.resources.files("kibitzer").joinpath("_native.pyi").is_file()
