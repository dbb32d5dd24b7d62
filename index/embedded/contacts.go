package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/cockroachdb/pebble"

	"github.com/openprospect/prospectd/index"
	"github.com/openprospect/prospectd/index/textfold"
	"github.com/openprospect/prospectd/record"
)

var _ index.ContactEngine = (*Engine)(nil)

// Contacts live in the same Pebble store as companies, under their own
// prefixes: cx/<id> is the compact entry Open-time loading reads (filter
// fields and the int8 vector), cp/<id> the JSON record read for hits. Ids
// are 8-byte big-endian persona ids, so a scan visits them in order.
const (
	prefixContactEntry   = "cx/"
	prefixContactProfile = "cp/"
)

// contactKeyword fields have postings.
var contactKeyword = []index.Field{
	index.DomainField, index.IndustryField, index.CountryField, index.StateField, index.EmployeesField, index.RevenueField,
	index.SeniorityField, index.DepartmentField, index.SkillField, index.PersonCountryField, index.PersonStateField,
	index.ContactEmailField, index.LinkedInField,
}

// contactFlags are the Exists fields kept as bitmaps.
var contactFlags = []index.Field{index.ContactEmailField, index.EmailValidatedField, index.PhoneField, index.MobileField,
	index.LinkedInField, index.JobStartField, index.RevenueField}

// contactIndex is the in-memory side of the contact index. Vectors are
// int8 with a per-vector scale: a quarter of float32's memory, so 10M
// contacts fit (2.6 GB at 256 dimensions) and scans read 4× fewer bytes;
// the similarity error (< 0.01) does not change rankings that matter.
type contactIndex struct {
	mu sync.RWMutex
	// sets holds the bitmaps of keyed Terms filters (saved lists) until
	// the next write (under setsMu: searches run under mu's read lock).
	setsMu sync.Mutex
	sets   map[string]*roaring.Bitmap
	dim    int
	// A fresh load assigns ids in persona-id order, so the persona
	// column of ids [0, loaded) is itself a sorted index of the loaded
	// contacts (binary search, no memory: a map costs ~36 bytes a
	// contact); ids holds only the contacts placed after the load. Loaded
	// ids are never given to another persona (a deleted one stays a hole
	// until the next load), so the column stays sorted.
	loaded  uint32
	ids     map[int64]uint32
	persona []int64
	free    []uint32
	vecs    [][]int8 // chunkDocs vectors a chunk
	// The vectors' sign sketches (contactsketch.go), chunkDocs a chunk, in
	// sketch slots: signAt is each contact's slot, signN the slots given.
	// A load lays the slots out by department and seniority (layoutSigns).
	signs  [][]uint64
	signAt []uint32
	signN  uint32
	// signSpare holds sketch chunks allocated ahead for setSign
	// (signChunk), signBlock at a time.
	signSpare [][]uint64
	scale     []float32
	live      *roaring.Bitmap
	post      map[index.Field]map[string]*roaring.Bitmap
	flags     map[index.Field]*roaring.Bitmap
	conns     []int32
	jobs      []int32
	rank      []uint8 // seniority rank, 0 = executive, 7 = unknown
	// Employer domains are interned: domID per contact, domNames per id.
	domID    []uint32
	domIDs   map[string]uint32
	domNames []string
	// Folded titles and names live in one byte arena (no pointer per
	// contact for the garbage collector to scan).
	text              []byte
	titleAt, nameAt   []uint32
	titleLen, nameLen []uint16
	words             map[string]*roaring.Bitmap // folded title words
	// Email and LinkedIn handles are nearly unique: a bitmap per value
	// would cost ~150 bytes and several pointers each, so they map the
	// value's hash to its contact (dups when several share one).
	uniq map[index.Field]map[uint64]uint32
	dups map[index.Field]map[uint64][]uint32
	// votes holds each contact's email-pattern vote (contactvotes.go).
	votes []uint8
}

type contactBulk struct {
	post  map[index.Field]map[string][]uint32
	flags map[index.Field][]uint32
	words map[string][]uint32
	live  []uint32
}

// finishLoad turns the collected id lists into bitmaps, one keyword
// field (or the title words, or the flags) per task on every core.
func (x *contactIndex) finishLoad(b *contactBulk) {
	var tasks []func()
	for f, m := range b.post {
		bms := map[string]*roaring.Bitmap{}
		x.post[f] = bms
		tasks = append(tasks, func() {
			for v, ids := range m {
				bm := roaring.BitmapOf(ids...)
				bm.RunOptimize()
				bms[v] = bm
			}
		})
	}
	words := map[string]*roaring.Bitmap{}
	x.words = words
	tasks = append(tasks, func() {
		for w, ids := range b.words {
			words[w] = roaring.BitmapOf(ids...)
		}
	}, func() {
		for f, ids := range b.flags {
			x.flags[f] = roaring.BitmapOf(ids...)
		}
		x.live = roaring.BitmapOf(b.live...)
	})
	next := make(chan func(), len(tasks))
	for _, t := range tasks {
		next <- t
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				t()
			}
		}()
	}
	wg.Wait()
}

// hashedField reports the keyword fields kept in uniq/dups, not postings.
func hashedField(f index.Field) bool { return f == index.ContactEmailField || f == index.LinkedInField }

func valueHash(v string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(v))
	return h.Sum64()
}

// idOf returns the id of a live persona.
func (x *contactIndex) idOf(pid int64) (uint32, bool) {
	if id, ok := x.ids[pid]; ok {
		return id, true
	}
	if i, ok := slices.BinarySearch(x.persona[:x.loaded], pid); ok && x.live.Contains(uint32(i)) {
		return uint32(i), true
	}
	return 0, false
}

func (x *contactIndex) titleOf(id uint32) string {
	if x.titleLen[id] == 0 {
		return ""
	}
	return unsafe.String(&x.text[x.titleAt[id]], int(x.titleLen[id]))
}

func (x *contactIndex) nameOf(id uint32) string {
	if x.nameLen[id] == 0 {
		return ""
	}
	return unsafe.String(&x.text[x.nameAt[id]], int(x.nameLen[id]))
}

// putText appends s to the arena (cut at 65,535 bytes).
func (x *contactIndex) putText(s string) (uint32, uint16) {
	if len(s) > math.MaxUint16 {
		s = s[:math.MaxUint16]
	}
	at := uint32(len(x.text))
	x.text = append(x.text, s...)
	return at, uint16(len(s))
}

// cEntry is a contact's compact entry.
type cEntry struct {
	kw          [][]string // per contactKeyword field
	flags       uint8      // bit per contactFlags field
	conns, job  int32
	rank        uint8
	title, name string
	scale       float32
	vec         []int8
	// parts are the email-pattern name parts ("first last") of an entry
	// whose folded name does not give them (contactvotes.go), stored
	// after the vector when hasParts; vote is the entry's vote byte.
	parts    string
	hasParts bool
	vote     uint8
}

