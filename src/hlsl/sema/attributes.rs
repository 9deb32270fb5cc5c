//! Attributes and modifiers, checked once over the tree before code generation: each one the
//! front end implements passes, each one DXC gives a meaning the front end does not implement
//! yet is an error naming it (so none is parsed and dropped), and an attribute DXC does not
//! know either is DXC's warning, "unknown attribute ignored".

use crate::hlsl::ast::{
    Attribute, FunctionDecl, Item, Modifier, ModifierSpan, Stmt, StmtKind, TranslationUnit, VarDecl,
};
use crate::hlsl::diag::Diagnostic;

/// Where an attribute or modifier appears.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Site {
    Function,
    Param,
    Global,
    Local,
    Field,
    Buffer,
    Statement,
}

/// Attributes without a namespace that are implemented or mean nothing for SPIR-V, by site.
fn plain_known(site: Site, name: &str) -> bool {
    match site {
        // Stage attributes of other stages' entry points are refused with their profile.
        Site::Function => matches!(
            name,
            "numthreads"
                | "shader"
                | "noinline"
                | "earlydepthstencil"
                | "maxvertexcount"
                | "domain"
                | "partitioning"
                | "outputtopology"
                | "outputcontrolpoints"
                | "patchconstantfunc"
                | "maxtessfactor"
                | "instance"
        ),
        // Hints to the optimizer; `[unroll(n)]`'s count is only a hint as well.
        Site::Statement => matches!(
            name,
            "unroll"
                | "loop"
                | "fastopt"
                | "branch"
                | "flatten"
                | "allow_uav_condition"
                | "call"
                | "forcecase"
        ),
        _ => false,
    }
}

/// `[[vk::...]]` attributes implemented, by site.
fn vk_implemented(site: Site, name: &str) -> bool {
    // Module requirements ([`Requested`]), wherever a declaration carries them.
    if matches!(name, "ext_capability" | "ext_extension") {
        return true;
    }
    if name == "spvexecutionmode" {
        return site == Site::Function;
    }
    // Decorations of the variable, parameter or function ([`ext_decorations`]).
    if matches!(name, "ext_decorate" | "ext_decorate_string") {
        return matches!(
            site,
            Site::Function | Site::Param | Site::Global | Site::Local
        );
    }
    match site {
        // The fragment-test modes count on a pixel shader's entry point only
        // (`super::modes` refuses them elsewhere).
        Site::Function => {
            name == "location"
                || name == "builtin"
                || name == "index"
                || super::modes::FRAGMENT_TEST_ATTRIBUTES
                    .iter()
                    .any(|(n, _)| *n == name)
        }
        Site::Param => matches!(name, "location" | "builtin" | "index" | "ext_literal"),
        Site::Field => matches!(name, "location" | "builtin" | "offset" | "index"),
        Site::Global => matches!(
            name,
            "binding"
                | "constant_id"
                | "push_constant"
                | "counter_binding"
                | "image_format"
                | "input_attachment_index"
                | "ext_builtin_input"
                | "ext_builtin_output"
                | "combinedImageSampler"
        ),
        Site::Buffer => matches!(name, "binding" | "push_constant"),
        _ => false,
    }
}

