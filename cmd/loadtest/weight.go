package main

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// pageWeight is what a browser with an empty cache fetches to show one page: the page itself and every
// stylesheet, script, image and icon it links (and the fonts and images its stylesheets name), each once.
type pageWeight struct {
	Data     string  `json:"data"` // the data set the page was drawn from
	Page     string  `json:"page"` // its path, as measured
	Status   int     `json:"status"`
	Requests int     `json:"requests"` // the page and its assets
	Raw      int64   `json:"raw_bytes"`
	Gzip     int64   `json:"gzip_bytes"` // sent to a client that accepts gzip
	Assets   []asset `json:"assets"`     // the page first
	Missing  int     `json:"missing"`    // assets not answered 200
}

// asset is one response of a cold load.
type asset struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"` // page, stylesheet, script, image, icon, font, other
	Status int    `json:"status"`
	Raw    int64  `json:"raw_bytes"`
	Gzip   int64  `json:"gzip_bytes"`
}

// cssURL finds the url(…) references of a stylesheet.
var cssURL = regexp.MustCompile(`url\(\s*['"]?([^'")\s]+)['"]?\s*\)`)

// weigh loads the page at base+path as a browser with an empty cache would, with cookie (may be empty)
// on every request and gzip accepted. Assets on other hosts and data: URLs are not fetched.
func weigh(ctx context.Context, hc *http.Client, base, cookie, data, path string) (pageWeight, error) {
	w := pageWeight{Data: data, Page: path}
	page, err := url.Parse(base + path)
	if err != nil {
		return w, err
	}
	body, a, err := fetch(ctx, hc, page, cookie, "page")
	if err != nil {
		return w, err
	}
	w.Status = a.Status
	w.add(a)
	if a.Status != http.StatusOK {
		return w, fmt.Errorf("%s: status %d", path, a.Status)
	}
	refs, err := links(body)
	if err != nil {
		return w, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{page.String(): true}
	var queue []ref
	enqueue := func(from *url.URL, rs []ref) {
		for _, r := range rs {
			u, err := from.Parse(r.href)
			if err != nil || u.Scheme == "data" || u.Host != page.Host {
				continue
			}
			u.Fragment = ""
			if !seen[u.String()] {
				seen[u.String()] = true
				queue = append(queue, ref{href: u.String(), kind: r.kind})
			}
		}
	}
	enqueue(page, refs)
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		u, _ := url.Parse(r.href)
		body, a, err := fetch(ctx, hc, u, cookie, r.kind)
		if err != nil {
			return w, err
		}
		w.add(a)
		if a.Status != http.StatusOK {
			w.Missing++
			continue
		}
		if r.kind == "stylesheet" {
			var rs []ref
			for _, m := range cssURL.FindAllSubmatch(body, -1) {
				rs = append(rs, ref{href: string(m[1]), kind: kindOfURL(string(m[1]))})
			}
			enqueue(u, rs)
		}
	}
	return w, nil
}

func (w *pageWeight) add(a asset) {
	w.Assets = append(w.Assets, a)
	w.Requests++
	w.Raw += a.Raw
	w.Gzip += a.Gzip
}

// fetch GETs u accepting gzip, and returns the body as sent uncompressed, and its sizes.
func fetch(ctx context.Context, hc *http.Client, u *url.URL, cookie, kind string) ([]byte, asset, error) {
	a := asset{Path: u.RequestURI(), Kind: kind}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, a, err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, a, err
	}
	defer res.Body.Close()
	sent, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, a, fmt.Errorf("%s: %w", a.Path, err)
	}
	a.Status, a.Gzip, a.Raw = res.StatusCode, int64(len(sent)), int64(len(sent))
	body := sent
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(strings.NewReader(string(sent)))
		if err != nil {
			return nil, a, fmt.Errorf("%s: %w", a.Path, err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			return nil, a, fmt.Errorf("%s: %w", a.Path, err)
		}
		a.Raw = int64(len(body))
	}
	return body, a, nil
}

// ref is a link found in a page or a stylesheet, and what it is.
type ref struct{ href, kind string }

// iconRels are the link relations a browser fetches on a cold load, besides stylesheets.
var iconRels = []string{"icon", "shortcut", "apple-touch-icon", "mask-icon", "manifest", "preload", "modulepreload"}

// links are the page's stylesheets, scripts, images and icons, in document order.
func links(page []byte) ([]ref, error) {
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		return nil, err
	}
	var out []ref
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			attr := func(name string) string {
				for _, a := range n.Attr {
					if a.Key == name { // xlink:href too
						return a.Val
					}
				}
				return ""
			}
			switch n.Data {
			case "link":
				rels := strings.Fields(strings.ToLower(attr("rel")))
				switch {
				case attr("href") == "":
				case slices.Contains(rels, "stylesheet"):
					out = append(out, ref{attr("href"), "stylesheet"})
				case slices.ContainsFunc(rels, func(r string) bool { return slices.Contains(iconRels, r) }):
					kind := "icon"
					if slices.Contains(rels, "preload") || slices.Contains(rels, "modulepreload") {
						kind = kindOfURL(attr("href"))
					}
					out = append(out, ref{attr("href"), kind})
				}
			case "script":
				if src := attr("src"); src != "" {
					out = append(out, ref{src, "script"})
				}
			case "img", "source":
				if src := attr("src"); src != "" {
					out = append(out, ref{src, "image"})
				}
			case "image":
				if href := attr("href"); href != "" {
					out = append(out, ref{href, "image"})
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out, nil
}

// kindOfURL guesses what a URL named by a stylesheet or a preload is, by its extension.
func kindOfURL(href string) string {
	p := strings.ToLower(href)
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	switch {
	case strings.HasSuffix(p, ".css"):
		return "stylesheet"
	case strings.HasSuffix(p, ".js"):
		return "script"
	case strings.HasSuffix(p, ".woff2"), strings.HasSuffix(p, ".woff"), strings.HasSuffix(p, ".ttf"), strings.HasSuffix(p, ".otf"):
		return "font"
	case strings.HasSuffix(p, ".svg"), strings.HasSuffix(p, ".png"), strings.HasSuffix(p, ".jpg"), strings.HasSuffix(p, ".jpeg"),
		strings.HasSuffix(p, ".webp"), strings.HasSuffix(p, ".gif"), strings.HasSuffix(p, ".ico"), strings.HasSuffix(p, ".avif"):
		return "image"
	}
	return "other"
}
