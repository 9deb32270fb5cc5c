//! A subset of the Itanium C++ demangler: enough to read the names of OpenCL C builtins
//! (`_Z13get_global_idj`) and SPIR-V builtins (`_Z22__spirv_ControlBarrieriii`), with their
//! parameter types (signedness, vector sizes, address spaces, named opaque types).

/// A parameter type of a mangled name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MType {
    /// A builtin scalar: the mangling letter (`i`, `j`, `f`, `Dh`...).
    Scalar(&'static str),
    /// A vector of `n` elements.
    Vector(u32, Box<MType>),
    /// A pointer with its address space.
    Pointer(u32, Box<MType>),
    /// A named type (`ocl_image2d_ro`, `memory_order`, `__spirv_Image__...`).
    Named(String),
}

impl MType {
    /// Whether the scalar (or vector element) is a signed integer.
    pub fn is_signed(&self) -> bool {
        match self {
            MType::Scalar(s) => matches!(*s, "c" | "a" | "s" | "i" | "l" | "x"),
            MType::Vector(_, e) => e.is_signed(),
            _ => false,
        }
    }

    /// Whether the scalar (or vector element) is an unsigned integer (or bool).
    pub fn is_unsigned(&self) -> bool {
        match self {
            MType::Scalar(s) => matches!(*s, "h" | "t" | "j" | "m" | "y" | "b"),
            MType::Vector(_, e) => e.is_unsigned(),
            _ => false,
        }
    }
}

/// A demangled function name: the base name and the parameter types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demangled {
    /// The unqualified name (`get_global_id`).
    pub name: String,
    /// The parameter types (empty for `v`).
    pub params: Vec<MType>,
}

/// Demangles `_Z<len><name><params>`; `None` when the name does not have that shape.
pub fn demangle(mangled: &str) -> Option<Demangled> {
    let rest = mangled.strip_prefix("_Z")?;
    let (name, rest) = source_name(rest)?;
    let mut p = Parser {
        s: rest,
        subs: Vec::new(),
    };
    let mut params = Vec::new();
    if p.s == "v" {
        return Some(Demangled {
            name: name.to_owned(),
            params,
        });
    }
    while !p.s.is_empty() {
        params.push(p.ty()?);
    }
    Some(Demangled {
        name: name.to_owned(),
        params,
    })
}

fn source_name(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let len: usize = s[..digits].parse().ok()?;
    let rest = &s[digits..];
    if rest.len() < len || !rest.is_char_boundary(len) {
        return None;
    }
    Some((&rest[..len], &rest[len..]))
}

struct Parser<'a> {
    s: &'a str,
    subs: Vec<MType>,
}