/// The decorations `[[vk::ext_decorate(d, literals...)]]` and `[[vk::ext_decorate_string(d,
/// "s"...)]]` among `attrs` ask for, each decoded by the grammar's operands of decoration `d`
/// (`constant` evaluates an argument); an error names the attribute that asks for no
/// decoration of the grammar, for operands that do not fit it, or for ids (which
/// `[[vk::ext_decorate_id]]` would give, not supported yet).
pub fn ext_decorations(
    attrs: &[Attribute],
    constant: &dyn Fn(&crate::hlsl::ast::Expr) -> Option<i64>,
) -> Result<Vec<crate::grammar::Decoration>, Diagnostic> {
    use crate::binary::Encode;
    use crate::hlsl::ast::{ExprKind, Literal};
    let mut out = Vec::new();
    for a in attrs {
        if a.namespace.as_ref().is_none_or(|n| n.name != "vk") {
            continue;
        }
        let strings = match a.name.name.as_str() {
            "ext_decorate" => false,
            "ext_decorate_string" => true,
            _ => continue,
        };
        let name = &a.name.name;
        let bad = |why: &str| Diagnostic::error(a.span, format!("[[vk::{name}]]: {why}"));
        let mut words = Vec::new();
        for (k, e) in a.args.iter().enumerate() {
            match (&e.kind, strings && k > 0) {
                (ExprKind::Literal(Literal::String(s)), true) => s.clone().encode(&mut words),
                (_, true) => return Err(bad("the operands after the decoration are strings")),
                (_, false) => match constant(e) {
                    Some(v) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&v) => {
                        words.push(v as u32)
                    }
                    _ => return Err(bad("the decoration and its operands are 32-bit constants")),
                },
            }
        }
        if words.is_empty() {
            return Err(bad("the first argument is the decoration's number"));
        }
        match literal_operands::<crate::grammar::Decoration>(&words) {
            Ok(d) => out.push(d),
            Err(None) => {
                return Err(bad(
                    "not supported yet: a decoration with id operands ([[vk::ext_decorate_id]])",
                ))
            }
            Err(Some(e)) => {
                return Err(bad(&format!(
                    "no decoration of the SPIR-V grammar takes these operands ({e})"
                )))
            }
        }
    }
    Ok(out)
}

/// An enumerant with its operands (a decoration, an execution mode) decoded from `words` (its
/// number, then its operands) by the grammar; `Err(None)` when it takes ids, which inline
/// SPIR-V gives only through the `_id` forms, `Err(Some(why))` when the words are no such
/// enumerant.
pub fn literal_operands<T: crate::binary::Decode + crate::grammar::Ids>(
    words: &[u32],
) -> Result<T, Option<String>> {
    use crate::binary::{OperandReader, TypeTracker};
    let tracker = TypeTracker::new(0);
    let mut r = OperandReader::new(words, 0, u32::MAX, &tracker);
    let v = T::decode(&mut r)
        .and_then(|v| r.finish().map(|_| v))
        .map_err(|e| Some(e.kind.to_string()))?;
    let mut ids = false;
    v.visit_ids(&mut |_| ids = true);
    if ids {
        return Err(None);
    }
    Ok(v)
}

/// The execution modes `[[vk::spvexecutionmode(m)]]` among `attrs` asks for, or the error at
/// the attribute.
pub fn spv_execution_modes(
    attrs: &[Attribute],
    constant: &dyn Fn(&crate::hlsl::ast::Expr) -> Option<i64>,
) -> Result<Vec<crate::grammar::ExecutionMode>, Diagnostic> {
    let mut out = Vec::new();
    for a in attrs {
        if a.namespace.as_ref().is_none_or(|n| n.name != "vk") || a.name.name != "spvexecutionmode"
        {
            continue;
        }
        let words: Option<Vec<u32>> = a
            .args
            .iter()
            .map(|e| constant(e).and_then(|v| u32::try_from(v).ok()))
            .collect();
        match words
            .filter(|w| !w.is_empty())
            .map(|w| literal_operands(&w))
        {
            Some(Ok(m)) => out.push(m),
            _ => {
                return Err(Diagnostic::error(
                    a.span,
                    "[[vk::spvexecutionmode]]: no execution mode of the SPIR-V grammar takes \
                     these constant operands (ids are not supported yet)",
                ))
            }
        }
    }
    Ok(out)
}

/// DXC's attributes that change the SPIR-V and are not implemented yet.
const NOT_YET: &[&str] = &[
    "nodeshader",
    "NodeLaunch",
    "numthreadsx",
    "RootSignature",
    "clipplanes",
];

/// Whether the unit uses `precise` anywhere: its arithmetic then gets `NoContraction`.
pub fn uses_precise(unit: &TranslationUnit) -> bool {
    let mut found = false;
    let mut cx = Checker {
        diags: Vec::new(),
        precise: &mut found,
        requested: Requested::default(),
    };
    cx.unit(unit);
    found
}

/// What `[[vk::ext_capability(n)]]` and `[[vk::ext_extension("name")]]` ask the module to
/// declare, wherever in the unit they are written (a function, a parameter, a variable, a
/// field, a buffer): the module declares them whether or not its code needs them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Requested {
    /// The capabilities, in source order.
    pub capabilities: Vec<crate::grammar::Capability>,
    /// The extensions, in source order.
    pub extensions: Vec<String>,
}

