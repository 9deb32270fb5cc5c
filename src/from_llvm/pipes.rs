//! OpenCL C 2.0 pipes as clang-15 emits them: kernel parameters that `kernel_arg_type_qual`
//! says are `pipe` (typed pointers to `opencl.pipe_ro_t` read by LLVM 19 are plain `ptr`)
//! become `OpTypePipe` of the `kernel_arg_access_qual` access, and the unmangled
//! `__read_pipe_2`, `__write_pipe_4`, `__reserve_read_pipe`, `__commit_write_pipe`,
//! `__work_group_reserve_read_pipe`, `__sub_group_commit_write_pipe`,
//! `__get_pipe_num_packets_ro`, ... calls (with their packet size and alignment operands) and
//! `is_valid_reserve_id` become the pipe instructions, as llvm-spirv-15 writes them.

use super::error::{err, Result};
use super::function::Fx;
use super::module::{State, Val};
use super::read;
use crate::grammar::{AccessQualifier, Opcode, StorageClass};
use crate::ir::{Builder, Handle, Type, Value};
use inkwell::llvm_sys::prelude::*;

/// The `OpTypePipe` types of a kernel's pipe parameters (by `kernel_arg_type_qual`).
pub fn kernel_pipe_types(
    st: &State,
    b: &mut Builder,
    f: LLVMValueRef,
) -> Vec<Option<Handle<Type>>> {
    let strings = |kind: &str| read::function_metadata_strings(st.cx, f, kind);
    let quals = strings("kernel_arg_type_qual");
    let access = strings("kernel_arg_access_qual");
    quals
        .iter()
        .enumerate()
        .map(|(k, q)| {
            q.split_whitespace().any(|w| w == "pipe").then(|| {
                let access = match access.get(k).map(String::as_str) {
                    Some("write_only") => AccessQualifier::WriteOnly,
                    Some("read_write") => AccessQualifier::ReadWrite,
                    _ => AccessQualifier::ReadOnly,
                };
                b.ty(Type::Pipe { access })
            })
        })
        .collect()
}

/// A pipe builtin: its instruction, its scope (group forms), and whether it yields a
/// reserve id.
fn pipe_op(name: &str) -> Option<(Opcode, Option<u32>)> {
    let (scope, base) = if let Some(b) = name.strip_prefix("__work_group_") {
        (Some(2), b)
    } else if let Some(b) = name.strip_prefix("__sub_group_") {
        (Some(3), b)
    } else {
        (None, name.strip_prefix("__")?)
    };
    let op = match (scope.is_some(), base) {
        (false, "read_pipe_2") => Opcode::ReadPipe,
        (false, "write_pipe_2") => Opcode::WritePipe,
        (false, "read_pipe_4") => Opcode::ReservedReadPipe,
        (false, "write_pipe_4") => Opcode::ReservedWritePipe,
        (false, "reserve_read_pipe") => Opcode::ReserveReadPipePackets,
        (false, "reserve_write_pipe") => Opcode::ReserveWritePipePackets,
        (false, "commit_read_pipe") => Opcode::CommitReadPipe,
        (false, "commit_write_pipe") => Opcode::CommitWritePipe,
        (false, "get_pipe_num_packets_ro" | "get_pipe_num_packets_wo") => Opcode::GetNumPipePackets,
        (false, "get_pipe_max_packets_ro" | "get_pipe_max_packets_wo") => Opcode::GetMaxPipePackets,
        (true, "reserve_read_pipe") => Opcode::GroupReserveReadPipePackets,
        (true, "reserve_write_pipe") => Opcode::GroupReserveWritePipePackets,
        (true, "commit_read_pipe") => Opcode::GroupCommitReadPipe,
        (true, "commit_write_pipe") => Opcode::GroupCommitWritePipe,
        _ => return None,
    };
    Some((op, scope))
}

/// Whether a callee name is one of clang's pipe builtins.
pub fn is_pipe_builtin(name: &str) -> bool {
    pipe_op(name).is_some()
}

