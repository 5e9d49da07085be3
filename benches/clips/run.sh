#!/usr/bin/env bash
# The CLIPS comparison for `kibitzer bench classify` (see README.md beside this file).
#
#   benches/clips/run.sh           every five-card hand (2,598,960) through CLIPS 6.30 (Debian's
#                                  `clips`), kibitzer, and CLIPS 6.4x (PyPI `clipspy`); ~5 minutes
#   benches/clips/run.sh --quick   only the hands whose first card is card 30 or 40 (the same sample
#                                  as `kibitzer bench classify --quick`): a smoke test
#
# Installs CLIPS if missing (apt-get, with sudo only when not root) and clipspy into a venv under
# target/clips-venv. Checks the CLIPS counts against the exact ones (in --quick mode: against
# kibitzer's counts of the same hands). The last line is NAME=VALUE pairs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
clp="$here/stud.clp"

quick=0
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $arg (use --quick or nothing)" >&2; exit 2 ;;
    esac
done

if [ "$quick" = 1 ]; then
    firsts="30 40"
    kib_flag=(--quick)
else
    firsts="$(seq -s ' ' 0 47)"
    kib_flag=()
fi
exact="36 624 3744 5112 9180 54912 123552 1098240 1303560"
names=("straight flush" "four of a kind" "full house" "flush" "straight" "three of a kind" "two pair" "one pair" "high card")

# Reads the nine category counts from lines like "  full house   3744" (CLIPS's and kibitzer's
# output use the same names) and prints them space-separated.
counts_of() {
    local out="$1" line c=()
    for n in "${names[@]}"; do
        line="$(grep -E "^ +$n +[0-9]+" <<<"$out" | head -n1 || true)"
        if [ -z "$line" ]; then echo "missing"; return; fi
        c+=("$(awk '{print $NF}' <<<"${line//WRONG/}")")
    done
    echo "${c[*]}"
}

# ---- CLIPS 6.30 (Debian), CLIPS 6.4x (PyPI clipspy) ------------------------------------------------------------------------
# shellcheck source=setup.sh
. "$here/setup.sh"
clips_both "$clp" "(classify-hands $firsts)" clips_hands_per_s "the hands asserted and classified inside CLIPS, timed with (time)"
clips630_counts="$(counts_of "$clips630_out")"
clips630_hps="$clips630_fig"
clips630_hands="$(value_of clips_hands "$clips630_out")"
clips642_hps="$clips642_fig"
clips642_counts=""
if [ -n "$clips642_out" ]; then clips642_counts="$(counts_of "$clips642_out")"; fi

# ---- kibitzer -----------------------------------------------------------------------------------
echo "== kibitzer bench classify ${kib_flag[*]:-}"
kib_out="$(cd "$root" && cargo run --release --quiet -- bench classify "${kib_flag[@]}")"
printf '%s\n' "$kib_out"
kib_counts="$(counts_of "$kib_out")"
kib_hps="$(value_of hands_per_s "$kib_out")"
kib_all="$(value_of hands_per_s_all_cores "$kib_out")"
kib_hands="$(value_of hands "$kib_out")"
cores="$(value_of cores "$kib_out")"

# ---- checks and figures ---------------------------------------------------------------------------
status=0
if [ "$quick" = 1 ]; then want="$kib_counts"; against="kibitzer's counts of the same hands"; else want="$exact"; against="the exact counts"; fi
check() { # LABEL COUNTS
    if [ "$2" = "$want" ]; then echo "$1 counts match $against: $2"
    else echo "$1 counts DIFFER from $against: $2 (want $want)"; status=1; fi
}
echo "== checks"
check "CLIPS 6.30" "$clips630_counts"
[ "$quick" = 1 ] || check "kibitzer" "$kib_counts"
[ "$clips642_hps" = NA ] || check "CLIPS 6.4x" "$clips642_counts"
if [ "$clips630_hands" != "$kib_hands" ]; then
    echo "hand totals differ: CLIPS $clips630_hands, kibitzer $kib_hands"; status=1
fi

r630="$(ratio "$kib_hps" "$clips630_hps")"
r642="$(ratio "$kib_hps" "$clips642_hps")"
print_figures "hands/s, one thread, $kib_hands hands" "$clips630_hps" "$clips642_hps" "$kib_hps (all $cores cores: $kib_all)" "$r630" "$r642"
echo "counts_ok=$([ $status = 0 ] && echo true || echo false) hands=$kib_hands sample=$([ $quick = 1 ] && echo quick || echo all) clips630_hands_per_s=$clips630_hps clips642_hands_per_s=$clips642_hps kibitzer_hands_per_s=$kib_hps kibitzer_hands_per_s_all_cores=$kib_all ratio_vs_clips630=$r630 ratio_vs_clips642=$r642 cores=$cores"
exit $status
