//! The sparse-space ("rare values") engine for games whose moves leave at most two heaps:
//! take-and-break codes without bit 8, and Grundy's game.
//!
//! **Classes.** Fix a mask m ≠ 0 and call a value v *rare* when popcount(v & m) is even,
//! *common* when it is odd. The parity of popcount(v & m) is linear over xor, so
//! rare ⊕ rare and common ⊕ common are rare, while rare ⊕ common is common. In many octal games
//! (Gangolli-Plambeck; Flammenkamp's tables) some mask makes the rare class hold only finitely
//! many positions; then:
//!
//! **Common options.** A common option value of heap n comes from a single heap, or from a
//! split a + b whose parts are one rare and one common. Listing the positions r with G(r) rare
//! (the *rare positions*) and marking G(r) ⊕ G(n-k-r) for each of them gives every common option
//! value in about (number of rare positions) steps. Let c be the least common value not marked.
//!
//! **Rare options (verification).** G(n) = c exactly when every rare value below c is an option
//! value. Rare option values from pairs containing a rare part are already marked; the others
//! come from common ⊕ common pairs, so the engine scans all splits a + b, stopping as soon as
//! every missing rare value below c has been seen. If some remain unseen, G(n) is the least of
//! them (a new rare position). The answer is the exact mex whatever the mask; the mask only
//! decides the speed.
//!
//! **Choosing the mask.** With h(v) the histogram of the values so far, the Walsh-Hadamard
//! transform W(m) = Σ_v h(v)·(-1)^popcount(v & m) equals (#rare − #common) under mask m; the
//! engine picks the m ≠ 0 minimising W(m). It re-chooses whenever n doubles or the values
//! outgrow the current bound, and rebuilds the rare-position list (O(n), so O(1) amortised).
//! The transform may also run over the value bits plus one bit for the heap's parity, so that
//! games whose rare values follow the parity of n get a small rare set (the state's documentation
//! derives why the classes still combine as above; see [`Parity`]).
//!
//! **Costs.** The rare passes of 32 heaps are done together (transposed, see `propose`); the
//! verification marks pairs while many rare values are wanted and compares each pair's xor
//! with the last few, lane-parallel (see `scan_pairs`).
//!
//! The engine's parts: [`classes`] (the mask and its choice), `state` (the rare list and the
//! rare pass), `block` (proposing and verifying blocks of heaps), `pairs` (the verification's
//! pair scan) and `compare` (its comparison kernel).

mod block;
pub mod classes;
mod compare;
mod pairs;
mod state;

use crate::control::Control;
use crate::error::Result;
use crate::game::spec::GameSpec;
use crate::heap::naive::{Marks, Splits};
use crate::heap::sequence::{push, Cell, Fill, PROGRESS_EVERY};
use crate::heap::HeapGame;
use block::{propose, verify, Block, Shared, Tables};
pub use classes::Parity;
use pairs::{scan_pairs, Mirror, Scratch};
use state::State;

/// Whether the sparse engine handles `rule` (moves leave at most two heaps).
pub fn handles(rule: &HeapGame) -> bool {
    match rule.spec() {
        GameSpec::TakeBreak(c) => c.max_heaps() <= 2,
        GameSpec::GrundysGame => true,
        _ => false,
    }
}

/// Heaps computed one by one, exactly, before speculation starts.
const SPECULATE_FROM: usize = 1 << 15;
/// Heaps per speculative block.
const BLOCK: usize = 1 << 13;

/// Extends `values` to G(0..n) for a rule that [`handles`] accepts.
///
/// **Speculation on both cores.** Once rare values have become rare, G(n) is almost always the
/// candidate c of the rare pass. Beyond `SPECULATE_FROM` (2^15) heaps the engine therefore proposes
/// a block of heaps with G(n) = c (the cheap rare pass only), and verifies the rare values below
/// each c of that block in parallel (every heap of the block is independent given the values)
/// *while* the next block is proposed. The first heap whose verification fails is recomputed
/// exactly and everything after it is dropped, so the result is exactly the sequential one.
pub fn extend<T: Cell>(
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    extend_with(rule, values, n, ctl, Parity::Auto)
}

