//! Work-group collectives (`OpGroupAll`, `OpGroupAny`, `OpGroupBroadcast`, `OpGroupIAdd`,
//! `OpGroupFAdd`, `OpGroup{F,S,U}{Min,Max}` with Workgroup scope), as the lowered code asks for
//! them through `spvkit_rt_group` (`docs/lowering-abi.md`): every invocation puts its value in
//! its slot of the workgroup's scratch, meets the others at a barrier, computes the result from
//! all the slots, and meets them again before the scratch can be reused.
//!
//! The operation is one word: `operation | group_operation << 4 | kind << 8 | width << 16`.
//! Additions are done in invocation order, in the type's precision (each `half` sum rounded),
//! as a sequential loop over the group would.

use super::layout::{f16_bits_to_f64, f64_to_f16_bits};

use crate::lower::abi::group::*;

/// The result for invocation `me` of a collective over `slots` (each invocation's value, in
/// local-index order), for a workgroup of `size` whose broadcast source is `id`.
pub fn result(op: u32, slots: &[u64], me: usize, id: [u64; 3], size: [u64; 3]) -> u64 {
    let (operation, group_operation) = (op & 0xf, (op >> 4) & 0xf);
    let scalar = Scalar {
        kind: (op >> 8) & 0xf,
        width: (op >> 16) & 0xff,
    };
    match operation {
        BROADCAST => {
            let index = id[0]
                .wrapping_add(id[1].wrapping_mul(size[0]))
                .wrapping_add(id[2].wrapping_mul(size[0].wrapping_mul(size[1])));
            // A local id outside the group is undefined behaviour: the value 0.
            usize::try_from(index)
                .ok()
                .and_then(|i| slots.get(i))
                .copied()
                .unwrap_or(0)
        }
        ALL => u64::from(slots.iter().all(|v| v & 1 != 0)),
        ANY => u64::from(slots.iter().any(|v| v & 1 != 0)),
        _ => {
            let range = match group_operation {
                INCLUSIVE_SCAN => &slots[..(me + 1).min(slots.len())],
                EXCLUSIVE_SCAN => &slots[..me.min(slots.len())],
                _ => slots,
            };
            range.iter().fold(scalar.identity(operation), |acc, &v| {
                scalar.combine(operation, acc, v)
            })
        }
    }
}

/// The type of the values of an arithmetic collective.
struct Scalar {
    kind: u32,
    width: u32,
}

impl Scalar {
    fn mask(&self) -> u64 {
        match self.width {
            0 | 64.. => u64::MAX,
            w => (1 << w) - 1,
        }
    }

    fn signed(&self, v: u64) -> i64 {
        let shift = 64 - self.width.clamp(1, 64);
        ((v << shift) as i64) >> shift
    }

    fn float(&self, v: u64) -> f64 {
        match self.width {
            16 => f16_bits_to_f64(v as u16),
            32 => f64::from(f32::from_bits(v as u32)),
            _ => f64::from_bits(v),
        }
    }

    fn float_bits(&self, x: f64) -> u64 {
        match self.width {
            16 => u64::from(f64_to_f16_bits(x)),
            32 => u64::from((x as f32).to_bits()),
            _ => x.to_bits(),
        }
    }

    /// The value that changes nothing: 0, the type's greatest or least value, or ±∞.
    fn identity(&self, operation: u32) -> u64 {
        let mask = self.mask();
        match (self.kind, operation) {
            (FLOAT, MIN) => self.float_bits(f64::INFINITY),
            (FLOAT, MAX) => self.float_bits(f64::NEG_INFINITY),
            (SIGNED, MIN) => mask >> 1,
            (SIGNED, MAX) => (mask >> 1) + 1,
            (UNSIGNED, MIN) => mask,
            _ => 0,
        }
    }

