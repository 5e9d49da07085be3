#!/usr/bin/env bash
# The CLIPS comparison for `kibitzer bench stud-odds`: the stud example query (my 8S TD TS 8H 8C against
# XX 3C 5D 4H 6H: 43 showdowns, each hand classified by Rule1–Rule9, each showdown decided by
# Rule10–Rule15, the odds counted, Rule16–Rule18 advising) in CLIPS 6.30, CLIPS 6.4x and kibitzer
# (see README.md beside this file).
#
#   benches/clips/odds.sh           2000 queries per CLIPS engine, kibitzer's 2000-run median;
#                                   about 15 s after the build
#   benches/clips/odds.sh --quick   100 queries each: a smoke test
#
# First checks that CLIPS and kibitzer answer the same (wins, ties, losses and the advice) on the
# example query and eight more with ties, losses and every tie-break; exits 1 on a difference. Installs
# what is missing (setup.sh). The last line is NAME=VALUE pairs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
clp="$here/odds.clp"

reps=2000
for arg in "$@"; do
    case "$arg" in
        --quick) reps=100 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "odds.sh: unknown argument $arg (use --quick or nothing)" >&2; exit 2 ;;
    esac
done

# My five cards | the opponent's four visible cards (the fifth is hidden).
queries=(
    "8S TD TS 8H 8C|3C 5D 4H 6H"   # the example query: a full house against a straight draw
    "AS KD 7C 5H 3D|AH KC 7S 5D"   # high card against high card: ties and kickers
    "AS 2D 3C 4H 5S|AH 2S 3D 4C"   # wheels: A-2-3-4-5 is high card on both sides
    "5S 6D 7S 8H 9C|TC JD QH KH"   # a straight against a higher straight draw
    "9S 9D 4C 6H KD|9H 9C 2D 3S"   # a pair against the same pair: the kickers
    "QS QD 5C 5H 2D|QH QC 5S 7D"   # two pair against two pair and full houses
    "2H 5H 9H JH KH|6S 7D 8C 9C"   # a flush against a straight draw
    "3S 3D 3C 7H 7D|4S 4D 4H 8C"   # full house against trips, full houses, four of a kind
    "KS KD KC KH 2S|AS AD AC 3D"   # four of a kind against four of a kind
)

# shellcheck source=setup.sh
. "$here/setup.sh"

echo "== building kibitzer"
(cd "$root" && cargo build --release --quiet)
kib="$root/target/release/kibitzer"

# ---- the same answers -----------------------------------------------------------------------------
calls="$(for q in "${queries[@]}"; do printf '(odds-query 1 "%s" "%s")\n' "${q%%|*}" "${q##*|}"; done)"
mapfile -t clips_answers < <(clips630 "$clp" "$calls" | grep -oE 'clips_odds=[0-9]+,[0-9]+,[0-9]+|clips_advice="[^"]*"' | paste -d' ' - -)
echo "== the same answers: CLIPS 6.30 and kibitzer (wins,ties,losses and the advice)"
status=0
for i in "${!queries[@]}"; do
    q="${queries[$i]}"
    out="$("$kib" ask stud hand="${q%%|*}" opponent="XX ${q##*|}")"
    kib_answer="$(grep -oE '^odds\([0-9]+, [0-9]+, [0-9]+' <<<"$out" | sed 's/odds(//; s/, /,/g')"
    kib_answer="clips_odds=$kib_answer clips_advice=$(grep -oE '^advice\("[^"]*"' <<<"$out" | sed 's/advice(//')"
    clips_answer="${clips_answers[$i]:-none}"
    if [ "$clips_answer" = "$kib_answer" ]; then verdict=same; else verdict=DIFFERENT; status=1; fi
    printf '%-28s vs XX %-12s CLIPS %-40s kibitzer %-40s %s\n' "${q%%|*}" "${q##*|}" \
        "${clips_answer//clips_/}" "${kib_answer//clips_/}" "$verdict"
done

# ---- the stud example query, timed --------------------------------------------------------------------------
example_call="(odds-query $reps \"8S TD TS 8H 8C\" \"3C 5D 4H 6H\")"
clips_both "$clp" "$example_call" clips_query_us "the stud example query $reps times inside CLIPS, timed with (time)"
clips630_us="$clips630_fig"
clips642_us="$clips642_fig"

echo "== kibitzer bench stud-odds native=no runs=$reps"
kib_out="$("$kib" bench stud-odds native=no "runs=$reps")"
printf '%s\n' "$kib_out"
kib_us="$(value_of example_query_us "$kib_out")"
cores="$(nproc)"

r630="$(ratio "$clips630_us" "$kib_us")"
r642="$(ratio "$clips642_us" "$kib_us")"
print_figures "the stud example query, µs per query, one thread" "$clips630_us" "$clips642_us" "$kib_us (median of $reps runs)" "$r630" "$r642"
echo "answers_ok=$([ $status = 0 ] && echo true || echo false) queries=${#queries[@]} clips630_query_us=$clips630_us clips642_query_us=$clips642_us kibitzer_query_us=$kib_us ratio_vs_clips630=$r630 ratio_vs_clips642=$r642 cores=$cores"
exit $status
