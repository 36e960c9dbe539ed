// Command known-fields writes src/testing/go/builtin-fields.ts: the JSON fields of every Go struct a
// built-in kind the test API server serves is made of, as kube-apiserver's decoder knows them (unknown fields are
// what it drops, warns about or refuses, after `fieldValidation`), with how each list and map merges: a strategic
// merge patch's keys from the Go tags (patchStrategy, patchMergeKey), server-side apply's from the OpenAPI that
// kube-apiserver serves (x-kubernetes-list-type, -list-map-keys with their defaults, -map-type). Run from
// tools/apiserver:
//
//	go run ./gen/known-fields > ../../src/testing/go/builtin-fields.ts
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"

	apiextensionsopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
	generatedopenapi "k8s.io/kubernetes/pkg/generated/openapi"

	"katalog.local/tools/apiserver/gen/kinds"
)

var (
	unmarshaler = reflect.TypeFor[json.Unmarshaler]()
	marshaler   = reflect.TypeFor[json.Marshaler]()
)

// structs holds each struct met: its name in the table and its fields (JSON name, type reference, merge strategy,
// encoding).
var structs = map[string][][4]string{}

// atomicStructs are the structs server-side apply replaces whole (`+structType=atomic`).
var atomicStructs = map[string]bool{}

// definitions are kube-apiserver's OpenAPI definitions, by model name.
var definitions map[string]common.OpenAPIDefinition

// definition is a struct's OpenAPI definition.
func definition(t reflect.Type) (common.OpenAPIDefinition, bool) {
	name := t.PkgPath() + "." + t.Name()
	if model, ok := reflect.New(t).Elem().Interface().(interface{ OpenAPIModelName() string }); ok {
		name = model.OpenAPIModelName()
	}
	def, ok := definitions[name]
	return def, ok
}

// name is a struct's name in the table: its package path after the module's apis folder, and its Go name.
func name(t reflect.Type) string {
	path := t.PkgPath()
	for _, prefix := range []string{"k8s.io/api/", "k8s.io/apimachinery/pkg/apis/", "k8s.io/apiextensions-apiserver/pkg/apis/"} {
		path = strings.TrimPrefix(path, prefix)
	}
	return strings.ReplaceAll(path, "/", ".") + "." + t.Name()
}

// ref is how a field's type is written: a scalar's type (`s` string, `i` integer, `n` number, `b` boolean, `io`
// int-or-string, `x` any scalar: a quantity; "" a value of any shape: raw JSON), "[]" + the items' for a list, "{}" + the
// values' for a map, a struct's name, or "~" + a struct's name for a struct or else a list of them, a boolean or
// names (a CRD schema's JSONSchemaPropsOr* types). A type with its own JSON decoding (times, quantities, int-or-strings) is
// the scalar its OpenAPI schema says.
func ref(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return customScalar(t)
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "s:[]uint8" // []byte: a base64 string
		}
		return "[]" + ref(t.Elem())
	case reflect.Map:
		return "{}" + ref(t.Elem())
	case reflect.String:
		return scalar("s", t, "string")
	case reflect.Bool:
		return scalar("b", t, "bool")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return scalar("i", t, "")
	case reflect.Float32, reflect.Float64:
		return scalar("n", t, "float64")
	case reflect.Struct:
		n := name(t)
		if _, seen := structs[n]; !seen {
			structs[n] = nil // before the fields, so that a recursive type ends here
			def, _ := definition(t)
			if def.Schema.Extensions["x-kubernetes-map-type"] == "atomic" {
				atomicStructs[n] = true
			}
			structs[n] = fields(t, def.Schema)
		}
		return n
	default:
		return ""
	}
}

// scalar is a scalar's code, with its Go type after a colon unless it is the code's usual one (Go's decoder names
// it when a value of another JSON type comes: `i:int32`, `s:v1.PullPolicy`).
func scalar(code string, t reflect.Type, usual string) string {
	if t.String() == usual {
		return code
	}
	return code + ":" + t.String()
}

