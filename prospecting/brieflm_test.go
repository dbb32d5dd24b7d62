package prospecting_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openprospect/prospectd/integrations"
	"github.com/openprospect/prospectd/prospecting"
	"github.com/openprospect/prospectd/providers/llm/llmfake"
)

func TestParseLLMBrief(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		ok         bool
		want       prospecting.LLMBrief
	}{
		{"full", `{"target_companies":200,"contacts_per_company":3,"deliverable":"leads","persona":"VP Sales, Head of Revenue","ambiguous":[]}`, true,
			prospecting.LLMBrief{TargetCompanies: ptr(200), ContactsPerCompany: ptr(3), Deliverable: ptr("leads"), Persona: "VP Sales, Head of Revenue"}},
		{"nulls", `{"target_companies":null,"contacts_per_company":null,"deliverable":null,"persona":null,"ambiguous":[]}`, true, prospecting.LLMBrief{}},
		{"fenced", "Here it is:\n```json\n{\"target_companies\":50,\"contacts_per_company\":null,\"deliverable\":\"ACCOUNTS\",\"persona\":\"\",\"ambiguous\":[\"contacts_per_company\"]}\n```", true,
			prospecting.LLMBrief{TargetCompanies: ptr(50), Deliverable: ptr("accounts"), Ambiguous: []string{"contacts_per_company"}}},
		{"out of range kept", `{"target_companies":20000,"contacts_per_company":0,"deliverable":null,"persona":null,"ambiguous":[]}`, true,
			prospecting.LLMBrief{TargetCompanies: ptr(20000), ContactsPerCompany: ptr(0)}},
		{"not json", `I think they want about 200 companies.`, false, prospecting.LLMBrief{}},
		{"missing field", `{"target_companies":200,"contacts_per_company":3,"deliverable":"leads","persona":"x"}`, false, prospecting.LLMBrief{}},
		{"fraction", `{"target_companies":20.5,"contacts_per_company":3,"deliverable":"leads","persona":null,"ambiguous":[]}`, false, prospecting.LLMBrief{}},
		{"string count", `{"target_companies":"200","contacts_per_company":3,"deliverable":"leads","persona":null,"ambiguous":[]}`, false, prospecting.LLMBrief{}},
		{"bad deliverable", `{"target_companies":200,"contacts_per_company":3,"deliverable":"people","persona":null,"ambiguous":[]}`, false, prospecting.LLMBrief{}},
		{"bad ambiguous", `{"target_companies":200,"contacts_per_company":3,"deliverable":null,"persona":null,"ambiguous":["budget"]}`, false, prospecting.LLMBrief{}},
		{"another task's answer", `{"Fit":"yes","Confidence":"high","Reasoning":"rated"}`, false, prospecting.LLMBrief{}},
	} {
		got, err := prospecting.ParseLLMBrief(tc.text)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok %v", tc.name, err, tc.ok)
			continue
		}
		if !tc.ok {
			continue
		}
		if !eqPtr(got.TargetCompanies, tc.want.TargetCompanies) || !eqPtr(got.ContactsPerCompany, tc.want.ContactsPerCompany) ||
			!eqPtr(got.Deliverable, tc.want.Deliverable) || got.Persona != tc.want.Persona || !slices.Equal(got.Ambiguous, tc.want.Ambiguous) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func FuzzParseLLMBrief(f *testing.F) {
	for _, s := range []string{`{"target_companies":200,"contacts_per_company":3,"deliverable":"leads","persona":"x","ambiguous":[]}`,
		`{"target_companies":1e300,"contacts_per_company":-3,"deliverable":null,"persona":null,"ambiguous":["deliverable"]}`, "```{}```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := prospecting.ParseLLMBrief(s)
		if err != nil {
			return
		}
		if len([]rune(l.Persona)) > 300 || l.Deliverable != nil && *l.Deliverable != "leads" && *l.Deliverable != "accounts" {
			t.Fatalf("accepted %+v", l)
		}
		q := prospecting.MergeBrief(prospecting.ReadBrief("find 200 companies"), l)
		if q.Target < 0 || q.Target > prospecting.MaxTarget || q.ContactsPer < 0 || q.ContactsPer > prospecting.MaxContactsPer {
			t.Fatalf("merged out of range: %+v", q)
		}
	})
}

