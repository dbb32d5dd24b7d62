package record

import (
	"fmt"
	"time"
)

// Quarter is a calendar quarter written "2026-Q3".
type Quarter string

// QuarterOf returns the quarter holding t.
func QuarterOf(t time.Time) Quarter {
	return Quarter(fmt.Sprintf("%04d-Q%d", t.Year(), (int(t.Month())-1)/3+1))
}

// Parse returns the quarter's year and number (1-4).
func (q Quarter) Parse() (year, n int, err error) {
	var extra string
	if c, _ := fmt.Sscanf(string(q), "%4d-Q%1d%s", &year, &n, &extra); c < 2 || len(q) != 7 || n < 1 || n > 4 || year < 1900 {
		return 0, 0, fmt.Errorf("quarter %q is not of the form YYYY-QN", string(q))
	}
	return year, n, nil
}

// Add returns the quarter k quarters after q (before it when k < 0); q
// must be valid.
func (q Quarter) Add(k int) Quarter {
	y, n, err := q.Parse()
	if err != nil {
		return q
	}
	i := y*4 + n - 1 + k
	return Quarter(fmt.Sprintf("%04d-Q%d", i/4, i%4+1))
}

// Column is the quarter as the growth dataset names its columns: "2026q3".
func (q Quarter) Column() string {
	y, n, err := q.Parse()
	if err != nil {
		return string(q)
	}
	return fmt.Sprintf("%04dq%d", y, n)
}
