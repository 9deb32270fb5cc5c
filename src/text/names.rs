//! Friendly names for ids, as SPIRV-Tools' `FriendlyNameMapper` (2023.1) chooses them: one pass
//! over the module before printing.
//!
//! - `OpName` strings, sanitized (every byte outside `[A-Za-z0-9_]` becomes `_`, the empty
//!   string becomes `_`);
//! - `BuiltIn` decorations (`gl_Position`, `gl_GlobalInvocationID`, `SubgroupEqMaskKHR`, ...);
//! - scalar, vector, matrix, array, pointer and a few opaque types (`uint`, `v4float`,
//!   `mat4v4float`, `_arr_float_uint_4`, `_runtimearr_uint`, `_ptr_Function_float`,
//!   `_struct_12`, ...), `true`/`false` and `OpConstant`s (`uint_0`, `int_n1`, `float_0_5`);
//! - every other result id its decimal number.
//!
//! The first name given to an id wins. A name already taken gets the first free suffix `_0`,
//! `_1`, ...; decimal names of ids count as taken too.
//!
//! Storage is compact: one byte arena holding only the non-numeric names, a table from id to
//! name index, and an open-addressing set of name indices for the uniqueness checks.

use crate::binary::number_text::{write_literal_number, write_u32};
use crate::binary::print::{c_string, op_info, IdNames};
use crate::binary::{Frames, IdMap, NumericType, NumericTypes, HEADER_WORDS};
use crate::grammar::tables::{KIND_ACCESS_QUALIFIER, KIND_STORAGE_CLASS};
use crate::grammar::{op, values, KindDesc};
use rustc_hash::FxHashMap as HashMap;

/// The id has no name yet.
const UNNAMED: u32 = 0;
/// The id is named by its decimal number.
const NUMERIC: u32 = 1;

/// The friendly names of a module's ids.
pub(crate) struct Names {
    ids: IdMap<u32>,
    /// Name `k` is `arena[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    arena: Vec<u8>,
    /// Open-addressing hash set of name indices plus one (zero: empty slot).
    set: Vec<u32>,
    /// Next suffix to try for a base name that was taken (the suffix loop restarts there).
    next_suffix: HashMap<Box<[u8]>, u32>,
    /// Whether a stored name is the decimal spelling of a number (only then can an id's
    /// decimal name be taken).
    decimal_names: bool,
    scratch: Vec<u8>,
}

/// The Fx hash of a name, finished with murmur3's finalizer so that every input bit reaches
/// the low bits the open-addressing set indexes by.
fn hash(s: &[u8]) -> u64 {
    use core::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(s);
    let mut h = h.finish();
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Whether `s` is the decimal spelling of an id (no sign, no leading zero).
fn decimal_id(s: &[u8]) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || (s[0] == b'0' && s.len() > 1) {
        return None;
    }
    let mut v: u64 = 0;
    for &c in s {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(c - b'0');
    }
    u32::try_from(v).ok()
}

fn sanitize(s: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if s.is_empty() {
        out.push(b'_');
        return;
    }
    out.extend(s.iter().map(|&c| {
        if c.is_ascii_alphanumeric() || c == b'_' {
            c
        } else {
            b'_'
        }
    }));
}

