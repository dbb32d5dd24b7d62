package patternvote

import (
	"sync"
	"testing"
)

// TestFoldAccentsConcurrent: contact searches fold names from many
// requests at once; run with -race, a shared transformer would fail here.
func TestFoldAccentsConcurrent(t *testing.T) {
	in := []string{"Müller", "Søren Ærø", "Łukasz Straße", "José Núñez", "plain"}
	want := []string{"Muller", "Soren AEro", "Lukasz Strasse", "Jose Nunez", "plain"}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				k := (g + i) % len(in)
				if got := FoldAccents(in[k]); got != want[k] {
					t.Errorf("FoldAccents(%q) = %q, want %q", in[k], got, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}
