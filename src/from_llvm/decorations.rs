//! Decorations read back from LLVM: `!spirv.Decorations` on globals, functions and
//! instructions, `!spirv.ParameterDecorations` on functions, `llvm.ptr.annotation` strings
//! with the document's reserved names (`{register:1}{numbanks:4}`) as member decorations,
//! parameter attributes as `FuncParamAttr`, and fast-math flags as `FPFastMathMode`.
//!
//! Decorations spvkit derives itself (`BuiltIn`, linkage, alignment, rounding modes from
//! builtin names) are not written twice: a decoration already on its target is skipped, and
//! so is a second decoration of a kind a target holds only once.

use super::error::{FromLlvmError, Result};
use super::function::Fx;
use super::module::{State, Val};
use super::read;
use crate::binary::{decoration_from_literals, DecorationLiteral};
use crate::grammar::{Decoration, FunctionParameterAttribute as Fpa, Version};
use crate::ir::{Builder, Function, Handle, Type, Value};
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind as K;
use inkwell::llvm_sys::LLVMValueKind as VK;

/// Decoration numbers a target carries at most once (`BuiltIn`, `FPRoundingMode`,
/// `FPFastMathMode`, `LinkageAttributes`, `Alignment`, `SpecId`, `Location`, `Binding`,
/// `DescriptorSet`, `Offset`, `MaxByteOffset`).
const ONCE: &[u32] = &[11, 39, 40, 41, 44, 1, 30, 33, 34, 35, 45];

/// The number of a decoration (its first word).
fn number(d: &Decoration) -> u32 {
    let mut w = Vec::new();
    crate::binary::Encode::encode(d, &mut w);
    w.first().copied().unwrap_or(u32::MAX)
}

/// Adds `new` to `list`, skipping what is there already.
fn merge(list: &mut Vec<Decoration>, new: Vec<Decoration>) {
    for d in new {
        let n = number(&d);
        if list.contains(&d) || (ONCE.contains(&n) && list.iter().any(|x| number(x) == n)) {
            continue;
        }
        list.push(d);
    }
}

/// The kind id of a metadata name.
fn kind_id(cx: LLVMContextRef, kind: &str) -> u32 {
    // SAFETY: the bytes outlive the call.
    unsafe { llc::LLVMGetMDKindIDInContext(cx, kind.as_ptr().cast(), kind.len() as u32) }
}

fn is_node(v: LLVMValueRef) -> bool {
    // SAFETY: a live value (or metadata-as-value).
    !v.is_null() && unsafe { !llc::LLVMIsAMDNode(v).is_null() }
}

/// One decoration-node: `!{i32 number, i32 or !"string" operands...}`.
fn decoration_node(node: LLVMValueRef) -> std::result::Result<Decoration, String> {
    if !is_node(node) {
        return Err("a decoration is not a metadata node".into());
    }
    let ops = read::md_operands(node);
    let Some(n) = ops.first().and_then(|&x| (!x.is_null()).then_some(x)) else {
        return Err("an empty decoration node".into());
    };
    let Some(n) = read::const_int(n) else {
        return Err("a decoration node does not start with an integer".into());
    };
    let mut lits = Vec::new();
    for &x in &ops[1..] {
        if x.is_null() {
            return Err(format!("decoration {n} has a null operand"));
        }
        if let Some(i) = read::const_int(x) {
            lits.push(DecorationLiteral::Int(i as u32));
        } else if let Some(s) = read::md_string(x) {
            lits.push(DecorationLiteral::Str(s));
        } else {
            return Err(format!(
                "decoration {n} has an operand that is neither an integer nor a string"
            ));
        }
    }
    decoration_from_literals(n as u32, &lits)
}

/// A decoration-list: `!{!{...}, ...}`.
fn decoration_list(list: LLVMValueRef) -> std::result::Result<Vec<Decoration>, String> {
    if !is_node(list) {
        return Err("a decoration list is not a metadata node".into());
    }
    read::md_operands(list)
        .into_iter()
        .map(decoration_node)
        .collect()
}

