//! The computer players (T4): hard never loses at 3×3, whatever the opponent
//! plays (checked against every opponent line); every level takes a win it
//! sees; medium blocks an immediate threat.

use gridrules_core::playout::Rng;
use gridrules_core::search::{Budget, Level, choose};
use gridrules_core::{Move, MoveList, Outcome, Position, Rulebook, Side};

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
        let mv = choose(rules, pos, &[], Level::Hard, &mut rng, BUDGET)
            .unwrap()
            .expect("a move");
        path.push(rules.move_text(mv));
        let n = never_loses(rules, &rules.play(pos, &[], mv).unwrap(), hard, path);
        path.pop();
        return n;
    }
    let mut list = MoveList::new();
    rules.legal_moves(pos, &[], &mut list).unwrap();
    let mut games = 0;
    for &mv in list.iter() {
        path.push(rules.move_text(mv));
        games += never_loses(rules, &rules.play(pos, &[], mv).unwrap(), hard, path);
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
            let mv = choose(&rules, &pos, &[], level, &mut Rng::new(seed), BUDGET)
                .unwrap()
                .unwrap();
            let next = rules.play(&pos, &[], mv).unwrap();
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
            let mv = choose(&rules, &pos, &[], level, &mut Rng::new(seed), BUDGET)
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
        let mv = choose(&rules, &pos, &[], Level::Hard, &mut Rng::new(seed), BUDGET)
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
                let mv = choose(&rules, &pos, &[], level, &mut rng, BUDGET)
                    .unwrap()
                    .unwrap();
                pos = rules.play(&pos, &[], mv).unwrap();
            }
            assert_ne!(
                pos.outcome(),
                Some(Outcome::Win(hard.other())),
                "seed {seed}: hard {hard} lost"
            );
        }
    }
}

/// The moves `rules` lists in `pos`.
fn legal(rules: &Rulebook, pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    rules.legal_moves(pos, &[], &mut list).unwrap();
    list.iter().copied().collect()
}

/// The initial position and a few reached from it by seeded random moves,
/// each walk stopping before a move that would end the game.
fn sample_positions(rules: &Rulebook) -> Vec<(String, Position)> {
    let mut out = vec![("initial".to_string(), rules.initial())];
    for (seed, plies) in [(1u64, 3usize), (2, 8), (3, 13), (4, 25)] {
        let mut rng = Rng::new(seed);
        let mut pos = rules.initial();
        let mut path = Vec::new();
        for _ in 0..plies {
            let moves = legal(rules, &pos);
            let mv = moves[rng.below(moves.len())];
            let next = rules.play(&pos, &[], mv).unwrap();
            if next.is_over() {
                break;
            }
            path.push(rules.move_text(mv));
            pos = next;
        }
        out.push((path.join(" "), pos));
    }
    out
}

#[test]
fn every_level_plays_a_legal_move_in_every_rulebook() {
    let mut checked = 0;
    for name in Rulebook::builtin_names() {
        let rules = Rulebook::builtin(name).unwrap();
        for (path, pos) in sample_positions(&rules) {
            let moves = legal(&rules, &pos);
            assert!(!moves.is_empty(), "{name} after `{path}`: no legal move");
            for level in Level::ALL {
                let mv = choose(&rules, &pos, &[], level, &mut Rng::new(7), BUDGET)
                    .unwrap()
                    .unwrap_or_else(|| panic!("{name} {level} after `{path}`: no move"));
                assert!(
                    moves.contains(&mv),
                    "{name} {level} after `{path}`: {} is not among the legal moves",
                    rules.move_text(mv)
                );
                checked += 1;
            }
        }
    }
    let rulebooks = Rulebook::builtin_names().count();
    assert!(rulebooks >= 15, "only {rulebooks} built-in rulebooks");
    assert_eq!(checked, rulebooks * 5 * Level::ALL.len());
}

/// Every level, over a few seeds, in `pos` of `rules`: the moves it chose.
fn choices(rules: &Rulebook, pos: &Position) -> Vec<(Level, u64, Move)> {
    let mut out = Vec::new();
    for level in Level::ALL {
        for seed in 0..8 {
            let mv = choose(rules, pos, &[], level, &mut Rng::new(seed), BUDGET)
                .unwrap()
                .unwrap();
            out.push((level, seed, mv));
        }
    }
    out
}

