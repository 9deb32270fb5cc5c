//! The HLSL frontend: compute, vertex and pixel shaders to Vulkan SPIR-V, following DXC's
//! SPIR-V backend (`docs/SPIR-V.rst`) where it departs from the 2017 design document
//! (`hlsl-spirv-codegen.rst`).
//!
//! The public surface is [`compile_source`] / [`compile_file`] with [`Options`] and
//! [`Profile`]; a failure is a [`CompileError`] holding [`Diagnostic`]s. The stages inside
//! (hidden from these docs, described in `docs/hlsl.md`) are one module each: `preprocess`
//! (macros, includes, conditionals) → `lexer` → `parser` (recursive descent to the `ast`) →
//! `sema` (types, conversions, overloads, scopes) → `codegen` (SPIR-V through the
//! [`crate::ir`] builder). Every stage reports problems as diagnostics with spans into the
//! source files, so one run can report several errors, each with `file:line:col`, the source
//! line and a caret.
//!
//! ```
//! use spvkit::hlsl::{compile_source, Options};
//! let src = "[numthreads(1, 1, 1)] void main() {}";
//! let out = compile_source("a.hlsl", src, &Options::new("main", "cs_6_0".parse()?))?;
//! assert_eq!(out.words[0], 0x0723_0203);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[doc(hidden)]
pub mod ast;
#[doc(hidden)]
pub mod codegen;
#[doc(hidden)]
pub mod diag;
#[doc(hidden)]
pub mod hir;
#[doc(hidden)]
pub mod lexer;
#[doc(hidden)]
pub mod parser;
#[doc(hidden)]
pub mod preprocess;
#[doc(hidden)]
pub mod sema;
#[doc(hidden)]
pub mod source;
#[doc(hidden)]
pub mod token;

pub use diag::{Diagnostic, Severity};
pub use sema::attributes::Requested;
pub use source::Span;

use crate::ir;
use crate::target_env::TargetEnv;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The shader stage a profile compiles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `cs_*`: GLCompute.
    Compute,
    /// `vs_*`: Vertex.
    Vertex,
    /// `ps_*`: Fragment.
    Pixel,
}

/// A target profile such as `cs_6_0` (`-T`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The stage.
    pub stage: Stage,
    /// Shader model major version.
    pub major: u8,
    /// Shader model minor version.
    pub minor: u8,
}

impl FromStr for Profile {
    type Err = String;

    /// Parses `cs_6_0`, `vs_6_2`, `ps_5_1`, ...; other stages are "not supported yet".
    fn from_str(s: &str) -> Result<Profile, String> {
        let mut parts = s.split('_');
        let (kind, major, minor) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some(k), Some(a), Some(b), None) => (k, a, b),
            _ => return Err(format!("invalid profile `{s}` (expected e.g. cs_6_0)")),
        };
        let stage = match kind {
            "cs" => Stage::Compute,
            "vs" => Stage::Vertex,
            "ps" => Stage::Pixel,
            "gs" | "hs" | "ds" | "lib" | "ms" | "as" => {
                return Err(format!("not supported yet: the `{kind}` profile `{s}`"))
            }
            _ => return Err(format!("invalid profile `{s}`")),
        };
        let number = |t: &str| {
            t.parse::<u8>()
                .map_err(|_| format!("invalid profile `{s}`"))
        };
        let (major, minor) = (number(major)?, number(minor)?);
        if !(5..=6).contains(&major) {
            return Err(format!(
                "invalid profile `{s}`: shader model {major} is unknown"
            ));
        }
        Ok(Profile {
            stage,
            major,
            minor,
        })
    }
}

/// The HLSL language version (`-HV`), in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum LanguageVersion {
    /// `-HV 2018`: `&&`, `||` and `?:` evaluate both sides (the design document's semantics).
    V2018,
    /// `-HV 2021` (default): scalar `&&`, `||` and `?:` short-circuit, as current DXC.
    #[default]
    V2021,
    /// `-HV 202x`: 2021 with conforming literals (an unsuffixed literal is an `int` or a
    /// `float`, as in C, instead of adapting to the other operand); `__HLSL_VERSION` is 2029.
    V202x,
}

/// How 32-bit floating-point denormals are treated (`-denorm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Denorm {
    /// `any` (the default): as the implementation likes; no execution mode.
    #[default]
    Any,
    /// `preserve`: the `DenormPreserve 32` execution mode.
    Preserve,
    /// `ftz`: the `DenormFlushToZero 32` execution mode.
    FlushToZero,
}

