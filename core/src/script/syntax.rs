//! Compiling a script, and saying where and why it does not compile.

use super::api;
use super::scope::names;
use crate::error::{Location, ScriptError, ScriptErrorKind, Snippet, Source};
use rhai::{AST, Dynamic, Engine, ParseError, Scope};
use std::path::PathBuf;
use std::sync::Arc;

/// Where a script came from.
#[derive(Debug, Clone)]
pub struct ScriptSource {
    /// The path shown in messages (`scripts/lines.rhai` for built-ins).
    pub path: String,
    /// The script text (shared with the diagnostics that point into it).
    pub text: Arc<str>,
    /// Directory that `import "file"` resolves against; `None` for built-ins.
    pub dir: Option<PathBuf>,
}

/// Compiles `source` with the constants of `scope`, with or without strict
/// variables (the engine is left strict).
pub(super) fn compile(
    engine: &mut Engine,
    scope: &Scope,
    source: &ScriptSource,
    strict: bool,
) -> Result<AST, ParseError> {
    engine.set_strict_variables(strict);
    let ast = engine.compile_with_scope(scope, &source.text);
    engine.set_strict_variables(true);
    ast
}

/// A compile error, located in the script and drawn there, with the
/// nearest name for one not found, where an unclosed bracket opened, and
/// the reason `curry` is missing.
pub(super) fn syntax_error(e: ParseError, scope: &Scope, source: &ScriptSource) -> ScriptError {
    let text = Source::new(source.path.clone(), source.text.clone());
    // Rhai places an error at the end of the file past its last line; the
    // end of the last line is where a reader looks.
    let end = source.text.trim_end().len();
    let at = api::rhai_line_col(e.1).map(|(line, col)| text.offset(line, col).min(end));
    let location = at.map(|at| text.location(at));
    let mut message = e.0.to_string().to_lowercase_first();
    let mut help = None;
    let mut kind = ScriptErrorKind::Syntax;
    if let rhai::ParseErrorType::VariableUndefined(name) = &*e.0 {
        kind = ScriptErrorKind::Undefined;
        message = format!("`{name}` is not a param, a board constant or a name the script defines");
        let constants = names(scope);
        if let Some((said, fix)) = builtin_param_missing(name, &constants, source) {
            message = said;
            help = Some(fix);
        } else {
            help = variable_hint(name, &constants);
        }
    }
    let doc_comment = matches!(&*e.0, rhai::ParseErrorType::WrongDocComment);
    if disabled_at(&source.text, location.as_ref()) {
        message = "`curry` is not available to rulebook scripts: its arguments would escape the size limits".to_string();
    }
    let mut unclosed_help = None;
    let snippet = at.map(|at| {
        let mut snippet = Snippet::new(&text, text.token_at(at));
        if at == end {
            snippet.label = Some("the file ends here".to_string());
        }
        // An unclosed bracket is found at the end of the file; where it
        // opened is what the author needs to see.
        // So is any error at the end of the file or at a `fn` (a function
        // defined inside another): a bracket left open is the likely cause.
        let at_fn = ["fn ", "private fn ", "///"]
            .iter()
            .any(|p| source.text[at..].starts_with(p));
        let open = match &*e.0 {
            rhai::ParseErrorType::MissingToken(token, _)
                if matches!(token.as_str(), "}" | ")" | "]") =>
            {
                unclosed(&source.text, at, Some(token))
            }
            rhai::ParseErrorType::WrongFnDefinition => unclosed(&source.text, at, None),
            _ if at == end || at_fn => unclosed(&source.text, at, None),
            _ => None,
        };
        if let Some(open) = open {
            let bracket = &source.text[open..open + 1];
            snippet
                .context
                .push((open..open + 1, format!("this `{bracket}` is never closed")));
            let closer = match bracket {
                "{" => "}",
                "(" => ")",
                _ => "]",
            };
            unclosed_help = Some(format!("close the `{bracket}` with a `{closer}`"));
        }
        Box::new(snippet)
    });
    // `///` documents a function only: above a `const` or a `let` it is
    // refused in Rhai's words, which do not say what to write instead.
    // Where a bracket is left open, the `///` that follows is no fault of
    // its own: the bracket is named instead.
    if doc_comment && unclosed_help.is_none() {
        message = "a doc comment (`///`) must stand right above a function".to_string();
        help = Some("for a comment on anything else, such as a `const`, write `//`".to_string());
    }
    ScriptError {
        kind,
        hook: None,
        location,
        message,
        snippet,
        help: help.or(unclosed_help),
    }
}

