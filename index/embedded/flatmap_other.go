//go:build !linux

package embedded

import (
	"errors"
	"os"
)

// mapFlat is Linux-only; elsewhere the vector file is read with pread.
func mapFlat(*os.File, int) ([]byte, error) { return nil, errors.ErrUnsupported }

func unmapFlat([]byte) {}
