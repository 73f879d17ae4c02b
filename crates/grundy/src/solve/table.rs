//! What the dedicated engines of games by rules share: a transposition table of exact values in
//! buckets of one cache line, the table's share of the memory budget, and the search thread.
//!
//! # The table
//!
//! A key is a set of up to 128 bits (a region's cells, a component's vertices) and a tag (the
//! width of a region's box, or a component's shape), never 0. An entry holds the key, the
//! value, and the values below some bound the key is known *not* to have (its *exclusions*:
//! a search that answered "not in `R`" leaves `R` there, so that the question is not searched
//! again); the value byte is `0xff` when only exclusions are known. A bucket holds four entries
//! of two words or two entries of four words, in one of three [`Layout`]s:
//!
//! * small (keys of at most 64 bits, tags below 256): the key, then tag (bits 0–7), value
//!   (8–15) and the exclusions of the values 0–47 (16–63);
//! * narrow (keys of at most 104 bits, tags below 256): the key's low 64 bits, then its bits
//!   64–103 (bits 0–39 of the second word), tag (40–47), value (48–55) and the exclusions of
//!   the values 0–7 (56–63);
//! * wide: the low bits, the high bits, then the tag (bits 0–31), value (32–39) and size
//!   (40–47); the fourth word holds the exclusions of the values 0–63.
//!
//! Exclusions of values past a layout's bound are not kept: what is kept is still true. The
//! size of an entry (the number of set bits of its key: the size of the position, the cost of
//! computing it again) is counted from the key in the two-word layouts.
//!
//! A slot is used iff its tag is not 0. An entry lives in the bucket its hash (the finaliser of
//! splitmix64 over the key) names, modulo the number of buckets, a power of two.
//!
//! **Size.** The most buckets a table may have is reserved from the budget when its engine
//! starts; the table starts with [`FIRST_BUCKETS`] (so that a small search stays in the cache)
//! and doubles while it holds more entries than half its slots. Doubling `n` buckets to `2n`
//! moves the entries of bucket `i` whose hash has bit `n` set to bucket `i + n`: the hash
//! modulo `2n` is `i` or `i + n`, and bucket `i + n` is new, so only those entries fill it.
//!
//! **Pages.** The table's whole address range is reserved at once, and on Linux, once the table
//! has grown to 4 MiB, the kernel is asked to back the range with huge pages
//! (`madvise(MADV_HUGEPAGE)`, which takes effect where
//! transparent huge pages are enabled for advised ranges, the common default): a probe lands
//! on a random bucket, so with 4 KiB pages nearly every probe of a large table misses the TLB
//! as well as the cache; with 2 MiB pages a 1 GiB table needs 512 TLB entries. The advice is a
//! hint: where it is refused, nothing changes but the speed.
//!
//! **Replacement.** Once at its largest a new entry takes an empty slot of its bucket or the
//! slot of its own key, else the slot of the entry of the smallest size (the cheapest to
//! compute again). The table never gives a wrong value: an entry is found only under its full
//! key, and a replaced entry is simply missing.
//!
//! **Sharing.** A table made ready by [`Table::into_shared`] is searched by several threads at
//! once (the searches of one board on every core, each writing what it learns for the others
//! to read). It does not grow while they search: when it is half full they stop, it grows on
//! one thread, and it is shared again. Its entries are of two words (the small and narrow
//! layouts). Every entry is read and written as one 16-byte atomic access
//! (`vmovdqa` where the processor has AVX, which makes aligned 16-byte accesses atomic,
//! `cmpxchg16b` otherwise, through the `portable-atomic` crate), so a reader sees an entry as
//! one writer wrote it, never the key of one and the value of another. Writers do not lock: two
//! threads writing one bucket at once may each replace a slot the other chose, or write over an
//! entry of the same key the other had just joined exclusions to. Either way an entry is lost,
//! and every entry left is one a thread wrote whole, each a true statement of its own key (a
//! value computed exactly, or exclusions that a search proved); so the table still never gives
//! a wrong answer, only sometimes none.

use crate::error::{Error, Result};
use portable_atomic::AtomicU128;
use std::io::{Read, Write};
use std::sync::atomic::Ordering::{Relaxed, Release};
use std::sync::atomic::{AtomicU64, AtomicUsize};

/// Bytes of one bucket of the table: one cache line.
pub(crate) const BUCKET_BYTES: u64 = 64;

/// The buckets a table starts with.
pub(crate) const FIRST_BUCKETS: usize = 1 << 10;

/// The buckets (4 MiB) at which a growing table asks for huge pages: a smaller one fits the
/// caches' reach, and the first touch of a huge page (zeroing 2 MiB) would cost more than it
/// saves on a board settled in milliseconds.
const HUGE_FROM_BUCKETS: usize = 1 << 16;

/// The most bits of a narrow entry's key.
pub(crate) const NARROW_BITS: usize = 104;

/// How a table's entries are laid out (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Four entries a bucket, keys of at most 64 bits, exclusions of the values below 48.
    Small,
    /// Four entries a bucket, keys of at most 104 bits, exclusions of the values below 8.
    Narrow,
    /// Two entries a bucket, any key, exclusions of the values below 64.
    Wide,
}

impl Layout {
    /// The layout for keys of at most `bits` bits and tags below 256.
    pub(crate) fn for_keys(bits: usize) -> Layout {
        match bits {
            0..=64 => Layout::Small,
            65..=NARROW_BITS => Layout::Narrow,
            _ => Layout::Wide,
        }
    }

