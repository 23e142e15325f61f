// Package jsonkind names, in words, the kind of JSON value a Go type decodes from, for the messages
// that refuse a value of the wrong kind ("expected an integer, got JSON string").
package jsonkind

import "reflect"

// Of names the JSON kind that t takes: "an integer", "a number", "a string", "a boolean", "an array" or
// "an object". It looks at the kind, not the type's name: the name of a slice of structs spells out the
// fields' types, which once made an array read as "an integer".
func Of(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
