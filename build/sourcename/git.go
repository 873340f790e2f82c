package sourcename

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxGitFile bounds what is read of .git, .git/config and commondir: a
// repository's config is a few hundred bytes.
const maxGitFile = 64 << 10

// gitOrigin returns the URL of the remote named origin of the git
// checkout dir is, or "": dir holds .git, a folder or (in a worktree or
// a submodule) a file pointing at one.
func gitOrigin(dir string) string {
	gitDir := filepath.Join(dir, ".git")
	st, err := os.Stat(gitDir)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		data, ok := readSmall(gitDir)
		if !ok {
			return ""
		}
		target, found := strings.CutPrefix(strings.TrimSpace(data), "gitdir:")
		if !found {
			return ""
		}
		gitDir = strings.TrimSpace(target)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(dir, gitDir)
		}
		// A worktree's config is the main checkout's.
		if common, ok := readSmall(filepath.Join(gitDir, "commondir")); ok {
			if common = strings.TrimSpace(common); filepath.IsAbs(common) {
				gitDir = common
			} else {
				gitDir = filepath.Join(gitDir, common)
			}
		}
	}
	data, ok := readSmall(filepath.Join(gitDir, "config"))
	if !ok {
		return ""
	}
	return originURL(data)
}

// readSmall reads at most maxGitFile bytes of a regular file.
func readSmall(name string) (string, bool) {
	f, err := os.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxGitFile))
	return string(b), err == nil
}

// originURL returns the first url of the section [remote "origin"] (or
// the old [remote.origin]) of a git config file, "" when there is none.
// It reads the syntax git-config(1) describes: sections, keys in any
// case, values quoted or not, comments after # and ;.
func originURL(config string) string {
	inOrigin := false
	for _, line := range strings.Split(config, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				inOrigin = false
				continue
			}
			inOrigin = isOriginSection(line[1:end])
			line = strings.TrimSpace(line[end+1:]) // a key may follow on the same line
		}
		if !inOrigin || line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "url") {
			continue
		}
		if u := configValue(v); u != "" {
			return u
		}
	}
	return ""
}

// isOriginSection reports whether a section header (between the
// brackets) is remote "origin"; the section name is case-insensitive, the
// subsection is not.
func isOriginSection(h string) bool {
	h = strings.TrimSpace(h)
	if name, sub, ok := strings.Cut(h, " "); ok {
		return strings.EqualFold(name, "remote") && strings.TrimSpace(sub) == `"origin"`
	}
	return strings.EqualFold(h, "remote.origin")
}

// configValue reads a value: quotes removed, \" and \\ unescaped, a
// comment after an unquoted # or ; dropped.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n', 't', 'b':
				return "" // not in a URL
			default:
				b.WriteByte(v[i])
			}
		case c == '"':
			quoted = !quoted
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
