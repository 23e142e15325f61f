package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// The SCIM library writes its answers whole. scimAnswer holds an answer back so that finishSCIM can put
// right what the library leaves out or gets wrong, before anything reaches the client.

// scimAnswer is an http.ResponseWriter that keeps the answer in memory.
type scimAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newSCIMAnswer() *scimAnswer { return &scimAnswer{header: http.Header{}} }

func (a *scimAnswer) Header() http.Header { return a.header }

func (a *scimAnswer) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *scimAnswer) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(b)
}

// scimListSchema names a SCIM list answer.
const scimListSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse"

// finishSCIM writes the answer a to w, with a successful JSON body finished: a list's itemsPerPage is
// the number of resources it holds (the library writes the count asked for).
func finishSCIM(w http.ResponseWriter, a *scimAnswer) {
	status := a.status
	if status == 0 {
		status = http.StatusOK
	}
	body := a.body.Bytes()
	if status < 300 && len(body) > 0 {
		body = finishSCIMBody(body)
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	if len(body) > 0 {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// finishSCIMBody returns the finished JSON body, or body itself when it is not a JSON object.
func finishSCIMBody(body []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return body
	}
	if hasSchema(m, scimListSchema) {
		resources, _ := m["Resources"].([]any)
		m["itemsPerPage"] = len(resources)
		if resources == nil {
			m["Resources"] = []any{}
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}

// hasSchema reports whether the SCIM object m lists the schema id.
func hasSchema(m map[string]any, id string) bool {
	list, _ := m["schemas"].([]any)
	for _, s := range list {
		if s, ok := s.(string); ok && strings.EqualFold(s, id) {
			return true
		}
	}
	return false
}
