# Sourced by run.sh, odds.sh and durak.sh (not run on its own): makes sure both CLIPS engines are
# there, and defines `value_of`, which they use to read figures.
#   - CLIPS 6.30: Debian's package `clips` (apt-get, with sudo only when not root) if `clips` is missing.
#   - CLIPS 6.4x: PyPI `clipspy` in a venv under target/clips-venv, if it is not there yet.
# Sets `venv` (the venv's path) and `have_clipspy` (1 when `import clips` works in it, else 0).
# Expects `root` (the repository root).

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

value_of() { # NAME TEXT: the value of NAME=VALUE on the last line that has it
    grep -oE "(^| )$1=[^ ]+" <<<"$2" | tail -n1 | sed "s/.*=//"
}
