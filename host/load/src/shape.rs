//! Static shape limits on a bot's code, checked with `wasmparser` before anything is compiled,
//! and the memory and tables its core modules declare.
//!
//! Compiling is the one thing the host does with a bot's code that no fuel meters: Cranelift's
//! time and memory grow faster than linearly with some shapes of function (a 125 KB module of
//! one function with thousands of nested blocks and locals took 3.5 GB and 12-24 s). Every
//! core module in the component (nested components included) is scanned, and a function or
//! module over a limit below is refused before compilation. The compile worker
//! ([`crate::compile`]) bounds the time and memory of whatever shapes these let through.
//!
//! The scan also sums the initial sizes of the linear memories and tables the core modules
//! define, so a bot that could never start under the match's memory limit is refused at load
//! instead of forfeiting in the match. A module instantiated several times is counted once, so
//! this is a lower bound on what the bot needs: exactly what a refusal may rely on.

use wasmparser::{Operator, Parser, Payload, TypeRef};

/// Limits on the shape of a bot's code (see [`ShapeLimits::DEFAULT`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeLimits {
    /// Bytes of one function body.
    pub function_bytes: u64,
    /// Locals of one function (parameters not counted).
    pub function_locals: u64,
    /// Nesting of `block`/`loop`/`if`/`try`/`try_table` in one function.
    pub nesting_depth: u64,
    /// Locals times nesting depth in one function: the product is what Cranelift's SSA
    /// construction pays for (every block boundary carries every live local).
    pub locals_times_depth: u64,
    /// Functions defined by one core module.
    pub module_functions: u64,
    /// Bytes of code (all function bodies) of one core module.
    pub module_code_bytes: u64,
}

impl ShapeLimits {
    /// The limits every load uses.
    ///
    /// Measured maxima over every bot in `target/bots` (the componentize-py and componentize-js
    /// interpreter components are the largest, 12-19 MB; the C and Rust bots are far below):
    ///
    /// | measure                 | largest real bot             | limit      |
    /// |-------------------------|------------------------------|------------|
    /// | function body bytes     | 426_843 (azul-random-py)     | 4_000_000  |
    /// | locals in a function    | 271 (azul-random-py)         | 20_000     |
    /// | nesting depth           | 781 (azul-random-py)         | 3_000      |
    /// | locals x depth          | 21_070 (azul-random-js)      | 2_000_000  |
    /// | functions in a module   | 12_406 (azul-random-js)      | 200_000    |
    /// | code bytes in a module  | 8_965_147 (paint-random-js)  | 60_000_000 |
    ///
    /// The bomb, measured (one function, `depth` nested blocks each setting a local and
    /// branching out, every local read in the innermost block; this engine, a dev build with
    /// optimised dependencies, one compile in-process; time and peak RSS):
    ///
    /// | depth x locals | bytes   | time   | memory  |
    /// |----------------|---------|--------|---------|
    /// | 1000 x 1000    | 24 KB   | 0.08 s | 36 MB   |
    /// | 2000 x 2000    | 50 KB   | 0.30 s | 69 MB   |
    /// | 3000 x 333     | 50 KB   | 0.31 s | 102 MB  |
    /// | 5000 x 50      | 70 KB   | 0.78 s | 214 MB  |
    /// | 5000 x 5000    | 125 KB  | 1.47 s | 306 MB  |
    /// | 10000 x 10000  | 250 KB  | 5.8 s  | 1.47 GB |
    /// | 20 x 49000     | 425 KB  | 0.05 s | 42 MB   |
    /// | 200 x 20000    | 167 KB  | 0.06 s | 56 MB   |
    ///
    /// Cost grows with the square of the depth; locals add to it through the product (5000
    /// deep: 0.78 s with 50 locals, 1.47 s with 5000) but cost little alone. (The validator
    /// itself caps a function at 50_000 locals.) At the depth limit one function costs about
    /// 0.3 s and 100 MB; the 125 KB bomb of the report (5000 x 5000) is refused. Many functions
    /// at the limits in one module are what the compile worker's time and memory bounds are for
    /// (the largest real bot compiles there in about 14 s of CPU and under 512 MiB).
    pub const DEFAULT: ShapeLimits = ShapeLimits {
        function_bytes: 4_000_000,
        function_locals: 20_000,
        nesting_depth: 3_000,
        locals_times_depth: 2_000_000,
        module_functions: 200_000,
        module_code_bytes: 60_000_000,
    };
}

impl Default for ShapeLimits {
    fn default() -> Self {
        ShapeLimits::DEFAULT
    }
}

