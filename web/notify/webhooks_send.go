package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// Bounds of one try of a delivery.
const (
	webhookTimeout   = 10 * time.Second // the whole exchange, from connecting to reading the answer
	maxAnswer        = 64 << 10         // bytes of the answer read; the rest is not read
	maxAnswerKept    = 4096             // bytes of the answer kept with the try
	maxRetryAfter    = time.Hour        // the longest Retry-After honoured
	maxErrorKept     = 1000             // characters of an error kept with the try
	keptDeliveries   = 200              // tries kept per endpoint
	webhookUserAgent = "workspace-booking-webhooks/1"
)

// webhooks is what the webhook sender keeps between deliveries.
type webhooks struct {
	once   sync.Once
	client *http.Client
	// dns resolves endpoints' names; nil: the system's resolver. Tests point it at a server of theirs.
	dns *net.Resolver
}

// webhookClient returns the one HTTP client of deliveries. It follows no redirect (a 3xx is a failed
// try), uses no proxy, and, outside development, connects only to public addresses (dialControl).
func (s *Service) webhookClient() *http.Client {
	s.hooks.once.Do(func() {
		d := &net.Dialer{Timeout: webhookTimeout, KeepAlive: 30 * time.Second, Resolver: s.hooks.dns}
		if !s.cfg.Dev {
			d.Control = dialControl
		}
		t := &http.Transport{
			Proxy:                 nil, // through a proxy, the address checked would be the proxy's
			DialContext:           d.DialContext,
			ForceAttemptHTTP2:     true,
			TLSHandshakeTimeout:   webhookTimeout,
			ResponseHeaderTimeout: webhookTimeout,
			MaxIdleConns:          100,
			MaxIdleConnsPerHost:   4,
			IdleConnTimeout:       90 * time.Second,
		}
		s.hooks.client = &http.Client{
			Transport: t, Timeout: webhookTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	})
	return s.hooks.client
}

// webhookSignature returns the webhook-signature header of a delivery: one v1 signature with each
// secret, separated by spaces. Each is the base64 HMAC-SHA256 of id.timestamp.body, keyed with the
// bytes the secret's base64 (after whsec_) encodes.
func webhookSignature(id string, ts int64, body []byte, secrets ...string) (string, error) {
	sigs := make([]string, 0, len(secrets))
	for _, secret := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
		if err != nil {
			return "", fmt.Errorf("read webhook secret: %w", err)
		}
		m := hmac.New(sha256.New, key)
		m.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "."))
		m.Write(body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
	}
	return strings.Join(sigs, " "), nil
}

// webhookTry is what one try of a delivery got.
type webhookTry struct {
	args       WebhookArgs
	status     int    // the answer's HTTP status; 0 when there was no answer
	answer     []byte // the start of the answer, at most maxAnswer bytes
	truncated  bool   // the answer was longer than answer
	retryAfter time.Duration
	err        error // why the try failed: no answer, or an answer other than 2xx
	took       time.Duration
	at         time.Time
}

// post sends the delivery to ep once and reads at most maxAnswer bytes of the answer.
func (s *Service) post(ctx context.Context, ep queries.WebhookEndpoint, a WebhookArgs) (r webhookTry) {
	r = webhookTry{args: a, at: s.now()}
	start := time.Now()
	defer func() { r.took = time.Since(start) }()
	if why := s.deliveryRefusal(ep.Url); why != "" {
		r.err = errors.New("the endpoint's address " + why)
		return r
	}
	secrets := []string{ep.Secret}
	if ep.PreviousSecret != nil && ep.PreviousSecretUntil != nil && s.now().Before(*ep.PreviousSecretUntil) {
		secrets = append(secrets, *ep.PreviousSecret)
	}
	// The timestamp is the wall clock's: receivers compare it with theirs to refuse replays.
	ts := time.Now().Unix()
	sig, err := webhookSignature(a.EventID.String(), ts, a.Body, secrets...)
	if err != nil {
		r.err = err
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, webhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.Url, bytes.NewReader(a.Body))
	if err != nil {
		r.err = fmt.Errorf("the endpoint's address: %w", err)
		return r
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", webhookUserAgent)
	req.Header.Set("webhook-id", a.EventID.String())
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sig)
	res, err := s.webhookClient().Do(req)
	if err != nil {
		r.err = err
		return r
	}
	defer res.Body.Close()
	r.status = res.StatusCode
	r.answer, err = io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if len(r.answer) > maxAnswer {
		r.answer, r.truncated = r.answer[:maxAnswer], true
	}
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300:
		if err != nil {
			r.truncated = true // the endpoint took the delivery; only its answer was cut short
		}
	case res.StatusCode >= 300 && res.StatusCode < 400:
		r.err = fmt.Errorf("answered %s; redirects are not followed", res.Status)
	default:
		r.err = fmt.Errorf("answered %s", res.Status)
		r.retryAfter = parseRetryAfter(res.Header.Get("Retry-After"), time.Now())
	}
	return r
}

// deliveryRefusal checks an endpoint's address again before a try: outside development it must still
// be https. Its addresses are checked as it is connected to (dialControl).
func (s *Service) deliveryRefusal(raw string) string {
	if !s.cfg.Dev && !strings.HasPrefix(raw, "https://") {
		return "is not https"
	}
	return ""
}