/// The name SPIRV-Tools gives a variable decorated with this built-in, if any.
fn built_in_name(b: u32) -> Option<&'static str> {
    use crate::grammar::BuiltIn as B;
    Some(match B::from_value(b)? {
        B::Position => "gl_Position",
        B::PointSize => "gl_PointSize",
        B::ClipDistance => "gl_ClipDistance",
        B::CullDistance => "gl_CullDistance",
        B::VertexId => "gl_VertexID",
        B::InstanceId => "gl_InstanceID",
        B::PrimitiveId => "gl_PrimitiveID",
        B::InvocationId => "gl_InvocationID",
        B::Layer => "gl_Layer",
        B::ViewportIndex => "gl_ViewportIndex",
        B::TessLevelOuter => "gl_TessLevelOuter",
        B::TessLevelInner => "gl_TessLevelInner",
        B::TessCoord => "gl_TessCoord",
        B::PatchVertices => "gl_PatchVertices",
        B::FragCoord => "gl_FragCoord",
        B::PointCoord => "gl_PointCoord",
        B::FrontFacing => "gl_FrontFacing",
        B::SampleId => "gl_SampleID",
        B::SamplePosition => "gl_SamplePosition",
        B::SampleMask => "gl_SampleMask",
        B::FragDepth => "gl_FragDepth",
        B::HelperInvocation => "gl_HelperInvocation",
        B::NumWorkgroups => "gl_NumWorkGroups",
        B::WorkgroupSize => "gl_WorkGroupSize",
        B::WorkgroupId => "gl_WorkGroupID",
        B::LocalInvocationId => "gl_LocalInvocationID",
        B::GlobalInvocationId => "gl_GlobalInvocationID",
        B::LocalInvocationIndex => "gl_LocalInvocationIndex",
        B::WorkDim => "WorkDim",
        B::GlobalSize => "GlobalSize",
        B::EnqueuedWorkgroupSize => "EnqueuedWorkgroupSize",
        B::GlobalOffset => "GlobalOffset",
        B::GlobalLinearId => "GlobalLinearId",
        B::SubgroupSize => "SubgroupSize",
        B::SubgroupMaxSize => "SubgroupMaxSize",
        B::NumSubgroups => "NumSubgroups",
        B::NumEnqueuedSubgroups => "NumEnqueuedSubgroups",
        B::SubgroupId => "SubgroupId",
        B::SubgroupLocalInvocationId => "SubgroupLocalInvocationId",
        B::VertexIndex => "gl_VertexIndex",
        B::InstanceIndex => "gl_InstanceIndex",
        B::SubgroupEqMask => "SubgroupEqMaskKHR",
        B::SubgroupGeMask => "SubgroupGeMaskKHR",
        B::SubgroupGtMask => "SubgroupGtMaskKHR",
        B::SubgroupLeMask => "SubgroupLeMaskKHR",
        B::SubgroupLtMask => "SubgroupLtMaskKHR",
        B::BaseInstance => "gl_BaseInstance",
        _ => return None,
    })
}

impl IdNames for Names {
    #[inline]
    fn name(&self, id: u32) -> Option<&[u8]> {
        self.get(id)
    }
}

