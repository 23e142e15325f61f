package web

import (
	"strings"

	"github.com/labstack/echo/v4"
)

// hideSecret keeps the secret of a feed or unsubscribe address out of the request log, where anyone who
// reads the logs could use it: once the request is answered, the path the log line shows has the
// secret (the route's :file or :secret) replaced by "…".
func hideSecret(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		u := c.Request().URL
		for _, name := range []string{"file", "secret"} {
			if v := c.Param(name); v != "" {
				u.Path = strings.Replace(u.Path, v, "…", 1)
			}
		}
		u.RawPath = ""
		return err
	}
}
