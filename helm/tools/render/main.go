// Command helm-render renders a Helm chart's templates without helm: Go's text/template with the sprig
// function library (the engine Helm itself uses) plus Helm's own functions and built-in objects.
//
//	helm-render --chart DIR [--values FILE]... [--name N] [--namespace NS] [--api-versions a/v1,b/v1]
//	            [--kube-version 1.30.0] [--strict] [--json]
//
// --strict fails on a reference to a value that does not exist (like `helm lint --strict`), which catches a
// misspelt .Values path that Helm would silently render as empty.
//
// Output: the rendered manifests as a multi-document YAML stream (like `helm template`), or with --json
// {"manifests":[{"source","content"}],"notes"} for tests. Errors go to stderr with exit status 1.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"text/template"

	yaml "gopkg.in/yaml.v2"
)

// missingKey is the text/template option for references to missing map keys.
var missingKey = "missingkey=zero"

type engine struct {
	tmpl  *template.Template
	depth map[string]int
}

type output struct {
	Manifests []manifest `json:"manifests"`
	Notes     string     `json:"notes"`
}

type manifest struct {
	Source  string `json:"source"`
	Content string `json:"content"`
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	var values listFlag
	chartDir := flag.String("chart", "", "chart directory")
	name := flag.String("name", "release-name", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	apiVersions := flag.String("api-versions", "", "extra API versions for .Capabilities.APIVersions.Has")
	kubeVersion := flag.String("kube-version", "1.30.0", "Kubernetes version for .Capabilities.KubeVersion")
	asJSON := flag.Bool("json", false, "print JSON instead of YAML")
	strict := flag.Bool("strict", false, "fail on references to missing values (missingkey=error)")
	flag.Var(&values, "values", "values file merged over the chart's values.yaml (repeatable)")
	flag.Parse()
	if *chartDir == "" {
		fail(fmt.Errorf("--chart is required"))
	}
	missingKey = map[bool]string{true: "missingkey=error", false: "missingkey=zero"}[*strict]
	out, err := render(*chartDir, values, *name, *namespace, *apiVersions, *kubeVersion)
	if err != nil {
		fail(err)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fail(err)
		}
		return
	}
	for _, m := range out.Manifests {
		fmt.Printf("---\n# Source: %s\n%s\n", m.Source, m.Content)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "helm-render: %v\n", err)
	os.Exit(1)
}

func render(chartDir string, valueFiles []string, name, namespace, apiVersions, kubeVersion string) (*output, error) {
	meta, err := loadMetadata(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	vals, err := loadValuesFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return nil, err
	}
	for _, f := range valueFiles {
		user, err := loadValuesFile(f)
		if err != nil {
			return nil, err
		}
		vals = coalesce(vals, user)
	}
	caps, err := capabilities(kubeVersion, apiVersions)
	if err != nil {
		return nil, err
	}
	top := map[string]interface{}{
		"Values":       vals,
		"Chart":        meta,
		"Capabilities": caps,
		"Files":        files{dir: chartDir},
		"Release": map[string]interface{}{
			"Name": name, "Namespace": namespace, "Service": "Helm",
			"IsInstall": true, "IsUpgrade": false, "Revision": 1,
		},
		"Subcharts": map[string]interface{}{},
	}
	return renderTemplates(chartDir, meta.Name, top)
}

func renderTemplates(chartDir, chartName string, top map[string]interface{}) (*output, error) {
	paths, err := templateFiles(filepath.Join(chartDir, "templates"))
	if err != nil {
		return nil, err
	}
	e := &engine{depth: map[string]int{}}
	e.tmpl = template.New("gotpl").Option(missingKey).Funcs(funcMap(e))
	for _, rel := range paths {
		raw, err := os.ReadFile(filepath.Join(chartDir, "templates", rel))
		if err != nil {
			return nil, err
		}
		tname := chartName + "/templates/" + rel
		if _, err := e.tmpl.New(tname).Parse(string(raw)); err != nil {
			return nil, fmt.Errorf("parse error in %s: %v", tname, err)
		}
	}
	out := &output{Manifests: []manifest{}}
	for _, rel := range paths {
		base := filepath.Base(rel)
		if strings.HasPrefix(base, "_") {
			continue
		}
		tname := chartName + "/templates/" + rel
		data := withTemplate(top, tname, chartName+"/templates")
		var buf bytes.Buffer
		if err := e.tmpl.ExecuteTemplate(&buf, tname, data); err != nil {
			return nil, err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if base == "NOTES.txt" {
			out.Notes = text
			continue
		}
		docs, err := splitDocuments(tname, text)
		if err != nil {
			return nil, err
		}
		out.Manifests = append(out.Manifests, docs...)
	}
	return out, nil
}

func withTemplate(top map[string]interface{}, name, base string) map[string]interface{} {
	data := make(map[string]interface{}, len(top)+1)
	for k, v := range top {
		data[k] = v
	}
	data["Template"] = map[string]interface{}{"Name": name, "BasePath": base}
	return data
}

func templateFiles(dir string) ([]string, error) {
	var paths []string
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(paths)
	return paths, err
}

var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// splitDocuments drops empty documents and rejects invalid YAML, as `helm template` does.
func splitDocuments(source, text string) ([]manifest, error) {
	var docs []manifest
	for _, part := range docSeparator.Split(text, -1) {
		var obj interface{}
		if err := yaml.Unmarshal([]byte(part), &obj); err != nil {
			return nil, fmt.Errorf("YAML parse error on %s: %v", source, err)
		}
		if obj == nil {
			continue
		}
		if _, ok := obj.(map[interface{}]interface{}); !ok {
			return nil, fmt.Errorf("%s: a document is not a mapping", source)
		}
		docs = append(docs, manifest{Source: source, Content: strings.TrimSpace(part)})
	}
	return docs, nil
}
