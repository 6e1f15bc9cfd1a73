// Prints float64 values as Go formats them: the bits, fmt %v,
// strconv.FormatFloat(f, 'g', -1, 64), encoding/json, and
// strconv.FormatFloat(f, 'g', -1, 32) of float32(f). Run with Go 1.19:
//
//	GOPATH=/tmp/gopath GOCACHE=/tmp/gocache go run gen.go > floats.tsv
//
// Tab-separated; a JSON error (NaN, Inf) is written as "!error".
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strconv"
)

func main() {
	r := rand.New(rand.NewSource(20240611))
	var vals []float64
	add := func(f float64) { vals = append(vals, f, -f) }
	// Fixed cases: the tie the bug report names, zero, specials, limits.
	for _, f := range []float64{-1651109404107626.25, 0, 1, 0.1, 1.5, 1e6, 1e21, 1e20, 1e-6, 1e-7, 1e-5, 1e-4, 0.0001, 999999, 999999.9, 123456.7,
		9.999999999999999e20, 1e22, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, 2.2250738585072014e-308, 1 << 53, 1<<53 + 2, 1 << 63,
		math.Inf(1), math.NaN(), 100, 0.000001, 0.0000012345, 1234567, 12345678.9, 3.14159} {
		add(f)
	}
	// Powers of ten and their neighbours: the exponent-form boundaries.
	for e := -30; e <= 30; e++ {
		p := math.Pow(10, float64(e))
		add(p)
		add(math.Nextafter(p, 0))
		add(math.Nextafter(p, math.Inf(1)))
	}
	// Ties: x.25 and x.75 with ulp 0.25 (2^50..2^51), x.125-style quarters
	// and halves near 2^52..2^54, where the shortest form has two equally
	// close candidates.
	for i := 0; i < 300; i++ {
		base := float64(1<<50) + float64(r.Int63n(1<<50))
		add(base + 0.25)
		add(base + 0.75)
	}
	for i := 0; i < 150; i++ {
		k := 49 + r.Intn(8)
		base := math.Ldexp(1, k) + float64(r.Int63n(1<<uint(k)))
		add(base + 0.5)
		add(base + math.Ldexp(1, k-52))
	}
	// Random bit patterns over the whole range.
	for i := 0; i < 700; i++ {
		add(math.Float64frombits(r.Uint64() &^ (1 << 63)))
	}
	// Random decimals of a few digits at every scale (short shortest forms).
	for i := 0; i < 300; i++ {
		d := r.Int63n(100000)
		e := r.Intn(60) - 30
		f, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", d, e), 64)
		add(f)
	}
	// Random float32 bit patterns widened to float64.
	for i := 0; i < 150; i++ {
		add(float64(math.Float32frombits(r.Uint32() &^ (1 << 31))))
	}
	for _, f := range vals {
		j, err := json.Marshal(f)
		js := string(j)
		if err != nil {
			js = "!error"
		}
		fmt.Printf("%016x\t%v\t%s\t%s\t%s\n", math.Float64bits(f), f, strconv.FormatFloat(f, 'g', -1, 64), js, strconv.FormatFloat(float64(float32(f)), 'g', -1, 32))
	}
}
