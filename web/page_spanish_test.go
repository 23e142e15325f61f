package web_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// englishWords are words that English sentences are full of and Spanish ones never use. One of them in
// a Spanish page's visible text means a sentence was left in English.
var englishWords = []string{
	"the", "you", "your", "and", "with", "for", "of", "is", "are", "this", "that", "from", "will", "have",
	"can", "be", "was", "there", "here", "when", "what", "which", "at", "to", "on", "by", "or",
	"not", "none", "yet", "free", "busy", "book", "booked", "booking", "bookings", "desk", "desks", "room",
	"rooms", "floor", "floors", "building", "buildings", "save", "delete", "cancel", "search", "find",
	"week", "today", "tomorrow", "until", "add", "edit", "remove", "change", "open", "close",
	"closed", "people", "settings", "sign", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "jan", "apr",
	"aug", "dec", "hours", "minutes", "time",
}

// leftInEnglish returns the English words and messages found in a page's visible text, the text of its
// title, aria-label, placeholder and alt attributes, and its buttons' values.
func leftInEnglish(doc *goquery.Document, english []string, data map[string]bool) []string {
	doc.Find("script, style, code").Remove() // code: event names, claims and such, never translated
	var texts []string
	texts = append(texts, doc.Find("title").Text(), doc.Find("body").Text())
	doc.Find("[title], [aria-label], [placeholder], [alt], input[type=submit][value], input[type=button][value]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"title", "aria-label", "placeholder", "alt", "value"} {
			if v, ok := s.Attr(a); ok && (a != "value" || s.Is("input[type=submit], input[type=button]")) {
				texts = append(texts, v)
			}
		}
	})
	text := strings.Join(strings.Fields(strings.Join(texts, " \n ")), " ")
	names := slices.Collect(maps.Keys(data))
	slices.SortFunc(names, func(a, b string) int { return len(b) - len(a) }) // "Room on a hidden floor" before "hidden"
	for _, name := range names {
		text = strings.ReplaceAll(text, name, " ")
	}
	var found []string
	for _, m := range english {
		if strings.Contains(text, m) {
			found = append(found, "message "+strconvQuote(m))
		}
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	for _, w := range words {
		if slices.Contains(englishWords, w) && !slices.Contains(found, w) {
			found = append(found, w)
		}
	}
	return found
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// englishMessages returns the literal parts of the English messages whose Spanish differs: each part
// between {{...}} fields that has at least two words.
func englishMessages(t *testing.T) []string {
	t.Helper()
	read := func(code string) map[string]any {
		raw, err := os.ReadFile("lang/messages/" + code + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	en, es := read("en"), read("es")
	field := regexp.MustCompile(`\{\{[^}]*\}\}`)
	var out []string
	for id, v := range en {
		var forms []string
		switch v := v.(type) {
		case string:
			if v == es[id] {
				continue
			}
			forms = []string{v}
		case map[string]any:
			for _, f := range v {
				if s, ok := f.(string); ok {
					forms = append(forms, s)
				}
			}
		}
		for _, f := range forms {
			for _, part := range field.Split(f, -1) {
				part = strings.TrimSpace(part)
				if len(strings.Fields(part)) >= 2 && len(part) >= 10 {
					out = append(out, part)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Every page, for a person whose language is Spanish, is in Spanish: no English message and no
// sentence in English is left in what the page shows or says to a screen reader. The pages are those
// the accessibility checks visit, each as its everyday user sees it.
func TestPagesInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, u := range []uuid.UUID{fx.Alice, fx.Rita, fx.Adam} {
		if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, u); err != nil {
			t.Fatal(err)
		}
	}
	own := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	pb.takeDeskWednesday(t)
	series := pb.seriesOfAlice(t, booking.SeriesFree) // with a refused day
	english := englishMessages(t)
	// data are the names the fixture gives to things and people, which stay as they are.
	data := map[string]bool{"Workspace Booking": true}
	rows, err := pb.Pool.Query(t.Context(), `
		SELECT name FROM buildings UNION SELECT name FROM floors UNION SELECT name FROM resources
		UNION SELECT name FROM subcategories UNION SELECT name FROM features UNION SELECT name FROM reservables UNION SELECT description FROM reservables
		UNION SELECT name || ' ' || surname FROM users UNION SELECT email FROM users
		UNION SELECT replace(substring(timezone from '[^/]*$'), '_', ' ') FROM buildings`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		data[s] = true
	}
	rows.Close()

	pages := []struct {
		who   uuid.UUID
		paths []string
	}{
		{uuid.Nil, []string{"/login"}},
		{fx.Alice, []string{
			"/find", "/find?kind=room&date=2026-11-24&from=10:00&to=11:00", "/find/plan?floor=" + fx.FloorMadrid.String() + "&date=2026-11-24",
			"/find/resources/" + fx.RoomGoya.String() + "?date=2026-11-24&from=12:00&to=13:00",
			"/", "/whos-in?date=2026-11-24", "/bookings", "/bookings?past=1", "/bookings/" + own.ID.String(), "/settings", "/p/MAD-R1",
			"/bookings?series=" + series.ID.String(), "/bookings/series/" + series.ID.String(),
			"/bookings/" + series.Occurrences[0].Booking.ID.String(),
			"/find?kind=desk&date=2026-11-24&from=09:00&to=18:00&resource=" + fx.DeskOne.String(),
		}},
		{fx.Rita, []string{"/kiosk", "/kiosk/resource?code=MAD-R1"}},
		{fx.Adam, []string{
			"/approvals", "/posters", "/posters/print?floor=" + fx.FloorMadrid.String(), "/admin/buildings", "/admin/buildings/" + fx.BuildingMadrid.String(),
			"/admin/floors/" + fx.FloorMadrid.String(), "/admin/floors/" + fx.FloorMadrid.String() + "/plan",
			"/admin/resources", "/admin/resources/" + fx.RoomGoya.String(), "/admin/rules", "/admin/catalogue",
			"/admin/people", "/admin/audit", "/admin/closures", "/admin/identity", "/admin/webhooks",
			"/admin/utilisation",
		}},
	}
	for _, who := range pages {
		b := pb.browser(t)
		if who.who != uuid.Nil {
			b = pb.signedIn(t, who.who)
		}
		for _, path := range who.paths {
			p := b.getIn(path, "es")
			if p.status != http.StatusOK {
				t.Errorf("GET %s: status %d, want 200", path, p.status)
				continue
			}
			if got := p.attr("html", "lang"); got != "es" {
				t.Errorf("GET %s: <html lang=%q>, want es", path, got)
			}
			if found := leftInEnglish(p.doc, english, data); len(found) > 0 {
				t.Errorf("GET %s in Spanish shows English: %s", path, strings.Join(found, ", "))
			}
		}
	}
}
