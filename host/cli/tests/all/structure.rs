//! The repository's structure, checked: every list that must name each game agrees with the one
//! place games are registered (`arena_host::registry::games`), so a game added or renamed
//! without one of its pieces fails here, loudly, with the piece's path (docs/adding-a-game.md is
//! the checklist); and no module of the host imports in a circle.

use arena_host::registry::game_names;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|err| panic!("reading {path}: {err}"))
}

/// The folders directly under `dir`, except `skip`.
fn folders(dir: &str, skip: &str) -> BTreeSet<String> {
    fs::read_dir(root().join(dir))
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name != skip)
        .collect()
}

fn registered() -> BTreeSet<String> {
    game_names().into_iter().map(str::to_owned).collect()
}

#[test]
fn every_engine_and_wit_package_is_a_registered_game() {
    assert_eq!(folders("games", "core"), registered(), "games/<game> folders vs registry::games()");
    // `common` is every game's shared types, `wasi` the world of bots that are plain programs.
    let wit_games: BTreeSet<String> = folders("wit", "common").into_iter().filter(|name| name != "wasi").collect();
    assert_eq!(wit_games, registered(), "wit/<game> folders vs registry::games()");
}

#[test]
fn every_game_has_its_workspace_entries() {
    let workspace = read("Cargo.toml");
    for game in registered() {
        let folder = format!("\"games/{game}\"");
        let default_members = workspace.lines().find(|line| line.starts_with("default-members")).unwrap();
        assert!(default_members.contains(&folder), "Cargo.toml: default-members lacks {folder}");
        let dependency = format!("arena-{game} = {{ path = \"games/{game}\" }}");
        assert!(workspace.contains(&dependency), "Cargo.toml: [workspace.dependencies] lacks `{dependency}`");
        let profile = format!("[profile.dev.package.arena-{game}]");
        assert!(workspace.contains(&profile), "Cargo.toml lacks {profile} (engines run many playouts in tests)");
        let engine = read(&format!("games/{game}/Cargo.toml"));
        assert!(
            engine.contains(&format!("name = \"arena-{game}\"")),
            "games/{game}/Cargo.toml: the crate is arena-{game}"
        );
    }
}

#[test]
fn every_game_has_its_wit_world_docs_and_sdk_feature() {
    let readme = read("README.md");
    let sdk = read("guest-sdk/rust/Cargo.toml");
    let fuzz = read("tests/fuzz/src/engines.rs");
    for game in registered() {
        let wit = read(&format!("wit/{game}/{game}.wit"));
        assert!(wit.contains(&format!("package arena:{game}@")), "wit/{game}/{game}.wit: package arena:{game}");
        assert!(wit.contains(&format!("docs/games/{game}.md")), "wit/{game}/{game}.wit does not point to its rules");
        assert!(root().join(format!("wit/{game}/deps/common")).exists(), "wit/{game}/deps/common is missing");
        assert!(root().join(format!("docs/games/{game}.md")).is_file(), "docs/games/{game}.md is missing");
        assert!(readme.contains(&format!("(docs/games/{game}.md)")), "README.md does not link docs/games/{game}.md");
        let module = game.replace('-', "_");
        assert!(root().join(format!("guest-sdk/rust/src/{module}.rs")).is_file(), "no SDK module for {game}");
        assert!(sdk.contains(&format!("\n{game} = [")), "guest-sdk/rust/Cargo.toml has no `{game}` feature");
        assert!(fuzz.contains(&format!("(\"{game}\", ")), "tests/fuzz/src/engines.rs: {game} has no engine target");
        let binding = read(&format!("host/src/bindings/{module}.rs"));
        assert!(
            binding.contains("mod round_trip") && binding.contains("_survive_the_round_trip()"),
            "host/src/bindings/{module}.rs has no round_trip test of its conversions"
        );
    }
}

