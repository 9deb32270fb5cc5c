//! `hlsl2spirv` and `spvkit hlsl`: DXC's command-line flags, parsed against the table of
//! [`super::dxc_flags`] (single-dash long flags with attached or separate values); the
//! compilation is one library call.

use super::dxc_flags::{self, Matched, Support};
use crate::hlsl::{
    compile_source, BufferLayout, Denorm, LanguageVersion, Options, Profile, RegisterBinding,
    ResourceBindings,
};
use crate::target_env::TargetEnv;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// The usage line.
pub const USAGE: &str = "usage: hlsl2spirv <input.hlsl | -> -T <profile> [-E <entry>] \
[-Fo <out.spv | ->] [-D NAME[=VALUE]]... [-I <dir>]... [-HV 2018|2021|202x] \
[-fspv-target-env=<env>] (hlsl2spirv -help lists every flag)";

/// What the command line asks for.
#[derive(Debug)]
pub enum Action {
    /// `-help`: print the flags.
    Help,
    /// `--version`.
    Version,
    /// Compile.
    Compile(Box<Args>),
}

/// Parsed command-line arguments of a compilation.
#[derive(Debug)]
pub struct Args {
    /// The input file, or `-` for standard input.
    pub input: PathBuf,
    /// The compilation options.
    pub options: Options,
    /// `-Fo`: where the binary goes (`-` for standard output; without it and `-Fc`, the
    /// disassembly goes to standard output).
    pub output: Option<PathBuf>,
    /// `-Fc`: where the disassembly goes.
    pub listing: Option<PathBuf>,
    /// `-Fe`: where warnings and errors go instead of standard error.
    pub diagnostics: Option<PathBuf>,
    /// `-WX`: warnings are errors.
    pub warnings_as_errors: bool,
    /// `-no-warnings`.
    pub no_warnings: bool,
    /// `-fspv-entrypoint-name=`: the entry point's name in the module.
    pub entry_point_name: Option<String>,
    /// `-fspv-extension=`: the extensions the module may use (`None`: any).
    pub allowed_extensions: Option<Vec<String>>,
    /// `-fspv-max-id`: the largest id the module may use.
    pub max_id: u32,
    /// Notes about accepted flags that change nothing, for standard error.
    pub notes: Vec<String>,
    /// `-verify`: the diagnostics are checked against the source's `expected-*` comments
    /// instead of reported.
    pub verify: bool,
    /// What runs on the module after code generation (`-O0`..`-O3`, `-Od`, `-fcgl`,
    /// `-Oconfig=`).
    pub optimization: Optimization,
}

/// The passes `hlsl2spirv` runs on the module it generated, as DXC runs spirv-opt's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Optimization {
    /// `-fcgl`: the module as generated, neither legalized nor optimized.
    None,
    /// `-O0`, `-Od`: legalized (`--legalize-hlsl`) when the module needs it, not optimized.
    LegalizeOnly,
    /// `-O1`..`-O3` (the default): legalized when needed, then `spvkit opt -O`.
    Full,
    /// `-Oconfig=`: legalized when needed, then these passes instead of `-O`.
    Config(Vec<crate::opt::Pass>),
}

/// The error for a flag (or a flag's value) that would change the output and is not
/// implemented.
fn unsupported(what: &str) -> String {
    format!("error: not supported yet: {what}")
}

/// A non-negative decimal number of a flag's value, or an error naming the flag and `what`.
fn number(flag: &str, what: &str, v: &str) -> Result<u32, String> {
    v.parse::<u32>()
        .map_err(|_| format!("error: invalid {flag} {what}: {v}"))
}