    /// For the two-word layouts: the bits of the key's high word in the second word (0 or 40).
    #[inline]
    fn high_bits(self) -> u32 {
        match self {
            Layout::Narrow => 40,
            _ => 0,
        }
    }
}

/// The value byte of an entry that holds exclusions only.
const UNKNOWN: u8 = 0xff;

/// What a table knows of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// Its value.
    Value(u8),
    /// Values below 64 it does not have, as a set of bits (those the layout keeps).
    Not(u64),
}

/// One bucket: four narrow entries of two words, or two wide entries of four words. The words
/// are atomic so that a [shared](Table::into_shared) table can be read and written by several
/// threads; a table of one thread reads and writes them with relaxed accesses, which are plain
/// loads and stores.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([AtomicU64; 8]);

impl Bucket {
    /// The eight words, read one by one (for a table of one thread).
    #[inline]
    fn words(&self) -> [u64; 8] {
        std::array::from_fn(|i| self.0[i].load(Relaxed))
    }

    /// The 16-byte entry `k` (words `2k` and `2k + 1`) as one atomic access.
    #[inline]
    fn slot(&self, k: usize) -> &AtomicU128 {
        // SAFETY: words 2k and 2k + 1 are 16 bytes, aligned to 16 (the bucket is aligned to 64
        // and `k < 4`), and live as long as `self`. They are accessed as 16-byte atomics only
        // while the table is shared, and a shared table accesses every entry this way and no
        // other (module documentation); as 64-bit words they are accessed only while the table
        // is not shared, on the one thread that owns it.
        unsafe { AtomicU128::from_ptr(self.0[2 * k].as_ptr().cast::<u128>()) }
    }

    /// The eight words, each entry read as one 16-byte atomic access (for a shared table).
    #[inline]
    fn entries(&self) -> [u64; 8] {
        let mut w = [0; 8];
        for k in 0..4 {
            let e = self.slot(k).load(Relaxed);
            (w[2 * k], w[2 * k + 1]) = (e as u64, (e >> 64) as u64);
        }
        w
    }
}

/// A fast mix of a key's bits and tag (the finaliser of splitmix64).
#[inline]
pub(crate) fn hash(bits: u128, tag: u32) -> u64 {
    let lo = bits as u64;
    let hi = (bits >> 64) as u64;
    let mut x = lo
        ^ (hi ^ u64::from(tag) << 40)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The bytes a table may take under a budget of `limit` bytes: half the budget, at most `max`
/// (the other half is left to what the engine holds besides and to the caller).
#[inline]
pub(crate) fn share(limit: u64, max: u64) -> u64 {
    (limit / 2).min(max)
}

/// The transposition table (see the module documentation).
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    /// The most buckets the table grows to.
    cap: usize,
    /// Entries written (an upper bound of the entries held); counted by every thread of a shared
    /// table.
    written: AtomicUsize,
    layout: Layout,
    /// Whether several threads search with this table ([`Table::into_shared`]).
    shared: bool,
}

impl Table {
    /// The buckets of a table of at most `bytes`: a power of two, at least one.
    pub(crate) fn buckets(bytes: u64) -> usize {
        let b = (bytes / BUCKET_BYTES).max(1);
        1usize << (63 - b.leading_zeros())
    }

    /// A table of at most `cap` buckets (a power of two) with entries laid out as `layout`.
    pub(crate) fn new(cap: usize, layout: Layout) -> Table {
        let n = cap.min(FIRST_BUCKETS);
        let mut buckets = Vec::with_capacity(cap);
        buckets.resize_with(n, Bucket::default);
        Table {
            buckets,
            mask: n - 1,
            cap,
            written: AtomicUsize::new(0),
            layout,
            shared: false,
        }
    }

    /// This table, with everything it holds, grown to at least `buckets` buckets (at most its
    /// largest size) and made ready for several threads to search at once (module
    /// documentation); the table itself when its layout is wide, whose entries of four words no
    /// single atomic access covers.
    pub(crate) fn into_shared(mut self, buckets: usize) -> std::result::Result<Table, Table> {
        if self.layout == Layout::Wide {
            return Err(self);
        }
        self.shared = false;
        while self.buckets.len() < buckets.min(self.cap) {
            self.grow();
        }
        self.shared = true;
        Ok(self)
    }

    /// Whether the table is half full and below its largest size: a table of one thread grows
    /// before its next entry; the threads of a shared table stop, so that it grows
    /// ([`Table::into_shared`] again) before they go on.
    #[inline]
    pub(crate) fn wants_to_grow(&self) -> bool {
        let slots = if self.layout == Layout::Wide { 2 } else { 4 };
        self.written.load(Relaxed) * 2 >= self.buckets.len() * slots
            && self.buckets.len() < self.cap
    }

