//! The normalized grammar: one model whichever schema the JSON used.
//!
//! Old grammars list an alias as a second entry sharing the opcode or value; new ones use
//! `aliases`. Old grammars quote operand names (`'Member 0 type', +\n...`); new ones do not.
//! Versions may be `"None"` (reachable only through extensions). Bit values may be hex strings.
//! All of that is resolved here, once, so the emitters see a single clean shape.

use crate::raw;
use std::collections::BTreeSet;

/// A SPIR-V version `major.minor`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Version(pub u8, pub u8);

/// When an instruction or enumerant is available.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct Availability {
    /// First core version; `None` when only extensions enable it (`"version": "None"`).
    pub version: Option<Version>,
    /// Last core version that has it.
    pub last_version: Option<Version>,
    /// Any one of these capabilities enables it.
    pub capabilities: Vec<String>,
    /// Any one of these extensions enables it.
    pub extensions: Vec<String>,
    /// Part of a provisional extension.
    pub provisional: bool,
}

/// How many times an operand occurs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// `?`: zero or once, only at the end.
    Optional,
    /// `*`: zero or more, only at the end.
    Many,
}

/// An operand of an instruction or a parameter of an enumerant.
#[derive(Clone, Debug)]
pub struct Operand {
    /// The operand kind's grammar name (`IdRef`, `ImageOperands`...).
    pub kind: String,
    /// The cleaned grammar name (`Member 0 type` rather than `'Member 0 type', +...`).
    pub name: String,
    /// The Rust field name derived from it, unique within its instruction.
    pub field: String,
    /// How many times it occurs.
    pub quantifier: Quantifier,
}

/// An instruction of the core grammar or of an extended instruction set.
#[derive(Clone, Debug)]
pub struct Instruction {
    /// Canonical name (`OpSDot`, `Sin`).
    pub opname: String,
    /// Other spellings that assemble to it.
    pub aliases: Vec<String>,
    /// The opcode, or the instruction number within an extended set.
    pub opcode: u32,
    /// The grammar's class (`Arithmetic`...), empty for extended sets.
    pub class: String,
    /// Operands in order.
    pub operands: Vec<Operand>,
    /// Availability.
    pub availability: Availability,
}

/// The category of an operand kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Category {
    /// An `<id>`.
    Id,
    /// A literal.
    Literal,
    /// Exactly one enumerant.
    ValueEnum,
    /// Any set of bits.
    BitEnum,
    /// A fixed sequence of other kinds.
    Composite,
}

/// One named value of an enum kind.
#[derive(Clone, Debug)]
pub struct Enumerant {
    /// Canonical name, in the grammar's spelling.
    pub name: String,
    /// Other spellings.
    pub aliases: Vec<String>,
    /// The value (the bit, for bit enums).
    pub value: u32,
    /// Parameters that follow the enum operand when this enumerant is chosen.
    pub parameters: Vec<Operand>,
    /// Availability.
    pub availability: Availability,
}

/// An operand kind.
#[derive(Clone, Debug)]
pub struct OperandKind {
    /// The grammar's name.
    pub name: String,
    /// Its category.
    pub category: Category,
    /// Enumerants (enum kinds), sorted by value, aliases merged.
    pub enumerants: Vec<Enumerant>,
    /// Component kinds (composite kinds).
    pub bases: Vec<String>,
}

/// An extended instruction set.
#[derive(Clone, Debug)]
pub struct ExtInstSet {
    /// The name used by `OpExtInstImport` (`GLSL.std.450`).
    pub import_name: String,
    /// The file stem (`glsl.std.450`), used for Rust names.
    pub file_stem: String,
    /// The grammar's version and revision.
    pub version: Option<u32>,
    /// The grammar's revision.
    pub revision: Option<u32>,
    /// Instructions, sorted by number.
    pub instructions: Vec<Instruction>,
    /// Operand kinds the set defines for itself.
    pub operand_kinds: Vec<OperandKind>,
}

/// A generator id registered in `spir-v.xml`.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The id (upper 16 bits of the generator word).
    pub id: u32,
    /// The registering vendor.
    pub vendor: String,
    /// The tool's name, when registered.
    pub tool: Option<String>,
}

/// A core instruction or enumerant name whose value no capability or extension enables (under
/// any of its names), so that only some core versions have it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreOnlyName {
    /// The operand kind, or `None` for an instruction name.
    pub kind: Option<String>,
    /// The name as spelled in the grammar.
    pub name: String,
    /// First version with it (`None`: no version).
    pub version: Option<Version>,
    /// Last version with it.
    pub last_version: Option<Version>,
}

