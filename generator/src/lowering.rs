//! The declarative lowering table (`grammar/lowering.json`), the one record of how every op
//! lowers: one-to-one conversions from SPIR-V ops and extended instructions to LLVM
//! instructions, predicates, intrinsics and C math library calls; the special cases of
//! `crate::lower::special` by handler name; and the ops lowered by hand-written modules.
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
    /// `binop`, `unop`, `cast`, `icmp`, `fcmp`, `select`, `intrinsic`, `libm` (patterns),
    /// `special` or `hand_written`.
    pub kind: String,
    /// Patterns: the target name: instruction, predicate, intrinsic or C function (f64
    /// spelling).
    #[serde(default)]
    pub llvm: Option<String>,
    /// `special`: the function of `crate::lower::special` that lowers the op.
    #[serde(default)]
    pub handler: Option<String>,
    /// `hand_written`: the module that lowers the op (`src/lower/ops/<module>.rs`, or
    /// `src/lower/<module>.rs`; `ops` is `src/lower/ops/mod.rs`).
    #[serde(default)]
    pub module: Option<String>,
    /// Intrinsics: the types the intrinsic is overloaded on: `result` or `operandN`
    /// (default: `["result"]`).
    #[serde(default)]
    pub overload: Option<Vec<String>>,
    /// Intrinsics: a constant `i1` argument appended after the operands (`llvm.abs`,
    /// `llvm.ctlz`: whether INT_MIN / zero give poison).
    #[serde(default)]
    pub trailing_i1: Option<bool>,
}

/// The kind of a special case of `crate::lower::special`.
pub const SPECIAL: &str = "special";
/// The kind of an op lowered by a hand-written module.
pub const HAND_WRITTEN: &str = "hand_written";

/// Whether `kind` is a pattern (one LLVM instruction, predicate, intrinsic or C call).
pub fn is_pattern(kind: &str) -> bool {
    kind != SPECIAL && kind != HAND_WRITTEN
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
        // Rust names, checked by `is_rust_name`.
        SPECIAL | HAND_WRITTEN => &[],
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
    /// The target name (patterns), handler function (`special`) or module (`hand_written`).
    pub target: String,
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
             select, intrinsic, libm, special, hand_written)",
            e.op, e.kind
        )
    })?;
    // Each kind names its target in its own field, and only there.
    let given = [
        ("llvm", &e.llvm),
        ("handler", &e.handler),
        ("module", &e.module),
    ];
    let field = match e.kind.as_str() {
        SPECIAL => "handler",
        HAND_WRITTEN => "module",
        _ => "llvm",
    };
    let mut target = None;
    for (f, v) in given {
        match v {
            Some(v) if f == field => target = Some(v.clone()),
            Some(_) => {
                return Err(format!(
                    "lowering.json: `{}`: `{f}` is not a field of kind `{}`",
                    e.op, e.kind
                ))
            }
            None => {}
        }
    }
    let target = target.ok_or_else(|| {
        format!(
            "lowering.json: `{}`: kind `{}` needs `{field}`",
            e.op, e.kind
        )
    })?;
    if !is_pattern(&e.kind) && !is_rust_name(&target) {
        return Err(format!(
            "lowering.json: `{}`: `{target}` is not a snake_case Rust name",
            e.op
        ));
    }
    if !vocab.is_empty() && !vocab.contains(&target.as_str()) {
        return Err(format!(
            "lowering.json: `{}`: `{}` is not a {} name ({})",
            e.op,
            target,
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
        target,
        overload,
        trailing_i1: e.trailing_i1,
    })
}

/// A function or module name the generated code can use as is.
fn is_rust_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
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
    fn special_and_hand_written_entries_name_their_code() {
        let t = parse(
            r#"{"core": [{"op": "OpUDiv", "kind": "special", "handler": "u_div"},
                         {"op": "OpLoad", "kind": "hand_written", "module": "memory"}], "ext": {}}"#,
        )
        .unwrap();
        let c = check(&t, &grammar()).unwrap();
        assert_eq!(
            (c.core[0].kind.as_str(), c.core[0].target.as_str()),
            ("special", "u_div")
        );
        assert_eq!(c.core[1].target, "memory");
        for (json, want) in [
            (
                r#"{"op": "OpUDiv", "kind": "special"}"#,
                "kind `special` needs `handler`",
            ),
            (
                r#"{"op": "OpUDiv", "kind": "special", "llvm": "udiv"}"#,
                "`llvm` is not a field of kind `special`",
            ),
            (
                r#"{"op": "OpUDiv", "kind": "special", "handler": "UDiv"}"#,
                "`UDiv` is not a snake_case Rust name",
            ),
            (
                r#"{"op": "OpUDivv", "kind": "hand_written", "module": "misc"}"#,
                "`OpUDivv` is not an instruction",
            ),
        ] {
            let t = parse(&format!(r#"{{"core": [{json}], "ext": {{}}}}"#)).unwrap();
            let e = check(&t, &grammar()).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }

    #[test]
    fn an_op_with_two_routes_fails() {
        let t = parse(
            r#"{"core": [{"op": "OpUDiv", "kind": "binop", "llvm": "udiv"},
                         {"op": "OpUDiv", "kind": "special", "handler": "u_div"}], "ext": {}}"#,
        )
        .unwrap();
        assert!(check(&t, &grammar())
            .unwrap_err()
            .contains("`OpUDiv` is listed twice"));
    }

    #[test]
    fn the_repository_table_checks() {
        let g = grammar();
        let t = g.lowering.clone().expect("grammar/lowering.json is loaded");
        assert!(t.core.len() > 40);
    }
}
