//! The docs keep up with the code. The reference (`docs/reference.md`)
//! names every command, hook, rulebook key, refusal, `expect` form, result
//! reason and function a script can call, each read here from the registry
//! the engine uses; the README lists every built-in rulebook, shows the test
//! command CI runs and links every page of `docs/`; and every relative link
//! in the README and `docs/` leads to a file and a heading that exist.

use gridrules::command::COMMANDS;
use gridrules_core::rules::REFUSAL_KEYS;
use gridrules_core::script::hooks::HOOKS;
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn readme() -> String {
    read("README.md")
}

fn reference() -> String {
    read("docs/reference.md")
}

#[test]
fn every_command_is_in_the_reference() {
    let text = reference();
    let missing: Vec<&str> = COMMANDS
        .iter()
        .map(|c| c.name)
        .filter(|name| {
            !text.contains(&format!("| `{name}")) && !text.contains(&format!("/ `{name}"))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "commands missing from the reference's table: {missing:?}"
    );
}

#[test]
fn every_hook_is_in_the_reference_with_its_signature_and_kind() {
    let text = reference();
    let missing: Vec<String> = HOOKS
        .iter()
        .map(|h| format!("| `{}` | {} |", h.signature(), h.kind.as_str()))
        .filter(|row| !text.contains(row))
        .collect();
    assert!(
        missing.is_empty(),
        "hooks missing from the reference: {missing:?}"
    );
}

/// The keys serde expects where `section` is written, from the message it
/// gives for an unknown one (`expected one of `name`, `title`, …`).
fn keys_of(section: &str) -> Vec<String> {
    let text = format!(
        "name = \"k\"\ntitle = \"t\"\nscript = \"k_in_a_row.rhai\"\n{section}\nno_such_key = 1\n[board]\nwidth = 3\nheight = 3\n"
    );
    let text = if section == "[board]" {
        "name = \"k\"\ntitle = \"t\"\nscript = \"k_in_a_row.rhai\"\n[board]\nwidth = 3\nheight = 3\nno_such_key = 1\n".to_string()
    } else {
        text
    };
    let err = gridrules_core::Rulebook::from_str_at(&text, "k.toml", None)
        .expect_err("an unknown key is refused");
    let p = err
        .problems
        .iter()
        .find(|p| p.kind == gridrules_core::ProblemKind::UnknownKey)
        .unwrap_or_else(|| panic!("{section}: no unknown key in: {err}"));
    // With no near name to suggest, the help lists the keys.
    let expected = p
        .help
        .as_deref()
        .and_then(|h| h.strip_prefix("expected one of "))
        .unwrap_or_else(|| panic!("no list of keys in `{p}`"));
    let keys: Vec<String> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert!(keys.len() >= 3, "{section}: {keys:?} from `{err}`");
    keys
}

#[test]
fn every_rulebook_key_is_in_the_reference() {
    let text = reference();
    let mut missing = Vec::new();
    for section in ["", "[board]", "[table]", "[[example]]"] {
        for key in keys_of(section) {
            let named = [
                format!("`{key}`"),
                format!("`[{key}]`"),
                format!("`[[{key}]]`"),
            ];
            if !named.iter().any(|n| text.contains(n.as_str())) {
                missing.push(format!("{section} {key}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys missing from the reference: {missing:?}"
    );
}

#[test]
fn every_refusal_and_placeholder_is_in_the_reference() {
    use gridrules_core::rules::REFUSAL_PLACEHOLDERS;
    let text = reference();
    let missing: Vec<&&str> = REFUSAL_KEYS
        .iter()
        .filter(|k| !text.contains(&format!("| `{k}` |")))
        .chain(
            REFUSAL_PLACEHOLDERS
                .iter()
                .filter(|p| !text.contains(&format!("`{p}`"))),
        )
        .collect();
    assert!(
        missing.is_empty(),
        "refusals missing from the reference: {missing:?}"
    );
}

#[test]
fn every_expect_form_and_result_reason_is_in_the_reference() {
    use gridrules_core::game::result_line;
    use gridrules_core::rulebook::EXPECT_KINDS;
    use gridrules_core::{Ending, Outcome, Side};
    let text = reference();
    let mut missing: Vec<String> = EXPECT_KINDS
        .iter()
        .filter(|k| !text.contains(&format!("`{k}`")))
        .map(|k| k.to_string())
        .collect();
    for ending in Ending::one_of_each() {
        for outcome in [Outcome::Win(Side::X), Outcome::Win(Side::O), Outcome::Draw] {
            let line = result_line((outcome, ending));
            if let Some((_, why)) = line.split_once(" — ")
                && !text.contains(&format!(" — {why}`"))
            {
                missing.push(format!("`… — {why}`"));
            }
        }
    }
    missing.dedup();
    assert!(
        missing.is_empty(),
        "expect forms and result reasons missing from the reference: {missing:?}"
    );
}

/// `fn name(params)` definitions at the start of a line of a Rhai script.
fn script_functions(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("fn ")?;
            let (name, params) = rest.split_once('(')?;
            let params = params.split_once(')')?.0;
            Some((name.trim().to_string(), params.to_string()))
        })
        .collect()
}

#[test]
fn every_built_in_module_function_is_in_the_reference() {
    use gridrules_core::builtin::SCRIPTS;
    use gridrules_core::script::hooks::HookId;
    let text = reference();
    let mut missing = Vec::new();
    let mut modules = 0;
    for (module, source) in SCRIPTS {
        let functions = script_functions(source);
        // A rulebook's script defines hooks; a module only helpers.
        if functions
            .iter()
            .any(|(n, _)| HookId::from_name(n).is_some())
        {
            continue;
        }
        modules += 1;
        for (name, params) in functions {
            let call = format!("`{module}::{name}({params})`");
            if !text.contains(&call) {
                missing.push(call);
            }
        }
    }
    assert!(modules >= 5, "only {modules} built-in modules found");
    assert!(
        missing.is_empty(),
        "module functions missing from the reference: {missing:?}"
    );
}

#[test]
fn every_function_and_member_scripts_see_is_in_the_reference() {
    // `core/src/script/api.rs` registers them: functions with
    // `register_fn("name"`, state and move members with `register_get("name"`.
    let api = read("core/src/script/api.rs");
    let text = reference();
    let mut names = Vec::new();
    for marker in [".register_fn(", ".register_get("] {
        for (_, rest) in api
            .match_indices(marker)
            .map(|(i, _)| api.split_at(i + marker.len()))
        {
            let rest = rest.trim_start();
            if let Some(name) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                names.push(name.to_string());
            }
        }
    }
    assert!(names.len() >= 20, "only {names:?} found in api.rs");
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !text.contains(&format!("`{n}(")) && !text.contains(&format!(".{n}")))
        .collect();
    assert!(
        missing.is_empty(),
        "script functions missing from the reference: {missing:?}"
    );
}

#[test]
fn the_readme_lists_every_built_in_rulebook() {
    let text = readme();
    let missing: Vec<&str> = gridrules_core::Rulebook::builtin_names()
        .filter(|name| !text.contains(&format!("| `{name}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "built-in rulebooks missing from the README's table: {missing:?}"
    );
}

/// The reference's table of the params each built-in script reads is
/// the one the built-in rulebooks set (a rulebook of one's own naming the
/// script must set them too).
#[test]
fn the_reference_lists_the_params_of_every_built_in_script() {
    let text = reference();
    let mut want: Vec<(String, Vec<String>)> = Vec::new();
    for name in gridrules_core::Rulebook::builtin_names() {
        let table: toml::Table = gridrules_core::builtin::rulebook(name)
            .unwrap()
            .parse()
            .unwrap();
        let script = table["script"].as_str().unwrap().to_string();
        let mut params: Vec<String> = table
            .get("params")
            .and_then(toml::Value::as_table)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        params.sort();
        want.push((script, params));
    }
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "| script | params |")
        .take_while(|l| l.starts_with('|'))
        .collect();
    for (script, params) in want {
        let row = rows
            .iter()
            .find(|l| l.contains(&format!("`{script}`")))
            .unwrap_or_else(|| panic!("{script}: no row in the reference's table of params"));
        let cells: Vec<&str> = row.split('|').collect();
        let mut listed: Vec<String> = cells[2]
            .split(',')
            .map(|p| p.trim().trim_matches('`').to_string())
            .filter(|p| !p.is_empty() && p != "none")
            .collect();
        listed.sort();
        assert_eq!(listed, params, "{script}: {row}");
    }
}

/// The README opens with the two commands that do everything on a fresh
/// clone, and its test command is the one CI runs.
#[test]
fn the_readme_opens_with_the_commands_ci_runs() {
    let text = readme();
    let first_block = text
        .split("```")
        .nth(1)
        .expect("the README opens with a code block");
    let commands: Vec<&str> = first_block
        .lines()
        .skip(1)
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .collect();
    let ci = read(".ci/run");
    let test = ci
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("cargo test"))
        .expect(".ci/run runs `cargo test`");
    assert_eq!(commands, ["cargo run --release", test], "{first_block}");
}

#[test]
fn the_readme_links_every_page_of_the_docs() {
    let text = readme();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") && !text.contains(&format!("](docs/{name})")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "pages of docs/ the README does not link: {missing:?}"
    );
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((n + 1, line));
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, inline markup and
/// punctuation dropped (but `-` and `_`), each space a `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings; a repeated heading gets `-1`, `-2`, ….
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let mut name = base.clone();
        let mut n = 0;
        while out.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        out.push(name);
    }
    out
}

