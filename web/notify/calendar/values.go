package calendar

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-ical"
)

// Layouts of DATE-TIME values (RFC 5545 §3.3.5): local time, and UTC.
const (
	localLayout = "20060102T150405"
	utcLayout   = "20060102T150405Z"
)

// check returns why ev cannot be written, or nil.
func check(ev Event) error {
	switch {
	case ev.UID == "":
		return errors.New("no UID")
	case ev.Sequence < 0:
		return fmt.Errorf("negative sequence %d", ev.Sequence)
	case ev.Stamp.IsZero():
		return errors.New("no stamp")
	case ev.Start.IsZero() || ev.End.IsZero():
		return errors.New("no start or no end")
	case !ev.End.After(ev.Start):
		return errors.New("end is not after start")
	}
	switch ev.Status {
	case "CONFIRMED", "TENTATIVE", "CANCELLED":
	default:
		return fmt.Errorf("unknown status %q", ev.Status)
	}
	if z := zoneOf(ev.Zone); z != nil && !validZoneName(z.String()) {
		return fmt.Errorf("zone name %q cannot be a TZID", z.String())
	}
	if _, err := uri(ev.URL); err != nil {
		return err
	}
	if err := checkRepeat(ev.Repeat, ev.Start); err != nil {
		return err
	}
	if ev.Organizer.Email != "" && !validEmail(ev.Organizer.Email) {
		return fmt.Errorf("organizer e-mail %q is not an address", ev.Organizer.Email)
	}
	for _, p := range ev.Attendees {
		if !validEmail(p.Email) {
			return fmt.Errorf("attendee e-mail %q is not an address", p.Email)
		}
	}
	return nil
}

// uri returns s as an absolute URI with what needs it percent-encoded, "" for "", or an error.
func uri(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() {
		return "", fmt.Errorf("URL %q is not an absolute URI", s)
	}
	// url.URL.String escapes the path but leaves a query as it was given.
	out := u.String()
	if strings.ContainsFunc(out, func(r rune) bool { return r <= ' ' || r == '"' || r >= 0x7f }) {
		return "", fmt.Errorf("URL %q holds a space, a quote or a character that is not ASCII", s)
	}
	return out, nil
}

// validEmail reports whether s can follow "mailto:" as it is: it has an @ and no space, control
// character, quote, angle bracket or backslash. Letters beyond ASCII are kept, as mail clients do.
func validEmail(s string) bool {
	return utf8.ValidString(s) && strings.Contains(s, "@") && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"<>\`, r)
	})
}

// validZoneName reports whether a zone name can be a TZID parameter: not empty, no control
// character and no double quote.
func validZoneName(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '"'
	})
}

// zoneOf returns the zone that times are written in with a TZID, or nil for UTC.
func zoneOf(z *time.Location) *time.Location {
	if z == nil || z == time.UTC || z.String() == "UTC" {
		return nil
	}
	return z
}

// setText sets a TEXT property. go-ical escapes backslash, semicolon, comma and LF (RFC 5545
// §3.3.11); cleanText first removes what it would refuse or write raw.
func setText(props ical.Props, name, text string) {
	p := ical.NewProp(name)
	p.SetText(cleanText(text))
	// go-ical adds VALUE=TEXT to X- properties, whose default type is TEXT anyway.
	p.Params.Del(ical.ParamValue)
	props.Set(p)
}

// setInt sets an INTEGER property, which go-ical has no setter for.
func setInt(props ical.Props, name string, n int) {
	props.Set(&ical.Prop{Name: name, Params: ical.Params{}, Value: strconv.Itoa(n)})
}

// setUTC sets a DATE-TIME property in UTC.
func setUTC(props ical.Props, name string, t time.Time) {
	props.Set(&ical.Prop{Name: name, Params: ical.Params{}, Value: t.UTC().Format(utcLayout)})
}

// setTime sets a DATE-TIME property as a local time of zone, with its TZID, or in UTC when zone is
// nil or UTC. A local time the clocks show twice, when they go back, is written in UTC too:
// RFC 5545 §3.3.5 reads it as the first time, but ical.js reads it as the second, so clients differ.
func setTime(props ical.Props, name string, t time.Time, zone *time.Location) {
	z := zoneOf(zone)
	if z == nil || ambiguous(t.In(z)) {
		setUTC(props, name, t)
		return
	}
	props.Set(&ical.Prop{Name: name, Params: ical.Params{ical.ParamTimezoneID: {z.String()}},
		Value: t.In(z).Format(localLayout)})
}

// ambiguous reports whether the clocks of t's zone show t's wall time twice: just before they go
// back, or just after.
func ambiguous(t time.Time) bool {
	start, end := t.ZoneBounds()
	_, now := t.Zone()
	if !start.IsZero() {
		_, before := start.Add(-time.Second).In(t.Location()).Zone()
		if before > now && t.Sub(start) < time.Duration(before-now)*time.Second {
			return true
		}
	}
	if !end.IsZero() {
		_, after := end.In(t.Location()).Zone()
		if after < now && end.Sub(t) <= time.Duration(now-after)*time.Second {
			return true
		}
	}
	return false
}

// cleanText makes s fit a TEXT value: valid UTF-8, every line break a LF (which go-ical writes
// "\n"), and no control character but tab. go-ical refuses a CR and would write the others raw.
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}

// cleanParam makes s fit a parameter value (RFC 5545 §3.1): no control character, runs of space
// made one, and each double quote, which a parameter value cannot hold even quoted, made an
// apostrophe. go-ical quotes the value when it holds a colon, semicolon or comma.
func cleanParam(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, `"`, "'")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// maxLine is the longest a content line may be, in octets without its CRLF (RFC 5545 §3.1).
const maxLine = 75

// fold breaks every line of b longer than maxLine octets with CRLF and a space, never inside a
// UTF-8 sequence. go-ical does not fold. b is go-ical's output: lines that each end in CRLF.
func fold(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/maxLine*3)
	for len(b) > 0 {
		end := bytes.Index(b, []byte("\r\n"))
		if end < 0 {
			end = len(b)
		}
		line := b[:end]
		b = b[min(end+2, len(b)):]
		limit := maxLine
		for len(line) > limit {
			cut := limit
			// A character starts within UTFMax octets; the bound only matters for invalid UTF-8.
			for cut > limit-utf8.UTFMax && !utf8.RuneStart(line[cut]) {
				cut--
			}
			out = append(out, line[:cut]...)
			out = append(out, "\r\n "...)
			line = line[cut:]
			limit = maxLine - 1 // the space that starts the line counts
		}
		out = append(out, line...)
		out = append(out, "\r\n"...)
	}
	return out
}
