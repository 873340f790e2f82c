// Package fsstamp identifies a version of a file by what stat says of it,
// so that a build can tell a file is unchanged without reading it, as make
// and git's index do.
package fsstamp

import "io/fs"

// A Stamp is what stat says of a file. Two equal stamps of one path mean
// the same content on any system where a write changes the change time,
// which no program can set back (unlike the modification time, which
// cp -p and tar restore). Where the system has no change time or inode
// number, they are zero, and the stamp is only as good as size and
// modification time.
type Stamp struct {
	Size    int64
	ModTime int64 // ns since the epoch
	Change  int64 // ns since the epoch, 0 where unknown
	Inode   uint64
	Device  uint64
}

// Of returns the stamp of the file info describes.
func Of(info fs.FileInfo) Stamp {
	s := Stamp{Size: info.Size(), ModTime: info.ModTime().UnixNano()}
	fromSys(&s, info.Sys())
	return s
}

// Known reports whether s came from a stat at all.
func (s Stamp) Known() bool { return s != Stamp{} }
