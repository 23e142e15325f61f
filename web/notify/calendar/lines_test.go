package calendar_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/workspacebooking/booking/web/notify/calendar"
)

// TestLinesEndInCRLF: every line of every kind of document ends in CRLF, and no CR or LF stands alone,
// even when the texts hold them.
func TestLinesEndInCRLF(t *testing.T) {
	t.Parallel()
	ev := meeting(t)
	ev.Summary = "one\ntwo\r\nthree\rfour"
	ev.Description = "line\n\nline\r"
	ev.Attendees[0].Name = "Ana\r\nRuiz"
	docs := map[string][]byte{
		"request": invite(t, calendar.Request, ev),
		"cancel":  invite(t, calendar.Cancel, ev),
		"feed":    feed(t, "a\nb", ev),
		"empty":   feed(t, "none"),
	}
	for name, doc := range docs {
		if !bytes.HasSuffix(doc, []byte("END:VCALENDAR\r\n")) {
			t.Errorf("%s does not end in END:VCALENDAR CRLF", name)
		}
		for i, b := range doc {
			if b == '\n' && (i == 0 || doc[i-1] != '\r') {
				t.Errorf("%s: bare LF at octet %d: %q", name, i, doc[max(0, i-20):i+1])
			}
			if b == '\r' && (i+1 == len(doc) || doc[i+1] != '\n') {
				t.Errorf("%s: bare CR at octet %d: %q", name, i, doc[max(0, i-20):i+1])
			}
		}
	}
}

// TestFolding: lines longer than 75 octets are folded with CRLF and a space, at most 75 octets a line
// with the space, never inside a UTF-8 character, and unfold to the line unfolded.
func TestFolding(t *testing.T) {
	t.Parallel()
	// "SUMMARY:" is 8 octets, so 67 more fill a line.
	for _, tc := range []struct {
		name, summary string
		lines         int
	}{
		{"Exactly75", strings.Repeat("a", 67), 1},
		{"Of76", strings.Repeat("a", 68), 2},
		{"TwoOctetCharAcrossTheLimit", strings.Repeat("a", 66) + "ééé", 2},
		{"FourOctetCharAcrossTheLimit", strings.Repeat("a", 65) + "🎉🎉", 2},
		{"EscapeAcrossTheLimit", strings.Repeat("a", 66) + ",b", 2},
		{"ThreeHundredCharsMixed", strings.Repeat("Sala añil 🎉, xy", 20), 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := meeting(t)
			ev.Summary = tc.summary
			doc := invite(t, calendar.Request, ev)
			start := bytes.Index(doc, []byte("\r\nSUMMARY:")) + 2
			end := start + bytes.Index(doc[start:], []byte("\r\nTRANSP:"))
			physical := strings.Split(string(doc[start:end]), "\r\n")
			for i, l := range physical {
				if len(l) > 75 {
					t.Errorf("line %d has %d octets: %q", i, len(l), l)
				}
				if !utf8.ValidString(l) {
					t.Errorf("line %d splits a character: %q", i, l)
				}
				if i > 0 && !strings.HasPrefix(l, " ") {
					t.Errorf("line %d does not start with a space: %q", i, l)
				}
			}
			if len(physical) != tc.lines {
				t.Errorf("%d lines, want %d: %q", len(physical), tc.lines, physical)
			}
			want := "SUMMARY:" + strings.NewReplacer(`,`, `\,`).Replace(tc.summary)
			if got := prop(t, doc, "SUMMARY"); got != want {
				t.Errorf("unfolded\n%q, want\n%q", got, want)
			}
		})
	}
}

// TestTextEscaping: TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545
// §3.3.11), keep tabs, accents and emoji, and lose other control characters.
func TestTextEscaping(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, text, want string }{
		{"Specials", `a\b;c,d`, `a\\b\;c\,d`},
		{"LF", "a\nb", `a\nb`},
		{"CRLF", "a\r\nb", `a\nb`},
		{"CR", "a\rb", `a\nb`},
		{"AlreadyEscapedLooking", `\n \, \;`, `\\n \\\, \\\;`},
		{"ColonAndQuote", `Room: "Tajo"`, `Room: "Tajo"`},
		{"TabAccentsEmoji", "Café\tañil 🎉", "Café\tañil 🎉"},
		{"Controls", "a\x00b\x07c\x1bd\x7fe", "abcde"},
		{"InvalidUTF8", "a\xffb", "a\uFFFDb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := meeting(t)
			ev.Summary, ev.Description, ev.Location = tc.text, tc.text, tc.text
			inv := invite(t, calendar.Request, ev)
			got := []string{prop(t, inv, "SUMMARY"), prop(t, inv, "DESCRIPTION"), prop(t, inv, "LOCATION"),
				prop(t, feed(t, tc.text, ev), "X-WR-CALNAME")}
			want := []string{"SUMMARY:" + tc.want, "DESCRIPTION:" + tc.want, "LOCATION:" + tc.want, "X-WR-CALNAME:" + tc.want}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestNameParameters: a CN with a colon, semicolon or comma is quoted; a double quote, which a
// parameter value cannot hold, becomes an apostrophe; line breaks and other controls become a space.
func TestNameParameters(t *testing.T) {
	t.Parallel()
	const tail = ";PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:x@acme.test"
	for _, tc := range []struct{ name, cn, want string }{
		{"Plain", "Ana Ruiz", "ATTENDEE;CN=Ana Ruiz" + tail},
		{"Comma", "Doe, Jane", `ATTENDEE;CN="Doe, Jane"` + tail},
		{"Semicolon", "A;B", `ATTENDEE;CN="A;B"` + tail},
		{"Colon", "Dr: Who", `ATTENDEE;CN="Dr: Who"` + tail},
		{"DoubleQuote", `Jane "JJ" Doe`, `ATTENDEE;CN=Jane 'JJ' Doe` + tail},
		{"QuoteAndComma", `"Doe", Jane`, `ATTENDEE;CN="'Doe', Jane"` + tail},
		{"LineBreaks", "Ana\r\nRuiz\n\tX", "ATTENDEE;CN=Ana Ruiz X" + tail},
		{"Accents", "José Núñez 🎉", "ATTENDEE;CN=José Núñez 🎉" + tail},
		{"NoName", "", "ATTENDEE" + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := meeting(t)
			ev.Attendees = []calendar.Person{{Name: tc.cn, Email: "x@acme.test"}}
			ev.Organizer.Name = tc.cn
			doc := invite(t, calendar.Request, ev)
			if got := prop(t, doc, "ATTENDEE"); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			wantOrg := strings.Replace(strings.TrimSuffix(tc.want, tail), "ATTENDEE", "ORGANIZER", 1) +
				":mailto:noreply@booking.example"
			if got := prop(t, doc, "ORGANIZER"); got != wantOrg {
				t.Errorf("got  %q\nwant %q", got, wantOrg)
			}
		})
	}
}
