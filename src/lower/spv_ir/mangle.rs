//! A small Itanium C++ ABI mangler for the SPIR-V builtin functions of the spv-ir style:
//! builtin types (`i`, `f`, `Dh`, ...), vectors (`Dv4_f`), pointers with address-space
//! qualifiers (`PU3AS1i`), the document's opaque types (`13__spirv_Event`) and substitutions
//! (`S_`, `S0_`, ...).

/// A type as the mangler sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MType {
    /// `void`.
    Void,
    /// `bool`.
    Bool,
    /// An integer of this width, signed or unsigned.
    Int {
        /// Width in bits.
        width: u32,
        /// Mangle as the unsigned type.
        unsigned: bool,
    },
    /// A float of this width.
    Float(u32),
    /// A vector.
    Vector(Box<MType>, u32),
    /// A pointer in an address space.
    Pointer(Box<MType>, u32),
    /// A named (opaque) type, such as `__spirv_Event`.
    Named(String),
}

impl MType {
    /// The `_R{ReturnType}` spelling of the document (`int`, `uint4`, `float`, ...), if the
    /// type has one.
    pub fn postfix_name(&self) -> Option<String> {
        Some(match self {
            MType::Bool => "bool".into(),
            MType::Int { width, unsigned } => {
                let base = match width {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    64 => "long",
                    _ => return None,
                };
                if *unsigned {
                    format!("u{base}")
                } else {
                    base.into()
                }
            }
            MType::Float(16) => "half".into(),
            MType::Float(32) => "float".into(),
            MType::Float(64) => "double".into(),
            MType::Vector(e, n) => format!("{}{n}", e.postfix_name()?),
            MType::Named(n) => n.clone(),
            _ => return None,
        })
    }
}

/// The mangler's state: the substitution candidates seen so far.
struct Mangler {
    subs: Vec<String>,
    out: String,
}

fn seq_id(i: usize) -> String {
    if i == 0 {
        return "S_".into();
    }
    // Base 36, digits then upper-case letters, of i - 1.
    let mut n = i - 1;
    let mut digits = Vec::new();
    loop {
        let d = (n % 36) as u8;
        digits.push(if d < 10 { b'0' + d } else { b'A' + d - 10 });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("S{}_", String::from_utf8_lossy(&digits))
}

impl Mangler {
    /// Emits a substitutable component: its back-reference when seen, else `text`, recorded.
    fn substitutable(&mut self, key: String, text: String) {
        if let Some(i) = self.subs.iter().position(|s| *s == key) {
            self.out.push_str(&seq_id(i));
        } else {
            self.out.push_str(&text);
            self.subs.push(key);
        }
    }

    fn builtin(t: &MType) -> Option<&'static str> {
        Some(match t {
            MType::Void => "v",
            MType::Bool => "b",
            MType::Int { width: 8, unsigned } => {
                if *unsigned {
                    "h"
                } else {
                    "c"
                }
            }
            MType::Int {
                width: 16,
                unsigned,
            } => {
                if *unsigned {
                    "t"
                } else {
                    "s"
                }
            }
            MType::Int {
                width: 32,
                unsigned,
            } => {
                if *unsigned {
                    "j"
                } else {
                    "i"
                }
            }
            MType::Int {
                width: 64,
                unsigned,
            } => {
                if *unsigned {
                    "m"
                } else {
                    "l"
                }
            }
            MType::Float(16) => "Dh",
            MType::Float(32) => "f",
            MType::Float(64) => "d",
            _ => return None,
        })
    }

    /// The mangling of `t` without substitutions (the key substitutions compare).
    fn plain(t: &MType) -> String {
        if let Some(b) = Self::builtin(t) {
            return b.into();
        }
        match t {
            MType::Vector(e, n) => format!("Dv{n}_{}", Self::plain(e)),
            MType::Pointer(e, 0) => format!("P{}", Self::plain(e)),
            MType::Pointer(e, a) => format!("PU3AS{a}{}", Self::plain(e)),
            MType::Named(n) => format!("{}{n}", n.len()),
            // Other widths: a vendor-extended name.
            MType::Int { width, .. } => format!("u{}i{width}", 1 + width.to_string().len()),
            MType::Float(w) => format!("u{}f{w}", 1 + w.to_string().len()),
            _ => "v".into(),
        }
    }

    fn ty(&mut self, t: &MType) {
        if let Some(b) = Self::builtin(t) {
            self.out.push_str(b);
            return;
        }
        match t {
            MType::Vector(e, n) => {
                let key = Self::plain(t);
                if let Some(i) = self.subs.iter().position(|s| *s == key) {
                    self.out.push_str(&seq_id(i));
                    return;
                }
                self.out.push_str(&format!("Dv{n}_"));
                self.ty(e);
                self.subs.push(key);
            }
            MType::Pointer(e, a) => {
                let key = Self::plain(t);
                if let Some(i) = self.subs.iter().position(|s| *s == key) {
                    self.out.push_str(&seq_id(i));
                    return;
                }
                self.out.push('P');
                if *a != 0 {
                    // The qualified pointee is itself a candidate.
                    let qkey = format!("U3AS{a}{}", Self::plain(e));
                    if let Some(i) = self.subs.iter().position(|s| *s == qkey) {
                        self.out.push_str(&seq_id(i));
                    } else {
                        self.out.push_str(&format!("U3AS{a}"));
                        self.ty(e);
                        self.subs.push(qkey);
                    }
                } else {
                    self.ty(e);
                }
                self.subs.push(key);
            }
            MType::Named(n) => self.substitutable(Self::plain(t), format!("{}{n}", n.len())),
            other => {
                let p = Self::plain(other);
                self.substitutable(p.clone(), p)
            }
        }
    }
}

/// The mangled name of a function `name` taking `args` (`v` for none).
pub fn mangle(name: &str, args: &[MType]) -> String {
    let mut m = Mangler {
        subs: Vec::new(),
        out: format!("_Z{}{name}", name.len()),
    };
    if args.is_empty() {
        m.out.push('v');
    }
    for a in args {
        m.ty(a);
    }
    m.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int() -> MType {
        MType::Int {
            width: 32,
            unsigned: false,
        }
    }

    #[test]
    fn builtins_and_pointers() {
        assert_eq!(
            mangle("__spirv_BuiltInGlobalInvocationId", &[int()]),
            "_Z33__spirv_BuiltInGlobalInvocationIdi"
        );
        assert_eq!(
            mangle(
                "__spirv_AtomicIAdd",
                &[MType::Pointer(Box::new(int()), 1), int(), int(), int()]
            ),
            "_Z18__spirv_AtomicIAddPU3AS1iiii"
        );
        assert_eq!(
            mangle("__spirv_BuiltInWorkDim", &[]),
            "_Z22__spirv_BuiltInWorkDimv"
        );
    }

    #[test]
    fn substitutions() {
        let v4 = MType::Vector(Box::new(MType::Float(32)), 4);
        assert_eq!(
            mangle("__spirv_ocl_fmax", &[v4.clone(), v4]),
            "_Z16__spirv_ocl_fmaxDv4_fS_"
        );
        let p = MType::Pointer(Box::new(MType::Float(32)), 3);
        assert_eq!(mangle("f", &[p.clone(), p]), "_Z1fPU3AS3fS0_");
    }
}
