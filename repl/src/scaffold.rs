//! `new-variant`: a new rulebook, its script and a transcript, written side
//! by side, that pass `check` as written. The blank template's comments show
//! where each kind of rule goes; the lists in them (hooks, refusal keys,
//! `expect` kinds) come from the registries that loading uses, so they
//! cannot drift from what the engine accepts.

use crate::layout::wrap;
use gridrules_core::check::{self, Checked};
use gridrules_core::rulebook::EXPECT_KINDS;
use gridrules_core::rules::REFUSAL_KEYS;
use gridrules_core::script::hooks::{HOOKS, HookId, HookKind};
use gridrules_core::suggest::with_hint;
use gridrules_core::{Rulebook, RulebookError};
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why `new-variant` wrote nothing.
#[derive(Debug)]
#[non_exhaustive]
pub enum ScaffoldError {
    /// The name breaks the rulebook name rule. Holds the name.
    BadName(String),
    /// The name is a built-in's, which `new <name>` would load instead.
    Builtin(String),
    /// `--from` names neither a built-in nor a rulebook file: the word, and
    /// the message (with the list and the nearest name).
    UnknownFrom(String),
    /// The rulebook `--from` names does not load.
    From(RulebookError),
    /// Files at the paths to write: nothing was replaced. Holds them.
    Exists(Vec<PathBuf>),
    /// The system refused: what was being done, and why.
    Io(String, io::Error),
    /// The files written did not load on their own (a copied script that
    /// imports files beside the original): they were removed again.
    Unloadable(RulebookError),
}

impl fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScaffoldError::BadName(name) => {
                write!(
                    f,
                    "new-variant: name `{name}`: a rulebook's name is lower-case letters, digits and `-`, not starting with `-`"
                )?;
                // A name written otherwise (`My_Game`): the one meant.
                let meant: String = name
                    .trim_end_matches(".toml")
                    .chars()
                    .map(|c| match c {
                        '_' | ' ' => '-',
                        c => c.to_ascii_lowercase(),
                    })
                    .collect::<String>()
                    .trim_start_matches('-')
                    .to_string();
                if meant != *name && Rulebook::is_valid_name(&meant) {
                    return write!(f, ": did you mean `{meant}`?");
                }
                // A path where the name goes: say how to write both.
                let path = std::path::Path::new(name);
                match (path.parent(), path.file_name().and_then(|n| n.to_str())) {
                    (Some(dir), Some(last)) if !dir.as_os_str().is_empty() => {
                        let last = last.trim_end_matches(".toml");
                        write!(
                            f,
                            " (for files in a folder, `--dir {} {last}`)",
                            dir.display()
                        )
                    }
                    _ => Ok(()),
                }
            }
            ScaffoldError::Builtin(name) => write!(
                f,
                "new-variant: `{name}` is a built-in rulebook, which `new {name}` would load: choose another name (`--from {name}` starts from it)"
            ),
            ScaffoldError::UnknownFrom(message) => write!(f, "new-variant: {message}"),
            ScaffoldError::From(e) => write!(f, "new-variant: --from: {e}"),
            ScaffoldError::Exists(paths) => {
                let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "new-variant: {} already {}: nothing was written (choose another name or --dir)",
                    shown.join(", "),
                    if paths.len() == 1 { "exists" } else { "exist" }
                )
            }
            ScaffoldError::Io(what, e) => write!(f, "new-variant: {what}: {e}"),
            ScaffoldError::Unloadable(e) => write!(
                f,
                "new-variant: the copy does not load on its own, so nothing was kept (does its script import files beside the original?): {e}"
            ),
        }
    }
}

impl std::error::Error for ScaffoldError {}

/// What `new-variant` wrote.
#[derive(Debug)]
pub struct Written {
    /// The rulebook, script and transcript, in that order.
    pub files: Vec<PathBuf>,
    /// The rulebook as loaded from the files written.
    pub rulebook: Arc<Rulebook>,
    /// Its examples, run.
    pub checked: Vec<Checked>,
}

/// The three files of a new variant, as text, before they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    /// `<name>.toml`.
    pub rulebook: String,
    /// `<name>.rhai`.
    pub script: String,
    /// `<name>.txt`, a batch-mode transcript.
    pub transcript: String,
}