impl Requested {
    /// Declares the capabilities and extensions, needed or not, each capability with what
    /// enables it at the module's version: nothing where the version has it, else an
    /// extension the module declares or the first the grammar lists, else the version that
    /// has it.
    pub fn declare(&self, module: &mut crate::ir::Module) {
        for e in &self.extensions {
            if !module.extensions.contains(e) {
                module.extensions.push(e.clone());
            }
        }
        for &c in &self.capabilities {
            if !module.capabilities.contains(&c) {
                module.capabilities.push(c);
            }
            let a = c.availability();
            if a.version.is_some_and(|v| v <= module.version) {
                continue;
            }
            let declared = a
                .extensions
                .iter()
                .any(|e| module.extensions.iter().any(|d| d == e.name()));
            match (declared, a.extensions.first(), a.version) {
                (true, ..) => {}
                (false, Some(e), _) => module.extensions.push(e.name().to_string()),
                (false, None, Some(v)) => module.version = v,
                (false, None, None) => {}
            }
        }
    }
}

/// Checks every attribute and modifier of `unit`, reporting to `diags`; what the unit asks
/// the module to declare.
pub fn check(unit: &TranslationUnit, diags: &mut Vec<Diagnostic>) -> Requested {
    let mut found = false;
    let mut cx = Checker {
        diags: Vec::new(),
        precise: &mut found,
        requested: Requested::default(),
    };
    cx.unit(unit);
    diags.append(&mut cx.diags);
    cx.requested
}

struct Checker<'a> {
    diags: Vec<Diagnostic>,
    precise: &'a mut bool,
    requested: Requested,
}

