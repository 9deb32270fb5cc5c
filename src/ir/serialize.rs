//! IR → binary, in the logical layout order.
//!
//! Ids are given out on first use. The types-constants-globals section and the functions are
//! written first, into buffers, collecting names and decorations as each entity is written;
//! then the header and the earlier sections are written in front of them.
//!
//! Within the types-constants-globals section every arena is written in handle order (an
//! entity that needs a later one of the same arena first writes those before it), so that
//! reading the output back numbers everything as it was. A pointer type that is needed before
//! its pointee is complete gets an `OpTypeForwardPointer`.

use super::arena::Handle;
use super::check::{check, check_function};
use super::constants::{Constant, ConstantValue, SpecConstant, SpecValue};
use super::error::IrError;
use super::function::{Block, Function, Structure, Successor, Terminator};
use super::module::{ExtInstImport, Loc, Module};
use super::operands::{self, ExtOperands};
use super::types::Type;
use super::value::Value;
use crate::binary::{encode_instruction, Header};
use crate::grammar::tables::{KIND_DECORATION, KIND_EXECUTION_MODE};
use crate::grammar::*;

/// Writes a module as SPIR-V words, once [`check`] accepts it (its error otherwise).
/// A constant composite longer than one instruction holds (65,535 words) continues in
/// SPV_INTEL_long_composites' instructions, whose capability and extension the module must
/// declare; a struct that long is refused by [`check`]. Source text is split into
/// `OpSourceContinued` as needed.
pub fn serialize(m: &Module) -> Result<Vec<u32>, IrError> {
    check(m)?;
    Ok(Writer::new(m).run())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    NotStarted,
    InProgress,
    /// `OpTypeForwardPointer` written, `OpTypePointer` not yet.
    Forward,
    Done,
}

/// Ids of one arena, given out on first use.
#[derive(Default)]
struct IdTable {
    ids: Vec<u32>,
}

impl IdTable {
    fn sized(n: usize) -> Self {
        IdTable { ids: vec![0; n] }
    }
}

/// What the writer has given out and written so far (everything but the module).
#[derive(Default)]
struct Tables {
    next_id: u32,
    types: IdTable,
    constants: IdTable,
    specs: IdTable,
    globals: IdTable,
    functions: IdTable,
    strings: IdTable,
    imports: IdTable,
    ext_insts: IdTable,
    // The function being written.
    ops: IdTable,
    blocks: IdTable,
    args: IdTable,
    params: IdTable,
    type_state: Vec<State>,
    type_cursor: usize,
    constant_state: Vec<State>,
    constant_cursor: usize,
    spec_state: Vec<State>,
    spec_cursor: usize,
    global_state: Vec<State>,
    global_cursor: usize,
    pending_pointers: Vec<Handle<Type>>,
    loc: Option<Loc>,
    names: Vec<u32>,
    annotations: Vec<u32>,
    globals_out: Vec<u32>,
    functions_out: Vec<u32>,
    /// Function definitions already written (by [`StreamingSerializer::write_function`]).
    written: Vec<bool>,
}

impl Tables {
    /// Grows the tables of module-level arenas to their current lengths (a module being
    /// built grows between the functions a [`StreamingSerializer`] writes).
    fn fit(&mut self, m: &Module) {
        fn grow<T: Clone>(v: &mut Vec<T>, n: usize, x: T) {
            if v.len() < n {
                v.resize(n, x);
            }
        }
        if self.next_id == 0 {
            self.next_id = 1;
        }
        grow(&mut self.types.ids, m.types.len(), 0);
        grow(&mut self.constants.ids, m.constants.len(), 0);
        grow(&mut self.specs.ids, m.spec_constants.len(), 0);
        grow(&mut self.globals.ids, m.globals.len(), 0);
        grow(&mut self.functions.ids, m.functions.len(), 0);
        grow(&mut self.strings.ids, m.strings.len(), 0);
        grow(&mut self.imports.ids, m.ext_inst_imports.len(), 0);
        grow(&mut self.ext_insts.ids, m.ext_insts.len(), 0);
        grow(&mut self.type_state, m.types.len(), State::NotStarted);
        grow(
            &mut self.constant_state,
            m.constants.len(),
            State::NotStarted,
        );
        grow(
            &mut self.spec_state,
            m.spec_constants.len(),
            State::NotStarted,
        );
        grow(&mut self.global_state, m.globals.len(), State::NotStarted);
        grow(&mut self.written, m.functions.len(), false);
    }
}

struct Writer<'m> {
    m: &'m Module,
    t: Tables,
}

/// Writes a module whose function definitions are written (and may then be dropped from the
/// IR) while the rest of it is still being built: a large translation then holds the IR of
/// one function at a time and the words of the others, about a tenth of their IR.
///
/// Ids are given out on first use across calls, so a function may refer to types, constants,
/// globals and functions that are not written yet (but are in the module): they are written
/// by [`Self::finish`], in front of the functions, as [`serialize`] writes them.
#[derive(Default)]
pub struct StreamingSerializer {
    t: Tables,
}

impl StreamingSerializer {
    /// A serializer that has written nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes the definition of function `f` of `m` now, unless [`check`] finds it wrong.
    /// Its body is not read again: the caller may drop it from the IR, keeping the function
    /// itself (callers, entry points and execution modes refer to it by handle).
    pub fn write_function(&mut self, m: &Module, f: Handle<Function>) -> Result<(), IrError> {
        check_function(m, f)?;
        let mut w = Writer {
            m,
            t: std::mem::take(&mut self.t),
        };
        w.t.fit(m);
        w.write_function(f);
        if let Some(done) = w.t.written.get_mut(f.index()) {
            *done = true;
        }
        self.t = w.t;
        Ok(())
    }

