package demo

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Company names and domains are built from tokens of a few roles: invented
// brand words, plain brand words, surnames, generic company words
// ("Partners"), industry words ("Dental", one list per industry) and the
// domain-only decorations ("get…", "…hq").
//
// Domains are unique by construction, without any lookup, for any corpus
// size:
//
//  1. Company i is placed by a schedule: blocks of scheduleSlots indices,
//     each block a keyed permutation of a fixed slot layout, give every
//     company a naming cell (a style, and for industry styles the
//     industry) and a sequence number m that no other company of that cell
//     has (m = block·slots(cell) + rank of the slot within the cell).
//  2. m picks a token combination through a keyed bijection over the
//     cell's combinations; once m outgrows them, the round m/K adds a
//     decoration ("getzentrix", "zentrixhq", "zentrix-group") and, past
//     those, a decimal suffix ("zentrix7").
//  3. The token set of all roles is prefix-free (ensured when the tables
//     are built) and roles are disjoint, so a label splits into tokens in
//     exactly one way: different token sequences give different labels.
//     Decorations are tokens of their own roles, a hyphen or a trailing
//     digit run, which no token contains.
//
// The top-level domain is chosen afterwards and only adds variety.

type role uint8

const (
	roleInv role = iota
	roleWord
	roleSur
	roleGen
	roleIW
	roleDeco
)

// minTokenLen keeps very short surnames and words out: "Li" or "Ma" as
// a token would be a prefix of hundreds of others.
var minTokenLen = map[role]int{roleInv: 4, roleWord: 3, roleSur: 4, roleGen: 2, roleIW: 2, roleDeco: 2}

type token struct {
	slug string // lower-case a-z, what the domain uses
	disp string // display form for the name
}

// style is a naming pattern: the roles of its tokens.
type style uint8

const (
	stInv        style = iota // Zentrix
	stInvGen                  // Zentrix Systems
	stWordWord                // Blue Peak
	stWordGen                 // Summit Partners
	stSurSur                  // Hartley & Moore
	stSurGen                  // Hartley Associates
	stSur                     // Hartley
	stInvIW                   // Zentrix Dental
	stWordWordIW              // Blue Peak Dental
	stWordIW                  // Summit Dental
	stSurIW                   // Hartley Dental
	numStyles
)

func (s style) perIndustry() bool { return s >= stInvIW }

// styleShare is each style's share of companies in percent; per-industry
// styles are split among industries by industry weight. Shares of the
// small spaces (a lone surname: a few hundred names) stay small so that a
// million-company corpus rarely needs decorations.
var styleShare = [numStyles]float64{
	stInv: 1.2, stInvGen: 10, stWordWord: 6, stWordGen: 0.25, stSurSur: 5, stSurGen: 0.7, stSur: 0.06,
	stInvIW: 40, stWordWordIW: 21, stWordIW: 3.5, stSurIW: 7,
}

// scheduleSlots is the block size of the schedule: big enough to give the
// smallest cell at least one slot, small enough that industry proportions
// hold exactly within every few thousand companies.
const scheduleSlots = 1 << 13

type cell struct {
	style    style
	industry int    // index into industries, -1 for industry-neutral styles
	slots    uint64 // slots per block
	combos   uint64 // token combinations of the style
}

// lexicon holds the prefix-free token tables and the schedule layout; it
// depends on no seed and is built once per process.
type lexicon struct {
	inv, word, sur, gen []token
	iw                  [][]token // per industry
	pre, suf            []string  // domain decorations
	cells               []cell
	slotCell            []uint16
	slotRank            []uint32
}

// decorations returns how many rounds of decorations exist before digits.
func (lx *lexicon) decorations() uint64 { return uint64(len(lx.pre) + 2*len(lx.suf)) }

type lexEntry struct {
	slug string
	prio int // higher wins a prefix conflict
	role role
	ind  int // industry of an industry word
	idx  int // position in its source table
	disp string
}

