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
