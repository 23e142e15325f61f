package web

import "github.com/labstack/echo/v4"

func (s *Server) pageFind(c echo.Context) error           { return echo.ErrNotImplemented }
func (s *Server) pageFloorPlan(c echo.Context) error      { return echo.ErrNotImplemented }
func (s *Server) pageResource(c echo.Context) error       { return echo.ErrNotImplemented }
func (s *Server) pageCreateBookings(c echo.Context) error { return echo.ErrNotImplemented }
