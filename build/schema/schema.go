// Package schema compiles and applies JSON Schemas that come from untrusted
// documents (USK input and output schemas, the UASP schema) with
// santhosh-tekuri/jsonschema, never loading a $ref from the network or the
// file system.
package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/skilldex/skilldex/build/yamltree"
)

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("$ref to %s is not followed: skilldex loads no schema from outside the document", url)
}

// Instance converts a yamltree value into the form the validator reads
// (what jsonschema.UnmarshalJSON would give for its JSON): maps, slices,
// strings, booleans, nil and json.Number. NaN and infinities, which JSON
// cannot hold, become nil, as yamltree.JSON writes them.
func Instance(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, string:
		return x, nil
	case yamltree.Timestamp:
		return string(x), nil
	case int:
		return json.Number(strconv.Itoa(x)), nil
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), nil
	case *big.Int:
		return json.Number(x.String()), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, nil
		}
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), nil
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := Instance(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case *yamltree.Map:
		out := make(map[string]any, x.Len())
		for k, e := range x.All() {
			c, err := Instance(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	}
	return nil, fmt.Errorf("schema: cannot convert %T", v)
}

// Compile compiles doc (a yamltree value) as a draft-07 schema named name.
// Errors say what in the schema is wrong, with its JSON Pointer.
func Compile(name string, doc any) (*jsonschema.Schema, error) {
	inst, err := Instance(doc)
	if err != nil {
		return nil, err
	}
	return CompileValue(name, inst)
}

// CompileValue compiles an already converted schema document.
func CompileValue(name string, inst any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(noLoader{})
	url := "urn:skilldex:" + name
	if err := c.AddResource(url, inst); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// Problem is one schema violation: where in the instance, and what.
type Problem struct {
	// Path is the instance location as keys and indexes.
	Path    []string
	Message string
	// Kind is the validator's description of the failure (a type from
	// jsonschema/v6/kind), for callers that word their own advice; nil
	// when err was not a validation error.
	Kind jsonschema.ErrorKind
}

// Problems flattens a validation error into its leaf problems, in the
// validator's order.
func Problems(err error) []Problem {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		if err == nil {
			return nil
		}
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, Problem{Path: e.InstanceLocation, Message: kindMessage(e), Kind: e.ErrorKind})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

var printer = message.NewPrinter(language.English)

func kindMessage(e *jsonschema.ValidationError) string {
	return e.ErrorKind.LocalizedString(printer)
}

// CompileProblem describes why a schema does not compile, briefly.
func CompileProblem(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		ps := Problems(sve.Err)
		var parts []string
		for _, p := range ps {
			loc := "/" + strings.Join(p.Path, "/")
			parts = append(parts, fmt.Sprintf("at %s: %s", loc, p.Message))
		}
		return strings.Join(parts, "; ")
	}
	return err.Error()
}
