//! The wrapper entry function in DXC's shape: `main` (void, no parameters) runs the `static`
//! initializers, loads every stage input from its Input variable (struct inputs flattened),
//! calls the source entry function with Function-storage copies, and stores the results to
//! Output variables; plus the entry point's execution modes. Which variables there are, where
//! they go and every check of them is semantic analysis's ([`crate::hlsl::hir::Interface`]):
//! this only creates them, as it meets them, and moves the values.

use super::func::FnCx;
use super::types::ir_ty;
use super::{FuncSym, ParamDir, State};
use crate::grammar::{
    BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl, StorageClass,
};
use crate::hlsl::ast::Item;
use crate::hlsl::hir::{Interface, IoPath, IoRoot, StagePlace, StageVar};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::interface::distance_floats;
use crate::hlsl::sema::layout::LayoutRule;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::Stage;
use crate::ir::{Builder, GlobalVariable, Handle, Value};

/// The derivative group of a compute shader that uses derivatives (semantic analysis checked
/// that its size has one).
fn derivative_group(
    st: &mut State,
    b: &mut Builder,
    entry: Handle<crate::ir::Function>,
    size: [u32; 3],
    span: Span,
) {
    let Some((mode, capability)) = crate::hlsl::sema::availability::derivative_group(size) else {
        st.error(
            span,
            "internal: a compute shader's derivatives have no derivative group",
        );
        return;
    };
    b.capability(capability);
    b.execution_mode(entry, mode);
}

/// The wrapper's state while it builds the stage interface.
struct Io {
    /// The plan semantic analysis made.
    plan: Interface,
    /// The clip and cull distance arrays, as [`Interface::distances`] lists them.
    distances: Vec<Handle<GlobalVariable>>,
    /// The `BaseInstance`/`BaseVertex` inputs made for `-fvk-support-nonzero-base-*`.
    bases: Vec<(BuiltIn, Handle<GlobalVariable>)>,
}

impl FnCx<'_, '_> {
    /// Creates the variable of a planned stage variable (not a distance's), with its
    /// decorations, and the capability or extension DXC declares for it.
    fn stage_global(&mut self, v: &StageVar) -> Handle<GlobalVariable> {
        let stage = self.st.opts.profile.stage;
        let output = v.path.output;
        let mut decorations = Vec::new();
        match v.place {
            StagePlace::BuiltIn(bi) => {
                decorations.push(Decoration::BuiltIn(bi));
                match bi {
                    BuiltIn::Layer | BuiltIn::ViewportIndex if stage == Stage::Vertex && output => {
                        // Core from SPIR-V 1.5 (Vulkan 1.2), by SPV_EXT_shader_viewport_index_layer
                        // before, as DXC chooses: declared here, the requirements pass keeps
                        // the choice.
                        let core = self.st.opts.target_env.spirv_version()
                            >= crate::grammar::Version(1, 5);
                        self.f.capability(match (core, bi) {
                            (false, _) => Capability::ShaderViewportIndexLayerEXT,
                            (true, BuiltIn::Layer) => Capability::ShaderLayer,
                            (true, _) => Capability::ShaderViewportIndex,
                        });
                    }
                    BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR => {
                        // The KHR extension, as DXC (the grammar lists the NV one first).
                        self.f.extension("SPV_KHR_fragment_shader_barycentric");
                    }
                    _ => {}
                }
            }
            StagePlace::Location { location, index } => {
                decorations.push(Decoration::Location(location));
                if let Some(i) = index {
                    decorations.push(Decoration::Index(i));
                }
            }
            StagePlace::Distance { .. } => {}
        }
        if v.flat {
            decorations.push(Decoration::Flat);
        }
        if v.noperspective {
            decorations.push(Decoration::NoPerspective);
        }
        if v.centroid {
            decorations.push(Decoration::Centroid);
        }
        if v.sample {
            decorations.push(Decoration::Sample);
        }
        if self.st.opts.reflect {
            // SPV_GOOGLE_hlsl_functionality1: the semantic as written.
            decorations.push(Decoration::UserSemantic(v.semantic.clone()));
        }
        let sc = if output {
            StorageClass::Output
        } else {
            StorageClass::Input
        };
        let t = ir_ty(&mut self.f, self.st, &v.var_ty, LayoutRule::None, false);
        let p = self.f.type_pointer(sc, t);
        let g = self.f.global(GlobalVariable {
            name: Some(v.name.clone()),
            decorations,
            ..GlobalVariable::new(p, sc)
        });
        self.st.interface.push(g);
        g
    }