func seniorityRank(s string) uint8 {
	if i := slices.Index(record.Seniorities, s); i >= 0 {
		return uint8(i)
	}
	return uint8(len(record.Seniorities))
}

func lowerAll(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// linkedInHandle is the lower-cased profile handle of a LinkedIn URL.
func linkedInHandle(u string) string {
	i := strings.Index(strings.ToLower(u), "/in/")
	if i < 0 {
		return ""
	}
	h := u[i+4:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	return strings.ToLower(h)
}

func newCEntry(c *record.Contact, vec []float32) cEntry {
	var e cEntry
	one := func(s string) []string {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	li := ""
	var linked bool
	for _, u := range c.SocialURLs {
		if record.SocialNetworkOf(u) == "linkedin" {
			linked = true
			if li == "" {
				li = linkedInHandle(u)
			}
		}
	}
	e.kw = [][]string{
		one(c.Domain), c.Industry, one(c.CompanyCountry), one(c.CompanyState), one(c.Employees), one(c.RevenueRange),
		one(c.Seniority), one(c.Department), lowerAll(c.Skills), one(c.Country), one(c.State),
		one(strings.ToLower(c.Email)), one(li),
	}
	set := func(f index.Field, on bool) {
		if on {
			e.flags |= 1 << slices.Index(contactFlags, f)
		}
	}
	set(index.ContactEmailField, c.Email != "")
	set(index.EmailValidatedField, c.Email != "" && c.EmailValidated)
	set(index.PhoneField, len(c.Phones) > 0)
	set(index.MobileField, hasMobile(c.Phones))
	set(index.LinkedInField, linked)
	set(index.JobStartField, c.JobStartDate != "")
	set(index.RevenueField, c.RevenueRange != "")
	e.conns = int32(min(c.Connections, math.MaxInt32))
	e.job = noDate
	if d, ok := parseDay(c.JobStartDate); ok {
		e.job = d
	}
	e.rank = seniorityRank(c.Seniority)
	e.title, e.name = textfold.Words(c.Title), textfold.Words(c.Name)
	e.scale, e.vec = quantize(vec)
	e.setNameVote(c.Name)
	return e
}

func (e *cEntry) marshal(dst []byte) []byte {
	for _, vals := range e.kw {
		dst = binary.AppendUvarint(dst, uint64(len(vals)))
		for _, v := range vals {
			dst = binary.AppendUvarint(dst, uint64(len(v)))
			dst = append(dst, v...)
		}
	}
	dst = append(dst, e.flags, e.rank)
	dst = binary.AppendVarint(dst, int64(e.conns))
	dst = binary.AppendVarint(dst, int64(e.job))
	for _, s := range []string{e.title, e.name} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(e.scale))
	dst = binary.AppendUvarint(dst, uint64(len(e.vec)))
	for _, x := range e.vec {
		dst = append(dst, byte(x))
	}
	if e.hasParts {
		dst = binary.AppendUvarint(dst, uint64(len(e.parts)))
		dst = append(dst, e.parts...)
	}
	return dst
}

// unmarshal decodes a stored entry. With an interner (the load) keyword
// values are interned, and what is nearly unique per contact — the email
// and LinkedIn handle (only hashed), the title and name (copied into the
// arena) and the vector (copied into its chunk) — alias b instead of
// being copied: b must outlive the entry and not change.
func (e *cEntry) unmarshal(b []byte, in interner) error {
	r := bytes.NewReader(b)
	str := func(view bool) (string, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(r.Len()) {
			return "", errCorrupt
		}
		s := b[len(b)-r.Len() : len(b)-r.Len()+int(n)]
		r.Seek(int64(n), 1)
		switch {
		case in == nil:
			return string(s), nil
		case view:
			return unsafe.String(unsafe.SliceData(s), len(s)), nil
		}
		return in.get(s), nil
	}
	e.kw = make([][]string, len(contactKeyword))
	for i := range e.kw {
		n, err := binary.ReadUvarint(r)
		if err != nil || n > 1<<16 {
			return errCorrupt
		}
		if n > 0 {
			e.kw[i] = make([]string, 0, n)
		}
		for j := uint64(0); j < n; j++ {
			s, err := str(hashedField(contactKeyword[i]))
			if err != nil {
				return err
			}
			e.kw[i] = append(e.kw[i], s)
		}
	}
	var err error
	if e.flags, err = r.ReadByte(); err != nil {
		return errCorrupt
	}
	if e.rank, err = r.ReadByte(); err != nil {
		return errCorrupt
	}
	c, err1 := binary.ReadVarint(r)
	j, err2 := binary.ReadVarint(r)
	if err1 != nil || err2 != nil {
		return errCorrupt
	}
	e.conns, e.job = int32(c), int32(j)
	if e.title, err = str(true); err != nil {
		return err
	}
	if e.name, err = str(true); err != nil {
		return err
	}
	var sb [4]byte
	if _, err := r.Read(sb[:]); err != nil {
		return errCorrupt
	}
	e.scale = math.Float32frombits(binary.LittleEndian.Uint32(sb[:]))
	n, err := binary.ReadUvarint(r)
	if err != nil || n > uint64(r.Len()) {
		return errCorrupt
	}
	rest := b[len(b)-r.Len():]
	if err := e.unmarshalParts(rest[n:]); err != nil {
		return err
	}
	rest = rest[:n]
	if in != nil && n > 0 {
		e.vec = unsafe.Slice((*int8)(unsafe.Pointer(&rest[0])), n)
		return nil
	}
	e.vec = make([]int8, n)
	for i, x := range rest {
		e.vec[i] = int8(x)
	}
	return nil
}

func contactKey(prefix string, id int64) []byte {
	k := make([]byte, 0, len(prefix)+8)
	k = append(k, prefix...)
	return binary.BigEndian.AppendUint64(k, uint64(id))
}

// contactsLoaded returns the contact index, loading it from the store on
// first use.
func (e *Engine) contactIdx() (*contactIndex, error) {
	e.contactsOnce.Do(func() { e.contacts, e.contactsErr = e.loadContacts() })
	return e.contacts, e.contactsErr
}

// LoadContacts loads the contact index now rather than on the first
// contact request (serve calls it at start).
func (e *Engine) LoadContacts() error {
	_, err := e.contactIdx()
	return err
}

func newContactIndex() *contactIndex {
	x := &contactIndex{ids: map[int64]uint32{}, domIDs: map[string]uint32{}, live: roaring.New(), post: map[index.Field]map[string]*roaring.Bitmap{},
		flags: map[index.Field]*roaring.Bitmap{}, words: map[string]*roaring.Bitmap{},
		uniq: map[index.Field]map[uint64]uint32{}, dups: map[index.Field]map[uint64][]uint32{}}
	for _, f := range contactKeyword {
		if hashedField(f) {
			x.uniq[f], x.dups[f] = map[uint64]uint32{}, map[uint64][]uint32{}
			continue
		}
		x.post[f] = map[string]*roaring.Bitmap{}
	}
	for _, f := range contactFlags {
		x.flags[f] = roaring.New()
	}
	return x
}

// loadContacts builds the contact index from the store. One goroutine
// reads the store in key order, decoders decode batches in parallel, and
// two assemblers take every batch in order: one the per-contact columns
// (ids, vectors, text, employer, hashed email and LinkedIn), the other
// the posting lists. A fresh load assigns ids in key order and never
// replaces, so both know a contact's id from its position; the posting
// lists are collected as sorted id lists and become bitmaps at the end.
func (e *Engine) loadContacts() (*contactIndex, error) {
	if !e.beginRead() {
		return nil, fmt.Errorf("load contacts: %w", ErrClosed)
	}
	defer e.reads.Done()
	x := newContactIndex()
	bulk := &contactBulk{post: map[index.Field]map[string][]uint32{}, flags: map[index.Field][]uint32{}, words: map[string][]uint32{}}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixContactEntry), UpperBound: []byte("cx0")})
	if err != nil {
		return nil, fmt.Errorf("load contacts: %w", err)
	}
	defer it.Close()

	type decoded struct {
		first   uint32 // id of entries[0]
		ids     []int64
		entries []cEntry
		err     error
	}
	type batch struct {
		first uint32
		ids   []int64
		vals  [][]byte
		out   chan *decoded
	}
	work := make(chan batch, 4)
	order := make(chan chan *decoded, 8)
	var readErr error
	go func() {
		defer close(order)
		defer close(work)
		var cur batch
		var next uint32
		flush := func() {
			if contactBatchHook != nil {
				contactBatchHook()
			}
			cur.out = make(chan *decoded, 1)
			order <- cur.out
			work <- cur
			next += uint32(len(cur.ids))
			cur = batch{first: next}
		}
		for it.First(); it.Valid(); it.Next() {
			if e.stopping.Load() {
				readErr = ErrClosed
				return
			}
			k := it.Key()
			if len(k) != len(prefixContactEntry)+8 {
				continue
			}
			cur.ids = append(cur.ids, int64(binary.BigEndian.Uint64(k[len(prefixContactEntry):])))
			cur.vals = append(cur.vals, slices.Clone(it.Value()))
			if len(cur.ids) == 4096 {
				flush()
			}
		}
		if len(cur.ids) > 0 {
			flush()
		}
		readErr = it.Error()
	}()
	var wg sync.WaitGroup
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := interner{}
			for b := range work {
				d := &decoded{first: b.first, ids: b.ids, entries: make([]cEntry, len(b.ids))}
				for i := range b.vals {
					if err := d.entries[i].unmarshal(b.vals[i], in); err != nil {
						d.err = fmt.Errorf("load contact %d: %w", b.ids[i], err)
						break
					}
				}
				b.out <- d
			}
		}()
	}
	// The assemblers: this goroutine hands each batch, in key order, to
	// both and waits for neither.
	rows, posts := make(chan *decoded, 8), make(chan *decoded, 8)
	var asm sync.WaitGroup
	asm.Add(2)
	var groups []uint16 // each contact's sketch group (layoutSigns)
	depts := map[string]uint8{}
	go func() {
		defer asm.Done()
		for d := range rows {
			for i := range d.entries {
				x.loadRow(d.first+uint32(i), d.ids[i], &d.entries[i])
				groups = append(groups, signGroup(depts, &d.entries[i]))
			}
		}
	}()
	go func() {
		defer asm.Done()
		for d := range posts {
			for i := range d.entries {
				bulk.add(d.first+uint32(i), &d.entries[i])
			}
		}
	}()
	var firstErr error
	for out := range order {
		d := <-out
		if d.err != nil && firstErr == nil {
			firstErr = d.err
		}
		if firstErr != nil {
			continue // drain, so the reader and decoders finish
		}
		rows <- d
		posts <- d
	}
	close(rows)
	close(posts)
	asm.Wait()
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if readErr != nil {
		return nil, fmt.Errorf("load contacts: %w", readErr)
	}
	x.loaded = uint32(len(x.persona))
	x.layoutSigns(groups)
	x.finishLoad(bulk)
	return x, nil
}

