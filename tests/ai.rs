//! The computer players (T4): hard never loses at 3×3, whatever the opponent
//! plays (checked against every opponent line); every level takes a win it
//! sees; medium blocks an immediate threat.

use gridrules_conformance::{legal, reachable};
use gridrules_core::interrupt::Interrupt;
use gridrules_core::playout::Rng;
use gridrules_core::search::{
    At, Budget, Level, Request, Solution, Solved, Value, choose, continuous_fours, solve,
};
use gridrules_core::{Game, Move, MoveList, Outcome, Position, Rulebook, Side};
use std::sync::Arc;
use std::time::Duration;

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
        let mv = choose(
            At::new(rules, pos, &[]),
            Request::new(Level::Hard, BUDGET),
            &mut rng,
        )
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
fn hard_never_loses_at_misere_as_x_or_o() {
    let rules = Rulebook::builtin("misere").unwrap();
    for side in Side::ALL {
        let games = never_loses(&rules, &rules.initial(), side, &mut Vec::new());
        assert!(games > 50, "{side}: only {games} games explored");
    }
}

/// Plays hard on `hard` against seeded random opponents; panics on a loss.
fn never_loses_to_random(rules: &Rulebook, hard: Side, games: u64) {
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut pos = rules.initial();
        let mut path = Vec::new();
        while !pos.is_over() {
            let moves = legal(rules, &pos);
            let mv = if pos.turn() == hard {
                choose(
                    At::new(rules, &pos, &[]),
                    Request::new(Level::Hard, BUDGET),
                    &mut rng,
                )
                .unwrap()
                .unwrap()
            } else {
                moves[rng.below(moves.len())]
            };
            path.push(rules.move_text(mv));
            pos = rules.play(&pos, &[], mv).unwrap();
        }
        assert_ne!(
            pos.outcome(),
            Some(Outcome::Win(hard.other())),
            "{}: hard ({hard}) lost after {}",
            rules.name(),
            path.join(" ")
        );
    }
}

#[test]
fn hard_never_loses_at_four_to_random_defences() {
    // 4×4 has too many lines to walk them all; the solver's value is
    // checked move by move in `hard_keeps_the_value_it_solves`.
    let rules = Rulebook::builtin("four").unwrap();
    for side in Side::ALL {
        never_loses_to_random(&rules, side, 6);
    }
}

/// Walks every defence against hard on `hard` through a [`Game`], so the
/// repetition rule applies; panics unless hard wins each. Returns the games.
fn always_wins(game: &mut Game, hard: Side, path: &mut Vec<String>) -> u64 {
    let rules = game.rulebook().clone();
    if let Some(o) = game.outcome() {
        assert_eq!(
            o,
            Outcome::Win(hard),
            "{}: hard ({hard}) did not win after {}",
            rules.name(),
            path.join(" ")
        );
        return 1;
    }
    let moves = if game.position().turn() == hard {
        let mv = choose(
            At::new(&rules, game.position(), game.moves()),
            Request::new(Level::Hard, BUDGET),
            &mut Rng::new(1),
        )
        .unwrap()
        .expect("a move");
        vec![mv]
    } else {
        legal(&rules, game.position())
    };
    let mut games = 0;
    for mv in moves {
        path.push(rules.move_text(mv));
        game.play(mv).unwrap();
        games += always_wins(game, hard, path);
        game.undo();
        path.pop();
    }
    games
}

#[test]
fn hard_as_x_wins_the_moving_games_against_every_defence() {
    for name in ["moving", "moving-jumps", "three-mens-morris"] {
        let rules = Arc::new(Rulebook::builtin(name).unwrap());
        let games = always_wins(&mut Game::new(rules), Side::X, &mut Vec::new());
        assert!(games > 50, "{name}: only {games} games explored");
    }
}

/// What `solve` says of `pos`, with no earlier positions, within `within`.
fn solve_at(rules: &Rulebook, pos: &Position, within: Duration) -> Solved {
    solve(At::new(rules, pos, &[]), within, &Interrupt::new()).unwrap()
}

/// The exact value of `pos`, which must be small enough to solve.
fn value(rules: &Rulebook, pos: &Position) -> Value {
    match solve_at(rules, pos, Duration::from_secs(600)) {
        Solved::Exact(s) => s.value,
        other => panic!("{}: {other:?}", rules.position_text(pos)),
    }
}

/// Who wins a value, if anyone.
fn winner(v: Value) -> Option<Side> {
    match v {
        Value::Draw => None,
        Value::Win { side, .. } => Some(side),
    }
}

#[test]
fn hard_keeps_the_value_it_solves() {
    // Every position of the small games with cycles, and positions along
    // random games of four: hard's move never turns a win into less, nor a
    // draw into a loss, for either side; in the games with cycles, a win is
    // played a ply quicker each move (a slower winning move could let the
    // repetition rule draw the game).
    for name in [
        "moving",
        "moving-jumps",
        "three-mens-morris",
        "vanishing",
        "four",
    ] {
        let rules = Rulebook::builtin(name).unwrap();
        let positions: Vec<Position> = if name == "four" {
            sample_positions(&rules)
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        } else {
            reachable(&rules)
        };
        for pos in positions.iter().filter(|p| !p.is_over()) {
            let before = value(&rules, pos);
            let mv = choose(
                At::new(&rules, pos, &[]),
                Request::new(Level::Hard, BUDGET),
                &mut Rng::new(5),
            )
            .unwrap()
            .unwrap();
            let next = rules.play(pos, &[], mv).unwrap();
            let after = match next.outcome() {
                Some(Outcome::Win(side)) => Value::Win { side, plies: 0 },
                Some(Outcome::Draw) => Value::Draw,
                None => value(&rules, &next),
            };
            let me = pos.turn();
            let ok = match (before, after) {
                (Value::Win { side, plies }, Value::Win { side: s, plies: p }) if side == me => {
                    s == me && (name == "four" || p + 1 == plies)
                }
                (Value::Win { side, .. }, _) if side == me => false,
                (Value::Win { .. }, _) => true,
                (_, after) => winner(after) != Some(me.other()),
            };
            assert!(
                ok,
                "{name}: {} {:?} -> {} {:?}",
                rules.position_text(pos),
                before,
                rules.move_text(mv),
                after
            );
        }
    }
}

