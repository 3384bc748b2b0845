//! The rulebook a brain plays: a built-in or a file, fitted to the
//! manager's board size and overline rule, and checked to be a game the
//! protocol can describe.

use super::RuleKey;
use gridrules_core::gomocup;
use gridrules_core::mechanics::LineEnds;
use gridrules_core::{Rulebook, Side, builtin, files};
use std::path::{Path, PathBuf};

/// Where the rulebook text comes from.
#[derive(Debug, Clone)]
enum Source {
    Builtin(&'static str),
    File(PathBuf),
}

/// The rulebook named by `rules` (built-in or file) on a `w`×`h` board,
/// with overlines losing their win when `exact`: the rulebook as it is
/// when it fits, else its text with `[board]` (and the boolean `overline`
/// param) replaced. It must be a game the protocol can describe.
///
/// # Errors
/// Why it cannot be played: what the loader says of the size, or what
/// the rulebook lacks.
pub fn make_rulebook(rules: &str, (w, h, exact, caro): RuleKey) -> Result<Rulebook, String> {
    let path = Path::new(rules);
    let source = if let Some(name) = Rulebook::builtin_names().find(|n| *n == rules) {
        Source::Builtin(name)
    } else if rules.ends_with(".toml") || path.exists() {
        Source::File(path.to_path_buf())
    } else {
        return Err(format!("no rulebook `{rules}`"));
    };
    let (text, shown, dir) = match &source {
        Source::Builtin(name) => (
            builtin::rulebook(name).unwrap_or_default().to_string(),
            format!("rules/{name}.toml"),
            None,
        ),
        // Read as `load` and `--rules` read one: only a regular `.toml`
        // file of at most 1 MiB (a FIFO would block, `/dev/zero` never end).
        Source::File(path) => (
            files::read(path, files::RULEBOOK)
                .map_err(|e| format!("{}: cannot read the rulebook: {e}", path.display()))?,
            path.display().to_string(),
            Some(path.parent().map(Path::to_path_buf).unwrap_or_default()),
        ),
    };
    // The first problem is the one to fix first (the line it is written
    // on escapes whatever it quotes).
    let first_problem = |e: gridrules_core::RulebookError| {
        e.problems
            .first()
            .map(ToString::to_string)
            .unwrap_or_default()
    };
    let base = Rulebook::from_str_at(&text, &shown, dir.clone()).map_err(first_problem)?;
    let fits_size = base.grid().width() == w && base.grid().height() == h;
    // Per-side line rules (renju's) are the rulebook's own: no param sets them.
    let fits_rule = base.mechanics().sided_wins() || overline_fits(&base, exact);
    let fits_ends = ends_fit(&base, caro);
    let rulebook = if fits_size && fits_rule && fits_ends {
        base
    } else {
        let rule = Rule {
            exact: (!fits_rule).then_some(exact),
            caro: (!fits_ends).then_some(caro),
        };
        let derived = resized(&text, &base, w, h, rule)?;
        Rulebook::from_str_at(&derived, &format!("{shown} ({w}×{h})"), dir)
            .map_err(first_problem)?
    };
    // The manager runs the openings: no pie rule at this table.
    let mut table = rulebook.table().clone();
    table.pie = false;
    let rulebook = rulebook.with_table(table);
    playable(&rulebook)?;
    if !ends_fit(&rulebook, caro) {
        return Err(format!(
            "rulebook `{}` cannot be played with{} Caro's rule",
            rulebook.name(),
            if caro { "" } else { "out" }
        ));
    }
    if !rulebook.mechanics().sided_wins() && !overline_fits(&rulebook, exact) {
        return Err(format!(
            "rulebook `{}` cannot be played with{} exactly five",
            rulebook.name(),
            if exact { "" } else { "out" }
        ));
    }
    Ok(rulebook)
}

/// Whether a run one longer than the rulebook's `k` wins as the rule says:
/// not with "exactly five", yes without.
fn overline_fits(rules: &Rulebook, exact: bool) -> bool {
    let t = rules.mechanics();
    [Side::X, Side::O]
        .into_iter()
        .all(|side| t.wins_run(side, t.min_run() + 1) != exact)
}

/// Whether a run blocked at both ends wins as Caro's rule (`caro`) says.
fn ends_fit(rules: &Rulebook, caro: bool) -> bool {
    (rules.mechanics().line_ends() == LineEnds::NotBothBlocked) == caro
}

/// The script that plays the same game with Caro's rule and without.
const CARO_SCRIPTS: [(&str, &str); 1] = [("k_in_a_row.rhai", "caro.rhai")];

/// What a rulebook's text is changed to: `Some` where the rule differs.
struct Rule {
    /// Exactly five (the `overline` param set to its opposite).
    exact: Option<bool>,
    /// Caro's rule (the script swapped for its twin in [`CARO_SCRIPTS`]).
    caro: Option<bool>,
}

/// The rulebook text with the board `w`×`h`, the rule changed as `rule`
/// says, a name that says so, and no `[[example]]`s (they are `check`'s,
/// written for the original board).
fn resized(text: &str, base: &Rulebook, w: u32, h: u32, rule: Rule) -> Result<String, String> {
    let Rule { exact, caro } = rule;
    let mut doc: toml::Table = text.parse().map_err(|e| format!("{e}"))?;
    let board = doc
        .entry("board")
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let Some(board) = board.as_table_mut() else {
        return Err("its `board` is not a table".to_string());
    };
    board.insert("width".into(), toml::Value::Integer(w.into()));
    board.insert("height".into(), toml::Value::Integer(h.into()));
    let mut name = format!("{}-{w}x{h}", base.name());
    if let Some(exact) = exact {
        let overline = doc
            .get_mut("params")
            .and_then(|p| p.get_mut("overline"))
            .filter(|v| v.is_bool());
        let Some(overline) = overline else {
            return Err(format!(
                "rulebook `{}` has no boolean `overline` param to play {} exactly five",
                base.name(),
                if exact { "with" } else { "without" }
            ));
        };
        *overline = toml::Value::Boolean(!exact);
        if exact {
            name.push_str("-exact");
        }
    }
    if let Some(caro) = caro {
        let script = doc
            .get("script")
            .and_then(toml::Value::as_str)
            .unwrap_or("");
        let twin = CARO_SCRIPTS.iter().find_map(|&(plain, ends)| match caro {
            true if script == plain => Some(ends),
            false if script == ends => Some(plain),
            _ => None,
        });
        let Some(twin) = twin else {
            return Err(format!(
                "rulebook `{}` cannot be played with{} Caro's rule (a five blocked at both ends does not win): its script is not one of {}",
                base.name(),
                if caro { "" } else { "out" },
                CARO_SCRIPTS
                    .iter()
                    .map(|(a, b)| format!("`{a}`, `{b}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        };
        doc.insert("script".into(), toml::Value::String(twin.to_string()));
        if caro {
            name.push_str("-caro");
        }
    }
    doc.insert("name".into(), toml::Value::String(name));
    doc.remove("example");
    toml::to_string(&doc).map_err(|e| e.to_string())
}

/// Whether the protocol can describe the rulebook's game
/// ([`gomocup::lacks`]).
fn playable(rules: &Rulebook) -> Result<(), String> {
    match gomocup::lacks(rules) {
        Some(what) => Err(format!(
            "rulebook `{}` is not a gomoku-like game: the protocol needs {what}",
            rules.name()
        )),
        None => Ok(()),
    }
}
