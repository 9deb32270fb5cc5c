//! The IR as text.

use super::module::Module;

/// The IR as readable text.
pub fn print(m: &Module) -> String {
    format!("{m:?}")
}
