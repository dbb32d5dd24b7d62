package namematch

import (
	"encoding/binary"
	"iter"
)

// postings are the ascending doc lists of a token or trigram id, all in one
// byte array: list i is data[off[i]:off[i+1]], each doc the uvarint of its
// gap from the previous one (the first from 0). Most gaps of a list read
// at query time fit one or two bytes, against four for a plain uint32.
type postings struct {
	off  []uint32
	df   []uint32 // docs in list i
	data []byte
}

// docs yields list i's docs in ascending order.
func (p *postings) docs(i uint32) iter.Seq[uint32] {
	return func(yield func(uint32) bool) {
		b := p.data[p.off[i]:p.off[i+1]]
		d := uint32(0)
		for len(b) > 0 {
			if b[0] < 0x80 { // one-byte gap: most of a long list's
				d += uint32(b[0])
				b = b[1:]
			} else {
				v, n := binary.Uvarint(b)
				b = b[n:]
				d += uint32(v)
			}
			if !yield(d) {
				return
			}
		}
	}
}

// postingsBuilder builds postings in two passes over the same (list, doc)
// pairs, docs ascending within each list: count sizes every pair, layout
// allocates the arrays, put writes every pair again.
type postingsBuilder struct {
	p    postings
	last []uint32 // previous doc of each list
	next []uint32 // next free byte of each list (put)
}

func newPostingsBuilder(lists int) *postingsBuilder {
	return &postingsBuilder{
		p:    postings{off: make([]uint32, lists+1), df: make([]uint32, lists)},
		last: make([]uint32, lists),
	}
}

// grow adds an empty list (lists numbered while counting).
func (b *postingsBuilder) grow() {
	b.p.off = append(b.p.off, 0)
	b.p.df = append(b.p.df, 0)
	b.last = append(b.last, 0)
}

func uvarintLen(v uint32) uint32 {
	n := uint32(1)
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func (b *postingsBuilder) count(list, doc uint32) {
	b.p.df[list]++
	b.p.off[list+1] += uvarintLen(doc - b.last[list])
	b.last[list] = doc
}

func (b *postingsBuilder) layout() {
	for i := range b.p.df {
		b.p.off[i+1] += b.p.off[i]
	}
	b.p.data = make([]byte, b.p.off[len(b.p.df)])
	b.next = append([]uint32(nil), b.p.off[:len(b.p.df)]...)
	clear(b.last)
}

func (b *postingsBuilder) put(list, doc uint32) {
	b.next[list] += uint32(binary.PutUvarint(b.p.data[b.next[list]:], uint64(doc-b.last[list])))
	b.last[list] = doc
}

// finish returns the postings, their arrays trimmed to their lengths.
func (b *postingsBuilder) finish() postings {
	return postings{off: exact(b.p.off), df: exact(b.p.df), data: b.p.data}
}
