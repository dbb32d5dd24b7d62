package crawl

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/openprospect/prospectd/store"
)

func TestTask(t *testing.T) {
	f := newFarm(t)
	for _, d := range []string{"one.com", "two.com"} {
		f.site(d, page(200, "text/html", "<p>Plenty of words about "+d+" and the things it makes for its customers every day.</p>"))
	}
	f.site("three.com", page(http.StatusGone, "text/html", "gone"))
	eng, _ := newIndex(t, company("one.com"), company("two.com"), company("three.com"))
	task := &Task{Index: eng, Options: f.options()}
	ctx := context.Background()
	var last int
	progress := func(p int) {
		if p < last {
			t.Errorf("progress went back from %d to %d", last, p)
		}
		last = p
	}
	st, err := task.Run(ctx, store.Task{}, TaskInput{All: true}, progress)
	if err != nil || st.Targets != 3 || st.Crawled != 3 || last != 100 {
		t.Fatalf("all: %+v %v, progress %d", st, err, last)
	}
	last = 0
	st, err = task.Run(ctx, store.Task{}, TaskInput{Domains: []string{"two.com", "absent.com"}}, progress)
	if err != nil || st.Targets != 2 || st.Crawled != 1 || st.NotIndexed != 1 {
		t.Fatalf("domains: %+v %v", st, err)
	}
	for _, in := range []TaskInput{{}, {All: true, Domains: []string{"one.com"}}, {Domains: make([]string, MaxTaskDomains+1)}} {
		if _, err := task.Run(ctx, store.Task{}, in, progress); !errors.Is(err, ErrBadInput) {
			t.Errorf("input %d domains, all %v: err %v, want ErrBadInput", len(in.Domains), in.All, err)
		}
	}
}
