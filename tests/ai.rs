//! The computer players (T4): hard never loses at 3×3, whatever the opponent
//! plays (checked against every opponent line); every level takes a win it
//! sees; medium blocks an immediate threat.

use gridrules_core::playout::Rng;
use gridrules_core::search::{Budget, Level, choose};
use gridrules_core::{MoveList, Outcome, Position, Rulebook, Side};

const BUDGET: Budget = Budget::Playouts(2000);

/// Walks every line the opponent can play against `hard` on `side`; returns
/// the number of finished games, panicking on a loss.
fn never_loses(rules: &Rulebook, pos: &Position, hard: Side, path: &mut Vec<String>) -> u64 {
    if let Some(o) = pos.outcome() {
        assert_ne!(
            o,
            Outcome::Win(hard.other()),
            "hard ({hard}) lost after {}",
            path.join(" ")
        );
        return 1;
    }
    if pos.turn() == hard {
        let mut rng = Rng::new(1);
        let mv = choose(rules, pos, Level::Hard, &mut rng, BUDGET)
            .unwrap()
            .expect("a move");
        path.push(rules.move_text(mv));
        let n = never_loses(rules, &rules.play(pos, mv).unwrap(), hard, path);
        path.pop();
        return n;
    }
    let mut list = MoveList::new();
    rules.legal_moves(pos, &mut list).unwrap();
    let mut games = 0;
    for &mv in list.iter() {
        path.push(rules.move_text(mv));
        games += never_loses(rules, &rules.play(pos, mv).unwrap(), hard, path);
        path.pop();
    }
    games
}

#[test]
fn hard_never_loses_at_classic_as_x_or_o() {
    let rules = Rulebook::builtin("classic").unwrap();
    for side in Side::ALL {
        let games = never_loses(&rules, &rules.initial(), side, &mut Vec::new());
        assert!(games > 50, "{side}: only {games} games explored");
    }
}

#[test]
fn every_level_takes_a_win_it_sees() {
    let rules = Rulebook::builtin("classic").unwrap();
    // X to move can win on c3 (diagonal) or a3 (column): any win will do.
    let pos = rules.parse_position("3/1X1/XOO X").unwrap();
    for level in Level::ALL {
        for seed in 0..20 {
            let mv = choose(&rules, &pos, level, &mut Rng::new(seed), BUDGET)
                .unwrap()
                .unwrap();
            let next = rules.play(&pos, mv).unwrap();
            assert_eq!(
                next.outcome(),
                Some(Outcome::Win(Side::X)),
                "{level} seed {seed}: {}",
                rules.move_text(mv)
            );
        }
    }
}

#[test]
fn medium_and_hard_block_an_immediate_threat() {
    let rules = Rulebook::builtin("gomoku").unwrap();
    // O threatens five on row 1 (a1–d1, e1 open); X has no win of its own.
    let pos = rules
        .parse_position("15/15/15/15/15/15/15/7X7/15/15/15/15/15/15/OOOO1XX1X6 X")
        .unwrap();
    for level in [Level::Medium, Level::Hard] {
        for seed in 0..10 {
            let mv = choose(&rules, &pos, level, &mut Rng::new(seed), BUDGET)
                .unwrap()
                .unwrap();
            assert_eq!(rules.move_text(mv), "e1", "{level} seed {seed}");
        }
    }
}

#[test]
fn on_gomoku_hard_blocks_an_open_three() {
    let rules = Rulebook::builtin("gomoku").unwrap();
    // O has d8 e8 f8 with both ends open; X has only scattered marks.
    let pos = rules
        .parse_position("15/15/15/15/15/15/15/3OOO9/15/15/X14/15/15/15/X13X X")
        .unwrap();
    for seed in 0..10 {
        let mv = choose(&rules, &pos, Level::Hard, &mut Rng::new(seed), BUDGET)
            .unwrap()
            .unwrap();
        let text = rules.move_text(mv);
        assert!(
            text == "c8" || text == "g8",
            "seed {seed}: {text} does not close the three"
        );
    }
}

#[test]
fn on_gomoku_hard_wins_against_easy() {
    // Line threats beat careless play: in ten games on each side, hard
    // never loses to easy.
    let rules = Rulebook::builtin("gomoku").unwrap();
    for seed in 0..10u64 {
        for hard in Side::ALL {
            let mut pos = rules.initial();
            let mut rng = Rng::new(seed);
            while !pos.is_over() {
                let level = if pos.turn() == hard {
                    Level::Hard
                } else {
                    Level::Easy
                };
                let mv = choose(&rules, &pos, level, &mut rng, BUDGET)
                    .unwrap()
                    .unwrap();
                pos = rules.play(&pos, mv).unwrap();
            }
            assert_ne!(
                pos.outcome(),
                Some(Outcome::Win(hard.other())),
                "seed {seed}: hard {hard} lost"
            );
        }
    }
}
