package hacluster

import "testing"

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
