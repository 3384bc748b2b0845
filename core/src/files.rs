//! The files gridrules reads and writes, and the rules it keeps with them:
//! it reads only regular files of a bounded size with the expected
//! extension, and it writes only over regular files of the same kind,
//! through a fresh temporary file that it creates itself.

use std::fs::{self, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// A kind of file gridrules reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// What it is called in messages.
    pub what: &'static str,
    /// Its extension, without the dot.
    pub extension: &'static str,
    /// The most bytes it may hold.
    pub max_bytes: u64,
}

/// A rulebook: TOML, well under a megabyte.
pub const RULEBOOK: Kind = Kind {
    what: "rulebook",
    extension: "toml",
    max_bytes: 1 << 20,
};

/// A Rhai script, or a module a script imports.
pub const SCRIPT: Kind = Kind {
    what: "script",
    extension: "rhai",
    max_bytes: 1 << 20,
};

/// Which of the two TOML kinds `text` reads as by its top-level keys: a
/// rulebook has `[board]` and no `rulebook` key, a game record a
/// `rulebook` key and no `[board]`; `None` when it is neither or does not
/// parse. Loading one kind where the other is expected says so at once,
/// instead of listing every key the wrong format lacks.
pub fn toml_kind(text: &str) -> Option<Kind> {
    let table: toml::Table = text.parse().ok()?;
    match (table.contains_key("board"), table.contains_key("rulebook")) {
        (true, false) => Some(RULEBOOK),
        (false, true) => Some(RECORD),
        _ => None,
    }
}

/// A game record: TOML, with room for very long games.
pub const RECORD: Kind = Kind {
    what: "record",
    extension: "toml",
    max_bytes: 16 << 20,
};

fn refused(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

/// Reads `path` as a file of `kind`. Nothing is opened that is not a
/// regular file (a device, a FIFO or a directory would hang or never end),
/// and no more than `kind.max_bytes` are read.
///
/// # Errors
/// Why it cannot be read; `NotFound` when there is no such file.
pub fn read(path: &Path, kind: Kind) -> io::Result<String> {
    if path.extension().and_then(|e| e.to_str()) != Some(kind.extension) {
        // A script given for its rulebook: the file beside it of the kind
        // asked for, when there is one, is most likely what was meant.
        let beside = path.with_extension(kind.extension);
        let hint = match () {
            // A game record beside the rulebook asked for: following "did
            // you mean" was refused.
            () if kind != RECORD && is_game_record(&beside) => format!(
                ": `{0}` is a game record: open it with `open {0}`",
                beside.display()
            ),
            _ if beside.is_file() => format!(": did you mean `{}`?", beside.display()),
            _ => String::new(),
        };
        return Err(refused(format!(
            "a {} is a .{} file{hint}",
            kind.what, kind.extension
        )));
    }
    // `metadata` does not open the file, so a FIFO cannot block it.
    let meta = fs::metadata(path).map_err(plain)?;
    if !meta.is_file() {
        return Err(refused("not a regular file".to_string()));
    }
    if meta.len() > kind.max_bytes {
        return Err(too_large(kind));
    }
    let mut bytes = Vec::new();
    // Bounded again while reading: the file may grow, or report no size.
    fs::File::open(path)
        .map_err(plain)?
        .take(kind.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(plain)?;
    if bytes.len() as u64 > kind.max_bytes {
        return Err(too_large(kind));
    }
    String::from_utf8(bytes).map_err(|_| refused("not UTF-8 text".to_string()))
}

/// The system's error said in the words of the rest of the messages: the
/// two everybody meets without the OS's "(os error 2)"; the kind is kept,
/// for callers that tell a missing file from an unreadable one.
fn plain(e: io::Error) -> io::Error {
    let said = match e.kind() {
        io::ErrorKind::NotFound => "no such file",
        io::ErrorKind::PermissionDenied => "permission denied",
        _ => return e,
    };
    io::Error::new(e.kind(), said)
}

fn too_large(kind: Kind) -> io::Error {
    refused(format!(
        "too large for a {} (at most {} KiB)",
        kind.what,
        kind.max_bytes / 1024
    ))
}

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// Something else is at the path: writing would destroy it. Holds what.
    NotOurs(String),
    /// The folder the file would go in does not exist. Holds the folder.
    NoFolder(std::path::PathBuf),
    /// The system refused.
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::NotOurs(why) => f.write_str(why),
            WriteError::NoFolder(dir) => write!(f, "there is no folder {}", dir.display()),
            WriteError::Io(e) => e.fmt(f),
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Writes `text` to `path` as a whole: into a temporary file beside it,
/// then renamed over it, so a crash never leaves half a file. An existing
/// file is replaced only if it is a regular file that starts with `header`
/// (one gridrules wrote, of the same kind) or `force` is given; it keeps its
/// permissions. A symbolic link is followed to the file it names.
///
/// # Errors
/// Something other than such a file is at the path, or the system refused.
pub fn write_replacing(
    path: &Path,
    text: &str,
    header: &str,
    force: bool,
) -> Result<(), WriteError> {
    let target = match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(WriteError::NotOurs(
                "not a regular file: gridrules writes only to files".to_string(),
            ));
        }
        Ok(meta) => {
            if !force && !starts_with(path, header)? {
                // Another kind of file gridrules writes is named as such:
                // "gridrules did not write it" would be untrue.
                let what = match (kind_of(header), kind_of(&first_line(path)?)) {
                    (Some(this), Some(that)) if this != that => {
                        format!("the file holds a gridrules {that}, not a {this}")
                    }
                    _ => "the file exists and gridrules did not write it".to_string(),
                };
                return Err(WriteError::NotOurs(format!(
                    "{what}: choose another name, or add `--force` to replace it"
                )));
            }
            Some((fs::canonicalize(path)?, meta.permissions()))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e.into()),
    };
    let (path, permissions) = match target {
        Some((real, p)) => (real, Some(p)),
        None => (path.to_path_buf(), None),
    };
    // The system would say `No such file or directory` of the file, which
    // misleads: what is missing is the folder.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.is_dir()
    {
        return Err(WriteError::NoFolder(dir.to_path_buf()));
    }
    let (tmp, mut file) = create_temporary(&path)?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .and_then(|()| match permissions {
            Some(p) => fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| fs::rename(&tmp, &path));
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(e.into());
    }
    Ok(())
}

