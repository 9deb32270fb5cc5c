//! The declarative lowering table (`grammar/lowering.json`): one-to-one conversions from SPIR-V
//! ops and extended instructions to LLVM instructions, predicates, intrinsics and C math
//! library calls.
//!
//! The generator knows nothing of LLVM beyond this table's own vocabulary: the kinds below and,
//! per kind, the names it accepts. It checks every op and instruction name against the grammar
//! so that a misspelled name fails the build.

use crate::model::Grammar;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Free text for readers of the file.
    #[serde(default)]
    pub comment: Vec<String>,
    /// Core ops, by grammar name (`OpIAdd`).
    pub core: Vec<Entry>,
    /// Extended instruction sets, by import name (`GLSL.std.450`), then instruction name.
    pub ext: BTreeMap<String, Vec<Entry>>,
}

/// One conversion.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The SPIR-V op (`OpIAdd`) or extended instruction (`Sqrt`) name, as the grammar spells it.
    pub op: String,
    /// `binop`, `unop`, `cast`, `icmp`, `fcmp`, `select`, `intrinsic` or `libm`.
    pub kind: String,
    /// The target name: instruction, predicate, intrinsic or C function (f64 spelling).
    pub llvm: String,
    /// Intrinsics: the types the intrinsic is overloaded on: `result` or `operandN`
    /// (default: `["result"]`).
    #[serde(default)]
    pub overload: Option<Vec<String>>,
    /// Intrinsics: a constant `i1` argument appended after the operands (`llvm.abs`,
    /// `llvm.ctlz`: whether INT_MIN / zero give poison).
    #[serde(default)]
    pub trailing_i1: Option<bool>,
}

/// The names each kind accepts.
pub fn vocabulary(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "binop" => &[
            "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "fadd", "fsub", "fmul", "fdiv",
            "frem", "and", "or", "xor",
        ],
        "unop" => &["fneg", "neg"],
        "cast" => &[
            "fptoui", "fptosi", "uitofp", "sitofp", "bitcast", "ptrtoint", "inttoptr",
        ],
        "icmp" => &[
            "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle",
        ],
        "fcmp" => &[
            "oeq", "one", "olt", "ole", "ogt", "oge", "ord", "ueq", "une", "ult", "ule", "ugt",
            "uge", "uno",
        ],
        "fcmp_self" => &["uno", "ord"],
        "select" => &["select"],
        // Intrinsic and libm names are free-form: LLVM checks them when the lowering looks
        // them up.
        "intrinsic" | "libm" => &[],
        _ => return None,
    })
}

/// A checked entry: the grammar's instruction (opcode or number) and the entry.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The grammar name of the instruction.
    pub name: String,
    /// Its opcode (core) or instruction number (extended set).
    pub number: u32,
    /// The kind.
    pub kind: String,
    /// The target name.
    pub llvm: String,
    /// Overload types: `None` for the result, `Some(i)` for operand `i`.
    pub overload: Vec<Option<u8>>,
    /// The trailing `i1` argument.
    pub trailing_i1: Option<bool>,
}

/// The whole table, checked against a grammar.
#[derive(Clone, Debug, Default)]
pub struct CheckedTable {
    /// Core ops.
    pub core: Vec<Checked>,
    /// Per set: the set's import name and its entries.
    pub ext: Vec<(String, Vec<Checked>)>,
}

/// Parses the JSON text of a table.
pub fn parse(text: &str) -> Result<Table, String> {
    serde_json::from_str(text).map_err(|e| format!("lowering.json: {e}"))
}

