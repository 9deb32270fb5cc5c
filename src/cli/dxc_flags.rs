//! DXC's command-line flags in one table: how each takes its value, the `dxc -help` group it is
//! listed under, and what `hlsl2spirv` does with it. A flag is implemented, accepted with a note
//! (it would not change the SPIR-V), or refused: a flag that would change the output and is not
//! implemented is an error, never accepted and ignored.

/// How a flag takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// No value: `-Od`.
    Flag,
    /// A value attached to the name: `-fspv-target-env=vulkan1.1`.
    Joined,
    /// Attached or the next argument: `-Tcs_6_0` or `-T cs_6_0`.
    JoinedOrSeparate,
    /// The next argument: `-Fre file`.
    Separate,
    /// The next `n` arguments: `-fvk-b-shift 1 0`.
    Multi(u8),
}

/// The groups of `dxc -help`, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// "Common Options".
    Common,
    /// "Compilation Options".
    Compilation,
    /// "Optimization Options".
    Optimization,
    /// "SPIR-V CodeGen Options".
    SpirV,
    /// "Utility Options".
    Utility,
    /// "Warning Options".
    Warning,
}

impl Group {
    /// Every group, in `dxc -help`'s order.
    pub const ALL: [Group; 6] = [
        Group::Common,
        Group::Compilation,
        Group::Optimization,
        Group::SpirV,
        Group::Utility,
        Group::Warning,
    ];

    /// The heading `dxc -help` prints.
    pub fn title(self) -> &'static str {
        match self {
            Group::Common => "Common Options",
            Group::Compilation => "Compilation Options",
            Group::Optimization => "Optimization Options",
            Group::SpirV => "SPIR-V CodeGen Options",
            Group::Utility => "Utility Options",
            Group::Warning => "Warning Options",
        }
    }
}

/// What `hlsl2spirv` does with a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Honoured (by the driver or the compiler), possibly only for some values.
    Implemented,
    /// Accepted with this note on standard error: it does not change the SPIR-V.
    Note(&'static str),
    /// Refused with `error: not supported yet: <flag>`: it would change the output.
    Refused,
    /// Refused because it concerns DXIL containers only (DXC refuses or ignores it with
    /// `-spirv`).
    DxilOnly,
}

/// One DXC flag.
#[derive(Clone, Copy, Debug)]
pub struct DxcFlag {
    /// The spelling, with its dash (`-Fo`, `-fspv-target-env=`, `--version`).
    pub name: &'static str,
    /// How it takes its value.
    pub arity: Arity,
    /// The value's name in the help (`<file>`).
    pub meta: &'static str,
    /// Where `dxc -help` lists it.
    pub group: Group,
    /// DXC's description.
    pub help: &'static str,
    /// What spvkit does with it.
    pub support: Support,
}

const fn f(
    name: &'static str,
    arity: Arity,
    meta: &'static str,
    group: Group,
    help: &'static str,
    support: Support,
) -> DxcFlag {
    DxcFlag {
        name,
        arity,
        meta,
        group,
        help,
        support,
    }
}

use Arity::{Flag, Joined, JoinedOrSeparate as JoS, Multi, Separate};
use Group::{Common, Compilation as Comp, Optimization as Opt, SpirV, Utility as Util, Warning};
use Support::{DxilOnly, Implemented as Yes, Note, Refused as No};

const DXIL_OPT: Support =
    Note("switches a DXIL (LLVM) optimization; the SPIR-V passes are not affected, as in DXC");
const NO_DEBUG: Support = Note("spvkit does not emit debug information yet");
const NO_DIAG: Support = Note("diagnostics keep spvkit's clang-style format");
const HINT: Support = Note("a code generation hint for DXIL; the SPIR-V is the same without it");

