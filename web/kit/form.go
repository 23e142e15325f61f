package kit

import (
	"fmt"
	"net/http"
	"time"
)

// FormRefusal is what was wrong with a form, in words, and the HTTP status to answer it with.
type FormRefusal struct {
	Status int
	Text   string
}

func (r *FormRefusal) Error() string { return r.Text }

// RefuseForm returns a FormRefusal with status 400 and the formatted text.
func RefuseForm(format string, args ...any) error {
	return &FormRefusal{Status: http.StatusBadRequest, Text: fmt.Sprintf(format, args...)}
}

// HHMM writes an offset from midnight as HH:MM; the end of the day is 00:00, as a time field shows it.
func HHMM(ms int64) string {
	m := (ms / int64(time.Minute/time.Millisecond)) % (24 * 60)
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// MaxUploadBody bounds an upload request of the console: the image and the multipart envelope.
const MaxUploadBody = 6 << 20
