package views

// AdminAudit is the audit log page: the filters and a page of entries, newest first.
type AdminAudit struct {
	Chrome      Chrome
	Filter      AuditFilterForm
	Collections []Option
	People      []Option
	Zones       []Option // the time zones the log can be read in: the buildings', the default first
	Zone        string   // the time zone the dates of the filters are read in, in words: "Madrid time"
	Rows        []AuditRow
	More        string // the address of the next page; "" on the last
	Error       string // what is wrong with the filters
}

// AuditFilterForm holds the filters as written in the address; Zone is the IANA name of the zone chosen.
type AuditFilterForm struct{ Collection, Object, Person, From, To, Zone string }

// Option is one choice of a select.
type Option struct{ Value, Label string }

// AuditRow is one change: who made it, when, to which object, and what changed, field by field.
type AuditRow struct {
	When, Who, What, Action string // When is in the zone of the object's building, named when it is not the page's
	Object                  string // the object's name, or its id when it has none
	ObjectHref              string // its admin page; "" when there is none
	HistoryHref             string // the audit log of this object alone
	Changes                 []FieldChange
}

// FieldChange is one field of an object before and after a change, in words ("—" when absent).
type FieldChange struct{ Field, Before, After string }
