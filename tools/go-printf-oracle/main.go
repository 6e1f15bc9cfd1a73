// go-printf-oracle fills in what real Go fmt prints for the cases of
// releasex's fmt conformance table (tests/data/go/printf*.json), which
// src/go/printf.rs's unit test compares with byte for byte. It is a
// developer tool, not a test dependency: the table keeps what it wrote.
//
// Build it with Debian's Go (no module download):
//
//	GO111MODULE=off go run ./tools/go-printf-oracle tests/data/go/printf.json
//	GO111MODULE=off go run ./tools/go-printf-oracle -generate 700 -seed 19 tests/data/go/printf.json
//
// Each file is a JSON array of cases:
//
//	{"name": "...", "func": "sprintf" | "sprint" | "sprintln",
//	 "format": "%5.2f", "args": [ARG...], "go": {"output": "...", "hex": "..."}}
//
// "func" defaults to sprintf. "hex" is there only when the output is not
// UTF-8 (JSON cannot hold it). An ARG is a typed Go value:
//
//	{"t": "nil"}                                  nil interface{}
//	{"t": "bool" | "string" | "int" ... "uintptr" | "float32" | "float64", "v": V}
//	    (a float's V may be "NaN", "+Inf", "-Inf", "-0")
//	{"t": "[]byte", "v": "text"} or {"t": "[]byte", "hex": "ff00"}
//	{"t": "[]interface {}" | "[]string" | "[]int" ..., "v": [ARG...]}
//	{"t": "map[K]E", "v": [[ARG, ARG]...]}        K, E: a basic type or interface {}
//	{"t": "struct", "v": [["Name", ARG]...]}      a struct of interface{} fields
//	{"t": "ptr", "v": ARG}                        a pointer to a list, map or struct
//	{"t": "json", "v": JSON}                      JSON as encoding/json decodes it into interface{}
//	{"t": "time.Time", "v": RFC3339, "text": String(), "gostring": GoString()}
//	    (text and gostring are for releasex, which does not compute them;
//	     the tool checks them)
//
// -generate N -seed S replaces the cases named "gen/..." with N cases drawn
// from verbs x flags x widths x precisions x value types.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"
)

var basic = map[string]reflect.Type{
	"bool": reflect.TypeOf(false), "string": reflect.TypeOf(""),
	"int": reflect.TypeOf(int(0)), "int8": reflect.TypeOf(int8(0)), "int16": reflect.TypeOf(int16(0)),
	"int32": reflect.TypeOf(int32(0)), "int64": reflect.TypeOf(int64(0)),
	"uint": reflect.TypeOf(uint(0)), "uint8": reflect.TypeOf(uint8(0)), "uint16": reflect.TypeOf(uint16(0)),
	"uint32": reflect.TypeOf(uint32(0)), "uint64": reflect.TypeOf(uint64(0)), "uintptr": reflect.TypeOf(uintptr(0)),
	"float32": reflect.TypeOf(float32(0)), "float64": reflect.TypeOf(float64(0)),
	"interface {}": reflect.TypeOf((*interface{})(nil)).Elem(),
	"[]uint8":      reflect.TypeOf([]byte(nil)),
}

func typeOf(name string) reflect.Type {
	if t, ok := basic[name]; ok {
		return t
	}
	if strings.HasPrefix(name, "[]") {
		return reflect.SliceOf(typeOf(name[2:]))
	}
	if strings.HasPrefix(name, "map[") {
		k, e := splitMap(name)
		return reflect.MapOf(typeOf(k), typeOf(e))
	}
	panic("unknown type " + name)
}

func splitMap(name string) (string, string) {
	close := strings.Index(name, "]")
	return name[4:close], name[close+1:]
}

type arg struct {
	T        string          `json:"t"`
	V        json.RawMessage `json:"v,omitempty"`
	Hex      string          `json:"hex,omitempty"`
	Text     string          `json:"text,omitempty"`
	GoString string          `json:"gostring,omitempty"`
}

func number(raw json.RawMessage) json.Number {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	switch x := v.(type) {
	case json.Number:
		return x
	case string:
		return json.Number(x)
	}
	panic(fmt.Sprint("not a number: ", string(raw)))
}

func float(raw json.RawMessage) float64 {
	n := number(raw)
	switch n {
	case "NaN":
		return math.NaN()
	case "+Inf":
		return math.Inf(1)
	case "-Inf":
		return math.Inf(-1)
	case "-0":
		return math.Copysign(0, -1)
	}
	f, err := n.Float64()
	if err != nil {
		panic(err)
	}
	return f
}

