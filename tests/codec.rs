//! The binary codec over the whole corpus, against rspirv as an independent decoder/encoder:
//! decode → encode is byte-identical, and for every instruction spvkit's typed decode sees the
//! same opcode, result type, result id and ids as rspirv, and both re-encode to the same words.

#[path = "support/corpus.rs"]
mod corpus;

use rspirv::binary::{Assemble, Consumer, ParseAction};
use spvkit::binary::{decode_module, encode_module, words_from_bytes, Decoder};
use spvkit::grammar::{Id, Ids, Instruction};

/// Collects rspirv's instructions in binary order.
#[derive(Default)]
struct Collect {
    insts: Vec<rspirv::dr::Instruction>,
}

impl Consumer for Collect {
    fn initialize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn finalize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_header(&mut self, _: rspirv::dr::ModuleHeader) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_instruction(&mut self, inst: rspirv::dr::Instruction) -> ParseAction {
        self.insts.push(inst);
        ParseAction::Continue
    }
}

/// rspirv's ids of an instruction in operand order, result type and id first.
fn rspirv_ids(i: &rspirv::dr::Instruction) -> Vec<u32> {
    use rspirv::dr::Operand;
    let mut ids: Vec<u32> = i.result_type.into_iter().chain(i.result_id).collect();
    for o in &i.operands {
        match o {
            Operand::IdRef(x) | Operand::IdScope(x) | Operand::IdMemorySemantics(x) => ids.push(*x),
            _ => {}
        }
    }
    ids
}

#[test]
fn corpus_round_trips_and_agrees_with_rspirv() {
    let modules = corpus::build_all();
    assert!(
        modules.len() >= 200,
        "corpus has only {} modules",
        modules.len()
    );
    let mut compared = 0usize;
    let mut failures = Vec::new();
    for m in &modules {
        let bytes = std::fs::read(&m.path).unwrap();
        let words = words_from_bytes(&bytes).unwrap();
        let (header, insts) = match decode_module(&words) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{}: decode: {e}", m.name));
                continue;
            }
        };
        let again = encode_module(&header, &insts).unwrap();
        if again[..] != words[..] {
            failures.push(format!("{}: re-encoding differs", m.name));
            continue;
        }
        let mut theirs = Collect::default();
        if let Err(e) = rspirv::binary::parse_words(&words[..], &mut theirs) {
            // rspirv has bugs of its own: accept its failure only on a module spirv-val
            // accepts, and say so loudly.
            if m.valid && corpus::spirv_val(m).is_ok() {
                eprintln!("NOTE: rspirv cannot parse the valid module {} ({e:?}); compared by round trip only", m.name);
                continue;
            }
            failures.push(format!("{}: rspirv failed: {e:?}", m.name));
            continue;
        }
        let mut decoder = Decoder::new(&words).unwrap();
        let mut ext_ids: Vec<Option<Vec<u32>>> = Vec::new();
        while let Some(raw) = decoder.next_raw() {
            let raw = raw.unwrap();
            ext_ids.push(match decoder.decode_ext(raw) {
                Some(Ok(e)) if raw.opcode == 12 => {
                    let mut again = Vec::new();
                    spvkit::binary::encode_ext_operands(&e, &mut again);
                    assert_eq!(
                        &again[..],
                        &raw.operands[4..],
                        "{}: typed ext instruction re-encodes",
                        m.name
                    );
                    let mut ids = raw.operands[..3].to_vec();
                    e.visit_ids(&mut |Id(x)| ids.push(x));
                    Some(ids)
                }
                _ => None,
            });
        }
        if theirs.insts.len() != insts.len() {
            failures.push(format!(
                "{}: {} instructions vs rspirv's {}",
                m.name,
                insts.len(),
                theirs.insts.len()
            ));
            continue;
        }
        let sets: std::collections::HashMap<u32, String> = insts
            .iter()
            .filter_map(|i| match i {
                Instruction::ExtInstImport(x) => Some((x.result_id.0, x.name.clone())),
                _ => None,
            })
            .collect();
        for (k, (ours, theirs)) in insts.iter().zip(&theirs.insts).enumerate() {
            let at = format!("{} instruction {k} ({:?})", m.name, theirs.class.opcode);
            if ours.opcode_value() != theirs.class.opcode as u16 {
                failures.push(format!("{at}: opcode {}", ours.opcode_value()));
                break;
            }
            let mut w = Vec::new();
            theirs.assemble_into(&mut w);
            let mut o = Vec::new();
            spvkit::binary::encode_instruction(ours, &mut o).unwrap();
            if w != o {
                failures.push(format!("{at}: words {o:?} vs rspirv {w:?}"));
                break;
            }
            if let Instruction::ExtInst(e) = ours {
                // rspirv types the operands of the sets it knows: compare with ours typed by set.
                let set = sets.get(&e.set.0).map(String::as_str);
                if matches!(set, Some("GLSL.std.450" | "OpenCL.std")) {
                    // rspirv reads every extended operand as an id; ours, typed by the set's
                    // grammar, must be those ids less the literals.
                    let mine = ext_ids[k].clone().unwrap_or_default();
                    let all = rspirv_ids(theirs);
                    let mut it = all.iter();
                    if !mine.iter().all(|x| it.any(|y| y == x)) || mine.len() < 3 {
                        failures.push(format!(
                            "{at}: ext ids {mine:?} vs rspirv {:?}",
                            rspirv_ids(theirs)
                        ));
                        break;
                    }
                }
            } else if !matches!(ours, Instruction::Unknown(_)) {
                let mut ids = Vec::new();
                ours.visit_ids(&mut |Id(x)| ids.push(x));
                if ids != rspirv_ids(theirs) {
                    failures.push(format!(
                        "{at}: ids {ids:?} vs rspirv {:?}",
                        rspirv_ids(theirs)
                    ));
                    break;
                }
                assert_eq!(ours.result_id().map(|i| i.0), theirs.result_id, "{at}");
                assert_eq!(ours.result_type().map(|i| i.0), theirs.result_type, "{at}");
            }
            compared += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared > 10_000, "only {compared} instructions compared");
}

#[test]
fn streaming_decoder_matches_whole_module_decode() {
    let modules = corpus::build_all();
    for m in modules.iter().take(40) {
        let bytes = std::fs::read(&m.path).unwrap();
        let words = words_from_bytes(&bytes).unwrap();
        let (_, all) = decode_module(&words).unwrap();
        let mut d = Decoder::new(&words).unwrap();
        let mut n = 0;
        while let Some(raw) = d.next_raw() {
            let raw = raw.unwrap();
            assert_eq!(d.decode(raw).unwrap(), all[n], "{}", m.name);
            n += 1;
        }
        assert_eq!(n, all.len());
    }
}
