// Package lang holds the languages the service speaks: their messages, one file per language in
// messages/ (embedded), and the choice of a request's language. A page's components read the language
// from the request's context (With, T), never from a global. A third language is a file and nothing else.
package lang

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// English is the language of the service when nothing else is asked for, and the one every message has.
var English = language.English

//go:embed messages/*.json
var files embed.FS

// bundle holds every language's messages; Supported lists the languages, English first; ids holds
// each language's message ids, sorted, by code.
var bundle, Supported, ids = load()

// matcher picks the supported language closest to what a person or browser asks for.
var matcher = language.NewMatcher(Supported)

// load reads the message files. A file that does not parse stops the service at start: the tests
// load them too.
func load() (*i18n.Bundle, []language.Tag, map[string][]string) {
	b := i18n.NewBundle(English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	names, err := fs.Glob(files, "messages/*.json")
	if err != nil {
		panic(err)
	}
	tags, byCode := []language.Tag{English}, map[string][]string{}
	for _, name := range names {
		f, err := b.LoadMessageFileFS(files, name)
		if err != nil {
			panic(fmt.Sprintf("lang: %s: %v", name, err))
		}
		if f.Tag != English {
			tags = append(tags, f.Tag)
		}
		for _, m := range f.Messages {
			byCode[Code(f.Tag)] = append(byCode[Code(f.Tag)], m.ID)
		}
		slices.Sort(byCode[Code(f.Tag)])
	}
	return b, tags, byCode
}

// Choose returns the supported language a request is answered in: the person's own (their
// userLanguage, "" when not signed in or not set), else the first the browser's Accept-Language
// header asks for, else English.
func Choose(userLanguage, acceptLanguage string) language.Tag {
	if userLanguage != "" {
		if t, ok := supported(userLanguage); ok {
			return t
		}
	}
	if acceptLanguage != "" {
		asked, _, err := language.ParseAcceptLanguage(acceptLanguage)
		if err == nil && len(asked) > 0 {
			if _, i, c := matcher.Match(asked...); c != language.No {
				return Supported[i]
			}
		}
	}
	return English
}

// supported returns the supported language a language code names ("es", "es-ES", "ES"), if any.
func supported(code string) (language.Tag, bool) {
	t, err := language.Parse(strings.TrimSpace(code))
	if err != nil {
		return English, false
	}
	_, i, c := matcher.Match(t)
	if c == language.No {
		return English, false
	}
	return Supported[i], true
}

// Code returns the code of a supported language as the pages and the API write it: "en", "es".
func Code(t language.Tag) string {
	b, _ := t.Base()
	return b.String()
}

// Codes lists the codes of the supported languages, English first.
func Codes() []string {
	out := make([]string, len(Supported))
	for i, t := range Supported {
		out[i] = Code(t)
	}
	return out
}

// A request's language and its localizer travel in its context.
type ctxKey struct{}

type local struct {
	tag language.Tag
	loc *i18n.Localizer
}

// With returns ctx answering in language t.
func With(ctx context.Context, t language.Tag) context.Context {
	return context.WithValue(ctx, ctxKey{}, &local{tag: t, loc: i18n.NewLocalizer(bundle, t.String(), English.String())})
}

// of returns the language of ctx, English if none was set.
func of(ctx context.Context) *local {
	if l, ok := ctx.Value(ctxKey{}).(*local); ok {
		return l
	}
	return english
}

var english = &local{tag: English, loc: i18n.NewLocalizer(bundle, English.String())}

// Of returns the language ctx answers in.
func Of(ctx context.Context) language.Tag { return of(ctx).tag }

// T returns the message id in ctx's language, filled with data (its fields by name: {{.Name}}). A
// message the language lacks is given in English; one that English lacks too shows as its id, which
// the tests find.
func T(ctx context.Context, id string, data ...map[string]any) string {
	return localize(ctx, &i18n.LocalizeConfig{MessageID: id, TemplateData: written(ctx, first(data))})
}

// N returns the message id in ctx's language in the plural form count takes there ("1 free desk",
// "3 free desks"; "1 puesto libre", "3 puestos libres"), filled with data and with count as {{.Count}}.
func N(ctx context.Context, id string, count int, data ...map[string]any) string {
	d := map[string]any{"Count": count}
	for k, v := range written(ctx, first(data)) {
		d[k] = v
	}
	return localize(ctx, &i18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: d})
}

// A Phrase is a value that fills a message and is written in the message's language, such as a date
// (DayOf) or an instant in a time zone (MomentOf). Code that does not know the reader's language, the
// domain's refusals for instance, puts phrases in a message's data; T and N write them.
type Phrase interface {
	In(ctx context.Context) string
}

// written returns data with its phrases written in ctx's language; data itself when it has none.
func written(ctx context.Context, data map[string]any) map[string]any {
	var out map[string]any
	for k, v := range data {
		if p, ok := v.(Phrase); ok {
			if out == nil {
				out = make(map[string]any, len(data))
				for k, v := range data {
					out[k] = v
				}
			}
			out[k] = p.In(ctx)
		}
	}
	if out == nil {
		return data
	}
	return out
}

func localize(ctx context.Context, cfg *i18n.LocalizeConfig) string {
	s, err := of(ctx).loc.Localize(cfg)
	if err != nil && s == "" {
		return cfg.MessageID
	}
	return s
}

func first(data []map[string]any) map[string]any {
	if len(data) == 0 {
		return nil
	}
	return data[0]
}

// IDs returns the ids of the messages of language code, sorted; nil for a language it does not speak.
// The tests hold them to the ids the code uses.
func IDs(code string) []string { return ids[code] }

// Choice is a language as the pages' switch offers it: its code and its name in itself.
type Choice struct{ Code, Name string }

// Choices lists the supported languages for the switch, English first, each named in itself
// ("English", "Español"), so that a person finds their own whatever the page speaks.
func Choices() []Choice {
	out := make([]Choice, len(Supported))
	for i, t := range Supported {
		name := []rune(display.Self.Name(t))
		name[0] = unicode.ToUpper(name[0])
		out[i] = Choice{Code: Code(t), Name: string(name)}
	}
	return out
}