/// `!spirv.Decorations` of a global object (function or variable), if present.
fn global_object_decorations(
    cx: LLVMContextRef,
    g: LLVMValueRef,
) -> std::result::Result<Vec<Decoration>, String> {
    match read::function_metadata(cx, g, "spirv.Decorations") {
        Some(list) => decoration_list(list).map_err(|e| format!("!spirv.Decorations: {e}")),
        None => Ok(Vec::new()),
    }
}

/// A global variable's `!spirv.Decorations` onto its SPIR-V variable.
pub fn global(st: &mut State, b: &mut Builder, g: LLVMValueRef) -> Result<()> {
    let Some(Val {
        v: Value::Global(h),
        ..
    }) = st.globals.get(&(g as usize)).copied()
    else {
        return Ok(());
    };
    let name = read::name(g);
    let decos = global_object_decorations(st.cx, g)
        .map_err(|e| FromLlvmError::new(format!("global @{name}: {e}")))?;
    if let Some(gv) = b.module_mut().globals.get_mut(h) {
        merge(&mut gv.decorations, decos);
    }
    Ok(())
}

/// The `FuncParamAttr`s of an LLVM parameter's attributes (`noalias`, `nocapture`,
/// `zeroext`, `signext`, `byval`, `sret`, `readonly`, `readnone`), as llvm-spirv writes them.
fn param_attrs(f: LLVMValueRef, i: u32, is_ptr: bool) -> Vec<Decoration> {
    const MAP: &[(&str, Fpa, bool)] = &[
        ("zeroext", Fpa::Zext, false),
        ("signext", Fpa::Sext, false),
        ("byval", Fpa::ByVal, true),
        ("sret", Fpa::Sret, true),
        ("noalias", Fpa::NoAlias, true),
        ("nocapture", Fpa::NoCapture, true),
        ("readonly", Fpa::NoWrite, true),
        ("readnone", Fpa::NoReadWrite, true),
    ];
    let mut out = Vec::new();
    for &(name, attr, ptr_only) in MAP {
        if ptr_only && !is_ptr {
            continue;
        }
        // SAFETY: the name outlives the call; `f` is a function and `i + 1` a parameter index.
        let present = unsafe {
            let kind = llc::LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
            kind != 0 && !llc::LLVMGetEnumAttributeAtIndex(f, i + 1, kind).is_null()
        };
        if present {
            out.push(Decoration::FuncParamAttr(attr));
        }
    }
    out
}

/// A function's `!spirv.Decorations`, `!spirv.ParameterDecorations` and parameter attributes.
pub fn function(
    st: &mut State,
    b: &mut Builder,
    f: LLVMValueRef,
    h: Handle<Function>,
) -> Result<()> {
    let name = read::name(f);
    let at = |e: String| FromLlvmError {
        function: Some(name.clone()),
        instruction: None,
        message: e,
        cause: None,
    };
    let decos = global_object_decorations(st.cx, f).map_err(at)?;
    let mut per_param: Vec<Vec<Decoration>> = Vec::new();
    if let Some(node) = read::function_metadata(st.cx, f, "spirv.ParameterDecorations") {
        if !is_node(node) {
            return Err(at(
                "!spirv.ParameterDecorations is not a metadata node".into()
            ));
        }
        for list in read::md_operands(node) {
            per_param.push(
                decoration_list(list)
                    .map_err(|e| at(format!("!spirv.ParameterDecorations: {e}")))?,
            );
        }
    }
    // SAFETY: `f` is a function.
    let n = unsafe { llc::LLVMCountParams(f) };
    if !per_param.is_empty() && per_param.len() != n as usize {
        return Err(at(format!(
            "!spirv.ParameterDecorations has {} lists for {n} parameters",
            per_param.len()
        )));
    }
    let attrs: Vec<Vec<Decoration>> = (0..n)
        .map(|i| {
            // SAFETY: `i` is below the parameter count.
            let p = unsafe { llc::LLVMGetParam(f, i) };
            let is_ptr = read::type_kind(read::type_of(p)) == K::LLVMPointerTypeKind;
            param_attrs(f, i, is_ptr)
        })
        .collect();
    let Some(func) = b.module_mut().functions.get_mut(h) else {
        return Ok(());
    };
    merge(&mut func.decorations, decos);
    for (i, p) in func.params.iter_mut().enumerate() {
        merge(
            &mut p.decorations,
            attrs.get(i).cloned().unwrap_or_default(),
        );
        merge(
            &mut p.decorations,
            per_param.get(i).cloned().unwrap_or_default(),
        );
    }
    Ok(())
}

