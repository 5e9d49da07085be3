#!/usr/bin/env bash
# 10,000 rules over a small fact set, beside CLIPS 6.30 (see README.md beside this file):
#
#   benches/classic/many.sh            10,000 rules `Rk: v(k) => hit(k)`, 100 facts `v(1..100)`
#   benches/classic/many.sh --rules N  another number of rules
#
# Prints each engine's whole-process CPU seconds and peak memory, and kibitzer's memory per rule
# at load (its peak less that of a file of one rule, divided by the rules). The answer (how many
# rules fired) must be the same in both, or the script exits 1. The last line is NAME=VALUE pairs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rules=10000
while [ $# -gt 0 ]; do
    case "$1" in
        --rules) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "many.sh: --rules needs a count" >&2; exit 2; }
            rules="$2"; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "many.sh: unknown argument $1 (use --rules N or nothing)" >&2; exit 2 ;;
    esac
    shift
done

work="$root/target/classic"
mkdir -p "$work"
echo "== building kibitzer (cargo build --release)"
(cd "$root" && nice -n 15 cargo build --release --quiet)
kib="$root/target/release/kibitzer"

python3 - "$rules" "$work" <<'PY'
import sys
n, work = int(sys.argv[1]), sys.argv[2]
make = "rule Make\nwhen\n    n(?n)\n    ?i = range(1, ?n)\nthen\n    assert v(?i)\nend\n\n"
with open(f"{work}/many.rules", "w") as f:
    f.write('ruleset many "many rules"\n\ninput  n: int\noutput hit\n\n' + make)
    for k in range(1, n + 1):
        f.write(f"rule R{k}\nwhen\n    v({k})\nthen\n    assert hit({k})\nend\n\n")
with open(f"{work}/one.rules", "w") as f:
    f.write('ruleset many "many rules"\n\ninput  n: int\noutput hit\n\n' + make)
with open(f"{work}/many.clp", "w") as f:
    f.write("(deftemplate v (slot k))\n(deffacts data " + " ".join(f"(v (k {i}))" for i in range(1, 101)) + ")\n")
    for k in range(1, n + 1):
        f.write(f"(defrule R{k} (v (k {k})) => (assert (hit {k})))\n")
    f.write('(defrule Count (declare (salience -1)) => (printout t "hits " (length$ (find-all-facts ((?h hit)) TRUE)) crlf))\n')
PY

# CMD...: whole-process CPU seconds (user + system) and peak MB into `cpu` and `mem`.
timed() {
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
        echo "failed: $*" >&2; cat "$work/err" >&2; return 1; }
    cpu="$(awk '{ printf "%.2f", $1 + $2 }' "$work/time")"
    mem="$(awk '{ printf "%.1f", $3 / 1024 }' "$work/time")"
}

printf '(load "%s")\n(reset)\n(run)\n(exit)\n' "$work/many.clp" >"$work/batch"
timed clips -f2 "$work/batch"
c630="$cpu"; m630="$mem"; a630="$(grep -o 'hits [0-9]*' "$work/out" | awk '{ print $2 }')"
timed "$kib" ask "$work/one.rules" n=100 --explain none
m1="$mem"
timed "$kib" ask "$work/many.rules" n=100 --explain none --json
ck="$cpu"; mk="$mem"
ak="$(python3 -c 'import json, sys; print(len([c for c in json.load(sys.stdin)["conclusions"] if c["relation"] == "hit"]))' <"$work/out")"
per_rule="$(awk -v a="$mk" -v b="$m1" -v n="$rules" 'BEGIN { printf "%.1f", (a - b) * 1024 / n }')"
echo "CPU s: CLIPS 6.30 $c630 ($m630 MB), kibitzer $ck ($mk MB, $per_rule KB a rule); hits: $a630 and $ak"
status=0
[ "$a630" = "$ak" ] || { echo "answers differ"; status=1; }
echo "many_rules=$rules clips630_s=$c630 kibitzer_s=$ck kibitzer_kb_per_rule=$per_rule"
exit $status