#[test]
fn solve_gives_the_known_values() {
    let start = |name: &str| {
        let rules = Rulebook::builtin(name).unwrap();
        value(&rules, &rules.initial())
    };
    assert_eq!(start("classic"), Value::Draw, "C6");
    assert_eq!(start("four"), Value::Draw);
    assert_eq!(start("misere"), Value::Draw);
    assert_eq!(winner(start("notakto")), Some(Side::X), "the first player");
    assert_eq!(winner(start("moving")), Some(Side::X));
    assert_eq!(winner(start("moving-jumps")), Some(Side::X));
    // Under the pie rule the swapper takes X: after X's first mark at two
    // in a row, `swap` wins for X (now the second player), which solve
    // must say, and not that O wins.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/two-pie.toml");
    let two = Rulebook::from_file(&path).unwrap();
    let b2 = two.parse_move(&two.initial(), &[], "b2").unwrap();
    let pos = two.play(&two.initial(), &[], b2).unwrap();
    let solved = solve(
        At::new(&two, &pos, &[b2]),
        Duration::from_secs(60),
        &Interrupt::new(),
    )
    .unwrap();
    let expected = Solution {
        value: Value::Win {
            side: Side::X,
            plies: 3,
        },
        moves: vec![Move::Swap],
        endless: false,
    };
    assert_eq!(solved, Solved::Exact(expected));
    // Too large: said, never a wrong value.
    let rules = Rulebook::builtin("connect-four").unwrap();
    let solved = solve_at(&rules, &rules.initial(), Duration::from_millis(200));
    assert_eq!(solved, Solved::OutOfTime);
    // Removals make more of a position than its cells: no table, and the
    // graph is too large.
    let rules = Rulebook::builtin("nine-mens-morris").unwrap();
    let solved = solve_at(&rules, &rules.initial(), Duration::from_secs(600));
    assert_eq!(solved, Solved::TooLarge);
}

/// Where more positions are reachable than the graph holds, and a position
/// is only the cells each side holds (moving tic-tac-toe on 4×4, 376 000
/// positions), `solve` answers from a table of every position (it said
/// "too large" before). The win it claims is then checked move by move
/// against every defence: the engine must end every line in X's win
/// within the plies said.
#[test]
fn solve_answers_past_the_graph_with_a_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/moving-4x4.toml");
    let rules = Rulebook::from_file(&path).unwrap();
    let start = rules.initial();
    let Value::Win { side, plies } = value(&rules, &start) else {
        panic!("three in a row on 4×4 is won by the first player");
    };
    assert_eq!((side, plies), (Side::X, 5));
    /// Whether X wins within `plies` from `pos` against every defence,
    /// playing the first move `solve` gives.
    fn forced(rules: &Rulebook, pos: &Position, plies: u32) -> bool {
        if let Some(o) = pos.outcome() {
            return o == Outcome::Win(Side::X);
        }
        if plies == 0 {
            return false;
        }
        let Solved::Exact(s) = solve_at(rules, pos, Duration::from_secs(60)) else {
            return false;
        };
        let moves = if pos.turn() == Side::X {
            s.moves[..1].to_vec()
        } else {
            legal(rules, pos)
        };
        moves
            .iter()
            .all(|&m| forced(rules, &rules.play(pos, &[], m).unwrap(), plies - 1))
    }
    assert!(forced(&rules, &start, plies));
}

/// Once `solve` has a table, hard plays from it: along random games of
/// moving tic-tac-toe on 4×4 (positions of both phases), a side that can
/// force a win plays a move that wins a ply sooner, never a slower or
/// lesser one, and a drawn side never moves into a loss.
#[test]
fn hard_plays_the_quickest_win_from_a_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/moving-4x4.toml");
    let rules = Rulebook::from_file(&path).unwrap();
    let mut rng = Rng::new(27);
    let (mut wins, mut draws) = (0, 0);
    for _ in 0..20 {
        let mut pos = rules.initial();
        for _ in 0..40 {
            if pos.is_over() {
                break;
            }
            let me = pos.turn();
            let before = value(&rules, &pos);
            let mv = choose(
                At::new(&rules, &pos, &[]),
                Request::new(Level::Hard, BUDGET),
                &mut Rng::new(5),
            )
            .unwrap()
            .unwrap();
            let next = rules.play(&pos, &[], mv).unwrap();
            let after = match next.outcome() {
                Some(Outcome::Win(side)) => Value::Win { side, plies: 0 },
                Some(Outcome::Draw) => Value::Draw,
                None => value(&rules, &next),
            };
            let text = format!("{} {}", rules.position_text(&pos), rules.move_text(mv));
            match before {
                Value::Win { side, plies } if side == me => {
                    wins += 1;
                    assert_eq!(
                        after,
                        Value::Win {
                            side,
                            plies: plies - 1
                        },
                        "{text}"
                    );
                }
                Value::Draw => {
                    draws += 1;
                    assert_eq!(after, Value::Draw, "{text}");
                }
                Value::Win { .. } => {}
            }
            let moves = legal(&rules, &pos);
            pos = rules
                .play(&pos, &[], moves[rng.below(moves.len())])
                .unwrap();
        }
    }
    assert!(
        wins > 20 && draws > 20,
        "{wins} wins, {draws} draws checked"
    );
}