/// Every flag of `dxc -help` (DXC 1.8), and the hidden SPIR-V ones, by group.
#[rustfmt::skip]
pub static FLAGS: &[DxcFlag] = &[
    // Common Options.
    f("-help", Flag, "", Common, "Display available options", Yes),
    f("--help", Flag, "", Common, "Display available options", Yes),
    f("-h", Flag, "", Common, "Display available options", Yes),
    f("-?", Flag, "", Common, "Display available options", Yes),
    f("--version", Flag, "", Common, "Display compiler version information", Yes),
    f("-version", Flag, "", Common, "Display compiler version information", Yes),
    f("-nologo", Flag, "", Common, "Suppress copyright message (spvkit prints none)", Yes),
    f("-Qunused-arguments", Flag, "", Common, "Don't emit warning for unused driver arguments (spvkit emits none)", Yes),
    // Compilation Options.
    f("-all-resources-bound", Flag, "", Comp, "Enables agressive flattening", HINT),
    f("-auto-binding-space", Separate, "<value>", Comp, "Set auto binding space: the descriptor set of resources that name none", Yes),
    f("-Cc", Flag, "", Comp, "Output color coded assembly listings", No),
    f("-default-linkage", Separate, "<value>", Comp, "Set default linkage for non-shader functions when compiling or linking to a library target (internal, external)", No),
    f("-denorm", JoS, "<value>", Comp, "select denormal value options (any, preserve, ftz): the DenormPreserve or DenormFlushToZero execution mode for 32-bit floats", Yes),
    f("-D", JoS, "<value>", Comp, "Define macro", Yes),
    f("-enable-16bit-types", Flag, "", Comp, "Enable 16bit types and disable min precision types", Yes),
    f("-encoding", Separate, "<value>", Comp, "Set default encoding for text outputs (utf8|utf16) default=utf8; only utf8 is supported", Yes),
    f("-export-shaders-only", Flag, "", Comp, "Only export shaders when compiling a library", No),
    f("-exports", Separate, "<value>", Comp, "Specify exports when compiling a library", No),
    f("-E", JoS, "<value>", Comp, "Entry point name", Yes),
    f("-Fc", JoS, "<file>", Comp, "Output assembly code listing file", Yes),
    f("-fdiagnostics-format=", Joined, "<value>", Comp, "Select diagnostic message format", NO_DIAG),
    f("-fdiagnostics-show-option", Flag, "", Comp, "Print option name with mappable diagnostics", NO_DIAG),
    f("-fno-diagnostics-show-option", Flag, "", Comp, "Do not print option name with mappable diagnostics", NO_DIAG),
    f("-fdiagnostics-color", Flag, "", Comp, "Use colors in diagnostics", NO_DIAG),
    f("-fdisable-loc-tracking", Flag, "", Comp, "Disable source location tracking in IR", NO_DEBUG),
    f("-Fd", JoS, "<file>", Comp, "Write debug information to the given file", DxilOnly),
    f("-Fe", JoS, "<file>", Comp, "Output warnings and errors to the given file", Yes),
    f("-Fh", JoS, "<file>", Comp, "Output header file containing object code", No),
    f("-Fi", JoS, "<file>", Comp, "Set preprocess output file name (with -P)", No),
    f("-flegacy-macro-expansion", Flag, "", Comp, "Expand the operands before performing token-pasting operation (fxc behavior)", No),
    f("-flegacy-resource-reservation", Flag, "", Comp, "Reserve unused explicit register assignments for compatibility with shader model 5.0 and below", No),
    f("-fnew-inlining-behavior", Flag, "", Comp, "Experimental option to use heuristics-driven late inlining", HINT),
    f("-force-rootsig-ver", JoS, "<profile>", Comp, "force root signature version (rootsig_1_1 if omitted)", DxilOnly),
    f("-Fo", JoS, "<file>", Comp, "Output object file (`-` for standard output)", Yes),
    f("-Fre", Separate, "<file>", Comp, "Output reflection to the given file", DxilOnly),
    f("-Frs", Separate, "<file>", Comp, "Output root signature to the given file", DxilOnly),
    f("-Fsh", Separate, "<file>", Comp, "Output shader hash to the given file", DxilOnly),
    f("-ftime-report", Flag, "", Comp, "Print time report", Note("spvkit prints no time report (set SPVKIT_TIMES=1 for phase times)")),
    f("-ftime-trace", Flag, "", Comp, "Print hierarchial time tracing to stdout", Note("spvkit writes no time trace")),
    f("-ftime-trace=", Joined, "<file>", Comp, "Print hierarchial time tracing to file", Note("spvkit writes no time trace")),
    f("-Gec", Flag, "", Comp, "Enable backward compatibility mode", DxilOnly),
    f("-Ges", Flag, "", Comp, "Enable strict mode", Note("strict mode only rejects deprecated syntax; the SPIR-V is the same")),
    f("-Gfa", Flag, "", Comp, "Avoid flow control constructs", HINT),
    f("-Gfp", Flag, "", Comp, "Prefer flow control constructs", HINT),
    f("-Gis", Flag, "", Comp, "Force IEEE strictness", Note("spvkit emits no fast-math flags; the SPIR-V is already IEEE-strict")),
    f("-HV", JoS, "<value>", Comp, "HLSL version (2018, 2021, 202x: 2021 with conforming literals and auto). Default is 2021", Yes),
    f("-H", Flag, "", Comp, "Show header includes and nesting depth", Note("the include listing is not printed yet")),
    f("-ignore-line-directives", Flag, "", Comp, "Ignore line directives", Note("#line only moves diagnostics and debug information, which spvkit does not emit")),
    f("-I", JoS, "<value>", Comp, "Add directory to include search path", Yes),
    f("-Lx", Flag, "", Comp, "Output hexadecimal literals", No),
    f("-MD", Flag, "", Comp, "Write a file with .d extension that will contain the list of the compilation target dependencies", No),
    f("-MF", JoS, "<file>", Comp, "Write the specfied file that will contain the list of the compilation target dependencies", No),
    f("-M", Flag, "", Comp, "Dumps the list of the compilation target dependencies", No),
    f("-Ni", Flag, "", Comp, "Output instruction numbers in assembly listings", No),
    f("-no-legacy-cbuf-layout", Flag, "", Comp, "Do not use legacy cbuffer load", HINT),
    f("-no-warnings", Flag, "", Comp, "Suppress warnings", Yes),
    f("-No", Flag, "", Comp, "Output instruction byte offsets in assembly listings", No),
    f("-Odump", Flag, "", Comp, "Print the optimizer commands", No),
    f("-pack-optimized", Flag, "", Comp, "Optimize signature packing assuming identical signature provided for each connecting stage", HINT),
    f("-pack-prefix-stable", Flag, "", Comp, "(default) Pack signatures preserving prefix-stable property", HINT),
    f("-recompile", Flag, "", Comp, "recompile from DXIL container with Debug Info or Debug Info bitcode file", DxilOnly),
    f("-res-may-alias", Flag, "", Comp, "Assume that UAVs/SRVs may alias", HINT),
    f("-rootsig-define", Separate, "<value>", Comp, "Read root signature from a #define", DxilOnly),
    f("-T", JoS, "<profile>", Comp, "Set target profile (cs_6_0, vs_6_0, ps_6_0, ... shader model 5.0 to 6.x)", Yes),
    f("-validator-version", Separate, "<value>", Comp, "Override validator version for module", DxilOnly),
    f("-Vd", Flag, "", Comp, "Disable validation", Note("hlsl2spirv does not validate its output (use spvkit val); nothing to disable")),
    f("-verify", Flag, "", Comp, "Verify diagnostic output using comment directives", Yes),
    f("-Vi", Flag, "", Comp, "Display details about the include process", Note("the include listing is not printed yet")),
    f("-Vn", JoS, "<name>", Comp, "Use <name> as variable name in header file (with -Fh)", No),
    f("-WX", Flag, "", Comp, "Treat warnings as errors", Yes),
    f("-Zi", Flag, "", Comp, "Enable debug information", NO_DEBUG),
    f("-Zpc", Flag, "", Comp, "Pack matrices in column-major order (the default)", Yes),
    f("-Zpr", Flag, "", Comp, "Pack matrices in row-major order", Yes),
    f("-Zsb", Flag, "", Comp, "Compute Shader Hash considering only output binary", DxilOnly),
    f("-Zss", Flag, "", Comp, "Compute Shader Hash considering source information", DxilOnly),
    // Optimization Options.
    f("-ffinite-math-only", Flag, "", Opt, "Allow optimizations for floating-point arithmetic that assume that arguments and results are not NaNs or +-Infs", Note("an optimization permission; spvkit does not optimize and emits no fast-math flags, so results stay IEEE")),
    f("-fno-finite-math-only", Flag, "", Opt, "Disallow optimizations for floating-point arithmetic that assume that arguments and results are not NaNs or +-Infs (the default)", Yes),
    f("-O0", Flag, "", Opt, "Optimization Level 0", Yes),
    f("-O1", Flag, "", Opt, "Optimization Level 1", Yes),
    f("-O2", Flag, "", Opt, "Optimization Level 2", Yes),
    f("-O3", Flag, "", Opt, "Optimization Level 3 (Default)", Yes),
    f("-Od", Flag, "", Opt, "Disable optimizations", Yes),
    f("-fcgl", Flag, "", Opt, "Generate SPIR-V without legalization or optimization (DXC's test flag)", Yes),
    f("-opt-disable", Separate, "<value>", Opt, "Disable this optimization", DXIL_OPT),
    f("-opt-enable", Separate, "<value>", Opt, "Enable this optimization", DXIL_OPT),
    // SPIR-V CodeGen Options.
    f("-fspv-debug=", Joined, "<value>", SpirV, "Specify whitelist of debug info category (file -> source -> line, tool, vulkan-with-source)", NO_DEBUG),
    f("-fspv-enable-maximal-reconvergence", Flag, "", SpirV, "Enables the MaximallyReconvergesKHR execution mode for this module (needs spvkit built from a grammar that has it)", Yes),
    f("-fspv-entrypoint-name=", Joined, "<value>", SpirV, "Specify the SPIR-V entry point name. Defaults to the HLSL entry point name", Yes),
    f("-fspv-extension=", Joined, "<value>", SpirV, "Specify SPIR-V extension permitted to use (KHR for all KHR extensions)", Yes),
    f("-fspv-fix-func-call-arguments", Flag, "", SpirV, "Fix function call arguments that are not memory object declarations", Note("spvkit always passes function arguments through Function-storage variables, which is what the fix makes")),
    f("-fspv-flatten-resource-arrays", Flag, "", SpirV, "Flatten arrays of resources so each array element takes one binding number (refused where an array of resources is declared: not supported yet)", Yes),
    f("-fspv-max-id", Separate, "<shift>", SpirV, "Set the maximum value for an id in the SPIR-V binary (hexadecimal). Default is 3FFFFF", Yes),
    f("-fspv-preserve-bindings", Flag, "", SpirV, "Preserves all bindings declared within the module, even when those bindings are unused", No),
    f("-fspv-preserve-interface", Flag, "", SpirV, "Preserves all interface variables in the entry point, even when those variables are unused", Note("spvkit never removes unused stage variables: every one is kept already")),
    f("-fspv-print-all", Flag, "", SpirV, "Print the SPIR-V module before each pass and after the last one", Note("spvkit runs no optimizer passes, so there is nothing to print between them")),
    f("-fspv-reduce-load-size", Flag, "", SpirV, "Replaces loads of composite objects to reduce memory pressure for the loads", Note("an optimizer pass option; spvkit does not optimize yet")),
    f("-fspv-reflect", Flag, "", SpirV, "Emit additional SPIR-V instructions to aid reflection: the semantics of stage variables and the HLSL types of resources (SPV_GOOGLE_hlsl_functionality1, SPV_GOOGLE_user_type)", Yes),
    f("-fspv-target-env=", Joined, "<value>", SpirV, "Specify the target environment: vulkan1.0 (default), vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3, universal1.5", Yes),
    f("-fspv-use-legacy-buffer-matrix-order", Flag, "", SpirV, "Assume the legacy matrix order (row major) when accessing raw buffers with templated Load/Store", Yes),
    f("-fspv-use-descriptor-heap", Flag, "", SpirV, "Use SPV_EXT_descriptor_heap for ResourceDescriptorHeap and SamplerDescriptorHeap (the heaps are not supported yet)", Yes),
    f("-fspv-use-unknown-image-format", Flag, "", SpirV, "Use the Unknown image format for storage images and texel buffers without [[vk::image_format]] instead of deducing one from the texel type", Yes),
    f("-fspv-use-vulkan-memory-model", Flag, "", SpirV, "Generates SPIR-V modules that use the Vulkan memory model instead of GLSL450", Yes),
    f("-fvk-auto-shift-bindings", Flag, "", SpirV, "Apply fvk-*-shift to resources without an explicit register assignment", Yes),
    f("-fvk-b-shift", Multi(2), "<shift> <space>", SpirV, "Specify Vulkan binding number shift for b-type register", Yes),
    f("-fvk-bind-counter-heap", Multi(2), "<binding> <set>", SpirV, "Specify Vulkan binding number and set number for the counter heap (the heaps are not supported yet)", Yes),
    f("-fvk-bind-globals", Multi(2), "<binding> <set>", SpirV, "Specify Vulkan binding number and set number for the $Globals cbuffer", Yes),
    f("-fvk-bind-register", Multi(4), "<type-number> <space> <binding> <set>", SpirV, "Specify Vulkan descriptor set and binding for a specific register", Yes),
    f("-fvk-bind-resource-heap", Multi(2), "<binding> <set>", SpirV, "Specify Vulkan binding number and set number for the resource heap (the heaps are not supported yet)", Yes),
    f("-fvk-bind-sampler-heap", Multi(2), "<binding> <set>", SpirV, "Specify Vulkan binding number and set number for the sampler heap (the heaps are not supported yet)", Yes),
    f("-fvk-invert-y", Flag, "", SpirV, "Negate SV_Position.y before writing to stage output in VS/DS/GS/MS/Lib (spvkit compiles VS)", Yes),
    f("-fvk-s-shift", Multi(2), "<shift> <space>", SpirV, "Specify Vulkan binding number shift for s-type register", Yes),
    f("-fvk-stage-io-order=", Joined, "<value>", SpirV, "Specify Vulkan stage I/O location assignment order (decl, the default, or alpha)", Yes),
    f("-fvk-support-nonzero-base-instance", Flag, "", SpirV, "Follow Vulkan spec to use gl_BaseInstance as the first vertex instance", Yes),
    f("-fvk-support-nonzero-base-vertex", Flag, "", SpirV, "Follow Vulkan spec to use gl_BaseVertex as the first vertex", Yes),
    f("-fvk-t-shift", Multi(2), "<shift> <space>", SpirV, "Specify Vulkan binding number shift for t-type register", Yes),
    f("-fvk-u-shift", Multi(2), "<shift> <space>", SpirV, "Specify Vulkan binding number shift for u-type register", Yes),
    f("-fvk-use-dx-layout", Flag, "", SpirV, "Use DirectX memory layout for Vulkan resources", Yes),
    f("-fvk-use-dx-position-w", Flag, "", SpirV, "Reciprocate SV_Position.w after reading from stage input in PS", Yes),
    f("-fvk-use-gl-layout", Flag, "", SpirV, "Use strict OpenGL std140/std430 memory layout for Vulkan resources", Yes),
    f("-fvk-use-scalar-layout", Flag, "", SpirV, "Use scalar memory layout for Vulkan resources", Yes),
    f("-Oconfig=", Joined, "<value>", SpirV, "Specify a comma-separated list of SPIRV-Tools passes to customize optimization configuration", Yes),
    f("-spirv", Flag, "", SpirV, "Generate SPIR-V code (always on)", Yes),
    f("-vkbr", Multi(4), "<type-number> <space> <binding> <set>", SpirV, "Alias of -fvk-bind-register", Yes),
    f("-Wno-vk-emulated-features", Flag, "", SpirV, "Do not emit warnings for emulated features resulting from no direct mapping", Note("spvkit emits no such warnings")),
    f("-Wno-vk-ignored-features", Flag, "", SpirV, "Do not emit warnings for ingored features resulting from no Vulkan support", Note("spvkit emits no such warnings")),
    // Utility Options.
    f("-dumpbin", Flag, "", Util, "Load a binary file rather than compiling", No),
    f("-extractrootsignature", Flag, "", Util, "Extract root signature from shader bytecode (must be used with /Fo <file>)", DxilOnly),
    f("-getprivate", JoS, "<file>", Util, "Save private data from shader blob", DxilOnly),
    f("-link", Flag, "", Util, "Link list of libraries provided in <inputs> argument separated by ';'", No),
    f("-P", Flag, "", Util, "Preprocess to file", No),
    f("-Qembed_debug", Flag, "", Util, "Embed PDB in shader container (must be used with /Zi)", NO_DEBUG),
    f("-Qsource_in_debug_module", Flag, "", Util, "Embed source info in PDB", NO_DEBUG),
    f("-Qstrip_debug", Flag, "", Util, "Strip debug information from 4_0+ shader bytecode", Note("spvkit emits no debug information; nothing to strip")),
    f("-Qstrip_priv", Flag, "", Util, "Strip private data from shader bytecode", Note("SPIR-V has no private data part; nothing to strip")),
    f("-Qstrip_reflect", Flag, "", Util, "Strip reflection data from shader bytecode", DxilOnly),
    f("-Qstrip_rootsignature", Flag, "", Util, "Strip root signature data from shader bytecode", Note("SPIR-V has no root signature part; nothing to strip")),
    f("-setprivate", JoS, "<file>", Util, "Private data to add to compiled shader blob", DxilOnly),
    f("-setrootsignature", JoS, "<file>", Util, "Attach root signature to shader bytecode", DxilOnly),
    f("-verifyrootsignature", JoS, "<file>", Util, "Verify shader bytecode with root signature", DxilOnly),
    // Warning Options.
    f("-W", Joined, "[no-]<warning>", Warning, "Enable/Disable the specified warning", Note("warnings cannot be enabled or disabled one by one yet (-no-warnings and -WX work)")),
];

