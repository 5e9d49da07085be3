"""Runs benches/clips/stud.clp in the CLIPS engine bundled with PyPI `clipspy` (CLIPS 6.4.x).

Usage: python run_clipspy.py [FIRST_CARD ...]   (no arguments: every hand, first cards 0..47)

The classification runs entirely inside CLIPS: one call of the driver deffunction
`classify-hands`, which enumerates the hands, asserts the card facts, runs the rules and tallies.
Python only loads the file, makes that call and prints what CLIPS printed. The driver times
itself with CLIPS's (time) around its loops; the wall-clock time of the one call, as Python sees
it, is printed as a cross-check.
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
    firsts = [int(a) for a in sys.argv[1:]] or list(range(48))
    env = clips.Environment()
    env.add_router(Stdout())
    env.load(str(Path(__file__).with_name("stud.clp")))
    banner = [line for line in clips_banner(env) if line]
    print(f"clipspy {version()}: {' '.join(banner) or 'CLIPS 6.4x'}")
    t0 = time.perf_counter()
    result = env.eval(f"(classify-hands {' '.join(map(str, firsts))})")
    wall = time.perf_counter() - t0
    hands, secs = int(result[0]), float(result[1])
    counts = [int(c) for c in result[2:]]
    print(f"python_wall_seconds={wall:.3f}")
    print(f"counts={','.join(map(str, counts))} hands={hands} seconds={secs:.3f} hands_per_s={hands / max(secs, 1e-9):.0f}")


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
