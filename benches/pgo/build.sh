#!/usr/bin/env bash
# A profile-guided build of kibitzer: target/pgo/release/kibitzer (see README.md beside this file).
#
#   benches/pgo/build.sh [GAME ...]          instrumented build, training runs of the games named
#                                            (durak stud mahjong rummy doudizhu; default all),
#                                            optimised build: about 3.5 minutes
#   benches/pgo/build.sh --train [GAME ...]  the same, reusing the instrumented binary of an earlier
#                                            call (to train on other games; after a code or rule
#                                            edit, run without --train: the rules are built in)
#
# The training runs are whole games, explained queries and the other games' quick benchmarks,
# never `bench durak`'s sample: the optimised binary's figures come from inputs it was not trained
# on. Needs llvm-profdata of LLVM 19 or later (older ones cannot read the raw profiles rustc 1.95
# writes); installs Debian's llvm-19 when none is found. The last line is the optimised binary.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
data="$root/target/pgo-data"
gen="$root/target/pgo-gen"
use="$root/target/pgo"

retrain=0
if [ "${1:-}" = "--train" ]; then
    retrain=1
    shift
fi
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(durak stud mahjong rummy doudizhu)
for game in "${games[@]}"; do
    case "$game" in
    durak | stud | mahjong | rummy | doudizhu) ;;
    *)
        echo "unknown game \`$game\` (known: durak stud mahjong rummy doudizhu)" >&2
        exit 2
        ;;
    esac
done

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The first llvm-profdata that is LLVM 19 or newer (older ones cannot read the raw profiles).
find_profdata() {
    local p v
    for p in llvm-profdata-22 llvm-profdata-21 llvm-profdata-20 llvm-profdata-19 llvm-profdata; do
        command -v "$p" >/dev/null 2>&1 || continue
        v="$("$p" --version 2>/dev/null | grep -o 'version [0-9]*' | grep -o '[0-9]*' | head -1)"
        if [ -n "$v" ] && [ "$v" -ge 19 ]; then
            command -v "$p"
            return 0
        fi
    done
    return 1
}

profdata="$(find_profdata || true)"
if [ -z "$profdata" ]; then
    echo "== installing llvm-profdata (Debian package llvm-19)"
    as_root apt-get install -y llvm-19 >/dev/null 2>&1 || {
        as_root apt-get update >/dev/null
        as_root apt-get install -y llvm-19 >/dev/null
    }
    profdata="$(find_profdata)"
fi
echo "== llvm-profdata: $profdata"


if [ "$retrain" = 0 ] || [ ! -x "$gen/release/kibitzer" ]; then
    echo "== instrumented build (target/pgo-gen)"
    RUSTFLAGS="-Cprofile-generate=$data" cargo build --release --quiet --target-dir "$gen"
fi
rm -rf "$data"
mkdir -p "$data"

echo "== training runs: ${games[*]}"
k="$gen/release/kibitzer"
train() {
    echo "   kibitzer $*"
    "$k" "$@" >/dev/null
}
# Durak positions as `kibitzer batch` reads them (one JSON object of inputs per line), from awk's
# generator with a seed of its own: 0–12 cards of the 36-card deck (at least one to attack with), a
# trump, and a stock and hand sizes that fit, as `bench durak` samples them from its own generator.
durak_queries() {
    awk -v seed="$1" -v n="$2" -v role="$3" 'BEGIN {
        srand(seed)
        split("6 7 8 9 10 J Q K A", r, " ")
        split("S H D C", s, " ")
        for (q = 0; q < n; q++) {
            for (i = 0; i < 36; i++) deck[i] = r[int(i / 4) + 1] s[i % 4 + 1]
            h = int(rand() * 13)
            if (role == "attack" && h == 0) h = 1
            for (i = 0; i < h; i++) {
                j = i + int(rand() * (36 - i)); t = deck[i]; deck[i] = deck[j]; deck[j] = t
            }
            hand = ""
            for (i = 0; i < h; i++) hand = hand (i ? " " : "") deck[i]
            cap = 36 - h < 24 ? 36 - h : 24
            stock = int(rand() * (cap + 1))
            rest = 36 - h - stock
            others = int(rand() * ((rest < 18 ? rest : 18) + 1))
            sizes = h
            if (others > 0) {
                a = int(rand() * (others + 1)); sizes = sizes "," a
                if (others > a) sizes = sizes "," (others - a)
            }
            extra = role == "" ? "" : ",\"role\":\"" role "\""
            printf "{\"hand\":\"%s\",\"trump\":\"%s\",\"stock\":%d,\"hands\":\"%s\"%s}\n", hand, s[int(rand() * 4) + 1], stock, sizes, extra
        }
    }'
}
train_batch() {
    echo "   kibitzer batch $1 < $2"
    "$k" batch "$1" <"$2" >/dev/null
}

for game in "${games[@]}"; do
    case "$game" in
    durak)
        # Whole games (every decision and its what-ifs) with other seats, options and decks,
        # and explained answers; seeds unlike the benchmark's.
        train play durak --seats durak,durak --games 300 --seed 101
        train play durak --seats durak,random,lowest --games 100 --seed 102 transfer=true
        train play durak --seats durak,lowest --games 100 --seed 103 deck=52
        train ask durak hand="AS 9D 7C 7H KC 6D" trump=D stock=12 hands="6,6,5"
        train ask durak hand="AS 9D 7C 7H KC 6D" trump=D stock=12 hands="6,6,5" role=attack
        train ask durak hand="AS 9D 7C 7H KC 6D" trump=D stock=0 hands="6,6" role=defend table="7S"
        # Explained answers in bulk (the games' seats keep no firing records): hand values and leads.
        durak_queries 105 3000 "" >"$data/durak-values.jsonl"
        durak_queries 106 500 attack >"$data/durak-leads.jsonl"
        train_batch durak "$data/durak-values.jsonl"
        train_batch durak "$data/durak-leads.jsonl"
        ;;
    stud)
        train bench classify --quick
        train bench stud-odds --quick
        train ask stud hand="8S 10D 10S 8H 8C" opponent="XX 3C 5D 4H 6H"
        ;;
    mahjong)
        train bench mahjong --quick
        train play mahjong --seats mahjong,strong --games 20 --seed 104
        ;;
    rummy) train bench rummy --quick ;;
    doudizhu) train bench doudizhu --quick ;;
    esac
done

echo "== merging the profiles"
"$profdata" merge -o "$data/merged.profdata" "$data"/*.profraw

echo "== optimised build (target/pgo)"
RUSTFLAGS="-Cprofile-use=$data/merged.profdata" cargo build --release --quiet --target-dir "$use"
echo "$use/release/kibitzer"