/// Adds one binding flag (`-fvk-x-shift`, `-fvk-bind-register`, `-vkbr`,
/// `-auto-binding-space`, `-fvk-bind-globals`, `-fvk-auto-shift-bindings`,
/// `-fspv-flatten-resource-arrays`) to `b`.
fn binding_flag(b: &mut ResourceBindings, m: &Matched) -> Result<(), String> {
    let name = m.flag.name;
    let v = |i: usize| m.values.get(i).map_or("", String::as_str);
    match name {
        "-fvk-b-shift" | "-fvk-t-shift" | "-fvk-s-shift" | "-fvk-u-shift" => {
            let class = name.as_bytes()[5] as char;
            let shift = number(name, "shift", v(0))?;
            let space = match v(1) {
                "all" => None,
                s => Some(number(name, "space", s)?),
            };
            // DXC honours `all` only when it is the class's one shift: refuse the mix.
            let mixed = b
                .shifts
                .iter()
                .any(|s| s.0 == class && (s.1.is_none() != space.is_none()));
            if mixed {
                return Err(format!(
                    "error: {name} with `all` cannot be combined with {name} for one space"
                ));
            }
            b.shifts.push((class, space, shift));
        }
        "-fvk-bind-register" | "-vkbr" => {
            let reg = v(0);
            let class = reg.chars().next().unwrap_or(' ');
            let index = match reg.get(1..) {
                Some(n) if matches!(class, 'b' | 't' | 's' | 'u') => n.parse::<u32>().ok(),
                _ => None,
            };
            let Some(index) = index else {
                return Err(format!("error: invalid {name} register: {reg}"));
            };
            b.registers.push(RegisterBinding {
                class,
                index,
                space: number(name, "space number", v(1))?,
                binding: number(name, "binding number", v(2))?,
                set: number(name, "set number", v(3))?,
            });
        }
        "-auto-binding-space" => b.default_space = number(name, "space", v(0))?,
        "-fvk-bind-globals" => {
            b.globals = Some((
                number(name, "binding number", v(0))?,
                number(name, "set number", v(1))?,
            ))
        }
        "-fspv-flatten-resource-arrays" => b.flatten_arrays = true,
        "-fvk-bind-resource-heap" | "-fvk-bind-sampler-heap" | "-fvk-bind-counter-heap" => {
            let place = Some((
                number(name, "binding number", v(0))?,
                number(name, "set number", v(1))?,
            ));
            match name {
                "-fvk-bind-resource-heap" => b.resource_heap = place,
                "-fvk-bind-sampler-heap" => b.sampler_heap = place,
                _ => b.counter_heap = place,
            }
        }
        _ => b.auto_shift = true,
    }
    Ok(())
}

