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

/// The name a built-in script is shown under (`scripts/twists.rhai` is
/// `twists`), if `path` is written so.
pub(crate) fn script_name(path: &str) -> Option<&str> {
    path.strip_prefix("scripts/")?.strip_suffix(".rhai")
}

/// The built-in scripts that built-in rulebooks name (`pentago.rhai`),
/// sorted: not the modules those scripts call (`twists.rhai`).
pub fn rulebook_scripts() -> Vec<String> {
    let mut names: Vec<String> = RULEBOOKS
        .iter()
        .filter_map(|(_, text)| {
            let table = text.parse::<toml::Table>().ok()?;
            Some(table.get("script")?.as_str()?.to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}