/// The whole grammar directory.
#[derive(Clone, Debug)]
pub struct Grammar {
    /// `major.minor` of the core grammar.
    pub version: Version,
    /// The core grammar's revision.
    pub revision: u32,
    /// The magic number.
    pub magic: u32,
    /// Core instructions, sorted by opcode.
    pub instructions: Vec<Instruction>,
    /// Core operand kinds in grammar order.
    pub operand_kinds: Vec<OperandKind>,
    /// Extended instruction sets, sorted by import name.
    pub ext_sets: Vec<ExtInstSet>,
    /// Every extension named anywhere, sorted.
    pub extensions: Vec<String>,
    /// Registered generator tools, when `spir-v.xml` is present.
    pub tools: Vec<Tool>,
    /// Core names that only some versions have and nothing else enables.
    pub core_only_names: Vec<CoreOnlyName>,
    /// The lowering table (`lowering.json`), checked against this grammar, when present.
    pub lowering: Option<crate::lowering::CheckedTable>,
    /// The opcode groups (`opcode_groups.json`), checked against this grammar, when present.
    pub groups: Option<Vec<crate::groups::Group>>,
}

/// Parses a grammar version string; `"None"` means "not in any core version".
fn parse_version(v: &Option<String>, what: &str) -> Result<Option<Version>, String> {
    match v.as_deref() {
        None | Some("None") => Ok(None),
        Some(s) => {
            let (a, b) = s
                .split_once('.')
                .ok_or_else(|| format!("{what}: bad version {s:?}"))?;
            let a = a
                .parse()
                .map_err(|_| format!("{what}: bad version {s:?}"))?;
            let b = b
                .parse()
                .map_err(|_| format!("{what}: bad version {s:?}"))?;
            Ok(Some(Version(a, b)))
        }
    }
}

fn availability(
    version: &Option<String>,
    last: &Option<String>,
    caps: &[String],
    exts: &[String],
    provisional: bool,
    what: &str,
    default_version: Option<Version>,
) -> Result<Availability, String> {
    let version = match version {
        None => default_version,
        v => parse_version(v, what)?,
    };
    Ok(Availability {
        version,
        last_version: parse_version(last, what)?,
        capabilities: caps.to_vec(),
        extensions: exts.to_vec(),
        provisional,
    })
}