    /// Writes the rest of `m` (everything but the functions already written) and returns the
    /// whole module, unless [`check`] finds `m` wrong.
    pub fn finish(self, m: &Module) -> Result<Vec<u32>, IrError> {
        check(m)?;
        let mut w = Writer { m, t: self.t };
        w.t.fit(m);
        Ok(w.run())
    }
}

impl<'m> Writer<'m> {
    fn new(m: &'m Module) -> Self {
        let mut t = Tables {
            globals_out: Vec::with_capacity(m.types.len() * 4 + m.constants.len() * 5),
            ..Tables::default()
        };
        t.fit(m);
        Writer { m, t }
    }

    // -----------------------------------------------------------------------------------------
    // IdTable

    /// The id of a value, given out on first use. A handle outside its arena (IR built wrong
    /// by hand) gets a fresh id that nothing defines.
    fn id(&mut self, v: Value) -> Id {
        let (table, index) = match v {
            Value::Op(h) => (&mut self.t.ops, h.index()),
            Value::Param(i) => (&mut self.t.params, i as usize),
            Value::BlockArg(h) => (&mut self.t.args, h.index()),
            Value::Block(h) => (&mut self.t.blocks, h.index()),
            Value::Constant(h) => (&mut self.t.constants, h.index()),
            Value::SpecConstant(h) => (&mut self.t.specs, h.index()),
            Value::Global(h) => (&mut self.t.globals, h.index()),
            Value::Function(h) => (&mut self.t.functions, h.index()),
            Value::Type(h) => (&mut self.t.types, h.index()),
            Value::String(h) => (&mut self.t.strings, h.index()),
            Value::ExtInstSet(h) => (&mut self.t.imports, h.index()),
            Value::ExtInst(h) => (&mut self.t.ext_insts, h.index()),
        };
        let next = &mut self.t.next_id;
        match table.ids.get_mut(index) {
            Some(slot) => {
                if *slot == 0 {
                    *slot = *next;
                    *next += 1;
                }
                Id(*slot)
            }
            None => {
                *next += 1;
                Id(*next - 1)
            }
        }
    }

    fn ty_id(&mut self, t: Handle<Type>) -> Id {
        self.id(Value::Type(t))
    }

    /// Replaces the packed values of an instruction by ids.
    fn unpack(&mut self, inst: &mut Instruction) {
        let m = self.m;
        let mut f = |id: &mut Id| {
            if let Some(v) = Value::from_id(*id) {
                *id = self.id(v);
            }
        };
        operands::visit_ids_mut(
            inst,
            |set, number| match Value::from_id(set) {
                Some(Value::ExtInstSet(h)) => m
                    .ext_inst_imports
                    .get(h)
                    .map_or(ExtOperands::Unknown, |i: &ExtInstImport| {
                        ExtOperands::of(i, number)
                    }),
                _ => ExtOperands::Unknown,
            },
            &mut f,
        );
    }

    fn emit(out: &mut Vec<u32>, inst: &Instruction) {
        // Constant composites are split before they get here and `check` refused structs too
        // long for the binary form; other instructions cannot reach the limit (names and
        // strings are split or bounded where they are made).
        let _ = encode_instruction(inst, out);
    }

    // -----------------------------------------------------------------------------------------
    // Names and decorations

    fn name(&mut self, target: Id, name: &Option<String>) {
        if let Some(n) = name {
            Self::emit(
                &mut self.t.names,
                &Instruction::Name(OpName {
                    target,
                    name: n.clone(),
                }),
            );
        }
    }

    fn decorations(&mut self, target: Id, member: Option<u32>, decs: &[Decoration]) {
        let strings_ok = self.m.version >= crate::grammar::Version(1, 4);
        for d in decs {
            let mut d = d.clone();
            let mut has_ids = false;
            d.visit_ids_mut(&mut |id| {
                has_ids = true;
                if let Some(v) = Value::from_id(*id) {
                    *id = self.id(v);
                }
            });
            let inst = match member {
                Some(member) if takes_string(&d, strings_ok) => {
                    Instruction::MemberDecorateString(OpMemberDecorateString {
                        struct_type: target,
                        member,
                        decoration: d,
                    })
                }
                Some(member) => Instruction::MemberDecorate(OpMemberDecorate {
                    structure_type: target,
                    member,
                    decoration: d,
                }),
                None if has_ids => Instruction::DecorateId(OpDecorateId {
                    target,
                    decoration: d,
                }),
                None if takes_string(&d, strings_ok) => {
                    Instruction::DecorateString(OpDecorateString {
                        target,
                        decoration: d,
                    })
                }
                None => Instruction::Decorate(OpDecorate {
                    target,
                    decoration: d,
                }),
            };
            Self::emit(&mut self.t.annotations, &inst);
        }
    }

    fn stride(&mut self, target: Id, stride: Option<u32>) {
        if let Some(s) = stride {
            self.decorations(target, None, &[Decoration::ArrayStride(s)]);
        }
    }

    // -----------------------------------------------------------------------------------------
    // Source locations

    fn set_loc(&mut self, loc: Option<Loc>, in_function: bool) {
        if loc == self.t.loc {
            return;
        }
        self.t.loc = loc;
        let inst = match loc {
            Some(l) => Instruction::Line(OpLine {
                file: self.id(Value::String(l.file)),
                line: l.line,
                column: l.column,
            }),
            None => Instruction::NoLine(OpNoLine {}),
        };
        let out = if in_function {
            &mut self.t.functions_out
        } else {
            &mut self.t.globals_out
        };
        Self::emit(out, &inst);
    }