impl Names {
    /// Names the ids of a module (`words`, header included, already checked). The pass is
    /// lenient: it stops quietly at the first malformed instruction, which the printer then
    /// reports.
    pub(crate) fn build(words: &[u32], bound: u32) -> Names {
        let dense = (bound as usize).min(words.len() + 1);
        let mut n = Names {
            ids: IdMap::preallocated(dense),
            starts: vec![0],
            arena: Vec::new(),
            set: vec![0; 64],
            next_suffix: HashMap::default(),
            decimal_names: false,
            scratch: Vec::new(),
        };
        let mut numeric = NumericTypes::new(dense);
        let mut buf: Vec<u8> = Vec::with_capacity(64);
        for raw in Frames::new(words, HEADER_WORDS).map_while(Result::ok) {
            let (opcode, ops) = (raw.opcode, raw.operands);
            let Some(info) = op_info(opcode) else { break };
            let result = if info.has_result {
                ops.get(usize::from(info.has_type)).copied()
            } else {
                None
            };
            let w = |i: usize| ops.get(i).copied();
            match opcode {
                op::Name => {
                    if let Some(target) = w(0) {
                        n.save(target, c_string(&ops[1..]));
                    }
                }
                op::Decorate => {
                    if let (Some(target), Some(values::decoration::BuiltIn), Some(b)) =
                        (w(0), w(1), w(2))
                    {
                        if let Some(name) = built_in_name(b) {
                            n.save(target, name.as_bytes());
                        }
                    }
                }
                op::TypeVoid
                | op::TypeBool
                | op::TypeEvent
                | op::TypeDeviceEvent
                | op::TypeReserveId
                | op::TypeQueue
                | op::TypePipeStorage
                | op::TypeNamedBarrier => {
                    let name: &[u8] = match opcode {
                        op::TypeVoid => b"void",
                        op::TypeBool => b"bool",
                        op::TypeEvent => b"Event",
                        op::TypeDeviceEvent => b"DeviceEvent",
                        op::TypeReserveId => b"ReserveId",
                        op::TypeQueue => b"Queue",
                        op::TypePipeStorage => b"PipeStorage",
                        _ => b"NamedBarrier",
                    };
                    if let Some(r) = w(0) {
                        n.save(r, name);
                    }
                }
                op::TypeInt => {
                    if let (Some(r), Some(width), Some(signed)) = (w(0), w(1), w(2)) {
                        let signed = signed != 0;
                        numeric.define_type(r, NumericType::Int { width, signed });
                        buf.clear();
                        if !signed {
                            buf.push(b'u');
                        }
                        match width {
                            8 => buf.extend_from_slice(b"char"),
                            16 => buf.extend_from_slice(b"short"),
                            32 => buf.extend_from_slice(b"int"),
                            64 => buf.extend_from_slice(b"long"),
                            _ => {
                                if signed {
                                    buf.push(b'i');
                                }
                                write_u32(&mut buf, width);
                            }
                        }
                        n.save(r, &buf);
                    }
                }
                op::TypeFloat => {
                    if let (Some(r), Some(width)) = (w(0), w(1)) {
                        numeric.define_type(r, NumericType::Float { width });
                        buf.clear();
                        match width {
                            16 => buf.extend_from_slice(b"half"),
                            32 => buf.extend_from_slice(b"float"),
                            64 => buf.extend_from_slice(b"double"),
                            _ => {
                                buf.extend_from_slice(b"fp");
                                write_u32(&mut buf, width);
                            }
                        }
                        n.save(r, &buf);
                    }
                }
                op::TypeVector | op::TypeMatrix => {
                    if let (Some(r), Some(component), Some(count)) = (w(0), w(1), w(2)) {
                        buf.clear();
                        buf.extend_from_slice(if opcode == op::TypeVector {
                            b"v"
                        } else {
                            b"mat"
                        });
                        write_u32(&mut buf, count);
                        n.write_name(component, &mut buf);
                        n.save(r, &buf);
                    }
                }
                op::TypeArray => {
                    if let (Some(r), Some(element), Some(length)) = (w(0), w(1), w(2)) {
                        buf.clear();
                        buf.extend_from_slice(b"_arr_");
                        n.write_name(element, &mut buf);
                        buf.push(b'_');
                        n.write_name(length, &mut buf);
                        n.save(r, &buf);
                    }
                }
                op::TypeRuntimeArray => {
                    if let (Some(r), Some(element)) = (w(0), w(1)) {
                        buf.clear();
                        buf.extend_from_slice(b"_runtimearr_");
                        n.write_name(element, &mut buf);
                        n.save(r, &buf);
                    }
                }
                op::TypePointer => {
                    if let (Some(r), Some(class), Some(pointee)) = (w(0), w(1), w(2)) {
                        buf.clear();
                        buf.extend_from_slice(b"_ptr_");
                        enum_name(&KIND_STORAGE_CLASS, class, &mut buf);
                        buf.push(b'_');
                        n.write_name(pointee, &mut buf);
                        n.save(r, &buf);
                    }
                }
                op::TypePipe => {
                    if let (Some(r), Some(access)) = (w(0), w(1)) {
                        buf.clear();
                        buf.extend_from_slice(b"Pipe");
                        enum_name(&KIND_ACCESS_QUALIFIER, access, &mut buf);
                        n.save(r, &buf);
                    }
                }
                op::TypeOpaque => {
                    if let Some(r) = w(0) {
                        buf.clear();
                        buf.extend_from_slice(b"Opaque_");
                        let mut part = std::mem::take(&mut n.scratch);
                        sanitize(c_string(&ops[1..]), &mut part);
                        buf.extend_from_slice(&part);
                        n.scratch = part;
                        n.save(r, &buf);
                    }
                }
                op::TypeStruct => {
                    if let Some(r) = w(0) {
                        buf.clear();
                        buf.extend_from_slice(b"_struct_");
                        write_u32(&mut buf, r);
                        n.save(r, &buf);
                    }
                }
                op::ConstantTrue | op::ConstantFalse => {
                    if let Some(r) = w(1) {
                        n.save(
                            r,
                            if opcode == op::ConstantTrue {
                                b"true"
                            } else {
                                b"false"
                            },
                        );
                    }
                }
                op::Constant => {
                    if let (Some(ty), Some(r)) = (w(0), w(1)) {
                        buf.clear();
                        n.write_name(ty, &mut buf);
                        buf.push(b'_');
                        if let Some(t) = numeric.numeric_type(ty) {
                            let value = &ops[2..];
                            let value = &value[..t.words().min(value.len())];
                            let start = buf.len();
                            write_literal_number(&mut buf, t, value);
                            for c in &mut buf[start..] {
                                if *c == b'-' {
                                    *c = b'n';
                                }
                            }
                        }
                        n.save(r, &buf);
                    }
                }
                _ => {
                    if let Some(r) = result {
                        n.save_numeric(r);
                    }
                }
            }
        }
        n.next_suffix = HashMap::default();
        n.scratch = Vec::new();
        n
    }

