//! Raw DEFLATE (RFC 1951) for share links: a compact compressor (LZ77 over a 32 KB window with
//! lazy matching, written as one block with dynamic Huffman codes, or fixed ones when shorter)
//! and a complete decompressor (stored, fixed and dynamic blocks, so links made by any deflate
//! implementation open).
//!
//! Our own because the page pays for every byte: miniz_oxide's tuned compressor came to ~30 KB
//! of the wasm, and a scenario of a few KB needs none of its speed; the links come out as
//! short as miniz's level 9 makes them. Tested against miniz_oxide in both directions.

/// Why data does not inflate.
#[derive(Clone, Debug, PartialEq)]
pub enum InflateError {
    /// The output would pass the limit given.
    TooLarge,
    /// The data is not a valid DEFLATE stream, or ends early.
    Corrupt,
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

// ---------------------------------------------------------------- compressing

const WINDOW: usize = 32 * 1024;
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
/// How many earlier positions with the same 3-byte hash are tried per match.
const MAX_CHAIN: usize = 256;
const HASH_BITS: u32 = 15;

struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}

impl BitWriter {
    /// `count` bits of `value`, least significant first.
    fn bits(&mut self, value: u32, count: u32) {
        self.acc |= (value as u64) << self.n;
        self.n += count;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code: sent most significant bit first.
    fn code(&mut self, code: u32, len: u32) {
        self.bits(code.reverse_bits() >> (32 - len), len);
    }
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// The index of the last base not above `v`.
fn bucket(bases: &[u16], v: usize) -> usize {
    bases.iter().rposition(|&b| b as usize <= v).unwrap_or(0)
}

fn hash3(d: &[u8], i: usize) -> usize {
    let v = (d[i] as u32) | (d[i + 1] as u32) << 8 | (d[i + 2] as u32) << 16;
    (v.wrapping_mul(0x9e37_79b1) >> (32 - HASH_BITS)) as usize
}

/// What LZ77 leaves: a literal byte, or a (length, distance) back-reference.
#[derive(Clone, Copy)]
enum Token {
    Literal(u8),
    Match(u16, u16),
}

impl Token {
    /// (literal/length symbol, its extra bits and count; distance symbol, extra bits, count).
    fn symbols(self) -> (usize, u32, u32, Option<(usize, u32, u32)>) {
        match self {
            Token::Literal(b) => (b as usize, 0, 0, None),
            Token::Match(len, dist) => {
                let (len, dist) = (len as usize, dist as usize);
                let l = bucket(&LENGTH_BASE, len);
                let d = bucket(&DIST_BASE, dist);
                (
                    257 + l,
                    (len - LENGTH_BASE[l] as usize) as u32,
                    LENGTH_EXTRA[l] as u32,
                    Some((
                        d,
                        (dist - DIST_BASE[d] as usize) as u32,
                        DIST_EXTRA[d] as u32,
                    )),
                )
            }
        }
    }
}

/// LZ77 over a 32 KB window with hash chains and one step of lazy matching.
fn tokens(data: &[u8]) -> Vec<Token> {
    // head[hash] = 1 + the latest position with that hash; prev[pos % WINDOW] = the one before.
    let mut head = vec![0u32; 1 << HASH_BITS];
    let mut prev = vec![0u32; WINDOW];
    let insert = |head: &mut Vec<u32>, prev: &mut Vec<u32>, i: usize| {
        if i + MIN_MATCH <= data.len() {
            let h = hash3(data, i);
            prev[i % WINDOW] = head[h];
            head[h] = i as u32 + 1;
        }
    };
    let longest = |head: &Vec<u32>, prev: &Vec<u32>, i: usize| -> (usize, usize) {
        let mut best = (0, 0);
        if i + MIN_MATCH > data.len() {
            return best;
        }
        let max = (data.len() - i).min(MAX_MATCH);
        let mut cand = head[hash3(data, i)] as usize;
        let mut chain = MAX_CHAIN;
        // Links older than the window may have been overwritten, so the walk stops there.
        while cand > 0 && chain > 0 {
            let j = cand - 1;
            if j >= i || i - j >= WINDOW {
                break;
            }
            let len = data[j..]
                .iter()
                .zip(&data[i..i + max])
                .take_while(|(a, b)| a == b)
                .count();
            if len > best.0 {
                best = (len, i - j);
                if len == max {
                    break;
                }
            }
            cand = prev[j % WINDOW] as usize;
            chain -= 1;
        }
        best
    };
    let mut out = Vec::with_capacity(data.len() / 3);
    let mut i = 0;
    while i < data.len() {
        let (len, dist) = longest(&head, &prev, i);
        insert(&mut head, &mut prev, i);
        // Lazy matching: when the next byte starts a longer match, this byte goes out as a
        // literal and the match is taken from there.
        if len < MIN_MATCH || (len < MAX_MATCH && longest(&head, &prev, i + 1).0 > len) {
            out.push(Token::Literal(data[i]));
            i += 1;
            continue;
        }
        out.push(Token::Match(len as u16, dist as u16));
        for k in i + 1..i + len {
            insert(&mut head, &mut prev, k);
        }
        i += len;
    }
    out
}

/// Huffman code lengths for symbol frequencies, none longer than `limit`: a plain Huffman
/// tree, rebuilt from flattened frequencies while it is too deep. Unused symbols get 0.
fn code_lengths(freqs: &[u32], limit: u8) -> Vec<u8> {
    let mut freqs = freqs.to_vec();
    loop {
        let used: Vec<usize> = (0..freqs.len()).filter(|&s| freqs[s] > 0).collect();
        let mut lengths = vec![0u8; freqs.len()];
        if used.len() == 1 {
            lengths[used[0]] = 1;
        }
        if used.len() <= 1 {
            return lengths;
        }
        // Nodes: the leaves first, then each merge; `live` holds (weight, node) still unmerged.
        let mut parent = vec![usize::MAX; used.len() * 2 - 1];
        let mut live: Vec<(u64, usize)> = used
            .iter()
            .enumerate()
            .map(|(n, &s)| (freqs[s] as u64, n))
            .collect();
        let mut next = used.len();
        while live.len() > 1 {
            let mut pick = || {
                let i = (0..live.len()).min_by_key(|&i| live[i]).unwrap_or(0);
                live.swap_remove(i)
            };
            let (a, b) = (pick(), pick());
            parent[a.1] = next;
            parent[b.1] = next;
            live.push((a.0 + b.0, next));
            next += 1;
        }
        let mut deepest = 0;
        for (n, &s) in used.iter().enumerate() {
            let (mut depth, mut at) = (0u8, n);
            while parent[at] != usize::MAX {
                at = parent[at];
                depth = depth.saturating_add(1);
            }
            lengths[s] = depth;
            deepest = deepest.max(depth);
        }
        if deepest <= limit {
            return lengths;
        }
        for f in freqs.iter_mut().filter(|f| **f > 0) {
            *f = (*f >> 1) | 1;
        }
    }
}

/// The canonical codes for code lengths (RFC 1951 §3.2.2).
fn canonical(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    for l in 1..16 {
        next[l] = (next[l - 1] + count[l - 1]) << 1;
    }
    lengths
        .iter()
        .map(|&l| {
            let c = next[l as usize];
            next[l as usize] += 1;
            c
        })
        .collect()
}

/// The fixed code lengths: literal/length symbols, then the 30 distances.
fn fixed_lengths() -> (Vec<u8>, Vec<u8>) {
    let mut lit = vec![8u8; 288];
    lit[144..256].fill(9);
    lit[256..280].fill(7);
    (lit, vec![5; 30])
}

/// Run-length codes (16: repeat the previous length, 17/18: runs of zeros) for a block header,
/// as (symbol, extra bits, extra count).
fn run_lengths(lengths: &[u8]) -> Vec<(usize, u32, u32)> {
    let mut out = vec![];
    let mut i = 0;
    while i < lengths.len() {
        let l = lengths[i];
        let run = lengths[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 3 {
            let n = run.min(138);
            out.push(if n <= 10 {
                (17, n as u32 - 3, 3)
            } else {
                (18, n as u32 - 11, 7)
            });
            i += n;
        } else if l != 0 && run >= 4 {
            out.push((l as usize, 0, 0));
            let n = (run - 1).min(6);
            out.push((16, n as u32 - 3, 2));
            i += 1 + n;
        } else {
            out.push((l as usize, 0, 0));
            i += 1;
        }
    }
    out
}

/// Compresses `data` into a raw DEFLATE stream: one block, with dynamic Huffman codes unless
/// the fixed ones come out shorter (tiny inputs).
pub fn deflate(data: &[u8]) -> Vec<u8> {
    let toks = tokens(data);
    let mut lit_freq = vec![0u32; 286];
    let mut dist_freq = vec![0u32; 30];
    lit_freq[256] = 1;
    for t in &toks {
        let (sym, _, _, dist) = t.symbols();
        lit_freq[sym] += 1;
        if let Some((d, _, _)) = dist {
            dist_freq[d] += 1;
        }
    }
    let mut lit = code_lengths(&lit_freq, 15);
    let mut dist = code_lengths(&dist_freq, 15);
    if dist.iter().all(|&l| l == 0) {
        dist[0] = 1;
    }
    let nlit = 257 + lit[257..].iter().rposition(|&l| l > 0).map_or(0, |p| p + 1);
    let ndist = 1 + dist.iter().rposition(|&l| l > 0).unwrap_or(0);
    let mut all = lit[..nlit].to_vec();
    all.extend_from_slice(&dist[..ndist]);
    let runs = run_lengths(&all);
    let mut cl_freq = vec![0u32; 19];
    for &(sym, _, _) in &runs {
        cl_freq[sym] += 1;
    }
    let cl = code_lengths(&cl_freq, 7);
    let ncl = 4.max(
        1 + CODE_LENGTH_ORDER
            .iter()
            .rposition(|&i| cl[i] > 0)
            .unwrap_or(0),
    );

    let body_bits = |lit: &[u8], dist: &[u8]| -> u64 {
        toks.iter()
            .map(|t| {
                let (sym, _, extra, d) = t.symbols();
                let d = d.map_or(0, |(d, _, de)| dist[d] as u32 + de);
                (lit[sym] as u32 + extra + d) as u64
            })
            .sum::<u64>()
            + lit[256] as u64
    };
    let header_bits = 14
        + 3 * ncl as u64
        + runs
            .iter()
            .map(|&(sym, _, extra)| (cl[sym] as u32 + extra) as u64)
            .sum::<u64>();
    let (fixed_lit, fixed_dist) = fixed_lengths();
    let dynamic = header_bits + body_bits(&lit, &dist) < body_bits(&fixed_lit, &fixed_dist);

    let mut w = BitWriter {
        out: Vec::with_capacity(data.len() / 2 + 64),
        acc: 0,
        n: 0,
    };
    w.bits(1, 1); // the final block
    if dynamic {
        w.bits(2, 2);
        w.bits((nlit - 257) as u32, 5);
        w.bits((ndist - 1) as u32, 5);
        w.bits((ncl - 4) as u32, 4);
        for &i in &CODE_LENGTH_ORDER[..ncl] {
            w.bits(cl[i] as u32, 3);
        }
        let cl_codes = canonical(&cl);
        for &(sym, extra, count) in &runs {
            w.code(cl_codes[sym], cl[sym] as u32);
            w.bits(extra, count);
        }
    } else {
        w.bits(1, 2);
        (lit, dist) = (fixed_lit, fixed_dist);
    }
    let (lit_codes, dist_codes) = (canonical(&lit), canonical(&dist));
    for t in &toks {
        let (sym, extra, count, d) = t.symbols();
        w.code(lit_codes[sym], lit[sym] as u32);
        w.bits(extra, count);
        if let Some((d, extra, count)) = d {
            w.code(dist_codes[d], dist[d] as u32);
            w.bits(extra, count);
        }
    }
    w.code(lit_codes[256], lit[256] as u32);
    w.finish()
}

// ---------------------------------------------------------------- decompressing

struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
    acc: u32,
    n: u32,
}

impl BitReader<'_> {
    fn bits(&mut self, count: u32) -> Result<u32, InflateError> {
        while self.n < count {
            let b = *self.data.get(self.pos).ok_or(InflateError::Corrupt)?;
            self.pos += 1;
            self.acc |= (b as u32) << self.n;
            self.n += 8;
        }
        let v = self.acc & ((1u32 << count) - 1);
        self.acc = self.acc.checked_shr(count).unwrap_or(0);
        self.n -= count;
        Ok(v)
    }
}

/// A canonical Huffman code: how many codes of each length, and the symbols in code order.
struct Huffman {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Huffman {
    fn new(lengths: &[u8]) -> Result<Huffman, InflateError> {
        let mut counts = [0u16; 16];
        for &l in lengths {
            counts[l as usize] += 1;
        }
        counts[0] = 0;
        // An over-subscribed code cannot be decoded.
        let mut left: i32 = 1;
        for &c in &counts[1..] {
            left = left * 2 - c as i32;
            if left < 0 {
                return Err(InflateError::Corrupt);
            }
        }
        let mut offsets = [0u16; 16];
        for l in 1..15 {
            offsets[l + 1] = offsets[l] + counts[l];
        }
        let mut symbols = vec![0u16; lengths.len()];
        for (sym, &l) in lengths.iter().enumerate() {
            if l > 0 {
                symbols[offsets[l as usize] as usize] = sym as u16;
                offsets[l as usize] += 1;
            }
        }
        Ok(Huffman { counts, symbols })
    }

