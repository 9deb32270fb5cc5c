//! What a module needs: the minimal SPIR-V version, capabilities and extensions, and the
//! maximum version its instructions allow, from every instruction, type, enum operand and
//! parameter (generated availability), plus the few cases the grammar cannot express
//! (`special`).
//!
//! Where the grammar offers a choice (a version *or* an extension; any one of several
//! capabilities), the choice the module already made is kept: an extension it declares is
//! preferred to raising the version past the one it declares, and a capability it declares
//! (or one implied by those) is preferred to another. A declared extension that an item lists
//! is kept even where the version alone would do, since environments may ask for it.

mod interfaces;
mod special;

pub use interfaces::complete_interfaces;

use crate::binary::{DecodeError, Decoder, Header};
use crate::grammar::{
    Availability, BuiltIn, Capability, Extension, Instruction, Opcode, Requires, Version,
};
use std::collections::BTreeSet;

/// What a module declares: its header version, `OpCapability`s and `OpExtension`s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The header's version.
    pub version: Option<Version>,
    /// Declared capabilities.
    pub capabilities: BTreeSet<Capability>,
    /// Declared extensions (known to the grammar).
    pub extensions: BTreeSet<Extension>,
}

/// What a module needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirements {
    /// The smallest SPIR-V version that has everything used (given the extensions chosen).
    pub min_version: Version,
    /// The largest version every instruction and enumerant used still exists in.
    pub max_version: Option<Version>,
    /// The capabilities needed, none implied by another.
    pub capabilities: BTreeSet<Capability>,
    /// The extensions needed.
    pub extensions: BTreeSet<Extension>,
}

/// Every capability `c` implies (declaring `Shader` implicitly declares `Matrix`), `c` included.
pub fn implied_by(c: Capability) -> BTreeSet<Capability> {
    let mut out = BTreeSet::new();
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        if out.insert(c) {
            stack.extend(c.availability().capabilities.iter().copied());
        }
    }
    out
}

/// The closure of a set of capabilities under implication.
pub fn closure(caps: &BTreeSet<Capability>) -> BTreeSet<Capability> {
    caps.iter().flat_map(|&c| implied_by(c)).collect()
}

/// Accumulates requirements, one availability record at a time.
struct Collector<'d> {
    declared: &'d Declared,
    declared_closure: BTreeSet<Capability>,
    min_version: Version,
    max_version: Option<Version>,
    capabilities: BTreeSet<Capability>,
    extensions: BTreeSet<Extension>,
}

impl<'d> Collector<'d> {
    fn new(declared: &'d Declared) -> Self {
        Collector {
            declared,
            declared_closure: closure(&declared.capabilities),
            min_version: Version(1, 0),
            max_version: None,
            capabilities: BTreeSet::new(),
            extensions: BTreeSet::new(),
        }
    }

    fn need(&mut self, a: &Availability) {
        if let [first, ..] = a.capabilities {
            let chosen = a
                .capabilities
                .iter()
                .find(|c| self.capabilities.contains(c) || self.declared_closure.contains(c))
                .unwrap_or(first);
            self.capabilities.insert(*chosen);
        }
        let declared_ext = a
            .extensions
            .iter()
            .find(|e| self.declared.extensions.contains(e));
        match (a.version, declared_ext) {
            (Some(v), declared_ext) if self.declared.version.is_none_or(|d| v <= d) => {
                self.min_version = self.min_version.max(v);
                // Environments may still ask for the extension (Vulkan accepts `Groups` only
                // with SPV_AMD_shader_ballot), so one the module declares is kept.
                if let Some(e) = declared_ext {
                    self.extensions.insert(*e);
                }
            }
            (_, Some(e)) => {
                self.extensions.insert(*e);
            }
            (Some(v), None) => {
                // A newer core op may also come from an extension the module declares through
                // its capability (OpDemoteToHelperInvocation: 1.6, or
                // SPV_EXT_demote_to_helper_invocation via DemoteToHelperInvocation).
                let via_capability = a.capabilities.iter().find_map(|c| {
                    c.availability()
                        .extensions
                        .iter()
                        .find(|e| self.declared.extensions.contains(e))
                });
                match via_capability {
                    Some(e) => {
                        self.extensions.insert(*e);
                    }
                    None => self.min_version = self.min_version.max(v),
                }
            }
            (None, None) => {
                if let Some(e) = a.extensions.first() {
                    self.extensions.insert(*e);
                }
            }
        }
        if let Some(last) = a.last_version {
            self.max_version = Some(self.max_version.map_or(last, |m| m.min(last)));
        }
    }

