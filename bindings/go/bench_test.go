package ctensor_test

import (
	"testing"
	"time"

	"ctensor"
	"ctensor/internal/cbench"
)

// BenchmarkViewOverhead is the cost of one Transpose+Close from Go, against
// the same view made and released in a C loop and by one bare cgo call each,
// all measured in this run: go-ns/view, c-ns/view, cgo-ns/view, and the
// ratios go/c and overhead-ns/view (go minus c).
func BenchmarkViewOverhead(b *testing.B) {
	x := must[*ctensor.Tensor](b)(ctensor.Zeros(ctensor.Float32, 64, 64))
	defer x.Close()
	m := cbench.NewMatrix()
	defer m.Close()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		v, err := x.Transpose(0, 1)
		if err != nil {
			b.Fatal(err)
		}
		v.Close()
	}
	goNs := float64(time.Since(start).Nanoseconds()) / float64(b.N)
	b.StopTimer()
	cNs := float64(m.CLoop(b.N).Nanoseconds()) / float64(b.N)
	cgoNs := float64(m.CgoEach(b.N).Nanoseconds()) / float64(b.N)
	b.ReportMetric(goNs, "go-ns/view")
	b.ReportMetric(cNs, "c-ns/view")
	b.ReportMetric(cgoNs, "cgo-ns/view")
	b.ReportMetric(goNs-cNs, "overhead-ns/view")
	b.ReportMetric(goNs/cNs, "go/c")
}

// BenchmarkViewLeftToCleanup is Transpose without Close: the cleanups release.
func BenchmarkViewLeftToCleanup(b *testing.B) {
	x := must[*ctensor.Tensor](b)(ctensor.Zeros(ctensor.Float32, 64, 64))
	defer x.Close()
	for range b.N {
		if _, err := x.Transpose(0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkViewParallel is Transpose+Close of one shared tensor from GOMAXPROCS goroutines.
func BenchmarkViewParallel(b *testing.B) {
	x := must[*ctensor.Tensor](b)(ctensor.Zeros(ctensor.Float32, 64, 64))
	defer x.Close()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			v, err := x.Transpose(0, 1)
			if err != nil {
				b.Error(err)
				return
			}
			v.Close()
		}
	})
}
