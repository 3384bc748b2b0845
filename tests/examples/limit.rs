//! Nine men's morris's random games in the engine beside the loop written
//! by hand for it (`by_hand.rs`, the same games from the same seed) and
//! beside `classic`'s, in alternating rounds of one second, single thread:
//!
//! ```sh
//! cargo run --release -p gridrules-conformance --example limit [rounds]
//! ```
//!
//! Prints each one's median games per second and their ratios. The
//! machines are shared and noisy: compare the ratios of one run, not
//! figures of two.

use gridrules_conformance::by_hand::Morris;
use gridrules_core::Rulebook;
use gridrules_core::interrupt::Interrupt;
use gridrules_core::playout::{Rng, bench};
use std::time::{Duration, Instant};

const ROUND: Duration = Duration::from_secs(1);

/// Games per second of the engine's random games of `name`, one round.
fn engine(name: &str) -> f64 {
    let rules = Rulebook::builtin(name).expect("a built-in rulebook");
    let result = bench(&rules, ROUND, 1, &Interrupt::new()).expect("no per-move hook");
    result.playouts_per_second()
}

/// Games per second of the loop written by hand, one round.
fn by_hand() -> f64 {
    let (mut board, mut rng) = (Morris::new(), Rng::new(1));
    let began = Instant::now();
    let mut games = 0u64;
    while began.elapsed() < ROUND {
        for _ in 0..100 {
            std::hint::black_box(board.play(&mut rng));
        }
        games += 100;
    }
    games as f64 / began.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(5);
    let (mut classic, mut morris, mut hand) = (vec![], vec![], vec![]);
    for round in 1..=rounds {
        classic.push(engine("classic"));
        morris.push(engine("nine-mens-morris"));
        hand.push(by_hand());
        eprintln!(
            "round {round}: classic {:.0}, nine-mens-morris {:.0}, by hand {:.0} games/s",
            classic[round - 1],
            morris[round - 1],
            hand[round - 1]
        );
    }
    let (classic, morris, hand) = (median(classic), median(morris), median(hand));
    println!("medians of {rounds} rounds, games/s:");
    println!("  classic (engine)          {classic:>12.0}");
    println!("  nine-mens-morris (engine) {morris:>12.0}");
    println!("  nine-mens-morris (by hand){hand:>12.0}");
    println!("engine ÷ by hand:           {:.2}", morris / hand);
    println!("engine ÷ classic:           1/{:.1}", classic / morris);
    println!("by hand ÷ classic:          1/{:.1}", classic / hand);
}
