package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/openprospect/prospectd/api/apiclient"
	"github.com/openprospect/prospectd/store"
)

// checkedDoer sends requests and validates each exchange against the
// served document with libopenapi's validator: the request the generated
// client built and the response the server sent must both match their
// declarations (parameters, bodies, status codes, headers).
type checkedDoer struct {
	t *testing.T
	v validator.Validator
}

func (d checkedDoer) Do(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resBody, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	check := req.Clone(req.Context())
	check.Body = io.NopCloser(bytes.NewReader(reqBody))
	res.Body = io.NopCloser(bytes.NewReader(resBody))
	if ok, errs := d.v.ValidateHttpRequestResponse(check, res); !ok {
		for _, e := range errs {
			d.t.Errorf("%s %s: %s", req.Method, req.URL.Path, e.Error())
			for _, se := range e.SchemaValidationErrors {
				d.t.Errorf("  %s: %s", se.FieldPath, se.Reason)
			}
		}
	}
	res.Body = io.NopCloser(bytes.NewReader(resBody))
	return res, nil
}

// formOf encodes a generated multipart body type: its file fields become
// file parts and every other set field a form value, under the names the
// document declares (the json tags oapi-codegen wrote from it).
func formOf(t *testing.T, body any, fileName string, file []byte) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	v := reflect.ValueOf(body)
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		f := v.Field(i)
		switch {
		case f.Type().Name() == "File" || f.Kind() == reflect.Pointer && f.Type().Elem().Name() == "File":
			fw, err := w.CreateFormFile(name, fileName)
			if err != nil {
				t.Fatal(err)
			}
			fw.Write(file)
		case f.Kind() == reflect.Pointer && !f.IsNil():
			e := f.Elem()
			if e.Kind() == reflect.Slice {
				for j := 0; j < e.Len(); j++ {
					w.WriteField(name, fmtValue(e.Index(j)))
				}
			} else {
				w.WriteField(name, fmtValue(e))
			}
		}
	}
	w.Close()
	return &b, w.FormDataContentType()
}

func fmtValue(v reflect.Value) string { return fmt.Sprint(v.Interface()) }

