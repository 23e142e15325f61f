package web

import "github.com/labstack/echo/v4"

func (s *Server) pageKiosk(c echo.Context) error         { return echo.ErrNotImplemented }
func (s *Server) pageKioskResource(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) pageKioskBook(c echo.Context) error     { return echo.ErrNotImplemented }
func (s *Server) pageKioskCheckIn(c echo.Context) error  { return echo.ErrNotImplemented }
