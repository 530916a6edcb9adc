//! A seeded random source (SplitMix64) for the fuzzers: the instance
//! fuzzer's here and the generator fuzzer's in concord's lab. Written here
//! rather than taken from `rand`: a seed must give the same cases forever,
//! whatever version of a crate is in the lock file, so that a reported seed
//! reproduces its finding.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..span` (`0 < span <= 2^64`), by multiply-shift: from
    /// the high bits, with no division. (The generator fuzzer's seeds, in
    /// docs/fuzzing.md and pinned in `lab/tests/generator_fuzz.rs`, name
    /// their cases through this.)
    fn scaled(&mut self, span: u128) -> u64 {
        ((u128::from(self.next_u64()) * span) >> 64) as u64
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.scaled(n as u128) as usize
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.scaled(u128::from(high - low) + 1)
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A seed for a sub-generator, so that case `i` depends only on the run's seed and `i`.
    pub fn fork(seed: u64, index: u64) -> Rng {
        let mut rng = Rng(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95));
        rng.next_u64();
        rng
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn a_seed_gives_the_same_numbers_forever() {
        // SplitMix64's published first outputs for seed 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert!((0..1000).all(|_| rng.below(7) < 7 && (3..=5).contains(&rng.between(3, 5))));
        assert_eq!(Rng::new(0).between(0, u64::MAX), 0xe220_a839_7b1d_cdaf);
    }
}