    fn combine(&self, operation: u32, a: u64, b: u64) -> u64 {
        let mask = self.mask();
        match (self.kind, operation) {
            (FLOAT, ADD) => {
                let sum = match self.width {
                    32 => f64::from(self.float(a) as f32 + self.float(b) as f32),
                    _ => self.float(a) + self.float(b),
                };
                self.float_bits(sum)
            }
            (FLOAT, MIN) => self.float_bits(self.float(a).min(self.float(b))),
            (FLOAT, MAX) => self.float_bits(self.float(a).max(self.float(b))),
            (_, ADD) => a.wrapping_add(b) & mask,
            (SIGNED, MIN) => [a, b][usize::from(self.signed(b) < self.signed(a))] & mask,
            (SIGNED, MAX) => [a, b][usize::from(self.signed(b) > self.signed(a))] & mask,
            (_, MIN) => (a & mask).min(b & mask),
            (_, MAX) => (a & mask).max(b & mask),
            _ => a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE_D: [u64; 3] = [4, 1, 1];

    #[test]
    fn integer_reductions_and_scans_wrap_at_their_width() {
        let slots = [1u64, 0xffff_fffe, 3, 7];
        let add = encode(ADD, REDUCE, UNSIGNED, 32);
        assert_eq!(result(add, &slots, 0, [0; 3], ONE_D), 9);
        let smin = encode(MIN, REDUCE, SIGNED, 32);
        assert_eq!(result(smin, &slots, 0, [0; 3], ONE_D), 0xffff_fffe);
        let umin = encode(MIN, REDUCE, UNSIGNED, 32);
        assert_eq!(result(umin, &slots, 0, [0; 3], ONE_D), 1);
        let smax = encode(MAX, REDUCE, SIGNED, 32);
        assert_eq!(result(smax, &slots, 0, [0; 3], ONE_D), 7);
        let inclusive = encode(ADD, INCLUSIVE_SCAN, UNSIGNED, 32);
        let got: Vec<u64> = (0..4)
            .map(|me| result(inclusive, &slots, me, [0; 3], ONE_D))
            .collect();
        assert_eq!(got, [1, 0xffff_ffff, 2, 9]);
        let exclusive = encode(MAX, EXCLUSIVE_SCAN, SIGNED, 32);
        let got: Vec<u64> = (0..4)
            .map(|me| result(exclusive, &slots, me, [0; 3], ONE_D))
            .collect();
        assert_eq!(got, [0x8000_0000, 1, 1, 3]);
    }

    #[test]
    fn float_sums_round_in_their_own_precision() {
        let f = |x: f32| u64::from(x.to_bits());
        // 2^24 + 1 + 1 in f32 order: each addition of 1 rounds back to 2^24.
        let slots = [f(16_777_216.0), f(1.0), f(1.0)];
        let add = encode(ADD, REDUCE, FLOAT, 32);
        assert_eq!(result(add, &slots, 0, [0; 3], [3, 1, 1]), f(16_777_216.0));
        let min = encode(MIN, EXCLUSIVE_SCAN, FLOAT, 32);
        assert_eq!(result(min, &slots, 0, [0; 3], [3, 1, 1]), f(f32::INFINITY));
        let h = |x: f64| u64::from(f64_to_f16_bits(x));
        let add16 = encode(ADD, REDUCE, FLOAT, 16);
        assert_eq!(
            result(add16, &[h(2048.0), h(1.0)], 0, [0; 3], [2, 1, 1]),
            h(2048.0)
        );
    }

    #[test]
    fn broadcast_all_and_any() {
        let slots = [10u64, 11, 12, 13, 14, 15];
        let size = [3, 2, 1];
        assert_eq!(
            result(encode(BROADCAST, 0, 0, 32), &slots, 0, [1, 1, 0], size),
            14
        );
        assert_eq!(
            result(encode(BROADCAST, 0, 0, 32), &slots, 0, [9, 9, 9], size),
            0
        );
        assert_eq!(result(encode(ALL, 0, 0, 1), &[1, 1, 0], 0, [0; 3], size), 0);
        assert_eq!(result(encode(ANY, 0, 0, 1), &[0, 1, 0], 0, [0; 3], size), 1);
    }
}
