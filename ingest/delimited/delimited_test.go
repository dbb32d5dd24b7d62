package delimited

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSniff(t *testing.T) {
	for in, want := range map[string]byte{
		"domain,name": ',', "domain;name;city": ';', "domain\tname": '\t', "domain|name": '|', "domain": ',',
		`"a;b;c",x,y`: ',', "domain,name;x;y": ';',
	} {
		if got := Sniff([]byte(in)); got != want {
			t.Errorf("Sniff(%q) = %q, want %q", in, got, want)
		}
	}
}

// read returns every record of in, each as its fields, or the error text.
func read(in string, comma byte, max, bufSize int) []string {
	r := NewReader(bufio.NewReaderSize(strings.NewReader(in), bufSize), comma, max)
	var out []string
	for {
		err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out = append(out, "error: "+err.Error())
			continue
		}
		var fields []string
		for i := range r.Fields() {
			fields = append(fields, string(r.Field(i)))
		}
		rec := strings.Join(fields, "|")
		if r.Blank() {
			rec = "blank"
		}
		out = append(out, rec)
	}
}

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		comma byte
		max   int
		want  []string
	}{
		{name: "plain, no final newline", in: "a,b\nc,d", comma: ',', want: []string{"a|b", "c|d"}},
		{name: "CRLF and semicolons", in: "a;b\r\nc;d\r\n", comma: ';', want: []string{"a|b", "c|d"}},
		{name: "quotes", in: "\"Say \"\"hi\"\"\",\"two\nlines\",\"a,b\"\n", comma: ',', want: []string{`Say "hi"|two` + "\nlines|a,b"}},
		{name: "quote inside an unquoted field", in: "O\"Brien,x\n", comma: ',', want: []string{`O"Brien|x`}},
		{name: "text after a closing quote is kept, the quote stays closed", in: "\"Acme\" Corp,y\nnext,z\n", comma: ',', want: []string{"Acme Corp|y", "next|z"}},
		{name: "blank record", in: ",,\n \n", comma: ',', want: []string{"blank", "blank"}},
		{name: "empty fields", in: "a,,\n", comma: ',', want: []string{"a||"}},
		{name: "unterminated quote swallows the rest", in: "a,\"never closed\nb,c\n", comma: ',', want: []string{"error: " + ErrUnterminated.Error()}},
		{name: "a record over the cap is skipped, the next read", in: "abcdef,ghij\nok,1\n", comma: ',', max: 8, want: []string{"error: " + ErrTooLong.Error(), "ok|1"}},
		{name: "a quoted record over the cap spanning lines", in: "\"abc\ndefghijkl\",x\nok\n", comma: ',', max: 8, want: []string{"error: " + ErrTooLong.Error(), "ok"}},
		{name: "physical lines longer than the buffer", in: strings.Repeat("x", 100) + ",y\n", comma: ',', want: []string{strings.Repeat("x", 100) + "|y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = 1 << 20
			}
			got := read(tc.in, tc.comma, max, 16)
			if strings.Join(got, "\n---\n") != strings.Join(tc.want, "\n---\n") {
				t.Errorf("read %q\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzReader(f *testing.F) {
	f.Add("a,\"b\"\"c\",d\r\n\"x\ny\"z,\n", 8)
	f.Add("\"", 1)
	f.Fuzz(func(t *testing.T, in string, max int) {
		max = 1 + max&0xff
		r := NewReader(bufio.NewReaderSize(strings.NewReader(in), 16), ',', max)
		for range len(in) + 2 {
			err := r.Read()
			if errors.Is(err, io.EOF) {
				return
			}
			size := 0
			for i := range r.Fields() {
				size += len(r.Field(i))
			}
			if err == nil && size > max {
				t.Fatalf("record of %d bytes over the cap %d", size, max)
			}
		}
		t.Fatalf("no EOF after %d reads of %q", len(in)+2, in)
	})
}