/// A flag found on the command line, with its values.
#[derive(Clone, Debug)]
pub struct Matched {
    /// The flag.
    pub flag: &'static DxcFlag,
    /// Its values (none for a [`Arity::Flag`]).
    pub values: Vec<String>,
}

impl Matched {
    /// The first value (empty for a flag without one).
    pub fn value(&self) -> &str {
        self.values.first().map_or("", String::as_str)
    }
}

/// Matches `args[*i]` against [`FLAGS`], consuming the values that follow for separate and
/// multi-value flags (`*i` ends on the flag's last argument). `None` when it names no flag.
/// An exact spelling wins; otherwise the longest flag name that prefixes it and takes an
/// attached value.
pub fn match_arg(args: &[String], i: &mut usize) -> Option<Result<Matched, String>> {
    let a = args[*i].as_str();
    let exact = FLAGS.iter().find(|fl| fl.name == a && fl.arity != Joined);
    let (flag, attached) = match exact {
        Some(fl) => (fl, None),
        None => {
            let fl = FLAGS
                .iter()
                .filter(|fl| matches!(fl.arity, Joined | JoS) && a.starts_with(fl.name))
                .max_by_key(|fl| fl.name.len())?;
            (fl, Some(a[fl.name.len()..].to_owned()))
        }
    };
    let count = match (flag.arity, &attached) {
        (_, Some(_)) | (Flag, _) => 0,
        (Joined, None) => 0,
        (JoS | Separate, None) => 1,
        (Multi(n), None) => usize::from(n),
    };
    let mut values: Vec<String> = attached.into_iter().collect();
    for _ in 0..count {
        *i += 1;
        match args.get(*i) {
            Some(v) => values.push(v.clone()),
            None => {
                return Some(Err(format!(
                    "error: {} needs {} value{}",
                    flag.name,
                    count,
                    if count == 1 { "" } else { "s" }
                )))
            }
        }
    }
    Some(Ok(Matched { flag, values }))
}

