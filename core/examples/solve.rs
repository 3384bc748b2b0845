//! How long `solve` takes from a rulebook's start, stage by stage where a
//! table of every position is solved (see `search::solve_watched`):
//!
//! ```sh
//! cargo run --release -p gridrules-core --example solve -- teeko vanishing
//! ```
//!
//! Each argument is a built-in or a rulebook file; prints the value and,
//! for a table, the seconds each stage took.

use gridrules_core::Rulebook;
use gridrules_core::interrupt::Interrupt;
use gridrules_core::search::{At, Solved, Stage, Value, solve_watched};
use std::time::{Duration, Instant};

fn main() {
    let never = Interrupt::new();
    for name in std::env::args().skip(1) {
        let rules = if name.ends_with(".toml") {
            Rulebook::from_file(std::path::Path::new(&name))
        } else {
            Rulebook::builtin(&name)
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let start = rules.initial();
        let began = Instant::now();
        let mut stage_began = began;
        let mut last: Option<Stage> = None;
        let mut stages = Vec::new();
        let mut note = |stage: Stage, _: u64, of: u64| {
            let kind = |s: Stage| std::mem::discriminant(&s);
            if last.map(kind) != Some(kind(stage)) {
                if let Some(l) = last {
                    stages.push((l, stage_began.elapsed()));
                }
                stage_began = Instant::now();
                println!("{name}: {stage:?} over {of} positions");
            }
            last = Some(stage);
        };
        let solved = solve_watched(
            At::new(&rules, &start, &[]),
            Duration::from_secs(3600),
            &never,
            &mut note,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Some(l) = last {
            stages.push((l, stage_began.elapsed()));
        }
        let value = match solved {
            Solved::Exact(s) => match s.value {
                Value::Draw => "draw".to_string(),
                Value::Win { side, plies } => format!("{side} wins in {plies}"),
            },
            other => format!("{other:?}"),
        };
        let total = began.elapsed().as_secs_f64();
        println!("{name}: {value} in {total:.2} s");
        for (stage, took) in stages {
            println!("  {stage:?}: {:.2} s", took.as_secs_f64());
        }
    }
}
