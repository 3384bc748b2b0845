//! Running the `gridrules` binary from the integration tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What a run printed and how it ended.
pub struct Run {
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
    /// The exit code (-1 if killed).
    pub code: i32,
}

/// Runs the binary with `args` in `dir`, `input` piped to stdin (so batch mode).
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> Run {
    run_bytes_in(dir, args, input.as_bytes())
}

/// As [`run_in`] in this directory, with input that need not be UTF-8.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub fn run_bytes(args: &[&str], input: &[u8]) -> Run {
    run_bytes_in(Path::new("."), args, input)
}

fn run_bytes_in(dir: &Path, args: &[&str], input: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        out: String::from_utf8(out.stdout).unwrap(),
        err: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A directory holding a rulebook of the user's own: `<name>.toml` on a
/// `width`×`height` board, its script `<name>.rhai` holding `script`.
#[allow(dead_code)] // Not every test binary that includes this module uses it.
pub fn rulebook_dir(name: &str, width: u32, height: u32, script: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(format!("{name}.toml")),
        format!(
            "name = \"{name}\"\ntitle = \"{name}\"\nscript = \"{name}.rhai\"\n\n[board]\nwidth = {width}\nheight = {height}\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join(format!("{name}.rhai")), script).unwrap();
    dir
}
