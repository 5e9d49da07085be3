# Sourced by run.sh, odds.sh and durak.sh (not run on its own): makes sure both CLIPS engines are
# there, and defines what they share: `clips630` and `clips642` (run a driver in each), `clips_both`
# (both, with their figures), `print_figures`, `ratio` and `value_of` (reads a figure).
#   - CLIPS 6.30: Debian's package `clips` (apt-get, with sudo only when not root) if `clips` is missing.
#   - CLIPS 6.4x: PyPI `clipspy` in a venv under target/clips-venv, if it is not there yet.
# Sets `venv` (the venv's path) and `have_clipspy` (1 when `import clips` works in it, else 0).
# Expects `root` (the repository root) and `here` (this folder).

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v clips >/dev/null 2>&1; then
    echo "== installing CLIPS (Debian package clips)"
    as_root apt-get install -y clips >/dev/null 2>&1 || {
        as_root apt-get update >/dev/null
        as_root apt-get install -y clips >/dev/null
    }
fi

venv="$root/target/clips-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import clips' 2>/dev/null; then
    echo "== installing clipspy into $venv"
    { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet clipspy; } >/dev/null 2>&1 || true
fi
if "$venv/bin/python" -c 'import clips' 2>/dev/null; then have_clipspy=1; else have_clipspy=0; fi

# FILE.clp CALLS: CLIPS 6.30's output of CALLS (Debian's `clips` in batch mode, the file loaded
# first, one call per line).
clips630() {
    local batch
    batch="$(mktemp)"
    printf '(load* "%s")\n%s\n(exit)\n' "$1" "$2" >"$batch"
    clips -f2 "$batch" </dev/null
    rm -f "$batch"
}

# FILE.clp CALL: CLIPS 6.4x's output of CALL (the file loaded into clipspy's engine, see
# run_clipspy.py), printed as the caller captures it; fails, saying why on stderr, without clipspy.
clips642() {
    if [ "$have_clipspy" != 1 ]; then
        echo "clipspy did not install (python3 -m venv + pip install clipspy failed): no CLIPS 6.4x figure" >&2
        return 1
    fi
    "$venv/bin/python" "$here/run_clipspy.py" "$1" "$2"
}

# FILE.clp CALL NAME WHAT: runs CALL in CLIPS 6.30 and then in CLIPS 6.4x, printing each output, and
# reads the figure NAME (NAME=VALUE) from each. Sets clips630_out and clips642_out (empty without
# clipspy), clips630_fig and clips642_fig (NA without clipspy); exits when CLIPS 6.30 printed no
# NAME. WHAT says what runs, for the first heading.
clips_both() {
    echo "== CLIPS 6.30 (Debian clips): $4"
    clips630_out="$(clips630 "$1" "$2")"
    printf '%s\n' "$clips630_out" | grep -vE '^\s*$' || true
    clips630_fig="$(value_of "$3" "$clips630_out")"
    if [ -z "$clips630_fig" ]; then echo "CLIPS 6.30 printed no $3" >&2; exit 1; fi
    echo "== CLIPS 6.4x (PyPI clipspy): the same $(basename "$1"), the same driver"
    clips642_out=""
    clips642_fig=NA
    if clips642_out="$(clips642 "$1" "$2")"; then
        printf '%s\n' "$clips642_out"
        clips642_fig="$(value_of "$3" "$clips642_out")"
    fi
}

# TITLE CLIPS630 CLIPS642 KIBITZER R630 R642: the figures side by side, and how much faster kibitzer is.
print_figures() {
    echo "== $1"
    echo "CLIPS 6.30 (Debian):   $2"
    echo "CLIPS 6.4x (clipspy):  $3"
    echo "kibitzer:              $4"
    echo "kibitzer is ${5}x faster than CLIPS 6.30 and ${6}x faster than CLIPS 6.4x"
}

ratio() { # A B: A / B to one decimal, NA when either is NA
    if [ "$1" = NA ] || [ "$2" = NA ]; then echo NA; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; fi
}

value_of() { # NAME TEXT: the value of NAME=VALUE on the last line that has it
    grep -oE "(^| )$1=[^ ]+" <<<"$2" | tail -n1 | sed "s/.*=//"
}
