package embedded

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/openprospect/prospectd/email/patternvote"
	"github.com/openprospect/prospectd/index"
)

var _ index.EmailPatternVoter = (*Engine)(nil)

// Each contact's email-pattern vote (patternvote.Vote) is kept resident,
// one byte a contact (contactIndex.votes), so a domain's pattern is
// tallied without reading profiles (EmailPatternVotes). The vote needs the
// address, the employer domain, the validated flag — all in the compact
// entry — and the first and last name as patternvote folds them, which
// the entry's folded name (textfold.Words, kept for name filters) does not
// always give: textfold splits "Jean-Pierre" and "O'Brien" where
// patternvote joins them, and keeps digits and letters such as ø that
// patternvote spells out or drops. So an entry says whether its folded
// name gives the parts (flagFoldedName, the free bit of the flags byte)
// or else carries them after the vector (cEntry.parts, present only then:
// no bytes for most entries). Entries written before either have neither:
// their vote is voteUnknown, and EmailPatternVotes reads the profiles of
// those in a sample until UpgradeContactEntries (contactupgrade.go) has
// rewritten them; rewriting the contact, or a refresh of its employer,
// gives it a vote too.

// flagFoldedName marks an entry whose folded name's first and last words
// are patternvote's name parts.
const flagFoldedName = 1 << 7

// The flags byte holds contactFlags' bits below flagFoldedName (an index
// out of range at init otherwise).
var _ = [1]struct{}{}[len(contactFlags)/8]

// validatedFlag is the validated address's bit of the flags byte.
var validatedFlag = uint8(1) << slices.Index(contactFlags, index.EmailValidatedField)

// emailKeyword is the position of the address among contactKeyword.
var emailKeyword = slices.Index(contactKeyword, index.ContactEmailField)

// A vote's byte: voteUnknown, voteNotCounted (no address at the domain or
// no first name), voteNoTemplate (counted, follows no template), or
// voteTemplate + the template's index; voteDouble is added when the
// address was validated (weight 2).
const (
	voteUnknown    = 0
	voteNotCounted = 1
	voteNoTemplate = 2
	voteTemplate   = 3
	voteDouble     = 0x80
)

// The templates fit below voteDouble.
var _ = [1]struct{}{}[(voteTemplate+patternvote.NumTemplates)/voteDouble]

func encodeVote(v patternvote.Vote) uint8 {
	var b uint8
	switch {
	case v.Weight == 0:
		return voteNotCounted
	case v.Template < 0:
		b = voteNoTemplate
	default:
		b = voteTemplate + uint8(v.Template)
	}
	if v.Weight == 2 {
		b |= voteDouble
	}
	return b
}

// decodeVote returns a known vote byte's vote.
func decodeVote(b uint8) patternvote.Vote {
	v := patternvote.Vote{Weight: 1, Template: -1}
	if b&voteDouble != 0 {
		v.Weight = 2
	}
	switch b &^ voteDouble {
	case voteNotCounted:
		return patternvote.Vote{Template: -1}
	case voteNoTemplate:
	default:
		v.Template = int(b&^voteDouble) - voteTemplate
	}
	return v
}

// setNameParts records how the entry gives patternvote's name parts of
// name: by its folded name (flagFoldedName) or spelled out (parts).
func (e *cEntry) setNameParts(name string) {
	if asciiLettersSpaces(name) {
		// Folded as patternvote folds it: the same words.
		e.flags |= flagFoldedName
		return
	}
	e.setPartsOf(name)
}

// setPartsOf is setNameParts without its shortcut for ASCII names, which
// takes the entry's folded name to be name's: for entries whose folded
// name may be another's (UpgradeContactEntries).
func (e *cEntry) setPartsOf(name string) {
	first, last := patternvote.NameParts(name)
	if f, l, ok := foldedParts(e.name); ok && f == first && l == last {
		e.flags |= flagFoldedName
		return
	}
	e.parts, e.hasParts = first+" "+last, true
}

// setNameVote gives the entry the name parts of name (the contact's
// name, which its folded name was made from) and sets its vote byte: what
// newCEntry does, and what UpgradeContactEntries does to an entry written
// before the votes were kept.
func (e *cEntry) setNameVote(name string) {
	e.setNameParts(name)
	e.vote = e.voteCode()
}

// asciiLettersSpaces reports whether s has only ASCII letters and
// spaces (most names; textfold and patternvote fold those alike).
func asciiLettersSpaces(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; (c < 'a' || c > 'z') && s[i] != ' ' {
			return false
		}
	}
	return true
}

