//! Type-checking a compiled bot's exports against its game's WIT world without running any of
//! its code.
//!
//! wasmtime's generated bindings check export function types only against a live instance,
//! and instantiating runs the bot's start functions. Instead, for each game the arena builds a
//! reference component once (a dummy core module for the game's `bot` world, encoded by
//! wit-component from the WIT the host's bindings are generated from, compiled by the arena's
//! engine) and compares the bot's export functions with the reference's, type by type:
//! wasmtime's component [`Type`]s compare structurally across components (names of record
//! fields, cases, flags and enum values included), as its own typecheck does. The game WITs
//! define no resources, so the comparison never reaches resource types (where wasmtime would
//! need instance state).

use crate::compile::one_line;
use crate::runtime::Arena;
use wasmtime::Engine;
use wasmtime::component::Component;
use wasmtime::component::types::{ComponentFunc, ComponentInstance, ComponentItem, Type};

/// `arena:common`, which every game's WIT uses.
const COMMON_WIT: &str = include_str!("../../../wit/common/common.wit");

/// Checks that `component` exports instance `export` with every function of `world`'s
/// `export`, at the same types; the error says which function and where its types differ.
pub fn check_world_exports(
    arena: &Arena,
    component: &Component,
    world: &'static str,
    wit: &'static str,
    export: &str,
) -> Result<(), String> {
    let reference = reference(arena, world, wit)?;
    let engine = arena.engine();
    let expected = export_instance(engine, &reference, export)
        .ok_or_else(|| format!("the reference component for {world} has no {export}"))?;
    let found = export_instance(engine, component, export).ok_or_else(|| format!("{export} is not an instance"))?;
    for (name, item) in expected.exports(engine) {
        let ComponentItem::ComponentFunc(expected) = item.ty else { continue };
        let Some(ComponentItem::ComponentFunc(found)) = found.get_export(engine, name).map(|item| item.ty) else {
            return Err(format!("no function `{name}`"));
        };
        compare_funcs(&expected, &found).map_err(|detail| format!("function `{name}`: {detail}"))?;
    }
    Ok(())
}

/// Checks that a WASI command's `wasi:cli/run@0.2.*` export (named `export`) has
/// `run: func() -> result`.
pub fn check_command_exports(engine: &Engine, component: &Component, export: &str) -> Result<(), String> {
    let found = export_instance(engine, component, export).ok_or_else(|| format!("{export} is not an instance"))?;
    let Some(ComponentItem::ComponentFunc(run)) = found.get_export(engine, "run").map(|item| item.ty) else {
        return Err("no function `run`".into());
    };
    let results: Vec<Type> = run.results().collect();
    let plain_result =
        matches!(&results[..], [Type::Result(result)] if result.ok().is_none() && result.err().is_none());
    if run.params().len() != 0 || !plain_result || run.async_() {
        return Err("function `run`: expected `func() -> result`".into());
    }
    Ok(())
}

fn export_instance(engine: &Engine, component: &Component, name: &str) -> Option<ComponentInstance> {
    match component.component_type().get_export(engine, name).map(|item| item.ty) {
        Some(ComponentItem::ComponentInstance(instance)) => Some(instance),
        _ => None,
    }
}

/// The reference component for `world`, built on first use and kept by the arena (and its
/// clones).
fn reference(arena: &Arena, world: &'static str, wit: &'static str) -> Result<Component, String> {
    let mut references = arena.load.references.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, component)) = references.iter().find(|(name, _)| *name == world) {
        return Ok(component.clone());
    }
    let component = build_reference(arena, world, wit)
        .map_err(|err| format!("building the reference component for {world}: {}", one_line(&err)))?;
    references.push((world, component.clone()));
    Ok(component)
}

fn build_reference(arena: &Arena, world: &'static str, wit: &'static str) -> wasmtime::Result<Component> {
    let bytes = encode_reference(world, wit).map_err(wasmtime::Error::from_anyhow)?;
    Component::new(arena.engine(), &bytes)
}