// customScalar is the scalar a type with its own JSON decoding is in its OpenAPI schema: an int-or-string, one
// type, `x` any scalar for several (a quantity: a string or a number) and for a time, or "" for anything (a raw
// JSON value).
func customScalar(t reflect.Type) string {
	value := reflect.New(t).Interface()
	if f, ok := value.(interface{ OpenAPISchemaFormat() string }); ok && f.OpenAPISchemaFormat() == "int-or-string" {
		return "io"
	}
	if o, ok := value.(interface{ OpenAPIV3OneOfTypes() []string }); ok && len(o.OpenAPIV3OneOfTypes()) > 1 {
		return "x"
	}
	// structured-merge-diff takes a time as any scalar (a number passes it, and fails the conversion after).
	// Written in seconds (metav1.Time) or microseconds (metav1.MicroTime), in UTC.
	if f, ok := value.(interface{ OpenAPISchemaFormat() string }); ok && f.OpenAPISchemaFormat() == "date-time" {
		if t.Name() == "MicroTime" {
			return "x:string:microtime" // decoded as a string first
		}
		return "x:string:time"
	}
	if s, ok := value.(interface{ OpenAPISchemaType() []string }); ok && len(s.OpenAPISchemaType()) == 1 {
		switch s.OpenAPISchemaType()[0] {
		case "string":
			return "s"
		case "integer":
			return "i"
		case "number":
			return "n"
		case "boolean":
			return "b"
		}
	}
	// apiextensions' JSONSchemaPropsOrArray, -OrBool, -OrStringArray: a schema, or a list of schemas, a boolean or a
	// list of names; "~" and the schema's struct.
	if f, ok := t.FieldByName("Schema"); ok && strings.HasPrefix(t.Name(), "JSONSchemaPropsOr") {
		return "~" + ref(f.Type)
	}
	fmt.Fprintf(os.Stderr, "known-fields: %s has its own JSON decoding and is left untyped\n", t)
	return ""
}

// strategy is how a field merges, "" when as a scalar, a struct, a granular map or an atomic list in both: a
// strategic merge patch's `merge(key)` (`merge()` for a set of primitives), then server-side apply's `map(k1,k2=d)`
// (an item without k2 is keyed with d, a JSON value), `set` or `atomic` (a map or struct replaced whole).
func strategy(f reflect.StructField, property spec.Schema) string {
	var out []string
	if strings.Contains(f.Tag.Get("patchStrategy"), "merge") {
		out = append(out, "merge("+f.Tag.Get("patchMergeKey")+")")
	}
	switch property.Extensions["x-kubernetes-list-type"] {
	case "map":
		keys, _ := property.Extensions["x-kubernetes-list-map-keys"].([]interface{})
		var item spec.Schema
		if property.Items != nil && property.Items.Schema != nil {
			item = *property.Items.Schema
		}
		if ref := item.Ref.String(); ref != "" {
			item = definitions[strings.TrimPrefix(ref, "#/definitions/")].Schema
		}
		parts := make([]string, 0, len(keys))
		for _, key := range keys {
			part := fmt.Sprint(key)
			if d := item.Properties[part].Default; d != nil {
				text, err := json.Marshal(d)
				if err != nil {
					panic(err)
				}
				part += "=" + string(text)
			}
			parts = append(parts, part)
		}
		out = append(out, "map("+strings.Join(parts, ",")+")")
	case "set":
		out = append(out, "set")
	}
	if property.Extensions["x-kubernetes-map-type"] == "atomic" {
		out = append(out, "atomic")
	}
	return strings.Join(out, " ")
}

// encoding is how Go's encoder writes a field, after a decode and a protobuf round trip: "" left out when empty
// (omitempty on a string, number, bool, list or map), "*" left out when null (omitempty on a pointer), "z" + the zero's
// JSON: left out when zero (omitzero), or "!" + the JSON written when the field is absent (a struct's zero is "{}",
// written as that struct's encoding of an empty object).
func encoding(f reflect.StructField) string {
	_, options, _ := strings.Cut(f.Tag.Get("json"), ",")
	has := func(option string) bool { return strings.Contains(","+options+",", ","+option+",") }
	zero := zeroJSON(f.Type)
	if has("omitzero") {
		return "z" + zero
	}
	if has("omitempty") {
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.Interface:
			return "*"
		case reflect.Struct:
			// Go never leaves out a struct for omitempty.
		default:
			return ""
		}
	}
	return "!" + zero
}

// zeroJSON is the JSON of a type's zero value; "{}" for a struct without its own encoding.
func zeroJSON(t reflect.Type) string {
	if t.Kind() == reflect.Struct && !t.Implements(marshaler) {
		return "{}"
	}
	text, err := json.Marshal(reflect.Zero(t).Interface())
	if err != nil {
		panic(err)
	}
	return string(text)
}