    /// Creates the ClipDistance and CullDistance arrays of the stage.
    fn distance_arrays(&mut self, io: &mut Io) {
        for a in io.plan.distances.clone() {
            let sc = if a.output {
                StorageClass::Output
            } else {
                StorageClass::Input
            };
            let (builtin, name, sem) = if a.cull {
                (BuiltIn::CullDistance, "gl_CullDistance", "SV_CullDistance")
            } else {
                (BuiltIn::ClipDistance, "gl_ClipDistance", "SV_ClipDistance")
            };
            let mut decorations = vec![Decoration::BuiltIn(builtin)];
            if self.st.opts.reflect {
                decorations.push(Decoration::UserSemantic(sem.to_owned()));
            }
            let arr = Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), a.len);
            let t = self.ty(&arr);
            let p = self.f.type_pointer(sc, t);
            let var = self.f.global(GlobalVariable {
                name: Some(name.to_owned()),
                decorations,
                ..GlobalVariable::new(p, sc)
            });
            self.st.interface.push(var);
            io.distances.push(var);
        }
    }

    /// The planned stage variable at `path`; `None` where semantic analysis refused it (and
    /// reported why).
    fn planned(io: &Io, path: &IoPath) -> Option<StageVar> {
        io.plan.vars.iter().find(|v| v.path == *path).cloned()
    }

    /// Reads a clip or cull distance input of `ty` element by element from the array, from
    /// element `*k` on.
    fn read_distance(&mut self, var: Handle<GlobalVariable>, ty: &Ty, k: &mut u32) -> Value {
        match ty {
            Ty::Vector(_, n) | Ty::Array(_, n) => {
                let elem = match ty {
                    Ty::Array(e, _) => (**e).clone(),
                    _ => Ty::Scalar(Scalar::Float),
                };
                let parts: Vec<Value> =
                    (0..*n).map(|_| self.read_distance(var, &elem, k)).collect();
                let t = self.ty(ty);
                self.f.composite_construct(t, &parts)
            }
            _ => {
                let ft = self.ty(&Ty::Scalar(Scalar::Float));
                let pt = self.f.type_pointer(StorageClass::Input, ft);
                let i = Value::Constant(self.f.constant_u32(*k));
                *k += 1;
                let ptr = self.f.access_chain(pt, Value::Global(var), &[i]);
                self.f.load(ft, ptr, None)
            }
        }
    }

    /// Writes a clip or cull distance output `v` of `ty` element by element into the array
    /// from element `offset` on (array elements at a computed offset, as DXC writes them).
    fn write_distance(&mut self, var: Handle<GlobalVariable>, v: Value, ty: &Ty, offset: u32) {
        let ft = self.ty(&Ty::Scalar(Scalar::Float));
        let pt = self.f.type_pointer(StorageClass::Output, ft);
        let ut = self.ty(&Ty::Scalar(Scalar::UInt));
        match ty {
            Ty::Array(e, n) => {
                let per = distance_floats(e).unwrap_or(1);
                let start = Value::Constant(self.f.constant_u32(offset));
                for i in 0..*n {
                    let step = Value::Constant(self.f.constant_u32(i * per));
                    let base = self.f.i_add(ut, start, step);
                    for j in 0..per {
                        let c = Value::Constant(self.f.constant_u32(j));
                        let idx = self.f.i_add(ut, base, c);
                        let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                        let path = if per == 1 && matches!(**e, Ty::Scalar(_)) {
                            vec![i]
                        } else {
                            vec![i, j]
                        };
                        let x = self.f.composite_extract(ft, v, path);
                        self.f.store(ptr, x, None);
                    }
                }
            }
            Ty::Vector(_, n) => {
                for j in 0..*n {
                    let idx = Value::Constant(self.f.constant_u32(offset + j));
                    let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                    let x = self.f.composite_extract(ft, v, vec![j]);
                    self.f.store(ptr, x, None);
                }
            }
            _ => {
                let idx = Value::Constant(self.f.constant_u32(offset));
                let ptr = self.f.access_chain(pt, Value::Global(var), &[idx]);
                self.f.store(ptr, v, None);
            }
        }
    }

    /// The Input variable of the `BaseInstance` or `BaseVertex` built-in, of type `ty`
    /// (created on first use).
    fn base_var(
        &mut self,
        io: &mut Io,
        builtin: BuiltIn,
        name: &str,
        ty: &Ty,
    ) -> Handle<GlobalVariable> {
        if let Some((_, g)) = io.bases.iter().find(|(b, _)| *b == builtin) {
            return *g;
        }
        let t = ir_ty(&mut self.f, self.st, ty, LayoutRule::None, false);
        let p = self.f.type_pointer(StorageClass::Input, t);
        let g = self.f.global(GlobalVariable {
            name: Some(name.to_owned()),
            decorations: vec![Decoration::BuiltIn(builtin)],
            ..GlobalVariable::new(p, StorageClass::Input)
        });
        io.bases.push((builtin, g));
        self.st.interface.push(g);
        g
    }

    /// Loads a stage input of `ty` at `path` (a struct is loaded field by field).
    fn load_input(&mut self, io: &mut Io, path: IoPath, ty: &Ty, span: Span) -> Option<Value> {
        if let Ty::Struct(i) = ty {
            let fields = self.st.types.structs.get(*i)?.fields.clone();
            let mut parts = Vec::new();
            for (k, f) in fields.iter().enumerate() {
                let mut sub = path.clone();
                sub.fields.push(k as u32);
                parts.push(self.load_input(io, sub, &f.ty, span)?);
            }
            let t = self.ty(ty);
            return Some(self.f.composite_construct(t, &parts));
        }
        let var = Self::planned(io, &path)?;
        let builtin = match var.place {
            StagePlace::Distance { array, offset } => {
                let mut k = offset;
                return Some(self.read_distance(io.distances[array], ty, &mut k));
            }
            StagePlace::BuiltIn(bi) => Some(bi),
            StagePlace::Location { .. } => None,
        };
        let g = self.stage_global(&var);
        let vt = var.var_ty;
        let t = self.ty(&vt);
        let mut v = self.f.load(t, Value::Global(g), None);
        match builtin {
            Some(BuiltIn::SampleMask) => {
                // The mask of up to 32 samples is the array's one element.
                let ut = Ty::Scalar(Scalar::UInt);
                let u = self.ty(&ut);
                let x = self.f.composite_extract(u, v, vec![0]);
                return self.convert(x, &ut, ty, span);
            }
            Some(BuiltIn::BaryCoordKHR | BuiltIn::BaryCoordNoPerspKHR) => {
                // As DXC: the third weight is rebuilt as 1 - x - y.
                let ft = self.ty(&Ty::Scalar(Scalar::Float));
                let x = self.f.composite_extract(ft, v, vec![0]);
                let y = self.f.composite_extract(ft, v, vec![1]);
                let xy = self.f.f_add(ft, x, y);
                let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
                let z = self.f.f_sub(ft, one, xy);
                v = self.f.composite_construct(t, &[x, y, z]);
            }
            _ => {}
        }
        let base = match builtin {
            Some(BuiltIn::InstanceIndex) if self.st.opts.nonzero_base_instance => {
                Some((BuiltIn::BaseInstance, "gl_BaseInstance"))
            }
            Some(BuiltIn::VertexIndex) if self.st.opts.nonzero_base_vertex => {
                Some((BuiltIn::BaseVertex, "gl_BaseVertex"))
            }
            _ => None,
        };
        if let Some((builtin, name)) = base {
            // Vulkan's InstanceIndex and VertexIndex count from the draw's first instance
            // and vertex; DirectX's SV_InstanceID and SV_VertexID from 0.
            let g = self.base_var(io, builtin, name, &vt);
            let b = self.f.load(t, Value::Global(g), None);
            v = self.f.i_sub(t, v, b);
        }
        if self.st.opts.dx_position_w && builtin == Some(BuiltIn::FragCoord) {
            // DirectX's SV_Position.w is 1/w of Vulkan's FragCoord.w.
            let ft = self.ty(&Ty::Scalar(Scalar::Float));
            let w = self.f.composite_extract(ft, v, vec![3]);
            let one = self.scalar_const(Scalar::Float, ConstVal::Float(1.0));
            let inv = self.f.f_div(ft, one, w);
            v = self.f.composite_insert(t, inv, v, vec![3]);
        }
        self.convert(v, &vt, ty, span)
    }

    /// Stores a stage output `v` of `ty` at `path` (a struct field by field).
    fn store_output(&mut self, io: &mut Io, path: IoPath, v: Value, ty: &Ty, span: Span) {
        if let Ty::Struct(i) = ty {
            let Some(def) = self.st.types.structs.get(*i) else {
                return;
            };
            let fields = def.fields.clone();
            for (k, f) in fields.iter().enumerate() {
                let ft = self.ty(&f.ty);
                let x = self.f.composite_extract(ft, v, vec![k as u32]);
                let mut sub = path.clone();
                sub.fields.push(k as u32);
                self.store_output(io, sub, x, &f.ty, span);
            }
            return;
        }
        let Some(var) = Self::planned(io, &path) else {
            return;
        };
        let builtin = match var.place {
            StagePlace::Distance { array, offset } => {
                self.write_distance(io.distances[array], v, ty, offset);
                return;
            }
            StagePlace::BuiltIn(bi) => Some(bi),
            StagePlace::Location { .. } => None,
        };
        let g = self.stage_global(&var);
        let vt = var.var_ty;
        if builtin == Some(BuiltIn::SampleMask) {
            // The mask of up to 32 samples is the array's one element.
            let ut = Ty::Scalar(Scalar::UInt);
            let Some(x) = self.convert(v, ty, &ut, span) else {
                return;
            };
            let u = self.ty(&ut);
            let pt = self.f.type_pointer(StorageClass::Output, u);
            let zero = Value::Constant(self.f.constant_u32(0));
            let ptr = self.f.access_chain(pt, Value::Global(g), &[zero]);
            self.f.store(ptr, x, None);
            return;
        }
        let Some(mut x) = self.convert(v, ty, &vt, span) else {
            return;
        };
        if self.st.opts.invert_y && builtin == Some(BuiltIn::Position) {
            // Vulkan's y axis points down where DirectX's points up.
            let ft = self.ty(&Ty::Scalar(Scalar::Float));
            let t = self.ty(&vt);
            let y = self.f.composite_extract(ft, x, vec![1]);
            let neg = self.f.f_negate(ft, y);
            x = self.f.composite_insert(t, neg, x, vec![1]);
        }
        self.f.store(Value::Global(g), x, None);
    }
}