/// [`extend`] with the use of the heap's parity in the classes chosen by `parity` (the result
/// is the same; only the speed differs). The parity bit is never used when the two-heap splits
/// remove numbers of tokens of both parities.
#[inline(never)]
pub fn extend_with<T: Cell>(
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
    parity: Parity,
) -> Result<Fill> {
    let sp = match rule.spec() {
        GameSpec::TakeBreak(c) if c.max_heaps() <= 2 => Splits::of_code(c),
        GameSpec::GrundysGame => Splits::grundy(),
        _ => return crate::heap::naive::extend(rule, values, n, ctl),
    };
    if values
        .try_reserve_exact(n.saturating_sub(values.len()))
        .is_err()
    {
        return Err(crate::error::Error::limit(
            crate::LimitKind::Memory,
            format!("not enough memory for {n} values"),
            "ask for fewer values",
        ));
    }
    let mut st = State::new(values, &sp, parity, ctl)?;
    let mut mirror = Mirror::new(values);
    let mut marks = Marks::default();
    let mut scratch = Scratch::default();
    let mut tables = Tables::default();
    let mut want: Vec<u32> = Vec::new();
    let mut exact_until = SPECULATE_FROM;
    let mut pending: Option<Block> = None;
    while values.len() < n || pending.is_some() {
        if let Some(p) = pending.take() {
            let base = Shared(values.as_mut_ptr());
            let start = p.start + p.len;
            let (fail, next) = if start < n && !p.overflow {
                let end = (start + BLOCK).min(n);
                let check = || verify(base, &mirror, &p, &sp);
                let next = || Some(propose(&sp, &mut st, base, start, end, &mut tables));
                #[cfg(feature = "parallel")]
                let both = rayon::join(check, next);
                #[cfg(not(feature = "parallel"))]
                let both = {
                    let mut next = next;
                    (check(), next())
                };
                both
            } else {
                (verify(base, &mirror, &p, &sp), None)
            };
            let good = fail.unwrap_or(p.len);
            // SAFETY: capacity >= n was reserved above, and `propose` initialised every heap
            // below p.start + p.len (the values up to p.start were already in the vector).
            unsafe { values.set_len(p.start + good) };
            if fail.is_some() || p.overflow {
                // A rare heap (or a value too wide for the cells): redo it exactly. The old
                // state's bytes are given back before the new one reserves its own.
                drop(st);
                st = State::new(values, &sp, parity, ctl)?;
                exact_until = values.len() + BLOCK;
            } else {
                pending = next.transpose()?.filter(|b| b.len > 0 || b.overflow);
            }
            ctl.check(values.len() as u64)?;
            continue;
        }
        let h0 = values.len();
        let g = if st.rare_pos.len() * 4 > h0 {
            // No sparse space (yet): a quarter or more of the positions are rare, so the rare
            // pass would cost as much as scanning every split. Take the naive step.
            marks.reset(2 * st.b);
            sp.mark_small(h0, values, &mut marks);
            sp.mark_pairs(h0, values, &mut marks);
            marks.mex()
        } else if h0 < exact_until || n - h0 < BLOCK / 4 {
            let c = st.rare_pass(&sp, values, h0, &mut scratch, &mut want);
            scan_pairs(
                values,
                &mirror,
                h0,
                &sp.two,
                2 * st.b,
                &mut want,
                &mut scratch,
            );
            // `want` is ascending: its head is the least rare value below c still missing.
            want.first().copied().unwrap_or(c)
        } else {
            let base = Shared(values.as_mut_ptr());
            let end = (h0 + BLOCK).min(n);
            pending = Some(propose(&sp, &mut st, base, h0, end, &mut tables)?);
            continue;
        };
        if let Some(r) = push(values, g) {
            return Ok(r);
        }
        mirror.set(h0, T::from_u32(g));
        st.record(values, h0, g)?;
        if h0.is_multiple_of(PROGRESS_EVERY) {
            ctl.check(h0 as u64)?;
        }
    }
    Ok(Fill::Done)
}

#[cfg(test)]
mod tests {
    use super::state::table_bytes;
    use super::*;

    /// The working tables and the rare list are charged to the memory budget before they
    /// grow: a budget without room for them refuses with the memory limit (also midway, when
    /// the rare list of Kayles outgrows it), a large one gives the naive engine's values and
    /// has every byte back afterwards.
    #[test]
    fn working_tables_are_charged_to_the_budget() {
        let is_memory = |r: Result<Fill>| matches!(r, Err(crate::Error::Limit(l)) if l.kind == crate::LimitKind::Memory);
        for game in ["octal:0.77", "grundys-game", "octal:0.137"] {
            let rule = game.parse::<HeapGame>().unwrap();
            let n = 60_000;
            let mut want: Vec<u32> = Vec::new();
            crate::heap::naive::extend(&rule, &mut want, n, &Control::none()).unwrap();
            let budget = crate::control::MemoryBudget::new(64 << 20);
            let mut v: Vec<u32> = Vec::new();
            extend(
                &rule,
                &mut v,
                n,
                &Control::none().with_memory(budget.clone()),
            )
            .unwrap();
            assert_eq!(v, want, "{game}");
            assert_eq!(budget.used(), 0, "{game}: the tables give their bytes back");
            let tiny = crate::control::MemoryBudget::new(table_bytes(1) - 1);
            let ctl = Control::none().with_memory(tiny.clone());
            assert!(
                is_memory(extend(&rule, &mut Vec::<u32>::new(), n, &ctl)),
                "{game}"
            );
            assert_eq!(tiny.used(), 0);
        }
        // Taking one or two tokens (0.3) has G(n) = n mod 3, and 0 is rare under every mask,
        // so a third of the positions are rare: its rare list grows with n, 8 bytes an entry.
        // A budget with room for the tables and 64 KiB more stops it midway.
        let rule = "octal:0.3".parse::<HeapGame>().unwrap();
        let budget = crate::control::MemoryBudget::new(table_bytes(64) + (64 << 10));
        let ctl = Control::none().with_memory(budget.clone());
        assert!(is_memory(extend(
            &rule,
            &mut Vec::<u32>::new(),
            200_000,
            &ctl
        )));
        assert_eq!(budget.used(), 0);
    }
}