    /// Adds what the chosen capabilities themselves need, until nothing changes.
    fn settle(mut self) -> Requirements {
        let mut seen = BTreeSet::new();
        loop {
            let fresh: Vec<Capability> = self.capabilities.difference(&seen).copied().collect();
            if fresh.is_empty() {
                break;
            }
            for c in fresh {
                seen.insert(c);
                let a = c.availability();
                // The capabilities a capability lists are ones it implies, not needs.
                let own = Availability {
                    capabilities: &[],
                    ..*a
                };
                self.need(&own);
            }
        }
        // Extensions spirv-val accepts only from a version on.
        for &e in &self.extensions {
            if let Some(v) = special::extension_version(e) {
                self.min_version = self.min_version.max(v);
            }
        }
        let all = self.capabilities.clone();
        let mut minimal: BTreeSet<Capability> = all
            .iter()
            .copied()
            .filter(|&c| !all.iter().any(|&o| o != c && implied_by(o).contains(&c)))
            .collect();
        // Environments check these literally (spirv-val allows LiteralSampler, Sampled1D... in
        // OpenCL only when ImageBasic itself is declared), so they stay even when implied.
        let implied = closure(&minimal);
        // And OpenCL environments accept these image capabilities only next to ImageBasic.
        let image_extras = [
            Capability::LiteralSampler,
            Capability::Sampled1D,
            Capability::Image1D,
            Capability::SampledBuffer,
            Capability::ImageBuffer,
        ];
        if implied.contains(&Capability::Kernel) && image_extras.iter().any(|c| minimal.contains(c))
        {
            minimal.insert(Capability::ImageBasic);
        }
        for base in [
            Capability::Shader,
            Capability::Kernel,
            Capability::ImageBasic,
        ] {
            if implied.contains(&base) {
                minimal.insert(base);
            }
        }
        Requirements {
            min_version: self.min_version,
            max_version: self.max_version,
            capabilities: minimal,
            extensions: self.extensions,
        }
    }
}

/// Reads the declared version, capabilities and extensions of a decoded module.
pub fn declared(header: &Header, insts: &[Instruction]) -> Declared {
    let mut d = Declared {
        version: Version::from_word(header.version),
        ..Declared::default()
    };
    for i in insts {
        d.observe(i);
    }
    d
}

impl Declared {
    /// Records `i` if it declares a capability or an extension.
    fn observe(&mut self, i: &Instruction) {
        match i {
            Instruction::Capability(c) => {
                self.capabilities.insert(c.capability);
            }
            Instruction::Extension(e) => {
                if let Ok(e) = e.name.parse() {
                    self.extensions.insert(e);
                }
            }
            _ => {}
        }
    }
}

/// What the module in `words` needs.
pub fn module_requirements(words: &[u32]) -> Result<Requirements, DecodeError> {
    // Two passes, each decoding one instruction at a time: the declarations and the facts
    // need the whole module first, and holding every decoded instruction instead would take
    // about ten times the module's size (the peak memory of `from-llvm` on large modules).
    let mut decoder = Decoder::new(words)?;
    let mut declared = declared(decoder.header(), &[]);
    let mut facts = special::Facts::for_module(decoder.header().bound, words.len());
    while let Some(raw) = decoder.next_raw() {
        let inst = decoder.decode(raw?)?;
        declared.observe(&inst);
        facts.observe(&inst);
    }
    let mut c = Collector::new(&declared);
    let mut has_entry_point = false;
    let mut decoder = Decoder::new(words)?;
    while let Some(raw) = decoder.next_raw() {
        let raw = raw?;
        let inst = &decoder.decode(raw)?;
        has_entry_point |= matches!(inst, Instruction::EntryPoint(_));
        if matches!(inst, Instruction::Capability(_) | Instruction::Extension(_)) {
            continue;
        }
        match inst {
            // gl_PerVertex's built-in members need their capability only where used (see
            // `special`).
            Instruction::MemberDecorate(d)
                if matches!(
                    d.decoration,
                    crate::grammar::Decoration::BuiltIn(
                        BuiltIn::ClipDistance
                            | BuiltIn::CullDistance
                            | BuiltIn::PointSize
                            | BuiltIn::Position
                    )
                ) =>
            {
                c.need(Opcode::MemberDecorate.availability());
                c.need(d.decoration.availability());
            }
            Instruction::Decorate(crate::grammar::OpDecorate {
                decoration: crate::grammar::Decoration::BuiltIn(b),
                ..
            })
            | Instruction::MemberDecorate(crate::grammar::OpMemberDecorate {
                decoration: crate::grammar::Decoration::BuiltIn(b),
                ..
            }) if facts.layer_outside_geometry(*b).is_some() => {
                if let Some(op) = inst.opcode() {
                    c.need(op.availability());
                }
                if let Some(a) = facts.layer_outside_geometry(*b) {
                    c.need(a);
                }
            }
            // spirv-val asks no capability for the GroupOperation of the `Groups` ops
            // (SPV_AMD_shader_ballot allows Reduce and the scans, which list Kernel, there).
            _ if inst
                .opcode()
                .is_some_and(|op| op.availability().capabilities == [Capability::Groups]) =>
            {
                if let Some(op) = inst.opcode() {
                    c.need(op.availability());
                }
            }
            _ => {
                // As spirv-val: an instruction enabled by a capability needs no extension of
                // its own; the capability's own availability brings the extension where the
                // version does not (OpIsHelperInvocationEXT in 1.6 needs no
                // SPV_EXT_demote_to_helper_invocation).
                let op = inst.opcode().map(|o| o.availability());
                inst.visit_requirements(&mut |a| match op {
                    Some(op) if std::ptr::eq(a, op) && !a.capabilities.is_empty() => {
                        c.need(&Availability {
                            extensions: &[],
                            ..*a
                        })
                    }
                    _ => c.need(a),
                })
            }
        }
        if let Some(Ok(ext)) = decoder.decode_ext(raw) {
            ext.visit_requirements(&mut |a| c.need(a));
        }
        facts.visit(inst, &mut |a| c.need(a));
    }
    // A module without entry points is a library: it needs Linkage.
    if !has_entry_point {
        c.need(&special::LINKAGE);
    }
    Ok(c.settle())
}