    /// The buckets in use.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.buckets.len()
    }

    /// The value recorded for the key `(bits, tag)`, if it is there.
    #[inline]
    pub(crate) fn get(&self, key: (u128, u32)) -> Option<u8> {
        match self.probe(key)? {
            Known::Value(v) => Some(v),
            Known::Not(_) => None,
        }
    }

    /// What is recorded for the key `(bits, tag)`: its value, or values it does not have.
    #[inline]
    pub(crate) fn probe(&self, (bits, tag): (u128, u32)) -> Option<Known> {
        let bucket = &self.buckets[hash(bits, tag) as usize & self.mask];
        if self.shared {
            let b = bucket.entries();
            self.find(|i| b[i], bits, tag)
        } else {
            // Word by word, only as far as the key is found.
            self.find(|i| bucket.0[i].load(Relaxed), bits, tag)
        }
    }

    /// What the bucket whose `i`-th word is `b(i)` records for `(bits, tag)`.
    #[inline(always)]
    fn find(&self, b: impl Fn(usize) -> u64, bits: u128, tag: u32) -> Option<Known> {
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        let (value, not) = if self.layout == Layout::Wide {
            let k = (0..2)
                .find(|&k| b(4 * k) == lo && b(4 * k + 1) == hi && b(4 * k + 2) as u32 == tag)?;
            ((b(4 * k + 2) >> 32) as u8, b(4 * k + 3))
        } else {
            let hb = self.layout.high_bits();
            let key = hi | u64::from(tag) << hb;
            let mask = (1u64 << (hb + 8)) - 1;
            let k = (0..4).find(|&k| b(2 * k) == lo && b(2 * k + 1) & mask == key)?;
            let second = b(2 * k + 1);
            ((second >> (hb + 8)) as u8, second >> (hb + 16))
        };
        Some(match value {
            UNKNOWN => Known::Not(not),
            v => Known::Value(v),
        })
    }

    /// Asks the processor to bring the bucket of `(bits, tag)` into the cache (a hint: nothing
    /// is read).
    #[inline]
    pub(crate) fn prefetch(&self, (bits, tag): (u128, u32)) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = &self.buckets[hash(bits, tag) as usize & self.mask];
            // SAFETY: a prefetch reads no memory and cannot fault; the address is that of a
            // bucket of the table, and SSE (where the instruction lives) is part of x86-64.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    (b as *const Bucket).cast(),
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (bits, tag);
    }

    /// Records that `(bits, tag)` has the value `value`, growing the table first while it is
    /// half full and below its largest size.
    pub(crate) fn put(&mut self, (bits, tag): (u128, u32), value: u8) {
        debug_assert!(value != UNKNOWN);
        self.make_room();
        self.insert(bits, tag, Known::Value(value));
    }

    /// Records that `(bits, tag)` has none of the values of the set `not` (bits 0–63), joined
    /// to the exclusions already held (those the layout keeps); nothing changes when its value
    /// is known, or when the layout keeps none of `not`.
    pub(crate) fn exclude(&mut self, (bits, tag): (u128, u32), not: u64) {
        let kept = self.kept(not);
        if kept == 0 {
            return;
        }
        self.make_room();
        self.insert(bits, tag, Known::Not(kept));
    }

    /// The exclusions of `not` the layout keeps.
    #[inline]
    fn kept(&self, not: u64) -> u64 {
        match self.layout {
            Layout::Wide => not,
            Layout::Narrow => not & 0xff,
            Layout::Small => not & ((1 << 48) - 1),
        }
    }

    /// Grows the table while it is half full and below its largest size, before an entry is
    /// written.
    fn make_room(&mut self) {
        if self.wants_to_grow() {
            self.grow();
        }
        *self.written.get_mut() += 1;
    }

    fn insert(&self, bits: u128, tag: u32, known: Known) {
        debug_assert!(tag != 0);
        let i = hash(bits, tag) as usize & self.mask;
        let bucket = &self.buckets[i];
        let b = if self.shared {
            bucket.entries()
        } else {
            bucket.words()
        };
        let (lo, hi) = (bits as u64, (bits >> 64) as u64);
        // The value and exclusions to write, from what is known and what the slot of the same
        // key holds: a value is never replaced by exclusions, exclusions join.
        let merge = |same: Option<(u8, u64)>| -> Option<(u8, u64)> {
            match (known, same) {
                (Known::Value(v), _) => Some((v, 0)),
                (Known::Not(_), Some((v, _))) if v != UNKNOWN => None,
                (Known::Not(x), Some((_, y))) => Some((UNKNOWN, x | y)),
                (Known::Not(x), None) => Some((UNKNOWN, x)),
            }
        };
        if self.layout == Layout::Wide {
            let same = (0..2)
                .find(|&k| b[4 * k] == lo && b[4 * k + 1] == hi && b[4 * k + 2] as u32 == tag);
            let k = same
                .or_else(|| (0..2).find(|&k| b[4 * k + 2] == 0))
                .unwrap_or(usize::from(b[2] >> 40 > b[6] >> 40));
            let Some((value, not)) =
                merge(same.map(|k| ((b[4 * k + 2] >> 32) as u8, b[4 * k + 3])))
            else {
                return;
            };
            let size = u64::from(bits.count_ones());
            let third = u64::from(tag) | u64::from(value) << 32 | size << 40;
            for (j, word) in [lo, hi, third, not].into_iter().enumerate() {
                bucket.0[4 * k + j].store(word, Relaxed);
            }
        } else {
            let hb = self.layout.high_bits();
            debug_assert!(tag < 256 && hi >> hb == 0);
            let key = hi | u64::from(tag) << hb;
            let mask = (1u64 << (hb + 8)) - 1;
            let same = (0..4).find(|&k| b[2 * k] == lo && b[2 * k + 1] & mask == key);
            let size =
                |k: usize| b[2 * k].count_ones() + (b[2 * k + 1] & ((1 << hb) - 1)).count_ones();
            let k = same
                .or_else(|| (0..4).find(|&k| b[2 * k + 1] == 0))
                .unwrap_or_else(|| (0..4).min_by_key(|&k| size(k)).unwrap_or(0));
            let Some((value, not)) = merge(same.map(|k| {
                let second = b[2 * k + 1];
                ((second >> (hb + 8)) as u8, second >> (hb + 16))
            })) else {
                return;
            };
            let second = key | u64::from(value) << (hb + 8) | not << (hb + 16);
            if self.shared {
                self.written.fetch_add(1, Relaxed);
                let entry = u128::from(lo) | u128::from(second) << 64;
                bucket.slot(k).store(entry, Release);
            } else {
                bucket.0[2 * k].store(lo, Relaxed);
                bucket.0[2 * k + 1].store(second, Relaxed);
            }
        }
    }

    /// [`Table::put`] on a [shared](Table::into_shared) table.
    pub(crate) fn put_shared(&self, (bits, tag): (u128, u32), value: u8) {
        debug_assert!(self.shared && value != UNKNOWN);
        self.insert(bits, tag, Known::Value(value));
    }

    /// [`Table::exclude`] on a [shared](Table::into_shared) table.
    pub(crate) fn exclude_shared(&self, (bits, tag): (u128, u32), not: u64) {
        debug_assert!(self.shared);
        let kept = self.kept(not);
        if kept != 0 {
            self.insert(bits, tag, Known::Not(kept));
        }
    }

    /// Doubles the buckets in place: the entries of bucket `i` whose hash has the new bit go to
    /// bucket `i + n`, which only they fill.
    fn grow(&mut self) {
        let n = self.buckets.len();
        if n == HUGE_FROM_BUCKETS {
            let bytes = self.cap * std::mem::size_of::<Bucket>();
            advise_huge_pages(self.buckets.as_mut_ptr().cast(), bytes);
        }
        debug_assert!(!self.shared);
        self.buckets.resize_with(2 * n, Bucket::default);
        self.mask = 2 * n - 1;
        let wide = self.layout == Layout::Wide;
        let hb = self.layout.high_bits();
        let (words, step) = if wide { (4, 2) } else { (2, 4) };
        for i in 0..n {
            let mut moved = 0;
            for k in 0..step {
                let e = self.buckets[i].words();
                let e = &e[words * k..words * k + words];
                let (bits, tag) = if wide {
                    if e[2] == 0 {
                        continue;
                    }
                    (u128::from(e[0]) | u128::from(e[1]) << 64, e[2] as u32)
                } else {
                    if e[1] == 0 {
                        continue;
                    }
                    let hi = e[1] & ((1 << hb) - 1);
                    (
                        u128::from(e[0]) | u128::from(hi) << 64,
                        (e[1] >> hb) as u8 as u32,
                    )
                };
                if hash(bits, tag) as usize & n != 0 {
                    for (j, &word) in e.iter().enumerate() {
                        self.buckets[i + n].0[words * moved + j].store(word, Relaxed);
                        self.buckets[i].0[words * k + j].store(0, Relaxed);
                    }
                    moved += 1;
                }
            }
        }
    }

    /// The bytes in use.
    pub(crate) fn bytes(&self) -> u64 {
        self.buckets.len() as u64 * BUCKET_BYTES
    }
}

