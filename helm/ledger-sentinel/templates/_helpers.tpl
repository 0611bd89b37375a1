{{/* The chart name, or nameOverride. */}}
{{- define "ledger-sentinel.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: fullnameOverride, or release name (+ chart name unless it already contains it). */}}
{{- define "ledger-sentinel.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* chart label value: name-version. */}}
{{- define "ledger-sentinel.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Common labels. */}}
{{- define "ledger-sentinel.labels" -}}
helm.sh/chart: {{ include "ledger-sentinel.chart" . }}
{{ include "ledger-sentinel.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels: never change them, a Deployment's selector is immutable. */}}
{{- define "ledger-sentinel.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ledger-sentinel.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "ledger-sentinel.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "ledger-sentinel.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* repository@digest when a digest is set, else repository:tag (tag defaults to appVersion). */}}
{{- define "ledger-sentinel.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "ledger-sentinel.configMapName" -}}
{{- default (printf "%s-config" (include "ledger-sentinel.fullname" .)) .Values.existingConfigMap }}
{{- end }}

{{- define "ledger-sentinel.rulesConfigMapName" -}}
{{- default (printf "%s-rules" (include "ledger-sentinel.fullname" .)) .Values.rules.existingConfigMap }}
{{- end }}

{{- define "ledger-sentinel.claimName" -}}
{{- default (printf "%s-state" (include "ledger-sentinel.fullname" .)) .Values.persistence.existingClaim }}
{{- end }}

{{/*
The config file: the user's config with the keys the chart owns (they must agree with the state volume, the
probes and the Service) set over it, and the rules directory as rules.paths when the chart mounts rules.
*/}}
{{- define "ledger-sentinel.config" -}}
{{- $owned := dict "state" (dict "dir" "/var/lib/ledger-sentinel") "http" (dict "host" "0.0.0.0" "port" (int .Values.service.port)) }}
{{- if eq .Values.state.backend "postgres" }}
{{- $_ := set $owned "state" (dict "dir" "/var/lib/ledger-sentinel" "backend" "postgres" "postgres" (dict "url_file" (printf "/etc/ledger-sentinel/database/%s" .Values.state.database.key))) }}
{{- end }}
{{- if .Values.ha.enabled }}
{{- /* holder: the daemon defaults to $POD_NAME (downward API below); advertise_url: the pod IP. */}}
{{- $_ := set $owned "ha" (dict "enabled" true "lease_ttl" .Values.ha.leaseTtl "advertise_url" (printf "http://${POD_IP}:%d" (int .Values.service.port))) }}
{{- end }}
{{- $config := deepCopy .Values.config }}
{{- if and (not (hasKey $config "rules")) (or .Values.rules.files .Values.rules.existingConfigMap) }}
{{- $_ := set $config "rules" (dict "paths" (list "/etc/ledger-sentinel/rules/*.yaml")) }}
{{- end }}
{{- toYaml (mustMergeOverwrite $config $owned) }}
{{- end }}