// build makes the Go value an ARG describes.
func build(a arg) interface{} {
	switch a.T {
	case "nil":
		return nil
	case "bool":
		var b bool
		json.Unmarshal(a.V, &b)
		return b
	case "string":
		var s string
		json.Unmarshal(a.V, &s)
		return s
	case "float64":
		return float(a.V)
	case "float32":
		return float32(float(a.V))
	case "[]byte":
		if a.Hex != "" {
			b, err := hex.DecodeString(a.Hex)
			if err != nil {
				panic(err)
			}
			return b
		}
		var s string
		json.Unmarshal(a.V, &s)
		return []byte(s)
	case "json":
		var x interface{}
		if err := json.Unmarshal(a.V, &x); err != nil {
			panic(err)
		}
		return x
	case "time.Time":
		var s string
		json.Unmarshal(a.V, &s)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			panic(err)
		}
		if t.String() != a.Text || t.GoString() != a.GoString {
			panic(fmt.Sprintf("time %s: text %q gostring %q, not %q %q", s, t.String(), t.GoString(), a.Text, a.GoString))
		}
		return t
	case "struct":
		var fields [][2]json.RawMessage
		if err := json.Unmarshal(a.V, &fields); err != nil {
			panic(err)
		}
		var sf []reflect.StructField
		var vals []interface{}
		for _, f := range fields {
			var name string
			json.Unmarshal(f[0], &name)
			var fa arg
			json.Unmarshal(f[1], &fa)
			sf = append(sf, reflect.StructField{Name: name, Type: basic["interface {}"]})
			vals = append(vals, build(fa))
		}
		v := reflect.New(reflect.StructOf(sf)).Elem()
		for i, x := range vals {
			set(v.Field(i), x)
		}
		return v.Interface()
	case "ptr":
		var target arg
		json.Unmarshal(a.V, &target)
		x := build(target)
		p := reflect.New(reflect.TypeOf(x))
		p.Elem().Set(reflect.ValueOf(x))
		return p.Interface()
	}
	t := typeOf(a.T)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := number(a.V).Int64()
		if err != nil {
			panic(err)
		}
		v := reflect.New(t).Elem()
		if v.OverflowInt(i) {
			panic(fmt.Sprint(i, " overflows ", t))
		}
		v.SetInt(i)
		return v.Interface()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		var u uint64
		if err := json.Unmarshal([]byte(number(a.V)), &u); err != nil {
			panic(err)
		}
		v := reflect.New(t).Elem()
		if v.OverflowUint(u) {
			panic(fmt.Sprint(u, " overflows ", t))
		}
		v.SetUint(u)
		return v.Interface()
	case reflect.Slice:
		var items []arg
		if err := json.Unmarshal(a.V, &items); err != nil {
			panic(err)
		}
		s := reflect.MakeSlice(t, len(items), len(items))
		for i, it := range items {
			set(s.Index(i), build(it))
		}
		return s.Interface()
	case reflect.Map:
		var entries [][2]arg
		if err := json.Unmarshal(a.V, &entries); err != nil {
			panic(err)
		}
		m := reflect.MakeMap(t)
		for _, e := range entries {
			k := reflect.New(t.Key()).Elem()
			set(k, build(e[0]))
			v := reflect.New(t.Elem()).Elem()
			set(v, build(e[1]))
			m.SetMapIndex(k, v)
		}
		return m.Interface()
	}
	panic("unknown type " + a.T)
}

func set(dst reflect.Value, v interface{}) {
	if v == nil {
		return // the zero value: a nil interface{}
	}
	dst.Set(reflect.ValueOf(v))
}

type result struct {
	Output string `json:"output"`
	Hex    string `json:"hex,omitempty"`
}

func run(c map[string]json.RawMessage) result {
	var fn, format string
	json.Unmarshal(c["func"], &fn)
	json.Unmarshal(c["format"], &format)
	var specs []arg
	if raw, ok := c["args"]; ok {
		if err := json.Unmarshal(raw, &specs); err != nil {
			panic(err)
		}
	}
	args := make([]interface{}, len(specs))
	for i, s := range specs {
		args[i] = build(s)
	}
	var out string
	switch fn {
	case "", "sprintf":
		out = fmt.Sprintf(format, args...)
	case "sprint":
		out = fmt.Sprint(args...)
	case "sprintln":
		out = fmt.Sprintln(args...)
	default:
		panic("unknown func " + fn)
	}
	r := result{Output: out}
	if !utf8.ValidString(out) {
		r.Hex = hex.EncodeToString([]byte(out))
	}
	return r
}

