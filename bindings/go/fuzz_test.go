package ctensor_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"ctensor"
)

// A pure-Go model of the layout rules (PyTorch 1.13's, with NumPy's negative
// slice steps), checked against the library on view chains drawn from the
// fuzzer's bytes: sizes, strides, offset, contiguity and status of every step,
// and the elements at the end.

// model is a tensor: its storage's elements and its layout over them.
type model struct {
	storage        []int64
	sizes, strides []int64
	offset         int64
}

// errModel is a step the model refuses, with the status the library must give.
type errModel ctensor.Status

func (e errModel) Error() string { return ctensor.Status(e).String() }

const (
	invalid  = errModel(ctensor.StatusInvalid)
	bounds   = errModel(ctensor.StatusBounds)
	shape    = errModel(ctensor.StatusShape)
	stride   = errModel(ctensor.StatusStride)
	overflow = errModel(ctensor.StatusOverflow)
)

func (m model) ndim() int64 { return int64(len(m.sizes)) }

func numel(sizes []int64) int64 {
	n := int64(1)
	for _, s := range sizes {
		n *= s
	}
	return n
}

// numelFits says whether the number of elements of sizes fits in int64 (a 0
// among the sizes means no elements, whatever the others are).
func numelFits(sizes []int64) bool {
	if slices.Contains(sizes, 0) {
		return true
	}
	n := int64(1)
	for _, s := range sizes {
		if n > math.MaxInt64/s {
			return false
		}
		n *= s
	}
	return true
}

func contiguousStrides(sizes []int64) []int64 {
	st := make([]int64, len(sizes))
	acc := int64(1)
	for d := len(sizes) - 1; d >= 0; d-- {
		st[d] = acc
		acc *= max(sizes[d], 1)
	}
	return st
}

func (m model) isContiguous() bool {
	if numel(m.sizes) == 0 {
		return true
	}
	expected := int64(1)
	for d := len(m.sizes) - 1; d >= 0; d-- {
		if m.sizes[d] == 1 {
			continue
		}
		if m.strides[d] != expected {
			return false
		}
		expected *= m.sizes[d]
	}
	return true
}

// elements are m's values in C order.
func (m model) elements() []int64 {
	n := numel(m.sizes)
	out := make([]int64, 0, n)
	index := make([]int64, len(m.sizes))
	for range n {
		pos := m.offset
		for d, i := range index {
			pos += i * m.strides[d]
		}
		out = append(out, m.storage[pos])
		for d := len(index) - 1; d >= 0; d-- {
			if index[d]++; index[d] < m.sizes[d] {
				break
			}
			index[d] = 0
		}
	}
	return out
}

func (m model) copied() model {
	return model{storage: m.elements(), sizes: slices.Clone(m.sizes), strides: contiguousStrides(m.sizes)}
}

func (m model) with(sizes, strides []int64, offset int64) model {
	return model{storage: m.storage, sizes: sizes, strides: strides, offset: offset}
}

func wrapDim(dim, n int64) (int64, error) {
	r := max(n, 1)
	if dim < -r || dim >= r {
		return 0, invalid
	}
	if dim < 0 {
		dim += r
	}
	return dim, nil
}

func (m model) transpose(d0, d1 int64) (model, error) {
	a, err := wrapDim(d0, m.ndim())
	if err != nil {
		return m, err
	}
	b, err := wrapDim(d1, m.ndim())
	if err != nil || m.ndim() == 0 {
		return m, err
	}
	sz, st := slices.Clone(m.sizes), slices.Clone(m.strides)
	sz[a], sz[b] = sz[b], sz[a]
	st[a], st[b] = st[b], st[a]
	return m.with(sz, st, m.offset), nil
}

func (m model) permute(dims []int64) (model, error) {
	if int64(len(dims)) != m.ndim() {
		return m, invalid
	}
	seen := map[int64]bool{}
	var sz, st []int64
	for _, d := range dims {
		w, err := wrapDim(d, m.ndim())
		if err != nil || seen[w] {
			return m, invalid
		}
		seen[w] = true
		sz, st = append(sz, m.sizes[w]), append(st, m.strides[w])
	}
	return m.with(sz, st, m.offset), nil
}

func adjustBound(b, length, step int64) int64 {
	if b < 0 {
		if b += length; b < 0 {
			b = 0
			if step < 0 {
				b = -1
			}
		}
	} else if b >= length {
		b = length
		if step < 0 {
			b = length - 1
		}
	}
	return b
}