/// Parses DXC-style arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Action, String> {
    let mut input = None;
    let mut profile = None;
    let mut entry = "main".to_owned();
    let mut a = Args {
        input: PathBuf::new(),
        // Replaced once `-T` is read.
        options: Options::new(
            "main",
            Profile {
                stage: crate::hlsl::Stage::Compute,
                major: 6,
                minor: 0,
            },
        ),
        output: None,
        listing: None,
        diagnostics: None,
        warnings_as_errors: false,
        no_warnings: false,
        entry_point_name: None,
        allowed_extensions: None,
        max_id: 0x3F_FFFF,
        notes: Vec::new(),
        verify: false,
        optimization: Optimization::Full,
    };
    let mut defines = Vec::new();
    let mut include_dirs = Vec::new();
    let mut version = LanguageVersion::default();
    let mut target_env = TargetEnv::Vulkan1_0;
    // -fvk-use-dx-layout, -fvk-use-gl-layout, -fvk-use-scalar-layout (DXC's precedence).
    let (mut dx_layout, mut gl_layout, mut scalar_layout) = (false, false, false);
    let (mut zpr, mut zpc, mut invert_y, mut dx_position_w) = (false, false, false, false);
    let mut maximal_reconvergence = false;
    let mut bindings = ResourceBindings::default();
    let mut enable_16bit_types = false;
    // Options set directly by their flags (the rest are settled after the loop).
    let mut o = Options::new("main", a.options.profile);
    let (mut oconfig, mut opt_level) = (0, false);
    let (mut optimization, mut fcgl) = (Optimization::Full, false);
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let m: Matched = match dxc_flags::match_arg(args, &mut i) {
            Some(m) => m?,
            None if arg.starts_with('-') && arg != "-" => {
                return Err(format!("error: unknown option '{arg}'\n{USAGE}"))
            }
            None if input.is_some() => {
                return Err(format!("error: more than one input file ('{arg}')"))
            }
            None => {
                input = Some(PathBuf::from(arg));
                i += 1;
                continue;
            }
        };
        let name = m.flag.name;
        // Flags accepted with a note still have DXC's checks of their values.
        match name {
            "-Oconfig=" => {
                oconfig += 1;
                if oconfig > 1 {
                    return Err("error: -Oconfig should not be specified more than once".into());
                }
                optimization = Optimization::Config(oconfig_passes(m.value(), &mut a.notes)?);
            }
            "-O0" | "-O1" | "-O2" | "-O3" => {
                opt_level = true;
                optimization = if name == "-O0" {
                    Optimization::LegalizeOnly
                } else {
                    Optimization::Full
                };
            }
            "-Od" => optimization = Optimization::LegalizeOnly,
            "-fcgl" => fcgl = true,
            "-fspv-debug=" => {
                const CONTROLS: &[&str] = &[
                    "file",
                    "source",
                    "line",
                    "tool",
                    "rich",
                    "rich-with-source",
                    "vulkan",
                    "vulkan-with-source",
                    "vulkan-with-source-test",
                ];
                if !CONTROLS.contains(&m.value()) {
                    return Err(format!(
                        "error: unknown SPIR-V debug info control parameter: {}",
                        m.value()
                    ));
                }
            }
            _ => {}
        }
        match m.flag.support {
            Support::Note(note) => a.notes.push(format!("note: {arg}: {note}")),
            Support::Refused => return Err(unsupported(arg)),
            Support::DxilOnly => {
                return Err(format!(
                    "error: {arg} concerns DXIL containers only (DXC does not support it with \
                     -spirv either)"
                ))
            }
            Support::Implemented => {}
        }
        if let Support::Implemented = m.flag.support {
            match name {
                "-help" | "--help" | "-h" | "-?" => return Ok(Action::Help),
                "--version" | "-version" => return Ok(Action::Version),
                "-nologo" | "-Qunused-arguments" | "-spirv" | "-fno-finite-math-only" => {}
                // Settled in the first match.
                "-O0" | "-O1" | "-O2" | "-O3" | "-Od" | "-fcgl" | "-Oconfig=" => {}
                "-Zpc" => zpc = true,
                "-Zpr" => zpr = true,
                "-fvk-invert-y" => invert_y = true,
                "-fvk-use-dx-position-w" => dx_position_w = true,
                "-fspv-enable-maximal-reconvergence" => maximal_reconvergence = true,
                "-fvk-b-shift"
                | "-fvk-t-shift"
                | "-fvk-s-shift"
                | "-fvk-u-shift"
                | "-fvk-bind-register"
                | "-vkbr"
                | "-auto-binding-space"
                | "-fvk-bind-globals"
                | "-fvk-auto-shift-bindings"
                | "-fspv-flatten-resource-arrays"
                | "-fvk-bind-resource-heap"
                | "-fvk-bind-sampler-heap"
                | "-fvk-bind-counter-heap" => binding_flag(&mut bindings, &m)?,
                "-fvk-support-nonzero-base-instance" => o.nonzero_base_instance = true,
                "-fvk-support-nonzero-base-vertex" => o.nonzero_base_vertex = true,
                "-fspv-use-unknown-image-format" => o.unknown_image_format = true,
                "-fspv-use-legacy-buffer-matrix-order" => o.legacy_buffer_matrix_order = true,
                "-fspv-use-descriptor-heap" => o.descriptor_heap = true,
                "-fspv-reflect" => o.reflect = true,
                "-fspv-use-vulkan-memory-model" => o.vulkan_memory_model = true,
                "-T" => profile = Some(m.value().to_owned()),
                "-E" => entry = m.value().to_owned(),
                "-D" => {
                    let d = m.value();
                    let (k, v) = d.split_once('=').unwrap_or((d, "1"));
                    if k.is_empty() {
                        return Err("error: -D needs a macro name".into());
                    }
                    defines.push((k.to_owned(), v.to_owned()));
                }
                "-I" => include_dirs.push(PathBuf::from(m.value())),
                "-Fo" => a.output = Some(PathBuf::from(m.value())),
                "-Fc" => a.listing = Some(PathBuf::from(m.value())),
                "-Fe" => a.diagnostics = Some(PathBuf::from(m.value())),
                "-WX" => a.warnings_as_errors = true,
                "-enable-16bit-types" => enable_16bit_types = true,
                "-no-warnings" => a.no_warnings = true,
                "-verify" => a.verify = true,
                "-HV" => {
                    version = match m.value() {
                        "2018" => LanguageVersion::V2018,
                        "2021" => LanguageVersion::V2021,
                        "202x" => LanguageVersion::V202x,
                        v @ ("2016" | "2017") => return Err(unsupported(&format!("-HV {v}"))),
                        v => {
                            return Err(format!(
                                "error: unknown HLSL version '{v}' (2018, 2021 or 202x)"
                            ))
                        }
                    }
                }
                "-denorm" => {
                    o.denorm = match m.value() {
                        "any" => Denorm::Any,
                        "preserve" => Denorm::Preserve,
                        "ftz" => Denorm::FlushToZero,
                        v => {
                            return Err(format!(
                                "error: unsupported setting for -denorm: {v} (any, preserve, ftz)"
                            ))
                        }
                    }
                }
                "-encoding" => {
                    if m.value() != "utf8" {
                        return Err(unsupported(&format!("-encoding {}", m.value())));
                    }
                }
                "-fvk-stage-io-order=" => match m.value() {
                    "decl" => o.stage_io_alpha = false,
                    "alpha" => o.stage_io_alpha = true,
                    v => {
                        return Err(format!(
                            "error: unknown Vulkan stage I/O location assignment order: {v}"
                        ))
                    }
                },
                "-fspv-target-env=" => {
                    target_env = match m.value() {
                        "vulkan1.0" => TargetEnv::Vulkan1_0,
                        "vulkan1.1" => TargetEnv::Vulkan1_1,
                        "vulkan1.1spirv1.4" => TargetEnv::Vulkan1_1Spirv1_4,
                        "vulkan1.2" => TargetEnv::Vulkan1_2,
                        "vulkan1.3" => TargetEnv::Vulkan1_3,
                        "universal1.5" => TargetEnv::Universal1_5,
                        env => {
                            return Err(format!(
                                "error: unknown target environment '{env}' (vulkan1.0, \
                                 vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3, \
                                 universal1.5)"
                            ))
                        }
                    }
                }
                "-fvk-use-dx-layout" => dx_layout = true,
                "-fvk-use-gl-layout" => gl_layout = true,
                "-fvk-use-scalar-layout" => scalar_layout = true,
                "-fspv-extension=" => a
                    .allowed_extensions
                    .get_or_insert_with(Vec::new)
                    .push(m.value().to_owned()),
                "-fspv-entrypoint-name=" => a.entry_point_name = Some(m.value().to_owned()),
                "-fspv-max-id" => {
                    let v = m.value();
                    let hex = v
                        .strip_prefix("0x")
                        .or_else(|| v.strip_prefix("0X"))
                        .unwrap_or(v);
                    a.max_id = u32::from_str_radix(hex, 16).map_err(|_| {
                        "error: -fspv-max-id must be an integer in hexadecimal format".to_owned()
                    })?;
                }
                other => return Err(format!("error: internal: {other} has no handler")),
            }
        }
        i += 1;
    }
    if oconfig > 0 && opt_level {
        return Err("error: -Oconfig should not be used together with -O".into());
    }
    a.optimization = if fcgl {
        Optimization::None
    } else {
        optimization
    };
    let input = input.ok_or_else(|| format!("error: no input file\n{USAGE}"))?;
    let profile = profile
        .ok_or_else(|| format!("error: no target profile (-T cs_6_0, vs_6_0, ps_6_0)\n{USAGE}"))?;
    let shown = display_name(&input);
    let profile = profile
        .parse::<Profile>()
        .map_err(|e| format!("{shown}: error: {e}"))?;
    if !bindings.registers.is_empty() && !bindings.shifts.is_empty() {
        // DXC ignores the shifts then; say so instead.
        return Err(
            "error: -fvk-bind-register places every resource; it cannot be combined with \
             -fvk-b-shift, -fvk-t-shift, -fvk-s-shift or -fvk-u-shift"
                .into(),
        );
    }
    if zpr && zpc {
        return Err("error: cannot specify -Zpr and -Zpc together".into());
    }
    if invert_y && profile.stage != crate::hlsl::Stage::Vertex {
        return Err(format!(
            "{shown}: error: -fvk-invert-y can only be used in VS/DS/GS"
        ));
    }
    if dx_layout && gl_layout {
        return Err("error: cannot specify both -fvk-use-dx-layout and -fvk-use-gl-layout".into());
    }
    let mut options = Options {
        entry: entry.clone(),
        profile,
        ..o
    };
    options.row_major = zpr;
    options.invert_y = invert_y;
    options.dx_position_w = dx_position_w;
    options.maximal_reconvergence = maximal_reconvergence;
    options.bindings = bindings;
    // As DXC: the DirectX layout wins over the others, the GL layout over the scalar one.
    options.layout = if dx_layout {
        BufferLayout::Dx
    } else if gl_layout {
        BufferLayout::Gl
    } else if scalar_layout {
        BufferLayout::Scalar
    } else {
        BufferLayout::Relaxed
    };
    options.defines = defines;
    options.include_dirs = include_dirs;
    options.version = version;
    options.target_env = target_env;
    options.enable_16bit_types = enable_16bit_types;
    a.input = input;
    options.legalize = !fcgl;
    a.options = options;
    Ok(Action::Compile(Box::new(a)))
}

