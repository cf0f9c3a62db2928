//! Deterministic stack exhaustion: before a bot is compiled, every core module of its component
//! is instrumented to count its own stack use in a global of its own and to trap once the count
//! would pass [`STACK_LIMIT`]. Where a recursion stops is then a property of the bot's code
//! alone: the same fuel whatever the host's build (a debug build's frames before the first wasm
//! frame are larger than a release build's, which moved wasmtime's native limit), its machine, or
//! where on its fiber the host re-entered wasm. wasmtime's native limit
//! (`MAX_WASM_STACK` in the engine module) stays as a backstop far above.
//!
//! The scheme is the one Parity's `wasm-instrument` uses for the same reason (its `stack_height`
//! module), counted at function entry and exit instead of around call sites, so that every way
//! into a function is counted (a call, `call_indirect`, `call_ref`, an export, the host's
//! re-entry through `realloc`, a start function):
//!
//! - each defined function costs [`FRAME_UNITS`] plus one unit per parameter, local and value of
//!   its deepest operand stack (a unit stands for one value's slot; Cranelift's frames are
//!   smaller, so the native backstop is never reached first by well-formed code);
//! - a function that calls adds its cost to the counter on entry and traps if the counter is then
//!   over the limit, and takes it back at every exit: `return`, a tail call, the end of its body
//!   and a branch out of it (the body is wrapped in a block whose end is the one exit);
//! - a leaf (a function that calls nothing) only checks that its cost fits on top of the counter.
//!
//! The trap is a call to a function this module adds, named [`EXHAUSTED_FUNCTION`] in the name
//! section, whose body is `unreachable`: [`is_stack_exhausted`] recognises it in a trap's
//! backtrace, so the fault is a stack overflow, not the bot's own `unreachable`.
//!
//! Limits of the scheme: the counter is per core instance, so a recursion that alternates between
//! two core modules of one component counts against each module separately; an exception that
//! unwinds past a frame skips its exit, so the counter only grows (deterministically) until the
//! instance traps or ends. Both can only bring the bot's own limit closer.

use wasm_encoder::reencode::Reencode;
use wasm_encoder::{BlockType, Function, Instruction};
use wasmparser::{Operator, Parser, Payload, ValidPayload, Validator, WasmFeatures};

/// Units of stack a bot's frames may hold at once in one core instance (see the module doc).
/// About what the native stack wasmtime gave a bot before held (1 MiB): `fx-recurse`'s
/// recursion of two `u64` parameters costs 13 units a level and reaches about 30,000 levels,
/// as it did then (its native frames take about 37 bytes a level: under 3 bytes a unit).
pub const STACK_LIMIT: u32 = 3 << 17;

/// Units every frame costs besides its values (return address, frame pointer, saved registers).
pub const FRAME_UNITS: u32 = 4;

/// The name of the function an instrumented module calls when its stack is exhausted.
pub const EXHAUSTED_FUNCTION: &str = "arena: stack exhausted";

/// The instrumentation version, part of the artifact cache's key (an entry compiled from bytes
/// instrumented otherwise is another entry).
pub const VERSION: &[u8] = b"stack height 1";

/// Why a component could not be instrumented: it is not valid WebAssembly (compiling it would
/// refuse it too, with wasmtime's own message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StackError(String);

impl From<wasmparser::BinaryReaderError> for StackError {
    fn from(err: wasmparser::BinaryReaderError) -> StackError {
        StackError(err.to_string())
    }
}

impl<E: std::fmt::Display> From<wasm_encoder::reencode::Error<E>> for StackError {
    fn from(err: wasm_encoder::reencode::Error<E>) -> StackError {
        StackError(err.to_string())
    }
}

/// Whether a trap's error is a stack exhaustion detected by the instrumentation: the innermost
/// frame of its backtrace is [`EXHAUSTED_FUNCTION`].
pub fn is_stack_exhausted(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<wasmtime::WasmBacktrace>()
        .and_then(|backtrace| backtrace.frames().first())
        .is_some_and(|frame| frame.func_name() == Some(EXHAUSTED_FUNCTION))
}

