//go:build !unix

package output

import "os"

// rawFile is an os.File where descriptors cannot be used directly.
type rawFile = os.File

// newFile creates (or truncates) name for writing.
func newFile(name string) (*rawFile, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}
