//go:build !linux

package embedded

import "os"

func dropFileCache(*os.File) {}