func main() {
	n := flag.Int("generate", 0, "replace the gen/ cases with this many generated ones")
	seed := flag.Int64("seed", 19, "the generator's seed")
	flag.Parse()
	for _, file := range flag.Args() {
		text, err := os.ReadFile(file)
		if err != nil {
			panic(err)
		}
		var cases []map[string]json.RawMessage
		if err := json.Unmarshal(text, &cases); err != nil {
			panic(fmt.Sprint(file, ": ", err))
		}
		if *n > 0 {
			kept := cases[:0]
			for _, c := range cases {
				var name string
				json.Unmarshal(c["name"], &name)
				if !strings.HasPrefix(name, "gen/") {
					kept = append(kept, c)
				}
			}
			cases = append(kept, generate(*n, *seed)...)
		}
		for _, c := range cases {
			var r bytes.Buffer
			e := json.NewEncoder(&r)
			e.SetEscapeHTML(false)
			e.Encode(run(c))
			c["go"] = bytes.TrimSpace(r.Bytes())
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(cases)
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			panic(err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d cases\n", file, len(cases))
	}
}

// ---- the generated block ----

func raw(v interface{}) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func pick(r *rand.Rand, xs ...string) string { return xs[r.Intn(len(xs))] }

func genInt(r *rand.Rand) arg {
	t := pick(r, "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr")
	bits := map[string]uint{"int8": 8, "int16": 16, "int32": 32, "uint8": 8, "uint16": 16, "uint32": 32}[t]
	if bits == 0 {
		bits = 64
	}
	var v string
	signed := t[0] == 'i'
	// fits: whether a small value or code point is in the type's range.
	fits := func(x int64) bool {
		return bits == 64 || signed && x < int64(1)<<(bits-1) || !signed && x < int64(1)<<bits
	}
	choose := func(xs ...int64) string {
		for {
			if x := xs[r.Intn(len(xs))]; fits(x) {
				return fmt.Sprint(x)
			}
		}
	}
	switch r.Intn(5) {
	case 0:
		v = choose(0, 1, 7, 10, 65, 100, 233)
	case 1: // the extremes
		if signed {
			if r.Intn(2) == 0 {
				v = fmt.Sprint(int64(1)<<(bits-1) - 1)
			} else {
				v = fmt.Sprint(-(int64(1) << (bits - 1)))
			}
		} else {
			v = fmt.Sprint(uint64(1)<<(bits-1) - 1 + uint64(1)<<(bits-1))
		}
	case 2: // a code point
		v = choose(120, 233, 9731, 128512, 1114111, 1114112, 55296, 7, 127)
	default:
		x := r.Int63n(1 << (r.Intn(int(bits-1))%62 + 1))
		if signed && r.Intn(2) == 0 {
			x = -x
		}
		v = fmt.Sprint(x)
	}
	return arg{T: t, V: raw(json.Number(v))}
}

func genFloat(r *rand.Rand) arg {
	t := pick(r, "float64", "float64", "float32")
	var v interface{}
	switch r.Intn(8) {
	case 0:
		v = pick(r, "NaN", "+Inf", "-Inf", "-0", "0")
	case 1:
		v = json.Number(pick(r, "1", "0.5", "2.5", "-1.5", "1e6", "123456", "1234567", "1e21", "1e-5", "0.0001", "5e-324", "1.7976931348623157e308", "3.4028235e38", "1.401298464324817e-45"))
	case 2:
		v = json.Number(fmt.Sprint(r.Intn(100000)) + "." + fmt.Sprint(r.Intn(1000)))
	case 3:
		v = json.Number(fmt.Sprintf("%de%d", r.Intn(1000)-500, r.Intn(80)-40))
	default:
		f := r.NormFloat64() * math.Pow(10, float64(r.Intn(30)-15))
		if t == "float32" {
			f = float64(float32(f))
		}
		v = json.Number(fmt.Sprint(f))
	}
	return arg{T: t, V: raw(v)}
}

var strs = []string{"", "a", "hello", "héllo wörld", "tab\there", "line\nbreak", "quote\"s", "back`tick", "\x00\x7f", "日本語", "emoji 😀", "\u00a0nbsp", "\ufeffbom", "a\\b", "%d", "  spaced  ", "é"}

func genValue(r *rand.Rand, depth int) arg {
	k := r.Intn(10)
	if depth > 1 && k >= 7 {
		k = r.Intn(7)
	}
	switch k {
	case 0, 1:
		return genInt(r)
	case 2, 3:
		return genFloat(r)
	case 4:
		return arg{T: "string", V: raw(strs[r.Intn(len(strs))])}
	case 5:
		if r.Intn(3) == 0 {
			return arg{T: "[]byte", Hex: pick(r, "00ff10", "e282ac", "e282", "68656c6c6f", "")}
		}
		return arg{T: "[]byte", V: raw(strs[r.Intn(len(strs))])}
	case 6:
		if r.Intn(4) == 0 {
			return arg{T: "nil"}
		}
		return arg{T: "bool", V: raw(r.Intn(2) == 0)}
	case 7:
		n := r.Intn(4)
		items := make([]arg, n)
		if r.Intn(2) == 0 {
			for i := range items {
				items[i] = genValue(r, depth+1)
			}
			return arg{T: "[]interface {}", V: raw(items)}
		}
		for i := range items {
			items[i] = arg{T: "string", V: raw(strs[r.Intn(len(strs))])}
		}
		return arg{T: "[]string", V: raw(items)}
	case 8:
		n := r.Intn(4)
		entries := make([][2]arg, 0, n)
		seen := map[string]bool{}
		for i := 0; i < n; i++ {
			key := strs[r.Intn(len(strs))]
			if seen[key] {
				continue
			}
			seen[key] = true
			entries = append(entries, [2]arg{{T: "string", V: raw(key)}, genValue(r, depth+1)})
		}
		return arg{T: "map[string]interface {}", V: raw(entries)}
	default:
		n := r.Intn(4)
		entries := make([][2]arg, 0, n)
		seen := map[int]bool{}
		for i := 0; i < n; i++ {
			key := r.Intn(21) - 10
			if seen[key] {
				continue
			}
			seen[key] = true
			entries = append(entries, [2]arg{{T: "int", V: raw(key)}, {T: "string", V: raw(strs[r.Intn(len(strs))])}})
		}
		return arg{T: "map[int]string", V: raw(entries)}
	}
}

func generate(n int, seed int64) []map[string]json.RawMessage {
	r := rand.New(rand.NewSource(seed))
	verbs := "vvvvTtdbboOxxXXcqUeEfFgGsssqq%!zé"
	var out []map[string]json.RawMessage
	for i := 0; i < n; i++ {
		var format strings.Builder
		var args []arg
		value := genValue(r, 0)
		verb, _ := utf8.DecodeRuneInString(verbs[r.Intn(len(verbs)):])
		for !utf8.ValidRune(verb) || verb == utf8.RuneError {
			verb, _ = utf8.DecodeRuneInString(verbs[r.Intn(len(verbs)):])
		}
		if r.Intn(6) == 0 {
			format.WriteString(pick(r, "x=", "<", "a b "))
		}
		format.WriteByte('%')
		for f := r.Intn(4); f > 0; f-- {
			format.WriteByte("+-# 0"[r.Intn(5)])
		}
		switch r.Intn(5) {
		case 0, 1:
		case 2:
			format.WriteString("*")
			args = append(args, arg{T: "int", V: raw(r.Intn(25) - 8)})
		default:
			format.WriteString(fmt.Sprint(r.Intn(14)))
		}
		switch r.Intn(5) {
		case 0, 1:
		case 2:
			format.WriteString(".*")
			args = append(args, arg{T: "int", V: raw(r.Intn(14) - 2)})
		case 3:
			format.WriteString(".")
		default:
			format.WriteString("." + fmt.Sprint(r.Intn(14)))
		}
		format.WriteRune(verb)
		if r.Intn(8) == 0 {
			format.WriteString(pick(r, " %v", "|%d", " end"))
			args = append(args, value)
		}
		args = append(args, value)
		if r.Intn(10) == 0 {
			args = append(args, genValue(r, 1)) // an extra operand
		}
		out = append(out, map[string]json.RawMessage{
			"name":   raw(fmt.Sprintf("gen/%03d", i)),
			"format": raw(format.String()),
			"args":   raw(args),
		})
	}
	return out
}
