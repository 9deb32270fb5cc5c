//! `ir::check`: a module built in memory with a dangling handle is an error naming the place,
//! from `check`, `serialize`, `StreamingSerializer`, `Builder::finish` and the lowering, never
//! a panic; and every corpus module with one handle corrupted at random is rejected.

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::grammar::*;
use spvkit::ir::operands::{visit_ids_mut, ExtOperands};
use spvkit::ir::{
    self, Builder, Function, GlobalVariable, Handle, IrError, IrErrorKind, Module, Op, Place,
    StreamingSerializer, Terminator, Value,
};

/// The handles of [`module`] that the cases break.
struct Parts {
    helper: Handle<Function>,
    main: Handle<Function>,
    global: Handle<GlobalVariable>,
    /// `OpLoad` of the global, in the helper's entry block.
    load: Handle<Op>,
    /// `OpIAdd` of the load and the parameter, in the helper's entry block.
    add: Handle<Op>,
    /// `OpFunctionCall` of the helper, in main's entry block.
    call: Handle<Op>,
}

fn op(v: Value) -> Handle<Op> {
    match v {
        Value::Op(h) => h,
        v => panic!("{v} is not an op"),
    }
}

/// A compute shader whose main calls a helper with a parameter, a global and two blocks (the
/// second with an argument).
fn module() -> (Module, Parts) {
    let mut b = Builder::new(
        Version(1, 3),
        AddressingModel::Logical,
        MemoryModel::GLSL450,
    );
    b.capability(Capability::Shader);
    let uint = b.type_int(32, false);
    let ptr = b.type_pointer(StorageClass::Private, uint);
    let global = b.global(GlobalVariable::new(ptr, StorageClass::Private));
    let helper_ty = b.type_function(uint, &[uint]);
    let mut f = b.function(helper_ty, FunctionControl::None);
    let x = f.load(uint, global, None);
    let p = f.param(0);
    let sum = f.i_add(uint, x, p);
    let next = f.block();
    let arg = f.block_arg(next, uint);
    f.branch(next, &[sum]);
    f.switch_to(next);
    let one = f.constant_u32(1);
    let y = f.i_add(uint, arg, one);
    f.ret_value(y);
    let helper = f.finish();
    let void = b.type_void();
    let main_ty = b.type_function(void, &[]);
    let mut f = b.function(main_ty, FunctionControl::None);
    let two = f.constant_u32(2);
    let call = f.function_call(uint, helper, &[two.into()]);
    f.ret();
    let main = f.finish();
    b.entry_point(ExecutionModel::GLCompute, main, "main", &[]);
    b.execution_mode(main, ExecutionMode::LocalSize(1, 1, 1));
    let parts = Parts {
        helper,
        main,
        global,
        load: op(x),
        add: op(sum),
        call: op(call),
    };
    (b.finish().expect("the module is whole"), parts)
}

/// Sets id number `n` (in operand order, result type and result included) of an op.
fn set_id(m: &mut Module, f: Handle<Function>, h: Handle<Op>, n: usize, v: Value) {
    let mut i = 0;
    visit_ids_mut(
        &mut m.functions[f].ops[h].inst,
        |_, _| ExtOperands::AllIds,
        &mut |id| {
            if i == n {
                *id = v.to_id();
            }
            i += 1;
        },
    );
}

type Case = (&'static str, fn(&mut Module, &Parts) -> Place, &'static str);