/// `bytes` (a component, or a core module) with every core module instrumented (see the module
/// doc); nested components are instrumented too, and everything else is copied as it is.
pub fn instrument(bytes: &[u8]) -> Result<Vec<u8>, StackError> {
    match bytes.get(4..8) {
        Some([1, 0, 0, 0]) => instrument_module(bytes),
        Some(_) => instrument_component(bytes),
        None => Err(StackError("not a WebAssembly file".into())),
    }
}

/// Section ids of the component binary format whose contents are rewritten.
const CORE_MODULE_SECTION: u8 = 1;
const COMPONENT_SECTION: u8 = 4;

/// A component's sections, with each core module section's module instrumented and each nested
/// component's sections likewise; every other section's bytes are kept.
fn instrument_component(bytes: &[u8]) -> Result<Vec<u8>, StackError> {
    let header = bytes.get(..8).ok_or_else(|| StackError("a truncated component".into()))?;
    let mut out = header.to_vec();
    let mut reader = wasmparser::BinaryReader::new(&bytes[8..], 8);
    while !reader.eof() {
        let id = reader.read_u8()?;
        let len = reader.read_var_u32()?;
        let contents = reader.read_bytes(len as usize)?;
        let rewritten = match id {
            CORE_MODULE_SECTION => instrument_module(contents)?,
            COMPONENT_SECTION => instrument_component(contents)?,
            _ => contents.to_vec(),
        };
        out.push(id);
        leb128_u32(&mut out, rewritten.len())?;
        out.extend_from_slice(&rewritten);
    }
    Ok(out)
}

fn leb128_u32(out: &mut Vec<u8>, value: usize) -> Result<(), StackError> {
    let mut value = u32::try_from(value).map_err(|_| StackError("a section over 4 GiB".into()))?;
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return Ok(());
        }
        out.push(byte | 0x80);
    }
}

/// What the instrumentation needs of one defined function.
struct FunctionFacts {
    /// Its cost in units.
    cost: u32,
    /// Whether it calls nothing.
    leaf: bool,
    /// Its results, for the block its body is wrapped in.
    results: Vec<wasmparser::ValType>,
}

/// What the instrumentation needs of a core module, read in one validating pass.
#[derive(Default)]
struct ModuleFacts {
    functions: Vec<FunctionFacts>,
    imported_functions: u32,
    globals: u32,
    types: u32,
    has_names: bool,
}

/// Whether an operator calls (a function containing one is not a leaf).
fn calls(operator: &Operator<'_>) -> bool {
    matches!(
        operator,
        Operator::Call { .. }
            | Operator::CallIndirect { .. }
            | Operator::CallRef { .. }
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. }
            | Operator::ReturnCallRef { .. }
    )
}