// TestGeneratedClientCallsLiveServer calls a server on loopback through
// the client generated from the document, one endpoint of each group.
func TestGeneratedClientCallsLiveServer(t *testing.T) {
	f := contactFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.srv.StartJobs(ctx); err != nil {
		t.Fatal(err)
	}
	defer f.srv.StopJobs()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go f.srv.App().Listener(ln)
	defer f.srv.App().Shutdown()

	doc, err := libopenapi.NewDocument(servedDocument(t, f, "/v1/openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	c, err := apiclient.NewClientWithResponses("http://"+ln.Addr().String(),
		apiclient.WithHTTPClient(checkedDoer{t: t, v: v}),
		apiclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("X-API-Key", f.key)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	// raw sends requests the document forbids, which checkedDoer would
	// flag, to see how the server refuses them.
	raw, err := apiclient.NewClientWithResponses("http://"+ln.Addr().String(),
		apiclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("X-API-Key", f.key)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	ptr := func(s string) *string { return &s }
	n64 := func(n int64) *int64 { return &n }

	t.Run("health", func(t *testing.T) {
		res, err := c.HealthWithResponse(ctx)
		if err != nil || res.JSON200 == nil {
			t.Fatalf("%v %s", err, res.Body)
		}
	})
	t.Run("bizdata", func(t *testing.T) {
		res, err := c.GetBizdataWithResponse(ctx, &apiclient.GetBizdataParams{Domain: "acme.com"})
		if err != nil || res.JSON200 == nil || res.JSON200.Domain != "acme.com" {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("discover", func(t *testing.T) {
		res, err := c.DiscoverWithResponse(ctx, &apiclient.DiscoverParams{Country: &[]string{"US", "DE"},
			MinDigitalFootprint: n64(0), MaxRecords: n64(5)})
		if err != nil || res.JSON200 == nil || len(*res.JSON200) == 0 {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
		// A parameter breaking its declared rule is a problem document.
		bad, err := raw.DiscoverWithResponse(ctx, &apiclient.DiscoverParams{MaxRecords: n64(4)})
		if err != nil || bad.ApplicationproblemJSON422 == nil || !strings.Contains(*bad.ApplicationproblemJSON422.Detail, "query.max_records") {
			t.Fatalf("%v %d %s", err, bad.StatusCode(), bad.Body)
		}
	})
	t.Run("count", func(t *testing.T) {
		res, err := c.CountWithResponse(ctx, &apiclient.CountParams{Country: &[]string{"US"}, MinDigitalFootprint: n64(0)})
		if err != nil || res.JSON200 == nil || res.JSON200.Count == 0 {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("contacts discover", func(t *testing.T) {
		var dept apiclient.ContactDiscoverRequest_Department
		if err := dept.FromDepartment(apiclient.DepartmentTechnology); err != nil {
			t.Fatal(err)
		}
		res, err := c.ContactsDiscoverWithResponse(ctx, apiclient.ContactDiscoverRequest{Department: &dept, MaxRecords: n64(20)})
		if err != nil || res.JSON200 == nil || res.JSON200.TotalContacts == 0 {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("contacts lookup", func(t *testing.T) {
		res, err := c.ContactsLookupWithResponse(ctx, &apiclient.ContactsLookupParams{PersonaId: n64(20)})
		if err != nil || res.JSON200 == nil || res.JSON200.PersonaId != 20 {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("contacts legacy and count", func(t *testing.T) {
		seniority := []apiclient.Seniority{apiclient.SeniorityExecutive, apiclient.SeniorityVp}
		list, err := c.ContactsLegacyWithResponse(ctx, &apiclient.ContactsLegacyParams{Seniority: &seniority})
		if err != nil || list.JSON200 == nil {
			t.Fatalf("%v %d %s", err, list.StatusCode(), list.Body)
		}
		n, err := c.ContactsCountWithResponse(ctx, &apiclient.ContactsCountParams{Seniority: &seniority})
		if err != nil || n.JSON200 == nil || int(n.JSON200.Count) < len(*list.JSON200) {
			t.Fatalf("%v %d %s", err, n.StatusCode(), n.Body)
		}
	})
	t.Run("append upload", func(t *testing.T) {
		body, ct := formOf(t, apiclient.AppendMultipartBody{Dataset: &[]string{"bizdata"}, DomainColumn: ptr("website")},
			"list.csv", []byte("website\nacme.com\nunknown-domain.org\n"))
		res, err := c.AppendWithBodyWithResponse(ctx, &apiclient.AppendParams{}, ct, body)
		if err != nil || res.StatusCode() != http.StatusOK || !strings.Contains(string(res.Body), `"acme.com"`) {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("segment upload", func(t *testing.T) {
		body, ct := formOf(t, apiclient.SegmentMultipartBody{MaxSegments: n64(2)}, "list.csv", []byte("domain\nacme.com\n"))
		res, err := c.SegmentWithBodyWithResponse(ctx, ct, body)
		if err != nil || res.JSON202 == nil || res.JSON202.TaskId == "" {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
	t.Run("task status", func(t *testing.T) {
		sub, err := c.ContactsBulkMatchWithResponse(ctx, apiclient.ContactMatchBody{Queries: &[]apiclient.ContactMatchQuery{
			{Email: ptr("PRIYA@brightbank.co.uk")}}})
		if err != nil || sub.JSON202 == nil {
			t.Fatalf("%v %d %s", err, sub.StatusCode(), sub.Body)
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			st, err := c.ContactMatchStatusWithResponse(ctx, sub.JSON202.TaskId)
			if err != nil || st.JSON200 == nil {
				t.Fatalf("%v %d %s", err, st.StatusCode(), st.Body)
			}
			if st.JSON200.Status == store.TaskCompleted {
				break
			}
			if st.JSON200.Status == store.TaskFailed || time.Now().After(deadline) {
				t.Fatalf("task %s", st.Body)
			}
		}
	})
	t.Run("usage", func(t *testing.T) {
		res, err := c.GetUsageWithResponse(ctx)
		if err != nil || res.JSON200 == nil {
			t.Fatalf("%v %d %s", err, res.StatusCode(), res.Body)
		}
	})
}
