//! `kibitzer test`: runs case files (golden tests of rule sets) and reports, as text, JSON or JUnit
//! XML; rewrites failing expectations with `--update`; reports rule coverage.

use super::{fail, say};
use kibitzer::cases::{self, CaseError, CaseFile, Failure, Outcome, Report, RuleSetCoverage};
use serde_json::{json, Value as Json};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq)]
pub enum Format {
    Text,
    Json,
    Junit,
}

#[derive(clap::Args, Debug, Clone)]
pub struct TestArgs {
    /// Case files, folders searched for `*.cases.toml` with their subfolders, or a shipped rule
    /// set's name for its suite (`stud`). Default: the shipped suites (with `--rules`, the suite
    /// of the rule set the file declares).
    paths: Vec<PathBuf>,
    /// Run only the cases whose name contains PATTERN (ignoring case; a row of a table case is
    /// named `case [row]`). Given more than once, a case matching any runs.
    #[arg(short = 'k', value_name = "PATTERN")]
    pattern: Vec<String>,
    /// Run the cases against this rule file instead of the rules each case file names.
    #[arg(long, value_name = "PATH")]
    rules: Option<PathBuf>,
    /// Rewrite each failing case's `expect` (and golden files) to what the rules now answer,
    /// only in the relations it names, and list the cases changed.
    #[arg(long)]
    update: bool,
    /// Report how many cases fired each rule, the rules none fired, and the tests and filters that
    /// never stopped their rule in any case.
    #[arg(long)]
    coverage: bool,
    /// Fail when a rule set has fewer than N% of its rules fired by some case.
    #[arg(long = "min-coverage", value_name = "N", value_parser = parse_percent)]
    min_coverage: Option<f64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Let the paths a case file names (its rule file, its golden files, their includes) come
    /// from `DIR`'s folder tree instead of the case file's folder's.
    #[arg(long = "include-root", value_name = "DIR")]
    include_root: Option<PathBuf>,
    /// Run again each time a case file or a rule file it reads changes: the case files affected.
    #[arg(long)]
    watch: bool,
    /// No progress bar on standard error.
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    every: super::watch::Every,
}

