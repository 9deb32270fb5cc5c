//! Explicit layout of buffer blocks: the structure of every Uniform, StorageBuffer,
//! PushConstant and PhysicalStorageBuffer variable that is a `Block` or `BufferBlock` must be
//! laid out explicitly (Offset on every member, ArrayStride on arrays, MatrixStride and
//! RowMajor/ColMajor on matrices), and in Vulkan the offsets and strides must follow the
//! standard uniform buffer (std140) or storage buffer (std430) rules, relaxed from Vulkan 1.1
//! (vectors need only be aligned to their component and must not straddle 16 bytes).
//!
//! Hand-written because layout rules are arithmetic over types and decorations that the
//! grammar does not describe. The computation follows `spirv-val`'s (`checkLayout` and its
//! helpers), so messages name the same member and offset.

use super::module::{deco, Module};
use super::query::Ty;
use super::Cx;
use crate::grammar::{AddressingModel, Capability, StorageClass};
use crate::target_env::TargetEnv;
use std::collections::HashMap;

/// Majorness and strides a struct member inherits.
#[derive(Clone, Copy, Debug, Default)]
struct Constraint {
    row_major: bool,
    matrix_stride: u32,
}

/// Constraints of each (struct, member).
type Constraints = HashMap<(u32, u32), Constraint>;

struct Layout<'a> {
    m: &'a Module<'a>,
    constraints: Constraints,
    /// std140 (uniform buffer) rules rather than std430.
    block_rules: bool,
    relaxed: bool,
    /// Scalar alignment only (`--scalar-block-layout`).
    scalar: bool,
    pointer_size: u32,
    depth: u32,
}

fn align(x: u32, a: u32) -> u32 {
    if a == 0 {
        x
    } else {
        x.div_ceil(a).saturating_mul(a)
    }
}

fn aligned(offset: u32, a: u32) -> bool {
    if a == 0 {
        offset == 0
    } else {
        offset.is_multiple_of(a)
    }
}

