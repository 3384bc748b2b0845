//! How `perft` scales with cores: each named count on one thread and on
//! all of them, side by side in alternating rounds (a shared machine's
//! load falls on both alike):
//!
//! ```sh
//! cargo run --release --example cores -- classic:8 connect-four:8 gomoku:3
//! ```
//!
//! Each argument is a built-in and a depth; prints the count, the best
//! time of each and their ratio.

use gridrules_core::Game;
use gridrules_core::Rulebook;
use gridrules_core::interrupt::Interrupt;
use gridrules_core::perft::perft_on;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Rounds of each, alternating.
const ROUNDS: usize = 3;

fn main() {
    let all = std::thread::available_parallelism().map_or(1, usize::from);
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
