package main

// Helm's own template functions on top of sprig (helm/pkg/engine/funcs.go), written from their documented
// behaviour: toYaml/fromYaml/toJson/fromJson, include, tpl, required, lookup (always empty without a cluster).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	yaml "gopkg.in/yaml.v2"
)

// toYAML matches sigs.k8s.io/yaml.Marshal as Helm uses it: through JSON, so keys come out sorted.
func toYAML(v interface{}) (string, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var obj interface{}
	if err := yaml.Unmarshal(j, &obj); err != nil {
		return "", err
	}
	out, err := yaml.Marshal(obj)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

func funcMap(e *engine) template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	extra := template.FuncMap{
		"toYaml": func(v interface{}) string {
			s, err := toYAML(v)
			if err != nil {
				return ""
			}
			return s
		},
		"mustToYaml": toYAML,
		"fromYaml": func(s string) map[string]interface{} {
			v, err := yamlToJSONValue([]byte(s))
			if m, ok := v.(map[string]interface{}); ok && err == nil {
				return m
			}
			return map[string]interface{}{"Error": fmt.Sprint(err)}
		},
		"fromYamlArray": func(s string) []interface{} {
			v, err := yamlToJSONValue([]byte(s))
			if a, ok := v.([]interface{}); ok && err == nil {
				return a
			}
			return []interface{}{fmt.Sprint(err)}
		},
		"toJson": func(v interface{}) string {
			b, err := json.Marshal(v)
			if err != nil {
				return ""
			}
			return string(b)
		},
		"mustToJson": func(v interface{}) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		"fromJson": func(s string) map[string]interface{} {
			m := map[string]interface{}{}
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				m["Error"] = err.Error()
			}
			return m
		},
		"required": func(msg string, v interface{}) (interface{}, error) {
			if v == nil {
				return v, errors.New(msg)
			}
			if s, ok := v.(string); ok && s == "" {
				return v, errors.New(msg)
			}
			return v, nil
		},
		"lookup": func(string, string, string, string) (map[string]interface{}, error) {
			return map[string]interface{}{}, nil
		},
		"include": e.include,
		"tpl":     e.tpl,
	}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

// include renders a named template to a string, guarding against runaway recursion like Helm does.
func (e *engine) include(name string, data interface{}) (string, error) {
	e.depth[name]++
	defer func() { e.depth[name]-- }()
	if e.depth[name] > 1000 {
		return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
	}
	var buf bytes.Buffer
	if err := e.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// tpl renders a string as a template with the chart's named templates available.
func (e *engine) tpl(text string, data interface{}) (string, error) {
	clone, err := e.tmpl.Clone()
	if err != nil {
		return "", err
	}
	t, err := clone.New("tpl").Option(missingKey).Parse(text)
	if err != nil {
		return "", fmt.Errorf("cannot parse template %q: %v", text, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return "", fmt.Errorf("error during tpl function execution for %q: %v", text, err)
	}
	return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
}
