//! Compiling untrusted code is bounded, and loading runs no bot code. A
//! compile bomb is refused by the static shape limits before Cranelift sees it; a component
//! whose memories start larger than the match grants is refused at load; a start function is
//! never run at load (export types are checked against the WIT without instantiating). The
//! compile worker's own bounds are exercised through the CLI (host/cli/tests/all/cli_compile.rs).

use arena_host::bindings::azul::AzulBinding;
use arena_host::bot_data::BotFiles;
use arena_host::cache::ArtifactCache;
use arena_host::loader::World;
use arena_host::loader::{LoadError, Loader, compile, is_command, load_bot_bytes, load_command_component};
use arena_host::registry::{PlayError, find_game};
use arena_host::shape::bomb_wat;
use arena_host::{Arena, Budget};
use arena_tests::{arena, bot_path, scratch};
use std::path::{Path, PathBuf};

/// A component wrapping the core module `module` (WAT text).
fn component_of(module: &str) -> Vec<u8> {
    wat::parse_str(format!("{})", module.replacen("(module", "(component (core module", 1))).unwrap()
}

/// The reported bomb (one function, 5000 nested blocks and 5000 locals: 125 KB) is refused with
/// the shape error naming module, function and limit, without being compiled.
#[test]
fn the_nested_blocks_bomb_is_refused_before_compiling() {
    let bytes = component_of(&bomb_wat(5_000, 5_000));
    assert!((100_000..150_000).contains(&bytes.len()), "the reported size: {}", bytes.len());
    let err =
        compile(&Loader::for_any_match(arena()), Path::new("bomb.wasm"), &bytes, AzulBinding::EXPORT).err().unwrap();
    assert!(matches!(err, LoadError::Shape { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "bomb.wasm: core module 0, function 0 nests blocks more than 3000 deep; the limit is 3000"
    );
}

/// A function at the depth limit, with locals x depth just under its limit, compiles.
#[test]
fn a_module_just_under_the_shape_limits_compiles() {
    let bytes = component_of(&bomb_wat(3_000, 666));
    compile(&Loader::for_any_match(arena()), Path::new("deep.wasm"), &bytes, AzulBinding::EXPORT).unwrap();
}

/// Writes `bytes` to a scratch file `name`.
fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A component declaring 200 MiB of initial memory can never start under the default 64 MiB:
/// a match refuses it at load. Under a budget granting 256 MiB it passes this check (and is
/// then refused for exporting nothing).
#[test]
fn a_component_whose_memory_can_never_fit_is_refused_at_load() {
    let file = scratch_file("big-memory.wasm", &wat::parse_str("(component (core module (memory 3200)))").unwrap());
    let azul = find_game("azul").unwrap();
    let bots = [bot_path("azul-greedy"), file.clone()];
    let err = azul.play(arena(), &BotFiles::all_code_only(&bots), &[], 0, Budget::default()).err().unwrap();
    let PlayError::Load(err) = err else { panic!("{err}") };
    assert!(matches!(err, LoadError::InitialMemory { declared_mib: 200, limit_mib: 64, .. }), "{err}");
    assert_eq!(err.to_string(), format!("{}: declares 200 MiB of initial memory; the limit is 64 MiB", file.display()));
    let roomy = Budget { memory_mib: 256, ..Budget::default() };
    let err = azul.play(arena(), &BotFiles::all_code_only(&bots), &[], 0, roomy).err().unwrap();
    assert!(matches!(err, PlayError::Load(LoadError::WrongWorld { .. })), "{err}");
    // A library load without a match checks against the most any match may grant.
    assert_eq!(Loader::for_any_match(arena()).memory_mib(), 4096);
}

/// An arena with a fresh artifact cache of its own (so hits and misses can be counted).
fn cached_arena(cache_name: &str) -> (Arena, ArtifactCache) {
    let dir = scratch(cache_name);
    let _ = std::fs::remove_dir_all(&dir);
    let cache = ArtifactCache::new(&dir);
    (Arena::new().unwrap().with_cache(Some(cache.clone())), cache)
}

/// Through the artifact cache, the shape scan still runs before compiling: a bomb is refused
/// with the shape error and leaves no entry behind (violated); a component within the limits
/// compiles once and then loads from its entry (obeyed).
#[test]
fn through_the_cache_a_bomb_is_refused_uncompiled_and_stores_nothing() {
    let (cached, cache) = cached_arena("cache-bomb");
    let cached = &Loader::new(&cached, 64);
    let bomb = component_of(&bomb_wat(5_000, 5_000));
    let err = compile(cached, Path::new("bomb.wasm"), &bomb, AzulBinding::EXPORT).err().unwrap();
    assert!(matches!(err, LoadError::Shape { .. }), "{err}");
    assert_eq!(cache.info().unwrap().entries, 0);
    let fine = component_of(&bomb_wat(3_000, 666));
    for _ in 0..2 {
        compile(cached, Path::new("deep.wasm"), &fine, AzulBinding::EXPORT).unwrap();
    }
    // Two misses (the bomb's lookup found nothing, and stored nothing), one hit, one entry.
    assert_eq!((cache.misses(), cache.hits(), cache.info().unwrap().entries), (2, 1, 1));
}

/// A cache hit skips the shape scan but not the checks built on it: the entry keeps what the
/// scan found (200 MiB of initial memory), so the component compiled under a 256 MiB limit
/// (obeyed) is still refused, from its entry, under 64 MiB (violated). On a miss under 64 MiB
/// it is refused before compiling.
#[test]
fn a_cache_hit_still_refuses_a_memory_that_can_never_fit() {
    let big = wat::parse_str("(component (core module (memory 3200)))").unwrap();
    // On a miss the refusal comes before compiling: nothing is stored.
    let (arena, cache) = cached_arena("cache-facts");
    let err = compile(&Loader::new(&arena, 64), Path::new("big-memory.wasm"), &big, AzulBinding::EXPORT).err().unwrap();
    assert!(matches!(err, LoadError::InitialMemory { declared_mib: 200, limit_mib: 64, .. }), "{err}");
    assert_eq!(cache.info().unwrap().entries, 0, "refused uncompiled");
    compile(&Loader::new(&arena, 256), Path::new("big-memory.wasm"), &big, AzulBinding::EXPORT).unwrap();
    assert_eq!((cache.misses(), cache.hits()), (2, 0));
    let err = compile(&Loader::new(&arena, 64), Path::new("big-memory.wasm"), &big, AzulBinding::EXPORT).err().unwrap();
    assert!(matches!(err, LoadError::InitialMemory { declared_mib: 200, limit_mib: 64, .. }), "{err}");
    assert_eq!((cache.misses(), cache.hits()), (2, 1), "refused from the cache entry, not compiled again");
}

/// One set of per-bot limits whatever the allocator (`arena_host::limits`): a bot over them is
/// refused when it loads, with the pool's own message, both in a tournament's pooling arena and
/// in the on-demand arena `arena match` and `replay verify` use (violated); a bot at them loads
/// in both (obeyed). A bot over the pool's limits used to load and play in `arena match` and be
/// refused (or retried forever) in a tournament, so its replays did not verify there.
#[test]
fn a_bot_over_the_per_bot_limits_is_refused_at_load_whatever_the_allocator() {
    use arena_host::limits::{MAX_CORE_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES};
    // `count` core instances of a module defining `memories` memories and `tables` tables of
    // `elements` elements each.
    let component = |count: usize, memories: usize, tables: usize, elements: usize| {
        let module = format!(
            "(core module $m {} {})",
            "(memory 1)".repeat(memories),
            format!("(table {elements} funcref)").repeat(tables)
        );
        let instances = "(core instance (instantiate $m))".repeat(count);
        wat::parse_str(format!("(component {module} {instances})")).unwrap()
    };
    let cases = [
        (
            "instances",
            component(MAX_CORE_INSTANCES, 0, 0, 0),
            component(MAX_CORE_INSTANCES + 1, 0, 0, 0),
            "core module instances",
        ),
        ("memories", component(MAX_MEMORIES, 1, 0, 0), component(MAX_MEMORIES + 1, 1, 0, 0), "memories"),
        ("memories in a module", component(1, MAX_MEMORIES, 0, 0), component(1, MAX_MEMORIES + 1, 0, 0), "memor"),
        ("tables", component(MAX_TABLES, 0, 1, 1), component(MAX_TABLES + 1, 0, 1, 1), "tables"),
        ("tables in a module", component(1, 0, MAX_TABLES, 1), component(1, 0, MAX_TABLES + 1, 1), "table"),
        ("table elements", component(1, 0, 1, MAX_TABLE_ELEMENTS), component(1, 0, 1, MAX_TABLE_ELEMENTS + 1), "table"),
    ];
    let pooled = Arena::with_options(arena_host::engine::ArenaOptions::for_tournament(1, 2, 64)).unwrap();
    let on_demand = Arena::new().unwrap();
    for (what, at_limit, over_limit, message) in &cases {
        let mut refusals = Vec::new();
        for (allocator, arena) in [("pooling", &pooled), ("on demand", &on_demand)] {
            compile(&Loader::for_any_match(arena), Path::new("at.wasm"), at_limit, AzulBinding::EXPORT)
                .unwrap_or_else(|err| panic!("{what} at the limit, {allocator}: {err}"));
            let err =
                match compile(&Loader::for_any_match(arena), Path::new("over.wasm"), over_limit, AzulBinding::EXPORT) {
                    Err(err) => err,
                    Ok(_) => panic!("{what} over the limit loaded, {allocator}"),
                };
            assert!(
                matches!(err, LoadError::Invalid { .. } | LoadError::InitialTable { .. }),
                "{what}, {allocator}: {err}"
            );
            assert!(err.to_string().contains(message), "{what}, {allocator}: {err}");
            refusals.push(err.to_string());
        }
        assert_eq!(refusals[0], refusals[1], "{what}: the same refusal whatever the allocator");
    }
}

/// A core module whose start function never returns, instantiated by a component exporting
/// `exports` (WAT).
fn spinning_component(exports: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(component
            (core module $m
                (func $spin (loop $forever (br $forever)))
                (start $spin)
                (func (export "run") (result i32) (i32.const 0))
                (func (export "init")))
            (core instance $i (instantiate $m))
            {exports})"#
    ))
    .unwrap()
}

