//! The IR as text, in the spirit of MLIR's SPIR-V dialect: a `spirv.module` with its
//! version-capabilities-extensions triple, struct aliases, constants, symbols
//! (`spirv.GlobalVariable @data`, `spirv.SpecConstant @n`), functions whose blocks take
//! arguments, structured constructs (`spirv.mlir.selection`, `spirv.mlir.loop`) at the top of
//! their header blocks, and ops named after their instruction (`spirv.FMul`, `spirv.GL.Sqrt`).
//!
//! Operands are printed from the grammar's descriptor tables: ids as values, enumerants by
//! name, literals as numbers or strings. The text is for reading; nothing parses it back.

use super::arena::Handle;
use super::constants::{ConstantValue, SpecValue};
use super::function::{Function, Structure, Successor, Terminator};
use super::module::{Loc, Module};
use super::operands::{self, ExtOperands};
use super::types::{ImageDepth, ImageSampling, Type};
use super::value::Value;
use crate::binary::{encode_operands, Encode};
use crate::grammar::tables::{
    core_instruction, EXT_INST_SETS, KIND_DECORATION, KIND_EXECUTION_MODE,
};
use crate::grammar::{
    Decoration, ExecutionMode, Id, Instruction, KindClass, KindDesc, LiteralNumber, Opcode,
};
use core::cell::RefCell;
use core::fmt::Write as _;
use std::collections::{BTreeSet, HashMap};

/// The IR as readable text.
pub fn print(m: &Module) -> String {
    let mut p = Printer::new(m);
    p.module();
    p.out
}

impl core::fmt::Display for Module {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&print(self))
    }
}

struct Printer<'m> {
    m: &'m Module,
    out: String,
    struct_names: HashMap<Handle<Type>, String>,
    symbols: HashMap<Value, String>,
    /// The types being printed, innermost last: a pointer may point (through arrays and
    /// other pointers, not only structs) back to itself.
    printing: RefCell<Vec<Handle<Type>>>,
    /// Types printed by number (`!t3`) because they are recursive or nested too deep; their
    /// definitions follow the module.
    by_number: RefCell<BTreeSet<Handle<Type>>>,
}

/// Types nested deeper than this print by number.
const MAX_TYPE_DEPTH: usize = 32;