// contactBatchHook, when set (tests), runs in the contact load's reader
// as it hands on each batch.
var contactBatchHook func()

// loadRow stores the columns of contact id (the next one: a fresh load
// assigns ids in order) and its hashed email and LinkedIn handle.
func (x *contactIndex) loadRow(id uint32, pid int64, en *cEntry) {
	x.grow()
	x.setRow(id, pid, en)
	x.setVote(id, en.vote)
	for i, f := range contactKeyword {
		if hashedField(f) {
			for _, v := range en.kw[i] {
				x.addHashed(f, v, id)
			}
		}
	}
}

// add collects contact id's postings (keyword values, flags, title
// words) as id lists; new keys are copied, since the entry's strings may
// alias its stored value.
func (b *contactBulk) add(id uint32, en *cEntry) {
	for i, f := range contactKeyword {
		if hashedField(f) {
			continue
		}
		m := b.post[f]
		if m == nil {
			m = map[string][]uint32{}
			b.post[f] = m
		}
		for _, v := range en.kw[i] {
			if l, ok := m[v]; ok {
				m[v] = append(l, id)
			} else {
				m[strings.Clone(v)] = []uint32{id}
			}
		}
	}
	for i, f := range contactFlags {
		if en.flags&(1<<i) != 0 {
			b.flags[f] = append(b.flags[f], id)
		}
	}
	for _, w := range strings.Fields(en.title) {
		if l, ok := b.words[w]; ok {
			b.words[w] = append(l, id)
		} else {
			b.words[strings.Clone(w)] = []uint32{id}
		}
	}
	b.live = append(b.live, id)
}

