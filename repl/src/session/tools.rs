//! Commands about rulebooks rather than the game: their rules in words,
//! perft, documented examples, benchmarks; and `help`.

use super::{BENCH_ROUNDS, BENCH_SECONDS, Session, open_rulebook};
use crate::command::ArenaMatch;
use crate::error::CommandError;
use crate::reply::Reply;
use gridrules_core::playout::bench;
use gridrules_core::rulebook::{FullRegion, LineResult, Marks, NoMoves};
use gridrules_core::{Rulebook, Side};
use std::sync::Arc;
use std::time::Duration;

/// A line result in words, for `rules`.
fn line_result_text(rule: LineResult) -> String {
    match rule {
        LineResult::OwnerWins => "wins for the side whose marks form it".to_string(),
        LineResult::OwnerLoses => "loses for the side whose marks form it".to_string(),
        LineResult::MoverWins => "wins for the side that completes it".to_string(),
        LineResult::MoverLoses => "loses for the side that completes it".to_string(),
        LineResult::Wins(side) => format!("wins for {side}, whoever completes it"),
    }
}

/// What having no legal move means, in words, for `rules`.
fn no_moves_text(rule: NoMoves) -> String {
    match rule {
        NoMoves::Draw => "a draw".to_string(),
        NoMoves::Loss => "that side loses".to_string(),
        NoMoves::Win => "that side wins".to_string(),
        NoMoves::Wins(side) => format!("{side} wins"),
    }
}

impl Session {
    pub(crate) fn rules(&self) -> Reply {
        let r = self.rulebook();
        let mut lines = vec![format!("{} — {}", r.name(), r.title())];
        // The rulebook's words, indented as a quotation: a line of them
        // never starts a line of output (see `edge`).
        if let Some(d) = r.description() {
            lines.push(String::new());
            lines.extend(
                crate::layout::wrap(d, 78 - crate::edge::CONTINUATION.len())
                    .into_iter()
                    .map(|l| format!("{}{l}", crate::edge::CONTINUATION)),
            );
        }
        lines.push(String::new());
        let g = r.grid();
        lines.push(format!(
            "board: {}×{}; rulebook {}; script {}",
            g.width(),
            g.height(),
            r.path(),
            r.script().path()
        ));
        if let (Some(x), Some(o)) = (r.role(Side::X), r.role(Side::O)) {
            lines.push(format!("roles: X is {x}, O is {o}"));
        }
        // The table in force: this game's clock and pie rule, as chosen.
        lines.push(format!(
            "at this table: {}; pie rule {}",
            super::clock_line(self.clock_limit()),
            if r.table().pie { "on" } else { "off" }
        ));
        let t = r.tables();
        lines.push(format!(
            "a completed line: {}; no legal move: {}{}",
            line_result_text(t.line_result()),
            no_moves_text(t.no_moves()),
            match t.marks() {
                Marks::Own => String::new(),
                Marks::Either => "; a move places X or O (b2=O)".to_string(),
                Marks::Shared => "; both sides place X".to_string(),
            }
        ));
        let hooks: Vec<String> = r
            .script()
            .hooks()
            .iter()
            .map(|h| format!("{} ({})", h.spec().signature(), h.spec().kind.as_str()))
            .collect();
        if !t.regions().is_empty() {
            lines.push(format!(
                "a region filled without a line counts for {}",
                match t.full_region() {
                    FullRegion::Nobody => "nobody",
                    FullRegion::Both => "both sides",
                    FullRegion::Mover => "the side that filled it",
                }
            ));
        }
        lines.extend(crate::layout::wrap(
            &format!("hooks: {}", hooks.join(", ")),
            78,
        ));
        if !r.params().is_empty() {
            let params: Vec<String> = r
                .params()
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            lines.push(format!("params: {}", params.join(", ")));
        }
        let t = r.table();
        let clock = match (t.clock, t.clock_options.is_empty()) {
            (Some(s), _) => format!("{s} s per move"),
            (None, true) => "none".to_string(),
            (None, false) => {
                let o: Vec<String> = t.clock_options.iter().map(u32::to_string).collect();
                format!("none by default; {} s can be chosen", o.join(" or "))
            }
        };
        let swap = if t.alternate {
            "the marks change seats"
        } else {
            "the seats keep their marks"
        };
        lines.push(format!(
            "the rulebook's clock: {clock}; in a rematch {swap}"
        ));
        Reply::Lines(lines)
    }

