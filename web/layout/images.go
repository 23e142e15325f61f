package layout

import (
	"net/url"
	"path"
	"strings"

	"github.com/workspacebooking/booking/web/booking"
)

// maxImageAddress bounds an image address, in bytes.
const maxImageAddress = 2048

// image refuses an image address that pages could not show safely: it must be empty, an https URL with a
// host, or a clean path of the service's own under /plans/ or /static/. javascript:, data:, http:,
// //host and relative paths are refused.
func (a at) image(field, v string) error {
	if v == "" {
		return nil
	}
	refuse := func() error {
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.imageAddress")
	}
	if len(v) > maxImageAddress || strings.ContainsFunc(v, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' }) {
		return refuse()
	}
	if strings.HasPrefix(v, "/plans/") || strings.HasPrefix(v, "/static/") {
		// No dot segments, doubled slashes or escapes, which could lead elsewhere once resolved.
		if path.Clean(v) != v || strings.ContainsAny(v, "%?#") {
			return refuse()
		}
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || !strings.HasPrefix(v, "https://") || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return refuse()
	}
	return nil
}