// buildLexicon collects the tokens of every role, removes prefix
// conflicts (the lower-priority token goes) and lays out the schedule.
func buildLexicon(inds []*industry) *lexicon {
	var all []lexEntry
	add := func(r role, prio, ind int, words []string) {
		for i, w := range words {
			all = append(all, lexEntry{slug: slugOf(w), prio: prio, role: r, ind: ind, idx: i, disp: w})
		}
	}
	add(roleDeco, 10, 0, decoPrefixes)
	add(roleDeco, 10, 1, decoSuffixes)
	for k, ind := range inds {
		// Earlier industries win a tie, so the lists stay disjoint.
		add(roleIW, 9, k, ind.nameWords)
	}
	add(roleGen, 8, 0, genericNameWords)
	add(roleSur, 7, 0, surnames)
	add(roleWord, 6, 0, brandWords)
	add(roleInv, 5, 0, inventedWords())

	sort.SliceStable(all, func(a, b int) bool {
		if all[a].slug != all[b].slug {
			return all[a].slug < all[b].slug
		}
		if all[a].prio != all[b].prio {
			return all[a].prio > all[b].prio
		}
		return all[a].ind < all[b].ind
	})
	// In sorted order a token that is a prefix of a later one is a prefix
	// of every token in between, so comparing with the last kept token
	// finds every conflict.
	//
	// The higher priority wins a conflict; between equals the longer token
	// does, since a short one ("Li") would block every token it starts.
	// Equal strings keep the first (the earlier industry for industry
	// words, which keeps industry lists disjoint).
	kept := all[:0]
	for _, e := range all {
		if len(e.slug) < minTokenLen[e.role] {
			continue
		}
		if n := len(kept); n > 0 && strings.HasPrefix(e.slug, kept[n-1].slug) {
			k := kept[n-1]
			if e.prio > k.prio || (e.prio == k.prio && len(e.slug) > len(k.slug)) {
				kept[n-1] = e
			}
			continue
		}
		kept = append(kept, e)
	}
	sort.Slice(kept, func(a, b int) bool {
		if kept[a].role != kept[b].role {
			return kept[a].role < kept[b].role
		}
		if kept[a].ind != kept[b].ind {
			return kept[a].ind < kept[b].ind
		}
		return kept[a].idx < kept[b].idx
	})
	lx := &lexicon{iw: make([][]token, len(inds))}
	for _, e := range kept {
		t := token{slug: e.slug, disp: e.disp}
		switch e.role {
		case roleInv:
			t.disp = strings.ToUpper(e.slug[:1]) + e.slug[1:]
			lx.inv = append(lx.inv, t)
		case roleWord:
			lx.word = append(lx.word, t)
		case roleSur:
			lx.sur = append(lx.sur, t)
		case roleGen:
			lx.gen = append(lx.gen, t)
		case roleIW:
			lx.iw[e.ind] = append(lx.iw[e.ind], t)
		case roleDeco:
			if e.ind == 0 {
				lx.pre = append(lx.pre, e.slug)
			} else {
				lx.suf = append(lx.suf, e.slug)
			}
		}
	}
	lx.layout(inds)
	return lx
}

// inventedWords builds brand-like words from a syllable onset and an
// ending, joined directly when the ending starts with a vowel and through
// a linking vowel otherwise ("zen"+"ix", "zen"+"o"+"tix").
func inventedWords() []string {
	var out []string
	for _, p := range invOnsets {
		pv := isVowel(p[len(p)-1])
		for _, e := range invEndings {
			ev := isVowel(e[0])
			switch {
			case ev && !pv:
				out = append(out, p+e)
			case !ev && pv:
				out = append(out, p+e)
			case !ev:
				for _, j := range []string{"a", "e", "i", "o"} {
					out = append(out, p+j+e)
				}
			}
		}
	}
	return out
}

func isVowel(c byte) bool { return strings.IndexByte("aeiouy", c) >= 0 }

// combos returns the number of token combinations of a style.
func (lx *lexicon) combos(s style, ind int) uint64 {
	inv, w, su, gn := uint64(len(lx.inv)), uint64(len(lx.word)), uint64(len(lx.sur)), uint64(len(lx.gen))
	var iw uint64
	if ind >= 0 {
		iw = uint64(len(lx.iw[ind]))
	}
	switch s {
	case stInv:
		return inv
	case stInvGen:
		return inv * gn
	case stWordWord:
		return w * (w - 1)
	case stWordGen:
		return w * gn
	case stSurSur:
		return su * (su - 1)
	case stSurGen:
		return su * gn
	case stSur:
		return su
	case stInvIW:
		return inv * iw
	case stWordWordIW:
		return w * (w - 1) * iw
	case stWordIW:
		return w * iw
	case stSurIW:
		return su * iw
	}
	return 0
}

// layout assigns the schedule's slots to cells in proportion to style
// shares and industry weights, at least one slot per cell.
func (lx *lexicon) layout(inds []*industry) {
	totalW := 0
	for _, ind := range inds {
		totalW += ind.weight
	}
	var want []float64
	for s := style(0); s < numStyles; s++ {
		if !s.perIndustry() {
			lx.cells = append(lx.cells, cell{style: s, industry: -1})
			want = append(want, styleShare[s])
			continue
		}
		for k, ind := range inds {
			lx.cells = append(lx.cells, cell{style: s, industry: k})
			want = append(want, styleShare[s]*float64(ind.weight)/float64(totalW))
		}
	}
	sum := 0.0
	for _, w := range want {
		sum += w
	}
	used, biggest := 0, 0
	for k := range lx.cells {
		n := max(1, int(want[k]/sum*scheduleSlots+0.5))
		lx.cells[k].slots = uint64(n)
		used += n
		if n > int(lx.cells[biggest].slots) {
			biggest = k
		}
		lx.cells[k].combos = lx.combos(lx.cells[k].style, lx.cells[k].industry)
	}
	lx.cells[biggest].slots = uint64(int(lx.cells[biggest].slots) + scheduleSlots - used)
	lx.slotCell = make([]uint16, 0, scheduleSlots)
	lx.slotRank = make([]uint32, 0, scheduleSlots)
	for k, c := range lx.cells {
		for j := uint64(0); j < c.slots; j++ {
			lx.slotCell = append(lx.slotCell, uint16(k))
			lx.slotRank = append(lx.slotRank, uint32(j))
		}
	}
}

