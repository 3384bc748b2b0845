//! A script's runtime errors, told where they happened: the hook, the line,
//! the snippet, and the name it most likely meant.

use super::engine::{
    MAX_ARRAY_SIZE, MAX_CALL_LEVELS, MAX_MAP_SIZE, MAX_OPERATIONS, MAX_STRING_SIZE,
};
use super::hooks::HookId;
use super::syntax::LowercaseFirst;
use super::syntax::variable_hint;
use super::{ScriptHost, api};
use crate::builtin;
use crate::builtin::script_name as builtin_name;
use crate::error::{Location, ScriptError, ScriptErrorKind, Snippet, Source};
use rhai::EvalAltResult;
use std::ops::Range;

impl ScriptHost {
    /// Turns a Rhai error into a located [`ScriptError`], naming the innermost
    /// function and the file (the script, or a built-in module) it failed in.
    pub(super) fn script_error(&self, hook: &str, mut err: EvalAltResult) -> ScriptError {
        let mut path = self.source.path.clone();
        let mut at = err.position();
        // Where the author's own script called into a built-in module: the
        // module's file is not theirs to read or mend, their call is.
        let mut call: Option<(String, rhai::Position, String)> = None;
        loop {
            match err {
                EvalAltResult::ErrorInFunctionCall(name, src, inner, pos) => {
                    if call.is_none()
                        && self.is_builtin_module(&src)
                        && !self.is_builtin_module(&path)
                        && api::rhai_line_col(pos).is_some()
                    {
                        call = Some((path.clone(), pos, name));
                    }
                    if !src.is_empty() {
                        path = src;
                    }
                    // The innermost known position is the most precise one.
                    if !inner.position().is_none() {
                        at = inner.position();
                    } else if at.is_none() {
                        at = pos;
                    }
                    err = *inner;
                }
                EvalAltResult::ErrorInModule(src, inner, _) => {
                    path = src;
                    at = inner.position();
                    err = *inner;
                }
                _ => break,
            }
        }
        let inside = call.map(|(caller, pos, name)| {
            let module = builtin_name(&path).unwrap_or(&path);
            let within = api::rhai_line_col(at)
                .map_or(String::new(), |(line, col)| format!(":{line}:{col}"));
            let said = format!("inside the built-in `{module}::{name}`, at {path}{within}");
            (path, at) = (caller, pos);
            said
        });
        let kind = match err {
            EvalAltResult::ErrorTerminated(..)
            | EvalAltResult::ErrorTooManyOperations(_)
            | EvalAltResult::ErrorStackOverflow(_)
            | EvalAltResult::ErrorDataTooLarge(..)
            | EvalAltResult::ErrorTooManyModules(_) => ScriptErrorKind::Limit,
            _ => ScriptErrorKind::Runtime,
        };
        let mut help = None;
        let message = match err {
            // What stopped it says why (see `limits`).
            EvalAltResult::ErrorTerminated(why, _) => why.to_string(),
            EvalAltResult::ErrorTooManyOperations(_) => {
                format!("ran more than {MAX_OPERATIONS} operations (an endless loop?)")
            }
            EvalAltResult::ErrorStackOverflow(_) => {
                format!("calls nested deeper than {MAX_CALL_LEVELS} levels (runaway recursion?)")
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                // Rhai says "Size of array/blob", "Length of string", …
                let thing = ["array", "string", "map"]
                    .into_iter()
                    .find(|t| what.to_lowercase().contains(t))
                    .unwrap_or("value");
                format!(
                    "{thing} too large (arrays hold at most {MAX_ARRAY_SIZE} items, maps {MAX_MAP_SIZE}, strings {MAX_STRING_SIZE} bytes)"
                )
            }
            // `throw "reason"` and errors raised by registered functions carry
            // their message as a value; Rhai's own prefix adds nothing.
            EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
            mut other => {
                let _ = other.take_position();
                help = self.nearest_name(&other);
                other.to_string().to_lowercase_first()
            }
        };
        // Rhai resets the position of a tripped limit to the call site at
        // each function return, and a hook's call site is outside the script;
        // point at the hook's definition instead.
        let (location, snippet) = match api::rhai_line_col(at) {
            Some((line, col)) => match self.text_of(&path) {
                Some(text) => {
                    let range = text.token_at_line_col(line, col);
                    (
                        Some(text.location(range.start)),
                        Some(Snippet::new(&text, range)),
                    )
                }
                None => (Some(Location { path, line, col }), None),
            },
            None => {
                let snippet = self.fn_name_range(hook).map(|range| {
                    let mut s = Snippet::new(&self.text, range);
                    s.label = Some("while this hook ran".to_string());
                    s
                });
                (self.hook_location(hook), snippet)
            }
        };
        let message = match inside {
            Some(inside) => format!("{message} ({inside})"),
            None => message,
        };
        ScriptError {
            kind,
            hook: HookId::from_name(hook).map(HookId::name),
            location,
            message,
            snippet: snippet.map(Box::new),
            help,
        }
    }

