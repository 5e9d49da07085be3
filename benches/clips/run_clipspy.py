"""Runs a driver of benches/clips in the CLIPS engine bundled with PyPI `clipspy` (CLIPS 6.4.x).

Usage: python run_clipspy.py FILE.clp EXPRESSION
  e.g. run_clipspy.py stud.clp "(classify-hands 30 40)"   (run.sh)
       run_clipspy.py odds.clp "(odds-query 2000 \"8S TD TS 8H 8C\" \"3C 5D 4H 6H\")"   (odds.sh)
       run_clipspy.py durak.clp "(durak-values \"/tmp/durak-sample.txt\" 20)"   (durak.sh)

The work runs entirely inside CLIPS: one call of the driver deffunction, which asserts the facts,
runs the rules and times itself with CLIPS's (time). Python only loads the file, makes that call
and prints what CLIPS printed, then the wall-clock time of the one call as Python sees it (a
cross-check).
"""

import sys
import time
from pathlib import Path

import clips


class Stdout(clips.Router):
    """Sends CLIPS's standard output (`t`, `stdout`) to Python's."""

    def __init__(self):
        super().__init__("python-stdout", 30)

    def query(self, name):
        return name in ("t", "stdout")

    def write(self, name, message):
        sys.stdout.write(message)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: run_clipspy.py FILE.clp EXPRESSION")
    clp, expression = sys.argv[1], sys.argv[2]
    env = clips.Environment()
    env.add_router(Stdout())
    env.load(str(Path(__file__).parent / clp))
    banner = [line for line in clips_banner(env) if line]
    print(f"clipspy {version()}: {' '.join(banner) or 'CLIPS 6.4x'}")
    t0 = time.perf_counter()
    env.eval(expression)
    wall = time.perf_counter() - t0
    print(f"python_wall_seconds={wall:.3f}")


def clips_banner(env):
    """The engine's own version line, read from the bundled library's strings (CLIPS 6.4 has no
    `version` function)."""
    try:
        lib = Path(clips.__file__).with_name("_clips.abi3.so").read_bytes()
        i = lib.find(b"CLIPS (6.")
        if i >= 0:
            return [lib[i : lib.find(b")", i) + 1].decode()]
    except OSError:
        pass
    return []


def version():
    try:
        from importlib.metadata import version as v

        return v("clipspy")
    except Exception:  # noqa: BLE001 - the version is only informative
        return "?"


if __name__ == "__main__":
    main()