#[test]
fn every_level_takes_a_win_at_connect_four_and_wild() {
    let cases = [
        // X holds a1 a2 a3: a4 (the drop into column a) wins.
        ("connect-four", "7/7/7/X6/XO5/XO4O X"),
        // Two O's on row 1: c1=O completes three O's, and wins for X.
        ("wild", "3/3/OO1 X"),
        // Two X's in column a: a3=X wins for O, who completes them.
        ("wild", "3/X2/X1O O"),
    ];
    for (name, setup) in cases {
        let rules = Rulebook::builtin(name).unwrap();
        let pos = rules.parse_position(setup).unwrap();
        let me = pos.turn();
        for (level, seed, mv) in choices(&rules, &pos) {
            let next = rules.play(&pos, &[], mv).unwrap();
            assert_eq!(
                next.outcome(),
                Some(Outcome::Win(me)),
                "{name} `{setup}` {level} seed {seed}: {}",
                rules.move_text(mv)
            );
        }
    }
}

/// Positions where every move but one completes a line of the mover's mark,
/// which loses at once; that one move wins.
const LOSING_LINES: [(&str, &str, &str); 2] = [
    // a2, b1, c1 and c3 each complete a line of X; after c2 every reply does.
    ("notakto", "XX1/1X1/X2 X", "c2"),
    // a1 and c3 complete X's column and row; after b2, O's a1 or c3
    // completes a row or column of O.
    ("misere", "XX1/X1O/1OO X", "b2"),
];

/// The moves `levels` chose over a few seeds in [`LOSING_LINES`] that complete a line.
fn lines_completed(levels: &[Level]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (name, setup, only) in LOSING_LINES {
        let rules = Rulebook::builtin(name).unwrap();
        let pos = rules.parse_position(setup).unwrap();
        let me = pos.turn();
        // The position is as described: one move does not lose at once.
        let safe: Vec<String> = legal(&rules, &pos)
            .into_iter()
            .filter(|&mv| {
                rules.play(&pos, &[], mv).unwrap().outcome() != Some(Outcome::Win(me.other()))
            })
            .map(|mv| rules.move_text(mv))
            .collect();
        assert_eq!(safe, [only], "{name} `{setup}`");
        for (level, seed, mv) in choices(&rules, &pos) {
            if levels.contains(&level) && rules.move_text(mv) != only {
                wrong.push(format!(
                    "{name} {level} seed {seed}: {}",
                    rules.move_text(mv)
                ));
            }
        }
    }
    wrong
}

#[test]
fn at_notakto_and_misere_hard_avoids_completing_a_line() {
    let wrong = lines_completed(&[Level::Hard]);
    assert!(wrong.is_empty(), "moves that complete a line: {wrong:?}");
}

/// Medium avoids moves that lose at once (T4); easy plays carelessly and
/// may complete a losing line.
#[test]
fn at_notakto_and_misere_medium_avoids_completing_a_line() {
    let wrong = lines_completed(&[Level::Medium]);
    assert!(wrong.is_empty(), "moves that complete a line: {wrong:?}");
}

/// PI1: hard answers the first move with `swap` when the position favours
/// X, and plays on when it does not.
#[test]
fn hard_swaps_a_strong_first_move_only() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/two-pie.toml");
    let two = Rulebook::from_file(&path).unwrap();
    // Two in a row: every first move wins for X, so O takes it.
    let pos = two
        .play(
            &two.initial(),
            &[],
            Move::Place {
                to: gridrules_core::Cell(0),
                mark: Side::X,
            },
        )
        .unwrap();
    let history = [Move::Place {
        to: gridrules_core::Cell(0),
        mark: Side::X,
    }];
    let mv = choose(&two, &pos, &history, Level::Hard, &mut Rng::new(3), BUDGET).unwrap();
    assert_eq!(mv, Some(Move::Swap), "two in a row: O should swap");

    // Gomoku: a first mark in the centre is worth taking, one in a corner is not.
    let gomoku = Rulebook::builtin("gomoku-swap").unwrap();
    for (text, swaps) in [("h8", true), ("a1", false)] {
        let first = gomoku.parse_move(&gomoku.initial(), &[], text).unwrap();
        let pos = gomoku.play(&gomoku.initial(), &[], first).unwrap();
        let mv = choose(
            &gomoku,
            &pos,
            &[first],
            Level::Hard,
            &mut Rng::new(3),
            BUDGET,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            mv == Move::Swap,
            swaps,
            "gomoku-swap after {text}: chose {mv:?}"
        );
        assert!(
            gomoku.check(&pos, &[first], mv).is_ok(),
            "{text}: a legal answer"
        );
    }
}
