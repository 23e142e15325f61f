package views

// AdminRules is the rules page: a form per rule, and one to add a rule.
type AdminRules struct {
	Chrome Chrome
	Notice string // what the previous form did, shown once
	Rules  []RuleForm
	New    RuleForm // the form of a rule not saved yet
}

// RuleForm is one rule's form, every value as the person wrote it or as the rule holds it, in hours,
// minutes and days. Sentence says what the values mean.
type RuleForm struct {
	ID, ETag string
	New      bool
	Name     string
	// From and Until are the daily hours, "08:00"; "24:00" (or "00:00") until is the end of the day.
	From, Until                 string
	MaxHours, MaxMinutes        string // the longest booking; both 0: no limit
	AheadDays, AheadHours       string // how far ahead; both 0: no limit
	CheckInBefore, CheckInAfter string // minutes around the start; after 0: until the end
	Approval, AllDay            bool
	AllDayBy                    string // "11:00": the check-in deadline of a whole-day booking; "": none
	AccessControlType           string // kept as it is; the form does not change it
	Sentence                    string
	Resources                   []NamedLink   // the resources that use the rule
	Fallback                    string        // the title of a rule without a name: which resources use it
	Saved                       string        // a confirmation
	Problem                     *AdminProblem // a refusal, in words
}

// NamedLink is a name that links to the page of its object.
type NamedLink struct{ Name, Href string }
