"""Every ```python block of docs/python.md runs as shown.

A block of `>>>` lines is a doctest: each answer must match the output shown, where `...` stands
for any text (the page abridges long answers so) and runs of white space compare equal. Any other
block is a script, run as a whole in a fresh namespace: every block is self-contained.
"""

import doctest
import re

import pytest

from conftest import ROOT

PAGE = ROOT / "docs" / "python.md"


def python_blocks():
    """(line, code) of every ```python block of the page, in order."""
    blocks = []
    for m in re.finditer(r"^```python\n(.*?)^```$", PAGE.read_text(encoding="utf-8"), re.S | re.M):
        line = PAGE.read_text(encoding="utf-8")[: m.start()].count("\n") + 1
        blocks.append((line, m.group(1)))
    return blocks


BLOCKS = python_blocks()


def test_the_page_has_python_blocks():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("line,code", BLOCKS, ids=[f"python.md:{line}" for line, _ in BLOCKS])
def test_python_block_runs_as_shown(line, code):
    if code.lstrip().startswith(">>>"):
        parser = doctest.DocTestParser()
        test = parser.get_doctest(code, {}, f"python.md:{line}", str(PAGE), line)
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        runner = doctest.DocTestRunner(optionflags=flags)
        failures = []
        runner.run(test, out=failures.append)
        assert runner.failures == 0, "".join(failures)
        assert runner.tries > 0
    else:
        exec(compile(code, f"python.md:{line}", "exec"), {"__name__": "python_md"})
