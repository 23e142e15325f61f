// Package views holds the templ components of the web pages. It renders what it is given and never
// reads the database.
package views