impl Checker<'_> {
    fn unit(&mut self, unit: &TranslationUnit) {
        for item in &unit.items {
            match item {
                Item::Function(f) => self.function(f),
                Item::Struct(s) => {
                    for f in &s.fields {
                        self.var(f, Site::Field);
                    }
                }
                Item::Variables(v) => self.var(v, Site::Global),
                Item::Buffer(b) => {
                    self.attributes(&b.attributes, Site::Buffer);
                    for m in &b.members {
                        self.var(m, Site::Field);
                    }
                }
                Item::Typedef(t) => self.modifiers(&t.modifiers, Site::Field),
                Item::Empty(_)
                | Item::StructForward(_)
                | Item::Namespace { .. }
                | Item::Using { .. }
                | Item::Template { .. } => {}
            }
        }
    }

    fn function(&mut self, f: &FunctionDecl) {
        // `[[vk::ext_instruction(op)]]` makes a declaration (without a body) inline SPIR-V.
        let inline = |a: &Attribute| {
            f.body.is_none()
                && a.name.name == "ext_instruction"
                && a.namespace.as_ref().is_some_and(|n| n.name == "vk")
        };
        let attrs: Vec<Attribute> = f
            .attributes
            .iter()
            .filter(|a| !inline(a))
            .cloned()
            .collect();
        self.attributes(&attrs, Site::Function);
        self.modifiers(&f.modifiers, Site::Function);
        self.packoffset(&f.annotations);
        for p in &f.params {
            self.packoffset(&p.annotations);
            self.attributes(&p.attributes, Site::Param);
            self.modifiers(&p.modifiers, Site::Param);
        }
        if let Some(body) = &f.body {
            for s in &body.stmts {
                self.stmt(s);
            }
        }
    }

    fn var(&mut self, v: &VarDecl, site: Site) {
        self.attributes(&v.attributes, site);
        self.modifiers(&v.modifiers, site);
        if matches!(site, Site::Global | Site::Local) {
            for d in &v.declarators {
                self.packoffset(&d.annotations);
            }
        }
    }

    /// `packoffset` outside a buffer's members (structs' fields are checked with them).
    fn packoffset(&mut self, annotations: &[crate::hlsl::ast::Annotation]) {
        for a in annotations {
            if let crate::hlsl::ast::Annotation::PackOffset(_, span) = a {
                self.diags.push(Diagnostic::error(
                    *span,
                    "packoffset is only allowed on the members of a cbuffer or tbuffer",
                ));
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        // A declaration's attributes are its variables'.
        let site = match s.kind {
            StmtKind::Decl(_) => Site::Local,
            _ => Site::Statement,
        };
        self.attributes(&s.attributes, site);
        match &s.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| self.stmt(s)),
            StmtKind::Decl(d) => self.var(d, Site::Local),
            StmtKind::If {
                then, otherwise, ..
            } => {
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                self.stmt(body);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => self.stmt(body),
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    c.body.iter().for_each(|s| self.stmt(s));
                }
            }
            _ => {}
        }
    }

    /// Records `[[vk::ext_capability(n)]]` or `[[vk::ext_extension("name")]]`, whose
    /// argument must be a known capability's number or a string.
    fn requirement(&mut self, a: &Attribute) {
        use crate::hlsl::ast::{ExprKind, Literal};
        let name = a.name.name.as_str();
        let arg = match a.args.as_slice() {
            [e] => Some(&e.kind),
            _ => None,
        };
        match (name, arg) {
            ("ext_capability", Some(ExprKind::Literal(Literal::Int { value, .. }))) => {
                match u32::try_from(*value)
                    .ok()
                    .and_then(crate::grammar::Capability::from_value)
                {
                    Some(c) => self.requested.capabilities.push(c),
                    None => self.diags.push(Diagnostic::error(
                        a.span,
                        format!(
                            "[[vk::ext_capability({value})]]: no SPIR-V capability has this number"
                        ),
                    )),
                }
            }
            ("ext_extension", Some(ExprKind::Literal(Literal::String(s)))) => {
                self.requested.extensions.push(s.clone())
            }
            ("ext_capability", _) => self.diags.push(Diagnostic::error(
                a.span,
                "[[vk::ext_capability]] takes one integer literal, a capability's number",
            )),
            _ => self.diags.push(Diagnostic::error(
                a.span,
                "[[vk::ext_extension]] takes one string literal, an extension's name",
            )),
        }
    }

    fn attributes(&mut self, attrs: &[Attribute], site: Site) {
        for a in attrs {
            let name = a.name.name.as_str();
            if matches!(name, "ext_capability" | "ext_extension")
                && a.namespace.as_ref().is_some_and(|n| n.name == "vk")
            {
                self.requirement(a);
                continue;
            }
            match a.namespace.as_ref().map(|n| n.name.as_str()) {
                None if plain_known(site, name) => {}
                // Vulkan chooses the subgroup size at pipeline creation, not in SPIR-V: DXC's
                // warning, and nothing in the module.
                None if site == Site::Function && matches!(name, "WaveSize" | "wavesize") => {
                    self.diags.push(Diagnostic::warning(
                        a.span,
                        "Wave size is not supported by Vulkan SPIR-V. Consider using \
                         VK_EXT_subgroup_size_control.",
                    ))
                }
                None if NOT_YET.contains(&name) => self.diags.push(Diagnostic::error(
                    a.span,
                    format!("not supported yet: the attribute [{name}]"),
                )),
                Some("vk")
                    if site == Site::Function
                        && matches!(name, "ext_decorate_string" | "ext_decorate_id") =>
                {
                    self.diags.push(Diagnostic::error(
                        a.span,
                        format!("vk::{name} is not supported on functions"),
                    ))
                }
                Some("vk") if vk_implemented(site, name) => {}
                // Every `vk::` attribute changes the SPIR-V (bindings, layouts, built-ins,
                // execution modes, inline SPIR-V): one not implemented here is refused.
                Some("vk") => self.diags.push(Diagnostic::error(
                    a.span,
                    format!("not supported yet: the attribute [[vk::{name}]] here"),
                )),
                ns => {
                    let full = match ns {
                        Some(ns) => format!("{ns}::{name}"),
                        None => name.to_owned(),
                    };
                    self.diags.push(Diagnostic::warning(
                        a.span,
                        format!("unknown attribute '{full}' ignored"),
                    ))
                }
            }
        }
    }

    fn modifiers(&mut self, mods: &[ModifierSpan], site: Site) {
        for m in mods {
            match m.modifier {
                Modifier::Precise => *self.precise = true,
                Modifier::GloballyCoherent if site != Site::Global => {
                    self.diags.push(Diagnostic::error(
                        m.span,
                        "not supported yet: 'globallycoherent' other than on a global resource",
                    ))
                }
                _ => {}
            }
        }
    }
}