/// The memory layout of buffers (`-fvk-use-gl-layout`, `-fvk-use-scalar-layout`,
/// `-fvk-use-dx-layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BufferLayout {
    /// DXC's default: relaxed std140 for constant buffers, relaxed std430 for structured and
    /// byte-address buffers and push constants (a vector needs only its component's
    /// alignment unless it straddles a 16-byte boundary: VK_KHR_relaxed_block_layout).
    #[default]
    Relaxed,
    /// Strict std140 and std430 (`-fvk-use-gl-layout`).
    Gl,
    /// VK_EXT_scalar_block_layout for every buffer (`-fvk-use-scalar-layout`).
    Scalar,
    /// DirectX's rules (`-fvk-use-dx-layout`): constant buffers packed into 16-byte registers
    /// as fxc does, structured buffers tightly as scalar layout.
    Dx,
}

/// One `-fvk-bind-register` entry: the register `class``index` in `space` takes `binding` in
/// descriptor set `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterBinding {
    /// The register class: `b`, `t`, `s` or `u`.
    pub class: char,
    /// The register number.
    pub index: u32,
    /// The register space.
    pub space: u32,
    /// The binding number.
    pub binding: u32,
    /// The descriptor set.
    pub set: u32,
}

/// How resources get descriptor sets and bindings beyond what the source says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceBindings {
    /// `-fvk-b-shift`, `-fvk-t-shift`, `-fvk-s-shift`, `-fvk-u-shift`: (register class, space
    /// or `None` for all, shift), in command-line order (a later one for the same class and
    /// space wins).
    pub shifts: Vec<(char, Option<u32>, u32)>,
    /// `-fvk-bind-register` / `-vkbr`: when not empty, the only source of bindings.
    pub registers: Vec<RegisterBinding>,
    /// `-auto-binding-space`: the set of resources whose register or `vk::binding` names none
    /// (0 by default).
    pub default_space: u32,
    /// `-fvk-bind-resource-heap`, `-fvk-bind-sampler-heap`, `-fvk-bind-counter-heap`:
    /// `(binding, set)` of `ResourceDescriptorHeap`, `SamplerDescriptorHeap` and the counters
    /// of the resource heap's buffers.
    pub resource_heap: Option<(u32, u32)>,
    /// See `resource_heap`.
    pub sampler_heap: Option<(u32, u32)>,
    /// See `resource_heap`.
    pub counter_heap: Option<(u32, u32)>,
    /// `-fvk-bind-globals`: `(binding, set)` of `$Globals`.
    pub globals: Option<(u32, u32)>,
    /// `-fvk-auto-shift-bindings`: shifts apply to implicitly bound resources too.
    pub auto_shift: bool,
    /// `-fspv-flatten-resource-arrays`: each element of an array of resources takes its own
    /// binding. Arrays of resources (and structs holding resources) are refused for now, so
    /// every resource takes one binding either way; an implementation of them must honour it.
    pub flatten_arrays: bool,
}

impl ResourceBindings {
    /// The binding shift of register `class` in descriptor set `set`: the last shift given
    /// for that set, else the one given for all sets, else 0.
    pub fn shift(&self, class: char, set: u32) -> u32 {
        let of_class = || self.shifts.iter().rev().filter(|s| s.0 == class);
        of_class()
            .find(|s| s.1 == Some(set))
            .or_else(|| of_class().find(|s| s.1.is_none()))
            .map_or(0, |s| s.2)
    }
}

