package main

// helmfile's pure template functions, copied from helmfile at ecf604d
// (pkg/tmpl/get_or_nil.go, pkg/tmpl/context_funcs.go), so the oracle
// answers for them as real helmfile does. The functions that reach the
// machine (readFile, exec, ...) are not here: their results depend on it.

import (
	"fmt"
	"reflect"
	"strings"
	"text/template"

	"gopkg.in/yaml.v3"
)

func helmfileFuncs() template.FuncMap {
	return template.FuncMap{
		"get":            hfGet,
		"getOrNil":       hfGetOrNil,
		"setValueAtPath": hfSetValueAtPath,
		"required":       hfRequired,
		"fromYaml":       hfFromYaml,
	}
}

type noValueError struct{ msg string }

func (e *noValueError) Error() string { return e.msg }

func hfGet(path string, varArgs ...any) (any, error) {
	var defSet bool
	var def any
	var obj any
	switch len(varArgs) {
	case 1:
		obj = varArgs[0]
	case 2:
		defSet = true
		def = varArgs[0]
		obj = varArgs[1]
	default:
		return nil, fmt.Errorf("unexpected number of args passed to the template function get(path, [def, ]obj): expected 1 or 2, got %d, args was %v", len(varArgs), varArgs)
	}
	if path == "" {
		return obj, nil
	}
	keys := strings.Split(path, ".")
	var v any
	var ok bool
	switch typedObj := obj.(type) {
	case *map[string]any:
		obj = *typedObj
	}
	switch typedObj := obj.(type) {
	case map[string]any:
		v, ok = typedObj[keys[0]]
		if !ok {
			if defSet {
				return def, nil
			}
			return nil, &noValueError{fmt.Sprintf("no value exist for key \"%s\" in %v", keys[0], typedObj)}
		}
	case map[string]string:
		v, ok = typedObj[keys[0]]
		if !ok {
			if defSet {
				return def, nil
			}
			return nil, &noValueError{fmt.Sprintf("no value exist for key \"%s\" in %v", keys[0], typedObj)}
		}
		return v, nil
	default:
		maybeStruct := reflect.ValueOf(typedObj)
		if maybeStruct.Kind() != reflect.Struct {
			return nil, &noValueError{fmt.Sprintf("unexpected type(%v) of value for key \"%s\": it must be either map[string]any or any struct", reflect.TypeOf(obj), keys[0])}
		}
		f := maybeStruct.FieldByName(keys[0])
		if !f.IsValid() {
			if defSet {
				return def, nil
			}
			return nil, &noValueError{fmt.Sprintf("no field named \"%s\" exist in %v", keys[0], typedObj)}
		}
		v = f.Interface()
	}
	if defSet {
		return hfGet(strings.Join(keys[1:], "."), def, v)
	}
	return hfGet(strings.Join(keys[1:], "."), v)
}

func hfGetOrNil(path string, o any) (any, error) {
	v, err := hfGet(path, o)
	if err != nil {
		switch err.(type) {
		case *noValueError:
			return nil, nil
		default:
			return nil, err
		}
	}
	return v, nil
}

func hfSetValueAtPath(path string, value any, values map[string]any) (map[string]any, error) {
	var current any
	current = values
	components := strings.Split(path, ".")
	pathToMap := components[:len(components)-1]
	key := components[len(components)-1]
	for _, k := range pathToMap {
		var elem any
		switch typedCurrent := current.(type) {
		case map[string]any:
			v, exists := typedCurrent[k]
			if !exists {
				return nil, fmt.Errorf("failed to set value at path \"%s\": value for key \"%s\" does not exist", path, k)
			}
			elem = v
		default:
			return nil, fmt.Errorf("failed to set value at path \"%s\": value for key \"%s\" was not a map", path, k)
		}
		switch typedElem := elem.(type) {
		case map[string]any, map[any]any:
			current = typedElem
		default:
			return nil, fmt.Errorf("failed to set value at path \"%s\": value for key \"%s\" was not a map", path, k)
		}
	}
	switch typedCurrent := current.(type) {
	case map[string]any:
		typedCurrent[key] = value
	default:
		return nil, fmt.Errorf("failed to set value at path \"%s\": value for key \"%s\" was not a map", path, key)
	}
	return values, nil
}

func hfRequired(warn string, val any) (any, error) {
	if val == nil {
		return nil, fmt.Errorf("%s", warn)
	} else if _, ok := val.(string); ok {
		if val == "" {
			return nil, fmt.Errorf("%s", warn)
		}
	}
	return val, nil
}

func hfFromYaml(str string) (any, error) {
	var m any
	if err := yaml.Unmarshal([]byte(str), &m); err != nil {
		return nil, fmt.Errorf("%s, offending yaml: %s", err, str)
	}
	return m, nil
}
