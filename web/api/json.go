package api

import (
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// The listings (availability and the free listings) answer with a few hundred resources, and encoding
// them by reflection cost more than everything else such a request does. They are written here by hand,
// byte for byte as encoding/json would write them; json_test.go holds them to the DTOs of their shapes,
// encoded by reflection.

// buffers keeps the listings' response buffers for reuse.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// writeJSON answers with status and the JSON that appendBody appends to an empty buffer, followed by a
// newline, as c.JSON answers.
func writeJSON(c echo.Context, status int, appendBody func([]byte) []byte) error {
	bp := buffers.Get().(*[]byte)
	b := append(appendBody((*bp)[:0]), '\n')
	err := c.JSONBlob(status, b)
	if cap(b) <= 4<<20 { // an unusually large answer is not kept
		*bp = b
		buffers.Put(bp)
	}
	return err
}

// appendListedResource appends the fields of a listed resource (floor and subcategory ids only, capacity
// for spaces), without the braces.
func appendListedResource(b []byte, r *booking.Resource) []byte {
	b = append(b, `"id":"`...)
	b = appendUUID(b, r.ID)
	b = append(b, `","name":`...)
	b = appendString(b, r.Name)
	b = append(b, `,"posterCode":`...)
	b = appendString(b, r.PosterCode)
	b = append(b, `,"image":`...)
	b = appendString(b, r.Image)
	b = append(b, `,"phone":`...)
	b = appendString(b, r.Phone)
	b = append(b, `,"mapCoordinates":{"topLeftX":`...)
	b = strconv.AppendInt(b, int64(r.Map.TopLeftX), 10)
	b = append(b, `,"topLeftY":`...)
	b = strconv.AppendInt(b, int64(r.Map.TopLeftY), 10)
	b = append(b, `,"bottomRightX":`...)
	b = strconv.AppendInt(b, int64(r.Map.BottomRightX), 10)
	b = append(b, `,"bottomRightY":`...)
	b = strconv.AppendInt(b, int64(r.Map.BottomRightY), 10)
	b = append(b, `},"approachable":`...)
	b = strconv.AppendBool(b, r.Approachable)
	b = append(b, `,"floor":{"id":"`...)
	b = appendUUID(b, r.Floor.ID)
	b = append(b, `"},"subcategory":{"id":"`...)
	b = appendUUID(b, r.Subcategory.ID)
	b = append(b, `"},"visible":`...)
	b = strconv.AppendBool(b, r.Visible)
	if c := capacity(*r); c != nil {
		b = append(b, `,"capacity":`...)
		b = strconv.AppendInt(b, int64(*c), 10)
	}
	return b
}

// appendAvailability appends the availability answer: {from, to, resources: [listed resource, category,
// busy, free]}.
func appendAvailability(b []byte, q booking.AvailabilityQuery, rs []booking.ResourceAvailability) []byte {
	b = append(b, `{"from":`...)
	b = strconv.AppendInt(b, millis(q.From), 10)
	b = append(b, `,"to":`...)
	b = strconv.AppendInt(b, millis(q.To), 10)
	b = append(b, `,"resources":[`...)
	for i := range rs {
		a := &rs[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = appendListedResource(b, a.Resource)
		b = append(b, `,"category":`...)
		b = appendString(b, string(a.Resource.Subcategory.Category))
		b = append(b, `,"busy":[`...)
		for j, iv := range a.Busy {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"startDate":`...)
			b = strconv.AppendInt(b, millis(iv.Start), 10)
			b = append(b, `,"endDate":`...)
			b = strconv.AppendInt(b, millis(iv.End), 10)
			b = append(b, '}')
		}
		b = append(b, `],"free":`...)
		b = strconv.AppendBool(b, a.Free)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendFreeResources appends the free listing's answer: {freeResources: [listed resource]}.
func appendFreeResources(b []byte, rs []booking.Resource) []byte {
	b = append(b, `{"freeResources":[`...)
	for i := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = appendListedResource(b, &rs[i])
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

const hex = "0123456789abcdef"

// appendUUID appends u in its canonical form, as its String method writes it.
func appendUUID(b []byte, u uuid.UUID) []byte {
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b = append(b, '-')
		}
		b = append(b, hex[c>>4], hex[c&0xF])
	}
	return b
}

// appendString appends s quoted as encoding/json quotes a string: HTML characters, U+2028 and U+2029
// escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