/// Each kind of dangling handle: what it breaks, where, and part of the message.
fn cases() -> Vec<Case> {
    vec![
        (
            "type handle",
            |m, p| {
                m.globals[p.global].ty = Handle::new(m.types.len() + 3);
                Place::Global(p.global)
            },
            "out of range",
        ),
        (
            "constant handle",
            |m, p| {
                let c = Value::Constant(Handle::new(m.constants.len()));
                set_id(m, p.helper, p.add, 3, c);
                Place::Op(p.helper, Some(Handle::new(0)), p.add)
            },
            "out of range",
        ),
        (
            "op value",
            |m, p| {
                let v = Value::Op(Handle::new(m.functions[p.helper].ops.len() + 1));
                set_id(m, p.helper, p.add, 2, v);
                Place::Op(p.helper, Some(Handle::new(0)), p.add)
            },
            "%4 is out of range (3 ops)",
        ),
        (
            "parameter",
            |m, p| {
                set_id(m, p.helper, p.add, 3, Value::Param(1));
                Place::Op(p.helper, Some(Handle::new(0)), p.add)
            },
            "%arg1 is out of range (1 parameters)",
        ),
        (
            "global",
            |m, p| {
                let g = Value::Global(Handle::new(m.globals.len()));
                set_id(m, p.helper, p.load, 2, g);
                Place::Op(p.helper, Some(Handle::new(0)), p.load)
            },
            "out of range",
        ),
        (
            "callee",
            |m, p| {
                let f = Value::Function(Handle::new(9));
                set_id(m, p.main, p.call, 2, f);
                Place::Op(p.main, Some(Handle::new(0)), p.call)
            },
            "@fn9 is out of range (2 functions)",
        ),
        (
            "block successor",
            |m, p| {
                let entry = Handle::new(0);
                let Terminator::Branch(s) = &mut m.functions[p.helper].blocks[entry].terminator
                else {
                    panic!("the helper's entry block branches")
                };
                s.block = Handle::new(5);
                Place::Block(p.helper, entry)
            },
            "^bb5 is out of range (2 blocks)",
        ),
        (
            "successor arguments",
            |m, p| {
                let entry = Handle::new(0);
                let Terminator::Branch(s) = &mut m.functions[p.helper].blocks[entry].terminator
                else {
                    panic!("the helper's entry block branches")
                };
                s.args.clear();
                Place::Block(p.helper, entry)
            },
            "passes 0 values to ^bb1, which takes 1",
        ),
        (
            "entry point function",
            |m, _| {
                m.entry_points[0].function = Handle::new(2);
                Place::EntryPoint(0)
            },
            "@fn2 is out of range",
        ),
        (
            "execution mode function",
            |m, _| {
                m.execution_modes[0].function = Handle::new(7);
                Place::ExecutionMode(0)
            },
            "@fn7 is out of range",
        ),
        (
            "function type",
            |m, p| {
                m.functions[p.main].ty = m.globals[p.global].ty;
                Place::Function(p.main)
            },
            "is not a function type",
        ),
        (
            "result type",
            |m, p| {
                set_id(m, p.helper, p.add, 0, Value::Global(p.global));
                Place::Op(p.helper, Some(Handle::new(0)), p.add)
            },
            "the result type @global0 is not a type",
        ),
        (
            "op handle in a block",
            |m, p| {
                let entry = Handle::new(0);
                m.functions[p.main].blocks[entry].ops.push(Handle::new(40));
                Place::Op(p.main, Some(entry), Handle::new(40))
            },
            "%40 is out of range",
        ),
    ]
}

/// The error `check` gives for a case, after checking it names `place` and says `what`.
fn broken(name: &str, m: &Module, place: Place, what: &str) -> IrError {
    let e = ir::check(m).expect_err(name);
    match &e.kind {
        IrErrorKind::Invalid { place: p, .. } => assert_eq!(*p, place, "{name}: {e}"),
        _ => panic!("{name}: {e:?}"),
    }
    assert!(e.to_string().contains(what), "{name}: {e}");
    assert!(e.to_string().starts_with(&place.to_string()), "{name}: {e}");
    e
}

