//! What the module declares against what it uses and what the environment accepts:
//! - the header version is one the environment accepts, and the id bound is within the
//!   universal limit;
//! - every declared capability (and extension, for Level Zero) is accepted by the
//!   environment;
//! - every instruction and every enumerant operand (with their parameters) is enabled: one of
//!   its capabilities is declared (closed under implication), its version range holds the
//!   module's version, or one of its enabling extensions is declared.
//!
//! The requirements themselves come from the generated availability tables; what is
//! hand-written is how they combine, which follows `spirv-val`: for an instruction a
//! capability requirement makes the version irrelevant, for an operand the version or an
//! extension must hold even when a capability does; `BuiltIn PointSize`, `ClipDistance` and
//! `CullDistance` need nothing by being named; Vulkan's `FPRoundingMode` decoration is
//! enabled by the 16-bit storage capabilities.

use super::module::Inst;
use super::Cx;
use crate::grammar::{
    Availability, BuiltIn, Capability, Decoration, Extension, Instruction, Opcode, Requires,
    Version,
};
use crate::target_env::TargetEnv;

/// The largest id bound `spirv-val` accepts by default.
const MAX_ID_BOUND: u32 = 0x3F_FFFF;

/// Module-wide checks: version, bound, declared capabilities and extensions.
pub(super) fn module(cx: &mut Cx<'_>) {
    let m = cx.m;
    match Version::from_word(m.header.version) {
        Some(v) if v.0 == 1 && v.1 <= 6 => {
            if !cx.env.accepts_version(v) {
                cx.err_module(
                    if cx.env == TargetEnv::LevelZero {
                        "level-zero:spirv-version"
                    } else {
                        "env:version"
                    },
                    format!(
                        "SPIR-V {v} is newer than {} accepts (at most {})",
                        cx.env,
                        cx.env.max_version()
                    ),
                );
            }
        }
        _ => cx.err_module(
            "core:version",
            format!("0x{:08x} is not a SPIR-V version", m.header.version),
        ),
    }
    if m.header.bound > MAX_ID_BOUND {
        cx.err_module(
            "core:id-bound",
            format!(
                "the id bound {} is larger than the limit {MAX_ID_BOUND}",
                m.header.bound
            ),
        );
    }
    let has_cap = |c: Capability| m.capabilities.has(c);
    let has_ext = |e: Extension| m.has_extension(e.name());
    for &(i, cap) in &m.declared_capabilities {
        if !cx.env.accepts_capability(cap, &has_cap, &has_ext) {
            let inst = m.inst(i);
            cx.err(
                &inst,
                if cx.env == TargetEnv::LevelZero {
                    "level-zero:capability"
                } else {
                    "env:capability"
                },
                format!(
                    "capability {} is not accepted by {} (or needs an extension or another \
                     capability)",
                    cap.name(),
                    cx.env
                ),
            );
        }
    }
    for (i, name) in &m.extensions {
        if !cx.env.accepts_extension(name) {
            let inst = m.inst(*i);
            cx.err(
                &inst,
                if cx.env == TargetEnv::LevelZero {
                    "level-zero:extension"
                } else {
                    "env:extension"
                },
                format!("extension {name} is not accepted by {}", cx.env),
            );
        }
    }
}

/// Whether the module declares any of `exts`.
fn has_any_extension(cx: &Cx<'_>, exts: &[Extension]) -> bool {
    exts.iter().any(|e| cx.m.has_extension(e.name()))
}

fn names(caps: &[Capability]) -> String {
    caps.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
}

fn ext_names(exts: &[Extension]) -> String {
    exts.iter().map(|e| e.name()).collect::<Vec<_>>().join(", ")
}

/// Capabilities that enable Vulkan's `FPRoundingMode` decoration.
const VULKAN_ROUNDING: &[Capability] = &[
    Capability::StorageBuffer16BitAccess,
    Capability::UniformAndStorageBuffer16BitAccess,
    Capability::StoragePushConstant16,
    Capability::StorageInputOutput16,
];