    // -----------------------------------------------------------------------------------------
    // Types

    fn ensure_value(&mut self, v: Value) {
        match v {
            Value::Type(t) => self.ensure_type(t, false),
            Value::Constant(c) => self.ensure_constant(c),
            Value::SpecConstant(s) => self.ensure_spec(s),
            Value::Global(g) => self.ensure_global(g),
            _ => {}
        }
    }

    /// Ensures the values that decorations refer to are written (a type or constant is read
    /// back only when they precede it).
    fn ensure_decoration_operands(&mut self, decs: &[Decoration]) {
        let mut vs = Vec::new();
        for d in decs {
            d.visit_ids(&mut |id| vs.extend(Value::from_id(id)));
        }
        for v in vs {
            self.ensure_value(v);
        }
    }

    /// Ensures every packed value of an instruction is written (types may be forward pointers
    /// when `allow_forward`).
    fn ensure_operands(&mut self, inst: &Instruction, allow_forward: bool) {
        let mut vs = Vec::new();
        inst.visit_ids(&mut |id| vs.extend(Value::from_id(id)));
        for v in vs {
            match v {
                Value::Type(t) => self.ensure_type(t, allow_forward),
                v => self.ensure_value(v),
            }
        }
    }

    /// Writes type `t` (and every type before it) unless written; with `allow_forward`, a
    /// pointer that is only forward-declared so far will do.
    fn ensure_type(&mut self, t: Handle<Type>, allow_forward: bool) {
        let i = t.index();
        if i >= self.t.type_state.len() {
            return;
        }
        while self.t.type_cursor <= i {
            let next = Handle::new(self.t.type_cursor);
            self.t.type_cursor += 1;
            if self.t.type_state[next.index()] == State::NotStarted {
                self.write_type(next);
            }
        }
        match self.t.type_state[i] {
            State::InProgress if allow_forward => {
                if let Some(Type::Pointer { storage_class, .. }) = self.m.types.get(t) {
                    let storage_class = *storage_class;
                    self.forward_declare(t, storage_class);
                }
            }
            State::Forward if !allow_forward => {
                // Needed complete (by a constant or variable): write the pointee first.
                if let Some(&Type::Pointer { pointee, .. }) = self.m.types.get(t) {
                    if pointee != t {
                        self.ensure_type(pointee, false);
                    }
                }
                if self.t.type_state[i] == State::Forward {
                    self.complete_pointer(t);
                }
            }
            _ => {}
        }
    }

    fn forward_declare(&mut self, t: Handle<Type>, storage_class: StorageClass) {
        let pointer_type = self.ty_id(t);
        Self::emit(
            &mut self.t.globals_out,
            &Instruction::TypeForwardPointer(OpTypeForwardPointer {
                pointer_type,
                storage_class,
            }),
        );
        self.t.type_state[t.index()] = State::Forward;
        self.t.pending_pointers.push(t);
    }

    fn complete_pointer(&mut self, t: Handle<Type>) {
        if let Some(Type::Pointer {
            storage_class,
            pointee,
            stride,
        }) = self.m.types.get(t)
        {
            let result_id = self.ty_id(t);
            let type_ = self.ty_id(*pointee);
            Self::emit(
                &mut self.t.globals_out,
                &Instruction::TypePointer(OpTypePointer {
                    result_id,
                    storage_class: *storage_class,
                    type_,
                }),
            );
            self.stride(result_id, *stride);
            self.type_annotations(t, result_id);
        }
        self.t.type_state[t.index()] = State::Done;
        self.t.pending_pointers.retain(|&p| p != t);
    }

    fn type_annotations(&mut self, t: Handle<Type>, id: Id) {
        let m = self.m;
        if let Some(n) = m.type_names.get(&t) {
            self.name(id, &Some(n.clone()));
        }
        if let Some(d) = m.type_decorations.get(&t) {
            self.decorations(id, None, d);
        }
    }