/// `solve teeko`: every one of its 172 million positions valued on every
/// core, kept in 2 bits of value and a byte of plies each. The published
/// result is a draw (Guy Steele, 1998). Minutes and 730 MB at the peak,
/// so only when asked:
/// `cargo test --release -p gridrules-conformance --test ai -- --ignored`.
#[test]
#[ignore = "long: minutes on two cores, 730 MB"]
fn teeko_is_a_draw() {
    let rules = Rulebook::builtin("teeko").unwrap();
    let solved = solve_at(&rules, &rules.initial(), Duration::from_secs(3600));
    let Solved::Exact(solution) = solved else {
        panic!("teeko is solved by its table: {solved:?}");
    };
    assert_eq!(solution.value, Value::Draw);
}

#[test]
fn every_level_takes_a_win_it_sees() {
    let rules = Rulebook::builtin("classic").unwrap();
    // X to move can win on c3 (diagonal) or a3 (column): any win will do.
    let pos = rules.parse_position("3/1X1/XOO X").unwrap();
    for level in Level::ALL {
        for seed in 0..20 {
            let mv = choose(
                At::new(&rules, &pos, &[]),
                Request::new(level, BUDGET),
                &mut Rng::new(seed),
            )
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
            let mv = choose(
                At::new(&rules, &pos, &[]),
                Request::new(level, BUDGET),
                &mut Rng::new(seed),
            )
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
        let mv = choose(
            At::new(&rules, &pos, &[]),
            Request::new(Level::Hard, BUDGET),
            &mut Rng::new(seed),
        )
        .unwrap()
        .unwrap();
        let text = rules.move_text(mv);
        assert!(
            text == "c8" || text == "g8",
            "seed {seed}: {text} does not close the three"
        );
    }
}

/// X: c8 d8 e8 and c7 d7 e7 (each closed on the left by O), f9 f10 under
/// O's f11. No line in one and no open four, but a win by fours: f7 (row 7
/// four, O must take g7), then f8 makes two fours (g8 and f6).
const FOURS: &str = "c8 b8 d8 b7 e8 f11 c7 o1 d7 m2 e7 a15 f9 k15 f10 o13";

/// Gomoku after the moves `text`, X and O in turn.
fn gomoku_after(rules: &Rulebook, text: &str) -> (Position, Vec<Move>) {
    let mut pos = rules.initial();
    let mut moves = Vec::new();
    for t in text.split_whitespace() {
        let mv = rules.parse_move(&pos, &moves, t).unwrap();
        pos = rules.play(&pos, &moves, mv).unwrap();
        moves.push(mv);
    }
    assert!(!pos.is_over(), "{text}");
    (pos, moves)
}

#[test]
fn on_gomoku_hard_wins_by_continuous_fours() {
    let rules = Rulebook::builtin("gomoku").unwrap();
    let (pos, moves) = gomoku_after(&rules, FOURS);
    for (defender, seeds) in [
        (Level::Hard, 0..2),
        (Level::Medium, 0..4),
        (Level::Easy, 0..4),
    ] {
        for seed in seeds {
            let mut rng = Rng::new(seed);
            let (mut pos, mut moves) = (pos, moves.clone());
            let mut line = Vec::new();
            while !pos.is_over() && line.len() < 7 {
                let level = if pos.turn() == Side::X {
                    Level::Hard
                } else {
                    defender
                };
                let mv = choose(
                    At::new(&rules, &pos, &moves),
                    Request::new(level, BUDGET),
                    &mut rng,
                )
                .unwrap()
                .unwrap();
                line.push(rules.move_text(mv));
                pos = rules.play(&pos, &moves, mv).unwrap();
                moves.push(mv);
            }
            assert_eq!(
                pos.outcome(),
                Some(Outcome::Win(Side::X)),
                "against {defender} (seed {seed}): {}",
                line.join(" ")
            );
        }
    }
}

#[test]
fn continuous_fours_are_found_only_where_they_exist() {
    let rules = Rulebook::builtin("gomoku").unwrap();
    let (pos, moves) = gomoku_after(&rules, FOURS);
    let mv = continuous_fours(&rules, &pos, &moves)
        .unwrap()
        .expect("a win by fours");
    // The first move is a four: after a quiet O move far away, X has a
    // line in one.
    let mut line = moves.clone();
    line.push(mv);
    let next = rules.play(&pos, &moves, mv).unwrap();
    let quiet = rules.parse_move(&next, &line, "h1").unwrap();
    let after = rules.play(&next, &line, quiet).unwrap();
    line.push(quiet);
    let wins_next = legal(&rules, &after)
        .into_iter()
        .any(|m| rules.play(&after, &line, m).unwrap().outcome() == Some(Outcome::Win(Side::X)));
    assert!(wins_next, "{} is not a four", rules.move_text(mv));
    // O to move, after a quiet X move far away, has none.
    let (quiet, line) = gomoku_after(&rules, &format!("{FOURS} a1"));
    assert_eq!(continuous_fours(&rules, &quiet, &line).unwrap(), None);
}

#[test]
fn on_gomoku_hard_leaves_no_win_by_continuous_fours() {
    let rules = Rulebook::builtin("gomoku").unwrap();
    // O: c8 d8 e8 (X holds b8) and f5 f6 f7 (X holds f4): f8 would make
    // two fours at once. Every win by fours goes through f8 or its lines;
    // hard must break them.
    let (pos, moves) = gomoku_after(&rules, "b8 c8 f4 d8 a15 e8 o15 f5 o1 f6 k15 f7");
    assert_eq!(pos.turn(), Side::X);
    let (skip, skipped) = gomoku_after(&rules, "b8 c8 f4 d8 a15 e8 o15 f5 o1 f6 k15 f7 h1");
    assert!(
        continuous_fours(&rules, &skip, &skipped).unwrap().is_some(),
        "O threatens fours"
    );
    for seed in 0..4 {
        let mv = choose(
            At::new(&rules, &pos, &moves),
            Request::new(Level::Hard, BUDGET),
            &mut Rng::new(seed),
        )
        .unwrap()
        .unwrap();
        let next = rules.play(&pos, &moves, mv).unwrap();
        let mut line = moves.clone();
        line.push(mv);
        assert_eq!(
            continuous_fours(&rules, &next, &line).unwrap(),
            None,
            "seed {seed}: after {} O still wins by fours",
            rules.move_text(mv)
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
                let mv = choose(
                    At::new(&rules, &pos, &[]),
                    Request::new(level, BUDGET),
                    &mut rng,
                )
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
                let mv = choose(
                    At::new(&rules, &pos, &[]),
                    Request::new(level, BUDGET),
                    &mut Rng::new(7),
                )
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

/// The move `level` chooses in `pos` of `rules` with `seed` (the default
/// playout budget of these tests).
fn pick(rules: &Rulebook, pos: &Position, level: Level, seed: u64) -> Move {
    choose(
        At::new(rules, pos, &[]),
        Request::new(level, BUDGET),
        &mut Rng::new(seed),
    )
    .unwrap()
    .unwrap()
}

/// [`pick`] in the position `text`, as the move is written.
fn chosen(rules: &Rulebook, text: &str, level: Level, seed: u64) -> String {
    let pos = rules.parse_position(text).unwrap();
    rules.move_text(pick(rules, &pos, level, seed))
}

/// Every level, over a few seeds, in `pos` of `rules`: the moves it chose.
fn choices(rules: &Rulebook, pos: &Position) -> Vec<(Level, u64, Move)> {
    let mut out = Vec::new();
    for level in Level::ALL {
        for seed in 0..8 {
            out.push((level, seed, pick(rules, pos, level, seed)));
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
    let mv = choose(
        At::new(&two, &pos, &history),
        Request::new(Level::Hard, BUDGET),
        &mut Rng::new(3),
    )
    .unwrap();
    assert_eq!(mv, Some(Move::Swap), "two in a row: O should swap");

    // Gomoku: a first mark in the centre is worth taking, one in a corner is not.
    let gomoku = Rulebook::builtin("gomoku-swap").unwrap();
    for (text, swaps) in [("h8", true), ("a1", false)] {
        let first = gomoku.parse_move(&gomoku.initial(), &[], text).unwrap();
        let pos = gomoku.play(&gomoku.initial(), &[], first).unwrap();
        let mv = choose(
            At::new(&gomoku, &pos, &[first]),
            Request::new(Level::Hard, BUDGET),
            &mut Rng::new(3),
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

#[test]
fn an_arena_match_repeats_whatever_the_number_of_threads() {
    use gridrules_core::arena::{Match, Player};
    let rules = Rulebook::builtin("moving").unwrap();
    let players = [Player::Computer(Level::Medium), Player::Random];
    let tally = |threads| {
        let m = Match {
            games: 12,
            seed: 9,
            budgets: [Budget::Playouts(300); 2],
            threads,
            openings: Vec::new(),
        };
        m.run(&rules, &players, &Interrupt::new(), &|_| {}).unwrap()
    };
    let one = tally(1);
    assert_eq!(one.games(), 12);
    assert_eq!(one, tally(2));
    assert_eq!(one, tally(3));
}

/// The scripts' budget goes with a search request, to whichever
/// thread runs it (and every thread it starts), not only the thread that
/// made it: here a budget whose flag (the front end's Ctrl-C) is raised,
/// which the search itself does not watch, so only the budget stops the
/// hooks. (A spent time would end the search at once and play a move: its
/// deadline comes before the scripts' budget ends.)
#[test]
fn a_search_requests_script_budget_goes_with_it() {
    use gridrules_core::script::ScriptBudget;
    let rules = Rulebook::from_file(std::path::Path::new("user/misere_hook.toml")).unwrap();
    let pos = rules.initial();
    let flag = Interrupt::new();
    flag.raise();
    let stopped = ScriptBudget::UNLIMITED.stopped_by(&flag);
    let request = stopped.run(|| Request::new(Level::Hard, BUDGET));
    // A thread of its own, which has no budget set.
    let chosen = std::thread::scope(|scope| {
        let search = move || choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1));
        scope.spawn(search).join().unwrap()
    });
    let err = chosen.expect_err("the search ran its hooks past the budget");
    assert!(err.to_string().contains("stopped (Ctrl-C)"), "{err}");
}

/// Ctrl-C stops a hook call under way, not only the loop that makes the
/// calls: a `refuse` hook that never ends is stopped by the budget's flag,
/// raised while it runs, with the stop's own message (it ran until its
/// 2 s limit before). `perft` then reports a stop, not the hook's failure
/// (that half holds by `Interrupt::settle` alone, whenever the hook ends).
#[test]
fn a_raised_flag_stops_a_hook_call_under_way() {
    use gridrules_core::script::ScriptBudget;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("stuck.rhai"),
        "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
         fn refuse(state, mv) { let a = []; a.pad(20000, 0); loop { let b = a; } }\n",
    )
    .unwrap();
    let text = "name = \"stuck\"\ntitle = \"stuck\"\nscript = \"stuck.rhai\"\n\
                [board]\nwidth = 3\nheight = 3\n";
    let rules = Rulebook::from_str_at(text, "stuck.toml", Some(dir.path().to_path_buf())).unwrap();
    let flag = Interrupt::new();
    let raise_soon = || {
        let raiser = flag.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            raiser.raise();
        })
    };
    let budget = ScriptBudget::UNLIMITED.stopped_by(&flag);
    let raiser = raise_soon();
    let mut list = MoveList::new();
    let listed = budget.run(|| rules.legal_moves(&rules.initial(), &[], &mut list));
    raiser.join().unwrap();
    let err = listed.expect_err("the hook never ends");
    assert!(err.to_string().contains("stopped (Ctrl-C)"), "{err}");
    flag.clear();
    let raiser = raise_soon();
    let game = Game::new(Arc::new(rules));
    let counted =
        budget.run(|| gridrules_core::perft::perft_on(&game, 3, 2, &flag, &mut |_, _| {}));
    raiser.join().unwrap();
    assert_eq!(counted, Ok(None));
}

/// A search through per-move hooks ends before the scripts' budget does,
/// and plays a move: by the clock it would otherwise think past a
/// command's 10 s of script time and fail with no move at all.
#[test]
fn a_search_through_hooks_plays_before_the_scripts_budget_ends() {
    use gridrules_core::script::ScriptBudget;
    let rules = Rulebook::from_file(std::path::Path::new("user/misere_hook.toml")).unwrap();
    let pos = rules.initial();
    let soon = std::time::Instant::now() + std::time::Duration::from_millis(2300);
    let chosen = ScriptBudget::until(soon, "the test's budget is spent").run(|| {
        let request = Request::new(
            Level::Hard,
            Budget::Time(std::time::Duration::from_secs(30)),
        );
        choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1))
    });
    let mv = chosen.expect("a move, not the budget's error");
    assert!(mv.is_some());
}

/// The scripts' time budget holds on the worker threads an arena starts:
/// kept per thread, it would leave the hooks of the games played there with
/// none.
#[test]
fn the_script_budget_holds_on_the_threads_an_arena_starts() {
    use gridrules_core::arena::{Match, Player};
    use gridrules_core::script::ScriptBudget;
    let rules = Rulebook::from_file(std::path::Path::new("user/misere_hook.toml")).unwrap();
    let m = Match {
        games: 4,
        seed: 1,
        budgets: [Budget::Playouts(50); 2],
        threads: 2,
        openings: Vec::new(),
    };
    let spent = ScriptBudget::until(std::time::Instant::now(), "the test's budget is spent");
    let played = spent.run(|| {
        m.run(
            &rules,
            &[Player::Random, Player::Random],
            &Interrupt::new(),
            &|_| {},
        )
    });
    let err = played.expect_err("the games ran their hooks past the budget");
    assert!(
        err.to_string()
            .contains("ran out of time: the test's budget is spent"),
        "{err}"
    );
    // The budget is the caller's: once its work ends, this thread has none.
    assert_eq!(ScriptBudget::current(), ScriptBudget::UNLIMITED);
}

#[test]
fn hard_never_wins_into_a_repetition_draw() {
    // In a game, a winning move whose position has occurred twice before
    // is a draw by the repetition rule (M7), whatever it is worth alone.
    let rules = Rulebook::builtin("moving").unwrap();
    let mut checked = 0;
    for pos in reachable(&rules).iter().filter(|p| !p.is_over()) {
        let Solved::Exact(s) = solve(
            At::new(&rules, pos, &[]),
            Duration::from_secs(60),
            &Interrupt::new(),
        )
        .unwrap() else {
            panic!("moving is small")
        };
        let winning = matches!(s.value, Value::Win { side, .. } if side == pos.turn());
        if !winning || s.moves.len() < 2 {
            continue;
        }
        // The quickest win's position, as if seen twice already (a win in
        // one ends the game before any repetition).
        let first = rules.play(pos, &[], s.moves[0]).unwrap();
        if first.is_over() {
            continue;
        }
        let keys = [first.key(), first.key(), pos.key()];
        for seed in 0..3 {
            let mv = choose(
                At::new(&rules, pos, &[]).after(&keys),
                Request::new(Level::Hard, BUDGET),
                &mut Rng::new(seed),
            )
            .unwrap()
            .unwrap();
            assert_ne!(
                mv,
                s.moves[0],
                "{}: {} repeats a position for the third time",
                rules.position_text(pos),
                rules.move_text(mv)
            );
            assert!(
                s.moves.contains(&mv),
                "{}: another win",
                rules.position_text(pos)
            );
        }
        checked += 1;
        if checked == 40 {
            break;
        }
    }
    assert!(
        checked >= 10,
        "only {checked} positions with two winning moves"
    );
}

#[test]
fn a_rulebook_sets_the_computers_budget() {
    // `[table] ai_playouts` is the budget the table gives the computer.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../rules/classic.toml"
    ))
    .unwrap()
    .replacen("[table]\n", "[table]\nai_playouts = 500\n", 1);
    let rules = Rulebook::from_str_at(&text, "budget.toml", None).unwrap();
    assert_eq!(rules.table().ai_playouts, 500);
    let default = Rulebook::builtin("classic").unwrap();
    assert_eq!(
        default.table().ai_playouts,
        gridrules_core::table::DEFAULT_AI_PLAYOUTS
    );
}

