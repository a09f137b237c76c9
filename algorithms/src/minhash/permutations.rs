//! The MinHash permutation parameters datatrove draws from numpy's legacy generator:
//! `RandomState(seed).randint(1, 2^61−1, n, uint64)` then `randint(0, 2^61−1, n, uint64)`
//! (spec §8.2 step 5), restated from MT19937's definition.

/// The Mersenne prime 2^61 − 1 the permuted hashes are reduced by.
pub const MERSENNE_PRIME: u64 = (1 << 61) - 1;

/// MT19937 as numpy's `RandomState` seeds it from one integer.
struct Mt19937 {
    state: [u32; 624],
    index: usize,
}

impl Mt19937 {
    fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, index: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn twist(&mut self) {
        for i in 0..624 {
            let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
            let mut next = self.state[(i + 397) % 624] ^ (y >> 1);
            if y & 1 == 1 {
                next ^= 0x9908_b0df;
            }
            self.state[i] = next;
        }
        self.index = 0;
    }

    fn next_u64(&mut self) -> u64 {
        let high = self.next_u32() as u64;
        (high << 32) | self.next_u32() as u64
    }

    /// numpy's masked rejection sampling for `randint(low, high)` on 64 bits.
    fn bounded(&mut self, low: u64, high: u64) -> u64 {
        let range = high - 1 - low;
        let mask = u64::MAX >> range.leading_zeros();
        loop {
            let value = self.next_u64() & mask;
            if value <= range {
                return low + value;
            }
        }
    }
}

/// The `(a, b)` pairs of the `count` permutations for `seed`.
pub fn permutations(seed: u32, count: usize) -> (Vec<u64>, Vec<u64>) {
    let mut generator = Mt19937::new(seed);
    let a = (0..count)
        .map(|_| generator.bounded(1, MERSENNE_PRIME))
        .collect();
    let b = (0..count)
        .map(|_| generator.bounded(0, MERSENNE_PRIME))
        .collect();
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_parameters_for_seed_1_are_the_specs() {
        let (a, b) = permutations(1, 112);
        assert_eq!(a[0], 775_169_054_918_279_404);
        assert_eq!(b[0], 1_062_448_801_025_099_917);
        assert_eq!(a[1], 1_758_426_461_858_698_313);
        assert_eq!(b[1], 1_324_811_268_927_594_100);
        assert!(a.iter().chain(&b).all(|&v| v < MERSENNE_PRIME));
    }

    #[test]
    fn mt19937_matches_the_reference_first_output() {
        // The reference implementation's init_genrand(5489) gives 3499211612 first.
        assert_eq!(Mt19937::new(5489).next_u32(), 3_499_211_612);
    }
}
