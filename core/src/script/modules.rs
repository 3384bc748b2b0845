//! `import "name"`: the built-in modules, and the modules a script may
//! import from files, read under the same rules as the script itself
//! ([`crate::files::read`]: regular files of at most a megabyte, never a
//! FIFO or a device) and only from inside the rulebook's folder.

use crate::error::Source;
use crate::files;
use crate::script::limits;
use rhai::{Engine, EvalAltResult, Module, Position, Scope, Shared};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The file `import "name"` reads, in the rulebook's folder: `name.rhai`,
/// whatever `name` ends with (`import "x.rhai"` reads `x.rhai.rhai`).
pub fn module_file(name: &str) -> String {
    format!("{name}.rhai")
}

/// Serves `import "name"`: a built-in module of that name, else
/// `name.rhai` in the rulebook's folder (a built-in rulebook has none),
/// each file read and run once.
pub(crate) struct Modules {
    builtins: Vec<(&'static str, Shared<Module>)>,
    /// The folder, as the system names it (links resolved); `None` when
    /// there is none or it cannot be read.
    folder: Option<PathBuf>,
    /// The folder as the rulebook named it, for messages.
    shown: PathBuf,
    loaded: Mutex<HashMap<PathBuf, Shared<Module>>>,
    /// The text of every module read, which diagnostics point into.
    texts: Arc<Mutex<Vec<Source>>>,
    /// What the modules read so far hold, in bytes.
    kept: Mutex<u64>,
}

impl Modules {
    /// The `builtins`, and modules from `folder`, the one the rulebook is in.
    pub(crate) fn new(
        builtins: Vec<(&'static str, Shared<Module>)>,
        folder: Option<&Path>,
        texts: Arc<Mutex<Vec<Source>>>,
    ) -> Modules {
        // A rulebook named without a folder (`my.toml`) is in the current one.
        let real = folder.map(|f| {
            if f.as_os_str().is_empty() {
                Path::new(".")
            } else {
                f
            }
        });
        Modules {
            builtins,
            folder: real.and_then(|f| f.canonicalize().ok()),
            shown: folder.map(Path::to_path_buf).unwrap_or_default(),
            loaded: Mutex::new(HashMap::new()),
            texts,
            kept: Mutex::new(0),
        }
    }

    /// The file `import name` reads, once it is known to lie inside the
    /// folder (a link may lead out of it, as may `..` or an absolute path).
    fn file(&self, name: &str) -> Result<PathBuf, String> {
        let outside = || {
            format!(
                "module `{name}` is outside the rulebook's folder: `import` reads only .rhai files in it (a link out of it, or a file with other names, counts as outside)"
            )
        };
        let Some(folder) = &self.folder else {
            return Err(format!(
                "the rulebook's folder cannot be read: {}",
                self.shown.display()
            ));
        };
        if Path::new(name).is_absolute() {
            return Err(outside());
        }
        let wanted = folder.join(module_file(name));
        match wanted.canonicalize() {
            Ok(real) if real.starts_with(folder) && !hard_linked(&real) => Ok(real),
            Ok(_) => Err(outside()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!(
                "module `{name}` not found: there is no `{name}.rhai` in the rulebook's folder, and no built-in module of that name"
            )),
            Err(e) => Err(format!("module `{name}` cannot be read: {e}")),
        }
    }

    /// The module `import name` names, run once; the error points at the
    /// `import` (at `pos`), or into the module.
    fn load(
        &self,
        engine: &Engine,
        name: &str,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        let refused = |why: String| Box::new(EvalAltResult::ErrorRuntime(why.into(), pos));
        let file = self.file(name).map_err(refused)?;
        if let Some(module) = self.loaded().get(&file) {
            return Ok(module.clone());
        }
        let _importing = Importing::enter(&file).ok_or_else(|| {
            refused(format!(
                "module `{name}` imports itself, through the modules it imports"
            ))
        })?;
        let text = files::read(&file, files::SCRIPT)
            .map_err(|e| refused(format!("module `{name}` cannot be read: {e}")))?;
        let shown = self.shown.join(module_file(name)).display().to_string();
        let in_module =
            |e: Box<EvalAltResult>| Box::new(EvalAltResult::ErrorInModule(shown.clone(), e, pos));
        {
            // Once per file: a module that fails is read again at each
            // `import`, and must not be kept again each time.
            let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
            if !texts.iter().any(|t| t.path == shown) {
                texts.push(Source::new(shown.clone(), text.as_str()));
            }
        }
        let mut ast = engine.compile(&text).map_err(|e| in_module(e.into()))?;
        ast.set_source(shown.as_str());
        let mut module = Module::eval_ast_as_new(Scope::new(), &ast, engine).map_err(in_module)?;
        module.set_id(shown.as_str());
        // Every module read stays for as long as the rulebook: what they
        // hold in all is bounded as the top level's is.
        let limit = limits::KEPT_MIB << 20;
        // Held across the count, so that two threads importing at once
        // cannot both fit in the room left for one.
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let held = module_bytes(&module, limit.saturating_sub(*kept));
        let Some(total) = held.map(|h| *kept + h).filter(|&t| t <= limit) else {
            return Err(refused(format!(
                "module `{name}` leaves more than the {} MiB that the modules a script imports may hold in all (closures' captured values counted)",
                limits::KEPT_MIB
            )));
        };
        *kept = total;
        drop(kept);
        let module = Shared::new(module);
        self.loaded().insert(file, module.clone());
        Ok(module)
    }

    fn loaded(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Shared<Module>>> {
        self.loaded.lock().unwrap_or_else(|e| e.into_inner())
    }
}

thread_local! {
    /// The module files being run on this thread, outermost first.
    static IMPORTING: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A module file being run: while it is, importing it again is a cycle
/// (which would otherwise recurse until the stack overflows).
struct Importing;

impl Importing {
    fn enter(file: &Path) -> Option<Importing> {
        IMPORTING.with(|i| {
            let mut files = i.borrow_mut();
            if files.iter().any(|f| f == file) {
                return None;
            }
            files.push(file.to_path_buf());
            Some(Importing)
        })
    }
}

impl Drop for Importing {
    fn drop(&mut self) {
        IMPORTING.with(|i| i.borrow_mut().pop());
    }
}

impl rhai::ModuleResolver for Modules {
    fn resolve(
        &self,
        engine: &Engine,
        _source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        match self.builtins.iter().find(|(name, _)| *name == path) {
            Some((_, module)) => Ok(module.clone()),
            None => self.load(engine, path, pos),
        }
    }
}

/// About how many bytes `module`'s variables and sub-modules hold, up to
/// past `limit`; `None` when they nest too deep to count.
pub(crate) fn module_bytes(module: &Module, limit: u64) -> Option<u64> {
    let mut total = 0;
    for (_, value) in module.iter_var() {
        total += limits::bytes_held(value, limit.saturating_sub(total))?;
        if total > limit {
            return Some(total);
        }
    }
    for (_, sub) in module.iter_sub_modules() {
        total += module_bytes(sub, limit.saturating_sub(total))?;
        if total > limit {
            return Some(total);
        }
    }
    Some(total)
}

/// Whether `file` has other names: a hard link may be a file from outside
/// the folder, which no path shows.
#[cfg(unix)]
fn hard_linked(file: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.nlink() > 1)
}

#[cfg(not(unix))]
fn hard_linked(_file: &Path) -> bool {
    false
}