#[test]
fn every_kind_of_dangling_handle_is_an_error_naming_the_place() {
    let (whole, parts) = module();
    ir::check(&whole).expect("the whole module passes");
    let words = ir::serialize(&whole).expect("the whole module serializes");
    assert_eq!(ir::deserialize(&words).expect("reads back"), whole);
    for (name, corrupt, what) in cases() {
        let mut m = whole.clone();
        let place = corrupt(&mut m, &parts);
        let e = broken(name, &m, place, what);
        assert_eq!(ir::serialize(&m).as_ref(), Err(&e), "{name}: serialize");
        let finished = Builder::from_module(m.clone()).finish();
        assert_eq!(finished.as_ref(), Err(&e), "{name}: Builder::finish");
        // Function by function: the error comes from the function or from `finish`.
        let mut sink = StreamingSerializer::new();
        let streamed = m
            .functions
            .handles()
            .try_for_each(|f| sink.write_function(&m, f))
            .and_then(|()| sink.finish(&m));
        assert_eq!(streamed.as_ref(), Err(&e), "{name}: StreamingSerializer");
    }
}

/// The streaming serializer checks each function as it writes it, and the rest at the end.
#[test]
fn the_streaming_serializer_checks_each_function() {
    let (mut m, parts) = module();
    let mut sink = StreamingSerializer::new();
    sink.write_function(&m, parts.helper).expect("written");
    // Main calls a function that does not exist: an error when main is written, or at the
    // end when it is left to `finish`.
    set_id(
        &mut m,
        parts.main,
        parts.call,
        2,
        Value::Function(Handle::new(5)),
    );
    let place = Place::Op(parts.main, Some(Handle::new(0)), parts.call);
    let e = broken("callee", &m, place, "@fn5 is out of range");
    let mut again = StreamingSerializer::new();
    assert_eq!(again.write_function(&m, parts.main), Err(e.clone()));
    assert_eq!(sink.finish(&m), Err(e));
    // A function that does not exist is an error, not a panic.
    let e = StreamingSerializer::new()
        .write_function(&m, Handle::new(9))
        .expect_err("no such function");
    assert_eq!(
        e.to_string(),
        "function @fn9: @fn9 is out of range (2 functions)"
    );
}

#[cfg(feature = "llvm")]
#[test]
fn the_lowering_reports_dangling_handles() {
    use spvkit::lower::{lower, LowerErrorKind};
    let (whole, parts) = module();
    let cx = inkwell::context::Context::create();
    for (name, corrupt, what) in cases() {
        let mut m = whole.clone();
        let place = corrupt(&mut m, &parts);
        let e = broken(name, &m, place, what);
        let Err(l) = lower(&cx, &m, &Default::default()) else {
            panic!("{name}: lowered");
        };
        assert_eq!(l.kind, LowerErrorKind::Input, "{name}: {l}");
        assert_eq!(l.offset, None, "{name}: {l}");
        assert_eq!(l.input.as_ref(), Some(&e), "{name}: {l}");
        let Err(l) = spvkit::lower::lower_owned(&cx, m, None, &Default::default()) else {
            panic!("{name}: lowered");
        };
        assert_eq!(l.input, Some(e), "{name}: lower_owned");
    }
}

/// A small deterministic generator (an LCG).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// A value of the same kind as `v`, `r` past the end of its arena.
fn past_end(m: &Module, f: &Function, v: Value, r: usize) -> Value {
    let h = |len: usize| len + r;
    match v {
        Value::Op(_) => Value::Op(Handle::new(h(f.ops.len()))),
        Value::Param(_) => Value::Param((f.params.len() + r) as u32),
        Value::BlockArg(_) => Value::BlockArg(Handle::new(h(f.block_args.len()))),
        Value::Block(_) => Value::Block(Handle::new(h(f.blocks.len()))),
        Value::Constant(_) => Value::Constant(Handle::new(h(m.constants.len()))),
        Value::SpecConstant(_) => Value::SpecConstant(Handle::new(h(m.spec_constants.len()))),
        Value::Global(_) => Value::Global(Handle::new(h(m.globals.len()))),
        Value::Function(_) => Value::Function(Handle::new(h(m.functions.len()))),
        Value::Type(_) => Value::Type(Handle::new(h(m.types.len()))),
        Value::String(_) => Value::String(Handle::new(h(m.strings.len()))),
        Value::ExtInstSet(_) => Value::ExtInstSet(Handle::new(h(m.ext_inst_imports.len()))),
        Value::ExtInst(_) => Value::ExtInst(Handle::new(h(m.ext_insts.len()))),
    }
}