impl Fx<'_, '_> {
    /// A packet pointer: a generic `i8` pointer, as the pipe instructions take it.
    fn packet_pointer(&mut self, v: Val) -> Result<Val> {
        let u8t = self.f.type_int(8, false);
        let p = self.ptr_to(v, u8t)?;
        match self.ptr_parts(p.ty) {
            Some((StorageClass::Generic, _)) => Ok(p),
            Some(_) => {
                let g = self.f.type_pointer(StorageClass::Generic, u8t);
                self.emit_val(Opcode::PtrCastToGeneric, g, &[p.v])
            }
            None => err("a pipe packet operand that is not a pointer"),
        }
    }

    /// A value used as a reserve id: an `OpTypeReserveId` value.
    fn reserve_id(&mut self, a: LLVMValueRef) -> Result<Value> {
        let v = self.value(a)?;
        if matches!(self.f.module().types.get(v.ty), Some(Type::ReserveId)) {
            return Ok(v.v);
        }
        err("a reserve id that does not come from a pipe reservation")
    }

    /// A call of clang's pipe builtin `name`.
    pub fn pipe_call(
        &mut self,
        name: &str,
        ret: Option<Handle<Type>>,
        args: &[LLVMValueRef],
    ) -> Result<Option<Val>> {
        let Some((op, scope)) = pipe_op(name) else {
            return err(format!("{name} is no pipe builtin"));
        };
        let Some(&pipe) = args.first() else {
            return err(format!("{name} without its pipe"));
        };
        let pipe = self.value(pipe)?;
        if !matches!(self.f.module().types.get(pipe.ty), Some(Type::Pipe { .. })) {
            return err(format!(
                "{name} of a value that is not a pipe (pipes must be kernel parameters)"
            ));
        }
        let mut ops = Vec::new();
        if let Some(s) = scope {
            ops.push(self.cu32(s));
        }
        ops.push(pipe.v);
        let rest = &args[1..];
        let n = rest.len();
        if n < 2 {
            return err(format!("{name} without its packet size and alignment"));
        }
        let (body, size_align) = rest.split_at(n - 2);
        for (k, &a) in body.iter().enumerate() {
            let v = match (op, k) {
                (Opcode::ReadPipe | Opcode::WritePipe, 0)
                | (Opcode::ReservedReadPipe | Opcode::ReservedWritePipe, 2) => {
                    let v = self.value(a)?;
                    self.packet_pointer(v)?.v
                }
                (
                    Opcode::ReservedReadPipe
                    | Opcode::ReservedWritePipe
                    | Opcode::CommitReadPipe
                    | Opcode::CommitWritePipe
                    | Opcode::GroupCommitReadPipe
                    | Opcode::GroupCommitWritePipe,
                    0,
                ) => self.reserve_id(a)?,
                _ => self.value(a)?.v,
            };
            ops.push(v);
        }
        for &a in size_align {
            ops.push(self.value(a)?.v);
        }
        let ty = match op {
            Opcode::ReserveReadPipePackets
            | Opcode::ReserveWritePipePackets
            | Opcode::GroupReserveReadPipePackets
            | Opcode::GroupReserveWritePipePackets => Some(self.f.ty(Type::ReserveId)),
            Opcode::CommitReadPipe
            | Opcode::CommitWritePipe
            | Opcode::GroupCommitReadPipe
            | Opcode::GroupCommitWritePipe => None,
            _ => ret,
        };
        match ty {
            Some(t) => Ok(Some(self.emit_val(op, t, &ops)?)),
            None => {
                let w: Vec<u32> = ops.iter().map(|v| v.to_id().0).collect();
                self.emit(op, None, &w)?;
                Ok(None)
            }
        }
    }

    /// `is_valid_reserve_id(rid)` → `OpIsValidReserveId`.
    pub fn is_valid_reserve_id(&mut self, args: &[LLVMValueRef]) -> Result<Val> {
        let Some(&a) = args.first() else {
            return err("is_valid_reserve_id without its operand");
        };
        let rid = self.reserve_id(a)?;
        let b = self.f.type_bool();
        self.emit_val(Opcode::IsValidReserveId, b, &[rid])
    }
}
