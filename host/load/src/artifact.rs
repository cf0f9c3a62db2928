//! What a bot file compiles to: a component (every bot but one kind), or a core module run on
//! WASI preview1 (a Go program: see [`crate::wasip1`]). Compiling, the compile worker and the
//! artifact cache handle both through [`Artifact`].

use std::path::Path;
use wasmtime::Engine;
use wasmtime::component::Component;

/// A compiled bot: built from bytes, serialised into an artifact and back.
pub trait Artifact: Clone + Send + Sync + Sized + 'static {
    /// What it is, in messages ("component", "core module").
    const KIND: &'static str;
    /// The compile worker's flag for it, if it needs one (`compile::worker_main`).
    const WORKER_FLAG: Option<&'static str>;

    /// Compiles `bytes` with `engine`.
    fn compile(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self>;

    /// Its artifact: the compiled code, for the cache or the worker's pipe.
    fn serialize(&self) -> wasmtime::Result<Vec<u8>>;

    /// The compiled code in `artifact`.
    ///
    /// # Safety
    ///
    /// As [`Component::deserialize`]: `artifact` must come from [`Artifact::serialize`] of this
    /// kind, with an engine compatible with `engine`; it runs as is.
    #[allow(unsafe_code)]
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self>;

    /// [`Artifact::deserialize`] from a file, which wasmtime maps rather than copies.
    ///
    /// # Safety
    ///
    /// As [`Artifact::deserialize`], for the file's bytes.
    #[allow(unsafe_code)]
    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self>;
}

impl Artifact for Component {
    const KIND: &'static str = "component";
    const WORKER_FLAG: Option<&'static str> = None;

    fn compile(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        Component::new(engine, bytes)
    }

    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        Component::serialize(self)
    }

    #[allow(unsafe_code)]
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: the caller's contract, which is `Component::deserialize`'s.
        unsafe { Component::deserialize(engine, artifact) }
    }

    #[allow(unsafe_code)]
    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self> {
        // SAFETY: the caller's contract, which is `Component::deserialize_file`'s.
        unsafe { Component::deserialize_file(engine, path) }
    }
}

impl Artifact for wasmtime::Module {
    const KIND: &'static str = "core module";
    const WORKER_FLAG: Option<&'static str> = Some("--core-module");

    fn compile(engine: &Engine, bytes: &[u8]) -> wasmtime::Result<Self> {
        wasmtime::Module::new(engine, bytes)
    }

    fn serialize(&self) -> wasmtime::Result<Vec<u8>> {
        wasmtime::Module::serialize(self)
    }

    #[allow(unsafe_code)]
    unsafe fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Self> {
        // SAFETY: the caller's contract, which is `Module::deserialize`'s.
        unsafe { wasmtime::Module::deserialize(engine, artifact) }
    }

    #[allow(unsafe_code)]
    unsafe fn deserialize_file(engine: &Engine, path: &Path) -> wasmtime::Result<Self> {
        // SAFETY: the caller's contract, which is `Module::deserialize_file`'s.
        unsafe { wasmtime::Module::deserialize_file(engine, path) }
    }
}
