//! A user's own rulebook loads from a path, imports the built-in modules and a
//! module of its own, and its per-move hooks take part in play.

use gridrules_core::{Ending, Game, MoveList, Outcome, PlayError, Refusal, Rulebook, Side};
use std::path::Path;
use std::sync::Arc;

fn nocentre() -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("user/nocentre.toml");
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn refuse_hook_removes_moves_and_gives_its_reason() {
    let rules = nocentre();
    assert!(rules.has_per_move_hooks());
    let mut list = MoveList::new();
    rules.legal_moves(&rules.initial(), &mut list).unwrap();
    let legal: Vec<String> = list.iter().map(|&m| rules.move_text(m)).collect();
    assert_eq!(legal.join(" "), "a1 b1 c1 a2 c2 a3 b3 c3");
    let mut game = Game::new(rules.clone());
    let err = game.play(game.parse_move("b2").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "the first move may not take the centre");
    assert!(matches!(
        err,
        PlayError::Refused {
            refusal: Refusal::Script(_),
            ..
        }
    ));
    assert!(game.moves().is_empty());
    game.play(game.parse_move("a1").unwrap()).unwrap();
    game.play(game.parse_move("b2").unwrap())
        .expect("the centre is open after the first move");
}

#[test]
fn outcome_hook_ends_the_game() {
    let rules = nocentre();
    let mut game = Game::new(rules.clone());
    for mv in ["a1", "b1", "c1", "a2", "a3", "b2", "c3"] {
        game.play(game.parse_move(mv).unwrap()).unwrap();
    }
    assert_eq!(
        game.position().ending(),
        Some((Outcome::Win(Side::X), Ending::Script))
    );
}

#[test]
fn the_same_rules_without_hooks_take_the_fast_path() {
    let classic = Rulebook::builtin("classic").unwrap();
    assert!(!classic.has_per_move_hooks());
}

/// A rulebook of `tests/user/`, loaded from its path.
fn user(file: &str) -> Arc<Rulebook> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("user")
        .join(file);
    Arc::new(Rulebook::from_file(&path).unwrap_or_else(|e| panic!("{e}")))
}

/// Plays `moves` (space-separated), each of which must be accepted.
fn play_all(game: &mut Game, moves: &str) {
    for mv in moves.split_whitespace() {
        let parsed = game.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        game.play(parsed)
            .unwrap_or_else(|e| panic!("{mv} should be played: {e}"));
    }
}

#[test]
fn outcome_hook_alone_decides_a_misere_line() {
    let rules = user("misere_hook.toml");
    assert!(rules.has_per_move_hooks());
    // X completes the a-file on its third mark and loses.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a1 b1 a2 b2");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "a3");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::O), Ending::Script)));
    // O completes a row and loses.
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "a3 a1 b3 b1 c2 c1");
    assert_eq!(game.ending(), Some((Outcome::Win(Side::X), Ending::Script)));
}

#[test]
fn outcome_hook_decides_the_move_that_fills_the_board() {
    let rules = user("misere_hook.toml");
    let mut game = Game::new(rules.clone());
    // X: a1 c1 b2 b3, O: b1 a2 c2 a3, no three in a row for either side.
    play_all(&mut game, "a1 b1 c1 a2 b2 c2 b3 a3");
    assert_eq!(game.ending(), None, "no line after eight moves");
    // The ninth mark fills the board and makes X's diagonal a1-b2-c3: the
    // hook runs before the no-legal-move rule, so X loses instead of a draw.
    play_all(&mut game, "c3");
    assert_eq!(game.position().marks(Side::X).count(), 5);
    assert_eq!(game.ending(), Some((Outcome::Win(Side::O), Ending::Script)));
}

#[test]
fn a_full_board_the_hook_leaves_alone_is_still_a_draw() {
    let rules = user("misere_hook.toml");
    let mut game = Game::new(rules.clone());
    play_all(&mut game, "b2 a1 c3 a3 a2 c2 b3 b1 c1");
    assert_eq!(game.ending(), Some((Outcome::Draw, Ending::Full)));
}

#[test]
fn hooks_see_move_count_and_last_move() {
    let rules = user("watch.toml");
    rules.script().take_output();
    let mut game = Game::new(rules.clone());
    let refusal = |game: &mut Game| {
        game.play(game.parse_move("c3").unwrap())
            .unwrap_err()
            .to_string()
    };

    // At the start: no move played, no last move.
    assert_eq!(
        refusal(&mut game),
        "c3 is closed (move_count 0, last_move ())"
    );
    play_all(&mut game, "a1");
    assert_eq!(
        refusal(&mut game),
        "c3 is closed (move_count 1, last_move a1 (to 0, from (), mark X, step false))"
    );
    // Six placements, then X steps c1-c2 and O steps b2-b3: the eighth move
    // reaches the limit and the hook draws the game.
    play_all(&mut game, "b2 a2 a3 c1 b1");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "c1-c2");
    assert_eq!(game.ending(), None);
    play_all(&mut game, "b2-b3");
    assert_eq!(game.ending(), Some((Outcome::Draw, Ending::Script)));
    assert_eq!(
        rules.script().take_output(),
        [
            "move_count 1, last_move a1 (to 0, from (), mark X, step false)",
            "move_count 2, last_move b2 (to 4, from (), mark O, step false)",
            "move_count 3, last_move a2 (to 3, from (), mark X, step false)",
            "move_count 4, last_move a3 (to 6, from (), mark O, step false)",
            "move_count 5, last_move c1 (to 2, from (), mark X, step false)",
            "move_count 6, last_move b1 (to 1, from (), mark O, step false)",
            "move_count 7, last_move c1-c2 (to 5, from 2, mark X, step true)",
            "move_count 8, last_move b2-b3 (to 7, from 4, mark O, step true)",
        ]
    );
}

#[test]
fn a_set_up_position_counts_its_marks_and_has_no_last_move() {
    let rules = user("watch.toml");
    let start = rules.parse_position("3/1O1/X2 X 2,2").unwrap();
    let mut game = Game::from_position(rules.clone(), start);
    let err = game.play(game.parse_move("c3").unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "c3 is closed (move_count 2, last_move ())");
    rules.script().take_output();
    play_all(&mut game, "c1");
    assert_eq!(
        rules.script().take_output(),
        ["move_count 3, last_move c1 (to 2, from (), mark X, step false)"]
    );
}
