package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

type scimAnswer struct {
	Kind string `json:"kind"`
	Body any    `json:"body"`
}

// newSCIMChecks returns the checks of a test, run when it ends.
func newSCIMChecks(t *testing.T) *scimChecks {
	c := &scimChecks{}
	t.Cleanup(func() { c.run(t) })
	return c
}

// add keeps an answer to check: an error, a list (and each of its resources), a User, a Group or the
// ServiceProviderConfig, told apart by its schemas.
func (c *scimChecks) add(status int, body map[string]any) {
	if body == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if status >= 400 {
		c.answers = append(c.answers, scimAnswer{"Error", body})
		return
	}
	c.answers = append(c.answers, resourceAnswers(body)...)
}

func resourceAnswers(body map[string]any) []scimAnswer {
	schemas, _ := body["schemas"].([]any)
	has := func(id string) bool { return slices.Contains(schemas, any(id)) }
	switch {
	case has("urn:ietf:params:scim:api:messages:2.0:ListResponse"):
		out := []scimAnswer{{"ListResponse", body}}
		resources, _ := body["Resources"].([]any)
		for _, r := range resources {
			if m, ok := r.(map[string]any); ok {
				out = append(out, resourceAnswers(m)...)
			}
		}
		return out
	case has("urn:ietf:params:scim:schemas:core:2.0:User"):
		return []scimAnswer{{"User", body}}
	case has("urn:ietf:params:scim:schemas:core:2.0:Group"):
		return []scimAnswer{{"Group", body}}
	case has("urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"):
		return []scimAnswer{{"ServiceProviderConfig", body}}
	}
	return nil
}

// scimmyOnce installs SCIMMY (testdata/scimmy/package-lock.json) once per run when it is missing.
var scimmyOnce = sync.OnceValue(func() error {
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

// run has SCIMMY check the answers kept, and fails the test for each problem it finds.
func (c *scimChecks) run(t *testing.T) {
	c.mu.Lock()
	answers := c.answers
	c.mu.Unlock()
	if len(answers) == 0 || t.Failed() {
		return
	}
	if err := scimmyOnce(); err != nil {
		t.Errorf("SCIMMY, which checks the SCIM answers, cannot be installed: %v", err)
		return
	}
	in, err := json.Marshal(answers)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join("testdata", "scimmy", "check.mjs"))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("SCIMMY check: %v\n%s", err, stderr.String())
		return
	}
	var problems []string
	if err := json.Unmarshal(out, &problems); err != nil {
		t.Errorf("SCIMMY check answered %q: %v", out, err)
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

// indexOf reads the answer number at the start of a problem, "answer 3 (User): …".
func indexOf(problem string) int {
	var i int
	if n, _ := fmt.Sscanf(problem, "answer %d", &i); n < 1 {
		return -1
	}
	return i
}
