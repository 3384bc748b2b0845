//! The Rhai host: one sandboxed engine and one compiled script per rulebook.

pub mod api;
mod engine;
pub mod hooks;
pub mod limits;
mod modules;
mod report;
mod scope;
mod syntax;
mod top_level;

pub use limits::{COMMAND_SCRIPT_SECONDS, HOOK_SECONDS, LOAD_SECONDS, ScriptBudget};
pub use modules::module_file;
pub use syntax::ScriptSource;
pub(crate) use syntax::describe;

use crate::error::{Location, Problem, ProblemKind, RulebookError, ScriptError, Source};
use crate::geometry::Grid;
use crate::position::{Move, Position};
use crate::turns::TurnPlace;
use api::{History, ScriptMove, ScriptState};
use engine::{builtin_modules, keep_output, sandboxed_engine, with_deadline};
use hooks::{HOOKS, HookId, HookKind};
use rhai::{AST, CallFnOptions, Dynamic, Engine, NativeCallContext, Scope, Shared};
use scope::{KEEP_IMPORTS, KeptImports, TopLevelError, base_scope, names};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use syntax::{compile, syntax_error};

/// A rulebook's script, compiled, with the engine that runs it.
pub struct ScriptHost {
    engine: Engine,
    ast: AST,
    /// The script's functions, without its top-level code (run once, at
    /// load): every hook is called here.
    functions: AST,
    source: ScriptSource,
    /// The script's text as loaded, which diagnostics point into.
    text: Source,
    /// The texts of the modules it imported from files, likewise.
    module_texts: Arc<Mutex<Vec<Source>>>,
    /// The words of its code (not its comments or strings), read once:
    /// a rulebook asks about each of its params.
    words: OnceLock<std::collections::HashSet<String>>,
    output: Arc<Mutex<Vec<String>>>,
    /// Set the first time a hook reads `state.history`: from then on a
    /// position's value may depend on the way to it.
    history_read: Arc<AtomicBool>,
    per_move: Vec<HookId>,
    /// Every hook the script defines, in registry order.
    defined: Vec<HookId>,
    /// The hooks defined with their last parameter `side`.
    sided: Vec<HookId>,
    /// What the author may have got wrong without breaking the load: a
    /// function one slip from a hook's name, which the engine never calls.
    warnings: Vec<Problem>,
    /// The constants every hook sees (`WIDTH`, `HEIGHT`, the params), for
    /// suggestions when a name is not found.
    constants: Vec<String>,
    /// How the rulebook writes its moves, for the move texts hooks see;
    /// set once the mechanics are built.
    pub(crate) names: Arc<crate::notation::MoveNames>,
}

impl std::fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHost")
            .field("path", &self.source.path)
            .field("per_move", &self.per_move)
            .finish_non_exhaustive()
    }
}

impl ScriptHost {
    /// Compiles `source` for a board of `grid`, with `params` as constants.
    ///
    /// # Errors
    /// A syntax error, or a hook defined with the wrong number of parameters.
    pub fn new(
        grid: Grid,
        params: &[(String, Dynamic)],
        source: ScriptSource,
    ) -> Result<ScriptHost, RulebookError> {
        let mut engine = sandboxed_engine();
        engine.set_strict_variables(true);
        api::register_board(&mut engine, grid);
        let history_read = Arc::new(AtomicBool::new(false));
        api::register_types(&mut engine, history_read.clone());
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = output.clone();
        engine.on_print(move |s| keep_output(&sink, s));
        let sink = output.clone();
        engine.on_debug(move |s, _, _| keep_output(&sink, s));

        let mut builtins = Vec::new();
        for (name, module) in builtin_modules() {
            engine.register_static_module(*name, module.clone());
            builtins.push((*name, module.clone()));
        }
        let module_texts = Arc::new(Mutex::new(Vec::new()));
        engine.set_module_resolver(modules::Modules::new(
            builtins,
            source.dir.as_deref(),
            module_texts.clone(),
        ));

        let keep = Arc::new(Mutex::new(KeptImports::default()));
        let sink = keep.clone();
        engine.register_fn(KEEP_IMPORTS, move |ctx: NativeCallContext| {
            let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
            if kept.armed {
                kept.armed = false;
                kept.modules = ctx
                    .iter_imports()
                    .map(|(alias, m)| (alias.to_string(), Shared::new(m.clone())))
                    .collect();
                // Latest first: reversed so that a later import of an alias
                // is registered last, and wins, as it does in the script.
                kept.modules.reverse();
            }
        });

        let params_scope = base_scope(grid, params, &[]);
        // Strict variables catch a misspelt name at load, with a suggestion;
        // but a hook may name what the top level defines, which only running
        // the top level tells. So a name not found sends the script through
        // a lenient compile, its top level, and a strict compile again.
        let first = compile(&mut engine, &params_scope, &source, true);
        let (ast, undefined) = match first {
            Ok(ast) => (ast, None),
            Err(e) if matches!(*e.0, rhai::ParseErrorType::VariableUndefined(_)) => {
                let lenient = compile(&mut engine, &params_scope, &source, false)
                    .map_err(|e| syntax_error(e, &params_scope, &source))?;
                (lenient, Some(e))
            }
            Err(e) => return Err(syntax_error(e, &params_scope, &source).into()),
        };
        let functions = ast.clone_functions_only();
        let text = Source::new(source.path.clone(), source.text.clone());
        let mut host = ScriptHost {
            engine,
            ast,
            functions,
            source,
            text,
            module_texts,
            words: OnceLock::new(),
            output,
            history_read,
            per_move: Vec::new(),
            defined: Vec::new(),
            sided: Vec::new(),
            warnings: Vec::new(),
            constants: names(&params_scope),
            names: Arc::default(),
        };
        host.check_hooks()?;
        host.warn_of_near_hooks();
        // A function the top level calls reads `WIDTH`, `HEIGHT` and the
        // params as a hook does: from a global module (the scope is the top
        // level's alone). What the top level defines is shared after it.
        host.share_top_level(grid, params, &[], false)?;
        let top = match (host.run_top_level(params_scope, &keep), undefined) {
            (Ok(top), undefined) => (top, undefined.is_some()),
            // The top level itself names an undefined variable: the compile
            // error said so first, with its suggestion.
            (Err(TopLevelError::NotFound(_)), Some(first)) => {
                let scope = base_scope(grid, params, &[]);
                return Err(syntax_error(first, &scope, &host.source).into());
            }
            (Err(TopLevelError::NotFound(e) | TopLevelError::Other(e)), _) => {
                return Err(e.into());
            }
        };
        host.share_top_level(grid, params, &top.0, top.1)?;
        Ok(host)
    }