func TestMergeBrief(t *testing.T) {
	for _, tc := range []struct {
		name, brief    string
		llm            prospecting.LLMBrief
		target, per    int
		accounts       bool
		questions      []string // substrings, one per question
		questionsCount int
	}{
		{"llm reads words the rules miss", "find two hundred fintech firms, a pair of CFOs at each",
			prospecting.LLMBrief{TargetCompanies: ptr(200), ContactsPerCompany: ptr(2)}, 200, 2, false, nil, 0},
		{"llm null keeps the rules", "Find 1,500 fintech companies in Germany",
			prospecting.LLMBrief{}, 1500, 0, false, nil, 0},
		{"llm value replaces the rules' out-of-range question", "find 20000 employee companies, 40 of them in payroll",
			prospecting.LLMBrief{TargetCompanies: ptr(40)}, 40, 0, false, nil, 0},
		{"out of range from the llm asks", "find a few thousand dozen companies",
			prospecting.LLMBrief{TargetCompanies: ptr(36000)}, 0, 0, false, []string{"target_companies"}, 1},
		{"llm flags ambiguity", "find a few hundred companies with some people at each",
			prospecting.LLMBrief{Ambiguous: []string{"target_companies", "contacts_per_company"}}, 0, 0, false,
			[]string{"target_companies", "contacts_per_company"}, 2},
		{"rules' ambiguity kept when the llm says nothing", "50 companies or maybe 80 companies in retail",
			prospecting.LLMBrief{}, 0, 0, false, []string{"target_companies"}, 1},
		{"llm deliverable overrides the rules", "a list of companies selling payroll, and their HR heads",
			prospecting.LLMBrief{Deliverable: ptr("leads")}, 0, 0, false, nil, 0},
		{"llm reads companies only", "just the accounts please: payroll vendors",
			prospecting.LLMBrief{Deliverable: ptr("accounts")}, 0, 0, true, nil, 0},
		{"unclear deliverable asks", "payroll vendors, maybe people too",
			prospecting.LLMBrief{Ambiguous: []string{"deliverable"}}, 0, 0, false, []string{"deliverable"}, 1},
	} {
		q := prospecting.MergeBrief(prospecting.ReadBrief(tc.brief), tc.llm)
		if q.Target != tc.target || q.ContactsPer != tc.per || q.AccountsOnly != tc.accounts || len(q.Questions) != tc.questionsCount {
			t.Errorf("%s: %+v", tc.name, q)
			continue
		}
		for i, want := range tc.questions {
			if !strings.Contains(q.Questions[i], want) {
				t.Errorf("%s: question %q does not name %s", tc.name, q.Questions[i], want)
			}
		}
	}
}

// briefFake gives the organization one LLM integration (a fake OpenAI)
// whose answer to the brief prompt is reply; other prompts (ICP checks)
// get a fit verdict.
func briefFake(t *testing.T, e *env, provider string, reply func() llmfake.Reply) *llmfake.Server {
	t.Helper()
	fake := llmfake.Start(fakeLLMKey)
	t.Cleanup(fake.Close)
	fake.Answer = func(_ int, _, prompt string) llmfake.Reply {
		if strings.Contains(prompt, "Brief:\n\"\"\"") {
			return reply()
		}
		return llmfake.Reply{Text: `{"Fit":"yes","Confidence":"high","Reasoning":"fake"}`, PromptTokens: 100, CompletionTokens: 10}
	}
	k := fakeLLMKey
	base, model := fake.URL+"/v1/", "gpt-4o-mini"
	if provider == "anthropic" {
		base, model = fake.URL, "claude-sonnet-4-5"
	}
	if _, err := e.integ.CreateLLM(context.Background(), e.actor.Org.ID, integrations.LLMFields{Name: "fake", Provider: provider, Model: model,
		BaseURL: base, APIKey: &k}); err != nil {
		t.Fatal(err)
	}
	return fake
}