    fn decode(&self, r: &mut BitReader) -> Result<u16, InflateError> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= r.bits(1)? as i32;
            let count = self.counts[len] as i32;
            if code - first < count {
                return Ok(self.symbols[(index + code - first) as usize]);
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err(InflateError::Corrupt)
    }
}

const CODE_LENGTH_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Decompresses a raw DEFLATE stream, refusing to produce more than `limit` bytes.
pub fn inflate(data: &[u8], limit: usize) -> Result<Vec<u8>, InflateError> {
    let mut r = BitReader {
        data,
        pos: 0,
        acc: 0,
        n: 0,
    };
    let mut out: Vec<u8> = Vec::new();
    loop {
        let last = r.bits(1)? == 1;
        match r.bits(2)? {
            0 => {
                // Stored: from the next byte boundary, LEN and its complement, then the bytes.
                r.acc = 0;
                r.n = 0;
                let header = data.get(r.pos..r.pos + 4).ok_or(InflateError::Corrupt)?;
                let len = u16::from_le_bytes([header[0], header[1]]);
                let nlen = u16::from_le_bytes([header[2], header[3]]);
                if len != !nlen {
                    return Err(InflateError::Corrupt);
                }
                r.pos += 4;
                let bytes = data
                    .get(r.pos..r.pos + len as usize)
                    .ok_or(InflateError::Corrupt)?;
                if out.len() + bytes.len() > limit {
                    return Err(InflateError::TooLarge);
                }
                out.extend_from_slice(bytes);
                r.pos += len as usize;
            }
            1 => {
                let mut lengths = [0u8; 288];
                lengths[..144].fill(8);
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                lengths[280..].fill(8);
                let lit = Huffman::new(&lengths)?;
                let dist = Huffman::new(&[5; 30])?;
                codes(&mut r, &mut out, &lit, &dist, limit)?;
            }
            2 => {
                let nlit = r.bits(5)? as usize + 257;
                let ndist = r.bits(5)? as usize + 1;
                let ncode = r.bits(4)? as usize + 4;
                if nlit > 286 || ndist > 30 {
                    return Err(InflateError::Corrupt);
                }
                let mut cl = [0u8; 19];
                for &i in &CODE_LENGTH_ORDER[..ncode] {
                    cl[i] = r.bits(3)? as u8;
                }
                let cl = Huffman::new(&cl)?;
                let mut lengths = vec![0u8; nlit + ndist];
                let mut i = 0;
                while i < lengths.len() {
                    let sym = cl.decode(&mut r)?;
                    let (value, repeat) = match sym {
                        0..=15 => (sym as u8, 1),
                        16 => {
                            let prev = *lengths[..i].last().ok_or(InflateError::Corrupt)?;
                            (prev, 3 + r.bits(2)? as usize)
                        }
                        17 => (0, 3 + r.bits(3)? as usize),
                        _ => (0, 11 + r.bits(7)? as usize),
                    };
                    let run = lengths
                        .get_mut(i..i + repeat)
                        .ok_or(InflateError::Corrupt)?;
                    run.fill(value);
                    i += repeat;
                }
                if lengths[256] == 0 {
                    return Err(InflateError::Corrupt);
                }
                let lit = Huffman::new(&lengths[..nlit])?;
                let dist = Huffman::new(&lengths[nlit..])?;
                codes(&mut r, &mut out, &lit, &dist, limit)?;
            }
            _ => return Err(InflateError::Corrupt),
        }
        if last {
            return Ok(out);
        }
    }
}

/// One block's literals and matches, up to its end-of-block symbol.
fn codes(
    r: &mut BitReader,
    out: &mut Vec<u8>,
    lit: &Huffman,
    dist: &Huffman,
    limit: usize,
) -> Result<(), InflateError> {
    loop {
        let sym = lit.decode(r)? as usize;
        if sym < 256 {
            if out.len() >= limit {
                return Err(InflateError::TooLarge);
            }
            out.push(sym as u8);
            continue;
        }
        if sym == 256 {
            return Ok(());
        }
        let l = sym - 257;
        if l >= LENGTH_BASE.len() {
            return Err(InflateError::Corrupt);
        }
        let len = LENGTH_BASE[l] as usize + r.bits(LENGTH_EXTRA[l] as u32)? as usize;
        let d = dist.decode(r)? as usize;
        if d >= DIST_BASE.len() {
            return Err(InflateError::Corrupt);
        }
        let back = DIST_BASE[d] as usize + r.bits(DIST_EXTRA[d] as u32)? as usize;
        if back > out.len() {
            return Err(InflateError::Corrupt);
        }
        if out.len() + len > limit {
            return Err(InflateError::TooLarge);
        }
        let start = out.len() - back;
        for k in 0..len {
            out.push(out[start + k]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn samples() -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = crate::scenario::gallery::GALLERY
            .iter()
            .map(|(_, t)| t.as_bytes().to_vec())
            .collect();
        v.push(vec![]);
        v.push(b"a".to_vec());
        v.push(vec![b'x'; 100_000]);
        v.push((0..70_000u32).map(|i| (i * 7919 % 251) as u8).collect());
        let mut x = 1u32;
        v.push(
            (0..50_000)
                .map(|_| {
                    x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (x >> 16) as u8
                })
                .collect(),
        );
        v
    }

    #[test]
    fn what_we_compress_miniz_decompresses_and_so_do_we() {
        for s in samples() {
            let packed = deflate(&s);
            assert_eq!(miniz_oxide::inflate::decompress_to_vec(&packed).unwrap(), s);
            assert_eq!(inflate(&packed, usize::MAX).unwrap(), s);
        }
    }

    #[test]
    fn what_miniz_compresses_at_any_level_we_decompress() {
        for s in samples() {
            for level in [0, 1, 6, 9, 10] {
                let packed = miniz_oxide::deflate::compress_to_vec(&s, level);
                assert_eq!(inflate(&packed, usize::MAX).unwrap(), s, "level {level}");
            }
        }
    }

    #[test]
    fn compresses_scenarios_as_well_as_miniz() {
        for (name, text) in crate::scenario::gallery::GALLERY {
            let ours = deflate(text.as_bytes()).len();
            let theirs = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9).len();
            assert!(
                ours * 100 <= theirs * 103,
                "{name}: ours {ours}, miniz {theirs}"
            );
        }
        // A few bytes go out with the fixed codes, whose block has no header.
        assert_eq!(deflate(b"hi").len(), 4);
    }

    #[test]
    fn limits_and_damage_are_errors() {
        let packed = deflate(&vec![b'a'; 10_000]);
        assert_eq!(inflate(&packed, 9_999), Err(InflateError::TooLarge));
        assert_eq!(inflate(&packed, 10_000).unwrap().len(), 10_000);
        assert_eq!(
            inflate(&packed[..packed.len() / 2], usize::MAX),
            Err(InflateError::Corrupt)
        );
        assert_eq!(
            inflate(&[0xff, 0xff], usize::MAX),
            Err(InflateError::Corrupt)
        );
        assert_eq!(inflate(&[], usize::MAX), Err(InflateError::Corrupt));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn any_bytes_round_trip(data in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 0..3000)) {
            prop_assert_eq!(inflate(&deflate(&data), usize::MAX).unwrap(), data);
        }

        #[test]
        fn any_input_inflates_or_fails_without_panicking(data in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = inflate(&data, 1 << 16);
        }
    }
}
