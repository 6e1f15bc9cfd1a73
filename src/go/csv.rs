//! Go's `encoding/csv` reading one record with the default `Reader`
//! (comma `,`, no leading-space trimming, no lazy quotes), as pflag's
//! `StringSlice` reads each flag value (pflag string_slice.go `readAsCSV`);
//! Helm's `-f/--values` is one (helm: pkg/cli/values/options.go
//! AddFlags... `f.StringSliceVarP(&v.ValueFiles, "values", "f", ...)`).

/// Go's `*csv.ParseError` text: `parse error on line L, column C: CAUSE`
/// (column as a 1-based byte index).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parse error on line {line}, column {column}: {cause}")]
pub struct CsvError {
    pub line: usize,
    pub column: usize,
    pub cause: &'static str,
}

const BARE_QUOTE: &str = "bare \" in non-quoted-field";
const QUOTE: &str = "extraneous or missing \" in quoted-field";

/// The first record of `text` (`csv.NewReader(strings.NewReader(text)).Read()`);
/// pflag gives `""` no record at all (`readAsCSV`: an empty value is an
/// empty slice). Empty lines before the record are skipped as Go does; a
/// `\r\n` line end reads as `\n`.
pub fn first_record(text: &str) -> Result<Vec<String>, CsvError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let normalized = text.replace("\r\n", "\n");
    let mut lines = normalized.split_inclusive('\n').enumerate().skip_while(|(_, l)| *l == "\n");
    let Some((first, mut line)) = lines.next() else { return Ok(Vec::new()) };
    let mut line_no = first + 1;
    let mut fields = Vec::new();
    let mut col = 1;
    loop {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if !line.starts_with('"') {
            let end = body.find(',').unwrap_or(body.len());
            let field = &body[..end];
            if let Some(j) = field.find('"') {
                return Err(CsvError { line: line_no, column: col + j, cause: BARE_QUOTE });
            }
            fields.push(field.to_string());
            if end == body.len() {
                return Ok(fields);
            }
            line = &body[end + 1..];
            col += end + 1;
            continue;
        }
        // A quoted field: `""` is a quote; it may run over several lines.
        let mut field = String::new();
        line = &line[1..];
        col += 1;
        loop {
            if let Some(i) = line.find('"') {
                field.push_str(&line[..i]);
                line = &line[i + 1..];
                col += i + 1;
                match line.chars().next() {
                    Some('"') => {
                        field.push('"');
                        line = &line[1..];
                        col += 1;
                    }
                    Some(',') => {
                        fields.push(field);
                        line = &line[1..];
                        col += 1;
                        break;
                    }
                    None | Some('\n') => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(_) => return Err(CsvError { line: line_no, column: col - 1, cause: QUOTE }),
                }
            } else if !line.is_empty() {
                field.push_str(line);
                col += line.len();
                match lines.next() {
                    Some((_, next)) => {
                        line = next;
                        line_no += 1;
                        col = 1;
                    }
                    None => line = "",
                }
            } else {
                return Err(CsvError { line: line_no, column: col, cause: QUOTE });
            }
        }
        if line.is_empty() {
            // `"a",` at the end: one more, empty, field.
            fields.push(String::new());
            return Ok(fields);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: usize, column: usize, cause: &'static str) -> Result<Vec<String>, CsvError> {
        Err(CsvError { line, column, cause })
    }

    /// Each answer as real Helm (v4.1.4's pflag and Go's encoding/csv) gives it for `-f VALUE`.
    #[test]
    fn records_and_errors_as_go_reads_them() {
        let ok = |v: &[&str]| Ok(v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(first_record(""), ok(&[]));
        assert_eq!(first_record("x.yaml,,y.yaml"), ok(&["x.yaml", "", "y.yaml"]));
        assert_eq!(first_record(","), ok(&["", ""]));
        assert_eq!(first_record(" v.yaml"), ok(&[" v.yaml"]));
        assert_eq!(first_record("\"v.yaml\",\"c/values.yaml\""), ok(&["v.yaml", "c/values.yaml"]));
        assert_eq!(first_record("\"a\"\"b\""), ok(&["a\"b"]));
        assert_eq!(first_record("\nnope1,nope2"), ok(&["nope1", "nope2"]));
        assert_eq!(first_record("a,b\nc"), ok(&["a", "b"]));
        assert_eq!(first_record("\"a,\nb\",c"), ok(&["a,\nb", "c"]));
        assert_eq!(first_record("\"a\","), ok(&["a", ""]));
        assert_eq!(first_record("a\"b"), err(1, 2, BARE_QUOTE));
        assert_eq!(first_record("ok\""), err(1, 3, BARE_QUOTE));
        assert_eq!(first_record("\"a\"b"), err(1, 3, QUOTE));
        assert_eq!(first_record("\"a"), err(1, 3, QUOTE));
        assert_eq!(err(1, 2, BARE_QUOTE).unwrap_err().to_string(), "parse error on line 1, column 2: bare \" in non-quoted-field");
    }
}
