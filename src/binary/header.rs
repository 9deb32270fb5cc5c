//! The five-word module header, and bytes → words in either byte order.

use super::error::{DecodeError, DecodeErrorKind};
use crate::grammar::tables::MAGIC_NUMBER;
use std::borrow::Cow;

/// Words in the header.
pub const HEADER_WORDS: usize = 5;

/// The module header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The version word (`0x00MMmm00`).
    pub version: u32,
    /// The generator word: tool id in the upper half, tool version in the lower.
    pub generator: u32,
    /// Every id is below this.
    pub bound: u32,
    /// Reserved; zero.
    pub schema: u32,
}

impl Header {
    /// Reads the header from native-order words.
    pub fn parse(words: &[u32]) -> Result<Header, DecodeError> {
        if words.len() < HEADER_WORDS {
            return Err(DecodeError {
                offset: 0,
                kind: DecodeErrorKind::HeaderTooShort(words.len()),
            });
        }
        if words[0] != MAGIC_NUMBER {
            return Err(DecodeError {
                offset: 0,
                kind: DecodeErrorKind::BadMagic(words[0]),
            });
        }
        Ok(Header {
            version: words[1],
            generator: words[2],
            bound: words[3],
            schema: words[4],
        })
    }

    /// The header as words.
    pub fn words(&self) -> [u32; HEADER_WORDS] {
        [
            MAGIC_NUMBER,
            self.version,
            self.generator,
            self.bound,
            self.schema,
        ]
    }
}

/// Turns a module's bytes into native words, detecting the byte order from the magic number.
/// Borrows when the bytes are aligned and already in native order; copies otherwise.
pub fn words_from_bytes(bytes: &[u8]) -> Result<Cow<'_, [u32]>, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError {
            offset: bytes.len() / 4,
            kind: DecodeErrorKind::ByteLength(bytes.len()),
        });
    }
    if bytes.len() < 4 {
        return Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::HeaderTooShort(0),
        });
    }
    let first = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let little = if u32::from_le_bytes(first) == MAGIC_NUMBER {
        true
    } else if u32::from_be_bytes(first) == MAGIC_NUMBER {
        false
    } else {
        return Err(DecodeError {
            offset: 0,
            kind: DecodeErrorKind::BadMagic(u32::from_le_bytes(first)),
        });
    };
    if little == cfg!(target_endian = "little") {
        if let Ok(words) = bytemuck::try_cast_slice::<u8, u32>(bytes) {
            return Ok(Cow::Borrowed(words));
        }
    }
    let read = if little {
        u32::from_le_bytes
    } else {
        u32::from_be_bytes
    };
    Ok(Cow::Owned(
        bytes
            .chunks_exact(4)
            .map(|c| read([c[0], c[1], c[2], c[3]]))
            .collect(),
    ))
}
