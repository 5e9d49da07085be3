"""One canonical text form of an answer, whichever engine gave it, so that `diff` compares them.

Usage: python3 answer.py PROGRAM ENGINE < OUTPUT
  PROGRAM  manners or waltz
  ENGINE   clips (the lines the .clp program prints; other lines are ignored) or
           kibitzer (the JSON of `kibitzer ask FILE.rules --json`)

manners: `seat S NAME`, one line per guest, by seat.
waltz:   `junction BASE TYPE ...` then `edge P1 P2 LABEL`, sorted. A junction lists its edges' far
         ends: an L both, sorted; a tee or an arrow its shaft (stem), then the two barbs sorted; a fork
         all three sorted (it has no shaft). The barbs are sorted because which is p1 and which p3
         depends on the order the engine matched the three edges in, which the labelling rules do not
         care about (each has its mirror).
"""

import json
import sys


def junction_line(base, kind, p1, p2, p3):
    if kind == "L":
        ends = sorted([p1, p2])
    elif kind == "fork":
        ends = sorted([p1, p2, p3])
    else:
        ends = [p2] + sorted([p1, p3])
    return " ".join(["junction", str(base), kind] + [str(p) for p in ends])


def clips_facts(text):
    """(relation, args) from the lines a .clp program prints."""
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] in ("seat", "junction", "edge"):
            yield parts[0], parts[1:]


def kibitzer_facts(text):
    """(relation, args) from kibitzer's JSON answer, in the order and form the CLIPS lines have."""
    answer = json.loads(text)
    for c in answer["conclusions"]:
        rel, args = c["relation"], c["args"]
        if rel == "seated":  # seated(seat, name)
            yield "seat", [str(a) for a in args]
        elif rel == "junction":  # junction(type, base_point, p1, p2, p3)
            kind, base, p1, p2, p3 = args
            yield "junction", [str(base), kind, str(p1), str(p2), str(p3)]
        elif rel == "edge":  # edge(p1, p2, joined, label, plotted)
            p1, p2, _joined, label, _plotted = args
            yield "edge", [str(p1), str(p2), label]


def canonical(program, facts):
    if program == "manners":
        seats = sorted((int(a[0]), a[1]) for rel, a in facts if rel == "seat")
        return [f"seat {s} {name}" for s, name in seats]
    junctions, edges = [], []
    for rel, a in facts:
        if rel == "junction":
            junctions.append(junction_line(int(a[0]), a[1], int(a[2]), int(a[3]), int(a[4])))
        elif rel == "edge":
            edges.append((int(a[0]), int(a[1]), a[2]))
    return sorted(junctions) + [f"edge {p1} {p2} {label}" for p1, p2, label in sorted(edges)]


def main(argv):
    if len(argv) != 2 or argv[0] not in ("manners", "waltz") or argv[1] not in ("clips", "kibitzer"):
        sys.exit("usage: answer.py manners|waltz clips|kibitzer < OUTPUT")
    text = sys.stdin.read()
    facts = clips_facts(text) if argv[1] == "clips" else kibitzer_facts(text)
    for line in canonical(argv[0], list(facts)):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
