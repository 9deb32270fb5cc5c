//! Module rewrites through the IR (`spvkit opt`): a binary is deserialized, transformed and
//! serialized again, so every pass sees uniqued types and constants, folded decorations and
//! structured control flow instead of a word stream.

use crate::ir::{self, IrError};
use crate::requirements::module_requirements;

/// Which rewrites [`optimize`] applies; with none it is a plain IR round trip.
#[derive(Clone, Debug, Default)]
pub struct OptOptions {
    /// Rewrite the header version, `OpCapability` and `OpExtension` to the minimal set the module
    /// needs ([`update_vce`]).
    pub update_vce: bool,
}

/// Deserializes `words` into the IR, applies the rewrites `options` asks for and serializes
/// the result.
pub fn optimize(words: &[u32], options: &OptOptions) -> Result<Vec<u32>, IrError> {
    let mut module = ir::deserialize(words)?;
    if options.update_vce {
        update_vce(&mut module)?;
    }
    ir::serialize(&module)
}

/// Sets a module's version, capabilities and extensions to what it needs
/// ([`crate::requirements`]): the smallest version, capabilities none of which another implies,
/// and the extensions the grammar says are needed ([`crate::requirements::update_vce`] does
/// the same on a binary without the IR round trip). Extensions the grammar does not know are kept,
/// since nothing says they are not needed.
pub fn update_vce(module: &mut ir::Module) -> Result<(), IrError> {
    // The requirements walk works on instructions; the serialized module is the one the IR
    // would write, so it sees exactly what will be emitted.
    let req = module_requirements(&ir::serialize(module)?).map_err(IrError::from)?;
    module.version = req.min_version;
    module.capabilities = req.capabilities.iter().copied().collect();
    let unknown: Vec<String> = module
        .extensions
        .iter()
        .filter(|e| e.parse::<crate::grammar::Extension>().is_err())
        .cloned()
        .collect();
    module.extensions = req
        .extensions
        .iter()
        .map(|e| e.name().to_string())
        .collect();
    module.extensions.extend(unknown);
    Ok(())
}
