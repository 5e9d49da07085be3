"""Waltz's data for kibitzer: each data/waltzN.fct (CLIPS facts) as data/waltzN.rules.

Usage: python3 gen_waltz.py [--out DIR] [N ...]     (12 25 37 50 by default)

A .fct file holds `(stage (value duplicate))` then `(line (p1 A) (p2 B))` facts; the .rules file holds
`const lines = [[A, B], ...]`, last first (asserted under the depth strategy, they come in the
file's order), for waltz.rules to include.
"""

import re
import sys
from pathlib import Path

SIZES = (12, 25, 37, 50)
LINE = re.compile(r"\(line\s+\(p1\s+(-?\d+)\)\s+\(p2\s+(-?\d+)\)\)")


def main(argv):
    here = Path(__file__).parent
    out, sizes = here / "data", []
    while argv:
        a = argv.pop(0)
        if a == "--out":
            out = Path(argv.pop(0))
        else:
            sizes.append(int(a))
    out.mkdir(parents=True, exist_ok=True)
    for n in sizes or SIZES:
        lines = LINE.findall((here / "data" / f"waltz{n}.fct").read_text())
        rows = ",\n".join(f"    [{a}, {b}]" for a, b in reversed(lines))
        text = f"# Waltz data set waltz{n}.fct ({len(lines)} lines; gen_waltz.py): included by waltz.rules.\n"
        text += "# Listed last first: waltz.rules asserts them under the depth strategy, the last listed first,\n"
        text += "# so they are asserted in the order of the .fct file.\n\n"
        text += f"const lines = [\n{rows}\n]\n"
        (out / f"waltz{n}.rules").write_text(text)


if __name__ == "__main__":
    main(sys.argv[1:])
