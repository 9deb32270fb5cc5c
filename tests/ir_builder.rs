//! The IR builder: modules built from Rust serialize to binaries that spirv-val accepts, and
//! read back into the same IR.

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::grammar::*;
use spvkit::ir::{self, Builder, GlobalVariable, Member, Module, StructType};
use std::path::PathBuf;

/// Serializes, validates with spirv-val in `env`, and checks the read-back IR.
fn validate(name: &str, env: &str, module: &Module) {
    let words = ir::serialize(module).expect("the module passes ir::check");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ir-builder");
    std::fs::create_dir_all(&dir).expect("create the output directory");
    let path = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write the module");
    let m = corpus::Module {
        name: name.into(),
        source: corpus::Source::SpvAsm,
        path: path.clone(),
        target_env: env.into(),
        valid: true,
    };
    if let Err(e) = corpus::spirv_val(&m) {
        panic!(
            "{name} ({}) fails spirv-val --target-env {env}:\n{e}\n{}",
            path.display(),
            ir::print(module)
        );
    }
    let again = ir::deserialize(&words).expect("the output deserializes");
    assert_eq!(
        ir::serialize(&again).expect("serializes"),
        words,
        "{name}: the output reads back to the same binary"
    );
}

/// The shader of the `ir::builder` documentation example.
fn doubling_shader() -> Module {
    let mut b = Builder::new(
        Version(1, 0),
        AddressingModel::Logical,
        MemoryModel::GLSL450,
    );
    b.capability(Capability::Shader);
    let float = b.type_float(32);
    let uint = b.type_int(32, false);
    let values = b.type_runtime_array(float, Some(4));
    let data_ty = b.type_struct(StructType {
        name: Some("Data".into()),
        members: vec![Member {
            offset: Some(0),
            ..Member::new(values)
        }],
        decorations: vec![Decoration::BufferBlock],
    });
    let data_ptr = b.type_pointer(StorageClass::Uniform, data_ty);
    let data = b.global(GlobalVariable {
        name: Some("data".into()),
        decorations: vec![Decoration::DescriptorSet(0), Decoration::Binding(0)],
        ..GlobalVariable::new(data_ptr, StorageClass::Uniform)
    });
    let uvec3 = b.type_vector(uint, 3);
    let input_ptr = b.type_pointer(StorageClass::Input, uvec3);
    let gid = b.global(GlobalVariable {
        decorations: vec![Decoration::BuiltIn(BuiltIn::GlobalInvocationId)],
        ..GlobalVariable::new(input_ptr, StorageClass::Input)
    });
    let void = b.type_void();
    let main_ty = b.type_function(void, &[]);
    let mut f = b.function(main_ty, FunctionControl::None);
    let id = f.load(uvec3, gid, None);
    let x = f.composite_extract(uint, id, vec![0]);
    let zero = f.constant_i32(0);
    let float_ptr = f.type_pointer(StorageClass::Uniform, float);
    let p = f.access_chain(float_ptr, data, &[zero.into(), x]);
    let v = f.load(float, p, None);
    let two = f.constant_f32(2.0);
    let doubled = f.f_mul(float, v, two);
    f.store(p, doubled, None);
    f.ret();
    let main = f.finish();
    b.name_function(main, "main");
    b.entry_point(ExecutionModel::GLCompute, main, "main", &[gid]);
    b.execution_mode(main, ExecutionMode::LocalSize(64, 1, 1));
    b.finish().expect("the module passes ir::check")
}

#[test]
fn the_documented_compute_shader_passes_spirv_val() {
    let m = doubling_shader();
    validate("doubling", "vulkan1.0", &m);
    assert_eq!(ir::deserialize(&ir::serialize(&m).unwrap()).unwrap(), m);
}

/// A loop whose header takes the induction variable and the running sum as block arguments,
/// and a selection whose merge block takes the selected value.
#[test]
fn structured_control_flow_with_block_arguments_passes_spirv_val() {
    let mut b = Builder::new(
        Version(1, 3),
        AddressingModel::Logical,
        MemoryModel::GLSL450,
    );
    b.capability(Capability::Shader);
    let float = b.type_float(32);
    let int = b.type_int(32, true);
    let boolean = b.type_bool();
    let out_ptr = b.type_pointer(StorageClass::Output, float);
    let out = b.global(GlobalVariable {
        decorations: vec![Decoration::Location(0)],
        ..GlobalVariable::new(out_ptr, StorageClass::Output)
    });
    let void = b.type_void();
    let main_ty = b.type_function(void, &[]);
    let mut f = b.function(main_ty, FunctionControl::None);
    let zero_i = f.constant_i32(0);
    let one_i = f.constant_i32(1);
    let four = f.constant_i32(4);
    let zero_f = f.constant_f32(0.0);
    let half = f.constant_f32(0.5);

    let header = f.block();
    let i = f.block_arg(header, int);
    let acc = f.block_arg(header, float);
    let body = f.block();
    let then = f.block();
    let join = f.block();
    let picked = f.block_arg(join, float);
    let cont = f.block();
    let exit = f.block();
    let result = f.block_arg(exit, float);

    f.branch(header, &[zero_i.into(), zero_f.into()]);

    f.switch_to(header);
    f.loop_merge(exit, cont, LoopControl::None);
    let more = f.s_less_than(boolean, i, four);
    f.branch_conditional(more, (body, &[]), (exit, &[acc]));

    f.switch_to(body);
    let fi = f.convert_s_to_f(float, i);
    let big = f.f_ord_greater_than(boolean, fi, half);
    f.selection_merge(join, SelectionControl::None);
    f.branch_conditional(big, (then, &[]), (join, &[half.into()]));

    f.switch_to(then);
    let scaled = f.f_mul(float, fi, half);
    f.branch(join, &[scaled]);

    f.switch_to(join);
    f.branch(cont, &[]);

    f.switch_to(cont);
    let next_i = f.i_add(int, i, one_i);
    let next_acc = f.f_add(float, acc, picked);
    f.branch(header, &[next_i, next_acc]);

    f.switch_to(exit);
    f.store(out, result, None);
    f.ret();
    let main = f.finish();
    b.entry_point(ExecutionModel::Fragment, main, "main", &[out]);
    b.execution_mode(main, ExecutionMode::OriginUpperLeft);
    let m = b.finish().expect("the module passes ir::check");
    validate("loop_block_args", "vulkan1.1", &m);
    assert_eq!(ir::deserialize(&ir::serialize(&m).unwrap()).unwrap(), m);
}
