//go:build !linux

package main

// settle does nothing here: see sync_linux.go.
func settle() {}