/// Rewrites a module's header version and its `OpCapability`/`OpExtension` instructions to
/// exactly what it needs. Other instructions are kept as they are, but for the entry points'
/// interfaces at SPIR-V 1.4 or later, which list every global variable their call trees use
/// ([`complete_interfaces`]: a module raised to 1.4 gains the ones 1.4 asks for).
pub fn update_vce(words: &[u32]) -> Result<Vec<u32>, DecodeError> {
    let req = module_requirements(words)?;
    let (header, mut insts) = crate::binary::decode_module(words)?;
    if req.min_version >= Version(1, 4) {
        complete_interfaces(&mut insts);
    }
    let mut out_insts = Vec::with_capacity(insts.len());
    for c in &req.capabilities {
        out_insts.push(Instruction::Capability(crate::grammar::OpCapability {
            capability: *c,
        }));
    }
    for e in &req.extensions {
        out_insts.push(Instruction::Extension(crate::grammar::OpExtension {
            name: e.name().to_string(),
        }));
    }
    // Extensions the grammar does not know are kept: nothing says they are not needed.
    out_insts.extend(insts.into_iter().filter(|i| match i {
        Instruction::Capability(_) => false,
        Instruction::Extension(e) => e.name.parse::<Extension>().is_err(),
        _ => true,
    }));
    let header = Header {
        version: req.min_version.word(),
        ..header
    };
    Ok(crate::binary::encode_module(&header, &out_insts).expect("instructions came from words"))
}

/// Sets a module's header version and replaces the `OpCapability`/`OpExtension`
/// instructions that open it by `capabilities` and `extensions`, leaving the rest of the
/// words where they are (no decoding: a module written by the IR's serializer has all of them
/// at the front).
pub fn set_vce(
    words: &mut Vec<u32>,
    version: Version,
    capabilities: &[Capability],
    extensions: &[String],
) {
    if words.len() < crate::binary::HEADER_WORDS {
        return;
    }
    words[1] = version.word();
    let start = crate::binary::HEADER_WORDS;
    let end = crate::binary::Frames::new(words, start)
        .map_while(|r| r.ok())
        .take_while(|raw| {
            raw.opcode == Opcode::Capability as u16 || raw.opcode == Opcode::Extension as u16
        })
        .last()
        .map_or(start, |raw| raw.offset + 1 + raw.operands.len());
    let mut preamble = Vec::new();
    for &capability in capabilities {
        let inst = Instruction::Capability(crate::grammar::OpCapability { capability });
        let _ = crate::binary::encode_instruction(&inst, &mut preamble);
    }
    for name in extensions {
        let inst = Instruction::Extension(crate::grammar::OpExtension { name: name.clone() });
        let _ = crate::binary::encode_instruction(&inst, &mut preamble);
    }
    words.splice(start..end, preamble);
}