/// The full help: usage, then every flag under `dxc -help`'s group headings, each marked with
/// what spvkit does with it.
pub fn help_text(program: &str) -> String {
    let mut out = format!(
        "OVERVIEW: HLSL to Vulkan SPIR-V (spvkit {}), with DXC's flags\n\n\
         USAGE: {program} <input.hlsl | -> -T <profile> [-E <entry>] [-Fo <out.spv | ->] [options]\n\n\
         Without -Fo (or -Fc), the disassembly goes to standard output; the input `-` is standard\n\
         input. Flags are spelled with `-` (DXC's `/` spelling is not accepted).\n\
         Marks: [note] accepted, prints a note, does not change the SPIR-V;\n\
         [not supported yet] refused with an error; [DXIL only] refused, concerns DXIL containers.\n",
        env!("CARGO_PKG_VERSION")
    );
    for group in Group::ALL {
        out.push('\n');
        out.push_str(group.title());
        out.push_str(":\n");
        for fl in FLAGS.iter().filter(|fl| fl.group == group) {
            let spelled = match fl.arity {
                Flag => fl.name.to_owned(),
                Joined => format!("{}{}", fl.name, fl.meta),
                _ => format!("{} {}", fl.name, fl.meta),
            };
            let mark = match fl.support {
                Support::Implemented => "",
                Support::Note(_) => " [note]",
                Support::Refused => " [not supported yet]",
                Support::DxilOnly => " [DXIL only]",
            };
            let mut lines = wrap(&format!("{}{mark}", fl.help), 70).into_iter();
            if spelled.len() <= 26 {
                let first = lines.next().unwrap_or_default();
                out.push_str(&format!("  {spelled:<26} {first}\n"));
            } else {
                out.push_str(&format!("  {spelled}\n"));
            }
            for line in lines {
                out.push_str(&format!("  {:<26} {line}\n", ""));
            }
        }
    }
    out
}