/// The `FPFastMathMode` mask of LLVM fast-math flags (0 when none maps).
fn fast_math_mode(flags: u32) -> u32 {
    use inkwell::llvm_sys as s;
    if flags & s::LLVMFastMathAll == s::LLVMFastMathAll {
        return 0x10;
    }
    let map = [
        (s::LLVMFastMathNoNaNs, 0x1),
        (s::LLVMFastMathNoInfs, 0x2),
        (s::LLVMFastMathNoSignedZeros, 0x4),
        (s::LLVMFastMathAllowReciprocal, 0x8),
    ];
    map.iter()
        .filter(|(f, _)| flags & f != 0)
        .fold(0, |m, (_, b)| m | b)
}

impl Fx<'_, '_> {
    /// The decorations an LLVM instruction carries onto the op made for it (`v`, when it is
    /// an op created from `first_new` on): `!spirv.Decorations`, fast-math flags as
    /// `FPFastMathMode`, and `nsw`/`nuw` as `NoSignedWrap`/`NoUnsignedWrap` where the target
    /// version has them (SPIR-V 1.4) or the module lists `SPV_KHR_no_integer_wrap_decoration`
    /// in `!spirv.Extension`.
    pub fn instruction_decorations(
        &mut self,
        i: LLVMValueRef,
        v: Value,
        first_new: usize,
    ) -> Result<()> {
        let Value::Op(h) = v else {
            return Ok(());
        };
        if h.index() < first_new {
            return Ok(());
        }
        let mut decos = Vec::new();
        // SAFETY: `i` is an instruction of the module being read.
        let md = unsafe { llc::LLVMGetMetadata(i, kind_id(self.st.cx, "spirv.Decorations")) };
        if !md.is_null() {
            decos = decoration_list(md)
                .map_err(|e| self.error(i, format!("!spirv.Decorations: {e}")))?;
        }
        // SAFETY: `i` is an instruction; the flags are read only where it can have them.
        unsafe {
            if llc::LLVMCanValueUseFastMathFlags(i) != 0 {
                let m = fast_math_mode(llc::LLVMGetFastMathFlags(i));
                if m != 0 {
                    // One FPFastMathMode: the flags and the metadata's mask together.
                    let listed = decos.iter_mut().find_map(|d| match d {
                        Decoration::FPFastMathMode(x) => Some(x),
                        _ => None,
                    });
                    match listed {
                        Some(x) => x.0 |= m,
                        None => decos.push(Decoration::FPFastMathMode(
                            crate::grammar::FPFastMathMode(m),
                        )),
                    }
                }
            }
            let wrap_ok = self.st.version >= Version(1, 4)
                || self
                    .f
                    .module()
                    .extensions
                    .iter()
                    .any(|e| e == "SPV_KHR_no_integer_wrap_decoration");
            // On i1 they became logical ops, which take no wrap decorations.
            let t = read::type_of(i);
            let e = if read::type_kind(t) == inkwell::llvm_sys::LLVMTypeKind::LLVMVectorTypeKind {
                read::element_type(t)
            } else {
                t
            };
            let integer = read::type_kind(e)
                != inkwell::llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind
                || read::int_width(e) != 1;
            if wrap_ok
                && integer
                && matches!(
                    read::opcode(i),
                    inkwell::llvm_sys::LLVMOpcode::LLVMAdd
                        | inkwell::llvm_sys::LLVMOpcode::LLVMSub
                        | inkwell::llvm_sys::LLVMOpcode::LLVMMul
                        | inkwell::llvm_sys::LLVMOpcode::LLVMShl
                )
            {
                if llc::LLVMGetNSW(i) != 0 {
                    decos.push(Decoration::NoSignedWrap);
                }
                if llc::LLVMGetNUW(i) != 0 {
                    decos.push(Decoration::NoUnsignedWrap);
                }
            }
        }
        if decos.is_empty() {
            return Ok(());
        }
        let have = self
            .f
            .function()
            .ops
            .get(h)
            .and_then(|o| o.attrs.as_ref())
            .map(|a| a.decorations.clone())
            .unwrap_or_default();
        let mut list = have.clone();
        merge(&mut list, decos);
        for d in list.into_iter().skip(have.len()) {
            self.f.decorate(v, d);
        }
        Ok(())
    }

