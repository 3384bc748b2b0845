//! Rulebooks: a TOML file and the Rhai script it names, validated and compiled.

mod header;
mod schema;
mod sections;

use crate::builtin;
use crate::error::{Problem, ProblemKind, RulebookError, Source};
use crate::geometry::Grid;
pub use crate::mechanics::words::{FullRegion, LineResult, Marks, NoMoves};
pub use crate::mechanics::{Capture, Jump, Mechanics};
use crate::position::Side;
use crate::script::hooks::HookId;
use crate::script::{ScriptHost, ScriptSource};
use crate::table::TableRules;
pub use crate::turns::{TurnPlace, Turns};
pub use sections::{EXPECT_KINDS, Example, is_rule_id};
use sections::{examples, refusal_texts, table_rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A validated, immutable variant: board, script, and the tables compiled from
/// its load-time hooks. Share it with `Arc`; a copy with other table options
/// ([`Rulebook::with_table`]) shares the compiled script.
#[derive(Debug, Clone)]
pub struct Rulebook {
    name: String,
    title: String,
    description: Option<String>,
    path: String,
    grid: Grid,
    layers: u32,
    roles: Option<[String; 2]>,
    params: Vec<(String, String)>,
    table: TableRules,
    pub(crate) refusal_texts: std::collections::BTreeMap<String, String>,
    examples: Vec<Example>,
    /// What the author may have got wrong without breaking the load.
    warnings: Vec<Problem>,
    pub(crate) mechanics: Mechanics,
    pub(crate) script: Arc<ScriptHost>,
    pub(crate) refuse_hook: bool,
    /// Whether a legal move is found by listing the moves: a `refuse` hook,
    /// restrictions by move number (`forbidden()`) or forbidden patterns
    /// filter the board's.
    pub(crate) listed: bool,
    /// Whether a move is a mark on a cell the board lets it fill, and
    /// nothing else: no `refuse` hook, no slides, no twists, no removals.
    /// Kept, as the kernel's answer is: asked on every random move and
    /// every stalemate test, it is one test instead of three.
    pub(crate) plain_placements: bool,
    /// Whether, of those, some cells are restricted by the move number or
    /// by what they make: drawn and judged one cell at a time, not listed.
    pub(crate) judged_placements: bool,
    /// Whether random games run in the playout kernel from the start: its
    /// own answer ([`crate::kernel::eligible`]), kept so that no game asks
    /// again.
    pub(crate) kernel: Option<crate::kernel::Loop>,
    /// Where the opening has rules of its own (the pie rule, restrictions
    /// by move number), the loop that takes over once they are spent, and
    /// from which mark on. Apart from `kernel`: a test of the mark on the
    /// kernel's path cost classic's games 3 % more instructions.
    pub(crate) after_opening: Option<crate::kernel::Kernel>,
    pub(crate) outcome_hook: bool,
    /// The position games start from (`[board] start`), when not the
    /// empty board.
    pub(crate) start: Option<crate::position::Position>,
}

impl Rulebook {
    /// Names of the built-in rulebooks, in order.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        builtin::RULEBOOKS.iter().map(|(n, _)| *n)
    }

    /// Whether `name` is the name of a built-in rulebook.
    pub fn is_builtin(name: &str) -> bool {
        builtin::rulebook(name).is_some()
    }

    /// Whether `name` keeps the rule for a rulebook's name: lower-case
    /// letters, digits and `-`, at least one (`new-variant` checks it too).
    pub fn is_valid_name(name: &str) -> bool {
        header::is_valid_name(name)
    }

    /// Loads the built-in rulebook `name`.
    ///
    /// # Errors
    /// When there is no such built-in (a built-in that fails to load is a bug,
    /// caught by the test suite).
    pub fn builtin(name: &str) -> Result<Rulebook, RulebookError> {
        let text = builtin::rulebook(name).ok_or_else(|| {
            Problem::bare(
                ProblemKind::UnknownRulebook,
                format!(
                    "no built-in rulebook `{name}`: choose one of {}",
                    Rulebook::builtin_names().collect::<Vec<_>>().join(", ")
                ),
            )
            .with_help(crate::suggest::did_you_mean(
                name,
                Rulebook::builtin_names(),
            ))
        })?;
        Rulebook::from_str_at(text, &format!("rules/{name}.toml"), None)
    }

    /// Loads a rulebook file; its script is found next to it, or among the built-ins.
    ///
    /// # Errors
    /// Every problem found, each with `file:line:col` where there is one.
    pub fn from_file(path: &Path) -> Result<Rulebook, RulebookError> {
        let shown = path.display().to_string();
        let text = crate::files::read(path, crate::files::RULEBOOK).map_err(|e| {
            Problem::bare(
                ProblemKind::Io,
                format!("{shown}: cannot read the rulebook: {}", e),
            )
        })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Rulebook::from_str_at(&text, &shown, Some(dir))
    }

    /// Loads a rulebook from its text. `path` is shown in messages; `dir` is
    /// where its script is looked for (`None`: built-in scripts only).
    ///
    /// # Errors
    /// Every problem found, each with `file:line:col` where there is one.
    pub fn from_str_at(
        text: &str,
        path: &str,
        dir: Option<PathBuf>,
    ) -> Result<Rulebook, RulebookError> {
        // However the scripts misbehave, a load ends in bounded time.
        crate::script::ScriptBudget::load().run(|| Rulebook::load(text, path, dir))
    }

    /// [`Rulebook::from_str_at`], within the load's budget.
    fn load(text: &str, path: &str, dir: Option<PathBuf>) -> Result<Rulebook, RulebookError> {
        if crate::files::toml_kind(text) == Some(crate::files::RECORD) {
            return Err(Problem::bare(
                ProblemKind::Toml,
                format!(
                    "{path}: this is a game record, not a rulebook: open it with `open {path}`"
                ),
            )
            .into());
        }
        let source = Source::new(path, text);
        let schema::Parsed {
            raw,
            mut problems,
            reported,
        } = schema::parse(&source);
        let Some(raw) = raw else {
            return Err(RulebookError { problems });
        };
        let header::Header {
            name,
            grid,
            layers,
            roles,
            params,
            shown_params,
        } = header::read(&raw, &source, &reported, &mut problems);
        let (title, script) = (raw.title.clone(), raw.script.clone());
        let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
            Problem::spanned(kind, &source, range, message)
        };
        let table = table_rules(&raw.table, &source, &mut problems);
        let refusal_texts = refusal_texts(&raw.refusals, &source, &mut problems);
        let examples = examples(&raw.examples, &source, &reported, &mut problems);

        let script_source = script.and_then(|name| {
            resolve_script(name.get_ref(), dir.as_deref())
                .map_err(|(kind, message)| problems.push(at(kind, name.span(), message)))
                .ok()
        });

        if !problems.is_empty() {
            problems.sort_by_key(|p| p.snippet.as_ref().map(|s| s.range.start));
            // The script's own problems are found in the same run, where
            // there is a board and a script to compile, and every param
            // (else each refused one would be an undefined name again).
            if let (Some(grid), Some(script_source), true) =
                (grid, script_source, params.len() == raw.params.len())
                && let Err(e) = ScriptHost::new(grid, &params, script_source)
            {
                problems.extend(e.problems);
            }
            return Err(RulebookError { problems });
        }
        // Each is reported as missing when absent, so all are here.
        let (Some(grid), Some(script_source), Some(title)) = (grid, script_source, title) else {
            return Err(Problem::bare(
                ProblemKind::MissingKey,
                format!("{path}: an incomplete rulebook"),
            )
            .into());
        };
        let mut script = ScriptHost::new(grid, &params, script_source)?;
        let mut warnings = warnings(&script, &raw, &source);
        let mechanics = crate::mechanics::build(&script, grid, &shown_params)?;
        warnings.extend(mechanics.warnings.iter().cloned());
        script.names = Arc::new(mechanics.move_names());
        let per_move = script.has_per_move(HookId::Refuse) || script.has_per_move(HookId::Outcome);
        let (kernel, after_opening) = crate::kernel::eligible(&mechanics, table.pie, per_move);
        let placements = !script.has_per_move(HookId::Refuse)
            && !mechanics.has_slides()
            && !mechanics.has_twists()
            && !mechanics.has_stacks()
            && !mechanics.removes();
        let judged = mechanics.has_restrictions() || mechanics.has_any_patterns();
        let mut rulebook = Rulebook {
            name,
            title,
            description: raw.description,
            path: path.to_string(),
            grid,
            layers,
            roles,
            params: shown_params,
            table,
            refusal_texts,
            examples,
            warnings,
            refuse_hook: script.has_per_move(HookId::Refuse),
            listed: script.has_per_move(HookId::Refuse) || judged,
            plain_placements: placements,
            judged_placements: placements && judged,
            outcome_hook: script.has_per_move(HookId::Outcome),
            kernel,
            after_opening,
            start: None,
            mechanics,
            script: Arc::new(script),
        };
        let start = raw.board.as_ref().and_then(|b| b.get_ref().start.as_ref());
        if let Some(start) = start {
            rulebook.start = Some(rulebook.read_start(start, &source)?);
        }
        // A game whose first mover has no move would never begin: `legal`
        // lists nothing and every move is refused (a rule for a side with
        // no move judges only after a move).
        let span = start
            .map(toml::Spanned::span)
            .or(raw.script.as_ref().map(|s| s.span()));
        if let (Some(span), false) = (span, rulebook.has_first_move()) {
            let pos = rulebook.initial();
            return Err(Problem::spanned(
                ProblemKind::BadValue,
                &source,
                span,
                format!(
                    "{} has no legal move at the start{}: the game could never begin{}",
                    pos.turn(),
                    if start.is_some() {
                        " position"
                    } else {
                        " of the empty board"
                    },
                    if rulebook.script.defines(HookId::Forbidden) {
                        " (does `forbidden()` allow nothing?)"
                    } else {
                        ""
                    }
                ),
            )
            .into());
        }
        Ok(rulebook)
    }

    /// Whether the side to move at the start has a legal move. A hook
    /// that fails here is the game's to report, at its first move. Not
    /// asked where a `refuse` hook judges each move: listing them would
    /// call it for every cell at each load, a slow or looping hook's
    /// whole time (it answers at the first move instead).
    fn has_first_move(&self) -> bool {
        if self.refuse_hook {
            return true;
        }
        let pos = self.initial();
        let mut list = crate::position::MoveList::new();
        match self.legal_moves(&pos, &[], &mut list) {
            Ok(()) => !list.is_empty(),
            Err(_) => true,
        }
    }

    /// Reads `[board] start`: a position text the game may start from, or
    /// the problem located at it.
    fn read_start(
        &self,
        start: &toml::Spanned<String>,
        source: &Source,
    ) -> Result<crate::position::Position, RulebookError> {
        let bad = |why: String| -> RulebookError {
            Problem::spanned(
                ProblemKind::BadValue,
                source,
                start.span(),
                format!("board start: {why}"),
            )
            .into()
        };
        let pos = self
            .parse_start(start.get_ref())
            .map_err(|e| bad(e.to_string()))?;
        if let Some(outcome) = pos.outcome() {
            return Err(bad(format!(
                "the game would be over before it starts ({outcome})"
            )));
        }
        Ok(pos)
    }

    /// The position games start from when the rulebook names one
    /// (`[board] start`); `None` for the empty board.
    pub fn start(&self) -> Option<&crate::position::Position> {
        self.start.as_ref()
    }

    /// The rulebook's name (`classic`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The one-line title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The rules in prose, if the rulebook has them.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Where the rulebook came from (`rules/classic.toml` for built-ins).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The board.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Layers the board is drawn as, side by side (`[board] layers`; 1 for a
    /// flat board): a 16×4 board of 4 layers is a 4×4×4 cube.
    pub fn layers(&self) -> u32 {
        self.layers
    }

    /// The role `side` plays, if the rulebook names roles (Order and Chaos).
    pub fn role(&self, side: Side) -> Option<&str> {
        let roles = self.roles.as_ref()?;
        Some(match side {
            Side::X => &roles[0],
            Side::O => &roles[1],
        })
    }

    /// The `[params]`, as written.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The table rules (`[table]`): clock, rematches, the pie rule.
    pub fn table(&self) -> &TableRules {
        &self.table
    }

    /// The same rulebook played under other table rules (the pie rule
    /// chosen at the table, PI1).
    pub fn with_table(&self, table: TableRules) -> Rulebook {
        let (kernel, after_opening) =
            crate::kernel::eligible(&self.mechanics, table.pie, self.has_per_move_hooks());
        Rulebook {
            kernel,
            after_opening,
            table,
            ..self.clone()
        }
    }

    /// The documented examples (`[[example]]`), run by `gridrules check`.
    pub fn examples(&self) -> &[Example] {
        &self.examples
    }

    /// What the author may have got wrong without breaking the load: a
    /// function one slip from a hook, a param the script never reads, an
    /// example of a rule the description does not state.
    pub fn warnings(&self) -> &[Problem] {
        &self.warnings
    }

    /// Whether random games from the start run in the playout kernel (a
    /// loop over the tables) rather than move by move.
    pub fn plays_in_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// The compiled tables.
    pub fn mechanics(&self) -> &Mechanics {
        &self.mechanics
    }

    /// The script host (for hook docs and printed output).
    pub fn script(&self) -> &ScriptHost {
        &self.script
    }

    /// Whether per-move hooks run during play (slower; `bench` shows it).
    pub fn has_per_move_hooks(&self) -> bool {
        self.refuse_hook || self.outcome_hook
    }
}