/// A built-in script (shown as `scripts/<file>`) that reads a param the
/// rulebook does not set: the author wrote the rulebook, not the script,
/// so what to add under `[params]` is the message, not the script's
/// undefined name. A param set but never read by the script is the
/// likely slip (`kay` for `k`).
fn builtin_param_missing(
    name: &str,
    constants: &[String],
    source: &ScriptSource,
) -> Option<(String, String)> {
    let is_param = name
        .bytes()
        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    let name_of = crate::builtin::script_name(&source.path)?;
    if !is_param || crate::builtin::script(name_of) != Some(&*source.text) {
        return None;
    }
    let file = format!("{name_of}.rhai");
    let param = name.to_lowercase();
    let said = format!(
        "the built-in script `{file}` reads the param `{param}`, which the rulebook's [params] do not set"
    );
    let words = code_words(&source.text);
    let unread: Vec<String> = constants
        .iter()
        .filter(|c| !matches!(c.as_str(), "WIDTH" | "HEIGHT") && !words.contains(c.as_str()))
        .map(|c| c.to_lowercase())
        .collect();
    let near = crate::suggest::nearest(&param, unread.iter().map(String::as_str));
    let fix = match (near, unread.as_slice()) {
        (Some(near), _) => format!(
            "the rulebook sets `{near}`, which the script never reads: did you mean `{param}`?"
        ),
        (None, [only]) => format!(
            "the rulebook sets `{only}`, which the script never reads: did you mean `{param}`?"
        ),
        _ => {
            format!("add `{param} = …` under [params]; the line shown is where the script reads it")
        }
    };
    Some((said, fix))
}

/// For a variable not found, the nearest of `constants` (`WIDTH`,
/// `HEIGHT`, the params): params are upper-case, so `k` means `K`; one of
/// them, not found all the same, was named in a closure.
pub(super) fn variable_hint(name: &str, constants: &[String]) -> Option<String> {
    if constants.iter().any(|c| c == name) {
        // Found by name, yet not found: Rhai captures every name a closure
        // uses from the function around it, where the script's constants
        // are not (they are read from the whole script's scope).
        return Some(format!(
            "`{name}` is a constant of the whole script (a param, `WIDTH`, `HEIGHT` or a top-level `const`), which a closure inside a function cannot capture: copy it into a variable first (`let v = {name};`) and use that in the closure"
        ));
    }
    let upper = name.to_uppercase();
    if upper != name && constants.contains(&upper) {
        return Some(format!(
            "did you mean `{upper}`? (params are upper-case constants)"
        ));
    }
    crate::suggest::did_you_mean(name, constants.iter().map(String::as_str))
}

/// The names the code of `text` holds (not its comments or strings).
pub(super) fn code_words(text: &str) -> std::collections::HashSet<String> {
    code_only(text)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `text` with its comments and string contents blanked, for looking up
/// names.
pub(super) fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |from: usize, to: usize, out: &mut Vec<u8>| {
        for b in &mut out[from..to.min(bytes.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                blank(start, i, &mut out);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                blank(start, i, &mut out);
            }
            quote @ (b'"' | b'`' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                blank(start, i, &mut out);
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were blanked, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// The offset of the bracket that a missing `token` (`}`, `)`, `]`; any
/// for `None`) should close: the innermost one still open at `end`, outside
/// strings and comments.
pub(super) fn unclosed(text: &str, end: usize, token: Option<&str>) -> Option<usize> {
    let open = match token {
        Some("}") => Some(b'{'),
        Some(")") => Some(b'('),
        Some("]") => Some(b'['),
        Some(_) => return None,
        None => None,
    };
    let code = code_only(text);
    let mut stack = Vec::new();
    for (i, b) in code.bytes().take(end).enumerate() {
        match b {
            b'{' | b'(' | b'[' => stack.push((b, i)),
            b'}' | b')' | b']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack
        .iter()
        .rev()
        .find(|&&(b, _)| open.is_none_or(|o| b == o))
        .map(|&(_, at)| at)
}

/// Whether a syntax error at `loc` stands on the disabled `curry`: Rhai
/// then only says it expected something else.
pub(super) fn disabled_at(text: &str, loc: Option<&Location>) -> bool {
    let Some(loc) = loc else { return false };
    let Some(line) = text.lines().nth(loc.line.saturating_sub(1)) else {
        return false;
    };
    let from: String = line.chars().skip(loc.col.saturating_sub(1)).collect();
    from.starts_with("curry")
}

/// A value as shown in messages: its type and, when short, the value.
pub(crate) fn describe(v: &Dynamic) -> String {
    if v.is_unit() {
        return "()".to_string();
    }
    let text = v.to_string();
    if text.len() <= 40 {
        format!("{} `{text}`", v.type_name())
    } else {
        v.type_name().to_string()
    }
}

pub(super) trait LowercaseFirst {
    fn to_lowercase_first(&self) -> String;
}

impl LowercaseFirst for String {
    fn to_lowercase_first(&self) -> String {
        let mut chars = self.chars();
        match chars.next() {
            Some(c) => c.to_lowercase().chain(chars).collect(),
            None => String::new(),
        }
    }
}
