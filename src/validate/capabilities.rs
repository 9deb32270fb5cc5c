//! TODO
use super::module::Inst;
use super::Cx;
use crate::grammar::Instruction;

#[derive(Debug, Default)]
pub(super) struct State {}

pub(super) fn instruction(_cx: &mut Cx<'_>, _inst: &Inst<'_>, _typed: &Instruction) {}
pub(super) fn finish(_cx: &mut Cx<'_>) {}
pub(super) fn module(_cx: &mut Cx<'_>) {}
