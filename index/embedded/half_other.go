//go:build !amd64

package embedded

const useF16C = false

func halfsF16C(dst *byte, src *float32, n int)      { panic("unreachable") }
func roundHalfF16C(dst, src *float32, n int)        { panic("unreachable") }
func halfValuesF16C(dst *float32, src *byte, n int) { panic("unreachable") }
