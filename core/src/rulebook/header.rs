//! The top of a rulebook: the keys every rulebook sets, its name, its board,
//! its params and roles. Each check records every problem it finds, so one
//! run reports them all.

use super::schema::RawRulebook;
use crate::error::{Problem, ProblemKind, Source};
use crate::geometry::Grid;
use rhai::Dynamic;
use toml::Spanned;

/// What the top of a rulebook says, as far as it is valid.
pub(super) struct Header {
    pub name: String,
    pub grid: Option<Grid>,
    pub layers: u32,
    pub roles: Option<[String; 2]>,
    /// The params as the script sees them.
    pub params: Vec<(String, Dynamic)>,
    /// The params as written, for messages.
    pub shown_params: Vec<(String, String)>,
}

/// Reads and checks the top of `raw`, recording its problems; `reported`
/// names the keys already reported as wrong or misspelt.
pub(super) fn read(
    raw: &RawRulebook,
    source: &Source,
    reported: &[String],
    problems: &mut Vec<Problem>,
) -> Header {
    let (w, h) = required(raw, source, reported, problems);
    let name = name(raw, source, problems);
    let grid = grid(raw, (&w, &h), source, problems);
    let (params, shown_params) = params(raw, source, problems);
    let width = w.as_ref().map_or(1, |w| *w.get_ref());
    Header {
        name,
        grid,
        layers: layers(raw, width, source, problems),
        roles: roles(raw, source, problems),
        params,
        shown_params,
    }
}

/// A board side as written, with its span.
type Side = Option<Spanned<i64>>;

/// The keys every rulebook sets: each missing one is reported at the top of
/// the file, or at its table, but not again when a wrong or misspelt one
/// was. Returns the board's width and height as written.
fn required(
    raw: &RawRulebook,
    source: &Source,
    reported: &[String],
    problems: &mut Vec<Problem>,
) -> (Side, Side) {
    let mut missing = |key: &str, table: Option<std::ops::Range<usize>>| {
        let path = match table {
            Some(_) => format!("board.{key}"),
            None => key.to_string(),
        };
        if reported.contains(&path) {
            return;
        }
        let message = format!("missing key `{key}`: every rulebook sets it");
        problems.push(match table {
            Some(range) => Problem::spanned(ProblemKind::MissingKey, source, range, message)
                .with_label(format!("`{key}` belongs in this table")),
            None => Problem::at(ProblemKind::MissingKey, source.location(0), message),
        });
    };
    if raw.title.is_none() {
        missing("title", None);
    }
    if raw.script.is_none() {
        missing("script", None);
    }
    if raw.name.is_none() {
        missing("name", None);
    }
    match raw.board.as_ref() {
        None => {
            missing("board", None);
            (None, None)
        }
        Some(b) => {
            let (w, h) = (b.get_ref().width.clone(), b.get_ref().height.clone());
            if w.is_none() {
                missing("width", Some(b.span()));
            }
            if h.is_none() {
                missing("height", Some(b.span()));
            }
            (w, h)
        }
    }
}

/// The rulebook's name, checked: it is a command-line word.
fn name(raw: &RawRulebook, source: &Source, problems: &mut Vec<Problem>) -> String {
    let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
        Problem::spanned(kind, source, range, message)
    };
    let name = raw.name.as_ref().map_or("", |n| n.get_ref().as_str());
    if let Some(n) = &raw.name
        && !is_valid_name(name)
    {
        problems.push(
            at(
                ProblemKind::BadValue,
                n.span(),
                format!(
                    "name `{name}`: expected lower-case letters, digits and `-`, starting with a letter or digit"
                ),
            )
            .with_label("a rulebook's name is its command-line word"),
        );
    }
    name.to_string()
}