/// Writes the variant `name` into `dir`: the blank template, or a copy of
/// the rulebook `from` names (a built-in, or a rulebook file) renamed to
/// `name`. Refused, it leaves nothing behind; written, the files load and
/// their examples have run.
///
/// # Errors
/// A bad name, an unknown `--from`, files already there, a source that
/// does not load, or the system refusing.
pub fn new_variant(name: &str, from: Option<&str>, dir: &Path) -> Result<Written, ScaffoldError> {
    if !Rulebook::is_valid_name(name) {
        return Err(ScaffoldError::BadName(name.to_string()));
    }
    if Rulebook::is_builtin(name) {
        return Err(ScaffoldError::Builtin(name.to_string()));
    }
    let files = match from {
        None => blank(name),
        Some(source) => copied(name, source)?,
    };
    let paths: Vec<PathBuf> = ["toml", "rhai", "txt"]
        .iter()
        .map(|ext| dir.join(format!("{name}.{ext}")))
        .collect();
    // Every path is checked before any is written: a refusal writes nothing.
    // (`symlink_metadata`: a dangling link counts as a file in the way.)
    let taken: Vec<PathBuf> = paths
        .iter()
        .filter(|p| fs::symlink_metadata(p).is_ok())
        .cloned()
        .collect();
    if !taken.is_empty() {
        return Err(ScaffoldError::Exists(taken));
    }
    let made_dir = if dir.as_os_str().is_empty() || dir.exists() {
        None
    } else {
        fs::create_dir(dir)
            .map_err(|e| ScaffoldError::Io(format!("cannot create {}", dir.display()), e))?;
        Some(dir.to_path_buf())
    };
    let mut written = Vec::new();
    let texts = [&files.rulebook, &files.script, &files.transcript];
    for (path, text) in paths.iter().zip(texts) {
        if let Err(e) = create(path, text) {
            // Whatever was created, `create` included, goes again.
            let _ = fs::remove_file(path);
            undo(&written, made_dir.as_deref());
            return Err(ScaffoldError::Io(
                format!("cannot write {}", path.display()),
                e,
            ));
        }
        written.push(path.clone());
    }
    match Rulebook::from_file(&paths[0]) {
        Ok(rulebook) => {
            let rulebook = Arc::new(rulebook);
            let checked = check::run(&rulebook);
            Ok(Written {
                files: paths,
                rulebook,
                checked,
            })
        }
        Err(e) => {
            undo(&written, made_dir.as_deref());
            Err(ScaffoldError::Unloadable(e))
        }
    }
}

/// Writes a new file (never over one that appeared meanwhile).
fn create(path: &Path, text: &str) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// Removes the files a refused `new-variant` wrote, and the directory it made.
fn undo(written: &[PathBuf], made_dir: Option<&Path>) {
    for path in written {
        let _ = fs::remove_file(path);
    }
    if let Some(dir) = made_dir {
        let _ = fs::remove_dir(dir);
    }
}

/// The rule IDs of a new variant: the initials of its name's words
/// (`my-game` → `MG`), at most three, so the examples can cite `MG1`.
pub fn rule_prefix(name: &str) -> String {
    let initials: String = name
        .split('-')
        .filter_map(|w| w.chars().next())
        .filter(char::is_ascii_lowercase)
        .take(3)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if initials.is_empty() {
        "R".to_string()
    } else {
        initials
    }
}

/// The blank template for `name`: three in a row on 3×3, with a comment at
/// each place a kind of rule goes.
pub fn blank(name: &str) -> Files {
    let p = rule_prefix(name);
    Files {
        rulebook: blank_rulebook(name, &p),
        script: blank_script(name),
        transcript: blank_transcript(name, &p),
    }
}

/// The refusal kinds the blank rulebook does not word, as comment lines.
fn other_refusals() -> String {
    let other: Vec<&str> = REFUSAL_KEYS
        .iter()
        .copied()
        .filter(|k| !["occupied", "off_board", "game_over"].contains(k))
        .collect();
    let mut list = String::new();
    for line in wrap(&other.join(", "), 70) {
        list.push_str(&format!("#   {line}\n"));
    }
    list
}