/// Validates a core module (every proposal the parser knows: the engine validates again, with
/// its own features, when it compiles) and measures each defined function.
fn module_facts(bytes: &[u8]) -> Result<ModuleFacts, StackError> {
    let mut facts = ModuleFacts::default();
    let mut validator = Validator::new_with_features(WasmFeatures::all());
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        match &payload {
            Payload::ImportSection(reader) => {
                for import in reader.clone() {
                    match import?.ty {
                        wasmparser::TypeRef::Func(_) => facts.imported_functions += 1,
                        wasmparser::TypeRef::Global(_) => facts.globals += 1,
                        _ => {}
                    }
                }
            }
            Payload::GlobalSection(reader) => facts.globals += reader.count(),
            Payload::TypeSection(reader) => {
                for group in reader.clone() {
                    facts.types += u32::try_from(group?.types().len()).unwrap_or(u32::MAX);
                }
            }
            Payload::CustomSection(section) if section.name() == "name" => facts.has_names = true,
            _ => {}
        }
        if let ValidPayload::Func(to_validate, body) = validator.payload(&payload)? {
            let mut function = to_validate.into_validator(Default::default());
            let mut locals = body.get_locals_reader()?;
            for _ in 0..locals.get_count() {
                let offset = locals.original_position();
                let (count, ty) = locals.read()?;
                function.define_locals(offset, count, ty)?;
            }
            let mut operators = body.get_operators_reader()?;
            let (mut deepest, mut leaf) = (0u32, true);
            while !operators.eof() {
                let offset = operators.original_position();
                let operator = operators.read()?;
                leaf &= !calls(&operator);
                function.op(offset, &operator)?;
                deepest = deepest.max(function.operand_stack_height());
            }
            operators.finish()?;
            let resources = function.resources();
            let index = function.index();
            let ty = wasmparser::WasmModuleResources::type_id_of_function(resources, index)
                .map(|id| wasmparser::WasmModuleResources::sub_type_at_id(resources, id))
                .and_then(|sub| match &sub.composite_type.inner {
                    wasmparser::CompositeInnerType::Func(ty) => Some(ty.clone()),
                    _ => None,
                })
                .ok_or_else(|| StackError(format!("function {index} has no function type")))?;
            // `len_locals` counts the parameters too.
            let cost = FRAME_UNITS.saturating_add(function.len_locals()).saturating_add(deepest);
            facts.functions.push(FunctionFacts { cost, leaf, results: ty.results().to_vec() });
        }
    }
    Ok(facts)
}

/// A core module with its stack use counted (see the module doc). A module that defines no
/// function is returned as it is.
fn instrument_module(bytes: &[u8]) -> Result<Vec<u8>, StackError> {
    let facts = module_facts(bytes)?;
    if facts.functions.is_empty() {
        return Ok(bytes.to_vec());
    }
    let defined = u32::try_from(facts.functions.len()).unwrap_or(u32::MAX);
    let mut instrumenter = Instrumenter {
        counter: facts.globals,
        exhausted: facts.imported_functions.saturating_add(defined),
        exhausted_type: facts.types,
        block_types: Vec::new(),
        next_type: facts.types.saturating_add(1),
        facts: &facts,
        next_function: 0,
        counter_written: false,
    };
    // Block types for bodies of several results are types appended after the module's own
    // and the exhausted function's.
    for function in &facts.functions {
        if function.results.len() > 1
            && !instrumenter.block_types.iter().any(|(results, _)| results == &function.results)
        {
            let index = instrumenter.next_type;
            instrumenter.block_types.push((function.results.clone(), index));
            instrumenter.next_type += 1;
        }
    }
    let mut module = wasm_encoder::Module::new();
    instrumenter.parse_core_module(&mut module, Parser::new(0), bytes)?;
    if !facts.has_names {
        let mut names = wasm_encoder::NameSection::new();
        let mut functions = wasm_encoder::NameMap::new();
        functions.append(instrumenter.exhausted, EXHAUSTED_FUNCTION);
        names.functions(&functions);
        module.section(&names);
    }
    Ok(module.finish())
}

/// The re-encoder that adds the counter, the exhausted function and the counting code.
struct Instrumenter<'a> {
    facts: &'a ModuleFacts,
    /// Index of the counter global (after the module's own).
    counter: u32,
    /// Index of the exhausted function (after the module's own).
    exhausted: u32,
    /// Index of its type `[] -> []` (after the module's own types).
    exhausted_type: u32,
    /// Types `[] -> results` for bodies with several results, and their indices.
    block_types: Vec<(Vec<wasmparser::ValType>, u32)>,
    next_type: u32,
    /// The defined function whose body comes next.
    next_function: usize,
    counter_written: bool,
}

