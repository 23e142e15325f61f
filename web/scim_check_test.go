package web_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// scimChecks keeps a test's SCIM answers and, when the test ends, has SCIMMY (an independent SCIM 2.0
// implementation, run with node from testdata/scimmy) check them against RFC 7643 and 7644, beside the
// test's own assertions.
type scimChecks struct {
	mu      sync.Mutex
	answers []scimAnswer
}

// scimAnswer is an answer to check: its kind, its body, whether it answers attributes or
// excludedAttributes (so that required attributes may be left out), and the HTTP status.
type scimAnswer struct {
	Kind    string `json:"kind"`
	Body    any    `json:"body"`
	Partial bool   `json:"partial,omitempty"`
	Status  int    `json:"status"`
}

// newSCIMChecks returns the checks of a test, run when it ends.
func newSCIMChecks(t *testing.T) *scimChecks {
	c := &scimChecks{}
	t.Cleanup(func() { c.run(t) })
	return c
}

// add keeps an answer to check: an error, a list (and each of its resources), a User, a Group, a
// ResourceType or the ServiceProviderConfig, told apart by its schemas. partial says that the request
// named attributes or excludedAttributes.
func (c *scimChecks) add(status int, body map[string]any, partial bool) {
	if body == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if status >= 400 {
		c.answers = append(c.answers, scimAnswer{Kind: "Error", Body: body, Status: status})
		return
	}
	c.answers = append(c.answers, resourceAnswers(status, body, partial)...)
}

func resourceAnswers(status int, body map[string]any, partial bool) []scimAnswer {
	schemas, _ := body["schemas"].([]any)
	has := func(id string) bool { return slices.Contains(schemas, any(id)) }
	answer := func(kind string) []scimAnswer {
		return []scimAnswer{{Kind: kind, Body: body, Partial: partial, Status: status}}
	}
	switch {
	case has("urn:ietf:params:scim:api:messages:2.0:ListResponse"):
		out := answer("ListResponse")
		resources, _ := body["Resources"].([]any)
		for _, r := range resources {
			if m, ok := r.(map[string]any); ok {
				out = append(out, resourceAnswers(status, m, partial)...)
			}
		}
		return out
	case has("urn:ietf:params:scim:schemas:core:2.0:User"):
		return answer("User")
	case has("urn:ietf:params:scim:schemas:core:2.0:Group"):
		return answer("Group")
	case has("urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"):
		return answer("ServiceProviderConfig")
	case has("urn:ietf:params:scim:schemas:core:2.0:ResourceType"):
		return answer("ResourceType")
	}
	return nil // a Schema: SCIMMY has no definition of the schema of schemas
}

// errNoNode says that node, which runs SCIMMY, is not installed.
var errNoNode = errors.New("node is not installed, so SCIMMY cannot check the SCIM answers " +
	"(.ci/run installs it; elsewhere apt-get install -y nodejs npm)")

// scimmyOnce installs SCIMMY (testdata/scimmy/package-lock.json) once per run when it is missing.
var scimmyOnce = sync.OnceValue(func() error {
	if _, err := exec.LookPath("node"); err != nil {
		return errNoNode
	}
	if _, err := os.Stat(filepath.Join("testdata", "scimmy", "node_modules", "scimmy")); err == nil {
		return nil
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--prefix", filepath.Join("testdata", "scimmy"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &installError{err: err, out: out}
	}
	return nil
})

type installError struct {
	err error
	out []byte
}

func (e *installError) Error() string { return "npm ci: " + e.err.Error() + "\n" + string(e.out) }

// run has SCIMMY check the answers kept, and fails the test for each problem it finds. Without node
// the answers go unchecked, said in the test's log; in CI that fails the test.
func (c *scimChecks) run(t *testing.T) {
	c.mu.Lock()
	answers := c.answers
	c.mu.Unlock()
	if len(answers) == 0 || t.Failed() {
		return
	}
	problems, err := scimmyProblems(answers)
	if errors.Is(err, errNoNode) && os.Getenv("CI") != "true" {
		t.Log(err)
		return
	}
	if err != nil {
		t.Error(err)
		return
	}
	for _, p := range problems {
		var a scimAnswer
		if i := indexOf(p); i >= 0 && i < len(answers) {
			a = answers[i]
		}
		body, _ := json.Marshal(a.Body)
		t.Errorf("SCIMMY: %s\n%s", p, body)
	}
}

