package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

// LoadDocument reads back the UASP document of an api/v1/skills/NAME.json
// file, keys in the order written, so that queries on it answer as they
// did on the document the site was built from.
func LoadDocument(data []byte) (*uasp.Document, error) {
	var f struct {
		Name     string          `json:"name"`
		Derived  bool            `json:"derived"`
		Document json.RawMessage `json:"document"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a skill document: %v", err)
	}
	if f.Name == "" || len(f.Document) == 0 {
		return nil, errors.New("not a skill document: no name or no document")
	}
	v, err := DecodeOrdered(f.Document)
	if err != nil {
		return nil, fmt.Errorf("the document: %v", err)
	}
	root, ok := v.(*yamltree.Map)
	if !ok {
		return nil, errors.New("the document is not an object")
	}
	d := uasp.NewDocument(f.Name, root)
	d.Derived = f.Derived
	return d, nil
}

// DecodeOrdered decodes one JSON value into yamltree values: objects as
// *yamltree.Map in the order of their keys, integers as int (or *big.Int
// when they do not fit), other numbers as float64.
func DecodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch x := t.(type) {
	case json.Delim:
		switch x {
		case '{':
			m := yamltree.NewMap()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string) // the decoder allows only strings as keys
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				m.Set(k, v)
			}
			_, err := dec.Token() // '}'
			return m, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", x)
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.Atoi(s); err == nil {
				return i, nil
			}
			if b, ok := new(big.Int).SetString(s, 10); ok {
				return b, nil
			}
		}
		return x.Float64()
	}
	return t, nil // string, bool, nil
}