/// Every `[refusals]` placeholder but `{grid}` (which every kind fills
/// in), as comment lines.
fn placeholder_list() -> String {
    let all: Vec<&str> = (gridrules_core::refusal::REFUSAL_PLACEHOLDERS
        .iter()
        .copied())
    .filter(|p| *p != "{grid}")
    .collect();
    wrap(&all.join(" "), 70)
        .into_iter()
        .map(|line| format!("#   {line}\n"))
        .collect()
}

/// The blank rulebook for `name`, its rules numbered after prefix `p`.
///
/// Implementation note: one template, kept whole so that it reads as the
/// file it writes.
fn blank_rulebook(name: &str, p: &str) -> String {
    let refusal_list = other_refusals();
    let placeholders = placeholder_list();
    let expect_kinds = EXPECT_KINDS.join(" ");
    let ai_playouts = gridrules_core::table::DEFAULT_AI_PLAYOUTS;
    format!(
        r#"# {name}.toml: a gridrules rulebook, written by `gridrules new-variant`.
# Check it:  gridrules check {name}.toml       (runs the [[example]]s below)
# Play it:   gridrules --rules {name}.toml     (or `load {name}.toml` at the REPL)
# Every key is in docs/reference.md, "The rulebook file"; a misspelt key is refused
# at load with the nearest valid one.

# The name `new`, `variants` and the prompt show: lower-case letters, digits, `-`.
name = "{name}"
# One line for `variants` and `rules`.
title = "{name}: three in a row on 3×3"
# The Rhai script with the hooks (the rules that are code): a file next to
# this one, or a built-in script such as "k_in_a_row.rhai".
script = "{name}.rhai"
# The rules in words, printed by `rules`. Give each rule an ID ({p}1, {p}2, …)
# that the examples below and your transcripts cite.
description = """
The board is 3×3 and empty at the start; a move puts the mover's mark on an \
empty cell ({p}1). Three marks in a row, column or diagonal win at once ({p}2). \
A full board without a line is a draw ({p}3)."""

# The board: columns (1–26) and rows (1–99), at most 704 cells.
# `layers = N` draws it as N layers side by side (a 4×4×4 cube is 16×4, 4 layers).
[board]
width = 3
height = 3

# Free parameters for the script: each key becomes an upper-case constant
# there (k -> K). Integers, booleans, strings, or arrays of them.
[params]
k = 3

# Options for play at the table, each shown at its default: delete what you
# do not change.
[table]
clock = 0                   # seconds per move; 0 for no clock
clock_options = []          # the limits `clock` may choose; [] for any
alternate = true            # `again` passes X to the other seat
pie = false                 # the pie rule: O may answer the first move with `swap`
ai_playouts = {ai_playouts:<14}# the computer's budget, playouts a search tree
timeout_move = "random"     # a timed-out move: "random" or "near" the marks

# How a refused move is worded, by kind, so that it names the rule it breaks.
# Placeholders, each kind its own (docs/reference.md, "[refusals]", says which):
{placeholders}# every kind fills in {{grid}}, the board's size (3×3).
# The other kinds (the engine's own words until you give some):
{refusal_list}# A script's refuse(state, move) hook gives its own reasons.
[refusals]
occupied = "{{cell}} is taken: a mark goes on an empty cell ({p}1)"
off_board = "{{text}} is off the board: it is {{grid}} ({p}1)"
game_over = "the game is over ({{result}}): no move is accepted after the result ({p}2)"

# Documented examples: `gridrules check` plays each one and compares.
#   rule    the ID of the rule it shows (a test names it)
#   setup   optional: a position text to start from (see `position`)
#   moves   the moves, in order
#   expect  a line starting with one of: {expect_kinds}
#           (a result by a line is written without its cells; `refused:` wants
#           the last move refused with a reason containing the text)
[[example]]
rule = "{p}1"
text = "the board is 3×3 and empty at the start"
expect = "legal: a1 b1 c1 a2 b2 c2 a3 b3 c3"

[[example]]
rule = "{p}1"
text = "an occupied cell cannot be chosen"
moves = "b2 b2"
expect = "refused: b2 is taken"

[[example]]
rule = "{p}2"
text = "three in a row wins at once"
moves = "a1 a2 b1 b2 c1"
expect = "result: X wins"

[[example]]
rule = "{p}2"
text = "after the result no move is accepted"
moves = "a1 a2 b1 b2 c1 c3"
expect = "refused: the game is over"

[[example]]
rule = "{p}3"
text = "a full board without a line is a draw"
moves = "b2 a1 c3 a3 a2 c2 b3 b1 c1"
expect = "result: draw — no cell left to play"
"#
    )
}

