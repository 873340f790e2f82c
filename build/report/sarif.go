package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
)

// SARIF 2.1.0 types: only what skilldex writes.
type (
	sarifLog struct {
		Version string     `json:"version"`
		Schema  string     `json:"$schema"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
		// ColumnKind says what a column counts; SARIF's default is
		// UTF-16 code units, and skilldex counts characters.
		ColumnKind string `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string            `json:"id"`
		Name                 string            `json:"name"`
		ShortDescription     sarifText         `json:"shortDescription"`
		DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
		Properties           map[string]string `json:"properties"`
	}
	sarifRuleConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifText       `json:"message"`
		Locations []sarifLocation `json:"locations"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
)

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// sarifURI turns a display path into a relative URI reference, as code
// scanning wants paths relative to the repository root.
func sarifURI(p string) string {
	p = filepath.ToSlash(p)
	p = strings.TrimPrefix(p, "./")
	u := url.URL{Path: p}
	return u.EscapedPath()
}

// SARIF writes a SARIF 2.1.0 log with one run, every rule of lint.Rules,
// and one result per diagnostic.
func SARIF(w io.Writer, c *catalog.Catalog, version string) error {
	index := map[string]int{}
	rules := make([]sarifRule, 0, len(lint.Rules))
	for i, r := range lint.Rules {
		index[r.Code] = i
		rules = append(rules, sarifRule{
			ID: r.Code, Name: r.Code, ShortDescription: sarifText{r.Summary},
			DefaultConfiguration: sarifRuleConfig{sarifLevel(r.Severity)},
			Properties:           map[string]string{"spec": r.Spec},
		})
	}
	results := []sarifResult{}
	for _, d := range allDiagnostics(c) {
		file, msg, inArchive := annotation(d)
		loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: sarifURI(file)}}}
		if d.Line > 0 && !inArchive {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Column}
		}
		i, ok := index[d.Code]
		if !ok {
			i = -1
		}
		res := sarifResult{RuleID: d.Code, RuleIndex: i, Level: sarifLevel(d.Severity), Message: sarifText{msg}, Locations: []sarifLocation{loc}}
		results = append(results, res)
	}
	log := sarifLog{
		Version: "2.1.0",
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Runs: []sarifRun{{
			Tool:       sarifTool{Driver: sarifDriver{Name: "skilldex", Version: version, InformationURI: "https://github.com/skilldex/skilldex", Rules: rules}},
			Results:    results,
			ColumnKind: "unicodeCodePoints",
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
