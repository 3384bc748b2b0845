//! How long hard takes a move at its rulebook's budget, over games it
//! plays against itself — the figures the README's "how long the computer
//! thinks" table is made of:
//!
//! ```sh
//! cargo run --release --example think -- gomoku ultimate 2
//! ```
//!
//! Each named built-in (all of them when none is named), then the number
//! of games (the last argument, if a number; 2 unless told). Prints the
//! median, the slowest and how many moves the search's cap cut.

use gridrules_core::Rulebook;
use gridrules_core::playout::Rng;
use gridrules_core::search::{self, At, Budget, Level, Report, Request};
use std::time::{Duration, Instant};

fn main() {
    let mut names: Vec<String> = std::env::args().skip(1).collect();
    let games = match names.last().and_then(|n| n.parse::<u32>().ok()) {
        Some(n) => {
            names.pop();
            n
        }
        None => 2,
    };
    if names.is_empty() {
        names = Rulebook::builtin_names().map(str::to_string).collect();
    }
    println!(
        "{:<22} {:>9} {:>6} {:>8} {:>8} {:>4}",
        "rulebook", "playouts", "moves", "median", "slowest", "cut"
    );
    for name in names {
        let rules = Rulebook::builtin(&name).unwrap_or_else(|e| panic!("{e}"));
        let budget = Budget::Playouts(rules.table().ai_playouts);
        let mut took: Vec<Duration> = Vec::new();
        let mut cut = 0;
        for game in 0..games {
            let mut rng = Rng::new(u64::from(game) + 1);
            let mut pos = rules.initial();
            let mut moves = Vec::new();
            let mut keys = vec![pos.key()];
            let mut memory = search::Memory::default();
            while !pos.is_over() && moves.len() < 200 {
                let mut report = Report::default();
                let request = Request::new(Level::Hard, budget)
                    .memory(&mut memory)
                    .report(&mut report);
                let started = Instant::now();
                let at = At::new(&rules, &pos, &moves).after(&keys);
                let Some(mv) =
                    search::choose(at, request, &mut rng).expect("built-ins do not fail")
                else {
                    break;
                };
                took.push(started.elapsed());
                cut += usize::from(report.cut);
                pos = rules
                    .play_unchecked(&pos, &moves, mv)
                    .expect("a legal move");
                moves.push(mv);
                rules.settle_repetition(&mut pos, &keys);
                keys.push(pos.key());
            }
        }
        took.sort();
        let median = took.get(took.len() / 2).copied().unwrap_or_default();
        let slowest = took.last().copied().unwrap_or_default();
        let Budget::Playouts(n) = budget else {
            unreachable!()
        };
        println!(
            "{name:<22} {n:>9} {:>6} {:>7.2}s {:>7.2}s {cut:>4}",
            took.len(),
            median.as_secs_f64(),
            slowest.as_secs_f64()
        );
    }
}
