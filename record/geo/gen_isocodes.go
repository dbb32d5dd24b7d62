//go:build ignore

// gen_isocodes writes isocodes_3166-2.json, the ISO 3166-2 subdivisions of
// the iso-codes project (Debian's pkg-isocodes, maintained with the ISO
// 3166 Maintenance Agency's newsletters), as code and name pairs.
//
//	go run gen_isocodes.go [/usr/share/iso-codes/json/iso_3166-2.json]
//
// The Debian package iso-codes installs the source file.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

func main() {
	src := "/usr/share/iso-codes/json/iso_3166-2.json"
	if len(os.Args) > 1 {
		src = os.Args[1]
	}
	b, err := os.ReadFile(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var in struct {
		Subdivisions []struct{ Code, Name string } `json:"3166-2"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		fmt.Fprintln(os.Stderr, "decode:", err)
		os.Exit(1)
	}
	out := make([][2]string, 0, len(in.Subdivisions))
	for _, s := range in.Subdivisions {
		out = append(out, [2]string{s.Code, s.Name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	f, err := os.Create("isocodes_3166-2.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	fmt.Fprintln(f, "[")
	for i, s := range out {
		line, _ := json.Marshal(s)
		sep := ","
		if i == len(out)-1 {
			sep = ""
		}
		fmt.Fprintf(f, "%s%s\n", line, sep)
	}
	fmt.Fprintln(f, "]")
}