/// The kind of file a gridrules header names (`game record` for
/// `# gridrules game record: …`).
fn kind_of(header: &str) -> Option<&str> {
    let rest = header.strip_prefix("# gridrules ")?;
    let kind = rest.split(':').next()?.trim();
    // Read from the file: only plain words are shown.
    let plain = kind.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ');
    (plain && !kind.is_empty() && kind.len() <= 40).then_some(kind)
}

/// The first line of every game record gridrules writes (see
/// [`crate::record::HEADER`]): a record may be saved over a file that
/// starts with it, and a file that does is offered and named as a record.
pub const RECORD_HEADER: &str = "# gridrules game record";

/// Whether `path` is a regular file that starts as the game records
/// gridrules writes do ([`RECORD_HEADER`]). Never opens anything else: a
/// FIFO would hang the read.
pub fn is_game_record(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file())
        && first_line(path).is_ok_and(|l| l.starts_with(RECORD_HEADER))
}

/// The first line of the file at `path`, as far as its first 128 bytes go
/// (a gridrules file's header).
///
/// # Errors
/// The file cannot be read.
pub fn first_line(path: &Path) -> io::Result<String> {
    let mut start = Vec::new();
    fs::File::open(path)?.take(128).read_to_end(&mut start)?;
    let text = String::from_utf8_lossy(&start);
    Ok(text.lines().next().unwrap_or_default().to_string())
}

/// Whether the file at `path` begins with `header`.
fn starts_with(path: &Path, header: &str) -> io::Result<bool> {
    let mut start = vec![0; header.len()];
    let mut file = fs::File::open(path)?;
    let mut read = 0;
    while read < start.len() {
        match file.read(&mut start[read..])? {
            0 => break,
            n => read += n,
        }
    }
    // An empty file holds nothing to lose.
    Ok(read == 0 || start[..read] == *header.as_bytes())
}

/// A new file beside `path` with a name no one can guess, created by this
/// call (never one that was there, nor through a link planted there).
fn create_temporary(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    use std::hash::{BuildHasher, Hasher};
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| refused("not a file name".to_string()))?
        .to_string_lossy();
    for attempt in 0u32..16 {
        // RandomState is seeded from the system's randomness per process.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(attempt);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", h.finish()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a temporary file",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A script given where its rulebook was meant is answered with the
    /// rulebook beside it (a new user loaded `diag4.rhai`); with none
    /// beside, only the kind is said.
    #[test]
    fn a_file_of_another_kind_points_at_the_one_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("mine.rhai");
        fs::write(&script, "fn lines() {}").unwrap();
        let e = read(&script, RULEBOOK).unwrap_err().to_string();
        assert_eq!(e, "a rulebook is a .toml file");
        fs::write(dir.path().join("mine.toml"), "").unwrap();
        let e = read(&script, RULEBOOK).unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "a rulebook is a .toml file: did you mean `{}`?",
                dir.path().join("mine.toml").display()
            )
        );
        // A game record beside is named as one: "did you mean" sent a user
        // to `load` it, which is refused.
        let game = dir.path().join("game.toml");
        fs::write(&game, format!("{RECORD_HEADER}: edit it freely\n")).unwrap();
        let e = read(&dir.path().join("game"), RULEBOOK)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "a rulebook is a .toml file: `{0}` is a game record: open it with `open {0}`",
                game.display()
            )
        );
        assert!(is_game_record(&game));
        assert!(!is_game_record(&dir.path().join("mine.toml")));
        assert!(!is_game_record(dir.path()), "a folder is no record");
    }
}