/// Emits the wrapper `main` around the source entry function.
pub(crate) fn emit_wrapper(st: &mut State, b: &mut Builder, entry: &FuncSym) {
    let Some(Item::Function(decl)) = st.unit.items.get(entry.item) else {
        return;
    };
    let Some(src) = entry.handle else { return };
    let Some(plan) = st.entry_io.take() else {
        return;
    };
    let stage = st.opts.profile.stage;
    let void = b.type_void();
    let fty = b.type_function(void, &[]);
    let f = b.function(fty, FunctionControl::None);
    let handle = f.handle();
    let mut cx = FnCx::new(f, st, Ty::Void);
    let mut io = Io {
        plan,
        distances: Vec::new(),
        bases: Vec::new(),
    };
    // The clip and cull distance arrays need every semantic's size before the first access.
    cx.distance_arrays(&mut io);
    // `static` initializers run first.
    let inits = cx.st.static_inits.clone();
    let unit = cx.st.unit;
    for (place, idx, k) in inits {
        let init = match unit.items.get(idx) {
            Some(Item::Variables(v)) => v.declarators.get(k).and_then(|d| d.init.as_ref()),
            _ => None,
        };
        if let Some(init) = init {
            if let Some(v) = cx.initializer(init, &place.ty) {
                cx.f.store(place.ptr, v, None);
            }
        }
    }
    let mut args = Vec::new();
    let mut outs = Vec::new();
    for (i, (p, (ty, dir))) in decl.params.iter().zip(&entry.params).enumerate() {
        let name = p.name.as_ref().map_or(String::new(), |n| n.name.clone());
        let tmp = cx.local(ty, &format!("param.var.{name}"));
        if *dir != ParamDir::Out {
            let at = p.name.as_ref().map_or(p.span, |n| n.span);
            let path = IoPath {
                root: IoRoot::Param(i),
                output: false,
                fields: Vec::new(),
            };
            if let Some(v) = cx.load_input(&mut io, path, ty, at) {
                cx.f.store(tmp, v, None);
            }
        }
        if *dir != ParamDir::In {
            outs.push((i, tmp, ty.clone(), p.span));
        }
        args.push(tmp);
    }
    let rt = cx.ty(&entry.ret);
    // Rasterizer-ordered views: the whole shader is the critical section of the fragment
    // shader interlock (entered and left once, in the entry point, as Vulkan requires; the
    // accesses DXC's optimizer gathers into one section all lie inside it).
    let interlock = cx.st.interlock.is_some() && stage == Stage::Pixel;
    if interlock {
        cx.f.begin_invocation_interlock_ext();
    }
    let r = cx.f.function_call(rt, Value::Function(src), &args);
    if interlock {
        cx.f.end_invocation_interlock_ext();
    }
    if entry.ret != Ty::Void {
        let path = IoPath {
            root: IoRoot::Return,
            output: true,
            fields: Vec::new(),
        };
        cx.store_output(&mut io, path, r, &entry.ret.clone(), decl.span);
    }
    for (i, tmp, ty, span) in outs {
        let t = cx.ty(&ty);
        let v = cx.f.load(t, tmp, None);
        let path = IoPath {
            root: IoRoot::Param(i),
            output: true,
            fields: Vec::new(),
        };
        cx.store_output(&mut io, path, v, &ty, span);
    }
    cx.f.ret();
    cx.terminated = true;
    cx.finish();
    let name = st.opts.entry.clone();
    b.name_function(handle, &name);
    let model = match stage {
        Stage::Compute => ExecutionModel::GLCompute,
        Stage::Vertex => ExecutionModel::Vertex,
        Stage::Pixel => ExecutionModel::Fragment,
    };
    let interface = st.interface.clone();
    b.entry_point(model, handle, &name, &interface);
    for mode in io.plan.modes {
        b.execution_mode(handle, mode);
    }
    for mode in std::mem::take(&mut st.extra_modes) {
        b.execution_mode(handle, mode);
    }
    let compute = st.opts.profile.stage == Stage::Compute;
    if let (Some(size), Some(span), true) = (io.plan.local_size, st.derivative_use, compute) {
        derivative_group(st, b, handle, size, span);
    }
}