/// The reference component's bytes: a dummy module for `world` (of the game's WIT `wit`),
/// encoded as a component.
fn encode_reference(world: &'static str, wit: &'static str) -> anyhow::Result<Vec<u8>> {
    let mut resolve = wit_parser::Resolve::default();
    resolve.push_str("common.wit", COMMON_WIT)?;
    let package = resolve.push_str("game.wit", wit)?;
    let world_id = resolve.select_world(&[package], Some(world))?;
    let mut module = wit_component::dummy_module(
        &resolve,
        world_id,
        wit_parser::ManglingAndAbi::Legacy(wit_parser::LiftLowerAbi::Sync),
    );
    wit_component::embed_component_metadata(&mut module, &resolve, world_id, wit_component::StringEncoding::UTF8)?;
    wit_component::ComponentEncoder::default().module(&module)?.validate(true).encode()
}

/// Where two function types differ, if they do (parameter names are not compared: wasmtime's
/// typecheck does not either).
fn compare_funcs(expected: &ComponentFunc, found: &ComponentFunc) -> Result<(), String> {
    if expected.async_() != found.async_() {
        return Err(format!("expected an {} function", if expected.async_() { "async" } else { "sync" }));
    }
    let expected_params: Vec<Type> = expected.params().map(|(_, ty)| ty).collect();
    let found_params: Vec<Type> = found.params().map(|(_, ty)| ty).collect();
    compare_lists("parameter", &expected_params, &found_params)?;
    let expected_results: Vec<Type> = expected.results().collect();
    let found_results: Vec<Type> = found.results().collect();
    compare_lists("result", &expected_results, &found_results)
}

fn compare_lists(what: &str, expected: &[Type], found: &[Type]) -> Result<(), String> {
    if expected.len() != found.len() {
        let plural = if expected.len() == 1 { "" } else { "s" };
        return Err(format!("expected {} {what}{plural}, found {}", expected.len(), found.len()));
    }
    for (index, (expected, found)) in expected.iter().zip(found).enumerate() {
        if let Some(detail) = difference(expected, found) {
            return Err(format!("{what} {index}: {detail}"));
        }
    }
    Ok(())
}

/// The first place `found` differs from `expected`, in wasmtime's wording ("expected `record`
/// found `list`"), with the path to it.
fn difference(expected: &Type, found: &Type) -> Option<String> {
    if expected == found {
        return None;
    }
    let (want, got) = (kind(expected), kind(found));
    if want != got {
        return Some(format!("expected `{want}` found `{got}`"));
    }
    let inner = |path: String, expected: Option<Type>, found: Option<Type>| match (expected, found) {
        (Some(expected), Some(found)) => difference(&expected, &found).map(|detail| format!("{path}: {detail}")),
        (None, None) => None,
        (Some(_), None) => Some(format!("{path}: expected a payload, found none")),
        (None, Some(_)) => Some(format!("{path}: expected no payload, found one")),
    };
    let names = |expected: Vec<&str>, found: Vec<&str>| {
        (expected != found).then(|| format!("expected {want} names {expected:?}, found {found:?}"))
    };
    let detail = match (expected, found) {
        (Type::List(a), Type::List(b)) => inner("list element".into(), Some(a.ty()), Some(b.ty())),
        (Type::Option(a), Type::Option(b)) => inner("option payload".into(), Some(a.ty()), Some(b.ty())),
        (Type::Result(a), Type::Result(b)) => {
            inner("result ok".into(), a.ok(), b.ok()).or_else(|| inner("result error".into(), a.err(), b.err()))
        }
        (Type::Tuple(a), Type::Tuple(b)) => {
            let (a, b): (Vec<Type>, Vec<Type>) = (a.types().collect(), b.types().collect());
            compare_lists("tuple element", &a, &b).err()
        }
        (Type::Record(a), Type::Record(b)) => {
            let names =
                names(a.fields().map(|field| field.name).collect(), b.fields().map(|field| field.name).collect());
            names.or_else(|| {
                a.fields()
                    .zip(b.fields())
                    .find_map(|(a, b)| inner(format!("field `{}`", a.name), Some(a.ty), Some(b.ty)))
            })
        }
        (Type::Variant(a), Type::Variant(b)) => {
            let names = names(a.cases().map(|case| case.name).collect(), b.cases().map(|case| case.name).collect());
            names
                .or_else(|| a.cases().zip(b.cases()).find_map(|(a, b)| inner(format!("case `{}`", a.name), a.ty, b.ty)))
        }
        (Type::Enum(a), Type::Enum(b)) => names(a.names().collect(), b.names().collect()),
        (Type::Flags(a), Type::Flags(b)) => names(a.names().collect(), b.names().collect()),
        _ => None,
    };
    Some(detail.unwrap_or_else(|| format!("expected `{want}` found a different `{got}`")))
}