/// Loading runs no bot code: a WASI command whose start function never returns loads (its
/// types are right), and a WIT bot whose start function never returns is refused for its types
/// (there used to be a trial instantiation, which ran the start function on fuel charged to no
/// one).
#[test]
fn a_start_function_is_never_run_at_load() {
    let command = spinning_component(
        r#"(func $run (result (result)) (canon lift (core func $i "run")))
           (instance $cli (export "run" (func $run)))
           (export "wasi:cli/run@0.2.0" (instance $cli))"#,
    );
    let path = Path::new("spinning-command.wasm");
    let compiled = compile(&Loader::for_any_match(arena()), path, &command, AzulBinding::EXPORT).unwrap();
    assert!(is_command(arena(), &compiled.component));
    let loaded = load_command_component(arena(), path, compiled).unwrap();
    assert_eq!(loaded.name, "spinning-command");

    let wit_bot = spinning_component(
        r#"(func $init (canon lift (core func $i "init")))
           (func $turn (canon lift (core func $i "init")))
           (instance $player (export "init" (func $init)) (export "take-turn" (func $turn)))
           (export "arena:azul/player@0.2.0" (instance $player))"#,
    );
    let err = load_bot_bytes::<AzulBinding>(arena(), Path::new("spinning-bot.wasm"), &wit_bot).err().unwrap();
    assert!(matches!(err, LoadError::WrongTypes { .. }), "{err}");
    assert!(err.to_string().contains("function `init`: expected 1 parameter, found 0"), "{err}");
}