    /// For a name not found, the nearest name that exists: a constant
    /// (params are upper-case: `K`, not `k`) for a variable, a script or
    /// module function for a call.
    pub(super) fn nearest_name(&self, err: &EvalAltResult) -> Option<String> {
        match err {
            EvalAltResult::ErrorVariableNotFound(name, _) => variable_hint(name, &self.constants),
            EvalAltResult::ErrorFunctionNotFound(signature, _) => {
                // `lines::stright (i64)`: the name is before the arguments.
                let name = signature.split(" (").next().unwrap_or(signature).trim();
                let mut known: Vec<String> = self
                    .ast
                    .iter_functions()
                    .map(|f| f.name.to_string())
                    .collect();
                // Property accessors and indexers (`get$mark`) are the
                // engine's own names: a script cannot call them so.
                known.extend(
                    self.registered_names()
                        .into_iter()
                        .filter(|n| !n.contains('$')),
                );
                if known.iter().any(|k| k == name) {
                    // The name is right, its arguments are not: say how it
                    // is called rather than suggest the name itself.
                    return self.call_forms(name);
                }
                crate::suggest::did_you_mean(name, known.iter().map(String::as_str))
            }
            // `mv.frm`: "Unknown property 'frm' - a getter is not registered
            // for type 'Move'"; the properties are the getters' names.
            EvalAltResult::ErrorDotExpr(message, _) => {
                let prop = message
                    .strip_prefix("Unknown property '")?
                    .split('\'')
                    .next()?;
                let properties: Vec<String> = self
                    .registered_names()
                    .into_iter()
                    .filter_map(|n| n.strip_prefix("get$").map(str::to_string))
                    .collect();
                crate::suggest::did_you_mean(prop, properties.iter().map(String::as_str))
            }
            _ => None,
        }
    }

    /// How `name` is called, by the script's own functions and the
    /// engine's: `cell(col: i64, row: i64)`.
    fn call_forms(&self, name: &str) -> Option<String> {
        let mut forms: Vec<String> = self
            .ast
            .iter_functions()
            .filter(|f| f.name == name)
            .map(|f| format!("{name}({})", f.params.join(", ")))
            .collect();
        forms.extend(
            self.registered()
                .into_iter()
                .filter(|(n, _)| n == name)
                // Registered closures have no parameter names (`_: i64`),
                // and the state is the hooks' `state`, not Rust's
                // `&mut State`.
                .map(|(_, args)| {
                    let args = args.replace("_: ", "").replace("&mut State", "state");
                    format!("{name}({args})")
                }),
        );
        forms.sort();
        forms.dedup();
        (!forms.is_empty()).then(|| {
            let forms: Vec<String> = forms.iter().map(|f| format!("`{f}`")).collect();
            format!("it is called as {}", forms.join(" or "))
        })
    }

    /// The names of the functions registered with the engine, accessors
    /// (`get$from`) included.
    fn registered_names(&self) -> Vec<String> {
        self.registered()
            .into_iter()
            .map(|(name, _)| name)
            .collect()
    }

    /// The functions registered with the engine, each its name and its
    /// parameters as the engine writes them (`fn cell(_: i64, _: i64) ->
    /// …` is `("cell", "_: i64, _: i64")`).
    fn registered(&self) -> Vec<(String, String)> {
        self.engine
            .gen_fn_signatures(false)
            .iter()
            .filter_map(|sig| {
                let sig = sig.strip_prefix("fn ").unwrap_or(sig);
                let (name, rest) = sig.split_once('(')?;
                let params = rest.split(')').next()?;
                Some((name.trim().to_string(), params.to_string()))
            })
            .collect()
    }

    /// Whether `path` names a built-in module (not the script itself, as
    /// a built-in rulebook's is).
    fn is_builtin_module(&self, path: &str) -> bool {
        path != self.text.path && builtin_name(path).is_some_and(|n| builtin::script(n).is_some())
    }

    /// The text of `path`: the script's own, or a built-in module's.
    pub(super) fn text_of(&self, path: &str) -> Option<Source> {
        if path == self.text.path {
            return Some(self.text.clone());
        }
        let imported = self.module_texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(text) = imported.iter().find(|t| t.path == path) {
            return Some(text.clone());
        }
        drop(imported);
        builtin::script(builtin_name(path)?).map(|text| Source::new(path, text))
    }

    /// An error about what hook `hook` answered: the engine cannot tell
    /// which expression made the value, so it points at the hook's name.
    pub(crate) fn bad_value(&self, hook: HookId, message: String) -> ScriptError {
        let snippet = self.fn_name_range(hook.name()).map(|range| {
            let mut s = Snippet::new(&self.text, range);
            s.label = Some("this hook's answer".to_string());
            s
        });
        ScriptError {
            kind: ScriptErrorKind::BadValue,
            hook: Some(hook.name()),
            location: self.hook_location(hook.name()),
            message,
            snippet: snippet.map(Box::new),
            help: None,
        }
    }

    pub(super) fn location(&self, line: usize, col: usize) -> Location {
        Location {
            path: self.source.path.clone(),
            line,
            col,
        }
    }

    /// The range of `name` in its `fn name(…)` definition.
    pub(super) fn fn_name_range(&self, name: &str) -> Option<Range<usize>> {
        let (line, col) = api::fn_position(&self.source.text, name)?;
        let at = self.text.offset(line, col);
        let fn_at = at + self.text.text[at..].find("fn ")? + 3;
        let name_at = fn_at + self.text.text[fn_at..].find(name)?;
        Some(name_at..name_at + name.len())
    }
}
