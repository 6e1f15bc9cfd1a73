// gotmpl-oracle fills in what real Go text/template + sprig print for the
// cases in releasex's template conformance tables (tests/data/gotmpl/*.json).
// It is a developer tool, not a test dependency: the tables keep the
// expectations it wrote, and CI compares releasex's engine with them.
//
// Build it with Debian's Go and sprig (no module download):
//
//	apt-get install golang-go golang-github-masterminds-sprig-dev
//	GO111MODULE=off GOPATH=/usr/share/gocode go run ./tools/gotmpl-oracle tests/data/gotmpl/*.json
//
// Each file is a JSON array of cases:
//
//	{"name": "...", "template": "...", "data": {...}, "missingkey": "error",
//	 "now": "2024-05-06T07:08:09Z", "go": {"output": "..."} | {"error": "..."}}
//
// "data" is dot: JSON numbers that are integers become Go int (as go-yaml
// decodes YAML integers), other numbers float64. "missingkey" is the
// template's option (default, zero, error). "now" fixes sprig's clock
// (`now`, and `ago`, which reads it as sprig's dateAgo would). Go's Local
// zone is UTC (time.Local = time.UTC), as releasex models it. The
// template is parsed under the name "t". "funcs": "builtins" leaves sprig out
// (only text/template's own functions); "funcs": "helmfile" adds helmfile's
// pure functions over sprig's (helmfile.go, copied from helmfile's source). The tool rewrites "go" in place
// and keeps every other field.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/template"
	"time"

	"github.com/Masterminds/sprig"
)

type result struct {
	Output *string `json:"output,omitempty"`
	Error  *string `json:"error,omitempty"`
}

func typed(v interface{}) interface{} {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && !strings.ContainsAny(x.String(), ".eE") {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []interface{}:
		for i := range x {
			x[i] = typed(x[i])
		}
		return x
	case map[string]interface{}:
		for k := range x {
			x[k] = typed(x[k])
		}
		return x
	}
	return v
}

func run(c map[string]json.RawMessage) (res result) {
	var src string
	json.Unmarshal(c["template"], &src)
	var data interface{}
	if raw, ok := c["data"]; ok {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		d.Decode(&data)
		data = typed(data)
	}
	funcs := sprig.TxtFuncMap()
	if raw, ok := c["funcs"]; ok {
		var which string
		json.Unmarshal(raw, &which)
		if which == "builtins" {
			// Only text/template's builtins (sprig replaces some, e.g. slice).
			funcs = template.FuncMap{}
		}
		if which == "helmfile" {
			// helmfile's own functions over sprig's (helmfile.go).
			for name, f := range helmfileFuncs() {
				funcs[name] = f
			}
		}
	}
	if raw, ok := c["now"]; ok {
		var s string
		json.Unmarshal(raw, &s)
		fixed, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			panic(err)
		}
		funcs["now"] = func() time.Time { return fixed }
		// sprig's dateAgo (date.go) with time.Since read on the fixed clock.
		funcs["ago"] = func(date interface{}) string {
			var t time.Time
			switch date := date.(type) {
			default:
				t = fixed
			case time.Time:
				t = date
			case int64:
				t = time.Unix(date, 0)
			case int:
				t = time.Unix(int64(date), 0)
			}
			return fixed.Sub(t).Round(time.Second).String()
		}
	}
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint("panic: ", r)
			res = result{Error: &msg}
		}
	}()
	t := template.New("t").Funcs(funcs)
	if raw, ok := c["missingkey"]; ok {
		var mk string
		json.Unmarshal(raw, &mk)
		t = t.Option("missingkey=" + mk)
	}
	t, err := t.Parse(src)
	if err != nil {
		msg := err.Error()
		return result{Error: &msg}
	}
	var out bytes.Buffer
	if err := t.Execute(&out, data); err != nil {
		msg := err.Error()
		return result{Error: &msg}
	}
	s := out.String()
	return result{Output: &s}
}

func main() {
	// releasex models Go's Local zone as UTC (its hosts give no zone), so
	// sprig's `date`, `toDate` and `now` are compared in UTC wherever the
	// tool runs.
	time.Local = time.UTC
	for _, file := range os.Args[1:] {
		text, err := os.ReadFile(file)
		if err != nil {
			panic(err)
		}
		var cases []map[string]json.RawMessage
		if err := json.Unmarshal(text, &cases); err != nil {
			panic(fmt.Sprint(file, ": ", err))
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