/// A symbol or alias name: the debug name when it is a plain identifier, quoted otherwise.
fn symbol(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if plain {
        name.to_owned()
    } else {
        format!("{name:?}")
    }
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module) -> Self {
        let mut taken: HashMap<String, ()> = HashMap::new();
        let mut unique = |base: String, fallback: String| {
            let name = if taken.contains_key(&base) {
                fallback
            } else {
                base
            };
            taken.insert(name.clone(), ());
            name
        };
        let mut struct_names = HashMap::new();
        for (h, t) in m.types.iter() {
            if let Type::Struct(s) = t {
                let base = s
                    .name
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map_or(format!("struct{}", h.index()), symbol);
                struct_names.insert(h, unique(base, format!("struct{}", h.index())));
            }
        }
        let mut symbols = HashMap::new();
        for (h, f) in m.functions.iter() {
            let fallback = format!("fn{}", h.index());
            let base = f
                .name
                .as_deref()
                .filter(|n| !n.is_empty())
                .map_or(fallback.clone(), symbol);
            symbols.insert(Value::Function(h), unique(base, fallback));
        }
        for (h, g) in m.globals.iter() {
            let fallback = format!("global{}", h.index());
            let base = g
                .name
                .as_deref()
                .filter(|n| !n.is_empty())
                .map_or(fallback.clone(), symbol);
            symbols.insert(Value::Global(h), unique(base, fallback));
        }
        for (h, s) in m.spec_constants.iter() {
            let fallback = format!("spec{}", h.index());
            let base = s
                .name
                .as_deref()
                .filter(|n| !n.is_empty())
                .map_or(fallback.clone(), symbol);
            symbols.insert(Value::SpecConstant(h), unique(base, fallback));
        }
        Printer {
            m,
            out: String::new(),
            struct_names,
            symbols,
            printing: RefCell::new(Vec::new()),
            by_number: RefCell::new(BTreeSet::new()),
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    // -----------------------------------------------------------------------------------------
    // Names of things

    fn value(&self, v: Value) -> String {
        match v {
            Value::Op(h) => format!("%{}", h.index()),
            Value::Param(i) => format!("%arg{i}"),
            Value::BlockArg(h) => format!("%ba{}", h.index()),
            Value::Block(h) => format!("^bb{}", h.index()),
            Value::Constant(h) => format!("%cst{}", h.index()),
            Value::SpecConstant(_) | Value::Global(_) | Value::Function(_) => {
                format!("@{}", self.symbols.get(&v).map_or("?", String::as_str))
            }
            Value::Type(t) => self.ty(t),
            Value::String(h) => format!("%str{}", h.index()),
            Value::ExtInstSet(h) => format!("%set{}", h.index()),
            Value::ExtInst(h) => format!("%ext{}", h.index()),
        }
    }

    fn id(&self, id: Id) -> String {
        Value::from_id(id).map_or_else(|| format!("<id {}>", id.0), |v| self.value(v))
    }

    fn ty(&self, t: Handle<Type>) -> String {
        {
            let printing = self.printing.borrow();
            if printing.contains(&t) || printing.len() > MAX_TYPE_DEPTH {
                self.by_number.borrow_mut().insert(t);
                return format!("!t{}", t.index());
            }
        }
        self.printing.borrow_mut().push(t);
        let s = self.ty_inner(t);
        self.printing.borrow_mut().pop();
        s
    }

    fn ty_inner(&self, t: Handle<Type>) -> String {
        let Some(ty) = self.m.types.get(t) else {
            return format!("!<bad type {}>", t.index());
        };
        let stride = |s: &Option<u32>| s.map_or(String::new(), |s| format!(", stride={s}"));
        match ty {
            Type::Void => "void".into(),
            Type::Bool => "i1".into(),
            Type::Int { width, signed } => format!("{}i{width}", if *signed { "s" } else { "" }),
            Type::Float { width } => format!("f{width}"),
            Type::Vector { component, count } => format!("vector<{count}x{}>", self.ty(*component)),
            Type::Matrix { column, count } => {
                format!("!spirv.matrix<{count} x {}>", self.ty(*column))
            }
            Type::Array {
                element,
                length,
                stride: s,
            } => format!(
                "!spirv.array<{} x {}{}>",
                self.array_length(*length),
                self.ty(*element),
                stride(s)
            ),
            Type::RuntimeArray { element, stride: s } => {
                format!("!spirv.rtarray<{}{}>", self.ty(*element), stride(s))
            }
            Type::Pointer {
                storage_class,
                pointee,
                stride: s,
            } => format!(
                "!spirv.ptr<{}, {storage_class}{}>",
                self.ty(*pointee),
                stride(s)
            ),
            Type::Struct(_) => {
                format!("!{}", self.struct_names.get(&t).map_or("?", String::as_str))
            }
            Type::Image(i) => format!(
                "!spirv.image<{}, {}, {}, {}, {}, {}, {}{}>",
                self.ty(i.sampled_type),
                i.dim,
                match i.depth {
                    ImageDepth::NoDepth => "NoDepth",
                    ImageDepth::IsDepth => "IsDepth",
                    ImageDepth::Unknown => "DepthUnknown",
                },
                if i.arrayed { "Arrayed" } else { "NonArrayed" },
                if i.multisampled {
                    "MultiSampled"
                } else {
                    "SingleSampled"
                },
                match i.sampled {
                    ImageSampling::Unknown => "SamplerUnknown",
                    ImageSampling::Sampled => "NeedSampler",
                    ImageSampling::Storage => "NoSampler",
                },
                i.format,
                i.access.map_or(String::new(), |a| format!(", {a}"))
            ),
            Type::SampledImage { image } => format!("!spirv.sampled_image<{}>", self.ty(*image)),
            Type::Sampler => "!spirv.sampler".into(),
            Type::Function { ret, params } => {
                let ps: Vec<String> = params.iter().map(|&p| self.ty(p)).collect();
                format!("({}) -> {}", ps.join(", "), self.ty(*ret))
            }
            Type::Event => "!spirv.event".into(),
            Type::DeviceEvent => "!spirv.device_event".into(),
            Type::ReserveId => "!spirv.reserve_id".into(),
            Type::Queue => "!spirv.queue".into(),
            Type::Pipe { access } => format!("!spirv.pipe<{access}>"),
            Type::PipeStorage => "!spirv.pipe_storage".into(),
            Type::NamedBarrier => "!spirv.named_barrier".into(),
            Type::Opaque { name } => format!("!spirv.opaque<{name:?}>"),
            Type::Other(inst) => {
                let name = inst.opcode().map_or("Unknown", Opcode::name);
                let ops = self.inst_operands(inst);
                let name = name.strip_prefix("OpType").unwrap_or(name);
                if ops.is_empty() {
                    format!("!spirv.{name}")
                } else {
                    format!("!spirv.{name}<{}>", ops.join(", "))
                }
            }
        }
    }

    /// An array length: the number when it is a 32- or 64-bit constant.
    fn array_length(&self, v: Value) -> String {
        if let Value::Constant(c) = v {
            if let Some(ConstantValue::Scalar(n)) = self.m.constants.get(c).map(|c| &c.value) {
                return n.low_u64().to_string();
            }
        }
        self.value(v)
    }

    fn loc(&self, loc: &Option<Loc>) -> String {
        match loc {
            Some(l) => format!(
                " loc({:?}:{}:{})",
                self.m.strings.get(l.file).map_or("?", String::as_str),
                l.line,
                l.column
            ),
            None => String::new(),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Operands from the grammar

    /// Formats operand words as the descriptors say.
    fn words(
        &self,
        items: &[(&'static KindDesc, core::ops::Range<usize>)],
        words: &[u32],
    ) -> Vec<String> {
        let mut out = Vec::new();
        for (kind, range) in items {
            let ws = words.get(range.clone()).unwrap_or(&[]);
            let first = ws.first().copied().unwrap_or(0);
            let s = match kind.class {
                KindClass::ResultType | KindClass::Result => continue,
                KindClass::Id => self.id(Id(first)),
                KindClass::ValueEnum => kind
                    .enumerant(first)
                    .map_or_else(|| first.to_string(), |e| e.name.to_owned()),
                KindClass::BitEnum => {
                    let names: Vec<&str> = kind
                        .enumerants
                        .iter()
                        .filter(|e| e.value != 0 && first & e.value == e.value)
                        .map(|e| e.name)
                        .collect();
                    if names.is_empty() {
                        "None".into()
                    } else {
                        names.join("|")
                    }
                }
                KindClass::Float => format!("{:?}", f32::from_bits(first)),
                KindClass::String => {
                    let bytes: Vec<u8> = ws
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .take_while(|&b| b != 0)
                        .collect();
                    format!("{:?}", String::from_utf8_lossy(&bytes))
                }
                KindClass::ContextNumber => match ws {
                    [w] => w.to_string(),
                    [lo, hi] => (u64::from(*lo) | u64::from(*hi) << 32).to_string(),
                    _ => format!("{ws:?}"),
                },
                KindClass::SpecConstantOpcode => {
                    let name = u16::try_from(first)
                        .ok()
                        .and_then(Opcode::from_u16)
                        .map_or("?", Opcode::name);
                    name.strip_prefix("Op").unwrap_or(name).to_owned()
                }
                _ => first.to_string(),
            };
            out.push(s);
        }
        out
    }

    /// The operands of an instruction (result type and id left out).
    fn inst_operands(&self, inst: &Instruction) -> Vec<String> {
        let mut words = Vec::new();
        encode_operands(inst, &mut words);
        let Some(desc) = core_instruction(inst.opcode_value()) else {
            return words.iter().map(u32::to_string).collect();
        };
        let mut items = Vec::new();
        let used = operands::walk(desc.operands, &words, 1, &mut |k, r| items.push((k, r)));
        if let Instruction::SpecConstantOp(op) = inst {
            // The embedded operation's operands: ids or literal indices.
            let mut v = vec![op.opcode.opcode.name().trim_start_matches("Op").to_owned()];
            for (i, w) in op.opcode.operands.iter().enumerate() {
                v.push(if op.opcode.operand_is_id(i) {
                    self.id(Id(*w))
                } else {
                    w.to_string()
                });
            }
            return v;
        }
        let mut out = self.words(&items, &words);
        out.extend(words[used.min(words.len())..].iter().map(u32::to_string));
        out
    }

    fn enum_words(&self, kind: &'static KindDesc, words: &[u32]) -> String {
        let mut items = Vec::new();
        operands::walk_kind(kind, words, &mut |k, r| items.push((k, r)));
        let parts = self.words(&items, words);
        match parts.split_first() {
            Some((name, [])) => name.clone(),
            Some((name, params)) => format!("{name}({})", params.join(", ")),
            None => String::new(),
        }
    }

    fn decoration(&self, d: &Decoration) -> String {
        let mut w = Vec::new();
        d.encode(&mut w);
        self.enum_words(&KIND_DECORATION, &w)
    }

    fn decorations(&self, ds: &[Decoration]) -> String {
        if ds.is_empty() {
            return String::new();
        }
        let v: Vec<String> = ds.iter().map(|d| self.decoration(d)).collect();
        format!(" [{}]", v.join(", "))
    }

    fn execution_mode(&self, mode: &ExecutionMode) -> String {
        let mut w = Vec::new();
        mode.encode(&mut w);
        self.enum_words(&KIND_EXECUTION_MODE, &w)
    }

    // -----------------------------------------------------------------------------------------
    // Ops

    /// The op name (`spirv.FMul`, `spirv.GL.Sqrt`) and operands of an instruction.
    fn op_text(&self, inst: &Instruction) -> (String, Vec<String>) {
        if let Instruction::ExtInst(op) = inst {
            let import = match Value::from_id(op.set) {
                Some(Value::ExtInstSet(h)) => self.m.ext_inst_imports.get(h),
                _ => None,
            };
            let set = import.map_or("?", |i| i.name.as_str());
            let prefix = match set {
                "GLSL.std.450" => "GL",
                "OpenCL.std" => "CL",
                s => s,
            };
            let desc = EXT_INST_SETS
                .iter()
                .find(|s| s.name == set)
                .and_then(|s| s.instruction(op.instruction));
            let name = desc.map_or_else(|| op.instruction.to_string(), |d| d.name.to_owned());
            let mode = import.map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, op.instruction));
            let args = match mode {
                ExtOperands::AllIds => op.operands.iter().map(|&w| self.id(Id(w))).collect(),
                ExtOperands::Grammar(d) => {
                    let mut items = Vec::new();
                    let used =
                        operands::walk(d.operands, &op.operands, 1, &mut |k, r| items.push((k, r)));
                    let mut v = self.words(&items, &op.operands);
                    v.extend(
                        op.operands[used.min(op.operands.len())..]
                            .iter()
                            .map(u32::to_string),
                    );
                    v
                }
                ExtOperands::Unknown => op.operands.iter().map(u32::to_string).collect(),
            };
            return (format!("spirv.{prefix}.{name}"), args);
        }
        let name = inst.opcode().map_or("Unknown", Opcode::name);
        (
            format!("spirv.{}", name.strip_prefix("Op").unwrap_or(name)),
            self.inst_operands(inst),
        )
    }

    fn op_line(
        &self,
        inst: &Instruction,
        name: Option<&str>,
        decorations: &[Decoration],
        loc: &Option<Loc>,
    ) -> String {
        let (op, args) = self.op_text(inst);
        let mut s = String::new();
        if let Some(r) = inst.result_id() {
            let _ = write!(s, "{} = ", self.id(r));
        }
        s.push_str(&op);
        if !args.is_empty() {
            let _ = write!(s, " {}", args.join(", "));
        }
        if let Some(t) = inst.result_type() {
            let _ = write!(s, " : {}", self.id(t));
        }
        s.push_str(&self.decorations(decorations));
        if let Some(n) = name {
            let _ = write!(s, " {{name = {n:?}}}");
        }
        s.push_str(&self.loc(loc));
        s
    }

    fn successor(&self, s: &Successor) -> String {
        if s.args.is_empty() {
            return format!("^bb{}", s.block.index());
        }
        let args: Vec<String> = s.args.iter().map(|&v| self.value(v)).collect();
        format!("^bb{}({})", s.block.index(), args.join(", "))
    }

    fn terminator(&self, t: &Terminator) -> String {
        match t {
            Terminator::Branch(s) => format!("spirv.Branch {}", self.successor(s)),
            Terminator::BranchConditional {
                condition,
                true_target,
                false_target,
                weights,
            } => {
                let w = if weights.is_empty() {
                    String::new()
                } else {
                    format!(" weights {weights:?}")
                };
                format!(
                    "spirv.BranchConditional {}, {}, {}{w}",
                    self.value(*condition),
                    self.successor(true_target),
                    self.successor(false_target)
                )
            }
            Terminator::Switch {
                selector,
                default,
                cases,
            } => {
                let cs: Vec<String> = cases
                    .iter()
                    .map(|(lit, s)| {
                        let n = match lit {
                            LiteralNumber::Words(ws) => format!("{ws:?}"),
                            l => l.low_u64().to_string(),
                        };
                        format!("{n}: {}", self.successor(s))
                    })
                    .collect();
                format!(
                    "spirv.Switch {}, default: {}, [{}]",
                    self.value(*selector),
                    self.successor(default),
                    cs.join(", ")
                )
            }
            Terminator::Return => "spirv.Return".into(),
            Terminator::ReturnValue(v) => format!("spirv.ReturnValue {}", self.value(*v)),
            Terminator::Unreachable => "spirv.Unreachable".into(),
            Terminator::Kill => "spirv.Kill".into(),
            Terminator::Other(inst) => self.op_line(inst, None, &[], &None),
        }
    }

    // -----------------------------------------------------------------------------------------
    // The module

    fn module(&mut self) {
        let m = self.m;
        let caps: Vec<String> = m.capabilities.iter().map(ToString::to_string).collect();
        self.out = format!(
            "spirv.module {} {} requires #spirv.vce<v{}, [{}], [{}]> {{\n",
            m.addressing_model,
            m.memory_model,
            m.version,
            caps.join(", "),
            m.extensions.join(", ")
        );
        for (h, i) in m.ext_inst_imports.iter() {
            let s = format!("%set{} = spirv.ext_import {:?}", h.index(), i.name);
            self.line(1, &s);
        }
        for (h, s) in m.strings.iter() {
            let s = format!("%str{} = spirv.String {s:?}", h.index());
            self.line(1, &s);
        }
        for s in &m.sources {
            let mut l = format!("spirv.Source {} {}", s.language, s.version);
            if let Some(f) = s.file {
                let _ = write!(l, " file(%str{})", f.index());
            }
            if let Some(t) = &s.text {
                let _ = write!(l, " text({} bytes)", t.len());
            }
            self.line(1, &l);
        }
        for e in &m.source_extensions {
            self.line(1, &format!("spirv.SourceExtension {e:?}"));
        }
        for p in &m.processes {
            self.line(1, &format!("spirv.ModuleProcessed {p:?}"));
        }
        // Struct aliases.
        for (h, t) in m.types.iter() {
            if let Type::Struct(s) = t {
                let members: Vec<String> = s
                    .members
                    .iter()
                    .map(|mem| {
                        let mut d = Vec::new();
                        if let Some(o) = mem.offset {
                            d.push(o.to_string());
                        }
                        d.extend(mem.decorations.iter().map(|x| self.decoration(x)));
                        let n = mem
                            .name
                            .as_deref()
                            .map_or(String::new(), |n| format!("{n:?}: "));
                        if d.is_empty() {
                            format!("{n}{}", self.ty(mem.ty))
                        } else {
                            format!("{n}{} [{}]", self.ty(mem.ty), d.join(", "))
                        }
                    })
                    .collect();
                let name = s
                    .name
                    .as_deref()
                    .map_or(String::new(), |n| format!("{n:?}, "));
                let l = format!(
                    "{} = !spirv.struct<{name}({}){}>",
                    self.ty(h),
                    members.join(", "),
                    self.decorations(&s.decorations)
                );
                self.line(1, &l);
            }
        }
        for (h, n) in &m.type_names {
            let l = format!("// {} is named {n:?}", self.ty(*h));
            self.line(1, &l);
        }
        for (h, d) in &m.type_decorations {
            let l = format!("// {} is decorated{}", self.ty(*h), self.decorations(d));
            self.line(1, &l);
        }
        for (h, c) in m.constants.iter() {
            let v = match &c.value {
                ConstantValue::Bool(b) => format!("spirv.Constant {b}"),
                ConstantValue::Scalar(n) => {
                    format!("spirv.Constant {}", self.scalar(n, c.ty))
                }
                ConstantValue::Composite(vs) => {
                    let vs: Vec<String> = vs.iter().map(|&v| self.value(v)).collect();
                    format!("spirv.Constant [{}]", vs.join(", "))
                }
                ConstantValue::Null => "spirv.Null".into(),
                ConstantValue::Undef => "spirv.Undef".into(),
                ConstantValue::Sampler {
                    addressing,
                    normalized,
                    filter,
                } => format!("spirv.ConstantSampler {addressing}, {normalized}, {filter}"),
                ConstantValue::Other(inst) => {
                    self.op_text(inst).0 + " " + &self.inst_operands(inst).join(", ")
                }
            };
            let mut l = format!("%cst{} = {v} : {}", h.index(), self.ty(c.ty));
            l.push_str(&self.decorations(&c.decorations));
            if let Some(n) = &c.name {
                let _ = write!(l, " {{name = {n:?}}}");
            }
            self.line(1, &l);
        }
        for (h, s) in m.spec_constants.iter() {
            let v = match &s.value {
                SpecValue::Bool(b) => b.to_string(),
                SpecValue::Scalar(n) => self.scalar(n, s.ty),
                SpecValue::Composite(vs) => {
                    let vs: Vec<String> = vs.iter().map(|&v| self.value(v)).collect();
                    format!("[{}]", vs.join(", "))
                }
                SpecValue::Op(op) => {
                    let mut v = vec![op.opcode.name().trim_start_matches("Op").to_owned()];
                    for (i, w) in op.operands.iter().enumerate() {
                        v.push(if op.operand_is_id(i) {
                            self.id(Id(*w))
                        } else {
                            w.to_string()
                        });
                    }
                    format!("spirv.SpecConstantOperation({})", v.join(", "))
                }
            };
            let spec_id = s
                .spec_id
                .map_or(String::new(), |i| format!(" spec_id({i})"));
            let l = format!(
                "spirv.SpecConstant {}{spec_id} = {v} : {}{}{}",
                self.value(Value::SpecConstant(h)),
                self.ty(s.ty),
                self.decorations(&s.decorations),
                self.loc(&s.loc)
            );
            self.line(1, &l);
        }
        for (h, g) in m.globals.iter() {
            let init = g
                .initializer
                .map_or(String::new(), |i| format!(" init({})", self.value(i)));
            let l = format!(
                "spirv.GlobalVariable {}{init} : {}{}{}",
                self.value(Value::Global(h)),
                self.ty(g.ty),
                self.decorations(&g.decorations),
                self.loc(&g.loc)
            );
            self.line(1, &l);
        }
        for (h, e) in m.ext_insts.iter() {
            let inst = Instruction::ExtInst(e.inst.clone());
            let mut l = self.op_line(&inst, e.name.as_deref(), &[], &e.loc);
            if e.after_functions {
                l.push_str(" {after_functions}");
            }
            let _ = h;
            self.line(1, &l);
        }
        for (h, f) in m.functions.iter() {
            self.function(h, f);
        }
        for e in &m.entry_points {
            let mut l = format!(
                "spirv.EntryPoint \"{}\" {} {:?}",
                e.execution_model,
                self.value(Value::Function(e.function)),
                e.name
            );
            for &g in &e.interface {
                let _ = write!(l, ", {}", self.value(Value::Global(g)));
            }
            self.line(1, &l);
        }
        for e in &m.execution_modes {
            let l = format!(
                "spirv.ExecutionMode {} {}",
                self.value(Value::Function(e.function)),
                self.execution_mode(&e.mode)
            );
            self.line(1, &l);
        }
        self.out.push_str("}\n");
        // Types printed by number, defined one level deep (and so on, as printing them may
        // refer to more).
        let mut done = BTreeSet::new();
        loop {
            let next = self.by_number.borrow().difference(&done).next().copied();
            let Some(t) = next else { break };
            done.insert(t);
            self.printing.borrow_mut().push(t);
            let l = format!("// !t{} = {}", t.index(), self.ty_inner(t));
            self.printing.borrow_mut().pop();
            self.line(0, &l);
        }
    }

    fn scalar(&self, n: &LiteralNumber, ty: Handle<Type>) -> String {
        match (self.m.types.get(ty), n) {
            (Some(Type::Float { width: 32 }), LiteralNumber::Word(w)) => {
                format!("{:?}", f32::from_bits(*w))
            }
            (Some(Type::Float { width: 64 }), LiteralNumber::DoubleWord(d)) => {
                format!("{:?}", f64::from_bits(*d))
            }
            (
                Some(Type::Int {
                    signed: true,
                    width,
                }),
                l,
            ) if *width <= 64 => {
                let v = l.low_u64();
                let shift = 64 - width.max(&1);
                (((v << shift) as i64) >> shift).to_string()
            }
            (_, LiteralNumber::Words(ws)) => format!("{ws:?}"),
            (_, l) => l.low_u64().to_string(),
        }
    }

    fn function(&mut self, h: Handle<Function>, f: &Function) {
        let params: Vec<String> = f
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut s = format!("%arg{i}: {}", self.ty(p.ty));
                s.push_str(&self.decorations(&p.decorations));
                if let Some(n) = &p.name {
                    let _ = write!(s, " {{name = {n:?}}}");
                }
                s
            })
            .collect();
        let ret = match self.m.types.get(f.ty) {
            Some(Type::Function { ret, .. }) => self.ty(*ret),
            _ => "?".into(),
        };
        let mut head = format!(
            "spirv.func {}({}) -> {ret} \"{:?}\"",
            self.value(Value::Function(h)),
            params.join(", "),
            f.control
        );
        head.push_str(&self.decorations(&f.decorations));
        head.push_str(&self.loc(&f.loc));
        if f.is_declaration() {
            self.line(1, &head);
            return;
        }
        head.push_str(" {");
        self.line(1, &head);
        for &o in &f.header {
            if let Some(op) = f.ops.get(o) {
                let l = self.op_line(&op.inst, op.name(), op.decorations(), &op.loc);
                self.line(2, &l);
            }
        }
        for (bh, b) in f.blocks.iter() {
            let mut label = format!("^bb{}", bh.index());
            if !b.args.is_empty() {
                let args: Vec<String> = b
                    .args
                    .iter()
                    .filter_map(|&a| {
                        let arg = f.block_args.get(a)?;
                        let mut s = format!("%ba{}: {}", a.index(), self.ty(arg.ty));
                        s.push_str(&self.decorations(&arg.decorations));
                        s.push_str(&self.loc(&arg.loc));
                        Some(s)
                    })
                    .collect();
                let _ = write!(label, "({})", args.join(", "));
            }
            label.push(':');
            if let Some(n) = &b.name {
                let _ = write!(label, "  // {n:?}");
            }
            self.line(1, &label);
            match &b.structure {
                Some(Structure::Selection {
                    merge,
                    control,
                    loc,
                }) => {
                    let l = format!(
                        "spirv.mlir.selection merge(^bb{}) control({control}){}",
                        merge.index(),
                        self.loc(loc)
                    );
                    self.line(2, &l);
                }
                Some(Structure::Loop {
                    merge,
                    continue_target,
                    control,
                    loc,
                }) => {
                    let mut w = Vec::new();
                    control.encode(&mut w);
                    let ctl = self.enum_words(&crate::grammar::tables::KIND_LOOP_CONTROL, &w);
                    let l = format!(
                        "spirv.mlir.loop merge(^bb{}) continue(^bb{}) control({ctl}){}",
                        merge.index(),
                        continue_target.index(),
                        self.loc(loc)
                    );
                    self.line(2, &l);
                }
                None => {}
            }
            for &o in &b.ops {
                if let Some(op) = f.ops.get(o) {
                    let l = self.op_line(&op.inst, op.name(), op.decorations(), &op.loc);
                    self.line(2, &l);
                }
            }
            let l = self.terminator(&b.terminator) + &self.loc(&b.terminator_loc);
            self.line(2, &l);
        }
        self.line(1, "}");
    }
}
