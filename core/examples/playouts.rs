//! A fixed amount of work for instruction counting, where wall-clock
//! benchmarks are too noisy to compare two builds:
//!
//! ```sh
//! cargo build --release --example playouts
//! perf stat -e instructions target/release/examples/playouts gomoku 20000
//! ```

use gridrules_core::Rulebook;
use gridrules_core::playout::{Playout, Rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "classic".into());
    let games: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let rules = Rulebook::builtin(&name).unwrap_or_else(|e| panic!("{e}"));
    let start = rules.initial();
    let mut rng = Rng::new(1);
    let mut playout = Playout::new();
    let mut plies = 0;
    for _ in 0..games {
        playout
            .run(&rules, &start, &[], &mut rng)
            .expect("built-in rulebooks have no failing hooks");
        plies += playout.plies();
    }
    println!("{name}: {games} games, {plies} moves");
}