impl Parser<'_> {
    fn bump(&mut self, n: usize) {
        self.s = &self.s[n.min(self.s.len())..];
    }

    fn ty(&mut self) -> Option<MType> {
        const SCALARS: &[&str] = &[
            "v", "b", "c", "a", "h", "s", "t", "i", "j", "l", "m", "x", "y", "f", "d",
        ];
        let c = self.s.chars().next()?;
        if let Some(s) = SCALARS.iter().find(|s| s.starts_with(c)) {
            self.bump(1);
            return Some(MType::Scalar(s));
        }
        if self.s.starts_with("Dh") {
            self.bump(2);
            return Some(MType::Scalar("Dh"));
        }
        if let Some(rest) = self.s.strip_prefix("Dv") {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: u32 = rest[..digits].parse().ok()?;
            self.s = rest[digits..].strip_prefix('_')?;
            let e = self.ty()?;
            let t = MType::Vector(n, Box::new(e));
            self.subs.push(t.clone());
            return Some(t);
        }
        if let Some(rest) = self.s.strip_prefix('P') {
            self.s = rest;
            let mut space = 0;
            let mut qualified = false;
            loop {
                if self.s.starts_with("U7_Atomic") {
                    // `_Atomic(T)` is a type of its own, not a qualifier (below).
                    break;
                } else if let Some(rest) = self.s.strip_prefix('U') {
                    // A vendor qualifier: `U3AS1` (address space), `U7_Atomic`.
                    let (q, rest) = source_name(rest)?;
                    if let Some(n) = q.strip_prefix("AS") {
                        space = n.parse().ok()?;
                    }
                    self.s = rest;
                    qualified = true;
                } else if let Some(rest) = self.s.strip_prefix(['r', 'V', 'K']) {
                    self.s = rest;
                    qualified = true;
                } else {
                    break;
                }
            }
            let inner = self.ty()?;
            if qualified {
                self.subs
                    .push(MType::Pointer(u32::MAX, Box::new(inner.clone())));
            }
            let t = MType::Pointer(space, Box::new(inner));
            self.subs.push(t.clone());
            return Some(t);
        }
        if let Some(rest) = self.s.strip_prefix('S') {
            let end = rest.find('_')?;
            let idx = if end == 0 {
                0
            } else {
                usize::from_str_radix(&rest[..end], 36).ok()? + 1
            };
            self.s = &rest[end + 1..];
            let t = self.subs.get(idx)?.clone();
            // A substituted qualified type stands for its inner type.
            return Some(match t {
                MType::Pointer(u32::MAX, inner) => *inner,
                t => t,
            });
        }
        if let Some(rest) = self.s.strip_prefix("U7_Atomic") {
            // Clang mangles `_Atomic(T)` as a vendor-qualified `T`, but it is a type, and so a
            // substitution candidate, of its own; spvkit reads it as `T`.
            self.s = rest;
            let t = self.ty()?;
            self.subs.push(t.clone());
            return Some(t);
        }
        let s = self.s.strip_prefix('u').unwrap_or(self.s);
        let (name, rest) = source_name(s)?;
        self.s = rest;
        let t = MType::Named(name.to_owned());
        self.subs.push(t.clone());
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let d = demangle("_Z13get_global_idj").unwrap();
        assert_eq!(d.name, "get_global_id");
        assert_eq!(d.params, vec![MType::Scalar("j")]);
        let d = demangle("_Z10atomic_addPU3AS1Vii").unwrap();
        assert_eq!(d.params.len(), 2);
        assert!(matches!(d.params[0], MType::Pointer(1, _)));
        let d = demangle("_Z3maxDv4_fS_").unwrap();
        assert_eq!(d.params[0], d.params[1]);
        let d = demangle("_Z6vload4mPU3AS1Kf").unwrap();
        assert_eq!(d.name, "vload4");
        assert_eq!(d.params.len(), 2);
        let d = demangle("_Z15atomic_fetch_orPU3AS4VU7_Atomicjj").unwrap();
        assert!(matches!(&d.params[0], MType::Pointer(4, inner) if inner.is_unsigned()));
        // `_Atomic int` (S_), then the address-space and volatile qualified type (S0_), the
        // pointer (S1_), `AS4 int` (S2_), its pointer (S3_), `memory_order` (S4_), as
        // llvm-cxxfilt reads it.
        let d = demangle(
            "_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope",
        )
        .unwrap();
        assert_eq!(d.params.len(), 6);
        assert_eq!(d.params[3], MType::Named("memory_order".into()));
        assert_eq!(d.params[4], MType::Named("memory_order".into()));
        assert_eq!(d.params[5], MType::Named("memory_scope".into()));
        assert!(matches!(&d.params[0], MType::Pointer(4, inner) if **inner == MType::Scalar("i")));
        let d = demangle("_Z8atomic_xPU3AS1VU7_AtomiciS_S0_S1_").unwrap();
        assert_eq!(d.params[1], MType::Scalar("i"));
        assert_eq!(d.params[3], d.params[0]);
        let d = demangle("_Z29__spirv_BuiltInGlobalLinearIdv").unwrap();
        assert!(d.params.is_empty());
    }
}