#[test]
fn every_sdk_feature_is_a_game() {
    let sdk = read("guest-sdk/rust/Cargo.toml");
    let features = sdk.split("[features]").nth(1).expect("the SDK has features");
    let section = features.split("\n[").next().unwrap_or_default();
    let names: BTreeSet<String> = section
        .lines()
        .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim().to_owned()))
        // The two features that are not games: the default set and the SDK's allocator.
        .filter(|name| name != "default" && name != "fast-alloc")
        .collect();
    assert_eq!(names, registered(), "guest-sdk/rust/Cargo.toml features vs registry::games()");
}

/// The example bots the registry names are Rust crates in `bots-examples/` built for the game,
/// and each game has its do-nothing glue bot for the SDK benchmark (`tests/bots/fx-glue-GAME`).
#[test]
fn every_game_has_its_example_and_glue_bots() {
    for entry in arena_host::registry::games() {
        let info = entry.info();
        let game = info.name;
        for bot in [info.examples.strong, info.examples.random] {
            let manifest = fs::read_to_string(root().join("bots-examples").join(bot).join("Cargo.toml"))
                .unwrap_or_else(|_| {
                    panic!("{game}: the registry names the example bot {bot}; write bots-examples/{bot}")
                });
            assert!(manifest.contains(&format!("\"{game}\"")), "bots-examples/{bot}/Cargo.toml: not built for {game}");
        }
        let glue = format!("tests/bots/fx-glue-{game}/Cargo.toml");
        assert!(root().join(&glue).is_file(), "{game}: no glue bot for the SDK benchmark ({glue})");
    }
}

/// The arena crates a manifest depends on (its `[dependencies]`, not its dev-dependencies).
fn arena_dependencies(manifest: &str) -> Vec<String> {
    let dependencies = manifest.split("\n[dependencies]").nth(1).unwrap_or_default();
    let dependencies = dependencies.split("\n[").next().unwrap_or_default();
    dependencies
        .lines()
        .filter(|line| line.starts_with("arena-"))
        .filter_map(|line| line.split([' ', '.', '=']).next())
        .map(str::to_owned)
        .collect()
}

/// The host's crates and their layers, bottom first: a crate depends only on arena crates of
/// lower layers (the games' crates, `arena-game` and `arena-<game>`, sit beside the sandbox, which
/// knows nothing of them). docs/design.md#crates-and-the-layering-rule draws the same picture.
const HOST_LAYERS: [(&str, &str, u8); 8] = [
    ("host/sandbox", "arena-sandbox", 0),
    ("host/load", "arena-load", 1),
    ("host/profiler", "arena-profiler", 1),
    ("host", "arena-host", 2),
    ("host/view", "arena-view", 3),
    ("host/tournament", "arena-tournament", 4),
    ("host/serve", "arena-serve", 5),
    ("host/cli", "arena-cli", 6),
];