/// Cleans an operand name: `'Member 0 type', +\n'member 1 type', +\n...` → `Member 0 type, ...`.
pub fn clean_name(name: &str) -> String {
    let s: String = name.replace(['\'', '\n'], " ").replace('+', " ");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Rust keywords (2021 and 2024 editions) that cannot be field names.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// `Memory Semantics` → `memory_semantics`; `IdResultType` → `id_result_type`.
pub fn snake_case(s: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() {
                let prev = if i > 0 { chars[i - 1] } else { ' ' };
                let next = chars.get(i + 1).copied().unwrap_or(' ');
                let boundary = prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase() && next.is_ascii_lowercase());
                if boundary && !out.is_empty() && !out.ends_with('_') {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("operand");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// The Rust field name of an operand, before de-duplication.
fn field_name(kind: &str, name: &str, quantifier: Quantifier) -> String {
    let base = match (kind, name) {
        ("IdResultType", "") => return "result_type".into(),
        ("IdResult", "") => return "result_id".into(),
        (k, "") => snake_case(k.strip_prefix("Id").unwrap_or(k)),
        (_, n) => {
            // A list name like "Member 0 type, member 1 type, ..." names its first element.
            match n.split_once(',') {
                Some((first, _)) => {
                    let words: Vec<&str> = first
                        .split_whitespace()
                        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
                        .collect();
                    snake_case(&words.join(" "))
                }
                None => snake_case(n),
            }
        }
    };
    if quantifier == Quantifier::Many && !base.ends_with('s') {
        let base = base.trim_end_matches('_');
        format!("{base}s")
    } else {
        base
    }
}

fn operands(ops: &[raw::Operand], what: &str) -> Result<Vec<Operand>, String> {
    let mut out: Vec<Operand> = Vec::with_capacity(ops.len());
    for op in ops {
        let quantifier = match op.quantifier.as_deref() {
            None => Quantifier::One,
            Some("?") => Quantifier::Optional,
            Some("*") => Quantifier::Many,
            Some(q) => return Err(format!("{what}: unknown quantifier {q:?}")),
        };
        let name = clean_name(op.name.as_deref().unwrap_or(""));
        let mut field = field_name(&op.kind, &name, quantifier);
        let stem = field.clone();
        let mut n = 2;
        while out.iter().any(|o| o.field == field) {
            field = format!("{}_{n}", stem.trim_end_matches('_'));
            n += 1;
        }
        out.push(Operand {
            kind: op.kind.clone(),
            name,
            field,
            quantifier,
        });
    }
    Ok(out)
}

/// Merges instructions that share an opcode (old schema) into one with aliases.
fn instructions(
    raw: &[raw::Instruction],
    default_version: Option<Version>,
) -> Result<Vec<Instruction>, String> {
    let mut out: Vec<Instruction> = Vec::new();
    for i in raw {
        let mut caps = i.capabilities.clone();
        caps.extend(i.capability.iter().cloned());
        let availability = availability(
            &i.version,
            &i.last_version,
            &caps,
            &i.extensions,
            i.provisional,
            &i.opname,
            default_version,
        )?;
        if let Some(prev) = out.iter_mut().find(|p| p.opcode == i.opcode) {
            prev.aliases.push(i.opname.clone());
            prev.aliases.extend(i.aliases.iter().cloned());
            merge_availability(&mut prev.availability, &availability);
            continue;
        }
        out.push(Instruction {
            opname: i.opname.clone(),
            aliases: i.aliases.clone(),
            opcode: i.opcode,
            class: i.class.clone().unwrap_or_default(),
            operands: operands(&i.operands, &i.opname)?,
            availability,
        });
    }
    out.sort_by_key(|i| i.opcode);
    Ok(out)
}

/// An alias entry of the old schema may be enabled by more extensions or capabilities.
fn merge_availability(into: &mut Availability, other: &Availability) {
    for c in &other.capabilities {
        if !into.capabilities.contains(c) {
            into.capabilities.push(c.clone());
        }
    }
    for e in &other.extensions {
        if !into.extensions.contains(e) {
            into.extensions.push(e.clone());
        }
    }
    into.version = into
        .version
        .min(other.version)
        .or(into.version)
        .or(other.version);
}

fn enum_value(v: &serde_json::Value, what: &str) -> Result<u32, String> {
    match v {
        serde_json::Value::Number(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| format!("{what}: value {n} is not a 32-bit word")),
        serde_json::Value::String(s) => {
            let t = s.trim();
            let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(hex) => u32::from_str_radix(hex, 16),
                None => t.parse(),
            };
            r.map_err(|_| format!("{what}: bad value {s:?}"))
        }
        other => Err(format!("{what}: bad value {other}")),
    }
}

fn operand_kinds(
    raw: &[raw::OperandKind],
    default_version: Option<Version>,
) -> Result<Vec<OperandKind>, String> {
    let mut out = Vec::new();
    for k in raw {
        let category = match k.category.as_str() {
            "Id" => Category::Id,
            "Literal" => Category::Literal,
            "ValueEnum" => Category::ValueEnum,
            "BitEnum" => Category::BitEnum,
            "Composite" => Category::Composite,
            c => return Err(format!("{}: unknown category {c:?}", k.kind)),
        };
        let mut enumerants: Vec<Enumerant> = Vec::new();
        for e in &k.enumerants {
            let what = format!("{}::{}", k.kind, e.enumerant);
            let value = enum_value(&e.value, &what)?;
            let availability = availability(
                &e.version,
                &e.last_version,
                &e.capabilities,
                &e.extensions,
                e.provisional,
                &what,
                default_version,
            )?;
            if let Some(prev) = enumerants.iter_mut().find(|p| p.value == value) {
                prev.aliases.push(e.enumerant.clone());
                prev.aliases.extend(e.aliases.iter().cloned());
                merge_availability(&mut prev.availability, &availability);
                continue;
            }
            enumerants.push(Enumerant {
                name: e.enumerant.clone(),
                aliases: e.aliases.clone(),
                value,
                parameters: operands(&e.parameters, &what)?,
                availability,
            });
        }
        enumerants.sort_by_key(|e| e.value);
        out.push(OperandKind {
            name: k.kind.clone(),
            category,
            enumerants,
            bases: k.bases.clone(),
        });
    }
    Ok(out)
}

/// The import name of an extended set from its file stem (`glsl.std.450` → `GLSL.std.450`).
fn import_name(stem: &str) -> String {
    match stem {
        "glsl.std.450" => "GLSL.std.450".into(),
        "opencl.std.100" => "OpenCL.std".into(),
        "opencl.debuginfo.100" => "OpenCL.DebugInfo.100".into(),
        "debuginfo" => "DebugInfo".into(),
        "nonsemantic.shader.debuginfo.100" => "NonSemantic.Shader.DebugInfo.100".into(),
        "nonsemantic.shader.debuginfo" => "NonSemantic.Shader.DebugInfo".into(),
        "nonsemantic.clspvreflection" => "NonSemantic.ClspvReflection.6".into(),
        "nonsemantic.debugprintf" => "NonSemantic.DebugPrintf".into(),
        "nonsemantic.debugbreak" => "NonSemantic.DebugBreak".into(),
        "nonsemantic.vkspreflection" => "NonSemantic.VkspReflection.4".into(),
        "nonsemantic.graph.debuginfo" => "NonSemantic.Graph.DebugInfo".into(),
        "spv-amd-gcn-shader" => "SPV_AMD_gcn_shader".into(),
        "spv-amd-shader-ballot" => "SPV_AMD_shader_ballot".into(),
        "spv-amd-shader-explicit-vertex-parameter" => {
            "SPV_AMD_shader_explicit_vertex_parameter".into()
        }
        "spv-amd-shader-trinary-minmax" => "SPV_AMD_shader_trinary_minmax".into(),
        "tosa.001000.1" => "TOSA.001000.1".into(),
        "arm.motion-engine.100" => "Arm.MotionEngine.100".into(),
        "arm.experimental-ml-operations" => "Arm.ExperimentalMLOperations".into(),
        other => other.into(),
    }
}

/// Every core name (instruction or enumerant, aliases included) of a value that no capability
/// or extension enables, under any of its names, and that some core version from 1.0 on lacks.
fn core_only_names(instructions: &[Instruction], kinds: &[OperandKind]) -> Vec<CoreOnlyName> {
    let mut out = Vec::new();
    let mut add = |kind: Option<&str>, name: &String, aliases: &[String], a: &Availability| {
        if !a.capabilities.is_empty()
            || !a.extensions.is_empty()
            || (a.version == Some(Version(1, 0)) && a.last_version.is_none())
        {
            return;
        }
        for n in std::iter::once(name).chain(aliases) {
            out.push(CoreOnlyName {
                kind: kind.map(str::to_owned),
                name: n.clone(),
                version: a.version,
                last_version: a.last_version,
            });
        }
    };
    for i in instructions {
        add(None, &i.opname, &i.aliases, &i.availability);
    }
    for k in kinds {
        for e in &k.enumerants {
            add(Some(&k.name), &e.name, &e.aliases, &e.availability);
        }
    }
    out
}

impl Grammar {
    /// Normalizes a core grammar and its extended sets (`(file stem, file)` pairs).
    pub fn normalize(
        core: &raw::GrammarFile,
        ext: &[(String, raw::GrammarFile)],
        tools: Vec<Tool>,
    ) -> Result<Grammar, String> {
        let version = Version(
            core.major_version
                .ok_or("core grammar has no major_version")? as u8,
            core.minor_version
                .ok_or("core grammar has no minor_version")? as u8,
        );
        let magic = enum_value(
            &serde_json::Value::String(core.magic_number.clone().unwrap_or_default()),
            "magic_number",
        )?;
        let core_instructions = instructions(&core.instructions, Some(Version(1, 0)))?;
        let core_kinds = operand_kinds(&core.operand_kinds, Some(Version(1, 0)))?;
        let mut ext_sets = Vec::new();
        for (stem, f) in ext {
            ext_sets.push(ExtInstSet {
                import_name: import_name(stem),
                file_stem: stem.clone(),
                version: f.version,
                revision: f.revision,
                instructions: instructions(&f.instructions, Some(Version(1, 0)))?,
                operand_kinds: operand_kinds(&f.operand_kinds, Some(Version(1, 0)))?,
            });
        }
        ext_sets.sort_by(|a, b| a.import_name.cmp(&b.import_name));
        let mut extensions = BTreeSet::new();
        let mut note = |a: &Availability| extensions.extend(a.extensions.iter().cloned());
        for i in core_instructions
            .iter()
            .chain(ext_sets.iter().flat_map(|s| &s.instructions))
        {
            note(&i.availability);
        }
        for k in core_kinds
            .iter()
            .chain(ext_sets.iter().flat_map(|s| &s.operand_kinds))
        {
            for e in &k.enumerants {
                note(&e.availability);
            }
        }
        let core_only_names = core_only_names(&core_instructions, &core_kinds);
        Ok(Grammar {
            version,
            revision: core.revision.unwrap_or(0),
            magic,
            instructions: core_instructions,
            operand_kinds: core_kinds,
            ext_sets,
            extensions: extensions.into_iter().collect(),
            tools,
            core_only_names,
            lowering: None,
            groups: None,
        })
    }

    /// Looks up a core operand kind by name.
    pub fn kind(&self, name: &str) -> Option<&OperandKind> {
        self.operand_kinds.iter().find(|k| k.name == name)
    }
}