/// spirv-opt's flags (SPIRV-Tools 2023), which `-Oconfig=` lists: those spvkit has run, the
/// others are skipped with a note, and a flag DXC's spirv-opt would reject is "unknown" as
/// there.
const SPIRV_OPT_FLAGS: &[&str] = &[
    "-O",
    "-Os",
    "--amd-ext-to-khr",
    "--before-hlsl-legalization",
    "--ccp",
    "--cfg-cleanup",
    "--combine-access-chains",
    "--compact-ids",
    "--convert-local-access-chains",
    "--convert-relaxed-to-half",
    "--convert-to-sampled-image",
    "--copy-propagate-arrays",
    "--replace-desc-array-access-using-var-index",
    "--spread-volatile-semantics",
    "--descriptor-scalar-replacement",
    "--eliminate-dead-branches",
    "--eliminate-dead-code-aggressive",
    "--eliminate-dead-const",
    "--eliminate-dead-functions",
    "--eliminate-dead-inserts",
    "--eliminate-dead-input-components",
    "--eliminate-dead-variables",
    "--eliminate-insert-extract",
    "--eliminate-local-multi-store",
    "--eliminate-local-single-block",
    "--eliminate-local-single-store",
    "--fix-func-call-param",
    "--flatten-decorations",
    "--fold-spec-const-op-composite",
    "--freeze-spec-const",
    "--graphics-robust-access",
    "--if-conversion",
    "--inline-entry-points-exhaustive",
    "--legalize-hlsl",
    "--local-redundancy-elimination",
    "--loop-fission",
    "--loop-fusion",
    "--loop-invariant-code-motion",
    "--loop-unroll",
    "--loop-unroll-partial",
    "--loop-peeling",
    "--loop-peeling-threshold",
    "--max-id-bound",
    "--merge-blocks",
    "--merge-return",
    "--loop-unswitch",
    "--preserve-bindings",
    "--preserve-spec-constants",
    "--print-all",
    "--private-to-local",
    "--reduce-load-size",
    "--redundancy-elimination",
    "--relax-block-layout",
    "--relax-float-ops",
    "--relax-logical-pointer",
    "--relax-struct-store",
    "--remove-duplicates",
    "--remove-unused-interface-variables",
    "--replace-invalid-opcode",
    "--ssa-rewrite",
    "--scalar-block-layout",
    "--scalar-replacement",
    "--set-spec-const-default-value",
    "--simplify-instructions",
    "--skip-block-layout",
    "--skip-validation",
    "--strength-reduction",
    "--strip-debug",
    "--strip-nonsemantic",
    "--strip-reflect",
    "--target-env",
    "--time-report",
    "--upgrade-memory-model",
    "--vector-dce",
    "--workaround-1209",
    "--workgroup-scalar-block-layout",
    "--wrap-opkill",
    "--unify-const",
    "--validate-after-all",
];