/// Dependencies point down only, and every crate under `host/` has a layer.
#[test]
fn the_host_crates_depend_downwards_only() {
    let crates_under_host: BTreeSet<String> = fs::read_dir(root().join("host"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .map(|path| format!("host/{}", path.file_name().unwrap().to_string_lossy()))
        .chain(["host".to_owned()])
        .collect();
    let layered: BTreeSet<String> = HOST_LAYERS.iter().map(|(dir, _, _)| (*dir).to_owned()).collect();
    assert_eq!(crates_under_host, layered, "the crates under host/ vs HOST_LAYERS");
    let layer_of = |name: &str| HOST_LAYERS.iter().find(|(_, crate_name, _)| *crate_name == name).map(|layer| layer.2);
    for (dir, name, layer) in HOST_LAYERS {
        let manifest = read(&format!("{dir}/Cargo.toml"));
        assert!(manifest.contains(&format!("name = \"{name}\"")), "{dir}/Cargo.toml: the crate is {name}");
        for dependency in arena_dependencies(&manifest) {
            match layer_of(&dependency) {
                Some(below) => assert!(below < layer, "{dir}/Cargo.toml: {name} depends on {dependency}, not below it"),
                None => assert!(layer > 0, "{dir}/Cargo.toml: the sandbox depends on {dependency}"),
            }
        }
    }
}

/// `text` without its `#[cfg(test)] mod NAME { ... }` blocks (braces counted; a brace inside a
/// string or comment of a test module is rare enough in this code base to be allowed to
/// mis-measure one): the code after a test module still counts.
fn without_test_modules(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(open) = after.find('{').filter(|open| after[..*open].contains("mod ")) else {
            // A `#[cfg(test)]` on something other than a module: keep it and go on.
            kept.push_str("#[cfg(test)]");
            rest = &after["#[cfg(test)]".len()..];
            continue;
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (index, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + index + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    kept.push_str(rest);
    kept
}

#[test]
fn test_modules_are_left_out_and_what_follows_them_is_kept() {
    let text = "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n    fn f() { g() }\n}\nuse crate::c;\n";
    assert_eq!(without_test_modules(text), "use crate::a;\n\nuse crate::c;\n");
}

/// The host's modules (one per file), each with the modules it names through `crate::` or
/// `super::` paths, test code excluded.
fn module_graph(crate_src: &str) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    fn files(dir: &Path, into: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()) {
            if entry.is_dir() {
                files(&entry, into);
            } else if entry.extension().is_some_and(|ext| ext == "rs") {
                into.push(entry);
            }
        }
    }
    let src = root().join(crate_src);
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let module_of = |path: &Path| -> Option<String> {
        let relative = path.strip_prefix(&src).ok()?.with_extension("");
        let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
        if parts.last().is_some_and(|last| last == "mod") {
            parts.pop();
        }
        let name = parts.join("::");
        (name != "lib" && name != "main" && !name.starts_with("cli")).then_some(name)
    };
    let modules: BTreeSet<String> = paths.iter().filter_map(|path| module_of(path)).collect();
    // The deepest module a path names.
    let resolve = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len()).rev().map(|len| parts[..len].join("::")).find(|name| modules.contains(name))
    };
    let mut graph = std::collections::BTreeMap::new();
    for path in &paths {
        let Some(module) = module_of(path) else { continue };
        let text = fs::read_to_string(path).unwrap();
        let code = without_test_modules(&text);
        let parent = module.rsplit_once("::").map(|(parent, _)| parent.to_owned());
        let mut names = BTreeSet::new();
        for line in code.lines().filter(|line| !line.trim_start().starts_with("//")) {
            for (marker, base) in [("crate::", None), ("super::", parent.as_deref())] {
                for (at, _) in line.match_indices(marker) {
                    let rest: String = line[at + marker.len()..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                        .collect();
                    let full = match base {
                        Some(base) => format!("{base}::{rest}"),
                        None => rest,
                    };
                    if let Some(target) = resolve(full.trim_end_matches(':'))
                        && target != module
                        && !module.starts_with(&format!("{target}::"))
                    {
                        names.insert(target);
                    }
                }
            }
        }
        graph.insert(module, names);
    }
    graph
}

/// The vocabulary sits below its users. A circle of imports among the modules of a host crate
/// (replay records in the match loop, seat types in the runner, ...) fails with the circle.
#[test]
fn no_module_of_the_host_imports_in_a_circle() {
    for (crate_src, at_least) in [
        ("host/src", 20),
        ("host/sandbox/src", 10),
        ("host/load/src", 8),
        ("host/profiler/src", 3),
        ("host/tournament/src", 10),
    ] {
        let graph = module_graph(crate_src);
        assert!(graph.len() > at_least, "{crate_src}: {} modules found", graph.len());
        no_circle(crate_src, &graph);
    }
}

/// Depth-first search of `graph` (the modules of `crate_src`) for a back edge, in a fixed order.
fn no_circle(crate_src: &str, graph: &std::collections::BTreeMap<String, BTreeSet<String>>) {
    fn visit(
        module: &str,
        graph: &std::collections::BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<String> {
        if done.contains(module) {
            return None;
        }
        if let Some(at) = path.iter().position(|on| on == module) {
            return Some(format!("{} -> {module}", path[at..].join(" -> ")));
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if let Some(circle) = visit(module, graph, &mut Vec::new(), &mut done) {
            panic!("{crate_src} imports in a circle: {circle}");
        }
    }
}

/// The paths of one fenced block of docs/adding-a-game.md (` ```text INFO `).
fn checklist(info: &str) -> Vec<String> {
    let guide = read("docs/adding-a-game.md");
    let opening = format!("```text {info}\n");
    let start = guide.find(&opening).unwrap_or_else(|| panic!("docs/adding-a-game.md has no {opening:?} block"));
    let block = &guide[start + opening.len()..];
    let block = &block[..block.find("```").expect("the block is closed")];
    block.lines().map(str::trim).filter(|line| !line.is_empty()).map(str::to_owned).collect()
}

/// A checklist path for one game: its placeholders replaced.
fn for_game(path: &str, info: &arena_host::registry::GameInfo) -> String {
    path.replace("{GAME}", info.name)
        .replace("{game}", &info.name.replace('-', "_"))
        .replace("{random}", info.examples.random)
        .replace("{strong}", info.examples.strong)
}

/// Whether `text` names the game called `name` (`code-character` also as `code_character`,
/// `Code Character` or `CodeCharacter`), ignoring case.
fn names_game(text: &str, name: &str) -> bool {
    ["-", "_", " ", ""].iter().any(|joint| text.contains(&name.replace('-', joint)))
}

/// Every text file of the repository (not the build's, git's or npm's folders), relative to the
/// root with `/` separators.
fn repository_files() -> Vec<String> {
    fn walk(dir: &Path, relative: &str, files: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = if relative.is_empty() { name.clone() } else { format!("{relative}/{name}") };
            if entry.file_type().unwrap().is_dir() {
                if !["target", ".git", "node_modules"].contains(&name.as_str()) {
                    walk(&entry.path(), &path, files);
                }
            } else {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root(), "", &mut files);
    files.sort();
    files
}

/// The list of paths in docs/adding-a-game.md is complete and within 25: every required path exists
/// for every registered game, and every file that names every game (a list of games, which a
/// new game would have to join) is a listed path.
#[test]
fn adding_a_game_touches_only_the_listed_paths() {
    let (required, optional) = (checklist("required-paths"), checklist("optional-paths"));
    assert!(required.len() <= 25, "docs/adding-a-game.md lists {} required paths; at most 25", required.len());
    let infos: Vec<_> = arena_host::registry::games().iter().map(|entry| entry.info()).collect();
    for info in &infos {
        for path in &required {
            let path = for_game(path, info);
            assert!(root().join(&path).exists(), "{}: {path} is missing (docs/adding-a-game.md)", info.name);
        }
    }
    let listed = |file: &str| {
        required.iter().chain(&optional).any(|path| {
            infos
                .iter()
                .map(|info| for_game(path, info))
                .any(|path| if path.ends_with('/') { file.starts_with(&path) } else { file == path })
        })
    };
    let mut unlisted = Vec::new();
    for file in repository_files() {
        // The guide itself names the games only as placeholders; binary files name none.
        let Ok(text) = fs::read_to_string(root().join(&file)) else { continue };
        let text = text.to_lowercase();
        if infos.iter().all(|info| names_game(&text, info.name)) && !listed(&file) {
            unlisted.push(file);
        }
    }
    assert!(
        unlisted.is_empty(),
        "these files name every game, so a new game would have to join them, but docs/adding-a-game.md \
         does not list them (derive their lists from the registry, or list them): {unlisted:?}"
    );
}
