//! Commands for rulebook authors: `new-variant` writes a new variant's
//! files, `reload` puts an edited rulebook into the game in progress.

use super::Session;
use super::check::checked_lines;
use crate::diagnostic::warning_entry;
use crate::error::CommandError;
use crate::reply::Reply;
use crate::scaffold::{self, ScaffoldError};
use gridrules_core::table::TableRules;
use gridrules_core::{Ending, Game, PlayError, Problem, ProblemKind, Rulebook};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) fn new_variant(
    name: &str,
    from: Option<&str>,
    dir: Option<&str>,
) -> Result<Reply, CommandError> {
    let written =
        scaffold::new_variant(name, from, Path::new(dir.unwrap_or(""))).map_err(|e| match e {
            // A source that does not load is shown as any rulebook error is,
            // with its file, line and column.
            ScaffoldError::From(e) => CommandError::Rulebook(e),
            e => CommandError::Scaffold(e),
        })?;
    let shown: Vec<String> = written
        .files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut lines = vec![format!("new-variant: wrote {}", shown.join(", "))];
    let r = &written.rulebook;
    for w in r.warnings() {
        lines.push(warning_entry(w));
    }
    checked_lines(r, &written.checked, &mut lines);
    // Three short lines, not one of 200 columns: the shell does not wrap
    // them for the reader.
    let (toml, transcript) = (&shown[0], &shown[2]);
    lines.push(format!(
        "next: edit them; `gridrules check --watch {toml}` checks each save"
    ));
    lines.push(format!("play: `gridrules --rules {toml}`"));
    lines.push(format!(
        "replay the transcript: `gridrules --rules {toml} --batch < {transcript}`"
    ));
    Ok(Reply::Lines(lines))
}

/// The game replayed under other rules: as far as it is the same game.
struct Replayed {
    /// The game under the new rules: every move, or those up to the
    /// divergence.
    game: Game,
    /// Where it diverged, in words; `None`: the same game.
    divergence: Option<String>,
    /// The moves kept.
    kept: usize,
}

/// How the status after a move changed, in words, from `old` to `new`
/// (both `status` lines without a line's cells).
fn change(old: &str, new: &str) -> String {
    match (old.strip_prefix("result: "), new.strip_prefix("result: ")) {
        (None, Some(now)) => format!("the game now ends: {now}"),
        (Some(was), None) => format!("the game no longer ends (it was {was}): {new}"),
        (Some(was), Some(now)) => format!("the result is now {now} (was {was})"),
        (None, None) => format!("the turn is now `{new}` (was `{old}`)"),
    }
}

/// Replays `old`'s moves under `rules`, move by move beside the old rules,
/// up to the first move that is refused now or after which the status
/// (result, or who is to move) differs.
///
/// # Errors
/// A per-move hook that fails: the new script is broken, as a load error.
fn replay(old: &Game, rules: &Arc<Rulebook>) -> Result<Replayed, CommandError> {
    let old_rules = old.rulebook();
    let mut then = Game::from_position(old_rules.clone(), *old.start());
    let start = if *old.start() == old_rules.initial() {
        Ok(Game::new(rules.clone()))
    } else {
        // A game that was set up (or opened) starts from its position text,
        // read by the new rules.
        rules
            .parse_position(&old_rules.position_text(old.start()))
            .map(|pos| Game::from_position(rules.clone(), pos))
    };
    let mut now = match start {
        Ok(game) => game,
        Err(e) => {
            return Ok(Replayed {
                game: Game::new(rules.clone()),
                divergence: Some(format!(
                    "the game's set-up start is no position of the new rules ({e}), so the game starts from their initial position"
                )),
                kept: 0,
            });
        }
    };
    let differs = |then: &Game, now: &Game| {
        let (a, b) = (then.status(false), now.status(false));
        (a != b).then(|| change(&a, &b))
    };
    if let Some(what) = differs(&then, &now) {
        return Ok(Replayed {
            game: now,
            divergence: Some(format!("at the start {what}")),
            kept: 0,
        });
    }
    for (i, &mv) in old.moves().iter().enumerate() {
        let n = i + 1;
        let text = old_rules.move_text(mv);
        let played = now.parse_move(&text).and_then(|m| now.play(m).map(|_| ()));
        match played {
            Ok(()) => {}
            // The new script fails on a move the old one played: say which,
            // and that nothing changed.
            Err(e @ PlayError::Script(_)) => {
                return Err(CommandError::Play(
                    format!(
                        "reload: replaying move {n} ({text}), the new rules failed, so nothing changed"
                    ),
                    e,
                ));
            }
            Err(e) => {
                return Ok(Replayed {
                    game: now,
                    divergence: Some(format!("move {n} ({text}) is no longer legal: {e}")),
                    kept: i,
                });
            }
        }
        // The old rules played it before: they play it again.
        then.play(mv)
            .map_err(|e| CommandError::Play(text.clone(), e))?;
        if let Some(what) = differs(&then, &now) {
            return Ok(Replayed {
                game: now,
                divergence: Some(format!("after move {n} {what}")),
                kept: n,
            });
        }
    }
    // A result off the board (a resignation, an agreed draw) stands when
    // every move does.
    match old.ending() {
        Some((_, Ending::Resigned(side))) => {
            let _ = now.resign(side);
        }
        Some((_, Ending::Agreed)) => {
            let _ = now.agree_draw();
        }
        Some((_, Ending::MoveLimit(_))) => {
            let _ = now.draw_at_move_limit();
        }
        _ => {}
    }
    Ok(Replayed {
        game: now,
        divergence: None,
        kept: old.moves().len(),
    })
}

