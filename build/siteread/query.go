package siteread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
)

// Query answers q from the site, with the bytes `skilldex query` prints
// for the sources the site was built from; found reports whether the
// answer has a value. It fetches, in this order, only what it needs:
//
//  1. the path's own answer file, api/v1/skills/NAME/PATH.json: without
//     filters, that file is the answer, as served;
//  2. otherwise paths.json, then the answer file of the longest path it
//     lists that is a prefix of PATH (whole segments), in whose value the
//     rest of PATH is looked up, and the filters applied;
//  3. when neither has it, api/v1/skills/NAME.json, the whole document,
//     on which the query engine runs.
//
// A path that step 2 does not find is asked of the whole document, which
// may find it where the prefix could not (under a key holding a dot) and
// otherwise says where the path stopped. A skill the site lacks, or a
// name that cannot be one, is an answer (SKILL_NOT_FOUND), not an error;
// errors are for files that cannot be read.
func (s *Site) Query(ctx context.Context, q uasp.Query) (answer []byte, found bool, err error) {
	if ValidName(q.Skill) != nil {
		return uasp.MarshalAnswer(uasp.SkillNotFound(q.Skill, q.Path)), false, nil
	}
	if api.HasAnswerFile(q.Path) {
		b, a, err := s.answerFile(ctx, q.Skill, q.Path)
		if err != nil {
			return nil, false, err
		}
		if a != nil {
			if len(q.Filters) == 0 {
				return b, a.Found, nil
			}
			if a.Found {
				return marshal(below(q, a, q.Path))
			}
		}
	}
	if prefix, err := s.longestListed(ctx, q); err != nil {
		return nil, false, err
	} else if prefix != "" {
		_, a, err := s.answerFile(ctx, q.Skill, prefix)
		if err != nil {
			return nil, false, err
		}
		if a != nil && a.Found {
			got, err := below(q, a, prefix)
			if err != nil || got.Error == nil || got.Error.Code != uasp.ErrPathNotFound {
				return marshal(got, err)
			}
		}
	}
	return s.queryDocument(ctx, q)
}

// answer is an answer file as read back.
type answer struct {
	Found bool            `json:"found"`
	Value json.RawMessage `json:"value"`
}

// answerFile reads the answer file of skill:path; nil when the site has
// none.
func (s *Site) answerFile(ctx context.Context, skill, path string) ([]byte, *answer, error) {
	file := api.AnswerPath(skill, path)
	b, err := s.fetch(ctx, file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var a answer
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, nil, fmt.Errorf("%s is not an answer (%v); build the site again", file, err)
	}
	return b, &a, nil
}

// below answers q from a, the answer to prefix (q.Path or a prefix of it).
func below(q uasp.Query, a *answer, prefix string) (uasp.Answer, error) {
	v, err := api.DecodeOrdered(a.Value)
	if err != nil {
		return uasp.Answer{}, fmt.Errorf("the answer to %s:%s cannot be read (%v); build the site again", q.Skill, prefix, err)
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(q.Path, prefix), ".")
	return uasp.QueryBelow(q.Skill, q.Path, v, rest, q.Filters), nil
}

// marshal is Query's result for an answer.
func marshal(a uasp.Answer, err error) ([]byte, bool, error) {
	if err != nil {
		return nil, false, err
	}
	return uasp.MarshalAnswer(a), a.Found, nil
}

// longestListed returns the longest path of the skill's paths.json that
// is q.Path or a prefix of it made of whole segments, other than a path
// step 1 of Query has already read; "" when there is none (or no
// paths.json).
func (s *Site) longestListed(ctx context.Context, q uasp.Query) (string, error) {
	b, err := s.fetch(ctx, siteinfo.APIPaths(q.Skill))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var list struct {
		Paths []struct {
			Path string `json:"path"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return "", fmt.Errorf("%s cannot be read (%v); build the site again", siteinfo.APIPaths(q.Skill), err)
	}
	best := ""
	for _, p := range list.Paths {
		if len(p.Path) > len(best) && strings.HasPrefix(q.Path, p.Path+".") {
			best = p.Path
		}
	}
	return best, nil
}

// queryDocument answers q from api/v1/skills/NAME.json.
func (s *Site) queryDocument(ctx context.Context, q uasp.Query) ([]byte, bool, error) {
	file := siteinfo.APISkill(q.Skill)
	data, err := s.fetch(ctx, file)
	if errors.Is(err, fs.ErrNotExist) {
		a := uasp.SkillNotFound(q.Skill, q.Path)
		a.Error.Message = fmt.Sprintf("Skill '%s' is not published on this site; %s lists the skills it has", q.Skill, api.IndexPath)
		return uasp.MarshalAnswer(a), false, nil
	}
	if err != nil {
		return nil, false, err
	}
	d, err := api.LoadDocument(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v; build the site again", file, err)
	}
	return marshal(d.Query(q.Path, q.Filters), nil)
}
