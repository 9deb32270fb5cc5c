//! `builder.rs`: a constructor per instruction that can stand in a block, for the IR's
//! function builder (`spvkit::ir::builder::FunctionBuilder`).
//!
//! The generated methods are written against a small contract, so that the generator knows
//! the grammar and not the IR: in scope are `FunctionBuilder` with
//! `fn next_result_id(&self) -> Id` and `fn push(&mut self, Instruction) -> Handle<Op>`,
//! `Value` (with `to_id`), `Handle`, `Type` and `Op`. Each method takes the result type as a
//! `Handle<Type>`, id operands as values, and every other operand as the op struct's field
//! type; it returns the result as a `Value`, or the op's handle when there is no result.

use super::ident;
use super::ops::variant;
use super::shape::{Scope, Shape};
use crate::model::{snake_case, Grammar, Instruction, Quantifier};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Instructions that never stand in a block's op list: the function's own structure, block
/// structure and terminators (the builder has dedicated methods for them), and declarations
/// that the IR keeps at module level. The grammar's classes do not single these out (ray
/// tracing terminators are in `Reserved`), so they are listed.
const NOT_OPS: &[&str] = &[
    "OpNop",
    "OpUndef",
    "OpFunction",
    "OpFunctionParameter",
    "OpFunctionEnd",
    "OpLabel",
    "OpPhi",
    "OpSelectionMerge",
    "OpLoopMerge",
    "OpBranch",
    "OpBranchConditional",
    "OpSwitch",
    "OpReturn",
    "OpReturnValue",
    "OpKill",
    "OpUnreachable",
    "OpTerminateInvocation",
    "OpIgnoreIntersectionKHR",
    "OpTerminateRayKHR",
    "OpEmitMeshTasksEXT",
    "OpLine",
    "OpNoLine",
    "OpExtInst",
    "OpDecorationGroup",
    "OpTypeForwardPointer",
];

/// Classes of module-level instructions.
const MODULE_CLASSES: &[&str] = &[
    "Type-Declaration",
    "Constant-Creation",
    "Annotation",
    "Debug",
    "Mode-Setting",
    "Extension",
];

/// Whether the builder gets a constructor for the instruction.
fn is_op(i: &Instruction) -> bool {
    !NOT_OPS.contains(&i.opname.as_str())
        && !MODULE_CLASSES.contains(&i.class.as_str())
        && !i.opname.starts_with("OpType")
        && !i.opname.starts_with("OpConstant")
        && !i.opname.starts_with("OpSpecConstant")
}

/// Everything in `builder.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let scope = Scope {
        grammar: g,
        local: &[],
    };
    let mut methods = Vec::new();
    for i in g.instructions.iter().filter(|i| is_op(i)) {
        methods.push(method(&scope, i)?);
    }
    Ok(quote! {
        impl FunctionBuilder<'_> {
            #(#methods)*
        }
    })
}

fn method(scope: &Scope, i: &Instruction) -> Result<TokenStream, String> {
    let name = format_ident!(
        "{}",
        snake_case(i.opname.strip_prefix("Op").unwrap_or(&i.opname))
    );
    let strukt = ident(&i.opname);
    let v = variant(i);
    let mut params = Vec::new();
    let mut fields = Vec::new();
    let mut has_result = false;
    for o in &i.operands {
        let f = ident(&o.field);
        match o.kind.as_str() {
            "IdResultType" => {
                params.push(quote!(#f: Handle<Type>));
                fields.push(quote!(#f: Value::Type(#f).to_id()));
            }
            "IdResult" => {
                has_result = true;
                fields.push(quote!(#f: self.next_result_id()));
            }
            _ => match (scope.shape(&o.kind)?, o.quantifier) {
                (Shape::Id, Quantifier::One) => {
                    params.push(quote!(#f: impl Into<Value>));
                    fields.push(quote!(#f: #f.into().to_id()));
                }
                (Shape::Id, Quantifier::Optional) => {
                    params.push(quote!(#f: Option<Value>));
                    fields.push(quote!(#f: #f.map(Value::to_id)));
                }
                (Shape::Id, Quantifier::Many) => {
                    params.push(quote!(#f: &[Value]));
                    fields.push(quote!(#f: #f.iter().map(|v| v.to_id()).collect()));
                }
                _ => {
                    let t = scope.field_ty(i, o)?;
                    params.push(quote!(#f: #t));
                    fields.push(quote!(#f));
                }
            },
        }
    }
    let doc = if has_result {
        format!(
            "Appends `{}` to the current block; returns its result.",
            i.opname
        )
    } else {
        format!(
            "Appends `{}` to the current block; returns the op.",
            i.opname
        )
    };
    let (ret, tail) = if has_result {
        (quote!(Value), quote!(Value::Op(self.push(inst))))
    } else {
        (quote!(Handle<Op>), quote!(self.push(inst)))
    };
    let payload = if scope.boxed(i) {
        quote!(Box::new(#strukt { #(#fields,)* }))
    } else {
        quote!(#strukt { #(#fields,)* })
    };
    Ok(quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn #name(&mut self, #(#params),*) -> #ret {
            let inst = Instruction::#v(#payload);
            #tail
        }
    })
}
