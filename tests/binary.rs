//! The binary decoder on hand-built modules: header forms, context-dependent operands, unknown
//! values kept raw, and every kind of malformed input reported with its word offset.

use spvkit::binary::{decode_module, encode_module, words_from_bytes, DecodeErrorKind, Decoder};
use spvkit::grammar::ext::{glsl_std_450, ExtInstruction};
use spvkit::grammar::*;

const MAGIC: u32 = 0x0723_0203;

fn inst(opcode: u16, operands: &[u32]) -> Vec<u32> {
    let mut v = vec![((operands.len() as u32 + 1) << 16) | u32::from(opcode)];
    v.extend_from_slice(operands);
    v
}

fn module(bound: u32, insts: &[Vec<u32>]) -> Vec<u32> {
    let mut w = vec![MAGIC, 0x0001_0000, 0, bound, 0];
    for i in insts {
        w.extend_from_slice(i);
    }
    w
}

fn string_words(s: &str) -> Vec<u32> {
    let mut b = s.as_bytes().to_vec();
    b.push(0);
    while !b.len().is_multiple_of(4) {
        b.push(0);
    }
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn decode_err(words: &[u32]) -> spvkit::binary::DecodeError {
    decode_module(words).expect_err("decoding should fail")
}

/// A module with a 64-bit int, a 16-bit float, constants and a switch on the int.
fn context_module() -> Vec<u32> {
    module(
        20,
        &[
            inst(21, &[1, 64, 1]),                                    // %1 = OpTypeInt 64 1
            inst(22, &[2, 16]),                                       // %2 = OpTypeFloat 16
            inst(43, &[1, 3, 0xffff_fffe, 0xffff_ffff]),              // %3 = OpConstant %1 -2
            inst(43, &[2, 4, 0x3c00]),                                // %4 = OpConstant %2 1.0
            inst(251, &[3, 6, 1, 0, 7, 0x8000_0000, 0x7fff_ffff, 8]), // OpSwitch %3 %6 1 %7 ... %8
        ],
    )
}

#[test]
fn context_dependent_literals_take_their_types_width() {
    let words = context_module();
    let (_, insts) = decode_module(&words).unwrap();
    match &insts[2] {
        Instruction::Constant(c) => assert_eq!(c.value, LiteralNumber::DoubleWord(-2i64 as u64)),
        other => panic!("{other:?}"),
    }
    match &insts[3] {
        Instruction::Constant(c) => assert_eq!(c.value, LiteralNumber::Word(0x3c00)),
        other => panic!("{other:?}"),
    }
    match &insts[4] {
        Instruction::Switch(s) => {
            assert_eq!(s.selector, Id(3));
            assert_eq!(s.default, Id(6));
            assert_eq!(
                s.targets,
                vec![
                    (LiteralNumber::DoubleWord(1), Id(7)),
                    (LiteralNumber::DoubleWord(0x7fff_ffff_8000_0000), Id(8))
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    let (h, insts) = decode_module(&words).unwrap();
    assert_eq!(encode_module(&h, &insts).unwrap(), words);
}

#[test]
fn spec_constant_op_keeps_its_embedded_opcode() {
    let words = module(
        10,
        &[
            inst(21, &[1, 32, 0]),
            inst(43, &[1, 2, 5]),
            inst(52, &[1, 3, 128, 2, 2]),
        ],
    );
    let (_, insts) = decode_module(&words).unwrap();
    match &insts[2] {
        Instruction::SpecConstantOp(op) => {
            assert_eq!(op.opcode.opcode, Opcode::IAdd);
            assert_eq!(op.opcode.operands, vec![2, 2]);
            let mut ids = Vec::new();
            insts[2].visit_ids(&mut |i| ids.push(i.0));
            assert_eq!(ids, vec![1, 3, 2, 2]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn byte_swapped_modules_decode_the_same() {
    let words = context_module();
    let le: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let be: Vec<u8> = words.iter().flat_map(|w| w.to_be_bytes()).collect();
    assert_eq!(&words_from_bytes(&le).unwrap()[..], &words[..]);
    assert_eq!(&words_from_bytes(&be).unwrap()[..], &words[..]);
    let e = words_from_bytes(&le[..le.len() - 1]).unwrap_err();
    assert!(matches!(e.kind, DecodeErrorKind::ByteLength(_)));
    let e = words_from_bytes(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap_err();
    assert!(matches!(e.kind, DecodeErrorKind::BadMagic(_)));
}

#[test]
fn unknown_opcodes_and_enumerants_are_kept_raw() {
    let words = module(
        10,
        &[
            inst(17, &[0x7777]),         // OpCapability with an unknown value
            inst(0x7ffe, &[1, 2, 3]),    // an unknown opcode
            inst(71, &[1, 0x7fff_0000]), // OpDecorate with an unknown decoration
        ],
    );
    let (h, insts) = decode_module(&words).unwrap();
    assert!(
        insts.iter().all(|i| matches!(i, Instruction::Unknown(_))),
        "{insts:?}"
    );
    assert_eq!(insts[1].opcode_value(), 0x7ffe);
    assert_eq!(encode_module(&h, &insts).unwrap(), words);
}

#[test]
fn ext_instructions_decode_to_their_sets_types() {
    let mut import = vec![2];
    import.extend(string_words("GLSL.std.450"));
    let words = module(
        10,
        &[
            inst(11, &import),
            inst(22, &[1, 32]),
            inst(12, &[1, 3, 2, 13, 4]), // %3 = OpExtInst %1 %2 Sin %4
        ],
    );
    let mut d = Decoder::new(&words).unwrap();
    let mut raws = Vec::new();
    while let Some(r) = d.next_raw() {
        raws.push(r.unwrap());
    }
    match d.decode_ext(raws[2]).unwrap().unwrap() {
        ExtInstruction::GlslStd450(glsl_std_450::Instruction::Sin(s)) => assert_eq!(s.x, Id(4)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_modules_report_the_word_and_reason() {
    // Too short for a header.
    let e = decode_err(&[MAGIC, 0x10000]);
    assert!(matches!(e.kind, DecodeErrorKind::HeaderTooShort(2)));
    // Bad magic.
    let e = decode_err(&[0xdead_beef, 0, 0, 1, 0]);
    assert!(matches!(e.kind, DecodeErrorKind::BadMagic(0xdead_beef)));
    // Zero word count at word 5.
    let e = decode_err(&module(5, &[vec![0x0000_0011]]));
    assert_eq!((e.offset, e.kind), (5, DecodeErrorKind::ZeroWordCount));
    // A word count running past the end.
    let e = decode_err(&module(5, &[vec![0x0009_0011, 1]]));
    assert_eq!(e.offset, 5);
    assert!(matches!(
        e.kind,
        DecodeErrorKind::WordCountPastEnd { count: 9, left: 2 }
    ));
    // Missing operand: OpTypeInt with only a result id.
    let e = decode_err(&module(5, &[inst(21, &[1])]));
    assert!(matches!(e.kind, DecodeErrorKind::MissingOperand(_)), "{e}");
    assert_eq!(e.offset, 7);
    // Extra operands.
    let e = decode_err(&module(5, &[inst(21, &[1, 32, 0, 9])]));
    assert_eq!((e.offset, e.kind), (9, DecodeErrorKind::ExtraOperands(1)));
    // An id at the bound.
    let e = decode_err(&module(5, &[inst(21, &[5, 32, 0])]));
    assert_eq!(
        (e.offset, e.kind),
        (6, DecodeErrorKind::IdOutOfBound { id: 5, bound: 5 })
    );
    // An unterminated string (OpSourceExtension "abcd" with no nul word).
    let e = decode_err(&module(5, &[inst(4, &[u32::from_le_bytes(*b"abcd")])]));
    assert_eq!((e.offset, e.kind), (6, DecodeErrorKind::UnterminatedString));
    // A constant whose type is not numeric.
    let e = decode_err(&module(9, &[inst(19, &[1]), inst(43, &[1, 2, 0])]));
    assert!(
        matches!(e.kind, DecodeErrorKind::NotNumericType { id: 1 }),
        "{e}"
    );
    // Messages name the word.
    assert!(e.to_string().starts_with("word "), "{e}");
}

#[test]
fn a_huge_claimed_bound_does_not_allocate_by_claim() {
    // Bound 0xffffffff, ids near it: memory stays proportional to the input.
    let words = module(
        u32::MAX,
        &[
            inst(21, &[0xffff_fff0, 32, 0]),
            inst(43, &[0xffff_fff0, 0xffff_fff1, 7]),
        ],
    );
    let (_, insts) = decode_module(&words).unwrap();
    assert_eq!(insts.len(), 2);
}

#[test]
fn every_prefix_of_a_module_fails_cleanly_or_decodes() {
    let words = context_module();
    for n in 0..words.len() {
        let _ = decode_module(&words[..n]);
        let mut w = words.clone();
        w[n] ^= 0x0001_0000;
        let _ = decode_module(&w);
    }
}

#[test]
fn fuzz_regressions_decode_and_re_encode_unchanged() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/decode");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let Ok(words) = words_from_bytes(&bytes) else {
            continue;
        };
        if let Ok((h, insts)) = decode_module(&words) {
            assert_eq!(&encode_module(&h, &insts).unwrap()[..], &words[..]);
        }
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn strings_with_nonzero_padding_are_kept_raw() {
    // OpSourceExtension "B" with garbage after the nul.
    let words = module(5, &[inst(4, &[0xC900_0042])]);
    let (h, insts) = decode_module(&words).unwrap();
    assert!(matches!(insts[0], Instruction::Unknown(_)));
    assert_eq!(encode_module(&h, &insts).unwrap(), words);
}