    /// `llvm.ptr.annotation(p, "{register:1}{numbanks:4}...", ...)`: the items as member
    /// decorations of the struct member `p` points at (a GEP whose last index selects a
    /// member); the call's value is `p` itself.
    pub fn ptr_annotation(&mut self, args: &[LLVMValueRef]) -> Result<Option<Val>> {
        let (Some(&p), Some(&s)) = (args.first(), args.get(1)) else {
            return super::error::err("llvm.ptr.annotation without its operands");
        };
        let v = self.value(p)?;
        let Some(text) = annotation_string(s) else {
            return Ok(Some(v));
        };
        let decos = parse_annotation(&text)?;
        if decos.is_empty() {
            return Ok(Some(v));
        }
        let Some((st_llvm, k)) = gep_member(p) else {
            return Ok(Some(v));
        };
        let sty = self.ty(st_llvm)?;
        // Structs are never uniqued, so the type can change in place.
        if let Some(Type::Struct(mut s)) = self.f.module().types.get(sty).cloned() {
            if let Some(m) = s.members.get_mut(k) {
                merge(&mut m.decorations, decos);
            }
            self.f.module_mut().types.replace(sty, Type::Struct(s));
        }
        Ok(Some(v))
    }
}

/// The struct type and member index a GEP (instruction or constant expression) ends at.
fn gep_member(p: LLVMValueRef) -> Option<(LLVMTypeRef, usize)> {
    let is_gep = match read::value_kind(p) {
        VK::LLVMInstructionValueKind => {
            read::opcode(p) == inkwell::llvm_sys::LLVMOpcode::LLVMGetElementPtr
        }
        VK::LLVMConstantExprValueKind => {
            read::const_opcode(p) == inkwell::llvm_sys::LLVMOpcode::LLVMGetElementPtr
        }
        _ => false,
    };
    if !is_gep {
        return None;
    }
    let n = read::num_operands(p);
    if n < 3 {
        return None;
    }
    // SAFETY: `p` is a GEP.
    let mut t = unsafe { llc::LLVMGetGEPSourceElementType(p) };
    for k in 2..n - 1 {
        t = match read::type_kind(t) {
            K::LLVMStructTypeKind => {
                let idx = read::const_int(read::operand(p, k))? as usize;
                *read::struct_members(t).get(idx)?
            }
            K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => read::element_type(t),
            _ => return None,
        };
    }
    if read::type_kind(t) != K::LLVMStructTypeKind {
        return None;
    }
    let idx = read::const_int(read::operand(p, n - 1))? as usize;
    (idx < read::struct_members(t).len()).then_some((t, idx))
}

