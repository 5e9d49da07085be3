#!/usr/bin/env bash
# The production-system micro-benchmarks beside CLIPS 6.30 and 6.4x (see README.md beside this file):
#
#   benches/classic/micro.sh             join, modify and retract at n = 16000 and 128000
#   benches/classic/micro.sh --sizes N,… other sizes
#   benches/classic/micro.sh --repeat 3  each run three times, the least CPU time kept
#
# micro/join: a 3-way equality join written a, b, c (a chain: n matches); micro/modify: one fact
# modified n times; micro/retract: n facts retracted one by one. Each run is one process, timed as
# whole-process CPU (user + system) with its peak memory; the answer (the match count, the final
# counter, the facts left) must be the same in every engine, or the script exits 1. The last line
# is NAME=VALUE pairs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
sizes="16000 128000"
repeat=1
while [ $# -gt 0 ]; do
    case "$1" in
        --sizes) [ $# -ge 2 ] || { echo "micro.sh: --sizes needs a list, e.g. --sizes 1000,2000" >&2; exit 2; }
            sizes="${2//,/ }"; shift ;;
        --repeat) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "micro.sh: --repeat needs a count" >&2; exit 2; }
            repeat="$2"; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "micro.sh: unknown argument $1 (use --sizes LIST, --repeat N or nothing)" >&2; exit 2 ;;
    esac
    shift
done

# shellcheck source=../clips/setup.sh
. "$root/benches/clips/setup.sh"
work="$root/target/classic"
mkdir -p "$work"
echo "== building kibitzer (cargo build --release)"
(cd "$root" && nice -n 15 cargo build --release --quiet)
kib="$root/target/release/kibitzer"

# CMD...: runs CMD `repeat` times, its output to $work/out; sets `cpu` (least user + system
# seconds) and `mem` (the peak resident MB of that run).
timed() {
    local i line c m
    cpu=""; mem=""
    for ((i = 0; i < repeat; i++)); do
        /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$work/out" 2>"$work/err" || {
            echo "failed: $*" >&2; cat "$work/err" >&2; return 1; }
        line="$(tail -n1 "$work/time")"
        c="$(awk '{ printf "%.2f", $1 + $2 }' <<<"$line")"
        m="$(awk '{ printf "%.0f", $3 / 1024 }' <<<"$line")"
        if [ -z "$cpu" ] || awk -v a="$c" -v b="$cpu" 'BEGIN { exit !(a < b) }'; then cpu="$c"; mem="$m"; fi
    done
}

# The answer line, the same in either engine's words: "matched 128000".
answer() { grep -E '^(matched|counter|left)' "$work/out" | tail -n1 | tr -d ':'; }

ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0 || a == "NA" || b == "NA") print "NA"; else printf "%.2f", a / b }'; }

status=0
rows=()
pairs=""
for program in join modify retract; do
    for n in $sizes; do
        echo "== $program $n"
        printf '(load* "%s")\n(reset)\n(assert (n %s))\n(run)\n(exit)\n' "$here/micro/$program.clp" "$n" >"$work/batch"
        timed clips -f2 "$work/batch"
        c630="$cpu"; m630="$mem"; a630="$(answer)"
        c642=NA; a642="$a630"
        if [ "$have_clipspy" = 1 ] && timed "$venv/bin/python" "$root/benches/clips/run_clipspy.py" \
            "$here/micro/$program.clp" "(progn (reset) (assert (n $n)) (run))"; then
            c642="$cpu"; a642="$(answer)"
        fi
        timed "$kib" ask "$here/micro/$program.rules" "n=$n" --explain none --max-firings 100000000
        ck="$cpu"; mk="$mem"; ak="$(answer)"
        verdict=ok
        if [ "$a630" != "$ak" ] || [ "$a642" != "$ak" ]; then
            echo "answers differ: CLIPS 6.30 '$a630', CLIPS 6.4x '$a642', kibitzer '$ak'"
            verdict=WRONG; status=1
        fi
        echo "CPU s: CLIPS 6.30 $c630 ($m630 MB), CLIPS 6.4x $c642, kibitzer $ck ($mk MB); $ak"
        rows+=("$(printf '%-8s %7s %10s %10s %9s %7s %7s %8s %8s  %s' "$program" "$n" "$c630" "$c642" "$ck" \
            "$m630" "$mk" "$(ratio2 "$ck" "$c630")" "$(ratio2 "$ck" "$c642")" "$verdict")")
        pairs="$pairs ${program}${n}_clips630_s=$c630 ${program}${n}_clips642_s=$c642 ${program}${n}_kibitzer_s=$ck ${program}${n}_kibitzer_mb=$mk"
    done
done

echo "== whole-process CPU seconds (user + system) and peak MB, 2 cores; ratio = kibitzer ÷ CLIPS (below 1: kibitzer faster)"
printf '%-8s %7s %10s %10s %9s %7s %7s %8s %8s  %s\n' program n "CLIPS 6.30" "CLIPS 6.4x" kibitzer "MB 6.30" "MB kib" "÷ 6.30" "÷ 6.4x" answers
printf '%s\n' "${rows[@]}"
echo "answers_ok=$([ "$status" = 0 ] && echo true || echo false)$pairs"
exit "$status"
