package datasets

import "slices"

// Select keeps only the named columns (in the given order) of the rows, for
// single-domain lookups that return part of a dataset (GET /v1/score).
// Bill and Withhold first: the result has no dataset spans.
func (t *Table) Select(columns ...string) Table {
	idx := make([]int, 0, len(columns))
	var cols []string
	for _, c := range columns {
		if j := slices.Index(t.Columns, c); j >= 0 {
			idx = append(idx, j)
			cols = append(cols, c)
		}
	}
	out := Table{Columns: cols, Lines: t.Lines, Billable: t.Billable, Rows: make([][]any, len(t.Rows))}
	for i, row := range t.Rows {
		r := make([]any, len(idx))
		for k, j := range idx {
			r[k] = row[j]
		}
		out.Rows[i] = r
	}
	return out
}

// AddColumn appends a column whose value on row i is value(i).
func (t *Table) AddColumn(name string, value func(i int) any) {
	t.Columns = append(t.Columns, name)
	for i := range t.Rows {
		t.Rows[i] = append(t.Rows[i], value(i))
	}
}

// Value is row i's value in column name, nil when there is no such column.
func (t *Table) Value(i int, name string) any {
	if j := slices.Index(t.Columns, name); j >= 0 {
		return t.Rows[i][j]
	}
	return nil
}