impl Layout<'_> {
    fn members(&self, s: u32) -> &[u32] {
        match self.m.ty(s) {
            Some(Ty::Struct { members }) => members,
            _ => &[],
        }
    }

    fn constraint(&self, s: u32, i: u32) -> Constraint {
        self.constraints.get(&(s, i)).copied().unwrap_or_default()
    }

    fn compute(&mut self, s: u32, inherited: Constraint, depth: u32) {
        if depth > 32 {
            return;
        }
        let members = self.members(s).to_vec();
        for (i, &t) in members.iter().enumerate() {
            let mut c = inherited;
            for d in self.m.decorations_of(s) {
                if d.member != i as u32 {
                    continue;
                }
                match d.kind {
                    deco::RowMajor => c.row_major = true,
                    deco::ColMajor => c.row_major = false,
                    deco::MatrixStride => c.matrix_stride = d.arg,
                    _ => {}
                }
            }
            match self.m.ty(t) {
                Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
                    let mut e = element;
                    for _ in 0..32 {
                        match self.m.ty(e) {
                            Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
                                e = element
                            }
                            Some(Ty::Struct { .. }) => {
                                self.compute(e, c, depth + 1);
                                break;
                            }
                            _ => break,
                        }
                    }
                }
                Some(Ty::Struct { .. }) => self.compute(t, c, depth + 1),
                _ => {}
            }
            self.constraints.insert((s, i as u32), c);
        }
    }

    fn base_alignment(&self, t: u32, c: Constraint, depth: u32) -> u32 {
        if depth > 32 {
            return 1;
        }
        if self.scalar {
            return self.scalar_alignment(t, depth);
        }
        let round = self.block_rules;
        match self.m.ty(t) {
            Some(Ty::Int { width, .. } | Ty::Float { width }) => width / 8,
            Some(Ty::Vector { component, count }) => self
                .base_alignment(component, c, depth + 1)
                .saturating_mul(if count == 3 { 4 } else { count }),
            Some(Ty::Matrix { column, count }) => {
                let a = if !c.row_major {
                    self.base_alignment(column, c, depth + 1)
                } else {
                    let comp = self.m.component_type(column).unwrap_or(0);
                    self.base_alignment(comp, c, depth + 1)
                        .saturating_mul(if count == 3 { 4 } else { count })
                };
                if round {
                    align(a, 16)
                } else {
                    a
                }
            }
            Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
                let a = self.base_alignment(element, c, depth + 1);
                if round {
                    align(a, 16)
                } else {
                    a
                }
            }
            Some(Ty::Struct { members }) => {
                let mut a = 1;
                for (i, &mt) in members.iter().enumerate() {
                    let mc = self.constraint(t, i as u32);
                    a = a.max(self.base_alignment(mt, mc, depth + 1));
                }
                if round {
                    align(a, 16)
                } else {
                    a
                }
            }
            Some(Ty::Pointer { .. }) => self.pointer_size,
            _ => 1,
        }
    }

    fn scalar_alignment(&self, t: u32, depth: u32) -> u32 {
        if depth > 32 {
            return 1;
        }
        match self.m.ty(t) {
            Some(Ty::Int { width, .. } | Ty::Float { width }) => width / 8,
            Some(
                Ty::Vector { component: e, .. }
                | Ty::Matrix { column: e, .. }
                | Ty::Array { element: e, .. }
                | Ty::RuntimeArray { element: e },
            ) => self.scalar_alignment(e, depth + 1),
            Some(Ty::Struct { members }) => members
                .iter()
                .map(|&x| self.scalar_alignment(x, depth + 1))
                .max()
                .unwrap_or(1)
                .max(1),
            Some(Ty::Pointer { .. }) => self.pointer_size,
            _ => 1,
        }
    }

    fn size(&self, t: u32, c: Constraint, depth: u32) -> u32 {
        if depth > 32 {
            return 0;
        }
        match self.m.ty(t) {
            Some(Ty::Int { width, .. } | Ty::Float { width }) => width / 8,
            Some(Ty::Vector { component, count }) => {
                self.size(component, c, depth + 1).saturating_mul(count)
            }
            Some(Ty::Array { element, length }) => {
                let Some(n) = self.m.const_int(length) else {
                    return 0;
                };
                let n = n.clamp(1, i128::from(u32::MAX)) as u32;
                let stride = self
                    .m
                    .decoration_arg(t, u32::MAX, deco::ArrayStride)
                    .unwrap_or(0);
                stride
                    .saturating_mul(n - 1)
                    .saturating_add(self.size(element, c, depth + 1))
            }
            Some(Ty::RuntimeArray { .. }) => 0,
            Some(Ty::Matrix { column, count }) => {
                if !c.row_major {
                    count.saturating_mul(c.matrix_stride)
                } else {
                    let rows = self.m.dimension(column);
                    let comp = self.m.component_type(column).unwrap_or(0);
                    (rows.saturating_sub(1))
                        .saturating_mul(c.matrix_stride)
                        .saturating_add(count.saturating_mul(self.size(comp, c, depth + 1)))
                }
            }
            Some(Ty::Struct { members }) => {
                let Some((last, &lt)) = members.iter().enumerate().next_back() else {
                    return 0;
                };
                let offset = self
                    .m
                    .decoration_arg(t, last as u32, deco::Offset)
                    .unwrap_or(0);
                let lc = self.constraint(t, last as u32);
                offset.saturating_add(self.size(lt, lc, depth + 1))
            }
            Some(Ty::Pointer { .. }) => self.pointer_size,
            _ => 0,
        }
    }

    /// Checks a struct placed at `base`; the message names the first violation.
    fn check(&mut self, s: u32, base: u32) -> Result<(), String> {
        self.depth += 1;
        let r = self.check_inner(s, base);
        self.depth -= 1;
        r
    }

    fn check_inner(&mut self, s: u32, base: u32) -> Result<(), String> {
        if self.depth > 16 {
            return Ok(());
        }
        let members = self.members(s).to_vec();
        let mut order: Vec<(u32, u32)> = (0..members.len() as u32)
            .map(|i| {
                let off = self
                    .m
                    .decoration_arg(s, i, deco::Offset)
                    .unwrap_or(u32::MAX);
                (
                    i,
                    if off == u32::MAX {
                        off
                    } else {
                        base.saturating_add(off)
                    },
                )
            })
            .collect();
        order.sort_by_key(|&(_, off)| off);
        let mut next_valid = 0u32;
        for (i, offset) in order {
            let fail = |msg: String| Err(format!("member {i} {msg}"));
            let t = members[i as usize];
            let c = self.constraint(s, i);
            let alignment = self.base_alignment(t, c, 0);
            let size = self.size(t, c, 0);
            if offset == u32::MAX {
                return fail("is missing an Offset decoration".into());
            }
            let ty = self.m.ty(t);
            if let (true, false, Some(Ty::Vector { component, .. })) =
                (self.relaxed, self.scalar, ty)
            {
                let sa = self.scalar_alignment(component, 0);
                if !aligned(offset, sa) {
                    return fail(format!(
                        "at offset {offset} is not aligned to scalar element size {sa}"
                    ));
                }
            } else if !aligned(offset, alignment) {
                return fail(format!("at offset {offset} is not aligned to {alignment}"));
            }
            if offset < next_valid {
                return fail(format!(
                    "at offset {offset} overlaps previous member ending at offset {}",
                    next_valid - 1
                ));
            }
            if self.relaxed && !self.scalar && matches!(ty, Some(Ty::Vector { .. })) {
                let last = offset.saturating_add(size).saturating_sub(1);
                let straddles = if size <= 16 {
                    offset / 16 != last / 16
                } else {
                    offset % 16 != 0
                };
                if straddles {
                    return fail(format!(
                        "is an improperly straddling vector at offset {offset}"
                    ));
                }
            }
            if matches!(ty, Some(Ty::Struct { .. })) {
                self.check(t, offset)?;
            }
            if matches!(ty, Some(Ty::Matrix { .. })) && !aligned(c.matrix_stride, alignment) {
                return fail(format!(
                    "is a matrix with stride {} not satisfying alignment to {alignment}",
                    c.matrix_stride
                ));
            }
            // Arrays, recursively.
            let mut arr = t;
            let mut arr_align = alignment;
            for _ in 0..32 {
                let (element, length) = match self.m.ty(arr) {
                    Some(Ty::Array { element, length }) => (element, Some(length)),
                    Some(Ty::RuntimeArray { element }) => (element, None),
                    _ => break,
                };
                let mut stride = 0;
                if let Some(st) = self.m.decoration_arg(arr, u32::MAX, deco::ArrayStride) {
                    stride = st;
                    if st == 0 {
                        return fail("contains an array with stride 0".into());
                    }
                    if !aligned(st, arr_align) {
                        return fail(format!(
                            "contains an array with stride {st} not satisfying alignment to \
                             {alignment}"
                        ));
                    }
                }
                let n = length
                    .and_then(|l| self.m.const_int(l))
                    .filter(|_| {
                        length
                            .is_some_and(|l| self.m.bit_width(self.m.type_of(l).unwrap_or(0)) == 32)
                    })
                    .map_or(1, |n| n.clamp(1, 1 << 20) as u32);
                match self.m.ty(element) {
                    Some(Ty::Struct { .. }) => {
                        let mut seen = [false; 16];
                        for k in 0..n {
                            let at = k.saturating_mul(stride).saturating_add(offset);
                            if seen[(at % 16) as usize] {
                                break;
                            }
                            self.check(element, at)?;
                            seen[(at % 16) as usize] = true;
                        }
                    }
                    Some(Ty::Matrix { .. }) => {
                        if !aligned(c.matrix_stride, alignment) {
                            return fail(format!(
                                "is a matrix with stride {} not satisfying alignment to \
                                 {alignment}",
                                c.matrix_stride
                            ));
                        }
                    }
                    _ => {}
                }
                arr = element;
                arr_align = self.base_alignment(arr, c, 0);
                let elem_size = self.size(element, c, 0);
                if elem_size > stride {
                    return fail(format!(
                        "contains an array with stride {stride}, but with an element size of \
                         {elem_size}"
                    ));
                }
            }
            next_valid = offset.saturating_add(size);
            if matches!(ty, Some(Ty::Array { .. } | Ty::Struct { .. })) {
                next_valid = align(next_valid, alignment);
            }
        }
        Ok(())
    }
}

