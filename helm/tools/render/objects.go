package main

// The built-in objects .Files and .Capabilities, with the methods templates call on them.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type files struct{ dir string }

// Get returns a chart file's content, or "" when it does not exist (Helm's behaviour).
func (f files) Get(name string) string {
	return string(f.GetBytes(name))
}

func (f files) GetBytes(name string) []byte {
	clean := filepath.Clean("/" + name)
	if strings.HasPrefix(clean, "/templates/") {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(f.dir, clean))
	if err != nil {
		return nil
	}
	return raw
}

func (f files) Lines(name string) []string {
	s := f.Get(name)
	if s == "" {
		return []string{}
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Glob returns a map of chart-relative path to content for files that match pattern.
func (f files) Glob(pattern string) map[string]string {
	matches, _ := filepath.Glob(filepath.Join(f.dir, pattern))
	out := map[string]string{}
	for _, m := range matches {
		rel, _ := filepath.Rel(f.dir, m)
		if raw, err := os.ReadFile(m); err == nil {
			out[filepath.ToSlash(rel)] = string(raw)
		}
	}
	return out
}

type apiVersions []string

func (a apiVersions) Has(v string) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

type kubeVersion struct {
	Version, Major, Minor, GitVersion string
}

func (k kubeVersion) String() string { return k.Version }

type caps struct {
	KubeVersion kubeVersion
	APIVersions apiVersions
	HelmVersion map[string]string
}

// The API groups every cluster serves; CRD groups (monitoring.coreos.com/v1) only when --api-versions says so.
var builtinAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "policy/v1", "networking.k8s.io/v1", "rbac.authorization.k8s.io/v1",
	"autoscaling/v2", "storage.k8s.io/v1", "apiextensions.k8s.io/v1",
}

func capabilities(version, extra string) (caps, error) {
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) < 2 {
		return caps{}, fmt.Errorf("--kube-version %q: expected MAJOR.MINOR.PATCH like 1.30.0", version)
	}
	versions := append(apiVersions{}, builtinAPIVersions...)
	for _, v := range strings.Split(extra, ",") {
		if v = strings.TrimSpace(v); v != "" {
			versions = append(versions, v)
		}
	}
	v := "v" + strings.TrimPrefix(version, "v")
	return caps{
		KubeVersion: kubeVersion{Version: v, Major: parts[0], Minor: parts[1], GitVersion: v},
		APIVersions: versions,
		HelmVersion: map[string]string{"Version": "v3-compatible (helm-render)"},
	}, nil
}