    /// A progress bar of `len` steps drawn by `template`, at a terminal only
    /// (indicatif draws on stderr).
    fn progress_bar(&self, len: u64, template: &str) -> Option<indicatif::ProgressBar> {
        (self.setting == super::Setting::Interactive).then(|| {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template(template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            bar
        })
    }

    pub(crate) fn perft(&self, depth: u32) -> Result<Reply, CommandError> {
        // At a terminal, a bar over the first moves: a deep count can take
        // minutes.
        let bar = self.progress_bar(
            0,
            "perft {msg} [{bar:30}] {pos}/{len} first moves, {elapsed} (Ctrl-C stops it)",
        );
        if let Some(bar) = &bar {
            bar.set_message(depth.to_string());
        }
        let counted = gridrules_core::perft::perft_watched(
            &self.game,
            depth,
            &self.interrupt,
            &mut |done, of| {
                if let Some(bar) = &bar {
                    bar.set_length(of as u64);
                    bar.set_position(done as u64);
                }
            },
        );
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        match counted? {
            Some(n) => Ok(Reply::Lines(vec![format!("perft {depth}: {n}")])),
            None => Err(CommandError::PerftStopped(depth)),
        }
    }

    /// The exact value of the position, within `within`.
    pub(crate) fn solve(&self, within: std::time::Duration) -> Result<Reply, CommandError> {
        use gridrules_core::search::{self, Solved, Value};
        let rules = self.game.rulebook();
        let solved = search::solve_in(&self.game, within, &self.interrupt)?;
        let line = match solved {
            Solved::Exact(solution) => {
                let value = match solution.value {
                    Value::Draw => "draw".to_string(),
                    Value::Win { side, plies } => format!("{side} wins in {plies}"),
                };
                let moves: Vec<String> =
                    solution.moves.iter().map(|&m| rules.move_text(m)).collect();
                if moves.is_empty() {
                    format!("solve: {value}")
                } else {
                    format!("solve: {value} — {}", moves.join(" "))
                }
            }
            Solved::TooLarge => "solve: too large to solve exactly".to_string(),
            Solved::Unsupported => {
                "solve: no exact method here (a repetition rule with per-move hooks or the pie rule)"
                    .to_string()
            }
            Solved::OutOfTime if self.interrupt.is_raised() => {
                return Err(CommandError::SolveStopped);
            }
            Solved::OutOfTime => format!(
                "solve: too large to solve within {} s",
                within.as_secs_f64()
            ),
        };
        Ok(Reply::Lines(vec![line]))
    }

    /// A match between two players on a rulebook (a name or a file).
    pub(crate) fn arena(&self, asked: &ArenaMatch) -> Result<Reply, CommandError> {
        use gridrules_core::arena::Match;
        use gridrules_core::search::Budget;
        let ArenaMatch {
            rulebook,
            players: seats,
            games,
            seed,
            budget,
        } = asked.clone();
        let rules = open_rulebook(&rulebook)?;
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let bar = self.progress_bar(
            u64::from(games),
            "arena [{bar:30}] {pos}/{len} games, {elapsed} (Ctrl-C stops it)",
        );
        if let Some(bar) = &bar {
            // Games take seconds: keep the clock moving between them.
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
        }
        let budget = budget.unwrap_or(Budget::Playouts(rules.table().ai_playouts));
        let m = Match {
            games,
            seed,
            budgets: seats.each_ref().map(|(_, own)| own.unwrap_or(budget)),
            threads,
        };
        let players = seats.map(|(player, _)| player);
        let tally = m.run(&rules, &players, &self.interrupt, &|done| {
            if let Some(bar) = &bar {
                bar.set_position(u64::from(done));
            }
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let t = tally.map_err(|e| match e {
            gridrules_core::arena::MatchError::Script(e) => CommandError::Script(e),
            program => CommandError::Arena(program),
        })?;
        let [p, q] = players;
        let of = |b: Budget| match b {
            Budget::Playouts(n) => format!("{n} playouts a tree"),
            Budget::Time(d) => format!("{} s a move", d.as_secs_f64()),
        };
        // One budget for both, or each player's own after its name.
        let [bp, bq] = m.budgets;
        let (vs, budgets) = if bp == bq {
            (format!("{p} vs {q}"), format!(", {}", of(bp)))
        } else {
            (
                format!("{p} ({}) vs {q} ({})", of(bp), of(bq)),
                String::new(),
            )
        };
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let elo = t.elo();
        let signed = |x: f64| {
            if x.is_infinite() {
                if x > 0.0 {
                    "+inf".to_string()
                } else {
                    "-inf".to_string()
                }
            } else {
                format!("{:+}", x.round() as i64)
            }
        };
        let mut lines = vec![
            format!(
                "arena {}: {vs}, {}{}, sides alternating, seed {seed}{budgets}",
                rules.name(),
                plural(t.games(), "game", "games"),
                if t.stopped {
                    " (Ctrl-C stopped the rest)"
                } else {
                    ""
                },
            ),
            format!(
                "{p}: {}, {}, {} (score {:.1} %)",
                plural(t.wins, "win", "wins"),
                plural(t.draws, "draw", "draws"),
                plural(t.losses, "loss", "losses"),
                100.0 * t.score()
            ),
            format!(
                "first mover (X): {:.1} % of the points",
                100.0 * t.first_mover_share()
            ),
        ];
        if t.games() == 0 {
            lines.truncate(1);
            lines.push("no game finished".to_string());
        } else {
            lines.push(format!(
                "Elo difference: {} (95 %: {} to {})",
                signed(elo.difference),
                signed(elo.low),
                signed(elo.high)
            ));
        }
        Ok(Reply::Lines(lines))
    }

    /// Runs the documented examples of one rulebook, or of every built-in.
    pub(crate) fn check(&self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebooks = match name {
            None => vec![self.rulebook().clone()],
            Some("all") => Rulebook::builtin_names()
                .map(|n| Rulebook::builtin(n).map(Arc::new))
                .collect::<Result<Vec<_>, _>>()?,
            Some(n) => vec![Arc::new(open_rulebook(n)?)],
        };
        let mut lines = Vec::new();
        let (mut total, mut failed) = (0, 0);
        for r in &rulebooks {
            for w in r.warnings() {
                lines.push(crate::diagnostic::warning_entry(w));
            }
            let results = gridrules_core::check::run(r);
            total += results.len();
            failed += checked_lines(r, &results, &mut lines);
        }
        if rulebooks.len() > 1 {
            lines.push(format!(
                "check: {total} examples, {} passed, {failed} failed",
                total - failed
            ));
        }
        if failed > 0 {
            return Err(CommandError::Check(lines, failed));
        }
        Ok(Reply::Lines(lines))
    }

    pub(crate) fn bench(
        &self,
        name: Option<&str>,
        seconds: Option<f64>,
    ) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => Arc::new(open_rulebook(n)?),
        };
        let round =
            Duration::from_secs_f64(seconds.unwrap_or(BENCH_SECONDS) / f64::from(BENCH_ROUNDS));
        // Ctrl-C ends the round it interrupts, which still counts: it
        // measured the time it ran.
        let mut rounds = Vec::new();
        for i in 0..BENCH_ROUNDS {
            rounds.push(bench(
                &rulebook,
                round,
                0x5eed + u64::from(i),
                &self.interrupt,
            )?);
            if self.interrupt.is_raised() {
                break;
            }
        }
        rounds.sort_by(|a, b| a.playouts_per_second().total_cmp(&b.playouts_per_second()));
        Ok(Reply::Bench {
            rulebook: rulebook.name().to_string(),
            per_move_hooks: rulebook.has_per_move_hooks(),
            stopped: rounds.len() < BENCH_ROUNDS as usize,
            rounds,
        })
    }
}

/// A line per example of `r` that ran, and the summary line; returns how
/// many failed.
pub(super) fn checked_lines(
    r: &Rulebook,
    results: &[gridrules_core::check::Checked],
    lines: &mut Vec<String>,
) -> usize {
    let bad = results.iter().filter(|c| c.failure.is_some()).count();
    for c in results {
        let e = &c.example;
        match &c.failure {
            None => lines.push(format!("pass {:<4} {}: {}", e.rule, r.name(), e.text)),
            Some(why) => lines.push(format!(
                "FAIL {:<4} {}: {} — {why} ({})",
                e.rule,
                r.name(),
                e.text,
                e.location
            )),
        }
    }
    let n = results.len();
    lines.push(format!(
        "check {}: {n} example{}, {} passed, {bad} failed",
        r.name(),
        if n == 1 { "" } else { "s" },
        n - bad
    ));
    bad
}

pub(crate) fn variants() -> Reply {
    let width = Rulebook::builtin_names().map(str::len).max().unwrap_or(0);
    let lines = Rulebook::builtin_names()
        .map(|n| match Rulebook::builtin(n) {
            Ok(r) => format!("{n:<width$} {}", r.title()),
            Err(e) => format!("{n:<width$} (does not load: {e})"),
        })
        .collect();
    Reply::Lines(lines)
}