/// The blank script for `name`: the hooks the template defines, and every
/// other hook listed in a comment with its signature and doc.
fn blank_script(name: &str) -> String {
    let mut optional = String::new();
    for h in HOOKS.iter().filter(|h| !TEMPLATE_HOOKS.contains(&h.id)) {
        let kind = match h.kind {
            HookKind::Load => "load",
            HookKind::PerMove => "per move, slower",
        };
        optional.push_str(&format!("//\n// fn {}  ({kind})\n", h.signature()));
        for line in wrap(h.doc, 72) {
            optional.push_str(&format!("//     {line}\n"));
        }
    }
    format!(
        r#"//! {name}: K in a row (param `k`), written by `gridrules new-variant`.
//!
//! The rules that are code live here, as hooks: functions with fixed names
//! that the engine calls. Load-time hooks run once, when the rulebook loads,
//! and are compiled into tables, so they cost nothing during play; per-move
//! hooks see the live game on every move and are slower (`bench` shows it).
//! Cells are numbers `row * WIDTH + col` from a1 = 0, or names like "b2".
//! Each [params] key is a constant here (k -> K); WIDTH and HEIGHT are too.
//! Modules every script may call: lines::, regions::, movement::, gravity::,
//! captures:: (docs/reference.md, "Functions a script can call").

/// Required (load): every line a run may lie along, each an array of cells
/// in order: here every row, column and diagonal of K or more cells.
fn lines() {{
    lines::straight(K)
}}

/// Required (load): whether an unbroken run of `run` like marks along a
/// line completes it. `run >= K` lets longer runs win too; `run == K` is
/// "exactly K".
fn wins(run) {{
    run >= K
}}

/// Optional (load): what happens when the side to move has no legal move
/// (here, a full board): "draw" (the default), "loss", "win", "X wins" or
/// "O wins".
fn no_moves() {{
    "draw"
}}

// The other hooks are optional: define one to use it. docs/reference.md's
// "Hooks" table says more about each, and in what order they apply after a move.
{optional}"#
    )
}

/// The transcript for `name`: X wins along the bottom row (rule `p`2).
fn blank_transcript(name: &str, p: &str) -> String {
    format!(
        "# rulebook: {name}\n\
         # covers: {p}2\n\
         # X completes the bottom row and wins; afterwards no move is accepted.\n\
         # Replay it: gridrules --rules {name}.toml --batch < {name}.txt\n\
         # It names no rulebook, so `--rules` replays it against any copy (a\n\
         # broken one too). In the test suite: tests/transcripts/{name}/, with\n\
         # the rulebook in tests/variants/ and a first line `load variants/{name}.toml`.\n\
         a1\na2\nb1\nb2\nc1\nstatus\nc3\n"
    )
}

/// The hooks the blank script defines; the others are listed in a comment.
const TEMPLATE_HOOKS: &[HookId] = &[HookId::Lines, HookId::Wins, HookId::NoMoves];

/// The rulebook `source` names (a built-in, or a rulebook file), its
/// script copied beside it, both renamed to `name`.
fn copied(name: &str, source: &str) -> Result<Files, ScaffoldError> {
    let path = Path::new(source);
    let (text, rulebook) = if Rulebook::is_builtin(source) {
        let text = gridrules_core::builtin::rulebook(source).unwrap_or_default();
        (
            text.to_string(),
            Rulebook::builtin(source).map_err(ScaffoldError::From)?,
        )
    } else if source.ends_with(".toml") || path.exists() {
        let rulebook = Rulebook::from_file(path).map_err(ScaffoldError::From)?;
        let text = gridrules_core::files::read(path, gridrules_core::files::RULEBOOK)
            .map_err(|e| ScaffoldError::Io(format!("cannot read {source}"), e))?;
        (text, rulebook)
    } else {
        let names: Vec<&str> = Rulebook::builtin_names().collect();
        return Err(ScaffoldError::UnknownFrom(with_hint(
            format!(
                "--from `{source}`: no built-in rulebook or rulebook file of that name (built-ins: {})",
                names.join(", ")
            ),
            source,
            names.iter().copied(),
        )));
    };
    let renamed_text = renamed(&text, name, &format!("{name}.rhai")).ok_or_else(|| {
        ScaffoldError::UnknownFrom(format!(
            "--from `{source}`: its top-level `name` and `script` keys were not found to rename"
        ))
    })?;
    let header = format!(
        "# {name}.toml: started from `{}` by `gridrules new-variant --from {source}`.\n\
         # Check it: gridrules check {name}.toml\n",
        rulebook.name()
    );
    Ok(Files {
        rulebook: header + renamed_text.as_str(),
        script: rulebook.script().text().to_string(),
        transcript: copied_transcript(name, &rulebook),
    })
}