// scimmyProblems has check.mjs check the answers with SCIMMY and returns the problems it finds, each
// starting "answer <index> (<kind>): ".
func scimmyProblems(answers []scimAnswer) ([]string, error) {
	if err := scimmyOnce(); err != nil {
		if errors.Is(err, errNoNode) {
			return nil, err
		}
		return nil, fmt.Errorf("SCIMMY, which checks the SCIM answers, cannot be installed: %w", err)
	}
	in, err := json.Marshal(answers)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("node", filepath.Join("testdata", "scimmy", "check.mjs"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("SCIMMY check: %w\n%s", err, stderr.String())
	}
	var problems []string
	if err := json.Unmarshal(out, &problems); err != nil {
		return nil, fmt.Errorf("SCIMMY check answered %q: %w", out, err)
	}
	return problems, nil
}

// indexOf reads the answer number at the start of a problem, "answer 3 (User): …".
func indexOf(problem string) int {
	var i int
	if n, _ := fmt.Sscanf(problem, "answer %d", &i); n < 1 {
		return -1
	}
	return i
}

// TestSCIMMYFindsProblems checks the checker: SCIMMY and check.mjs pass answers that keep RFC 7643 and
// 7644, and find each kind of problem in answers that do not.
func TestSCIMMYFindsProblems(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil && os.Getenv("CI") != "true" {
		t.Skip(errNoNode)
	}
	user := func(change func(map[string]any)) map[string]any {
		u := map[string]any{
			"schemas":  []any{"urn:ietf:params:scim:schemas:core:2.0:User", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"},
			"id":       "2819c223-7f76-453a-919d-413861904646",
			"userName": "nnovak", "displayName": "Nina Novak", "active": true,
			"name":   map[string]any{"givenName": "Nina", "familyName": "Novak", "formatted": "Nina Novak"},
			"emails": []any{map[string]any{"value": "nina@acme.test", "type": "work", "primary": true}},
			"meta": map[string]any{"resourceType": "User", "created": "2026-11-23T08:00:00Z", "lastModified": "2026-11-23T08:00:00Z",
				"location": "https://booking.example/scim/v2/Users/2819c223-7f76-453a-919d-413861904646", "version": `W/"3694e05e9dff590"`},
		}
		if change != nil {
			change(u)
		}
		return u
	}
	list := func(itemsPerPage int, resources ...any) map[string]any {
		return map[string]any{"schemas": []any{"urn:ietf:params:scim:api:messages:2.0:ListResponse"},
			"totalResults": len(resources), "itemsPerPage": itemsPerPage, "startIndex": 1, "Resources": resources}
	}
	scimError := func(status, scimType string) map[string]any {
		e := map[string]any{"schemas": []any{"urn:ietf:params:scim:api:messages:2.0:Error"}, "status": status, "detail": "refused"}
		if scimType != "" {
			e["scimType"] = scimType
		}
		return e
	}
	for _, tc := range []struct {
		name   string
		answer scimAnswer
		want   string // a part of the problem found; "" for none
	}{
		{"User", scimAnswer{Kind: "User", Body: user(nil), Status: 200}, ""},
		{"List", scimAnswer{Kind: "ListResponse", Body: list(1, user(nil)), Status: 200}, ""},
		{"PartialUser", scimAnswer{Kind: "User", Body: map[string]any{"schemas": []any{"urn:ietf:params:scim:schemas:core:2.0:User"},
			"id": "x", "name": map[string]any{"givenName": "Nina"}}, Partial: true, Status: 200}, ""},
		{"Error", scimAnswer{Kind: "Error", Body: scimError("409", "uniqueness"), Status: 409}, ""},
		{"NoUserName", scimAnswer{Kind: "User", Body: user(func(u map[string]any) { delete(u, "userName") }), Status: 200},
			"Required attribute 'userName' is missing"},
		{"UnknownAttribute", scimAnswer{Kind: "User", Body: user(func(u map[string]any) { u["role"] = "ADMIN" }), Status: 200},
			"role is not an attribute of the schema"},
		{"UnknownSubAttribute", scimAnswer{Kind: "User", Body: user(func(u map[string]any) {
			u["name"].(map[string]any)["nick"] = "Ni"
		}), Status: 200}, "name.nick is not an attribute"},
		{"PartialUnknownAttribute", scimAnswer{Kind: "User", Body: map[string]any{"schemas": []any{"urn:ietf:params:scim:schemas:core:2.0:User"},
			"id": "x", "role": "ADMIN"}, Partial: true, Status: 200}, "role is not an attribute"},
		{"WrongType", scimAnswer{Kind: "User", Body: user(func(u map[string]any) { u["active"] = "yes" }), Status: 200},
			"expected value type 'boolean'"},
		{"NotAnInstant", scimAnswer{Kind: "User", Body: user(func(u map[string]any) { u["meta"].(map[string]any)["created"] = "Monday" }), Status: 200},
			"dateTime"},
		{"ForeignSchema", scimAnswer{Kind: "User", Body: user(func(u map[string]any) {
			u["schemas"] = append(u["schemas"].([]any), "urn:ietf:params:scim:schemas:core:2.0:Group")
		}), Status: 200}, "which the User resource type does not have"},
		{"ItemsPerPageIsTheCount", scimAnswer{Kind: "ListResponse", Body: list(100, user(nil)), Status: 200},
			"itemsPerPage is not the number of Resources"},
		{"TypeOfAnotherStatus", scimAnswer{Kind: "Error", Body: scimError("400", "uniqueness"), Status: 400}, "not valid for detail error keyword"},
		{"StatusNotTheHTTPStatus", scimAnswer{Kind: "Error", Body: scimError("400", ""), Status: 404}, "is not the HTTP status 404"},
		{"UnknownScimType", scimAnswer{Kind: "Error", Body: scimError("400", "badValue"), Status: 400}, "Unknown detail error keyword"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems, err := scimmyProblems([]scimAnswer{tc.answer})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems %q, want none", problems)
			case tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.want)):
				t.Errorf("problems %q, want one that says %q", problems, tc.want)
			}
		})
	}
}
