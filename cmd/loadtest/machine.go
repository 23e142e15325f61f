package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"
)

// machineInfo describes where the figures were measured.
type machineInfo struct {
	CPU        string `json:"cpu"`
	CPUs       int    `json:"cpus"`
	Memory     string `json:"memory"`
	OS         string `json:"os"`
	Go         string `json:"go"`
	PostgreSQL string `json:"postgresql"`
}

// machine describes this machine, and the PostgreSQL server of pool.
func machine(ctx context.Context, pool *pgxpool.Pool) machineInfo {
	m := machineInfo{CPUs: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			switch strings.TrimSpace(k) {
			case "model name":
				m.CPU = strings.TrimSpace(v)
			case "processor":
				n++
			}
		}
		f.Close()
		if n > 0 {
			m.CPUs = n
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		fmt.Sscanf(strings.SplitN(string(data), "\n", 2)[0], "MemTotal: %d kB", &kb)
		m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.OS += ", Linux " + strings.TrimSpace(string(data))
	}
	_ = pool.QueryRow(ctx, "SHOW server_version").Scan(&m.PostgreSQL)
	return m
}
