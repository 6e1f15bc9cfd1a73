{{- define "echo" -}}
values-{{ .Echo | trim }}
{{- end }}