func TestBriefReadByLLM(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	// "two hundred" and "a pair of" are beyond the rules; the LLM reads them.
	const brief = "Find two hundred payroll software firms in Europe and a pair of finance leaders at each"
	var answer llmfake.Reply
	fake := briefFake(t, e, "openai", func() llmfake.Reply { return answer })
	good := llmfake.Reply{Text: `{"target_companies":200,"contacts_per_company":2,"deliverable":"leads","persona":"CFO, VP Finance","ambiguous":[]}`,
		PromptTokens: 900, CompletionTokens: 60}

	t.Run("good JSON", func(t *testing.T) {
		answer = good
		p, err := e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: brief})
		if err != nil {
			t.Fatal(err)
		}
		br := p.BriefReading
		if br.Reader != prospecting.ReaderLLM || br.Fallback != "" || br.CostUSD <= 0 || p.TargetCompanies != 200 || p.ContactsPerCompany != 2 ||
			p.Persona != "CFO, VP Finance" || len(p.Questions) != 0 {
			t.Fatalf("plan %+v, reading %+v", p, br)
		}
		// The vendor was asked for strict JSON with the schema.
		body := fake.Bodies()[len(fake.Bodies())-1]
		if !strings.Contains(body, `"json_schema"`) || !strings.Contains(body, `"strict":true`) || !strings.Contains(body, `"brief_reading"`) {
			t.Fatalf("request body %s", body)
		}
		// Explicit request values beat the LLM's reading.
		p, err = e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: brief, TargetCompanies: ptr(30), Deliverable: ptr("accounts")})
		if err != nil || p.TargetCompanies != 30 || p.Deliverable != "accounts" || p.ContactsPerCompany != 2 {
			t.Fatalf("explicit values: %+v %v", p, err)
		}
	})
	t.Run("cost counts on the run", func(t *testing.T) {
		answer = good
		r, _, err := e.svc.Start(ctx, e.actor, "brief-llm-1", prospecting.Request{Brief: brief})
		if err != nil {
			t.Fatal(err)
		}
		r = e.waitStatus(t, r.ID, 20*time.Second, prospecting.StatusProposed)
		if r.Data.Plan.BriefReading.Reader != prospecting.ReaderLLM || r.Data.Costs.PlanAI <= 0 || r.Data.Costs.AI() != r.Data.Costs.PlanAI {
			t.Fatalf("reading %+v costs %+v", r.Data.Plan.BriefReading, r.Data.Costs)
		}
	})
	for _, tc := range []struct {
		name  string
		reply llmfake.Reply
		why   string
	}{
		{"invalid JSON", llmfake.Reply{Text: "Sure! About two hundred companies.", PromptTokens: 900, CompletionTokens: 20}, "not a valid reading"},
		{"wrong shape", llmfake.Reply{Text: `{"target_companies":"200","contacts_per_company":2,"deliverable":"leads","persona":null,"ambiguous":[]}`}, "not a valid reading"},
		{"server error", llmfake.Reply{Status: 500}, "LLM call failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer = tc.reply
			p, err := e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: "Find 40 payroll software firms in Europe, 3 contacts per company"})
			if err != nil {
				t.Fatal(err)
			}
			br := p.BriefReading
			// The rules' reading, and the plan says why.
			if br.Reader != prospecting.ReaderRules || !strings.Contains(br.Fallback, tc.why) || p.TargetCompanies != 40 || p.ContactsPerCompany != 3 {
				t.Fatalf("plan %d/%d, reading %+v", p.TargetCompanies, p.ContactsPerCompany, br)
			}
		})
	}
	t.Run("fallback said in the plan message", func(t *testing.T) {
		answer = llmfake.Reply{Text: "no idea"}
		r, _, err := e.svc.Start(ctx, e.actor, "brief-llm-2", prospecting.Request{Brief: "Find 40 payroll software firms in Europe, 3 contacts per company"})
		if err != nil {
			t.Fatal(err)
		}
		r = e.waitStatus(t, r.ID, 20*time.Second, prospecting.StatusProposed)
		msgs, _ := e.svc.Messages(ctx, e.actor.Org.ID, r.ID, 0)
		if len(msgs) == 0 || !strings.Contains(string(msgs[0].Body), "read by rules") || !strings.Contains(string(msgs[0].Body), "not a valid reading") {
			t.Fatalf("plan message %s", msgs[0].Body)
		}
	})
	t.Run("out-of-range values ask", func(t *testing.T) {
		answer = llmfake.Reply{Text: `{"target_companies":50000,"contacts_per_company":25,"deliverable":"leads","persona":null,"ambiguous":[]}`}
		p, err := e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: "find fifty thousand firms and 25 people each"})
		if err != nil {
			t.Fatal(err)
		}
		if p.Ready || len(p.Questions) != 2 || p.TargetCompanies != prospecting.DefaultTarget || p.ContactsPerCompany != prospecting.DefaultContactsPer {
			t.Fatalf("plan %+v", p)
		}
		// The explicit value answers the question it replaces.
		p, err = e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: "find fifty thousand firms and 25 people each", TargetCompanies: ptr(500)})
		if err != nil || len(p.Questions) != 1 || !strings.Contains(p.Questions[0], "contacts_per_company") {
			t.Fatalf("plan %+v %v", p.Questions, err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		answer = good
		e.svc.BriefTimeout = 150 * time.Millisecond
		fake.Delay = time.Second
		defer func() { e.svc.BriefTimeout, fake.Delay = 0, 0 }()
		p, err := e.svc.DryRun(ctx, e.actor, prospecting.Request{Brief: "Find 40 payroll software firms in Europe"})
		if err != nil {
			t.Fatal(err)
		}
		if p.BriefReading.Reader != prospecting.ReaderRules || !strings.Contains(p.BriefReading.Fallback, "did not answer") || p.TargetCompanies != 40 {
			t.Fatalf("reading %+v", p.BriefReading)
		}
	})
}

// TestBriefReadByAnthropic: the prompt carries the schema for a vendor
// without enforced structured outputs, and the answer is read the same.
func TestBriefReadByAnthropic(t *testing.T) {
	e := newEnv(t, envOpts{})
	fake := briefFake(t, e, "anthropic", func() llmfake.Reply {
		return llmfake.Reply{Text: "```json\n{\"target_companies\":75,\"contacts_per_company\":null,\"deliverable\":\"accounts\",\"persona\":null,\"ambiguous\":[]}\n```",
			PromptTokens: 800, CompletionTokens: 40}
	})
	p, err := e.svc.DryRun(context.Background(), e.actor, prospecting.Request{Brief: "seventy-five logistics software vendors, no people needed"})
	if err != nil {
		t.Fatal(err)
	}
	if p.BriefReading.Reader != prospecting.ReaderLLM || p.TargetCompanies != 75 || p.Deliverable != "accounts" || p.BriefReading.CostUSD <= 0 {
		t.Fatalf("plan %+v reading %+v", p, p.BriefReading)
	}
	if bodies := fake.Bodies(); !strings.Contains(bodies[len(bodies)-1], "target_companies") || !strings.Contains(bodies[len(bodies)-1], "schema") {
		t.Fatalf("request body %s", bodies[len(bodies)-1])
	}
}