/// What a scan measured: the largest value of each limited quantity, and the declared minimums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// Largest function body, in bytes.
    pub max_function_bytes: u64,
    /// Most locals in a function.
    pub max_function_locals: u64,
    /// Deepest nesting in a function.
    pub max_nesting_depth: u64,
    /// Largest locals x depth of a function.
    pub max_locals_times_depth: u64,
    /// Most functions defined by a module.
    pub max_module_functions: u64,
    /// Most code bytes in a module.
    pub max_module_code_bytes: u64,
    /// Sum of the initial sizes of every memory a core module defines (not imports), in bytes.
    pub initial_memory_bytes: u64,
    /// Largest initial size of a table a core module defines, in elements.
    pub max_initial_table_elements: u64,
}

/// A limit a module or function is over: the message names the module, the function and the
/// limit, e.g. "core module 1, function 3 nests blocks 5000 deep; the limit is 1000".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("core module {module}, {what}")]
pub struct ShapeError {
    /// Index of the core module among those in the file, in the order they appear.
    pub module: u32,
    /// Which function (if any) and which limit.
    pub what: String,
}

/// Per-module counters while its payloads go by.
#[derive(Default)]
struct ModuleScan {
    /// Its index among the file's core modules.
    index: u32,
    /// Functions it imports (defined functions are numbered after them).
    imported_functions: u64,
    defined_functions: u64,
    code_bytes: u64,
}

/// Scans every core module in `bytes` (a component or a core module) against `limits`.
///
/// A file `wasmparser` cannot read is not refused here: the scan stops and returns what it
/// measured, and compilation refuses the file with its own message.
pub fn scan(bytes: &[u8], limits: &ShapeLimits) -> Result<Shape, ShapeError> {
    let mut shape = Shape::default();
    // One entry per open module or component (`None` for a component), innermost last.
    let mut open: Vec<Option<ModuleScan>> = Vec::new();
    let mut modules = 0u32;
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(payload) = payload else { break };
        match payload {
            Payload::Version { encoding, .. } => {
                if encoding == wasmparser::Encoding::Module {
                    open.push(Some(ModuleScan { index: modules, ..ModuleScan::default() }));
                    modules += 1;
                } else {
                    open.push(None);
                }
            }
            Payload::End(_) => {
                open.pop();
            }
            Payload::ImportSection(reader) => {
                let Some(Some(module)) = open.last_mut() else { continue };
                for import in reader {
                    let Ok(import) = import else { break };
                    if matches!(import.ty, TypeRef::Func(_)) {
                        module.imported_functions += 1;
                    }
                }
            }
            Payload::MemorySection(reader) => {
                for memory in reader.into_iter().flatten() {
                    let page = 1u64 << memory.page_size_log2.unwrap_or(16).min(16);
                    shape.initial_memory_bytes =
                        shape.initial_memory_bytes.saturating_add(memory.initial.saturating_mul(page));
                }
            }
            Payload::TableSection(reader) => {
                for table in reader.into_iter().flatten() {
                    shape.max_initial_table_elements = shape.max_initial_table_elements.max(table.ty.initial);
                }
            }
            Payload::CodeSectionEntry(body) => {
                let Some(Some(module)) = open.last_mut() else { continue };
                let function = module.imported_functions + module.defined_functions;
                module.defined_functions += 1;
                let size = body.range().len() as u64;
                module.code_bytes += size;
                let over = |what: String| ShapeError { module: module.index, what };
                check(&mut shape.max_module_functions, module.defined_functions, limits.module_functions)
                    .map_err(|limit| over(format!("defines more than {limit} functions")))?;
                check(&mut shape.max_module_code_bytes, module.code_bytes, limits.module_code_bytes)
                    .map_err(|limit| over(format!("has more than {limit} bytes of code")))?;
                check(&mut shape.max_function_bytes, size, limits.function_bytes)
                    .map_err(|limit| over(format!("function {function} is {size} bytes long; the limit is {limit}")))?;
                let (locals, depth) = function_shape(&body, limits);
                check(&mut shape.max_function_locals, locals, limits.function_locals).map_err(|limit| {
                    over(format!("function {function} declares {locals} locals; the limit is {limit}"))
                })?;
                check(&mut shape.max_nesting_depth, depth, limits.nesting_depth).map_err(|limit| {
                    let shown = if depth > limit { format!("more than {limit}") } else { depth.to_string() };
                    over(format!("function {function} nests blocks {shown} deep; the limit is {limit}"))
                })?;
                let product = locals.saturating_mul(depth);
                check(&mut shape.max_locals_times_depth, product, limits.locals_times_depth).map_err(|limit| {
                    over(format!(
                        "function {function} has {locals} locals in blocks {depth} deep ({product} locals x depth); the limit is {limit}"
                    ))
                })?;
            }
            _ => {}
        }
    }
    Ok(shape)
}

