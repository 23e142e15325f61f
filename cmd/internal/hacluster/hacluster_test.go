package hacluster

import (
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestPaired(t *testing.T) {
	node := func(reported, goal string) Node { return Node{Reported: reported, Goal: goal} }
	tests := []struct {
		name  string
		nodes []Node
		want  bool
	}{
		{"PrimaryAndSecondary", []Node{node("primary", "primary"), node("secondary", "secondary")}, true},
		{"SecondaryAndPrimary", []Node{node("secondary", "secondary"), node("primary", "primary")}, true},
		{"PrimaryAlone", []Node{node("wait_primary", "wait_primary"), node("demoted", "catchingup")}, false},
		{"NotThereYet", []Node{node("primary", "primary"), node("catchingup", "secondary")}, false},
		{"OneNode", []Node{node("single", "single")}, false},
		{"None", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Paired(tt.nodes); got != tt.want {
				t.Errorf("Paired(%+v) = %v, want %v", tt.nodes, got, tt.want)
			}
		})
	}
}

// TestAlterSystemLeavesARefusedValue sets settings on the test server: a value the server refuses as
// invalid is reported and left out, while a setting that does not exist stops with an error. Neither
// changes the server.
func TestAlterSystemLeavesARefusedValue(t *testing.T) {
	url := bookingtest.ServerURL()
	var log strings.Builder
	err := alterSystem(t.Context(), url, "test server", map[string]string{"wal_compression": "'no-such-method'"}, &log)
	if err != nil {
		t.Errorf("alterSystem with a refused value = %v, want nil", err)
	}
	if want := `test server: wal_compression = 'no-such-method' refused (invalid value for parameter "wal_compression"`; !strings.Contains(log.String(), want) {
		t.Errorf("log = %q, want it to contain %q", log.String(), want)
	}

	log.Reset()
	err = alterSystem(t.Context(), url, "test server", map[string]string{"no_such_setting": "1"}, &log)
	if err == nil || !strings.Contains(err.Error(), "test server: set no_such_setting:") {
		t.Errorf("alterSystem with an unknown setting = %v, want an error naming it", err)
	}
	if log.Len() != 0 {
		t.Errorf("log = %q, want nothing", log.String())
	}
}
