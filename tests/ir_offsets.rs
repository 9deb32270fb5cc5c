//! `ir::deserialize_with_offsets`: the word offset of every op, function and global variable,
//! checked against a scan of the binary; and the same IR as `deserialize`.

use spvkit::ir::{deserialize, deserialize_with_offsets, Handle};

/// `(offset, opcode)` of every instruction after the header.
fn scan(words: &[u32]) -> Vec<(usize, u16)> {
    let mut out = Vec::new();
    let mut i = 5;
    while i < words.len() {
        let n = (words[i] >> 16) as usize;
        out.push((i, (words[i] & 0xffff) as u16));
        i += n.max(1);
    }
    out
}

#[test]
fn offsets_name_every_op_function_and_global() {
    let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
        %int = OpTypeInt 32 1\n%ptr = OpTypePointer Private %int\n%g = OpVariable %ptr Private\n\
        %g2 = OpVariable %ptr Private\n%fnty = OpTypeFunction %int %int\n\
        %f = OpFunction %int None %fnty\n%x = OpFunctionParameter %int\n%e = OpLabel\n\
        %a = OpIAdd %int %x %x\n%b = OpLoad %int %g\n%c = OpIMul %int %a %b\nOpStore %g2 %c\n\
        OpReturnValue %c\nOpFunctionEnd\n";
    let words = spvkit::text::assemble(text, &Default::default()).unwrap();
    let (m, o) = deserialize_with_offsets(&words).unwrap();
    assert_eq!(m, deserialize(&words).unwrap());
    let insts = scan(&words);
    let at = |opcode: u16, nth: usize| {
        insts
            .iter()
            .filter(|(_, c)| *c == opcode)
            .nth(nth)
            .map(|(o, _)| *o)
    };
    // OpIAdd 128, OpLoad 61, OpIMul 132, OpStore 62, OpFunction 54, OpVariable 59.
    let f = Handle::new(0);
    assert_eq!(o.function(f), at(54, 0));
    assert_eq!(o.op(f, Handle::new(0)), at(128, 0));
    assert_eq!(o.op(f, Handle::new(1)), at(61, 0));
    assert_eq!(o.op(f, Handle::new(2)), at(132, 0));
    assert_eq!(o.op(f, Handle::new(3)), at(62, 0));
    assert_eq!(o.global(Handle::new(0)), at(59, 0));
    assert_eq!(o.global(Handle::new(1)), at(59, 1));
    assert_eq!(o.op(f, Handle::new(4)), None);
}