impl Instrumenter<'_> {
    /// The counter's global: a mutable `i32` starting at 0.
    fn write_counter(&mut self, globals: &mut wasm_encoder::GlobalSection) {
        globals.global(
            wasm_encoder::GlobalType { val_type: wasm_encoder::ValType::I32, mutable: true, shared: false },
            &wasm_encoder::ConstExpr::i32_const(0),
        );
        self.counter_written = true;
    }

    /// `counter += cost` (or `-=`).
    fn add_to_counter(&self, function: &mut Function, cost: u32, sign: Instruction<'static>) {
        function.instruction(&Instruction::GlobalGet(self.counter));
        function.instruction(&Instruction::I32Const(cost as i32));
        function.instruction(&sign);
        function.instruction(&Instruction::GlobalSet(self.counter));
    }

    /// `if counter > limit { exhausted() }`.
    fn check_counter(&self, function: &mut Function, limit: u32) {
        function.instruction(&Instruction::GlobalGet(self.counter));
        function.instruction(&Instruction::I32Const(limit as i32));
        function.instruction(&Instruction::I32GtU);
        function.instruction(&Instruction::If(BlockType::Empty));
        function.instruction(&Instruction::Call(self.exhausted));
        function.instruction(&Instruction::End);
    }
}

impl Reencode for Instrumenter<'_> {
    type Error = std::convert::Infallible;

    fn parse_type_section(
        &mut self,
        types: &mut wasm_encoder::TypeSection,
        section: wasmparser::TypeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        wasm_encoder::reencode::utils::parse_type_section(self, types, section)?;
        types.ty().function([], []);
        for (results, _) in self.block_types.clone() {
            let results: Vec<wasm_encoder::ValType> =
                results.into_iter().map(|ty| self.val_type(ty)).collect::<Result<_, _>>()?;
            types.ty().function([], results);
        }
        Ok(())
    }

    fn parse_function_section(
        &mut self,
        functions: &mut wasm_encoder::FunctionSection,
        section: wasmparser::FunctionSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        wasm_encoder::reencode::utils::parse_function_section(self, functions, section)?;
        functions.function(self.exhausted_type);
        Ok(())
    }

    fn parse_global_section(
        &mut self,
        globals: &mut wasm_encoder::GlobalSection,
        section: wasmparser::GlobalSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        wasm_encoder::reencode::utils::parse_global_section(self, globals, section)?;
        self.write_counter(globals);
        Ok(())
    }

    fn intersperse_section_hook(
        &mut self,
        module: &mut wasm_encoder::Module,
        _after: Option<wasm_encoder::SectionId>,
        before: Option<wasm_encoder::SectionId>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        use wasm_encoder::SectionId;
        // A module without globals gets a section for the counter, before the first section
        // that comes after globals.
        let after_globals = matches!(
            before,
            None | Some(
                SectionId::Export
                    | SectionId::Start
                    | SectionId::Element
                    | SectionId::DataCount
                    | SectionId::Code
                    | SectionId::Data
            )
        );
        if !self.counter_written && after_globals {
            let mut globals = wasm_encoder::GlobalSection::new();
            self.write_counter(&mut globals);
            module.section(&globals);
        }
        Ok(())
    }

    fn parse_code_section(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        wasm_encoder::reencode::utils::parse_code_section(self, code, section)?;
        let mut exhausted = Function::new([]);
        exhausted.instruction(&Instruction::Unreachable);
        exhausted.instruction(&Instruction::End);
        code.function(&exhausted);
        Ok(())
    }

    fn parse_function_body(
        &mut self,
        code: &mut wasm_encoder::CodeSection,
        body: wasmparser::FunctionBody<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        let facts = self.facts;
        let Some(measured) = facts.functions.get(self.next_function) else {
            return Err(wasm_encoder::reencode::Error::InvalidCodeSectionSize);
        };
        self.next_function += 1;
        let mut function = self.new_function_with_parsed_locals(&body)?;
        let mut operators = body.get_operators_reader()?;
        let cost = measured.cost;
        if measured.leaf {
            // A leaf's frame fits on top of the counter, or the stack is exhausted.
            self.check_counter(&mut function, STACK_LIMIT.saturating_sub(cost));
            if cost > STACK_LIMIT {
                function.instruction(&Instruction::Call(self.exhausted));
            }
            while !operators.eof() {
                let operator = operators.read()?;
                function.instruction(&self.instruction(operator)?);
            }
        } else {
            self.add_to_counter(&mut function, cost, Instruction::I32Add);
            self.check_counter(&mut function, STACK_LIMIT);
            let block = match measured.results.as_slice() {
                [] => BlockType::Empty,
                [one] => BlockType::Result(self.val_type(*one)?),
                several => BlockType::FunctionType(
                    self.block_types.iter().find(|(results, _)| results == several).map_or(0, |(_, index)| *index),
                ),
            };
            function.instruction(&Instruction::Block(block));
            while !operators.eof() {
                let operator = operators.read()?;
                // Every exit that skips the block's end takes the cost back first.
                if matches!(
                    operator,
                    Operator::Return
                        | Operator::ReturnCall { .. }
                        | Operator::ReturnCallIndirect { .. }
                        | Operator::ReturnCallRef { .. }
                ) {
                    self.add_to_counter(&mut function, cost, Instruction::I32Sub);
                }
                // The body's own final `end` now closes the block.
                function.instruction(&self.instruction(operator)?);
            }
            self.add_to_counter(&mut function, cost, Instruction::I32Sub);
            function.instruction(&Instruction::End);
        }
        code.function(&function);
        Ok(())
    }

    fn parse_custom_name_subsection(
        &mut self,
        names: &mut wasm_encoder::NameSection,
        section: wasmparser::Name<'_>,
    ) -> Result<(), wasm_encoder::reencode::Error<Self::Error>> {
        match section {
            wasmparser::Name::Function(map) => {
                let mut functions = wasm_encoder::NameMap::new();
                for naming in map {
                    let naming = naming?;
                    functions.append(naming.index, naming.name);
                }
                functions.append(self.exhausted, EXHAUSTED_FUNCTION);
                names.functions(&functions);
                Ok(())
            }
            other => wasm_encoder::reencode::utils::parse_custom_name_subsection(self, names, other),
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// The instrumented module is valid and keeps the module's own exports and behaviour.
    #[test]
    fn an_instrumented_module_validates_and_names_the_exhausted_function() {
        let wat = r#"(module
            (func $leaf (param i32) (result i32) (i32.add (local.get 0) (i32.const 1)))
            (func $two (result i32 i64) (i32.const 1) (i64.const 2))
            (func (export "f") (param i32) (result i32)
              (if (result i32) (i32.eqz (local.get 0))
                (then (return (i32.const 7)))
                (else (call $leaf (call 2 (i32.sub (local.get 0) (i32.const 1))))))))"#;
        let bytes = wat::parse_str(wat).unwrap();
        let out = instrument(&bytes).unwrap();
        Validator::new().validate_all(&out).unwrap();
        let printed = function_names(&out);
        assert!(printed.contains(&EXHAUSTED_FUNCTION.to_owned()), "{printed:?}");
    }

    /// The function names an instrumented module carries.
    fn function_names(bytes: &[u8]) -> Vec<String> {
        let mut names = Vec::new();
        for payload in Parser::new(0).parse_all(bytes) {
            if let Ok(Payload::CustomSection(section)) = payload
                && let wasmparser::KnownCustom::Name(reader) = section.as_known()
            {
                for name in reader.into_iter().flatten() {
                    if let wasmparser::Name::Function(map) = name {
                        names.extend(map.into_iter().flatten().map(|naming| naming.name.to_owned()));
                    }
                }
            }
        }
        names
    }

    /// A module that names its functions keeps its names, and the exhausted function is named
    /// after them.
    #[test]
    fn existing_names_are_kept() {
        let bytes = wat::parse_str(r#"(module (func $mine (call $mine)))"#).unwrap();
        let names = function_names(&instrument(&bytes).unwrap());
        assert_eq!(names, ["mine", EXHAUSTED_FUNCTION]);
    }

    /// A core module of a recursion that records its depth in an exported global before each
    /// call, with the exits the instrumentation must balance: `return`, a branch out of the body,
    /// a tail call, the end of the body, and a function of two results.
    const RECURSION: &str = r#"(module
        (global $depth (export "depth") (mut i32) (i32.const 0))
        (func $nothing)
        (func $pair (result i32 i64) (call $nothing) (i32.const 1) (i64.const 2))
        (func $down (export "down") (param $n i32) (result i32)
          (global.set $depth (i32.add (global.get $depth) (i32.const 1)))
          (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
          (block $out
            (br_if $out (i32.eq (local.get $n) (i32.const 7)))
            (return (i32.add (call $down (i32.sub (local.get $n) (i32.const 1))) (i32.const 1))))
          (drop (call $pair))
          (br 0 (i32.const 7)))
        (func $tail (export "tail") (param $n i32) (result i32)
          (if (result i32) (i32.eqz (local.get $n))
            (then (i32.const 0))
            (else (return_call $tail (i32.sub (local.get $n) (i32.const 1)))))))"#;

    /// An instrumented instance of [`RECURSION`] on an engine whose native limit (16 MiB; call
    /// it on a thread with more) is far above what the counted limit lets it reach.
    fn instance() -> (wasmtime::Store<()>, wasmtime::Instance) {
        let bytes = instrument(&wat::parse_str(RECURSION).unwrap()).unwrap();
        let engine =
            wasmtime::Engine::new(wasmtime::Config::new().async_stack_size(17 << 20).max_wasm_stack(16 << 20)).unwrap();
        let module = wasmtime::Module::new(&engine, bytes).unwrap();
        let mut store = wasmtime::Store::new(&engine, ());
        let instance = wasmtime::Instance::new(&mut store, &module, &[]).unwrap();
        (store, instance)
    }

    /// Every exit takes back what the entry added: recursions that end return, again and again,
    /// far more often than the limit could hold if anything leaked.
    #[test]
    fn the_count_is_balanced_on_every_exit() {
        let (mut store, instance) = instance();
        let down = instance.get_typed_func::<i32, i32>(&mut store, "down").unwrap();
        let tail = instance.get_typed_func::<i32, i32>(&mut store, "tail").unwrap();
        for _ in 0..(STACK_LIMIT / 16) {
            // 20 levels down to the branch out at 7 (7 then comes back from the body's end),
            // and 3 levels down to the `return` at 0.
            assert_eq!(down.call(&mut store, 20).unwrap(), 20);
            assert_eq!(down.call(&mut store, 3).unwrap(), 3);
            assert_eq!(tail.call(&mut store, 50).unwrap(), 0);
        }
    }

    /// An unbounded recursion stops at the depth the costs fix, whatever the native stack: the
    /// limit over the function's cost, and the trap is recognised as an exhausted stack.
    #[test]
    fn a_recursion_stops_at_the_depth_its_cost_fixes() {
        let facts = module_facts(&wat::parse_str(RECURSION).unwrap()).unwrap();
        let down = &facts.functions[2];
        assert!(!down.leaf);
        // One parameter, no locals, an operand stack two deep at most.
        assert_eq!(down.cost, FRAME_UNITS + 1 + 2);
        let depth = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(|| {
                let (mut store, instance) = instance();
                let call = instance.get_typed_func::<i32, i32>(&mut store, "down").unwrap();
                let err = call.call(&mut store, -1).unwrap_err();
                assert!(is_stack_exhausted(&err), "{err:?}");
                instance.get_global(&mut store, "depth").unwrap().get(&mut store).i32().unwrap()
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(depth as u32, STACK_LIMIT / down.cost, "entries that fit under the limit");
    }

    /// A module without functions is left as it is; components are walked into.
    #[test]
    fn modules_without_code_are_kept_and_components_are_walked() {
        let bytes = wat::parse_str("(module (memory 1))").unwrap();
        assert_eq!(instrument(&bytes).unwrap(), bytes);
        let component = wat::parse_str(
            r#"(component (core module (func (export "f"))) (component (core module (func $g (call $g)))))"#,
        )
        .unwrap();
        let out = instrument(&component).unwrap();
        assert_ne!(out, component);
        Validator::new_with_features(WasmFeatures::all()).validate_all(&out).unwrap();
    }
}