/// Examples whose rule ID the description does not cite: the description
/// is the rulebook's statement of its rules, and each example pins one.
fn unstated_rules(raw: &schema::RawRulebook, source: &Source) -> Vec<Problem> {
    let description = raw.description.as_deref().unwrap_or_default();
    let cited = |id: &str| {
        description.match_indices(id).any(|(i, _)| {
            let before = description[..i].chars().next_back();
            let after = description[i + id.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    };
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for e in &raw.examples {
        let Some(rule) = &e.get_ref().rule else {
            continue;
        };
        let id = rule.get_ref();
        if !is_rule_id(id) || cited(id) || seen.contains(id) {
            continue;
        }
        seen.push(id.clone());
        let problem = Problem::spanned(
            ProblemKind::UnstatedRule,
            source,
            rule.span(),
            format!("example rule `{id}` is not stated in the description"),
        )
        .with_label("no `({id})` in `description`".replace("{id}", id));
        // A slip for an ID the description does cite (`C33` for `C3`).
        let stated: Vec<&str> = description
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| is_rule_id(w))
            .collect();
        let near = crate::suggest::nearest(id, stated.iter().copied());
        out.push(if let Some(near) = near {
            problem.with_help(Some(format!("did you mean `{near}`?")))
        } else if raw.description.is_none() {
            problem.with_help(Some(
                "add a `description` that states the rules, each with its ID, like `… wins (C3).`"
                    .to_string(),
            ))
        } else {
            problem.with_help(Some(format!(
                "cite it where the description states the rule, like `… ({id})`"
            )))
        });
    }
    out
}

/// What a rulebook that loads is warned of: its script's warnings, params
/// the script never reads, rules left unstated; in file order, the
/// rulebook's before its script's.
fn warnings(script: &ScriptHost, raw: &schema::RawRulebook, source: &Source) -> Vec<Problem> {
    let mut warnings = script.warnings().to_vec();
    for key in raw.params.keys() {
        let constant = key.get_ref().to_uppercase();
        if !script.mentions(&constant) {
            warnings.push(
                Problem::spanned(
                    ProblemKind::UnusedParam,
                    source,
                    key.span(),
                    format!(
                        "param `{}` is not used: the script never reads `{constant}`",
                        key.get_ref()
                    ),
                )
                .with_label("unused"),
            );
        }
    }
    warnings.extend(unstated_rules(raw, source));
    warnings.sort_by_key(|w| {
        let at = w.location.as_ref();
        (
            at.is_none_or(|l| l.path != source.path),
            at.map(|l| (l.line, l.col)),
        )
    });
    warnings
}

/// The script `name` names: beside the rulebook (in `dir`), or built in.
/// The error is a problem's kind and message, for the caller to place.
fn resolve_script(name: &str, dir: Option<&Path>) -> Result<ScriptSource, (ProblemKind, String)> {
    if let Some(dir) = dir {
        let path = dir.join(name);
        match crate::files::read(&path, crate::files::SCRIPT) {
            Ok(text) => {
                return Ok(ScriptSource {
                    path: path.display().to_string(),
                    text: text.into(),
                    dir: Some(dir.to_path_buf()),
                });
            }
            // A bare built-in name (`lines`) is no file name, and fine.
            Err(_) if builtin::script(name).is_some() && !name.ends_with(".rhai") => {}
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                // `mygame.rhia` beside `mygame.rhai`: name the file meant.
                let message = format!("script `{}`: cannot read it: {}", path.display(), e);
                // Not the file itself (unreadable for another reason).
                let beside = scripts_in(dir);
                let near = beside.iter().map(String::as_str).filter(|&n| n != name);
                return Err((
                    ProblemKind::Io,
                    crate::suggest::with_hint(message, name, near),
                ));
            }
            Err(_) => {}
        }
    }
    if let Some(text) = builtin::script(name) {
        let stem = name.strip_suffix(".rhai").unwrap_or(name);
        return Ok(ScriptSource {
            path: format!("scripts/{stem}.rhai"),
            text: text.into(),
            dir: dir.map(Path::to_path_buf),
        });
    }
    // Offered: the scripts of the built-in rulebooks, not the modules
    // they call (`twists.rhai` answers no hook of a rulebook's own).
    let builtins = builtin::rulebook_scripts();
    let looked = dir.map_or(String::new(), |d| {
        format!("no file {} and ", d.join(name).display())
    });
    // A slip is more likely in the name of a file beside the rulebook.
    let beside = dir.map_or_else(Vec::new, scripts_in);
    let message = format!(
        "script `{name}` not found: {looked}no built-in script of that name (built-ins: {})",
        builtins.join(", ")
    );
    let near = beside.iter().chain(&builtins).map(String::as_str);
    Err((
        ProblemKind::MissingScript,
        crate::suggest::with_hint(message, name, near),
    ))
}

/// The names of the `.rhai` files in `dir` (the current folder where it
/// is empty: a rulebook named without a folder), sorted.
fn scripts_in(dir: &Path) -> Vec<String> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rhai"))
        .collect();
    names.sort();
    names
}

#[cfg(test)]
impl Rulebook {
    /// A `width`×`height` rulebook of `script`, for a mechanic's unit
    /// tests; a load's error as its text.
    pub(crate) fn scripted(script: &str, width: u32, height: u32) -> Result<Rulebook, String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("t.rhai"), script).unwrap();
        let text = format!(
            "name = \"t\"\ntitle = \"t\"\nscript = \"t.rhai\"\n[board]\nwidth = {width}\nheight = {height}\n"
        );
        Rulebook::from_str_at(&text, "t.toml", Some(dir.path().to_path_buf()))
            .map_err(|e| e.to_string())
    }
}