/// Checks an `-Oconfig=` pass list as DXC's spirv-opt would.
fn oconfig_passes(list: &str, notes: &mut Vec<String>) -> Result<Vec<crate::opt::Pass>, String> {
    use crate::opt::{Pass, LEGALIZE_HLSL, PERFORMANCE, SIZE};
    let mut passes = Vec::new();
    for pass in list.split(',').filter(|p| !p.is_empty()) {
        let flag = pass.split('=').next().unwrap_or(pass);
        if !SPIRV_OPT_FLAGS.contains(&flag) {
            return Err(format!(
                "error: failed to optimize SPIR-V: Unknown flag '{pass}'"
            ));
        }
        match flag {
            "-O" => passes.extend_from_slice(PERFORMANCE),
            "-Os" => passes.extend_from_slice(SIZE),
            "--legalize-hlsl" => passes.extend_from_slice(LEGALIZE_HLSL),
            _ => match flag.strip_prefix("--").and_then(Pass::from_name) {
                Some(p) if flag == pass => passes.push(p),
                // A pass only changes how the code is written, never what it computes:
                // one spvkit lacks is skipped, said on standard error.
                _ => notes.push(format!(
                    "note: -Oconfig: spvkit has no pass '{pass}'; it is skipped (spvkit has -O, \
                     -Os, --legalize-hlsl and the passes `spvkit opt --help` lists)"
                )),
            },
        }
    }
    Ok(passes)
}

/// The name diagnostics use for the input: `<stdin>` for `-`.
fn display_name(input: &std::path::Path) -> String {
    if input.as_os_str() == "-" {
        "<stdin>".into()
    } else {
        input.display().to_string()
    }
}

/// Whether `-fspv-extension=` values allow `ext` (`KHR` allows every `SPV_KHR_*`).
fn extension_allowed(allowed: &[String], ext: &str) -> bool {
    allowed
        .iter()
        .any(|a| a == ext || (a == "KHR" && ext.starts_with("SPV_KHR_")))
}

/// Writes bytes to a file, or standard output for `-`.
fn write(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    super::io::write_output(&path.to_string_lossy(), bytes)
}

