#!/usr/bin/env bash
# The CLIPS comparison for `kibitzer bench durak`'s hand_values_per_s: the Durak hand value (the
# rules OutOfPlay … HandValue of rules/durak.rules, one CLIPS defrule per term in durak.clp) over
# the hands kibitzer times, in CLIPS 6.30, CLIPS 6.4x and kibitzer (see README.md beside this file).
#
#   benches/clips/durak.sh           kibitzer's 4096 hands, 20 passes per CLIPS engine (about 5 s
#                                    in CLIPS 6.30, 2.5 s in CLIPS 6.4x); about 15 s after the build
#   benches/clips/durak.sh --quick   kibitzer's --quick sample (512 hands), 2 passes: a smoke test
#
# kibitzer writes the hands and its value of each (`bench durak write-sample=FILE`); CLIPS values
# every hand and checks it against kibitzer's: exits 1 on a difference. Installs what is missing
# (setup.sh). The last line is NAME=VALUE pairs. KIBITZER=PATH times another build of kibitzer
# (the profile-guided one: KIBITZER=target/pgo/release/kibitzer, see benches/pgo) instead of
# building target/release/kibitzer.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
clp="$here/durak.clp"

passes=20
kib_flag=()
for arg in "$@"; do
    case "$arg" in
        --quick) passes=2; kib_flag=(--quick) ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "durak.sh: unknown argument $arg (use --quick or nothing)" >&2; exit 2 ;;
    esac
done

# shellcheck source=setup.sh
. "$here/setup.sh"

if [ -n "${KIBITZER:-}" ]; then
    kib="$(cd "$root" && realpath "$KIBITZER")"
    echo "== kibitzer: $kib"
else
    echo "== building kibitzer"
    (cd "$root" && cargo build --release --quiet)
    kib="$root/target/release/kibitzer"
fi

# ---- the hands ------------------------------------------------------------------------------------
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sample="$work/durak-sample.txt"
echo "== kibitzer bench durak ${kib_flag[*]/%/ }write-sample=FILE: the hands and kibitzer's value of each"
"$kib" bench durak "${kib_flag[@]}" "write-sample=$sample" | tail -n1
hands="$(grep -cv '^;' "$sample")"
sample_sum="$(awk '!/^;/ { s += $1 } END { print s + 0 }' "$sample")"
call="(durak-values \"$sample\" $passes)"

status=0
check() { # LABEL OUTPUT: CLIPS valued every hand as kibitzer did
    local mism sum
    mism="$(value_of clips_mismatches "$2")"
    sum="$(value_of clips_checksum "$2")"
    if [ "$mism" = 0 ] && [ "$sum" = "$sample_sum" ]; then
        echo "$1: all $hands hands valued as kibitzer values them (checksum $sum)"
    else
        echo "$1: values DIFFER from kibitzer's: ${mism:-?} mismatches, checksum ${sum:-?} (want $sample_sum)"
        status=1
    fi
}

# ---- CLIPS 6.30 (Debian), CLIPS 6.4x (PyPI clipspy) -------------------------------------------------
clips_both "$clp" "$call" clips_hand_values_per_s "$hands hands × $passes passes valued inside CLIPS, timed with (time)"
clips630_hvps="$clips630_fig"
clips642_hvps="$clips642_fig"

# ---- kibitzer -----------------------------------------------------------------------------------
echo "== kibitzer bench durak ${kib_flag[*]/%/ }only=values: the same hands"
kib_out="$("$kib" bench durak "${kib_flag[@]}" only=values)"
printf '%s\n' "$kib_out"
kib_hvps="$(value_of hand_values_per_s "$kib_out")"
kib_sum="$(value_of checksum "$kib_out")"
if [ -n "$kib_sum" ] && [ "$sample_sum" != 0 ] && [ $((kib_sum % sample_sum)) != 0 ]; then
    echo "note: kibitzer's checksum $kib_sum is not a whole number of passes over the sample ($sample_sum each)"
fi
cores="$(nproc)"

# ---- checks and figures ---------------------------------------------------------------------------
echo "== checks"
check "CLIPS 6.30" "$clips630_out"
[ "$clips642_hvps" = NA ] || check "CLIPS 6.4x" "$clips642_out"

r630="$(ratio "$kib_hvps" "$clips630_hvps")"
r642="$(ratio "$kib_hvps" "$clips642_hvps")"
print_figures "hand values/s, one thread, $hands hands" "$clips630_hvps" "$clips642_hvps" "$kib_hvps" "$r630" "$r642"
echo "clips630_hand_values_per_s=$clips630_hvps clips642_hand_values_per_s=$clips642_hvps kibitzer_hand_values_per_s=$kib_hvps ratio_630=$r630 ratio_642=$r642 cores=$cores"
exit $status
