//! How `perft` and `arena` scale with cores: each named count or match on
//! one thread and on all of them, side by side in alternating rounds (a
//! shared machine's load falls on both alike):
//!
//! ```sh
//! cargo run --release -p gridrules-core --example cores -- classic:8 connect-four:8 arena:connect-four:8
//! ```
//!
//! Each argument is a built-in and a depth (`perft`), or `arena:`, a
//! built-in and a number of games (medium against easy, the rulebook's
//! budget); prints the count or the first player's wins, the best time of
//! each and their ratio.

use gridrules_core::Game;
use gridrules_core::Rulebook;
use gridrules_core::arena::{Match, Player};
use gridrules_core::interrupt::Interrupt;
use gridrules_core::perft::perft_on;
use gridrules_core::search::{Budget, Level};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rounds of each, alternating.
const ROUNDS: usize = 3;

fn main() {
    let all = gridrules_core::cores();
    let never = Interrupt::new();
    println!(
        "{:<24} {:>14} {:>10} {:>10} {:>6}",
        "perft",
        "count",
        "1 thread",
        format!("{all} threads"),
        "ratio"
    );
    for arg in std::env::args().skip(1) {
        if let Some(m) = arg.strip_prefix("arena:") {
            arena(m, all, &never);
            continue;
        }
        let (name, depth) = arg.split_once(':').unwrap_or((&arg, "4"));
        let depth: u32 = depth.parse().expect("a depth after the colon");
        let rules = Rulebook::builtin(name).unwrap_or_else(|e| panic!("{e}"));
        let game = Game::new(Arc::new(rules));
        let mut best = [Duration::MAX; 2];
        let mut count = None;
        for _ in 0..ROUNDS {
            for (i, threads) in [1, all].into_iter().enumerate() {
                let began = Instant::now();
                let n = perft_on(&game, depth, threads, &never, &mut |_, _| {})
                    .expect("built-ins have no failing hooks");
                best[i] = best[i].min(began.elapsed());
                assert!(count.is_none() || count == n, "the counts differ");
                count = n;
            }
        }
        println!(
            "{:<24} {:>14} {:>9.3}s {:>9.3}s {:>6.2}",
            format!("{name} {depth}"),
            count.unwrap_or_default(),
            best[0].as_secs_f64(),
            best[1].as_secs_f64(),
            best[0].as_secs_f64() / best[1].as_secs_f64()
        );
    }
}

/// `name:games`: medium against easy on one thread and on `all`.
fn arena(arg: &str, all: usize, never: &Interrupt) {
    let (name, games) = arg.split_once(':').unwrap_or((arg, "8"));
    let games: u32 = games.parse().expect("a number of games after the colon");
    let rules = Rulebook::builtin(name).unwrap_or_else(|e| panic!("{e}"));
    let budget = Budget::Playouts(rules.table().ai_playouts);
    let players = [
        Player::Computer(Level::Medium),
        Player::Computer(Level::Easy),
    ];
    let mut best = [Duration::MAX; 2];
    let mut wins = None;
    for _ in 0..ROUNDS {
        for (i, threads) in [1, all].into_iter().enumerate() {
            let m = Match {
                games,
                seed: 1,
                budgets: [budget; 2],
                threads,
                openings: Vec::new(),
            };
            let began = Instant::now();
            let tally = m
                .run(&rules, &players, never, &|_| {})
                .expect("built-ins have no failing hooks");
            best[i] = best[i].min(began.elapsed());
            assert!(
                wins.is_none() || wins == Some(tally.wins),
                "the matches differ"
            );
            wins = Some(tally.wins);
        }
    }
    println!(
        "{:<24} {:>14} {:>9.3}s {:>9.3}s {:>6.2}",
        format!("arena {name} {games}"),
        format!("{} wins", wins.unwrap_or_default()),
        best[0].as_secs_f64(),
        best[1].as_secs_f64(),
        best[0].as_secs_f64() / best[1].as_secs_f64()
    );
}
