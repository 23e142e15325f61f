package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/wneessen/go-mail"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/outbox"
)

// MailArgs is the job of one e-mail to one recipient, written in full when its event is worked: a
// retry sends the same message. MessageID is derived from the event and the recipient, so the mail
// server and the recipient can drop a duplicate, and mail_sent keeps a message from being sent again
// after the server accepted it.
type MailArgs struct {
	MessageID      string    `json:"messageId"`
	OrganizationID uuid.UUID `json:"organizationId"`
	EventID        uuid.UUID `json:"eventId"`
	FromName       string    `json:"fromName"`
	To             string    `json:"to"`
	ToName         string    `json:"toName,omitempty"`
	Subject        string    `json:"subject"`
	Text           string    `json:"text"`
	HTML           string    `json:"html"`
	// Calendar is the iCalendar invitation; "" for none. Method is its METHOD.
	Calendar string          `json:"calendar,omitempty"`
	Method   calendar.Method `json:"method,omitempty"`
	// Unsubscribe is the one-click unsubscribe link of an optional e-mail (RFC 8058); "" for none.
	Unsubscribe string `json:"unsubscribe,omitempty"`
	// Lang is the code of the language the e-mail is written in, for its Content-Language; "" in jobs
	// written before e-mails spoke their recipient's language.
	Lang string `json:"lang,omitempty"`
}

// Kind is the River job kind of an e-mail.
func (MailArgs) Kind() string { return "mail" }

// sender hands messages to a mail server, or to the log.
type sender interface {
	send(ctx context.Context, m *mail.Msg) error
}

// newSender returns the sender cfg asks for: SMTP when SMTPURL is set, the log in development, and nil
// (e-mail off) otherwise.
func newSender(cfg Config) (sender, error) {
	if cfg.SMTPURL == "" {
		if cfg.Dev {
			return logSender{log: cfg.Log}, nil
		}
		return nil, nil
	}
	if cfg.From == "" {
		return nil, errors.New("SMTP_URL is set: set SMTP_FROM too, the address e-mails come from")
	}
	if err := mail.NewMsg().From(cfg.From); err != nil {
		return nil, fmt.Errorf("SMTP_FROM %q: %w", cfg.From, err)
	}
	return newSMTPSender(cfg.SMTPURL)
}

// smtpSender sends through a mail server, one connection per message.
type smtpSender struct {
	host string
	opts []mail.Option
}

// newSMTPSender reads an SMTP_URL: smtp://[user:pass@]host:port, with ?tls=required to insist on
// STARTTLS, or smtps://[user:pass@]host:port for implicit TLS.
func newSMTPSender(raw string) (*smtpSender, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("SMTP_URL %q: want smtp://[user:pass@]host:port or smtps://…", redact(raw))
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port < 1 || port > 65535 {
		return nil, fmt.Errorf("SMTP_URL %q: give the port, e.g. smtp://mail.example.org:587", redact(raw))
	}
	opts := []mail.Option{mail.WithPort(port), mail.WithTimeout(30 * time.Second)}
	switch u.Scheme {
	case "smtp":
		switch tls := u.Query().Get("tls"); tls {
		case "", "opportunistic":
			opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
		case "required":
			opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
		default:
			return nil, fmt.Errorf("SMTP_URL: tls=%q: want tls=required, or nothing for STARTTLS when offered", tls)
		}
	case "smtps":
		opts = append(opts, mail.WithSSL())
	default:
		return nil, fmt.Errorf("SMTP_URL %q: the scheme must be smtp or smtps", redact(raw))
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(u.User.Username()), mail.WithPassword(pass))
	}
	return &smtpSender{host: u.Hostname(), opts: opts}, nil
}

// redact hides the password of an SMTP_URL.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "(unreadable)"
}

func (s *smtpSender) send(ctx context.Context, m *mail.Msg) error {
	c, err := mail.NewClient(s.host, s.opts...)
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, m)
}

// logSender writes each message to the log instead of sending it (development without SMTP_URL).
type logSender struct{ log *slog.Logger }

func (l logSender) send(_ context.Context, m *mail.Msg) error {
	var b strings.Builder
	if _, err := m.WriteTo(&b); err != nil {
		return err
	}
	l.log.Info("e-mail (development: not sent)", slog.Any("to", m.GetToString()), slog.Any("subject", m.GetGenHeader(mail.HeaderSubject)))
	l.log.Debug("e-mail (development: not sent)", slog.String("message", b.String()))
	return nil
}

// mailWorker sends one e-mail.
type mailWorker struct {
	river.WorkerDefaults[MailArgs]
	s *Service
}

// Work sends the message unless mail_sent says it went already, then records it as sent and completes
// the job in one transaction. If that commit fails after the server accepted the message, the retry
// sends it again with the same Message-ID: the only way a message is sent twice.
func (w *mailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error {
	a := job.Args
	s := w.s
	if s.mail == nil {
		return nil // e-mail was turned off since the job was written
	}
	sent, err := s.q.MailSentExists(ctx, a.MessageID)
	if err != nil {
		return fmt.Errorf("check mail_sent: %w", err)
	}
	if !sent {
		m, err := a.message(s.cfg.From)
		if err != nil {
			return river.JobCancel(err) // a message that cannot be written never will be
		}
		if err := s.mail.send(ctx, m); err != nil {
			s.counts.failed.Add(1)
			return fmt.Errorf("send mail %s: %w", a.MessageID, err)
		}
		s.counts.mailed.Add(1)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := s.q.WithTx(tx).MailSentInsert(ctx, queries.MailSentInsertParams{
			MessageID: a.MessageID, OrganizationID: a.OrganizationID, EventID: a.EventID, Recipient: a.To,
		}); err != nil {
			return fmt.Errorf("record mail sent: %w", err)
		}
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		return err
	})
}

// message builds the e-mail of a: plain text and HTML, and the invitation as a third alternative.
func (a MailArgs) message(from string) (*mail.Msg, error) {
	m := mail.NewMsg()
	if err := m.FromFormat(a.FromName, from); err != nil {
		return nil, fmt.Errorf("from: %w", err)
	}
	if err := m.AddToFormat(a.ToName, a.To); err != nil {
		return nil, fmt.Errorf("to: %w", err)
	}
	m.Subject(a.Subject)
	if a.Lang != "" {
		m.SetGenHeader(mail.HeaderContentLang, a.Lang)
	}
	m.SetMessageIDWithValue(strings.Trim(a.MessageID, "<>"))
	m.SetDate()
	m.SetBodyString(mail.TypeTextPlain, a.Text)
	m.AddAlternativeString(mail.TypeTextHTML, a.HTML)
	if a.Calendar != "" {
		// Base64 keeps the invitation's bytes, CRLF line ends and folding included, exactly as written.
		m.AddAlternativeString(mail.ContentType("text/calendar; method="+string(a.Method)), a.Calendar,
			mail.WithPartEncoding(mail.EncodingB64))
	}
	if a.Unsubscribe != "" {
		m.SetGenHeader("List-Unsubscribe", "<"+a.Unsubscribe+">")
		m.SetGenHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	return m, nil
}

// mailAttempts is how often an e-mail is tried: with retryDelay's spacing (2 s doubling to 5 minutes),
// the last try comes about a day after the first.
const mailAttempts = 296

// mailInsert returns the insert of a mail job.
func mailInsert(a MailArgs) river.InsertManyParams {
	return river.InsertManyParams{Args: a, InsertOpts: &river.InsertOpts{Queue: outbox.Queue, MaxAttempts: mailAttempts}}
}
