//! Rule-file sources and positions in them. Spans are byte ranges into one file of a
//! [`SourceMap`]; line and column are computed only when a message is rendered.

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    /// The file's id in its [`SourceMap`].
    pub file: u32,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// A span covering `start..end` of `file`.
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// A sub-range of this span, relative to its start (used for `{...}` inside a string).
    pub fn sub(self, from: usize, to: usize) -> Span {
        Span {
            file: self.file,
            start: self.start + from as u32,
            end: (self.start + to as u32).min(self.end.max(self.start + to as u32)),
        }
    }
}

/// One loaded rule file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in messages: a path, or `<shipped>/stud.rules` for an embedded file.
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Every file read while loading one rule set (the main file and its includes).
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// Adds a file and returns its id for spans.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> u32 {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as u32
    }

    /// The file with this id, if any.
    pub fn file(&self, id: u32) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }

    /// 1-based line and column (in characters) of a span's start, and the text of that line.
    pub fn locate(&self, span: Span) -> Location<'_> {
        let Some(file) = self.file(span.file) else {
            return Location {
                file: "<unknown>",
                line: 0,
                col: 0,
                line_text: "",
            };
        };
        let start = (span.start as usize).min(file.text.len());
        let start = floor_char_boundary(&file.text, start);
        let line_start = file.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = file.text[start..].find('\n').map_or(file.text.len(), |i| start + i);
        let line = file.text[..start].matches('\n').count() + 1;
        let col = file.text[line_start..start].chars().count() + 1;
        Location {
            file: &file.name,
            line,
            col,
            line_text: file.text[line_start..line_end].trim_end_matches('\r'),
        }
    }

    /// The source text a span covers (empty if out of range).
    pub fn text(&self, span: Span) -> &str {
        self.file(span.file)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A rendered position: `file:line:col` plus the line itself.
#[derive(Debug, Clone, Copy)]
pub struct Location<'a> {
    /// The file's name as it was loaded.
    pub file: &'a str,
    /// The line, from 1.
    pub line: usize,
    /// The column in characters, from 1.
    pub col: usize,
    /// The text of that line.
    pub line_text: &'a str,
}