// place indexes a contact. old is its previous entry when it replaces
// one (the caller reads it from the store), so only the postings of its
// own values are touched.
func (x *contactIndex) place(pid int64, en *cEntry, old *cEntry) {
	prev, had := x.idOf(pid)
	if had && old != nil {
		x.unplace(prev, old)
	}
	var id uint32
	switch n := len(x.free); {
	case had && old != nil && prev < x.loaded:
		id = prev // keeps its place in the sorted column
	case n > 0:
		id, x.free = x.free[n-1], x.free[:n-1]
	default:
		id = uint32(len(x.persona))
		x.grow()
	}
	x.setRow(id, pid, en)
	x.setSign(id, en.vec)
	x.setVote(id, en.vote)
	if id >= x.loaded {
		x.ids[pid] = id
	}
	for i, f := range contactKeyword {
		for _, v := range en.kw[i] {
			if hashedField(f) {
				x.addHashed(f, v, id)
				continue
			}
			bm := x.post[f][v]
			if bm == nil {
				bm = roaring.New()
				// A copy: the value may share memory with the rest of
				// its record (the ingest decoder's).
				x.post[f][strings.Clone(v)] = bm
			}
			bm.Add(id)
		}
	}
	for i, f := range contactFlags {
		if en.flags&(1<<i) != 0 {
			x.flags[f].Add(id)
		}
	}
	for _, w := range strings.Fields(en.title) {
		bm := x.words[w]
		if bm == nil {
			bm = roaring.New()
			x.words[strings.Clone(w)] = bm
		}
		bm.Add(id)
	}
	x.live.Add(id)
}

// grow appends one id's room to every column.
func (x *contactIndex) grow() {
	x.persona = append(x.persona, 0)
	x.scale = append(x.scale, 0)
	x.conns = append(x.conns, 0)
	x.jobs = append(x.jobs, 0)
	x.rank = append(x.rank, 0)
	x.domID = append(x.domID, 0)
	x.signAt = append(x.signAt, noSign)
	x.titleAt, x.titleLen = append(x.titleAt, 0), append(x.titleLen, 0)
	x.nameAt, x.nameLen = append(x.nameAt, 0), append(x.nameLen, 0)
}

// setRow fills contact id's columns: persona id, vector, scalars, text
// and interned employer domain; not its sketch (setSign, or a load's
// layoutSigns).
func (x *contactIndex) setRow(id uint32, pid int64, en *cEntry) {
	if x.dim == 0 {
		x.dim = len(en.vec)
	}
	x.persona[id] = pid
	c := int(id) / chunkDocs
	for len(x.vecs) <= c {
		x.vecs = append(x.vecs, make([]int8, chunkDocs*x.dim))
	}
	copy(x.vecs[c][(int(id)%chunkDocs)*x.dim:], en.vec)
	x.scale[id], x.conns[id], x.jobs[id], x.rank[id] = en.scale, en.conns, en.job, en.rank
	x.titleAt[id], x.titleLen[id] = x.putText(en.title)
	x.nameAt[id], x.nameLen[id] = x.putText(en.name)
	dom := ""
	if len(en.kw[0]) > 0 {
		dom = en.kw[0][0]
	}
	did, ok := x.domIDs[dom]
	if !ok {
		dom = strings.Clone(dom)
		did = uint32(len(x.domNames))
		x.domIDs[dom] = did
		x.domNames = append(x.domNames, dom)
	}
	x.domID[id] = did
}

// addHashed maps the hash of a nearly unique value (email, LinkedIn
// handle) to contact id.
func (x *contactIndex) addHashed(f index.Field, v string, id uint32) {
	h := valueHash(v)
	if first, taken := x.uniq[f][h]; taken {
		if len(x.dups[f][h]) == 0 {
			x.dups[f][h] = []uint32{first}
		}
		x.dups[f][h] = append(x.dups[f][h], id)
	} else {
		x.uniq[f][h] = id
	}
}

// unplace removes contact id, whose entry was old, from the index.
func (x *contactIndex) unplace(id uint32, old *cEntry) {
	x.live.Remove(id)
	for i, f := range contactKeyword {
		for _, v := range old.kw[i] {
			if hashedField(f) {
				h := valueHash(v)
				if list := x.dups[f][h]; len(list) > 0 {
					list = slices.DeleteFunc(list, func(o uint32) bool { return o == id })
					switch len(list) {
					case 0, 1:
						delete(x.dups[f], h)
						if len(list) == 1 {
							x.uniq[f][h] = list[0]
						} else {
							delete(x.uniq[f], h)
						}
					default:
						x.dups[f][h] = list
						x.uniq[f][h] = list[0]
					}
				} else if x.uniq[f][h] == id {
					delete(x.uniq[f], h)
				}
				continue
			}
			if bm := x.post[f][v]; bm != nil {
				bm.Remove(id)
				if bm.IsEmpty() {
					delete(x.post[f], v)
				}
			}
		}
	}
	for _, bm := range x.flags {
		bm.Remove(id)
	}
	for _, w := range strings.Fields(old.title) {
		if bm := x.words[w]; bm != nil {
			bm.Remove(id)
		}
	}
	if id >= x.loaded {
		delete(x.ids, x.persona[id])
		x.free = append(x.free, id)
	}
}

// storedEntry reads a contact's current entry, nil when there is none.
func (e *Engine) storedEntry(pid int64) (*cEntry, error) {
	v, closer, err := e.db.Get(contactKey(prefixContactEntry, pid))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read contact %d: %w", pid, err)
	}
	defer closer.Close()
	var en cEntry
	if err := en.unmarshal(v, nil); err != nil {
		return nil, fmt.Errorf("read contact %d: %w", pid, err)
	}
	return &en, nil
}