// fields are a struct's JSON fields in Go's order, inlined structs' fields in place, with their merge strategies
// (read off the struct's OpenAPI schema, which has the inlined fields too) and encodings.
func fields(t reflect.Type, schema spec.Schema) [][4]string {
	var out [][4]string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		jsonName, _, _ := strings.Cut(tag, ",")
		if jsonName == "-" || !f.IsExported() {
			continue
		}
		inline := strings.Contains(tag, ",inline") || (f.Anonymous && jsonName == "")
		if inline {
			inner := f.Type
			for inner.Kind() == reflect.Pointer {
				inner = inner.Elem()
			}
			out = append(out, fields(inner, schema)...)
			continue
		}
		if jsonName == "" {
			jsonName = f.Name
		}
		out = append(out, [4]string{jsonName, ref(f.Type), strategy(f, schema.Properties[jsonName]), encoding(f)})
	}
	return out
}

func main() {
	openapiRef := func(path string) spec.Ref { return spec.MustCreateRef("#/definitions/" + path) }
	definitions = generatedopenapi.GetOpenAPIDefinitions(openapiRef)
	for name, def := range apiextensionsopenapi.GetOpenAPIDefinitions(openapiRef) {
		definitions[name] = def
	}
	roots := map[string]string{}
	for _, gvk := range append(kinds.Served, kinds.Subresources...) {
		object, err := kinds.New(gvk)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		roots[kinds.Key(gvk)] = ref(reflect.TypeOf(object))
	}
	fmt.Println("/**")
	fmt.Println(" * The JSON fields of the Go structs the built-in kinds are made of, as kube-apiserver's decoder knows them, in Go's")
	fmt.Println(" * order. A field's type is a scalar's (`s` string, `i` integer, `n` number, `b` boolean, `io` int-or-string, `x` any")
	fmt.Println(" * scalar: a quantity, a time; \"\" anything: raw JSON), with its Go type after a colon when it is not the usual one")
	fmt.Println(" * (`i:int32`, `s:v1.PullPolicy`), `[]T` a list of T, `{}T` a map of T, or a struct's name; `~S` is struct S, or")
	fmt.Println(" * else a list of S, a boolean or a list of names (a CRD schema's `items`, `additionalProperties`, `dependencies`).")
	fmt.Println(" * A third element says how the field merges: a strategic merge patch's `merge(key)` (`merge()`: a set of primitives),")
	fmt.Println(" * then server-side apply's `map(k1,k2=default)`, `set` or `atomic` (a map or struct replaced whole); lists without")
	fmt.Println(" * one are atomic in both.")
	fmt.Println(" * A fourth says how Go's encoder writes the field (after a protobuf round trip, which makes an empty list or map")
	fmt.Println(" * null): absent, left out when empty (omitempty: \"\", 0, false, null, [], {}); `*` left out when null (a pointer);")
	fmt.Println(" * `z<zero>` left out when it is the zero (omitzero); `!<zero>` always written, `<zero>` when absent (`!{}`: the")
	fmt.Println(" * struct's encoding of an empty object). A time is `x:string:time` (seconds) or `x:string:microtime`.")
	fmt.Println(" * Generated by tools/apiserver/gen/known-fields from k8s.io/api v0.37.2; do not edit.")
	fmt.Println(" */")
	fmt.Println("/** The struct of each built-in kind (`<group>/<version>/<Kind>`, core kinds `v1/<Kind>`), and of a workload's Scale. */")
	fmt.Println("export const BUILTIN_ROOTS: Readonly<Record<string, string>> = {")
	for _, k := range sorted(roots) {
		fmt.Printf("  '%s': '%s',\n", k, roots[k])
	}
	fmt.Println("};")
	fmt.Println("/** Each struct's fields: `[json name, type, merge strategy?, encoding?]`. */")
	fmt.Println("export const BUILTIN_STRUCTS: Readonly<Record<string, readonly (readonly [string, string, string?, string?])[]>> = {")
	for _, n := range sorted(structs) {
		pairs := make([]string, 0, len(structs[n]))
		for _, f := range structs[n] {
			switch {
			case f[3] != "":
				pairs = append(pairs, fmt.Sprintf("['%s', '%s', '%s', '%s']", f[0], f[1], f[2], f[3]))
			case f[2] != "":
				pairs = append(pairs, fmt.Sprintf("['%s', '%s', '%s']", f[0], f[1], f[2]))
			default:
				pairs = append(pairs, fmt.Sprintf("['%s', '%s']", f[0], f[1]))
			}
		}
		fmt.Printf("  '%s': [%s],\n", n, strings.Join(pairs, ", "))
	}
	fmt.Println("};")
	fmt.Println("/** The structs server-side apply replaces whole (`+structType=atomic`: label selectors, object references...). */")
	fmt.Println("export const BUILTIN_ATOMIC_STRUCTS: ReadonlySet<string> = new Set([")
	for _, n := range sorted(atomicStructs) {
		fmt.Printf("  '%s',\n", n)
	}
	fmt.Println("]);")
}

func sorted[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
