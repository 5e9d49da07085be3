#!/usr/bin/env bash
# The Python `mahjong` library (PyPI) beside kibitzer's shanten, on the same hands (see
# README.md beside this file).
#
#   benches/mahjong/run.sh           100,000 near-ready and 100,000 random 14-tile hands of all 34
#                                    kinds; about 20 s + the build
#   benches/mahjong/run.sh --quick   5,000 of each: a smoke test
#
# Installs `mahjong` into a venv under target/mahjong-venv if it is not there. Python deals the
# hands (seeded) and times its standard-form shanten; kibitzer times its own on the same hands
# (`kibitzer bench mahjong hands=FILE results=OUT`); the figures are the random hands'. Then the
# answers are compared hand by hand: the standard form must agree on every hand; seven pairs
# wherever the two rules cannot differ (the library follows the riichi rule that four of a kind is
# not two pairs; kibitzer (docs/mahjong.md) counts it as two), and elsewhere kibitzer's may only be lower. Exits 1
# on a difference. The last line is NAME=VALUE pairs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

count=100000
for arg in "$@"; do
    case "$arg" in
        --quick) count=5000 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $arg (use --quick or nothing)" >&2; exit 2 ;;
    esac
done

value_of() { # NAME TEXT: the value of NAME=VALUE on the last line that has it
    grep -oE "(^| )$1=[^ ]+" <<<"$2" | tail -n1 | sed "s/.*=//"
}

venv="$root/target/mahjong-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mahjong' 2>/dev/null; then
    echo "== installing the Python mahjong library into $venv"
    python3 -m venv "$venv" >/dev/null
    "$venv/bin/pip" install --quiet mahjong >/dev/null
fi

echo "== building kibitzer"
(cd "$root" && cargo build --release --quiet)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# check KIND: deals COUNT hands of KIND (random, near) in Python, times both sides on them, and
# compares the answers; sets py_rate, kib_rate, kib_min_rate; a difference sets status=1.
status=0
check() {
    local kind="$1" py_out kib_out standard_diff pairs_diff other other_lower pairs_worse
    echo "== Python mahjong: $count $kind hands, standard-form shanten timed"
    py_out="$("$venv/bin/python" "$here/shanten_py.py" "$kind" "$count" 1 "$work/hands.txt" "$work/py.txt")"
    printf '%s\n' "$py_out"
    py_rate="$(value_of py_shanten_per_s "$py_out")"
    echo "== kibitzer bench mahjong hands=… (the same hands)"
    kib_out="$("$root/target/release/kibitzer" bench mahjong hands="$work/hands.txt" results="$work/kib.txt")"
    printf '%s\n' "$kib_out"
    kib_rate="$(value_of standard_shanten_per_s "$kib_out")"
    kib_min_rate="$(value_of shanten_per_s "$kib_out")"
    echo "== the same answers ($kind hands)"
    # Columns: hand, library standard, library seven pairs, kibitzer standard, kibitzer seven pairs.
    # Seven pairs is compared exactly where the two rules cannot differ (no kind held four times, at
    # least seven kinds); elsewhere kibitzer may only be lower (a quad as two pairs can only help).
    read -r standard_diff pairs_diff other other_lower pairs_worse < <(
        paste -d' ' "$work/hands.txt" "$work/py.txt" "$work/kib.txt" | awk '
            function kinds(hand,    i, c, digits, n, seen) {
                n = 0; digits = ""
                for (i = 1; i <= length(hand); i++) {
                    c = substr(hand, i, 1)
                    if (c ~ /[0-9]/) { digits = digits c; continue }
                    for (j = 1; j <= length(digits); j++) {
                        k = substr(digits, j, 1) c
                        if (!(k in seen)) { seen[k] = 1; n++ }
                    }
                    digits = ""
                }
                return n
            }
            {
                quad = ($1 ~ /1111|2222|3333|4444|5555|6666|7777|8888|9999/)
                same_rule = !quad && kinds($1) >= 7
            }
            $2 != $4 { s++; if (s <= 5) print "standard differs: " $0 > "/dev/stderr" }
            same_rule && $3 != $5 { p++; if (p <= 5) print "seven pairs differ: " $0 > "/dev/stderr" }
            !same_rule { o++; if ($5 < $3) ol++ }
            !same_rule && $5 > $3 { w++; if (w <= 5) print "seven pairs higher than riichi: " $0 > "/dev/stderr" }
            END { print s + 0, p + 0, o + 0, ol + 0, w + 0 }')
    echo "standard form: $standard_diff of $count hands differ"
    echo "seven pairs, hands where both rules agree (no quad, seven kinds or more): $pairs_diff differ"
    echo "seven pairs, the other $other hands: kibitzer lower on $other_lower (a quad counts as two pairs in kibitzer (docs/mahjong.md), not in riichi), higher on $pairs_worse"
    [ "$standard_diff" = 0 ] && [ "$pairs_diff" = 0 ] && [ "$pairs_worse" = 0 ] || status=1
}

check near
check random

ratio="$(awk -v a="$kib_rate" -v b="$py_rate" 'BEGIN { printf "%.0f", a / b }')"
echo "== standard-form shanten per second, one thread"
echo "Python mahjong: $py_rate"
echo "kibitzer:       $kib_rate (minimum of both forms: $kib_min_rate)"
echo "kibitzer is ${ratio}x faster"
echo "answers_ok=$([ $status = 0 ] && echo true || echo false) hands_per_set=$count py_shanten_per_s=$py_rate kibitzer_shanten_per_s=$kib_rate ratio=$ratio cores=$(nproc)"
exit $status