pub fn run(a: TestArgs) -> i32 {
    if a.watch {
        return watch(a);
    }
    // A rule file where a case file belongs: say what runs it.
    if let Some(rules) = a
        .paths
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "rules") && p.is_file())
    {
        return fail(format_args!(
            "{} is a rule file: `kibitzer test` runs case files (*.cases.toml); to run the shipped suite of the \
             rule set it declares against it: kibitzer test --rules {}",
            rules.display(),
            rules.display()
        ));
    }
    let mut files = match cases::load_in(&a.paths, a.include_root.as_deref()) {
        Ok(f) => f,
        Err(e @ CaseError::Malformed { .. }) => {
            say(e);
            return super::EXIT_BAD_INPUT;
        }
        Err(e) => return fail(e),
    };
    // An edited rule file with no case file named: the shipped suite of the rule set it declares.
    if let (true, Some(rules)) = (a.paths.is_empty(), a.rules.as_deref()) {
        let declared = match kibitzer::library::load_file(rules) {
            Ok(p) => p.name().to_string(),
            Err(e) => return fail(e),
        };
        files.retain(|f| f.rules.replace('-', "_") == declared);
        if files.is_empty() {
            return fail(format_args!(
                "{} declares rule set `{declared}`, which has no shipped suite (suites: {}): name its case files",
                rules.display(),
                cases::shipped_suite_names().join(", ")
            ));
        }
    }
    if !a.pattern.is_empty() {
        let wanted: Vec<String> = a.pattern.iter().map(|p| p.to_lowercase()).collect();
        for f in &mut files {
            f.cases.retain(|c| {
                let name = c.name.to_lowercase();
                wanted.iter().any(|w| name.contains(w.as_str()))
            });
        }
        files.retain(|f| !f.cases.is_empty());
        if files.is_empty() {
            return fail(format_args!(
                "no case's name contains {}",
                a.pattern
                    .iter()
                    .map(|p| format!("{p:?}"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
    }
    let want_coverage = a.coverage || a.min_coverage.is_some();
    let total = files.iter().map(|f| f.cases.len() as u64).sum();
    let bar = super::progress::bar(total, "cases", a.quiet);
    let ran = cases::run_all_watched(&files, a.rules.as_deref(), want_coverage, &|| bar.inc(1));
    bar.finish_and_clear();
    let report = match ran {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let coverage = if want_coverage {
        cases::coverage(&report)
    } else {
        Vec::new()
    };
    match a.format {
        Format::Text => print_text(&files, &report, a.coverage.then_some(coverage.as_slice())),
        Format::Json => print_json(&files, &report, a.coverage.then_some(coverage.as_slice())),
        Format::Junit => print_junit(&files, &report),
    }
    let mut failing = report.outcomes.iter().filter(|o| !o.passed()).count();
    if a.update && failing > 0 {
        for (fi, f) in files.iter().enumerate() {
            let mine: Vec<&Outcome> = report.outcomes.iter().filter(|o| o.file == fi).collect();
            match cases::update(f, &mine) {
                Ok(changed) if changed.is_empty() => {}
                Ok(changed) => {
                    for c in &changed {
                        let case = &f.cases[*c];
                        say(format_args!("updated {} ({}:{})", case.name, f.path, case.line));
                    }
                    say(format_args!("updated {} case(s) in {}", changed.len(), f.path));
                }
                Err(e) => return fail(e),
            }
        }
        // A why-not's wording and what must not be concluded are the author's to choose: those
        // failures stay failures.
        failing = report
            .outcomes
            .iter()
            .filter(|o| {
                o.failures
                    .iter()
                    .any(|f| matches!(f, Failure::WhyNot { .. } | Failure::Absent { .. }))
            })
            .count();
    }
    let mut code = i32::from(failing > 0);
    if let Some(min) = a.min_coverage {
        for c in &coverage {
            if c.percent() < min {
                say(format_args!(
                    "coverage of {} is {:.1}%, under the required {min}%",
                    c.label,
                    c.percent()
                ));
                code = 1;
            }
        }
    }
    code
}

/// `--watch`: the cases run, then the case files a change affects, again and again.
fn watch(a: TestArgs) -> i32 {
    let once = TestArgs {
        watch: false,
        ..a.clone()
    };
    let root = a.include_root.clone();
    let paths = a.paths.clone();
    // Each case file with the files it reads: itself, its rule file and what that includes.
    let groups = move || -> Vec<(PathBuf, Vec<PathBuf>)> {
        let Ok(files) = cases::load_in(&paths, root.as_deref()) else {
            return paths.iter().map(|p| (p.clone(), vec![p.clone()])).collect();
        };
        files
            .iter()
            .filter(|f| f.dir.is_some())
            .map(|f| {
                let mut read = vec![PathBuf::from(&f.path)];
                if let Some(r) = &f.rules_path {
                    read.extend(super::watch::rule_files(r));
                }
                (PathBuf::from(&f.path), read)
            })
            .collect()
    };
    if paths_are_shipped(&a) {
        return fail("--watch needs case files on disk: give their paths");
    }
    say("watching the case files and the rule files they read (Ctrl-C to stop)");
    let all = groups.clone();
    super::watch::repeat(
        a.every,
        move || all().into_iter().flat_map(|(_, read)| read).collect(),
        |changed| {
            let mut args = once.clone();
            if !changed.is_empty() {
                args.paths = groups()
                    .into_iter()
                    .filter(|(_, read)| read.iter().any(|r| changed.iter().any(|c| c == r)))
                    .map(|(case_file, _)| case_file)
                    .collect();
                // A case file that no longer loads is run as it is, to say why.
                if args.paths.is_empty() {
                    args.paths = once.paths.clone();
                }
            }
            run(args)
        },
    )
}

fn paths_are_shipped(a: &TestArgs) -> bool {
    a.paths.is_empty()
}

/// `--min-coverage N`: a percentage, 0 to 100.
fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(n) if (0.0..=100.0).contains(&n) => Ok(n),
        _ => Err(format!("`{s}`: expected a percentage from 0 to 100")),
    }
}

/// Where a case is written: `file:line`.
fn place(f: &CaseFile, o: &Outcome) -> String {
    format!("{}:{}", f.path, f.cases[o.case].line)
}

/// What failed in a case, as indented lines with diffs.
fn failure_text(o: &Outcome) -> String {
    let mut s = String::new();
    for f in &o.failures {
        match f {
            Failure::Conclusions { expected, got, exact } => {
                let how = if *exact { ", exact" } else { "" };
                let _ = writeln!(s, "  conclusions (- expected, + got{how}):");
                for l in cases::conclusion_diff(expected, got).lines() {
                    let _ = writeln!(s, "    {l}");
                }
            }
            Failure::Error {
                expected: Some(want),
                got: Some(got),
            } => {
                let _ = writeln!(s, "  error: expected one containing {want:?}, got: {got}");
            }
            Failure::Error {
                expected: Some(want),
                got: None,
            } => {
                let _ = writeln!(s, "  error: expected one containing {want:?}, but the run succeeded");
            }
            Failure::Error { got, .. } => {
                let _ = writeln!(s, "  error: {}", got.as_deref().unwrap_or("?"));
            }
            Failure::WhyNot { rule, text, got } => {
                let _ = writeln!(
                    s,
                    "  why not {rule}: expected it not to fire, for a reason mentioning {text:?}; got:"
                );
                for l in got.lines() {
                    let _ = writeln!(s, "    {l}");
                }
            }
            Failure::Absent { present } => {
                let _ = writeln!(s, "  concluded, but the case says it must not be:");
                for l in present {
                    let _ = writeln!(s, "    {l}");
                }
            }
            Failure::Golden { file, expected, got } => match expected {
                None => {
                    let _ = writeln!(s, "  explanation: golden file {file} is missing (--update writes it)");
                }
                Some(e) => {
                    let _ = writeln!(s, "  explanation differs from {file}:");
                    for l in cases::text_diff(e, got).lines() {
                        let _ = writeln!(s, "    {l}");
                    }
                }
            },
            other => {
                let _ = writeln!(s, "  {other:?}");
            }
        }
    }
    s
}

fn print_text(files: &[CaseFile], report: &Report, coverage: Option<&[RuleSetCoverage]>) {
    let mut failed = 0;
    for o in &report.outcomes {
        let f = &files[o.file];
        let name = &f.cases[o.case].name;
        if o.passed() {
            println!("ok   {name} ({})", place(f, o));
        } else {
            failed += 1;
            println!("FAIL {name} ({})", place(f, o));
            print!("{}", failure_text(o));
        }
    }
    println!(
        "{} passed, {failed} failed ({} case file(s))",
        report.outcomes.len() - failed,
        files.len()
    );
    for c in coverage.unwrap_or_default() {
        let fired = c.rules.iter().filter(|r| r.cases_fired > 0).count();
        println!(
            "coverage of {} ({} case(s)): {fired}/{} rules fired ({:.1}%)",
            c.label,
            c.cases,
            c.rules.len(),
            c.percent()
        );
        for r in &c.rules {
            println!("  {:<14} fired in {} case(s)", r.name, r.cases_fired);
        }
        let never: Vec<&str> = c
            .rules
            .iter()
            .filter(|r| r.cases_fired == 0)
            .map(|r| r.name.as_str())
            .collect();
        if !never.is_empty() {
            println!("  never fired: {}", never.join(", "));
        }
        if c.rules.iter().all(|r| r.never_decided.is_empty()) {
            println!("  every condition that can stop its rule did so in some case");
            continue;
        }
        println!(
            "  conditions that can stop their rule but never did in any case (no case shows they matter: perhaps dead, or a case is missing):"
        );
        for r in &c.rules {
            for (i, text) in &r.never_decided {
                println!("    {} condition {i}: {text}", r.name);
            }
        }
    }
}

fn coverage_json(coverage: &[RuleSetCoverage]) -> Json {
    json!(coverage
        .iter()
        .map(|c| json!({
            "rules": c.label,
            "cases": c.cases,
            "percent": c.percent(),
            "per_rule": c.rules.iter().map(|r| json!({
                "rule": r.name,
                "cases_fired": r.cases_fired,
                "never_decided": r.never_decided.iter().map(|(i, t)| json!({"condition": i, "text": t})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        }))
        .collect::<Vec<_>>())
}

fn print_json(files: &[CaseFile], report: &Report, coverage: Option<&[RuleSetCoverage]>) {
    let items: Vec<Json> = report
        .outcomes
        .iter()
        .map(|o| {
            let f = &files[o.file];
            json!({
                "file": f.path,
                "line": f.cases[o.case].line,
                "name": f.cases[o.case].name,
                "passed": o.passed(),
                "got": o.got,
                "error": o.error,
                "failure": if o.passed() { Json::Null } else { json!(failure_text(o)) },
            })
        })
        .collect();
    let failed = report.outcomes.iter().filter(|o| !o.passed()).count();
    let mut out = json!({"cases": items, "passed": report.outcomes.len() - failed, "failed": failed});
    if let Some(c) = coverage {
        out["coverage"] = coverage_json(c);
    }
    println!("{out}");
}

fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab and newline are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn print_junit(files: &[CaseFile], report: &Report) {
    let total_failed = report.outcomes.iter().filter(|o| !o.passed()).count();
    println!(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    println!(
        r#"<testsuites name="kibitzer" tests="{}" failures="{total_failed}">"#,
        report.outcomes.len()
    );
    for (fi, f) in files.iter().enumerate() {
        let mine: Vec<&Outcome> = report.outcomes.iter().filter(|o| o.file == fi).collect();
        let failed = mine.iter().filter(|o| !o.passed()).count();
        println!(
            r#"  <testsuite name="{}" tests="{}" failures="{failed}">"#,
            xml(&f.path),
            mine.len()
        );
        for o in mine {
            let c = &f.cases[o.case];
            let head = format!(
                r#"    <testcase name="{}" classname="{}" file="{}" line="{}""#,
                xml(&c.name),
                xml(&f.rules),
                xml(&f.path),
                c.line
            );
            if o.passed() {
                println!("{head}/>");
            } else {
                println!("{head}>");
                println!(
                    r#"      <failure message="{} failed">{}</failure>"#,
                    xml(&c.name),
                    xml(&failure_text(o))
                );
                println!("    </testcase>");
            }
        }
        println!("  </testsuite>");
    }
    println!("</testsuites>");
}
