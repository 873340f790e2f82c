package api

import (
	"strings"

	"github.com/skilldex/skilldex/build/siteinfo"
)

// obj is a JSON object of the OpenAPI description; encoding/json sorts its
// keys, so the file is the same every build.
type obj = map[string]any

// openAPI describes the site's static GET endpoints as OpenAPI 3.1.
func openAPI(site *siteinfo.Info) obj {
	name := obj{"name": "name", "in": "path", "required": true, "description": "The skill's name.", "schema": obj{"type": "string"}}
	jsonOK := func(desc, schema string) obj {
		content := obj{"schema": obj{"type": "object"}}
		if schema != "" {
			content = obj{"schema": obj{"$ref": "#/components/schemas/" + schema}}
		}
		return obj{"200": obj{"description": desc, "content": obj{"application/json": content}}, "404": obj{"description": "No such skill or file."}}
	}
	typed := func(desc, mediaType string) obj {
		return obj{"200": obj{"description": desc, "content": obj{mediaType: obj{"schema": obj{"type": "string"}}}}, "404": obj{"description": "No such skill or file."}}
	}
	get := func(id, summary string, params []obj, responses obj) obj {
		op := obj{"operationId": id, "summary": summary, "responses": responses}
		if len(params) > 0 {
			op["parameters"] = params
		}
		return obj{"get": op}
	}
	p := func(sitePath string) string { return "/" + sitePath }
	paths := obj{
		p(IndexPath):    get("listSkills", "Every published skill: name, description, type, version, format, status, tags, URLs.", nil, jsonOK("The skill index.", "")),
		p(ManifestPath): get("sessionManifest", "The UASP session manifest (uasp.md 9.5).", nil, jsonOK("The manifest.", "")),
		"/api/v1/skills/{name}.json": get("getSkill", "A skill's whole UASP document, its source frontmatter, whether the document was derived from SKILL.md, and its files (path, size in bytes, and URL where the site publishes them).",
			[]obj{name}, jsonOK("The skill.", "")),
		"/api/v1/skills/{name}/paths.json": get("listPaths", "Every query path of the skill that has a static answer, with its file name and its URL relative to paths.json.",
			[]obj{name}, jsonOK("The paths.", "")),
		"/api/v1/skills/{name}/{file}": get("queryPath", "The answer to the UASP query NAME:PATH (uasp.md 6.3), as `skilldex query` prints it. "+
			"A site built with api.paths: all has a file for every path made of keys down to the leaves (a key holding dots is one segment; lists are answered whole, their items reached with filters); "+
			"with api.paths: sections, for each top-level section. paths.json lists the paths that have one. "+
			"A path without a file is answered from the longest path paths.json lists that is a prefix of it (whole segments), else from the document, the value of \"document\" in /api/v1/skills/{name}.json: "+
			"look the rest of the path up in that value as the query engine does (keys holding dots are keys; list entries are found by name or id, else by index). "+
			"Filters are not static: apply them to the unfiltered answer, or run `skilldex query --site` or `skilldex mcp`, which follow this rule.",
			[]obj{name, {"name": "file", "in": "path", "required": true, "schema": obj{"type": "string"},
				"description": "PATH followed by .json, with '/', '\\', '%', '~', control and invisible format characters and invalid UTF-8 written as %XX, a name over 200 bytes cut and ended with '~' and a hash of the path; paths.json gives each path's file: commands.click.json."}},
			jsonOK("The answer; found is true whenever the document has the path (warnings never stop an answer).", "Answer")),
		p(OpenAPIPath):                   get("openAPI", "This description.", nil, jsonOK("OpenAPI 3.1.", "")),
		p(PromptPath):                    get("availableSkills", "The <available_skills> block to paste into a system prompt.", nil, typed("The block.", "text/plain")),
		p(AgentSkillsPath):               get("agentSkillsIndex", "Agent Skills discovery index v0.2.0: each skill's SKILL.md or ZIP archive with its SHA-256 digest.", nil, jsonOK("The index.", "")),
		p(LegacySkillsPath):              get("legacySkillsIndex", "Agent Skills discovery index v0.1 (name, description, files).", nil, jsonOK("The index.", "")),
		"/" + AgentInfoPath:              get("uskInfo", "USK agent discovery: spec version and endpoints.", nil, jsonOK("Information.", "")),
		"/" + AgentSearchPath:            get("uskSearch", "USK agent discovery: every USK v3 skill (static: query parameters are ignored).", nil, jsonOK("The skills.", "")),
		"/" + AgentCapabilityPath:        get("uskCapabilities", "USK capabilities and the skills that declare them.", nil, jsonOK("The capabilities.", "")),
		"/v1/agent/skills/{name}/schema": get("uskSchema", "A USK v3 skill's interface, schemas, capabilities, permissions and examples.", []obj{name}, jsonOK("The schema.", "")),
		"/skills/{name}/index.html.md":   get("skillMarkdown", "The skill's page as Markdown: a YAML summary and the SKILL.md body.", []obj{name}, typed("Markdown.", "text/markdown")),
		"/skills/{name}/SKILL.md":        get("skillSource", "The skill's SKILL.md, byte for byte.", []obj{name}, typed("SKILL.md.", "text/markdown")),
		"/skills/{name}/{name}.skill":    get("skillArchive", "The skill as a USK .skill archive (a ZIP, one root folder named after the skill).", []obj{name}, typed("The archive.", "application/zip")),
		p(LLMSPath):                      get("llmsTxt", "llms.txt: the catalog for language models.", nil, typed("llms.txt.", "text/plain")),
		p(LLMSFullPath):                  get("llmsFullTxt", "Every skill's Markdown in one file.", nil, typed("llms-full.txt.", "text/plain")),
		p(SkillsCatalogPath):             get("skillsCatalog", "The catalog as SkillBag SKILLS.md lines: name: description.", nil, typed("SKILLS.md.", "text/markdown")),
	}
	paths[p(PluginsPath)] = get("listPlugins", "Every plugin of the catalog's marketplaces (none when it has none): its fields, marketplace, clients, source, components, the names of its skills, its page and install commands; and the marketplaces.",
		nil, jsonOK("The plugins.", ""))
	if !site.PublishesPaths() {
		delete(paths, "/api/v1/skills/{name}/paths.json")
		delete(paths, "/api/v1/skills/{name}/{file}")
	}
	if !site.PublishesLegacyDiscovery() {
		delete(paths, p(LegacySkillsPath))
	}
	if !site.Parts.Markdown {
		delete(paths, "/skills/{name}/index.html.md")
		delete(paths, p(LLMSFullPath))
	}
	if !site.Parts.Sources {
		delete(paths, "/skills/{name}/SKILL.md")
	}
	if !site.Parts.Archives {
		delete(paths, "/skills/{name}/{name}.skill")
	}
	answer := obj{
		"type":     "object",
		"required": []string{"skill", "path", "found"},
		"properties": obj{
			"skill": obj{"type": "string"},
			"path":  obj{"type": "string"},
			"found": obj{"type": "boolean"},
			"value": obj{"description": "The part of the document at path, in document order."},
			"error": obj{"type": "object", "required": []string{"code", "message"}, "properties": obj{
				"code":    obj{"type": "string", "enum": []string{"SKILL_NOT_FOUND", "PATH_NOT_FOUND", "VALIDATION_FAILED", "INVALID_QUERY"}},
				"message": obj{"type": "string"},
				"details": obj{"type": "array", "items": obj{"type": "string"}},
			}},
		},
	}
	server := strings.TrimSuffix(site.URL(""), "/")
	if server == "" {
		server = "/"
	}
	title := site.Title
	if title == "" {
		title = "Skills"
	}
	return obj{
		"openapi": "3.1.0",
		"info": obj{
			"title":       title + " API",
			"version":     "1",
			"description": "Static JSON endpoints of a skilldex site: every file is a plain GET, no server, no authentication.",
		},
		"servers":    []obj{{"url": server}},
		"paths":      paths,
		"components": obj{"schemas": obj{"Answer": answer}},
	}
}
