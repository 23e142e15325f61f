package booking

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// AuditAction says what a change in the audit log did.
type AuditAction string

// The actions the audit log accepts (the admin_audit_action_check constraint lists the same).
const (
	AuditCreate     AuditAction = "CREATE"
	AuditUpdate     AuditAction = "UPDATE"
	AuditDelete     AuditAction = "DELETE"
	AuditDeactivate AuditAction = "DEACTIVATE"
	AuditReactivate AuditAction = "REACTIVATE"
	AuditPlan       AuditAction = "PLAN"
	AuditRevoke     AuditAction = "REVOKE"
	AuditBind       AuditAction = "BIND"   // an account bound to the identity provider's subject
	AuditVerify     AuditAction = "VERIFY" // an e-mail domain proved
)

// AuditActions returns every action the audit log accepts.
func AuditActions() []AuditAction {
	return []AuditAction{AuditCreate, AuditUpdate, AuditDelete, AuditDeactivate, AuditReactivate, AuditPlan, AuditRevoke, AuditBind, AuditVerify}
}

// AuditEntry is one change in an organization's audit log: who made it, when, to which object, and the
// object before and after as JSON (nil before a creation and after a deletion). ActorID is nil for a
// change nobody signed in made (SCIM provisioning, the system). ID and At are set by the database.
type AuditEntry struct {
	ID             int64
	OrganizationID uuid.UUID
	At             time.Time
	ActorID        *uuid.UUID
	ActorName      string
	Collection     string
	ObjectID       uuid.UUID
	Action         AuditAction
	Before         json.RawMessage
	After          json.RawMessage
}

// AuditActor returns the ActorID and ActorName of a change that u makes.
func AuditActor(u User) (*uuid.UUID, string) {
	id := u.ID
	return &id, strings.TrimSpace(u.Name + " " + u.Surname)
}

// InsertParams returns the parameters of the query that appends e to its organization's audit log, so
// that a package writing a change in its own transaction records the entry in that transaction. It
// refuses an entry without organization, collection or object, with an unknown action, or with Before or
// After that is not JSON.
func (e AuditEntry) InsertParams() (queries.AuditInsertParams, error) {
	if err := e.check(); err != nil {
		return queries.AuditInsertParams{}, err
	}
	return queries.AuditInsertParams{
		OrganizationID: e.OrganizationID, ActorID: e.ActorID, ActorName: truncate(e.ActorName, 512),
		Collection: e.Collection, ObjectID: e.ObjectID, Action: string(e.Action),
		Before: jsonOrNil(e.Before), After: jsonOrNil(e.After),
	}, nil
}

// recordAudit appends e to its organization's audit log, inside the transaction that q runs, so that the
// entry is written exactly when the change is (see InsertParams).
func recordAudit(ctx context.Context, q *queries.Queries, e AuditEntry) error {
	p, err := e.InsertParams()
	if err != nil {
		return err
	}
	if _, err := q.AuditInsert(ctx, p); err != nil {
		return fmt.Errorf("record audit of %s %s: %w", e.Collection, e.ObjectID, err)
	}
	return nil
}

func (e AuditEntry) check() error {
	switch {
	case e.OrganizationID == uuid.Nil:
		return fmt.Errorf("record audit: no organization")
	case e.Collection == "" || len(e.Collection) > 64:
		return fmt.Errorf("record audit: collection %q must have 1 to 64 bytes", e.Collection)
	case e.ObjectID == uuid.Nil:
		return fmt.Errorf("record audit: no object")
	case !slices.Contains(AuditActions(), e.Action):
		return fmt.Errorf("record audit: unknown action %q", e.Action)
	case len(e.Before) > 0 && !json.Valid(e.Before):
		return fmt.Errorf("record audit: before is not JSON")
	case len(e.After) > 0 && !json.Valid(e.After):
		return fmt.Errorf("record audit: after is not JSON")
	}
	return nil
}

// jsonOrNil returns nil (SQL NULL) for an empty document.
func jsonOrNil(j json.RawMessage) []byte {
	if len(j) == 0 {
		return nil
	}
	return j
}

// truncate cuts s to at most n bytes without splitting a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// AuditFilter chooses audit entries. A zero field matches everything; BeforeID is the cursor of the next
// page (only entries with smaller ids); Limit is the most entries listed.
type AuditFilter struct {
	Collection string
	ObjectID   *uuid.UUID
	ActorID    *uuid.UUID
	From, To   *time.Time
	BeforeID   *int64
	Limit      int32
}

// ListAudit returns the organization's audit entries that f chooses, newest first. It checks nobody's
// right to read them: the caller does.
func (s *Service) ListAudit(ctx context.Context, org uuid.UUID, f AuditFilter) ([]AuditEntry, error) {
	return listAudit(ctx, s.q, org, f)
}

// listAudit is ListAudit, reading through q.
func listAudit(ctx context.Context, q *queries.Queries, org uuid.UUID, f AuditFilter) ([]AuditEntry, error) {
	p := queries.AuditListParams{
		OrganizationID: org, ObjectID: f.ObjectID, ActorID: f.ActorID, FromAt: f.From, ToAt: f.To,
		BeforeID: f.BeforeID, MaxRows: f.Limit,
	}
	if f.Collection != "" {
		p.Collection = &f.Collection
	}
	rows, err := q.AuditList(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("list audit: %w", err)
	}
	out := make([]AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = AuditEntry{
			ID: r.ID, OrganizationID: r.OrganizationID, At: r.At, ActorID: r.ActorID, ActorName: r.ActorName,
			Collection: r.Collection, ObjectID: r.ObjectID, Action: AuditAction(r.Action),
			Before: r.Before, After: r.After,
		}
	}
	return out, nil
}