/// Whether struct `s` (or a struct inside it, through arrays) lacks an Offset on a member.
fn missing_offset(m: &Module<'_>, t: u32, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    match m.ty(t) {
        Some(Ty::Struct { members }) => {
            let mut has = vec![false; members.len()];
            for d in m.decorations_of(t) {
                if d.kind == deco::Offset && d.member != u32::MAX {
                    if d.arg == u32::MAX {
                        return true;
                    }
                    if let Some(h) = has.get_mut(d.member as usize) {
                        *h = true;
                    }
                }
            }
            !has.iter().all(|&h| h) || members.iter().any(|&x| missing_offset(m, x, depth + 1))
        }
        Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
            missing_offset(m, element, depth + 1)
        }
        _ => false,
    }
}

/// Whether every direct member of struct `s` whose type declaration is `want` has a
/// decoration accepted by `ok` (on the member or on its type), recursively through direct
/// struct members.
fn has_required(
    m: &Module<'_>,
    s: u32,
    want: fn(&Ty<'_>) -> bool,
    ok: fn(u32) -> bool,
    depth: u32,
) -> bool {
    if depth > 32 {
        return true;
    }
    let Some(Ty::Struct { members }) = m.ty(s) else {
        return true;
    };
    for (i, &t) in members.iter().enumerate() {
        if !m.ty(t).is_some_and(|ty| want(&ty)) {
            continue;
        }
        let found = m
            .decorations_of(t)
            .iter()
            .any(|d| d.member == u32::MAX && ok(d.kind))
            || m.decorations_of(s)
                .iter()
                .any(|d| d.member == i as u32 && ok(d.kind));
        if !found {
            return false;
        }
    }
    members.iter().all(|&t| {
        !matches!(m.ty(t), Some(Ty::Struct { .. })) || has_required(m, t, want, ok, depth + 1)
    })
}

/// Checks the blocks of every buffer variable.
pub(super) fn finish(cx: &mut Cx<'_>) {
    let m = cx.m;
    let pointer_size = match m.memory_models.first().map(|&i| m.inst(i).word(0)) {
        Some(a) if a == AddressingModel::Physical32.value() => 4,
        _ => 8,
    };
    let relaxed =
        cx.options.relax_block_layout || (cx.env.is_vulkan() && cx.env != TargetEnv::Vulkan1_0);
    let mut done: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
    let workgroup_layout = m
        .capabilities
        .has(Capability::WorkgroupMemoryExplicitLayoutKHR);
    for i in 0..m.len() as u32 {
        let inst = m.inst(i);
        if inst.op() != Some(crate::grammar::Opcode::Variable) || cx.m.function_at(i).is_some() {
            continue;
        }
        let storage = inst.word(2);
        use StorageClass as S;
        let uniform = storage == S::Uniform.value();
        let push = storage == S::PushConstant.value();
        let ssbo = storage == S::StorageBuffer.value();
        let psb = storage == S::PhysicalStorageBuffer.value();
        let workgroup = storage == S::Workgroup.value() && workgroup_layout;
        if !(uniform || push || ssbo || psb || workgroup) {
            continue;
        }
        let Some((_, mut id)) = m.pointer(inst.word(0)) else {
            continue;
        };
        if !workgroup {
            if let Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) = m.ty(id) {
                id = element;
            }
        }
        if !matches!(m.ty(id), Some(Ty::Struct { .. })) || !done.insert((id, storage)) {
            continue;
        }
        let struct_inst = match m.def(id) {
            Some(d) => d,
            None => continue,
        };
        let block = m.has_decoration(id, deco::Block);
        let buffer_block = m.has_decoration(id, deco::BufferBlock);
        for (is_block, name) in [(true, "Block"), (false, "BufferBlock")] {
            if !(if is_block { block } else { buffer_block }) {
                continue;
            }
            let uniform_block = uniform && is_block;
            let buffer_rules =
                (uniform && !is_block) || ((push || ssbo || psb || workgroup) && is_block);
            if !uniform_block && !buffer_rules {
                continue;
            }
            // std140 unless `--uniform-buffer-standard-layout` asks for std430.
            let block_rules = uniform_block && !cx.options.uniform_buffer_standard_layout;
            let mut err = |msg: String| cx.sink.push(struct_inst.offset, "core:block-layout", msg);
            if missing_offset(m, id, 0) {
                err(format!(
                    "structure %{id} decorated {name} must be laid out explicitly with Offset \
                     decorations"
                ));
                continue;
            }
            if !has_required(
                m,
                id,
                |t| matches!(t, Ty::Array { .. }),
                |k| k == deco::ArrayStride,
                0,
            ) {
                err(format!(
                    "structure %{id} decorated {name} must be laid out explicitly with \
                     ArrayStride decorations"
                ));
                continue;
            }
            if !has_required(
                m,
                id,
                |t| matches!(t, Ty::Matrix { .. }),
                |k| k == deco::MatrixStride,
                0,
            ) {
                err(format!(
                    "structure %{id} decorated {name} must be laid out explicitly with \
                     MatrixStride decorations"
                ));
                continue;
            }
            if !has_required(
                m,
                id,
                |t| matches!(t, Ty::Matrix { .. }),
                |k| k == deco::RowMajor || k == deco::ColMajor,
                0,
            ) {
                err(format!(
                    "structure %{id} decorated {name} must be laid out explicitly with RowMajor \
                     or ColMajor decorations"
                ));
                continue;
            }
            if !cx.env.is_vulkan() || cx.options.skip_block_layout {
                continue;
            }
            // spirv-val's scalar block layout leaves Workgroup blocks to its own switch.
            let scalar = cx.options.scalar_block_layout && !workgroup;
            let mut l = Layout {
                m,
                constraints: HashMap::new(),
                block_rules,
                relaxed,
                scalar,
                pointer_size,
                depth: 0,
            };
            l.compute(id, Constraint::default(), 0);
            if let Err(e) = l.check(id, 0) {
                let sc = if uniform {
                    "Uniform"
                } else if push {
                    "PushConstant"
                } else if workgroup {
                    "Workgroup"
                } else {
                    "StorageBuffer"
                };
                let rules = match (relaxed, block_rules) {
                    _ if scalar => "scalar block",
                    (false, true) => "standard uniform buffer (std140)",
                    (false, false) => "standard storage buffer (std430)",
                    (true, true) => "relaxed uniform buffer",
                    (true, false) => "relaxed storage buffer",
                };
                cx.sink.push(
                    struct_inst.offset,
                    "vulkan:block-layout",
                    format!(
                        "structure %{id} decorated {name} for a variable in the {sc} storage \
                         class must follow the {rules} layout rules: {e}"
                    ),
                );
            }
        }
    }
}
