//! Counting and measuring from the position: `perft`, `solve`, `bench`.

use super::{Session, open_rulebook};
use crate::error::{CommandError, Unfinished};
use crate::reply::Reply;
use gridrules_core::playout::{bench, bench_on};
use std::sync::Arc;
use std::time::Duration;

/// The bar while `solve` values a table of every position.
/// Within 80 columns with Teeko's 151 million positions, so that Ctrl-C's
/// clearing of the line leaves no wrapped half of it behind.
const SOLVE_BAR: &str =
    "solve: {msg} [{bar:12}] {percent:>3}% of {human_len}, {elapsed} (Ctrl-C stops)";

/// Seconds `bench` runs when not told.
const BENCH_SECONDS: f64 = 3.0;

/// `bench` reports the median of this many rounds: one noisy slice of time
/// on a shared machine does not move it.
const BENCH_ROUNDS: u32 = 5;

impl Session {
    pub(super) fn perft(&self, depth: u32) -> Result<Reply, CommandError> {
        // At a terminal, a bar over the first moves: a deep count can take
        // minutes.
        let bar = self.progress_bar(
            0,
            "perft {msg} [{bar:30}] {pos}/{len} branches, {elapsed} (Ctrl-C stops it)",
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
    pub(super) fn solve(&self, within: std::time::Duration) -> Result<Reply, CommandError> {
        use gridrules_core::search::{self, Shown, Solved, Stage, Value, Won};
        // After the result there is nothing to value (it said "X wins in
        // 0").
        self.refuse_after_result(Unfinished::Solve)?;
        let rules = self.game.rulebook();
        // At a terminal, a bar while a table of every position is solved
        // (minutes for Teeko); the other methods answer in seconds.
        let mut bar = None;
        // Until then (and where no table is built) a line says it runs.
        let mut waiting =
            self.thinking_line(|| format!("solving, for up to {} s…", within.as_secs()));
        let solved = search::solve_watched(
            &self.game,
            within,
            &self.interrupt,
            &mut |stage, done, of| {
                // The bar takes the line's place.
                drop(waiting.take());
                let bar = bar.get_or_insert_with(|| self.progress_bar(of, SOLVE_BAR));
                if let Some(bar) = bar {
                    bar.set_message(match stage {
                        Stage::Moves => "moves".to_string(),
                        Stage::Back(plies) => format!("back {plies} plies"),
                        Stage::Placements => "placements".to_string(),
                    });
                    bar.set_length(of);
                    bar.set_position(done);
                }
            },
        );
        drop(waiting);
        if let Some(Some(bar)) = bar {
            bar.finish_and_clear();
        }
        let solved = solved?;
        // Every move named is one from here (`h9=O` where it places the
        // opponent's mark, as `hint` says it).
        let here = self.game.position();
        let line = match solved {
            Solved::Exact(solution) => {
                let value = match solution.value {
                    Value::Draw => "draw".to_string(),
                    Value::Win { side, plies } => format!("{side} wins in {plies}"),
                };
                let moves: Vec<String> =
                    solution.moves.iter().map(|&m| rules.move_text_in(here, m)).collect();
                let mover = self.game.position().turn();
                let lost = matches!(solution.value, Value::Win { side, .. } if side != mover);
                let line = if moves.is_empty() {
                    format!("solve: {value}")
                } else if lost {
                    // The loser's moves are the ones that put the loss off
                    // longest; where that is every move, it is said so.
                    let mut list = gridrules_core::MoveList::new();
                    let every = rules
                        .legal_moves(self.game.position(), self.game.moves(), &mut list)
                        .is_ok()
                        && list.len() == moves.len();
                    if every {
                        format!("solve: {value} — whatever {mover} plays")
                    } else {
                        format!(
                            "solve: {value} — {mover} holds out longest with {}",
                            moves.join(" ")
                        )
                    }
                } else {
                    format!("solve: {value} — {}", moves.join(" "))
                };
                if solution.endless && solution.value == Value::Draw {
                    return Ok(Reply::Lines(vec![
                        line,
                        "(neither side can force a win: positions come back and no repetition rule ends the play, so it may go on forever)".to_string(),
                    ]));
                }
                line
            }
            Solved::Won(Won {
                shown: Shown::AtOnce(wins),
                side,
                ..
            }) => {
                let named: Vec<String> = wins.iter().map(|&m| rules.move_text_in(here, m)).collect();
                let each = if named.len() > 1 { "each " } else { "" };
                format!(
                    "solve: {side} wins in 1 — {} ({each}a win at once; the other moves are not valued)",
                    named.join(" or ")
                )
            }
            Solved::Won(won) => {
                let within = if won.quickest { "" } else { "at most " };
                let value = format!("{} wins in {within}{}", won.side, won.plies);
                match won.first_move() {
                    Some(m) => format!(
                        "solve: {value} — {} (shown by threats; whether other moves win too is not known)",
                        rules.move_text_in(here, m)
                    ),
                    None => format!("solve: {value} (shown by threats: every move loses)"),
                }
            }
            // Where positions repeat, the whole graph is what is too large.
            Solved::TooLarge if rules.mechanics().repetition().is_some() => format!(
                "solve: too large to solve exactly: more than {} positions are reachable from here, the most it holds",
                search::MAX_POSITIONS
            ),
            // Said at once on a large board: the search's first line is
            // already deeper than it goes.
            Solved::TooLarge => format!(
                "solve: too large to solve exactly: its games run longer, or reach more positions, than the exact search holds (more than {} moves, or {} positions)",
                search::MAX_DEPTH,
                search::MAX_POSITIONS
            ),
            Solved::Unsupported => {
                "solve: no exact method here (a repetition rule with per-move hooks or the pie rule)"
                    .to_string()
            }
            Solved::OutOfTime if self.interrupt.is_raised() => {
                return Err(CommandError::SolveStopped);
            }
            Solved::OutOfTime => format!(
                "solve: too large to solve within {} s (`solve <seconds>` gives it longer)",
                within.as_secs_f64()
            ),
        };
        Ok(Reply::Lines(vec![line]))
    }

    pub(super) fn bench(
        &self,
        name: Option<&str>,
        seconds: Option<f64>,
    ) -> Result<Reply, CommandError> {
        let rulebook = match name {
            None => self.rulebook().clone(),
            Some(n) => Arc::new(open_rulebook(n)?),
        };
        // The single thread's rounds and, with more than one core, a round
        // on all of them share the time.
        let cores = gridrules_core::cores();
        let parts = BENCH_ROUNDS + u32::from(cores > 1);
        let round = Duration::from_secs_f64(seconds.unwrap_or(BENCH_SECONDS) / f64::from(parts));
        // Ctrl-C ends the round it interrupts, which still counts: it
        // measured the time it ran.
        let mut rounds = Vec::new();
        // At a terminal, the rounds as they pass: seconds of silence read
        // as a hang.
        let bar = self.progress_bar(
            u64::from(parts),
            "bench [{bar:20}] round {pos}/{len}, {elapsed} (Ctrl-C stops it)",
        );
        // A round ends after the game under way: a slow rulebook's game may
        // outlast the time, and the rounds left then do not run.
        let total = round * parts;
        let began = std::time::Instant::now();
        let mut over_time = false;
        for i in 0..BENCH_ROUNDS {
            if began.elapsed() >= total {
                over_time = true;
                break;
            }
            rounds.push(bench(
                &rulebook,
                round,
                0x5eed + u64::from(i),
                &self.interrupt,
            )?);
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            if self.interrupt.is_raised() {
                break;
            }
        }
        // A round stopped within its first game (a slow rulebook's) measured
        // nothing.
        rounds.retain(|r| r.playouts > 0);
        if rounds.is_empty() {
            return Err(CommandError::BenchStopped);
        }
        rounds.sort_by(|a, b| a.playouts_per_second().total_cmp(&b.playouts_per_second()));
        // Then one round on every core at once, beside the single thread's.
        let stopped = self.interrupt.is_raised();
        // The single thread's rounds take their share of the time at least:
        // only one that ran over leaves none for the round on every core.
        over_time |= cores > 1 && !stopped && began.elapsed() >= total;
        let all_cores = if cores > 1 && !stopped && !over_time {
            let all = bench_on(&rulebook, round, 0x5eed, &self.interrupt, cores)?;
            (!self.interrupt.is_raised()).then_some((cores, all))
        } else {
            None
        };
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        Ok(Reply::Bench {
            rulebook: rulebook.name().to_string(),
            per_move_hooks: rulebook.has_per_move_hooks(),
            stopped: stopped || (cores > 1 && all_cores.is_none() && !over_time),
            over_time,
            rounds,
            all_cores,
        })
    }
}