/// T4's strength claim for five-in-a-row games: hard beats medium in at
/// least 95 % of games. A strength figure, so it runs only when asked:
/// `cargo test --release -p gridrules-conformance --test ai -- --ignored`
/// (a few minutes). At 20 000 playouts a move rather than the rulebooks'
/// second a move, so that it ends in minutes: the stronger budget only
/// widens the gap.
#[test]
#[ignore]
fn on_five_in_a_row_boards_hard_beats_medium_in_95_percent_of_games() {
    use gridrules_core::arena::{Match, Player};
    let players = [
        Player::Computer(Level::Hard),
        Player::Computer(Level::Medium),
    ];
    for name in ["gomoku", "gomoku-swap", "pente", "connect6"] {
        let rules = Rulebook::builtin(name).unwrap();
        let m = Match {
            games: 40,
            seed: 1,
            budgets: [Budget::Playouts(20_000); 2],
            threads: 2,
            openings: Vec::new(),
        };
        let tally = m.run(&rules, &players, &Interrupt::new(), &|_| {}).unwrap();
        assert!(tally.score() >= 0.95, "{name}: {tally:?}");
    }
}

/// A player program from `tests/players/`.
fn program(name: &str) -> gridrules_core::arena::Player {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("players")
        .join(name);
    gridrules_core::arena::Player::Program(path, Vec::new())
}