/// The first line of a saved table ([`Table::save`]); the number is the format of the entries
/// (their words, the hash that places them): a file of another format is refused.
pub(crate) const SAVED_MAGIC: &str = "grundy table 1";

/// The longest header of a saved table read.
const MAX_HEADER: usize = 4096;

/// The most buckets of a saved table read (64 TiB): far more than any memory, few enough that
/// the file's length is computed without overflow.
const MAX_SAVED_BUCKETS: usize = 1 << 40;

/// What a saved table's header says (see [`Table::save`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Saved {
    /// What the table was searched for (the engine and its game), checked by the reader.
    pub about: String,
    pub layout: Layout,
    pub buckets: usize,
    /// Entries written (an upper bound of the entries held).
    pub entries: usize,
    /// The bytes of the header, up to the words (the checksum covers them).
    pub header: Vec<u8>,
}

impl Saved {
    /// The length of the whole file: header, the buckets' words, the checksum.
    pub(crate) fn file_bytes(&self) -> u64 {
        self.header.len() as u64 + self.buckets as u64 * BUCKET_BYTES + 8
    }
}

impl Layout {
    fn name(self) -> &'static str {
        match self {
            Layout::Small => "small",
            Layout::Narrow => "narrow",
            Layout::Wide => "wide",
        }
    }

    fn from_name(name: &str) -> Option<Layout> {
        LAYOUT_NAMES.into_iter().find(|l| l.name() == name)
    }
}

const LAYOUT_NAMES: [Layout; 3] = [Layout::Small, Layout::Narrow, Layout::Wide];

/// Reads the header of a saved table from `r`, leaving `r` at the first word; `Err` with the
/// reason when it is not one.
pub(crate) fn read_saved_header(r: &mut dyn Read) -> std::result::Result<Saved, String> {
    let mut header = Vec::new();
    let mut byte = [0u8];
    // Up to the blank line that ends the header.
    while !header.ends_with(b"\n\n") {
        if header.len() >= MAX_HEADER {
            return Err("not a saved table (no end of header)".into());
        }
        match r.read(&mut byte) {
            Ok(0) => return Err("not a saved table (cut short)".into()),
            Ok(_) => header.push(byte[0]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot be read: {e}")),
        }
    }
    let text = std::str::from_utf8(&header).map_err(|_| "not a saved table".to_string())?;
    let text = text.to_string();
    let mut lines = text.lines();
    if lines.next() != Some(SAVED_MAGIC) {
        return Err(format!(
            "not a saved table of this version (first line: not '{SAVED_MAGIC}')"
        ));
    }
    let mut field = |name: &str| -> std::result::Result<&str, String> {
        lines
            .next()
            .and_then(|l| l.strip_prefix(name)?.strip_prefix(": "))
            .ok_or_else(|| format!("not a saved table (no '{name}' line)"))
    };
    let about = field("about")?.to_string();
    let layout = field("layout")?;
    let layout =
        Layout::from_name(layout).ok_or_else(|| format!("unknown layout of entries '{layout}'"))?;
    let number = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("not a number: '{s}'"))
    };
    let buckets = number(field("buckets")?)?;
    let entries = number(field("entries")?)?;
    if !buckets.is_power_of_two() || !(FIRST_BUCKETS..=MAX_SAVED_BUCKETS).contains(&buckets) {
        return Err(format!("not a number of buckets of a table: {buckets}"));
    }
    Ok(Saved {
        about,
        layout,
        buckets,
        entries,
        header,
    })
}

