//! The built-in rulebooks and scripts, embedded at build time from `rules/`
//! and `scripts/` (see `build.rs`), so the binary works from any directory.

include!(concat!(env!("OUT_DIR"), "/builtin.rs"));

/// The built-in rulebook called `name`.
pub fn rulebook(name: &str) -> Option<&'static str> {
    RULEBOOKS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The built-in script file `name` (with or without `.rhai`).
pub fn script(name: &str) -> Option<&'static str> {
    let stem = name.strip_suffix(".rhai").unwrap_or(name);
    SCRIPTS
        .iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, text)| *text)
}