/// `text` with its top-level `name` and `script` keys set to `name` and
/// `script`; `None` unless both were found. Top-level keys come before the
/// first `[section]`; lines inside a multi-line string are left alone.
pub fn renamed(text: &str, name: &str, script: &str) -> Option<String> {
    let mut out = String::new();
    let (mut found_name, mut found_script) = (false, false);
    let mut in_string = false;
    let mut top = true;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let mut replaced = None;
        if !in_string && top {
            if trimmed.starts_with('[') {
                top = false;
            } else if let Some((key, _)) = trimmed.split_once('=') {
                match key.trim() {
                    "name" if !found_name => {
                        found_name = true;
                        replaced = Some(format!("name = \"{name}\""));
                    }
                    "script" if !found_script => {
                        found_script = true;
                        replaced = Some(format!("script = \"{script}\""));
                    }
                    _ => {}
                }
            }
        }
        // An odd number of `"""` (or `'''`) opens or closes a multi-line string.
        if (line.matches("\"\"\"").count() + line.matches("'''").count()) % 2 == 1 {
            in_string = !in_string;
        }
        out.push_str(replaced.as_deref().unwrap_or(line));
        out.push('\n');
    }
    (found_name && found_script).then_some(out)
}

/// A transcript for a copied rulebook: the moves of its first example that
/// ends in a status line (else its first that is played, not refused; else
/// its first with moves), then `status`.
fn copied_transcript(name: &str, rulebook: &Rulebook) -> String {
    let plain = |e: &&gridrules_core::rulebook::Example| e.setup.is_none() && !e.moves.is_empty();
    let example = rulebook
        .examples()
        .iter()
        .filter(plain)
        .find(|e| e.expect.starts_with("result:") || e.expect.starts_with("to move:"))
        .or_else(|| {
            (rulebook.examples().iter().filter(plain)).find(|e| !e.expect.starts_with("refused:"))
        })
        .or_else(|| rulebook.examples().iter().find(plain));
    let mut text = format!("# rulebook: {name}\n");
    match example {
        Some(e) => {
            // The example's words stay in the comment, however many lines
            // they take: a line of them would be a command in the replay.
            let words = e.text.replace('\n', "\n#   ");
            text.push_str(&format!("# covers: {}\n# {words}\n", e.rule));
        }
        None => text.push_str("# covers: (the IDs of the rules this shows)\n"),
    }
    text.push_str(&format!(
        "# Replay it: gridrules --rules {name}.toml --batch < {name}.txt\n# It names no rulebook, so `--rules` replays it against any copy.\n"
    ));
    if let Some(e) = example {
        for mv in e.moves.split_whitespace() {
            text.push_str(mv);
            text.push('\n');
        }
    }
    text.push_str("status\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_prefixes_are_the_initials() {
        assert_eq!(rule_prefix("my-game"), "MG");
        assert_eq!(rule_prefix("tic"), "T");
        assert_eq!(rule_prefix("a-b-c-d"), "ABC");
        assert_eq!(rule_prefix("3d"), "R");
    }

    #[test]
    fn renaming_touches_only_the_top_level_keys() {
        let text = "name = \"classic\"\ndescription = \"\"\"\nname = in prose\n\"\"\"\nscript = \"k.rhai\" # built in\n[x]\nname = 1\n";
        assert_eq!(
            renamed(text, "mine", "mine.rhai").as_deref(),
            Some(
                "name = \"mine\"\ndescription = \"\"\"\nname = in prose\n\"\"\"\nscript = \"mine.rhai\"\n[x]\nname = 1\n"
            )
        );
        assert_eq!(renamed("[board]\nname = \"x\"\n", "m", "m.rhai"), None);
    }
}