impl Table {
    /// Writes the table to `w`: a text header, the words of its buckets in little-endian
    /// order, and a checksum (8 bytes, little-endian) of everything before it.
    ///
    /// ```text
    /// grundy table 1
    /// about: cram:......../......../......../......../......../......../........
    /// layout: small
    /// buckets: 134217728
    /// entries: 98765432
    ///
    /// <buckets x 64 bytes><checksum>
    /// ```
    ///
    /// The table must not be searched meanwhile (its words are read one by one).
    pub(crate) fn save(&self, about: &str, w: &mut dyn Write) -> std::io::Result<()> {
        let header = format!(
            "{SAVED_MAGIC}\nabout: {about}\nlayout: {}\nbuckets: {}\nentries: {}\n\n",
            self.layout.name(),
            self.buckets.len(),
            self.written.load(Relaxed)
        );
        w.write_all(header.as_bytes())?;
        let mut h = crate::checksum::fnv1a(header.as_bytes());
        let mut out = Vec::with_capacity(SAVE_CHUNK_BUCKETS * BUCKET_BYTES as usize);
        for chunk in self.buckets.chunks(SAVE_CHUNK_BUCKETS) {
            out.clear();
            let words = chunk.iter().flat_map(|b| b.words());
            h = crate::checksum::fnv1a_words(h, words.clone());
            for word in words {
                out.extend_from_slice(&word.to_le_bytes());
            }
            w.write_all(&out)?;
        }
        w.write_all(&h.to_le_bytes())
    }

    /// A table of at most `cap` buckets laid out as `layout` holding the saved table `saved`,
    /// whose words `r` is at (after [`read_saved_header`] read `saved` from it); `Err` with
    /// the reason when it cannot be used (another layout, more buckets than `cap`, words cut
    /// short, a checksum that fails).
    pub(crate) fn load(
        saved: &Saved,
        cap: usize,
        layout: Layout,
        r: &mut dyn Read,
    ) -> std::result::Result<Table, String> {
        if saved.layout != layout {
            return Err(format!(
                "its entries are laid out for {} keys, this board's for {}",
                saved.layout.name(),
                layout.name()
            ));
        }
        if saved.buckets > cap {
            return Err(format!(
                "its table of {} does not fit the {} this run may take",
                crate::control::format_bytes(saved.buckets as u64 * BUCKET_BYTES),
                crate::control::format_bytes(cap as u64 * BUCKET_BYTES)
            ));
        }
        let mut t = Table::new(cap, layout);
        if saved.buckets >= HUGE_FROM_BUCKETS {
            let bytes = t.cap * std::mem::size_of::<Bucket>();
            advise_huge_pages(t.buckets.as_mut_ptr().cast(), bytes);
        }
        t.buckets.resize_with(saved.buckets, Bucket::default);
        t.mask = saved.buckets - 1;
        let mut h = crate::checksum::fnv1a(&saved.header);
        let mut bytes = vec![0u8; SAVE_CHUNK_BUCKETS * BUCKET_BYTES as usize];
        let mut used = 0;
        for chunk in t.buckets.chunks(SAVE_CHUNK_BUCKETS) {
            let bytes = &mut bytes[..chunk.len() * BUCKET_BYTES as usize];
            r.read_exact(bytes)
                .map_err(|e| format!("its words cannot be read: {e}"))?;
            let words = bytes
                .chunks_exact(8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()));
            h = crate::checksum::fnv1a_words(h, words.clone());
            for (i, word) in words.enumerate() {
                chunk[i / 8].0[i % 8].store(word, Relaxed);
            }
        }
        let mut sum = [0u8; 8];
        r.read_exact(&mut sum)
            .map_err(|_| "it is cut short (no checksum)".to_string())?;
        if u64::from_le_bytes(sum) != h {
            return Err("its checksum fails: the file was changed or damaged".into());
        }
        let mut extra = [0u8];
        if r.read(&mut extra).map_or(true, |n| n != 0) {
            return Err("it has bytes after its checksum".into());
        }
        // Entries held: counted, so that the table grows as one that filled in this run would.
        for b in &t.buckets {
            let w = b.words();
            used += match layout {
                Layout::Wide => (0..2).filter(|&k| w[4 * k + 2] != 0).count(),
                _ => (0..4).filter(|&k| w[2 * k + 1] != 0).count(),
            };
        }
        *t.written.get_mut() = used;
        Ok(t)
    }
}

/// Buckets written or read at a time by [`Table::save`] and [`Table::load`]: 1 MiB.
const SAVE_CHUNK_BUCKETS: usize = 1 << 14;

