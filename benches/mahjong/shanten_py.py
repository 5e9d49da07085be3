"""The Python `mahjong` library (PyPI) on random hands: the anchor for `kibitzer bench mahjong`'s
shanten figure, and an independent check of kibitzer's shanten.

Usage: python shanten_py.py random|near COUNT SEED HANDS_OUT RESULTS_OUT

Deals COUNT 14-tile hands of all 34 kinds (seeded): `random` from the 136 tiles, `near` a complete
hand (four sets and a pair, the sets sequences or triplets) with one to three tiles replaced by
random others, the shapes where shanten is hardest to get right. Writes them to
HANDS_OUT in kibitzer's notation (one hand per line, `1m`…`9s`, honours `1z`…`7z`), times the
library's standard-form shanten (`calculate_shanten_for_regular_hand`) over them, then computes its
seven-pairs shanten, and writes "standard seven_pairs" per hand to RESULTS_OUT. Prints the rate as
`py_shanten_per_s=…`. Python only deals and calls the library; the timed loop is the library's
calls alone.
"""

import random
import sys
import time
from importlib.metadata import version

from mahjong.shanten import Shanten


def notation(counts):
    out = []
    for suit, base in (("m", 0), ("p", 9), ("s", 18), ("z", 27)):
        digits = "".join(str(k + 1) * counts[base + k] for k in range(9 if suit != "z" else 7))
        if digits:
            out.append(digits + suit)
    return "".join(out)


def random_hand(rng):
    counts = [0] * 34
    for t in rng.sample(range(136), 14):
        counts[t // 4] += 1
    return counts


def near_hand(rng):
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                suit, first = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    counts[9 * suit + first + k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        for _ in range(rng.randint(1, 3)):
            held = [k for k in range(34) if counts[k] > 0]
            counts[rng.choice(held)] -= 1
            counts[rng.randrange(34)] += 1
        if max(counts) <= 4:
            return counts


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ("random", "near"):
        sys.exit("usage: shanten_py.py random|near COUNT SEED HANDS_OUT RESULTS_OUT")
    deal = random_hand if sys.argv[1] == "random" else near_hand
    count, seed = int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    hands = [deal(rng) for _ in range(count)]
    with open(sys.argv[4], "w") as f:
        f.writelines(notation(h) + "\n" for h in hands)

    shanten = Shanten()
    regular = shanten.calculate_shanten_for_regular_hand
    t0 = time.perf_counter()
    standard = [regular(h) for h in hands]
    secs = time.perf_counter() - t0
    pairs = [shanten.calculate_shanten_for_chiitoitsu_hand(h) for h in hands]
    with open(sys.argv[5], "w") as f:
        f.writelines(f"{s} {p}\n" for s, p in zip(standard, pairs))
    print(f"Python {sys.version.split()[0]}, mahjong {version('mahjong')}: standard-form shanten of "
          f"{count} {sys.argv[1]} 14-tile hands in {secs:.3f} s")
    print(f"py_shanten_per_s={count / max(secs, 1e-9):.0f}")


if __name__ == "__main__":
    main()