/// The targets of the inline links `[text](target)` in a line, leaving out
/// code spans.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code = false;
    let mut rest = line;
    while let Some(i) = rest.find(['`', ']']) {
        let c = rest.as_bytes()[i];
        rest = &rest[i + 1..];
        if c == b'`' {
            code = !code;
        } else if !code
            && let Some(after) = rest.strip_prefix('(')
            && let Some(end) = after.find(')')
        {
            out.push(after[..end].to_string());
            rest = &after[end + 1..];
        }
    }
    out
}

#[test]
fn a_heading_anchor_is_made_as_github_makes_it() {
    assert_eq!(
        anchor(" Editing while you play: `reload` and `check --watch`"),
        "editing-while-you-play-reload-and-check---watch"
    );
    assert_eq!(
        anchor(" 5. The order of the engine's checks"),
        "5-the-order-of-the-engines-checks"
    );
    assert_eq!(anchor(" `[[example]]`"), "example");
    assert_eq!(
        anchors("# A\n```\n# not a heading\n```\n## A\n"),
        ["a", "a-1"]
    );
    assert_eq!(
        link_targets("[a](x.md#y) `[b](z)` [c](#d)"),
        ["x.md#y", "#d"]
    );
}

/// Every relative link in the README and `docs/` leads to a file that
/// exists and, after `#`, to one of its headings.
#[test]
fn every_relative_link_leads_somewhere() {
    let mut pages = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        let shown = page.strip_prefix(root()).unwrap_or(page).display();
        for (n, line) in prose(&text) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let path = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                if !path.exists() {
                    broken.push(format!("{shown}:{n}: `{target}`: no such file"));
                    continue;
                }
                if fragment.is_empty() {
                    continue;
                }
                let linked = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&linked).iter().any(|a| a == fragment) {
                    broken.push(format!("{shown}:{n}: `{target}`: no such heading"));
                }
            }
        }
    }
    assert!(checked >= 30, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
