"""Miss Manners' guests, as the OPS5 suite generates them: one data set per size, written twice.

Usage: python3 gen_manners.py [--out DIR] [--seed S] [SIZE ...]     (sizes 16 32 64 128 by default)

N guests, half of each sex (shuffled), each with 2 or 3 distinct hobbies out of h1..h3 (2 to 5
out of h1..h5 at 128 guests and more), N seats. The same seed gives the same files. For each size N
it writes into DIR (default: data/ beside this script):

  mannersN.clp    CLIPS: a deffacts of guest facts (one per hobby), last_seat, count and context
  mannersN.rules  kibitzer: `const guests = [[name, sex, hobby], ...]` (last first, see
                  kibitzer_text) and `const seats = N`, for manners.rules to include

and `--check FILE N` reads a seating (lines `seat S NAME`) and checks it against mannersN's guests:
every guest seated once in seats 1..N, neighbours of opposite sex sharing a hobby (see check()).
"""

import random
import sys
from pathlib import Path

SIZES = (16, 32, 64, 128)
SEED = 1


def guests(n, seed):
    """[(name, sex, [hobbies])] for n guests: half m, half f, 2..3 hobbies of 3 (2..5 of 5 from 128)."""
    rng = random.Random(seed * 1000 + n)
    sexes = ["m"] * (n // 2) + ["f"] * (n - n // 2)
    rng.shuffle(sexes)
    most = 5 if n >= 128 else 3
    out = []
    for i, sex in enumerate(sexes, start=1):
        k = rng.randint(2, most)
        hobbies = sorted(rng.sample(range(1, most + 1), k))
        out.append((f"n{i}", sex, [f"h{h}" for h in hobbies]))
    return out


def clips_text(n, gs, seed):
    lines = [f";;; Miss Manners, {n} guests (gen_manners.py, seed {seed}): load after manners.clp, then (reset) (run)", "", "(deffacts guests"]
    for name, sex, hobbies in gs:
        for h in hobbies:
            lines.append(f"   (guest (name {name}) (sex {sex}) (hobby {h}))")
    lines += [f"   (last_seat (seat {n}))", "   (count (c 1))", "   (context (state start)))", ""]
    return "\n".join(lines)


def kibitzer_text(n, gs, seed):
    lines = [
        f"# Miss Manners, {n} guests (gen_manners.py, seed {seed}): included by manners.rules.",
        "# Listed last first: manners.rules asserts them under the depth strategy, the last listed",
        "# first, so they are asserted in the order of the CLIPS deffacts.",
        "",
        "const guests = [",
    ]
    rows = [f'    ["{name}", "{sex}", "{h}"]' for name, sex, hobbies in gs for h in hobbies][::-1]
    lines.append(",\n".join(rows))
    lines += ["]", f"const seats = {n}", ""]
    return "\n".join(lines)


def check(seating_text, n, seed=SEED):
    """The problems with a seating of lines `seat S NAME` (empty when it is a valid seating of n guests)."""
    gs = {name: (sex, set(hobbies)) for name, sex, hobbies in guests(n, seed)}
    seat_of, problems = {}, []
    for line in seating_text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "seat":
            s, name = int(parts[1]), parts[2]
            if s in seat_of:
                problems.append(f"seat {s} taken twice ({seat_of[s]}, {name})")
            seat_of[s] = name
    if sorted(seat_of) != list(range(1, n + 1)):
        problems.append(f"seats {sorted(seat_of)[:5]}... are not exactly 1..{n}")
    if sorted(seat_of.values()) != sorted(gs):
        problems.append("not every guest is seated exactly once")
    for s in range(1, n):
        a, b = seat_of.get(s), seat_of.get(s + 1)
        if a in gs and b in gs:
            if gs[a][0] == gs[b][0]:
                problems.append(f"seats {s} and {s + 1}: {a} and {b} are both {gs[a][0]}")
            if not gs[a][1] & gs[b][1]:
                problems.append(f"seats {s} and {s + 1}: {a} and {b} share no hobby")
    return problems


def main(argv):
    out, seed, sizes = Path(__file__).parent / "data", SEED, []
    if argv[:1] == ["--check"]:
        problems = check(Path(argv[1]).read_text(), int(argv[2]))
        for p in problems:
            print(p)
        return 1 if problems else 0
    while argv:
        a = argv.pop(0)
        if a == "--out":
            out = Path(argv.pop(0))
        elif a == "--seed":
            seed = int(argv.pop(0))
        else:
            sizes.append(int(a))
    out.mkdir(parents=True, exist_ok=True)
    for n in sizes or SIZES:
        gs = guests(n, seed)
        (out / f"manners{n}.clp").write_text(clips_text(n, gs, seed))
        (out / f"manners{n}.rules").write_text(kibitzer_text(n, gs, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