    /// Checks every defined hook's arity and that the required ones exist.
    fn check_hooks(&mut self) -> Result<(), RulebookError> {
        let mut problems = Vec::new();
        let defined: Vec<(String, usize)> = self
            .ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        for hook in HOOKS {
            let arities: Vec<usize> = defined
                .iter()
                .filter(|(n, _)| n == hook.name)
                .map(|(_, a)| *a)
                .collect();
            if arities.is_empty() {
                if hook.required {
                    // `fn line()` for `fn lines()`: point at the slip.
                    let slip =
                        crate::suggest::nearest(hook.name, defined.iter().map(|(n, _)| n.as_str()));
                    let message = format!(
                        "missing hook `{}`: every rulebook script must define it ({})",
                        hook.signature(),
                        hook.doc
                    );
                    problems.push(match slip.and_then(|n| self.fn_name_range(n)) {
                        Some(range) => {
                            Problem::spanned(ProblemKind::MissingHook, &self.text, range, message)
                                .with_label("not a hook")
                                .with_help(Some(format!(
                                    "is `fn {}` meant to be it? name it `{}`",
                                    slip.unwrap_or_default(),
                                    hook.name
                                )))
                        }
                        None => Problem::at(ProblemKind::MissingHook, self.location(1, 1), message),
                    });
                }
            } else if !(arities.contains(&hook.params.len())
                || hook.sided && arities.contains(&(hook.params.len() + 1)))
            {
                let range = self.fn_name_range(hook.name).unwrap_or(0..0);
                problems.push(Problem::spanned(
                    ProblemKind::HookArity,
                    &self.text,
                    range,
                    format!(
                        "hook `{}` takes {} parameter{}, found {}: expected `fn {}`{}",
                        hook.name,
                        hook.params.len(),
                        if hook.params.len() == 1 { "" } else { "s" },
                        arities[0],
                        hook.signature(),
                        if hook.sided {
                            format!(" or `fn {}`", hook.sided_signature())
                        } else {
                            String::new()
                        }
                    ),
                ));
            } else {
                self.defined.push(hook.id);
                if hook.sided && !arities.contains(&hook.params.len()) {
                    self.sided.push(hook.id);
                }
                if hook.kind == HookKind::PerMove {
                    self.per_move.push(hook.id);
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RulebookError { problems })
        }
    }

    /// Warns of each function whose name is a slip from a hook the script
    /// does not define (`outcom` for `outcome`): as written it is never
    /// called, and the variant quietly plays without that rule.
    fn warn_of_near_hooks(&mut self) {
        let missing: Vec<&str> = HOOKS
            .iter()
            .filter(|h| !self.defined.contains(&h.id))
            .map(|h| h.name)
            .collect();
        let mut seen = Vec::new();
        for f in self.ast.iter_functions() {
            let name = f.name.to_string();
            if HookId::from_name(&name).is_some() || seen.contains(&name) {
                continue;
            }
            if let Some(hook) = crate::suggest::nearest(&name, missing.iter().copied()) {
                let range = self.fn_name_range(&name).unwrap_or(0..0);
                let signature =
                    HookId::from_name(hook).map_or(String::new(), |h| h.spec().signature());
                self.warnings.push(
                    Problem::spanned(
                        ProblemKind::NotAHook,
                        &self.text,
                        range,
                        format!("function `{name}` is not a hook, so the engine never calls it"),
                    )
                    .with_label("not a hook")
                    .with_help(Some(format!("did you mean `fn {signature}`?"))),
                );
            }
            seen.push(name);
        }
    }

    /// Whether the script's code (not its comments or strings) names `word`.
    pub fn mentions(&self, word: &str) -> bool {
        self.words
            .get_or_init(|| syntax::code_words(&self.source.text))
            .contains(word)
    }

    /// What the author may have got wrong without breaking the load.
    pub fn warnings(&self) -> &[Problem] {
        &self.warnings
    }

    /// The script's path as shown in messages.
    pub fn path(&self) -> &str {
        &self.source.path
    }

    /// The files of the modules it has imported so far (those its top
    /// level imports, once loaded), as shown in messages.
    pub fn module_paths(&self) -> Vec<String> {
        let imported = self.module_texts.lock().unwrap_or_else(|e| e.into_inner());
        imported.iter().map(|m| m.path.clone()).collect()
    }

    /// The script's text as loaded (`new-variant --from` copies it).
    pub fn text(&self) -> &str {
        &self.source.text
    }

    /// Whether the script defines `hook` (with the right arity, checked at load).
    pub fn defines(&self, hook: HookId) -> bool {
        self.defined.contains(&hook)
    }

    /// Whether the script defines `hook` with its last parameter `side`
    /// (see [`hooks::Hook::sided`]).
    pub fn defines_sided(&self, hook: HookId) -> bool {
        self.sided.contains(&hook)
    }

    /// The hooks the script defines, in registry order.
    pub fn hooks(&self) -> &[HookId] {
        &self.defined
    }

    /// Whether a hook has read `state.history` (so far, in this process).
    pub fn has_read_history(&self) -> bool {
        self.history_read.load(Ordering::Relaxed)
    }

    /// Whether the script defines the per-move hook `hook`.
    pub fn has_per_move(&self, hook: HookId) -> bool {
        self.per_move.contains(&hook)
    }

    /// Calls a load-time hook (the top-level code has run, once, at load).
    ///
    /// # Errors
    /// The script's error or a tripped limit, located in the script.
    pub fn call_load(
        &self,
        hook: HookId,
        args: impl rhai::FuncArgs,
    ) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false);
        with_deadline(|| {
            self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                args,
            )
        })
        .map_err(|e| self.script_error(hook.name(), *e))
    }

    /// Calls a per-move hook with the state (and the move, for `refuse`);
    /// `history` holds the moves that led to `pos`.
    ///
    /// # Errors
    /// The script's error or a tripped limit, located in the script.
    pub fn call_per_move(
        &self,
        hook: HookId,
        grid: Grid,
        pos: &Position,
        history: &History,
        turn: TurnPlace,
        mv: Option<Move>,
    ) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false);
        let state = Dynamic::from(ScriptState {
            pos: *pos,
            history: history.clone(),
            turn,
            grid,
            names: self.names.clone(),
        });
        let result = with_deadline(|| match mv {
            Some(mv) => self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                (
                    state,
                    Dynamic::from(ScriptMove {
                        mv,
                        grid,
                        names: self.names.clone(),
                        mover: pos.turn(),
                    }),
                ),
            ),
            None => self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                (state,),
            ),
        });
        result.map_err(|e| self.script_error(hook.name(), *e))
    }

    /// Where hook `name` is defined in the script, when it is.
    pub fn hook_location(&self, name: &str) -> Option<Location> {
        self.fn_name_range(name)
            .map(|range| self.text.location(range.start))
    }

    /// Takes what the script printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut *self.output.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use engine::{builtin_modules, sandboxed_engine};

    #[test]
    fn builtin_scripts_compile() {
        let engine = sandboxed_engine();
        for (name, text) in builtin::SCRIPTS {
            if let Err(e) = engine.compile(text) {
                panic!("scripts/{name}.rhai: {e}");
            }
        }
        assert_eq!(builtin_modules().len(), builtin::SCRIPTS.len());
    }

    /// A script on a 3×3 board with `k = 3` and `sizes = [1, 2]`.
    fn host(text: &str) -> Result<ScriptHost, RulebookError> {
        let grid = Grid::new(3, 3).expect("3×3 is a board");
        let sizes: rhai::Array = vec![Dynamic::from(1_i64), Dynamic::from(2_i64)];
        let params = [
            ("k".to_string(), Dynamic::from(3_i64)),
            ("sizes".to_string(), Dynamic::from_array(sizes)),
        ];
        let source = ScriptSource {
            path: "t.rhai".to_string(),
            text: text.into(),
            dir: None,
        };
        ScriptHost::new(grid, &params, source)
    }

    fn wins(host: &ScriptHost, run: i64) -> Dynamic {
        host.call_load(HookId::Wins, (run,))
            .unwrap_or_else(|e| panic!("{}", e.describe()))
    }

    #[test]
    fn hooks_see_what_the_top_level_defines() {
        // A constant table, a variable, a map and an imported module: read
        // whole, and by index or method, each by name.
        let host = host(
            "import \"lines\" as l;\n\
             const LINES = l::straight(K);\n\
             let need = K;\n\
             let table = #{ a: [1, 2] };\n\
             fn lines() { LINES }\n\
             fn wins(run) {\n\
                 run >= need && LINES.len() == 8 && LINES[7].len() == 3\n\
                     && table.a[1] == 2 && l::straight(K) == LINES\n\
             }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let lines = host
            .call_load(HookId::Lines, ())
            .unwrap_or_else(|e| panic!("{}", e.describe()));
        assert_eq!(lines.into_array().map(|a| a.len()), Ok(8));
        assert!(wins(&host, 3).as_bool().unwrap_or(false));
        assert!(!wins(&host, 2).as_bool().unwrap_or(true));
    }

    /// A function the top level calls reads `WIDTH`, `HEIGHT` and the
    /// params as a hook does (an author's helper said "variable not
    /// found: WIDTH"); a top-level constant still shadows a param.
    #[test]
    fn functions_the_top_level_calls_see_the_constants() {
        let host = host(
            "fn helper() { WIDTH * K + HEIGHT }
             const H = helper();
             const K = 5;
             fn lines() { [cells()] }
             fn wins(run) { run == H && K == 5 && helper() == 18 }
",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(wins(&host, 12).as_bool().unwrap_or(false));
    }

    #[test]
    fn a_params_array_may_be_indexed_in_a_hook() {
        // `SIZES[1]` is read by name when the hook runs.
        let host =
            host("fn lines() { [cells()] }\nfn wins(run) { run >= SIZES[1] + SIZES.len() }\n")
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(wins(&host, 4).as_bool().unwrap_or(false));
        assert!(!wins(&host, 3).as_bool().unwrap_or(true));
    }

    #[test]
    fn the_top_level_runs_once_and_a_return_keeps_what_came_before() {
        let host = host(
            "import \"lines\" as l;\nprint(\"ran\");\nconst N = 8;\nif N > 0 { return; }\n\
             fn lines() { [cells()] }\nfn wins(run) { l::straight(K).len() == N }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..3 {
            assert!(wins(&host, 3).as_bool().unwrap_or(false));
        }
        assert_eq!(host.take_output(), ["ran"]);
    }

    #[test]
    fn a_hook_cannot_change_what_the_next_call_sees() {
        // A closure's captured variable is shared; the hooks get a copy, so
        // a call that pushes to it leaves the next call's copy as it was.
        let host = host(
            "let seen = [];\nlet count = || { seen.push(1); seen.len() };\n\
             fn lines() { [cells()] }\nfn wins(run) { count.call() == 1 }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..3 {
            assert!(wins(&host, 3).as_bool().unwrap_or(false));
        }
    }

    #[test]
    fn an_undefined_name_is_still_refused_at_load_with_a_suggestion() {
        let problem = |text: &str| {
            let err = host(text).expect_err("refused");
            let p = &err.problems[0];
            assert_eq!(p.kind, ProblemKind::ScriptSyntax, "{p}");
            (
                p.location.as_ref().map(|l| (l.line, l.col)),
                format!("{}: {}", p.message, p.help.as_deref().unwrap_or_default()),
            )
        };
        // In a hook: the top level's names are suggested too.
        let (at, message) = problem(
            "const LINES = lines::straight(K);\nfn lines() { LINSE }\nfn wins(run) { run >= K }\n",
        );
        assert_eq!(at, Some((2, 14)));
        assert!(
            message
                .contains("`LINSE` is not a param, a board constant or a name the script defines")
                && message.ends_with("did you mean `LINES`?"),
            "{message}"
        );
        // In the top level itself, before it runs, even when a hook names
        // what the top level defines.
        let (at, message) = problem(
            "const LINES = lines::straight(k);\nfn lines() { LINES }\nfn wins(run) { run >= K }\n",
        );
        assert_eq!(at, Some((1, 31)));
        assert!(message.contains("did you mean `K`?"), "{message}");
    }
}