/// The table an engine searches with: its own, or one it shares with the engines searching the
/// same board on other threads ([`Table::into_shared`]). Reads go to the table either way.
pub(crate) enum TableRef<'a> {
    /// A table of one engine, grown as it fills.
    Own(Table),
    /// A table of several engines, at its largest size from the start.
    Shared(&'a Table),
}

impl std::ops::Deref for TableRef<'_> {
    type Target = Table;

    #[inline]
    fn deref(&self) -> &Table {
        match self {
            TableRef::Own(t) => t,
            TableRef::Shared(t) => t,
        }
    }
}

impl TableRef<'_> {
    /// [`Table::put`].
    #[inline]
    pub(crate) fn put(&mut self, key: (u128, u32), value: u8) {
        match self {
            TableRef::Own(t) => t.put(key, value),
            TableRef::Shared(t) => t.put_shared(key, value),
        }
    }

    /// [`Table::exclude`].
    #[inline]
    pub(crate) fn exclude(&mut self, key: (u128, u32), not: u64) {
        match self {
            TableRef::Own(t) => t.exclude(key, not),
            TableRef::Shared(t) => t.exclude_shared(key, not),
        }
    }
}

/// `{q ⊕ x : q ∈ set}` for a set of values below 128 and `x` below 128 (the images stay below
/// 128): the set of values a part must have for a sum with a part of value `x` to have a value
/// in `set`.
#[inline]
pub(crate) fn xor_set(set: u128, x: u8) -> u128 {
    debug_assert!(x < 128);
    if x == 0 {
        return set;
    }
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let q = s.trailing_zeros() as u8;
        s &= s - 1;
        out |= 1 << (q ^ x);
    }
    out
}