/// Everything a compilation needs besides the source.
#[derive(Clone, Debug)]
pub struct Options {
    /// The entry point's name (`-E`).
    pub entry: String,
    /// The target profile (`-T`).
    pub profile: Profile,
    /// `-D NAME[=VALUE]` in order; a define without a value is `1`.
    pub defines: Vec<(String, String)>,
    /// `-I` directories searched for `#include` after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// `-HV`.
    pub version: LanguageVersion,
    /// `-fspv-target-env`: Vulkan 1.0 to 1.3 or `universal1.5` (picks the SPIR-V version
    /// allowed and buffer storage classes).
    pub target_env: TargetEnv,
    /// The memory layout of buffers.
    pub layout: BufferLayout,
    /// `-Zpr`: matrices declared without `row_major` or `column_major` are row-major (the
    /// default, `-Zpc`, makes them column-major).
    pub row_major: bool,
    /// `-fvk-invert-y`: a vertex shader negates `SV_Position.y` before writing it.
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`: a pixel shader reads `1 / SV_Position.w`, as in DirectX.
    pub dx_position_w: bool,
    /// `-fspv-enable-maximal-reconvergence`: the entry point gets `MaximallyReconvergesKHR`
    /// (an error when the grammar spvkit was built from is older than that mode).
    pub maximal_reconvergence: bool,
    /// Descriptor set and binding options.
    pub bindings: ResourceBindings,
    /// `-enable-16bit-types` (shader model 6.2 and later): `half`, `float16_t`, `int16_t`,
    /// `uint16_t` and the minimum-precision types are real 16-bit types, as DXC.
    pub enable_16bit_types: bool,
    /// `-denorm`: the entry point's 32-bit denormal execution mode.
    pub denorm: Denorm,
    /// `-fvk-support-nonzero-base-instance`: `SV_InstanceID` is `InstanceIndex - BaseInstance`.
    pub nonzero_base_instance: bool,
    /// `-fvk-support-nonzero-base-vertex`: `SV_VertexID` is `VertexIndex - BaseVertex`.
    pub nonzero_base_vertex: bool,
    /// `-fspv-use-unknown-image-format`: storage images and texel buffers without
    /// `[[vk::image_format]]` get the `Unknown` format instead of one deduced from their
    /// element type.
    pub unknown_image_format: bool,
    /// `-fvk-stage-io-order=alpha`: stage variables without an explicit location take
    /// locations in the alphabetical order of their semantics (DXC's default is declaration
    /// order).
    pub stage_io_alpha: bool,
    /// `-fspv-use-legacy-buffer-matrix-order`: matrices read from and written to byte-address
    /// buffers with `Load<T>`/`Store<T>` are row-major (DXC's default is column-major).
    pub legacy_buffer_matrix_order: bool,
    /// `-fspv-use-vulkan-memory-model`: the module uses the Vulkan memory model
    /// ([`crate::opt::vulkan_memory_model`]) instead of GLSL450.
    pub vulkan_memory_model: bool,
    /// `-fspv-use-descriptor-heap`: `ResourceDescriptorHeap`/`SamplerDescriptorHeap` through
    /// SPV_EXT_descriptor_heap. The heaps are refused for now, so no output depends on it; an
    /// implementation of them must honour it.
    pub descriptor_heap: bool,
    /// `-fspv-reflect`: the SPV_GOOGLE_hlsl_functionality1 and SPV_GOOGLE_user_type
    /// decorations (semantics, resource types, counter buffers).
    pub reflect: bool,
    /// Run `crate::opt::LEGALIZE_HLSL` when the module needs it, as DXC does at every level
    /// but `-fcgl` (which sets this false and gets the module as generated, which Vulkan may
    /// reject): what legalization cannot make legal is then an error with its place.
    pub legalize: bool,
}

impl Options {
    /// Options for `entry` in `profile` with DXC's defaults (HLSL 2021, Vulkan 1.0).
    pub fn new(entry: &str, profile: Profile) -> Options {
        Options {
            entry: entry.to_owned(),
            profile,
            defines: Vec::new(),
            include_dirs: Vec::new(),
            version: LanguageVersion::default(),
            target_env: TargetEnv::Vulkan1_0,
            layout: BufferLayout::default(),
            row_major: false,
            invert_y: false,
            dx_position_w: false,
            maximal_reconvergence: false,
            bindings: ResourceBindings::default(),
            enable_16bit_types: false,
            denorm: Denorm::Any,
            nonzero_base_instance: false,
            nonzero_base_vertex: false,
            unknown_image_format: false,
            stage_io_alpha: false,
            reflect: false,
            legacy_buffer_matrix_order: false,
            vulkan_memory_model: false,
            descriptor_heap: false,
            legalize: true,
        }
    }
}

/// A successful compilation.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The module, as IR.
    pub module: ir::Module,
    /// The module's binary.
    pub words: Vec<u32>,
    /// Warnings, rendered like errors (empty when there are none).
    pub warnings: String,
    /// The capabilities and extensions the source asks the module to declare: a pass that
    /// recomputes the module's requirements declares them again with [`Requested::declare`].
    pub requested: Requested,
}

/// A failed compilation: every error found, and their rendering with source lines and carets.
#[derive(Clone, Debug)]
pub struct CompileError {
    /// The errors (and warnings) in the order they were found.
    pub diagnostics: Vec<diag::Diagnostic>,
    /// `file:line:col: error: reason`, the source line and a caret, for each diagnostic.
    pub rendered: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

impl std::error::Error for CompileError {}

#[doc(hidden)]
/// The front end's result: the syntax tree, the files it came from (for rendering diagnostics)
/// and every preprocessor and syntax error. The tree holds what parsed even when there are
/// errors, so later stages can decide whether to go on.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The translation unit.
    pub unit: ast::TranslationUnit,
    /// The main file and everything it included.
    pub sources: source::SourceMap,
    /// Preprocessor and parser diagnostics, in the order found.
    pub diagnostics: Vec<diag::Diagnostic>,
}

#[doc(hidden)]
/// Preprocesses and parses `source`; `name` is the file name diagnostics use, and its directory
/// is searched first for quoted `#include`s, then `options.include_dirs`.
pub fn parse(name: &str, source: &str, options: &Options) -> Parsed {
    let mut loader = preprocess::read_file;
    parse_with(name, source, options, &mut loader)
}

#[doc(hidden)]
/// [`parse`] reading includes through `loader` (in-memory files for tests and fuzzing).
pub fn parse_with(
    name: &str,
    source: &str,
    options: &Options,
    loader: &mut preprocess::Loader<'_>,
) -> Parsed {
    parser::on_big_stack(move || {
        let (tokens, sources, mut diagnostics) = preprocess_with(name, source, options, loader);
        let (unit, syntax) = parser::parse_tokens(tokens);
        diagnostics.extend(syntax);
        // One cap for the whole run, as clang's `-ferror-limit`.
        diagnostics.truncate(parser::MAX_ERRORS);
        Parsed {
            unit,
            sources,
            diagnostics,
        }
    })
}

#[doc(hidden)]
/// Runs only the preprocessor: the tokens (ending with an end-of-input token), the files read,
/// and the diagnostics. DXC's predefined macros (`__HLSL_VERSION`, `__spirv__`, the SPIR-V
/// version, the shader model) come first, then `options.defines` (`-D NAME` means `NAME=1`).
pub fn preprocess_with(
    name: &str,
    source: &str,
    options: &Options,
    loader: &mut preprocess::Loader<'_>,
) -> (Vec<token::Token>, source::SourceMap, Vec<diag::Diagnostic>) {
    let mut sources = source::SourceMap::new();
    let file = sources.add(name, source);
    let (tokens, diags) = {
        let mut pp = preprocess::Preprocessor::new(&mut sources, loader, &options.include_dirs);
        let version = match options.version {
            LanguageVersion::V2018 => "2018",
            LanguageVersion::V2021 => "2021",
            // DXC's `hlsl::LangStd::v202x`.
            LanguageVersion::V202x => "2029",
        };
        pp.define("__HLSL_VERSION", version);
        pp.define("__spirv__", "1");
        // The target environment's SPIR-V version, as DXC defines it (headers such as
        // `vk/khr/cooperative_matrix.h` check it with `#error`).
        let spirv = options.target_env.spirv_version();
        pp.define("__SPIRV_MAJOR_VERSION__", &spirv.0.to_string());
        pp.define("__SPIRV_MINOR_VERSION__", &spirv.1.to_string());
        // DXIL's shader-kind numbering, which DXC's stage macros use.
        for (stage, value) in [
            ("PIXEL", "0"),
            ("VERTEX", "1"),
            ("GEOMETRY", "2"),
            ("HULL", "3"),
            ("DOMAIN", "4"),
            ("COMPUTE", "5"),
            ("LIBRARY", "6"),
            ("MESH", "13"),
            ("AMPLIFICATION", "14"),
        ] {
            pp.define(&format!("__SHADER_STAGE_{stage}"), value);
        }
        let stage = match options.profile.stage {
            Stage::Pixel => "0",
            Stage::Vertex => "1",
            Stage::Compute => "5",
        };
        pp.define("__SHADER_TARGET_STAGE", stage);
        pp.define("__SHADER_TARGET_MAJOR", &options.profile.major.to_string());
        pp.define("__SHADER_TARGET_MINOR", &options.profile.minor.to_string());
        if options.enable_16bit_types {
            pp.define("__HLSL_ENABLE_16_BIT", "1");
        }
        for (k, v) in &options.defines {
            pp.define(k, if v.is_empty() { "1" } else { v });
        }
        pp.run(file, Some(Path::new(name)))
    };
    (tokens, sources, diags)
}

/// Puts DXC's built-in declarations ([`BUILTIN_DECLARATIONS`], a source of their own) in
/// front of the parsed unit's items.
fn add_builtin_declarations(parsed: &mut Parsed) {
    let file = parsed.sources.add("<built-in>", BUILTIN_DECLARATIONS);
    let mut ignored = Vec::new();
    let tokens = lexer::lex(file, BUILTIN_DECLARATIONS, &mut ignored);
    let (builtins, _) = parser::parse_tokens(tokens);
    parsed.unit.items.splice(0..0, builtins.items);
}

/// The types and constants DXC declares for every shader: `RayDesc` and the ray flags and
/// ray query statuses (`RAY_FLAG`, `CANDIDATE_TYPE`, `COMMITTED_STATUS`), as HLSL.
const BUILTIN_DECLARATIONS: &str = "
struct RayDesc { float3 Origin; float TMin; float3 Direction; float TMax; };
static const uint RAY_FLAG_NONE = 0x0;
static const uint RAY_FLAG_FORCE_OPAQUE = 0x1;
static const uint RAY_FLAG_FORCE_NON_OPAQUE = 0x2;
static const uint RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH = 0x4;
static const uint RAY_FLAG_SKIP_CLOSEST_HIT_SHADER = 0x8;
static const uint RAY_FLAG_CULL_BACK_FACING_TRIANGLES = 0x10;
static const uint RAY_FLAG_CULL_FRONT_FACING_TRIANGLES = 0x20;
static const uint RAY_FLAG_CULL_OPAQUE = 0x40;
static const uint RAY_FLAG_CULL_NON_OPAQUE = 0x80;
static const uint RAY_FLAG_SKIP_TRIANGLES = 0x100;
static const uint RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES = 0x200;
static const uint RAY_FLAG_FORCE_OMM_2_STATE = 0x400;
static const uint RAYQUERY_FLAG_NONE = 0x0;
static const uint RAYQUERY_FLAG_ALLOW_OPACITY_MICROMAPS = 0x1;
static const uint CANDIDATE_NON_OPAQUE_TRIANGLE = 0;
static const uint CANDIDATE_PROCEDURAL_PRIMITIVE = 1;
static const uint COMMITTED_NOTHING = 0;
static const uint COMMITTED_TRIANGLE_HIT = 1;
static const uint COMMITTED_PROCEDURAL_PRIMITIVE_HIT = 2;
";

/// Compiles the HLSL file at `path`.
pub fn compile_file(path: &Path, options: &Options) -> Result<Compiled, CompileError> {
    let source = std::fs::read_to_string(path).map_err(|e| CompileError {
        diagnostics: Vec::new(),
        rendered: format!("{}: error: cannot read: {e}\n", path.display()),
    })?;
    compile_source(&path.display().to_string(), &source, options)
}

/// Compiles HLSL source text; `name` is the file name used in diagnostics, and its directory is
/// where relative `#include`s are searched first.
pub fn compile_source(
    name: &str,
    source: &str,
    options: &Options,
) -> Result<Compiled, CompileError> {
    // Every phase recurses as deep as the parser's nesting limits allow: one thread with a
    // big stack for the whole compilation.
    parser::on_big_stack(move || compile_on_big_stack(name, source, options))
}

/// [`compile_source`] on the front end's thread.
fn compile_on_big_stack(
    name: &str,
    source: &str,
    options: &Options,
) -> Result<Compiled, CompileError> {
    let p = options.profile;
    if options.enable_16bit_types && (p.major, p.minor) < (6, 2) {
        return Err(CompileError {
            diagnostics: Vec::new(),
            rendered: format!(
                "{name}: error: -enable-16bit-types needs shader model 6.2 or later (the \
                 profile is {}_{}_{})\n",
                match p.stage {
                    Stage::Compute => "cs",
                    Stage::Vertex => "vs",
                    Stage::Pixel => "ps",
                },
                p.major,
                p.minor
            ),
        });
    }
    let mut parsed = parse(name, source, options);
    add_builtin_declarations(&mut parsed);
    let mut diagnostics = std::mem::take(&mut parsed.diagnostics);
    let mut legalization = Vec::new();
    let mut stage_bound = Vec::new();
    let mut combined = Vec::new();
    let failed = |d: &[diag::Diagnostic]| d.iter().any(|d| d.severity == diag::Severity::Error);
    if !failed(&diagnostics) {
        let unit = std::mem::take(&mut parsed.unit);
        // Name resolution recurses over the tree as deep as the parser's nesting limits allow.
        let diags = &mut diagnostics;
        parsed.unit = parser::on_big_stack(move || sema::names::resolve(unit, diags));
    }
    let mut requested = sema::attributes::Requested::default();
    if !failed(&diagnostics) {
        requested = sema::attributes::check(&parsed.unit, &mut diagnostics);
    }
    let module = if failed(&diagnostics) {
        None
    } else {
        // Emission recurses over the tree as deep as the parser's nesting limits allow.
        let unit = &parsed.unit;
        let diags = &mut diagnostics;
        let pending = &mut legalization;
        let stage_bound = &mut stage_bound;
        let combined = &mut combined;
        // `#pragma pack_matrix` at the top of the file is the file's `-Zpr`/`-Zpc`.
        let mut opts = options.clone();
        if let Some(rm) = unit.pack_row_major {
            opts.row_major = rm;
        }
        let opts = &opts;
        parser::on_big_stack(move || {
            let module = sema::globals::declare_module(unit, opts, diags);
            // Code generation is given only what semantic analysis accepted.
            if failed(diags) {
                return None;
            }
            codegen::emit(unit, module, opts, diags, pending, stage_bound, combined)
        })
    };

    let rendered = diag::render(&diagnostics, &parsed.sources);
    let Some(mut module) = module else {
        return Err(CompileError {
            diagnostics,
            rendered,
        });
    };
    // As DXC: legalized when it needs it (always, to flatten arrays of resources); what
    // stays illegal is an error where the source made it so (the places code generation
    // recorded).
    let flatten = options.bindings.flatten_arrays
        && !crate::opt::descriptor_arrays::unflattened(&module).is_empty();
    if options.legalize && (flatten || crate::opt::needs_legalization(&module)) {
        for pass in crate::opt::LEGALIZE_HLSL {
            pass.run(&mut module);
        }
        // Each recorded cause that is still there: its variable, or a variable offset.
        let (names, offsets) = crate::opt::unlegalized(&module);
        let still = |var: &Option<String>| match var {
            Some(name) => names.contains(name),
            None => offsets,
        };
        // (Should no recorded cause be found while the module is still illegal, all of them
        // are reported rather than an invalid module returned.)
        let none_found = !legalization.iter().any(|(_, v)| still(v));
        let fallback = none_found && crate::opt::needs_legalization(&module);
        let mut left: Vec<diag::Diagnostic> = legalization
            .into_iter()
            .filter(|(_, var)| fallback || still(var))
            .map(|(d, _)| d)
            .collect();
        // Never an illegal module without an error, even where no cause was recorded.
        if left.is_empty() && fallback {
            left.push(diag::Diagnostic::error(
                Span::whole_file(Default::default()),
                "not supported yet: resources that legalization could not make direct \
                 accesses to their globals",
            ));
        }
        // A resource read from a struct member (or another variable) that was never given
        // one: DXC would emit the undefined pointer; no driver can run it.
        if left.is_empty() && crate::opt::undefined_handle_used(&module) {
            left.push(diag::Diagnostic::error(
                Span::whole_file(Default::default()),
                "a resource (a struct member, a variable or a parameter holding one) is used \
                 before it is assigned: legalization found no resource for it",
            ));
        }
        // `-fspv-flatten-resource-arrays`, once unrolling made what indices it could
        // constants, as DXC runs spirv-opt's descriptor scalar replacement.
        if left.is_empty() && flatten {
            crate::opt::descriptor_arrays::run(&mut module);
            crate::opt::Pass::EliminateDeadVariables.run(&mut module);
            crate::opt::Pass::EliminateDeadTypesAndConstants.run(&mut module);
            for name in crate::opt::descriptor_arrays::unflattened(&module) {
                left.push(diag::Diagnostic::error(
                    Span::whole_file(Default::default()),
                    format!(
                        "not supported yet: -fspv-flatten-resource-arrays with the array of \
                         resources '{name}': more than 65,536 elements, or used other than \
                         through an index (a handle of one of its elements used in another \
                         block or a loop header)"
                    ),
                ));
            }
        }
        if !left.is_empty() {
            diagnostics.append(&mut left);
            return Err(CompileError {
                rendered: diag::render(&diagnostics, &parsed.sources),
                diagnostics,
            });
        }
    }
    // `[[vk::combinedImageSampler]]` pairs become one combined image sampler each, once
    // legalization made every access direct (as DXC runs spirv-opt's
    // `--convert-to-sampled-image` after legalization; `-fcgl` keeps them apart).
    if options.legalize && !combined.is_empty() {
        if let Err(why) = crate::opt::sampled_images::combine(&mut module, &combined) {
            diagnostics.push(diag::Diagnostic::error(
                Span::whole_file(Default::default()),
                why,
            ));
            return Err(CompileError {
                rendered: diag::render(&diagnostics, &parsed.sources),
                diagnostics,
            });
        }
    }
    // Derivatives in a stage without them: an error only where legalization (dead-branch
    // removal) keeps them, as DXC's validator sees its legalized module.
    if !stage_bound.is_empty() && uses_derivative_instructions(&module) {
        if options.legalize {
            for pass in crate::opt::LEGALIZE_HLSL {
                pass.run(&mut module);
            }
        }
        if uses_derivative_instructions(&module) {
            diagnostics.append(&mut stage_bound);
            return Err(CompileError {
                rendered: diag::render(&diagnostics, &parsed.sources),
                diagnostics,
            });
        }
    }
    // A `[[vk::builtin("PointSize")]]` pixel input (a struct shared with the vertex stage)
    // is kept only where nothing reads it, as DXC's optimizer leaves it: Vulkan has no point
    // size in fragment shaders.
    if fragment_reads_point_size(&module) {
        if options.legalize {
            for pass in crate::opt::LEGALIZE_HLSL {
                pass.run(&mut module);
            }
        }
        if fragment_reads_point_size(&module) {
            diagnostics.push(diag::Diagnostic::error(
                Span::whole_file(Default::default()),
                "the pixel shader reads its [[vk::builtin(\"PointSize\")]] input, which Vulkan \
                 allows only in vertex, tessellation and geometry shaders",
            ));
            return Err(CompileError {
                rendered: diag::render(&diagnostics, &parsed.sources),
                diagnostics,
            });
        }
    }
    // The environment's SPIR-V version first, so what it has in core needs no extension
    // (DenormPreserve is core from 1.4: no SPV_KHR_float_controls for Vulkan 1.2).
    let env_version = options.target_env.spirv_version();
    module.version = env_version;
    // Below the version that made them core, DXC enables these capabilities by their
    // extension instead of raising the SPIR-V version past the environment's; declared here,
    // each is kept only where the module uses its capability.
    if options.vulkan_memory_model {
        if let Err(e) = crate::opt::vulkan_memory_model::upgrade_memory_model(&mut module) {
            return Err(CompileError {
                diagnostics,
                rendered: format!("{rendered}{name}: error: {e}\n"),
            });
        }
    }
    // `NonUniformResourceIndex`'s decoration follows the index to what it selects.
    crate::opt::nonuniform::propagate_nonuniform(&mut module);
    // A non-semantic set (printf's) needs SPIR-V 1.6 or this extension, which no capability
    // implies: declared only where such a set is imported.
    let non_semantic = module
        .ext_inst_imports
        .iter()
        .any(|(_, i)| i.is_non_semantic());
    if non_semantic && env_version < crate::grammar::Version(1, 6) {
        module
            .extensions
            .push("SPV_KHR_non_semantic_info".to_owned());
    }
    for (ext, core) in [
        ("SPV_KHR_float_controls", crate::grammar::Version(1, 4)),
        ("SPV_KHR_vulkan_memory_model", crate::grammar::Version(1, 5)),
        (
            "SPV_KHR_shader_draw_parameters",
            crate::grammar::Version(1, 3),
        ),
        ("SPV_KHR_multiview", crate::grammar::Version(1, 3)),
        ("SPV_KHR_device_group", crate::grammar::Version(1, 3)),
        ("SPV_EXT_descriptor_indexing", crate::grammar::Version(1, 5)),
    ] {
        if env_version < core && !module.extensions.iter().any(|e| e == ext) {
            module.extensions.push(ext.to_owned());
        }
    }
    if options.reflect {
        // As DXC: the extensions are declared whatever the version (each is kept where its
        // decorations are used).
        for ext in ["SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type"] {
            module.extensions.push(ext.to_owned());
        }
    }
    enable_decorations(&mut module, env_version);
    if let Err(e) = crate::opt::update_vce(&mut module) {
        return Err(CompileError {
            diagnostics,
            rendered: format!("{rendered}{name}: error: internal: {e}\n"),
        });
    }
    // The environment's SPIR-V version, as DXC writes it (at least what the module needs).
    module.version = module.version.max(options.target_env.spirv_version());
    requested.declare(&mut module);
    // From SPIR-V 1.4 an entry point lists every global it uses, not only inputs and outputs.
    if module.version >= crate::grammar::Version(1, 4) {
        let all: Vec<_> = module.globals.handles().collect();
        for e in &mut module.entry_points {
            for &g in &all {
                if !e.interface.contains(&g) {
                    e.interface.push(g);
                }
            }
        }
    }
    let words = match ir::serialize(&module) {
        Ok(words) => words,
        Err(e) => {
            return Err(CompileError {
                diagnostics,
                rendered: format!("{rendered}{name}: error: internal: {e}\n"),
            })
        }
    };
    Ok(Compiled {
        module,
        words,
        warnings: rendered,
        requested,
    })
}

/// Whether any function of `m` computes a derivative (`OpDPdx` and the like), which only
/// fragment and compute shaders can.
fn uses_derivative_instructions(m: &ir::Module) -> bool {
    use crate::grammar::Instruction as I;
    m.functions.iter().any(|(_, f)| {
        f.blocks.iter().any(|(_, b)| {
            b.ops.iter().any(|&h| {
                matches!(
                    f.ops[h].inst,
                    I::DPdx(_)
                        | I::DPdy(_)
                        | I::Fwidth(_)
                        | I::DPdxFine(_)
                        | I::DPdyFine(_)
                        | I::FwidthFine(_)
                        | I::DPdxCoarse(_)
                        | I::DPdyCoarse(_)
                        | I::FwidthCoarse(_)
                )
            })
        })
    })
}

/// Whether a fragment entry point's code reads an input decorated `BuiltIn PointSize`.
fn fragment_reads_point_size(m: &ir::Module) -> bool {
    use crate::grammar::{BuiltIn, Decoration, ExecutionModel, Ids};
    let fragment = m
        .entry_points
        .iter()
        .any(|e| e.execution_model == ExecutionModel::Fragment);
    let point_size: std::collections::HashSet<_> = m
        .globals
        .iter()
        .filter(|(_, g)| {
            g.storage_class == crate::grammar::StorageClass::Input
                && g.decorations
                    .contains(&Decoration::BuiltIn(BuiltIn::PointSize))
        })
        .map(|(h, _)| h)
        .collect();
    if !fragment || point_size.is_empty() {
        return false;
    }
    m.functions.iter().any(|(_, f)| {
        f.blocks.iter().any(|(_, b)| {
            b.ops.iter().any(|&h| {
                let mut reads = false;
                f.ops[h].inst.visit_ids(&mut |id| {
                    reads |= matches!(ir::Value::from_id(id),
                        Some(ir::Value::Global(g)) if point_size.contains(&g));
                });
                reads
            })
        })
    })
}

fn enable_decorations(module: &mut ir::Module, env_version: crate::grammar::Version) {
    let mut wanted = Vec::new();
    let mut note = |d: &crate::grammar::Decoration| {
        let a = d.availability();
        if a.version.is_some_and(|v| v <= env_version) {
            return;
        }
        if let Some(e) = a.extensions.first() {
            wanted.push(e.name().to_string());
        }
    };
    for (_, g) in module.globals.iter() {
        g.decorations.iter().for_each(&mut note);
    }
    for (_, f) in module.functions.iter() {
        f.decorations.iter().for_each(&mut note);
        f.params
            .iter()
            .flat_map(|p| &p.decorations)
            .for_each(&mut note);
        for (_, op) in f.ops.iter() {
            op.attrs
                .iter()
                .flat_map(|a| &a.decorations)
                .for_each(&mut note);
        }
    }
    for e in wanted {
        if !module.extensions.contains(&e) {
            module.extensions.push(e);
        }
    }
}