/// The text of an annotation string operand (a global `[N x i8]` constant, perhaps behind a
/// constant GEP or cast).
fn annotation_string(mut s: LLVMValueRef) -> Option<String> {
    for _ in 0..4 {
        if read::value_kind(s) != VK::LLVMConstantExprValueKind {
            break;
        }
        s = read::operand(s, 0);
    }
    if read::value_kind(s) != VK::LLVMGlobalVariableValueKind {
        return None;
    }
    // SAFETY: `s` is a global variable; the string is read only from a constant data array.
    unsafe {
        let init = llc::LLVMGetInitializer(s);
        if init.is_null() || llc::LLVMIsConstantString(init) == 0 {
            return None;
        }
        let mut len = 0usize;
        let p = llc::LLVMGetAsString(init, &mut len);
        let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
        let bytes = bytes.split(|&b| b == 0).next().unwrap_or(&[]);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// One annotation argument: a quoted string, a number, or a bare word (a string).
fn literal(arg: &str) -> DecorationLiteral {
    let a = arg.trim();
    if let Some(q) = a.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return DecorationLiteral::Str(q.to_owned());
    }
    match a.parse::<u32>() {
        Ok(n) => DecorationLiteral::Int(n),
        Err(_) => DecorationLiteral::Str(a.to_owned()),
    }
}

/// The decorations of an annotation string: `{X}` / `{X:Y}` items, `X` a reserved name of
/// the document or a decoration number. A string with no such item (a user annotation) has
/// none; a malformed or unknown item is an error.
fn parse_annotation(text: &str) -> Result<Vec<Decoration>> {
    let t = text.trim();
    if !t.starts_with('{') {
        return Ok(Vec::new());
    }
    let bad =
        |why: &str| FromLlvmError::new(format!("llvm.ptr.annotation string \"{text}\": {why}"));
    let mut out = Vec::new();
    let mut rest = t;
    while !rest.is_empty() {
        let Some(body) = rest.strip_prefix('{') else {
            return Err(bad("text between the {...} items"));
        };
        let Some(end) = body.find('}') else {
            return Err(bad("an unterminated {...} item"));
        };
        let item = &body[..end];
        rest = body[end + 1..].trim_start();
        let (name, args) = match item.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a)),
            None => (item.trim(), None),
        };
        let list = |a: Option<&str>| -> Vec<DecorationLiteral> {
            a.map(|a| a.split(',').map(literal).collect())
                .unwrap_or_default()
        };
        let (number, lits) = match name {
            "register" => (5825, Vec::new()),
            "memory" => (5826, list(args)),
            "numbanks" => (5827, list(args)),
            "bankwidth" => (5828, list(args)),
            "private_copies" => (5829, list(args)),
            "pump" => match list(args).first() {
                Some(DecorationLiteral::Int(2)) => (5831, Vec::new()),
                _ => (5830, Vec::new()),
            },
            "max_replicates" => (5832, list(args)),
            "simple_dual_port" => (5833, Vec::new()),
            "merge" => (
                5834,
                args.map(|a| {
                    a.split(':')
                        .map(|x| match literal(x) {
                            DecorationLiteral::Int(n) => DecorationLiteral::Str(n.to_string()),
                            s => s,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            ),
            "bank_bits" => (5835, list(args)),
            "force_pow2_depth" => (5836, list(args)),
            n => match n.parse::<u32>() {
                Ok(n) => (n, list(args)),
                Err(_) => return Err(bad(&format!("'{n}' is no reserved name or number"))),
            },
        };
        out.push(decoration_from_literals(number, &lits).map_err(|e| bad(&e))?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_items() {
        let d = parse_annotation("{register:1}{numbanks:4}{pump:2}{bank_bits:1,2}").unwrap();
        assert_eq!(d.len(), 4);
        assert_eq!(number(&d[0]), 5825);
        assert_eq!(number(&d[2]), 5831);
        assert_eq!(parse_annotation("{merge:a:b}").unwrap().len(), 1);
        assert_eq!(parse_annotation("{memory:DEFAULT}").unwrap().len(), 1);
        assert!(parse_annotation("user text").unwrap().is_empty());
        assert!(parse_annotation("{bogus:1}").is_err());
        assert!(parse_annotation("{numbanks:x}").is_err());
    }

    #[test]
    fn derived_decorations_are_not_doubled() {
        let mut l = vec![Decoration::Alignment(4), Decoration::Constant];
        merge(
            &mut l,
            vec![
                Decoration::Alignment(8),
                Decoration::Constant,
                Decoration::Volatile,
            ],
        );
        assert_eq!(
            l,
            vec![
                Decoration::Alignment(4),
                Decoration::Constant,
                Decoration::Volatile
            ]
        );
    }
}
