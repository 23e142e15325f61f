// Package static holds the files served under /static/: the style sheet, the scripts (htmx 2 and
// qr-scanner, vendored from npm with their licences, and the service's own small ones) and the floor plans.
package static

import "embed"

// Files are the embedded static files.
//
//go:embed floors js *.css *.svg
var Files embed.FS