func (m model) slice(dim, start, stop, step int64) (model, error) {
	if m.ndim() == 0 {
		return m, invalid
	}
	d, err := wrapDim(dim, m.ndim())
	if err != nil || step == 0 {
		return m, invalid
	}
	length := m.sizes[d]
	start, stop = adjustBound(start, length, step), adjustBound(stop, length, step)
	count := int64(0)
	if step > 0 && start < stop {
		count = (stop-start-1)/step + 1
	}
	if step < 0 && stop < start {
		count = (start-stop-1)/-step + 1
	}
	sz, st, off := slices.Clone(m.sizes), slices.Clone(m.strides), m.offset
	sz[d] = count
	if count > 0 || step > 0 {
		off += start * st[d]
		st[d] *= step
	}
	return m.with(sz, st, off), nil
}

func (m model) selectIndex(dim, index int64) (model, error) {
	if m.ndim() == 0 {
		return m, invalid
	}
	d, err := wrapDim(dim, m.ndim())
	if err != nil {
		return m, err
	}
	size := m.sizes[d]
	if index < -size || index >= size {
		return m, bounds
	}
	if index < 0 {
		index += size
	}
	return m.with(slices.Delete(slices.Clone(m.sizes), int(d), int(d)+1),
		slices.Delete(slices.Clone(m.strides), int(d), int(d)+1), m.offset+index*m.strides[d]), nil
}

func (m model) narrow(dim, start, length int64) (model, error) {
	if m.ndim() == 0 {
		return m, invalid
	}
	d, err := wrapDim(dim, m.ndim())
	if err != nil {
		return m, err
	}
	size := m.sizes[d]
	if start != size {
		r := max(size, 1)
		if start < -r || start >= r {
			return m, bounds
		}
		if start < 0 {
			start += r
		}
	}
	if length < 0 {
		return m, invalid
	}
	if length > size-start {
		return m, bounds
	}
	sz := slices.Clone(m.sizes)
	sz[d] = length
	return m.with(sz, slices.Clone(m.strides), m.offset+start*m.strides[d]), nil
}

func (m model) expand(target []int64) (model, error) {
	n, k := m.ndim(), int64(len(target))
	if k > ctensor.MaxDims {
		return m, invalid
	}
	if k < n {
		return m, shape
	}
	sz, st := make([]int64, k), make([]int64, k)
	for i := k - 1; i >= 0; i-- {
		d := n - k + i
		size, str := int64(1), int64(0)
		if d >= 0 {
			size, str = m.sizes[d], m.strides[d]
		} else if n > 0 {
			str = sz[i+1] * st[i+1]
		}
		want := target[i]
		if want == -1 {
			if d < 0 {
				return m, shape
			}
			want = size
		}
		if size != want {
			if size != 1 {
				return m, shape
			}
			size, str = want, 0
		}
		sz[i], st[i] = size, str
	}
	if !numelFits(sz) {
		return m, overflow
	}
	return m.with(sz, st, m.offset), nil
}

func (m model) squeeze(dim int64) (model, error) {
	only := int64(-1)
	if dim != ctensor.AllDims {
		d, err := wrapDim(dim, m.ndim())
		if err != nil {
			return m, err
		}
		only = d
	}
	var sz, st []int64
	for i := range m.ndim() {
		if m.sizes[i] == 1 && (only < 0 || only == i) {
			continue
		}
		sz, st = append(sz, m.sizes[i]), append(st, m.strides[i])
	}
	return m.with(sz, st, m.offset), nil
}

func (m model) unsqueeze(dim int64) (model, error) {
	n := m.ndim()
	if n >= ctensor.MaxDims || dim < -(n+1) || dim > n {
		return m, invalid
	}
	if dim < 0 {
		dim += n + 1
	}
	str := int64(1)
	if dim < n {
		str = m.sizes[dim] * m.strides[dim]
	}
	return m.with(slices.Insert(slices.Clone(m.sizes), int(dim), 1),
		slices.Insert(slices.Clone(m.strides), int(dim), str), m.offset), nil
}

// inferSize resolves one -1 in sizes against m's element count.
func (m model) inferSize(sizes []int64) ([]int64, error) {
	out, inferred, product := slices.Clone(sizes), -1, int64(1)
	for i, s := range sizes {
		if s == -1 {
			if inferred >= 0 {
				return nil, shape
			}
			inferred = i
		} else {
			product *= s
		}
	}
	n := numel(m.sizes)
	if n == product || (inferred >= 0 && product > 0 && n%product == 0) {
		if inferred >= 0 {
			if product == 0 {
				return nil, shape
			}
			out[inferred] = n / product
		}
		return out, nil
	}
	return nil, shape
}