/// Words of `text` in lines of at most `width` characters (a longer word gets its own line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matched(args: &[&str]) -> (String, Vec<String>, usize) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let mut i = 0;
        let m = match_arg(&args, &mut i)
            .expect("a flag")
            .expect("its values");
        (m.flag.name.to_owned(), m.values, i)
    }

    #[test]
    fn exact_spellings_win_over_prefixes() {
        assert_eq!(matched(&["-WX"]).0, "-WX");
        assert_eq!(
            matched(&["-Wno-vk-ignored-features"]).0,
            "-Wno-vk-ignored-features"
        );
        assert_eq!(
            matched(&["-Wconversion"]),
            ("-W".into(), vec!["conversion".into()], 0)
        );
        assert_eq!(matched(&["-Od"]).0, "-Od");
        assert_eq!(matched(&["-Odump"]).0, "-Odump");
        assert_eq!(
            matched(&["-HV2018"]),
            ("-HV".into(), vec!["2018".into()], 0)
        );
        assert_eq!(matched(&["-H"]).0, "-H");
    }

    #[test]
    fn values_attached_separate_and_multiple() {
        assert_eq!(matched(&["-Tcs_6_0"]).1, vec!["cs_6_0".to_owned()]);
        assert_eq!(
            matched(&["-T", "cs_6_0"]),
            ("-T".into(), vec!["cs_6_0".into()], 1)
        );
        assert_eq!(
            matched(&["-fvk-b-shift", "1", "0"]),
            ("-fvk-b-shift".into(), vec!["1".into(), "0".into()], 2)
        );
        assert_eq!(
            matched(&["-fspv-target-env=vulkan1.2"]).1,
            vec!["vulkan1.2".to_owned()]
        );
        let args = vec!["-Fo".to_owned()];
        assert!(match_arg(&args, &mut 0).unwrap().is_err());
        let args = vec!["-bogus".to_owned()];
        assert!(match_arg(&args, &mut 0).is_none());
    }

    #[test]
    fn names_are_unique_and_help_lists_every_group() {
        let mut names: Vec<_> = FLAGS.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
        let help = help_text("hlsl2spirv");
        for g in Group::ALL {
            assert!(help.contains(&format!("\n{}:\n", g.title())), "{help}");
        }
        assert!(help.contains("-fvk-use-scalar-layout") && help.contains("[not supported yet]"));
        let scalar = FLAGS.iter().find(|f| f.name == "-fvk-use-scalar-layout");
        assert_eq!(scalar.map(|f| f.support), Some(Support::Implemented));
    }
}