/// The compile-bomb shape the limits were measured with (see [`ShapeLimits::DEFAULT`]), as WAT
/// text of a core module: one function with `depth` nested blocks, block `i` setting local
/// `i % locals` and branching out on it, every local read in the innermost block. Tests build
/// bombs and just-under-the-limit modules with it. `locals` must be at least 1.
pub fn bomb_wat(depth: usize, locals: usize) -> String {
    let mut wat = String::from("(module (func (export \"f\") (param i32) (result i32)");
    wat.push_str(&" (local i32)".repeat(locals));
    for level in 0..depth {
        let local = 1 + level % locals.max(1);
        wat.push_str(&format!(
            " (block (local.set {local} (i32.add (local.get {local}) (local.get 0))) (br_if 0 (local.get {local}))"
        ));
    }
    for local in 1..=locals {
        wat.push_str(&format!(" (local.set 0 (i32.add (local.get 0) (local.get {local})))"));
    }
    wat.push_str(&")".repeat(depth));
    wat.push_str(" (local.get 0)))");
    wat
}

/// Records `value` in `max` and fails with the limit when it is over.
fn check(max: &mut u64, value: u64, limit: u64) -> Result<(), u64> {
    *max = (*max).max(value);
    if value > limit { Err(limit) } else { Ok(()) }
}

/// Locals declared by a function and its deepest control nesting. Reading stops one level past
/// the depth limit (enough to refuse), so a hostile body costs at most one pass.
fn function_shape(body: &wasmparser::FunctionBody<'_>, limits: &ShapeLimits) -> (u64, u64) {
    let mut locals = 0u64;
    if let Ok(reader) = body.get_locals_reader() {
        for entry in reader {
            let Ok((count, _)) = entry else { break };
            locals = locals.saturating_add(u64::from(count));
        }
    }
    let (mut depth, mut deepest) = (0u64, 0u64);
    if let Ok(mut operators) = body.get_operators_reader() {
        while !operators.eof() {
            let Ok(operator) = operators.read() else { break };
            match operator {
                Operator::Block { .. }
                | Operator::Loop { .. }
                | Operator::If { .. }
                | Operator::Try { .. }
                | Operator::TryTable { .. } => {
                    depth += 1;
                    deepest = deepest.max(depth);
                    if deepest > limits.nesting_depth {
                        break;
                    }
                }
                Operator::End => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    (locals, deepest)
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn the_bomb_shape_is_refused_naming_function_and_limit() {
        let bytes = wat::parse_str(bomb_wat(5_000, 5_000)).unwrap();
        let err = scan(&bytes, &ShapeLimits::DEFAULT).unwrap_err();
        assert_eq!(err.to_string(), "core module 0, function 0 nests blocks more than 3000 deep; the limit is 3000");
        let bytes = wat::parse_str(bomb_wat(2_000, 1_001)).unwrap();
        let err = scan(&bytes, &ShapeLimits::DEFAULT).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("has 1001 locals in blocks 2000 deep (2002000 locals x depth); the limit is 2000000"),
            "{err}"
        );
        let bytes = wat::parse_str(bomb_wat(10, 20_001)).unwrap();
        let err = scan(&bytes, &ShapeLimits::DEFAULT).unwrap_err();
        assert!(err.to_string().ends_with("function 0 declares 20001 locals; the limit is 20000"), "{err}");
    }

    #[test]
    fn a_function_just_under_the_limits_passes_and_is_measured() {
        let bytes = wat::parse_str(bomb_wat(3_000, 666)).unwrap();
        let shape = scan(&bytes, &ShapeLimits::DEFAULT).unwrap();
        assert_eq!((shape.max_nesting_depth, shape.max_function_locals), (3_000, 666));
        assert_eq!(shape.max_locals_times_depth, 1_998_000);
    }

    #[test]
    fn modules_nested_in_components_are_scanned_and_functions_numbered_after_imports() {
        let inner = bomb_wat(3, 1).replace("(module", "(core module $m (import \"a\" \"b\" (func))");
        let component = format!("(component (component {inner}))");
        let limits = ShapeLimits { nesting_depth: 2, ..ShapeLimits::DEFAULT };
        let err = scan(&wat::parse_str(component).unwrap(), &limits).unwrap_err();
        assert_eq!(err.to_string(), "core module 0, function 1 nests blocks more than 2 deep; the limit is 2");
    }

    #[test]
    fn declared_memory_and_tables_are_summed() {
        let component = r#"(component
            (core module (memory 3200) (table 10 funcref))
            (core module (import "a" "m" (memory 5000)) (memory 2) (memory 1)))"#;
        let shape = scan(&wat::parse_str(component).unwrap(), &ShapeLimits::DEFAULT).unwrap();
        assert_eq!(shape.initial_memory_bytes, (3200 + 2 + 1) << 16);
        assert_eq!(shape.max_initial_table_elements, 10);
    }
}
