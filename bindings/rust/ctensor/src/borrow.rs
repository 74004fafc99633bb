//! Dynamic borrow tracking for element memory (as rust-numpy's borrow checker).
//!
//! Storages are shared: two tensors, or a tensor and its DLPack re-import, may view
//! the same bytes. Safe Rust must never see a `&[T]` and a write (or a `&mut [T]`)
//! of the same bytes at once, from any thread. Every element access therefore
//! registers the byte range it touches: shared for reads (slices, array views,
//! iterators, and the copies the library makes from a tensor), exclusive for
//! writes (mutable slices and views, `fill`, `copy_from`). A request that overlaps
//! a live exclusive range, or an exclusive request that overlaps any live range,
//! fails with [`Status::Overlap`] instead of waiting (waiting could deadlock a
//! thread on its own guard). Ranges are whole spans (lowest to highest byte), so
//! interleaved views such as `t[::2]` and `t[1::2]` count as overlapping.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::error::{Error, Result, Status};

/// Bytes `[lo, hi)` of process memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub lo: usize,
    pub hi: usize,
}

impl Span {
    fn overlaps(self, other: Span) -> bool {
        self.lo < other.hi && other.lo < self.hi
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    Shared,
    Exclusive,
}

struct Entry {
    id: u64,
    span: Span,
    access: Access,
}

static LIVE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A registered set of ranges; dropping it ends the borrow.
#[derive(Debug)]
pub(crate) struct Borrow {
    id: u64,
}

/// Registers every request at once, or none: requests of one call never conflict
/// with each other (the library handles a copy between overlapping tensors), only
/// with other live borrows. `None` spans (tensors without elements) need nothing.
pub(crate) fn acquire(op: &str, requests: &[(Option<Span>, Access)]) -> Result<Borrow> {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for &(span, access) in requests {
        let Some(span) = span else { continue };
        let conflict = live.iter().find(|e| {
            e.span.overlaps(span) && (access == Access::Exclusive || e.access == Access::Exclusive)
        });
        if let Some(e) = conflict {
            let (want, held) = match (access, e.access) {
                (Access::Exclusive, Access::Exclusive) => ("write", "written"),
                (Access::Exclusive, Access::Shared) => ("write", "read"),
                _ => ("read", "written"),
            };
            return Err(Error::new(
                Status::Overlap,
                format!(
                    "{op}: cannot {want} bytes [{:#x}, {:#x}): they overlap bytes [{:#x}, {:#x}) \
                     being {held} through a live slice, array view or iterator",
                    span.lo, span.hi, e.span.lo, e.span.hi
                ),
            ));
        }
    }
    for &(span, access) in requests {
        if let Some(span) = span {
            live.push(Entry { id, span, access });
        }
    }
    Ok(Borrow { id })
}

impl Drop for Borrow {
    fn drop(&mut self) {
        let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        live.retain(|e| e.id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Addresses far from any real allocation, so other tests' borrows never meet them.
    const BASE: usize = usize::MAX - 4096;

    fn span(lo: usize, hi: usize) -> Option<Span> {
        Some(Span { lo: BASE + lo, hi: BASE + hi })
    }

    #[test]
    fn shared_borrows_coexist_and_exclusive_ones_exclude() {
        let a = acquire("t", &[(span(0, 16), Access::Shared)]).unwrap();
        let b = acquire("t", &[(span(8, 24), Access::Shared)]).unwrap();
        let err = acquire("t", &[(span(20, 30), Access::Exclusive)]).unwrap_err();
        assert_eq!(err.status, Status::Overlap);
        assert!(err.message.starts_with("t: cannot write"), "{}", err.message);
        let c = acquire("t", &[(span(24, 30), Access::Exclusive)]).unwrap();
        assert_eq!(acquire("t", &[(span(0, 30), Access::Shared)]).unwrap_err().status, Status::Overlap);
        drop((a, b, c));
        acquire("t", &[(span(0, 30), Access::Exclusive)]).unwrap();
    }

    #[test]
    fn one_call_may_read_and_write_overlapping_ranges() {
        let both = acquire("copy", &[(span(100, 200), Access::Exclusive), (span(150, 250), Access::Shared)]);
        let both = both.unwrap();
        assert!(acquire("t", &[(span(220, 230), Access::Shared)]).is_ok());
        assert!(acquire("t", &[(span(220, 230), Access::Exclusive)]).is_err());
        drop(both);
        assert!(acquire("t", &[(span(100, 250), Access::Exclusive)]).is_ok());
    }

    #[test]
    fn empty_tensors_borrow_nothing() {
        let held = acquire("t", &[(span(300, 400), Access::Exclusive)]).unwrap();
        assert!(acquire("t", &[(None, Access::Exclusive)]).is_ok());
        drop(held);
    }
}
