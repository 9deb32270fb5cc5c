//! `grammar/opcode_groups.json`: groups of core opcodes that spvkit needs named and the
//! grammar's instruction classes do not state (block terminators; what SPIRV-Tools counts as
//! a type). Each group is a list of grammar names, checked against the grammar like the
//! lowering table: a name the grammar lacks fails the build, unless the group lists it under
//! `if_present` (ops only newer grammars have).

use crate::model::Grammar;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// Free text for readers of the file.
    #[serde(default)]
    #[allow(dead_code)]
    comment: Vec<String>,
    /// Groups by name (`block_terminator`): the generated predicate is `Opcode::is_<name>`.
    groups: BTreeMap<String, RawGroup>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    /// What the group is and why the grammar cannot say it.
    doc: String,
    /// Every op of this grammar class is in the group.
    #[serde(default)]
    class: Option<String>,
    /// Every op of each of these grammar classes is in the group.
    #[serde(default)]
    classes: Vec<String>,
    /// Every op whose name starts with this is in the group (`OpType`).
    #[serde(default)]
    prefix: Option<String>,
    /// Op names (`OpBranch`) or aliases the grammar must have.
    #[serde(default)]
    ops: Vec<String>,
    /// Op names taken out again (each must be in the grammar).
    #[serde(default)]
    except: Vec<String>,
    /// Op names that only some grammars have.
    #[serde(default)]
    if_present: Vec<String>,
}

/// A checked group.
#[derive(Clone, Debug)]
pub struct Group {
    /// The predicate's name, `is_<name>`.
    pub name: String,
    /// Its documentation.
    pub doc: String,
    /// Opcodes of the grammar in the group, ascending, without duplicates.
    pub opcodes: Vec<u32>,
}

/// Parses and checks the file against a grammar.
pub fn read(text: &str, grammar: &Grammar) -> Result<Vec<Group>, String> {
    let file: File = serde_json::from_str(text).map_err(|e| format!("opcode groups: {e}"))?;
    let opcode_of = |name: &str| {
        grammar
            .instructions
            .iter()
            .find(|i| i.opname == name || i.aliases.iter().any(|a| a == name))
            .map(|i| i.opcode)
    };
    let mut out = Vec::new();
    for (name, g) in file.groups {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            return Err(format!("opcode group {name:?}: names are lower_snake_case"));
        }
        let mut opcodes = Vec::new();
        for op in &g.ops {
            opcodes.push(
                opcode_of(op)
                    .ok_or_else(|| format!("opcode group {name}: the grammar has no {op}"))?,
            );
        }
        opcodes.extend(g.if_present.iter().filter_map(|op| opcode_of(op)));
        let classes: Vec<&String> = g.class.iter().chain(&g.classes).collect();
        for i in &grammar.instructions {
            let in_class = classes.contains(&&i.class);
            let prefixed = g.prefix.as_ref().is_some_and(|p| {
                std::iter::once(&i.opname)
                    .chain(&i.aliases)
                    .any(|n| n.starts_with(p.as_str()))
            });
            if in_class || prefixed {
                opcodes.push(i.opcode);
            }
        }
        for c in classes {
            if !grammar.instructions.iter().any(|i| &i.class == c) {
                return Err(format!("opcode group {name}: the grammar has no class {c}"));
            }
        }
        for op in &g.except {
            let c = opcode_of(op)
                .ok_or_else(|| format!("opcode group {name}: the grammar has no {op}"))?;
            opcodes.retain(|&o| o != c);
        }
        opcodes.sort_unstable();
        opcodes.dedup();
        out.push(Group {
            name,
            doc: g.doc,
            opcodes,
        });
    }
    Ok(out)
}
