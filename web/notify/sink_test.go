package notify_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// sink is a real SMTP server on loopback (go-smtp, in process) that keeps every message it accepts.
// While away is set it refuses every message with a temporary error, as a mail server that is down
// for maintenance does.
type sink struct {
	mu       sync.Mutex
	messages []received
	away     bool
	refused  int
	addr     string
}

// received is one message the sink accepted.
type received struct {
	From string
	To   []string
	Raw  []byte
}

// newSink starts a sink and stops it when the test ends.
func newSink(t *testing.T) *sink {
	t.Helper()
	s := &sink{}
	srv := smtp.NewServer(s)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	s.addr = ln.Addr().String()
	go srv.Serve(ln) //nolint:errcheck // ends when the test closes it
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL is the sink's SMTP_URL.
func (s *sink) URL() string { return "smtp://" + s.addr }

// setAway makes the sink refuse (true) or accept (false) messages.
func (s *sink) setAway(away bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.away = away
}

// all returns the messages accepted so far.
func (s *sink) all() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.messages...)
}

// NewSession starts a session of the SMTP server.
func (s *sink) NewSession(*smtp.Conn) (smtp.Session, error) { return &sinkSession{sink: s}, nil }

type sinkSession struct {
	sink *sink
	from string
	to   []string
}

func (ss *sinkSession) Reset()        { ss.from, ss.to = "", nil }
func (ss *sinkSession) Logout() error { return nil }
func (ss *sinkSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.sink.mu.Lock()
	defer ss.sink.mu.Unlock()
	if ss.sink.away {
		ss.sink.refused++
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 2}, Message: "down for maintenance"}
	}
	ss.from = from
	return nil
}
func (ss *sinkSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}
func (ss *sinkSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.sink.mu.Lock()
	defer ss.sink.mu.Unlock()
	ss.sink.messages = append(ss.sink.messages, received{From: ss.from, To: ss.to, Raw: raw})
	return nil
}

// parsed is a message split into what the tests look at.
type parsed struct {
	Header   mail.Header
	Subject  string
	To       string
	Text     string
	HTML     string
	Calendar string
	// CalendarType is the Content-Type of the calendar part, as written.
	CalendarType string
}

// parse reads a message the sink accepted: its headers and its text, HTML and calendar parts.
func parse(t *testing.T, r received) parsed {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(r.Raw))
	if err != nil {
		t.Fatalf("read message: %v\n%s", err, r.Raw)
	}
	dec := new(mime.WordDecoder)
	subject, _ := dec.DecodeHeader(m.Header.Get("Subject"))
	p := parsed{Header: m.Header, Subject: subject, To: strings.Join(r.To, ",")}
	walkParts(t, m.Header.Get("Content-Type"), m.Body, &p)
	return p
}

// walkParts reads the parts of a MIME body into p.
func walkParts(t *testing.T, contentType string, body io.Reader, p *parsed) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatalf("content type %q: %v", contentType, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			part, err := mr.NextPart() // decodes quoted-printable on its own
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("next part: %v", err)
			}
			walkParts(t, part.Header.Get("Content-Type"), part, p)
		}
	}
	b, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("read part: %v", err)
	}
	if part, ok := body.(*multipart.Part); ok && strings.EqualFold(part.Header.Get("Content-Transfer-Encoding"), "base64") {
		if b, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(b)), "")); err != nil {
			t.Fatalf("base64 part: %v", err)
		}
	}
	switch mt {
	case "text/plain":
		p.Text = string(b)
	case "text/html":
		p.HTML = string(b)
	case "text/calendar":
		p.Calendar, p.CalendarType = string(b), contentType
	}
}

// reset forgets the messages accepted so far.
func (s *sink) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = nil
}