#[test]
fn a_program_plays_arena_games_over_the_line_protocol() {
    use gridrules_core::arena::{Match, Player};
    let rules = Rulebook::builtin("classic").unwrap();
    let m = Match {
        games: 4,
        seed: 1,
        budgets: [BUDGET; 2],
        threads: 2,
        openings: Vec::new(),
    };
    let players = [Player::Computer(Level::Hard), program("first-legal.sh")];
    let tally = m.run(&rules, &players, &Interrupt::new(), &|_| {}).unwrap();
    // Hard never loses at 3×3, and the first legal move every time is no
    // defence: hard wins every game.
    assert_eq!((tally.wins, tally.draws, tally.losses), (4, 0, 0));
}

#[test]
fn a_program_that_answers_wrong_or_not_at_all_stops_the_match_with_its_name() {
    use gridrules_core::arena::{Match, MatchError, Player};
    let rules = Rulebook::builtin("classic").unwrap();
    for (name, budget, expected) in [
        (
            "nonsense.sh",
            BUDGET,
            "answered `zz99`, which is not a legal move",
        ),
        (
            "silent.sh",
            Budget::Time(Duration::from_millis(300)),
            "no answer within 0.3 s",
        ),
        (
            "chatty.sh",
            Budget::Time(Duration::from_millis(300)),
            "no answer within 0.3 s",
        ),
        ("missing.sh", BUDGET, "cannot start"),
    ] {
        let m = Match {
            games: 2,
            seed: 1,
            budgets: [BUDGET, budget],
            threads: 1,
            openings: Vec::new(),
        };
        let players = [Player::Random, program(name)];
        match m.run(&rules, &players, &Interrupt::new(), &|_| {}) {
            Err(MatchError::Program {
                player, message, ..
            }) => {
                assert!(player.ends_with(name), "{player}");
                assert!(message.contains(expected), "{name}: {message}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Ctrl-C while a program thinks stops the match as it stops a level: no
/// failure of the program's (which Ctrl-C reaches too), the games finished
/// counted, and no wait for the program's whole time.
#[test]
fn ctrl_c_while_a_program_thinks_stops_the_match_and_blames_no_one() {
    use gridrules_core::arena::{Match, Player};
    let rules = Rulebook::builtin("classic").unwrap();
    let m = Match {
        games: 2,
        seed: 1,
        budgets: [BUDGET, Budget::Time(Duration::from_secs(120))],
        threads: 1,
        openings: Vec::new(),
    };
    let players = [Player::Random, program("silent.sh")];
    let stop = Interrupt::new();
    let raiser = stop.clone();
    let pressed = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        raiser.raise();
    });
    let started = std::time::Instant::now();
    let kept = m.run_kept(&rules, &players, &stop, &|_| {});
    pressed.join().unwrap();
    // Not the program's 120 s: the wait looked at Ctrl-C.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert!(kept.failed.is_none(), "{:?}", kept.failed);
    assert!(kept.tally.stopped, "{:?}", kept.tally);
    assert_eq!(kept.tally.games(), 0, "{:?}", kept.tally);
}

/// Vanishing (VA1, VA2): a line counts after the oldest mark has gone, so
/// a threat through a side's oldest mark is no threat. Every level takes a
/// win in one; medium and hard stop a loss in one and ignore the threats
/// that vanish; solve gives the value derived without the engine
/// (`tests/perft/derive/vanishing_solve.py`).
#[test]
fn vanishing_wins_blocks_and_solves_with_the_oldest_mark_gone() {
    let rules = Rulebook::builtin("vanishing").unwrap();
    // X's c3 is oldest: a1 makes the bottom row with b1 and c1.
    let win = "O1X/1OO/1XX X - - c3,b1,c1/a3,b2,c2";
    // O threatens a2 (its oldest, c3, is not in that row); O's a1 would make
    // c3 vanish and is no threat, nor is X's own a1 (b1 would vanish).
    let block = "X1O/1OO/1XX X - - b1,a3,c1/c3,b2,c2";
    for seed in 0..8 {
        for level in Level::ALL {
            assert_eq!(
                chosen(&rules, win, level, seed),
                "a1",
                "{level} seed {seed}: the win"
            );
        }
        for level in [Level::Medium, Level::Hard] {
            assert_eq!(
                chosen(&rules, block, level, seed),
                "a2",
                "{level} seed {seed}: the block"
            );
        }
    }
    assert_eq!(
        value(&rules, &rules.initial()),
        Value::Win {
            side: Side::X,
            plies: 13
        }
    );
}

#[test]
fn at_vanishing_hard_beats_medium_in_75_percent_of_games() {
    let rules = Rulebook::builtin("vanishing").unwrap();
    hard_scores_against_medium(&rules, 40, 20_000, 0.75);
}

/// Pop Out (PO1, PO2): the win is a pop, judged on the whole board — X's
/// pop of d1 makes four for both sides, which wins for the mover. Every
/// level takes it; medium and hard drop into d against O's three on the
/// bottom row (easy plays at random there); hard beats medium.
#[test]
fn at_popout_every_level_pops_for_the_win_medium_blocks_and_hard_beats_medium() {
    let rules = Rulebook::builtin("popout").unwrap();
    for seed in 0..4 {
        for level in Level::ALL {
            let win = chosen(&rules, "7/7/7/3X3/XXXO3/OOOX2O X - -", level, seed);
            assert_eq!(win, "^d", "{level} seed {seed}: the win");
        }
        for level in [Level::Medium, Level::Hard] {
            let block = chosen(&rules, "7/7/7/7/XXX4/OOO4 X - -", level, seed);
            assert_eq!(block, "d1", "{level} seed {seed}: the block");
        }
    }
    hard_scores_against_medium(&rules, 20, 5_000, 0.75);
}

/// Quixo (QX1, QX2): every level takes a win in one (a push that
/// completes the bottom row, and no five for O beside it); with O's four on
/// the bottom row, medium and hard push a column up into it, so that no
/// reply of O makes five (easy plays at random there); hard beats medium.
#[test]
fn at_quixo_every_level_pushes_for_the_win_stops_the_loss_and_hard_beats_medium() {
    let rules = Rulebook::builtin("quixo").unwrap();
    takes_the_win_and_stops_the_loss(&rules, "5/5/5/OO3/XXXX1 X", "5/5/5/X4/OOOO1 X", 4);
    hard_scores_against_medium(&rules, 20, 5_000, 0.75);
}

/// In `win` (X to move), every level takes a win in one; in `threat` (X
/// to move, O threatening a win in one), medium and hard play a move after
/// which O has no win in one, or that wins at once (easy plays at random
/// there). `threat` must leave X a choice that matters. `seeds` per level.
fn takes_the_win_and_stops_the_loss(rules: &Rulebook, win: &str, threat: &str, seeds: u64) {
    let after = |pos: &Position, mv: Move| rules.play(pos, &[], mv).unwrap();
    let win = rules.parse_position(win).unwrap();
    let threat = rules.parse_position(threat).unwrap();
    // Whether O, to move in `pos`, has a move that wins.
    let o_wins_next = |pos: &Position| {
        legal(rules, pos)
            .into_iter()
            .any(|mv| after(pos, mv).outcome() == Some(Outcome::Win(Side::O)))
    };
    let safe = |mv: Move| {
        let p = after(&threat, mv);
        p.outcome() == Some(Outcome::Win(Side::X)) || (p.outcome().is_none() && !o_wins_next(&p))
    };
    let moves = legal(rules, &threat);
    assert!(
        moves.iter().any(|&mv| safe(mv)) && moves.iter().any(|&mv| !safe(mv)),
        "{}: the test position must leave X a choice that matters",
        rules.name()
    );
    for level in Level::ALL {
        for seed in 0..seeds {
            let mv = pick(rules, &win, level, seed);
            assert_eq!(
                after(&win, mv).outcome(),
                Some(Outcome::Win(Side::X)),
                "{} {level} seed {seed}: {}",
                rules.name(),
                rules.move_text(mv)
            );
            if level != Level::Easy {
                let mv = pick(rules, &threat, level, seed);
                assert!(
                    safe(mv),
                    "{} {level} seed {seed}: {}",
                    rules.name(),
                    rules.move_text(mv)
                );
            }
        }
    }
}

/// Plays `games` of hard against medium on `rules` (seed 1, `playouts` a
/// move each, two threads) and asserts that hard scores at least `share`.
fn hard_scores_against_medium(rules: &Rulebook, games: u32, playouts: u32, share: f64) {
    use gridrules_core::arena::{Match, Player};
    let players = [
        Player::Computer(Level::Hard),
        Player::Computer(Level::Medium),
    ];
    let m = Match {
        games,
        seed: 1,
        budgets: [Budget::Playouts(playouts); 2],
        threads: 2,
        openings: Vec::new(),
    };
    let tally = m.run(rules, &players, &Interrupt::new(), &|_| {}).unwrap();
    assert!(tally.score() >= share, "{}: {tally:?}", rules.name());
}

/// Pentago (PG1–PG3): every level takes a win in one (a placement that
/// makes five at once, no quadrant turned); against O's four on the bottom
/// row, medium and hard leave O no win in one, by a mark or by a turn
/// (easy plays at random there); hard beats medium.
#[test]
fn at_pentago_every_level_takes_the_win_stops_the_loss_and_hard_beats_medium() {
    let rules = Rulebook::builtin("pentago").unwrap();
    let (win, threat) = ("OOOO2/4X1/2O3/1X4/2O3/1XXXX1 X", "XX4/XX4/6/6/6/OOOO2 X");
    takes_the_win_and_stops_the_loss(&rules, win, threat, 4);
    hard_scores_against_medium(&rules, 20, 5_000, 0.75);
}

/// Nine men's morris (NM1–NM3): every level takes a win in one (a mill
/// that leaves O two pieces); medium and hard stop a loss in one (O, down
/// to three, flies into a mill that would leave X two pieces).
#[test]
fn at_nine_mens_morris_every_level_takes_the_win_and_stops_the_loss() {
    let rules = Rulebook::builtin("nine-mens-morris").unwrap();
    // X to move with O on three: d6-d7 or a7-a4 makes a mill and wins.
    let win = "X1X/1X1/3/1XX3/3/O2/OO1 X 0,0 -";
    // X has three; O (three, flying) threatens a mill at g1 from anywhere.
    // X must block g1 by flying there (it has no mill of its own to make).
    let threat = "X2/2O/1X1/6/1X1/3/OO1 X 0,0 -";
    takes_the_win_and_stops_the_loss(&rules, win, threat, 3);
}

/// 3×3×3 (CB1): every level takes a win in one (c1 completes a1 b1 c1);
/// medium and hard block O's; the first move never takes the closed
/// centre, and the solver proves the start exactly — O wins, by taking the
/// centre X may not.
#[test]
fn at_cube3_every_level_takes_the_win_stops_the_loss_and_keeps_off_the_centre() {
    let rules = Rulebook::builtin("cube3").unwrap();
    let (win, threat) = ("3O5/6O2/XX7 X", "3X5/6X2/OO7 X");
    takes_the_win_and_stops_the_loss(&rules, win, threat, 4);
    let start = rules.initial();
    for level in Level::ALL {
        for seed in 0..4 {
            let mv = pick(&rules, &start, level, seed);
            assert_ne!(rules.move_text(mv), "e2", "{level} seed {seed}");
        }
    }
    let game = Game::new(Arc::new(rules));
    let solved = solve(&game, Duration::from_secs(60), &Interrupt::new());
    let Ok(Solved::Exact(solution)) = solved else {
        panic!("cube3 is solved exactly: {solved:?}");
    };
    assert_eq!(
        solution.value,
        Value::Win {
            side: Side::O,
            plies: 10
        }
    );
}

/// The arena claim for nine men's morris: hard beats medium in at least
/// 75 % of games. Random morris games are long and run on the general
/// path, so it runs only when asked (`-- --ignored`, a few minutes).
#[test]
#[ignore]
fn at_nine_mens_morris_hard_beats_medium() {
    let rules = Rulebook::builtin("nine-mens-morris").unwrap();
    hard_scores_against_medium(&rules, 10, 5_000, 0.75);
}

/// Renju (RJ1–RJ2): every level takes exactly five (i3) and medium and
/// hard block O's four; no level, over a few seeds, ever chooses a move
/// forbidden to X in the hand-built and densest positions of the
/// independent enumeration (`tests/renju/forbidden.txt`); hard beats
/// medium.
#[test]
fn at_renju_no_level_plays_a_forbidden_move_and_hard_beats_medium() {
    let rules = Rulebook::builtin("renju").unwrap();
    let (win, threat) = (
        "15/15/15/15/15/15/8X6/3O1XX8/7XX6/7XX6/8X6/8X6/15/15/O1O1O1O1O1O1O1O X",
        "15/15/15/10X4/15/9X5/15/7X7/15/15/OOOO11/15/15/12X2/15 X",
    );
    takes_the_win_and_stops_the_loss(&rules, win, threat, 2);
    let text = std::fs::read_to_string("renju/forbidden.txt").unwrap();
    let mut positions: Vec<(usize, &str)> = text
        .lines()
        .map(|l| {
            let forbidden = l.split(" | ").skip(1).take(3);
            let n = forbidden
                .flat_map(|f| f.split(' ').skip(1))
                .filter(|c| *c != "-")
                .count();
            (n, l.split(" | ").next().unwrap())
        })
        .collect();
    // The 21 built by hand, then the 20 random ones with most forbidden cells.
    let (hand, random) = positions.split_at_mut(21);
    random.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
    let chosen = hand.iter().chain(&random[..20]);
    for &(_, setup) in chosen {
        let pos = rules.parse_position(setup).unwrap();
        for level in Level::ALL {
            let mv = pick(&rules, &pos, level, 1);
            assert!(
                rules.check(&pos, &[], mv).is_ok(),
                "{level} chose {} in {setup}",
                rules.move_text(mv)
            );
        }
    }
    hard_scores_against_medium(&rules, 8, 3_000, 0.75);
}

/// Gobblet Gobblers (GB1–GB2): every level takes a win in one (a piece
/// from hand that completes the bottom row); against O's two on the top
/// row, medium and hard leave O no win in one — a large piece on c3, or a
/// cover of a3 or b3 — where a smaller piece there would be covered (easy
/// plays at random there); hard beats medium.
#[test]
fn at_gobblet_gobblers_every_level_takes_the_win_stops_the_loss_and_hard_beats_medium() {
    let rules = Rulebook::builtin("gobblet-gobblers").unwrap();
    let (win, threat) = ("3/OSOM1/XSXM1 X", "OSOM1/2XS/XM2 X");
    takes_the_win_and_stops_the_loss(&rules, win, threat, 4);
    hard_scores_against_medium(&rules, 20, 5_000, 0.75);
}

/// Whether the side to move in `pos` forces a win within `plies` of its
/// own and its opponent's moves (1, 3, 5, …), by the rules alone.
fn forces_win(rules: &Rulebook, pos: &Position, plies: u32) -> bool {
    let me = pos.turn();
    legal(rules, pos).into_iter().any(|mv| {
        let next = rules.play(pos, &[], mv).unwrap();
        match next.outcome() {
            Some(o) => o == Outcome::Win(me),
            None => plies > 1 && every_reply_loses(rules, &next, plies - 1),
        }
    })
}

/// Whether every move of the side to move in `pos` leaves its opponent a
/// win within `plies - 1`.
fn every_reply_loses(rules: &Rulebook, pos: &Position, plies: u32) -> bool {
    let me = pos.turn();
    legal(rules, pos).into_iter().all(|mv| {
        let next = rules.play(pos, &[], mv).unwrap();
        match next.outcome() {
            Some(o) => o == Outcome::Win(me.other()),
            None => forces_win(rules, &next, plies - 1),
        }
    })
}

/// Gobblet Gobblers: wherever the side to move forces a win within three
/// plies (a win now, or a move after which every reply loses at once),
/// hard plays a move that keeps it, in positions along random games.
#[test]
fn at_gobblet_gobblers_hard_never_misses_a_forced_win() {
    let rules = Rulebook::builtin("gobblet-gobblers").unwrap();
    let mut found = 0;
    for seed in 0..60 {
        let mut rng = Rng::new(seed);
        let mut pos = rules.initial();
        while !pos.is_over() {
            if forces_win(&rules, &pos, 3) {
                found += 1;
                let mv = pick(&rules, &pos, Level::Hard, seed);
                let next = rules.play(&pos, &[], mv).unwrap();
                let kept = next.outcome() == Some(Outcome::Win(pos.turn()))
                    || (next.outcome().is_none() && every_reply_loses(&rules, &next, 2));
                assert!(
                    kept,
                    "{} {}: {}",
                    rules.position_text(&pos),
                    seed,
                    rules.move_text(mv)
                );
            }
            let moves = legal(&rules, &pos);
            let mv = moves[rng.below(moves.len())];
            pos = rules.play(&pos, &[], mv).unwrap();
        }
    }
    assert!(found >= 60, "only {found} positions with a forced win");
}
