//! The generated decode/encode of every operand kind and instruction (`codec.rs` in OUT_DIR).

#![allow(clippy::all, unused_imports, unused_variables, unused_mut)]

use super::error::DecodeError;
use super::reader::{Decode, Encode, OperandReader};
use crate::grammar::ext::{ExtInstSet, ExtInstruction};
use crate::grammar::{Instruction, UnknownInstruction};

include!(concat!(env!("OUT_DIR"), "/codec.rs"));
