// Package static holds the files served under /static/: floor plans, and later scripts and styles.
package static

import "embed"

// Files are the embedded static files.
//
//go:embed floors
var Files embed.FS