/// Checks that an instruction and its operands are enabled.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let Some(op) = inst.op() else { return };
    let mut reqs: Vec<&'static Availability> = Vec::new();
    typed.visit_requirements(&mut |a| reqs.push(a));
    // Operands whose requirements are replaced or waived.
    let decoration = match typed {
        Instruction::Decorate(d) => Some(&d.decoration),
        Instruction::MemberDecorate(d) => Some(&d.decoration),
        _ => None,
    };
    let mut rounding = None;
    if let Some(d) = decoration {
        match d {
            Decoration::BuiltIn(
                BuiltIn::PointSize | BuiltIn::ClipDistance | BuiltIn::CullDistance,
            ) => {
                reqs.truncate(2);
            }
            Decoration::FPRoundingMode(_) if cx.env.is_vulkan() => rounding = Some(1),
            _ => {}
        }
    }
    let version = cx.m.version;
    // The Kernel capability and SPV_AMD_shader_ballot enable the reduce and scan group
    // operations (spirv-val's "group_ops_reduce_and_scans").
    let scans_free = cx.kernel || cx.m.has_extension("SPV_AMD_shader_ballot");
    for (k, a) in reqs.iter().enumerate() {
        if scans_free && is_reduce_or_scan(a) {
            continue;
        }
        if k == 0 {
            opcode_check(cx, inst, op, a, version);
            continue;
        }
        let caps = if rounding == Some(k) {
            VULKAN_ROUNDING
        } else {
            a.capabilities
        };
        if op != Opcode::Capability && !caps.is_empty() && !cx.m.capabilities.any(caps) {
            cx.err(
                inst,
                "core:capability-required",
                format!(
                    "an operand of {op} requires one of these capabilities: {}",
                    names(caps)
                ),
            );
            continue;
        }
        // The version must hold, or an enabling extension be declared.
        let satisfied = a
            .version
            .is_some_and(|v| v <= version && a.last_version.is_none_or(|l| version <= l));
        if satisfied {
            continue;
        }
        if let Some(last) = a.last_version.filter(|&l| l < version) {
            cx.err(
                inst,
                "core:version-required",
                format!("an operand of {op} requires SPIR-V {last} or earlier"),
            );
        } else if a.extensions.is_empty() {
            if let Some(v) = a.version {
                cx.err(
                    inst,
                    "core:version-required",
                    format!("an operand of {op} requires SPIR-V {v} or later"),
                );
            }
        } else if !has_any_extension(cx, a.extensions) {
            cx.err(
                inst,
                "core:extension-required",
                format!(
                    "an operand of {op} requires one of these extensions: {}",
                    ext_names(a.extensions)
                ),
            );
        }
    }
    if let Instruction::ExtInstImport(i) = typed {
        if crate::grammar::ext::ExtInstSet::from_import_name(&i.name).is_none()
            && !i.name.starts_with("NonSemantic.")
        {
            cx.err(
                inst,
                "core:ext-inst-import",
                format!(
                    "{:?} is not an extended instruction set this validator knows",
                    i.name
                ),
            );
        }
    }
}

/// Whether `a` is the availability of the `Reduce`, `InclusiveScan` or `ExclusiveScan`
/// group operations.
fn is_reduce_or_scan(a: &'static Availability) -> bool {
    use crate::grammar::GroupOperation as G;
    [G::Reduce, G::InclusiveScan, G::ExclusiveScan]
        .iter()
        .any(|g| std::ptr::eq(g.availability(), a))
}

/// The instruction's own requirements.
fn opcode_check(cx: &mut Cx<'_>, inst: &Inst<'_>, op: Opcode, a: &Availability, version: Version) {
    if !cx.m.capabilities.any(a.capabilities) {
        cx.err(
            inst,
            "core:capability-required",
            format!(
                "{op} requires one of these capabilities: {}",
                names(a.capabilities)
            ),
        );
        return;
    }
    if let Some(last) = a.last_version.filter(|&l| l < version) {
        cx.err(
            inst,
            "core:version-required",
            format!("{op} requires SPIR-V {last} or earlier"),
        );
        return;
    }
    if !a.capabilities.is_empty() && op != Opcode::TerminateInvocation {
        return;
    }
    if a.extensions.is_empty() {
        match a.version {
            None => cx.err(
                inst,
                "core:version-required",
                format!("{op} is reserved for future use"),
            ),
            Some(v) if version < v => cx.err(
                inst,
                "core:version-required",
                format!("{op} requires SPIR-V {v} or later"),
            ),
            _ => {}
        }
    } else if !has_any_extension(cx, a.extensions) {
        match a.version {
            None => cx.err(
                inst,
                "core:extension-required",
                format!(
                    "{op} requires one of these extensions: {}",
                    ext_names(a.extensions)
                ),
            ),
            Some(v) if version < v => cx.err(
                inst,
                "core:version-required",
                format!(
                    "{op} requires SPIR-V {v} or later or one of these extensions: {}",
                    ext_names(a.extensions)
                ),
            ),
            _ => {}
        }
    }
}
