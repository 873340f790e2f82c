package fsstamp

import "syscall"

func fromSys(s *Stamp, sys any) {
	if st, ok := sys.(*syscall.Stat_t); ok {
		s.Change = st.Ctimespec.Nano()
		s.Inode = st.Ino
		s.Device = uint64(st.Dev)
	}
}
