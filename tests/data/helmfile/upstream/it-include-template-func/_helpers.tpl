{{- define "echo" -}}
top-{{ .Echo | trim }}
{{- end }}