// viewStrides is PyTorch's computeStride: strides for viewing m with sizes, or false.
func (m model) viewStrides(sizes []int64) ([]int64, bool) {
	st := make([]int64, len(sizes))
	if m.ndim() == 0 {
		for i := range st {
			st[i] = 1
		}
		return st, true
	}
	if numel(m.sizes) == 0 {
		if slices.Equal(sizes, m.sizes) {
			return slices.Clone(m.strides), true
		}
		return contiguousStrides(sizes), true
	}
	viewD := len(sizes) - 1
	chunkBase := m.strides[m.ndim()-1]
	tensorNumel, viewNumel := int64(1), int64(1)
	for d := m.ndim() - 1; d >= 0; d-- {
		tensorNumel *= m.sizes[d]
		if d == 0 || (m.sizes[d-1] != 1 && tensorNumel*chunkBase != m.strides[d-1]) {
			for viewD >= 0 && (viewNumel < tensorNumel || sizes[viewD] == 1) {
				st[viewD] = viewNumel * chunkBase
				viewNumel *= sizes[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if d > 0 {
				chunkBase, tensorNumel, viewNumel = m.strides[d-1], 1, 1
			}
		}
	}
	return st, viewD == -1
}

func (m model) view(sizes []int64, copyIfNeeded bool) (model, error) {
	sz, err := m.inferSize(sizes)
	if err != nil {
		return m, err
	}
	if st, ok := m.viewStrides(sz); ok {
		return m.with(sz, st, m.offset), nil
	}
	if !copyIfNeeded {
		return m, stride
	}
	c := m.copied()
	return c.with(sz, contiguousStrides(sz), 0), nil
}

func (m model) flatten(start, end int64) (model, error) {
	s, err := wrapDim(start, m.ndim())
	if err != nil {
		return m, err
	}
	e, err := wrapDim(end, m.ndim())
	if err != nil || s > e {
		return m, invalid
	}
	if m.ndim() == 0 {
		return m.view([]int64{1}, true)
	}
	if s == e {
		return m, nil
	}
	sz := slices.Concat(m.sizes[:s], []int64{numel(m.sizes[s : e+1])}, m.sizes[e+1:])
	return m.view(sz, true)
}

func (m model) asStrided(sizes, strides []int64, offset int64) (model, error) {
	if numel(sizes) > 0 {
		lo, hi := offset, offset
		for i, s := range sizes {
			span := (s - 1) * strides[i]
			if span < 0 {
				lo += span
			} else {
				hi += span
			}
		}
		if lo < 0 || hi >= int64(len(m.storage)) {
			return m, bounds
		}
	}
	return m.with(slices.Clone(sizes), slices.Clone(strides), offset), nil
}

// indexItem is one item of basic indexing in the model: kind as ctensor's
// (0 int, 1 slice, 2 new axis, 3 ellipsis, 4 bool) and its numbers.
type indexItem struct {
	kind int
	v    [3]int64
}

func (it indexItem) item() ctensor.IndexItem {
	switch it.kind {
	case 0:
		return ctensor.IndexInt(it.v[0])
	case 1:
		return ctensor.IndexSlice(it.v[0], it.v[1], it.v[2])
	case 2:
		return ctensor.NewAxis
	case 3:
		return ctensor.Ellipsis
	}
	return ctensor.IndexBool(it.v[0] != 0)
}

// index is the chain of select/slice/unsqueeze that basic indexing stands for.
func (m model) index(items []indexItem) (model, error) {
	named := int64(0)
	for _, it := range items {
		if it.kind <= 1 {
			named++
		}
	}
	if named > m.ndim() {
		return m, invalid
	}
	cur, dim, err := m, int64(0), error(nil)
	for _, it := range items {
		switch it.kind {
		case 0:
			cur, err = cur.selectIndex(dim, it.v[0])
		case 1:
			cur, err = cur.slice(dim, it.v[0], it.v[1], it.v[2])
			dim++
		case 2:
			cur, err = cur.unsqueeze(dim)
			dim++
		case 3:
			dim += m.ndim() - named
		case 4:
			if cur, err = cur.unsqueeze(dim); err == nil && it.v[0] == 0 {
				cur, err = cur.slice(dim, 0, 0, 1)
			}
			dim++
		}
		if err != nil {
			return m, err
		}
	}
	return cur, nil
}

func (m model) contiguous() (model, error) {
	if m.isContiguous() {
		return m, nil
	}
	return m.copied(), nil
}

// byteReader hands out the fuzzer's bytes, then zeros.
type byteReader struct{ data []byte }

func (r *byteReader) next() int64 {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return int64(b)
}

// dim is a dim argument for n dims, out of range now and then.
func (r *byteReader) dim(n int64) int64 { return r.next()%(2*n+4) - (n + 2) }

// bound is a slice bound: small, negative or an open end.
func (r *byteReader) bound() int64 {
	switch b := r.next() % 16; b {
	case 14:
		return ctensor.SliceEnd
	case 15:
		return ctensor.SliceStart
	default:
		return b - 7
	}
}

// shapeFor is sizes with n elements (or, now and then, a wrong count or a -1).
func (r *byteReader) shapeFor(n int64) []int64 {
	k := r.next() % 4
	sizes := make([]int64, 0, k+1)
	rest := n
	for range k {
		var divisors []int64
		for d := int64(0); d <= max(rest, 1); d++ {
			if (rest == 0 && d <= 3) || (d > 0 && rest%d == 0) {
				divisors = append(divisors, d)
			}
		}
		d := divisors[r.next()%int64(len(divisors))]
		sizes = append(sizes, d)
		if d != 0 {
			rest /= d
		}
	}
	if rest != 0 || k == 0 || r.next()%2 == 0 {
		sizes = append(sizes, rest)
	}
	switch r.next() % 6 {
	case 0:
		sizes[r.next()%int64(len(sizes))] = -1
	case 1:
		sizes[r.next()%int64(len(sizes))]++
	}
	return sizes
}

const maxFuzzElements = 4096 // keeps expanded chains small enough to copy

// step applies one op drawn from r to both the tensor and the model.
func step(r *byteReader, x *ctensor.Tensor, m model) (string, *ctensor.Tensor, model, error, bool) {
	n := m.ndim()
	var (
		name string
		got  *ctensor.Tensor
		err  error
		want model
		werr error
	)
	switch r.next() % 15 {
	case 0:
		d0, d1 := r.dim(n), r.dim(n)
		name = fmt.Sprintf("transpose(%d, %d)", d0, d1)
		got, err = x.Transpose(d0, d1)
		want, werr = m.transpose(d0, d1)
	case 1:
		k := n
		if r.next()%8 == 0 {
			k++
		}
		dims := make([]int64, k)
		for i := range dims {
			dims[i] = r.dim(n)
		}
		if r.next()%2 == 0 { // mostly a real permutation
			for i := range dims {
				dims[i] = int64(i)
			}
			for i := len(dims) - 1; i > 0; i-- {
				j := r.next() % int64(i+1)
				dims[i], dims[j] = dims[j], dims[i]
			}
		}
		name = fmt.Sprintf("permute(%v)", dims)
		got, err = x.Permute(dims...)
		want, werr = m.permute(dims)
	case 2:
		d, start, stop, stp := r.dim(n), r.bound(), r.bound(), r.next()%7-3
		name = fmt.Sprintf("slice(%d, %d, %d, %d)", d, start, stop, stp)
		got, err = x.Slice(d, start, stop, stp)
		want, werr = m.slice(d, start, stop, stp)
	case 3:
		d, i := r.dim(n), r.next()%9-4
		name = fmt.Sprintf("select(%d, %d)", d, i)
		got, err = x.Select(d, i)
		want, werr = m.selectIndex(d, i)
	case 4:
		d, start, length := r.dim(n), r.next()%9-4, r.next()%6-1
		name = fmt.Sprintf("narrow(%d, %d, %d)", d, start, length)
		got, err = x.Narrow(d, start, length)
		want, werr = m.narrow(d, start, length)
	case 5:
		k := n + r.next()%3
		if r.next()%8 == 0 {
			k = max(n-1, 0)
		}
		sizes := make([]int64, k)
		for i := range sizes {
			switch j := int64(i) - (k - n); {
			case r.next()%3 == 0:
				sizes[i] = -1
			case j >= 0 && m.sizes[j] != 1 && r.next()%4 != 0:
				sizes[i] = m.sizes[j]
			default:
				sizes[i] = r.next() % 4
			}
		}
		name = fmt.Sprintf("expand(%v)", sizes)
		want, werr = m.expand(sizes)
		if werr == nil && numel(want.sizes) > maxFuzzElements {
			return name, nil, m, nil, false
		}
		got, err = x.Expand(sizes...)
	case 6:
		d := r.dim(n)
		if r.next()%3 == 0 {
			d = ctensor.AllDims
		}
		name = fmt.Sprintf("squeeze(%d)", d)
		got, err = x.Squeeze(d)
		want, werr = m.squeeze(d)
	case 7:
		d := r.dim(n)
		name = fmt.Sprintf("unsqueeze(%d)", d)
		got, err = x.Unsqueeze(d)
		want, werr = m.unsqueeze(d)
	case 8, 9:
		sizes := r.shapeFor(numel(m.sizes))
		reshape := r.next()%2 == 0
		name = fmt.Sprintf("view(%v)", sizes)
		if reshape {
			name = fmt.Sprintf("reshape(%v)", sizes)
			got, err = x.Reshape(sizes...)
		} else {
			got, err = x.View(sizes...)
		}
		want, werr = m.view(sizes, reshape)
	case 10:
		s, e := r.dim(n), r.dim(n)
		name = fmt.Sprintf("flatten(%d, %d)", s, e)
		got, err = x.Flatten(s, e)
		want, werr = m.flatten(s, e)
	case 11:
		k := r.next() % 4
		sizes, strides := make([]int64, k), make([]int64, k)
		for i := range sizes {
			sizes[i], strides[i] = r.next()%4, r.next()%7-3
		}
		off := r.next() % int64(len(m.storage)+2)
		name = fmt.Sprintf("as_strided(%v, %v, %d)", sizes, strides, off)
		got, err = x.AsStrided(sizes, strides, off)
		want, werr = m.asStrided(sizes, strides, off)
	case 12:
		name = "contiguous()"
		got, err = x.Contiguous()
		want, werr = m.contiguous()
	case 13:
		name = "clone()"
		got, err = x.Clone()
		want, werr = m.copied(), nil
	case 14:
		items := make([]indexItem, r.next()%5)
		args := make([]ctensor.IndexItem, len(items))
		for i := range items {
			it := indexItem{kind: int(r.next() % 5)}
			switch it.kind {
			case 0:
				it.v[0] = r.next()%9 - 4
			case 1:
				it.v = [3]int64{r.bound(), r.bound(), r.next()%7 - 3}
			case 4:
				it.v[0] = r.next() % 2
			}
			items[i], args[i] = it, it.item()
		}
		name = fmt.Sprintf("index(%v)", items)
		got, err = x.Index(args...)
		want, werr = m.index(items)
	}
	return name, got, want, compareStatus(err, werr), true
}

// compareStatus is nil when the library and the model agree on success or status.
func compareStatus(got, want error) error {
	var e *ctensor.Error
	var w errModel
	switch {
	case got == nil && want == nil:
		return nil
	case got == nil:
		return fmt.Errorf("succeeded, the model expects %v", want)
	case !errors.As(got, &e):
		return fmt.Errorf("error %v is not an *Error", got)
	case e.Message == "":
		return fmt.Errorf("%v without a message", e.Status)
	case want == nil:
		return fmt.Errorf("failed (%v), the model expects success", got)
	case errors.As(want, &w) && e.Status != ctensor.Status(w):
		return fmt.Errorf("failed with %v, the model expects %v", got, ctensor.Status(w))
	}
	return nil
}

func FuzzViewChain(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		ndim := r.next() % 4
		sizes := make([]int64, ndim)
		for i := range sizes {
			sizes[i] = []int64{1, 2, 3, 4, 0}[r.next()%5]
		}
		x := arange(t, sizes...)
		m := model{storage: valuesOf(t, x), sizes: sizes, strides: contiguousStrides(sizes)}
		chain := fmt.Sprint("arange", sizes)
		for i := 0; i < 24 && len(r.data) > 0; i++ {
			name, next, want, mismatch, ran := step(r, x, m)
			if !ran {
				continue
			}
			chain += "." + name
			if mismatch != nil {
				t.Fatalf("%s: %v", chain, mismatch)
			}
			if next == nil {
				continue // both refused: keep x
			}
			x.Close()
			x, m = next, want
			if !slices.Equal(x.Sizes(), m.sizes) || !slices.Equal(x.Strides(), m.strides) ||
				x.StorageOffset() != m.offset || x.IsContiguous() != m.isContiguous() {
				t.Fatalf("%s: got %v (contiguous %v), the model has sizes %v strides %v offset %d (contiguous %v)",
					chain, x, x.IsContiguous(), m.sizes, m.strides, m.offset, m.isContiguous())
			}
		}
		defer x.Close()
		if got, want := valuesOf(t, x), m.elements(); !slices.Equal(got, want) {
			t.Fatalf("%s: elements %v, the model's %v", chain, got, want)
		}
	})
}
