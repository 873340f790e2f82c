//go:build !linux

package output

import "errors"

func exchange(a, b string) error { return errors.New("atomic exchange not supported") }