/// Asks the kernel to back the `bytes` bytes at `start` (reserved, not yet touched) with huge
/// pages (see the module documentation); only the whole pages inside the range are advised.
pub(crate) fn advise_huge_pages(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let from = (start as usize).div_ceil(PAGE) * PAGE;
        let to = (start as usize + bytes) / PAGE * PAGE;
        if to > from {
            // SAFETY: `from..to` lies inside one allocation of this process (the vector's
            // reserved capacity), page-aligned; MADV_HUGEPAGE changes how its pages are backed,
            // never their contents, and a refusal (an error result) is ignored.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// Runs `search` with a stack of at least `stack` bytes (the engines recurse once or twice per
/// move on a line of play), and returns what it returns: on the calling thread when as much of
/// its stack is left (a command line runs its commands on a large stack: no thread to start,
/// which is most of the cost of a small search), else on a thread of its own named `name`.
pub(crate) fn on_search_thread<T: Send>(
    name: &str,
    stack: usize,
    search: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    if stacker::remaining_stack().is_some_and(|left| left >= stack) {
        return search();
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn_scoped(scope, search)
            .map_err(|e| Error::Internal(format!("cannot start the search thread: {e}")))?
            .join()
            .map_err(|_| Error::Internal("the search thread failed".into()))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A key of at most `bits` bits and a tag, spread by `i`.
    fn key(i: u128, bits: usize, big_tags: bool) -> (u128, u32) {
        let mask = if bits >= 128 {
            u128::MAX
        } else {
            (1 << bits) - 1
        };
        let tag = if big_tags {
            (i % 7 + 1) as u32 * 256 + (i % 5) as u32
        } else {
            (i % 7 + 5) as u32
        };
        (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask, tag)
    }

    const LAYOUTS: [Layout; 3] = [Layout::Small, Layout::Narrow, Layout::Wide];

    /// The most bits of a key of `layout`.
    fn key_bits(layout: Layout) -> usize {
        match layout {
            Layout::Small => 64,
            Layout::Narrow => NARROW_BITS,
            Layout::Wide => 128,
        }
    }

    /// Growing the table (splitting each bucket in place) keeps every entry and its value; a
    /// full table answers with the stored value or nothing, never another value.
    #[test]
    fn the_table_keeps_its_entries_when_it_grows() {
        let cases = LAYOUTS
            .map(|l| (l, false))
            .into_iter()
            .chain([(Layout::Wide, true)]);
        for (layout, big_tags) in cases {
            let wide = layout == Layout::Wide;
            let key = |i| key(i, key_bits(layout), big_tags);
            let mut t = Table::new(1 << 14, layout);
            // 300 keys, leaving out those that would overfill their bucket.
            let slots = if wide { 2 } else { 4 };
            let mut load = HashMap::new();
            let kept: Vec<u128> = (0..300)
                .filter(|&i| {
                    let (b, tag) = key(i);
                    let n = load
                        .entry(hash(b, tag) as usize % FIRST_BUCKETS)
                        .or_insert(0);
                    *n += 1;
                    *n <= slots
                })
                .collect();
            assert!(kept.len() > 250);
            for &i in &kept {
                let (b, tag) = key(i);
                t.insert(b, tag, Known::Value((i % 64) as u8));
            }
            for _ in 0..3 {
                for &i in &kept {
                    let (b, tag) = key(i);
                    assert_eq!(t.get((b, tag)), Some((i % 64) as u8), "{i}");
                }
                t.grow();
            }
            assert_eq!(t.buckets.len(), FIRST_BUCKETS << 3);
            // Filled far past its slots: what it answers is right.
            let mut t = Table::new(16, layout);
            for i in 0..10_000 {
                let (b, tag) = key(i);
                t.put((b, tag), (i % 61) as u8);
            }
            let kept = (0..10_000)
                .filter(|&i| {
                    let (b, tag) = key(i);
                    match t.get((b, tag)) {
                        Some(v) => {
                            assert_eq!(v, (i % 61) as u8);
                            true
                        }
                        None => false,
                    }
                })
                .count();
            assert!(kept > 0 && kept <= 64, "{kept}");
        }
    }

    /// A key is found only under its own tag, and a full bucket gives up its smallest entry.
    #[test]
    fn keys_differ_by_tag_and_the_smallest_entry_is_replaced() {
        for layout in LAYOUTS {
            let mut t = Table::new(1, layout);
            t.put((0b111, 3), 5);
            assert_eq!(t.get((0b111, 3)), Some(5));
            assert_eq!(t.get((0b111, 4)), None);
            // Fill the only bucket with larger keys: the three-bit key goes first.
            let slots = if layout == Layout::Wide { 2 } else { 4 };
            for k in 0..slots {
                t.put(((1 << (10 + k)) - 1, 9), k as u8);
            }
            assert_eq!(t.get((0b111, 3)), None);
            assert!((0..slots).all(|k| t.get(((1 << (10 + k)) - 1, 9)) == Some(k as u8)));
        }
    }

    /// Exclusions of one key join (those the layout keeps); a value replaces them and is never
    /// replaced by them; they survive the table's growth and do not answer `get`.
    #[test]
    fn exclusions_join_and_give_way_to_a_value() {
        for layout in LAYOUTS {
            let kept = match layout {
                Layout::Small => (1u64 << 48) - 1,
                Layout::Narrow => 0xff,
                Layout::Wide => u64::MAX,
            };
            let mut t = Table::new(1 << 12, layout);
            let key = (0b1011u128 << (key_bits(layout) - 10), 7);
            t.exclude(key, 0b0101 | 1 << 40 | 1 << 60);
            t.exclude(key, 0b1000);
            assert_eq!(
                t.probe(key),
                Some(Known::Not((0b1101 | 1 << 40 | 1 << 60) & kept))
            );
            assert_eq!(t.get(key), None);
            for i in 0..5000u128 {
                t.put((i + 1, 3), (i % 60) as u8);
            }
            assert!(t.buckets.len() > FIRST_BUCKETS);
            if let Some(k) = t.probe(key) {
                assert_eq!(k, Known::Not((0b1101 | 1 << 40 | 1 << 60) & kept));
            }
            t.put(key, 2);
            t.exclude(key, 0b0100);
            assert_eq!(t.probe(key), Some(Known::Value(2)));
            let mut one = Table::new(1, layout);
            one.put(key, 1);
            one.exclude(key, 1);
            assert_eq!(one.get(key), Some(1));
            // Nothing the layout keeps: nothing written.
            let mut none = Table::new(1, layout);
            none.exclude(key, !kept);
            assert_eq!(none.probe(key), None);
        }
    }

    /// Random values and exclusions, each true of a hidden value per key, on small tables of
    /// each layout: every answer is true (the key's value, or values it does not have that
    /// were excluded), whatever was replaced.
    #[test]
    fn every_answer_is_true_under_replacement() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for layout in LAYOUTS {
            let mut t = Table::new(4, layout);
            let keys: Vec<((u128, u32), u8)> = (0..40)
                .map(|i| (key(i * 7 + 1, key_bits(layout), false), (next() % 50) as u8))
                .collect();
            let mut excluded = vec![0u64; keys.len()];
            for _ in 0..20_000 {
                let i = (next() % keys.len() as u64) as usize;
                let (k, v) = keys[i];
                match next() % 3 {
                    0 => t.put(k, v),
                    1 => {
                        let not = next() & !(1 << v);
                        excluded[i] |= not;
                        t.exclude(k, not);
                    }
                    _ => match t.probe(k) {
                        None => {}
                        Some(Known::Value(x)) => assert_eq!(x, v),
                        Some(Known::Not(x)) => {
                            assert_eq!(x >> v & 1, 0);
                            assert_eq!(x & !excluded[i], 0);
                        }
                    },
                }
            }
        }
    }

    /// The shifted set is the set of `q ⊕ x`, from the definition.
    /// Threads writing values and exclusions of hidden true values into one shared table of
    /// each shareable layout, and reading them back, all at once and into the same few buckets:
    /// every answer is true, whatever was replaced or raced; the table is grown between two
    /// such rounds and keeps answering truly; a wide table is not shared.
    #[test]
    fn every_answer_of_a_shared_table_is_true() {
        for layout in [Layout::Small, Layout::Narrow] {
            // One tag and small keys: an entry torn between two writers (the low word of one,
            // the rest of another) would be found under the first's key with the second's
            // value.
            let keys: Vec<((u128, u32), u8)> = (0..48u128)
                .map(|i| ((i + 1, 9), (i * 7 % 45) as u8))
                .collect();
            // Four buckets (every thread on the same few), then a table that doubles between
            // two rounds.
            let big = FIRST_BUCKETS;
            let rounds = [
                (Table::new(4, layout), 4),
                (Table::new(2 * big, layout), big),
            ];
            for (mut table, first) in rounds {
                for buckets in [first, 2 * first] {
                    let shared = table.into_shared(buckets).ok().expect("two-word entries");
                    assert_eq!(shared.len(), buckets.min(shared.cap));
                    let start = std::sync::Barrier::new(4);
                    std::thread::scope(|s| {
                        for t in 0..4u64 {
                            let (shared, keys, start) = (&shared, &keys, &start);
                            s.spawn(move || {
                                let mut rng = 0x2545_F491_4F6C_DD1Du64 ^ (t + 1) << 32;
                                start.wait();
                                for _ in 0..400_000 {
                                    rng ^= rng << 13;
                                    rng ^= rng >> 7;
                                    rng ^= rng << 17;
                                    let (k, v) = keys[(rng >> 40) as usize % keys.len()];
                                    match rng % 3 {
                                        0 => shared.put_shared(k, v),
                                        1 => shared.exclude_shared(k, (rng >> 8) & !(1 << v)),
                                        _ => match shared.probe(k) {
                                            None => {}
                                            Some(Known::Value(x)) => assert_eq!(x, v),
                                            Some(Known::Not(x)) => assert_eq!(x >> v & 1, 0),
                                        },
                                    }
                                }
                            });
                        }
                    });
                    table = shared;
                }
                for &(k, v) in &keys {
                    match table.probe(k) {
                        None => {}
                        Some(Known::Value(x)) => assert_eq!(x, v),
                        Some(Known::Not(x)) => assert_eq!(x >> v & 1, 0),
                    }
                }
            }
        }
        assert!(Table::new(4, Layout::Wide).into_shared(4).is_err());
    }

    #[test]
    fn xor_set_shifts_every_value() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let set = u128::from(rng) << 64 | u128::from(rng.rotate_left(29));
            let x = (rng >> 57) as u8;
            let want = (0..128u8)
                .filter(|&q| set >> q & 1 == 1)
                .fold(0u128, |acc, q| acc | 1 << (q ^ x));
            assert_eq!(xor_set(set, x), want);
        }
    }

    #[test]
    fn the_share_is_half_the_budget_at_most_the_cap() {
        assert_eq!(share(1 << 20, 1 << 30), 1 << 19);
        assert_eq!(share(1 << 40, 1 << 30), 1 << 30);
        assert_eq!(Table::buckets(0), 1);
        assert_eq!(Table::buckets(64 * 5), 4);
    }

    #[test]
    fn the_search_thread_gives_back_its_answer() {
        assert_eq!(on_search_thread("t", 1 << 16, || Ok(7)).unwrap(), 7);
        // A stack larger than any thread's is asked for: a thread of its own is started.
        let named = on_search_thread("grundy-t", 1 << 30, || {
            Ok(std::thread::current().name().map(String::from))
        });
        assert_eq!(named.unwrap().as_deref(), Some("grundy-t"));
        // A small stack is at hand on the calling thread: no thread is started.
        let here = std::thread::current().id();
        assert_eq!(
            on_search_thread("t", 1 << 12, || Ok(std::thread::current().id())).unwrap(),
            here
        );
        assert!(on_search_thread::<u8>("t", 1 << 16, || Err(Error::Internal("x".into()))).is_err());
    }

    /// A saved table read back holds what the table held, in every layout; the checksum
    /// covers the header and every word.
    #[test]
    fn a_saved_table_reads_back_whole() {
        for layout in LAYOUTS {
            let key = |i| key(i, key_bits(layout), false);
            let mut t = Table::new(1 << 13, layout);
            for i in 0..5000u128 {
                if i % 3 == 0 {
                    t.exclude(key(i), 0b1010_0110);
                } else {
                    t.put(key(i), (i % 41) as u8);
                }
            }
            let mut bytes = Vec::new();
            t.save("test", &mut bytes).unwrap();
            let mut r = &bytes[..];
            let saved = read_saved_header(&mut r).unwrap();
            assert_eq!((saved.layout, saved.buckets), (layout, t.len()));
            assert_eq!(saved.file_bytes(), bytes.len() as u64);
            let back = Table::load(&saved, 1 << 13, layout, &mut r).unwrap();
            assert_eq!(back.len(), t.len());
            for i in 0..5000u128 {
                assert_eq!(back.probe(key(i)), t.probe(key(i)), "{layout:?} {i}");
            }
            // The entries held, counted: at most those written.
            let held = back.written.load(Relaxed);
            assert!(0 < held && held <= t.written.load(Relaxed));
            // A changed header line or word is seen.
            for at in [SAVED_MAGIC.len() + 8, bytes.len() / 2] {
                let mut changed = bytes.clone();
                changed[at] ^= 1;
                let mut r = &changed[..];
                let loaded = read_saved_header(&mut r)
                    .and_then(|s| Table::load(&s, 1 << 13, layout, &mut r).map(|_| ()));
                assert!(loaded.is_err(), "{layout:?}, byte {at} changed");
            }
        }
    }

    proptest::proptest! {
        /// Any bytes, after a header or not, are read as a table or refused, never a panic.
        #[test]
        fn any_bytes_are_read_or_refused(
            header in proptest::sample::select(vec![
                "",
                "grundy table 1\nabout: x\nlayout: small\nbuckets: 1024\nentries: 5\n\n",
                "grundy table 1\nabout: x\nlayout: wide\nbuckets: 1152921504606846976\nentries: 0\n\n",
                "grundy table 1\nabout: x\nlayout: narrow\nbuckets: 1023\nentries: 1\n\n",
            ]),
            tail in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
        ) {
            let bytes = [header.as_bytes(), &tail].concat();
            let mut r = &bytes[..];
            if let Ok(saved) = read_saved_header(&mut r) {
                proptest::prop_assert!(saved.file_bytes() >= saved.header.len() as u64);
                // 300 bytes hold no table of 1024 buckets: refused.
                proptest::prop_assert!(Table::load(&saved, 1 << 12, saved.layout, &mut r).is_err());
            }
        }
    }
}
