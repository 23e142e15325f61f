package scim

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	scimerrors "github.com/elimity-com/scim/errors"
	filter "github.com/scim2/filter-parser/v2"

	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
)

// The lists of the SCIM service: pages of Users and Groups, their filters, and the attributes a client
// asks for (RFC 7644 sections 3.4.2 and 3.9).

// list answers GET /Users or /Groups: a page of the resources that match the filter, with itemsPerPage
// the number returned.
func (sv *scimService) list(w http.ResponseWriter, r *http.Request, resource string) {
	q := r.URL.Query()
	startIndex, err1 := intParam(q.Get("startIndex"), 1)
	count, err2 := intParam(q.Get("count"), identity.MaxSCIMPage)
	attrs, err3 := attributesOf(r)
	if err := errors.Join(err1, err2, err3); err != nil {
		writeSCIMError(w, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidValue, Detail: err.Error()})
		return
	}
	expr, e := parseFilter(q.Get("filter"))
	if e != nil {
		writeSCIMError(w, *e)
		return
	}
	startIndex, count = max(startIndex, 1), min(max(count, 0), identity.MaxSCIMPage)
	var resources []map[string]any
	var total int
	client := scimClientOf(r)
	if resource == "Users" {
		f, ok := peopleFilter(expr)
		if !ok {
			writeSCIMError(w, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidFilter,
				Detail: `Supported filters: userName eq, externalId eq, emails.value eq, emails[type eq "work"].value eq and active eq, joined with and.`})
			return
		}
		people, n, err := sv.people.ProvisionedPeople(r.Context(), client, f, startIndex, count)
		if err != nil {
			writeSCIMError(w, scimErrorOf(r, sv.log, err))
			return
		}
		total = n
		for _, p := range people {
			resources = append(resources, scimUserJSON(p, sv.base))
		}
	} else {
		f, ok := groupFilter(expr)
		if !ok {
			writeSCIMError(w, scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidFilter,
				Detail: "Supported filters: displayName eq and externalId eq."})
			return
		}
		groups, n, err := sv.people.ProvisionedGroups(r.Context(), client, f, startIndex, count, attrs.wants("members"))
		if err != nil {
			writeSCIMError(w, scimErrorOf(r, sv.log, err))
			return
		}
		total = n
		for _, g := range groups {
			resources = append(resources, scimGroupJSON(g, sv.base))
		}
	}
	for _, res := range resources {
		attrs.apply(res)
	}
	if resources == nil {
		resources = []map[string]any{}
	}
	writeSCIM(w, http.StatusOK, map[string]any{
		"schemas": []string{scimListSchema}, "totalResults": total, "startIndex": startIndex,
		"itemsPerPage": len(resources), "Resources": resources,
	})
}

// intParam reads a whole number of the query, def when absent.
func intParam(v string, def int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || len(v) > 9 {
		return 0, fmt.Errorf("startIndex and count are whole numbers, not %q", v)
	}
	return n, nil
}

// workEmail is the filter Entra ID sends to match a person by address. RFC 7644's filter grammar has
// no sub-attribute after a value path, so it is read as emails.value: a person has one address.
var workEmail = regexp.MustCompile(`(?i)\bemails\[\s*type\s+eq\s+"work"\s*\]\.value\b`)

// parseFilter parses a filter; nil for none.
func parseFilter(raw string) (filter.Expression, *scimerrors.ScimError) {
	if raw == "" {
		return nil, nil
	}
	if len(raw) > maxSCIMFilter {
		return nil, &scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidFilter,
			Detail: fmt.Sprintf("The filter is longer than %d characters.", maxSCIMFilter)}
	}
	e, err := filter.ParseFilter([]byte(workEmail.ReplaceAllString(raw, "emails.value")))
	if err != nil {
		return nil, &scimerrors.ScimError{Status: http.StatusBadRequest, ScimType: scimerrors.ScimTypeInvalidFilter,
			Detail: "The filter cannot be read: " + kit.ClipText(err.Error())}
	}
	return e, nil
}

// eqTerms reads a filter made of `attribute eq value` terms joined with and, calling term for each
// with the attribute's name and sub-attribute in lower case; ok is false for any other filter, or when
// term refuses a term.
func eqTerms(e filter.Expression, term func(attr, sub string, value any) bool) bool {
	switch x := e.(type) {
	case nil:
		return true
	case *filter.LogicalExpression:
		return x.Operator == filter.AND && eqTerms(x.Left, term) && eqTerms(x.Right, term)
	case *filter.AttributeExpression:
		if x.Operator != filter.EQ || x.AttributePath.URIPrefix != nil && !strings.EqualFold(*x.AttributePath.URIPrefix, scimUserSchema) &&
			!strings.EqualFold(*x.AttributePath.URIPrefix, scimGroupSchema) {
			return false
		}
		return term(strings.ToLower(x.AttributePath.AttributeName), strings.ToLower(x.AttributePath.SubAttributeName()), x.CompareValue)
	case *filter.ValuePath:
		// emails[value eq "…"], as some clients write emails.value eq "…".
		name := strings.ToLower(x.AttributePath.AttributeName)
		return eqTerms(x.ValueFilter, func(attr, sub string, value any) bool {
			if kind, _ := value.(string); attr == "type" && sub == "" && strings.EqualFold(kind, "work") {
				return true
			}
			return sub == "" && term(name, attr, value)
		})
	}
	return false
}

