//! The session's transcript: the commands that changed or showed the
//! session, which batch mode replays, and the file `record` keeps up to
//! date with them.

use gridrules_core::record::{self, RecordError};
use gridrules_core::{Problem, ProblemKind};
use std::path::{Path, PathBuf};

/// The first line of every transcript `record` writes.
const HEADER: &str = "# gridrules session transcript";

/// The transcript so far, and the file being recorded, if any.
#[derive(Debug)]
pub(super) struct Transcript {
    lines: Vec<String>,
    /// The file kept up to date, until `record off`.
    recording: Option<PathBuf>,
    /// The files recorded in this session, as the system names them: the
    /// lines they hold are all among `lines`, so they are rewritten
    /// without loss; a transcript of another session is not.
    recorded: Vec<PathBuf>,
}

impl Transcript {
    /// A transcript that starts with `lines`, recorded nowhere.
    pub(super) fn new(lines: Vec<String>) -> Transcript {
        Transcript {
            lines,
            recording: None,
            recorded: Vec::new(),
        }
    }

    /// The lines so far (without the file's header).
    pub(super) fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Adds a line, and writes the file being recorded.
    ///
    /// # Errors
    /// The file could not be written: the recording has stopped.
    pub(super) fn push(&mut self, line: String) -> Result<(), RecordError> {
        self.lines.push(line);
        if let Some(path) = &self.recording
            && let Err(e) = write(path, &self.lines, true)
        {
            self.recording = None;
            return Err(e);
        }
        Ok(())
    }

    /// Replaces the last line (a command that turned out otherwise than
    /// its text says), and writes the file being recorded.
    ///
    /// # Errors
    /// As [`Transcript::push`].
    pub(super) fn amend_last(&mut self, line: String) -> Result<(), RecordError> {
        self.lines.pop();
        self.push(line)
    }

    /// Writes the lines so far to `path` and keeps it up to date from now
    /// on; returns the file recorded before, if any.
    ///
    /// # Errors
    /// The file could not be written (or `force` is off and the file is not
    /// one gridrules wrote): nothing changes.
    pub(super) fn record(
        &mut self,
        path: &Path,
        force: bool,
    ) -> Result<Option<PathBuf>, RecordError> {
        let real = std::fs::canonicalize(path).ok();
        if let Some(real) = &real
            && !force
            && !self.recorded.contains(real)
            && is_transcript(real)
        {
            return Err(Problem::bare(
                ProblemKind::Io,
                format!(
                    "{}: cannot write: the file holds the transcript of another session: choose another name, or add `--force` to replace it",
                    path.display()
                ),
            )
            .into());
        }
        write(path, &self.lines, force)?;
        if let Some(real) = real.or_else(|| std::fs::canonicalize(path).ok()) {
            self.recorded.push(real);
        }
        Ok(self.recording.replace(path.to_path_buf()))
    }

    /// Whether a file is kept up to date with the lines.
    pub(super) fn is_recording(&self) -> bool {
        self.recording.is_some()
    }

    /// Stops recording; returns the file that was recorded, if any.
    pub(super) fn stop(&mut self) -> Option<PathBuf> {
        self.recording.take()
    }
}

/// Whether the file at `path` holds a session transcript.
fn is_transcript(path: &Path) -> bool {
    gridrules_core::files::first_line(path).is_ok_and(|l| l.starts_with(HEADER))
}

/// Writes a session transcript, with the header that says how to replay it.
fn write(path: &Path, lines: &[String], force: bool) -> Result<(), RecordError> {
    let mut text = format!("{HEADER}: replay it with `gridrules --batch < FILE`\n");
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    record::write(path, &text, HEADER, force)
}