// placement is where the schedule puts a company.
type placement struct {
	cell  int
	combo uint64 // token combination in [0, combos)
	round uint64 // 0: plain; then decorations; then digits
}

func (g *Generator) place(i int) placement {
	lx := g.t.lex
	t, p := uint64(i)/scheduleSlots, uint64(i)%scheduleSlots
	perm := newPermuter(scheduleSlots, g.seed^mix64(t+0xA0761D6478BD642F))
	s := perm.apply(p)
	c := int(lx.slotCell[s])
	m := t*lx.cells[c].slots + uint64(lx.slotRank[s])
	k := lx.cells[c].combos
	return placement{cell: c, combo: g.cellPerm[c].apply(m % k), round: m / k}
}

// nameTokens returns the tokens of a placement, in order.
func (lx *lexicon) nameTokens(c cell, combo uint64, out *[3]token) []token {
	w := uint64(len(lx.word))
	su := uint64(len(lx.sur))
	gn := uint64(len(lx.gen))
	// pair decodes an ordered pair of distinct indices below n.
	pair := func(x, n uint64) (uint64, uint64) {
		a, b := x/(n-1), x%(n-1)
		if b >= a {
			b++
		}
		return a, b
	}
	var iw []token
	if c.industry >= 0 {
		iw = lx.iw[c.industry]
	}
	niw := uint64(len(iw))
	switch c.style {
	case stInv:
		out[0] = lx.inv[combo]
		return out[:1]
	case stInvGen:
		out[0], out[1] = lx.inv[combo/gn], lx.gen[combo%gn]
		return out[:2]
	case stWordWord:
		a, b := pair(combo, w)
		out[0], out[1] = lx.word[a], lx.word[b]
		return out[:2]
	case stWordGen:
		out[0], out[1] = lx.word[combo/gn], lx.gen[combo%gn]
		return out[:2]
	case stSurSur:
		a, b := pair(combo, su)
		out[0], out[1] = lx.sur[a], lx.sur[b]
		return out[:2]
	case stSurGen:
		out[0], out[1] = lx.sur[combo/gn], lx.gen[combo%gn]
		return out[:2]
	case stSur:
		out[0] = lx.sur[combo]
		return out[:1]
	case stInvIW:
		out[0], out[1] = lx.inv[combo/niw], iw[combo%niw]
		return out[:2]
	case stWordWordIW:
		a, b := pair(combo/niw, w)
		out[0], out[1], out[2] = lx.word[a], lx.word[b], iw[combo%niw]
		return out[:3]
	case stWordIW:
		out[0], out[1] = lx.word[combo/niw], iw[combo%niw]
		return out[:2]
	case stSurIW:
		out[0], out[1] = lx.sur[combo/niw], iw[combo%niw]
		return out[:2]
	}
	panic("demo: unknown naming style")
}

// appendLabel appends the domain label (without the suffix) of a
// placement's tokens and round.
func (lx *lexicon) appendLabel(b []byte, toks []token, round uint64) []byte {
	np, ns := uint64(len(lx.pre)), uint64(len(lx.suf))
	if round >= 1 && round <= np {
		b = append(b, lx.pre[round-1]...)
	}
	for _, t := range toks {
		b = append(b, t.slug...)
	}
	switch {
	case round == 0 || round <= np:
	case round <= np+ns:
		b = append(b, lx.suf[round-np-1]...)
	case round <= np+2*ns:
		b = append(b, '-')
		b = append(b, lx.suf[round-np-ns-1]...)
	default:
		b = strconv.AppendUint(b, round-np-2*ns+1, 10)
	}
	return b
}

// slugOf folds a display word to the a-z letters a domain label uses.
func slugOf(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		default:
			if f, ok := foldRunes[r]; ok {
				b.WriteString(f)
			}
		}
	}
	return b.String()
}

var foldRunes = map[rune]string{
	'ä': "ae", 'ö': "oe", 'ü': "ue", 'Ä': "ae", 'Ö': "oe", 'Ü': "ue", 'ß': "ss", 'é': "e", 'è': "e", 'ê': "e",
	'ë': "e", 'É': "e", 'á': "a", 'à': "a", 'â': "a", 'ã': "a", 'å': "a", 'Å': "a", 'í': "i", 'ì': "i", 'î': "i",
	'ï': "i", 'ó': "o", 'ò': "o", 'ô': "o", 'õ': "o", 'ø': "o", 'Ø': "o", 'ú': "u", 'ù': "u", 'û': "u", 'ç': "c",
	'ñ': "n", 'ł': "l", 'Ł': "l", 'ś': "s", 'Ś': "s", 'ż': "z", 'ź': "z", 'ć': "c", 'ń': "n", 'ę': "e", 'ą': "a",
	'š': "s", 'Š': "s", 'č': "c", 'Č': "c", 'ž': "z", 'Ž': "z", 'ř': "r", 'ý': "y", 'ğ': "g", 'ş': "s", 'Ş': "s",
	'ı': "i", 'İ': "i", 'æ': "ae", 'Æ': "ae",
}
