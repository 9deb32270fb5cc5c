//! The result of a run: every buffer's final bytes, typed by its job layout, and their JSON form
//! (`{"buffers": [{"set": 0, "binding": 0, "data": [...]}, {"arg": 1, "data": [...]}]}`).

use super::job::TypedBytes;
use std::fmt::Write as _;

/// Which buffer of the job a result belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BufferId {
    /// A descriptor-bound buffer.
    Binding {
        /// DescriptorSet.
        set: u32,
        /// Binding.
        binding: u32,
    },
    /// Element `index` (≥ 1) of an array of blocks at (set, binding); element 0 is `Binding`.
    ArrayElement {
        /// DescriptorSet.
        set: u32,
        /// Binding.
        binding: u32,
        /// The array element.
        index: u32,
    },
    /// A kernel's buffer argument, by parameter index.
    Arg(usize),
}

impl BufferId {
    /// The id of element `index` of the descriptor at (set, binding).
    pub fn descriptor(set: u32, binding: u32, index: u32) -> BufferId {
        match index {
            0 => BufferId::Binding { set, binding },
            index => BufferId::ArrayElement {
                set,
                binding,
                index,
            },
        }
    }
}

/// One buffer after the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputBuffer {
    /// Which job buffer.
    pub id: BufferId,
    /// Its layout and final bytes.
    pub data: TypedBytes,
}

/// Every buffer after the run, in job order (descriptor buffers, then kernel arguments).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunOutput {
    /// The buffers.
    pub buffers: Vec<OutputBuffer>,
}

impl RunOutput {
    /// The buffer bound at (set, binding).
    pub fn binding(&self, set: u32, binding: u32) -> Option<&TypedBytes> {
        self.find(BufferId::Binding { set, binding })
    }

    /// The kernel buffer argument `index`.
    pub fn arg(&self, index: usize) -> Option<&TypedBytes> {
        self.find(BufferId::Arg(index))
    }

    fn find(&self, id: BufferId) -> Option<&TypedBytes> {
        self.buffers.iter().find(|b| b.id == id).map(|b| &b.data)
    }

    /// The JSON text `spvkit run` prints: one line per buffer, values typed by the layout
    /// (NaN and infinities as "nan", "inf", "-inf").
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"buffers\": [");
        for (i, b) in self.buffers.iter().enumerate() {
            out.push_str(if i == 0 { "\n  " } else { ",\n  " });
            match b.id {
                BufferId::Binding { set, binding } => {
                    let _ = write!(out, "{{\"set\": {set}, \"binding\": {binding}, ");
                }
                BufferId::ArrayElement {
                    set,
                    binding,
                    index,
                } => {
                    let _ = write!(
                        out,
                        "{{\"set\": {set}, \"binding\": {binding}, \"index\": {index}, "
                    );
                }
                BufferId::Arg(arg) => {
                    let _ = write!(out, "{{\"arg\": {arg}, ");
                }
            }
            out.push_str("\"data\": ");
            b.data.layout.write_json(&b.data.bytes, &mut out);
            out.push('}');
        }
        out.push_str(if self.buffers.is_empty() {
            "]}\n"
        } else {
            "\n]}\n"
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::layout::{Layout, ScalarType};

    #[test]
    fn json_lists_bindings_and_args() {
        let out = RunOutput {
            buffers: vec![
                OutputBuffer {
                    id: BufferId::Binding { set: 0, binding: 1 },
                    data: TypedBytes {
                        layout: Layout(vec![ScalarType::I32, ScalarType::F32]),
                        bytes: [(-3i32).to_le_bytes(), f32::INFINITY.to_le_bytes()].concat(),
                    },
                },
                OutputBuffer {
                    id: BufferId::Arg(2),
                    data: TypedBytes {
                        layout: Layout(vec![ScalarType::F32]),
                        bytes: [0.1f32.to_le_bytes(), f32::NAN.to_le_bytes()].concat(),
                    },
                },
            ],
        };
        assert_eq!(
            out.to_json(),
            "{\"buffers\": [\n  {\"set\": 0, \"binding\": 1, \"data\": [-3, \"inf\"]},\n  {\"arg\": 2, \"data\": [0.1, \"nan\"]}\n]}\n"
        );
        let v: serde_json::Value = serde_json::from_str(&out.to_json()).unwrap();
        assert_eq!(v["buffers"][1]["arg"], 2);
        assert!(out.arg(2).is_some() && out.binding(0, 1).is_some());
        assert!(out.binding(1, 1).is_none());
    }
}