/// Compiles as the arguments say: the binary to `-Fo`, the disassembly to `-Fc` or (with
/// neither) standard output; warnings and errors to standard error or `-Fe`.
pub fn run(args: &[String]) -> Result<(), String> {
    let a = match parse_args(args)? {
        Action::Help => {
            print!("{}", dxc_flags::help_text("hlsl2spirv"));
            return Ok(());
        }
        Action::Version => {
            println!("hlsl2spirv (spvkit) {}", env!("CARGO_PKG_VERSION"));
            return Ok(());
        }
        Action::Compile(a) => a,
    };
    for note in &a.notes {
        eprintln!("{note}");
    }
    let name = display_name(&a.input);
    let source = if a.input.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("<stdin>: error: cannot read: {e}"))?;
        s
    } else {
        std::fs::read_to_string(&a.input).map_err(|e| format!("{name}: error: cannot read: {e}"))?
    };
    // Warnings and errors: to standard error, or to the -Fe file.
    let report = |text: &str| -> Result<(), String> {
        match &a.diagnostics {
            Some(path) => std::fs::write(path, text)
                .map_err(|e| format!("{}: error: cannot write: {e}", path.display())),
            None => {
                eprint!("{text}");
                Ok(())
            }
        }
    };
    if a.verify {
        // The diagnostics are checked, not reported; a passing check writes what compiled.
        let result = compile_source(&name, &source, &a.options);
        let rendered = match &result {
            Ok(c) => c.warnings.clone(),
            Err(e) => e.rendered.clone(),
        };
        super::verify::verify(&source, &name, &rendered)?;
        let Ok(c) = result else { return Ok(()) };
        if let Some(path) = &a.output {
            let bytes: Vec<u8> = c.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            write(path, &bytes)?;
        }
        return Ok(());
    }
    let mut compiled = match compile_source(&name, &source, &a.options) {
        Ok(c) => c,
        Err(e) => {
            if a.diagnostics.is_some() {
                report(&e.rendered)?;
                return Err(String::new());
            }
            return Err(e.rendered.trim_end().to_owned());
        }
    };
    let warnings = if a.no_warnings {
        String::new()
    } else {
        std::mem::take(&mut compiled.warnings)
    };
    if !warnings.is_empty() {
        report(&warnings)?;
        if a.warnings_as_errors {
            return Err(format!("{name}: error: warnings treated as errors (-WX)"));
        }
    }
    let mut words = compiled.words;
    let mut module = compiled.module;
    let passes = passes_for(&a.optimization, &module);
    if !passes.is_empty() {
        for pass in passes {
            pass.run(&mut module);
        }
        // Capabilities that only removed code used go.
        let version = module.version;
        crate::opt::update_vce(&mut module).map_err(|e| format!("{name}: error: {e}"))?;
        module.version = module.version.max(version);
        compiled.requested.declare(&mut module);
        words = crate::ir::serialize(&module).map_err(|e| format!("{name}: error: {e}"))?;
    }
    if let Some(allowed) = &a.allowed_extensions {
        if let Some(ext) = module
            .extensions
            .iter()
            .find(|e| !extension_allowed(allowed, e))
        {
            return Err(format!(
                "{name}: error: SPIR-V extension '{ext}' required but not permitted by \
                 -fspv-extension="
            ));
        }
    }
    if let Some(entry_name) = &a.entry_point_name {
        for e in &mut module.entry_points {
            e.name.clone_from(entry_name);
        }
        words = crate::ir::serialize(&module).map_err(|e| format!("{name}: error: {e}"))?;
    }
    let bound = words.get(3).copied().unwrap_or(0);
    if bound.saturating_sub(1) > a.max_id {
        return Err(format!(
            "{name}: error: the module needs ids up to {:#x}, more than -fspv-max-id {:#x}",
            bound - 1,
            a.max_id
        ));
    }
    let text = || {
        crate::text::disassemble_to_string(&words, &crate::text::DisassembleOptions::default())
            .map_err(|e| format!("error: {e}"))
    };
    if let Some(path) = &a.output {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        write(path, &bytes)?;
    }
    if let Some(path) = &a.listing {
        write(path, text()?.as_bytes())?;
    }
    if a.output.is_none() && a.listing.is_none() {
        print!("{}", text()?);
    }
    Ok(())
}

/// The passes an optimization setting runs on `module`: the legalization when the module
/// needs it (whatever the level, as DXC), then the optimization.
fn passes_for(optimization: &Optimization, module: &crate::ir::Module) -> Vec<crate::opt::Pass> {
    let mut passes = Vec::new();
    // (The library legalized it already, unless told not to by `-fcgl`.)
    if *optimization != Optimization::None && crate::opt::needs_legalization(module) {
        passes.extend_from_slice(crate::opt::LEGALIZE_HLSL);
    }
    match optimization {
        Optimization::None | Optimization::LegalizeOnly => {}
        Optimization::Full => passes.extend_from_slice(crate::opt::PERFORMANCE),
        Optimization::Config(list) => passes.extend_from_slice(list),
    }
    passes
}

