//! Embeds every built-in rulebook (`rules/*.toml`) and script (`scripts/*.rhai`).
//!
//! The directories are the registry: adding a file adds a built-in, and the
//! engine's source never names a variant.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn table(out: &mut String, name: &str, dir: &Path, ext: &str) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    entries.sort_by_key(|p| p.file_stem().map(|s| s.to_os_string()));
    writeln!(out, "/// Built-in files: (name, contents), sorted by name.").unwrap();
    writeln!(out, "pub const {name}: &[(&str, &str)] = &[").unwrap();
    for path in entries {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path.file_stem().unwrap().to_string_lossy();
        writeln!(
            out,
            "    ({stem:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    let root = root.canonicalize().unwrap();
    let mut out = String::new();
    table(&mut out, "RULEBOOKS", &root.join("rules"), "toml");
    table(&mut out, "SCRIPTS", &root.join("scripts"), "rhai");
    fs::write(
        Path::new(&env::var("OUT_DIR").unwrap()).join("builtin.rs"),
        out,
    )
    .unwrap();
}