/// Corrupts one handle of `m` chosen by `rng`: an op's operand, a successor, a global's or
/// constant's type, or an entry point's function. Returns what it did, or `None` when the
/// module has nothing of the chosen kind.
fn corrupt(m: &mut Module, rng: &mut Lcg) -> Option<String> {
    let r = rng.below(3);
    let fs: Vec<_> = m
        .functions
        .iter()
        .filter(|(_, f)| !f.is_declaration())
        .map(|(h, _)| h)
        .collect();
    match rng.below(5) {
        0 | 1 => {
            let fh = *fs.get(rng.below(fs.len()))?;
            let f = &m.functions[fh];
            let b = f.blocks.as_slice().get(rng.below(f.blocks.len()))?;
            let oh = *b.ops.get(rng.below(b.ops.len()))?;
            let mut n = 0;
            m.visit_values(&f.ops[oh].inst, |_| n += 1);
            let k = rng.below(n);
            let mut i = 0;
            let mut done = None;
            let f = &m.functions[fh];
            let mut inst = f.ops[oh].inst.clone();
            visit_ids_mut(
                &mut inst,
                |set, number| match Value::from_id(set) {
                    Some(Value::ExtInstSet(s)) => ExtOperands::of(&m.ext_inst_imports[s], number),
                    _ => ExtOperands::Unknown,
                },
                &mut |id| {
                    if let Some(v) = Value::from_id(*id) {
                        if i == k {
                            let p = past_end(m, f, v, r);
                            done = Some(format!("{fh:?} {oh:?}: {v} -> {p}"));
                            *id = p.to_id();
                        }
                        i += 1;
                    }
                },
            );
            m.functions[fh].ops[oh].inst = inst;
            done
        }
        2 => {
            let fh = *fs.get(rng.below(fs.len()))?;
            let f = &mut m.functions[fh];
            let n = f.blocks.len();
            let bh = Handle::new(rng.below(n));
            let s = f.blocks[bh].terminator.successors_mut().next()?;
            s.block = Handle::new(n + r);
            Some(format!("{fh:?} {bh:?}: successor"))
        }
        3 if !m.globals.is_empty() => {
            let g = Handle::new(rng.below(m.globals.len()));
            m.globals[g].ty = Handle::new(m.types.len() + r);
            Some(format!("{g:?}: type"))
        }
        _ => {
            let e = rng.below(m.entry_points.len());
            m.entry_points.get_mut(e)?.function = Handle::new(m.functions.len() + r);
            Some(format!("entry point {e}"))
        }
    }
}

#[test]
fn corpus_modules_with_a_corrupted_handle_are_rejected() {
    let modules = corpus::build_all();
    let mut rng = Lcg(0xc4ec);
    let (mut tried, mut modules_used) = (0, 0);
    for m in modules.iter().filter(|m| m.valid).step_by(8) {
        let Ok(ir) = ir::deserialize(&m.words()) else {
            continue;
        };
        modules_used += 1;
        for _ in 0..30 {
            let mut bad = ir.clone();
            let Some(what) = corrupt(&mut bad, &mut rng) else {
                continue;
            };
            tried += 1;
            let e = ir::check(&bad);
            assert!(
                matches!(
                    &e,
                    Err(IrError {
                        kind: IrErrorKind::Invalid { .. },
                        ..
                    })
                ),
                "{}: {what}: {e:?}",
                m.name
            );
            assert_eq!(ir::serialize(&bad).err(), e.err(), "{}: {what}", m.name);
        }
    }
    eprintln!("{tried} corrupted handles in {modules_used} corpus modules, all rejected");
    assert!(tried >= 200, "only {tried} corruptions tried");
}