    /// The friendly name of `id`; `None` when it is its decimal number.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> Option<&[u8]> {
        let v = self.ids.get(id);
        if v <= NUMERIC {
            return None;
        }
        let k = (v - 2) as usize;
        Some(&self.arena[self.starts[k] as usize..self.starts[k + 1] as usize])
    }

    fn write_name(&self, id: u32, out: &mut Vec<u8>) {
        match self.get(id) {
            Some(s) => out.extend_from_slice(s),
            None => write_u32(out, id),
        }
    }

    fn name_at(&self, k: u32) -> &[u8] {
        let k = k as usize;
        &self.arena[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    fn in_set(&self, s: &[u8], h: u64) -> bool {
        let mask = self.set.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let k = self.set[i];
            if k == 0 {
                return false;
            }
            if self.name_at(k - 1) == s {
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn insert_set(set: &mut [u32], k: u32, h: u64) {
        let mask = set.len() - 1;
        let mut i = h as usize & mask;
        while set[i] != 0 {
            i = (i + 1) & mask;
        }
        set[i] = k + 1;
    }

    /// Whether a name is taken: by a stored name, or as the decimal name of an id.
    fn taken(&self, s: &[u8], h: u64) -> bool {
        if self.in_set(s, h) {
            return true;
        }
        matches!(decimal_id(s), Some(id) if self.ids.get(id) == NUMERIC)
    }

    /// Stores `s` (known not taken) as the name of `id`.
    fn assign(&mut self, id: u32, s: &[u8], h: u64) {
        let k = (self.starts.len() - 1) as u32;
        if decimal_id(s).is_some() {
            self.decimal_names = true;
        }
        self.arena.extend_from_slice(s);
        self.starts.push(self.arena.len() as u32);
        if (k as usize + 1) * 2 > self.set.len() {
            let mut set = vec![0u32; self.set.len() * 2];
            for j in 0..k {
                Self::insert_set(&mut set, j, hash(self.name_at(j)));
            }
            self.set = set;
        }
        Self::insert_set(&mut self.set, k, h);
        self.ids.set(id, k + 2);
    }

    /// Gives `id` the sanitized `suggested` name, or its first free suffixed form, unless it
    /// already has a name.
    fn save(&mut self, id: u32, suggested: &[u8]) {
        if self.ids.get(id) != UNNAMED {
            return;
        }
        let mut s = std::mem::take(&mut self.scratch);
        sanitize(suggested, &mut s);
        self.save_sanitized(id, &mut s);
        self.scratch = s;
    }

    fn save_sanitized(&mut self, id: u32, s: &mut Vec<u8>) {
        let h = hash(s);
        if !self.taken(s, h) {
            self.assign(id, s, h);
            return;
        }
        let base_len = s.len();
        let mut index = self.next_suffix.get(&s[..]).copied().unwrap_or(0);
        loop {
            s.truncate(base_len);
            s.push(b'_');
            write_u32(s, index);
            index += 1;
            let h = hash(s);
            if !self.taken(s, h) {
                self.assign(id, s, h);
                break;
            }
        }
        s.truncate(base_len);
        match self.next_suffix.get_mut(&s[..]) {
            Some(v) => *v = index,
            None => {
                self.next_suffix.insert(s[..].into(), index);
            }
        }
    }

    /// Gives `id` its decimal name (or a suffixed form when that is taken) unless it has one.
    fn save_numeric(&mut self, id: u32) {
        if self.ids.get(id) != UNNAMED {
            return;
        }
        if !self.decimal_names {
            self.ids.set(id, NUMERIC);
            return;
        }
        let mut s = std::mem::take(&mut self.scratch);
        s.clear();
        write_u32(&mut s, id);
        if self.in_set(&s, hash(&s)) {
            self.save_sanitized(id, &mut s);
        } else {
            self.ids.set(id, NUMERIC);
        }
        self.scratch = s;
    }
}

/// Appends the grammar name of an enumerant, or `StorageClass<value>` for an unknown value
/// (what SPIRV-Tools writes for any kind).
fn enum_name(kind: &KindDesc, value: u32, out: &mut Vec<u8>) {
    match kind.enumerant(value) {
        Some(e) => out.extend_from_slice(e.name.as_bytes()),
        None => {
            out.extend_from_slice(b"StorageClass");
            write_u32(out, value);
        }
    }
}
