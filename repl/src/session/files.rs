//! Game records and session transcripts on disk.

use super::{Session, rulebook_ref};
use crate::error::CommandError;
use crate::reply::Reply;
use gridrules_core::record;
use gridrules_core::{Move, Rulebook, Side};
use std::path::{Path, PathBuf};

impl Session {
    /// The rulebook as a record at `record` names it (see [`rulebook_seen_from`]).
    fn rulebook_for(&self, record: &Path) -> String {
        rulebook_seen_from(&self.rulebook_name, record)
    }

    pub(super) fn save(&mut self, path: &Path, force: bool) -> Result<Reply, CommandError> {
        // What `open` reads back; a new name without an extension gets it
        // (an existing file, such as a device, is refused as it is named).
        let named;
        let path = match path.extension() {
            // `save games/` names a folder, not a file to write.
            _ if path
                .as_os_str()
                .to_string_lossy()
                .ends_with(std::path::is_separator) =>
            {
                return Err(CommandError::NotARecordFile(path.to_path_buf()));
            }
            // `.toml` alone is a hidden file with no extension: it would
            // have been saved as `.toml.toml`.
            None if path.file_name().is_some_and(|n| n == ".toml") => {
                return Err(CommandError::NotARecordFile(path.to_path_buf()));
            }
            None if !path.exists() => {
                named = path.with_extension("toml");
                named.as_path()
            }
            Some(e) if e == "toml" => path,
            _ => return Err(CommandError::NotARecordFile(path.to_path_buf())),
        };
        let real = std::fs::canonicalize(path).ok();
        let terms = record::Terms {
            x: self.seats.given_name(Side::X).map(str::to_string),
            o: self.seats.given_name(Side::O).map(str::to_string),
            pie: self.pie,
            clock: self.clock.limit,
        };
        let text = record::to_text(&self.game, &self.rulebook_for(path), &terms);
        // Read only from a regular file: opening a FIFO to read would wait
        // for a writer forever (the write refuses anything else). A record
        // that already holds this very text is this game's (a transcript
        // replayed where it was recorded saves it again).
        let other_game = real
            .as_ref()
            .is_some_and(|r| !self.record_files.contains(r))
            && gridrules_core::files::is_game_record(path)
            && std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str());
        if other_game && !force {
            return Err(CommandError::OtherGame(path.to_path_buf()));
        }
        record::write(path, &text, record::HEADER, force)?;
        self.kept = Some(self.game.moves().to_vec());
        // A new file has a name the system gives it only once written.
        if let Some(real) = real.or_else(|| std::fs::canonicalize(path).ok())
            && !self.record_files.contains(&real)
        {
            self.record_files.push(real);
        }
        Ok(Reply::Lines(vec![format!("saved: {}", path.display())]))
    }

    pub(super) fn open(&mut self, path: &Path) -> Result<Reply, CommandError> {
        // As `save` names it: `open game` reads game.toml where there is no
        // file `game` (it answered "did you mean `game.toml`?"), and where
        // neither is there says that game.toml is not (it said that a
        // record is a .toml file).
        let named = path.with_extension("toml");
        let path = if path.extension().is_none() && !path.exists() {
            named.as_path()
        } else {
            path
        };
        let opened = record::open(path)?;
        // The record names a rulebook file from its own directory.
        self.rulebook_name = if Rulebook::is_builtin(&opened.rulebook) {
            opened.rulebook
        } else {
            let dir = path.parent().unwrap_or(Path::new(""));
            rulebook_ref(&dir.join(&opened.rulebook))
        };
        self.clock.limit = opened.terms.clock;
        let swaps = opened
            .game
            .moves()
            .iter()
            .filter(|&&m| m == Move::Swap)
            .count();
        self.pie = opened.terms.pie;
        // The seats take the record's marks and names before the computer
        // may move; a finished game from a file is not scored here.
        // The record's moves, not the computer's reply to them.
        let kept = opened.game.moves().to_vec();
        let mut reply = self.start_seated(opened.game, false, |seats| {
            seats.opened_with_swaps(swaps as u32);
            seats.set_names_by_side(opened.terms.x, opened.terms.o);
        });
        if let Ok(Reply::NewGame { opened, .. }) = &mut reply {
            *opened = Some((path.display().to_string(), kept.len()));
        }
        self.kept = Some(kept);
        self.record_files = std::fs::canonicalize(path).into_iter().collect();
        reply
    }

    /// Writes the transcript so far to `path`, and keeps it up to date
    /// after every command until `record off`.
    pub(super) fn record(&mut self, path: &Path, force: bool) -> Result<Reply, CommandError> {
        let was = self.transcript.record(path, force)?;
        let mut lines = vec![format!(
            "recording: {} ({} lines so far); every command is added until `record off`",
            path.display(),
            self.transcript.lines().len()
        )];
        if let Some(was) = was.filter(|w| w != path) {
            lines.push(format!("({} is no longer recorded)", was.display()));
        }
        Ok(Reply::Lines(lines))
    }

    pub(super) fn record_off(&mut self) -> Result<Reply, CommandError> {
        let Some(path) = self.transcript.stop() else {
            return Err(CommandError::NotRecording);
        };
        Ok(Reply::Lines(vec![format!(
            "recorded: {} ({} lines); recording stopped",
            path.display(),
            self.transcript.lines().len()
        )]))
    }
}

/// The rulebook `name` (a built-in's name, or a file's canonical path) as
/// a record at `record` names it: a built-in by name, a file by its path
/// from the record's directory (so a folder of games and rulebooks can
/// move as a whole).
pub(super) fn rulebook_seen_from(name: &str, record: &Path) -> String {
    if Rulebook::is_builtin(name) {
        return name.to_string();
    }
    let dir = record
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::canonicalize(dir)
        .ok()
        .map(|d| relative(Path::new(name), &d).display().to_string())
        .unwrap_or_else(|| name.to_string())
}

/// `path` as seen from `dir` (both absolute): up to their common part, then down.
fn relative(path: &Path, dir: &Path) -> PathBuf {
    let (p, d): (Vec<_>, Vec<_>) = (path.components().collect(), dir.components().collect());
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    out
}
