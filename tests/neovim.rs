//! `kibitzer lsp` with a real editor: a headless Neovim (the Debian package; `.ci/run` installs it)
//! opens a rule file with a mistake through `tests/fixtures/neovim/lsp.lua`, receives the
//! diagnostic, hovers a parameter and jumps from a relation to the rules that assert it. Without
//! `nvim` on the PATH the test says so and passes, except under CI, where it fails.

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use wait_timeout::ChildExt;

/// `line:col`, 0-based, of the `nth` occurrence of `needle` plus `shift`.
fn at(text: &str, needle: &str, nth: usize, shift: usize) -> String {
    let offset = text.match_indices(needle).nth(nth).expect(needle).0 + shift;
    let line = text[..offset].matches('\n').count();
    let col = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    format!("{line}:{col}")
}

#[test]
fn neovim_shows_the_diagnostic_hovers_and_jumps() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI runs this test with nvim installed"
        );
        eprintln!("nvim is not installed: the Neovim test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pocket = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/pocket.rules")).unwrap();
    let text = pocket.replace("assert holds(\"pair\", ?r)", "assert holds(\"pair\", ?q)");
    let file = dir.path().join("pocket.rules");
    std::fs::write(&file, &text).unwrap();
    let out = dir.path().join("seen.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/neovim/lsp.lua");
    let mut child = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u", "NONE", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("KIBITZER_BIN", env!("CARGO_BIN_EXE_kibitzer"))
        .env("RULES_FILE", &file)
        .env("OUT_FILE", &out)
        .env("HOVER", at(&text, "keep_from", 1, 2))
        .env("DEFINE", at(&text, "holds(_, ?r)", 0, 1))
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .env("XDG_CACHE_HOME", dir.path())
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let status = match child.wait_timeout(Duration::from_secs(90)).unwrap() {
        Some(s) => s,
        None => {
            let _ = child.kill();
            panic!(
                "nvim did not finish within 90 s: {}",
                std::fs::read_to_string(&out).unwrap_or_default()
            );
        }
    };
    let seen = std::fs::read_to_string(&out).unwrap_or_default();
    assert!(status.success(), "{status}: {seen}");
    let line_of = |needle: &str, nth: usize| {
        at(&text, needle, nth, 0)
            .split(':')
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
            + 1
    };
    let q = line_of("?q)", 0);
    assert!(
        seen.contains(&format!(
            "diagnostic {q}:26 variable `?q` is used in `then` but never bound"
        )),
        "{seen}"
    );
    assert!(seen.contains("hover param keep_from = 10 in 2..14"), "{seen}");
    let trips = line_of("assert holds", 0);
    let pair = line_of("assert holds", 1);
    assert!(
        seen.contains(&format!("definition {trips}:12\ndefinition {pair}:12\n")),
        "{seen}"
    );
    assert!(seen.ends_with("done\n"), "{seen}");
}
