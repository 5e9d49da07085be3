"""kibitzer for Python: the rule engine with its explanations, the games' native searches, and
durak and two-player mahjong as environments for self-play.

>>> import kibitzer
>>> a = kibitzer.ask("stud", hand="8S 10D 10S 8H 8C", opponent="XX 3C 5D 4H 6H")
>>> [c["args"] for c in a["conclusions"] if c["relation"] == "advice"]
[['bet big']]

Errors are exceptions of the ``KibitzerError`` hierarchy (``BadInput``, ``BadRules``,
``BudgetExceeded``, and ``InternalError`` for a bug caught at the boundary); a message is the
line the command-line tool prints for the same problem, without its ``kibitzer: `` prefix.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, List, Optional

from . import _native
from ._native import (
    BadInput,
    BadRules,
    BudgetExceeded,
    DurakGame,
    InternalError,
    KibitzerError,
    MahjongGame,
    Session,
    ask,
    batch,
    doudizhu_solve,
    durak_hand_value,
    mahjong_analyse,
    rulesets,
    rummy_evaluate,
    stud_describe,
    stud_equity,
)

__version__ = _native.__version__

__all__ = [
    "BadInput",
    "BadRules",
    "BudgetExceeded",
    "Diagnostic",
    "DurakGame",
    "InternalError",
    "KibitzerError",
    "MahjongGame",
    "Session",
    "ask",
    "batch",
    "batch_iter",
    "check",
    "doudizhu_solve",
    "durak_hand_value",
    "mahjong_analyse",
    "mahjong_shanten",
    "mahjong_useful",
    "mahjong_waits",
    "rulesets",
    "rummy_evaluate",
    "stud_describe",
    "stud_equity",
]


@dataclass(frozen=True)
class Diagnostic:
    """One problem of a rule file, located: ``file:line:col``, severity, message, the source
    line, and ``rendered`` (the text ``kibitzer check`` prints, caret included)."""

    file: str
    line: int
    col: int
    severity: str
    message: str
    source_line: str
    rendered: str

    def __str__(self) -> str:
        return self.rendered


def _rule_files(path: str) -> List[str]:
    """The ``.rules`` files under ``path`` in name order, as ``kibitzer check`` walks them
    (symlinked folders are not followed)."""
    if not os.path.isdir(path):
        return [path]
    found = []
    for root, dirs, files in os.walk(path, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".rules"):
                found.append(os.path.join(root, name))
    return found


def check(path: str, include_root: Optional[str] = None) -> List[Diagnostic]:
    """Checks a rule file, or every ``.rules`` file under a folder, and returns every problem
    found (errors and warnings) as located :class:`Diagnostic` objects; an empty list means
    the files load cleanly. A folder with no rule file raises :class:`BadInput`."""
    files = _rule_files(os.fspath(path))
    if not files:
        raise BadInput("no .rules files found")
    out: List[Diagnostic] = []
    for f in files:
        _, _, items = _native.check_file(f, include_root)
        out.extend(Diagnostic(**d) for d in items)
    return out


def mahjong_shanten(hand: str, melds: str = "") -> int:
    """Shanten of a mahjong hand (−1 won, 0 ready), the minimum of both forms.

    >>> kibitzer.mahjong_shanten("123m456m789m EE SS")
    0
    """
    return mahjong_analyse(hand, melds)["shanten"]


def mahjong_waits(hand: str, melds: str = "", visible: str = "", two_player: bool = True) -> list:
    """The waits of a waiting hand with their live counts.

    >>> kibitzer.mahjong_waits("123m456m789m EE SS")
    [{'tile': 'E', 'live': 2}, {'tile': 'S', 'live': 2}]
    """
    return mahjong_analyse(hand, melds, visible, two_player)["waits"]


def mahjong_useful(hand: str, melds: str = "", visible: str = "", two_player: bool = True) -> list:
    """The kinds whose draw lowers a waiting hand's shanten, with their live counts."""
    return mahjong_analyse(hand, melds, visible, two_player)["useful"]


def batch_iter(
    ruleset: str,
    rows: Iterable[Any],
    *args: Any,
    chunk: int = 1024,
    progress: Optional[Callable[[int, Optional[int]], Any]] = None,
    **kwargs: Any,
) -> Iterator[Any]:
    """``batch`` as an iterator: the answers in row order, ``chunk`` rows answered at a time on
    all cores, so a long or endless stream of rows is answered as it is read and the first
    answers come before the last rows are made. ``progress(done, total)`` is called after each
    chunk (``total`` is None when ``rows`` has no length). The other arguments are ``batch``'s."""
    if chunk < 1:
        raise BadInput(f"chunk must be at least 1, not {chunk}")
    try:
        total: Optional[int] = len(rows)  # type: ignore[arg-type]
    except TypeError:
        total = None
    done = 0
    pending: List[Any] = []
    source = iter(rows)
    while True:
        pending = [row for _, row in zip(range(chunk), source)]
        if not pending:
            return
        answers = batch(ruleset, pending, *args, **kwargs)
        done += len(pending)
        if progress is not None:
            progress(done, total)
        yield from answers
