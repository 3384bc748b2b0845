//! Game records and session transcripts on disk.

use super::{CommandError, Reply, Session};
use gridrules_core::Side;
use gridrules_core::record;
use std::path::Path;

impl Session {
    pub(super) fn save(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let table = record::Table {
            x: self.seats.name(Side::X).to_string(),
            o: self.seats.name(Side::O).to_string(),
            clock: self.clock.limit,
        };
        let text = record::to_text(&self.game, &self.rulebook_name, &table);
        record::write_atomic(path, &text)?;
        Ok(Reply::Lines(vec![format!("saved: {}", path.display())]))
    }

    pub(super) fn open(&mut self, path: &Path) -> Result<Reply, CommandError> {
        let opened = record::open(path)?;
        self.rulebook_name = opened.rulebook;
        self.clock.limit = opened.table.clock;
        let over = opened.game.ending();
        let reply = self.start(opened.game, false)?;
        self.seats.set_names_by_side(opened.table.x, opened.table.o);
        if let Some((outcome, _)) = over {
            // A finished game from a file is history, not a new result at this table.
            self.seats.unscore(outcome);
        }
        Ok(reply)
    }

    pub(super) fn record(&self, path: &Path) -> Result<Reply, CommandError> {
        let mut text = String::from(
            "# gridrules session transcript: replay it with `gridrules --batch < FILE`\n",
        );
        for line in &self.transcript {
            text.push_str(line);
            text.push('\n');
        }
        record::write_atomic(path, &text)?;
        Ok(Reply::Lines(vec![format!(
            "recorded: {} ({} lines)",
            path.display(),
            self.transcript.len()
        )]))
    }
}
