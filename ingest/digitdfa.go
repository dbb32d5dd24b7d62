package ingest

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// digitMatcher matches a regular expression against strings of ASCII
// digits with a DFA built when it is compiled. Phone numbers are checked
// against libphonenumber's patterns, several per number: through package
// regexp that was a twentieth of a 1M-company load's CPU, each match
// setting up a backtracker for a dozen digits. The patterns are anchored
// at the start and read only digits, so their DFA over the ten digits is
// small; one that grows past maxDigitStates, uses an assertion other than
// ^ and $, or input with a byte that is not a digit, goes to the regexp.
type digitMatcher struct {
	re     *regexp.Regexp
	next   []int32 // next[state*10+digit]: the following state, -1 when none can match
	final  []bool  // the state matches at the end of the input
	prefix []bool  // the state has matched: the input may go on (no $)
}

const maxDigitStates = 4096

// compileDigits compiles expr, which must begin with ^ (it panics on an
// invalid expression, as regexp.MustCompile).
func compileDigits(expr string) *digitMatcher {
	m := &digitMatcher{re: regexp.MustCompile(expr)}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return m
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return m
	}
	b := dfaBuilder{prog: prog, ids: map[string]int32{}}
	start, ok := b.state(b.closure([]int{prog.Start}, true))
	if !ok || start != 0 {
		return m
	}
	for s := 0; s < len(b.sets); s++ {
		for d := byte('0'); d <= '9'; d++ {
			var moved []int
			for _, pc := range b.sets[s] {
				in := &prog.Inst[pc]
				switch in.Op {
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
					if in.MatchRune(rune(d)) {
						moved = append(moved, int(in.Out))
					}
				}
			}
			next := int32(-1)
			if len(moved) > 0 {
				id, ok := b.state(b.closure(moved, false))
				if !ok {
					return m
				}
				next = id
			}
			b.next = append(b.next, next)
		}
	}
	m.next, m.final, m.prefix = b.next, b.final, b.prefix
	return m
}

// dfaBuilder builds the DFA states: each is the set of program
// instructions the input so far can be at, waiting for a rune or for the
// end of the input.
type dfaBuilder struct {
	prog          *syntax.Prog
	ids           map[string]int32
	sets          [][]int
	next          []int32
	final, prefix []bool
	failed        bool
}

// closure follows the instructions that read no input from pcs. An
// assertion of the end of the input stays in the set; ^ holds only at the
// start. Any other assertion fails the build.
func (b *dfaBuilder) closure(pcs []int, atStart bool) []int {
	seen := map[int]bool{}
	var out []int
	var visit func(pc int)
	visit = func(pc int) {
		if seen[pc] {
			return
		}
		seen[pc] = true
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			visit(int(in.Out))
			visit(int(in.Arg))
		case syntax.InstCapture, syntax.InstNop:
			visit(int(in.Out))
		case syntax.InstEmptyWidth:
			switch op := syntax.EmptyOp(in.Arg); {
			case op&^(syntax.EmptyBeginText|syntax.EmptyBeginLine|syntax.EmptyEndText|syntax.EmptyEndLine) != 0:
				b.failed = true
			case op&(syntax.EmptyEndText|syntax.EmptyEndLine) != 0:
				out = append(out, pc)
			case atStart:
				visit(int(in.Out))
			}
		case syntax.InstFail:
		default: // runes and Match
			out = append(out, pc)
		}
	}
	for _, pc := range pcs {
		visit(pc)
	}
	slices.Sort(out)
	return out
}

// state returns the id of the state of set, adding it when new; false when
// the DFA is not buildable or too large.
func (b *dfaBuilder) state(set []int) (int32, bool) {
	if b.failed {
		return 0, false
	}
	var key strings.Builder
	for _, pc := range set {
		key.WriteString(strconv.Itoa(pc))
		key.WriteByte(',')
	}
	if id, ok := b.ids[key.String()]; ok {
		return id, true
	}
	if len(b.sets) >= maxDigitStates {
		return 0, false
	}
	id := int32(len(b.sets))
	b.ids[key.String()] = id
	b.sets = append(b.sets, set)
	matched, atEnd := false, false
	for _, pc := range set {
		in := &b.prog.Inst[pc]
		switch in.Op {
		case syntax.InstMatch:
			matched = true
		case syntax.InstEmptyWidth:
			atEnd = atEnd || b.matchesAtEnd(pc, map[int]bool{})
		}
	}
	b.prefix = append(b.prefix, matched)
	b.final = append(b.final, matched || atEnd)
	return id, !b.failed
}

// matchesAtEnd reports whether the program matches from pc at the end of
// the input (past its start: a ^ there does not hold).
func (b *dfaBuilder) matchesAtEnd(pc int, seen map[int]bool) bool {
	if seen[pc] {
		return false
	}
	seen[pc] = true
	in := &b.prog.Inst[pc]
	switch in.Op {
	case syntax.InstMatch:
		return true
	case syntax.InstAlt, syntax.InstAltMatch:
		return b.matchesAtEnd(int(in.Out), seen) || b.matchesAtEnd(int(in.Arg), seen)
	case syntax.InstCapture, syntax.InstNop:
		return b.matchesAtEnd(int(in.Out), seen)
	case syntax.InstEmptyWidth:
		if syntax.EmptyOp(in.Arg)&^(syntax.EmptyEndText|syntax.EmptyEndLine) == 0 {
			return b.matchesAtEnd(int(in.Out), seen)
		}
	}
	return false
}

// MatchString reports whether s has a match that starts at its beginning
// (and, for an expression ending in $, ends at its end), as
// regexp.MatchString does for an expression beginning with ^.
func (m *digitMatcher) MatchString(s string) bool {
	if m.next == nil {
		return m.re.MatchString(s)
	}
	state := int32(0)
	for i := 0; i < len(s); i++ {
		if m.prefix[state] {
			return true
		}
		d := s[i] - '0'
		if d > 9 {
			return m.re.MatchString(s)
		}
		if state = m.next[int(state)*10+int(d)]; state < 0 {
			// No match can follow; a byte that is not a digit later
			// could not change that.
			return false
		}
	}
	return m.final[state]
}

// matchesNonEmptyPrefix reports whether a match of a non-empty prefix of s
// exists (for an expression ending in $, of all of a non-empty s). sure
// is false when the DFA cannot tell: it was not built or s has a byte
// that is not a digit.
func (m *digitMatcher) matchesNonEmptyPrefix(s string) (match, sure bool) {
	if m.next == nil || len(s) == 0 {
		return false, false
	}
	state := int32(0)
	for i := 0; i < len(s); i++ {
		d := s[i] - '0'
		if d > 9 {
			return false, false
		}
		if state = m.next[int(state)*10+int(d)]; state < 0 {
			return false, true // no match can go on from here
		}
		if m.prefix[state] {
			return true, true
		}
	}
	return m.final[state], true
}
