//! `pbrain-gridrules`: `gridrules brain` under the name Gomocup managers
//! look for. `--rules <rulebook>` chooses the rulebook (gomoku by default).

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = match &args[..] {
        [] => gridrules::brain::DEFAULT_RULES.to_string(),
        [flag, name] if flag == "--rules" || flag == "-r" => name.clone(),
        _ => {
            eprintln!("usage: pbrain-gridrules [--rules <rulebook|file.toml>]");
            return std::process::ExitCode::from(2);
        }
    };
    gridrules::brain::main(rules)
}
