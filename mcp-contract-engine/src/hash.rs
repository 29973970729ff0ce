//! One stable hash for everything that must not change between runs, platforms or releases:
//! snapshot file names, secret placeholders, cache keys.

/// FNV-1a, 64 bits: the same on every platform and release (unlike `DefaultHasher`).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a64::new();
    hash.write(bytes);
    hash.finish()
}

/// FNV-1a, 64 bits, fed in pieces: [`fnv1a64`] of the pieces joined, without joining them
/// (the character reader hashes each n-gram as it reads it).
#[derive(Clone, Copy)]
pub struct Fnv1a64(u64);

impl Fnv1a64 {
    /// The hash of nothing.
    pub fn new() -> Fnv1a64 {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv1a64 {
    fn default() -> Fnv1a64 {
        Fnv1a64::new()
    }
}

/// FNV-1a, 128 bits, fed in pieces: for keys built from many fields, where 64 bits would leave
/// accidental collisions thinkable among the files of a busy machine.
#[derive(Clone)]
pub struct Fnv1a128(u128);

impl Fnv1a128 {
    const OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    /// The hash of nothing.
    pub fn new() -> Fnv1a128 {
        Fnv1a128(Self::OFFSET)
    }

    /// Feeds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u128::from(*byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The hash of everything fed so far.
    pub fn finish(&self) -> u128 {
        self.0
    }
}

impl Default for Fnv1a128 {
    fn default() -> Fnv1a128 {
        Fnv1a128::new()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_the_published_test_vectors() {
        assert_eq!(super::fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn the_128_bit_hash_matches_its_published_test_vectors_in_any_pieces() {
        let hash = |pieces: &[&[u8]]| {
            let mut hash = super::Fnv1a128::new();
            for piece in pieces {
                hash.write(piece);
            }
            hash.finish()
        };
        assert_eq!(hash(&[]), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_eq!(hash(&[b"a"]), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
        assert_eq!(
            hash(&[b"foobar"]),
            0x343e_1662_793c_64bf_6f0d_3597_ba44_6f18
        );
        assert_eq!(hash(&[b"foo", b"", b"bar"]), hash(&[b"foobar"]));
    }
}
