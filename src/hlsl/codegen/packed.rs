//! Shader model 6.6's packed 8-bit intrinsics, as DXC lowers them (its CHECK lines in
//! `intrinsics.sm6_6.pack_*.hlsl` and `intrinsics.sm6_6.unpack.hlsl`). `int8_t4_packed` and
//! `uint8_t4_packed` are 32-bit `uint`s; the four bytes are a vector of 8-bit integers
//! bitcast to or from that `uint`:
//! - `pack_s8(v)` / `pack_u8(v)`: `v` (four 16- or 32-bit integers) truncated to four bytes,
//!   by `OpSConvert` to signed bytes when `v` is signed and `OpUConvert` to unsigned bytes when
//!   not (whichever the name says);
//! - `pack_clamp_s8(v)` / `pack_clamp_u8(v)`: a signed `v` clamped (`SClamp`) to -128..127 or
//!   0..255, then truncated to signed bytes;
//! - `unpack_s8s16`, `unpack_s8s32`, `unpack_u8u16`, `unpack_u8u32`: the bytes, signed or not,
//!   widened (sign- or zero-extended) to 16- or 32-bit components.
//!
//! And `DebugBreak()` (shader model 6.10): NonSemantic.DebugBreak's `DebugBreak`.

use super::func::FnCx;
use super::Val;
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::intrinsics::Glsl;
use crate::hlsl::sema::types::{Scalar, Ty};

/// NonSemantic.DebugBreak's import name and its one instruction, `DebugBreak` (SPIRV-Headers'
/// `extinst.nonsemantic.debugbreak.grammar.json`, newer than the grammar spvkit is built from).
const DEBUG_BREAK_SET: &str = "NonSemantic.DebugBreak";
/// The `DebugBreak` instruction of [`DEBUG_BREAK_SET`].
const DEBUG_BREAK: u32 = 1;

impl FnCx<'_, '_> {
    /// Whether `name` is one of this module's intrinsics.
    pub(super) fn is_packed_intrinsic(name: &str) -> bool {
        name == "DebugBreak" || crate::hlsl::sema::availability::is_packed(name)
    }

    /// The IR type of a vector of four bytes.
    fn bytes_ty(&mut self, signed: bool) -> crate::ir::Handle<crate::ir::Type> {
        let b = self.f.type_int(8, signed);
        self.f.type_vector(b, 4)
    }

    /// A call of one of this module's intrinsics (its argument count already checked).
    pub(super) fn packed_intrinsic(&mut self, name: &str, args: &[Expr]) -> Option<Val> {
        if name == "DebugBreak" {
            let set = self.f.ext_inst_import(DEBUG_BREAK_SET);
            let void = self.f.type_void();
            self.f.ext_inst(void, set, DEBUG_BREAK, &[]);
            return Some(self.void_val());
        }
        let packed = Ty::Scalar(Scalar::UInt);
        if let Some(rest) = name.strip_prefix("unpack_") {
            let signed = rest.starts_with('s');
            let wide = match (signed, rest.ends_with("16")) {
                (true, true) => Scalar::Int16,
                (true, false) => Scalar::Int,
                (false, true) => Scalar::UInt16,
                (false, false) => Scalar::UInt,
            };
            let p = self.rvalue_as(&args[0], &packed)?;
            let bt = self.bytes_ty(signed);
            let bytes = self.f.bitcast(bt, p);
            let rt = Ty::Vector(wide, 4);
            let t = self.ty(&rt);
            let r = if signed {
                self.f.s_convert(t, bytes)
            } else {
                self.f.u_convert(t, bytes)
            };
            return Some(Val::R(r, rt));
        }
        let (v, t) = self.rvalue(&args[0])?;
        let s = match t {
            Ty::Vector(s, 4) if s.is_int() && s.bits() <= 32 => s,
            _ => {
                self.st.error(
                    args[0].span,
                    format!(
                        "'{name}' takes four 16- or 32-bit integers, not '{}'",
                        self.show(&t)
                    ),
                );
                return None;
            }
        };
        let clamp = name.starts_with("pack_clamp");
        let bytes = if clamp {
            if !s.is_signed() {
                self.st.error(
                    args[0].span,
                    format!(
                        "'{name}' takes signed integers (int16_t4 or int4), not '{}'",
                        self.show(&t)
                    ),
                );
                return None;
            }
            let (lo, hi) = if name == "pack_clamp_s8" {
                (-128, 127)
            } else {
                (0, 255)
            };
            let lo = self.splat_const(&t, ConstVal::Int(lo));
            let hi = self.splat_const(&t, ConstVal::Int(hi));
            let clamped = self.ext(&t, Glsl::SClamp as u32, &[v, lo, hi]);
            let bt = self.bytes_ty(true);
            self.f.s_convert(bt, clamped)
        } else if s.is_signed() {
            let bt = self.bytes_ty(true);
            self.f.s_convert(bt, v)
        } else {
            let bt = self.bytes_ty(false);
            self.f.u_convert(bt, v)
        };
        let ut = self.ty(&packed);
        Some(Val::R(self.f.bitcast(ut, bytes), packed))
    }
}