// UpsertContacts implements index.ContactEngine.
func (e *Engine) UpsertContacts(ctx context.Context, docs []index.ContactDoc) ([]index.DocError, error) {
	x, err := e.contactIdx()
	if err != nil {
		return nil, err
	}
	e.mu.RLock()
	dim := e.dim
	e.mu.RUnlock()
	var failed []index.DocError
	type work struct {
		pid int64
		en  cEntry
		js  []byte
	}
	var ws []work
	for _, d := range docs {
		c := d.Contact
		fail := func(reason string) {
			failed = append(failed, index.DocError{Domain: strconv.FormatInt(c.PersonaID, 10), Reason: reason})
		}
		switch {
		case c.PersonaID <= 0:
			fail("persona_id must be a positive integer")
			continue
		case dim == 0 || len(d.Vector) != dim:
			fail(fmt.Sprintf("vector has %d dimensions, the index %d", len(d.Vector), dim))
			continue
		}
		js, err := json.Marshal(c)
		if err != nil {
			fail(err.Error())
			continue
		}
		ws = append(ws, work{pid: c.PersonaID, en: newCEntry(&c, d.Vector), js: js})
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed {
		return failed, errors.New("index is closed")
	}
	if e.dim != dim {
		return failed, fmt.Errorf("upsert contacts: %w: index dimension changed during the write", index.ErrVectorMismatch)
	}
	if err := e.checkEmbedderLocked(contactEmbedders(docs)); err != nil {
		return failed, err
	}
	olds := make([]*cEntry, len(ws))
	x.mu.RLock()
	var existing []int
	for i := range ws {
		if _, ok := x.idOf(ws[i].pid); ok {
			existing = append(existing, i)
		}
	}
	x.mu.RUnlock()
	for _, i := range existing {
		if olds[i], err = e.storedEntry(ws[i].pid); err != nil {
			return failed, err
		}
	}
	b := e.db.NewBatch()
	var buf []byte
	for i := range ws {
		buf = ws[i].en.marshal(buf[:0])
		if err := b.Set(contactKey(prefixContactEntry, ws[i].pid), buf, nil); err != nil {
			return failed, err
		}
		if err := b.Set(contactKey(prefixContactProfile, ws[i].pid), ws[i].js, nil); err != nil {
			return failed, err
		}
	}
	if e.refit != nil {
		cs := make([]record.Contact, 0, len(ws))
		for _, d := range docs {
			if d.Contact.PersonaID > 0 && len(d.Vector) == dim {
				cs = append(cs, d.Contact)
			}
		}
		e.stageContactWrites(b, cs)
	}
	if err := e.commitOwn(b, e.writeOpts); err != nil {
		return failed, fmt.Errorf("write %d contacts: %w", len(ws), err)
	}
	x.mu.Lock()
	x.dropSets()
	for i := range ws {
		x.place(ws[i].pid, &ws[i].en, olds[i])
	}
	x.mu.Unlock()
	return failed, ctx.Err()
}

// DeleteContacts implements index.ContactEngine.
func (e *Engine) DeleteContacts(ctx context.Context, ids []int64) (int, error) {
	x, err := e.contactIdx()
	if err != nil {
		return 0, err
	}
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	b := e.db.NewBatch()
	x.mu.RLock()
	var found []int64
	for _, pid := range ids {
		if _, ok := x.idOf(pid); ok && !slices.Contains(found, pid) {
			found = append(found, pid)
		}
	}
	x.mu.RUnlock()
	olds := make([]*cEntry, len(found))
	for i, pid := range found {
		if olds[i], err = e.storedEntry(pid); err != nil {
			return 0, err
		}
	}
	for _, pid := range found {
		b.Delete(contactKey(prefixContactEntry, pid), nil)
		b.Delete(contactKey(prefixContactProfile, pid), nil)
	}
	e.unstageContactDeletes(b, found)
	if err := e.commitOwn(b, pebble.Sync); err != nil {
		return 0, fmt.Errorf("delete contacts: %w", err)
	}
	x.mu.Lock()
	x.dropSets()
	for i, pid := range found {
		if id, ok := x.idOf(pid); ok && olds[i] != nil {
			x.unplace(id, olds[i])
		}
	}
	x.mu.Unlock()
	return len(found), nil
}

// GetContacts implements index.ContactEngine.
func (e *Engine) GetContacts(ctx context.Context, ids []int64) ([]record.Contact, error) {
	return found(ids, e.contactProfile)
}

func (e *Engine) contactProfile(pid int64) (record.Contact, error) {
	if contactProfileHook != nil {
		contactProfileHook(pid)
	}
	var c record.Contact
	v, closer, err := e.db.Get(contactKey(prefixContactProfile, pid))
	if errors.Is(err, pebble.ErrNotFound) {
		return c, index.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("read contact %d: %w", pid, err)
	}
	defer closer.Close()
	if err := decodeStored(v, &c); err != nil {
		return c, fmt.Errorf("decode contact %d: %w", pid, err)
	}
	return c, nil
}

// contactProfileHook, when set (tests), is called on every profile read.
var contactProfileHook func(pid int64)

// ContactVectors implements index.ContactEngine.
func (e *Engine) ContactVectors(ctx context.Context, ids []int64) (map[int64][]float32, error) {
	x, err := e.contactIdx()
	if err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := map[int64][]float32{}
	for _, pid := range ids {
		if id, ok := x.idOf(pid); ok {
			out[pid] = x.vector(id)
		}
	}
	return out, nil
}

// vector dequantizes a stored vector and normalizes it.
func (x *contactIndex) vector(id uint32) []float32 {
	q := x.vecOf(id)
	out := make([]float32, len(q))
	var n float64
	for i, v := range q {
		out[i] = float32(v) * x.scale[id]
		n += float64(out[i]) * float64(out[i])
	}
	if n > 0 {
		inv := float32(1 / math.Sqrt(n))
		for i := range out {
			out[i] *= inv
		}
	}
	return out
}

func (x *contactIndex) vecOf(id uint32) []int8 {
	c := x.vecs[int(id)/chunkDocs]
	off := (int(id) % chunkDocs) * x.dim
	return c[off : off+x.dim]
}

// CountContacts implements index.ContactEngine.
func (e *Engine) CountContacts(ctx context.Context, f index.Filter) (int, error) {
	if err := index.ValidateContact(f); err != nil {
		return 0, err
	}
	x, err := e.contactIdx()
	if err != nil {
		return 0, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	bm, err := x.eval(f, x.live)
	if err != nil {
		return 0, err
	}
	return int(bm.GetCardinality()), nil
}

// dropSets forgets the keyed list bitmaps; callers hold mu for writing.
func (x *contactIndex) dropSets() {
	x.setsMu.Lock()
	x.sets = nil
	x.setsMu.Unlock()
}

// keyedTerms evaluates a keyed Terms filter (a saved list) over every
// live contact once per key and keeps the bitmap until the next write.
func (x *contactIndex) keyedTerms(n index.Terms, cand *roaring.Bitmap) (*roaring.Bitmap, error) {
	key := string(n.Field) + ":" + n.Key
	x.setsMu.Lock()
	bm, ok := x.sets[key]
	x.setsMu.Unlock()
	if !ok {
		unkeyed := n
		unkeyed.Key = ""
		var err error
		if bm, err = x.eval(unkeyed, x.live); err != nil {
			return nil, err
		}
		bm = bm.Clone() // eval may return a posting list
		bm.RunOptimize()
		x.setsMu.Lock()
		if x.sets == nil || len(x.sets) >= 64 {
			x.sets = map[string]*roaring.Bitmap{}
		}
		x.sets[key] = bm
		x.setsMu.Unlock()
	}
	return roaring.And(bm, cand), nil
}

func (x *contactIndex) eval(f index.Filter, cand *roaring.Bitmap) (*roaring.Bitmap, error) {
	switch n := f.(type) {
	case nil:
		return cand, nil
	case index.Terms:
		if n.Key != "" {
			return x.keyedTerms(n, cand)
		}
		if n.Field == index.PersonaIDField {
			out := roaring.New()
			for _, v := range n.Values {
				pid, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					continue
				}
				if id, ok := x.idOf(pid); ok {
					out.Add(id)
				}
			}
			return roaring.And(out, cand), nil
		}
		if hashedField(n.Field) {
			out := roaring.New()
			for _, v := range n.Values {
				h := valueHash(strings.ToLower(v))
				if list := x.dups[n.Field][h]; len(list) > 0 {
					out.AddMany(list)
				} else if id, ok := x.uniq[n.Field][h]; ok {
					out.Add(id)
				}
			}
			return roaring.And(out, cand), nil
		}
		lists, _ := x.lists(n)
		return x.within(lists, cand), nil
	case index.Exists:
		lists, _ := x.lists(n)
		return x.within(lists, cand), nil
	case index.Range:
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if n.Min != nil {
			lo = int64(*n.Min)
		}
		if n.Max != nil {
			hi = int64(*n.Max)
		}
		return inRange(cand, x.conns, int32(max(lo, math.MinInt32)), int32(min(hi, math.MaxInt32))), nil
	case index.DateRange:
		lo, hi, err := dayBounds(n) // lo > noDate: unknown dates never match
		if err != nil {
			return nil, err
		}
		return inRange(cand, x.jobs, lo, hi), nil
	case index.Phrase:
		p := textfold.Words(n.Text)
		if p == "" {
			return roaring.New(), nil
		}
		if n.Field == index.NameField {
			// Names match partially: any substring of the folded name.
			return filterIDs(cand, func(id uint32) bool { return strings.Contains(x.nameOf(id), p) }), nil
		}
		narrowed := cand
		for _, w := range strings.Fields(p) {
			bm := x.words[w]
			if bm == nil {
				return roaring.New(), nil
			}
			narrowed = roaring.And(narrowed, bm)
		}
		return filterIDs(narrowed, func(id uint32) bool { return textfold.ContainsPhrase(x.titleOf(id), p) }), nil
	case index.And:
		// The posting-list filters first, in one intersection; the
		// others then narrow it, in order.
		var sets []*roaring.Bitmap
		var rest []index.Filter
		for _, c := range n {
			lists, ok := x.lists(c)
			switch {
			case !ok:
				rest = append(rest, c)
			case len(lists) == 0:
				return roaring.New(), nil
			case len(lists) == 1:
				sets = append(sets, lists[0])
			default:
				sets = append(sets, roaring.FastOr(lists...))
			}
		}
		cur := cand
		if len(sets) > 0 {
			if cand != x.live { // postings hold only live contacts (within)
				sets = append(sets, cand)
			}
			cur = intersectAll(sets)
		}
		for _, c := range rest {
			next, err := x.eval(c, cur)
			if err != nil {
				return nil, err
			}
			cur = next
		}
		return cur, nil
	case index.Or:
		return evalOr(n, cand, x.eval)
	case index.Not:
		return evalNot(n, cand, x.eval)
	}
	return nil, fmt.Errorf("%w: filter %T", index.ErrUnsupported, f)
}

// lists returns the posting lists (or the flag) whose union is f, for
// plain keyword Terms and Exists; ok is false for every other filter.
func (x *contactIndex) lists(f index.Filter) (lists []*roaring.Bitmap, ok bool) {
	switch n := f.(type) {
	case index.Terms:
		if n.Key != "" || n.Field == index.PersonaIDField || hashedField(n.Field) {
			return nil, false
		}
		post := x.post[n.Field]
		lists = make([]*roaring.Bitmap, 0, len(n.Values))
		for _, v := range n.Values {
			if n.Field == index.SkillField {
				v = strings.ToLower(v)
			}
			if bm := post[v]; bm != nil {
				lists = append(lists, bm)
			}
		}
		return lists, true
	case index.Exists:
		return []*roaring.Bitmap{x.flags[n.Field]}, true
	}
	return nil, false
}

// intersectAll returns the intersection of sets (at least one; none is
// modified; the result may be one of them). One intersection of every
// posting-list filter of an And, rather than one new bitmap a filter: at
// 15M contacts a grouped search's filter (two seniorities, a department,
// a company country) was intersected in 6.5-11 ms as a chain, 3.1-5.3 ms
// at once (BenchmarkIntersectAll, synthetic, load average ~3).
func intersectAll(sets []*roaring.Bitmap) *roaring.Bitmap {
	if len(sets) == 1 {
		return sets[0]
	}
	return roaring.FastAnd(sets...)
}

// within returns the union of lists (posting lists or flags) within
// cand. Postings and flags hold only live contacts (unplace takes a
// contact out of every one), so over every live contact — the first
// filter of a search, cand == x.live — the intersection is skipped, and a
// single list is returned itself (eval's results are read, never
// written; nil filters already return x.live). Otherwise the union, a
// new bitmap, is intersected in place.
func (x *contactIndex) within(lists []*roaring.Bitmap, cand *roaring.Bitmap) *roaring.Bitmap {
	if len(lists) == 1 {
		if cand == x.live {
			return lists[0]
		}
		return roaring.And(lists[0], cand)
	}
	or := roaring.FastOr(lists...)
	if cand != x.live {
		or.And(cand)
	}
	return or
}

// inRange returns the ids of cand whose value in col lies in [lo, hi].
// A broad candidate set (min_connections over every contact) fills a dense
// bitset in one pass and becomes one bitmap: filterIDs' call and append per
// id cost ~16 ns an id, 80-100 ms over 5M contacts.
func inRange(cand *roaring.Bitmap, col []int32, lo, hi int32) *roaring.Bitmap {
	n := cand.GetCardinality()
	if n == 0 || lo > hi {
		return roaring.New()
	}
	top := uint64(cand.Maximum())
	if n*32 < top {
		return filterIDs(cand, func(id uint32) bool { v := col[id]; return v >= lo && v <= hi })
	}
	words := make([]uint64, top/64+1)
	it := cand.ManyIterator()
	buf := make([]uint32, 4096)
	for k := it.NextMany(buf); k > 0; k = it.NextMany(buf) {
		for _, id := range buf[:k] {
			if v := col[id]; v >= lo && v <= hi {
				words[id/64] |= 1 << (id % 64)
			}
		}
	}
	return roaring.FromDense(words, false)
}

type cScored struct {
	id    uint32
	score float32
}

// SearchContacts implements index.ContactEngine.
func (e *Engine) SearchContacts(ctx context.Context, s index.ContactSearch) (index.ContactResult, error) {
	var res index.ContactResult
	if err := index.ValidateContact(s.Filter); err != nil {
		return res, err
	}
	if s.Offset < 0 || s.Limit < 0 || s.PerCompany < 0 || s.MaxCompanies < 0 {
		return res, fmt.Errorf("%w: negative paging", index.ErrInvalid)
	}
	x, err := e.contactIdx()
	if err != nil {
		return res, err
	}
	x.mu.RLock()
	if s.Vector != nil && x.dim != 0 && len(s.Vector) != x.dim {
		x.mu.RUnlock()
		return res, fmt.Errorf("search contacts: %w: query has %d dimensions, index has %d", index.ErrVectorMismatch, len(s.Vector), x.dim)
	}
	cand, err := x.eval(s.Filter, x.live)
	if err != nil {
		x.mu.RUnlock()
		return res, err
	}
	picked, total, companies := x.ranked(ctx, cand, s)
	res.Total, res.Companies = total, companies
	type ref struct {
		pid int64
		sim float32
		vec []float32
	}
	refs := make([]ref, len(picked))
	for i, r := range picked {
		refs[i] = ref{pid: x.persona[r.id], sim: r.score}
		if s.WithVectors {
			refs[i].vec = x.vector(r.id)
		}
	}
	var domains []string
	if s.Ranked != nil {
		domains = index.RankedDomains(picked, func(c cScored) string { return x.domNames[x.domID[c.id]] })
	}
	x.mu.RUnlock()
	if s.Ranked != nil {
		s.Ranked(domains)
	}
	hits, err := found(refs, func(r ref) (index.ContactHit, error) {
		c, err := e.contactProfile(r.pid)
		if err != nil {
			return index.ContactHit{}, err
		}
		h := index.ContactHit{Contact: c, Vector: r.vec}
		if s.Vector != nil {
			h.Similarity = float64(r.sim)
		}
		return h, nil
	})
	if err != nil {
		return res, err
	}
	if len(hits) > 0 {
		res.Hits = hits
	}
	return res, ctx.Err()
}

// ranked returns the picked contacts of cand in rank order, the count of
// candidates at or above MinSimilarity and the count of their employers:
// through the sketch plan (contactsketch.go) for broad grouped searches,
// otherwise by scoring every candidate.
func (x *contactIndex) ranked(ctx context.Context, cand *roaring.Bitmap, s index.ContactSearch) (picked []cScored, total, companies int) {
	if x.sketchPlan(s, int(cand.GetCardinality())) {
		if picked, total, companies, ok := x.sketchPick(ctx, cand, s); ok {
			return picked, total, companies
		}
	}
	ranked := x.score(ctx, cand, s.Vector, float32(s.MinSimilarity))
	return x.pick(ranked, s), len(ranked), x.companiesOf(ranked)
}

// companiesOf counts the employers of the scored contacts.
func (x *contactIndex) companiesOf(ranked []cScored) int {
	doms := roaring.New()
	ids := make([]uint32, 0, 4096)
	for _, r := range ranked {
		ids = append(ids, x.domID[r.id])
		if len(ids) == cap(ids) {
			doms.AddMany(ids)
			ids = ids[:0]
		}
	}
	doms.AddMany(ids)
	return int(doms.GetCardinality())
}

// score scores every candidate (unsorted): similarity with a query
// vector, otherwise 0 (pick orders those by seniority and connections).
func (x *contactIndex) score(ctx context.Context, cand *roaring.Bitmap, q []float32, minSim float32) []cScored {
	ids := cand.ToArray()
	if q == nil {
		out := make([]cScored, len(ids))
		for i, id := range ids {
			out[i] = cScored{id: id}
		}
		return out
	}
	return x.scoreIDs(ctx, ids, q, minSim)
}

// scoreAhead is how many candidates ahead score touches a vector: the
// candidates of a filter are scattered over the chunks, so each vector is
// a miss to main memory (~270 ns a candidate at 500k contacts against
// 26 ns for the dot product itself, BenchmarkDot); touching the vectors a
// few candidates ahead starts those misses while the current ones are
// scored: ~190 ns (BenchmarkContactSearchPhases; 4 ahead measured better
// than 8 or 16).
const scoreAhead = 4

// touchSink keeps the touches from being optimized away.
var touchSink atomic.Int32

// touch reads one byte of each cache line of id's vector and its scale.
func (x *contactIndex) touch(id uint32) int8 {
	v := x.vecOf(id)
	var t int8
	for k := 0; k < len(v); k += 64 {
		t += v[k]
	}
	if x.scale[id] > 0 {
		t++
	}
	return t
}

// before is the rank order: by similarity (ties by persona id) with a
// query vector; otherwise by seniority, then more connections, then lower
// persona id.
func (x *contactIndex) before(a, b cScored, byVector bool) bool {
	if byVector {
		if a.score != b.score {
			return a.score > b.score
		}
		return x.persona[a.id] < x.persona[b.id]
	}
	if x.rank[a.id] != x.rank[b.id] {
		return x.rank[a.id] < x.rank[b.id]
	}
	if x.conns[a.id] != x.conns[b.id] {
		return x.conns[a.id] > x.conns[b.id]
	}
	return x.persona[a.id] < x.persona[b.id]
}

// compare is the rank order (before) as a sort comparison.
func (x *contactIndex) compare(byVector bool) func(a, b cScored) int {
	return func(a, b cScored) int {
		if x.before(a, b, byVector) {
			return -1
		}
		if x.before(b, a, byVector) {
			return 1
		}
		return 0
	}
}

// pick ranks the scored candidates far enough to fill the page: it sorts
// only the best m (selection first), and doubles m until the grouping is
// complete or every candidate is sorted.
func (x *contactIndex) pick(all []cScored, s index.ContactSearch) []cScored {
	byVector := s.Vector != nil
	before := func(a, b cScored) bool { return x.before(a, b, byVector) }
	cmp := x.compare(byVector)
	want := s.Limit
	if s.PerCompany > 0 && s.MaxCompanies > 0 {
		want = min(max(want, 1), s.PerCompany*s.MaxCompanies)
	}
	m := s.Offset + 4*max(want, 256)
	for {
		if m >= len(all) {
			slices.SortFunc(all, cmp)
			return x.group(all, s)
		}
		top := x.best(all, m, byVector, before, cmp)
		picked, complete := x.groupComplete(top, s)
		if complete {
			return picked
		}
		if s.MaxCompanies > 0 {
			// The companies are ordered by their best contact, so the first
			// MaxCompanies companies of a sorted prefix are final; only
			// their other contacts remain to be found, in the rest.
			// (A bitset of employer ids: the scan below visits every
			// candidate, hundreds of thousands for a broad filter.)
			chosen := make([]uint64, (len(x.domNames)+63)/64)
			n := 0
			for i := s.Offset; i < len(top) && n < s.MaxCompanies; i++ {
				d := x.domID[top[i].id]
				if chosen[d/64]&(1<<(d%64)) == 0 {
					chosen[d/64] |= 1 << (d % 64)
					n++
				}
			}
			if n == s.MaxCompanies && s.Offset == 0 {
				var theirs []cScored
				for _, c := range all {
					if d := x.domID[c.id]; chosen[d/64]&(1<<(d%64)) != 0 {
						theirs = append(theirs, c)
					}
				}
				slices.SortFunc(theirs, cmp)
				return x.group(theirs, s)
			}
		}
		m *= 4
	}
}

// best returns the m best of all (m < len(all)) in rank order. With a
// query vector the order is by score first, so it selects on the scores
// alone (a quickselect over a float32 copy, no comparator calls: a broad
// filter has hundreds of thousands of candidates) and sorts only the
// candidates at or above the m-th best score, the sort settling ties at
// that score by persona id as the rank order does.
func (x *contactIndex) best(all []cScored, m int, byVector bool, before func(a, b cScored) bool, cmp func(a, b cScored) int) []cScored {
	if byVector {
		scores := make([]float32, len(all))
		for i, c := range all {
			scores[i] = c.score
		}
		t := kthLargest(scores, m)
		top := make([]cScored, 0, m+m/8)
		for _, c := range all {
			if c.score >= t {
				top = append(top, c)
			}
		}
		if len(top) >= m { // fewer only with NaN scores: then as below
			slices.SortFunc(top, cmp)
			return top[:m]
		}
	}
	// Partition: the best m first, in no order, then sort them.
	top := slices.Clone(all)
	nthElement(top, m, before)
	top = top[:m]
	slices.SortFunc(top, cmp)
	return top
}

// kthLargest returns the k-th largest value of a (1 ≤ k ≤ len(a)),
// reordering a.
func kthLargest(a []float32, k int) float32 {
	nthElement(a, k, func(x, y float32) bool { return x > y })
	return a[k-1]
}

// nthElement reorders a so that its first n elements are the n best
// (quickselect).
func nthElement[T any](a []T, n int, before func(a, b T) bool) {
	lo, hi := 0, len(a)-1
	seed := uint64(len(a))*0x9E3779B97F4A7C15 + 1
	for lo < hi {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		p := a[lo+int(seed%uint64(hi-lo+1))]
		i, j := lo, hi
		for i <= j {
			for before(a[i], p) {
				i++
			}
			for before(p, a[j]) {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case n-1 <= j:
			hi = j
		case n-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// groupComplete groups a ranked prefix and reports whether the result
// cannot change with more of the ranking: the limit, or the company cap
// with every kept company full, was reached inside the prefix.
func (x *contactIndex) groupComplete(prefix []cScored, s index.ContactSearch) ([]cScored, bool) {
	picked := x.group(prefix, s)
	if s.Limit > 0 && len(picked) >= s.Limit {
		return picked, true
	}
	if s.MaxCompanies > 0 && s.PerCompany > 0 && len(picked) >= s.MaxCompanies*s.PerCompany {
		return picked, true
	}
	return picked, false
}

// group applies offset, the per-company and company caps and the limit,
// and returns the picked contacts grouped by company in order of each
// company's best contact.
func (x *contactIndex) group(ranked []cScored, s index.ContactSearch) []cScored {
	if s.Offset < len(ranked) {
		ranked = ranked[s.Offset:]
	} else {
		ranked = nil
	}
	var order []uint32
	groups := map[uint32][]cScored{}
	total := 0
	for _, r := range ranked {
		if s.Limit > 0 && total >= s.Limit {
			break
		}
		d := x.domID[r.id]
		g, seen := groups[d]
		if !seen {
			if s.MaxCompanies > 0 && len(order) >= s.MaxCompanies {
				continue
			}
			order = append(order, d)
		}
		if s.PerCompany > 0 && len(g) >= s.PerCompany {
			continue
		}
		groups[d] = append(g, r)
		total++
	}
	out := make([]cScored, 0, total)
	for _, d := range order {
		out = append(out, groups[d]...)
	}
	return out
}

// hasMobile reports whether any E.164 number is a mobile number.
func hasMobile(phones []string) bool {
	for _, p := range phones {
		if record.PhoneType(p) == record.PhoneMobile {
			return true
		}
	}
	return false
}

// refreshEmployersLocked copies re-indexed companies' firmographics onto
// their contacts, so company filters on contacts see the new values. The
// caller holds writeMu. Vectors are kept: they embed the contact's own
// text, and its employer's industries only as they were at indexing.
func (e *Engine) refreshEmployersLocked(docs []index.CompanyDoc) error {
	x, err := e.contactIdx()
	if err != nil {
		return err
	}
	x.mu.RLock()
	var touched []int64
	for _, d := range docs {
		if bm := x.post[index.DomainField][d.Company.Domain]; bm != nil {
			it := bm.Iterator()
			for it.HasNext() {
				touched = append(touched, x.persona[it.Next()])
			}
		}
	}
	x.mu.RUnlock()
	if len(touched) == 0 {
		return nil
	}
	byDomain := make(map[string]*record.Company, len(docs))
	for i := range docs {
		byDomain[docs[i].Company.Domain] = &docs[i].Company
	}
	b := e.db.NewBatch()
	type upd struct {
		pid int64
		en  cEntry
		old *cEntry
	}
	var ups []upd
	var buf []byte
	for _, pid := range touched {
		c, err := e.contactProfile(pid)
		if err != nil {
			return fmt.Errorf("refresh contact %d: %w", pid, err)
		}
		co := byDomain[c.Domain]
		if co == nil {
			continue
		}
		c.SetEmployer(*co)
		x.mu.RLock()
		id, _ := x.idOf(pid)
		vec := x.vector(id)
		x.mu.RUnlock()
		en := newCEntry(&c, vec)
		old, err := e.storedEntry(pid)
		if err != nil {
			return err
		}
		js, err := json.Marshal(c)
		if err != nil {
			return err
		}
		buf = en.marshal(buf[:0])
		b.Set(contactKey(prefixContactEntry, pid), buf, nil)
		b.Set(contactKey(prefixContactProfile, pid), js, nil)
		ups = append(ups, upd{pid: pid, en: en, old: old})
	}
	if err := e.commitOwn(b, e.writeOpts); err != nil {
		return fmt.Errorf("refresh %d contacts: %w", len(ups), err)
	}
	x.mu.Lock()
	x.dropSets()
	for i := range ups {
		x.place(ups[i].pid, &ups[i].en, ups[i].old)
	}
	x.mu.Unlock()
	return nil
}

// FinishContactLoad compacts the contacts a load wrote, so the next open
// reads a settled store rather than piles of level-0 tables: the first
// start after loading 10M contacts took 24 s, the next one, on a settled
// store, 10 s.
func (e *Engine) FinishContactLoad(ctx context.Context) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	if e.closed {
		return nil
	}
	if err := e.db.Compact([]byte(prefixContactProfile), []byte("cx0"), true); err != nil {
		return fmt.Errorf("compact contacts: %w", err)
	}
	return ctx.Err()
}
