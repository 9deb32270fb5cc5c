//! spvkit's build-time generator: reads the Khronos SPIR-V grammar and emits Rust.
//!
//! The flow is one way: [`raw`] (serde model of the JSON) → [`model`] (one normalized model for
//! old and new schemas) → [`emit`] (token streams per output file, formatted by prettyplease).
//! The generator knows the grammar and nothing about LLVM or HLSL; for the IR it only emits
//! per-instruction constructors against a small contract (see [`emit`]'s `builder.rs`).

pub mod emit;
pub mod groups;
pub mod lowering;
pub mod model;
pub mod raw;
mod registry;

use std::path::{Path, PathBuf};

pub use model::Grammar;

/// A grammar directory, loaded and normalized.
pub struct Loaded {
    /// The normalized grammar.
    pub grammar: Grammar,
    /// `file: path.to.key` for every JSON key the generator does not understand.
    pub unknown_keys: Vec<String>,
    /// Every file read, for `cargo:rerun-if-changed`.
    pub inputs: Vec<PathBuf>,
}

/// One generated Rust file.
pub struct GeneratedFile {
    /// File name, e.g. `ops.rs`.
    pub name: &'static str,
    /// Formatted contents, header included.
    pub contents: String,
}

fn read_json(path: &Path) -> Result<raw::GrammarFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn note_unknown(file: &str, at: &str, unknown: &raw::Unknown, out: &mut Vec<String>) {
    for k in unknown.keys() {
        out.push(format!("{file}: {at}{k}"));
    }
}

fn collect_unknown(file: &str, g: &raw::GrammarFile, out: &mut Vec<String>) {
    note_unknown(file, "", &g.unknown, out);
    for c in &g.instruction_printing_class {
        note_unknown(file, "instruction_printing_class.", &c.unknown, out);
    }
    for i in &g.instructions {
        let at = format!("instructions[{}].", i.opname);
        note_unknown(file, &at, &i.unknown, out);
        for o in &i.operands {
            note_unknown(file, &format!("{at}operands."), &o.unknown, out);
        }
    }
    for k in &g.operand_kinds {
        let at = format!("operand_kinds[{}].", k.kind);
        note_unknown(file, &at, &k.unknown, out);
        for e in &k.enumerants {
            let at = format!("{at}enumerants[{}].", e.enumerant);
            note_unknown(file, &at, &e.unknown, out);
            for p in &e.parameters {
                note_unknown(file, &format!("{at}parameters."), &p.unknown, out);
            }
        }
    }
}

/// Reads `spirv.core.grammar.json`, every `extinst.*.grammar.json` and, when present,
/// `spir-v.xml` (the generator-id registry) from `dir`.
pub fn load(dir: &Path) -> Result<Loaded, String> {
    let core_path = dir.join("spirv.core.grammar.json");
    let core = read_json(&core_path)?;
    let mut unknown_keys = Vec::new();
    let mut inputs = vec![core_path];
    collect_unknown("spirv.core.grammar.json", &core, &mut unknown_keys);
    let mut ext = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(stem) = name
            .strip_prefix("extinst.")
            .and_then(|n| n.strip_suffix(".grammar.json"))
        {
            let g = read_json(&path)?;
            collect_unknown(&name, &g, &mut unknown_keys);
            ext.push((stem.to_string(), g));
            inputs.push(path);
        }
    }
    let xml = dir.join("spir-v.xml");
    let tools = if xml.exists() {
        inputs.push(xml.clone());
        let text = std::fs::read_to_string(&xml).map_err(|e| format!("{}: {e}", xml.display()))?;
        registry::tools(&text)
    } else {
        Vec::new()
    };
    let mut grammar = Grammar::normalize(&core, &ext, tools)?;
    let groups = dir.join("opcode_groups.json");
    if groups.exists() {
        grammar.groups = Some(read_groups(&groups, &grammar)?);
        inputs.push(groups);
    }
    let table = dir.join("lowering.json");
    if table.exists() {
        grammar.lowering = Some(read_lowering_table(&table, &grammar)?);
        inputs.push(table);
    }
    Ok(Loaded {
        grammar,
        unknown_keys,
        inputs,
    })
}

/// Adds the lowering table at `path` to a grammar loaded from a directory without one (a newer
/// official grammar has no `lowering.json`; spvkit's own table is checked against it instead).
pub fn add_lowering_table(loaded: &mut Loaded, path: &Path) -> Result<(), String> {
    loaded.grammar.lowering = Some(read_lowering_table(path, &loaded.grammar)?);
    loaded.inputs.push(path.to_path_buf());
    Ok(())
}

/// Adds the opcode groups at `path` to a grammar loaded from a directory without them (a newer
/// official grammar has no `opcode_groups.json`; spvkit's own is checked against it instead).
pub fn add_groups_table(loaded: &mut Loaded, path: &Path) -> Result<(), String> {
    loaded.grammar.groups = Some(read_groups(path, &loaded.grammar)?);
    loaded.inputs.push(path.to_path_buf());
    Ok(())
}

/// Reads and checks the opcode groups against a grammar.
fn read_groups(path: &Path, grammar: &Grammar) -> Result<Vec<groups::Group>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    groups::read(&text, grammar).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads and checks a lowering table against a grammar.
fn read_lowering_table(path: &Path, grammar: &Grammar) -> Result<lowering::CheckedTable, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    lowering::check(&lowering::parse(&text)?, grammar)
}

/// Generates every output file from a loaded grammar.
pub fn generate(grammar: &Grammar) -> Result<Vec<GeneratedFile>, String> {
    emit::all(grammar)
}
