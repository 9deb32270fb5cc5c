//! The disassembler: SPIR-V binary → assembly text, byte-for-byte what `spirv-dis` of
//! SPIRV-Tools 2023.1 prints (target environment SPIR-V 1.5, its default).
//!
//! One optional pass collects friendly names (`text::names`); a second walks every
//! instruction once, checks each operand against the grammar tables and writes its text to a
//! small buffer that is flushed to the output as it fills. Besides the names, the only state
//! kept is a byte per id (the numeric type of types and values, for `OpConstant` and `OpSwitch`
//! literals) and the extended-instruction-set imports.
//!
//! SPIRV-Tools' behaviours reproduced here include:
//! - result ids right-aligned so that opcodes start at column 15 when indenting;
//! - numbers typed by their result or selector type (signed, unsigned, 16/32/64-bit floats,
//!   hex floats for subnormals, infinities and NaNs, nothing for literals wider than 64 bits);
//! - masks as `A|B` from the lowest bit, `None` for zero;
//! - `OpSpecConstantOp` operations without their `Op`;
//! - extended instructions by name; numbers for unknown instructions of non-semantic sets
//!   (`NonSemantic.*` other than `Shader.DebugInfo.100` and `ClspvReflection.*` are unknown to
//!   SPIRV-Tools 2023.1, `NonSemantic.DebugPrintf` included);
//! - enumerants that SPIR-V 1.5 lacks and no capability or extension enables are errors.
//!
//! Unlike `spirv-dis`, ids are checked against the header's bound. An id defined twice is an
//! error, as in `spirv-dis`.

use super::names::Names;
use crate::binary::number_text::write_u32;
use crate::binary::print::{IdNames, Printer, RawIds};
use crate::binary::{DecodeError, DecodeErrorKind, Frames, HEADER_WORDS};
use crate::grammar::tables::{GENERATOR_TOOLS, MAGIC_NUMBER};
use core::fmt;
use std::io::Write;

/// Options mirroring `spirv-dis`'s flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisassembleOptions {
    /// Name ids after `OpName`, types and constants (`spirv-dis` without `--raw-id`).
    pub friendly_names: bool,
    /// Start with the `; SPIR-V` header comment (`spirv-dis` without `--no-header`).
    pub header: bool,
    /// Align instructions so that opcodes start at column 15 (`spirv-dis` without
    /// `--no-indent`).
    pub indent: bool,
    /// End each instruction with a `; 0x…` byte-offset comment (`spirv-dis --offsets`).
    pub offsets: bool,
}

impl Default for DisassembleOptions {
    /// `spirv-dis`'s defaults: friendly names, header, indentation, no offsets.
    fn default() -> Self {
        DisassembleOptions {
            friendly_names: true,
            header: true,
            indent: true,
            offsets: false,
        }
    }
}

/// Why disassembly failed.
#[derive(Debug)]
pub enum DisassembleError {
    /// The module is malformed; the error has the word offset.
    Decode(DecodeError),
    /// Writing the text failed.
    Io(std::io::Error),
}

impl fmt::Display for DisassembleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DisassembleError::Decode(e) => e.fmt(f),
            DisassembleError::Io(e) => write!(f, "writing the disassembly: {e}"),
        }
    }
}

impl std::error::Error for DisassembleError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DisassembleError::Decode(e) => Some(e),
            DisassembleError::Io(e) => Some(e),
        }
    }
}

impl From<DecodeError> for DisassembleError {
    fn from(e: DecodeError) -> Self {
        DisassembleError::Decode(e)
    }
}

impl From<std::io::Error> for DisassembleError {
    fn from(e: std::io::Error) -> Self {
        DisassembleError::Io(e)
    }
}

/// Disassembles a module (native-order words; a byte-swapped module is accepted too) and
/// writes the text to `out` as it goes.
pub fn disassemble<W: Write>(
    words: &[u32],
    opts: &DisassembleOptions,
    out: &mut W,
) -> Result<(), DisassembleError> {
    if words.first() == Some(&MAGIC_NUMBER.swap_bytes()) {
        let swapped: Vec<u32> = words.iter().map(|w| w.swap_bytes()).collect();
        return run(&swapped, opts, out);
    }
    run(words, opts, out)
}

