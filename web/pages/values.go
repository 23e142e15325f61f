package pages

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workspacebooking/booking/web/kit"
)

// Readers of the values that the pages' forms and addresses carry. Each one trims what it reads.

// parseHours reads a time of day written HH:MM as an offset from local midnight. When end is true, 00:00
// and 24:00 both mean the midnight that ends the day. It refuses an empty or malformed value with a 2000
// naming field.
func parseHours(field, v string, end bool) (time.Duration, error) {
	if v == "" {
		return 0, kit.FieldRefuse(field, "find.timeMissing")
	}
	if end && (v == "24:00" || v == "00:00") {
		return 24 * time.Hour, nil
	}
	t, err := time.Parse("15:04", v)
	if err != nil {
		return 0, kit.FieldRefuse(field, "find.timeMalformed", map[string]any{"Value": strconv.Quote(v)})
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

// readDates reads dates written YYYY-MM-DD and returns them sorted, without repeats, skipping empty
// values. bad is the first value that is not a date; the days are nil then.
func readDates(vs []string) (days []time.Time, bad string) {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		d, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return nil, v
		}
		days = append(days, d)
	}
	slices.SortFunc(days, time.Time.Compare)
	return slices.CompactFunc(days, time.Time.Equal), ""
}

// uuidList reads the values of a repeated parameter as ids, in order and without repeats, skipping empty
// values. It refuses a value that is not an id with a 2000 naming the parameter.
func uuidList(name string, vs []string) ([]uuid.UUID, error) {
	var out []uuid.UUID
	for _, v := range vs {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		id, err := kit.ParseUUID(name, v)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}
