//! The README documents every command, hook, refusal key and `[table]` key:
//! the registries that drive parsing and loading also keep the docs honest.

use gridrules::command::COMMANDS;
use gridrules_core::rules::REFUSAL_KEYS;
use gridrules_core::script::hooks::HOOKS;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).unwrap()
}

#[test]
fn every_command_is_in_the_readme() {
    let text = readme();
    let missing: Vec<&str> = COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|name| {
            !text.contains(&format!("| `{name}")) && !text.contains(&format!("/ `{name}"))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "commands missing from the README's table: {missing:?}"
    );
}

#[test]
fn every_hook_is_in_the_readme_with_its_signature_and_kind() {
    let text = readme();
    let missing: Vec<String> = HOOKS
        .iter()
        .map(|h| format!("| `{}` | {}", h.signature(), h.kind.as_str()))
        .filter(|row| !text.contains(row))
        .collect();
    assert!(
        missing.is_empty(),
        "hooks missing from the README: {missing:?}"
    );
}

#[test]
fn every_refusal_key_is_in_the_readme() {
    let text = readme();
    let missing: Vec<&&str> = REFUSAL_KEYS
        .iter()
        .filter(|k| !text.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "refusal keys missing from the README: {missing:?}"
    );
}