// parseRetryAfter reads a Retry-After header, in seconds or as an HTTP date, and returns the wait it
// asks for, between 1 s and maxRetryAfter; 0 when there is none or it cannot be read.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0
		}
		d = time.Duration(min(n, int64(maxRetryAfter/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	} else {
		return 0
	}
	return min(max(d, time.Second), maxRetryAfter)
}

// settle records the try and ends the job as the answer says: done on 2xx; on 410 the endpoint is
// disabled and its deliveries stop; after a Retry-After, again then (inside the retry window);
// otherwise again on the retry schedule.
func (s *Service) settle(ctx context.Context, job *river.Job[WebhookArgs], r webhookTry) error {
	switch {
	case r.err == nil:
		s.counts.hooked.Add(1)
		return s.webhookTx(ctx, func(tx pgx.Tx) error {
			if err := s.recordTry(ctx, s.q.WithTx(tx), job.Attempt, "delivered", r); err != nil {
				return err
			}
			_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
			return err
		})
	case r.status == http.StatusGone:
		s.counts.failed.Add(1)
		if err := s.webhookTx(ctx, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			if err := s.recordTry(ctx, q, job.Attempt, "gone", r); err != nil {
				return err
			}
			if _, err := q.WebhookEndpointDisableGone(ctx, queries.WebhookEndpointDisableGoneParams{
				OrganizationID: r.args.OrganizationID, ID: r.args.EndpointID, Now: s.now(),
			}); err != nil {
				return fmt.Errorf("disable webhook endpoint: %w", err)
			}
			return s.cancelEndpointJobs(ctx, tx, r.args.OrganizationID, r.args.EndpointID)
		}); err != nil {
			return err
		}
		return river.JobCancel(fmt.Errorf("webhook %s: the endpoint answered 410 Gone and is disabled", r.args.EndpointID))
	}
	s.counts.failed.Add(1)
	outcome := "failed"
	snooze := r.retryAfter > 0 && time.Since(job.CreatedAt) < webhookRetryWindow
	if snooze {
		outcome = "snoozed"
	}
	if err := s.webhookTx(ctx, func(tx pgx.Tx) error { return s.recordTry(ctx, s.q.WithTx(tx), job.Attempt, outcome, r) }); err != nil {
		return err
	}
	if snooze {
		return river.JobSnooze(r.retryAfter)
	}
	return fmt.Errorf("webhook %s to endpoint %s: %w", r.args.EventID, r.args.EndpointID, r.err)
}

// recordTry keeps the try in webhook_deliveries, and only the newest keptDeliveries of its endpoint.
func (s *Service) recordTry(ctx context.Context, q *queries.Queries, attempt int, outcome string, r webhookTry) error {
	answer, cut := keptText(r.answer, maxAnswerKept)
	p := queries.WebhookDeliveryInsertParams{
		OrganizationID: r.args.OrganizationID, ID: uuid.Must(uuid.NewV7()), EndpointID: r.args.EndpointID,
		EventID: r.args.EventID, EventType: r.args.Type, Attempt: int32(attempt), Outcome: outcome,
		Answer: answer, AnswerTruncated: r.truncated || cut, DurationMs: int32(min(r.took.Milliseconds(), 1<<30)),
		Body: r.args.Body, AttemptedAt: r.at,
	}
	if r.status != 0 {
		p.Status = new(int32(r.status))
	}
	if r.err != nil {
		p.Error, _ = keptText([]byte(r.err.Error()), maxErrorKept)
	}
	if err := q.WebhookDeliveryInsert(ctx, p); err != nil {
		return fmt.Errorf("record webhook delivery: %w", err)
	}
	if _, err := q.WebhookDeliveriesTrim(ctx, queries.WebhookDeliveriesTrimParams{
		OrganizationID: r.args.OrganizationID, EndpointID: r.args.EndpointID, Keep: keptDeliveries,
	}); err != nil {
		return fmt.Errorf("trim webhook deliveries: %w", err)
	}
	return nil
}

// keptText returns b as text the database stores (UTF-8, no NUL), cut to at most n bytes at a
// character's start, and whether anything was cut.
func keptText(b []byte, n int) (string, bool) {
	t := strings.ReplaceAll(strings.ToValidUTF8(string(b), "\uFFFD"), "\x00", "")
	if len(t) <= n {
		return t, false
	}
	for n > 0 && !utf8.RuneStart(t[n]) {
		n--
	}
	return t[:n], true
}

// cancelEndpointJobs cancels the deliveries of an endpoint that have yet to run.
func (s *Service) cancelEndpointJobs(ctx context.Context, tx pgx.Tx, org, endpoint uuid.UUID) error {
	ids, err := s.q.WithTx(tx).WebhookJobsOfEndpoint(ctx, queries.WebhookJobsOfEndpointParams{OrganizationID: org, EndpointID: endpoint})
	if err != nil {
		return fmt.Errorf("find webhook jobs: %w", err)
	}
	for _, id := range ids {
		if _, err := s.river.JobCancelTx(ctx, tx, id); err != nil {
			return fmt.Errorf("cancel webhook job %d: %w", id, err)
		}
	}
	return nil
}

// webhookTx runs fn in a transaction, again when the database asks to (a deadlock, a serialization failure).
func (s *Service) webhookTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return booking.Retried(func() error { return pgx.BeginFunc(ctx, s.pool, fn) })
}
