package kit

import (
	"errors"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/workspacebooking/booking/web/booking"
)

// Problem is the body of every failed API call, in the shape of RFC 9457. Code and Name are empty for an
// unknown route or method; Index is set only for a request that carries several bookings; Field names the
// one field refused, as a JSON path, when there is one. Pages show the same problem in words
// (PageErrorTitle, PageErrorMessage).
type Problem struct {
	Status int    `json:"status"`
	Code   int    `json:"code,omitempty"`
	Name   string `json:"name,omitempty"`
	Title  string `json:"title"`
	Detail string `json:"detail,omitempty"`
	Index  *int   `json:"index,omitempty"`
	Field  string `json:"field,omitempty"`
}

// Refusal returns err as a refusal with the HTTP status of its code, or nil when err is not a refusal
// but a failure. Database errors that are refusals (text it cannot store, a database away or too slow)
// are turned into one first, by booking.Interpret.
func Refusal(err error) (*booking.Error, int) {
	var de *booking.Error
	if !errors.As(booking.Interpret(err), &de) {
		return nil, 0
	}
	return de, HTTPStatus(de.Code)
}

// HTTPStatus returns the HTTP status of answers with the code, as booking's code table gives it, or 500
// for a number that is not a code.
func HTTPStatus(code booking.Code) int {
	if status := code.HTTPStatus(); status != 0 {
		return status
	}
	return http.StatusInternalServerError
}

// PageErrorTitle names what went wrong in words, never with a code: pages are read by people.
func PageErrorTitle(p Problem) string {
	switch {
	case p.Status == http.StatusBadRequest:
		return "Please check what was asked"
	case p.Status == http.StatusUnauthorized:
		return "Please sign in"
	case p.Status == http.StatusForbidden:
		return "Not allowed"
	case p.Status == http.StatusNotFound && p.Code == 0:
		return "Page not found"
	case p.Status == http.StatusNotFound:
		return "Not found"
	case p.Status == http.StatusMethodNotAllowed:
		return "Not possible here"
	case p.Status == http.StatusTooManyRequests:
		return "Too many requests at once"
	case p.Status >= 500:
		return "Something went wrong"
	}
	return "Not possible"
}

// PageErrorMessage is what a person reads when a page fails: the domain's message as a sentence, with
// the few technical ones said in plain words.
func PageErrorMessage(p Problem) string {
	switch {
	case p.Status == http.StatusNotFound && p.Code == 0:
		return "There is no page at this address."
	case p.Status == http.StatusMethodNotAllowed:
		return "This address cannot be used that way. Go back and try again from the page."
	case p.Status >= 500:
		return "Something went wrong on our side, and nothing was changed. Please try again in a moment."
	case strings.HasSuffix(p.Detail, "is not a UUID"):
		return "This address is incomplete or was changed, so it names nothing this service knows. Go back and follow the link again."
	case p.Detail != "":
		return ToSentence(p.Detail)
	}
	return "That could not be done."
}

// ToSentence makes a domain message ("check-in closed at 09:15") a sentence for a page: a capital first
// letter and one full stop at the end.
func ToSentence(msg string) string {
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg) // the first letter, whatever its script
	return string(unicode.ToUpper(r)) + msg[n:] + "."
}
