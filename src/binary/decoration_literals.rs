//! A decoration as its number and typed literal operands (integers and strings), read from
//! the grammar's parameter list. SPIR-V-friendly LLVM IR writes decorations this way
//! (`!{i32 41, !"v", i32 0}`), which needs to know which operands are strings.

use super::reader::{string_in, Encode, OperandReader};
use super::types::TypeTracker;
use crate::grammar::support::{KindClass, Quantifier};
use crate::grammar::{Decoration, Instruction, Opcode};

/// One literal operand of a decoration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecorationLiteral {
    /// A word: an integer, an enumerant or a mask.
    Int(u32),
    /// A string.
    Str(String),
}

fn params(number: u32) -> Option<&'static [crate::grammar::support::OperandDesc]> {
    crate::grammar::tables::kind_by_name("Decoration")
        .and_then(|k| k.enumerant(number))
        .map(|e| e.parameters)
}

/// The decoration's number and its operands, strings as strings; `None` for decorations
/// with id operands (they have no literal form) or an unknown number.
pub fn decoration_literals(d: &Decoration) -> Option<(u32, Vec<DecorationLiteral>)> {
    let mut words = Vec::new();
    d.encode(&mut words);
    let (&number, mut rest) = words.split_first()?;
    let mut out = Vec::new();
    for p in params(number)? {
        loop {
            if rest.is_empty() {
                break;
            }
            match p.kind.class {
                KindClass::Id | KindClass::Result | KindClass::ResultType => return None,
                KindClass::String => {
                    let (s, used) = string_in(rest).ok()?;
                    out.push(DecorationLiteral::Str(s.to_owned()));
                    rest = rest.get(used..)?;
                }
                _ => {
                    out.push(DecorationLiteral::Int(rest[0]));
                    rest = &rest[1..];
                }
            }
            if p.quantifier != Quantifier::Many {
                break;
            }
        }
    }
    rest.is_empty().then_some((number, out))
}

/// The words of a nul-terminated, zero-padded SPIR-V string.
fn string_words(s: &str, out: &mut Vec<u32>) {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    out.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
}

/// The decoration of a number and literal operands, checked against the grammar: every
/// operand of the kind (string or word) the grammar says, none missing, none extra.
pub fn decoration_from_literals(
    number: u32,
    lits: &[DecorationLiteral],
) -> Result<Decoration, String> {
    let ps = params(number).ok_or_else(|| format!("unknown decoration {number}"))?;
    let mut words = vec![1, number];
    let mut it = lits.iter().peekable();
    for p in ps {
        loop {
            let Some(lit) = it.peek() else {
                if p.quantifier == Quantifier::One {
                    return Err(format!(
                        "decoration {number} lacks its operand '{}'",
                        p.name
                    ));
                }
                break;
            };
            match (p.kind.class, lit) {
                (KindClass::Id | KindClass::Result | KindClass::ResultType, _) => {
                    return Err(format!(
                        "decoration {number} takes ids, which metadata cannot hold"
                    ))
                }
                (KindClass::String, DecorationLiteral::Str(s)) => string_words(s, &mut words),
                (KindClass::String, DecorationLiteral::Int(_)) => {
                    return Err(format!(
                        "decoration {number}: operand '{}' must be a string",
                        p.name
                    ))
                }
                (_, DecorationLiteral::Int(w)) => words.push(*w),
                (_, DecorationLiteral::Str(_)) => {
                    return Err(format!(
                        "decoration {number}: operand '{}' must be an integer",
                        p.name
                    ))
                }
            }
            it.next();
            if p.quantifier != Quantifier::Many {
                break;
            }
        }
    }
    if it.next().is_some() {
        return Err(format!("decoration {number} has too many operands"));
    }
    let tracker = TypeTracker::new(0);
    let mut r = OperandReader::new(&words, 0, u32::MAX, &tracker);
    let inst = super::codec::decode_operands(Opcode::Decorate as u16, &mut r)
        .and_then(|i| r.finish().map(|()| i))
        .map_err(|e| format!("decoration {number}: {e}"))?;
    match inst {
        Instruction::Decorate(d) => Ok(d.decoration),
        _ => Err(format!("decoration {number} did not decode")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::LinkageType;

    #[test]
    fn strings_and_words_round_trip() {
        let d = Decoration::LinkageAttributes("v".into(), LinkageType::Export);
        let (n, lits) = decoration_literals(&d).unwrap();
        assert_eq!(n, 41);
        assert_eq!(
            lits,
            vec![
                DecorationLiteral::Str("v".into()),
                DecorationLiteral::Int(0)
            ]
        );
        assert_eq!(decoration_from_literals(n, &lits).unwrap(), d);
        assert!(decoration_from_literals(41, &[DecorationLiteral::Int(0)]).is_err());
        assert!(decoration_from_literals(22, &[DecorationLiteral::Int(0)]).is_err());
        assert!(decoration_from_literals(99_999, &[]).is_err());
    }
}
