package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

const teamsPath = api + "/admin/teams"

func TestAPIAdminTeams(t *testing.T) {
	t.Parallel()
	tb := setup(t)

	created := tb.call(t, fx.Adam, http.MethodPost, teamsPath, map[string]any{"name": "Sales"})
	wantStatus(t, created, http.StatusCreated)
	team := created.object(t)
	id, _ := team["id"].(string)
	want := map[string]any{"id": id, "name": "Sales", "idpGroup": nil, "scimGroupId": nil, "memberCount": "0", "neighbourhoodCount": "0", "members": []any{}}
	if d := cmp.Diff(want, stringNumbers(team)); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}

	wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, teamsPath+"/"+id+"/members/"+fx.Bob.String(), nil), http.StatusNoContent)
	wantStatus(t, tb.call(t, fx.Adam, http.MethodPut, teamsPath+"/"+id+"/members/"+fx.Alice.String(), nil), http.StatusNoContent)
	wantStatus(t, tb.call(t, fx.Adam, http.MethodDelete, teamsPath+"/"+id+"/members/"+fx.Alice.String(), nil), http.StatusNoContent)
	got := tb.call(t, fx.Adam, http.MethodGet, teamsPath+"/"+id, nil)
	wantStatus(t, got, http.StatusOK)
	members, _ := got.object(t)["members"].([]any)
	if len(members) != 1 || members[0].(map[string]any)["id"] != fx.Bob.String() {
		t.Errorf("members = %v, want Bob alone", members)
	}

	renamed := tb.call(t, fx.Adam, http.MethodPut, teamsPath+"/"+id, map[string]any{"name": "Sales EMEA", "idpGroup": "sales"})
	wantStatus(t, renamed, http.StatusOK)
	if o := renamed.object(t); o["name"] != "Sales EMEA" || o["idpGroup"] != "sales" || o["memberCount"].(interface{ String() string }).String() != "0" {
		t.Errorf("renamed = %v, want Sales EMEA following sales, with nobody until they sign in", o)
	}
	p := wantProblem(t, tb.call(t, fx.Adam, http.MethodPut, teamsPath+"/"+id+"/members/"+fx.Bob.String(), nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	if detail, _ := p["detail"].(string); !strings.Contains(detail, "follow its group") {
		t.Errorf("detail = %q, want it to say the members follow the group", detail)
	}
	p = wantProblem(t, tb.call(t, fx.Adam, http.MethodPost, teamsPath, map[string]any{"name": "sales emea"}), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	if p["field"] != "name" {
		t.Errorf("field = %v, want name", p["field"])
	}
	wantProblem(t, tb.call(t, fx.Adam, http.MethodPost, teamsPath, map[string]any{"name": "Ops", "colour": "red"}), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, teamsPath, nil), http.StatusForbidden, booking.CodeForbidden, noIndex)

	list := tb.call(t, fx.Adam, http.MethodGet, teamsPath, nil)
	wantStatus(t, list, http.StatusOK)
	if teams, _ := list.object(t)["teams"].([]any); len(teams) != 1 {
		t.Errorf("teams = %v, want one", teams)
	}
	wantStatus(t, tb.call(t, fx.Adam, http.MethodDelete, teamsPath+"/"+id, nil), http.StatusNoContent)
	wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, teamsPath+"/"+id, nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
}

// stringNumbers writes the json.Numbers of an object as strings, to compare it.
func stringNumbers(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if n, ok := v.(interface{ String() string }); ok {
			out[k] = n.String()
			continue
		}
		out[k] = v
	}
	return out
}
