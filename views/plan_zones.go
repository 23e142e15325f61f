package views

import (
	"context"
	"strconv"
	"strings"

	"github.com/workspacebooking/booking/web/lang"
)

// zoneLabel is how a plan names a neighbourhood: its name ("Sales"), its team's when that is another
// ("Window row · Sales"), and "team only" when only its team may book there ("Sales · team only").
func zoneLabel(ctx context.Context, name, team string, teamOnly bool) string {
	data := map[string]any{"Name": name, "Team": team}
	ofTeam := !strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(team))
	switch {
	case teamOnly && ofTeam:
		return lang.T(ctx, "plan.zoneOfTeamOnly", data)
	case teamOnly:
		return lang.T(ctx, "plan.zoneTeamOnly", data)
	case ofTeam:
		return lang.T(ctx, "plan.zoneOfTeam", data)
	}
	return name
}

// zoneFont is k times the size of a neighbourhood's label on a plan planW units wide: a seventieth of
// the width, at least 10 units.
func zoneFont(planW int32, k float64) string {
	return strconv.FormatFloat(k*max(float64(planW)/70, 10), 'f', 1, 64)
}