impl Session {
    /// Reads the rulebook file again and replays the game under it.
    ///
    /// Implementation note: when the replay diverges, the game keeps the
    /// moves up to the divergence, under the new rules, and says which were
    /// dropped. Refusing instead would leave the author playing under rules
    /// that are no longer in the file, with no way to keep the moves that
    /// still hold but to type them again; the moves dropped are printed, so
    /// none is lost from sight. A file that does not load, or a script that
    /// fails in the replay, is refused and changes nothing.
    pub(super) fn reload(&mut self) -> Result<Reply, CommandError> {
        let name = self.rulebook_name.clone();
        if Rulebook::is_builtin(&name) {
            return Err(CommandError::BuiltinReload(name));
        }
        let mut rules = Rulebook::from_file(&PathBuf::from(&name)).map_err(|mut e| {
            e.problems.push(Problem::bare(
                ProblemKind::Note,
                "reload: nothing changed: the game goes on under the rules loaded before",
            ));
            e
        })?;
        // The pie rule as chosen at this table holds for the new rules too.
        if let Some(pie) = self.pie {
            let table = TableRules {
                pie,
                ..rules.table().clone()
            };
            rules = rules.with_table(table);
        }
        let rules = Arc::new(rules);
        let replayed = replay(&self.game, &rules)?;
        // The moves `redo` may play again: those `undo` took back, and those
        // the new rules drop, so that a change undone in the file brings
        // them back (they were lost for good).
        // A move is kept as its cells: only where the board names the same
        // cells (a board of another size would read them as others).
        let old = self.rulebook();
        let same_board =
            old.grid() == rules.grid() && old.mechanics().cells() == rules.mechanics().cells();
        let line = match &self.undone {
            _ if !same_board => Vec::new(),
            Some(u) if u.holds(&self.game) => u.line.clone(),
            _ => self.game.moves().to_vec(),
        };
        let mut lines: Vec<String> = rules.warnings().iter().map(warning_entry).collect();
        let texts: Vec<String> = self
            .game
            .moves()
            .iter()
            .map(|&m| self.rulebook().move_text(m))
            .collect();
        let Some(divergence) = replayed.divergence else {
            lines.push(match texts.len() {
                0 => "reload: same game (no move yet), under the rules as the file says now"
                    .to_string(),
                1 => "reload: same game (1 move replayed)".to_string(),
                n => format!("reload: same game ({n} moves replayed)"),
            });
            self.game = replayed.game;
            self.keep_for_redo(&rules, line);
            return Ok(Reply::Lines(lines));
        };
        lines.push(format!("reload: {divergence}"));
        let dropped = &texts[replayed.kept..];
        lines.push(match (replayed.kept, dropped.is_empty()) {
            (_, true) => "reload: every move is kept, under the new rules".to_string(),
            (0, false) => format!(
                "reload: the game starts again under the new rules; dropped: {}",
                dropped.join(" ")
            ),
            (1, false) => format!(
                "reload: the game keeps move 1 under the new rules; dropped: {}",
                dropped.join(" ")
            ),
            (k, false) => format!(
                "reload: the game keeps moves 1–{k} under the new rules; dropped: {}",
                dropped.join(" ")
            ),
        });
        // The game differs: its old result no longer counts, the new one
        // does; an offer and the time of the move start afresh.
        if let Some((outcome, _)) = self.game.ending() {
            self.seats.unscore(outcome);
        }
        self.game = replayed.game;
        if self.keep_for_redo(&rules, line) && !dropped.is_empty() {
            lines.push(
                "reload: `redo` plays the moves dropped again, as the rules allow".to_string(),
            );
        }
        self.offer = None;
        self.clock.restart_turn();
        self.settle();
        let mut played = Vec::new();
        self.computer_replies(&mut played);
        Ok(Reply::Played(lines, played))
    }

    /// Keeps `line` for `redo` under the reloaded `rules` where the game is
    /// on it and it goes further; whether it did.
    fn keep_for_redo(&mut self, rules: &Arc<Rulebook>, line: Vec<gridrules_core::Move>) -> bool {
        self.undone = super::Undone::ahead_of(&self.game, rules, line);
        self.undone.is_some()
    }
}