/// A type's kind as WIT spells it.
fn kind(ty: &Type) -> &'static str {
    match ty {
        Type::Bool => "bool",
        Type::S8 => "s8",
        Type::U8 => "u8",
        Type::S16 => "s16",
        Type::U16 => "u16",
        Type::S32 => "s32",
        Type::U32 => "u32",
        Type::S64 => "s64",
        Type::U64 => "u64",
        Type::Float32 => "f32",
        Type::Float64 => "f64",
        Type::Char => "char",
        Type::String => "string",
        Type::List(_) | Type::FixedLengthList(_) => "list",
        Type::Map(_) => "map",
        Type::Record(_) => "record",
        Type::Tuple(_) => "tuple",
        Type::Variant(_) => "variant",
        Type::Enum(_) => "enum",
        Type::Option(_) => "option",
        Type::Result(_) => "result",
        Type::Flags(_) => "flags",
        Type::Own(_) => "own",
        Type::Borrow(_) => "borrow",
        Type::Future(_) => "future",
        Type::Stream(_) => "stream",
        Type::ErrorContext => "error-context",
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// Every game's `bot` world, `(world, wit, export)`, read from the repository's `wit/` folder
    /// (a game's package is `wit/<game>/<game>.wit`; the structure test checks the folders
    /// against the registry).
    fn game_worlds() -> Vec<(&'static str, &'static str, &'static str)> {
        let wit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../wit");
        let mut worlds = Vec::new();
        for entry in std::fs::read_dir(&wit).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let file = wit.join(&name).join(format!("{name}.wit"));
            // `common` holds every game's shared types, not a game.
            if name == "common" || !file.is_file() {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            let package = text.lines().find_map(|line| line.trim().strip_prefix("package ")).unwrap();
            let (name, version) = package.trim_end_matches(';').split_once('@').unwrap();
            let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
            worlds.push((
                leak(format!("{name}/bot@{version}")),
                leak(text.clone()),
                leak(format!("{name}/player@{version}")),
            ));
        }
        worlds.sort_unstable();
        worlds
    }

    /// Every game's reference component builds and exports its player interface.
    #[test]
    fn every_reference_builds() {
        let arena = Arena::new().unwrap();
        let games = game_worlds();
        assert!(games.len() >= 5, "{games:?}");
        for (world, wit, export) in &games {
            let reference = reference(&arena, world, wit).unwrap();
            assert!(export_instance(arena.engine(), &reference, export).is_some(), "{world}");
            // A reference checks against itself.
            check_world_exports(&arena, &reference, world, wit, export).unwrap();
        }
        assert_eq!(arena.load.references.lock().unwrap().len(), games.len());
    }

    /// Another game's reference has the same export names shape but other types.
    #[test]
    fn another_worlds_types_are_a_difference() {
        let arena = Arena::new().unwrap();
        const AZUL_WIT: &str = include_str!("../../../wit/azul/azul.wit");
        const PAINT_WIT: &str = include_str!("../../../wit/paint/paint.wit");
        let paint = reference(&arena, "arena:paint/bot@0.1.0", PAINT_WIT).unwrap();
        // Paint's player, checked as if it were a paint bot with Azul's types.
        let expected = export_instance(
            arena.engine(),
            &reference(&arena, "arena:azul/bot@0.2.0", AZUL_WIT).unwrap(),
            "arena:azul/player@0.2.0",
        )
        .unwrap();
        let found = export_instance(arena.engine(), &paint, "arena:paint/player@0.1.0").unwrap();
        let (Some(ComponentItem::ComponentFunc(a)), Some(ComponentItem::ComponentFunc(b))) = (
            expected.get_export(arena.engine(), "take-turn").map(|item| item.ty),
            found.get_export(arena.engine(), "take-turn").map(|item| item.ty),
        ) else {
            panic!("both have take-turn");
        };
        let err = compare_funcs(&a, &b).unwrap_err();
        assert!(err.starts_with("parameter 0: "), "{err}");
    }
}