// narrow sets *to to v for a term of a filter. A second term on the same attribute with another value
// (by same) leaves the filter matching nobody: *nobody becomes true.
func narrow[T any](to **T, v T, same func(a, b T) bool, nobody *bool) bool {
	if *to != nil && !same(**to, v) {
		*nobody = true
	}
	*to = &v
	return true
}

// anyCase and caseExact compare the values of attributes that are caseExact false and true.
var (
	anyCase   = strings.EqualFold
	caseExact = func(a, b string) bool { return a == b }
)

// peopleFilter turns a filter into a PeopleFilter; ok is false for a filter it cannot say.
func peopleFilter(e filter.Expression) (f identity.PeopleFilter, ok bool) {
	ok = eqTerms(e, func(attr, sub string, value any) bool {
		s, isString := value.(string)
		switch {
		case attr == "username" && sub == "" && isString:
			return narrow(&f.UserName, s, anyCase, &f.Nobody)
		case attr == "externalid" && sub == "" && isString:
			return narrow(&f.ExternalID, s, caseExact, &f.Nobody)
		case attr == "emails" && sub == "value" && isString:
			return narrow(&f.Email, s, anyCase, &f.Nobody)
		case attr == "active" && sub == "":
			b, isBool := value.(bool)
			return isBool && narrow(&f.Active, b, func(a, b bool) bool { return a == b }, &f.Nobody)
		}
		return false
	})
	return f, ok
}

// groupFilter turns a filter into a GroupFilter; ok is false for a filter it cannot say.
func groupFilter(e filter.Expression) (f identity.GroupFilter, ok bool) {
	ok = eqTerms(e, func(attr, sub string, value any) bool {
		s, isString := value.(string)
		switch {
		case attr == "displayname" && sub == "" && isString:
			return narrow(&f.DisplayName, s, anyCase, &f.Nobody)
		case attr == "externalid" && sub == "" && isString:
			return narrow(&f.ExternalID, s, caseExact, &f.Nobody)
		}
		return false
	})
	return f, ok
}

// scimAttributes are the attributes and excludedAttributes of a request (RFC 7644 section 3.9), in
// lower case; "id" and "schemas" are always returned.
type scimAttributes struct {
	only, except []string
}

// attributesOf reads the attributes and excludedAttributes of the query.
func attributesOf(r *http.Request) (scimAttributes, error) {
	var a scimAttributes
	for _, p := range []struct {
		name string
		to   *[]string
	}{{"attributes", &a.only}, {"excludedAttributes", &a.except}} {
		v := r.URL.Query().Get(p.name)
		if v == "" {
			continue
		}
		names := strings.Split(v, ",")
		if len(names) > maxSCIMAttrNames {
			return a, fmt.Errorf("%s: at most %d names", p.name, maxSCIMAttrNames)
		}
		for _, n := range names {
			n = strings.ToLower(strings.TrimSpace(n))
			// A name may carry its schema: urn:…:User:userName.
			if i := strings.LastIndex(n, ":"); i >= 0 {
				n = n[i+1:]
			}
			*p.to = append(*p.to, n)
		}
	}
	return a, nil
}

// wants reports whether the top-level attribute name is returned.
func (a scimAttributes) wants(name string) bool {
	name = strings.ToLower(name)
	if name == "id" || name == "schemas" {
		return true
	}
	listed := func(names []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return n == name || strings.HasPrefix(n, name+".") })
	}
	if len(a.only) > 0 {
		return listed(a.only)
	}
	return !slices.Contains(a.except, name)
}

// apply removes from a resource the attributes not asked for: whole attributes, and sub-attributes of a
// complex attribute or of each value of a multi-valued one ("name.givenName", "emails.value").
func (a scimAttributes) apply(res map[string]any) {
	if len(a.only) == 0 && len(a.except) == 0 {
		return
	}
	for k, v := range res {
		name := strings.ToLower(k)
		switch {
		case !a.wants(name):
			delete(res, k)
		case name == "id" || name == "schemas":
		case len(a.only) > 0 && !slices.Contains(a.only, name):
			res[k] = subAttributes(v, subNames(a.only, name), true) // only sub-attributes were named
		case len(a.except) > 0:
			if subs := subNames(a.except, name); len(subs) > 0 {
				res[k] = subAttributes(v, subs, false)
			}
		}
	}
}

// subNames returns the sub-attributes of attr that names lists as "attr.sub".
func subNames(names []string, attr string) []string {
	var subs []string
	for _, n := range names {
		if sub, ok := strings.CutPrefix(n, attr+"."); ok {
			subs = append(subs, sub)
		}
	}
	return subs
}

// subAttributes returns the complex value v, or each value of the multi-valued v, with only the
// sub-attributes subs (keep) or with all but them (!keep).
func subAttributes(v any, subs []string, keep bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, sv := range x {
			if slices.Contains(subs, strings.ToLower(k)) == keep {
				out[k] = sv
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = subAttributes(item, subs, keep)
		}
		return out
	}
	return v
}
