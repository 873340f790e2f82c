package api

import (
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// SkillJSONBothWays returns a skill's NAME.json as written and as
// encoding/json gives it, which must be the same bytes.
func SkillJSONBothWays(s *catalog.Skill, site *siteinfo.Info) (direct, viaMarshal []byte, err error) {
	e := newEntry(s, site)
	sd := skillJSON(e)
	if direct, err = appendSkillJSON(nil, &sd); err != nil {
		return nil, nil, err
	}
	viaMarshal, err = marshal(sd)
	return direct, viaMarshal, err
}

// JSONStringBothWays quotes s as NAME.json's writer does and as
// encoding/json does with HTML escaping off.
func JSONStringBothWays(s string) (direct, viaMarshal []byte, err error) {
	viaMarshal, err = marshal(s)
	return appendJSONString(nil, s), viaMarshal[:len(viaMarshal)-1], err
}
