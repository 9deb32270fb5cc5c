//! Ids: each defined once, defined before use except where the specification allows a
//! forward reference, of the right kind (a result type is a type, a value operand is not a
//! type, labels and imports only where they belong), and used only in the function that
//! defines them. Dominance of uses within a function is checked with the control flow
//! ([`super::cfg`]), from the uses recorded here.
//!
//! Hand-written because the grammar's operand kinds stop at `IdRef`: which operands may name
//! an id defined later (branch targets, `OpPhi` operands, called functions, decoration
//! targets, forward-declared pointers) is prose in the specification. The exceptions follow
//! `spirv-val`'s list.

use super::layout::ExtKind;
use super::module::Inst;
use super::Cx;
use crate::grammar::{Ids, Instruction, Opcode};

/// Reports ids defined more than once.
pub(super) fn redefinitions(cx: &mut Cx<'_>) {
    for &(i, id) in &cx.m.redefinitions {
        let inst = cx.m.inst(i);
        cx.err(
            &inst,
            "core:id-defined-once",
            format!("%{id} is defined more than once"),
        );
    }
}

/// Whether operand id number `k` (counting the result type and result id) of `op` may name
/// an id defined later.
fn forward_allowed(op: Opcode, k: usize) -> bool {
    use Opcode as O;
    match op {
        O::ExecutionMode
        | O::ExecutionModeId
        | O::EntryPoint
        | O::Name
        | O::MemberName
        | O::SelectionMerge
        | O::Decorate
        | O::MemberDecorate
        | O::DecorateId
        | O::DecorateString
        | O::MemberDecorateString
        | O::Branch
        | O::LoopMerge => true,
        O::GroupDecorate | O::GroupMemberDecorate | O::BranchConditional | O::Switch => k != 0,
        O::FunctionCall => k == 2,
        O::Phi => k > 1,
        O::EnqueueKernel => k == 8,
        O::GetKernelNDrangeSubGroupCount | O::GetKernelNDrangeMaxSubGroupSize => k == 3,
        O::GetKernelWorkGroupSize | O::GetKernelPreferredWorkGroupSizeMultiple => k == 2,
        O::TypeForwardPointer => k == 0,
        _ => false,
    }
}

/// Instructions whose id operands may name types.
fn may_name_types(op: Opcode) -> bool {
    op.is_declares_type()
        || op.is_annotation()
        || op.is_debug()
        || matches!(op, Opcode::Function | Opcode::TypeForwardPointer)
        || matches!(
            op.name(),
            "OpCooperativeMatrixLengthNV" | "OpCooperativeMatrixLengthKHR"
        )
}

/// Instructions whose id operands may name labels, imports, strings or decoration groups.
fn may_name_untyped(op: Opcode) -> bool {
    use Opcode as O;
    may_name_types(op)
        || matches!(
            op,
            O::Branch
                | O::BranchConditional
                | O::Switch
                | O::Phi
                | O::ExtInst
                | O::ExtInstImport
                | O::SelectionMerge
                | O::LoopMerge
        )
}

/// Checks the ids an instruction uses.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction, ext_ids: &[u32]) {
    let Some(op) = inst.op() else { return };
    let mut ids = std::mem::take(&mut cx.ids_buf);
    ids.clear();
    typed.visit_ids(&mut |id| ids.push(id.0));
    let ext = if op == Opcode::ExtInst {
        ids.extend_from_slice(ext_ids);
        Some(super::layout::ext_kind(cx, inst))
    } else {
        None
    };
    let non_semantic = matches!(ext, Some(ExtKind::NonSemantic | ExtKind::DebugInfo(_)));
    let skip = usize::from(op.has_result_type()) + usize::from(op.has_result_id());
    if op.has_result_type() {
        if let Some(&ty) = ids.first() {
            result_type(cx, inst, ty);
        }
    }
    let current_fn = cx.func.map(|f| cx.m.functions[f]);
    for (k, &id) in ids.iter().enumerate().skip(skip) {
        let Some(def) = cx.m.def_index(id) else {
            cx.err(
                inst,
                "core:id-defined",
                format!("%{id} is used but never defined"),
            );
            continue;
        };
        let later = def > inst.index || (def == inst.index && op != Opcode::Phi);
        if later {
            let allowed = if op.is_declares_type() {
                cx.m.forward_pointers.contains(&id)
            } else {
                forward_allowed(op, k) || non_semantic
            };
            if !allowed {
                cx.err(
                    inst,
                    "core:id-defined-before-use",
                    format!("%{id} is used before its definition"),
                );
                continue;
            }
        }
        let def_inst = cx.m.inst(def);
        let Some(def_op) = def_inst.op() else {
            continue;
        };
        if def_op.is_declares_type() {
            if !may_name_types(op) && !non_semantic {
                cx.err(
                    inst,
                    "core:id-kind",
                    format!("operand %{id} cannot be a type"),
                );
            }
        } else if !def_op.has_result_type() && !may_name_untyped(op) {
            cx.err(
                inst,
                "core:id-kind",
                format!("operand %{id} requires a type: it is an {def_op}"),
            );
        } else if def_op == Opcode::ExtInst
            && !non_semantic
            && !matches!(super::layout::ext_kind(cx, &def_inst), ExtKind::Semantic)
        {
            cx.err(
                inst,
                "core:id-kind",
                format!(
                    "operand %{id} in a semantic instruction cannot be a non-semantic \
                     instruction"
                ),
            );
        }
        if def_op == Opcode::Function
            && !non_semantic
            && !super::functions::may_name_function(op, k)
        {
            cx.err(
                inst,
                "core:id-kind",
                format!("invalid use of function %{id}"),
            );
        }
        if def_op == Opcode::Variable && cx.m.function_at(def).is_none() {
            if let Some(f) = current_fn {
                cx.functions.use_global(f.id, id);
            }
        }
        // Function scope.
        if let Some(owner) = cx.m.function_at(def) {
            if owner.start != def && !op.is_annotation() && !op.is_debug() {
                match current_fn {
                    Some(f) if f.start == owner.start => {
                        if def_op != Opcode::Label
                            && def_op != Opcode::FunctionParameter
                            && !(op == Opcode::Phi && k % 2 == 1)
                        {
                            let phi_parent = (op == Opcode::Phi)
                                .then(|| ids.get(k + 1).copied())
                                .flatten();
                            cx.cfg.record_use(inst.index, def, phi_parent);
                        }
                    }
                    _ => {
                        if !matches!(op, Opcode::EntryPoint | Opcode::ExecutionMode) {
                            cx.err(
                                inst,
                                "core:id-function-scope",
                                format!(
                                    "%{id} is defined in function %{} and used outside of it",
                                    owner.id
                                ),
                            );
                        }
                    }
                }
            }
        }
    }
    cx.ids_buf = ids;
}

/// A result type must be a type defined earlier.
fn result_type(cx: &mut Cx<'_>, inst: &Inst<'_>, ty: u32) {
    match cx.m.def_index(ty) {
        None => cx.err(
            inst,
            "core:id-defined",
            format!("result type %{ty} is never defined"),
        ),
        Some(d) if d >= inst.index => cx.err(
            inst,
            "core:id-defined-before-use",
            format!("result type %{ty} is used before its definition"),
        ),
        Some(_) => {
            if !cx.m.is_type(ty) {
                cx.err(
                    inst,
                    "core:id-kind",
                    format!("result type %{ty} is not a type"),
                );
            }
        }
    }
}
