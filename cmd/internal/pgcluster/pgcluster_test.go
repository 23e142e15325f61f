package pgcluster

import "testing"

func TestNewest(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"9.6", "15", "13"}, "15"},
		{[]string{"9.6", "10"}, "10"},
		{[]string{"9.10", "9.6"}, "9.10"},
		{[]string{"16", "9.6", "17"}, "17"},
		{[]string{"14"}, "14"},
		{[]string{"postgresql", "postgresql@16", "postgresql@14"}, "postgresql@16"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := newest(tt.names); got != tt.want {
			t.Errorf("newest(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}
