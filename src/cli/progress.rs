//! Progress on standard error for the long commands (`play`, `bench`, `diff`, `test`, `batch`):
//! a bar when the amount of work is known, a counter when it is not. Shown only when standard
//! error is a terminal and `--quiet` was not given, so pipes, files and tests see none of it.
//! The figures and answers stay on standard output; print them through [`ProgressBar::suspend`]
//! (or [`println_above`]) while a bar is shown.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::IsTerminal;

/// Whether progress would be drawn: standard error is a terminal and `--quiet` was not given.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A bar over `len` units of work named `unit` (`games`, `positions`, `cases`), with the time
/// elapsed and left; hidden unless [`wanted`].
pub fn bar(len: u64, unit: &str, quiet: bool) -> ProgressBar {
    if !wanted(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), target());
    let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, {{eta}} left");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// A counter of work whose end is unknown (`lines answered`, or a benchmark's phase as its
/// message), ticking with the time elapsed; hidden unless [`wanted`].
pub fn counter(unit: &str, quiet: bool) -> ProgressBar {
    if !wanted(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, target());
    let template = format!("{{spinner}} {{pos}} {unit}, {{per_sec}}, {{elapsed}} elapsed {{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_spinner()));
    start_ticking(&bar);
    bar
}

/// A spinner for work measured by time alone (a benchmark), its message the last line printed;
/// hidden unless [`wanted`].
pub fn spinner(quiet: bool) -> ProgressBar {
    if !wanted(quiet) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, target());
    let style = ProgressStyle::with_template("{spinner} {elapsed} elapsed {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    start_ticking(&bar);
    bar
}

/// Draws `bar` now, then five times a second: once a bar ticks by itself, advancing it no longer
/// draws it, so a run shorter than one tick would otherwise show nothing.
fn start_ticking(bar: &ProgressBar) {
    bar.tick();
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
}

/// Prints `line` on standard output with `bar` out of the way.
pub fn println_above(bar: &ProgressBar, line: &str) {
    bar.suspend(|| println!("{line}"));
}

fn target() -> ProgressDrawTarget {
    ProgressDrawTarget::term_like_with_hz(Box::new(ShortOfTheEdge(console::Term::stderr())), 20)
}

/// Standard error as the bar sees it, two columns narrower than it is: the bar's line is padded
/// to the width it is given, and the `^C` a terminal echoes would otherwise wrap past the edge
/// onto a new line, leaving the bar behind when it is cleared.
#[derive(Debug)]
struct ShortOfTheEdge(console::Term);

impl TermLike for ShortOfTheEdge {
    fn width(&self) -> u16 {
        TermLike::width(&self.0).saturating_sub(2).max(1)
    }
    fn height(&self) -> u16 {
        TermLike::height(&self.0)
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_up(&self.0, n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_down(&self.0, n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_right(&self.0, n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_left(&self.0, n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        TermLike::write_line(&self.0, s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        TermLike::write_str(&self.0, s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        TermLike::clear_line(&self.0)
    }
    fn flush(&self) -> std::io::Result<()> {
        TermLike::flush(&self.0)
    }
}
