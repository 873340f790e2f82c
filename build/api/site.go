package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"path"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

// ErrNotSite is returned by QuerySite for a folder that is not a built
// skilldex site.
var ErrNotSite = errors.New("not a skilldex site")

// QuerySite answers q from a built site (fsys is the site folder): an
// unfiltered path that has a static answer file is answered with that
// file, as served; anything else (filters, paths without a file) runs the
// query engine on the skill's document from api/v1/skills/NAME.json. The
// bytes are those `skilldex query` prints for the sources; found reports
// whether the answer has a value. A skill the site lacks is an answer
// (SKILL_NOT_FOUND), not an error; errors are for a folder that is not a
// site, or files that cannot be read.
func QuerySite(fsys fs.FS, q uasp.Query) (answer []byte, found bool, err error) {
	if _, err := fs.Stat(fsys, IndexPath); err != nil {
		return nil, false, fmt.Errorf("%w: %s is missing (%v); give the folder skilldex build wrote (-o), or build it first", ErrNotSite, IndexPath, err)
	}
	if !safeName(q.Skill) {
		a := uasp.SkillNotFound(q.Skill, q.Path)
		return uasp.MarshalAnswer(a), false, nil
	}
	if len(q.Filters) == 0 {
		file := AnswerPath(q.Skill, q.Path)
		if path.Base(file) != PathsFile {
			if b, err := fs.ReadFile(fsys, file); err == nil {
				var a struct {
					Found bool `json:"found"`
				}
				if err := json.Unmarshal(b, &a); err != nil {
					return nil, false, fmt.Errorf("%s is not an answer (%v); rebuild the site", file, err)
				}
				return b, a.Found, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, false, err
			}
		}
	}
	data, err := fs.ReadFile(fsys, siteinfo.APISkill(q.Skill))
	if errors.Is(err, fs.ErrNotExist) {
		a := uasp.SkillNotFound(q.Skill, q.Path)
		a.Error.Message = fmt.Sprintf("Skill '%s' is not published on this site; %s lists the skills it has", q.Skill, IndexPath)
		return uasp.MarshalAnswer(a), false, nil
	}
	if err != nil {
		return nil, false, err
	}
	d, err := LoadDocument(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v; rebuild the site", siteinfo.APISkill(q.Skill), err)
	}
	a := d.Query(q.Path, q.Filters)
	return uasp.MarshalAnswer(a), a.Found, nil
}

// safeName reports whether name can only be a single file name of the
// site, so that a query never reads outside api/v1/skills/.
func safeName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && fs.ValidPath(name)
}

// Document is a skill's UASP document read back from a site.
type Document struct {
	*uasp.Document
}

// LoadDocument reads back the UASP document of an api/v1/skills/NAME.json
// file, keys in the order written, so that queries on it answer as they
// did on the document the site was built from.
func LoadDocument(data []byte) (*Document, error) {
	var f struct {
		Name     string          `json:"name"`
		Derived  bool            `json:"derived"`
		Valid    bool            `json:"valid"`
		Problems []string        `json:"problems"`
		Document json.RawMessage `json:"document"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a skill document: %v", err)
	}
	if f.Name == "" || len(f.Document) == 0 {
		return nil, errors.New("not a skill document: no name or no document")
	}
	v, err := decodeOrdered(f.Document)
	if err != nil {
		return nil, fmt.Errorf("the document: %v", err)
	}
	root, ok := v.(*yamltree.Map)
	if !ok {
		return nil, errors.New("the document is not an object")
	}
	d := &Document{Document: uasp.NewDocument(f.Name, root)}
	d.Derived = f.Derived
	return d, nil
}

// decodeOrdered decodes one JSON value into yamltree values: objects as
// *yamltree.Map in the order of their keys, integers as int (or *big.Int
// when they do not fit), other numbers as float64.
func decodeOrdered(data []byte) (any, error) {
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
