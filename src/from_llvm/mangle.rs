//! An Itanium C++ demangler for function names, as far as the names of builtins need it:
//! OpenCL C builtins (`_Z13get_global_idj`), SPIR-V builtins (`_Z22__spirv_ControlBarrieriii`)
//! and their SYCL spellings, with templates (`_Z16__spirv_AbortKHRIiEvT_`), nested names and
//! enum types (`N5__spv5Scope4FlagE`), `_Float16` (`DF16_`), `_BitInt` (`DB7_`/`DU9_`),
//! vendor qualifiers (`U3AS1`, `U7_Atomic`) and the substitutions among them. A name it cannot
//! read is `None`, so the caller refuses it rather than guessing what it calls.

/// A parameter type of a mangled name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MType {
    /// A builtin scalar: the mangling code (`i`, `j`, `f`, `Dh`, `DF16_`, `DF16b`...).
    Scalar(&'static str),
    /// `_BitInt(bits)` (`DB<bits>_`) or `unsigned _BitInt(bits)` (`DU<bits>_`).
    BitInt {
        /// The width.
        bits: u32,
        /// `DB` rather than `DU`.
        signed: bool,
    },
    /// A vector of `n` elements.
    Vector(u32, Box<MType>),
    /// A pointer with its address space.
    Pointer(u32, Box<MType>),
    /// An lvalue or rvalue reference.
    Reference(Box<MType>),
    /// An array of `n` elements.
    Array(u64, Box<MType>),
    /// A function type.
    Function,
    /// A named type, qualified with `::` (`ocl_image2d_ro`, `memory_order`,
    /// `__spv::Scope::Flag`, `__spirv_Image__...`); a template's arguments are not part of it.
    Named(String),
    /// A literal template argument (`Li16E`): its type and value.
    Literal(Box<MType>, i128),
    /// A template argument pack (`J...E`), which `Dp` expands into parameters.
    Pack(Vec<MType>),
    /// A qualified type (`U3AS1Vi`): only ever a substitution candidate or a pointee; users
    /// see it folded into [`MType::Pointer`]'s address space or stripped.
    Qualified(u32, Box<MType>),
}

impl MType {
    /// Whether the scalar (or vector element) is a signed integer.
    pub fn is_signed(&self) -> bool {
        match self {
            MType::Scalar(s) => matches!(*s, "c" | "a" | "s" | "i" | "l" | "x" | "n"),
            MType::BitInt { signed, .. } => *signed,
            MType::Vector(_, e) => e.is_signed(),
            _ => false,
        }
    }

    /// Whether the scalar (or vector element) is an unsigned integer (or bool).
    pub fn is_unsigned(&self) -> bool {
        match self {
            MType::Scalar(s) => matches!(*s, "h" | "t" | "j" | "m" | "y" | "b" | "o"),
            MType::BitInt { signed, .. } => !*signed,
            MType::Vector(_, e) => e.is_unsigned(),
            _ => false,
        }
    }

    /// The type a value of this type is: qualifiers stripped.
    fn unqualified(self) -> MType {
        match self {
            MType::Qualified(_, inner) => inner.unqualified(),
            t => t,
        }
    }
}

/// A demangled function name: the base name, template arguments, return and parameter types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demangled {
    /// The name, qualified with `::` when nested (`get_global_id`, `ns::f`).
    pub name: String,
    /// Whether the name is nested in a namespace or class (`_ZN...E`, or a local name): such a
    /// name is never a builtin's.
    pub nested: bool,
    /// The template arguments of a function template (`__spirv_AbortKHR<int>`).
    pub template_args: Vec<MType>,
    /// The return type, which the mangling spells only for function templates.
    pub ret: Option<MType>,
    /// The parameter types (empty for `v`).
    pub params: Vec<MType>,
    /// Whether the name spells a function type at all: `_Z15__spirv_PtrDiff` (as SYCL's
    /// headers mangle some builtins) names only the function, not its parameters.
    pub typed: bool,
}

