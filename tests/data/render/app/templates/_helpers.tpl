{{- define "app.name" -}}{{ .Release.Name }}-app{{- end -}}
