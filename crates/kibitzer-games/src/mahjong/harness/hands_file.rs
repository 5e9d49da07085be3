//! `kibitzer bench mahjong hands=FILE [results=OUT]`: shanten of hands someone else dealt, so that
//! another implementation can be timed and checked on exactly the same hands
//! (`benches/mahjong/run.sh` does this with the Python `mahjong` library).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use crate::mahjong::parse_counts;
use crate::mahjong::prepare_tables;
use crate::mahjong::Counts;
use crate::mahjong::{shanten, shanten_seven_pairs, shanten_standard};

/// Reads FILE (one hand per line in tile notation, 14 − 3k tiles; blank lines and `#` comments
/// skipped), times the standard-form shanten and the minimum over both forms on one thread, and,
/// given `results`, writes "standard seven_pairs" per hand there. Returns the report lines, the
/// last one `NAME=VALUE` pairs.
pub fn run(path: &str, results: Option<&str>) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut hands: Vec<Counts> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let counts = parse_counts(line).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        let tiles: usize = counts.iter().map(|&c| c as usize).sum();
        if tiles % 3 != 2 {
            return Err(format!(
                "{path}:{}: {tiles} tiles; a hand to score has 14, 11, 8, 5 or 2",
                i + 1
            ));
        }
        hands.push(counts);
    }
    if hands.is_empty() {
        return Err(format!("{path}: no hands"));
    }
    prepare_tables();
    let standard_rate = rate(&hands, |h| shanten_standard(h, &[]));
    let min_rate = rate(&hands, |h| shanten(h, &[]));
    if let Some(out) = results {
        let mut buf = String::with_capacity(hands.len() * 5);
        for h in &hands {
            let pairs = shanten_seven_pairs(h, &[]).unwrap_or(i8::MAX);
            let _ = writeln!(buf, "{} {}", shanten_standard(h, &[]), pairs);
        }
        std::fs::write(out, buf).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(vec![
        format!(
            "shanten of {} hands from {path}, one thread: standard form {:.2} M/s, minimum of both forms {:.2} M/s",
            hands.len(),
            standard_rate / 1e6,
            min_rate / 1e6
        ),
        format!(
            "hands={} standard_shanten_per_s={standard_rate:.0} shanten_per_s={min_rate:.0}",
            hands.len()
        ),
    ])
}

/// How long each rate is measured (the tests only need one pass).
const MIN_TIME: Duration = Duration::from_millis(if cfg!(test) { 0 } else { 500 });

/// Hands per second of `f` over all the hands, passes repeated for at least `MIN_TIME`.
fn rate(hands: &[Counts], f: impl Fn(&Counts) -> i8) -> f64 {
    let start = Instant::now();
    let mut done = 0usize;
    while done == 0 || start.elapsed() < MIN_TIME {
        for h in hands {
            black_box(f(black_box(h)));
        }
        done += hands.len();
    }
    done as f64 / start.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_the_hands_of_a_file_and_writes_both_forms() {
        let dir = std::env::temp_dir().join(format!("kibitzer-hands-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let hands = dir.join("hands.txt");
        let results = dir.join("results.txt");
        // A won hand (four steps from seven pairs: two pairs in 1z 1z 1z and 2z 2z), seven pairs
        // with a quad as two pairs (standard: 111m, three pairs as partials, a pair: two steps),
        // and six gapped partials without a pair (four blocks count: four steps; no pair: six).
        std::fs::write(
            &hands,
            "# comment\n123m456p789s11122z\n\n1111m2255m113355z\n1379m1379p1379s1z5z\n",
        )
        .unwrap();
        let lines = run(hands.to_str().unwrap(), Some(results.to_str().unwrap())).unwrap();
        assert!(
            lines.last().unwrap().starts_with("hands=3 standard_shanten_per_s="),
            "{lines:?}"
        );
        let written = std::fs::read_to_string(&results).unwrap();
        assert_eq!(written, "-1 4\n2 -1\n4 6\n");
        std::fs::write(&hands, "123m456p789s1112z\n").unwrap();
        let err = run(hands.to_str().unwrap(), None).unwrap_err();
        assert!(
            err.ends_with(":1: 13 tiles; a hand to score has 14, 11, 8, 5 or 2"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
