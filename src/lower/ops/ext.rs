//! `OpExtInst`: the generated table first (per set), then the special cases the table names
//! (GLSL.std.450 `Tan`, `Tanh`), then the hand-written math of [`super::math`]; non-semantic
//! instructions produce nothing.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::lowering::{ext_hand_written, ext_pattern};
use crate::grammar::tables::EXT_INST_SETS;
use crate::grammar::{Id, OpExtInst};
use crate::ir::{Op, Value};
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

/// The set's import name and the instruction's name.
pub(crate) fn names(l: &Lowerer<'_, '_>, e: &OpExtInst) -> Result<(String, String)> {
    let Some(Value::ExtInstSet(h)) = Value::from_id(e.set) else {
        return Err(LowerError::malformed("OpExtInst without a set"));
    };
    let set =
        l.m.ext_inst_imports
            .get(h)
            .ok_or_else(|| LowerError::malformed("an import out of range"))?
            .name
            .clone();
    let inst = EXT_INST_SETS
        .iter()
        .find(|s| s.name == set)
        .and_then(|s| s.instruction(e.instruction))
        .map_or_else(|| format!("#{}", e.instruction), |d| d.name.to_string());
    Ok((set, inst))
}

/// Lowers an extended instruction.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    e: &OpExtInst,
    op: &Op,
    result: Option<BasicTypeEnum<'ctx>>,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    let (set, name) = names(l, e)?;
    // Debug information describes the source; it computes nothing.
    if set.starts_with("NonSemantic.") || set == "DebugInfo" || set == "OpenCL.DebugInfo.100" {
        return Ok(None);
    }
    let label = format!("{set} {name}");
    let run =
        |l: &mut Lowerer<'a, 'ctx>, fx: &mut FnCx<'_, 'ctx>| -> Result<BasicValueEnum<'ctx>> {
            let r = match result {
                Some(r) => r,
                // vstoren returns void.
                None if name.starts_with("vstore") || name == "prefetch" => l.cx.i8_type().into(),
                None => {
                    return Err(LowerError::malformed(
                        "an instruction without a result type",
                    ))
                }
            };
            if set == "OpenCL.std" && (name == "vloadn" || name == "vstoren") {
                return super::math::vload_store(l, fx, &name, e, r);
            }
            if ext_hand_written(&set, e.instruction) == Some("opencl") {
                return super::opencl::lower(l, fx, &name, e, r);
            }
            let mut args = Vec::with_capacity(e.operands.len());
            for &w in &e.operands {
                args.push(l.id(fx, Id(w))?);
            }
            if let Some(p) = ext_pattern(&set, e.instruction) {
                return super::table::apply(l.cx, &l.llm, &l.b, &p, &args, r);
            }
            if let Some(s) = super::special_dispatch::ext_special(&set, e.instruction) {
                return super::special_dispatch::call(l.cx, &l.b, s, &args, r);
            }
            if set == "GLSL.std.450" {
                return super::math::glsl(l, fx, &name, &args, e, op, r);
            }
            if set == "OpenCL.std" {
                return super::math::opencl(l, &name, &args, r);
            }
            Err(LowerError::unsupported(format!("the extended set {set}")))
        };
    run(l, fx)
        .map(Some)
        .map_err(|err| err.at(&label, None))
        .map_err(|mut err| {
            // Name the instruction even where the dispatcher later names the op `OpExtInst`.
            if err.op != label {
                err.reason = format!("{label}: {}", err.reason);
            }
            err
        })
}
