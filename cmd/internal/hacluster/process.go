package hacluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// autoctl runs pg_autoctl with args and waits for it to finish.
func (f *Formation) autoctl(ctx context.Context, args ...string) error {
	cmd := f.command(ctx, args...)
	cmd.Stdout, cmd.Stderr = f.Log, f.Log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pg_autoctl %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// runKeeper starts `pg_autoctl run` for the node (or monitor) called name, in a session of its own so
// that it outlives this process, with its output in Root/name.log. It does nothing when that keeper runs
// already.
func (f *Formation) runKeeper(name string) error {
	if f.command(context.Background(), "status", "--pgdata", f.path(name)).Run() == nil {
		return nil
	}
	log, err := os.OpenFile(f.path(name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := f.command(context.Background(), "run", "--pgdata", f.path(name))
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr.Setsid = true
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pg_autoctl run --pgdata %s: %w", f.path(name), err)
	}
	// Reap the keeper when it ends, so that it leaves no zombie behind for as long as this process runs:
	// pg_autoctl would take a zombie's pid, still in its pid file, for a keeper running already.
	go func() { _ = cmd.Wait() }()
	return nil
}

// command prepares pg_autoctl with args, as the postgres user when we are root. Its configuration, state
// and pid files go under Root rather than the user's home, so that a formation is all in one folder.
func (f *Formation) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "pg_autoctl", args...)
	cmd.Dir = f.Root
	cmd.Env = append(os.Environ(),
		"HOME="+f.Root,
		"XDG_CONFIG_HOME="+f.path("config"),
		"XDG_DATA_HOME="+f.path("share"),
		"XDG_RUNTIME_DIR="+f.path("run"),
		"PATH="+filepath.Dir(f.pgctl)+string(os.PathListSeparator)+os.Getenv("PATH"),
	)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: f.cred}
	return cmd
}

// chown gives dir and everything under it to the postgres user, when the nodes run as that user, and
// lets that user through the folder dir is in.
func (f *Formation) chown(dir string) error {
	if f.cred == nil {
		return nil
	}
	parent, err := os.Stat(filepath.Dir(dir))
	if err != nil {
		return err
	}
	if parent.Mode().Perm()&0o001 == 0 {
		if err := os.Chmod(filepath.Dir(dir), parent.Mode().Perm()|0o011); err != nil {
			return err
		}
	}
	return filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, int(f.cred.Uid), int(f.cred.Gid))
	})
}

// postgresUser is the credential of the system user postgres.
func postgresUser() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, so the nodes must run as the system user \"postgres\", "+
			"which does not exist (%v); create it first, e.g. with: useradd --system postgres", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}
