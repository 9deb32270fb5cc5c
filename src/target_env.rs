//! Target environments, spelled as SPIRV-Tools spells them (`--target-env` of `spirv-as` and
//! `spirv-val` 2023.1), and the SPIR-V version each one implies.

use crate::grammar::Version;
use core::fmt;
use core::str::FromStr;

/// An environment a module is assembled or validated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TargetEnv {
    /// `spv1.0`: SPIR-V 1.0 with no client API.
    Universal1_0,
    /// `spv1.1`.
    Universal1_1,
    /// `spv1.2`.
    Universal1_2,
    /// `spv1.3`.
    Universal1_3,
    /// `spv1.4`.
    Universal1_4,
    /// `spv1.5`.
    Universal1_5,
    /// `spv1.6`.
    Universal1_6,
    /// `vulkan1.0`.
    Vulkan1_0,
    /// `vulkan1.1`.
    Vulkan1_1,
    /// `vulkan1.1spv1.4`: Vulkan 1.1 with SPIR-V 1.4.
    Vulkan1_1Spirv1_4,
    /// `vulkan1.2`.
    Vulkan1_2,
    /// `vulkan1.3`.
    Vulkan1_3,
    /// `opencl1.2`.
    OpenCl1_2,
    /// `opencl1.2embedded`.
    OpenClEmbedded1_2,
    /// `opencl2.0`.
    OpenCl2_0,
    /// `opencl2.0embedded`.
    OpenClEmbedded2_0,
    /// `opencl2.1`.
    OpenCl2_1,
    /// `opencl2.1embedded`.
    OpenClEmbedded2_1,
    /// `opencl2.2`.
    OpenCl2_2,
    /// `opencl2.2embedded`.
    OpenClEmbedded2_2,
    /// `opengl4.0`.
    OpenGl4_0,
    /// `opengl4.1`.
    OpenGl4_1,
    /// `opengl4.2`.
    OpenGl4_2,
    /// `opengl4.3`.
    OpenGl4_3,
    /// `opengl4.5`.
    OpenGl4_5,
}

impl TargetEnv {
    /// Every environment, in the order `spirv-as --help` lists them.
    pub const ALL: [TargetEnv; 25] = [
        TargetEnv::Vulkan1_1Spirv1_4,
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
        TargetEnv::Universal1_0,
        TargetEnv::Universal1_1,
        TargetEnv::Universal1_2,
        TargetEnv::Universal1_3,
        TargetEnv::Universal1_4,
        TargetEnv::Universal1_5,
        TargetEnv::Universal1_6,
        TargetEnv::OpenClEmbedded1_2,
        TargetEnv::OpenCl1_2,
        TargetEnv::OpenClEmbedded2_0,
        TargetEnv::OpenCl2_0,
        TargetEnv::OpenClEmbedded2_1,
        TargetEnv::OpenCl2_1,
        TargetEnv::OpenClEmbedded2_2,
        TargetEnv::OpenCl2_2,
        TargetEnv::OpenGl4_0,
        TargetEnv::OpenGl4_1,
        TargetEnv::OpenGl4_2,
        TargetEnv::OpenGl4_3,
        TargetEnv::OpenGl4_5,
    ];

    /// The SPIRV-Tools name (`vulkan1.1spv1.4`, `spv1.3`, `opencl2.2embedded`...).
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::Universal1_0 => "spv1.0",
            TargetEnv::Universal1_1 => "spv1.1",
            TargetEnv::Universal1_2 => "spv1.2",
            TargetEnv::Universal1_3 => "spv1.3",
            TargetEnv::Universal1_4 => "spv1.4",
            TargetEnv::Universal1_5 => "spv1.5",
            TargetEnv::Universal1_6 => "spv1.6",
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::OpenCl1_2 => "opencl1.2",
            TargetEnv::OpenClEmbedded1_2 => "opencl1.2embedded",
            TargetEnv::OpenCl2_0 => "opencl2.0",
            TargetEnv::OpenClEmbedded2_0 => "opencl2.0embedded",
            TargetEnv::OpenCl2_1 => "opencl2.1",
            TargetEnv::OpenClEmbedded2_1 => "opencl2.1embedded",
            TargetEnv::OpenCl2_2 => "opencl2.2",
            TargetEnv::OpenClEmbedded2_2 => "opencl2.2embedded",
            TargetEnv::OpenGl4_0 => "opengl4.0",
            TargetEnv::OpenGl4_1 => "opengl4.1",
            TargetEnv::OpenGl4_2 => "opengl4.2",
            TargetEnv::OpenGl4_3 => "opengl4.3",
            TargetEnv::OpenGl4_5 => "opengl4.5",
        }
    }

    /// The SPIR-V version of the environment: the version word `spirv-as` writes for it, and
    /// the version against which it looks up instruction and enumerant names.
    pub fn spirv_version(self) -> Version {
        match self {
            TargetEnv::Universal1_0
            | TargetEnv::Vulkan1_0
            | TargetEnv::OpenCl1_2
            | TargetEnv::OpenClEmbedded1_2
            | TargetEnv::OpenCl2_0
            | TargetEnv::OpenClEmbedded2_0
            | TargetEnv::OpenCl2_1
            | TargetEnv::OpenClEmbedded2_1
            | TargetEnv::OpenGl4_0
            | TargetEnv::OpenGl4_1
            | TargetEnv::OpenGl4_2
            | TargetEnv::OpenGl4_3
            | TargetEnv::OpenGl4_5 => Version(1, 0),
            TargetEnv::Universal1_1 => Version(1, 1),
            TargetEnv::Universal1_2 | TargetEnv::OpenCl2_2 | TargetEnv::OpenClEmbedded2_2 => {
                Version(1, 2)
            }
            TargetEnv::Universal1_3 | TargetEnv::Vulkan1_1 => Version(1, 3),
            TargetEnv::Universal1_4 | TargetEnv::Vulkan1_1Spirv1_4 => Version(1, 4),
            TargetEnv::Universal1_5 | TargetEnv::Vulkan1_2 => Version(1, 5),
            TargetEnv::Universal1_6 | TargetEnv::Vulkan1_3 => Version(1, 6),
        }
    }
}

impl Default for TargetEnv {
    /// `spv1.6`, the environment `spirv-as` and `spirv-val` 2023.1 use when none is given.
    fn default() -> Self {
        TargetEnv::Universal1_6
    }
}

impl fmt::Display for TargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a target environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTargetEnv(pub String);

impl fmt::Display for UnknownTargetEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Unrecognized target env: {}", self.0)
    }
}

impl std::error::Error for UnknownTargetEnv {}

impl FromStr for TargetEnv {
    type Err = UnknownTargetEnv;

    /// Parses a SPIRV-Tools name exactly (SPIRV-Tools itself also accepts any text that merely
    /// starts with a name, such as `spv1.0foo`; this does not).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TargetEnv::ALL
            .iter()
            .copied()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownTargetEnv(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in TargetEnv::ALL {
            assert_eq!(e.to_string().parse::<TargetEnv>(), Ok(e));
        }
        assert!("universal1.0".parse::<TargetEnv>().is_err());
        assert!("spv1.0foo".parse::<TargetEnv>().is_err());
        assert_eq!(TargetEnv::default().spirv_version(), Version(1, 6));
    }
}