/// The board's grid, when its width and height are valid.
fn grid(
    raw: &RawRulebook,
    (w, h): (&Side, &Side),
    source: &Source,
    problems: &mut Vec<Problem>,
) -> Option<Grid> {
    let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
        Problem::spanned(kind, source, range, message)
    };
    let board = raw.board.as_ref();
    for (what, v, max) in [
        ("width", w, crate::geometry::MAX_WIDTH),
        ("height", h, crate::geometry::MAX_HEIGHT),
    ] {
        if let Some(v) = v
            && !(1..=i64::from(max)).contains(v.get_ref())
        {
            problems.push(at(
                ProblemKind::BadValue,
                v.span(),
                format!("board {what} {}: expected 1 to {max}", v.get_ref()),
            ));
        }
    }
    match (w, h) {
        (Some(w), Some(h)) => {
            let grid = u32::try_from(*w.get_ref())
                .ok()
                .zip(u32::try_from(*h.get_ref()).ok())
                .and_then(|(w, h)| Grid::new(w, h));
            if let (None, true, Some(b)) = (grid, problems.is_empty(), board) {
                problems.push(at(
                    ProblemKind::BadValue,
                    b.span(),
                    format!(
                        "board {}×{} has {} cells: at most {} are supported",
                        w.get_ref(),
                        h.get_ref(),
                        w.get_ref() * h.get_ref(),
                        crate::geometry::MAX_CELLS
                    ),
                ));
            }
            grid
        }
        _ => None,
    }
}

/// The params, as the script sees them and as written.
#[allow(clippy::type_complexity)]
fn params(
    raw: &RawRulebook,
    source: &Source,
    problems: &mut Vec<Problem>,
) -> (Vec<(String, Dynamic)>, Vec<(String, String)>) {
    let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
        Problem::spanned(kind, source, range, message)
    };
    let mut params = Vec::new();
    let mut shown_params = Vec::new();
    for (key, value) in &raw.params {
        let k = key.get_ref();
        let ident = k.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && k.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !ident || k == "width" || k == "height" {
            problems.push(at(
                ProblemKind::BadValue,
                key.span(),
                format!("param `{k}`: expected a lower-case name (letters, digits, `_`) other than width and height"),
            ));
            continue;
        }
        match to_dynamic(value.get_ref()) {
            Some(d) => {
                params.push((k.clone(), d));
                shown_params.push((k.clone(), value.get_ref().to_string()));
            }
            None => problems.push(at(
                ProblemKind::WrongType,
                value.span(),
                format!(
                    "param `{k}`: {} values are not supported: use an integer, a boolean, a string, or an array of them",
                    value.get_ref().type_str()
                ),
            )),
        }
    }
    (params, shown_params)
}

/// `[board] layers`: a number that divides the width.
fn layers(raw: &RawRulebook, width: i64, source: &Source, problems: &mut Vec<Problem>) -> u32 {
    let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
        Problem::spanned(kind, source, range, message)
    };
    let board = raw.board.as_ref();
    match board.and_then(|b| b.get_ref().layers.as_ref()) {
        None => 1,
        Some(l) => match u32::try_from(*l.get_ref()) {
            Ok(n) if n >= 1 && width.rem_euclid(i64::from(n)) == 0 => n,
            _ => {
                problems.push(at(
                    ProblemKind::BadValue,
                    l.span(),
                    format!(
                        "board layers {}: expected a number of layers that divides the width {}",
                        l.get_ref(),
                        width
                    ),
                ));
                1
            }
        },
    }
}

/// `roles`: two names, X's then O's.
fn roles(raw: &RawRulebook, source: &Source, problems: &mut Vec<Problem>) -> Option<[String; 2]> {
    let at = |kind: ProblemKind, range: std::ops::Range<usize>, message: String| {
        Problem::spanned(kind, source, range, message)
    };
    match &raw.roles {
        None => None,
        Some(r) => match &r.get_ref()[..] {
            [x, o] if !x.trim().is_empty() && !o.trim().is_empty() => Some([x.clone(), o.clone()]),
            _ => {
                problems.push(at(
                    ProblemKind::BadValue,
                    r.span(),
                    "roles: expected two names, X's then O's, like [\"Order\", \"Chaos\"]"
                        .to_string(),
                ));
                None
            }
        },
    }
}

/// Whether `name` may name a rulebook: lower-case letters, digits and `-`.
pub(super) fn is_valid_name(name: &str) -> bool {
    // Not starting with `-`: a name is a command-line word, and
    // `gridrules check -x` reads as an option.
    name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn to_dynamic(v: &toml::Value) -> Option<Dynamic> {
    match v {
        toml::Value::Integer(i) => Some(Dynamic::from(*i)),
        toml::Value::Boolean(b) => Some(Dynamic::from(*b)),
        toml::Value::String(s) => Some(Dynamic::from(s.clone())),
        toml::Value::Array(items) => items
            .iter()
            .map(to_dynamic)
            .collect::<Option<rhai::Array>>()
            .map(Dynamic::from_array),
        _ => None,
    }
}
