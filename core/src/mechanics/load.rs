//! The load-time context every mechanic's builder reads its hooks through.

use crate::error::RulebookError;
use crate::geometry::{Cell, CellSet, Grid};
use crate::script::hooks::HookId;
use crate::script::{ScriptHost, describe};
use rhai::Dynamic;

/// What a mechanic's builder reads its hooks through: the script host, the
/// board, and helpers that turn a hook's answer into cells and numbers or
/// into an error located at the hook.
pub(crate) struct Load<'a> {
    pub(super) host: &'a ScriptHost,
    pub(super) grid: Grid,
    params: &'a [(String, String)],
    /// The cells that exist for play: the whole grid until `shape()` is read.
    pub(super) shape: std::cell::Cell<CellSet>,
}

impl<'a> Load<'a> {
    pub(crate) fn new(
        host: &'a ScriptHost,
        grid: Grid,
        params: &'a [(String, String)],
    ) -> Load<'a> {
        Load {
            host,
            grid,
            params,
            shape: std::cell::Cell::new(grid.all()),
        }
    }

    /// An error about a hook's answer, located at the hook's definition.
    pub(super) fn bad(&self, hook: HookId, message: String) -> RulebookError {
        self.host.bad_value(hook, message).into()
    }

    pub(super) fn call(
        &self,
        hook: HookId,
        args: impl rhai::FuncArgs,
    ) -> Result<Option<Dynamic>, RulebookError> {
        if !self.host.defines(hook) {
            return Ok(None);
        }
        Ok(Some(self.host.call_load(hook, args)?))
    }

    pub(super) fn cell(
        &self,
        hook: HookId,
        what: &str,
        v: &Dynamic,
    ) -> Result<Cell, RulebookError> {
        let found = || {
            format!(
                "{what}: expected a cell (a number from cell(col, row), or a name like \"b2\"), found {}",
                describe(v)
            )
        };
        let in_shape = |c: Cell| {
            if self.shape.get().contains(c) {
                Ok(c)
            } else {
                Err(self.bad(
                    hook,
                    format!(
                        "{what}: {} is not a cell of the board: shape() leaves it out",
                        self.grid.name(c)
                    ),
                ))
            }
        };
        if let Ok(n) = v.as_int() {
            if (0..self.grid.len() as i64).contains(&n) {
                return in_shape(Cell(n as u16));
            }
            return Err(self.bad(
                hook,
                format!(
                    "{what}: cell {n} is off the {}×{} board",
                    self.grid.width(),
                    self.grid.height()
                ),
            ));
        }
        if let Some(s) = v.read_lock::<rhai::ImmutableString>() {
            let cell = self.grid.parse_cell(&s).ok_or_else(|| {
                self.bad(
                    hook,
                    format!("{what}: `{}` is not a cell of this board", s.as_str()),
                )
            })?;
            return in_shape(cell);
        }
        Err(self.bad(hook, found()))
    }

    pub(super) fn array(
        &self,
        hook: HookId,
        what: &str,
        v: Dynamic,
    ) -> Result<rhai::Array, RulebookError> {
        let shown = describe(&v);
        v.try_cast::<rhai::Array>()
            .ok_or_else(|| self.bad(hook, format!("{what}: expected an array, found {shown}")))
    }

    pub(super) fn cells(
        &self,
        hook: HookId,
        what: &str,
        v: Dynamic,
    ) -> Result<Vec<Cell>, RulebookError> {
        let items = self.array(hook, what, v)?;
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let c = self.cell(hook, &format!("{what}, item {}", i + 1), item)?;
            if out.contains(&c) {
                // A line round a board whose edges are joined comes back to
                // its first cell: its windows are the lines.
                let wraps = if matches!(hook, HookId::Lines) {
                    "; a line round a board whose edges are joined is given as its windows of k cells: `lines::wrapped(k, across, down)`"
                } else {
                    ""
                };
                return Err(self.bad(
                    hook,
                    format!("{what}: cell {} appears twice{wraps}", self.grid.name(c)),
                ));
            }
            out.push(c);
        }
        Ok(out)
    }

    pub(super) fn int(
        &self,
        hook: HookId,
        what: &str,
        v: &Dynamic,
    ) -> Result<Option<i64>, RulebookError> {
        if v.is_unit() {
            return Ok(None);
        }
        v.as_int().map(Some).map_err(|_| {
            self.bad(
                hook,
                format!("{what}: expected a number or (), found {}", describe(v)),
            )
        })
    }

    /// ` (params: k = 4)`: the values a bad answer most likely comes from.
    pub(super) fn params_hint(&self) -> String {
        if self.params.is_empty() {
            return String::new();
        }
        let shown: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        // A whole number or a truth value in quotes is text, which a script
        // compares with numbers without an error, and false: the likeliest
        // slip behind an empty answer.
        let quoted: Vec<String> = self
            .params
            .iter()
            .filter_map(|(k, v)| {
                let inner = v.strip_prefix('"')?.strip_suffix('"')?.trim();
                let plain = inner.parse::<i64>().is_ok() || matches!(inner, "true" | "false");
                plain.then(|| format!("`{k}` is the text {v}: write {k} = {inner}, without quotes"))
            })
            .collect();
        let slip = if quoted.is_empty() {
            String::new()
        } else {
            format!("; {}", quoted.join("; "))
        };
        format!(" (params: {}{slip})", shown.join(", "))
    }

    /// A one-word primitive: the hook's answer, or the default without it.
    pub(super) fn word<T: Word>(&self, hook: HookId) -> Result<T, RulebookError> {
        Ok(self.word_if_any(hook)?.unwrap_or_else(T::default_word))
    }

    /// [`Load::word`], `None` where the hook is not defined.
    pub(super) fn word_if_any<T: Word>(&self, hook: HookId) -> Result<Option<T>, RulebookError> {
        let Some(v) = self.call(hook, ())? else {
            return Ok(None);
        };
        read_word(&v, &format!("{}()", hook.name()))
            .map(Some)
            .map_err(|why| self.bad(hook, why))
    }
}

/// The word `v` names, if it is one of `T`'s; else why not, naming `what`.
pub(super) fn read_word<T: Word>(v: &Dynamic, what: &str) -> Result<T, String> {
    v.clone()
        .into_string()
        .ok()
        .and_then(|w| T::from_word(&w))
        .ok_or_else(|| {
            let said = format!("{what}: expected {}, found {}", T::choices(), describe(v));
            // A slip of a word (`"drew"`) is answered with the word meant.
            match v.clone().into_string() {
                Ok(w) => crate::suggest::with_hint(said, &w, T::WORDS.iter().map(|(w, _)| *w)),
                Err(_) => said,
            }
        })
}

/// A primitive read from a word a hook returns.
pub(crate) trait Word: Copy + Sized + 'static {
    /// Every accepted word and its meaning; the first is the default.
    const WORDS: &'static [(&'static str, Self)];

    /// The default, when the hook is not defined.
    fn default_word() -> Self {
        Self::WORDS[0].1
    }

    /// The meaning of `word`, if it is one of [`Word::WORDS`].
    fn from_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, v)| *v)
    }

    /// The accepted words, quoted, for messages: `"own", "either" or "shared"`.
    fn choices() -> String {
        let quoted: Vec<String> = Self::WORDS
            .iter()
            .map(|(w, _)| format!("\"{w}\""))
            .collect();
        match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}