/// Demangles `_Z<encoding>`; `None` when the name is not a mangled function (or variable) name
/// or uses a construct outside the supported subset (expressions, decltype, packs...).
pub fn demangle(mangled: &str) -> Option<Demangled> {
    let rest = mangled.strip_prefix("_Z")?;
    let mut p = Parser {
        s: rest,
        subs: Vec::new(),
        template_params: Vec::new(),
        depth: 0,
    };
    let d = p.encoding()?;
    p.s.is_empty().then_some(d)
}

/// A mangled name's parse state: the rest of the input, the substitution candidates, and the
/// function template's arguments (what `T_` refers to).
struct Parser<'a> {
    s: &'a str,
    subs: Vec<MType>,
    template_params: Vec<MType>,
    /// Recursion depth, bounded so a hostile name cannot overflow the stack.
    depth: u32,
}

/// What parsing a name found besides the name: its template arguments, and whether it is a
/// constructor or destructor (whose mangling has no return type even when templated).
struct NameInfo {
    name: String,
    nested: bool,
    template_args: Option<Vec<MType>>,
    ctor_dtor: bool,
}

const MAX_DEPTH: u32 = 64;

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().first().copied()
    }

    fn eat(&mut self, prefix: &str) -> bool {
        match self.s.strip_prefix(prefix) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn number(&mut self) -> Option<i128> {
        let neg = self.eat("n");
        let digits = self.s.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 30 {
            return None;
        }
        let n: i128 = self.s[..digits].parse().ok()?;
        self.s = &self.s[digits..];
        Some(if neg { -n } else { n })
    }

    fn source_name(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.number()?).ok()?;
        if self.s.len() < len || !self.s.is_char_boundary(len) {
            return None;
        }
        let (name, rest) = self.s.split_at(len);
        self.s = rest;
        Some(name)
    }

    /// `<encoding> ::= <name> <bare-function-type> | <name>`.
    fn encoding(&mut self) -> Option<Demangled> {
        let info = self.name()?;
        let template_args = info.template_args.clone().unwrap_or_default();
        if info.template_args.is_some() {
            self.template_params = template_args.clone();
        }
        let mut d = Demangled {
            name: info.name,
            nested: info.nested,
            template_args,
            ret: None,
            params: Vec::new(),
            typed: false,
        };
        if self.s.is_empty() || self.peek() == Some(b'E') {
            // A variable (or a local name's entity): no function type.
            return Some(d);
        }
        d.typed = true;
        if info.template_args.is_some() && !info.ctor_dtor {
            d.ret = Some(self.ty()?.unqualified());
        }
        if self.eat("v") && (self.s.is_empty() || self.peek() == Some(b'E')) {
            return Some(d);
        }
        while !self.s.is_empty() && self.peek() != Some(b'E') {
            if self.eat("Dp") {
                // A pack expansion: one parameter per element of the pack.
                match self.ty()? {
                    MType::Pack(v) => d.params.extend(v),
                    t => d.params.push(t.unqualified()),
                }
                continue;
            }
            d.params.push(self.ty()?.unqualified());
        }
        Some(d)
    }

    /// `<name>`: nested, local, unscoped (with `St`), or a substitution with template args.
    fn name(&mut self) -> Option<NameInfo> {
        self.enter()?;
        let r = self.name_inner();
        self.depth -= 1;
        r
    }

    fn name_inner(&mut self) -> Option<NameInfo> {
        match self.peek()? {
            b'N' => self.nested_name(),
            b'Z' => {
                // `Z <encoding> E <entity name> [<discriminator>]`, or `Z <encoding> Es`.
                self.s = &self.s[1..];
                let saved = std::mem::take(&mut self.template_params);
                let outer = self.encoding()?;
                self.template_params = saved;
                if !self.eat("E") {
                    return None;
                }
                if self.eat("s") {
                    self.discriminator();
                    return Some(NameInfo {
                        name: format!("{}::string literal", outer.name),
                        nested: true,
                        template_args: None,
                        ctor_dtor: false,
                    });
                }
                let inner = self.name()?;
                self.discriminator();
                Some(NameInfo {
                    name: format!("{}::{}", outer.name, inner.name),
                    nested: true,
                    ..inner
                })
            }
            b'S' if !self.s.starts_with("St") => {
                let t = self.substitution()?;
                if self.peek() != Some(b'I') {
                    return None;
                }
                let args = self.template_args()?;
                Some(NameInfo {
                    name: display_name(&t),
                    nested: false,
                    template_args: Some(args),
                    ctor_dtor: false,
                })
            }
            _ => {
                let std = self.eat("St");
                let (name, ctor_dtor) = self.unqualified_name()?;
                let name = if std { format!("std::{name}") } else { name };
                let mut info = NameInfo {
                    name,
                    nested: std,
                    template_args: None,
                    ctor_dtor,
                };
                if self.peek() == Some(b'I') {
                    self.subs.push(MType::Named(info.name.clone()));
                    info.template_args = Some(self.template_args()?);
                }
                Some(info)
            }
        }
    }

    fn discriminator(&mut self) {
        if let Some(rest) = self.s.strip_prefix('_') {
            if let Some(rest) = rest.strip_prefix('_') {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if rest[digits..].starts_with('_') {
                    self.s = &rest[digits + 1..];
                }
            } else {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                if digits > 0 {
                    self.s = &rest[digits..];
                }
            }
        }
    }

    /// `N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E`.
    fn nested_name(&mut self) -> Option<NameInfo> {
        self.s = &self.s[1..];
        while self.eat("r") || self.eat("V") || self.eat("K") {}
        let _ = self.eat("R") || self.eat("O");
        let mut so_far: Option<String> = None;
        let mut last_args = None;
        let mut ctor_dtor = false;
        let mut pushed = 0usize;
        loop {
            if self.eat("E") {
                break;
            }
            let component = match self.peek()? {
                b'I' => {
                    let base = so_far.clone()?;
                    last_args = Some(self.template_args()?);
                    self.subs.push(MType::Named(base));
                    pushed += 1;
                    continue;
                }
                b'T' => display_name(&self.template_param()?),
                b'S' if !self.s.starts_with("St") => {
                    let t = self.substitution()?;
                    let n = display_name(&t);
                    so_far = Some(match so_far {
                        Some(p) => format!("{p}::{n}"),
                        None => n,
                    });
                    last_args = None;
                    continue;
                }
                _ => {
                    if self.eat("St") {
                        so_far = Some("std".to_owned());
                    }
                    let (n, cd) = self.unqualified_name()?;
                    ctor_dtor = cd;
                    n
                }
            };
            last_args = None;
            so_far = Some(match so_far {
                Some(p) => format!("{p}::{component}"),
                None => component,
            });
            self.subs.push(MType::Named(so_far.clone()?));
            pushed += 1;
        }
        if pushed == 0 {
            return None;
        }
        // The whole name is the entity, not a prefix: it is not a candidate here (a type's
        // caller pushes it as a type).
        self.subs.pop();
        Some(NameInfo {
            name: so_far?,
            nested: true,
            template_args: last_args,
            ctor_dtor,
        })
    }

    /// A source name, a constructor or destructor, an operator, or an unnamed type or lambda;
    /// `true` for constructors and destructors.
    fn unqualified_name(&mut self) -> Option<(String, bool)> {
        let c = self.peek()?;
        if c.is_ascii_digit() {
            return Some((self.source_name()?.to_owned(), false));
        }
        if c == b'C' && self.s.len() >= 2 && matches!(self.s.as_bytes()[1], b'1'..=b'5') {
            self.s = &self.s[2..];
            return Some(("{ctor}".to_owned(), true));
        }
        if c == b'D' && self.s.len() >= 2 && matches!(self.s.as_bytes()[1], b'0'..=b'5') {
            self.s = &self.s[2..];
            return Some(("{dtor}".to_owned(), true));
        }
        if self.eat("Ut") {
            let n = self.s.bytes().take_while(u8::is_ascii_digit).count();
            self.s = self.s[n..].strip_prefix('_')?;
            return Some(("{unnamed type}".to_owned(), false));
        }
        if self.eat("Ul") {
            // A lambda: `Ul <parameter types> E [<number>] _`.
            while !self.eat("E") {
                if self.eat("v") {
                    continue;
                }
                self.ty()?;
            }
            let n = self.s.bytes().take_while(u8::is_ascii_digit).count();
            self.s = self.s[n..].strip_prefix('_')?;
            return Some(("{lambda}".to_owned(), false));
        }
        if self.eat("cv") {
            self.ty()?;
            return Some(("operator {conversion}".to_owned(), false));
        }
        if self.eat("li") {
            let n = self.source_name()?;
            return Some((format!("operator\"\" {n}"), false));
        }
        // A two-letter operator name (`cl`, `pl`, `aS`...).
        let b = self.s.as_bytes();
        if b.len() >= 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_alphabetic() {
            let op = &self.s[..2];
            self.s = &self.s[2..];
            return Some((format!("operator{{{op}}}"), false));
        }
        None
    }

    /// `I <template-arg>+ E`.
    fn template_args(&mut self) -> Option<Vec<MType>> {
        self.enter()?;
        self.s = self.s.strip_prefix('I')?;
        let mut args = Vec::new();
        while !self.eat("E") {
            args.push(self.template_arg()?);
        }
        self.depth -= 1;
        Some(args)
    }

    fn template_arg(&mut self) -> Option<MType> {
        if self.eat("L") {
            if self.s.starts_with("_Z") {
                // An external name as an argument: `L_Z <encoding> E`.
                self.s = &self.s[2..];
                let saved = std::mem::take(&mut self.template_params);
                let d = self.encoding()?;
                self.template_params = saved;
                self.s = self.s.strip_prefix('E')?;
                return Some(MType::Named(d.name));
            }
            let t = self.ty()?.unqualified();
            let v = self.number()?;
            self.s = self.s.strip_prefix('E')?;
            return Some(MType::Literal(Box::new(t), v));
        }
        if self.eat("J") {
            let mut v = Vec::new();
            while !self.eat("E") {
                v.push(self.template_arg()?);
            }
            return Some(MType::Pack(v));
        }
        if self.eat("X") {
            self.expression()?;
            self.s = self.s.strip_prefix('E')?;
            return Some(MType::Named("{expression}".to_owned()));
        }
        self.ty()
    }

    /// The subset of `<expression>` template arguments use: template parameters, literals,
    /// addresses of functions, unresolved names and binary operators.
    fn expression(&mut self) -> Option<()> {
        self.enter()?;
        let r = self.expression_inner();
        self.depth -= 1;
        r
    }

    fn expression_inner(&mut self) -> Option<()> {
        match self.peek()? {
            b'T' => self.template_param().map(drop),
            b'L' => self.template_arg().map(drop),
            _ if self.eat("ad") => self.expression(),
            _ if self.eat("sr") => {
                // `sr <qualifier level>+ E <base name>` or `sr <type> <base name>`.
                if self.peek()?.is_ascii_digit() {
                    while !self.eat("E") {
                        self.source_name()?;
                        if self.peek() == Some(b'I') {
                            self.template_args()?;
                        }
                    }
                } else {
                    self.ty()?;
                }
                self.source_name()?;
                if self.peek() == Some(b'I') {
                    self.template_args()?;
                }
                Some(())
            }
            _ => {
                const BINARY: &[&str] = &[
                    "pl", "mi", "ml", "dv", "rm", "an", "or", "eo", "ls", "rs", "eq", "ne", "lt",
                    "gt", "le", "ge", "aa", "oo",
                ];
                let op = BINARY.iter().find(|op| self.s.starts_with(**op))?;
                self.s = &self.s[op.len()..];
                self.expression()?;
                self.expression()
            }
        }
    }

    /// `T_` or `T<n>_`: a function template's argument, itself a substitution candidate.
    fn template_param(&mut self) -> Option<MType> {
        self.s = self.s.strip_prefix('T')?;
        let idx = if self.eat("_") {
            0
        } else {
            let n = self.number()?;
            self.s = self.s.strip_prefix('_')?;
            usize::try_from(n).ok()? + 1
        };
        let t = self.template_params.get(idx)?.clone();
        self.subs.push(t.clone());
        Some(t)
    }

    /// `S_`, `S<seq-id>_` and the `St`/`Sa`/`Ss`... abbreviations.
    fn substitution(&mut self) -> Option<MType> {
        self.s = self.s.strip_prefix('S')?;
        for (code, name) in [
            ("a", "std::allocator"),
            ("b", "std::basic_string"),
            ("s", "std::string"),
            ("i", "std::istream"),
            ("o", "std::ostream"),
            ("d", "std::iostream"),
        ] {
            if self.eat(code) {
                return Some(MType::Named(name.to_owned()));
            }
        }
        let end = self.s.find('_')?;
        let seq = &self.s[..end];
        let idx = if seq.is_empty() {
            0
        } else {
            if !seq
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
            {
                return None;
            }
            usize::from_str_radix(seq, 36).ok()? + 1
        };
        self.s = &self.s[end + 1..];
        self.subs.get(idx).cloned()
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn ty(&mut self) -> Option<MType> {
        self.enter()?;
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    /// `<type>`, pushing every candidate the ABI names (not builtins, not plain
    /// substitutions), as LLVM's demangler does.
    fn ty_inner(&mut self) -> Option<MType> {
        const SCALARS: &[&str] = &[
            "v", "w", "b", "c", "a", "h", "s", "t", "i", "j", "l", "m", "x", "y", "n", "o", "f",
            "d", "e", "g", "z",
        ];
        let c = self.peek()?;
        if let Some(s) = SCALARS.iter().find(|s| s.as_bytes()[0] == c) {
            self.s = &self.s[1..];
            return Some(MType::Scalar(s));
        }
        let t = match c {
            b'D' => {
                for code in [
                    "Dh", "DF16_", "DF16b", "DF32_", "DF64_", "DF128_", "Di", "Ds", "Du", "Dn",
                    "Da", "Dc", "Dd", "De", "Df",
                ] {
                    if self.eat(code) {
                        return Some(MType::Scalar(code));
                    }
                }
                if self.s.starts_with("DB") || self.s.starts_with("DU") {
                    let signed = self.s.as_bytes()[1] == b'B';
                    self.s = &self.s[2..];
                    let bits = u32::try_from(self.number()?).ok()?;
                    self.s = self.s.strip_prefix('_')?;
                    return Some(MType::BitInt { bits, signed });
                }
                if self.eat("Dp") {
                    return self.ty();
                }
                if self.eat("Dv") {
                    let n = u32::try_from(self.number()?).ok()?;
                    self.s = self.s.strip_prefix('_')?;
                    let e = self.ty()?.unqualified();
                    MType::Vector(n, Box::new(e))
                } else {
                    // decltype, pack expansions, `Dp`...: beyond this demangler.
                    return None;
                }
            }
            b'r' | b'V' | b'K' | b'U' => self.qualified_type()?,
            b'P' => {
                self.s = &self.s[1..];
                match self.ty()? {
                    MType::Qualified(space, inner) => MType::Pointer(space, inner),
                    t => MType::Pointer(0, Box::new(t)),
                }
            }
            b'R' | b'O' => {
                self.s = &self.s[1..];
                MType::Reference(Box::new(self.ty()?.unqualified()))
            }
            b'A' => {
                self.s = &self.s[1..];
                let n = u64::try_from(self.number()?).ok()?;
                self.s = self.s.strip_prefix('_')?;
                MType::Array(n, Box::new(self.ty()?.unqualified()))
            }
            b'F' => {
                self.s = &self.s[1..];
                let _ = self.eat("Y");
                self.ty()?;
                while !self.eat("E") {
                    if self.eat("RE") || self.eat("OE") {
                        break;
                    }
                    self.ty()?;
                }
                MType::Function
            }
            b'M' => {
                self.s = &self.s[1..];
                self.ty()?;
                self.ty()?;
                MType::Named("{member pointer}".to_owned())
            }
            b'T' => {
                let t = self.template_param()?;
                if self.peek() == Some(b'I') {
                    self.template_args()?;
                } else {
                    return Some(t);
                }
                t
            }
            b'S' if !self.s.starts_with("St") => {
                let t = self.substitution()?;
                if self.peek() != Some(b'I') {
                    return Some(t);
                }
                self.template_args()?;
                t
            }
            b'u' => {
                self.s = &self.s[1..];
                let n = self.source_name()?;
                MType::Named(n.to_owned())
            }
            _ => {
                let info = self.name()?;
                MType::Named(info.name)
            }
        };
        self.subs.push(t.clone());
        Some(t)
    }

    /// `<extended-qualifier>* <CV-qualifiers> <type>`: one candidate for the whole
    /// qualified type; the address space of a `U3AS<n>` qualifier is kept.
    fn qualified_type(&mut self) -> Option<MType> {
        if self.eat("U") {
            let q = self.source_name()?;
            if self.peek() == Some(b'I') {
                self.template_args()?;
            }
            if q == "_Atomic" {
                // `_Atomic(T)` is a type: a value of it is a `T`.
                let inner = self.qualified_type()?;
                return Some(inner);
            }
            let inner = self.qualified_type()?;
            let space = match q.strip_prefix("AS") {
                Some(n) => n.parse().ok()?,
                None => match inner {
                    MType::Qualified(space, _) => space,
                    _ => 0,
                },
            };
            return Some(MType::Qualified(
                space,
                Box::new(match inner {
                    MType::Qualified(_, t) => *t,
                    t => t,
                }),
            ));
        }
        let mut cv = false;
        while self.eat("r") || self.eat("V") || self.eat("K") {
            cv = true;
        }
        let t = self.ty()?;
        Some(if cv {
            match t {
                MType::Qualified(..) => t,
                t => MType::Qualified(0, Box::new(t)),
            }
        } else {
            t
        })
    }
}

/// The name a substitution or template parameter stands for, as a name component.
fn display_name(t: &MType) -> String {
    match t {
        MType::Named(n) => n.clone(),
        MType::Qualified(_, inner) => display_name(inner),
        other => format!("{other:?}"),
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

    #[test]
    fn templates_enums_and_new_types() {
        // `void __spirv_AbortKHR<int>(int)`: a template's return type is spelled.
        let d = demangle("_Z16__spirv_AbortKHRIiEvT_").unwrap();
        assert_eq!(d.name, "__spirv_AbortKHR");
        assert_eq!(d.template_args, vec![MType::Scalar("i")]);
        assert_eq!(d.ret, Some(MType::Scalar("v")));
        assert_eq!(d.params, vec![MType::Scalar("i")]);
        // `__spirv_AtomicExchange(unsigned long long*, __spv::Scope::Flag,
        // __spv::MemorySemanticsMask::Flag, unsigned long long)`.
        let d = demangle(
            "_Z22__spirv_AtomicExchangePyN5__spv5Scope4FlagENS0_19MemorySemanticsMask4FlagEy",
        )
        .unwrap();
        assert_eq!(d.params.len(), 4);
        assert_eq!(d.params[1], MType::Named("__spv::Scope::Flag".into()));
        assert_eq!(
            d.params[2],
            MType::Named("__spv::MemorySemanticsMask::Flag".into())
        );
        // `float vector[4] __spirv_ImageSampleExplicitLod<void*, float vector[4], int>(void*,
        // int, int, float)`.
        let d = demangle("_Z30__spirv_ImageSampleExplicitLodIPvDv4_fiET0_T_T1_if").unwrap();
        assert_eq!(d.params.len(), 4);
        assert!(matches!(d.ret, Some(MType::Vector(4, _))));
        assert!(matches!(d.params[0], MType::Pointer(0, _)));
        let d = demangle("_Z3fooDB7_DU9_DF16_").unwrap();
        assert_eq!(
            d.params,
            vec![
                MType::BitInt {
                    bits: 7,
                    signed: true
                },
                MType::BitInt {
                    bits: 9,
                    signed: false
                },
                MType::Scalar("DF16_"),
            ]
        );
        let d = demangle("_ZN2ns1fEv").unwrap();
        assert_eq!(d.name, "ns::f");
        assert!(d.nested);
        let d = demangle("_ZN2cl9__details29OpConstantPipeStorage_CreatorILi16ELi16ELi1EE5valueE")
            .unwrap();
        assert_eq!(
            d.name,
            "cl::__details::OpConstantPipeStorage_Creator::value"
        );
        assert!(demangle("_Z5fractDF16_PU3AS1S_").is_none());
        assert!(demangle(&format!("_Z1f{}i", "P".repeat(10_000))).is_none());
    }
}
