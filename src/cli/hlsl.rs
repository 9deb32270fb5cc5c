//! `hlsl2spirv` and `spvkit hlsl`: DXC's command-line flags (`-T`, `-E`, `-D`, `-I`, `-Fo`,
//! `-HV`, `-fspv-target-env=`, `-spirv`), parsed by hand since they are single-dash long flags
//! with attached or separate values; the compilation is one library call.

use crate::hlsl::{compile_file, LanguageVersion, Options, Profile};
use std::path::PathBuf;
use std::process::ExitCode;

/// The usage text.
pub const USAGE: &str = "usage: hlsl2spirv <input.hlsl> -T <profile> [-E <entry>] [-Fo <out.spv>] \
[-D NAME[=VALUE]]... [-I <dir>]... [-HV 2018|2021] [-fspv-target-env=vulkan1.0|vulkan1.1|vulkan1.2|vulkan1.3] [-spirv]";

/// Parsed command-line arguments.
#[derive(Debug)]
pub struct Args {
    /// The input file.
    pub input: PathBuf,
    /// The compilation options.
    pub options: Options,
    /// `-Fo`: where the binary goes (without it, the disassembly goes to standard output).
    pub output: Option<PathBuf>,
}

/// Parses DXC-style arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut input = None;
    let mut profile = None;
    let mut entry = "main".to_owned();
    let mut output = None;
    let mut defines = Vec::new();
    let mut include_dirs = Vec::new();
    let mut version = LanguageVersion::default();
    let mut target_env = crate::target_env::TargetEnv::Vulkan1_0;
    let mut i = 0;
    // The value of a flag written `-Xvalue` or `-X value`.
    let value = |i: &mut usize, flag: &str, arg: &str| -> Result<String, String> {
        if arg.len() > flag.len() {
            let rest = &arg[flag.len()..];
            return Ok(rest.strip_prefix('=').unwrap_or(rest).to_owned());
        }
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| format!("error: {flag} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        if a == "-spirv" {
        } else if let Some(env) = a.strip_prefix("-fspv-target-env=") {
            target_env = match env {
                "vulkan1.0" => crate::target_env::TargetEnv::Vulkan1_0,
                "vulkan1.1" => crate::target_env::TargetEnv::Vulkan1_1,
                "vulkan1.2" => crate::target_env::TargetEnv::Vulkan1_2,
                "vulkan1.3" => crate::target_env::TargetEnv::Vulkan1_3,
                _ => {
                    return Err(format!(
                        "error: unknown target environment '{env}' (vulkan1.0 to vulkan1.3)"
                    ))
                }
            };
        } else if a.starts_with("-HV") {
            version = match value(&mut i, "-HV", a)?.as_str() {
                "2018" => LanguageVersion::V2018,
                "2021" => LanguageVersion::V2021,
                v => return Err(format!("error: unknown HLSL version '{v}' (2018 or 2021)")),
            };
        } else if a.starts_with("-Fo") {
            output = Some(PathBuf::from(value(&mut i, "-Fo", a)?));
        } else if a.starts_with("-T") {
            profile = Some(value(&mut i, "-T", a)?);
        } else if a.starts_with("-E") {
            entry = value(&mut i, "-E", a)?;
        } else if a.starts_with("-D") {
            let d = value(&mut i, "-D", a)?;
            let (k, v) = d.split_once('=').unwrap_or((&d, "1"));
            if k.is_empty() {
                return Err("error: -D needs a macro name".into());
            }
            defines.push((k.to_owned(), v.to_owned()));
        } else if a.starts_with("-I") {
            include_dirs.push(PathBuf::from(value(&mut i, "-I", a)?));
        } else if a.starts_with('-') && a != "-" {
            return Err(format!("error: unknown option '{a}'\n{USAGE}"));
        } else if input.is_some() {
            return Err(format!("error: more than one input file ('{a}')"));
        } else {
            input = Some(PathBuf::from(a));
        }
        i += 1;
    }
    let input = input.ok_or_else(|| format!("error: no input file\n{USAGE}"))?;
    let profile = profile
        .ok_or_else(|| format!("error: no target profile (-T cs_6_0, vs_6_0, ps_6_0)\n{USAGE}"))?;
    // An unsupported stage is reported at the top of the file, like other diagnostics.
    let profile = profile
        .parse::<Profile>()
        .map_err(|e| format!("{}:1:1: error: {e}", input.display()))?;
    let mut options = Options::new(&entry, profile);
    options.defines = defines;
    options.include_dirs = include_dirs;
    options.version = version;
    options.target_env = target_env;
    Ok(Args {
        input,
        options,
        output,
    })
}

/// Compiles as the arguments say: the binary to `-Fo`, or the disassembly to standard output;
/// warnings and errors to standard error.
pub fn run(args: &[String]) -> Result<(), String> {
    if args
        .iter()
        .any(|a| a == "-h" || a == "--help" || a == "-help")
    {
        println!("{USAGE}");
        return Ok(());
    }
    let a = parse_args(args)?;
    let compiled =
        compile_file(&a.input, &a.options).map_err(|e| e.rendered.trim_end().to_owned())?;
    if !compiled.warnings.is_empty() {
        eprint!("{}", compiled.warnings);
    }
    match &a.output {
        Some(path) => {
            let bytes: Vec<u8> = compiled
                .words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            std::fs::write(path, bytes)
                .map_err(|e| format!("{}: error: cannot write: {e}", path.display()))
        }
        None => {
            let text = crate::text::disassemble_to_string(
                &compiled.words,
                &crate::text::DisassembleOptions::default(),
            )
            .map_err(|e| format!("error: {e}"))?;
            print!("{text}");
            Ok(())
        }
    }
}

/// The `hlsl2spirv` program.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
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

    #[test]
    fn dxc_flags_parse_attached_and_separate() {
        let a = parse_args(&args("in.hlsl -T cs_6_0 -E go -Fo out.spv -DX=2 -D Y -I inc -HV 2018 -fspv-target-env=vulkan1.2 -spirv")).unwrap();
        assert_eq!(a.options.entry, "go");
        assert_eq!(a.output, Some(PathBuf::from("out.spv")));
        assert_eq!(
            a.options.defines,
            vec![("X".into(), "2".into()), ("Y".into(), "1".into())]
        );
        assert_eq!(a.options.version, LanguageVersion::V2018);
        assert_eq!(
            a.options.target_env,
            crate::target_env::TargetEnv::Vulkan1_2
        );
        assert!(parse_args(&args("in.hlsl")).is_err());
        assert!(parse_args(&args("in.hlsl -T cs_6_0 -bogus")).is_err());
    }
}
