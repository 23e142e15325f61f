package lang_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// TestPluralForms checks that every plural message of every language has each form that language's
// CLDR rules choose for a count, so that no count ever shows a message id or falls back to English.
func TestPluralForms(t *testing.T) {
	names, err := filepath.Glob("messages/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("message files: %v %v", names, err)
	}
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var messages map[string]any
		if err := json.Unmarshal(raw, &messages); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := i18n.NewBundle(language.English)
		b.RegisterUnmarshalFunc("json", json.Unmarshal)
		f, err := b.ParseMessageFileBytes(raw, filepath.Base(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		loc := i18n.NewLocalizer(b, f.Tag.String())
		for id, m := range messages {
			if _, plural := m.(map[string]any); !plural {
				continue
			}
			for _, n := range []int{0, 1, 2, 3, 5, 11, 21, 101, 1000000} {
				if _, err := loc.Localize(&i18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: map[string]any{"Count": n}}); err != nil {
					t.Errorf("%s: %s with %d: %v", name, id, n, err)
				}
			}
		}
	}
}