/// The `hlsl2spirv` program.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("{message}");
            }
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn compile(s: &str) -> Result<Box<Args>, String> {
        match parse_args(&args(s))? {
            Action::Compile(a) => Ok(a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn dxc_flags_parse_attached_and_separate() {
        let a = compile("in.hlsl -T cs_6_0 -E go -Fo out.spv -DX=2 -D Y -I inc -HV 2018 -fspv-target-env=vulkan1.2 -spirv").unwrap();
        assert_eq!(a.options.entry, "go");
        assert_eq!(a.output, Some(PathBuf::from("out.spv")));
        assert_eq!(
            a.options.defines,
            vec![("X".into(), "2".into()), ("Y".into(), "1".into())]
        );
        assert_eq!(a.options.version, LanguageVersion::V2018);
        assert_eq!(a.options.target_env, TargetEnv::Vulkan1_2);
        assert!(a.notes.is_empty());
        assert!(parse_args(&args("in.hlsl")).is_err());
        assert!(parse_args(&args("in.hlsl -T cs_6_0 -bogus")).is_err());
    }

    #[test]
    fn layout_flags_pick_the_buffer_layout() {
        let layout =
            |flags: &str| compile(&format!("x.hlsl -T cs_6_0 {flags}")).map(|a| a.options.layout);
        assert_eq!(layout(""), Ok(BufferLayout::Relaxed));
        assert_eq!(layout("-fvk-use-gl-layout"), Ok(BufferLayout::Gl));
        assert_eq!(layout("-fvk-use-scalar-layout"), Ok(BufferLayout::Scalar));
        assert_eq!(layout("-fvk-use-dx-layout"), Ok(BufferLayout::Dx));
        // DXC's precedence: dx over scalar, gl over scalar; dx with gl is an error.
        assert_eq!(
            layout("-fvk-use-scalar-layout -fvk-use-dx-layout"),
            Ok(BufferLayout::Dx)
        );
        assert_eq!(
            layout("-fvk-use-scalar-layout -fvk-use-gl-layout"),
            Ok(BufferLayout::Gl)
        );
        assert!(layout("-fvk-use-gl-layout -fvk-use-dx-layout")
            .unwrap_err()
            .contains("cannot specify both"));
    }

    #[test]
    fn majorness_and_position_flags() {
        let a = compile("x.hlsl -T vs_6_0 -Zpr -fvk-invert-y").unwrap();
        assert!(a.options.row_major && a.options.invert_y && !a.options.dx_position_w);
        let a = compile("x.hlsl -T ps_6_0 -Zpc -fvk-use-dx-position-w").unwrap();
        assert!(!a.options.row_major && a.options.dx_position_w);
        assert!(compile("x.hlsl -T ps_6_0 -Zpr -Zpc")
            .unwrap_err()
            .contains("-Zpr and -Zpc together"));
        assert_eq!(
            compile("x.hlsl -T ps_6_0 -fvk-invert-y").unwrap_err(),
            "x.hlsl: error: -fvk-invert-y can only be used in VS/DS/GS"
        );
    }

    #[test]
    fn binding_flags() {
        let a = compile(
            "x.hlsl -T ps_6_0 -fvk-b-shift 100 0 -fvk-t-shift 5 all -fvk-b-shift 200 0 \
             -auto-binding-space 7 -fvk-bind-globals 1 2 -fvk-auto-shift-bindings \
             -fspv-flatten-resource-arrays",
        )
        .unwrap();
        let b = &a.options.bindings;
        assert_eq!(b.shift('b', 0), 200);
        assert_eq!(b.shift('t', 9), 5);
        assert_eq!(b.shift('s', 0), 0);
        assert_eq!(b.default_space, 7);
        assert_eq!(b.globals, Some((1, 2)));
        assert!(b.auto_shift && b.flatten_arrays);
        let a = compile("x.hlsl -T ps_6_0 -fvk-bind-register t5 0 1 2 -vkbr s3 1 3 4").unwrap();
        let r = &a.options.bindings.registers;
        assert_eq!(
            (r[0].class, r[0].index, r[0].binding, r[0].set),
            ('t', 5, 1, 2)
        );
        assert_eq!((r[1].class, r[1].space), ('s', 1));
        for (flags, why) in [
            ("-fvk-bind-register s10 0 -10 0", "binding number: -10"),
            ("-fvk-bind-register s10 0 10 ff", "set number: ff"),
            ("-fvk-bind-register s10 5t 10 1", "space number: 5t"),
            ("-fvk-bind-register x1 0 0 0", "register: x1"),
            ("-fvk-b-shift 1 all -fvk-b-shift 2 0", "cannot be combined"),
            ("-vkbr t0 0 0 0 -fvk-t-shift 1 0", "cannot be combined"),
            ("-fvk-u-shift -1 0", "shift: -1"),
        ] {
            let e = compile(&format!("x.hlsl -T ps_6_0 {flags}")).unwrap_err();
            assert!(e.contains(why), "{flags}: {e}");
        }
    }

    #[test]
    fn notes_refusals_and_actions() {
        let a = compile("- -T cs_6_0 -O3 -Zi -nologo -fspv-target-env=vulkan1.1spirv1.4").unwrap();
        assert_eq!(a.input, PathBuf::from("-"));
        assert_eq!(a.notes.len(), 1, "{:?}", a.notes);
        assert!(a.notes[0].starts_with("note: -Zi: "), "{:?}", a.notes);
        assert_eq!(a.optimization, Optimization::Full);
        assert_eq!(a.options.target_env, TargetEnv::Vulkan1_1Spirv1_4);
        let a = compile("x.hlsl -T cs_6_0 -fspv-target-env=universal1.5").unwrap();
        assert_eq!(a.options.target_env, TargetEnv::Universal1_5);
        assert!(compile("x.hlsl -T cs_6_0 -fspv-target-env=universal1.6").is_err());
        assert_eq!(
            compile("x.hlsl -T cs_6_0 -Cc").unwrap_err(),
            "error: not supported yet: -Cc"
        );
        // DXC's checks of flags that are only noted.
        let err = |cmd: &str| compile(cmd).unwrap_err();
        use crate::opt::Pass;
        assert!(err("x.hlsl -T cs_6_0 -O0 -Oconfig=--loop-unroll").contains("together with -O"));
        assert!(err("x.hlsl -T cs_6_0 -Oconfig=-O -Oconfig=-Os").contains("more than once"));
        assert!(err("x.hlsl -T cs_6_0 -Oconfig=--nope").contains("Unknown flag '--nope'"));
        assert!(err("x.hlsl -T cs_6_0 -fspv-debug=t").contains("control parameter: t"));
        let a = compile("x.hlsl -T cs_6_0 -Oconfig=--ssa-rewrite,--loop-unroll-partial=3").unwrap();
        assert_eq!(a.optimization, Optimization::Config(vec![Pass::SsaRewrite]));
        assert!(a.notes[0].contains("no pass '--loop-unroll-partial=3'; it is skipped"));
        // The optimization levels, as DXC: -O3 by default, -O0/-Od legalize only, -fcgl
        // neither, -Oconfig= in place of -O.
        let level = |flags: &str| {
            compile(&format!("x.hlsl -T cs_6_0 {flags}"))
                .unwrap()
                .optimization
        };
        assert_eq!(level(""), Optimization::Full);
        assert_eq!(level("-O1"), Optimization::Full);
        assert_eq!(level("-O0"), Optimization::LegalizeOnly);
        assert_eq!(level("-Od"), Optimization::LegalizeOnly);
        assert_eq!(level("-fcgl"), Optimization::None);
        assert_eq!(level("-O3 -fcgl"), Optimization::None);
        assert_eq!(
            level("-Oconfig=--ssa-rewrite,--merge-blocks"),
            Optimization::Config(vec![Pass::SsaRewrite, Pass::MergeBlocks])
        );
        assert_eq!(
            level("-Oconfig=-O"),
            Optimization::Config(crate::opt::PERFORMANCE.to_vec())
        );
        assert_eq!(
            compile("x.hlsl -T cs_6_0 -denorm ftz")
                .unwrap()
                .options
                .denorm,
            Denorm::FlushToZero
        );
        assert_eq!(
            compile("x.hlsl -T cs_6_0 -denorm preserve")
                .unwrap()
                .options
                .denorm,
            Denorm::Preserve
        );
        assert_eq!(
            compile("x.hlsl -T cs_6_0 -denorm any")
                .unwrap()
                .options
                .denorm,
            Denorm::Any
        );
        assert!(compile("x.hlsl -T cs_6_0 -denorm bad")
            .unwrap_err()
            .contains("-denorm: bad"));
        assert!(
            compile("x.hlsl -T cs_6_0 -fspv-use-vulkan-memory-model")
                .unwrap()
                .options
                .vulkan_memory_model
        );
        assert_eq!(
            compile("x.hlsl -T cs_6_0 -HV 202x")
                .unwrap()
                .options
                .version,
            LanguageVersion::V202x
        );
        let o = compile(
            "x.hlsl -T vs_6_0 -fvk-support-nonzero-base-instance \
             -fvk-support-nonzero-base-vertex -fvk-stage-io-order=alpha -fspv-reflect \
             -fspv-use-unknown-image-format -fspv-use-legacy-buffer-matrix-order \
             -fspv-use-descriptor-heap -fvk-bind-resource-heap 1 2 -fvk-bind-sampler-heap 3 4 \
             -fvk-bind-counter-heap 5 6",
        )
        .unwrap()
        .options;
        assert!(o.nonzero_base_instance && o.nonzero_base_vertex && o.stage_io_alpha);
        assert!(o.reflect && o.unknown_image_format && o.legacy_buffer_matrix_order);
        assert!(o.descriptor_heap);
        let b = &o.bindings;
        assert_eq!(
            (b.resource_heap, b.sampler_heap, b.counter_heap),
            (Some((1, 2)), Some((3, 4)), Some((5, 6)))
        );
        assert!(compile("x.hlsl -T cs_6_0 -fvk-bind-resource-heap a 2").is_err());
        assert!(compile("x.hlsl -T cs_6_0 -fvk-bind-sampler-heap 1 -1").is_err());
        assert!(compile("x.hlsl -T cs_6_0 -fvk-stage-io-order=beta").is_err());
        assert!(compile("x.hlsl -T cs_6_0 -Fre r.bin")
            .unwrap_err()
            .contains("DXIL"));
        assert!(matches!(parse_args(&args("-help")).unwrap(), Action::Help));
        assert!(matches!(
            parse_args(&args("x.hlsl --version")).unwrap(),
            Action::Version
        ));
        let a = compile("x.hlsl -T cs_6_0 -fspv-extension=KHR -fspv-max-id 0xFF").unwrap();
        assert_eq!(a.max_id, 0xFF);
        assert!(extension_allowed(
            a.allowed_extensions.as_deref().unwrap(),
            "SPV_KHR_storage_buffer_storage_class"
        ));
        assert!(!extension_allowed(
            a.allowed_extensions.as_deref().unwrap(),
            "SPV_EXT_x"
        ));
    }
}
