//! The reference engine, straight from the definition: G(n) = mex { G(h1) ⊕ ... ⊕ G(hk) :
//! (h1, ..., hk) an option of n }, every option enumerated by [`HeapRule::options`].
//!
//! Slow (a 3-heap split game costs n² per value) and kept simple on purpose: every faster
//! engine is tested against it.

use crate::control::Control;
use crate::error::{Error, Result};
use crate::heap::rule::{HeapRule, Options};
use crate::heap::sequence::{push, Cell, Fill};

/// The minimum excludant: the least natural number not in `set`.
pub fn mex(set: &mut [u32]) -> u32 {
    set.sort_unstable();
    let mut m = 0;
    for &v in set.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// How often (in values) [`extend`] checks its [`Control`].
const CHECK_EVERY: usize = 256;

/// Extends `values` (G(0..len)) to G(0..n) of any rule.
pub fn extend<T: Cell>(
    rule: &impl HeapRule,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    let mut opts = Options::new();
    let mut set: Vec<u32> = Vec::new();
    while values.len() < n {
        let h = values.len();
        opts.clear();
        rule.options(h as u64, &mut opts)?;
        set.clear();
        for o in opts.iter() {
            let mut x = 0;
            for &part in o {
                if part as usize >= h {
                    return Err(Error::Internal(format!(
                        "option of heap {h} holds heap {part}, not smaller"
                    )));
                }
                x ^= values[part as usize].get();
            }
            set.push(x);
        }
        if let Some(r) = push(values, mex(&mut set)) {
            return Ok(r);
        }
        // Options come from any rule, a script among them: check often.
        if h.is_multiple_of(CHECK_EVERY) {
            ctl.check(h as u64)?;
        }
    }
    Ok(Fill::Done)
}

/// G(0..n) of `rule` as `u32`s, by the definition.
pub fn sequence(rule: &impl HeapRule, n: usize) -> Result<Vec<u32>> {
    let mut v: Vec<u32> = Vec::new();
    extend(rule, &mut v, n, &Control::none())?;
    Ok(v)
}
