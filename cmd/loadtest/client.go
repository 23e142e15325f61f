package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// expect is what a request of a scenario may be answered.
type expect uint8

const (
	expectOK        expect = iota // 200
	expectCreated                 // 201
	expectCreatedOr               // 201, or 409 4001 when another request won the slot
)

// call is one request, built ahead.
type call struct {
	method, path string
	body         []byte
	auth         string
	cookie       string // pages: the browser session
	expect       expect
}

// answer is what one request got.
type answer struct {
	status int
	code   int    // the problem's code, for 4xx and 5xx
	id     string // the booking created, for 201
	took   time.Duration
	err    error
}

func (a answer) welcome(e expect) bool {
	switch {
	case a.err != nil:
		return false
	case e == expectOK:
		return a.status == http.StatusOK
	case e == expectCreated:
		return a.status == http.StatusCreated
	default:
		return a.status == http.StatusCreated || a.status == http.StatusConflict && a.code == 4001
	}
}

// client sends requests to the servers in turn over kept-alive connections.
type client struct {
	http  *http.Client
	bases []string
	next  atomic.Uint64
	// pinned sends each worker's requests to one server (options.Pinned).
	pinned bool
}

func newClient(bases []string, concurrency int) *client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        concurrency * len(bases),
		MaxIdleConnsPerHost: concurrency,
		MaxConnsPerHost:     concurrency,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}
	// A redirect is an answer of its own: a page that sends the person to the sign-in page is not a page.
	noRedirect := func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &client{http: &http.Client{Transport: tr, Timeout: 30 * time.Second, CheckRedirect: noRedirect}, bases: bases}
}

// do sends worker's call and reads its answer; buf is the worker's buffer for bodies worth reading.
func (c *client) do(ctx context.Context, worker int, k call, buf *[]byte) answer {
	base := c.bases[0]
	switch {
	case len(c.bases) == 1:
	case c.pinned:
		base = c.bases[worker%len(c.bases)]
	default:
		base = c.bases[c.next.Add(1)%uint64(len(c.bases))]
	}
	var body io.Reader
	if k.body != nil {
		body = bytes.NewReader(k.body)
	}
	req, err := http.NewRequestWithContext(ctx, k.method, base+k.path, body)
	if err != nil {
		return answer{err: err}
	}
	if k.auth != "" {
		req.Header["Authorization"] = []string{k.auth}
	}
	if k.cookie != "" {
		// As a browser: the session, and gzip accepted (the API's clients are sent JSON as it is).
		req.Header["Cookie"] = []string{k.cookie}
		req.Header["Accept-Encoding"] = []string{"gzip"}
	}
	if k.body != nil {
		req.Header["Content-Type"] = []string{"application/json"}
	}
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	a := answer{status: res.StatusCode}
	if res.StatusCode == http.StatusOK {
		_, err = io.Copy(io.Discard, res.Body)
	} else {
		*buf, err = readAll(res.Body, (*buf)[:0])
	}
	res.Body.Close()
	a.took, a.err = time.Since(start), err
	if err != nil || res.StatusCode == http.StatusOK {
		return a
	}
	if res.StatusCode == http.StatusCreated {
		a.id = bookingID(*buf)
	} else {
		a.code = problemCode(*buf)
	}
	return a
}

// readAll reads r into b (at most 1 MiB), reusing b's memory.
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for len(b) < 1<<20 {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

var (
	bookingsPrefix = []byte(`{"bookings":[{"id":"`)
	codeKey        = []byte(`"code":`)
)

// bookingID is the id of the first booking of a create answer; the answer starts with it, as the
// service writes it, else it is decoded in full.
func bookingID(body []byte) string {
	if rest, ok := bytes.CutPrefix(body, bookingsPrefix); ok && len(rest) > 36 && rest[36] == '"' {
		return string(rest[:36])
	}
	var v struct {
		Bookings []struct {
			ID string `json:"id"`
		} `json:"bookings"`
	}
	if json.Unmarshal(body, &v) != nil || len(v.Bookings) == 0 {
		return ""
	}
	return v.Bookings[0].ID
}

// problemCode is the code of a problem+json answer, 0 when it has none.
func problemCode(body []byte) int {
	i := bytes.Index(body, codeKey)
	if i < 0 {
		return 0
	}
	rest := bytes.TrimLeft(body[i+len(codeKey):], " ")
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	code, _ := strconv.Atoi(string(rest[:n]))
	return code
}
