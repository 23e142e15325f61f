package web

import "github.com/labstack/echo/v4"

func (s *Server) pagePoster(c echo.Context) error        { return echo.ErrNotImplemented }
func (s *Server) pagePosterBook(c echo.Context) error    { return echo.ErrNotImplemented }
func (s *Server) pagePosterCheckIn(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) pagePosters(c echo.Context) error       { return echo.ErrNotImplemented }
func (s *Server) pagePostersPrint(c echo.Context) error  { return echo.ErrNotImplemented }
