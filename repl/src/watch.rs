//! `gridrules check --watch <file.toml>`: the check again whenever the
//! rulebook or its script changes, until Ctrl-C (which ends the process:
//! nothing is left half done between runs).
//!
//! Implementation note: it polls modification times rather than asking the
//! system for events; a check takes milliseconds and a poll is a `stat` or
//! two, so a new dependency (and its platform cases) buys nothing here.

use crate::batch;
use crate::edge;
use crate::render::Style;
use crate::session::{Session, Setting};
use gridrules_core::{Rulebook, RulebookError};
use std::collections::BTreeSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How often the files are looked at.
pub const POLL: Duration = Duration::from_millis(300);

/// The files a check of `rulebook` read: the rulebook, its script and the
/// modules it imports from files (when it loaded), and every file its
/// errors point at (a script or module that did not compile). A built-in
/// script or module has no file, and is left out.
fn watched(rulebook: &Path) -> BTreeSet<PathBuf> {
    let mut files = BTreeSet::from([rulebook.to_path_buf()]);
    match Rulebook::from_file(rulebook) {
        Ok(r) => {
            files.insert(PathBuf::from(r.script().path()));
            files.extend(r.script().module_paths().into_iter().map(PathBuf::from));
        }
        Err(RulebookError { problems, .. }) => {
            files.extend(
                problems
                    .iter()
                    .filter_map(|p| p.location.as_ref())
                    .map(|l| PathBuf::from(&l.path)),
            );
        }
    }
    // The script the rulebook names stays watched even while it is missing
    // (an editor or `git checkout` may delete and write it again): its
    // return counts, as the rulebook's does.
    let named = named_script(rulebook);
    // The modules it imports too, read from its text: a rulebook that does
    // not load (a module's hook refused at load) lists none, and a fix
    // there must still be seen.
    if let Some(script) = &named {
        files.extend(imported(script));
    }
    files.retain(|f| f == rulebook || Some(f) == named.as_ref() || f.is_file());
    files.extend(named);
    files
}

/// The module files beside `script` that its `import "name"` lines name.
fn imported(script: &Path) -> Vec<PathBuf> {
    let Ok(text) = gridrules_core::files::read(script, gridrules_core::files::SCRIPT) else {
        return Vec::new();
    };
    let dir = script.parent().unwrap_or(Path::new(""));
    text.split("import")
        .skip(1)
        .filter_map(|rest| {
            let name = rest.trim_start().strip_prefix('"')?.split('"').next()?;
            // The file the engine reads for it, not a guess of our own.
            Some(dir.join(gridrules_core::script::module_file(name)))
        })
        .collect()
}

/// The script file the rulebook's `script` key names beside it, read from
/// the TOML alone (it is wanted when the rulebook does not load).
fn named_script(rulebook: &Path) -> Option<PathBuf> {
    // Read as any rulebook is: a FIFO here would hang the watch.
    let text = gridrules_core::files::read(rulebook, gridrules_core::files::RULEBOOK).ok()?;
    let table: toml::Table = text.parse().ok()?;
    let name = table.get("script")?.as_str()?;
    let path = rulebook.parent().unwrap_or(Path::new("")).join(name);
    // A built-in script's bare name (`lines`) is no file.
    path.extension()
        .is_some_and(|e| e == "rhai")
        .then_some(path)
}

/// The modification times of `files` (`None` for one that is gone).
fn stamps(files: &BTreeSet<PathBuf>) -> Vec<Option<SystemTime>> {
    files
        .iter()
        .map(|f| std::fs::metadata(f).and_then(|m| m.modified()).ok())
        .collect()
}

/// Runs the check of `rulebook`, and again after each change, writing to
/// `out` until the process ends.
///
/// # Errors
/// A failure to write the output.
pub fn run(rulebook: &Path, out: &mut impl Write) -> io::Result<()> {
    let classic = Rulebook::builtin("classic").map_err(|e| io::Error::other(e.to_string()))?;
    let mut session = Session::new(classic, "classic", Setting::Batch);
    let line = format!("check {}", rulebook.display());
    loop {
        let files = watched(rulebook);
        let before = stamps(&files);
        out.write_all(
            batch::step(&mut session, &line, Style::BATCH)
                .text
                .as_bytes(),
        )?;
        let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        // File names are content: through the edge as all output.
        let watching = format!(
            "watching {} for changes (Ctrl-C stops)",
            names.join(" and ")
        );
        writeln!(out, "{}", edge::finish(&watching, false))?;
        out.flush()?;
        while stamps(&files) == before {
            std::thread::sleep(POLL);
        }
        // An editor may write a file in steps: let it finish.
        std::thread::sleep(POLL);
        writeln!(out, "changed: checking again")?;
    }
}

#[cfg(test)]
mod tests {
    use super::imported;

    /// The modules watched are the files the engine reads for them:
    /// `import "x.rhai"` reads `x.rhai.rhai`, and watching `x.rhai` would
    /// watch a file no load reads.
    #[test]
    fn imports_are_watched_where_the_engine_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("game.rhai");
        std::fs::write(
            &script,
            "import \"helpers\" as h;\nimport \"more.rhai\" as m;\nfn wins(run) { run >= 3 }\n",
        )
        .unwrap();
        assert_eq!(
            imported(&script),
            [
                dir.path().join("helpers.rhai"),
                dir.path().join("more.rhai.rhai")
            ]
        );
    }
}
