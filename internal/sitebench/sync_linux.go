package main

import "syscall"

// settle writes every dirty buffer to disk before a measured run. On ext4
// without a journal (as on the machines this runs on), creating a file
// passes over every free inode deleted in the last minute, or in the last
// six while its inode table block is still dirty, looking each one up on
// the way (the kernel's recently_deleted): after a site of a million
// files was deleted, the files a build creates cost many times their
// usual system time, and the run measures the deletion, not the build.
// Once the inode tables are written the window is the minute.
func settle() { syscall.Sync() }