fn check_entry(
    e: &Entry,
    number: Option<u32>,
    where_: &str,
    max_operands: usize,
) -> Result<Checked, String> {
    let number = number.ok_or_else(|| {
        format!(
            "lowering.json: `{}` is not an instruction of {where_} (misspelled?)",
            e.op
        )
    })?;
    let vocab = vocabulary(&e.kind).ok_or_else(|| {
        format!(
            "lowering.json: `{}`: unknown kind `{}` (binop, unop, cast, icmp, fcmp, fcmp_self, \
             select, intrinsic, libm)",
            e.op, e.kind
        )
    })?;
    if !vocab.is_empty() && !vocab.contains(&e.llvm.as_str()) {
        return Err(format!(
            "lowering.json: `{}`: `{}` is not a {} name ({})",
            e.op,
            e.llvm,
            e.kind,
            vocab.join(", ")
        ));
    }
    if (e.overload.is_some() || e.trailing_i1.is_some()) && e.kind != "intrinsic" {
        return Err(format!(
            "lowering.json: `{}`: overload and trailing_i1 are for intrinsics only",
            e.op
        ));
    }
    let mut overload = Vec::new();
    for o in e
        .overload
        .clone()
        .unwrap_or_else(|| vec!["result".to_string()])
    {
        if o == "result" {
            overload.push(None);
        } else if let Some(i) = o
            .strip_prefix("operand")
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|&i| (i as usize) < max_operands)
        {
            overload.push(Some(i));
        } else {
            return Err(format!(
                "lowering.json: `{}`: bad overload `{o}` (result or operandN)",
                e.op
            ));
        }
    }
    Ok(Checked {
        name: e.op.clone(),
        number,
        kind: e.kind.clone(),
        llvm: e.llvm.clone(),
        overload,
        trailing_i1: e.trailing_i1,
    })
}

/// Checks every name of `table` against `g`.
pub fn check(table: &Table, g: &Grammar) -> Result<CheckedTable, String> {
    let mut out = CheckedTable::default();
    let mut seen = std::collections::BTreeSet::new();
    for e in &table.core {
        let inst = g.instructions.iter().find(|i| i.opname == e.op);
        let c = check_entry(
            e,
            inst.map(|i| i.opcode),
            "the core grammar",
            inst.map_or(0, |i| i.operands.len()),
        )?;
        if !seen.insert(("core".to_string(), c.number)) {
            return Err(format!("lowering.json: `{}` is listed twice", e.op));
        }
        out.core.push(c);
    }
    for (set, entries) in &table.ext {
        let s = g
            .ext_sets
            .iter()
            .find(|s| &s.import_name == set)
            .ok_or_else(|| format!("lowering.json: `{set}` is not an extended instruction set"))?;
        let mut checked = Vec::new();
        for e in entries {
            let inst = s.instructions.iter().find(|i| i.opname == e.op);
            let c = check_entry(
                e,
                inst.map(|i| i.opcode),
                set,
                inst.map_or(0, |i| i.operands.len()),
            )?;
            if !seen.insert((set.clone(), c.number)) {
                return Err(format!("lowering.json: `{set}` `{}` is listed twice", e.op));
            }
            checked.push(c);
        }
        out.ext.push((set.clone(), checked));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar() -> Grammar {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../grammar");
        crate::load(&dir)
            .expect("the repository grammar loads")
            .grammar
    }

    #[test]
    fn a_misspelled_core_op_fails_with_its_name() {
        let t =
            parse(r#"{"core": [{"op": "OpIAddd", "kind": "binop", "llvm": "add"}], "ext": {}}"#)
                .unwrap();
        let e = check(&t, &grammar()).unwrap_err();
        assert!(
            e.contains("`OpIAddd` is not an instruction of the core grammar"),
            "{e}"
        );
    }

    #[test]
    fn a_misspelled_ext_instruction_fails_with_its_name() {
        let t = parse(
            r#"{"core": [], "ext": {"GLSL.std.450": [{"op": "Sqrtt", "kind": "intrinsic", "llvm": "llvm.sqrt"}]}}"#,
        )
        .unwrap();
        let e = check(&t, &grammar()).unwrap_err();
        assert!(
            e.contains("`Sqrtt` is not an instruction of GLSL.std.450"),
            "{e}"
        );
    }

    #[test]
    fn an_unknown_kind_or_name_fails() {
        let t =
            parse(r#"{"core": [{"op": "OpIAdd", "kind": "binop", "llvm": "addd"}], "ext": {}}"#)
                .unwrap();
        assert!(check(&t, &grammar())
            .unwrap_err()
            .contains("`addd` is not a binop name"));
        let t = parse(r#"{"core": [{"op": "OpIAdd", "kind": "frob", "llvm": "add"}], "ext": {}}"#)
            .unwrap();
        assert!(check(&t, &grammar())
            .unwrap_err()
            .contains("unknown kind `frob`"));
    }

    #[test]
    fn the_repository_table_checks() {
        let g = grammar();
        let t = g.lowering.clone().expect("grammar/lowering.json is loaded");
        assert!(t.core.len() > 40);
    }
}