    fn write_type(&mut self, t: Handle<Type>) {
        let m = self.m;
        self.t.type_state[t.index()] = State::InProgress;
        let ty = &m.types[t];
        if let Some(d) = m.type_decorations.get(&t) {
            self.ensure_decoration_operands(d);
        }
        if let Type::Struct(s) = ty {
            self.ensure_decoration_operands(&s.decorations);
            for mem in &s.members {
                self.ensure_decoration_operands(&mem.decorations);
            }
        }
        if let Type::Pointer {
            storage_class,
            pointee,
            ..
        } = ty
        {
            // A pointer before its pointee (in handle order) was forward-declared there; it
            // is completed when the pointee is written, which the handle order does without
            // recursing along chains of such pointers.
            let later = pointee.index() > t.index()
                && self.t.type_state.get(pointee.index()) == Some(&State::NotStarted);
            if !later {
                self.ensure_type(*pointee, false);
            }
            let pointee_done = self
                .t
                .type_state
                .get(pointee.index())
                .is_none_or(|s| *s == State::Done);
            match self.t.type_state[t.index()] {
                State::Done => {}
                _ if pointee_done => self.complete_pointer(t),
                State::Forward => {}
                _ => self.forward_declare(t, *storage_class),
            }
            self.after_type_done();
            return;
        }
        ty.referenced_types(|r| self.ensure_type(r, true));
        let result_id = self.ty_id(t);
        use Instruction as I;
        let inst = match ty {
            Type::Void => I::TypeVoid(OpTypeVoid { result_id }),
            Type::Bool => I::TypeBool(OpTypeBool { result_id }),
            Type::Int { width, signed } => I::TypeInt(OpTypeInt {
                result_id,
                width: *width,
                signedness: u32::from(*signed),
            }),
            Type::Float { width } => I::TypeFloat(OpTypeFloat::new(result_id, *width)),
            Type::Vector { component, count } => I::TypeVector(OpTypeVector {
                result_id,
                component_type: self.ty_id(*component),
                component_count: *count,
            }),
            Type::Matrix { column, count } => I::TypeMatrix(OpTypeMatrix {
                result_id,
                column_type: self.ty_id(*column),
                column_count: *count,
            }),
            Type::Array {
                element, length, ..
            } => {
                self.ensure_value(*length);
                I::TypeArray(OpTypeArray {
                    result_id,
                    element_type: self.ty_id(*element),
                    length: self.id(*length),
                })
            }
            Type::RuntimeArray { element, .. } => I::TypeRuntimeArray(OpTypeRuntimeArray {
                result_id,
                element_type: self.ty_id(*element),
            }),
            Type::Pointer { .. } => return,
            Type::Struct(s) => I::TypeStruct(OpTypeStruct {
                result_id,
                member_types: s.members.iter().map(|mem| self.ty_id(mem.ty)).collect(),
            }),
            Type::Image(img) => I::TypeImage(OpTypeImage {
                result_id,
                sampled_type: self.ty_id(img.sampled_type),
                dim: img.dim,
                depth: img.depth.to_u32(),
                arrayed: u32::from(img.arrayed),
                ms: u32::from(img.multisampled),
                sampled: img.sampled.to_u32(),
                image_format: img.format,
                access_qualifier: img.access,
            }),
            Type::SampledImage { image } => I::TypeSampledImage(OpTypeSampledImage {
                result_id,
                image_type: self.ty_id(*image),
            }),
            Type::Sampler => I::TypeSampler(OpTypeSampler { result_id }),
            Type::Function { ret, params } => I::TypeFunction(OpTypeFunction {
                result_id,
                return_type: self.ty_id(*ret),
                parameter_types: params.iter().map(|&p| self.ty_id(p)).collect(),
            }),
            Type::Event => I::TypeEvent(OpTypeEvent { result_id }),
            Type::DeviceEvent => I::TypeDeviceEvent(OpTypeDeviceEvent { result_id }),
            Type::ReserveId => I::TypeReserveId(OpTypeReserveId { result_id }),
            Type::Queue => I::TypeQueue(OpTypeQueue { result_id }),
            Type::Pipe { access } => I::TypePipe(OpTypePipe {
                result_id,
                qualifier: *access,
            }),
            Type::PipeStorage => I::TypePipeStorage(OpTypePipeStorage { result_id }),
            Type::NamedBarrier => I::TypeNamedBarrier(OpTypeNamedBarrier { result_id }),
            Type::Opaque { name } => I::TypeOpaque(OpTypeOpaque {
                result_id,
                the_name_of_the_opaque_type: name.clone(),
            }),
            Type::Other(inst) => {
                self.ensure_operands(inst, true);
                let mut inst = inst.clone();
                let mut first = true;
                inst.visit_ids_mut(&mut |id| {
                    if first {
                        *id = result_id;
                        first = false;
                    } else if let Some(v) = Value::from_id(*id) {
                        *id = self.id(v);
                    }
                });
                inst
            }
        };
        Self::emit(&mut self.t.globals_out, &inst);
        match ty {
            Type::Array { stride, .. } | Type::RuntimeArray { stride, .. } => {
                self.stride(result_id, *stride)
            }
            Type::Struct(s) => {
                self.name(result_id, &s.name);
                for (i, mem) in s.members.iter().enumerate() {
                    let member = i as u32;
                    if let Some(n) = &mem.name {
                        Self::emit(
                            &mut self.t.names,
                            &Instruction::MemberName(OpMemberName {
                                type_: result_id,
                                member,
                                name: n.clone(),
                            }),
                        );
                    }
                    if let Some(o) = mem.offset {
                        self.decorations(result_id, Some(member), &[Decoration::Offset(o)]);
                    }
                    self.decorations(result_id, Some(member), &mem.decorations);
                }
                self.decorations(result_id, None, &s.decorations);
            }
            _ => {}
        }
        self.type_annotations(t, result_id);
        self.t.type_state[t.index()] = State::Done;
        self.after_type_done();
    }