// foldedParts returns the first and last word of a folded name made of
// a-z and single spaces only (ok false otherwise).
func foldedParts(folded string) (first, last string, ok bool) {
	i, j := -1, -1 // the first and the last space
	for k := 0; k < len(folded); k++ {
		switch c := folded[k]; {
		case c == ' ':
			if k == 0 || k == j+1 && j >= 0 || k == len(folded)-1 {
				return "", "", false
			}
			if i < 0 {
				i = k
			}
			j = k
		case c < 'a' || c > 'z':
			return "", "", false
		}
	}
	if i < 0 {
		return folded, "", true
	}
	return folded[:i], folded[j+1:], true
}

// voteCode is the entry's vote byte (voteUnknown for an entry written
// before the votes were kept).
func (e *cEntry) voteCode() uint8 {
	var first, last string
	switch {
	case e.flags&flagFoldedName != 0:
		first, last, _ = foldedParts(e.name)
	case e.hasParts:
		first, last, _ = strings.Cut(e.parts, " ")
	default:
		return voteUnknown
	}
	dom, mail := "", ""
	if len(e.kw[0]) > 0 {
		dom = e.kw[0][0]
	}
	if len(e.kw[emailKeyword]) > 0 {
		mail = e.kw[emailKeyword][0]
	}
	validated := e.flags&validatedFlag != 0
	return encodeVote(patternvote.VoteOfLower(dom, mail, first, last, validated))
}

// setVote keeps contact id's vote byte (loadRow and place call it after
// setRow).
func (x *contactIndex) setVote(id uint32, vote uint8) {
	for int(id) >= len(x.votes) {
		x.votes = append(x.votes, voteUnknown)
	}
	x.votes[id] = vote
}

// EmailPatternVotes implements index.EmailPatternVoter from the resident
// columns: a domain's posting list within the contacts with an address,
// the first sample of them in the no-vector rank order (before; only the
// set matters, so a selection, not a sort) and their vote bytes. Only the
// contacts loaded from entries written before the votes were kept have
// their profiles read.
func (e *Engine) EmailPatternVotes(ctx context.Context, domains []string, sample int) ([]patternvote.Tally, error) {
	x, err := e.contactIdx()
	if err != nil {
		return nil, err
	}
	out := make([]patternvote.Tally, len(domains))
	type unknown struct {
		at  int
		pid int64
	}
	var unknowns []unknown
	x.mu.RLock()
	withEmail := x.flags[index.ContactEmailField]
	before := func(a, b cScored) bool { return x.before(a, b, false) }
	var cs []cScored
	for k, d := range domains {
		if k%64 == 63 && ctx.Err() != nil {
			x.mu.RUnlock()
			return nil, ctx.Err()
		}
		bm := x.post[index.DomainField][d]
		if bm == nil || sample <= 0 {
			continue
		}
		cs = cs[:0]
		it := roaring.And(bm, withEmail).ManyIterator()
		var buf [256]uint32
		for n := it.NextMany(buf[:]); n > 0; n = it.NextMany(buf[:]) {
			for _, id := range buf[:n] {
				cs = append(cs, cScored{id: id})
			}
		}
		if len(cs) > sample {
			nthElement(cs, sample, before)
			cs = cs[:sample]
		}
		for _, c := range cs {
			if v := x.votes[c.id]; v != voteUnknown {
				out[k].Add(decodeVote(v))
			} else {
				unknowns = append(unknowns, unknown{at: k, pid: x.persona[c.id]})
			}
		}
	}
	x.mu.RUnlock()
	if len(unknowns) == 0 {
		return out, ctx.Err()
	}
	votes := make([]patternvote.Vote, len(unknowns))
	errs := make([]error, len(unknowns))
	readEach(len(unknowns), 8, func(i int) bool {
		c, err := e.contactProfile(unknowns[i].pid)
		if err == nil {
			votes[i] = patternvote.VoteOf(domains[unknowns[i].at], c.Email, c.Name, c.EmailValidated)
		} else if !errors.Is(err, index.ErrNotFound) { // not found: deleted since
			errs[i] = err
		}
		return true
	})
	for i, v := range votes {
		if errs[i] != nil {
			return nil, fmt.Errorf("email pattern votes: %w", errs[i])
		}
		out[unknowns[i].at].Add(v)
	}
	return out, ctx.Err()
}

// unmarshalParts reads what follows an entry's vector: nothing (the
// folded name gives the name parts, or an entry written before the votes
// were kept) or the name parts; then sets the vote byte.
func (e *cEntry) unmarshalParts(b []byte) error {
	if len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n != uint64(len(b)-k) {
			return errCorrupt
		}
		e.parts, e.hasParts = string(b[k:]), true
	}
	e.vote = e.voteCode()
	return nil
}
