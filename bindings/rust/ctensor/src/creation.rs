//! PyTorch's factory functions that the C API composes: `ones`, `full`,
//! `arange` and `eye`, each a new contiguous, writable tensor.

use crate::dtype::{DType, Element, Kind};
use crate::error::{Error, Result, Status};
use crate::tensor::{IndexInt, Tensor};

impl Tensor {
    /// `torch.ones(sizes, dtype=dtype)`.
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// assert_eq!(Tensor::ones(DType::Int32, &[2, 2])?.to_vec::<i32>()?, [1, 1, 1, 1]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn ones(dtype: DType, sizes: &[i64]) -> Result<Tensor> {
        Tensor::full(dtype, sizes, true)
    }

    /// `torch.full(sizes, value, dtype=dtype)`: `value` (any element type, so an
    /// `i64` or a complex value stays exact) converted to `dtype` as
    /// [`Tensor::copy_from`] converts.
    ///
    /// ```
    /// use ctensor::{Complex, DType, Tensor};
    /// assert_eq!(Tensor::full(DType::Int64, &[2], i64::MAX)?.to_vec::<i64>()?, [i64::MAX; 2]);
    /// assert_eq!(Tensor::full(DType::UInt8, &[1], 2.9f64)?.to_vec::<u8>()?, [2]);
    /// let z = Tensor::full(DType::Complex64, &[1], Complex::new(1.0f64, -2.0))?;
    /// assert_eq!(z.to_vec::<Complex<f32>>()?, [Complex::new(1.0, -2.0)]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn full<T: Element>(dtype: DType, sizes: &[i64], value: T) -> Result<Tensor> {
        let t = Tensor::empty(dtype, sizes)?;
        t.copy_from(&Tensor::from_slice(&[value], &[])?)?;
        Ok(t)
    }

    /// `torch.arange(start, end, step)` of integers: `start, start + step, ...`
    /// up to `end` (excluded), as an `int64` tensor. `Err(Invalid)` for a step of
    /// 0 or one whose sign leads away from `end`.
    ///
    /// ```
    /// use ctensor::Tensor;
    /// assert_eq!(Tensor::arange(0, 10, 3)?.to_vec::<i64>()?, [0, 3, 6, 9]);
    /// assert_eq!(Tensor::arange(5usize, 0usize, -2)?.to_vec::<i64>()?, [5, 3, 1]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn arange(start: impl IndexInt, end: impl IndexInt, step: i64) -> Result<Tensor> {
        let (start, end) = (start.to_i64(), end.to_i64());
        check_arange(start as f64, end as f64, step as f64)?;
        // i128: the distance between two i64 always fits.
        let count = (i128::from(end) - i128::from(start) + i128::from(step) - i128::from(step.signum()))
            / i128::from(step);
        let count = i64::try_from(count.max(0)).map_err(|_| overflow(count))?;
        // Wrapping: every value lies between start and end, so the result is exact.
        filled(DType::Int64, count, |i| start.wrapping_add(i.wrapping_mul(step)))
    }

    /// `torch.arange(start, end, step, dtype=dtype)` for a float or complex
    /// `dtype`: `ceil((end - start) / step)` elements, element `i` computed as
    /// `start + i * step` in `f64` (PyTorch's accumulation type on the CPU) and
    /// converted to `dtype`. `Err(Invalid)` for a step of 0, a non-finite bound or
    /// a step whose sign leads away from `end`; `Err(DType)` for an integer or
    /// bool `dtype`, for which PyTorch truncates the bounds and the step in ways
    /// that depend on the dtype (use [`Tensor::arange`] and [`Tensor::to`]).
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// let t = Tensor::arange_f64(0.0, 1.0, 0.25, DType::Float32)?;
    /// assert_eq!(t.to_vec::<f32>()?, [0.0, 0.25, 0.5, 0.75]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn arange_f64(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
        if !matches!(dtype.kind(), Kind::Float | Kind::Complex) {
            return Err(Error::new(Status::DType, format!("arange_f64: dtype {dtype} is not a float or complex dtype")));
        }
        check_arange(start, end, step)?;
        let count = ((end - start) / step).ceil();
        if !(count < i64::MAX as f64) {
            return Err(overflow(count));
        }
        filled(DType::Float64, count.max(0.0) as i64, |i| start + i as f64 * step)?.to(dtype)
    }

    /// `torch.eye(n, m, dtype=dtype)`: an `n` x `m` tensor of zeros with ones on
    /// the main diagonal.
    ///
    /// ```
    /// use ctensor::{DType, Tensor};
    /// assert_eq!(Tensor::eye(2, 3, DType::Float64)?.to_vec::<f64>()?, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    /// # Ok::<(), ctensor::Error>(())
    /// ```
    pub fn eye(n: impl IndexInt, m: impl IndexInt, dtype: DType) -> Result<Tensor> {
        let (n, m) = (n.to_i64(), m.to_i64());
        let t = Tensor::zeros(dtype, &[n, m])?;
        // The diagonal as a view: min(n, m) elements, m + 1 apart.
        t.as_strided(&[n.min(m)], Some(&[m + 1]), 0)?.fill(1.0)?;
        Ok(t)
    }
}

/// A new 1-dim tensor of `count` elements, element `i` being `value(i)`; the
/// library allocates it, so a count too large is an `Err`, not an abort.
fn filled<T: Element>(dtype: DType, count: i64, value: impl Fn(i64) -> T) -> Result<Tensor> {
    let t = Tensor::empty(dtype, &[count])?;
    for (i, x) in t.as_slice_mut::<T>()?.iter_mut().enumerate() {
        *x = value(i as i64);
    }
    Ok(t)
}

/// PyTorch's checks of arange's arguments, with its wording.
fn check_arange(start: f64, end: f64, step: f64) -> Result<()> {
    if !start.is_finite() || !end.is_finite() {
        return Err(Error::new(Status::Invalid, format!("arange: unsupported range: {start} -> {end}")));
    }
    if step == 0.0 || !step.is_finite() {
        return Err(Error::new(Status::Invalid, format!("arange: step must be finite and nonzero, not {step}")));
    }
    if (step > 0.0 && end < start) || (step < 0.0 && end > start) {
        return Err(Error::new(
            Status::Invalid,
            format!("arange: the bounds {start} -> {end} are inconsistent with the sign of step {step}"),
        ));
    }
    Ok(())
}

fn overflow(count: impl std::fmt::Display) -> Error {
    Error::new(Status::Overflow, format!("arange: {count} elements do not fit in int64"))
}