    /// Completes forward-declared pointers whose pointee is now written.
    fn after_type_done(&mut self) {
        let mut i = 0;
        while i < self.t.pending_pointers.len() {
            let p = self.t.pending_pointers[i];
            let ready = match self.m.types.get(p) {
                Some(Type::Pointer { pointee, .. }) => self
                    .t
                    .type_state
                    .get(pointee.index())
                    .is_none_or(|s| *s == State::Done),
                _ => true,
            };
            if ready {
                self.complete_pointer(p);
                i = 0;
            } else {
                i += 1;
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Constants, specialization constants, globals

    fn ensure_constant(&mut self, c: Handle<Constant>) {
        let i = c.index();
        while self.t.constant_cursor <= i && self.t.constant_cursor < self.t.constant_state.len() {
            let next = Handle::new(self.t.constant_cursor);
            self.t.constant_cursor += 1;
            if self.t.constant_state[next.index()] == State::NotStarted {
                self.write_constant(next);
            }
        }
    }

    fn write_constant(&mut self, h: Handle<Constant>) {
        let m = self.m;
        self.t.constant_state[h.index()] = State::InProgress;
        let c = &m.constants[h];
        self.ensure_type(c.ty, false);
        if let ConstantValue::Composite(cs) = &c.value {
            cs.iter().for_each(|&x| self.ensure_value(x));
        }
        self.ensure_decoration_operands(&c.decorations);
        if let ConstantValue::Other(inst) = &c.value {
            self.ensure_operands(inst, false);
        }
        let result_type = self.ty_id(c.ty);
        let result_id = self.id(Value::Constant(h));
        use Instruction as I;
        let mut continued = Vec::new();
        let inst = match &c.value {
            ConstantValue::Bool(true) => I::ConstantTrue(OpConstantTrue {
                result_type,
                result_id,
            }),
            ConstantValue::Bool(false) => I::ConstantFalse(OpConstantFalse {
                result_type,
                result_id,
            }),
            ConstantValue::Scalar(v) => I::Constant(OpConstant {
                result_type,
                result_id,
                value: v.clone(),
            }),
            ConstantValue::Composite(cs) => {
                let mut constituents: Vec<Id> = cs.iter().map(|&x| self.id(x)).collect();
                continued = long_composite_tail(&mut constituents);
                I::ConstantComposite(OpConstantComposite {
                    result_type,
                    result_id,
                    constituents,
                })
            }
            ConstantValue::Null => I::ConstantNull(OpConstantNull {
                result_type,
                result_id,
            }),
            ConstantValue::Undef => I::Undef(OpUndef {
                result_type,
                result_id,
            }),
            ConstantValue::Sampler {
                addressing,
                normalized,
                filter,
            } => I::ConstantSampler(OpConstantSampler {
                result_type,
                result_id,
                sampler_addressing_mode: *addressing,
                param: u32::from(*normalized),
                sampler_filter_mode: *filter,
            }),
            ConstantValue::Other(inst) => {
                let mut inst = inst.clone();
                let mut n = 0;
                inst.visit_ids_mut(&mut |id| {
                    n += 1;
                    match n {
                        1 => *id = result_type,
                        2 => *id = result_id,
                        _ => {
                            if let Some(v) = Value::from_id(*id) {
                                *id = self.id(v)
                            }
                        }
                    }
                });
                inst
            }
        };
        Self::emit(&mut self.t.globals_out, &inst);
        for constituents in continued {
            let more = OpConstantCompositeContinuedINTEL { constituents };
            Self::emit(
                &mut self.t.globals_out,
                &I::ConstantCompositeContinuedINTEL(more),
            );
        }
        self.name(result_id, &c.name);
        self.decorations(result_id, None, &c.decorations);
        self.t.constant_state[h.index()] = State::Done;
    }

    fn ensure_spec(&mut self, s: Handle<SpecConstant>) {
        let i = s.index();
        while self.t.spec_cursor <= i && self.t.spec_cursor < self.t.spec_state.len() {
            let next = Handle::new(self.t.spec_cursor);
            self.t.spec_cursor += 1;
            if self.t.spec_state[next.index()] == State::NotStarted {
                self.write_spec(next);
            }
        }
    }

    fn write_spec(&mut self, h: Handle<SpecConstant>) {
        let m = self.m;
        self.t.spec_state[h.index()] = State::InProgress;
        let s = &m.spec_constants[h];
        self.ensure_type(s.ty, false);
        match &s.value {
            SpecValue::Composite(vs) => vs.iter().for_each(|&v| self.ensure_value(v)),
            SpecValue::Op(op) => {
                let mut vs = Vec::new();
                op.visit_ids(&mut |id| vs.extend(Value::from_id(id)));
                vs.into_iter().for_each(|v| self.ensure_value(v));
            }
            _ => {}
        }
        let result_type = self.ty_id(s.ty);
        let result_id = self.id(Value::SpecConstant(h));
        use Instruction as I;
        let mut continued = Vec::new();
        let inst = match &s.value {
            SpecValue::Bool(true) => I::SpecConstantTrue(OpSpecConstantTrue {
                result_type,
                result_id,
            }),
            SpecValue::Bool(false) => I::SpecConstantFalse(OpSpecConstantFalse {
                result_type,
                result_id,
            }),
            SpecValue::Scalar(v) => I::SpecConstant(OpSpecConstant {
                result_type,
                result_id,
                value: v.clone(),
            }),
            SpecValue::Composite(vs) => {
                let mut constituents: Vec<Id> = vs.iter().map(|&v| self.id(v)).collect();
                continued = long_composite_tail(&mut constituents);
                I::SpecConstantComposite(OpSpecConstantComposite {
                    result_type,
                    result_id,
                    constituents,
                })
            }
            SpecValue::Op(op) => {
                let mut op = op.clone();
                op.visit_ids_mut(&mut |id| {
                    if let Some(v) = Value::from_id(*id) {
                        *id = self.id(v)
                    }
                });
                I::SpecConstantOp(OpSpecConstantOp {
                    result_type,
                    result_id,
                    opcode: op,
                })
            }
        };
        self.set_loc(s.loc, false);
        Self::emit(&mut self.t.globals_out, &inst);
        for constituents in continued {
            let more = OpSpecConstantCompositeContinuedINTEL { constituents };
            Self::emit(
                &mut self.t.globals_out,
                &Instruction::SpecConstantCompositeContinuedINTEL(more),
            );
        }
        self.name(result_id, &s.name);
        if let Some(id) = s.spec_id {
            self.decorations(result_id, None, &[Decoration::SpecId(id)]);
        }
        self.decorations(result_id, None, &s.decorations);
        self.t.spec_state[h.index()] = State::Done;
    }

    fn ensure_global(&mut self, g: Handle<super::module::GlobalVariable>) {
        let i = g.index();
        while self.t.global_cursor <= i && self.t.global_cursor < self.t.global_state.len() {
            let next = Handle::new(self.t.global_cursor);
            self.t.global_cursor += 1;
            if self.t.global_state[next.index()] == State::NotStarted {
                self.write_global(next);
            }
        }
    }

    fn write_global(&mut self, h: Handle<super::module::GlobalVariable>) {
        let m = self.m;
        self.t.global_state[h.index()] = State::InProgress;
        let g = &m.globals[h];
        self.ensure_type(g.ty, false);
        if let Some(i) = g.initializer {
            self.ensure_value(i);
        }
        let result_type = self.ty_id(g.ty);
        let result_id = self.id(Value::Global(h));
        let initializer = g.initializer.map(|i| self.id(i));
        self.set_loc(g.loc, false);
        Self::emit(
            &mut self.t.globals_out,
            &Instruction::Variable(OpVariable {
                result_type,
                result_id,
                storage_class: g.storage_class,
                initializer,
            }),
        );
        self.name(result_id, &g.name);
        self.decorations(result_id, None, &g.decorations);
        self.t.global_state[h.index()] = State::Done;
    }

    fn write_ext_inst(&mut self, h: Handle<super::module::ExtInst>, after_functions: bool) {
        let m = self.m;
        let e = &m.ext_insts[h];
        let mut inst = Instruction::ExtInst(e.inst.clone());
        let mut vs = Vec::new();
        m.visit_values(&inst, |v| vs.push(v));
        for v in vs {
            self.ensure_value(v);
        }
        self.set_loc(e.loc, after_functions);
        self.unpack(&mut inst);
        let out = if after_functions {
            &mut self.t.functions_out
        } else {
            &mut self.t.globals_out
        };
        Self::emit(out, &inst);
        let id = self.id(Value::ExtInst(h));
        self.name(id, &e.name);
    }

    // -----------------------------------------------------------------------------------------
    // Functions

    fn write_function(&mut self, fh: Handle<Function>) {
        let m = self.m;
        let f = &m.functions[fh];
        self.t.ops = IdTable::sized(f.ops.len());
        self.t.blocks = IdTable::sized(f.blocks.len());
        self.t.args = IdTable::sized(f.block_args.len());
        self.t.params = IdTable::sized(f.params.len());
        let ret = match m.types.get(f.ty) {
            Some(Type::Function { ret, .. }) => *ret,
            _ => f.ty,
        };
        let result_type = self.ty_id(ret);
        let result_id = self.id(Value::Function(fh));
        let function_type = self.ty_id(f.ty);
        self.set_loc(f.loc, true);
        Self::emit(
            &mut self.t.functions_out,
            &Instruction::Function(OpFunction {
                result_type,
                result_id,
                function_control: f.control,
                function_type,
            }),
        );
        self.name(result_id, &f.name);
        self.decorations(result_id, None, &f.decorations);
        for (i, p) in f.params.iter().enumerate() {
            let result_type = self.ty_id(p.ty);
            let result_id = self.id(Value::Param(i as u32));
            self.set_loc(p.loc, true);
            Self::emit(
                &mut self.t.functions_out,
                &Instruction::FunctionParameter(OpFunctionParameter {
                    result_type,
                    result_id,
                }),
            );
            self.name(result_id, &p.name);
            self.decorations(result_id, None, &p.decorations);
        }
        for &oh in &f.header {
            self.write_op(f, oh);
        }
        // Predecessor edges of blocks with arguments, in layout order, one per predecessor.
        let mut incoming: Vec<Vec<(Handle<Block>, &Successor)>> = Vec::new();
        if !f.block_args.is_empty() {
            incoming = vec![Vec::new(); f.blocks.len()];
            for (pred, b) in f.blocks.iter() {
                for s in b.terminator.successors() {
                    if let Some(v) = incoming.get_mut(s.block.index()) {
                        if !s.args.is_empty() && !v.iter().any(|(p, _)| *p == pred) {
                            v.push((pred, s));
                        }
                    }
                }
            }
        }
        for (bh, b) in f.blocks.iter() {
            let label = self.id(Value::Block(bh));
            Self::emit(
                &mut self.t.functions_out,
                &Instruction::Label(OpLabel { result_id: label }),
            );
            self.name(label, &b.name);
            for (i, &a) in b.args.iter().enumerate() {
                let Some(arg) = f.block_args.get(a) else {
                    continue;
                };
                let result_type = self.ty_id(arg.ty);
                let result_id = self.id(Value::BlockArg(a));
                let mut variables = Vec::new();
                for &(pred, s) in incoming.get(bh.index()).map_or(&[][..], |v| &v[..]) {
                    if let Some(&v) = s.args.get(i) {
                        variables.push((self.id(v), self.id(Value::Block(pred))));
                    }
                }
                self.set_loc(arg.loc, true);
                Self::emit(
                    &mut self.t.functions_out,
                    &Instruction::Phi(OpPhi {
                        result_type,
                        result_id,
                        variables,
                    }),
                );
                self.name(result_id, &arg.name);
                self.decorations(result_id, None, &arg.decorations);
            }
            for &oh in &b.ops {
                self.write_op(f, oh);
            }
            match &b.structure {
                Some(Structure::Selection {
                    merge,
                    control,
                    loc,
                }) => {
                    let merge_block = self.id(Value::Block(*merge));
                    self.set_loc(*loc, true);
                    Self::emit(
                        &mut self.t.functions_out,
                        &Instruction::SelectionMerge(OpSelectionMerge {
                            merge_block,
                            selection_control: *control,
                        }),
                    );
                }
                Some(Structure::Loop {
                    merge,
                    continue_target,
                    control,
                    loc,
                }) => {
                    let merge_block = self.id(Value::Block(*merge));
                    let continue_target = self.id(Value::Block(*continue_target));
                    self.set_loc(*loc, true);
                    Self::emit(
                        &mut self.t.functions_out,
                        // `into`: large instructions may be boxed in `Instruction`.
                        #[allow(clippy::useless_conversion)]
                        &Instruction::LoopMerge(
                            OpLoopMerge {
                                merge_block,
                                continue_target,
                                loop_control: control.clone(),
                            }
                            .into(),
                        ),
                    );
                }
                None => {}
            }
            let inst = self.terminator(&b.terminator);
            self.set_loc(b.terminator_loc, true);
            Self::emit(&mut self.t.functions_out, &inst);
            self.t.loc = None;
        }
        Self::emit(
            &mut self.t.functions_out,
            &Instruction::FunctionEnd(OpFunctionEnd {}),
        );
        self.t.loc = None;
    }

    fn write_op(&mut self, f: &Function, oh: Handle<super::function::Op>) {
        let Some(op) = f.ops.get(oh) else {
            return;
        };
        let mut inst = op.inst.clone();
        self.unpack(&mut inst);
        self.set_loc(op.loc, true);
        Self::emit(&mut self.t.functions_out, &inst);
        if let Some(id) = inst.result_id() {
            if let Some(a) = &op.attrs {
                self.name(id, &a.name);
                self.decorations(id, None, &a.decorations);
            }
        }
    }

    fn terminator(&mut self, t: &Terminator) -> Instruction {
        use Instruction as I;
        match t {
            Terminator::Branch(s) => I::Branch(OpBranch {
                target_label: self.id(Value::Block(s.block)),
            }),
            Terminator::BranchConditional {
                condition,
                true_target,
                false_target,
                weights,
            } => I::BranchConditional(OpBranchConditional {
                condition: self.id(*condition),
                true_label: self.id(Value::Block(true_target.block)),
                false_label: self.id(Value::Block(false_target.block)),
                branch_weights: weights.clone(),
            }),
            Terminator::Switch {
                selector,
                default,
                cases,
            } => I::Switch(OpSwitch {
                selector: self.id(*selector),
                default: self.id(Value::Block(default.block)),
                targets: cases
                    .iter()
                    .map(|(lit, s)| (lit.clone(), self.id(Value::Block(s.block))))
                    .collect(),
            }),
            Terminator::Return => I::Return(OpReturn {}),
            Terminator::ReturnValue(v) => I::ReturnValue(OpReturnValue { value: self.id(*v) }),
            Terminator::Unreachable => I::Unreachable(OpUnreachable {}),
            Terminator::Kill => I::Kill(OpKill {}),
            Terminator::Other(inst) => {
                let mut inst = inst.clone();
                self.unpack(&mut inst);
                inst
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // The module

    fn run(mut self) -> Vec<u32> {
        let m = self.m;
        for h in m.ext_inst_imports.handles() {
            self.id(Value::ExtInstSet(h));
        }
        for h in m.strings.handles() {
            self.id(Value::String(h));
        }
        for t in m.types.handles() {
            self.ensure_type(t, false);
        }
        for c in m.constants.handles() {
            self.ensure_constant(c);
        }
        for s in m.spec_constants.handles() {
            self.ensure_spec(s);
        }
        for g in m.globals.handles() {
            self.ensure_global(g);
        }
        for (e, x) in m.ext_insts.iter() {
            if !x.after_functions {
                self.write_ext_inst(e, false);
            }
        }
        while let Some(&p) = self.t.pending_pointers.first() {
            self.complete_pointer(p);
        }
        // Declarations precede definitions (some of which may be written already).
        let definitions = std::mem::take(&mut self.t.functions_out);
        for (h, f) in m.functions.iter() {
            if f.is_declaration() && !self.t.written[h.index()] {
                self.write_function(h);
            }
        }
        let declarations = std::mem::replace(&mut self.t.functions_out, definitions);
        for (h, f) in m.functions.iter() {
            if !f.is_declaration() && !self.t.written[h.index()] {
                self.write_function(h);
            }
        }
        for (e, x) in m.ext_insts.iter() {
            if x.after_functions {
                self.write_ext_inst(e, true);
            }
        }

        let mut head = Vec::with_capacity(256);
        for &c in &m.capabilities {
            Self::emit(
                &mut head,
                &Instruction::Capability(OpCapability { capability: c }),
            );
        }
        for e in &m.extensions {
            Self::emit(
                &mut head,
                &Instruction::Extension(OpExtension { name: e.clone() }),
            );
        }
        for (h, i) in m.ext_inst_imports.iter() {
            let result_id = self.id(Value::ExtInstSet(h));
            Self::emit(
                &mut head,
                &Instruction::ExtInstImport(OpExtInstImport {
                    result_id,
                    name: i.name.clone(),
                }),
            );
        }
        Self::emit(
            &mut head,
            &Instruction::MemoryModel(OpMemoryModel {
                addressing_model: m.addressing_model,
                memory_model: m.memory_model,
            }),
        );
        for e in &m.entry_points {
            let entry_point = self.id(Value::Function(e.function));
            let interfaces = e
                .interface
                .iter()
                .map(|&g| self.id(Value::Global(g)))
                .collect();
            Self::emit(
                &mut head,
                &Instruction::EntryPoint(OpEntryPoint {
                    execution_model: e.execution_model,
                    entry_point,
                    name: e.name.clone(),
                    interfaces,
                }),
            );
        }
        for e in &m.execution_modes {
            let entry_point = self.id(Value::Function(e.function));
            let mut mode = e.mode.clone();
            mode.visit_ids_mut(&mut |id| {
                if let Some(v) = Value::from_id(*id) {
                    *id = self.id(v)
                }
            });
            let inst = if mode_takes_ids(&mode) {
                Instruction::ExecutionModeId(OpExecutionModeId { entry_point, mode })
            } else {
                Instruction::ExecutionMode(OpExecutionMode { entry_point, mode })
            };
            Self::emit(&mut head, &inst);
        }
        for (h, s) in m.strings.iter() {
            let result_id = self.id(Value::String(h));
            Self::emit(
                &mut head,
                &Instruction::String(OpString {
                    result_id,
                    string: s.clone(),
                }),
            );
        }
        for e in &m.source_extensions {
            Self::emit(
                &mut head,
                &Instruction::SourceExtension(OpSourceExtension {
                    extension: e.clone(),
                }),
            );
        }
        for s in &m.sources {
            let file = s.file.map(|f| self.id(Value::String(f)));
            let mut chunks = s.text.as_deref().map(|t| split_source(t, file.is_some()));
            // The text operand follows the file operand, so without a file all the text goes
            // into `OpSourceContinued`.
            let first = match file {
                Some(_) => chunks.as_mut().and_then(|c| c.next()),
                None => None,
            };
            Self::emit(
                &mut head,
                &Instruction::Source(OpSource {
                    source_language: s.language,
                    version: s.version,
                    file,
                    source: first.map(str::to_owned),
                }),
            );
            for c in chunks.into_iter().flatten() {
                Self::emit(
                    &mut head,
                    &Instruction::SourceContinued(OpSourceContinued {
                        continued_source: c.to_owned(),
                    }),
                );
            }
        }
        head.append(&mut self.t.names);
        for p in &m.processes {
            Self::emit(
                &mut head,
                &Instruction::ModuleProcessed(OpModuleProcessed { process: p.clone() }),
            );
        }
        head.append(&mut self.t.annotations);

        let header = Header {
            version: m.version.word(),
            generator: m.generator,
            bound: self.t.next_id,
            schema: 0,
        };
        // The functions' words (most of the module) are not copied: the rest goes in front.
        let front = header
            .words()
            .into_iter()
            .chain(head)
            .chain(self.t.globals_out)
            .chain(declarations);
        let mut out = self.t.functions_out;
        out.splice(0..0, front);
        out
    }
}

/// Whether a decoration takes a string and is written with `OpDecorateString` (every
/// string-taking decoration but `LinkageAttributes`, which predates that instruction). Before
/// SPIR-V 1.4 only the `SPV_GOOGLE_decorate_string` ones (`UserSemantic`, `UserTypeGOOGLE`)
/// are: vendor decorations with strings (`MemoryINTEL`, `MergeINTEL`) go in `OpDecorate` there,
/// as their extensions define and spirv-as writes them.
fn takes_string(d: &Decoration, strings_ok: bool) -> bool {
    let n = d.value();
    !matches!(d, Decoration::LinkageAttributes(..))
        && (strings_ok || n == 5635 || n == 5636)
        && KIND_DECORATION.enumerant(d.value()).is_some_and(|e| {
            e.parameters
                .iter()
                .any(|p| p.kind.class == KindClass::String)
        })
}

/// Whether an execution mode's operands are ids (`OpExecutionModeId`).
fn mode_takes_ids(mode: &ExecutionMode) -> bool {
    KIND_EXECUTION_MODE
        .enumerant(mode.value())
        .is_some_and(|e| e.parameters.iter().any(|p| p.kind.class == KindClass::Id))
}

/// Splits source text into pieces that fit an instruction, at character boundaries.
fn split_source(text: &str, has_file: bool) -> impl Iterator<Item = &str> {
    // OpSource: opcode word, language, version, file; the string with its nul.
    let max_bytes = (0xffff - 4 - usize::from(has_file)) * 4 - 1;
    let mut rest = Some(text);
    core::iter::from_fn(move || {
        let r = rest?;
        if r.len() <= max_bytes {
            rest = None;
            return Some(r);
        }
        let mut cut = max_bytes;
        while !r.is_char_boundary(cut) {
            cut -= 1;
        }
        rest = Some(&r[cut..]);
        Some(&r[..cut])
    })
}

/// Splits off the constituents past what one composite instruction holds (65,535 words less
/// the word count, result type and id) into SPV_INTEL_long_composites continuations of up to
/// 65,534 each.
fn long_composite_tail(constituents: &mut Vec<Id>) -> Vec<Vec<Id>> {
    const FIRST: usize = 0xffff - 3;
    const NEXT: usize = 0xffff - 1;
    if constituents.len() <= FIRST {
        return Vec::new();
    }
    let rest = constituents.split_off(FIRST);
    rest.chunks(NEXT).map(<[Id]>::to_vec).collect()
}
