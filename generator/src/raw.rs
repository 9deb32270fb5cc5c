//! A serde model of the grammar JSON exactly as Khronos writes it.
//!
//! Every struct keeps the keys it does not know in `unknown`, so that a new field in a newer
//! grammar is reported (see [`crate::Grammar::unknown_keys`]) instead of silently ignored.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Keys the generator does not understand, by their JSON name.
pub type Unknown = BTreeMap<String, Value>;

/// `spirv.core.grammar.json` or an `extinst.*.grammar.json`.
#[derive(Deserialize)]
pub struct GrammarFile {
    #[serde(default)]
    pub copyright: Vec<String>,
    pub magic_number: Option<String>,
    pub major_version: Option<u32>,
    pub minor_version: Option<u32>,
    pub version: Option<u32>,
    pub revision: Option<u32>,
    #[serde(default)]
    pub instruction_printing_class: Vec<PrintingClass>,
    #[serde(default)]
    pub instructions: Vec<Instruction>,
    #[serde(default)]
    pub operand_kinds: Vec<OperandKind>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// One entry of `instruction_printing_class` (documentation grouping).
#[derive(Deserialize)]
pub struct PrintingClass {
    pub tag: String,
    pub heading: Option<String>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// One instruction.
#[derive(Deserialize)]
pub struct Instruction {
    pub opname: String,
    pub class: Option<String>,
    pub opcode: u32,
    #[serde(default)]
    pub operands: Vec<Operand>,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub capabilities: Vec<String>,
    /// The OpenCL.DebugInfo.100 grammar spells one instruction's list in the singular.
    pub capability: Option<String>,
    #[serde(default)]
    pub extensions: Vec<String>,
    pub version: Option<String>,
    #[serde(rename = "lastVersion")]
    pub last_version: Option<String>,
    #[serde(default)]
    pub provisional: bool,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// One operand of an instruction or parameter of an enumerant.
#[derive(Deserialize)]
pub struct Operand {
    pub kind: String,
    pub name: Option<String>,
    pub quantifier: Option<String>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// One operand kind.
#[derive(Deserialize)]
pub struct OperandKind {
    pub category: String,
    pub kind: String,
    pub doc: Option<String>,
    #[serde(default)]
    pub enumerants: Vec<Enumerant>,
    #[serde(default)]
    pub bases: Vec<String>,
    #[serde(flatten)]
    pub unknown: Unknown,
}

/// One enumerant; `value` is a number or, in bit enums, a hex string.
#[derive(Deserialize)]
pub struct Enumerant {
    pub enumerant: String,
    pub value: Value,
    #[serde(default)]
    pub aliases: Vec<String>,
    #[serde(default)]
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub extensions: Vec<String>,
    #[serde(default)]
    pub parameters: Vec<Operand>,
    pub version: Option<String>,
    #[serde(rename = "lastVersion")]
    pub last_version: Option<String>,
    #[serde(default)]
    pub provisional: bool,
    #[serde(flatten)]
    pub unknown: Unknown,
}
