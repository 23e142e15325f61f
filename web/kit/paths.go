package kit

import (
	"net/url"
	"strings"
	"unicode"
)

// SignInPath is the sign-in page.
const SignInPath = "/login"

// LocalPath returns next when it is a clean absolute path of this site, and "/" otherwise (no open
// redirects). It refuses a path that does not start with a single "/", and one holding a backslash or a
// control character, as written or once percent-decoded: browsers skip tabs and newlines and read "\" as
// "/", so "/<TAB>/evil.example" would lead to another site.
func LocalPath(next string) string {
	decoded, err := url.PathUnescape(next)
	if err != nil || !cleanPath(next) || !cleanPath(decoded) || strings.HasPrefix(next, SignInPath) {
		return "/"
	}
	return next
}

// cleanPath reports whether p starts with one "/" and holds no backslash and no control character.
func cleanPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsRune(p, '\\') {
		return false
	}
	return !strings.ContainsFunc(p, unicode.IsControl)
}
