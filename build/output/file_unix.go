//go:build unix

package output

import (
	"io/fs"
	"syscall"
)

// Site files are written with plain system calls rather than through
// os.File: os.OpenFile also registers every descriptor with the runtime
// poller (an epoll_ctl that fails for regular files, and four fcntl calls
// around it), which for a site of 200,000 small files is most of the
// system calls a build makes. Each file costs open, write and close.

// newFile creates (or truncates) name for writing.
func newFile(name string) (*rawFile, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &rawFile{fd: fd, name: name}, nil
	}
}

// rawFile is a file descriptor opened by newFile.
type rawFile struct {
	fd   int
	name string
}

func (f *rawFile) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := syscall.Write(f.fd, p[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return n, &fs.PathError{Op: "write", Path: f.name, Err: err}
		}
		n += m
	}
	return n, nil
}

func (f *rawFile) Close() error {
	if err := syscall.Close(f.fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}