pub use crate::binary::instruction_texts;

/// Disassembles a module into a string. Bytes of the module's strings that are not UTF-8 are
/// replaced by U+FFFD.
pub fn disassemble_to_string(
    words: &[u32],
    opts: &DisassembleOptions,
) -> Result<String, DisassembleError> {
    let mut out = Vec::with_capacity(words.len() * 6);
    disassemble(words, opts, &mut out)?;
    Ok(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Output is flushed whenever the buffer grows past this.
const FLUSH_AT: usize = 1 << 16;

fn run<W: Write>(
    words: &[u32],
    opts: &DisassembleOptions,
    out: &mut W,
) -> Result<(), DisassembleError> {
    if words.len() < 5 {
        return Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::HeaderTooShort(words.len()),
        }
        .into());
    }
    if words[0] != MAGIC_NUMBER {
        return Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::BadMagic(words[0]),
        }
        .into());
    }
    let version = words[1];
    if version & 0xffff_00ff != 0x0001_0000 || (version >> 8) & 0xff > 6 {
        return Err(DecodeError {
            offset: 1,
            kind: DecodeErrorKind::UnknownEnumerant {
                kind: "SPIR-V version",
                value: version,
            },
        }
        .into());
    }
    let bound = words[3];
    let buf = Vec::with_capacity(FLUSH_AT + 4096);
    let mut header = Vec::new();
    if opts.header {
        write_header(&mut header, words);
    }
    out.write_all(&header)?;
    if opts.friendly_names {
        let names = Names::build(words, bound);
        stream(
            Printer::new(bound, words.len(), names, opts.indent, opts.offsets, buf),
            words,
            out,
        )
    } else {
        stream(
            Printer::new(bound, words.len(), RawIds, opts.indent, opts.offsets, buf),
            words,
            out,
        )
    }
}

/// Prints every instruction after the header, flushing the buffer as it fills.
fn stream<N: IdNames, W: Write>(
    mut p: Printer<N>,
    words: &[u32],
    out: &mut W,
) -> Result<(), DisassembleError> {
    for raw in Frames::new(words, HEADER_WORDS) {
        let raw = match raw {
            Ok(raw) => raw,
            Err(e) => {
                out.write_all(&p.buf)?;
                return Err(e.into());
            }
        };
        let line_start = p.buf.len();
        if let Err(e) = p.instruction(raw.offset, raw.opcode, raw.operands) {
            p.buf.truncate(line_start);
            out.write_all(&p.buf)?;
            return Err(e.into());
        }
        if p.buf.len() >= FLUSH_AT {
            out.write_all(&p.buf)?;
            p.buf.clear();
        }
    }
    out.write_all(&p.buf)?;
    out.flush()?;
    Ok(())
}

/// The `; SPIR-V` comment block `spirv-dis` starts with.
fn write_header(b: &mut Vec<u8>, words: &[u32]) {
    {
        b.extend_from_slice(b"; SPIR-V\n; Version: ");
        write_u32(b, (words[1] >> 16) & 0xff);
        b.push(b'.');
        write_u32(b, (words[1] >> 8) & 0xff);
        b.extend_from_slice(b"\n; Generator: ");
        let tool = words[2] >> 16;
        match GENERATOR_TOOLS.iter().find(|t| t.id == tool) {
            Some(t) => {
                b.extend_from_slice(t.vendor.as_bytes());
                if let Some(name) = t.tool {
                    b.push(b' ');
                    b.extend_from_slice(name.as_bytes());
                }
            }
            None => {
                b.extend_from_slice(b"Unknown(");
                write_u32(b, tool);
                b.push(b')');
            }
        }
        b.extend_from_slice(b"; ");
        write_u32(b, words[2] & 0xffff);
        b.extend_from_slice(b"\n; Bound: ");
        write_u32(b, words[3]);
        b.extend_from_slice(b"\n; Schema: ");
        write_u32(b, words[4]);
        b.push(b'\n');
    }
}
