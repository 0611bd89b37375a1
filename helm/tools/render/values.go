package main

// Values and chart metadata, loaded the way Helm loads them: YAML is converted through JSON, so every number
// is a float64 (as in Helm), and user values are merged over the chart's values.yaml (null deletes a key).

import (
	"encoding/json"
	"fmt"
	"os"

	yaml "gopkg.in/yaml.v2"
)

// Metadata mirrors the fields of Helm's chart.Metadata that templates use as .Chart.*.
type Metadata struct {
	APIVersion   string            `yaml:"apiVersion"`
	Name         string            `yaml:"name"`
	Version      string            `yaml:"version"`
	AppVersion   string            `yaml:"appVersion"`
	KubeVersion  string            `yaml:"kubeVersion"`
	Description  string            `yaml:"description"`
	Type         string            `yaml:"type"`
	Home         string            `yaml:"home"`
	Icon         string            `yaml:"icon"`
	Keywords     []string          `yaml:"keywords"`
	Sources      []string          `yaml:"sources"`
	Annotations  map[string]string `yaml:"annotations"`
	Deprecated   bool              `yaml:"deprecated"`
	Dependencies []interface{}     `yaml:"dependencies"`
	Maintainers  []interface{}     `yaml:"maintainers"`
}

func loadMetadata(path string) (*Metadata, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Metadata
	if err := yaml.UnmarshalStrict(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if m.Name == "" || m.Version == "" || m.APIVersion != "v2" {
		return nil, fmt.Errorf("%s: name, version and apiVersion: v2 are required", path)
	}
	return &m, nil
}

// yamlToJSONValue parses YAML and returns the JSON-compatible value (map[string]interface{}, float64, ...).
func yamlToJSONValue(raw []byte) (interface{}, error) {
	var v interface{}
	if err := yaml.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	plain, err := toStringKeys(v)
	if err != nil {
		return nil, err
	}
	j, err := json.Marshal(plain)
	if err != nil {
		return nil, err
	}
	var out interface{}
	err = json.Unmarshal(j, &out)
	return out, err
}

func toStringKeys(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, val := range t {
			ks, ok := k.(string)
			if !ok {
				ks = fmt.Sprint(k)
			}
			conv, err := toStringKeys(val)
			if err != nil {
				return nil, err
			}
			m[ks] = conv
		}
		return m, nil
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, val := range t {
			conv, err := toStringKeys(val)
			if err != nil {
				return nil, err
			}
			out[i] = conv
		}
		return out, nil
	default:
		return v, nil
	}
}

func loadValuesFile(path string) (map[string]interface{}, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v, err := yamlToJSONValue(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if v == nil {
		return map[string]interface{}{}, nil
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("%s: values must be a mapping", path)
	}
	return m, nil
}

// coalesce merges src over dst like Helm: maps merge recursively, anything else replaces, null deletes.
func coalesce(dst, src map[string]interface{}) map[string]interface{} {
	for k, sv := range src {
		if sv == nil {
			delete(dst, k)
			continue
		}
		sm, sIsMap := sv.(map[string]interface{})
		dm, dIsMap := dst[k].(map[string]interface{})
		if sIsMap && dIsMap {
			dst[k] = coalesce(dm, sm)
		} else {
			dst[k] = sv
		}
	}
	return dst
}
